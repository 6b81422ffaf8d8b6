"""``rulesub completion`` (a shell's completion script) and ``rulesub warm`` (the kernels
compiled ahead, for images and CI)."""

from __future__ import annotations

import sys
import time
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from validator.cli import app

if TYPE_CHECKING:
    from validator.compiler import BankingGame, PokerGame


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@app.command("completion")
def completion(
    shell: Annotated[Shell, typer.Argument(help="bash, zsh or fish", metavar="SHELL")],
) -> None:
    """Print the completion script of SHELL: commands, options and their choices complete
    on Tab. bash: add `eval "$(rulesub completion bash)"` to ~/.bashrc; zsh: the same with
    zsh in ~/.zshrc; fish: `rulesub completion fish > ~/.config/fish/completions/rulesub.fish`."""
    from typer._completion_shared import get_completion_script

    script = get_completion_script(
        prog_name="rulesub", complete_var="_RULESUB_COMPLETE", shell=shell.value
    )
    sys.stdout.write(script.rstrip("\n") + "\n")


def first_poker_run_note(warming: bool = False) -> None:
    """Say on stderr, before a first Poker run (or ``warming``: `rulesub warm` itself), that
    the kernels compile once and about how long: a silent minute and a half reads as a hang."""
    from validator.interpreter.poker.fast import COMPILE_SECONDS, kernels_cached

    if kernels_cached():
        return
    what, then = (
        ("the kernels", "")
        if warming
        else (
            "the Poker kernels",
            ", so later runs start in about a second (`rulesub warm` compiles them ahead)",
        )
    )
    sys.stderr.write(
        f"rulesub: compiling {what} once (about {COMPILE_SECONDS} s on two cores); "
        f"numba keeps them{then}\n"
    )


#: rounds each banking game plays in ``warm``: enough for every step its rounds take
WARM_ROUNDS = 2_000


@app.command("warm")
def warm() -> None:
    """Compile the kernels ahead (numba keeps them in its cache), so that the first
    `simulate` or `par` of any game starts at once: each game's rounds played a little;
    for container images and CI."""
    from validator.cli.common import readable_input
    from validator.compiler import BankingGame, all_games

    first_poker_run_note(warming=True)
    start = time.perf_counter()
    with readable_input():
        for game in all_games():
            if isinstance(game, BankingGame):
                _play_banking(game)
            else:
                _play_poker(game)
    sys.stderr.write(f"rulesub: the kernels are ready ({time.perf_counter() - start:.0f} s)\n")


def _play_poker(game: PokerGame) -> None:
    """Twenty hands of ``game`` at its default table, the log off, as `simulate` deals."""
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import default_settings

    setup = default_settings(game)
    for _ in Session(game, setup, setup.positions, 1, None, 30, False).hands(20):
        pass


def _play_banking(game: BankingGame) -> None:
    """A few rounds of ``game`` at its default table, every wager offered; where a wager
    needs a table the regulation text lacks, the base game alone; where the base game needs
    one (the casino states it in its Rules Submission), what was compiled before the round
    stopped, the rest on the game's first run."""
    from dataclasses import replace

    from validator.interpreter.rules import MissingTable, Rules
    from validator.interpreter.settings import default_settings
    from validator.interpreter.simulate import run

    table = default_settings(game)
    base = replace(table, offered=set(), optional_payouts=set(), payout_limit=None)
    for settings in (table, base):
        try:
            run(Rules(game, settings), WARM_ROUNDS, 1, table.positions)
            return
        except MissingTable:
            continue
