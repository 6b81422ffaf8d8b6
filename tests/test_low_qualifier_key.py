"""The low qualifier read as one packed key: both Poker kernels take a low hand as
qualifying when its key is at least the lowest qualifying key (``program._low_threshold``).
Held here, over every five-card low by its ranks, equal to the qualifier the game file
states as the scalar evaluator reads it (§ 553.10(j); § 553.12(k): "eight or better")."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from validator.compiler import all_games
from validator.interpreter.poker.fast.program import _low_threshold
from validator.rankings.packed import pack_key

QUALIFIED_LOWS = sorted(
    (g.id, g.definition.showdown.low)
    for g in all_games()
    if g.definition.kind == "nonbanking"
    and g.definition.showdown is not None
    and g.definition.showdown.low is not None
    and g.hand(g.definition.showdown.low).qualifier is not None
)


def test_the_games_with_a_low_qualifier_are_found() -> None:
    assert {"poker-omaha-hi-lo-8", "poker-seven-card-stud-hi-lo-8"} <= {
        g for g, _ in QUALIFIED_LOWS
    }


@pytest.mark.parametrize(("game_id", "hand_id"), QUALIFIED_LOWS)
def test_a_low_qualifies_exactly_when_its_key_reaches_the_threshold(
    game_id: str, hand_id: str
) -> None:
    """Every multiset of five ranks (pairs and more included; suits spread so no two
    cards are one), as the evaluator values it: qualifies by the game's qualifier if and
    only if its packed key is at least the threshold the kernels compare with."""
    game = next(g for g in all_games() if g.id == game_id)
    ev = game.evaluator(hand_id)
    qualifier = game.hand(hand_id).qualifier
    assert qualifier is not None
    threshold = _low_threshold(game, hand_id)
    qualified = 0
    for ranks in combinations_with_replacement(range(13), 5):
        if len(set(ranks)) == 1:
            continue  # five of a rank: no such hand in one deck
        cards, seen = [], {}
        for r in ranks:
            suit = seen.get(r, 0)
            seen[r] = suit + 1
            cards.append(r << 2 | suit)
        value = ev.best(cards)
        qualifies = ev.qualifies(value, qualifier)
        qualified += qualifies
        assert (pack_key(value.key) >= threshold) == qualifies, (ranks, value.name)
    if qualifier == "eight_or_better":  # five different ranks of ace to eight: C(8, 5)
        assert qualified == 56
