"""Progressive meters in the batch engine: exact and sequential, hit by hit.

A meter cannot be vectorized without loss: each hit is paid from the meter as it stands
after the increments of the rounds before it (and its own round's), in the order the
chapter pays the players (§ 641a.12(d)(4)), a whole-meter hit resetting it
(``validator.interpreter.meters.reset``: one rule for both engines). A voided round adds no
increment (its increments are counted per round).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from validator.interpreter.batch_money import CENT, I64
from validator.interpreter.meters import reset


@dataclass
class BatchMeter:
    table: str
    name: str
    amount: int
    reseed: int
    reserve: int
    inc: Fraction
    res: Fraction
    reserve_on_reset: str = "funds_reseed"
    increments: int = 0  # to the meter
    reserve_increments: int = 0  # to its reserve
    start_reserve: int = 0
    paid: int = 0
    funded: int = 0
    hits: int = 0
    low: int = 0
    high: int = 0
    start: int = 0
    trajectory_sum: int = 0  # sum over rounds of the amount at the end of each round
    rounds: int = 0

    def __post_init__(self) -> None:
        self.low = self.high = self.start = self.amount
        self.start_reserve = self.reserve


def pay_meters(
    meters: dict[str, BatchMeter],
    events: list[tuple[Any, ...]],
    increments: dict[str, I64],
    reserve_increments: dict[str, I64],
    rounds: int,
    returned: dict[str, I64],
    meter_paid: I64,
) -> None:
    """Advance each meter round by round by its increments, and pay its hits in the order
    the chapter pays them (round, step, seat, line): each hit is paid from the meter as it
    stands then, a divided meter shared among the round's winners, a whole meter reset.
    ``returned`` (line → (rounds, seats)) and ``meter_paid`` (per round) get the payouts."""
    last = {k: -1 for k in meters}
    zero = np.zeros(rounds + 1, np.int64)
    # the increments before round r: inc_before[r] (of the meter), res_before[r] (reserve)
    inc_before = {
        k: np.concatenate([[0], np.cumsum(increments[k])]) if k in increments else zero
        for k in meters
    }
    res_before = {
        k: np.concatenate([[0], np.cumsum(reserve_increments[k])])
        if k in reserve_increments
        else zero
        for k in meters
    }

    def advance(key: str, r: int) -> None:
        """The increments of the rounds up to ``r`` (each round's before its hits)."""
        m = meters[key]
        first = last[key] + 1
        gap = r + 1 - first
        if gap > 0:
            before = inc_before[key]
            base = int(before[first])
            # the meter at the end of each round first..r, its hits aside
            m.trajectory_sum += gap * (m.amount - base) + int(before[first + 1 : r + 2].sum())
            inc = int(before[r + 1]) - base
            res = int(res_before[key][r + 1] - res_before[key][first])
            m.amount += inc
            m.reserve += res
            m.increments += inc
            m.reserve_increments += res
            m.high = max(m.high, m.amount)
            last[key] = r

    events = sorted(events, key=lambda e: (e[0], e[1], e[2], e[3]))
    pots: dict[tuple[int, str], int] = {}
    ways: dict[tuple[int, str], int] = {}
    for e in events:
        if e[8]:
            ways[(e[0], e[5])] = ways.get((e[0], e[5]), 0) + 1
    for r, _step, _rank, _lp, s, lid, table_id, payout, divide, _row in events:
        key = f"{table_id}/{payout.meter}"
        m = meters[key]
        advance(key, r)
        if divide and (r, lid) in pots:
            each = pots[(r, lid)]
        else:
            n = ways.get((r, lid), 1) if divide else 1
            each = int(Fraction(m.amount) * payout.share / n) // CENT * CENT
            paid = each * n
            m.paid += paid
            m.hits += 1
            if payout.share >= 1:
                m.amount, m.reserve, funded = reset(
                    m.amount, m.reserve, paid, m.reseed, m.reserve_on_reset
                )
                m.funded += funded
            else:
                m.amount -= paid
            m.low = min(m.low, m.amount)
            if divide:
                pots[(r, lid)] = each
        returned[lid][r, s] = each
        meter_paid[r] += each
    for key in meters:
        advance(key, rounds - 1)
        meters[key].rounds += rounds
