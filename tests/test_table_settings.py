"""One reader from a Rules Submission to a table's settings, for both kinds of game.

A banking game's table (``TableConfig``) and a nonbanking Poker game's (``TableSetup``) are
read by one reader (``validator.interpreter.settings.read_settings``), the compiled game's
type deciding which; what cannot be used is one error (``ConfigError``), in the same words
for the same fault whatever the kind; and a command reads its submission from disk once,
however many stages (the gate, the table's settings, a simulation's tables) use it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from test_linter import EXAMPLES, rulesub

from validator.compiler import BankingGame, PokerGame, load_game
from validator.errors import ConfigError
from validator.interpreter.config import TableConfig
from validator.interpreter.poker.table import TableSetup, default_setup
from validator.interpreter.settings import default_settings, read_settings

BANKING, POKER = "four-card-poker", "poker-holdem"


def test_both_kinds_of_game_are_read_by_the_one_reader() -> None:
    """The compiled game's type picks the table: a banking game's limits, positions and
    paytables; a Poker game's stakes (§ 553.18) and Blind Bets."""
    fcp, holdem = load_game(BANKING), load_game(POKER)
    assert isinstance(fcp, BankingGame) and isinstance(holdem, PokerGame)
    banking = read_settings(fcp, EXAMPLES / f"{BANKING}.yaml")
    poker = read_settings(holdem, EXAMPLES / f"{POKER}.yaml")
    assert isinstance(banking, TableConfig)
    assert (banking.positions, banking.min_wager, banking.max_wager) == (7, 10, Decimal(500))
    assert banking.source == str(EXAMPLES / f"{BANKING}.yaml")
    assert isinstance(poker, TableSetup)
    assert poker.positions == 10 and poker.stakes.blinds == (100, 200)
    assert poker.source == str(EXAMPLES / f"{POKER}.yaml")
    assert isinstance(default_settings(fcp), TableConfig)
    assert read_settings(fcp, None) == TableConfig.defaults(fcp)
    assert read_settings(holdem, None) == default_setup(holdem)


def _misspelt(game_id: str, tmp_path: Path) -> tuple[Path, int]:
    """The shipped example of ``game_id`` with a misspelt key after its table limits."""
    lines = (EXAMPLES / f"{game_id}.yaml").read_text().splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("table:")) + 1
    lines.insert(at, "paytabels: {x: A}\n")
    path = tmp_path / f"{game_id}-misspelt.yaml"
    path.write_text("".join(lines))
    return path, at + 1


@pytest.mark.parametrize("game_id", [BANKING, POKER])
def test_a_misspelt_key_is_one_error_in_the_same_words_for_both_kinds(
    game_id: str, tmp_path: Path
) -> None:
    """A value not read as written is refused with validate's code and words, whatever the
    kind of game; with ``allow_findings`` the table is set from what could be read."""
    path, line = _misspelt(game_id, tmp_path)
    game = load_game(game_id)
    with pytest.raises(ConfigError) as refused:
        read_settings(game, path)
    assert [str(e) for e in refused.value.errors] == [
        f"{path}:{line}:1: error rulesub/unknown-key unknown key 'paytabels' "
        "(did you mean 'paytables'?)"
    ]
    as_shipped = read_settings(game, EXAMPLES / f"{game_id}.yaml")
    assert read_settings(game, path, allow_findings=True) == replace(as_shipped, source=str(path))


@pytest.mark.parametrize(("game_id", "other"), [(BANKING, POKER), (POKER, BANKING)])
def test_a_submission_for_another_game_is_one_error_for_both_kinds(
    game_id: str, other: str
) -> None:
    path = EXAMPLES / f"{other}.yaml"
    with pytest.raises(ConfigError) as refused:
        read_settings(load_game(game_id), path)
    (error,) = refused.value.errors
    assert str(error).startswith(f"{path}:")
    assert str(error).endswith(f"/game: the submission is for {other!r}, not {game_id!r}")


def _no_effective(game_id: str, tmp_path: Path) -> tuple[Path, int]:
    """The shipped example of ``game_id`` without its required ``effective:`` date."""
    text = (EXAMPLES / f"{game_id}.yaml").read_text()
    path = tmp_path / f"{game_id}-no-effective.yaml"
    path.write_text("".join(ln for ln in text.splitlines(True) if not ln.startswith("effective:")))
    return path, 0


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (_misspelt, "unknown key 'paytabels'"),
        (_no_effective, "missing required key 'effective'"),
    ],
)
def test_a_poker_table_under_a_submission_with_errors_is_a_draft(
    fault: Any, said: str, tmp_path: Path
) -> None:
    """With --allow-findings a Poker table is played from what the submission states, as a
    banking table is, and what it prints marked DRAFT. (Before the one reader, a Poker table
    said "marked DRAFT", then refused the submission, exit 2, where a banking one played.)"""
    path, _ = fault(POKER, tmp_path)
    for command in ("play", "simulate"):
        args = [command, POKER, "--rulesub", str(path), "--allow-findings", "--seed", "3"]
        done = rulesub(*args, *(["--rounds", "20", "--workers", "1"] * (command == "simulate")))
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("DRAFT: made under a Rules Submission with 1 error")
        assert said in done.stdout
        assert f"rulesub: {path} has 1 error" in done.stderr
        assert f"{path}:" not in done.stderr.split("marked DRAFT", 1)[1]


_opened: list[str] = []
_watched: set[str] = set()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _watched and isinstance(args[0], str | bytes | os.PathLike):
        name = os.path.abspath(os.fsdecode(args[0]))
        if name in _watched:
            _opened.append(name)


sys.addaudithook(_audit)


def _opens(path: Path, *args: str) -> tuple[int, Any]:
    """How often the command opens ``path``, and what it did."""
    _opened.clear()
    _watched.add(os.path.abspath(path))
    try:
        done = rulesub(*args, cwd=path.parent)
    finally:
        _watched.clear()
    return len(_opened), done


COMMANDS = {
    "play banking": ["play", BANKING, "--rounds", "2", "--rulesub", "{sub}"],
    "simulate banking": [
        *("simulate", BANKING, "--rounds", "300", "--workers", "1"),
        *("--format", "json", "--rulesub", "{sub}"),
    ],
    "odds": ["odds", BANKING, "--rulesub", "{sub}", "--wager", "aces_up"],
    "play poker": ["play", POKER, "--rounds", "2", "--rulesub", "{sub}"],
    "simulate poker on three tables": [
        *("simulate", POKER, "--rounds", "30", "--tables", "3", "--workers", "1"),
        *("--format", "json", "--rulesub", "{sub}"),
    ],
    "par poker": ["par", "{sub}", "--rounds", "30", "--tables", "2", "--workers", "1"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_reads_its_submission_from_disk_once(command: str, tmp_path: Path) -> None:
    """The gate that validates the submission, the reader of its table, and every table of
    a simulation share one read of the file."""
    args = COMMANDS[command]
    game = BANKING if BANKING in args or command == "odds" else POKER
    sub = tmp_path / "submission.yaml"
    sub.write_bytes((EXAMPLES / f"{game}.yaml").read_bytes())
    n, done = _opens(sub, *[a.replace("{sub}", str(sub)) for a in args])
    assert done.returncode == 0, done.stderr
    assert n == 1, f"{command}: the submission was opened {n} times"
