"""Money in the batch engine: integer micro-dollars, exact.

A stake, a payout, a meter is an ``int64`` count of micro-dollars; a share or a payout that
would not be a whole number of them is refused (``InexactMoney``), never rounded silently,
and a payout is rounded down to the cent as the scalar engine pays it
(``validator.interpreter.meters.payout_of``).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from validator.errors import RulesubError
from validator.interpreter.batch_kernels import sums_of_rows

MICRO = 1_000_000
CENT = 10_000
I64 = NDArray[np.int64]
B = NDArray[np.bool_]


class InexactMoney(RulesubError, ValueError):
    """An amount the batch engine cannot hold exactly in micro-dollars: refused, never
    rounded silently (``rulesub simulate`` says so, exit 2)."""


def row_sums(a: I64) -> I64:
    """Each row's sum of an ``(N, S)`` array of micro-dollars: exact integer sums, as
    ``a.sum(axis=1)`` gives, in one compiled pass (several times faster over a few
    columns)."""
    if a.dtype != np.int64 or a.ndim != 2:
        return np.asarray(a.sum(axis=1))
    out = np.empty(a.shape[0], dtype=np.int64)
    sums_of_rows(np.ascontiguousarray(a), out)
    return out


def to_micro(d: Decimal | int) -> int:
    v = Decimal(d) * MICRO
    if v != v.to_integral_value():
        raise InexactMoney(f"${d} is not a whole number of micro-dollars")
    return int(v)


def from_micro(m: int) -> Decimal:
    return Decimal(int(m)) / MICRO


def frac_micro(amount: I64, r: Fraction) -> I64:
    """An exact share of micro-dollar amounts; a share that is not exact is refused."""
    if amount.size and amount.min() == amount.max():  # one amount: one product
        one = int(amount.flat[0]) * r.numerator
        if one % r.denominator == 0:
            return np.full_like(amount, one // r.denominator)
    num = amount * r.numerator
    if np.any(num % r.denominator):
        raise InexactMoney(
            f"a share of {r} of these wagers is not a whole number of micro-dollars; the "
            "simulation keeps money exact and cannot simulate it"
        )
    return num // r.denominator


def payout_micro(amount: I64, r: Fraction) -> I64:
    """A payout of ratio ``r`` on micro-dollar stakes, rounded down to the cent as the scalar
    engine pays it (``validator.interpreter.meters.payout_of``)."""
    if amount.size and amount.min() == amount.max():  # one stake: one payout
        one = int(amount.flat[0]) * r.numerator // r.denominator // CENT * CENT
        return np.full_like(amount, one)
    return (amount * r.numerator // r.denominator) // CENT * CENT
