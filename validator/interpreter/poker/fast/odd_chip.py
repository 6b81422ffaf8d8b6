"""The order a tied part's excess goes in by card and suit (§ 553.10(i)(2)(ii)-(iv), §
553.12(j)(2)(ii)-(iv)), in a kernel: ``odd_chip_order`` places each tied seat, and the
explanation of a settlement reads the places it gave. Each tied hand is read as the cards it
uses, then the player's other cards, each group sorted by the tie rule's card key
(``card_keys``, negated where the highest card goes first), compared lowest first; equal
sequences keep their seat order.

Which of two equal cards a hand uses decides the suit compared, so the cards are chosen as
the scalar evaluator chooses them: the first best choice of a hand of set parts (``use:``),
each part in play order (highest first; a low hand lowest first, the ace lowest), so that
the order the cards are listed in never decides; all of a hand of at most the ranking's
size; otherwise the first best choice of its cards sorted highest first, so that of equal
ranks the highest suits play (a low hand: lowest first, the ace lowest, its lowest suits;
where its pairs must play, of its cards in the order given). A part whose hand is not read here
(``spec[part, PRESENT]`` 0) keeps its table out of the settlement kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from validator.compiler import Game
from validator.interpreter.poker.fast import Flags, Ints
from validator.interpreter.poker.showdown import Splitter
from validator.rankings.evaluator import card_order_key, low_rank
from validator.rankings.packed import (
    COUNT_BITS,
    MAX_PACKED,
    SUIT_BITS,
    NotPackable,
    Tables,
    _bits,
    _next_combination,
    _read,
    _read_counts,
    best_key_using,
    flat_tables,
    packable,
    packed,
)

# -- a part's hand: indices into a row of ``spec`` ---------------------------------------------

PRESENT = 0  # 1: this module reads the part's hand
LOW = 1  # 1: the hand's ranking is a low ranking (ace-to-five)
SIZE = 2  # the ranking's size: the most cards a hand uses
USE_OWN = 3  # use: exactly this many of the player's cards; -1: no ``use:``
USE_BOARD = 4  # use: exactly this many of the board's
OWN_FIRST = 5  # 1: the player's group is listed first (in ``use:``, else in ``cards:``)
WITH_OWN = 6  # 1: the hand reads the player's cards (no ``use:``)
WITH_BOARD = 7  # 1: the hand reads the board (no ``use:``)
SPEC = 8

#: the rows of ``keys`` and ``spec`` (``settle.HIGH``, ``settle.LOW``)
_PARTS = 2
_HIGH = 0


@njit(cache=True)
def _first_best(
    tables: Tables,
    first: Ints,
    n_first: int,
    k_first: int,
    second: Ints,
    n_second: int,
    k_second: int,
    best: int,
) -> int:
    """The cards (bit c for card c) of the first choice whose key is ``best`` (the best
    hand's: ``Evaluator.best_using``'s choice, ``packed.best_pick_using``'s) in
    ``itertools.product``'s order over each part's ``itertools.combinations``; -1: none."""
    if k_first > n_first or k_second > n_second:
        return -1
    a = np.arange(max(k_first, 1), dtype=np.int64)
    b = np.empty(max(k_second, 1), dtype=np.int64)
    more_a = True
    while more_a:
        for j in range(b.shape[0]):
            b[j] = j
        more_b = True
        while more_b:
            counts = 0
            suits = 0
            chosen = 0
            for i in range(k_first + k_second):
                c = first[a[i]] if i < k_first else second[b[i - k_first]]
                counts += 1 << (COUNT_BITS * (c >> 2))
                suits |= 1 << (SUIT_BITS * (c & 3) + (c >> 2))
                chosen |= 1 << c
            if _read_counts(tables, counts, suits, k_first + k_second)[0] == best:
                return chosen
            more_b = _next_combination(b, k_second, n_second)
        more_a = _next_combination(a, k_first, n_first)
    return -1


@njit(cache=True)
def _in_play_order(cards: Ints, n: int, low: bool, out: Ints) -> int:
    """``cards[:n]`` into ``out`` in the order their equal ranks play (``Evaluator``'s
    ``_play_order``): highest first, the highest suits; a low hand lowest first, the ace
    lowest, the lowest suits. Their count."""
    held = 0
    for i in range(n):
        held |= 1 << cards[i]
    m = 0
    for place in range(52):
        c = ((place >> 2) + 12) % 13 * 4 + place % 4 if low else 51 - place
        if held >> c & 1:
            out[m] = c
            m += 1
    return m


@njit(cache=True)
def _used(
    tables: Tables, spec: Ints, own: Ints, n_own: int, board: Ints, n_board: int, hand: Ints
) -> int:
    """The cards the hand uses (bit c for card c); -1 where they cannot be read here.
    ``hand``: scratch."""
    size = spec[SIZE]
    if spec[USE_OWN] >= 0:  # Omaha's two and three: the first best choice, in play order
        k_own, k_board = spec[USE_OWN], spec[USE_BOARD]
        if k_own + k_board > size:
            return -1
        best = best_key_using(tables, own, n_own, board, n_board, k_own, k_board)
        low = spec[LOW] == 1
        n_mine = _in_play_order(own, n_own, low, hand)
        mine, theirs = hand[:n_mine], hand[n_mine:]
        n_theirs = _in_play_order(board, n_board, low, theirs)
        if spec[OWN_FIRST] == 1:
            return _first_best(tables, mine, n_mine, k_own, theirs, n_theirs, k_board, best)
        return _first_best(tables, theirs, n_theirs, k_board, mine, n_mine, k_own, best)
    # the hand's cards as ``hand_value`` lists them
    n = int(np.int64(0))  # an int64 from the start: one compiled ``_first_best``
    for group in range(2):
        if (group == 0) == (spec[OWN_FIRST] == 1):
            cards, count = own, n_own * spec[WITH_OWN]
        else:
            cards, count = board, n_board * spec[WITH_BOARD]
        hand[n : n + count] = cards[:count]
        n += count
    held = 0
    for i in range(n):
        held |= 1 << hand[i]
    if n <= size:  # every card plays
        return held
    if n > MAX_PACKED:
        return -1
    distinct = 0
    for r in range(13):
        distinct += (held >> (4 * r) & 15) != 0
    if spec[LOW] == 1 and distinct >= size:  # no pair plays: the lowest ranks, lowest suits
        out = 0
        for place in range(52):  # the ace lowest, then the deuce up; each rank's suits upward
            c = ((place >> 2) + 12) % 13 * 4 + place % 4
            if held >> c & 1 and not out >> (c & ~3) & 15 and _bits(out) < size:
                out |= 1 << c
        return out
    if spec[LOW] != 1:  # the cards highest first, so that of equal ranks the highest suits play
        n = int(np.int64(0))
        for c in range(51, -1, -1):
            if held >> c & 1:
                hand[n] = c
                n += 1
    # the first best choice (a low hand whose pairs must play: of its cards in the order given)
    none = int(np.int64(0))  # no second part: an int64, not a literal (one ``_first_best``)
    return _first_best(tables, hand, n, size, hand, none, none, _read(tables, hand, n)[0])


@njit(cache=True)
def _before(seq: Ints, a: int, b: int) -> bool:
    """Whether seat ``a``'s sequence comes before seat ``b``'s (a stable sort)."""
    for k in range(seq.shape[1]):
        if seq[a, k] != seq[b, k]:
            return seq[a, k] < seq[b, k]
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
    priority[:, :] = -1
    for part in range(_PARTS):
        row = spec[part]
        if not tied[part].any():
            continue
        if row[PRESENT] != 1:
            return False
        tables = high_tables if part == _HIGH else low_tables
        key = keys[part]
        for i in range(n):
            if not tied[part, i]:
                continue
            own = cards[i]
            used = _used(tables, row, own, ncards[i], board, nboard, hand)
            if used < 0:
                return False
            owned = 0
            for j in range(ncards[i]):
                owned |= 1 << own[j]
            at = 0
            for chosen in (used, owned & ~used):  # the cards used, then the player's others
                m = at
                for c in range(52):  # each key put in its place, ascending from ``at``
                    if chosen >> c & 1:
                        j = m
                        while j > at and seq[i, j - 1] > key[c]:
                            seq[i, j] = seq[i, j - 1]
                            j -= 1
                        seq[i, j] = key[c]
                        m += 1
                at = m
            seq[i, at:] = 0
        for i in range(n):
            if not tied[part, i]:
                continue
            place = 0
            for j in range(n):
                if j != i and tied[part, j] and _before(seq, j, i):
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
    """Tables of a ranking holding nothing, never read."""
    z1 = np.zeros(1, dtype=np.int64)
    return flat_tables((np.zeros((1, 1, 1), dtype=np.int64), z1, z1, z1, z1, z1, z1, z1))


def compile_order(game: Game, splitter: Splitter) -> OrderArrays:
    """The table's arrays for ``odd_chip_order``: each part's card keys (negated where the
    highest card by suit goes first, so that every part is ordered lowest first) and the
    hand it reads (the low hand under the lowest card by suit, else the high hand)."""
    sd = game.definition.showdown
    assert sd is not None
    keys, spec, *tables = unread()
    for part, name in enumerate(("high", "low")):
        ties = splitter.odd.low_ties if name == "low" else splitter.odd.high_ties
        lowest = ties == "lowest_card_by_suit"
        keys[part] = np.array(card_keys(splitter, name)) * (1 if lowest else -1)
        hand_id = sd.low if lowest else sd.high
        if hand_id is not None and (read := _hand_spec(game, hand_id)) is not None:
            spec[part] = read
            tables[part] = packed(game.evaluator(hand_id)).tables
    return keys, spec, tables[0], tables[1]


def card_keys(splitter: Splitter, part: str) -> list[int]:
    """Each card's key for a tied part's excess (§ 553.10(i)(2)(ii)-(iv)): its rank (under
    the lowest card by suit its low rank, the ace lowest), then its suit by the game's card
    order; a greater key a higher card."""
    ties = splitter.odd.low_ties if part == "low" else splitter.odd.high_ties
    lowest = ties == "lowest_card_by_suit"
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
        row[USE_OWN], row[USE_BOARD] = hd.use["player"], hd.use["board"]
        row[OWN_FIRST] = next(iter(hd.use)) == "player"
        return row
    if not set(hd.cards) <= known or len(set(hd.cards)) != len(hd.cards):
        return None
    row[WITH_OWN] = "player" in hd.cards
    row[WITH_BOARD] = "board" in hd.cards
    row[OWN_FIRST] = not hd.cards or hd.cards[0] == "player"
    return row
