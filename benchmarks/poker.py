"""Nonbanking Poker sessions: hands per CPU second as ``simulate`` and ``par`` play them
(rounds a block at a time in one call of the numba kernels, ``fast/block.py``, no log
kept), against ``play``'s path run in the same script on the same kernels (a block of one
round, the operation log kept and narrated, each hand's value searched over the categories
rather than read from the rank-pattern table).

Each game is dealt at its full table with its documented defaults and the same seed both
ways; the sessions must take the same rake and leave the same Bad Beat fund and
stacks to the cent. Measured with ``time.process_time`` (the machine is shared: wall time
lies), one process; the kernels' JIT compile (or load from numba's cache) happens in a
warm-up round before the clock starts, and its time is reported apart; ``--warm N`` plays
N hands first, unmeasured, both ways.
Goal (issue 13): at least 10,000 hands per second.

    python benchmarks/poker.py [--hands 500] [--warm 0] [--games poker-holdem,...]

``--against REV`` measures instead the kernel path of this checkout against the same path
of the code at git revision REV (``HEAD~1``: the previous commit), each game played in a
process of its own by each side in turn, ``--repeat`` times, interleaved: the median of the
runs' ratios of hands per CPU second (this checkout's over REV's; 1.0 or more: no slower), the
same rake, Bad Beat fund and stacks required. REV's kernels compile into a numba cache of
their own (kept under the system's temporary folder by revision), before the clock starts.

    python benchmarks/poker.py --against HEAD~1 [--hands 2000] [--repeat 3]

``--rates-only`` compares the rates alone, against a revision whose decks came from another
random stream (issue 29's baseline, ``ea25d02``, shuffled with Python's generator):

    python benchmarks/poker.py --against ea25d02 --rates-only --hands 40000 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from validator.compiler import all_games, load_game
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.table import default_setup
from validator.rankings import evaluator


@contextmanager
def table_bypassed() -> Iterator[None]:
    """Every hand value searched over the categories (the memo by card set kept, as
    before the table): the baseline."""
    saved = evaluator.Evaluator.by_pattern
    evaluator.Evaluator.by_pattern = evaluator.Evaluator.searched  # type: ignore[method-assign]
    try:
        yield
    finally:
        evaluator.Evaluator.by_pattern = saved  # type: ignore[method-assign]


def _fresh(game_id: str) -> None:
    """No value remembered from another run: the memos and the tables emptied."""
    game = load_game(game_id)
    sd = game.definition.showdown
    assert sd is not None
    for hand_id in (sd.high, sd.low):
        if hand_id:
            ev = game.evaluator(hand_id)
            ev._best.clear()
            ev._best_using.clear()
            ev._patterns.clear()


def compile_time(game_id: str) -> float:
    """CPU seconds of the first rounds: the kernels JIT-compiled (or read from numba's
    cache) and the rankings' packed tables built."""
    game = load_game(game_id)
    setup = default_setup(game)
    start = time.process_time()
    session = Session(game, setup, setup.positions, 0, narrated=False)
    next(session.hands(1))
    return time.process_time() - start


def rate(game_id: str, hands: int, warm: int, seed: int, narrated: bool) -> tuple[float, tuple]:
    _fresh(game_id)
    game = load_game(game_id)
    setup = default_setup(game)
    session = Session(game, setup, setup.positions, seed, narrated=narrated)
    played = session.hands(warm + hands)
    for _ in range(warm):
        next(played)
    start = time.process_time()
    for _ in played:
        pass
    spent = time.process_time() - start
    result = (session.totals.rake, session.fund, tuple(sorted(session.stacks.items())))
    return hands / spent, result


ROOT = Path(__file__).resolve().parent.parent

#: one side's measure, run in a process of its own with that side's code first on the path
CHILD = """
import sys, time
from validator.compiler import load_game
from validator.interpreter.poker.session import Session
try:
    from validator.interpreter.settings import default_settings
except ImportError:  # the code before one reader of table settings (issue 29's baseline)
    from validator.interpreter.poker.session import default_setup as default_settings
game_id, hands, warm, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = load_game(game_id)
setup = default_settings(game)
next(Session(game, setup, setup.positions, 0, narrated=False).hands(1))  # the kernels loaded
session = Session(game, setup, setup.positions, seed, narrated=False)
played = session.hands(warm + hands)
for _ in range(warm):
    next(played)
start = time.process_time()
for _ in played:
    pass
spent = time.process_time() - start
print(hands / spent)
print(repr((session.totals.rake, session.fund, sorted(session.stacks.items()))))
"""


def _tree(rev: str) -> tuple[Path, Path]:
    """The code at ``rev`` unpacked in a temporary folder, and a numba cache of its own."""
    sha = subprocess.run(
        ["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    base = Path(tempfile.gettempdir()) / f"rulesub-bench-{sha[:12]}"
    tree, cache = base / "tree", base / "numba"
    if not tree.is_dir():  # unpacked whole, then named: a run beside this one sees all or none
        base.mkdir(exist_ok=True)
        part = Path(tempfile.mkdtemp(dir=base))
        archive = subprocess.run(
            ["git", "archive", sha], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive, check=True)
        try:
            part.rename(tree)
        except OSError:  # another run named its copy first
            shutil.rmtree(part)
    cache.mkdir(exist_ok=True)
    return tree, cache


def run_side(child: str, tree: Path, cache: Path | None, args: list[str]) -> str:
    """The ``child`` script's output, run on ``tree``'s code with its own numba cache."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-c", child, *args],
        env=env,
        cwd=tree,  # ``python -c`` puts its folder first on the path: the side's own tree
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _side(tree: Path, cache: Path | None, args: list[str]) -> tuple[float, str]:
    out = run_side(CHILD, tree, cache, args).splitlines()
    return float(out[0]), out[1]


def against(
    rev: str, games: list[str], hands: int, warm: int, seed: int, repeat: int, rates_only: bool
) -> None:
    """This checkout's kernel path against ``rev``'s, interleaved, game by game; with
    ``rates_only`` the two sides' results are not compared (a revision that shuffled from
    another random stream deals other hands: its rate over as many is still comparable)."""
    tree, cache = _tree(rev)
    own_cache = os.environ.get("NUMBA_CACHE_DIR")
    for game_id in games:
        args = [game_id, str(hands), str(warm), str(seed)]
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(repeat):
            rate_then, result_then = _side(tree, cache, args)
            rate_now, result_now = _side(ROOT, Path(own_cache) if own_cache else None, args)
            if not rates_only:
                assert result_now == result_then, f"{game_id}: a result differs from {rev}'s"
            theirs.append(rate_then)
            ours.append(rate_now)
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        now, then = statistics.median(ours), statistics.median(theirs)
        print(
            f"{game_id}: x{statistics.median(ratios):.2f} (the median of the runs' ratios "
            f"{', '.join(f'{r:.2f}' for r in ratios)}; {now:,.0f} hands/s against {then:,.0f} "
            f"at {rev})",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--warm", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default="")
    ap.add_argument("--against", default="", metavar="REV")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rates-only", action="store_true", help="with --against: no result compared")
    args = ap.parse_args()
    games = (
        args.games.split(",")
        if args.games
        else [g.id for g in all_games() if g.definition.kind == "nonbanking"]
    )
    if args.against:
        against(args.against, games, args.hands, args.warm, args.seed, args.repeat, args.rates_only)
        return
    for game_id in games:
        jit = compile_time(game_id)
        with table_bypassed():
            base, base_result = rate(game_id, args.hands, args.warm, args.seed, True)
        kern, kern_result = rate(game_id, args.hands, args.warm, args.seed, False)
        assert kern_result == base_result, f"{game_id}: the blocks changed a result"
        print(
            f"{game_id}: {kern:,.0f} hands/s in blocks, "
            f"{base:,.0f} hands/s logged and narrated; first round (JIT, tables) {jit:.1f}s apart "
            "(goal 10,000 hands/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
