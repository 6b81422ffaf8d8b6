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
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from validator.errors import RulesubError
from validator.interpreter.poker.money import Cents


class PotError(RulesubError, ValueError):
    """Contributions that no round of play can have produced."""


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


def uncalled_bet(contributions: Mapping[int, Cents]) -> Uncalled | None:
    """The part of the single largest contribution that no one else matched."""
    if len(contributions) < 2:
        return None
    ranked = sorted(contributions.items(), key=lambda kv: kv[1], reverse=True)
    (top_seat, top), (_, second) = ranked[0], ranked[1]
    return Uncalled(top_seat, top - second) if top > second else None


def build_pots(
    contributions: Mapping[int, Cents], folded: Set[int]
) -> tuple[list[Pot], Uncalled | None]:
    """The main pot and side pots, each with the players eligible for it, and the uncalled
    final bet returned to its bettor."""
    if any(c < 0 for c in contributions.values()):
        raise PotError("a contribution is never negative")
    live = [s for s in contributions if s not in folded]
    if not live:
        raise PotError("every player folded: the last player in wins the pot, so one is in")
    uncalled = uncalled_bet(contributions)
    called = dict(contributions)
    if uncalled is not None:
        called[uncalled.seat] -= uncalled.amount
    top_live = max(called[s] for s in live)
    over = [s for s in called if called[s] > top_live]
    if over:
        raise PotError(
            f"seat {over[0]} put in more than any player still in, and more than its own "
            "uncalled bet: a folded player's chips were all called by a player still in"
        )
    levels = sorted({called[s] for s in live if called[s] > 0})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in called.values())
        contributors = tuple(sorted(s for s, c in called.items() if c > below))
        eligible = tuple(sorted(s for s in live if called[s] >= level))
        pots.append(Pot(len(pots), amount, level, eligible, contributors))
        below = level
    if not pots:  # nobody put anything in: an empty pot for the players still in
        pots.append(Pot(0, 0, 0, tuple(sorted(live)), ()))
    return pots, uncalled
