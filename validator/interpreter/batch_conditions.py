"""The batch engine's conditions: where a `when:` holds, for every round and seat at once.

Every condition key of the vocabulary has its meaning here (``_when_<key>``), registered
under its word; a `when:` holds where every key it gives holds, as a mask over (rounds,
seats). The conditions read the chunk's state and its hands; they change nothing.
"""

from __future__ import annotations

import numpy as np

from validator.interpreter.batch_hands import RANK, ChunkHands, all_last, among, any_last, pick
from validator.interpreter.batch_money import B
from validator.interpreter.batch_state import ChunkState
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.model.procedure import When
from validator.vocabulary import CONDITION, meaning, meaning_of


class ChunkConditions:
    """The conditions of a chunk of rounds, read against its state and its hands."""

    def __init__(self, rules: Rules, state: ChunkState, hands: ChunkHands) -> None:
        self.rules = rules
        self.state = state
        self.hands = hands

    def cond(self, w: When, side: str = "player", within: B | None = None) -> B:
        """Where every condition key given holds, each by its meaning in the vocabulary
        (``within``: only there, a mask of (rounds, seats) the answer is a part of)."""
        out = np.ones((self.state.N, self.state.S), bool) if within is None else within.copy()
        for key in CONDITION_KEYS:
            if getattr(w, key) is not None:
                out &= meaning_of(CONDITION.id, key, "batch")(self, w, side)
        return out

    def wagered(self, wager: str) -> B:
        """Where a seat placed the wager (any of its spots) with a stake above 0."""
        st = self.state
        m = np.zeros((st.N, st.S), bool)
        for spot, stake in st.stakes.items():
            if spot == wager or spot.startswith(wager + "."):
                m |= stake > 0
        return m

    @meaning("batch", CONDITION.id, "folded")
    def _when_folded(self, w: When, side: str) -> B:
        return self.state.folded == w.folded

    @meaning("batch", CONDITION.id, "decided")
    def _when_decided(self, w: When, side: str) -> B:
        st = self.state
        N, S = st.N, st.S
        out = np.ones((N, S), bool)
        for did, opts in (w.decided or {}).items():
            ch = st.decided.get(did)
            names = st.choice_names.get(did, [])
            idx = [names.index(o) for o in opts if o in names]
            if "none" in opts:  # not asked (or an option called "none")
                idx.append(-1)
            out &= among(ch if ch is not None else np.full((N, S), -1), idx)
        return out

    @meaning("batch", CONDITION.id, "wagered")
    def _when_wagered(self, w: When, side: str) -> B:
        out = np.ones((self.state.N, self.state.S), bool)
        for wid in w.wagered or []:
            out &= self.wagered(wid)
        return out

    @meaning("batch", CONDITION.id, "not_wagered")
    def _when_not_wagered(self, w: When, side: str) -> B:
        out = np.ones((self.state.N, self.state.S), bool)
        for wid in w.not_wagered or []:
            out &= ~self.wagered(wid)
        return out

    @meaning("batch", CONDITION.id, "dealer_qualifies")
    def _when_dealer_qualifies(self, w: When, side: str) -> B:
        return (self.hands.dealer_qualifies() == w.dealer_qualifies)[:, None]

    @meaning("batch", CONDITION.id, "player")
    def _when_player(self, w: When, side: str) -> B:
        cmp = self.hands.compare()
        want = [{"higher": 1, "equal": 0, "lower": -1}[x] for x in w.player or ()]
        return among(cmp, want)

    @meaning("batch", CONDITION.id, "hand")
    def _when_hand(self, w: When, side: str) -> B:
        hands = self.hands
        out = np.ones((self.state.N, self.state.S), bool)
        for hid, test in (w.hand or {}).items():
            if test.at_least is None and test.below is None:  # the category alone
                held = hands.at_seats(hands.held(hid))
            else:
                v = hands.seat_value(hid)
                held = v.held
                bev = hands.evaluator(hid)
            if test.at_least is not None:
                out &= v.key >= bev.pack_key(self.rules.threshold(hid, test.at_least))
            if test.below is not None:
                out &= v.key < bev.pack_key(self.rules.threshold(hid, test.below))
            if test.is_ is not None:
                out &= among(held, hands.chain_indices(hid, test.is_))
            if test.is_not is not None:
                out &= ~among(held, hands.chain_indices(hid, test.is_not))
        return out

    @meaning("batch", CONDITION.id, "beats")
    def _when_beats(self, w: When, side: str) -> B:
        assert w.beats is not None
        a, b = w.beats.hand, w.beats.other
        cmp = self.hands.cached(f"beats {a} {b}", lambda: self.hands.compare_keys(a, b))
        return among(cmp, [{"higher": 1, "equal": 0, "lower": -1}[x] for x in w.beats.is_])

    @meaning("batch", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, side: str) -> B:
        assert w.dealer_up is not None
        up = self.state.up
        up_rank = RANK.take(up)
        ok = up >= 0
        if w.dealer_up.rank_in is not None:
            ok = ok & among(up_rank, w.dealer_up.rank_in)
        if w.dealer_up.rank_at_least is not None:
            ok = ok & (up_rank >= w.dealer_up.rank_at_least)
        return ok[:, None]

    @meaning("batch", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(self, w: When, side: str) -> B:
        up = self.state.up
        ok = (up >= 0)[:, None]

        def make() -> B:  # where a seat holds a card of the face-up card's rank
            ranks = self.hands.player_ranks()
            return ((ranks >> RANK.take(up).astype(np.int32)[:, None]) & 1).astype(bool) & ok

        has = self.hands.cached("holds the face-up rank", make)
        return ok & (has == w.holds_dealer_up_rank)

    @meaning("batch", CONDITION.id, "suited")
    def _when_suited(self, w: When, side: str) -> B:
        st = self.state
        N, S = st.N, st.S
        out = np.ones((N, S), bool)
        for group, want in (w.suited or {}).items():

            def make(group: str = group) -> B:
                cards = st.player if group == "player" else st.table[group][:, None, :]
                suits = pick(cards >= 0, cards & 3, -1)  # a card's suit: its int % 4
                return all_last((suits == suits[..., :1]) | (suits < 0))

            same = self.hands.cached(f"suited {group}", make)
            out &= np.broadcast_to(same, (N, S)) == want
        return out

    @meaning("batch", CONDITION.id, "event")
    def _when_event(self, w: When, side: str) -> B:
        assert w.event is not None
        st = self.state
        N, S = st.N, st.S
        drawn = st.events_drawn.get(w.event.id)
        if drawn is None:
            return np.zeros((N, S), bool)
        if st.event_kinds[w.event.id] == "card":
            assert w.event.hand is not None
            cards, seat = self.hands.hand_cards(w.event.hand)
            if seat:
                return any_last(cards == drawn[:, None, None])
            return np.broadcast_to(any_last(cards == drawn[:, None])[:, None], (N, S))
        target = (
            np.zeros((N, S), np.int64)
            if side == "dealer"
            else np.broadcast_to(st.seat_numbers, (N, S))
        )
        return drawn[:, None] == target

    @meaning("batch", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, side: str) -> B:
        assert w.any_player is not None
        anyp = any_last(self.cond(w.any_player) & self.hands.dealt())
        return anyp[:, None]
