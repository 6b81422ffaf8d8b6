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
#: the rows of any round's log: a 7-seat Stud round logs well under 200, eight loose
#: players raising to their table stakes where a submission caps no raise
#: (`max_raises: unlimited`) over 1,300; more where the stacks have grown (``log_rows``)
LOG_ROWS = 8192


class Operation(NamedTuple):
    """An operation's name in the log's JSON and the names of its row's ``card`` and
    ``detail`` columns there (None: not written)."""

    name: str
    card: str | None
    detail: str | None


#: each operation by its number in a log row
OPERATIONS: dict[int, Operation] = {}


def _op(number: int, name: str, card: str | None = None, detail: str | None = None) -> int:
    """``number`` the operation ``name`` (``Operation``'s columns), what it does said beside."""
    OPERATIONS[number] = Operation(name, card, detail)
    return number


# -- the operations: dealing and betting (what each row's columns hold) ----------------------
# a street begins; card = the street's number in the game's deal; detail 1: a betting round
# follows its cards
STREET = _op(1, "street", "street", "betting")
# seat posts an Ante of amount (§ 553.10(b)); detail 1: All-in
POST_ANTE = _op(2, "post_ante", detail="all_in")
# seat posts a Blind Bet of amount; card = which blind, 0 first (§ 553.11(d)); detail 1: All-in
POST_BLIND = _op(3, "post_blind", "blind", "all_in")
# seat makes the Forced Bet (Bring-in) of amount (§ 553.10(d)); detail 1: All-in
POST_FORCED_BET = _op(4, "post_forced_bet", detail="all_in")
# card dealt to seat (NO_SEAT: to the board); detail 1: face up, 2: the common card (§
# 553.10(h)), dealt face up to the board for every player
DEAL = _op(5, "deal", "card", "face_up")
BURN = _op(6, "burn", "card")  # card burned
# a pile reshuffled from the random stream; detail 0: the burn cards for the common card (§
# 553.10(h)), 1: the discard pile for seat's draw (§ 553.13(g))
RESHUFFLE = _op(7, "reshuffle", detail="pile")
DISCARD = _op(8, "discard", "card")  # seat discards card in the draw
CHECK = _op(9, "check")  # seat checks
BET = _op(10, "bet", "to", "all_in")  # seat bets amount, to the level card; detail 1: All-in
CALL = _op(11, "call", detail="all_in")  # seat calls amount; detail 1: All-in
# seat raises by putting amount in, to the level card; detail 1: All-in
RAISE = _op(12, "raise", "to", "all_in")
FOLD = _op(13, "fold")  # seat folds
SHOW = _op(14, "show")  # seat shows its hand at the showdown
CONCEDE = _op(15, "concede")  # seat concedes without showing (§ 553.16(d))
# seat's draw done: card = the cards he drew, after his discards and deals (§ 553.13(g))
DRAW = _op(24, "draw", "drawn")
# -- the operations: settling -----------------------------------------------------------------
# amount returned to seat: its final bet no one called (§ 553.15(d))
RETURN_UNCALLED = _op(16, "return_uncalled")
# pot number card formed with amount; detail = the eligible seats' bit mask
FORM_POT = _op(17, "form_pot", "pot", "eligible")
TAKE_RAKE = _op(18, "take_rake", "pot")  # amount raked from pot number card (§ 553.15(b))
# amount taken from pot number card for the Bad Beat fund (§ 553.20(c))
TAKE_BAD_BEAT = _op(19, "take_bad_beat", "pot")
# amount of pot number card awarded to seat; detail 0: whole, 1: high, 2: low
AWARD_POT = _op(20, "award_pot", "pot", "part")
# amount paid to seat from the Bad Beat fund; detail: which share (0 the losing hand's, 1 the
# winning hand's, 2 the table's)
PAY_BAD_BEAT = _op(21, "pay_bad_beat", detail="share")
# the Kill in effect next round: detail 1, not: 0 (§ 553.12(m))
MOVE_KILL = _op(22, "move_kill", detail="in_effect")
MOVE_BUTTON = _op(23, "move_button")  # the button moves to seat (§ 553.11(c)(3))

#: ``DEAL``'s detail: the card dealt face up, and the common card
FACE_UP, COMMON = 1, 2


#: the operations whose row's amount is written only where it is not 0
NO_AMOUNT = frozenset(
    (STREET, DEAL, BURN, RESHUFFLE, DISCARD, DRAW, CHECK, FOLD, SHOW, CONCEDE, MOVE_BUTTON)
)


def new_log(on: bool, rows: int = LOG_ROWS) -> Ints:
    """A log for a round: ``rows`` rows where it is kept, none where it is off (the
    kernels then write nothing)."""
    return np.zeros((rows if on else 0, WIDTH), dtype=np.int64)


def log_rows(stacks: Ints, least_bet: int) -> int:
    """The rows a round dealt to ``stacks`` can log. Every action but a fold, a check, a
    call of a Bring-in or a Blind and a seat's one All-in puts in at least the least bet,
    and no one's chips go in past what the others can match and a bet more: beyond the
    ``LOG_ROWS`` of any round, two rows for each least bet the stacks but the largest hold
    (a table whose winners have grown rich, under ``max_raises: unlimited``)."""
    others = int(stacks.sum()) - int(stacks.max(initial=0))
    return LOG_ROWS + 2 * others // max(least_bet, 1)


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


def rows(log: Ints, n: int) -> Ints:
    """A round's log, its first ``n`` rows; a log that overflowed is refused."""
    if n > len(log):
        raise ValueError(f"the round's log holds {len(log)} operations; {n} were done")
    return log[:n]


def operations_json(log: Ints, n: int, seats: list[int]) -> list[dict[str, Any]]:
    """A round's log, its first ``n`` rows, as JSON."""
    return [operation_json(row, seats) for row in rows(log, n)]
