"""The engine of a nonbanking Poker round: the game and the strategies compiled to integer
programs (``program``) run by numba-compiled kernels: a round dealt and bet (``hand``),
settled (``settle``, ``odd_chip``: one settlement, ``settle.settle_dealt``, of a round dealt
by the kernel or read from a round file), a block of rounds between them (``block``), every
operation logged where the log is on (``operations``, read by ``narrate``) and the piles
shuffled from the session's random stream (``stream``). ``play`` and ``settle`` keep the log;
``simulate`` and ``par`` do not.

Seats are indexed 0..n-1 in the session's seat order. Cards are ints 0..51 (rank ``c >> 2``:
0 = deuce .. 12 = ace; suit ``c & 3``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

#: the most cards a seat holds (Seven Card Stud), and the most on the board
MAX_CARDS = 8
MAX_BOARD = 5
#: the most betting rounds a game has
MAX_ROUNDS = 8


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
