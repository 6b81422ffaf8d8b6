"""The store's commands on hostile arguments, in-process: no traceback, no hang, exit 2 with
a message. A ``--db`` that is a URI but no database URL (``file:/x``) is refused, never a
new database under ``./file:``; an id no database key can hold (past 2^63) is no submission.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile.corpus import EXAMPLES
from hostile.runner import run

PAST_2_63 = str(2**63)
HCF = EXAMPLES / "high-card-flush.yaml"


@pytest.fixture
def recorded(tmp_path: Path) -> str:
    db = str(tmp_path / "store.sqlite3")
    assert run("record", str(HCF), "--db", db).exit_code == 0
    return db


@pytest.mark.parametrize(
    "args",
    [
        ("show", PAST_2_63),
        ("show", "9" * 5000),
        ("approve", PAST_2_63, "--by", "r"),
        ("reject", PAST_2_63, "--by", "r", "--reason", "x"),
    ],
)
def test_an_id_past_any_key_is_no_submission(recorded: str, args: tuple[str, ...]) -> None:
    out = run(*args, "--db", recorded)
    assert not out.problem and out.exit_code == 2, out
    assert "no submission" in out.stderr or "Invalid value" in out.stderr, out


@pytest.mark.parametrize("db", ["file:/x", "file:store.sqlite3", "sqlite:x", "postgresql:x"])
@pytest.mark.parametrize(
    "args",
    [
        ("history",),
        ("record", str(HCF)),
        ("audit", "verify"),
        ("facilities", "list"),
        ("facilities", "set", "F", "--holder", "H"),
        ("db", "upgrade"),
    ],
)
def test_a_db_that_is_no_database_url_is_refused(
    db: str, args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = run(*args, "--db", db)
    assert not out.problem and out.exit_code == 2, out
    assert "not a database URL nor a file path" in out.stderr, out
    assert list(tmp_path.iterdir()) == []
