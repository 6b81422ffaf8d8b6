"""Two more ends of a filing's life: ``withdrawn`` (its holder took it back before a
decision) and ``replaced`` (a newer filing of the same holder for the same facility, game
and effective date was approved in its place); and the indexes the office's lists and the
audit log's filters read.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

OLD = "status IN ('submitted', 'approved', 'rejected', 'superseded')"
#: The office's lists and searches read these indexes (schema.py says why).
LISTING = [
    "recorded_at",
    "id",
    "status",
    "facility",
    "game",
    "effective",
    "certificate_holder",
    "filename",
]
CHOICES = ["facility", "game", "certificate_holder", "status"]
AUDIT_INDEXES = {
    "audit_log_by_submission": ["submission_id", "id"],
    "audit_log_by_actor": ["actor", "action", "id"],
    "audit_log_by_action": ["action", "id"],
    "audit_log_by_time": ["at"],
}
NEW = "status IN ('submitted', 'approved', 'rejected', 'superseded', 'withdrawn', 'replaced')"


def _known_status(check: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("known_status", "submissions", type_="check")
        op.create_check_constraint("known_status", "submissions", check)
        return
    # SQLite changes a table's CHECK only by rebuilding the table. Dropping the old one
    # deletes its rows first, which would cascade to their waivers: they are set aside and
    # put back. The indexes are made again as the first migration made them, and ids that
    # were never to be reused (AUTOINCREMENT) stay so.
    op.execute("CREATE TEMP TABLE kept_waivers AS SELECT * FROM waivers")
    op.drop_index("one_approval_per_date", "submissions")
    op.drop_index("submissions_by_table", "submissions")
    made = (
        op.get_bind()
        .exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'submissions'"
        )
        .scalar()
    )
    kept = {"sqlite_autoincrement": True} if "AUTOINCREMENT" in str(made).upper() else {}
    bind = op.get_bind()
    last = (
        bind.exec_driver_sql("SELECT seq FROM sqlite_sequence WHERE name = 'submissions'").scalar()
        if kept
        else None
    )
    with op.batch_alter_table("submissions", recreate="always", table_kwargs=kept) as batch:
        batch.drop_constraint("known_status", type_="check")
        batch.create_check_constraint("known_status", sa.text(check))
    op.execute("DELETE FROM waivers")
    op.execute("INSERT INTO waivers SELECT * FROM kept_waivers")
    op.execute("DROP TABLE kept_waivers")
    if last is not None:  # the highest id ever given, even one since purged, stays given
        bind.exec_driver_sql("DELETE FROM sqlite_sequence WHERE name = 'submissions'")
        bind.exec_driver_sql(
            "INSERT INTO sqlite_sequence (name, seq) VALUES ('submissions', ?)", (int(last),)
        )
    op.create_index("submissions_by_table", "submissions", ["facility", "game", "effective"])
    op.create_index(
        "one_approval_per_date",
        "submissions",
        ["facility", "game", "effective"],
        unique=True,
        sqlite_where=sa.text("status = 'approved'"),
    )


def upgrade() -> None:
    _known_status(NEW)
    op.create_index("submissions_listing", "submissions", LISTING)
    op.create_index("submissions_choices", "submissions", CHOICES)
    for name, columns in AUDIT_INDEXES.items():
        op.create_index(name, "audit_log", columns)


def downgrade() -> None:
    for name in AUDIT_INDEXES:
        op.drop_index(name, "audit_log")
    op.drop_index("submissions_choices", "submissions")
    op.drop_index("submissions_listing", "submissions")
    _known_status(OLD)
