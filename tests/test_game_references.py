"""A game file's conditions name ids that exist, checked once at load: a misspelt decision
or card group is refused by every command with the same file:line:col message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_linter import EXAMPLES, rulesub

from validator import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "tests" / "golden"

COMMANDS = [
    ("games", "show", "{game}"),
    ("odds", "{game}"),
    ("play", "{game}"),
    ("simulate", "{game}", "--rounds", "5"),
    ("validate", "{example}"),
    ("signage", "{example}"),
    ("diff", "{example}", "{example}"),
    ("par", "{game}"),
    ("settle", "{round}"),
]

TYPOS = [
    # (game, the file, the line as written, the misspelling, the message's words)
    (
        "lunar-poker",
        "lunar-poker.yaml",
        "decided: {first: declare}",
        "decided: {frist: declare}",
        "no decision 'frist'",
    ),
    (
        "wpt-heads-up-holdem",
        "strategies/wpt-heads-up-holdem.yaml",
        "{when: {suited: {player: true}",
        "{when: {suited: {playr: true}",
        "no cards dealt to 'playr'",
    ),
]


@pytest.mark.slow  # every command in a process of its own, on a copy of the games
@pytest.mark.parametrize("typo", TYPOS, ids=lambda t: t[0])
def test_a_misspelt_condition_id_is_refused_by_every_command(
    typo: tuple[str, str, str, str, str], tmp_path: Path
) -> None:
    game, file, written, misspelt, words = typo
    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    path = games / file
    text = path.read_text(encoding="utf-8")
    assert written in text
    path.write_text(text.replace(written, misspelt, 1), encoding="utf-8")
    line = text[: text.index(written)].count("\n") + 1
    messages = set()
    for command in COMMANDS:
        round_file = next(
            p for p in sorted((GOLDEN / game).glob("*.yaml")) if ".expected." not in p.name
        )
        args = [
            a.format(game=game, example=EXAMPLES / f"{game}.yaml", round=round_file)
            for a in command
        ]
        done = rulesub("--games", str(games), *args, env={"RULESUB_NO_CACHE": "1"})
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        first = done.stderr.splitlines()[0]
        assert first.startswith(f"{path}:{line}:") and words in first, (args, first)
        messages.add(first)
    assert len(messages) == 1  # one message, whichever command met it


@pytest.mark.parametrize(("game", "text"), [("high-card-flush", ""), ("house-razz", "- a\n")])
def test_a_game_file_that_is_no_mapping_is_named_itself(
    tmp_path: Path, game: str, text: str
) -> None:
    """An emptied game file in a tree of one's own is named at its own line 1, never blamed
    on its strategy file (High Card Flush has one) nor said as a model's name."""
    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    (games / f"{game}.yaml").write_text(text, encoding="utf-8")
    done = rulesub("--games", str(games), "games", "list", env={"RULESUB_NO_CACHE": "1"})
    assert done.returncode == 2
    assert f"{game}.yaml:1:1: a game file is a mapping (id:, name:, …), not " in done.stderr
    assert "strategies" not in done.stderr and "GameDefinition" not in done.stderr
