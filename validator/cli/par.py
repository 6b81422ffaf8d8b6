"""``rulesub par``: the game's math report (par sheet), exact where it can be.

Exit codes: 0 done, 1 a Rules Submission with errors (no sheet, unless --allow-findings),
2 input that cannot be used (an unreadable submission, an unknown game,
a Dask scheduler that cannot be reached, wrong usage).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from validator import jsonout
from validator.cli import app
from validator.cli.common import AS_OF_HELP, fail, game_as_of_noted, not_a_file, refuse
from validator.cli.gate import AllowFindingsOption, reads_once, submission_gate
from validator.cli.options import DocumentFormat as ParFormat
from validator.cli.options import DocumentFormatOption, OutOption, out_format, ready_to_write

ROUNDS = 200_000  # a banking game's simulated rounds per strategy, unless --rounds says
#: a Poker game's simulated hands, a whole table dealt and bet each: the slowest game
#: (Omaha hi-lo 8) answers in under a minute on two cores
POKER_HANDS = 5_000


@app.command("par")
@reads_once
def par(
    target: Annotated[
        str, typer.Argument(metavar="SUBMISSION_OR_GAME", help="a Rules Submission or a game id")
    ],
    format: DocumentFormatOption = ParFormat.text,
    out: OutOption = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            min=1,
            metavar="N",
            help=f"rounds per simulated strategy (default {ROUNDS:,}; a Poker game: "
            f"{POKER_HANDS:,} hands)",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="the simulation's seed")] = 1,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="processes (default: every core)")
    ] = None,
    hands_per_hour: Annotated[
        int,
        typer.Option(
            "--hands-per-hour", min=1, help="nonbanking Poker: the rake and fund an hour at this"
        ),
    ] = 30,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="a Dask scheduler's address (or `local`)"),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
    tables: Annotated[
        int | None,
        typer.Option(
            "--tables",
            min=1,
            metavar="N",
            help="nonbanking Poker: independent tables sharing the hands (default: the workers)",
        ),
    ] = None,
    allow_findings: AllowFindingsOption = False,
) -> None:
    """The par sheet: every wager's return table and house edge, the base game per strategy
    (the optimal one derived from the rules where exact enumeration is feasible), the
    progressives against their meters. Simulated figures carry 95% intervals; the same seed
    gives the same figures on any number of workers (a Poker game's: at the same number of
    tables). A Rules Submission with errors is refused with them (exit 1), unless
    --allow-findings: the sheet is then marked DRAFT."""
    from validator.cli.rounds import _round_input
    from validator.compiler import PokerGame, load_game
    from validator.interpreter.chunks import SchedulerError
    from validator.interpreter.settings import read_settings
    from validator.model.registry import game_ids
    from validator.par.render import RENDERERS
    from validator.par.sheet import ParRequest, build, submission_game

    ready_to_write(out)  # before any work: never a sheet made, then "cannot write"
    format = out_format(out, format)
    if format is ParFormat.pdf and out is None:
        fail("--format pdf needs --out FILE")
    path = Path(target)
    gate = submission_gate(path if path.is_file() else None, allow=allow_findings, what="par sheet")
    with _round_input():
        if path.is_file():
            game, dated = game_as_of_noted(load_game(submission_game(path)), as_of)
            config = read_settings(game, path, allow_findings=allow_findings)
            submission: str | None = str(path)
        else:
            if target not in game_ids():
                if path.exists() or path.is_symlink():  # a directory, a FIFO: said what it is
                    fail(not_a_file(path))
                fail(f"{target}: neither a file nor a game id; games: {', '.join(game_ids())}")
            game, dated = game_as_of_noted(load_game(target), as_of)
            config = read_settings(game, None)
            submission = None
        poker = isinstance(game, PokerGame)
        if tables is not None and not poker:
            fail(f"--tables: {game.definition.id} is a banking game; no Poker room to seat")
        req = ParRequest(
            game,
            config,
            submission,
            rounds=rounds or (POKER_HANDS if poker else ROUNDS),
            seed=seed,
            workers=workers,
            scheduler=scheduler,
            progress=_progress if sys.stderr.isatty() else None,
            hands_per_hour=hands_per_hour,
            tables=tables,
        )
        if poker:
            from validator.cli.tools import first_poker_run_note

            first_poker_run_note()
        try:
            sheet = build(req)
        except SchedulerError as e:
            refuse(e)
    if submission is not None:
        from validator.review.cover import identification

        sheet["identification"] = identification(path, game.id)
        if as_of is None:  # the chapter as on the effective date: said, and on the sheet
            in_force = gate.say_in_force()
            sheet["notes"] = in_force + list(sheet.get("notes") or [])
            if in_force:  # the printed sheet's first page says it beside the chapter
                sheet["identification"]["in_force"] = in_force
    if dated:  # made as of a day: the sheet says which, and the chapter's state that day
        sheet["notes"] = dated + list(sheet.get("notes") or [])
    if gate.draft:
        sheet["draft"] = gate.mark()
    if format is ParFormat.pdf:
        from validator.cli.options import not_given
        from validator.review.pdf import PdfError, print_pdf

        not_given(out)
        try:
            print_pdf(RENDERERS["html"](sheet), out, "the par sheet")  # type: ignore[arg-type]
        except PdfError as e:
            refuse(e)
        sys.stderr.write(f"rulesub: wrote the par sheet to {out}\n")
        return
    if format is ParFormat.json:
        text = jsonout.dumps(sheet, indent=2) + "\n"
    else:
        text = RENDERERS[format.value](sheet)
    from validator.cli.common import emit

    emit(text, out, "the par sheet")


def _progress(what: str, done: int, total: int) -> None:
    sys.stderr.write(f"\r{what}: {done:,}/{total:,}")
    if done >= total:
        sys.stderr.write("\n")
