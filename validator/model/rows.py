"""Which paytable row a hand is paid on: one resolution for the scalar and the batch
engines, the odds and the checks. A plain module (no model class is imported), so that the
checks, which read compiled projections of the game, use it at no start-up cost."""

from __future__ import annotations

from collections.abc import Mapping


def paid_row(
    category_id: str, refines: Mapping[str, str | None], rows: Mapping[str, object]
) -> str | None:
    """The row of a paytable a hand of ``category_id`` is paid on: its own row, else the
    nearest category it refines that has one (four aces in a table with no four-aces row are
    paid as four-of-a-kind; a six-card royal flush with no six-card row as the royal flush it
    contains); ``None`` where no row applies. An ``N/A`` row is still the row: whether it
    pays is the payout's to say. ``refines`` maps each category of the ranking to the one it
    refines. The one resolution every engine, the odds and the checks follow."""
    row: str | None = category_id
    while row is not None and row not in rows:
        row = refines.get(row)
    return row
