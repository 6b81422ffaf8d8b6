"""The Poker game files: twelve games from two rule sources, shared rules written once
(``extends:``) with each source's own citation, and `rulesub games` showing where the
sources differ."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import run_rulesub

from validator import GAMES_DIR
from validator.compiler import Game, load_game, load_game_file
from validator.loader import LoadError
from validator.model.registry import GameFileError, game_ids

PA_553 = (
    "poker-seven-card-stud",
    "poker-seven-card-stud-hi-lo",
    "poker-seven-card-stud-hi-lo-8",
    "poker-holdem",
    "poker-omaha",
    "poker-omaha-hi-lo-8",
    "poker-five-card-draw",
    "poker-five-card-draw-low",
    "poker-five-card-stud",
)
HOUSE = ("house-seven-card-stud", "house-seven-card-stud-hi-lo-8", "house-razz")
POKER = PA_553 + HOUSE


def _cites(node: object) -> list[str]:
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            if (k == "cite" or k.endswith("_cite")) and isinstance(v, str):
                out.append(v)
            else:
                out += _cites(v)
    elif isinstance(node, list):
        for v in node:
            out += _cites(v)
    return out


def test_the_twelve_poker_games_are_declared_and_nothing_else_is_a_game() -> None:
    ids = set(game_ids())
    assert set(POKER) <= ids
    assert not {i for i in ids if i.startswith(("poker-", "house-"))} - set(POKER)
    assert not any("pa-553" in i or "stud-seven-card" in i for i in ids)  # shared files


@pytest.mark.parametrize("game_id", POKER)
def test_each_game_loads_with_its_own_sources_citations(game_id: str) -> None:
    g = load_game(game_id)
    d = g.definition
    assert d.kind == "nonbanking"
    cites = _cites(d.model_dump(mode="json", by_alias=True, exclude_none=True))
    assert len(cites) > 20
    if game_id.startswith("house-"):
        assert d.source.key == "house-7cs"
        assert all(c.startswith("7CS Procedures §") for c in cites), cites
    else:
        assert d.source.key == "pa-553"
        assert all("§ 553." in c or "§ 521.1" in c for c in cites), cites
        assert not any("7CS" in c for c in cites)


def test_the_banking_games_still_load() -> None:
    for gid in ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush"):
        g = load_game(gid)
        assert g.definition.kind == "banking" and g.definition.deal is None


@pytest.mark.parametrize(
    ("pa", "house"),
    [
        ("poker-seven-card-stud", "house-seven-card-stud"),
        ("poker-seven-card-stud-hi-lo-8", "house-seven-card-stud-hi-lo-8"),
    ],
)
def test_where_the_sources_differ(pa: str, house: str) -> None:
    a, b = load_game(pa).definition, load_game(house).definition
    # the same deal, written once
    assert list(a.deal.streets) == list(b.deal.streets)
    assert a.table.max_positions == b.table.max_positions == 8
    assert a.betting.forced_bet.by == b.betting.forced_bet.by == "lowest"
    # players at a Poker table: § 553.7(b) ten, the procedures eleven
    assert (a.players.max, b.players.max) == (10, 11)
    assert a.players.cite == "§ 553.7(b)"  # "a minimum of two players and up to … ten"
    assert b.players.cite == "7CS Procedures § Poker Overview (1)"
    # the odd chip: "which may not exceed $1" only in ch. 553
    assert a.showdown.odd_chips.cap == 1 and b.showdown.odd_chips.cap is None
    # the common card: sixth or seventh card (§ 553.10(h)); the seventh only (house (7))
    assert a.deal.common_card.streets == ["sixth_street", "seventh_street"]
    assert b.deal.common_card.streets == ["seventh_street"]
    # rake, Bad Beat and deck changes are regulated in ch. 553 only
    assert a.rake.percentage.max == pytest.approx(0.1) and b.rake.percentage is None
    assert a.bad_beat is not None and b.bad_beat is None
    assert a.cards.change_every_hours.any == 6 and b.cards.change_every_hours is None
    # the house's split limit
    assert a.betting.split_limit is None and b.betting.split_limit.open_pair == "upper"


def test_forced_bet_order_by_variant() -> None:
    """§ 553.10(d)(1)-(3); 7CS Procedures § Seven-Card Stud (3), (12)(iii)."""
    expect = {
        "poker-seven-card-stud": ("lowest", "ace-high-by-suit", "§ 553.10(d)(1)"),
        "poker-seven-card-stud-hi-lo": ("highest", "ace-low-by-suit", "§ 553.10(d)(2)"),
        "poker-seven-card-stud-hi-lo-8": ("lowest", "ace-high-by-suit", "§ 553.10(d)(3)"),
        "poker-five-card-stud": ("lowest", "ace-high-by-suit", "§ 553.14(d)"),
        "house-seven-card-stud": (
            "lowest",
            "ace-high-by-suit",
            "7CS Procedures § Seven-Card Stud (3)(i)",
        ),
        "house-seven-card-stud-hi-lo-8": (
            "lowest",
            "ace-high-by-suit",
            "7CS Procedures § Seven-Card Stud (3)(ii)",
        ),
        "house-razz": ("highest", "ace-low-by-suit", "7CS Procedures § Seven-Card Stud (12)(iii)"),
    }
    for gid, (by, order, cite) in expect.items():
        fb = load_game(gid).definition.betting.forced_bet
        assert (fb.by, fb.card_order, fb.cite) == (by, order, cite), gid
    razz = load_game("house-razz").definition
    assert razz.betting.first_to_act.ranking == "low-ace-to-five"
    assert razz.betting.split_limit.open_pair == "no_effect"
    assert "high" not in razz.hands and razz.showdown.pot == "low"


def test_omaha_hands_use_two_and_three() -> None:
    for gid in ("poker-omaha", "poker-omaha-hi-lo-8"):
        d = load_game(gid).definition
        assert d.hands["high"].use == {"player": 2, "board": 3}
        assert d.cards.dealt["player"].count == 4
        assert d.deal.streets["preflop"].deal[0].rounds == 4
    assert load_game("poker-omaha-hi-lo-8").definition.hands["low"].qualifier == "eight_or_better"
    assert load_game("poker-omaha-hi-lo-8").definition.betting.kill.options == {
        "kill": 2,
        "half_kill": 1.5,
    }
    assert load_game("poker-holdem").definition.hands["high"].use is None


# -- extends: errors point into the shared file ------------------------------------------------


@pytest.fixture
def games_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "games"
    shutil.copytree(GAMES_DIR, dst)
    return dst


def _errors(path: Path, games: Path) -> list[LoadError]:
    with pytest.raises((GameFileError, LoadError)) as e:
        load_game_file(path, games)
    return e.value.errors if isinstance(e.value, GameFileError) else [e.value]


def test_an_error_in_a_shared_rule_points_into_the_shared_file(games_copy: Path) -> None:
    shared = games_copy / "include" / "stud-seven-card.yaml"
    text = shared.read_text().replace("    by: lowest\n", "    by: lowestt\n", 1)
    shared.write_text(text)
    errors = _errors(games_copy / "poker-seven-card-stud.yaml", games_copy)
    (err,) = [e for e in errors if "/betting/forced_bet/by" in e.message]
    assert err.file.endswith("include/stud-seven-card.yaml")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "by: lowestt" in t)
    assert err.line == line


def test_a_shared_citation_needs_the_games_source(games_copy: Path) -> None:
    shared = games_copy / "include" / "poker.yaml"
    shared.write_text(
        shared.read_text().replace(
            'cite: {pa-553: "§ 553.3(a)", house-7cs: "7CS Procedures § Cards, Number of Decks"}',
            'cite: {pa-553: "§ 553.3(a)"}',
        )
    )
    (err,) = _errors(games_copy / "house-razz.yaml", games_copy)
    assert "no cite for rule source 'house-7cs'" in err.message
    assert err.file.endswith("include/poker.yaml")
    load_game_file(games_copy / "poker-holdem.yaml", games_copy)  # ch. 553 still has its own


def test_an_unknown_shared_file_is_named_with_a_suggestion(games_copy: Path) -> None:
    path = games_copy / "poker-holdem.yaml"
    path.write_text(path.read_text().replace("extends: [flop-pa-553]", "extends: [flop-pa553]"))
    (err,) = _errors(path, games_copy)
    assert "no shared rule file 'flop-pa553'" in err.message and "flop-pa-553" in err.message
    assert err.line == 4


def test_a_cycle_of_shared_files_is_refused(games_copy: Path) -> None:
    shared = games_copy / "include" / "poker.yaml"
    shared.write_text("extends: [poker-pa-553]\n" + shared.read_text())
    (err,) = _errors(games_copy / "poker-holdem.yaml", games_copy)
    assert "cycle" in err.message


def test_a_shared_file_is_no_game(games_copy: Path) -> None:
    shared = games_copy / "include" / "poker.yaml"
    shared.write_text("id: poker\n" + shared.read_text())
    (err,) = _errors(games_copy / "poker-holdem.yaml", games_copy)
    assert "not a game" in err.message


def test_null_removes_what_a_shared_file_declared() -> None:
    razz = load_game("house-razz").definition
    assert razz.showdown.high is None and razz.betting.split_limit.open_pair_street is None


def test_deal_must_add_up_to_the_cards_dealt(games_copy: Path) -> None:
    path = games_copy / "poker-omaha.yaml"
    path.write_text(path.read_text().replace("      count: 4\n", "      count: 3\n", 1))
    errors = _errors(path, games_copy)
    assert any("the streets deal 4 card(s) to player" in e.message for e in errors)


# -- rulesub games ---------------------------------------------------------------------------


def test_games_list_lists_the_games_only() -> None:
    r = run_rulesub("games", "list", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = {row["id"]: row for row in json.loads(r.stdout)}
    assert set(POKER) <= set(rows)
    assert rows["house-razz"]["kind"] == "nonbanking"
    assert rows["house-razz"]["chapter"] == "7 Card Stud Game Procedures"
    assert not any(i.startswith(("stud-", "flop-", "draw-")) or i == "poker" for i in rows)


def test_games_show_makes_the_sources_differences_visible() -> None:
    r = run_rulesub("games", "show", "house-seven-card-stud")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Where the rule sources differ: house-seven-card-stud and poker-seven-card-stud" in out
    for text in (
        "2 to 11",
        "2 to 10",
        "§ 553.7(b)",
        "7CS Procedures § Poker Overview (1)",
        "Odd chip cap",
        "$1",
        "on seventh street",
        "on sixth street or seventh street",
    ):
        assert text in out, text
    r = run_rulesub("games", "show", "poker-omaha-hi-lo-8")
    assert r.returncode == 0, r.stderr
    assert "exactly 2 of the player's cards + 3 of the community cards" in r.stdout  # (j)
    assert "Kill / Half-kill" in r.stdout
    r = run_rulesub("games", "show", "house-razz", "--format", "json")
    data = json.loads(r.stdout)
    assert data["betting"]["forced_bet"]["by"] == "highest"
    assert data["extends"] == ["stud-seven-card-house-7cs"]


def test_games_show_says_whether_a_losing_hand_may_be_conceded_553_16_d(games_copy: Path) -> None:
    """§ 553.16(d): a losing hand may be conceded unshown, unless every hand must be shown;
    the game file's ``showdown.order.concede`` decides what ``games show`` says."""
    from validator.cli.show_poker import poker_facts

    def order(game: Game) -> str:
        (fact,) = [f for f in poker_facts(game) if f.label == "Showdown order"]
        return fact.value

    assert order(load_game("poker-holdem")).endswith("a losing hand may be conceded")
    shared = games_copy / "include" / "poker.yaml"
    shared.write_text(shared.read_text().replace("    concede: true\n", "    concede: false\n", 1))
    shown = load_game_file(games_copy / "poker-holdem.yaml", games_copy)
    assert order(shown).endswith("every hand is shown")


@pytest.mark.parametrize(
    ("game_id", "said", "unsaid"),
    [
        ("poker-holdem", ["tied high hands: the highest card by suit"], ["split pot", "low"]),
        ("house-razz", ["tied low hands: the lowest card (the ace lowest)"], ["split", "high"]),
        (
            "poker-omaha-hi-lo-8",
            [
                "a split pot's excess to the high hand",  # § 553.10(i)(2)(i)
                "tied high hands: the highest card by suit",
                "tied low hands: the lowest card (the ace lowest) by suit",
            ],
            [],
        ),
    ],
)
def test_games_show_states_the_odd_chip_of_the_pots_the_game_has_553_10_i_2(
    game_id: str, said: list[str], unsaid: list[str]
) -> None:
    """§ 553.10(i)(2)(i)-(iv): a split pot's excess goes to the high hand, a tied high half's
    by the highest card by suit, a tied low half's by the lowest. A game whose pot is never
    split names only the ties its hands can have: High hand only (Hold'em), low only
    (Razz), both and the split (Omaha High-low-hand Split Eight or Better)."""
    from validator.cli.show_poker import poker_facts

    (fact,) = [f for f in poker_facts(load_game(game_id)) if f.label == "Odd chip"]
    for text in said:
        assert text in fact.value, text
    for text in unsaid:
        assert text not in fact.value.split("; suits")[0], text
