"""``cache.PerObject``: the one memo of what is built once per object (an evaluator per
ranking, a finder per category, a game's strategy strengths, a card order's places, a
ranking's packed tables)."""

from __future__ import annotations

from tests.poker_oracle.strategy import compiled
from validator.cache import PerObject
from validator.compiler import load_game
from validator.rankings.evaluator import evaluator_for


class Thing:
    def __eq__(self, other: object) -> bool:  # equal by value, as the models are
        return isinstance(other, Thing)

    __hash__ = None  # type: ignore[assignment]


def test_built_once_per_object_and_again_for_an_equal_other() -> None:
    built: list[Thing] = []
    memo = PerObject(lambda t: built.append(t) or len(built))
    a, b = Thing(), Thing()
    assert (memo(a), memo(a), memo(b), memo(a)) == (1, 1, 2, 1)
    assert built[0] is a and built[1] is b


def test_an_id_reused_after_its_object_is_gone_is_not_confused() -> None:
    """The object is kept beside its value: while the entry lives its id is not reused, so
    a new object never reads another's value."""
    memo = PerObject(lambda t: object())
    values = {id(memo(Thing())) for _ in range(50)}
    assert len(values) == 50


def test_the_limit_forgets_every_entry_when_reached() -> None:
    calls: list[int] = []
    memo = PerObject(lambda t: calls.append(1) or len(calls), limit=3)
    things = [Thing() for _ in range(4)]
    for t in things:
        memo(t)
    assert len(calls) == 4
    memo(things[3])  # kept: the last built after the memo was emptied
    assert len(calls) == 4
    memo(things[0])  # forgotten when the fourth came
    assert len(calls) == 5


def test_the_project_memos_hand_back_the_same_object() -> None:
    game = load_game("poker-holdem")
    ranking = game.evaluator(game.definition.showdown.high).ranking  # type: ignore[union-attr, arg-type]
    assert evaluator_for(ranking) is evaluator_for(ranking)
    assert compiled(game) is compiled(game)
