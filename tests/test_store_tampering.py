"""The record attacked where an audit found it open: on SQLite and a real PostgreSQL server.

Each test attacks one control (its name says which) and fails without it:

- the audit log cut at its end, then appended to: on SQLite the gap is named;
- a filing's row deleted directly, or an id recorded twice: named by ``audit verify``;
- a row's findings (their counts kept or not), decisions, holder, facility, game or
  effective date rewritten, or an approval's findings or waivers: named by ``audit
  verify``, and the filing is not decided on;
- an account's role or certificate holder rewritten, an account or an API token inserted
  by hand, an account's row deleted, a facility's certificate holder rewritten or a
  facility's row inserted or deleted: named by ``audit verify``;
- an entry or a row that cannot be read: a break for ``audit verify`` (exit 1), a message
  naming it for every other command (exit 2), never a traceback;
- ``record`` reads through the loader's bounded reader (a FIFO, a device, a huge file), names
  a link loop, a binary, empty or non-UTF-8 YAML file in a directory, and an unusable
  effective date at its line; a blank actor is refused; a decision is never dated before the
  filing was recorded, nor before the approval it supersedes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from store_db import (
    BACKENDS,
    EXAMPLES,
    amended,
    cli,
    database,
    decided_by_the_office_day,  # noqa: F401 (the office's day, for the approvals)
    drop_audit_triggers,
    rulesub,
)

from validator import PROJECT_ROOT
from validator.store import Store
from validator.store.lifecycle import _audit
from validator.store.schema import audit_log

HCF = EXAMPLES / "high-card-flush.yaml"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-payout-limit.yaml"
FILED = dt.datetime(2026, 11, 1, 9, tzinfo=dt.UTC)  # before every approval date below
#: the approvals below are dated up to the end of 2027: made on the office's day then
pytestmark = pytest.mark.usefixtures("decided_by_the_office_day")


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


def sqlite_only(db: str) -> None:
    if db.startswith("postgresql"):
        pytest.skip("SQLite keeps what it is given; PostgreSQL refuses it")


def tamper(store: Store, *statements: str) -> None:
    """Write to the database directly, the append-only triggers dropped."""
    with store.engine.connect() as conn, conn.begin():
        drop_audit_triggers(conn)
        for statement in statements:
            conn.execute(text(statement))


def verify(db: str) -> tuple[int, dict[str, Any], str]:
    out = cli("audit", "verify", "--db", db, "--format", "json")
    words = cli("audit", "verify", "--db", db)
    assert words.exit_code == out.exit_code
    return out.exit_code, json.loads(out.stdout), words.stderr


def filings(tmp_path: Path, store: Store, n: int) -> list[int]:
    """``n`` filings of Example Downs' High Card Flush, effective month after month."""
    return [
        store.record(
            amended(HCF, tmp_path / f"m{i}.yaml", ("2027-01-01", f"2027-{i:02d}-01")),
            "filer",
            now=FILED,
        ).id
        for i in range(1, n + 1)
    ]


# -- the log ---------------------------------------------------------------------------------


def test_on_sqlite_a_tail_cut_stays_named_after_the_next_append(tmp_path: Path) -> None:
    """The last entry deleted (and the filing's status rolled back), then an ordinary append:
    the new entry links to the one before the gap, and the gap is still named."""
    db = str(tmp_path / "store.sqlite3")
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    store.approve(sid, "bob", on=dt.date(2026, 12, 1))
    tamper(
        store,
        "DELETE FROM audit_log WHERE id = (SELECT max(id) FROM audit_log)",
        "UPDATE submissions SET status = 'submitted', approved_by = NULL, approved_on = NULL",
    )
    assert verify(db)[0] == 1
    store.set_facility("Other", "O LLC", "carol")
    code, report, said = verify(db)
    assert code == 1 and report["broken"]["entry"] == 3
    assert "entry #2 is missing before entry #3" in said
    assert "deleted, or entry #3 was written with a number not its own" in said
    store.dispose()


def test_swapped_entry_ids_are_named(db: str) -> None:
    """Two entries' ids swapped (each row kept whole): the first out of place is named."""
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    for i in range(3):
        store.set_facility(f"Facility {i}", "H", "rev")
    with store.engine.connect() as conn, conn.begin():
        drop_audit_triggers(conn)
        rows = [
            dict(r._mapping)
            for r in conn.execute(select(audit_log).where(audit_log.c.id.in_((2, 3))))
        ]
        conn.execute(text("DELETE FROM audit_log WHERE id IN (2, 3)"))
        over = " OVERRIDING SYSTEM VALUE" if conn.dialect.name == "postgresql" else ""
        for r in rows:
            r["id"] = 5 - r["id"]
            names = ", ".join(r)
            conn.execute(
                text(f"INSERT INTO audit_log ({names}){over} VALUES (:{', :'.join(r)})"), r
            )
    code, report, said = verify(db)
    assert code == 1 and report["broken"]["entry"] == 2, said
    assert sid == 1
    store.dispose()


@pytest.mark.parametrize("status", ["submitted", "approved"])
def test_a_filing_row_deleted_directly_is_named(db: str, tmp_path: Path, status: str) -> None:
    store = Store(db)
    first, second = filings(tmp_path, store, 2)
    if status == "approved":
        store.approve(second, "bob", on=dt.date(2026, 12, 1))
    tamper(store, f"DELETE FROM submissions WHERE id = {second}")
    code, report, said = verify(db)
    assert code == 1 and report["broken"] is None
    assert report["filings"] == [
        {
            "submission": second,
            "reason": f"the audit log records it, {status}, and no purge: its row is gone",
        }
    ]
    assert f"submission {second} does not match" in said and str(first) not in said
    store.dispose()


def test_a_row_deleted_by_hand_never_gives_its_id_again(db: str, tmp_path: Path) -> None:
    """A filing's row deleted directly (not purged): the next filing gets a new id, and the
    deleted one's entries never attach to it."""
    store = Store(db)
    _, second = filings(tmp_path, store, 2)
    tamper(store, f"DELETE FROM submissions WHERE id = {second}")
    again = store.record(tmp_path / "m2.yaml", "filer", now=FILED).id
    assert again > second
    assert [e.action for e in store.events([again])] == ["record"]
    store.dispose()


def test_an_id_recorded_twice_is_named(db: str, tmp_path: Path) -> None:
    """A second record entry for one id with no purge between (well chained): an id given
    twice."""
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    entry = store.events([sid])[0]
    with store.transaction() as conn:
        _audit(conn, "filer", "record", sid, json.loads(entry.detail), FILED)
    code, report, said = verify(db)
    assert code == 1 and report["broken"] is None
    assert "records it twice with no purge between: its id was given twice" in said
    store.dispose()


# -- a row held to the log ----------------------------------------------------------------


def test_edited_findings_are_named_and_the_filing_cannot_be_approved(db: str) -> None:
    """A filing with an error finding, its findings and counts cleared in the database: verify
    names it, and the approval the edit was for is refused."""
    store = Store(db)
    sid = store.record(FLAWED, "filer", now=FILED).id
    assert store.get(sid).errors > 0
    tamper(store, f"UPDATE submissions SET findings = '[]', errors = 0 WHERE id = {sid}")
    code, _, said = verify(db)
    assert code == 1 and "are not the ones the audit log recorded" in said
    out = cli("approve", str(sid), "--by", "bob", "--date", "2026-12-01", "--db", db)
    assert out.exit_code == 1
    assert f"submission {sid} does not match the audit log" in out.stderr
    assert "cannot be approved" in out.stderr
    assert store.get(sid).status == "submitted"
    store.dispose()


def _rewrite_findings(store: Store, sid: int, column: str, old: str, new: str) -> None:
    """One value in a filing's stored findings replaced, their counts left as they were."""
    with store.engine.connect() as conn:
        stored = conn.execute(text(f"SELECT {column} FROM submissions WHERE id = {sid}")).scalar()
    assert old in stored
    edited = stored.replace(old, new).replace("'", "''")
    tamper(store, f"UPDATE submissions SET {column} = '{edited}' WHERE id = {sid}")


def test_a_finding_recoded_with_its_counts_kept_is_named_and_not_waived(db: str) -> None:
    """The error's code rewritten to one a waiver then names, the counts untouched: the
    record entry holds the findings' sha256, so verify names the filing and the approval
    that would waive the rewritten code is refused."""
    store = Store(db)
    sid = store.record(FLAWED, "filer", now=FILED).id
    assert verify(db)[0] == 0
    _rewrite_findings(
        store, sid, "findings", "high-card-flush/payout-limit-floor", "high-card-flush/typo"
    )
    code, report, said = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [sid]
    assert "the counts agree, the findings themselves were changed" in said
    out = cli(
        "approve", str(sid), "--by", "bob", "--date", "2026-12-01",
        "--waive", "high-card-flush/typo=clerical", "--db", db,
    )  # fmt: skip
    assert out.exit_code == 1 and "cannot be approved" in out.stderr
    assert store.get(sid).status == "submitted" and not store.waivers_of(sid)
    store.dispose()


def test_the_findings_an_approval_was_decided_on_rewritten_are_named(db: str) -> None:
    """The approval's findings kept (with their sha256 in its entry): an error made a
    warning there after the approval is named, though no count is kept for them."""
    store = Store(db)
    sid = store.record(FLAWED, "filer", now=FILED).id
    store.approve(
        sid, "bob", on=dt.date(2026, 12, 1), waive={"high-card-flush/payout-limit-floor": "ok"}
    )
    assert verify(db)[0] == 0
    _rewrite_findings(store, sid, "approval_findings", '"error"', '"warning"')
    code, _, said = verify(db)
    assert code == 1
    assert "the findings its approval was decided on are not the ones the audit log" in said
    store.dispose()


def _approved_with_a_waiver(
    db: str, now: dt.datetime | None = None, reason: str = "ok"
) -> tuple[Store, int]:
    """The flawed filing recorded, then approved by bob with its one error waived."""
    store = Store(db)
    sid = store.record(FLAWED, "filer", now=FILED).id
    waive = {"high-card-flush/payout-limit-floor": reason}
    store.approve(sid, "bob", on=dt.date(2026, 12, 1), waive=waive, now=now)
    return store, sid


WAIVER_EDITS = {
    "its reason rewritten": "UPDATE waivers SET reason = 'the Board agreed' WHERE id = 1",
    "its waiver deleted": "DELETE FROM waivers",
    "a waiver added": "INSERT INTO waivers (submission_id, code, reason, waived_by, waived_at) "
    "SELECT submission_id, 'high-card-flush/other', 'fine', waived_by, waived_at FROM waivers",
    "its waiver given to another": "UPDATE waivers SET waived_by = 'carol'",
}


@pytest.mark.parametrize("edit", list(WAIVER_EDITS))
def test_an_approvals_waivers_rewritten_are_named(db: str, edit: str) -> None:
    """The approve entry holds each waiver's code and reason, the approver and the time:
    a waiver row rewritten, deleted or added is named by verify."""
    store, sid = _approved_with_a_waiver(db, reason="below the floor by a cent")
    assert verify(db)[0] == 0
    tamper(store, WAIVER_EDITS[edit])
    code, report, said = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [sid]
    assert "its waivers (" in said and "are not the ones the audit log recorded" in said
    assert re.search(
        r"approval \(high-card-flush/payout-limit-floor by bob at [0-9T:.-]+Z: "
        r"'below the floor by a cent'\)",
        said,
    ), said
    store.dispose()


def test_a_waiver_for_a_filing_never_approved_is_named(db: str) -> None:
    store = Store(db)
    sid = store.record(FLAWED, "filer", now=FILED).id
    tamper(
        store,
        "INSERT INTO waivers (submission_id, code, reason, waived_by, waived_at) VALUES "
        f"({sid}, 'high-card-flush/payout-limit-floor', 'fine', 'bob', '2026-12-01 09:00:00')",
    )
    code, _, said = verify(db)
    assert code == 1 and "it has waivers, and the audit log records no approval of it" in said
    store.dispose()


#: A field the log holds, rewritten in the row: the statement, and the words naming it.
FIELD_EDITS = {
    "approved_by": ("approved_by = 'mallory'", "who approved it is 'mallory'"),
    "approved_on": ("approved_on = '2026-11-02'", "its approval date is 2026-11-02"),
    "certificate_holder": ("certificate_holder = 'Evil LLC'", "its certificate holder"),
    "facility": ("facility = 'Elsewhere'", "its facility is 'Elsewhere'"),
    "game": ("game = 'four-card-poker'", "its game is 'four-card-poker'"),
    "effective": ("effective = '2031-01-01'", "its effective date is 2031-01-01"),
    "filename": ("filename = 'other.yaml'", "its file name is 'other.yaml'"),
    "recorded_by": ("recorded_by = 'mallory'", "who recorded it is 'mallory'"),
}
REJECTION_EDITS = {
    "rejected_by": ("rejected_by = 'mallory'", "who rejected it is 'mallory'"),
    "rejection_reason": ("rejection_reason = 'fine'", "its rejection reason is 'fine'"),
    "ended_at": ("ended_at = '2001-01-01 00:00:00.000000'", "when it ended"),  # retention
}


@pytest.mark.parametrize("field", list(FIELD_EDITS) + list(REJECTION_EDITS))
def test_a_field_the_log_holds_rewritten_in_the_row_is_named(db: str, field: str) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    if field in REJECTION_EDITS:
        store.reject(sid, "rev", "bad table")
        change, words = REJECTION_EDITS[field]
        if field == "ended_at" and db.startswith("postgresql"):
            change = "ended_at = '2001-01-01T00:00:00+00:00'"
    else:
        store.approve(sid, "bob", on=dt.date(2026, 12, 1))
        change, words = FIELD_EDITS[field]
    assert verify(db)[0] == 0
    tamper(store, f"UPDATE submissions SET {change} WHERE id = {sid}")
    code, report, said = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [sid]
    assert words in said
    store.dispose()


UNDECIDED_EDITS = {
    "an approval on a pending filing": (
        "approved_by = 'mallory', approved_on = '2026-11-28', approval_note = 'looks fine'",
        "who approved it is 'mallory' in its row; the audit log records none",
    ),
    "a rejection reason on a pending filing": (
        "rejection_reason = 'void'",
        "its rejection reason is 'void' in its row; the audit log records none",
    ),
    "a supersession on a pending filing": (
        "superseded_by = 1, superseded_on = '2027-06-01'",
        "the filing that superseded it is 1 in its row; the audit log records none",
    ),
}


@pytest.mark.parametrize("edit", list(UNDECIDED_EDITS))
def test_a_decision_no_entry_made_written_into_a_row_is_named(db: str, edit: str) -> None:
    """A pending filing whose row is given an approval, a rejection reason or a
    supersession straight in the database (its status left "submitted", so no status
    differs): no entry decided it, so each such field is held empty, and verify names it.
    The web page showed "submitted" beside "Approved 2026-11-28 by mallory"."""
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    assert verify(db)[0] == 0
    change, words = UNDECIDED_EDITS[edit]
    tamper(store, f"UPDATE submissions SET {change} WHERE id = {sid}")
    code, report, said = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [sid]
    assert words in said
    store.dispose()


def test_a_filing_edited_before_its_decision_is_not_decided_on(db: str) -> None:
    """The holder of a pending filing rewritten: neither approved nor rejected."""
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    tamper(store, f"UPDATE submissions SET certificate_holder = 'Evil LLC' WHERE id = {sid}")
    for args in (("approve", "--date", "2026-12-01"), ("reject", "--reason", "no")):
        out = cli(args[0], str(sid), "--by", "bob", *args[1:], "--db", db)
        assert out.exit_code == 1, out.stderr
        assert "its certificate holder is 'Evil LLC'" in out.stderr
    store.dispose()


# -- what cannot be read -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    ["at = 'garbage'", "detail = '{not json'"],
)
def test_an_unreadable_entry_is_a_break_and_elsewhere_a_message(db: str, change: str) -> None:
    if "at =" in change:
        sqlite_only(db)
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    store.set_facility("Other", "O LLC", "carol")
    tamper(store, f"UPDATE audit_log SET {change} WHERE id = 1")
    code, report, said = verify(db)
    assert code == 1 and report["broken"]["entry"] == 1
    assert "Traceback" not in said
    for args in (("history",), ("approve", str(sid), "--by", "bob", "--date", "2026-12-01")):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2, (args, out.stderr)
        assert "the database is damaged: audit entry #1" in out.stderr
    store.dispose()


def test_an_unreadable_row_is_named_with_exit_2_and_unmatched_for_verify(db: str) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    tamper(store, f"UPDATE submissions SET findings = '{{x' WHERE id = {sid}")
    for args in (("show", str(sid), "--format", "json"), ("approve", str(sid), "--by", "b")):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2, (args, out.stderr)
        assert f"the database is damaged: submission {sid}: its recorded findings" in out.stderr
    code, report, _ = verify(db)
    assert code == 1 and report["filings"][0]["submission"] == sid
    store.dispose()


def test_a_file_stored_as_text_is_unmatched_and_not_shown(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    tamper(store, "UPDATE submissions SET content = CAST(content AS TEXT)")
    code, _, said = verify(db)
    assert code == 1 and "its file is stored as text" in said
    out = cli("show", str(sid), "--db", db)
    assert out.exit_code == 2 and "the database is damaged" in out.stderr
    store.dispose()


@pytest.mark.parametrize("column", ["recorded_at", "effective", "decided_at"])
def test_a_date_written_over_is_named_by_verify_and_refused_elsewhere(
    tmp_path: Path, column: str
) -> None:
    """SQLite keeps what it is given: a filing's date or time written over with a word.
    `audit verify` names the filing and the field (exit 1); every other command says the
    database is damaged (exit 2), never a traceback."""
    db = str(tmp_path / "store.sqlite3")
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    store.reject(sid, "rev", "a date to damage", now=FILED)
    tamper(store, f"UPDATE submissions SET {column} = 'x' WHERE id = {sid}")
    code, report, _ = verify(db)
    assert code == 1 and report["filings"][0]["submission"] == sid
    assert "cannot be read" in report["filings"][0]["reason"]
    for args in (("history",), ("show", str(sid)), ("approve", str(sid), "--by", "b")):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2, (args, out.stderr, out.exception)
        assert "the database is damaged: a stored date or time cannot be read" in out.stderr
    store.dispose()


# -- record's input -----------------------------------------------------------------------------


def test_record_reads_only_regular_files_within_the_size_cap(tmp_path: Path) -> None:
    """A FIFO (which would block), a device (which never ends), a sparse 3 GB file: each named
    and refused without being read, alone and inside a directory; the others recorded."""
    db = str(tmp_path / "store.sqlite3")
    where = tmp_path / "filings"
    where.mkdir()
    amended(HCF, where / "a.yaml", ("2027-01-01", "2027-01-01"))
    os.mkfifo(where / "pipe.yaml")
    with (where / "huge.yaml").open("wb") as f:
        f.truncate(3 * 1024**3)
    for given, why in (
        (where / "pipe.yaml", "is a FIFO (named pipe), not a file to read"),
        (Path("/dev/zero"), "/dev/zero: is a device, not a file to read"),
        (where / "huge.yaml", "the file is over 1,000,000 bytes"),
    ):
        out = rulesub("record", str(given), "--db", db, timeout=60)
        assert out.returncode == 2 and why in out.stderr, out.stderr
    out = rulesub("record", str(where), "--db", db, timeout=60)
    assert out.returncode == 2
    assert "is a FIFO (named pipe)" in out.stderr and "over 1,000,000 bytes" in out.stderr
    assert "1 recorded, 2 unreadable" in out.stderr


def test_a_link_loop_in_a_directory_is_named_and_the_others_recorded(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    where = tmp_path / "filings"
    where.mkdir()
    amended(HCF, where / "a.yaml", ("2027-01-01", "2027-01-01"))
    amended(HCF, where / "z.yaml", ("2027-01-01", "2027-02-01"))
    (where / "l.yaml").symlink_to("m.yaml")
    (where / "m.yaml").symlink_to("l.yaml")
    out = cli("record", str(where), "--db", db)
    assert out.exit_code == 2
    assert "l.yaml: a symbolic link loop" in out.stderr and "Traceback" not in out.stderr
    assert "2 recorded, 2 unreadable" in out.stderr


def test_binary_empty_or_non_utf8_yaml_in_a_directory_is_named(tmp_path: Path) -> None:
    """In a directory of filings, a .yaml that is binary, empty or not UTF-8 is named and makes
    the exit 2; the filings beside it are recorded, other YAML is passed over, said."""
    db = str(tmp_path / "store.sqlite3")
    where = tmp_path / "filings"
    where.mkdir()
    amended(HCF, where / "a.yaml", ("2027-01-01", "2027-01-01"))
    (where / "binary.yaml").write_bytes(bytes(range(128, 256)) * 3)
    (where / "empty.yaml").write_bytes(b"")
    (where / "latin.yaml").write_bytes(HCF.read_bytes().replace(b"Example", b"Ex\xe9mple", 1))
    (where / "ci.yaml").write_text("on: push\n", encoding="utf-8")
    out = cli("record", str(where), "--db", db, "--format", "json")
    assert out.exit_code == 2
    for name in ("binary.yaml", "empty.yaml", "latin.yaml"):
        assert f"{name}:" in out.stderr
    assert "not UTF-8" in out.stderr and "the file is empty" in out.stderr
    assert "skipped 1 YAML file that is not a Rules Submission" in out.stderr
    listed = json.loads(out.stdout)
    assert [r["file"].rsplit("/", 1)[-1] for r in listed if "id" in r] == ["a.yaml"]
    assert len([r for r in listed if "unreadable" in r]) == 3


@pytest.mark.parametrize("effective", ['"soon"', "[1, 2]", "20270101"])
def test_an_unusable_effective_date_is_refused_at_its_line(tmp_path: Path, effective: str) -> None:
    db = str(tmp_path / "store.sqlite3")
    bad = amended(HCF, tmp_path / "bad.yaml", ("effective: 2027-01-01", f"effective: {effective}"))
    out = cli("record", str(bad), "--db", db)
    assert out.exit_code == 2
    line = next(
        n for n, t in enumerate(bad.read_text().splitlines(), 1) if t.startswith("effective")
    )
    assert f"bad.yaml:{line}:12: " in out.stderr and "expected a date like 2027-01-01" in out.stderr


# -- who acts, and when ----------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_actor_is_refused_everywhere(db: str, blank: str) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    before = len(store.events())
    for args in (
        ("record", str(HCF)),
        ("facilities", "set", "Other", "--holder", "O LLC"),
        ("approve", str(sid), "--date", "2026-12-01"),
        ("reject", str(sid), "--reason", "no"),
        ("purge", "--before", "2000-01-01"),
    ):
        out = cli(*args, "--by", blank, "--db", db)
        assert out.exit_code == 2, (args, out.stderr)
        assert "name the officer who acts" in out.stderr
    with pytest.raises(Exception, match="name the officer"), store.transaction() as conn:
        _audit(conn, blank, "facility-holder", None, {})
    assert len(store.events()) == before
    store.dispose()


def test_a_decision_dated_before_the_filing_or_the_approval_it_supersedes_is_refused(
    db: str, tmp_path: Path
) -> None:
    store = Store(db)
    earlier, later = filings(tmp_path, store, 2)
    out = cli("approve", str(earlier), "--by", "bob", "--date", "1900-01-01", "--db", db)
    assert out.exit_code == 1
    assert "dated 1900-01-01 is before submission" in out.stderr and "2026-11-01" in out.stderr
    store.approve(earlier, "bob", on=dt.date(2026, 12, 1))
    out = cli("approve", str(later), "--by", "bob", "--date", "2026-11-15", "--db", db)
    assert out.exit_code == 1
    assert f"would supersede submission {earlier}, approved on 2026-12-01" in out.stderr
    assert store.get(earlier).status == "approved"
    with pytest.raises(Exception, match="before submission"):
        store.reject(later, "bob", "no", now=dt.datetime(2026, 10, 1, tzinfo=dt.UTC))
    store.dispose()


def test_approving_an_approved_filing_is_refused(db: str) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    assert (
        cli("approve", str(sid), "--by", "bob", "--date", "2026-12-01", "--db", db).exit_code == 0
    )
    out = cli("approve", str(sid), "--by", "eve", "--date", "2026-12-02", "--db", db)
    assert out.exit_code == 1 and "is approved (by bob)" in out.stderr
    assert store.get(sid).approved_by == "bob"
    store.dispose()


# -- the evidence read whatever was written, and never crying wolf --------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("UPDATE submissions SET approval_findings = CAST(approval_findings AS BLOB)",
         "the findings of its approval cannot be read"),
        ("UPDATE waivers SET code = CAST(code AS BLOB)", "are not the ones the audit log"),
        ("INSERT INTO waivers (submission_id, code, reason, waived_by, waived_at) SELECT "
         "submission_id, X'6869', reason, waived_by, waived_at FROM waivers",
         "are not the ones the audit log"),
        ("UPDATE waivers SET waived_at = 12345", "the time of one of its waivers cannot be read"),
        ("UPDATE waivers SET waived_at = 'garbage'",
         "the time of one of its waivers cannot be read"),
    ],
)  # fmt: skip
def test_an_approval_or_waiver_written_as_no_text_is_named_never_a_traceback(
    tmp_path: Path, change: str, words: str
) -> None:
    """SQLite keeps what it is given (bytes in a text column, a number for a time): verify
    names the filing (exit 1) and never stops with a traceback."""
    db = str(tmp_path / "store.sqlite3")
    store, sid = _approved_with_a_waiver(db)
    tamper(store, change)
    code, report, said = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [sid], said
    assert words in said and "Traceback" not in said
    store.dispose()


def test_a_waivers_time_rewritten_is_named_with_both_times(db: str) -> None:
    store, _ = _approved_with_a_waiver(db)
    tamper(store, "UPDATE waivers SET waived_at = '2030-01-01 00:00:00+00:00'")
    code, _, said = verify(db)
    assert code == 1 and "at 2030-01-01T00:00:00Z" in said and "by bob at 20" in said
    store.dispose()


def test_an_action_given_a_time_in_another_zone_is_written_in_utc(db: str) -> None:
    """An approval at 10:00 at UTC+2 (the API may pass its own time) is written at 08:00
    UTC, its waiver too: verify finds the filing as the log holds it."""
    two_hours_east = dt.timezone(dt.timedelta(hours=2))
    store, sid = _approved_with_a_waiver(db, dt.datetime(2026, 12, 1, 10, tzinfo=two_hours_east))
    assert verify(db)[0] == 0
    assert store.get(sid).decided_at.replace(tzinfo=dt.UTC).hour == 8
    store.dispose()


def test_a_purged_filing_named_by_one_it_replaced_is_no_tampering(db: str, tmp_path: Path) -> None:
    """A pending filing replaced by a second copy for the same date (the replaced one is kept:
    only rejected and superseded filings are purged); the second, approved, is superseded
    and later purged. ``purge`` clears its id from the replaced filing's row, as the log's
    purge entry says: verify finds no tampering."""
    store = Store(db)
    first = store.record(HCF, "filer", now=FILED).id
    copy = tmp_path / "copy.yaml"
    copy.write_bytes(HCF.read_bytes() + b"# the same, filed again\n")
    second = store.record(copy, "filer", now=FILED).id
    store.approve(second, "bob", on=dt.date(2026, 12, 1), now=FILED)
    assert store.get(first).status == "replaced"
    later = amended(HCF, tmp_path / "later.yaml", ("2027-01-01", "2027-02-01"))
    third = store.record(later, "filer", now=FILED).id
    store.approve(third, "bob", on=dt.date(2026, 12, 2), now=FILED)
    assert store.get(second).status == "superseded"
    assert verify(db)[0] == 0
    when = FILED + dt.timedelta(days=7 * 366)  # past the retention from 2027-02-01
    assert store.purge(dt.date(when.year - 5, 1, 1), "rev", now=when) == [second]
    code, _, said = verify(db)
    assert code == 0, said
    store.dispose()


def test_a_purge_appended_by_hand_of_a_filing_in_force_is_named(db: str, tmp_path: Path) -> None:
    """Someone with write access deletes an approved filing's row and appends one well-formed
    `purge` entry (its hashes chained): the chain holds, and verify said the log intact,
    exit 0, though the log had it approved and never ended. rulesub purges only a rejected
    or superseded filing, and never gives a number twice: verify names a purge of a filing
    in force or pending, and a record entry after a purge (a number given again)."""
    from sqlalchemy import delete

    from validator.store.schema import submissions

    store = Store(db)
    approved = store.record(HCF, "filer", now=FILED).id
    store.approve(approved, "bob", on=dt.date(2026, 12, 1), now=FILED)
    later = amended(HCF, tmp_path / "later.yaml", ("2027-01-01", "2027-02-01"))
    pending = store.record(later, "filer", now=FILED).id
    assert verify(db)[0] == 0
    with store.transaction() as conn:
        for sid in (approved, pending):
            conn.execute(delete(submissions).where(submissions.c.id == sid))
            _audit(conn, "rev", "purge", sid, {"status": "rejected"}, FILED)
        # the number of the pending one handed out again, as a counter set back would
        _audit(conn, "filer", "record", pending, {"sha256": "0" * 64}, FILED)
    code, _, said = verify(db)
    assert code == 1, said
    assert (
        f"submission {approved} does not match the audit log: the audit log purges it while "
        "approved: rulesub purges only a rejected or superseded filing"
    ) in said
    assert f"submission {pending} does not match the audit log: the audit log purges it " in said
    store.dispose()


def _forge_approval(store: Store, sid: int, by: str, on: dt.date, at: dt.datetime) -> None:
    """An approval written by hand, row and entry agreeing (its hashes chained, its
    findings' sha256 the row's): what ``Store.approve`` would write, without its refusals."""
    from sqlalchemy import update

    from validator.store.evidence import digest
    from validator.store.schema import submissions

    with store.transaction() as conn:
        found = conn.execute(
            select(submissions.c.findings).where(submissions.c.id == sid)
        ).scalar_one()
        conn.execute(
            update(submissions)
            .where(submissions.c.id == sid)
            .values(
                status="approved",
                approved_by=by,
                approved_on=on,
                approval_findings=found,
                decided_at=at,
            )
        )
        detail = {"approved_on": on.isoformat(), "note": None, "waived": []}
        _audit(conn, by, "approve", sid, {**detail, "findings_sha256": digest(found)}, at)


@pytest.mark.parametrize(
    ("file", "by", "on", "named"),
    [
        (HCF, "Filer", dt.date(2026, 11, 2), "by Filer, who recorded it"),
        (FLAWED, "bob", dt.date(2026, 11, 2), "on an error finding no waiver covers"),
        (HCF, "bob", dt.date(2020, 1, 1), "on 2020-01-01, before it was recorded on 2026-11-01"),
    ],
    ids=["by-its-recorder", "unwaived-error", "before-recording"],
)
def test_an_approval_appended_by_hand_that_rulesub_refuses_is_named(
    db: str, file: Path, by: str, on: dt.date, named: str
) -> None:
    """An approval rulesub never writes, appended by hand with its row to match and its
    hashes chained: by whoever recorded the filing (separation of duties), on an error
    finding no waiver covers, or dated before the filing was recorded. The chain holds,
    and verify said the log intact (exit 0); each is now named from what the log itself
    holds (exit 1)."""
    store = Store(db)
    sid = store.record(file, "filer", now=FILED).id
    _forge_approval(store, sid, by, on, FILED + dt.timedelta(days=1))
    code, _, said = verify(db)
    assert code == 1, said
    assert f"submission {sid} does not match the audit log: the audit log has it approved " in said
    assert named in said
    store.dispose()


# -- the accounts ----------------------------------------------------------------------------


def test_an_account_or_token_written_by_hand_is_named_by_verify(db: str) -> None:
    """Roles never change once an account is added (``users add``), and every API token is
    issued through the log: a viewer made reviewer, a casino account moved to another
    certificate holder, an account or a token inserted, an account deleted, all in the
    database directly, are each named by ``audit verify`` (exit 1); the accounts as the
    commands left them, including tokens revoked and issued again and an account removed
    and added again, are not."""
    from validator.store import accounts as acct

    store = Store(db)
    for name, role, holder in (
        ("val", "viewer", None),
        ("cas", "casino", "Example Downs Racing & Casino"),
        ("gone", "viewer", None),
        ("again", "viewer", None),
    ):
        acct.add(store, name, role, "a-long-password", holder=holder, by="officer")
    acct.issue_token(store, "val", label="ci", by="officer")
    acct.revoke_tokens(store, "val", by="officer")
    acct.issue_token(store, "val", label="ci", by="officer")
    acct.issue_token(store, "cas", by="officer")
    acct.set_password(store, "cas", "another-long-password", by="officer")
    acct.remove(store, "again", by="officer")
    acct.add(store, "again", "reviewer", "a-long-password", by="officer")
    code, out, _ = verify(db)
    assert (code, out["intact"], out["accounts"]) == (0, True, [])

    tamper(
        store,
        "UPDATE accounts SET role = 'reviewer' WHERE name = 'val'",
        "UPDATE accounts SET certificate_holder = 'Harbour Casino' WHERE name = 'cas'",
        "INSERT INTO accounts (name, role, password_hash, created_at) "
        "SELECT 'mole', 'reviewer', password_hash, created_at FROM accounts WHERE name = 'val'",
        "INSERT INTO api_tokens (account_id, token_sha256, label, created_at) "
        "SELECT id, 'f00d', 'api', created_at FROM accounts WHERE name = 'cas'",
        "DELETE FROM accounts WHERE name = 'gone'",
    )
    code, out, words = verify(db)
    assert code == 1 and out["intact"] is False and out["filings"] == []
    reasons = {a["account"]: a["reason"] for a in out["accounts"]}
    assert reasons == {
        "cas": "its certificate holder is Harbour Casino; the audit log added it as Example "
        "Downs Racing & Casino; it holds 1 API token labelled 'api'; the audit log issued "
        "0 still unrevoked",
        "gone": "the audit log added it and never removed it; it is gone",
        "mole": "the audit log never added it",
        "val": "its role is reviewer; the audit log added it as viewer",
    }
    assert "rulesub: account 'val' does not match the audit log: its role is reviewer" in words
    said = cli("audit", "verify", "--db", db).stdout
    assert "chain is intact" in said and "but 4 records in the database do not match" in said


def test_a_facilitys_holder_written_by_hand_is_named_by_verify(db: str, tmp_path: Path) -> None:
    """A reviewer sets which certificate holder a facility belongs to (``facilities set``,
    audited), and another holder's filing for it is refused. Rewritten in the database, the
    holder would let the other holder file: ``audit verify`` names it, and a facility set
    by no entry, and one whose row is gone; set again under another spelling of its name,
    it is not."""
    store = Store(db)
    filings(tmp_path, store, 1)
    store.set_facility("Example Downs", "Example Downs Racing & Casino", "rev")
    store.set_facility("EXAMPLE  downs", "Example Downs Racing & Casino", "rev2")
    store.set_facility("Harbour Point", "Harbour Casino", "rev")
    code, out, _ = verify(db)
    assert (code, out["facilities"]) == (0, [])
    tamper(
        store,
        "UPDATE facilities SET certificate_holder = 'Harbour Casino' "
        "WHERE facility = 'Example Downs'",
        "INSERT INTO facilities (facility, certificate_holder, set_by, set_at) "
        "SELECT 'Lakeside', 'Harbour Casino', set_by, set_at FROM facilities "
        "WHERE facility = 'Harbour Point'",
        "DELETE FROM facilities WHERE facility = 'Harbour Point'",
    )
    code, out, words = verify(db)
    assert code == 1 and out["intact"] is False
    assert out["facilities"] == [
        {
            "facility": "Example Downs",
            "reason": "its certificate holder is Harbour Casino, set by rev2; the audit log "
            "set Example Downs Racing & Casino, by rev2",
        },
        {"facility": "Harbour Point", "reason": "the audit log set its holder; its row is gone"},
        {"facility": "Lakeside", "reason": "the audit log never set its holder"},
    ]
    assert "rulesub: facility Lakeside does not match the audit log" in words


def test_a_number_recorded_again_after_its_purge_is_named() -> None:
    """The log's own story of one number: recorded, rejected, purged (as `purge` writes
    it), then recorded again, which rulesub never does (a number is never given twice; a
    counter set back by hand would). What the log says is read as a contradiction; the
    same story without the second record entry is none."""
    from validator.store.evidence import Entry, Told

    def entry(n: int, action: str) -> Entry:  # recorded by one, decided by another
        by = "filer" if action == "record" else "rev"
        return Entry(n, FILED, by, action, 4, "{}", "", "", {"sha256": "0" * 64})

    story = [entry(1, "record"), entry(2, "reject"), entry(3, "purge")]
    told = Told()
    for e in story:
        told.hear(e)
    assert told.contradicted is None and told.purged
    told.hear(entry(4, "record"))
    assert told.contradicted == (
        "the audit log records it again after its purge: a filing's number is never given twice"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("UPDATE audit_log SET actor = X'fffe00' WHERE id = 1", "broken at entry #1"),
        ("UPDATE audit_log SET actor = CAST(actor AS BLOB) WHERE id = 2",
         "its actor is stored as bytes"),
        ("UPDATE audit_log SET action = CAST(action AS BLOB) WHERE id = 2",
         "its action is stored as bytes"),
        ("UPDATE submissions SET filename = CAST(filename AS BLOB)",
         "its file name (stored as bytes)"),
        ("UPDATE submissions SET facility = CAST(facility AS BLOB)",
         "its facility (stored as bytes)"),
        ("UPDATE accounts SET name = CAST(name AS BLOB)",
         "account 'val' does not match the audit log"),
    ],
)  # fmt: skip
def test_bytes_written_over_a_text_column_are_named_never_a_traceback(
    tmp_path: Path, change: str, said: str
) -> None:
    """SQLite keeps what it is given: bytes in place of an entry's actor or action, a
    filing's file name or facility, an account's name. `audit verify` stopped with a
    traceback on the very edit it is there to find, and `history` on others; verify names
    the entry or the filing (exit 1), even where the bytes spell the same words, and the
    other commands read on or say the database is damaged (exit 2), never a traceback."""
    from validator.store import accounts as acct

    db = str(tmp_path / "store.sqlite3")
    store, sid = _approved_with_a_waiver(db)
    acct.add(store, "val", "viewer", "a-long-password", by="officer")
    tamper(store, change)
    code, _, words = verify(db)
    assert code == 1 and said in words and "Traceback" not in words, words
    for command in (["history"], ["show", str(sid)], ["users", "list"]):
        out = cli(*command, "--db", db)
        assert out.exit_code in (0, 2) and "Traceback" not in out.output, (command, out.output)
        assert out.exception is None or isinstance(out.exception, SystemExit), command
    store.dispose()


def test_a_filing_counter_set_back_is_named_and_never_gives_a_number_again(
    tmp_path: Path,
) -> None:
    """schema.py: "a purged filing's id is never given again". A filing rejected and
    purged, then SQLite's counter of filing numbers set back by hand: `audit verify` said
    "intact", and the next `record` gave the purged number again, the first filing's
    rejection and purge then shown on the new one. Verify names the counter (exit 1);
    `record` refuses the number (exit 2) and records nothing."""
    db = str(tmp_path / "store.sqlite3")
    store = Store(db)
    first, second = filings(tmp_path, store, 2)
    store.reject(second, "rev", "no", now=FILED + dt.timedelta(days=1))
    later = FILED + dt.timedelta(days=2 * 366)  # past the retention of a year
    assert store.purge(dt.date(2027, 6, 1), "rev", retention_years=1, now=later) == [second]
    assert verify(db)[0] == 0
    tamper(store, f"UPDATE sqlite_sequence SET seq = {first} WHERE name = 'submissions'")
    code, report, words = verify(db)
    assert code == 1 and [f["submission"] for f in report["filings"]] == [second], words
    assert "counter of filing numbers was set back" in words
    again = amended(HCF, tmp_path / "again.yaml", ("2027-01-01", "2027-09-01"))
    out = cli("record", str(again), "--by", "filer", "--db", db)
    assert out.exit_code == 2 and "never given twice" in out.stderr, out.output
    assert [r.id for r in store.history()] == [first]
    store.dispose()


@pytest.mark.parametrize("table", ["submissions", "audit_log"])
def test_a_postgresql_counter_set_back_is_named_and_the_next_write_refused_in_words(
    tmp_path: Path, table: str
) -> None:
    """PostgreSQL's counters (identity sequences) set back by hand below the numbers given:
    `audit verify` said "intact" where SQLite's was named, the next `record` stopped with a
    traceback (a duplicate key), and `approve` was refused as though "another approval
    already holds" the facility, a false reason. Verify names the counter (exit 1); each
    write is refused as the damage it is (exit 2), naming the key, and writes nothing."""
    for db in database("postgresql", tmp_path, migrated=True):
        store = Store(db)
        first, _, third = filings(tmp_path, store, 3)
        tamper(store, f"ALTER TABLE {table} ALTER COLUMN id RESTART WITH 2")
        code, _, words = verify(db)
        named = {
            "submissions": "counter of filing numbers was set back to #1, below #3",
            "audit_log": "the log's counter of entries was set back to #1, below entry #3",
        }[table]
        assert code == 1 and named in words, words
        again = amended(HCF, tmp_path / "again.yaml", ("2027-01-01", "2027-09-01"))
        out = cli("record", str(again), "--by", "filer", "--db", db)
        assert out.exit_code == 2 and "Traceback" not in out.output, out.output
        assert f"the database refused it on its key '{table}_pkey'" in out.stderr
        if table == "audit_log":
            out = cli("approve", str(first), "--by", "rev", "--db", db)
            assert out.exit_code == 2 and "another approval" not in out.stderr, out.output
            assert "the database refused it on its key 'audit_log_pkey'" in out.stderr
        assert [r.id for r in store.history()] == [first, first + 1, third]
        assert all(r.status == "submitted" for r in store.history())
        store.dispose()


def test_a_decision_on_a_row_with_bytes_over_its_text_says_so(tmp_path: Path) -> None:
    """`approve` holds the row to the log before deciding (as `audit verify` does): its game
    written back as bytes was refused as "its game is 'high-card-flush' in its row; the audit
    log says 'high-card-flush'", and its sha256 so as "its bytes no longer give its sha256".
    Each says the column is stored as bytes."""
    db = str(tmp_path / "store.sqlite3")
    store = Store(db)
    (sid,) = filings(tmp_path, store, 1)
    for column, said in (
        ("game", "its game is stored as bytes"),
        ("sha256", "its sha256 is stored as bytes"),
    ):
        with store.engine.connect() as conn, conn.begin():  # the filings have no triggers
            conn.execute(text(f"UPDATE submissions SET {column} = CAST({column} AS BLOB)"))
        out = cli("approve", str(sid), "--by", "rev", "--date", "2026-12-01", "--db", db)
        assert out.exit_code in (1, 2) and said in out.stderr, out.output
        assert "Traceback" not in out.output
        with store.engine.connect() as conn, conn.begin():
            conn.execute(text(f"UPDATE submissions SET {column} = CAST({column} AS TEXT)"))
    store.dispose()
