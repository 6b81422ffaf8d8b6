"""Money on the poker path: integer cents, printed as exact dollars."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from validator.money import format_money

Cents = int


def to_cents(dollars: Decimal) -> Cents:
    """Exact dollars → cents; a fraction of a cent is refused."""
    cents = dollars * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"${dollars} is not a whole number of cents")
    return int(cents)


def dollars(cents: Cents) -> Decimal:
    return Decimal(cents) / 100


def money(cents: Cents) -> str:
    """``1000`` → ``10``; ``750`` → ``7.50``; ``-1225`` → ``-12.25`` (as round results print)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}"


def dollar_text(cents: Cents) -> str:
    """``$10``, ``$7.50``, ``$10,001``: for reasons written to a reader."""
    return format_money(Fraction(cents, 100))
