"""The store's tables: submissions as filed, the waivers of their approvals, the audit log.

A submission row is the filing: its bytes and sha256 (one row per distinct file), who
recorded it and when, the validator's findings at that moment and the regulation version
they were checked against. Its ``status`` moves ``submitted`` → ``approved`` |
``rejected`` | ``withdrawn`` (by its holder) | ``replaced`` (by the holder's newer filing for
the same date, when that is approved), and ``approved`` → ``superseded``; nothing else
changes a filing, and nothing but ``rulesub purge`` deletes one.

Two rules live in the database, not in Python:

- ``one_approval_per_date``: at most one ``approved`` submission per facility, game and
  effective date (a partial unique index; SQLite and PostgreSQL both have them), so of two
  approvals racing for the same table of rules exactly one commits;
- the audit log is append-only: triggers refuse ``UPDATE`` and ``DELETE`` on it
  (created by the migration, in each dialect's words).

Ids of filings and audit entries come from a sequence that never goes back (SQLite
``AUTOINCREMENT``, a PostgreSQL identity): a purged filing's id is never given again, so no
audit entry can attach to another filing. Each audit entry carries the hash chain
(``prev_hash``, ``entry_hash``: ``validator.store.chain``). ``facilities`` holds the
certificate holder a reviewer set for a facility (else the holder of its approved filings
holds it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
)


class NotText(str):
    """A text column's value SQLite gave back as bytes: a value written over by hand (SQLite
    keeps what it is given), read as UTF-8 so that no reader stops on it, and marked so that
    `audit verify` names it. It equals nothing but itself: never what the log holds."""

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    __hash__ = str.__hash__


def _read_as_text(value: object) -> object:
    if isinstance(value, bytes):
        return NotText(value.decode("utf-8", "replace"))
    return value


class Words(TypeDecorator[str]):
    """Text, as rulesub writes it; read back as text whatever was written over it."""

    impl = Text
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        return _read_as_text(value)


class Code(TypeDecorator[str]):
    """A short text (a hash, a status, an action), as ``Words``."""

    impl = String
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        return _read_as_text(value)


STATUSES = ("submitted", "approved", "rejected", "superseded", "withdrawn", "replaced")

#: Every action the audit log's ``action`` column names, with its name in words as a list
#: of them offers it: the one list of what the store writes (``lifecycle._audit``'s
#: callers), which the web view's filter offers (a test holds each call of ``_audit`` to
#: it; ``words.audit_words`` says each entry).
ACTIONS: dict[str, str] = {
    "record": "filed",
    "approve": "approved",
    "reject": "rejected",
    "withdraw": "withdrawn",
    "supersede": "superseded",
    "replace": "replaced",
    "purge": "purged after retention",
    "facility-holder": "facility's certificate holder set",
    "upgrade": "database upgraded",
    "account-add": "account added",
    "account-remove": "account removed",
    "account-password": "password changed",
    "account-token": "API token issued",
    "account-token-revoke": "API tokens revoked",
}

metadata = MetaData()

submissions = Table(
    "submissions",
    metadata,
    Column("id", Integer, Identity(always=True), primary_key=True),
    Column("sha256", Code(64), nullable=False, unique=True),
    Column("content", LargeBinary, nullable=False),
    Column("filename", Words, nullable=False),  # the name it was filed under
    Column("certificate_holder", Words),
    Column("facility", Words, nullable=False),
    Column("game", Words, nullable=False),
    Column("effective", Date, nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("recorded_by", Words, nullable=False),
    Column("regulation_version", Code(64), nullable=False),
    Column("findings", Words, nullable=False),  # JSON: the validator's findings when recorded
    Column("errors", Integer, nullable=False),
    Column("warnings", Integer, nullable=False),
    Column("infos", Integer, nullable=False),
    Column("status", Code(16), nullable=False, server_default="submitted"),
    Column("approved_by", Words),
    Column("approved_on", Date),
    Column("approval_note", Words),
    Column("approval_findings", Words),  # JSON: the findings the approval was decided on
    Column("rejected_by", Words),
    Column("rejected_on", Date),
    Column("rejection_reason", Words),
    Column("decided_at", DateTime(timezone=True)),
    Column("superseded_by", Integer, ForeignKey("submissions.id")),
    Column("superseded_on", Date),  # the superseding submission's effective date
    Column("ended_at", DateTime(timezone=True)),  # rejected or superseded: retention runs
    CheckConstraint(
        "status IN ('submitted', 'approved', 'rejected', 'superseded', 'withdrawn', 'replaced')",
        name="known_status",
    ),
    sqlite_autoincrement=True,
)

#: The office's lists read this index, not the table: in SQLite a filing's bytes sit inside
#: its row, and a search that read the rows would read every filing whole.
Index(
    "submissions_listing",
    submissions.c.recorded_at,
    submissions.c.id,
    submissions.c.status,
    submissions.c.facility,
    submissions.c.game,
    submissions.c.effective,
    submissions.c.certificate_holder,
    submissions.c.filename,
)
#: The same, status first: a list filtered by status reads a part of it (a filing of another
#: status is never passed over one by one).
Index(
    "submissions_by_status",
    submissions.c.status,
    submissions.c.recorded_at,
    submissions.c.id,
    submissions.c.facility,
    submissions.c.game,
    submissions.c.effective,
    submissions.c.certificate_holder,
    submissions.c.filename,
)
#: The counts by status read the narrowest index there is: the status alone.
Index("submissions_status", submissions.c.status)
#: And facility first: one facility's filings, a table of rules' filings (facility, game,
#: effective date), and the pending ones of the same date that a filing would replace.
Index(
    "submissions_by_facility",
    submissions.c.facility,
    submissions.c.game,
    submissions.c.effective,
    submissions.c.status,
    submissions.c.certificate_holder,
    submissions.c.id,
    submissions.c.recorded_at,
    submissions.c.filename,
)
Index(
    "submissions_choices",
    submissions.c.facility,
    submissions.c.game,
    submissions.c.certificate_holder,
    submissions.c.status,
)
#: Partial: only approved rows. The migrations create it in each dialect's words; here its
#: condition is kept dialect-free (``info``), since naming a dialect's option loads that
#: dialect, PostgreSQL's on every SQLite command.
Index(
    "one_approval_per_date",
    submissions.c.facility,
    submissions.c.game,
    submissions.c.effective,
    unique=True,
    info={"where": "status = 'approved'"},
)

waivers = Table(
    "waivers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "submission_id", Integer, ForeignKey("submissions.id", ondelete="CASCADE"), nullable=False
    ),
    Column("code", Words, nullable=False),
    Column("reason", Words, nullable=False),
    Column("waived_by", Words, nullable=False),
    Column("waived_at", DateTime(timezone=True), nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, Identity(always=True), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("actor", Words, nullable=False),
    Column("action", Code(32), nullable=False),
    Column("submission_id", Integer),  # no foreign key: the log outlives a purged filing
    Column("detail", Words, nullable=False),  # JSON
    Column("prev_hash", Code(64), nullable=False),  # the entry before's entry_hash
    Column("entry_hash", Code(64), nullable=False),  # sha256 of this entry's content
    sqlite_autoincrement=True,
)

facilities = Table(
    "facilities",
    metadata,
    Column("facility", Words, primary_key=True),
    Column("certificate_holder", Words, nullable=False),
    Column("set_by", Words, nullable=False),
    Column("set_at", DateTime(timezone=True), nullable=False),
)

Index("audit_log_by_submission", audit_log.c.submission_id, audit_log.c.id)
Index("audit_log_by_actor", audit_log.c.actor, audit_log.c.action, audit_log.c.id)
Index("audit_log_by_action", audit_log.c.action, audit_log.c.id)
Index("audit_log_by_time", audit_log.c.at)
