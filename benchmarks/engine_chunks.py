"""The banking batch engine chunk by chunk, this checkout against another revision.

Each side runs in a process of its own (its code first on the path, its own numba cache),
the two in turn, the order reversed every other pair. A side plays each banking game's
chunks of 20,000 rounds in process (every seat, the example submission's table, the default
strategy), one chunk untimed, then ``--chunks`` chunks timed one by one (CPU seconds: the
shuffle, the engine and the chunk's sums), and reports its fastest chunk, its median chunk
and its median shuffle. On a shared machine a run's median moves by a half; its fastest
chunk, the least disturbed, much less: the figures are the median of the runs' fastest
chunks, and the median of the pairs' ratios.

    python benchmarks/engine_chunks.py --against REV [--chunks 12] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

from poker import ROOT, _tree, run_side
from scale import GOALS

#: one side's measure: per game, its fastest chunk, median chunk and median shuffle (ms)
CHILD = """
import json, sys, time
from pathlib import Path
import numpy as np
from validator.compiler import load_game
from validator.interpreter.chunks import CHUNK
from validator.interpreter.rules import Rules
from validator.interpreter.settings import read_settings
from validator.interpreter.simulate import Stats, absorb, deal, default_wagers
from validator.interpreter.batch import BatchEngine
examples, chunks = Path(sys.argv[1]), int(sys.argv[2])
out = {}
for game_id in sys.argv[3:]:
    game = load_game(game_id)
    rules = Rules(game, read_settings(game, examples / f"{game_id}.yaml"))
    seats = rules.config.positions
    name, strategy = rules.played(None)
    engine = BatchEngine(rules, strategy, seats, default_wagers(rules))
    stats = Stats(rules.d.id, 0, seats, 1, name)
    decks, draws = deal(np.random.default_rng(0), CHUNK, seats)
    absorb(rules, stats, engine.run(decks, draws))
    shuffles, whole = [], []
    for k in range(chunks):
        start = time.process_time()
        decks, draws = deal(np.random.default_rng(k + 1), CHUNK, seats)
        dealt = time.process_time()
        absorb(rules, stats, engine.run(decks, draws))
        shuffles.append(dealt - start)
        whole.append(time.process_time() - start)
    whole.sort()
    shuffles.sort()
    out[game_id] = [whole[0], whole[len(whole) // 2], shuffles[len(shuffles) // 2], seats * CHUNK]
print(json.dumps(out))
"""


def _side(tree: Path, cache: Path | None, games: list[str], chunks: int) -> dict[str, list[float]]:
    args = [str(ROOT / "rulesubs" / "example"), str(chunks), *games]
    figures: dict[str, list[float]] = json.loads(run_side(CHILD, tree, cache, args))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", required=True, metavar="REV")
    ap.add_argument("--chunks", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", default=",".join(GOALS))
    args = ap.parse_args()
    games = args.games.split(",")
    tree, cache = _tree(args.against)
    own = os.environ.get("NUMBA_CACHE_DIR")
    runs: dict[str, list[dict[str, list[float]]]] = {"then": [], "now": []}
    loads = []
    for i in range(args.repeat):
        sides = [("then", tree, cache), ("now", ROOT, Path(own) if own else None)]
        for side, path, numba in sides if i % 2 == 0 else sides[::-1]:
            runs[side].append(_side(path, numba, games, args.chunks))
        loads.append(os.getloadavg()[0])
    for game_id in games:
        then = [r[game_id] for r in runs["then"]]
        now = [r[game_id] for r in runs["now"]]
        ratios = sorted(a[0] / b[0] for a, b in zip(then, now, strict=True))
        fast_then = statistics.median(r[0] for r in then)
        fast_now = statistics.median(r[0] for r in now)
        seat_rounds = now[0][3]
        print(
            f"{game_id}: fastest chunk {fast_then * 1e3:.1f} ms at {args.against}, "
            f"{fast_now * 1e3:.1f} ms here (x{statistics.median(ratios):.2f}, the pairs "
            f"{ratios[0]:.2f} to {ratios[-1]:.2f}); median chunk "
            f"{statistics.median(r[1] for r in then) * 1e3:.1f} and "
            f"{statistics.median(r[1] for r in now) * 1e3:.1f} ms; the shuffle "
            f"{statistics.median(r[2] for r in then) * 1e3:.1f} and "
            f"{statistics.median(r[2] for r in now) * 1e3:.1f} ms; seat-rounds per CPU s "
            f"{seat_rounds / fast_then:,.0f} and {seat_rounds / fast_now:,.0f} "
            f"(goal {GOALS[game_id]:,.0f})",
            flush=True,
        )
    print(f"load average while measuring: {min(loads):.1f} to {max(loads):.1f}")


if __name__ == "__main__":
    main()
