"""The one JSON serializer (validator.jsonout): how the values JSON has no type for print in
every document rulesub writes, and that each caller's layout stays its own."""

from __future__ import annotations

import datetime as dt
import enum
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import PurePosixPath

import pytest

from validator import jsonout


class _Colour(enum.Enum):
    red = "red"


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (Decimal("0.10"), '"0.10"'),  # money keeps its cents: never 0.1, never a float
        (Decimal("-2.5"), '"-2.5"'),
        (Decimal("1E+2"), '"1E+2"'),
        (Fraction(1, 3), '"1/3"'),  # an exact probability as numerator/denominator
        (Fraction(4, 2), '"2"'),
        (dt.date(2027, 1, 1), '"2027-01-01"'),
        (PurePosixPath("subs/a.yaml"), '"subs/a.yaml"'),
        (_Colour.red, '"red"'),
    ],
)
def test_a_value_json_has_no_type_for_prints_exactly(value: object, printed: str) -> None:
    assert jsonout.dumps(value) == printed


def test_the_callers_layouts_are_json_own() -> None:
    data = {"b": Decimal("1.50"), "a": ["é", Fraction(2, 3)]}
    for layout in (
        {},
        {"indent": 2},
        {"indent": 1, "ensure_ascii": True},
        {"sort_keys": True, "separators": (",", ":")},
        {"separators": (", ", ": ")},
    ):
        expected = json.dumps(data, default=str, **{"ensure_ascii": False, **layout})  # type: ignore[arg-type]
        assert jsonout.dumps(data, **layout) == expected  # type: ignore[arg-type]
    assert jsonout.dumps(data, ensure_ascii=False) == '{"b": "1.50", "a": ["é", "2/3"]}'


def test_a_caller_may_still_say_how_its_own_values_print() -> None:
    assert jsonout.dumps({"x": {1, 2}}, default=sorted) == '{"x": [1, 2]}'
