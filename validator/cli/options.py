"""The options commands share, each defined once (as check-jsonschema's ``common_options``).

One output vocabulary: every command that prints a result takes ``--format`` with ``text``
and ``json`` (plus formats of its own) and ``--out FILE``; ``--output-format concise|full``
is ``validate``'s text layout only. Exit codes everywhere: 0 fine, 1 findings or a rule
refused it, 2 unreadable input or usage (``validator.cli.common``).

A command declares ``format: FormatOption = Format.text`` and ``out: OutOption = None`` and,
where it prints through the console rather than writing a document itself, is decorated
with :func:`prints_result`, which sends what it prints to ``--out`` written whole.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from validator.report import OutputFormat, ReportFormat

# -- the formats ---------------------------------------------------------------------------


class Format(StrEnum):
    """What every command that prints a result can print: for a reader, or for a program."""

    text = "text"
    json = "json"


class DocumentFormat(StrEnum):
    """A document a person files or prints (the par sheet): also Markdown, HTML and PDF
    (HTML printed by Chromium)."""

    text = "text"
    json = "json"
    markdown = "markdown"
    html = "html"
    pdf = "pdf"


class DiffFormat(StrEnum):
    """A paytable change: also a Markdown memo."""

    text = "text"
    json = "json"
    markdown = "markdown"


class FailOn(StrEnum):
    """The least severe finding that makes the exit code 1."""

    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


class DiffFailOn(StrEnum):
    """``diff --fail-on``: the new submission's errors (or warnings too) make it exit 1."""

    error = "error"
    warning = "warning"


# -- the options ---------------------------------------------------------------------------

FormatOption = Annotated[Format, typer.Option("--format", help="text or json")]
DocumentFormatOption = Annotated[
    DocumentFormat, typer.Option("--format", help="text, json, markdown, html (printable) or pdf")
]
DiffFormatOption = Annotated[
    DiffFormat, typer.Option("--format", help="text, json or markdown (a memo)")
]
ReportFormatOption = Annotated[
    ReportFormat,
    typer.Option(
        "--format",
        help="text | json | sarif | markdown | github (GitHub Actions annotations)",
    ),
]
#: ``validate``'s text layout; ``concise`` and ``full`` as ruff names them.
OutputFormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--output-format",
        help="the text report: one line per finding (concise) or a table per file (full; "
        "each finding a block where the terminal is narrower than the table)",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", metavar="FILE", help="write to FILE instead of stdout (whole or not at all)"
    ),
]
FailOnOption = Annotated[
    FailOn | None,
    typer.Option(
        "--fail-on",
        help="the least severe finding that makes the exit code 1 (default: error, or the "
        "configuration's fail-on)",
    ),
]
DiffFailOnOption = Annotated[
    DiffFailOn | None,
    typer.Option("--fail-on", help="exit 1 if the new submission has errors (or warnings)"),
]
#: what ``--db`` names, wherever a command takes it
DB_HELP = (
    "the database: a SQLite file or postgresql://… "
    "(default: RULESUB_DB, else rulesub.sqlite3 in the user's data directory)"
)
DbOption = Annotated[str | None, typer.Option("--db", help=DB_HELP)]


def _submission_number(value: str) -> int:
    """A filing's number as the record gives it: digits, nothing else ("12", not "#12")."""
    if not (value.isascii() and value.isdigit()):
        raise typer.BadParameter(
            f"{value!r} is not a submission number: give the number `history` lists, as 12"
        )
    return int(value)


SubmissionIdArgument = Annotated[
    int,
    typer.Argument(metavar="ID", parser=_submission_number, help="the submission's id"),
]


RulesubOption = Annotated[
    Path | None,
    typer.Option(
        "--rulesub",
        help="a Rules Submission: paytables, meters, limits",
        metavar="FILE",
        readable=False,
    ),
]
AllowFindingsOption = Annotated[
    bool,
    typer.Option(
        "--allow-findings",
        help="run under a Rules Submission that has errors: what is written is marked DRAFT "
        "with the errors listed",
    ),
]
SeedOption = Annotated[int, typer.Option("--seed", min=0, help="the shuffle's seed", metavar="N")]
StrategyOption = Annotated[
    str | None,
    typer.Option(
        "--strategy", help="a strategy of the game file (default: its own)", metavar="NAME"
    ),
]
#: Facts about the regulation itself (a published hold range no table meets): shown by
#: ``odds``, ``par`` and ``games show``, and by ``validate`` only when asked.
RegulationNotesOption = Annotated[
    bool,
    typer.Option(
        "--show-regulation-notes",
        help="also report facts about the regulation itself (a published hold range no "
        "table meets), which a submission cannot act on",
    ),
]


# -- --out for a command that prints ---------------------------------------------------------


@contextmanager
def written_to(
    out: Path | None, what: str, *, unreadable_too: bool = False, private: bool = False
) -> Iterator[None]:
    """What the block prints to stdout goes to ``out`` instead, written whole once it is
    done: also when it ends with exit 1 (the findings are the result), never when it
    fails with exit 2 or refuses (``REFUSED``: nothing is written), unless
    ``unreadable_too``: a report that says which input could not be read (``validate``'s,
    SARIF's notifications) is a whole result, written where it was printed in full before
    the exit 2. ``private``: a secret
    (an API token), written readable by its owner alone."""
    if out is None:
        yield
        return
    from validator.cli.common import emit

    ready_to_write(out)
    from validator.cli.common import REFUSED

    buffer = io.StringIO()
    REFUSED.set(False)
    try:
        with redirect_stdout(buffer):
            yield
    except typer.Exit as e:
        printed = buffer.getvalue()
        if REFUSED.get():  # made nothing: the file keeps what it held
            raise
        if e.exit_code in (0, 1) or (unreadable_too and e.exit_code == 2 and printed):
            emit(printed, out, what, private=private)
        raise
    emit(buffer.getvalue(), out, what, private=private)


def ready_to_write(out: Path | None, option: str = "--out") -> None:
    """Refuse (exit 2), before the command acts, an output it could not write whole: a
    folder that is not there or that rulesub may not write in, or a file it was given.
    Never a filing recorded, or a long simulation run, and then "cannot write"."""
    if out is None:
        return
    from validator.cli.common import fail
    from validator.files import WriteError, can_write_whole

    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        fail(f"{option} {out}: the directory {out.parent} does not exist")
    not_given(out, option)
    try:
        can_write_whole(out)
    except WriteError as e:
        fail(f"{option} {out}: {e.strerror or e}")


def not_given(out: Path | None, option: str = "--out") -> None:
    """Refuse (exit 2) an output that names a file the command was given, or another of
    its outputs: nothing the user gave is written over."""
    clash = _named_elsewhere(out, option) if out is not None else None
    if clash is not None:
        from validator.cli.common import fail

        fail(
            f"{option} {out}: that is the file {clash}: rulesub never writes over what it is given"
        )


def _named_elsewhere(out: Path, option: str) -> str | None:
    """The command's other argument or option that names the same file as ``--out`` (an
    input, or another output such as ``--log``), said as the user gave it; None if none.
    A stream (``/dev/stdout``) names no file."""
    if str(out).startswith(("/dev/", "/proc/")):
        return None
    ctx = _current_context()
    if ctx is None:
        return None
    target = out.resolve()
    opts = {p.name: tuple(getattr(p, "opts", ())) for p in getattr(ctx.command, "params", ())}
    for name, value in ctx.params.items():
        if option in opts.get(name, ()):
            continue  # the output itself
        for v in value if isinstance(value, list | tuple) else [value]:
            if not isinstance(v, str | Path) or not str(v):
                continue
            try:
                if Path(v).resolve() == target:
                    return str(v)
            except (OSError, RuntimeError, ValueError):
                continue
    return None


#: What a file's name says it holds, by its extension.
EXTENSIONS = {
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".json": "json",
    ".sarif": "sarif",
    ".txt": "text",
}
E = TypeVar("E", bound=StrEnum)


def out_format(out: Path | None, format: E, param: str = "format") -> E:
    """The format written to ``--out``: where ``--format`` was not given, the one the file's
    extension names (``par.pdf``: a PDF), where the command writes it; a file whose name
    says it holds another format than the one written is refused (exit 2), so that no
    ``.pdf`` ever holds text."""
    named = EXTENSIONS.get(out.suffix.lower()) if out is not None else None
    if named is None or named == format.value:
        return format
    from validator.cli.common import fail

    ctx = _current_context()
    source = ctx.get_parameter_source(param) if ctx is not None else None
    given = source is not None and source.name != "DEFAULT"
    kinds = type(format)
    if not given and named in kinds.__members__:
        return kinds(named)
    written = " or ".join(k.value for k in kinds) if not given else format.value
    fail(
        f"--out {out}: the name says {named}, but this writes {written}: give a --format "
        "that matches, or a file name that does"
    )


def _current_context() -> Any:
    """The command's click context: Typer's own copy of click (Typer 0.2x vendors it), else
    click's."""
    import importlib

    for name in ("typer._click.globals", "click.globals"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        ctx = module.get_current_context(silent=True)
        if ctx is not None:
            return ctx
    return None


F = TypeVar("F", bound=Callable[..., Any])


def prints_result(
    what: str,
    param: str = "out",
    *,
    unreadable_too: Callable[[dict[str, Any]], bool] | None = None,
    private: bool = False,
) -> Callable[[F], F]:
    """A command whose printed result ``--out FILE`` sends to a file: its parameter ``param``
    (``out``, or another name where the command's body calls its console ``out``);
    ``unreadable_too``: whether, given the command's arguments, the result printed before an
    exit 2 is written too (``written_to``); ``private``: the result is a secret."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            if isinstance(kwargs.get("format"), StrEnum):
                kwargs["format"] = out_format(kwargs.get(param), kwargs["format"])
            too = unreadable_too is not None and unreadable_too(kwargs)
            with written_to(kwargs.get(param), what, unreadable_too=too, private=private):
                return command(*args, **kwargs)

        return run  # type: ignore[return-value]

    return decorate
