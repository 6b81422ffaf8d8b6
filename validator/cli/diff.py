"""``rulesub diff``: what a paytable change means, hand by hand, with the exact hold delta.

Three forms::

    rulesub diff OLD NEW                                  two submissions of one game
    rulesub diff GAME --wager W --paytable A --to C       two of the chapter's paytables
    rulesub diff PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE
                                                          as git's external diff driver
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from validator.cli import app
from validator.cli.common import (
    AS_OF_HELP,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    fail,
    not_a_file,
    print_json,
)
from validator.cli.gate import reads_once
from validator.cli.options import (
    DB_HELP,
    DiffFailOnOption,
    DiffFormat,
    DiffFormatOption,
    OutOption,
    prints_result,
)
from validator.cli.options import DiffFailOn as FailOn

#: git gives an external diff driver 7 arguments, and 9 for a rename or a copy.
GIT_ARGS = (7, 9)
DEV_NULL = "/dev/null"


@app.command("diff")
@prints_result("the comparison")
@reads_once
def diff(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="OLD NEW | GAME",
            help="two submissions of one game; or a game id with --wager/--paytable/--to; "
            "or the arguments git gives an external diff driver (7, or 9 for a rename)",
            show_default=False,
        ),
    ] = None,
    wager: Annotated[
        str | None,
        typer.Option("--wager", help="GAME form: a wager id or a table id", metavar="WAGER"),
    ] = None,
    paytable: Annotated[
        str | None,
        typer.Option("--paytable", help="GAME form: the old paytable letter", metavar="LETTER"),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="GAME form: the new paytable letter; with --from, the later date",
            metavar="LETTER|DATE",
        ),
    ] = None,
    wager_amount: Annotated[
        str | None,
        typer.Option(
            "--wager-amount",
            help="GAME form: the wager amount (Envy Bonus tables)",
            metavar="AMOUNT",
        ),
    ] = None,
    format: DiffFormatOption = DiffFormat.text,
    fail_on: DiffFailOnOption = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help="`approved`: compare FILE with the approval of its facility and game in force "
            "on FILE's effective date (the one it would replace), from the database (--db)",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", help=f"with --against approved: {DB_HELP}"),
    ] = None,
    from_date: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="DATE",
            help="GAME form: what the regulation itself changed from this date to --to DATE",
        ),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
    out: OutOption = None,
) -> None:
    """Hand by hand old and new payouts, the exact hold before and after, and new findings.

    Exit 0; 1 when the new submission has errors (as validate; --fail-on warning also for
    warnings; git's driver form exits 1 only with --fail-on); 2 for input that cannot be
    read, two submissions of different games, or wrong usage.
    """
    args = args or []
    if len(args) in GIT_ARGS and against is None:  # git stops at a driver that exits 1
        raise typer.Exit(_git(args, format, fail_on))
    fail_on = fail_on or FailOn.error  # a submission with errors: exit 1, as validate
    if against is not None:
        raise typer.Exit(_against(args, against, db, format, fail_on))
    if from_date is not None:
        if to is None:
            fail(f"--from {from_date} needs --to DATE: rulesub diff GAME --from DATE --to DATE")
        if len(args) != 1:
            fail("the dates form takes one game id: rulesub diff GAME --from DATE --to DATE")
        _dates(args[0], from_date, to, format)
        return
    table_form = wager is not None or paytable is not None or to is not None
    if len(args) == 1 and not table_form and Path(args[0]).exists():
        fail(f"{args[0]} is one submission: give the one to compare it with (rulesub diff OLD NEW)")
    if table_form or len(args) == 1:
        if len(args) != 1:
            fail(
                "the paytable form takes one game id: "
                "rulesub diff GAME --wager W --paytable A --to C"
            )
        _tables(args[0], wager, paytable, to, wager_amount, format, as_of)
        return
    if len(args) != 2:
        fail(
            "give two submissions (rulesub diff OLD NEW), a game with --wager, --paytable and "
            "--to, or git's external-diff arguments"
        )
    old, new = (Path(a) for a in args)
    for path in (old, new):
        if not path.is_file():
            from validator.cli.signage import _unreadable

            _unreadable(path)
    result = _submissions(_read(old), _read(new), str(old), str(new))
    if isinstance(result, str):
        fail(result)
    _print(result, format)
    raise typer.Exit(_exit(result, fail_on))


# -- the forms ------------------------------------------------------------------------------


def _against(
    args: list[str], against: str, db: str | None, format: DiffFormat, fail_on: FailOn | None
) -> int:
    """``rulesub diff --against approved FILE``: FILE against the approved submission of
    its facility and game in the store (``--against OLD FILE`` is ``diff OLD FILE``)."""
    if len(args) != 1:
        fail("--against takes one submission: rulesub diff --against approved FILE")
    new = Path(args[0])
    if not new.is_file():
        fail(not_a_file(new))
    if against != "approved":
        old = Path(against)
        if not old.is_file():
            fail(f"--against {against}: give `approved` or an existing OLD_FILE")
        result = _submissions(_read(old), _read(new), str(old), str(new))
    else:
        from validator.cli.store import approved_file

        with approved_file(new, db) as (path, label, _):
            if path is None:  # recorded, with no approval before it
                fail(f"{new}: as recorded, {label}; there is nothing to compare it with")
            result = _submissions(_read(path, label), _read(new), label, str(new))
    if isinstance(result, str):
        fail(result)
    _print(result, format)
    return _exit(result, fail_on)


def _read(path: Path, display: str | None = None) -> Any:
    from validator.signage.checked import check_submission, describe

    checked = check_submission(path, display=display)
    # unreadable: exit 2. A value not read as written (a misspelt `paytabels:`) is an error
    # the document shows, before the changes it makes: reviewing a flawed filing is its job
    if checked.unreadable:
        for finding in checked.findings:
            sys.stderr.write(f"rulesub: {describe(finding)}\n")
        raise typer.Exit(EXIT_USAGE)
    return checked


def _submissions(old: Any, new: Any, old_label: str, new_label: str) -> Any:
    """The diff of two checked submissions, or why there is none (a message)."""
    from validator.compiler import load_game
    from validator.diff import diff_submissions
    from validator.model.registry import GameFileError, shown_name

    games = []
    for checked, label in ((old, old_label), (new, new_label)):
        game_id = getattr(checked.submission, "game", None) if checked is not None else None
        if checked is not None and not isinstance(game_id, str):
            return (
                f"{_where(checked, label)}: the submission states no game (`game:`), so there "
                "is nothing to compare"
            )
        games.append(game_id)
    ids = [g for g in games if g is not None]
    if len(set(ids)) > 1:
        return (
            f"{_where(new, new_label)}: {old_label} is a {shown_name(ids[0])} submission and "
            f"{new_label} a {shown_name(ids[1])} one: a diff compares two submissions of the "
            "same game"
        )
    try:
        game = load_game(ids[0])
    except KeyError as e:
        checked, label = (new, new_label) if new is not None else (old, old_label)
        return f"{_where(checked, label)}: " + (str(e.args[0]) if e.args else "no such game")
    except GameFileError as e:
        return "\n".join(str(err) for err in e.errors)
    result = diff_submissions(
        game,
        old.submission if old is not None else None,
        new.submission if new is not None else None,
        old_findings=old.findings if old is not None else [],
        new_findings=new.findings if new is not None else [],
        old_label=old_label,
        new_label=new_label,
    )
    for change in result.changes:  # where a person finds it: a line, not the path kept
        change.where = next(
            (w for c in (new, old) if c is not None and (w := c.where(change.path))), None
        )
    return result


def _where(checked: Any, label: str) -> str:
    """``file:line:column`` of a submission's ``game:`` (its finding's position), or 1:1."""
    for f in getattr(checked, "findings", ()):
        if f.path == "/game":
            return f"{label}:{f.line}:{f.column}"
    return f"{label}:1:1"


def _tables(
    game_id: str,
    wager: str | None,
    old: str | None,
    new: str | None,
    wager_amount: str | None,
    format: DiffFormat,
    as_of: str | None = None,
) -> None:
    from validator.cli.common import game_as_of, load_game_or_fail
    from validator.diff import diff_tables
    from validator.loader import did_you_mean
    from validator.model.notation import NotationError, parse_money

    if wager is None or old is None or new is None:
        fail("the paytable form needs --wager, --paytable and --to")
    game = game_as_of(load_game_or_fail(game_id), as_of)
    d = game.definition
    table_id = _table_id(game, wager, old, new)
    _, table = d.table_by_id(table_id)
    for letter in (old, new):
        if letter not in table.letters:
            fail(
                f"{table.name} has no paytable {letter!r}{did_you_mean(letter, table.letters)}; "
                f"its paytables are: {', '.join(table.letters) or 'none (a fixed table)'}"
            )
    amount = None
    if wager_amount is not None:
        try:
            amount = parse_money(wager_amount)
        except NotationError as e:
            fail(f"--wager-amount: {e}")
    _print(diff_tables(game, table_id, old, new, amount), format)


def _dates(game_id: str, old: str, new: str, format: DiffFormat) -> None:
    """``rulesub diff GAME --from DATE --to DATE``: the regulation's own changes."""
    from validator.cli.common import game_as_of, load_game_or_fail, parse_date
    from validator.diff.dates import diff_dates

    game = load_game_or_fail(game_id)
    old_date, new_date = parse_date(old, "--from"), parse_date(new, "--to")
    if old_date > new_date:  # the notices between would read as made in the wrong direction
        fail(f"--from {old} is after --to {new}: the regulation's changes run from the earlier")
    for when in (old, new):
        game_as_of(game, when)  # refused before the adoption; notes where the text is not held
    _print(diff_dates(game, old_date, new_date), format)


def _table_id(game: Any, wager: str, old: str, new: str) -> str:
    """The selectable table a --wager names: a table id, or the wager's own table."""
    from validator.loader import did_you_mean

    d = game.definition
    tables = {tid: (wid, t) for wid, tid, t in d.tables()}
    if wager in tables:
        return wager
    if wager not in d.wagers:
        known = list(d.wagers) + list(tables)
        fail(
            f"{d.id} has no wager or table {wager!r}{did_you_mean(wager, known)}; "
            f"its wagers are: {', '.join(d.wagers)}"
        )
    own = [tid for tid, t in d.wagers[wager].tables.items() if t.selectable]
    if not own:
        fail(f"the {d.wagers[wager].name} has no paytable the certificate holder selects")
    if wager in own:
        return wager
    with_both = [tid for tid in own if {old, new} <= set(tables[tid][1].letters)]
    return (with_both or own)[0]


def _git(args: list[str], format: DiffFormat, fail_on: FailOn | None) -> int:
    """git's external diff driver: ``path old-file old-hex old-mode new-file new-hex new-mode``,
    and for a rename or copy two more: ``new-path`` and git's rename lines.

    A file that is no readable submission, or a change of game, is shown as a plain
    unified diff, so that ``git diff`` never stops on it. An added file is compared with
    nothing; a deleted one is said to be deleted.
    """
    path, old_file, old_hex, _, new_file, new_hex, _ = args[:7]
    new_path = args[7] if len(args) == 9 else path
    old_label = f"a/{path} ({old_hex[:7]})" if old_file != DEV_NULL else "(new file)"
    new_label = f"b/{new_path} ({new_hex[:7]})" if new_file != DEV_NULL else "(deleted)"
    if format is DiffFormat.text:
        sys.stdout.write(f"rulesub diff a/{path} b/{new_path}\n")
        if new_path != path:
            sys.stdout.write(f"renamed: {path} -> {new_path}\n")
    if new_file == DEV_NULL:
        sys.stdout.write(f"{path}: deleted\n")
        return EXIT_OK
    old = _git_read(old_file, path) if old_file != DEV_NULL else None
    new = _git_read(new_file, new_path)
    result: Any = None
    if new is not None and (old is not None or old_file == DEV_NULL):
        result = _submissions(old, new, old_label, new_label)
    if result is None or isinstance(result, str):
        if isinstance(result, str):
            sys.stdout.write(f"rulesub: {result}; the text diff follows\n")
        _unified(path, old_file, new_file, new_path)
        return EXIT_OK
    _print(result, format)
    return _exit(result, fail_on)


def _git_read(file: str, path: str) -> Any:
    from validator.signage.checked import check_submission

    checked = check_submission(Path(file), display=path)
    if checked.unreadable or not isinstance(getattr(checked.submission, "game", None), str):
        return None
    return checked


def _unified(path: str, old_file: str, new_file: str, new_path: str | None = None) -> None:
    from validator.loader import LoadError, read_bytes

    def lines(file: str) -> list[str]:
        if file == DEV_NULL:
            return []
        try:
            raw = read_bytes(file, display=path)
        except LoadError as e:  # no regular file, or too big: said, not read
            sys.stdout.write(f"rulesub: {e}\n")
            return []
        return raw.decode("utf-8", errors="replace").splitlines(keepends=True)

    sys.stdout.writelines(
        difflib.unified_diff(lines(old_file), lines(new_file), f"a/{path}", f"b/{new_path or path}")
    )


# -- output ---------------------------------------------------------------------------------


def _print(result: Any, format: DiffFormat) -> None:
    from validator.diff.render import render_markdown, render_terminal, to_json

    if format is DiffFormat.json:
        print_json(to_json(result))
    elif format is DiffFormat.markdown:
        sys.stdout.write(render_markdown(result))
    else:
        from validator.cli.common import console

        render_terminal(result, console())


def _exit(result: Any, fail_on: FailOn | None) -> int:
    if fail_on is FailOn.error and result.new_errors:
        return EXIT_FINDINGS
    if fail_on is FailOn.warning and (result.new_errors or result.new_warnings):
        return EXIT_FINDINGS
    return EXIT_OK
