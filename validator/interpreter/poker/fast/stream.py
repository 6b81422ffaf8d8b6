"""A Poker session's random stream: words drawn from numpy's ``Generator``, seeded as every
other simulation (``validator.interpreter.chunks``), read in order by every shuffle of the
session: the deck before each round and the piles reshuffled in a round (the burn cards for
the Stud common card, § 553.10(h); the discard pile for the draw, § 553.13(g)(2)), whether
the round is logged (``play``) or not (``simulate``, ``par``).

The kernels read it as an int64 array: ``stream[AT]`` the index of the next unread word, the
words after (each the top 62 bits of one 64-bit output). A round that runs out of words is
handed back with ``stream[AT]`` untouched and dealt again from the same words and more.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from validator.interpreter.poker.fast import Ints

#: ``stream[AT]``: the index of the next unread word
AT = 0
#: each word is uniform in [0, SPAN)
SPAN = 1 << 62
#: words drawn from the generator at a time (a block of rounds reads about 60 a round)
REFILL = 1 << 15


@njit("int64(int64[::1], int64, int64[::1], int64)", cache=True)
def shuffle(stream, at, pile, n):  # type: ignore[no-untyped-def]
    """``pile[:n]`` shuffled in place, Fisher-Yates from the end, each position exactly uniform
    (a word at or above the largest multiple of the bound drawn again), from the words read
    from ``at``; the index after the last read, or -1 where they ran out (the pile partly
    shuffled: the caller starts again from its own copy)."""
    end = stream.shape[0]
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = SPAN - SPAN % bound
        while True:
            if at >= end:
                return -1
            word = stream[at]
            at += 1
            if word < limit:
                break
        j = word % bound
        pile[i], pile[j] = pile[j], pile[i]
    return at


class Stream:
    """The session's random words, drawn from ``rng`` as they are needed: ``words`` is the
    array the kernels read (``stream[0]`` the next unread index); ``read`` counts the words
    read since the start, so two sessions that read the same count from the same seed stand
    at the same place in it."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.words: Ints = np.ones(1, dtype=np.int64)
        self._read_before = 0  # the words read out of arrays since replaced

    @property
    def read(self) -> int:
        return self._read_before + int(self.words[AT]) - 1

    def ensure(self, n: int) -> Ints:
        """``words`` with at least ``n`` unread words (more drawn where fewer are left)."""
        w = self.words
        at = int(w[AT])
        if w.shape[0] - at >= n:
            return w
        fresh = self.rng.integers(0, SPAN, size=max(n, REFILL), dtype=np.int64)
        self._read_before += at - 1
        self.words = np.concatenate((np.ones(1, dtype=np.int64), w[at:], fresh))
        return self.words
