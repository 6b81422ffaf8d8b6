"""A nonbanking Poker table's posted limits (§ 553.18: a bet of ``min_bet``..``max_bet``;
a Kill multiplies both, § 553.1) and a player's place in a round of play: his stack, what he
put in, his cards, whether he folded or is All-in (§ 553.8(b)(4)). A round is dealt and bet
by the kernels (``fast/hand.py``); ``fast/narrate.py`` reads its players from its log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from validator.money import Cents


@dataclass(frozen=True)
class Limit:
    min_bet: Cents
    max_bet: Cents

    def __post_init__(self) -> None:
        if not 0 < self.min_bet <= self.max_bet:
            raise ValueError("a limit is a minimum bet more than $0 and a maximum at least that")

    def times(self, multiplier: Fraction, chip: Cents) -> Limit:
        """The limit multiplied (a Kill), in whole chips."""
        if multiplier == 1:
            return self
        return Limit(
            int(self.min_bet * multiplier // chip) * chip,
            int(self.max_bet * multiplier // chip) * chip,
        )


@dataclass
class Player:
    """One seat in a round of play."""

    seat: int
    stack: Cents  # what is left of the table stakes
    contributed: Cents = 0  # all put in the pot this round of play
    folded: bool = False
    all_in: bool = False
    cards: list[tuple[int, bool]] = field(default_factory=list)  # (card, face up)

    @property
    def in_hand(self) -> bool:
        return not self.folded

    @property
    def can_act(self) -> bool:
        return not self.folded and not self.all_in

    def put(self, amount: Cents) -> Cents:
        """Put chips in the pot, no more than the table stakes allow."""
        amount = min(amount, self.stack)
        self.stack -= amount
        self.contributed += amount
        if self.stack == 0:
            self.all_in = True
        return amount

    def up_cards(self) -> list[int]:
        return [c for c, up in self.cards if up]

    def card_list(self) -> list[int]:
        return [c for c, _ in self.cards]
