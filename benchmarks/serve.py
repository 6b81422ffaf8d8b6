"""Time per request of ``rulesub serve``, beside its cheapest page on the same server.

    python benchmarks/serve.py [--runs 20] [--filed 100] [--concurrent 50]
                               [--office 10000] [--audit 100000] [--postgres URL]

Starts ``rulesub serve`` on 127.0.0.1 over a fresh SQLite store (``--postgres``: a fresh
database on that PostgreSQL server, whose role may create databases, dropped afterwards)
holding ``--filed``
submissions (variations of the shipped High Card Flush example, each validated and
recorded), ``--office`` more written straight to the table (copies of one of them under
other facilities, holders, dates and statuses) and ``--audit`` audit entries in all, and
accounts of each role, then measures, one request at a time (the reads in turns, one of
each then again, so that the machine's load weighs on each alike):

- ``GET /login``: the baseline, what any answer of the server costs (no database);
- the home page, a submission's page with its findings, the submissions list (whole and
  filtered: a search, a status, a facility, an order, a later page), ``GET
  /api/submissions`` (likewise), the audit log's page (whole and filtered), the math page
  (its pack cached after the first build), and ``POST /api/submissions`` (validate and
  record a new filing);
- the audit log's CSV export: its first bytes and the whole, and whether it streams
  (no ``Content-Length``: the server never holds the export whole);

and then ``--concurrent`` uploads and as many page loads at once (wall time per request).
Prints the median and best of each in milliseconds and the median's ratio to the baseline's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
RULESUB = [sys.executable, "-c", "from validator.cli import main; main()"]
PASSWORD = "benchmark-password"


def filing(i: int) -> bytes:
    return f"{EXAMPLE.read_text(encoding='utf-8')}# filing {i}\n".encode()


def seed(db: str, count: int) -> tuple[str, int]:
    """A store with ``count`` filings; the casino account's API token and one filing's id."""
    from validator.store import Store
    from validator.store import accounts as acct

    store = Store(db)
    acct.add(store, "rev", "reviewer", PASSWORD, by="benchmark")
    acct.add(
        store, "cas", "casino", PASSWORD, holder="Example Downs Racing & Casino", by="benchmark"
    )
    token = acct.issue_token(store, "cas", by="benchmark")
    with tempfile.TemporaryDirectory() as tmp:
        first = 0
        for i in range(count):
            path = Path(tmp) / f"hcf-{i}.yaml"
            path.write_bytes(filing(i))
            rec = store.record(path, "cas", display=path.name)
            first = first or rec.id
    return token, first


FACILITIES = [f"Facility {i:02d}" for i in range(40)]
HOLDERS = [f"Holder {i} Gaming LLC" for i in range(8)]


def bulk(db: str, sid: int, filings: int, entries: int) -> None:
    """``filings`` copies of filing ``sid`` under other facilities, holders, dates and
    statuses, and audit entries up to ``entries`` in all, written in a few transactions."""
    import datetime as dt
    import hashlib
    import json

    from sqlalchemy import func, insert, select

    from validator.store import Store
    from validator.store.chain import GENESIS, entry_hash
    from validator.store.schema import audit_log, submissions

    store = Store(db)
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    statuses = ["submitted", "approved", "rejected", "superseded", "withdrawn"]
    with store.transaction() as conn:
        row = conn.execute(select(submissions).where(submissions.c.id == sid)).one()._asdict()
        row.pop("id")
        rows = []
        for i in range(filings):
            content = row["content"] + f"# office copy {i}\n".encode()
            status = statuses[i % len(statuses)]
            rows.append(
                {
                    **row,
                    "content": content,
                    "sha256": hashlib.sha256(content).hexdigest(),
                    "filename": f"filing-{i}.yaml",
                    "facility": FACILITIES[i % len(FACILITIES)],
                    "certificate_holder": HOLDERS[i % len(HOLDERS)],
                    "effective": dt.date(2026, 1, 1) + dt.timedelta(days=i % 700),
                    "recorded_at": start + dt.timedelta(minutes=53 * i),
                    # one approval per facility, game and date: the rest are decided otherwise
                    "status": "submitted" if status == "approved" and i >= 1400 else status,
                }
            )
        conn.execute(insert(submissions), rows)
        have = conn.execute(select(func.count()).select_from(audit_log)).scalar() or 0
        events: list[dict[str, Any]] = [
            {
                "at": start + dt.timedelta(minutes=5 * i),
                "actor": ["rev", "cas", "ana", "bo"][i % 4],
                "action": ["record", "approve", "reject", "withdraw"][i % 4],
                "submission_id": 1 + i % max(1, filings),
                "detail": json.dumps({"reason": "benchmark", "note": None, "waived": []}),
            }
            for i in range(max(0, entries - have))
        ]
        # each entry chained to the one before it, as the store appends them
        prev = conn.execute(
            select(audit_log.c.entry_hash).order_by(audit_log.c.id.desc()).limit(1)
        ).scalar()
        prev = prev or GENESIS
        for event in events:
            event["prev_hash"] = prev
            prev = event["entry_hash"] = entry_hash(
                event["at"],
                event["actor"],
                event["action"],
                event["submission_id"],
                event["detail"],
                prev,
            )
        for at in range(0, len(events), 20_000):
            conn.execute(insert(audit_log), events[at : at + 20_000])
    if store.engine.dialect.name == "postgresql":
        # what autovacuum does to tables after such a load, before the office reads them:
        # their statistics, and the visibility map that lets a list read an index alone
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for table in ("submissions", "submissions_text", "audit_log"):
                conn.exec_driver_sql(f"VACUUM ANALYZE {table}")
    store.dispose()


@contextmanager
def fresh_store(tmp: str, postgres: str | None) -> Iterator[str]:
    """A new, empty store: a SQLite file in ``tmp``, or a database of its own on the
    PostgreSQL server ``postgres`` (dropped afterwards)."""
    if postgres is None:
        yield str(Path(tmp) / "bench.sqlite3")
        return
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(postgres).set(drivername="postgresql")
    conninfo = admin.render_as_string(hide_password=False)
    name = f"rulesub_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def streamed(client: object, path: str) -> tuple[float, float, bool]:
    """Seconds to the first bytes of ``path``, to the last, and whether it streamed."""
    start = time.perf_counter()
    with client.stream("GET", path) as answer:  # type: ignore[attr-defined]
        assert answer.status_code == 200, answer.status_code
        first = None
        for _ in answer.iter_bytes():
            first = first or time.perf_counter() - start
        whole = time.perf_counter() - start
        return first or whole, whole, "content-length" not in answer.headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def timed(call: Callable[[int], object], runs: int) -> list[float]:
    out = []
    for i in range(runs):
        start = time.perf_counter()
        call(i)
        out.append(time.perf_counter() - start)
    return out


def interleaved(
    calls: list[tuple[str, Callable[[int], object]]], runs: int
) -> list[tuple[str, list[float]]]:
    """Each call timed ``runs`` times, in turns (one of each, then again): a machine
    busier at one moment than at another weighs on every request alike, the baseline's
    too, so their ratios hold."""
    times: dict[str, list[float]] = {label: [] for label, _ in calls}
    for i in range(runs):
        for label, call in calls:
            start = time.perf_counter()
            call(i)
            times[label].append(time.perf_counter() - start)
    return list(times.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--filed", type=int, default=100)
    parser.add_argument("--office", type=int, default=10_000)
    parser.add_argument("--audit", type=int, default=100_000)
    parser.add_argument("--concurrent", type=int, default=50)
    parser.add_argument("--postgres", metavar="URL", default=None)
    args = parser.parse_args()

    import httpx

    with (
        tempfile.TemporaryDirectory(prefix="rulesub-bench-") as tmp,
        fresh_store(tmp, args.postgres) as db,
    ):
        token, sid = seed(db, args.filed)
        bulk(db, sid, args.office, args.audit)
        port = free_port()
        env = {**os.environ, "RULESUB_SECRET_KEY": "benchmark"}
        proc = subprocess.Popen(
            [*RULESUB, "serve", "--db", db, "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.1)
            page = httpx.Client(base_url=base, timeout=120)
            login = page.get("/login").text
            csrf = re.search(r'name="csrf" value="([^"]+)"', login).group(1)  # type: ignore[union-attr]
            page.post(
                "/login", data={"csrf": csrf, "name": "rev", "password": PASSWORD, "next": "/"}
            )
            api = httpx.Client(
                base_url=base, timeout=120, headers={"Authorization": f"Bearer {token}"}
            )
            page.get(f"/submissions/{sid}/math")  # the pack's first build is not timed

            def ok(response: httpx.Response) -> httpx.Response:
                assert response.status_code < 300, (response.status_code, response.text[:200])
                return response

            filtered = "/submissions?q=Gaming&status=submitted&facility=Facility+07&sort=recorded"
            audit_filtered = "/audit?actor=ana&action=reject&page=3"
            page.get(filtered)  # the games' names are read once, on a first search
            reads: list[tuple[str, Callable[[int], object]]] = [
                ("GET /login (baseline)", lambda i: ok(page.get("/login"))),
                ("GET / (pending, facilities)", lambda i: ok(page.get("/"))),
                ("GET /submissions?q=…&status=…&facility=…", lambda i: ok(page.get(filtered))),
                (
                    "GET /submissions?q=… (a search)",
                    lambda i: ok(page.get("/submissions?q=filing-12")),
                ),
                (
                    "GET /submissions?status=…&page=40",
                    lambda i: ok(page.get("/submissions?status=rejected&page=40")),
                ),
                ("GET /api/submissions?q=…&status=…", lambda i: ok(api.get("/api" + filtered))),
                ("GET /audit (newest 50)", lambda i: ok(page.get("/audit"))),
                ("GET /audit?actor=…&action=…&page=3", lambda i: ok(page.get(audit_filtered))),
                (
                    "GET /audit?submission=…",
                    lambda i: ok(page.get(f"/audit?submission={sid + 7}")),
                ),
                ("GET /submissions (newest 50)", lambda i: ok(page.get("/submissions"))),
                (
                    "GET /submissions/ID (findings inline)",
                    lambda i: ok(page.get(f"/submissions/{sid}")),
                ),
                (
                    "GET /submissions/ID/math (cached pack)",
                    lambda i: ok(page.get(f"/submissions/{sid}/math")),
                ),
                ("GET /api/submissions", lambda i: ok(api.get("/api/submissions"))),
            ]
            measures = interleaved(reads, args.runs)
            measures.append(
                (
                    "POST /api/submissions (validate, record)",
                    timed(
                        lambda i: ok(api.post("/api/submissions", content=filing(10_000 + i))),
                        args.runs,
                    ),
                )
            )

            async def burst() -> float:
                n = args.concurrent
                async with httpx.AsyncClient(
                    base_url=base,
                    timeout=300,
                    headers={"Authorization": f"Bearer {token}"},
                    cookies=page.cookies,
                ) as client:
                    start = time.perf_counter()
                    answers = await asyncio.gather(
                        *[
                            client.post("/api/submissions", content=filing(20_000 + i))
                            for i in range(n)
                        ],
                        *[client.get(f"/submissions/{sid}") for _ in range(n)],
                    )
                    wall = time.perf_counter() - start
                assert all(a.status_code < 300 for a in answers)
                return wall / (2 * n)

            per = asyncio.run(burst())
            first_bytes, whole, streams = streamed(page, "/audit?format=csv")
        finally:
            proc.terminate()
            proc.wait(timeout=15)

    floor = statistics.median(measures[0][1])
    total = args.filed + args.office
    print(
        f"rulesub serve on 127.0.0.1 over {'PostgreSQL' if args.postgres else 'SQLite'}, "
        f"{total:,} filings, {args.audit:,} audit entries, {args.runs} runs each"
    )
    print(f"{'request':<42} {'median ms':>10} {'best ms':>9} {'× baseline':>11}")
    for label, times in measures:
        med = statistics.median(times)
        print(f"{label:<42} {med * 1000:>10.1f} {min(times) * 1000:>9.1f} {med / floor:>11.1f}")
    print(
        f"{args.concurrent} uploads + {args.concurrent} page loads at once: "
        f"{per * 1000:.1f} ms wall per request ({per / floor:.1f} × baseline)"
    )
    print(
        f"GET /audit?format=csv ({args.audit:,} entries): first bytes after "
        f"{first_bytes * 1000:.0f} ms, whole after {whole * 1000:.0f} ms, "
        + ("streamed (no Content-Length)" if streams else "NOT streamed")
    )
    worst = max(
        statistics.median(t) / floor
        for label, t in measures
        if label.startswith(("GET /submissions?", "GET /audit"))
    )
    print(f"the filtered lists and the audit pages: at most {worst:.1f} × baseline (aim: ≤ 5)")


if __name__ == "__main__":
    main()
