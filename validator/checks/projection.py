"""A model object as plain data, and read back without its model: the compiled file's form.

``validate`` must answer in a fraction of a second, and building the game models' classes
costs more than checking a submission. So the compiled file keeps a game's model objects
as data derived from them generically, and the checks read that data back as
``Projection`` objects: every field of every model, by its attribute name, with every
property rulesub's models define (``letters``, ``selectable``, ``pointers``, …) as it
evaluated when compiled. Nothing here names a field: a field added to a model reaches the
checks through the next ``rulesub schema export``.

Exact values stay exact: money is ``Decimal``, odds and rates ``Fraction``, a paytable cell
the ``Payout`` its text parses to. In the file, each is an object with one ``$`` key
(``{"$fraction": "1/10"}``); a model is an object with a ``$model`` key naming its class.
No id of a game file starts with ``$``, so no key of the game's own data is mistaken for
one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from functools import cache
from types import SimpleNamespace
from typing import Any

from validator.model.notation import Payout, parse_payout

MODEL = "$model"


class Projection(SimpleNamespace):
    """A model object read back from the compiled file: its fields and properties by name
    (``table.paytables``, ``table.letters``); ``vars()`` gives them as a dict."""


@cache
def _properties(cls: type) -> tuple[str, ...]:
    """The public properties rulesub's own classes define on ``cls`` (not pydantic's)."""
    names: list[str] = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("validator."):
            continue
        for name, attr in vars(klass).items():
            if isinstance(attr, property) and not name.startswith("_") and name not in names:
                names.append(name)
    return tuple(names)


def to_data(value: Any) -> Any:
    """``value`` (models, dicts, lists, exact values) as JSON-ready data, losing nothing the
    checks read: every field and property of each model."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        cls: Any = type(value)
        out: dict[str, Any] = {MODEL: cls.__name__}
        for name in [*fields, *_properties(cls)]:
            out[name] = to_data(getattr(value, name))
        return out
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, dict):
        return {_key(k): to_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_data(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [to_data(v) for v in value]}
    if isinstance(value, Payout):
        return {"$payout": value.text}
    if isinstance(value, Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, Fraction):
        return {"$fraction": str(value)}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    raise TypeError(f"a {type(value).__name__} cannot be compiled exactly: {value!r}")


def _key(key: Any) -> str:
    if not isinstance(key, str) or key.startswith("$"):
        raise TypeError(f"a compiled mapping's keys are ids, not {key!r}")
    return key


_EXACT: dict[str, Callable[[Any], Any]] = {
    "$payout": parse_payout,
    "$decimal": Decimal,
    "$fraction": Fraction,
    "$date": dt.date.fromisoformat,
    "$tuple": tuple,
}


def from_data(obj: dict[str, Any]) -> Any:
    """The ``object_hook`` that reads ``to_data``'s JSON back: a ``Projection`` for each
    model, the exact value for each ``$`` object, a dict for the rest."""
    if MODEL in obj:
        del obj[MODEL]
        return Projection(**obj)
    if len(obj) == 1:
        ((key, value),) = obj.items()
        read = _EXACT.get(key)
        if read is not None:
            return read(value)
    return obj
