"""The office's web view: the ASGI application ``rulesub serve`` runs.

Pages render server-side with Jinja2 (autoescape on: every value a submission or a user
supplied is escaped); there is no JavaScript at all (``script-src 'none'``). The store is
issue 14's (``validator.store.Store``): this module reads and decides through it only.

Who sees what (``Account.sees``): a casino account only the submissions naming its
certificate holder; another holder's submission answers 404 exactly as a missing one does.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import os
import re
import secrets
from collections.abc import Callable, Sequence
from http import HTTPStatus
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from validator.loader import MAX_BYTES
from validator.store import NoSubmission, Refused, Store, StoreError, UnknownWaiver, Unwaived
from validator.store import accounts as acct
from validator.store.accounts import Account
from validator.store.lifecycle import MOST_WORDS, decision_day
from validator.store.words import audit_words
from validator.web import queries
from validator.web.packs import Packs
from validator.web.queries import filing_number
from validator.web.security import (
    CSRF_FIELD,
    LoginThrottle,
    SecureCookies,
    checked_form,
    csrf_token,
)
from validator.web.upload import Upload, UploadRefused, file_upload

ENV_SECRET = "RULESUB_SECRET_KEY"
SESSION_KEY = "session"  # the session's key, in the signed cookie; the store holds its hash
#: Where the server says what it does not tell the browser (uvicorn's log shows it).
LOG = logging.getLogger("rulesub.web")
#: The answer while the store cannot be read: the reason, which may name the database's
#: path, goes to the server's log only.
UNAVAILABLE = "the office's database cannot be read just now: try again shortly"

PUBLIC = ("/login",)
READ = "rulesub.read"  # the scope's key of what the gate read for a page, until it takes it

#: How a page that only reads reads what it shows, as the account asking (``Web.readers``).
Reader = Callable[["Web", HTTPConnection, Account], Any]
MAX_BODY = 4_000_000
TOO_LARGE = (
    f"This request is over the {MAX_BODY // 1_000_000} MB the office reads, and nothing of "
    f"it was read. A Rules Submission is at most {MAX_BYTES // 1_000_000} MB."
)
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class Web:
    """What the handlers share: the store, the templates, the login throttle."""

    def __init__(self, store: Store, throttle: LoginThrottle) -> None:
        self.store = store
        self.throttle = throttle
        self.packs = Packs(store)
        #: The pages that only read (by path, their GET), and how each reads what it shows.
        self.readers: dict[str, Reader] = {}
        self.templates = Environment(
            loader=PackageLoader("validator.web", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,  # the templates are the package's: read once, never changed
        )
        self.templates.filters["in_words"] = _in_words
        self.templates.filters["cited"] = _cited

    def account(self, conn: HTTPConnection) -> Account | None:
        """The signed-in account: by bearer token on ``/api/``, by session elsewhere; and
        only as the audit log made it (``as_logged``)."""
        token = None
        if _api(conn.url.path):
            auth = conn.headers.get("authorization", "")
            scheme, _, token = auth.partition(" ")
            token = token.strip()
            if scheme.lower() != "bearer" or not token:
                return None
            account = acct.by_token(self.store, token)
        else:
            key = conn.session.get(SESSION_KEY)
            if not isinstance(key, str) or not key:
                return None
            account = acct.by_session(self.store, key)
        return None if account is None else self.as_logged(account, token)

    def as_logged(self, account: Account, token: str | None = None) -> Account | None:
        """``account``, where it is as the audit log made it (its role and certificate
        holder as added, its API token issued); else None, and the server's log says why:
        an account written into the database by hand opens nothing. The log's accounts are
        read again only when the log has grown."""
        with self.store.transaction(reading=True) as conn:
            head = queries.KEPT.head(conn)
            kept = queries.KEPT.get(self.store.engine, "accounts as logged")
            if kept is None or kept[0] != head:
                kept = (head, acct.as_logged(conn))
                queries.KEPT.put(self.store.engine, "accounts as logged", head, kept[1])
            why = acct.not_as_logged(conn, account, kept[1], token)
        if why is None:
            return account
        LOG.warning("account %r refused: %s (rulesub audit verify)", account.name, why)
        return None

    def signed_in(
        self, conn: HTTPConnection, reader: Reader | None = None
    ) -> tuple[Account | None, Any]:
        """Who is asking, and with ``reader`` (a page that only reads) what the page shows,
        read as that account: both in one transaction, ended within this one call (on a
        worker thread: a transaction is never kept open across a wait for a thread, where
        on SQLite an open reader would hold back every writer's commit)."""
        with self.store.shared(self.store.open_reading(), close=True):
            account = self.account(conn)
            if reader is None or account is None:
                return account, None
            return account, reader(self, conn, account)

    async def page_reads(self, request: Request) -> Any:
        """What the page shows, as the gate read it with who is asking (else read now)."""
        if READ in request.scope:
            return request.scope.pop(READ)
        reader = self.readers[request.scope["path"]]
        return await run_in_threadpool(reader, self, request, request.scope["account"])

    def render(
        self, request: Request, template: str, status: int = 200, **context: Any
    ) -> Response:
        account = request.scope.get("account")
        flash = request.session.pop("flash", None) if "session" in request.scope else None
        html = self.templates.get_template(template).render(
            account=account,
            csrf=csrf_token(request),
            csrf_field=CSRF_FIELD,
            flash=flash,
            request=request,
            **context,
        )
        return HTMLResponse(html, status_code=status)


class SecurityHeaders:
    """Adds the security headers to every answer, a host refused and a body over the limit
    included: the outermost middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for k, v in HEADERS.items():
                    if k.lower().encode() not in present:
                        headers.append((k.lower().encode(), v.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Gate:
    """Every request but the login page's is signed in, or turned away: a page to the login
    page (303), an ``/api/`` path with 401."""

    def __init__(self, app: ASGIApp, web: Web) -> None:
        self.app = app
        self.web = web

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path not in PUBLIC:
            conn = HTTPConnection(scope)
            # a page that only reads is read with who is asking: one call on a worker thread
            reader = self.web.readers.get(path) if scope["method"] in ("GET", "HEAD") else None
            try:
                account, found = await run_in_threadpool(self.web.signed_in, conn, reader)
            except StoreError as e:  # said in the server's log; the answer names no path
                LOG.error("the store cannot be read: %s", e)
                response: Response = (
                    JSONResponse({"error": UNAVAILABLE}, status_code=503)
                    if _api(path)
                    else PlainTextResponse(f"rulesub: {UNAVAILABLE}", status_code=503)
                )
                await response(scope, receive, send)
                return
            if account is None:
                if _api(path):
                    response = JSONResponse(
                        {"error": "sign in with an API token: Authorization: Bearer TOKEN"},
                        status_code=401,
                        headers={"WWW-Authenticate": 'Bearer realm="rulesub"'},
                    )
                else:
                    target = path + (
                        f"?{scope['query_string'].decode()}" if scope.get("query_string") else ""
                    )
                    response = RedirectResponse(
                        f"/login?next={quote(target, safe='')}", status_code=303
                    )
                await response(scope, receive, send)
                return
            scope["account"] = account
            if reader is not None:
                scope[READ] = found
        if _declared_length(scope) > MAX_BODY:  # said on the page, before a byte is read
            exc = HTTPException(413, TOO_LARGE)
            await (await http_error(Request(scope, receive), exc))(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _declared_length(scope: Scope) -> int:
    """The body's length its ``Content-Length`` declares (0 where none, or unreadable:
    the body limit then counts what arrives)."""
    value = Headers(scope=scope).get("content-length", "")
    return int(value) if value.isdigit() else 0


def _web(request: Request) -> Web:
    return request.app.state.web


def _me(request: Request) -> Account:
    return request.scope["account"]


def _safe_next(target: str | None) -> str:
    """Only a path on this site: never another host (an open redirect)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return "/"  # `/\host`, `/\t/host`: another host to a browser, whatever quotes it
    return target


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


# -- signing in -------------------------------------------------------------------------


async def login_form(request: Request) -> Response:
    return _web(request).render(
        request, "login.html", next=_safe_next(request.query_params.get("next"))
    )


async def login(request: Request) -> Response:
    web = _web(request)
    form = await checked_form(request)
    name = str(form.get("name") or "")
    password = str(form.get("password") or "")
    target = _safe_next(str(form.get("next") or "/"))
    client = _client(request)
    if len(name) > acct.MAX_NAME:  # no account has such a name: neither counted nor kept
        LOG.warning("sign-in refused from %s: a name of %d characters", client, len(name))
        return web.render(
            request,
            "login.html",
            status=401,
            next=target,
            error="Wrong account name or password.",
        )
    wait = web.throttle.begin(client, name)  # counted before the password is tried
    if wait > 0:
        LOG.warning("sign-in turned away from %s as %r: wait %.0f s", client, name, wait)
        refused = web.render(
            request,
            "login.html",
            status=429,
            next=target,
            name=name,
            error=f"Too many failed sign-ins: wait {LoginThrottle.retry_after(wait)} s "
            "before trying again.",
        )
        refused.headers["Retry-After"] = LoginThrottle.retry_after(wait)
        return refused
    account = await run_in_threadpool(acct.authenticate, web.store, name, password)
    if account is not None:  # one the audit log did not make signs in to nothing
        account = await run_in_threadpool(web.as_logged, account)
    if account is None:
        LOG.warning("sign-in failed from %s as %r", client, name)
        return web.render(
            request,
            "login.html",
            status=401,
            next=target,
            name=name,
            error="Wrong account name or password.",
        )
    web.throttle.succeeded(client, name)
    LOG.info("signed in from %s as %r", client, account.name)
    key = await run_in_threadpool(acct.begin_session, web.store, account)
    old = request.session.get(SESSION_KEY)
    if isinstance(old, str) and old:
        await run_in_threadpool(acct.end_session, web.store, old)
    request.session.clear()
    request.session.update({SESSION_KEY: key, CSRF_FIELD: secrets.token_urlsafe(32)})
    return RedirectResponse(target, status_code=303)


async def logout(request: Request) -> Response:
    """Sign out: the session ends in the store, not only in this browser."""
    await checked_form(request)
    key = request.session.get(SESSION_KEY)
    if isinstance(key, str) and key:
        await run_in_threadpool(acct.end_session, _web(request).store, key)
        LOG.info("signed out from %s", _client(request))
    request.session.clear()
    return RedirectResponse("/login", status_code=303)


# -- reading ----------------------------------------------------------------------------


def _visible_rows(
    web: Web, me: Account, facility: str | None = None, game: str | None = None
) -> list[Any]:
    return [r for r in web.store.history(facility, game) if me.sees(r.certificate_holder)]


def _submission(web: Web, me: Account, raw_id: str) -> Any:
    """The submission, if it exists and is this account's to see; else 404 (the same
    answer for both, so that no one learns another holder's submissions exist)."""
    number = filing_number(raw_id)
    if number is None:
        raise HTTPException(404, "no such submission")  # "+5", "٥", past 2^63: no key holds it
    try:
        row = web.store.get(number)
    except StoreError:
        raise HTTPException(404, "no such submission") from None
    if not me.sees(row.certificate_holder):
        raise HTTPException(404, "no such submission")
    return row


def _annotated_lines(row: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stored YAML line by line, each with the recorded findings at that line; the
    findings at no line of the file come apart."""
    text = row.content.decode("utf-8", errors="replace")
    lines = text.splitlines() or [""]
    findings = json.loads(row.findings)
    at: dict[int, list[dict[str, Any]]] = {}
    elsewhere = []
    for f in findings:
        line = f.get("line")
        if isinstance(line, int) and 1 <= line <= len(lines):
            at.setdefault(line, []).append(f)
        else:
            elsewhere.append(f)
    return (
        [{"number": i, "text": t, "findings": at.get(i, [])} for i, t in enumerate(lines, 1)],
        elsewhere,
    )


def _timeline(web: Web, me: Account, row: Any) -> list[dict[str, Any]]:
    rows = _visible_rows(web, me, row.facility, row.game)
    events = web.store.events([r.id for r in rows])
    by_id: dict[int | None, list[Any]] = {}
    for e in events:
        by_id.setdefault(e.submission_id, []).append(
            {"at": e.at, "words": audit_words(e)}  # as `history` and the audit page say it
        )
    return [{"row": r, "events": by_id.get(r.id, [])} for r in rows]


async def submission(request: Request) -> Response:
    web, me = _web(request), _me(request)

    def gather() -> dict[str, Any]:
        row = _submission(web, me, request.path_params["id"])
        lines, elsewhere = _annotated_lines(row)
        return {
            "row": row,
            "lines": lines,
            "elsewhere": elsewhere,
            "findings": json.loads(row.findings),
            "timeline": _timeline(web, me, row),
            "waivers": web.store.waivers_of(row.id),
            "replaces": web.store.replaces(row.id) if row.status == "submitted" else [],
            "today": decision_day().isoformat(),  # the store's day (UTC), not the server's
            "most_words": MOST_WORDS,  # a reason or a note the record prints, at most
        }

    return web.render(request, "submission.html", **await run_in_threadpool(gather))


def _pack_page(section: str) -> Any:
    async def page(request: Request) -> Response:
        from validator.review import html as review_html

        web, me = _web(request), _me(request)

        def gather() -> tuple[Any, Any]:
            row = _submission(web, me, request.path_params["id"])
            return row, web.packs.pack(row, me.sees)

        row, pack = await run_in_threadpool(gather)
        fmt = request.query_params.get("format")
        if fmt is not None and not (section == "par" and fmt == "pdf"):
            named = {"diff": "changes", "math": "paytable math", "par": "par sheet"}[section]
            made = "shown as a page, or printed as pdf" if section == "par" else "shown as a page"
            raise HTTPException(400, f"no {named} as {fmt!r}: it is {made}")
        if section == "par" and fmt == "pdf":
            from validator.web.office import par_pdf_html, pdf_answer, pdf_response

            name = f"par-{row.id}.pdf"
            html = await run_in_threadpool(par_pdf_html, pack)
            if html is None:  # no sheet for this filing: no server could print one
                why = _in_words(pack.par_problem or "no par sheet", row.game)
                return pdf_response(
                    web, request, row, None, f"No par sheet: {why}", name, status=422
                )
            data, problem = await run_in_threadpool(pdf_answer, html, name, "the par sheet")
            return pdf_response(web, request, row, data, problem, name)
        render = {
            "diff": review_html.changes_section,
            "math": review_html.math_section,
            "par": review_html.par_section,  # exact figures only: no simulation in a request
        }[section]
        body = await run_in_threadpool(render, pack)  # the par sheet is made on first reading
        return web.render(
            request,
            "section.html",
            row=row,
            section=section,
            body=Markup(body),
            unreadable=pack.unreadable,
            # the download offered only where there is a sheet to print (none: the page says why)
            has_par=section == "par" and pack.par is not None,
        )

    return page


async def signs(request: Request) -> Response:
    from validator.signage.html import render_html

    web, me = _web(request), _me(request)

    def gather() -> tuple[Any, Any]:
        row = _submission(web, me, request.path_params["id"])
        return row, web.packs.pack(row, me.sees)

    row, pack = await run_in_threadpool(gather)
    if pack.signs is None:
        return web.render(
            request,
            "section.html",
            status=200,
            row=row,
            section="signs",
            body=None,
            problem=pack.signs_problem or "no signs",
            unreadable=pack.unreadable,
        )
    from validator.signage.render import as_posted
    from validator.web.office import document_page

    shown = request.query_params.get("as", "proofs")
    if shown not in ("proofs", "posted"):  # asked, not given: said
        raise HTTPException(400, f"no signs as {shown!r}: they are shown as proofs or as posted")
    posted = shown == "posted"
    html = render_html(as_posted(pack.signs), cite=False) if posted else render_html(pack.signs)
    return document_page(web, request, row, html, "signs", posted=posted)


async def review_pack(request: Request) -> Response:
    from validator.review import render_html, render_markdown

    web, me = _web(request), _me(request)

    def gather() -> tuple[Any, Any]:
        row = _submission(web, me, request.path_params["id"])
        # the chain head as it stands now, on a pack kept for the filing's bytes and status
        return row, web.packs.pack(row, me.sees).headed(web.store.audit_head())

    row, pack = await run_in_threadpool(gather)
    if pack.unreadable:
        raise HTTPException(409, "the stored submission cannot be read: no review pack")
    fmt = request.query_params.get("format")
    if fmt is not None and fmt not in ("pdf", "markdown", "html"):  # asked, not given: said
        raise HTTPException(400, f"no review pack as {fmt!r}: it is made as html, markdown or pdf")
    if fmt == "pdf":
        from validator.review.html import paged_review
        from validator.web.office import pdf_answer, pdf_response

        name = f"review-{row.id}.pdf"
        # as `rulesub review --format pdf` prints it: the contents with their page numbers
        data, problem = await run_in_threadpool(
            pdf_answer, lambda: paged_review(pack), name, "the review pack"
        )
        return pdf_response(web, request, row, data, problem, name)
    if fmt not in ("markdown", "html"):  # read in the browser, inside the office's pages
        from validator.web.office import document_page

        return document_page(web, request, row, render_html(pack), "review")
    if fmt == "markdown":
        text, media, ext = render_markdown(pack), "text/markdown; charset=utf-8", "md"
    else:
        text, media, ext = render_html(pack), "text/html; charset=utf-8", "html"
    return Response(
        text,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="review-{row.id}.{ext}"'},
    )


async def raw(request: Request) -> Response:
    web, me = _web(request), _me(request)
    row = await run_in_threadpool(_submission, web, me, request.path_params["id"])
    return Response(
        row.content,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="submission-{row.id}.yaml"'},
    )


# -- filing and deciding ------------------------------------------------------------------


async def upload_form(request: Request) -> Response:
    web, me = _web(request), _me(request)
    if not me.can_file:
        raise HTTPException(403, f"a {me.role} account does not file submissions")
    return web.render(request, "upload.html")


#: the upload form's fields a refused form gives back: the page's name for each
KEPT = {"pasted": "text", "pasted_name": "name"}


async def upload(request: Request) -> Response:
    web, me = _web(request), _me(request)
    try:
        form = await checked_form(request)
    except HTTPException as e:
        if e.status_code not in (400, 413):
            raise
        return web.render(
            request,
            "upload.html",
            status=413,
            error=f"The upload could not be taken ({e.detail}): a Rules Submission is read "
            "up to 1,000,000 bytes. Nothing was recorded.",
            findings=[],
        )
    if not me.can_file:
        raise HTTPException(403, f"a {me.role} account does not file submissions")
    # a refused form keeps what was pasted, to mend rather than write again
    kept = {k: v if isinstance(v := form.get(f), str) else "" for k, f in KEPT.items()}
    try:
        incoming = await Upload.from_form(form)
    except UploadRefused as e:
        return web.render(request, "upload.html", status=422, error=e.message, findings=[], **kept)
    try:
        recorded = await run_in_threadpool(file_upload, web.store, me, incoming)
    except UploadRefused as e:
        return web.render(
            request, "upload.html", status=e.status, error=e.message, findings=e.findings, **kept
        )
    from validator.store.words import recorded_again

    request.session["flash"] = (
        f"Submission {recorded.id}: {recorded.status} ({recorded_again(recorded.status)})."
        if recorded.already
        else f"Submission {recorded.id} recorded as {recorded.status}."
    )
    return RedirectResponse(f"/submissions/{recorded.id}", status_code=303)


def waivers(text: str) -> dict[str, str] | str:
    """The approval form's waivers, one a line: ``CODE: reason`` (a reason is required);
    or what is wrong with them."""
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        code, sep, reason = line.partition(":")
        if not sep or not code.strip() or not reason.strip():
            return f"Not approved: waiver line {number} is not `CODE: reason`."
        if code.strip() in out:  # never a reason the reviewer wrote dropped without a word
            return (
                f"Not approved: waiver lines {lines[code.strip()]} and {number} both waive "
                f"{code.strip()}: give it one reason."
            )
        out[code.strip()] = reason.strip()
        lines[code.strip()] = number
    return out


def _decide(verb: str) -> Any:
    async def decide(request: Request) -> Response:
        return await _decision(request, verb)

    return decide


async def _decision(request: Request, verb: str) -> Response:
    web, me = _web(request), _me(request)
    form = await checked_form(request)

    decided: dict[str, str] = {}  # the filing's game, for a refusal's words

    def act() -> str:
        row = _submission(web, me, request.path_params["id"])
        decided["game"] = row.game
        if not me.can_decide:
            raise HTTPException(403, f"a {me.role} account cannot {verb} submissions")
        if not me.decides(row.recorded_by):  # separation of duties
            raise HTTPException(
                403, f"{me.name} recorded this filing: another reviewer approves or rejects it"
            )
        if verb == "approve":
            on = None
            if form.get("on"):
                written = str(form.get("on"))
                try:  # the form's date field sends YYYY-MM-DD, the one form taken
                    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", written):
                        raise ValueError(written)
                    on = dt.date.fromisoformat(written)
                except ValueError:
                    return "Not approved: the approval date is YYYY-MM-DD."
            note = str(form.get("note") or "").strip() or None
            waive = waivers(str(form.get("waive") or ""))
            if isinstance(waive, str):
                return waive
            decision = web.store.approve(row.id, me.name, on=on, note=note, waive=waive)
            gone = ", ".join(f"#{i}" for i in decision.superseded)
            return f"Submission {row.id} approved by {me.name}" + (
                f"; it supersedes {gone}." if gone else "."
            )
        reason = str(form.get("reason") or "").strip()
        if not reason:
            return "Not rejected: a rejection states its reason."
        web.store.reject(row.id, me.name, reason)
        return f"Submission {row.id} rejected by {me.name}."

    try:
        request.session["flash"] = await run_in_threadpool(act)
    except (Refused, StoreError) as e:
        request.session["flash"] = refusal_words(e, decided.get("game"))
    return RedirectResponse(f"/submissions/{request.path_params['id']}", status_code=303)


#: How the approval form takes waivers, where the command line says ``--waive CODE=REASON``.
WAIVERS_BOX = "each waived on the form, a line `CODE: reason` under Waivers"


def refusal_words(e: Refused | StoreError, game: str | None = None) -> str:
    """A refusal of the store's as a flash message in the web's terms, never the command
    line's: a finding to waive is waived on the approval form, not with ``--waive``. The one
    place the web words what the store refused (approve, reject, withdraw), read from the
    refusal's kind and fields, never from its command-line wording."""
    if isinstance(e, Refused):
        message = (
            f"{e.head}; an approval needs none, or {WAIVERS_BOX}"
            if isinstance(e, Unwaived)
            else e.message
        )
        lines = [message] + [
            f"line {f.get('line')}: {f.get('severity')} {f.get('code')}: "
            # each field in words, as the page's findings name it, under the filing's game
            + _in_words(str(f.get("message")), game)
            for f in e.findings
        ]
        return "Refused: " + " · ".join(lines)
    if isinstance(e, UnknownWaiver):
        return (
            f"Not approved: a waiver names {', '.join(e.codes)}, no finding of submission "
            f"{e.submission_id}. Each waiver is a line `CODE: reason`, CODE one of its "
            f"findings: {', '.join(e.findings) or 'none'}."
        )
    if isinstance(e, NoSubmission):  # decided on a page read before it was purged
        return f"Not done: submission {e.submission_id} is no longer in the record."
    return f"Not done: {e}"


# -- errors ---------------------------------------------------------------------------------


def _api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


async def http_error(request: Request, exc: Exception) -> Response:
    """An HTTP error in the page's terms (JSON on the API), with the headers the error
    carries: a 405's ``Allow`` (RFC 9110, 15.5.6), a 401's ``WWW-Authenticate``."""
    status = getattr(exc, "status_code", 500)
    detail = getattr(exc, "detail", None) or "error"
    headers = getattr(exc, "headers", None)
    if status == 405:
        headers = {**(headers or {}), "Allow": _allowed(request)}
    if _api(request.url.path):
        return JSONResponse({"error": detail}, status_code=status, headers=headers)
    web = _web(request)
    if "account" not in request.scope:
        return PlainTextResponse(detail, status_code=status, headers=headers)
    page = web.render(request, "error.html", status=status, heading=_heading(status), detail=detail)
    page.headers.update(headers or {})
    return page


# The heading of an error page: what happened in the officer's words, the status beside it.
_HEADINGS = {
    400: "The request could not be read",
    401: "Sign in first",
    403: "Not allowed",
    404: "Not found",
    405: "Not answered this way",
    409: "Not done",
    413: "Too large",
}


def _heading(status: int) -> str:
    words = _HEADINGS.get(status)
    if words is None:
        try:
            words = HTTPStatus(status).phrase
        except ValueError:
            words = "Not done"
    return f"{words} ({status})"


def _allowed(request: Request) -> str:
    """The methods the request's path answers, from every route of it (a path's GET and
    its POST are routes of their own, and Starlette's 405 names only the first's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] is not Match.NONE:
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


UNANSWERED = "rulesub could not answer this request; the server's log says why."


async def server_error(request: Request, exc: Exception) -> Response:
    """Never a traceback page: the officer sees that something failed, the log has it; a
    script on the API reads it as JSON, as every other API answer."""
    if _api(request.url.path):  # outside the gate: its headers are given here
        return JSONResponse({"error": UNANSWERED}, status_code=500, headers=HEADERS)
    return PlainTextResponse(UNANSWERED, status_code=500, headers=HEADERS)


def create_app(
    db: str | None = None,
    *,
    secret: str | None = None,
    throttle: LoginThrottle | None = None,
    secure_cookies: bool = False,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The web application over the store at ``db`` (``--db``, else ``RULESUB_DB``, else
    the default SQLite file). Sessions are signed with ``secret`` (else
    ``RULESUB_SECRET_KEY``, else a key made now) and kept in the store; the session cookie
    is ``Secure`` over HTTPS, and always with ``secure_cookies``. With ``allowed_hosts``
    a request naming another host (``Host:``) is refused with 400 before anything is read:
    a page of another site whose name has been pointed at this machine (DNS rebinding)
    reaches nothing."""
    from validator.web import api, office

    store = Store(
        db, pooled=True
    )  # a server: its connections kept open, from one request to the next
    with store.transaction():  # the schema is this rulesub's (or made, in an empty database)
        pass
    web = Web(store, throttle or LoginThrottle())
    office.install(web)
    key = secret or os.environ.get(ENV_SECRET) or secrets.token_urlsafe(48)
    routes = [
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *office.office_routes(),  # home, submissions, audit, withdraw
        Route("/upload", upload_form, methods=["GET"]),
        Route("/upload", upload, methods=["POST"]),
        Route("/submissions/{id}", submission, methods=["GET"]),
        Route("/submissions/{id}/diff", _pack_page("diff"), methods=["GET"]),
        Route("/submissions/{id}/math", _pack_page("math"), methods=["GET"]),
        Route("/submissions/{id}/par", _pack_page("par"), methods=["GET"]),
        Route("/submissions/{id}/signs", signs, methods=["GET"]),
        Route("/submissions/{id}/review", review_pack, methods=["GET"]),
        Route("/submissions/{id}/raw", raw, methods=["GET"]),
        Route("/submissions/{id}/approve", _decide("approve"), methods=["POST"]),
        Route("/submissions/{id}/reject", _decide("reject"), methods=["POST"]),
        *api.routes,
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeaders),
            # before anything is read: a name pointed at this machine from elsewhere
            *(
                [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
                if allowed_hosts is not None
                else []
            ),
            Middleware(SecureCookies, always=secure_cookies),
            Middleware(
                SessionMiddleware,
                secret_key=key,
                session_cookie="rulesub_session",
                same_site="lax",
                max_age=acct.SESSION_HOURS * 3600,
                https_only=secure_cookies,
            ),
            Middleware(Gate, web=web),
            Middleware(RequestBodyLimitMiddleware, max_body_size=MAX_BODY),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.web = web
    return app


def _cited(cite: str) -> Markup:
    """A citation on a page, escaped, and kept whole where its line wraps (``held_html``)."""
    from validator.wrapping import held_html

    return Markup(held_html(cite))


def _in_words(message: str, game_id: object = None) -> str:
    """A finding's message with each field named in words (``diff.names.in_words``), under
    the game the filing names where it can be compiled."""
    from validator.diff.names import in_words

    game = None
    if isinstance(game_id, str):
        from validator.compiler import load_game
        from validator.errors import RulesubError

        with contextlib.suppress(KeyError, RulesubError):  # a page shows the words it can
            game = load_game(game_id)
    return in_words(game, message)
