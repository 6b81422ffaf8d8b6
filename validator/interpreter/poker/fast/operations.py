"""The operations of a round of nonbanking Poker, in the shape PokerKit gives a table: a
closed set, each with its guard in the kernel that does it, appended to the round's log
where it is kept (``play``, ``settle``). A log is an int64 array of rows ``[operation,
seat, amount, card or value, detail]``: ``seat`` the index in the session's seat order
(``NO_SEAT``: the table's), ``amount`` cents, ``card`` 0..51 or the operation's value (a
pot's number, a street's, a level bet to). The words are the chapter's (§ 553.2);
``OPERATIONS`` names each in the log's JSON, made here only (``operation_json``);
``docs/poker-operations.md`` shows a round.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from validator.cards import card_str
from validator.interpreter.poker.fast import Ints
from validator.money import cents_figure

#: a row's columns
OP, SEAT, AMOUNT, CARD, DETAIL = range(5)
WIDTH = 5
#: the columns that hold a card where the operation names it ``card``
CARD_COLUMNS = ("card",)
#: the columns that hold money where the operation names them (a level bet to)
MONEY_COLUMNS = ("to",)
#: the table's, not a seat's
NO_SEAT = -1
#: the rows a round's log holds (a 7-seat Stud round logs well under 200)
LOG_ROWS = 1024

# -- the operations: dealing and betting ------------------------------------------------------
STREET = 1  # a street begins; card = the street's number in the game's deal; detail 1: a
#             betting round follows its cards
POST_ANTE = 2  # seat posts an Ante of amount (§ 553.10(b)); detail 1: All-in
POST_BLIND = 3  # seat posts a Blind Bet of amount; card = which blind, 0 first (§ 553.11(d));
#                 detail 1: All-in
POST_FORCED_BET = 4  # seat makes the Forced Bet (Bring-in) of amount (§ 553.10(d)); detail
#                      1: All-in
DEAL = 5  # card dealt to seat (NO_SEAT: to the board); detail 1: face up, 2: the common
#           card (§ 553.10(h)), dealt face up to the board for every player
BURN = 6  # card burned
RESHUFFLE = 7  # a pile reshuffled from the random stream; detail 0: the burn cards for the
#                common card (§ 553.10(h)), 1: the discard pile for seat's draw (§ 553.13(g))
DISCARD = 8  # seat discards card in the draw
CHECK = 9  # seat checks
BET = 10  # seat bets amount, to the level card; detail 1: All-in
CALL = 11  # seat calls amount; detail 1: All-in
RAISE = 12  # seat raises by putting amount in, to the level card; detail 1: All-in
FOLD = 13  # seat folds
SHOW = 14  # seat shows its hand at the showdown
CONCEDE = 15  # seat concedes without showing (§ 553.16(d))
# -- the operations: settling -----------------------------------------------------------------
RETURN_UNCALLED = 16  # amount returned to seat: its final bet no one called (§ 553.15(d))
FORM_POT = 17  # pot number card formed with amount; detail = the eligible seats' bit mask
TAKE_RAKE = 18  # amount raked from pot number card (§ 553.15(b))
TAKE_BAD_BEAT = 19  # amount taken from pot number card for the Bad Beat fund (§ 553.20(c))
AWARD_POT = 20  # amount of pot number card awarded to seat; detail 0: whole, 1: high, 2: low
PAY_BAD_BEAT = 21  # amount paid to seat from the Bad Beat fund; detail: which share (0 the
#                  losing hand's, 1 the winning hand's, 2 the table's)
MOVE_KILL = 22  # the Kill in effect next round: detail 1, not: 0 (§ 553.12(m))
MOVE_BUTTON = 23  # the button moves to seat (§ 553.11(c)(3))
# -- the operations: dealing and betting (added) ----------------------------------------------
DRAW = 24  # seat's draw done: card = the cards he drew, after his discards and deals
#            (§ 553.13(g))

#: ``DEAL``'s detail: the card dealt face up, and the common card
FACE_UP, COMMON = 1, 2


class Operation(NamedTuple):
    """An operation's name in the log's JSON, what its row's columns are called there, and
    what it does, in the chapter's words."""

    name: str
    card: str | None  # the name of the ``card`` column in the JSON (None: not written)
    detail: str | None  # the name of the ``detail`` column (None: not written)
    meaning: str


OPERATIONS: dict[int, Operation] = {
    STREET: Operation("street", "street", "betting", "a street of the deal begins"),
    POST_ANTE: Operation("post_ante", None, "all_in", "an Ante posted"),
    POST_BLIND: Operation("post_blind", "blind", "all_in", "a Blind Bet posted"),
    POST_FORCED_BET: Operation("post_forced_bet", None, "all_in", "the Forced Bet made"),
    DEAL: Operation("deal", "card", "face_up", "a card dealt to a player or the board"),
    BURN: Operation("burn", "card", None, "a card burned"),
    RESHUFFLE: Operation("reshuffle", None, "pile", "a pile reshuffled"),
    DISCARD: Operation("discard", "card", None, "a card discarded in the draw"),
    CHECK: Operation("check", None, None, "a check"),
    BET: Operation("bet", "to", "all_in", "a bet"),
    CALL: Operation("call", None, "all_in", "a call"),
    RAISE: Operation("raise", "to", "all_in", "a raise"),
    FOLD: Operation("fold", None, None, "a fold"),
    SHOW: Operation("show", None, None, "a hand shown at the showdown"),
    CONCEDE: Operation("concede", None, None, "a hand conceded without being shown"),
    RETURN_UNCALLED: Operation(
        "return_uncalled", None, None, "the uncalled part of the final bet returned"
    ),
    FORM_POT: Operation("form_pot", "pot", "eligible", "a pot formed"),
    TAKE_RAKE: Operation("take_rake", "pot", None, "the rake taken from a pot"),
    TAKE_BAD_BEAT: Operation(
        "take_bad_beat", "pot", None, "the Bad Beat contribution taken from a pot"
    ),
    AWARD_POT: Operation("award_pot", "pot", "part", "a pot or its half awarded"),
    PAY_BAD_BEAT: Operation("pay_bad_beat", None, "share", "a Bad Beat payout"),
    MOVE_KILL: Operation("move_kill", None, "in_effect", "the Kill set for the next round"),
    MOVE_BUTTON: Operation("move_button", None, None, "the button moved"),
    DRAW: Operation("draw", "drawn", None, "a player's draw done"),
}


#: the operations whose row's amount is written only where it is not 0
NO_AMOUNT = (
    *("street", "deal", "burn", "reshuffle", "discard", "draw", "check", "fold"),
    *("show", "concede", "move_button"),
)


def new_log(on: bool) -> Ints:
    """A log for a round: ``LOG_ROWS`` rows where it is kept, none where it is off (the
    kernels then write nothing)."""
    return np.zeros((LOG_ROWS if on else 0, WIDTH), dtype=np.int64)


@njit("int64(int64[:, ::1], int64, int64, int64, int64, int64, int64)", cache=True)
def log_op(log: Ints, n: int, op: int, seat: int, amount: int, card: int, detail: int) -> int:
    """Append an operation to ``log`` holding ``n`` rows; the rows it holds after. One
    signature, compiled once for every call site. A log with no rows (off) is left as it is;
    a full one keeps its rows and counts on, so that a reader sees ``n > len(log)`` and
    refuses it."""
    if n < log.shape[0]:
        log[n] = (op, seat, amount, card, detail)
    return n + 1 if log.shape[0] else n


def operation_json(row: Ints, seats: list[int]) -> dict[str, Any]:
    """One row of a log as the JSON round record writes it: the operation's name, the seat
    by its number, money as round results print it, a card as ``AS``."""
    op = OPERATIONS[int(row[OP])]
    out: dict[str, Any] = {"op": op.name}
    if int(row[SEAT]) != NO_SEAT:
        out["seat"] = seats[int(row[SEAT])]
    if int(row[AMOUNT]) or op.name not in NO_AMOUNT:
        out["amount"] = cents_figure(int(row[AMOUNT]))
    if op.card is not None:
        value = int(row[CARD])
        out[op.card] = (
            card_str(value)
            if op.card in CARD_COLUMNS
            else cents_figure(value)
            if op.card in MONEY_COLUMNS
            else value
        )
    if op.detail is not None:
        detail = int(row[DETAIL])
        if int(row[OP]) == FORM_POT:  # the eligible seats by their numbers, not their bits
            out[op.detail] = [s for i, s in enumerate(seats) if detail >> i & 1]
        else:
            out[op.detail] = detail
    return out


def operations_json(log: Ints, n: int, seats: list[int]) -> list[dict[str, Any]]:
    """A round's log, its first ``n`` rows, as JSON; a log that overflowed is refused."""
    if n > len(log):
        raise ValueError(f"the round's log holds {len(log)} operations; {n} were done")
    return [operation_json(log[i], seats) for i in range(n)]
