"""``rulesub record FILE...``: many filings in one call, each in a transaction of its own,
so that one that cannot be read is named and the others are still recorded (exit 2)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_db import BACKENDS, EXAMPLES, cli, database

from validator import PROJECT_ROOT

UNREADABLE = PROJECT_ROOT / "rulesubs" / "flawed" / "unreadable-duplicate-key.yaml"
GOOD = ("high-card-flush.yaml", "four-card-poker.yaml", "lunar-poker.yaml")


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


@pytest.fixture
def filings(tmp_path: Path) -> Path:
    """A directory of three good filings and one that is not valid YAML (a duplicate key)."""
    d = tmp_path / "filings"
    d.mkdir()
    for name in GOOD:
        shutil.copy(EXAMPLES / name, d / name)
    shutil.copy(UNREADABLE, d / "b-broken.yaml")
    return d


def test_a_directory_with_one_unreadable_file_records_the_others_and_exits_2(
    db: str, filings: Path
) -> None:
    out = cli("record", str(filings), "--db", db, "--by", "A. Filer", "--format", "json")
    assert out.exit_code == 2
    assert "b-broken.yaml" in out.stderr and "duplicate key" in out.stderr
    assert "3 recorded, 1 unreadable" in out.stderr and "Traceback" not in out.stderr
    listed = json.loads(out.stdout)
    assert [Path(e["file"]).name for e in listed] == sorted([*GOOD, "b-broken.yaml"])
    recorded = [e for e in listed if "id" in e]
    assert len(recorded) == 3 and len({e["id"] for e in recorded}) == 3
    assert next(e for e in listed if "unreadable" in e)["file"].endswith("b-broken.yaml")
    history = json.loads(cli("history", "--db", db, "--format", "json").stdout)
    assert sorted(h["id"] for h in history) == sorted(e["id"] for e in recorded)


def test_many_files_in_one_call_a_list_in_the_order_given(db: str, tmp_path: Path) -> None:
    """The same bytes twice (a copy) are one record, said so; each entry names its file; a
    path named twice is recorded once."""
    files = [str(EXAMPLES / n) for n in GOOD]
    copy = tmp_path / "copy.yaml"
    shutil.copy(files[0], copy)
    out = cli("record", *files, str(copy), files[1], "--db", db, "--format", "json")
    assert out.exit_code == 0, out.stderr
    listed = json.loads(out.stdout)
    assert [Path(e["file"]).name for e in listed] == [*GOOD, "copy.yaml"]
    assert listed[3]["id"] == listed[0]["id"] and listed[3]["already_recorded"] is True
    assert [e["already_recorded"] for e in listed[:3]] == [False, False, False]


def test_one_file_still_prints_its_record(db: str) -> None:
    out = cli("record", str(EXAMPLES / GOOD[0]), "--db", db, "--format", "json")
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "submitted"


def test_text_names_each_file_of_several(db: str, filings: Path) -> None:
    out = cli("record", str(filings), "--db", db)
    assert out.exit_code == 2
    for name in GOOD:
        assert f"{name}\nsubmission " in out.stdout
    assert "b-broken.yaml" in out.stderr


def test_a_missing_path_is_named_and_nothing_recorded(db: str, tmp_path: Path) -> None:
    out = cli("record", str(EXAMPLES / GOOD[0]), str(tmp_path / "nope.yaml"), "--db", db)
    assert out.exit_code == 2 and "nope.yaml: no such file" in out.stderr
