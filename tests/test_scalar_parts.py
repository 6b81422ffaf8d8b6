"""The scalar round is composed of parts, each given what it reads, each usable on its own.

The round (``scalar._Round``) runs the procedure over a ``RoundState`` and hands it, with the
game's rules, to its hands, conditions, decisions and settlement; none of them inherits from
another, so each is read, and tried, without the others.
"""

from __future__ import annotations

from decimal import Decimal

from validator import PROJECT_ROOT
from validator.cards import parse_cards
from validator.compiler import load_game
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import _Round
from validator.interpreter.scalar_conditions import RoundConditions
from validator.interpreter.scalar_decisions import RoundDecisions
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_settlement import RoundSettlement
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Cards, Seat
from validator.interpreter.settings import read_settings
from validator.model.procedure import When

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"


def _high_card_flush(player: str, dealer: str) -> tuple[Rules, RoundState, Seat]:
    """A round of High Card Flush with one seat, its cards dealt by hand: no deck, no steps."""
    game = load_game("high-card-flush")
    rules = Rules(game, read_settings(game, EXAMPLE))
    seat = Seat(1, {"ante": Decimal(10)}, None)
    cards = Cards()
    cards.add(parse_cards(player))
    seat.cards["player"] = cards
    state = RoundState([seat], {})
    state.table["dealer"] = Cards()
    state.table["dealer"].add(parse_cards(dealer))
    return rules, state, seat


def test_the_round_and_its_parts_inherit_nothing() -> None:
    for part in (_Round, RoundState, RoundHands, RoundConditions, RoundDecisions, RoundSettlement):
        assert part.__mro__ == (part, object), part.__name__


def test_the_hands_read_a_state_without_a_round() -> None:
    """§ 678a.11(d): a dealer's three-card flush eight high does not qualify; the player's
    three-card flush ace high is higher."""
    rules, state, seat = _high_card_flush("AS KS QS 2H 3D 4C 5C", "8H 6H 4H 2S 3C 7D JC")
    hands = RoundHands(rules, state)
    assert not hands.dealer_qualifies()
    assert hands.compare(seat) == "higher"
    assert str(hands.shown("player_flush", seat)).endswith("(AS KS QS)")


def test_a_hand_is_valued_again_only_when_the_cards_change() -> None:
    """The dealer's nine, dealt after the value was read, counts once the version moves."""
    rules, state, _ = _high_card_flush("AS KS QS 2H 3D 4C 5C", "8H 6H 4H 2S 3C 7D JC")
    hands = RoundHands(rules, state)
    assert not hands.dealer_qualifies()
    state.table["dealer"].held[-1] = parse_cards("9H")[0]
    assert not hands.dealer_qualifies()  # the same version: the value read before
    state.version += 1
    assert hands.dealer_qualifies()


def test_the_conditions_read_the_state_and_its_hands_and_say_why() -> None:
    rules, state, seat = _high_card_flush("AS KS QS 2H 3D 4C 5C", "8H 6H 4H 2S 3C 7D JC")
    conditions = RoundConditions(rules, state, RoundHands(rules, state))
    assert conditions.holds(When(dealer_qualifies=False), seat)
    assert not conditions.holds(When(dealer_qualifies=True), seat)
    why = conditions.explain(When(dealer_qualifies=False, player=["higher"]), seat)
    assert why[0].startswith("the dealer's ") and why[0].endswith("does not qualify")
    assert why[1].startswith("the player's ") and " is higher than the dealer's " in why[1]
