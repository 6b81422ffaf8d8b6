"""The batch engine's conditions: where a `when:` holds, for every round and seat at once.

Every condition key of the vocabulary has its meaning here (``_when_<key>``), registered
under its word: a mask over (rounds, seats), or the comparisons it is made of
(``Comparison``: a figure of the cards or the choices, one of some values or in a range);
a `when:` holds where every key it gives holds. A table's rows (a strategy's decision, a
settlement line) are read together: every comparison of the table at every lane, then the
first row that holds (``first_row``). The conditions read the chunk's state and its hands;
they change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_hands import RANK, ChunkHands, all_last, among, any_last, pick
from validator.interpreter.batch_kernels import first_rows, or_words
from validator.interpreter.batch_money import B
from validator.interpreter.batch_state import ChunkState
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.model.procedure import When
from validator.vocabulary import CONDITION, meaning, meaning_of


@dataclass(frozen=True)
class Comparison:
    """A condition read as one comparison of a figure of the cards or the choices, at every
    round and seat: the value (``(N, S)`` per seat, ``(N,)`` per round) one of ``among``
    (``negate``: none of them), or else in ``lo``..``hi`` (either side open where None)."""

    values: NDArray[Any]
    among: tuple[int, ...] | None = None
    negate: bool = False
    lo: int | None = None
    hi: int | None = None

    def mask(self) -> B:
        """Where the test holds, over whole arrays."""
        v = self.values if self.values.ndim == 2 else self.values[:, None]
        if self.among is not None:
            m = among(v, self.among)
            return ~m if self.negate else m
        m = np.ones(v.shape, bool)
        if self.lo is not None:
            m &= v >= self.lo
        if self.hi is not None:
            m &= v <= self.hi
        return m


def _per_round(a: NDArray[Any]) -> NDArray[Any] | None:
    """A figure the same at every seat of a round, as ``(N,)``; None where it is per seat."""
    if a.ndim == 1:
        return a
    if a.shape[1] == 1 or a.strides[1] == 0:
        return a[:, 0]
    return None


def _intervals(tests: list[tuple[int, Comparison]]) -> tuple[NDArray[np.int64], NDArray[np.uint64]]:
    """The values every test on one figure cuts at (sorted), and for each interval between
    them (values below the first, ..., at least the last) the word of the tests (each its
    bit) that hold there: a test's answer is the same throughout an interval."""
    cuts: set[int] = set()
    for _, t in tests:
        if t.among is not None:
            for v in t.among:
                cuts.update((int(v), int(v) + 1))
        else:
            if t.lo is not None:
                cuts.add(int(t.lo))
            if t.hi is not None:
                cuts.add(int(t.hi) + 1)
    bounds = sorted(c for c in cuts if _I64.min < c <= _I64.max)
    words = []
    for i in range(len(bounds) + 1):
        v = bounds[0] - 1 if i == 0 and bounds else (bounds[i - 1] if bounds else 0)
        word = 0
        for bit, t in tests:
            if t.among is not None:
                holds = (v in t.among) != t.negate
            else:
                holds = (t.lo is None or v >= t.lo) and (t.hi is None or v <= t.hi)
            word |= holds << bit
        words.append(word)
    return np.array(bounds, np.int64), np.array(words, np.uint64)


_I64 = np.iinfo(np.int64)


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
                got = meaning_of(CONDITION.id, key, "batch")(self, w, side)
                if isinstance(got, list):
                    for t in got:
                        out &= t.mask()
                else:
                    out &= got
        return out

    def comparisons(self, w: When, side: str = "player") -> list[Comparison]:
        """The tests a `when:` holds where all hold: each key's, by its meaning in the
        vocabulary (a mask, or the comparisons it is made of: ``Comparison``)."""
        out: list[Comparison] = []
        for key in CONDITION_KEYS:
            if getattr(w, key) is None:
                continue
            got = meaning_of(CONDITION.id, key, "batch")(self, w, side)
            if isinstance(got, list):
                out += got
            else:
                out.append(Comparison(np.broadcast_to(got, (self.state.N, self.state.S)), (1,)))
        return out

    def first_row(self, rows: Sequence[Sequence[Comparison]], within: B) -> NDArray[np.int16]:
        """The first of ``rows`` whose tests all hold, at every lane ``within`` holds: its
        number from 1, 0 where none holds or outside ``within``. Each test is a bit of a
        lane's word (at most 64 tests a table, else row by row over masks); the tests on
        one figure are read together: the figure's values cut at every bound a test names,
        each interval's word worked out once (``or_words``), then every row at every lane
        in one pass (``first_rows``)."""
        N, S = self.state.N, self.state.S
        bit_of: dict[tuple[int, tuple[Any, ...]], int] = {}
        on: dict[int, tuple[NDArray[Any], list[tuple[int, Comparison]]]] = {}
        need = []
        for tests in rows:
            word = 0
            for t in tests:
                what = (t.among and tuple(sorted(set(t.among))), t.negate, t.lo, t.hi)
                key = (id(t.values), what)  # a test several rows read: one bit
                if key not in bit_of:
                    bit_of[key] = len(bit_of)
                    on.setdefault(id(t.values), (t.values, []))[1].append((bit_of[key], t))
                word |= 1 << bit_of[key]
            need.append(word)
        if len(bit_of) > 64:
            return self._first_row_by_masks(rows, within)
        lane_word = np.zeros(N * S, np.uint64)
        round_word = np.zeros(N, np.uint64)
        for values, tests_on in on.values():
            bounds, words = _intervals(tests_on)
            if len(bounds) > 255:
                return self._first_row_by_masks(rows, within)
            one = _per_round(values)
            flat = np.ascontiguousarray(values if one is None else one).reshape(-1)
            if flat.dtype == bool:
                flat = flat.view(np.uint8)
            or_words(flat, bounds, words, lane_word if one is None else round_word)
        which = np.empty(N * S, np.int16)
        within_flat = np.ascontiguousarray(within).reshape(-1)
        first_rows(within_flat, lane_word, round_word, np.array(need, np.uint64), which)
        return which.reshape(N, S)

    def _first_row_by_masks(
        self, rows: Sequence[Sequence[Comparison]], within: B
    ) -> NDArray[np.int16]:
        """``first_row`` row by row: each row's mask where the lanes are still open."""
        which = np.zeros((self.state.N, self.state.S), np.int16)
        open_ = within.copy()
        for i, tests in enumerate(rows):
            m = open_.copy()
            for t in tests:
                m &= t.mask()
            which += m * np.int16(i + 1)
            open_ ^= m
        return which

    def wagered(self, wager: str) -> B:
        """Where a seat placed the wager (any of its spots) with a stake above 0."""
        st = self.state
        m = np.zeros((st.N, st.S), bool)
        for spot, stake in st.stakes.items():
            if spot == wager or spot.startswith(wager + "."):
                m |= stake > 0
        return m

    @meaning("batch", CONDITION.id, "folded")
    def _when_folded(self, w: When, side: str) -> list[Comparison]:
        return [Comparison(self.state.folded, (int(bool(w.folded)),))]

    @meaning("batch", CONDITION.id, "decided")
    def _when_decided(self, w: When, side: str) -> list[Comparison]:
        st = self.state
        N, S = st.N, st.S
        out = []
        for did, opts in (w.decided or {}).items():
            ch = st.decided.get(did)
            names = st.choice_names.get(did, [])
            idx = [names.index(o) for o in opts if o in names]
            if "none" in opts:  # not asked (or an option called "none")
                idx.append(-1)
            out.append(Comparison(ch if ch is not None else np.full((N, S), -1), tuple(idx)))
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
    def _when_dealer_qualifies(self, w: When, side: str) -> list[Comparison]:
        return [Comparison(self.hands.dealer_qualifies(), (int(bool(w.dealer_qualifies)),))]

    @meaning("batch", CONDITION.id, "player")
    def _when_player(self, w: When, side: str) -> list[Comparison]:
        want = tuple({"higher": 1, "equal": 0, "lower": -1}[x] for x in w.player or ())
        return [Comparison(self.hands.compare(), want)]

    @meaning("batch", CONDITION.id, "hand")
    def _when_hand(self, w: When, side: str) -> list[Comparison]:
        hands = self.hands
        out = []
        for hid, test in (w.hand or {}).items():
            v = hands.seat_value(hid)
            bev = hands.evaluator(hid)
            if test.at_least is not None:
                least = int(bev.pack_key(self.rules.threshold(hid, test.at_least)))
                out.append(Comparison(v.key, lo=least))
            if test.below is not None:
                below = int(bev.pack_key(self.rules.threshold(hid, test.below)))
                out.append(Comparison(v.key, hi=below - 1))
            if test.is_ is not None:
                out.append(Comparison(v.held, tuple(hands.chain_indices(hid, test.is_))))
            if test.is_not is not None:
                is_not = tuple(hands.chain_indices(hid, test.is_not))
                out.append(Comparison(v.held, is_not, negate=True))
        return out

    @meaning("batch", CONDITION.id, "beats")
    def _when_beats(self, w: When, side: str) -> list[Comparison]:
        assert w.beats is not None
        a, b = w.beats.hand, w.beats.other
        cmp = self.hands.cached(f"beats {a} {b}", lambda: self.hands.compare_keys(a, b))
        return [
            Comparison(cmp, tuple({"higher": 1, "equal": 0, "lower": -1}[x] for x in w.beats.is_))
        ]

    @meaning("batch", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, side: str) -> list[Comparison]:
        """The face-up card's rank (-1 where there is none: no rank a test names)."""
        assert w.dealer_up is not None
        up = self.state.up
        rank = self.hands.cached(
            "face-up rank", lambda: np.where(up >= 0, RANK.take(up), -1).astype(np.int64)
        )
        out = [Comparison(rank, lo=0)]
        if w.dealer_up.rank_in is not None:
            out.append(Comparison(rank, tuple(r for r in w.dealer_up.rank_in if r >= 0)))
        if w.dealer_up.rank_at_least is not None:
            out.append(Comparison(rank, lo=max(int(w.dealer_up.rank_at_least), 0)))
        return out

    @meaning("batch", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(self, w: When, side: str) -> list[Comparison]:
        up = self.state.up
        ok = up >= 0

        def make() -> B:  # where a seat holds a card of the face-up card's rank
            ranks = self.hands.player_ranks()
            has = ((ranks >> RANK.take(up).astype(np.int32)[:, None]) & 1).astype(bool)
            return has & ok[:, None]

        has = self.hands.cached("holds the face-up rank", make)
        return [Comparison(ok, (1,)), Comparison(has, (int(bool(w.holds_dealer_up_rank)),))]

    @meaning("batch", CONDITION.id, "suited")
    def _when_suited(self, w: When, side: str) -> list[Comparison]:
        st = self.state
        N, S = st.N, st.S
        out = []
        for group, want in (w.suited or {}).items():

            def make(group: str = group) -> B:
                cards = st.player if group == "player" else st.table[group][:, None, :]
                suits = pick(cards >= 0, cards & 3, -1)  # a card's suit: its int % 4
                return all_last((suits == suits[..., :1]) | (suits < 0))

            same = self.hands.cached(f"suited {group}", make)
            out.append(Comparison(np.broadcast_to(same, (N, S)), (int(bool(want)),)))
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
