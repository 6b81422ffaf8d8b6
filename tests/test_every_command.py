"""One output vocabulary (issue 28): every command answers ``--help``; every command that
prints a result takes ``--format`` with ``text`` and ``json`` and ``--out FILE``, and its JSON
is JSON; a result sent to ``--out`` is the same bytes as the one printed. Run in process
(Typer's runner): one interpreter for every command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed"

#: Every command, as typed. A command added without a line here fails
#: ``test_the_list_is_every_command``, so that its --help and --format json are tried too.
COMMANDS = (
    "validate",
    "rules",
    "odds",
    "settle",
    "play",
    "simulate",
    "diff",
    "signage",
    "par",
    "record",
    "approve",
    "reject",
    "history",
    "show",
    "purge",
    "review",
    "serve",
    "completion",
    "warm",
    "schema export",
    "games list",
    "games show",
    "db upgrade",
    "users add",
    "users remove",
    "users passwd",
    "users token",
    "users list",
    "audit verify",
    "facilities list",
    "facilities set",
    "games history",
)

#: Commands that act rather than print a result (a server, a script for the shell, a
#: compile ahead): no --format.
ACTING = {"serve", "completion", "warm"}
#: Formats of their own the issue leaves to another change (the signs' JSON).
NOT_HERE = {"signage"}


def _leaves() -> list[tuple[str, Any]]:
    import typer.main

    out: list[tuple[str, Any]] = []

    def walk(command: Any, path: list[str]) -> None:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
        else:
            out.append((" ".join(path), command))

    walk(typer.main.get_command(app), [])
    return out


def _options(command: Any) -> set[str]:
    return {o for p in command.params for o in p.opts}


def invoke(*args: str, code: int | None = 0, stdin: str | None = None) -> Any:
    result = CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "120"})
    if code is not None:
        assert result.exit_code == code, (args, result.output, result.exception)
    return result


def test_the_list_is_every_command() -> None:
    assert sorted(name for name, _ in _leaves()) == sorted(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_answers_help(command: str) -> None:
    result = invoke(*command.split(), "--help")
    assert "Usage:" in result.output
    assert invoke(*command.split(), "-h").output == result.output


def test_every_command_that_prints_a_result_takes_format_and_out() -> None:
    missing = {
        name: sorted({"--format", "--out"} - _options(command))
        for name, command in _leaves()
        if name not in ACTING and not {"--format", "--out"} <= _options(command)
    }
    assert missing == {}


def test_the_shared_options_are_declared_once() -> None:
    """One vocabulary: --format's text and json, --out, --fail-on's levels are the same
    objects in every command (validator.cli.options), never a copy."""
    from validator.cli import options
    from validator.report import ReportFormat

    shared = {v for v in vars(options).values() if isinstance(v, type)} | {ReportFormat}
    for name, command in _leaves():
        if name in NOT_HERE or name == "review":  # the signs' and the review pack's own
            continue
        for p in command.params:
            if "--out" in p.opts:
                assert p.metavar == "FILE", name
            if {"--format", "--fail-on"} & set(p.opts):
                kind = p.type_descriptor.annotation
                assert kind in shared, (name, p.opts, kind)
            if "--format" in p.opts:
                assert {"text", "json"} <= {m.value for m in kind}, name


# -- --format json: each command's result, read back as JSON ---------------------------------


def _json(*args: str, code: int = 0) -> Any:
    result = invoke(*args, "--format", "json", code=code)
    return json.loads(result.stdout)


def test_validate_rules_and_schema_export_print_json(tmp_path: Path) -> None:
    data = _json("validate", str(EXAMPLES / "four-card-poker.yaml"))
    assert data["summary"]["files"] == 1
    assert _json("validate", str(FLAWED / "lunar-poker.yaml"), code=1)["summary"]["errors"] >= 1
    codes = _json("rules", "--game", "lunar-poker")
    assert any(r["code"] == "lunar-poker/one-position-per-player" for r in codes)
    written = _json("schema", "export", "--dir", str(tmp_path / "schemas"))
    assert any(p.endswith("rulesub.schema.json") for p in written["written"])
    assert _json("schema", "export", "--dir", str(tmp_path / "schemas"), "--check") == {
        "dir": str(tmp_path / "schemas"),
        "out_of_date": [],
    }


def test_games_odds_and_diff_print_json() -> None:
    assert any(g["id"] == "lunar-poker" for g in _json("games", "list"))
    assert _json("games", "show", "lunar-poker")["id"] == "lunar-poker"
    events = _json("games", "history", "lunar-poker")
    assert {"date", "citation", "kind", "sections", "note"} <= set(events[0])
    odds = _json("odds", "four-card-poker", "--wager", "aces_up", "--paytable", "A")
    assert odds["table"] == "aces_up"
    changed = _json("diff", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "B")
    assert changed


def test_rounds_print_json(tmp_path: Path) -> None:
    """`play --format json` is the rounds as the log holds them; `settle` settles one."""
    log = tmp_path / "play.jsonl"
    rounds = _json("play", "four-card-poker", "--rounds", "2", "--log", str(log))
    assert [r["round"] for r in rounds] == [1, 2]
    assert [json.loads(line) for line in log.read_text().splitlines()] == rounds
    settled = _json("settle", str(log), "--round", "2")
    assert settled
    summary = _json("simulate", "four-card-poker", "--rounds", "200")
    assert summary["rounds"] == 200


def test_the_store_commands_print_json(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    invoke("db", "upgrade", "--db", db, "--format", "json")
    recorded = _json("record", str(EXAMPLES / "lunar-poker.yaml"), "--by", "C. Holder", "--db", db)
    sid = str(recorded["id"])
    assert _json("show", sid, "--db", db)["id"] == recorded["id"]
    assert _json("history", "--db", db)
    assert _json("reject", sid, "--by", "R. Officer", "--reason", "a test", "--db", db)
    added = _json(
        "users", "add", "viewer1", "--role", "viewer", "--password", "pw-12345678", "--db", db
    )
    assert added
    assert [a["name"] for a in _json("users", "list", "--db", db)] == ["viewer1"]
    assert _json("audit", "verify", "--db", db)["intact"] is True
    held = _json("facilities", "set", "Example Downs", "--holder", "C. Holder", "--db", db)
    assert held["certificate_holder"] == "C. Holder"
    assert [f["facility"] for f in _json("facilities", "list", "--db", db)] == ["Example Downs"]
    issued = _json("users", "token", "viewer1", "--label", "ci", "--db", db)
    assert (issued["name"], issued["label"]) == ("viewer1", "ci") and len(issued["token"]) > 20
    revoked = _json("users", "token", "viewer1", "--revoke", "--db", db)
    assert (revoked["name"], revoked["label"], revoked["revoked"]) == ("viewer1", None, 1)
    changed = _json("users", "passwd", "viewer1", "--password", "pw-87654321", "--db", db)
    assert changed == {"name": "viewer1", "password_changed": True}
    assert _json("users", "remove", "viewer1", "--db", db) == {"name": "viewer1", "removed": True}


def test_an_api_token_written_with_out_is_its_owners_alone(tmp_path: Path) -> None:
    """A token is a secret (docs/security.md): `users token NAME --out FILE` writes it
    readable and writable by its owner alone, whatever the umask, even over a file that was
    readable by all."""
    import os
    import stat

    db = str(tmp_path / "store.sqlite3")
    invoke("db", "upgrade", "--db", db)
    invoke("users", "add", "ci1", "--role", "viewer", "--password", "pw-12345678", "--db", db)
    target = tmp_path / "token.txt"
    target.write_text("old\n")
    os.chmod(target, 0o644)
    invoke("users", "token", "ci1", "--out", str(target), "--db", db)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.json"
    invoke("users", "token", "ci1", "--out", str(fresh), "--db", db)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    assert len(json.loads(fresh.read_text())["token"]) > 20  # .json: the JSON form


# -- --out: the same bytes as printed -------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("validate", str(FLAWED / "lunar-poker.yaml")),
        ("games", "list"),
        ("odds", "four-card-poker", "--wager", "aces_up", "--paytable", "A"),
        ("simulate", "four-card-poker", "--rounds", "200"),
        ("play", "four-card-poker", "--rounds", "1"),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_out_writes_what_is_printed(args: tuple[str, ...], fmt: str, tmp_path: Path) -> None:
    printed = invoke(*args, "--format", fmt, code=None)
    target = tmp_path / "result"
    written = invoke(*args, "--format", fmt, "--out", str(target), code=printed.exit_code)
    assert written.stdout == ""

    def timeless(text: str) -> str:  # simulate's speed differs run to run
        return re.sub(r"[\d,.]+ rounds/s", "N rounds/s", text)

    assert timeless(target.read_text(encoding="utf-8")) == timeless(printed.stdout)


def test_out_into_a_missing_directory_is_usage(tmp_path: Path) -> None:
    result = invoke("games", "list", "--out", str(tmp_path / "no" / "such"), code=2)
    assert "does not exist" in result.output


def test_exit_codes_of_validate() -> None:
    """0 fine, 1 findings, 2 unreadable input or usage."""
    invoke("validate", str(EXAMPLES / "four-card-poker.yaml"), code=0)
    invoke("validate", str(FLAWED / "lunar-poker.yaml"), code=1)
    invoke("validate", str(FLAWED / "unreadable-tag.yaml"), code=2)
    invoke("validate", "--format", "nonsense", str(EXAMPLES), code=2)


def test_out_is_not_written_when_the_input_cannot_be_read(tmp_path: Path) -> None:
    """Files we write are whole or not at all: an unreadable submission (exit 2) leaves no
    sheet and no text report behind (the text says it on stderr); a report of findings
    (exit 1) is the result, and is written; and `validate`'s report in a form that names
    the file that cannot be read is written whole then too (a CI job uploads its SARIF
    whatever the exit code)."""
    sheet = tmp_path / "par.txt"
    invoke("par", str(FLAWED / "unreadable-tag.yaml"), "--out", str(sheet), code=2)
    assert not sheet.exists()
    target = tmp_path / "report.txt"
    invoke("validate", str(FLAWED / "unreadable-tag.yaml"), "--out", str(target), code=2)
    assert not target.exists()
    memo = tmp_path / "report.md"
    invoke("validate", str(FLAWED / "unreadable-tag.yaml"), "--out", str(memo), code=2)
    assert "`rulesub/unreadable`" in memo.read_text(encoding="utf-8")
    invoke("validate", str(FLAWED / "lunar-poker.yaml"), "--out", str(target), code=1)
    assert "lunar-poker/one-position-per-player" in target.read_text(encoding="utf-8")
