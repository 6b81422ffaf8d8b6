"""Table stakes, All-in and side pots (§ 553.8(b)(4)); the uncalled final bet (§ 553.15(d)).

Each player's total contribution to a round of play is known; the pots follow from them.
An All-in player "shall only be eligible to win the amount of the pot to which he
contributed" and "betting shall continue unimpeded among the other players by generating a
separate side pot which only those players shall be eligible to win". So the pots are
layers: every distinct contribution of a player still in (not folded) closes a layer; a
layer holds what every player (folded ones too) put in up to its level beyond the layer
below, and is contested by the players still in who put in at least its level.

The part of the largest contribution that no other player matched is a bet nobody called:
it returns to its bettor and is no part of any pot (nor raked, § 553.15(d)).

The settlement kernel (``fast.settle``) forms them; these are the records a settlement
explains them by.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.money import Cents


@dataclass(frozen=True)
class Uncalled:
    seat: int
    amount: Cents


@dataclass(frozen=True)
class Pot:
    index: int  # 0 the main pot, then the side pots in the order they formed
    amount: Cents
    level: Cents  # the contribution this pot covers up to, per player
    eligible: tuple[int, ...]  # the players still in who may win it
    contributors: tuple[int, ...]  # every player whose chips are in it

    @property
    def name(self) -> str:
        return "main pot" if self.index == 0 else f"side pot {self.index}"
