"""The regulation's figures, parsed exactly: payouts, money, rates.

Payout notation as the chapters print it::

    25 to 1        net +25 per unit wagered
    3 to 2         net +3/2
    300 for 1      returns 300 including the stake: net +299
    push           the wager is returned
    100% of meter  a share of the named meter (``meter`` is the primary one)
    10% of meter
    100% mega jackpot / 100% of mega jackpot
    $100           a fixed sum (an Envy Bonus: paid without a stake of its own)
    N/A            not offered in that table

No float is ever produced: odds are ``Fraction``, money ``Decimal``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction

from validator.errors import RulesubError
from validator.loader import written


class NotationError(RulesubError, ValueError):
    """A figure that does not follow the regulation's notation."""


class PayoutKind(StrEnum):
    TO = "to"  # a to b: net win a/b per unit
    FOR = "for"  # a for b: returns a/b per unit, stake included
    PUSH = "push"
    METER = "meter"  # a share of a progressive meter
    FIXED = "fixed"  # a fixed sum of money
    NA = "na"  # not offered in this table


#: The largest amount of money any figure may state. No table takes a wager, seeds a meter
#: or limits a payout anywhere near $1,000,000,000; a larger figure is a mistake (or an
#: attack on the arithmetic), and refusing it keeps every engine's money exact.
MAX_MONEY = Decimal(1_000_000_000)
#: The largest figure of a payout ratio (``a to b``): the chapters print at most 8000 to 1.
MAX_RATIO_FIGURE = 1_000_000

# Figures are ASCII decimal digits only: ``\d`` would take "٥٠" or "５０" as 50.
_NUM = r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+"
_RATIO = re.compile(rf"^\s*({_NUM})\s+(to|for)\s+({_NUM})\s*$", re.IGNORECASE)
_METER = re.compile(
    r"^\s*([0-9]+(?:\.[0-9]+)?)\s*%\s+(?:of\s+)?(?:the\s+)?(?:(meter)|([a-z]+)\s+jackpot)\s*$",
    re.IGNORECASE,
)
_MONEY = re.compile(r"^\s*\$?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]{1,2})?\s*$")
_RATE = re.compile(r"^\s*([0-9]{1,3}(?:\.[0-9]{1,6})?)\s*%\s*$")
_PER_UNIT = re.compile(rf"^\s*\$\s*({_NUM})(\.[0-9]{{1,2}})?\s+for\s+1\s*$", re.IGNORECASE)
_NA = {"n/a", "na", "-", "—"}


def _int(text: str) -> int:
    return int(text.replace(",", ""))


@dataclass(frozen=True, slots=True)
class Payout:
    """One cell of a paytable, exact."""

    kind: PayoutKind
    text: str
    ratio: Fraction = Fraction(0)  # TO: net per unit; FOR: return per unit
    share: Fraction = Fraction(0)  # METER: the share of the meter
    meter: str = ""  # METER: which meter ("primary", "mega", "major", "minor")
    amount: Decimal = Decimal(0)  # FIXED: the sum

    def __str__(self) -> str:
        return self.text

    @property
    def pays(self) -> bool:
        """Whether this cell is a payout at all (N/A is not)."""
        return self.kind is not PayoutKind.NA

    @property
    def is_win(self) -> bool:
        """Whether the player comes out ahead on this cell (a push is not a win)."""
        return self.kind in (PayoutKind.TO, PayoutKind.FOR, PayoutKind.METER, PayoutKind.FIXED)

    def net_units(self, meter_units: Fraction | None = None) -> Fraction:
        """Net result per unit wagered. ``meter_units``: the meter's value per unit wagered.

        A FOR payout and a meter share include the stake (it was taken when the wager was
        placed), so the net is the return less the unit. A FIXED sum is paid on no stake of
        its own and is therefore not expressible per unit: it raises.
        """
        match self.kind:
            case PayoutKind.TO:
                return self.ratio
            case PayoutKind.FOR:
                return self.ratio - 1
            case PayoutKind.PUSH:
                return Fraction(0)
            case PayoutKind.METER:
                if meter_units is None:
                    raise NotationError(f"{self.text!r} needs the meter's value")
                return self.share * meter_units - 1
            case PayoutKind.NA:
                return Fraction(-1)
            case PayoutKind.FIXED:
                raise NotationError(f"{self.text!r} is a fixed sum, not odds on a wager")
        raise AssertionError(self.kind)  # pragma: no cover

    def net(self, stake: Decimal, meter_value: Decimal | None = None) -> Decimal:
        """Net money won on ``stake`` (``meter_value``: the meter's amount in dollars)."""
        match self.kind:
            case PayoutKind.TO:
                return stake * self.ratio.numerator / self.ratio.denominator
            case PayoutKind.FOR:
                return stake * self.ratio.numerator / self.ratio.denominator - stake
            case PayoutKind.PUSH:
                return Decimal(0)
            case PayoutKind.METER:
                if meter_value is None:
                    raise NotationError(f"{self.text!r} needs the meter's amount")
                share = meter_value * self.share.numerator / self.share.denominator
                return share - stake
            case PayoutKind.FIXED:
                return self.amount
            case PayoutKind.NA:
                return -stake
        raise AssertionError(self.kind)  # pragma: no cover


def parse_payout(value: object) -> Payout:
    """Parse one paytable cell. Raises ``NotationError`` with what was expected."""
    if isinstance(value, Payout):
        return value
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise NotationError(
            f"payout {written(value)}: expected text like '25 to 1', '300 for 1', 'push', "
            "'100% of meter', '$100' or 'N/A'"
        )
    text = str(value).strip()
    low = text.lower()
    if low in _NA:
        return Payout(PayoutKind.NA, "N/A")
    if low == "push":
        return Payout(PayoutKind.PUSH, "push")
    if m := _RATIO.match(text):
        a, word, b = _int(m.group(1)), m.group(2).lower(), _int(m.group(3))
        if max(a, b) > MAX_RATIO_FIGURE:
            raise NotationError(
                f"payout {text!r}: a figure over {MAX_RATIO_FIGURE:,}; the chapters' largest "
                "payout is 8000 to 1"
            )
        if b == 0:
            raise NotationError(f"payout {text!r}: the second figure cannot be 0")
        kind = PayoutKind.TO if word == "to" else PayoutKind.FOR
        if kind is PayoutKind.TO and a == 0:
            raise NotationError(f"payout {text!r}: nothing is won; write 'push' or 'N/A'")
        if kind is PayoutKind.FOR and a < b:
            raise NotationError(f"payout {text!r}: 'for' returns less than the stake")
        if kind is PayoutKind.FOR and a == b:  # the stake back: a push, never a win
            raise NotationError(f"payout {text!r}: returns only the stake; write 'push'")
        return Payout(kind, f"{m.group(1)} {word} {m.group(3)}", ratio=Fraction(a, b))
    if m := _METER.match(text):
        share = Fraction(m.group(1))
        if not 0 < share <= 100:
            raise NotationError(f"payout {text!r}: a meter share is between 0% and 100%")
        meter = "primary" if m.group(2) else m.group(3).lower()
        return Payout(PayoutKind.METER, text, share=share / 100, meter=meter)
    if text.startswith("$") and (m := _MONEY.match(text)):
        return Payout(PayoutKind.FIXED, text, amount=parse_money(text))
    raise NotationError(
        f"payout {text!r}: expected '25 to 1', '3 to 2', '300 for 1', 'push', "
        "'100% of meter', '100% of mega jackpot', '$100' or 'N/A'"
    )


def parse_money(value: object) -> Decimal:
    """``5000``, ``"$5,000"``, ``"$10.50"`` → ``Decimal``. A float is refused."""
    if isinstance(value, Decimal):
        if not value.is_finite() or value < 0:
            raise NotationError(f"money {value}: expected a number of dollars")
        return _bounded(value, value)
    if isinstance(value, bool):  # YAML's true/false (yes/no in older YAML), not an amount
        raise NotationError(
            f"money {str(value).lower()}: a yes or no, not an amount; write whole dollars or a "
            "string like '$10.50'"
        )
    if isinstance(value, float):
        raise NotationError(f"money {value}: write whole dollars or a string like '$10.50'")
    if isinstance(value, int):
        if value < 0:
            raise NotationError(f"money {value!r}: cannot be negative")
        if value > MAX_MONEY:  # checked before Decimal(): a huge int stays cheap
            return _bounded(MAX_MONEY + 1, value)
        return Decimal(value)
    if isinstance(value, str) and len(value) <= 64 and (m := _MONEY.match(value)):
        return _bounded(Decimal(m.group(1).replace(",", "") + (m.group(2) or "")), value)
    shown = written(value) if not isinstance(value, str) or len(value) <= 64 else "(a long text)"
    raise NotationError(
        f"money {shown}: expected a number of dollars (ASCII digits) or a string like '$5,000'"
    )


def _bounded(amount: Decimal, written: object) -> Decimal:
    if amount > MAX_MONEY:
        shown = str(written) if len(str(written)) <= 32 else f"{str(written)[:12]}…"
        raise NotationError(
            f"money {shown}: more than {format_money(MAX_MONEY)}; no table takes a wager, seeds "
            "a meter or limits a payout anywhere near that"
        )
    return amount


def parse_rate(value: object) -> Fraction:
    """``"29%"`` → ``Fraction(29, 100)``. A bare number is refused: it is ambiguous."""
    if isinstance(value, str) and len(value) <= 64 and (m := _RATE.match(value)):
        return Fraction(m.group(1)) / 100
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise NotationError(f"rate {value!r}: write the rate with a percent sign, e.g. '{value}%'")
    raise NotationError(f"rate {written(value)}: expected a percentage like '25%'")


def parse_per_unit(value: object) -> Decimal:
    """``"$5,000 for 1"`` (per unit wagered) → ``Decimal(5000)``; ``"$0"`` → 0."""
    if isinstance(value, str) and len(value) <= 64 and (m := _PER_UNIT.match(value)):
        return _bounded(Decimal(m.group(1).replace(",", "") + (m.group(2) or "")), value)
    try:
        return parse_money(value)
    except NotationError:
        raise NotationError(
            f"amount {written(value)}: expected an amount per unit wagered like '$5,000 for 1'"
        ) from None


def format_money(amount: Decimal) -> str:
    """``Decimal(100000)`` → ``$100,000``, ``Decimal(-238470)`` → ``-$238,470``; to the cent
    (half up), cents shown only when there are any (``validator.money.format_money``)."""
    from validator.money import format_money as printed

    return printed(amount)


def format_rate(rate: Fraction) -> str:
    pct = rate * 100
    if pct.denominator == 1:
        return f"{pct.numerator}%"
    try:
        return f"{Decimal(pct.numerator) / Decimal(pct.denominator):f}%"
    except InvalidOperation:  # pragma: no cover
        return f"{pct}%"


def stated_range(low: str, high: str) -> str:
    """The Board's stated hold as every document prints it: one figure (``23%``) where it
    is one, else its range (``5.3%–11.6%``), both ends to the same places, as the preamble
    prints them ("between 6.6% and 13.0%", where a figure read back is ``13%``)."""
    if low == high:
        return low
    places = max(_places(low), _places(high))
    return f"{_to_places(low, places)}–{_to_places(high, places)}"


def _places(figure: str) -> int:
    """The decimal places of a printed percentage: ``13.0%`` 1, ``23%`` 0."""
    number = figure.rstrip("%")
    return len(number.partition(".")[2])


def _to_places(figure: str, places: int) -> str:
    """A printed percentage written to ``places``, zeros added (never a digit cut)."""
    number = figure.rstrip("%")
    whole, _, part = number.partition(".")
    if not places or len(part) >= places or not whole.isdigit():
        return figure
    return f"{whole}.{part.ljust(places, '0')}%"
