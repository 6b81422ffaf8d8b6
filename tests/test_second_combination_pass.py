"""Lunar Poker's second combination (§ 589.11(e)(1)(ii)) looked for hand by hand in one
compiled pass, against the subsets asked over all hands at once (the pass it replaced)."""

from __future__ import annotations

import numpy as np
import pytest
from test_second_combination import bet_rows, dealt

from validator.model.registry import load_rankings
from validator.rankings.batch import _RANK_CODE, CARD_BIT_OR_NONE, BatchEvaluator, _rank_index
from validator.rankings.table_kernels import card_bits

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


def test_the_ranks_a_category_read_on_ranks_takes_in_a_hand() -> None:
    """§ 589.11(e)(1)(ii)'s example, two aces, a king, 8 and 9: a pair is made of aces
    only, an ace-king of an ace and the king; the compiled pass pays a second combination
    where one of these ranks lies outside the winning combination."""
    _, batch, _, order = bet_rows()
    tables = batch._second_tables(tuple(order), 6)
    assert tables is not None
    by_outside, on_ranks = tables[7], tables[8]
    ids = [batch.categories[i].id for i in order]
    ace, king = 12, 11
    code = sum(_RANK_CODE[r] for r in (ace, ace, king, 6, 7))
    number = int(_rank_index(5).number(np.array([code]))[0])
    taken = {c: int(by_outside[j, 5, number]) for j, c in enumerate(ids)}
    assert taken["one_pair"] == 1 << ace
    assert taken["ace_king"] == (1 << ace) | (1 << king)
    assert taken["two_pair"] == taken["straight"] == 0
    assert not on_ranks[ids.index("flush")] and on_ranks[ids.index("one_pair")]


@pytest.mark.parametrize("dtype", [np.int8, np.int64])
def test_a_hands_card_bits_are_each_cards_bit_no_card_none(dtype: type) -> None:
    """The winning combinations are read from each hand's cards as bits, one compiled pass
    for what numpy reads column by column (-1, no card, the table's last entry: none)."""
    rng = np.random.default_rng(589)
    hands = rng.integers(-1, 52, (3000, 6)).astype(dtype)
    expected = np.zeros(hands.shape[0], np.uint64)
    for j in range(hands.shape[1]):
        expected |= CARD_BIT_OR_NONE[hands[:, j]]
    out = np.full(hands.shape[0], 7, np.uint64)
    card_bits(hands, CARD_BIT_OR_NONE, out)
    assert (out == expected).all()
    assert (hands == -1).any()
