"""A round of play dealt and bet in one numba kernel, its operations logged for ``play``
and not for ``simulate`` and ``par``. A put that reaches a player's whole stack makes him
All-in (§ 553.8(b)(4)): he acts no more, a bet or raise is capped at what he can reach, and
an All-in short of a full raise does not reopen the betting to those who have acted. The
piles reshuffled (§ 553.10(h), § 553.13(g)(2)) are shuffled from the session's random
stream; a round that runs out of its words is dealt again from more.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from validator.interpreter.poker.fast import (
    MAX_BOARD,
    MAX_CARDS,
    MAX_ROUNDS,
    Flags,
    Ints,
)
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.fast.operations import log_op
from validator.interpreter.poker.fast.program import (
    BET,
    BLINDS_AFTER,
    BLINDS_BEFORE,
    CALL,
    CHECK,
    FINISHED,
    FOLD,
    OPENS_FORCED,
    OPENS_SHOWING,
    RAISE,
)
from validator.interpreter.poker.fast.stream import AT, shuffle
from validator.rankings.packed import (
    FIVE,
    _bits,
    best_key,
    best_key_of_five,
    best_key_of_two,
    best_key_using,
    category_index,
    five_picks,
    kept_mask,
    key_part,
)

# the kernel's result; OUT_OF_WORDS: the stream's words ran out
TAKEN, OUT_OF_WORDS, DECK_OUT, ENDLESS = 0, 1, 2, 3
HIGH, LOW = 0, 1
#: a key not read (``Readings.known``)
UNREAD = -1
#: ``Betting.counts``: the players, the limit's bet, the bet to call, the last to bet or
#: raise, the raise cap (-1: none), the raises made, 1: a player who checked may raise
PLAYERS, BET_SIZE, CURRENT, AGGRESSOR, MAX_RAISES, RAISES, CHECK_RAISE = range(7)


class Stock(NamedTuple):
    """The stock ``cards[top:end]`` and the piles beside it; ``stream`` and its next word
    ``at``, past the words the round's reshuffles read. One-element arrays hold the
    counts."""

    cards: Ints
    top: Ints
    end: Ints
    burns: Ints
    nburns: Ints
    discards: Ints
    ndiscards: Ints
    pile: Ints  # scratch: the burns and the stock reshuffled together
    stream: Ints
    at: Ints


class Betting(NamedTuple):
    """A betting round: the players in the order they act (``order[:counts[PLAYERS]]``),
    what each put in on this street, the flags and tiers by seat, and its counts."""

    order: Ints
    street: Ints
    acted: Flags
    may_raise: Flags
    checked: Flags
    tiers: Ints
    counts: Ints  # ``PLAYERS`` .. ``CHECK_RAISE``


class Readings(NamedTuple):
    """The hands read in a round: where a hand is read over ``use:``, each reading's board
    choices read once a street and the keys of each seat's last tier (``known`` at street
    ``known_at``), reused at the showdown where no card came since (``changed_at``)."""

    own: Ints
    bpicks: Ints
    nbpicks: Ints
    opicks: Ints
    known: Ints
    known_at: Ints
    changed_at: Ints


class Outcome(NamedTuple):
    """What a round leaves (``DealtHand``'s arrays, the counts as one-element arrays) and
    its operation log (no rows: off)."""

    contributed: Ints
    folded: Flags
    cards: Ints
    ncards: Ints
    board: Ints
    high: Ints
    low: Ints
    round_put: Ints
    nboard: Ints
    nrounds: Ints
    last_aggressor: Ints
    log: Ints
    nlog: Ints


@njit(cache=True)
def outcome(n, log):  # type: ignore[no-untyped-def]
    """An empty ``Outcome`` for ``n`` seats."""
    by_seat = np.zeros((4, n), dtype=np.int64)  # what each put in, his cards' count, his keys
    c = np.zeros(4, dtype=np.int64)  # the board's cards, betting rounds, aggressor, log rows
    cards, folded = np.zeros((n, MAX_CARDS), dtype=np.int64), np.ones(n, dtype=np.bool_)
    board, put = np.zeros(MAX_BOARD, dtype=np.int64), np.zeros(MAX_ROUNDS, dtype=np.int64)
    contributed, ncards, high, low = by_seat[0], by_seat[1], by_seat[2], by_seat[3]
    nboard, nrounds, last, nlog = c[0:1], c[1:2], c[2:3], c[3:4]  # last: the last aggressor
    return Outcome(
        contributed, folded, cards, ncards, board, high, low, put, nboard, nrounds, last, log, nlog
    )


@njit(cache=True, inline="always")
def _log(log, nlog, op, seat, amount, card, detail):  # type: ignore[no-untyped-def]
    """``ops.log_op`` where the log is kept."""
    if log.shape[0]:
        nlog[0] = log_op(log, nlog[0], op, seat, amount, card, detail)


@njit(cache=True)
def _using_key(tables, k_own, k_board, own, n_own, board, n_board, b, nb, opicks):  # type: ignore[no-untyped-def]
    """``best_key_using`` of a reading over its ``use:``, a five-card hand read from the
    board's choices made once a street (``b``, ``nb``)."""
    if k_own + k_board != FIVE:
        return best_key_using(tables, own, n_own, board, n_board, k_own, k_board)
    if nb[1] != n_board:  # the board read once a street (its cards only added to)
        nb[0] = five_picks(board, n_board, k_board, b)
        nb[1] = n_board
    no = five_picks(own, n_own, k_own, opicks)
    return best_key_of_five(tables, opicks, no, b, nb[0])


@njit(cache=True, inline="always")
def _out(k_own, k_board, n_own, n_board):  # type: ignore[no-untyped-def]
    """Whether a reading's ``use:`` (k_own >= 0) has its cards out."""
    return k_own >= 0 and n_own >= k_own and n_board >= k_board


@njit(cache=True, inline="always")
def _read_key(tables, r, k_own, k_board, own, n_own, board, n_board, reads):  # type: ignore[no-untyped-def]
    """Reading ``r``'s key over ``use:`` when its cards are out, else over all; and the key
    kept for the showdown (``UNREAD``: not read over ``use:``)."""
    if _out(k_own, k_board, n_own, n_board):
        b, nb = reads.bpicks[r], reads.nbpicks[r]
        key = _using_key(tables, k_own, k_board, own, n_own, board, n_board, b, nb, reads.opicks)
        return key, key
    return best_key_of_two(tables, own, n_own, board, n_board), UNREAD


@njit(cache=True, inline="always")
def _low_tier(params, low_tables, key):  # type: ignore[no-untyped-def]
    """The low hand's tier, its packed ``key`` read."""
    if category_index(low_tables, key) != params.low_lowest:
        return 0
    top = 0
    n = 0
    for i in range(1, 7):
        part = key_part(key, i)
        if i == 1:
            top = -part  # the low's highest card
        if part != 0:
            n += 1
    if top <= params.strong_at_most:
        return 3 if n >= FINISHED else 2
    return 1 if top <= params.fair_at_most else 0


@njit(cache=True, inline="always")
def _tier(params, high_tiers, high_tables, low_tables, own, n_own, board, n_board, reads):  # type: ignore[no-untyped-def]
    """0 weak .. 3 premium, and the high and low keys read over ``use:`` (§ 553.12(j);
    ``UNREAD``: not so read). The tables are passed, not the ``Kernel``: a record of many
    arrays costs a reference count each in a call."""
    best = -1
    high = low = UNREAD
    if params.has_high:
        k_own, k_board = params.high_own, params.high_board
        key, high = _read_key(high_tables, HIGH, k_own, k_board, own, n_own, board, n_board, reads)
        best = high_tiers[category_index(high_tables, key)]
        if best < 0:  # no tier's hand: an unfinished hand's high card
            top = 0
            for j in range(n_own):
                top = max(top, own[j] >> 2)
            for j in range(n_board):
                top = max(top, board[j] >> 2)
            best = 1 if n_own + n_board < FINISHED and top + 2 >= params.unfinished else 0
    if params.has_low and best < 3 and not _low_possible(params, board, n_own, n_board):
        best = max(best, 0)
    elif params.has_low and best < 3:
        k_own, k_board = params.low_own, params.low_board
        key, low = _read_key(low_tables, LOW, k_own, k_board, own, n_own, board, n_board, reads)
        best = max(best, _low_tier(params, low_tables, key))
    return best, high, low


@njit(cache=True)
def _low_possible(params, board, n_own, n_board):  # type: ignore[no-untyped-def]
    """Whether the low can be better than weak: not where the board has fewer distinct ranks
    at or below the fair limit than the hand must use (every such low is weak)."""
    k_own, k_board = params.low_own, params.low_board
    if not _out(k_own, k_board, n_own, n_board):
        return True  # valued over all the cards: read it
    seen = 0
    for j in range(n_board):
        r = _low_rank(board[j])
        if r <= params.fair_at_most:
            seen |= 1 << r
    return _bits(seen) >= k_board


@njit(cache=True)
def _showdown_key(tables, k_own, k_board, own, n_own, board, n_board, b, nb, opicks):  # type: ignore[no-untyped-def]
    """The showdown's key of a reading over its ``use:`` (0: too few cards for it)."""
    if _out(k_own, k_board, n_own, n_board):
        return _using_key(tables, k_own, k_board, own, n_own, board, n_board, b, nb, opicks)
    return 0


@njit(cache=True)
def _low_rank(card):  # type: ignore[no-untyped-def]
    r = card >> 2
    return 1 if r == 12 else r + 2


@njit(cache=True, inline="always")
def _put(i, amount, stack, contributed):  # type: ignore[no-untyped-def]
    """No more than the stack; the chips put. A stack of 0 is All-in (§ 553.8(b)(4))."""
    paid = min(amount, stack[i])
    stack[i] -= paid
    contributed[i] += paid
    return paid


@njit(cache=True, inline="always")
def _new_round(bets, m, max_raises, check_raise):  # type: ignore[no-untyped-def]
    """A betting round opened to ``bets.order[:m]``."""
    order, street, acted = bets.order, bets.street, bets.acted
    may_raise, checked = bets.may_raise, bets.checked
    for j in range(m):
        i = order[j]
        street[i] = 0
        acted[i] = False
        may_raise[i] = True
        checked[i] = False
    rs = bets.counts
    rs[PLAYERS] = m
    rs[CURRENT] = 0
    rs[RAISES] = 0
    rs[AGGRESSOR] = -1
    rs[MAX_RAISES] = max_raises
    rs[CHECK_RAISE] = check_raise


@njit(cache=True, inline="always")
def _post(i, amount, acts, stack, contributed, bets):  # type: ignore[no-untyped-def]
    """A put on this street (All-in where the stack is short); the chips put."""
    paid = _put(i, amount, stack, contributed)
    bets.street[i] += paid
    rs = bets.counts
    if bets.street[i] > rs[CURRENT]:
        rs[CURRENT] = bets.street[i]
        rs[AGGRESSOR] = i
    if acts:
        bets.acted[i] = True
    return paid


@njit(cache=True, inline="always")
def _action_pending(order, m, street, acted, current, stack, folded):  # type: ignore[no-untyped-def]
    """Two or more players still in, one able to act who has not acted or owes chips, and
    not one player alone able to act with nothing to call."""
    in_hand = 0
    pending = False
    ables = 0
    able = -1
    for j in range(m):
        i = order[j]
        if folded[i]:
            continue
        in_hand += 1
        if stack[i] > 0:
            ables += 1
            able = i
            if not acted[i] or street[i] < current:
                pending = True
    if in_hand <= 1 or not pending:
        return False
    # one player left able to act, nothing to call and no one to bet against
    return not (ables == 1 and street[able] >= current)


@njit(cache=True, inline="always")
def _decide(wanted, to_call, can_bet, can_raise):  # type: ignore[no-untyped-def]
    """The wanted action where the options allow it, else the nearest they do: a check
    where nothing is owed, else a call (a fold stays a fold)."""
    if (wanted == RAISE and can_raise) or (wanted == BET and can_bet):
        return wanted
    if to_call == 0:
        return CHECK
    return FOLD if wanted == FOLD else CALL


#: the operation logged for each action (``program.FOLD`` .. ``RAISE``)
_ACTION_OPS = (ops.FOLD, ops.CHECK, ops.CALL, ops.BET, ops.RAISE)


@njit(cache=True)
def _run(bets, stack, contributed, folded, rows, log, nlog):  # type: ignore[no-untyped-def]
    """The betting round played, each turn its tier's decision; False where it would not
    end (a bug, never a game). A bet or raise is capped at what the player can reach; a
    full one reopens the betting, an All-in short of it does not (§ 553.8(b)(4)). The
    record's arrays are read once here: a field read at each turn costs a reference count."""
    k = 0
    order, street, acted, may_raise = bets.order, bets.street, bets.acted, bets.may_raise
    checked, tiers, rs = bets.checked, bets.tiers, bets.counts
    m = rs[PLAYERS]
    # every raise but an All-in short of a full one (one a seat) adds a bet to what is
    # owed, which no one can raise past the most a player can reach; after each, every
    # seat acts at most once: turns past these are a round that does not end
    reach = 0
    for j in range(m):
        reach = max(reach, street[order[j]] + stack[order[j]])
    turns = m * (reach // max(rs[BET_SIZE], 1) + m + 4)
    while _action_pending(order, m, street, acted, rs[CURRENT], stack, folded):
        i = order[k % m]
        k += 1
        if k > turns:
            return False
        current = rs[CURRENT]
        mine = street[i]
        if folded[i] or stack[i] == 0 or (acted[i] and mine >= current):
            continue
        to_call = max(0, current - mine)
        reach = mine + stack[i]
        can_bet = current == 0 and stack[i] > 0
        bet = rs[BET_SIZE]
        capped = rs[MAX_RAISES] >= 0 and rs[RAISES] >= rs[MAX_RAISES]
        reopened = may_raise[i] and (rs[CHECK_RAISE] != 0 or not checked[i])
        can_raise = current > 0 and reach > current and not capped and reopened
        wanted = rows[i, tiers[i], 1 if to_call > 0 else 0]
        kind = _decide(wanted, to_call, can_bet, can_raise)
        acted[i] = True
        paid = 0
        total = 0
        if kind == FOLD:
            folded[i] = True
        elif kind == CHECK:
            checked[i] = True
        elif kind == CALL:
            paid = _put(i, to_call, stack, contributed)
            street[i] += paid
        else:
            to = min(bet, reach) if kind == BET else min(current + bet, reach)
            paid = _put(i, to - mine, stack, contributed)
            street[i] += paid
            total = street[i]
            full = total - current >= bet or current == 0
            if kind == RAISE:
                rs[RAISES] += 1
            rs[CURRENT] = max(current, total)
            rs[AGGRESSOR] = i
            for j in range(m):
                o = order[j]
                if full:  # the betting reopens to everyone else
                    may_raise[o] = True
                elif acted[o]:  # an All-in short of a full raise: call it, not re-raise
                    may_raise[o] = False
                acted[o] = False
            acted[i] = True
        _log(log, nlog, _ACTION_OPS[kind], i, paid, total, int(stack[i] == 0))
    return True


@njit(cache=True, inline="always")
def _stock(deck, stream):  # type: ignore[no-untyped-def]
    """The stock of a round, its piles empty (two allocations a round)."""
    c = np.zeros(5, dtype=np.int64)  # top, end, nburns, ndiscards, at
    c[1] = deck.shape[0]
    c[4] = stream[AT]
    piles = np.zeros(3 * 52, dtype=np.int64)
    burns, discards, pile = piles[0:52], piles[52:104], piles[104:156]
    return Stock(deck.copy(), c[0:1], c[1:2], burns, c[2:3], discards, c[3:4], pile, stream, c[4:5])


@njit(cache=True, inline="always")
def _betting(n, players):  # type: ignore[no-untyped-def]
    """A betting round's arrays for ``n`` seats, ``players`` dealt in."""
    counts = np.zeros(7, dtype=np.int64)
    counts[AGGRESSOR] = -1
    counts[MAX_RAISES] = -1
    flags = np.zeros(3 * n, dtype=np.bool_)
    acted, may_raise, checked = flags[0:n], flags[n : 2 * n], flags[2 * n : 3 * n]
    street, tiers = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    order = np.zeros(players, dtype=np.int64)
    return Betting(order, street, acted, may_raise, checked, tiers, counts)


@njit(cache=True, inline="always")
def _readings(n, using):  # type: ignore[no-untyped-def]
    """The scratch of the hands read (the choices only where a hand is read over ``use:``)."""
    return Readings(
        np.zeros(MAX_CARDS, dtype=np.int64),
        np.empty((2, 3, (1 << MAX_BOARD) if using else 0), dtype=np.int64),
        np.full((2, 2), -1, dtype=np.int64),
        np.empty((3, (1 << MAX_CARDS) if using else 0), dtype=np.int64),
        np.full((n, 2), UNREAD, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        np.full(1, -1, dtype=np.int64),
    )


@njit(cache=True)
def _reshuffle(stock, pile, size, log, nlog, seat, which):  # type: ignore[no-untyped-def]
    """``pile[:size]`` shuffled to be the stock and logged (``which``: the ``RESHUFFLE``
    row's pile); False: the stream's words ran out."""
    at = shuffle(stock.stream, stock.at[0], pile, size)
    stock.at[0] = at
    if at < 0:
        return False
    for c in range(size):
        stock.cards[c] = pile[c]
    stock.top[0] = 0
    stock.end[0] = size
    _log(log, nlog, ops.RESHUFFLE, seat, 0, 0, which)
    return True


@njit(cache=True, inline="always")
def _deal_common_card(params, stock, out):  # type: ignore[no-untyped-def]
    """§ 553.10(h): one card burned and one to the board for every player, the burn cards
    shuffled into the stock first when it is down to ``shuffle_burns``; False: handed back."""
    top, end, nburns = stock.top[0], stock.end[0], stock.nburns[0]
    if end - top <= params.shuffle_burns:
        size = nburns + end - top
        stock.pile[:nburns] = stock.burns[:nburns]
        stock.pile[nburns:size] = stock.cards[top:end]
        if not _reshuffle(stock, stock.pile, size, out.log, out.nlog, ops.NO_SEAT, 0):
            return False
        top, end, nburns = 0, stock.end[0], 0
    if end - top < 2:
        return False  # the deck ran out
    stock.burns[nburns] = stock.cards[top]
    stock.nburns[0] = nburns + 1
    out.board[out.nboard[0]] = stock.cards[top + 1]
    out.nboard[0] += 1
    _log(out.log, out.nlog, ops.BURN, ops.NO_SEAT, 0, stock.cards[top], 0)
    _log(out.log, out.nlog, ops.DEAL, ops.NO_SEAT, 0, stock.cards[top + 1], ops.COMMON)
    stock.top[0] = top + 2
    return True


@njit(cache=True, inline="always")
def _deal_street(params, streets, steps, faces, si, hand, nh, stock, out):  # type: ignore[no-untyped-def]
    """Street ``si``'s burns (§ 553.10(f), § 553.11(g)) and deal steps; the Stud common
    card where the stock is short (§ 553.10(h)). False: the deck ran out or no reshuffle."""
    to_board, rounds = steps.to_board, steps.rounds
    first, last = streets.step0[si], streets.step0[si] + streets.nsteps[si]
    top, end = stock.top[0], stock.end[0]
    need = streets.burn[si] + nh * streets.per_player[si]
    if streets.common[si] and end - top < need:
        return _deal_common_card(params, stock, out)
    if end - top < need + streets.to_board[si]:
        return False  # the deck ran out
    cards, burns, nburns = stock.cards, stock.burns, stock.nburns[0]
    board, nboard, dealt, ndealt = out.board, out.nboard[0], out.cards, out.ncards
    log, nlog = out.log, out.nlog
    for _ in range(streets.burn[si]):
        burns[nburns] = cards[top]
        _log(log, nlog, ops.BURN, ops.NO_SEAT, 0, cards[top], 0)
        nburns += 1
        top += 1
    for t in range(first, last):
        for _ in range(rounds[t]):
            if to_board[t] == 1:
                board[nboard] = cards[top]
                _log(log, nlog, ops.DEAL, ops.NO_SEAT, 0, cards[top], 1)
                nboard += 1
                top += 1
                continue
            for j in range(nh):
                i = hand[j]
                k = ndealt[i]
                dealt[i, k] = cards[top]
                up = 1 if k < faces.shape[0] and faces[k] == 1 else 0
                _log(log, nlog, ops.DEAL, i, 0, cards[top], up)
                ndealt[i] += 1
                top += 1
    stock.top[0] = top
    stock.nburns[0] = nburns
    out.nboard[0] = nboard
    return True


@njit(cache=True, inline="always")
def _post_blinds(params, blinds, max_raises, hand, nh, stack, out, bets):  # type: ignore[no-untyped-def]
    """The Blind Bets from the button's left (§ 553.11(d), § 553.13(e)), the betting round
    opened to the players after them, the blinds last."""
    nb = min(blinds.shape[0], nh)
    for j in range(nh):
        bets.order[j] = hand[(nb + j) % nh]
    _new_round(bets, nh, max_raises, params.check_raise)
    for j in range(nb):
        i = hand[j]
        paid = _post(i, blinds[j], False, stack, out.contributed, bets)
        _log(out.log, out.nlog, ops.POST_BLIND, i, paid, j, int(stack[i] == 0))


@njit(cache=True, inline="always")
def _kept(params, high_tiers, tables, own, nc):  # type: ignore[no-untyped-def]
    """The cards kept at the draw (bit c for card c): a made high hand's cards, else the
    highest card; the low cards up to the fair limit, one of a rank."""
    keep = 0
    if params.has_high:
        key = best_key(tables, own, nc)
        if params.high_own >= 0 and params.high_board == 0 and (nc >= params.high_own):
            # the hand of the player's cards alone (``high_board``, 0 here, not a constant: one
            # compiled reading serves every call)
            zero = params.high_board
            key = best_key_using(tables, own, nc, own, zero, params.high_own, zero)
        if high_tiers[category_index(tables, key)] >= 0:
            keep |= kept_mask(tables, own, nc)
        else:
            hi = 0
            for c in range(nc):
                if own[c] > own[hi]:
                    hi = c
            keep |= 1 << hi
    if params.has_low:
        seen = 0
        for c in range(nc):
            lr = _low_rank(own[c])
            if lr <= params.fair_at_most and not (seen >> lr) & 1:
                seen |= 1 << lr
                keep |= 1 << c
    return keep


@njit(cache=True, inline="always")
def _draw(params, high_tiers, high_tables, hand, nh, stock, out, own):  # type: ignore[no-untyped-def]
    """§ 553.13(g): each player still in discards what he does not keep and draws as many,
    the discard pile reshuffled where the stock runs out: without his own discards, which
    join the pile after his draw, since each is replaced "with a new card". False: handed
    back."""
    log, nlog = out.log, out.nlog
    for j in range(nh):
        i = hand[j]
        nc = out.ncards[i]
        for c in range(nc):
            own[c] = out.cards[i, c]
        keep = _kept(params, high_tiers, high_tables, own, nc)
        nk = 0
        older = stock.ndiscards[0]  # the pile before this player's discards
        for c in range(nc):
            if (keep >> c) & 1:
                out.cards[i, nk] = own[c]
                nk += 1
            else:
                stock.discards[stock.ndiscards[0]] = own[c]
                stock.ndiscards[0] += 1
                _log(log, nlog, ops.DISCARD, i, 0, own[c], 0)
        for c in range(nk, nc):
            if stock.top[0] >= stock.end[0]:
                if older == 0 or not _reshuffle(stock, stock.discards, older, log, nlog, i, 1):
                    return False
                mine = stock.ndiscards[0] - older  # his discards, now the whole pile
                for d in range(mine):
                    stock.discards[d] = stock.discards[older + d]
                stock.ndiscards[0] = mine
                older = 0
            out.cards[i, c] = stock.cards[stock.top[0]]
            _log(log, nlog, ops.DEAL, i, 0, out.cards[i, c], 0)
            stock.top[0] += 1
        _log(log, nlog, ops.DRAW, i, 0, nc - nk, 0)
    return True


@njit(cache=True, inline="always")
def _players_in(order, folded, hand):  # type: ignore[no-untyped-def]
    """The players still in, into ``hand``; how many."""
    nh = 0
    for j in range(order.shape[0]):
        if not folded[order[j]]:
            hand[nh] = order[j]
            nh += 1
    return nh


@njit(cache=True, inline="always")
def _open_betting(
    params, streets, faces, forced_order, showing, si, hand, nh, stack, out, own, bets
):  # type: ignore[no-untyped-def]
    """A betting round with no Blind Bets opened by the Forced Bet, the lowest (or highest)
    up-card, the next player first (§ 553.10(d), (e)); the best hand showing among the
    players able to act (none: all in), the first from the dealer's left among equals (§
    553.10(f)(1), (2)); or from the button's left. Returns the Forced Bet's player (-1:
    none)."""
    opens = streets.opens[si]
    start = 0
    forced = -1
    if opens == OPENS_FORCED:
        best = -1
        for j in range(nh):
            v = forced_order[out.cards[hand[j], params.forced_card]]
            if best < 0 or v < best:
                best = v
                start = j
        forced = hand[start]
        start += 1
    elif opens == OPENS_SHOWING:
        ables = 0
        for j in range(nh):
            if stack[hand[j]] > 0:
                ables += 1
        best = -1
        for j in range(nh):
            i = hand[j]
            if ables > 0 and stack[i] == 0:
                continue
            nu = 0
            for c in range(out.ncards[i]):
                if faces[c] == 1:
                    own[nu] = out.cards[i, c]
                    nu += 1
            key = best_key(showing, own, nu)
            if key > best or (key == best and i < hand[start]):
                best = key
                start = j
    for j in range(nh):
        bets.order[j] = hand[(start + j) % nh]
    _new_round(bets, nh, streets.max_raises[si], params.check_raise)
    return forced


@njit(cache=True, inline="always")
def _limit_bet(params, streets, faces, si, hand, nh, out, bets):  # type: ignore[no-untyped-def]
    """The upper limit's bet on an upper street or where an open pair shows on the split street."""
    upper = streets.upper[si] != 0
    if streets.open_pair[si] and not upper:
        for j in range(nh):
            i = hand[j]
            seen = 0
            for c in range(out.ncards[i]):
                if faces[c] == 1:
                    r = out.cards[i, c] >> 2
                    if (seen >> r) & 1:
                        upper = True
                    seen |= 1 << r
    bets.counts[BET_SIZE] = params.upper_min if upper else params.lower_min


@njit(cache=True, inline="always")
def _read_tiers(params, tiers, tables, low_tables, si, stack, out, reads, bets, using):  # type: ignore[no-untyped-def]
    """Each player able to act reads his tier, keeping the keys read over ``use:``."""
    order, cards, ncards, board = bets.order, out.cards, out.ncards, out.board
    n_board, read, known, known_at = out.nboard[0], bets.tiers, reads.known, reads.known_at
    for j in range(bets.counts[PLAYERS]):
        i = order[j]
        if stack[i] == 0:  # All-in: he acts no more
            continue
        own, n_own = cards[i], ncards[i]
        read[i], high, low = _tier(
            params, tiers, tables, low_tables, own, n_own, board, n_board, reads
        )
        if using:
            known[i, HIGH] = high
            known[i, LOW] = low
            known_at[i] = si


@njit(cache=True, inline="always")
def _close_betting_round(order, bets, stock, out, mucked, put_before):  # type: ignore[no-untyped-def]
    """A betting round ended: the chips it took, its last aggressor (the round of play's
    stays the last who bet or raised, where this one had no wager: § 553.16(d)'s "final
    wager" is the last made), and each hand folded in it to the discard pile; returns all
    put in so far."""
    put = _booked(out, put_before, True)
    if bets.counts[AGGRESSOR] >= 0:
        out.last_aggressor[0] = bets.counts[AGGRESSOR]
    folded, cards, ncards = out.folded, out.cards, out.ncards
    discards, nd = stock.discards, stock.ndiscards[0]
    for j in range(order.shape[0]):
        i = order[j]
        if folded[i] and not mucked[i]:
            mucked[i] = True
            for c in range(ncards[i]):
                discards[nd] = cards[i, c]
                nd += 1
    stock.ndiscards[0] = nd
    return put


@njit(cache=True, inline="always")
def _booked(out, put_before, always):  # type: ignore[no-untyped-def]
    """The chips put in since ``put_before`` booked as a betting round's (not ``always``:
    only where there are some); all put in."""
    put = 0
    for i in range(out.contributed.shape[0]):
        put += out.contributed[i]
    if always or put != put_before:
        out.round_put[out.nrounds[0]] = put - put_before
        out.nrounds[0] += 1
    return put


@njit(cache=True, inline="always")
def _showdown_keys(params, high_tables, low_tables, order, out, reads):  # type: ignore[no-untyped-def]
    """Each hand still in read for the showdown (§ 553.7(d)), its low key only where it
    qualifies; a key its last tier read is reused where no card came since."""
    folded, cards, ncards, board = out.folded, out.cards, out.ncards, out.board
    n_board, known, known_at = out.nboard[0], reads.known, reads.known_at
    changed_at, opicks = reads.changed_at[0], reads.opicks
    for r in range(2):
        if (r == HIGH and not params.has_high) or (r == LOW and not params.has_low):
            continue
        tables = high_tables if r == HIGH else low_tables
        k_own = params.high_own if r == HIGH else params.low_own
        k_board = params.high_board if r == HIGH else params.low_board
        counts = params.high_board_counts if r == HIGH else params.low_board_counts
        keys, b, nb = (out.high if r == HIGH else out.low), reads.bpicks[r], reads.nbpicks[r]
        for j in range(order.shape[0]):
            i = order[j]
            if folded[i]:
                continue
            key = known[i, r]
            if known_at[i] < changed_at or key == UNREAD:
                own, n_own = cards[i], ncards[i]
                if k_own < 0:  # no ``use:``: the player's cards with the board's where it counts
                    key = best_key_of_two(tables, own, n_own, board, n_board if counts else 0)
                else:
                    key = _showdown_key(
                        tables, k_own, k_board, own, n_own, board, n_board, b, nb, opicks
                    )
            keys[i] = key if r == HIGH or key >= params.low_qualifies else 0


@njit(cache=True)
def _deal_and_bet(params, kernel, deck, stream, order, stacks, out):  # type: ignore[no-untyped-def]
    """One round dealt from ``deck`` to ``order`` (seat indices) and bet from ``stacks`` into
    ``out`` (emptied first, but for who folded: ``deal_order``'s); ``stream`` advanced where
    a pile was reshuffled. Returns ``TAKEN``, ``OUT_OF_WORDS``, ``DECK_OUT`` or ``ENDLESS``."""
    n = stacks.shape[0]
    for a in (out.contributed, out.ncards, out.board, out.high, out.low, out.round_put):
        a[:] = 0
    for a in (out.nboard, out.nrounds, out.nlog):
        a[0] = 0
    out.cards[:] = 0
    out.last_aggressor[0] = -1
    log, nlog = out.log, out.nlog
    stack = stacks.copy()
    stock = _stock(deck, stream)
    bets = _betting(n, order.shape[0])
    using = (params.has_high and params.high_own >= 0) or (params.has_low and params.low_own >= 0)
    reads = _readings(n, using)
    hand = np.zeros(order.shape[0], dtype=np.int64)
    mucked = np.zeros(n, dtype=np.bool_)
    # a record passed to a part costs a reference count for each of its arrays
    streets, steps, blinds, faces = kernel.streets, kernel.steps, kernel.blinds, kernel.faces
    high_tiers, high_tables, low_tables = kernel.high_tiers, kernel.high_tables, kernel.low_tables
    forced_order, showing, own = kernel.forced_order, kernel.showing_tables, reads.own
    put_before = 0
    if params.ante > 0:  # § 553.10(b), § 553.11(b): each player dealt in places the Ante
        for j in range(order.shape[0]):
            i = order[j]
            paid = _put(i, params.ante, stack, out.contributed)
            _log(log, nlog, ops.POST_ANTE, i, paid, 0, int(stack[i] == 0))
    for si in range(streets.burn.shape[0]):
        nh = _players_in(order, out.folded, hand)
        if nh < 2:
            break
        _log(log, nlog, ops.STREET, ops.NO_SEAT, 0, si, int(streets.opens[si] >= 0))
        opened = streets.blinds[si] == BLINDS_BEFORE
        if opened:
            _post_blinds(params, blinds, streets.max_raises[si], hand, nh, stack, out, bets)
        if not _deal_street(params, streets, steps, faces, si, hand, nh, stock, out):
            return OUT_OF_WORDS if stock.at[0] < 0 else DECK_OUT
        reads.changed_at[0] = si
        if streets.blinds[si] == BLINDS_AFTER:
            _post_blinds(params, blinds, streets.max_raises[si], hand, nh, stack, out, bets)
            opened = True
        if streets.draw[si] and not _draw(
            params, high_tiers, high_tables, hand, nh, stock, out, own
        ):
            return OUT_OF_WORDS if stock.at[0] < 0 else DECK_OUT
        if streets.opens[si] < 0:
            continue
        forced = -1
        if not opened:
            forced = _open_betting(
                params, streets, faces, forced_order, showing, si, hand, nh, stack, out, own, bets
            )
        _limit_bet(params, streets, faces, si, hand, nh, out, bets)
        if forced >= 0:
            paid = _post(forced, params.forced_bet, True, stack, out.contributed, bets)
            _log(log, nlog, ops.POST_FORCED_BET, forced, paid, 0, int(stack[forced] == 0))
        _read_tiers(params, high_tiers, high_tables, low_tables, si, stack, out, reads, bets, using)
        if not _run(bets, stack, out.contributed, out.folded, kernel.rows, log, nlog):
            return ENDLESS
        put_before = _close_betting_round(order, bets, stock, out, mucked, put_before)
    _booked(out, put_before, False)  # put in with no betting round after it
    if _players_in(order, out.folded, hand) >= 2:
        _showdown_keys(params, high_tables, low_tables, order, out, reads)
    stream[AT] = stock.at[0]  # past the words the reshuffles read
    return TAKEN


@njit(cache=True)
def deal_order(stacks, required, button, from_button, folded, order):  # type: ignore[no-untyped-def]
    """The players dealt in (§ 553.8(b)(3): a stack of at least ``required``), not ``folded``,
    listed in ``order`` from the button's left where ``from_button`` (the button, else the
    last dealt in), else in seat order; returns (players, the button as dealt, -1: none)."""
    n = stacks.shape[0]
    m = 0
    last = -1
    for i in range(n):
        folded[i] = stacks[i] < required
        if not folded[i]:
            m += 1
            last = i + 1
    dealt_button = -1
    if from_button:
        dealt_button = button
        if dealt_button < 1 or dealt_button > n or folded[dealt_button - 1]:
            dealt_button = last
    k = 0  # seat index i is seat number i + 1: the seats after the button's, then the rest
    for j in range(n):
        i = (max(dealt_button, 0) + j) % n
        if not folded[i]:
            order[k] = i
            k += 1
    return m, dealt_button
