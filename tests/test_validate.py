"""``rulesub validate`` as a user runs it: the examples, the flawed set, exit codes, reports."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import run_rulesub
from jsonschema import Draft4Validator

from validator import PROJECT_ROOT
from validator.checks import validate_paths
from validator.checks.rules import all_rules, find_rule
from validator.report.sarif import sarif_log

RULESUBS = PROJECT_ROOT / "rulesubs"
EXAMPLES = RULESUBS / "example"
FLAWED = RULESUBS / "flawed"
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
HAS_ODDS = importlib.util.find_spec("validator.odds") is not None
#: Codes only the odds engine can give.
ODDS_CODES = {"hold_in_range", "positive_hold"}


def expected_codes(path: Path) -> set[str]:
    """The codes a flawed file states on its first line: ``# expect: a, b``."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("ascii")
    assert first.startswith("# expect: "), f"{path.name}: first line must say what it expects"
    return {c.strip() for c in first.removeprefix("# expect: ").split(",")}


def _needs_odds(codes: set[str]) -> bool:
    kinds = {r.code: r.kind for r in all_rules()}
    return any(kinds.get(c) in ODDS_CODES for c in codes)


@pytest.mark.parametrize("path", sorted(FLAWED.glob("*.yaml")), ids=lambda p: p.stem)
def test_flawed_file_triggers_exactly_the_codes_it_states(path: Path) -> None:
    expected = expected_codes(path)
    if _needs_odds(expected) and not HAS_ODDS:
        pytest.skip("validator.odds is not importable")
    report = validate_paths([path], regulation_notes=True)  # the notes are listed too
    found = {f.code for f in report.findings}
    # the copy's unknown day of adoption is said of every file of chs. 677a and 678a: a
    # fact about the texts held, not what a flawed file shows
    said_of_every_file = {c for c in found if c.endswith("/adoption-unknown")}
    assert found - said_of_every_file == expected - said_of_every_file
    assert said_of_every_file <= {
        f"{g}/adoption-unknown" for g in ("high-card-flush", "wpt-heads-up-holdem")
    }


def test_flawed_set_covers_every_check_the_issue_lists() -> None:
    stated = set().union(*(expected_codes(p) for p in FLAWED.glob("*.yaml")))
    for code in (
        "rulesub/unknown-game",
        "rulesub/missing-key",
        "rulesub/unknown-key",
        "rulesub/wrong-type",
        "rulesub/rate-needs-percent",
        "rulesub/unreadable",
        "rulesub/wager-limits",
        "four-card-poker/max-positions",
        "four-card-poker/two-decks-need-shuffler",
        "four-card-poker/hand-dealing-needs-shuffler",
        "four-card-poker/deck-change-interval",
        "four-card-poker/aces-up-paytable",
        "four-card-poker/six-card-bonus-paytable-stated",
        "four-card-poker/bad-beat-bonus-paytable-unused",
        "four-card-poker/adjacent-boxes-stated",
        "four-card-poker/four-card-progressive-meters",
        "four-card-poker/four-card-envy-wager-amount",
        "four-card-poker/five-card-hand-bonus-needs-electronic-wagering-system",
        "high-card-flush/progressive-rate-stated",
        "high-card-flush/progressive-amounts-at-least",
        "high-card-flush/payout-limit-floor",
        "wpt-heads-up-holdem/payout-limit-floor",
        "wpt-heads-up-holdem/pocket-bonus-text-missing",
        "wpt-heads-up-holdem/pocket-bonus-custom-hands",
        "wpt-heads-up-holdem/pocket-bonus-custom-hold",
        "wpt-heads-up-holdem/pocket-bonus-custom-table-stated",
    ):
        assert code in stated, code
    known = {r.code for r in all_rules()}
    assert stated <= known


# -- the command -----------------------------------------------------------------------------


def test_examples_exit_0() -> None:
    done = run_rulesub("validate", str(EXAMPLES))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 files checked: 0 errors" in done.stdout


def test_errors_exit_1_with_file_line_and_column() -> None:
    path = FLAWED / "fcp-positions-decks.yaml"
    done = run_rulesub("validate", str(path))
    assert done.returncode == 1
    assert "four-card-poker/max-positions" in done.stdout
    assert "fcp-positions-decks.yaml:8:20" in done.stdout  # the value 8 of positions
    assert "§ 641a.2(a)" in done.stdout


def test_unreadable_file_exits_2_and_the_others_are_still_checked() -> None:
    bad = FLAWED / "unreadable-duplicate-key.yaml"
    good = FLAWED / "fcp-two-decks-manual.yaml"
    done = run_rulesub("validate", "--format", "json", str(bad), str(good))
    assert done.returncode == 2
    assert "unreadable-duplicate-key.yaml:8:54: not valid YAML: duplicate key 'positions'" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr
    data = json.loads(done.stdout)
    assert {f["code"] for f in data["findings"]} == {
        "rulesub/unreadable",
        "four-card-poker/two-decks-need-shuffler",
    }
    assert data["summary"] == {"files": 2, "errors": 2, "warnings": 0, "info": 0}


@pytest.mark.parametrize(
    ("content", "where", "what"),
    [
        (b"rulesub: 1\nfacility: Caf\xe9\n", ":2:", "not UTF-8"),
        (b"rulesub: 1\ngame: !!str four-card-poker\n", ":2:", "tags are not accepted"),
        (b"rulesub: 1\ntable: {positions: 7\n", ":", "not valid YAML"),
        (b"a: " + b"[" * 60 + b"]" * 60 + b"\n", ":", "nesting deeper than"),
        (b"rulesub: 1\n" + b"# " + b"x" * 1_000_001 + b"\n", ":1:1:", "at most 1,000,000"),
    ],
    ids=["not-utf8", "tag", "not-yaml", "too-deep", "too-large"],
)
def test_unreadable_input_is_a_clear_error_never_a_traceback(
    tmp_path: Path, content: bytes, where: str, what: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    done = run_rulesub("validate", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    line = next(x for x in done.stderr.splitlines() if "bad.yaml" in x)
    assert where in line and what in line, line


def test_wrong_usage_exits_2(tmp_path: Path) -> None:
    assert run_rulesub("validate").returncode == 2
    missing = run_rulesub("validate", str(tmp_path / "nowhere.yaml"))
    assert missing.returncode == 2
    assert "no such file or directory" in missing.stderr
    assert run_rulesub("validate", "--format", "xml", str(EXAMPLES)).returncode == 2


def test_directories_are_searched_recursively(tmp_path: Path) -> None:
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (nested / "one.yml").write_text((EXAMPLES / "lunar-poker.yaml").read_text())
    (nested / "notes.txt").write_text("not a submission")
    report = validate_paths([tmp_path])
    assert [Path(r.file).name for r in report.files] == ["one.yml"]


def test_nothing_the_user_gave_is_modified(tmp_path: Path) -> None:
    paths = sorted(FLAWED.glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths}
    run_rulesub("validate", "--format", "sarif", str(RULESUBS))
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths} == before


# -- reports ---------------------------------------------------------------------------------


def test_json_report_fields() -> None:
    done = run_rulesub("validate", "--format", "json", str(FLAWED / "hcf-progressive.yaml"))
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert set(data) == {"findings", "summary"}
    assert set(data["summary"]) == {"files", "errors", "warnings", "info"}
    for f in data["findings"]:
        assert set(f) == {
            "code",
            "severity",
            "message",
            "cite",
            "path",
            "file",
            "line",
            "column",
            "hint",
        }
        assert f["severity"] in ("error", "warning", "info")
        assert f["path"].startswith("/")
        assert f["line"] >= 1 and f["column"] >= 1
    (rate,) = [
        f for f in data["findings"] if f["code"] == "high-card-flush/progressive-rate-stated"
    ]
    assert rate["cite"] == "§ 678a.12(d)(3)"
    assert rate["path"] == "/progressives/progressive_jackpot/meters/primary/increment"


def test_full_text_report_groups_by_file() -> None:
    done = run_rulesub(
        "validate",
        "--output-format",
        "full",
        str(FLAWED / "lunar-poker.yaml"),
        str(FLAWED / "hcf-payout-limit.yaml"),
    )
    out = done.stdout
    assert out.index("hcf-payout-limit.yaml") < out.index("high-card-flush/payout-limit-floor")
    assert out.index("lunar-poker.yaml") < out.index("lunar-poker/one-position-per-player")
    for column in ("severity", "code", "message", "section", "location", "hint"):
        assert column in out
    # the lunar file, effective 2027-01-01, is warned that ch. 589 was rescinded in 2016
    assert out.rstrip().endswith("2 files checked: 4 errors, 2 warnings, 0 info")


def test_markdown_report() -> None:
    done = run_rulesub("validate", "--format", "markdown", str(FLAWED / "hcf-payout-limit.yaml"))
    md = done.stdout
    assert md.startswith("# Rules Submission review\n")
    assert "## rulesubs/flawed/hcf-payout-limit.yaml" in md or "hcf-payout-limit.yaml" in md
    assert "Example Downs Racing & Casino, Example Downs: High Card Flush (58 Pa. Code" in md
    row = next(x for x in md.splitlines() if "payout-limit-floor" in x)
    assert row.startswith("| 1 | error | ") and "§ 678a.12(e)" in row


def test_the_markdown_memo_names_fields_and_games_as_a_person_does() -> None:
    """The memo is the one report written for a person to attach to a letter: it named
    the game by its file's id and fields by JSON pointer ("/paytables/aces_up is not
    stated"), where the review pack says "Aces Up paytable"; a game rulesub has not keeps
    the id the file gives."""
    md = run_rulesub(
        "validate", "--format", "markdown", str(FLAWED / "fcp-limits-and-keys.yaml")
    ).stdout
    assert "Example Downs: Four Card Poker (58 Pa. Code ch. 641a), effective" in md
    assert "Aces Up paytable is not stated" in md and "/paytables/" not in md
    assert "Wagers offered (item 1): 'ante' is a base wager" in md
    unknown = run_rulesub("validate", "--format", "markdown", str(FLAWED / "unknown-game.yaml"))
    assert "Example Downs: `four-card-pokr`, effective" in unknown.stdout


def test_sarif_is_valid_sarif_2_1_0() -> None:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    report = validate_paths([FLAWED, EXAMPLES])
    log = sarif_log(report)
    Draft4Validator.check_schema(schema)
    errors = sorted(Draft4Validator(schema).iter_errors(log), key=str)
    assert errors == []
    run = log["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    assert len(run["results"]) == len(report.findings)
    for result in run["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert len(result["partialFingerprints"]["rulesubFinding/v1"]) == 32


def test_sarif_rejected_when_broken() -> None:
    """The schema check above can fail: a result with line 0 is not SARIF."""
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    log = sarif_log(validate_paths([FLAWED / "lunar-poker.yaml"]))
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert list(Draft4Validator(schema).iter_errors(log))


def test_sarif_fingerprints_are_stable_across_runs_and_line_moves(tmp_path: Path) -> None:
    source = (FLAWED / "lunar-poker.yaml").read_text()
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "s.yaml").write_text(source)
    (b / "s.yaml").write_text(source.replace("\nrulesub: 1", "\n\n\nrulesub: 1", 1))

    def prints(d: Path) -> dict[str, tuple[str, int]]:
        import os

        cwd = Path.cwd()
        os.chdir(d)
        try:
            log = sarif_log(validate_paths([Path("s.yaml")]))
        finally:
            os.chdir(cwd)
        return {
            r["ruleId"]: (
                r["partialFingerprints"]["rulesubFinding/v1"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
            )
            for r in log["runs"][0]["results"]
        }

    pa, pb = prints(a), prints(b)
    assert {k: v[0] for k, v in pa.items()} == {k: v[0] for k, v in pb.items()}
    assert all(pb[k][1] == pa[k][1] + 2 for k in pa)


# -- rules -----------------------------------------------------------------------------------


def test_rules_lists_every_code_once() -> None:
    done = run_rulesub("rules", "--format", "json")
    assert done.returncode == 0
    rules = json.loads(done.stdout)
    codes = [r["code"] for r in rules]
    assert len(codes) == len(set(codes))
    assert "rulesub/unknown-key" in codes
    assert "four-card-poker/four-card-progressive-meters" in codes
    for r in rules:
        assert r["doc"] and r["summary"] and r["name"]
        assert r["severity"] in ("error", "warning", "info")
        if not r["code"].startswith("rulesub/"):
            # a section; or, for the history's codes, the Bulletin notice (42 Pa.B. 2686)
            assert "§" in r["cite"] or "Pa.B." in r["cite"]


def test_rules_code_shows_one_paragraph() -> None:
    done = run_rulesub("rules", "high-card-flush/progressive-amounts-at-least")
    assert done.returncode == 0
    assert done.stdout.startswith(
        "high-card-flush/progressive-amounts-at-least (progressive-amounts-at-least)\n"
    )
    assert "Section: § 678a.12(d)(3)" in done.stdout
    assert "at least $30,000" in done.stdout


def test_rules_unknown_code_exits_2() -> None:
    done = run_rulesub("rules", "four-card-poker/max-position")
    assert done.returncode == 2
    assert "did you mean 'four-card-poker/max-positions'" in done.stderr


def test_every_finding_code_is_a_rule() -> None:
    report = validate_paths([FLAWED, EXAMPLES])
    for f in report.findings:
        rule = find_rule(f.code)
        assert rule is not None, f.code
        assert rule.severity == f.severity
        # the rule's section, or the paragraph of it the submission breaks (§ 641a.3(c)(1))
        assert f.cite == rule.cite or (rule.cite and f.cite.startswith(rule.cite + "(")), f.code


def test_a_missing_file_is_in_the_json_and_sarif_reports(tmp_path: Path) -> None:
    """A report read by a machine names every input it could not read: a missing file is
    an unreadable finding in JSON and a result in SARIF, as a FIFO is, with exit 2."""
    gone = tmp_path / "nowhere.yaml"
    good = EXAMPLES / "four-card-poker.yaml"
    for fmt in ("json", "sarif"):
        done = run_rulesub("validate", "--format", fmt, str(gone), str(good))
        assert done.returncode == 2
        report = json.loads(done.stdout)
        if fmt == "json":
            (f,) = report["findings"]
            assert f["code"] == "rulesub/unreadable" and f["file"] == str(gone)
            assert report["summary"]["files"] == 2
        else:
            (result,) = report["runs"][0]["results"]
            assert "no such file" in result["message"]["text"]


@pytest.mark.parametrize(
    ("head", "round_file"),
    [
        (b"rulesub: lunar-poker.yaml\nseats: []\n", True),
        (b"rulesub: lunar-poker.yaml\r\nseats: []\r\n", True),
        (b"rulesub:\n  rounds/lunar-poker.yaml\nseats: []\n", True),  # the value indented below
        (b"rulesub: 1\nseats: []\n", False),  # a submission with a stray key: reported
        (b"rulesub: 1\r\nseats: []\r\n", False),  # the same with Windows line ends
        (b"rulesub: '1'  # the format\nseats: []\n", False),
        (b"rulesub:\nseats: []\n", False),  # no value: not a file's name
    ],
)
def test_a_round_file_is_told_from_a_submission_by_its_rulesub_value(
    tmp_path: Path, head: bytes, round_file: bool
) -> None:
    """`validate DIR` passes over a round file (its `rulesub:` names the submission it was
    played under, a path) and checks every submission (`rulesub:` its format version),
    whatever line ends the file has and wherever the value is written."""
    from validator.checks.engine import is_round_file

    path = tmp_path / "file.yaml"
    path.write_bytes(head)
    assert is_round_file(path) is round_file


def test_a_submission_whose_rulesub_key_is_misspelt_is_checked_in_a_directory(
    tmp_path: Path,
) -> None:
    """A directory's run passed over a file whose `rulesub:` was misspelt as "not a Rules
    Submission" and exited 0, a broken filing green in CI; named alone, the same file had
    two errors. A file naming a certificate holder and a game is checked; a round file
    (`game:` and `seats:`) and other YAML are still passed over."""
    text = (FLAWED / "hcf-payout-limit.yaml").read_text(encoding="utf-8")
    assert "\nrulesub: 1\n" in text
    (tmp_path / "typo.yaml").write_text(text.replace("\nrulesub: 1\n", "\nrulesbu: 1\n"))
    (tmp_path / "none.yaml").write_text(text.replace("\nrulesub: 1\n", "\n"))
    (tmp_path / "round.yaml").write_text("game: lunar-poker\nseats:\n  - wagers: {ante: 5}\n")
    (tmp_path / "ci.yaml").write_text("name: ci\non: push\n")
    report = validate_paths([tmp_path])
    assert sorted(Path(r.file).name for r in report.files) == ["none.yaml", "typo.yaml"]
    codes = {Path(r.file).name: {f.code for f in r.findings} for r in report.files}
    assert {"rulesub/unknown-key", "high-card-flush/payout-limit-floor"} <= codes["typo.yaml"]
    assert {"rulesub/missing-key", "high-card-flush/payout-limit-floor"} <= codes["none.yaml"]
    out = run_rulesub("validate", str(tmp_path))
    assert out.returncode == 1, out.stdout
    assert "did you mean 'rulesub'?" in out.stdout
    assert "skipped 2 YAML files that are not a Rules Submission" in out.stderr
