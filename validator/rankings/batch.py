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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from validator.model.ranking import Category, Ranking
from validator.rankings.primitives import COLORS, SUIT_INDEX

NRANKS = 13
FULL = (1 << NRANKS) - 1
DIGIT = 4  # bits per rank digit of a packed key
SUITS = range(4)

U16 = NDArray[np.uint16]
U64 = NDArray[np.uint64]
Masks = Sequence[U16]  # four suit masks

_CARD_BIT = np.array([1 << (16 * (c % 4) + c // 4) for c in range(52)], dtype=np.uint64)
_NIBBLE_POP = np.array([bin(i).count("1") for i in range(16)], dtype=np.int8)
# a rank group of p cards: its digit repeated p times
_REPEAT = [sum(1 << (DIGIT * j) for j in range(p)) for p in range(NRANKS + 1)]


def _bits(mask: int) -> list[int]:
    """Rank indices (0 for a 2 … 12 for an ace) of a mask, highest first."""
    return [i for i in range(NRANKS - 1, -1, -1) if mask >> i & 1]


@cache
def _popcount() -> NDArray[np.int8]:
    return np.array([bin(m).count("1") for m in range(FULL + 1)], dtype=np.int8)


@cache
def _highbit() -> NDArray[np.int8]:
    """The highest rank index of a mask, -1 for the empty mask."""
    return np.array([m.bit_length() - 1 for m in range(FULL + 1)], dtype=np.int8)


@cache
def _run_top(n: int, ace_low: bool) -> NDArray[np.int8]:
    """Rank (2..14) of the top card of the highest run of ``n`` ranks in a mask, 0 if none;
    with ``ace_low`` an ace may end a run below the 2 (A-2-3-4-5 tops at 5)."""
    lowest_top = n if ace_low else n + 1
    runs = [(top, ((1 << n) - 1) << (top - n + 1)) for top in range(14, lowest_top - 1, -1)]
    out = np.zeros(FULL + 1, dtype=np.int8)
    for m in range(FULL + 1):
        wide = m << 2  # bit r is rank r
        if ace_low and m >> 12 & 1:
            wide |= 2  # the ace playing low
        for top, run in runs:
            if wide & run == run:
                out[m] = top
                break
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


@cache
def _top_digits(k: int) -> NDArray[np.uint64]:
    """The ``k`` highest ranks of a mask as ``k`` digits, highest first (0 where missing)."""
    out = np.zeros(FULL + 1, dtype=np.uint64)
    for m in range(1, FULL + 1):
        digits = [r + 2 for r in _bits(m)[:k]]
        digits += [0] * (k - len(digits))
        value = 0
        for d in digits:
            value = value << DIGIT | d
        out[m] = value
    return out


@cache
def _top_mask(k: int) -> U16:
    """The mask of the ``k`` highest ranks of a mask."""
    out = np.zeros(FULL + 1, dtype=np.uint16)
    for m in range(1, FULL + 1):
        out[m] = sum(1 << r for r in _bits(m)[:k])
    return out


@cache
def _spread(fill: int) -> U64:
    """A mask → the nibble ``fill`` at the place of each of its ranks (rank index i at 4i)."""
    out = np.zeros(FULL + 1, dtype=np.uint64)
    for m in range(FULL + 1):
        out[m] = sum(fill << (DIGIT * r) for r in range(NRANKS) if m >> r & 1)
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
    cols = np.ascontiguousarray(c.T, dtype=np.intp)
    x = _CARD_BIT[cols[0]].copy()
    for col in cols[1:]:
        x |= _CARD_BIT[col]
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


class _HalfIndex:
    """A dense index of rank multisets of up to k cards from suit masks: each mask adds the
    base-5 digits of its ranks 2-8 (low) and 9-A (high, shifted 20 bits); each half's sum
    is numbered densely among the halves holding at most k cards."""

    def __init__(self, k: int) -> None:
        halves = np.zeros(FULL + 1, dtype=np.int64)
        for m in range(FULL + 1):
            halves[m] = sum(5**r for r in range(7) if m >> r & 1) + (
                sum(5 ** (r - 7) for r in range(7, NRANKS) if m >> r & 1) << 20
            )
        self.halves = halves
        self.low_id, self.low_count = self._dense(7, k)
        self.high_id, self.high_count = self._dense(NRANKS - 7, k)

    @staticmethod
    def _dense(digits: int, k: int) -> tuple[NDArray[np.int64], int]:
        values = np.arange(5**digits)
        total = np.zeros_like(values)
        rest = values.copy()
        for _ in range(digits):
            total += rest % 5
            rest //= 5
        ok = total <= k
        ids = np.full(values.size, 0, dtype=np.int64)
        ids[ok] = np.arange(int(ok.sum()))
        return ids, int(ok.sum())


@cache
def _half_index(k: int) -> _HalfIndex:
    return _HalfIndex(k)


@cache
def _rank_multisets(k: int) -> NDArray[np.int8]:
    """Every multiset of k ranks with at most four of a rank, as (n, 13) counts."""
    out: list[list[int]] = []

    def rec(r: int, left: int, acc: list[int]) -> None:
        if r == NRANKS:
            if left == 0:
                out.append(acc.copy())
            return
        for c in range(min(4, left) + 1):
            acc.append(c)
            rec(r + 1, left - c, acc)
            acc.pop()

    rec(0, k, [])
    return np.array(out, dtype=np.int8).reshape(-1, NRANKS)


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
            self._ge = {
                1: a_b | c_d,
                2: ab | cd | (a_b & c_d),
                3: (ab & c_d) | (cd & a_b),
                4: ab & cd,
            }
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
        self._rank_tables: dict[int, tuple[_HalfIndex, NDArray[np.int64], int, int] | None] = {}
        for c in self.categories:
            for option in self._options(c):
                if len(set(option)) != len(option):
                    raise ValueError(f"category {c.id!r}: a rank is listed twice")

    # -- which category ---------------------------------------------------------------------

    def held(self, masks: Masks | Hands) -> NDArray[np.int8]:
        """Index (into ``ranking.categories``) of the highest category each hand holds,
        refinements included: what ``Evaluator.held`` returns."""
        return self._first_held(masks, range(len(self.categories)))

    def comparing_category(self, masks: Masks | Hands) -> NDArray[np.int8]:
        """Index of the category each hand compares as (refinements folded in)."""
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

    def holds(self, c: Category, h: Hands) -> NDArray[np.bool_]:
        """Whether each hand holds category ``c``."""
        n = h.n
        pop = _popcount()
        match c.shape:
            case "of_a_kind":
                if c.min_rank is None and c.max_rank is None:
                    return self._pattern_held(c.of_a_kind or (), h)
                return self._groups(c, h)[0]
            case "flush":
                need = c.flush or 0
                return _any(pop[h.m[s]] >= need for s in self._suits(c))
            case "straight":
                return _run_top(c.straight or 0, self.ace_low)[h.ge(1)] > 0
            case "straight_flush":
                run = _run_top(c.straight_flush or 0, self.ace_low)
                return _any(run[h.m[s]] > 0 for s in self._suits(c))
            case "same_color":
                need = c.same_color or 0
                return _any(pop[h.m[a]].astype(np.int16) + pop[h.m[b]] >= need for a, b in COLORS)
            case "same_color_straight":
                run = _run_top(c.same_color_straight or 0, self.ace_low)
                return _any(run[h.m[a] | h.m[b]] > 0 for a, b in COLORS)
            case "ranks" | "contains" | "contains_any":
                return _any(self._option_held(c, option, h) for option in self._options(c))
            case "any":
                return np.ones(n, dtype=bool)
        raise AssertionError(c.shape)  # pragma: no cover

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

    # -- comparing hands --------------------------------------------------------------------

    def keys(self, masks: Masks | Hands) -> NDArray[np.int64]:
        """An integer per hand ordering hands as ``Evaluator.best(...).key`` does: the
        category's strength, then the tie-break ranks as digits (see ``pack_key``)."""
        if self.ranking.low is not None:
            raise NotImplementedError(
                f"ranking {self.ranking.id!r} ranks low hands (§ 553.4(d)); the batch "
                "evaluator orders High hands only: use the scalar Evaluator"
            )
        h = masks if isinstance(masks, Hands) else Hands(masks)
        table = self._rank_table(h)
        if table is None:
            return self._keys_among(h, self.comparing)
        # the best suit-free category from the rank multiset; the general path only for
        # hands with enough cards in one suit (or colour) to hold a suit category
        index, keys, need_suit, need_colour = table
        pop = _popcount()
        m = h.m
        v = index.halves[m[0]] + index.halves[m[1]] + index.halves[m[2]] + index.halves[m[3]]
        low, high = v & 0xFFFFF, v >> 20
        out = keys[index.low_id[low] * index.high_count + index.high_id[high]]
        check = out < 0
        if need_suit <= NRANKS:
            most = np.maximum(np.maximum(pop[m[0]], pop[m[1]]), np.maximum(pop[m[2]], pop[m[3]]))
            check |= most >= need_suit
        if need_colour <= 2 * NRANKS:
            black = pop[m[0]].astype(np.int16) + pop[m[3]]
            red = pop[m[1]].astype(np.int16) + pop[m[2]]
            check |= np.maximum(black, red) >= need_colour
        rows = np.flatnonzero(check)
        if rows.size:
            out[rows] = self._keys_among(h.subset(rows), self.comparing)
        return out

    def _rank_table(self, h: Hands) -> tuple[_HalfIndex, NDArray[np.int64], int, int] | None:
        """For hands of one size up to 8 cards: the key of the best suit-free category of
        every rank multiset, and how many cards of one suit or colour a suit category
        needs. None where every category reads suits (nothing to gain)."""
        if h.n < 4096:
            return None
        sizes = np.unique(
            _popcount()[h.m[0]].astype(np.int16)
            + _popcount()[h.m[1]]
            + _popcount()[h.m[2]]
            + _popcount()[h.m[3]]
        )
        if sizes.size != 1 or not 1 <= int(sizes[0]) <= 8:
            return None
        k = int(sizes[0])
        if k in self._rank_tables:
            return self._rank_tables[k]
        free = [
            i
            for i in self.comparing
            if self.categories[i].shape in _SUIT_FREE
            and not self.categories[i].suited
            and self.categories[i].suit is None
        ]
        suit_need, colour_need = NRANKS + 1, 2 * NRANKS + 1
        for i in self.comparing:
            c = self.categories[i]
            if i in free:
                continue
            if c.shape in ("same_color", "same_color_straight"):
                colour_need = min(colour_need, c.same_color or c.same_color_straight or 0)
            elif c.shape in ("ranks", "contains", "contains_any"):
                suit_need = min(suit_need, min(len(o) for o in self._options(c)))
            else:
                suit_need = min(suit_need, c.flush or c.straight_flush or 0)
        if not free or suit_need <= 2 or colour_need <= 2:
            self._rank_tables[k] = None
            return None
        index = _half_index(k)
        multisets = _rank_multisets(k)  # (n, 13) counts
        synthetic = [np.zeros(len(multisets), dtype=np.uint16) for _ in SUITS]
        for r in range(NRANKS):
            for j in range(4):
                synthetic[j] |= np.where(multisets[:, r] > j, 1 << r, 0).astype(np.uint16)
        hands = Hands(synthetic)
        keys = np.full(index.low_count * index.high_count, -1, dtype=np.int64)
        held_free = self._first_held(hands, free, allow_none=True)
        rows = np.flatnonzero(held_free >= 0)
        sub = hands.subset(rows)
        v = sum(index.halves[m] for m in sub.m)
        slot = index.low_id[v & 0xFFFFF] * index.high_count + index.high_id[v >> 20]
        keys[slot] = self._keys_among(sub, free)
        self._rank_tables[k] = (index, keys, suit_need, colour_need)
        return self._rank_tables[k]

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
            return _join([(d, 1) for d in take_top(h.unary(), self.size)], self.size)
        # the combination is a set of ranks, at most one card of each (flush, ranks, …),
        # or a multiset (same colour); then the highest other cards as kickers
        if shape == "flush":
            n = c.flush or 0
            top = _top_digits(n)
            best = np.zeros(h.n, dtype=np.uint64)
            best_mask = np.zeros(h.n, dtype=np.uint16)
            for s in self._suits(c):
                value = np.where(pop[h.m[s]] >= n, top[h.m[s]], np.uint64(0))
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
            u = (u & ~nib) | (((u & nib) >> np.uint64(p)) & nib)
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
