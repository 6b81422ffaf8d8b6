"""The batch evaluator against eval7, phevaluator and treys on the same random 7-card hands.

Every evaluator is given the hands in the form it takes, prepared before the clock starts:

- the batch evaluator: a ``(n, 7)`` int8 array of card ints (0..51), one call for all the
  hands (``keys_of_cards``, ``held_of_cards``); also the four suit-mask arrays (``keys``);
- eval7: a list of seven ``eval7.Card`` per hand, one ``eval7.evaluate`` call per hand;
- phevaluator: a list of seven card ints per hand (its numbering is ours: rank * 4 + suit),
  one ``evaluate_cards`` call per hand;
- treys: a list of seven ``treys.Card`` ints per hand, one ``Evaluator.evaluate`` per hand.

Prints evaluations per second of each and the ratios to eval7 (goal: the batch keys from
card ints at least 10x eval7), and checks that eval7 and the batch keys order the hands
alike. The batch evaluator's tables are built on its first call, timed apart. Install the
baselines with ``pip install -e '.[bench]'``.

    python benchmarks/evaluators.py [--hands 1000000]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from validator.model.registry import load_rankings
from validator.rankings.batch import BatchEvaluator, Hands, suit_masks

RANKS, SUITS = "23456789TJQKA", "cdhs"
GOAL = 10.0


def rate(run: Callable[[], object], n: int, repeat: int = 5) -> float:
    """Best of ``repeat`` timed runs (after one untimed), in evaluations per second."""
    run()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    n = args.hands
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.int8)
    sample = min(n, 200_000)  # the per-hand baselines are timed on a sample of the same hands

    batch = BatchEvaluator(load_rankings()["five-card"])
    start = time.perf_counter()
    batch.keys_of_cards(hands[:8192])
    batch.held_of_cards(hands[:8192])
    tables = time.perf_counter() - start
    masks = suit_masks(hands)
    results: dict[str, tuple[str, float]] = {
        "batch keys": (
            "int8 card-int array, one call",
            rate(lambda: batch.keys_of_cards(hands), n),
        ),
        "batch categories": (
            "int8 card-int array, one call",
            rate(lambda: batch.held_of_cards(hands), n),
        ),
        "batch keys (suit masks)": (
            "4 uint16 suit-mask arrays, one call",
            rate(lambda: batch.keys(Hands(masks)), n),
        ),
    }
    names = [RANKS[c // 4] + SUITS[c % 4] for c in range(52)]
    try:
        import eval7

        deck = [eval7.Card(s) for s in names]
        e7 = [[deck[c] for c in h] for h in hands[:sample]]
        results["eval7"] = (
            "list of 7 eval7.Card per hand",
            rate(lambda: [eval7.evaluate(h) for h in e7], sample, 3),
        )
        # the same ordering: eval7 and the batch keys agree on which of two hands is higher
        m = 50_000
        k = batch.keys_of_cards(hands[:m])
        v = np.array([eval7.evaluate(h) for h in e7[:m]])
        agree = np.sign(k[1:] - k[:-1]) == np.sign(v[1:] - v[:-1])
        print(f"eval7 and the batch keys order {agree.mean():.2%} of {m - 1:,} pairs alike")
    except ImportError:
        print("eval7 not installed")
    try:
        from phevaluator import evaluate_cards

        ph = [[int(c) for c in h] for h in hands[:sample]]
        results["phevaluator"] = (
            "list of 7 card ints per hand",
            rate(lambda: [evaluate_cards(*h) for h in ph], sample, 3),
        )
    except ImportError:
        print("phevaluator not installed")
    try:
        import treys

        tdeck = [treys.Card.new(s) for s in names]
        tv = treys.Evaluator()
        small = min(sample, 50_000)
        th = [[tdeck[c] for c in h] for h in hands[:small]]
        results["treys"] = (
            "list of 7 treys.Card ints per hand",
            rate(lambda: [tv.evaluate(h[:2], h[2:]) for h in th], small, 1),
        )
    except ImportError:
        print("treys not installed")

    base = results["eval7"][1] if "eval7" in results else None
    print(
        f"{n:,} random 7-card hands (baselines: the first {sample:,}), five-card Poker "
        f"ranking (best five of seven); load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  batch tables built on the first call: {tables:.3f} s (not in the rates)")
    print(f"  {'evaluator':24} {'given':38} {'M evals/s':>10} {'vs eval7':>9}")
    for name, (given, r) in results.items():
        ratio = f"{r / base:8.2f}x" if base else ""
        print(f"  {name:24} {given:38} {r / 1e6:10.2f} {ratio}")
    if base:
        ratio = results["batch keys"][1] / base
        verdict = "met" if ratio >= GOAL else "NOT met"
        print(f"  goal: batch keys from card ints >= {GOAL:.0f}x eval7: {ratio:.1f}x, {verdict}")


if __name__ == "__main__":
    main()
