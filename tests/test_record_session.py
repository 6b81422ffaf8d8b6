"""``rulesub record`` of many files in one call: one connection for the whole call, one
transaction each, every filing it reported durable; and the store commands load only
what they use."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.pool import Pool
from store_db import BACKENDS, EXAMPLES, cli, database

from validator import PROJECT_ROOT
from validator.store import Store

UNREADABLE = PROJECT_ROOT / "rulesubs" / "flawed" / "unreadable-duplicate-key.yaml"
GOOD = ("high-card-flush.yaml", "four-card-poker.yaml", "lunar-poker.yaml")


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


def filings(where: Path, n: int) -> list[Path]:
    """``n`` distinct filings (one facility each) of High Card Flush."""
    src = (EXAMPLES / "high-card-flush.yaml").read_text()
    where.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        p = where / f"f{i:03d}.yaml"
        p.write_text(src.replace("facility: Example Downs", f"facility: Facility {i:03d}", 1))
        out.append(p)
    return out


def test_many_files_in_one_call_open_one_connection(db: str, tmp_path: Path) -> None:
    """Five filings and an unreadable one, in one call: one connection to the database,
    a transaction each (the unreadable one named, the others recorded, the chain whole)."""
    Store(db).upgrade("setup")
    d = tmp_path / "filings"
    filings(d, 5)
    shutil.copy(UNREADABLE, d / "unreadable.yaml")
    opened: list[object] = []

    def count(dbapi: Any, _record: Any) -> None:
        opened.append(dbapi)

    event.listen(Pool, "connect", count)
    try:
        out = cli("record", str(d), "--db", db, "--by", "clerk", "--format", "json")
    finally:
        event.remove(Pool, "connect", count)
    assert out.exit_code == 2
    assert "unreadable.yaml" in out.stderr
    assert len(opened) == 1
    rows = json.loads(out.stdout)
    assert sorted(r["id"] for r in rows if "id" in r) == [1, 2, 3, 4, 5]
    store = Store(db)
    assert len(store.history()) == 5
    _head, broken = store.verify_audit()
    assert broken is None
    assert [e.action for e in store.events()].count("record") == 5


def test_a_run_of_many_leaves_the_sqlite_file_whole(tmp_path: Path) -> None:
    """After the call the database file alone holds every filing (its journal back as it
    was, nothing beside it): a copy of the file is the whole store."""
    db = tmp_path / "office.sqlite3"
    filings(tmp_path / "filings", 4)
    out = cli("record", str(tmp_path / "filings"), "--db", str(db))
    assert out.exit_code == 0, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["filings", "office.sqlite3"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(db.read_bytes())
    assert len(Store(str(copy), must_exist=True).history()) == 4


RECORD_RUN = """
import sys
from pathlib import Path
from validator.store import Store
store = Store(sys.argv[1])
with store.session(many=True):
    for path in sys.argv[2:]:
        store.record(Path(path), "filer")
        print(path, flush=True)
"""


def test_a_filing_reported_survives_a_kill_in_the_middle_of_a_run(tmp_path: Path) -> None:
    """A run of many killed (SIGKILL) after it reported some filings: each one it reported
    is in the store when it is next opened, the audit chain whole."""
    db = str(tmp_path / "office.sqlite3")
    Store(db).upgrade("setup")
    files = filings(tmp_path / "filings", 40)
    proc = subprocess.Popen(
        [sys.executable, "-c", RECORD_RUN, db, *map(str, files)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    reported = [proc.stdout.readline().strip() for _ in range(3)]
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    store = Store(db, must_exist=True)
    recorded = {r.filename for r in store.history()}
    assert set(reported) <= recorded
    assert len(recorded) < len(files)  # killed in the middle, not after the end
    _head, broken = store.verify_audit()
    assert broken is None


def test_record_loads_neither_migrations_nor_another_database(tmp_path: Path) -> None:
    """``record`` into a store of this rulesub's schema loads no Alembic, no PostgreSQL
    dialect on SQLite, no terminal styling and no engines."""
    db = str(tmp_path / "office.sqlite3")
    Store(db).upgrade("setup")
    probe = (
        "import sys\n"
        "from validator.cli import main\n"
        f"sys.argv = ['rulesub', 'record', {str(EXAMPLES / 'high-card-flush.yaml')!r}, "
        f"'--db', {db!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "names = ('alembic', 'sqlalchemy.dialects.postgresql', 'psycopg', 'rich', 'numpy',"
        " 'validator.compiler')\n"
        "print([n for n in names if n in sys.modules], file=sys.stderr)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stderr.strip().splitlines()[-1] == "[]"
    assert len(Store(db).history()) == 1
