"""The house's par sheet of a nonbanking Poker game (§ 553.15 the rake; § 553.20 the Bad Beat
fund): figures agree with the session engine played hand by hand, and the same seed gives
the same figures whatever the number of workers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
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


# -- deterministic on any number of workers and through Dask ------------------------------------

SPEC = PokerSpec("poker-holdem", str(HOLDEM), seed=3, hands=240, hands_per_hour=40, chunk=60)


def sheet_json(workers: int | None = None, scheduler: str | None = None) -> str:
    return json.dumps(house_sheet(SPEC, workers, scheduler), indent=2, ensure_ascii=False)


@pytest.fixture(scope="module")
def one_worker() -> str:
    return sheet_json(workers=1)


@pytest.mark.parametrize("workers", [2, 4])
def test_same_seed_same_json_on_any_number_of_workers(one_worker: str, workers: int) -> None:
    """Four chunks of 60 hands, chunk k shuffled from ``SeedSequence(3, spawn_key=(k,))``:
    the same bytes whether one process plays them or two or four do."""
    assert sheet_json(workers=workers) == one_worker
    assert json.loads(one_worker)["hands"] == 240


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[str]:
    """A local Dask cluster of two worker processes, as the banking test starts one; its
    scheduler's address."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
        yield cluster.scheduler_address


def test_same_seed_same_json_through_a_local_dask_cluster(
    one_worker: str, dask_cluster: str
) -> None:
    assert sheet_json(scheduler=dask_cluster) == one_worker


def test_chunks_are_sessions_of_their_own(one_worker: str) -> None:
    """The sheet is the sum of its chunks, each dealt from its own SeedSequence: chunk 1
    played alone gives the same sums again, and other hands than chunk 2; another seed gives
    other figures."""
    parts = [run_chunk(SPEC, k, n) for k, n in SPEC.chunks()]
    assert run_chunk(SPEC, 1, 60) == parts[1] != parts[2]
    total = parts[0]
    for p in parts[1:]:
        total += p
    assert total.hands == 240
    sheet = json.loads(one_worker)
    mean = Fraction(total.rake.s, 240 * 100)  # dollars, printed to four places
    assert abs(Fraction(sheet["rake"]["per_hand"]["mean"]) - mean) <= Fraction(1, 20_000)
    other = PokerSpec(**{**SPEC.__dict__, "seed": 4})
    assert house_sheet(other, workers=1) != sheet


def test_par_cli_poker_scheduler_gives_the_same_bytes(dask_cluster: str) -> None:
    """``rulesub par --scheduler ADDRESS`` on a Poker submission: the JSON is byte for byte
    the one a single process prints."""
    args = ["par", str(HOLDEM), "--format", "json", "--rounds", "120", "--seed", "9"]
    one = CliRunner().invoke(app, [*args, "--workers", "1"])
    dask = CliRunner().invoke(app, [*args, "--scheduler", dask_cluster])
    assert one.exit_code == dask.exit_code == 0, dask.output
    assert dask.stdout == one.stdout
    assert json.loads(one.stdout)["poker"]["hands"] == 120


def test_par_cli_poker_unreachable_scheduler_exits_2() -> None:
    pytest.importorskip("dask.distributed")
    r = CliRunner().invoke(
        app, ["par", str(HOLDEM), "--rounds", "40", "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert r.exit_code == 2
    assert "Dask scheduler" in r.stderr and "Traceback" not in r.stderr


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
