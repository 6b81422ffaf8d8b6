"""The ``rulesub`` command.

Each stage registers its commands from its own module; heavy imports stay inside the
commands so that ``rulesub validate`` starts fast.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="rulesub",
    help="Table-game regulations as data: validate Rules Submissions, exact odds, rounds, "
    "paytable diffs and signage.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: Command modules, in the order their commands are listed in --help.
COMMAND_MODULES = ("validate", "games", "odds", "rounds", "diff", "signage", "par")

for _name in COMMAND_MODULES:
    importlib.import_module(f"validator.cli.{_name}")


def main() -> None:
    app()
