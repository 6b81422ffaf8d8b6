"""Shuffled decks, many at once: the decks ``Generator.permuted`` deals, dealt faster.

A simulation deals each chunk's decks from its seeded generator (``chunks.chunk_rng``), as
``rng.permuted`` of rows ``0..51`` would: each row shuffled in turn, by Fisher and Yates
from its last card down, each position's swap drawn as numpy draws it (a 32-bit word masked
to the smallest power of two above the bound, drawn again while above it; the 64-bit
output split low half first, the high half kept for the next draw). ``shuffled_decks``
plays those same draws in one compiled loop over the generator's raw output, then leaves
the generator exactly where ``permuted`` would have left it, so that every later draw of
the chunk is the same too: the same seed deals the same cards, byte for byte. A generator
whose bit generator is not PCG64 (the one ``default_rng`` makes) is dealt by ``permuted``
itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

#: raw 64-bit words drawn per deck at first (a deck of 52 uses 35.7 on average, a chunk's
#: total within a few hundred words of it)
_WORDS_PER_DECK = 37


@njit(cache=True)
def _fisher_yates(
    raw: NDArray[np.uint64], has: int, kept: np.uint64, out: NDArray[np.integer[Any]]
) -> tuple[int, int, np.uint64]:
    """Shuffle each row of ``out`` (filled here with ``0..k-1``) from ``raw`` as numpy's
    ``random_interval`` draws; (words used, a half word kept?, the half word kept), or
    words used -1 where ``raw`` ran out.

    The 32-bit draws are read as one stream (the half word kept first, then each word's
    low half and its high half). A row's positions fall in runs that share the draw's mask
    (51 to 32 under 63, 31 to 16 under 31, ...): within a run each draw is accepted by
    arithmetic (the position steps down by the comparison, the draw written at the
    position either way: a draw refused is overwritten by the next), so that the only
    branch is a run's end. The row's swaps are then made from the draws kept."""
    n, k = out.shape
    low = np.uint64(0xFFFFFFFF)
    size = np.int64(raw.shape[0])
    drawn = np.empty(max(k, 1), dtype=np.int64)
    q = np.int64(-1) if has else np.int64(0)  # the next half word; -1: the one kept
    for r in range(n):
        i = np.int64(k - 1)
        while i > 0:
            mask = np.int64(1)
            while mask < i:
                mask = (mask << 1) | 1
            lo = (mask + 1) >> 1
            while i >= lo:
                if q < 0:
                    value = np.int64(kept & low)
                else:
                    w = q >> 1
                    if w >= size:
                        return -1, has, kept
                    value = np.int64((raw[w] >> np.uint64((q & 1) * 32)) & low)
                q += 1
                value &= mask
                drawn[i] = value
                i -= np.int64(value <= i)
        for c in range(k):
            out[r, c] = c
        for p in range(k - 1, 0, -1):
            j = drawn[p]
            t = out[r, p]
            out[r, p] = out[r, j]
            out[r, j] = t
    if q <= 0:  # no word read
        return 0, has if q < 0 else 0, kept
    used = int((q + 1) >> 1)
    return used, int(q & 1), np.uint64(raw[used - 1] >> np.uint64(32))


def shuffled_decks(
    rng: np.random.Generator, n: int, cards: int = 52, dtype: type[np.integer[Any]] = np.int8
) -> NDArray[Any]:
    """``n`` shuffled decks of ``cards`` card ints (of ``dtype``): exactly
    ``rng.permuted(np.tile(np.arange(cards), (n, 1)), axis=1)``, the generator left where
    that leaves it."""
    bg = rng.bit_generator
    if np.iinfo(dtype).max < cards - 1:
        raise ValueError(f"{cards} cards do not fit {np.dtype(dtype).name}")
    if type(bg) is not np.random.PCG64 or not 0 < cards <= 1 << 31:
        return rng.permuted(np.tile(np.arange(cards, dtype=dtype), (n, 1)), axis=1)
    start = bg.state
    out = np.empty((n, cards), dtype=dtype)
    words = n * _WORDS_PER_DECK + 64
    while True:
        raw = bg.random_raw(words)
        used, has, kept = _fisher_yates(
            raw, int(start["has_uint32"]), np.uint64(start["uinteger"]), out
        )
        bg.state = start
        if used >= 0:
            break
        words *= 2
    bg.advance(used)
    end = bg.state
    end["has_uint32"] = int(has)
    end["uinteger"] = int(kept)
    bg.state = end
    return out
