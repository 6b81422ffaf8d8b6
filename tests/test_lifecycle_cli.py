"""A submission's life end to end from the command line, on SQLite and on PostgreSQL:
record, validate, reject, amend, record, approve, supersede, history, diff against approved,
review pack, purge refused inside retention. Each step is run as ``main()`` runs it, in this
process (the store's commands in processes of their own: tests/test_store_faults.py).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_db import (
    BACKENDS,
    EXAMPLES,
    amended,
    database,
    recorded_before_the_decisions,  # noqa: F401 (autouse: the store's clock)
    rulesub,
)

from validator.review.build import SECTIONS

HCF = EXAMPLES / "high-card-flush.yaml"


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path)


def run(*args: str, code: int = 0) -> str:
    out = rulesub(*args, own_process=False)
    assert out.returncode == code, f"rulesub {' '.join(args)}: {out.stderr}"
    assert "Traceback" not in out.stderr
    return out.stdout


def test_a_submissions_life(db: str, tmp_path: Path) -> None:
    # filed with a paytable the chapter does not have (§ 678a.12(b))
    filed = amended(HCF, tmp_path / "hcf.yaml", ("flush_bonus: E", "flush_bonus: Q"))
    first = json.loads(
        run("record", str(filed), "--by", "C. Holder", "--db", db, "--format", "json")
    )
    assert first["status"] == "submitted" and first["findings"]["errors"] >= 1
    run("validate", str(filed), code=1)
    run(
        "approve",
        str(first["id"]),
        "--by",
        "R. Officer",
        "--date",
        "2026-12-01",
        "--db",
        db,
        code=1,
    )
    run(
        "reject",
        str(first["id"]),
        "--by",
        "R. Officer",
        "--reason",
        "no Flush Bonus table Q",
        "--db",
        db,
    )

    # amended and filed again: clean, approved
    fixed = amended(filed, tmp_path / "hcf-amended.yaml", ("flush_bonus: Q", "flush_bonus: E"))
    run("validate", str(fixed))
    second = json.loads(
        run("record", str(fixed), "--by", "C. Holder", "--db", db, "--format", "json")
    )
    assert second["id"] != first["id"] and second["findings"]["errors"] == 0
    run("approve", str(second["id"]), "--by", "R. Officer", "--date", "2026-12-01", "--db", db)

    # a later paytable change: compared with the approved one, then approved over it
    change = amended(
        fixed,
        tmp_path / "hcf-july.yaml",
        ("2027-01-01", "2027-07-01"),
        ("flush_bonus: E", "flush_bonus: A"),
    )
    diff = json.loads(
        run("diff", "--against", "approved", str(change), "--db", db, "--format", "json")
    )
    paytable = next(c for c in diff["changes"] if c["path"] == "/paytables/flush_bonus")
    assert (paytable["old"], paytable["new"]) == ("E", "A")
    direct = json.loads(run("diff", str(fixed), str(change), "--format", "json"))
    assert diff["changes"] == direct["changes"]  # the database's copy is the file approved
    third = json.loads(
        run("record", str(change), "--by", "C. Holder", "--db", db, "--format", "json")
    )
    approval = json.loads(
        run(
            "approve",
            str(third["id"]),
            "--by",
            "S. Officer",
            "--date",
            "2027-01-15",
            "--db",
            db,
            "--format",
            "json",
        )
    )
    assert approval["superseded"] == [second["id"]]

    # the timeline
    rows = {r["id"]: r for r in json.loads(run("history", "--db", db, "--format", "json"))}
    assert {i: r["status"] for i, r in rows.items()} == {
        first["id"]: "rejected",
        second["id"]: "superseded",
        third["id"]: "approved",
    }
    assert rows[third["id"]]["approved_by"] == "S. Officer"
    assert rows[third["id"]]["approved_on"] == "2027-01-15"
    assert {r["recorded_by"] for r in rows.values()} == {"C. Holder"}
    timeline = run("history", "--db", db, "--game", "high-card-flush")
    assert "R. Officer rejected #" in timeline and ": no Flush Bonus table Q" in timeline
    assert f"was superseded by #{third['id']} from 2027-07-01" in timeline

    # the next proposal's review pack, against what is approved now
    proposal = amended(
        change,
        tmp_path / "hcf-next.yaml",
        ("2027-07-01", "2028-01-01"),
        ("straight_flush_bonus: C", "straight_flush_bonus: A"),
    )
    pack = run("review", str(proposal), "--against", "approved", "--format", "markdown", "--db", db)
    for _, heading in SECTIONS:
        assert heading in pack
    assert f"approved #{third['id']}" in pack
    assert "Straight Flush Bonus" in pack

    # retention: nothing younger than five years is purged
    today = dt.date.today().isoformat()
    out = rulesub("purge", "--before", today, "--db", db, own_process=False)
    assert out.returncode == 1
    assert "inside the retention period" in out.stderr
    assert len(json.loads(run("history", "--db", db, "--format", "json"))) == 3
    assert run("show", str(first["id"]), "--db", db).encode() == filed.read_bytes()


def test_whoever_recorded_a_filing_does_not_decide_it(db: str) -> None:
    """Separation of duties at the command line, as on the web: ``--by`` naming who
    recorded the filing (the name as the store compares names: another case, spaces) is
    refused, exit 1, nothing changed; another officer decides it."""
    from validator.store import Store

    sid = str(
        json.loads(run("record", str(HCF), "--by", "Alice Clerk", "--db", db, "--format", "json"))[
            "id"
        ]
    )
    for verb, said in (("approve", ("--date", "2026-12-01")), ("reject", ("--reason", "mine"))):
        for me in ("Alice Clerk", " alice  CLERK "):
            out = rulesub(verb, sid, "--by", me, *said, "--db", db, own_process=False)
            assert out.returncode == 1, (verb, me, out.stderr)
            assert f"submission {sid} was recorded by Alice Clerk" in out.stderr
            assert "separation of duties" in out.stderr
    store = Store(db)
    assert store.get(int(sid)).status == "submitted"
    assert [e.action for e in store.events([int(sid)])] == ["record"]
    run("approve", sid, "--by", "Bob Reviewer", "--date", "2026-12-01", "--db", db)
    assert store.get(int(sid)).status == "approved"
    store.dispose()


def test_a_filing_for_a_game_rulesub_has_not_cannot_be_approved_even_waived(
    db: str, tmp_path: Path
) -> None:
    """A filing naming no game rulesub has (`game: baccarat`) is recorded with its error,
    as every filing is, but no rule of it was checked: approving it with a waiver of that
    error is refused, exit 1, and nothing is written; rejecting it stays open."""
    from validator.store import Store

    text = HCF.read_text(encoding="utf-8").replace("game: high-card-flush", "game: baccarat")
    unknown = tmp_path / "baccarat.yaml"
    unknown.write_text(text, encoding="utf-8")
    out = run("record", str(unknown), "--by", "clerk", "--db", db, "--format", "json")
    sid = str(json.loads(out)["id"])
    waived = ("--waive", "rulesub/unknown-game=we offer it", "--date", "2026-12-01")
    refused = rulesub("approve", sid, "--by", "rev", *waived, "--db", db, own_process=False)
    assert refused.returncode == 1, refused.stderr
    assert "names no game rulesub has ('baccarat')" in refused.stderr
    assert "Traceback" not in refused.stderr
    store = Store(db)
    assert store.get(int(sid)).status == "submitted"
    assert [e.action for e in store.events([int(sid)])] == ["record"]
    store.dispose()
    run("reject", sid, "--by", "rev", "--reason", "no such game", "--db", db)


def test_a_refused_decision_says_its_verb(db: str) -> None:
    """The store's refusals say the verb as a person does: "can be rejected", "can be
    withdrawn", never "rejectd" or "withdrawd" (the web shows the store's words)."""
    from validator.store import Refused, Store

    sid = str(
        json.loads(run("record", str(HCF), "--by", "clerk", "--db", db, "--format", "json"))["id"]
    )
    run("approve", sid, "--by", "rev", "--date", "2026-12-01", "--db", db)
    out = rulesub("reject", sid, "--by", "rev", "--reason", "late", "--db", db, own_process=False)
    assert out.returncode == 1
    assert (
        f"submission {sid} is approved (by rev): only a submitted one can be rejected" in out.stderr
    )
    store = Store(db)
    with pytest.raises(Refused, match=r"only a submitted one can be withdrawn$"):
        store.withdraw(int(sid), "cas")
    store.dispose()


def test_the_approved_filing_compared_with_is_named_by_its_file_name(
    db: str, tmp_path: Path
) -> None:
    """``review --against approved`` and ``diff --against approved`` name the approved
    filing by its file's name, never the directories it was recorded from."""
    filed = tmp_path / "filings" / "office-copy" / "hcf.yaml"
    filed.parent.mkdir(parents=True)
    filed.write_bytes(HCF.read_bytes())
    sid = json.loads(run("record", str(filed), "--by", "clerk", "--db", db, "--format", "json"))[
        "id"
    ]
    run("approve", str(sid), "--by", "rev", "--date", "2026-12-01", "--db", db)
    proposal = amended(HCF, tmp_path / "next.yaml", ("2027-01-01", "2027-07-01"))
    named = f"approved #{sid} (hcf.yaml, effective 2027-01-01)"
    for fmt in ("markdown", "html", "json"):
        pack = run("review", str(proposal), "--against", "approved", "--format", fmt, "--db", db)
        assert named in pack, fmt
        assert "office-copy" not in pack, fmt
    diff = run("diff", "--against", "approved", str(proposal), "--db", db)
    assert named in diff and "office-copy" not in diff


def test_a_pack_of_an_approved_filing_names_the_one_it_superseded_as_such(
    db: str, tmp_path: Path
) -> None:
    """Once a filing is approved, the approval it replaced is superseded (from its
    effective date): the pack made again of that filing still said "Compared with:
    approved #1", which `history` shows as SUPERSEDED. It says so, by which and from when."""
    first = json.loads(run("record", str(HCF), "--by", "clerk", "--db", db, "--format", "json"))
    run("approve", str(first["id"]), "--by", "rev", "--date", "2026-12-01", "--db", db)
    nxt = amended(HCF, tmp_path / "next.yaml", ("2027-01-01", "2027-07-01"))
    second = json.loads(run("record", str(nxt), "--by", "clerk", "--db", db, "--format", "json"))
    before = run("review", str(nxt), "--against", "approved", "--format", "markdown", "--db", db)
    assert f"approved #{first['id']} (high-card-flush.yaml, effective 2027-01-01)" in before
    assert "superseded by" not in before
    run("approve", str(second["id"]), "--by", "rev", "--date", "2026-12-02", "--db", db)
    after = run("review", str(nxt), "--against", "approved", "--format", "markdown", "--db", db)
    assert (
        f"approved #{first['id']} (high-card-flush.yaml, effective 2027-01-01), superseded "
        f"by #{second['id']} from 2027-07-01"
    ) in " ".join(after.split())
    # a decision refused on it names what superseded it, never its own approver as that
    said = rulesub(
        "reject",
        str(first["id"]),
        "--by",
        "rev2",
        "--reason",
        "late",
        "--db",
        db,
        own_process=False,
    ).stderr
    assert (
        f"is superseded by #{second['id']} from 2027-07-01 (approved by rev): only a "
        "submitted one can be rejected"
    ) in " ".join(said.split())


def test_a_pack_of_an_ended_filing_offers_no_form_and_keeps_the_note(
    db: str, tmp_path: Path
) -> None:
    """A withdrawn filing's pack (and a replaced one's) was the blank form an officer signs
    ("Decision: Approved / Rejected … Signature"), and a rejected one's foot read
    "Approved on: ______"; an approval's note, kept on the record, was left out of the
    copy of record. Each ended filing says how it ended and offers nothing to sign; the
    note is in the approved filing's pack."""
    from validator.store import Store

    first = json.loads(run("record", str(HCF), "--by", "clerk", "--db", db, "--format", "json"))
    nxt = amended(HCF, tmp_path / "next.yaml", ("2027-01-01", "2027-07-01"))
    second = json.loads(run("record", str(nxt), "--by", "clerk", "--db", db, "--format", "json"))
    store = Store(db)
    store.withdraw(second["id"], "clerk")
    store.dispose()
    withdrawn = run("review", str(nxt), "--format", "markdown", "--db", db)
    assert "Decision recorded: Withdrawn by its certificate holder on " in withdrawn
    assert "Name of the approving officer" not in withdrawn
    run("approve", str(first["id"]), "--by", "rev", "--note", "per the Board's letter", "--db", db)
    approved = run("review", str(HCF), "--format", "markdown", "--db", db)
    assert "(the approval's note: per the Board's letter)" in approved
    page = run("review", str(nxt), "--format", "html", "--db", db)
    assert "Approved on: ______" not in page and "Withdrawn by its certificate holder" in page
    # every page's foot says the day it ended, whatever the officer's name holds
    third = amended(HCF, tmp_path / "third.yaml", ("2027-01-01", "2028-01-01"))
    filed = json.loads(run("record", str(third), "--by", "clerk", "--db", db, "--format", "json"))
    run(
        "reject",
        str(filed["id"]),
        "--by",
        "Lee, J. (Chief: Compliance)",
        "--reason",
        "no",
        "--db",
        db,
    )
    page = run("review", str(third), "--format", "html", "--db", db)
    assert "· Rejected on 20" in page and "Rejected by Lee, J. (Chief</" not in page
