"""The par sheet in the review pack: ``rulesub par``'s figures, exact only, in every format.

A pack is made on request, so its par sheet simulates nothing: each figure it shows is
exact (the wagers' house edges, High Card Flush's base game derived from the rules), and
the strategies only a simulation prices are named with the command that simulates them.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from store_db import EXAMPLES
from typer.testing import CliRunner

from validator.cli import app
from validator.diff.names import in_words
from validator.review import build_pack, render_html, render_markdown
from validator.review.build import pack_json

HCF = EXAMPLES / "high-card-flush.yaml"
FCP = EXAMPLES / "four-card-poker.yaml"
#: § 678a: the optimal strategy's house edge per unit of the Ante, as the published
#: analyses give it (2.6645%), in the exact form rulesub derives.
HCF_OPTIMAL = "1348050875653/50592437455560"


def test_a_base_game_with_no_exact_method_is_not_simulated_in_a_pack() -> None:
    """Lunar Poker's base game has no exact method: nothing is simulated in a pack, the
    strategies are named, for the full par sheet, by their names; and no table of
    strategies is printed with no row in it."""
    pack = build_pack(EXAMPLES / "lunar-poker.yaml", "lunar-poker.yaml")
    sheet = pack.par
    assert sheet is not None and pack.par_problem is None
    base = sheet["base_game"]
    assert base["strategies"] == {}
    assert "the full par sheet simulates" in base["not_simulated_because"]
    declared = pack.game.definition.strategies.by_name
    assert all(s.name != key for key, s in declared.items())
    # each as its strategy file names it ("Basic strategy (…)"), never by its key ("basic")
    names = ", ".join(s.name for s in declared.values())
    assert base["not_simulated_because"].endswith(f"simulates {names}")
    from validator.par.render import STRATEGY_HEAD, html_body, markdown, text

    for shown in (text(sheet), markdown(sheet), html.unescape(html_body(sheet))):
        assert "Base game" in shown and names in shown
        assert STRATEGY_HEAD[-2] not in shown  # the strategies' table's header, with no row


def test_every_figure_of_the_packs_par_sheet_is_exact() -> None:
    """Four Card Poker's base game is counted exactly (§ 641a.8-641a.11: every player hand
    with every up card): the optimal and the declared strategies are exact, nothing is
    simulated; every wager's edge is the odds engine's exact hold of the paytable the
    submission selects."""
    pack = build_pack(FCP, "four-card-poker.yaml")
    sheet = pack.par
    assert sheet is not None and pack.par_problem is None
    base = sheet["base_game"]
    assert set(base["strategies"]) == {"optimal", "expert", "basic"}
    assert {s["method"] for s in base["strategies"].values()} == {"exact"}
    assert not base.get("not_simulated_because")
    priced = {p.title: p.result for p in pack.priced if p.result is not None}
    assert sheet["wagers"], "the selected paytables are priced"
    compared = 0
    for w in sheet["wagers"].values():
        assert w["method"] == "exact"
        odds = next(
            (
                r
                for title, r in priced.items()
                if title.startswith(w["name"]) and title.endswith(f"Paytable {w['paytable']}")
            ),
            None,
        )
        if odds is None:  # a table the math section does not list (the Ante Bonus)
            continue
        edge = odds.hold if w["basis"] != "bonus" else -odds.hold
        assert Fraction(w["exact"]) == edge, w["name"]
        compared += 1
    assert compared >= 3  # Aces Up, the Four-Card Progressive, Six Card Bonus at least
    html = render_html(pack)
    section = html[html.index('<section id="par"') : html.index('<section id="signage"')]
    for w in sheet["wagers"].values():
        assert f"{w['house_edge_percent']:.4f}%" in section
    assert "Return to the player (%)" in section  # the Four-Card Progressive's return curve
    assert "Combinations" not in section  # the return tables are the math section's


def test_high_card_flush_pack_shows_the_derived_optimal_strategy() -> None:
    """§ 678a.6(b), (c) and § 678a.11: the base game exact, in the pack as in `rulesub par`."""
    pack = build_pack(HCF, "high-card-flush.yaml")
    opt = pack.par["base_game"]["strategies"]["optimal"]
    assert opt["method"] == "exact" and opt["exact"] == HCF_OPTIMAL
    assert "ci95" not in opt
    html, md = render_html(pack), render_markdown(pack)
    for text in (html, md):
        # each strategy as its strategy file names it, never by its key
        assert "2.6645%" in text and "Charles Mousseau" in text and "mousseau" not in text
    data = pack_json(pack)
    assert data["par"]["base_game"]["strategies"]["optimal"]["exact"] == HCF_OPTIMAL
    assert data["par_problem"] is None


def test_a_submission_the_interpreter_cannot_read_says_why_there_is_no_par_sheet(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "fcp.yaml"
    bad.write_text(FCP.read_text(encoding="utf-8").replace("aces_up: C", "aces_up: G"))
    pack = build_pack(bad, "fcp.yaml")
    assert pack.par is None
    # its line and what is wrong: no file (the cover names it), no finding code
    assert pack.par_problem and pack.par_problem.startswith("line ")
    assert "fcp.yaml" not in pack.par_problem and "rulesub/" not in pack.par_problem
    assert str(tmp_path) not in pack.par_problem
    said = in_words(pack.game, pack.par_problem)  # the field in words, not its path
    assert f"No par sheet: {said}" in render_markdown(pack).replace("\\", "")
    assert "Aces Up paytable" in said and "/paytables/" not in said


PDFTOTEXT = shutil.which("pdftotext")


@pytest.mark.skipif(
    shutil.which("chromium") is None or PDFTOTEXT is None,
    reason="needs Debian's chromium and pdftotext (poppler-utils)",
)
@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_the_printed_pack_carries_the_par_sheet(tmp_path: Path) -> None:
    pdf = tmp_path / "review.pdf"
    r = CliRunner().invoke(app, ["review", str(HCF), "--format", "pdf", "--out", str(pdf)])
    assert r.exit_code == 0, r.stderr
    text = subprocess.run(
        [str(PDFTOTEXT), "-layout", str(pdf), "-"], capture_output=True, check=True, text=True
    ).stdout
    pages = text.split("\f")
    par = next(p for p in pages if p.strip().startswith("Par sheet"))
    assert "Base game" in par and "2.6645%" in par and "Optimal strategy" in par
    assert "Progressive: Progressive Jackpot" in text
    data = json.loads(CliRunner().invoke(app, ["review", str(HCF), "--format", "json"]).stdout)
    assert data["par"]["wagers"]["flush_bonus"]["paytable"] == "E"


def test_a_poker_pack_says_why_no_hold_and_states_the_time_charges_exactly() -> None:
    """The Omaha example's pack: a nonbanking game has no wager of the house's, so its
    summary says so instead of an empty table of holds; its rake by time charges is exact
    (§ 553.15(b)(3): $6 an hour from each of the nine seated players, at most $3 an
    assessment), so the exact-only par sheet of a pack states it: $54.00 an hour (computed:
    to the cent)."""
    pack = build_pack(EXAMPLES / "poker-omaha-hi-lo-8.yaml", "poker-omaha-hi-lo-8.yaml")
    for text in (render_markdown(pack), html.unescape(render_html(pack))):
        assert "No wager of the house's: in a nonbanking game" in text
        assert "| Wager | Before |" not in text and "<th>Before</th>" not in text
        assert "The rake, by the clock and so exact: $54.00 an hour with every seat taken" in text
        assert "from each of 9 seated players, assessed every 30 minutes" in text


def test_a_poker_pack_has_no_paytable_math_and_says_what_its_par_figures_are() -> None:
    """§ 553.15: the house's revenue from a Poker table is the rake, and a nonbanking game
    has no paytable: its pack carries no Paytable math section (it could only say there
    is none), its contents do not list one, and its par section says which of its figures
    are exact (the time charges) and which the full sheet simulates, never "each wager's
    house edge counted hand by hand". It says once which figures the full sheet simulates,
    where it said so three times over. A banking game's pack keeps the section."""
    pack = build_pack(EXAMPLES / "poker-holdem.yaml", "poker-holdem.yaml")
    assert [k for k, _ in pack.sections if k == "math"] == []
    for text in (render_markdown(pack), html.unescape(render_html(pack))):
        assert "Paytable math" not in text and "house edge counted hand by hand" not in text
        assert "A nonbanking game: the players wager against each other" in text
        assert text.count("the full par sheet") == 1, text
        assert "are simulated in the full par sheet under the submission's rake" in text
        assert text.count("rake per hand and per hour") == 1
        assert "paytables: as the submission selects" not in text
    banking = build_pack(HCF, "high-card-flush.yaml")
    assert "math" in dict(banking.sections)
    for text in (render_markdown(banking), html.unescape(render_html(banking))):
        assert "Paytable math" in text and "house edge counted hand by hand" in text
