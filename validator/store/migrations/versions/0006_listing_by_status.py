"""The office's list filtered by status or by facility: indexes of the listed columns that
start with the status, and with the facility, game and effective date, so a page of
``rejected`` filings, the counts by status, one facility's filings and the pending filings
a filing would replace are read from an index, never from the filings' rows. The facility's
index takes the place of the one of facility, game and date alone (it starts with them).
The status alone, the narrowest index, is what the counts by status read.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: schema.py says why every listed column is in it.
BY_STATUS = [
    "status",
    "recorded_at",
    "id",
    "facility",
    "game",
    "effective",
    "certificate_holder",
    "filename",
]

BY_FACILITY = [
    "facility",
    "game",
    "effective",
    "status",
    "certificate_holder",
    "id",
    "recorded_at",
    "filename",
]


def upgrade() -> None:
    op.create_index("submissions_by_status", "submissions", BY_STATUS)
    op.create_index("submissions_status", "submissions", ["status"])
    op.create_index("submissions_by_facility", "submissions", BY_FACILITY)
    op.drop_index("submissions_by_table", "submissions")


def downgrade() -> None:
    op.create_index("submissions_by_table", "submissions", ["facility", "game", "effective"])
    op.drop_index("submissions_by_facility", "submissions")
    op.drop_index("submissions_status", "submissions")
    op.drop_index("submissions_by_status", "submissions")
