"""The progressive wagers a submission offers: the wager amount and each meter's seed,
reseed and incrementation rates."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, PlainSerializer

from validator.model.base import Money, Rate
from validator.model.notation import format_rate, parse_rate
from validator.model.submission.part import Part


def _rate_or_na(value: Any) -> Fraction:
    """A reserve increment: ``"5%"``, or ``N/A`` for none (read as 0%)."""
    if isinstance(value, str) and value.strip().upper() in ("N/A", "NA"):
        return Fraction(0)
    return parse_rate(value)


RateOrNA = Annotated[
    Fraction, BeforeValidator(_rate_or_na), PlainSerializer(format_rate, return_type=str)
]


class Meter(Part):
    seed: Money | None = None
    reseed: Money | None = None
    increment: Rate | None = None
    reserve_increment: RateOrNA | None = None


class Progressive(Part):
    wager_amount: Money | None = Field(default=None, gt=0)
    meters: dict[str, Meter] | None = None
