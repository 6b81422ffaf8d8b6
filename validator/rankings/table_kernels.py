"""The batch evaluator's table lookups over hands given as rows of card ints, each in one
compiled pass over the hands (no slices, no temporaries the size of the batch but the
answers): a hand's additive code (its rank multiset and suit counts, a sum over its cards)
numbered among the multisets of its size, and the table read at that number; where its
suits might hold a category reading suits, its four suit masks, each read in a table of the
suit's 8,192 masks; or a hand's four suit masks alone. The tables and the codes are the
batch evaluator's (``validator.rankings.batch``); these loops only read them. Besides, the
cards forming a hand's rank groups (``of_a_kind_cards``), hand by hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray


@njit(cache=True)
def table_values(
    cards: NDArray[Any],
    card_code: NDArray[np.int64],
    card_bit: NDArray[np.uint64],
    base_low: NDArray[np.int32],
    id_high: NDArray[np.int32],
    fields: NDArray[np.int64],
    value: NDArray[Any],
    check: NDArray[np.bool_],
    by_suit: NDArray[np.int64],
    highest: bool,
    none: int,
    out: NDArray[Any],
    general: NDArray[np.int64],
) -> int:
    """Each hand's value in a table of rank multisets (``out``): its code summed over its
    cards, numbered among the multisets of its size (``fields``: the low field's mask, the
    high field's shift and mask, the suit counts' shift), read there (-1: no category of
    the table held). Where its suits might hold a category reading suits (``check``) and
    ``by_suit`` holds those categories (``(4, 8192)``, by each suit's mask, read from the
    cards' ``card_bit``; ``(0, 0)``: none), the highest (``highest``) or the lowest of the
    table's value and its four suits' values, ``none`` standing for no category held. The
    hands this does not answer (no ``by_suit`` where a suit might count, or no category
    held) are listed in ``general``, in order. Returns how many those are, or -1 where a
    card is not 0..51."""
    n, k = cards.shape
    low_field, high_shift, high_field, suit_shift = fields[0], fields[1], fields[2], fields[3]
    last = value.shape[0] - 1
    suited = by_suit.shape[0] == 4
    g = 0
    for r in range(n):
        code = np.int64(0)
        for j in range(k):
            c = np.int64(cards[r, j])
            if c < 0 or c > 51:
                return -1
            code += card_code[c]
        i = base_low[code & low_field] + id_high[(code >> high_shift) & high_field]
        v = value[min(max(i, 0), last)]
        out[r] = v
        if not check[code >> suit_shift]:
            if v < 0:
                general[g] = r
                g += 1
            continue
        if not suited:
            general[g] = r
            g += 1
            continue
        x = np.uint64(0)
        for j in range(k):
            x |= card_bit[np.int64(cards[r, j])]
        best = np.int64(none) if v < 0 else np.int64(v)
        for s in range(4):
            w = by_suit[s, np.int64((x >> np.uint64(16 * s)) & np.uint64(0x1FFF))]
            if w != none:
                if best == none:
                    best = w
                elif highest:
                    best = max(best, w)
                else:
                    best = min(best, w)
        if best == none:
            general[g] = r
            g += 1
        else:
            out[r] = best
    return g


@njit(cache=True)
def two_table_values(
    cards: NDArray[Any],
    card_code: NDArray[np.int64],
    card_bit: NDArray[np.uint64],
    base_low: NDArray[np.int32],
    id_high: NDArray[np.int32],
    fields: NDArray[np.int64],
    value: NDArray[Any],
    check: NDArray[np.bool_],
    by_suit: NDArray[np.int64],
    none: int,
    out: NDArray[Any],
    general: NDArray[np.int64],
    value2: NDArray[Any],
    check2: NDArray[np.bool_],
    by_suit2: NDArray[np.int64],
    none2: int,
    out2: NDArray[Any],
    general2: NDArray[np.int64],
    count2: NDArray[np.int64],
) -> int:
    """``table_values`` of a hand's category (the first table: the lowest value wins) and
    its key (the second: the highest wins), two tables of the same multisets, in one pass:
    each hand's code summed and numbered once, each table then read as ``table_values``
    reads it (written out twice: a compiled helper taking the arrays would add their
    reference counting at every hand). Returns how many hands the first lists in
    ``general``, the second's count in ``count2[0]``, or -1 where a card is not 0..51."""
    n, k = cards.shape
    low_field, high_shift, high_field, suit_shift = fields[0], fields[1], fields[2], fields[3]
    last, last2 = value.shape[0] - 1, value2.shape[0] - 1
    suited, suited2 = by_suit.shape[0] == 4, by_suit2.shape[0] == 4
    g = 0
    g2 = 0
    for r in range(n):
        code = np.int64(0)
        for j in range(k):
            c = np.int64(cards[r, j])
            if c < 0 or c > 51:
                return -1
            code += card_code[c]
        i = base_low[code & low_field] + id_high[(code >> high_shift) & high_field]
        suits = code >> suit_shift
        v = value[min(max(i, 0), last)]
        v2 = value2[min(max(i, 0), last2)]
        out[r] = v
        out2[r] = v2
        if not check[suits] and not check2[suits]:
            if v < 0:
                general[g] = r
                g += 1
            if v2 < 0:
                general2[g2] = r
                g2 += 1
            continue
        x = np.uint64(0)
        for j in range(k):
            x |= card_bit[np.int64(cards[r, j])]
        if not check[suits]:
            if v < 0:
                general[g] = r
                g += 1
        elif not suited:
            general[g] = r
            g += 1
        else:
            best = np.int64(none) if v < 0 else np.int64(v)
            for s in range(4):
                w = by_suit[s, np.int64((x >> np.uint64(16 * s)) & np.uint64(0x1FFF))]
                if w != none:
                    best = w if best == none else min(best, w)
            if best == none:
                general[g] = r
                g += 1
            else:
                out[r] = best
        if not check2[suits]:
            if v2 < 0:
                general2[g2] = r
                g2 += 1
        elif not suited2:
            general2[g2] = r
            g2 += 1
        else:
            best = np.int64(none2) if v2 < 0 else np.int64(v2)
            for s in range(4):
                w = by_suit2[s, np.int64((x >> np.uint64(16 * s)) & np.uint64(0x1FFF))]
                if w != none2:
                    best = w if best == none2 else max(best, w)
            if best == none2:
                general2[g2] = r
                g2 += 1
            else:
                out2[r] = best
    count2[0] = g2
    return g


@njit(cache=True)
def suit_table_values(
    cards: NDArray[Any],
    card_bit: NDArray[np.uint64],
    table: NDArray[Any],
    highest: bool,
    out: NDArray[Any],
) -> bool:
    """Each hand's value read suit by suit in a ``(4, 8192)`` table of each suit's masks:
    the highest of its suits' (``highest``) or the lowest; False where a card is not
    0..51."""
    n, k = cards.shape
    for r in range(n):
        x = np.uint64(0)
        for j in range(k):
            c = np.int64(cards[r, j])
            if c < 0 or c > 51:
                return False
            x |= card_bit[c]
        a = table[0, np.int64(x & np.uint64(0x1FFF))]
        b = table[1, np.int64((x >> np.uint64(16)) & np.uint64(0x1FFF))]
        c = table[2, np.int64((x >> np.uint64(32)) & np.uint64(0x1FFF))]
        d = table[3, np.int64((x >> np.uint64(48)) & np.uint64(0x1FFF))]
        out[r] = max(max(a, b), max(c, d)) if highest else min(min(a, b), min(c, d))
    return True


@njit(cache=True)
def card_bits(cards: NDArray[Any], bit: NDArray[np.uint64], out: NDArray[np.uint64]) -> None:
    """Each row's cards as bits: the ``bit`` of each of its card ints or-ed together (a
    negative int counted from the end, as numpy takes it: -1, no card, the last entry)."""
    n, m = cards.shape
    size = bit.shape[0]
    for r in range(n):
        x = np.uint64(0)
        for j in range(m):
            c = np.int64(cards[r, j])
            x |= bit[c + size if c < 0 else c]
        out[r] = x


@njit(cache=True)
def second_combinations(
    cards: NDArray[Any],
    won: NDArray[np.uint64],
    card_code: NDArray[np.int64],
    card_bit: NDArray[np.uint64],
    base_low: NDArray[np.int32],
    id_high: NDArray[np.int32],
    fields: NDArray[np.int64],
    order: NDArray[np.int64],
    size: NDArray[np.int64],
    by_ranks: NDArray[np.bool_],
    by_suit: NDArray[np.bool_],
    by_outside: NDArray[np.uint16],
    on_ranks: NDArray[np.bool_],
    out: NDArray[np.int8],
) -> bool:
    """Each hand's second combination, hand by hand: the first category of ``order`` that
    some ``size`` of its cards hold by themselves, at least one of them outside its winning
    combination (``won``, as card bits); -1 where none. A hand's cards are its row's card
    ints (-1: no card). Category ``j`` of ``order`` is held by a set of n cards where
    ``by_ranks[j, n]`` holds at the number of their rank multiset (``base_low[n]``,
    ``id_high[n]``, ``fields`` as ``table_values`` reads them), or where ``by_suit[j, s]``
    holds at one suit's mask; a size of 0 is never looked for. Whole hands are tested
    first, their subsets only where the whole hand holds the category: for a category read
    on ranks alone (no suit's mask holds it), no subset is looked at but its ranks
    (``by_outside[j, n]`` at the whole hand's number, as bits of rank indices) are, one of
    them among the ranks outside the winning combination. False where a hand has more
    cards than the tables."""
    n, m = cards.shape
    low_field, high_shift, high_field = fields[0], fields[1], fields[2]
    most = by_ranks.shape[1] - 1
    held = np.empty(m, dtype=np.int64)
    pick = np.empty(m, dtype=np.int64)
    for r in range(n):
        out[r] = -1
        k = 0
        x = np.uint64(0)
        code = np.int64(0)
        for j in range(m):
            c = np.int64(cards[r, j])
            if c >= 0:
                held[k] = c
                k += 1
                x |= card_bit[c]
                code += card_code[c]
        outside = x & ~won[r]
        if outside == 0:
            continue
        if k > most:
            return False
        number = base_low[k, code & low_field] + id_high[k, (code >> high_shift) & high_field]
        o = outside | (outside >> np.uint64(16)) | (outside >> np.uint64(32))
        ranks_outside = np.uint16((o | (outside >> np.uint64(48))) & np.uint64(0x1FFF))
        s0, s1, s2, s3 = _suit_masks(x)  # the whole hand's, read once for every category
        for j in range(order.shape[0]):
            want = size[j]
            if want == 0 or want > k:
                continue
            if not _held_at(j, k, number, s0, s1, s2, s3, by_ranks, by_suit):
                continue
            if by_outside[j, k, number] & ranks_outside:
                out[r] = order[j]
                break
            if on_ranks[j]:
                continue  # no set of its cards with one outside holds it
            for i in range(want):  # the subsets of `want` cards, in combinations' order
                pick[i] = i
            found = False
            more = True
            while more:
                bits = np.uint64(0)
                sub = np.int64(0)
                for i in range(want):
                    bits |= card_bit[held[pick[i]]]
                    sub += card_code[held[pick[i]]]
                if bits & outside and _holds(
                    j, want, sub, bits, base_low, id_high, low_field, high_shift, high_field,
                    by_ranks, by_suit,
                ):  # fmt: skip
                    found = True
                    break
                i = want - 1
                while i >= 0 and pick[i] == i + k - want:
                    i -= 1
                if i < 0:
                    more = False
                else:
                    pick[i] += 1
                    for q in range(i + 1, want):
                        pick[q] = pick[q - 1] + 1
            if found:
                out[r] = order[j]
                break
    return True


@njit(cache=True, inline="always")
def _holds(
    j: int,
    k: int,
    code: np.int64,
    x: np.uint64,
    base_low: NDArray[np.int32],
    id_high: NDArray[np.int32],
    low_field: int,
    high_shift: int,
    high_field: int,
    by_ranks: NDArray[np.bool_],
    by_suit: NDArray[np.bool_],
) -> bool:
    """Whether ``k`` cards (their code and card bits) hold category ``j``: by their rank
    multiset's number, or by one of their suits' masks."""
    i = base_low[k, code & low_field] + id_high[k, (code >> high_shift) & high_field]
    s0, s1, s2, s3 = _suit_masks(x)
    return _held_at(j, k, i, s0, s1, s2, s3, by_ranks, by_suit)


@njit(cache=True, inline="always")
def _suit_masks(x: np.uint64) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """Card bits' four suits' masks."""
    m = np.uint64(0x1FFF)
    return (
        np.int64(x & m),
        np.int64((x >> np.uint64(16)) & m),
        np.int64((x >> np.uint64(32)) & m),
        np.int64((x >> np.uint64(48)) & m),
    )


@njit(cache=True, inline="always")
def _held_at(
    j: int,
    k: int,
    i: int,
    s0: np.int64,
    s1: np.int64,
    s2: np.int64,
    s3: np.int64,
    by_ranks: NDArray[np.bool_],
    by_suit: NDArray[np.bool_],
) -> bool:
    """Whether ``k`` cards hold category ``j``: by their rank multiset's number ``i``, or
    by one of their suits' masks ``s0`` to ``s3``."""
    return bool(
        by_ranks[j, k, i]
        or by_suit[j, 0, s0]
        or by_suit[j, 1, s1]
        or by_suit[j, 2, s2]
        or by_suit[j, 3, s3]
    )


@njit(cache=True)
def of_a_kind_cards(
    m0: NDArray[np.uint16],
    m1: NDArray[np.uint16],
    m2: NDArray[np.uint16],
    m3: NDArray[np.uint16],
    groups: NDArray[np.int8],
    counts: NDArray[np.int64],
    ok: NDArray[np.bool_],
    out: NDArray[np.uint16],
) -> None:
    """The cards forming each hand's rank groups, as suit masks into ``out`` (4, hands),
    zero where ``ok`` does not hold: of group ``g``'s rank (``groups[g]``, a rank index),
    ``counts[g]`` cards, the highest suits (``m3`` to ``m0``, each suit's rank mask)
    first."""
    n = ok.shape[0]
    for r in range(n):
        out[0, r] = out[1, r] = out[2, r] = out[3, r] = 0
        if not ok[r]:
            continue
        for g in range(groups.shape[0]):
            bit = np.uint16(1 << np.int64(groups[g, r]))
            left = counts[g]
            if left > 0 and m3[r] & bit:
                out[3, r] |= bit
                left -= 1
            if left > 0 and m2[r] & bit:
                out[2, r] |= bit
                left -= 1
            if left > 0 and m1[r] & bit:
                out[1, r] |= bit
                left -= 1
            if left > 0 and m0[r] & bit:
                out[0, r] |= bit
