"""A ranking's hand values as integer keys, for the numba kernels of the Poker fast path.

``pack_key`` is the definition: the scalar ``HandValue.key`` (a tuple of small ints, the
category's strength then the tiebreak; a low hand's are negated) packed into one int with
the same order. Each part ``p`` (-15..15) is stored as ``p + 16`` in 5 bits, most
significant first, and a key shorter than ``KEY_PARTS`` is padded with 0, below every
stored part: so a tuple that is a prefix of another packs lower, as Python compares them.
The tables that read keys without building a ``HandValue`` are held equal to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from validator.cache import PerObject, memo
from validator.errors import RulesubError
from validator.model.ranking import Ranking
from validator.rankings.evaluator import NO_NEED, Evaluator, suit_needs

#: parts of a key: the strength and at most six tiebreak ranks
KEY_PARTS = 7
PART_BITS = 5
PART_OFFSET = 16
PART_MASK = (1 << PART_BITS) - 1

#: a ranking's tables, as the kernels take them (``PackedRanking.tables``)
Tables = npt.NDArray[np.int64]


def pack_key(key: Sequence[int]) -> int:
    """``key`` as one non-negative int ordered as the tuples are."""
    if len(key) > KEY_PARTS:
        raise ValueError(f"a hand key of {len(key)} parts: at most {KEY_PARTS} are packed")
    out = 0
    for i in range(KEY_PARTS):
        out <<= PART_BITS
        if i < len(key):
            part = key[i]
            if not -PART_OFFSET < part < PART_OFFSET:
                raise ValueError(f"a hand key part {part} outside -15..15")
            out |= part + PART_OFFSET
    return out


def unpack_key(packed: int) -> tuple[int, ...]:
    """The tuple ``pack_key`` packed."""
    parts = []
    for i in range(KEY_PARTS):
        stored = (packed >> (PART_BITS * (KEY_PARTS - 1 - i))) & ((1 << PART_BITS) - 1)
        if stored == 0:
            break
        parts.append(stored - PART_OFFSET)
    return tuple(parts)


# -- a ranking's tables, filled by the scalar evaluator -------------------------------------
#
# A hand of n cards (1..MAX_PACKED) is read as its rank counts and, where a suit holds as many
# cards as the least suit-reading category needs, that suit's ranks. The rank table holds, per
# rank pattern (the counts of the 13 ranks), the evaluator's own answer for a hand of that
# pattern whose suits are idle; the suited table holds, per set of ranks of one suit, the
# evaluator's answer among the categories that read suits (0 where none is held). The best
# hand is the higher of the two: the categories that read suits can only be held in that one
# suit, and they fill the hand (no kickers from the other cards), which the build checks.
#
# The evaluator is asked for every rank pattern of up to the ranking's size; a pattern of more
# cards holds the best of its hands of ``size`` cards (the definition, ``best_by_subsets``),
# read as the highest of its patterns of one card fewer. The tests hold every pattern equal
# to ``Evaluator.best``. Its combination (``kept_mask``) is not kept.

#: the most cards a packed hand holds
MAX_PACKED = 7
RANKS = 13
MAX_OF_A_RANK = 4
#: the fewest cards a category that reads suits may need, to be packed: two suits cannot then
#: both hold it among MAX_PACKED cards, and every rank pattern has a hand whose suits are idle
MIN_SUIT_NEED = 4

# the tables' order in ``PackedRanking.tables``
T_OFFSET, T_BASE, T_RANK_KEY, T_RANK_FORMED, T_SUITED_KEY, T_SUITED_FORMED, T_CATEGORY, T_PARAMS = (
    range(8)
)
#: the cards of a hand read by the sum of its ranks' values (Omaha's two and three)
FIVE = 5
#: a value per rank (deuce .. ace) whose sums over the ranks of any five cards (at most four
#: of a rank) all differ: the smallest such, found greedily. A five-card hand's rank pattern
#: is then one sum, added from the sums of its parts (``five_picks``)
FIVE_VALUES = np.array(
    [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415], dtype=np.int64
)
#: the rank table's combination of a hand of more cards than the ranking's size: not kept
FORMED_UNKNOWN = -1
# the parameters' order in the ``T_PARAMS`` table
P_SUIT_NEED, P_SIZE = 0, 1
#: ``tables`` holds every table of a ranking in one array: a kernel's call then counts one
#: reference to it, not one for each table. Its first entries hold where each table starts
#: (``tables[T_OFFSET]`` .. ``tables[T_PARAMS]``) and the offsets' two inner sizes
D_LEFT, D_COUNT = 8, 9
HEADER = 10


def _ways() -> npt.NDArray[np.int64]:
    """ways[r, m]: the rank patterns of m cards over ranks r..12 (at most 4 of a rank)."""
    ways = np.zeros((RANKS + 1, MAX_PACKED + 1), dtype=np.int64)
    ways[RANKS, 0] = 1
    for r in range(RANKS - 1, -1, -1):
        for m in range(MAX_PACKED + 1):
            ways[r, m] = sum(ways[r + 1, m - c] for c in range(min(m, MAX_OF_A_RANK) + 1))
    return ways


def pattern_offsets() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The perfect index of a rank pattern: ``base[n] + sum(offset[r, m_r, c_r])`` over the
    ranks, where ``c_r`` is the count of rank r and ``m_r`` the cards at ranks r and above."""
    ways = _ways()
    offset = np.zeros((RANKS, MAX_PACKED + 1, MAX_OF_A_RANK + 1), dtype=np.int64)
    for r in range(RANKS):
        for m in range(MAX_PACKED + 1):
            for c in range(1, MAX_OF_A_RANK + 1):
                below = m - (c - 1)
                offset[r, m, c] = offset[r, m, c - 1] + (ways[r + 1, below] if below >= 0 else 0)
    base = np.zeros(MAX_PACKED + 2, dtype=np.int64)
    for n in range(MAX_PACKED + 1):
        base[n + 1] = base[n] + ways[0, n]
    return offset, base


#: where the rank table holds its keys of five cards again, by the sum of their ranks'
#: ``FIVE_VALUES`` (after every rank pattern's key: one array fewer for the kernels to pass)
FIVE_AT = int(pattern_offsets()[1][MAX_PACKED + 1])


def _patterns(n: int) -> list[tuple[int, ...]]:
    """Every rank pattern of n cards, as the ranks (0..12) ascending, in the order of their
    index (``pattern_offsets``): by the count of the deuces, then of the treys, ..."""
    out: list[tuple[int, ...]] = []

    def extend(r: int, left: int, acc: tuple[int, ...]) -> None:
        if r == RANKS:
            if left == 0:
                out.append(acc)
            return
        for c in range(min(left, MAX_OF_A_RANK) + 1):
            extend(r + 1, left - c, acc + (r,) * c)

    extend(0, n, ())
    return out


def _idle_hand(ranks: Sequence[int]) -> list[int]:
    """Cards of these ranks dealt round the suits: a rank's copies in distinct suits, no suit
    holding more than ceil(n / 4) cards."""
    return [(r << 2) | (i & 3) for i, r in enumerate(ranks)]


def _without(ranks: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """The rank pattern with one card of ``rank`` taken out."""
    i = ranks.index(rank)
    return ranks[:i] + ranks[i + 1 :]


def _place_mask(ordered: Sequence[int], chosen: Sequence[int]) -> int:
    place = {c: i for i, c in enumerate(ordered)}
    mask = 0
    for c in chosen:
        mask |= 1 << place[c]
    return mask


def _rank_mask(chosen: Sequence[int]) -> int:
    mask = 0
    for c in chosen:
        mask |= 1 << (c >> 2)
    return mask


class NotPackable(RulesubError, ValueError):
    """A ranking the tables cannot hold: the kernels fall back to the scalar engine."""


def packable(ranking: Ranking) -> str | None:
    """Why ``ranking`` cannot be packed, or None: the tables hold hands whose suit-reading
    categories are flushes (straight flushes, suited ranks) of one, any, suit of at least
    ``MIN_SUIT_NEED`` cards, filling the hand."""
    suit_need, color_need = suit_needs(ranking.categories)
    if color_need != NO_NEED:
        return "a category reads colours (same_color, same_color_straight)"
    for c in ranking.categories:
        if c.suit is not None:
            return f"category {c.id!r} reads one named suit ({c.suit})"
    if suit_need < MIN_SUIT_NEED:
        return (
            f"a category reads suits over {suit_need} card(s): fewer than {MIN_SUIT_NEED},"
            " two suits may hold it at once"
        )
    return None


@dataclass(frozen=True, slots=True)
class PackedRanking:
    """A ranking's hand values as tables; ``tables`` is the first argument of the kernels."""

    ranking_id: str
    tables: Tables  # ``flat_tables``


def flat_tables(parts: Sequence[npt.NDArray[np.int64]]) -> Tables:
    """The tables (``T_OFFSET`` .. ``T_PARAMS``) in one array, after the header of where
    each starts."""
    starts = np.cumsum([HEADER, *(part.size for part in parts[:-1])])
    inner = parts[T_OFFSET].shape[1:]
    head = np.array([*starts, *inner], dtype=np.int64)
    return np.concatenate([head, *(np.ravel(part) for part in parts)]).astype(np.int64)


def table(tables: Tables, t: int) -> npt.NDArray[np.int64]:
    """Table ``t`` of a ranking's ``tables`` (the offsets flattened)."""
    end = tables[t + 1] if t < T_PARAMS else tables.shape[0]
    return tables[tables[t] : end]


def build(ranking: Ranking) -> PackedRanking:
    """Fill the tables by asking the scalar evaluator; ``NotPackable`` with the reason."""
    reason = packable(ranking)
    if reason is not None:
        raise NotPackable(f"ranking {ranking.id!r} cannot be packed: {reason}")
    ev = Evaluator(ranking)
    offset, base = pattern_offsets()
    total = int(base[MAX_PACKED + 1])

    rank_key = [0] * total
    rank_formed = [0] * total
    try:
        place: dict[tuple[int, ...], int] = {}  # a pattern's index: in the order enumerated
        for n in range(1, MAX_PACKED + 1):
            for i, ranks in enumerate(_patterns(n), start=int(base[n])):
                place[ranks] = i
                if n > ranking.size:  # the best of its hands of one card fewer
                    rank_key[i] = max(rank_key[place[_without(ranks, r)]] for r in set(ranks))
                    rank_formed[i] = FORMED_UNKNOWN
                    continue
                cards = _idle_hand(ranks)
                value = ev.best(cards)
                rank_key[i] = pack_key(value.key)
                rank_formed[i] = _place_mask(sorted(cards, reverse=True), value.combination)
        suit_need, _ = suit_needs(ranking.categories)
        reads_suits = {c.id for c in ranking.categories if suit_needs([c])[0] != NO_NEED}
        suited_key = np.zeros(1 << RANKS, dtype=np.int64)
        suited_formed = np.zeros(1 << RANKS, dtype=np.int64)
        if suit_need != NO_NEED:
            for mask in range(1 << RANKS):
                n = mask.bit_count()
                if not suit_need <= n <= MAX_PACKED:
                    continue
                cards = [r << 2 for r in range(RANKS) if mask >> r & 1]
                value = ev.best(cards)
                if value.category not in reads_suits:
                    continue
                if len(value.cards) != len(value.combination):
                    raise NotPackable(
                        f"ranking {ranking.id!r} cannot be packed: category"
                        f" {value.category!r} reads suits and takes kickers"
                    )
                suited_key[mask] = pack_key(value.key)
                suited_formed[mask] = _rank_mask(value.combination)
    except ValueError as e:  # a key the packing cannot hold
        if isinstance(e, NotPackable):
            raise
        raise NotPackable(f"ranking {ranking.id!r} cannot be packed: {e}") from e
    category = np.full(1 << PART_BITS, -1, dtype=np.int64)
    ids = ev.ids
    for c in ranking.categories:
        if c.refines is None:
            strength = ev.strength(c.id)
            part = -strength if ranking.low is not None else strength
            category[part + PART_OFFSET] = ids.index(c.id)
    params = np.array([suit_need, ranking.size], dtype=np.int64)
    five_key = [0] * (MAX_OF_A_RANK * int(FIVE_VALUES[-1]) + int(FIVE_VALUES[-2]) + 1)
    for i, ranks in enumerate(_patterns(FIVE), start=int(base[FIVE])):
        five_key[sum(int(FIVE_VALUES[r]) for r in ranks)] = rank_key[i]
    return PackedRanking(
        ranking.id,
        flat_tables(
            (
                offset,
                base,
                np.array(rank_key + five_key, dtype=np.int64),
                np.array(rank_formed, dtype=np.int64),
                suited_key,
                suited_formed,
                category,
                params,
            )
        ),
    )


def packed(evaluator: Evaluator) -> PackedRanking:
    """The tables of the evaluator's ranking, built once per ranking per process and kept in
    the user's cache, keyed by the ranking's content (and rulesub's code), so that only the
    first run builds them; ``NotPackable`` with the reason where they cannot be built."""
    return _packed(evaluator.ranking)


def _read_or_build(ranking: Ranking) -> PackedRanking:
    reason = packable(ranking)
    if reason is not None:
        raise NotPackable(f"ranking {ranking.id!r} cannot be packed: {reason}")
    return memo("packed-ranking", ranking.model_dump_json(), lambda: build(ranking))


#: each ranking's tables, once per ranking object
_packed = PerObject(_read_or_build)


# -- the kernels' functions -----------------------------------------------------------------
#
# A hand is read without allocating: its rank counts in one int (3 bits a rank), its suits'
# ranks in another (16 bits a suit). Every function takes ``PackedRanking.tables`` first.

COUNT_BITS = 3
SUIT_BITS = 16
RANK_SET = (1 << RANKS) - 1


@njit(cache=True, inline="always")
def _read(tables: Tables, cards: npt.NDArray[np.int64], n: int) -> tuple[int, int, int, int]:
    """(packed key, rank pattern index, the suit whose categories decide or -1, suit ranks)."""
    counts, suits = _tally(cards, n, 0, 0)
    return _read_counts(tables, counts, suits, n)


@njit(cache=True, inline="always")
def _tally(cards: npt.NDArray[np.int64], n: int, counts: int, suits: int) -> tuple[int, int]:
    """``cards[:n]`` added to a hand's rank counts and its suits' ranks."""
    for j in range(n):
        c = cards[j]
        counts += 1 << (COUNT_BITS * (c >> 2))
        suits |= 1 << (SUIT_BITS * (c & 3) + (c >> 2))
    return counts, suits


@njit(cache=True, inline="always")
def _read_counts(tables: Tables, counts: int, suits: int, n: int) -> tuple[int, int, int, int]:
    """``_read`` of a hand of n cards given as its rank counts and its suits' ranks."""
    offset, lefts, ks = tables[T_OFFSET], tables[D_LEFT], tables[D_COUNT]
    i = tables[tables[T_BASE] + n]
    left = n
    for r in range(RANKS):
        k = (counts >> (COUNT_BITS * r)) & 7
        i += tables[offset + (r * lefts + left) * ks + k]
        left -= k
    key = tables[tables[T_RANK_KEY] + i]
    need = tables[tables[T_PARAMS] + P_SUIT_NEED]
    deciding = -1
    ranks = 0
    if n >= need:
        for s in range(4):
            mask = (suits >> (SUIT_BITS * s)) & RANK_SET
            if _bits(mask) >= need:
                suited = tables[tables[T_SUITED_KEY] + mask]
                if suited > key:
                    key = suited
                    deciding = s
                    ranks = mask
    return key, i, deciding, ranks


@njit(cache=True, inline="always")
def _bits(x: int | np.int64) -> int:
    """The bits set in ``x``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def best_key(tables: Tables, cards: npt.NDArray[np.int64], n: int) -> int:
    """The packed key of the best hand of ``cards[:n]`` (``pack_key(ev.best(...).key)``)."""
    return _read(tables, cards, n)[0]


@njit(cache=True, inline="always")
def best_key_of_two(
    tables: Tables, a: npt.NDArray[np.int64], na: int, b: npt.NDArray[np.int64], nb: int
) -> int:
    """``best_key`` of ``a[:na]`` and ``b[:nb]`` together (a player's cards and the board),
    read without joining them."""
    counts, suits = _tally(a, na, 0, 0)
    counts, suits = _tally(b, nb, counts, suits)
    return _read_counts(tables, counts, suits, na + nb)[0]


@njit(cache=True)
def best_key_using(
    tables: Tables,
    own: npt.NDArray[np.int64],
    n_own: int,
    board: npt.NDArray[np.int64],
    n_board: int,
    k_own: int,
    k_board: int,
) -> int:
    """The packed key of the best hand of exactly ``k_own`` of ``own[:n_own]`` and ``k_board``
    of ``board[:n_board]`` (Omaha's two and three, § 553.12(j)); 0 where too few cards. Each
    choice of either part is read once (``picks``, ``five_picks`` for a hand of five cards)
    and every pair joined by its counts (its sums)."""
    ko, kb = 1 << n_own, 1 << n_board
    if k_own + k_board == FIVE:
        o = np.empty((3, ko), dtype=np.int64)
        b = np.empty((3, kb), dtype=np.int64)
        no = five_picks(own, n_own, k_own, o)
        nb = five_picks(board, n_board, k_board, b)
        return best_key_of_five(tables, o, no, b, nb)
    scratch = np.empty(2 * (ko + kb), dtype=np.int64)
    own_counts, own_suits = scratch[:ko], scratch[ko : 2 * ko]
    board_counts, board_suits = scratch[2 * ko : 2 * ko + kb], scratch[2 * ko + kb :]
    no = picks(own, n_own, k_own, own_counts, own_suits)
    nb = picks(board, n_board, k_board, board_counts, board_suits)
    return best_key_of_picks(
        tables, own_counts, own_suits, no, board_counts, board_suits, nb, k_own + k_board
    )


@njit(cache=True)
def picks(
    cards: npt.NDArray[np.int64],
    n: int,
    k: int,
    counts: npt.NDArray[np.int64],
    suits: npt.NDArray[np.int64],
) -> int:
    """Each choice of ``k`` of ``cards[:n]`` read once, as ``_read`` reads a hand: its rank
    counts in ``counts`` and its suits' ranks in ``suits`` (both at least C(n, k) long, in
    the order of ``best_key_using``'s picks); how many choices."""
    m = 0
    for a in range(1 << n):
        if _bits(a) != k:
            continue
        counted = 0
        suited = 0
        for i in range(n):
            if a >> i & 1:
                c = cards[i]
                counted += 1 << (COUNT_BITS * (c >> 2))
                suited |= 1 << (SUIT_BITS * (c & 3) + (c >> 2))
        counts[m] = counted
        suits[m] = suited
        m += 1
    return m


@njit(cache=True)
def best_key_of_picks(
    tables: Tables,
    own_counts: npt.NDArray[np.int64],
    own_suits: npt.NDArray[np.int64],
    n_own: int,
    board_counts: npt.NDArray[np.int64],
    board_suits: npt.NDArray[np.int64],
    n_board: int,
    size: int,
) -> int:
    """``best_key_using`` over choices already read by ``picks``: the best of every own
    choice joined to every board choice (``size`` cards each); 0 where either has none. A
    street's board choices are read once for every seat, a seat's own once for both its
    hands."""
    top = 0
    for a in range(n_own):
        oc = own_counts[a]
        os = own_suits[a]
        for b in range(n_board):
            key = _read_counts(tables, oc + board_counts[b], os | board_suits[b], size)[0]
            if key > top:
                top = key
    return top


#: a suit's count of cards in ``five_picks``' suit counts: 4 bits a suit
SUIT_COUNT_BITS = 4
#: bit 3 of every suit's count: set in ``count + 8 - need`` where the suit holds ``need``
SUIT_COUNT_HIGH = 0x8888


@njit(cache=True)
def five_picks(cards: npt.NDArray[np.int64], n: int, k: int, out: npt.NDArray[np.int64]) -> int:
    """Each choice of ``k`` of ``cards[:n]`` read once as a part of a five-card hand, in
    ``picks``' order, one column of ``out`` (3 rows, at least C(n, k) columns) a choice: the
    sum of its ranks' ``FIVE_VALUES`` (row 0), each suit's count of its cards (row 1,
    ``SUIT_COUNT_BITS`` a suit) and its suits' ranks (row 2, as ``_read``); how many."""
    m = 0
    for a in range(1 << n):
        if _bits(a) != k:
            continue
        summed = 0
        counted = 0
        suited = 0
        for i in range(n):
            if a >> i & 1:
                c = cards[i]
                summed += FIVE_VALUES[c >> 2]
                counted += 1 << (SUIT_COUNT_BITS * (c & 3))
                suited |= 1 << (SUIT_BITS * (c & 3) + (c >> 2))
        out[0, m] = summed
        out[1, m] = counted
        out[2, m] = suited
        m += 1
    return m


@njit(cache=True)
def best_key_of_five(
    tables: Tables,
    own: npt.NDArray[np.int64],
    n_own: int,
    board: npt.NDArray[np.int64],
    n_board: int,
) -> int:
    """``best_key_of_picks`` of five-card hands over choices read by ``five_picks``: each
    join's rank key read at the sum of its parts' sums (``FIVE_AT``), and its suits only
    where one suit holds as many cards as the suit-reading categories need; 0 where either
    part has no choice. The best of every own choice joined to every board choice."""
    rank_keys = tables[T_RANK_KEY]  # where each table starts in ``tables``
    suited_keys = tables[T_SUITED_KEY]
    need = tables[tables[T_PARAMS] + P_SUIT_NEED]
    # a suit holding ``need`` of the five cards: bit 3 of its count set after this add
    add = (8 - need) * 0x1111 if need <= FIVE else 0
    top = 0
    for a in range(n_own):
        os = own[0, a]
        oc = own[1, a]
        osu = own[2, a]
        for b in range(n_board):
            key = tables[rank_keys + FIVE_AT + os + board[0, b]]
            if add:
                held = (oc + board[1, b] + add) & SUIT_COUNT_HIGH
                if held:
                    s = 0
                    while not (held >> (SUIT_COUNT_BITS * s + 3)) & 1:
                        s += 1
                    suited = tables[
                        suited_keys + (((osu | board[2, b]) >> (SUIT_BITS * s)) & RANK_SET)
                    ]
                    if suited > key:
                        key = suited
            if key > top:
                top = key
    return top


@njit(cache=True, inline="always")
def category_index(tables: Tables, key: int) -> int:
    """The index in ``ev.ids`` of the category of the hand of packed ``key`` (-1 for 0, no
    hand)."""
    return tables[tables[T_CATEGORY] + ((key >> (PART_BITS * (KEY_PARTS - 1))) & PART_MASK)]


@njit(cache=True, inline="always")
def key_part(key: int, i: int) -> int:
    """Part i of the unpacked key (the strength, then the tiebreak ranks); 0 where absent."""
    stored = (key >> (PART_BITS * (KEY_PARTS - 1 - i))) & PART_MASK
    if stored == 0:
        return 0
    return stored - PART_OFFSET


@njit(cache=True)
def kept_mask(tables: Tables, cards: npt.NDArray[np.int64], n: int) -> int:
    """Bit i set when ``cards[i]`` forms the category of the best hand of ``cards[:n]`` (the
    cards a draw keeps), for at most the ranking's size of cards."""
    if n > tables[tables[T_PARAMS] + P_SIZE]:
        raise ValueError("kept_mask: more cards than a hand of the ranking")
    _, i, suit, ranks = _read(tables, cards, n)
    out = 0
    if suit >= 0:
        formed = tables[tables[T_SUITED_FORMED] + ranks]
        for j in range(n):
            c = cards[j]
            if c & 3 == suit and formed >> (c >> 2) & 1:
                out |= 1 << j
        return out
    formed = tables[tables[T_RANK_FORMED] + i]
    for j in range(n):  # card j's place among the cards sorted high to low
        place = 0
        for m in range(n):
            if cards[m] > cards[j]:
                place += 1
        if formed >> place & 1:
            out |= 1 << j
    return out


@njit(cache=True)
def _next_combination(idx: npt.NDArray[np.int64], k: int, n: int) -> bool:
    """``idx[:k]`` advanced to the next choice of ``k`` of ``range(n)`` in
    ``itertools.combinations``' order; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == i + n - k:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def best_pick_using(
    tables: Tables,
    first: npt.NDArray[np.int64],
    n_first: int,
    k_first: int,
    second: npt.NDArray[np.int64],
    n_second: int,
    k_second: int,
) -> int:
    """Which cards ``Evaluator.best_using`` takes for ``[(first[:n_first], k_first),
    (second[:n_second], k_second)]``: the first of the best choices in the order of
    ``itertools.product`` over ``itertools.combinations``, as positions (bit i of the low 16
    bits: ``first[i]``; of the next 16: ``second[i]``); -1 where too few cards."""
    if k_first > n_first or k_second > n_second:
        return -1
    a = np.arange(max(k_first, 1), dtype=np.int64)
    hand = np.empty(k_first + k_second, dtype=np.int64)
    top = -1
    chosen = -1
    more_a = True
    while more_a:
        b = np.arange(max(k_second, 1), dtype=np.int64)
        more_b = True
        while more_b:
            for i in range(k_first):
                hand[i] = first[a[i]]
            for j in range(k_second):
                hand[k_first + j] = second[b[j]]
            key = best_key(tables, hand, k_first + k_second)
            if key > top:  # the first of equal hands, as best_using keeps it
                top = key
                mask = 0
                for i in range(k_first):
                    mask |= 1 << a[i]
                for j in range(k_second):
                    mask |= 1 << (16 + b[j])
                chosen = mask
            more_b = _next_combination(b, k_second, n_second)
        more_a = _next_combination(a, k_first, n_first)
    return chosen
