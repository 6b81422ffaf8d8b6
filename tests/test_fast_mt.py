"""The kernels' Mersenne Twister (``fast.mt``) is the session's ``random.Random``: the same
shuffles of the same piles from the same state, and the same state after, for any seed,
any pile length, several shuffles in a row (the burn cards of § 553.10(h) and the discard
pile of § 553.13(g)(2) are shuffled by it inside the kernel)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.interpreter.poker.fast.mt import (
    genrand_uint32,
    randbelow,
    restore,
    shuffle,
    state_of,
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**64),
    st.integers(0, 700),
    st.lists(st.integers(0, 60), min_size=1, max_size=6),
)
def test_shuffles_in_a_row_equal_random_shuffle(seed: int, skip: int, lengths: list[int]) -> None:
    """Any seed, the generator anywhere in its 624-word block (``skip`` words drawn first,
    so a block's end falls inside a shuffle), piles of any length shuffled one after
    another: the same piles, the same state, and ``restore`` writes it back."""
    rng = random.Random(seed)
    for _ in range(skip):
        rng.getrandbits(32)
    state = state_of(rng)
    for n in lengths:
        pile = [(7 * k + n) % 53 for k in range(n)]
        arr = np.array([*pile, 99, 99], dtype=np.int64)  # shuffled only up to n
        shuffle(state, arr, n)
        rng.shuffle(pile)
        assert arr.tolist() == [*pile, 99, 99]
    assert state.tolist() == list(rng.getstate()[1])
    other = random.Random(0)
    restore(other, state)
    assert other.getstate() == rng.getstate()
    assert other.random() == rng.random()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 2**32 - 1))
def test_words_and_randbelow_equal_getrandbits(seed: int, bound: int) -> None:
    rng = random.Random(seed)
    state = state_of(rng)
    for _ in range(3):
        assert genrand_uint32(state) == rng.getrandbits(32)
        assert randbelow(state, bound) == rng._randbelow(bound)  # type: ignore[attr-defined]
    assert state.tolist() == list(rng.getstate()[1])
