"""Lunar Poker's second combination (§ 589.11(e)(1)(ii)) looked for hand by hand in one
compiled pass, against the subsets asked over all hands at once (the pass it replaced)."""

from __future__ import annotations

import numpy as np
import pytest
from test_second_combination import bet_rows, dealt

from validator.model.registry import load_rankings
from validator.rankings.batch import BatchEvaluator

RANKINGS = load_rankings()
DECKS = [
    list(range(52)),  # the whole deck
    list(range(32, 52)),  # 10 to ace: pairs, straights, ace-kings, royal flushes
    [c for c in range(52) if c % 4 < 2],  # two suits: flushes, straight flushes
    list(range(0, 16)) + list(range(48, 52)),  # 2 to 5 and aces: wheels, quads
    [c for c in range(52) if c % 4 == 3 or c >= 44],  # one suit and the high cards
]


def by_subsets(batch: BatchEvaluator, hands: np.ndarray, order: list[int]) -> np.ndarray:
    """The second combination with the compiled pass turned off."""
    plain = BatchEvaluator(batch.ranking)
    plain._second_tables = lambda order, cards: None  # type: ignore[method-assign]
    return plain.second_combination(hands, order)


def test_the_compiled_pass_is_the_subsets_pass_on_the_bet_table() -> None:
    """The Bet's paytable order (best-paying first): every hand's second combination, five
    and six cards mixed, from decks rich in each kind of hand."""
    _, batch, _, order = bet_rows()
    assert batch._second_tables(tuple(order), 6) is not None
    for seed, deck in enumerate(DECKS):
        hands = dealt(seed + 10, 4000, deck).astype(np.int8)
        got = batch.second_combination(hands, order)
        assert (got == by_subsets(batch, hands, order)).all(), seed
        assert (got >= 0).any()


@pytest.mark.parametrize("ranking_id", ["lunar", "five-card", "four-card"])
def test_the_compiled_pass_is_the_subsets_pass_in_every_order(ranking_id: str) -> None:
    """Every category of the ranking looked for, in the ranking's order and reversed: the
    flushes, straight flushes and royal flushes (one suit's cards) and the pairs, straights
    and ace-kings (the ranks alone) found as the subsets pass finds them."""
    batch = BatchEvaluator(RANKINGS[ranking_id])
    everything = list(range(len(batch.categories)))
    for order in (everything, everything[::-1]):
        for seed, deck in enumerate(DECKS):
            hands = dealt(seed + 20, 3000, deck)
            got = batch.second_combination(hands, order)
            assert (got == by_subsets(batch, hands, order)).all(), (order, seed)


def test_a_category_read_on_a_colour_has_no_tables() -> None:
    """§ 589.6(d): the Super Wager's same-coloured hands read two suits at once: no table of
    one suit's masks holds them, so the subsets pass would answer."""
    batch = BatchEvaluator(RANKINGS["lunar-super"])
    ids = [c.id for c in batch.categories]
    assert batch._second_tables((ids.index("same_colored_five"),), 6) is None
    assert batch._second_tables((ids.index("flush"), ids.index("ace_king")), 6) is not None
