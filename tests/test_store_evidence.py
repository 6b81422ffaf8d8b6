"""The record as evidence, attacked: on SQLite and on a real PostgreSQL server.

- An id is never given twice: the filing with the highest id purged, the next one recorded
  gets a new id and none of the purged one's events (history, show, the web timeline, the
  API). Ids come from a sequence that never goes back; a database of schema 0002 is migrated
  to it, past every id its audit log names.
- The audit log is a hash chain: an entry edited, deleted or inserted out of order (the
  append-only triggers dropped, the database written directly) is named by
  ``rulesub audit verify``, exit 1; the head is printed by ``history`` and in the API.
- A facility belongs to one certificate holder: another holder's filing for it is refused
  (command line exit 1 with a finding, the web 403 with nothing recorded), and an approval
  never supersedes another holder's filing.
- Hostile input reaching the store: an id past 2^63, ``--db file:/x``, a killed ``record``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select, text
from store_db import (
    BACKENDS,
    EXAMPLES,
    amended,
    cli,
    database,
    drop_audit_triggers,
    store_clock,  # noqa: F401 (the store's clock, for the tests that name it)
)
from webtools import HOLDER, OTHER_HOLDER, make_office, sign_in, token_of

from validator.store import Store
from validator.store import accounts as acct
from validator.store.chain import GENESIS, entry_hash
from validator.store.lifecycle import (
    FACILITY_OF_ANOTHER_HOLDER,
    NAME_MIXES_SCRIPTS,
    years_before,
)
from validator.store.schema import audit_log, submissions, waivers

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from validator.web import create_app  # noqa: E402

HCF = EXAMPLES / "high-card-flush.yaml"
TWO_TO_THE_63 = 2**63


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


def harbour_filing(
    tmp: Path, facility: str = "Example Downs", effective: str = "2027-01-01"
) -> Path:
    """Another certificate holder's filing, for ``facility``."""
    return amended(
        HCF,
        tmp / f"harbour-{facility.replace(' ', '-')}-{effective}.yaml",
        (f"certificate_holder: {HOLDER}", f"certificate_holder: {OTHER_HOLDER}"),
        ("facility: Example Downs", f"facility: {facility}"),
        ("2027-01-01", effective),
    )


def counted(store: Store) -> tuple[int, int]:
    with store.transaction(reading=True) as conn:
        n = conn.execute(select(func.count()).select_from(submissions)).scalar_one()
        e = conn.execute(select(func.count()).select_from(audit_log)).scalar_one()
    return int(n), int(e)


# -- ids are never given twice ------------------------------------------------------------------


def test_a_purged_filings_id_is_never_given_again(db: str, tmp_path: Path) -> None:
    """The highest filing rejected long ago and purged; the same bytes recorded again are a
    new filing with a new id and a timeline of their own, wherever it is read."""
    office = make_office(tmp_path, db)
    store = office.store
    old = max(office.ids.values())
    store.reject(old, "rev", "bad table")
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=6 * 366)  # past its retention
    before = years_before(later.date(), 5)
    assert store.purge(before, "rev", now=later) == [old]
    harbour = tmp_path / "harbour-hcf.yaml"  # the purged bytes, filed again
    new = store.record(harbour, "harbour", display="harbour-hcf.yaml").id
    assert new > old

    out = cli("history", "--db", db)
    assert out.exit_code == 0
    assert f"#{old} " not in out.stdout and "bad table" not in out.stdout
    assert "purge" not in out.stdout
    shown = json.loads(cli("show", str(new), "--db", db, "--format", "json").stdout)
    assert shown["status"] == "submitted" and shown["rejection_reason"] is None
    assert [e.action for e in store.events([new])] == ["record"]

    web = create_app(db, secret="test-secret")
    client = TestClient(web)
    assert sign_in(client, "rev").status_code == 303
    page = client.get(f"/submissions/{new}")
    assert page.status_code == 200
    assert "bad table" not in page.text and "purge" not in page.text.lower()
    assert client.get(f"/submissions/{old}").status_code == 404
    token = acct.issue_token(store, "harbour", by="test")
    api = TestClient(web, headers={"Authorization": f"Bearer {token}"})
    entry = api.get(f"/api/submissions/{new}").json()
    assert entry["id"] == new and entry["status"] == "submitted"
    assert entry["rejection_reason"] is None
    store.dispose()


OLD_ROWS = 2  # filings of the 0002 database; a third (id 3) was purged, named by the log


def _database_of_schema_0002(url: str) -> None:
    """A database as rulesub wrote it before 0003: two filings (one waived), and a log
    naming a third, purged filing, id 3 (the id SQLite would have given again)."""
    from alembic import command

    from validator.store import migrate

    store = Store(url)
    with store.engine.connect() as conn, conn.begin():
        command.upgrade(migrate.config(conn), "0002")  # type: ignore[arg-type]
        now = dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)
        row = {
            "content": b"facility: x\n",
            "filename": "x.yaml",
            "certificate_holder": HOLDER,
            "facility": "Example Downs",
            "game": "high-card-flush",
            "recorded_at": now,
            "recorded_by": "filer",
            "regulation_version": "v",
            "findings": "[]",
            "errors": 0,
            "warnings": 0,
            "infos": 0,
        }
        for i in range(1, OLD_ROWS + 1):
            conn.execute(
                text(
                    "INSERT INTO submissions (sha256, content, filename, certificate_holder, "
                    "facility, game, effective, recorded_at, recorded_by, regulation_version, "
                    "findings, errors, warnings, infos, status) VALUES (:sha256, :content, "
                    ":filename, :certificate_holder, :facility, :game, :effective, "
                    ":recorded_at, :recorded_by, :regulation_version, :findings, :errors, "
                    ":warnings, :infos, 'submitted')"
                ),
                {**row, "sha256": f"{i:064d}", "effective": dt.date(2027, i, 1)},
            )
        conn.execute(
            text(
                "INSERT INTO waivers (submission_id, code, reason, waived_by, waived_at) "
                "VALUES (2, 'c', 'r', 'rev', :at)"
            ),
            {"at": now},
        )
        old_log = sa_audit_0002()
        for sid, action in ((1, "record"), (2, "record"), (3, "record"), (3, "purge")):
            conn.execute(
                insert(old_log).values(
                    at=now, actor="filer", action=action, submission_id=sid, detail="{}"
                )
            )
    store.dispose()


def sa_audit_0002() -> Any:
    import sqlalchemy as sa

    return sa.table(
        "audit_log",
        sa.column("at", sa.DateTime(timezone=True)),
        sa.column("actor", sa.Text),
        sa.column("action", sa.String),
        sa.column("submission_id", sa.Integer),
        sa.column("detail", sa.Text),
    )


def test_the_migration_chains_the_old_log_and_gives_ids_past_every_one_named(
    empty_db: str,
) -> None:
    db = empty_db
    _database_of_schema_0002(db)
    out = cli("history", "--db", db)
    assert out.exit_code == 2 and "rulesub db upgrade" in out.stderr
    up = json.loads(cli("db", "upgrade", "--by", "admin", "--db", db, "--format", "json").stdout)
    assert (up["from"], up["to"]) == ("0002", "0007")
    store = Store(db)
    head, broken = store.verify_audit()
    assert broken is None and head.entries == 5  # four old entries and the upgrade
    with store.transaction(reading=True) as conn:
        first = conn.execute(select(audit_log).order_by(audit_log.c.id).limit(1)).one()
        kept = conn.execute(select(waivers.c.submission_id)).scalars().all()
    assert first.prev_hash == GENESIS
    at = dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)
    assert first.entry_hash == entry_hash(at, "filer", "record", 1, "{}", GENESIS)
    assert kept == [2]  # the waiver survived the tables made anew
    assert store.record(HCF, "filer").id == 4  # never 3: the log names a purged filing 3
    store.dispose()


# -- the hash chain -----------------------------------------------------------------------------


def _logged_store(db: str) -> Store:
    """A store with a filing and seven audit entries."""
    store = Store(db)
    store.record(HCF, "filer")
    for i in range(6):
        store.set_facility(f"Facility {i}", HOLDER, "rev")
    return store


def _forge_after(conn: Any, entry: int) -> None:
    """Append an entry, well formed, that claims to follow ``entry`` (not the last one)."""
    prev = conn.execute(select(audit_log.c.entry_hash).where(audit_log.c.id == entry)).scalar()
    at = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    detail = '{"approved_on": "2026-11-01"}'
    conn.execute(
        insert(audit_log).values(
            at=at,
            actor="intruder",
            action="approve",
            submission_id=1,
            detail=detail,
            prev_hash=prev,
            entry_hash=entry_hash(at, "intruder", "approve", 1, detail, prev),
        )
    )


TAMPERING = {
    "edited": ("UPDATE audit_log SET actor = 'someone else' WHERE id = 3", 3, "was changed"),
    "deleted": ("DELETE FROM audit_log WHERE id = 3", 4, "does not follow entry #2"),
    # on SQLite, whose ids have no gaps, the gap is named first
    "deleted (SQLite)": ("DELETE FROM audit_log WHERE id = 3", 4, "entry #3 is missing"),
    "rehashed": (
        "UPDATE audit_log SET detail = '{}', entry_hash = 'f' || substr(entry_hash, 2) "
        "WHERE id = 3",
        3,
        "was changed",
    ),
    "out of order": (None, 8, "does not follow entry #7"),
}


@pytest.mark.slow  # the log broken at every entry in turn
@pytest.mark.parametrize("how", list(TAMPERING))
def test_audit_verify_names_the_first_broken_entry(db: str, how: str) -> None:
    if how.endswith("(SQLite)") is db.startswith("postgresql"):
        pytest.skip("the other database's answer to this tampering")
    store = _logged_store(db)
    intact = cli("audit", "verify", "--db", db)
    assert intact.exit_code == 0, intact.stderr
    assert "intact" in intact.stdout
    statement, broken, reason = TAMPERING[how]
    with store.engine.connect() as conn, conn.begin():
        drop_audit_triggers(conn)
        if statement is None:
            _forge_after(conn, 2)
        else:
            conn.execute(text(statement))
    out = cli("audit", "verify", "--db", db)
    assert out.exit_code == 1
    assert f"broken at entry #{broken}" in out.stderr and reason in out.stderr
    report = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
    assert report["intact"] is False and report["broken"]["entry"] == broken
    store.dispose()


FILING_EDITS = {
    "status": ("UPDATE submissions SET status = 'approved', approved_by = 'x'", "it says approved"),
    "bytes": ("UPDATE submissions SET content = :changed", "no longer give its sha256"),
    "text": ("UPDATE submissions SET content = 'not bytes'", "no longer give its sha256"),
    "rehashed": (
        "UPDATE submissions SET content = :changed, sha256 = :sha",
        "not the one the audit log recorded",
    ),
}
CHANGED = HCF.read_bytes() + b"# changed\n"


@pytest.mark.parametrize("how", list(FILING_EDITS))
def test_audit_verify_holds_each_filing_to_the_log(db: str, how: str) -> None:
    """A rejected filing made approved, or its bytes changed, in the database directly: the
    chain holds, and the filing is named as not matching it."""
    store = Store(db)
    sid = store.record(HCF, "filer").id
    store.reject(sid, "rev", "bad table")
    assert cli("audit", "verify", "--db", db).exit_code == 0
    statement, reason = FILING_EDITS[how]
    with store.engine.connect() as conn, conn.begin():
        given = {"changed": CHANGED, "sha": hashlib.sha256(CHANGED).hexdigest()}
        conn.execute(text(statement), {k: v for k, v in given.items() if f":{k}" in statement})
    out = cli("audit", "verify", "--db", db)
    assert out.exit_code == 1
    assert f"submission {sid} does not match the audit log" in out.stderr and reason in out.stderr
    report = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
    assert report["broken"] is None and report["intact"] is False
    assert [f["submission"] for f in report["filings"]] == [sid]
    store.dispose()


def test_on_sqlite_entries_cut_from_the_end_are_named(tmp_path: Path) -> None:
    """SQLite gives ids without gaps: the last id given shows a log cut short."""
    db = str(tmp_path / "store.sqlite3")
    store = _logged_store(db)
    with store.engine.connect() as conn, conn.begin():
        drop_audit_triggers(conn)
        conn.execute(text("DELETE FROM audit_log WHERE id >= 6"))
    out = cli("audit", "verify", "--db", db)
    assert out.exit_code == 1
    assert "broken at entry #6: entries #6 to #7 were deleted from the end" in out.stderr
    store.dispose()


def test_a_log_cut_short_or_restored_is_named_against_a_head_kept(db: str, tmp_path: Path) -> None:
    """docs/security.md: the head `history` prints "is a commitment to every entry before
    it", and a log cut short or restored from an earlier copy is a chain that holds by
    itself. `audit verify --head ENTRY:HASH` holds the log to a head written down before:
    the entry gone, or its hash another, is named (exit 1) on SQLite and PostgreSQL alike,
    the sequence counter rewritten too; the head the log still holds verifies (exit 0); a
    head not written as ENTRY:HASH, nor as `history` and the review pack print it
    (`HASH (entry #N, N entries)`, which it refused), is refused (exit 2)."""
    store = _logged_store(db)
    head = store.audit_head()
    assert head.entry is not None
    kept = f"{head.entry}:{head.hash[:12]}"
    assert cli("audit", "verify", "--db", db, "--head", kept).exit_code == 0
    assert cli("audit", "verify", "--db", db, "--head", f"{head.entry}:{head.hash}").exit_code == 0
    # the head as `history` prints it, and as the review pack does, cut short: each taken
    printed = cli("history", "--db", db).stdout.split("audit log chain head:")[-1].strip()
    for written in (printed, f"{head.hash[:8]}…{head.hash[-5:]} (entry #{head.entry}, …)"):
        assert cli("audit", "verify", "--db", db, "--head", written).exit_code == 0, written
    wrong_end = "0" if head.hash[-1] != "0" else "1"  # the end after "…" is held too
    written = f"{head.hash[:8]}…{head.hash[-5:-1]}{wrong_end} (entry #{head.entry}, …)"
    assert cli("audit", "verify", "--db", db, "--head", written).exit_code == 1
    with store.engine.connect() as conn, conn.begin():  # the last entry cut, its id reset
        drop_audit_triggers(conn)
        conn.execute(text(f"DELETE FROM audit_log WHERE id = {head.entry}"))
        conn.execute(text("DELETE FROM facilities WHERE facility = 'Facility 5'"))  # its row
        if conn.dialect.name == "sqlite":
            conn.execute(
                text(f"UPDATE sqlite_sequence SET seq = {head.entry - 1} WHERE name = 'audit_log'")
            )
    assert cli("audit", "verify", "--db", db).exit_code == 0  # the chain holds by itself
    out = cli("audit", "verify", "--db", db, "--head", kept)
    assert out.exit_code == 1
    assert f"entry #{head.entry}, the head kept, is not in the log" in out.stderr
    store.set_facility("Facility 9", HOLDER, "rev")  # the next entry takes the number again
    again = store.audit_head()
    if again.entry == head.entry:  # SQLite, its counter rewritten; PostgreSQL moves on
        out = cli("audit", "verify", "--db", db, "--head", kept, "--format", "json")
        assert out.exit_code == 1
        got = json.loads(out.stdout)
        assert got["intact"] is False and got["kept_head"]["holds"] is False
        assert f"entry #{head.entry}'s hash is {again.hash}" in got["kept_head"]["why"]
    for bad in ("abc", f"{head.entry}:xyz", f"{head.entry}:{head.hash[:7]}", "٤٧:ad1d2dbf"):
        out = cli("audit", "verify", "--db", db, "--head", bad)
        assert out.exit_code == 2 and "or ENTRY:HASH" in out.stderr
    # an entry past any a 64-bit id numbers: the databases' own errors spoke (a traceback)
    for past in (f"{2**63}:{head.hash}", f"{head.hash} (entry #{10**30}, 1 entry)"):
        out = cli("audit", "verify", "--db", db, "--head", past)
        assert out.exit_code == 2, out.output
        assert "is no entry of any audit log (1 to 9,223,372,036,854,775,807)" in out.stderr
        assert "Traceback" not in out.output
    store.dispose()


def test_a_postgresql_trigger_disabled_is_warned_of_as_one_dropped(tmp_path: Path) -> None:
    """PostgreSQL: the table's owner may disable the append-only trigger without dropping it
    (no superuser needed), and an entry is then edited without an error; verify looked for
    the trigger by name alone and said nothing. A disabled trigger is warned of."""
    for db in database("postgresql", tmp_path, migrated=True):
        store = _logged_store(db)
        for how in ("DISABLE", "ENABLE REPLICA"):  # a replica's trigger fires in no session
            with store.engine.connect() as conn, conn.begin():
                conn.execute(text(f"ALTER TABLE audit_log {how} TRIGGER audit_log_append_only"))
            got = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
            assert got["append_only_triggers_missing"] == ["audit_log_append_only"], how
            out = cli("audit", "verify", "--db", db)
            assert "append-only are gone or disabled (audit_log_append_only)" in out.stderr
        with store.engine.connect() as conn, conn.begin():
            conn.execute(text("ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_append_only"))
        got = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
        assert got["append_only_triggers_missing"] == []
        store.dispose()


def test_triggers_dropped_are_warned_of_and_a_dropped_log_is_a_break(db: str) -> None:
    """The append-only triggers dropped, the log untouched: verify still says intact (the
    chain shows any edit) and warns that they are gone, by name (JSON
    `append_only_triggers_missing`). The audit log's table dropped: exit 1, "the audit
    log's table is gone", never exit 2 as if there were no database."""
    store = _logged_store(db)
    out = cli("audit", "verify", "--db", db, "--format", "json")
    assert out.exit_code == 0 and json.loads(out.stdout)["append_only_triggers_missing"] == []
    with store.engine.connect() as conn, conn.begin():
        drop_audit_triggers(conn)
    out = cli("audit", "verify", "--db", db)
    assert out.exit_code == 0 and "the audit log is intact" in out.stdout
    assert "the triggers that keep the audit log append-only are gone or disabled" in out.stderr
    got = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
    assert got["append_only_triggers_missing"] and got["intact"] is True
    with store.engine.connect() as conn, conn.begin():
        conn.execute(text("DROP TABLE audit_log"))
    out = cli("audit", "verify", "--db", db)
    assert out.exit_code == 1
    assert "the audit log's table is gone from the database" in out.stderr
    store.dispose()


def test_the_head_is_printed_by_history_and_given_by_the_api(db: str, tmp_path: Path) -> None:
    office = make_office(tmp_path, db)
    head = office.store.audit_head()
    assert head.entries == 6 and head.hash != GENESIS  # four accounts, two filings
    assert head.hash in cli("history", "--db", db).stdout
    # the JSON is the list, as ever; the head beside it on stderr, as the text says it
    listed = cli("history", "--db", db, "--format", "json")
    assert [r["id"] for r in json.loads(listed.stdout)] == [r.id for r in office.store.history()]
    assert listed.stderr == f"rulesub: audit log chain head: {head}\n"
    assert str(head).endswith(f"(entry #{head.entry}, 6 entries)")
    assert str(replace(head, entries=1)).endswith(", 1 entry)")  # counted in words
    verified = json.loads(cli("audit", "verify", "--db", db, "--format", "json").stdout)
    assert verified["head"]["hash"] == head.hash and verified["intact"] is True
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(create_app(db, secret="s"), headers={"Authorization": f"Bearer {token}"})
    given = api.get("/api/audit/head").json()
    assert given["hash"] == office.store.audit_head().hash  # the token's issue, chained
    assert given["entries"] == head.entries + 1
    office.store.dispose()


def test_purge_deletes_filings_never_audit_entries(db: str) -> None:
    store = Store(db)
    long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=2200)
    sid = store.record(HCF, "filer", now=long_ago).id
    store.reject(sid, "rev", "bad table", now=long_ago)
    _, entries = counted(store)
    assert store.purge(years_before(dt.date.today(), 5), "rev") == [sid]
    assert counted(store) == (0, entries + 1)  # the filing gone, its entries and one more
    assert [e.action for e in store.events([sid])] == ["record", "reject", "purge"]
    assert store.verify_audit()[1] is None
    store.dispose()


# -- a facility belongs to one certificate holder ------------------------------------------------


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_a_filing_for_another_holders_facility_is_refused(db: str, tmp_path: Path) -> None:
    assert cli("record", str(HCF), "--db", db).exit_code == 0
    assert cli("approve", "1", "--by", "rev", "--date", "2026-12-01", "--db", db).exit_code == 0
    store = Store(db)
    before = counted(store)
    out = cli("record", str(harbour_filing(tmp_path)), "--db", db, "--format", "json")
    assert out.exit_code == 1
    refused = json.loads(out.stdout)
    assert [f["code"] for f in refused["findings"]] == [FACILITY_OF_ANOTHER_HOLDER]
    assert refused["findings"][0]["line"] == 6  # `facility:` in the file
    assert HOLDER not in refused["refused"] + refused["findings"][0]["message"]  # no leak
    assert counted(store) == before  # nothing recorded, nothing logged
    # a facility of its own is the other holder's to file
    own = cli("record", str(harbour_filing(tmp_path, "Harbour Point")), "--db", db)
    assert own.exit_code == 0
    store.dispose()


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_a_holder_written_in_another_case_is_told_so_not_called_another(
    db: str, tmp_path: Path
) -> None:
    """A facility's filings are its certificate holder's, names compared as written: a
    filing writing the same holder in lower case was refused as "another certificate
    holder", which reads as a competitor's. It is still refused (holders are not folded
    into one), but told as its own name written otherwise, with the spelling to use."""
    assert cli("record", str(HCF), "--db", db).exit_code == 0
    assert cli("approve", "1", "--by", "rev", "--date", "2026-12-01", "--db", db).exit_code == 0
    lower = amended(
        HCF,
        tmp_path / "lower.yaml",
        (f"certificate_holder: {HOLDER}", f"certificate_holder: {HOLDER.lower()}"),
        ("2027-01-01", "2027-03-01"),
    )
    out = cli("record", str(lower), "--db", db, "--format", "json")
    assert out.exit_code == 1
    (finding,) = json.loads(out.stdout)["findings"]
    assert finding["code"] == FACILITY_OF_ANOTHER_HOLDER and finding["line"] == 5
    assert f"belongs to certificate holder {HOLDER!r}, written so" in finding["message"]
    assert "another certificate holder" not in finding["message"]


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_an_approval_never_supersedes_another_holders_filing(db: str, tmp_path: Path) -> None:
    store = Store(db)
    ours = store.record(HCF, "filer").id
    theirs = store.record(harbour_filing(tmp_path, effective="2027-03-01"), "harbour").id
    store.approve(ours, "rev", on=dt.date(2026, 12, 1))
    out = cli("approve", str(theirs), "--by", "rev", "--date", "2026-12-01", "--db", db)
    assert out.exit_code == 1 and FACILITY_OF_ANOTHER_HOLDER in out.stderr
    assert store.get(ours).status == "approved" and store.get(theirs).status == "submitted"
    # a reviewer gives the facility to the other holder: its approval is allowed, and
    # still supersedes nothing of the first holder's
    given = ("facilities", "set", "Example Downs", "--holder", OTHER_HOLDER, "--by", "rev")
    assert cli(*given, "--db", db).exit_code == 0
    decided = store.approve(theirs, "rev", on=dt.date(2026, 12, 1))
    assert decided.superseded == []
    assert store.get(ours).status == "approved"
    listed = json.loads(cli("facilities", "list", "--db", db, "--format", "json").stdout)
    assert listed == [
        {
            "facility": "Example Downs",
            "certificate_holder": OTHER_HOLDER,
            "set_by": "rev",
            "set_at": listed[0]["set_at"],
            "approved_holders": [HOLDER, OTHER_HOLDER],
            "filing_holders": [HOLDER, OTHER_HOLDER],
        }
    ]
    later = amended(HCF, tmp_path / "o.yaml", ("2027-01-01", "2027-05-01"))
    again = cli("record", str(later), "--db", db)
    assert again.exit_code == 1 and "belongs to another certificate holder" in again.stderr
    store.dispose()


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_the_web_refuses_another_holders_facility_with_nothing_recorded(
    db: str, tmp_path: Path
) -> None:
    office = make_office(tmp_path, db)
    office.store.approve(office.ids["example"], "rev", on=dt.date(2026, 12, 1))
    before = counted(office.store)
    web = create_app(db, secret="test-secret")
    client = TestClient(web)
    assert sign_in(client, "harbour").status_code == 303
    content = harbour_filing(tmp_path).read_bytes()
    page = client.post(
        "/upload",
        data={"csrf": token_of(client)},
        files={"file": ("hcf.yaml", content, "application/yaml")},
        follow_redirects=False,
    )
    assert page.status_code == 403
    assert "belongs to another certificate holder" in page.text
    token = acct.issue_token(office.store, "harbour", by="test")
    after_token = counted(office.store)
    api = TestClient(web, headers={"Authorization": f"Bearer {token}"})
    answer = api.post("/api/submissions?name=hcf.yaml", content=content)
    assert answer.status_code == 403
    assert [f["code"] for f in answer.json()["findings"]] == [FACILITY_OF_ANOTHER_HOLDER]
    assert before[0] == after_token[0] == counted(office.store)[0]
    assert counted(office.store) == after_token
    office.store.dispose()


#: "Example Downs" written so that a page shows it the same (or nearly), each of them one
#: facility by the name's key (``validator.store.names``).
SPELLINGS = {
    "a trailing space": '"Example Downs "',
    "other letter case": "example DOWNS",
    "a doubled space": '"Example  Downs"',
    "a no-break space": '"Example\u00a0Downs"',
    "a full-width letter": "\uff25xample Downs",
}
#: A name mixing scripts, and the character named as out of place.
MIXED = {
    "a Cyrillic a": (
        "facility",
        "Ex\u0430mple Downs",
        "character 3, U+0430 CYRILLIC SMALL LETTER A",
    ),
    "a Greek omicron": ("facility", "Example D\u03bfwns", "character 10, U+03BF GREEK SMALL"),
    "a zero-width space": (
        "facility",
        "Example\u200bDowns",
        "character 8, U+200B ZERO WIDTH SPACE",
    ),
    "a Cyrillic o in the holder": (
        "certificate_holder",
        "Harb\u043eur Point Gaming LLC",
        "character 5, U+043E CYRILLIC SMALL LETTER O",
    ),
}


def written_as(tmp: Path, facility: str, holder: str = OTHER_HOLDER) -> Path:
    """The example filed by ``holder`` for ``facility`` as written in the YAML."""
    return amended(
        HCF,
        tmp / f"written-{abs(hash((facility, holder)))}.yaml",
        (f"certificate_holder: {HOLDER}", f"certificate_holder: {holder}"),
        ("facility: Example Downs", f"facility: {facility}"),
    )


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
@pytest.mark.parametrize("how", list(SPELLINGS))
def test_a_facility_written_another_way_is_the_same_facility(
    db: str, tmp_path: Path, how: str
) -> None:
    """Another holder's filing for a facility, its name written with a space more, another
    case, a no-break or a full-width letter, is refused as the name written exactly is;
    the holder's own filing so written is the same facility: one in the list, superseded."""
    assert cli("record", str(HCF), "--by", "clerk", "--db", db).exit_code == 0
    assert cli("approve", "1", "--by", "rev", "--date", "2026-12-01", "--db", db).exit_code == 0
    store = Store(db)
    before = counted(store)
    out = cli("record", str(written_as(tmp_path, SPELLINGS[how])), "--db", db, "--format", "json")
    assert out.exit_code == 1, out.stdout
    refused = json.loads(out.stdout)
    assert [f["code"] for f in refused["findings"]] == [FACILITY_OF_ANOTHER_HOLDER]
    assert counted(store) == before  # nothing recorded, nothing logged
    ours = amended(written_as(tmp_path, SPELLINGS[how], HOLDER), tmp_path / "ours.yaml")
    ours = amended(ours, tmp_path / "ours-later.yaml", ("2027-01-01", "2027-03-01"))
    assert cli("record", str(ours), "--by", "clerk", "--db", db).exit_code == 0
    listed = json.loads(cli("facilities", "list", "--db", db, "--format", "json").stdout)
    assert [(f["facility"], f["filing_holders"]) for f in listed] == [("Example Downs", [HOLDER])]
    assert store.approve(2, "rev", on=dt.date(2026, 12, 1)).superseded == [1]
    assert sorted(r.id for r in store.history("  example downs")) == [1, 2]
    # `history` lists them as one facility and game, saying how the other was written
    timeline = cli("history", "--db", db).stdout
    assert timeline.count("· High Card Flush (high-card-flush)") == 1, timeline
    assert (
        "Example Downs · High Card Flush (high-card-flush) "
        f"(also filed as {store.get(2).facility!r})" in timeline
    )
    # a reviewer gives it to the other holder under yet another spelling: one facility still
    given = ("facilities", "set", "EXAMPLE DOWNS", "--holder", OTHER_HOLDER, "--by", "rev")
    assert cli(*given, "--db", db).exit_code == 0
    listed = json.loads(cli("facilities", "list", "--db", db, "--format", "json").stdout)
    assert [(f["facility"], f["certificate_holder"]) for f in listed] == [
        ("Example Downs", OTHER_HOLDER)
    ]
    assert cli("record", str(written_as(tmp_path, SPELLINGS[how])), "--db", db).exit_code == 0
    store.dispose()


@pytest.mark.parametrize("how", list(MIXED))
def test_a_name_mixing_scripts_is_refused_naming_the_letter(
    db: str, tmp_path: Path, how: str
) -> None:
    """A facility's or a holder's name with a letter of another script (a Cyrillic ``а``
    that shows as a Latin ``a``) or a character no one sees is refused (exit 1, nothing
    recorded), the character named by its place and its Unicode name; so is a reviewer
    setting such a name."""
    field, name, named = MIXED[how]
    filing = (
        written_as(tmp_path, name, HOLDER)
        if field == "facility"
        else written_as(tmp_path, "X", name)
    )
    store = Store(db)
    before = counted(store)
    out = cli("record", str(filing), "--db", db, "--format", "json")
    assert out.exit_code == 1, out.stdout
    refused = json.loads(out.stdout)
    assert [(f["code"], f["path"]) for f in refused["findings"]] == [
        (NAME_MIXES_SCRIPTS, f"/{field}")
    ]
    assert named in refused["refused"]
    assert refused["findings"][0]["line"] == (6 if field == "facility" else 5)
    assert counted(store) == before
    args = (name, "--holder", HOLDER) if field == "facility" else ("X", "--holder", name)
    given = cli("facilities", "set", *args, "--by", "rev", "--db", db)
    assert given.exit_code == 1 and named in given.stderr
    assert counted(store) == before
    if field == "certificate_holder":  # nor is a casino account bound to such a holder
        account = cli(
            "users", "add", "eve", "--role", "casino", "--holder", name,
            "--password", "Passw0rd-1234", "--db", db,
        )  # fmt: skip
        assert account.exit_code == 2 and named in account.stderr
        assert counted(store) == before
    store.dispose()


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_the_web_refuses_a_facility_written_another_way_or_in_mixed_letters(
    db: str, tmp_path: Path
) -> None:
    """The upload goes through the store's one check: another holder's facility under any
    spelling, 403; a name mixing scripts, 422 naming the letter; nothing recorded."""
    office = make_office(tmp_path, db)
    office.store.approve(office.ids["example"], "rev", on=dt.date(2026, 12, 1))
    before = counted(office.store)
    client = TestClient(create_app(db, secret="test-secret"))
    assert sign_in(client, "harbour").status_code == 303

    def upload(facility: str) -> Any:
        content = written_as(tmp_path, facility).read_bytes()
        return client.post(
            "/upload",
            data={"csrf": token_of(client)},
            files={"file": ("hcf.yaml", content, "application/yaml")},
            follow_redirects=False,
        )

    for how, facility in SPELLINGS.items():
        page = upload(facility)
        assert page.status_code == 403, how
        assert "belongs to another certificate holder" in page.text, how
    page = upload(MIXED["a Cyrillic a"][1])
    assert page.status_code == 422
    assert "U+0430 CYRILLIC SMALL LETTER A" in page.text
    assert counted(office.store) == before
    office.store.dispose()


# -- hostile input reaching the store ------------------------------------------------------------


def test_an_id_past_two_to_the_63_is_no_submission(db: str, tmp_path: Path) -> None:
    office = make_office(tmp_path, db)
    client = TestClient(create_app(db, secret="s"), raise_server_exceptions=False)
    assert sign_in(client, "rev").status_code == 303
    token = acct.issue_token(office.store, "rev", by="test")
    api = TestClient(
        create_app(db, secret="s"),
        headers={"Authorization": f"Bearer {token}"},
        raise_server_exceptions=False,
    )
    for raw in (str(TWO_TO_THE_63), str(TWO_TO_THE_63 - 1), "9" * 400, "+1", "٣", "0", "-1"):
        assert client.get(f"/submissions/{raw}").status_code == 404, raw
        assert client.get(f"/submissions/{raw}/raw").status_code == 404, raw
        assert api.get(f"/api/submissions/{raw}").status_code == 404, raw
    assert client.get(f"/submissions/{office.ids['example']}").status_code == 200
    for args in (("show", str(TWO_TO_THE_63)), ("approve", str(TWO_TO_THE_63), "--by", "r")):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2 and f"no submission {TWO_TO_THE_63}" in out.stderr
    office.store.dispose()


@pytest.mark.parametrize("given", ["file:/x", "file:rulesub.sqlite3", "sqlite:x", "mysql:x"])
def test_a_db_that_is_no_url_nor_path_is_refused(
    given: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (("record", str(HCF)), ("history",), ("db", "upgrade")):
        out = cli(*args, "--db", given)
        assert out.exit_code == 2, args
        assert "not a database URL nor a file path" in out.stderr
        assert "Traceback" not in out.stderr
    assert list(tmp_path.iterdir()) == []  # no database made under ./file:


RECORD_LOOP = """
import sys
from pathlib import Path
from validator.store import Store
store = Store(sys.argv[1])
for path in sys.argv[2:]:
    store.record(Path(path), "filer")
    print(path, flush=True)
"""


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_a_killed_record_leaves_no_temporary_copy(tmp_path: Path) -> None:
    """``record`` processes killed (SIGKILL) at moments spread over their work: their
    temporary directory stays empty (the bytes are checked from memory, not a copy)."""
    db = str(tmp_path / "store.sqlite3")
    Store(db).upgrade("setup")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {"TMPDIR": str(scratch), "PATH": "/usr/bin:/bin"}
    import os

    env = {**os.environ, **env}
    killed = 0
    for attempt, delay in enumerate((0.0, 0.02, 0.05, 0.09, 0.15)):
        files = [
            amended(HCF, tmp_path / f"k{attempt}-{i}.yaml", ("Example Downs", f"Downs {i}"))
            for i in range(25)
        ]
        proc = subprocess.Popen(
            [sys.executable, "-c", RECORD_LOOP, db, *map(str, files)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert proc.stdout is not None
        proc.stdout.readline()
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate(timeout=60)
    assert killed > 0
    assert sorted(p.name for p in scratch.iterdir()) == []
