"""Submissions, their waivers and the append-only audit log.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY_SQLITE = """
CREATE TRIGGER audit_log_no_{verb} BEFORE {VERB} ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
"""

APPEND_ONLY_POSTGRESQL = (
    """
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$
""",
    """
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()
""",
)


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
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
    )
    op.create_index("submissions_by_table", "submissions", ["facility", "game", "effective"])
    op.create_index(
        "one_approval_per_date",
        "submissions",
        ["facility", "game", "effective"],
        unique=True,
        sqlite_where=sa.text("status = 'approved'"),
        postgresql_where=sa.text("status = 'approved'"),
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
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("submission_id", sa.Integer),
        sa.Column("detail", sa.Text, nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        for statement in APPEND_ONLY_POSTGRESQL:
            op.execute(statement)
    else:
        for verb in ("update", "delete"):
            op.execute(APPEND_ONLY_SQLITE.format(verb=verb, VERB=verb.upper()))


def downgrade() -> None:
    op.drop_table("audit_log")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS audit_log_append_only()")
    op.drop_table("waivers")
    op.drop_index("one_approval_per_date", "submissions")
    op.drop_index("submissions_by_table", "submissions")
    op.drop_table("submissions")
