"""The record as evidence: ids never given twice, the audit log's hash chain, facilities.

- Filings and audit entries take their ids from a sequence that never goes back (SQLite
  ``AUTOINCREMENT``, a PostgreSQL identity), started past every id the database ever
  gave, those only the audit log still names (a purged filing's) included.
- Each audit entry gains ``prev_hash`` and ``entry_hash`` (``validator.store.chain``),
  computed here for the entries already written, in the order of their ids.
- ``facilities``: the certificate holder a reviewer set for a facility.

SQLite cannot change a table's key into ``AUTOINCREMENT``: the tables are made anew and
their rows copied, inside the one transaction of ``rulesub db upgrade`` (with the foreign
keys on: the old tables are renamed away first, so no cascade touches a waiver).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from validator.store.chain import GENESIS, entry_hash

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

SUBMISSION_COLUMNS = (
    "id, sha256, content, filename, certificate_holder, facility, game, effective, "
    "recorded_at, recorded_by, regulation_version, findings, errors, warnings, infos, status, "
    "approved_by, approved_on, approval_note, approval_findings, rejected_by, rejected_on, "
    "rejection_reason, decided_at, superseded_by, superseded_on, ended_at"
)
APPEND_ONLY_SQLITE = """
CREATE TRIGGER audit_log_no_{verb} BEFORE {VERB} ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
"""

_audit = sa.table(
    "audit_log",
    sa.column("id", sa.Integer),
    sa.column("at", sa.DateTime(timezone=True)),
    sa.column("actor", sa.Text),
    sa.column("action", sa.String),
    sa.column("submission_id", sa.Integer),
    sa.column("detail", sa.Text),
)


def _submissions_table(name: str) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("content", sa.LargeBinary, nullable=False),
        sa.Column("filename", sa.Text, nullable=False),
        sa.Column("certificate_holder", sa.Text),
        sa.Column("facility", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("effective", sa.Date, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.Text, nullable=False),
        sa.Column("regulation_version", sa.String(64), nullable=False),
        sa.Column("findings", sa.Text, nullable=False),
        sa.Column("errors", sa.Integer, nullable=False),
        sa.Column("warnings", sa.Integer, nullable=False),
        sa.Column("infos", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="submitted"),
        sa.Column("approved_by", sa.Text),
        sa.Column("approved_on", sa.Date),
        sa.Column("approval_note", sa.Text),
        sa.Column("approval_findings", sa.Text),
        sa.Column("rejected_by", sa.Text),
        sa.Column("rejected_on", sa.Date),
        sa.Column("rejection_reason", sa.Text),
        sa.Column("decided_at", sa.DateTime(timezone=True)),
        sa.Column("superseded_by", sa.Integer, sa.ForeignKey("submissions.id")),
        sa.Column("superseded_on", sa.Date),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint(
            "status IN ('submitted', 'approved', 'rejected', 'superseded')", name="known_status"
        ),
        sqlite_autoincrement=True,
    )


def _indexes() -> None:
    op.create_index("submissions_by_table", "submissions", ["facility", "game", "effective"])
    op.create_index(
        "one_approval_per_date",
        "submissions",
        ["facility", "game", "effective"],
        unique=True,
        sqlite_where=sa.text("status = 'approved'"),
        postgresql_where=sa.text("status = 'approved'"),
    )


def _chained() -> list[dict[str, object]]:
    """Every audit entry with its place in the chain, in the order of their ids."""
    rows = op.get_bind().execute(sa.select(_audit).order_by(_audit.c.id)).all()
    out, prev = [], GENESIS
    for r in rows:
        h = entry_hash(r.at, r.actor, r.action, r.submission_id, r.detail, prev)
        out.append({**r._asdict(), "prev_hash": prev, "entry_hash": h})
        prev = h
    return out


def _first_free_submission_id() -> int:
    """Past every filing's id and every id the audit log names (a purged filing's)."""
    bind = op.get_bind()
    highest = bind.execute(
        sa.text(
            "SELECT MAX(n) FROM (SELECT MAX(id) AS n FROM submissions "
            "UNION ALL SELECT MAX(submission_id) FROM audit_log) AS ids"
        )
    ).scalar()
    return int(highest or 0) + 1


def _upgrade_sqlite() -> None:
    bind = op.get_bind()
    first_free = _first_free_submission_id()
    entries = _chained()
    # submissions and waivers anew: the old ones renamed away (the waivers' key follows)
    op.execute("ALTER TABLE submissions RENAME TO submissions_0002")
    op.execute("ALTER TABLE waivers RENAME TO waivers_0002")
    _submissions_table("submissions")
    op.execute(
        f"INSERT INTO submissions ({SUBMISSION_COLUMNS}) "
        f"SELECT {SUBMISSION_COLUMNS} FROM submissions_0002"
    )
    op.create_table(
        "waivers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "submission_id",
            sa.Integer,
            sa.ForeignKey("submissions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("waived_by", sa.Text, nullable=False),
        sa.Column("waived_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute(
        "INSERT INTO waivers (id, submission_id, code, reason, waived_by, waived_at) "
        "SELECT id, submission_id, code, reason, waived_by, waived_at FROM waivers_0002"
    )
    op.execute("DROP TABLE waivers_0002")
    op.execute("DROP TABLE submissions_0002")
    _indexes()
    # the audit log anew, with its chain and its triggers
    for verb in ("update", "delete"):
        op.execute(f"DROP TRIGGER audit_log_no_{verb}")
    op.execute("ALTER TABLE audit_log RENAME TO audit_log_0002")
    audit = _audit_table()
    if entries:
        op.bulk_insert(audit, entries)
    op.execute("DROP TABLE audit_log_0002")
    for verb in ("update", "delete"):
        op.execute(APPEND_ONLY_SQLITE.format(verb=verb, VERB=verb.upper()))
    bind.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = 'submissions'"))
    bind.execute(
        sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('submissions', :n)"),
        {"n": first_free - 1},
    )


def _audit_table() -> sa.Table:
    return op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("submission_id", sa.Integer),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("entry_hash", sa.String(64), nullable=False),
        sqlite_autoincrement=True,
    )


def _identity(table: str, start: int) -> None:
    """PostgreSQL: the serial key becomes an identity that starts at ``start`` or later."""
    bind = op.get_bind()
    seq = bind.execute(sa.text(f"SELECT pg_get_serial_sequence('{table}', 'id')")).scalar()
    if seq is not None:
        start = max(start, int(bind.execute(sa.text(f"SELECT nextval('{seq}')")).scalar() or 0))
        op.execute(f"ALTER TABLE {table} ALTER COLUMN id DROP DEFAULT")
        op.execute(f"DROP SEQUENCE {seq}")
    op.execute(
        f"ALTER TABLE {table} ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (START WITH {start})"
    )


def _upgrade_postgresql() -> None:
    bind = op.get_bind()
    _identity("submissions", _first_free_submission_id())
    highest = bind.execute(sa.text("SELECT MAX(id) FROM audit_log")).scalar()
    _identity("audit_log", int(highest or 0) + 1)
    op.add_column("audit_log", sa.Column("prev_hash", sa.String(64)))
    op.add_column("audit_log", sa.Column("entry_hash", sa.String(64)))
    entries = _chained()
    op.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
    for e in entries:
        bind.execute(
            sa.text("UPDATE audit_log SET prev_hash = :p, entry_hash = :h WHERE id = :id"),
            {"p": e["prev_hash"], "h": e["entry_hash"], "id": e["id"]},
        )
    op.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only")
    op.alter_column("audit_log", "prev_hash", nullable=False)
    op.alter_column("audit_log", "entry_hash", nullable=False)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _upgrade_postgresql()
    else:
        _upgrade_sqlite()
    op.create_table(
        "facilities",
        sa.Column("facility", sa.Text, primary_key=True),
        sa.Column("certificate_holder", sa.Text, nullable=False),
        sa.Column("set_by", sa.Text, nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:  # pragma: no cover - the record is never migrated backwards
    raise NotImplementedError("a store is never migrated backwards: restore a backup")
