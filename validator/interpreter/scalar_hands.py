"""The scalar engine's hands: what each hand of the round is worth, as the cards stand.

A hand of the game file (``hands:``) is made of card groups (the player's, the dealer's,
the community cards) or is the lower of two hands (Bad Beat). ``RoundHands`` gives its
cards, its value and best five cards, the highest category it holds and the row of a
paytable it is paid on, the dealer's qualifying and the comparison of the player's hand
with the dealer's, each cached until the cards change (a new version of ``RoundState``).
It reads the round's cards and changes nothing.
"""

from __future__ import annotations

from typing import Any

from validator.interpreter.errors import RoundError
from validator.interpreter.results import HandShown
from validator.interpreter.rules import Rules
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Seat
from validator.model.game import HandDef
from validator.model.notation import Payout
from validator.model.procedure import Compare
from validator.rankings.evaluator import HandValue


class RoundHands:
    """The hands of one round: each hand's value, cached per version of the cards."""

    def __init__(self, rules: Rules, state: RoundState) -> None:
        self.rules = rules
        self.state = state
        self._values: dict[tuple[str, int, int], HandValue | None] = {}
        self._held: dict[tuple[str, int, int], Any] = {}

    def cards_of(self, hand: HandDef, seat: Seat | None) -> list[int]:
        out: list[int] = []
        for group in hand.cards:
            if group == "player":
                if seat is None or "player" not in seat.cards:
                    return []
                c = seat.cards["player"]
            else:
                if group not in self.state.table:
                    return []
                c = self.state.table[group]
            out += c.dealt[: hand.first] if hand.first else c.held
        return out

    def value(self, hand_id: str, seat: Seat | None) -> HandValue | None:
        key = (hand_id, seat.number if seat else 0, self.state.version)
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

    def at_least(self, hand_id: str, seat: Seat | None, category: str) -> bool:
        v = self.value(hand_id, seat)
        return v is not None and v.key[0] >= self.rules.evaluator(hand_id).strength(category)

    def dealer_qualifies(self) -> bool:
        q = self.rules.qualifier
        if q is None:
            return True
        v = self.value(q[0], None)
        return v is not None and v.key >= q[1]

    def compared(self) -> Compare:
        settle = self.rules.d.settle
        assert settle is not None and settle.compare is not None
        return settle.compare

    def compare(self, seat: Seat) -> str:
        c = self.compared()
        p, d = self.value(c.player, seat), self.value(c.dealer, seat)
        if p is None or d is None:
            raise RoundError(f"seat {seat.number}: the hands to compare are not dealt")
        return "higher" if p.key > d.key else "lower" if p.key < d.key else "equal"

    def held(self, hand_id: str, seat: Seat | None) -> Any:
        """The highest category the hand holds, refinements included (cached)."""
        key = (hand_id, seat.number if seat else 0, self.state.version)
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

    def held_chain(self, hand_id: str, seat: Seat | None) -> set[str]:
        cat = self.held(hand_id, seat)
        return set(self.rules.evaluator(hand_id).chain(cat)) if cat is not None else set()
