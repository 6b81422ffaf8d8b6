"""How a par sheet or a simulation would scale on N cores, projected from one run on this one.

Where only a few cores are at hand, the speed-up on 16 cannot be timed; it can be projected
from what one run measures. The command runs once, in this process, on one worker, and every
chunk's CPU time is recorded as it is dealt, with the calls that hand chunks out (one a
strategy for a par sheet: each is a barrier, the next strategy's chunks wait for the last
of this one's). What is not inside a chunk is the serial part (the command's start-up,
timed through the command line on a small run, the exact figures, the sums and the
document). A pool's cost (starting N processes, one task's round trip) is
timed here on 1 and 2 processes.

The projection for N workers is then

    serial + sum over calls of (pool start for N + makespan of the call's chunks on N workers)

with the chunks handed to whichever worker is free first, in order, as
``concurrent.futures``' ``map`` and Dask both do. The model is checked against this machine:
its figure for 2 workers is printed beside the measured one (``--check``). It assumes what
one core measures holds on 16 (no memory-bandwidth or turbo loss): a ceiling to be confirmed
where 16 cores are at hand with ``python benchmarks/scale.py --max-workers 16``.

    python benchmarks/projection.py [--rounds 1000000] [--check] [-- par lunar-poker ...]
"""

from __future__ import annotations

import argparse
import heapq
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from scale import COMMAND  # the command line, as the other scaling figures run it


def recorded_run(args: list[str]) -> tuple[float, list[list[float]]]:
    """(CPU seconds of the whole command, each call's chunk CPU seconds) of ``rulesub ARGS
    --workers 1``, run in this process with the one place chunks are handed out wrapped."""
    import validator.interpreter.chunks as chunks

    calls: list[list[float]] = []
    handed_out = chunks.run_jobs

    def timed_run_jobs(
        job: Callable[[Any], Any], jobs: list[Any], *rest: Any, **kw: Any
    ) -> Iterable[Any]:
        times: list[float] = []
        calls.append(times)

        def timed(j: Any) -> Any:
            start = time.process_time()
            try:
                return job(j)
            finally:
                times.append(time.process_time() - start)

        yield from handed_out(timed, jobs, 1, None)

    chunks.run_jobs = timed_run_jobs  # before the modules that import it by name load
    for name in list(sys.modules):
        if name.startswith(("validator.par", "validator.interpreter.simulate", "validator.cli")):
            del sys.modules[name]
    from typer.testing import CliRunner

    from validator.cli import app

    start = time.process_time()
    result = CliRunner().invoke(app, [*args, "--workers", "1"], catch_exceptions=False)
    total = time.process_time() - start
    chunks.run_jobs = handed_out
    if result.exit_code not in (0, 1):
        raise SystemExit(f"rulesub {' '.join(args)}: exit {result.exit_code}\n{result.output}")
    return total, calls


def _nothing(_: int) -> int:
    return 0


def pool_costs(tasks: int = 400) -> tuple[float, float, float]:
    """(seconds to start and stop a pool of one process, of each further process, one
    task's round trip) on this machine, with fork as rulesub's pools use it."""
    from validator.interpreter.chunks import pool_context

    def start_stop(n: int) -> float:
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            with ProcessPoolExecutor(max_workers=n, mp_context=pool_context()) as pool:
                list(pool.map(_nothing, range(n)))
            best = min(best, time.perf_counter() - t)
        return best

    one, two = start_stop(1), start_stop(2)
    with ProcessPoolExecutor(max_workers=1, mp_context=pool_context()) as pool:
        list(pool.map(_nothing, range(10)))
        t = time.perf_counter()
        list(pool.map(_nothing, range(tasks)))
        trip = (time.perf_counter() - t) / tasks
    return one, max(two - one, 0.0), trip


def makespan(times: list[float], workers: int, trip: float) -> float:
    """Seconds until the last of ``times`` ends, each handed in order to the first free one
    of ``workers`` and costing a round trip on top."""
    free = [0.0] * workers
    end = 0.0
    for t in times:
        start = heapq.heappop(free)
        done = start + t + trip
        end = max(end, done)
        heapq.heappush(free, done)
    return end


def projected(
    total: float, calls: list[list[float]], n: int, pool: tuple[float, float, float]
) -> float:
    """Seconds of the command on ``n`` workers by the model in this module's docstring."""
    serial = total - sum(sum(c) for c in calls)
    if n == 1:
        return total
    first, each, trip = pool
    return serial + sum(first + each * (n - 1) + makespan(c, n, trip) for c in calls)


def measured(args: list[str], n: int) -> float:
    """Wall seconds of ``rulesub ARGS --workers n`` (best of two)."""
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        subprocess.run([*COMMAND, *args, "--workers", str(n)], capture_output=True, check=False)
        best = min(best, time.perf_counter() - t)
    return best


def start_up(args: list[str], per_chunk: float) -> float:
    """CPU seconds the command spends outside this process's reach: a small run of it
    (one chunk a call) through the command line, less its chunks."""
    import resource

    small = [*args[:-1], "20000"] if args[-2] == "--rounds" else args
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*COMMAND, *small, "--workers", "1"], capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    _, calls = recorded_run(small)
    return max(cpu - sum(len(c) for c in calls) * per_chunk, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--max-workers", type=int, default=16)
    parser.add_argument("--check", action="store_true", help="time 1 and 2 workers here too")
    parser.add_argument("command", nargs="*", help="a rulesub command (default: par lunar-poker)")
    a = parser.parse_args()
    args = a.command or ["par", "lunar-poker", "--format", "json", "--rounds", str(a.rounds)]
    recorded_run([*args[:-1], "200"] if args[-2] == "--rounds" else args)  # untimed: warm up
    total, calls = recorded_run(args)
    pool = projected_pool = pool_costs()
    inside = sum(sum(c) for c in calls)
    launch = start_up(args, inside / sum(len(c) for c in calls))
    total += launch
    print(f"rulesub {' '.join(args)}")
    print(
        f"one worker: {total:.2f} s CPU; {sum(len(c) for c in calls)} chunks in "
        f"{len(calls)} call(s), {inside:.2f} s inside them; serial {total - inside:.2f} s "
        f"({(total - inside) / total:.1%}), of which {launch:.2f} s the command's start-up"
    )
    print(
        f"pool here: {pool[0] * 1e3:.1f} ms to start one process, {pool[1] * 1e3:.1f} ms each "
        f"further one, {pool[2] * 1e6:.0f} us a task's round trip"
    )
    print(f"{'workers':>7}  {'projected s':>11}  {'speed-up':>8}  {'efficiency':>10}")
    for n in sorted({1, 2, 4, 8, 12, 16, a.max_workers}):
        t = projected(total, calls, n, projected_pool)
        print(f"{n:>7}  {t:>11.2f}  {total / t:>7.2f}x  {total / t / n:>10.0%}")
    if a.check:
        one, two = measured(args, 1), measured(args, 2)
        model = projected(total, calls, 2, pool) / total
        print(
            f"check on {os.cpu_count()} CPUs: measured 1 worker {one:.2f} s, 2 workers "
            f"{two:.2f} s: {one / two:.2f}x against the model's {1 / model:.2f}x"
        )


if __name__ == "__main__":
    main()
