"""The showdown: each hand's value, who wins each pot or each half of it, and who receives
what cannot be divided equally.

- High, Low, or High-low-hand Split (§ 553.10(i); § 553.12(j); § 553.13(i)); a hand the game
  defines with ``use:`` takes exactly that many cards of each group (Omaha, § 553.12(j)).
- Eight or better (§ 553.10(j); § 553.12(k)): a low hand that does not qualify wins
  nothing; with no qualifying low the high hand takes the entire pot.
- Ties divide equally (§ 553.4(e)). A split pot's excess goes to the high hand
  (§ 553.10(i)(2)(i)); a tied half's excess to the highest (high) or lowest (low) card by
  suit ((ii)-(iv)); where the source caps the excess at $1, it is given one chip of at most
  $1 at a time, in that order, so that every share is paid in chips (``divide``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from validator.cards import cards_str
from validator.compiler import Game
from validator.interpreter.poker.money import Cents, dollar_text
from validator.interpreter.poker.pots import Pot
from validator.model.game import GameDefinition
from validator.model.poker import OddChips
from validator.model.ranking import CardOrder
from validator.rankings.evaluator import HandValue, card_order_key, low_rank


@dataclass(frozen=True)
class ShownHand:
    """One player's hands at the showdown."""

    seat: int
    cards: tuple[int, ...]  # the player's own cards
    high: HandValue | None
    low: HandValue | None  # the best low, qualifying or not
    low_qualifies: bool

    def describe(self, part: str) -> str:
        value = self.high if part == "high" else self.low
        if value is None:
            return "no hand"
        return f"{value.name} ({cards_str(value.cards)})"


def hand_value(game: Game, hand_id: str, player: Sequence[int], board: Sequence[int]) -> HandValue:
    """The value of one of the game's hands over a player's cards and the board."""
    hd = game.hand(hand_id)
    ev = game.evaluator(hand_id)
    groups = {"player": list(player), "board": list(board)}
    if hd.use is not None:
        return ev.best_using([(groups.get(g, []), n) for g, n in hd.use.items()])
    return ev.best([c for g in hd.cards for c in groups.get(g, [])])


def show(game: Game, seat: int, player: Sequence[int], board: Sequence[int]) -> ShownHand:
    sd = game.definition.showdown
    assert sd is not None
    high = hand_value(game, sd.high, player, board) if sd.high else None
    low = hand_value(game, sd.low, player, board) if sd.low else None
    qualifies = low is not None
    if low is not None and sd.low is not None:
        qualifier = game.hand(sd.low).qualifier
        if qualifier is not None:
            qualifies = game.evaluator(sd.low).qualifies(low, qualifier)
    return ShownHand(seat, tuple(player), high, low, qualifies)


@dataclass(frozen=True)
class Share:
    seat: int
    amount: Cents
    reason: str


@dataclass
class Half:
    """What one part of a pot (the whole pot, or its high or low half) went to."""

    part: str  # "high" | "low" | "pot"
    amount: Cents
    winners: tuple[int, ...]
    hands: dict[int, str]
    shares: list[Share] = field(default_factory=list)
    odd_chip: Share | None = None  # the first (or only) player given what cannot be divided
    odd_chips: list[Share] = field(default_factory=list)  # everyone given a part of it


@dataclass
class PotResult:
    pot: Pot
    rake: Cents
    bad_beat: Cents
    halves: list[Half]
    reason: str

    @property
    def net(self) -> Cents:
        return self.pot.amount - self.rake - self.bad_beat

    def awards(self) -> dict[int, Cents]:
        out: dict[int, Cents] = {}
        for h in self.halves:
            for s in h.shares:
                out[s.seat] = out.get(s.seat, 0) + s.amount
        return out


def divide(amount: Cents, n: int, chip: Cents, cap: Cents | None) -> list[Cents]:
    """``amount`` divided equally among ``n`` players, in the table's chips, the excess by
    the order the players are given in (the first is owed it first).

    Where the source caps the excess ("which may not exceed $1", § 553.10(i)(2)(i)-(iii);
    § 553.12(j)(2)(i)-(iii)) the division is in chips of at most the cap (a larger chip is
    changed down to it), and what cannot be divided is given one such chip at a time, in
    order: no player receives more than the cap as excess, and nobody is paid in cents a
    chip cannot make. A three-way tie for $20 in $1 chips is $7, $7 and $6, never $6.66.
    Where no cap is stated, the whole excess in the table's chip goes to the first."""
    unit = chip if cap is None else min(chip, cap)
    share = amount // (n * unit) * unit
    excess = amount - n * share
    if cap is None:
        return [share + excess] + [share] * (n - 1)
    out = []
    for _ in range(n):
        extra = min(unit, excess)
        excess -= extra
        out.append(share + extra)
    return out


class Splitter:
    """Divides pots by the game's showdown rules."""

    def __init__(self, game: Game, card_orders: Mapping[str, CardOrder], chip: Cents) -> None:
        d: GameDefinition = game.definition
        assert d.showdown is not None
        self.game = game
        self.showdown = d.showdown
        self.odd: OddChips = d.showdown.odd_chips
        self.order = card_orders[self.odd.card_order]
        self.chip = chip
        self.cap = None if self.odd.cap is None else int(self.odd.cap * 100)

    # -- who has the best hand ---------------------------------------------------------------

    @staticmethod
    def best(hands: Sequence[ShownHand], part: str) -> tuple[int, ...]:
        values = [
            (h.seat, v) for h in hands if (v := h.high if part == "high" else h.low) is not None
        ]
        if not values:
            return ()
        top = max(v.key for _, v in values)
        return tuple(s for s, v in values if v.key == top)

    # -- the odd chip ------------------------------------------------------------------------

    def odd_chip_order(self, tied: Sequence[ShownHand], part: str) -> list[ShownHand]:
        """The tied players in the order the excess goes to them. High: the highest card by
        suit first, the tied hands compared from their highest card, then the players'
        other cards. Low: the lowest card by suit first, from the lowest card."""

        def high_seq(h: ShownHand) -> tuple[tuple[int, int], ...]:
            assert h.high is not None
            used = list(h.high.cards)
            rest = [c for c in h.cards if c not in used]
            key = lambda c: card_order_key(self.order, c)  # noqa: E731
            return tuple(key(c) for c in sorted(used, key=key, reverse=True)) + tuple(
                key(c) for c in sorted(rest, key=key, reverse=True)
            )

        def low_seq(h: ShownHand) -> tuple[tuple[int, int], ...]:
            assert h.low is not None
            used = list(h.low.cards)
            rest = [c for c in h.cards if c not in used]
            key = lambda c: (low_rank(c), card_order_key(self.order, c)[1])  # noqa: E731
            return tuple(key(c) for c in sorted(used, key=key)) + tuple(
                key(c) for c in sorted(rest, key=key)
            )

        if self.tie_rule(part) == "lowest_card_by_suit":
            return sorted(tied, key=low_seq)
        return sorted(tied, key=high_seq, reverse=True)  # highest_card_by_suit

    def tie_rule(self, part: str) -> str:
        """How a tied half's excess is given, as the game declares it (§ 553.10(i)(2)(ii),
        (iii)): ``highest_card_by_suit`` or ``lowest_card_by_suit``."""
        return self.odd.low_ties if part == "low" else self.odd.high_ties

    def odd_chip_seat(self, tied: Sequence[ShownHand], part: str) -> int:
        return self.odd_chip_order(tied, part)[0].seat

    def _cite(self, part: str) -> str:
        return self.odd.cite

    def split_part(self, part: str, amount: Cents, winners: Sequence[ShownHand], why: str) -> Half:
        """One part of a pot divided equally among tied winners, the excess by suit."""
        seats = tuple(h.seat for h in winners)
        hands = {h.seat: h.describe("low" if part == "low" else "high") for h in winners}
        half = Half(part, amount, seats, hands)
        if len(winners) == 1:
            half.shares.append(Share(seats[0], amount, why))
            return half
        ordered = self.odd_chip_order(winners, "low" if part == "low" else "high")
        amounts = divide(amount, len(winners), self.chip, self.cap)
        share = min(amounts)
        tie = f"tied {len(winners)} ways, divided equally ({dollar_text(share)} each)"
        by = self.tie_rule(part).split("_")[0]  # "highest" or "lowest" card by suit
        paid = dict(zip((h.seat for h in ordered), amounts, strict=True))
        for h in winners:
            half.shares.append(Share(h.seat, paid[h.seat], f"{why}; {tie}"))
        unit = self.chip if self.cap is None else min(self.chip, self.cap)
        for rank, h in enumerate(ordered):
            extra = paid[h.seat] - share
            if not extra:
                continue
            place = "" if rank == 0 else f" (the next {by} after the player before)"
            each = (
                f"the {dollar_text(extra)} that cannot be divided goes to the tied player "
                f"with the {by} card by suit"
                if self.cap is None
                else f"{dollar_text(extra)} of what cannot be divided equally, one "
                f"{dollar_text(unit)} chip at most to a player, goes to the tied player with "
                f"the {by} card by suit{place}"
            )
            half.odd_chips.append(Share(h.seat, extra, f"{each} [{self._cite(part)}]"))
        half.odd_chip = half.odd_chips[0] if half.odd_chips else None
        return half

    # -- a whole pot ------------------------------------------------------------------------

    def settle(
        self, pot: Pot, net: Cents, hands: dict[int, ShownHand], rake: Cents, bad_beat: Cents
    ) -> PotResult:
        sd = self.showdown
        if len(pot.eligible) == 1:
            seat = pot.eligible[0]
            why = f"the only player still in eligible for the {pot.name}"
            half = Half("pot", net, (seat,), {})
            half.shares.append(Share(seat, net, why))
            return PotResult(pot, rake, bad_beat, [half], why)
        contenders = [hands[s] for s in pot.eligible]
        if sd.pot in ("high", "low"):
            part = sd.pot
            if part == "low":  # a low-only game: only a qualifying low may win
                contenders = [h for h in contenders if h.low is not None and h.low_qualifies]
            winners = self.best(contenders, part)
            if not winners:
                raise ValueError(f"no {part} hand can win the {pot.name}")
            why = f"the {'highest ranking high' if part == 'high' else 'best low'} hand [{sd.cite}]"
            half = self.split_part(part, net, [hands[s] for s in winners], why)
            return PotResult(pot, rake, bad_beat, [half], why)
        high_seats = self.best(contenders, "high")
        qualifying = [h for h in contenders if h.low is not None and h.low_qualifies]
        low_seats = self.best(qualifying, "low")
        if not low_seats:
            cite = sd.no_qualifying_low.cite if sd.no_qualifying_low else sd.cite
            why = f"no hand qualifies for low: the highest high hand takes the entire pot [{cite}]"
            half = self.split_part("high", net, [hands[s] for s in high_seats], why)
            return PotResult(pot, rake, bad_beat, [half], why)
        larger, smaller = divide(net, 2, self.chip, self.cap)
        to = self.odd.pot_excess_to  # the half given the excess (§ 553.10(i)(2)(i): high)
        high_half, low_half = (larger, smaller) if to == "high" else (smaller, larger)
        part_why = {
            "high": f"the highest ranking high hand wins half the pot [{sd.cite}]",
            "low": f"the best qualifying low hand wins half the pot [{sd.cite}]",
        }
        if larger != smaller:
            part_why[to] += (
                f"; the {dollar_text(larger - smaller)} that cannot be divided equally goes to "
                f"the {to} hand [{self._cite('pot')}]"
            )
        halves = [
            self.split_part("high", high_half, [hands[s] for s in high_seats], part_why["high"]),
            self.split_part("low", low_half, [hands[s] for s in low_seats], part_why["low"]),
        ]
        if set(high_seats) == set(low_seats) and len(high_seats) == 1:
            reason = "one player has both the high and the low hand: he takes both halves"
        else:
            reason = "the pot is split between the high hand and the low hand"
        return PotResult(pot, rake, bad_beat, halves, reason)
