"""The session's ``random.Random`` inside the Poker kernels: CPython's Mersenne Twister
(MT19937) word for word, so that a pile the kernel shuffles (the burn cards for the Stud
common card, § 553.10(h); the discard pile for the draw, § 553.13(g)(2)) is the pile
``table.Hand`` shuffles with ``rng.shuffle``, and the generator is left where it leaves it.

The state is an int64 array of ``STATE_SIZE`` entries: the 624 words of ``rng.getstate()``
and the index of the next word, as CPython keeps them. ``shuffle`` is ``Random.shuffle``:
Fisher-Yates from the end, each ``j`` drawn by ``_randbelow_with_getrandbits``
(``getrandbits(k)``, k the bit length of the bound, drawn again while out of range).
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from validator.interpreter.poker.fast import Ints

N, M = 624, 397
STATE_SIZE = N + 1
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF
_VERSION = 3  # ``random.Random.VERSION``


def state_of(rng: random.Random) -> Ints:
    """The generator's state as the kernels take it."""
    version, words, _gauss = rng.getstate()
    assert version == _VERSION and len(words) == STATE_SIZE
    return np.array(words, dtype=np.int64)


def restore(rng: random.Random, state: Ints) -> None:
    """``rng`` set to the state a kernel advanced (the next Gaussian forgotten, as
    ``shuffle`` leaves it untouched and the Poker session draws none)."""
    rng.setstate((_VERSION, tuple(int(w) for w in state), None))


@njit(cache=True)
def _twist(mt):  # type: ignore[no-untyped-def]
    for kk in range(N):
        y = (mt[kk] & _UPPER) | (mt[(kk + 1) % N] & _LOWER)
        v = mt[(kk + M) % N] ^ (y >> 1)
        if y & 1:
            v ^= _MATRIX_A
        mt[kk] = v


@njit(cache=True)
def genrand_uint32(state):  # type: ignore[no-untyped-def]
    """The next 32-bit word (``genrand_uint32`` of CPython's ``_randommodule.c``)."""
    if state[N] >= N:
        _twist(state)
        state[N] = 0
    y = state[state[N]]
    state[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _WORD


@njit(cache=True)
def randbelow(state, n):  # type: ignore[no-untyped-def]
    """``Random._randbelow_with_getrandbits(n)`` for 0 < n < 2**32."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = genrand_uint32(state) >> (32 - k)
    while r >= n:
        r = genrand_uint32(state) >> (32 - k)
    return r


@njit(cache=True)
def shuffle(state, pile, n):  # type: ignore[no-untyped-def]
    """``Random.shuffle`` of ``pile[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = randbelow(state, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
