"""The one JSON serializer of rulesub's output: how every value a document holds prints.

A Decimal prints as its exact digits (``"0.10"``, never a float), a Fraction as
``"numerator/denominator"``, a date in ISO form, a path as written, an enum as its value;
anything else as ``str``. Each caller keeps its own layout (``indent``, ``separators``,
``sort_keys``, ``ensure_ascii``): a document's bytes are part of its contract.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from typing import Any


def plain(value: Any) -> Any:
    """A value JSON has no type for, as it prints: an enum its value; a Decimal, Fraction,
    date or path (and anything else) its ``str``."""
    if isinstance(value, Enum):
        return value.value
    return str(value)


def dumps(
    obj: Any,
    *,
    indent: int | None = None,
    sort_keys: bool = False,
    ensure_ascii: bool = False,
    separators: tuple[str, str] | None = None,
    default: Callable[[Any], Any] = plain,
) -> str:
    """``obj`` as JSON text, with ``plain`` for the values JSON has no type for."""
    return json.dumps(
        obj,
        indent=indent,
        sort_keys=sort_keys,
        ensure_ascii=ensure_ascii,
        separators=separators,
        default=default,
    )
