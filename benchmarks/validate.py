"""How fast ``rulesub validate`` answers, beside ``python -c pass`` on the same machine.

    python benchmarks/validate.py [--runs 5] [--files 1000]

Measures, each in a fresh interpreter as a user runs it:

- ``python -c pass``: the baseline, what any Python command pays to start;
- ``rulesub validate`` on one submission, cold (budget 0.5 s wall);
- ``rulesub validate rulesubs/example/``: the shipped examples, eight games;
- ``rulesub validate`` on 1,000 generated submissions in one call (budget 5 s wall).

Prints the best and median wall time of each and its ratio to the baseline's best. The
generated submissions vary the shipped examples (positions, limits, paytable letters,
progressive wager amounts and seeds, payout limits), a third of them breaking a rule.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rulesubs" / "example"
RULESUB = [sys.executable, "-c", "from validator.cli import main; main()"]


def wall(cmd: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return times


def generate(directory: Path, count: int, seed: int = 2027) -> None:
    """``count`` submissions varied from the examples, written as YAML."""
    from ruamel.yaml import YAML

    from validator.checks.facts import facts_for
    from validator.loader import load_yaml

    rng = random.Random(seed)
    bases = [load_yaml(p).data for p in sorted(EXAMPLES.glob("*.yaml"))]
    yaml = YAML()
    for i in range(count):
        data: dict[str, Any] = _copy(rng.choice(bases))
        facts = facts_for(data["game"])
        data["facility"] = f"Facility {i}"
        data["table"]["min_wager"] = rng.choice([5, 10, 15, 25, 50, 100])
        data["table"]["max_wager"] = rng.choice([500, 1000, "$2,500", "$5,000"])
        data["table"]["positions"] = rng.randint(1, 8)
        for table in list(data.get("paytables") or {}):
            letters = facts.table(table).letters
            data["paytables"][table] = rng.choice([*letters, "Z"] if i % 3 == 0 else letters)
        if data.get("payout_limit") is not None:
            data["payout_limit"] = rng.choice([40000, 50000, 75000, "$100,000"])
        for progressive in (data.get("progressives") or {}).values():
            for meter in progressive["meters"].values():
                if "seed" in meter and i % 3 == 1:
                    meter["seed"] = rng.choice([1000, 5000, 25000, 30000, 50000])
        with (directory / f"submission-{i:04d}.yaml").open("w", encoding="utf-8") as f:
            yaml.dump(data, f)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()

    one = EXAMPLES / "four-card-poker.yaml"
    work = Path(tempfile.mkdtemp(prefix="rulesub-bench-"))
    try:
        generate(work, args.files)
        rows = [
            ("python -c pass", wall([sys.executable, "-c", "pass"], args.runs), None),
            (
                f"validate {one.relative_to(ROOT)} (cold)",
                wall([*RULESUB, "validate", str(one)], args.runs),
                0.5,
            ),
            (
                f"validate {EXAMPLES.relative_to(ROOT)}/ (8 games, cold)",
                wall([*RULESUB, "validate", str(EXAMPLES)], args.runs),
                None,
            ),
            (
                f"validate {args.files} generated submissions, one call",
                wall([*RULESUB, "validate", "--format", "json", str(work)], max(1, args.runs // 2)),
                5.0,
            ),
        ]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    baseline = min(rows[0][1])
    print(f"{'what':<58} {'best s':>7} {'median s':>9} {'× baseline':>11} {'budget':>8}")
    for name, times, budget in rows:
        best, median = min(times), statistics.median(times)
        verdict = "" if budget is None else ("  ok" if best <= budget else "  OVER")
        shown = f"{budget:.1f} s" if budget is not None else "-"
        print(
            f"{name:<58} {best:>7.3f} {median:>9.3f} {best / baseline:>10.1f}× {shown:>8}{verdict}"
        )


if __name__ == "__main__":
    main()
