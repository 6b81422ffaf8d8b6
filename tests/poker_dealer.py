"""The dealing kernel run one round at a time (``hand._deal_and_bet``), and the one
settlement (``settle.settle_dealt``) of a round so dealt, as the property tests hold them
equal to the oracle's ``Hand`` and its settlement and ``benchmarks/poker_kernel.py`` times
them: a session plays its rounds a block at a time (``block._play_block``) instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from validator.interpreter.poker.fast import Flags, Ints
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
from validator.interpreter.poker.fast.settle import FastSettler
from validator.interpreter.poker.fast.stream import AT, Stream


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
    last_aggressor: int  # seat number of the round of play's last bet or raise, -1: none
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


def settle(
    settler: FastSettler,
    dealt: DealtHand | Any,
    fund: int,
    kill_in_effect: bool = False,
    log: Ints | None = None,
    at: Ints | None = None,
) -> SettledHand:
    """The round (a ``DealtHand``, or the dealing kernel's ``hand.Outcome`` as
    ``settle._dealt`` reads a round file) settled by the settler (``FastSettler.settle``,
    as ``settle_round`` settles), as the oracle's ``SettledHand``."""
    n = len(settler.seats)
    out = dealt
    if isinstance(dealt, DealtHand):  # as the dealing kernel leaves it (``hand.Outcome``)
        out = outcome(n, new_log(False))
        for name in ("contributed", "folded", "cards", "ncards", "board", "high", "low"):
            getattr(out, name)[...] = getattr(dealt, name)
        out.nboard[0], out.nrounds[0] = dealt.nboard, len(dealt.round_put)
        out = out._replace(round_put=np.array(dealt.round_put, dtype=np.int64))
    settled, awards, payouts, ordered = settler.settle(out, fund, kill_in_effect, log, at)
    kill_next = None if settled.kill_next < 0 else bool(settled.kill_next)
    return SettledHand(
        awards,
        settled.rake,
        settled.bad_beat,
        settled.pots,
        bool(settled.showdown),
        kill_next,
        payouts,
        settled.losing,
        ordered,
    )


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
