"""`rulesub simulate` on every core: chunk k of the rounds (or table k of a Poker room) is
dealt from ``SeedSequence(seed, spawn_key=(k,))``, the one seeding rule the par sheet's
simulations follow, so the JSON is the same bytes on one, two or four processes and through
a local Dask cluster. Rounds are kept small: the figures' values are not the point here."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator.cli import app
from validator.compiler import load_game
from validator.interpreter.rules import Rules
from validator.interpreter.settings import read_settings
from validator.interpreter.simulate import run, summary_json


def _json(game_id: str, rounds: int, **kw: object) -> str:
    g = load_game(game_id)
    stats = run(Rules(g, read_settings(g, None)), rounds, 2026, 3, None, chunk=1_500, **kw)  # type: ignore[arg-type]
    return json.dumps(summary_json(stats), indent=2)


@pytest.fixture(scope="module")
def hcf_one() -> str:
    return _json("high-card-flush", 6_000, workers=1)


@pytest.mark.parametrize("workers", [2, 4])
def test_banking_same_bytes_on_any_number_of_workers(hcf_one: str, workers: int) -> None:
    """Four chunks of 1,500 rounds of High Card Flush, summed in chunk order."""
    assert _json("high-card-flush", 6_000, workers=workers) == hcf_one


@pytest.mark.slow  # a local Dask cluster; quick: the Poker room's below
def test_banking_same_bytes_through_a_local_dask_cluster(hcf_one: str) -> None:
    pytest.importorskip("dask.distributed")
    assert _json("high-card-flush", 6_000, workers=2, scheduler="local") == hcf_one


def test_with_a_meter_in_play_the_rounds_run_in_order_whatever_the_workers() -> None:
    """Four Card Poker's progressive meters (§ 641a.12): each hit is paid from the meter the
    rounds before it left, so the chunks run in order, one trajectory, on any workers."""
    one = _json("four-card-poker", 4_500, workers=1)
    assert _json("four-card-poker", 4_500, workers=2) == one
    meters = json.loads(one)["meters"]
    assert meters and all(m["start"] != m["end"] for m in meters.values())


def test_the_rounds_played_before_the_fork_are_thrown_away() -> None:
    """Workers inherit kernels loaded by rounds the parent plays first (``warm``): those
    rounds move no meter (a table with a meter in play, § 641a.12, is not warmed: it never
    forks) and leave nothing behind (a warmed table deals a chunk as a fresh one does)."""
    import copy

    import numpy as np

    from validator.interpreter.batch import BatchEngine
    from validator.interpreter.play import default_wagers
    from validator.interpreter.simulate import deal, warm

    def table(game_id: str) -> tuple[Rules, BatchEngine]:
        g = load_game(game_id)
        rules = Rules(g, read_settings(g, None))
        _, strat = rules.played(None)
        return rules, BatchEngine(rules, strat, 3, default_wagers(rules))

    rules, metered = table("four-card-poker")
    assert metered.meters
    before = copy.deepcopy(metered.meters)
    warm(rules, metered, 1_000)
    assert metered.meters == before

    def chunk(engine: BatchEngine) -> dict[str, list[list[int]]]:
        res = engine.run(*deal(np.random.default_rng(11), 3_000, rules.config.positions))
        return {spot: (res.returned[spot] - st).tolist() for spot, st in res.stakes.items()}

    rules, fresh = table("lunar-poker")
    _, warmed = table("lunar-poker")
    warm(rules, warmed, 1_000)
    assert chunk(warmed) == chunk(fresh)


def test_the_draws_are_pinned() -> None:
    """The seeding rule changes the rounds dealt: seed 7, 2,000 rounds, three seats of High
    Card Flush give these figures (one chunk, ``SeedSequence(7, spawn_key=(0,))``)."""
    args = ["simulate", "high-card-flush", "--rounds", "2000", "--seed", "7", "--seats", "3"]
    r = CliRunner().invoke(app, [*args, "--format", "json", "--workers", "2"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    ante = data["wagers"]["ante"]
    assert Decimal(ante["handle"]) == 60_000 and Decimal(ante["player_net"]) == -5_770
    assert (data["house_edge_per_ante"], data["fold_percent"]) == (1.9333, 31.4833)


CLI = ["simulate", "high-card-flush", "--rounds", "41000", "--seed", "3", "--format", "json"]


@pytest.mark.slow  # 41,000 rounds three ways and a local Dask cluster
def test_cli_simulate_same_bytes_for_workers_and_a_local_cluster() -> None:
    """Three chunks of the command's own size: one process, two, and a local cluster."""
    outs = []
    for how in (["--workers", "1"], ["--workers", "2"], ["--scheduler", "local", "--workers", "2"]):
        r = CliRunner().invoke(app, [*CLI, *how])
        assert r.exit_code == 0, r.output
        outs.append(r.stdout)
    assert outs[0] == outs[1] == outs[2]
    assert json.loads(outs[0])["rounds"] == 41_000


@pytest.mark.slow  # a local Dask cluster
def test_a_local_cluster_says_nothing_where_the_dashboard_port_is_taken() -> None:
    """Another Dask cluster on the machine holds port 8787: `--scheduler local` still runs,
    and its output is the figures alone (Dask warned "Port 8787 is already in use")."""
    import socket
    import warnings

    pytest.importorskip("dask.distributed")
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", 8787))
    except OSError:
        held.close()
        pytest.skip("port 8787 is taken already")
    held.listen()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning from the cluster fails the run
            args = ["simulate", "high-card-flush", "--rounds", "2000", "--format", "json"]
            r = CliRunner().invoke(app, [*args, "--scheduler", "local", "--workers", "1"])
    finally:
        held.close()
    assert r.exit_code == 0, r.output
    assert "8787" not in r.stderr and json.loads(r.stdout)["rounds"] == 2_000


def test_cli_unreachable_scheduler_exits_2() -> None:
    pytest.importorskip("dask.distributed")
    r = CliRunner().invoke(app, [*CLI, "--scheduler", "tcp://127.0.0.1:9"])
    assert r.exit_code == 2
    assert "Dask scheduler" in r.stderr and "Traceback" not in r.stderr


POKER = ["simulate", "poker-holdem", "--rounds", "48", "--seed", "4", "--format", "json"]


@pytest.fixture(scope="module")
def room_one() -> str:
    r = CliRunner().invoke(app, [*POKER, "--tables", "4", "--workers", "1"])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize(
    "how", [["--workers", "2"], ["--workers", "4"], ["--scheduler", "local", "--workers", "2"]]
)
def test_poker_room_same_bytes_on_any_workers(room_one: str, how: list[str]) -> None:
    r = CliRunner().invoke(app, [*POKER, "--tables", "4", *how])
    assert r.exit_code == 0, r.output
    assert r.stdout == room_one


def test_poker_room_sums_its_tables_and_still_balances(room_one: str) -> None:
    """Four tables of 12 hands each: the room's hands, and every chip accounted for, summed
    over the tables (§ 553.15 the rake; § 553.20 the Bad Beat fund)."""
    data = json.loads(room_one)
    assert data["tables"] == 4 and data["hands"] == 48
    assert data["invariant"]["held"] and data["session_invariant"]["held"]
    one = CliRunner().invoke(app, [*POKER, "--tables", "1"])
    assert json.loads(one.stdout)["tables"] == 1
    assert json.loads(one.stdout)["pots"] != data["pots"]


@pytest.mark.parametrize("command", ["simulate", "par"])
def test_tables_of_a_banking_game_are_refused(command: str) -> None:
    """``--tables`` seats a nonbanking Poker room; a banking game's rounds are shared among
    the workers, so the option is refused there rather than ignored."""
    args = [command, "high-card-flush", "--rounds", "10", "--tables", "3"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2
    assert "banking game" in r.stderr and "Traceback" not in r.stderr


class TestEveryCore:
    """``--workers`` left out means every core this process may use: its CPUs (affinity),
    lowered to its container's CPU quota; a container's ``os.cpu_count()`` counts the host's."""

    def _cores(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, affinity: int, cpu_max: str | None
    ) -> int:
        from validator.interpreter import chunks

        monkeypatch.setattr(chunks.os, "sched_getaffinity", lambda pid: set(range(affinity)))
        path = tmp_path / "cpu.max"
        if cpu_max is not None:
            path.write_text(cpu_max + "\n")
        monkeypatch.setattr(chunks, "CGROUP_CPU_MAX", path)
        return chunks.worker_count(None)

    @pytest.mark.parametrize(
        ("affinity", "cpu_max", "cores"),
        [
            (16, None, 16),  # no cgroup file: the affinity
            (16, "max 100000", 16),  # no quota
            (64, "1600000 100000", 16),  # a 16-CPU container on a 64-CPU host
            (64, "150000 100000", 2),  # a CPU and a half: two processes
            (4, "1600000 100000", 4),  # pinned to 4 CPUs under a larger quota
            (8, "50000 100000", 1),  # half a CPU: still one process
            (8, "nonsense", 8),  # an unreadable quota is no quota
        ],
    )
    def test_cores_of_the_process(self, monkeypatch, tmp_path, affinity, cpu_max, cores) -> None:
        assert self._cores(monkeypatch, tmp_path, affinity, cpu_max) == cores

    def test_workers_asked_for_are_taken_as_asked(self) -> None:
        from validator.interpreter.chunks import worker_count

        assert worker_count(3) == 3
