"""What every command shares: output formats, failing cleanly with exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from validator import jsonout
from validator.cli.options import Format
from validator.errors import RulesubError, messages

if TYPE_CHECKING:
    import datetime as dt

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


#: Set where a command stops without making what it was asked for (a submission with
#: errors, exit 1 through ``fail``): nothing is its result, so nothing goes to ``--out``.
REFUSED: ContextVar[bool] = ContextVar("refused", default=False)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Say what is wrong on stderr and stop: never a traceback. Exit 1 here is a refusal
    (``REFUSED``), never findings that are the command's result."""
    sys.stderr.write(f"rulesub: {message}\n")
    if code == EXIT_FINDINGS:
        REFUSED.set(True)
    raise typer.Exit(code)


def not_a_file(path: Path | str) -> str:
    """Why ``path`` is no file to read, as the refusal says it: a directory, a FIFO or a
    device, a dangling link, or nothing there."""
    import stat

    from validator.loader import node_kind, unopenable

    p = Path(path)
    if p.is_dir():
        return f"{p}: is a directory; give one Rules Submission file"
    try:
        mode = p.stat().st_mode
    except OSError as e:  # missing, a dangling link, a loop: the one reader's words
        return str(unopenable(str(p), p, e))
    if not stat.S_ISREG(mode):  # a FIFO, a device: there, but nothing to read
        return f"{p}: is {node_kind(mode)}, not a file to read"
    return f"{p}: no such file"


def refuse(e: RulesubError, where: str = "") -> NoReturn:
    """The one place an error of rulesub becomes what the officer reads (``messages``) and
    the exit code the command stops with (the error's ``exit_code``). ``where``:
    ``file:line:column: `` of the input, where the caller knows it and the error does not."""
    for line in messages(e, where):
        sys.stderr.write(f"{line}\n")
    raise typer.Exit(e.exit_code)


@contextmanager
def readable_input() -> Iterator[None]:
    """Turn the errors of unreadable input into clean messages with exit code 2: every
    error of rulesub as ``refuse`` says it, an unknown name as its message."""
    try:
        yield
    except RulesubError as e:
        refuse(e)
    except KeyError as e:
        fail(str(e.args[0]) if e.args else "not found")


def load_game_or_fail(game_id: str) -> Any:
    from validator.compiler import load_game

    with readable_input():
        return load_game(game_id)


def emit(text: str, out: Any, what: str, *, private: bool = False) -> None:
    """A command's document to stdout, or to ``--out`` written whole (exit 2 where that
    cannot be written; ``private``, a secret, readable by its owner alone), saying what was
    written where."""
    if out is None:
        sys.stdout.write(text)
        return
    from validator.cli.options import not_given
    from validator.files import write_whole

    not_given(out)
    try:
        write_whole(out, text, private=private)
    except OSError as e:
        fail(f"--out {out}: {e.strerror or e}")
    sys.stderr.write(f"rulesub: wrote {what} to {out}\n")


def print_json(data: Any, default: Callable[[Any], Any] | None = None) -> None:
    sys.stdout.write(jsonout.dumps(data, indent=2, default=default or jsonout.plain))
    sys.stdout.write("\n")


#: ``--as-of DATE``: the rules in force on a date (`games show`, `odds`, `validate`,
#: `signage`, `par`, `diff GAME`).
AS_OF_HELP = "the rules in force on this date (YYYY-MM-DD); refused before the chapter's adoption"


def parse_date(text: str, flag: str = "--as-of") -> Any:
    """A date the user typed, as ``datetime.date``; exit 2 with what was expected."""
    import datetime as dt
    import re

    expected = f"{flag} {text!r}: a date written YYYY-MM-DD was expected, e.g. 2027-01-01"
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):  # never 20270101, nor ٢٠٢٧
        fail(expected)
    try:
        return dt.date.fromisoformat(text)
    except ValueError as e:  # the form is right, the day is not: "day is out of range …"
        fail(f"{flag} {text!r}: no such day ({e})")


def game_as_of(game: Any, when: str | None) -> Any:
    """The compiled game with the values in force on ``when`` (``model.history.as_of``).
    Before the chapter's adoption: refused, exit 2, naming the adopting notice. Where the
    encoded text was not the regulation on the date, a note on stderr says why."""
    return game_as_of_noted(game, when)[0]


#: How ``game_as_of_noted``'s first note opens where the encoded text was not the day's.
MADE_AS_OF = "Made as of"


def not_the_days(noted: list[str]) -> list[str]:
    """Of ``game_as_of_noted``'s notes, those saying the encoded text was not the
    regulation on the day asked (none where it was)."""
    return noted[1:] if noted and noted[0].startswith(MADE_AS_OF) else []


def game_as_of_noted(game: Any, when: str | None) -> tuple[Any, list[str]]:
    """``game_as_of``, and the notes it said, for a document made as of ``when`` to carry:
    the day first ("As in force on …"), then the chapter's state that day."""
    if when is None:
        return game, []
    from dataclasses import replace

    from validator.model.history import as_of

    date = parse_date(when)
    said = say_in_force(game, date, refuse=True)
    day = (  # "the rules of that day" only where the encoded text was
        f"{MADE_AS_OF} {date.isoformat()} from the encoded text, which was not the regulation "
        "that day"
        if said
        else f"As in force on {date.isoformat()}: the rules of that day"
    )
    if game.definition.undated:  # no day to check against: said, never silently
        undated = (
            f"{game.definition.chapter} carries no dates (its game file says why): the "
            "rules are its text's, whatever the day"
        )
        sys.stderr.write(f"rulesub: {game.id}: info: {undated}\n")
        said.append(undated)
    resolved = as_of(definition := game.definition, date)
    game = game if resolved is definition else replace(game, definition=resolved)
    return game, [day, *said]


def before_adoption(findings: Any, as_of: str | None) -> bool:
    """Whether ``--as-of`` asked for a date before a chapter's adoption (its finding among
    ``findings``), said on stderr where it did: no rule was in force to check against, so
    the command is refused (exit 2), as `games show`, `odds` and `par` refuse it; a
    submission's own effective date before the adoption is a finding (exit 1)."""
    from validator.checks.in_force import REFUSED_DATE
    from validator.signage.checked import describe

    refused = [f for f in findings if f.code.rpartition("/")[2] in REFUSED_DATE]
    if as_of is None or not refused:
        return False
    for f in refused:  # said where a refusal is said, whatever the report's format
        sys.stderr.write(f"rulesub: --as-of {as_of}: {describe(f)}\n")
    return True


def say_in_force(game: Any, date: dt.date, *, refuse: bool = False) -> list[str]:
    """Where the encoded text was not the regulation on ``date`` (before its adoption, after
    a rescission or an expiry, an amendment's wording not held), a note on stderr; with
    ``refuse``, a date before the adoption stops the command (exit 2). The notes said, each
    with its citation, for a document to carry too."""
    from validator.checks.in_force import messages
    from validator.model.history import in_force

    definition = game.definition
    said = []
    for _rule, severity, message, cite in messages(definition, in_force(definition, date)):
        if severity == "error" and refuse:
            fail(f"{game.id}: {message} [{cite}]")
        said.append(say_note(game.id, severity, message, cite))
    return said


def say_note(game_id: str, severity: str, message: str, cite: str) -> str:
    """A note on the chapter's state, said on stderr as ``validate`` says a finding; the
    note with its citation, as a document carries it."""
    sys.stderr.write(f"rulesub: {game_id}: {severity}: {message} [{cite}]\n")
    return f"{message} [{cite}]"
