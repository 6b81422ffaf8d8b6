"""A bounded load on ``rulesub serve`` on 127.0.0.1: 50 uploads and 50 page loads at once
lose no submission and answer every request (issue 15).

Nothing here times the server: its speed is measured in ``benchmarks/``. A request is
given ``ANSWERED_WITHIN`` seconds, the bound past which a server is hung rather than slow on
a machine busy with the rest of the suite; one that waits so long fails with the server's
log and where each of its threads stood (``webtools.served``)."""

from __future__ import annotations

import asyncio
import hashlib
import warnings
from pathlib import Path

import pytest
from webtools import EXAMPLE, PASSWORDS, csrf_of, make_office, served

warnings.filterwarnings("ignore", message=".*httpx.*")
httpx = pytest.importorskip("httpx")

from validator.store import accounts as acct  # noqa: E402

UPLOADS = 50
PAGE_LOADS = 50
ANSWERED_WITHIN = 360.0


def variants(count: int) -> list[bytes]:
    """``count`` distinct filings of the example: the same rules, each its own bytes."""
    text = EXAMPLE.read_text(encoding="utf-8")
    return [f"{text}# filing {i} of the load test\n".encode() for i in range(count)]


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_fifty_concurrent_uploads_and_page_loads_lose_nothing(tmp_path: Path) -> None:
    office = make_office(tmp_path)
    token = acct.issue_token(office.store, "cas", by="test")
    bodies = variants(UPLOADS)
    sid = office.ids["example"]

    async def load(base: str) -> tuple[list[httpx.Response], list[httpx.Response]]:
        limits = httpx.Limits(max_connections=UPLOADS + PAGE_LOADS)
        async with (
            httpx.AsyncClient(base_url=base, timeout=ANSWERED_WITHIN, limits=limits) as api,
            httpx.AsyncClient(base_url=base, timeout=ANSWERED_WITHIN, limits=limits) as pages,
        ):
            login = await pages.get("/login")
            signed = await pages.post(
                "/login",
                data={
                    "csrf": csrf_of(login.text),
                    "name": "rev",
                    "password": PASSWORDS["rev"],
                    "next": "/",
                },
            )
            assert signed.status_code == 303, signed.text
            paths = ["/", "/submissions", f"/submissions/{sid}", f"/submissions/{sid}/math"]
            uploads = [
                api.post(
                    f"/api/submissions?name=load-{i}.yaml",
                    content=body,
                    headers={"Authorization": f"Bearer {token}"},
                )
                for i, body in enumerate(bodies)
            ]
            loads = [pages.get(paths[i % len(paths)]) for i in range(PAGE_LOADS)]
            answered = await asyncio.gather(*uploads, *loads)
            return list(answered[:UPLOADS]), list(answered[UPLOADS:])

    with served(office.db) as base:
        uploaded, loaded = asyncio.run(load(base))

    assert [r.status_code for r in uploaded] == [201] * UPLOADS, uploaded[0].text
    assert [r.status_code for r in loaded] == [200] * PAGE_LOADS
    assert all(
        "Submission #" in r.text or "Facilities" in r.text or "Submissions" in r.text
        for r in loaded
    )
    ids = [r.json()["id"] for r in uploaded]
    assert len(set(ids)) == UPLOADS
    stored = {r.sha256: r for r in office.store.history()}
    for body, answer in zip(bodies, uploaded, strict=True):
        sha = hashlib.sha256(body).hexdigest()
        assert answer.json()["sha256"] == sha
        assert stored[sha].id == answer.json()["id"] and stored[sha].status == "submitted"
        assert office.store.get(stored[sha].id).content == body
    records = [e for e in office.store.events() if e.action == "record"]
    assert len(records) == UPLOADS + 2  # the office's two, and every upload once
