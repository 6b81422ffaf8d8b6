"""`rulesub odds wpt-heads-up-holdem --wager trips_plus --paytable A`: the seven-card case.

Prints the command's cold wall time and peak memory (a fresh interpreter, as a user runs
it; goal: at most 5 s and under 2 GB), and the time a naive enumeration of all
133,784,560 seven-card hands with eval7 would take, extrapolated from a timed sample,
as a ratio.

    python benchmarks/odds.py [--sample 300000]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from itertools import combinations, islice
from math import comb

COMMAND = ["odds", "wpt-heads-up-holdem", "--wager", "trips_plus", "--paytable", "A"]


def cold_run() -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident memory (MB) of the command in a fresh
    interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *COMMAND],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    assert "247579/33446140" in done.stdout, done.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


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
    parser.add_argument("--sample", type=int, default=300_000)
    args = parser.parse_args()
    wall, cpu, peak = cold_run()
    load = os.getloadavg()[0]
    print(f"rulesub {' '.join(COMMAND)}")
    print(f"  cold wall time   {wall:6.2f} s   (goal ≤ 5 s; load average {load:.1f})")
    print(f"  CPU time         {cpu:6.2f} s")
    print(f"  peak memory      {peak:6.0f} MB  (goal < 2,048 MB)")
    try:
        r = eval7_rate(args.sample)
    except ImportError:
        print("  eval7 not installed: pip install -e '.[bench]'")
        return
    naive = comb(52, 7) / r
    print(f"  naive eval7 enumeration of {comb(52, 7):,} hands: {r / 1e6:.2f} M hands/s,")
    print(f"  about {naive:,.0f} s extrapolated from {args.sample:,} hands")
    print(f"  ratio: {naive / wall:,.0f}x the command's wall time")


if __name__ == "__main__":
    main()
