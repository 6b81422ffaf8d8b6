"""Shared pieces of the models: strict base, citations, exact-value fields."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PlainSerializer,
    WithJsonSchema,
)

from validator.cards import CardError, parse_rank
from validator.loader import written
from validator.model.notation import (
    NotationError,
    Payout,
    format_money,
    format_rate,
    parse_money,
    parse_payout,
    parse_per_unit,
    parse_rate,
)


class Strict(BaseModel):
    """Every model refuses keys it does not know: a typo in a game file is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _cite(value: Any) -> str:
    if not isinstance(value, str) or "§" not in value:
        raise ValueError(f"a citation like '§ 641a.12(d)(3)' was expected, not {value!r}")
    return value


Cite = Annotated[
    str,
    BeforeValidator(_cite),
    WithJsonSchema({"type": "string", "pattern": "§", "description": "e.g. § 641a.12(d)(3)"}),
]

PAYOUT_PATTERN = (
    r"^(?i:n/a|push|\$[0-9][0-9,]*(\.[0-9]{2})?|[0-9][0-9,]* (to|for) [0-9][0-9,]*"
    r"|[0-9]+(\.[0-9]+)? ?% (of )?(the )?(meter|[a-z]+ jackpot))$"
)

PayoutField = Annotated[
    Payout,
    BeforeValidator(parse_payout),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": PAYOUT_PATTERN,
            "description": "25 to 1 | 300 for 1 | 3 to 2 | push | 100% of meter | "
            "100% of mega jackpot | $100 | N/A",
        }
    ),
]


def _money(value: Any) -> Decimal:
    return parse_money(value)


Money = Annotated[
    Decimal,
    BeforeValidator(_money),
    PlainSerializer(format_money, return_type=str),
    WithJsonSchema({"type": ["string", "integer"], "description": "dollars: 5000 or '$5,000'"}),
]


def _per_unit(amount: Decimal) -> str:
    """``$5,000 for 1``, ``$0``: the money module's words (imported when first written)."""
    from validator.money import format_per_unit

    return format_per_unit(amount)


PerUnit = Annotated[
    Decimal,
    BeforeValidator(parse_per_unit),
    PlainSerializer(_per_unit, return_type=str),
    WithJsonSchema(
        {"type": ["string", "integer"], "description": "per unit wagered: '$5,000 for 1'"}
    ),
]

Rate = Annotated[
    Fraction,
    BeforeValidator(parse_rate),
    PlainSerializer(format_rate, return_type=str),
    WithJsonSchema({"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?%$"}),
]


def unseen(text: str) -> str | None:
    """Why ``text`` cannot stand on a page or a sign as written, else ``None``: a character
    no one sees (a control or format character: a bell, an escape, ``U+200B``), or half of a
    UTF-16 pair (a YAML escape ``"\\ud800"``), which is no character at all."""
    for i, c in enumerate(text, 1):
        kind = unicodedata.category(c)
        if kind in ("Cc", "Cf", "Zl", "Zp"):  # Zl, Zp: a line or paragraph break
            named = unicodedata.name(c, "") or "a control character"
            return f"character {i}, U+{ord(c):04X} {named}, is not seen on a page"
        if kind == "Cs":
            return f"character {i}, U+{ord(c):04X}, is half of a UTF-16 pair, no character"
    return None


#: letters that print as nothing (a blank braille cell, the Hangul fillers): a name or a
#: reason of them alone shows as none
BLANK_LETTERS = "\u2800\u3164\u115f\u1160\uffa0"


def seen_letter(c: str) -> bool:
    """A character that shows on a page by itself: not a space, a blank letter or a mark
    set on another (a lone combining mark shows nothing)."""
    return not c.isspace() and c not in BLANK_LETTERS and unicodedata.category(c)[0] != "M"


def shows(text: str) -> bool:
    """Whether a name, a reason or a note shows anything on a page: spaces, blank letters
    or marks alone do not (the one test: the model's names, the store's words)."""
    return any(seen_letter(c) for c in text)


def _seen(value: Any) -> Any:
    if isinstance(value, str) and (why := unseen(value)) is not None:
        raise NotationError(f"{why}: a name is written in characters a sign can print")
    if isinstance(value, str) and value and not shows(value):
        # "" is the length's to refuse; spaces, a blank braille cell: nothing a page shows
        raise NotationError("it shows nothing on a page: write the name as it is printed")
    return value


#: A name that is printed (a certificate holder's, a facility's): every character seen.
Name = Annotated[str, BeforeValidator(_seen)]


class HoursCount(Decimal):
    """A number of hours, exact: a ``Decimal`` that is no amount of money (a document
    shows it as a number, never as dollars)."""

    def __str__(self) -> str:
        return format(self.normalize(), "f")


def _hours(value: Any) -> Decimal:
    """Hours between deck changes: a number more than 0, whole or not (``8``, ``7.5``):
    the chapters' "at least every" is met by any shorter interval. Read exactly, as
    written (``7.5`` is 7.5, not the float nearest it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise NotationError(f"hours {written(value)}: expected a number of hours, as 8 or 7.5")
    hours = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    if not hours.is_finite() or hours <= 0 or hours > 10_000:
        raise NotationError(f"hours {written(value)}: expected a number of hours more than 0")
    return HoursCount(hours)


#: Hours, exact: whole ones read back as integers, others as the decimal written.
Hours = Annotated[
    Decimal,
    BeforeValidator(_hours),
    AfterValidator(HoursCount),  # kept as hours past the Decimal check, which makes a Decimal
    PlainSerializer(lambda h: int(h) if h == h.to_integral_value() else float(h)),
    WithJsonSchema({"type": "number", "exclusiveMinimum": 0, "description": "hours: 8 or 7.5"}),
]


def _day(value: Any) -> Any:
    """A day written as text, ``"2027-01-01"`` (a JSON submission, a quoted date), read as
    the date it names; anything else is left for the strict date check to refuse."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return value  # no day of the calendar: refused, and said so
    return value


#: A date: YAML's own, or the same written as text (JSON has no dates).
Day = Annotated[dt.date, BeforeValidator(_day)]


def _rank(value: Any) -> int:
    try:
        return parse_rank(value)
    except CardError as e:
        raise ValueError(str(e)) from None


Rank = Annotated[
    int,
    BeforeValidator(_rank),
    PlainSerializer(lambda r: {14: "A", 13: "K", 12: "Q", 11: "J"}.get(r, str(r))),
    WithJsonSchema({"type": ["string", "integer"], "description": "A K Q J 10 9 … 2"}),
]
