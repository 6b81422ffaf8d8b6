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
from typing import NamedTuple

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.poker.fast import DealtHand, Flags, Ints, SettledHand
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
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.showdown import Splitter
from validator.interpreter.poker.table import Rules, Stakes
from validator.interpreter.roundfile import RoundFileError
from validator.rankings.packed import KEY_PARTS, PART_BITS, PART_MASK, PART_OFFSET, Tables, packed
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

#: ``_settle``'s output after the awards: rake, Bad Beat contribution, pots, showdown, the
#: Kill next round (-1: no Kill rule), the Bad Beat's losing seats (bit i for seat index i;
#: 0: no Bad Beat); then each seat's Bad Beat payout
_TAIL = 6

#: ``_settle``'s results; the last four refuse the round, the seat or pot in ``out[n]``
SETTLED, HANDED_BACK, NEEDS_ORDER = 0, 1, 2
NEGATIVE, ALL_FOLDED, OVER_CALLED, NO_WINNER = 3, 4, 5, 6
#: the parts of a pot, the rows of ``priority`` and ``tied``
HIGH, LOW = 0, 1

#: what ``_settle`` reads of a dealt round: contributed, folded, high and low keys, cards,
#: ncards, board, nboard, the chips by betting round
Dealt = tuple[Ints, Flags, Ints, Ints, Ints, Ints, Ints, int, Ints]


class TableRules(NamedTuple):
    """What ``_settle`` reads of the table."""

    levels: Ints  # the incremental rake's levels: [level, (pot at least, rake)]
    params: Ints  # the rules (``RAKE_KIND`` ..)
    bb_spec: Ints  # the Bad Beat hand as ``odd_chip._used`` reads which cards it uses
    bb_tables: Tables  # its packed tables


class Showdown(NamedTuple):
    """What a pot's awards read and write (``_award_pot``, ``_pay_best``)."""

    high: Ints  # [seat] packed keys (0: no hand)
    low: Ints
    params: Ints
    priority: Ints  # [part, seat] each tied seat's place in the order of a tie's excess
    tied: Flags  # [part, seat] marked where that order is wanted and not given
    qualifying: Flags  # [seat] a low hand that qualifies, in the pot being awarded
    won: Flags  # [0 the whole pot, 1 its high half, 2 its low half, seat] who was paid it
    out: Ints
    log: Ints
    at: Ints


@njit(cache=True, inline="always")
def _part(key: int, i: int) -> int:
    """Part ``i`` of a packed key as stored (0: the category's strength; 0 stored: none)."""
    return (key >> (PART_BITS * (KEY_PARTS - 1 - i))) & PART_MASK


@njit(cache=True)
def _low_qualifies(key: int, params: Ints) -> bool:
    """Whether a packed low key qualifies: its category at least the qualifier's and no
    card above its highest rank (the key's parts are the negated low ranks)."""
    if key == 0:
        return False
    if params[LOW_QUALIFIER] == 0:
        return True
    if _part(key, 0) < params[LOW_MIN_PART]:
        return False
    top_rank = params[LOW_MAX_RANK]
    if top_rank < 0:
        return True
    for i in range(1, KEY_PARTS):
        stored = _part(key, i)
        if stored == 0:
            break
        if PART_OFFSET - stored > top_rank:
            return False
    return True


@njit(cache=True, inline="always")
def _pay_best(sd: Showdown, side: int, eligible: Flags, amount: int, pot: int, part: int) -> int:
    """Part ``part`` of pot ``pot`` to the best ``eligible`` hands of ``side`` (``HIGH``,
    ``LOW``): the winners paid (and marked in ``sd.won``), 0 where no hand can win, -1 where
    a tie's excess goes by card and suit and ``sd.priority`` does not order the tied seats
    (marked in ``sd.tied``, nothing paid). Ordered, an equal share each, the excess one chip
    (at most the cap) at a time in order (§ 553.10(i)(2)(ii)-(iv))."""
    keys = sd.low if side == LOW else sd.high
    priority, out, won, log, at = sd.priority[side], sd.out, sd.won, sd.log, sd.at
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
    unit = sd.params[ODD_UNIT]
    excess = 0 if winners == 1 else amount - winners * (amount // (winners * unit) * unit)
    if excess and unordered:
        for i in range(n):
            if eligible[i] and keys[i] == top:
                sd.tied[side, i] = True
        return -1
    share = (amount - excess) // winners
    # the most of the excess one player receives: a chip of at most the cap, else all of it
    room = unit if sd.params[ODD_CAPPED] == 1 else excess
    for i in range(n):
        if not (eligible[i] and keys[i] == top):
            continue
        place = 0  # how many tied seats the excess reaches before this one
        for j in range(n):
            if excess and eligible[j] and keys[j] == top and priority[j] < priority[i]:
                place += 1
        paid = share + min(room, max(0, excess - place * room))
        out[i] += paid
        won[part, i] = True
        at[0] = log_op(log, at[0], ops.AWARD_POT, i, paid, pot, part)
    return winners


@njit(cache=True, inline="always")
def _award_pot(sd: Showdown, mask: Flags, net: int, k: int) -> int:
    """Pot ``k`` awarded among the players of ``mask``: high, low, or high-low halves, the
    high hand taking all where no low qualifies (§ 553.10(j)), the excess of halves to the
    half the game names, one chip of at most the cap where it caps it (§ 553.10(i)(2)(i));
    0 where a part has no winner, -1 where a tie's excess wants an order (``_pay_best``)."""
    params, low, qualifying = sd.params, sd.low, sd.qualifying
    kind = params[POT_KIND]
    any_low = False
    for i in range(mask.shape[0]):
        qualifying[i] = kind != POT_HIGH and mask[i] and _low_qualifies(low[i], params)
        any_low = any_low or qualifying[i]
    halves = kind == POT_HIGH_LOW and any_low
    first = LOW if kind == POT_LOW else HIGH  # the hand a pot not split goes to
    unit = params[ODD_UNIT]
    half = net // (2 * unit) * unit  # each half's equal share in the unit
    excess = net - 2 * half
    larger = half + (min(unit, excess) if params[ODD_CAPPED] == 1 else excess)
    result = 1
    for side in range(first, LOW + 1 if halves else first + 1):
        amount = net
        if halves:
            amount = larger if (side == HIGH) == (params[EXCESS_TO_HIGH] == 1) else net - larger
        eligible = qualifying if side == LOW else mask
        paid = _pay_best(sd, side, eligible, amount, k, side + 1 if halves else 0)
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
        for r in range(parts):
            put = amount[r] if by_pot else round_put[r] - (returned if r == parts - 1 else 0)
            take = put * params[RAKE_NUM] // (params[RAKE_DEN] * unit) * unit
            if cap >= 0:
                take = min(take, cap - rake)
            if by_pot:
                rake_of[r] = take
            rake += take
        if by_pot:
            return rake, rake_of
    elif kind == RAKE_INCREMENTAL:
        for j in range(levels.shape[0]):
            if pot >= levels[j, 0]:
                rake += levels[j, 1]
        rake = min(rake, pot) if cap < 0 else min(rake, pot, cap)
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
    bb_of = np.zeros(npots, dtype=np.int64)
    if params[BB_KIND] == BB_NONE:
        return 0, bb_of
    for k in range(npots):
        net_k = amount[k] - rake_of[k]
        if net_k < params[BB_MIN_POT]:
            continue
        if params[BB_KIND] == BB_FIXED:
            wanted = params[BB_AMOUNT]
        else:
            chip = params[CHIP]
            wanted = net_k * params[BB_NUM] // (params[BB_DEN] * chip) * chip
        most = net_k if params[BB_MAX] < 0 else min(params[BB_MAX], net_k)
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
    dealt: Dealt, rules: TableRules, main: Flags, bb: int, payouts: Ints, log: Ints, at: Ints
) -> int:
    """The Bad Beat of the main pot (§ 553.20): the best losing high hand of the qualifying
    category (ranking cards at least the rank, using at least the hole cards stated), beaten
    by a hand of at least the stated category, takes the losing share of the fund; the
    winners the winning share, the others dealt in the table share, each rounded down to the
    cent. A Bad Beat: the seats of its losing hand (bit i for seat index i); 0: none; -1: a
    hand whose cards are not read here."""
    high, cards, ncards, board, nboard = dealt[2], dealt[4], dealt[5], dealt[6], dealt[7]
    params = rules.params
    n = high.shape[0]
    top = 0
    for i in range(n):
        if main[i] and high[i] > top:
            top = high[i]
    if top == 0 or _part(top, 0) < params[BB_BEATEN]:
        return 0
    hand = np.empty(cards.shape[1] + board.shape[0], dtype=np.int64)
    best = 0
    # each seat's share: 0 the losing hand's, 1 the winning hand's, 2 the table's, -1 none
    share = np.full(n, -1, dtype=np.int64)
    floor = params[BB_FLOOR]
    for i in range(n):  # the losing hands that qualify
        key = high[i]
        if not main[i] or key == top or key == 0 or _part(key, 0) < floor:
            continue
        if _part(key, 0) == floor and _part(key, 1) < params[BB_RANK]:
            continue
        if params[BB_HOLE] > 0:
            used = _used(rules.bb_tables, rules.bb_spec, cards[i], ncards[i], board, nboard, hand)
            if used < 0:
                return -1
            own = 0
            for j in range(ncards[i]):
                own += (used >> cards[i, j]) & 1
            if own < params[BB_HOLE]:
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
            share[i] = 2 if ncards[i] > 0 else -1
        if share[i] >= 0:
            count[share[i]] += 1
    fund = params[BB_FUND] + bb
    for group in range(3):
        num = params[BB_SHARES + 2 * group]
        if count[group] == 0 or num == 0:
            continue
        each = fund * num // (params[BB_SHARES + 2 * group + 1] * count[group])
        for i in range(n):
            if share[i] == group:
                payouts[i] += each
                at[0] = log_op(log, at[0], ops.PAY_BAD_BEAT, i, each, 0, group)
    return losers


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
    params = rules.params
    n = contributed.shape[0]
    out[:] = 0
    tied[:, :] = False
    for i in range(n):
        if contributed[i] < 0:
            return NEGATIVE
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
        return ALL_FOLDED
    for i in range(n):
        if called[i] > top_live:  # a folded player's chips no one still in called
            out[n] = i
            return OVER_CALLED
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
    rake, rake_of = _take_rake(params, amount, pot, round_put, returned, rules.levels)
    bb, bb_of = _bad_beat_contributions(params, amount, rake_of)
    if params[RAKE_KIND] != RAKE_NONE:
        for k in range(npots):
            at[0] = log_op(log, at[0], ops.TAKE_RAKE, ops.NO_SEAT, rake_of[k], k, 0)
    if params[BB_KIND] != BB_NONE:
        for k in range(npots):
            at[0] = log_op(log, at[0], ops.TAKE_BAD_BEAT, ops.NO_SEAT, bb_of[k], k, 0)
    won = np.zeros((3, n), dtype=np.bool_)
    sd = Showdown(high, low, params, priority, tied, np.zeros(n, np.bool_), won, out, log, at)
    needs_order = False
    q = params[KILL_QUALIFYING]
    kill = False  # a pot of at least the qualifying pot won by one player (§ 553.12(m))
    main_stays = False  # the main pot at least the qualifying pot, its halves not split
    for k in range(npots):
        net = amount[k] - rake_of[k] - bb_of[k]
        won[:, :] = False
        if eligible[k].sum() == 1:
            for i in range(n):
                if eligible[k, i]:
                    out[i] += net
                    won[0, i] = True
                    at[0] = log_op(log, at[0], ops.AWARD_POT, i, net, k, 0)
        else:
            paid = _award_pot(sd, eligible[k], net, k)
            if paid == 0:
                out[n] = k
                out[n + 1] = LOW if params[POT_KIND] == POT_LOW else HIGH
                return NO_WINNER
            needs_order = needs_order or paid < 0  # every pot still read: one call orders all
        if params[KILL_RULE]:
            scooped, split = _pot_winner(won)
            kill = kill or (scooped >= 0 and net >= q)
            main_stays = main_stays or (k == 0 and net >= q and not split)
    if needs_order:
        return NEEDS_ORDER
    if params[BB_KIND] != BB_NONE and params[POT_KIND] != POT_LOW and eligible[0].sum() >= 2:
        hit = _bad_beat_pay(dealt, rules, eligible[0], bb, out[n + _TAIL :], log, at)
        if hit < 0:
            return HANDED_BACK
        out[n + 5] = hit
    if bettor >= 0:
        out[bettor] += returned
    out[n] = rake
    out[n + 1] = bb
    out[n + 2] = pot
    out[n + 3] = 1 if live >= 2 else 0
    out[n + 4] = -1  # no Kill rule
    if params[KILL_RULE]:
        # the Kill next round (§ 553.12(m)): on where one player won all of a pot of at least
        # the qualifying pot; a Kill in effect stays unless the main pot is under it or split
        out[n + 4] = kill or (params[KILL_IN_EFFECT] == 1 and main_stays)
        at[0] = log_op(log, at[0], ops.MOVE_KILL, ops.NO_SEAT, 0, 0, out[n + 4])
    return SETTLED


def no_log() -> tuple[Ints, Ints]:
    """A log that is off (no rows) and its row count, for ``_settle``."""
    return np.zeros((0, WIDTH), dtype=np.int64), np.zeros(1, dtype=np.int64)


def refusal(status: int, out: Ints, seats: Sequence[int]) -> Exception:
    """What ``settle_round`` raises for a round ``_settle`` refused (``RoundFileError``,
    ``ValueError``)."""
    n = len(seats)
    if status == NO_WINNER:
        pot = "main pot" if out[n] == 0 else f"side pot {out[n]}"
        return ValueError(f"no {'low' if out[n + 1] == LOW else 'high'} hand can win the {pot}")
    if status == NEGATIVE:
        message = "a contribution is never negative"
    elif status == ALL_FOLDED:
        message = "every player folded: the last player in wins the pot, so one is in"
    elif status == OVER_CALLED:
        message = (
            f"seat {seats[int(out[n])]} put in more than any player still in, and more than "
            "its own uncalled bet: a folded player's chips were all called by a player still in"
        )
    else:  # pragma: no cover - cards more than a table taken deals
        return RuntimeError("a hand's cards are more than the settlement kernel reads")
    return RoundFileError([("/seats", message)])


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
        #: ``odd_chip.odd_chip_order``'s arrays for this table: each part's card keys (in the
        #: order its tie rule gives) and hand (``spec``), the packed tables of each part's hand
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
            p[KILL_RULE], p[KILL_QUALIFYING] = 1, rules.kill.qualifying_pot
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
        cap = self.splitter.cap  # the excess's cap in cents, as the explanation reads it
        p[ODD_UNIT] = stakes.chip if cap is None else min(stakes.chip, cap)
        p[ODD_CAPPED] = cap is not None
        p[EXCESS_TO_HIGH] = sd.odd_chips.pot_excess_to == "high"
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
        if rule is None or rule.kind in ("none", "time"):  # time charges never touch a pot
            return
        p[RAKE_UNIT] = rule.unit or stakes.chip
        p[RAKE_CAP] = -1 if rule.cap is None else rule.cap
        if rule.kind == "percentage":
            if rule.rate is None:
                raise _NotTaken("a percentage rake with no rate")
            p[RAKE_KIND] = RAKE_PER_ROUND if rule.per_betting_round else RAKE_PERCENT
            p[RAKE_NUM], p[RAKE_DEN] = rule.rate.numerator, rule.rate.denominator
            return
        p[RAKE_KIND] = RAKE_INCREMENTAL
        self.levels = np.array(rule.levels, dtype=np.int64).reshape(-1, 2)

    def _compile_bad_beat(self, game: Game, rules: Rules) -> None:
        p = self.params
        rule = rules.bad_beat
        if rule is None:
            return
        if game.definition.bad_beat is None:
            raise _NotTaken(f"{game.id} states no Bad Beat")
        if rule.amount is not None:
            p[BB_KIND] = BB_FIXED
            p[BB_AMOUNT] = rule.amount
        elif rule.rate is not None:
            p[BB_KIND] = BB_RATE
            p[BB_NUM], p[BB_DEN] = rule.rate.numerator, rule.rate.denominator
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
        for k, share in enumerate((rule.losing_share, rule.winning_share, rule.table_share)):
            p[BB_SHARES + 2 * k : BB_SHARES + 2 * k + 2] = share.numerator, share.denominator
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
            np.array(dealt.round_put, dtype=np.int64),
        )
        args = (dealt_arrays, self.rules())
        if log is None or at is None:
            log, at = no_log()
        start = at[0]
        status = _settle(*args, self._unordered, tied, out, log, at)
        priority: Ints | None = None
        if status == NEEDS_ORDER:  # each tied seat's place in the order the excess goes
            at[0] = start
            priority = np.empty(tied.shape, dtype=np.int64)
            hands = (dealt.cards, dealt.ncards, dealt.board, dealt.nboard, tied)
            ordered = odd_chip_order(*hands, *self.order_arrays, priority)
            status = _settle(*args, priority, tied, out, log, at) if ordered else HANDED_BACK
        if status != SETTLED:
            at[0] = start
            raise refusal(status, out, self.seats)
        rake, bad_beat, pots, showdown, kill, losing = (int(x) for x in out[n : n + _TAIL])
        kill_next = None if kill < 0 else bool(kill)
        payouts = out[n + _TAIL :]
        return SettledHand(
            out[:n], rake, bad_beat, pots, bool(showdown), kill_next, payouts, losing, priority
        )

    def rules(self) -> TableRules:
        """What ``_settle`` reads of the table."""
        return TableRules(self.levels, self.params, self.bb_spec, self.bb_tables)


class _NotTaken(RulesubError):
    """A table rule the kernel does not settle."""
