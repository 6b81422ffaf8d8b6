"""One home for the sums of moments and the intervals read from them
(validator.interpreter.moments): simulate, the par sheet and the Poker room agree."""

from __future__ import annotations

import math

import numpy as np

from validator.interpreter.moments import Z95, Moments, mean_half_width, ratio_estimate
from validator.interpreter.simulate import Acc


def test_the_par_sheet_and_the_poker_room_use_the_one_accumulator() -> None:
    from validator.par import poker, simulated

    assert simulated.Moments is Moments
    assert simulated.Z95 == poker.Z95 == Z95 == 1.959963984540054


def test_the_ratio_estimator_by_hand() -> None:
    # rounds (x, h): (-1, 1), (1, 1), (-2, 2): X/H = -2/4, residuals x - r h = -0.5, 1.5, -1
    x, h = np.array([-1, 1, -2]), np.array([1, 1, 2])
    m = Moments()
    m.add_arrays(x, h)
    r, se = m.ratio() or (0.0, 0.0)
    assert r == -0.5
    assert math.isclose(se, math.sqrt(0.25 + 2.25 + 1.0) / 4)
    assert ratio_estimate(m.x, m.h, m.xx, m.xh, m.hh) == (r, se)


def test_simulate_reads_its_hold_through_the_same_estimator() -> None:
    acc = Acc()
    acc.add(np.array([-1, 1, -2]), np.array([1, 1, 2]))
    hold, low, high = acc.hold() or (0.0, 0.0, 0.0)
    r, se = ratio_estimate(-2, 4, 6, -4, 6)
    assert hold == -100 * r == 50.0
    assert (low, high) == (hold - 100 * Z95 * se, hold + 100 * Z95 * se)


def test_the_half_width_of_a_mean() -> None:
    # amounts 1, 3: mean 2, sample variance 2, standard error 1
    assert mean_half_width(2, 4, 10) == Z95 * 1.0
    assert mean_half_width(1, 5, 25) == 0.0


def test_sums_add_field_by_field_in_every_accumulator() -> None:
    from validator.par.poker import Sum2

    a, b = Moments(1, 2, 3, 4, 5, 6), Moments(10, 20, 30, 40, 50, 60)
    a += b
    assert a == Moments(11, 22, 33, 44, 55, 66)
    s = Sum2(1, 5, 25)
    s += Sum2(2, 4, 10)
    assert (s.n, s.s, s.ss) == (3, 9, 35)
    acc, part = Acc(), Acc()
    part.add(np.array([-1, 3]), np.array([1, 2]))
    acc.merge(part)
    acc.merge(part)
    assert (acc.handle, acc.net, acc.sx, acc.sxx, acc.sxh, acc.shh) == (6, 4, 4.0, 20.0, 10.0, 10.0)
