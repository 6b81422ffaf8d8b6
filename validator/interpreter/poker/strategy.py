"""Strategies of players at a nonbanking Poker table, read from the compiled game's
``poker_strategies:`` (written once, in games/strategies/poker.yaml, for every Poker game
built on games/include/poker.yaml).

A player's hand is put in one of four strength tiers, read from the game's own showdown
hands (no game is named here): the high hand by the category it makes so far (``high:``),
the low hand by its highest card (``low:``), a high-low game taking the better of the two.
The strategy's decision table then says, per tier, what the player does when nothing is to
be called (``free``) and when facing a bet (``facing``). A bet or raise is always the least
the posted limit allows; an action the round does not offer falls back to the nearest one it
does (a raise to a call, a bet to a check, a fold with nothing to call to a check).

The draw keeps the cards that make the high hand's category (the highest card when it is
only a high card) or, for a low, the unpaired cards no higher than the fair limit, and
discards the rest. The kernels read the tables compiled (``fast/program.py``).
"""

from __future__ import annotations

from validator.compiler import Game
from validator.model.poker import PokerStrategies


def strategies(game: Game) -> PokerStrategies:
    """The game's ``poker_strategies:``, from its strategy file (games/strategies/)."""
    ps = game.definition.poker_strategies
    if ps is None:
        raise KeyError(
            f"{game.id} has no players' strategies to play with: they are written in "
            f"games/strategies/{game.id}.yaml (or in the strategy file of a shared rule file "
            "the game extends)"
        )
    return ps
