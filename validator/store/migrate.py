"""The store's schema versions, by Alembic, from the migrations shipped in the package.

``rulesub db upgrade`` runs ``upgrade()``; every other command calls ``check()``, which
refuses a database whose schema is not this rulesub's, and gives an empty database the
current schema. Alembic is driven through its API with a ``Config`` built here, pointing
at ``validator/store/migrations`` wherever the package is installed (a wheel too).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from sqlalchemy import Connection, TextClause

from validator.store.database import SCHEMA_LOCK, UPGRADE_HINT, StoreError, describe, table_names

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"
#: This rulesub's schema: the head of ``migrations/versions`` (a test holds them equal), so
#: that a command checks the version without loading Alembic.
SCHEMA_REVISION = "0007"


def config(connection: Connection | None = None) -> object:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("version_table", VERSION_TABLE)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def _script() -> object:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(config())  # type: ignore[arg-type]


def head() -> str:
    return SCHEMA_REVISION


def script_head() -> str:
    """The head revision as Alembic reads it from the migration scripts."""
    heads = _script().get_heads()  # type: ignore[attr-defined]
    assert len(heads) == 1, f"the store's migrations have {len(heads)} heads"
    return str(heads[0])


def known_revisions() -> list[str]:
    """Every revision, oldest first."""
    revs = [r.revision for r in _script().walk_revisions()]  # type: ignore[attr-defined]
    return list(reversed(revs))


@cache
def _version_query() -> TextClause:
    """The schema version's one row, read at every transaction: the statement made once."""
    from sqlalchemy import text

    return text(f"SELECT version_num FROM {VERSION_TABLE}")


def current(conn: Connection) -> str | None:
    revs = [r[0] for r in conn.execute(_version_query())]
    if len(revs) > 1:
        raise StoreError(f"the database records {len(revs)} schema versions: {', '.join(revs)}")
    return revs[0] if revs else None


def _lock(conn: Connection) -> None:
    """Serialise schema changes: the transaction is already ``BEGIN IMMEDIATE`` on SQLite."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")


def _upgrade_in(conn: Connection) -> None:
    from alembic import command

    command.upgrade(config(conn), "head")  # type: ignore[arg-type]


def state(conn: Connection, url: str) -> str:
    """``current``, ``empty`` or ``behind``; raises for a database rulesub cannot read."""
    names = table_names(conn)
    rev = current(conn) if VERSION_TABLE in names else None
    if rev is None:
        if names - {VERSION_TABLE}:
            raise StoreError(
                f"{describe(url)}: holds tables but no rulesub schema version: "
                "it is no rulesub database; give another --db"
            )
        return "empty"
    if rev == head():
        return "current"
    if rev in known_revisions():
        return "behind"
    raise StoreError(
        f"{describe(url)}: its schema ({rev}) is newer than this rulesub knows ({head()}): "
        "a newer rulesub wrote it; upgrade rulesub, never the other way round"
    )


def check(conn: Connection, url: str) -> None:
    """Refuse a database whose schema is not this rulesub's; create the schema in an
    empty one. Runs in ``conn``'s transaction."""
    s = state(conn, url)
    if s == "behind":
        raise StoreError(
            f"{describe(url)}: its schema ({current(conn)}) is older than this rulesub's "
            f"({head()}); {UPGRADE_HINT}"
        )
    if s == "empty":
        _lock(conn)
        if state(conn, url) == "empty":  # another process may have created it meanwhile
            _upgrade_in(conn)


@cache
def _version_and_head_query() -> TextClause:
    """The schema version's row with the audit log's last entry's id: one statement."""
    from sqlalchemy import text

    return text(f"SELECT version_num, (SELECT max(id) FROM audit_log) FROM {VERSION_TABLE}")


def confirm(conn: Connection, url: str) -> None:
    """``check`` for a database already found of this rulesub's schema: its version only
    is read again (one row), and anything else than this rulesub's is checked whole."""
    rev = conn.execute(_version_query()).scalars().all()
    if rev != [head()]:
        check(conn, url)


def confirm_reading(conn: Connection, url: str) -> int | None:
    """``confirm`` for a transaction that only reads, in the same statement reading the
    audit log's last entry's id (0: none), which that transaction then sees throughout;
    ``None`` where the schema was not this rulesub's and was checked whole."""
    rows = conn.execute(_version_and_head_query()).all()
    if [r[0] for r in rows] != [head()]:
        check(conn, url)
        return None
    return int(rows[0][1] or 0)


def upgrade(conn: Connection, url: str) -> tuple[str | None, str]:
    """Migrate to this rulesub's schema; ``(from, to)`` revisions."""
    _lock(conn)
    before = current(conn) if VERSION_TABLE in table_names(conn) else None
    state(conn, url)  # refuses a foreign or newer database
    if before != head():
        _upgrade_in(conn)
    return before, head()
