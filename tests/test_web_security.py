"""The web view's security: who may see and do what, CSRF, the login throttle, escaping.

Issue 15: a viewer cannot approve (403); a casino account cannot read or guess another
holder's submissions (404, the same answer as a missing one); a POST without the CSRF
token is refused; a wrong password is refused and repeated failures are slowed; no page
reflects user input unescaped.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from webtools import (
    EXAMPLE,
    HOLDER,
    OTHER_HOLDER,
    PASSWORDS,
    Office,
    csrf_of,
    make_office,
    sign_in,
    token_of,
)

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.routing import Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from validator.store import accounts as acct  # noqa: E402
from validator.web import create_app  # noqa: E402
from validator.web.security import LoginThrottle  # noqa: E402

SUBMISSION_PAGES = ("", "/diff", "/math", "/signs", "/review", "/raw")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Office:
    return make_office(tmp_path_factory.mktemp("office"))


@pytest.fixture(scope="module")
def app(office: Office):  # type: ignore[no-untyped-def]
    return create_app(office.db, secret="test-secret")


def client_as(app, name: str | None) -> TestClient:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    if name is not None:
        answer = sign_in(client, name)
        assert answer.status_code == 303, answer.text
    return client


def test_without_credentials_every_page_redirects_to_login(app, office: Office) -> None:
    client = TestClient(app)
    pages = ["/", "/submissions", "/upload", "/audit", "/nowhere"] + [
        f"/submissions/{office.ids['example']}{p}" for p in SUBMISSION_PAGES
    ]
    for page in pages:
        answer = client.get(page, follow_redirects=False)
        assert answer.status_code == 303, page
        assert answer.headers["location"].startswith("/login?next="), page
    assert client.get("/login").status_code == 200


def test_without_credentials_every_api_path_answers_401(app, office: Office) -> None:
    client = TestClient(app)
    for method, path in [
        ("GET", "/api/submissions"),
        ("POST", "/api/submissions"),
        ("GET", f"/api/submissions/{office.ids['example']}"),
        ("GET", "/api/nothing-here"),
        ("DELETE", "/api/submissions/1"),
    ]:
        answer = client.request(method, path)
        assert answer.status_code == 401, (method, path)
        assert answer.headers["www-authenticate"].startswith("Bearer")
    wrong = client.get("/api/submissions", headers={"Authorization": "Bearer rst_not-a-token"})
    assert wrong.status_code == 401
    cookie_only = client_as(app, "rev")  # a session is no API credential
    assert cookie_only.get("/api/submissions").status_code == 401


def test_viewer_cannot_approve_or_reject_or_file(app, office: Office) -> None:
    """A viewer reads everything and decides nothing: 403, and the submission stays
    submitted."""
    client = client_as(app, "view")
    sid = office.ids["example"]
    assert client.get(f"/submissions/{sid}").status_code == 200
    token = token_of(client)
    for verb, data in (("approve", {}), ("reject", {"reason": "no"})):
        answer = client.post(f"/submissions/{sid}/{verb}", data={"csrf": token, **data})
        assert answer.status_code == 403, verb
    assert office.store.get(sid).status == "submitted"
    assert client.get("/upload").status_code == 403
    answer = client.post("/upload", data={"csrf": token, "text": EXAMPLE.read_text()})
    assert answer.status_code == 403


def test_casino_cannot_read_or_guess_another_holders_submission(app, office: Office) -> None:
    """Another holder's submission answers exactly what a missing one does (404)."""
    client = client_as(app, "cas")
    own, theirs, missing = office.ids["example"], office.ids["harbour"], 999_999
    assert client.get(f"/submissions/{own}").status_code == 200
    for suffix in SUBMISSION_PAGES:
        a = client.get(f"/submissions/{theirs}{suffix}")
        b = client.get(f"/submissions/{missing}{suffix}")
        assert a.status_code == b.status_code == 404, suffix
        assert a.text == b.text
        assert OTHER_HOLDER not in a.text and "Harbour Point" not in a.text
    token = token_of(client)
    answer = client.post(f"/submissions/{theirs}/approve", data={"csrf": token})
    assert answer.status_code == 404
    for page in ("/", "/submissions"):
        text = client.get(page).text
        assert "Harbour Point" not in text and HOLDER.replace("&", "&amp;") in text
    assert client.get("/audit").status_code == 404  # the log names every holder's filings


def test_casino_api_reads_only_its_own(app, office: Office) -> None:
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    listed = api.get("/api/submissions").json()
    assert office.ids["example"] in [e["id"] for e in listed]
    assert office.ids["harbour"] not in [e["id"] for e in listed]
    assert {e["certificate_holder"] for e in listed} == {HOLDER}
    contract = {
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
    assert contract <= set(listed[0])
    assert api.get(f"/api/submissions/{office.ids['harbour']}").status_code == 404
    recorded = api.get(f"/api/submissions/{office.ids['example']}").json()
    assert [f for f in recorded["findings_recorded"] if f["severity"] == "error"] == []


def test_post_without_csrf_token_is_refused_on_every_form(app, office: Office) -> None:
    """Every state-changing page route, found from the application's routes, refuses a
    POST without the session's token or with another one (403), and changes nothing."""
    client = client_as(app, "rev")
    sid = office.ids["example"]
    posts = [
        r.path.replace("{id}", str(sid))
        for r in app.routes
        if isinstance(r, Route) and "POST" in (r.methods or ()) and not r.path.startswith("/api")
    ]
    assert {"/login", "/logout", "/upload", f"/submissions/{sid}/approve"} <= set(posts)
    for path in posts:
        for data in ({}, {"csrf": "forged-token-forged-token-forged"}):
            answer = client.post(
                path,
                data={**data, "reason": "x", "name": "rev", "password": PASSWORDS["rev"]},
                follow_redirects=False,
            )
            assert answer.status_code == 403, (path, data)
    assert office.store.get(sid).status == "submitted"
    assert client.get("/").status_code == 200  # still signed in: the logout was refused


def test_wrong_password_refused_and_repeated_failures_slowed(office: Office) -> None:
    """After five failures, each further attempt waits 1, 2, 4 … s after the last failure;
    an attempt inside the wait is answered 429 without trying the password, even the
    right one."""
    clock = Clock()
    app = create_app(office.db, secret="s", throttle=LoginThrottle(free=5, base=1.0, clock=clock))
    client = TestClient(app)
    for _ in range(5):
        answer = sign_in(client, "view", "wrong-password")
        assert answer.status_code == 401
        assert "Wrong account name or password" in answer.text
    slowed = sign_in(client, "view")  # the right password, too early
    assert slowed.status_code == 429 and slowed.headers["retry-after"] == "1"
    clock.now += 1.0
    assert sign_in(client, "view", "wrong-again").status_code == 401  # sixth failure
    clock.now += 1.5
    assert sign_in(client, "view").status_code == 429  # now 2 s after it
    clock.now += 0.5
    assert sign_in(client, "view").status_code == 303
    # an unknown name is refused like a wrong password
    assert sign_in(client, "nobody", "whatever-pass").status_code == 401


def test_password_change_ends_open_sessions(tmp_path: Path) -> None:
    office = make_office(tmp_path)
    app = create_app(office.db, secret="s")
    client = client_as(app, "view")
    assert client.get("/", follow_redirects=False).status_code == 200
    acct.set_password(office.store, "view", "a-new-password", by="test")
    assert client.get("/", follow_redirects=False).status_code == 303


def test_markup_in_a_submission_renders_as_text(app, office: Office, tmp_path: Path) -> None:
    """Strings holding <script> (a facility, a holder, an unknown key that a finding
    quotes) show as text on every page, and no page may run a script at all (CSP)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace("facility: Example Downs", 'facility: "<script>alert(1)</script> Downs"')
    text += '"<script>alert(2)</script>": 1\n'
    path = tmp_path / "markup.yaml"
    path.write_text(text, encoding="utf-8")
    sid = office.store.record(path, "rev", display="<img src=x onerror=alert(3)>.yaml").id
    client = client_as(app, "rev")
    pages = [
        "/",
        "/submissions",
        f"/submissions/{sid}",
        f"/submissions/{sid}/diff",
        f"/submissions/{sid}/math",
        f"/submissions/{sid}/signs",
        "/audit",
    ]
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert "<script" not in answer.text.lower(), page
        assert "<img src=x" not in answer.text, page
        assert "script-src" not in answer.headers["content-security-policy"]
        assert "default-src 'none'" in answer.headers["content-security-policy"]
    page = client.get(f"/submissions/{sid}").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Downs" in page
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page  # the line, and the finding's words
    pack = client.get(f"/submissions/{sid}/review?format=html")
    assert pack.headers["content-disposition"].startswith("attachment")
    assert "<script" not in pack.text.lower()


def test_approval_is_in_the_audit_log_with_the_account(tmp_path: Path) -> None:
    office = make_office(tmp_path)
    app = create_app(office.db, secret="s")
    client = client_as(app, "rev")
    sid = office.ids["example"]
    answer = client.post(
        f"/submissions/{sid}/approve",
        data={"csrf": token_of(client), "note": "checked at the table", "on": "2026-12-20"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    row = office.store.get(sid)
    assert (row.status, row.approved_by) == ("approved", "rev")
    approvals = [e for e in office.store.events([sid]) if e.action == "approve"]
    assert [e.actor for e in approvals] == ["rev"]
    assert json.loads(approvals[0].detail)["note"] == "checked at the table"
    page = client.get(f"/submissions/{sid}").text
    assert "approve by rev" in page


def test_open_redirect_is_refused(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    page = client.get("/login?next=https://elsewhere.example/")
    answer = client.post(
        "/login",
        data={
            "csrf": csrf_of(page.text),
            "name": "view",
            "password": PASSWORDS["view"],
            "next": "//elsewhere.example/",
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/"


def test_a_casino_diff_never_compares_with_another_holders_filing(tmp_path: Path) -> None:
    """Another holder's approved filing for the same facility and game is no counterpart a
    casino account sees (the reviewer does see it)."""
    import datetime as dt

    office = make_office(tmp_path)
    theirs = tmp_path / "same-table.yaml"
    theirs.write_text(
        EXAMPLE.read_text(encoding="utf-8")
        .replace(f"certificate_holder: {HOLDER}", f"certificate_holder: {OTHER_HOLDER}")
        .replace("effective: 2027-01-01", "effective: 2026-12-15"),
        encoding="utf-8",
    )
    rid = office.store.record(theirs, "harbour", display="same-table.yaml").id
    office.store.approve(rid, "rev", on=dt.date(2026, 12, 1))
    app = create_app(office.db, secret="s")
    sid = office.ids["example"]
    casino = client_as(app, "cas").get(f"/submissions/{sid}/diff").text
    assert f"approved #{rid}" not in casino and "Not compared" in casino
    assert OTHER_HOLDER not in casino
    reviewer = client_as(app, "rev").get(f"/submissions/{sid}/diff").text
    assert f"approved #{rid}" in reviewer


def test_a_method_a_route_does_not_take_is_405_with_allow_and_changes_nothing(
    app, office: Office
) -> None:
    """GET, PUT, DELETE and PATCH on a route that only POSTs (approve, reject, withdraw,
    logout), and PUT on the sign-in page: 405, with ``Allow`` naming every method the
    path answers (RFC 9110, 15.5.6), signed in or not, and nothing recorded."""
    sid = office.ids["example"]
    before = [(e.id, e.action) for e in office.store.events([sid])]
    anyone = TestClient(app)
    answer = anyone.put("/login")
    assert answer.status_code == 405 and answer.headers["allow"] == "GET, HEAD, POST"
    client = client_as(app, "rev")
    for verb in ("approve", "reject", "withdraw"):
        for method in ("GET", "PUT", "DELETE", "PATCH"):
            answer = client.request(method, f"/submissions/{sid}/{verb}", follow_redirects=False)
            assert answer.status_code == 405, (method, verb)
            assert answer.headers["allow"] == "POST", (method, verb)
            assert answer.headers["x-frame-options"] == "DENY"  # the error page's headers too
    answer = client.delete("/logout")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert client.get("/").status_code == 200  # still signed in
    assert office.store.get(sid).status == "submitted"
    assert [(e.id, e.action) for e in office.store.events([sid])] == before


def test_a_reviewer_files_nothing_and_decides_no_filing_it_recorded(
    app, office: Office, tmp_path: Path
) -> None:
    """Separation of duties: a reviewer files nothing (the page and the API, 403, nothing
    recorded), and approves or rejects no filing recorded under its own name (at the
    command line, ``record --by rev``): 403, the filing still pending, no form offered."""
    client = client_as(app, "rev")
    before = len(office.store.history())
    assert client.get("/upload").status_code == 403
    assert 'id="nav-upload"' not in client.get("/").text
    text = EXAMPLE.read_text(encoding="utf-8").replace("2027-01-01", "2027-04-01")
    answer = client.post("/upload", data={"csrf": token_of(client), "text": text})
    assert answer.status_code == 403
    token = acct.issue_token(office.store, "rev", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    assert api.post("/api/submissions", content=text.encode()).status_code == 403
    assert len(office.store.history()) == before
    path = tmp_path / "own.yaml"
    path.write_text(text.replace("2027-04-01", "2027-05-01"), encoding="utf-8")
    own = office.store.record(path, "rev", display="own.yaml").id
    page = client.get(f"/submissions/{own}").text
    assert 'id="approve"' not in page and 'id="reject"' not in page
    assert "another reviewer approves or rejects it" in page
    for verb, data in (("approve", {"on": "2026-12-20"}), ("reject", {"reason": "mine"})):
        answer = client.post(f"/submissions/{own}/{verb}", data={"csrf": token_of(client), **data})
        assert answer.status_code == 403, verb
        assert "another reviewer approves or rejects it" in answer.text
    assert office.store.get(own).status == "submitted"
    assert [e.action for e in office.store.events([own])] == ["record"]
