"""``rulesub validate``, ``rulesub rules`` and ``rulesub schema export``.

Exit codes: 0 no errors, 1 errors found, 2 unreadable input or wrong usage. Heavy imports
stay inside the commands: ``rulesub validate`` starts cold.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from validator.cli import app
from validator.cli.common import (
    AS_OF_HELP,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    Format,
    before_adoption,
    fail,
    parse_date,
    print_json,
    readable_input,
    refuse,
)
from validator.cli.options import (
    FailOnOption,
    FormatOption,
    OutOption,
    OutputFormatOption,
    RegulationNotesOption,
    ReportFormatOption,
    prints_result,
)
from validator.report import OutputFormat, ReportFormat


@app.command("validate")
# a report naming what could not be read is whole: every format but text, which says it on
# stderr (a CI job uploads its SARIF whatever the exit code)
@prints_result("the report", unreadable_too=lambda kw: kw["format"] is not ReportFormat.text)
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Rules Submission files or directories (in a directory, every YAML file with "
            "a top-level `rulesub:` key, recursively); `-` reads one from stdin",
            metavar="FILE_OR_DIR",
            readable=False,
        ),
    ],
    format: ReportFormatOption = ReportFormat.text,
    output_format: OutputFormatOption = OutputFormat.concise,
    fail_on: FailOnOption = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude",
            metavar="GLOB",
            help="skip paths matching GLOB when walking a directory (repeatable; added to the "
            "configuration's exclude)",
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            help="the configuration to use (default: the nearest rulesub.toml, or "
            "pyproject.toml with [tool.rulesub])",
            readable=False,
        ),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
    out: OutOption = None,
    stdin_filename: Annotated[
        str | None,
        typer.Option(
            "--stdin-filename",
            metavar="NAME",
            help="with `-` for FILE_OR_DIR: the name the submission read from stdin is reported by",
        ),
    ] = None,
    show_regulation_notes: RegulationNotesOption = False,
) -> None:
    """Check Rules Submissions against the regulation: every violation, with its section,
    its line and what would comply. Exit 0 clean, 1 findings at --fail-on or above, 2
    unreadable input. Waive a finding that cannot be fixed with a reason:
    `# rulesub: ignore[CODE] -- reason` on its line, or per-file-ignores in the
    configuration."""
    from dataclasses import replace

    from validator.checks import validate_paths
    from validator.checks.config import ConfigError, load_settings
    from validator.checks.engine import discover
    from validator.checks.findings import Report
    from validator.report import render

    try:
        settings = load_settings(config)
    except ConfigError as e:
        refuse(e)
    if exclude:
        settings = replace(settings, exclude=(*settings.exclude, *exclude))
    if fail_on is not None:
        settings = replace(settings, fail_on=fail_on.value)
    if as_of is not None:
        settings = replace(settings, as_of=parse_date(as_of))
    if [str(p) for p in paths] == ["-"]:
        report = _from_stdin(stdin_filename or "-", settings, show_regulation_notes)
        refused = before_adoption([f for r in report.files for f in r.findings], as_of)
        _finish(report, format, output_format.value, missing=refused)
    if "-" in map(str, paths):
        fail("`-` (stdin) is the only FILE_OR_DIR when given")
    if stdin_filename is not None:
        fail("--stdin-filename names a submission read from stdin: give `-` as FILE_OR_DIR")
    missing = [p for p in paths if not p.exists() and not p.is_symlink()]
    reported = format in (ReportFormat.sarif, ReportFormat.json)
    for p in missing if not reported else ():
        sys.stderr.write(f"rulesub: {p}: no such file or directory\n")
    found = discover([p for p in paths if p not in missing], settings)
    if reported:  # a missing file is in the report, as an unreadable one is
        found.files = [*missing, *found.files]
    for note in found.skipped:
        sys.stderr.write(f"rulesub: {note}\n")
    if not found.files:
        if format in (ReportFormat.sarif, ReportFormat.json):
            render(Report([], skipped=found.skipped), format, sys.stdout)
        if missing:
            raise typer.Exit(EXIT_USAGE)
        fail(
            "no Rules Submissions found in "
            + ", ".join(map(str, paths))
            + " (a Rules Submission is a YAML file with a top-level `rulesub:` key)"
        )
    with readable_input(), _progress(len(found.files)) as advance:
        report = validate_paths(
            found.files, settings, progress=advance, regulation_notes=show_regulation_notes
        )
    report.skipped = found.skipped
    findings = [f for result in report.files for f in result.findings]
    refused = before_adoption(findings, as_of)  # the report, and exit 2: the date is refused
    _finish(report, format, output_format.value, missing=bool(missing) or refused)


def _from_stdin(name: str, settings: Any, regulation_notes: bool) -> Any:
    """One submission read from stdin, reported under ``name`` (``--stdin-filename``)."""
    import tempfile

    import validator.cli
    from validator.checks import validate_file
    from validator.checks.findings import Report
    from validator.loader import MAX_BYTES

    if validator.cli.stdin_closed:
        fail("`-` reads a submission from standard input, which is closed")
    data = sys.stdin.buffer.read(MAX_BYTES + 1)  # one more than is read: refused as too large
    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "stdin.yaml"
        path.write_bytes(data)
        result = validate_file(
            path, display=name, settings=settings, regulation_notes=regulation_notes
        )
    return Report([result], fail_on=settings.fail_on or "error")


def _finish(report: Any, format: ReportFormat, layout: str, *, missing: bool) -> NoReturn:
    """Print the report and stop with its exit code (2 where a path was missing)."""
    from validator.report import render

    for result in report.files:
        for f in result.findings:
            if f.code == "rulesub/unreadable":
                sys.stderr.write(f"{f.location}: {f.message}\n")
    render(report, format, sys.stdout, layout)
    raise typer.Exit(EXIT_USAGE if missing else report.exit_code)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None] | None]:
    """A progress bar on stderr for a batch that takes a while (never in a pipe)."""
    if total < 50 or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("validating", total=total)
        yield lambda: bar.advance(task)


@app.command("rules")
@prints_result("the finding codes")
def rules(
    code: Annotated[
        str | None,
        typer.Argument(help="a finding code, e.g. four-card-poker/max-positions", metavar="CODE"),
    ] = None,
    format: FormatOption = Format.text,
    game: Annotated[
        str | None,
        typer.Option("--game", metavar="GAME", help="only the codes of this game (and rulesub's)"),
    ] = None,
    out: OutOption = None,
) -> None:
    """List every finding code, or show one with its doc (as ruff does)."""
    from validator.checks.rules import all_rules, find_rule
    from validator.cli.common import working
    from validator.loader import did_you_mean

    with readable_input(), working("reading the game files (kept in the cache after)"):
        every = all_rules()
        if game is not None:
            from validator.checks.facts import known_games

            games = known_games()
            if game not in games:
                fail(
                    f"no game {game!r}{did_you_mean(game, games)}; the games are: "
                    + ", ".join(games)
                )
            every = tuple(r for r in every if r.code.split("/")[0] in (game, "rulesub"))
    if code is None:
        if format is Format.json:
            print_json([r.to_dict() for r in every])
            return
        from validator.report.text import _wrap, width_of

        width = width_of(sys.stdout)
        for r in every:
            head = f"{r.code} ({r.severity}" + (f", {r.cite})" if r.cite else ")")
            lines = _wrap(head, width, "    ") + _wrap(f"    {r.summary}", width, "    ")
            sys.stdout.write("\n".join(lines) + "\n")
        return
    rule = find_rule(code)
    if rule is None:
        from validator.checks.codes import redirect

        renamed = redirect(code)
        rule = find_rule(renamed) if renamed != code else None
        if rule is not None:
            sys.stderr.write(f"rulesub: {code} was renamed {renamed}\n")
        from validator.checks.codes import table

        retired = table()["removed"].get(code)
        if rule is None and retired:
            fail(f"{code} was removed: {retired}", code=EXIT_FINDINGS)
    if rule is None:
        fail(f"no finding code {code!r}{did_you_mean(code, [r.code for r in every])}")
    if format is Format.json:
        print_json(rule.to_dict())
        return
    lines = [
        f"{rule.code} ({rule.name})",
        "",
        f"Severity: {rule.severity}",
    ]
    if rule.cite:
        lines.append(f"Section: {rule.cite}")
    lines += ["", rule.doc]
    if rule.hint:
        lines += ["", f"What would comply: {rule.hint}"]
    sys.stdout.write("\n".join(lines) + "\n")
    raise typer.Exit(EXIT_OK)


schema_app = typer.Typer(help="JSON Schemas of Rules Submissions and game files.")
app.add_typer(schema_app, name="schema")


@schema_app.command("export")
@prints_result("the list of schemas")
def schema_export(
    directory: Annotated[
        Path,
        typer.Option("--dir", help="where to write the schemas", metavar="DIR"),
    ] = Path("schemas"),
    compiled: Annotated[
        Path | None,
        typer.Option(
            "--compiled",
            metavar="DIR",
            help="also write the compiled constraints and holds the validator starts from "
            "(in rulesub's own source tree: validator/checks/compiled)",
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="write nothing; exit 1 if a file is out of date")
    ] = False,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Write rulesub.schema.json, one rulesub.<game>.schema.json per game,
    game.schema.json and strategy.schema.json, generated from the game files, into DIR
    (default ./schemas). Nothing is written anywhere else."""
    from validator.checks.schema import export

    with readable_input():
        try:
            stale = export(directory, compiled=compiled, check=check)
        except OSError as e:  # a directory that cannot be made or written: said in words
            fail(f"{e.filename or directory}: {e.strerror or e}")
    if format is Format.json:
        key = "out_of_date" if check else "written"
        print_json({"dir": str(directory), key: [str(p) for p in stale]})
    if check:
        for path in stale:
            sys.stderr.write(f"rulesub: {path} is out of date (run `rulesub schema export`)\n")
        raise typer.Exit(EXIT_FINDINGS if stale else EXIT_OK)
    if format is Format.json:
        return
    for path in stale:
        sys.stdout.write(f"wrote {path}\n")
    if not stale:
        sys.stdout.write("every file is current\n")
