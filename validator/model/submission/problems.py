"""The problems of form a submission can have, each with where it is, what is wrong,
and what would do."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from validator.loader import FieldError, Located, did_you_mean, written
from validator.model.submission.descriptions import described_at
from validator.model.submission.document import REQUIRED
from validator.model.submission.pointers import is_index, known_keys_at, resolve
from validator.pointer import join

#: The problems of form where a value written in the file was not read as written: the
#: commands that act on a submission's figures (play, simulate, settle, par, odds, diff)
#: refuse them rather than act on defaults. A key left out (``rulesub/missing-key``) is
#: reported by ``validate`` and misreads nothing.
MISREAD = frozenset(
    {"rulesub/unknown-key", "rulesub/wrong-type", "rulesub/bad-value", "rulesub/rate-needs-percent"}
)


@dataclass(frozen=True)
class FormatProblem:
    """A readable submission that is not well formed: where, what, what would do."""

    code: str  # rulesub/unknown-key, rulesub/wrong-type, …
    message: str
    pointer: str
    line: int
    column: int
    hint: str | None = None

    @property
    def misread(self) -> bool:
        """Whether something written in the file was not read as written (an unknown or
        misspelt key, a value of the wrong form): a command that acts on the submission's
        figures would act on defaults instead. A key left out is reported, not misread."""
        return self.code in MISREAD


def empty_values(data: Any, located: Located, pointer: str = "") -> list[FormatProblem]:
    """A key written with no value (``payout_limit:``): never meaningful in a submission."""
    out: list[FormatProblem] = []
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for k, v in items:
        child = join(pointer, k)
        if v is None:
            pos = located.position(child, key=isinstance(data, dict))
            out.append(
                FormatProblem(
                    "rulesub/bad-value",
                    f"{child}: no value is written",
                    child,
                    pos.line,
                    pos.column,
                    f"write the value ({described_at(child)}), or remove the key"
                    if described_at(child)
                    else "write the value, or remove the key",
                )
            )
        else:
            out += empty_values(v, located, child)
    return out


def missing_keys(data: dict[str, Any], located: Located) -> list[FormatProblem]:
    out: list[FormatProblem] = []

    def check(pointer: str, mapping: Any, keys: tuple[str, ...]) -> None:
        if not isinstance(mapping, dict):
            return
        for key in keys:
            if key not in mapping:
                pos = located.position(pointer, key=True)
                where = pointer or "the top level"
                out.append(
                    FormatProblem(
                        "rulesub/missing-key",
                        f"missing required key {key!r} in {where}",
                        join(pointer, key),
                        pos.line,
                        pos.column,
                        f"add `{key}:` ({described_at(join(pointer, key)) or key})",
                    )
                )

    for parent, keys in REQUIRED.items():
        if "*" in parent:
            head, _, tail = parent.partition("/*")
            container = resolve(data, head)
            if isinstance(container, dict):
                for k, v in container.items():
                    check(join(head, k) + tail, resolve(v, tail) if tail else v, keys)
        else:
            check(parent, resolve(data, parent) if parent else data, keys)
    return out


_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text",
    "bool_type": "true or false",
    "date_type": "a date like 2027-01-01",
    "date_parsing": "a date like 2027-01-01",
    "date_from_datetime_inexact": "a date like 2027-01-01, without a time",
    "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values",
    "list_type": "a list",
    "decimal_type": "a number of dollars or a string like '$5,000'",
}


_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def problem_of(err: FieldError, raw: Mapping[str, Any], located: Located) -> FormatProblem:
    pointer, kind = err.pointer, err.kind
    name = pointer.rsplit("/", 1)[-1] or "the file"
    value = raw.get("input")
    if kind == "extra_forbidden":
        parent = pointer.rsplit("/", 1)[0]
        choices = known_keys_at(parent)
        close = difflib.get_close_matches(pointer.rsplit("/", 1)[-1], choices, n=1, cutoff=0.6)
        hint = f"rename it to {close[0]!r}" if close else "remove the key, or correct it"
        message = err.message
        if close:  # the suggestion says enough: leave out the list of every key
            message = message.split("; expected one of:")[0]
        return FormatProblem("rulesub/unknown-key", message, pointer, err.line, err.column, hint)
    if kind.startswith("date_") and isinstance(value, str) and _DAY.match(value.strip()):
        try:  # written as a date, but no day of the calendar: say why, as the loader does
            dt.date.fromisoformat(value.strip())
        except ValueError as e:
            return FormatProblem(
                "rulesub/wrong-type",
                f"{pointer}: {written(value)} is no date ({e})",
                pointer,
                err.line,
                err.column,
                "write a day of the calendar, like 2027-01-01",
            )
    if kind in _EXPECTED:
        return FormatProblem(
            "rulesub/wrong-type",
            f"{pointer}: expected {_EXPECTED[kind]}, not {_not(value)}",
            pointer,
            err.line,
            err.column,
            f"write {_EXPECTED[kind]}"
            + (f" ({described_at(pointer)})" if described_at(pointer) else ""),
        )
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", str(raw.get("ctx", {}).get("expected", "")))
        if not allowed:
            allowed = re.findall(r"\b\d+\b", str(raw.get("ctx", {}).get("expected", "")))
        if isinstance(value, str) and value in allowed and value.isdigit():  # `rulesub: "1"`
            return FormatProblem(
                "rulesub/bad-value",
                f"{pointer}: {written(value)} is text, not the number {value}",
                pointer,
                err.line,
                err.column,
                f"write {value} without quotes",
            )
        return FormatProblem(
            "rulesub/bad-value",
            f"{pointer}: {written(value)} is not one of: {', '.join(allowed)}"
            f"{did_you_mean(str(value), allowed)}",
            pointer,
            err.line,
            err.column,
            f"write one of: {', '.join(allowed)}",
        )
    bare = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "value_error" and bare and err.message.startswith("rate "):
        return FormatProblem(
            "rulesub/rate-needs-percent",
            f"{pointer}: {value!r} is a bare number where a rate is expected; "
            "a rate is written with a percent sign",
            pointer,
            err.line,
            err.column,
            f"write '{value}%' if {value} percent is meant",
        )
    if kind in ("string_too_short", "too_short") and value == "":  # `facility: ""`, in words
        return FormatProblem(
            "rulesub/bad-value",
            f"{pointer}: is empty text: write it out",
            pointer,
            err.line,
            err.column,
            described_at(pointer),
        )
    if kind in ("greater_than", "greater_than_equal", "too_short"):
        ctx = raw.get("ctx", {})
        need = (
            f"more than {ctx['gt']}"
            if "gt" in ctx
            else f"at least {ctx['ge']}"
            if "ge" in ctx
            else f"at least {ctx.get('min_length')} item"
        )
        return FormatProblem(
            "rulesub/bad-value",
            f"{pointer}: {_show(value) or 'this'} is too small: it must be {need}",
            pointer,
            err.line,
            err.column,
            described_at(pointer),
        )
    described = described_at(pointer)
    if is_index(name) or pointer.startswith("/custom_paytables/"):
        described = None
    return FormatProblem(
        "rulesub/bad-value", f"{pointer}: {err.message}", pointer, err.line, err.column, described
    )


def describe(value: Any) -> str:
    """What a whole file holds where a mapping was expected: ``a list``, ``a number``."""
    match value:
        case None:
            return "empty"
        case bool():
            return f"the single value {written(value)}"
        case int() | float():
            return "a number"
        case str():
            return "a line of text"
        case dt.date():
            return "a date"
    return written(value)


def _not(value: Any) -> str:
    """What was written instead, as a wrong type's message names it: ``the text 'x'``,
    ``the number 5``, ``true``, ``an empty value``, ``a list``."""
    match value:
        case bool() | None | dict() | list():
            return written(value)
        case int() | float():
            return f"the number {written(value)}"
        case str():
            return f"the text {written(value)}"
        case dt.date():
            return f"the date {written(value)}"
    return written(value)


def _show(value: Any) -> str:
    return "" if value is None or isinstance(value, dict | list) else written(value)
