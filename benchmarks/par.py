"""The par sheet's computations, each against a baseline measured in the same run.

1. High Card Flush's exact optimal strategy (every player hand, one per suit orbit, the
   dealer's hands counted suit by suit) against a naive enumeration of the same figure
   (every player hand against every dealer hand, each pair two evaluations by the batch
   evaluator), the naive one timed on a sample of pairs and scaled to all
   133,784,560 × 45,379,620 of them. Goal: the exact figure in at most 60 s on two cores.
2. Simulated seat-rounds per second with 1 and 2 worker processes, and the speed-up
   (goal: at least 1.8 on two cores); the figures are byte-identical either way. The CPU
   seconds of both runs are printed too: where other work shares the cores, wall-clock
   ratios mean little, and 2 × (CPU on 1 worker) / (CPU on 2) is the speed-up two free
   cores would give.
3. Four Card Poker's basic strategy over 10^8 rounds (``--fcp-rounds``), on every core:
   dealt in chunks of 20,000 rounds, each reduced to integer sums before the next, so memory
   stays bounded whatever the number of rounds (the peak resident memory of this process and
   of its workers is printed with the rounds per second).
4. Four Card Poker's exact optimal strategy and its declared ones (every player hand with
   every up card, the dealer's completions counted by inclusion-exclusion), wall and CPU
   seconds, against a naive enumeration of the same figure (every situation against every
   dealer completion, each a best-four-of-six evaluation) timed on a sample and scaled to
   all C(52, 5) × 47 × C(46, 5) of them; and whether the figures kept in
   ``validator/par/derived`` are the ones derived (``--fcp-exact-only`` runs this alone).

The speed-up of two workers is printed on wall time (the goal: at least 1.8x on two cores)
and on CPU time. ``--parts`` runs some of the four only (e.g. ``--parts sim,fcp``).

    python benchmarks/par.py [--workers 2] [--sim-rounds 600000] [--fcp-rounds 100000000]
        [--parts exact,sim,fcp]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from math import comb

import numpy as np

from validator.compiler import load_game
from validator.interpreter.chunks import available_cores
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.par.longest_flush import FlushGame, count_all, figures, optimal_choice
from validator.par.sheet import simulated_figures
from validator.par.simulated import SimSpec, simulate
from validator.rankings.batch import BatchEvaluator


def exact_optimal(workers: int) -> tuple[float, float]:
    """(seconds, house edge %) of High Card Flush's exact optimal strategy."""
    game = load_game("high-card-flush")
    fg = FlushGame.from_rules(Rules(game, TableConfig.defaults(game)))
    start = time.perf_counter()
    dc = count_all(fg.player_cards, fg.dealer_cards, fg.qualifier, workers)
    f = figures(fg, dc, "optimal", optimal_choice(fg, dc))
    return time.perf_counter() - start, float(f.house_edge * 100)


def naive_seconds(sample: int = 2_000_000) -> float:
    """Every (player, dealer) pair evaluated and compared, timed on ``sample`` pairs, scaled
    to all of them."""
    game = load_game("high-card-flush")
    ev = BatchEvaluator(game.rankings["high-card-flush"])
    rng = np.random.default_rng(1)
    decks = rng.permuted(np.tile(np.arange(52), (sample, 1)), axis=1)
    ev.keys_of_cards(decks[:1000, :7])  # warm up: tables
    start = time.perf_counter()
    player = ev.keys_of_cards(decks[:, :7])
    dealer = ev.keys_of_cards(decks[:, 7:14])
    _ = np.sign(player - dealer)
    per_pair = (time.perf_counter() - start) / sample
    return per_pair * comb(52, 7) * comb(45, 7)


def sim_rate(workers: int, rounds: int) -> tuple[float, float, str]:
    """(seat-rounds per wall second, CPU seconds of this process and its workers, figures)."""
    spec = SimSpec("high-card-flush", None, "mousseau", seats=6, seed=1, rounds=rounds)
    before = os.times()
    start = time.perf_counter()
    sums = simulate(spec, workers=workers)
    elapsed = time.perf_counter() - start
    after = os.times()
    cpu = sum(getattr(after, f) - getattr(before, f) for f in ("user", "system"))
    cpu += sum(getattr(after, f) - getattr(before, f) for f in ("children_user", "children_system"))
    return sums.seat_rounds / elapsed, cpu, json.dumps(simulated_figures(sums, "", spec))


def fcp_exact() -> None:
    """Part 4: Four Card Poker's exact base game, and the naive baseline on a sample."""
    from validator.par.completions import (
        OPTIMAL,
        CompletionGame,
        derive,
        method_key,
        read_derived,
    )

    game = load_game("four-card-poker")
    rules = Rules(game, TableConfig.defaults(game))
    cg = CompletionGame.from_rules(rules)
    before = os.times()
    start = time.perf_counter()
    found = derive(rules, cg)
    elapsed = time.perf_counter() - start
    after = os.times()
    cpu = (after.user - before.user) + (after.system - before.system)
    kept = read_derived("four-card-poker")
    same = kept is not None and kept[0] == method_key(rules, cg) and kept[1] == found
    ev = BatchEvaluator(game.rankings["four-card"])
    sample = 1_000_000
    rng = np.random.default_rng(1)
    decks = rng.permuted(np.tile(np.arange(52), (sample, 1)), axis=1)
    ev.keys_of_cards(decks[:1000, :6])  # warm up: tables
    t0 = time.perf_counter()
    player = ev.keys_of_cards(decks[:, :5])
    dealer = ev.keys_of_cards(decks[:, 5:11])
    _ = np.sign(player - dealer)
    naive = (time.perf_counter() - t0) / sample * comb(52, 5) * 47 * comb(46, 5)
    best = found[OPTIMAL]
    print(
        f"Four Card Poker exact optimal and {len(found) - 1} declared strategies: "
        f"{elapsed:.0f} s wall, {cpu:.0f} CPU s (goal: at most 15 min on one core); house edge "
        f"{float(best.house_edge) * 100:.4f}% of the Ante, "
        f"{float(best.element_of_risk) * 100:.4f}% of the total wagered (published 2.78%, "
        f"1.30%); kept figures current and equal: {same}; naive enumeration: "
        f"{naive / 86400 / 365:,.1f} CPU-years (from a sample of {sample:,} deals); "
        f"ratio {naive / cpu:,.0f}x"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=available_cores())
    ap.add_argument("--sim-rounds", type=int, default=600_000)
    ap.add_argument("--fcp-rounds", type=int, default=100_000_000)
    ap.add_argument("--naive-sample", type=int, default=2_000_000)
    ap.add_argument(
        "--parts", default="exact,sim,fcp,fcp-exact", help="of exact, sim, fcp, fcp-exact"
    )
    ap.add_argument("--fcp-exact-only", action="store_true")
    a = ap.parse_args()
    if a.fcp_exact_only:
        fcp_exact()
        return

    parts = set(a.parts.split(","))
    if "exact" in parts:
        seconds, edge = exact_optimal(a.workers)
        naive = naive_seconds(a.naive_sample)
        print(
            f"High Card Flush exact optimal ({a.workers} workers): {seconds:.1f} s, house edge "
            f"{edge:.4f}% (goal: at most 60 s); naive enumeration: "
            f"{naive / 86400 / 365:,.0f} CPU-years (from a sample of {a.naive_sample:,} "
            f"pairs); ratio {naive / seconds:,.0f}x"
        )

    if "sim" in parts:
        one, cpu1, j1 = sim_rate(1, a.sim_rounds)
        two, cpu2, j2 = sim_rate(2, a.sim_rounds)
        print(
            f"simulated High Card Flush, {a.sim_rounds:,} rounds: wall time {one:,.0f} "
            f"seat-rounds/s on 1 worker, {two:,.0f} on 2: speed-up on wall time "
            f"{two / one:.2f}x (goal: at least 1.8x); same figures: {j1 == j2}"
        )
        print(
            f"  CPU seconds {cpu1:.2f} on 1 worker, {cpu2:.2f} on 2: parallel efficiency "
            f"{cpu1 / cpu2:.0%}, speed-up on CPU time {2 * cpu1 / cpu2:.2f}x (what two free "
            "cores give; where others share the cores, the wall-time figure is lower)"
        )

    if "fcp" in parts:
        spec = SimSpec("four-card-poker", None, "basic", seats=7, seed=1, rounds=a.fcp_rounds)
        start = time.perf_counter()
        sums = simulate(spec, workers=a.workers)
        elapsed = time.perf_counter() - start
        fig = simulated_figures(sums, "", spec)
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(
            f"Four Card Poker, basic strategy: {a.fcp_rounds:,} rounds × 7 seats on "
            f"{a.workers} workers in {elapsed:.0f} s: {a.fcp_rounds / elapsed:,.0f} rounds/s "
            f"({sums.seat_rounds / elapsed:,.0f} seat-rounds/s); house edge "
            f"{fig['house_edge_percent']:.4f}% of the Ante (95% CI {fig['ci95'][0]:.4f} … "
            f"{fig['ci95'][1]:.4f}), element of risk {fig['element_of_risk_percent']:.4f}%"
        )
        print(
            f"  peak resident memory: {own / 1024:,.0f} MiB here, {workers / 1024:,.0f} MiB "
            f"in the largest worker (chunks of {spec.chunk:,} rounds: flat in the rounds)"
        )

    if "fcp-exact" in parts:
        fcp_exact()


if __name__ == "__main__":
    main()
