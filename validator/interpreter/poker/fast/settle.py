"""A dealt round of nonbanking Poker settled in one kernel: the uncalled final bet
returned (§ 553.15(d)), the main and side pots (§ 553.8(b)(4)), the rake (§ 553.15(b)), the
Bad Beat contribution and payout (§ 553.20), each pot's showdown high, low or in halves (§
553.10(i), (j)) and the Kill for the next round (§ 553.12(m)), each step logged.

A tie whose excess goes by card and suit (§ 553.10(i)(2)(ii)-(iv)) takes two calls: the
first marks the tied seats (``NEEDS_ORDER``), ``odd_chip.odd_chip_order`` orders them, the
second divides each tied part in that order. The order of a subset of seats is the order of
all restricted to it, so one priority per part and seat serves every pot.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.poker.fast import DealtHand, Flags, Ints, SettledHand
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.fast.odd_chip import (
    _MOST_CHOICES,
    PRESENT,
    SPEC,
    OrderArrays,
    _hand_spec,
    _no_tables,
    _used,
    compile_order,
    odd_chip_order,
    unread,
)
from validator.interpreter.poker.fast.operations import WIDTH, log_op
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.showdown import Splitter
from validator.interpreter.poker.table import Rules, Stakes
from validator.interpreter.roundfile import RoundFileError
from validator.rankings.packed import KEY_PARTS, PART_BITS, PART_OFFSET, Tables, packed
from validator.vocabulary import POKER_WORD, meaning

# -- the compiled rules: indices into the parameter array -------------------------------------

RAKE_KIND = 0  # one of the RAKE_* below
RAKE_NUM = 1  # the percentage rate, num / den
RAKE_DEN = 2
RAKE_UNIT = 3  # the rake's rounding unit
RAKE_CAP = 4  # -1: no cap
BB_KIND = 5  # one of the BB_* below
BB_AMOUNT = 6  # a fixed contribution
BB_NUM = 7  # a contribution by rate, num / den
BB_DEN = 8
BB_MAX = 9  # -1: no maximum
BB_MIN_POT = 10
BB_FLOOR = 11  # the qualifying category's strength, as stored in a packed key's first part
CHIP = 12
POT_KIND = 13  # one of the POT_* below
LOW_QUALIFIER = 14  # 1: a low hand must meet the qualifier to win
LOW_MIN_PART = 15  # the qualifier's category floor, as stored in a packed low key's first part
LOW_MAX_RANK = 16  # the qualifier's highest low rank (ace = 1); -1: none
ODD_UNIT = 17  # the chip an excess is divided in (the table's chip, at most the cap)
ODD_CAPPED = 18  # 1: the source caps the excess (one unit at a time)
EXCESS_TO_HIGH = 19  # 1: a split pot's excess goes to the high half
KILL_RULE = 20  # 1: the table has a Kill (§ 553.12(m)); the round's result says if it is on next
KILL_IN_EFFECT = 21  # 1: the Kill is in effect this round (set round by round)
KILL_QUALIFYING = 22  # the qualifying pot
BB_FUND = 23  # the Bad Beat fund before the round (set round by round)
BB_RANK = 24  # the floor's ranking cards at least this rank, as stored in a key's second part
BB_HOLE = 25  # the player's own cards the losing hand must use
BB_BEATEN = 26  # the winning hand's category floor as stored (-1: any winning hand)
BB_SHARES = 27  # the losing, winning and table shares: num, den each (6 entries)
PARAMS = 33

RAKE_NONE, RAKE_PERCENT, RAKE_PER_ROUND, RAKE_INCREMENTAL = 0, 1, 2, 3
BB_NONE, BB_FIXED, BB_RATE = 0, 1, 2
POT_HIGH, POT_LOW, POT_HIGH_LOW = 0, 1, 2

#: where a packed key's first part (the category's strength) starts
_TOP_SHIFT = PART_BITS * (KEY_PARTS - 1)
_PART_MASK = (1 << PART_BITS) - 1

#: ``_settle``'s output after the awards: rake, Bad Beat contribution, pots, showdown, the
#: Kill next round (-1: no Kill rule), the Bad Beat's losing seats (bit i for seat index i;
#: 0: no Bad Beat); then each seat's Bad Beat payout
_TAIL = 6

#: ``_settle``'s results; the last four refuse the round, the seat or pot in ``out[n]``
SETTLED, HANDED_BACK, NEEDS_ORDER = 0, 1, 2
NEGATIVE, ALL_FOLDED, OVER_CALLED, NO_WINNER = 3, 4, 5, 6
#: the parts of a pot, the rows of ``priority`` and ``tied``
HIGH, LOW = 0, 1


@njit("int64(int64, int64, int64, boolean, boolean)", cache=True)
def _divide(amount: int, n: int, unit: int, capped: bool, first: bool) -> int:
    """The first (``first``) or last share of two, or the equal share with no excess."""
    share = amount // (n * unit) * unit
    excess = amount - n * share
    if not capped:
        return share + excess if first else share
    extra = min(unit, excess)
    if first:
        return share + extra
    return share + min(unit, excess - extra)


@njit(cache=True)
def _excess(amount: int, n: int, unit: int) -> int:
    """What cannot be given equally to ``n`` players in the unit."""
    return amount - n * (amount // (n * unit) * unit)


@njit(cache=True)
def _low_qualifies(key: int, params: Ints) -> bool:
    """Whether a packed low key qualifies: its category at least the qualifier's and no
    card above its highest rank (the key's parts are the negated low ranks)."""
    if key == 0:
        return False
    if params[LOW_QUALIFIER] == 0:
        return True
    if ((key >> _TOP_SHIFT) & _PART_MASK) < params[LOW_MIN_PART]:
        return False
    top_rank = params[LOW_MAX_RANK]
    if top_rank < 0:
        return True
    for i in range(1, KEY_PARTS):
        stored = (key >> (PART_BITS * (KEY_PARTS - 1 - i))) & _PART_MASK
        if stored == 0:
            break
        if PART_OFFSET - stored > top_rank:
            return False
    return True


#: one signature: the part is a constant at each call site, never specialized on
#: what ``_settle`` reads of a dealt round: contributed, folded, high and low keys, cards,
#: ncards, board, nboard, the chips by betting round
Dealt = tuple[Ints, Flags, Ints, Ints, Ints, Ints, Ints, int, Ints]
#: what it reads of the table: the incremental rake's levels, the rules, the Bad Beat hand
TableRules = tuple[Ints, Ints, Ints, Tables]
_PAY_BEST = "int64(int64[::1], boolean[::1], int64, int64[::1], int64[::1], boolean[::1], " + (
    "boolean[::1], int64[::1], int64[:, ::1], int64[::1], int64, int64)"
)


@njit(_PAY_BEST, cache=True)
def _pay_best(
    keys: Ints,
    eligible: Flags,
    amount: int,
    params: Ints,
    priority: Ints,
    tied: Flags,
    won: Flags,
    out: Ints,
    log: Ints,
    at: Ints,
    pot: int,
    part: int,
) -> int:
    """One part of the pot to the best ``eligible`` keys: the winners paid (and marked in
    ``won``), 0 where no hand can win, -1 where a tie's excess goes by card and suit and
    ``priority`` does not order the tied seats (marked in ``tied``, nothing paid). Ordered,
    an equal share each, the excess one chip (at most the cap) at a time in order (§
    553.10(i)(2)(ii)-(iv))."""
    n = keys.shape[0]
    top = 0
    for i in range(n):
        if eligible[i] and keys[i] > top:
            top = keys[i]
    if top == 0:
        return 0
    winners = int(np.int64(0))  # int64 from the start: one compiled ``_excess``
    for i in range(n):
        if eligible[i] and keys[i] == top:
            winners += 1
    unit = params[ODD_UNIT]
    excess = 0 if winners == 1 else _excess(amount, winners, unit)
    ordered = True
    for i in range(n):
        if excess and eligible[i] and keys[i] == top and priority[i] < 0:
            ordered = False
    if not ordered:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                tied[i] = True
        return -1
    share = amount // (winners * unit) * unit if excess else amount // winners
    # the most of the excess one player receives: a chip of at most the cap, else all of it
    room = unit if params[ODD_CAPPED] == 1 else excess
    for i in range(n):
        if not (eligible[i] and keys[i] == top):
            continue
        place = 0  # how many tied seats the excess reaches before this one
        for j in range(n):
            if excess and eligible[j] and keys[j] == top and priority[j] < priority[i]:
                place += 1
        extra = min(room, max(0, excess - place * room))
        out[i] += share + extra
        won[i] = True
        at[0] = log_op(log, at[0], ops.AWARD_POT, i, share + extra, pot, part)
    return winners


@njit(cache=True, inline="always")
def _uncalled_bet(contributed: Ints, called: Ints) -> tuple[int, int]:
    """The uncalled final bet (§ 553.15(d)) out of ``called``: (its seat, -1: none; amount)."""
    n = contributed.shape[0]
    if n < 2:
        return -1, 0
    bettor = -1
    top = -1
    second = -1
    for i in range(n):
        c = contributed[i]
        if c > top:
            second = top
            top = c
            bettor = i
        elif c > second:
            second = c
    if top <= second:
        return -1, 0
    called[bettor] -= top - second
    return bettor, top - second


@njit(cache=True, inline="always")
def _pot_levels(called: Ints, folded: Flags, level_of: Ints) -> int:
    """The levels of the main pot and the side pots (§ 553.8(b)(4)(iii)) ascending in
    ``level_of``: every distinct contribution of a player still in; how many pots."""
    npots = 0
    for i in range(called.shape[0]):
        c = called[i]
        if folded[i] or c <= 0:
            continue
        at = npots
        for j in range(npots):
            if level_of[j] == c:
                at = -1
                break
            if level_of[j] > c:
                at = j
                break
        if at < 0:
            continue
        for j in range(npots, at, -1):
            level_of[j] = level_of[j - 1]
        level_of[at] = c
        npots += 1
    if npots == 0:  # nobody put anything in: an empty pot for the players still in
        level_of[0] = 0
        npots = 1
    return npots


@njit(cache=True, inline="always")
def _take_rake(
    params: Ints, amount: Ints, pot: int, round_put: Ints, returned: int, levels: Ints
) -> tuple[int, Ints]:
    """The rake (§ 553.15(b)) and each pot's part: a percentage of each pot with the cap
    across the pots in order, of each betting round's chips, or the incremental levels."""
    npots = amount.shape[0]
    kind = params[RAKE_KIND]
    unit = params[RAKE_UNIT]
    cap = params[RAKE_CAP]
    rake_of = np.zeros(npots, dtype=np.int64)
    rake = 0
    if kind in (RAKE_PERCENT, RAKE_PER_ROUND):
        by_pot = kind == RAKE_PERCENT  # else each betting round's chips, the last's uncalled out
        parts = npots if by_pot else round_put.shape[0]
        left = cap
        for r in range(parts):
            put = amount[r] if by_pot else round_put[r] - (returned if r == parts - 1 else 0)
            wanted = put * params[RAKE_NUM] // (params[RAKE_DEN] * unit) * unit
            take = wanted if cap < 0 else min(wanted, left)
            if cap >= 0:
                left -= take
            if by_pot:
                rake_of[r] = take
            rake += take
        if by_pot:
            return rake, rake_of
    elif kind == RAKE_INCREMENTAL:
        for j in range(levels.shape[0]):
            if pot >= levels[j, 0]:
                rake += levels[j, 1]
        if cap >= 0:
            rake = min(rake, cap)
        rake = min(rake, pot)
    left = rake
    for k in range(npots):
        take = min(left, amount[k])
        rake_of[k] = take
        left -= take
    return rake - left, rake_of  # what no pot held is not taken


@njit(cache=True, inline="always")
def _bad_beat_contributions(params: Ints, amount: Ints, rake_of: Ints) -> tuple[int, Ints]:
    """The Bad Beat contribution (§ 553.20(c)) and each pot's part: from each pot (a side
    pot is a separate pot) of at least the minimum after the rake, at most the maximum."""
    npots = amount.shape[0]
    bb = 0
    bb_kind = params[BB_KIND]
    bb_of = np.zeros(npots, dtype=np.int64)
    if bb_kind == BB_NONE:
        return bb, bb_of
    for k in range(npots):
        net_k = amount[k] - rake_of[k]
        if net_k < params[BB_MIN_POT]:
            continue
        if bb_kind == BB_FIXED:
            wanted = params[BB_AMOUNT]
        else:
            chip = params[CHIP]
            wanted = net_k * params[BB_NUM] // (params[BB_DEN] * chip) * chip
        most = net_k if params[BB_MAX] < 0 else min(params[BB_MAX], net_k)
        bb_of[k] = min(wanted, most)
        bb += bb_of[k]
    return bb, bb_of


@njit(cache=True, inline="always")
def _award_pot(
    net: int,
    mask: Flags,
    high: Ints,
    low: Ints,
    params: Ints,
    priority: Ints,
    tied: Flags,
    qualifying: Flags,
    won_high: Flags,
    won_low: Flags,
    out: Ints,
    log: Ints,
    at: Ints,
    k: int,
) -> int:
    """Pot ``k`` awarded among the players of ``mask``: high, low, or high-low halves, the
    high hand taking all where no low qualifies (§ 553.10(j)); as ``_pay_best``, the
    winners of the whole pot or its high half marked in ``won_high``, of its low half in
    ``won_low``."""
    n = mask.shape[0]
    pot_kind = params[POT_KIND]
    hp, ht = priority[HIGH], tied[HIGH]
    lp, lt = priority[LOW], tied[LOW]
    wh, wl = won_high, won_low
    if pot_kind == POT_HIGH:
        return _pay_best(high, mask, net, params, hp, ht, wh, out, log, at, k, 0)
    any_low = False
    for i in range(n):
        qualifying[i] = mask[i] and _low_qualifies(low[i], params)
        any_low = any_low or qualifying[i]
    if pot_kind == POT_LOW:
        return _pay_best(low, qualifying, net, params, lp, lt, wh, out, log, at, k, 0)
    if not any_low:  # the high hand takes the entire pot (§ 553.10(j))
        return _pay_best(high, mask, net, params, hp, ht, wh, out, log, at, k, 0)
    unit_odd = params[ODD_UNIT]
    capped = params[ODD_CAPPED] == 1
    larger = _divide(net, 2, unit_odd, capped, True)
    smaller = _divide(net, 2, unit_odd, capped, False)
    to_high = params[EXCESS_TO_HIGH] == 1
    high_half = larger if to_high else smaller
    low_half = smaller if to_high else larger
    paid = _pay_best(high, mask, high_half, params, hp, ht, wh, out, log, at, k, 1)
    if paid != 0:
        low_paid = _pay_best(low, qualifying, low_half, params, lp, lt, wl, out, log, at, k, 2)
        paid = low_paid if low_paid <= 0 else paid
    return paid


@njit(cache=True, inline="always")
def _pot_winner(won_high: Flags, won_low: Flags) -> tuple[int, bool]:
    """What the Kill reads of a pot from who was paid it (``won_high``: the whole pot or its
    high half; ``won_low``: its low half): the one player who won all of it (-1: none), and
    whether its halves went to different players."""
    halves = False
    for i in range(won_low.shape[0]):
        halves = halves or won_low[i]
    winners = 0
    scooped = -1
    split = False
    for i in range(won_high.shape[0]):
        split = split or (halves and won_high[i] != won_low[i])
        if won_high[i] or won_low[i]:
            winners += 1
            scooped = i
    return (scooped if winners == 1 else -1), split


@njit(cache=True, inline="always")
def _bad_beat_pay(
    dealt: Dealt, rules: TableRules, main: Flags, bb: int, payouts: Ints, log: Ints, at: Ints
) -> int:
    """The Bad Beat of the main pot (§ 553.20): the best losing high hand of the qualifying
    category (ranking cards at least the rank, using at least the hole cards stated), beaten
    by a hand of at least the stated category, takes the losing share of the fund; the
    winners the winning share, the others dealt in the table share, each rounded down to the
    cent. A Bad Beat: the seats of its losing hand (bit i for seat index i); 0: none; -1: a
    hand whose cards are not read here."""
    high, cards, ncards, board, nboard = dealt[2], dealt[4], dealt[5], dealt[6], dealt[7]
    params, bb_spec, bb_tables = rules[1], rules[2], rules[3]
    n = high.shape[0]
    top = 0
    for i in range(n):
        if main[i] and high[i] > top:
            top = high[i]
    if top == 0:
        return 0
    if params[BB_BEATEN] >= 0 and ((top >> _TOP_SHIFT) & _PART_MASK) < params[BB_BEATEN]:
        return 0
    width = cards.shape[1] + board.shape[0]
    hand = np.empty(width, dtype=np.int64)
    choices = np.empty((_MOST_CHOICES, 3), dtype=np.int64)
    best = 0
    losing = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        key = high[i]
        if not main[i] or key == top or key == 0:
            continue
        category = (key >> _TOP_SHIFT) & _PART_MASK
        if category < params[BB_FLOOR]:
            continue
        second = (key >> (_TOP_SHIFT - PART_BITS)) & _PART_MASK
        if category == params[BB_FLOOR] and params[BB_RANK] > 0 and second < params[BB_RANK]:
            continue
        if params[BB_HOLE] > 0:
            used = _used(bb_tables, bb_spec, cards[i], ncards[i], board, nboard, hand, choices)
            if used < 0:
                return -1
            own = 0
            for j in range(ncards[i]):
                own += (used >> cards[i, j]) & 1
            if own < params[BB_HOLE]:
                continue
        losing[i] = True
        best = max(best, key)
    if best == 0:
        return 0
    fund = params[BB_FUND] + bb
    for group in range(3):  # the losing hand, the winning hand, the table
        num = params[BB_SHARES + 2 * group]
        den = params[BB_SHARES + 2 * group + 1]
        count = 0
        for i in range(n):
            if _bad_beat_group(group, high[i], top, best, losing[i], main[i], ncards[i]):
                count += 1
        if count == 0 or num == 0:
            continue
        each = fund * num // (den * count)
        for i in range(n):
            if _bad_beat_group(group, high[i], top, best, losing[i], main[i], ncards[i]):
                payouts[i] += each
                at[0] = log_op(log, at[0], ops.PAY_BAD_BEAT, i, each, 0, group)
    losers = 0
    for i in range(n):
        if _bad_beat_group(0, high[i], top, best, losing[i], main[i], ncards[i]):
            losers |= 1 << i
    return losers


@njit(cache=True, inline="always")
def _bad_beat_group(
    group: int, key: int, top: int, best: int, losing: bool, main: bool, ncards: int
) -> bool:
    """Whether a seat takes the losing (0), the winning (1) or the table's (2) share."""
    lost = losing and key == best
    won = main and key == top
    if group == 0:
        return lost
    if group == 1:
        return won
    return ncards > 0 and not lost and not won


@njit(cache=True)
def _settle(
    dealt: Dealt, rules: TableRules, priority: Ints, tied: Flags, out: Ints, log: Ints, at: Ints
) -> int:
    """Settle one round into ``out`` ([seat] awards, the ``_TAIL``, [seat] Bad Beat
    payouts), each step logged from row ``at[0]``: ``SETTLED``; ``HANDED_BACK``;
    ``NEEDS_ORDER``: a tie's excess goes by card and suit among seats ``priority`` ([part,
    seat], -1: not given) does not order, marked in ``tied``: call again with their order;
    ``NEGATIVE`` .. ``NO_WINNER``: a round that cannot be settled. Not ``SETTLED``: ``out``
    meaningless and the rows logged to be dropped by the caller."""
    contributed, folded, high, low, round_put = dealt[0], dealt[1], dealt[2], dealt[3], dealt[8]
    levels, params = rules[0], rules[1]
    n = contributed.shape[0]
    for i in range(2 * n + _TAIL):
        out[i] = 0
    for part in range(2):
        for i in range(n):
            tied[part, i] = False
    for i in range(n):
        if contributed[i] < 0:
            return NEGATIVE
    called = contributed.copy()
    bettor, returned = _uncalled_bet(contributed, called)
    if bettor >= 0:
        at[0] = log_op(log, at[0], ops.RETURN_UNCALLED, bettor, returned, 0, 0)
    live = 0
    top_live = -1
    for i in range(n):
        if not folded[i]:
            live += 1
            top_live = max(top_live, called[i])
    if live == 0:
        return ALL_FOLDED
    for i in range(n):
        if called[i] > top_live:  # a folded player's chips no one still in called
            out[n] = i
            return OVER_CALLED
    level_of = np.empty(n, dtype=np.int64)
    npots = _pot_levels(called, folded, level_of)
    amount = np.zeros(npots, dtype=np.int64)
    eligible = np.zeros((npots, n), dtype=np.bool_)
    contenders = np.zeros(npots, dtype=np.int64)
    pot = 0
    below = 0
    for k in range(npots):  # a layer contested by the players still in who reached it
        lev = level_of[k]
        bits = 0
        for i in range(n):
            c = called[i]
            amount[k] += min(c, lev) - min(c, below)
            if not folded[i] and c >= lev:
                eligible[k, i] = True
                contenders[k] += 1
                bits |= 1 << i
        at[0] = log_op(log, at[0], ops.FORM_POT, ops.NO_SEAT, amount[k], k, bits)
        pot += amount[k]
        below = lev
    rake, rake_of = _take_rake(params, amount, pot, round_put, returned, levels)
    bb, bb_of = _bad_beat_contributions(params, amount, rake_of)
    for k in range(npots):
        if params[RAKE_KIND] != RAKE_NONE:
            at[0] = log_op(log, at[0], ops.TAKE_RAKE, ops.NO_SEAT, rake_of[k], k, 0)
    for k in range(npots):
        if params[BB_KIND] != BB_NONE:
            at[0] = log_op(log, at[0], ops.TAKE_BAD_BEAT, ops.NO_SEAT, bb_of[k], k, 0)
    qualifying = np.zeros(n, dtype=np.bool_)
    needs_order = False
    net_of = np.zeros(npots, dtype=np.int64)
    scooped = np.full(npots, -1, dtype=np.int64)
    split = np.zeros(npots, dtype=np.bool_)
    won_high = np.zeros(n, dtype=np.bool_)
    won_low = np.zeros(n, dtype=np.bool_)
    for k in range(npots):
        net = amount[k] - rake_of[k] - bb_of[k]
        net_of[k] = net
        mask = eligible[k]
        if contenders[k] == 1:
            for i in range(n):
                if mask[i]:
                    out[i] += net
                    scooped[k] = i
                    at[0] = log_op(log, at[0], ops.AWARD_POT, i, net, k, 0)
            continue
        for i in range(n):
            won_high[i] = False
            won_low[i] = False
        paid = _award_pot(
            net,
            mask,
            high,
            low,
            params,
            priority,
            tied,
            qualifying,
            won_high,
            won_low,
            out,
            log,
            at,
            k,
        )
        if paid == 0:
            out[n] = k
            out[n + 1] = LOW if params[POT_KIND] == POT_LOW else HIGH
            return NO_WINNER
        if paid < 0:
            needs_order = True  # the other pots still read, so that one call orders all
        if params[KILL_RULE]:
            scooped[k], split[k] = _pot_winner(won_high, won_low)
    if needs_order:
        return NEEDS_ORDER
    if params[BB_KIND] != BB_NONE and params[POT_KIND] != POT_LOW and contenders[0] >= 2:
        payouts = out[n + _TAIL :]
        hit = _bad_beat_pay(dealt, rules, eligible[0], bb, payouts, log, at)
        if hit < 0:
            return HANDED_BACK
        out[n + 5] = hit
    if bettor >= 0:
        out[bettor] += returned
    out[n] = rake
    out[n + 1] = bb
    out[n + 2] = pot
    out[n + 3] = 1 if live >= 2 else 0
    out[n + 4] = _kill_next(params, net_of, scooped, split) if params[KILL_RULE] else -1
    if params[KILL_RULE]:
        at[0] = log_op(log, at[0], ops.MOVE_KILL, ops.NO_SEAT, 0, 0, out[n + 4])
    return SETTLED


@njit(cache=True)
def _kill_next(params: Ints, net_of: Ints, scooped: Ints, split: Flags) -> int:
    """The Kill next round (§ 553.12(m)): on where one player won all of a pot of at least
    the qualifying pot; a Kill in effect stays unless the main pot is under it or split."""
    q = params[KILL_QUALIFYING]
    for k in range(net_of.shape[0]):
        if scooped[k] >= 0 and net_of[k] >= q:
            return 1
    if params[KILL_IN_EFFECT] == 0 or net_of[0] < q or split[0]:
        return 0
    return 1


def no_log() -> tuple[Ints, Ints]:
    """A log that is off (no rows) and its row count, for ``_settle``."""
    return np.zeros((0, WIDTH), dtype=np.int64), np.zeros(1, dtype=np.int64)


def settle_error(status: int, out: Ints, seats: Sequence[int]) -> str | None:
    """What is said of a round ``_settle`` refused; ``None``: no such round."""
    n = len(seats)
    if status == NEGATIVE:
        return "a contribution is never negative"
    if status == ALL_FOLDED:
        return "every player folded: the last player in wins the pot, so one is in"
    if status == OVER_CALLED:
        return (
            f"seat {seats[int(out[n])]} put in more than any player still in, and more than "
            "its own uncalled bet: a folded player's chips were all called by a player still in"
        )
    if status == NO_WINNER:
        k = int(out[n])
        pot = "main pot" if k == 0 else f"side pot {k}"
        return f"no {'low' if out[n + 1] == LOW else 'high'} hand can win the {pot}"
    return None


class FastSettler:
    """A table's rules compiled for ``_settle``; ``reason``: why the kernel takes none."""

    def __init__(self, game: Game, rules: Rules, stakes: Stakes, seats: Sequence[int]) -> None:
        self.game = game
        self.seats = list(seats)
        self.params = np.zeros(PARAMS, dtype=np.int64)
        self.levels = np.zeros((0, 2), dtype=np.int64)
        #: the Bad Beat hand as ``odd_chip._used`` reads which cards it uses (the hole cards)
        self.bb_spec: Ints = np.zeros(SPEC, dtype=np.int64)
        self.bb_tables: Tables = _no_tables()
        self.reason: str | None = None
        self.splitter: Splitter | None = None
        #: ``odd_chip.odd_chip_order``'s arrays for this table: each part's card keys, tie
        #: rule and hand (``spec``), and the packed tables of the high and the low hand
        self.order_arrays: OrderArrays = unread()
        n = len(self.seats)
        self._unordered: Ints = np.full((2, n), -1, dtype=np.int64)  # no priority given
        self._tied: Flags = np.zeros((2, n), dtype=np.bool_)
        try:
            self._compile(game, rules, stakes)
        except _NotTaken as e:
            self.reason = str(e)

    def _compile(self, game: Game, rules: Rules, stakes: Stakes) -> None:
        d = game.definition
        sd = d.showdown
        if sd is None or d.rake is None:
            raise _NotTaken(f"{game.id} is no nonbanking Poker game")
        p = self.params
        if rules.kill is not None:
            p[KILL_RULE] = 1
            p[KILL_QUALIFYING] = rules.kill.qualifying_pot
        self.splitter = Splitter(game, card_orders(game), stakes.chip)
        self.order_arrays = compile_order(game, self.splitter)
        spec = self.order_arrays[1]
        for part, name in ((HIGH, "high"), (LOW, "low")):
            if sd.pot in (name, "high_low") and spec[part, PRESENT] != 1:
                raise _NotTaken(f"the order by card and suit of the {name} hands")
        p[CHIP] = stakes.chip
        self._compile_rake(rules, stakes)
        self._compile_bad_beat(game, rules)
        p[POT_KIND] = {"high": POT_HIGH, "low": POT_LOW, "high_low": POT_HIGH_LOW}[sd.pot]
        odd = sd.odd_chips
        cap = None if odd.cap is None else int(odd.cap * 100)
        p[ODD_UNIT] = stakes.chip if cap is None else min(stakes.chip, cap)
        p[ODD_CAPPED] = cap is not None
        p[EXCESS_TO_HIGH] = odd.pot_excess_to == "high"
        p[LOW_MAX_RANK] = -1
        if sd.low is not None:
            qualifier = game.hand(sd.low).qualifier
            if qualifier is not None:
                ev = game.evaluator(sd.low)
                if ev.ranking.low is None:
                    raise _NotTaken(f"the low hand {sd.low!r} is ranked high: its qualifier")
                q = ev.ranking.qualifiers[qualifier]
                p[LOW_QUALIFIER] = 1
                p[LOW_MIN_PART] = -ev.strength(q.at_least) + PART_OFFSET
                p[LOW_MAX_RANK] = -1 if q.max_rank is None else q.max_rank

    @meaning("kernels", POKER_WORD.id, "percentage", "incremental", "time")
    def _compile_rake(self, rules: Rules, stakes: Stakes) -> None:
        """The rake as the kernel takes it from the pots; a rake by time takes nothing from a
        pot (the session charges the stacks at the end of each period)."""
        p = self.params
        rule = rules.rake
        p[RAKE_KIND] = RAKE_NONE
        p[RAKE_CAP] = -1
        p[RAKE_UNIT] = stakes.chip
        if rule is None or rule.kind in ("none", "time"):  # time charges never touch a pot
            return
        p[RAKE_UNIT] = rule.unit or stakes.chip
        p[RAKE_CAP] = -1 if rule.cap is None else rule.cap
        if rule.kind == "percentage":
            if rule.rate is None:
                raise _NotTaken("a percentage rake with no rate")
            p[RAKE_KIND] = RAKE_PER_ROUND if rule.per_betting_round else RAKE_PERCENT
            p[RAKE_NUM] = rule.rate.numerator
            p[RAKE_DEN] = rule.rate.denominator
            return
        p[RAKE_KIND] = RAKE_INCREMENTAL
        self.levels = np.array(rule.levels, dtype=np.int64).reshape(-1, 2)

    def _compile_bad_beat(self, game: Game, rules: Rules) -> None:
        p = self.params
        rule = rules.bad_beat
        p[BB_KIND] = BB_NONE
        p[BB_MAX] = -1
        if rule is None:
            return
        if game.definition.bad_beat is None:
            raise _NotTaken(f"{game.id} states no Bad Beat")
        if rule.amount is not None:
            p[BB_KIND] = BB_FIXED
            p[BB_AMOUNT] = rule.amount
        elif rule.rate is not None:
            p[BB_KIND] = BB_RATE
            p[BB_NUM] = rule.rate.numerator
            p[BB_DEN] = rule.rate.denominator
        else:
            raise _NotTaken("a Bad Beat contribution with neither an amount nor a rate")
        p[BB_MAX] = -1 if rule.max is None else rule.max
        p[BB_MIN_POT] = rule.min_pot
        ev = game.evaluator(rule.hand)
        if ev.ranking.low is not None or rule.hand != "high":
            raise _NotTaken(f"a Bad Beat on the hand {rule.hand!r}")
        p[BB_FLOOR] = ev.strength(rule.at_least) + PART_OFFSET
        p[BB_RANK] = 0 if rule.rank_at_least is None else rule.rank_at_least + PART_OFFSET
        p[BB_HOLE] = rule.hole_cards
        p[BB_BEATEN] = -1 if rule.beaten_by is None else ev.strength(rule.beaten_by) + PART_OFFSET
        shares = (rule.losing_share, rule.winning_share, rule.table_share)
        for k, share in enumerate(shares):
            p[BB_SHARES + 2 * k] = share.numerator
            p[BB_SHARES + 2 * k + 1] = share.denominator
        if rule.hole_cards:
            spec = _hand_spec(game, "high")
            if spec is None:
                raise _NotTaken("a Bad Beat's hole cards in a hand not read here")
            self.bb_spec = spec
            self.bb_tables = packed(ev).tables

    def settle(
        self,
        dealt: DealtHand,
        fund: int,
        kill_in_effect: bool = False,
        log: Ints | None = None,
        at: Ints | None = None,
    ) -> SettledHand:
        """The round settled, or refused as ``settle_round`` refuses it (``RoundFileError``,
        ``ValueError``). ``fund``: the Bad Beat fund before the round; ``log``, ``at``: the log its
        steps are appended to from row ``at[0]`` (none: not kept)."""
        if self.reason is not None:
            raise RuntimeError(f"a table the settlement kernel does not take: {self.reason}")
        self.params[KILL_IN_EFFECT] = kill_in_effect
        self.params[BB_FUND] = fund
        n = len(self.seats)
        out: Ints = np.empty(2 * n + _TAIL, dtype=np.int64)
        round_put = np.array(dealt.round_put, dtype=np.int64)
        tied = self._tied
        dealt_arrays = (
            dealt.contributed,
            dealt.folded,
            dealt.high,
            dealt.low,
            dealt.cards,
            dealt.ncards,
            dealt.board,
            dealt.nboard,
            round_put,
        )
        args = (dealt_arrays, self.rules())
        if log is None or at is None:
            log, at = no_log()
        start = at[0]
        status = _settle(*args, self._unordered, tied, out, log, at)
        priority = None
        if status == NEEDS_ORDER:
            at[0] = start
            priority = self.odd_chip_priority(dealt, tied)
            status = (
                HANDED_BACK if priority is None else _settle(*args, priority, tied, out, log, at)
            )
        if status != SETTLED:
            at[0] = start
            self._refuse(status, out)
        kill = int(out[n + 4])
        return SettledHand(
            out[:n],
            int(out[n]),
            int(out[n + 1]),
            int(out[n + 2]),
            bool(out[n + 3]),
            None if kill < 0 else bool(kill),
            out[n + _TAIL :],
            int(out[n + 5]),
            priority,
        )

    def rules(self) -> TableRules:
        """What ``_settle`` reads of the table."""
        return self.levels, self.params, self.bb_spec, self.bb_tables

    def _refuse(self, status: int, out: Ints) -> None:
        """Raise what ``settle_round`` raises for a round ``_settle`` cannot settle."""
        message = settle_error(status, out, self.seats)
        if message is None:  # pragma: no cover - cards more than a table taken deals
            raise RuntimeError("a hand's cards are more than the settlement kernel reads")
        if status == NO_WINNER:
            raise ValueError(message)
        raise RoundFileError([("/seats", message)])

    def odd_chip_priority(self, dealt: DealtHand, tied: Flags) -> Ints | None:
        """Each ``tied`` seat's place ([part, seat]; -1: not tied) in the order the excess goes
        (§ 553.10(i)(2)(ii)-(iv)); ``None`` where a hand's cards are more than it reads."""
        priority: Ints = np.empty(tied.shape, dtype=np.int64)
        args = (dealt.cards, dealt.ncards, dealt.board, dealt.nboard, tied)
        if odd_chip_order(*args, *self.order_arrays, priority):
            return priority
        return None


class _NotTaken(RulesubError):
    """A table rule the kernel does not settle."""
