"""Simulated Four Card Poker: the batch engine against the scalar engine, in one run.

Seven seats, every wager offered (the Magic Card and Lucky Bonus paid too), the default
strategy. Prints seat-rounds per second of each engine and the ratio (goals: at least
200,000 seat-rounds per second for the batch engine and 50 times the scalar engine), then
the peak memory of simulations of increasing length: it stays flat, the rounds being dealt
and settled in chunks (goal: 100 million rounds within 1 GB).

Then every banking game the par sheet simulates, each of its strategies, every optional
wager on (the example submission's, the chapter's defaults and every table the certificate
holder "may pay"), every seat filled: the batch engine's seat-rounds per CPU second in a
process of its own, start-up included (imports, game, tables), against the scalar engine on
the same table in this run (goal: at least 200,000 seat-rounds per CPU second per core).

    python benchmarks/simulate.py [--rounds 300000] [--scalar-rounds 300]
        [--game-rounds 200000] [--games-only]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.dealing import DeckSource
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.interpreter.settings import read_settings
from validator.interpreter.simulate import deal, run

SEATS = 7
GAMES = ("four-card-poker", "high-card-flush", "wpt-heads-up-holdem", "lunar-poker")
EXAMPLES = Path(__file__).resolve().parent.parent / "rulesubs" / "example"
GOAL = 200_000


def rules() -> Rules:
    g = load_game("four-card-poker")
    cfg = TableConfig.defaults(g)
    cfg.optional_payouts.add("magic_card_lucky_bonus")
    return Rules(g, cfg)


def every_wager(game_id: str) -> Rules:
    """The example submission's table with every optional wager it may offer on: the
    submission's, the chapter's defaults, and every table the certificate holder "may pay"."""
    game = load_game(game_id)
    cfg = read_settings(game, EXAMPLES / f"{game_id}.yaml")
    defaults = TableConfig.defaults(game)
    cfg.offered |= defaults.offered
    for table_id, progressive in defaults.progressives.items():
        cfg.progressives.setdefault(table_id, progressive)
    for wager in game.definition.wagers.values():
        for table_id, table in wager.tables.items():
            if getattr(table, "optional_payout", False):
                cfg.optional_payouts.add(table_id)
    return Rules(game, cfg)


def one_game(game_id: str, strategy: str, rounds: int) -> None:
    """In a process of its own: seat-rounds and the CPU seconds of the whole process."""
    r = every_wager(game_id)
    stats = run(r, rounds, 1, r.config.positions, strategy)
    assert stats.balanced_rounds == rounds
    print(stats.seat_rounds, time.process_time())


def game_rates(game_rounds: int, scalar_rounds: int) -> None:
    print(
        f"Every banking game, every optional wager on, every seat: {game_rounds:,} rounds in a "
        "process of its own (start-up included), per CPU second"
    )
    for game_id in GAMES:
        r = every_wager(game_id)
        assert r.d.strategies is not None
        for strategy in r.d.strategies.by_name:
            out = subprocess.run(
                [sys.executable, __file__, "--one", game_id, strategy, str(game_rounds)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            seat_rounds, cpu = int(out[0]), float(out[1])
            batch = seat_rounds / cpu
            scalar = scalar_rate(r, scalar_rounds, 1, r.config.positions, strategy)
            print(
                f"  {game_id:<20} {strategy:<10} {batch:>10,.0f} seat-rounds/s "
                f"({'meets' if batch >= GOAL else 'BELOW'} {GOAL:,}); scalar engine "
                f"{scalar:>8,.0f}: {batch / scalar:>6,.1f}x"
            )


def scalar_rate(
    r: Rules, rounds: int, seed: int, seats: int = SEATS, name: str | None = None
) -> float:
    strategy = r.strategy(name)
    wagers = default_wagers(r)
    engine = Engine(r, strategy)
    decks, draws = deal(np.random.default_rng(seed), rounds, r.config.positions)
    start = time.process_time()
    for i in range(rounds):

        def system(draw_id: str, kind: str, i: int = i) -> tuple[str, int]:
            return ("card" if kind == "card" else "position", int(draws[draw_id][i]))

        players = [Seat(k, dict(wagers), None) for k in range(1, seats + 1)]
        engine.run(players, DeckSource([int(c) for c in decks[i]]), system)
    return rounds * seats / (time.process_time() - start)


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
    parser.add_argument(
        "--game-rounds", type=int, default=200_000, help="rounds per game and strategy"
    )
    parser.add_argument("--games-only", action="store_true", help="only every game's rate")
    parser.add_argument(
        "--one", nargs=3, metavar=("GAME", "STRATEGY", "ROUNDS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        one_game(args.one[0], args.one[1], int(args.one[2]))
        return
    if args.games_only:
        game_rates(args.game_rounds, args.scalar_rounds)
        return
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
    game_rates(args.game_rounds, args.scalar_rounds)


if __name__ == "__main__":
    main()
