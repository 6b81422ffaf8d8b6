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
WIDTH = 5
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
    """An operation's name in the log's JSON and the names of its row's ``card`` and
    ``detail`` columns there (None: not written); what it does is said beside its number."""

    name: str
    card: str | None
    detail: str | None


OPERATIONS: dict[int, Operation] = {
    STREET: Operation("street", "street", "betting"),
    POST_ANTE: Operation("post_ante", None, "all_in"),
    POST_BLIND: Operation("post_blind", "blind", "all_in"),
    POST_FORCED_BET: Operation("post_forced_bet", None, "all_in"),
    DEAL: Operation("deal", "card", "face_up"),
    BURN: Operation("burn", "card", None),
    RESHUFFLE: Operation("reshuffle", None, "pile"),
    DISCARD: Operation("discard", "card", None),
    CHECK: Operation("check", None, None),
    BET: Operation("bet", "to", "all_in"),
    CALL: Operation("call", None, "all_in"),
    RAISE: Operation("raise", "to", "all_in"),
    FOLD: Operation("fold", None, None),
    SHOW: Operation("show", None, None),
    CONCEDE: Operation("concede", None, None),
    RETURN_UNCALLED: Operation("return_uncalled", None, None),
    FORM_POT: Operation("form_pot", "pot", "eligible"),
    TAKE_RAKE: Operation("take_rake", "pot", None),
    TAKE_BAD_BEAT: Operation("take_bad_beat", "pot", None),
    AWARD_POT: Operation("award_pot", "pot", "part"),
    PAY_BAD_BEAT: Operation("pay_bad_beat", None, "share"),
    MOVE_KILL: Operation("move_kill", None, "in_effect"),
    MOVE_BUTTON: Operation("move_button", None, None),
    DRAW: Operation("draw", "drawn", None),
}
#: the operations whose row's amount is written only where it is not 0
NO_AMOUNT = frozenset(
    (STREET, DEAL, BURN, RESHUFFLE, DISCARD, DRAW, CHECK, FOLD, SHOW, CONCEDE, MOVE_BUTTON)
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
    """One row of a log as the JSON round record writes it: the seat by its number, money as
    round results print it, a card as ``AS``."""
    kind, seat, amount, value, detail = (int(x) for x in row)
    op = OPERATIONS[kind]
    out: dict[str, Any] = {"op": op.name}
    if seat != NO_SEAT:
        out["seat"] = seats[seat]
    if amount or kind not in NO_AMOUNT:
        out["amount"] = cents_figure(amount)
    if op.card == "card":
        out[op.card] = card_str(value)
    elif op.card == "to":  # a level bet to: money
        out[op.card] = cents_figure(value)
    elif op.card is not None:
        out[op.card] = value
    if kind == FORM_POT:  # the eligible seats by their numbers, not their bits
        out["eligible"] = [s for i, s in enumerate(seats) if detail >> i & 1]
    elif op.detail is not None:
        out[op.detail] = detail
    return out


def operations_json(log: Ints, n: int, seats: list[int]) -> list[dict[str, Any]]:
    """A round's log, its first ``n`` rows, as JSON; a log that overflowed is refused."""
    if n > len(log):
        raise ValueError(f"the round's log holds {len(log)} operations; {n} were done")
    return [operation_json(log[i], seats) for i in range(n)]
