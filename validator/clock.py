"""When a document was prepared: now, or the moment ``SOURCE_DATE_EPOCH`` names.

A par sheet or a review pack states when it was prepared. Made twice from the same inputs,
the two copies differ only by that minute; an office that keeps documents under version
control, or compares a rebuilt one with the filed one byte for byte, sets
``SOURCE_DATE_EPOCH`` (seconds since 1970-01-01 UTC, the reproducible-builds convention) and
gets the same bytes. The store's own times are evidence and never read it.
"""

from __future__ import annotations

import datetime as dt
import os

from validator.errors import RulesubError

ENV = "SOURCE_DATE_EPOCH"


class BadSourceDate(RulesubError, ValueError):
    """``SOURCE_DATE_EPOCH`` holds something other than whole seconds."""


def prepared_at() -> dt.datetime:
    """The moment a document is prepared at (UTC)."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return dt.datetime.now(dt.UTC)
    try:
        return dt.datetime.fromtimestamp(int(raw), dt.UTC)
    except (ValueError, OverflowError, OSError):
        raise BadSourceDate(
            f"{ENV}={raw!r}: expected whole seconds since 1970-01-01 UTC, e.g. 1798761600"
        ) from None
