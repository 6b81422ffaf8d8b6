"""The showdown: each hand's value, who wins each pot or each half of it, and who receives
what cannot be divided equally.

- High, Low, or High-low-hand Split (§ 553.10(i); § 553.12(j); § 553.13(i)); a hand the game
  defines with ``use:`` takes exactly that many cards of each group (Omaha, § 553.12(j)).
- Eight or better (§ 553.10(j); § 553.12(k)): a low hand that does not qualify wins
  nothing; with no qualifying low the high hand takes the entire pot.
- Ties divide equally (§ 553.4(e)). A split pot's excess goes to the high hand
  (§ 553.10(i)(2)(i)); a tied half's excess to the highest (high) or lowest (low) card by
  suit ((ii)-(iv)); where the source caps the excess at $1, it is given one chip of at most
  $1 at a time, in that order, so that every share is paid in chips. The settlement kernel
  (``fast.settle``) divides; ``Splitter`` explains its awards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from validator.cards import card_str, cards_str
from validator.compiler import Game
from validator.model.game import GameDefinition
from validator.model.poker import OddChips
from validator.model.ranking import CardOrder
from validator.money import Cents, dollar_text
from validator.rankings.evaluator import HandValue


@dataclass(frozen=True)
class Uncalled:
    """The part of the largest contribution no other player matched: it returns to its
    bettor, no part of any pot and not raked (§ 553.15(d))."""

    seat: int
    amount: Cents


@dataclass(frozen=True)
class Pot:
    """A layer of the contributions (§ 553.8(b)(4)): an All-in player "shall only be
    eligible to win the amount of the pot to which he contributed"."""

    index: int  # 0 the main pot, then the side pots in the order they formed
    amount: Cents
    level: Cents  # the contribution this pot covers up to, per player
    eligible: tuple[int, ...]  # the players still in who may win it
    contributors: tuple[int, ...]  # every player whose chips are in it

    @property
    def name(self) -> str:
        return "main pot" if self.index == 0 else f"side pot {self.index}"


@dataclass(frozen=True)
class ShownHand:
    """One player's hands at the showdown."""

    seat: int
    cards: tuple[int, ...]  # the player's own cards
    high: HandValue | None
    low: HandValue | None  # the best low, qualifying or not
    low_qualifies: bool

    def describe(self, part: str) -> str:
        """A hand as the narration names it: its category and cards; a low of five
        different ranks by its cards from the highest, as a player calls it ("8-7-5-3-A",
        § 553.4(d): a low is ranked by its cards), never "No pair"."""
        value = self.high if part == "high" else self.low
        if value is None:
            return "no hand"
        ranks = [card_str(c)[:-1] for c in value.cards]
        if part == "low" and len(set(ranks)) == len(ranks) == 5:
            return f"{'-'.join(r.replace('T', '10') for r in ranks)} ({cards_str(value.cards)})"
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


class Splitter:
    """A game's showdown rules: the order a tie's excess goes in, and each pot's awards
    explained by them (who won each part and why, who was given what cannot be divided)."""

    def __init__(self, game: Game, card_orders: Mapping[str, CardOrder], chip: Cents) -> None:
        d: GameDefinition = game.definition
        assert d.showdown is not None
        self.game = game
        self.showdown = d.showdown
        self.odd: OddChips = d.showdown.odd_chips
        self.order = card_orders[self.odd.card_order]
        self.chip = chip
        self.cap = None if self.odd.cap is None else int(self.odd.cap * 100)

    def tie_rule(self, part: str) -> str:
        """How a tied half's excess is given, as the game declares it (§ 553.10(i)(2)(ii),
        (iii)): ``highest_card_by_suit`` or ``lowest_card_by_suit``."""
        return self.odd.low_ties if part == "low" else self.odd.high_ties

    # -- a pot's awards (the settlement kernel's, read from its operation log) explained

    def part(
        self,
        part: str,
        winners: Sequence[ShownHand],
        paid: Sequence[tuple[int, Cents]],
        why: str,
        places: Mapping[str, Mapping[int, int]],
    ) -> Half:
        """One part of a pot, ``paid`` to its tied winners (seat, amount); ``places``: by
        ``high`` and ``low``, each tied seat's place in the order the settlement kernel gave
        the excess by card and suit (``fast.odd_chip.odd_chip_order``), where it had to."""
        side = "low" if part == "low" else "high"
        seats = tuple(h.seat for h in winners)
        hands = {h.seat: h.describe(side) for h in winners}
        amounts = dict(paid)
        half = Half(part, sum(amounts.values()), seats, hands)
        if len(winners) == 1:
            half.shares.append(Share(seats[0], amounts[seats[0]], why))
            return half
        share = min(amounts.values())
        tie = f"tied {len(winners)} ways, divided equally ({dollar_text(share)} each)"
        for h in winners:
            half.shares.append(Share(h.seat, amounts[h.seat], f"{why}; {tie}"))
        if all(a == share for a in amounts.values()):
            return half
        ordered = sorted(winners, key=lambda h: places[side][h.seat])
        for rank, h in enumerate(ordered):
            extra = amounts[h.seat] - share
            if extra:
                reason = self.odd_chip_reason(part, extra, rank == 0)
                half.odd_chips.append(Share(h.seat, extra, reason))
        half.odd_chip = half.odd_chips[0] if half.odd_chips else None
        return half

    def odd_chip_reason(self, part: str, extra: Cents, first: bool) -> str:
        """Why a tied player of ``part`` is given ``extra`` of what cannot be divided
        (``first``: the first in the order by card and suit)."""
        by = self.tie_rule(part).split("_")[0]  # "highest" or "lowest" card by suit
        if self.cap is None:
            each = (
                f"the {dollar_text(extra)} that cannot be divided goes to the tied player "
                f"with the {by} card by suit"
            )
        else:
            place = "" if first else f" (the next {by} after the player before)"
            each = (
                f"{dollar_text(extra)} of what cannot be divided equally, one "
                f"{dollar_text(min(self.chip, self.cap))} chip at most to a player, goes to "
                f"the tied player with the {by} card by suit{place}"
            )
        return f"{each} [{self.odd.cite}]"

    def explain(
        self,
        pot: Pot,
        rake: Cents,
        bad_beat: Cents,
        hands: Mapping[int, ShownHand],
        awards: Mapping[int, Sequence[tuple[int, Cents]]],
        places: Mapping[str, Mapping[int, int]],
    ) -> PotResult:
        """A pot awarded (``awards``: by part, 0 the whole pot, 1 the high half, 2 the low
        half, each seat paid and how much; ``places``: as ``part`` reads them)."""
        sd = self.showdown
        net = pot.amount - rake - bad_beat
        if len(pot.eligible) == 1:
            seat = pot.eligible[0]
            why = f"the only player still in eligible for the {pot.name}"
            half = Half("pot", net, (seat,), {})
            half.shares.append(Share(seat, net, why))
            return PotResult(pot, rake, bad_beat, [half], why)

        def won(part: int) -> list[ShownHand]:
            return [hands[s] for s in sorted(s for s, _ in awards[part])]

        if sd.pot in ("high", "low"):
            why = (
                f"the {'highest ranking high' if sd.pot == 'high' else 'best low'} hand [{sd.cite}]"
            )
            half = self.part(sd.pot, won(0), awards[0], why, places)
            return PotResult(pot, rake, bad_beat, [half], why)
        if 0 in awards:
            cite = sd.no_qualifying_low.cite if sd.no_qualifying_low else sd.cite
            why = f"no hand qualifies for low: the highest high hand takes the entire pot [{cite}]"
            half = self.part("high", won(0), awards[0], why, places)
            return PotResult(pot, rake, bad_beat, [half], why)
        high_half, low_half = (sum(a for _, a in awards[k]) for k in (1, 2))
        to = self.odd.pot_excess_to  # the half given the excess (§ 553.10(i)(2)(i))
        part_why = {
            "high": f"the highest ranking high hand wins half the pot [{sd.cite}]",
            "low": f"the best qualifying low hand wins half the pot [{sd.cite}]",
        }
        if high_half != low_half:  # said of the half: where it is tied, (ii)/(iii) say who
            part_why[to] += (
                f"; the {dollar_text(abs(high_half - low_half))} that cannot be divided "
                f"equally goes with the {to} half [{self.odd.cite}]"
            )
        high_seats, low_seats = won(1), won(2)
        halves = [
            self.part("high", high_seats, awards[1], part_why["high"], places),
            self.part("low", low_seats, awards[2], part_why["low"], places),
        ]
        if {h.seat for h in high_seats} == {h.seat for h in low_seats} and len(high_seats) == 1:
            reason = "one player has both the high and the low hand: he takes both halves"
        else:
            reason = "the pot is split between the high hand and the low hand"
        return PotResult(pot, rake, bad_beat, halves, reason)
