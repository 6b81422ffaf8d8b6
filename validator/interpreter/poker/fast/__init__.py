"""The engine of a nonbanking Poker round: the game and the strategies compiled to integer
programs (``program``) run by numba-compiled kernels: a round dealt and bet (``hand``),
settled (``settle``, ``odd_chip``), a block of rounds between them (``block``), every
operation logged where the log is on (``operations``, read by ``narrate``) and the piles
shuffled from the session's random stream (``stream``). ``play`` and ``settle`` keep the log;
``simulate`` and ``par`` do not.

Seats are indexed 0..n-1 in the session's seat order. Cards are ints 0..51 (rank ``c >> 2``:
0 = deuce .. 12 = ace; suit ``c & 3``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

#: the most cards a seat holds (Seven Card Stud), and the most on the board
MAX_CARDS = 8
MAX_BOARD = 5
#: the most betting rounds a game has
MAX_ROUNDS = 8


@dataclass(slots=True)
class DealtHand:
    """A round of play dealt and bet, as its last betting round leaves the table."""

    button: int | None  # the button's seat number as the round was dealt (``Hand.button``)
    contributed: Ints  # [seat index] all each seat put in (ante, blinds, bets)
    folded: Flags  # [seat index]
    cards: Ints  # [seat index, MAX_CARDS] each seat's cards in the order dealt
    ncards: Ints  # [seat index]
    board: Ints  # [MAX_BOARD]
    nboard: int
    high: Ints  # [seat index] packed key of the seat's high hand at the showdown (0: none)
    low: Ints  # [seat index] packed key of the seat's low hand at the showdown (0: none)
    round_put: list[int]  # chips put in by each betting round (``PlayedHand.round_put``)
    last_aggressor: int  # seat number of the last bet or raise of the last round, -1: none
    logged: int = 0  # the rows of the round's operation log written (none where it is off)


@dataclass(slots=True)
class SettledHand:
    """A dealt round settled: what the session's books need."""

    awards: Ints  # [seat index] won + the uncalled bet returned (``SeatAward.award``)
    rake: int  # ``Rake.total``
    bad_beat_contribution: int  # ``PokerSettlement.bad_beat_contribution``
    pots: int  # sum of the pots' amounts (``sum(p.pot.amount for p in settlement.pots)``)
    showdown: bool  # two or more hands reached the showdown (``PlayedHand.showdown_order``)
    kill_next: bool | None = None  # the Kill in effect next round (None: no Kill rule)
    bad_beat: Ints | None = None  # [seat index] paid from the Bad Beat fund
    #: the seats of the Bad Beat's losing hand, bit i for seat index i (0: no Bad Beat)
    bad_beat_losing: int = 0
    #: [part, seat index] each tied seat's place in the order a tie's excess went by card and
    #: suit (-1: not tied); None: no such tie
    priority: Ints | None = None

    @property
    def bad_beat_hit(self) -> bool:
        """The round was a Bad Beat (``BadBeatResult.hit``)."""
        return self.bad_beat_losing != 0


#: About how long the first run after an install compiles the kernels (two cores).
COMPILE_SECONDS = 60


def kernels_cached() -> bool:
    """Whether numba's cache holds the compiled kernels; where it cannot be asked, they are
    taken to be there."""
    try:
        from pathlib import Path

        from validator.interpreter.poker.fast import block

        index = getattr(block._play_block, "_cache")._cache_file._index_path  # noqa: B009
        return bool(Path(index).exists())
    except Exception:  # numba's cache is its own business: never fail a run over it
        return True
