"""Shared fixtures: the declared rankings and games, cards written as the chapters name them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from validator import PROJECT_ROOT
from validator.cards import parse_cards
from validator.compiler import Game, load_game
from validator.model.ranking import Ranking
from validator.model.registry import load_rankings
from validator.rankings.evaluator import Evaluator

# CI runs the property tests on a fixed seed, so that a landing is never refused by the
# draw of the day; elsewhere each run draws anew and may find what the last did not.
if os.environ.get("CI"):
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
    _hypothesis_settings.load_profile("ci")

GAMES = PROJECT_ROOT / "games"
GAME_IDS = ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush")


def _one_command_tree() -> None:
    """Typer builds the whole command tree (every command's options, from its type hints)
    each time a command runs: about half a second, where the command itself often takes a
    tenth of that. The tree is the same for every run, so the commands run in this process
    (``CliRunner``, ``main()``) share the one first built; a command run in a process of its
    own builds its own, as a user's does."""
    import typer.main
    import typer.testing

    build = typer.main.get_command
    built: dict[int, tuple[object, Any]] = {}

    def get_command(typer_instance: typer.Typer) -> Any:
        key = id(typer_instance)
        if key not in built:  # the instance is kept, so that its id is never reused
            built[key] = (typer_instance, build(typer_instance))
        return built[key][1]

    typer.main.get_command = get_command
    typer.testing._get_command = get_command  # type: ignore[attr-defined]


_one_command_tree()


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


def in_process(
    args: tuple[str, ...] | list[str], env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The command run as ``main()`` runs it (its exit code, stdout and stderr apart), in this
    interpreter: a second's start-up saved per call. ``env`` is the whole environment it
    sees; the environment, the working directory and the games in use are restored after.
    An exception that escapes is a traceback on stderr and exit 1, as from a process."""
    import traceback

    from typer.testing import CliRunner

    import validator
    from validator.cli import main

    saved_env, saved_cwd, saved_games = dict(os.environ), os.getcwd(), validator.GAMES_DIR
    saved_argv = sys.argv
    code: int = 0
    try:
        with CliRunner().isolation(env=None) as (out, err, _):
            os.environ.clear()
            os.environ.update(env)
            games = env.get("RULESUB_GAMES_DIR")
            validator.GAMES_DIR = Path(games) if games else validator.SHIPPED_GAMES_DIR
            if cwd is not None:
                os.chdir(cwd)
            sys.argv = ["rulesub", *args]
            try:
                main()
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except Exception:
                sys.stderr.write(traceback.format_exc())
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue(), err.getvalue()
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
        validator.GAMES_DIR = saved_games
        sys.argv = saved_argv
    return subprocess.CompletedProcess(
        ["rulesub", *args], code, stdout.decode("utf-8"), stderr.decode("utf-8")
    )


def run_rulesub(*args: str, games_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command as a user would (``RULESUB_GAMES_DIR`` set when a game directory
    under test is given): in this interpreter, or, with a game directory of its own, in a
    fresh one (module defaults read the games in use once, at import)."""
    env = dict(os.environ)
    env.pop("RULESUB_GAMES_DIR", None)
    if games_dir is not None:
        env["RULESUB_GAMES_DIR"] = str(games_dir)
    env["COLUMNS"] = "200"
    if games_dir is None:
        return in_process(args, env)
    return subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.fixture(autouse=True, scope="session")
def _documents_prepared_at_a_fixed_moment() -> Iterator[None]:
    """Documents made twice in a test (the par sheet on 1 and 4 workers) state the same
    preparation time even across a minute's turn: SOURCE_DATE_EPOCH, as an office that
    rebuilds a filed document sets it (``validator.clock``; tests/test_clock.py unsets it).
    Session-wide, so that module fixtures see it too."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01 00:00 UTC
        yield


@pytest.fixture(params=("sqlite", "postgresql"))
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each of the store's backends (``store_db.database``), which the
    first command given it migrates to this rulesub's schema: for the tests of that."""
    from store_db import database

    yield from database(request.param, tmp_path)


def unheld(html: str) -> str:
    """An HTML document's citations as written (``§ 641a.12(d)(1)``): the spans and the
    no-break spaces that keep each whole where a line wraps taken out."""
    import re

    return re.sub(r'<span class="nb">§&nbsp;(.*?)</span>', r"§ \1", html)
