"""The ranking primitives: each finds the best combination of cards that has a shape.

Every primitive reads a ``Hand`` (the cards, summarised once: rank groups, suits, rank
bit masks) and returns the best combination satisfying it as a tuple of cards, highest
ranks first (a run top card first, so A-2-3-4-5 is written 5-4-3-2-A), or ``None``.
"Best" is by the ranks of the combination compared highest first, which is how the chapters
order hands inside a category.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from validator.model.ranking import Category
from validator.vocabulary import RANKING_PRIMITIVE, meaning

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


@meaning("scalar", RANKING_PRIMITIVE.id, "of_a_kind", "min_rank", "max_rank")
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


@meaning("scalar", RANKING_PRIMITIVE.id, "flush")
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


@meaning("scalar", RANKING_PRIMITIVE.id, "straight")
def straight(h: Hand, n: int, ace_low: bool) -> Combo | None:
    return _run(h.mask, h.cards, n, ace_low)


def _best_run(found: list[Combo]) -> Combo | None:
    return max(found, key=lambda c: c[0] >> 2) if found else None


@meaning("scalar", RANKING_PRIMITIVE.id, "straight_flush")
def straight_flush(h: Hand, n: int, ace_low: bool, suit: int | None) -> Combo | None:
    found = [
        combo
        for s in (range(4) if suit is None else (suit,))
        if len(h.by_suit[s]) >= n and (combo := _run(h.suit_masks[s], h.by_suit[s], n, ace_low))
    ]
    return _best_run(found)


@meaning("scalar", RANKING_PRIMITIVE.id, "same_color")
def same_color(h: Hand, n: int) -> Combo | None:
    best: Combo | None = None
    for a, b in COLORS:
        if len(h.by_suit[a]) + len(h.by_suit[b]) >= n:
            combo = tuple(sorted(h.by_suit[a] + h.by_suit[b], reverse=True)[:n])
            if best is None or _rank_key(combo) > _rank_key(best):
                best = combo
    return best


@meaning("scalar", RANKING_PRIMITIVE.id, "same_color_straight")
def same_color_straight(h: Hand, n: int, ace_low: bool) -> Combo | None:
    found = []
    for a, b in COLORS:
        cards = sorted(h.by_suit[a] + h.by_suit[b], reverse=True)
        if len(cards) >= n and (
            combo := _run(h.suit_masks[a] | h.suit_masks[b], cards, n, ace_low)
        ):
            found.append(combo)
    return _best_run(found)


@meaning("scalar", RANKING_PRIMITIVE.id, "ranks", "contains", "contains_any", "suited")
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


@meaning("scalar", RANKING_PRIMITIVE.id, "any", "suit")
def find(category: Category, h: Hand, ace_low: bool) -> Combo | None:
    """The best combination of the hand's cards forming ``category``, or ``None``."""
    suit = SUIT_INDEX[category.suit] if category.suit else None
    match category.shape:
        case "of_a_kind":
            return of_a_kind(
                h, category.of_a_kind or (), category.min_rank or 2, category.max_rank or 14
            )
        case "flush":
            return flush(h, category.flush or 0, suit)
        case "straight":
            return straight(h, category.straight or 0, ace_low)
        case "straight_flush":
            return straight_flush(h, category.straight_flush or 0, ace_low, suit)
        case "same_color":
            return same_color(h, category.same_color or 0)
        case "same_color_straight":
            return same_color_straight(h, category.same_color_straight or 0, ace_low)
        case "ranks":
            return holds_ranks(h, category.ranks or (), category.suited, suit)
        case "contains":
            return holds_ranks(h, category.contains or (), category.suited, suit)
        case "contains_any":
            hits = [
                combo
                for option in category.contains_any or ()
                if (combo := holds_ranks(h, option, category.suited, suit)) is not None
            ]
            return max(hits, key=_rank_key) if hits else None
        case "any":
            return ()
    raise AssertionError(category.shape)  # pragma: no cover


def all_combinations(category: Category, cards: Sequence[int], ace_low: bool) -> list[Combo]:
    """Every combination of ``cards`` that forms ``category`` by itself (all its cards used)."""
    size = category.combination_size
    return [
        combo
        for sub in combinations(cards, size)
        if (combo := find(category, Hand(sub), ace_low)) is not None and len(combo) == size
    ]
