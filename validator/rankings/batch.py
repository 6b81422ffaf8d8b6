"""The ranking primitives over numpy arrays of hands: the batch evaluator.

A batch of hands is held as four suit masks (``uint16`` arrays, one per suit in the order
clubs, diamonds, hearts, spades; bit ``i`` is rank ``i + 2``), so every primitive is a few
bitwise operations and lookups in tables of the 8,192 possible 13-bit masks:

- rank multiplicities are bit-sliced: ``ge(t)`` is the mask of ranks held at least ``t``
  times (``of_a_kind`` picks its groups greedily from these, highest rank first, which is
  what the scalar search finds);
- a run is looked up in a table of the highest ``n``-run of each mask (the ace low where the
  ranking allows it), on the union of the suits (``straight``), on one suit
  (``straight_flush``) or on one colour (``same_color_straight``);
- the cards left for kickers are a multiset written in unary, one nibble per rank; its
  cards are taken highest first.

Like the scalar ``Evaluator`` (the reference it is tested against), it is driven by the
ranking's data alone: ``held`` gives the index of the highest category each hand holds
(refinements included) and ``keys`` an integer per hand that orders hands exactly as
``Evaluator.best(...).key`` does (``pack_key`` packs a scalar key the same way). Hands are
sets of distinct cards of one 52-card deck.

Large batches of hands of up to eight cards go through tables, built once per ranking and
hand size on first use: a hand's rank multiset and suit counts are one additive code (a sum
over its cards, or over its four suit masks), the multiset numbers a table holding the
best category that reads no suit, and the suit counts say whether the hand might hold one
that does (a flush needs five cards of a suit). Those hands read each suit's mask in a
table of the categories reading suits (``_suited_values``) where each such category is held
by one suit's cards alone and takes no kicker; otherwise they take the general path.
Hands of other sizes in the same batch go through their own size's table; hands of one or
two cards are read from a table of every such hand (``_card_table``). A ranking whose
every category is held by the cards of one suit alone (High Card Flush: the longest flush,
or straight flush, of a suit) is read instead from a table of each suit's 8,192 masks, the
hand's value being its best suit's (``_suit_tables``). ``keys_of_cards`` and
``held_of_cards`` take the hands as rows of card ints directly; ``held_and_keys`` finds
both at once. ``shared_evaluator`` keeps one evaluator (and its tables) per ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from validator.model.ranking import Category, Ranking
from validator.rankings.primitives import COLORS, SUIT_INDEX
from validator.rankings.table_kernels import (
    card_bits,
    of_a_kind_cards,
    second_combinations,
    suit_table_values,
    table_values,
    two_table_values,
)
from validator.vocabulary import RANKING_PRIMITIVE, meaning, meaning_of

NRANKS = 13
FULL = (1 << NRANKS) - 1
DIGIT = 4  # bits per rank digit of a packed key
SUITS = range(4)

U16 = NDArray[np.uint16]
U64 = NDArray[np.uint64]
Masks = Sequence[U16] | U16  # four suit masks (a list, or a (4, N) array)

_CARD_BIT = np.array([1 << (16 * (c % 4) + c // 4) for c in range(52)], dtype=np.uint64)
#: ``_CARD_BIT`` and, last (card int -1), no card's: none
CARD_BIT_OR_NONE = np.append(_CARD_BIT, np.uint64(0))
_NIBBLE_POP = np.array([bin(i).count("1") for i in range(16)], dtype=np.int8)
# a rank group of p cards: its digit repeated p times
_REPEAT = [sum(1 << (DIGIT * j) for j in range(p)) for p in range(NRANKS + 1)]


def _masks() -> NDArray[np.int64]:
    """Every 13-bit rank mask, the index of the tables below."""
    return np.arange(FULL + 1, dtype=np.int64)


def _has(r: int) -> NDArray[np.bool_]:
    """Which masks hold rank index ``r``."""
    return (_masks() >> r & 1).astype(bool)


@cache
def _popcount() -> NDArray[np.int8]:
    return sum((_has(r).astype(np.int8) for r in range(NRANKS)), np.zeros(FULL + 1, np.int8))


@cache
def _highbit() -> NDArray[np.int8]:
    """The highest rank index of a mask, -1 for the empty mask."""
    out = np.full(FULL + 1, -1, dtype=np.int8)
    for r in range(NRANKS):  # a higher rank overwrites
        out[_has(r)] = r
    return out


@cache
@meaning("batch", RANKING_PRIMITIVE.id, "ace_low")
def _run_top(n: int, ace_low: bool) -> NDArray[np.int8]:
    """Rank (2..14) of the top card of the highest run of ``n`` ranks in a mask, 0 if none;
    with ``ace_low`` an ace may end a run below the 2 (A-2-3-4-5 tops at 5)."""
    lowest_top = n if ace_low else n + 1
    wide = _masks() << 2  # bit r is rank r
    if ace_low:
        wide |= np.where(_has(12), 2, 0)  # the ace playing low
    out = np.zeros(FULL + 1, dtype=np.int8)
    for top in range(lowest_top, 15):  # a higher run overwrites
        run = ((1 << n) - 1) << (top - n + 1)
        out[(wide & run) == run] = top
    return out


@cache
def _run_digits(n: int) -> NDArray[np.uint64]:
    """A run by its top rank → its ranks top first (an ace playing low is 14), as n digits."""
    out = np.zeros(15, dtype=np.uint64)
    for top in range(n, 15):
        value = 0
        for r in range(top, top - n, -1):
            value = value << DIGIT | (14 if r == 1 else r)
        out[top] = value
    return out


def _highest(k: int) -> list[tuple[int, NDArray[np.bool_]]]:
    """For each rank index, highest first, which masks count it among their ``k`` highest."""
    taken = np.zeros(FULL + 1, dtype=np.int64)
    out = []
    for r in range(NRANKS - 1, -1, -1):
        take = _has(r) & (taken < k)
        taken += take
        out.append((r, take))
    return out


@cache
def _top_digits(k: int) -> NDArray[np.uint64]:
    """The ``k`` highest ranks of a mask as ``k`` digits, highest first (0 where missing)."""
    value = np.zeros(FULL + 1, dtype=np.uint64)
    taken = np.zeros(FULL + 1, dtype=np.uint64)
    for r, take in _highest(k):
        value = np.where(take, value << np.uint64(DIGIT) | np.uint64(r + 2), value)
        taken += take.astype(np.uint64)
    return value << (np.uint64(DIGIT) * (np.uint64(k) - taken))


@cache
def _top_mask(k: int) -> U16:
    """The mask of the ``k`` highest ranks of a mask."""
    out = np.zeros(FULL + 1, dtype=np.uint16)
    for r, take in _highest(k):
        out[take] |= np.uint16(1 << r)
    return out


@cache
def _spread(fill: int) -> U64:
    """A mask → the nibble ``fill`` at the place of each of its ranks (rank index i at 4i)."""
    out = np.zeros(FULL + 1, dtype=np.uint64)
    for r in range(NRANKS):
        out[_has(r)] |= np.uint64(fill << (DIGIT * r))
    return out


def rank_mask(ranks: Sequence[int]) -> int:
    """Ranks 2..14 → a 13-bit mask."""
    return sum(1 << (r - 2) for r in set(ranks))


def _range_mask(lo: int, hi: int) -> int:
    return sum(1 << (r - 2) for r in range(lo, hi + 1))


def suit_masks(cards: ArrayLike) -> U16:
    """Hands as rows of card ints (0..51) → a ``(4, N)`` array of suit masks."""
    c = np.asarray(cards)
    if c.ndim != 2:
        raise ValueError("cards: expected a 2-d array, one hand of card ints per row")
    x = _CARD_BIT[c[:, 0]] if c.shape[1] else np.zeros(c.shape[0], np.uint64)
    for j in range(1, c.shape[1]):  # column by column: no transposed copy
        x |= _CARD_BIT[c[:, j]]
    out = np.empty((4, c.shape[0]), dtype=np.uint16)
    for s in SUITS:
        out[s] = (x >> np.uint64(16 * s)) & np.uint64(FULL)
    return out


def take_top(u: U64, k: int) -> list[NDArray[np.int64]]:
    """The ``k`` highest cards of multisets written in unary nibbles, as rank arrays (2..14,
    0 where the multiset has run out). ``u`` is consumed."""
    out = []
    for _ in range(k):
        # u < 2**52 is exact in a float64, so its exponent is its highest bit
        hb = np.frexp(u.astype(np.float64))[1].astype(np.int64) - 1
        has = hb >= 0
        hb[~has] = 0
        out.append(np.where(has, hb // DIGIT + 2, 0))
        u ^= np.where(has, np.left_shift(np.uint64(1), hb.astype(np.uint64)), np.uint64(0))
    return out


def unary_counts(u: U64) -> NDArray[np.int8]:
    """Unary nibbles → ``(N, 13)`` rank counts."""
    out = np.empty((u.shape[0], NRANKS), dtype=np.int8)
    for r in range(NRANKS):
        out[:, r] = _NIBBLE_POP[((u >> np.uint64(DIGIT * r)) & np.uint64(15)).astype(np.intp)]
    return out


def counts_unary(counts: NDArray[np.int8]) -> U64:
    """``(N, 13)`` rank counts → unary nibbles."""
    u = np.zeros(counts.shape[0], dtype=np.uint64)
    for r in range(NRANKS):
        nib = (np.left_shift(np.uint64(1), counts[:, r].astype(np.uint64)) - np.uint64(1)) & (
            np.uint64(15)
        )
        u |= nib << np.uint64(DIGIT * r)
    return u


_SUIT_FREE = frozenset({"of_a_kind", "straight", "ranks", "contains", "contains_any", "any"})

# A hand's rank multiset and suit counts as one additive code: the ranks 2-8 as base-5
# digits (bits 0-16), the ranks 9-A as base-5 digits (bits 17-30), then the number of
# cards of each suit, a nibble per suit (bits 31-46). A card's code is its rank's digit
# and its suit's one; a suit mask's code is the sum over its ranks.
_LOW_RANKS = 7
_HIGH_SHIFT = 17  # 5**7 <= 2**17
_SUIT_SHIFT = 31  # 5**6 << 17 < 2**31
_LOW_FIELD, _HIGH_FIELD = (1 << _HIGH_SHIFT) - 1, (1 << (_SUIT_SHIFT - _HIGH_SHIFT)) - 1
_RANK_CODE = [
    5**r if r < _LOW_RANKS else 5 ** (r - _LOW_RANKS) << _HIGH_SHIFT for r in range(NRANKS)
]
_CARD_CODE = np.array(
    [_RANK_CODE[c // 4] + (1 << (_SUIT_SHIFT + 4 * (c % 4))) for c in range(52)], dtype=np.int64
)
TABLE_MAX_CARDS = 8  # hands of up to this many cards take the rank-multiset tables
PAIR_MAX_CARDS = 2  # hands of up to this many cards take a table of every hand
_SLICE = 1 << 15
_NO_SUITS = np.zeros((0, 0), dtype=np.int64)  # no table of suits' values
#: the shapes whose category, where it reads suits, is held by the cards of one suit alone
#: (a flush, a straight flush, named ranks of a suit), so that a suit's mask answers it
_HELD_BY_ONE_SUIT = ("flush", "straight_flush", "ranks", "contains", "contains_any")


@cache
def _suit_code(s: int) -> NDArray[np.int64]:
    """A mask of suit ``s`` → its code: its ranks' digits and its card count in suit s."""
    m = np.arange(FULL + 1, dtype=np.int64)
    out = _popcount().astype(np.int64) << (_SUIT_SHIFT + 4 * s)
    for r in range(NRANKS):
        out += ((m >> r) & 1) * _RANK_CODE[r]
    return out


@cache
def _suit_counts() -> NDArray[np.int8]:
    """The suit nibbles of a code → ``(65536, 4)`` cards per suit."""
    v = np.arange(1 << 16)
    return np.stack([(v >> (4 * s)) & 15 for s in SUITS], axis=1).astype(np.int8)


def _base5(digits: int) -> NDArray[np.int8]:
    """Every number below 5**digits as its base-5 digits, lowest first."""
    v = np.arange(5**digits)
    return np.stack([(v // 5**d) % 5 for d in range(digits)], axis=1).astype(np.int8)


class _RankIndex:
    """The rank multisets of exactly ``k`` cards, numbered densely from their code: a low
    part (ranks 2-8) with digit sum s numbers its block of ``count_high[k - s]`` slots
    (``base_low``), and a high part is numbered among the high parts of its own digit sum
    (``id_high``), so a hand's number is ``base_low[low] + id_high[high]``. ``counts``
    lists the multisets by number, as ``(n, 13)`` rank counts."""

    def __init__(self, k: int) -> None:
        low, high = _base5(_LOW_RANKS), _base5(NRANKS - _LOW_RANKS)
        low_sum, high_sum = low.sum(axis=1, dtype=np.int64), high.sum(axis=1, dtype=np.int64)
        by_sum = np.argsort(high_sum, kind="stable")
        count_high = np.bincount(high_sum, minlength=k + 1)
        start_high = np.concatenate(([0], np.cumsum(count_high)[:-1]))
        id_high = np.empty(high_sum.size, dtype=np.int64)
        id_high[by_sum] = np.arange(high_sum.size) - start_high[high_sum[by_sum]]
        slots = np.where(low_sum <= k, count_high[np.clip(k - low_sum, 0, None)], 0)
        base_low = np.cumsum(slots) - slots
        self.size = int(slots.sum())
        self.base_low = base_low.astype(np.int32)
        self.id_high = id_high.astype(np.int32)
        lows = np.repeat(np.arange(low_sum.size), slots)
        within = np.arange(self.size) - base_low[lows]
        highs = by_sum[start_high[k - low_sum[lows]] + within]
        self.counts = np.concatenate((low[lows], high[highs]), axis=1)

    def number(self, code: NDArray[np.int64]) -> NDArray[np.int32]:
        return self.base_low[code & _LOW_FIELD] + self.id_high[(code >> _HIGH_SHIFT) & _HIGH_FIELD]

    def hands(self) -> Hands:
        """One hand per multiset (its suits made up: suit j holds the ranks held > j times)."""
        masks = []
        for j in SUITS:
            held = self.counts > j
            masks.append(
                (held.astype(np.uint16) << np.arange(NRANKS, dtype=np.uint16)).sum(
                    axis=1, dtype=np.uint16
                )
            )
        return Hands(masks)


@cache
def _rank_index(k: int) -> _RankIndex:
    return _RankIndex(k)


def _ranks_outside(
    by_ranks: NDArray[np.bool_], size: NDArray[np.int64], on_ranks: NDArray[np.bool_]
) -> NDArray[np.uint16]:
    """For each category ``j`` of an order read on ranks alone (``on_ranks``), each number
    of cards k and rank multiset of k cards (by its number): the ranks (bit r for rank
    index r) that some ``size[j]`` of its ranks holding ``j`` (``by_ranks[j, size[j]]``)
    take. A hand holds ``j`` with some ``size[j]`` of its cards, one of them outside a
    combination, exactly where one of these ranks is held outside it (a rank's cards are
    alike to a category read on ranks)."""
    cards = by_ranks.shape[1] - 1
    out = np.zeros((len(size), cards + 1, _rank_index(cards).size), dtype=np.uint16)
    bit = (1 << np.arange(NRANKS)).astype(np.uint16)
    code = np.array(_RANK_CODE, dtype=np.int64)
    for k in range(1, cards + 1):
        index = _rank_index(k)
        rows = np.arange(NRANKS)[None, :].repeat(index.size, axis=0)
        ranks = np.repeat(rows.ravel(), index.counts.ravel()).reshape(index.size, k)
        for z in sorted({int(n) for n, f in zip(size, on_ranks, strict=True) if f and 0 < n <= k}):
            for combo in combinations(range(k), z):
                sub = ranks[:, combo]
                taken = np.bitwise_or.reduce(bit[sub], axis=1)
                number = _rank_index(z).number(code[sub].sum(axis=1))
                for j in np.flatnonzero(on_ranks & (size == z)).tolist():
                    out[j, k, : index.size] |= np.where(by_ranks[j, z, number], taken, 0).astype(
                        np.uint16
                    )
    return out


class _RankTable:
    """For hands of ``k`` cards: the value (key or category index) of the first suit-free
    category of an order held by each rank multiset (-1 where none), and which suit counts
    could hold a category of that order reading suits (those hands take the general path)."""

    def __init__(self, index: _RankIndex, value: NDArray[np.int64], check: NDArray[np.bool_]):
        self.index, self.value, self.check = index, value, check


class Hands:
    """A batch of hands as suit masks, with the features the primitives read, computed once."""

    def __init__(self, masks: Masks) -> None:
        self.m: list[U16] = [np.asarray(masks[s], dtype=np.uint16) for s in SUITS]
        self.n = int(self.m[0].shape[0])
        self._ge: dict[int, U16] = {}
        self._unary: U64 | None = None

    def subset(self, rows: NDArray[np.intp]) -> Hands:
        return Hands([m[rows] for m in self.m])

    def ge(self, t: int) -> U16:
        """Ranks held at least ``t`` times."""
        if not self._ge:
            a, b, c, d = self.m
            ab, cd, a_b, c_d = a & b, c & d, a | b, c | d
            ge: dict[int, Any] = {
                1: a_b | c_d,
                2: ab | cd | (a_b & c_d),
                3: (ab & c_d) | (cd & a_b),
                4: ab & cd,
            }
            self._ge = ge
        if t > 4:
            return np.zeros(self.n, dtype=np.uint16)
        return self._ge[t]

    def unary(self) -> U64:
        """The hand's rank multiset in unary nibbles (rank i: count ones at nibble i)."""
        if self._unary is None:
            sp = _spread(1)
            u = sp[self.ge(1)].copy()
            for t in (2, 3, 4):
                u |= sp[self.ge(t)] << np.uint64(t - 1)
            self._unary = u
        return self._unary.copy()

    def pop(self, mask: U16) -> NDArray[np.int8]:
        return _popcount()[mask]


class BatchEvaluator:
    """One ranking's primitives over batches of hands (see the module docstring)."""

    @meaning("batch", RANKING_PRIMITIVE.id, "refines")
    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        self.categories = ranking.categories
        self.ace_low = ranking.ace_low
        self.size = ranking.size
        top = len(self.categories)
        by_id = {c.id: i for i, c in enumerate(self.categories)}
        self.strength: list[int] = []
        for c in self.categories:
            parent = c
            while parent.refines is not None:
                parent = self.categories[by_id[parent.refines]]
            self.strength.append(top - by_id[parent.id])
        self.comparing = [i for i, c in enumerate(self.categories) if c.refines is None]
        self._rank_tables: dict[tuple[str, int], _RankTable | None] = {}
        self._suit_table_cache: dict[str, NDArray[Any] | None] = {}
        self._suited_value_cache: dict[str, NDArray[np.int64] | None] = {}
        self._second_cache: dict[tuple[tuple[int, ...], int], tuple[NDArray[Any], ...] | None]
        self._second_cache = {}
        #: each category's vectorised meaning, looked up in the vocabulary once
        self._meanings = {id(c): (c, _vectorised(c)) for c in self.categories}
        for c in self.categories:
            for option in self._options(c):
                if len(set(option)) != len(option):
                    raise ValueError(f"category {c.id!r}: a rank is listed twice")

    # -- which category ---------------------------------------------------------------------

    def held(self, masks: Masks | Hands) -> NDArray[np.int8]:
        """Index (into ``ranking.categories``) of the highest category each hand holds,
        refinements included: what ``Evaluator.held`` returns."""
        h = masks if isinstance(masks, Hands) else Hands(masks)
        return self._by_table("held", h, None)

    def held_of_cards(self, cards: ArrayLike) -> NDArray[np.int8]:
        """``held`` of hands given as rows of card ints (0..51), distinct in each row."""
        return self._by_table("held", None, _card_rows(cards))

    def keys_of_cards(self, cards: ArrayLike) -> NDArray[np.int64]:
        """``keys`` of hands given as rows of card ints (0..51), distinct in each row."""
        self._high_only()
        return self._by_table("keys", None, _card_rows(cards))

    def comparing_category(self, masks: Masks | Hands) -> NDArray[np.int8]:
        """Index of the category each hand compares as (refinements folded in)."""
        if len(self.comparing) == len(self.categories):  # no refinement: the one held
            return self.held(masks)
        return self._first_held(masks, self.comparing)

    def _first_held(
        self, masks: Masks | Hands, order: Sequence[int], allow_none: bool = False
    ) -> NDArray[np.int8]:
        h = masks if isinstance(masks, Hands) else Hands(masks)
        out = np.full(h.n, -1, dtype=np.int8)
        open_ = np.ones(h.n, dtype=bool)
        for i in order:
            c = self.categories[i]
            if c.shape == "any":
                out[open_] = i
                open_[:] = False
                break
            got = self.holds(c, h)
            out[got & open_] = i
            open_ &= ~got
        if open_.any() and not allow_none:
            raise ValueError(f"ranking {self.ranking.id!r} has no category for some hands")
        return out

    def found(self, c: Category, h: Hands) -> Found:
        """Category ``c`` over the hands: its shape's vectorised meaning, read from the
        shape's vocabulary entry (once per category of the ranking, when it is built)."""
        meaning = self._meanings.get(id(c))
        if meaning is None or meaning[0] is not c:
            return _vectorised(c)(self, c, h)
        return meaning[1](self, c, h)

    def holds(self, c: Category, h: Hands) -> NDArray[np.bool_]:
        """Whether each hand holds category ``c``."""
        return self.found(c, h).held

    @meaning("batch", RANKING_PRIMITIVE.id, "suit")
    def _suits(self, c: Category) -> Sequence[int]:
        return (SUIT_INDEX[c.suit],) if c.suit else SUITS

    @staticmethod
    def _options(c: Category) -> list[list[int]]:
        if c.shape == "ranks":
            return [list(c.ranks or ())]
        if c.shape == "contains":
            return [list(c.contains or ())]
        if c.shape == "contains_any":
            return [list(o) for o in c.contains_any or ()]
        return []

    @meaning("batch", RANKING_PRIMITIVE.id, "ranks", "contains", "contains_any", "suited")
    def _option_held(self, c: Category, option: Sequence[int], h: Hands) -> NDArray[np.bool_]:
        q = np.uint16(rank_mask(option))
        if not c.suited and c.suit is None:
            return (h.ge(1) & q) == q
        return _any((h.m[s] & q) == q for s in self._suits(c))

    @staticmethod
    def _pattern_held(pattern: Sequence[int], h: Hands) -> NDArray[np.bool_]:
        """An unranged pattern is held when, for every t, enough ranks have t cards or more
        (the groups are nested, so this is also sufficient)."""
        ok = np.ones(h.n, dtype=bool)
        for t in range(1, max(pattern) + 1):
            need = sum(1 for p in pattern if p >= t)
            if need == 1:
                ok &= h.ge(t) != 0
            else:
                ok &= h.pop(h.ge(t)) >= need
        return ok

    @meaning("batch", RANKING_PRIMITIVE.id, "min_rank", "max_rank")
    def _groups(self, c: Category, h: Hands) -> tuple[NDArray[np.bool_], list[NDArray[np.int8]]]:
        """Greedy rank groups of an ``of_a_kind`` pattern, highest rank first: whether the
        hand holds it, and each group's rank index (-1 where none)."""
        high = _highbit()
        in_range = np.uint16(_range_mask(c.min_rank or 2, c.max_rank or 14))
        avail = np.full(h.n, FULL, dtype=np.uint16)
        ok = np.ones(h.n, dtype=bool)
        groups = []
        for i, p in enumerate(c.of_a_kind or ()):
            cand = h.ge(p) & avail
            if i == 0:
                cand &= in_range
            g = high[cand]
            ok &= g >= 0
            groups.append(g)
            avail &= ~np.where(g >= 0, np.left_shift(1, g.clip(0).astype(np.uint16)), 0).astype(
                np.uint16
            )
        return ok, groups

    # -- which cards form a category ---------------------------------------------------------

    def combination(self, c: Category, h: Hands) -> list[U16]:
        """The suit masks of the cards forming ``c`` in each hand that holds it, the
        combination ``primitives.find`` picks (the best one, of each rank the highest suit
        first); empty where the hand does not hold ``c``."""
        return self.found(c, h).cards()

    def second_combination(
        self, cards: ArrayLike, order: Sequence[int], held: NDArray[Any] | None = None
    ) -> NDArray[np.int8]:
        """Lunar Poker's second combination (§ 589.11(e)(1)(ii)) of hands given as rows of
        card ints (-1 for no card, hands of five and six cards mixed): the first category of
        ``order`` (indices into the categories) that some ``combination_size`` cards of the
        hand form by themselves, at least one of them outside the combination the hand
        compares with (``Evaluator.best(...).combination``); -1 where none. What
        ``interpreter.scalar.second_combination`` finds hand by hand, for every hand at once:
        the winning combinations over all hands, then the subsets hand by hand in one
        compiled pass (``_second_tables``), or, for a category read on a colour, subset by
        subset over all hands (``_second_by_subsets``). ``held``: each hand's category
        (``held``), where the caller has it: a ranking without refinements compares each
        hand as that category, not found again."""
        c = np.asarray(cards)
        if c.ndim != 2:
            raise ValueError("cards: expected a 2-d array, one hand of card ints per row")
        self._high_only()
        if c.dtype.kind != "i":
            c = c.astype(np.int64)
        c = np.ascontiguousarray(c)
        whole = np.empty(c.shape[0], dtype=np.uint64)
        card_bits(c, CARD_BIT_OR_NONE, whole)  # -1 reads the bit of no card
        h = Hands(_split(whole))
        refined = len(self.comparing) != len(self.categories)
        if held is None or refined or held.shape != (h.n,) or bool((held < 0).any()):
            best = self.comparing_category(h)
        else:
            best = held
        won = np.zeros(h.n, dtype=np.uint64)
        # each category's hands in their order: one stable sort, not a pass a category
        by_best = np.argsort(best, kind="stable")
        ends = np.cumsum(np.bincount(best - best.min(initial=0))).tolist()
        for start, end in zip([0, *ends][: len(ends)], ends, strict=True):
            if end > start:
                rows = by_best[start:end]
                found = self.combination(self.categories[best[rows[0]]], h.subset(rows))
                won[rows] = _join_suits(found)
        tables = self._second_tables(tuple(order), c.shape[1])
        if tables is not None:
            out = np.empty(h.n, dtype=np.int8)
            base_low, id_high, fields, order_of, size, by_ranks, by_suit, outside, on_ranks = tables
            if second_combinations(
                c, won, _CARD_CODE, _CARD_BIT, base_low, id_high, fields,
                order_of, size, by_ranks, by_suit, outside, on_ranks, out,
            ):  # fmt: skip
                return out
        present = c >= 0
        bits = np.where(present, _CARD_BIT[np.where(present, c, 0)], np.uint64(0))
        return self._second_by_subsets(c, order, bits, present, whole & ~won, h)

    def _second_tables(self, order: tuple[int, ...], cards: int) -> tuple[NDArray[Any], ...] | None:
        """What ``table_kernels.second_combinations`` reads for hands of at most ``cards``
        cards: each rank-multiset index's numbers (``base_low``, ``id_high``, by size), its
        fields, ``order``, the cards each category is formed of, whether each category is
        held by a rank multiset of each size, and by a suit's mask alone, the ranks a
        category read on ranks takes in each rank multiset (``_ranks_outside``), and which
        categories are read on ranks alone. None where a
        category of ``order`` is read on a colour, or the hands are too large."""
        key = (order, cards)
        if key in self._second_cache:
            return self._second_cache[key]
        cats = [self.categories[i] for i in order]
        free = set(self._suit_needs(order)[0])
        table: tuple[NDArray[Any], ...] | None = None
        if cards <= TABLE_MAX_CARDS and all(
            i in free or c.shape in _HELD_BY_ONE_SUIT for i, c in zip(order, cats, strict=True)
        ):
            sizes = range(cards + 1)
            base_low = np.zeros((cards + 1, 5**_LOW_RANKS), dtype=np.int32)
            id_high = np.zeros((cards + 1, 5 ** (NRANKS - _LOW_RANKS)), dtype=np.int32)
            by_ranks = np.zeros((len(order), cards + 1, _rank_index(cards).size), dtype=bool)
            by_suit = np.zeros((len(order), 4, FULL + 1), dtype=bool)
            size = np.array(
                [0 if c.shape == "any" else c.combination_size for c in cats], dtype=np.int64
            )
            empty = np.zeros(FULL + 1, dtype=np.uint16)
            for z in sizes[1:]:
                index = _rank_index(z)
                base_low[z], id_high[z] = index.base_low, index.id_high
                hands = index.hands()
                for j, i in enumerate(order):
                    if i in free and size[j]:
                        by_ranks[j, z, : index.size] = self.holds(cats[j], hands)
            for s in SUITS:
                h = Hands([_masks().astype(np.uint16) if j == s else empty for j in SUITS])
                for j, i in enumerate(order):
                    if i not in free and size[j]:
                        by_suit[j, s] = self.holds(cats[j], h)
            fields = np.array([_LOW_FIELD, _HIGH_SHIFT, _HIGH_FIELD], dtype=np.int64)
            on_ranks = np.array([i in free for i in order], dtype=bool)
            table = (
                base_low, id_high, fields, np.array(order, dtype=np.int64), size, by_ranks,
                by_suit, _ranks_outside(by_ranks, size, on_ranks), on_ranks,
            )  # fmt: skip
        self._second_cache[key] = table
        return table

    def _second_by_subsets(
        self,
        c: NDArray[Any],
        order: Sequence[int],
        bits: U64,
        present: NDArray[np.bool_],
        outside: U64,
        h: Hands,
    ) -> NDArray[np.int8]:
        """``second_combination`` category by category over all hands: each subset that may
        form a category, of every hand holding it, asked at once."""
        out = np.full(h.n, -1, dtype=np.int8)
        open_ = outside != 0
        for i in order:
            cat = self.categories[i]
            k = cat.combination_size
            if cat.shape == "any" or k == 0:
                continue
            rows = np.flatnonzero(open_)
            if rows.size == 0:
                break
            rows = rows[self.holds(cat, h.subset(rows))]
            if rows.size == 0:
                continue
            b, ok_card, out_b = bits[rows].T.copy(), present[rows].T.copy(), outside[rows]
            found = np.zeros(rows.size, dtype=bool)
            subsets, of_row = [], []  # every subset that may form it, then all asked at once
            for cols in combinations(range(c.shape[1]), k):
                sub = _or_columns(b.T, cols)
                maybe = (sub & out_b) != 0
                for j in cols:  # every card of the subset is there
                    maybe &= ok_card[j]
                which = np.flatnonzero(maybe)
                subsets.append(sub[which])
                of_row.append(which)
            asked = np.concatenate(subsets)
            if asked.size:
                found[np.concatenate(of_row)[self.holds(cat, Hands(_split(asked)))]] = True
            out[rows[found]] = i
            open_[rows[found]] = False
        return out

    # -- comparing hands --------------------------------------------------------------------

    def keys(self, masks: Masks | Hands) -> NDArray[np.int64]:
        """An integer per hand ordering hands as ``Evaluator.best(...).key`` does: the
        category's strength, then the tie-break ranks as digits (see ``pack_key``)."""
        self._high_only()
        h = masks if isinstance(masks, Hands) else Hands(masks)
        return self._by_table("keys", h, None)

    def _high_only(self) -> None:
        if self.ranking.low is not None:
            raise NotImplementedError(
                f"ranking {self.ranking.id!r} ranks low hands (§ 553.4(d)); the batch "
                "evaluator orders High hands only: use the scalar Evaluator"
            )

    def _general(self, what: str, h: Hands) -> NDArray[Any]:
        if what == "keys":
            return self._keys_among(h, self.comparing)
        return self._first_held(h, range(len(self.categories)))

    def held_and_keys(self, masks: Masks | Hands) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """``held`` and ``keys`` of the same hands at once (each hand's rank multiset is
        numbered once for both tables)."""
        self._high_only()
        h = masks if isinstance(masks, Hands) else Hands(masks)
        held, keys = self._by_tables(("held", "keys"), h, None)
        return held, keys

    def held_and_keys_of_cards(
        self, cards: ArrayLike
    ) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """``held_and_keys`` of hands given as rows of card ints (0..51), distinct in each
        row."""
        self._high_only()
        held, keys = self._by_tables(("held", "keys"), None, _card_rows(cards))
        return held, keys

    def _by_table(
        self, what: str, h: Hands | None, cards: NDArray[np.integer] | None
    ) -> NDArray[Any]:
        """``keys`` or ``held`` of hands given as suit masks (``h``) or card rows (see
        ``_by_tables``)."""
        return self._by_tables((what,), h, cards)[0]

    def _by_tables(
        self, whats: Sequence[str], h: Hands | None, cards: NDArray[np.integer] | None
    ) -> list[NDArray[Any]]:
        """``keys`` or ``held`` (each of ``whats``) of hands given as suit masks (``h``) or
        card rows: the best suit-free category from a table of rank multisets, the general
        path only for hands with enough cards of one suit (or colour) to hold a category
        reading suits, and for batches the tables do not serve (small, more than 8 cards);
        a ranking held suit by suit from its suits' tables (``_suit_tables``).

        The codes are summed in slices of ``_SLICE`` hands, so that the temporaries stay in
        the processor's cache."""

        made: list[Hands] = []

        def hands() -> Hands:  # the hands as suit masks, made once
            if h is not None:
                return h
            if not made:
                made.append(Hands(suit_masks(_given(cards))))
            return made[0]

        if cards is not None:
            n, k = cards.shape
            small = n < 4096 and any((w, k) not in self._rank_tables for w in whats)
            if n == 0 or not 1 <= k <= TABLE_MAX_CARDS or small:
                return [self._general(w, hands()) for w in whats]
            if k <= PAIR_MAX_CARDS:
                by_cards = [self._card_table(w, k) for w in whats]
                if all(t is not None for t in by_cards):
                    at = _card_table_index(cards)
                    return [t.take(at) for t in by_cards if t is not None]
        else:
            assert h is not None
            n = h.n
            if n < 4096:
                return [self._general(w, h) for w in whats]
            k = int(sum(_popcount()[m[0]] for m in h.m))  # the first hand's size
            if not 1 <= k <= TABLE_MAX_CARDS:
                return [self._general(w, h) for w in whats]
        results: list[NDArray[Any] | None] = []
        tables: list[tuple[int, _RankTable]] = []
        for i, what in enumerate(whats):
            by_suit = self._suit_tables(what)
            table = self._rank_table(what, k) if by_suit is None else None
            if by_suit is not None:
                if cards is not None:
                    results.append(self._by_suit_of_cards(what, by_suit, cards))
                else:
                    results.append(self._by_suit(what, by_suit, hands()))
            elif table is None:
                results.append(self._general(what, hands()))
            else:
                results.append(np.empty(n, dtype=table.value.dtype))
                tables.append((i, table))
        general: list[list[NDArray[np.intp]]] = [[] for _ in whats]
        resized: list[NDArray[np.intp]] = []  # hands of another size: their own tables
        if tables and cards is not None:
            self._tables_of_cards(cards, whats, tables, results, general)
        for start in range(0, n, _SLICE) if tables and cards is None else ():
            stop = min(start + _SLICE, n)
            m = [x[start:stop] for x in h.m]  # type: ignore[union-attr]
            code = _suit_code(0)[m[0]]
            for s in (1, 2, 3):
                code += _suit_code(s)[m[s]]
            suits = code >> _SUIT_SHIFT
            other_size = _suit_total()[suits] != k
            rows = np.flatnonzero(other_size)
            if rows.size:
                resized.append(rows + start)
            number = tables[0][1].index.number(code)  # one index for every table of k cards
            for i, table in tables:
                value = table.value.take(number, mode="clip")
                results[i][start:stop] = value  # type: ignore[index]
                other = table.check[suits] | (value < 0)
                other &= ~other_size
                rows = np.flatnonzero(other)
                if rows.size:
                    general[i].append(rows + start)
        for i, _table in tables:
            if general[i]:
                rows = np.concatenate(general[i])
                sub = h.subset(rows) if h is not None else Hands(suit_masks(_given(cards)[rows]))
                results[i][rows] = self._general(whats[i], sub)  # type: ignore[index]
        if resized and h is not None:  # each size in turn (the first such hand's next)
            rows = np.concatenate(resized)
            again = self._by_tables([whats[i] for i, _ in tables], h.subset(rows), None)
            for (i, _table), part in zip(tables, again, strict=True):
                results[i][rows] = part  # type: ignore[index]
        return [r for r in results if r is not None]

    def _card_table(self, what: str, k: int) -> NDArray[Any] | None:
        """For hands of ``k`` cards (at most ``PAIR_MAX_CARDS``), the value of every hand by
        its cards, indexed as ``_card_table_index`` numbers them (the value of the general
        path, made once; a row of a card twice: -1); None where some hand holds no
        category of the ranking."""
        if (what, -k) in self._rank_tables:
            table = self._rank_tables[what, -k]
            return None if table is None else table.value
        rows = np.indices((52,) * k).reshape(k, -1).T
        distinct = np.ones(rows.shape[0], dtype=bool)
        for i, j in combinations(range(k), 2):
            distinct &= rows[:, i] != rows[:, j]
        value: NDArray[Any] | None = None
        try:
            got = self._general(what, Hands(suit_masks(rows[distinct])))
        except ValueError:  # a hand of no category: the other paths say so
            got = None
        if got is not None:
            value = np.full(rows.shape[0], -1, dtype=got.dtype)
            value[distinct] = got
        self._rank_tables[what, -k] = (
            None if value is None else _RankTable(_rank_index(k), value, np.zeros(0, dtype=bool))
        )
        return value

    def _tables_of_cards(
        self,
        cards: NDArray[np.integer],
        whats: Sequence[str],
        tables: list[tuple[int, _RankTable]],
        results: list[NDArray[Any] | None],
        general: list[list[NDArray[np.intp]]],
    ) -> None:
        """The tables' values of hands given as card rows, in one compiled pass each: every
        hand numbered among the multisets of its size and the table read there; the hands
        a table does not answer listed in ``general``."""
        rows = np.empty(cards.shape[0], dtype=np.int64)
        fields = np.array([_LOW_FIELD, _HIGH_SHIFT, _HIGH_FIELD, _SUIT_SHIFT], dtype=np.int64)
        pair = [whats[i] for i, _ in tables] == ["held", "keys"]
        if pair and tables[0][1].index is tables[1][1].index:
            self._two_tables_of_cards(cards, whats, tables, results, general, rows, fields)
            return
        for i, table in tables:
            out = results[i]
            assert out is not None
            index, what = table.index, whats[i]
            by_suit = self._suited_values(what)
            got = table_values(
                cards, _CARD_CODE, _CARD_BIT, index.base_low, index.id_high, fields,
                table.value, table.check, _NO_SUITS if by_suit is None else by_suit,
                what == "keys", self._none(what), out, rows,
            )  # fmt: skip
            if got < 0:
                raise ValueError("cards: card ints are 0..51")
            if got:
                general[i].append(rows[:got].copy())

    def _two_tables_of_cards(
        self,
        cards: NDArray[np.integer],
        whats: Sequence[str],
        tables: list[tuple[int, _RankTable]],
        results: list[NDArray[Any] | None],
        general: list[list[NDArray[np.intp]]],
        rows: NDArray[np.int64],
        fields: NDArray[np.int64],
    ) -> None:
        """``_tables_of_cards`` of ``held`` and ``keys`` (in that order), two tables of the
        same multisets, in one compiled pass: each hand numbered once for both."""
        (i, a), (j, b) = tables
        out, out2 = results[i], results[j]
        assert out is not None and out2 is not None
        by_suit, by_suit2 = self._suited_values(whats[i]), self._suited_values(whats[j])
        rows2 = np.empty(cards.shape[0], dtype=np.int64)
        count2 = np.zeros(1, dtype=np.int64)
        got = two_table_values(
            cards, _CARD_CODE, _CARD_BIT, a.index.base_low, a.index.id_high, fields,
            a.value, a.check, _NO_SUITS if by_suit is None else by_suit, self._none("held"),
            out, rows,
            b.value, b.check, _NO_SUITS if by_suit2 is None else by_suit2, self._none("keys"),
            out2, rows2, count2,
        )  # fmt: skip
        if got < 0:
            raise ValueError("cards: card ints are 0..51")
        if got:
            general[i].append(rows[:got].copy())
        if count2[0]:
            general[j].append(rows2[: count2[0]].copy())

    def _none(self, what: str) -> int:
        """The value standing for no category held in ``_suited_values``."""
        return -1 if what == "keys" else len(self.categories)

    def _suited_values(self, what: str) -> NDArray[np.int64] | None:
        """For the hands a rank table sends to the general path (their suits might hold a
        category reading suits), ``(4, 8192)``: each suit's mask as a hand by itself, the
        value of the first category reading suits it holds (``held``: its index; ``keys``:
        its key), ``_none`` where none. A hand then holds the first of the rank table's
        category and its suits' (``held``: the lowest index; ``keys``: the highest key,
        its strength first). It holds where each such category is held by the cards of
        one suit alone (a flush, a straight flush, suited ranks; not a colour) and, for
        ``keys``, takes no kicker from the other cards (the ranking compares by the
        combination, or the combination fills the hand); None for any other ranking."""
        if what in self._suited_value_cache:
            return self._suited_value_cache[what]
        order = self.comparing if what == "keys" else range(len(self.categories))
        free = set(self._suit_needs(order)[0])
        suited = [i for i in order if i not in free]
        ok = bool(suited) and all(self.categories[i].shape in _HELD_BY_ONE_SUIT for i in suited)
        if ok and what == "keys" and self.ranking.tiebreak != "combination":
            ok = all(self._fills_hand(self.categories[i]) for i in suited)
        table: NDArray[np.int64] | None = None
        if ok:
            none = self._none(what)
            empty = np.zeros(FULL + 1, dtype=np.uint16)
            rows = []
            for s in SUITS:
                h = Hands([_masks().astype(np.uint16) if j == s else empty for j in SUITS])
                first = self._first_held(h, suited, allow_none=True).astype(np.int64)
                value = np.full(FULL + 1, none, dtype=np.int64)
                some = np.flatnonzero(first >= 0)
                if what == "held":
                    value[some] = first[some]
                else:
                    value[some] = self._keys_among(h.subset(some), suited)
                rows.append(value)
            table = np.stack(rows)
        self._suited_value_cache[what] = table
        return table

    def _fills_hand(self, c: Category) -> bool:
        """Whether a hand of category ``c`` takes no kicker beside its combination."""
        if c.shape == "straight_flush":
            return True  # compared by its top card alone
        if c.shape == "flush":
            return (c.flush or 0) >= self.size
        return min(len(o) for o in self._options(c)) >= self.size

    def _by_suit_of_cards(
        self, what: str, table: NDArray[Any], cards: NDArray[np.integer]
    ) -> NDArray[Any]:
        """``_by_suit`` of hands given as card rows, in one compiled pass."""
        out = np.empty(cards.shape[0], dtype=table.dtype)
        if not suit_table_values(cards, _CARD_BIT, table, what == "keys", out):
            raise ValueError("cards: card ints are 0..51")
        none = out < 0 if what == "keys" else out >= len(self.categories)
        if none.any():
            rows = np.flatnonzero(none)
            out[rows] = self._general(what, Hands(suit_masks(cards[rows])))
        return out if what == "keys" else out.astype(np.int8)

    def _suit_tables(self, what: str) -> NDArray[Any] | None:
        """For a ranking whose every category is held by the cards of one suit alone (a
        flush, a straight flush, any hand) and, for ``keys``, compares by the combination's
        ranks with no refinement: ``(4, 8192)``, the value of each suit's mask as a hand by
        itself (``held``: the first category it holds, ``len(categories)`` where none;
        ``keys``: its key, -1 where none). A hand then holds the first category any of its
        suits holds, and its key is the highest of its suits' keys (a longer flush or run
        is stronger; of one length, the suit whose combination's ranks are highest); None
        for any other ranking."""
        if what in self._suit_table_cache:
            return self._suit_table_cache[what]
        order = self.comparing if what == "keys" else range(len(self.categories))
        per_suit = all(
            self.categories[i].shape in ("flush", "straight_flush", "any") for i in order
        )
        if what == "keys":
            per_suit &= self.ranking.tiebreak == "combination" and len(order) == len(
                self.categories
            )
        table: NDArray[Any] | None = None
        if per_suit:
            empty = np.zeros(FULL + 1, dtype=np.uint16)
            rows = []
            for s in SUITS:
                h = Hands([_masks().astype(np.uint16) if j == s else empty for j in SUITS])
                first = self._first_held(h, order, allow_none=True).astype(np.int64)
                if what == "held":
                    rows.append(np.where(first >= 0, first, len(self.categories)))
                    continue
                value = np.full(FULL + 1, -1, dtype=np.int64)
                some = np.flatnonzero(first >= 0)
                value[some] = self._keys_among(h.subset(some), order)
                rows.append(value)
            table = np.stack(rows)
        self._suit_table_cache[what] = table
        return table

    def _by_suit(self, what: str, table: NDArray[Any], h: Hands) -> NDArray[Any]:
        """``keys`` or ``held`` from the suits' tables (``_suit_tables``); a hand none of
        whose suits holds a category takes the general path (which refuses it)."""
        out = table[0][h.m[0]]
        pick = np.maximum if what == "keys" else np.minimum
        for s in (1, 2, 3):
            pick(out, table[s][h.m[s]], out=out)
        none = out < 0 if what == "keys" else out >= len(self.categories)
        if none.any():
            rows = np.flatnonzero(none)
            out[rows] = self._general(what, h.subset(rows))
        return out if what == "keys" else out.astype(np.int8)

    def reads_suit_counts_only(self) -> bool:
        """Whether every category reads only how many cards each suit or colour holds
        (flushes, same colour, any hand): then the category is a function of suit counts."""
        return all(c.shape in ("flush", "same_color", "any") for c in self.categories)

    def _suit_needs(self, order: Sequence[int]) -> tuple[list[int], int, int]:
        """The categories of ``order`` that read only the rank multiset, and the fewest
        cards of one suit, and of one colour, any other needs to be held."""
        free, suit_need, colour_need = [], NRANKS + 1, 2 * NRANKS + 1
        for i in order:
            c = self.categories[i]
            if c.shape in _SUIT_FREE and not c.suited and c.suit is None:
                free.append(i)
            elif c.shape in ("same_color", "same_color_straight"):
                colour_need = min(colour_need, c.same_color or c.same_color_straight or 0)
            elif c.shape in ("ranks", "contains", "contains_any"):
                suit_need = min(suit_need, min(len(o) for o in self._options(c)))
            else:
                suit_need = min(suit_need, c.flush or c.straight_flush or 0)
        return free, suit_need, colour_need

    def _rank_table(self, what: str, k: int) -> _RankTable | None:
        """The table of ``keys`` (over the comparing categories) or ``held`` (over all) for
        hands of ``k`` cards; None where every category reads suits (nothing to gain)."""
        if (what, k) in self._rank_tables:
            return self._rank_tables[what, k]
        order = self.comparing if what == "keys" else range(len(self.categories))
        free, suit_need, colour_need = self._suit_needs(order)
        table = None
        # two cards of a suit (or colour) are found in most hands of three cards or more:
        # a table of such a ranking only serves hands of two cards
        if free and (min(suit_need, colour_need) > 2 or k <= 2):
            index = _rank_index(k)
            hands = index.hands()
            first = self._first_held(hands, free, allow_none=True)
            if what == "keys":
                value: NDArray[Any] = np.full(index.size, -1, dtype=np.int64)
                rows = np.flatnonzero(first >= 0)
                value[rows] = self._keys_among(hands.subset(rows), free)
            else:
                value = first
            counts = _suit_counts()
            most = counts.max(axis=1)
            colour = np.maximum(*(counts[:, a] + counts[:, b] for a, b in COLORS))
            check = (most >= suit_need) | (colour >= colour_need)
            table = _RankTable(index, value, check)
        self._rank_tables[what, k] = table
        return table

    def suit_free_multisets(
        self, k: int
    ) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.bool_]] | None:
        """For counting hands of ``k`` cards by rank multiset: every multiset of k ranks
        (``(n, 13)`` counts), the category it holds when no category reading suits can be
        held (-1: none), and, by suit counts (a nibble per suit, clubs lowest), whether a
        hand may hold a category reading suits. None where the tables do not serve."""
        if not 1 <= k <= TABLE_MAX_CARDS:
            return None
        table = self._rank_table("held", k)
        if table is None:
            return None
        return table.index.counts, table.value.astype(np.int8), table.check

    def _keys_among(self, h: Hands, order: Sequence[int]) -> NDArray[np.int64]:
        """Keys of hands whose category is the first held of ``order``."""
        cats = self._first_held(h, order)
        out = np.zeros(h.n, dtype=np.int64)
        for i in order:
            rows = np.flatnonzero(cats == i)
            if rows.size == 0:
                continue
            sub = h if rows.size == h.n else h.subset(rows)
            digits = self._tiebreak(self.categories[i], sub)
            key = (np.uint64(self.strength[i]) << np.uint64(DIGIT * self.size)) | digits
            out[rows] = key.astype(np.int64)
        return out

    def pack_key(self, key: Sequence[int]) -> int:
        """A scalar ``HandValue.key`` (strength, tie-break ranks…) → the integer ``keys``
        gives: the tie-break ranks as digits, left-aligned in ``size`` places."""
        strength, *tiebreak = key
        if len(tiebreak) > self.size:
            raise ValueError(f"a key of {len(tiebreak)} ranks for a ranking of size {self.size}")
        value = strength
        for i in range(self.size):
            value = value << DIGIT | (tiebreak[i] if i < len(tiebreak) else 0)
        return value

    @meaning("batch", RANKING_PRIMITIVE.id, "tiebreak")
    def _tiebreak(self, c: Category, h: Hands) -> U64:
        combination = self.ranking.tiebreak == "combination"
        shape = c.shape
        pop = _popcount()
        if shape in ("straight", "straight_flush", "same_color_straight"):
            n, top = self._run(c, h)
            if combination:
                return _place(_run_digits(n)[top], n, 0, self.size)
            return _place(top.astype(np.uint64), 1, 0, self.size)
        if shape == "of_a_kind":
            return self._of_a_kind_digits(c, h, combination)
        if shape == "any":
            if combination:
                return np.zeros(h.n, dtype=np.uint64)
            return _join(
                [(d.astype(np.uint64), 1) for d in take_top(h.unary(), self.size)], self.size
            )
        # the combination is a set of ranks, at most one card of each (flush, ranks, …),
        # or a multiset (same colour); then the highest other cards as kickers
        if shape == "flush":
            n = c.flush or 0
            top_digits = _top_digits(n)
            best = np.zeros(h.n, dtype=np.uint64)
            best_mask = np.zeros(h.n, dtype=np.uint16)
            for s in self._suits(c):
                value = np.where(pop[h.m[s]] >= n, top_digits[h.m[s]], np.uint64(0))
                better = value > best
                best = np.where(better, value, best)
                best_mask = np.where(better, _top_mask(n)[h.m[s]], best_mask)
            combo, combo_mask, length = best, best_mask, n
        elif shape in ("ranks", "contains", "contains_any"):
            return self._set_digits(c, h, combination)
        elif shape == "same_color":
            return self._same_color_digits(c, h, combination)
        else:  # pragma: no cover
            raise AssertionError(shape)
        digits = [(combo, length)]
        room = self.size - length
        if not combination and room > 0:
            u = h.unary()
            spread_mask = _spread(15)[combo_mask]
            u = (u & ~spread_mask) | ((u >> np.uint64(1)) & _spread(7)[combo_mask])
            digits += [(d.astype(np.uint64), 1) for d in take_top(u, room)]
        return _join(digits, self.size)

    def _set_digits(self, c: Category, h: Hands, combination: bool) -> U64:
        """``ranks``/``contains``/``contains_any``: the best option held, then kickers."""
        options = sorted(self._options(c), key=lambda o: sorted(o, reverse=True), reverse=True)
        out = np.zeros(h.n, dtype=np.uint64)
        chosen = np.zeros(h.n, dtype=bool)
        for option in options:
            got = self._option_held(c, option, h) & ~chosen
            chosen |= got
            rows = np.flatnonzero(got)
            if rows.size == 0:
                continue
            sub = h.subset(rows)
            value = 0
            for r in sorted(option, reverse=True):
                value = value << DIGIT | r
            digits = [(np.full(rows.size, value, dtype=np.uint64), len(option))]
            room = self.size - len(option)
            if not combination and room > 0:
                q = rank_mask(option)
                u = sub.unary()
                u = (u & ~np.uint64(_spread(15)[q])) | ((u >> np.uint64(1)) & _spread(7)[q])
                digits += [(d.astype(np.uint64), 1) for d in take_top(u, room)]
            out[rows] = _join(digits, self.size)
        return out

    def _run(self, c: Category, h: Hands) -> tuple[int, NDArray[np.intp]]:
        """The top rank of the highest run forming ``c``."""
        if c.shape == "straight":
            n = c.straight or 0
            return n, _run_top(n, self.ace_low)[h.ge(1)].astype(np.intp)
        if c.shape == "straight_flush":
            n = c.straight_flush or 0
            run = _run_top(n, self.ace_low)
            tops = [run[h.m[s]] for s in self._suits(c)]
        else:
            n = c.same_color_straight or 0
            run = _run_top(n, self.ace_low)
            tops = [run[h.m[a] | h.m[b]] for a, b in COLORS]
        return n, np.maximum.reduce(tops).astype(np.intp)

    def _of_a_kind_digits(self, c: Category, h: Hands, combination: bool) -> U64:
        pattern = list(c.of_a_kind or ())
        _, groups = self._groups(c, h)
        parts = [
            ((g.astype(np.uint64) + np.uint64(2)) * np.uint64(_REPEAT[p]), p)
            for g, p in zip(groups, pattern, strict=True)
        ]
        room = self.size - sum(pattern)
        if combination or room <= 0:
            return _join(parts, self.size)
        u = h.unary()
        for g, p in zip(groups, pattern, strict=True):
            place = g.astype(np.uint64) * np.uint64(DIGIT)
            nib = np.uint64(15) << place
            u = np.asarray((u & ~nib) | (((u & nib) >> np.uint64(p)) & nib), dtype=np.uint64)
        kickers = take_top(u, room)
        out = _join(parts + [(k.astype(np.uint64), 1) for k in kickers], self.size)
        # the key orders the hand's ranks by (count, rank); that is the groups then the
        # kickers unless a kicker repeats a rank (of a group or of another kicker) or a group
        # has a single card: those hands are ordered one by one
        odd = np.zeros(h.n, dtype=bool)
        if min(pattern) < 2:
            odd[:] = True
        for i, k in enumerate(kickers):
            odd |= (k > 0) & _any(k == g + 2 for g in groups)
            for k2 in kickers[i + 1 :]:
                odd |= (k > 0) & (k == k2)
        if odd.any():
            rows = np.flatnonzero(odd)
            ranks = np.stack(
                [
                    (g[rows] + 2).astype(np.int64)
                    for g, p in zip(groups, pattern, strict=True)
                    for _ in range(p)
                ]
                + [k[rows] for k in kickers],
                axis=1,
            )
            out[rows] = _by_count_then_rank(ranks, self.size)
        return out

    def _same_color_digits(self, c: Category, h: Hands, combination: bool) -> U64:
        n = c.same_color or 0
        pop = _popcount()
        sp = _spread(1)
        best = np.zeros(h.n, dtype=np.uint64)
        best_digits = [np.zeros(h.n, dtype=np.int64) for _ in range(n)]
        for a, b in COLORS:
            ma, mb = h.m[a], h.m[b]
            u = sp[ma | mb] | (sp[ma & mb] << np.uint64(1))
            digits = take_top(u, n)
            value = _join([(d.astype(np.uint64), 1) for d in digits], n)
            value = np.where(pop[ma].astype(np.int16) + pop[mb] >= n, value, np.uint64(0))
            better = value > best
            best = np.where(better, value, best)
            best_digits = [
                np.where(better, d, bd) for d, bd in zip(digits, best_digits, strict=True)
            ]
        parts = [(best, n)]
        room = self.size - n
        if not combination and room > 0:
            counts = unary_counts(h.unary())
            for d in best_digits:
                for r in range(NRANKS):
                    counts[:, r] -= (d == r + 2).astype(np.int8)
            parts += [(k.astype(np.uint64), 1) for k in take_top(counts_unary(counts), room)]
        return _join(parts, self.size)


_SHARED: dict[int, BatchEvaluator] = {}


def shared_evaluator(ranking: Ranking) -> BatchEvaluator:
    """The batch evaluator of a ranking, one per ranking in a process: its tables (built on
    first use, a fraction of a second each) serve every engine playing that ranking."""
    ev = _SHARED.get(id(ranking))
    if ev is None or ev.ranking is not ranking:
        if len(_SHARED) >= 64:  # rankings loaded again and again (tests): start afresh
            _SHARED.clear()
        ev = _SHARED[id(ranking)] = BatchEvaluator(ranking)
    return ev


# -- each shape's vectorised meaning ---------------------------------------------------------
#
# One function per shape, registered on the shape's vocabulary entry: over a batch of hands,
# which hold the category and, when asked (``Found.cards``), the cards forming it.


@dataclass(frozen=True, slots=True)
class Found:
    """A category over a batch of hands: which hands hold it (``held``), and the suit masks
    of the cards forming it in each (``cards()``, computed when asked; empty where not held)."""

    held: NDArray[np.bool_]
    pick: Callable[[], list[U16]]

    def cards(self) -> list[U16]:
        return self.pick()


BatchMeaning = Callable[["BatchEvaluator", Category, Hands], Found]


def _vectorised(c: Category) -> BatchMeaning:
    meaning: BatchMeaning = meaning_of(RANKING_PRIMITIVE.id, c.shape, "batch")
    return meaning


def _empty(h: Hands) -> list[U16]:
    return [np.zeros(h.n, dtype=np.uint16) for _ in SUITS]


def _highest_suits_first(h: Hands, ranks: U16, out: list[U16]) -> None:
    """Of each rank of ``ranks``, the card of the highest suit holding it, into ``out``."""
    for s in (3, 2, 1, 0):
        out[s] |= ranks & h.m[s]
        ranks = ranks & ~h.m[s]


@meaning("batch", RANKING_PRIMITIVE.id, "of_a_kind")
def _of_a_kind(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    ranged = c.min_rank is not None or c.max_rank is not None
    held = ev._groups(c, h)[0] if ranged else ev._pattern_held(c.of_a_kind or (), h)

    def pick() -> list[U16]:
        ok, groups = ev._groups(c, h)
        if not groups:
            return _empty(h)
        out = np.empty((4, h.n), dtype=np.uint16)
        m = [np.ascontiguousarray(x, dtype=np.uint16) for x in h.m]
        counts = np.array(c.of_a_kind or (), dtype=np.int64)
        of_a_kind_cards(m[0], m[1], m[2], m[3], np.stack(groups), counts, ok, out)
        return list(out)  # the highest suits of each group's rank first

    return Found(held, pick)


@meaning("batch", RANKING_PRIMITIVE.id, "flush")
def _flush(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    n, pop = c.flush or 0, _popcount()
    held = _any(pop[h.m[s]] >= n for s in ev._suits(c))

    def pick() -> list[U16]:
        out = _empty(h)
        digits, top_mask = _top_digits(n), _top_mask(n)
        best = np.zeros(h.n, dtype=np.uint64)
        chosen = np.full(h.n, -1, dtype=np.int8)
        for s in ev._suits(c):  # the suit whose n highest ranks are highest
            value = np.where(pop[h.m[s]] >= n, digits[h.m[s]], np.uint64(0))
            better = value > best
            best = np.where(better, value, best)
            chosen[better] = s
        for s in SUITS:
            out[s] = np.where(chosen == s, top_mask[h.m[s]], out[s])
        return out

    return Found(held, pick)


@meaning("batch", RANKING_PRIMITIVE.id, "straight")
def _straight(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    held = _run_top(c.straight or 0, ev.ace_low)[h.ge(1)] > 0

    def pick() -> list[U16]:
        out = _empty(h)
        n, top = ev._run(c, h)
        _highest_suits_first(h, _run_mask(n)[top], out)  # of each rank of the run
        return out

    return Found(held, pick)


@meaning("batch", RANKING_PRIMITIVE.id, "straight_flush")
def _straight_flush(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    run = _run_top(c.straight_flush or 0, ev.ace_low)
    held = _any(run[h.m[s]] > 0 for s in ev._suits(c))

    def pick() -> list[U16]:
        out = _empty(h)
        n, top = ev._run(c, h)
        mask = _run_mask(n)[top]
        done = np.zeros(h.n, dtype=bool)
        for s in ev._suits(c):  # the run in the first suit holding it that high
            here = (run[h.m[s]] == top) & (top > 0) & ~done
            out[s] = np.where(here, mask, out[s])
            done |= here
        return out

    return Found(held, pick)


def _not_picked(c: Category) -> Callable[[], list[U16]]:
    def pick() -> list[U16]:
        raise NotImplementedError(
            f"the batch evaluator does not pick the cards of a {c.shape} combination"
        )

    return pick


@meaning("batch", RANKING_PRIMITIVE.id, "same_color")
def _same_color(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    n, pop = c.same_color or 0, _popcount()
    held = _any(pop[h.m[a]].astype(np.int16) + pop[h.m[b]] >= n for a, b in COLORS)
    return Found(held, _not_picked(c))


@meaning("batch", RANKING_PRIMITIVE.id, "same_color_straight")
def _same_color_straight(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    run = _run_top(c.same_color_straight or 0, ev.ace_low)
    held = _any(run[h.m[a] | h.m[b]] > 0 for a, b in COLORS)
    return Found(held, _not_picked(c))


@meaning("batch", RANKING_PRIMITIVE.id, "ranks", "contains", "contains_any")
def _rank_set(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    """``ranks``, ``contains`` and ``contains_any`` differ only in the rank sets they list
    (``_options``): one set, or several; the hand holds one card of each rank of a set."""
    held = _any(ev._option_held(c, option, h) for option in ev._options(c))

    def pick() -> list[U16]:
        out = _empty(h)
        options = sorted(ev._options(c), key=lambda o: sorted(o, reverse=True), reverse=True)
        done = np.zeros(h.n, dtype=bool)
        for option in options:  # the best set held
            q = np.uint16(rank_mask(option))
            if not c.suited and c.suit is None:
                got = ((h.ge(1) & q) == q) & ~done
                _highest_suits_first(h, np.where(got, q, 0).astype(np.uint16), out)
            else:
                got = np.zeros(h.n, dtype=bool)
                for s in ev._suits(c):  # the first suit holding every rank
                    here = ((h.m[s] & q) == q) & ~done & ~got
                    out[s] |= np.where(here, q, 0).astype(np.uint16)
                    got |= here
            done |= got
        return out

    return Found(held, pick)


@meaning("batch", RANKING_PRIMITIVE.id, "any")
def _any_hand(ev: BatchEvaluator, c: Category, h: Hands) -> Found:
    return Found(np.ones(h.n, dtype=bool), lambda: _empty(h))


@cache
def _run_mask(n: int) -> U16:
    """A run's top rank (2..14; 0: none) → the mask of its ``n`` ranks (an ace playing low is
    the ace)."""
    out = np.zeros(15, dtype=np.uint16)
    for top in range(n, 15):
        out[top] = sum(1 << ((14 if r == 1 else r) - 2) for r in range(top, top - n, -1))
    return out


def _or_columns(bits: U64, cols: Sequence[int]) -> U64:
    """The bitwise or of some columns of a ``(rows, cards)`` array, column by column."""
    if not len(cols):
        return np.zeros(bits.shape[0], dtype=np.uint64)
    out = bits[:, cols[0]].copy()
    for j in cols[1:]:
        out |= bits[:, j]
    return out


def _split(bits: U64) -> list[U16]:
    """Card bits (``_CARD_BIT`` layout) → four suit masks."""
    return [((bits >> np.uint64(16 * s)) & np.uint64(FULL)).astype(np.uint16) for s in SUITS]


def _join_suits(masks: Sequence[U16]) -> U64:
    """Four suit masks → card bits (``_CARD_BIT`` layout)."""
    out = np.zeros(masks[0].shape[0], dtype=np.uint64)
    for s in SUITS:
        out |= masks[s].astype(np.uint64) << np.uint64(16 * s)
    return out


@cache
def _suit_total() -> NDArray[np.int8]:
    """The suit nibbles of a code → the number of cards."""
    return _suit_counts().sum(axis=1, dtype=np.int8)


def _card_table_index(cards: NDArray[np.integer]) -> NDArray[np.intp]:
    """Hands of a few cards (card ints 0..51) → their index in a ``_card_table``."""
    if cards.min() < 0 or cards.max() > 51:
        raise ValueError("cards: card ints are 0..51")
    at = cards[:, 0].astype(np.intp)
    for j in range(1, cards.shape[1]):
        at *= 52
        at += cards[:, j]
    return at


def _given(cards: NDArray[np.integer] | None) -> NDArray[np.integer]:
    """Hands as card rows, where the caller passed them (not as suit masks)."""
    assert cards is not None
    return cards


def _card_rows(cards: ArrayLike) -> NDArray[np.intp]:
    c = np.asarray(cards)
    if c.ndim != 2:
        raise ValueError("cards: expected a 2-d array, one hand of card ints per row")
    return c if c.dtype.kind in "iu" else c.astype(np.intp)


def _any(arrays: object) -> NDArray[np.bool_]:
    it = iter(arrays)  # type: ignore[call-overload]
    out = np.array(next(it), dtype=bool)
    for a in it:
        out |= a
    return out


def _place(values: U64, length: int, pos: int, size: int) -> U64:
    """``length`` digits placed after ``pos`` digits of a ``size``-digit key."""
    shift = DIGIT * (size - pos - length)
    return values.astype(np.uint64) << np.uint64(shift)


def _join(parts: list[tuple[U64, int]], size: int) -> U64:
    """Digit groups (value, length) → one ``size``-digit number, left-aligned."""
    out = np.zeros(parts[0][0].shape[0] if parts else 0, dtype=np.uint64)
    pos = 0
    for values, length in parts:
        out |= _place(values, length, pos, size)
        pos += length
    return out


def _by_count_then_rank(ranks: NDArray[np.int64], size: int) -> U64:
    """Rows of hand ranks (0 = no card) → the ranks ordered by (count, rank), highest
    first, as ``size`` digits: the grouped tie-break of ``of_a_kind`` hands."""
    present = ranks > 0
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) * present
    order = np.sort(counts * 16 + ranks, axis=1)[:, ::-1]
    digits = order % 16
    out = np.zeros(ranks.shape[0], dtype=np.uint64)
    for j in range(min(size, digits.shape[1])):
        out |= digits[:, j].astype(np.uint64) << np.uint64(DIGIT * (size - 1 - j))
    return out
