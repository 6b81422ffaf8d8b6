"""Places in a submission by JSON pointer: the value at one, dropping values, and the
keys the model reads at each mapping."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import BaseModel

from validator.model.submission.document import RulesSubmission
from validator.pointer import join, of, parts


def prune(data: Any, pointers: list[str]) -> bool:
    """Drop the values at ``pointers`` (deepest first, list items from the end)."""
    removed = False

    def key(p: str) -> tuple[int, list[Any]]:
        keys = [int(x) if is_index(x) else x for x in split_pointer(p)]
        return (-len(keys), [(-x if isinstance(x, int) else 0) for x in keys])

    for pointer in sorted(set(pointers), key=key):
        keys = split_pointer(pointer)
        if not keys:
            continue
        parent = resolve(data, of(keys[:-1]))
        last = keys[-1]
        if isinstance(parent, dict) and last in parent:
            del parent[last]
            removed = True
        elif isinstance(parent, list) and is_index(last) and int(last) < len(parent):
            del parent[int(last)]
            removed = True
    return removed


def stated_items(value: Any) -> dict[str, Any] | None:
    """The keys and values a mapping states: a mapping's own, a model part's stated fields
    (those not None); None for anything else."""
    if isinstance(value, dict):
        return value
    if isinstance(value, BaseModel):
        return {
            name: getattr(value, name)
            for name in type(value).model_fields
            if getattr(value, name) is not None
        }
    return None


def is_index(part: str) -> bool:
    """A JSON pointer part that is a list index (ASCII digits only: '¹' is a key)."""
    return part.isascii() and part.isdigit()


def split_pointer(pointer: str) -> list[str]:
    if pointer in ("", "/"):
        return []
    return parts("/" + pointer.lstrip("/"))


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def resolve(data: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``data`` (the file as read, or the submission's model:
    a field is stated when it is not None), or ``MISSING``."""
    cur = data
    for part in split_pointer(pointer):
        if isinstance(cur, BaseModel) and part in type(cur).model_fields:
            cur = getattr(cur, part)
            if cur is None:
                return MISSING
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and is_index(part) and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return MISSING
    return cur


# -- the model's keys, by pointer --------------------------------------------------------------


def _model_at(pointer: str) -> type[BaseModel] | None:
    """The model class that the mapping at ``pointer`` is read with, if any."""
    hint: Any = RulesSubmission
    for part in split_pointer(pointer):
        hint = _unwrap(hint)
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            f = hint.model_fields.get(part)
            if f is None:
                return None
            hint = f.annotation
        elif typing.get_origin(hint) is dict:
            hint = typing.get_args(hint)[1]
        elif typing.get_origin(hint) is list:
            hint = typing.get_args(hint)[0]
        else:
            return None
    hint = _unwrap(hint)
    return hint if isinstance(hint, type) and issubclass(hint, BaseModel) else None


def _unwrap(hint: Any) -> Any:
    while True:
        origin = typing.get_origin(hint)
        if origin is Annotated:
            hint = typing.get_args(hint)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            hint = args[0] if len(args) == 1 else hint
            if len(args) != 1:
                return hint
        else:
            return hint


def known_keys_at(pointer: str) -> list[str]:
    model = _model_at(pointer)
    return list(model.model_fields) if model else []


def known_keys(data: Any, pointer: str = "") -> dict[str, Iterable[str]]:
    """Field names by the pointer of every mapping in ``data`` read by a model."""
    out: dict[str, Iterable[str]] = {}
    if isinstance(data, dict):
        keys = known_keys_at(pointer)
        if keys:
            out[pointer] = keys
        for k, v in data.items():
            out.update(known_keys(v, join(pointer, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.update(known_keys(v, join(pointer, i)))
    return out
