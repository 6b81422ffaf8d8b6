"""What the store costs: recording 10,000 submissions and reading their history (SQLite).

    python benchmarks/store.py [--submissions 10000] [--sizes 100,1000,10000]

Measures, in one run on one machine:

- the baseline: the validator alone on each file (``validate_file``, what ``record`` must
  do anyway), and a bare ``sqlite3`` insert of the same bytes, one transaction each (what
  any durable store pays);
- ``Store.record`` of every file (validate, hash, one transaction with its audit entry):
  per operation, and as a ratio to each baseline;
- ``Store.history()`` (the whole timeline) and ``Store.history(facility=…)`` as the store
  grows through the sizes given (10^2, 10^3, 10^4): per query, per row, and the ratio to
  the smallest size.

Prints figures, never asserts them. The submissions are the shipped examples, each made
distinct by its facility (200 facilities) and effective date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import sqlite3
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rulesubs" / "example"
FACILITIES = 200


def generate(directory: Path, count: int) -> list[Path]:
    """``count`` distinct submissions: the examples with a facility and an effective date
    each."""
    bases = [
        p.read_text(encoding="utf-8")
        for p in sorted(EXAMPLES.glob("*.yaml"))
        if "facility: Example Downs" in p.read_text(encoding="utf-8")
    ]
    out = []
    start = dt.date(2027, 1, 1)
    for i in range(count):
        text = bases[i % len(bases)]
        facility = f"Facility {i % FACILITIES:03d}"
        effective = start + dt.timedelta(days=i // FACILITIES)
        text = text.replace("facility: Example Downs", f"facility: {facility}")
        text = text.replace("effective: 2027-01-01", f"effective: {effective.isoformat()}")
        path = directory / f"sub-{i:05d}.yaml"
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def per_op(seconds: float, n: int) -> str:
    return f"{seconds / n * 1000:8.3f} ms/op"


def best(fn: object, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--submissions", type=int, default=10_000)
    ap.add_argument("--sizes", default="100,1000,10000")
    args = ap.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    n = max(args.submissions, sizes[-1])

    from validator.checks import validate_file
    from validator.store import Store

    with tempfile.TemporaryDirectory(prefix="rulesub-bench-") as tmp:
        root = Path(tmp)
        (root / "subs").mkdir()
        files = generate(root / "subs", n)
        print(f"{n:,} submissions, {FACILITIES} facilities, one SQLite file")

        # the baselines
        for p in files[:20]:  # warm: the compiled facts of every game loaded
            validate_file(p)
        t = time.perf_counter()
        for p in files:
            validate_file(p)
        validate_s = time.perf_counter() - t
        raw = sqlite3.connect(root / "raw.sqlite3", isolation_level=None)
        raw.execute("CREATE TABLE s (sha TEXT UNIQUE, content BLOB, at TEXT)")
        t = time.perf_counter()
        for p in files:
            data = p.read_bytes()
            raw.execute("BEGIN IMMEDIATE")
            raw.execute(
                "INSERT INTO s VALUES (?, ?, ?)",
                (hashlib.sha256(data).hexdigest(), data, dt.datetime.now(dt.UTC).isoformat()),
            )
            raw.execute("COMMIT")
        insert_s = time.perf_counter() - t
        raw.close()

        # record, growing the store; history at each size
        store = Store(str(root / "store.sqlite3"))
        store.upgrade("bench")
        recorded = 0
        record_s = 0.0
        rows: list[tuple[int, float, float]] = []
        for size in sizes:
            t = time.perf_counter()
            for p in files[recorded:size]:
                store.record(p, "bench")
            record_s += time.perf_counter() - t
            recorded = size
            whole = best(store.history, runs=3)
            one = best(lambda: store.history(facility="Facility 007"), runs=5)
            rows.append((size, whole, one))
        if recorded < n:
            t = time.perf_counter()
            for p in files[recorded:]:
                store.record(p, "bench")
            record_s += time.perf_counter() - t
        store.dispose()

    print()
    print(f"validate_file (baseline 1)   {per_op(validate_s, n)}")
    print(f"sqlite3 insert (baseline 2)  {per_op(insert_s, n)}")
    print(
        f"Store.record                 {per_op(record_s, n)}   "
        f"= {record_s / validate_s:.2f}x validate, {record_s / insert_s:.2f}x a bare insert, "
        f"{(record_s - validate_s) / n * 1000:.3f} ms/op beyond validating"
    )
    print()
    print("history as the store grows   whole timeline            one facility")
    base_whole, base_one = rows[0][1], rows[0][2]
    for size, whole, one in rows:
        print(
            f"  {size:>7,} submissions   {whole * 1000:9.2f} ms "
            f"({whole / size * 1e6:6.1f} µs/row, {whole / base_whole:6.1f}x)   "
            f"{one * 1000:8.2f} ms ({one / base_one:5.1f}x)"
        )
    print("\n(history: the best of 3 runs for the timeline, of 5 for one facility)")


if __name__ == "__main__":
    main()
