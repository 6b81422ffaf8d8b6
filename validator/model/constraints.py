"""What the regulation demands of a Rules Submission, as data: the constraint vocabulary.

A game file lists its constraints under ``constraints:``; the checks derive the generic
ones (paytable letters, positions, decks, deck changes, equipment…) from the rest of the
game file. Every constraint names the submission fields it reads by JSON pointer (``field``
or ``fields``), may hold only ``when`` a condition holds, and carries an ``id`` (unique in
its game: the finding code is ``<game>/<id>``), a ``cite``, a ``severity`` and a message
written for a compliance officer.

The vocabulary is closed: no expressions, no code. A demand that none of these kinds can
say is a new, general kind here and in ``validator/checks/kinds.py``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    WithJsonSchema,
    model_validator,
)

from validator.model.base import Cite, Money, Strict

Severity = Literal["error", "warning", "info"]
CONSTRAINT_ID = r"^[a-z0-9][a-z0-9-]*$"
POINTER = r"^(/[^/]+)+$"

Pointer = Annotated[str, Field(pattern=POINTER, description="JSON pointer into the submission")]


def _number(value: Any) -> Decimal | Fraction | int | bool | str:
    """A literal a constraint compares with: money (``"$30,000"``), a rate (``"10%"``, read
    as an exact ``Fraction``), a count, a word."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, str) and value.lstrip().startswith("$"):
        from validator.model.notation import parse_money

        return parse_money(value)
    if isinstance(value, str) and value.rstrip().endswith("%"):
        from validator.model.notation import parse_rate

        return parse_rate(value)
    if isinstance(value, str):
        return value
    raise ValueError(f"{value!r}: a constraint value is a whole number, '$5,000', '10%' or a word")


def _dump_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        from validator.model.notation import format_money

        return format_money(value)
    if isinstance(value, Fraction):
        from validator.model.notation import format_rate

        return format_rate(value)
    return value


Value = Annotated[
    int | bool | Decimal | Fraction | str,
    BeforeValidator(_number),
    PlainSerializer(_dump_value, when_used="json"),
    # stated, so that the schema does not change with the pydantic release
    WithJsonSchema(
        {
            "type": ["integer", "boolean", "number", "string"],
            "description": "a count, a flag, money ('$30,000'), a rate ('10%') or a word",
        }
    ),
]


class ConstraintWhen(Strict):
    """A condition: every part that is given must hold."""

    # built when first validated: the validator reads compiled constraints without it
    model_config = ConfigDict(defer_build=True)

    offered: str | None = Field(
        default=None, description="this wager is played: a base wager, or offered"
    )
    field: Pointer | None = None
    in_: list[Value] | None = Field(default=None, alias="in", description="field's value is one of")
    contains: Value | None = Field(default=None, description="field is a list holding this")
    contains_all: list[Value] | None = Field(
        default=None, description="field is a list holding each of these"
    )
    stated: bool | None = Field(default=None, description="field is (or is not) stated")

    @model_validator(mode="after")
    def _field_tests(self) -> ConstraintWhen:
        tests = [
            self.in_ is not None,
            self.contains is not None,
            self.contains_all is not None,
            self.stated is not None,
        ]
        if self.field is None and any(tests):
            raise ValueError("`in`, `contains`, `contains_all` and `stated` test a `field`")
        if self.field is not None and sum(tests) != 1:
            raise ValueError(
                "a `field` condition has exactly one of `in`, `contains`, `contains_all`, `stated`"
            )
        if self.field is None and self.offered is None:
            raise ValueError("a condition needs `offered` or `field`")
        return self


class _Base(Strict):
    model_config = ConfigDict(defer_build=True)

    id: str = Field(pattern=CONSTRAINT_ID)
    cite: Cite
    severity: Severity = "error"
    message: str = Field(min_length=1, description="the rule, for a compliance officer")
    hint: str | None = Field(default=None, description="what would comply")
    note: str | None = Field(default=None, description="how the text was read, and why")
    when: ConstraintWhen | None = None

    def ruled(self) -> list[str]:
        """The submission's fields this check rules on, for the section beside a change of
        one (``diff``): those it checks, and the field it compares them with (``than``)."""
        named = [getattr(self, "field", None), *(getattr(self, "fields", None) or ())]
        return [p for p in [*named, getattr(self, "than", None)] if isinstance(p, str)]


class _Fields(_Base):
    field: Pointer | None = None
    fields: list[Pointer] | None = None

    @model_validator(mode="after")
    def _one_of_field_fields(self) -> _Fields:
        if (self.field is None) == (self.fields is None):
            raise ValueError("a constraint names either `field` or `fields`")
        return self

    @property
    def pointers(self) -> list[str]:
        return [self.field] if self.field is not None else list(self.fields or ())


class Required(_Fields):
    """The field must be stated (``adjacent_boxes``, § 641a.7(e))."""

    kind: Literal["required"]


class RequiredIf(_Fields):
    """The field must be stated when the condition holds (a meter for an offered
    progressive)."""

    kind: Literal["required_if"]
    when: ConstraintWhen


class OnlyIf(_Fields):
    """The field should be stated only when the condition holds (a paytable selected for
    a wager that is not offered)."""

    kind: Literal["only_if"]
    when: ConstraintWhen


class NotStated(_Fields):
    """The field must not be stated (a payout limit where the chapter provides none)."""

    kind: Literal["not_stated"]


class Choice(_Fields):
    """The field names one of these (a paytable letter the chapter prints)."""

    kind: Literal["choice"]
    choices: list[str] = Field(min_length=1)


class OneOfValues(_Fields):
    """The field's value is one of these (Envy Bonus tables for $1 and $5 wagers); of a
    list, each item is (Poker dealt from the hand only, § 553.7(e)(1))."""

    kind: Literal["one_of_values"]
    values: list[Value] = Field(min_length=1)


class Equals(_Fields):
    """The field must be stated and equal this (the equipment an offered wager needs)."""

    kind: Literal["equals"]
    value: Value


class _Bound(_Fields):
    value: Value | None = None
    than: Pointer | None = Field(default=None, description="compare with this field instead")

    @model_validator(mode="after")
    def _value_or_than(self) -> _Bound:
        if (self.value is None) == (self.than is None):
            raise ValueError("a bound is either a `value` or another field (`than`)")
        return self


class AtLeast(_Bound):
    """The field is at least the value (reset amount ≥ $30,000, § 678a.12(d)(3))."""

    kind: Literal["at_least"]


class AtMost(_Bound):
    """The field is at most the value (positions, § 641a.2(a); a percentage rake at most
    10%, § 553.15(b)(1)), or another field (a date on or before the effective date)."""

    kind: Literal["at_most"]


class SumAtMost(_Fields):
    """The stated fields add up to at most the value (a Bad Beat payout's shares of the fund
    come to at most all of it, § 553.20(b)(3))."""

    kind: Literal["sum_at_most"]
    value: Value


class MaxInterval(_Base):
    """Hours between deck changes, for every dealing method the submission uses."""

    kind: Literal["max_interval"]
    field: Pointer = "/dealing/change_every_hours"
    methods_field: Pointer = "/dealing/methods"
    hours: dict[str, int] = Field(min_length=1)
    cites: dict[str, str] = Field(
        default_factory=dict, description="the paragraph each method's limit is in"
    )

    @property
    def pointers(self) -> list[str]:
        return [self.field, self.methods_field]


MeterField = Literal["seed", "reseed", "increment", "reserve_increment"]


class EqualsTable(_Base):
    """The progressive's meters are exactly as the chapter's table fixes them for the
    selected paytable, the seed and reseed scaled by the wager amount (§ 641a.12(d)(3))."""

    kind: Literal["equals_table"]
    table: str
    fields: list[MeterField] | None = Field(
        default=None, description="only these figures (default: every figure fixed)"
    )


class PayoutLimitFloor(_Base):
    """A payout limit, when set, is at least the greater of a sum and the most one patron
    could win in one round betting the minimum wager (§ 677a.12(f), § 678a.12(e))."""

    kind: Literal["payout_limit_floor"]
    field: Pointer = "/payout_limit"
    at_least: Money


class TimeChargeAtMost(_Base):
    """A rake based on time charges is a rake: what one assessment takes (a period's share
    of the hourly fee, from each player or from the table) is at most the maximum
    permissible rake the submission states (§ 553.15(a)(3), (b)(3))."""

    kind: Literal["time_charge_at_most"]
    field: Pointer = "/rake/time"
    than: Pointer = "/rake/maximum"


class RakeLevelsAtMost(_Base):
    """An incremental rake is a rake: what its levels take in all from a pot that reaches
    the last (each level's amount added to those before, § 553.15(b)(2)) is at most the
    maximum permissible rake the submission states (§ 553.15(a)(3))."""

    kind: Literal["rake_levels_at_most"]
    field: Pointer = "/rake/incremental"
    than: Pointer = "/rake/maximum"

    def ruled(self) -> list[str]:
        return [f"{self.field}/levels", self.than]  # the levels, never how they are taken


class PositiveHold(_Base):
    """The selected paytable's exact hold is positive (else the text or its transcription
    needs a second look)."""

    kind: Literal["positive_hold"]
    table: str


class HoldInRange(_Base):
    """A submission-supplied table's exact hold lies in the Board's stated range."""

    kind: Literal["hold_in_range"]
    table: str


class PublishedHoldRange(_Base):
    """Some paytable of the chapter's, and the one the submission selects, has an exact hold
    in the Board's stated range; when none has, or the selected one has not, a finding
    about the published figures (info)."""

    kind: Literal["published_hold_range"]
    table: str


class OptionalPayoutOffered(_Base):
    """A payout the certificate holder "may pay" (§ 641a.12(g)(3)) is offered only with the
    wager it is paid on."""

    kind: Literal["optional_payout_offered"]
    table: str


class CustomTableHands(_Base):
    """A submission-supplied table pays only hands the wager can win on."""

    kind: Literal["custom_table_hands"]
    table: str
    at_least: str | None = Field(default=None, description="lowest category it may pay")
    pays_every: bool = Field(
        default=False,
        description="every hand from at_least up wins: the table pays each (by its own row "
        "or the row of a hand it refines)",
    )
    except_hands: list[str] = Field(
        default_factory=list, description="hands pays_every leaves out (a hand that never wins)"
    )
    never_paid: bool = Field(
        default=False,
        description="report each row for a hand that can never lose: a table paid only on "
        "a losing hand (a Bad Beat) never pays it, and the payout limit prices it at zero",
    )


class TextMissing(_Base):
    """The regulation text of a table is missing from the copy rulesub encodes: a supplied
    table cannot be checked against it (the game file's note says what is known of it)."""

    kind: Literal["text_missing"]
    table: str


Constraint = Annotated[
    Required
    | RequiredIf
    | OnlyIf
    | NotStated
    | Choice
    | OneOfValues
    | Equals
    | AtLeast
    | AtMost
    | SumAtMost
    | MaxInterval
    | EqualsTable
    | PayoutLimitFloor
    | TimeChargeAtMost
    | RakeLevelsAtMost
    | PositiveHold
    | HoldInRange
    | PublishedHoldRange
    | OptionalPayoutOffered
    | CustomTableHands
    | TextMissing,
    Field(discriminator="kind"),
]

KINDS: tuple[str, ...] = (
    "required",
    "required_if",
    "only_if",
    "not_stated",
    "choice",
    "one_of_values",
    "equals",
    "at_least",
    "at_most",
    "sum_at_most",
    "max_interval",
    "equals_table",
    "payout_limit_floor",
    "time_charge_at_most",
    "rake_levels_at_most",
    "positive_hold",
    "hold_in_range",
    "published_hold_range",
    "optional_payout_offered",
    "custom_table_hands",
    "text_missing",
)


def _unique_ids(constraints: list[Any]) -> list[Any]:
    seen: set[str] = set()
    for c in constraints:
        if c.id in seen:
            raise ValueError(f"constraint id {c.id!r} is used twice: ids are unique in a game")
        seen.add(c.id)
    return constraints


Constraints = Annotated[list[Constraint], AfterValidator(_unique_ids)]


_ADAPTER: TypeAdapter[Any] | None = None


def _adapter() -> TypeAdapter[Any]:
    global _ADAPTER
    if _ADAPTER is None:
        _ADAPTER = TypeAdapter(list[Constraint])
    return _ADAPTER


def load_constraints(items: list[dict[str, Any]]) -> tuple[Any, ...]:
    """Constraints from plain data (a game file's list, or a compiled one)."""
    return tuple(_adapter().validate_python(items))


def dump_constraints(constraints: Any) -> list[dict[str, Any]]:
    """Constraints as plain JSON data that ``load_constraints`` reads back the same."""
    return _adapter().dump_python(list(constraints), mode="json", by_alias=True, exclude_none=True)
