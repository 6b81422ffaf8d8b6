"""Players' strategies live apart from the law, in games/strategies/: a game file holds only
what its chapter says; the compiled game reads its strategies from its strategy file, with
that file's own line and column in every message, and a game with none still works."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import GAMES, run_rulesub

from validator import cache
from validator.compiler import load_game_file
from validator.loader import LoadError, load_yaml
from validator.model.compose import INCLUDE_DIR
from validator.model.registry import GameFileError
from validator.model.strategy_file import (
    STRATEGY_DIR,
    STRATEGY_KEYS,
    STRATEGY_SECTIONS,
    StrategyFile,
)

BANKING_WITH_STRATEGIES = [
    "four-card-poker",
    "high-card-flush",
    "lunar-poker",
    "wpt-heads-up-holdem",
]


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    d = tmp_path / "games"
    shutil.copytree(GAMES, d)
    return d


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def refused(path: Path, games_dir: Path) -> list[str]:
    with pytest.raises((GameFileError, LoadError)) as info:
        load_game_file(path, games_dir)
    err = info.value
    return [str(e) for e in (err.errors if isinstance(err, GameFileError) else [err])]


def test_no_game_file_or_shared_rule_file_holds_a_strategy() -> None:
    """A game file holds only what its chapter says: no `strategies:`, no
    `poker_strategies:`, no hand or ranking written "for strategies" only."""
    rule_files = [*GAMES.glob("*.yaml"), *(GAMES / INCLUDE_DIR).glob("*.yaml")]
    assert len(rule_files) > 20
    for path in rule_files:
        data = load_yaml(path).data
        assert not set(STRATEGY_SECTIONS) & set(data), path.name
        assert "strategies only" not in path.read_text(encoding="utf-8"), path.name
        assert "for strategies" not in path.read_text(encoding="utf-8"), path.name


def test_every_strategy_file_holds_strategies_each_citing_its_source() -> None:
    files = sorted((GAMES / STRATEGY_DIR).glob("*.yaml"))
    assert [f.stem for f in files] == [*sorted([*BANKING_WITH_STRATEGIES, "poker"])]
    for path in files:
        data = load_yaml(path).data
        assert set(data) <= set(STRATEGY_KEYS), path.name
        parsed = StrategyFile.model_validate(data)
        if parsed.strategies is not None:
            for name, strategy in parsed.strategies.by_name.items():
                assert len(strategy.source) > 20, (path.name, name)
        else:
            assert parsed.poker_strategies is not None and parsed.poker_strategies.source


@pytest.mark.parametrize("game", BANKING_WITH_STRATEGIES)
def test_the_compiled_game_reads_its_strategies_from_its_strategy_file(game: str) -> None:
    """Every strategy the strategy file names is the compiled game's, in order, with its
    default: play, simulate and par all ask the compiled game."""
    g = load_game_file(GAMES / f"{game}.yaml", GAMES)
    data = load_yaml(GAMES / STRATEGY_DIR / f"{game}.yaml").data
    assert g.definition.strategies is not None
    assert list(g.definition.strategies.by_name) == list(data["strategies"]["named"])
    assert g.definition.strategies.default == data["strategies"]["default"]
    for hid in data.get("hands", {}):  # hands the strategies read are the game's too
        assert hid in g.definition.hands
    for rid in data.get("rankings", {}):
        assert g.ranking_of(next(h for h in data["hands"] if data["hands"][h]["ranking"] == rid))


def test_every_poker_game_plays_the_shared_players() -> None:
    """games/strategies/poker.yaml is the strategy file of every game built on
    games/include/poker.yaml."""
    shared = StrategyFile.model_validate(load_yaml(GAMES / STRATEGY_DIR / "poker.yaml").data)
    poker = [p for p in GAMES.glob("*.yaml") if p.stem.startswith(("poker-", "house-"))]
    assert len(poker) == 12
    for path in poker:
        g = load_game_file(path, GAMES)
        assert g.definition.poker_strategies == shared.poker_strategies, path.stem


def test_a_misspelt_decision_in_a_strategy_points_into_the_strategy_file(
    games_dir: Path,
) -> None:
    path = games_dir / STRATEGY_DIR / "four-card-poker.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("        play:\n", "        plya:\n", 1), encoding="utf-8")
    messages = refused(games_dir / "four-card-poker.yaml", games_dir)
    line = line_of(text, "        play:") + 1  # its decision table, under its name
    assert any(m.startswith(f"{path}:{line}:") and "no decision 'plya'" in m for m in messages), (
        messages
    )


def test_a_misspelt_category_in_a_strategy_hand_points_into_the_strategy_file(
    games_dir: Path,
) -> None:
    """The Lunar draws hand, its ranking and the strategy naming them all live in the
    strategy file; a category the ranking lacks is refused there."""
    path = games_dir / STRATEGY_DIR / "lunar-poker.yaml"
    text = path.read_text(encoding="utf-8")
    written = "player_draw: {is: [four_to_flush, four_to_straight]}"
    assert written in text
    path.write_text(text.replace(written, written.replace("flush,", "flsuh,")), encoding="utf-8")
    [message] = refused(games_dir / "lunar-poker.yaml", games_dir)
    assert message.startswith(f"{path}:{line_of(text, written)}:")
    assert "'four_to_flsuh' is no category of hand 'player_draw'" in message


def test_strategies_written_in_a_game_file_are_refused_at_their_line(games_dir: Path) -> None:
    path = games_dir / "high-card-flush.yaml"
    advice = (games_dir / STRATEGY_DIR / "high-card-flush.yaml").read_text(encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    path.write_text(text + advice[advice.index("strategies:") :], encoding="utf-8")
    [message] = refused(path, games_dir)
    line = text.count("\n") + 1
    assert message.startswith(f"{path}:{line}:1: /strategies: strategies are player advice")
    assert f"games/{STRATEGY_DIR}/high-card-flush.yaml" in message
    done = run_rulesub("games", "show", "high-card-flush", games_dir=games_dir)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{line}:1: /strategies" in done.stderr


def test_a_strategy_file_holds_only_strategies(games_dir: Path) -> None:
    path = games_dir / STRATEGY_DIR / "high-card-flush.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("strategies:\n", "strategys:\n", 1), encoding="utf-8")
    [message] = refused(games_dir / "high-card-flush.yaml", games_dir)
    assert message.startswith(f"{path}:{line_of(text, 'strategies:')}:1: /strategys:")
    assert "did you mean 'strategies'?" in message
    path.write_text("payout_limit: {amount: 1}\n" + text, encoding="utf-8")
    [message] = refused(games_dir / "high-card-flush.yaml", games_dir)
    assert "/payout_limit: a strategy file holds only" in message


def test_a_strategy_hand_may_not_redeclare_a_hand_of_the_rules(games_dir: Path) -> None:
    path = games_dir / STRATEGY_DIR / "wpt-heads-up-holdem.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  board:", "  player_seven:", 1), encoding="utf-8")
    [message] = refused(games_dir / "wpt-heads-up-holdem.yaml", games_dir)
    assert message.startswith(f"{path}:{line_of(text, '  board:')}:")
    assert "the game file declares this hand" in message


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_a_game_with_no_strategy_file_still_works(games_dir: Path) -> None:
    """High Card Flush with no strategy file: it loads with no strategies, rounds are played
    on each decision's default, and asking for a strategy by name is a usage error."""
    (games_dir / STRATEGY_DIR / "high-card-flush.yaml").unlink()
    g = load_game_file(games_dir / "high-card-flush.yaml", games_dir)
    assert g.definition.strategies is None
    done = run_rulesub("play", "high-card-flush", "--quiet", games_dir=games_dir)
    assert done.returncode == 0, done.stderr
    done = run_rulesub(
        "simulate",
        "high-card-flush",
        "--rounds",
        "10",
        "--strategy",
        "mousseau",
        games_dir=games_dir,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "declares no strategies" in done.stderr
    (games_dir / STRATEGY_DIR / "poker.yaml").unlink()
    done = run_rulesub("play", "poker-holdem", games_dir=games_dir)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no players' strategies" in done.stderr


def test_a_changed_strategy_file_is_a_new_cache_key(games_dir: Path) -> None:
    before = {g: cache.game_digest(g, games_dir) for g in ("high-card-flush", "poker-holdem")}
    path = games_dir / STRATEGY_DIR / "high-card-flush.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# reviewed\n", encoding="utf-8")
    assert cache.game_digest("high-card-flush", games_dir) != before["high-card-flush"]
    shared = games_dir / STRATEGY_DIR / "poker.yaml"
    shared.write_text(shared.read_text(encoding="utf-8") + "\n# reviewed\n", encoding="utf-8")
    assert cache.game_digest("poker-holdem", games_dir) != before["poker-holdem"]


def test_the_strategy_schema_is_exported_and_describes_every_strategy_file() -> None:
    """`rulesub schema export` writes strategy.schema.json beside game.schema.json; the game
    file's schema has no strategies, the strategy file's has them."""
    import json

    from jsonschema import Draft202012Validator
    from test_schema import plain

    from validator import SCHEMAS_DIR
    from validator.checks.schema import strategy_schema

    schema = json.loads((SCHEMAS_DIR / "strategy.schema.json").read_text(encoding="utf-8"))
    assert schema == strategy_schema()
    game = json.loads((SCHEMAS_DIR / "game.schema.json").read_text(encoding="utf-8"))
    assert not set(STRATEGY_SECTIONS) & set(game["properties"])
    assert set(STRATEGY_KEYS) == set(schema["properties"])
    validator = Draft202012Validator(schema)
    for path in sorted((GAMES / STRATEGY_DIR).glob("*.yaml")):
        data = plain(load_yaml(path).data)
        assert list(validator.iter_errors(data)) == [], path.name
        broken = {**data, "strategy": data.get("strategies")}
        assert list(validator.iter_errors(broken)), path.name
