"""Databases for the store's tests: a SQLite file, and a real PostgreSQL server.

``RULESUB_TEST_POSTGRES_URL`` names a PostgreSQL database whose role may create databases
(``.ci/run`` starts Debian's server and exports it); each test gets a database of its own,
dropped afterwards. Without the variable the PostgreSQL half is skipped, with the reason.

A test gets an empty database, which its first command gives this rulesub's schema (the
migrations run), or, asked ``migrated``, one already of this rulesub's schema: a copy of a
database migrated once per test process in exactly that way (the SQLite file copied; on
PostgreSQL ``CREATE DATABASE … TEMPLATE``), the migrations not run again for every test.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from validator import PROJECT_ROOT

POSTGRES_ENV = "RULESUB_TEST_POSTGRES_URL"
BACKENDS = ("sqlite", "postgresql")
EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"


def postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


#: The migrated databases of this test process, by backend: the SQLite file, the
#: PostgreSQL database's name.
_TEMPLATES: dict[str, str] = {}


def _given_the_schema(url: str) -> None:
    """The schema as a command's first transaction on an empty database gives it."""
    from validator.store import Store

    store = Store(url)
    with store.transaction():
        pass
    store.dispose()


def _sqlite_template() -> str:
    if "sqlite" not in _TEMPLATES:
        folder = Path(tempfile.mkdtemp(prefix="rulesub-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "store.sqlite3"
        _given_the_schema(str(path))
        _TEMPLATES["sqlite"] = str(path)
    return _TEMPLATES["sqlite"]


def _postgres_admin() -> tuple[Any, str]:
    from sqlalchemy.engine import make_url

    base = postgres_url()
    if base is None:
        pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV} (.ci/run does)")
    admin = make_url(base).set(drivername="postgresql")
    return admin, admin.render_as_string(hide_password=False)


def _postgres_template() -> str:
    if "postgresql" not in _TEMPLATES:
        import psycopg

        admin, conninfo = _postgres_admin()
        name = f"rulesub_template_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, conninfo, name)
        _given_the_schema(admin.set(database=name).render_as_string(hide_password=False))
        _TEMPLATES["postgresql"] = name
    return _TEMPLATES["postgresql"]


def _drop(conninfo: str, name: str) -> None:
    """The database dropped, whoever is still connected to it: a test's connection left
    open (``FORCE``), or the server's autovacuum, which ``FORCE`` may not end (it belongs to
    no role: PostgreSQL refuses) and a plain ``DROP DATABASE`` ends itself. With both at
    once neither succeeds at first: tried again until autovacuum has gone (seconds)."""
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as conn:
        for _ in range(40):
            try:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except psycopg.errors.InsufficientPrivilege:
                try:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                    return
                except psycopg.errors.ObjectInUse:
                    time.sleep(0.25)
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrated_sqlite(path: Path) -> str:
    """A SQLite file at ``path`` of this rulesub's schema, nothing in it: its URL."""
    shutil.copyfile(_sqlite_template(), path)
    return str(path)


def database(backend: str, tmp_path: Path, *, migrated: bool = False) -> Iterator[str]:
    """A fresh database of ``backend``, empty or (``migrated``) of this rulesub's schema
    and nothing in it: its URL."""
    if backend == "sqlite":
        path = tmp_path / "store.sqlite3"
        yield migrated_sqlite(path) if migrated else str(path)
        return
    admin, conninfo = _postgres_admin()
    import psycopg

    template = f' TEMPLATE "{_postgres_template()}"' if migrated else ""
    name = f"rulesub_t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{template}')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        _drop(conninfo, name)


#: The store's clock in the tests that decide on fixed dates (December 1 and 20, 2026, before
#: the examples' effective date, 2027-01-01): each filing is recorded on this instant, so
#: those decisions are never dated before it was recorded (refused), whatever day the
#: tests run.
RECORDED_AT = dt.datetime(2026, 11, 2, 12, tzinfo=dt.UTC)
#: The office's day in those tests: their decisions, dated up to the end of 2027, are made on
#: or before it (an approval dated after the day it is made is refused).
DECIDED_BY = dt.date(2027, 12, 31)


@contextlib.contextmanager
def pinned_store_clock() -> Iterator[None]:
    """Within, the store records (and writes its audit entries) at ``RECORDED_AT``: in this
    process only (a command run in a process of its own keeps the real clock)."""
    from validator.store import lifecycle

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lifecycle, "utcnow", lambda: RECORDED_AT)
        patch.setattr(lifecycle, "today", lambda now: DECIDED_BY)
        yield


@contextlib.contextmanager
def office_day(day: dt.date = DECIDED_BY) -> Iterator[None]:
    """Within, the office's day is ``day`` (in this process only): an approval dated up to
    it is not after the day it is made, whatever day the tests run; the store's clock
    itself is left as it is."""
    from validator.store import lifecycle

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lifecycle, "today", lambda now: day)
        yield


@pytest.fixture(scope="module")
def decided_by_the_office_day() -> Iterator[None]:
    """A module's decisions, dated up to ``DECIDED_BY``, made on that day (``office_day``),
    its filings recorded at the times the tests give."""
    with office_day():
        yield


@pytest.fixture(scope="module", autouse=True)
def recorded_before_the_decisions() -> Iterator[None]:
    """Imported by a test module, its filings (module fixtures' too) are recorded at
    ``RECORDED_AT``."""
    with pinned_store_clock():
        yield


@pytest.fixture
def store_clock() -> Iterator[None]:
    """A test's filings recorded at ``RECORDED_AT``: named before the fixtures that record
    (``office``), so that theirs are too."""
    with pinned_store_clock():
        yield


def rulesub(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120, own_process: bool = True
) -> subprocess.CompletedProcess[str]:
    """The ``rulesub`` command in a process of its own, as an officer runs it (the
    database always given by ``--db``: ``RULESUB_DB`` is removed unless ``env`` sets it);
    with ``own_process=False``, run as ``main()`` runs it in this process (a second's
    start-up saved: for a walk of many commands, where no process is killed)."""
    full = {k: v for k, v in os.environ.items() if k != "RULESUB_DB"}
    full.update(env or {})
    if not own_process:
        from conftest import in_process

        return in_process(args, full)
    return subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=timeout,
        check=False,
    )


def amended(source: Path, target: Path, *replace: tuple[str, str]) -> Path:
    """A copy of a submission with text replaced: an amendment as an officer writes one."""
    text = source.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text, f"{old!r} is not in {source.name}"
        text = text.replace(old, new)
    target.write_text(text, encoding="utf-8")
    return target


def drop_audit_triggers(conn: Any) -> None:
    """The append-only triggers dropped, as someone with write access to the database can."""
    from sqlalchemy import text

    if conn.dialect.name == "postgresql":
        conn.execute(text("DROP TRIGGER audit_log_append_only ON audit_log"))
    else:
        conn.execute(text("DROP TRIGGER audit_log_no_update"))
        conn.execute(text("DROP TRIGGER audit_log_no_delete"))


def cli(*args: str) -> Any:
    """A store command run in process (Typer's runner): its result, never a traceback."""
    from typer.testing import CliRunner

    from validator.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result
