"""The office's working pages: finding filings (search, filters, sort, pages of 50, counts,
the same on the API), the home page of pending filings, the audit log in words and its
exports, a holder's withdrawal, a filing that replaces a pending one, and the review pack and
par sheet as PDF. Each on SQLite and on PostgreSQL (where ``RULESUB_TEST_POSTGRES_URL`` is
set)."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import insert, select
from store_db import (
    BACKENDS,
    database,
    store_clock,  # noqa: F401 (the store's clock, for the tests that name it)
)
from webtools import (
    EXAMPLE,
    HOLDER,
    OTHER_HOLDER,
    Office,
    make_office,
    other_holders_submission,
    sign_in,
    signed_in,
    token_of,
)

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from validator.store import accounts as acct  # noqa: E402
from validator.store.lifecycle import _audit  # noqa: E402
from validator.store.schema import ACTIONS, submissions  # noqa: E402
from validator.web import create_app  # noqa: E402
from validator.web.office import CSV_FIELDS, audit_words, chain_place  # noqa: E402

APPROVED_ON = "2026-12-20"


client_of = signed_in  # the name these tests read


@pytest.fixture(params=BACKENDS)
def office(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Office]:
    for db in database(request.param, tmp_path, migrated=True):
        yield make_office(tmp_path, db)


def clones(office: Office, sid: int, count: int, **change: object) -> list[int]:
    """``count`` more filings like ``sid`` (other bytes), written straight to the table:
    enough rows for the pages without validating each."""
    with office.store.transaction() as conn:
        row = conn.execute(select(submissions).where(submissions.c.id == sid)).one()._asdict()
        row.pop("id")
        ids = []
        for i in range(count):
            content = row["content"] + f"# clone {i} {change}\n".encode()
            values = {**row, **change, "content": content}
            values["sha256"] = hashlib.sha256(content).hexdigest()
            values["recorded_at"] = row["recorded_at"] + dt.timedelta(minutes=i + 1)
            made = conn.execute(insert(submissions).values(**values)).inserted_primary_key
            assert made is not None
            ids.append(made[0])
    return ids


def listed(page: str) -> list[int]:
    table = page.split('id="submissions"', 1)[1].split("</table>", 1)[0]
    return [int(n) for n in re.findall(r'<a href="/submissions/(\d+)">#\d+</a>', table)]


# -- finding work -----------------------------------------------------------------------------


def test_search_finds_by_facility_holder_game_name_and_file(office: Office) -> None:
    rev = client_of(office, "rev")
    mine, theirs = office.ids["example"], office.ids["harbour"]
    assert listed(rev.get("/submissions?q=harbour point").text) == [theirs]
    assert listed(rev.get("/submissions?q=example downs racing").text) == [mine]
    assert set(listed(rev.get("/submissions?q=High Card Flush").text)) == {mine, theirs}
    assert listed(rev.get("/submissions?q=harbour-hcf.yaml").text) == [theirs]
    assert listed(rev.get("/submissions?q=no such thing anywhere").text) == []
    for wildcard in ("%25", "_", "*", '"'):  # a character, never a wildcard or an operator
        assert listed(rev.get(f"/submissions?q={wildcard}").text) == []
    assert listed(rev.get(f"/submissions?facility=Harbour Point&holder={OTHER_HOLDER}").text) == [
        theirs
    ]


def test_a_newly_recorded_facility_is_offered_and_found_at_once(office: Office) -> None:
    """The list's choices are kept between pages only while the audit log stays as it was:
    a filing recorded since is offered and found on the next page load."""
    rev = client_of(office, "rev")
    assert "Lakeside Lanes" not in rev.get("/submissions").text
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "facility: Example Downs", "facility: Lakeside Lanes"
    )
    path = office.tmp / "lakeside.yaml"
    path.write_text(text, encoding="utf-8")
    new = office.store.record(path, "cas", display="lakeside.yaml").id
    page = rev.get("/submissions").text
    assert "<option>Lakeside Lanes</option>" in page
    assert listed(rev.get("/submissions?q=lakeside lanes").text) == [new]
    assert listed(rev.get("/submissions?q=LAKESIDE.YAML").text) == [new]


def test_search_finds_words_of_the_filings_text_never_another_holders(office: Office) -> None:
    """``q`` searches the filing's text too (holder, facility, game name, file name, text),
    in the full-text index the database keeps as filings are recorded and purged: each word
    of the search as the start of a word of the file name or text, in any order."""
    memo = other_holders_submission(office.tmp).read_text(encoding="utf-8")
    path = office.tmp / "memo.yaml"
    path.write_text(memo + "# Dealing procedures per memorandum Zephyrine-42\n", encoding="utf-8")
    new = office.store.record(path, "harbour", display="memo.yaml").id
    rev, cas = client_of(office, "rev"), client_of(office, "cas")
    assert listed(rev.get("/submissions?q=zephyrine").text) == [new]
    assert listed(rev.get("/submissions?q=42 Zephyr").text) == [new]
    assert listed(rev.get("/submissions?q=memorandum zephyrine-43").text) == []  # every word
    assert listed(rev.get("/submissions?q=memo").text) == [new]  # its file name's word
    assert listed(rev.get("/submissions?q=zephyrine&status=approved").text) == []
    token = acct.issue_token(office.store, "rev", by="test")
    api = TestClient(
        create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
    )
    assert api.get("/api/submissions?q=zephyrine").headers["x-total-count"] == "1"
    # the casino of another holder neither finds nor counts it
    page = cas.get("/submissions?q=zephyrine").text
    assert listed(page) == [] and "0 found" in page
    assert listed(cas.get("/submissions?q=dealing procedures").text) == []


def test_a_filing_number_with_its_hash_finds_that_filing_alone(office: Office) -> None:
    """``q=#N`` is filing N: not also every filing whose text has a word starting with N
    (the example's text has many numbers); ``q=N`` is that filing or those words."""
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    assert listed(rev.get(f"/submissions?q=%23{sid}").text) == [sid]
    assert len(listed(rev.get(f"/submissions?q={sid}").text)) > 1
    assert listed(rev.get("/submissions?q=%23999999").text) == []
    token = acct.issue_token(office.store, "rev", by="test")
    api = TestClient(
        create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
    )
    assert api.get(f"/api/submissions?q=%23{sid}").headers["x-total-count"] == "1"


def test_a_purged_filing_leaves_the_search(tmp_path: Path) -> None:
    """Purging a filing takes its words out of the full-text index with it (SQLite's index
    stays whole: its integrity check passes)."""
    from sqlalchemy import text

    office = make_office(tmp_path)
    old = office.ids["harbour"]
    office.store.reject(old, "rev", "incomplete")
    rev = client_of(office, "rev")
    assert listed(rev.get("/submissions?q=harbour-hcf").text) == [old]
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=6 * 366)  # past its retention
    assert office.store.purge(later.date() - dt.timedelta(days=5 * 366), "rev", now=later) == [old]
    assert listed(rev.get("/submissions?q=harbour-hcf").text) == []
    with office.store.transaction() as conn:
        conn.execute(
            text("INSERT INTO submissions_text (submissions_text) VALUES ('integrity-check')")
        )
        assert conn.execute(text("SELECT count(*) FROM submissions_text")).scalar() == 1


def test_a_page_asks_only_the_schemas_version_on_connections_kept_open(office: Office) -> None:
    """The server keeps its connections open from one request to the next and reads the
    database's tables once, at start-up: a signed-in page opens no connection and asks the
    database for its schema's version only, never for its tables."""
    from sqlalchemy import event

    app = create_app(office.db, secret="s")
    client = TestClient(app)
    assert sign_in(client, "rev").status_code == 303
    engine = app.state.web.store.engine
    said: list[str] = []
    opened: list[object] = []
    event.listen(engine, "before_cursor_execute", lambda *a: said.append(a[2]))
    event.listen(engine, "connect", lambda *a: opened.append(a))
    for path in ("/", "/submissions?q=harbour", "/audit", f"/submissions/{office.ids['example']}"):
        assert client.get(path).status_code == 200, path
    assert opened == []
    asked = " ".join(said).lower()
    assert "alembic_version" in asked
    for catalogue in ("sqlite_master", "information_schema", "pg_catalog", "pg_class"):
        assert catalogue not in asked


def test_a_page_reads_the_audit_head_with_the_schemas_version(office: Office) -> None:
    """A page's transaction asks the schema's version and the audit log's last entry in
    one statement: no statement of its own for the head, and the head is that
    transaction's only (a later page reads it again, after an entry written meanwhile)."""
    from sqlalchemy import event

    app = create_app(office.db, secret="s")
    client = TestClient(app)
    assert sign_in(client, "rev").status_code == 303
    said: list[str] = []
    event.listen(app.state.web.store.engine, "before_cursor_execute", lambda *a: said.append(a[2]))

    def total() -> int:
        found = re.search(r'id="total">(\d+) entr', client.get("/audit").text)
        assert found is not None
        return int(found.group(1))

    before = total()
    heads = [s for s in said if "max(audit_log.id)" in s.replace('"', "").lower()]
    assert heads == [], heads
    assert any("alembic_version" in s and "audit_log" in s for s in said)
    with office.store.transaction() as conn:
        _audit(conn, "rev", "note", None, {"said": "written between two pages"})
    assert total() == before + 1


def test_a_running_servers_pages_refuse_a_schema_changed_under_it(
    office: Office, caplog: pytest.LogCaptureFixture
) -> None:
    """Each page's transaction reads the schema's version again: a database a newer
    rulesub changed under the running server is refused (503) instead of being read as
    this one's, and served again once it is back. The reason, which may name the
    database's path, is the server's log's (for the officer), never the answer's: the
    gate answers before anyone has signed in."""
    from sqlalchemy import text

    from validator.web.app import UNAVAILABLE

    client = client_of(office, "rev")
    assert client.get("/submissions").status_code == 200
    anonymous = TestClient(create_app(office.db, secret="s"))
    with office.store.transaction() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    for path in ("/submissions", "/audit", "/"):
        with caplog.at_level("ERROR", logger="rulesub.web"):
            refused = client.get(path)
        assert refused.status_code == 503, path
        assert UNAVAILABLE in refused.text and "newer than" not in refused.text
        assert str(office.db) not in refused.text
        assert "newer than this rulesub knows" in caplog.text
    before = anonymous.get("/")  # no one signed in
    assert before.status_code == 503 and str(office.db) not in before.text
    with office.store.engine.connect() as conn, conn.begin():
        conn.execute(text("UPDATE alembic_version SET version_num = '0007'"))
    assert client.get("/audit").status_code == 200


def test_the_counts_follow_the_record_as_it_grows(office: Office) -> None:
    """Counts are kept while the audit log's last entry is the same, and follow each
    change: a decision moves a filing between the status counts, and the audit log's
    totals grow by the entries since."""
    rev = client_of(office, "rev")

    def total(path: str) -> int:
        found = re.search(r'id="total">(\d+) (found|entr)', rev.get(path).text)
        assert found is not None, path
        return int(found.group(1))

    log, mine = total("/audit"), total("/audit?actor=rev")
    pending = total("/submissions?status=submitted")
    assert total("/submissions?status=rejected") == 0
    office.store.reject(office.ids["harbour"], "rev", "incomplete")
    assert total("/audit") == log + 1 and total("/audit?actor=rev") == mine + 1
    assert total("/audit?actor=rev&action=reject") == 1
    assert total("/submissions?status=submitted") == pending - 1
    assert total("/submissions?status=rejected") == 1
    assert total("/audit") == log + 1  # and again, kept


def test_the_list_reads_indexes_never_the_filings_it_does_not_show(tmp_path: Path) -> None:
    """Every query of a filtered, searched page (and of the filings it would replace) is
    answered from an index; only the page's own filings are read whole (by their number).
    SQLite keeps a filing's bytes in its row: a plan that read rows would read them all."""
    from sqlalchemy import event

    from validator.store.accounts import Account
    from validator.web import queries

    office = make_office(tmp_path)
    clones(office, office.ids["example"], 60)
    store = office.store
    said: list[tuple[str, Any]] = []

    def keep(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "submissions" in statement and not statement.startswith("EXPLAIN"):
            said.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", keep)
    reviewer = Account(0, "rev", "reviewer", None, "")
    for params in (
        {"status": "submitted", "facility": "Example Downs", "q": "example", "sort": "recorded"},
        {"status": "submitted", "page": "2"},
        {"q": "hcf", "sort": "facility"},
        {},
    ):
        found = queries.search_submissions(
            store, reviewer, queries.Filters.of(params), with_replacing=True
        )
        assert found.rows
    event.remove(store.engine, "before_cursor_execute", keep)
    assert said
    with store.engine.connect() as conn:
        for statement, parameters in said:
            plan = [
                row[-1]
                for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            ]
            for step in plan:
                if step.startswith("SCAN submissions_text VIRTUAL TABLE"):
                    continue  # the filings' words: the full-text index
                if "submissions" in step or " new " in f" {step} " or " old " in f" {step} ":
                    assert "COVERING INDEX" in step or "INTEGER PRIMARY KEY" in step, (
                        statement,
                        plan,
                    )


def test_a_casino_searches_only_its_own_filings(office: Office) -> None:
    """Another holder's filing is not found, not counted and not offered as a choice."""
    cas = client_of(office, "cas")
    page = cas.get("/submissions?q=Harbour").text
    assert listed(page) == [] and "Harbour Point" not in page
    assert listed(cas.get("/submissions").text) == [office.ids["example"]]


def test_filters_sort_and_pages_of_fifty_keep_the_filters_in_links(office: Office) -> None:
    sid = office.ids["example"]
    later = clones(office, sid, 60, effective=dt.date(2027, 6, 1))
    rev = client_of(office, "rev")
    first = rev.get("/submissions?status=submitted&facility=Example Downs&sort=recorded").text
    assert "61 found, page 1 of 2" in unescape(first)
    assert listed(first)[:2] == [sid, later[0]] and len(listed(first)) == 50
    nxt = re.search(r'<a href="([^"]+)" rel="next"', first)
    assert nxt is not None
    link = unescape(nxt.group(1))
    for kept in ("status=submitted", "facility=Example+Downs", "sort=recorded", "page=2"):
        assert kept in link
    second = rev.get(link).text
    assert listed(second) == later[49:]
    ranged = rev.get("/submissions?effective_from=2027-05-01&effective_to=2027-06-30").text
    assert "60 found" in ranged and sid not in listed(ranged)
    newest = rev.get("/submissions?facility=Example Downs").text
    assert listed(newest)[0] == later[-1]
    counts = rev.get("/submissions?status=approved").text
    assert "0 found" in counts and "submitted 62" in counts  # the counts whatever status=


def test_unreadable_filters_are_said_not_silently_ignored(office: Office) -> None:
    rev = client_of(office, "rev")
    page = unescape(rev.get("/submissions?status=lost&effective_from=tomorrow").text)
    assert "Not applied: status 'lost'" in page
    assert "effective from 'tomorrow' (a date is YYYY-MM-DD)" in page
    paged = unescape(rev.get("/submissions?page=abc").text)
    assert "Not applied: page 'abc' (a page is a number from 1 to 9,223," in paged
    assert "2 found" in paged
    assert "Not applied" not in rev.get("/submissions?page=1").text
    # a parameter given twice filtered by its last value alone, unsaid
    twice = unescape(rev.get("/submissions?status=rejected&status=submitted").text)
    assert "Not applied: status 'rejected' (given once: 'submitted', the last, is applied)" in (
        twice
    )
    log = unescape(rev.get("/audit?submission=abc&date_from=x&date_to=2027-13-01").text)
    assert (
        "Not applied: filing number 'abc' (a filing's number is written in the digits 0 to 9); "
        "date from 'x' (a date is YYYY-MM-DD); date to '2027-13-01' (a date is YYYY-MM-DD)."
    ) in log
    everything = re.search(r'id="total">(\d+) entries', rev.get("/audit").text)
    assert everything and f'id="total">{everything.group(1)} entries' in log
    assert "Not applied" not in rev.get(f"/audit?submission={office.ids['example']}").text
    for unread in ("/audit?page=first", "/audit?submission=%D9%A3"):  # ٣: no 0 to 9
        assert "Not applied" in rev.get(unread).text, unread


PAST_ANY_KEY = "99999999999999999999999"


def test_a_number_or_date_past_the_databases_range_matches_nothing_never_500(
    office: Office,
) -> None:
    """A filing number no key can hold (past 2^63, 5,000 digits) matches no filing and no
    entry, never handed to the database (SQLite's OverflowError was a 500, and a streamed
    export cut off); the last day of the calendar bounds nothing; the API answers JSON."""
    rev = TestClient(create_app(office.db, secret="s"), raise_server_exceptions=False)
    assert sign_in(rev, "rev").status_code == 303
    for number in (PAST_ANY_KEY, str(2**63), "9" * 5000, "0"):
        for q in (f"%23{number}", number) if number != "0" else ("%230",):  # 0: a word too
            found = rev.get(f"/submissions?q={q}")
            assert found.status_code == 200 and "0 found" in found.text, (q[:30], found.text[:200])
        log = rev.get(f"/audit?submission={number}")
        assert log.status_code == 200 and 'id="total">0 entries' in log.text, number[:30]
        assert "Not applied" not in log.text
        export = rev.get(f"/audit?format=csv&submission={number}")
        assert export.status_code == 200 and export.text.strip() == ",".join(CSV_FIELDS)
    assert rev.get(f"/submissions?q=%23{office.ids['example']}").text.count("1 found") == 1
    every = rev.get("/audit?format=json").json()
    assert len(rev.get("/audit?format=json&date_to=9999-12-31").json()) == len(every)
    assert len(rev.get("/audit?format=json&date_from=0001-01-01").json()) == len(every)
    assert f'id="total">{len(every)} entries' in rev.get("/audit?date_to=9999-12-31").text
    assert "0 entries" in rev.get("/audit?date_from=9999-12-31").text
    ranged = rev.get("/submissions?effective_from=0001-01-01&effective_to=9999-12-31").text
    assert "2 found" in ranged
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(
        create_app(office.db, secret="s"),
        headers={"Authorization": f"Bearer {token}"},
        raise_server_exceptions=False,
    )
    for q in (f"%23{PAST_ANY_KEY}", PAST_ANY_KEY):
        answer = api.get(f"/api/submissions?q={q}")
        assert answer.status_code == 200 and answer.json() == [], q
        assert answer.headers["x-total-count"] == "0"


def test_the_api_takes_the_same_parameters_with_page_and_total(office: Office) -> None:
    clones(office, office.ids["example"], 55)
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(
        create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
    )
    first = api.get("/api/submissions?status=submitted&sort=recorded")
    assert first.headers["x-total-count"] == "56" and first.headers["x-pages"] == "2"
    assert len(first.json()) == 50 and first.json()[0]["id"] == office.ids["example"]
    assert {e["certificate_holder"] for e in first.json()} == {HOLDER}
    nxt = re.fullmatch(r'<([^>]+)>; rel="next"', first.headers["link"])
    assert nxt and "status=submitted" in nxt.group(1) and "page=2" in nxt.group(1)
    second = api.get(nxt.group(1))
    assert second.headers["x-page"] == "2" and len(second.json()) == 6
    assert api.get("/api/submissions?q=Harbour").headers["x-total-count"] == "0"


def test_the_api_refuses_a_parameter_it_cannot_read_with_400(office: Office) -> None:
    """A parameter the list cannot read is a 400 naming it and what was expected, as the
    page says "Not applied" (one reader of both), never the list unfiltered; a page past
    the last is no error: empty, with the headers."""
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(
        create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
    )
    rev = client_of(office, "rev")
    for query, parameter, expected in (
        ("status=bogus", "status", "one of submitted, approved, rejected"),
        ("sort=bogus", "sort", "one of -recorded, recorded"),
        ("effective_from=nope", "effective_from", "a date is YYYY-MM-DD"),
        ("page=abc", "page", "a page is a number"),
        ("page=0", "page", "a page is a number from 1"),
        ("page=-1", "page", "a page is a number from 1"),
        ("stauts=approved", "stauts", "the list takes q, status, game"),
    ):
        answer = api.get(f"/api/submissions?{query}")
        assert answer.status_code == 400, query
        assert answer.headers["content-type"] == "application/json"
        (unread,) = answer.json()["not_applied"]
        assert unread["parameter"] == parameter and unread["given"] == query.split("=")[1]
        assert unread["expected"].startswith(expected), (query, unread)
        assert answer.json()["error"].startswith("Not applied: ")
        page = unescape(rev.get(f"/submissions?{query}").text)
        assert answer.json()["error"] in page, query  # the page's words, from one reader
    both = api.get("/api/submissions?status=bogus&effective_to=2027-13-01&q=example")
    assert both.status_code == 400
    assert [u["parameter"] for u in both.json()["not_applied"]] == ["status", "effective_to"]
    twice = api.get("/api/submissions?status=submitted&status=approved")
    assert twice.status_code == 400  # it answered 200 with the approved ones alone
    assert twice.json()["not_applied"] == [
        {
            "parameter": "status",
            "given": "submitted",
            "expected": "given once: 'approved', the last, is applied",
        }
    ]
    past = api.get("/api/submissions?page=99")
    assert past.status_code == 200 and past.json() == []
    assert (past.headers["x-total-count"], past.headers["x-page"], past.headers["x-pages"]) == (
        "1",
        "99",
        "1",
    )
    assert "link" not in past.headers
    assert api.get("/api/submissions?page=1").json()[0]["id"] == office.ids["example"]
    assert "1 found" in rev.get("/submissions?page=99&q=harbour").text  # a page: the last
    for fmt in ("csv", "json"):  # the audit log's exports: refused, never the whole log
        export = rev.get(f"/audit?format={fmt}&date_from=x")
        assert export.status_code == 400, fmt
        assert [u["parameter"] for u in export.json()["not_applied"]] == ["date_from"]


def test_home_lists_pending_filings_oldest_first_with_age_and_holder(office: Office) -> None:
    theirs = office.ids["harbour"]
    with office.store.transaction() as conn:  # filed three days ago: the oldest
        from sqlalchemy import update

        old = dt.datetime.now(dt.UTC) - dt.timedelta(days=3, hours=1)
        conn.execute(update(submissions).where(submissions.c.id == theirs).values(recorded_at=old))
    page = client_of(office, "rev").get("/").text
    pending = page.split('id="pending"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<a href="/submissions/(\d+)">', pending)
    assert [int(r) for r in rows] == [theirs, office.ids["example"]]
    first_row = pending.split("<tr>")[2]
    assert "3 days" in first_row and unescape(OTHER_HOLDER) in unescape(first_row)
    assert "High Card Flush" in first_row
    casino = client_of(office, "cas").get("/").text
    assert "Harbour" not in casino


# -- the record -------------------------------------------------------------------------------


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_audit_reads_each_event_in_words_filtered_to_a_filing(office: Office) -> None:
    """The story of one filing: filed, approved with a waiver, in words, newest first."""
    flawed = EXAMPLE.read_text(encoding="utf-8").replace(
        "effective: 2027-01-01", "effective: 2026-12-01"
    )
    path = office.tmp / "early.yaml"
    path.write_text(flawed, encoding="utf-8")
    sid = office.store.record(path, "cas", display="early.yaml").id
    rev = client_of(office, "rev")
    rev.post(
        f"/submissions/{sid}/approve",
        data={
            "csrf": token_of(rev),
            "on": APPROVED_ON,
            "waive": "rulesub/effective-before-approval: the meter was certified early",
        },
    )
    assert office.store.get(sid).status == "approved"
    page = unescape(rev.get(f"/audit?submission={sid}").text)
    words = re.findall(r'<td class="words"[^>]*>(?:<a [^>]+>)?(.*?)(?:</a>)?</td>', page)
    assert words == [
        f"rev approved #{sid} (Example Downs · High Card Flush, effective 2026-12-01) on "
        f"{APPROVED_ON}, with 1 waiver: rulesub/effective-before-approval: the meter was "
        "certified early",
        f"cas filed #{sid} (Example Downs · High Card Flush, effective 2026-12-01) as "
        "early.yaml: 0 errors, 0 warnings",
    ]
    assert "2 entries" in page
    by_action = unescape(rev.get("/audit?action=account-add&actor=test").text)
    assert "test added the casino account cas for Example Downs Racing & Casino" in by_action
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    assert "0 entries" in rev.get(f"/audit?date_from={tomorrow}").text


def test_audit_pages_and_shows_each_entrys_place_in_the_chain(office: Office) -> None:
    with office.store.transaction() as conn:
        now = dt.datetime.now(dt.UTC)
        for i in range(120):
            _audit(conn, "rev", "note", None, {"i": i}, now)
    rev = client_of(office, "rev")
    page = rev.get("/audit?actor=rev").text
    assert "120 entries" in page and "page 1 of 3" in page
    sequences = [int(n) for n in re.findall(r'<span class="chain">(\d+)', page)]
    assert len(sequences) == 50 and sequences == sorted(sequences, reverse=True)
    last = rev.get("/audit?actor=rev&page=3").text
    assert len(re.findall(r'<span class="chain">', last)) == 20
    chained = SimpleNamespace(id=7, entry_hash="0123456789abcdef" * 4)
    assert chain_place(chained) == {"sequence": 7, "hash": "0123456789ab"}
    assert chain_place(SimpleNamespace(id=7)) == {"sequence": 7, "hash": None}


def test_audit_exports_csv_and_json_streamed_and_casinos_never_see_the_log(office: Office) -> None:
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    answer = rev.get(f"/audit?format=csv&submission={sid}")
    assert answer.headers["content-type"].startswith("text/csv")
    assert "content-length" not in answer.headers  # streamed, not built whole
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [r["action"] for r in rows] == ["record"]
    assert rows[0]["words"].startswith(f"cas filed #{sid} (Example Downs · High Card Flush")
    assert json.loads(rows[0]["detail"])["file"] == "high-card-flush.yaml"
    everything = rev.get("/audit?format=json").json()
    assert [e["sequence"] for e in everything] == sorted(e["sequence"] for e in everything)
    assert {"record", "account-add"} <= {e["action"] for e in everything}
    cas = client_of(office, "cas")
    for path in ("/audit", "/audit?format=csv", "/audit?format=json"):
        assert cas.get(path).status_code == 404


def test_audit_words_of_every_action() -> None:
    def event(action: str, detail: dict[str, object], sid: int | None = 3) -> SimpleNamespace:
        return SimpleNamespace(
            actor="ana", action=action, submission_id=sid, detail=json.dumps(detail)
        )

    assert audit_words(event("reject", {"reason": "paytable B is not approved"})) == (
        "ana rejected #3: paytable B is not approved"
    )
    assert audit_words(event("withdraw", {})) == "ana withdrew #3"
    assert (
        audit_words(event("replace", {"replaced_by": 9}))
        == "#3 was replaced by #9 (ana's approval)"
    )
    assert audit_words(event("supersede", {"superseded_by": 9, "from": "2027-01-01"})) == (
        "#3 was superseded by #9 from 2027-01-01 (ana's approval)"
    )
    assert audit_words(event("upgrade", {"from": "0002", "to": "0003"}, None)) == (
        "ana upgraded the database's schema from 0002 to 0003"
    )


def _actions_the_store_writes() -> set[str]:
    """Every action named by a call of ``_audit`` in the store's code (each a literal)."""
    import ast

    import validator.store

    named: set[str] = set()
    for path in Path(validator.store.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_audit":
                action = node.args[2]
                assert isinstance(action, ast.Constant), f"{path.name}:{node.lineno}"
                named.add(action.value)
    return named


def test_every_action_the_store_writes_is_offered_and_said_in_words(office: Office) -> None:
    """The audit page's Action filter offers every action the store writes, from the
    store's one list, each named in words (its value the action the URL takes), and each
    entry is said in words, never the bare action's name."""
    assert _actions_the_store_writes() == set(ACTIONS)
    rev = client_of(office, "rev")
    select_ = rev.get("/audit").text.split('id="action"', 1)[1].split("</select>", 1)[0]
    offered = re.findall(r'<option value="([^"]+)"(?: selected)?>([^<]+)</option>', select_)
    assert [value for value, _ in offered] == list(ACTIONS)
    assert [unescape(name) for _, name in offered] == list(ACTIONS.values())
    assert not any("-" in unescape(name) for _, name in offered)  # words, not ids
    chosen = rev.get("/audit?action=account-token-revoke").text
    assert '<option value="account-token-revoke" selected>API tokens revoked</option>' in chosen
    for action in ACTIONS:
        event = SimpleNamespace(actor="ana", action=action, submission_id=None, detail="{}")
        assert not audit_words(event).startswith("ana: "), action


def test_a_facilitys_holder_and_revoked_tokens_are_said_with_what_they_acted_on(
    office: Office,
) -> None:
    """``facilities set`` and ``users token --revoke`` name the facility, its holder (and
    the one it had), how many tokens and of which label, on the page and in the exports."""
    office.store.set_facility("Example Downs", HOLDER, "R. Officer")
    office.store.set_facility("Example Downs", OTHER_HOLDER, "R. Officer")
    acct.issue_token(office.store, "cas", label="ci", by="root")
    acct.issue_token(office.store, "cas", label="desk", by="root")
    acct.revoke_tokens(office.store, "cas", label="ci", by="root")
    acct.revoke_tokens(office.store, "cas", by="root")
    set_words = [
        f"R. Officer set the certificate holder of Example Downs to {OTHER_HOLDER}, "
        f"in place of {HOLDER}",
        f"R. Officer set the certificate holder of Example Downs to {HOLDER}, none set before",
    ]
    revoke_words = [
        "root revoked 1 API token (every one it held) of the account cas",
        "root revoked 1 API token (labelled ci) of the account cas",
    ]
    rev = client_of(office, "rev")
    for action, said in (("facility-holder", set_words), ("account-token-revoke", revoke_words)):
        page = unescape(rev.get(f"/audit?action={action}").text)
        assert re.findall(r'<td class="words"[^>]*>(.*?)</td>', page) == said, action
        assert "Not applied" not in page
        rows = list(csv.DictReader(io.StringIO(rev.get(f"/audit?format=csv&action={action}").text)))
        assert [r["words"] for r in reversed(rows)] == said
        assert [e["words"] for e in rev.get(f"/audit?format=json&action={action}").json()] == (
            said[::-1]
        )


def test_an_action_the_log_does_not_write_is_said_not_applied(office: Office) -> None:
    """``/audit?action=bogus`` read no filter: the page says so, as ``/submissions`` does,
    and shows the whole log; an export of it is refused (400), never the whole log."""
    rev = client_of(office, "rev")
    everything = re.search(r'id="total">(\d+) entries', rev.get("/audit").text)
    assert everything
    page = unescape(rev.get("/audit?action=bogus").text)
    assert f"Not applied: action 'bogus' (one of {', '.join(ACTIONS)})." in page
    assert f'id="total">{everything.group(1)} entries' in page
    for unread, said in (
        ("format=xml", "format 'xml' (one of html, csv, json)"),
        ("acton=record", "acton 'record' (the list takes submission, actor, action,"),
        ("page=0", "page '0' (a page is a number from 1 to"),
    ):
        assert f"Not applied: {said}" in unescape(rev.get(f"/audit?{unread}").text), unread
    for fmt in ("csv", "json"):
        refused = rev.get(f"/audit?format={fmt}&action=bogus&date_from=x")
        assert refused.status_code == 400, fmt
        assert [(u["parameter"], u["given"]) for u in refused.json()["not_applied"]] == [
            ("action", "bogus"),
            ("date_from", "x"),
        ]


# -- a filing's life --------------------------------------------------------------------------


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_a_casino_withdraws_its_own_pending_filing_which_is_kept(office: Office) -> None:
    sid = office.ids["example"]
    rev, cas, harbour = (client_of(office, n) for n in ("rev", "cas", "harbour"))
    assert 'id="withdraw"' in cas.get(f"/submissions/{sid}").text
    assert 'id="withdraw"' not in rev.get(f"/submissions/{sid}").text
    refused = rev.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(rev)})
    assert refused.status_code == 403
    other = harbour.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(harbour)})
    assert other.status_code == 404
    no_token = cas.post(f"/submissions/{sid}/withdraw", data={})
    assert no_token.status_code in (400, 403)
    assert office.store.get(sid).status == "submitted"
    done = cas.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(cas)})
    assert done.status_code == 200 and "withdrawn by cas" in done.text
    assert office.store.get(sid).status == "withdrawn"
    again = cas.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(cas)})
    assert "Refused: submission" in again.text and "is withdrawn" in again.text
    words = unescape(rev.get(f"/audit?submission={sid}&action=withdraw").text)
    assert f"cas withdrew #{sid} (Example Downs · High Card Flush" in words
    assert listed(rev.get("/submissions?status=withdrawn").text) == [sid]
    late = rev.post(f"/submissions/{sid}/approve", data={"csrf": token_of(rev), "on": APPROVED_ON})
    assert "only a submitted one can be approved" in late.text


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_a_newer_filing_for_the_same_date_replaces_the_pending_one(office: Office) -> None:
    first = office.ids["example"]
    fixed = EXAMPLE.read_text(encoding="utf-8") + "# the corrected filing\n"
    path = office.tmp / "hcf-fixed.yaml"
    path.write_text(fixed, encoding="utf-8")
    second = office.store.record(path, "cas", display="hcf-fixed.yaml").id
    rev = client_of(office, "rev")
    page = unescape(rev.get(f"/submissions/{second}").text)
    assert f'This filing replaces <a href="/submissions/{first}">#{first}</a> (' in page
    assert f"replaces #{first}" in unescape(rev.get("/submissions?status=submitted").text)
    assert 'id="replaces"' not in rev.get(f"/submissions/{first}").text
    rev.post(f"/submissions/{second}/approve", data={"csrf": token_of(rev), "on": APPROVED_ON})
    assert office.store.get(first).status == "replaced"
    assert office.store.get(first).superseded_by == second
    assert (
        f'Replaced</dt><dd id="replaced-by">by <a href="/submissions/{second}">'
        in rev.get(f"/submissions/{first}").text
    )
    story = unescape(rev.get(f"/audit?submission={first}").text)
    assert (
        f"#{first} (Example Downs · High Card Flush, effective 2027-01-01) was replaced by "
        f"#{second} (rev's approval)" in story
    )


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_another_holders_filing_for_the_same_date_is_not_replaced(office: Office) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        f"certificate_holder: {HOLDER}", "certificate_holder: Someone Else LLC"
    )
    path = office.tmp / "someone.yaml"
    path.write_text(text, encoding="utf-8")
    other = office.store.record(path, "clerk", display="someone.yaml").id
    assert office.store.replaces(other) == []
    office.store.approve(other, "rev", on=dt.date(2026, 12, 20))
    assert office.store.get(office.ids["example"]).status == "submitted"


# -- the documents ----------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def pdf_pages(data: bytes, tmp: Path) -> int:
    path = tmp / "out.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    assert found
    return int(found.group(1))


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
@pytest.mark.skipif(not (CHROMIUM and shutil.which("pdfinfo")), reason="needs chromium and pdfinfo")
def test_review_pack_and_par_sheet_download_as_pdf(tmp_path: Path) -> None:
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    page = rev.get(f"/submissions/{sid}/review").text
    assert "content-disposition" not in rev.get(f"/submissions/{sid}/review").headers
    assert 'id="review-pdf"' in page and 'header class="bar"' in page
    pack = rev.get(f"/submissions/{sid}/review?format=pdf")
    assert pack.headers["content-type"] == "application/pdf"
    assert pack.headers["content-disposition"] == f'attachment; filename="review-{sid}.pdf"'
    assert pack.content.startswith(b"%PDF") and pdf_pages(pack.content, tmp_path) >= 3
    par = rev.get(f"/submissions/{sid}/par?format=pdf")
    assert par.headers["content-type"] == "application/pdf"
    assert pdf_pages(par.content, tmp_path) >= 1


def test_without_chromium_the_pdf_page_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.review import pdf

    monkeypatch.setattr(pdf, "chromium", lambda: None)
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    answer = rev.get(f"/submissions/{office.ids['example']}/review?format=pdf")
    assert answer.status_code == 503
    assert "Chromium is not installed" in answer.text and 'header class="bar"' in answer.text


def test_pdfs_are_printed_a_few_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each PDF is a Chromium of its own: at most ``PRINTING``'s few print at once, and a
    request that waits ``PRINT_WAIT`` for one in vain is told to try again (503, on the
    page), not left to start one more browser. Chromium is not run here: every printer is
    taken."""
    import threading

    from validator.review import pdf
    from validator.web import office as pages

    monkeypatch.setattr(pdf, "chromium", lambda: "chromium")  # as if installed
    busy = threading.BoundedSemaphore(1)
    assert busy.acquire()
    monkeypatch.setattr(pages, "PRINTING", busy)
    monkeypatch.setattr(pages, "PRINT_WAIT", 0.01)
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    answer = rev.get(f"/submissions/{office.ids['example']}/review?format=pdf")
    assert answer.status_code == 503
    assert "printing other documents" in answer.text and 'header class="bar"' in answer.text
    busy.release()


def test_pages_speak_in_names_not_ids_or_flags(tmp_path: Path) -> None:
    """The game by its chapter's name; the signs page inside the navigation; no
    command-line flag in what a page says (the filed YAML quoted as filed aside)."""
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    for path in ("/", "/submissions", f"/submissions/{sid}", f"/submissions/{sid}/signs", "/audit"):
        page = rev.get(path).text
        assert 'header class="bar"' in page, path
        shown = re.sub(
            r"<style.*?</style>|<table class=\"source\".*?</table>", " ", page, flags=re.S
        )
        shown = unescape(re.sub(r"<[^>]+>", " ", shown))
        assert not re.search(r"(?<![\w-])--[a-z]", shown), (path, re.findall(r"--[a-z]+", shown))
        assert "high-card-flush " not in shown.replace("high-card-flush.yaml", ""), path
    assert "High Card Flush" in rev.get("/").text


def flash_of(page: str) -> str:
    found = re.search(r'<div class="flash[^"]*" id="flash"[^>]*>(.*?)</div>', page, re.S)
    assert found, page[-2000:]
    return unescape(found.group(1))


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_flash_messages_speak_in_the_forms_terms_not_flags(tmp_path: Path) -> None:
    """What the store refuses is flashed in the approval form's terms (its Waivers box, a
    line ``CODE: reason``), never the command line's (``--waive CODE=REASON``) nor the
    database's path."""
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    late = "2027-06-01"  # after its effective date: an error finding, by the office's policy
    said = []
    for data in (
        {"on": APPROVED_ON, "waive": "nonexistent/code: x"},
        {"on": late},
        {"on": late, "waive": "nonexistent/code: x\nother/code: y"},
    ):
        page = rev.post(f"/submissions/{sid}/approve", data={"csrf": token_of(rev), **data})
        said.append(flash_of(page.text))
    assert said[0] == (
        f"Not approved: a waiver names nonexistent/code, no finding of submission {sid}. "
        "Each waiver is a line `CODE: reason`, CODE one of its findings: none."
    )
    assert said[1].startswith(
        f"Refused: submission {sid} has 1 error finding; an approval needs none, or each "
        "waived on the form, a line `CODE: reason` under Waivers · line "
    )
    assert "error rulesub/effective-before-approval: the submission is effective" in said[1]
    assert "nonexistent/code, other/code, no finding" in said[2]
    assert "its findings: rulesub/effective-before-approval." in said[2]
    assert office.store.get(sid).status == "submitted"
    cas = client_of(office, "cas")
    rev.post(f"/submissions/{sid}/reject", data={"csrf": token_of(rev), "reason": "no"})
    page = cas.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(cas)})
    said.append(flash_of(page.text))
    assert said[-1] == (
        f"Refused: submission {sid} is rejected (by rev): only a submitted one can be withdrawn"
    )
    for words in said:
        assert not re.search(r"(?<![\w-])--[a-z]", words), words
        assert str(tmp_path) not in words


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_pages_name_a_file_by_its_name_never_its_directories(tmp_path: Path) -> None:
    """A filing recorded from the command line with a path keeps that path in the record
    (the export's detail), and every page names the file by its base name, as the review
    pack does: the list, the filing's page, the diff's "Old:", the audit log's words."""
    office = make_office(tmp_path)
    later = tmp_path / "later.yaml"
    later.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace(
            "effective: 2027-01-01", "effective: 2026-12-20"
        ),
        encoding="utf-8",
    )
    where = "/srv/office/intake/2026/later.yaml"
    lid = office.store.record(later, "clerk", display=where).id
    office.store.approve(lid, "rev", on=dt.date.fromisoformat(APPROVED_ON))
    sid = office.ids["example"]
    for name in ("rev", "cas"):
        client = client_of(office, name)
        pages = [
            "/submissions",
            f"/submissions/{lid}",
            f"/submissions/{sid}/diff",
            f"/submissions/{sid}/review",
        ] + (["/audit", f"/audit?format=csv&submission={lid}"] if name == "rev" else [])
        for path in pages:
            page = unescape(client.get(path).text)
            assert "/srv/office" not in page.replace(f'"file"": ""{where}""', ""), (name, path)
        assert "later.yaml" in unescape(client.get(f"/submissions/{lid}").text)
        diff = unescape(client.get(f"/submissions/{sid}/diff").text)
        assert f"approved #{lid} (later.yaml, effective 2026-12-20)" in diff, name
    for name in ("rev", "cas"):  # the API, whose readers are not at the recording machine
        token = acct.issue_token(office.store, name, by="test")
        api = TestClient(
            create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
        )
        assert api.get(f"/api/submissions/{lid}").json()["file"] == "later.yaml", name
        listed = api.get("/api/submissions").json()
        assert "later.yaml" in {e["file"] for e in listed}, name
        assert not any("/srv/office" in e["file"] for e in listed), name
    rev = client_of(office, "rev")
    exported = rev.get(f"/audit?format=json&submission={lid}").json()
    filed = next(e for e in exported if e["action"] == "record")
    assert filed["detail"]["file"] == where  # the record keeps what was filed
    assert filed["words"].endswith("as later.yaml: 0 errors, 0 warnings")


# -- one transaction a page -------------------------------------------------------------------


def test_a_page_reads_who_is_asking_and_what_it_shows_in_one_transaction(office: Office) -> None:
    """The session's (or the API token's) account and the page's rows are read on one
    connection, in one transaction, which has ended before the answer is sent (on SQLite an
    open reader holds back every writer); a page that answers without reading (a casino at
    the audit log: 404) ends it too."""
    from sqlalchemy import event

    app = create_app(office.db, secret="s")
    engine = app.state.web.store.engine
    taken: list[int] = []
    begun: list[int] = []
    event.listen(engine, "checkout", lambda *_: taken.append(1))
    event.listen(engine, "begin", lambda *_: begun.append(1))
    rev, cas = TestClient(app), TestClient(app)
    assert sign_in(rev, "rev").status_code == 303
    assert sign_in(cas, "cas").status_code == 303
    bearer = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {bearer}"})
    pages = [
        (rev, "/", 200),
        (rev, "/submissions?q=example&status=submitted&facility=Example+Downs", 200),
        (rev, "/audit?action=record", 200),
        (cas, "/submissions", 200),
        (cas, "/audit", 404),
        (api, "/api/submissions?status=submitted", 200),
    ]
    for client, path, status in pages:
        taken.clear()
        begun.clear()
        assert client.get(path).status_code == status, path
        assert (len(taken), len(begun)) == (1, 1), path
        assert engine.pool.checkedout() == 0, path  # the transaction ended
    assert "Example Downs" in rev.get("/").text  # still the page it was


def test_no_write_joins_a_shared_reading_transaction(office: Office) -> None:
    """A write inside a page's shared reading transaction is refused (on SQLite its commit
    would wait on the read lock held by that very transaction)."""
    store = office.store
    reading = store.open_reading()
    with (
        pytest.raises(RuntimeError, match="shared reading"),
        store.shared(reading, close=True),
        store.transaction(),
    ):
        pass
    with store.transaction() as conn:  # the store writes again once it has ended
        conn.execute(select(submissions.c.id)).all()


def _reviewer_heard(office: Office) -> tuple[TestClient, list[tuple[str, Any]]]:
    """A reviewer signed in to a new server over ``office``'s store, and the statements
    (with their values) that server sends from then on."""
    from sqlalchemy import event

    app = create_app(office.db, secret="s")
    said: list[tuple[str, Any]] = []
    event.listen(
        app.state.web.store.engine,
        "before_cursor_execute",
        lambda _c, _cur, sql, params, *_: said.append((sql, params)),
    )
    rev = TestClient(app)
    assert sign_in(rev, "rev").status_code == 303
    said.clear()
    return rev, said


def test_the_filtered_list_reads_a_facility_from_its_index_on_sqlite(office: Office) -> None:
    """On SQLite, a list filtered by facility and status (in the order of filing) reads the
    facility's filings from its index, not every filing of that status."""
    import sqlite3

    if not office.db.endswith(".sqlite3"):
        pytest.skip("SQLite's query plan")
    rev, said = _reviewer_heard(office)
    page = rev.get("/submissions?q=example&status=submitted&facility=Example+Downs&sort=recorded")
    assert listed(page.text) == [office.ids["example"]]
    sql, params = next((s, p) for s, p in said if "ORDER BY" in s and "LIMIT" in s)
    with sqlite3.connect(office.db) as raw:
        plan = " ".join(r[3] for r in raw.execute(f"EXPLAIN QUERY PLAN {sql}", params))
    assert "submissions_by_facility" in plan and "submissions_by_status" not in plan, plan


def test_the_filings_a_list_would_replace_are_read_from_the_facilitys_index_on_sqlite(
    office: Office,
) -> None:
    """On SQLite, the earlier pending filings of a list's pending ones (same facility, game,
    effective date and holder) are read in one statement, each table's from the facility's
    index: never by walking every pending filing, nor from the filings' rows."""
    import sqlite3

    if not office.db.endswith(".sqlite3"):
        pytest.skip("SQLite's query plan")
    first = office.ids["example"]
    path = office.tmp / "hcf-again.yaml"
    path.write_text(EXAMPLE.read_text(encoding="utf-8") + "# again\n", encoding="utf-8")
    second = office.store.record(path, "cas", display="hcf-again.yaml").id
    rev, said = _reviewer_heard(office)
    page = unescape(rev.get("/submissions?status=submitted").text)
    assert f"replaces #{first}" in page and second in listed(page)
    asked = [(s, p) for s, p in said if "json_each" in s]
    assert len(asked) == 1, [s for s, _ in said]
    sql, params = asked[0]
    with sqlite3.connect(office.db) as raw:
        plan = [r[3] for r in raw.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
    assert plan[0].startswith("SCAN k"), plan  # the keys walked first
    assert "COVERING INDEX submissions_by_facility" in plan[1], plan


def test_the_home_pages_kept_tables_are_each_accounts_own_and_follow_the_log(
    office: Office,
) -> None:
    """The facilities' tables and the pending count, kept between page loads, are kept per
    certificate holder: a reviewer's loading them first never shows a casino another
    holder's facility; a filing recorded since (an entry in the audit log) shows at once."""
    app = create_app(office.db, secret="s")
    rev, cas = TestClient(app), TestClient(app)
    assert sign_in(rev, "rev").status_code == 303
    assert sign_in(cas, "cas").status_code == 303
    assert "<h3>Harbour Point</h3>" in rev.get("/").text
    mine = cas.get("/").text
    assert "<h3>Example Downs</h3>" in mine and "Harbour Point" not in mine
    assert "(1, oldest first)" in mine
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "facility: Example Downs", "facility: Lakeside Lanes"
    )
    path = office.tmp / "lakeside.yaml"
    path.write_text(text, encoding="utf-8")
    office.store.record(path, "cas", display="lakeside.yaml")
    mine = cas.get("/").text
    assert "<h3>Lakeside Lanes</h3>" in mine and "(2, oldest first)" in mine
    assert "<h3>Lakeside Lanes</h3>" in rev.get("/").text


def test_the_store_refusals_are_worded_by_their_kind_not_their_text() -> None:
    """The web reads a refusal's kind and fields (``Unwaived``, ``UnknownWaiver``,
    ``NoSubmission``), not the command line's wording of it: the same words whatever the
    store's message says, and none of the command line's flags."""
    from validator.store import NoSubmission, UnknownWaiver, Unwaived
    from validator.web.app import refusal_words

    unwaived = Unwaived(7, [{"line": 3, "severity": "error", "code": "g/x", "message": "m"}])
    assert "--waive" in str(unwaived)  # the command line's words, kept for it
    assert refusal_words(unwaived) == (
        "Refused: submission 7 has 1 error finding; an approval needs none, or each waived "
        "on the form, a line `CODE: reason` under Waivers · line 3: error g/x: m"
    )
    unknown = UnknownWaiver(7, ["a/b", "c/d"], ["g/x"])
    assert str(unknown).startswith("--waive a/b, c/d: submission 7 has no such finding")
    assert refusal_words(unknown) == (
        "Not approved: a waiver names a/b, c/d, no finding of submission 7. Each waiver is a "
        "line `CODE: reason`, CODE one of its findings: g/x."
    )
    gone = NoSubmission(7)
    assert str(gone) == "no submission 7 in the database"
    assert refusal_words(gone) == "Not done: submission 7 is no longer in the record."


def test_the_par_page_offers_no_download_where_there_is_no_par_sheet(tmp_path: Path) -> None:
    """A filing whose par sheet cannot be made (a paytable the chapter has not) showed "No
    par sheet: …" and beside it "Download the par sheet (PDF)", a link that answered 422.
    The download is offered only where there is a sheet to print."""
    from validator import PROJECT_ROOT

    office = make_office(tmp_path)
    flawed = PROJECT_ROOT / "rulesubs" / "flawed" / "fcp-paytables.yaml"  # Aces Up 'G'
    sid = office.store.record(flawed, "cas", display="fcp-paytables.yaml").id
    rev = client_of(office, "rev")
    page = rev.get(f"/submissions/{sid}/par").text
    assert "No par sheet" in page and 'id="par-pdf"' not in page
    page = rev.get(f"/submissions/{office.ids['example']}/par").text
    assert 'id="par-pdf"' in page and "No par sheet" not in page


def test_the_filed_date_in_the_list_is_never_split(tmp_path: Path) -> None:
    """The list's Filed cell ("2026-11-29 01:26 by C. Holder") broke at the date's dash,
    "2026-11-" over "29": its date and time are kept whole, as the Effective column's are."""
    office = make_office(tmp_path)
    page = client_of(office, "rev").get("/submissions").text
    assert re.search(
        r'data-label="Filed"><span class="date">\d{4}-\d\d-\d\d \d\d:\d\d</span> by', page
    )
    assert "span.date { white-space: nowrap; }" in page or "span.date {" in page


def test_a_document_format_that_does_not_exist_is_refused_not_ignored(tmp_path: Path) -> None:
    """`/submissions/1/review?format=json` (or `bogus`) answered the HTML pack, 200, as if
    it had been asked for: a format no document is made in is refused (400), in words."""
    office = make_office(tmp_path)
    rev = client_of(office, "rev")
    sid = office.ids["example"]
    for path, said in (
        (f"/submissions/{sid}/review?format=json", "no review pack as 'json'"),
        (f"/submissions/{sid}/par?format=bogus", "no par sheet as 'bogus'"),
        (f"/submissions/{sid}/math?format=pdf", "no paytable math as 'pdf'"),
    ):
        answer = rev.get(path)
        assert answer.status_code == 400, path
        assert said in unescape(answer.text), (path, answer.text[:300])
    assert rev.get(f"/submissions/{sid}/review?format=markdown").status_code == 200
    assert rev.get(f"/submissions/{sid}/par").status_code == 200


def test_a_par_sheet_of_a_filing_with_errors_is_marked_draft_on_the_page_and_printed(
    tmp_path: Path,
) -> None:
    """`rulesub par` refuses a filing with errors, or marks the sheet DRAFT on every page
    with each error listed (`--allow-findings`). The web view's par page and its PDF showed
    the sheet of a pending filing with an error (a payout limit under § 678a.12(e)'s floor)
    clean, the PDF the document most likely to leave the office. Each is marked DRAFT, the
    error listed on the printed one; a clean filing's is not."""
    from validator import PROJECT_ROOT
    from validator.web.office import par_pdf_html
    from validator.web.packs import Packs

    office = make_office(tmp_path)
    flawed = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-payout-limit.yaml"
    sid = office.store.record(flawed, "cas", display="hcf.yaml").id
    rev = client_of(office, "rev")
    page = unescape(rev.get(f"/submissions/{sid}/par").text)
    assert "DRAFT" in page and "1 error" in page
    clean = unescape(rev.get(f"/submissions/{office.ids['example']}/par").text)
    assert "DRAFT" not in clean
    printed = par_pdf_html(Packs(office.store).pack(office.store.get(sid)))
    assert printed is not None and "<strong>DRAFT</strong>" in printed
    assert "payout limit" in printed.lower()
