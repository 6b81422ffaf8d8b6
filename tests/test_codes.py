"""Finding codes are an interface: every code is in the committed table, and a code that
disappears leaves a redirect (as ruff's), which `rulesub rules` and the waivers follow."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from validator.checks import codes
from validator.checks.rules import all_rules

REGENERATE = "run `python -m validator.checks.codes` and commit validator/checks/codes.json"


def test_every_code_is_in_the_committed_table() -> None:
    table = codes.table()["codes"]
    for rule in all_rules():
        assert rule.code in table, f"{rule.code} is new: {REGENERATE}"
        assert table[rule.code] == rule.severity, f"{rule.code} changed severity: {REGENERATE}"


def test_no_code_disappears_without_a_redirect() -> None:
    current = {r.code for r in all_rules()}
    data = codes.table()
    for code in data["codes"]:
        assert code in current or codes.redirect(code) in current or code in data["removed"], (
            f"{code} is no longer reported: add a redirect to the code that replaced it "
            "under `redirects` in validator/checks/codes.json, or the reason under `removed`"
        )
    for code, reason in data["removed"].items():
        assert code not in current and reason.strip(), code
    for old, new in data["redirects"].items():
        assert old not in current, f"{old} is redirected but still reported"
        assert codes.redirect(new) in current, f"{old} → {new}, which is no code"


@pytest.fixture
def renamed(monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    new = "lunar-poker/super-hold"
    old = "lunar-poker/super-wager-hold"
    data = {"codes": codes.table()["codes"], "redirects": {old: new}, "removed": {}}
    codes.table.cache_clear()
    monkeypatch.setattr(codes, "table", lambda: data)
    return old, new


def test_rules_old_code_points_to_the_new(renamed: tuple[str, str]) -> None:
    from validator.cli import app

    old, new = renamed
    result = CliRunner().invoke(app, ["rules", old, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["code"] == new


def test_a_waiver_with_a_renamed_code_still_waives(renamed: tuple[str, str]) -> None:
    from validator.checks.findings import Finding
    from validator.checks.waivers import apply_waivers

    old, new = renamed
    finding = Finding(new, "warning", "m", None, "/x", "f.yaml", 3, 1)
    text = "a: 1\nb: 2\nc: 3  # rulesub: ignore[" + old + "] -- the chapter's own table\n"
    standing, waived = apply_waivers([finding], text, "f.yaml", [], "")
    assert standing == [] and [w.finding.code for w in waived] == [new]


def test_rules_names_a_retired_code_and_why() -> None:
    from validator.cli import app

    retired = next(iter(codes.table()["removed"]), None)
    if retired is None:
        pytest.skip("no code has been retired")
    result = CliRunner().invoke(app, ["rules", retired])
    assert result.exit_code == 1 and "was removed" in result.stderr


def test_the_regenerator_reads_its_arguments_and_writes_nothing_when_asked_not_to() -> None:
    """`python -m validator.checks.codes --help` (or any argument) rewrote the table; it
    now answers `--help`, refuses an unknown argument (exit 2) and with `--check` writes
    nothing, exit 0 while the table is current."""
    import subprocess
    import sys

    from validator.checks.codes import TABLE

    before = TABLE.read_bytes(), TABLE.stat().st_mtime_ns
    run = [sys.executable, "-m", "validator.checks.codes"]
    helped = subprocess.run([*run, "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--check" in helped.stdout
    assert subprocess.run([*run, "--bogus"], capture_output=True).returncode == 2
    checked = subprocess.run([*run, "--check"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert (TABLE.read_bytes(), TABLE.stat().st_mtime_ns) == before
