"""Lunar Poker's second combination (§ 589.11(e)(1)(ii)) found for every hand at once by the
batch evaluator, against the scalar engine's hand-by-hand search (the reference), and the
cards of each hand's best combination against ``Evaluator.best(...).combination``."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from conftest import cards

from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.interpreter.second_combination import second_combination, second_combination_order
from validator.model.ranking import Ranking
from validator.model.registry import load_rankings
from validator.rankings.batch import BatchEvaluator, Hands, suit_masks
from validator.rankings.evaluator import Evaluator
from validator.rankings.primitives import Combo

RANKINGS = load_rankings()


def bet_rows() -> tuple[Evaluator, BatchEvaluator, dict, list[int]]:
    game = load_game("lunar-poker")
    rules = Rules(game, TableConfig.defaults(game))
    rows = rules.rows_or_stop("bet", Decimal(20))
    ev = rules.evaluator("player_five")
    index = {c.id: i for i, c in enumerate(ev.categories)}
    order = [index[c.id] for c in second_combination_order(ev.categories, rows)]
    return ev, BatchEvaluator(ev.ranking), rows, order


def dealt(seed: int, n: int, deck: list[int]) -> np.ndarray:
    """``n`` hands of five or six distinct cards of ``deck``, -1 where no sixth card."""
    rng = np.random.default_rng(seed)
    pick = np.array(deck)[np.argsort(rng.random((n, len(deck))), axis=1)[:, :6]]
    pick[rng.random(n) < 0.5, 5] = -1
    return pick


def scalar_second(ev: Evaluator, rows: dict, row: np.ndarray) -> str | None:
    cs = [int(c) for c in row if c >= 0]
    cat = second_combination(ev, cs, ev.best(cs), rows)
    return None if cat is None else cat.id


def test_the_chapters_example_is_paid_as_ace_king() -> None:
    """§ 589.11(e)(1)(ii): "two aces, a king, 8 and 9 … paid out for the pair of aces … but
    would also be paid out for the ace-king"; a straight of five cards has no card outside
    its combination; a sixth card of the flush's suit forms a second flush with it."""
    ev, batch, rows, order = bet_rows()
    hands = np.array(
        [
            [*cards("AS AH KD 8C 9S"), -1],
            [*cards("9S 10H JD QC KS"), -1],
            cards("2H 5H 7H 9H JH KH"),
            cards("3C 3D 7S 7H QD QS"),
            [*cards("2C 2D 5H 9S JD"), -1],
        ]
    )
    got = batch.second_combination(hands, order)
    names = [None if i < 0 else ev.categories[i].id for i in got]
    assert names == ["ace_king", None, "flush", "two_pair", None]
    assert names == [scalar_second(ev, rows, h) for h in hands]


@pytest.mark.slow  # many hands on both engines
@pytest.mark.parametrize(
    ("seed", "deck"),
    [
        (1, list(range(52))),  # the whole deck
        (2, list(range(32, 52))),  # 10 to ace: pairs, straights, ace-kings, royal flushes
        (3, [c for c in range(52) if c % 4 < 2]),  # two suits: flushes, straight flushes
        (4, list(range(0, 16)) + list(range(48, 52))),  # 2 to 5 and aces: wheels, quads
    ],
)
def test_batch_second_combination_is_the_scalar_one(seed: int, deck: list[int]) -> None:
    """Hand by hand, five- and six-card hands mixed in one batch: the same category, or
    none, as ``interpreter.second_combination.second_combination``."""
    ev, batch, rows, order = bet_rows()
    hands = dealt(seed, 3000, deck)
    got = batch.second_combination(hands, order)
    paid = 0
    for i, row in enumerate(hands):
        want = scalar_second(ev, rows, row)
        assert (None if got[i] < 0 else ev.categories[got[i]].id) == want, row
        paid += want is not None
    assert paid > 100  # the decks above make second combinations common


def _supported(ranking: Ranking) -> bool:
    return ranking.low is None and all(
        c.shape not in ("same_color", "same_color_straight") for c in ranking.categories
    )


@pytest.mark.parametrize("ranking_id", sorted(r for r in RANKINGS if _supported(RANKINGS[r])))
def test_combination_is_the_scalar_best_combination(ranking_id: str) -> None:
    """The cards ``BatchEvaluator.combination`` picks for the category a hand compares as are
    the cards ``Evaluator.best`` names as its combination, for hands of 2 to 7 cards."""
    ranking = RANKINGS[ranking_id]
    scalar, batch = Evaluator(ranking), BatchEvaluator(ranking)
    rng = np.random.default_rng(7)
    for size in range(2, 8):
        hands = np.argsort(rng.random((300, 52)), axis=1)[:, :size]
        h = Hands(suit_masks(hands))
        try:
            cat = batch.comparing_category(h)
        except ValueError:  # a ranking without a category for so few cards
            continue
        for i in np.unique(cat).tolist():
            rows = np.flatnonzero(cat == i)
            masks = batch.combination(ranking.categories[i], h.subset(rows))
            for j, r in enumerate(rows.tolist()):
                got = sorted(
                    rank * 4 + s for s in range(4) for rank in range(13) if masks[s][j] >> rank & 1
                )
                want: Combo = scalar.best([int(c) for c in hands[r]]).combination
                assert got == sorted(want), (ranking_id, hands[r].tolist())
