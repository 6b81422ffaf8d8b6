"""The ``rulesub`` command.

Each stage registers its commands from its own module; heavy imports stay inside the
commands so that ``rulesub validate`` starts fast.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from validator.errors import RulesubError, messages
from validator.files import WriteError, reason

#: The words a parameter's value is called by in help, where it sets no metavar of its own.
PLAIN_WORDS = {
    "db": "URL",
    "by": "NAME",
    "date": "DATE",
    "before": "DATE",
    "reason": "TEXT",
    "note": "TEXT",
    "waive": "CODE=REASON",
    "retention_years": "YEARS",
    "out": "FILE",
    "file": "FILE",
    "rounds": "N",
    "seed": "N",
    "workers": "N",
    "seats": "N",
    "round_no": "N",
    "scheduler": "ADDRESS",
    "against": "approved|FILE",
    "password": "PASSWORD",
    "holder": "HOLDER",
    "facility": "FACILITY",
    "game": "GAME",
    "host": "HOST",
    "port": "PORT",
}


def _plain_help() -> None:
    """Help in plain words: every parameter shows what its value is (FILE, URL, N, DATE …),
    never a Python type (``<list[Path]>``, ``<str>``); a choice still lists its choices."""
    core = getattr(typer, "core", None)
    param = getattr(core, "_TyperParameter", None)
    if param is None or not hasattr(param, "display_type"):
        return
    shown = param.display_type

    def display_type(self: Any, ctx: Any) -> str | None:
        descriptor = getattr(self, "type_descriptor", None)
        if getattr(descriptor, "is_choice", False):
            return shown(self, ctx)
        if self.metavar:
            return None
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        name = self.name or "value"
        return PLAIN_WORDS.get(name, name.upper())

    param.display_type = display_type


_plain_help()

#: ``-h`` and ``--help`` on every command.
CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="rulesub",
    help="Table-game regulations as data: validate Rules Submissions, exact odds, rounds, "
    "paytable diffs and signage.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT,
)


def _version(value: bool) -> None:
    if value:
        from validator import __version__

        typer.echo(f"rulesub {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="print the version and stop"
        ),
    ] = False,
    games: Annotated[
        Path | None,
        typer.Option(
            "--games",
            metavar="DIR",
            help="read the game files from DIR instead of the ones rulesub ships: a whole "
            "tree as shipped, the game files with rankings.yaml, include/ and strategies/ "
            "(also RULESUB_GAMES_DIR)",
        ),
    ] = None,
) -> None:
    """Table-game regulations as data: validate Rules Submissions, exact odds, rounds,
    paytable diffs and signage."""
    if games is not None:
        import validator

        os.environ["RULESUB_GAMES_DIR"] = str(games)  # worker processes see it too
        validator.GAMES_DIR = games


#: Command modules, in the order their commands are listed in --help.
COMMAND_MODULES = (
    "validate",
    "games",
    "odds",
    "rounds",
    "diff",
    "signage",
    "par",
    "store",
    "users",
    "serve",
    "tools",
)

for _name in COMMAND_MODULES:
    importlib.import_module(f"validator.cli.{_name}")


#: The exit code when the reader of stdout went away (`rulesub rules | head -1`): what a
#: shell reports of a command a closed pipe stops (128 + SIGPIPE), never the 1 that means
#: findings, nor 2, which would say the input was wrong.
EXIT_READER_GONE = 141


def _reader_gone(stop: SystemExit) -> bool:
    """Whether stdout's reader closed the pipe. The libraries stop with exit 1 when it does:
    the command line's after swapping in a stream that drops what is still written (its
    name says so), the console's from the broken pipe it met (the exit's context)."""
    if type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):
        return True
    cause: BaseException | None = stop.__context__
    while cause is not None:
        if isinstance(cause, BrokenPipeError):
            return True
        cause = cause.__context__
    return False


#: Standard input was closed by the shell (``<&-``): ``-`` has nothing to read.
stdin_closed = False


def _closed_streams() -> None:
    """A standard stream the shell closed (``>&-``, ``<&-``) is Python's ``None``: stdin
    reads as empty (``-`` then says it is closed), stdout's result goes nowhere and is said
    to, so that the exit code still tells the findings; never a traceback."""
    global stdin_closed
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (the process's own)
        stdin_closed = True
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        if sys.stderr is not None:
            sys.stderr.write("rulesub: standard output is closed: what is printed is lost\n")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def main() -> None:
    """The console script. An error of rulesub that no command placed is refused the same
    way whichever command met it (``validator.errors.messages``, its exit code): a game file
    that cannot be compiled with its errors at file:line:col, exit 2, even where the command
    did not expect to load a game (a submission's checks compile the game it names)."""
    if "_RULESUB_COMPLETE" in os.environ:  # a shell asking for completions
        from typer.completion import completion_init

        completion_init()
    _closed_streams()
    try:
        app()
    except SystemExit as e:
        if _reader_gone(e):
            sys.exit(EXIT_READER_GONE)
        raise e from None
    except OSError as e:
        if not isinstance(e, WriteError) and e.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        # a file that could not be written, wherever: said in words, exit 2, no traceback
        what = f"cannot write {e.filename}" if e.filename else "cannot write"
        why = e.strerror if isinstance(e, WriteError) else reason(e)
        sys.stderr.write(f"rulesub: {what}: {why}\n")
        sys.exit(2)
    except RulesubError as e:
        for line in messages(e):
            sys.stderr.write(f"{line}\n")
        sys.exit(e.exit_code)
