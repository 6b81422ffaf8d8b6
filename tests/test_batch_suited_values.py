"""Hands whose suits might hold a flush, read from each suit's values in the compiled table
pass: the same category and key as the general path, hand by hand, for every ranking."""

from __future__ import annotations

import numpy as np
import pytest

from validator.model.registry import load_rankings
from validator.rankings.batch import BatchEvaluator, Hands, suit_masks
from validator.rankings.evaluator import Evaluator

RANKINGS = load_rankings()
HANDS = 6000  # above the batch size the tables serve


def suited_hands(seed: int, size: int, n: int) -> np.ndarray:
    """Hands of distinct cards, most of them with many cards of one suit (the hands the
    rank tables cannot answer alone), some with two suits long."""
    rng = np.random.default_rng(seed)
    score = rng.random((n, 52))
    for _ in range(2):  # one or two suits favoured, each by a random weight
        suit = rng.integers(0, 4, n)
        favoured = (np.arange(52)[None, :] & 3) == suit[:, None]
        score += favoured * rng.random((n, 1)) * 2
    score[:, 48:] += rng.random((n, 1)) * (rng.random((n, 1)) < 0.2)  # aces often
    return np.argsort(-score, axis=1)[:, :size].astype(np.int8)


def high_rankings() -> list[str]:
    return sorted(r for r, ranking in RANKINGS.items() if ranking.low is None)


@pytest.mark.parametrize("ranking_id", high_rankings())
def test_suited_hands_read_from_the_suits_values_as_the_general_path(ranking_id: str) -> None:
    """Every size a rank table serves: ``held`` and ``keys`` of hands given as card rows,
    separately and at once, equal the general path's; where a ranking's suit-reading
    categories are held by one suit alone and take no kicker (the five-card, four-card and
    Lunar hands), the compiled pass answers them without the general path."""
    ranking = RANKINGS[ranking_id]
    batch = BatchEvaluator(ranking)
    for size in range(3, 9):
        hands = suited_hands(size * 1000 + len(ranking_id), size, HANDS)
        h = Hands(suit_masks(hands))
        try:
            held = batch._first_held(h, range(len(batch.categories)))
            keys = batch._keys_among(h, batch.comparing)
        except ValueError:  # a ranking without a category for some hands of this size
            continue
        assert (batch.held_of_cards(hands) == held).all(), size
        assert (batch.keys_of_cards(hands) == keys).all(), size
        got_held, got_keys = batch.held_and_keys_of_cards(hands)
        assert (got_held == held).all() and (got_keys == keys).all(), size


@pytest.mark.parametrize(
    ("ranking_id", "held", "keys"),
    [
        ("five-card", True, True),
        ("four-card", True, True),
        ("lunar", True, True),
        ("six-card-bonus", True, False),  # a five-card flush in a six-card hand: kickers
        ("lunar-super", False, False),  # colours: two suits at once
        ("pocket-bonus", True, False),  # its suited hands refine others: compared as those
    ],
)
def test_which_rankings_take_the_suits_values(ranking_id: str, held: bool, keys: bool) -> None:
    batch = BatchEvaluator(RANKINGS[ranking_id])
    assert (batch._suited_values("held") is not None) == held
    assert (batch._suited_values("keys") is not None) == keys


@pytest.mark.parametrize("ranking_id", ["five-card", "four-card", "lunar"])
def test_suited_hands_agree_with_the_scalar_evaluator(ranking_id: str) -> None:
    """§ 641a.6, § 589.6: flushes, straight flushes and royal flushes among hands of five,
    six and seven cards: the category held and the key, as the scalar reference finds them."""
    ranking = RANKINGS[ranking_id]
    batch, scalar = BatchEvaluator(ranking), Evaluator(ranking)
    for size in (5, 6, 7):
        hands = suited_hands(size, size, HANDS)
        held, keys = batch.held_and_keys_of_cards(hands)
        for i in range(0, HANDS, 23):
            hand = [int(c) for c in hands[i]]
            assert ranking.categories[held[i]].id == scalar.held(hand)[0].id, hand
            assert keys[i] == batch.pack_key(scalar.best(hand).key), hand
