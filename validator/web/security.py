"""Who is asking, and whether they may: sessions, CSRF tokens, the login throttle.

- A page request is signed in by its session (a signed cookie, itsdangerous through
  Starlette's ``SessionMiddleware``) holding the account's id and a stamp of its password
  hash: a password change ends every session from before it.
- An ``/api/`` request is signed in by ``Authorization: Bearer TOKEN`` only (no cookie, so
  no cross-site request can ride on it).
- Every POST of a page carries the session's CSRF token in its ``csrf`` field, compared in
  constant time; one without it, or with another, is refused (403).
- Login attempts: after ``free`` failures for one account name or from one client, each
  further attempt must wait ``base · 2^(failures - free)`` seconds (at most ``cap``) after
  the last failure; an earlier one is answered 429 with ``Retry-After`` without the password
  being tried.
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
    free: int = 5
    base: float = 1.0
    cap: float = 300.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, keys: list[str]) -> float:
        """Seconds until an attempt under these keys may be tried (0: now)."""
        now = self.clock()
        longest = 0.0
        with self._lock:
            for key in keys:
                count, last = self._failures.get(key, (0, 0.0))
                if count < self.free:
                    continue
                pause = min(self.cap, self.base * 2 ** (count - self.free))
                longest = max(longest, last + pause - now)
        return max(0.0, longest)

    #: Failures kept at most (past it, those whose wait is over are forgotten).
    KEPT = 10_000

    def failed(self, keys: list[str]) -> None:
        now = self.clock()
        with self._lock:
            if len(self._failures) >= self.KEPT:
                self._failures = {
                    k: (count, last)
                    for k, (count, last) in self._failures.items()
                    if count >= self.free
                    and last + min(self.cap, self.base * 2 ** (count - self.free)) > now
                }
            for key in keys:
                count, _ = self._failures.get(key, (0, 0.0))
                self._failures[key] = (count + 1, now)

    def succeeded(self, keys: list[str]) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    @staticmethod
    def retry_after(seconds: float) -> str:
        return str(max(1, math.ceil(seconds)))
