"""The house's par sheet of a nonbanking Poker game (§ 553.15 the rake; § 553.20 the Bad Beat
fund): figures agree with the session engine played hand by hand, and the same seed gives
the same figures whatever the number of workers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from validator.cli import app
from validator.compiler import load_game
from validator.interpreter.poker.session import Session, setup_from_submission
from validator.par.poker import PokerSpec, house_sheet, run_chunk

HOLDEM = Path(__file__).parent.parent / "rulesubs" / "example" / "poker-holdem.yaml"


def test_rake_per_hand_is_the_mean_of_the_sessions_rakes_553_15() -> None:
    """Chunk 0's sums equal an independent session, dealt from the same SeedSequence and
    read from its per-hand records (rake from pots, Bad Beat contributions and payouts)."""
    spec = PokerSpec("poker-holdem", str(HOLDEM), seed=7, hands=60, hands_per_hour=30, chunk=60)
    sums = run_chunk(spec, 0, 60)
    game = load_game("poker-holdem")
    setup = setup_from_submission(game, HOLDEM)
    seed = int(np.random.SeedSequence(7, spawn_key=(0,)).generate_state(1)[0])
    session = Session(game, setup, setup.positions, seed)
    rakes = [r.played.settlement.rake.total for r in session.hands(60)]
    assert sums.hands == 60
    assert sums.rake.s == sum(rakes) == session.totals.rake
    assert sums.contributions.s == session.totals.bad_beat_in
    assert sums.payouts.s == session.totals.bad_beat_out
    assert sums.hits == session.totals.bad_beat_hits
    sheet = house_sheet(spec, workers=1)
    mean = Fraction(sum(rakes), 60) / 100
    assert abs(Fraction(sheet["rake"]["per_hand"]["mean"]) - mean) < Fraction(1, 10_000)
    lo, hi = (Fraction(x) for x in sheet["rake"]["per_hand"]["ci95"])
    assert lo <= mean <= hi + Fraction(1, 10_000)
    per_hour = Fraction(sheet["rake"]["per_hour"]["mean"])
    assert abs(per_hour - mean * 30) < Fraction(1, 1_000)


def test_same_seed_same_figures_on_one_and_two_workers() -> None:
    spec = PokerSpec("poker-holdem", str(HOLDEM), seed=3, hands=80, hands_per_hour=40, chunk=20)
    assert house_sheet(spec, workers=1) == house_sheet(spec, workers=2)


def test_par_cli_poker_json_extends_the_contract() -> None:
    result = CliRunner().invoke(
        app,
        [
            "par",
            str(HOLDEM),
            "--format",
            "json",
            "--rounds",
            "40",
            "--workers",
            "1",
            "--hands-per-hour",
            "25",
        ],
    )
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.output)
    assert {"game", "wagers", "base_game", "progressives"} <= set(sheet)
    poker = sheet["poker"]
    assert poker["hands"] == 40 and poker["hands_per_hour"] == 25
    assert poker["bad_beat"]["qualifying"] == "four_of_a_kind"
    for fmt in ("text", "markdown", "html"):
        out = CliRunner().invoke(
            app, ["par", str(HOLDEM), "--format", fmt, "--rounds", "40", "--workers", "1"]
        )
        assert out.exit_code == 0, out.output
        assert "Bad Beat" in out.output and "an hour" in out.output
