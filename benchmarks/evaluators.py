"""The batch evaluator against eval7, phevaluator and treys on the same random 7-card hands.

Prints evaluations per second of each and the ratios to eval7. The batch evaluator is timed
twice: from suit masks (its own input form, as the others are timed from theirs) and from
card ints (the conversion included). Install the baselines with ``pip install -e '.[bench]'``.

    python benchmarks/evaluators.py [--hands 1000000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from validator.model.registry import load_rankings
from validator.rankings.batch import BatchEvaluator, Hands, suit_masks

RANKS, SUITS = "23456789TJQKA", "cdhs"


def rate(run: Callable[[], object], n: int, repeat: int = 3) -> float:
    """Best of ``repeat`` timed runs, in evaluations per second."""
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

    batch = BatchEvaluator(load_rankings()["five-card"])
    masks = suit_masks(hands)
    results: dict[str, float] = {
        "batch keys (from suit masks)": rate(lambda: batch.keys(Hands(masks)), n),
        "batch keys (from card ints)": rate(lambda: batch.keys(suit_masks(hands)), n),
        "batch categories (from suit masks)": rate(lambda: batch.held(Hands(masks)), n),
    }
    sample = min(n, 200_000)  # the per-hand baselines are timed on a sample
    names = [RANKS[c // 4] + SUITS[c % 4] for c in range(52)]
    try:
        import eval7

        deck = [eval7.Card(s) for s in names]
        e7 = [[deck[c] for c in h] for h in hands[:sample]]
        results["eval7"] = rate(lambda: [eval7.evaluate(h) for h in e7], sample)
        # the same ordering: eval7 and the batch keys agree on which of two hands is higher
        k = batch.keys(suit_masks(hands[:20_000]))
        v = np.array([eval7.evaluate(h) for h in e7[:20_000]])
        agree = np.sign(k[1:] - k[:-1]) == np.sign(v[1:] - v[:-1])
        print(f"eval7 and batch keys order {agree.mean():.2%} of consecutive pairs alike")
    except ImportError:
        print("eval7 not installed")
    try:
        from phevaluator import evaluate_cards

        ph = [[int(c) for c in h] for h in hands[:sample]]
        results["phevaluator"] = rate(lambda: [evaluate_cards(*h) for h in ph], sample)
    except ImportError:
        print("phevaluator not installed")
    try:
        import treys

        tdeck = [treys.Card.new(s) for s in names]
        tv = treys.Evaluator()
        small = min(sample, 50_000)
        th = [[tdeck[c] for c in h] for h in hands[:small]]
        results["treys"] = rate(lambda: [tv.evaluate(h[:2], h[2:]) for h in th], small, 1)
    except ImportError:
        print("treys not installed")

    base = results.get("eval7")
    print(f"{n:,} random 7-card hands, five-card Poker ranking (best five of seven)")
    for name, r in results.items():
        ratio = f"{r / base:6.2f}x eval7" if base else ""
        print(f"  {name:38} {r / 1e6:8.2f} M evaluations/s  {ratio}")


if __name__ == "__main__":
    main()
