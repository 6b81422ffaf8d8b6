"""Simulated Four Card Poker: the batch engine against the scalar engine, in one run.

Seven seats, every wager offered (the Magic Card and Lucky Bonus paid too), the default
strategy. Prints seat-rounds per second of each engine and the ratio (goals: at least
200,000 seat-rounds per second for the batch engine and 50 times the scalar engine), then
the peak memory of simulations of increasing length: it stays flat, the rounds being dealt
and settled in chunks (goal: 100 million rounds within 1 GB).

    python benchmarks/simulate.py [--rounds 300000] [--scalar-rounds 300]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from validator.interpreter.config import TableConfig
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import DeckSource, Engine, Seat
from validator.interpreter.simulate import deal, run
from validator.model.registry import load_game

SEATS = 7


def rules() -> Rules:
    g = load_game("four-card-poker")
    cfg = TableConfig.defaults(g)
    cfg.optional_payouts.add("magic_card_lucky_bonus")
    return Rules(g, cfg)


def scalar_rate(r: Rules, rounds: int, seed: int) -> float:
    strategy = r.strategy(None)
    wagers = default_wagers(r)
    engine = Engine(r, strategy)
    decks, draws = deal(np.random.default_rng(seed), rounds, r.config.positions)
    start = time.perf_counter()
    for i in range(rounds):

        def system(draw_id: str, kind: str, i: int = i) -> tuple[str, int]:
            return ("card" if kind == "card" else "position", int(draws[draw_id][i]))

        seats = [Seat(k, dict(wagers), None) for k in range(1, SEATS + 1)]
        engine.run(seats, DeckSource([int(c) for c in decks[i]]), system)
    return rounds * SEATS / (time.perf_counter() - start)


def batch_rate(r: Rules, rounds: int, seed: int) -> float:
    run(r, 20_000, seed, SEATS)  # warm up: tables, caches
    start = time.perf_counter()
    stats = run(r, rounds, seed, SEATS)
    elapsed = time.perf_counter() - start
    assert stats.balanced_rounds == rounds
    return rounds * SEATS / elapsed


def peak_memory(r: Rules, rounds: int) -> int:
    tracemalloc.start()
    run(r, rounds, 5, SEATS)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300_000, help="rounds for the batch engine")
    parser.add_argument(
        "--scalar-rounds", type=int, default=300, help="rounds for the scalar engine"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = rules()
    scalar = scalar_rate(r, args.scalar_rounds, args.seed)
    batch = batch_rate(r, args.rounds, args.seed)
    strategy = r.strategy(None).name
    print(f"Four Card Poker, {SEATS} seats, every wager offered, strategy: {strategy}")
    print(f"  scalar engine: {scalar:>12,.0f} seat-rounds/s ({args.scalar_rounds:,} rounds)")
    print(f"  batch engine:  {batch:>12,.0f} seat-rounds/s ({args.rounds:,} rounds)")
    print(f"  ratio:         {batch / scalar:>12,.1f}x   (goals: 200,000 seat-rounds/s, 50x)")
    sizes = [20_000, 100_000, 400_000]
    peaks = [peak_memory(r, n) for n in sizes]
    for n, p in zip(sizes, peaks, strict=True):
        print(f"  peak memory, {n:>9,} rounds: {p / 2**20:8.1f} MiB")
    growth = peaks[-1] / peaks[0]
    print(
        f"  peak at {sizes[-1]:,} / at {sizes[0]:,} rounds: {growth:.2f}x "
        "(flat: rounds are dealt in chunks of 20,000)"
    )


if __name__ == "__main__":
    main()
