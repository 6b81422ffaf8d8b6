"""The batch evaluator's table lookups over hands given as rows of card ints, each in one
compiled pass over the hands (no slices, no temporaries the size of the batch but the
answers): a hand's additive code (its rank multiset and suit counts, a sum over its cards)
numbered among the multisets of its size, and the table read at that number; or a hand's
four suit masks, each read in a table of the suit's 8,192 masks. The tables and the codes
are the batch evaluator's (``validator.rankings.batch``); these loops only read them.
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
    base_low: NDArray[np.int32],
    id_high: NDArray[np.int32],
    fields: NDArray[np.int64],
    value: NDArray[Any],
    check: NDArray[np.bool_],
    out: NDArray[Any],
    general: NDArray[np.int64],
) -> int:
    """Each hand's value in a table of rank multisets (``out``): its code summed over its
    cards, numbered among the multisets of its size (``fields``: the low field's mask, the
    high field's shift and mask, the suit counts' shift), read there; and the hands the
    table does not answer (their suits might hold a category reading suits, or no category
    of the table is held) in ``general``, in order. Returns how many those are, or -1
    where a card is not 0..51."""
    n, k = cards.shape
    low_field, high_shift, high_field, suit_shift = fields[0], fields[1], fields[2], fields[3]
    last = value.shape[0] - 1
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
        if check[code >> suit_shift] or v < 0:
            general[g] = r
            g += 1
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
