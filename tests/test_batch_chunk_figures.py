"""The batch engine's figures of a chunk kept between steps: a hand re-evaluated only
where its cards changed (a Lunar Poker exchange, § 589.11(d)(2)), and the array helpers the
engine sums and tests with, against numpy's own reductions."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, _Chunk
from validator.interpreter.batch_hands import ChunkHands, all_last, any_last
from validator.interpreter.batch_money import payout_micro, row_sums
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.interpreter.simulate import deal


def _chunk(cards: np.ndarray) -> _Chunk:
    """A chunk of Lunar Poker rounds whose players hold ``cards`` (rounds, seats, 5)."""
    game = load_game("lunar-poker")
    rules = Rules(game, TableConfig.defaults(game))
    engine = BatchEngine(rules, rules.strategy(None), cards.shape[1], {"ante": Decimal(5)})
    decks, _ = deal(np.random.default_rng(3), cards.shape[0], rules.config.positions)
    chunk = _Chunk(engine, decks, {})
    chunk.state.player, chunk.state.player_dealt = cards.copy(), cards.copy()
    return chunk


def test_a_hand_is_re_evaluated_only_where_its_cards_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§ 589.11(d)(2)(i): some players exchange cards. After the exchange each hand is what
    a fresh evaluation of the new cards gives, but only the hands that changed were
    evaluated again."""
    rng = np.random.default_rng(8)
    decks = np.argsort(rng.random((6000, 52)), axis=1)
    cards = decks[:, :15].reshape(6000, 3, 5)
    chunk = _chunk(cards)
    before = chunk.hands.value("player_five")
    evaluated: list[int] = []
    real = ChunkHands._evaluate

    def counting(self: ChunkHands, hand_id: str, flat: Any, at: Any = None) -> Any:
        evaluated.append(len(flat) if at is None else len(at))  # the hands valued
        return real(self, hand_id, flat, at)

    monkeypatch.setattr(ChunkHands, "_evaluate", counting)
    exchanged = rng.random((6000, 3)) < 0.25
    after = cards.copy()
    after[exchanged, :3] = decks[:, 15:18].repeat(3, axis=0).reshape(6000, 3, 3)[exchanged]
    chunk.state.player[:] = after
    chunk.state.version += 1
    got = chunk.hands.value("player_five")
    assert evaluated == [int(exchanged.sum())]
    fresh = _chunk(after).hands.value("player_five")
    assert (got.key == fresh.key).all() and (got.held == fresh.held).all()
    assert (got.key[~exchanged] == before.key[~exchanged]).all()
    assert (got.key[exchanged] != before.key[exchanged]).any()


def test_row_sums_any_and_all_are_numpys() -> None:
    rng = np.random.default_rng(4)
    money = rng.integers(-(2**59), 2**59, size=(1000, 7), dtype=np.int64)
    assert (row_sums(money) == money.sum(axis=1)).all()
    flags = rng.random((1000, 7, 6)) < 0.2
    assert (any_last(flags) == flags.any(axis=-1)).all()
    dense = rng.random((1000, 7, 6)) < 0.95
    assert (all_last(dense) == dense.all(axis=-1)).all()


def test_a_payout_on_one_stake_is_the_payout_on_each() -> None:
    """A payout rounds down to the cent (``meters.payout_of``) whether the stakes are all
    one amount (computed once) or several."""
    one = np.full((50, 4), 5_000_000, dtype=np.int64)
    mixed = one.copy()
    mixed[0, 0] = 15_000_000
    for ratio in (Fraction(7, 3), Fraction(1, 7), Fraction(1000)):
        assert (
            payout_micro(one, ratio)
            == one * ratio.numerator // ratio.denominator // 10_000 * 10_000
        ).all()
        assert payout_micro(mixed, ratio)[0, 1] == payout_micro(one, ratio)[0, 1]


def test_a_card_bought_values_again_only_the_hands_that_bought(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§ 589.11(d)(2)(ii): some players buy a sixth card. A draw gives every seat a sixth
    place (no card where none was bought); only the hands that bought are valued again, each
    as a fresh evaluation of its cards values it."""
    rng = np.random.default_rng(9)
    decks = np.argsort(rng.random((6000, 52)), axis=1)
    cards = decks[:, :15].reshape(6000, 3, 5)
    chunk = _chunk(cards)
    before = chunk.hands.value("player_five")
    evaluated: list[int] = []
    real = ChunkHands._evaluate

    def counting(self: ChunkHands, hand_id: str, flat: Any, at: Any = None) -> Any:
        evaluated.append(len(flat) if at is None else len(at))  # the hands valued
        return real(self, hand_id, flat, at)

    monkeypatch.setattr(ChunkHands, "_evaluate", counting)
    bought = rng.random((6000, 3)) < 0.3
    after = np.concatenate([cards, np.full((6000, 3, 1), -1)], axis=2)
    after[bought, 5] = decks[:, 15:18][bought]
    chunk.state.player = after.copy()
    chunk.state.version += 1
    got = chunk.hands.value("player_five")
    assert evaluated == [int(bought.sum())]
    assert (got.key[~bought] == before.key[~bought]).all()
    fresh = _chunk(cards).hands
    fresh.state.player = after.copy()
    want = fresh.value("player_five")
    assert (got.key == want.key).all() and (got.held == want.held).all()


def test_hands_of_several_sizes_are_valued_as_their_suit_masks_value_them() -> None:
    """Hands of five and six cards (and of none) mixed in one batch, -1 for no card: each
    size is valued by its card ints, as the evaluator values the same hands' suit masks."""
    from validator.interpreter.batch_hands import masks_of
    from validator.rankings.batch import Hands

    rng = np.random.default_rng(10)
    flat = np.argsort(rng.random((9000, 52)), axis=1)[:, :6].astype(np.int8)
    flat[rng.random(9000) < 0.5, rng.integers(0, 6)] = -1
    flat[:3] = -1
    chunk = _chunk(np.argsort(rng.random((4, 52)), axis=1)[:, :10].reshape(4, 2, 5))
    held, keys = chunk.hands._evaluate("player_five", flat)
    ev = chunk.hands.evaluator("player_five")
    want_held, want_keys = ev.held_and_keys(Hands(masks_of(flat)))
    assert (held == want_held).all() and (keys == want_keys).all()
