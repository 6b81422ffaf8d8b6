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
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.poker.fast import Flags, Ints
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.fast.odd_chip import (
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
from validator.interpreter.poker.fast.program import _low_threshold
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.showdown import Splitter
from validator.interpreter.poker.table import Rules, Stakes
from validator.interpreter.roundfile import RoundFileError
from validator.rankings.packed import Tables, pack_key, packed
from validator.vocabulary import POKER_WORD, meaning

RAKE_NONE, RAKE_PERCENT, RAKE_PER_ROUND, RAKE_INCREMENTAL = 0, 1, 2, 3
BB_NONE, BB_FIXED, BB_RATE = 0, 1, 2
POT_HIGH, POT_LOW, POT_HIGH_LOW = 0, 1, 2

#: ``_settle``'s results; the last four refuse the round (``Settled.where``: the seat or pot)
SETTLED, HANDED_BACK, NEEDS_ORDER = 0, 1, 2
NEGATIVE, ALL_FOLDED, OVER_CALLED, NO_WINNER = 3, 4, 5, 6
#: the parts of a pot, the rows of ``priority`` and ``tied``
HIGH, LOW = 0, 1

#: what ``_settle`` reads of a dealt round: contributed, folded, high and low keys, cards,
#: ncards, board, nboard, the chips by betting round
Dealt = tuple[Ints, Flags, Ints, Ints, Ints, Ints, Ints, int, Ints]


class TableRules(NamedTuple):
    """What ``_settle`` reads of the table, compiled once (``FastSettler``): amounts in
    cents, rates as num / den, a hand's floor as the lowest packed key that reaches it."""

    levels: Ints  # the incremental rake's levels: [level, (pot at least, rake)]
    bb_spec: Ints  # the Bad Beat hand as ``odd_chip._used`` reads which cards it uses
    bb_tables: Tables  # its packed tables
    chip: int
    pot_kind: int  # one of the POT_* above
    rake_kind: int = RAKE_NONE  # one of the RAKE_* above
    rake_num: int = 0  # the percentage rate, num / den
    rake_den: int = 1
    rake_unit: int = 1  # the rake's rounding unit
    rake_cap: int = -1  # -1: no cap
    bb_kind: int = BB_NONE  # one of the BB_* above
    bb_amount: int = 0  # a fixed contribution
    bb_num: int = 0  # a contribution by rate, num / den
    bb_den: int = 1
    bb_max: int = -1  # -1: no maximum
    bb_min_pot: int = 0
    #: the lowest packed key of a losing hand that qualifies: its category, and its ranking
    #: cards at least the rank stated ("four eights or better")
    bb_qualifies: int = 1
    bb_hole: int = 0  # the player's own cards the losing hand must use
    bb_beaten: int = 1  # the lowest packed key of a winning hand that makes it a Bad Beat
    #: the losing, winning and table shares of the fund: num, den each
    bb_shares: tuple[int, int, int, int, int, int] = (0, 1, 0, 1, 0, 1)
    #: the lowest packed key of a low hand that qualifies (``program._low_threshold``, as the
    #: dealing kernel reads it); 1: every low hand
    low_qualifies: int = 1
    odd_unit: int = 1  # the chip an excess is divided in (the table's chip, at most the cap)
    odd_capped: int = 0  # 1: the source caps the excess (one unit at a time)
    excess_to_high: int = 0  # 1: a split pot's excess goes to the high half
    kill_rule: int = 0  # 1: the table has a Kill (§ 553.12(m))
    kill_qualifying: int = 0  # the Kill's qualifying pot


class Settled(NamedTuple):
    """What ``_settle`` found besides each seat's award and Bad Beat payout: its result
    (``SETTLED`` ..) and, settled, the round's figures; refused, the seat or pot (``where``)
    and the part of the pot (``HIGH``, ``LOW``) it refused."""

    status: int
    rake: int = 0
    bad_beat: int = 0  # the Bad Beat contribution
    pots: int = 0  # the pots' amounts
    showdown: int = 0  # 1: two or more hands reached the showdown
    kill_next: int = -1  # the Kill in effect next round: 1, 0; -1: no Kill rule
    losing: int = 0  # the Bad Beat's losing seats, bit i for seat index i (0: no Bad Beat)
    where: int = 0
    part: int = 0


class Showdown(NamedTuple):
    """What a pot's awards read and write (``_award_pot``, ``_pay_best``; the table's rules
    are passed beside it: a record's arrays cost a reference count each where it is built)."""

    high: Ints  # [seat] packed keys (0: no hand)
    low: Ints
    priority: Ints  # [part, seat] each tied seat's place in the order of a tie's excess
    tied: Flags  # [part, seat] marked where that order is wanted and not given
    qualifying: Flags  # [seat] a low hand that qualifies, in the pot being awarded
    won: Flags  # [0 the whole pot, 1 its high half, 2 its low half, seat] who was paid it
    awards: Ints  # [seat]
    log: Ints
    at: Ints


class Settlement(NamedTuple):
    """What ``_settle`` and ``odd_chip.odd_chip_order`` read of the table."""

    rules: TableRules  # ``_settle``'s: the rake's levels, the rules' array, the Bad Beat hand
    order: OrderArrays  # ``odd_chip_order``'s
    unordered: Ints  # the priorities given: none, then the tie's order
    ordered: Ints
    tied: Flags
    log: Ints  # off: no rows
    at: Ints


@njit(cache=True, inline="always")
def _pay_best(
    sd: Showdown, rules: TableRules, side: int, eligible: Flags, amount: int, pot: int, part: int
) -> int:
    """Part ``part`` of pot ``pot`` to the best ``eligible`` hands of ``side`` (``HIGH``,
    ``LOW``): the winners paid (and marked in ``sd.won``), 0 where no hand can win, -1 where
    a tie's excess goes by card and suit and ``sd.priority`` does not order the tied seats
    (marked in ``sd.tied``, nothing paid). Ordered, an equal share each, the excess one chip
    (at most the cap) at a time in order (§ 553.10(i)(2)(ii)-(iv))."""
    keys = sd.low if side == LOW else sd.high
    priority, awards, won, log, at = sd.priority[side], sd.awards, sd.won, sd.log, sd.at
    n = keys.shape[0]
    top = 0
    for i in range(n):
        if eligible[i] and keys[i] > top:
            top = keys[i]
    if top == 0:
        return 0
    winners = 0
    unordered = False
    for i in range(n):
        if eligible[i] and keys[i] == top:
            winners += 1
            unordered = unordered or priority[i] < 0
    unit = rules.odd_unit
    excess = 0 if winners == 1 else amount - winners * (amount // (winners * unit) * unit)
    if excess and unordered:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                sd.tied[side, i] = True
        return -1
    share = (amount - excess) // winners
    # the most of the excess one player receives: a chip of at most the cap, else all of it
    room = unit if rules.odd_capped == 1 else excess
    for i in range(n):
        if not (eligible[i] and keys[i] == top):
            continue
        place = 0  # how many tied seats the excess reaches before this one
        for j in range(n):
            if excess and eligible[j] and keys[j] == top and priority[j] < priority[i]:
                place += 1
        paid = share + min(room, max(0, excess - place * room))
        awards[i] += paid
        won[part, i] = True
        at[0] = log_op(log, at[0], ops.AWARD_POT, i, paid, pot, part)
    return winners


@njit(cache=True, inline="always")
def _award_pot(sd: Showdown, rules: TableRules, mask: Flags, net: int, k: int) -> int:
    """Pot ``k`` awarded among the players of ``mask``: high, low, or high-low halves, the
    high hand taking all where no low qualifies (§ 553.10(j)), the excess of halves to the
    half the game names, one chip of at most the cap where it caps it (§ 553.10(i)(2)(i));
    0 where a part has no winner, -1 where a tie's excess wants an order (``_pay_best``)."""
    low, qualifying = sd.low, sd.qualifying
    kind = rules.pot_kind
    any_low = False
    for i in range(mask.shape[0]):
        qualifying[i] = kind != POT_HIGH and mask[i] and low[i] >= rules.low_qualifies
        any_low = any_low or qualifying[i]
    halves = kind == POT_HIGH_LOW and any_low
    first = LOW if kind == POT_LOW else HIGH  # the hand a pot not split goes to
    unit = rules.odd_unit
    half = net // (2 * unit) * unit  # each half's equal share in the unit
    excess = net - 2 * half
    larger = half + (min(unit, excess) if rules.odd_capped == 1 else excess)
    result = 1
    for side in range(first, LOW + 1 if halves else first + 1):
        amount = net
        if halves:
            amount = larger if (side == HIGH) == (rules.excess_to_high == 1) else net - larger
        eligible = qualifying if side == LOW else mask
        paid = _pay_best(sd, rules, side, eligible, amount, k, side + 1 if halves else 0)
        if paid == 0:
            return 0
        result = min(result, paid)
    return result


@njit(cache=True, inline="always")
def _uncalled_bet(called: Ints) -> tuple[int, int]:
    """The uncalled final bet (§ 553.15(d)) taken out of ``called``: (its seat, -1: none;
    amount)."""
    n = called.shape[0]
    if n < 2:
        return -1, 0
    bettor = int(np.argmax(called))  # the first of the largest contributions
    second = -1
    for i in range(n):
        if i != bettor:
            second = max(second, called[i])
    uncalled = called[bettor] - second
    if uncalled <= 0:
        return -1, 0
    called[bettor] = second
    return bettor, uncalled


@njit(cache=True, inline="always")
def _take_rake(
    rules: TableRules, amount: Ints, pot: int, round_put: Ints, returned: int
) -> tuple[int, Ints]:
    """The rake (§ 553.15(b)) and each pot's part: a percentage of each pot with the cap
    across the pots in order, of each pot as it stands after each betting round, or the
    incremental levels, each from the pot it was reached in."""
    npots = amount.shape[0]
    kind = rules.rake_kind
    unit = rules.rake_unit
    cap = rules.rake_cap
    rake_of = np.zeros(npots, dtype=np.int64)
    rake = 0
    if kind == RAKE_PERCENT:
        for k in range(npots):
            take = amount[k] * rules.rake_num // (rules.rake_den * unit) * unit
            if cap >= 0:
                take = min(take, cap - rake)
            rake_of[k] = take
            rake += take
        return rake, rake_of
    if kind == RAKE_PER_ROUND:
        # § 553.15(b)(1)(i): "calculated and extracted from the pot and any side pots"
        # after each betting round: the rate of what pot k holds then, less what the rate
        # of what it held before took, so that the round of play's rake is the rate of each
        # whole pot as (b)(1)(ii) takes it once (the two differ in when and where the rake
        # is placed, not how much). A pot is the band of contributions between two All-in
        # amounts: the chips fill the pots from the main pot up as play progresses. The
        # uncalled final bet is out of the last round that put chips in (§ 553.15(d)).
        last = round_put.shape[0] - 1
        while last > 0 and round_put[last] == 0:
            last -= 1
        before = 0
        for r in range(round_put.shape[0]):
            after = before + round_put[r] - (returned if r == last else 0)
            below = 0  # the chips of the pots under pot k
            for k in range(npots):
                held = min(max(after - below, 0), amount[k])
                had = min(max(before - below, 0), amount[k])
                below += amount[k]
                per = rules.rake_den * unit
                take = (held * rules.rake_num // per - had * rules.rake_num // per) * unit
                if cap >= 0:
                    take = min(take, cap - rake)
                rake_of[k] += take
                rake += take
            before = after
        return rake, rake_of
    if kind == RAKE_INCREMENTAL:
        # § 553.15(b)(2): taken "as certain predetermined dollar levels have been achieved"
        # by the chips in the pots, which fill them from the main pot up: each level's
        # amount from the pot its level was reached in (the next pots, then those before,
        # where that one cannot hold it), the cap counted in the order the levels are reached
        levels = rules.levels
        for j in range(levels.shape[0]):
            if pot < levels[j, 0]:
                continue
            want = levels[j, 1] if cap < 0 else min(levels[j, 1], cap - rake)
            below = 0
            for k in range(npots):
                below += amount[k]
                if below < levels[j, 0] or want == 0:
                    continue
                take = min(want, amount[k] - rake_of[k])
                rake_of[k] += take
                rake += take
                want -= take
            for k in range(npots):  # what those pots could not hold, from the pots before
                take = min(want, amount[k] - rake_of[k])
                rake_of[k] += take
                rake += take
                want -= take
    return rake, rake_of


@njit(cache=True, inline="always")
def _bad_beat_contributions(rules: TableRules, amount: Ints, rake_of: Ints) -> tuple[int, Ints]:
    """The Bad Beat contribution (§ 553.20(c)) and each pot's part: from each pot (a side
    pot is a separate pot) of at least the minimum after the rake, at most the maximum."""
    npots = amount.shape[0]
    bb_of = np.zeros(npots, dtype=np.int64)
    if rules.bb_kind == BB_NONE:
        return 0, bb_of
    for k in range(npots):
        net_k = amount[k] - rake_of[k]
        if net_k < rules.bb_min_pot:
            continue
        if rules.bb_kind == BB_FIXED:
            wanted = rules.bb_amount
        else:
            chip = rules.chip
            wanted = net_k * rules.bb_num // (rules.bb_den * chip) * chip
        most = net_k if rules.bb_max < 0 else min(rules.bb_max, net_k)
        bb_of[k] = min(wanted, most)
    return bb_of.sum(), bb_of


@njit(cache=True, inline="always")
def _pot_winner(won: Flags) -> tuple[int, bool]:
    """What the Kill reads of a pot from who was paid it (``Showdown.won``): the one player
    who won all of it (-1: none), and whether its halves went to different players."""
    winners = 0
    scooped = -1
    split = False
    for i in range(won.shape[1]):
        split = split or won[1, i] != won[2, i]
        if won[0, i] or won[1, i] or won[2, i]:
            winners += 1
            scooped = i
    return (scooped if winners == 1 else -1), split


@njit(cache=True, inline="always")
def _bad_beat_pay(
    dealt: Dealt,
    rules: TableRules,
    main: Flags,
    awards: Ints,
    fund: int,
    bb: int,
    payouts: Ints,
    log: Ints,
    at: Ints,
) -> int:
    """The Bad Beat of the main pot (§ 553.20): the best losing high hand of the qualifying
    category (ranking cards at least the rank, using at least the hole cards stated), beaten
    by a hand of at least the stated category, takes the losing share of the fund; the
    winners the winning share, the others dealt in the table share, each a share of the
    ``fund`` with this round's contribution ``bb``, rounded down to the cent. A hand that won
    any of the round's pots (a side pot, a low half: ``awards``) is no "losing hand in a
    round of play" (§ 553.1, Bad Beat). A Bad Beat: the
    seats of its losing hand (bit i for seat index i); 0: none; -1: a hand whose cards are
    not read here."""
    high, cards, ncards, board, nboard = dealt[2], dealt[4], dealt[5], dealt[6], dealt[7]
    n = high.shape[0]
    top = 0
    for i in range(n):
        if main[i] and high[i] > top:
            top = high[i]
    if top < rules.bb_beaten:  # no winning hand (0), or none of the category stated
        return 0
    hand = np.empty(cards.shape[1] + board.shape[0], dtype=np.int64)
    best = 0
    # each seat's share: 0 the losing hand's, 1 the winning hand's, 2 the table's
    share = np.full(n, -1, dtype=np.int64)
    for i in range(n):  # the losing hands that qualify
        key = high[i]
        if not main[i] or key == top or key < rules.bb_qualifies or awards[i] > 0:
            continue
        if rules.bb_hole > 0:
            used = _used(rules.bb_tables, rules.bb_spec, cards[i], ncards[i], board, nboard, hand)
            if used < 0:
                return -1
            own = 0
            for j in range(ncards[i]):
                own += (used >> cards[i, j]) & 1
            if own < rules.bb_hole:
                continue
        share[i] = 0
        best = max(best, key)
    if best == 0:
        return 0
    count = np.zeros(3, dtype=np.int64)
    losers = 0
    for i in range(n):
        if share[i] == 0 and high[i] == best:
            losers |= 1 << i
        elif main[i] and high[i] == top:
            share[i] = 1
        else:
            share[i] = 2  # every other player of the round was dealt in, his cards known or not
        count[share[i]] += 1
    fund += bb
    for group in range(3):
        num = rules.bb_shares[2 * group]
        if count[group] == 0 or num == 0:
            continue
        each = fund * num // (rules.bb_shares[2 * group + 1] * count[group])
        for i in range(n):
            if share[i] == group:
                payouts[i] += each
                at[0] = log_op(log, at[0], ops.PAY_BAD_BEAT, i, each, 0, group)
    return losers


@njit(cache=True)
def _settle(
    dealt: Dealt,
    rules: TableRules,
    kill_in_effect: int,
    fund: int,
    priority: Ints,
    tied: Flags,
    awards: Ints,
    payouts: Ints,
    log: Ints,
    at: Ints,
) -> Settled:
    """Settle one round, the Kill in effect or not and the Bad Beat ``fund`` before it, into
    each seat's ``awards`` and Bad Beat ``payouts``, each step logged from row ``at[0]``.
    ``Settled.status``: ``SETTLED``; ``HANDED_BACK``; ``NEEDS_ORDER``: a tie's excess goes
    by card and suit among seats ``priority`` ([part, seat], -1: not given) does not order,
    marked in ``tied``: call again with their order; ``NEGATIVE`` .. ``NO_WINNER``: a round
    that cannot be settled. Not ``SETTLED``: the amounts meaningless and the rows logged to
    be dropped by the caller."""
    contributed, folded, high, low, round_put = dealt[0], dealt[1], dealt[2], dealt[3], dealt[8]
    n = contributed.shape[0]
    awards[:] = 0
    payouts[:] = 0
    tied[:, :] = False
    for i in range(n):
        if contributed[i] < 0:
            return _refused(NEGATIVE, 0, 0)
    called = contributed.copy()
    bettor, returned = _uncalled_bet(called)
    if bettor >= 0:
        at[0] = log_op(log, at[0], ops.RETURN_UNCALLED, bettor, returned, 0, 0)
    live = 0
    top_live = -1
    for i in range(n):
        if not folded[i]:
            live += 1
            top_live = max(top_live, called[i])
    if live == 0:
        return _refused(ALL_FOLDED, 0, 0)
    for i in range(n):
        if called[i] > top_live:  # a folded player's chips no one still in called
            return _refused(OVER_CALLED, i, 0)
    # the main pot and the side pots (§ 553.8(b)(4)(iii)): every distinct contribution of a
    # player still in, ascending; an empty pot where nobody put anything in
    level_of = np.zeros(n, dtype=np.int64)
    npots = 0
    for i in range(n):
        c = called[i]
        j = npots  # where ``c`` goes among the levels found
        while j > 0 and level_of[j - 1] > c:
            j -= 1
        if folded[i] or c <= 0 or (j > 0 and level_of[j - 1] == c):
            continue
        for m in range(npots, j, -1):
            level_of[m] = level_of[m - 1]
        level_of[j] = c
        npots += 1
    npots = max(npots, 1)
    amount = np.zeros(npots, dtype=np.int64)
    eligible = np.zeros((npots, n), dtype=np.bool_)
    below = 0
    for k in range(npots):  # a layer contested by the players still in who reached it
        lev = level_of[k]
        bits = 0
        for i in range(n):
            c = called[i]
            amount[k] += min(c, lev) - min(c, below)
            if not folded[i] and c >= lev:
                eligible[k, i] = True
                bits |= 1 << i
        at[0] = log_op(log, at[0], ops.FORM_POT, ops.NO_SEAT, amount[k], k, bits)
        below = lev
    pot = amount.sum()
    rake, rake_of = _take_rake(rules, amount, pot, round_put, returned)
    bb, bb_of = _bad_beat_contributions(rules, amount, rake_of)
    if rules.rake_kind != RAKE_NONE:
        for k in range(npots):
            at[0] = log_op(log, at[0], ops.TAKE_RAKE, ops.NO_SEAT, rake_of[k], k, 0)
    if rules.bb_kind != BB_NONE:
        for k in range(npots):
            at[0] = log_op(log, at[0], ops.TAKE_BAD_BEAT, ops.NO_SEAT, bb_of[k], k, 0)
    won = np.zeros((3, n), dtype=np.bool_)
    sd = Showdown(high, low, priority, tied, np.zeros(n, np.bool_), won, awards, log, at)
    needs_order = False
    q = rules.kill_qualifying
    kill = False  # a pot of at least the qualifying pot won by one player (§ 553.12(m))
    main_stays = False  # the main pot at least the qualifying pot, its halves not split
    # the side pots are awarded before the main pot, the outermost first (§ 553.7(e)(6)(ii);
    # the house procedures' Poker Overview (4)(v))
    for k in range(npots - 1, -1, -1):
        net = amount[k] - rake_of[k] - bb_of[k]
        won[:, :] = False
        if eligible[k].sum() == 1:
            for i in range(n):
                if eligible[k, i]:
                    awards[i] += net
                    won[0, i] = True
                    at[0] = log_op(log, at[0], ops.AWARD_POT, i, net, k, 0)
        else:
            paid = _award_pot(sd, rules, eligible[k], net, k)
            if paid == 0:
                return _refused(NO_WINNER, k, LOW if rules.pot_kind == POT_LOW else HIGH)
            needs_order = needs_order or paid < 0  # every pot still read: one call orders all
        if rules.kill_rule:
            scooped, split = _pot_winner(won)
            kill = kill or (scooped >= 0 and net >= q)
            main_stays = main_stays or (k == 0 and net >= q and not split)
    if needs_order:
        return _refused(NEEDS_ORDER, 0, 0)
    losing = 0
    if rules.bb_kind != BB_NONE and rules.pot_kind != POT_LOW and eligible[0].sum() >= 2:
        losing = _bad_beat_pay(dealt, rules, eligible[0], awards, fund, bb, payouts, log, at)
        if losing < 0:
            return _refused(HANDED_BACK, 0, 0)
    if bettor >= 0:
        awards[bettor] += returned
    kill_next = -1  # no Kill rule
    if rules.kill_rule:
        # the Kill next round (§ 553.12(m)): on where one player won all of a pot of at least
        # the qualifying pot; a Kill in effect stays unless the main pot is under it or split
        kill_next = 1 if kill or (kill_in_effect == 1 and main_stays) else 0
        at[0] = log_op(log, at[0], ops.MOVE_KILL, ops.NO_SEAT, 0, 0, kill_next)
    showdown = 1 if live >= 2 else 0
    return Settled(SETTLED, rake, bb, pot, showdown, kill_next, losing, 0, 0)


@njit(cache=True, inline="always")
def _refused(status: int, where: int, part: int) -> Settled:
    """A round ``_settle`` did not settle: why, and the seat or pot and part it stopped at."""
    return Settled(status, 0, 0, 0, 0, -1, 0, where, part)


@njit(cache=True, inline="always")
def settle_dealt(settlement, kill, fund, out, awards, payouts):  # type: ignore[no-untyped-def]
    """A dealt round (the dealing kernel's ``hand.Outcome``) settled (``Settled``) into
    ``awards`` and ``payouts``, a tie's excess by card and suit ordered first (into
    ``settlement.ordered``): the one settlement of ``play``, ``simulate``, ``par`` and
    ``settle``."""
    s = settlement
    put = out.round_put[: out.nrounds[0]]
    cards, ncards, board, nboard = out.cards, out.ncards, out.board, out.nboard[0]
    dealt = (out.contributed, out.folded, out.high, out.low, cards, ncards, board, nboard, put)
    rules, tied, log, at = s.rules, s.tied, s.log, s.at
    start = at[0]
    settled = _settle(dealt, rules, kill, fund, s.unordered, tied, awards, payouts, log, at)
    if settled.status == NEEDS_ORDER and odd_chip_order(
        cards, ncards, board, nboard, tied, *s.order, s.ordered
    ):
        at[0] = start  # the first call's steps logged again, in the order found
        settled = _settle(dealt, rules, kill, fund, s.ordered, tied, awards, payouts, log, at)
    return settled


def no_log() -> tuple[Ints, Ints]:
    """A log that is off (no rows) and its row count, for ``_settle``."""
    return np.zeros((0, WIDTH), dtype=np.int64), np.zeros(1, dtype=np.int64)


def refusal(settled: Settled, seats: Sequence[int]) -> Exception:
    """What ``settle_round`` raises for a round ``_settle`` refused (``RoundFileError``,
    ``ValueError``)."""
    status, where = settled.status, settled.where
    if status == NO_WINNER:
        pot = "main pot" if where == 0 else f"side pot {where}"
        return ValueError(f"no {'low' if settled.part == LOW else 'high'} hand can win the {pot}")
    if status == NEGATIVE:
        message = "a contribution is never negative"
    elif status == ALL_FOLDED:
        message = "every player folded: the last player in wins the pot, so one is in"
    elif status == OVER_CALLED:
        message = (
            f"seat {seats[where]} put in more than any player still in, and more than "
            "its own uncalled bet: a folded player's chips were all called by a player still in"
        )
    else:  # pragma: no cover - cards more than a table taken deals
        return RuntimeError("a hand's cards are more than the settlement kernel reads")
    return RoundFileError([("/seats", message)])


class FastSettler:
    """A table's rules compiled for ``_settle`` (``rules``); ``reason``: why the kernel takes
    none."""

    def __init__(self, game: Game, rules: Rules, stakes: Stakes, seats: Sequence[int]) -> None:
        self.game = game
        self.seats = list(seats)
        self.reason: str | None = None
        self.splitter: Splitter | None = None
        #: ``odd_chip.odd_chip_order``'s arrays for this table: each part's card keys (in the
        #: order its tie rule gives) and hand (``spec``), the packed tables of each part's hand
        self.order_arrays: OrderArrays = unread()
        self._rules = TableRules(
            np.zeros((0, 2), dtype=np.int64), np.zeros(SPEC, dtype=np.int64), _no_tables(), 1, 0
        )
        try:
            self._rules = self._compile(game, rules, stakes)
        except _NotTaken as e:
            self.reason = str(e)

    def _compile(self, game: Game, rules: Rules, stakes: Stakes) -> TableRules:
        d = game.definition
        sd = d.showdown
        if sd is None or d.rake is None:
            raise _NotTaken(f"{game.id} is no nonbanking Poker game")
        self.splitter = Splitter(game, card_orders(game), stakes.chip)
        self.order_arrays = compile_order(game, self.splitter)
        spec = self.order_arrays[1]
        for part, name in ((HIGH, "high"), (LOW, "low")):
            if sd.pot in (name, "high_low") and spec[part, PRESENT] != 1:
                raise _NotTaken(f"the order by card and suit of the {name} hands")
        cap = self.splitter.cap  # the excess's cap in cents, as the explanation reads it
        table = self._rules._replace(
            chip=stakes.chip,
            pot_kind={"high": POT_HIGH, "low": POT_LOW, "high_low": POT_HIGH_LOW}[sd.pot],
            odd_unit=stakes.chip if cap is None else min(stakes.chip, cap),
            odd_capped=int(cap is not None),
            excess_to_high=int(sd.odd_chips.pot_excess_to == "high"),
        )
        if rules.kill is not None:
            table = table._replace(kill_rule=1, kill_qualifying=rules.kill.qualifying_pot)
        if sd.low is not None and game.hand(sd.low).qualifier is not None:
            if game.evaluator(sd.low).ranking.low is None:
                raise _NotTaken(f"the low hand {sd.low!r} is ranked high: its qualifier")
            table = table._replace(low_qualifies=max(1, _low_threshold(game, sd.low)))
        return self._compile_bad_beat(game, rules, self._compile_rake(rules, stakes, table))

    @meaning("kernels", POKER_WORD.id, "percentage", "incremental", "time")
    def _compile_rake(self, rules: Rules, stakes: Stakes, table: TableRules) -> TableRules:
        """The rake as the kernel takes it from the pots; a rake by time takes nothing from a
        pot (the session charges the stacks at the end of each period)."""
        rule = rules.rake
        if rule is None or rule.kind in ("none", "time"):  # time charges never touch a pot
            return table
        table = table._replace(
            rake_unit=rule.unit or stakes.chip, rake_cap=-1 if rule.cap is None else rule.cap
        )
        if rule.kind == "percentage":
            if rule.rate is None:
                raise _NotTaken("a percentage rake with no rate")
            return table._replace(
                rake_kind=RAKE_PER_ROUND if rule.per_betting_round else RAKE_PERCENT,
                rake_num=rule.rate.numerator,
                rake_den=rule.rate.denominator,
            )
        levels = np.array(rule.levels, dtype=np.int64).reshape(-1, 2)
        return table._replace(rake_kind=RAKE_INCREMENTAL, levels=levels)

    def _compile_bad_beat(self, game: Game, rules: Rules, table: TableRules) -> TableRules:
        rule = rules.bad_beat
        if rule is None:
            return table
        if game.definition.bad_beat is None:
            raise _NotTaken(f"{game.id} states no Bad Beat")
        if rule.amount is not None:
            table = table._replace(bb_kind=BB_FIXED, bb_amount=rule.amount)
        elif rule.rate is not None:
            num, den = rule.rate.numerator, rule.rate.denominator
            table = table._replace(bb_kind=BB_RATE, bb_num=num, bb_den=den)
        else:
            raise _NotTaken("a Bad Beat contribution with neither an amount nor a rate")
        ev = game.evaluator(rule.hand)
        if ev.ranking.low is not None or rule.hand != "high":
            raise _NotTaken(f"a Bad Beat on the hand {rule.hand!r}")
        rank = () if rule.rank_at_least is None else (rule.rank_at_least,)
        shares = (rule.losing_share, rule.winning_share, rule.table_share)
        losing, winning, at_table = ((s.numerator, s.denominator) for s in shares)
        table = table._replace(
            bb_max=-1 if rule.max is None else rule.max,
            bb_min_pot=rule.min_pot,
            bb_qualifies=pack_key((ev.strength(rule.at_least), *rank)),
            bb_hole=rule.hole_cards,
            bb_beaten=1 if rule.beaten_by is None else pack_key((ev.strength(rule.beaten_by),)),
            bb_shares=(*losing, *winning, *at_table),
        )
        if rule.hole_cards:
            spec = _hand_spec(game, "high")
            if spec is None:
                raise _NotTaken("a Bad Beat's hole cards in a hand not read here")
            table = table._replace(bb_spec=spec, bb_tables=packed(ev).tables)
        return table

    def record(self, log: Ints | None = None, at: Ints | None = None) -> Settlement:
        """The table as ``settle_dealt`` reads it, no tie ordered yet; ``log``, ``at``: the
        log the settlement's steps are appended to from row ``at[0]`` (none: not kept)."""
        if self.reason is not None:
            raise RuntimeError(f"a table the settlement kernel does not take: {self.reason}")
        n = len(self.seats)
        unordered: Ints = np.full((2, n), -1, dtype=np.int64)
        tied: Flags = np.zeros((2, n), dtype=np.bool_)
        if log is None or at is None:
            log, at = no_log()
        return Settlement(
            self._rules, self.order_arrays, unordered, unordered.copy(), tied, log, at
        )

    def settle(
        self,
        out: Any,
        fund: int,
        kill_in_effect: bool = False,
        log: Ints | None = None,
        at: Ints | None = None,
    ) -> tuple[Settled, Ints, Ints, Ints | None]:
        """A dealt round (``hand.Outcome``) settled by ``settle_dealt``, or refused as
        ``settle_round`` refuses it (``RoundFileError``, ``ValueError``; a refused round's
        logged rows dropped): the settlement, each seat's award and Bad Beat payout, and each
        tied seat's place in the order a tie's excess went by card and suit (None: no such
        tie). ``fund``: the Bad Beat fund before the round; ``log``, ``at``: as ``record``."""
        record = self.record(log, at)
        start = int(record.at[0])
        n = len(self.seats)
        awards, payouts = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        settled = settle_dealt(record, int(kill_in_effect), int(fund), out, awards, payouts)
        if settled.status != SETTLED:
            record.at[0] = start
            raise refusal(settled, self.seats)
        ordered = record.ordered if (record.ordered >= 0).any() else None
        return settled, awards, payouts, ordered

    def rules(self) -> TableRules:
        """What ``_settle`` reads of the table."""
        return self._rules


class _NotTaken(RulesubError):
    """A table rule the kernel does not settle."""
