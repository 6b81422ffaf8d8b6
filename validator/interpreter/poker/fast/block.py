"""A block of rounds of play run in one kernel, with the rules between rounds (§ 553.8(b)
buy-ins, the deck shuffled from the session's stream, the button moved clockwise, §
553.11(c)(3), the chips checked conserved, the Kill carried, § 553.12(m), the Bad Beat paid
from the fund, § 553.20): every round of a session is played here, ``simulate`` and ``par``
a block at a time with no log, ``play`` a round a block with its operations logged. The
block stops before a round either kernel hands back, or one its words do not reach,
leaving the stacks, the button, the fund and the stream as the last round taken left them:
the next block deals that round again from more words; a round handed back is refused
(``Session._refuse``) with the reason the block kept (``Block.stopped``, ``Block.status``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numba import njit

from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.fast.hand import (
    OUT_OF_WORDS,
    TAKEN,
    _deal_and_bet,
    deal_order,
    outcome,
)
from validator.interpreter.poker.fast.program import Program
from validator.interpreter.poker.fast.settle import (
    SETTLED,
    FastSettler,
    Settled,
    _refused,
    settle_dealt,
)
from validator.interpreter.poker.fast.stream import AT, Stream, shuffle


class Between(NamedTuple):
    """The table's facts between rounds."""

    required: int  # what a player must have to be dealt in (``Stakes.required``)
    buy_in: int  # what a player short of it buys in to
    kill_num: int  # the Kill's multiplier of the limits, num / den (§ 553.12(m)); 1 / 1: none
    kill_den: int


class Carried(NamedTuple):
    """What goes on from round to round (one-element arrays)."""

    button: Ints  # the button's seat number, -1: none
    kill: Ints  # 1: the Kill is in effect
    fund: Ints  # the Bad Beat fund


class Figures(NamedTuple):
    """Each round's figures, one entry a round in each array."""

    rake: Ints
    bad_beat: Ints  # the Bad Beat contribution
    pots: Ints  # the pots' amounts
    showdown: Ints  # 1: two or more hands reached the showdown
    contributed: Ints  # all the players put in
    button: Ints  # the button's seat number as the round was dealt, -1: none
    kill: Ints  # 1: the Kill was in effect
    paid: Ints  # paid from the Bad Beat fund
    hit: Ints  # 1: the round was a Bad Beat


#: the unread words a block is given a round (a deck reads 51; a reshuffle up to 51 more):
#: a block that runs out hands back the round, which is dealt from the same words
BLOCK_WORDS = 64

#: why a block stopped: every round played; the round after the last handed back with
#: fewer than two players dealt in (§ 553.8(b)(3)), by the dealing kernel or by the
#: settlement (``Block.status``: the kernel's), its chips not conserved, or its words out
PLAYED, TOO_FEW, NOT_DEALT, NOT_SETTLED, NOT_CONSERVED, WORDS_OUT = range(6)


@njit(cache=True, inline="always")
def _buy_ins(table, kill, stacks, stack, buy_ins):  # type: ignore[no-untyped-def]
    """§ 553.8(b): a player short of what a round requires (under a Kill, at its limits)
    buys in."""
    num = table.kill_num if kill else 1
    den = table.kill_den if kill else 1
    for i in range(stacks.shape[0]):
        stack[i] = stacks[i]
        buy_ins[i] = 0
        if stack[i] * den < table.required * num:
            buy_ins[i] = table.buy_in - stack[i]
            stack[i] = table.buy_in


# numba's cache of this kernel holds the settlement it calls (``settle.settle_dealt``, the
# Bad Beat contribution from each pot, and the rake of each betting round's part of each
# pot and of each level from its own pot, included) but is keyed on this file alone: a change
# there is marked here too, so that no cached kernel settles by the old rules.
@njit(cache=True)
def _play_block(  # type: ignore[no-untyped-def]
    params,
    killed,
    kernel,
    settlement,
    table,
    stream,
    stacks,
    state,
    decks,
    buy_ins,
    nets,
    figs,
    out,
):
    """Up to ``decks.shape[0]`` rounds: (rounds played, why it stopped, the status of the
    kernel that handed the round back, the last ``settle.Settled``). ``stacks``, ``state``
    and ``stream`` are advanced round by round, not by the round handed back. Round r's
    deck, buy-ins and nets are written in row r, its ``Figures`` in entry r; ``out`` holds
    the last round dealt (its operations logged where its log has rows)."""
    n = stacks.shape[0]
    rounds = decks.shape[0]
    order = np.zeros(n, dtype=np.int64)
    awards = np.zeros(n, dtype=np.int64)
    payouts = np.zeros(n, dtype=np.int64)
    settled = _refused(SETTLED, 0, 0)  # the last round's settlement
    stack = np.zeros(n, dtype=np.int64)
    for r in range(rounds):
        saved = stream[AT]
        kill = state.kill[0]
        _buy_ins(table, kill, stacks, stack, buy_ins[r])
        deck = decks[r]
        for c in range(52):
            deck[c] = c
        at = shuffle(stream, saved, deck, 52)
        if at < 0:  # the words ran out: more are drawn for the round
            return r, WORDS_OUT, TAKEN, settled
        stream[AT] = at
        m, dealt_button = deal_order(
            stack, table.required, state.button[0], params.button_left, out.folded, order
        )
        if m < 2:
            stream[AT] = saved
            return r, TOO_FEW, TAKEN, settled
        limits = killed if kill else params
        dealt = _deal_and_bet(limits, kernel, deck, stream, order[:m], stack, out)
        if dealt != TAKEN:
            stream[AT] = saved
            return r, WORDS_OUT if dealt == OUT_OF_WORDS else NOT_DEALT, dealt, settled
        settled = settle_dealt(settlement, kill, state.fund[0], out, awards, payouts)
        if settled.status != SETTLED:
            stream[AT] = saved
            return r, NOT_SETTLED, settled.status, settled
        put = 0
        awarded = 0
        for i in range(n):
            put += out.contributed[i]
            awarded += awards[i]
        if put != awarded + settled.rake + settled.bad_beat:
            stream[AT] = saved
            return r, NOT_CONSERVED, SETTLED, settled
        paid = 0
        for i in range(n):
            paid += payouts[i]
            nets[r, i] = awards[i] + payouts[i] - out.contributed[i]
            stacks[i] = stack[i] + nets[r, i]
        state.fund[0] += settled.bad_beat - paid
        figs.paid[r] = paid
        figs.hit[r] = 1 if settled.losing != 0 else 0
        figs.rake[r] = settled.rake
        figs.bad_beat[r] = settled.bad_beat
        figs.pots[r] = settled.pots
        figs.showdown[r] = settled.showdown
        figs.contributed[r] = put
        figs.button[r] = dealt_button
        figs.kill[r] = kill
        if dealt_button > 0:  # clockwise to the seat on its left (§ 553.11(c)(3))
            state.button[0] = dealt_button % n + 1
        if settled.kill_next >= 0:  # the Kill in effect next round, or not
            state.kill[0] = settled.kill_next
    return rounds, PLAYED, SETTLED, settled


@dataclass(slots=True)
class Block:
    """What ``_play_block`` played: ``played`` rounds, row r of each array for round r, and
    the table they leave."""

    played: int
    stopped: int  # PLAYED .. WORDS_OUT: why the round after the last was not
    #: the dealing kernel's status where ``NOT_DEALT`` (``DECK_OUT``, ``ENDLESS``), the
    #: settlement's where ``NOT_SETTLED``
    status: int
    settled: Settled  # the last round's settlement, or the one refused (``settle.refusal``)
    decks: Ints  # [round, 52]
    buy_ins: Ints  # [round, seat index]
    nets: Ints  # [round, seat index] awards + Bad Beat payouts - contributions
    figures: Figures  # [round] each figure
    button: int | None  # the button after the last round played
    kill: bool  # the Kill in effect after it
    logged: int  # the rows of the last round's operation log (none where it is off)
    last_aggressor: int  # seat number of the round of play's last bet or raise, -1: none


class BlockTable:
    """A table's rounds played a block at a time (the dealing and settlement kernels take
    the table)."""

    def __init__(
        self, program: Program, settler: FastSettler, buy_in: int, kill: Fraction | None
    ) -> None:
        """The table compiled for each kernel (its seats the settler's); ``kill``: the
        multiplier of the limits of the table's Kill (None: no Kill)."""
        self.seats = len(settler.seats)
        settlement = settler.record()
        m = kill if kill is not None else Fraction(1)
        between = Between(program.required, int(buy_in), m.numerator, m.denominator)
        #: ``_play_block``'s arguments that are the table's
        self.table = (program.params, program.killed, program.kernel, settlement, between)

    def play(
        self,
        stream: Stream,
        stacks: Ints,
        button: int | None,
        kill: bool,
        fund: int,
        rounds: int,
        log: Ints,
    ) -> Block:
        """Up to ``rounds`` rounds (``stacks`` and ``stream`` advanced in place); where the
        first round's words run out, it is played again from more. ``log``: the last round's
        operations (no rows: none kept)."""
        n = self.seats
        decks = np.empty((rounds, 52), dtype=np.int64)
        buy_ins = np.empty((rounds, n), dtype=np.int64)
        nets = np.empty((rounds, n), dtype=np.int64)
        figs = Figures(*(np.empty(rounds, dtype=np.int64) for _ in Figures._fields))
        state = Carried(*(np.array([x], dtype=np.int64) for x in (button or -1, kill, fund)))
        out = outcome(n, log)
        need = rounds * BLOCK_WORDS
        while True:
            w = stream.ensure(need)
            args = (w, stacks, state, decks, buy_ins, nets, figs, out)
            played, stopped, status, settled = _play_block(*self.table, *args)
            if played or stopped != WORDS_OUT:
                break
            need = 2 * (w.shape[0] - int(w[AT])) + BLOCK_WORDS
        after = int(state.button[0])
        return Block(
            int(played),
            int(stopped),
            int(status),
            settled,
            decks,
            buy_ins,
            nets,
            figs,
            None if after < 0 else after,
            bool(state.kill[0]),
            int(out.nlog[0]),
            int(out.last_aggressor[0]) + 1 if out.last_aggressor[0] >= 0 else -1,
        )
