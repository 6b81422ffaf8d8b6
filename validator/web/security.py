"""Who is asking, and whether they may: sessions, CSRF tokens, the login throttle.

- A page request is signed in by its session: a signed cookie (itsdangerous through
  Starlette's ``SessionMiddleware``) holding a random session key, which the store must
  still hold (``validator.store.accounts.sessions``): signing out, a password change or
  removing the account deletes it there, so a copied cookie opens nothing afterwards. The
  cookie is ``HttpOnly``, ``SameSite=Lax``, and ``Secure`` over HTTPS or with
  ``--secure-cookies`` (``SecureCookies``).
- An ``/api/`` request is signed in by ``Authorization: Bearer TOKEN`` only (no cookie, so
  no cross-site request can ride on it).
- Every POST of a page carries the session's CSRF token in its ``csrf`` field, compared in
  constant time; one without it, or with another, is refused (403).
- Login attempts (``LoginThrottle``): counted per client and account name before the
  password is tried; past the free ones each waits longer, up to a cap, and the account's
  count from all clients adds a bounded slowdown; an attempt too early is answered 429 with
  ``Retry-After`` without the password being tried. The client is the connection's peer
  address; ``X-Forwarded-For`` counts only from a proxy ``rulesub serve --proxy-headers
  --forwarded-allow-ips`` trusts.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_FIELD = "csrf"
MAX_FORM_BYTES = 2_000_000  # a submission is read up to 1,000,000 bytes; more is a finding


def csrf_token(request: Request) -> str:
    """The session's CSRF token, made on first use."""
    token = request.session.get(CSRF_FIELD)
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(32)
        request.session[CSRF_FIELD] = token
    return token


async def checked_form(request: Request) -> FormData:
    """The POSTed form, once its CSRF token is the session's; else 403."""
    try:
        form = await request.form(max_files=1, max_fields=20, max_part_size=MAX_FORM_BYTES)
    except HTTPException:
        raise
    except Exception:  # a malformed multipart body: refused like any bad request
        raise HTTPException(400, "the form could not be read") from None
    sent = form.get(CSRF_FIELD)
    kept = request.session.get(CSRF_FIELD)
    if not (
        isinstance(sent, str)
        and isinstance(kept, str)
        and hmac.compare_digest(sent.encode(), kept.encode())
    ):
        raise HTTPException(403, "the form's CSRF token is missing or stale: reload the page")
    return form


@dataclass
class LoginThrottle:
    """Sign-in attempts, counted before the password is tried.

    Two counts, each ``(attempts, last)``:

    - per client and account name (``pair``): after ``free`` attempts not followed by a
      success, each further one waits ``base · 2^(n - free)`` s (at most ``cap``) after the
      last;
    - per account name, from every client (``account``): after ``account_free`` such
      attempts, each further one waits ``base · 2^(n - account_free)`` s, at most
      ``account_cap`` — a bounded slowdown: a guesser spread over many clients gets one try
      per ``account_cap`` seconds, and the owner, from a client of their own, waits at most
      ``account_cap`` seconds after the last failure, never longer; from an address that
      has signed in to the account before (the last ``KEPT`` such), not at all;
    - per client, across every account name (``client``): after ``client_free`` attempts,
      each further one waits ``base · 2^(n - client_free)`` s, at most ``client_cap``: one
      client trying a few passwords on many names (spraying) is slowed as one trying many
      on one name is; an address signing in to an account it has signed in to before is
      not.

    ``begin`` counts the attempt (under a lock) before the password is checked, so that
    thirty attempts sent at once are not all tried; an attempt turned away is not counted,
    so waiting out the slowdown is never held against anyone. ``succeeded`` clears the
    pair's count and takes back the account-wide and client-wide counts of this attempt.
    """

    free: int = 5
    base: float = 1.0
    cap: float = 300.0
    account_free: int = 20
    account_cap: float = 30.0
    client_free: int = 30
    client_cap: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _pairs: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    _accounts: dict[str, tuple[int, float]] = field(default_factory=dict)
    _clients: dict[str, tuple[int, float]] = field(default_factory=dict)
    _known: dict[tuple[str, str], None] = field(default_factory=dict)  # oldest first
    _lock: threading.Lock = field(default_factory=threading.Lock)

    #: Counts kept at most in each table (past it, those whose wait is over are forgotten).
    KEPT = 10_000

    def _pause(self, count: int, free: int, cap: float) -> float:
        if count < free:
            return 0.0
        return min(cap, self.base * 2 ** min(count - free, 64))

    def _wait(self, client: str, name: str, now: float) -> float:
        count, last = self._pairs.get((client, name), (0, 0.0))
        pair = last + self._pause(count, self.free, self.cap) - now if count else 0.0
        if (client, name) in self._known:
            return max(0.0, pair)
        count, last = self._accounts.get(name, (0, 0.0))
        whole = last + self._pause(count, self.account_free, self.account_cap) - now
        n, since = self._clients.get(client, (0, 0.0))
        spread = since + self._pause(n, self.client_free, self.client_cap) - now
        return max(0.0, pair, whole if count else 0.0, spread if n else 0.0)

    def begin(self, client: str, name: str) -> float:
        """Count an attempt by ``client`` at account ``name``: 0 if it may be tried now,
        else the seconds to wait (and the attempt is not counted)."""
        name = name.casefold()
        now = self.clock()
        with self._lock:
            wait = self._wait(client, name, now)
            if wait > 0:
                return wait
            self._forget(now)
            count, _ = self._pairs.get((client, name), (0, 0.0))
            self._pairs[(client, name)] = (count + 1, now)
            count, _ = self._accounts.get(name, (0, 0.0))
            self._accounts[name] = (count + 1, now)
            count, _ = self._clients.get(client, (0, 0.0))
            self._clients[client] = (count + 1, now)
        return 0.0

    def succeeded(self, client: str, name: str) -> None:
        name = name.casefold()
        with self._lock:
            self._pairs.pop((client, name), None)
            self._known.pop((client, name), None)
            self._known[(client, name)] = None
            while len(self._known) > self.KEPT:
                del self._known[next(iter(self._known))]
            for table, key in ((self._accounts, name), (self._clients, client)):
                count, last = table.get(key, (0, 0.0))
                if count <= 1:
                    table.pop(key, None)
                else:
                    table[key] = (count - 1, last)

    def _forget(self, now: float) -> None:
        if len(self._pairs) >= self.KEPT:
            self._pairs = {
                k: (n, last)
                for k, (n, last) in self._pairs.items()
                if last + self._pause(n, self.free, self.cap) > now
            }
        if len(self._accounts) >= self.KEPT:
            self._accounts = {
                k: (n, last)
                for k, (n, last) in self._accounts.items()
                if last + self._pause(n, self.account_free, self.account_cap) > now
            }
        if len(self._clients) >= self.KEPT:
            self._clients = {
                k: (n, last)
                for k, (n, last) in self._clients.items()
                if last + self._pause(n, self.client_free, self.client_cap) > now
            }

    @staticmethod
    def retry_after(seconds: float) -> str:
        return str(max(1, math.ceil(seconds)))


class SecureCookies:
    """Marks the session cookie ``Secure`` when the request came over HTTPS (as uvicorn
    reports it: TLS of its own, or a trusted proxy's ``X-Forwarded-Proto``) or always, with
    ``rulesub serve --secure-cookies``. Outside the session middleware, so that it sees the
    ``Set-Cookie`` the session middleware adds."""

    def __init__(self, app: ASGIApp, always: bool = False) -> None:
        self.app = app
        self.always = always

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not (self.always or scope.get("scheme") == "https"):
            await self.app(scope, receive, send)
            return

        async def send_secure(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (k, _secure(v) if k.lower() == b"set-cookie" else v)
                    for k, v in message.get("headers", [])
                ]
            await send(message)

        await self.app(scope, receive, send_secure)


def _secure(cookie: bytes) -> bytes:
    flags = [part.strip().lower() for part in cookie.split(b";")[1:]]
    return cookie if b"secure" in flags else cookie + b"; secure"
