"""One behaviour for a Rules Submission with errors, held on one flawed submission.

The submission seeds the Four-Card Progressive meter at $500 where § 641a.12(d)(3) fixes
$1,000 for paytable B on a $1 wager. Every command that computes from it refuses with the
findings and exits 1; with ``--allow-findings`` it runs and what it writes is marked DRAFT
with the findings listed. ``review`` and ``diff`` always write their document and exit 1, as
``validate`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from store_db import EXAMPLES, amended
from typer.testing import CliRunner

from validator.cli import app

FCP = EXAMPLES / "four-card-poker.yaml"
FINDING = "seed is $500; for paytable B it is $1,000"


@pytest.fixture
def flawed(tmp_path: Path) -> Path:
    return amended(
        FCP,
        tmp_path / "fcp-meter-500.yaml",
        ('seed: "$1,000", reseed: "$1,000"', 'seed: "$500", reseed: "$500"'),
    )


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def refused(*args: str) -> None:
    code, out, err = run(*args)
    assert code == 1, (args, err)
    assert out == "", f"{args[0]} wrote something for a submission with errors"
    assert FINDING in err and "§ 641a.12(d)(3)" in err
    assert "--allow-findings" in err


def test_every_command_on_one_flawed_submission(flawed: Path, tmp_path: Path) -> None:
    """§ 641a.12(d)(3) fixes the meter's seed: the submission breaks it, and each command
    treats that error the same way (README: exit 1 for findings)."""
    sub = str(flawed)
    assert run("validate", sub)[0] == 1
    log = tmp_path / "rounds.jsonl"
    commands = [
        ("par", sub, "--format", "json"),
        ("signage", sub),
        ("play", "four-card-poker", "--rulesub", sub, "--log", str(log)),
        ("simulate", "four-card-poker", "--rounds", "40", "--rulesub", sub, "--format", "json"),
        ("odds", "four-card-poker", "--rulesub", sub, "--format", "json"),
    ]
    for command in commands:
        refused(*command)
    assert not log.exists(), "a refused play writes no log"

    # --allow-findings: each runs, and what it writes is marked DRAFT with the finding
    code, out, _ = run(*commands[0], "--allow-findings")
    assert code == 0 and FINDING in json.dumps(json.loads(out)["draft"])
    for flag in ("--allow-findings", "--force"):  # --force stays signage's alias
        code, out, _ = run("signage", sub, flag)
        assert code == 0 and out.startswith("DRAFT") and FINDING in out
    code, out, _ = run(*commands[2], "--allow-findings")
    assert code == 0 and out.startswith("DRAFT") and FINDING in out
    record = json.loads(log.read_text().splitlines()[0])
    assert any(FINDING in note for note in record["draft"])
    code, out, _ = run(*commands[3], "--allow-findings")
    assert code == 0 and FINDING in json.dumps(json.loads(out)["draft"])
    code, out, _ = run(*commands[4], "--allow-findings")
    data = json.loads(out)
    assert code == 0
    assert all(FINDING in json.dumps(item["draft"]) for item in data)

    # settle: a round under the submission (play's log names it) is refused the same way
    refused("settle", str(log), "--round", "1")
    code, out, _ = run("settle", str(log), "--round", "1", "--allow-findings")
    assert code == 0 and out.startswith("DRAFT") and FINDING in out

    # review and diff write their document whatever the filing holds, then exit 1
    pack = tmp_path / "review.html"
    code, _, _ = run("review", sub, "--out", str(pack))
    assert code == 1 and FINDING in pack.read_text()
    code, out, _ = run("diff", str(FCP), sub)
    assert code == 1 and "Four-Card Progressive" in out


def test_a_clean_submission_runs_unmarked(tmp_path: Path) -> None:
    code, out, _ = run("signage", str(FCP))
    assert code == 0 and "DRAFT" not in out
    code, out, _ = run("odds", "four-card-poker", "--rulesub", str(FCP), "--format", "json")
    assert code == 0 and all("draft" not in item for item in json.loads(out))
    assert run("diff", str(FCP), str(FCP))[0] == 0


def test_every_draft_document_says_one_sentence(flawed: Path, tmp_path: Path) -> None:
    """A document made under errors says one thing, in words and in every format: made
    under a submission with N errors (here the seed and the reseed), not for use until
    each is fixed or waived (an
    approval may waive an error, each with its reason). Signs say "not for posting"."""
    said = "DRAFT: made under a Rules Submission with 2 errors; not for use until each is "
    said += "fixed or waived"
    sub = str(flawed)
    log = tmp_path / "rounds.jsonl"
    texts = {
        "par text": run("par", sub, "--allow-findings")[1],
        "play": run("play", "four-card-poker", "--rulesub", sub, "--log", str(log),
                    "--allow-findings")[1],
        "simulate": run("simulate", "four-card-poker", "--rounds", "40", "--rulesub", sub,
                        "--allow-findings")[1],
    }  # fmt: skip
    texts["settle"] = run("settle", str(log), "--round", "1", "--allow-findings")[1]
    for name, out in texts.items():
        assert out.startswith(said + ":\n"), (name, out[:200])
    page = tmp_path / "par.html"
    assert run("par", sub, "--allow-findings", "--format", "html", "--out", str(page))[0] == 0
    from html import unescape

    flat = " ".join(unescape(re.sub(r"<[^>]+>", " ", page.read_text("utf-8"))).split())
    assert said.removeprefix("DRAFT") + "." in flat.replace("DRAFT :", "DRAFT:")
