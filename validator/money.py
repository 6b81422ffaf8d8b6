"""Money, in one place: to cents, and printed, each with one rounding rule per use.

Reading the regulation's figures (``"$5,000"``) is the notation's job
(``validator.model.notation.parse_money``); everything after that is here.

Two rounding rules, one per use, and no other:

- **payouts round down to the cent** (:func:`payout_cents`): the chapters state payout odds
  and no rounding, and the table pays in money whose smallest unit is the cent; a meter's
  share is rounded the same way. ``$0.019`` pays ``$0.01``.
- **displayed figures round half up to the cent** (:func:`display_cents`): a mean, a
  break-even meter, an expected reserve, a simulated total shown to a reader. Half up means
  away from zero: ``$0.005`` shows ``$0.01``, ``-$0.005`` shows ``-$0.01``.

Printed, money is ``$1,234.50``, a loss ``-$2,370,150.00`` (the sign before the dollar
sign, thousands separated by commas): :func:`format_money` is the one function every
printer uses. :func:`plain_money` is the same figure without ``$`` or commas, for JSON.
A round's money is exact, never rounded: :func:`exact_figure` in its JSON record,
:func:`exact_money` where a meter's sub-cent share is printed.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from fractions import Fraction

#: A cent, the smallest unit money is paid in.
CENT = Decimal("0.01")

#: Anything money is held as: exact figures only, never a float.
Amount = Decimal | Fraction | int


def _exact(amount: Amount | str) -> Fraction:
    if isinstance(amount, float):  # pragma: no cover - a programming error, never input
        raise TypeError("money is never a float")
    return Fraction(amount)


def payout_cents(amount: Amount) -> int:
    """Dollars as whole cents, **rounded down** (what a table pays): ``0.019`` → ``1``."""
    x = _exact(amount) * 100
    return x.numerator // x.denominator


def display_cents(amount: Amount | str) -> int:
    """Dollars as whole cents, **rounded half up** (away from zero), for display:
    ``0.005`` → ``1``, ``0.004`` → ``0``, ``-0.005`` → ``-1``."""
    return _half_up(_exact(amount) * 100)


def _half_up(x: Fraction) -> int:
    """The whole number nearest ``x``, a half away from zero."""
    whole, part = divmod(abs(x.numerator), x.denominator)
    if 2 * part >= x.denominator:
        whole += 1
    return -whole if x < 0 else whole


def floor_to_cent(amount: Decimal) -> Decimal:
    """A Decimal amount rounded down to the cent (a payout, a meter's share)."""
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


def half_up_to_cent(amount: Decimal) -> Decimal:
    """A Decimal amount rounded half up to the cent (a displayed figure)."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def displayed(amount: Amount | str, places: int = 2) -> str:
    """A displayed figure to ``places`` decimals, half up (away from zero), no ``$``: a mean
    rake per hand to the hundredth of a cent (``places=4``), an hourly figure to the cent."""
    units = _half_up(_exact(amount) * 10**places)
    whole, part = divmod(abs(units), 10**places)
    sign = "-" if units < 0 else ""
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def plain_money(amount: Amount | str) -> str:
    """A displayed figure for JSON: to the cent, half up, no ``$`` and no commas:
    ``Fraction(1, 200)`` → ``"0.01"``, ``-12.5`` → ``"-12.50"``."""
    cents = display_cents(amount)
    whole, part = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole}.{part:02d}"


def exact_figure(amount: Decimal) -> str:
    """A round record's exact figure, no ``$`` or commas: ``10``, ``7.50``, ``-12.25``; a
    meter's sub-cent amount in full (``10000.4166``)."""
    if amount == amount.to_integral_value():
        return str(int(amount))
    q = amount.quantize(CENT)
    if q == amount:
        return f"{q:f}"
    return f"{amount.normalize():f}"


def exact_money(amount: Decimal) -> str:
    """An exact amount as printed (``format_money``'s notation, nothing rounded):
    ``$10,000``, ``-$7.50``, ``$10,000.4166``."""
    if amount == amount.quantize(CENT):  # whole cents: the one notation, nothing to round
        return format_money(amount)
    whole, _, part = exact_figure(abs(amount)).partition(".")  # a meter's sub-cent share
    return f"{'-' if amount < 0 else ''}${int(whole):,}.{part}"


def format_money(amount: Amount | str, *, cents: bool | None = None) -> str:
    """Money as printed: ``$100,000``, ``-$238,470``, ``-$2,370,150.00``; to the cent, half up.

    ``cents``: ``None`` shows cents only where there are any (a posted limit, a payout);
    ``True`` always (a column of totals, a mean); ``False`` never (rounded half up to the
    dollar: an axis label). A string is an exact figure (``"-2370150"``, as JSON holds it).
    """
    if isinstance(amount, str):
        amount = Decimal(amount)
    if cents is False:
        dollars = _half_up(_exact(amount))
        return f"{'-' if dollars < 0 else ''}${abs(dollars):,}"
    c = display_cents(amount)
    sign = "-" if c < 0 else ""
    whole, part = divmod(abs(c), 100)
    if cents is None and part == 0:
        return f"{sign}${whole:,}"
    return f"{sign}${whole:,}.{part:02d}"


#: Money on the Poker path: integer cents (the table's chips are whole cents).
Cents = int


def format_per_unit(amount: Amount) -> str:
    """A meter's amount per unit wagered, as the chapters print it: ``$5,000 for 1``; none at
    all is ``$0`` (§ 641a.12(g)(4): "Reseed $0"), nothing for one or for a hundred."""
    printed = format_money(amount)  # to the cent: what rounds to nothing is nothing
    return printed if printed == "$0" else f"{printed} for 1"


def to_cents(dollars: Decimal) -> Cents:
    """Exact dollars → cents; a fraction of a cent is refused."""
    cents = dollars * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"${dollars} is not a whole number of cents")
    return int(cents)


def cents_figure(cents: Cents) -> str:
    """A Poker round record's figure: ``1000`` → ``10``, ``750`` → ``7.50``, ``-1225`` →
    ``-12.25``."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}"


def dollar_text(cents: Cents) -> str:
    """Cents as printed (``format_money``): ``$10``, ``$7.50``, ``$10,001``."""
    return format_money(Fraction(cents, 100))
