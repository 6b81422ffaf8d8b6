"""An office for the web view's tests: a store with accounts of every role, and helpers to
sign in and post forms as a browser would (with the session's CSRF token)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from store_db import migrated_sqlite

from validator.store import Store
from validator.store import accounts as acct

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
FLAWED = ROOT / "rulesubs" / "flawed"
HOLDER = "Example Downs Racing & Casino"
OTHER_HOLDER = "Harbour Point Gaming LLC"

PASSWORDS = {
    "rev": "reviewer-secret",
    "view": "viewer-secret",
    "cas": "casino-secret",
    "harbour": "harbour-secret",
}


@dataclass
class Office:
    db: str
    store: Store
    tmp: Path
    ids: dict[str, int] = field(default_factory=dict)


def other_holders_submission(tmp: Path) -> Path:
    """The example, filed by another certificate holder for another facility."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace(f"certificate_holder: {HOLDER}", f"certificate_holder: {OTHER_HOLDER}")
    text = text.replace("Example Downs", "Harbour Point")  # its facility, in its comments too
    assert OTHER_HOLDER in text and "Harbour Point" in text and "Example Downs" not in text
    path = tmp / "harbour-hcf.yaml"
    path.write_text(text, encoding="utf-8")
    return path


_HASHES: dict[str, str] = {}
_hash_password = acct.hash_password


def _memo_hash(password: str) -> str:
    """argon2 costs most of a second on a busy machine: each test password is hashed once
    per test run (a real argon2id hash, with its salt), then reused by every office."""
    if password not in _HASHES:
        _HASHES[password] = _hash_password(password)
    return _HASHES[password]


_VERIFIED: dict[tuple[str, str], BaseException | None] = {}
_hasher = acct._hasher


class _MemoHasher:
    """argon2's own hasher, whose verification of a stored hash against a password is
    computed once per test run and its outcome (a match, or the very exception it raised)
    given again for the same two strings: every office holds the same hashes
    (``_memo_hash``) and signs in with the same passwords, test after test. A pair never
    seen is verified by argon2; nothing else differs."""

    def __init__(self) -> None:
        self._real = _hasher()

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)

    def verify(self, stored: str, password: str) -> bool:
        key = (stored, password)
        if key not in _VERIFIED:
            try:
                self._real.verify(stored, password)
                _VERIFIED[key] = None
            except Exception as e:
                _VERIFIED[key] = e
        failed = _VERIFIED[key]
        if failed is not None:
            raise type(failed)(*failed.args)
        return True


def make_office(tmp: Path, db: str | None = None) -> Office:
    """Accounts of every role and two holders' filings, in ``db`` (else a SQLite file, of
    this rulesub's schema already: ``store_db.migrated_sqlite``)."""
    db = db or migrated_sqlite(tmp / "office.sqlite3")
    store = Store(db)
    acct.hash_password = _memo_hash  # type: ignore[assignment]
    acct._hasher = _MemoHasher
    acct.add(store, "rev", "reviewer", PASSWORDS["rev"], by="test")
    acct.add(store, "view", "viewer", PASSWORDS["view"], by="test")
    acct.add(store, "cas", "casino", PASSWORDS["cas"], holder=HOLDER, by="test")
    acct.add(store, "harbour", "casino", PASSWORDS["harbour"], holder=OTHER_HOLDER, by="test")
    office = Office(db, store, tmp)
    office.ids["example"] = store.record(EXAMPLE, "cas", display="high-card-flush.yaml").id
    office.ids["harbour"] = store.record(
        other_holders_submission(tmp), "harbour", display="harbour-hcf.yaml"
    ).id
    return office


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page carries no CSRF token"
    return found.group(1)


def sign_in(client, name: str, password: str | None = None):  # type: ignore[no-untyped-def]
    page = client.get("/login")
    return client.post(
        "/login",
        data={
            "csrf": csrf_of(page.text),
            "name": name,
            "password": PASSWORDS[name] if password is None else password,
            "next": "/",
        },
        follow_redirects=False,
    )


def signed_in(office: Office, name: str):  # type: ignore[no-untyped-def]
    """A test client of the office's web view, signed in as ``name``."""
    import warnings

    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

    from validator.web import create_app

    client = TestClient(create_app(office.db, secret="s"))
    assert sign_in(client, name).status_code == 303
    return client


def token_of(client) -> str:  # type: ignore[no-untyped-def]
    """The signed-in session's CSRF token, as its pages carry it."""
    return csrf_of(client.get("/").text)


RULESUB = [sys.executable, "-c", "from validator.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(db: str, seconds: float = 60.0, extra: list[str] | None = None) -> Iterator[str]:
    """``rulesub serve --db DB`` (and ``extra`` options) on a free port of 127.0.0.1, as its
    base URL; stopped after.

    The server's log goes to a file, never a pipe no one reads while it serves (a full
    pipe would stop a server that logs much). Where the test fails while it serves, the
    failure carries that log and where each of the server's threads stood (Python's
    fault handler, on SIGABRT): a request that waited for ever shows what held it."""
    port = free_port()
    env = {
        **os.environ,
        "RULESUB_SECRET_KEY": "test-server-key-of-at-least-32-characters",
        "PYTHONFAULTHANDLER": "1",
    }
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*RULESUB, "serve", "--db", db, "--port", str(port), *(extra or [])],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )

        def said() -> str:
            log.seek(0)
            return log.read().decode(errors="replace")

        try:
            deadline = time.monotonic() + seconds
            while True:
                if proc.poll() is not None:
                    raise AssertionError(f"rulesub serve stopped: {said()}")
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if time.monotonic() > deadline:
                    raise AssertionError("rulesub serve did not listen in time")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        except Exception as e:  # a skip is no failure: no log
            if proc.poll() is None:
                proc.send_signal(signal.SIGABRT)  # the fault handler writes every thread's stack
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=15)
            e.add_note(f"rulesub serve's log (the last 20,000 characters):\n{said()[-20000:]}")
            raise
        finally:
            if proc.poll() is None:
                proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
