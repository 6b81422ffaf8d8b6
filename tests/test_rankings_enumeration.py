"""Full enumerations: every one of the 2,598,960 five-card hands, counted by category.

The engine is run on one representative hand per *class* of hands (a rank multiset and a
pattern of suits, see ``hand_classes``), each weighted by the number of hands it stands for.
That is still every hand, counted once: see ``hand_classes`` for why, and the tests check that
the weights add up to C(52, 5) for every rank multiset. The four-card counts are checked
against an independent classifier that looks at all 2,598,960 hands one by one.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from math import comb, factorial, perm

import numpy as np
import pytest
from published import FIVE_CARD_COUNTS

from validator.rankings.evaluator import Evaluator

ALL_HANDS = comb(52, 5)


#: The best four-card hand (§ 641a.6(b)) of each five-card hand. The independent classifier
#: below recomputes these over every hand; they are also the figures published for Four Card
#: Poker's player hand (best four of five cards).
FOUR_OF_FIVE_COUNTS = {
    "four_of_a_kind": 624,
    "straight_flush": 2_072,
    "three_of_a_kind": 58_656,
    "flush": 114_616,
    "straight": 101_808,
    "two_pair": 123_552,
    "pair": 1_047_552,
    "high_card": 1_150_080,
}


def _suit_partitions(ranks: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Set partitions of the five card positions into at most four blocks (one block per
    suit), as restricted growth strings, where two cards of one rank never share a block."""
    n = len(ranks)

    def grow(labels: list[int], blocks: int) -> Iterator[tuple[tuple[int, ...], int]]:
        i = len(labels)
        if i == n:
            yield tuple(labels), blocks
            return
        for s in range(min(blocks + 1, 4)):
            if any(ranks[j] == ranks[i] and labels[j] == s for j in range(i)):
                continue
            labels.append(s)
            yield from grow(labels, max(blocks, s + 1))
            labels.pop()

    yield from grow([], 0)


@cache
def hand_classes() -> list[tuple[tuple[int, ...], list[tuple[list[int], int]], int]]:
    """Every five-card hand, grouped: (rank multiset, [(representative, weight)], divisor).

    Fix a rank multiset r1 <= ... <= r5 (no rank five times). A hand with these ranks is an
    assignment of suits to the five positions, two positions of one rank getting different
    suits; each hand arises from exactly prod(m!) assignments (m: the multiplicity of each
    rank), since the suits of equal-rank positions can be permuted. An assignment is a set
    partition of the positions (which share a suit) with an injective labelling of its k
    blocks by suits: perm(4, k) labellings. All suits rank equally (§ 641a.6(a) and the
    other chapters' (a)), and the rankings counted here use no suit-specific primitive, so
    the category is the same for every labelling: evaluating one labelling per partition and
    weighting it by perm(4, k) counts every assignment; dividing the sum for each category by
    prod(m!) counts every hand exactly once.
    """
    out = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        mult = Counter(ranks)
        if max(mult.values()) > 4:
            continue
        divisor = 1
        for m in mult.values():
            divisor *= factorial(m)
        reps = [
            ([r * 4 + s for r, s in zip(ranks, labels, strict=True)], perm(4, blocks))
            for labels, blocks in _suit_partitions(ranks)
        ]
        out.append((ranks, reps, divisor))
    return out


def count_by_class(classify: Callable[[list[int]], str]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for _ranks, reps, divisor in hand_classes():
        per: Counter[str] = Counter()
        for hand, weight in reps:
            per[classify(hand)] += weight
        for category, n in per.items():
            assert n % divisor == 0, (category, n, divisor)
            totals[category] += n // divisor
    return totals


def test_the_classes_cover_every_hand_once() -> None:
    """For every rank multiset the weights add up to the number of hands with those ranks
    (prod C(4, m)), and over all multisets to C(52, 5)."""
    total = 0
    for ranks, reps, divisor in hand_classes():
        expected = 1
        for m in Counter(ranks).values():
            expected *= comb(4, m)
        assignments = sum(w for _, w in reps)
        assert assignments == expected * divisor, ranks
        assert all(len(set(hand)) == 5 for hand, _ in reps)
        total += expected
    assert total == ALL_HANDS == 2_598_960


@pytest.mark.parametrize("ranking_id", ["five-card", "four-card", "lunar"])
def test_the_counted_rankings_treat_suits_alike(rankings, ranking_id: str) -> None:
    """The class enumeration relies on it: no category names a suit."""
    assert all(c.suit is None for c in rankings[ranking_id].categories)


@pytest.fixture(scope="module")
def five_card(evaluator: Callable[[str], Evaluator]) -> Evaluator:
    return evaluator("five-card")


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_five_card_hands_fall_in_the_known_counts(five_card: Evaluator) -> None:
    """All 2,598,960 hands: 4 royal flushes, 36 straight flushes, 624, 3,744, 5,108,
    10,200, 54,912, 123,552, 1,098,240, 1,302,540 (held and best agree on every class)."""

    def classify(hand: list[int]) -> str:
        held = five_card.held(hand)[0].id
        assert five_card.best(hand).category == held
        return held

    counts = count_by_class(classify)
    assert dict(counts) == FIVE_CARD_COUNTS
    assert sum(counts.values()) == ALL_HANDS


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_lunar_ranking_counts_ace_king_inside_high_card(evaluator) -> None:
    """§ 589.6(b)(10): ace-king sits between one pair and the rest. Of the 1,302,540
    five-card hands with no pair, straight or flush, those with an ace and a king are
    C(11, 3) rank sets × (4^5 − 4) suit patterns − the A-K-Q-J-10 straights."""
    lunar = evaluator("lunar")
    counts = count_by_class(lambda hand: lunar.held(hand)[0].id)
    ace_king = (comb(11, 3) - 1) * (4**5 - 4)  # rank sets less A-K-Q-J-10; suits less flushes
    assert counts["ace_king"] == ace_king == 167_280
    assert counts["high_card"] == 1_302_540 - ace_king
    assert counts["one_pair"] == 1_098_240
    assert sum(counts.values()) == ALL_HANDS


def independent_four_of_five() -> tuple[Counter[str], int, int]:
    """Classify every five-card hand's best four cards without the engine: all
    2,598,960 hands, each of their five four-card subsets by sorted ranks and suits.

    Returns the counts by category and the numbers of hands holding four aces and of
    hands whose best is a pair that is a pair of aces.
    """
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.int8,
        count=ALL_HANDS * 5,
    )
    hands = flat.reshape(-1, 5)
    ranks, suits = hands // 4, hands % 4  # cards ascend, so ranks ascend: 0 is a 2, 12 an ace
    best = np.zeros(len(hands), dtype=np.int8)
    for drop in range(5):
        keep = [i for i in range(5) if i != drop]
        r, s = ranks[:, keep], suits[:, keep]
        e01, e12, e23 = r[:, 0] == r[:, 1], r[:, 1] == r[:, 2], r[:, 2] == r[:, 3]
        four = e01 & e12 & e23
        three = ((e01 & e12) | (e12 & e23)) & ~four
        two_pair = e01 & e23 & ~e12
        paired = e01 | e12 | e23
        flush = (s[:, 0] == s[:, 1]) & (s[:, 1] == s[:, 2]) & (s[:, 2] == s[:, 3])
        run = r[:, 3] - r[:, 0] == 3
        wheel = (r[:, 0] == 0) & (r[:, 1] == 1) & (r[:, 2] == 2) & (r[:, 3] == 12)  # A-2-3-4
        straight = ~paired & (run | wheel)
        category = np.select(
            [four, straight & flush, three, flush, straight, two_pair, paired],
            [7, 6, 5, 4, 3, 2, 1],
            0,
        ).astype(np.int8)
        best = np.maximum(best, category)
    names = [
        "high_card",
        "pair",
        "two_pair",
        "straight",
        "flush",
        "three_of_a_kind",
        "straight_flush",
        "four_of_a_kind",
    ]
    counts = Counter({names[i]: int(n) for i, n in enumerate(np.bincount(best, minlength=8))})
    aces = (ranks == 12).sum(axis=1)
    four_aces = int((aces == 4).sum())
    pair_of_aces = int(((best == 1) & (aces >= 2)).sum())
    return counts, four_aces, pair_of_aces


def test_independent_classifier_reproduces_the_four_card_figures() -> None:
    counts, four_aces, pair_of_aces = independent_four_of_five()
    assert dict(counts) == FOUR_OF_FIVE_COUNTS
    assert sum(counts.values()) == ALL_HANDS
    assert four_aces == 48
    assert pair_of_aces == PAIR_OF_ACES


#: Hands whose best four cards are a pair of aces: a pair of aces (6 suit pairs) with three
#: other ranks (C(12, 3), 4^3 suits), less those where an ace and the other three make a
#: four-card flush (the three share a suit that one of the aces has: 4 suits x 3 pairs) or
#: a four-card straight (K-Q-J or 2-3-4 with either ace), counting both once.
PAIR_OF_ACES = (
    comb(4, 2) * comb(12, 3) * 4**3 - comb(12, 3) * 4 * 3 - 2 * comb(4, 2) * 4**3 + 2 * 4 * 3
)


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_best_four_of_five_distribution(evaluator) -> None:
    """§ 641a.11(c)(2): the four cards that form the highest hand. Over every five-card hand
    the engine's best four-card category matches the independent count, and the paytable
    refinements (four aces, pair of aces) match too."""
    four = evaluator("four-card")
    held_counts: Counter[str] = Counter()

    def classify(hand: list[int]) -> str:
        value = four.best(hand)
        held = four.held(hand)[0]
        assert four.parent(held).id == value.category, hand
        return f"{value.category}|{held.id}"

    joint = count_by_class(classify)
    best_counts: Counter[str] = Counter()
    for key, n in joint.items():
        best_id, held_id = key.split("|")
        best_counts[best_id] += n
        held_counts[held_id] += n
    expected, four_aces, pair_of_aces = independent_four_of_five()
    assert dict(best_counts) == dict(expected) == FOUR_OF_FIVE_COUNTS
    assert sum(best_counts.values()) == ALL_HANDS
    assert held_counts["four_aces"] == four_aces == 48
    assert held_counts["four_of_a_kind"] == 624 - 48
    assert held_counts["pair_of_aces"] == pair_of_aces
    assert held_counts["pair"] == FOUR_OF_FIVE_COUNTS["pair"] - pair_of_aces
