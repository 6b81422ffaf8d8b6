"""Nonbanking Poker: players bet against each other and the house takes a rake.

Stages, each a module:

- ``pots``      table stakes, All-in and side pots, the uncalled final bet (§ 553.8(b));
- ``showdown``  hand values, winners of each pot and each half, odd chips (§ 553.10(i));
- ``rake``      percentage, incremental and time rakes (§ 553.15);
- ``bad_beat``  Bad Beat contributions and payouts (§ 553.20);
- ``kill``      the Omaha Kill / Half-kill (§ 553.12(m));
- ``roundfile`` the poker round file, read and checked;
- ``settle``    one round settled: ``settle_poker_round(data, game)``;
- ``betting``   betting rounds: actions, limits, raise caps, All-in;
- ``table``     a round of play dealt and bet street by street from the game file's
                ``deal:`` steps, then settled.
"""

from validator.interpreter.poker.roundfile import PokerRoundError
from validator.interpreter.poker.settle import PokerSettlement, settle_poker_round

__all__ = ["PokerRoundError", "PokerSettlement", "settle_poker_round"]
