"""Start-up of the commands a user runs most, as ratios against importing rulesub's own
dependencies (``python -c "import rich, typer, pydantic"``) in the same run.

    python benchmarks/startup.py [--runs N]

Each command runs once to fill the user's cache (as any second run finds it), then N times;
the median wall time of each is divided by the baseline's median.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
RULESUB = [sys.executable, "-c", "from validator.cli import main; main()"]

COMMANDS: dict[str, list[str]] = {
    "baseline: import rich, typer, pydantic": [
        sys.executable,
        "-c",
        "import rich, typer, pydantic",
    ],
    "rulesub rules": [*RULESUB, "rules"],
    "rulesub rules CODE": [*RULESUB, "rules", "four-card-poker/max-positions"],
    "rulesub games list": [*RULESUB, "games", "list"],
    "rulesub validate --format json (1 file)": [
        *RULESUB,
        "validate",
        "--format",
        "json",
        str(EXAMPLE),
    ],
    "rulesub validate --format sarif (1 file)": [
        *RULESUB,
        "validate",
        "--format",
        "sarif",
        str(EXAMPLE),
    ],
}


def timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, check=False)
    return time.perf_counter() - start


def main() -> None:
    import os

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "RULESUB_CACHE_DIR": cache, "COLUMNS": "100"}
        medians: dict[str, float] = {}
        for name, cmd in COMMANDS.items():
            timed(cmd, env)  # fills the cache, as any earlier run would have
            medians[name] = statistics.median(timed(cmd, env) for _ in range(runs))
    base = medians["baseline: import rich, typer, pydantic"]
    print(f"{'command':44} {'median':>9} {'× baseline':>11}")
    for name, t in medians.items():
        print(f"{name:44} {t * 1000:7.0f}ms {t / base:10.1f}×")


if __name__ == "__main__":
    main()
