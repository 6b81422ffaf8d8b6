"""The batch chunk is composed of parts, each given what it reads, each usable on its own.

The chunk (``batch._Chunk``) runs the procedure over a ``ChunkState`` and hands it, with the
game's rules, to its hands, conditions, decisions and settlement; none of them inherits from
another, so each is read, and tried, without the others.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from validator import PROJECT_ROOT
from validator.cards import parse_cards
from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, _Chunk
from validator.interpreter.batch_conditions import ChunkConditions
from validator.interpreter.batch_decisions import ChunkDecisions
from validator.interpreter.batch_hands import ChunkHands
from validator.interpreter.batch_settlement import ChunkSettlement
from validator.interpreter.batch_state import ChunkState
from validator.interpreter.rules import Rules
from validator.interpreter.settings import read_settings
from validator.model.procedure import When

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
ANTE = 10_000_000  # $10 in micro-dollars

#: two rounds of High Card Flush at one seat, (player, dealer): the dealer's three-card
#: flush eight high does not qualify; nine high does, and beats the player's seven high
ROUNDS = [
    ("AS KS QS 2H 3D 4C 5C", "8H 6H 4H 2S 3C 7D JC"),
    ("7S 5S 2S 3H 4D 8C TC", "9H 6H 4H 2S 3C 7D JC"),
]


def _high_card_flush() -> tuple[Rules, BatchEngine, ChunkState]:
    """A chunk of High Card Flush with the cards dealt by hand: no deck, no steps."""
    game = load_game("high-card-flush")
    rules = Rules(game, read_settings(game, EXAMPLE))
    engine = BatchEngine(rules, rules.strategy(None), 1, {"ante": Decimal(10)})
    decks = np.zeros((len(ROUNDS), 52), dtype=np.int64)
    stakes = {"ante": np.full((len(ROUNDS), 1), ANTE, dtype=np.int64)}
    state = ChunkState(decks, {}, 1, stakes, {})
    player = np.array([parse_cards(p) for p, _ in ROUNDS], dtype=np.int64)[:, None, :]
    dealer = np.array([parse_cards(d) for _, d in ROUNDS], dtype=np.int64)
    state.player, state.player_dealt = player, player.copy()
    state.table["dealer"], state.table_dealt["dealer"] = dealer, dealer.copy()
    state.version += 1
    return rules, engine, state


def test_the_chunk_and_its_parts_inherit_nothing() -> None:
    for part in (
        _Chunk,
        ChunkState,
        ChunkHands,
        ChunkConditions,
        ChunkDecisions,
        ChunkSettlement,
    ):
        assert part.__mro__ == (part, object), part.__name__


def test_the_hands_read_a_state_without_a_chunk() -> None:
    """§ 678a.11(d): a dealer's three-card flush eight high does not qualify, nine high
    does; the player's ace high flush is higher, seven high lower."""
    rules, engine, state = _high_card_flush()
    hands = ChunkHands(rules, engine.evaluator, state)
    assert hands.dealer_qualifies().tolist() == [False, True]
    assert hands.compare().tolist() == [[1], [-1]]


def test_a_hand_is_valued_again_only_when_the_cards_change() -> None:
    """The first round's dealer nine, placed after the value was read, counts once the
    version moves."""
    rules, engine, state = _high_card_flush()
    hands = ChunkHands(rules, engine.evaluator, state)
    assert hands.dealer_qualifies().tolist() == [False, True]
    state.table["dealer"][0, 0] = parse_cards("9H")[0]
    assert hands.dealer_qualifies().tolist() == [False, True]  # the same version
    state.version += 1
    assert hands.dealer_qualifies().tolist() == [True, True]


def test_the_conditions_read_the_state_and_its_hands() -> None:
    rules, engine, state = _high_card_flush()
    conditions = ChunkConditions(rules, state, ChunkHands(rules, engine.evaluator, state))
    assert conditions.cond(When(dealer_qualifies=False)).tolist() == [[True], [False]]
    assert conditions.cond(When(player=["lower"])).tolist() == [[False], [True]]
    assert conditions.cond(When(wagered=["ante"], folded=False)).all()
    state.folded[1, 0] = True
    assert conditions.cond(When(folded=True)).tolist() == [[False], [True]]


def test_the_settlement_writes_what_each_line_returned_into_the_state() -> None:
    """§ 678a.11(d)(1): the Ante is paid 1 to 1 when the dealer does not qualify;
    § 678a.11(d)(2)(ii)(C): it loses to a qualifying dealer's higher hand."""
    rules, engine, state = _high_card_flush()
    hands = ChunkHands(rules, engine.evaluator, state)
    conditions = ChunkConditions(rules, state, hands)
    settlement = ChunkSettlement(rules, engine.paytable, state, hands, conditions)
    settlement.settle(["ante"], "from_dealer_right", np.ones((2, 1), bool))
    assert state.returned["ante"].tolist() == [[2 * ANTE], [0]]
    assert state.house_line["ante"].tolist() == [[-ANTE], [ANTE]]
    assert state.settled["ante"].all()


def test_a_hands_category_alone_is_its_values_category() -> None:
    """A paytable's row reads a hand's category alone: valued for the category only (no
    key, no kickers), every hand of every banking game's table holds the category its
    whole value holds, at every seat of a played chunk."""
    from validator.interpreter.simulate import deal, default_wagers

    for game_id in ("four-card-poker", "high-card-flush", "wpt-heads-up-holdem", "lunar-poker"):
        game = load_game(game_id)
        rules = Rules(game, read_settings(game, EXAMPLE.with_name(f"{game_id}.yaml")))
        seats = rules.config.positions
        engine = BatchEngine(rules, rules.strategy(None), seats, default_wagers(rules))
        decks, draws = deal(np.random.default_rng(5), 1500, seats)
        chunk = _Chunk(engine, decks, draws)
        chunk.play()
        checked = 0
        for hand_id, hand in rules.d.hands.items():
            if hand.losing_of or hand.ranking not in game.rankings:
                continue
            alone = ChunkHands(rules, engine.evaluator, chunk.state).held(hand_id)
            whole = ChunkHands(rules, engine.evaluator, chunk.state).value(hand_id).held
            assert alone.shape == whole.shape and (alone == whole).all(), (game_id, hand_id)
            checked += 1
        assert checked >= 2, game_id
