"""A seat at the table during one round of the scalar engine: its stakes, its cards, its
decisions (as the round file states them, or to be taken from a strategy), what it paid in
fees and which of its wagers stand when an irregularity voids the round.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from decimal import Decimal

from validator.interpreter.actions import Action
from validator.interpreter.results import LineResult


@dataclass
class Cards:
    dealt: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)

    def add(self, cards: list[int]) -> None:
        self.dealt += cards
        self.held += cards


@dataclass
class Seat:
    number: int
    stakes: dict[str, Decimal]
    actions: deque[str] | None  # the round file's actions; None: a strategy decides
    actions_pointer: str = ""
    cards: dict[str, Cards] = field(default_factory=dict)
    folded: bool = False
    decided: dict[str, str] = field(default_factory=dict)
    taken: list[str] = field(default_factory=list)  # the actions, as written
    told: list[str] = field(default_factory=list)  # the same, in the game file's words
    pending: Action | None = None
    fees: Decimal = Decimal(0)
    placed_as: dict[str, str] = field(default_factory=dict)  # the size stated ("3x", "$25")
    lines: dict[str, LineResult] = field(default_factory=dict)
    standing: set[str] = field(default_factory=set)  # spots not returned by a void

    @property
    def dealt_in(self) -> bool:
        return bool(self.cards.get("player") and self.cards["player"].dealt)

    def wagered(self, wager: str) -> bool:
        return any(
            (s == wager or s.startswith(wager + ".")) and v > 0 for s, v in self.stakes.items()
        )
