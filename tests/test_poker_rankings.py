"""Poker rankings as data: the low ranking of § 553.4(c)-(e), eight or better, Omaha's two
and three, Razz, and the single-card orders of the Stud Forced Bet."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from conftest import cards
from pydantic import ValidationError

from validator.model.ranking import Ranking
from validator.model.registry import load_card_orders
from validator.rankings.evaluator import Evaluator, card_order_key

LOW = "low-ace-to-five"


def test_low_straights_and_flushes_are_not_considered(evaluator) -> None:
    """§ 553.4(d): A-2-3-4-5 of one suit is no straight flush for low: the best low."""
    ev = evaluator(LOW)
    wheel = ev.best(cards("AS 2S 3S 4S 5S"))
    assert wheel.category == "no_pair"
    assert ev.compare(wheel, cards("AH 2D 3C 4H 6S")) == 1
    assert ev.compare(cards("2H 3H 4H 5H 6H"), cards("2C 3D 4S 5H 7C")) == 1


def test_low_compares_from_the_highest_card_down(evaluator) -> None:
    """§ 553.4(d): the inverse of the High order: 8-6-5-4-3 beats 8-7-3-2-A (the game
    file's note: (e) read alone with (c) would let the ace decide)."""
    ev = evaluator(LOW)
    assert ev.compare(cards("8C 6D 5H 4S 3C"), cards("8D 7S 3H 2C AD")) == 1
    assert ev.compare(cards("7C 6D 5H 4S 3C"), cards("8D 4S 3H 2C AD")) == 1
    assert ev.compare(cards("6C 4D 3H 2S AC"), cards("6D 4S 3C 2D AH")) == 0  # suits equal


def test_low_pairs_lose_and_aces_are_the_best_pair(evaluator) -> None:
    """§ 553.4(c), (d): no pair beats one pair beats two pairs; ace low (c) makes a pair of
    aces the lowest pair."""
    ev = evaluator(LOW)
    assert ev.compare(cards("KC QD JH 9S 8C"), cards("AC AD 2H 3S 4C")) == 1
    assert ev.compare(cards("AC AD 2H 3S 4C"), cards("2C 2D 3H 4S 5C")) == 1
    assert ev.compare(cards("2C 2D 3H 4S 5C"), cards("2S 2H 3C 3D 4D")) == 1


def test_low_best_of_seven_picks_five_distinct_lowest(evaluator) -> None:
    ev = evaluator(LOW)
    v = ev.best(cards("KD KC AS 2S 3S 4S 5S"))
    assert [c for c in v.cards] == cards("5S 4S 3S 2S AS")
    paired = ev.best(cards("AS AH 2S 2H 3C 3D 4C"))  # only four ranks: a pair must play
    assert (
        paired.category == "pair"
        and paired.key == ev.best_by_subsets(cards("AS AH 2S 2H 3C 3D 4C")).key
    )


def test_low_best_agrees_with_every_subset(evaluator) -> None:
    ev = evaluator(LOW)
    rng = random.Random("low")
    for _ in range(2_000):
        hand = rng.sample(range(52), rng.choice((5, 6, 7)))
        assert ev.best(hand).key == ev.best_by_subsets(hand).key


@pytest.mark.parametrize(
    ("hand", "qualifies"),
    [
        ("8S 7D 4C 2H AD", True),  # eight or better
        ("5S 4D 3C 2H AD", True),  # the wheel
        ("9S 7D 4C 2H AD", False),  # a nine
        ("8S 8D 4C 2H AD", False),  # a pair
        ("KS QD JC 9H 8D", False),
    ],
)
def test_eight_or_better(evaluator, hand: str, qualifies: bool) -> None:
    """§ 553.10(j): "a winning low-hand may not contain a pair, a three-of-a-kind or a
    four-of-a-kind or a nine, 10, jack, queen or king"."""
    ev = evaluator(LOW)
    assert ev.qualifies(ev.best(cards(hand)), "eight_or_better") is qualifies


def test_eight_or_better_of_seven_cards(evaluator) -> None:
    ev = evaluator(LOW)
    v = ev.best(cards("KS KH 8D 7C 5S 3H AD"))
    assert ev.qualifies(v, "eight_or_better")
    assert not ev.qualifies(ev.best(cards("KS KH 9D 9C 4S JH QD")), "eight_or_better")


def test_omaha_exactly_two_and_three(evaluator) -> None:
    """§ 553.12(j): two of the four cards and three of the five community cards."""
    ev = evaluator("five-card")
    hole, board = cards("AH 2S 3C 4D"), cards("2H 7H 9H JH KD")
    v = ev.best_using([(hole, 2), (board, 3)])
    assert v.category == "pair"
    assert ev.best(hole + board).category == "flush"  # Hold'em's any combination
    # the definition: every 2 + 3 choice
    best = max(
        (ev.best(list(h) + list(b)) for h in combinations(hole, 2) for b in combinations(board, 3)),
        key=lambda x: x.key,
    )
    assert v.key == best.key


def test_omaha_low_uses_two_and_three(evaluator) -> None:
    """§ 553.12(l)(1): a low of three board cards and two hole cards; four low board cards
    do not make a low with only one low hole card."""
    ev = evaluator(LOW)
    board = cards("2C 4D 6H 8S KC")
    v = ev.best_using([(cards("AS KD QD JD"), 2), (board, 3)])
    assert not ev.qualifies(v, "eight_or_better")
    v = ev.best_using([(cards("AS 3D QD JD"), 2), (board, 3)])
    assert ev.qualifies(v, "eight_or_better") and v.cards[0] // 4 + 2 == 6


def test_card_orders_rank_by_rank_then_suit(games_dir_card_orders) -> None:
    """§ 553.10(d): spades, hearts, diamonds, clubs; (d)(2) the ace below a two; (d)(3) the
    ace highest."""
    high = games_dir_card_orders["ace-high-by-suit"]
    low = games_dir_card_orders["ace-low-by-suit"]
    ranked = sorted(cards("2H 2C 2S 2D AS KC"), key=lambda c: card_order_key(high, c))
    assert ranked == cards("2C 2D 2H 2S KC AS")
    ranked = sorted(cards("AS KC 2D AC"), key=lambda c: card_order_key(low, c))
    assert ranked == cards("AC AS 2D KC")


@pytest.fixture(scope="module")
def games_dir_card_orders():
    return load_card_orders()


def test_a_low_ranking_refuses_straights() -> None:
    with pytest.raises(ValidationError, match="straights and flushes"):
        Ranking.model_validate(
            {
                "name": "bad",
                "size": 5,
                "low": "ace-to-five",
                "cite": "§ 553.4(d)",
                "categories": [
                    {"id": "straight", "name": "Straight", "straight": 5},
                    {"id": "no_pair", "name": "No pair", "any": True},
                ],
            }
        )


def test_a_qualifier_names_a_category() -> None:
    with pytest.raises(ValidationError, match="qualifier 'eight'"):
        Ranking.model_validate(
            {
                "name": "bad",
                "size": 5,
                "low": "ace-to-five",
                "cite": "§ 553.4(d)",
                "categories": [{"id": "no_pair", "name": "No pair", "any": True}],
                "qualifiers": {"eight": {"at_least": "nothing", "cite": "§ 553.10(j)"}},
            }
        )


def test_evaluator_at_least_reads_low_categories_the_low_way(evaluator) -> None:
    ev: Evaluator = evaluator(LOW)
    assert ev.at_least(ev.best(cards("8S 7D 4C 2H AD")), "pair")
    assert not ev.at_least(ev.best(cards("8S 8D 4C 2H AD")), "no_pair")


NONBANKING = (
    "poker-holdem",
    "poker-omaha",
    "poker-omaha-hi-lo-8",
    "poker-five-card-draw",
    "poker-five-card-stud",
    "poker-seven-card-stud",
    "house-seven-card-stud",
)


@pytest.mark.parametrize("game_id", NONBANKING)
def test_a_poker_hand_is_named_as_553_4_b_names_it(game_id: str) -> None:
    """§ 553.4(b)(8), (9) and the house procedures' Poker Rankings (2)(viii), (ix): "Two
    pairs", "One pair". The banking chapters' paytables print "Two pair" and "Pair", and
    their five-card hand keeps those names (§ 641a.12; WPT's § 677a.6(b)(8))."""
    from validator.compiler import load_game

    game = load_game(game_id)
    ev = game.evaluator("high")
    assert ev.category("two_pair").name == "Two pairs"
    assert ev.category("pair").name == "One pair"
    banking = load_game("four-card-poker").evaluator("player_five")
    assert (banking.category("two_pair").name, banking.category("pair").name) == (
        "Two pair",
        "Pair",
    )
