"""The office's working pages: the home page (what awaits a decision, oldest first), the
submissions list with its search, the audit log in words with its exports, a holder's
withdrawal of a pending filing, and the review pack and par sheet printed to PDF.

The searches are ``validator.web.queries``'s (done by the database); the events' words are
``validator.store.words.audit_words``'s, the one place an audit entry becomes a sentence
(the page, the CSV and the JSON export, and `rulesub history`, say the same).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import case, func, select
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse

from validator.compiler import game_name
from validator.counts import plural
from validator.store import Refused, StoreError, lifecycle
from validator.store.accounts import Account
from validator.store.lifecycle import history_entry, in_force_on, iso
from validator.store.names import file_name
from validator.store.names import key as name_key
from validator.store.schema import submissions as subs
from validator.store.words import action_name, audit_words
from validator.web import queries
from validator.web.queries import AuditFilters, Filters
from validator.web.security import checked_form

# -- words ------------------------------------------------------------------------------------


def age(since: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """How long ago, as an office says it: ``3 days``, ``5 hours``, ``12 minutes``."""
    if since is None:
        return ""
    now = now or dt.datetime.now(dt.UTC)
    if since.tzinfo is None:
        since = since.replace(tzinfo=dt.UTC)
    seconds = max(0, int((now - since).total_seconds()))
    if seconds >= 2 * 86400:
        return plural(seconds // 86400, "day")
    if seconds >= 3600:
        return plural(seconds // 3600, "hour")
    return plural(max(1, seconds // 60), "minute")


@cache
def status_badge(status: str) -> Markup:
    """A filing's status as every page shows it (its class colours it); the statuses are
    few, each made once."""
    shown = escape(status)
    return Markup(f'<span class="status status-{shown}">{shown}</span>')


_MARKUP = re.compile("[&<>\"']")


def said(value: str) -> str:
    """``value`` as HTML text, escaped as ``markupsafe.escape`` escapes it: a table's names,
    file names and dates mostly hold nothing to escape, and are then written as they are."""
    return str(escape(value)) if _MARKUP.search(value) else value


def rows(row: Callable[..., str], items: list[Any], *more: Any) -> Markup:
    """A table's rows, each made by ``row(item, *more)``, in one call from the template."""
    return Markup("\n".join([row(item, *more) for item in items]))


def finding_counts(row: Any) -> str:
    """``2 errors, 1 warning``: a filing's findings when it was recorded."""
    return f"{plural(row.errors, 'error')}, {plural(row.warnings, 'warning')}"


def numbers(ids: list[int]) -> str:
    """Filings by number: ``#3, #7``."""
    return ", ".join(f"#{n}" for n in ids)


def decided(row: Any) -> str:
    """How a filing's decision reads in a list: ``approved 2027-01-01 by rev``, ``withdrawn
    2026-12-02``, or nothing while it waits."""
    if row.approved_by:
        return f"approved {row.approved_on} by {row.approved_by}"
    if row.rejected_by:
        return f"rejected {row.rejected_on} by {row.rejected_by}"
    if row.status in ("withdrawn", "replaced") and row.decided_at:
        return f"{row.status} {row.decided_at.strftime('%Y-%m-%d')}"
    return ""


def submission_row(row: Any, replacing: dict[int, list[int]]) -> str:
    """A filing's row in the submissions list: its number (and the filings it would
    replace), facility, game, effective date, status, findings, holder, filing, decision
    and file name, each value escaped. Made here, in one call, not by the template: a list
    of 50 makes it 50 times a page. Dates, numbers and counts are written as they are (no
    character of theirs is escaped); what a person wrote is escaped."""
    sid = row.id
    replaces = (
        f' <span class="replaces">replaces {said(numbers(replacing[sid]))}</span>'
        if sid in replacing
        else ""
    )
    holder = row.certificate_holder or "(not stated)"
    filed = row.recorded_at.strftime("%Y-%m-%d %H:%M")
    return (
        f'  <tr>\n    <td class="num" data-label="Filing"><a href="/submissions/{sid}">#{sid}</a>'
        f"{replaces}</td>\n"
        f'    <td data-label="Facility">{said(row.facility)}</td>'
        f'<td data-label="Game">{said(game_name(row.game))}</td>'
        f'<td class="date" data-label="Effective">{row.effective}</td>\n'
        f'    <td data-label="Status">{status_badge(row.status)}</td>'
        f'<td data-label="Findings">{finding_counts(row)}</td>\n'
        f'    <td data-label="Certificate holder">{said(holder)}</td>\n'
        f'    <td data-label="Filed"><span class="date">{filed}</span> by {said(row.recorded_by)}'
        "</td>\n"
        f'    <td data-label="Decided">{said(decided(row))}</td>\n'
        f'    <td data-label="File">{said(file_name(row.filename))}</td>\n  </tr>'
    )


def pending_row(row: Any, replacing: dict[int, list[int]], now: dt.datetime) -> str:
    """A filing's row on the home page: its number (and the filings it would replace),
    how long it has waited, holder, facility, game, effective date and findings, each value
    escaped; made here in one call, as ``submission_row``."""
    sid = row.id
    replaces = (
        f' <span class="replaces">replaces {said(numbers(replacing[sid]))}</span>'
        if sid in replacing
        else ""
    )
    return (
        f'  <tr>\n    <td class="num" data-label="Filing"><a href="/submissions/{sid}">#{sid}</a>'
        f"{replaces}</td>\n"
        f'    <td data-label="Waiting">{age(row.recorded_at, now)}</td>\n'
        f'    <td data-label="Certificate holder">'
        f"{said(row.certificate_holder or '(not stated)')}</td>\n"
        f'    <td data-label="Facility">{said(row.facility)}</td>\n'
        f'    <td data-label="Game">{said(game_name(row.game))}</td>\n'
        f'    <td class="date" data-label="Effective">{row.effective}</td>\n'
        f'    <td data-label="Findings">{finding_counts(row)}</td>\n  </tr>'
    )


def audit_row(event: Any, facts: dict[int, Any]) -> str:
    """An audit entry's row on the audit page: its place in the chain, when, and what
    happened in words (a link to the filing it is about; ``facts``: the filings the page's
    entries name), each value escaped."""
    place = chain_place(event)
    chain = f"{place['sequence']}" + (f" · {said(place['hash'])}" if place["hash"] else "")
    words = said(audit_words(event, facts.get(event.submission_id)))
    what = (
        f'<a href="/submissions/{int(event.submission_id)}">{words}</a>'
        if event.submission_id
        else words
    )
    return (
        f'  <tr>\n    <td data-label="Entry"><span class="chain">{chain}</span></td>\n'
        f'    <td data-label="When">{event.at.strftime("%Y-%m-%d %H:%M:%S")}</td>\n'
        f'    <td class="words" data-label="What">{what}</td>\n  </tr>'
    )


def chain_place(event: Any) -> dict[str, Any]:
    """The entry's place in the audit chain: its sequence number, and its hash where the
    log is hash-chained."""
    entry_hash = getattr(event, "entry_hash", None)
    return {"sequence": event.id, "hash": entry_hash[:12] if entry_hash else None}


# -- helpers ----------------------------------------------------------------------------------


def _web(request: Request) -> Any:
    return request.app.state.web


def _me(request: Request) -> Account:
    return request.scope["account"]


def _replacing(store: Any, rows: list[Any]) -> dict[int, list[int]]:
    """For each pending row, the same holder's earlier pending filings it would replace."""
    if not any(r.status == "submitted" for r in rows):
        return {}
    with store.transaction(reading=True) as conn:
        return queries.replacing(conn, rows)


def _facilities(web: Any, me: Account) -> Markup:
    """The home page's facilities and their games, as the page shows them: they change
    only with an entry in the audit log, so they are kept, made, while its last is the same."""
    store = web.store
    with store.transaction(reading=True) as conn:
        head = queries.KEPT.head(conn)
        today = lifecycle.utcnow().date()  # the approval in force changes with the day
        key = ("facilities", me.certificate_holder if me.role == "casino" else None, today)
        kept = queries.KEPT.get(store.engine, key)
        if kept is not None and kept[0] == head:
            return Markup(kept[1])
        tables = _tables(conn, me, today)
    made = Markup(web.templates.get_template("_facilities.html").render(tables=tables))
    queries.KEPT.put(store.engine, key, head, made)
    return made


def _tables(conn: Any, me: Account, today: dt.date) -> dict[str, list[dict[str, Any]]]:
    """Each facility's games: how many filings, how many pending, the approval in force
    ``today`` (``in_force_on``) and the next one approved to take effect after it."""
    seen = queries.visible_to(me)
    pending = func.sum(case((subs.c.status == "submitted", 1), else_=0))
    counted = list(
        conn.execute(
            select(subs.c.facility, subs.c.game, func.count(), pending)
            .where(seen)
            .group_by(subs.c.facility, subs.c.game)
            .order_by(subs.c.facility, subs.c.game)
        )
    )
    decided: dict[tuple[str, str], list[Any]] = {}
    for r in conn.execute(
        select(
            subs.c.id, subs.c.facility, subs.c.game, subs.c.effective, subs.c.status,
            subs.c.superseded_on,
        ).where(seen, subs.c.status.in_(("approved", "superseded")))
    ):  # fmt: skip
        decided.setdefault((name_key(r.facility), r.game), []).append(r)
    approved = {k: in_force_on(rows, today) for k, rows in decided.items()}
    upcoming = {
        k: min(later, key=lambda r: (r.effective, r.id))
        for k, rows in decided.items()
        # one that holds on its own effective date, by the one rule of what is in force
        if (later := [r for r in rows if r.effective > today and in_force_on([r], r.effective)])
    }
    # one facility under every spelling of its name (``names.key``), as the store finds
    # and supersedes it: shown under the first spelling, its counts summed
    shown: dict[str, str] = {}
    games: dict[tuple[str, str], dict[str, Any]] = {}
    for facility, game, count, waiting in counted:
        k = name_key(facility)
        shown.setdefault(k, facility)
        row = games.setdefault(
            (k, game),
            {
                "game": game,
                "name": game_name(game),
                "count": 0,
                "pending": 0,
                "approved": approved.get((k, game)),
                "upcoming": upcoming.get((k, game)),
            },
        )
        row["count"] += count
        row["pending"] += int(waiting or 0)
    out: dict[str, list[dict[str, Any]]] = {}
    for (k, _), row in games.items():
        out.setdefault(shown[k], []).append(row)
    return out


# -- pages ------------------------------------------------------------------------------------


def _home_reads(web: Any, conn: HTTPConnection, me: Account) -> dict[str, Any]:
    rows, total = queries.pending(web.store, me, limit=queries.PAGE_SIZE)
    return {
        "pending": rows,
        "pending_total": total,
        "replacing": _replacing(web.store, rows),
        "facilities": _facilities(web, me),
        "now": dt.datetime.now(dt.UTC),
    }


async def home(request: Request) -> Response:
    web = _web(request)
    return web.render(request, "home.html", **await web.page_reads(request))


def _list_reads(web: Any, conn: HTTPConnection, me: Account) -> queries.SubmissionPage:
    filters = Filters.of(conn.query_params)
    return queries.search_submissions(web.store, me, filters, with_replacing=True)


async def submissions(request: Request) -> Response:
    web = _web(request)
    found = await web.page_reads(request)
    return web.render(
        request,
        "submissions.html",
        sorts={k: v[0] for k, v in queries.SORTS.items()},
        statuses=queries.STATUSES,
        found=found,
        replacing=found.replacing,
    )


def not_applied(ignored: tuple[queries.Unread, ...]) -> JSONResponse:
    """A JSON list asked with parameters it cannot read: 400, naming each, the value given
    and what was expected (a page says the same, "Not applied: …"), never a list unfiltered."""
    return JSONResponse(
        {
            "error": "Not applied: " + "; ".join(map(str, ignored)),
            "not_applied": [u.json() for u in ignored],
        },
        status_code=400,
    )


def _api_list_reads(
    web: Any, conn: HTTPConnection, me: Account
) -> queries.SubmissionPage | Filters:
    """The API's page of filings; or, where a parameter cannot be read, its filters alone
    (answered 400, nothing searched)."""
    filters = Filters.of(conn.query_params)
    if filters.ignored:
        return filters
    return queries.search_submissions(web.store, me, filters, past_last=True)


async def api_submissions(request: Request) -> Response:
    """``GET /api/submissions``: the list's parameters; the body is the page's filings (50
    a page, each as ``history --format json`` prints it), the headers say the page and the
    total: ``X-Total-Count``, ``X-Page``, ``X-Pages`` and a ``Link`` to the next page. A
    page past the last is empty; a parameter it cannot read is a 400 (``not_applied``)."""
    found = await _web(request).page_reads(request)
    if isinstance(found, Filters):
        return not_applied(found.ignored)
    headers = {
        "X-Total-Count": str(found.total),
        "X-Page": str(found.page),
        "X-Pages": str(found.pages),
    }
    if found.page < found.pages:
        headers["Link"] = (
            f'<{found.filters.link("/api/submissions", page=found.page + 1)}>; rel="next"'
        )
    return JSONResponse([history_entry(r, served=True) for r in found.rows], headers=headers)


def _reviewer_only(me: Account) -> None:
    if me.role == "casino":
        raise HTTPException(404, "no such page")


def _event_json(event: Any, facts: Any) -> dict[str, Any]:
    place = chain_place(event)
    try:
        detail = json.loads(event.detail)
    except ValueError:
        detail = event.detail
    return {
        "sequence": place["sequence"],
        "entry_hash": getattr(event, "entry_hash", None),
        "at": iso(event.at),
        "account": event.actor,
        "action": event.action,
        "submission": event.submission_id,
        "words": audit_words(event, facts),
        "detail": detail,
    }


CSV_FIELDS = ["sequence", "entry_hash", "at", "account", "action", "submission", "words", "detail"]


def _csv_lines(web: Any, filters: AuditFilters) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
    writer.writeheader()
    for batch in queries.audit_stream(web.store, filters):
        for event, facts in batch:
            row = _event_json(event, facts)
            row["detail"] = json.dumps(row["detail"], ensure_ascii=False)
            writer.writerow(row)
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


def _json_lines(web: Any, filters: AuditFilters) -> Iterator[str]:
    yield "["
    first = True
    for batch in queries.audit_stream(web.store, filters):
        for event, facts in batch:
            yield ("" if first else ",\n") + json.dumps(
                _event_json(event, facts), ensure_ascii=False
            )
            first = False
    yield "]\n"


def _audit_reads(web: Any, conn: HTTPConnection, me: Account) -> queries.AuditPage | None:
    """The audit log's page; nothing for a casino account (the page answers 404) nor for
    an export (it reads in batches of its own, as it streams)."""
    if me.role == "casino" or conn.query_params.get("format", "html") in ("csv", "json"):
        return None
    return queries.search_audit(web.store, AuditFilters.of(conn.query_params))


async def audit(request: Request) -> Response:
    web, me = _web(request), _me(request)
    _reviewer_only(me)
    found = await web.page_reads(request)
    fmt = request.query_params.get("format", "html")
    if fmt in ("csv", "json"):
        filters = AuditFilters.of(request.query_params)
        if filters.ignored:  # an export says nothing of a filter it dropped: refused
            return not_applied(filters.ignored)
        media = "text/csv; charset=utf-8" if fmt == "csv" else "application/json"
        lines = _csv_lines(web, filters) if fmt == "csv" else _json_lines(web, filters)
        return StreamingResponse(
            lines,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="audit-log.{fmt}"'},
        )
    return web.render(request, "audit.html", found=found)


# -- a filing's life --------------------------------------------------------------------------


async def withdraw(request: Request) -> Response:
    """``POST /submissions/{id}/withdraw``: the holder's casino account takes back its own
    pending filing; it stays in the record as ``withdrawn``."""
    from validator.web.app import _submission, refusal_words

    web, me = _web(request), _me(request)
    await checked_form(request)

    def act() -> str:
        row = _submission(web, me, request.path_params["id"])
        if me.role != "casino":
            raise HTTPException(
                403, "only the certificate holder's casino account withdraws its filing"
            )
        web.store.withdraw(row.id, me.name)
        return f"Submission {row.id} withdrawn by {me.name}; it stays in the record."

    try:
        request.session["flash"] = await run_in_threadpool(act)
    except (Refused, StoreError) as e:
        request.session["flash"] = refusal_words(e)
    return RedirectResponse(f"/submissions/{request.path_params['id']}", status_code=303)


# -- documents --------------------------------------------------------------------------------

#: Chromiums printing at once (each a browser of its own, a few hundred MB and a core): a
#: request past them waits ``PRINT_WAIT`` seconds for one, then is told to try again (503).
PRINTING = threading.BoundedSemaphore(2)
PRINT_WAIT = 60.0


def pdf_answer(
    html: str | Callable[[], str], name: str, what: str
) -> tuple[bytes | None, str | None]:
    """``html`` printed by Chromium on the server: the PDF's bytes, or why there is none.
    ``html`` may be made here (a callable): the review pack's, whose contents' page numbers
    are found by printing it once (``review.html.paged_review``), needs Chromium too."""
    from validator.review.pdf import PdfError, chromium, print_pdf

    if chromium() is None:
        return None, (
            f"This server cannot print {what} to PDF: Chromium is not installed on it. "
            "Open the HTML version and print it from your browser."
        )
    if not PRINTING.acquire(timeout=PRINT_WAIT):
        return None, (
            f"This server is printing other documents and cannot print {what} now: try "
            "again in a minute, or open the HTML version and print it from your browser."
        )
    try:
        with tempfile.TemporaryDirectory(prefix="rulesub-pdf-") as tmp:
            out = Path(tmp) / name
            try:
                print_pdf(html if isinstance(html, str) else html(), out, what)
            except PdfError as e:
                said = str(e) if "--" not in str(e) else f"Chromium could not print {what}"
                return None, f"{said}. Open the HTML version and print it from your browser."
            return out.read_bytes(), None
    finally:
        PRINTING.release()


def pdf_response(
    web: Any,
    request: Request,
    row: Any,
    data: bytes | None,
    problem: str | None,
    name: str,
    *,
    status: int = 503,
) -> Response:
    """The PDF, or a page saying why there is none: 503 where this server cannot print it
    (no Chromium), ``status`` where the filing has no such document (422)."""
    if data is None:
        return web.render(
            request,
            "section.html",
            status=status,
            row=row,
            section="pdf",
            body=None,
            problem=problem,
            unreadable=None,
        )
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def document_page(
    web: Any, request: Request, row: Any, html: str, section: str, **context: Any
) -> Response:
    """A printable document (the review pack, the signs) read in the browser, inside the
    office's pages: its body and its style, under the navigation and the filing's tabs, its
    headings one level down (the page's own title is its one ``h1``)."""
    body = html.split("<body>", 1)[1].rsplit("</body>", 1)[0] if "<body>" in html else html
    style = html.split("<style>", 1)[1].split("</style>", 1)[0] if "<style>" in html else ""
    return web.render(
        request,
        "document.html",
        row=row,
        section=section,
        body=Markup(demoted(body)),
        doc_style=Markup(demoted_style(style).replace("</", "<\\/")),
        **context,
    )


def demoted(html: str) -> str:
    """HTML with every heading tag one level down (``<h1>`` → ``<h2>``); text that names
    one ("h1" in a file's name, a reason, a link) is left as written."""
    return re.sub(r"<(/?)h([1-5])(?=[\s>/])", lambda m: f"<{m[1]}h{int(m[2]) + 1}", html)


def demoted_style(css: str) -> str:
    """A stylesheet's heading selectors one level down, to match ``demoted``; a rule's
    declarations (``content: "…"``) are left as written."""

    def selectors(m: re.Match[str]) -> str:
        return re.sub(r"\bh([1-5])\b", lambda h: f"h{int(h[1]) + 1}", m[1]) + m[2]

    return re.sub(r"([^{}]*)(\{[^{}]*\})", selectors, css)


def par_pdf_html(pack: Any) -> str | None:
    """The par sheet of ``pack`` as ``rulesub par FILE --format pdf`` prints it: with its
    identification block (holder, facility, effective date, the filing's sha256, the
    regulation version, when it was prepared), made by the one function the command uses
    (``review.cover.identification``) from the filing's stored bytes. None: no sheet."""
    from validator.par.render import html_report
    from validator.review.html import pack_draft
    from validator.signage.checked import draft_note

    if pack.par is None:
        return None
    sheet = {**pack.par, "identification": sheet_identification(pack)}
    if pack_draft(pack):  # as `rulesub par --allow-findings` marks it: every page, each error
        errors = [f for f in pack.findings if f.severity == "error"]
        sheet["draft"] = {
            "reason": "made under a Rules Submission with errors",
            "findings": [draft_note(f, pack.game) for f in errors],
        }
    return html_report(sheet)


def sheet_identification(pack: Any) -> dict[str, str | None]:
    """``review.cover.identification`` of the filing a pack is made from (its bytes, as
    stored: the file they were read from is gone)."""
    from validator.review.cover import identification

    with tempfile.TemporaryDirectory(prefix="rulesub-ident-") as tmp:
        path = Path(tmp) / "submission.yaml"
        path.write_bytes(pack.content)
        return identification(path, pack.game.id)


def install(web: Any) -> None:
    """How the pages that only read read what they show (with who is asking, in one
    transaction: ``Web.signed_in``), and what every page may say: a game's name, how long
    ago, a status, a filing's findings (functions, not the templates' macros: a list calls
    them on every row)."""
    web.readers.update(
        {
            "/": _home_reads,
            "/submissions": _list_reads,
            "/api/submissions": _api_list_reads,
            "/audit": _audit_reads,
        }
    )
    web.templates.globals.update(
        game_name=game_name,
        file_name=file_name,
        age=age,
        plural=plural,
        action_name=action_name,
        status=status_badge,
        counts=finding_counts,
        numbers=numbers,
        decided=decided,
        submission_row=submission_row,
        pending_row=pending_row,
        audit_row=audit_row,
        rows=rows,
    )


def office_routes() -> list[Any]:
    from starlette.routing import Route

    return [
        Route("/", home, methods=["GET"]),
        Route("/submissions", submissions, methods=["GET"]),
        Route("/audit", audit, methods=["GET"]),
        Route("/submissions/{id}/withdraw", withdraw, methods=["POST"]),
    ]


__all__ = ["api_submissions", "audit_words", "office_routes", "pdf_answer"]
