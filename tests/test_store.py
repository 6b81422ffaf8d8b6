"""The store of submissions, on SQLite and on a real PostgreSQL server: the same tests.

A submission is kept as filed (its bytes, its sha256), with its findings when recorded and
the regulation version they were checked against; approvals need zero error findings
(waived ones listed with their reasons), supersede the approved submission of the same
facility and game from their effective date, and an effective date before the approval
date is a finding by the office's policy (on by default, citing no regulation: rules are
implemented only after the written notice of approval). Two approvals of one facility, game
and effective date: the database refuses the second.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import select, text, update
from store_db import (
    BACKENDS,
    EXAMPLES,
    RECORDED_AT,
    amended,
    database,
    recorded_before_the_decisions,  # noqa: F401 (autouse: the store's clock)
)
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.store import Refused, Store, StoreError
from validator.store.database import describe, resolve_url
from validator.store.lifecycle import _audit
from validator.store.schema import audit_log, submissions

HCF = EXAMPLES / "high-card-flush.yaml"
FCP = EXAMPLES / "four-card-poker.yaml"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-payout-limit.yaml"
HISTORY_FIELDS = {
    "id",
    "facility",
    "game",
    "effective",
    "status",
    "recorded_at",
    "recorded_by",
    "approved_by",
    "approved_on",
    "sha256",
}
BEFORE_EFFECTIVE = "2026-12-01"  # the examples are effective 2027-01-01


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    s = Store(db)
    yield s
    s.dispose()


def cli(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def as_json(result: Any) -> Any:
    return json.loads(result.stdout)


# -- record -------------------------------------------------------------------------------------


def test_record_keeps_the_bytes_and_their_sha256_and_prints_the_contract(db: str) -> None:
    out = cli("record", str(HCF), "--db", db, "--by", "A. Filer", "--format", "json")
    assert out.exit_code == 0, out.stderr
    data = as_json(out)
    assert {"id", "status", "sha256", "findings"} <= set(data)
    assert data["status"] == "submitted"
    assert data["sha256"] == hashlib.sha256(HCF.read_bytes()).hexdigest()
    validated = as_json(cli("validate", "--format", "json", str(HCF)))["summary"]
    assert data["findings"] == {k: validated[k] for k in ("errors", "warnings", "info")}
    assert data["findings"]["errors"] == 0
    shown = CliRunner().invoke(app, ["show", str(data["id"]), "--db", db])
    assert shown.stdout_bytes == HCF.read_bytes()


def test_show_returns_the_stored_bytes_unchanged(db: str, tmp_path: Path) -> None:
    """Not re-serialised YAML: CRLF line ends, comments, non-ASCII and spacing survive."""
    raw = (
        HCF.read_bytes()
        .replace(b"\n", b"\r\n")
        .replace(b"Example Downs Racing & Casino", "Exämple Downs — Racing & Casino".encode())
    )
    path = tmp_path / "crlf.yaml"
    path.write_bytes(raw)
    rid = as_json(cli("record", str(path), "--db", db, "--format", "json"))["id"]
    shown = CliRunner().invoke(app, ["show", str(rid), "--db", db])
    assert shown.exit_code == 0
    assert shown.stdout_bytes == raw
    meta = as_json(cli("show", str(rid), "--db", db, "--format", "json"))
    assert meta["content"].encode() == raw
    assert meta["sha256"] == hashlib.sha256(raw).hexdigest()


def test_recording_the_same_bytes_twice_is_one_record(db: str, tmp_path: Path) -> None:
    first = as_json(cli("record", str(HCF), "--db", db, "--format", "json"))
    copy = tmp_path / "same-bytes-other-name.yaml"
    copy.write_bytes(HCF.read_bytes())
    again = as_json(cli("record", str(copy), "--db", db, "--format", "json"))
    assert again["id"] == first["id"] and again["already_recorded"] is True
    assert len(as_json(cli("history", "--db", db, "--format", "json"))) == 1
    other = amended(HCF, tmp_path / "one-byte.yaml", ("adjacent_boxes: 1", "adjacent_boxes: 2"))
    assert as_json(cli("record", str(other), "--db", db, "--format", "json"))["id"] != first["id"]


def test_findings_at_record_time_are_the_validators(db: str) -> None:
    """The stored findings are exactly what ``rulesub validate --format json`` reports."""
    validated = CliRunner().invoke(app, ["validate", str(FLAWED), "--format", "json"])
    expected = json.loads(validated.stdout)
    rec = as_json(cli("record", str(FLAWED), "--db", db, "--format", "json"))
    assert rec["findings"] == {
        "errors": expected["summary"]["errors"],
        "warnings": expected["summary"]["warnings"],
        "info": expected["summary"]["info"],
    }
    assert rec["findings"]["errors"] > 0
    shown = as_json(cli("show", str(rec["id"]), "--db", db, "--format", "json"))
    assert shown["findings_recorded"] == expected["findings"]


def test_an_unreadable_submission_is_not_recorded(db: str) -> None:
    bad = PROJECT_ROOT / "rulesubs" / "flawed" / "unreadable-duplicate-key.yaml"
    assert cli("db", "upgrade", "--db", db).exit_code == 0
    out = cli("record", str(bad), "--db", db)
    assert out.exit_code == 2
    assert "unreadable-duplicate-key.yaml:" in out.stderr
    assert "Traceback" not in out.stderr
    assert as_json(cli("history", "--db", db, "--format", "json")) == []


# -- approve, reject, supersede --------------------------------------------------------------------


def record(db: str, path: Path) -> int:
    out = cli("record", str(path), "--db", db, "--format", "json")
    assert out.exit_code == 0, out.stderr
    return int(as_json(out)["id"])


def test_an_approval_needs_zero_error_findings(db: str) -> None:
    rid = record(db, FLAWED)
    out = cli("approve", str(rid), "--by", "R. Officer", "--date", BEFORE_EFFECTIVE, "--db", db)
    assert out.exit_code == 1
    assert "error finding" in out.stderr
    assert "high-card-flush/" in out.stderr  # each blocking finding, with its code
    assert as_json(cli("history", "--db", db, "--format", "json"))[0]["status"] == "submitted"


def test_waived_findings_are_listed_with_their_reasons(db: str) -> None:
    rid = record(db, FLAWED)
    findings = as_json(cli("show", str(rid), "--db", db, "--format", "json"))["findings_recorded"]
    codes = sorted({f["code"] for f in findings if f["severity"] == "error"})
    args = [f"--waive={c}=agreed with the Bureau, letter of 2026-11-02" for c in codes]
    out = cli(
        "approve", str(rid), "--by", "R. Officer", "--date", BEFORE_EFFECTIVE, *args, "--db", db
    )
    assert out.exit_code == 0, out.stderr
    shown = as_json(cli("show", str(rid), "--db", db, "--format", "json"))
    assert shown["status"] == "approved"
    assert [w["code"] for w in shown["waived"]] == codes
    assert all(w["reason"].startswith("agreed with the Bureau") for w in shown["waived"])
    timeline = cli("history", "--db", db).stdout
    assert f"with {len(codes)} waiver" in timeline  # as the office's audit log says it
    assert f"{codes[0]}: agreed with the Bureau" in timeline


def test_a_waiver_written_in_the_filing_is_the_officers_to_grant(db: str, tmp_path: Path) -> None:
    """§ 641a.2(a): "no more than seven players". A filing of eight positions that waives
    its own error in a comment is recorded with the error, and the approval is refused until
    the officer waives it; the filing's reason is shown, never taken as the office's."""
    text = FCP.read_text(encoding="utf-8")
    table = next(line for line in text.splitlines() if line.startswith("table:"))
    eight = table.replace("positions: 7", "positions: 8")
    assert eight != table
    waiver = "  # rulesub: ignore[four-card-poker/max-positions] -- we like eight"
    path = tmp_path / "eight.yaml"
    path.write_text(text.replace(table, eight + waiver), encoding="utf-8")
    assert cli("validate", str(path)).exit_code == 0  # the filer's linter honours it
    rid = record(db, path)
    shown = as_json(cli("show", str(rid), "--db", db, "--format", "json"))
    (error,) = [f for f in shown["findings_recorded"] if f["severity"] == "error"]
    assert error["code"] == "four-card-poker/max-positions"
    assert error["filing_waiver"].startswith("we like eight (line ")
    out = cli("approve", str(rid), "--by", "R. Officer", "--date", BEFORE_EFFECTIVE, "--db", db)
    assert out.exit_code == 1
    assert "the filing asks to waive it: we like eight" in out.stderr
    out = cli(
        "approve",
        str(rid),
        "--by",
        "R. Officer",
        "--date",
        BEFORE_EFFECTIVE,
        "--waive=four-card-poker/max-positions=eight seats approved by letter",
        "--db",
        db,
    )
    assert out.exit_code == 0, out.stderr
    pack = as_json(cli("review", str(path), "--format", "json", "--db", db))
    assert [f["filing_waiver"] for f in pack["findings"]] == [error["filing_waiver"]]
    # the pack of the decided filing carries the decision and its waiver, not a blank
    assert pack["recorded"]["decision"] == f"Approved by R. Officer on {BEFORE_EFFECTIVE}"
    assert pack["recorded"]["waived"] == [
        {"code": "four-card-poker/max-positions", "reason": "eight seats approved by letter"}
    ]
    text = cli("review", str(path), "--format", "markdown", "--db", db).stdout
    assert "DRAFT" not in text and "Signature: ____" not in text
    assert "it is not signed again" in text


def test_waiving_a_finding_the_submission_does_not_have_is_wrong_usage(db: str) -> None:
    rid = record(db, HCF)
    out = cli(
        "approve",
        str(rid),
        "--by",
        "R",
        "--date",
        BEFORE_EFFECTIVE,
        "--waive",
        "high-card-flush/nothing=because",
        "--db",
        db,
    )
    assert out.exit_code == 2
    assert "no such finding" in out.stderr


def test_an_effective_date_before_the_approval_date_is_a_finding(db: str) -> None:
    """The office's policy, on by default: rules are implemented only after the written
    notice of approval. No other jurisdiction's rule is cited for it: the chapters state
    none."""
    rid = record(db, HCF)  # effective 2027-01-01
    late = cli("approve", str(rid), "--by", "R", "--date", "2027-01-02", "--db", db)
    assert late.exit_code == 1
    assert "rulesub/effective-before-approval" in late.stderr
    assert "office's policy" in late.stderr
    assert "COMAR" not in late.stderr and "36.05" not in late.stderr
    # the finding points at the `effective:` line of the stored file
    line = HCF.read_text().splitlines().index("effective: 2027-01-01") + 1
    assert f":{line}:" in late.stderr
    on_the_day = cli("approve", str(rid), "--by", "R", "--date", "2027-01-01", "--db", db)
    assert on_the_day.exit_code == 0, on_the_day.stderr


def test_the_effective_date_policy_is_the_offices_to_turn_off(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An office that does not hold the policy turns it off: the approval after the
    effective date then stands with no finding; a setting that is neither on nor off is
    refused (exit 2)."""
    rid = record(db, HCF)  # effective 2027-01-01
    monkeypatch.setenv("RULESUB_POLICY_EFFECTIVE_BEFORE_APPROVAL", "maybe")
    bad = cli("approve", str(rid), "--by", "R", "--date", "2027-01-02", "--db", db)
    assert bad.exit_code == 2 and "on or off" in bad.stderr
    monkeypatch.setenv("RULESUB_POLICY_EFFECTIVE_BEFORE_APPROVAL", "off")
    late = cli("approve", str(rid), "--by", "R", "--date", "2027-01-02", "--db", db)
    assert late.exit_code == 0, late.stderr
    assert "effective-before-approval" not in late.stdout + late.stderr


def test_approval_supersedes_the_approved_submission_from_its_effective_date(
    db: str, tmp_path: Path
) -> None:
    first = record(db, HCF)
    assert (
        cli("approve", str(first), "--by", "R", "--date", BEFORE_EFFECTIVE, "--db", db).exit_code
        == 0
    )
    later = amended(
        HCF,
        tmp_path / "hcf-2.yaml",
        ("2027-01-01", "2027-07-01"),
        ("flush_bonus: E", "flush_bonus: A"),
    )
    second = record(db, later)
    out = cli(
        "approve",
        str(second),
        "--by",
        "S",
        "--date",
        BEFORE_EFFECTIVE,
        "--db",
        db,
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.stderr
    assert as_json(out)["superseded"] == [first]
    rows = {r["id"]: r for r in as_json(cli("history", "--db", db, "--format", "json"))}
    assert rows[first]["status"] == "superseded"
    assert rows[first]["superseded_by"] == second
    assert rows[first]["superseded_on"] == "2027-07-01"
    assert rows[second]["status"] == "approved"
    assert (rows[second]["approved_by"], rows[second]["approved_on"]) == ("S", BEFORE_EFFECTIVE)


def test_an_approval_for_an_earlier_date_leaves_a_later_one_approved(
    db: str, tmp_path: Path
) -> None:
    later = record(db, amended(HCF, tmp_path / "later.yaml", ("2027-01-01", "2027-07-01")))
    earlier = record(db, HCF)
    for rid in (later, earlier):
        assert (
            cli("approve", str(rid), "--by", "R", "--date", BEFORE_EFFECTIVE, "--db", db).exit_code
            == 0
        )
    rows = {r["id"]: r["status"] for r in as_json(cli("history", "--db", db, "--format", "json"))}
    assert rows == {later: "approved", earlier: "approved"}


def test_an_approval_between_two_cuts_the_earlier_ones_time_in_force(
    store: Store, db: str, tmp_path: Path
) -> None:
    """Approved for 2027-03-01, then for 2027-06-01 (the first superseded from 06-01), then
    for 2027-04-01: the last takes over from its own date, so the first is superseded by
    it from 04-01, audited again, and each day has one approval in force
    (``in_force_on``): the one effective latest on or before it, not yet superseded. A
    fourth for 2027-03-01, which the first held, is refused. The log still verifies."""
    from validator.store.lifecycle import in_force_on

    filed = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    on = dt.date(2026, 12, 1)

    def filing(effective: str, letter: str) -> int:
        path = amended(
            HCF,
            tmp_path / f"{effective}-{letter}.yaml",
            ("2027-01-01", effective),
            ("flush_bonus: E", f"flush_bonus: {letter}"),
        )
        return store.record(path, "clerk", now=filed).id

    march, june, april = (
        filing("2027-03-01", "A"),
        filing("2027-06-01", "B"),
        filing("2027-04-01", "C"),
    )
    store.approve(march, "R", on=on, now=filed)
    assert store.approve(june, "R", on=on, now=filed).superseded == [march]
    assert store.approve(april, "R", on=on, now=filed).superseded == [march]
    rows = {r.id: r for r in store.history()}
    assert (rows[march].status, rows[march].superseded_by) == ("superseded", april)
    assert rows[march].superseded_on == dt.date(2027, 4, 1)
    assert rows[april].status == rows[june].status == "approved"
    held = {
        day: in_force_on(rows.values(), dt.date.fromisoformat(day)).id  # type: ignore[union-attr]
        for day in ("2027-03-01", "2027-03-31", "2027-04-01", "2027-05-31", "2027-06-01")
    }
    assert held == {
        "2027-03-01": march, "2027-03-31": march, "2027-04-01": april,
        "2027-05-31": april, "2027-06-01": june,
    }  # fmt: skip
    assert in_force_on(rows.values(), dt.date(2027, 2, 28)) is None
    assert (
        store.approved_for("Example Downs", "high-card-flush", on=dt.date(2027, 5, 1)).id == april
    )  # type: ignore[union-attr]
    again = filing("2027-03-01", "D")
    with pytest.raises(Refused, match="another approval already holds"):
        store.approve(again, "R", on=on, now=filed)
    supersessions = [
        (e.submission_id, e.data["superseded_by"], e.data["from"])
        for e in store.events()
        if e.action == "supersede"
    ]
    assert supersessions == [(march, june, "2027-06-01"), (march, april, "2027-04-01")]
    verified = cli("audit", "verify", "--db", db)
    assert verified.exit_code == 0, verified.stderr


def test_review_against_approved_compares_with_the_approval_in_force_on_its_date(
    db: str, tmp_path: Path
) -> None:
    """Approved for 2027-03-01 (Flush Bonus A) and for 2027-06-01 (B): a proposal for
    2027-04-15 replaces the first, in force that day, not the latest approved, and is
    compared with it; one for a day before any approval has nothing to compare with."""

    def filing(effective: str, letter: str) -> Path:
        return amended(
            HCF,
            tmp_path / f"{effective}-{letter}.yaml",
            ("2027-01-01", effective),
            ("flush_bonus: E", f"flush_bonus: {letter}"),
        )

    for effective, letter in (("2027-03-01", "A"), ("2027-06-01", "B")):
        rid = record(db, filing(effective, letter))
        approved = cli("approve", str(rid), "--by", "R", "--date", BEFORE_EFFECTIVE, "--db", db)
        assert approved.exit_code == 0, approved.stderr
    proposal = filing("2027-04-15", "A")
    out = cli("diff", "--against", "approved", str(proposal), "--db", db)
    assert out.exit_code == 0, out.stderr
    assert "old: approved #1 (2027-03-01-A.yaml, effective 2027-03-01)" in out.stdout
    assert "Effective date: 2027-03-01 → 2027-04-15" in out.stdout
    assert "Flush Bonus" not in out.stdout  # the same paytable as the one it replaces
    early = filing("2027-02-01", "C")
    out = cli("review", str(early), "--against", "approved", "--db", db, "--format", "json")
    assert out.exit_code == 2
    assert "in force on 2027-02-01" in out.stderr


def test_a_second_approval_for_the_same_date_is_refused(db: str, tmp_path: Path) -> None:
    one = record(db, HCF)
    two = record(db, amended(HCF, tmp_path / "two.yaml", ("flush_bonus: E", "flush_bonus: A")))
    assert (
        cli("approve", str(one), "--by", "R", "--date", BEFORE_EFFECTIVE, "--db", db).exit_code == 0
    )
    out = cli("approve", str(two), "--by", "S", "--date", BEFORE_EFFECTIVE, "--db", db)
    assert out.exit_code == 1
    assert "another approval already holds Example Downs, High Card Flush from 2027-01-01" in (
        out.stderr
    )
    rows = {r["id"]: r["status"] for r in as_json(cli("history", "--db", db, "--format", "json"))}
    assert rows == {one: "approved", two: "submitted"}


def test_one_approval_per_date_is_a_database_constraint(store: Store, tmp_path: Path) -> None:
    """Not a check in Python: writing two approved rows for one facility, game and effective
    date straight into the table is refused by the database itself."""
    a = store.record(HCF, "x").id
    b = store.record(
        amended(HCF, tmp_path / "b.yaml", ("flush_bonus: E", "flush_bonus: A")), "x"
    ).id
    with store.engine.connect() as conn, conn.begin():
        conn.execute(update(submissions).where(submissions.c.id == a).values(status="approved"))
    with pytest.raises(sa_exc.IntegrityError), store.engine.connect() as conn, conn.begin():
        conn.execute(update(submissions).where(submissions.c.id == b).values(status="approved"))


def test_reject_then_approve_is_refused(db: str) -> None:
    rid = record(db, HCF)
    out = cli(
        "reject",
        str(rid),
        "--by",
        "R",
        "--reason",
        "Flush Bonus table not in force",
        "--db",
        db,
        "--format",
        "json",
    )
    assert out.exit_code == 0
    assert as_json(out)["status"] == "rejected"
    again = cli("approve", str(rid), "--by", "S", "--date", BEFORE_EFFECTIVE, "--db", db)
    assert again.exit_code == 1
    assert "is rejected (by R)" in again.stderr
    assert cli("reject", str(rid), "--by", "S", "--reason", "x", "--db", db).exit_code == 1


def test_an_unknown_submission_is_unreadable_input(db: str) -> None:
    record(db, HCF)
    for args in (
        ("approve", "99", "--by", "R"),
        ("reject", "99", "--by", "R", "--reason", "x"),
        ("show", "99"),
    ):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2
        # the database as a person names it, not the machine's path to it
        assert "no submission 99 in the database" in out.stderr
        assert describe(resolve_url(db)) not in out.stderr


# -- history ------------------------------------------------------------------------------------


def test_history_lists_the_contracts_fields_and_filters(db: str, tmp_path: Path) -> None:
    h = record(db, HCF)
    f = record(db, FCP)
    other = record(
        db, amended(HCF, tmp_path / "o.yaml", ("facility: Example Downs", "facility: Riverside"))
    )
    cli("approve", str(h), "--by", "R. Officer", "--date", BEFORE_EFFECTIVE, "--db", db)
    every = as_json(cli("history", "--db", db, "--format", "json"))
    assert [r["id"] for r in every] == [f, h, other]  # by facility, game, effective
    for row in every:
        assert set(row) >= HISTORY_FIELDS
        assert row["status"] in ("submitted", "approved", "rejected", "superseded")
        dt.datetime.fromisoformat(row["recorded_at"])
    approved = next(r for r in every if r["id"] == h)
    assert (approved["approved_by"], approved["approved_on"]) == ("R. Officer", BEFORE_EFFECTIVE)
    only = as_json(
        cli(
            "history",
            "--game",
            "high-card-flush",
            "--facility",
            "Example Downs",
            "--db",
            db,
            "--format",
            "json",
        )
    )
    assert [r["id"] for r in only] == [h]
    text_out = cli("history", "--db", db).stdout
    assert re.search(r"R\. Officer approved #\d+ on 2026-12-01", text_out)
    assert "Riverside · High Card Flush (high-card-flush)" in text_out  # its name, its id


# -- retention and the audit log -------------------------------------------------------------------


def test_purge_refuses_anything_inside_the_retention_period(db: str) -> None:
    rid = record(db, HCF)
    cli("reject", str(rid), "--by", "R", "--reason", "x", "--db", db)
    today = dt.date.today()
    out = cli("purge", "--before", today.isoformat(), "--db", db)
    assert out.exit_code == 1
    assert "inside the retention period of 5 years" in out.stderr
    assert [r["id"] for r in as_json(cli("history", "--db", db, "--format", "json"))] == [rid]


def test_purge_deletes_only_ended_filings_older_than_retention(
    store: Store, tmp_path: Path
) -> None:
    long_ago = dt.datetime(2020, 3, 1, 12, tzinfo=dt.UTC)
    rejected = store.record(FLAWED, "x", now=long_ago).id
    store.reject(rejected, "R", "errors", now=long_ago)
    old = store.record(HCF, "x", now=long_ago).id
    store.approve(old, "R", on=dt.date(2020, 3, 1), now=long_ago)
    newer = amended(HCF, tmp_path / "n.yaml", ("2027-01-01", "2027-07-01"))
    newer = store.record(newer, "x", now=dt.datetime(2026, 11, 1, tzinfo=dt.UTC)).id
    store.approve(newer, "R", on=dt.date(2026, 12, 1), now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    now = dt.datetime(2032, 1, 1, tzinfo=dt.UTC)
    with pytest.raises(Refused):  # 2027-06-01 is younger than five years on 2032-01-01
        store.purge(dt.date(2027, 6, 1), "P", now=now)
    assert store.purge(dt.date(2026, 12, 1), "P", now=now) == [rejected]
    # approved on 2026-12-01, `newer` took over from 2027-07-01: `old` was in force until
    # then, and retention runs from that day, not from the approval that superseded it
    assert store.purge(dt.date(2026, 12, 2), "P", now=now) == []
    later = dt.datetime(2033, 1, 1, tzinfo=dt.UTC)
    assert store.purge(dt.date(2027, 7, 1), "P", now=later) == []
    assert store.purge(dt.date(2027, 7, 2), "P", now=later) == [old]
    left = [r.id for r in store.history()]
    assert left == [newer]  # the approved one is never purged
    actions = [(e.action, e.submission_id) for e in store.events()]
    assert ("purge", rejected) in actions and ("purge", old) in actions
    assert ("record", rejected) in actions  # the log keeps what the purge removed
    with pytest.raises(StoreError):
        store.purge(dt.date(2000, 1, 1), "P", retention_years=0, now=now)


def test_the_retention_period_is_configurable(db: str) -> None:
    rid = record(db, HCF)
    cli("reject", str(rid), "--by", "R", "--reason", "x", "--db", db)
    # 400 days before the store's clock (``RECORDED_AT``): past a year, within three
    before = (RECORDED_AT.date() - dt.timedelta(days=400)).isoformat()
    assert cli("purge", "--before", before, "--db", db).exit_code == 1
    out = CliRunner().invoke(
        app,
        ["purge", "--before", before, "--db", db, "--format", "json"],
        env={"RULESUB_RETENTION_YEARS": "1"},
    )
    assert out.exit_code == 0, out.stderr
    assert as_json(out) == {"purged": []}  # rejected today: nothing ended that long ago


def test_every_action_is_in_the_append_only_audit_log(store: Store, tmp_path: Path) -> None:
    a = store.record(HCF, "filer").id
    store.approve(a, "officer", on=dt.date(2026, 12, 1))
    b = store.record(amended(HCF, tmp_path / "b.yaml", ("2027-01-01", "2027-02-01")), "filer").id
    store.approve(b, "officer", on=dt.date(2026, 12, 1))
    c = store.record(FLAWED, "filer").id
    store.reject(c, "officer", "errors")
    log = [(e.action, e.submission_id, e.actor) for e in store.events()]
    assert log == [
        ("record", a, "filer"),
        ("approve", a, "officer"),
        ("record", b, "filer"),
        ("approve", b, "officer"),
        ("supersede", a, "officer"),
        ("record", c, "filer"),
        ("reject", c, "officer"),
    ]
    for statement in (
        update(audit_log).values(actor="someone else"),
        audit_log.delete(),
    ):
        with (
            pytest.raises(sa_exc.DatabaseError, match="append-only"),
            store.engine.connect() as conn,
            conn.begin(),
        ):
            conn.execute(statement)
    with store.engine.connect() as conn, conn.begin():
        _audit(conn, "t", "note", None, {})  # appending stays allowed, on the chain
        assert conn.execute(select(audit_log.c.id)).all()[-1][0] == len(log) + 1
    assert store.verify_audit()[1] is None


# -- the schema's version ----------------------------------------------------------------------


def test_db_upgrade_creates_then_reports_current(empty_db: str) -> None:
    db = empty_db
    first = as_json(cli("db", "upgrade", "--db", db, "--format", "json"))
    assert first["from"] is None and first["to"] == "0007"
    again = as_json(cli("db", "upgrade", "--db", db, "--format", "json"))
    assert again["from"] == again["to"] == "0007"


def _schema_and_rows(url: str) -> tuple[object, ...]:
    """What a database holds, as SQL sees it: each table's columns, indexes and rows, its
    triggers, and the schema version."""
    from sqlalchemy import inspect

    store = Store(url)
    with store.engine.connect() as conn:
        seen = inspect(conn)
        tables = {
            name: (
                [(c["name"], str(c["type"]), c["nullable"]) for c in seen.get_columns(name)],
                sorted(
                    (i["name"], tuple(i["column_names"]), i["unique"])
                    for i in seen.get_indexes(name)
                ),
                conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one(),
            )
            for name in sorted(seen.get_table_names())
        }
        triggers = sorted(
            conn.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                if conn.dialect.name == "sqlite"
                else text("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
            ).scalars()
        )
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    store.dispose()
    return tables, triggers, version


def test_the_tests_migrated_database_is_the_one_a_first_command_makes(
    empty_db: str, tmp_path: Path
) -> None:
    """The store's tests run on copies of one database migrated once per test process
    (``store_db.database(..., migrated=True)``): each copy is of this rulesub's schema
    with nothing in it, and a filing recorded into it leaves the same tables, columns,
    indexes, triggers, rows and schema version as a first ``record`` into an empty
    database; a copy written to leaves the next copy empty."""
    backend = "postgresql" if empty_db.startswith("postgresql") else "sqlite"
    record(empty_db, HCF)  # the first command: the migrations run
    made = _schema_and_rows(empty_db)
    assert made[2] == ["0007"] and made[0]["submissions"][2] == 1
    for k in (1, 2):
        (tmp_path / str(k)).mkdir()
        copy = database(backend, tmp_path / str(k), migrated=True)
        url = next(copy)
        try:
            tables, triggers, version = _schema_and_rows(url)
            assert version == ["0007"] and triggers == made[1]
            assert [tables[n][2] for n in ("submissions", "audit_log", "accounts")] == [0, 0, 0]
            record(url, HCF)
            assert _schema_and_rows(url) == made
        finally:
            copy.close()


def test_a_database_behind_this_rulesub_is_refused_until_upgraded(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simulates the next rulesub (a migration 0099 after 0007) meeting this database."""
    from validator.store import migrate

    record(db, HCF)
    monkeypatch.setattr(migrate, "head", lambda: "0099")
    monkeypatch.setattr(
        migrate,
        "known_revisions",
        lambda: ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0099"],
    )
    for args in (("history",), ("record", str(FCP)), ("approve", "1", "--by", "R")):
        out = cli(*args, "--db", db)
        assert out.exit_code == 2, args
        assert "is older than this rulesub's (0099); run `rulesub db upgrade`" in out.stderr


def test_a_database_from_a_newer_rulesub_is_refused(store: Store) -> None:
    store.record(HCF, "x")
    with store.engine.connect() as conn, conn.begin():
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    out = cli("history", "--db", store.url)
    assert out.exit_code == 2
    assert "newer than this rulesub knows" in out.stderr
    upgrade = cli("db", "upgrade", "--db", store.url)
    assert upgrade.exit_code == 2


def test_the_migrations_are_package_data_found_from_the_package() -> None:
    from validator.store import migrate

    assert migrate.MIGRATIONS.parent == Path(migrate.__file__).resolve().parent
    assert (migrate.MIGRATIONS / "env.py").is_file()
    # 0002: the web view's accounts; 0003: ids never given twice, the chain, facilities;
    # 0004: the web view's sessions; 0005: withdrawn and replaced filings; 0006: the list
    # by status's index; 0007: the filings' words (the search's full-text index)
    assert migrate.known_revisions() == ["0001", "0002", "0003", "0004", "0005", "0006", "0007"]
    assert migrate.script_head() == migrate.head() == migrate.SCHEMA_REVISION
    # hatchling's wheel carries every file of the package, the migrations with it
    pyproject = (PROJECT_ROOT / "pyproject.toml").read_text()
    assert 'packages = ["validator"]' in pyproject


def test_the_default_database_is_in_the_users_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from validator.store import default_path, resolve_url

    monkeypatch.delenv("RULESUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "rulesub" / "rulesub.sqlite3"
    assert (
        resolve_url(None)
        == f"sqlite+pysqlite:///{tmp_path / 'data' / 'rulesub' / 'rulesub.sqlite3'}"
    )
    monkeypatch.setenv("RULESUB_DB", str(tmp_path / "env.sqlite3"))
    assert resolve_url(None).endswith("env.sqlite3")
    assert resolve_url(str(tmp_path / "flag.sqlite3")).endswith("flag.sqlite3")
    assert resolve_url("postgresql://u:p@h/d").startswith("postgresql+psycopg://")
    with pytest.raises(StoreError):
        resolve_url("mysql://u@h/d")


def test_store_commands_in_one_process_ask_the_collector_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store command sets aside what the process holds from the cycle collector once a
    process (``gc.freeze``); counting what is set aside walks all of it, so a process that
    runs many commands (a test run, in process) asks for the count once, not at each."""
    import gc

    import validator.cli.store as module

    asked: list[int] = []
    count = gc.get_freeze_count
    monkeypatch.setattr(module, "_SET_ASIDE", [])
    monkeypatch.setattr(gc, "get_freeze_count", lambda: asked.append(1) or count())
    db = str(tmp_path / "store.sqlite3")
    record(db, HCF)
    assert cli("history", "--db", db).exit_code == 0
    assert cli("show", "1", "--db", db).exit_code == 0
    assert len(asked) == 1


def test_an_approval_is_decided_on_the_regulation_in_force(db: str, tmp_path: Path) -> None:
    """Recorded clean; the game file then changes (here: a table of five positions, not
    six, § 678a.2(a) as a later amendment might read): the approval re-checks the stored
    bytes against the regulation in force and refuses; under the unchanged game files the
    stored findings stand and it is approved."""
    import shutil

    from store_db import rulesub

    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    hcf_game = games / "high-card-flush.yaml"
    text_ = hcf_game.read_text(encoding="utf-8")
    assert "  max_positions: 6\n" in text_
    hcf_game.write_text(text_.replace("  max_positions: 6\n", "  max_positions: 5\n"), "utf-8")
    rid = record(db, HCF)
    amended_rules = {"RULESUB_GAMES_DIR": str(games)}
    # in a process of its own, on the real clock: dated the day it was recorded, never later
    on = RECORDED_AT.date().isoformat()
    refused = rulesub("approve", str(rid), "--by", "R", "--date", on, "--db", db, env=amended_rules)
    assert refused.returncode == 1, refused.stderr
    assert "high-card-flush/max-positions" in refused.stderr
    approved = rulesub(
        "approve", str(rid), "--by", "R", "--date", on, "--db", db, own_process=False
    )
    assert approved.returncode == 0, approved.stderr


def test_times_are_read_in_utc_whatever_the_postgresql_servers_zone(tmp_path: Path) -> None:
    """A PostgreSQL database whose own time zone is New York's: a filing recorded at 02:30
    UTC on August 4 was read back as 22:30 on August 3, and the review pack and the pages,
    which print the time read, dated it the day before ("UTC" on the page). The store reads
    every time in UTC, as SQLite's are."""
    import psycopg
    from sqlalchemy.engine import make_url

    for url in database("postgresql", tmp_path, migrated=True):
        name = make_url(url).database
        conninfo = make_url(url).set(drivername="postgresql").render_as_string(False)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE \"{name}\" SET timezone TO 'America/New_York'")
        store = Store(url)
        try:
            at = dt.datetime(2026, 8, 4, 2, 30, tzinfo=dt.UTC)
            recorded = store.record(HCF, "cas", now=at)
            read = store.get(recorded.id).recorded_at
            assert read.utcoffset() == dt.timedelta(0), read
            assert (read.date(), read.hour, read.minute) == (dt.date(2026, 8, 4), 2, 30)
        finally:
            store.dispose()


def test_a_name_of_spaces_alone_is_no_name(tmp_path: Path, store: Store) -> None:
    """`facility: "   "` passed `validate` and `record` where `""` was refused, and a
    filing under a holder of spaces, once approved, took the facility from its real holder:
    a name that shows nothing (spaces, a blank braille cell, a Hangul filler) names
    nothing. `validate` says so at the line; `record` refuses such a facility (the store
    files under it), and files such a holder as no holder."""
    from validator.checks import validate_paths

    text = HCF.read_text(encoding="utf-8")
    for blank in ("   ", "\u2800", "\u3164 \u3164"):
        facility = tmp_path / "facility.yaml"
        facility.write_text(re.sub(r"(?m)^facility: .*$", f'facility: "{blank}"', text))
        holder = tmp_path / "holder.yaml"
        holder.write_text(
            re.sub(r"(?m)^certificate_holder: .*$", f'certificate_holder: "{blank}"', text)
        )
        for path, key in ((facility, "/facility"), (holder, "/certificate_holder")):
            (result,) = validate_paths([path]).files
            said = [f.message for f in result.findings if f.path == key]
            assert said and "it shows nothing on a page" in said[0], (blank, result.findings)
        with pytest.raises(StoreError, match="it shows nothing on a page"):
            store.record(facility, "cas")
    recorded = store.record(holder, "cas")
    assert store.get(recorded.id).certificate_holder is None
