"""``rulesub validate``, ``rulesub rules`` and ``rulesub schema export``.

Exit codes: 0 no errors, 1 errors found, 2 unreadable input or wrong usage. Heavy imports
stay inside the commands: ``rulesub validate`` starts cold.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from validator.cli import app
from validator.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    Format,
    fail,
    print_json,
    readable_input,
)
from validator.report import ReportFormat


@app.command("validate")
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Rules Submission files or directories (*.yaml, *.yml, recursive)",
            metavar="FILE_OR_DIR",
        ),
    ],
    format: Annotated[
        ReportFormat,
        typer.Option("--format", help="text | json | sarif | markdown"),
    ] = ReportFormat.text,
) -> None:
    """Check Rules Submissions against the regulation: every violation, with its section,
    its line and what would comply. Exit 0 clean, 1 errors found, 2 unreadable input."""
    from validator.checks import validate_paths
    from validator.checks.engine import submission_files
    from validator.report import render

    for p in paths:
        if not p.exists():
            sys.stderr.write(f"rulesub: {p}: no such file or directory\n")
    files = submission_files(p for p in paths if p.exists())
    if not files:
        fail("no Rules Submissions (*.yaml, *.yml) found in " + ", ".join(map(str, paths)))
    with _game_files_readable():
        report = validate_paths(files)
    for result in report.files:
        for f in result.findings:
            if f.code == "rulesub/unreadable":
                sys.stderr.write(f"{f.location}: {f.message}\n")
    render(report, format, sys.stdout)
    code = report.exit_code
    if len(files) < len(paths) and any(not p.exists() for p in paths):
        code = 2
    raise typer.Exit(code)


@contextmanager
def _game_files_readable() -> Iterator[None]:
    """A broken game file (ours, not the user's) stops the command with its errors, exit 2.

    Unlike ``readable_input`` this imports the game registry only if it was loaded: the
    validator starts from the compiled facts and must not pay for the models otherwise.
    """
    try:
        yield
    except Exception as e:
        registry = sys.modules.get("validator.model.registry")
        if registry is not None and isinstance(e, registry.GameFileError):
            for err in e.errors:
                sys.stderr.write(f"{err}\n")
            raise typer.Exit(EXIT_USAGE) from None
        raise


@app.command("rules")
def rules(
    code: Annotated[
        str | None,
        typer.Argument(help="a finding code, e.g. four-card-poker/max-positions", metavar="CODE"),
    ] = None,
    format: Annotated[Format, typer.Option("--format", help="text or json")] = Format.text,
) -> None:
    """List every finding code, or show one with its doc (as ruff does)."""
    from dataclasses import asdict

    from validator.checks.rules import all_rules, find_rule
    from validator.loader import did_you_mean

    with readable_input():
        every = all_rules()
    if code is None:
        if format is Format.json:
            print_json([asdict(r) for r in every])
            return
        from rich.table import Table

        from validator.cli.common import console

        t = Table(title="Finding codes", title_justify="left", header_style="bold")
        for col in ("code", "severity", "section", "rule"):
            t.add_column(col, overflow="fold")
        for r in every:
            t.add_row(r.code, r.severity, r.cite or "", r.summary)
        console().print(t)
        return
    rule = find_rule(code)
    if rule is None:
        fail(f"no finding code {code!r}{did_you_mean(code, [r.code for r in every])}")
    if format is Format.json:
        print_json(asdict(rule))
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
def schema_export(
    directory: Annotated[
        Path | None,
        typer.Option(
            "--dir", help="where to write (default: the project's schemas/)", metavar="DIR"
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="write nothing; exit 1 if a schema is out of date")
    ] = False,
) -> None:
    """Write schemas/rulesub.schema.json, one rulesub.<game>.schema.json per game and
    game.schema.json, generated from the game files; and the compiled constraints and holds
    the validator starts from (validator/checks/compiled/)."""
    from validator.checks.schema import export

    with readable_input():
        from validator import SCHEMAS_DIR

        target = directory or SCHEMAS_DIR
        stale = export(target, check=check)
    if check:
        for path in stale:
            sys.stderr.write(f"rulesub: {path} is out of date (run `rulesub schema export`)\n")
        raise typer.Exit(EXIT_FINDINGS if stale else EXIT_OK)
    for path in stale:
        sys.stdout.write(f"wrote {path}\n")
    if not stale:
        sys.stdout.write("the schemas and compiled facts are current\n")
