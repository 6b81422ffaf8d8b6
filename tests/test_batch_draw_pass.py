"""Lunar Poker's draw step (§ 589.11(d)(2)(i)): the compiled pass, round by round, deals
each seat the same cards from the same places of the deck as the step taken seat by seat
over whole columns (the way an exchange naming its cards is still dealt)."""

from __future__ import annotations

import numpy as np
import pytest

from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, _Chunk, card_rows
from validator.interpreter.chunks import chunk_rng
from validator.interpreter.rules import Rules
from validator.interpreter.settings import read_settings
from validator.interpreter.simulate import deal, default_wagers
from validator.model.procedure import DrawStep
from validator.vocabulary import STEP, meaning_of


def _to_the_draw(engine: BatchEngine, seed: int, n: int) -> tuple[_Chunk, DrawStep]:
    """A chunk played up to its draw step (the step not yet taken)."""
    rules = engine.rules
    decks, draws = deal(chunk_rng(seed, 0), n, rules.config.positions)
    chunk = _Chunk(engine, card_rows(decks), draws)
    chunk._void_rounds()
    for i, step in enumerate(rules.procedure):
        chunk.state.step_index = i
        if isinstance(step, DrawStep):
            return chunk, step
        meaning_of(STEP.id, step.step, "batch")(chunk, step)
    raise AssertionError("no draw step")


@pytest.mark.parametrize("seats", [1, 3, 5])
def test_the_draw_pass_deals_as_the_draw_seat_by_seat(seats: int) -> None:
    game = load_game("lunar-poker")
    rules = Rules(game, read_settings(game, None))
    _, strat = rules.played("basic")  # a sixth card bought, exchanges (Caribbean: no draw)
    engine = BatchEngine(rules, strat, seats, default_wagers(rules))
    for seed in range(3):
        compiled, step = _to_the_draw(engine, seed, 3000)
        by_seat, _ = _to_the_draw(engine, seed, 3000)
        kinds = compiled.state.pending_kind
        assert (kinds == 1).any() and (kinds == 2).any()  # cards added and exchanges
        assert (compiled.state.pending_paired & (kinds == 2)).any()  # the paired kept
        k = by_seat.state.player.shape[2]
        # an exchange naming no card: the step taken seat by seat, as it is for one naming
        by_seat.state.pending_cards = np.zeros((by_seat.state.N, seats, k), bool)
        compiled._step_draw(step)
        by_seat._step_draw(step)
        a, b = compiled.state, by_seat.state
        assert (a.player == b.player).all()
        assert (a.player_dealt == b.player_dealt).all()
        assert (a.pos == b.pos).all()
        assert (a.pending_kind == b.pending_kind).all()
