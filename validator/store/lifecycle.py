"""A submission's life in the store: recorded, approved or rejected, superseded, purged.

Each operation is one transaction: it checks the schema, does its work and writes its
audit entries, or changes nothing. What the rules refuse raises ``Refused`` (the commands
exit 1); an unknown submission or an unreadable file raises ``StoreError`` (exit 2).

Readings of the rules (the regulation copies hold no text of § 601a.2 itself), and the
office's policy:

- The rules an approval is decided on are the findings of the regulation in force at the
  approval: the stored findings when the game files are unchanged since the recording, a
  fresh check of the stored bytes otherwise (both stored with the approval).
- By the office's policy (``OfficePolicy``), not by any regulation the project encodes, an
  effective date before the approval date is an error finding
  (``rulesub/effective-before-approval``): rules are implemented only after the written
  approval. The policy is on unless the office turns it off; like every finding it may be
  waived, by name, with a reason.
- An approval supersedes each approved submission of the same facility and game whose
  effective date is earlier than its own, from its own effective date; one effective later
  (already approved for a later date) stays approved, and takes over from its date. An
  approval for a date inside an earlier filing's time in force (between two approvals)
  supersedes that filing from its own date, the earlier supersession cut short and
  audited again. The approval in force on a day (``in_force_on``) is the one effective
  latest on or before it, of those not superseded by then. An approval for the same
  effective date as one that held it is refused (``one_approval_per_date``, and the
  superseded filings' dates).
- Retention runs from when a filing stopped being in force: its rejection, or the day
  its successor took effect (not the day of the approval that superseded it, which may
  come years earlier). Approved and pending filings are never purged. A purge deletes
  filings, never audit entries: it appends its own.
- A facility belongs to one certificate holder: the one a reviewer set
  (``rulesub facilities set``), else the holder of its approved filings. A filing of
  another holder for it is refused (``rulesub/facility-of-another-holder``), when recorded
  and when approved, and an approval supersedes only its own holder's filings. A facility
  is found under every spelling of its name (``names.key``: case, spaces); a facility's or
  holder's name mixing scripts is refused (``rulesub/name-mixes-scripts``).
- Separation of duties: whoever recorded a filing does not approve or reject it
  (``may_decide``), at the command line as on the web.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy import exc as sa_exc

from validator import jsonout
from validator.counts import plural
from validator.errors import RulesubError
from validator.store import evidence, migrate, names
from validator.store.chain import GENESIS, Break, Head, as_utc, entry_hash, walk
from validator.store.database import (
    AUDIT_HEAD,
    READING,
    StoreError,
    describe,
    make_engine,
    resolve_url,
    sqlite_file,
    table_names,
    translated,
    write_ahead,
    write_back,
)
from validator.store.evidence import counts
from validator.store.schema import audit_log, facilities, submissions, waivers

RETENTION_YEARS = 5
EFFECTIVE_BEFORE_APPROVAL = "rulesub/effective-before-approval"
FACILITY_OF_ANOTHER_HOLDER = "rulesub/facility-of-another-holder"
NAME_MIXES_SCRIPTS = "rulesub/name-mixes-scripts"
#: An arbitrary, fixed key: PostgreSQL's advisory lock under which the chain grows.
AUDIT_LOCK = 7_145_515
#: The largest id a database key holds (SQLite's and PostgreSQL's 64-bit integers).
MAX_ID = 2**63 - 1
#: The office's policy on an effective date before the approval date: ``on`` (the default)
#: or ``off``.
POLICY_EFFECTIVE_BEFORE_APPROVAL = "RULESUB_POLICY_EFFECTIVE_BEFORE_APPROVAL"
_SWITCH = {"on": True, "true": True, "yes": True, "1": True}
_SWITCH |= {"off": False, "false": False, "no": False, "0": False}


@dataclass(frozen=True)
class OfficePolicy:
    """What the office holds itself to beyond the regulations: the store's settings that
    cite no section. ``effective_before_approval``: an approval dated after the
    submission's effective date is an error finding (on by default)."""

    effective_before_approval: bool = True

    @classmethod
    def from_environment(cls) -> OfficePolicy:
        value = os.environ.get(POLICY_EFFECTIVE_BEFORE_APPROVAL, "on").strip().lower()
        if value not in _SWITCH:
            raise StoreError(
                f"{POLICY_EFFECTIVE_BEFORE_APPROVAL}={value!r}: the office's policy on an "
                "effective date before the approval date is on or off"
            )
        return cls(effective_before_approval=_SWITCH[value])


class Refused(RulesubError):
    """The rules refuse the action; ``findings`` are the ones that stand in its way."""

    def __init__(self, message: str, findings: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.findings = findings or []


#: findings no waiver answers: the filing names no game, so no rule of it was checked
UNWAIVABLE = frozenset({"rulesub/unknown-game"})


class Unwaived(Refused):
    """An approval refused for its error findings that no waiver names (``findings``): the
    command line asks for ``--waive CODE=REASON``, the web for its form's Waivers."""

    def __init__(self, submission_id: int, findings: list[dict[str, Any]]) -> None:
        self.head = f"submission {submission_id} has {plural(len(findings), 'error finding')}"
        super().__init__(
            f"{self.head}; an approval needs none (or each waived with --waive CODE=REASON)",
            findings,
        )


class UnknownWaiver(StoreError):
    """A waiver that names no finding of the submission: wrong usage, not a rule."""

    def __init__(self, submission_id: int, codes: list[str], findings: list[str]) -> None:
        self.submission_id, self.codes, self.findings = submission_id, codes, findings
        super().__init__(
            f"--waive {', '.join(codes)}: submission {submission_id} has no such finding; "
            f"its findings are: {', '.join(findings) or 'none'}"
        )


class NoSubmission(StoreError):
    """No such submission, said where a person reads it: "the database", never its path
    (the path is named where it is the point: a database that cannot be opened)."""

    def __init__(self, submission_id: int) -> None:
        self.submission_id = submission_id
        super().__init__(f"no submission {submission_id} in the database")


@dataclass
class Recorded:
    id: int
    status: str
    sha256: str
    findings: list[dict[str, Any]]
    already: bool  # the same bytes were recorded before: this is that record
    regulation_version: str

    @property
    def counts(self) -> dict[str, int]:
        return counts(self.findings)

    def to_json(self) -> dict[str, Any]:
        """The contract of ``rulesub record --format json`` and ``POST /api/submissions``."""
        return {
            "id": self.id,
            "status": self.status,
            "sha256": self.sha256,
            "findings": self.counts,
            "already_recorded": self.already,
            "regulation_version": self.regulation_version,
        }


@dataclass
class Decision:
    id: int
    status: str
    by: str
    on: dt.date
    superseded: list[int] = field(default_factory=list)
    waived: list[dict[str, str]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _utc(now: dt.datetime | None) -> dt.datetime:
    """The time an action is written at: the one given, in UTC (the store writes UTC
    only: SQLite keeps no offset), else the clock's. Tests and the API may pass one."""
    return utcnow() if now is None else as_utc(now)  # type: ignore[return-value]


def iso(value: dt.datetime | dt.date | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return as_utc(value).isoformat(timespec="seconds").replace("+00:00", "Z")  # type: ignore[union-attr]
    return value.isoformat()


def years_before(day: dt.date, years: int) -> dt.date:
    """``years`` before ``day`` (28 February for a 29th in a common year); a period reaching
    past the calendar's first year keeps everything: the calendar's first day."""
    if years >= day.year:
        return dt.date.min
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


#: the audit log's table dropped: what ``audit verify`` says of it (exit 1, never "no
#: database")
AUDIT_LOG_GONE = (
    "the audit log's table is gone from the database, and every entry with it: the record "
    "of every filing and decision is lost"
)


class Store:
    """One database of submissions."""

    def __init__(
        self,
        db: str | None = None,
        *,
        must_exist: bool = False,
        policy: OfficePolicy | None = None,
        pooled: bool = False,
    ) -> None:
        """``pooled``: keep connections open between transactions (a server's store; a
        command's opens one for each transaction)."""
        self.policy = policy or OfficePolicy.from_environment()
        self.url = resolve_url(db)
        path = sqlite_file(self.url)
        if path is not None:
            if path.is_dir():
                raise StoreError(f"{path}: is a directory, not a database file")
            if not path.exists():
                if must_exist:
                    raise StoreError(
                        f"{path}: no database here yet (`rulesub record` creates it); "
                        "give --db or RULESUB_DB"
                    )
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise StoreError(f"{path.parent}: cannot create: {e.strerror}") from None
            elif must_exist and path.is_file() and path.stat().st_size == 0:
                # SQLite takes an empty file for an empty database and would write its schema
                # into it: a command that only reads leaves the file it was given as it was
                raise StoreError(
                    f"{path}: an empty file, not a rulesub database (`rulesub record` creates "
                    "one); give --db or RULESUB_DB"
                )
        #: the SQLite file this store is to create, where there was none
        self._creating = path if path is not None and not path.exists() else None
        self.engine: Engine = make_engine(self.url, pooled=pooled)
        self._held: Connection | None = None
        #: The reading transaction of the work in hand (``shared``): its reads join it.
        self._shared: ContextVar[Connection | None] = ContextVar("rulesub_shared", default=None)
        #: A transaction has found this rulesub's schema and committed: the next ones ask
        #: only for the schema's version (``migrate.confirm``).
        self._schema_seen = False

    @property
    def name(self) -> str:
        return describe(self.url)

    def discard_if_unwritten(self) -> None:
        """Remove the SQLite file this store created where nothing was written into it (a
        first filing refused): SQLite makes the file on connecting, and an empty one left
        behind would be refused by every later command as no database."""
        path = self._creating
        if path is not None and path.is_file() and path.stat().st_size == 0:
            self.engine.dispose()
            path.unlink(missing_ok=True)

    @contextmanager
    def transaction(self, *, reading: bool = False) -> Iterator[Connection]:
        """One transaction on a database of this rulesub's schema; ``reading``: one that
        only reads (on SQLite it takes no write lock)."""
        shared = self._shared.get()
        if shared is not None:  # a read within the work's one reading transaction
            if not reading:  # SQLite: its commit would wait on the read lock held here
                raise RuntimeError("a write inside a shared reading transaction")
            with translated(self.url):
                yield shared
            return
        if self._held is not None and not reading:
            with translated(self.url), self._held.begin():
                self._check(self._held)
                yield self._held
            self._schema_seen = True
            return
        with translated(self.url), self.engine.connect() as conn:
            if reading:
                conn = conn.execution_options(**{READING: True})
            with conn.begin():
                self._check(conn)
                yield conn
        self._schema_seen = True

    def open_reading(self) -> Connection:
        """A reading transaction begun (the schema checked) and left open, for the reads of
        one piece of work (a web request: who is asking, then the page's queries) to share
        through ``shared``; closing the connection ends it."""
        with translated(self.url):
            conn = self.engine.connect().execution_options(**{READING: True})
            try:
                conn.begin()
                self._check(conn, reading=True)
            except BaseException:
                conn.close()
                raise
        self._schema_seen = True
        return conn

    @contextmanager
    def shared(self, conn: Connection, *, close: bool = False) -> Iterator[None]:
        """Within: ``transaction(reading=True)`` is ``conn``'s open transaction (no new
        connection, no new check); ``close``: the connection is closed on leaving (its
        transaction ends). Writing transactions are their own, as ever."""
        token = self._shared.set(conn)
        try:
            yield
        finally:
            self._shared.reset(token)
            if close:
                with translated(self.url):
                    conn.close()

    def _check(self, conn: Connection, *, reading: bool = False) -> None:
        """The schema checked; ``reading`` (a transaction that only reads, left open): the
        audit head read in the same statement, kept for ``audit_head_read``."""
        conn.info.pop(AUDIT_HEAD, None)
        if not self._schema_seen:
            migrate.check(conn, self.url)
        elif not reading:
            migrate.confirm(conn, self.url)
        else:
            head = migrate.confirm_reading(conn, self.url)
            if head is not None:
                conn.info[AUDIT_HEAD] = (conn.get_transaction(), head)

    @contextmanager
    def session(self, *, many: bool = False) -> Iterator[None]:
        """The writing transactions within on one connection, each still its own
        transaction committed before the next (``record`` of many files); ``many``: on
        SQLite, their commits journalled ahead (``database.write_ahead``), as durable."""
        with translated(self.url), self.engine.connect() as conn:
            mode = write_ahead(conn) if many else None
            self._held = conn
            try:
                yield
            finally:
                self._held = None
                write_back(conn, mode)

    def upgrade(self, by: str) -> tuple[str | None, str]:
        with translated(self.url), self.engine.connect() as conn, conn.begin():
            before, after = migrate.upgrade(conn, self.url)
            if before != after:
                _audit(conn, by, "upgrade", None, {"from": before, "to": after})
            return before, after

    def dispose(self) -> None:
        self.engine.dispose()

    # -- record ------------------------------------------------------------------------

    def record(
        self, path: Path, by: str, *, now: dt.datetime | None = None, display: str | None = None
    ) -> Recorded:
        """File a submission as it is: its bytes, its findings now, as ``submitted``."""
        now = _utc(now)
        by = named(by)
        name = in_words(display or str(path), "the file's name")
        content = _read(path, name)
        # the findings of exactly the bytes stored, even if the file changes meanwhile
        findings, _ = _with_file(content, name, lambda p: check_file(p, name))
        key = evidence.filed_under(content, name, findings)
        facility, game, effective = key["facility"], key["game"], key["effective"]
        sha = hashlib.sha256(content).hexdigest()
        holder = key["certificate_holder"]
        version = regulation_version(game)
        c = counts(findings)
        stored = jsonout.dumps(findings)
        row = {
            "sha256": sha,
            "content": content,
            "filename": name,
            "certificate_holder": holder,
            "facility": facility,
            "game": game,
            "effective": effective,
            "recorded_at": now,
            "recorded_by": by,
            "regulation_version": version,
            "findings": stored,
            "errors": c["errors"],
            "warnings": c["warnings"],
            "infos": c["info"],
            "status": "submitted",
        }
        try:
            with self.transaction() as conn:
                existing = _by_sha(conn, sha)
                if existing is not None:
                    return _recorded(existing, already=True)
                _own_facility(conn, content, name, key, "recorded")
                inserted = conn.execute(insert(submissions).values(**row)).inserted_primary_key
                assert inserted is not None
                new_id = inserted[0]
                _never_given_before(conn, new_id)
                _audit(
                    conn,
                    by,
                    "record",
                    new_id,
                    {
                        "sha256": sha,
                        "file": name,
                        "findings": c,
                        "findings_sha256": evidence.digest(stored),
                        "regulation_version": version,
                    },
                    now,
                )
        except sa_exc.IntegrityError as e:  # the same bytes, recorded at this moment elsewhere
            with self.transaction() as conn:
                existing = _by_sha(conn, sha)
            if existing is None:
                raise _refused_by_a_key(e, "the filing") from None
            return _recorded(existing, already=True)
        return Recorded(new_id, "submitted", sha, findings, False, version)

    # -- decisions ---------------------------------------------------------------------

    def approve(
        self,
        submission_id: int,
        by: str,
        *,
        on: dt.date | None = None,
        note: str | None = None,
        waive: Mapping[str, str] | None = None,
        now: dt.datetime | None = None,
    ) -> Decision:
        now = _utc(now)
        on = on or now.date()
        by = named(by)
        waive = {
            code: in_words(why, f"the reason of waiving {code}")
            for code, why in (waive or {}).items()
        }
        note = in_words(note, "the approval's note") if note and note.strip() else None
        held = f"submission {submission_id}'s facility, game and effective date"
        try:
            with self.transaction() as conn:
                row = self._pending(conn, submission_id, "approve")
                _not_recorded_by(row, by)
                from validator.compiler import game_name  # the chapter's name, never the id

                held = f"{row.facility}, {game_name(row.game)} from {row.effective}"
                _one_approver(conn, row.facility, row.game)
                _own_facility(conn, row.content, row.filename, _filed_under(row), "approved")
                _not_held_already(conn, row, held)
                _not_before_recording(row, on, "an approval")
                _not_after_today(on, now)
                findings = self._decided_on(row, on, waive)
                decided_on = jsonout.dumps(findings)
                superseded = _to_supersede(conn, row, on)
                if superseded:
                    conn.execute(
                        update(submissions)
                        .where(submissions.c.id.in_(superseded))
                        .values(
                            status="superseded",
                            superseded_by=row.id,
                            superseded_on=row.effective,
                            ended_at=now,
                        )
                    )
                done = conn.execute(
                    update(submissions)
                    .where(submissions.c.id == row.id, submissions.c.status == "submitted")
                    .values(
                        status="approved",
                        approved_by=by,
                        approved_on=on,
                        approval_note=note,
                        approval_findings=decided_on,
                        decided_at=now,
                    )
                )
                if done.rowcount != 1:  # decided by another process meanwhile
                    raise Refused(f"submission {submission_id} was decided meanwhile")
                waived = [{"code": c, "reason": r} for c, r in sorted(waive.items())]
                for w in waived:
                    conn.execute(
                        insert(waivers).values(
                            submission_id=row.id, waived_by=by, waived_at=now, **w
                        )
                    )
                _audit(
                    conn,
                    by,
                    "approve",
                    row.id,
                    {
                        "approved_on": iso(on),
                        "note": note,
                        "waived": waived,
                        "findings_sha256": evidence.digest(decided_on),
                    },
                    now,
                )
                for old in superseded:
                    _audit(
                        conn,
                        by,
                        "supersede",
                        old,
                        {"superseded_by": row.id, "from": iso(row.effective)},
                        now,
                    )
                _replace_earlier(conn, row, by, now)
        except sa_exc.IntegrityError as e:
            if _constraint(e) != "one_approval_per_date":
                raise _refused_by_a_key(e, f"the approval of submission {submission_id}") from None
            raise _held_already(held, submission_id) from None
        return Decision(row.id, "approved", by, on, superseded, waived, findings)

    def _decided_on(self, row: Row[Any], on: dt.date, waive: Mapping[str, str]) -> list[Any]:
        """The findings an approval on ``on`` is decided on; refused while an error finding
        stands unwaived, wrong usage where a waiver names no finding of it."""
        findings = _findings_now(row)
        unchecked = [f for f in findings if f["code"] in UNWAIVABLE]
        if unchecked:  # no rule of the game was checked: nothing a waiver could stand for
            raise Refused(
                f"submission {row.id} names no game rulesub has ({row.game!r}): none of its "
                "rules could be checked, so it cannot be approved, with or without a waiver; "
                "a corrected filing names the game",
                unchecked,
            )
        if self.policy.effective_before_approval and row.effective < on:
            findings.append(_effective_finding(row, on))
        codes = {f["code"] for f in findings}
        unknown = sorted(set(waive) - codes)
        if unknown:
            raise UnknownWaiver(row.id, unknown, sorted(codes))
        blocking = [f for f in findings if f["severity"] == "error"]
        blocking = [f for f in blocking if f["code"] not in waive]
        if blocking:
            raise Unwaived(row.id, blocking)
        return findings

    def reject(
        self, submission_id: int, by: str, reason: str, *, now: dt.datetime | None = None
    ) -> Decision:
        now = _utc(now)
        by = named(by)
        reason = in_words(reason, "the reason of the rejection")
        with self.transaction() as conn:
            row = self._pending(conn, submission_id, "reject")
            _not_recorded_by(row, by)
            _not_before_recording(row, now.date(), "a rejection")
            done = conn.execute(
                update(submissions)
                .where(submissions.c.id == row.id, submissions.c.status == "submitted")
                .values(
                    status="rejected",
                    rejected_by=by,
                    rejected_on=now.date(),
                    rejection_reason=reason,
                    decided_at=now,
                    ended_at=now,
                )
            )
            if done.rowcount != 1:
                raise Refused(f"submission {submission_id} was decided meanwhile")
            _audit(conn, by, "reject", row.id, {"reason": reason}, now)
        return Decision(row.id, "rejected", by, now.date())

    def withdraw(self, submission_id: int, by: str, *, now: dt.datetime | None = None) -> Decision:
        """The holder takes back its pending filing: ``withdrawn``, audited, kept."""
        now = _utc(now)
        by = named(by)
        with self.transaction() as conn:
            row = self._pending(conn, submission_id, "withdraw")
            done = conn.execute(
                update(submissions)
                .where(submissions.c.id == row.id, submissions.c.status == "submitted")
                .values(status="withdrawn", decided_at=now, ended_at=now)
            )
            if done.rowcount != 1:
                raise Refused(f"submission {submission_id} was decided meanwhile")
            _audit(conn, by, "withdraw", row.id, {}, now)
        return Decision(row.id, "withdrawn", by, now.date())

    def replaces(self, submission_id: int) -> list[int]:
        """The pending filings a filing would replace if approved: the same holder's, for
        the same facility, game and effective date, filed before it."""
        with self.transaction(reading=True) as conn:
            row = conn.execute(select(submissions).where(submissions.c.id == submission_id)).first()
            return [] if row is None else _earlier_pending(conn, row)

    def _pending(self, conn: Connection, submission_id: int, verb: str) -> Row[Any]:
        self._known(submission_id)
        row = conn.execute(select(submissions).where(submissions.c.id == submission_id)).first()
        if row is None:
            raise NoSubmission(submission_id)
        _as_logged(conn, row, verb)
        if row.status != "submitted":
            raise Refused(
                f"submission {submission_id} is {_how_ended(row)}: only a submitted one can "
                f"be {evidence.DECIDED[verb]}"
            )
        return row

    # -- reading -----------------------------------------------------------------------

    def _known(self, submission_id: int) -> None:
        """An id no database key can hold names no submission (not a database error)."""
        if not 0 < submission_id <= MAX_ID:
            raise NoSubmission(submission_id)

    def get(self, submission_id: int) -> Row[Any]:
        self._known(submission_id)
        with self.transaction(reading=True) as conn:
            row = conn.execute(select(submissions).where(submissions.c.id == submission_id)).first()
        if row is None:
            raise NoSubmission(submission_id)
        return evidence.readable(row, submission_id)

    def history(self, facility: str | None = None, game: str | None = None) -> list[Row[Any]]:
        query = select(*[c for c in submissions.c if c.name != "content"])
        if game is not None:
            query = query.where(submissions.c.game == game)
        query = query.order_by(
            submissions.c.facility, submissions.c.game, submissions.c.effective, submissions.c.id
        )
        with self.transaction(reading=True) as conn:
            if facility is not None:  # under every spelling of its name
                query = query.where(submissions.c.facility.in_(_spellings(conn, facility)))
            return list(conn.execute(query))

    def events(self, submission_ids: list[int] | None = None) -> list[evidence.Entry]:
        """The audit entries (of ``submission_ids``), in order; one that cannot be read is
        ``Damaged``, named."""
        where = [] if submission_ids is None else [audit_log.c.submission_id.in_(submission_ids)]
        with self.transaction(reading=True) as conn:
            return [e.readable() for e in evidence.entries(conn, *where)]

    def waivers_of(self, submission_id: int) -> list[Row[Any]]:
        with self.transaction(reading=True) as conn:
            return list(
                conn.execute(
                    select(waivers)
                    .where(waivers.c.submission_id == submission_id)
                    .order_by(waivers.c.id)
                )
            )

    def approved_for(self, facility: str, game: str, on: dt.date | None = None) -> Row[Any] | None:
        """The approval of a facility and game in force on ``on`` (``in_force_on``): the one a
        filing effective that day would replace. Without ``on``: the latest effective."""
        with self.transaction(reading=True) as conn:
            rows = conn.execute(
                select(submissions).where(
                    and_(
                        submissions.c.facility.in_(_spellings(conn, facility)),
                        submissions.c.game == game,
                        submissions.c.status.in_(("approved", "superseded")),
                    )
                )
            ).all()
        if on is None:
            approved = [r for r in rows if r.status == "approved"]
            row = max(approved, key=lambda r: (r.effective, r.id), default=None)
        else:
            row = in_force_on(rows, on)
        return None if row is None else evidence.readable(row, row.id)

    def counterpart(self, row: Row[Any]) -> Row[Any] | None:
        """The approved submission a recorded filing is compared with, or ``None``: for one
        approved (or superseded since), the approval it superseded, never itself; for one
        not approved, the approval in force on its effective date, the one it would
        replace. A filing ``replaced`` by an approval names it in ``superseded_by`` too, but
        never had an approval of its own to be compared with."""
        if row.status in ("approved", "superseded"):
            older = [
                r
                for r in self.history(row.facility, row.game)
                if r.superseded_by == row.id and r.status in ("approved", "superseded")
            ]
            if not older:
                return None
            return self.get(max(older, key=lambda r: (r.effective, r.id)).id)
        approved = self.approved_for(row.facility, row.game, on=row.effective)
        if approved is None or approved.id == row.id:
            return None
        return approved

    def holds_facility(self, facility: str, holder: str | None) -> bool:
        """Whether ``facility`` is ``holder``'s, or no one's yet: whether a filing of
        ``holder`` for it could be recorded (``FACILITY_OF_ANOTHER_HOLDER``)."""
        with self.transaction(reading=True) as conn:
            return _facility_holder(conn, facility, holder)

    def find_sha(self, sha: str) -> Row[Any] | None:
        with self.transaction(reading=True) as conn:
            row = _by_sha(conn, sha)
        return None if row is None else evidence.readable(row, row.id)

    # -- the audit log's chain -----------------------------------------------------------

    def audit_head(self) -> Head:
        """The head of the audit log's hash chain, as stored: what ``history`` prints and
        every review pack carries, for anyone to compare with ``audit verify`` later."""
        with self.transaction(reading=True) as conn:
            last = conn.execute(
                select(audit_log.c.id, audit_log.c.entry_hash, audit_log.c.at)
                .order_by(audit_log.c.id.desc())
                .limit(1)
            ).first()
            count = conn.execute(select(func.count()).select_from(audit_log)).scalar_one()
        if last is None:
            return Head(0, None, GENESIS)
        return Head(int(count), last.id, last.entry_hash, as_utc(last.at))

    def verify_audit(self) -> tuple[Head, Break | None]:
        """Walk the whole chain: the head reached and the first break, if any. On SQLite,
        whose ids are given without gaps, the last id given is checked too: entries cut
        from the end of the log show there (unless that counter was rewritten as well). On
        PostgreSQL, whose next id is its counter's alone, a counter set back below the last
        entry is named: the next entry would fail on a number given before."""
        with self.transaction(reading=True) as conn:
            if "audit_log" not in table_names(conn):
                return Head(0, None, GENESIS), Break(1, AUDIT_LOG_GONE)
            gapless = conn.dialect.name == "sqlite"
            head, broken = walk(evidence.entries(conn), gapless=gapless)
            given = _last_given(conn, "audit_log") if broken is None else None
            last = head.entry or 0
            # PostgreSQL's next number is its counter's alone: set back, one the log holds
            # (SQLite's is past the last row's whatever its counter says)
            if given is not None and given < last and not gapless:
                broken = Break(
                    last + 1,
                    f"the log's counter of entries was set back to #{given}, below entry "
                    f"#{last}: the next entry would be given a number given before",
                )
            # SQLite gives its numbers without gaps: one given past the last entry is an
            # entry cut from the end (PostgreSQL's counter skips what a transaction rolled back)
            elif given is not None and gapless and given > last:
                cut = (
                    f"entry #{given} was"
                    if given == last + 1
                    else f"entries #{last + 1} to #{given} were"
                )
                broken = Break(
                    last + 1,
                    f"{cut} deleted from the end of the log: ids up to #{given} were given",
                )
            return head, broken

    def holds_audit_log(self) -> bool:
        """Whether the database still has its audit log's table."""
        with self.transaction(reading=True) as conn:
            return "audit_log" in table_names(conn)

    def append_only_missing(self) -> list[str]:
        """The triggers that keep the audit log append-only (the migrations' own), by name,
        that are no longer in the database, or (PostgreSQL) are there but disabled, as the
        table's owner may do without dropping them: either is the first step of editing the
        log in place, which the chain still shows."""
        with self.transaction(reading=True) as conn:
            if conn.dialect.name == "sqlite":
                wanted = {"audit_log_no_update", "audit_log_no_delete"}
                found = conn.execute(
                    text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                ).scalars()
            else:
                wanted = {"audit_log_append_only"}
                found = conn.execute(  # one that fires in every session: 'O' or 'A' (a
                    text(  # trigger disabled, 'D', or for replicas alone, 'R', holds nothing)
                        "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                        "WHERE c.relname = 'audit_log' AND NOT t.tgisinternal "
                        "AND t.tgenabled IN ('O', 'A')"
                    )
                ).scalars()
            return sorted(wanted - set(found))

    def kept_head_differs(self, entry: int, kept: str) -> str | None:
        """Why the log no longer holds a chain head written down before (``history``
        prints one, every review pack carries one): entry ``entry`` gone, or its hash not
        the one ``kept`` (a prefix of it, eight hex digits at least, and where it is cut
        short as printed, "ad1d2dbf…94ff", the end after the "…" too); ``None`` where it
        holds. A log cut short, rewritten whole or restored from an earlier copy is a chain
        that holds by itself: only a kept head shows it."""
        with self.transaction(reading=True) as conn:
            now = conn.execute(
                select(audit_log.c.entry_hash).where(audit_log.c.id == entry)
            ).scalar()
        if now is None:
            return (
                f"entry #{entry}, the head kept, is not in the log: the log was cut short "
                "or restored from an earlier copy"
            )
        start, _, end = kept.lower().partition("…")  # as printed, cut short: both ends
        if not (str(now).lower().startswith(start) and str(now).lower().endswith(end)):
            return (
                f"entry #{entry}'s hash is {now}, not the {kept} kept: the history up to "
                "that entry was rewritten, or the log restored from another copy"
            )
        return None

    def unmatched_filings(self) -> list[dict[str, Any]]:
        """The filings that no longer say what the audit log says of them
        (``evidence.disagreements``: their bytes, sha256, status, findings, who decided and
        when, what they are filed under), and the filings the log records and never purged
        whose rows are gone (a row deleted directly). Only as trustworthy as the chain:
        ``verify_audit`` first."""
        with self.transaction(reading=True) as conn:
            said, waived = evidence.told(conn), evidence.waivers(conn)
            out, ids = [], []
            for r, unreadable in evidence.rows_as_stored(conn):
                ids.append(r.id)
                wrong = [f"{what} cannot be read" for what in unreadable]
                if not unreadable:
                    wrong += evidence.disagreements(r, said.get(r.id), waived.get(r.id))
                if wrong:
                    out.append({"submission": r.id, "reason": "; ".join(wrong)})
            out += _numbers_given_again(conn, said)
        out += evidence.gone(said, ids)
        return sorted(out, key=lambda f: int(f["submission"]))

    # -- facilities ------------------------------------------------------------------------

    def facilities(self) -> list[dict[str, Any]]:
        """Every facility the store knows, with the certificate holder it belongs to: the
        one a reviewer set, else the holder(s) of its approved filings."""
        with self.transaction(reading=True) as conn:
            # by the name's key (every spelling of it one facility), as a reviewer set it,
            # else as first filed
            set_rows = {names.key(r.facility): r for r in _set_facilities(conn)}
            shown = {k: r.facility for k, r in set_rows.items()}
            approved: dict[str, list[str]] = {}
            known: dict[str, list[str]] = {}
            rows = conn.execute(
                select(
                    submissions.c.facility, submissions.c.certificate_holder, submissions.c.status
                ).order_by(submissions.c.id)
            )
            for r in rows:
                k = names.key(r.facility)
                shown.setdefault(k, r.facility)
                holder = r.certificate_holder or ""
                if holder not in known.setdefault(k, []):
                    known[k].append(holder)
                if r.status == "approved" and holder not in approved.setdefault(k, []):
                    approved[k].append(holder)
        out = []
        for k in sorted(shown, key=lambda k: shown[k]):
            s = set_rows.get(k)
            held = approved.get(k, [])
            out.append(
                {
                    "facility": shown[k],
                    "certificate_holder": s.certificate_holder
                    if s is not None
                    else (held[0] if len(held) == 1 else None),
                    "set_by": None if s is None else s.set_by,
                    "set_at": None if s is None else iso(s.set_at),
                    "approved_holders": held,
                    "filing_holders": known.get(k, []),
                }
            )
        return out

    def set_facility(
        self, facility: str, holder: str, by: str, *, now: dt.datetime | None = None
    ) -> str | None:
        """A reviewer sets which certificate holder ``facility`` (under any spelling of its
        name: kept under the one it is known by) belongs to; the holder it was set to
        before, if any."""
        now = _utc(now)
        by = named(by)
        if not facility.strip() or not holder.strip():
            raise StoreError("name the facility and its certificate holder")
        for what, name in (("facility", facility), ("certificate holder", holder)):
            why = names.out_of_place(name)
            if why is not None:
                raise Refused(f"{what} {name!r}: {why}; nothing was changed")
        with self.transaction() as conn:
            _facility_turn(conn, facility)
            # the facility under any spelling of its name a reviewer set before, else as
            # first filed: a facility keeps the name it is known by
            spelled = [r for r in _set_facilities(conn) if names.same(r.facility, facility)]
            was = spelled[-1].certificate_holder if spelled else None
            if not spelled:
                c = submissions.c
                filed = conn.execute(
                    select(c.facility)
                    .where(c.facility.in_(_spellings(conn, facility)))
                    .order_by(c.id)
                    .limit(1)
                ).scalar()
                facility = filed or facility
                conn.execute(
                    insert(facilities).values(
                        facility=facility, certificate_holder=holder, set_by=by, set_at=now
                    )
                )
            else:
                facility = spelled[-1].facility
                conn.execute(
                    update(facilities)
                    .where(facilities.c.facility.in_([r.facility for r in spelled]))
                    .values(certificate_holder=holder, set_by=by, set_at=now)
                )
            _audit(
                conn,
                by,
                "facility-holder",
                None,
                {"facility": facility, "certificate_holder": holder, "was": was},
                now,
            )
        return was

    def unmatched_facilities(self) -> list[dict[str, str]]:
        """The facilities whose certificate holder is not the one the audit log set
        (``facility-holder``, the last for each name however spelled), with who set it; one
        the log never set; and one the log set whose row is gone (``rulesub audit
        verify``). A holder rewritten in the database would let another holder file for
        the facility. Only as trustworthy as the chain: ``verify_audit`` first."""
        with self.transaction(reading=True) as conn:
            said: dict[str, dict[str, Any]] = {}
            for e in evidence.entries(conn, audit_log.c.action == "facility-holder"):
                name = e.data.get("facility")
                if e.unreadable is None and isinstance(name, str):
                    said[names.key(name)] = {**e.data, "by": e.actor}
            rows = list(
                conn.execute(
                    select(
                        facilities.c.facility, facilities.c.certificate_holder, facilities.c.set_by
                    )
                )
            )
        out, seen = [], set()
        for r in rows:
            k = names.key(r.facility)
            seen.add(k)
            s = said.get(k)
            if s is None:
                out.append({"facility": r.facility, "reason": "the audit log never set its holder"})
            elif (r.certificate_holder, r.set_by) != (s.get("certificate_holder"), s["by"]):
                out.append(
                    {
                        "facility": r.facility,
                        "reason": f"its certificate holder is {r.certificate_holder}, set by "
                        f"{r.set_by}; the audit log set {s.get('certificate_holder')}, by "
                        f"{s['by']}",
                    }
                )
        out += [
            {"facility": s["facility"], "reason": "the audit log set its holder; its row is gone"}
            for k, s in said.items()
            if k not in seen
        ]
        return sorted(out, key=lambda f: f["facility"])

    # -- retention ---------------------------------------------------------------------

    def purge(
        self,
        before: dt.date,
        by: str,
        *,
        retention_years: int = RETENTION_YEARS,
        now: dt.datetime | None = None,
    ) -> list[int]:
        """Delete the rejected and superseded filings that ended before ``before``; refuse
        a ``before`` inside the retention period."""
        now = _utc(now)
        by = named(by)
        if retention_years < 1:
            raise StoreError("the retention period is at least one year")
        limit = years_before(now.date(), retention_years)
        if before > limit:
            raise Refused(
                f"--before {before} is inside the retention period of "
                f"{plural(retention_years, 'year')}: filings that ended after {limit} are "
                "kept; nothing was purged"
            )
        cutoff = dt.datetime.combine(before, dt.time(), tzinfo=dt.UTC)
        with self.transaction() as conn:
            rows = list(
                conn.execute(
                    select(
                        submissions.c.id,
                        submissions.c.sha256,
                        submissions.c.facility,
                        submissions.c.game,
                        submissions.c.status,
                        submissions.c.ended_at,
                    ).where(
                        submissions.c.status.in_(("rejected", "superseded")),
                        submissions.c.ended_at < cutoff,
                        # superseded: in force until its successor took effect
                        or_(
                            submissions.c.superseded_on.is_(None),
                            submissions.c.superseded_on < before,
                        ),
                    )
                )
            )
            ids = [r.id for r in rows]
            if ids:
                conn.execute(
                    update(submissions)
                    .where(submissions.c.superseded_by.in_(ids))
                    .values(superseded_by=None)
                )
                conn.execute(delete(waivers).where(waivers.c.submission_id.in_(ids)))
                conn.execute(delete(submissions).where(submissions.c.id.in_(ids)))
            for r in rows:
                _audit(
                    conn,
                    by,
                    "purge",
                    r.id,
                    {
                        "sha256": r.sha256,
                        "facility": r.facility,
                        "game": r.game,
                        "status": r.status,
                        "ended_at": iso(r.ended_at),
                        "before": iso(before),
                        "retention_years": retention_years,
                    },
                    now,
                )
        return ids


# -- helpers ----------------------------------------------------------------------------


def _how_ended(row: Any) -> str:
    """A filing no longer pending, in words: "approved (by rev)", "superseded by #6 from
    2027-06-01 (approved by rev)", "replaced by #31", "withdrawn". A superseded filing's
    approver is its own, never the one whose approval superseded it."""
    if row.status == "approved":
        return f"approved (by {row.approved_by})"
    if row.status == "rejected":
        return f"rejected (by {row.rejected_by})"
    gone = names.ended(row)
    if row.status == "superseded" and gone:
        return f"{gone} (approved by {row.approved_by})"
    return gone or str(row.status)


def _never_given_before(conn: Connection, submission_id: int) -> None:
    """A new filing's number is one the audit log has never named: a purged filing's given
    again (its counter set back by hand) would wear the first one's entries."""
    again = conn.execute(
        select(audit_log.c.id).where(audit_log.c.submission_id == submission_id).limit(1)
    ).first()
    if again is not None:
        raise evidence.Damaged(
            f"filing number {submission_id}",
            "the audit log records a filing of that number already (its counter was set "
            "back): a filing's number is never given twice, and nothing was recorded",
        )


def _last_given(conn: Connection, table: str) -> int | None:
    """The last number a table's counter gave: SQLite's ``sqlite_sequence``, PostgreSQL's
    identity sequence (``last_value``, less one where it has given none since it was set)."""
    if conn.dialect.name == "sqlite":
        given = conn.execute(
            text("SELECT seq FROM sqlite_sequence WHERE name = :t"), {"t": table}
        ).scalar()
        return None if given is None else int(given)
    sequence = conn.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table}).scalar()
    if sequence is None:
        return None
    last, called = conn.execute(
        text(f"SELECT last_value, is_called FROM {sequence}")  # a name the catalogue gave
    ).one()
    return int(last) if called else int(last) - 1


def _numbers_given_again(conn: Connection, said: Mapping[int, Any]) -> list[dict[str, Any]]:
    """The counter of filing numbers set back below a number the audit log records: the
    next filing would be given that number again, and the log's entries of the first would
    show on it. Named before it happens (``record`` refuses it after)."""
    if not said:
        return []
    given = _last_given(conn, "submissions")
    most = max(said)
    if given is None or given >= most:
        return []
    return [
        {
            "submission": most,
            "reason": f"the store's counter of filing numbers was set back to #{given}, "
            f"below #{most}, which the audit log records: a filing's number is never "
            "given twice",
        }
    ]


def named(by: str) -> str:
    """Who acts, as the audit log keeps it: never blank, every character seen (the one
    check, for every command, the web view and every entry appended): a line break or a
    terminal's escape in a name would print a line of history no one wrote."""
    if not isinstance(by, str) or not by.strip():
        raise StoreError("name the officer who acts (the audit log keeps it)")
    return in_words(by, "the name of the officer who acts")


#: the most characters a name, a reason or a note the record prints may hold
MOST_WORDS = 2000


def in_words(text: str, what: str) -> str:
    """A name, a reason or a note the record keeps and prints: one line of characters a
    page shows (``validator.model.base.unseen``), some of them seen, and no more than
    ``MOST_WORDS`` of them; else refused, saying which."""
    from validator.model.base import shows, unseen

    why = unseen(text)
    if why is None and not shows(text):
        why = "it shows nothing on a page"
    if why is None and len(text) > MOST_WORDS:
        why = f"{len(text):,} characters, more than the {MOST_WORDS:,} a record prints"
    if why is not None:
        raise StoreError(
            f"{what}: {why}: a name, a reason or a note is one line of words a page shows; "
            "nothing was recorded"
        )
    return text


def _read(path: Path, name: str) -> bytes:
    """A filing's bytes, by the loader's one bounded reader: a regular file only, at most
    its size cap (a FIFO, a device or a huge file is refused, not read)."""
    from validator.loader import LoadError, read_bytes

    try:
        return read_bytes(path, display=name)
    except LoadError as e:
        raise StoreError(str(e)) from None


def _as_logged(conn: Connection, row: Row[Any], verb: str) -> None:
    """Refuse to decide on a filing whose row no longer says what the audit log says of it
    (the check ``audit verify`` makes of every filing, made here of this one): an edited row
    is never decided on. A row or an entry that cannot be read is ``Damaged``."""
    evidence.readable(row, row.id)
    said = evidence.told(conn, row.id).get(row.id)
    if said is not None and said.unreadable is not None:
        said.unreadable.readable()
    waived = evidence.waivers(conn, row.id).get(row.id)
    wrong = evidence.disagreements(row, said, waived)
    if wrong:
        raise Refused(
            f"submission {row.id} does not match the audit log: {'; '.join(wrong)}; it cannot "
            f"be {evidence.DECIDED[verb]} until its record is restored (`rulesub audit verify` "
            "names every filing that does not match)"
        )


def may_decide(recorded_by: str | None, by: str) -> bool:
    """Separation of duties: whether ``by`` may approve or reject a filing recorded by
    ``recorded_by``, i.e. is not who recorded it, the names compared as the store compares
    every name a person writes (``names.same``: ``"Alice "``, ``"alice"`` are one officer).
    The one rule, for the store's decisions and the web's forms (``Account.decides``)."""
    return not names.same(recorded_by, by)


def _not_recorded_by(row: Row[Any], by: str) -> None:
    """Refuse a decision by whoever recorded the filing (``may_decide``)."""
    if not may_decide(row.recorded_by, by):
        raise Refused(
            f"submission {row.id} was recorded by {row.recorded_by}: another officer approves "
            "or rejects it (separation of duties); nothing was changed"
        )


def _not_before_recording(row: Row[Any], on: dt.date, what: str) -> None:
    """Refuse a decision dated before the filing was recorded."""
    recorded = as_utc(row.recorded_at).date()  # type: ignore[union-attr]
    if on < recorded:
        raise Refused(
            f"{what} dated {on} is before submission {row.id} was recorded, on {recorded}: "
            "a filing is decided on or after the day it was filed"
        )


def today(now: dt.datetime) -> dt.date:
    """The day a decision written at ``now`` is made on: its date in UTC."""
    return now.date()


def decision_day() -> dt.date:
    """Today, as a decision made now is dated at the latest (the web form's default)."""
    return today(utcnow())


def _not_after_today(on: dt.date, now: dt.datetime) -> None:
    """Refuse an approval dated after the day it is made: each later approval must be dated
    on or after the one it supersedes, so one dated in a mistyped year (9999) would hold
    every later decision of its facility and game. When the rules start is the
    submission's effective date, not the approval's."""
    if on > today(now):
        raise Refused(
            f"an approval dated {on} is after today, {today(now)}: a decision is dated on or "
            "before the day it is made (the submission's effective date says when its "
            "rules start)"
        )


def _to_supersede(conn: Connection, row: Row[Any], on: dt.date) -> list[int]:
    """The filings an approval of ``row`` on ``on`` supersedes from its effective date: its
    holder's, of its facility and game, effective earlier, approved, or superseded only
    from a later day (an approval for a date between two approvals cuts the earlier one's
    time in force short at its own date). Refused where one of them was approved after
    ``on``: an approval never supersedes one dated after it."""
    c = submissions.c
    older = conn.execute(
        select(c.id, c.approved_on)
        .where(
            c.facility.in_(_spellings(conn, row.facility)),
            c.game == row.game,
            c.effective < row.effective,
            c.certificate_holder.is_not_distinct_from(row.certificate_holder),
            or_(
                c.status == "approved",
                and_(
                    c.status == "superseded",
                    c.approved_on.is_not(None),
                    c.superseded_on > row.effective,
                ),
            ),
        )
        .order_by(c.id)
    ).all()
    _dated_after(older, on)
    return [old.id for old in older]


def _dated_after(older: Iterable[Any], on: dt.date) -> None:
    """Refuse an approval dated before one it would supersede."""
    for old in older:
        if old.approved_on is not None and old.approved_on > on:
            raise Refused(
                f"an approval dated {on} would supersede submission {old.id}, approved on "
                f"{old.approved_on}: an approval is dated on or after the approval it "
                "supersedes"
            )


def in_force_on(rows: Iterable[Any], day: dt.date) -> Any:
    """The approval in force on ``day`` among ``rows`` (filings of one facility and game):
    of those approved, and not yet superseded on ``day``, the one effective latest on or
    before it (an approval effective later takes over from its own date). None: none."""
    held = [
        r
        for r in rows
        if r.effective <= day
        and (
            r.status == "approved"
            or (r.status == "superseded" and r.superseded_on is not None and r.superseded_on > day)
        )
    ]
    return max(held, key=lambda r: (r.effective, r.id), default=None)


def regulation_version(game_id: str) -> str:
    """A hash of the game files a submission of ``game_id`` is checked against."""
    from validator.checks.facts import digest

    return digest(game_id)


def check_file(path: Path, name: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The validator's findings (as ``rulesub validate --format json`` gives them, the
    filing's own waivers set aside: the office grants a waiver at approval) and the
    submission's data; an unreadable file is a ``StoreError``."""
    from validator.signage.checked import check_submission, describe

    checked = check_submission(path, display=name)
    if checked.unreadable or checked.submission is None:
        raise StoreError(
            "; ".join(describe(f) for f in checked.findings) or f"{name}: cannot be read"
        )
    return [f.to_dict() for f in checked.as_filed()], checked.submission.data()


def _by_sha(conn: Connection, sha: str) -> Row[Any] | None:
    return conn.execute(select(submissions).where(submissions.c.sha256 == sha)).first()


def _recorded(row: Row[Any], *, already: bool) -> Recorded:
    evidence.readable(row, row.id)
    return Recorded(
        row.id,
        row.status,
        row.sha256,
        json.loads(row.findings),
        already,
        row.regulation_version,
    )


def _findings_now(row: Row[Any]) -> list[dict[str, Any]]:
    """The findings an approval is decided on: the stored ones while the regulation is
    the one they were checked against, else a fresh check of the stored bytes."""
    if regulation_version(row.game) == row.regulation_version:
        return list(json.loads(row.findings))
    findings, _ = _with_file(row.content, row.filename, lambda p: check_file(p, row.filename))
    return list(findings)


def _with_file(content: bytes, filename: str, use: Any) -> Any:
    """``use(path)`` on the stored bytes: where the system has anonymous files (Linux's
    ``memfd_create``), one that lives in memory only and vanishes with the process, so that
    a killed ``record`` leaves no copy behind; else a temporary file, removed after."""
    memfd = getattr(os, "memfd_create", None)
    if memfd is not None:
        fd = memfd("rulesub-check", getattr(os, "MFD_CLOEXEC", 0))
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.write(content)
            path = Path(f"/proc/self/fd/{fd}")
            if path.exists():
                return use(path)
        finally:
            os.close(fd)
    suffix = Path(filename).suffix or ".yaml"
    fd, tmp = tempfile.mkstemp(suffix=suffix, prefix="rulesub-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        return use(Path(tmp))
    finally:
        os.unlink(tmp)


def _position(content: bytes, filename: str, pointer: str) -> tuple[int, int]:
    """Where ``pointer`` is in the bytes: line and column (1, 1 where it cannot be told)."""
    from validator.model.submission import read_yaml

    try:
        pos = _with_file(
            content, filename, lambda p: read_yaml(p, display=filename).position(pointer)
        )
        return pos.line, pos.column
    except Exception:  # the bytes were read once; a position is a courtesy
        return 1, 1


def _effective_finding(row: Row[Any], on: dt.date) -> dict[str, Any]:
    effective, filename = row.effective, row.filename
    line, column = _position(row.content, filename, "/effective")
    return {
        "code": EFFECTIVE_BEFORE_APPROVAL,
        "severity": "error",
        "message": (
            f"the submission is effective {effective}, before its approval on {on}: by the "
            "office's policy, rules are implemented only after the written notice of approval"
        ),
        "cite": None,
        "path": "/effective",
        "file": filename,
        "line": line,
        "column": column,
        "hint": f"effective: a date on or after {on}",
    }


def _spellings(conn: Connection, facility: str) -> list[str]:
    """Every way the store holds ``facility``'s name written: the names that are the same
    facility (``names.key``), as filed or as a reviewer set it. The rows keep the name as
    written; a facility is found under every spelling of it."""
    held = set(conn.execute(select(facilities.c.facility)).scalars())
    held |= set(conn.execute(select(submissions.c.facility).distinct()).scalars())
    wanted = names.key(facility)
    return sorted({n for n in held if names.key(n) == wanted} | {facility})


def _set_facilities(conn: Connection) -> list[Row[Any]]:
    """The facilities' holders a reviewer set, the last set last."""
    return list(conn.execute(select(facilities).order_by(facilities.c.set_at)))


def _facility_owners(conn: Connection, facility: str) -> set[str | None]:
    """Whose ``facility`` (under any spelling of its name) is: the holder a reviewer set,
    else the holders of its approved filings; none where it is no one's yet."""
    spellings = _spellings(conn, facility)
    given = set(
        conn.execute(
            select(facilities.c.certificate_holder).where(facilities.c.facility.in_(spellings))
        ).scalars()
    )
    return given or set(
        conn.execute(
            select(submissions.c.certificate_holder).where(
                submissions.c.facility.in_(spellings), submissions.c.status == "approved"
            )
        ).scalars()
    )


def _facility_holder(conn: Connection, facility: str, holder: str | None) -> bool:
    """Whether ``facility`` is ``holder``'s, or no one's yet (``_facility_owners``)."""
    return _facility_owners(conn, facility) <= {holder}


def _holder_spelled_otherwise(conn: Connection, facility: str, holder: str | None) -> str | None:
    """The holder ``facility`` belongs to where it is ``holder`` written otherwise ("Example
    Downs Racing & Casino" for "example downs racing & casino"), else ``None``: its own
    name, which the refusal may show to the casino that wrote it."""
    owners = _facility_owners(conn, facility)
    alike = [o for o in owners if o is not None and names.same(o, holder)]
    return alike[0] if len(owners) == 1 and alike else None


def _filed_under(row: Row[Any]) -> dict[str, Any]:
    """A filing's row as ``evidence.filed_under`` reads its bytes: its holder and facility."""
    return {"certificate_holder": row.certificate_holder, "facility": row.facility}


def _own_facility(
    conn: Connection, content: bytes, filename: str, key: Mapping[str, Any], verb: str
) -> None:
    """Refuse a filing (``key``: what it is filed under) whose facility or certificate
    holder is named in letters of several scripts, or whose facility belongs to another
    certificate holder. The message names neither that holder nor its filings (a casino
    account reads it)."""
    facility, holder = key["facility"], key["certificate_holder"]
    _facility_turn(conn, facility)
    for field_, name in (("certificate_holder", holder), ("facility", facility)):
        why = None if name is None else names.out_of_place(name)
        if why is not None:
            what = field_.replace("_", " ")
            _refuse_at(
                content,
                filename,
                field_,
                NAME_MIXES_SCRIPTS,
                f"{what} {name!r}: {why}; a filing naming it cannot be {verb}",
                f"write the {what}'s name in the letters of one script",
            )
    if not _facility_holder(conn, facility, holder):
        spelled = _holder_spelled_otherwise(conn, facility, holder)
        if spelled is not None:  # the same holder as a person reads it: say so, not "another"
            _refuse_at(
                content,
                filename,
                "certificate_holder",
                FACILITY_OF_ANOTHER_HOLDER,
                f"facility {facility!r} belongs to certificate holder {spelled!r}, written "
                f"so; this filing writes it {holder!r}: a filing for it cannot be {verb} "
                "until it writes the holder's name as the facility's filings do",
                f"certificate_holder: {spelled}",
            )
        _refuse_at(
            content,
            filename,
            "facility",
            FACILITY_OF_ANOTHER_HOLDER,
            f"facility {facility!r} belongs to another certificate holder: a filing "
            + (f"of {holder!r}" if holder else "that names no certificate holder")
            + f" for it cannot be {verb}",
            "a reviewer sets which certificate holder a facility belongs to",
        )


def _refuse_at(
    content: bytes, filename: str, field_: str, code: str, message: str, hint: str
) -> NoReturn:
    """``Refused``, with its finding at ``field_``'s line in the filing."""
    line, column = _position(content, filename, f"/{field_}")
    raise Refused(
        f"{message}; nothing was changed",
        [
            {
                "code": code,
                "severity": "error",
                "message": message,
                "path": f"/{field_}",
                "file": filename,
                "line": line,
                "column": column,
                "hint": hint,
            }
        ],
    )


def _not_held_already(conn: Connection, row: Row[Any], held: str) -> None:
    """Refuse an approval where another holds the facility (under any spelling of its
    name), game and effective date: the database's unique index (``one_approval_per_date``)
    compares the names as written."""
    c = submissions.c
    other = conn.execute(
        select(c.id).where(
            c.facility.in_(_spellings(conn, row.facility)),
            c.game == row.game,
            c.effective == row.effective,
            or_(
                c.status == "approved",
                and_(c.status == "superseded", c.superseded_on > row.effective),
            ),
        )
    ).first()
    if other is not None and other.id == row.id:  # approved meanwhile, by another process
        now = conn.execute(select(c.status, c.approved_by).where(c.id == row.id)).one()
        raise Refused(
            f"submission {row.id} is {now.status} (by {now.approved_by}): only a submitted "
            "one can be approved"
        )
    if other is not None:
        raise _held_already(held, row.id)


def _constraint(e: sa_exc.IntegrityError) -> str | None:
    """The name of the key or index a write broke: PostgreSQL's diagnostics give it; SQLite
    names an index's columns, of which the one-approval index alone holds these three."""
    diag = getattr(getattr(e.orig, "diag", None), "constraint_name", None)
    if diag is not None:
        return str(diag)
    said = str(e.orig)
    if "submissions.facility, submissions.game, submissions.effective" in said:
        return "one_approval_per_date"
    return None


def _refused_by_a_key(e: sa_exc.IntegrityError, what: str) -> evidence.Damaged:
    """A write the database refused on a key no rule of rulesub's explains (a counter set
    back by hand, so that a number is given twice): said as the damage it is, not a
    traceback, nor another rule's refusal."""
    key = _constraint(e) or str(e.orig).splitlines()[0]
    return evidence.Damaged(
        what,
        f"the database refused it on its key {key!r}: a number given before was given again "
        "(a counter set back by hand); nothing was written",
    )


def _held_already(held: str, submission_id: int) -> Refused:
    """The refusal of a second approval for one facility, game and effective date: by the
    check of every spelling of the facility, or by the database's unique index."""
    return Refused(
        f"another approval already holds {held}: submission {submission_id} is not approved"
    )


def _facility_turn(conn: Connection, facility: str) -> None:
    """PostgreSQL: what decides a facility's certificate holder takes turns, whatever the
    game (a transaction-scoped advisory lock on the facility under any spelling): a
    recording, an approval and `facilities set`. Two holders' approvals of different games
    at an unowned facility, at once, each read no other holder's approval and both
    committed; now the second reads the first's. SQLite serialises every writer already."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
            {"key": f"rulesub facility|{names.key(facility)}"},
        )


def _one_approver(conn: Connection, facility: str, game: str) -> None:
    """PostgreSQL: approvals of one facility and game take turns (a transaction-scoped
    advisory lock), so that one effective later always sees, and supersedes, one that
    committed first. SQLite's ``BEGIN IMMEDIATE`` already serialises every writer. The
    unique index, not this lock, is what refuses a second approval for the same date."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
            {"key": f"rulesub approve|{names.key(facility)}|{game}"},
        )


def _earlier_pending(conn: Connection, row: Row[Any]) -> list[int]:
    c = submissions.c
    holder = (
        c.certificate_holder.is_(None)
        if row.certificate_holder is None
        else c.certificate_holder == row.certificate_holder
    )
    query = select(c.id).where(
        c.facility.in_(_spellings(conn, row.facility)),
        c.game == row.game,
        c.effective == row.effective,
        holder,
        c.status == "submitted",
        c.id < row.id,
    )
    return [r.id for r in conn.execute(query.order_by(c.id))]


def _replace_earlier(conn: Connection, row: Row[Any], by: str, now: dt.datetime) -> list[int]:
    """An approved filing replaces the same holder's earlier pending filings for the same
    facility, game and effective date: they end ``replaced``, each audited."""
    earlier = _earlier_pending(conn, row)
    if earlier:
        conn.execute(
            update(submissions)
            .where(submissions.c.id.in_(earlier), submissions.c.status == "submitted")
            .values(status="replaced", superseded_by=row.id, decided_at=now, ended_at=now)
        )
    for old in earlier:
        _audit(conn, by, "replace", old, {"replaced_by": row.id}, now)
    return earlier


def _audit(
    conn: Connection,
    actor: str,
    action: str,
    submission_id: int | None,
    detail: dict[str, Any],
    at: dt.datetime | None = None,
) -> None:
    """Append an entry to the audit log, chained to the entry before it. Appends take
    turns (SQLite: every writer holds the write lock; PostgreSQL: an advisory lock held to
    the end of the transaction), so the chain's order is the ids' order."""
    actor = named(actor)
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": AUDIT_LOCK})
    when = as_utc(at or utcnow())
    assert when is not None
    body = jsonout.dumps(detail)
    prev = conn.execute(
        select(audit_log.c.entry_hash).order_by(audit_log.c.id.desc()).limit(1)
    ).scalar()
    prev = prev or GENESIS
    conn.execute(
        insert(audit_log).values(
            at=when,
            actor=actor,
            action=action,
            submission_id=submission_id,
            detail=body,
            prev_hash=prev,
            entry_hash=entry_hash(when, actor, action, submission_id, body, prev),
        )
    )


def history_entry(row: Any, *, served: bool = False) -> dict[str, Any]:
    """One submission as ``history --format json`` prints it (the contract's fields
    first, then more). ``served``: for the web view's API, whose readers are not on the
    machine that recorded it, the file by its base name (``names.file_name``), never the
    directories it lay in there."""
    return {
        "id": row.id,
        "facility": row.facility,
        "game": row.game,
        "effective": iso(row.effective),
        "status": row.status,
        "recorded_at": iso(row.recorded_at),
        "recorded_by": row.recorded_by,
        "approved_by": row.approved_by,
        "approved_on": iso(row.approved_on),
        "sha256": row.sha256,
        "certificate_holder": row.certificate_holder,
        "file": names.file_name(row.filename) if served else row.filename,
        "findings": {"errors": row.errors, "warnings": row.warnings, "info": row.infos},
        "regulation_version": row.regulation_version,
        "rejected_by": row.rejected_by,
        "rejected_on": iso(row.rejected_on),
        "rejection_reason": row.rejection_reason,
        "superseded_by": row.superseded_by,
        "superseded_on": iso(row.superseded_on),
    }
