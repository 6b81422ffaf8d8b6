"""One rule table: every finding is made from its rule (code, severity, message, what would
comply, section, place); the checks decide only that it fires and with what values, reading
the typed submission."""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
import string
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import run_rulesub

from validator import PROJECT_ROOT
from validator.checks import validate_paths
from validator.checks.findings import Finding
from validator.checks.rules import GENERIC, constraint_rule, find_rule, generic_rule
from validator.model.submission import MISSING, load_submission, resolve

PACKAGE = PROJECT_ROOT / "validator"
RULESUBS = PROJECT_ROOT / "rulesubs"
FLAWED = RULESUBS / "flawed"


def _calls(path: Path, name: str) -> list[int]:
    """The lines of ``path`` that call something named ``name`` (``name(...)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == name)
            or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        )
    ]


def test_a_finding_is_made_only_by_its_rule() -> None:
    """No check writes a finding of its own: ``Rule.finding`` is the one place one is made."""
    made = {
        f"{p.relative_to(PACKAGE)}:{line}"
        for p in PACKAGE.rglob("*.py")
        for line in _calls(p, "Finding")
    }
    rules = PACKAGE / "checks" / "rules.py"
    assert made == {f"checks/rules.py:{line}" for line in _calls(rules, "Finding")}
    assert len(made) == 1


def test_the_checks_read_the_typed_submission_not_a_tree_of_it() -> None:
    """No check turns the submission back into dicts (``RulesSubmission.data()``)."""
    turned = [
        f"{p.name}:{line}"
        for p in sorted((PACKAGE / "checks").glob("*.py"))
        for line in _calls(p, "data")
    ]
    assert not turned


def _pattern(template: str) -> re.Pattern[str]:
    """A rule's message template as a pattern: each value it is filled with, any text."""
    out = ""
    for literal, field, _, _ in string.Formatter().parse(template):
        out += re.escape(literal) + ("(.*)" if field is not None else "")
    return re.compile(out, re.S)


def _flawed_findings() -> list[Finding]:
    report = validate_paths(sorted(FLAWED.glob("*.yaml")), regulation_notes=True)
    return report.findings


def test_every_finding_reads_as_its_rule_writes_it() -> None:
    """Each finding of the flawed set: its rule's severity, its message the rule's template
    filled (then a check's detail), and where the rule places it, its line and column."""
    findings = _flawed_findings()
    assert {f.code for f in findings if f.code.startswith("rulesub/")} >= {
        "rulesub/unknown-game",
        "rulesub/wager-limits",
        "rulesub/unknown-key",
        "rulesub/bad-value",
        "rulesub/unreadable",
    }
    located = {}
    for f in findings:
        rule = find_rule(f.code)
        assert rule is not None, f.code
        assert f.severity == rule.severity
        assert _pattern(rule.message).fullmatch(f.message) or _pattern(
            rule.message + ": {detail}"
        ).fullmatch(f.message), (f.code, f.message)
        if rule.at == "given" or (f.code.startswith("rulesub/") and rule.at == "key"):
            continue  # where reading found it, or a key the reader found misspelt
        if f.file not in located:
            located[f.file] = load_submission(PROJECT_ROOT / f.file, display=f.file).located
        value = located[f.file].position(f.path)
        key = located[f.file].position(f.path, key=True)
        assert (f.line, f.column) in {(value.line, value.column), (key.line, key.column)}


def test_the_generic_rules_write_the_messages_the_form_gives() -> None:
    """The messages of ``rulesub/…`` findings are the table's templates, filled."""
    unknown = generic_rule("rulesub/unknown-game").finding(
        "s.yaml", game="four-card-pokr", close=" (did you mean 'four-card-poker'?)", games="a, b"
    )
    assert unknown.message == (
        "no game 'four-card-pokr' (did you mean 'four-card-poker'?); the games are: a, b"
    )
    assert unknown.hint == "game: one of a, b"
    limits = generic_rule("rulesub/wager-limits").finding("s.yaml", low="$500", high="$10")
    assert limits.message == "the minimum wager $500 is above the maximum wager $10"
    assert limits.hint == "min_wager at most max_wager"
    waiver = generic_rule("rulesub/waiver-without-reason").finding(
        "s.yaml", line=4, column=7, kind="ignore", codes="a/b, c/d"
    )
    assert (waiver.line, waiver.column, waiver.severity) == (4, 7, "error")
    assert waiver.hint == "# rulesub: ignore[a/b, c/d] -- why the finding cannot be fixed"


def test_a_rule_places_its_finding_at_the_value_or_the_key(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("rulesub: 1\ntable:\n  min_wager:   500\n", encoding="utf-8")
    located = load_submission(path).located
    at_value = generic_rule("rulesub/wager-limits").finding(
        "s.yaml", located=located, pointer="/table/min_wager", low="$500", high="$10"
    )
    assert (at_value.line, at_value.column) == (3, 16)
    at_key = generic_rule("rulesub/unknown-key").finding(
        "s.yaml", located=located, pointer="/table/min_wager", message="m"
    )
    assert (at_key.line, at_key.column) == (3, 3)


def test_every_generic_code_is_in_the_committed_table() -> None:
    codes = json.loads((PACKAGE / "checks" / "codes.json").read_text(encoding="utf-8"))["codes"]
    for rule in GENERIC:
        assert codes[rule.code] == rule.severity


def test_rules_as_json_keep_their_fields() -> None:
    """``rulesub rules --format json`` prints what a rule is, not how its finding is made."""
    done = run_rulesub("rules", "rulesub/wager-limits", "--format", "json")
    assert done.returncode == 0
    assert list(json.loads(done.stdout)) == [
        "code",
        "name",
        "severity",
        "cite",
        "summary",
        "doc",
        "hint",
        "kind",
    ]


def test_a_constraint_message_with_braces_is_written_as_is() -> None:
    """A game's message is literal text in its rule's template, braces and all."""
    constraint = SimpleNamespace(
        id="c",
        severity="error",
        cite="§ 1",
        message="state {positions}",
        note=None,
        kind="required",
        when=None,
        hint="table: {positions: 7}",
    )
    rule = constraint_rule("g", constraint)
    assert rule.finding("s.yaml", detail="d").message == "state {positions}: d"
    assert rule.finding("s.yaml").hint == "table: {positions: 7}"


def test_the_typed_submission_resolves_by_pointer() -> None:
    loaded = load_submission(RULESUBS / "example" / "four-card-poker.yaml")
    sub = loaded.submission
    assert sub is not None
    assert resolve(sub, "/table/min_wager") == Decimal(10)
    assert resolve(sub, "/effective") == dt.date(2027, 1, 1)
    assert resolve(sub, "/progressives/four_card_progressive/meters/primary/seed") == Decimal(1000)
    assert resolve(sub, "/payout_limit") is MISSING  # a field not stated
    assert resolve(sub, "/paytables/nothing") is MISSING
    assert resolve(sub, "/offered/1") == "bad_beat_bonus"


@pytest.mark.parametrize("letter", ["5", "[C]"])
def test_a_selected_paytable_of_the_wrong_type_is_a_finding_not_a_crash(
    tmp_path: Path, letter: str
) -> None:
    """``paytables`` written as a number or a list, checked with a date: reported as a value
    of the wrong type (the date's findings read the typed submission, in which it is not)."""
    text = (RULESUBS / "example" / "four-card-poker.yaml").read_text(encoding="utf-8")
    start = text.index("paytables:")
    end = text.index("progressives:")
    path = tmp_path / "s.yaml"
    path.write_text(text[:start] + f"paytables: {letter}\n" + text[end:], encoding="utf-8")
    report = validate_paths([path])
    codes = {f.code for f in report.findings}
    assert "rulesub/wrong-type" in codes
    assert report.exit_code == 1
