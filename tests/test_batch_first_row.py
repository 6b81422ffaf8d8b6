"""A table's rows read in one compiled pass (a strategy's decision, a settlement line): the
first row whose conditions hold at each round and seat is the one the rows read one by one
as masks give, whatever the comparisons (ranges open or closed, values among a set or not,
figures per seat or per round, the same figure read by several rows, more than 64 tests)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from validator.interpreter.batch_conditions import ChunkConditions, Comparison


class _State:
    def __init__(self, n: int, s: int) -> None:
        self.N, self.S = n, s


def _conditions(n: int, s: int) -> ChunkConditions:
    return ChunkConditions(None, _State(n, s), None)  # type: ignore[arg-type]


def _random_test(rng: np.random.Generator, figures: list[np.ndarray[Any, Any]]) -> Comparison:
    """A comparison of one of the figures, at values it holds and next to them."""
    values = figures[int(rng.integers(len(figures)))]
    top, bottom = np.iinfo(np.int64).max, np.iinfo(np.int64).min

    def near() -> int:
        v = int(values.flat[int(rng.integers(values.size))]) + int(rng.integers(-1, 2))
        return min(max(v, bottom), top)

    kind = int(rng.integers(4))
    if kind == 0:
        among = tuple(near() for _ in range(int(rng.integers(0, 4))))
        return Comparison(values, among, negate=bool(rng.integers(2)))
    a, b = sorted((near(), near()))
    if kind == 1:
        return Comparison(values, lo=a)
    if kind == 2:
        return Comparison(values, hi=b)
    return Comparison(values, lo=a, hi=b)


def _by_masks(rows: list[list[Comparison]], within: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    which = np.zeros(within.shape, np.int16)
    open_ = within.copy()
    for i, tests in enumerate(rows):
        m = open_.copy()
        for t in tests:
            m &= t.mask()
        which[m] = i + 1
        open_ &= ~m
    return which


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("many", [False, True])
def test_the_first_row_read_at_once_is_the_first_row_read_row_by_row(seed: int, many: bool) -> None:
    rng = np.random.default_rng(seed)
    n, s = int(rng.integers(1, 300)), int(rng.integers(1, 8))
    keys = rng.integers(-(1 << 40), 1 << 40, (n, s))
    keys[:, 0] = np.iinfo(np.int64).max  # the extremes of a key
    keys[-1, -1] = np.iinfo(np.int64).min + 1
    figures = [
        keys,
        rng.integers(-1, 12, (n, s)).astype(np.int8),  # a category held (-1: none)
        rng.integers(0, 2, (n, s)).astype(bool),  # a seat's fold
        np.broadcast_to(rng.integers(-1, 15, n)[:, None], (n, s)),  # per round, as seats
        rng.integers(0, 2, n).astype(bool),  # per round
        rng.integers(-1, 3, (n, 1)).astype(np.int8),  # per round, one column
    ]
    rows = [
        [_random_test(rng, figures) for _ in range(int(rng.integers(0, 4)))]
        for _ in range(40 if many else int(rng.integers(1, 12)))
    ]
    within = rng.random((n, s)) < 0.8
    got = _conditions(n, s).first_row(rows, within)
    assert got.dtype == np.int16
    assert (got == _by_masks(rows, within)).all()


def test_a_value_beyond_a_small_set_is_compared_exactly() -> None:
    """Values far from 0..63 (a key, a negative number) among a set or not."""
    values = np.array([[-5, 1 << 50, 63, 64]], np.int64)
    rows = [[Comparison(values, (1 << 50, 64))], [Comparison(values, (-5,), negate=True)], []]
    got = _conditions(1, 4).first_row(rows, np.ones((1, 4), bool))
    assert got.tolist() == [[3, 1, 2, 1]]
