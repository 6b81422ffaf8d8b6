"""Sums of moments over rounds, and the confidence intervals read from them: the one home of
the estimators behind every simulated figure (``rulesub simulate``, the par sheet's simulated
rows, the Poker room's rake and Bad Beat figures).

A result X (the players' net) and a handle H (the money wagered) are summed per round with
their squares and cross product. The hold X/H and its standard error come from the ratio
estimator (every seat of a round shares the dealer's hand, so the round is the independent
unit); a per-hand amount's mean from its count, sum and sum of squares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

#: The two-sided 95% quantile of the normal distribution, Φ⁻¹(0.975) = 1.95996398454005423…,
#: as the statistical libraries give it (within one unit in the last place): the one z of
#: every 95% interval rulesub prints (``rulesub simulate``, the par sheet, the Poker room).
Z95 = 1.959963984540054

S = TypeVar("S")


def add_sums(into: S, other: S) -> S:
    """Add ``other``'s sums into ``into``, field by field (a dataclass of sums: one chunk's
    added to the running total, in chunk order)."""
    target: Any = into
    for f in fields(target):
        setattr(target, f.name, getattr(target, f.name) + getattr(other, f.name))
    return into


def ratio_estimate(x: float, h: float, xx: float, xh: float, hh: float) -> tuple[float, float]:
    """(X/H, its standard error) by the ratio estimator from the sums of X, H, X², XH, H²
    over rounds; ``h`` is not zero."""
    r = x / h
    var = max(xx - 2 * r * xh + r * r * hh, 0.0)
    return r, math.sqrt(var) / h


def mean_half_width(n: int, s: int, ss: int) -> float:
    """``Z95`` standard errors of the mean of an amount from its count, sum and sum
    of squares (exact integers: the variance is a Fraction until the square root)."""
    if n < 2:
        return 0.0
    var = (ss - Fraction(s * s, n)) / (n - 1)
    return Z95 * math.sqrt(max(float(var), 0.0) / n)


@dataclass
class Moments:
    """Integer sums over rounds of a result X and a handle H (micro-dollars)."""

    n: int = 0
    h: int = 0
    x: int = 0
    xx: int = 0
    xh: int = 0
    hh: int = 0

    def add_arrays(self, x: np.ndarray, h: np.ndarray) -> None:
        xo = x.astype(object)
        ho = h.astype(object)
        self.n += int(x.shape[0])
        self.h += int(h.sum())
        self.x += int(x.sum())
        self.xx += int((xo * xo).sum())
        self.xh += int((xo * ho).sum())
        self.hh += int((ho * ho).sum())

    def __iadd__(self, o: Moments) -> Moments:
        return add_sums(self, o)

    def ratio(self) -> tuple[float, float] | None:
        """(X/H, its standard error) by the ratio estimator; ``None`` without handle."""
        if self.h == 0 or self.n == 0:
            return None
        return ratio_estimate(self.x, self.h, self.xx, self.xh, self.hh)

    def sd_per_unit(self) -> float | None:
        """The standard deviation of a round's result per unit of mean handle."""
        if self.n < 2 or self.h == 0:
            return None
        mean = self.x / self.n
        var = (self.xx - self.n * mean * mean) / (self.n - 1)
        return math.sqrt(max(var, 0.0)) / (self.h / self.n)
