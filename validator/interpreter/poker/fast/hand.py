"""A round of play dealt and bet in one numba kernel, as ``table.Hand.play`` deals and bets it
up to ``Hand.finish``: antes, Blind Bets before or after the deal, burns, cards to the players
still in and to the board, the draw, the Forced Bet and the best hand showing, split limits
and their open pair, raise caps and check-raise, each seat's decision table by its tier.

A put that reaches a player's whole stack makes him All-in (§ 553.8(b)(4)) as
``BettingRound`` does: he acts no more, a bet or raise is capped at what he can reach, an
All-in short of a full raise does not reopen the betting to those who have acted, and the
streets are dealt to him to the showdown.

The kernel hands a round back (``deal_and_bet`` returns None, and the round is played by
``table.Hand``) where it would differ or needs what it does not do: fewer than two players
dealt in, a deck that runs out even after its reshuffle (``table.Hand`` raises), a reshuffle
with no generator state given.

The Stud common card (§ 553.10(h)) and the draw's reshuffle of the discard pile
(§ 553.13(g)(2)) are dealt here, the piles shuffled from the session's random stream
(``stream``): the same cards as ``Hand.common_card`` and ``Hand.draw_round`` deal, and the
stream left where ``Stream.shuffle`` leaves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.interpreter.poker.betting import BettingRound
from validator.interpreter.poker.fast import (
    MAX_BOARD,
    MAX_CARDS,
    MAX_ROUNDS,
    DealtHand,
    Ints,
    SettledHand,
)
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
    P_ANTE,
    P_CHECK_RAISE,
    P_FAIR_AT_MOST,
    P_FORCED_BET,
    P_FORCED_HIGHEST,
    P_HAS_HIGH,
    P_HAS_LOW,
    P_HIGH_BOARD,
    P_HIGH_BOARD_COUNTS,
    P_HIGH_OWN,
    P_LOW_BOARD,
    P_LOW_BOARD_COUNTS,
    P_LOW_LOWEST,
    P_LOW_OWN,
    P_LOW_QUALIFIES,
    P_LOWER_MAX,
    P_LOWER_MIN,
    P_SHUFFLE_BURNS,
    P_STRONG_AT_MOST,
    P_UNFINISHED,
    P_UPPER_MAX,
    P_UPPER_MIN,
    RAISE,
    S_BLINDS,
    S_BURN,
    S_COMMON,
    S_DRAW,
    S_MAX_RAISES,
    S_NSTEPS,
    S_OPEN_PAIR,
    S_OPENS,
    S_STEP0,
    S_UPPER,
    T_BOARD,
    T_ROUNDS,
    Program,
    compile_program,
)
from validator.interpreter.poker.fast.stream import AT, NO_WORDS, Stream, shuffle
from validator.interpreter.poker.table import Hand, PlayedHand

if TYPE_CHECKING:  # the session imports the fast path: no import back at run time
    from validator.interpreter.poker.session import TableSetup
from validator.rankings.packed import (
    FIVE,
    best_key,
    best_key_of_five,
    best_key_using,
    category_index,
    five_picks,
    kept_mask,
    key_part,
)

# the round's scalars, in ``rs``
R_CURRENT, R_RAISES, R_AGGRESSOR, R_MAX_RAISES, R_CHECK_RAISE, R_MIN, R_MAX = range(7)
# what the kernel reports
TAKEN, HANDED_BACK = 0, 1
#: the unread words a round is given (a shuffle reads one a card, bar one, and another
#: where a word is drawn again, about once in 10**17): a round that runs out of them is
#: handed back, and ``table.Hand`` deals it from the same words
ROUND_WORDS = 256
# the two readings of a hand, their rows in the kernel's scratch
HIGH, LOW = 0, 1
#: a key not read (``known``)
UNREAD = -1


@njit(cache=True)
def _using_key(params, r, tables, own, n_own, board, n_board, bpicks, nbpicks, opicks):  # type: ignore[no-untyped-def]
    """``best_key_using`` of reading r (HIGH, LOW) over its ``use:``, the cards being out:
    a five-card hand read by ``five_picks``, the board's choices read once for every seat
    (``bpicks[r]``, ``nbpicks[r]`` = [choices, cards on the board when read; -1 none])."""
    k_own = params[P_HIGH_OWN] if r == HIGH else params[P_LOW_OWN]
    k_board = params[P_HIGH_BOARD] if r == HIGH else params[P_LOW_BOARD]
    if k_own + k_board != FIVE:
        return best_key_using(tables, own, n_own, board, n_board, k_own, k_board)
    b = bpicks[r]
    if nbpicks[r, 1] != n_board:  # the board read once a street (its cards only added to)
        nbpicks[r, 0] = five_picks(board, n_board, k_board, b)
        nbpicks[r, 1] = n_board
    no = five_picks(own, n_own, k_own, opicks)
    return best_key_of_five(tables, opicks, no, b, nbpicks[r, 0])


@njit(cache=True, inline="always")
def _out(k_own, k_board, n_own, n_board):  # type: ignore[no-untyped-def]
    """Whether a reading's ``use:`` (k_own >= 0) has its cards out."""
    return k_own >= 0 and n_own >= k_own and n_board >= k_board


@njit(cache=True)
def _reading(tables, own, n_own, board, n_board, k_own, k_board):  # type: ignore[no-untyped-def]
    """``strategy._Reading.value``: over ``use:`` when its cards are out, else all."""
    if _out(k_own, k_board, n_own, n_board):
        return best_key_using(tables, own, n_own, board, n_board, k_own, k_board)
    if n_board == 0:  # before the board: the player's cards alone, no copy made
        return best_key(tables, own, n_own)
    allc = np.empty(n_own + n_board, dtype=np.int64)
    allc[:n_own] = own[:n_own]
    allc[n_own:] = board[:n_board]
    return best_key(tables, allc, n_own + n_board)


@njit(cache=True, inline="always")
def _high_tier(params, high_tiers, high_tables, key, own, n_own, board, n_board):  # type: ignore[no-untyped-def]
    """The high hand's tier, its packed ``key`` read."""
    tier = high_tiers[category_index(high_tables, key)]
    if tier < 0:
        top = 0
        for j in range(n_own):
            top = max(top, own[j] >> 2)
        for j in range(n_board):
            top = max(top, board[j] >> 2)
        tier = 1 if n_own + n_board < FINISHED and top + 2 >= params[P_UNFINISHED] else 0
    return tier


@njit(cache=True, inline="always")
def _low_tier(params, low_tables, key):  # type: ignore[no-untyped-def]
    """The low hand's tier, its packed ``key`` read."""
    if category_index(low_tables, key) != params[P_LOW_LOWEST]:
        return 0
    top = -key_part(key, 1)
    n = 0
    for i in range(1, 7):
        if key_part(key, i) != 0:
            n += 1
    if top <= params[P_STRONG_AT_MOST]:
        return 3 if n >= FINISHED else 2
    return 1 if top <= params[P_FAIR_AT_MOST] else 0


@njit(cache=True)
def _tier(params, high_tiers, high_tables, low_tables, own, n_own, board, n_board):  # type: ignore[no-untyped-def]
    """``strategy.Strength.tier``: 0 weak .. 3 premium."""
    best = -1
    if params[P_HAS_HIGH]:
        key = _reading(
            high_tables, own, n_own, board, n_board, params[P_HIGH_OWN], params[P_HIGH_BOARD]
        )
        best = _high_tier(params, high_tiers, high_tables, key, own, n_own, board, n_board)
    if params[P_HAS_LOW] and best < 3 and not _low_possible(params, board, n_own, n_board):
        best = max(best, 0)
    elif params[P_HAS_LOW] and best < 3:
        key = _reading(
            low_tables, own, n_own, board, n_board, params[P_LOW_OWN], params[P_LOW_BOARD]
        )
        best = max(best, _low_tier(params, low_tables, key))
    return best


@njit(cache=True)
def _tier_using(  # type: ignore[no-untyped-def]
    params,
    high_tiers,
    high_tables,
    low_tables,
    own,
    n_own,
    board,
    n_board,
    bpicks,
    nbpicks,
    opicks,
):
    """``_tier`` of a game whose hands are read over ``use:`` (Omaha, § 553.12(j)), each
    read by ``_using_key`` once its cards are out: (the tier, the high key and the low key
    so read, the showdown's, ``UNREAD`` where not read so). A function apart from ``_tier``:
    the games without ``use:`` pass no scratch."""
    best = -1
    high = UNREAD
    low = UNREAD
    if params[P_HAS_HIGH]:
        if _out(params[P_HIGH_OWN], params[P_HIGH_BOARD], n_own, n_board):
            key = _using_key(
                params, HIGH, high_tables, own, n_own, board, n_board, bpicks, nbpicks, opicks
            )
            high = key
        else:
            key = _reading(
                high_tables, own, n_own, board, n_board, params[P_HIGH_OWN], params[P_HIGH_BOARD]
            )
        best = _high_tier(params, high_tiers, high_tables, key, own, n_own, board, n_board)
    if params[P_HAS_LOW] and best < 3 and not _low_possible(params, board, n_own, n_board):
        best = max(best, 0)
    elif params[P_HAS_LOW] and best < 3:
        if _out(params[P_LOW_OWN], params[P_LOW_BOARD], n_own, n_board):
            key = _using_key(
                params, LOW, low_tables, own, n_own, board, n_board, bpicks, nbpicks, opicks
            )
            low = key
        else:
            key = _reading(
                low_tables, own, n_own, board, n_board, params[P_LOW_OWN], params[P_LOW_BOARD]
            )
        best = max(best, _low_tier(params, low_tables, key))
    return best, high, low


@njit(cache=True)
def _low_possible(params, board, n_own, n_board):  # type: ignore[no-untyped-def]
    """Whether the low can be better than weak: not where the hand must use ``k_board``
    board cards and the board has fewer distinct ranks at or below the fair limit (every
    such low is then paired or tops above it: weak). Where a tier is already premium the
    low is not read at all (the better of the two is taken)."""
    k_own, k_board = params[P_LOW_OWN], params[P_LOW_BOARD]
    if k_own < 0 or n_own < k_own or n_board < k_board:
        return True  # valued over all the cards: read it
    seen = 0
    for j in range(n_board):
        r = _low_rank(board[j])
        if r <= params[P_FAIR_AT_MOST]:
            seen |= 1 << r
    n = 0
    while seen:
        seen &= seen - 1
        n += 1
    return n >= k_board


@njit(cache=True)
def _showdown_key(  # type: ignore[no-untyped-def]
    params, r, tables, own, n_own, board, n_board, bpicks, nbpicks, opicks
):
    """``showdown.hand_value``'s key of reading r (HIGH, LOW)."""
    k_own = params[P_HIGH_OWN] if r == HIGH else params[P_LOW_OWN]
    k_board = params[P_HIGH_BOARD] if r == HIGH else params[P_LOW_BOARD]
    board_counts = params[P_HIGH_BOARD_COUNTS] if r == HIGH else params[P_LOW_BOARD_COUNTS]
    if _out(k_own, k_board, n_own, n_board):
        return _using_key(params, r, tables, own, n_own, board, n_board, bpicks, nbpicks, opicks)
    if k_own >= 0:
        return 0  # too few cards for ``use:``: no hand
    if board_counts:
        return _reading(tables, own, n_own, board, n_board, -1, 0)
    return best_key(tables, own, n_own)


@njit(cache=True)
def _low_rank(card):  # type: ignore[no-untyped-def]
    r = card >> 2
    return 1 if r == 12 else r + 2


@njit(cache=True)
def _put(i, amount, stack, contributed):  # type: ignore[no-untyped-def]
    """``Player.put``: no more than the stack; the chips put. A player whose stack is 0 is
    All-in (every player dealt in starts with more than 0: ``Stakes.required``)."""
    paid = min(amount, stack[i])
    stack[i] -= paid
    contributed[i] += paid
    return paid


@njit(cache=True)
def _new_round(rorder, m, street, acted, may_raise, checked, rs, max_raises, check_raise):  # type: ignore[no-untyped-def]
    for j in range(m):
        i = rorder[j]
        street[i] = 0
        acted[i] = False
        may_raise[i] = True
        checked[i] = False
    rs[R_CURRENT] = 0
    rs[R_RAISES] = 0
    rs[R_AGGRESSOR] = -1
    rs[R_MAX_RAISES] = max_raises
    rs[R_CHECK_RAISE] = check_raise


@njit(cache=True)
def _post(i, amount, acts, stack, contributed, street, acted, rs):  # type: ignore[no-untyped-def]
    """``BettingRound.post`` (All-in where the stack is short)."""
    street[i] += _put(i, amount, stack, contributed)
    if street[i] > rs[R_CURRENT]:
        rs[R_CURRENT] = street[i]
        rs[R_AGGRESSOR] = i
    if acts:
        acted[i] = True


@njit(cache=True)
def _run(  # type: ignore[no-untyped-def]
    rorder,
    m,
    rs,
    stack,
    contributed,
    folded,
    street,
    acted,
    may_raise,
    checked,
    tiers,
    rows,
):
    """``BettingRound.run`` with ``TableStrategy.act`` and ``strategy.decide``; False where
    it would not end (a bug, never a game). All-in: ``stack[i] == 0``."""
    guard = 0
    k = 0
    while True:
        # done()
        in_hand = 0
        pending = False
        ables = 0
        able = -1
        for j in range(m):
            i = rorder[j]
            if folded[i]:
                continue
            in_hand += 1
            if stack[i] > 0:
                ables += 1
                able = i
                if not acted[i] or street[i] < rs[R_CURRENT]:
                    pending = True
        if in_hand <= 1 or not pending:
            return True
        # one player left able to act, nothing to call and no one to bet against
        if ables == 1 and street[able] >= rs[R_CURRENT]:
            return True
        i = rorder[k % m]
        k += 1
        guard += 1
        if guard > 10_000:
            return False
        # needs_action()
        if folded[i] or stack[i] == 0 or (acted[i] and street[i] >= rs[R_CURRENT]):
            continue
        # options()
        current = rs[R_CURRENT]
        mine = street[i]
        to_call = max(0, current - mine)
        reach = mine + stack[i]
        can_bet = current == 0 and stack[i] > 0
        bet_to = min(rs[R_MIN], reach)
        capped = rs[R_MAX_RAISES] >= 0 and rs[R_RAISES] >= rs[R_MAX_RAISES]
        reopened = may_raise[i] and (rs[R_CHECK_RAISE] != 0 or not checked[i])
        can_raise = current > 0 and reach > current and not capped and reopened
        raise_to = min(current + rs[R_MIN], reach)
        # decide()
        wanted = rows[i, tiers[i], 1 if to_call > 0 else 0]
        kind = -1
        if wanted == RAISE:
            if can_raise:
                kind = RAISE
            else:
                wanted = CALL
        if kind < 0 and wanted == BET:
            if can_bet:
                kind = BET
            else:
                wanted = CALL if to_call > 0 else CHECK
        if kind < 0:
            if wanted == FOLD and to_call == 0:
                wanted = CHECK
            if wanted == CALL and not to_call > 0:
                wanted = CHECK
            if wanted == CHECK and to_call != 0:
                wanted = CALL
            kind = wanted
        # act()
        acted[i] = True
        if kind == FOLD:
            folded[i] = True
        elif kind == CHECK:
            checked[i] = True
        elif kind == CALL:
            street[i] += _put(i, to_call, stack, contributed)
        else:
            to = bet_to if kind == BET else raise_to
            street[i] += _put(i, to - mine, stack, contributed)
            total = street[i]
            full = total - current >= rs[R_MIN] or current == 0
            if kind == RAISE:
                rs[R_RAISES] += 1
            rs[R_CURRENT] = max(current, total)
            rs[R_AGGRESSOR] = i
            for j in range(m):
                o = rorder[j]
                if full:  # the betting reopens to everyone else
                    may_raise[o] = True
                elif acted[o]:  # an All-in short of a full raise: call it, not re-raise
                    may_raise[o] = False
                acted[o] = False
            acted[i] = True


@njit(cache=True)
def _deal_and_bet(  # type: ignore[no-untyped-def]
    params,
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
    order,
    stacks,
    contributed,
    folded,
    cards,
    ncards,
    board,
    out_n,
    high,
    low,
    round_put,
):
    """One round; ``out_n`` = [cards on the board, betting rounds, last aggressor, 1 where
    the random ``stream`` (empty: none given) was read from and advanced]."""
    n = stacks.shape[0]
    stack = stacks.copy()
    no = order.shape[0]
    street = np.zeros(n, dtype=np.int64)
    acted = np.zeros(n, dtype=np.bool_)
    may_raise = np.zeros(n, dtype=np.bool_)
    checked = np.zeros(n, dtype=np.bool_)
    tiers = np.zeros(n, dtype=np.int64)
    rs = np.zeros(7, dtype=np.int64)
    rorder = np.zeros(no, dtype=np.int64)
    hand = np.zeros(no, dtype=np.int64)
    own = np.zeros(MAX_CARDS, dtype=np.int64)
    # a reading's choices of the board (read once a street) and of a seat's cards, where a
    # hand is read over ``use:`` (``_tier_using``)
    using = (params[P_HAS_HIGH] and params[P_HIGH_OWN] >= 0) or (
        params[P_HAS_LOW] and params[P_LOW_OWN] >= 0
    )
    bpicks = np.empty((2, 3, (1 << MAX_BOARD) if using else 0), dtype=np.int64)
    nbpicks = np.full((2, 2), -1, dtype=np.int64)
    opicks = np.empty((3, (1 << MAX_CARDS) if using else 0), dtype=np.int64)
    # each seat's keys read over ``use:`` by its last tier, at street ``known_at``; reused
    # at the showdown where no card was dealt or drawn since (``changed_at``)
    known = np.full((n, 2), UNREAD, dtype=np.int64)
    known_at = np.full(n, -1, dtype=np.int64)
    changed_at = -1
    # the stock: ``stock[top:end]`` (the deck, then a reshuffled pile)
    stock = deck.copy()
    top = 0
    end = stock.shape[0]
    burns = np.zeros(52, dtype=np.int64)
    nburns = 0
    discards = np.zeros(52, dtype=np.int64)  # the discard pile (§ 553.13(g)(2))
    ndiscards = 0
    mucked = np.zeros(n, dtype=np.bool_)
    pile = np.zeros(52, dtype=np.int64)
    # the stream's next word, advanced by the reshuffles; kept only where the round is taken
    at = stream[AT] if stream.shape[0] > 0 else 0
    drew = False
    nboard = 0
    nrounds = 0
    put_before = 0
    last_aggressor = -1
    lower_min, lower_max = params[P_LOWER_MIN], params[P_LOWER_MAX]
    upper_min, upper_max = params[P_UPPER_MIN], params[P_UPPER_MAX]
    first_up = -1
    for k in range(faces.shape[0]):
        if faces[k] == 1:
            first_up = k
            break
    ante = params[P_ANTE]
    if ante > 0:
        for j in range(no):
            _put(order[j], ante, stack, contributed)
    for si in range(streets.shape[0]):
        nh = 0
        for j in range(no):
            if not folded[order[j]]:
                hand[nh] = order[j]
                nh += 1
        if nh < 2:
            break
        s = streets[si]
        have_round = False
        m = 0
        for when in range(2):
            if when == 1:
                # the street's cards (after the Blind Bets posted before the deal)
                changed_at = si
                per_player = 0
                for t in range(s[S_STEP0], s[S_STEP0] + s[S_NSTEPS]):
                    if steps[t, T_BOARD] == 0:
                        per_player += steps[t, T_ROUNDS]
                if s[S_COMMON] and end - top < s[S_BURN] + nh * per_player:
                    # § 553.10(h): one card burned and one to the board for every player,
                    # the burn cards shuffled into the stock first when it is down to
                    # ``shuffle_burns_when_left`` (``Hand.common_card``)
                    if end - top <= params[P_SHUFFLE_BURNS]:
                        if stream.shape[0] == 0:
                            return HANDED_BACK
                        size = nburns + end - top
                        pile[:nburns] = burns[:nburns]
                        pile[nburns:size] = stock[top:end]
                        at = shuffle(stream, at, pile, size)
                        if at < 0:
                            return HANDED_BACK  # the words ran out
                        drew = True
                        stock[:size] = pile[:size]
                        top, end, nburns = 0, size, 0
                    if end - top < 2:
                        return HANDED_BACK  # the deck ran out
                    burns[nburns] = stock[top]
                    nburns += 1
                    board[nboard] = stock[top + 1]
                    nboard += 1
                    top += 2
                else:
                    for _ in range(s[S_BURN]):
                        if top >= end:
                            return HANDED_BACK
                        burns[nburns] = stock[top]
                        nburns += 1
                        top += 1
                    for t in range(s[S_STEP0], s[S_STEP0] + s[S_NSTEPS]):
                        for _ in range(steps[t, T_ROUNDS]):
                            if steps[t, T_BOARD] == 1:
                                if top >= end:
                                    return HANDED_BACK
                                board[nboard] = stock[top]
                                nboard += 1
                                top += 1
                            else:
                                for j in range(nh):
                                    if top >= end:
                                        return HANDED_BACK
                                    i = hand[j]
                                    cards[i, ncards[i]] = stock[top]
                                    ncards[i] += 1
                                    top += 1
            if (when == 0 and s[S_BLINDS] == BLINDS_BEFORE) or (
                when == 1 and s[S_BLINDS] == BLINDS_AFTER
            ):
                nb = min(blinds.shape[0], nh)
                m = 0
                for j in range(nb, nh):
                    rorder[m] = hand[j]
                    m += 1
                for j in range(nb):
                    rorder[m] = hand[j]
                    m += 1
                _new_round(
                    rorder,
                    m,
                    street,
                    acted,
                    may_raise,
                    checked,
                    rs,
                    s[S_MAX_RAISES],
                    params[P_CHECK_RAISE],
                )
                for j in range(nb):
                    _post(hand[j], blinds[j], False, stack, contributed, street, acted, rs)
                have_round = True
        if s[S_DRAW]:
            changed_at = si
            for j in range(nh):
                i = hand[j]
                nc = ncards[i]
                for c in range(nc):
                    own[c] = cards[i, c]
                keep = 0
                if params[P_HAS_HIGH]:
                    key = best_key(high_tables, own, nc)
                    if (
                        params[P_HIGH_OWN] >= 0
                        and params[P_HIGH_BOARD] == 0
                        and (nc >= params[P_HIGH_OWN])
                    ):
                        key = best_key_using(high_tables, own, nc, board, 0, params[P_HIGH_OWN], 0)
                    if high_tiers[category_index(high_tables, key)] >= 0:
                        keep |= kept_mask(high_tables, own, nc)
                    else:
                        hi = 0
                        for c in range(nc):
                            if own[c] > own[hi]:
                                hi = c
                        keep |= 1 << hi
                if params[P_HAS_LOW]:
                    seen = 0
                    for lr in range(1, 14):
                        if lr > params[P_FAIR_AT_MOST]:
                            break
                        for c in range(nc):
                            if _low_rank(own[c]) == lr and not (seen >> lr) & 1:
                                seen |= 1 << lr
                                keep |= 1 << c
                nk = 0
                for c in range(nc):
                    if (keep >> c) & 1:
                        cards[i, nk] = own[c]
                        nk += 1
                    else:
                        discards[ndiscards] = own[c]
                        ndiscards += 1
                for c in range(nk, nc):
                    if top >= end:
                        # § 553.13(g)(2): the discard pile (this player's discards in it)
                        # reshuffled to be the stock
                        if stream.shape[0] == 0 or ndiscards == 0:
                            return HANDED_BACK
                        at = shuffle(stream, at, discards, ndiscards)
                        if at < 0:
                            return HANDED_BACK  # the words ran out
                        drew = True
                        stock[:ndiscards] = discards[:ndiscards]
                        top, end, ndiscards = 0, ndiscards, 0
                    cards[i, c] = stock[top]
                    top += 1
        if s[S_OPENS] < 0 or nh < 2:
            continue
        forced = -1
        if not have_round:
            opens = s[S_OPENS]
            start = 0
            if opens == OPENS_FORCED:
                best = -1
                for j in range(nh):
                    v = forced_order[cards[hand[j], first_up]]
                    if params[P_FORCED_HIGHEST]:
                        v = 1000 - v
                    if best < 0 or v < best:
                        best = v
                        start = j
                forced = hand[start]
                start += 1
            elif opens == OPENS_SHOWING:
                # among the players able to act (none: all still in)
                ables = 0
                for j in range(nh):
                    if stack[hand[j]] > 0:
                        ables += 1
                bestkey = -1
                for j in range(nh):
                    i = hand[j]
                    if ables > 0 and stack[i] == 0:
                        continue
                    nu = 0
                    for c in range(ncards[i]):
                        if faces[c] == 1:
                            own[nu] = cards[i, c]
                            nu += 1
                    key = best_key(showing_tables, own, nu)
                    if key > bestkey or (key == bestkey and i < hand[start]):
                        bestkey = key
                        start = j
            m = 0
            for j in range(nh):
                rorder[m] = hand[(start + j) % nh]
                m += 1
            _new_round(
                rorder,
                m,
                street,
                acted,
                may_raise,
                checked,
                rs,
                s[S_MAX_RAISES],
                params[P_CHECK_RAISE],
            )
        upper = s[S_UPPER] != 0
        if s[S_OPEN_PAIR] and not upper:
            for j in range(nh):
                i = hand[j]
                seen = 0
                for c in range(ncards[i]):
                    if faces[c] == 1:
                        r = cards[i, c] >> 2
                        if (seen >> r) & 1:
                            upper = True
                        seen |= 1 << r
        rs[R_MIN] = upper_min if upper else lower_min
        rs[R_MAX] = upper_max if upper else lower_max
        forced_bet = params[P_FORCED_BET]
        if forced >= 0:
            _post(forced, forced_bet, True, stack, contributed, street, acted, rs)
        for j in range(m):
            i = rorder[j]
            if stack[i] == 0:  # All-in: he acts no more
                continue
            if not using:
                tiers[i] = _tier(
                    params,
                    high_tiers,
                    high_tables,
                    low_tables,
                    cards[i],
                    ncards[i],
                    board,
                    nboard,
                )
                continue
            tiers[i], known[i, HIGH], known[i, LOW] = _tier_using(
                params,
                high_tiers,
                high_tables,
                low_tables,
                cards[i],
                ncards[i],
                board,
                nboard,
                bpicks,
                nbpicks,
                opicks,
            )
            known_at[i] = si
        if not _run(
            rorder,
            m,
            rs,
            stack,
            contributed,
            folded,
            street,
            acted,
            may_raise,
            checked,
            tiers,
            rows,
        ):
            return HANDED_BACK
        put = 0
        for i in range(n):
            put += contributed[i]
        round_put[nrounds] = put - put_before
        nrounds += 1
        put_before = put
        last_aggressor = rs[R_AGGRESSOR]
        for j in range(no):  # a folded hand goes to the discard pile
            i = order[j]
            if folded[i] and not mucked[i]:
                mucked[i] = True
                for c in range(ncards[i]):
                    discards[ndiscards] = cards[i, c]
                    ndiscards += 1
    put = 0
    for i in range(n):
        put += contributed[i]
    if put != put_before:
        round_put[nrounds] = put - put_before
        nrounds += 1
    nh = 0
    for j in range(no):
        if not folded[order[j]]:
            nh += 1
    if nh >= 2:
        for j in range(no):
            i = order[j]
            if folded[i]:
                continue
            fresh = known_at[i] >= changed_at  # no card dealt or drawn since its tier
            if params[P_HAS_HIGH]:
                if fresh and known[i, HIGH] != UNREAD:
                    high[i] = known[i, HIGH]
                else:
                    high[i] = _showdown_key(
                        params,
                        HIGH,
                        high_tables,
                        cards[i],
                        ncards[i],
                        board,
                        nboard,
                        bpicks,
                        nbpicks,
                        opicks,
                    )
            if params[P_HAS_LOW]:
                if fresh and known[i, LOW] != UNREAD:
                    key = known[i, LOW]
                else:
                    key = _showdown_key(
                        params,
                        LOW,
                        low_tables,
                        cards[i],
                        ncards[i],
                        board,
                        nboard,
                        bpicks,
                        nbpicks,
                        opicks,
                    )
                low[i] = key if key >= params[P_LOW_QUALIFIES] else 0
    out_n[0] = nboard
    out_n[1] = nrounds
    out_n[2] = last_aggressor
    if drew:
        stream[AT] = at
        out_n[3] = 1
    return TAKEN


@njit(cache=True)
def deal_order(stacks, required, button, from_button, folded, order):  # type: ignore[no-untyped-def]
    """The players dealt in (§ 553.8(b)(3): a stack of at least ``required``), marked not
    ``folded`` and listed in ``order`` (seat indices) from the button's left where the game
    is ``from_button`` (the button as given, else the last player dealt in: seat numbers,
    -1 none), else in seat order; returns (players dealt in, the button as dealt, -1:
    none), as ``table.Hand`` seats a round."""
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
    for i in range(n):
        if not folded[i] and i >= dealt_button:
            order[k] = i
            k += 1
    for i in range(n):
        if not folded[i] and i < dealt_button:
            order[k] = i
            k += 1
    return m, dealt_button


class FastTable:
    """A table's rounds dealt and bet by the kernel; ``reason`` says why it takes none."""

    def __init__(
        self,
        game: Game,
        setup: TableSetup,
        seats: Sequence[int],
        strategy_by_seat: dict[int, str],
    ) -> None:
        self.game = game
        self.seats = list(seats)
        if self.seats != list(range(1, len(self.seats) + 1)):
            self.program = Program("seats other than 1..n")
        else:
            self.program = compile_program(game, setup, len(self.seats), strategy_by_seat)
        self.reason = self.program.reason
        self.required = int(setup.stakes.required())

    def deal_and_bet(
        self,
        deck: Ints,
        stacks: Ints,
        button: int | None,
        stream: Stream | None = None,
        kill_in_effect: bool = False,
    ) -> DealtHand | None:
        """The round dealt from ``deck`` (as ``table.Hand`` deals it) and bet, or None: the
        round is played by ``table.Hand``. ``stream`` is the session's random stream, which
        shuffles the burn cards for the common card (§ 553.10(h)) and the discard pile for
        the draw (§ 553.13(g)(2)), advanced where the kernel read from it; None: a round
        that needs a reshuffle is handed back. A round handed back leaves the stream where
        it was.
        ``kill_in_effect``: the limits are the Kill's (§ 553.12(m))."""
        prog = self.program
        if prog.reason is not None:
            return None
        n = len(self.seats)
        folded = np.ones(n, dtype=np.bool_)
        order = np.zeros(n, dtype=np.int64)
        stacks = np.asarray(stacks, dtype=np.int64)
        players, at = deal_order(
            stacks, self.required, -1 if button is None else button, prog.params[0], folded, order
        )
        if players < 2:
            return None
        dealt_button = int(at) if at > 0 else None
        contributed = np.zeros(n, dtype=np.int64)
        cards = np.zeros((n, MAX_CARDS), dtype=np.int64)
        ncards = np.zeros(n, dtype=np.int64)
        board = np.zeros(MAX_BOARD, dtype=np.int64)
        out_n = np.zeros(4, dtype=np.int64)
        words = NO_WORDS if stream is None else stream.ensure(ROUND_WORDS)
        high = np.zeros(n, dtype=np.int64)
        low = np.zeros(n, dtype=np.int64)
        round_put = np.zeros(MAX_ROUNDS, dtype=np.int64)
        status = _deal_and_bet(
            prog.killed if kill_in_effect else prog.params,
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
            np.asarray(deck, dtype=np.int64),
            words,
            order[:players],
            stacks,
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
            return None
        aggressor = int(out_n[2])
        return DealtHand(
            dealt_button,
            contributed,
            folded,
            cards,
            ncards,
            board,
            int(out_n[0]),
            high,
            low,
            round_put[: out_n[1]].tolist(),
            aggressor + 1 if aggressor >= 0 else -1,
        )


def played_from_dealt(hand: Hand, dealt: DealtHand, faces: Ints) -> PlayedHand:
    """``hand`` (not yet played) brought to where the kernel's round ended, then finished by
    ``Hand.finish``: settled by the scalar ``settle_round``, shown and conceded as a played
    round is. The cards burned are not kept (no log is)."""
    for p in hand.players:
        i = p.seat - 1
        p.contributed = int(dealt.contributed[i])
        p.stack -= p.contributed
        p.folded = bool(dealt.folded[i])
        p.all_in = p.stack == 0  # every player dealt in starts with more than 0
        n = int(dealt.ncards[i])
        p.cards = [
            (int(c), k < len(faces) and faces[k] == 1) for k, c in enumerate(dealt.cards[i, :n])
        ]
    hand.board[:] = [int(c) for c in dealt.board[: dealt.nboard]]
    hand.round_put = list(dealt.round_put)
    hand.put_before = sum(p.contributed for p in hand.players)
    if dealt.round_put:
        last = BettingRound([], hand.stakes.lower, narrated=False)
        last.last_aggressor = dealt.last_aggressor if dealt.last_aggressor >= 0 else None
        hand.last_round = last
    return hand.finish()


def settled(played: PlayedHand, seats: int) -> SettledHand:
    """A played round's settlement as the books read it."""
    s = played.settlement
    awards = np.zeros(seats, dtype=np.int64)
    for a in s.seats:
        awards[a.seat - 1] = a.award
    return SettledHand(
        awards,
        s.rake.total,
        s.bad_beat_contribution,
        sum(p.pot.amount for p in s.pots),
        bool(played.showdown_order),
    )


def settle_scalar(hand: Hand, dealt: DealtHand, faces: Ints, seats: int) -> SettledHand:
    """A dealt round settled by the scalar ``settle_round`` (the fallback of the kernel
    settlement)."""
    return settled(played_from_dealt(hand, dealt, faces), seats)
