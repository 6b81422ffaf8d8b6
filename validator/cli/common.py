"""What every command shares: output formats, failing cleanly with exit code 2."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer

from validator.cli.options import Format

__all__ = ["EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "Format"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def console(stderr: bool = False) -> Any:
    """The console every command prints with. Markup is off: a game id, a file name or any
    value of the user's input holding ``[/]`` or ``[bold]`` is printed as written, never
    read as markup (styles are given as ``rich.text.Text`` styles instead)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False, markup=False)


@contextmanager
def working(message: str) -> Iterator[None]:
    """A spinner on stderr while something slow runs (a cold compile, an enumeration); only
    on a terminal, never in a pipe or a log."""
    if not sys.stderr.isatty():
        yield
        return
    with console(stderr=True).status(message):
        yield


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Say what is wrong on stderr and stop: never a traceback."""
    sys.stderr.write(f"rulesub: {message}\n")
    raise typer.Exit(code)


@contextmanager
def readable_input() -> Iterator[None]:
    """Turn the errors of unreadable input into clean messages with exit code 2.

    The game models are imported only if a command loaded them: a command answered from
    the cache must not pay for them here.
    """
    from validator import NoGamesError
    from validator.loader import LoadError

    try:
        yield
    except NoGamesError as e:
        fail(str(e))
    except LoadError as e:
        fail(str(e))
    except KeyError as e:
        fail(str(e.args[0]) if e.args else "not found")
    except Exception as e:
        registry = sys.modules.get("validator.model.registry")
        if registry is not None and isinstance(e, registry.GameFileError):
            for err in e.errors:
                sys.stderr.write(f"{err}\n")
            raise typer.Exit(EXIT_USAGE) from None
        raise


def load_game_or_fail(game_id: str) -> Any:
    from validator.compiler import load_game

    with readable_input():
        return load_game(game_id)


def emit(text: str, out: Any, what: str) -> None:
    """A command's document to stdout, or to ``--out`` written whole (exit 2 where that
    cannot be written), saying what was written where."""
    if out is None:
        sys.stdout.write(text)
        return
    from validator.files import write_whole

    try:
        write_whole(out, text)
    except OSError as e:
        fail(f"--out {out}: {e.strerror or e}")
    sys.stderr.write(f"rulesub: wrote {what} to {out}\n")


def print_json(data: Any, default: Callable[[Any], Any] | None = None) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=default or str))
    sys.stdout.write("\n")


#: ``--as-of DATE``: the rules in force on a date (`games show`, `odds`, `validate`,
#: `signage`, `par`, `diff GAME`).
AS_OF_HELP = "the rules in force on this date (YYYY-MM-DD); refused before the chapter's adoption"


def parse_date(text: str, flag: str = "--as-of") -> Any:
    """A date the user typed, as ``datetime.date``; exit 2 with what was expected."""
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        fail(f"{flag} {text!r}: a date written YYYY-MM-DD was expected, e.g. 2027-01-01")


def game_as_of(game: Any, when: str | None) -> Any:
    """The compiled game with the values in force on ``when`` (``model.history.as_of``).
    Before the chapter's adoption: refused, exit 2, naming the adopting notice. Where the
    encoded text was not the regulation on the date, a note on stderr says why."""
    if when is None:
        return game
    from dataclasses import replace

    from validator.checks.in_force import messages
    from validator.model.history import as_of, in_force

    date = parse_date(when)
    definition = game.definition
    state = in_force(definition, date)
    for _rule, severity, message, cite in messages(definition, state):
        if severity == "error":
            fail(f"{game.id}: {message} [{cite}]")
        sys.stderr.write(f"rulesub: {game.id}: {severity}: {message} [{cite}]\n")
    resolved = as_of(definition, date)
    return game if resolved is definition else replace(game, definition=resolved)
