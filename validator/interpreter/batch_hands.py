"""The batch engine's hands: what each hand of a chunk is worth, for every round and seat.

A hand of the game file is made of card groups (the player's, the dealer's, the community
cards) or is the lower of two hands (Bad Beat). ``ChunkHands`` gives its cards and its
category and key for every round and seat at once, by the generic ``BatchEvaluator`` of its
ranking, the dealer's qualifying and the comparison of the player's hand with the dealer's,
each cached until the cards change (a new version of the ``ChunkState``); a hand whose cards
changed in some rounds only (a draw) is evaluated again in those rounds only. It reads the
chunk's cards and changes nothing. The array helpers the engine tests and sums with
(``among``, ``any_last``, ``all_last``) live here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_kernels import (
    card_counts,
    cards_of_rows,
    changed_rows,
    compare_keys,
    lower_of,
    put_cards,
    rank_masks,
    sums_of_rows,
)
from validator.interpreter.batch_money import B
from validator.interpreter.batch_state import CARD, ChunkState
from validator.interpreter.rules import Rules
from validator.rankings.batch import CARD_BIT_OR_NONE, BatchEvaluator, Hands
from validator.rankings.table_kernels import card_bits

RANK = np.array([c // 4 + 2 for c in range(52)] + [0], dtype=np.int8)
RANK_BIT = np.array([1 << (c // 4 + 2) for c in range(52)] + [0], dtype=np.uint16)


def _lanes(a: NDArray[Any]) -> NDArray[Any]:
    """A per-lane array as one C-ordered axis (a copy where it is not C-contiguous)."""
    return np.ascontiguousarray(a).reshape(-1)


def _changed(cards: NDArray[np.int8], before: NDArray[np.int8]) -> NDArray[np.int64]:
    """The hands (flat indices) whose cards differ from those before (as many cards or
    fewer: a card added where the hand had none), in order."""
    k = cards.shape[-1]
    now = np.ascontiguousarray(cards).reshape(-1, k)
    was = np.ascontiguousarray(before).reshape(-1, before.shape[-1])
    rows = np.empty(now.shape[0], dtype=np.int64)
    return rows[: changed_rows(now, was, rows)]


def masks_of(cards: NDArray[Any]) -> list[NDArray[np.uint16]]:
    """Rows of card ints (-1 for no card) → four suit masks, for ``BatchEvaluator``."""
    rows = int(np.prod(cards.shape[:-1]))
    flat = np.empty(rows, np.uint64)
    card_bits(np.ascontiguousarray(cards).reshape(rows, cards.shape[-1]), CARD_BIT_OR_NONE, flat)
    x = flat.reshape(cards.shape[:-1])
    return [((x >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint16) for s in range(4)]


def among(a: NDArray[Any], values: Sequence[int]) -> B:
    """``np.isin`` for the few values of a condition: one comparison per value."""
    if len(values) > 8:
        return np.isin(a, values)
    out = np.zeros(a.shape, dtype=bool)
    for v in set(values):
        out |= a == v
    return out


def pick(m: B, a: Any, b: Any) -> NDArray[Any]:
    """``np.where(m, a, b)`` of integers (or booleans), as ``b + m * (a - b)``: arithmetic
    over whole arrays, several times faster than numpy's select lane by lane on a mask that
    follows the cards (a branch mispredicted at every other lane). ``a - b`` must fit the
    arrays' integer type (cards, counts, micro-dollars: far from it)."""
    if np.asarray(a).dtype == bool and np.asarray(b).dtype == bool:
        return np.asarray((m & a) | (~m & b))
    return np.asarray(b + m * (np.asarray(a) - b))


def _counts(a: B) -> NDArray[np.int64]:
    """Each row's count of true entries over the last axis, in one compiled pass."""
    k = a.shape[-1]
    out = np.zeros(a.shape[:-1], dtype=np.int64)
    if not k or not out.size:
        return out
    rows = np.ascontiguousarray(a).reshape(-1, k).view(np.uint8)
    sums_of_rows(rows, out.reshape(-1))
    return out


def any_last(a: B) -> B:
    """``a.any(axis=-1)``, by counting (several times faster over a few columns)."""
    return np.asarray(_counts(a) > 0)


def all_last(a: B) -> B:
    """``a.all(axis=-1)``, by counting (several times faster over a few columns)."""
    return np.asarray(_counts(a) == a.shape[-1])


@dataclass
class Value:
    """A hand's value in every round (and seat): its category and its key."""

    held: NDArray[np.int8]  # category index (refinements included; -1: none)
    key: NDArray[np.int64]


class ChunkHands:
    """The hands of a chunk: each hand's category and key for every round and seat, and the
    figures of the cards held (who was dealt, the ranks held, the comparison), each cached
    until the cards change (a new version of the ``ChunkState``). It reads the cards and
    changes nothing."""

    def __init__(
        self,
        rules: Rules,
        evaluator: Callable[[str], BatchEvaluator],
        state: ChunkState,
    ) -> None:
        self.rules = rules
        self._evaluators = evaluator  # a hand's ranking's, shared between chunks
        self.state = state
        self._values: dict[tuple[str, int], Value] = {}
        self._figures: dict[tuple[str, int], NDArray[Any]] = {}
        # hand -> the cards it was last evaluated on, and its value then
        self._last: dict[str, tuple[NDArray[np.int8], Value]] = {}
        # (hand, version) -> the category alone, where nothing asked for its key
        self._held: dict[tuple[str, int], NDArray[np.int8]] = {}

    def cached(self, name: str, make: Callable[[], NDArray[Any]]) -> NDArray[Any]:
        """A figure of the cards held, computed once until the cards change (``version``)."""
        key = (name, self.state.version)
        if key not in self._figures:
            self._figures[key] = make()
        return self._figures[key]

    def evaluator(self, hand_id: str) -> BatchEvaluator:
        return self._evaluators(hand_id)

    def dealt(self) -> B:
        """Where a seat was dealt cards (a copy: callers combine it in place)."""
        st = self.state

        def make() -> B:
            if not st.player.shape[2]:
                return np.zeros((st.N, st.S), bool)
            return any_last(st.player_dealt >= 0)

        return self.cached("dealt", make).copy()

    def player_ranks(self) -> NDArray[np.uint16]:
        """The ranks each seat holds, as a mask (bit r: rank r; no card: no bit)."""
        st = self.state

        def make() -> NDArray[np.uint16]:
            out = np.empty((st.N, st.S), np.uint16)
            rank_masks(st.player, RANK_BIT, out)
            return out

        return self.cached("ranks", make)

    def hand_cards(self, hand_id: str) -> tuple[NDArray[np.int8], bool]:
        """(cards, per seat?) of a hand: ``(N, S, k)`` for a player's hand, ``(N, k)`` else."""
        st = self.state
        hand = self.rules.d.hands[hand_id]
        parts = []
        seat = "player" in hand.cards
        shared = False  # a part of the table's, shared by every seat
        for group in hand.cards:
            if group == "player":
                src = st.player_dealt[:, :, : hand.first] if hand.first else st.player
            else:
                t = st.table_dealt if hand.first else st.table
                src = t.get(group, np.zeros((st.N, 0), CARD))
                if hand.first:
                    src = src[:, : hand.first]
                if seat:  # the table's cards, shared by every seat
                    src, shared = src[:, None, :], True
            parts.append(src)
        if not shared:
            return np.concatenate(parts, axis=-1), seat
        if any(not p.flags.c_contiguous for p in parts if p.shape[1] == st.S):
            # a seat's cards as dealt (rounds the fastest): numpy's copy reads them faster
            wide = [np.broadcast_to(p, (st.N, st.S, p.shape[-1])) for p in parts]
            return np.concatenate(wide, axis=-1), seat
        out = np.empty((st.N, st.S, sum(p.shape[-1] for p in parts)), dtype=CARD)
        col = 0
        for src in parts:
            put_cards(src, col, out)
            col += src.shape[-1]
        return out, seat

    def value(self, hand_id: str) -> Value:
        """The hand's category and key: ``(N, S)`` for a player's hand, ``(N,)`` else."""
        key = (hand_id, self.state.version)
        if key in self._values:
            return self._values[key]
        hand = self.rules.d.hands[hand_id]
        if hand.losing_of:
            a, b = (self.seat_value(h) for h in hand.losing_of)
            st = self.state
            v = Value(np.empty((st.N, st.S), np.int8), np.empty((st.N, st.S), np.int64))
            lower_of(
                _lanes(a.held),
                _lanes(a.key),
                _lanes(b.held),
                _lanes(b.key),
                v.held.reshape(-1),
                v.key.reshape(-1),
            )
        else:
            cards, _ = self.hand_cards(hand_id)
            v = self._evaluated(hand_id, cards)
        self._values[key] = v
        return v

    def held(self, hand_id: str) -> NDArray[np.int8]:
        """The hand's category alone (what a paytable's row reads): from its value where that
        is known or its cards were valued before (only the changed ones are valued again),
        else its whole hands valued for their category alone (their keys, a flush's kickers
        among them, not computed)."""
        key = (hand_id, self.state.version)
        if key in self._values:
            return self._values[key].held
        if key not in self._held:
            hand = self.rules.d.hands[hand_id]
            if hand.losing_of or hand_id in self._last:
                return self.value(hand_id).held
            cards, _ = self.hand_cards(hand_id)
            flat = cards.reshape(-1, cards.shape[-1])
            ev = self.evaluator(hand_id)
            if not flat.size or flat.min() < 0 or ev.ranking.low is not None:
                return self.value(hand_id).held
            held = ev.held_of_cards(flat)
            self._held[key] = held.astype(np.int8, copy=False).reshape(cards.shape[:-1])
        return self._held[key]

    def _evaluated(self, hand_id: str, cards: NDArray[np.int8]) -> Value:
        """The hand's category and key where its cards are: those of the hands whose cards
        have not changed since it was last evaluated kept, the others evaluated."""
        shape = cards.shape[:-1]
        last = self._last.get(hand_id)
        before = None if last is None else last[0]
        if before is not None and before.shape[-1] > cards.shape[-1]:
            before = None  # cards taken away: valued as they are
        if last is None and (twin := self._twin(hand_id, cards)) is not None:
            v = twin
        elif last is None or before is None or before.shape[:-1] != shape:
            held, keys = self._evaluate(hand_id, cards.reshape(-1, cards.shape[-1]))
            v = Value(held.reshape(shape), keys.reshape(shape))
        else:
            changed = _changed(cards, before)
            v = last[1]
            if changed.size == v.key.size:  # every hand changed: valued as they are
                held, keys = self._evaluate(hand_id, cards.reshape(-1, cards.shape[-1]))
                v = Value(held.reshape(shape), keys.reshape(shape))
            elif changed.size:
                v = Value(v.held.copy(), v.key.copy())
                flat = np.ascontiguousarray(cards).reshape(-1, cards.shape[-1])
                v.held.reshape(-1)[changed], v.key.reshape(-1)[changed] = self._evaluate(
                    hand_id, flat, changed
                )
        self._last[hand_id] = (cards, v)
        return v

    def _twin(self, hand_id: str, cards: NDArray[np.int8]) -> Value | None:
        """The value of another hand of the same ranking last evaluated on these very cards
        (a player's first five cards and the five held, before a draw): the same value."""
        ranking = self.rules.d.hands[hand_id].ranking
        for other, (seen, v) in self._last.items():
            if (
                self.rules.d.hands[other].ranking == ranking
                and seen.shape == cards.shape
                and np.array_equal(seen, cards)
            ):
                return v
        return None

    def _evaluate(
        self, hand_id: str, flat: NDArray[np.int8], at: NDArray[np.int64] | None = None
    ) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """(category, key) of hands given as rows of card ints (-1: no card), every row of
        ``flat`` or the rows ``at`` (flat indices: read where they are, not gathered
        first): the hands of each size by their card ints (a row's cards in their order,
        its -1s left out), a hand of no card by its suit masks."""
        ev = self.evaluator(hand_id)
        if at is None and not flat.size:
            held, keys = ev.held_and_keys(Hands(masks_of(flat)))
        elif at is None and flat.min() >= 0:  # every hand whole: its card ints as they are
            held, keys = ev.held_and_keys_of_cards(flat)
        else:
            n = flat.shape[0] if at is None else at.shape[0]
            counts = np.empty(n, dtype=np.int64)  # a row's cards
            card_counts(flat, at, counts)
            held = np.empty(n, dtype=np.int8)
            keys = np.empty(n, dtype=np.int64)
            for size in range(int(counts.min(initial=0)), int(counts.max(initial=-1)) + 1):
                rows = np.flatnonzero(counts == size)  # the sizes held (no count: faster)
                if not rows.size:
                    continue
                of = rows if at is None else at[rows]  # the rows of ``flat``
                if size:  # each row's `size` cards, row by row
                    cards = np.empty((rows.size, size), dtype=flat.dtype)
                    cards_of_rows(flat, of, cards)
                    part = ev.held_and_keys_of_cards(cards)
                else:
                    part = ev.held_and_keys(Hands(masks_of(flat[of])))
                held[rows], keys[rows] = part
        return held.astype(np.int8, copy=False), keys

    def seat_value(self, hand_id: str) -> Value:
        """The hand's value at every seat: a hand of the table repeated for each."""
        v = self.value(hand_id)
        return Value(self.at_seats(v.held), self.at_seats(v.key))

    def at_seats(self, a: NDArray[Any]) -> NDArray[Any]:
        """A per-round ``(N,)`` figure as ``(N, S)``; a per-seat one as it is."""
        st = self.state
        return a if a.ndim == 2 else np.broadcast_to(a[:, None], (st.N, st.S))

    def dealer_qualifies(self) -> B:
        q = self.rules.qualifier
        if q is None:
            return np.ones(self.state.N, bool)
        v = self.value(q[0])
        return v.key >= self.evaluator(q[0]).pack_key(q[1])

    def compare(self) -> NDArray[np.int8]:
        """The player's hand against the dealer's: 1 higher, 0 equal, -1 lower."""
        c = self.rules.d.settle.compare  # type: ignore[union-attr]
        assert c is not None

        def make() -> NDArray[np.int8]:
            return self.compare_keys(c.player, c.dealer)

        return self.cached("compare", make)

    def compare_keys(self, a: str, b: str) -> NDArray[np.int8]:
        """Hand ``a`` against hand ``b`` at every seat: 1 higher, 0 equal, -1 lower."""
        st = self.state
        out = np.empty((st.N, st.S), dtype=np.int8)
        x, y = self.value(a).key, self.value(b).key
        compare_keys(
            np.ascontiguousarray(x).reshape(-1),
            0 if x.ndim == 2 else st.S,
            np.ascontiguousarray(y).reshape(-1),
            0 if y.ndim == 2 else st.S,
            out.reshape(-1),
        )
        return out

    def chain_indices(self, hand_id: str, ids: Sequence[str]) -> list[int]:
        """The categories a condition on ``ids`` holds for: those whose chain (the category
        and every one it refines, ``Evaluator.chain``) meets ``ids``."""
        ev = self.rules.evaluator(hand_id)
        wanted = set(ids)
        return [i for i, cat in enumerate(ev.categories) if wanted.intersection(ev.chain(cat))]
