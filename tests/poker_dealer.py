"""The dealing kernel run one round at a time (``hand._deal_and_bet``), as the property
tests hold it equal to the oracle's ``Hand`` and ``benchmarks/poker_kernel.py`` times it: a
session plays its rounds a block at a time (``block._play_block``) instead."""

from __future__ import annotations

import numpy as np

from validator.interpreter.poker.fast import DealtHand, Ints
from validator.interpreter.poker.fast.hand import (
    DECK_OUT,
    ENDLESS,
    OUT_OF_WORDS,
    _deal_and_bet,
    deal_order,
    outcome,
)
from validator.interpreter.poker.fast.operations import new_log
from validator.interpreter.poker.fast.program import Program
from validator.interpreter.poker.fast.stream import AT, Stream

#: the words a round is first given (a shuffle reads about one a card)
ROUND_WORDS = 256


def deal_and_bet(
    prog: Program,
    deck: Ints,
    stacks: Ints,
    button: int | None,
    stream: Stream | None = None,
    kill_in_effect: bool = False,
    log: Ints | None = None,
) -> DealtHand | None:
    """The round dealt and bet, or None where the kernel takes no round of the table or no
    ``stream`` was given to reshuffle a pile (§ 553.10(h), § 553.13(g)(2)). ``ValueError``:
    fewer than two players dealt in, or the deck ran out after its reshuffle.
    ``kill_in_effect``: the Kill's limits (§ 553.12(m)); ``log``: the operations kept."""
    if prog.reason is not None:
        return None
    stacks, deck = np.asarray(stacks, dtype=np.int64), np.asarray(deck, dtype=np.int64)
    params = prog.killed if kill_in_effect else prog.params
    seats = stacks.shape[0]
    out = outcome(seats, new_log(False) if log is None else log)
    order = np.zeros(seats, dtype=np.int64)
    seat, words = -1 if button is None else button, ROUND_WORDS
    while True:  # who folded in a round handed back is dealt in again
        players, at = deal_order(stacks, prog.required, seat, params.button_left, out.folded, order)
        if players < 2:
            raise ValueError("a round of play needs two players with enough table stakes")
        # no stream: no words after the next unread's index (a round that reshuffles is handed back)
        w = np.ones(1, dtype=np.int64) if stream is None else stream.ensure(words)
        status = _deal_and_bet(params, prog.kernel, deck, w, order[:players], stacks, out)
        if status != OUT_OF_WORDS:
            break
        if stream is None:
            return None
        words = 2 * (w.shape[0] - int(w[AT])) + ROUND_WORDS  # its words ran out: more
    if status == DECK_OUT:
        raise ValueError("the deck ran out")
    if status == ENDLESS:
        raise RuntimeError("a betting round that does not end")
    aggressor = int(out.last_aggressor[0])
    seat = aggressor + 1 if aggressor >= 0 else -1  # the last aggressor's seat number
    dealt = (out.contributed, out.folded, out.cards, out.ncards, out.board, int(out.nboard[0]))
    put = out.round_put[: out.nrounds[0]].tolist()
    hands = (out.high, out.low, put, seat, int(out.nlog[0]))
    return DealtHand(int(at) if at > 0 else None, *dealt, *hands)
