"""A dealt round of nonbanking Poker settled in one kernel, the one settlement of ``play``,
``settle``, ``simulate`` and ``par``: the uncalled final bet returned (§ 553.15(d)), the
main pot and the side pots of the All-in players (§ 553.8(b)(4)), the rake of each pot
(§ 553.15(b)), the Bad Beat contribution (§ 553.20(c)), each pot's showdown among the
players eligible for it, high, low or high-low halves (§ 553.10(i), (j)), the Bad Beat
paid from the fund (§ 553.20: the losing hand's category, rank and hole cards, the winning
hand's category, the shares rounded down to the cent) and the Kill for the next round
(§ 553.12(m)). ``settle.settle_round`` explains a settlement from its operation log; the
property tests hold it equal to the dealer's arithmetic worked by hand.

The table's rules (``Rules``, ``Stakes``) are compiled once to an int array; each round is
settled by ``_settle``, each step appended to the round's operation log where it is kept
(``operations``). Contributions no round of play produces, or a pot no hand can win, are
reported by a code (``NEGATIVE`` .. ``NO_WINNER``) and refused (``settle_error``).

A tie whose excess goes to a player by card and suit (§ 553.10(i)(2)(ii)-(iv)) is settled
in two calls of the kernel: the first reports which seats tie, in any pot, for a part with
an excess (``NEEDS_ORDER``, the ``tied`` array); ``odd_chip.odd_chip_order`` orders them
(the order ``showdown.Splitter.odd_chip_order`` defines), and the second call divides each
tied part, the excess in that order (the ``priority`` array). The order of a subset of
seats is the order of all of them restricted to it, so one priority per part and seat
serves every pot. A rule this module does not read keeps the table out of it
(``FastSettler.reason``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.poker.fast import DealtHand, Flags, Ints, SettledHand
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
from validator.interpreter.poker.fast.operations import (
    AWARD_POT,
    FORM_POT,
    MOVE_KILL,
    NO_SEAT,
    PAY_BAD_BEAT,
    RETURN_UNCALLED,
    TAKE_BAD_BEAT,
    TAKE_RAKE,
    WIDTH,
    log_op,
)
from validator.interpreter.poker.roundfile import PokerRoundError
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.showdown import Splitter
from validator.interpreter.poker.table import Rules, Stakes
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
#: Kill in effect next round (1, 0; -1: no Kill rule), a Bad Beat (1: hit); then each seat's
#: Bad Beat payout (``out[n + _TAIL + i]``)
_TAIL = 6

#: ``_settle``'s result: the round settled; handed back to ``settle_round``; a tie's excess
#: to be given by card and suit, the tied seats in ``tied`` (call again with ``priority``)
SETTLED, HANDED_BACK, NEEDS_ORDER = 0, 1, 2
#: ``_settle``'s result for contributions no round of play produces, or a pot no hand can
#: win (``settle_error`` words them as ``settle_round`` does); the seat's or the pot's index
#: in ``out[n]``, the part (``HIGH``, ``LOW``) in ``out[n + 1]``
NEGATIVE, ALL_FOLDED, OVER_CALLED, NO_WINNER = 3, 4, 5, 6
#: the parts of a pot, the rows of ``priority`` and ``tied``
HIGH, LOW = 0, 1


@njit(cache=True)
def _divide(amount: int, n: int, unit: int, capped: bool, first: bool) -> int:
    """``showdown.divide(amount, n, ...)``'s first (``first``) or last share for n = 2, or
    the equal share with ``first`` False and no excess."""
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
    """What ``showdown.divide`` cannot give equally to ``n`` players."""
    return amount - n * (amount // (n * unit) * unit)


@njit(cache=True)
def _low_qualifies(key: int, params: Ints) -> bool:
    """``Evaluator.qualifies`` read from a packed low key: the category at least the
    qualifier's, and no card above its highest rank (the key's parts are the negated low
    ranks)."""
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


@njit(cache=True)
def _pay_best(
    keys: Ints,
    eligible: Flags,
    amount: int,
    params: Ints,
    priority: Ints,
    tied: Flags,
    out: Ints,
    log: Ints,
    at: Ints,
    pot: int,
    part: int,
) -> int:
    """One part of the pot to the best of the ``eligible`` keys (``Splitter.split_part``):
    the number of winners paid, 0 when no hand can win it, -1 when a tie leaves an excess
    that goes by card and suit and ``priority`` (each seat's place in the order by card and
    suit, -1: not given) does not order the tied seats: they are marked in ``tied``, nothing
    is paid. Ordered, the tied seats are paid as ``showdown.divide`` pays them in that
    order: an equal share each in the chip, the excess to the first (no cap), or one chip
    of at most the cap at a time, in order (§ 553.10(i)(2)(ii)-(iv)). Each seat paid is
    logged (``AWARD_POT`` of ``pot``, ``part``: 0 the whole pot, 1 high, 2 low)."""
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
    if winners == 1:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                out[i] += amount
                at[0] = log_op(log, at[0], AWARD_POT, i, amount, pot, part)
        return 1
    unit = params[ODD_UNIT]
    excess = _excess(amount, winners, unit)
    if excess == 0:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                out[i] += amount // winners
                at[0] = log_op(log, at[0], AWARD_POT, i, amount // winners, pot, part)
        return winners
    ordered = True
    for i in range(n):
        if eligible[i] and keys[i] == top and priority[i] < 0:
            ordered = False
    if not ordered:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                tied[i] = True
        return -1
    share = amount // (winners * unit) * unit
    # the most of the excess one player receives: a chip of at most the cap, else all of it
    room = unit if params[ODD_CAPPED] == 1 else excess
    for i in range(n):
        if not (eligible[i] and keys[i] == top):
            continue
        place = 0  # how many tied seats the excess reaches before this one
        for j in range(n):
            if eligible[j] and keys[j] == top and priority[j] < priority[i]:
                place += 1
        extra = min(room, max(0, excess - place * room))
        out[i] += share + extra
        at[0] = log_op(log, at[0], AWARD_POT, i, share + extra, pot, part)
    return winners


@njit(cache=True, inline="always")
def _uncalled_bet(contributed: Ints, called: Ints) -> tuple[int, int]:
    """The uncalled final bet (``pots.uncalled_bet``, § 553.15(d)): taken out of ``called``;
    (the seat it goes back to, -1: none; the amount)."""
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
    """The levels of the main pot and the side pots (``pots.build_pots``, §
    553.8(b)(4)(iii)), ascending in ``level_of``: every distinct contribution of a player
    still in; how many pots (one empty pot where nobody put anything in)."""
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
    """The rake (``rake.take_rake``, § 553.15(b)), each pot's part, the main pot first: a
    percentage of each pot, the cap across the pots in order; a percentage of each
    betting round's chips; or the incremental levels of the whole pot. (The rake, each
    pot's part.)"""
    npots = amount.shape[0]
    kind = params[RAKE_KIND]
    unit = params[RAKE_UNIT]
    cap = params[RAKE_CAP]
    rake_of = np.zeros(npots, dtype=np.int64)
    rake = 0
    if kind == RAKE_PERCENT:
        left = cap
        for k in range(npots):
            wanted = amount[k] * params[RAKE_NUM] // (params[RAKE_DEN] * unit) * unit
            take = wanted if cap < 0 else min(wanted, left)
            if cap >= 0:
                left -= take
            rake_of[k] = take
            rake += take
        return rake, rake_of
    if kind == RAKE_PER_ROUND:
        left = cap
        last = round_put.shape[0] - 1
        for r in range(round_put.shape[0]):
            put = round_put[r] - (returned if r == last else 0)
            wanted = put * params[RAKE_NUM] // (params[RAKE_DEN] * unit) * unit
            take = wanted if cap < 0 else min(wanted, left)
            if cap >= 0:
                left -= take
            rake += take
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
    """The Bad Beat contribution (``bad_beat.contribute``, § 553.20(c)): from each pot, a
    side pot being a separate pot, of at least the minimum after the rake, each at most
    the maximum. (The contribution, each pot's part.)"""
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
    out: Ints,
    log: Ints,
    at: Ints,
    k: int,
) -> int:
    """One pot (number ``k``) of ``net`` chips awarded by the showdown among the players of ``mask``
    (``showdown.Splitter.settle``): to the high hand, the low hand, or split high-low
    halves, the high hand taking all where no low qualifies (§ 553.10(j)); what
    ``_pay_best`` returns of the pot (0: no hand can win it, -1: a tie to be ordered)."""
    n = mask.shape[0]
    pot_kind = params[POT_KIND]
    hp, ht = priority[HIGH], tied[HIGH]
    lp, lt = priority[LOW], tied[LOW]
    if pot_kind == POT_HIGH:
        return _pay_best(high, mask, net, params, hp, ht, out, log, at, k, 0)
    any_low = False
    for i in range(n):
        qualifying[i] = mask[i] and _low_qualifies(low[i], params)
        any_low = any_low or qualifying[i]
    if pot_kind == POT_LOW:
        return _pay_best(low, qualifying, net, params, lp, lt, out, log, at, k, 0)
    if not any_low:  # the high hand takes the entire pot (§ 553.10(j))
        return _pay_best(high, mask, net, params, hp, ht, out, log, at, k, 0)
    unit_odd = params[ODD_UNIT]
    capped = params[ODD_CAPPED] == 1
    larger = _divide(net, 2, unit_odd, capped, True)
    smaller = _divide(net, 2, unit_odd, capped, False)
    to_high = params[EXCESS_TO_HIGH] == 1
    high_half = larger if to_high else smaller
    low_half = smaller if to_high else larger
    paid = _pay_best(high, mask, high_half, params, hp, ht, out, log, at, k, 1)
    if paid != 0:
        low_paid = _pay_best(low, qualifying, low_half, params, lp, lt, out, log, at, k, 2)
        paid = low_paid if low_paid <= 0 else paid
    return paid


@njit(cache=True, inline="always")
def _pot_winner(
    high: Ints,
    low: Ints,
    mask: Flags,
    qualifying: Flags,
    params: Ints,
    won_high: Flags,
    won_low: Flags,
) -> tuple[int, bool]:
    """What the Kill reads of a pot (``kill.PotOutcome``): the one player who won all of
    it (-1: none), and whether a high half and a low half went to different players."""
    pot_kind = params[POT_KIND]
    if pot_kind == POT_LOW:
        _best_of(low, qualifying, won_high)
    else:
        _best_of(high, mask, won_high)
    halves = pot_kind == POT_HIGH_LOW and _any_low(low, mask, params)
    if halves:
        _best_of(low, qualifying, won_low)
    winners = 0
    scooped = -1
    split = False
    for i in range(mask.shape[0]):
        if halves:
            split = split or won_high[i] != won_low[i]
            won_high[i] = won_high[i] or won_low[i]
        if won_high[i]:
            winners += 1
            scooped = i
    return (scooped if winners == 1 else -1), split


@njit(cache=True, inline="always")
def _bad_beat_pay(
    high: Ints,
    main: Flags,
    cards: Ints,
    ncards: Ints,
    board: Ints,
    nboard: int,
    bb_spec: Ints,
    bb_tables: Tables,
    params: Ints,
    contribution: int,
    payouts: Ints,
    log: Ints,
    at: Ints,
) -> int:
    """The Bad Beat of the main pot (``bad_beat.pay``, § 553.20): the losing high hands of
    the main pot of the qualifying category (its ranking cards at least the rank, using at
    least the player's own cards stated), beaten by a winning hand of at least the stated
    category; the best of them takes the losing share of the fund with this round's
    contribution, the main pot's winners the winning share, the other players dealt in the
    table share, each rounded down to the cent. 1: a Bad Beat (``payouts`` [seat] filled),
    0: none, -1: a hand whose cards are not read here."""
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
    pick = np.empty(width, dtype=np.int64)
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
            used = _used(
                bb_tables, bb_spec, cards[i], ncards[i], board, nboard, hand, pick, choices
            )
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
    fund = params[BB_FUND] + contribution
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
                at[0] = log_op(log, at[0], PAY_BAD_BEAT, i, each, 0, group)
    return 1


@njit(cache=True, inline="always")
def _bad_beat_group(
    group: int, key: int, top: int, best: int, losing: bool, main: bool, ncards: int
) -> bool:
    """Whether a seat takes the losing (0), the winning (1) or the table's (2) share: the
    best losing hands; the main pot's high winners; the others dealt in."""
    lost = losing and key == best
    won = main and key == top
    if group == 0:
        return lost
    if group == 1:
        return won
    return ncards > 0 and not lost and not won


@njit(cache=True)
def _settle(
    contributed: Ints,
    folded: Flags,
    high: Ints,
    low: Ints,
    cards: Ints,
    ncards: Ints,
    board: Ints,
    nboard: int,
    round_put: Ints,
    levels: Ints,
    params: Ints,
    bb_spec: Ints,
    bb_tables: Tables,
    priority: Ints,
    tied: Flags,
    out: Ints,
    log: Ints,
    at: Ints,
) -> int:
    """Settle one round into ``out`` ([seat] awards, then the ``_TAIL``, then [seat] Bad
    Beat payouts), each step appended to ``log`` from row ``at[0]`` (``at[0]`` the rows
    after; a log of no rows: off): ``SETTLED``; ``HANDED_BACK`` to ``settle_round``;
    ``NEEDS_ORDER``: a tie's excess goes by card and suit among seats ``priority`` ([part,
    seat], -1: not given) does not order, marked in ``tied`` ([part, seat], cleared here
    first): call again with their order; ``NEGATIVE`` .. ``NO_WINNER``: a round that
    cannot be settled (``settle_error``). Not ``SETTLED``: ``out`` meaningless and the log
    as it was."""
    start = at[0]
    status = _settle_body(
        contributed,
        folded,
        high,
        low,
        cards,
        ncards,
        board,
        nboard,
        round_put,
        levels,
        params,
        bb_spec,
        bb_tables,
        priority,
        tied,
        out,
        log,
        at,
    )
    if status != SETTLED:
        at[0] = start
    return status


@njit(cache=True)
def _settle_body(
    contributed: Ints,
    folded: Flags,
    high: Ints,
    low: Ints,
    cards: Ints,
    ncards: Ints,
    board: Ints,
    nboard: int,
    round_put: Ints,
    levels: Ints,
    params: Ints,
    bb_spec: Ints,
    bb_tables: Tables,
    priority: Ints,
    tied: Flags,
    out: Ints,
    log: Ints,
    at: Ints,
) -> int:
    """``_settle``, the log's rows written whatever the result."""
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
        at[0] = log_op(log, at[0], RETURN_UNCALLED, bettor, returned, 0, 0)
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
        at[0] = log_op(log, at[0], FORM_POT, NO_SEAT, amount[k], k, bits)
        pot += amount[k]
        below = lev
    rake, rake_of = _take_rake(params, amount, pot, round_put, returned, levels)
    bb, bb_of = _bad_beat_contributions(params, amount, rake_of)
    for k in range(npots):
        if params[RAKE_KIND] != RAKE_NONE:
            at[0] = log_op(log, at[0], TAKE_RAKE, NO_SEAT, rake_of[k], k, 0)
    for k in range(npots):
        if params[BB_KIND] != BB_NONE:
            at[0] = log_op(log, at[0], TAKE_BAD_BEAT, NO_SEAT, bb_of[k], k, 0)
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
                    at[0] = log_op(log, at[0], AWARD_POT, i, net, k, 0)
            continue
        paid = _award_pot(net, mask, high, low, params, priority, tied, qualifying, out, log, at, k)
        if paid == 0:
            out[n] = k
            out[n + 1] = LOW if params[POT_KIND] == POT_LOW else HIGH
            return NO_WINNER
        if paid < 0:
            needs_order = True  # the other pots still read, so that one call orders all
        if params[KILL_RULE]:
            scooped[k], split[k] = _pot_winner(
                high, low, mask, qualifying, params, won_high, won_low
            )
    if needs_order:
        return NEEDS_ORDER
    if params[BB_KIND] != BB_NONE and params[POT_KIND] != POT_LOW and contenders[0] >= 2:
        payouts = out[n + _TAIL :]
        hit = _bad_beat_pay(
            high,
            eligible[0],
            cards,
            ncards,
            board,
            nboard,
            bb_spec,
            bb_tables,
            params,
            bb,
            payouts,
            log,
            at,
        )
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
        at[0] = log_op(log, at[0], MOVE_KILL, NO_SEAT, 0, 0, out[n + 4])
    return SETTLED


@njit(cache=True)
def _best_of(keys: Ints, eligible: Flags, best: Flags) -> None:
    """``best``: the eligible seats holding the highest key (none where no key is held)."""
    top = 0
    for i in range(keys.shape[0]):
        if eligible[i] and keys[i] > top:
            top = keys[i]
    for i in range(keys.shape[0]):
        best[i] = top > 0 and eligible[i] and keys[i] == top


@njit(cache=True)
def _any_low(low: Ints, eligible: Flags, params: Ints) -> bool:
    """An eligible seat holds a qualifying low."""
    for i in range(low.shape[0]):  # noqa: SIM110 (numba compiles no generator in any())
        if eligible[i] and _low_qualifies(low[i], params):
            return True
    return False


@njit(cache=True)
def _kill_next(params: Ints, net_of: Ints, scooped: Ints, split: Flags) -> int:
    """The Kill in effect next round (``kill.after_round``, § 553.12(m)): one player winning
    all of any pot of at least the qualifying pot puts it on; otherwise a Kill in effect
    stays unless the main pot is under the qualifying pot or split high/low between
    different players."""
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
    """What ``settle_round`` says of a round ``_settle`` found it cannot settle (``status``,
    ``out`` as it left it; ``seats`` the seat numbers by index); ``None``: no such round."""
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
    """A table's rules compiled for ``_settle``; ``reason``: why this table's rounds are
    settled by ``settle_round`` only (``None``: the kernel takes them)."""

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
        """The table's rake as the settlement kernel takes it from the pots (``RAKE_*``): a
        percentage of each pot (each betting round's chips, where it is taken round by
        round), the incremental levels; a rake by time charges takes nothing from a pot (the
        session charges the stacks at the end of each period)."""
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
        """The round settled (a round that cannot be is refused as ``settle_round``
        refuses it: ``PokerRoundError``, ``ValueError``). ``fund``: the
        Bad Beat fund before the round; ``kill_in_effect``: the table's Kill is on this
        round; ``log``, ``at``: the operation log its steps are appended to from row
        ``at[0]`` (``operations.new_log``; none: not kept)."""
        if self.reason is not None:
            raise RuntimeError(f"a table the settlement kernel does not take: {self.reason}")
        self.params[KILL_IN_EFFECT] = kill_in_effect
        self.params[BB_FUND] = fund
        n = len(self.seats)
        out: Ints = np.empty(2 * n + _TAIL, dtype=np.int64)
        round_put = np.array(dealt.round_put, dtype=np.int64)
        tied = self._tied
        args = (
            dealt.contributed,
            dealt.folded,
            dealt.high,
            dealt.low,
            dealt.cards,
            dealt.ncards,
            dealt.board,
            dealt.nboard,
            round_put,
            self.levels,
            self.params,
            self.bb_spec,
            self.bb_tables,
        )
        if log is None or at is None:
            log, at = no_log()
        status = _settle(*args, self._unordered, tied, out, log, at)
        if status == NEEDS_ORDER:
            priority = self.odd_chip_priority(dealt, tied)
            status = (
                HANDED_BACK if priority is None else _settle(*args, priority, tied, out, log, at)
            )
        if status != SETTLED:
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
            bool(out[n + 5]),
        )

    def _refuse(self, status: int, out: Ints) -> None:
        """Raise what ``settle_round`` raises for a round ``_settle`` cannot settle."""
        message = settle_error(status, out, self.seats)
        if message is None:  # pragma: no cover - cards more than a table taken deals
            raise RuntimeError("a hand's cards are more than the settlement kernel reads")
        if status == NO_WINNER:
            raise ValueError(message)
        raise PokerRoundError([("/seats", message)])

    def odd_chip_priority(self, dealt: DealtHand, tied: Flags) -> Ints | None:
        """Each ``tied`` seat's place ([part, seat]; -1: not tied) in the order the excess
        of a tied part goes (§ 553.10(i)(2)(ii)-(iv)), as the scalar showdown orders them
        (``odd_chip.odd_chip_order`` with this table's ``order_arrays``); ``None`` where a
        hand's cards are more than it reads."""
        priority: Ints = np.empty(tied.shape, dtype=np.int64)
        args = (dealt.cards, dealt.ncards, dealt.board, dealt.nboard, tied)
        if odd_chip_order(*args, *self.order_arrays, priority):
            return priority
        return None


class _NotTaken(RulesubError):
    """A table rule the kernel does not settle."""
