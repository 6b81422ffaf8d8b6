"""Opening the store: which database, its engine, its schema version, its failures.

The database is ``--db URL``, else ``RULESUB_DB``, else a SQLite file in the user's data
directory (``default_path()``: ``~/.local/share/rulesub/rulesub.sqlite3`` on Linux, as
platformdirs places it elsewhere). A bare path is a SQLite file; ``postgresql://…`` is
PostgreSQL through psycopg 3.

A database is never reinterpreted: one whose schema is behind this rulesub's is refused
(``StoreError`` with the ``rulesub db upgrade`` hint) until that command migrates it; one
ahead of it (a newer rulesub wrote it) is refused too. Only an empty database is given
the current schema without being asked, since there is nothing in it to reinterpret.

Every failure of the database itself (locked, read-only, not a database, unreachable)
becomes a ``StoreError`` with a message for the officer; the commands exit 2 on it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url

from validator.errors import RulesubError

ENV_DB = "RULESUB_DB"
#: How long a writer waits for another one's lock before giving up, seconds.
ENV_TIMEOUT = "RULESUB_DB_TIMEOUT"
DEFAULT_TIMEOUT = 15.0
FILE_NAME = "rulesub.sqlite3"
UPGRADE_HINT = "run `rulesub db upgrade` to migrate it"
#: An arbitrary, fixed key: PostgreSQL's advisory lock serialising schema changes.
SCHEMA_LOCK = 7_145_514
#: The execution option of a connection that only reads.
READING = "rulesub_reading"
#: A reading transaction's audit head, read with its schema version: in the connection's
#: ``info``, as ``(transaction, id)``, so that it is this transaction's only.
AUDIT_HEAD = "rulesub_audit_head"
#: SQLite's rollback journals, one of which a store's file is kept in between commands.
ROLLBACK_JOURNALS = ("delete", "truncate", "persist")


class StoreError(RulesubError):
    """The database cannot be used as asked: a message for the officer, exit 2."""


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("rulesub", appauthor=False) / FILE_NAME


def resolve_url(db: str | None) -> str:
    """``--db``, else ``RULESUB_DB``, else the default SQLite file, as a SQLAlchemy URL."""
    raw = db or os.environ.get(ENV_DB) or str(default_path())
    if re.match(r"^[a-z][a-z0-9+]*://", raw):
        url = make_url(raw)
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        elif url.drivername == "sqlite":
            url = url.set(drivername="sqlite+pysqlite")
        if url.get_backend_name() not in ("sqlite", "postgresql"):
            raise StoreError(f"--db {raw}: rulesub stores in SQLite or PostgreSQL only")
        return url.render_as_string(hide_password=False)
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]+:", raw):
        # a URI that is not a database URL (`file:/x`, `sqlite:x`): never a file of that name
        raise StoreError(
            f"--db {raw}: not a database URL nor a file path; give a SQLite file path "
            "(e.g. ./rulesub.sqlite3) or postgresql://USER@HOST/DATABASE"
        )
    return f"sqlite+pysqlite:///{Path(raw).expanduser()}"


def describe(url: str) -> str:
    """The database named for a message: a file path, or the URL without its password."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return u.render_as_string(hide_password=True)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database (``file:…?mode=ro&uri=true`` URLs included)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    if u.query.get("uri") == "true" and u.database.startswith("file:"):
        return Path(u.database.removeprefix("file:"))
    return Path(u.database)


def timeout() -> float:
    try:
        return float(os.environ.get(ENV_TIMEOUT, DEFAULT_TIMEOUT))
    except ValueError:
        raise StoreError(f"{ENV_TIMEOUT} must be a number of seconds") from None


def _driver_installed(url: str) -> None:
    """PostgreSQL is an extra of the install: without its driver, said how to add it, where
    SQLAlchemy's import error was a traceback."""
    import importlib.util

    driver = make_url(url).get_driver_name()
    if importlib.util.find_spec(driver) is not None:
        return
    if driver == "psycopg":
        raise StoreError(
            f"--db {describe(url)}: PostgreSQL needs the psycopg package, which this install "
            "lacks: pip install 'rulesub[postgres]'"
        )
    raise StoreError(
        f"--db {describe(url)}: names the {driver} driver, which this install lacks; "
        "write postgresql://… to use psycopg (pip install 'rulesub[postgres]')"
    )


def make_engine(url: str, *, pooled: bool = False) -> Engine:
    """An engine whose transactions take the write lock first (SQLite: ``BEGIN
    IMMEDIATE``), so two writers queue instead of failing halfway; a connection with the
    ``READING`` execution option only reads (``BEGIN``), beside a writer.

    A command opens a connection for each transaction and closes it after (nothing stays
    open between commands); ``pooled``: a long-running process (``rulesub serve``) keeps
    its connections open in a pool and hands them from one transaction to the next."""
    wait = timeout()
    pool = _pool(pooled)
    if make_url(url).get_backend_name() == "sqlite":
        # a pooled connection serves one thread at a time, whichever thread takes it
        args: dict[str, Any] = {"timeout": wait} | ({"check_same_thread": False} if pooled else {})
        engine = create_engine(url, connect_args=args, **pool)

        @event.listens_for(engine, "connect")
        def _connect(dbapi: Any, _record: Any) -> None:
            dbapi.isolation_level = None  # rulesub says BEGIN itself
            cursor = dbapi.cursor()
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            reading = conn.get_execution_options().get(READING, False)
            conn.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

        return engine
    _driver_installed(url)
    return create_engine(
        url,
        **pool,
        pool_pre_ping=pooled,  # a connection the server dropped meanwhile is replaced
        connect_args={
            "connect_timeout": max(1, int(wait)),
            # times read in UTC, whatever the server's or the database's own zone: psycopg
            # gives a timestamptz in the session's zone, which a page then printed as "UTC"
            "options": f"-c lock_timeout={int(wait * 1000)} -c TimeZone=UTC",
        },
    )


#: A pooled engine's connections: kept open, and opened beyond them at a busy moment.
POOL_SIZE = 8
POOL_OVERFLOW = 32


def _pool(pooled: bool) -> dict[str, Any]:
    from sqlalchemy.pool import NullPool, QueuePool

    if not pooled:
        return {"poolclass": NullPool}
    return {"poolclass": QueuePool, "pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW}


def write_ahead(conn: Connection) -> str | None:
    """SQLite: journal a run of many commits in a write-ahead log; the journal mode it
    replaced (for ``write_back``), or ``None`` where nothing changed.

    Each commit stays durable: ``synchronous = FULL`` syncs the log to disk at every
    commit, so a filing ``record`` reported survives a crash or a power cut, as in the
    rollback journal; it costs one sync per commit where the rollback journal costs
    several. Where the mode cannot change (read-only, not a database, another program
    holding it) nothing changes and the run is only slower."""
    if conn.dialect.name != "sqlite":
        return None
    import sqlite3

    raw = conn.connection.dbapi_connection
    assert raw is not None
    try:
        before = str(raw.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        if before not in ROLLBACK_JOURNALS:
            return None
        now = str(raw.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        raw.execute("PRAGMA synchronous = FULL")
    except sqlite3.Error:  # the transactions that follow say what is wrong with the database
        return None
    return before if now == "wal" else None


def write_back(conn: Connection, mode: str | None) -> None:
    """Back to the journal mode ``write_ahead`` replaced: the log checkpointed into the
    database file and removed, so the file alone is the whole store again. Where another
    program reads it meanwhile, it stays in write-ahead mode (as durable) until next time."""
    import sqlite3

    if mode not in ROLLBACK_JOURNALS:
        return
    raw = conn.connection.dbapi_connection
    assert raw is not None
    with suppress(sqlite3.Error):
        raw.execute(f"PRAGMA journal_mode = {mode}")


def problem(e: BaseException, url: str) -> StoreError:
    """What went wrong with the database, said for the officer."""
    where = describe(url)
    text = str(getattr(e, "orig", None) or e).strip().splitlines()[0] if str(e) else repr(e)
    low = text.lower()
    if "locked" in low or "lock timeout" in low or "canceling statement due to lock" in low:
        return StoreError(
            f"{where}: the database is locked by another program (waited {timeout():g} s, "
            f"{ENV_TIMEOUT} sets how long); nothing was changed, try again"
        )
    if "readonly" in low or "read-only" in low or "read only" in low:
        return StoreError(
            f"{where}: the database is read-only here; nothing was changed "
            "(use a copy you may write, or ask for write access)"
        )
    if "not a database" in low or "malformed" in low or "file is encrypted" in low:
        return StoreError(
            f"{where}: is not a rulesub database (not SQLite, or damaged); nothing was "
            "changed. Restore it from a backup, or give another --db"
        )
    if "unable to open database file" in low:
        return StoreError(f"{where}: cannot open or create the database file here")
    if "connection" in low or "could not" in low or "authentication" in low:
        return StoreError(f"{where}: cannot connect: {text}")
    return StoreError(f"{where}: {text}")


@contextmanager
def translated(url: str) -> Iterator[None]:
    """Database failures as ``StoreError``s."""
    try:
        yield
    except StoreError:
        raise
    except (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.ProgrammingError) as e:
        raise problem(e, url) from None
    except sa_exc.DatabaseError as e:
        if isinstance(e, sa_exc.IntegrityError):
            raise
        raise problem(e, url) from None
    except (ValueError, TypeError) as e:
        if not _read_by_the_driver(e):
            raise
        # SQLite keeps what it is given: a date or time written over by hand cannot be read
        raise StoreError(
            f"the database is damaged: a stored date or time cannot be read ({e}) "
            "(`rulesub audit verify` names the filing)"
        ) from None


def _read_by_the_driver(e: BaseException) -> bool:
    """Whether ``e`` was raised converting a stored value as it was read (SQLAlchemy's
    result processors), not by rulesub's own code."""
    import traceback

    frames = traceback.extract_tb(e.__traceback__)
    return bool(frames) and "sqlalchemy" in frames[-1].filename.replace("\\", "/")


def audit_head_read(conn: Connection) -> int | None:
    """The audit head this reading transaction read with its schema version, else ``None``."""
    kept = conn.info.get(AUDIT_HEAD)
    if kept is None or kept[0] is not conn.get_transaction():
        return None
    return int(kept[1])


def table_names(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names())
