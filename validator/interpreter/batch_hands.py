"""The batch engine's chunk of rounds: its state and the hands it holds.

``ChunkHands`` is the ground floor of a chunk (``batch._Chunk``): the cards of every round
as arrays, the stakes and decisions, and every hand's category and key for every round and
seat at once, by the generic ``BatchEvaluator`` of its ranking. Settlement
(``batch_settlement``) and decisions (``batch_decisions``) build on it; the steps and the
conditions are the chunk's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_money import I64, B
from validator.model.procedure import Option, When
from validator.rankings.batch import BatchEvaluator, Hands

if TYPE_CHECKING:
    from validator.interpreter.batch import BatchEngine, Scripted


BITS = np.array([1 << (16 * (c % 4) + c // 4) for c in range(52)] + [0], dtype=np.uint64)
RANK = np.array([c // 4 + 2 for c in range(52)] + [0], dtype=np.int64)
RANK_BIT = np.array([1 << (c // 4 + 2) for c in range(52)] + [0], dtype=np.int32)


def masks_of(cards: NDArray[Any]) -> list[NDArray[np.uint16]]:
    """Rows of card ints (-1 for no card) → four suit masks, for ``BatchEvaluator``."""
    x = np.zeros(cards.shape[:-1], np.uint64)
    for j in range(cards.shape[-1]):  # column by column: no (rows, cards) temporary
        x |= BITS[cards[..., j]]
    return [((x >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint16) for s in range(4)]


def among(a: NDArray[Any], values: Sequence[int]) -> B:
    """``np.isin`` for the few values of a condition: one comparison per value."""
    if len(values) > 8:
        return np.isin(a, values)
    out = np.zeros(a.shape, dtype=bool)
    for v in set(values):
        out |= a == v
    return out


def any_last(a: B) -> B:
    """``a.any(axis=-1)``, by counting (several times faster over a few columns)."""
    if a.shape[-1] > 255:
        return np.asarray(a.any(axis=-1))
    return np.asarray(np.einsum("...k->...", a.view(np.uint8)) > 0)


def all_last(a: B) -> B:
    """``a.all(axis=-1)``, by counting (several times faster over a few columns)."""
    if a.shape[-1] > 255:
        return np.asarray(a.all(axis=-1))
    return np.asarray(np.einsum("...k->...", a.view(np.uint8)) == a.shape[-1])


@dataclass
class _Value:
    held: NDArray[np.int64]  # category index (refinements included)
    key: NDArray[np.int64]


class ChunkHands:
    """The state of a chunk of rounds (cards as ``(rounds, seats, cards)`` arrays, -1 where
    no card; stakes, folds, decisions, what each line returned) and the hands it holds:
    each hand's category and key for every round and seat, cached until the cards change."""

    def __init__(
        self, eng: BatchEngine, decks: NDArray[np.int64], draws: dict[str, NDArray[np.int64]]
    ) -> None:
        self.e = eng
        self.rules = eng.rules
        self.N = decks.shape[0]
        self.S = eng.S
        self.decks = decks
        self.draws = draws
        self.pos = np.zeros(self.N, dtype=np.int64)
        N, S = self.N, self.S
        self.player = np.full((N, S, 0), -1, dtype=np.int64)  # held
        self.player_dealt = np.full((N, S, 0), -1, dtype=np.int64)
        self.table: dict[str, NDArray[np.int64]] = {}  # held
        self.table_dealt: dict[str, NDArray[np.int64]] = {}
        self.up = np.full(N, -1, dtype=np.int64)
        self.folded = np.zeros((N, S), dtype=bool)
        self.decided: dict[str, NDArray[np.int64]] = {}
        self.choice_names: dict[str, list[str]] = {}
        self.stakes = {spot: np.full((N, S), v, dtype=np.int64) for spot, v in eng.wagers.items()}
        self.scripted: dict[str, Scripted] = {}
        self.void_of: dict[str, B] = {}  # irregularity -> the rounds it voids
        self.voided = np.zeros(N, dtype=bool)
        self.standing: dict[str, B] = {}  # spot -> where its wager is not returned by a void
        self.meter_inc: dict[str, I64] = {}  # table/meter -> each round's increments
        self.meter_res: dict[str, I64] = {}  # and its reserve's
        self.fees = np.zeros((N, S), dtype=np.int64)
        self.pending_kind = np.zeros((N, S), dtype=np.int64)  # 0 none, 1 add, 2 exchange
        self.pending_keep = np.zeros((N, S), dtype=np.int64)
        self.pending_paired = np.zeros((N, S), dtype=bool)
        self.pending_named = np.zeros((N, S), dtype=bool)  # the exchange names its cards:
        self.pending_cards: B | None = None  # (N, S, held) those it keeps
        self.pending_option = np.full((N, S), -1, dtype=np.int64)  # index in draw_options
        self.draw_options: list[Option] = []
        self.returned: dict[str, I64] = {}  # line -> (N, S)
        self.house_line: dict[str, I64] = {}
        self.from_meter: dict[str, I64] = {}
        self.settled: dict[str, B] = {}
        # line -> when it was settled where: (the settlement's number, its lanes), in order
        self.seq: dict[str, list[tuple[int, B]]] = {}
        self.counter = 0
        self.step_index = 0  # the step being run: the meters pay hits in its order
        self.events: list[tuple[Any, ...]] = []
        self.version = 0
        self._values: dict[tuple[str, int], _Value] = {}
        self._figures: dict[tuple[str, int], NDArray[Any]] = {}
        # hand -> the cards it was last evaluated on, and its value then
        self._last: dict[str, tuple[NDArray[np.int64], _Value]] = {}
        self.wagered = np.zeros(N, dtype=np.int64)
        self.house = np.zeros(N, dtype=np.int64)
        self.contrib = np.zeros(N, dtype=np.int64)
        self.meter_paid = np.zeros(N, dtype=np.int64)
        self.qualifies: B | None = None
        self.seat_numbers = np.arange(1, S + 1, dtype=np.int64)

    # the conditions (``batch._Chunk``): where a `when:` holds, for every round and seat

    def cond(self, w: When, side: str = "player") -> B:
        raise NotImplementedError

    def _cached(self, name: str, make: Callable[[], NDArray[Any]]) -> NDArray[Any]:
        """A figure of the cards held, computed once until the cards change (``version``)."""
        key = (name, self.version)
        if key not in self._figures:
            self._figures[key] = make()
        return self._figures[key]

    def dealt(self) -> B:
        """Where a seat was dealt cards (a copy: callers combine it in place)."""

        def make() -> B:
            if not self.player.shape[2]:
                return np.zeros((self.N, self.S), bool)
            return any_last(self.player_dealt >= 0)

        return self._cached("dealt", make).copy()

    def player_ranks(self) -> NDArray[np.int32]:
        """The ranks each seat holds, as a mask (bit r: rank r; no card: no bit)."""

        def make() -> NDArray[np.int32]:
            out = np.zeros((self.N, self.S), np.int32)
            for j in range(self.player.shape[2]):
                out |= RANK_BIT[self.player[:, :, j]]
            return out

        return self._cached("ranks", make)

    def hand_cards(self, hand_id: str) -> tuple[NDArray[np.int64], bool]:
        """(cards, per seat?) of a hand: ``(N, S, k)`` for a player's hand, ``(N, k)`` else."""
        hand = self.rules.d.hands[hand_id]
        parts = []
        seat = "player" in hand.cards
        for group in hand.cards:
            if group == "player":
                src = self.player_dealt[:, :, : hand.first] if hand.first else self.player
            else:
                t = self.table_dealt if hand.first else self.table
                src = t.get(group, np.zeros((self.N, 0), np.int64))
                if hand.first:
                    src = src[:, : hand.first]
                if seat:
                    src = np.broadcast_to(src[:, None, :], (self.N, self.S, src.shape[1]))
            parts.append(src)
        return np.concatenate(parts, axis=-1), seat

    def value(self, hand_id: str) -> _Value:
        key = (hand_id, self.version)
        if key in self._values:
            return self._values[key]
        hand = self.rules.d.hands[hand_id]
        if hand.losing_of:
            a, b = (self._seat_value(h) for h in hand.losing_of)
            a_low = a.key < b.key
            tie = a.key == b.key
            v = _Value(
                np.where(tie, -1, np.where(a_low, a.held, b.held)),
                np.where(tie, -1, np.where(a_low, a.key, b.key)),
            )
        else:
            cards, _ = self.hand_cards(hand_id)
            v = self._evaluated(hand_id, cards)
        self._values[key] = v
        return v

    def _evaluated(self, hand_id: str, cards: NDArray[np.int64]) -> _Value:
        """The hand's category and key where its cards are: those of the hands whose cards
        have not changed since it was last evaluated kept, the others evaluated."""
        shape = cards.shape[:-1]
        last = self._last.get(hand_id)
        if last is None or last[0].shape != cards.shape:
            held, keys = self._evaluate(hand_id, cards.reshape(-1, cards.shape[-1]))
            v = _Value(held.reshape(shape), keys.reshape(shape))
        else:
            changed = np.flatnonzero(any_last(cards != last[0]))
            v = last[1]
            if changed.size:
                v = _Value(v.held.copy(), v.key.copy())
                rows = cards.reshape(-1, cards.shape[-1])[changed]
                v.held.reshape(-1)[changed], v.key.reshape(-1)[changed] = self._evaluate(
                    hand_id, rows
                )
        self._last[hand_id] = (cards, v)
        return v

    def _evaluate(
        self, hand_id: str, flat: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(category, key) of hands given as rows of card ints (-1: no card)."""
        ev = self.evaluator(hand_id)
        if flat.size and flat.min() >= 0:  # every hand whole: its card ints as they are
            held, keys = ev.held_and_keys_of_cards(flat)
        else:
            held, keys = ev.held_and_keys(Hands(masks_of(flat)))
        return held.astype(np.int64), keys

    def _seat_value(self, hand_id: str) -> _Value:
        v = self.value(hand_id)
        return _Value(self._seat(v.held), self._seat(v.key))

    def _seat(self, a: NDArray[Any]) -> NDArray[Any]:
        return a if a.ndim == 2 else np.broadcast_to(a[:, None], (self.N, self.S))

    def evaluator(self, hand_id: str) -> BatchEvaluator:
        return self.e.evaluator(hand_id)

    def dealer_qualifies(self) -> B:
        q = self.rules.qualifier
        if q is None:
            return np.ones(self.N, bool)
        v = self.value(q[0])
        return v.key >= self.evaluator(q[0]).pack_key(q[1])

    def compare(self) -> I64:
        """The player's hand against the dealer's: 1 higher, 0 equal, -1 lower."""
        c = self.rules.d.settle.compare  # type: ignore[union-attr]
        assert c is not None

        def make() -> I64:
            p, d = self._seat_value(c.player), self._seat_value(c.dealer)
            return np.sign(p.key - d.key)

        return self._cached("compare", make)

    def _wagered(self, wager: str) -> B:
        m = np.zeros((self.N, self.S), bool)
        for spot, st in self.stakes.items():
            if spot == wager or spot.startswith(wager + "."):
                m |= st > 0
        return m

    def _chain_indices(self, hand_id: str, ids: Sequence[str]) -> list[int]:
        """The categories a condition on ``ids`` holds for: those whose chain (the category
        and every one it refines, ``Evaluator.chain``) meets ``ids``."""
        ev = self.rules.evaluator(hand_id)
        wanted = set(ids)
        return [i for i, cat in enumerate(ev.categories) if wanted.intersection(ev.chain(cat))]
