"""The scalar engine's round: its state and the hands it holds.

``RoundHands`` is the ground floor of the scalar engine's round (``scalar._Round``): the
seats, the cards on the table, the ledger and the narration, and every hand's value, best
category and paying row, cached per version of the cards (a draw or a dealer's replacement
makes a new version). Settlement (``scalar_settlement``) and decisions
(``scalar_decisions``) build on it; the steps and the conditions are the round's own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from validator.interpreter.dealing import CardSource
from validator.interpreter.errors import RoundError
from validator.interpreter.results import HandShown, Ledger
from validator.interpreter.seats import Cards, Seat
from validator.model.game import HandDef
from validator.model.notation import Payout
from validator.model.procedure import Compare, When
from validator.rankings.evaluator import HandValue

if TYPE_CHECKING:
    from validator.interpreter.scalar import Engine


class RoundHands:
    """The state of one round (the seats, the cards on the table, the ledger, the narration)
    and the hands it holds: each hand's value, cached until the cards change."""

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

    def narrate(self, cite: str, text: str) -> None:
        self.narration.append((cite, text))

    def _ordered(self, order: str) -> list[Seat]:
        seats = sorted(self.seats, key=lambda s: s.number)
        return seats if order == "from_dealer_left" else seats[::-1]

    # the conditions (``scalar._Round``): whether a `when:` holds for a seat, and why

    def holds(self, w: When, seat: Seat | None, side: str = "player") -> bool:
        raise NotImplementedError

    def explain(self, w: When, seat: Seat | None, side: str = "player") -> list[str]:
        raise NotImplementedError

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
        return self.rules.evaluator(hand_id).row_for(cat, rows)

    def _held_chain(self, hand_id: str, seat: Seat | None) -> set[str]:
        cat = self.held(hand_id, seat)
        return set(self.rules.evaluator(hand_id).chain(cat)) if cat is not None else set()
