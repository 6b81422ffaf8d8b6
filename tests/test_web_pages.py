"""The web view's pages and API: uploads validated and recorded (findings at their lines,
hostile input as findings, never a traceback), the API's JSON contracts, the users
command, and a database of issue 14's schema migrated before use."""

from __future__ import annotations

import datetime as dt
import json
import re
import warnings
from html import unescape
from pathlib import Path

import pytest
from store_db import amended, store_clock  # noqa: F401 (the store's clock, for the tests that name it)
from typer.testing import CliRunner
from webtools import (
    EXAMPLE,
    FLAWED,
    HOLDER,
    Office,
    make_office,
    sign_in,
    signed_in,
    token_of,
)

from tests.conftest import unheld
from validator.diff.names import in_words

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from validator.cli import app as cli  # noqa: E402
from validator.signage.checked import check_submission  # noqa: E402
from validator.store import Store, StoreError  # noqa: E402
from validator.store import accounts as acct  # noqa: E402
from validator.web import create_app  # noqa: E402

#: An approval date before the examples' effective dates (whenever the tests run).
APPROVED_ON = "2026-12-20"
FINDING_ROW = re.compile(r'<tr class="finding" data-line="(\d+)" data-code="([^"]+)">')


@pytest.fixture
def office(tmp_path: Path) -> Office:
    return make_office(tmp_path)


def upload(client: TestClient, name: str, content: bytes):  # type: ignore[no-untyped-def]
    return client.post(
        "/upload",
        data={"csrf": token_of(client)},
        files={"file": (name, content, "application/yaml")},
        follow_redirects=False,
    )


@pytest.mark.parametrize(
    "flawed", ["fcp-equipment.yaml", "fcp-format.yaml", "hcf-progressive.yaml"]
)
def test_findings_show_inline_at_the_validators_lines(office: Office, flawed: str) -> None:
    """Each finding sits under the line ``rulesub validate`` gives it, with its severity,
    code, section and hint."""
    client = signed_in(office, "cas")
    path = FLAWED / flawed
    answer = upload(client, flawed, path.read_bytes())
    assert answer.status_code == 303
    page = client.get(answer.headers["location"]).text
    checked = check_submission(path)
    expected = checked.findings
    assert expected
    shown = sorted((int(line), code) for line, code in FINDING_ROW.findall(page))
    assert shown == sorted((f.line, f.code) for f in expected)
    text = unescape(unheld(page))
    for f in expected:  # each field named in words, never by its path into the file
        assert in_words(checked.game(), f.message) in text
        assert not re.search(r"(?<![\w/.])/[a-z_]+(/|: | is )", in_words(checked.game(), f.message))
        if f.cite:
            assert f"[{f.cite}]" in text
        if f.hint:
            assert f"hint: {f.hint}" in text
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, _ in shown:  # the finding row follows its own source line
        row = re.search(
            rf'<tr id="L{number}"[^>]*><td class="ln">{number}</td>'
            rf'<td class="code">(.*?)</td>',
            page,
        )
        assert row and unescape(row.group(1)) == lines[number - 1]


HOSTILE = {
    "alias-bomb": (FLAWED / "unreadable-alias-bomb.yaml").read_bytes(),
    "tag": (FLAWED / "unreadable-tag.yaml").read_bytes(),
    "not-utf8": (FLAWED / "unreadable-not-utf8.yaml").read_bytes(),
    "duplicate-key": (FLAWED / "unreadable-duplicate-key.yaml").read_bytes(),
    "deep-nesting": b"rulesub: 1\nx: " + b"[" * 500 + b"]" * 500 + b"\n",
    "megabyte": b"rulesub: 1\n# " + b"x" * 1_200_000 + b"\n",
    "not-a-mapping": b"- just\n- a list\n",
    "empty-ish": b"\n\n",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_uploads_get_findings_never_a_traceback(office: Office, kind: str) -> None:
    client = signed_in(office, "cas")
    before = len(office.store.history())
    answer = upload(client, f"{kind}.yaml", HOSTILE[kind])
    assert answer.status_code == 422, answer.text[:500]
    assert "Traceback" not in answer.text
    assert "nothing was recorded" in answer.text.lower()
    assert len(office.store.history()) == before
    if kind not in ("empty-ish",):
        assert 'id="upload-findings"' in answer.text or "cannot be read" in answer.text


def test_megabytes_are_a_finding_and_past_the_body_limit_refused_cleanly(
    office: Office,
) -> None:
    client = signed_in(office, "cas")
    answer = upload(client, "big.yaml", b"a: " + b"x" * 3_000_000)
    assert answer.status_code == 422
    assert "over 1,000,000 bytes; at most 1,000,000 are read" in answer.text
    huge = upload(client, "huge.yaml", b"a: " + b"x" * 5_000_000)
    assert huge.status_code == 413
    assert "Traceback" not in huge.text
    said = " ".join(unescape(huge.text).split())  # the office's page, in words
    assert "over the 4 MB the office reads" in said and "at most 1 MB" in said
    assert "Back to the facilities" in said and "Content Too Large" not in said
    assert "frame-ancestors 'none'" in huge.headers["content-security-policy"]
    assert huge.headers["x-frame-options"] == "DENY"
    api = signed_in(office, "rev").post("/login", content=b"x" * 5_000_000)
    assert api.status_code == 413 and api.headers["x-frame-options"] == "DENY"
    token = acct.issue_token(office.store, "cas", by="test")
    filed = TestClient(signed_in(office, "cas").app).post(
        "/api/submissions",
        content=b"a: " + b"x" * 5_000_000,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert filed.status_code == 413 and "over the 4 MB" in filed.json()["error"]
    assert len(office.store.history()) == 2


def test_pasted_yaml_is_recorded_and_casino_files_only_for_its_holder(office: Office) -> None:
    client = signed_in(office, "cas")
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "effective: 2027-01-01", "effective: 2027-02-01"
    )
    answer = client.post(
        "/upload",
        data={"csrf": token_of(client), "text": text, "name": "../../etc/passwd"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    sid = int(answer.headers["location"].rsplit("/", 1)[1])
    row = office.store.get(sid)
    assert row.filename == "passwd.yaml" and row.recorded_by == "cas"
    other = text.replace(f"certificate_holder: {HOLDER}", "certificate_holder: Someone Else")
    refused = client.post("/upload", data={"csrf": token_of(client), "text": other})
    assert refused.status_code == 403
    assert "Someone Else" in unescape(refused.text)
    assert all(
        r.certificate_holder == HOLDER
        for r in office.store.history(game=row.game)
        if r.recorded_by == "cas"
    )


def test_a_file_and_pasted_text_together_record_neither(office: Office) -> None:
    """Given both, the form cannot tell which filing the holder meant: it records nothing
    and says so, rather than one in the other's place."""
    client = signed_in(office, "cas")
    before = len(office.store.history())
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "effective: 2027-01-01", "effective: 2027-03-01"
    )
    answer = client.post(
        "/upload",
        data={"csrf": token_of(client), "text": text},
        files={"file": ("hcf.yaml", EXAMPLE.read_bytes(), "application/yaml")},
        follow_redirects=False,
    )
    assert answer.status_code == 422
    said = unescape(answer.text)
    assert "Both a file (hcf.yaml) and pasted text were given: choose one" in said
    assert "Nothing was recorded." in said
    assert len(office.store.history()) == before
    # the pasted text is given back to mend, escaped, never lost
    assert (
        f'<textarea id="text" name="text" rows="16" aria-invalid="true" '
        f'aria-describedby="upload-error" autofocus>{text}</textarea>'
    ) in said
    hostile = client.post(
        "/upload",
        data={"csrf": token_of(client), "text": "</textarea><script>x()</script>"},
        follow_redirects=False,
    )
    assert hostile.status_code == 422
    assert "<script>x()" not in hostile.text and "&lt;script&gt;x()" in hostile.text


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_facilities_page_shows_approved_and_pending(office: Office) -> None:
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    page = client.get("/").text
    assert "Example Downs" in page and "Harbour Point" in page
    assert f'href="/submissions/{sid}">#{sid}</a></td>' in page.split('id="pending"')[1]
    client.post(f"/submissions/{sid}/approve", data={"csrf": token_of(client), "on": APPROVED_ON})
    page = client.get("/").text  # the store's clock: 2026-11-02, before it takes effect
    assert (
        f'none; next <a href="/submissions/{sid}">#{sid}</a> from '
        '<span class="date">2027-01-01</span></td>'
    ) in page
    from validator.store import lifecycle

    with pytest.MonkeyPatch.context() as patch:  # in force from its effective date
        patch.setattr(lifecycle, "utcnow", lambda: dt.datetime(2027, 1, 1, 9, tzinfo=dt.UTC))
        page = client.get("/").text
    assert (
        f'href="/submissions/{sid}">#{sid}</a> effective <span class="date">2027-01-01</span></td>'
    ) in page


@pytest.mark.usefixtures("store_clock")  # recorded on a fixed date
def test_a_facility_written_two_ways_is_one_facility_on_the_home_page(
    office: Office, tmp_path: Path
) -> None:
    """The store finds, refuses and supersedes a facility under every spelling of its name
    (``names.key``): the home page lists it once too, its filings counted together, under
    the spelling first filed."""
    variant = amended(
        EXAMPLE,
        tmp_path / "lower.yaml",
        ("facility: Example Downs", "facility: example downs"),
        ("effective: 2027-01-01", "effective: 2027-02-01"),
    )
    office.store.record(variant, "clerk")
    page = signed_in(office, "rev").get("/").text
    facilities = page.split("Facilities and their games")[1]
    assert "<h3>example downs</h3>" not in facilities
    assert facilities.count("<h3>Example Downs</h3>") == 1
    rows = [r.game for r in office.store.history("Example Downs") if r.game == "high-card-flush"]
    block = facilities.split("<h3>Example Downs</h3>")[1].split("<h3>")[0]
    assert f'data-label="Filings">{len(rows)}</td>' in block


@pytest.mark.usefixtures("store_clock")  # recorded and decided on fixed dates
def test_the_home_page_shows_the_approval_in_force_today_and_the_next(
    office: Office, tmp_path: Path
) -> None:
    """Approved for 2027-03-01, 2027-06-01 and then 2027-04-01 (which cuts the first one's
    time short): before any takes effect the page says none is in force and names the
    first to come, the one for 2027-03-01, superseded from 2027-04-01 though it is; on
    2027-04-15 the one for 2027-04-01 is in force and the one for 2027-06-01 comes next."""
    from validator.store import lifecycle

    ids = {}
    for effective, letter in (("2027-03-01", "A"), ("2027-06-01", "B"), ("2027-04-01", "C")):
        path = amended(
            EXAMPLE,
            tmp_path / f"{effective}.yaml",
            ("effective: 2027-01-01", f"effective: {effective}"),
            ("flush_bonus: E", f"flush_bonus: {letter}"),
        )
        ids[effective] = office.store.record(path, "clerk").id
        office.store.approve(ids[effective], "rev", on=dt.date.fromisoformat(APPROVED_ON))
    client = signed_in(office, "rev")

    def shown() -> str:
        page = client.get("/").text.split("Facilities and their games")[1]
        return page.split('data-label="Approved">')[1].split("</td>")[0]

    march, april, june = ids["2027-03-01"], ids["2027-04-01"], ids["2027-06-01"]
    assert shown() == (
        f'none; next <a href="/submissions/{march}">#{march}</a> from '
        '<span class="date">2027-03-01</span>'
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lifecycle, "utcnow", lambda: dt.datetime(2027, 4, 15, tzinfo=dt.UTC))
        assert shown() == (
            f'<a href="/submissions/{april}">#{april}</a> effective '
            '<span class="date">2027-04-01</span>; '
            f'next <a href="/submissions/{june}">#{june}</a> from '
            '<span class="date">2027-06-01</span>'
        )


def test_api_post_answers_the_record_json(office: Office) -> None:
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(
        create_app(office.db, secret="s"), headers={"Authorization": f"Bearer {token}"}
    )
    body = (FLAWED / "hcf-progressive.yaml").read_bytes()
    answer = api.post(
        "/api/submissions?name=hcf.yaml", content=body, headers={"Content-Type": "application/yaml"}
    )
    assert answer.status_code == 201, answer.text
    out = answer.json()
    expected = check_submission(FLAWED / "hcf-progressive.yaml").findings
    assert out["status"] == "submitted"
    assert out["findings"]["errors"] == sum(f.severity == "error" for f in expected)
    assert office.store.get(out["id"]).sha256 == out["sha256"]
    again = api.post("/api/submissions", files={"file": ("x.yaml", body)})
    assert again.status_code == 200 and again.json()["id"] == out["id"]
    assert again.json()["already_recorded"] is True
    bad = api.post("/api/submissions", content=HOSTILE["tag"])
    assert bad.status_code == 422 and bad.json()["findings"][0]["code"] == "rulesub/unreadable"
    listed = api.get("/api/submissions").json()
    assert out["id"] in [e["id"] for e in listed]
    viewer = acct.issue_token(office.store, "view", by="test")
    refused = api.post(
        "/api/submissions", content=body, headers={"Authorization": f"Bearer {viewer}"}
    )
    assert refused.status_code == 403


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_diff_page_shows_the_hold_delta_against_the_approved(office: Office) -> None:
    rev = signed_in(office, "rev")
    sid = office.ids["example"]
    rev.post(f"/submissions/{sid}/approve", data={"csrf": token_of(rev), "on": APPROVED_ON})
    client = signed_in(office, "cas")
    text = (
        EXAMPLE.read_text(encoding="utf-8")
        .replace("paytables: {flush_bonus: E,", "paytables: {flush_bonus: A,")
        .replace("effective: 2027-01-01", "effective: 2027-03-01")
    )
    assert "flush_bonus: A" in text
    answer = client.post(
        "/upload", data={"csrf": token_of(client), "text": text}, follow_redirects=False
    )
    new = int(answer.headers["location"].rsplit("/", 1)[1])
    page = unescape(client.get(f"/submissions/{new}/diff").text)
    assert f"approved #{sid}" in page
    assert "Paytable E" in page and "Paytable A" in page
    assert "Hold:" in page and "percentage point" in page


def test_users_command_adds_changes_and_removes_accounts(tmp_path: Path) -> None:
    db = str(tmp_path / "u.sqlite3")
    run = CliRunner().invoke
    added = run(
        cli,
        ["users", "add", "ann", "--role", "casino", "--holder", HOLDER, "--db", db],
        input="ann-password\n",
    )
    assert added.exit_code == 0, added.output
    store = Store(db)
    assert acct.authenticate(store, "ann", "ann-password") is not None
    assert (
        run(
            cli, ["users", "add", "ann", "--role", "viewer", "--password", "x" * 9, "--db", db]
        ).exit_code
        == 2
    )  # taken
    assert (
        run(
            cli,
            [
                "users",
                "add",
                "bob",
                "--role",
                "viewer",
                "--holder",
                HOLDER,
                "--password",
                "x" * 9,
                "--db",
                db,
            ],
        ).exit_code
        == 2
    )
    assert (
        run(cli, ["users", "passwd", "ann", "--password", "new-password", "--db", db]).exit_code
        == 0
    )
    assert acct.authenticate(store, "ann", "ann-password") is None
    assert acct.authenticate(store, "ann", "new-password") is not None
    row = store.transaction  # the hash, never the password, is kept
    with row() as conn:
        kept = conn.execute(acct.accounts.select()).first()
    assert kept.password_hash.startswith("$argon2id$") and "new-password" not in kept.password_hash
    issued = run(cli, ["users", "token", "ann", "--label", "casino tools", "--db", db])
    assert issued.exit_code == 0
    token = issued.stdout.strip()
    assert token.startswith("rst_") and acct.by_token(store, token).name == "ann"  # type: ignore[union-attr]
    assert run(cli, ["users", "remove", "ann", "--db", db]).exit_code == 0
    assert acct.by_token(store, token) is None  # its tokens go with it
    assert acct.authenticate(store, "ann", "new-password") is None
    assert run(cli, ["users", "remove", "ann", "--db", db]).exit_code == 2
    actions = [e.action for e in store.events()]
    assert actions == ["account-add", "account-password", "account-token", "account-remove"]
    assert "new-password" not in json.dumps([e.detail for e in store.events()])


def test_a_database_of_the_previous_schema_is_migrated_not_reinterpreted(tmp_path: Path) -> None:
    from alembic import command

    from validator.store import migrate

    db = str(tmp_path / "old.sqlite3")
    store = Store(db)
    with store.engine.connect() as conn, conn.begin():
        command.upgrade(migrate.config(conn), "0001")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="db upgrade"):
        create_app(db)
    assert CliRunner().invoke(cli, ["db", "upgrade", "--db", db]).exit_code == 0
    assert create_app(db) is not None
    acct.add(Store(db), "rev", "reviewer", "reviewer-secret", by="test")


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_an_approval_with_errors_needs_each_waived_with_a_reason(office: Office) -> None:
    """The store's rule: no approval over error findings, unless
    each is waived by name with a reason; the waivers are kept and shown."""
    client = signed_in(office, "rev")
    path = FLAWED / "hcf-progressive.yaml"
    filed = upload(signed_in(office, "cas"), path.name, path.read_bytes())
    sid = int(filed.headers["location"].rsplit("/", 1)[1])
    codes = sorted({f.code for f in check_submission(path).findings})
    refused = client.post(
        f"/submissions/{sid}/approve", data={"csrf": token_of(client), "on": APPROVED_ON}
    )
    assert "Refused" in unescape(refused.text) and "3 error findings" in refused.text
    # the refusal names each field as the page's findings do, never by its path in the file
    said = unescape(refused.text)
    assert "/equipment/progressive_system" not in said and "/progressives/" not in said
    assert "Equipment progressive table game system is not stated" in said
    assert office.store.get(sid).status == "submitted"
    bad = client.post(
        f"/submissions/{sid}/approve",
        data={"csrf": token_of(client), "on": APPROVED_ON, "waive": codes[0]},
    )
    assert "waiver line 1 is not" in unescape(bad.text)
    twice = f"{codes[0]}: first reason\n{codes[0]}: second reason"  # never one dropped
    bad = client.post(
        f"/submissions/{sid}/approve",
        data={"csrf": token_of(client), "on": APPROVED_ON, "waive": twice},
    )
    assert f"waiver lines 1 and 2 both waive {codes[0]}" in unescape(bad.text)
    assert office.store.get(sid).status == "submitted"
    waive = "\n".join(f"{c}: the meter is replaced before opening" for c in codes)
    done = client.post(
        f"/submissions/{sid}/approve",
        data={"csrf": token_of(client), "on": APPROVED_ON, "waive": waive},
    )
    assert f"Submission {sid} approved by rev" in unescape(done.text)
    assert sorted(w.code for w in office.store.waivers_of(sid)) == codes
    assert "the meter is replaced before opening" in done.text


def test_serve_refuses_a_database_it_cannot_use(tmp_path: Path) -> None:
    """Unreadable input to ``rulesub serve``: a clear message and exit 2, no traceback."""
    run = CliRunner().invoke
    not_a_db = tmp_path / "notes.sqlite3"
    not_a_db.write_text("these are not tables\n" * 100)
    for args in (["--db", str(tmp_path)], ["--db", str(not_a_db)], ["--port", "70000"]):
        out = run(cli, ["serve", *args])
        assert out.exit_code == 2, (args, out.output)
        assert out.stderr.startswith("rulesub: ") and "Traceback" not in out.output


def test_serve_opens_the_offices_store_and_makes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mistyped --db served a new, empty database on which every sign-in was refused as a
    wrong password: `serve` makes no database (exit 2, nothing written, saying how one is
    made), and says on starting that a store of no accounts lets no one in."""
    import uvicorn

    monkeypatch.setenv("RULESUB_SECRET_KEY", "test-server-key-of-at-least-32-characters")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    typo = tmp_path / "ofice" / "office.sqlite"
    out = CliRunner().invoke(cli, ["serve", "--db", str(typo)])
    assert out.exit_code == 2, out.output
    assert f"--db {typo}: no database there" in out.stderr
    assert f"rulesub db upgrade --db {typo}" in out.stderr and "rulesub users add" in out.stderr
    assert not typo.parent.exists()
    zero = tmp_path / "zero.sqlite3"  # a file of no bytes: opened, it would be given tables
    zero.write_bytes(b"")
    for given in (str(zero), "sqlite:///:memory:"):
        out = CliRunner().invoke(cli, ["serve", "--db", given])
        assert out.exit_code == 2 and "no store of rulesub's there" in out.stderr, out.output
    assert zero.read_bytes() == b""
    empty = tmp_path / "empty.sqlite3"
    assert CliRunner().invoke(cli, ["db", "upgrade", "--db", str(empty)]).exit_code == 0
    out = CliRunner().invoke(cli, ["serve", "--db", str(empty)])
    assert out.exit_code == 0, out.output
    assert "has no accounts: no one can sign in" in out.stderr


def test_serve_gives_an_empty_postgresql_database_no_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty PostgreSQL database named by mistake was given rulesub's tables and served:
    refused, and left as it was."""
    import uvicorn
    from sqlalchemy import create_engine, inspect
    from store_db import database

    monkeypatch.setenv("RULESUB_SECRET_KEY", "test-server-key-of-at-least-32-characters")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    for url in database("postgresql", tmp_path):
        out = CliRunner().invoke(cli, ["serve", "--db", url])
        assert out.exit_code == 2 and "no store of rulesub's there" in out.stderr, out.output
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            assert inspect(engine).get_table_names() == []
        finally:
            engine.dispose()


def test_serve_on_a_port_in_use_is_refused_with_exit_2(tmp_path: Path) -> None:
    """A port another program holds: uvicorn's own exit (3) and its errno were all a user
    saw; rulesub says which address, and exits 2, as for every command used wrongly."""
    import os
    import socket
    import subprocess

    from webtools import RULESUB

    db = tmp_path / "office.sqlite3"
    assert CliRunner().invoke(cli, ["db", "upgrade", "--db", str(db)]).exit_code == 0
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        env = {**os.environ, "RULESUB_SECRET_KEY": "test-server-key-of-at-least-32-characters"}
        out = subprocess.run(
            [*RULESUB, "serve", "--db", str(db), "--port", str(port)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    assert out.returncode == 2, out.stderr
    assert f"--host 127.0.0.1 --port {port}: the server could not start" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_the_review_pack_states_the_filings_status_now(office: Office) -> None:
    """The pack is cached, but never past a decision: it states the status as it is."""
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    before = client.get(f"/submissions/{sid}/review?format=html")
    assert before.headers["content-disposition"] == f'attachment; filename="review-{sid}.html"'
    assert f"#{sid}, submitted" in before.text
    assert f"#{sid}, submitted" in client.get(f"/submissions/{sid}/review").text  # in the page
    client.post(f"/submissions/{sid}/approve", data={"csrf": token_of(client), "on": APPROVED_ON})
    assert f"#{sid}, approved" in client.get(f"/submissions/{sid}/review").text
    markdown = client.get(f"/submissions/{sid}/review?format=markdown")
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.text.startswith("# Rules Submission under review")


@pytest.mark.usefixtures("store_clock")  # decided on a fixed date
def test_the_review_pack_carries_the_audit_chain_head_as_it_stands(office: Office) -> None:
    """Every review pack from the store states the audit log's chain head (on its cover, at
    every printed page's foot): the web's too, read when the pack is handed out, so that a
    pack kept for its filing never states a head the log has moved past."""
    from html import unescape as plain

    client = signed_in(office, "rev")
    sid = office.ids["example"]
    head = office.store.audit_head()
    page = plain(client.get(f"/submissions/{sid}/review?format=html").text)
    assert f"Audit chain head {head}" in page
    markdown = client.get(f"/submissions/{sid}/review?format=markdown").text
    assert head.hash in markdown
    client.post(f"/submissions/{sid}/approve", data={"csrf": token_of(client), "on": APPROVED_ON})
    moved = office.store.audit_head()
    assert moved.hash != head.hash
    page = plain(client.get(f"/submissions/{sid}/review?format=html").text)
    assert f"Audit chain head {moved}" in page and head.hash not in page


def test_par_page_shows_the_exact_par_sheet_of_the_submission(office: Office) -> None:
    """The par sheet tab: `rulesub par`'s figures, exact only (no simulation in a page
    request), the derived optimal strategy of High Card Flush with its method and source."""
    from validator.review import build_pack

    client = signed_in(office, "rev")
    sid = office.ids["example"]
    page = unescape(client.get(f"/submissions/{sid}/par").text)
    assert 'id="section-par"' in page and "Par sheet" in page
    sheet = build_pack(EXAMPLE, "high-card-flush.yaml").par
    assert sheet is not None
    optimal = sheet["base_game"]["strategies"]["optimal"]
    assert f"{optimal['house_edge_percent']:.4f}%" in page
    assert "exact: every player hand against every dealer hand" in page
    assert "simulated:" not in page
    for w in sheet["wagers"].values():
        assert f"{w['house_edge_percent']:.4f}%" in page
    other = signed_in(office, "cas")  # the holder's officer sees it too; another holder not
    assert other.get(f"/submissions/{office.ids['harbour']}/par").status_code == 404


def test_an_error_page_is_headed_in_words_with_its_status_beside(office: Office) -> None:
    """An officer reads what happened ("Not found"), not a bare number; the status stays
    beside it for whoever reports the page."""
    client = signed_in(office, "rev")
    page = client.get("/submissions/999999")
    assert page.status_code == 404
    assert "<h1>Not found (404)</h1>" in page.text
    assert "<title>Not found (404)" in page.text
    refused = client.get(f"/submissions/{office.ids['harbour']}/review?format=docx")
    assert refused.status_code == 400
    assert "<h1>The request could not be read (400)</h1>" in refused.text


def test_a_filings_details_name_its_facility(office: Office) -> None:
    """The facility is what an approval is held to (one in force per facility and game):
    the filing's details state it beside its certificate holder, not only its heading."""
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    row = office.store.get(sid)
    page = unescape(client.get(f"/submissions/{sid}").text)
    details = page.split('<dl class="meta">', 1)[1].split("</dl>", 1)[0]
    assert f'<dt>Facility</dt><dd id="facility">{row.facility}</dd>' in details
    assert f"<dt>Certificate holder</dt><dd>{row.certificate_holder}</dd>" in details


def test_the_signs_tab_offers_the_proofs_and_the_finished_signs_apart(office: Office) -> None:
    """The tab shows the proofs (each line with its section, the paytable letters) and says
    they are not for posting; the finished signs, as posted, carry no section, paytable
    letter or chapter, and are the page to print. Either way the page has one h1: the
    signs' titles sit one level under it."""
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    proofs = client.get(f"/submissions/{sid}/signs")
    assert proofs.status_code == 200
    page = unescape(proofs.text)
    assert "not for posting" in page and f'href="/submissions/{sid}/signs?as=posted"' in page
    body = page.split('id="document-signs"', 1)[1]
    assert "§ " in body and "Paytable" in body
    posted = client.get(f"/submissions/{sid}/signs?as=posted")
    assert posted.status_code == 200
    page = unescape(posted.text)
    assert "print this page" in page and f'href="/submissions/{sid}/signs"' in page
    body = page.split('id="document-signs"', 1)[1].split("</main>", 1)[0]
    assert "§" not in body and "Paytable" not in body and "Pa. Code" not in body
    for shown in (proofs.text, posted.text):
        assert shown.count("<h1") == 1, shown.count("<h1")
    assert client.get(f"/submissions/{sid}/signs?as=draft").status_code == 400


def test_a_refused_entry_is_tied_to_its_field_and_announced(office: Office) -> None:
    """A message that refuses what was typed names its field (``aria-describedby``,
    ``aria-invalid``) and is announced (``role="alert"``): the sign-in, the upload, a
    rejection without a reason."""
    anonymous = TestClient(create_app(office.db, secret="k" * 32), base_url="http://127.0.0.1")
    wrong = sign_in(anonymous, "rev", "no such password").text
    assert 'role="alert"' in wrong
    for field in ("name", "password"):
        tag = re.search(rf'<input [^>]*id="{field}"[^>]*>', wrong)
        assert (
            tag and 'aria-invalid="true"' in tag[0] and 'aria-describedby="login-error"' in tag[0]
        )
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    page = client.post(
        f"/submissions/{sid}/reject", data={"csrf": token_of(client), "reason": "   "}
    ).text
    assert re.search(r'<div class="flash refused" id="flash" role="alert">Not rejected', page)
    reason = re.search(r'<input [^>]*id="reason"[^>]*>', page)
    assert reason and 'aria-describedby="flash"' in reason[0]
    assert 'aria-invalid="true"' in reason[0]
    calm = client.get(f"/submissions/{sid}").text
    reason = re.search(r'<input [^>]*id="reason"[^>]*>', calm)
    assert reason and "aria-invalid" not in reason[0]  # said once, with its message


def test_the_filing_shown_is_marked_in_its_history_in_words(office: Office) -> None:
    """The history table marks the filing on screen by more than its colour: "(this
    filing)" and ``aria-current``; the others are links named as submissions."""
    client = signed_in(office, "rev")
    sid = office.ids["example"]
    page = client.get(f"/submissions/{sid}").text
    history = page.split('id="history"', 1)[1].split("</table>", 1)[0]
    assert '<tr class="changed" aria-current="true">' in history
    assert f'{sid} <span class="muted">(this filing)</span>' in history


def test_a_findings_citation_is_kept_whole_on_the_page(office: Office) -> None:
    """A finding's section on the submission page is set whole where its line wraps
    ("§ 678a.12(e)" never broken after "§" or before its "(e)")."""
    client = signed_in(office, "cas")
    page = upload(client, "hcf.yaml", (FLAWED / "hcf-progressive.yaml").read_bytes())
    shown = client.get(page.headers["location"]).text
    assert '<span class="cite">[<span class="nb">§&nbsp;' in shown
    assert "[§ " not in shown


def test_a_documents_headings_go_down_a_level_and_nothing_else_changes() -> None:
    """The document embedded in a page has its headings one level down (the page's title
    is its one h1), and its stylesheet's heading rules with them; a file named
    "lunar h1.yaml", a reason "per h2 of our memo", a link to /h1/ are left as written."""
    from validator.web.office import demoted, demoted_style

    html = '<h1 class="t">lunar h1.yaml</h1><p>per h2 of our memo</p><a href="/h1/">x</a><h3>'
    assert demoted(html) == (
        '<h2 class="t">lunar h1.yaml</h2><p>per h2 of our memo</p><a href="/h1/">x</a><h4>'
    )
    css = 'h1 { font-size: 30pt; } .sign h2, h3 { content: "h1"; } header { x: y; }'
    assert demoted_style(css) == (
        'h2 { font-size: 30pt; } .sign h3, h4 { content: "h1"; } header { x: y; }'
    )


def test_a_download_link_says_what_it_downloads(office: Office) -> None:
    """WCAG 2.4.4: a link's text says where it goes. The review page's downloads read
    "HTML" and "Markdown", the audit page's "CSV" and "JSON": a list of the page's links
    (what a screen reader offers) said nothing of what they were. Each names its document."""
    import re

    client = signed_in(office, "rev")
    sid = office.ids["example"]
    for path in (f"/submissions/{sid}/review", "/audit"):
        page = client.get(path).text
        texts = [
            re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<a\b[^>]*>(.*?)</a>", page)
        ]
        bare = {"HTML", "Markdown", "CSV", "JSON", "PDF"}
        assert not bare & set(texts), (path, texts)
    review = client.get(f"/submissions/{sid}/review").text
    assert ">The review pack as Markdown</a>" in review
    assert ">Export these entries as CSV</a>" in client.get("/audit").text


def test_an_upload_of_another_holder_is_refused_in_words(office: Office) -> None:
    """A casino account files for its own certificate holder only. The refusal said
    "names no certificate holder" of a holder written as a number, which the file does
    name, and quoted names as Python does, by turns 'Say "Hi" Casino' and "O'Brien's
    Casino". A holder that cannot be read is said so, with the validator's words; a name is
    quoted one way."""
    client = signed_in(office, "cas")
    text = EXAMPLE.read_text(encoding="utf-8")
    assert f"certificate_holder: {HOLDER}" in text
    for written, said in (
        ("12345", "names a certificate holder that cannot be read ("),
        ("\"O'Brien's Casino\"", "names certificate holder “O'Brien's Casino”;"),
        ("'Say \"Hi\" Casino'", 'names certificate holder “Say "Hi" Casino”;'),
    ):
        body = text.replace(f"certificate_holder: {HOLDER}", f"certificate_holder: {written}")
        answer = upload(client, "other.yaml", body.encode("utf-8"))
        page = unescape(answer.text)
        assert answer.status_code == 403 and said in page, (written, page[-600:])
        assert f"files for “{HOLDER}” only" in page


def test_the_decision_forms_take_no_more_than_the_record_prints(office: Office) -> None:
    """A reason or a note runs to 2,000 characters at most (the record refuses more): the
    form's fields say so to the browser, so that a longer one is never typed, posted and
    lost with the refusal."""
    from validator.store.lifecycle import MOST_WORDS

    client = signed_in(office, "rev")
    page = client.get(f"/submissions/{office.ids['example']}").text
    assert page.count(f'maxlength="{MOST_WORDS}"') == 2
