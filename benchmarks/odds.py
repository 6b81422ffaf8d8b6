"""`rulesub odds wpt-heads-up-holdem --wager trips_plus --paytable A`: the seven-card case.

Prints the command's cold wall time and peak memory (a fresh interpreter each run, as a
user runs it; goal: at most 5 s and under 2 GB), quiet and with ``--busy`` processes
spinning on the cores beside it (the machine shared), and the time a naive enumeration of
all 133,784,560 seven-card hands with eval7 (one ``eval7.evaluate`` per hand) would take,
extrapolated from a timed sample, as a ratio.

    python benchmarks/odds.py [--runs 3] [--busy 2] [--sample 300000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from itertools import combinations, islice
from math import comb

COMMAND = ["odds", "wpt-heads-up-holdem", "--wager", "trips_plus", "--paytable", "A"]
GOAL_SECONDS, GOAL_MB = 5.0, 2048


def cold_run() -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident memory (MB) of the command in a fresh
    interpreter."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", "from validator.cli import main; main()", *COMMAND],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    stdout = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0 and "247579/33446140" in stdout, stdout
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measured(runs: int) -> tuple[float, float, float]:
    """The slowest wall time, its CPU time, and the highest peak memory of ``runs`` runs."""
    worst = (0.0, 0.0, 0.0)
    peak = 0.0
    for _ in range(runs):
        wall, cpu, mb = cold_run()
        peak = max(peak, mb)
        if wall > worst[0]:
            worst = (wall, cpu, mb)
    return worst[0], worst[1], peak


def eval7_rate(sample: int) -> float:
    """Hands per second of a naive enumeration with eval7: every combination, evaluated."""
    import eval7

    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    hands = combinations(deck, 7)
    start = time.perf_counter()
    for hand in islice(hands, sample):
        eval7.handtype(eval7.evaluate(list(hand)))
    return sample / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--busy", type=int, default=2, help="spinning processes for the load run")
    parser.add_argument("--sample", type=int, default=300_000)
    args = parser.parse_args()
    print(f"rulesub {' '.join(COMMAND)}  ({os.cpu_count()} cores)")
    load = os.getloadavg()[0]
    wall, cpu, peak = measured(args.runs)
    print(
        f"  quiet: cold wall time {wall:5.2f} s (slowest of {args.runs}; load average {load:.1f})"
    )
    print(f"         CPU time       {cpu:5.2f} s")
    print(f"         peak memory    {peak:5.0f} MB  (goal < {GOAL_MB:,} MB)")
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)
    ]
    try:
        time.sleep(0.5)
        busy_wall, busy_cpu, busy_peak = measured(args.runs)
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    print(
        f"  with {args.busy} busy processes: cold wall time {busy_wall:5.2f} s "
        f"(slowest of {args.runs})"
    )
    print(f"         CPU time       {busy_cpu:5.2f} s;  peak memory {busy_peak:5.0f} MB")
    worst = max(wall, busy_wall)
    verdict = "met" if worst <= GOAL_SECONDS and max(peak, busy_peak) < GOAL_MB else "NOT met"
    print(
        f"  goal: <= {GOAL_SECONDS:.0f} s cold and < {GOAL_MB:,} MB: {verdict} "
        f"(worst {worst:.2f} s)"
    )
    try:
        r = eval7_rate(args.sample)
    except ImportError:
        print("  eval7 not installed: pip install -e '.[bench]'")
        return
    naive = comb(52, 7) / r
    print(f"  naive eval7 enumeration of {comb(52, 7):,} hands: {r / 1e6:.2f} M hands/s,")
    print(f"  about {naive:,.0f} s extrapolated from {args.sample:,} hands")
    print(f"  ratio: {naive / wall:,.0f}x the command's quiet cold wall time")


if __name__ == "__main__":
    main()
