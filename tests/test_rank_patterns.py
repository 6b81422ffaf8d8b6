"""The rank-pattern table of the evaluator (issue 13's fast Poker sessions) against the plain
search it remembers: every hand value read from the table equals the search's, cards and
combination included, for every ranking; and a Poker session played with the table gives
the same hands, to the cent, as the same session with every value searched afresh."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.cli.poker_rounds import log_line
from validator.compiler import all_games, load_game
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.table import default_setup
from validator.model.registry import load_rankings
from validator.rankings.evaluator import Evaluator, HandValue

RANKINGS = load_rankings()
POKER_GAMES = [g.id for g in all_games() if g.definition.kind == "nonbanking"]


@pytest.mark.slow  # many hands, tables against search
@pytest.mark.parametrize("ranking_id", sorted(RANKINGS))
def test_table_equals_search_over_many_hands(ranking_id: str) -> None:
    """One evaluator, its table filled by the first hand of each pattern and read by every
    later one (other suits, other order): each value equals the plain search's."""
    ranking = RANKINGS[ranking_id]
    ev = Evaluator(ranking)
    rng = random.Random(ranking_id)
    reads = 0
    for _ in range(3000):
        n = rng.choice([ranking.size, ranking.size + 1, ranking.size + 2])
        cards = rng.sample(range(52), min(n, 52))
        known = len(ev._patterns)
        value = ev.by_pattern(cards)
        reads += len(ev._patterns) == known
        assert value == ev.searched(cards), cards
    if ranking.size <= 5 and ranking.low is None:
        assert reads > 0  # the table was read, not only filled


@settings(max_examples=300, deadline=None)
@given(
    ranking_id=st.sampled_from(sorted(RANKINGS)),
    cards=st.lists(st.integers(0, 51), min_size=2, max_size=8, unique=True),
    suits=st.permutations(range(4)),
)
def test_a_pattern_read_for_other_suits_equals_the_search(
    ranking_id: str, cards: list[int], suits: list[int]
) -> None:
    """The same ranks under relabelled suits: the second hand reads what the first left
    (where the suits are idle) and must still equal its own search."""
    ev = Evaluator(RANKINGS[ranking_id])
    other = [(c & ~3) | suits[c & 3] for c in cards]
    for hand in (cards, other):
        assert ev.by_pattern(hand) == ev.searched(hand)


def test_five_card_high_values_order_as_best_by_subsets() -> None:
    """The definition (every five-card subset, the highest wins) ranks seven-card hands as
    the table does: an independent path for the compare keys."""
    ev = Evaluator(RANKINGS["five-card"])
    rng = random.Random(13)
    for _ in range(400):
        cards = rng.sample(range(52), 7)
        assert ev.best(cards).key == ev.best_by_subsets(cards).key


@contextmanager
def searched_afresh() -> Iterator[None]:
    """Every hand value by the plain search: no table, no memo."""
    saved = Evaluator.best

    def best(self: Evaluator, cards: list[int]) -> HandValue:
        return self.searched(cards)

    Evaluator.best = best  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Evaluator.best = saved  # type: ignore[method-assign]


def _played(game_id: str, hands: int, seed: int) -> list[str]:
    game = load_game(game_id)
    setup = default_setup(game)
    session = Session(game, setup, setup.positions, seed)
    return [log_line(r.to_json()) for r in session.hands(hands)]


@pytest.mark.slow  # whole sessions, tables against search
@pytest.mark.parametrize("game_id", POKER_GAMES)
def test_session_with_tables_equals_session_searched(game_id: str) -> None:
    """§ 553.10(i): who wins each pot decides every award; the round logs (cards, stacks,
    pots, rake, fund, every action) are equal byte for byte with and without the table."""
    fast = _played(game_id, 25, 7)
    with searched_afresh():
        slow = _played(game_id, 25, 7)
    assert fast == slow


@pytest.mark.parametrize("ranking_id", ["five-card", "low-ace-to-five"])
def test_best_using_equals_every_pick_searched(ranking_id: str) -> None:
    """§ 553.12(j): Omaha's hand is two of the four hole cards and three of the five
    community cards. The keys read from the table pick the same hand as searching every
    pick's value (the first of equal hands, each part in play order: of equal ranks the
    highest suits first, a low hand's lowest, whatever order the cards are given in)."""
    from itertools import combinations, product

    ev = Evaluator(RANKINGS[ranking_id])
    rng = random.Random(553)
    for _ in range(150):
        cards = rng.sample(range(52), 9)
        hole, board = cards[:4], cards[4:]
        if ev.ranking.low is not None:  # the ace lowest, then each rank's suits upward
            hole.sort(key=lambda c: ((c >> 2) + 1) % 13 * 4 + (c & 3))
            board.sort(key=lambda c: ((c >> 2) + 1) % 13 * 4 + (c & 3))
        else:
            hole.sort(reverse=True)
            board.sort(reverse=True)
        expected: HandValue | None = None
        for picks in product(combinations(hole, 2), combinations(board, 3)):
            value = ev.searched([c for pick in picks for c in pick])
            if expected is None or value.key > expected.key:
                expected = value
        assert ev.best_using([(cards[:4], 2), (cards[4:], 3)]) == expected


@pytest.mark.parametrize("game_id", POKER_GAMES)
def test_a_session_without_the_log_plays_the_same_hands(game_id: str) -> None:
    """``simulate`` and ``par`` play with the dealer's log not written (the fast path's
    kernels, or ``table.Hand`` without its log): every hand's deck, button, rake, Bad Beat
    contribution and payout, showdown and buy-ins, to the cent, and the session's stacks,
    fund and totals are those of the narrated session ``play`` runs (the quiet session plays
    a block of rounds at a time: its stacks are compared at the end)."""
    game = load_game(game_id)
    setup = default_setup(game)
    told = Session(game, setup, setup.positions, 11)
    quiet = Session(game, setup, setup.positions, 11, narrated=False)
    figures = (
        "deck",
        "button",
        "rake",
        "bad_beat_contribution",
        "bad_beat_paid",
        "bad_beat_hit",
        "showdown",
        "buy_ins",
        "time_charges",
        "fund_before",
        "fund_after",
    )
    for a, b in zip(told.hands(20), quiet.hands(20), strict=True):
        assert [getattr(a, f) for f in figures] == [getattr(b, f) for f in figures]
        assert b.played is None or b.played.log == []
    assert (told.stacks, told.fund, told.totals) == (quiet.stacks, quiet.fund, quiet.totals)
