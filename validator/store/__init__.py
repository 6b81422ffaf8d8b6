"""The store of Rules Submissions: each filing as filed, its approval or rejection, the
supersessions, and an append-only audit log, in SQLite (a file) or PostgreSQL.

Public API::

    Store(db) .record(path, by) .approve(id, by, on=…, waive=…) .reject(id, by, reason)
              .history(facility, game) .get(id) .approved_for(facility, game) .purge(before, by)
              .events(ids) .upgrade(by)
              .audit_head() .verify_audit() .unmatched_filings()   the audit log's hash chain
              .facilities() .set_facility(facility, holder, by)    a facility's one holder
    StoreError   the database or the input cannot be used (exit 2); of it, NoSubmission
                 (no such id) and UnknownWaiver (a waiver naming no finding)
    Refused      the rules refuse the action (exit 1); of it, Unwaived (an approval's
                 error findings that no waiver names)
"""

from validator.store.database import StoreError, default_path, resolve_url
from validator.store.lifecycle import (
    RETENTION_YEARS,
    NoSubmission,
    Recorded,
    Refused,
    Store,
    UnknownWaiver,
    Unwaived,
)

__all__ = [
    "RETENTION_YEARS",
    "NoSubmission",
    "Recorded",
    "Refused",
    "Store",
    "StoreError",
    "UnknownWaiver",
    "Unwaived",
    "default_path",
    "resolve_url",
]
