"""Progressive meters, with money conserved.

Each wager placed on a progressive table adds ``increment`` of its amount to the meter and
``reserve_increment`` to the reserve. A hit pays a share of the meter, to the cent, rounded
down; what the share leaves stays on the meter. A hit of the whole meter (100%) resets it to
the reseed, funded first from the reserve and then by the certificate holder (where the
game file says the reserve moves onto the meter at a reset, all of it does: ``reset``); a
payout that could not be divided to the cent (a jackpot shared by several players) leaves
its remainder on the meter after the reset. Every movement is counted, so that for any span
of rounds::

    meter after - meter before = increments + reseed funding - payouts
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction
from typing import TypeVar

from validator.interpreter.config import MeterConfig

CENT = Decimal("0.01")
M = TypeVar("M", Decimal, int)  # dollars (the scalar engine) or micro-dollars (the batch one)


def frac_of(amount: Decimal, share: Fraction) -> Decimal:
    """An exact share of an amount (the shares here are decimal fractions)."""
    return amount * share.numerator / share.denominator


def floor_cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


def reset(amount: M, reserve: M, paid: M, reseed: M, rule: str) -> tuple[M, M, M]:
    """A meter paid in full, reset: (its new amount, its reserve, what the certificate
    holder funds). The reserve funds the reseed first; under ``moves_to_meter`` the whole
    reserve moves onto the meter (the reseed, or more). What the payout left on the meter
    stays on it. Both engines reset a meter here (dollars, or integer micro-dollars)."""
    remainder = amount - paid
    if rule == "moves_to_meter":
        nothing = reserve - reserve
        return remainder + max(reseed, reserve), nothing, max(reseed - reserve, nothing)
    from_reserve = min(reserve, reseed)
    return reseed + remainder, reserve - from_reserve, reseed - from_reserve


#: How a payout that is not a whole number of cents is paid. The chapters state payout odds
#: (``7 to 3``) and no rounding; the table pays in money, whose smallest unit is the cent, so
#: the payout is rounded down to the cent, as the meters' shares are, and the settlement
#: says so.
PAYOUT_ROUNDING = (
    "rounded down to the cent (the chapter states no rounding; money is paid in cents)"
)


def payout_of(stake: Decimal, ratio: Fraction) -> tuple[Decimal, Fraction]:
    """(paid, exact): ``stake`` times ``ratio`` exactly, and paid rounded down to the cent."""
    exact = Fraction(stake) * ratio
    cents = exact.numerator * 100 // exact.denominator
    return Decimal(cents) / 100, exact


@dataclass
class Meter:
    table: str
    name: str
    config: MeterConfig
    amount: Decimal
    reserve: Decimal = Decimal(0)
    # running totals
    increments: Decimal = Decimal(0)
    reserve_increments: Decimal = Decimal(0)
    paid: Decimal = Decimal(0)
    funded: Decimal = Decimal(0)  # reseeds paid by the certificate holder
    hits: int = 0
    low: Decimal = field(default=Decimal(0))
    high: Decimal = field(default=Decimal(0))

    def __post_init__(self) -> None:
        self.low = self.high = self.amount

    @property
    def key(self) -> str:
        return f"{self.table}/{self.name}"

    def contribute(self, stake: Decimal) -> Decimal:
        """The increments from one wager; returns the money taken from the wager."""
        inc = frac_of(stake, self.config.increment)
        res = frac_of(stake, self.config.reserve_increment)
        self.amount += inc
        self.reserve += res
        self.increments += inc
        self.reserve_increments += res
        self.high = max(self.high, self.amount)
        return inc + res

    def pay(self, share: Fraction, ways: int = 1) -> Decimal:
        """Pay ``share`` of the meter divided ``ways`` ways: the amount each is paid. The whole
        meter paid resets it; the undivided remainder stays on it."""
        total = frac_of(self.amount, share)
        each = floor_cents(total / ways)
        paid = each * ways
        self.paid += paid
        self.hits += 1
        if share >= 1:
            self.amount, self.reserve, funded = reset(
                self.amount, self.reserve, paid, self.config.reseed, self.config.reserve_on_reset
            )
            self.funded += funded
        else:
            self.amount -= paid
        self.low = min(self.low, self.amount)
        return each


class MeterBank:
    """The table's meters, by ``table/meter``."""

    def __init__(self, meters: dict[str, Meter]) -> None:
        self.meters = meters

    def get(self, table: str, name: str) -> Meter:
        return self.meters[f"{table}/{name}"]

    def for_table(self, table: str) -> list[Meter]:
        return [m for m in self.meters.values() if m.table == table]

    def snapshot(self) -> dict[str, dict[str, Decimal]]:
        out: dict[str, dict[str, Decimal]] = {}
        for m in self.meters.values():
            out.setdefault(m.table, {})[m.name] = m.amount
        return out
