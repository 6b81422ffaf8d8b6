"""A chunk's decks: dealt as numpy's ``Generator.permuted`` deals them, the generator left
where it leaves it, so that the same seed simulates the same rounds, byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from validator.interpreter.batch import card_rows
from validator.interpreter.chunks import chunk_rng
from validator.interpreter.shuffle import shuffled_decks


def _permuted(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.permuted(np.tile(np.arange(52, dtype=np.int64), (n, 1)), axis=1)


@pytest.mark.parametrize("n", [0, 1, 7, 3000])
@pytest.mark.parametrize("half_word_kept", [False, True])
def test_the_decks_are_numpys_and_so_is_every_later_draw(n: int, half_word_kept: bool) -> None:
    for seed in range(4):
        ours, numpys = chunk_rng(seed, seed), chunk_rng(seed, seed)
        if half_word_kept:  # a 32-bit draw before: half of a 64-bit word is kept
            ours.integers(0, 52, 1), numpys.integers(0, 52, 1)
        decks = shuffled_decks(ours, n)
        assert decks.dtype == np.int8
        assert (decks == _permuted(numpys, n)).all()
        assert ours.bit_generator.state == numpys.bit_generator.state
        assert (ours.integers(0, 52, 50) == numpys.integers(0, 52, 50)).all()
        assert (ours.random(5) == numpys.random(5)).all()


def test_another_bit_generator_is_dealt_by_numpy_itself() -> None:
    ours = np.random.Generator(np.random.MT19937(5))
    numpys = np.random.Generator(np.random.MT19937(5))
    assert (shuffled_decks(ours, 40, dtype=np.int64) == _permuted(numpys, 40)).all()
    assert (ours.integers(0, 52, 50) == numpys.integers(0, 52, 50)).all()


def test_a_deck_of_cards_outside_the_deck_is_refused() -> None:
    with pytest.raises(ValueError, match=r"0\.\.51"):
        card_rows(np.array([[0, 1, 52]]))
    assert card_rows(np.array([[0, 51]])).dtype == np.int8


@pytest.mark.parametrize("cards", [1, 2, 3, 17, 32, 33, 64, 65])
def test_decks_of_any_size_across_the_masks_edges_are_numpys(cards: int) -> None:
    """A deck's positions fall in runs sharing the draw's mask (a power of two less one):
    decks whose top position is at a run's either edge are shuffled as numpy does."""
    for seed in range(3):
        ours, numpys = chunk_rng(seed, 1), chunk_rng(seed, 1)
        decks = shuffled_decks(ours, 50, cards=cards)
        expected = numpys.permuted(np.tile(np.arange(cards, dtype=np.int64), (50, 1)), axis=1)
        assert (decks == expected).all()
        assert ours.bit_generator.state == numpys.bit_generator.state


def test_decks_are_dealt_again_from_more_words_where_the_first_words_run_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The raw words drawn at first are an estimate: where a chunk's decks need more, they
    are dealt again from twice as many, the generator put back first."""
    import validator.interpreter.shuffle as shuffle

    monkeypatch.setattr(shuffle, "_WORDS_PER_DECK", 1)
    for half_word_kept in (False, True):
        ours, numpys = chunk_rng(3, 2), chunk_rng(3, 2)
        if half_word_kept:
            ours.integers(0, 52, 1), numpys.integers(0, 52, 1)
        decks = shuffled_decks(ours, 500)
        assert (decks == _permuted(numpys, 500)).all()
        assert ours.bit_generator.state == numpys.bit_generator.state
