"""One reader of a Rules Submission: the submission that drives `play` and `simulate` is the
one `validate` reads, so a misspelt key cannot leave a table on default paytables."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_linter import EXAMPLES, rulesub

COMMANDS = [("play", "four-card-poker"), ("simulate", "four-card-poker", "--rounds", "20")]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_misspelt_paytables_refused_with_the_findings(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    typo = tmp_path / "typo.yaml"
    typo.write_text(
        (EXAMPLES / "four-card-poker.yaml").read_text().replace("paytables:", "paytabels:")
    )
    done = rulesub(*command, "--rulesub", str(typo))
    assert done.returncode == 1  # a finding, as validate reports it
    assert f"{typo}:" in done.stderr and "rulesub/unknown-key" in done.stderr
    assert "'paytabels' (did you mean 'paytables'?)" in done.stderr
    assert "--allow-findings" in done.stderr
    accepted = rulesub(*command, "--rulesub", str(typo), "--allow-findings")
    assert accepted.returncode == 0, accepted.stderr


def test_a_submission_for_another_game_is_refused() -> None:
    done = rulesub("play", "lunar-poker", "--rulesub", str(EXAMPLES / "four-card-poker.yaml"))
    assert done.returncode == 2 and "for four-card-poker, not lunar-poker" in done.stderr


def test_a_clean_submission_plays() -> None:
    done = rulesub("play", "four-card-poker", "--rulesub", str(EXAMPLES / "four-card-poker.yaml"))
    assert done.returncode == 0, done.stderr
