"""The batch evaluator against the scalar Evaluator, the reference, for every ranking."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import cards

from validator.model.ranking import Ranking
from validator.model.registry import load_rankings
from validator.rankings import batch as batch_module
from validator.rankings.batch import BatchEvaluator, Hands, suit_masks
from validator.rankings.evaluator import Evaluator

RANKINGS = load_rankings()
HANDS_PER_SIZE = 250


def random_hands(seed: int, size: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


def sizes_for(ranking: Ranking) -> list[int]:
    return sorted({1, 2, 3, 4, 5, 6, 7, ranking.size, min(ranking.size + 2, 13)})


@pytest.mark.parametrize("ranking_id", sorted(RANKINGS))
def test_batch_agrees_with_scalar_evaluator(ranking_id: str) -> None:
    """Highest category held and comparison key agree hand by hand, for hands of every size
    around the ranking's own."""
    ranking = RANKINGS[ranking_id]
    scalar, batch = Evaluator(ranking), BatchEvaluator(ranking)
    for size in sizes_for(ranking):
        hands = random_hands(hash((ranking_id, size)) % 2**32, size, HANDS_PER_SIZE)
        masks = suit_masks(hands)
        held = batch.held(masks)
        if ranking.low is not None:  # low hands (§ 553.4(d)) are ordered by the scalar engine
            with pytest.raises(NotImplementedError):
                batch.keys(masks)
            keys = None
        else:
            keys = batch.keys(masks)
        for i, row in enumerate(hands):
            hand = [int(c) for c in row]
            try:
                category, _ = scalar.held(hand)
            except ValueError:  # a ranking without a category for so few cards
                continue
            assert ranking.categories[held[i]].id == category.id, (size, hand)
            if keys is not None:
                assert keys[i] == batch.pack_key(scalar.best(hand).key), (size, hand)


@pytest.mark.parametrize("ranking_id", ["five-card", "four-card", "lunar", "high-card-flush"])
def test_keys_order_hands_as_compare_does(ranking_id: str) -> None:
    """Hands of the same category tie-broken by kickers (§ 641a.6(c), § 589.6(c)): the
    integer keys order random pairs exactly as Evaluator.compare does."""
    ranking = RANKINGS[ranking_id]
    scalar, batch = Evaluator(ranking), BatchEvaluator(ranking)
    a, b = random_hands(1, 7, 400), random_hands(2, 7, 400)
    ka, kb = batch.keys(suit_masks(a)), batch.keys(suit_masks(b))
    for i in range(400):
        expected = scalar.compare([int(c) for c in a[i]], [int(c) for c in b[i]])
        assert int(np.sign(ka[i] - kb[i])) == expected


def test_suit_masks_of_a_hand() -> None:
    masks = suit_masks(np.array([cards("AS KS 2C 10H 10D")]))
    assert [int(m[0]) for m in masks] == [1 << 0, 1 << 8, 1 << 8, (1 << 12) | (1 << 11)]


def test_golden_keys_five_card() -> None:
    """§ 677a.6(b): the wheel is the lowest straight; a pair's kickers break ties."""
    batch = BatchEvaluator(RANKINGS["five-card"])
    hands = np.array(
        [
            cards("AS 2D 3C 4H 5S KD QC"),  # five-high straight (ace low)
            cards("6S 2D 3C 4H 5S KD QC"),  # six-high straight
            cards("AS AD KC QH 9S 3D 2C"),  # aces, K Q 9 kickers
            cards("AS AD KC QH 8S 3D 2C"),  # aces, K Q 8 kickers
        ]
    )
    k = batch.keys(suit_masks(hands))
    assert k[0] < k[1]
    assert k[2] > k[3]
    assert batch.categories[batch.held(suit_masks(hands))[0]].id == "straight"


def test_high_card_flush_ace_plays_high_only_in_a_straight_flush() -> None:
    """§ 678a.6(a), (d): the ace plays high only; A-2-3 of one suit is no straight flush,
    Q-K-A is one."""
    batch = BatchEvaluator(RANKINGS["high-card-flush-straight-flush"])
    hands = np.array([cards("AH 2H 3H 9C 7D 5S JC"), cards("QH KH AH 9C 7D 5S 2C")])
    held = batch.held(suit_masks(hands))
    ids = [batch.categories[h].id for h in held]
    assert ids == ["no_straight_flush", "three_card_straight_flush"]


def test_suit_and_colour_primitives() -> None:
    """`suit:` (Six Card Bonus table E's diamonds) and `same_color` (the Super Wager)."""
    six = BatchEvaluator(RANKINGS["six-card-bonus"])
    royal_d = cards("AD KD QD JD 10D 9D")
    royal_h = cards("AH KH QH JH 10H 9H")
    held = six.held(suit_masks(np.array([royal_d, royal_h])))
    assert [six.categories[i].id for i in held] == [
        "six_card_royal_flush_diamonds",
        "six_card_royal_flush",
    ]
    sup = BatchEvaluator(RANKINGS["lunar-super"])
    held = sup.held(suit_masks(np.array([cards("9H 10D JH QD KH"), cards("9H 10S JH QD KH")])))
    assert [sup.categories[i].id for i in held] == ["same_colored_straight", "straight"]


@pytest.mark.parametrize("ranking_id", ["five-card", "four-card", "lunar-super", "pocket-bonus"])
def test_rank_table_path_agrees(ranking_id: str) -> None:
    """Large batches take the best suit-free category from a table of rank multisets: the
    same keys as the general path, and as the scalar reference on a sample."""
    ranking = RANKINGS[ranking_id]
    batch, scalar = BatchEvaluator(ranking), Evaluator(ranking)
    size = min(7, max(ranking.size, 5))
    hands = random_hands(99, size, 20_000)
    fast = batch.keys(suit_masks(hands))
    assert batch._rank_tables.get(("keys", size)) is not None
    general = batch._keys_among(Hands(suit_masks(hands)), batch.comparing)
    assert (fast == general).all()
    for i in range(0, 20_000, 97):
        assert fast[i] == batch.pack_key(scalar.best([int(c) for c in hands[i]]).key)


def table_sizes(ranking: Ranking) -> list[int]:
    return sorted({5, 7, min(ranking.size, 8)})


@pytest.mark.parametrize("ranking_id", sorted(RANKINGS))
def test_card_rows_and_tables_agree_with_the_general_path(
    ranking_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Card rows (``held_of_cards``, ``keys_of_cards``) and suit masks through the
    rank-multiset tables, in several slices, give what the general path gives, hand by hand,
    and the scalar reference on a sample."""
    monkeypatch.setattr(batch_module, "_SLICE", 1500)
    ranking = RANKINGS[ranking_id]
    batch, scalar = BatchEvaluator(ranking), Evaluator(ranking)
    for size in table_sizes(ranking):
        hands = random_hands(sorted(RANKINGS).index(ranking_id) * 100 + size, size, 5000)
        h = Hands(suit_masks(hands))
        held = batch._first_held(h, range(len(batch.categories)))
        assert (batch.held_of_cards(hands.astype(np.int8)) == held).all()
        assert (batch.held(h) == held).all()
        if ranking.low is not None:
            continue
        keys = batch._keys_among(h, batch.comparing)
        assert (batch.keys_of_cards(hands) == keys).all()
        assert (batch.keys(h) == keys).all()
        for i in range(0, 5000, 499):
            assert keys[i] == batch.pack_key(scalar.best([int(c) for c in hands[i]]).key)


def test_a_batch_of_mixed_sizes_is_evaluated_hand_by_hand() -> None:
    """Suit masks of 7-card hands with a few 6-card hands among them: the table serves the
    hands of the first hand's size, the general path the others."""
    batch = BatchEvaluator(RANKINGS["five-card"])
    seven, six = random_hands(5, 7, 5000), random_hands(6, 6, 50)
    masks = np.concatenate((suit_masks(seven), suit_masks(six)), axis=1)
    h = Hands(masks)
    assert (batch.keys(h) == batch._keys_among(h, batch.comparing)).all()
    assert (batch.held(h) == batch._first_held(h, range(len(batch.categories)))).all()


def test_card_ints_outside_the_deck_are_refused() -> None:
    batch = BatchEvaluator(RANKINGS["five-card"])
    hands = random_hands(7, 7, 5000)
    for bad in (52, -1):
        wrong = hands.copy()
        wrong[4321, 3] = bad
        with pytest.raises((ValueError, IndexError)):
            batch.keys_of_cards(wrong)
        with pytest.raises((ValueError, IndexError)):
            batch.held_of_cards(wrong.astype(np.int8))


def test_a_batch_of_several_sizes_takes_each_sizes_table() -> None:
    """Many hands of each of three sizes, interleaved (a Lunar Poker table after some
    players bought a sixth card): every size through its own rank-multiset table, each hand
    as the general path evaluates it."""
    batch = BatchEvaluator(RANKINGS["lunar"])
    parts = [suit_masks(random_hands(10 + size, size, 5000)) for size in (5, 6, 7)]
    masks = np.stack([p.T for p in parts], axis=1).reshape(-1, 4).T
    h = Hands(masks)
    keys = batch._keys_among(h, batch.comparing)
    held = batch._first_held(h, range(len(batch.categories)))
    got_held, got_keys = batch.held_and_keys(h)
    assert (got_keys == keys).all() and (got_held == held).all()
    assert {k for w, k in batch._rank_tables if w == "keys"} == {5, 6, 7}


@pytest.mark.parametrize("ranking_id", ["high-card-flush", "high-card-flush-straight-flush"])
def test_a_ranking_held_suit_by_suit_is_read_from_its_suits_tables(ranking_id: str) -> None:
    """§ 678a.6(b)-(d): the longest flush (or straight flush) of one suit is the hand; of two
    as long, the one with the highest cards. The hand's category and key are then its best
    suit's, read from a table of each suit's 8,192 masks: as the general path finds them,
    for hands of every size up to eight cards."""
    ranking = RANKINGS[ranking_id]
    batch = BatchEvaluator(ranking)
    assert batch._suit_tables("keys") is not None and batch._suit_tables("held") is not None
    for size in range(1, 9):
        hands = random_hands(size, size, 5000)
        h = Hands(suit_masks(hands))
        keys = batch._keys_among(h, batch.comparing)
        held = batch._first_held(h, range(len(batch.categories)))
        assert (batch.keys(h) == keys).all() and (batch.held(h) == held).all()
        assert (batch.keys_of_cards(hands) == keys).all()
        assert (batch.held_of_cards(hands) == held).all()
        got_held, got_keys = batch.held_and_keys_of_cards(hands)
        assert (got_keys == keys).all() and (got_held == held).all()


@pytest.mark.parametrize("ranking_id", ["five-card", "four-card", "lunar-super", "pocket-bonus"])
def test_rankings_reading_more_than_one_suit_have_no_suits_tables(ranking_id: str) -> None:
    """A pair, a straight or a kicker reads cards of several suits: no table of one suit's
    masks can say what the hand holds."""
    assert BatchEvaluator(RANKINGS[ranking_id])._suit_tables("held") is None
