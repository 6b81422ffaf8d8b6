"""``rulesub par``: the JSON contract, the formats, the printable HTML, clean failures."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import unescape
from itertools import pairwise
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import unheld
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
    # § 641a.12(f): the Bad Beat Bonus over every deal of both hands, the optimal play's
    bad_beat = [w for w in data["wagers"].values() if w["table"] == "bad_beat_bonus"]
    assert {w["paytable"] for w in bad_beat} == {"A", "B"}
    assert {w["strategy"] for w in bad_beat} == {"optimal"}
    assert "bad_beat_bonus" not in data["not_priced"]


@pytest.mark.slow  # a sheet simulated on one, two and four processes
def test_same_seed_same_json_with_one_two_or_four_workers() -> None:
    """The whole sheet, byte for byte: Heads-Up Hold 'Em's base game is simulated (no exact
    method covers it), 50,000 rounds in three chunks of 20,000 at most."""
    args = [str(EXAMPLES / "wpt-heads-up-holdem.yaml"), "--format", "json", "--rounds", "50000"]
    one = par(*args, "--workers", "1")
    assert one[0] == 0, one[2]
    strategies = json.loads(one[1])["base_game"]["strategies"]
    assert strategies and all(s["method"] == "simulated" for s in strategies.values())
    assert all(s["rounds"] == 50_000 for s in strategies.values())
    for workers in ("2", "4"):
        assert par(*args, "--workers", workers)[:2] == (0, one[1])


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
    assert "Expert Strategy (Elliot Frome)" in out and "exact" in out


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
        "--allow-findings",  # its errors are the missing tables: the sheet is a DRAFT
    )
    assert code == 0, err
    data = json.loads(out)
    assert any("§ 677a.12(c)" in note for note in data["draft"]["findings"])
    assert "§ 677a.12(c)" in data["base_game"]["not_simulated_because"]
    assert data["base_game"]["strategies"] == {}
    assert "§ 677a.12(d) is missing" in data["not_priced"]["pocket_bonus"]


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
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
    assert text.count("Probability (%)") >= 3  # the base game's result distribution
    assert "Return to the player (%)" in text  # return versus the Four-Card Progressive's meter
    assert "exact: every player hand against every dealer hand" in text  # the base game
    assert "inclusion-exclusion" in text  # Four Card Poker's own method, not the flush count's
    assert "exact: every hand counted" in text
    pdf = tmp_path / "par.pdf"
    assert CHROMIUM is not None
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
    assert dom.count("<svg") >= 2 and "<path" in dom
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
    # one plot per strategy's result distribution, one per progressive's return curve,
    # each with its axes titled and units given
    plots = len(hcf["base_game"]["strategies"]) + len(hcf["progressives"])
    assert page.count("<svg") == plots
    assert page.count("Probability (%)") == len(hcf["base_game"]["strategies"])
    assert "Return to the player (%)" in page and "Meter amount (on a $5 wager)" in page
    name = hcf["wagers"]["progressive_jackpot"]["name"]
    assert f"Progressive: {name}" in page
    from decimal import Decimal

    from validator.money import format_money

    edge = f"{hcf['base_game']['strategies']['optimal']['house_edge_percent']:.4f}%"
    meter = hcf["progressives"]["progressive_jackpot"]["break_even_meter"]
    # the break-even meter of the example table: computed, so to the cent
    break_even = format_money(Decimal(meter), cents=True)
    for rendered in (text(hcf), markdown(hcf), page):
        # money printed one way: whole dollars without cents, as the rest of the documents
        assert "meter $30,000 on a $5 wager" in rendered and "$30,000.00" not in rendered
        assert edge in rendered
        assert break_even in rendered
        # how the exact figure was counted
        assert hcf["base_game"]["exact_method"] in unescape(rendered)


def test_the_reserves_computed_figures_print_to_the_cent_beside_the_stated_ones(
    hcf: dict,
) -> None:
    """The example's Progressive Jackpot: its reserve (5% of a $5 wager) builds
    $1,194,505 a reset on average, against a $30,000 reseed. Both are computed, so both
    are printed to the cent ("$1,194,505.00", never "$1,194,505" beside a break-even meter
    of "$2,250,681.49"); the meter, the wager and the reseed are stated: whole dollars. Its
    top award is one in 4,778,020 (1/p of the exact probability), not "2.093e-07"."""
    from fractions import Fraction

    from validator.par.render import html_report, markdown

    prog = hcf["progressives"]["progressive_jackpot"]
    reserve = prog["reserve"]
    assert (reserve["expected_reserve_per_reset"], reserve["surplus_per_reset"]) == (
        "1194505.00",
        "1164505.00",
    )
    assert Fraction(prog["top_award_probability_exact"]) == Fraction(1, 4778020)
    line = (
        "meter $30,000 on a $5 wager: return 43.6964%; break-even meter $2,250,681.49; top "
        "award probability one in 4,778,020; long-run return 63.0614% (increment 20.0%, "
        "reseed $30,000); the reserve (5.0%) funds the reseed: $1,194,505.00 per reset on "
        "average, surplus $1,164,505.00"
    )
    for rendered in (text(hcf), markdown(hcf), unescape(html_report(hcf))):
        assert line in rendered


# -- issue 13's contract, field by field -------------------------------------------------------

#: The fields of the contract that hold money: strings, never numbers.
MONEY = {
    "wager_amount",
    "meter",
    "break_even_meter",
    "reseed",
    "expected_reserve_per_reset",
    "surplus_per_reset",
    "mean",
    "fund_at_start",
    "paid_per_hand",
    "fund_growth_per_hand",
    "fund_growth_per_hour",
}
WAGER_FIELDS = {"method", "paytable", "house_edge_percent", "hit_frequency", "sd", "return_table"}
STRATEGY_FIELDS = {
    "method",
    "house_edge_percent",
    "element_of_risk_percent",
    "average_total_wager",
    "sd",
    "decisions",
    "dealer_qualifies",
}
PROGRESSIVE_FIELDS = {
    "meter",
    "return_percent_at_meter",
    "break_even_meter",
    "long_run_return_percent",
    "reserve",
}
FRACTION = re.compile(r"-?\d+/\d+|-?\d+")


def money_and_percentages(node: object, where: str = "") -> list[str]:
    """Every field breaking the contract's types: money as strings (a decimal amount),
    percentages as numbers. In a wager's list of ``meters``, ``meter`` names the meter and
    ``amount`` is its money."""
    from decimal import Decimal, InvalidOperation

    bad: list[str] = []
    if isinstance(node, dict):
        in_meters = re.search(r"/meters/\d+$", where) is not None
        money = {"amount", "wager_amount"} if in_meters else MONEY
        for key, value in node.items():
            at = f"{where}/{key}"
            if key in money and value is not None:
                if not isinstance(value, str):
                    bad.append(f"{at}: money as {type(value).__name__}")
                else:
                    try:
                        Decimal(value)
                    except InvalidOperation:
                        bad.append(f"{at}: {value!r} is not an amount")
            elif (
                key.endswith("_percent")
                and value is not None
                and (isinstance(value, bool) or not isinstance(value, int | float))
            ):
                bad.append(f"{at}: a percentage as {type(value).__name__}")
            bad += money_and_percentages(value, at)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            bad += money_and_percentages(value, f"{where}/{i}")
    return bad


def contract_breaches(sheet: dict) -> list[str]:
    """Where a sheet's JSON differs from issue 13's contract: the field names exactly as the
    issue writes them, ``exact`` with exact figures only, ``ci95`` with simulated ones."""
    bad = money_and_percentages(sheet)
    if not isinstance(sheet.get("game"), str):
        bad.append("/game")
    parts: list[tuple[str, dict, set[str]]] = [
        (f"/wagers/{k}", w, WAGER_FIELDS) for k, w in sheet["wagers"].items()
    ]
    if sheet["base_game"] is not None:
        parts += [
            (f"/base_game/strategies/{k}", s, STRATEGY_FIELDS)
            for k, s in sheet["base_game"]["strategies"].items()
        ]
    for at, fig, fields in parts:
        missing = fields - fig.keys()
        if missing:
            bad.append(f"{at}: missing {sorted(missing)}")
        if fig["method"] == "exact":
            if not FRACTION.fullmatch(fig.get("exact", "")) or "ci95" in fig:
                bad.append(f"{at}: exact figures carry `exact` as p/q and no ci95")
        elif fig["method"] == "simulated":
            lo, hi = fig.get("ci95") or (None, None)
            if "exact" in fig or lo is None or not lo <= fig["house_edge_percent"] <= hi:
                bad.append(f"{at}: simulated figures carry ci95 [lo, hi] and no `exact`")
        else:
            bad.append(f"{at}: method {fig['method']!r}")
        if not isinstance(fig.get("decisions", {}), dict):
            bad.append(f"{at}/decisions")
    for k, p in sheet["progressives"].items():
        missing = PROGRESSIVE_FIELDS - p.keys()
        if missing:
            bad.append(f"/progressives/{k}: missing {sorted(missing)}")
        if not isinstance(p["reserve"], dict | None):
            bad.append(f"/progressives/{k}/reserve")
    return bad


def test_the_contract_on_an_exact_sheet(hcf: dict) -> None:
    """High Card Flush: every wager, both strategies and the progressive exact."""
    assert contract_breaches(hcf) == []
    assert hcf["wagers"] and hcf["progressives"] and len(hcf["base_game"]["strategies"]) == 2


@pytest.fixture(scope="module")
def simulated_sheets() -> dict[str, dict]:
    """Lunar Poker and Heads-Up Hold 'Em: no exact method covers their base games."""
    out = {}
    for game in ("lunar-poker", "wpt-heads-up-holdem"):
        code, text, err = par(
            str(EXAMPLES / f"{game}.yaml"), "--format", "json", "--rounds", "3000", "--workers", "1"
        )
        assert code == 0, err
        out[game] = json.loads(text)
    return out


@pytest.mark.parametrize("game", ["lunar-poker", "wpt-heads-up-holdem"])
def test_every_declared_strategy_simulated_with_its_interval(
    simulated_sheets: dict[str, dict], game: str
) -> None:
    """Heads-Up Hold 'Em and Lunar Poker: each declared strategy simulated, with its 95%
    interval, its number of rounds and the source it cites (the report names the strategy
    behind every figure)."""
    from validator.compiler import load_game

    sheet = simulated_sheets[game]
    assert contract_breaches(sheet) == []
    declared = load_game(game).definition.strategies
    assert declared is not None
    strategies = sheet["base_game"]["strategies"]
    assert set(strategies) == set(declared.by_name)
    for name, fig in strategies.items():
        assert fig["method"] == "simulated" and fig["rounds"] == 3000
        assert fig["source"] == declared.by_name[name].source
        lo, hi = fig["element_of_risk_ci95"]
        assert lo <= fig["element_of_risk_percent"] <= hi
        lo, hi = fig["dealer_qualifies_ci95"]
        assert lo <= fig["dealer_qualifies"] <= hi
        assert fig["money_conserved_rounds"] == 3000


def test_the_contract_on_a_poker_sheet() -> None:
    """A nonbanking game: the house's figures extend the contract, money as strings."""
    code, text, err = par(
        str(EXAMPLES / "poker-holdem.yaml"), "--format", "json", "--rounds", "40", "--workers", "1"
    )
    assert code == 0, err
    sheet = json.loads(text)
    assert contract_breaches(sheet) == []
    assert sheet["poker"]["bad_beat"]["fund_at_start"] == "24318.0000"
    # the stated mix of players: the game file's seats_alternate, seat by seat
    from validator.compiler import load_game

    ps = load_game("poker-holdem").definition.poker_strategies
    assert ps is not None
    mix = ps.seats_alternate
    assert sheet["poker"]["strategies"] == {
        str(seat): mix[(seat - 1) % len(mix)] for seat in range(1, sheet["poker"]["seats"] + 1)
    }


def test_every_exact_strategy_names_its_source(hcf: dict) -> None:
    """The derived optimal strategy says it is rulesub's; a declared one cites its own."""
    from validator.compiler import load_game

    declared = load_game("high-card-flush").definition.strategies
    assert declared is not None
    strategies = hcf["base_game"]["strategies"]
    assert strategies["optimal"]["source"].startswith("Derived by rulesub from the game file")
    assert strategies["mousseau"]["source"] == declared.by_name["mousseau"].source


def test_volatility_and_the_range_of_a_tables_hold(hcf: dict) -> None:
    """Recomputed from the exact distribution of a round's result: its standard deviation,
    the volatility index (1.645 of them) and, over n rounds, the hold range (95%): the edge
    ± 1.96 standard deviations of the mean, a range √10 narrower every tenfold more rounds."""
    import math
    from fractions import Fraction

    for fig in hcf["base_game"]["strategies"].values():
        dist = [
            (Fraction(r["net"]), Fraction(r["probability_exact"]))
            for r in fig["result_distribution"]
        ]
        assert sum(p for _, p in dist) == 1
        mean = sum(x * p for x, p in dist)
        assert -mean == Fraction(fig["exact"])
        variance = sum(x * x * p for x, p in dist) - mean * mean
        assert variance == Fraction(fig["variance_exact"])
        sd = math.sqrt(variance)
        assert fig["sd"] == pytest.approx(sd, rel=1e-12)
        assert fig["volatility_index"] == pytest.approx(1.6448536269514722 * sd, rel=1e-12)
        edge = float(-mean * 100)
        widths = []
        for r in fig["table_hold_ranges"]:
            lo, hi = r["hold_percent_range"]
            half = 1.959963984540054 * sd / math.sqrt(r["rounds"]) * 100
            assert lo == pytest.approx(edge - half, abs=1e-4)
            assert hi == pytest.approx(edge + half, abs=1e-4)
            widths.append(hi - lo)
        assert [r["rounds"] for r in fig["table_hold_ranges"]] == [
            1_000,
            10_000,
            100_000,
            1_000_000,
        ]
        for wide, narrow in pairwise(widths):
            assert wide / narrow == pytest.approx(math.sqrt(10), rel=1e-3)


def test_out_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """``--out FILE``: the file holds exactly what stdout would; a run that fails (a scheduler
    that cannot be reached, exit 2) leaves a file already there as it was; no temporary file
    is left beside it. (Lunar Poker's base game is simulated: the scheduler is asked.)"""
    args = [str(EXAMPLES / "lunar-poker.yaml"), "--format", "json", "--rounds", "2000"]
    code, stdout, err = par(*args, "--workers", "1")
    assert code == 0, err
    out = tmp_path / "par.json"
    code, printed, err = par(*args, "--workers", "1", "--out", str(out))
    assert code == 0 and printed == "" and "wrote the par sheet" in err
    assert out.read_text(encoding="utf-8") == stdout
    pytest.importorskip("dask.distributed")
    out.write_bytes(b"an earlier sheet")
    code, _, err = par(*args, "--scheduler", "tcp://127.0.0.1:9", "--out", str(out))
    assert code == 2 and "Dask scheduler" in err
    assert out.read_bytes() == b"an earlier sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["par.json"]
    code, _, err = par(*args, "--out", str(tmp_path / "no" / "such" / "dir.json"))
    assert code == 2 and "does not exist" in err and "Traceback" not in err


def test_every_figure_of_the_html_report_says_its_method_and_rules(hcf: dict) -> None:
    """The printable report: the base game's figures with their method and the rules they
    settle by; every wager's return table and every progressive's plot with their method and
    the section of the rules that prices them."""
    from html import escape

    from validator.par.render import html_report

    page = unheld(html_report(hcf))
    base = hcf["base_game"]
    assert f"[{escape(base['cite'])}]" in page
    for s in base["strategies"].values():
        assert f"Source: {escape(s['source'])}" in page
    sections = page.split("<section>")[1:]
    for w in hcf["wagers"].values():
        section = next(x for x in sections if x.startswith(f"<h2>{escape(w['name'])}"))
        assert f"exact: every hand counted ({w['combinations']:,}); rules {escape(w['cite'])}" in (
            section
        )
    for key, p in hcf["progressives"].items():
        name = escape(f"{hcf['wagers'][key]['name']}, Paytable {p['paytable']}")
        section = next(x for x in sections if x.startswith(f"<h2>Progressive: {name}</h2>"))
        cite = escape(hcf["wagers"][key]["cite"])
        assert "<svg" in section and "Return to the player (%)" in section
        assert f"(exact; dashed: 100%); rules {cite}</figcaption>" in section


def test_the_sheet_names_its_rule_source_jurisdiction_and_date(hcf: dict) -> None:
    """The par sheet's source line: the chapter, its jurisdiction (`jurisdiction`) and, where
    the game file states one, the date the copy is current to (`as_of`; High Card Flush's
    final-form copy states none)."""
    assert hcf["source"] == f"{hcf['chapter']} (PA)"
    assert text(hcf).startswith(f"Par sheet: High Card Flush ({hcf['chapter']} (PA))")


def test_published_figures_set_beside_the_computed_ones(hcf: dict) -> None:
    """The figures the strategy files publish (wizardofodds.com: Mousseau's strategy about
    3% of the Ante, the dealer qualifying about 75%) beside the computed ones: agrees to the
    published digits, or differs with the reason."""
    from types import SimpleNamespace

    from validator.compiler import load_game
    from validator.model.procedure import PublishedFigure
    from validator.par.render import html_report
    from validator.par.sheet import published_figures

    rows = {(r["strategy"], r["figure"]): r for r in hcf["published"]}
    edge = rows[("mousseau", "house edge")]
    assert edge["published"] == "3%" and edge["agrees"] is True
    assert (
        edge["computed_percent"] == hcf["base_game"]["strategies"]["mousseau"]["house_edge_percent"]
    )
    assert rows[("mousseau", "dealer qualifies")]["agrees"] is True
    # a published figure the count does not bear out differs, and says why
    mousseau = load_game("high-card-flush").definition.strategies.by_name["mousseau"]
    wrong = mousseau.model_copy(
        update={"published": [PublishedFigure(figure="house_edge", value="2.50%", by="a memo")]}
    )
    fake = SimpleNamespace(strategies=SimpleNamespace(by_name={"mousseau": wrong}))
    [row] = published_figures(fake, hcf["base_game"])
    assert row["agrees"] is False and "strategy or paytable" in row["reason"]
    page = html_report(hcf)
    assert "Published figures beside the computed ones" in page
    assert "Base game, Charles Mousseau&#x27;s strategy: house edge" in page
    assert "agrees" in page


def test_why_a_base_game_is_simulated_is_said_in_the_chapters_words() -> None:
    """Lunar Poker's base game is simulated: its ranking is no flush-length ranking (§ 589.6
    ranks a royal flush, a straight, pairs). The sheet says why with the hand's name, as
    § 589.6 writes it, never the game file's id."""
    code, out, err = par("lunar-poker")
    assert code == 0, err
    assert "is not by flush length alone (Royal flush)" in out
    assert "royal_flush" not in out


def test_the_bad_beat_bonus_section_says_every_deal_of_both_hands_641a_12_f() -> None:
    """The printable sheet's Bad Beat Bonus counts deals of both hands, not hands: its
    method line says so, with the strategy the figure assumes, and the count is the total
    of every deal, C(52, 5) × 47 × C(46, 5): six times C(52, 5) × C(47, 6), the dealer's
    hands, since which of his six cards is dealt face up decides the player's play.
    The line says the face-up card is told apart, where a reader checking the total
    against C(52, 5) × C(47, 6) found it six times too large."""
    from validator.par.render import html_report

    code, out, err = par(str(EXAMPLES / "four-card-poker.yaml"), "--format", "json")
    assert code == 0, err
    sheet = json.loads(out)
    w = sheet["wagers"]["bad_beat_bonus"]
    assert w["combinations"] == 2_598_960 * 47 * 1_370_754
    page = html_report(sheet)
    section = next(x for x in page.split("<section>") if x.startswith("<h2>Bad Beat Bonus"))
    assert w["combinations"] == 6 * 2_598_960 * comb(47, 6)  # the same count, read so
    said = " ".join(section.split())
    assert (
        f"exact: every deal of both hands counted ({w['combinations']:,}, the dealer's "
        "face-up card told apart)"
    ) in said
    assert "the base game played by its optimal strategy" in section
    assert "every hand counted" not in section


def test_the_long_run_return_counts_every_meter_641a_12_e_3() -> None:
    """Four Card Poker's Five-Card Progressive, paytable C: a royal flush pays 100% of the
    mega jackpot, a straight flush the major, four of a kind the minor, each meter with its
    own incrementation rate, 9%, 7% and 3% (§ 641a.12(e)(3)). In the long run each meter
    pays out what flows into it: its increment on every wager and its reseed after every
    hit. Worked by hand over the 2,598,960 five-card hands, on the example's $5 wager with
    reseeds of $50,000, $5,000 and $1,250: the fixed rows return (3,744 × 50 + 5,108 × 40 +
    10,200 × 30 + 54,912 × 10) / 2,598,960; the increments 19%; the reseeds (4 × 50,000 +
    36 × 5,000 + 624 × 1,250) / (2,598,960 × 5). The par sheet counted the mega meter
    alone (65.89% where the text gives 75.89%)."""
    from fractions import Fraction

    example = EXAMPLES / "four-card-poker-five-card.yaml"
    code, out, err = par(str(example), "--rounds", "2000", "--workers", "1", "--format", "json")
    assert code == 0, err
    sheet = json.loads(out)["progressives"]["five_card_progressive"]
    fixed = Fraction(3744 * 50 + 5108 * 40 + 10200 * 30 + 54912 * 10, 2598960)
    reseeds = Fraction(4 * 50000 + 36 * 5000 + 624 * 1250, 2598960 * 5)
    assert Fraction(sheet["long_run_return_exact"]) == fixed + Fraction(19, 100) + reseeds
    assert sheet["increment_by_meter"] == {"mega": 9.0, "major": 7.0, "minor": 3.0}


def test_the_five_card_hand_bonus_long_run_counts_its_reserve_641a_12_g_4() -> None:
    """§ 641a.12(g)(4): seed $10,000 for 1, reseed $0, 13% to the meter and 8% to the
    reserve; the game file reads that at a hit of the whole meter all of the reserve moves
    onto it (``reserve_on_reset: moves_to_meter``), as the engine resets it. So in the long
    run the 8% is paid out as well as the 13%. Worked by hand over the 2,598,960 hands:
    the fixed rows return (624 × 500 + 3,744 × 100 + 5,108 × 50) / 2,598,960 (each "for 1",
    stake included); the long run adds 13% + 8% = 57.2376%. The sheet said 49.2376%,
    leaving the reserve out, and that it "funds the reseed" with a surplus."""
    from fractions import Fraction

    example = EXAMPLES / "four-card-poker-five-card.yaml"
    code, out, err = par(str(example), "--rounds", "2000", "--workers", "1", "--format", "json")
    assert code == 0, err
    sheet = json.loads(out)["progressives"]["five_card_hand_bonus"]
    fixed = Fraction(624 * 500 + 3744 * 100 + 5108 * 50, 2598960)
    assert Fraction(sheet["long_run_return_exact"]) == fixed + Fraction(13, 100) + Fraction(8, 100)
    assert round(sheet["long_run_return_percent"], 4) == 57.2376
    assert sheet["reserve"]["moves_to_meter"] is True
    code, text, err = par(str(example), "--rounds", "2000", "--workers", "1")
    assert code == 0, err
    line = text.split("== Progressive: Five Card Hand Bonus ==")[1].splitlines()[1]
    assert "the reserve (8.0%) moves onto the meter at each reset" in line
    assert "surplus" not in line and "funds the reseed" not in line


def test_every_paytable_whose_meters_the_chapter_fixes_has_its_long_run_641a_12_d_e() -> None:
    """§ 641a.12(d)(3) and (e)(3): the seeds, reseeds and rates of each paytable "must be
    as follows". A game's par sheet gives every paytable's long-run return from them, not
    only paytable A's (the default table's), each under its name and letter; the figures
    an independent enumeration of the 2,598,960 five-card and 270,725 four-card hands
    gave. High Card Flush's Progressive Jackpot leaves its rate to the submission
    (§ 678a.12(d)(3)): no long run without one."""
    code, out, err = par(
        "four-card-poker", "--rounds", "2000", "--workers", "1", "--format", "json"
    )
    assert code == 0, err
    progs = json.loads(out)["progressives"]
    long_run = {k: round(p["long_run_return_percent"], 4) for k, p in progs.items()}
    assert long_run == {
        "four_card_progressive": 73.1678,
        "four_card_progressive:B": 75.3217,
        "five_card_progressive": 75.596,
        "five_card_progressive:B": 76.9812,
        "five_card_progressive:C": 75.8935,
        "five_card_progressive:D": 75.7807,
        "five_card_hand_bonus": 57.2376,
    }
    code, text, err = par("four-card-poker", "--rounds", "2000", "--workers", "1")
    assert "== Progressive: Five-Card Progressive, Paytable C ==" in text
    assert "five_card_progressive:C" not in text
    code, out, err = par(
        "high-card-flush", "--rounds", "2000", "--workers", "1", "--format", "json"
    )
    assert code == 0, err
    assert {p["long_run_return_percent"] for p in json.loads(out)["progressives"].values()} == {
        None
    }


def test_every_hand_dealt_is_in_the_decision_shares_589_11_b_2() -> None:
    """§ 589.11(b)(2): a Lunar Poker player holding a straight flush or better "shall not
    place a Bet Wager but shall declare the hand": neither a Bet nor a fold. The shares of
    the decisions add up to every hand dealt, that one counted as no choice to make (it
    was left out: bet 2x and fold summed to 99.9987% on this seed)."""
    code, out, err = par("lunar-poker", "--rounds", "20000", "--workers", "1", "--format", "json")
    assert code == 0, err
    for name, s in json.loads(out)["base_game"]["strategies"].items():
        shares = s["decisions"]
        assert shares.get("no choice to make", 0) > 0, name
        assert abs(sum(shares.values()) - 1) < 1e-5, (name, shares)


def test_a_par_sheet_says_when_the_chapter_was_not_in_force() -> None:
    """Ch. 589 was rescinded by 46 Pa.B. 5540 (August 27, 2016): the example Lunar Poker
    submission, effective 2027-01-01, gets the warning `validate` gives, on stderr and on
    the sheet filed, from `par` (and from `odds --rulesub`, which said nothing either)."""
    lunar = EXAMPLES / "lunar-poker.yaml"
    code, out, err = par(str(lunar), "--rounds", "2000", "--workers", "1", "--format", "json")
    assert code == 0, err
    assert "46 Pa.B. 5540" in err and "not in force on 2027-01-01" in err
    assert any("not in force on 2027-01-01" in n for n in json.loads(out)["notes"])
    odds = runner.invoke(app, ["odds", "lunar-poker", "--rulesub", str(lunar)])
    assert odds.exit_code == 0 and "not in force on 2027-01-01" in odds.stderr


def test_each_wager_says_the_boards_stated_hold_and_whether_it_lies_inside(hcf: dict) -> None:
    """The final-form preamble states the holds of High Card Flush's tables: the par sheet
    says, at each wager, whether its exact hold lies inside (Flush Bonus E, 5.3%–11.1%) or
    not (Straight Flush Bonus C, 6.6%–13.0%: 15.5765%, the exact figure stands), as `odds`
    and the review pack do, in their words; a progressive's moves with its meter, and its
    single stated figure is printed as one (23%, not 23%–23%)."""
    sheet = text(hcf)
    lines = [line for line in sheet.splitlines() if line.startswith("house edge")]
    assert lines[0].endswith("the Board's stated hold 5.3%–11.1%: inside")
    assert lines[1].startswith("house edge 15.5765%")
    assert lines[1].endswith("6.6%–13.0%: outside (the exact figure stands)")
    assert "the Board's stated hold 23%: moves with the meter" in lines[2]


def _banking_examples() -> list[str]:
    """The example submissions of banking games (a Poker room's house takes no wager)."""
    import yaml

    def kind(path: Path) -> str | None:
        game = yaml.safe_load(path.read_text(encoding="utf-8"))["game"]
        return yaml.safe_load((PROJECT_ROOT / "games" / f"{game}.yaml").read_text()).get("kind")

    return sorted(p.name for p in EXAMPLES.glob("*.yaml") if kind(p) == "banking")


@pytest.mark.parametrize("name", _banking_examples())
def test_a_table_that_holds_nothing_is_flagged_on_the_par_sheet_as_validate_warns(
    name: str,
) -> None:
    """A table the validator warns "should hold a positive share of the wager" (Lunar
    Poker's Super Wager as § 589.12(b) prints it, an exact -48.8037%) is flagged on the par
    sheet filed with the submission: its row says so and a note says why, with the section;
    a table the validator passes carries no such flag. Two paths to one answer: the checks'
    facts and the par sheet's odds."""
    path = EXAMPLES / name
    validated = runner.invoke(app, ["validate", str(path), "--format", "json"])
    warned = {
        f["path"].rsplit("/", 1)[1]
        for f in json.loads(validated.stdout)["findings"]
        if f["code"].endswith("-hold") and f["path"].startswith("/paytables/")
    }
    result = runner.invoke(app, ["par", str(path), "--format", "json", "--rounds", "100"])
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    said = " ".join(sheet["notes"])
    noted = {
        k
        for k, w in sheet["wagers"].items()
        if f"{w['name']}, Paytable {w['paytable']} ret" in said
    }
    assert noted == warned
    for key in noted:
        w = sheet["wagers"][key]
        note = next(n for n in sheet["notes"] if n.startswith(f"{w['name']}, Paytable"))
        assert f"a house edge of {w['house_edge_percent']:.4f}%" in note
        assert note.endswith(f"[{w['cite']}].") and "second look" in note
    if name.startswith("lunar"):
        assert warned == {"super"}
        assert "Super Wager, Paytable A returns more than it takes: a house edge of -48.8037%" in (
            " ".join(sheet["notes"])
        )


def test_a_table_whose_text_is_missing_is_named_as_the_submission_states_it() -> None:
    """§ 677a.12(d) (the Pocket Bonus) is missing from the regulation copy: the WPT par
    sheet prices the table the Rules Submission states, and says so where it names it and
    its section, as the signage and the review pack do; a table the chapter prints is named
    by its paytable."""
    path = str(EXAMPLES / "wpt-heads-up-holdem.yaml")
    sheet = json.loads(
        runner.invoke(app, ["par", path, "--format", "json", "--rounds", "100"]).stdout
    )
    stated = {k for k, w in sheet["wagers"].items() if w["stated"]}
    assert stated == {"pocket_bonus"}
    for fmt in ("text", "markdown", "html"):
        out = runner.invoke(app, ["par", path, "--format", fmt, "--rounds", "100"]).stdout
        said = " ".join(unheld(out).split())
        assert "Pocket Bonus Wager, as stated in the Rules Submission" in said, fmt
        assert "§ 677a.12(d), missing from the regulation text" in said, fmt
        assert "Trips Plus Wager, Paytable B" in said, fmt  # as the example selects it


@pytest.mark.parametrize(
    ("name", "wager", "base"),
    [
        ("wpt-heads-up-holdem.yaml", "Odds Wager", "Ante Wager + Odds Wager + Raise Wager"),
        ("lunar-poker.yaml", "Bet Wager", "Ante Wager + Bet Wager"),
    ],
)
def test_a_wager_is_named_as_the_chapter_names_it_not_by_its_table(
    name: str, wager: str, base: str
) -> None:
    """§ 677a.7(d)(1) "an Odds Wager", § 589.7(c)(1) "a Bet Wager": the par sheet names the
    wager so, never by its table's heading ("Odds", "Bet Wager payout")."""
    out = runner.invoke(app, ["par", str(EXAMPLES / name), "--rounds", "100"]).stdout
    said = " ".join(out.split())
    assert f"Base game ({base}, per unit of the Ante Wager)" in said
    assert f"{wager}: the {wager} is sized from the Ante Wager" in said
    assert "Bet Wager payout" not in said and "+ Odds +" not in said
