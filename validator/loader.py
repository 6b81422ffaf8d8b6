"""YAML in, with every value's file, line and column kept.

ruamel.yaml's round-trip loader records where each key and value stands. ``load_yaml``
turns the document into plain Python (dicts, lists, scalars) and keeps a map from JSON
pointer to position, so any later error or finding can point at its line. It refuses, with
the position, what a regulator's tool must never accept silently: duplicate keys, YAML tags,
anchors that expand past a sane size, nesting past a sane depth, files over 1 MB, text that
is not UTF-8, integers written other than in plain decimal, dates no calendar has, and
anything but a regular file (a FIFO or a device is never read: it could block, or never end).

``read_text`` is the one bounded reader of every input file, YAML or a ``.jsonl`` log: a
regular file only, at most ``MAX_BYTES`` read, UTF-8 or a clear message. ``named_path``
resolves a path that a file names (``rulesub:``, ``extends:``) and keeps it inside the
directories the user gave.
"""

from __future__ import annotations

import codecs
import datetime as dt
import difflib
import errno
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.errors import RulesubError
from validator.pointer import join
from validator.pointer import of as pointer_of

MAX_BYTES = 1_000_000
MAX_DEPTH = 50
MAX_NODES = 200_000
#: The most digits of an integer read from any input: amounts are bounded far below this
#: (``validator.model.notation.MAX_MONEY``), and nothing a table states needs more.
MAX_INT_DIGITS = 18
_DECIMAL_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class LoadError(RulesubError):
    """Input that cannot be read: where, and what was expected."""

    file: str
    line: int
    column: int
    message: str
    #: the problem is the file as a whole (missing, a directory, not text): said without a
    #: line and column, which would point into a file that is not there to read
    whole: bool = False

    def __str__(self) -> str:
        if self.whole:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def unopenable(name: str, path: Path, e: OSError) -> LoadError:
    """Why ``path`` could not be opened, as every command says it: the one wording of a
    missing file, a dangling link, a link loop, a file the user may not read."""
    if e.errno == errno.ENOENT:
        why = "a dangling symbolic link" if path.is_symlink() else "no such file"
    elif e.errno == errno.ELOOP:
        why = "a symbolic link loop"
    elif e.errno in (errno.EACCES, errno.EPERM):
        what = "directory" if path.is_dir() else "file"
        why = f"cannot read the {what}: permission denied"
    elif e.errno == errno.ENOTDIR:
        why = "no such file (a directory on its path is a file)"
    else:
        why = f"cannot read the file: {(e.strerror or str(e)).lower()}"
    return LoadError(name, 1, 1, why, whole=True)


@dataclass
class Located:
    """A YAML document as plain Python, with positions by JSON pointer."""

    path: Path
    data: Any
    positions: dict[str, Position] = field(default_factory=dict)
    key_positions: dict[str, Position] = field(default_factory=dict)
    text: str = ""

    def position(self, pointer: str, *, key: bool = False) -> Position:
        """The position of ``pointer``, or of its nearest ancestor that has one: where
        that ancestor's key stands (``progressives:``, where a progressive left out is to be
        written), never its value's first entry, which names another field."""
        p = pointer
        while True:
            table = self.key_positions if key or p != pointer else self.positions
            if p in table:
                return table[p]
            if (key or p != pointer) and p in self.positions:  # the document's root: no key
                return self.positions[p]
            if p in ("", "/"):
                return Position(1, 1)
            p = p.rsplit("/", 1)[0]


def either(items: list[str]) -> str:
    """Choices as a sentence names them: ``20, 30 or 60``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def written(value: object) -> str:
    """A value as the file reads it, for a message: in YAML's words (``true``, an empty
    value, a list), never Python's (``True``, ``None``, ``[]``); long text cut short."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict) or hasattr(value, "keys"):  # ruamel's ordereddict too
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bytes | bytearray):
        return "binary data"
    if isinstance(value, set | frozenset):
        return "a set"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "…"


def read_text(path: Path | str, *, display: str | None = None) -> str:
    """The text of one input file, read safely. Raises ``LoadError`` saying what is wrong.

    Only a regular file is opened for reading (a FIFO would block, ``/dev/zero`` never
    ends); at most ``MAX_BYTES`` + 1 bytes are read, so a huge file is refused without
    being read whole. The text must be UTF-8 (a byte-order mark is dropped); UTF-16 and
    other encodings are named in the message, with the line and column of the first byte
    that is not UTF-8.
    """
    name = display or str(path)
    return decode_text(read_bytes(path, display=name), name)


def node_kind(mode: int) -> str:
    """What a path that is no regular file is, in words: "a FIFO (named pipe)"."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_bytes(path: Path | str, *, display: str | None = None) -> bytes:
    """The bytes of one input file: a regular file only, at most ``MAX_BYTES`` (the
    ``LoadError`` says why not)."""
    path = Path(path)
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise unopenable(name, path, e) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise LoadError(name, 1, 1, f"is {node_kind(mode)}, not a file to read", whole=True)
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise unopenable(name, path, e) from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_BYTES:
        raise LoadError(
            name,
            1,
            1,
            f"the file is over {MAX_BYTES:,} bytes; at most {MAX_BYTES:,} are read",
            whole=True,
        )
    return raw


def is_wide(raw: bytes) -> bool:
    """Whether the bytes look like UTF-16 or UTF-32 text, which rulesub does not read: a
    byte-order mark, or (text in a Latin script) a NUL in every other byte of the start."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    start = raw[:64]
    if len(start) < 2 or b"\x00" not in start[:4]:
        return False
    return not start[0::2].strip(b"\x00") or not start[1::2].strip(b"\x00")


#: control characters no text file holds (tab, line feed, form feed, carriage return and
#: escape aside)
_CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B}


def is_binary(raw: bytes) -> bool:
    """Whether the bytes are no text at all (an image, a spreadsheet, a PDF), being no
    UTF-16 or UTF-32 text: among the first 8 KiB, control characters more than one in a
    hundred, or any with bytes that are not UTF-8. A stray one in UTF-8 text (a NUL pasted
    in) is placed at its line, as a typing slip is."""
    start = raw[:8192]
    controls = sum(1 for b in start if b in _CONTROL)
    if not controls or is_wide(raw):
        return False
    if controls >= 2 and controls * 100 > len(start):
        return True
    try:  # the cut at 8 KiB may split a character: only a byte no UTF-8 has counts
        codecs.getincrementaldecoder("utf-8")().decode(start, final=False)
    except UnicodeDecodeError:
        return True
    return False


def decode_text(raw: bytes, name: str) -> str:
    """UTF-8 bytes → text, or ``LoadError`` naming what the bytes look like instead."""
    if is_wide(raw):
        raise LoadError(
            name, 1, 1, "the file is UTF-16 (or UTF-32) text; save it as UTF-8", whole=True
        )
    if is_binary(raw):
        raise LoadError(
            name,
            1,
            1,
            "the file is binary data (an image, a PDF, a spreadsheet?), not text",
            whole=True,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        byte = raw[e.start]
        guess = " (Latin-1 or Windows-1252?)" if byte >= 0x80 else ""
        raise LoadError(
            name,
            line,
            col,
            f"the file is not UTF-8 text (byte 0x{byte:02x}{guess}): save it as UTF-8",
        ) from None
    if "\x00" in text:
        at = text.index("\x00")
        line = text.count("\n", 0, at) + 1
        raise LoadError(name, line, at - text.rfind("\n", 0, at), "a NUL character in the text")
    return text.removeprefix("\ufeff")


class PathRefused(RulesubError, ValueError):
    """A path a file names that leads outside the directories it may name."""


def named_path(base: Path, text: object, *, also: tuple[Path, ...] = (), cwd: bool = True) -> Path:
    """A path that a file names (``rulesub:`` in a round file or a play log), resolved
    relative to that file, symbolic links followed. It must stay inside the file's own
    directory, the working directory (unless not ``cwd``: wherever the file is read from),
    or one of ``also`` (the games tree); anything else is refused by ``PathRefused`` with a
    message that says nothing of the other file."""
    if not isinstance(text, str) or not text.strip() or "\x00" in text or len(text) > 4096:
        raise PathRefused("expected the path of a Rules Submission file, as text")
    try:
        target = (base.resolve().parent / text).resolve()
        here = [Path.cwd().resolve()] if cwd else []
        roots = [base.resolve().parent, *here, *(r.resolve() for r in also)]
    except (OSError, RuntimeError, ValueError):
        raise PathRefused("the path cannot be resolved (a loop of links?)") from None
    if not any(target == r or target.is_relative_to(r) for r in roots):
        raise PathRefused(
            "the path leads outside this file's directory and the working directory; a file "
            "may only name files inside them (refused, not read)"
        )
    return target


def json_line(text: str, name: str, line: int) -> Any:
    """One line of a ``.jsonl`` log as plain Python, or ``LoadError`` at its line and column:
    nesting past ``MAX_DEPTH`` and integers past ``MAX_INT_DIGITS`` digits are refused before
    or while decoding (neither a deep line nor a 5,000-digit number may crash the reader), and
    a key given twice, which JSON would let the last win in silence."""
    import json

    try:
        check_flow_depth(text, name)
    except LoadError as e:
        raise LoadError(name, line, e.column, e.message) from None

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise ValueError(f"an integer of {len(digits.lstrip('-')):,} digits")
        return int(digits)

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:  # as YAML: a key once a mapping
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}: each key may appear only once")
            seen[key] = value
        return seen

    try:
        return json.loads(text, parse_int=integer, object_pairs_hook=once)
    except json.JSONDecodeError as e:
        raise LoadError(name, line, e.colno, f"not valid JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        raise LoadError(name, line, 1, f"not valid JSON: {e}") from None


def check_structure(text: str, name: str) -> None:
    """Refuse, cheaply and with the position, a document nested past ``MAX_DEPTH`` or with
    more than ``MAX_NODES`` values, before the round-trip parser spends seconds on it.

    libyaml's C parser streams the events; counting stops at the first bound passed. A
    document libyaml cannot parse is left to the round-trip parser, which says why.
    """
    check_flow_depth(text, name)
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML is a dependency
        return
    loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    depth = nodes = 0
    start = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    end = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    node = (yaml.ScalarEvent, yaml.AliasEvent, *start)
    try:
        for ev in yaml.parse(text, Loader=loader):
            if isinstance(ev, node):
                nodes += 1
                if nodes > MAX_NODES:
                    raise LoadError(name, *_mark(ev), f"more than {MAX_NODES:,} values")
            if isinstance(ev, start):
                depth += 1
                if depth > MAX_DEPTH:
                    raise LoadError(name, *_mark(ev), f"nesting deeper than {MAX_DEPTH} levels")
            elif isinstance(ev, end):
                depth -= 1
    except yaml.YAMLError:
        return


_BRACKETS = re.compile(r"[\[\]{}]")


def check_flow_depth(text: str, name: str) -> None:
    """Brackets opened and not yet closed, counted on the raw text: both YAML parsers take
    time quadratic in the depth of flow collections (``[[[[…``), so a depth past
    ``MAX_DEPTH`` is refused before either parses. Brackets inside quoted text count too:
    a false alarm needs more than ``MAX_DEPTH`` of them unclosed, which no table states."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                at = m.start()
                line = text.count("\n", 0, at) + 1
                col = at - text.rfind("\n", 0, at)
                raise LoadError(name, line, col, f"nesting deeper than {MAX_DEPTH} levels")
        elif depth:
            depth -= 1


def _mark(ev: Any) -> tuple[int, int]:
    return ev.start_mark.line + 1, ev.start_mark.column + 1


def _constructor() -> Any:
    """ruamel.yaml's round-trip constructor, refusing with the position what no table states:
    a date no calendar has (``2027-02-30``, year 0), an integer written other than in plain
    ASCII decimal (hex, octal, binary, underscores: kept as text, so a field that wants a
    number says so), an integer of more than ``MAX_INT_DIGITS`` digits."""
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor

    class Constructor(RoundTripConstructor):  # type: ignore[misc]
        def construct_yaml_int(self, node: Any) -> Any:
            text = node.value
            if not _DECIMAL_INT.fullmatch(text):
                return str(text)
            if len(text.lstrip("+-")) > MAX_INT_DIGITS:
                raise ConstructorError(
                    None,
                    None,
                    f"an integer of {len(text.lstrip('+-')):,} digits; no figure of a table "
                    f"game has more than {MAX_INT_DIGITS}",
                    node.start_mark,
                )
            return int(text)

        def construct_yaml_timestamp(self, node: Any, values: Any = None) -> Any:
            try:
                return super().construct_yaml_timestamp(node, values)
            except (ValueError, OverflowError) as e:
                raise ConstructorError(
                    None,
                    None,
                    f"{node.value!r} is no date ({e}); a date is written like 2027-01-01",
                    node.start_mark,
                ) from None

    Constructor.add_constructor("tag:yaml.org,2002:int", Constructor.construct_yaml_int)
    Constructor.add_constructor("tag:yaml.org,2002:timestamp", Constructor.construct_yaml_timestamp)
    return Constructor


def load_yaml(path: Path | str, *, display: str | None = None) -> Located:
    """Read one YAML file. Raises ``LoadError`` with the position of what is wrong."""
    path = Path(path)
    name = display or str(path)
    return parse_yaml(read_text(path, display=name), path, name)


def parse_yaml(text: str, path: Path, name: str, *, checked: bool = False) -> Located:
    """YAML text (already read by ``read_text``) → ``Located``, or ``LoadError``.
    ``checked``: ``check_structure`` has already passed the text."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if not checked:
        check_structure(text, name)
    yaml = YAML(typ="rt")
    yaml.Constructor = _constructor()
    yaml.allow_duplicate_keys = False
    try:
        doc = yaml.load(text)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = (e.problem or e.context or "not valid YAML").strip()
        if "duplicate key" in str(e).lower():
            key = str(e).split('found duplicate key "')[-1].split('"')[0]
            what = f"duplicate key {key!r}: each key may appear only once in a mapping"
            mark = e.problem_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (line, col)
        raise LoadError(name, line, col, f"not valid YAML: {what}") from None
    except YAMLError as e:
        position = getattr(e, "position", None)  # a character YAML refuses: where it is
        if isinstance(position, int) and 0 <= position <= len(text):
            line = text.count("\n", 0, position) + 1
            col = position - (text.rfind("\n", 0, position) + 1) + 1
            c = getattr(e, "character", None)
            what = f"character U+{c:04X}" if isinstance(c, int) else "a character"
            raise LoadError(
                name, line, col, f"not valid YAML: {what} is not allowed in YAML text"
            ) from None
        raise LoadError(name, 1, 1, f"not valid YAML: {e}") from None
    except RecursionError:
        raise LoadError(name, 1, 1, f"nesting deeper than {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError, TypeError) as e:  # a value the constructor refused
        raise LoadError(name, 1, 1, f"not valid YAML: {e}") from None
    located = Located(path=path, data=None, text=text)
    counter = [0]
    located.data = _plain(doc, "", located, name, 0, counter)
    return located


def _plain(node: Any, pointer: str, loc: Located, name: str, depth: int, counter: list[int]) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar

    counter[0] += 1
    if counter[0] > MAX_NODES:
        pos = loc.position(pointer)
        raise LoadError(
            name,
            pos.line,
            pos.column,
            f"more than {MAX_NODES:,} values (anchors expanding too far?)",
        )
    if depth > MAX_DEPTH:
        pos = loc.position(pointer)
        raise LoadError(name, pos.line, pos.column, f"nesting deeper than {MAX_DEPTH} levels")
    tag = getattr(node, "tag", None)
    tag_value = getattr(tag, "value", None) if tag is not None else None
    if isinstance(node, TaggedScalar) or (tag_value and tag_value.startswith("!")):
        pos = loc.position(pointer)
        raise LoadError(
            name, pos.line, pos.column, f"YAML tags are not accepted here ({tag_value or 'tag'})"
        )
    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for k in node:
            if not isinstance(k, str | int) or isinstance(k, bool):
                pos = _key_position(node, k) or loc.position(pointer)
                shown = (
                    f"the date {written(k)} (quote it)" if isinstance(k, dt.date) else written(k)
                )
                raise LoadError(name, pos.line, pos.column, f"a key must be text, not {shown}")
            child = join(pointer, k)
            try:
                kl, kc = node.lc.key(k)
                loc.key_positions[child] = Position(kl + 1, kc + 1)
                vl, vc = node.lc.value(k)
                loc.positions[child] = Position(vl + 1, vc + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            out[str(k)] = _plain(node[k], child, loc, name, depth + 1, counter)
        if pointer not in loc.positions and hasattr(node, "lc"):
            loc.positions[pointer] = Position(node.lc.line + 1, node.lc.col + 1)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for i, v in enumerate(node):
            child = join(pointer, i)
            try:
                il, ic = node.lc.item(i)
                loc.positions[child] = Position(il + 1, ic + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            items.append(_plain(v, child, loc, name, depth + 1, counter))
        return items
    if isinstance(node, dt.datetime | dt.date) or node is None:
        return node
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    # YAML's other types (!!binary, !!set, !!omap, !!pairs): no Rules Submission writes one
    what = (
        "binary data (!!binary)"
        if isinstance(node, bytes | bytearray)
        else "a set (!!set)"
        if isinstance(node, set | frozenset) or type(node).__name__.endswith("Set")
        else f"a value of YAML type {type(node).__name__}"
    )
    pos = loc.position(pointer)
    raise LoadError(
        name, pos.line, pos.column, f"{what} is not accepted here: write text or a list"
    )


# -- pydantic errors, located -------------------------------------------------------------


@dataclass(frozen=True)
class FieldError:
    pointer: str
    message: str
    line: int
    column: int
    kind: str  # pydantic's error type: "extra_forbidden", "missing", "value_error", …


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def locate_errors(
    exc: Any, located: Located, known_keys: dict[str, Iterable[str]] | None = None
) -> list[FieldError]:
    """pydantic ``ValidationError`` → errors with pointers and positions, one per problem."""
    out: list[FieldError] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        parts = _data_path(err["loc"], located.data, err["type"])
        pointer = pointer_of(parts)
        kind = err["type"]
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        if kind == "extra_forbidden":
            parent = pointer.rsplit("/", 1)[0]
            key = parts[-1] if parts else ""
            choices = list((known_keys or {}).get(parent, ()))
            msg = f"unknown key {key!r}{did_you_mean(str(key), choices)}"
            if choices:
                msg += f"; expected one of: {', '.join(choices)}"
            pos = located.position(pointer, key=True)
        elif kind == "missing":
            msg = f"missing required key {parts[-1]!r}" if parts else "missing"
            pos = located.position(pointer.rsplit("/", 1)[0])
        else:
            pos = located.position(pointer)
        if (pointer, msg) in seen:
            continue
        seen.add((pointer, msg))
        out.append(FieldError(pointer or "/", msg, pos.line, pos.column, kind))
    return _fold_alternatives(out)


def _fold_alternatives(errors: list[FieldError]) -> list[FieldError]:
    """A value that fails every member of a union (a rate, or 'N/A', or 'stated') is one
    problem: keep the specific message and name the literal alternatives in it."""
    literals: dict[str, list[str]] = {}
    for e in errors:
        if e.kind == "literal_error":
            literals.setdefault(e.pointer, []).append(e.message.removeprefix("Input should be "))
    folded = {e.pointer for e in errors if e.kind != "literal_error"} & set(literals)
    out = []
    for e in errors:
        if e.pointer in folded:
            if e.kind == "literal_error":
                continue
            if e.pointer not in literals:  # already folded into an earlier message
                out.append(e)
                continue
            e = FieldError(
                e.pointer,
                f"{e.message}; or {' or '.join(literals.pop(e.pointer))}",
                e.line,
                e.column,
                e.kind,
            )
        out.append(e)
    return out


def _data_path(loc: tuple[Any, ...], data: Any, kind: str) -> list[Any]:
    """pydantic's error location → the path in the data (union member names dropped)."""
    out: list[Any] = []
    cur = data
    for i, part in enumerate(loc):
        if isinstance(cur, dict) and str(part) in cur:
            out.append(str(part))
            cur = cur[str(part)]
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            out.append(part)
            cur = cur[part]
        elif i == len(loc) - 1 and kind == "missing":
            out.append(part)
        # anything else is a name pydantic adds for a union member: not in the data
    return out


def _key_position(node: Any, key: Any) -> Position | None:
    """Where a key is written (a key that is no text: a list, a mapping), else ``None``."""
    try:
        line, column = node.lc.key(key)
    except (KeyError, TypeError, AttributeError, IndexError):
        return None
    return Position(line + 1, column + 1)
