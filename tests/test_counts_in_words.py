"""Counts in the documents and messages people act on are words: "1 error", "2 warnings",
never "error(s)" (one place says a count: ``validator.counts.plural``)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.counts import plural

FLAWED = PROJECT_ROOT / "rulesubs" / "flawed"
EXAMPLE = PROJECT_ROOT / "rulesubs" / "example"
HEDGED = re.compile(r"\w\(s\)")


def test_plural_counts_as_people_do() -> None:
    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert plural(3, "entry") == "3 entries" and plural(2, "day") == "2 days"
    assert plural(1, "error finding") == "1 error finding" and plural(1_200, "sign") == (
        "1,200 signs"
    )


def test_no_document_hedges_a_count(tmp_path: Path) -> None:
    """The review pack (Markdown and HTML), the diff memo, the par sheet and the signage of a
    filing with errors, DRAFT, said "3 error(s), 0 warning(s)" and "1 finding(s) are new";
    each count is now said in words, with the verb it takes."""
    flawed = str(FLAWED / "fcp-equipment.yaml")  # three errors
    runner = CliRunner()
    outputs = {
        "review markdown": ["review", flawed, "--format", "markdown"],
        "review html": ["review", flawed, "--format", "html"],
        "diff markdown": [
            "diff",
            str(EXAMPLE / "four-card-poker.yaml"),
            flawed,
            "--format",
            "markdown",
        ],
        "par": ["par", flawed, "--allow-findings", "--rounds", "200", "--workers", "1"],
        "signage": ["signage", flawed, "--allow-findings"],
    }
    said = {}
    for name, args in outputs.items():
        out = runner.invoke(app, args, env={"COLUMNS": "200"})
        assert out.exit_code in (0, 1), (name, out.output)
        assert not HEDGED.search(out.output), (name, HEDGED.findall(out.output))
        said[name] = out.output
    assert "**3 errors, 0 warnings, 0 informational findings.**" in said["review markdown"]
    assert "3 errors, 0 warnings, 0 informational findings." in said["review html"]
    assert (
        "The new submission has 3 errors and 0 warnings; 3 findings are new"
        in (said["diff markdown"])
    )
    assert "DRAFT: made under a Rules Submission with 3 errors" in said["par"]
