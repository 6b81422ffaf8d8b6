"""A generic hand evaluator, driven only by a ranking's data.

``best`` finds the best hand for comparing against another hand (the chapters' "select the
cards that form the highest possible ranking hand"), ``paying`` finds the paytable row a set
of cards is paid on, ``holds`` lists every category a set of cards holds (Lunar Poker's
second combination, § 589.11(e)(1)(ii)).

``best`` builds the best hand directly: the highest category the cards hold, its best
combination, then the highest remaining cards as kickers. ``best_by_subsets`` is the
definition itself (every ``size``-card subset, the highest wins); the tests hold the two
to agree.

A rank pattern's table: where no category that reads suits can be held (no suit, nor
colour, with as many cards as the least such category needs), the best hand is decided by
the ranks alone, and which cards it uses by their places among the cards sorted high to
low (of two cards of a rank, the primitives take the higher suit first). So the search is
run once per rank pattern and its answer kept as places (``Pattern``); every later hand of
that pattern reads it. The ranking data stays the only definition: the table holds
nothing the search did not answer, and the tests hold the two equal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from validator.cache import PerObject
from validator.cards import cards_str, rank_of, suit_of
from validator.model.ranking import CardOrder, Category, Ranking
from validator.model.rows import paid_row
from validator.rankings.primitives import COLORS, SUIT_INDEX, Combo, Hand, find
from validator.vocabulary import RANKING_PRIMITIVE, meaning

#: hand values remembered per evaluator before the memo starts again (bounded memory)
MEMO_LIMIT = 1 << 17

STRAIGHT_SHAPES = frozenset({"straight", "straight_flush", "same_color_straight"})


@dataclass(frozen=True, slots=True)
class HandValue:
    """The best hand a set of cards makes under one ranking."""

    ranking: str
    category: str  # the ranking category it compares as (refinements folded)
    name: str
    key: tuple[int, ...]  # compare keys of two HandValues of the same ranking
    cards: Combo  # the cards of the best hand (at most the ranking's size)
    combination: Combo  # the cards that form the category

    def __str__(self) -> str:
        return f"{self.name} ({cards_str(self.cards)})"


class Evaluator:
    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        self.categories = ranking.categories
        self.ace_low = ranking.ace_low
        self._by_id = {c.id: c for c in self.categories}
        self._refines = {c.id: c.refines for c in self.categories}
        top = len(self.categories)
        self._strength = {c.id: top - i for i, c in enumerate(self.categories)}
        for c in self.categories:  # refinements compare as their parent category
            self._strength[c.id] = self._strength[self.parent(c).id]
        self._comparing = [c for c in self.categories if c.refines is None]
        self._shape = {c.id: c.shape for c in self.categories}
        # the best hand of a set of cards, remembered: a poker session values the same
        # cards many times (every action of a street, the showdown, the Bad Beat)
        self._best: dict[tuple[int, ...], HandValue] = {}
        self._best_using: dict[tuple[tuple[tuple[int, ...], int], ...], HandValue] = {}
        # the rank patterns' answers (see the module's doc), and when a hand may use them
        self._patterns: dict[tuple[int, ...], Pattern] = {}
        self._suit_need, self._color_need = suit_needs(self.categories)
        # the categories a hand whose suits are idle may hold: those reading no suit
        self._rank_comparing = [c for c in self._comparing if suit_needs([c]) == (NO_NEED, NO_NEED)]
        self._low = ranking.low is not None
        self._size = ranking.size

    @meaning("scalar", RANKING_PRIMITIVE.id, "refines")
    def parent(self, category: Category) -> Category:
        """The ranking category a refinement belongs to (itself if it refines nothing)."""
        while category.refines is not None:
            category = self._by_id[category.refines]
        return category

    def category(self, category_id: str) -> Category:
        return self._by_id[category_id]

    def chain(self, category: Category) -> tuple[str, ...]:
        """The category and every category it refines, nearest first: a hand of four aces
        is four aces and four-of-a-kind (a condition ``is: four_of_a_kind`` holds for it)."""
        out = [category.id]
        while category.refines is not None:
            category = self._by_id[category.refines]
            out.append(category.id)
        return tuple(out)

    def strength(self, category_id: str) -> int:
        return self._strength[category_id]

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.categories]

    # -- which categories a set of cards holds -------------------------------------------

    def held(self, cards: Sequence[int] | Hand) -> tuple[Category, Combo]:
        """The highest category the cards hold (refinements included) and its combination."""
        h = cards if isinstance(cards, Hand) else Hand(cards)
        for c in self.categories:
            combo = find(c, h, self.ace_low)
            if combo is not None:
                return c, combo
        raise ValueError(f"ranking {self.ranking.id!r} has no category for {cards_str(h.cards)}")

    def holds(self, cards: Sequence[int]) -> list[tuple[Category, Combo]]:
        """Every category the cards hold, highest first, each with its best combination."""
        h = Hand(cards)
        return [
            (c, combo) for c in self.categories if (combo := find(c, h, self.ace_low)) is not None
        ]

    def paying(self, cards: Sequence[int], rows: Mapping[str, object]) -> Category | None:
        """The paytable row the cards are paid on, or ``None``.

        The hand's category is the highest it holds. A refinement the paytable has no row for
        is paid as its parent (four aces in a table without a four-aces row is paid as
        four-of-a-kind; a six-card royal flush where no six-card row is printed as the royal
        flush it contains). A hand whose row is absent or ``N/A`` is not paid.
        """
        return self.row_for(self.held(cards)[0], rows)

    def row_for(self, category: Category, rows: Mapping[str, object]) -> Category | None:
        """The row a hand of ``category`` is paid on (``paid_row``), or ``None`` where none
        applies or the row is ``N/A``."""
        row_id = paid_row(category.id, self._refines, rows)
        if row_id is None or getattr(rows[row_id], "pays", True) is False:
            return None
        return self._by_id[row_id]

    # -- the best hand, for comparisons ----------------------------------------------------

    def best(self, cards: Sequence[int]) -> HandValue:
        """The best hand the cards make. Remembered by card set: the value does not depend on
        the order the cards are given in, except a low hand of more cards than it uses with
        pairs that must play, whose tied subsets keep the order given (remembered so)."""
        low = self._low
        key = tuple(cards) if low and len(cards) > self._size else tuple(sorted(cards))
        value = self._best.get(key)
        if value is None:
            if len(self._best) >= MEMO_LIMIT:
                self._best.clear()
            value = self._best[key] = self.by_pattern(cards)
        return value

    def searched(self, cards: Sequence[int]) -> HandValue:
        """The best hand by the plain search over the categories (no table, no memo)."""
        return self._best_low(cards) if self._low else self._best_high(cards)

    def by_pattern(self, cards: Sequence[int]) -> HandValue:
        """The best hand read from its rank pattern's table where the suits cannot matter
        (the search run, and its answer kept, on the pattern's first hand); else searched."""
        ordered = sorted(cards, reverse=True)
        ranks = tuple(c >> 2 for c in ordered)
        if self._low and len(ordered) > self._size and len(set(ranks)) < self._size:
            return self._best_low(cards)  # pairs must play: the order given breaks ties
        if not self.suits_idle(ordered):
            return self.searched(cards)
        known = self._patterns.get(ranks)
        if known is not None:
            category, name, key, used, formed = known
            return HandValue(
                self.ranking.id,
                category,
                name,
                key,
                tuple([ordered[i] for i in used]),
                tuple([ordered[i] for i in formed]),
            )
        # the categories that read suits cannot be held: they are not searched
        value = self._best_low(cards) if self._low else self._best_high(cards, self._rank_comparing)
        if len(self._patterns) >= MEMO_LIMIT:
            self._patterns.clear()
        place = {c: i for i, c in enumerate(ordered)}
        self._patterns[ranks] = (
            value.category,
            value.name,
            value.key,
            tuple(place[c] for c in value.cards),
            tuple(place[c] for c in value.combination),
        )
        return value

    def suits_idle(self, cards: Sequence[int]) -> bool:
        """Whether no category that reads suits can be held by ``cards``: no suit, nor
        colour, has as many of them as the least such category needs."""
        n = len(cards)
        if n < self._suit_need and n < self._color_need:
            return True
        counts = [0, 0, 0, 0]
        for c in cards:
            counts[c & 3] += 1
        (a, b), (c2, d) = COLORS
        return (
            max(counts) < self._suit_need
            and max(counts[a] + counts[b], counts[c2] + counts[d]) < self._color_need
        )

    def _best_high(
        self, cards: Sequence[int], categories: Sequence[Category] | None = None
    ) -> HandValue:
        h = Hand(cards)
        for c in self._comparing if categories is None else categories:
            combo = find(c, h, self.ace_low)
            if combo is not None:
                room = self.ranking.size - len(combo)
                kickers = tuple(x for x in h.cards if x not in combo)[:room] if room > 0 else ()
                if self.ranking.tiebreak == "combination":
                    kickers = ()
                return self._value(c, combo, combo + kickers)
        raise ValueError(f"ranking {self.ranking.id!r} has no category for {cards_str(h.cards)}")

    def best_by_subsets(self, cards: Sequence[int]) -> HandValue:
        """The definition of the best hand: the highest of every ``size``-card subset."""
        size = self.ranking.size
        subsets = [tuple(cards)] if len(cards) <= size else combinations(cards, size)
        if self.ranking.low is not None:
            return max((self._low_value(sub) for sub in subsets), key=lambda v: v.key)
        values = []
        for sub in subsets:
            h = Hand(sub)
            c = next(c for c in self._comparing if find(c, h, self.ace_low) is not None)
            combo = find(c, h, self.ace_low) or ()
            hand = h.cards if self.ranking.tiebreak == "grouped" else combo
            values.append(self._value(c, combo, hand))
        return max(values, key=lambda v: v.key)

    @meaning("scalar", RANKING_PRIMITIVE.id, "tiebreak")
    def _value(self, c: Category, combo: Combo, hand: Combo) -> HandValue:
        shape = self._shape[c.id]
        if self.ranking.tiebreak == "combination":
            tiebreak: tuple[int, ...] = tuple(rank_of(x) for x in combo)
        elif shape in STRAIGHT_SHAPES:
            tiebreak = (rank_of(combo[0]),)  # a run is written top first: 5-4-3-2-A tops at 5
        elif shape == "any":  # high card: the cards, highest first
            tiebreak = tuple(sorted((rank_of(x) for x in hand), reverse=True))
        elif shape != "of_a_kind":  # the combination, then the kickers
            kick = sorted((x for x in hand if x not in combo), reverse=True)
            tiebreak = tuple(rank_of(x) for x in (*sorted(combo, reverse=True), *kick))
        else:  # rank groups, largest first, then by rank: the pair, then the kickers
            ranks = [rank_of(x) for x in hand]
            counts: dict[int, int] = {}
            for r in ranks:
                counts[r] = counts.get(r, 0) + 1
            tiebreak = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
        ordered = combo + tuple(sorted((x for x in hand if x not in combo), reverse=True))
        return HandValue(
            self.ranking.id, c.id, c.name, (self._strength[c.id], *tiebreak), ordered, combo
        )

    def best_using(self, parts: Sequence[tuple[Sequence[int], int]]) -> HandValue:
        """The best hand made of exactly ``n`` cards from each part: Omaha's two of the four
        hole cards and three of the five community cards (§ 553.12(j))."""
        for cards, n in parts:
            if len(cards) < n:
                raise ValueError(f"{n} cards must be used from {len(cards)}: {cards_str(cards)}")
        # each part in the order its equal ranks play (the highest suits; a low hand's lowest,
        # the ace lowest), so that which of two equal cards plays, and so the suit the odd
        # chip compares (§ 553.12(j)(2)(ii)-(iii)), never depends on the order cards are listed
        key = tuple((tuple(sorted(cards, key=self._play_order)), n) for cards, n in parts)
        known = self._best_using.get(key)
        if known is not None:
            return known
        if len(self._best_using) >= MEMO_LIMIT:
            self._best_using.clear()
        top: tuple[int, ...] | None = None
        chosen: list[int] = []
        for picks in product(*(combinations(cards, n) for cards, n in key)):
            cards_used = [c for pick in picks for c in pick]
            k = self.key_of(cards_used)
            if top is None or k > top:  # the first of equal hands, in play order
                top, chosen = k, cards_used
        best = self._best_using[key] = self.best(chosen)
        return best

    def _play_order(self, card: int) -> tuple[int, int]:
        """Where a card sorts when a hand's cards are chosen: highest first, so that of equal
        ranks the highest suit plays; for a low hand lowest first, the ace lowest, the lowest
        suit first (as ``_best_low`` keeps the lowest suit of each rank)."""
        if self._low:
            return low_rank(card), suit_of(card)
        return -card, 0

    def key_of(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The compare key of the best hand the cards make: read from the rank pattern's
        table when it holds the answer, without building the hand; else ``best(cards).key``."""
        if not (self._low and len(cards) > self._size):
            ordered = sorted(cards, reverse=True)
            if self.suits_idle(ordered):
                known = self._patterns.get(tuple([c >> 2 for c in ordered]))
                if known is not None:
                    return known[2]
        return self.best(cards).key

    # -- low hands: the inverse of the High order, the ace below the 2 (§ 553.4(c), (d)) --

    @meaning("scalar", RANKING_PRIMITIVE.id, "low")
    def _best_low(self, cards: Sequence[int]) -> HandValue:
        """The lowest five distinct ranks make the best low whenever there are five; the
        lowest suit is kept of each rank (the low odd chip goes by the lowest card by suit,
        § 553.10(i)(2)(iii)). With fewer distinct ranks, pairs must play: every subset."""
        size = self.ranking.size
        lowest: dict[int, int] = {}
        for c in sorted(cards, key=lambda c: (low_rank(c), suit_of(c))):
            lowest.setdefault(low_rank(c), c)
        if len(lowest) >= size or len(cards) <= size:
            if len(lowest) >= size:
                return self._low_value(tuple(lowest.values())[:size])
            return self._low_value(tuple(cards))
        return self.best_by_subsets(cards)

    def _low_value(self, hand: Sequence[int]) -> HandValue:
        h = Hand(hand)
        c = next(c for c in self._comparing if find(c, h, False) is not None)
        counts = Counter(low_rank(x) for x in hand)
        order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        tiebreak = tuple(r for r in order for _ in range(counts[r]))
        # the lowest High hand is the best low: negate, so that a higher key is a better low
        key = (-self._strength[c.id], *(-r for r in tiebreak))
        cards = tuple(
            sorted(hand, key=lambda x: (counts[low_rank(x)], low_rank(x), suit_of(x)), reverse=True)
        )
        combination = tuple(x for x in cards if counts[low_rank(x)] > 1)
        return HandValue(self.ranking.id, c.id, c.name, key, cards, combination)

    @meaning("scalar", RANKING_PRIMITIVE.id, "qualifiers")
    def qualifies(self, value: HandValue, qualifier_id: str) -> bool:
        """Whether a hand meets one of the ranking's qualifiers ("eight or better":
        no pair and no card above an eight, § 553.10(j))."""
        q = self.ranking.qualifiers[qualifier_id]
        if not self.at_least(value, q.at_least):
            return False
        if q.max_rank is None:
            return True
        top = max(low_rank(x) if self.ranking.low else rank_of(x) for x in value.cards)
        return top <= q.max_rank

    def compare(self, a: Sequence[int] | HandValue, b: Sequence[int] | HandValue) -> int:
        """1 if a ranks higher, -1 if lower, 0 for a tie."""
        ka = (a if isinstance(a, HandValue) else self.best(a)).key
        kb = (b if isinstance(b, HandValue) else self.best(b)).key
        return (ka > kb) - (ka < kb)

    def at_least(self, value: HandValue, category_id: str) -> bool:
        """Whether a hand ranks at least as high as the lowest hand of ``category_id``."""
        if self.ranking.low is not None:
            return value.key[0] >= -self._strength[category_id]
        return value.key[0] >= self._strength[category_id]


#: A rank pattern's best hand: category id, name, compare key, and the places (among the
#: cards sorted high to low) of the hand's cards and of its combination.
Pattern = tuple[str, str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]

NO_NEED = 1 << 8  # more cards than any hand holds


def suit_needs(categories: Sequence[Category]) -> tuple[int, int]:
    """The fewest cards of one suit, and of one colour, with which any of ``categories``
    that reads suits can be held (``NO_NEED`` where none reads them). A category that
    reads no suit (pairs, straights, high card, unsuited ranks) needs none."""
    suit_need = color_need = NO_NEED
    for c in categories:
        match c.shape:
            case "flush":
                suit_need = min(suit_need, c.flush or 0)
            case "straight_flush":
                suit_need = min(suit_need, c.straight_flush or 0)
            case "same_color":
                color_need = min(color_need, c.same_color or 0)
            case "same_color_straight":
                color_need = min(color_need, c.same_color_straight or 0)
            case "ranks" | "contains" | "contains_any" if c.suited or c.suit is not None:
                suit_need = min(suit_need, max(c.combination_size, 1))
    return suit_need, color_need


def low_rank(card: int) -> int:
    """A card's rank where the ace ranks below the 2 (1..13)."""
    r = rank_of(card)
    return 1 if r == 14 else r


def _places(order: CardOrder) -> tuple[dict[int, int], dict[int, int]]:
    """Each rank's and each suit's place in ``order`` (higher is higher)."""
    ranks = {r: len(order.ranks) - i for i, r in enumerate(order.ranks)}
    suits = {SUIT_INDEX[s]: len(order.suits) - i for i, s in enumerate(order.suits)}
    return ranks, suits


#: each card order's places, built once per order object
_card_order_places = PerObject(_places)


def card_order_key(order: CardOrder, card: int) -> tuple[int, int]:
    """Compare single cards by rank, then by suit, as ``order`` ranks them (higher is
    higher): the Stud Forced Bet's up-cards (§ 553.10(d)), the odd chip (§ 553.10(i)(2))."""
    ranks, suits = _card_order_places(order)
    return ranks[rank_of(card)], suits[suit_of(card)]


#: One evaluator per ranking object, for every game and command of the process.
evaluator_for: PerObject[Ranking, Evaluator] = PerObject(lambda ranking: Evaluator(ranking))
