"""The deal step's ``burn:``: the cards a round takes from the deck are the chapter's, burn
cards included, in both round engines.

World Poker Tour Heads-Up Hold 'Em: after the pre-flop decisions "the dealer shall BURN THE
NEXT CARD. THE DEALER SHALL THEN [...] DEAL the three-card Flop" (§ 677a.11(c)), and after the
flop decisions the same before "the Turn and River cards" (§ 677a.11(e)).
"""

from __future__ import annotations

import numpy as np

from validator import PROJECT_ROOT
from validator.cards import cards_str
from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, _Chunk
from validator.interpreter.batch_money import to_micro
from validator.interpreter.dealing import DeckSource
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.interpreter.settings import read_settings

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "wpt-heads-up-holdem.yaml"


def _rules() -> Rules:
    game = load_game("wpt-heads-up-holdem")
    return Rules(game, read_settings(game, EXAMPLE))


def _deck(seed: int) -> list[int]:
    return [int(c) for c in np.random.default_rng(seed).permutation(52)]


def test_a_card_is_burned_before_the_flop_and_before_the_turn_and_river() -> None:
    """§ 677a.11(c), (e): two seats and the dealer take the first six cards (one at a time,
    the dealer last in each turn); the seventh is burned, the Flop is the next three, the
    eleventh is burned, the Turn and River the next two."""
    rules = _rules()
    deck = _deck(7)
    source = DeckSource(deck)
    wagers = default_wagers(rules)
    seats = [Seat(k, dict(wagers), None) for k in (1, 2)]
    out = Engine(rules, rules.strategy(None)).run(seats, source, {})
    assert [s.cards for s in out.seats] == [[deck[0], deck[3]], [deck[1], deck[4]]]
    assert out.dealer["cards"] == cards_str([deck[2], deck[5]]).split()
    assert out.dealer["community"] == cards_str(deck[7:10] + deck[11:13]).split()
    assert source.pos == 13, "thirteen cards leave the deck: six, a burn, three, a burn, two"
    said = {cite: text for cite, text in out.events if text.startswith("burn")}
    assert said["§ 677a.11(c)"] == "burn 1 card, then deal the three-card Flop"
    assert said["§ 677a.11(e)"] == "burn 1 card, then deal the Turn and River cards"


def test_the_batch_engine_burns_the_same_cards() -> None:
    """The batch engine takes the burn cards from the same places of the deck: its board is
    the scalar engine's, round by round, and no burn card reaches a hand."""
    rules = _rules()
    wagers = default_wagers(rules)
    decks = [_deck(seed) for seed in range(20)]
    engine = BatchEngine(rules, rules.strategy(None), 3, wagers)
    stakes = {s: np.full((20, 3), to_micro(v), np.int64) for s, v in wagers.items()}
    chunk = _Chunk(engine, np.array(decks, dtype=np.int64), {}, stakes)
    chunk.play()
    for r, deck in enumerate(decks):
        seats = [Seat(k, dict(wagers), None) for k in (1, 2, 3)]
        out = Engine(rules, rules.strategy(None)).run(seats, DeckSource(deck), {})
        board = [int(c) for c in chunk.state.table["community"][r]]
        assert cards_str(board).split() == out.dealer["community"], f"round {r}"
        burned = {deck[8], deck[12]}
        assert not burned & {int(c) for c in chunk.state.player[r].ravel()}
        assert not burned & set(board)
