"""Lunar Poker's draw step (§ 589.11(d)(2)(i)): the compiled pass, round by round, deals
each seat the same cards from the same places of the deck whether or not the exchanges
name their cards, and as the draws said lane by lane in plain Python."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, _Chunk, card_rows
from validator.interpreter.batch_kernels import draws
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


def _drawn_by_hand(
    player: NDArray[np.int8],
    decks: NDArray[np.int8],
    pos: NDArray[np.int64],
    kind: NDArray[np.int64],
    keep: NDArray[np.int64],
    paired: NDArray[np.bool_],
    order: list[int],
    named: NDArray[np.bool_],
    cards_named: NDArray[np.bool_],
) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.int64]]:
    """The draws as § 589.11(d)(2)(i) says them, lane by lane in plain Python: the cards
    held, a place more; the cards each exchange replaced; the decks' places after."""
    n, seats, k = player.shape
    out = np.concatenate([player, np.full((n, seats, 1), -1, np.int8)], axis=2)
    counts = np.zeros((n, seats), np.int64)
    pos = pos.copy()
    for r in range(n):
        for s in order:
            if kind[r, s] == 1:  # a sixth card bought
                out[r, s, k] = decks[r, pos[r]]
                pos[r] += 1
            elif kind[r, s] == 2:  # an exchange
                held = sorted((int(c) for c in player[r, s] if c >= 0), reverse=True)
                ranks = [c // 4 for c in held]
                twice = [c for c in held if ranks.count(c // 4) >= 2]
                kept = (held + [-1] * k)[: int(keep[r, s])]
                if paired[r, s] and twice:
                    kept = twice
                if named[r, s]:
                    kept = [
                        int(c) for c, m in zip(player[r, s], cards_named[r, s], strict=True) if m
                    ]
                new = [decks[r, min(int(pos[r]) + j, decks.shape[1] - 1)] for j in range(k)]
                out[r, s, :k] = (kept + new)[:k]
                counts[r, s] = k - len(kept)
                pos[r] += k - len(kept)
    return out, counts, pos


@pytest.mark.parametrize("seats", [1, 4])
def test_the_draw_pass_keeps_and_deals_as_said_by_hand(seats: int) -> None:
    """The compiled draw pass against the draws said lane by lane (every kind, the highest
    kept, the cards of a rank held twice or more kept, the cards named kept, a place of no
    card, a deck read past its last card), over hands rich in pairs, trips and quads."""
    rng = np.random.default_rng(589)
    n, k = 4000, 5
    decks = np.array([rng.permutation(52) for _ in range(n)], np.int8)
    # hands dealt from a deck of few ranks: two, three and four of a rank are common
    few = rng.integers(0, 52, size=(n, seats, k))
    few = few // 4 % rng.integers(2, 14, size=(n, seats, 1)) * 4 + few % 4
    player = np.where(rng.random((n, seats, 1)) < 0.5, few, decks[:, :k, None].swapaxes(1, 2))
    player = np.array([[_distinct(h) for h in row] for row in player], np.int8)
    none = rng.random((n, seats)) < 0.1  # no card in a place
    player[none, rng.integers(0, k, size=int(none.sum()))] = -1
    dealt = player.copy()
    pos = rng.integers(k * seats, 53, size=n).astype(np.int64)  # some past the deck's end
    kind = rng.integers(0, 3, size=(n, seats)).astype(np.int64)
    kind[(pos > 51 - k * seats)[:, None] & (kind == 1)] = 2  # a card bought is in the deck
    keep = rng.integers(0, k + 1, size=(n, seats)).astype(np.int64)
    paired = rng.random((n, seats)) < 0.5
    named = rng.random((n, seats)) < 0.1
    cards_named = rng.random((n, seats, k)) < 0.5
    order = list(range(seats))[:: -1 if seats > 1 else 1]
    want, want_counts, want_pos = _drawn_by_hand(
        player, decks, pos, kind, keep, paired, order, named, cards_named
    )
    for names in (cards_named, None):  # an exchange naming its cards, and none naming
        out = np.full((n, seats, k + 1), 99, np.int8)
        out_dealt = np.full((n, seats, k + 1), 99, np.int8)
        counts = np.zeros((n, seats), np.int64)
        at = pos.copy()
        draws(
            player, dealt, out, out_dealt, decks, at, kind, keep, paired,
            np.array(order, np.int64), counts, named, names,
        )  # fmt: skip
        if names is None:
            want, want_counts, want_pos = _drawn_by_hand(
                player, decks, pos, kind, keep, paired, order, named & False, cards_named
            )
        assert (out == want).all()
        assert (counts == want_counts).all()
        assert (at == want_pos).all()
        added = np.where(kind == 1, want[:, :, k], -1)
        assert (out_dealt == np.concatenate([dealt, added[:, :, None]], axis=2)).all()


def _distinct(hand: NDArray[np.int64]) -> list[int]:
    """A hand's cards with a card held twice replaced by the next card not held."""
    out: list[int] = []
    for c in hand.tolist():
        while c in out:
            c = (c + 1) % 52
        out.append(c)
    return out
