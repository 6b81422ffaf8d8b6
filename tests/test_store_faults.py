"""Faults: a locked, read-only or corrupt database gives a clear message and exit 2 and
loses nothing stored; a killed ``record`` leaves no half record; records and approvals from
several processes at once lose nothing and approve once (SQLite and PostgreSQL).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from store_db import (
    BACKENDS,
    EXAMPLES,
    RECORDED_AT,
    amended,
    database,
    decided_by_the_office_day,  # noqa: F401 (the office's day, for the approvals)
    rulesub,
)
from typer.testing import CliRunner

from validator.cli import app
from validator.store import Store
from validator.store.schema import audit_log, submissions

HCF = EXAMPLES / "high-card-flush.yaml"
WORKERS = 4  # processes at once: bounded, the machine is shared
FILES_EACH = 5
#: the approvals made in this process are dated up to the end of 2027: made on the office's
#: day then; those made in processes of their own are dated the day the filings were recorded
pytestmark = pytest.mark.usefixtures("decided_by_the_office_day")


def cli(*args: str, env: dict[str, str] | None = None) -> Any:
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Path]:
    """A SQLite store holding two filings, one approved."""
    path = tmp_path / "store.sqlite3"
    s = Store(str(path))
    import datetime as dt

    filed = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)  # before the approval's date
    first = s.record(HCF, "filer", now=filed).id
    s.approve(first, "officer", on=dt.date(2026, 12, 1))
    s.record(amended(HCF, tmp_path / "b.yaml", ("2027-01-01", "2027-03-01")), "filer", now=filed)
    s.dispose()
    yield path


def history(path: Path | str) -> list[dict[str, Any]]:
    out = cli("history", "--db", str(path), "--format", "json")
    assert out.exit_code == 0, out.stderr
    return list(json.loads(out.stdout))


# -- locked, read-only, corrupt (SQLite files) ----------------------------------------------------


def test_a_locked_database_is_a_clear_message_and_loses_nothing(
    sqlite_store: Path, tmp_path: Path
) -> None:
    before = history(sqlite_store)
    holder = sqlite3.connect(sqlite_store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        new = amended(HCF, tmp_path / "c.yaml", ("2027-01-01", "2027-05-01"))
        for args in (("record", str(new)), ("approve", "2", "--by", "R"), ("history",)):
            out = cli(*args, "--db", str(sqlite_store), env={"RULESUB_DB_TIMEOUT": "0.3"})
            assert out.exit_code == 2, args
            assert "the database is locked by another program" in out.stderr
            assert "Traceback" not in out.stderr
    finally:
        holder.rollback()
        holder.close()
    assert history(sqlite_store) == before
    assert cli("record", str(new), "--db", str(sqlite_store)).exit_code == 0
    assert len(history(sqlite_store)) == len(before) + 1


def test_a_read_only_database_is_read_and_refuses_writes_clearly(
    sqlite_store: Path, tmp_path: Path
) -> None:
    data = sqlite_store.read_bytes()
    read_only = f"sqlite:///file:{sqlite_store}?mode=ro&uri=true"
    assert [r["id"] for r in history(read_only)] == [1, 2]
    new = amended(HCF, tmp_path / "c.yaml", ("2027-01-01", "2027-05-01"))
    for args in (("record", str(new)), ("approve", "2", "--by", "R", "--date", "2026-12-01")):
        out = cli(*args, "--db", read_only)
        assert out.exit_code == 2, args
        assert "the database is read-only here; nothing was changed" in out.stderr
    assert sqlite_store.read_bytes() == data


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only file anyway")
def test_a_read_only_file_refuses_writes_clearly(sqlite_store: Path, tmp_path: Path) -> None:
    sqlite_store.chmod(0o444)
    out = cli(
        "record",
        str(amended(HCF, tmp_path / "c.yaml", ("2027-01-01", "2027-05-01"))),
        "--db",
        str(sqlite_store),
    )
    assert out.exit_code == 2
    assert "read-only" in out.stderr


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path: Path) -> None:
    junk = tmp_path / "notes.sqlite3"
    junk.write_bytes(b"These are an officer's notes, not a database.\n" * 200)
    data = junk.read_bytes()
    for args in (("history",), ("record", str(HCF)), ("db", "upgrade")):
        out = cli(*args, "--db", str(junk))
        assert out.exit_code == 2, args
        assert "is not a rulesub database (not SQLite, or damaged)" in out.stderr
    assert junk.read_bytes() == data


def test_an_empty_file_given_to_a_reading_command_is_left_empty(tmp_path: Path) -> None:
    """SQLite takes an empty file for an empty database: `history --db empty.yaml` wrote a
    database into the file it was given to read. A command that only reads refuses it,
    exit 2, and leaves it empty; `record` may still start a store there."""
    empty = tmp_path / "empty.yaml"
    empty.write_bytes(b"")
    for args in (("history",), ("audit", "verify")):
        out = cli(*args, "--db", str(empty))
        assert out.exit_code == 2, (args, out.stderr)
        assert "an empty file, not a rulesub database" in out.stderr
        assert empty.read_bytes() == b""


def test_a_damaged_store_is_refused_untouched(sqlite_store: Path) -> None:
    data = bytearray(sqlite_store.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[page : 3 * page] = b"\xff" * (2 * page)  # the schema's pages overwritten
    sqlite_store.write_bytes(bytes(data))
    for args in (("history",), ("record", str(HCF))):
        out = cli(*args, "--db", str(sqlite_store))
        assert out.exit_code == 2, args
        assert "Traceback" not in out.stderr
        assert str(sqlite_store) in out.stderr
    assert sqlite_store.read_bytes() == bytes(data)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE patrons (name TEXT)")
    out = cli("record", str(HCF), "--db", str(other))
    assert out.exit_code == 2
    assert "no rulesub schema version: it is no rulesub database" in out.stderr


# -- one transaction per record ------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


def consistent(url: str) -> int:
    """Every stored filing is whole: its bytes hash to its sha256, and the log has its one
    `record` entry; the audit log's hash chain holds. The number of filings."""
    s = Store(url)
    try:
        assert s.verify_audit()[1] is None, "the audit log's chain is broken"
        with s.transaction() as conn:
            rows = conn.execute(
                select(submissions.c.id, submissions.c.sha256, submissions.c.content)
            ).all()
            logged = dict(
                conn.execute(
                    select(audit_log.c.submission_id, func.count())
                    .where(audit_log.c.action == "record")
                    .group_by(audit_log.c.submission_id)
                ).all()
            )
    finally:
        s.dispose()
    for r in rows:
        assert hashlib.sha256(r.content).hexdigest() == r.sha256
        assert logged.get(r.id) == 1, f"submission {r.id} has no single record entry"
    assert set(logged) == {r.id for r in rows}, "a record entry without its filing"
    return len(rows)


def test_a_failure_inside_record_leaves_nothing(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.store import lifecycle

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the process dies between the filing and its audit entry")

    s = Store(db)
    monkeypatch.setattr(lifecycle, "_audit", crash)
    with pytest.raises(RuntimeError):
        s.record(HCF, "filer")
    monkeypatch.undo()
    assert consistent(db) == 0
    assert s.record(HCF, "filer").already is False  # the same bytes record cleanly now
    s.dispose()
    assert consistent(db) == 1


RECORD_LOOP = """
import sys
from pathlib import Path
from validator.store import Store
store = Store(sys.argv[1])
for path in sys.argv[2:]:
    store.record(Path(path), sys.argv[1][-6:])
    print(path, flush=True)
"""


def variants(tmp_path: Path, prefix: str, n: int) -> list[Path]:
    return [
        amended(
            HCF,
            tmp_path / f"{prefix}-{i}.yaml",
            ("facility: Example Downs", f"facility: Example Downs {prefix} {i}"),
        )
        for i in range(n)
    ]


@pytest.mark.slow  # processes killed mid-record
def test_a_killed_record_leaves_no_half_record(db: str, tmp_path: Path) -> None:
    """``record`` processes killed (SIGKILL) in the middle of their work, at moments
    spread over a record's transaction: every filing stored is whole, with its audit
    entry; none is half there."""
    Store(db).upgrade("setup")
    killed = 0
    for attempt, delay in enumerate((0.0, 0.013, 0.029, 0.047, 0.071, 0.11)):
        files = variants(tmp_path, f"k{attempt}", 40)
        proc = subprocess.Popen(
            [sys.executable, "-c", RECORD_LOOP, db, *map(str, files)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdout is not None
        proc.stdout.readline()  # one record committed: the process is at work
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate(timeout=60)
    assert killed > 0, "no process was still working when killed: lengthen the loop"
    stored = consistent(db)
    assert 6 <= stored < 6 * 40


# -- several processes at once -------------------------------------------------------------------


@pytest.mark.slow  # processes racing
def test_concurrent_records_lose_nothing(db: str, tmp_path: Path) -> None:
    Store(db).upgrade("setup")
    shared = tmp_path / "shared.yaml"
    shared.write_bytes(HCF.read_bytes())
    batches = [[*variants(tmp_path, f"w{w}", FILES_EACH), shared] for w in range(WORKERS)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RECORD_LOOP, db, *map(str, batch)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for batch in batches
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert consistent(db) == WORKERS * FILES_EACH + 1  # the shared bytes: one record
    rows = history(db)
    facilities = {r["facility"] for r in rows}
    assert facilities == {"Example Downs"} | {
        f"Example Downs w{w} {i}" for w in range(WORKERS) for i in range(FILES_EACH)
    }


def approving(db: str, sid: int, who: str) -> subprocess.Popen[str]:
    """``rulesub approve SID --by WHO`` in a process of its own, dated the day the tests'
    filings are recorded (on the real clock: never after today)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from validator.cli import main; main()",
            "approve",
            str(sid),
            "--by",
            who,
            "--date",
            RECORDED_AT.date().isoformat(),
            "--db",
            db,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "RULESUB_DB"},
    )


@pytest.mark.slow  # processes racing
def test_concurrent_approvals_of_one_facility_game_and_date_approve_once(
    db: str, tmp_path: Path
) -> None:
    s = Store(db)
    ids = []
    for w in range(WORKERS):
        copy = tmp_path / f"copy-{w}.yaml"
        copy.write_bytes(HCF.read_bytes() + f"# copy {w}\n".encode())
        ids.append(s.record(copy, "filer", now=RECORDED_AT).id)  # before the approvals' date
    s.dispose()
    procs = [approving(db, i, f"officer {i}") for i in ids]
    results = [(p.communicate(timeout=300), p.returncode) for p in procs]
    codes = sorted(code for _, code in results)
    assert codes == [0] + [1] * (WORKERS - 1), results
    for (_, err), code in results:
        if code == 1:
            assert (
                "another approval already holds" in err
                or "decided meanwhile" in err
                or re.search(r"is replaced by #\d+: only a submitted one can be approved", err)
            ), err
    # the one approved replaces the same holder's earlier pending copies for the same date;
    # the later ones stay pending
    status = {r["id"]: r["status"] for r in history(db)}
    (winner,) = [i for i in ids if status[i] == "approved"]
    assert all(status[i] == "replaced" for i in ids if i < winner)
    assert all(status[i] == "submitted" for i in ids if i > winner)


def test_the_command_line_agrees(db: str) -> None:
    """The same checks run through the installed command, in its own process."""
    out = rulesub("record", str(HCF), "--db", db, "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "submitted"


def approved_at_once(db: str, approvals: list[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """``approve ID --by WHO`` for each of ``approvals`` in processes of their own, started
    while a connection holds the audit log's advisory lock, so that every one is inside
    its transaction before the first can commit (PostgreSQL). Each one's stdout, stderr and
    exit code."""
    from sqlalchemy import text

    from validator.store.database import make_engine

    holder = make_engine(db)
    with holder.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(7145515)"))  # the audit log's
        procs = [approving(db, sid, who) for sid, who in approvals]
        time.sleep(4)  # each inside its transaction, one waiting at the log's lock
        conn.execute(text("SELECT pg_advisory_unlock(7145515)"))
        conn.commit()
    holder.dispose()
    done = [(p.communicate(timeout=300), p.returncode) for p in procs]
    return [(out, err, code) for (out, err), code in done]


@pytest.mark.slow  # processes racing
def test_two_holders_approved_at_once_for_one_facility_are_not_both_approved(
    db: str, tmp_path: Path
) -> None:
    """A facility belongs to one certificate holder. Two holders' filings of different games
    for an unowned facility, approved at once on PostgreSQL, each read no approval of the
    other holder (their locks were per facility and game) and both committed: the facility
    was left "disputed". What decides a facility's holder now takes turns by facility: the
    second approval reads the first and is refused. The audit log's lock is held while both
    start, so that they overlap every time."""
    if not db.startswith("postgresql"):
        pytest.skip("SQLite serialises every writer: no two approvals overlap")
    s = Store(db)
    ours = s.record(HCF, "filer", now=RECORDED_AT).id
    rival = tmp_path / "rival.yaml"
    rival.write_text(
        (EXAMPLES / "four-card-poker.yaml")
        .read_text(encoding="utf-8")
        .replace(
            "certificate_holder: Example Downs Racing & Casino",
            "certificate_holder: Rival Gaming LLC",
        ),
        encoding="utf-8",
    )
    theirs = s.record(rival, "filer", now=RECORDED_AT).id
    s.dispose()
    results = approved_at_once(db, [(ours, f"officer {ours}"), (theirs, f"officer {theirs}")])
    assert sorted(code for _, _, code in results) == [0, 1], results
    (err,) = [err for _, err, code in results if code == 1]
    assert "facility" in err and "Traceback" not in err, err
    status = {r["id"]: r["status"] for r in history(db)}
    assert sorted(status.values()) == ["approved", "submitted"]


@pytest.mark.slow  # processes racing
def test_one_filing_approved_twice_at_once_tells_the_loser_it_is_approved(
    db: str, tmp_path: Path
) -> None:
    """Two reviewers approving one filing at once on PostgreSQL: the second read it pending,
    waited, then was told "another approval already holds …: submission 1 is not approved"
    of a filing the first had just approved. It is told what the one after the other is
    told: the filing is approved, by whom."""
    if not db.startswith("postgresql"):
        pytest.skip("SQLite serialises every writer: no two approvals overlap")
    s = Store(db)
    sid = s.record(HCF, "filer", now=RECORDED_AT).id
    s.dispose()
    results = approved_at_once(db, [(sid, "officer A"), (sid, "officer B")])
    assert sorted(code for _, _, code in results) == [0, 1], results
    (won,) = [out for out, _, code in results if code == 0]
    (err,) = [err for _, err, code in results if code == 1]
    winner = "officer A" if "officer A" in won else "officer B"
    assert f"submission {sid} is approved (by {winner}): only a submitted one" in err, err


def test_postgresql_without_its_driver_is_said_how_to_add_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PostgreSQL is the install's `postgres` extra: a plain install given
    `--db postgresql://…` ended in a traceback from SQLAlchemy's import of psycopg, exit 1.
    It is told what to install, exit 2, as any other database it cannot open; a URL naming
    another driver is told rulesub's."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("psycopg", "psycopg2") else real(name, *a),
    )
    for url, said in (
        ("postgresql://u:secret@127.0.0.1:1/x", "needs the psycopg package"),
        ("postgresql+psycopg2://u:secret@127.0.0.1:1/x", "names the psycopg2 driver"),
    ):
        out = CliRunner().invoke(app, ["history", "--db", url])
        assert out.exit_code == 2, out.output
        assert said in out.stderr and "pip install 'rulesub[postgres]'" in out.stderr
        assert "secret" not in out.stderr and "Traceback" not in out.output


def test_an_out_that_cannot_be_written_is_refused_before_the_record_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`record`, `approve` and `reject` with an `--out` in a folder rulesub may not write
    in recorded, approved or rejected the filing, then said only "--out …: permission
    denied" (exit 2, unreadable input): the officer read that nothing was done. The folder
    is tried first: refused, exit 2, the store unchanged."""
    import tempfile

    db = str(tmp_path / "store.sqlite3")
    shut = tmp_path / "shut"
    shut.mkdir()
    real = tempfile.mkstemp

    def mkstemp(*args: Any, **kwargs: Any) -> Any:
        if Path(kwargs.get("dir") or ".").resolve() == shut.resolve():
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    run = CliRunner().invoke
    out = run(app, ["record", str(HCF), "--by", "filer", "--db", db, "--out", str(shut / "r.json")])
    assert out.exit_code == 2 and "permission denied" in out.stderr.lower(), out.output
    assert "Traceback" not in out.output
    if Path(db).exists():  # nothing recorded
        store = Store(db)
        assert store.history() == []
        store.dispose()
    assert run(app, ["record", str(HCF), "--by", "filer", "--db", db]).exit_code == 0
    for command in (
        ["approve", "1", "--by", "bob"],
        ["reject", "1", "--by", "bob", "--reason", "no"],
    ):
        out = run(app, [*command, "--db", db, "--out", str(shut / "a.json")])
        assert out.exit_code == 2 and "permission denied" in out.stderr.lower(), out.output
        store = Store(db)
        assert store.get(1).status == "submitted"
        store.dispose()


def test_no_line_of_history_can_be_forged_through_a_name_a_reason_or_a_file_name(
    tmp_path: Path,
) -> None:
    """What the record keeps and prints as one line (who acts, a rejection's reason, a
    waiver's reason, an approval's note, the file's name) took a line break or a terminal's
    escape: a reason "fine\\n   … R. Officer approved #2" printed an approval in `history`
    that no one gave, and the same reached the signed pack's waivers. Each is refused
    (exit 2), as names in a submission are, and nothing is recorded or decided."""
    import shutil

    db = str(tmp_path / "store.sqlite3")
    run = CliRunner().invoke
    forged = "fine\n      2026-11-29T11:30:00Z  R. Officer approved #1 on 2026-11-29"
    out = run(app, ["record", str(HCF), "--by", "C. Holder\x1b[2K\x1b[1A", "--db", db])
    assert out.exit_code == 2 and "U+001B" in out.stderr, out.output
    odd = tmp_path / "x.yaml\n      R. Officer approved #1"
    shutil.copy(HCF, odd)
    out = run(app, ["record", str(odd), "--by", "filer", "--db", db])
    assert out.exit_code == 2 and "the file's name" in out.stderr, out.output
    assert run(app, ["record", str(HCF), "--by", "filer", "--db", db]).exit_code == 0
    for command, said in (
        (["reject", "1", "--by", "bob", "--reason", forged], "U+000A"),
        (["approve", "1", "--by", "bob", "--note", forged], "U+000A"),
        (["approve", "1", "--by", "bob\nR. Officer"], "U+000A"),
        (["reject", "1", "--by", "bob", "--reason", "\u2800"], "shows nothing"),
        (["reject", "1", "--by", "bob", "--reason", "\u2800 \u3164 \u2800"], "shows nothing"),
        (["reject", "1", "--by", "bob", "--reason", "\u034f"], "shows nothing"),
        (["reject", "1", "--by", "bob", "--reason", "x" * 200_000], "200,000 characters"),
    ):
        out = run(app, [*command, "--db", db])
        assert out.exit_code == 2 and said in out.stderr, (command, out.output)
        assert "nothing was recorded" in out.stderr
    store = Store(db)
    assert [r.status for r in store.history()] == ["submitted"]
    assert [e.action for e in store.events()] == ["record"]
    store.dispose()
    history = run(app, ["history", "--db", db]).stdout
    assert "approved #1" not in history


def test_a_finding_waived_twice_is_refused_never_a_reason_dropped(tmp_path: Path) -> None:
    """`approve --waive CODE=first --waive CODE=second` kept the second reason and dropped
    the first without a word; it is refused (exit 2), the filing left pending."""
    flawed = EXAMPLES.parent / "flawed" / "hcf-payout-limit.yaml"
    db = str(tmp_path / "store.sqlite3")
    run = CliRunner().invoke
    assert run(app, ["record", str(flawed), "--by", "filer", "--db", db]).exit_code == 0
    code = "high-card-flush/payout-limit-floor"
    out = run(
        app,
        [
            "approve",
            "1",
            "--by",
            "rev",
            "--db",
            db,
            "--waive",
            f"{code}=first",
            "--waive",
            f"{code}=second",
        ],
    )
    assert out.exit_code == 2 and f"{code} is waived twice" in out.stderr, out.output
    store = Store(db)
    assert store.get(1).status == "submitted"
    store.dispose()
