"""The order a tied part's excess goes in by card and suit (§ 553.10(i)(2)(ii)-(iv), §
553.12(j)(2)(ii)-(iv)), in a kernel: ``odd_chip_order`` places each tied seat, and the
explanation of a settlement reads the places it gave. Each tied hand is read as the cards it
uses, then the player's other cards, each group sorted by the tie rule's card key
(``card_keys``), compared highest or lowest first; equal sequences keep their seat order.

Which of two equal cards a hand uses decides the suit compared, so the cards are chosen as
the scalar evaluator chooses them: the first best choice of a hand of set parts (``use:``);
all of a hand of at most the ranking's size; a flush's cards of its suit; otherwise of each
rank of the best hand its highest suits (a low hand: its lowest ranks, each its lowest suit,
or where pairs must play the first best choice in ``itertools.combinations``' order). A
part whose hand is not read here (``spec[part, PRESENT]`` 0) keeps its table out of the
settlement kernel.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS, Flags, Ints
from validator.interpreter.poker.showdown import Splitter
from validator.rankings.evaluator import card_order_key, low_rank
from validator.rankings.packed import (
    COUNT_BITS,
    MAX_PACKED,
    SUIT_BITS,
    T_SUITED_FORMED,
    NotPackable,
    Tables,
    _next_combination,
    _read,
    _read_counts,
    packable,
    packed,
)

# -- a part's hand: indices into a row of ``spec`` ---------------------------------------------

PRESENT = 0  # 1: this module reads the part's hand
LOWEST = 1  # 1: the lowest card by suit gets the excess first; 0: the highest
LOW = 2  # 1: the hand's ranking is a low ranking (ace-to-five)
SIZE = 3  # the ranking's size: the most cards a hand uses
USE_OWN = 4  # use: exactly this many of the player's cards; -1: no ``use:``
USE_BOARD = 5  # use: exactly this many of the board's
OWN_FIRST = 6  # 1: the player's group is listed first (in ``use:``, else in ``cards:``)
WITH_OWN = 7  # 1: the hand reads the player's cards (no ``use:``)
WITH_BOARD = 8  # 1: the hand reads the board (no ``use:``)
SPEC = 9

#: the most choices ``_first_best_using`` reads of a hand's two parts (any k of at most
#: ``MAX_CARDS`` and of at most ``MAX_BOARD``)
_MOST_CHOICES = comb(MAX_CARDS, MAX_CARDS // 2) + comb(MAX_BOARD, MAX_BOARD // 2)
#: the rows of ``keys`` and ``spec`` (``settle.HIGH``, ``settle.LOW``)
_PARTS = 2
_HIGH = 0


@njit(cache=True)
def _sorted_into(values: Ints, n: int, lowest: bool, out: Ints, at: int) -> int:
    """``values[:n]`` into ``out[at:]`` highest (``lowest``: lowest) first; the next place."""
    for i in range(n):
        v = values[i]
        j = at + i
        while j > at and ((out[j - 1] > v) if lowest else (out[j - 1] < v)):
            out[j] = out[j - 1]
            j -= 1
        out[j] = v
    return at + n


@njit(cache=True)
def _choices(cards: Ints, n: int, k: int, out: Ints) -> int:
    """Each choice of ``k`` of ``cards[:n]`` in ``itertools.combinations``' order into a row
    of ``out``: its rank counts, its suits' ranks and its cards; how many choices."""
    idx = np.arange(max(k, 1), dtype=np.int64)
    m = 0
    more = True
    while more:
        counts = 0
        suits = 0
        chosen = 0
        for i in range(k):
            c = cards[idx[i]]
            counts += 1 << (COUNT_BITS * (c >> 2))
            suits |= 1 << (SUIT_BITS * (c & 3) + (c >> 2))
            chosen |= 1 << c
        out[m, 0] = counts
        out[m, 1] = suits
        out[m, 2] = chosen
        m += 1
        more = _next_combination(idx, k, n)
    return m


@njit(cache=True)
def _first_best_using(
    tables: Tables,
    first: Ints,
    n_first: int,
    k_first: int,
    second: Ints,
    n_second: int,
    k_second: int,
    choices: Ints,
) -> int:
    """The cards ``packed.best_pick_using`` picks: the first best choice in
    ``itertools.product``'s order over each part's choices, each part's read once."""
    n1 = _choices(first, n_first, k_first, choices)
    n2 = _choices(second, n_second, k_second, choices[n1:])
    size = k_first + k_second
    top = -1
    chosen = 0
    for a in range(n1):
        counts = choices[a, 0]
        suits = choices[a, 1]
        for b in range(n1, n1 + n2):
            key = _read_counts(tables, counts + choices[b, 0], suits | choices[b, 1], size)[0]
            if key > top:
                top = key
                chosen = choices[a, 2] | choices[b, 2]
    return chosen


@njit(cache=True)
def _used(
    tables: Tables,
    spec: Ints,
    own: Ints,
    n_own: int,
    board: Ints,
    n_board: int,
    hand: Ints,
    choices: Ints,
) -> int:
    """The cards the hand uses (bit c for card c); -1 where they cannot be read here.
    ``hand`` and ``choices``: scratch."""
    size = spec[SIZE]
    if spec[USE_OWN] >= 0:  # Omaha's two and three: the first best choice
        k_own = spec[USE_OWN]
        k_board = spec[USE_BOARD]
        if k_own + k_board > size or k_own > n_own or k_board > n_board:
            return -1
        if spec[OWN_FIRST] == 1:
            return _first_best_using(tables, own, n_own, k_own, board, n_board, k_board, choices)
        return _first_best_using(tables, board, n_board, k_board, own, n_own, k_own, choices)
    # the hand's cards as ``hand_value`` lists them
    n = int(np.int64(0))  # an int64 from the start: one compiled ``_first_best_using``
    for group in range(2):
        from_own = (group == 0) == (spec[OWN_FIRST] == 1)
        if from_own and spec[WITH_OWN] == 1:
            for i in range(n_own):
                hand[n] = own[i]
                n += 1
        elif not from_own and spec[WITH_BOARD] == 1:
            for j in range(n_board):
                hand[n] = board[j]
                n += 1
    if n <= size:  # every card plays
        out = 0
        for i in range(n):
            out |= 1 << hand[i]
        return out
    if n > MAX_PACKED:
        return -1
    if spec[LOW] == 1:
        distinct = 0
        for r in range(13):
            for i in range(n):
                if hand[i] >> 2 == r:
                    distinct += 1
                    break
        if distinct < size:  # pairs must play: the first best choice, in the order given
            return _first_best_using(tables, hand, n, size, hand, 0, 0, choices)
        out = 0
        taken = 0
        for low_rank in range(1, 14):  # the ace (rank 12) lowest, then the deuce up
            r = 12 if low_rank == 1 else low_rank - 2
            lowest = -1
            for i in range(n):
                c = hand[i]
                if c >> 2 == r and (lowest < 0 or c < lowest):
                    lowest = c
            if lowest >= 0:
                out |= 1 << lowest
                taken += 1
                if taken == size:
                    break
        return out
    key, _, suit, ranks = _read(tables, hand, n)
    if suit >= 0:  # a flush: the cards of its suit the suited table formed
        formed = tables[T_SUITED_FORMED][ranks]
        out = 0
        for i in range(n):
            c = hand[i]
            if c & 3 == suit and formed >> (c >> 2) & 1:
                out |= 1 << c
        return out
    # the ranks of a choice of ``size`` cards with the best key: each rank's highest suits
    held = 0
    for i in range(n):
        held |= 1 << hand[i]
    for a in range(_choices(hand, n, size, choices)):
        counts = choices[a, 0]
        if _read_counts(tables, counts, choices[a, 1], size)[0] != key:
            continue
        out = 0
        for r in range(13):
            left = (counts >> (COUNT_BITS * r)) & 7
            for s in range(3, -1, -1):  # spades, hearts, diamonds, clubs
                c = r << 2 | s
                if left > 0 and held >> c & 1:
                    out |= 1 << c
                    left -= 1
        return out
    return -1


@njit(cache=True)
def _before(seq: Ints, a: int, b: int, lowest: bool) -> bool:
    """Whether seat ``a``'s sequence comes before seat ``b``'s (a stable sort)."""
    for k in range(seq.shape[1]):
        x = seq[a, k]
        y = seq[b, k]
        if x != y:
            return x < y if lowest else x > y
    return a < b


@njit(cache=True)
def odd_chip_order(
    cards: Ints,
    ncards: Ints,
    board: Ints,
    nboard: int,
    tied: Flags,
    keys: Ints,
    spec: Ints,
    high_tables: Tables,
    low_tables: Tables,
    priority: Ints,
) -> bool:
    """Fill ``priority`` ([part, seat]: 0 first, -1 not ``tied``) with the order of the tied
    seats by card and suit; False where a part's hand is not read here."""
    n = tied.shape[1]
    width = cards.shape[1] + board.shape[0]
    seq = np.zeros((n, width), dtype=np.int64)
    hand = np.empty(width, dtype=np.int64)
    group = np.empty(width, dtype=np.int64)
    # each part's choices of a hand of set parts: at most C(8, 4) + C(5, 2) rows
    choices = np.empty((_MOST_CHOICES, 3), dtype=np.int64)
    for part in range(_PARTS):
        for i in range(n):
            priority[part, i] = -1
    for part in range(_PARTS):
        row = spec[part]
        count = 0
        for i in range(n):
            if tied[part, i]:
                count += 1
        if count == 0:
            continue
        if row[PRESENT] != 1:
            return False
        tables = high_tables if part == _HIGH else low_tables
        lowest = row[LOWEST] == 1
        key = keys[part]
        for i in range(n):
            if not tied[part, i]:
                continue
            own = cards[i]
            used = _used(tables, row, own, ncards[i], board, nboard, hand, choices)
            if used < 0:
                return False
            for k in range(width):
                seq[i, k] = 0
            m = int(np.int64(0))  # int64 from the start: one compiled ``_sorted_into``
            for c in range(52):
                if used >> c & 1:
                    group[m] = key[c]
                    m += 1
            at = _sorted_into(group, m, lowest, seq[i], int(np.int64(0)))
            m = int(np.int64(0))
            for j in range(ncards[i]):  # the player's other cards
                c = own[j]
                if not used >> c & 1:
                    group[m] = key[c]
                    m += 1
            _sorted_into(group, m, lowest, seq[i], at)
        for i in range(n):
            if not tied[part, i]:
                continue
            place = 0
            for j in range(n):
                if j != i and tied[part, j] and _before(seq, j, i, lowest):
                    place += 1
            priority[part, i] = place
    return True


# -- the arrays, compiled once per table ------------------------------------------------------

#: ``odd_chip_order``'s table arguments: (keys, spec, high part's tables, low part's tables)
OrderArrays = tuple[Ints, Ints, Tables, Tables]


def unread() -> OrderArrays:
    """The arrays of a table whose parts no hand is read for."""
    keys = np.zeros((_PARTS, 52), dtype=np.int64)
    return keys, np.zeros((_PARTS, SPEC), dtype=np.int64), _no_tables(), _no_tables()


def _no_tables() -> Tables:
    """Tables of the packed tables' types holding nothing, never read."""
    z1 = np.zeros(1, dtype=np.int64)
    return (np.zeros((1, 1, 1), dtype=np.int64), z1, z1, z1, z1, z1, z1, z1)


def compile_order(game: Game, splitter: Splitter) -> OrderArrays:
    """The table's arrays for ``odd_chip_order``: each part's card keys and tie rule, and
    the hand it reads (the low hand under the lowest card by suit, else the high hand)."""
    sd = game.definition.showdown
    assert sd is not None
    keys = np.zeros((_PARTS, 52), dtype=np.int64)
    spec = np.zeros((_PARTS, SPEC), dtype=np.int64)
    tables = [_no_tables(), _no_tables()]
    for part, name in enumerate(("high", "low")):
        lowest = splitter.tie_rule(name) == "lowest_card_by_suit"
        keys[part] = card_keys(splitter, name)
        spec[part, LOWEST] = lowest
        hand_id = sd.low if lowest else sd.high
        if hand_id is None:
            continue
        read = _hand_spec(game, hand_id)
        if read is None:
            continue
        spec[part] = read
        spec[part, LOWEST] = lowest
        tables[part] = packed(game.evaluator(hand_id)).tables
    return keys, spec, tables[0], tables[1]


def card_keys(splitter: Splitter, part: str) -> list[int]:
    """Each card's key for a tied part's excess (§ 553.10(i)(2)(ii)-(iv)): its rank (under
    the lowest card by suit its low rank, the ace lowest), then its suit by the game's card
    order; a greater key a higher card."""
    lowest = splitter.tie_rule(part) == "lowest_card_by_suit"
    keys = []
    for c in range(52):
        rank, suit = card_order_key(splitter.order, c)
        keys.append((low_rank(c) if lowest else rank) * 8 + suit)
    return keys


def _hand_spec(game: Game, hand_id: str) -> Ints | None:
    """A ``spec`` row for the hand, or None where ``_used`` cannot read the cards it uses (a
    ranking the tables cannot hold, a hand of fewer cards than its size, other groups)."""
    hd = game.hand(hand_id)
    ev = game.evaluator(hand_id)
    ranking = ev.ranking
    if ranking.tiebreak != "grouped" or packable(ranking) is not None:
        return None
    try:
        packed(ev)
    except NotPackable:
        return None
    row = np.zeros(SPEC, dtype=np.int64)
    row[PRESENT] = 1
    row[LOW] = ranking.low is not None
    row[SIZE] = ranking.size
    row[USE_OWN] = -1
    known = {"player", "board"}
    if hd.use is not None:
        if len(hd.use) != 2 or set(hd.use) != known:
            return None
        row[USE_OWN] = hd.use["player"]
        row[USE_BOARD] = hd.use["board"]
        row[OWN_FIRST] = next(iter(hd.use)) == "player"
        return row
    if not set(hd.cards) <= known or len(set(hd.cards)) != len(hd.cards):
        return None
    row[WITH_OWN] = "player" in hd.cards
    row[WITH_BOARD] = "board" in hd.cards
    row[OWN_FIRST] = not hd.cards or hd.cards[0] == "player"
    return row
