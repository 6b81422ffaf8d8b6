"""A submission's YAML read through libyaml where the document is plain."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from validator.errors import RulesubError
from validator.loader import (
    MAX_INT_DIGITS,
    Located,
    check_flow_depth,
    decode_text,
    parse_yaml,
    read_text,
)
from validator.pointer import join


def read_yaml(path: Path, *, display: str | None = None, raw: bytes | None = None) -> Located:
    """``load_yaml``'s result, read through libyaml when the document is plain.

    ``validator.loader.load_yaml`` reads with ruamel.yaml's pure-Python round-trip parser,
    a few milliseconds a file: most of the time of validating a thousand submissions. A
    submission is a small, plain document, and libyaml's C parser reads it fifty times
    faster. So the events libyaml reports are built into the same ``Located`` (YAML 1.2
    values, positions by JSON pointer), and anything outside the plain subset (anchors,
    aliases, tags, several documents, merge keys, duplicate keys, numbers written other
    than as plain decimal integers, dates with times, empty values, nesting or size past
    the loader's limits, text that is not UTF-8) is read by ``load_yaml`` itself, which
    gives its own value or its own error. The tests hold the two readers to the same
    result on every shipped submission and on generated ones. ``raw``: the file's bytes,
    where they were read already.
    """
    name = display or str(path)
    text = read_text(path, display=name) if raw is None else decode_text(raw, name)
    check_flow_depth(text, name)  # before libyaml: its time is quadratic in that depth
    fast = _read_plain(path, text)  # within the depth and value bounds, or None
    if fast is not None:
        return fast
    return parse_yaml(text, path, name)


_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
_NUMBERISH = re.compile(r"[-+]?[.0-9][0-9_.eExXoObBa-fA-F+:-]*")
_TRUE, _FALSE, _NULL = (
    {"true", "True", "TRUE"},
    {"false", "False", "FALSE"},
    {"~", "null", "Null", "NULL"},
)


class _NotPlain(RulesubError):
    """The document uses YAML beyond the plain subset: let the full loader read it."""


def _read_plain(path: Path, text: str) -> Located | None:
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML is a dependency
        return None
    parser = getattr(yaml, "CSafeLoader", None)
    if parser is None:
        return None
    if "\t" in text:
        return None  # libyaml takes a tab as a separator where ruamel.yaml refuses it
    if any(c in text for c in "\x85\u2028\u2029"):
        return None  # line breaks to YAML 1.1 (libyaml), not to YAML 1.2 (the loader)
    try:
        events = list(yaml.parse(text, Loader=parser))
    except yaml.YAMLError:
        return None
    located = Located(path=path, data=None, text=text)
    try:
        located.data = _Builder(events, located).document()
    except (_NotPlain, IndexError, ValueError):
        return None
    return located


class _Builder:
    """Plain Python from libyaml's events, with ``load_yaml``'s positions (1-based)."""

    def __init__(self, events: list[Any], located: Located) -> None:
        import yaml

        self.yaml = yaml
        self.events = events
        self.i = 0
        self.loc = located
        self.count = 0

    def next(self) -> Any:
        ev = self.events[self.i]
        self.i += 1
        return ev

    def document(self) -> Any:
        y = self.yaml
        if not isinstance(self.next(), y.StreamStartEvent):
            raise _NotPlain
        ev = self.next()
        if isinstance(ev, y.StreamEndEvent):
            return None
        if not isinstance(ev, y.DocumentStartEvent):
            raise _NotPlain
        root = self.next()
        if isinstance(root, y.MappingStartEvent):
            self.loc.positions[""] = _pos(root)
        data = self.node(root, "", 0)
        if not isinstance(self.next(), y.DocumentEndEvent):
            raise _NotPlain
        if not isinstance(self.next(), y.StreamEndEvent):
            raise _NotPlain  # more than one document
        return data

    def node(self, ev: Any, pointer: str, depth: int) -> Any:
        from validator.loader import MAX_DEPTH, MAX_NODES

        y = self.yaml
        self.count += 1
        if depth > MAX_DEPTH or self.count > MAX_NODES:
            raise _NotPlain
        if isinstance(ev, y.AliasEvent) or getattr(ev, "anchor", None) is not None:
            raise _NotPlain
        if getattr(ev, "tag", None) is not None:
            raise _NotPlain
        if isinstance(ev, y.ScalarEvent):
            return _scalar(ev)
        if isinstance(ev, y.MappingStartEvent):
            out: dict[str, Any] = {}
            while True:
                key_ev = self.next()
                if isinstance(key_ev, y.MappingEndEvent):
                    return out
                if not isinstance(key_ev, y.ScalarEvent) or key_ev.anchor or key_ev.tag:
                    raise _NotPlain
                key = _scalar(key_ev)
                if isinstance(key, bool) or not isinstance(key, str | int) or key == "<<":
                    raise _NotPlain
                key = str(key)
                if key in out:
                    raise _NotPlain  # a duplicate: the loader says where
                child = join(pointer, key)
                value_ev = self.next()
                self.loc.key_positions[child] = _pos(key_ev)
                self.loc.positions[child] = _pos(value_ev)
                out[key] = self.node(value_ev, child, depth + 1)
        if isinstance(ev, y.SequenceStartEvent):
            items: list[Any] = []
            while True:
                item_ev = self.next()
                if isinstance(item_ev, y.SequenceEndEvent):
                    return items
                child = join(pointer, len(items))
                self.loc.positions[child] = _pos(item_ev)
                items.append(self.node(item_ev, child, depth + 1))
        raise _NotPlain


def _pos(ev: Any) -> Any:
    from validator.loader import Position

    return Position(ev.start_mark.line + 1, ev.start_mark.column + 1)


def _scalar(ev: Any) -> Any:
    """A scalar as ruamel.yaml reads it under YAML 1.2, or ``_NotPlain`` when unsure."""
    value: str = ev.value
    if ev.style:  # quoted, literal or folded: text as written (plain is "" or None)
        return value
    if value == "":
        raise _NotPlain
    if _INT.fullmatch(value):
        if len(value.lstrip("+-")) > MAX_INT_DIGITS:
            raise _NotPlain  # the loader refuses it, with its position
        return int(value)
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if value in _NULL:
        return None
    if m := _DATE.fullmatch(value):
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if _NUMBERISH.fullmatch(value) or (value[:1] in ".+-" and value[1:2] in ".0123456789iInN"):
        raise _NotPlain
    if re.match(r"\d{4}-\d\d?-\d\d?", value) or value.lower().lstrip("+-") in (".inf", ".nan"):
        raise _NotPlain
    return value
