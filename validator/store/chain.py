"""The audit log's hash chain: each entry holds the hash of the entry before it
(``prev_hash``) and the hash of its own content with that link (``entry_hash``), as
Certificate Transparency's log and git's commits do.

An entry's hash is SHA-256 over its canonical content: a JSON object with sorted keys and no
spaces, of ``action``, ``actor``, ``at`` (UTC, ISO 8601 to the microsecond),
``detail`` (the stored JSON text, as stored), ``prev_hash`` and ``submission_id``. The first
entry's ``prev_hash`` is ``GENESIS``. Entries are chained in the order of their ids.

This format is part of the record: every database written since schema 0003 holds hashes
computed so, and ``rulesub audit verify`` recomputes them. Never change it.

What the chain proves, and what it does not (``docs/security.md``): an entry edited, deleted
or inserted out of order anywhere before the last entry breaks the chain at that place. The
last entries, or the whole log rewritten with fresh hashes, are shown only against a head
written down elsewhere (``rulesub history`` prints it, every review pack carries it).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from validator import jsonout

GENESIS = "0" * 64


def as_utc(value: dt.datetime | None) -> dt.datetime | None:
    """A time the store read, in UTC: SQLite hands back naive datetimes, PostgreSQL aware
    ones; the store writes UTC only."""
    if value is None:
        return None
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def _at(value: dt.datetime) -> str:
    """``at`` as hashed."""
    return as_utc(value).isoformat(timespec="microseconds")  # type: ignore[union-attr]


def canonical(
    at: dt.datetime,
    actor: str,
    action: str,
    submission_id: int | None,
    detail: str,
    prev_hash: str,
) -> bytes:
    content = {
        "action": action,
        "actor": actor,
        "at": _at(at),
        "detail": detail,
        "prev_hash": prev_hash,
        "submission_id": submission_id,
    }
    return jsonout.dumps(content, sort_keys=True, separators=(",", ":")).encode()


def entry_hash(
    at: dt.datetime,
    actor: str,
    action: str,
    submission_id: int | None,
    detail: str,
    prev_hash: str,
) -> str:
    return hashlib.sha256(
        canonical(at, actor, action, submission_id, detail, prev_hash)
    ).hexdigest()


def hash_of(row: Any) -> str:
    """The hash an audit row's content gives (whatever its ``entry_hash`` says)."""
    return entry_hash(row.at, row.actor, row.action, row.submission_id, row.detail, row.prev_hash)


@dataclass(frozen=True)
class Head:
    """The head of the chain: its last entry and that entry's hash (``GENESIS`` and no
    entry while the log is empty)."""

    entries: int
    entry: int | None
    hash: str
    at: dt.datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "entry": self.entry,
            "hash": self.hash,
            "at": None if self.at is None else _at(self.at).replace("+00:00", "Z"),
        }

    def __str__(self) -> str:
        if self.entry is None:
            return f"{self.hash} (the audit log is empty)"
        from validator.counts import plural

        return f"{self.hash} (entry #{self.entry}, {plural(self.entries, 'entry')})"


@dataclass(frozen=True)
class Break:
    """The first place the chain does not hold."""

    entry: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "reason": self.reason}


def walk(rows: Iterable[Any], *, gapless: bool = False) -> tuple[Head, Break | None]:
    """Walk audit rows in id order: the head reached, and the first break if any. A break
    is named at the first entry that does not hold: one that does not link to the entry
    before it (an entry deleted before it, or it or its neighbour inserted out of order),
    one that cannot be read (``row.unreadable``, where the reader says why), or one whose
    content no longer gives its hash (edited). ``gapless``: ids are given without gaps
    (SQLite's), so a gap between two entries is entries deleted, even where the next entry
    written since links to the one before the gap."""
    prev_hash, prev_id, count, last = GENESIS, None, 0, None
    for row in rows:
        held = Head(count, prev_id, prev_hash)
        if gapless and row.id != (prev_id or 0) + 1:
            return held, Break(row.id, _missing(prev_id or 0, row.id))
        if row.prev_hash != prev_hash:
            where = "the start of the log" if prev_id is None else f"entry #{prev_id}"
            return held, Break(
                row.id,
                f"entry #{row.id} does not follow {where}: an entry between them was "
                "deleted, or one of them was inserted out of order",
            )
        unreadable = getattr(row, "unreadable", None)
        if unreadable is not None and getattr(row, "at", None) is None:
            return held, Break(row.id, f"entry #{row.id} cannot be read: {unreadable}")
        if hash_of(row) != row.entry_hash:
            return held, Break(
                row.id,
                f"entry #{row.id} was changed after it was written: its content no longer "
                "gives its hash",
            )
        if unreadable is not None:
            return held, Break(row.id, f"entry #{row.id} cannot be read: {unreadable}")
        prev_hash, prev_id, count, last = row.entry_hash, row.id, count + 1, row
    return Head(count, prev_id, prev_hash, None if last is None else last.at), None


def _missing(before: int, after: int) -> str:
    """The break of entries ``before`` + 1 to ``after`` - 1 missing from a gapless log."""
    gone = (
        f"entry #{before + 1} is"
        if after == before + 2
        else f"entries #{before + 1} to #{after - 1} are"
    )
    return (
        f"{gone} missing before entry #{after}: ids are given without gaps here, so "
        f"{'it was' if after == before + 2 else 'they were'} deleted, or entry #{after} "
        "was written with a number not its own"
    )
