"""The scalar engine's conditions: whether a `when:` holds for a seat, and why.

Every condition key of the vocabulary has its meaning here (``_when_<key>``), registered
under its word; a `when:` holds when every key it gives holds. Each key also says what of
the round it rested on (the player's hand, the dealer's qualifying, a draw of the table
game system), which the settlement writes into its reasons. The conditions read the
round's state and its hands; they change nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.cards import card_str, rank_of
from validator.compiler import draw_name
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Cards, Seat
from validator.model.procedure import When
from validator.vocabulary import CONDITION, meaning, meaning_of


class RoundConditions:
    """The conditions of one round, read against its state and its hands."""

    def __init__(self, rules: Rules, state: RoundState, hands: RoundHands) -> None:
        self.rules = rules
        self.state = state
        self.hands = hands

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
            yield (
                chose in opts,
                (f'chose "{self._option_name(did, chose)}"' if chose != "none" else ""),
            )

    def _option_name(self, decision: str, option: str) -> str:
        """An option as the game file names it (``Declare a royal flush or straight flush``,
        never ``declare``)."""
        step = self.rules.decisions.get(decision)
        opt = step.options.get(option) if step is not None else None
        return (opt.name if opt is not None else None) or option

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
        q = self.hands.dealer_qualifies()
        hand = self.rules.qualifier[0] if self.rules.qualifier else ""
        yield (
            q == w.dealer_qualifies,
            f"the dealer's {self.hands.shown(hand, None)} "
            + ("qualifies" if q else "does not qualify"),
        )

    @meaning("scalar", CONDITION.id, "player")
    def _when_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert seat is not None and w.player is not None
        cmp = self.hands.compare(seat)
        c = self.hands.compared()
        mine, theirs = self.hands.shown(c.player, seat), self.hands.shown(c.dealer, seat)
        word = "to" if cmp == "equal" else "than"
        yield cmp in w.player, f"the player's {mine} is {cmp} {word} the dealer's {theirs}"

    @meaning("scalar", CONDITION.id, "hand")
    def _when_hand(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for hid, test in (w.hand or {}).items():
            hs = None if hid.startswith("dealer") else seat
            v = self.hands.value(hid, hs)
            ok = v is not None
            if v is not None and test.at_least is not None:
                ok = v.key >= self.rules.threshold(hid, test.at_least)
            if v is not None and ok and test.below is not None:
                ok = v.key < self.rules.threshold(hid, test.below)
            if ok and (test.is_ is not None or test.is_not is not None):
                held = self.hands.held_chain(hid, hs)
                if test.is_ is not None:
                    ok = bool(held & set(test.is_))
                if ok and test.is_not is not None:
                    ok = not (held & set(test.is_not))
            who = "dealer's" if hid.startswith("dealer") else "player's"
            yield ok, (f"the {who} {self.hands.shown(hid, hs)}" if v is not None else "")

    @meaning("scalar", CONDITION.id, "beats")
    def _when_beats(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.beats is not None
        a, b = self.hands.value(w.beats.hand, seat), self.hands.value(w.beats.other, seat)
        ok = a is not None and b is not None
        if ok:
            cmp = "higher" if a.key > b.key else "lower" if a.key < b.key else "equal"  # type: ignore[union-attr]
            ok = cmp in w.beats.is_
        yield ok, ""

    @meaning("scalar", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.dealer_up is not None
        up = self.state.up[0] if self.state.up else None
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
        up = self.state.up[0] if self.state.up else None
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
                else self.state.table.get(group, Cards()).held
            )
            yield (len({c % 4 for c in cards}) == 1) == want, ""

    @meaning("scalar", CONDITION.id, "event")
    def _when_event(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.event is not None
        ev_ = self.state.events.get(w.event.id)
        ok = False
        why = ""
        if ev_ is not None:
            kind, val = ev_
            if kind == "card":
                event_hand = self.rules.d.hands[w.event.hand] if w.event.hand else None
                hs = None if w.event.hand and w.event.hand.startswith("dealer") else seat
                ok = event_hand is not None and val in self.hands.cards_of(event_hand, hs)
                why = f"the {draw_name(w.event.id)} {card_str(val)} is in the hand"
            else:
                pos = 0 if side == "dealer" else (seat.number if seat else -1)
                ok = val == pos
                why = f"the {draw_name(w.event.id)} position is {_position(val)}"
        yield ok, why if ok else ""

    @meaning("scalar", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.any_player is not None
        yield any(self.holds(w.any_player, s) for s in self.state.seats if s.dealt_in), ""


def _position(v: int) -> str:
    return "the dealer's" if v == 0 else f"seat {v}"
