"""Sessions that end and sign-ins that cannot be hammered (issue 24).

- Signing out and a password change end the session in the store: a copy of the cookie
  taken before is refused afterwards; a password change revokes the API tokens too, as
  ``rulesub users token --revoke`` does.
- The session cookie is ``Secure`` over HTTPS and with ``--secure-cookies``.
- The sign-in throttle counts an attempt before the password is tried (thirty wrong
  passwords sent at once are not all tried), per client and account, with a bounded
  account-wide slowdown, and ``X-Forwarded-For`` is not believed unless a proxy is trusted.
- ``rulesub serve`` answers only to the host names it is reached by: a page of another site
  whose name is pointed at 127.0.0.1 (DNS rebinding) is refused before anything is read.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from webtools import PASSWORDS, Office, csrf_of, make_office, served, sign_in

warnings.filterwarnings("ignore", message=".*httpx.*")
httpx = pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from validator.cli import app as cli_app  # noqa: E402
from validator.store import accounts as acct  # noqa: E402
from validator.web import create_app  # noqa: E402
from validator.web.security import LoginThrottle  # noqa: E402

COOKIE = "rulesub_session"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def office(tmp_path: Path) -> Office:
    return make_office(tmp_path)


def signed_in(app: Any, name: str, **client: Any) -> TestClient:
    browser = TestClient(app, **client)
    answer = sign_in(browser, name)
    assert answer.status_code == 303, answer.text
    return browser


def copy_of(browser: TestClient, app: Any) -> TestClient:
    """Another browser holding a copy of ``browser``'s session cookie, as a thief would."""
    thief = TestClient(app)
    thief.cookies.set(COOKIE, browser.cookies[COOKIE])
    return thief


# -- sessions end ---------------------------------------------------------------------------


def test_signing_out_ends_the_session_for_a_copied_cookie(office: Office) -> None:
    """ASVS V3.3.1: logout invalidates the session on the server, not only in the browser."""
    app = create_app(office.db, secret="s")
    browser = signed_in(app, "rev")
    thief = copy_of(browser, app)
    assert thief.get("/", follow_redirects=False).status_code == 200  # the copy works…
    token = csrf_of(browser.get("/").text)
    assert browser.post("/logout", data={"csrf": token}, follow_redirects=False).status_code == 303
    refused = thief.get("/", follow_redirects=False)  # …until its owner signs out
    assert refused.status_code == 303 and refused.headers["location"].startswith("/login")
    assert thief.get(f"/submissions/{office.ids['example']}/raw").url.path == "/login"


def test_every_sign_in_and_sign_out_is_in_the_servers_log(
    office: Office, caplog: pytest.LogCaptureFixture
) -> None:
    """ASVS V7.1.3 / V7.2.1: each sign-in decision (the client, the name as typed, the
    result) and each sign-out is logged; a password never is."""
    app = create_app(office.db, secret="s", throttle=LoginThrottle(clock=Clock()))
    browser = TestClient(app)
    with caplog.at_level("INFO", logger="rulesub.web"):
        wrong = browser.post(
            "/login",
            data={"csrf": csrf_of(browser.get("/login").text), "name": "rev", "password": "nope"},
            follow_redirects=False,
        )
        assert wrong.status_code == 401
        assert sign_in(browser, "rev").status_code == 303
        token = csrf_of(browser.get("/").text)
        assert (
            browser.post("/logout", data={"csrf": token}, follow_redirects=False).status_code == 303
        )
    said = [r.getMessage() for r in caplog.records if r.name == "rulesub.web"]
    assert said == [
        "sign-in failed from testclient as 'rev'",
        "signed in from testclient as 'rev'",
        "signed out from testclient",
    ]
    assert not any("nope" in m or PASSWORDS["rev"] in m for m in said)


def test_an_account_the_audit_log_did_not_make_opens_nothing(
    office: Office, caplog: pytest.LogCaptureFixture
) -> None:
    """Roles are given by ``users add`` and written to the audit log; tokens are issued
    through it. Written into the database by hand (the audit log untouched), a viewer made
    reviewer loses the session it holds and cannot sign in, an account inserted cannot sign
    in, and an API token inserted opens no API: each refused as a wrong sign-in or a
    missing token, the server's log saying why. ``audit verify`` names each."""
    from sqlalchemy import text

    app = create_app(office.db, secret="s")
    viewer = signed_in(app, "view")
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    assert viewer.get("/submissions").status_code == 200
    assert api.get("/api/submissions").status_code == 200
    forged = "rst_forged-by-hand"
    with office.store.engine.connect() as conn, conn.begin():
        conn.execute(text("UPDATE accounts SET role = 'reviewer' WHERE name = 'view'"))
        conn.execute(
            text(
                "INSERT INTO accounts (name, role, password_hash, created_at) "
                "SELECT 'mole', 'reviewer', password_hash, created_at FROM accounts "
                "WHERE name = 'rev'"
            )
        )
        conn.execute(
            text(
                "INSERT INTO api_tokens (account_id, token_sha256, label, created_at) "
                "SELECT id, :digest, 'api', created_at FROM accounts WHERE name = 'cas'"
            ),
            {"digest": hashlib.sha256(forged.encode()).hexdigest()},
        )
    with caplog.at_level("INFO", logger="rulesub.web"):
        assert viewer.get("/submissions", follow_redirects=False).status_code == 303
        assert sign_in(TestClient(app), "view").status_code == 401
        assert sign_in(TestClient(app), "mole", PASSWORDS["rev"]).status_code == 401
        bearer = {"Authorization": f"Bearer {forged}"}
        assert TestClient(app, headers=bearer).get("/api/submissions").status_code == 401
        # the token the log issued is refused too: the account holds one more than issued
        assert api.get("/api/submissions").status_code == 401
    said = " ".join(r.getMessage() for r in caplog.records if r.name == "rulesub.web")
    # in the words `audit verify` names them by: one rule of what the log made
    assert "account 'view' refused: its role is reviewer; the audit log added it as viewer" in said
    assert "account 'mole' refused: the audit log never added it" in said
    assert "account 'cas' refused: it holds 2 API tokens labelled 'api'; the audit log " in said
    assert sign_in(TestClient(app), "rev").status_code == 303  # the others are as they were


def test_a_password_change_ends_copied_sessions_and_revokes_api_tokens(office: Office) -> None:
    """ASVS V3.3.3 / V2.1: after a password change no earlier session or token opens
    anything; the audit log says how many ended."""
    app = create_app(office.db, secret="s")
    browser = signed_in(app, "cas")
    thief = copy_of(browser, app)
    token = acct.issue_token(office.store, "cas", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    assert api.get("/api/submissions").status_code == 200
    result = CliRunner().invoke(
        cli_app, ["users", "passwd", "cas", "--password", "another-secret", "--db", office.db]
    )
    assert result.exit_code == 0, result.output
    assert thief.get("/", follow_redirects=False).status_code == 303
    assert browser.get("/", follow_redirects=False).status_code == 303
    assert api.get("/api/submissions").status_code == 401
    changed = [e for e in office.store.events() if e.action == "account-password"]
    assert '"sessions_ended": 1' in changed[-1].detail
    assert '"tokens_revoked": 1' in changed[-1].detail
    # the new password opens a new session
    again = TestClient(app)
    assert sign_in(again, "cas", "another-secret").status_code == 303


def test_removing_an_account_ends_its_open_sessions_and_tokens(office: Office) -> None:
    """``rulesub users remove``: the account's open sessions (a copied cookie too) and its
    API tokens open nothing afterwards, and its name signs in no more; another account's
    session is untouched."""
    app = create_app(office.db, secret="s")
    browser = signed_in(app, "view")
    thief = copy_of(browser, app)
    other = signed_in(app, "rev")
    token = acct.issue_token(office.store, "view", by="test")
    api = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    assert api.get("/api/submissions").status_code == 200
    assert thief.get("/", follow_redirects=False).status_code == 200
    result = CliRunner().invoke(cli_app, ["users", "remove", "view", "--db", office.db])
    assert result.exit_code == 0, result.output
    for client in (browser, thief):
        answer = client.get("/submissions", follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"].startswith("/login")
    assert api.get("/api/submissions").status_code == 401
    assert sign_in(TestClient(app), "view").status_code == 401
    assert other.get("/", follow_redirects=False).status_code == 200


def test_users_token_revoke_stops_the_accounts_tokens(office: Office) -> None:
    app = create_app(office.db, secret="s")
    kept = acct.issue_token(office.store, "rev", label="ci", by="test")
    first = acct.issue_token(office.store, "cas", label="ci", by="test")
    second = acct.issue_token(office.store, "cas", label="desk", by="test")

    def status(token: str) -> int:
        answer = TestClient(app).get(
            "/api/submissions", headers={"Authorization": f"Bearer {token}"}
        )
        return answer.status_code

    assert [status(t) for t in (kept, first, second)] == [200, 200, 200]
    runner = CliRunner()
    one = runner.invoke(
        cli_app, ["users", "token", "cas", "--revoke", "--label", "ci", "--db", office.db]
    )
    assert one.exit_code == 0 and "1 API token labelled ci revoked" in one.output
    assert [status(t) for t in (kept, first, second)] == [200, 401, 200]
    rest = runner.invoke(cli_app, ["users", "token", "cas", "--revoke", "--db", office.db])
    assert rest.exit_code == 0 and "1 API token revoked" in rest.output
    assert [status(t) for t in (kept, first, second)] == [200, 401, 401]
    unknown = runner.invoke(cli_app, ["users", "token", "nobody", "--revoke", "--db", office.db])
    assert unknown.exit_code == 2
    assert [e.action for e in office.store.events()].count("account-token-revoke") == 2


def test_an_expired_session_is_refused(office: Office) -> None:
    import datetime as dt

    account = acct.by_token(office.store, acct.issue_token(office.store, "view", by="t"))
    assert account is not None
    past = dt.datetime.now(dt.UTC) - dt.timedelta(hours=acct.SESSION_HOURS, minutes=1)
    key = acct.begin_session(office.store, account, now=past)
    assert acct.by_session(office.store, key) is None
    assert acct.by_session(office.store, acct.begin_session(office.store, account)) == account


def _session_cookie(answer: Any) -> str:
    cookies = [v for k, v in answer.headers.multi_items() if k == "set-cookie"]
    found = [c for c in cookies if c.startswith(COOKIE + "=")]
    assert found, cookies
    return found[-1].lower()


def test_the_session_cookie_is_secure_over_https_or_when_asked(office: Office) -> None:
    """ASVS V3.4.1: the cookie carries ``Secure`` where the connection is HTTPS (or a proxy
    in front of it is, ``--secure-cookies``); ``HttpOnly`` and ``SameSite`` always."""
    plain = create_app(office.db, secret="s")
    over_http = sign_in(TestClient(plain), "view")
    assert "; secure" not in _session_cookie(over_http)
    assert "httponly" in _session_cookie(over_http) and "samesite=lax" in _session_cookie(over_http)
    over_https = sign_in(TestClient(plain, base_url="https://testserver"), "view")
    assert "; secure" in _session_cookie(over_https)
    asked = create_app(office.db, secret="s", secure_cookies=True)
    # over plain HTTP (a proxy in front speaks HTTPS): marked all the same, from the first
    assert "; secure" in _session_cookie(TestClient(asked).get("/login"))


def test_serve_secure_cookies_flag_reaches_the_app(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    runner = CliRunner()
    result = runner.invoke(cli_app, ["serve", "--db", office.db, "--secure-cookies"])
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is False  # X-Forwarded-For believed from no one
    assert "; secure" in _session_cookie(
        TestClient(seen["app"], base_url="http://127.0.0.1:8000").get("/login")
    )
    result = runner.invoke(
        cli_app,
        ["serve", "--db", office.db, "--proxy-headers", "--forwarded-allow-ips", "10.0.0.2"],
    )
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is True and seen["forwarded_allow_ips"] == "10.0.0.2"
    alone = runner.invoke(cli_app, ["serve", "--db", office.db, "--forwarded-allow-ips", "x"])
    assert alone.exit_code == 2


# -- the host names answered (DNS rebinding) ------------------------------------------------


def _login_status(app: Any, base_url: str) -> tuple[int, int]:
    """The login page's status and a sign-in's, the browser at ``base_url``."""
    browser = TestClient(app, base_url=base_url)
    page = browser.get("/login")
    csrf = csrf_of(page.text) if page.status_code == 200 else "x"
    answer = browser.post(
        "/login",
        data={"csrf": csrf, "name": "view", "password": PASSWORDS["view"]},
        follow_redirects=False,
    )
    return page.status_code, answer.status_code


def test_a_rebound_host_name_reaches_nothing(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page at http://rebind.example:8000/ whose name now resolves to 127.0.0.1 sends
    ``Host: rebind.example``: the server on this machine refuses it (400) before the login
    page or a sign-in is read, so its script can neither try passwords from the victim's
    browser nor read an answer; this machine's own names are answered."""
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    runner = CliRunner()
    assert runner.invoke(cli_app, ["serve", "--db", office.db]).exit_code == 0
    app = seen["app"]
    throttle = app.state.web.throttle
    assert _login_status(app, "http://rebind.example:8000") == (400, 400)
    assert _login_status(app, "http://127.0.0.1.rebind.example") == (400, 400)
    assert not throttle._pairs and not throttle._clients  # no sign-in was tried
    for own in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        assert _login_status(app, own) == (200, 303), own

    # on every address the names are not known here: any is answered, and the log says so
    result = runner.invoke(cli_app, ["serve", "--db", office.db, "--host", "0.0.0.0"])
    assert result.exit_code == 0 and "answering to any host name" in result.output
    assert _login_status(seen["app"], "http://rebind.example")[0] == 200
    # named: those names and no other
    named = ["serve", "--db", office.db, "--host", "0.0.0.0", "--allowed-hosts"]
    assert runner.invoke(cli_app, [*named, "*.casino.example, office.example"]).exit_code == 0
    assert _login_status(seen["app"], "http://rulesub.casino.example")[0] == 200
    assert _login_status(seen["app"], "http://office.example:8443")[0] == 200
    assert _login_status(seen["app"], "http://rebind.example")[0] == 400
    # an address listened on is answered with this machine's names
    assert runner.invoke(cli_app, ["serve", "--db", office.db, "--host", "10.0.0.5"]).exit_code == 0
    assert _login_status(seen["app"], "http://10.0.0.5:8000")[0] == 200
    assert _login_status(seen["app"], "http://rebind.example")[0] == 400
    for bad in ("office.*.example", "*example.org", " , "):
        refused = runner.invoke(cli_app, [*named, bad])
        assert refused.exit_code == 2 and "--allowed-hosts" in refused.output, bad


@pytest.mark.slow  # a real server beside its quick kin; the full suite keeps it
def test_a_real_server_refuses_a_rebound_host_name(office: Office) -> None:
    """Against ``rulesub serve`` on 127.0.0.1: the same connection, ``Host: rebind.example``
    is refused and ``Host: 127.0.0.1:PORT`` answered."""
    with served(office.db) as base, httpx.Client(base_url=base, timeout=30) as c:
        assert c.get("/login", headers={"Host": "rebind.example"}).status_code == 400
        assert c.get("/login").status_code == 200


# -- the sign-in throttle -------------------------------------------------------------------


async def _login_form(client: Any) -> str:
    return csrf_of((await client.get("/login")).text)


def _attempt(client: Any, csrf: str, name: str, password: str) -> Any:
    return client.post(
        "/login",
        data={"csrf": csrf, "name": name, "password": password, "next": "/"},
        follow_redirects=False,
    )


def test_thirty_wrong_passwords_at_once_are_not_all_tried(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ASVS V2.2.1: the attempt is counted before the password is checked, so a burst sent
    at once gets the free attempts tried and the rest answered 429, untried."""
    tried: list[str] = []
    lock = threading.Lock()

    def slow_wrong(store: Any, name: str, password: str) -> None:
        with lock:
            tried.append(password)
        threading.Event().wait(0.2)  # every attempt is in flight together
        return None

    monkeypatch.setattr(acct, "authenticate", slow_wrong)
    app = create_app(office.db, secret="s", throttle=LoginThrottle(clock=Clock()))

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("203.0.113.7", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            csrf = await _login_form(c)
            answers = await asyncio.gather(
                *(_attempt(c, csrf, "rev", f"guess-{i:02}") for i in range(30))
            )
        return [a.status_code for a in answers]

    codes = asyncio.run(burst())
    assert len(tried) == 5, tried
    assert sorted(codes) == [401] * 5 + [429] * 25


def test_one_clients_failures_do_not_lock_the_owner_out_from_another(office: Office) -> None:
    """A client hammering an account is held back; its owner, from another client, signs
    in at once (per client and account)."""
    clock = Clock()
    app = create_app(office.db, secret="s", throttle=LoginThrottle(clock=clock))

    async def run() -> tuple[list[int], int, int]:
        attacker = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=("198.51.100.66", 5000)),
            base_url="http://testserver",
        )
        owner = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=("192.0.2.10", 6000)),
            base_url="http://testserver",
        )
        async with attacker, owner:
            csrf = await _login_form(attacker)
            codes = [(await _attempt(attacker, csrf, "view", "wrong-one")).status_code]
            for _ in range(9):
                codes.append((await _attempt(attacker, csrf, "view", "wrong-one")).status_code)
            spoofed = await attacker.post(
                "/login",
                data={"csrf": csrf, "name": "view", "password": PASSWORDS["view"]},
                headers={"X-Forwarded-For": "192.0.2.10"},  # the owner's address, forged
                follow_redirects=False,
            )
            mine = await _attempt(owner, await _login_form(owner), "view", PASSWORDS["view"])
        return codes, spoofed.status_code, mine.status_code

    codes, spoofed, mine = asyncio.run(run())
    assert codes == [401] * 5 + [429] * 5
    assert spoofed == 429  # X-Forwarded-For is not the client's address
    assert mine == 303


def test_the_account_wide_slowdown_is_bounded() -> None:
    """Failures from many clients slow the account down for everyone, never longer than
    ``account_cap`` after the last failure, so a guesser spread over many addresses gets
    one try per 30 s and the owner waits 30 s at most; from an address the owner signed in
    from before, not at all."""
    clock = Clock()
    throttle = LoginThrottle(free=5, account_free=20, account_cap=30.0, clock=clock)
    for i in range(20):
        assert throttle.begin(f"10.0.0.{i}", "Rev") == 0
    waits = []
    for i in range(10):  # a guesser from ever new addresses, each time the wait is over
        wait = throttle.begin(f"198.51.100.{i}", "rev")
        waits.append(wait)
        clock.now += wait
        assert throttle.begin(f"198.51.100.{i}", "rev") == 0
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0, 30.0, 30.0]
    assert throttle.begin("192.0.2.1", "rev") == 30.0
    clock.now += 30.0
    assert throttle.begin("192.0.2.1", "rev") == 0  # the owner's try
    throttle.succeeded("192.0.2.1", "rev")
    # the guesser goes on; from the address it signed in from, the owner is not slowed
    clock.now += 30.0
    assert throttle.begin("198.51.100.201", "rev") == 0
    assert throttle.begin("198.51.100.202", "rev") == 30.0
    assert throttle.begin("192.0.2.1", "rev") == 0


def test_one_client_spraying_many_names_is_slowed_down() -> None:
    """Password spraying: one client trying one password on each of many names never
    reaches any name's own count, and is slowed by its count across every name (after
    ``client_free`` attempts, base · 2^(n - free) s, at most ``client_cap``); another
    client is not, nor is an address signing in to an account it signed in to before."""
    clock = Clock()
    throttle = LoginThrottle(free=5, client_free=30, client_cap=60.0, clock=clock)
    assert throttle.begin("192.0.2.1", "rev") == 0
    throttle.succeeded("192.0.2.1", "rev")  # the owner, known at this address
    for i in range(30):
        assert throttle.begin("192.0.2.1", f"name-{i}") == 0
    waits = []
    for i in range(8):
        wait = throttle.begin("192.0.2.1", f"other-{i}")
        waits.append(wait)
        clock.now += wait
        assert throttle.begin("192.0.2.1", f"other-{i}") == 0
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    assert throttle.begin("192.0.2.1", "another") == 60.0
    assert throttle.begin("198.51.100.7", "another") == 0  # another client
    assert throttle.begin("192.0.2.1", "rev") == 0  # the owner, from where he signed in


def test_an_account_name_no_account_can_have_is_refused_before_it_is_counted(
    office: Office,
) -> None:
    """A name longer than any account's (``MAX_NAME``) is answered "wrong" without trying
    a password or keeping a count under it: names of megabytes, each new, fill no table."""
    throttle = LoginThrottle(clock=Clock())
    app = create_app(office.db, secret="s", throttle=throttle)
    browser = TestClient(app)
    answer = browser.post(
        "/login",
        data={
            "csrf": csrf_of(browser.get("/login").text),
            "name": "x" * (acct.MAX_NAME + 1),
            "password": "p" * 12,
        },
        follow_redirects=False,
    )
    assert answer.status_code == 401
    assert "Wrong account name or password." in answer.text
    assert not throttle._pairs and not throttle._accounts and not throttle._clients


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_a_real_server_ignores_forwarded_for_unless_a_proxy_is_trusted(
    office: Office,
) -> None:
    """Against ``rulesub serve`` on 127.0.0.1, 12 requests at most: a forged
    X-Forwarded-For does not make a locked-out client a new one; with ``--proxy-headers
    --forwarded-allow-ips 127.0.0.1`` the proxy's word is taken."""

    def attempts(base: str, forwarded: list[str], password: str) -> list[int]:
        with httpx.Client(base_url=base, timeout=30) as c:
            csrf = csrf_of(c.get("/login").text)
            return [
                c.post(
                    "/login",
                    data={"csrf": csrf, "name": "view", "password": password},
                    headers={"X-Forwarded-For": ip},
                ).status_code
                for ip in forwarded
            ]

    addresses = [f"203.0.113.{i}" for i in range(6)]
    with served(office.db) as base:
        assert attempts(base, addresses, "wrong-password") == [401] * 5 + [429]
    with served(office.db, extra=["--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]) as base:
        forged = ["203.0.113.9"] * 6  # one client, as the proxy names it
        assert attempts(base, forged, "wrong-password") == [401] * 5 + [429]
        assert attempts(base, ["192.0.2.44"], PASSWORDS["view"]) == [303]


def test_signing_in_again_makes_a_new_session_and_ends_the_old(office: Office) -> None:
    """ASVS V3.2.1: a new session key at every sign-in; the key the browser held before
    (which someone may have planted or copied) opens nothing afterwards."""
    app = create_app(office.db, secret="s")
    browser = signed_in(app, "view")
    before = copy_of(browser, app)
    assert sign_in(browser, "view").status_code == 303
    assert browser.get("/", follow_redirects=False).status_code == 200
    assert before.get("/", follow_redirects=False).status_code == 303
