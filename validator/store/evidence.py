"""What the audit log says of each filing, and whether the filing's row still says it.

The chain (``validator.store.chain``) proves the entries; the rows are held to them here,
in one place, for ``rulesub audit verify`` (``Store.unmatched_filings``) and for every
decision (``Store._pending``: a row that no longer says what the log says of it is not
decided on). A field of a row is compared wherever an entry holds it:

- ``record``: the sha256, the file name, the findings' counts (of the row's counts and of
  its stored findings) and the stored findings' own sha256 (``findings_sha256``, in the
  entries written after release 0.3.0: an edit that keeps the counts, a finding's code
  changed to one a waiver then names, shows), the regulation version, who recorded it (the
  actor) and when (``at``); the certificate holder, facility, game and effective date are
  read again from the bytes, by the function ``record`` files them under
  (``filed_under``);
- ``approve``: who (the actor), the approval date, the note and when it was decided; the
  findings it was decided on (their sha256, in the entries written after 0.3.0) and its
  waivers (each code and reason, the approver and the time: the ``waivers`` rows);
  ``reject``: who, the day (``at``'s), the reason; ``supersede`` / ``replace``: by which
  filing (and from which date); every ending (rejection, supersession, withdrawal,
  replacement): when it ended (``ended_at``, from which the retention period runs);
- the status, from the last decision; a second ``record`` of one id with no ``purge``
  between is an id given twice; and a filing the log records and never purges must still
  have its row.

An entry or a row that cannot be read as rulesub writes it (a time that is no time, a
detail that is no JSON object, findings that are no JSON list, a file stored as text) is
``Damaged`` for the commands that read it (exit 2), and for ``audit verify`` a break or a
filing that does not match (exit 1: a tampering verdict).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from sqlalchemy import Connection, String, select, type_coerce

from validator.counts import plural
from validator.errors import RulesubError
from validator.loader import written
from validator.model.base import shows
from validator.store import names
from validator.store.chain import as_utc
from validator.store.database import StoreError
from validator.store.schema import NotText, audit_log
from validator.store.schema import waivers as waivers_table

#: The audit actions that set a filing's status.
DECIDED = {
    "approve": "approved",
    "reject": "rejected",
    "supersede": "superseded",
    "withdraw": "withdrawn",
    "replace": "replaced",
}
#: A row's fields that the log holds, as a sentence names them.
LABELS = {
    "filename": "its file name",
    "regulation_version": "its regulation version",
    "recorded_by": "who recorded it",
    "recorded_at": "when it was recorded",
    "errors": "its count of error findings",
    "warnings": "its count of warnings",
    "infos": "its count of info findings",
    "certificate_holder": "its certificate holder",
    "facility": "its facility",
    "game": "its game",
    "effective": "its effective date",
    "approved_by": "who approved it",
    "approved_on": "its approval date",
    "approval_note": "its approval note",
    "rejected_by": "who rejected it",
    "rejected_on": "its rejection date",
    "rejection_reason": "its rejection reason",
    "superseded_by": "the filing that superseded it",
    "superseded_on": "the date it was superseded from",
    "decided_at": "when it was decided",
    "ended_at": "when it ended",
}
#: A row's fields that only a decision's entry sets (approve, reject, supersede, withdraw,
#: replace): empty on a filing no entry decided.
DECISION = (
    "approved_by",
    "approved_on",
    "approval_note",
    "rejected_by",
    "rejected_on",
    "rejection_reason",
    "superseded_by",
    "superseded_on",
    "decided_at",
    "ended_at",
)
#: what a row that cannot be read as rulesub wrote it says, in ``unreadable`` and
#: ``disagreements`` alike
AS_TEXT = "its file is stored as text, not as the bytes filed"
FINDINGS_UNREADABLE = "its recorded findings cannot be read (not a JSON list of findings)"
KEPT_UNDER = ": the store files a submission under its facility, game and effective date"


class Damaged(StoreError):
    """A row or an entry that cannot be read as rulesub wrote it: exit 2, naming it."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(
            f"the database is damaged: {what}: {why} (`rulesub audit verify` says what else "
            "no longer holds)"
        )


# -- the entries, read whatever was written into them -----------------------------------------


@dataclass(frozen=True)
class Entry:
    """An audit entry as stored (the row's fields), with its detail read: ``data``, or
    ``unreadable`` saying why it cannot be read."""

    id: int
    at: dt.datetime | None
    actor: str
    action: str
    submission_id: int | None
    detail: str
    prev_hash: str
    entry_hash: str
    data: dict[str, Any] = field(default_factory=dict)
    unreadable: str | None = None

    def readable(self) -> Entry:
        """The entry, or ``Damaged`` naming it."""
        if self.unreadable is not None:
            raise Damaged(f"audit entry #{self.id}", self.unreadable)
        return self


def entries(conn: Connection, *where: Any) -> Iterator[Entry]:
    """The audit entries (those ``where`` selects), in id order. ``at`` is read as stored
    and parsed here, so that a time that is no time (SQLite keeps what it is given) makes
    that entry unreadable instead of stopping the read."""
    c = audit_log.c
    at, parse = as_stored(conn, c.at)
    query = select(
        c.id, at, c.actor, c.action, c.submission_id, c.detail, c.prev_hash, c.entry_hash
    )
    for r in conn.execute(query.where(*where).order_by(c.id)):
        yield _entry(r, parse)


def as_stored(conn: Connection, column: Any) -> tuple[Any, Any]:
    """A date or time column read as stored (its text, on SQLite), and the dialect's own
    parser of it: read so, a value written over by hand does not stop the reading of the
    others (``parsed``)."""
    kind: Any = column.type
    parse = conn.dialect.type_descriptor(kind).result_processor(conn.dialect, None)
    return type_coerce(column, String).label(column.name), parse


def parsed(parse: Any, value: Any) -> tuple[Any, bool]:
    """A value read ``as_stored``, parsed, and whether it could be (``None`` where not)."""
    if value is None or parse is None or not isinstance(value, str):
        return value, True  # nothing to parse, or the driver gave the value itself
    try:
        return parse(value), True
    except (ValueError, TypeError):
        return None, False


def _entry(r: Any, parse: Any) -> Entry:
    at, _ = parsed(parse, r.at)
    why = None
    if not isinstance(at, dt.datetime):
        at, why = None, f"its time ({written(r.at)}) is no time"
    data = _json(r.detail, dict)
    if why is None and data is None:
        why = "its detail is not a JSON object"
    stored = ("actor", "action", "detail", "prev_hash", "entry_hash")
    for name in stored:  # bytes written over text: read, but not as rulesub wrote them
        if why is None and isinstance(getattr(r, name), NotText):
            why = f"its {name.replace('_', ' ')} is stored as bytes, not as text"
    return Entry(
        r.id,
        at,
        r.actor,
        r.action,
        r.submission_id,
        r.detail,
        r.prev_hash,
        r.entry_hash,
        data or {},
        why,
    )


def _json(text: object, kind: type) -> Any:
    """``text`` as JSON of ``kind``, else None (bytes written over it: none)."""
    if not isinstance(text, str) or isinstance(text, NotText):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, kind) else None


# -- what the log says of one filing -------------------------------------------------------------

#: The statuses `purge` deletes a filing in (``Store.purge``): ended, never in force or pending.
PURGED_FROM = frozenset({"rejected", "superseded"})


@dataclass
class Told:
    """What the audit log says of one filing: its ``record`` entry's sha256, the status its
    decisions give, and the row's fields its entries hold (``said``, by column)."""

    sha256: str | None = None
    status: str = "none"
    said: dict[str, Any] = field(default_factory=dict)
    findings_sha256: str | None = None  # the stored findings', where the record entry holds it
    approval_sha256: str | None = None  # the approval's findings', where its entry holds it
    waived: list[tuple[str, str, str, str]] | None = None  # code, reason, by, at, as approved
    recorded: bool = False  # a record entry since the last purge
    twice: bool = False  # a second record entry with no purge between
    unreadable: Entry | None = None  # the first entry about it that cannot be read
    purged: bool = False  # a purge entry about it
    #: what the log says of it that rulesub never writes: a purge of a filing in force or
    #: pending, a record entry after its purge (a number given twice)
    contradicted: str | None = None

    def hear(self, e: Entry) -> None:
        if e.unreadable is not None:
            self.unreadable = self.unreadable or e
            return
        d, at = e.data, as_utc(e.at)
        if e.action == "record":
            if self.purged and self.contradicted is None:
                self.contradicted = (
                    "the audit log records it again after its purge: a filing's number is "
                    "never given twice"
                )
            self.twice = self.twice or self.recorded
            self.recorded, self.status = True, "submitted"
            self.sha256 = d.get("sha256")
            self.findings_sha256 = d.get("findings_sha256")
            self.approval_sha256 = self.waived = None
            # a decision's fields are empty until an entry decides: a row that says an
            # approval, a rejection or a supersession no entry made is caught
            self.said = {"recorded_by": e.actor, "recorded_at": at, **dict.fromkeys(DECISION)}
            _held(self.said, d, file="filename", regulation_version="regulation_version")
            found = d.get("findings")
            if isinstance(found, dict):
                for key, column in (("errors", "errors"), ("warnings", "warnings")):
                    self.said[column] = found.get(key)
                self.said["infos"] = found.get("info")
        elif e.action == "approve":
            self._decision_as_written(e, "approved", _day(d.get("approved_on")))
            self.said |= {"approved_by": e.actor, "decided_at": at}
            _held(self.said, d, approved_on="approved_on", note="approval_note")
            self.approval_sha256 = d.get("findings_sha256")
            if isinstance(d.get("waived"), list):
                self.waived = sorted(
                    (str(w.get("code")), str(w.get("reason")), e.actor, _same(at))
                    for w in d["waived"]
                    if isinstance(w, dict)
                )
        elif e.action == "reject":
            self._decision_as_written(e, "rejected", None if at is None else at.date())
            self.said |= {"rejected_by": e.actor, "decided_at": at, "ended_at": at}
            self.said["rejected_on"] = None if at is None else at.date()
            _held(self.said, d, reason="rejection_reason")
        elif e.action == "supersede":
            self.said["ended_at"] = at
            _held(self.said, d, superseded_by="superseded_by", **{"from": "superseded_on"})
        elif e.action in ("withdraw", "replace"):
            self.said |= {"decided_at": at, "ended_at": at}
            _held(self.said, d, replaced_by="superseded_by")
        elif e.action == "purge":
            if self.status not in PURGED_FROM and self.contradicted is None:
                self.contradicted = (
                    f"the audit log purges it while "
                    f"{'no record of it is read' if self.status == 'none' else self.status}: "
                    "rulesub purges only a "
                    "rejected or superseded filing"
                )
            self.purged = True
            self.sha256, self.status, self.said, self.recorded = None, "none", {}, False
            self.findings_sha256, self.approval_sha256, self.waived = None, None, None
            return
        if e.action in DECIDED:
            self.status = DECIDED[e.action]

    def _decision_as_written(self, e: Entry, done: str, on: Any) -> None:
        """An approval or rejection entry that says what rulesub never writes: a decision
        of a filing not pending, by whoever recorded it (separation of duties), or dated
        before it was recorded (``Store.approve``'s refusals).
        Appended by hand, well formed, the chain holds: the filing is named."""
        if self.contradicted is not None:
            return
        recorded_by, recorded_at = self.said.get("recorded_by"), self.said.get("recorded_at")
        why = None
        if self.status != "submitted":  # "while none": no record entry the log still reads
            state = "no record of it is read" if self.status == "none" else self.status
            why = f"the audit log has it {done} while {state}"
        elif names.same(recorded_by, e.actor):
            why = (
                f"the audit log has it {done} by {e.actor}, who recorded it: rulesub refuses "
                "a decision by whoever recorded the filing (separation of duties)"
            )
        elif (
            isinstance(on, dt.date)
            and isinstance(recorded_at, dt.datetime)
            and (on < recorded_at.date())
        ):
            why = (
                f"the audit log has it {done} on {on}, before it was recorded on "
                f"{recorded_at.date()}"
            )
        self.contradicted = why


def _held(said: dict[str, Any], detail: dict[str, Any], **columns: str) -> None:
    """The detail's keys that it holds, as the row's columns."""
    for key, column in columns.items():
        if key in detail:
            said[column] = _day(detail[key]) if column in _DAYS else detail[key]


_DAYS = {"approved_on", "superseded_on"}


def _day(value: Any) -> Any:
    """A date the detail holds as text, as a date (as it is, where it is none)."""
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return value


def told(conn: Connection, submission_id: int | None = None) -> dict[int, Told]:
    """What the log says of each filing it names (of ``submission_id`` only, if given)."""
    c = audit_log.c
    where = (
        c.submission_id.is_not(None) if submission_id is None else c.submission_id == submission_id
    )
    out: dict[int, Told] = {}
    for e in entries(conn, where):
        out.setdefault(e.submission_id, Told()).hear(e)  # type: ignore[arg-type]
    # ``purge`` clears a purged filing's id from the rows that named it as the filing that
    # superseded or replaced them (ids are never given again): their row says none
    named = {t.said.get("superseded_by") for t in out.values()} - {None}
    if named:
        c = audit_log.c
        purged = {
            e.submission_id for e in entries(conn, c.action == "purge", c.submission_id.in_(named))
        }
        for t in out.values():
            if t.said.get("superseded_by") in purged:
                t.said["superseded_by"] = None
    return out


def gone(told: dict[int, Told], rows: Iterable[int]) -> list[dict[str, Any]]:
    """The filings the log records, and never purged, whose rows are gone; and those of
    which the log says what rulesub never writes (``Told.contradicted``): a purge appended
    by hand, its entry well formed, is named though the chain holds."""
    present = set(rows)
    out = [
        {
            "submission": sid,
            "reason": f"the audit log records it, {t.status}, and no purge: its row is gone",
        }
        for sid, t in sorted(told.items())
        if t.recorded and sid not in present
    ]
    return out + [
        {"submission": sid, "reason": t.contradicted}
        for sid, t in sorted(told.items())
        if t.contradicted is not None
    ]


# -- the row held to it --------------------------------------------------------------------------


def unreadable(row: Any) -> str | None:
    """Why a filing's row cannot be read as rulesub wrote it, if it cannot."""
    if not isinstance(row.content, bytes):
        return AS_TEXT
    if _findings(row.findings) is None:
        return FINDINGS_UNREADABLE
    approval = getattr(row, "approval_findings", None)
    if approval is not None and _findings(approval) is None:
        return "the findings of its approval cannot be read (not a JSON list of findings)"
    return None


def rows_as_stored(conn: Connection) -> Iterator[tuple[Any, list[str]]]:
    """Every filing's row in id order, with the fields that cannot be read as rulesub wrote
    them (a date or time written over by hand: SQLite keeps what it is given), each named
    as ``LABELS`` names it. Dates and times are read as stored and parsed here, as
    ``entries`` reads an entry's time, so that one such field does not stop the reading."""
    from types import SimpleNamespace

    from sqlalchemy import Date, DateTime

    from validator.store.schema import submissions

    columns: list[Any] = []
    parsers: dict[str, Any] = {}
    for column in submissions.c:
        if isinstance(column.type, Date | DateTime):
            stored, parsers[column.name] = as_stored(conn, column)
            columns.append(stored)
        else:
            columns.append(column)
    for r in conn.execute(select(*columns).order_by(submissions.c.id)):
        values, bad = dict(r._mapping), []
        for name, parse in parsers.items():
            values[name], ok = parsed(parse, values[name])
            if not ok:
                bad.append(LABELS.get(name, name))
        bad += [  # bytes written over a text column (the findings: unreadable JSON)
            f"{LABELS.get(name, name)} (stored as bytes)"
            for name, value in values.items()
            if isinstance(value, NotText) and name not in ("findings", "approval_findings")
        ]
        yield SimpleNamespace(**values), bad


def readable(row: Any, submission_id: int) -> Any:
    """The row, or ``Damaged`` naming the filing."""
    why = unreadable(row)
    if why is not None:
        raise Damaged(f"submission {submission_id}", why)
    return row


def _findings(text: object) -> list[dict[str, Any]] | None:
    found = _json(text, list)
    if found is None or not all(isinstance(f, dict) for f in found):
        return None
    return found


def counts(findings: list[dict[str, Any]]) -> dict[str, int]:
    sev = [f.get("severity") for f in findings]
    return {
        "errors": sev.count("error"),
        "warnings": sev.count("warning"),
        "info": sev.count("info"),
    }


def digest(findings: str) -> str:
    """The sha256 of findings as stored (their JSON text), as an entry holds it."""
    return hashlib.sha256(findings.encode()).hexdigest()


def waivers(
    conn: Connection, submission_id: int | None = None
) -> dict[int, list[tuple[str, str, str, Any]]]:
    """The waiver rows of each filing (of ``submission_id`` only, if given): code, reason
    and approver as text, the time as ``_same`` gives it (``None`` where it cannot be
    read), whatever was written into them."""
    c = waivers_table.c
    at, parse = as_stored(conn, c.waived_at)
    query = select(c.submission_id, c.code, c.reason, c.waived_by, at)
    if submission_id is not None:
        query = query.where(c.submission_id == submission_id)
    out: dict[int, list[tuple[str, str, str, Any]]] = {}
    for r in conn.execute(query.order_by(c.id)):
        when, ok = parsed(parse, r.waived_at)
        waived_at = _same(as_utc(when)) if ok and isinstance(when, dt.datetime) else None
        code, reason, by = (
            v if isinstance(v, str) else written(v) for v in (r.code, r.reason, r.waived_by)
        )
        out.setdefault(r.submission_id, []).append((code, reason, by, waived_at))
    return out


def disagreements(
    row: Any, told: Told | None, waived: list[tuple[str, str, str, Any]] | None = None
) -> list[str]:
    """Where a filing's row (all its columns) and its waiver rows (``waived``) no longer
    say what the log says of it: each in words; none where it agrees."""
    out = []
    content = row.content
    if not isinstance(content, bytes):
        out.append(AS_TEXT)
        content = str(content).encode()
    whole = hashlib.sha256(content).hexdigest() == row.sha256
    if isinstance(row.sha256, NotText):
        out.append("its sha256 is stored as bytes, not as text")
    elif not whole:
        out.append("its bytes no longer give its sha256")
    t = told or Told()
    if t.unreadable is not None:
        out.append(f"audit entry #{t.unreadable.id}, about it, cannot be read")
    if t.sha256 is None:
        return [*out, "the audit log holds no record of it"]
    if t.sha256 != row.sha256:
        out.append("its sha256 is not the one the audit log recorded")
    if t.twice:
        out.append("the audit log records it twice with no purge between: its id was given twice")
    if t.status != row.status:
        out.append(f"it says {row.status}; the audit log says {t.status}")
    said = dict(t.said)
    if whole and isinstance(row.content, bytes):
        try:
            said |= filed_under(row.content, row.filename)
        except StoreError as e:
            out.append(f"its facility, game and effective date cannot be read again: {e}")
    out += [
        f"{LABELS[column]} is stored as bytes in its row, not as text"
        if isinstance(getattr(row, column), NotText)
        else f"{LABELS[column]} is {_shown(getattr(row, column))} in its row; the audit log "
        + ("records none" if value is None else f"says {_shown(value)}")
        for column, value in said.items()
        if _same(getattr(row, column)) != _same(value)
    ]
    return out + _findings_held(row, t) + _waivers_held(waived or [], t)


def _findings_held(row: Any, t: Told) -> list[str]:
    """The stored findings counted against the counts the record entry holds."""
    found = _findings(row.findings)
    if found is None:
        return [FINDINGS_UNREADABLE]
    logged = {k: t.said.get(c) for k, c in (("errors", "errors"), ("warnings", "warnings"))}
    logged["info"] = t.said.get("infos")
    out = []
    if None not in logged.values() and counts(found) != logged:
        out.append(
            f"its recorded findings ({_counted(counts(found))}) are not the ones the audit log "
            f"recorded ({_counted(logged)})"
        )
    elif t.findings_sha256 is not None and digest(row.findings) != t.findings_sha256:
        out.append(
            "its recorded findings are not the ones the audit log recorded: the counts agree, "
            "the findings themselves were changed"
        )
    approval = getattr(row, "approval_findings", None)
    if approval is not None and _findings(approval) is None:
        out.append("the findings of its approval cannot be read (not a JSON list of findings)")
    elif t.approval_sha256 is not None and (
        approval is None or digest(approval) != t.approval_sha256
    ):
        out.append(
            "the findings its approval was decided on are not the ones the audit log "
            "recorded at the approval"
        )
    elif approval is not None and t.waived is not None:  # the findings the entry holds
        waived = {code for code, *_ in t.waived}
        standing = sorted(
            {
                str(f.get("code"))
                for f in _findings(approval) or []
                if f.get("severity") == "error" and f.get("code") not in waived
            }
        )
        if standing:  # ``Store.approve`` refuses an error finding no waiver covers
            out.append(
                "the audit log has it approved on an error finding no waiver covers ("
                + ", ".join(standing)
                + "): rulesub refuses such an approval"
            )
    return out


def _waivers_held(rows: list[tuple[str, str, str, Any]], t: Told) -> list[str]:
    """The waiver rows against the waivers the approval's entry holds (its code and
    reason, the approver and the time). An approval written before its entry held its
    waivers holds none to compare."""
    if t.waived is None:
        if rows and t.said.get("approved_by") is None:
            return ["it has waivers, and the audit log records no approval of it"]
        return []
    if any(at is None for *_, at in rows):
        return ["the time of one of its waivers cannot be read"]
    stored = sorted(rows)
    if stored == t.waived:
        return []
    return [
        f"its waivers ({_waived(stored)}) are not the ones the audit log recorded at its "
        f"approval ({_waived(t.waived)})"
    ]


def _waived(waived: list[tuple[str, str, str, str]]) -> str:
    if not waived:
        return "none"
    return "; ".join(
        f"{code} by {by} at {str(at).replace('+00:00', 'Z')}: {reason!r}"
        for code, reason, by, at in waived
    )


def _counted(c: dict[str, Any]) -> str:
    return f"{plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}, {c['info']} info"


def _same(value: Any) -> Any:
    """A value as compared: times in UTC, dates and times as ISO 8601 text."""
    if isinstance(value, dt.datetime):
        return as_utc(value).isoformat()  # type: ignore[union-attr]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _shown(value: Any) -> str:
    """A value for a message: a date or a time as written, else as the file would say it."""
    same = _same(value)
    if isinstance(value, dt.date):
        return str(same).replace("+00:00", "Z")
    return written(same)


# -- what a filing is filed under ----------------------------------------------------------------


def filed_under(
    content: bytes, name: str, findings: Iterable[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The certificate holder, facility, game and effective date of a filing's bytes: what
    ``record`` files it under, and ``audit verify`` reads again. ``findings``: the
    validator's, whose words (with the line and column) say why a key is unusable."""
    from validator.model.submission.plain_yaml import read_yaml

    try:
        data = read_yaml(Path(name), display=name, raw=content).data
    except RulesubError as e:
        raise StoreError(str(e)) from None
    if not isinstance(data, dict):
        raise StoreError(f"{name}: expected a Rules Submission (a mapping of keys){KEPT_UNDER}")
    facility, game, effective = filing_key(data, name, findings)
    holder = data.get("certificate_holder")
    return {
        # a holder of spaces alone names no one, as one not stated (it could take a facility)
        "certificate_holder": holder if isinstance(holder, str) and shows(holder) else None,
        "facility": facility,
        "game": game,
        "effective": effective,
    }


def filing_key(
    data: dict[str, Any], name: str, findings: Iterable[dict[str, Any]] = ()
) -> tuple[str, str, dt.date]:
    """The facility, game and effective date a filing is kept under; where one is missing
    or unusable, the validator's finding on it (``findings``) says why, at its line."""
    found = list(findings)
    facility, game, effective = data.get("facility"), data.get("game"), data.get("effective")
    missing = [
        k
        for k, v in (("facility", facility), ("game", game), ("effective", effective))
        if v is None or (isinstance(v, str) and not shows(v))  # spaces alone name nothing
    ]
    if missing:
        _unusable(found, missing[0], f"{name}: states no {', '.join(missing)}")
    if isinstance(effective, str):
        try:
            effective = dt.date.fromisoformat(effective)
        except ValueError:
            _unusable(
                found,
                "effective",
                f"{name}: effective: {written(effective)} is no date (expected YYYY-MM-DD)",
            )
    if isinstance(effective, dt.datetime):
        effective = effective.date()
    if not isinstance(effective, dt.date):
        _unusable(found, "effective", f"{name}: effective: expected a date (YYYY-MM-DD)")
    return str(facility), str(game), effective


def _unusable(findings: list[dict[str, Any]], key: str, otherwise: str) -> NoReturn:
    """``StoreError``: the validator's error finding on ``key``, where it has one, with its
    file, line and column; else ``otherwise``."""
    for f in findings:
        if f.get("path") == f"/{key}" and f.get("severity") == "error":
            raise StoreError(f"{f['file']}:{f['line']}:{f['column']}: {f['message']}{KEPT_UNDER}")
    raise StoreError(f"{otherwise}{KEPT_UNDER}")
