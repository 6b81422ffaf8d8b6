"""Databases for the store's tests: a SQLite file, and a real PostgreSQL server.

``RULESUB_TEST_POSTGRES_URL`` names a PostgreSQL database whose role may create databases
(``.ci/run`` starts Debian's server and exports it); each test gets a database of its own,
dropped afterwards. Without the variable the PostgreSQL half is skipped, with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
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


def database(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of ``backend``: its URL."""
    if backend == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    base = postgres_url()
    if base is None:
        pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV} (.ci/run does)")
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"rulesub_t_{uuid.uuid4().hex[:12]}"
    admin = make_url(base).set(drivername="postgresql")
    conninfo = admin.render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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


def cli(*args: str) -> Any:
    """A store command run in process (Typer's runner): its result, never a traceback."""
    from typer.testing import CliRunner

    from validator.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result
