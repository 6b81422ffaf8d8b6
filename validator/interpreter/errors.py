"""Rounds the rules do not allow: the error both round engines raise, and its words."""

from __future__ import annotations

from validator.errors import RulesubError


class RoundError(RulesubError):
    """A round the rules do not allow: the rule it breaks, where it sits in the round file."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


def unpaid_winner(table: str, hand: str, cite: str) -> str:
    """Why a round stops on a winning hand its table has no row for."""
    return (
        f"{hand} wins the wager ({cite}), but the {table} table pays nothing for it: the "
        "table stated must pay every winning hand"
    )
