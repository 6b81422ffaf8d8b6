"""A nonbanking Poker table's settings (``TableSetup``): its stakes, rake, Bad Beat and Kill
rules, its positions; and the documented defaults where no Rules Submission is given.

A submission's settings are read by the one reader of a submission's table settings
(``validator.interpreter.settings``), for this kind of game and the banking kind alike.

With no submission, the documented defaults: $2-$4, Blind Bets $1 and $2 (games with
blinds), a $1 Forced Bet (games with one), no Ante, three raises, a percentage rake at the
game file's maximum rate capped at $5, no Bad Beat payout.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.compiler import Game
from validator.interpreter.poker.betting import Limit
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.table import Rules, Stakes
from validator.money import Cents

#: every simulated seat buys in for this many upper bets of the table's limits
BUY_IN_UPPER_BETS = 50


@dataclass(frozen=True)
class TableSetup:
    stakes: Stakes
    rules: Rules
    positions: int
    source: str  # the submission, or "defaults"
    decks_alternated: bool = False  # two decks, one dealt while the other is shuffled


def uses_upper(game: Game) -> bool:
    """Whether the game file bets the upper limit on some street."""
    deal = game.definition.deal
    assert deal is not None
    return any(s.betting is not None and s.betting.limit == "upper" for s in deal.streets.values())


def limits(
    game: Game, low: Cents, high: Cents, structure: str | None = None
) -> tuple[Limit, Limit | None]:
    """The posted limits as betting limits. A stated structure decides (§ 553.18): spread,
    any amount from the minimum to the maximum; fixed, the one amount; split, the lower
    limit, then the upper. Unstated, a game whose file bets the upper limit on some streets
    is split, the others spread."""
    if structure == "split" or (structure is None and uses_upper(game)):
        return Limit(low, low), Limit(high, high)
    if structure == "fixed":
        return Limit(low, low), None
    return Limit(low, high), None


def has_blinds(game: Game) -> bool:
    """Whether the game is played with Blind Bets."""
    deal = game.definition.deal
    assert deal is not None
    return any(s.blinds for s in deal.streets.values())


def default_setup(game: Game) -> TableSetup:
    """The documented defaults of a table with no Rules Submission."""
    d = game.definition
    assert d.betting is not None and d.rake is not None
    lower, upper = limits(game, 200, 400)
    rate = d.rake.percentage.max if d.rake.percentage is not None else None
    rake = RakeRule("percentage", rate=rate, cap=500) if rate else None
    stakes = Stakes(
        lower,
        upper,
        blinds=(100, 200) if has_blinds(game) else (),
        forced_bet=100 if d.betting.forced_bet is not None else 0,
        max_raises=3,
    )
    return TableSetup(stakes, Rules(rake=rake), d.table.max_positions, "defaults")


__all__ = ["BUY_IN_UPPER_BETS", "TableSetup", "default_setup", "has_blinds", "limits"]
