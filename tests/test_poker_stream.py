"""A Poker session's one random stream (``fast.stream``): numpy's ``Generator`` seeded as every
simulation's chunk k is, read word by word by every shuffle of the session (the deck before
each round; the burn cards for the Stud common card, § 553.10(h); the discard pile for the
draw, § 553.13(g)(2)), by the kernels and ``table.Hand`` alike, so that ``play --seed S``
deals the first rounds ``simulate --seed S`` deals."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.poker_oracle.table import OracleStream
from validator.cards import card_str
from validator.cli import app
from validator.compiler import load_game
from validator.interpreter.chunks import chunk_rng, chunk_seed
from validator.interpreter.poker.fast import block
from validator.interpreter.poker.fast import stream as stream_module
from validator.interpreter.poker.fast.stream import SPAN, Stream, shuffle
from validator.interpreter.poker.session import HandRecord, Session
from validator.interpreter.poker.table import default_setup
from validator.money import cents_figure
from validator.par import poker
from validator.par.poker import PokerSpec


def test_the_words_are_the_generators_outputs_their_top_62_bits() -> None:
    """Chunk k's generator (``SeedSequence(seed, spawn_key=(k,))``, PCG64): each word is one
    64-bit output shifted right by two, in order, however many are drawn at a time."""
    stream = Stream(chunk_rng(11, 3))
    stream.ensure(5)
    words = stream.ensure(100_000)[1:100_001]
    raw = np.random.PCG64(chunk_seed(11, 3)).random_raw(100_000)
    assert words.tolist() == (raw >> np.uint64(2)).astype(np.int64).tolist()


def test_a_shuffle_is_fisher_yates_from_the_end_each_place_exactly_uniform() -> None:
    """The last card swapped with the one at (word mod 3), then the second with (word mod
    2); a word at or above the largest multiple of the bound below 2**62 is drawn again (2**62
    leaves 1 over a multiple of 3: the word 2**62 - 1 is drawn again), so every place is
    exactly equally likely."""
    assert SPAN % 3 == 1
    words = np.array([1, SPAN - 1, SPAN - 2, 7, 99], dtype=np.int64)
    pile = np.array([10, 11, 12], dtype=np.int64)
    # SPAN - 2 = 3q + 2: the last card swapped with the third (itself); 7 mod 2 = 1: kept
    assert shuffle(words, 1, pile, 3) == 4
    assert pile.tolist() == [10, 11, 12]
    words = np.array([1, 4, 6], dtype=np.int64)
    assert shuffle(words, 1, pile, 3) == 3
    assert pile.tolist() == [12, 10, 11]  # 4 mod 3 = 1: 12 <-> 11; 6 mod 2 = 0: 12 <-> 10


def test_a_shuffle_that_runs_out_of_words_says_so() -> None:
    words = np.array([1, SPAN - 1], dtype=np.int64)  # drawn again, and no word after it
    assert shuffle(words, 1, np.arange(3, dtype=np.int64), 3) == -1
    assert shuffle(words, 1, np.arange(1, dtype=np.int64), 1) == 1  # one card: no word read


def test_every_order_of_three_cards_comes_about_as_often() -> None:
    """6,000 shuffles of three cards: each of the six orders about 1,000 times (more than
    five standard deviations off, about 1 in 3 million, fails)."""
    stream = OracleStream(chunk_rng(5))
    seen = Counter(
        tuple(stream.shuffled(np.arange(3, dtype=np.int64)).tolist()) for _ in range(6000)
    )
    assert len(seen) == 6
    assert all(abs(n - 1000) < 5 * 29 for n in seen.values())
    assert stream.read == 6000 * 2


def _books(r: HandRecord) -> tuple[object, ...]:
    return (r.number, r.button, r.deck, r.rake, r.bad_beat_contribution, r.showdown, r.buy_ins)


@pytest.mark.parametrize("game_id", ["poker-five-card-draw", "poker-seven-card-stud"])
def test_rounds_are_dealt_from_the_same_words_however_they_are_drawn(
    monkeypatch: pytest.MonkeyPatch, game_id: str
) -> None:
    """A session given words a few at a time (a block runs out of them and plays the round
    again from more) deals and settles every round as a session given them in bulk, in
    blocks too, and reads as many."""
    game = load_game(game_id)
    setup = default_setup(game)
    bulk = Session(game, setup, setup.positions, 21, narrated=False)
    expected = [_books(r) for r in bulk.hands(80)]
    monkeypatch.setattr(stream_module, "REFILL", 7)
    monkeypatch.setattr(block, "BLOCK_WORDS", 1)
    scant = Session(game, setup, setup.positions, 21, narrated=False)
    assert [_books(r) for r in scant.hands(80)] == expected
    assert scant.totals == bulk.totals
    assert scant.stream.read == bulk.stream.read


def test_play_and_simulate_deal_the_same_first_rounds_for_the_same_seed() -> None:
    """``play --seed 5`` is table 0 of ``simulate --seed 5`` (``SeedSequence(5,
    spawn_key=(0,))``): the same decks, buttons and rake, round by round."""
    result = CliRunner().invoke(
        app,
        [
            "play",
            "poker-holdem",
            "--seats",
            "6",
            "--rounds",
            "4",
            "--seed",
            "5",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    spec = PokerSpec("poker-holdem", None, seed=5, hands=4, hands_per_hour=30, tables=1, seats=6)
    simulated = list(poker._session(spec, 0).hands(4))
    assert [r["deck"] for r in played] == [[card_str(c) for c in r.deck] for r in simulated]
    assert [r["button"] for r in played] == [r.button for r in simulated]
    assert [r["rake"] for r in played] == [cents_figure(r.rake) for r in simulated]


def test_the_decks_of_seed_1_are_pinned() -> None:
    """What ``play --seed 1`` and ``simulate --seed 1`` deal first, pinned: a change to the
    seeding rule, to the words or to the shuffle changes every Poker log and figure, and
    must be seen here first."""
    stream = OracleStream(chunk_rng(1))
    first = " ".join(card_str(c) for c in stream.deck())
    assert first == (
        "8H 7C 4C QD 6C AC 5H 4S 8D TS 2D QS JH 7D 9D JC 3S 6S 5D KS JS 6H 3D 9H AS 9C 4D 2C "
        "TD 2H 7H 8C JD AD KD 3C 7S KC QC 8S TH 5C QH AH 2S 4H 3H 5S 6D KH TC 9S"
    )
    assert " ".join(card_str(c) for c in stream.deck()[:6]) == "9C KS 9D 3S 8D 9H"
    assert stream.read == 2 * 51


def test_a_word_drawn_again_is_read_and_counted() -> None:
    """A word at or above the largest multiple of the bound is passed over, and the stream
    reads the next one, drawn from the generator where the array ran out."""
    stream = OracleStream(chunk_rng(2))
    stream.words = np.array([1, SPAN - 1], dtype=np.int64)  # one unread word, drawn again
    shuffled = stream.shuffled(np.arange(3, dtype=np.int64))
    fresh = chunk_rng(2).integers(0, SPAN, size=2, dtype=np.int64)
    expected = np.arange(3, dtype=np.int64)
    j = int(fresh[0] % 3)
    expected[2], expected[j] = expected[j], expected[2]
    j = int(fresh[1] % 2)
    expected[1], expected[j] = expected[j], expected[1]
    assert shuffled.tolist() == expected.tolist()
    assert stream.read == 3
