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
from store_db import recorded_before_the_decisions  # noqa: F401 (autouse: the store's clock)
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

SUBMISSION_PAGES = ("", "/diff", "/math", "/par", "/par?format=pdf", "/signs", "/review", "/raw")


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
    for verb, data in (("approve", {}), ("reject", {"reason": "x"}), ("withdraw", {})):
        answer = client.post(f"/submissions/{theirs}/{verb}", data={"csrf": token, **data})
        assert answer.status_code == 404, verb
        assert (
            answer.text
            == client.post(f"/submissions/{missing}/{verb}", data={"csrf": token, **data}).text
        )
    assert office.store.get(theirs).status == "submitted"
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
    assert f"rev approved #{sid} on 2026-12-20 (note: checked at the table)" in page


def test_open_redirect_is_refused(app) -> None:  # type: ignore[no-untyped-def]
    """``next`` leads only to a path of this site: another host, written as a URL, as
    ``//host``, or as ``/\\host`` and ``/\t/host`` (which browsers read as ``//host``), is
    the home page instead."""
    for target in (
        "https://elsewhere.example/",
        "//elsewhere.example/",
        "/\\elsewhere.example/",
        "/\\/elsewhere.example/",
        "\\\\elsewhere.example/",
        "/\t/elsewhere.example/",
    ):
        client = TestClient(app)
        page = client.get("/login", params={"next": target})
        assert 'name="next" value="/"' in page.text, target
        answer = client.post(
            "/login",
            data={
                "csrf": csrf_of(page.text),
                "name": "view",
                "password": PASSWORDS["view"],
                "next": target,
            },
            follow_redirects=False,
        )
        assert answer.status_code == 303 and answer.headers["location"] == "/", target
    kept = TestClient(app)
    page = kept.get("/login", params={"next": "/submissions?q=Example"})
    assert 'name="next" value="/submissions?q=Example"' in page.text  # a path of its own stays


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


#: The headers every answer carries, beside the CSP (which ``test_markup_in_a_submission_
#: renders_as_text`` holds): no framing, no sniffing, no referrer off the site, no caching.
SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
}


def test_every_answer_carries_the_security_headers(app, office: Office) -> None:
    """A page, the sign-in page, a redirect, a 403, a 404, a 405, a download, the API (200,
    401, 404), a host name the server does not answer to (400): each forbids framing
    (``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``), sniffing, a referrer to
    another site and caching."""
    sid = office.ids["example"]
    anyone = TestClient(app)
    rev = client_as(app, "rev")
    view = client_as(app, "view")
    token = acct.issue_token(office.store, "view", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    answers = {
        "login": anyone.get("/login"),
        "redirect": anyone.get("/submissions", follow_redirects=False),
        "api 401": anyone.get("/api/submissions"),
        "page": rev.get(f"/submissions/{sid}"),
        "404": rev.get("/submissions/999999"),
        "405": rev.put("/logout"),
        "403": view.get("/upload"),
        "download": rev.get(f"/submissions/{sid}/raw"),
        "api": api.get("/api/submissions"),
        "api 404": api.get("/api/nothing-here"),
        "host refused": TestClient(
            create_app(office.db, secret="s", allowed_hosts=["127.0.0.1"]),
            base_url="http://rebind.example",
        ).get("/login"),
    }
    assert answers["redirect"].status_code == 303 and answers["403"].status_code == 403
    assert answers["host refused"].status_code == 400
    for what, answer in answers.items():
        for header, value in SECURITY_HEADERS.items():
            assert answer.headers.get(header) == value, (what, header)
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], what


def test_a_server_error_is_generic_with_no_traceback(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What fails inside says nothing of itself: a page answers plain words, the API JSON,
    both 500 with the security headers; no traceback, exception, message or path."""
    from validator.web import queries

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret detail /srv/rulesub/office.sqlite3")

    monkeypatch.setattr(queries, "search_submissions", broken)
    app = create_app(office.db, secret="test-secret")
    rev = TestClient(app, raise_server_exceptions=False)
    assert sign_in(rev, "rev").status_code == 303
    token = acct.issue_token(office.store, "rev", by="test")
    api = TestClient(
        app, headers={"Authorization": f"Bearer {token}"}, raise_server_exceptions=False
    )
    page, listed = rev.get("/submissions"), api.get("/api/submissions")
    assert page.status_code == listed.status_code == 500
    assert page.headers["content-type"].startswith("text/plain")
    assert listed.json() == {"error": page.text}
    for answer in (page, listed):
        for leak in ("Traceback", "RuntimeError", "secret", "/srv/", "queries.py"):
            assert leak not in answer.text
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["cache-control"] == "no-store"


def test_only_the_right_role_decides_or_withdraws(app, office: Office) -> None:
    """A casino account neither approves nor rejects, even its own holder's filing (403); a
    viewer and a reviewer do not withdraw (only the holder takes its filing back); nothing
    changes."""
    sid = office.ids["example"]
    before = [(e.id, e.action) for e in office.store.events([sid])]
    cas = client_as(app, "cas")
    for verb, data in (("approve", {"on": "2026-12-20"}), ("reject", {"reason": "ours"})):
        answer = cas.post(f"/submissions/{sid}/{verb}", data={"csrf": token_of(cas), **data})
        assert answer.status_code == 403, verb
    assert 'id="approve"' not in cas.get(f"/submissions/{sid}").text
    for name in ("view", "rev"):
        client = client_as(app, name)
        answer = client.post(f"/submissions/{sid}/withdraw", data={"csrf": token_of(client)})
        assert answer.status_code == 403, name
        assert 'id="withdraw"' not in client.get(f"/submissions/{sid}").text
    assert office.store.get(sid).status == "submitted"
    assert [(e.id, e.action) for e in office.store.events([sid])] == before


def test_a_csrf_token_of_another_session_is_refused(app, office: Office) -> None:
    """A CSRF token is its session's: a valid token taken from another session, the same
    account's or another's, is refused (403) and changes nothing; the session's own is
    taken."""
    sid = office.ids["example"]
    mine = client_as(app, "rev")
    other_rev, casino = client_as(app, "rev"), client_as(app, "cas")
    for stolen in (token_of(other_rev), token_of(casino)):
        assert stolen != token_of(mine)
        answer = mine.post(f"/submissions/{sid}/reject", data={"csrf": stolen, "reason": "forged"})
        assert answer.status_code == 403
        answer = mine.post("/logout", data={"csrf": stolen}, follow_redirects=False)
        assert answer.status_code == 403
    assert office.store.get(sid).status == "submitted"
    assert mine.get("/", follow_redirects=False).status_code == 200
    assert mine.post("/logout", data={"csrf": token_of(mine)}).url.path == "/login"


def test_text_a_reviewer_writes_is_escaped_wherever_it_shows(tmp_path: Path) -> None:
    """A rejection's reason, an approval's note and a waiver's reason holding markup show
    as text on the filing's page and its history, the audit log, the review pack read in
    the browser and the par sheet: no tag of theirs reaches a page."""
    office = make_office(tmp_path)
    app = create_app(office.db, secret="s")
    rev = client_as(app, "rev")
    approved = office.ids["example"]
    later = tmp_path / "later.yaml"
    later.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace("2027-01-01", "2027-03-01"), encoding="utf-8"
    )
    rejected = office.store.record(later, "cas", display="later.yaml").id
    note, waiver, reason = (
        "<script>alert('note')</script>",
        "<script>alert('waiver')</script>",
        "<img src=x onerror=alert('reason')>",
    )
    done = rev.post(
        f"/submissions/{approved}/approve",
        data={
            "csrf": token_of(rev),
            "on": "2027-02-01",  # after its effective date: a finding to waive
            "note": note,
            "waive": f"rulesub/effective-before-approval: {waiver}",
        },
    )
    assert office.store.get(approved).status == "approved", done.text[-2000:]
    rev.post(f"/submissions/{rejected}/reject", data={"csrf": token_of(rev), "reason": reason})
    assert office.store.get(rejected).status == "rejected"
    pages = [
        f"/submissions/{approved}",
        f"/submissions/{rejected}",
        "/audit",
        f"/audit?submission={approved}",
        f"/submissions/{approved}/review",
        f"/submissions/{rejected}/review",
        f"/submissions/{approved}/par",
    ]
    for path in pages:
        answer = rev.get(path)
        assert answer.status_code == 200, path
        text = answer.text.lower()
        assert "<script" not in text and "<img src=x" not in text, path
    for path in (f"/submissions/{approved}", f"/submissions/{rejected}", "/audit"):
        page = rev.get(path).text  # each text, escaped, on the filing's page and the log
        assert "&lt;script&gt;alert(&#39;note&#39;)&lt;/script&gt;" in page, path
        assert "&lt;img src=x onerror=alert(&#39;reason&#39;)&gt;" in page, path
    for path in (f"/submissions/{approved}", "/audit"):
        assert "&lt;script&gt;alert(&#39;waiver&#39;)&lt;/script&gt;" in rev.get(path).text
