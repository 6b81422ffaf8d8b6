"""Time per request of ``rulesub serve``, beside its cheapest page on the same server.

    python benchmarks/serve.py [--runs 20] [--filed 100] [--concurrent 50]

Starts ``rulesub serve`` on 127.0.0.1 over a fresh SQLite store holding ``--filed``
submissions (variations of the shipped High Card Flush example) and accounts of each role,
then measures, one request at a time:

- ``GET /login``: the baseline, what any answer of the server costs (no database);
- the facilities page, a submission's page with its findings, the submissions list,
  ``GET /api/submissions``, the math page (its pack cached after the first build), and
  ``POST /api/submissions`` (validate and record a new filing);

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
from collections.abc import Callable
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--filed", type=int, default=100)
    parser.add_argument("--concurrent", type=int, default=50)
    args = parser.parse_args()

    import httpx

    with tempfile.TemporaryDirectory(prefix="rulesub-bench-") as tmp:
        db = str(Path(tmp) / "bench.sqlite3")
        token, sid = seed(db, args.filed)
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

            measures: list[tuple[str, list[float]]] = [
                ("GET /login (baseline)", timed(lambda i: ok(page.get("/login")), args.runs)),
                ("GET / (facilities)", timed(lambda i: ok(page.get("/")), args.runs)),
                (
                    f"GET /submissions ({args.filed} rows)",
                    timed(lambda i: ok(page.get("/submissions")), args.runs),
                ),
                (
                    "GET /submissions/ID (findings inline)",
                    timed(lambda i: ok(page.get(f"/submissions/{sid}")), args.runs),
                ),
                (
                    "GET /submissions/ID/math (cached pack)",
                    timed(lambda i: ok(page.get(f"/submissions/{sid}/math")), args.runs),
                ),
                (
                    "GET /api/submissions",
                    timed(lambda i: ok(api.get("/api/submissions")), args.runs),
                ),
                (
                    "POST /api/submissions (validate, record)",
                    timed(
                        lambda i: ok(api.post("/api/submissions", content=filing(10_000 + i))),
                        args.runs,
                    ),
                ),
            ]

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
        finally:
            proc.terminate()
            proc.wait(timeout=15)

    floor = statistics.median(measures[0][1])
    print(f"rulesub serve on 127.0.0.1, {args.filed} filings, {args.runs} runs each")
    print(f"{'request':<42} {'median ms':>10} {'best ms':>9} {'× baseline':>11}")
    for label, times in measures:
        med = statistics.median(times)
        print(f"{label:<42} {med * 1000:>10.1f} {min(times) * 1000:>9.1f} {med / floor:>11.1f}")
    print(
        f"{args.concurrent} uploads + {args.concurrent} page loads at once: "
        f"{per * 1000:.1f} ms wall per request ({per / floor:.1f} × baseline)"
    )


if __name__ == "__main__":
    main()
