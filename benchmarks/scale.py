"""Every core, in one run: each figure a ratio measured side by side on this machine.

- ``simulate`` (High Card Flush, no meter in play) and ``par`` (Lunar Poker's simulated
  strategies; a Poker room of tables) on one worker and on ``--max-workers``, through
  processes and through a local Dask cluster (``--scheduler local``): the speed-up, the
  efficiency (speed-up / workers), and whether the JSON is the same bytes;
- the banking batch engine's seat-rounds per CPU second on each game (every seat, the base
  game's default table) against the batch evaluator's own seven-card hands per CPU second;
- ``record``: many files in one call against one call each (CPU and wall), 1,000 files in
  one call against the goal of 20 s (wall), and one file's ``record`` against its
  ``validate`` (CPU, goal 1.5x).

Wall times are the best of ``--repeat`` runs; CPU is the children's user + system time.
The default sizes are for a machine of 16 cores (about 5 minutes in all; par Lunar Poker at
4,000,000 rounds a strategy); ``--quick`` divides them by 20 for a small machine. Each
figure is printed as it is measured, then all of them as one table.

    python benchmarks/scale.py [--max-workers N] [--ladder] [--quick] [--repeat 1]
    python benchmarks/scale.py --only record [--record-many 1000]    # the store's figures
    python benchmarks/scale.py --only workers --only engines --ladder  # every core, not the store
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rulesubs" / "example"
#: the command line; where it is not installed, this checkout's through this Python
COMMAND = (
    [found]
    if (found := shutil.which("rulesub"))
    else [sys.executable, "-c", "from validator.cli import main; main()"]
)
GOALS = {
    "four-card-poker": 3e6,
    "high-card-flush": 3e6,
    "wpt-heads-up-holdem": 3e6,
    "lunar-poker": 2e6,
}


def rulesub(*args: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 2):
        raise SystemExit(f"rulesub {' '.join(args)} failed:\n{out.stderr[-2000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, out.stdout


def best(repeat: int, *args: str) -> tuple[float, float, str]:
    runs = [rulesub(*args) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


def scaling(
    name: str, args: list[str], n: int, repeat: int, table: Table, ladder: bool = False
) -> None:
    """One worker against ``n`` processes and a local Dask cluster of ``n`` (after one
    small untimed run: a first run compiles the kernels); with ``ladder``, the processes
    at every power of two below ``n`` too."""
    small = [a if b != "--rounds" else "200" for b, a in zip(["", *args[:-1]], args, strict=True)]
    rulesub(*small, "--workers", "1")
    one, _, ref = best(repeat, *args, "--workers", "1")
    counts = [k for k in (2, 4, 8, 16, 32, 64) if k < n] if ladder else []
    hows = [["--workers", str(k)] for k in [*counts, n]]
    for how in [*hows, ["--scheduler", "local", "--workers", str(n)]]:
        wall, _, out = best(repeat, *args, *how)
        k = int(how[-1])
        label = f"{k} processes" if how[0] == "--workers" else f"local Dask, {k} workers"
        table.row(
            f"{name}, {label}",
            f"{one:.2f} s",
            f"{wall:.2f} s",
            f"{one / wall:.2f}x ({one / wall / k:.0%} of {k})",
            "yes" if out == ref else "NO",
        )


def engine_rates(rounds: int, table: Table) -> None:
    """Seat-rounds per CPU second of the batch engine against the evaluator's hands."""
    import numpy as np

    from validator.compiler import load_game
    from validator.interpreter.chunks import CHUNK
    from validator.interpreter.rules import Rules
    from validator.interpreter.settings import read_settings
    from validator.interpreter.simulate import run
    from validator.model.registry import load_rankings
    from validator.rankings.batch import BatchEvaluator

    batch = BatchEvaluator(load_rankings()["five-card"])
    hands = np.argsort(np.random.default_rng(1).random((400_000, 52)), axis=1)[:, :7]
    hands = hands.astype(np.int8)
    batch.keys_of_cards(hands[:8192])
    evaluator = _per_cpu_second(lambda: batch.keys_of_cards(hands), len(hands))
    table.row("evaluator: seven-card hands / CPU s", f"{evaluator:,.0f}")
    for game_id, goal in GOALS.items():
        game = load_game(game_id)
        rules = Rules(game, read_settings(game, EXAMPLES / f"{game_id}.yaml"))
        seats = rules.config.positions
        # a whole chunk untimed: the tables and evaluators built, and the memory a chunk's
        # arrays take faulted in (a process's first chunks take their pages from the system)
        run(rules, CHUNK, 1, seats)
        start = time.process_time()
        stats = run(rules, rounds, 1, seats)
        rate = stats.seat_rounds / (time.process_time() - start)
        table.row(
            f"engine: {game_id} seat-rounds / CPU s",
            f"{rate:,.0f}",
            f"goal {goal:,.0f}",
            f"{rate / evaluator:.3f} of the evaluator",
        )


def _per_cpu_second(work: Callable[[], object], n: int, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return n / min(times)


def record_costs(files: int, many: int, repeat: int, table: Table) -> None:
    """``files`` distinct filings in one call against one call each; ``many`` in one call
    against the goal of 20 s; one file's record against its validate (CPU, best of the
    runs, the two taking turns so that a busy machine weighs on both alike)."""
    src = (EXAMPLES / "high-card-flush.yaml").read_text()

    def write(where: Path, n: int) -> list[Path]:
        where.mkdir()
        out = []
        for i in range(n):
            text = src.replace("facility: Example Downs", f"facility: Facility {i:05d}", 1)
            out.append(where / f"f{i:05d}.yaml")
            out[-1].write_text(text)
        return out

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "filings"
        each = write(d, files)
        one_wall, one_cpu, _ = rulesub("record", str(d), "--db", str(Path(tmp) / "one.db"))
        each_wall = each_cpu = 0.0
        for p in each:
            wall, cpu, _ = rulesub("record", str(p), "--db", str(Path(tmp) / "each.db"))
            each_wall += wall
            each_cpu += cpu
        for how, one, alone in (("CPU", one_cpu, each_cpu), ("wall", one_wall, each_wall)):
            table.row(
                f"record {files} files: one call vs one call each ({how})",
                f"{one:.2f} s",
                f"{alone:.2f} s",
                f"{alone / one:.1f}x",
            )
        big = Path(tmp) / "office"
        write(big, many)
        wall, _, _ = rulesub("record", str(big), "--db", str(Path(tmp) / "many.db"))
        table.row(
            f"record {many} files in one call (wall)",
            f"{wall:.1f} s",
            f"goal {20 * many / 1000:g} s",
            f"{wall / (20 * many / 1000):.2f} of the goal",
        )
        # each record a new filing into a store of the current schema (made by the first)
        db = str(Path(tmp) / "single.db")
        rulesub("record", str(each[-1]), "--db", db)
        validate, record = [], []
        for p in each[: max(repeat, 7)]:
            validate.append(rulesub("validate", str(p))[1])
            record.append(rulesub("record", str(p), "--db", db)[1])
        table.row(
            f"record one file vs validate it (CPU, best of {len(record)})",
            f"{min(record):.3f} s",
            f"{min(validate):.3f} s",
            f"{min(record) / min(validate):.2f}x (goal 1.5x)",
        )


class Table:
    """The figures, each printed as soon as it is measured (a run cut short keeps what it
    measured), then all of them again as one aligned table."""

    HEAD = ("figure", "1 worker / this", "N workers / that", "ratio", "same bytes")

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def row(self, *cells: str) -> None:
        cells = (*cells, *[""] * (len(self.HEAD) - len(cells)))
        self.rows.append(cells)
        print(" | ".join(c for c in cells if c), flush=True)

    def show(self) -> None:
        rows = [self.HEAD, *self.rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(self.HEAD))]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def main() -> None:
    from validator.interpreter.chunks import available_cores

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-workers", type=int, default=available_cores())
    parser.add_argument("--quick", action="store_true", help="sizes / 20, for a small machine")
    parser.add_argument("--size", type=float, default=1.0, help="sizes / this")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="par Lunar Poker on 2, 4, 8 … processes too, up to --max-workers",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=("workers", "engines", "record"),
        help="a group of figures (again for more): workers 1 vs N, the engines' rates, record",
    )
    parser.add_argument(
        "--record-many", type=int, default=1000, help="files recorded in one call (goal 20 s)"
    )
    args = parser.parse_args()
    n, q = args.max_workers, 20 if args.quick else args.size
    only = set(args.only or ("workers", "engines", "record"))
    print(f"{os.cpu_count()} CPUs here, {available_cores()} for this process", end="")
    print(f", {n} workers; sizes / {q}", flush=True)
    table = Table()
    if "workers" in only:
        sim = ["simulate", "high-card-flush", "--rounds", str(int(16_000_000 // q))]
        scaling("simulate High Card Flush", [*sim, "--format", "json"], n, args.repeat, table)
        # the figure: 4,000,000 rounds a strategy (two simulated strategies)
        par = ["par", "lunar-poker", "--rounds", str(int(4_000_000 // q)), "--format", "json"]
        scaling("par Lunar Poker", par, n, args.repeat, table, ladder=args.ladder)
        room = ["par", str(EXAMPLES / "poker-holdem.yaml"), "--format", "json"]
        room += ["--rounds", str(int(320_000 // q)), "--tables", str(n)]
        scaling(f"par Hold'em, {n} tables", room, n, args.repeat, table)
    if "engines" in only:
        engine_rates(int(400_000 // q), table)
    if "record" in only:
        record_costs(max(10, int(100 // q)), args.record_many, args.repeat, table)
    table.show()


if __name__ == "__main__":
    main()
