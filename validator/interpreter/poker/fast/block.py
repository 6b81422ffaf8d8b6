"""A block of rounds of play run in one kernel: between rounds, what ``Session.play_one``
does in Python (§ 553.8(b): a player short of what a round requires buys in again; the
deck shuffled from the session's random stream; the button moved clockwise after each round,
§ 553.11(c)(3); the books kept and chips checked conserved), around the same two kernels a
single round runs (``hand._deal_and_bet``, ``settle._settle``). What a round costs in
Python (the wrappers' arrays, the books, the record) is paid once a block instead.

A tie whose excess goes by card and suit is ordered in the block (``odd_chip``). The block
stops before the first round either kernel hands back (a Bad Beat that may be paid, a tie
whose hands ``odd_chip`` cannot read, a deck that runs out, a stream out of words): the
stacks, the button and the stream are left as the last round taken left them, so that
``Session.play_one`` plays that round as it plays any other, from the same deck.

A table's Kill (§ 553.12(m)) goes on from round to round in the block: the limits of a round
are the Kill's where the last round's settlement put it in effect. A table the block does
not run (a settlement or dealing kernel that takes no round) is played round by round.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import njit

from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS, MAX_ROUNDS, Flags, Ints
from validator.interpreter.poker.fast.hand import TAKEN, FastTable, _deal_and_bet, deal_order
from validator.interpreter.poker.fast.odd_chip import odd_chip_order
from validator.interpreter.poker.fast.settle import (
    _TAIL,
    KILL_IN_EFFECT,
    NEEDS_ORDER,
    SETTLED,
    FastSettler,
    _settle,
)
from validator.interpreter.poker.fast.stream import AT, Stream, shuffle

# -- the table's facts, in ``table`` ---------------------------------------------------------

T_REQUIRED = 0  # what a player must have to be dealt in (``Stakes.required``)
T_BUY_IN = 1  # what a player short of it buys in to
T_FROM_BUTTON = 2  # 1: dealt from the button's left (the button moves after each round)
T_KILL_NUM = 3  # the Kill's multiplier of the limits, num / den (§ 553.12(m)); 1 / 1: none
T_KILL_DEN = 4
TABLE = 5

# -- what goes on from round to round, in ``state`` ------------------------------------------

S_BUTTON = 0  # the button's seat number, -1: none
S_KILL = 1  # 1: the Kill is in effect
STATE = 2

# -- each round's figures, in ``figures`` ------------------------------------------------------

F_RAKE, F_BAD_BEAT, F_POTS, F_SHOWDOWN, F_CONTRIBUTED, F_BUTTON, F_KILL = range(7)
FIGURES = 7

#: the unread words a block is given a round (a deck reads 51; a reshuffle up to 51 more):
#: a block that runs out hands back the round, which is dealt from the same words
BLOCK_WORDS = 64

#: why a block stopped
PLAYED, HANDED_BACK, NOT_CONSERVED = 0, 1, 2


# numba's cache of this kernel holds the settlement it calls (``settle._settle``, the Bad
# Beat contribution from each pot included) but is keyed on this file alone: a change
# there is marked here too, so that no cached kernel settles by the old rules.
@njit(cache=True)
def _play_block(  # type: ignore[no-untyped-def]
    program,
    settlement,
    table,
    stream,
    stacks,
    state,
    rounds,
    decks,
    buy_ins,
    nets,
    figures,
):
    """Up to ``rounds`` rounds; returns (rounds played, ``PLAYED`` / ``HANDED_BACK`` /
    ``NOT_CONSERVED``: why it stopped, the round after the last played). ``stacks`` ([seat
    index]), ``state`` (``S_*``: the button, the Kill) and ``stream`` (its next word) are
    advanced round by round; the round handed back leaves them untouched. Round r's deck,
    buy-ins and net result by seat, and figures (``F_*``) are written in row r."""
    posted, streets, steps, blinds = program[0], program[1], program[2], program[3]
    rows, high_tiers, forced_order, faces = program[4], program[5], program[6], program[7]
    high_tables, low_tables, showing_tables = program[8], program[9], program[10]
    killed = program[11]
    levels, settle_params = settlement[0], settlement[1]
    unordered, tied, ordered = settlement[2], settlement[3], settlement[4]
    order_keys, order_spec = settlement[5], settlement[6]
    order_high, order_low = settlement[7], settlement[8]
    n = stacks.shape[0]
    required = table[T_REQUIRED]
    order = np.zeros(n, dtype=np.int64)
    contributed = np.zeros(n, dtype=np.int64)
    folded = np.zeros(n, dtype=np.bool_)
    cards = np.zeros((n, MAX_CARDS), dtype=np.int64)
    ncards = np.zeros(n, dtype=np.int64)
    board = np.zeros(MAX_BOARD, dtype=np.int64)
    out_n = np.zeros(4, dtype=np.int64)
    high = np.zeros(n, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    round_put = np.zeros(MAX_ROUNDS, dtype=np.int64)
    out = np.zeros(n + _TAIL, dtype=np.int64)
    stack = np.zeros(n, dtype=np.int64)
    for r in range(rounds):
        saved = stream[AT]
        kill = state[S_KILL]
        # between rounds of play a player may add to his table stakes (§ 553.8(b)); under
        # a Kill, what a round requires at its limits
        num = table[T_KILL_NUM] if kill else 1
        den = table[T_KILL_DEN] if kill else 1
        for i in range(n):
            stack[i] = stacks[i]
            buy_ins[r, i] = 0
            if stack[i] * den < required * num:
                buy_ins[r, i] = table[T_BUY_IN] - stack[i]
                stack[i] = table[T_BUY_IN]
        deck = decks[r]
        for c in range(52):
            deck[c] = c
        at = shuffle(stream, saved, deck, 52)
        if at < 0:  # the words ran out: more are drawn for the round
            return r, HANDED_BACK
        stream[AT] = at
        m, dealt_button = deal_order(
            stack, required, state[S_BUTTON], table[T_FROM_BUTTON], folded, order
        )
        if m < 2:
            stream[AT] = saved
            return r, HANDED_BACK
        contributed[:] = 0
        cards[:] = 0
        ncards[:] = 0
        board[:] = 0
        out_n[:] = 0
        high[:] = 0
        low[:] = 0
        round_put[:] = 0
        status = _deal_and_bet(
            killed if kill else posted,
            streets,
            steps,
            blinds,
            rows,
            high_tiers,
            forced_order,
            faces,
            high_tables,
            low_tables,
            showing_tables,
            deck,
            stream,
            order[:m],
            stack,
            contributed,
            folded,
            cards,
            ncards,
            board,
            out_n,
            high,
            low,
            round_put,
        )
        if status != TAKEN:
            stream[AT] = saved
            return r, HANDED_BACK
        settle_params[KILL_IN_EFFECT] = kill
        put_by_round = round_put[: out_n[1]]
        args = (contributed, folded, high, low, put_by_round, levels, settle_params)
        status = _settle(*args, unordered, tied, out)
        # a tie's excess by card and suit (§ 553.10(i)(2)): the tied seats ordered, settled again
        if status == NEEDS_ORDER and odd_chip_order(
            cards,
            ncards,
            board,
            out_n[0],
            tied,
            order_keys,
            order_spec,
            order_high,
            order_low,
            ordered,
        ):
            status = _settle(*args, ordered, tied, out)
        if status != SETTLED:
            stream[AT] = saved
            return r, HANDED_BACK
        put = 0
        awarded = 0
        for i in range(n):
            put += contributed[i]
            awarded += out[i]
        rake, bad_beat = out[n], out[n + 1]
        if put != awarded + rake + bad_beat:
            stream[AT] = saved
            return r, NOT_CONSERVED
        for i in range(n):
            nets[r, i] = out[i] - contributed[i]
            stacks[i] = stack[i] + nets[r, i]
        figures[r, F_RAKE] = rake
        figures[r, F_BAD_BEAT] = bad_beat
        figures[r, F_POTS] = out[n + 2]
        figures[r, F_SHOWDOWN] = out[n + 3]
        figures[r, F_CONTRIBUTED] = put
        figures[r, F_BUTTON] = dealt_button
        figures[r, F_KILL] = kill
        if dealt_button > 0:  # clockwise to the next seat (``table.next_button``)
            state[S_BUTTON] = dealt_button % n + 1
        if out[n + 4] >= 0:  # the Kill in effect next round, or not
            state[S_KILL] = out[n + 4]
    return rounds, PLAYED


@dataclass(slots=True)
class Block:
    """What ``_play_block`` played: ``played`` rounds, row r of each array for round r."""

    played: int
    stopped: int  # PLAYED, HANDED_BACK or NOT_CONSERVED (the round after the last played)
    decks: Ints  # [round, 52]
    buy_ins: Ints  # [round, seat index]
    nets: Ints  # [round, seat index] awards - contributions
    figures: Ints  # [round, F_*]


class BlockTable:
    """A table's rounds played a block at a time; ``reason`` says why it plays none."""

    def __init__(
        self,
        fast: FastTable,
        settler: FastSettler | None,
        buy_in: int,
        kill: Fraction | None = None,
    ) -> None:
        """``kill``: the multiplier of the limits of the table's Kill (None: no Kill)."""
        self.reason: str | None = fast.reason or (settler.reason if settler else "no settler")
        self.seats = len(fast.seats)
        self.button: int | None = None
        self.kill = False
        if self.reason is not None or settler is None:
            return
        prog = fast.program
        self.program = (
            prog.params,
            prog.streets,
            prog.steps,
            prog.blinds,
            prog.rows,
            prog.high_tiers,
            prog.forced_order,
            prog.faces,
            prog.high_tables,
            prog.low_tables,
            prog.showing_tables,
            prog.killed,
        )
        unordered: Ints = np.full((2, self.seats), -1, dtype=np.int64)
        tied: Flags = np.zeros((2, self.seats), dtype=np.bool_)
        ordered: Ints = np.full((2, self.seats), -1, dtype=np.int64)
        keys, spec, high_tables, low_tables = settler.order_arrays
        self.settlement = (
            settler.levels,
            settler.params,
            unordered,
            tied,
            ordered,
            keys,
            spec,
            high_tables,
            low_tables,
        )
        self.table = np.zeros(TABLE, dtype=np.int64)
        self.table[T_REQUIRED] = fast.required
        self.table[T_BUY_IN] = buy_in
        self.table[T_FROM_BUTTON] = int(prog.params[0])
        multiplier = kill if kill is not None else Fraction(1)
        self.table[T_KILL_NUM] = multiplier.numerator
        self.table[T_KILL_DEN] = multiplier.denominator

    def play(
        self, stream: Stream, stacks: Ints, button: int | None, kill: bool, rounds: int
    ) -> Block:
        """Up to ``rounds`` rounds from ``stacks``, ``button`` and the Kill in effect or not
        (``stacks`` and ``stream`` advanced in place); the button and the Kill after them in
        ``self.button`` and ``self.kill``."""
        n = self.seats
        decks = np.empty((rounds, 52), dtype=np.int64)
        buy_ins = np.empty((rounds, n), dtype=np.int64)
        nets = np.empty((rounds, n), dtype=np.int64)
        figures = np.empty((rounds, FIGURES), dtype=np.int64)
        state = np.zeros(STATE, dtype=np.int64)
        state[S_BUTTON] = -1 if button is None else button
        state[S_KILL] = kill
        played, stopped = _play_block(
            self.program,
            self.settlement,
            self.table,
            stream.ensure(rounds * BLOCK_WORDS),
            stacks,
            state,
            rounds,
            decks,
            buy_ins,
            nets,
            figures,
        )
        self.button = None if state[S_BUTTON] < 0 else int(state[S_BUTTON])
        self.kill = bool(state[S_KILL])
        return Block(int(played), int(stopped), decks, buy_ins, nets, figures)
