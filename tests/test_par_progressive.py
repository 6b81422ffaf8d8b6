"""Progressive wagers in the par sheet: return versus meter, break-even, long run, reserve.

The straight line the par sheet draws through two exact prices must give the exact hold
the odds engine computes at any other meter; the long-run return must be the return at the
meter's stationary mean, found here from the paytable's own probabilities.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from validator import PROJECT_ROOT
from validator.compiler import load_game
from validator.interpreter.settings import read_settings
from validator.model.notation import PayoutKind
from validator.odds import exact_odds
from validator.par.progressive import ProgressiveSheet, progressive_sheet

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"

CASES = [
    # game, submission, table, letter
    ("high-card-flush", "high-card-flush.yaml", "progressive_jackpot", "A"),
    ("high-card-flush", "high-card-flush.yaml", "progressive_jackpot", "B"),
    ("four-card-poker", "four-card-poker.yaml", "four_card_progressive", "B"),
]


def sheet_of(game_id: str, submission: str, table: str, letter: str) -> ProgressiveSheet:
    game = load_game(game_id)
    cfg = read_settings(game, EXAMPLES / submission)
    p = cfg.progressives[table]
    sheet = progressive_sheet(game, table, letter, p.wager_amount, p.meters)
    assert sheet is not None
    return sheet


@pytest.mark.parametrize(("game_id", "submission", "table", "letter"), CASES)
def test_return_versus_meter_is_the_exact_hold(
    game_id: str, submission: str, table: str, letter: str
) -> None:
    """At several meter levels the line equals 1 - the exact hold (§ 678a.12(d)(4): paid the
    amount on the meter; § 641a.12(d)(4) likewise)."""
    sheet = sheet_of(game_id, submission, table, letter)
    game = load_game(game_id)
    for meter in (sheet.meter_amount, Decimal("12345.67"), Decimal(250_000), Decimal(2_000_000)):
        odds = exact_odds(game, table, letter, meter=meter, wager_amount=sheet.wager_amount)
        assert sheet.return_at(meter) == 1 - odds.hold


@pytest.mark.parametrize(("game_id", "submission", "table", "letter"), CASES)
def test_break_even_meter(game_id: str, submission: str, table: str, letter: str) -> None:
    """A cent below the break-even meter the house holds money; a cent above it, it pays."""
    sheet = sheet_of(game_id, submission, table, letter)
    be = sheet.break_even
    assert be is not None and be > 0
    game = load_game(game_id)
    below = Decimal(int(be * 100) - 1) / 100
    above = Decimal(int(be * 100) + 2) / 100
    w = sheet.wager_amount
    assert exact_odds(game, table, letter, meter=below, wager_amount=w).hold > 0
    assert exact_odds(game, table, letter, meter=above, wager_amount=w).hold < 0


@pytest.mark.parametrize(("game_id", "submission", "table", "letter"), CASES)
def test_long_run_return_is_the_return_at_the_stationary_meter(
    game_id: str, submission: str, table: str, letter: str
) -> None:
    """In the long run the meter's mean M satisfies: increments + whole-meter hits · reseed =
    (whole-meter hits + partial shares) · M; the long-run return is the return at M."""
    sheet = sheet_of(game_id, submission, table, letter)
    game = load_game(game_id)
    _, t = game.table(table)
    rows = t.rows(letter)
    odds = exact_odds(game, table, letter, wager_amount=sheet.wager_amount)
    whole = partial = Fraction(0)
    for c in odds.categories:
        p = rows.get(c.category)
        if p is not None and p.kind is PayoutKind.METER:
            if p.share >= 1:
                whole += c.probability
            else:
                partial += c.probability * p.share
    cfg = sheet.config
    assert cfg is not None
    w = Fraction(sheet.wager_amount)
    mean = (cfg.increment * w + whole * Fraction(cfg.reseed)) / (whole + partial)
    assert sheet.long_run == sheet.return_at(mean)
    assert sheet.whole_hit == whole


def test_reserve_funding_worked_by_hand() -> None:
    """The example High Card Flush table: a $5 wager, reserve increment 5%, reseed $30,000,
    table A's seven-card straight flush the only whole-meter hit. The ace plays high only
    (§ 678a.6(a)): 7 runs (2-8 … 8-A) in 4 suits, 28 of C(52, 7) = 133,784,560 hands, 1 in
    4,778,020: on average 4,778,020 rounds between resets, $0.25 a round to the reserve,
    $1,194,505 per reset: the reserve funds the reseed with $1,164,505 to spare."""
    sheet = sheet_of("high-card-flush", "high-card-flush.yaml", "progressive_jackpot", "A")
    assert sheet.whole_hit == Fraction(28, 133_784_560) == Fraction(1, 4_778_020)
    r = sheet.reserve()
    assert r is not None
    assert r["expected_rounds_between_resets"] == 4_778_020
    assert r["expected_reserve_per_reset"] == "1194505.00"
    assert r["funds_reseed"] is True
    assert r["surplus_per_reset"] == "1164505.00"
    j = sheet.to_json()
    assert j["meter"] == "30000.00" and j["wager_amount"] == "5.00"
    assert isinstance(j["return_percent_at_meter"], float)
    assert isinstance(j["break_even_meter"], str)
