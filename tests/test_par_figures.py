"""How the par sheet prints its figures: a probability as "one in N", never in scientific
notation; a computed amount of money (a break-even meter, a reserve per reset, its surplus)
always to the cent, a stated one (a meter, a reseed, a wager) in whole dollars where it is
whole (``validator.money.format_money``'s convention). A compliance officer files the sheet:
one line must not show ``$296,008`` beside ``$35,230.33``, nor ``1.847e-05``.

Every expected figure here is recomputed independently of the printers, from the exact
figures the JSON holds (``top_award_probability_exact``, ``break_even_meter``).
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from html import unescape
from typing import Any

import pytest
from typer.testing import CliRunner

from validator.cli import app
from validator.par.printed import one_in
from validator.par.render import html_report, markdown, text

#: a number in scientific notation, as Python (``1.847e-05``) or matplotlib (``1e−5``) writes it
SCIENTIFIC = re.compile(r"\d[eE][-+−]\d")

#: the games whose sheets print progressives (Four Card Poker's every paytable: break-even
#: meters of whole dollars, $296,008, beside ones with cents) and top awards (Lunar Poker's
#: one in 649,740, printed "649,740.0" before)
GAMES = ("four-card-poker", "high-card-flush", "lunar-poker")


def _one_in_by_hand(p: Fraction) -> str:
    """``1/p`` as the sheet should print it, worked with ``decimal`` and ``format`` (not the
    printers): half up to the whole number from 100 on, to 0.1 from 10, to 0.01 below."""
    n = Decimal(p.denominator) / Decimal(p.numerator)
    step = Decimal(1) if n >= 100 else Decimal("0.1") if n >= 10 else Decimal("0.01")
    shown = n.quantize(step, rounding=ROUND_HALF_UP)
    if shown == shown.to_integral_value():
        return f"one in {int(shown):,}"
    return f"one in {shown.normalize():f}"


def _cents_by_hand(amount: str) -> str:
    d = Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{'-' if d < 0 else ''}${abs(d):,.2f}"


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (Fraction(1, 54145), "one in 54,145"),
        (Fraction(3, 162436), "one in 54,145"),  # 54,145.33: to the whole number
        (Fraction(4, 2598960), "one in 649,740"),  # whole: no ".0"
        (Fraction(2, 1001), "one in 501"),  # 500.5: half up, never to the even 500
        (Fraction(2, 199), "one in 99.5"),  # below 100: to one decimal place
        (Fraction(10, 1003), "one in 100"),  # 100.3, and 99.96 would show 100 too
        (Fraction(2, 5), "one in 2.5"),
        (Fraction(3, 7), "one in 2.33"),  # below 10: to two decimal places
        (Fraction(1), "one in 1"),
        ("1/20358520", "one in 20,358,520"),  # the JSON's exact string
        (Fraction(0), "0 (never)"),
    ],
)
def test_a_probability_is_printed_one_in_n(p: Fraction | str, shown: str) -> None:
    assert one_in(p) == shown
    if Fraction(p):
        assert one_in(p) == _one_in_by_hand(Fraction(p))


@pytest.fixture(scope="module")
def sheets() -> dict[str, dict[str, Any]]:
    """Each game's par sheet (every paytable), as ``rulesub par ID --format json`` gives it."""
    out: dict[str, dict[str, Any]] = {}
    for game in GAMES:
        r = CliRunner().invoke(
            app, ["par", game, "--format", "json", "--rounds", "200", "--workers", "1"]
        )
        assert r.exit_code == 0, r.output
        out[game] = json.loads(r.stdout)
    return out


def _rendered(sheet: dict[str, Any]) -> dict[str, str]:
    return {
        "text": text(sheet),
        "markdown": markdown(sheet),
        "html": unescape(html_report(sheet)),  # the plots' SVG included
    }


@pytest.mark.parametrize("game", GAMES)
def test_no_figure_of_any_format_is_in_scientific_notation(
    sheets: dict[str, dict[str, Any]], game: str
) -> None:
    for fmt, page in _rendered(sheets[game]).items():
        found = [m.group(0) for m in SCIENTIFIC.finditer(page)]
        assert not found, f"{game} ({fmt}): {found}"
        # a top award's cycle is a whole number of rounds from 100 on: never "4,165.0"
        assert not re.search(r"one in [\d,]{4,}\.\d", page), f"{game} ({fmt})"


@pytest.mark.parametrize("game", ["four-card-poker", "high-card-flush"])
def test_every_progressive_line_prints_its_figures_one_way(
    sheets: dict[str, dict[str, Any]], game: str
) -> None:
    """The break-even meter, the reserve per reset and its surplus are computed: always to
    the cent, each the JSON's figure; the top award's probability one in 1/p, from the exact
    probability; the meter, the wager and the reseed stated, in whole dollars."""
    sheet = sheets[game]
    assert sheet["progressives"]
    pages = _rendered(sheet)
    whole_break_even = 0
    for key, p in sheet["progressives"].items():
        be = p["break_even_meter"]
        computed = [f"break-even meter {_cents_by_hand(be)};"]
        whole_break_even += Decimal(be) == Decimal(be).to_integral_value()
        r = p["reserve"]
        if r and r["reserve_increment_percent"]:
            computed.append(f"{_cents_by_hand(r['expected_reserve_per_reset'])} per reset")
            if not r["moves_to_meter"]:
                computed.append(f"surplus {_cents_by_hand(r['surplus_per_reset'])}")
        chance = Fraction(p["top_award_probability_exact"])
        assert chance == Fraction(p["top_award_probability"]).limit_denominator(10**9)
        stated = f"meter ${int(Decimal(p['meter'])):,} on a ${int(Decimal(p['wager_amount']))}"
        heading = sheet["wagers"][key]["name"] + (
            f", Paytable {p['paytable']}" if p["paytable"] else ""
        )
        for fmt, page in pages.items():
            # the progressive's line, under its heading: a line of text or markdown, a
            # paragraph of the HTML
            at = re.search(re.escape(f"Progressive: {heading}") + r"(?= ==|\n|<)", page)
            assert at is not None, f"{key} ({fmt})"
            line = next(ln for ln in re.split(r"[<>\n]", page[at.end() :]) if "break-even" in ln)
            assert line.startswith(stated), f"{key} ({fmt}): {line!r}"
            for figure in computed:
                assert figure in line, f"{key} ({fmt}): {figure!r} not in {line!r}"
            cycle = re.escape(f"top award probability {_one_in_by_hand(chance)}")
            assert re.search(rf"{cycle}(?![\d,.])", line), f"{key} ({fmt}): {line!r}"
            # no computed amount without its cents: every "$" figure on the line is a stated
            # whole amount or has its cents
            for amount in re.findall(r"\$[\d,]+(?:\.\d+)?", line):
                if "." not in amount:
                    assert int(amount[1:].replace(",", "")) in {
                        int(Decimal(p["meter"])),
                        int(Decimal(p["wager_amount"])),
                        int(Decimal(p["reseed"] or 0)),
                    }, f"{key} ({fmt}): {amount} is computed, printed without cents"
    if game == "four-card-poker":  # the case the sheet printed "$296,008" for
        assert whole_break_even >= 3
        assert "break-even meter $296,008.00;" in pages["text"]


@pytest.mark.parametrize("game", GAMES)
def test_every_wagers_top_award_is_one_in_its_exact_cycle(
    sheets: dict[str, dict[str, Any]], game: str
) -> None:
    sheet = sheets[game]
    pages = _rendered(sheet)
    for w in sheet["wagers"].values():
        top = w["top_award"]
        if top is None:
            continue
        cycle = _one_in_by_hand(Fraction(top["probability_exact"]))
        said = f"top award ({top.get('name', top['outcome'])}, {top['pays']}) {cycle}"
        for fmt, page in pages.items():  # the whole figure: not "one in 4,165" of "4,165.0"
            assert re.search(re.escape(said) + r"(?!\.?\d|,\d)", page), f"{w['name']} ({fmt})"
