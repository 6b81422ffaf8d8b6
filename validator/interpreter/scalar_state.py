"""The scalar engine's round state: what one round has on the table as it goes.

The seats (their stakes, cards and choices), the cards dealt to the table (the dealer, the
community cards, named spots), the dealer's face-up cards, the table game system's draws,
the ledger of the money moved, the narration, the shares of meters already divided and the
version of the cards (a deal, a draw or a dealer's replacement makes a new version, so that
a hand's value is computed once per version). The round's collaborators (``scalar_hands``,
``scalar_conditions``, ``scalar_decisions``, ``scalar_settlement``, ``scalar_result``)
read and change it; it holds no rule of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from validator.interpreter.results import Ledger
from validator.interpreter.seats import Cards, Seat


@dataclass
class RoundState:
    """One round's seats, cards, draws, money and narration."""

    seats: list[Seat]
    meters_before: dict[str, dict[str, Decimal]]  # the meters as the round began
    table: dict[str, Cards] = field(default_factory=dict)  # dealer, community, named spots
    up: list[int] = field(default_factory=list)  # the dealer's face-up cards
    events: dict[str, tuple[str, int]] = field(default_factory=dict)  # table system draws
    narration: list[tuple[str, str]] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    pots: dict[str, Decimal] = field(default_factory=dict)  # a meter's share, per line
    version: int = 0  # of the cards: each change makes a new one
    qualified_at: int = -1  # the version at which the dealer's qualifying was told
    replaced: dict[str, str] | None = None  # the dealer's replaced card, and the one drawn

    def __post_init__(self) -> None:
        self.by_number = {s.number: s for s in self.seats}

    def narrate(self, cite: str, text: str) -> None:
        self.narration.append((cite, text))

    def ordered(self, order: str) -> list[Seat]:
        """The seats in the order a step takes them: from the dealer's left, or right."""
        seats = sorted(self.seats, key=lambda s: s.number)
        return seats if order == "from_dealer_left" else seats[::-1]
