"""The ranking primitives: each finds the best combination of cards that has a shape.

Every primitive reads a ``Hand`` (the cards, summarised once: rank groups, suits, rank
bit masks) and returns the best combination satisfying it as a tuple of cards, highest
ranks first (a run top card first, so A-2-3-4-5 is written 5-4-3-2-A), or ``None``.
"Best" is by the ranks of the combination compared highest first, which is how the chapters
order hands inside a category.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from validator.cache import PerObject
from validator.model.ranking import Category
from validator.vocabulary import RANKING_PRIMITIVE, meaning, meaning_of

SUIT_INDEX = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
COLORS = ((0, 3), (1, 2))  # black: clubs+spades; red: diamonds+hearts

Combo = tuple[int, ...]


class Hand:
    """A set of cards, summarised for the primitives."""

    __slots__ = ("by_rank", "by_suit", "cards", "groups", "mask", "suit_masks")

    def __init__(self, cards: Sequence[int]) -> None:
        self.cards: Combo = tuple(sorted(cards, reverse=True))  # ints sort by rank first
        by_rank: dict[int, list[int]] = {}
        by_suit: list[list[int]] = [[], [], [], []]
        mask = 0
        suit_masks = [0, 0, 0, 0]
        for c in self.cards:
            r, s = (c >> 2) + 2, c & 3
            by_rank.setdefault(r, []).append(c)
            by_suit[s].append(c)
            mask |= 1 << r
            suit_masks[s] |= 1 << r
        self.by_rank = by_rank
        self.by_suit = by_suit
        self.mask = mask
        self.suit_masks = suit_masks
        # rank groups, largest first then highest rank: (count, rank)
        self.groups = sorted(((len(v), r) for r, v in by_rank.items()), reverse=True)


#: a category's search: the best combination of a hand forming it (ace low or not), or None
Finder = Callable[[Hand, bool], Combo | None]


def _key(combo: Combo) -> Combo:
    return combo  # card ints order by rank first: comparing cards compares ranks


def _rank_key(combo: Combo) -> tuple[int, ...]:
    return tuple(c >> 2 for c in combo)


@cache
def _runs(n: int, ace_low: bool) -> tuple[tuple[int, int], ...]:
    """(top rank, bit mask) of every run of n ranks, highest first; the ace is bit 14 and,
    playing low, bit 1."""
    lowest_top = n if ace_low else n + 1
    return tuple((top, ((1 << n) - 1) << (top - n + 1)) for top in range(14, lowest_top - 1, -1))


def _low_ace(mask: int) -> int:
    return mask | 2 if mask & (1 << 14) else mask


def _run_cards(cards: Sequence[int], top: int, n: int) -> Combo:
    pick: dict[int, int] = {}
    for c in cards:  # highest first: keep the first card of each rank
        pick.setdefault((c >> 2) + 2, c)
    return tuple(pick[14 if r == 1 else r] for r in range(top, top - n, -1))


@meaning("scalar", RANKING_PRIMITIVE.id, "min_rank", "max_rank")
def of_a_kind(h: Hand, pattern: Sequence[int], lo: int, hi: int) -> Combo | None:
    if not h.groups or h.groups[0][0] < pattern[0]:
        return None
    ranks = sorted(h.by_rank, reverse=True)

    def search(i: int, used: tuple[int, ...]) -> Combo | None:
        if i == len(pattern):
            return ()
        for r in ranks:
            if r in used or len(h.by_rank[r]) < pattern[i] or (i == 0 and not lo <= r <= hi):
                continue
            rest = search(i + 1, (*used, r))
            if rest is not None:
                return tuple(h.by_rank[r][: pattern[i]]) + rest
        return None

    return search(0, ())


def flush(h: Hand, n: int, suit: int | None) -> Combo | None:
    best: Combo | None = None
    for s in range(4) if suit is None else (suit,):
        if len(h.by_suit[s]) >= n:
            combo = tuple(h.by_suit[s][:n])
            if best is None or _rank_key(combo) > _rank_key(best):
                best = combo
    return best


@meaning("scalar", RANKING_PRIMITIVE.id, "ace_low")
def _run(mask: int, cards: Sequence[int], n: int, ace_low: bool) -> Combo | None:
    m = _low_ace(mask) if ace_low else mask
    for top, run in _runs(n, ace_low):
        if m & run == run:
            return _run_cards(cards, top, n)
    return None


def straight(h: Hand, n: int, ace_low: bool) -> Combo | None:
    return _run(h.mask, h.cards, n, ace_low)


def _best_run(found: list[Combo]) -> Combo | None:
    return max(found, key=lambda c: c[0] >> 2) if found else None


def straight_flush(h: Hand, n: int, ace_low: bool, suit: int | None) -> Combo | None:
    found = [
        combo
        for s in (range(4) if suit is None else (suit,))
        if len(h.by_suit[s]) >= n and (combo := _run(h.suit_masks[s], h.by_suit[s], n, ace_low))
    ]
    return _best_run(found)


def same_color(h: Hand, n: int) -> Combo | None:
    best: Combo | None = None
    for a, b in COLORS:
        if len(h.by_suit[a]) + len(h.by_suit[b]) >= n:
            combo = tuple(sorted(h.by_suit[a] + h.by_suit[b], reverse=True)[:n])
            if best is None or _rank_key(combo) > _rank_key(best):
                best = combo
    return best


def same_color_straight(h: Hand, n: int, ace_low: bool) -> Combo | None:
    found = []
    for a, b in COLORS:
        cards = sorted(h.by_suit[a] + h.by_suit[b], reverse=True)
        if len(cards) >= n and (
            combo := _run(h.suit_masks[a] | h.suit_masks[b], cards, n, ace_low)
        ):
            found.append(combo)
    return _best_run(found)


@meaning("scalar", RANKING_PRIMITIVE.id, "suited")
def holds_ranks(h: Hand, ranks: Sequence[int], suited: bool, suit: int | None) -> Combo | None:
    """One card of each rank; with ``suited`` all of one suit (``suit`` if given)."""
    if not suited and suit is None:
        picked = []
        for r in ranks:
            if r not in h.by_rank:
                return None
            picked.append(h.by_rank[r][0])
        return tuple(sorted(picked, reverse=True))
    for s in range(4) if suit is None else (suit,):
        in_suit = {(c >> 2) + 2: c for c in h.by_suit[s]}
        if all(r in in_suit for r in ranks):
            return tuple(sorted((in_suit[r] for r in ranks), reverse=True))
    return None


# -- each shape's scalar meaning: given a category, the function finding it in a hand ------
#
# Registered on the shape's vocabulary entry and looked up once per category (``finder``):
# the category's numbers are read then, not for every hand.


@meaning("scalar", RANKING_PRIMITIVE.id, "suit")
def _suit(category: Category) -> int | None:
    return SUIT_INDEX[category.suit] if category.suit else None


@meaning("scalar", RANKING_PRIMITIVE.id, "of_a_kind")
def _find_of_a_kind(category: Category) -> Finder:
    pattern = tuple(category.of_a_kind or ())
    lo, hi = category.min_rank or 2, category.max_rank or 14
    return lambda h, ace_low: of_a_kind(h, pattern, lo, hi)


@meaning("scalar", RANKING_PRIMITIVE.id, "flush")
def _find_flush(category: Category) -> Finder:
    n, suit = category.flush or 0, _suit(category)
    return lambda h, ace_low: flush(h, n, suit)


@meaning("scalar", RANKING_PRIMITIVE.id, "straight")
def _find_straight(category: Category) -> Finder:
    n = category.straight or 0
    return lambda h, ace_low: straight(h, n, ace_low)


@meaning("scalar", RANKING_PRIMITIVE.id, "straight_flush")
def _find_straight_flush(category: Category) -> Finder:
    n, suit = category.straight_flush or 0, _suit(category)
    return lambda h, ace_low: straight_flush(h, n, ace_low, suit)


@meaning("scalar", RANKING_PRIMITIVE.id, "same_color")
def _find_same_color(category: Category) -> Finder:
    n = category.same_color or 0
    return lambda h, ace_low: same_color(h, n)


@meaning("scalar", RANKING_PRIMITIVE.id, "same_color_straight")
def _find_same_color_straight(category: Category) -> Finder:
    n = category.same_color_straight or 0
    return lambda h, ace_low: same_color_straight(h, n, ace_low)


@meaning("scalar", RANKING_PRIMITIVE.id, "ranks")
def _find_ranks(category: Category) -> Finder:
    ranks, suited, suit = tuple(category.ranks or ()), category.suited, _suit(category)
    return lambda h, ace_low: holds_ranks(h, ranks, suited, suit)


@meaning("scalar", RANKING_PRIMITIVE.id, "contains")
def _find_contains(category: Category) -> Finder:
    ranks, suited, suit = tuple(category.contains or ()), category.suited, _suit(category)
    return lambda h, ace_low: holds_ranks(h, ranks, suited, suit)


@meaning("scalar", RANKING_PRIMITIVE.id, "contains_any")
def _find_contains_any(category: Category) -> Finder:
    options = [tuple(o) for o in category.contains_any or ()]
    suited, suit = category.suited, _suit(category)

    def find_any(h: Hand, ace_low: bool) -> Combo | None:
        hits = [
            combo
            for option in options
            if (combo := holds_ranks(h, option, suited, suit)) is not None
        ]
        return max(hits, key=_rank_key) if hits else None

    return find_any


@meaning("scalar", RANKING_PRIMITIVE.id, "any")
def _find_any(category: Category) -> Finder:
    return lambda h, ace_low: ()


#: categories remembered before the memo of finders starts again (bounded memory where many
#: rankings are built, as the property tests do)
FINDERS_LIMIT = 1 << 12


def _finder(category: Category) -> Finder:
    found: Finder = meaning_of(RANKING_PRIMITIVE.id, category.shape, "scalar")(category)
    return found


#: The function finding ``category`` in a hand: the scalar meaning of its shape, read from
#: the shape's vocabulary entry the first time the category is asked for.
finder: PerObject[Category, Finder] = PerObject(_finder, FINDERS_LIMIT)


def find(category: Category, h: Hand, ace_low: bool) -> Combo | None:
    """The best combination of the hand's cards forming ``category``, or ``None``."""
    return finder(category)(h, ace_low)


def all_combinations(category: Category, cards: Sequence[int], ace_low: bool) -> list[Combo]:
    """Every combination of ``cards`` that forms ``category`` by itself (all its cards used)."""
    size = category.combination_size
    return [
        combo
        for sub in combinations(cards, size)
        if (combo := find(category, Hand(sub), ace_low)) is not None and len(combo) == size
    ]
