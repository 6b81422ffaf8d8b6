"""The compiled facts keep every field the game model has: what the checks read from
``validator/checks/compiled/`` is the compiled game's own objects, field for field.

The compiled file is derived generically from the models (``validator.checks.projection``),
so a field added to a table, a meter rule, a wager or a constraint reaches the checks
without an edit to the facts; these tests fail if the derivation drops or alters one.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from validator.checks.facts import facts_for, known_games
from validator.checks.projection import Projection, _properties
from validator.compiler import load_game

GAMES = known_games()


def same(model: Any, read: Any, where: str) -> None:
    """``read`` (from the compiled file) equals ``model`` on every field and property of
    every model object inside it, recursively, with exact values of the same type."""
    fields = getattr(type(model), "model_fields", None)
    if fields is not None:
        assert isinstance(read, Projection), where
        cls: Any = type(model)
        names = [*fields, *_properties(cls)]
        assert sorted(vars(read)) == sorted(names), where
        for name in names:
            same(getattr(model, name), getattr(read, name), f"{where}.{name}")
        return
    if isinstance(model, dict):
        assert isinstance(read, dict) and list(read) == list(model), where
        for key, value in model.items():
            same(value, read[key], f"{where}[{key!r}]")
        return
    if isinstance(model, list | tuple):
        assert type(read) is type(model) and len(read) == len(model), where
        for i, (a, b) in enumerate(zip(model, read, strict=True)):
            same(a, b, f"{where}[{i}]")
        return
    assert type(read) is type(model) and read == model, (where, model, read)
    if isinstance(model, Decimal | Fraction | dt.date):
        assert str(read) == str(model), where


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_the_compiled_game_survives_the_compiled_file(game: str) -> None:
    """Tables (rows, meters with their seed, reseed and rates, approved holds), wagers,
    hands, the whole definition, the rankings and the constraints: equal after the round
    trip through the committed file, for every game."""
    compiled = load_game(game)
    facts = facts_for(game)
    assert facts._game is None  # read from the compiled file, not built from the game
    same(compiled.definition, facts.definition, game)
    for wid, tid, table in compiled.definition.tables():
        same(table, facts.table(tid), f"{game} table {tid}")
        assert facts.wager_of(tid) == wid
    for hid, hand in compiled.definition.hands.items():
        same(compiled.rankings[hand.ranking], facts.ranking(hid), f"{game} hand {hid}")
        for c in compiled.rankings[hand.ranking].categories:
            assert facts.strength_of(hid, c.id) == compiled.evaluator(hid).strength(c.id)
    from validator.checks.engine import constraints_for

    same(list(constraints_for(compiled)), list(facts.constraints), f"{game} constraints")


def test_a_meter_rule_keeps_its_exact_types() -> None:
    """§ 641a.12(d)(3): the Four Card Progressive's seed is money per unit wagered and its
    rate a fraction, as the model has them, after the compiled file."""
    facts = facts_for("four-card-poker")
    compiled = load_game("four-card-poker")
    _, table = compiled.definition.table_by_id("four_card_progressive")
    assert table.meters is not None
    for letter in table.letters:
        model = table.meters.for_paytable(letter)
        read = facts.meter_rules("four_card_progressive", letter)
        assert list(read) == list(model)
        for name, rule in model.items():
            for field in type(rule).model_fields:
                assert getattr(read[name], field) == getattr(rule, field), (letter, name, field)
                assert type(getattr(read[name], field)) is type(getattr(rule, field))
