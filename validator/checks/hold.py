"""Exact holds: the odds engine's figures, compiled with the game's facts.

The odds engine (``validator.odds``) is a stage of its own; the checks only read its
figures, through ``GameFacts`` (compiled, or asked of the engine lazily). Where the engine
is not installed, or cannot price a table, no hold is reported: the hold constraints then
say nothing rather than guess.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from validator.checks.facts import GameFacts
from validator.model.rows import paid_row


def odds_engine() -> Any:
    """The odds module, or None where it is not available."""
    try:
        import validator.odds as odds
    except Exception:  # not installed, or broken: the hold checks then say nothing
        return None
    return odds


def custom_hold(facts: GameFacts, table_id: str, rows: dict[str, Any]) -> Fraction | None:
    """The exact hold of a table the submission supplies (where the text is missing).

    The hand's categories are counted once (each hand at the highest category it holds,
    refinements included); a hand is paid on its category's row or, where the table has
    none, on the nearest category it refines that has one (§ 641a-style "four aces" paid as
    four-of-a-kind); a hand with no row, or an N/A row, loses the wager.
    """
    table = facts.table(table_id)
    if table.pays_on is None:
        return None
    held = facts.held_probabilities(table.pays_on)
    if held is None:
        return None
    parent = {c.id: c.refines for c in facts.ranking(table.pays_on).categories}
    expected = Fraction(0)
    for category, probability in held.items():
        row = paid_row(category, parent, rows)
        payout = rows.get(row) if row is not None else None
        if payout is None or not payout.pays:
            expected -= probability
        else:
            expected += probability * payout.net_units()
    return -expected
