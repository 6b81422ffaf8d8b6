"""Nonbanking Poker: players bet against each other and the house takes a rake. A round is
dealt, bet and settled by the kernels (``fast/``); here, what surrounds them: the table
(``table``), the session of rounds (``session``) and the explanation of a settlement
(``settle``, with ``showdown``, ``rake``, ``bad_beat``, ``kill``: the words of each rule, the
figures read from the round's operation log). The round file a Poker round is settled from
is read with every other round file's (``validator.interpreter.roundfile.poker``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from validator.interpreter.poker.settle import PokerSettlement, settle_poker_round

__all__ = ["PokerSettlement", "settle_poker_round"]


def __getattr__(name: str) -> Any:
    # the settlement on first use: the package's plain rules (rake, kill, Bad Beat, table)
    # are read by every game's settings, which need none of the kernels settle loads
    if name in __all__:
        from validator.interpreter.poker import settle

        return getattr(settle, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
