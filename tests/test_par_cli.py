"""``rulesub par``: the JSON contract, the formats, the printable HTML, clean failures."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.par.render import text

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
runner = CliRunner()


def par(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["par", *args])
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def hcf() -> dict:
    code, out, err = par(str(EXAMPLES / "high-card-flush.yaml"), "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_json_contract_high_card_flush(hcf: dict) -> None:
    """The issue's contract: wagers, base_game.strategies, progressives; money as strings,
    percentages as numbers; exact figures as "p/q"."""
    assert hcf["game"] == "high-card-flush"
    fb = hcf["wagers"]["flush_bonus"]
    assert fb["method"] == "exact" and fb["paytable"] == "E"  # the submission's selection
    assert isinstance(fb["house_edge_percent"], float)
    assert re.fullmatch(r"-?\d+/\d+", fb["exact"])
    assert {"hit_frequency", "sd", "return_table"} <= fb.keys()
    row = fb["return_table"][0]
    assert {"outcome", "pays", "combinations", "probability", "return"} <= row.keys()
    assert sum(r["combinations"] for r in fb["return_table"]) == 133_784_560
    # the cycle of the top award: a seven-card flush (400 to 1 in table E), one in 1/p
    top = fb["top_award"]
    assert top["outcome"] == "seven_card_flush"
    assert top["cycle"] == pytest.approx(1 / fb["return_table"][0]["probability"])
    opt = hcf["base_game"]["strategies"]["optimal"]
    assert opt["method"] == "exact" and "ci95" not in opt
    for key in ("house_edge_percent", "element_of_risk_percent", "average_total_wager", "sd"):
        assert isinstance(opt[key], float)
    assert set(opt["decisions"]) == {"fold", "raise 1x", "raise 2x", "raise 3x"}
    assert isinstance(opt["dealer_qualifies"], float)
    mousseau = hcf["base_game"]["strategies"]["mousseau"]
    assert mousseau["house_edge_percent"] > opt["house_edge_percent"]
    prog = hcf["progressives"]["progressive_jackpot"]
    assert prog["meter"] == "30000.00"
    assert isinstance(prog["break_even_meter"], str)
    assert isinstance(prog["return_percent_at_meter"], float)
    assert isinstance(prog["long_run_return_percent"], float)
    assert prog["reserve"]["funds_reseed"] is True


def test_game_id_prices_every_paytable() -> None:
    """Given a game id, every paytable of every wager (paytable B of Aces Up under
    ``aces_up:B``), and the base game exact: Four Card Poker's optimal strategy and its
    declared ones counted (validator.par.completions)."""
    code, out, err = par(
        "four-card-poker", "--format", "json", "--rounds", "4000", "--workers", "1"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["submission"] is None
    letters = {w["paytable"] for k, w in data["wagers"].items() if w["table"] == "aces_up"}
    assert letters == set("ABCDEF")
    # each paytable at its own meters' seeds (table D has mega, major and minor meters)
    five = {w["paytable"] for w in data["wagers"].values() if w["table"] == "five_card_progressive"}
    assert five == set("ABCD")
    assert {"five_card_progressive", "five_card_progressive:D"} <= data["progressives"].keys()
    strategies = data["base_game"]["strategies"]
    assert {s["method"] for s in strategies.values()} == {"exact"}
    assert strategies["expert"]["cost_vs_optimal_percent"] > 0
    assert data["base_game"]["not_exact_because"] is None
    assert "bad_beat_bonus" in data["not_priced"]


def test_same_seed_same_json_with_one_or_two_workers() -> None:
    args = [str(EXAMPLES / "four-card-poker.yaml"), "--format", "json", "--rounds", "30000"]
    one = par(*args, "--workers", "1")
    two = par(*args, "--workers", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_text_and_markdown(fmt: str) -> None:
    code, out, err = par(
        str(EXAMPLES / "four-card-poker.yaml"),
        "--format",
        fmt,
        "--rounds",
        "2000",
        "--workers",
        "1",
    )
    assert code == 0, err
    assert "Aces Up" in out or "aces_up" in out
    assert "expert" in out and "exact" in out


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rulesub: 1\ngame: [four-card-poker\n", encoding="utf-8")
    code, _, err = par(str(bad))
    assert code == 2
    assert re.search(r"bad\.yaml:\d+:\d+", err)
    assert "Traceback" not in err
    code, _, err = par("no-such-game")
    assert code == 2 and "neither a file nor a game id" in err
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("rulesub: 1\ngame: 3\n", encoding="utf-8")
    code, _, err = par(str(wrong))
    assert code == 2 and "wrong.yaml:2:" in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_base_game_that_cannot_be_dealt_leaves_the_rest_of_the_sheet(workers: str) -> None:
    """The Bad Beat table of § 677a.12(c) is missing from the text and this submission
    supplies none: the base game is not simulated, and says why; the offered Pocket Bonus,
    whose table is missing too, is listed as not priced, with the reason."""
    code, out, err = par(
        str(PROJECT_ROOT / "rulesubs" / "flawed" / "wpt-missing-tables.yaml"),
        "--format",
        "json",
        "--rounds",
        "1000",
        "--workers",
        workers,
    )
    assert code == 0, err
    data = json.loads(out)
    assert "§ 677a.12(c)" in data["base_game"]["not_simulated_because"]
    assert data["base_game"]["strategies"] == {}
    assert "§ 677a.12(d) is missing" in data["not_priced"]["pocket_bonus"]


def test_unreachable_scheduler_exits_2() -> None:
    pytest.importorskip("dask.distributed")
    code, _, err = par("lunar-poker", "--rounds", "1000", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert "Dask scheduler" in err and "Traceback" not in err


# -- printable HTML -----------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_html_renders_with_its_plots_and_prints_to_pdf(tmp_path: Path) -> None:
    """Headless Chromium opens the report and prints it: the distribution of a round's
    result and the return versus meter are drawn, each figure with its method."""
    html = tmp_path / "par.html"
    code, _, err = par(
        str(EXAMPLES / "four-card-poker.yaml"),
        "--format",
        "html",
        "--out",
        str(html),
        "--rounds",
        "4000",
        "--workers",
        "1",
    )
    assert code == 0, err
    text = html.read_text(encoding="utf-8")
    assert text.count('class="bar"') >= 3  # the base game's result distribution
    assert 'class="curve"' in text  # return versus the Four-Card Progressive's meter
    assert "exact: every player hand against every dealer hand" in text  # the base game
    assert "exact: every hand counted" in text
    pdf = tmp_path / "par.pdf"
    dom = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
        text=True,
    ).stdout
    # rendered by the browser: the SVG elements are in the live DOM
    assert dom.count("<svg") >= 2 and "<polyline" in dom
    from validator.review.pdf import print_pdf  # the one Chromium printer

    print_pdf(text, pdf, "the par sheet")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= 2


def test_every_format_reads_the_same_sheet(hcf: dict) -> None:
    """Text, markdown and HTML are renderings of the JSON: the exact optimal strategy, its
    method, the return-versus-meter plot of the Progressive Jackpot."""
    from validator.par.render import html_report, markdown, text

    page = html_report(hcf)
    assert "exact: every player hand against every dealer hand" in page
    assert page.count('class="bar"') == len(
        hcf["base_game"]["strategies"]["optimal"]["result_distribution"]
    ) * len(hcf["base_game"]["strategies"])
    assert 'class="curve"' in page and "Progressive progressive_jackpot" in page
    from decimal import Decimal

    edge = f"{hcf['base_game']['strategies']['optimal']['house_edge_percent']:.4f}%"
    meter = hcf["progressives"]["progressive_jackpot"]["break_even_meter"]
    break_even = f"${Decimal(meter):,.2f}"  # the break-even meter of the example table
    for rendered in (text(hcf), markdown(hcf), page):
        assert edge in rendered
        assert break_even in rendered


def test_the_sheet_names_its_rule_source_jurisdiction_and_date(hcf: dict) -> None:
    """The par sheet's source line: the chapter, its jurisdiction (`jurisdiction`) and, where
    the game file states one, the date the copy is current to (`as_of`; High Card Flush's
    final-form copy states none)."""
    assert hcf["source"] == f"{hcf['chapter']} (PA)"
    assert text(hcf).startswith(f"Par sheet: High Card Flush ({hcf['chapter']} (PA))")
