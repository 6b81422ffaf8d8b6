"""JSON pointers (RFC 6901), the one place they are written and read: how a key is escaped
in a pointer (``~`` as ``~0``, ``/`` as ``~1``) and how a pointer splits back into keys.

A pointer is how rulesub keeps a value's place in a file (``/paytables/pair_plus``) so that
a message can say file:line:column; pages and documents never show one to people.
"""

from __future__ import annotations

from collections.abc import Iterable


def escape(part: object) -> str:
    """A key or index as it stands in a pointer: ``~`` → ``~0``, ``/`` → ``~1``."""
    return str(part).replace("~", "~0").replace("/", "~1")


def unescape(part: str) -> str:
    """A pointer's part as the key it names: ``~1`` → ``/``, then ``~0`` → ``~``."""
    return part.replace("~1", "/").replace("~0", "~")


def join(pointer: str, part: object) -> str:
    """``pointer`` and one key or index below it."""
    return f"{pointer}/{escape(part)}"


def of(parts: Iterable[object]) -> str:
    """The pointer of a path of keys and indices (``""``: the whole document)."""
    return "".join(f"/{escape(p)}" for p in parts)


def parts(pointer: str) -> list[str]:
    """The keys a pointer names, unescaped: ``""`` → ``[]`` (the whole document),
    ``"/"`` → ``[""]`` (the key that is the empty string)."""
    return [unescape(p) for p in pointer.split("/")[1:]]
