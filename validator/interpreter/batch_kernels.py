"""Compiled passes of the batch engine: a step that would take several numpy passes over a
chunk's lanes (rounds × seats), each with its temporaries, done in one loop over them.

Each reads and writes flat C-ordered views of the chunk's ``(rounds, seats)`` arrays; what
it computes is what the numpy passes it replaces computed, lane by lane (the money in
integer micro-dollars, a payout rounded down to the cent, as ``batch_money`` pays it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from validator.rankings.packed import _bits

#: what a row of a settlement line does with the stake (``row_money``'s ``kind``)
LOSE, PUSH, PAY_TO, PAY_FOR, PAY_PUSH, PAY_FIXED = range(6)
_CENT = 10_000


@njit(cache=True)
def row_money(
    m: NDArray[np.bool_],
    stake: NDArray[np.int64],
    kind: int,
    num: int,
    den: int,
    amount: int,
    bonus: bool,
    ret: NDArray[np.int64],
    house: NDArray[np.int64],
) -> None:
    """A row's outcome at the lanes ``m`` holds: lost (the house keeps the stake, a bonus
    line nothing), pushed, or paid (``num``/``den`` to one or for one, a push, a fixed
    ``amount``), written into what the line returns (``ret``) and keeps (``house``). Every
    lane is read, and the lanes ``m`` holds are written by arithmetic, not a branch (a
    mask that follows the cards would mispredict one at every other lane)."""
    n = m.shape[0]
    if kind in (LOSE, PUSH):
        if bonus:
            return
        out = house if kind == LOSE else ret
        for p in range(n):
            out[p] = stake[p] if m[p] else out[p]
        return
    last, r, h = np.int64(-1), np.int64(0), np.int64(0)
    for p in range(n):
        s = stake[p]
        if s != last:  # the stakes are mostly alike: each outcome computed once a run
            last = s
            if kind == PAY_TO:
                win = s * num // den // _CENT * _CENT
                r, h = np.int64(win if bonus else s + win), np.int64(-win)
            elif kind == PAY_FOR:
                back = s * num // den // _CENT * _CENT
                r, h = np.int64(back), np.int64(-back if bonus else s - back)
            elif kind == PAY_PUSH:
                r, h = np.int64(0 if bonus else s), np.int64(0)
            else:
                r, h = np.int64(amount if bonus else s + amount), np.int64(-amount)
        on = np.int64(m[p])
        ret[p] += on * (r - ret[p])
        house[p] += on * (h - house[p])


@njit(cache=True)
def follow_rule(
    m: NDArray[np.bool_], number: int, which: NDArray[np.int16], open_: NDArray[np.bool_]
) -> bool:
    """The lanes ``m`` holds (a part of ``open_``, where ``which`` is 0) follow rule
    ``number``: ``which`` set to it there and the lanes taken out of ``open_``, by
    arithmetic; whether any lane does."""
    some = False
    k = np.int16(number)
    for p in range(m.shape[0]):
        on = m[p]
        which[p] += np.int16(on) * k
        open_[p] ^= on
        some |= on
    return some


@njit(cache=True)
def envy_lanes(
    held: NDArray[np.int8],
    seats: int,
    code_of_held: NDArray[Any],
    amounts: NDArray[np.int64],
    holder: NDArray[np.bool_],
    idx: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """What every other seat's hand pays each lane of ``idx`` (flat indices over rounds ×
    ``seats``): at each lane the amount of the row its hand holds (``amounts`` by row + 1,
    the row ``code_of_held`` by category + 1) where it is a holder, summed over its round's
    seats but its own, into ``out``."""
    n = held.shape[0] // seats
    sums = np.zeros(n, dtype=np.int64)
    for r in range(n):
        t = np.int64(0)
        for p in range(r * seats, r * seats + seats):
            t += amounts[code_of_held[np.int64(held[p]) + 1]] * np.int64(holder[p])
        sums[r] = t
    for i in range(idx.shape[0]):
        p = idx[i]
        own = amounts[code_of_held[np.int64(held[p]) + 1]] * np.int64(holder[p])
        out[i] = sums[p // seats] - own


@njit(cache=True)
def one_stake(stake: NDArray[np.int64]) -> int:
    """The stake every lane wagered (0 where none did), in one pass; -1 where two lanes
    wagered different stakes (or a stake is below 0): what ``max`` and a test of every lane
    against it and 0 find. The least, the most and the least of those above 0 are kept
    by arithmetic, not a branch (lanes wagered and not alternate with the cards)."""
    big = np.iinfo(np.int64).max
    least, most, least_wagered = big, -big, big
    for p in range(stake.shape[0]):
        s = stake[p]
        least = min(least, s)
        most = max(most, s)
        least_wagered = min(least_wagered, s if s != 0 else big)
    if stake.shape[0] == 0 or least_wagered == big:
        return 0
    return int(most) if least >= 0 and least_wagered == most else -1


@njit(cache=True)
def paytable_lanes(
    m: NDArray[np.bool_],
    held: NDArray[np.int8],
    seats: int,
    code_of_held: NDArray[Any],
    ret_of: NDArray[np.int64],
    house_of: NDArray[np.int64],
    by_lane: NDArray[np.bool_],
    ret: NDArray[np.int64],
    house: NDArray[np.int64],
) -> tuple[int, int]:
    """A paytable's row at the lanes ``m`` holds, by the category each lane's hand holds
    (``held``: per lane, or per round where ``seats`` > 0, each round's for its seats):
    what the row returns and keeps (by row + 1, ``ret_of`` and ``house_of``), written into
    ``ret`` and ``house`` (by arithmetic, as ``row_money``). Returns how many of the lanes
    hold a hand the table has no row for, and how many a row settled lane by lane
    (``by_lane``): where either matters, the caller settles the row's lanes again."""
    none = np.int64(0)
    special = np.int64(0)
    if seats == 0:  # a hand per lane
        for p in range(m.shape[0]):
            c = code_of_held[held[p] + 1]
            on = np.int64(m[p])
            ret[p] += on * (ret_of[c] - ret[p])
            house[p] += on * (house_of[c] - house[p])
            none += on * (c == 0)
            special += on * by_lane[c]
        return int(none), int(special)
    for q in range(m.shape[0] // seats):  # a round's hand at a time, for each of its seats
        c = code_of_held[held[q] + 1]
        r, h, z, b = ret_of[c], house_of[c], np.int64(c == 0), np.int64(by_lane[c])
        for p in range(q * seats, q * seats + seats):
            on = np.int64(m[p])
            ret[p] += on * (r - ret[p])
            house[p] += on * (h - house[p])
            none += on * z
            special += on * b
    return int(none), int(special)


@njit(cache=True)
def place_wager(
    m: NDArray[np.bool_],
    multiple: NDArray[np.int64],
    lo: NDArray[np.int64],
    hi: NDArray[np.int64],
    base: NDArray[np.int64],
    stake: NDArray[np.int64],
    wagered: NDArray[np.int64],
) -> int:
    """A wager placed at the lanes ``m`` holds (rounds × seats, flat): ``multiple`` times
    the stake ``base`` (0: the least the rules allow there, ``lo``; -1: the most, ``hi``)
    added to ``stake`` and to each round's ``wagered``. Returns how many lanes said a
    multiple outside ``lo``..``hi`` (nothing is to be kept then: the caller refuses it)."""
    seats = m.shape[0] // wagered.shape[0] if wagered.shape[0] else 1
    bad = 0
    for p in range(m.shape[0]):
        if not m[p]:
            continue
        mult = multiple[p]
        if mult == 0:
            mult = lo[p]
        elif mult == -1:
            mult = hi[p]
        if mult < lo[p] or mult > hi[p]:
            bad += 1
        st = base[p] * mult
        stake[p] += st
        wagered[p // seats] += st
    return bad


@njit(cache=True)
def pay_fee(
    m: NDArray[np.bool_],
    stake: NDArray[np.int64],
    times: int,
    fees: NDArray[np.int64],
    wagered: NDArray[np.int64],
    house: NDArray[np.int64],
) -> None:
    """A fee of ``times`` the stake ``stake`` at the lanes ``m`` holds (rounds × seats,
    flat), by arithmetic: added to the lanes' ``fees`` and to each round's ``wagered``
    and ``house`` (its round's seats summed in turn, no division of a lane by them)."""
    n = wagered.shape[0]
    seats = m.shape[0] // n if n else 1
    for r in range(n):
        t = np.int64(0)
        for p in range(r * seats, r * seats + seats):
            f = stake[p] * times * np.int64(m[p])
            fees[p] += f
            t += f
        wagered[r] += t
        house[r] += t


@njit(cache=True)
def compare_keys(
    a: NDArray[np.int64],
    a_seats: int,
    b: NDArray[np.int64],
    b_seats: int,
    out: NDArray[np.int8],
) -> None:
    """Each lane's hand ``a`` against ``b``: 1 higher, 0 equal, -1 lower, by their keys
    (a key per lane, or per round where its ``seats`` > 0, each round's for its seats)."""
    if a_seats == 0 and b_seats == 0:  # a key per lane each
        for p in range(out.shape[0]):
            x, y = a[p], b[p]
            out[p] = 1 if x > y else (-1 if x < y else 0)
        return
    seats = max(a_seats, b_seats)  # a round's key at a time, for each of its seats
    for r in range(out.shape[0] // seats):
        for p in range(r * seats, r * seats + seats):
            x = a[r] if a_seats > 0 else a[p]
            y = b[r] if b_seats > 0 else b[p]
            out[p] = 1 if x > y else (-1 if x < y else 0)


@njit(cache=True)
def changed_rows(cards: NDArray[np.int8], before: NDArray[np.int8], rows: NDArray[np.int64]) -> int:
    """The rows of ``cards`` that differ from ``before`` (as many rows, as many cards or
    fewer: a card added where it had none), in order, into ``rows``; returns how many.
    Every row is written and kept by arithmetic, not a branch (the rows changed follow
    the cards: a branch on them would be mispredicted at every other row)."""
    n, k = cards.shape
    kb = before.shape[1]
    g = 0
    for r in range(n):
        d = 0  # the bits in which the row's cards differ
        for j in range(kb):
            d |= cards[r, j] ^ before[r, j]
        for j in range(kb, k):  # a place the row had no card (-1) in
            d |= ~cards[r, j]
        rows[g] = r
        g += d != 0
    return g


@njit(cache=True)
def lower_of(
    a_held: NDArray[np.int8],
    a_key: NDArray[np.int64],
    b_held: NDArray[np.int8],
    b_key: NDArray[np.int64],
    held: NDArray[np.int8],
    key: NDArray[np.int64],
) -> None:
    """The lower of two hands, lane by lane: its category and key; none (-1) on a tie."""
    for p in range(held.shape[0]):
        x, y = a_key[p], b_key[p]
        if x == y:
            held[p] = -1
            key[p] = -1
        elif x < y:
            held[p] = a_held[p]
            key[p] = x
        else:
            held[p] = b_held[p]
            key[p] = y


@njit(cache=True)
def sums_of_rows(a: NDArray[np.int64] | NDArray[np.uint8], out: NDArray[np.int64]) -> None:
    """Each row's sum of a 2-d array of integers, or its count of true entries where the
    array is of booleans as bytes (exact: integer additions)."""
    n, k = a.shape
    for r in range(n):
        t = np.int64(0)
        for j in range(k):
            t += a[r, j]
        out[r] = t


@njit(cache=True)
def rank_masks(cards: NDArray[np.int8], bit: NDArray[np.uint16], out: NDArray[np.uint16]) -> None:
    """Each seat's ranks as a mask: the ``bit`` of each of its cards (by card int, a
    negative int counted from the end as numpy takes it) or-ed together."""
    n, s, k = cards.shape
    size = bit.shape[0]
    for r in range(n):
        for t in range(s):
            x = np.int64(0)
            for j in range(k):
                c = np.int64(cards[r, t, j])
                x |= np.int64(bit[c + size if c < 0 else c])
            out[r, t] = x


@njit(cache=True)
def gather(table: NDArray[Any], idx: NDArray[np.int16], out: NDArray[Any]) -> None:
    """``table`` at each index of ``idx`` (indices 0 and up), into ``out``: numpy's ``take``
    of a short table by small indices, without widening the indices first."""
    for p in range(idx.shape[0]):
        out[p] = table[idx[p]]


@njit(cache=True)
def put_cards(src: NDArray[np.int8], col: int, out: NDArray[np.int8]) -> None:
    """A part of each seat's hand (``src``: ``(rounds, seats, k)``, or ``(rounds, 1, k)``
    for cards of the table every seat shares) written at columns ``col`` on of ``out``
    (``(rounds, seats, cards)``): numpy's concatenation of the parts, the table's cards
    broadcast to the seats, in one pass."""
    n, s = out.shape[0], out.shape[1]
    w = src.shape[2]
    shared = src.shape[1] == 1
    for r in range(n):
        for t in range(s):
            u = 0 if shared else t
            for j in range(w):
                out[r, t, col + j] = src[r, u, j]


@njit(cache=True)
def card_counts(
    flat: NDArray[np.int8], rows: NDArray[np.int64] | None, counts: NDArray[np.int64]
) -> None:
    """The cards of each row of ``flat`` (its entries 0 and up; -1 is no card), or of each
    of ``rows`` of it (its flat indices, as ``cards_of_rows`` reads them)."""
    k = flat.shape[1]
    for i in range(counts.shape[0]):
        r = i if rows is None else rows[i]
        c = 0
        for j in range(k):
            c += flat[r, j] >= 0
        counts[i] = c


@njit(cache=True)
def cards_of_rows(flat: NDArray[np.int8], rows: NDArray[np.int64], out: NDArray[np.int8]) -> None:
    """The cards of each of ``rows`` of ``flat`` in their order, its -1s left out: a row of
    ``out`` each (as many cards as ``out`` has columns, ``card_counts`` of the row)."""
    for i in range(rows.shape[0]):
        r = rows[i]
        g = 0
        for j in range(flat.shape[1]):
            c = flat[r, j]
            if c >= 0:
                out[i, g] = c
                g += 1


#: the place of a 64-bit word's one set bit, by the word times ``_SPREAD``'s top six bits
_SPREAD = 0x03F79D71B4CB0A89
_PLACE = np.zeros(64, dtype=np.int8)
for _i in range(64):
    _PLACE[((1 << _i) * _SPREAD % (1 << 64)) >> 58] = _i


@njit(cache=True)
def _held_twice(x: np.uint64) -> np.uint64:
    """Of the cards ``x`` holds (a bit per card int, a rank's four cards a nibble: a card
    int is four times its rank's place plus its suit), those of a rank held twice or
    more."""
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    pairs = (x & (x >> one) & np.uint64(0x5555555555555555)) | (
        x & (x >> two) & np.uint64(0x3333333333333333)
    )
    pairs |= ((x & (x >> three)) | ((x >> one) & (x >> two))) & np.uint64(0x1111111111111111)
    pairs |= pairs >> one  # a bit of the nibble set: the nibble's lowest bit set
    pairs |= pairs >> two
    return ((pairs & np.uint64(0x1111111111111111)) * np.uint64(15)) & x


@njit(cache=True)
def draws(
    player: NDArray[np.int8],
    dealt: NDArray[np.int8],
    out: NDArray[np.int8],
    out_dealt: NDArray[np.int8],
    decks: NDArray[np.int8],
    pos: NDArray[np.int64],
    kind: NDArray[np.int64],
    keep: NDArray[np.int64],
    paired: NDArray[np.bool_],
    order: NDArray[np.int64],
    counts: NDArray[np.int64],
    named: NDArray[np.bool_],
    cards_named: NDArray[np.bool_] | None,
) -> None:
    """The draws asked for (``kind`` per round and seat: 1 a card added in the last place,
    2 an exchange), seat by seat in ``order``, each round from its deck at ``pos``: the
    cards held (``player``, ``dealt``: ``(rounds, seats, k)``) written into ``out`` and
    ``out_dealt`` (``(rounds, seats, k + 1)``, the last place no card but a card added). An
    exchange keeps the ``keep`` highest of the cards held, highest first (``paired``: where
    the hand holds a rank twice or more, the cards of such ranks instead; ``named``: the
    cards ``cards_named`` marks, in the order held, instead of either) and replaces the
    others by as many from the deck (a place past the deck's last card reads its last
    card); ``counts``: the cards each exchange replaced. The cards held are a word's bits
    (a card int is four times its rank's place plus its suit: a rank's cards a nibble),
    so that their order, the ranks held twice and the highest are a few operations on the
    word, no branch on the cards (they follow the deck: a branch on them would be
    mispredicted at every other card)."""
    n, seats, k = player.shape
    last = decks.shape[1] - 1  # the deck's last place, whatever the deck
    one, spread, top = np.uint64(1), np.uint64(_SPREAD), np.uint64(58)
    for r in range(n):
        for t in range(seats):
            for i in range(k):
                out[r, t, i] = player[r, t, i]
                out_dealt[r, t, i] = dealt[r, t, i]
            out[r, t, k] = -1
            out_dealt[r, t, k] = -1
        for s in order:
            kd = kind[r, s]
            if kd == 1:
                c = decks[r, pos[r]]
                out[r, s, k] = c
                out_dealt[r, s, k] = c
                pos[r] += 1
            elif kd == 2:
                x = np.uint64(0)  # the cards held; a place of no card is no card
                valid = np.int64(0)
                for i in range(k):
                    c = np.int64(player[r, s, i])
                    x |= np.uint64(c >= 0) << np.uint64(c & 63)
                    valid += c >= 0
                twice = _held_twice(x)
                kp, g = keep[r, s], valid
                if paired[r, s] and twice:
                    x = twice
                    kp = g = np.int64(_bits(np.int64(twice)))  # a card int is below 64
                for i in range(g, kp):  # more kept than held: places of no card
                    out[r, s, i] = -1
                # the cards, highest first (the lowest into the last place): those past
                # the ``kp`` kept are then dealt over
                while x:
                    g -= 1
                    low = x & (~x + one)
                    out[r, s, g] = _PLACE[(low * spread) >> top]
                    x ^= low
                if cards_named is not None:  # noqa: SIM102 (alone, numba compiles None out)
                    if named[r, s]:  # the cards the player named, as he holds them
                        kp = 0
                        for i in range(k):
                            if cards_named[r, s, i]:
                                out[r, s, kp] = player[r, s, i]
                                kp += 1
                counts[r, s] = k - kp
                for col in range(kp, k):
                    out[r, s, col] = decks[r, min(pos[r] + col - kp, last)]
                pos[r] += k - kp


@njit(cache=True)
def ask_draw(
    m: NDArray[np.bool_],
    option: int,
    kind: int,
    keep: NDArray[np.int64],
    paired: NDArray[np.bool_],
    named: NDArray[np.bool_],
    pending_option: NDArray[np.int64],
    pending_kind: NDArray[np.int64],
    pending_keep: NDArray[np.int64],
    pending_paired: NDArray[np.bool_],
    pending_named: NDArray[np.bool_],
) -> None:
    """A draw asked for at the lanes ``m`` holds (rounds × seats, flat), written into the
    pending draw's arrays there: the option's index, its kind, the cards kept (at least
    0), whether the pair is kept, whether the exchange names its cards."""
    for p in range(m.shape[0]):
        if m[p]:
            pending_option[p] = option
            pending_kind[p] = kind
            pending_keep[p] = max(keep[p], 0)
            pending_paired[p] = paired[p]
            pending_named[p] = named[p]
