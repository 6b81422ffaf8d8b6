"""``rulesub signage``: the signs a table must carry, filled with a submission's selections."""

from __future__ import annotations

import sys
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from validator.cli import app
from validator.cli.common import (
    AS_OF_HELP,
    EXIT_FINDINGS,
    before_adoption,
    fail,
    game_as_of_noted,
    not_a_file,
    not_the_days,
    parse_date,
    readable_input,
    refuse,
    say_in_force,
)
from validator.cli.gate import AllowFindingsOption, unusable
from validator.cli.options import out_format, ready_to_write
from validator.counts import plural


class SignFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    html = "html"
    json = "json"


@app.command("signage")
def signage(
    submission: Annotated[
        Path, typer.Argument(help="a Rules Submission (YAML)", metavar="FILE", readable=False)
    ],
    format: Annotated[
        SignFormat,
        typer.Option("--format", help="text, markdown, html (print-ready) or json"),
    ] = SignFormat.text,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="write to this file (whole or not at all)", metavar="FILE"),
    ] = None,
    printed: Annotated[
        bool,
        typer.Option(
            "--print",
            "--no-cite",
            help="the finished sign as posted: no sections or other proof marks",
        ),
    ] = False,
    allow_findings: AllowFindingsOption = False,
    force: Annotated[
        bool, typer.Option("--force", help="the same as --allow-findings", hidden=True)
    ] = False,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
) -> None:
    """Every sign the submission's table needs: proofs by default, each line with the
    section requiring it; --print makes the finished signs.

    A submission with errors gets no signage: the errors are printed, exit 1
    (--allow-findings prints a DRAFT marked with them).
    """
    from validator.signage.checked import check_submission, describe

    if submission.is_dir():
        fail(f"{not_a_file(submission)} (signs are per table)")
    if not submission.is_file():
        _unreadable(submission)
    ready_to_write(out)  # before any work: never a sheet made, then "cannot write"
    format = out_format(out, format)
    with readable_input():  # a game file that cannot be compiled: its positions, exit 2
        checked = check_submission(
            submission, as_of=parse_date(as_of) if as_of is not None else None
        )
    if unusable(checked):  # input no command can use
        for finding in checked.errors if not checked.unreadable else checked.findings:
            sys.stderr.write(f"rulesub: {describe(finding)}\n")
        raise typer.Exit(2)
    if before_adoption(checked.errors, as_of):  # no rule in force on the date asked
        raise typer.Exit(2)
    errors = checked.errors
    if errors and not (force or allow_findings):
        sys.stderr.write(
            f"rulesub: {submission} has {plural(len(errors), 'error')}; no signage is printed "
            "for a submission with errors (--allow-findings prints a DRAFT):\n"
        )
        for finding in errors:
            sys.stderr.write(f"  {describe(finding)}\n")
        raise typer.Exit(EXIT_FINDINGS)
    sub = checked.submission
    with readable_input():
        game = checked.game()
    dated: list[str] = []
    noted: list[str] = []
    if game is not None:
        game, dated = game_as_of_noted(game, as_of)
    if game is not None and sub is not None and as_of is None and sub.effective is not None:
        # the signs follow the encoded text: say where the effective date finds it not the
        # regulation (a chapter rescinded or expired), as `validate` does, and on the signs
        noted = say_in_force(game, sub.effective)
    if sub is None or game is None:
        for finding in errors:
            sys.stderr.write(f"  {describe(finding)}\n")
        fail(f"{submission}: no game to draft signage for", EXIT_FINDINGS)
    if game.definition.signage is None:
        fail(f"{submission}: the game file of {sub.game} declares no signs (`signage:`)")
    if errors:
        sys.stderr.write(
            f"rulesub: {submission} has {plural(len(errors), 'error')}; printing DRAFT signage\n"
        )
    from validator.signage.build import build_signage
    from validator.signage.checked import draft_note

    # a finished sign made as of a day is posted as that day's rules: where the encoded
    # text was not the regulation then, it is a draft, not for posting (the filing's own
    # effective date past the chapter's end is `validate`'s warning, said on stderr)
    unheld = not_the_days(dated)
    day = parse_date(as_of) if as_of else None
    not_posted = bool(printed and unheld and not errors)
    signs = build_signage(
        game,
        sub,
        draft=bool(errors) or not_posted,
        problems=[draft_note(f, game) for f in errors] + (unheld if not_posted else []),
    )
    if not_posted:
        signs = replace(
            signs, draft_reason=f"the regulation on {day} is not the text these signs follow"
        )
    # made as of a day, or on a day the chapter was not in force: the signs say which
    signs = replace(signs, as_of=tuple(dated), in_force=tuple(noted))
    text = render(signs, format, cite=not printed)
    from validator.cli.common import emit

    emit(text, out, plural(len(signs.signs), "sign"))


def render(signs: object, format: SignFormat, *, cite: bool) -> str:
    from validator.signage.html import render_html
    from validator.signage.render import as_posted, render_json, render_markdown, render_text

    renderer = {
        SignFormat.text: render_text,
        SignFormat.markdown: render_markdown,
        SignFormat.html: render_html,
        SignFormat.json: render_json,
    }[format]
    return renderer(signs if cite else as_posted(signs), cite=cite)  # type: ignore[arg-type]


def _unreadable(path: Path) -> None:
    """A path that is no regular file: the reader says why (missing, a FIFO, a directory)."""
    from validator.loader import LoadError, read_text

    try:
        read_text(path)
    except LoadError as e:
        refuse(e)
    fail(f"{path}: no such file")
