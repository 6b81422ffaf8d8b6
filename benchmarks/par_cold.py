"""A first ``par`` after an install or upgrade: the par sheets whose base game is exact, each
with a fresh user cache (``RULESUB_CACHE_DIR``), so that every game is compiled again and the
exact figures come from the ones shipped in ``validator/par/derived``. Goal: High Card Flush
and Four Card Poker under 3 s each; the ratio is against importing rulesub's own
dependencies (``python -c "import rich, typer, pydantic"``), measured in the same run.

    python benchmarks/par_cold.py [--runs N]

Wall and CPU seconds (the child's user and system time) are the medians of N runs. The
numba kernels' own cache lives beside the installed package: a run straight after an install
also fills it once (``rulesub warm`` does so ahead), which this measures apart, as the first
run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESUB = [sys.executable, "-c", "from validator.cli import main; main()"]
GOAL_S = 3.0
COMMANDS: dict[str, list[str]] = {
    "baseline: import rich, typer, pydantic": [
        sys.executable,
        "-c",
        "import rich, typer, pydantic",
    ],
    "par high-card-flush": [*RULESUB, "par", "high-card-flush", "--format", "json"],
    "par four-card-poker": [*RULESUB, "par", "four-card-poker", "--format", "json"],
    "par four-card-poker.yaml (the example)": [
        *RULESUB,
        "par",
        str(ROOT / "rulesubs" / "example" / "four-card-poker.yaml"),
        "--format",
        "json",
    ],
}


def cold(command: list[str]) -> tuple[float, float]:
    """One run with a user cache of its own, empty: (wall, CPU) seconds."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "RULESUB_CACHE_DIR": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True, cwd=ROOT)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    base = None
    for name, command in COMMANDS.items():
        first = cold(command)
        times = [cold(command) for _ in range(runs)]
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        base = base or wall
        goal = (
            ""
            if name.startswith("baseline")
            else (f"; goal {GOAL_S:.0f} s: {'met' if wall < GOAL_S else 'NOT met'}")
        )
        print(
            f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU (median of {runs}, each with an empty "
            f"user cache); {wall / base:.1f}x the baseline; first run {first[0]:.2f} s{goal}"
        )


if __name__ == "__main__":
    main()
