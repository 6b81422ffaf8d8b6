"""The batch evaluator's tables over the 8,192 rank masks, built by numpy, against their
definitions written mask by mask."""

from __future__ import annotations

import pytest

from validator.rankings import batch

MASKS = range(1 << 13)


def ranks_high_first(mask: int) -> list[int]:
    """Rank indices (0 for a 2 … 12 for an ace) of a mask, highest first."""
    return [r for r in range(12, -1, -1) if mask >> r & 1]


@pytest.mark.parametrize("k", [1, 3, 5, 7])
def test_highest_ranks_tables(k: int) -> None:
    digits, masks = batch._top_digits(k), batch._top_mask(k)
    for m in MASKS:
        top = ranks_high_first(m)[:k]
        value = 0
        for r in top + [-2] * (k - len(top)):  # a missing rank is the digit 0
            value = value << 4 | (r + 2)
        assert int(digits[m]) == value, m
        assert int(masks[m]) == sum(1 << r for r in top), m


@pytest.mark.parametrize(("n", "ace_low"), [(5, True), (5, False), (3, True), (4, False)])
def test_run_top_table(n: int, ace_low: bool) -> None:
    """The top rank of the highest run of n ranks; A-2-3-4-5 tops at 5 where the ace plays
    low (§ 589.6(b): the ace is high or low in a straight)."""
    table = batch._run_top(n, ace_low)
    for m in MASKS:
        ranks = {r + 2 for r in ranks_high_first(m)}
        if ace_low and 14 in ranks:
            ranks.add(1)
        tops = [t for t in range(14, 0, -1) if all(t - j in ranks for j in range(n))]
        assert int(table[m]) == (tops[0] if tops else 0), m


def test_count_tables() -> None:
    pop, high, spread = batch._popcount(), batch._highbit(), batch._spread(7)
    for m in MASKS:
        ranks = ranks_high_first(m)
        assert int(pop[m]) == len(ranks)
        assert int(high[m]) == (ranks[0] if ranks else -1)
        assert int(spread[m]) == sum(7 << (4 * r) for r in ranks)
