"""Simulated par figures: deterministic whatever the number of workers or machines.

Chunk k deals from ``SeedSequence(seed, spawn_key=(k,))`` and is reduced to integer sums, so
the same seed gives byte-identical JSON with 1, 2 and 4 processes and through a local Dask
cluster. Rounds are kept small: the figures' values are not the point here.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from validator.interpreter.chunks import LOCAL_CLUSTER
from validator.par.sheet import simulated_figures
from validator.par.simulated import Moments, SimSpec, Sums, run_chunk, simulate

SPEC = SimSpec(
    game="four-card-poker",
    submission=None,
    strategy=None,
    seats=3,
    seed=2026,
    rounds=6_000,
    chunk=1_500,
)


def figures_json(sums: Sums, spec: SimSpec = SPEC) -> str:
    return json.dumps(simulated_figures(sums, "test", spec), indent=2)


@pytest.fixture(scope="module")
def one_worker() -> str:
    return figures_json(simulate(SPEC, workers=1))


@pytest.mark.parametrize("workers", [2, 4])
def test_same_seed_same_json_on_any_number_of_workers(one_worker: str, workers: int) -> None:
    assert figures_json(simulate(SPEC, workers=workers)) == one_worker


@pytest.mark.slow  # a local Dask cluster; quick: the one in tests/test_par_poker.py
def test_same_seed_same_json_through_a_local_dask_cluster(one_worker: str) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(n_workers=2, **LOCAL_CLUSTER) as cluster,
        distributed.Client(cluster),
    ):
        got = figures_json(simulate(SPEC, scheduler=cluster.scheduler_address))
    assert got == one_worker


def test_chunks_draw_from_their_own_seed_sequence() -> None:
    """Chunk k is the same rounds whoever runs it, and differs from chunk k + 1."""
    a = run_chunk(SPEC, 1, 1_500)
    b = run_chunk(SPEC, 1, 1_500)
    c = run_chunk(SPEC, 2, 1_500)
    assert a == b
    assert a != c
    assert a.rounds == 1_500 and a.seat_rounds == 4_500


def test_a_different_seed_gives_different_figures(one_worker: str) -> None:
    other = SimSpec(**{**SPEC.__dict__, "seed": 7})
    assert figures_json(simulate(other, workers=1), other) != one_worker


def test_every_figure_carries_its_interval_and_rounds(one_worker: str) -> None:
    data = json.loads(one_worker)
    assert data["method"] == "simulated"
    assert data["rounds"] == 6_000 and data["seat_rounds"] == 18_000
    lo, hi = data["ci95"]
    assert lo < data["house_edge_percent"] < hi
    lo, hi = data["element_of_risk_ci95"]
    assert lo < data["element_of_risk_percent"] < hi
    assert data["money_conserved_rounds"] == 6_000
    assert abs(sum(p["probability"] for p in data["result_distribution"]) - 1) < 1e-6
    # Four Card Poker's decision: fold, or Play 1x to 3x the Ante (§ 641a.11)
    assert abs(sum(data["decisions"].values()) - 1) < 1e-6


def test_moments_are_exact_integers() -> None:
    """Sums of squares of micro-dollar results overflow int64; they are Python integers."""
    m = Moments()
    big = np.array([4_000_000_000_000, -4_000_000_000_000], dtype=np.int64)
    m.add_arrays(big, np.array([1, 1], dtype=np.int64))
    assert m.xx == 2 * 4_000_000_000_000**2


def test_strategies_dealt_in_one_go_equal_each_dealt_alone() -> None:
    """A par sheet hands every strategy's chunks out together (no worker waits at the end of
    one strategy); each strategy's sums are those it has when simulated alone."""
    from validator.par.simulated import simulate_all

    specs = [
        SimSpec("lunar-poker", None, name, 2, 7, 3_000, chunk=1_000)
        for name in ("basic", "caribbean")
    ]
    together = simulate_all(specs, workers=2)
    for spec, sums in zip(specs, together, strict=True):
        assert figures_json(sums, spec) == figures_json(simulate(spec, workers=1), spec)
    assert figures_json(together[0], specs[0]) != figures_json(together[1], specs[1])


def test_the_par_sheet_hands_its_strategies_out_in_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import validator.par.simulated as simulated

    calls: list[int] = []
    handed_out = simulated.run_jobs

    def counted(job, jobs, *rest):  # type: ignore[no-untyped-def]
        calls.append(len(jobs))
        return handed_out(job, jobs, *rest)

    monkeypatch.setattr(simulated, "run_jobs", counted)
    from typer.testing import CliRunner

    from validator.cli import app

    args = ["par", "lunar-poker", "--rounds", "2000", "--workers", "1", "--format", "json"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    strategies = sheet["base_game"]["strategies"]
    simulated_names = [n for n, s in strategies.items() if s["method"] == "simulated"]
    assert len(simulated_names) >= 2
    assert calls == [len(simulated_names)]  # one call, one chunk a strategy


def test_a_simulated_edge_carries_its_interval_in_percentage_points() -> None:
    """ "10.7292% ± 9.9710" left the interval's unit to guess: it is in percentage points,
    said so in every table that prints it (the strategies' table, the sheet at a glance)."""
    from validator.par.render import html_report, markdown, text

    strategy = {
        "method": "simulated",
        "rounds": 2000,
        "seed": 1,
        "house_edge_percent": 10.7292,
        "ci95": [0.7582, 20.7002],
        "element_of_risk_percent": 2.7576,
        "average_total_wager": 3.8908,
        "sd": 3.696,
        "decisions": {},
        "source": "a test",
    }
    sheet = {
        "name": "A game",
        "chapter": "58 Pa. Code ch. 677a",
        "paytables": "as the submission selects",
        "submission": None,
        "base_game": {
            "per": "ante",
            "wagers": ["ante"],
            "cite": "",
            "strategies": {"simple": strategy},
        },
        "wagers": {},
        "progressives": {},
        "not_priced": {},
    }
    for rendered in (text(sheet), markdown(sheet), html_report(sheet)):
        assert "10.7292% ± 9.9710 percentage points" in rendered
        assert rendered.count("± 9.9710") == rendered.count("± 9.9710 percentage points")
