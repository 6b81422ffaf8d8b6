"""The scalar engine: one round, step by step, exactly as the game file's procedure says.

Every step of ``procedure:`` has a handler here (``_step_<kind>``); every settlement line is
settled by the first row of its decision table whose conditions hold, and the result keeps
which row applied, its citation and the hands each side held, so that a disputed round can
be explained wager by wager. Money is ``Decimal``, exact.

Cards come from a ``CardSource``: the cards a round file states (``rulesub settle``) or a
shuffled deck (``rulesub play``). A deck is dealt in the order the chapter deals it (one card
at a time around the table, see ``deal_order``), which the batch engine reproduces, so the
same deck settles the same in both engines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from typing import Any

from validator.cards import card_str, cards_str, parse_card, rank_of
from validator.interpreter.errors import RoundError, unpaid_winner
from validator.interpreter.meters import PAYOUT_ROUNDING, MeterBank, payout_of
from validator.interpreter.results import (
    HandShown,
    Ledger,
    LineResult,
    RoundResult,
    SeatResult,
    WagerResult,
    money,
)
from validator.interpreter.rules import Rules
from validator.model.game import HandDef
from validator.model.notation import Payout, PayoutKind
from validator.model.procedure import (
    Compare,
    DealStep,
    DecideStep,
    DrawStep,
    Line,
    Option,
    Pays,
    QualifyStep,
    ReplaceStep,
    RevealStep,
    SettleStep,
    Strategy,
    TableSystemStep,
    WagersStep,
    When,
)
from validator.rankings.evaluator import HandValue
from validator.rankings.primitives import Hand, find
from validator.vocabulary import CONDITION, STEP, TABLE_FEATURE, meaning, meaning_of

#: the condition keys, in the order a row's reasons are told
CONDITION_KEYS = tuple(When.model_fields)


# -- dealing ----------------------------------------------------------------------------------

Recipient = tuple[str, int]  # (group, seat number; 0 for the dealer/community/a spot)


def deal_order(step: DealStep, seats: list[int]) -> list[Recipient]:
    """The recipient of each card a deal step takes from the deck, in order: burns first,
    then one card at a time around the table from the dealer's left, the dealer (or the
    community, or a spot) after the players in each turn."""
    order: list[Recipient] = [("burn", 0)] * step.burn
    for turn in range(max(step.cards.values(), default=0)):
        for group, n in step.cards.items():
            if turn >= n:
                continue
            if group == "player":
                order += [("player", s) for s in seats]
            else:
                order.append((group, 0))
    return order


class CardSource:
    """Where a round's cards come from."""

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        raise NotImplementedError

    def next(self, n: int, why: str) -> list[int]:
        raise NotImplementedError


class DeckSource(CardSource):
    """A shuffled deck, dealt as the chapter deals it. Records what was taken, in order."""

    def __init__(self, order: list[int]) -> None:
        self.order = list(order)
        self.pos = 0
        self.extra: list[int] = []  # cards taken outside the deals to players/dealer/community

    def _take(self) -> int:
        if self.pos >= len(self.order):
            raise RoundError("the deck ran out of cards")
        c = self.order[self.pos]
        self.pos += 1
        return c

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        out: dict[Recipient, list[int]] = {}
        for who in deal_order(step, seats):
            c = self._take()
            if who[0] == "burn":
                continue
            out.setdefault(who, []).append(c)
            if who[0] not in ("player", "dealer", "community"):
                self.extra.append(c)
        return out

    def next(self, n: int, why: str) -> list[int]:
        cards = [self._take() for _ in range(n)]
        self.extra += cards
        return cards

    @property
    def stub(self) -> list[int]:
        return self.order[self.pos :]


class FileSource(CardSource):
    """The cards a round file states: each seat's, the dealer's, the community's; every other
    card (a Six Card Bonus card, a draw, a dealer's replacement) from ``deck`` in order."""

    def __init__(
        self, seats: dict[int, list[int]], dealer: list[int], community: list[int], deck: list[int]
    ) -> None:
        self.given = {("player", s): list(c) for s, c in seats.items()}
        self.given[("dealer", 0)] = list(dealer)
        self.given[("community", 0)] = list(community)
        self.deck = deque(deck)
        self.taken: dict[Recipient, int] = {}

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        out: dict[Recipient, list[int]] = {}
        for group, n in step.cards.items():
            whos = [("player", s) for s in seats] if group == "player" else [(group, 0)]
            for who in whos:
                if who in self.given:
                    start = self.taken.get(who, 0)
                    out[who] = self.given[who][start : start + n]
                    self.taken[who] = start + n
                else:
                    out[who] = self.next(n, f"the {group.replace('_', ' ')}")
        return out

    def next(self, n: int, why: str) -> list[int]:
        if len(self.deck) < n:
            raise RoundError(
                f"the round needs {n} more card(s) from `deck` for {why}; the deck lists the "
                "next cards in order (draws, a sixth card, the bonus card, a dealer replacement)",
                "/deck",
            )
        return [self.deck.popleft() for _ in range(n)]


# -- the state of a round ---------------------------------------------------------------------


@dataclass
class Cards:
    dealt: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)

    def add(self, cards: list[int]) -> None:
        self.dealt += cards
        self.held += cards


@dataclass
class Action:
    option: str
    multiple: int | str | None = None  # an int, "max", or None
    cards: list[int] = field(default_factory=list)  # exchange: the discards
    keep: int | None = None  # exchange: keep the n highest cards
    keep_paired: bool = False  # exchange: keep the cards of ranks held more than once
    text: str = ""


def parse_action(text: str) -> Action:
    """``play 3x``, ``raise max``, ``fold``, ``exchange 2C 5D 9H``, ``bet``."""
    words = text.replace(",", " ").split()
    if not words:
        raise RoundError("an empty action")
    a = Action(option=words[0].lower(), text=" ".join(words))
    for w in words[1:]:
        lw = w.lower()
        if lw == "max":
            a.multiple = "max"
        elif lw.endswith("x") and lw[:-1].isdigit():
            a.multiple = int(lw[:-1])
        else:
            try:
                a.cards.append(parse_card(w))
            except ValueError:
                raise RoundError(
                    f"action {text!r}: {w!r} is neither a multiple like 2x nor a card"
                ) from None
    return a


@dataclass
class Seat:
    number: int
    stakes: dict[str, Decimal]
    actions: deque[str] | None  # the round file's actions; None: a strategy decides
    actions_pointer: str = ""
    cards: dict[str, Cards] = field(default_factory=dict)
    folded: bool = False
    decided: dict[str, str] = field(default_factory=dict)
    taken: list[str] = field(default_factory=list)  # the actions, as written
    pending: Action | None = None
    fees: Decimal = Decimal(0)
    placed_by: dict[str, str] = field(default_factory=dict)
    lines: dict[str, LineResult] = field(default_factory=dict)
    standing: set[str] = field(default_factory=set)  # spots not returned by a void

    @property
    def dealt_in(self) -> bool:
        return bool(self.cards.get("player") and self.cards["player"].dealt)

    def wagered(self, wager: str) -> bool:
        return any(
            (s == wager or s.startswith(wager + ".")) and v > 0 for s, v in self.stakes.items()
        )


class Engine:
    """Runs rounds of one game at one table (its meters persist from round to round)."""

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | None = None,
        meters: MeterBank | None = None,
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.meters = meters if meters is not None else rules.new_meters()

    def run(
        self,
        seats: list[Seat],
        source: CardSource,
        table_system: dict[str, tuple[str, int]] | Callable[[str, str], tuple[str, int]],
        irregularity: str | None = None,
    ) -> RoundResult:
        r = _Round(self, seats, source, table_system, irregularity)
        return r.play()


class _Round:
    def __init__(
        self,
        engine: Engine,
        seats: list[Seat],
        source: CardSource,
        table_system: Any,
        irregularity: str | None,
    ) -> None:
        self.e = engine
        self.rules = engine.rules
        self.seats = seats
        self.by_number = {s.number: s for s in seats}
        self.source = source
        self.table_system = table_system
        self.irregularity = irregularity
        self.table: dict[str, Cards] = {}  # dealer, community, named spots
        self.up: list[int] = []
        self.events: dict[str, tuple[str, int]] = {}
        self.narration: list[tuple[str, str]] = []
        self.ledger = Ledger()
        self.pots: dict[str, Decimal] = {}
        self.version = 0
        self._values: dict[tuple[str, int, int], HandValue | None] = {}
        self._held: dict[tuple[str, int, int], Any] = {}
        self.revealed = False
        self.qualified_at = -1
        self.replaced: dict[str, str] | None = None
        self.meters_before = engine.meters.snapshot()
        self._rounded = ""  # the rounding of the payout being settled, if any

    # -- running ------------------------------------------------------------------------

    def play(self) -> RoundResult:
        void = self.rules.void(self.irregularity) if self.irregularity is not None else None
        for seat in self.seats:
            for spot in seat.stakes:
                if void is None or self.rules.stands_in_void(spot, void):
                    seat.standing.add(spot)
        for step in self.rules.procedure:
            if void is not None and not isinstance(step, WagersStep | DealStep | TableSystemStep):
                continue
            meaning_of(STEP.id, step.step, "scalar")(self, step)
        if void is not None:
            self.narrate(void.cite, f"void: {void.name}; the wagers are returned")
            for seat in self._ordered("from_dealer_right"):
                for lid in void.settles:
                    self._settle_line(seat, lid, self.rules.lines[lid])
        self._apply_payout_limit()
        return self._result(void.name if void else None)

    def narrate(self, cite: str, text: str) -> None:
        self.narration.append((cite, text))

    def _ordered(self, order: str) -> list[Seat]:
        seats = sorted(self.seats, key=lambda s: s.number)
        return seats if order == "from_dealer_left" else seats[::-1]

    # -- steps --------------------------------------------------------------------------

    @meaning("scalar", STEP.id, "wagers")
    def _step_wagers(self, step: WagersStep) -> None:
        meter_tables = self.rules.meter_tables()
        for seat in self.seats:
            for spot, stake in seat.stakes.items():
                self.ledger.wagered += stake
                self.ledger.house += stake
                wager = self.rules.spot_wager(spot)
                if wager in meter_tables and spot in seat.standing:
                    for m in self.e.meters.for_table(meter_tables[wager]):
                        c = m.contribute(stake)
                        self.ledger.contributions += c
                        self.ledger.house -= c
        self.narrate(step.cite, "no more bets")

    @meaning("scalar", STEP.id, "deal")
    def _step_deal(self, step: DealStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.seats):
            return
        seats = [
            s.number
            for s in self._ordered("from_dealer_left")
            if s.stakes and ("player" not in step.cards or self.holds(step.players, s))
        ]
        dealt = self.source.deal(step, seats)
        for (group, number), cards in dealt.items():
            if group == "player":
                self.by_number[number].cards.setdefault("player", Cards()).add(cards)
            else:
                self.table.setdefault(group, Cards()).add(cards)
        for group, positions in step.face_up.items():
            if group == "dealer":
                d = self.table["dealer"].dealt
                self.up += [d[p - 1] for p in positions if p - 1 < len(d)]
        self.version += 1
        what = ", ".join(f"{n} to {g.replace('_', ' ')}" for g, n in step.cards.items())
        burn = f"burn {step.burn} card{'s' if step.burn > 1 else ''}, then " if step.burn else ""
        self.narrate(
            step.cite,
            f"{burn}deal {what}"
            + (
                f" (dealer's up card {cards_str(self.up)})"
                if self.up and "dealer" in step.cards
                else ""
            ),
        )

    @meaning("scalar", STEP.id, "table_system")
    def _step_table_system(self, step: TableSystemStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.seats):
            return
        for draw_id, kind in step.draws.items():
            if callable(self.table_system):
                if not self.rules.draw_enabled(draw_id):
                    continue
                self.events[draw_id] = self.table_system(draw_id, kind)
            elif draw_id in self.table_system:
                self.events[draw_id] = self.table_system[draw_id]
        shown = ", ".join(f"{k} {_event_str(v)}" for k, v in self.events.items())
        self.narrate(step.cite, f"table game system draws: {shown or 'none given'}")

    @meaning("scalar", STEP.id, "reveal")
    def _step_reveal(self, step: RevealStep) -> None:
        self.revealed = True
        d = self.table.get("dealer")
        if d:
            self.narrate(step.cite, f"dealer reveals {cards_str(d.held)}")

    @meaning("scalar", STEP.id, "qualify")
    def _step_qualify(self, step: QualifyStep) -> None:
        q = self.rules.qualifier
        if q is None or self.qualified_at == self.version:  # nothing changed since
            return
        self.qualified_at = self.version
        v = self.value(q[0], None)
        ok = self.dealer_qualifies()
        self.narrate(step.cite, f"dealer's {v} {'qualifies' if ok else 'does not qualify'}")

    @meaning("scalar", STEP.id, "replace")
    def _step_replace(self, step: ReplaceStep) -> None:
        if not self.holds(step.when, None):
            return
        d = self.table["dealer"]
        top = max(rank_of(c) for c in d.held)
        out = next(c for c in d.dealt if c in d.held and rank_of(c) == top)
        d.held.remove(out)
        new = self.source.next(1, "the dealer's replacement card")
        d.add(new)
        self.version += 1
        self.replaced = {"discarded": card_str(out), "drawn": card_str(new[0])}
        self.narrate(step.cite, f"dealer discards {card_str(out)} and draws {card_str(new[0])}")

    @meaning("scalar", STEP.id, "draw")
    def _step_draw(self, step: DrawStep) -> None:
        for seat in self._ordered(step.order):
            a = seat.pending
            if a is None or not self.holds(step.players, seat):
                continue
            seat.pending = None
            cards = seat.cards["player"]
            if a.keep is not None:  # a strategy's exchange: the cards it keeps
                a.cards = exchanged(cards.held, a.keep_paired, a.keep)
            opt = self._option_of(a)
            if a.cards or (opt is not None and opt.draw == "exchange"):
                rng = self.rules.draw_cards(opt)
                for c in a.cards:
                    if c not in cards.held:
                        raise RoundError(
                            f"seat {seat.number}: {card_str(c)} is not in the player's hand",
                            seat.actions_pointer,
                        )
                if rng and not rng[0] <= len(a.cards) <= rng[1]:
                    raise RoundError(
                        f"seat {seat.number}: an exchange is of {rng[0]} to {rng[1]} cards, not "
                        f"{len(a.cards)} ({opt.cite if opt else ''})",
                        seat.actions_pointer,
                    )
                for c in a.cards:
                    cards.held.remove(c)
                new = self.source.next(len(a.cards), f"seat {seat.number}'s exchange")
                a.text = "exchange " + " ".join(card_str(c) for c in a.cards)
                if seat.taken and seat.taken[-1].startswith("exchange"):
                    seat.taken[-1] = a.text  # a strategy's exchange, now with its cards
            else:
                rng = self.rules.draw_cards(opt)
                n = rng[0] if rng else 1
                new = self.source.next(n, f"seat {seat.number}'s draw")
            cards.add(new)
            self.version += 1
            self.narrate(step.cite, f"seat {seat.number} draws {cards_str(new)}")

    def _option_of(self, a: Action) -> Option | None:
        for d in self.rules.decisions.values():
            if a.option in d.options:
                return d.options[a.option]
        return None

    @meaning("scalar", STEP.id, "decide")
    def _step_decide(self, step: DecideStep) -> None:
        if step.when is not None and not self.holds(step.when, None):
            return
        for seat in self._ordered(step.order):
            if not seat.dealt_in or seat.folded or not self.holds(step.players, seat):
                continue
            self._decide(step, seat)

    def _decide(self, step: DecideStep, seat: Seat) -> None:
        available = {
            oid: o
            for oid, o in step.options.items()
            if o.available is None or self.holds(o.available, seat)
        }
        action: Action | None = None
        if seat.actions is not None:
            nxt = parse_action(seat.actions[0]) if seat.actions else None
            if nxt is not None and nxt.option in step.options:
                seat.actions.popleft()
                action = nxt
            elif step.default is not None:
                action = Action(step.default, text=step.default)
            elif nxt is None:
                raise RoundError(
                    f"seat {seat.number}: the round needs the player's decision "
                    f"{step.id!r} ({' / '.join(available)}; {step.cite}) but no action is left",
                    seat.actions_pointer,
                )
            else:
                raise RoundError(
                    f"seat {seat.number}: {nxt.text!r} is not a choice at decision {step.id!r}; "
                    f"the player may: {' / '.join(available)} ({step.cite})",
                    seat.actions_pointer,
                )
        else:
            action = self._strategy_action(step, seat, available)
        if action.option not in available:
            opt = step.options[action.option]
            raise RoundError(
                f"seat {seat.number}: {action.text!r} is not allowed here ({opt.cite})",
                seat.actions_pointer,
            )
        self._apply(step, seat, action, available[action.option])

    def _strategy_action(
        self, step: DecideStep, seat: Seat, available: dict[str, Option]
    ) -> Action:
        if self.e.strategy is not None:
            for row in self.e.strategy.decisions.get(step.id, []):
                if not self.holds(row.when, seat):
                    continue
                if isinstance(row.then, str):
                    a = parse_action(row.then)
                else:
                    k = row.then.keep
                    a = Action(
                        row.then.option, keep=k.highest, keep_paired=k.paired, text=row.then.option
                    )
                if a.option in available:
                    return a
        if step.default is not None:
            return Action(step.default, text=step.default)
        first = next(iter(available))
        return Action(first, text=first)

    def _apply(self, step: DecideStep, seat: Seat, a: Action, opt: Option) -> None:
        seat.decided[step.id] = a.option
        text = a.text
        if opt.fold:
            seat.folded = True
        if opt.wager is not None:
            lo, hi, cite = self.rules.option_multiple_range(
                opt, step.id, lambda h, c: self._at_least(h, seat, c)
            )
            m = a.multiple
            if m == "max":
                m = hi
            if m is None:
                if lo != hi:
                    raise RoundError(
                        f"seat {seat.number}: say how much: {a.option} "
                        + " / ".join(f"{k}x" for k in range(lo, hi + 1))
                        + f" ({cite})",
                        seat.actions_pointer,
                    )
                m = lo
            assert isinstance(m, int)
            wager = self.rules.wager(opt.wager)
            assert wager.amount is not None
            if not lo <= m <= hi:
                allowed = f"{lo}x" if lo == hi else f"{lo}x to {hi}x"
                raise RoundError(
                    f"seat {seat.number}: {a.option} {m}x is not allowed: {allowed} the "
                    f"{wager.amount.of} here ({cite})",
                    seat.actions_pointer,
                )
            stake = seat.stakes[wager.amount.of] * m
            seat.stakes[opt.wager] = stake
            seat.standing.add(opt.wager)
            seat.placed_by[opt.wager] = f"{a.option} {m}x"
            self.ledger.wagered += stake
            self.ledger.house += stake
            text = f"{a.option} {m}x" if lo != hi else a.option
        if opt.fee is not None:
            fee_def = self.rules.d.options_fee
            assert fee_def is not None
            fee = seat.stakes[fee_def.amount.of] * (fee_def.amount.min or 1)
            seat.fees += fee
            self.ledger.wagered += fee
            self.ledger.house += fee
        if opt.draw is not None:
            seat.pending = a
            if opt.draw == "exchange" and not a.cards and a.keep is None:
                raise RoundError(
                    f"seat {seat.number}: name the cards to exchange, e.g. "
                    f"'exchange 2C 5D' ({opt.cite})",
                    seat.actions_pointer,
                )
            if a.cards:
                text = "exchange " + " ".join(card_str(c) for c in a.cards)
        if a.option != step.default:  # a default choice is not an action
            seat.taken.append(text)
        self.narrate(step.cite, f"seat {seat.number}: {text}")

    @meaning("scalar", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        for seat in self._ordered(step.order):
            if not self.holds(step.players, seat):
                continue
            for lid in step.lines:
                self._settle_line(seat, lid, self.rules.lines[lid])

    # -- hands ----------------------------------------------------------------------------

    def cards_of(self, hand: HandDef, seat: Seat | None) -> list[int]:
        out: list[int] = []
        for group in hand.cards:
            if group == "player":
                if seat is None or "player" not in seat.cards:
                    return []
                c = seat.cards["player"]
            else:
                if group not in self.table:
                    return []
                c = self.table[group]
            out += c.dealt[: hand.first] if hand.first else c.held
        return out

    def value(self, hand_id: str, seat: Seat | None) -> HandValue | None:
        key = (hand_id, seat.number if seat else 0, self.version)
        if key not in self._values:
            self._values[key] = self._compute(hand_id, seat)
        return self._values[key]

    def _compute(self, hand_id: str, seat: Seat | None) -> HandValue | None:
        hand = self.rules.d.hands[hand_id]
        ev = self.rules.evaluator(hand_id)
        if hand.losing_of:
            a, b = (self.value(h, seat) for h in hand.losing_of)
            if a is None or b is None or a.key == b.key:
                return None
            return a if a.key < b.key else b
        cards = self.cards_of(hand, seat)
        if not cards:
            return None
        return ev.best(cards)

    def hand_cards(self, hand_id: str, seat: Seat | None) -> list[int]:
        """The cards a hand is paid on: all its cards; for the lower of two hands (Bad Beat),
        the cards of that hand."""
        hand = self.rules.d.hands[hand_id]
        if hand.losing_of:
            v = self.value(hand_id, seat)
            return list(v.cards) if v is not None else []
        return self.cards_of(hand, seat)

    def shown(self, hand_id: str, seat: Seat | None) -> HandShown:
        v = self.value(hand_id, seat)
        if v is None:
            return HandShown(hand_id, "no hand", [])
        return HandShown(hand_id, v.name, list(v.cards))

    def _at_least(self, hand_id: str, seat: Seat | None, category: str) -> bool:
        v = self.value(hand_id, seat)
        return v is not None and v.key[0] >= self.rules.evaluator(hand_id).strength(category)

    def dealer_qualifies(self) -> bool:
        q = self.rules.qualifier
        if q is None:
            return True
        v = self.value(q[0], None)
        return v is not None and v.key >= q[1]

    def _compared(self) -> Compare:
        settle = self.rules.d.settle
        assert settle is not None and settle.compare is not None
        return settle.compare

    def compare(self, seat: Seat) -> str:
        c = self._compared()
        p, d = self.value(c.player, seat), self.value(c.dealer, seat)
        if p is None or d is None:
            raise RoundError(f"seat {seat.number}: the hands to compare are not dealt")
        return "higher" if p.key > d.key else "lower" if p.key < d.key else "equal"

    # -- conditions ---------------------------------------------------------------------

    def holds(self, w: When, seat: Seat | None, side: str = "player") -> bool:
        return all(ok for ok, _ in self._tests(w, seat, side))

    def explain(self, w: When, seat: Seat | None, side: str = "player") -> list[str]:
        return [why for _, why in self._tests(w, seat, side) if why]

    def _tests(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        """Each condition key given, by its meaning in the vocabulary: whether it holds, and
        what of the round it rests on (told in the settlement's reasons)."""
        for key in CONDITION_KEYS:
            if getattr(w, key) is not None:
                yield from meaning_of(CONDITION.id, key, "scalar")(self, w, seat, side)

    @meaning("scalar", CONDITION.id, "folded")
    def _when_folded(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        f = bool(seat and seat.folded)
        yield f == w.folded, ("the player folded" if f else "")

    @meaning("scalar", CONDITION.id, "decided")
    def _when_decided(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for did, opts in (w.decided or {}).items():
            chose = seat.decided.get(did, "none") if seat else "none"
            yield chose in opts, (f"chose {chose}" if chose != "none" else "")

    @meaning("scalar", CONDITION.id, "wagered")
    def _when_wagered(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        yield bool(seat) and all(seat.wagered(x) for x in w.wagered or ()), ""  # type: ignore[union-attr]

    @meaning("scalar", CONDITION.id, "not_wagered")
    def _when_not_wagered(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        yield not (seat and any(seat.wagered(x) for x in w.not_wagered or ())), ""

    @meaning("scalar", CONDITION.id, "dealer_qualifies")
    def _when_dealer_qualifies(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        q = self.dealer_qualifies()
        hand = self.rules.qualifier[0] if self.rules.qualifier else ""
        yield (
            q == w.dealer_qualifies,
            f"the dealer's {self.shown(hand, None)} " + ("qualifies" if q else "does not qualify"),
        )

    @meaning("scalar", CONDITION.id, "player")
    def _when_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert seat is not None and w.player is not None
        cmp = self.compare(seat)
        c = self._compared()
        mine, theirs = self.shown(c.player, seat), self.shown(c.dealer, seat)
        word = "to" if cmp == "equal" else "than"
        yield cmp in w.player, f"the player's {mine} is {cmp} {word} the dealer's {theirs}"

    @meaning("scalar", CONDITION.id, "hand")
    def _when_hand(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for hid, test in (w.hand or {}).items():
            hs = None if hid.startswith("dealer") else seat
            v = self.value(hid, hs)
            ok = v is not None
            if v is not None and test.at_least is not None:
                ok = v.key >= self.rules.threshold(hid, test.at_least)
            if v is not None and ok and test.below is not None:
                ok = v.key < self.rules.threshold(hid, test.below)
            if ok and (test.is_ is not None or test.is_not is not None):
                held = self._held_chain(hid, hs)
                if test.is_ is not None:
                    ok = bool(held & set(test.is_))
                if ok and test.is_not is not None:
                    ok = not (held & set(test.is_not))
            who = "dealer's" if hid.startswith("dealer") else "player's"
            yield ok, (f"the {who} {self.shown(hid, hs)}" if v is not None else "")

    @meaning("scalar", CONDITION.id, "beats")
    def _when_beats(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.beats is not None
        a, b = self.value(w.beats.hand, seat), self.value(w.beats.other, seat)
        ok = a is not None and b is not None
        if ok:
            cmp = "higher" if a.key > b.key else "lower" if a.key < b.key else "equal"  # type: ignore[union-attr]
            ok = cmp in w.beats.is_
        yield ok, ""

    @meaning("scalar", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.dealer_up is not None
        up = self.up[0] if self.up else None
        ok = up is not None
        if ok and w.dealer_up.rank_in is not None:
            ok = rank_of(up) in w.dealer_up.rank_in  # type: ignore[arg-type]
        if ok and w.dealer_up.rank_at_least is not None:
            ok = rank_of(up) >= w.dealer_up.rank_at_least  # type: ignore[arg-type]
        yield ok, ""

    @meaning("scalar", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        up = self.up[0] if self.up else None
        ok = up is not None
        if ok:
            mine = {rank_of(c) for c in (seat.cards["player"].held if seat else [])}
            ok = (rank_of(up) in mine) == w.holds_dealer_up_rank  # type: ignore[arg-type]
        yield ok, ""

    @meaning("scalar", CONDITION.id, "suited")
    def _when_suited(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for group, want in (w.suited or {}).items():
            cards = (
                (seat.cards["player"].held if seat and "player" in seat.cards else [])
                if group == "player"
                else self.table.get(group, Cards()).held
            )
            yield (len({c % 4 for c in cards}) == 1) == want, ""

    @meaning("scalar", CONDITION.id, "event")
    def _when_event(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.event is not None
        ev_ = self.events.get(w.event.id)
        ok = False
        why = ""
        if ev_ is not None:
            kind, val = ev_
            if kind == "card":
                event_hand = self.rules.d.hands[w.event.hand] if w.event.hand else None
                hs = None if w.event.hand and w.event.hand.startswith("dealer") else seat
                ok = event_hand is not None and val in self.cards_of(event_hand, hs)
                why = f"the {w.event.id.replace('_', ' ')} {card_str(val)} is in the hand"
            else:
                pos = 0 if side == "dealer" else (seat.number if seat else -1)
                ok = val == pos
                why = f"the {w.event.id.replace('_', ' ')} position is {_position(val)}"
        yield ok, why if ok else ""

    @meaning("scalar", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.any_player is not None
        yield any(self.holds(w.any_player, s) for s in self.seats if s.dealt_in), ""

    def held(self, hand_id: str, seat: Seat | None) -> Any:
        """The highest category the hand holds, refinements included (cached)."""
        key = (hand_id, seat.number if seat else 0, self.version)
        if key not in self._held:
            cards = self.hand_cards(hand_id, seat)
            self._held[key] = self.rules.evaluator(hand_id).held(cards)[0] if cards else None
        return self._held[key]

    def paying(self, hand_id: str, seat: Seat | None, rows: dict[str, Payout]) -> Any:
        """The row the hand is paid on (as ``Evaluator.paying``), or ``None``."""
        cat = self.held(hand_id, seat)
        if cat is None:
            return None
        ev = self.rules.evaluator(hand_id)
        while cat.id not in rows and cat.refines is not None:
            cat = ev.category(cat.refines)
        row = rows.get(cat.id)
        return cat if row is not None and row.pays else None

    def _held_chain(self, hand_id: str, seat: Seat | None) -> set[str]:
        cat = self.held(hand_id, seat)
        if cat is None:
            return set()
        ev = self.rules.evaluator(hand_id)
        out = {cat.id}
        while cat.refines is not None:
            cat = ev.category(cat.refines)
            out.add(cat.id)
        return out

    # -- settling -------------------------------------------------------------------------

    def _settle_line(self, seat: Seat, line_id: str, line: Line) -> None:
        spot = self.rules.line_spot(line)
        stake = seat.stakes.get(spot)
        if not stake or line_id in seat.lines or spot not in seat.standing:
            return
        i, row = next(
            ((k, r) for k, r in enumerate(line.rows) if self.holds(r.when, seat, line.on)),
            (-1, None),
        )
        if row is None:
            raise RoundError(f"no row of settlement line {line_id!r} applies to seat {seat.number}")
        name = line.name or self.rules.wager(line.wager).name
        facts = self.explain(row.when, seat, line.on)
        returned, from_meter, outcome, detail = self._outcome(
            seat, line_id, line, row.then, stake, i
        )
        if from_meter:
            self.ledger.meter_paid += from_meter
        self.ledger.returned += returned
        self.ledger.house -= returned - from_meter
        gain = returned - (Decimal(0) if line.bonus else stake)
        what = f"{outcome}" + (f" ({detail})" if detail else "")
        if self._rounded:
            what += f" ({self._rounded})"
            self._rounded = ""
        sign = "+" if gain > 0 else ""
        reason = (
            f"{name}: "
            + ("; ".join(facts) + ": " if facts else "")
            + f"{what}, {sign}{money(gain)} [{row.cite}]"
        )
        if line.bonus and returned == 0:
            reason = ""
        seat.lines[line_id] = LineResult(
            line_id, name, spot, i, row.cite, outcome, returned, from_meter, reason, note=row.note
        )

    @meaning("scalar", TABLE_FEATURE.id, "pays_on")
    def _outcome(
        self, seat: Seat, line_id: str, line: Line, then: Any, stake: Decimal, row_index: int
    ) -> tuple[Decimal, Decimal, str, str]:
        """(returned, of which from a meter, outcome word, detail)."""
        bonus = line.bonus
        if then == "lose" or then == "none":
            return Decimal(0), Decimal(0), "lose" if then == "lose" else "no bonus", ""
        if then == "push":
            return (Decimal(0) if bonus else stake), Decimal(0), "push", "returned"
        if then == "win":
            pays = self.rules.wager(line.wager).pays
            assert pays is not None
            return (*self._pay(pays.payout, stake, bonus), Decimal(0), f"wins {pays.payout}", "")
        assert isinstance(then, Pays)
        if then.win is not None:
            return (*self._pay(then.win, stake, bonus), Decimal(0), f"wins {then.win}", "")
        if then.envy is not None:
            return self._envy(seat, then.envy, stake)
        table_id = then.paytable
        assert table_id is not None
        table = self.rules.table(table_id)
        rows = self.rules.rows_or_stop(table_id, stake)
        category: str | None
        if then.row is not None:
            category, payout = then.row, rows.get(then.row)
            hand_note = ""
            category_held: str | None = None
        else:
            hand_id = then.hand or table.pays_on
            assert hand_id is not None
            hs = None if hand_id.startswith("dealer") else seat
            cat = self.paying(hand_id, hs, rows)
            category, payout = (cat.id, rows[cat.id]) if cat else (None, None)
            held = self.held(hand_id, hs)
            category_held = held.id if held is not None else None
            v = self.value(hand_id, hs)
            hand_note = cards_str(v.cards) if v is not None else ""
            if then.second_combination:
                return self._second(seat, hand_id, rows, stake, table.name)
        if payout is None or not payout.pays:
            other = then.otherwise
            held_label = self._label(then.hand or table.pays_on, category_held)
            if other == "refuse":
                raise RoundError(unpaid_winner(table.name, held_label, line.cite))
            if other == "push":
                back = Decimal(0) if bonus else stake
                return back, Decimal(0), "push", f"{table.name} prints no row for {held_label}"
            word = "lose" if other == "lose" else "no bonus"
            why = f"{held_label} pays nothing on {table.name}" if hand_note else ""
            return Decimal(0), Decimal(0), word, why
        label = self._label(then.hand or table.pays_on, category)
        if hand_note:
            label += f" ({hand_note})"
        if payout.kind is PayoutKind.METER:
            meter = self.e.meters.get(table_id, payout.meter)
            key = f"{line_id}/{meter.key}"
            if then.divide_among_winners:
                if key not in self.pots:
                    ways = self._ways(line_id, line, row_index)
                    self.pots[key] = meter.pay(payout.share, ways)
                    self.narrate(table.cite, f"{table.name}: {payout} divided {ways} way(s)")
                each = self.pots[key]
            else:
                each = meter.pay(payout.share)
            return (
                each,
                each,
                f"wins {payout}",
                f"{label}: ${money(each)} from the {meter.name} meter",
            )
        if payout.kind is PayoutKind.PUSH:
            return (Decimal(0) if bonus else stake), Decimal(0), "push", f"{label}: push"
        ret = self._pay(payout, stake, bonus)[0]
        return ret, Decimal(0), f"wins {payout}", label

    def _label(self, hand_id: str | None, category: str | None) -> str:
        if category is None:
            return "the hand"
        if hand_id is not None:
            ev = self.rules.evaluator(hand_id)
            if category in ev.ids:
                return ev.category(category).name
        return category.replace("_", " ")

    def _pay(self, payout: Payout, stake: Decimal, bonus: bool) -> tuple[Decimal]:
        r = payout.ratio
        match payout.kind:
            case PayoutKind.TO:
                win, exact = payout_of(stake, r)
                self._note_rounding(payout, stake, win, exact)
                return ((win if bonus else stake + win),)
            case PayoutKind.FOR:
                back, exact = payout_of(stake, r)
                self._note_rounding(payout, stake, back, exact)
                return (back,)
            case PayoutKind.PUSH:
                return ((Decimal(0) if bonus else stake),)
            case PayoutKind.FIXED:
                return ((payout.amount if bonus else stake + payout.amount),)
        raise AssertionError(payout.kind)

    def _note_rounding(
        self, payout: Payout, stake: Decimal, paid: Decimal, exact: Fraction
    ) -> None:
        """A payout that is not whole cents is paid rounded down; the settlement says so."""
        if Fraction(paid) != exact:
            digits = f"{Decimal(exact.numerator) / Decimal(exact.denominator):f}"
            shown = digits[:16] + ("…" if len(digits) > 16 else "")
            self._rounded = (
                f"{payout} on ${money(stake)} is ${shown}: ${money(paid)} paid, {PAYOUT_ROUNDING}"
            )

    def _ways(self, line_id: str, line: Line, row_index: int) -> int:
        n = 0
        for s in self.seats:
            spot = self.rules.line_spot(line)
            if not s.stakes.get(spot) or spot not in s.standing:
                continue
            for i, row in enumerate(line.rows):
                if self.holds(row.when, s, line.on):
                    n += i == row_index
                    break
        return max(n, 1)

    def _envy(self, seat: Seat, table_id: str, stake: Decimal) -> tuple[Decimal, Decimal, str, str]:
        table = self.rules.table(table_id)
        rows = self.rules.rows_or_stop(table_id, stake)
        hand_id = table.pays_on
        assert hand_id is not None
        total = Decimal(0)
        who = []
        for other in self.seats:
            if other is seat or other.folded or not other.dealt_in:
                continue
            cat = self.paying(hand_id, other, rows)
            if cat is None:
                continue
            p = rows[cat.id]
            total += p.amount
            who.append(f"seat {other.number}'s {cat.name} ({p})")
        if not who:
            return Decimal(0), Decimal(0), "no bonus", ""
        return total, Decimal(0), f"wins ${money(total)}", "for " + ", ".join(who)

    def _second(
        self, seat: Seat, hand_id: str, rows: dict[str, Payout], stake: Decimal, table_name: str
    ) -> tuple[Decimal, Decimal, str, str]:
        v = self.value(hand_id, seat)
        cards = self.hand_cards(hand_id, seat)
        cat = second_combination(self.rules.evaluator(hand_id), cards, v, rows)
        if cat is None:
            return Decimal(0), Decimal(0), "no bonus", ""
        payout = rows[cat.id]
        return (
            self._pay(payout, stake, True)[0],
            Decimal(0),
            f"wins {payout}",
            f"second combination: {cat.name}",
        )

    # -- payout limit ---------------------------------------------------------------------

    def _apply_payout_limit(self) -> None:
        limit_rule = self.rules.d.payout_limit
        limit = self.rules.config.payout_limit
        if limit_rule is None or limit is None:
            return
        for seat in self.seats:
            total = Decimal(0)
            for ln in seat.lines.values():
                if not self.rules.under_payout_limit(ln.spot):
                    continue
                is_bonus = self.rules.lines[ln.line].bonus
                stake = Decimal(0) if is_bonus else seat.stakes[ln.spot]
                gain = max(ln.returned - stake, Decimal(0))
                if total + gain > limit:
                    cut = total + gain - limit
                    ln.returned -= cut
                    ln.limited = cut
                    self.ledger.returned -= cut
                    self.ledger.house += cut
                    ln.reason += (
                        f"; ${money(cut)} withheld: the aggregate payout limit of "
                        f"${money(limit)} per player per round [{limit_rule.cite}]"
                    )
                    gain -= cut
                total += gain

    # -- the result -----------------------------------------------------------------------

    def _result(self, void: str | None) -> RoundResult:
        seats_out = []
        settle = self.rules.d.settle
        assert settle is not None
        for seat in sorted(self.seats, key=lambda s: s.number):
            wagers: dict[str, WagerResult] = {}
            for spot in self.rules.spots:
                if spot not in seat.stakes:
                    continue
                wr = WagerResult(spot, seat.stakes[spot], placed_by=seat.placed_by.get(spot, ""))
                wr.lines = [ln for ln in seat.lines.values() if ln.spot == spot]
                if spot not in seat.standing:
                    wr.void = True
                    self.ledger.returned += wr.amount
                    self.ledger.house -= wr.amount
                wagers[spot] = wr
            hands = []
            if seat.dealt_in and settle.compare:
                hands.append(self.shown(settle.compare.player, seat))
            seats_out.append(
                SeatResult(
                    seat.number,
                    list(seat.cards["player"].held) if seat.dealt_in else [],
                    wagers,
                    list(seat.taken),
                    hands,
                    seat.fees,
                    seat.folded,
                )
            )
        dealer: dict[str, Any] = {}
        if "dealer" in self.table:
            d = self.table["dealer"]
            dealer["cards"] = cards_str(d.dealt).split()
            if self.up:
                dealer["up"] = cards_str(self.up).split()
            if settle.compare:
                dealer["hand"] = self.shown(settle.compare.dealer, None).to_json()
            if self.rules.qualifier:
                dealer["qualifies"] = self.dealer_qualifies()
            if self.replaced:
                dealer["replaced"] = self.replaced
        if "community" in self.table:
            dealer["community"] = cards_str(self.table["community"].held).split()
        for g, c in self.table.items():
            if g not in ("dealer", "community"):
                dealer[g] = cards_str(c.held).split()
        if self.events:
            dealer["table_system"] = {k: _event_str(v) for k, v in self.events.items()}
        if not self.ledger.balanced():  # pragma: no cover - an engine bug
            raise AssertionError(f"money not conserved in the round: {self.ledger}")
        return RoundResult(
            self.rules.d.id,
            seats_out,
            dealer,
            void,
            self.meters_before,
            self.e.meters.snapshot(),
            self.ledger,
            self.narration,
        )


def second_combination_order(categories: Sequence[Any], rows: dict[str, Payout]) -> list[Any]:
    """The categories a second combination may be paid as (§ 589.11(e)(1)(ii)), in the order
    they are looked for: the best-paying first, of two paying alike the higher-ranking."""
    paying = [
        (rows[c.id].net_units(), -i, c)
        for i, c in enumerate(categories)
        if c.id in rows and rows[c.id].is_win and c.shape != "any"
    ]
    return [c for _, _, c in sorted(paying, key=lambda t: (t[0], t[1]), reverse=True)]


def second_combination(
    ev: Any, cards: list[int], value: HandValue | None, rows: dict[str, Payout]
) -> Any:
    """Lunar Poker's second combination (§ 589.11(e)(1)(ii)): the best-paying category of
    the table the cards hold with at least one card outside the winning combination."""
    if value is None:
        return None
    winning = set(value.combination)
    outside = [c for c in cards if c not in winning]
    if not outside:
        return None
    whole = Hand(cards)
    for cat in second_combination_order(ev.categories, rows):
        if find(cat, whole, ev.ace_low) is None:
            continue
        k = cat.combination_size
        for x in outside:
            others = [c for c in cards if c != x]
            for rest in combinations(others, k - 1):
                combo = find(cat, Hand((x, *rest)), ev.ace_low)
                if combo is not None and len(combo) == k:
                    return cat
    return None


def exchanged(held: list[int], paired: bool, highest: int) -> list[int]:
    """The cards a strategy's exchange discards: it keeps the cards of ranks held more than
    once when ``paired`` (and the hand has any), else the ``highest`` highest cards."""
    if paired:
        ranks = [rank_of(c) for c in held]
        keep = [c for c in held if ranks.count(rank_of(c)) > 1]
        if keep:
            return sorted((c for c in held if c not in keep), reverse=True)
    return sorted(held, reverse=True)[highest:]


def _position(v: int) -> str:
    return "the dealer's" if v == 0 else f"seat {v}"


def _event_str(v: tuple[str, int]) -> str:
    kind, val = v
    return card_str(val) if kind == "card" else ("dealer" if val == 0 else str(val))
