"""Shared fixtures: the declared rankings and games, cards written as the chapters name them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from validator import PROJECT_ROOT
from validator.cards import parse_cards
from validator.compiler import Game, load_game
from validator.model.ranking import Ranking
from validator.model.registry import load_rankings
from validator.rankings.evaluator import Evaluator

GAMES = PROJECT_ROOT / "games"
GAME_IDS = ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush")


def cards(text: str) -> list[int]:
    """``"AS KD 10h 2c"`` → card ints."""
    return parse_cards(text)


@pytest.fixture(scope="session")
def rankings() -> dict[str, Ranking]:
    return load_rankings(GAMES)


@pytest.fixture(scope="session")
def evaluator(rankings: dict[str, Ranking]) -> Callable[[str], Evaluator]:
    made: dict[str, Evaluator] = {}

    def get(ranking_id: str) -> Evaluator:
        if ranking_id not in made:
            made[ranking_id] = Evaluator(rankings[ranking_id])
        return made[ranking_id]

    return get


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    return {g: load_game(g, GAMES) for g in GAME_IDS}


def run_rulesub(*args: str, games_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command as a user would, in a fresh interpreter (``RULESUB_GAMES_DIR`` set
    when a game directory under test is given)."""
    env = dict(os.environ)
    env.pop("RULESUB_GAMES_DIR", None)
    if games_dir is not None:
        env["RULESUB_GAMES_DIR"] = str(games_dir)
    env["COLUMNS"] = "200"
    return subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
