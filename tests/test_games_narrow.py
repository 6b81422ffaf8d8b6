"""`games list` and `games history` on a narrow terminal: words whole, names readable."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from validator.cli import app

runner = CliRunner()


def _run(*args: str, width: int) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(width)}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_list_at_80_columns_keeps_each_game_name_on_one_line() -> None:
    """At 80 columns the facts stack under the name instead of squeezing it a word a line."""
    out = _run("games", "list", width=80)
    assert "Four Card Poker, 58 Pa. Code ch. 641a" in out
    assert "banking; 7 seats, 8 wagers, 28 paytables" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_list_on_a_wide_terminal_keeps_its_columns() -> None:
    out = _run("games", "list", width=160)
    header = next(line for line in out.splitlines() if "game, chapter" in line)
    for column in ("kind", "seats", "wagers", "tables"):
        assert column in header


def test_history_wraps_under_its_indent_and_never_splits_a_section_sign() -> None:
    out = _run("games", "history", "four-card-poker", width=80)
    rows = json.loads(_run("games", "history", "four-card-poker", "--format", "json", width=80))
    body = [line for line in out.splitlines()[1:] if line and not line[:4].isdigit()]
    assert body, out
    for line in body:  # every continuation line sits under the event, never at column 0
        assert line.startswith("    "), line
        assert not line.rstrip().endswith("§"), line
    sections = [s for r in rows for s in r["sections"]]
    assert all(s in out for s in sections)
