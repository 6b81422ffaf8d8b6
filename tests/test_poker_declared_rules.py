"""The Poker engine follows the rules a game file declares in one word: the split pot's
excess (`pot_excess_to`, § 553.10(i)(2)(i)), a tied half's excess (`high_ties`, `low_ties`,
§ 553.10(i)(2)(ii), (iii)), the button's move (`rotates`, § 553.1 (Button)), conceding a
losing hand (`concede`, § 553.16(d)) and the settlement's order (`rake.final`, § 553.15(e);
§ 553.7(e)(6)). A game stating another word is refused at load, where it states it; a game
whose rule reads otherwise is settled otherwise."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from validator import PROJECT_ROOT
from validator.compiler import Game, load_game
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.settle import settle_poker_round
from validator.interpreter.poker.showdown import Splitter
from validator.interpreter.poker.table import default_setup
from validator.model.registry import GameFileError, load_card_orders

#: § 553.12(j)(2)(i): a $21 high-low pot, seat 1 the low (A-2-5-6-8), seat 2 the high
SPLIT = {
    "game": "poker-omaha-hi-lo-8",
    "seats": [
        {"seat": 1, "cards": ["AS", "2S", "KD", "9C"], "contributed": 7},
        {"seat": 2, "cards": ["QH", "QD", "JC", "JS"], "contributed": 7},
        {"seat": 3, "cards": ["7C", "7D", "TS", "TH"], "contributed": 7, "folded": True},
    ],
    "board": ["5C", "6D", "8H", "QS", "3C"],
}


def _with(game: Game, path: str, **values: Any) -> Game:
    """The game with one rule's fields changed (the rule at ``path``, dotted), as a game
    file stating them would read (the model's own check of the words is not run)."""
    names = path.split(".")
    nodes: list[Any] = [game.definition]
    for name in names:
        nodes.append(getattr(nodes[-1], name))
    node = nodes[-1].model_copy(update=values)
    for parent, name in zip(reversed(nodes[:-1]), reversed(names), strict=True):
        node = parent.model_copy(update={name: node})
    return replace(game, definition=node)


def _awards(game: Game) -> dict[int, str]:
    got = settle_poker_round(SPLIT, game).to_json()
    assert got["totals"]["balanced"]
    return {s["seat"]: s["award"] for s in got["seats"]}


def test_the_split_pots_excess_goes_where_the_game_says_553_10_i_2_i() -> None:
    """`pot_excess_to: high`: the odd $1 to the high hand ($11 to $10); the engine reads the
    word, so a rule giving it to the low hand pays the low hand $11."""
    game = load_game("poker-omaha-hi-lo-8")
    assert game.definition.showdown is not None
    assert game.definition.showdown.odd_chips.pot_excess_to == "high"
    assert _awards(game) == {1: "10", 2: "11", 3: "0"}
    low = _with(game, "showdown.odd_chips", pot_excess_to="low")
    assert _awards(low) == {1: "11", 2: "10", 3: "0"}
    reasons = settle_poker_round(SPLIT, low).to_json()["seats"][0]["reasons"]
    assert any("cannot be divided equally goes with the low half" in r for r in reasons)


def test_a_tied_halfs_excess_follows_the_declared_order_553_10_i_2_ii_iii() -> None:
    """`high_ties: highest_card_by_suit`, `low_ties: lowest_card_by_suit`: the splitter
    orders a tied half by the declared rule, and its reason names it."""
    game = load_game("poker-omaha-hi-lo-8")
    splitter = Splitter(game, load_card_orders(game.path.parent), 100)
    assert splitter.tie_rule("high") == "highest_card_by_suit"
    assert splitter.tie_rule("low") == "lowest_card_by_suit"
    swapped = _with(game, "showdown.odd_chips", low_ties="highest_card_by_suit")
    assert Splitter(swapped, load_card_orders(game.path.parent), 100).tie_rule("low") == (
        "highest_card_by_suit"
    )


def _poker_file_with(tmp_path: Path, old: str, new: str) -> Path:
    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    shared = games / "include" / "poker.yaml"
    text = shared.read_text(encoding="utf-8")
    assert old in text
    shared.write_text(text.replace(old, new, 1), encoding="utf-8")
    return games


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("pot_excess_to: high", "pot_excess_to: low"),
        ("high_ties: highest_card_by_suit", "high_ties: by_seat"),
        ("low_ties: lowest_card_by_suit", "low_ties: by_seat"),
        ("concede: true", "concede: maybe"),
    ],
)
def test_another_word_is_refused_where_the_game_file_states_it(
    tmp_path: Path, old: str, new: str
) -> None:
    games = _poker_file_with(tmp_path, old, new)
    line = next(
        i
        for i, text in enumerate((games / "include" / "poker.yaml").read_text().splitlines(), 1)
        if new in text
    )
    with pytest.raises(GameFileError, match=rf"poker\.yaml:{line}:\d+: /showdown/"):
        load_game("poker-holdem", games)


def test_the_button_moves_as_the_game_says_553_1() -> None:
    """§ 553.1 (Button): "moved clockwise around the table", the one way the game's
    `rotates:` word admits: to the seat on its left, the lowest seat after the last."""
    game = load_game("poker-holdem")
    assert game.definition.deal is not None and game.definition.deal.button is not None
    assert game.definition.deal.button.rotates == "clockwise"
    session = Session(game, default_setup(game), 4, seed=1)
    seen = [session.button]
    for record in session.hands(4):
        assert record is not None
        seen.append(session.button)
    assert seen == [4, 1, 2, 3, 4]


def test_a_game_that_lets_no_hand_be_conceded_shows_every_hand_553_16_d() -> None:
    """§ 553.16(d): a losing hand "may concede"; a game whose rule says `concede: false`
    has every hand at the showdown shown."""
    game = load_game("poker-holdem")
    for rule, conceding in ((game, True), (_with(game, "showdown.order", concede=False), False)):
        session = Session(rule, default_setup(rule), 6, seed=4)
        records = list(session.hands(60))
        conceded = [s for r in records for s in r.played.conceded]
        assert bool(conceded) is conceding
        for r in records:
            assert sorted(r.played.shown + r.played.conceded) == sorted(r.played.showdown_order)


def test_the_settlement_states_its_order_where_the_game_does_553_15_e() -> None:
    """§ 553.15(e); § 553.7(e)(6): the settlement names the order it followed and the
    section, where the game states it (`rake.final`); the house procedures state none."""
    got = settle_poker_round(SPLIT, load_game("poker-omaha-hi-lo-8")).to_json()
    assert got["order"].startswith("the pots formed, the rake taken from them, then the Bad Beat")
    assert got["order"].endswith("[§ 553.15(e); § 553.7(e)(6)]")
    house = load_game("house-seven-card-stud")
    assert house.definition.rake is not None and house.definition.rake.final is None
    data = {
        "game": "house-seven-card-stud",
        "seats": [
            {"seat": 1, "cards": ["AS", "KS", "QD", "JD", "9C", "2D", "3D"], "contributed": 6},
            {"seat": 2, "cards": ["5S", "6H", "8C"], "contributed": 2, "folded": True},
        ],
    }
    assert settle_poker_round(data, house).to_json()["order"] is None
