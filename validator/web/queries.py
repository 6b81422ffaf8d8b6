"""The office's searches, done by the database: the submissions list (filters, sort, a page
of 50, counts by status) and the audit log (filters, a page, a streamed export).

Every query carries the account's visibility in its ``WHERE``: a casino account reads only
the filings naming its certificate holder, and never the audit log (the pages answer 404).
Nothing here reads all rows into Python: the database filters, counts, sorts and pages.
The counts and the list's choices are kept while the audit log's last entry stays the same
(``KeptByHead``), and ``q``'s words are looked up in the filings' full-text index.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any
from urllib.parse import urlencode
from weakref import WeakKeyDictionary

from sqlalchemy import (
    Select,
    and_,
    bindparam,
    false,
    func,
    literal_column,
    or_,
    select,
    text,
    union_all,
)

from validator.store import Store
from validator.store.accounts import Account, accounts
from validator.store.schema import STATUSES, audit_log, submissions

PAGE_SIZE = 50

#: What the audit log records, as its ``action`` column names it.
ACTIONS = (
    "record",
    "approve",
    "reject",
    "withdraw",
    "supersede",
    "replace",
    "purge",
    "upgrade",
    "account-add",
    "account-remove",
    "account-password",
    "account-token",
)

#: The list's orders, as ``sort=`` names them; the first is the default (newest first).
SORTS: dict[str, tuple[str, Any]] = {
    "-recorded": (
        "Newest filed first",
        (submissions.c.recorded_at.desc(), submissions.c.id.desc()),
    ),
    "recorded": ("Oldest filed first", (submissions.c.recorded_at, submissions.c.id)),
    "-effective": (
        "Latest effective first",
        (submissions.c.effective.desc(), submissions.c.id.desc()),
    ),
    "effective": ("Earliest effective first", (submissions.c.effective, submissions.c.id)),
    "facility": ("Facility, game", (submissions.c.facility, submissions.c.game, submissions.c.id)),
    "holder": ("Certificate holder", (submissions.c.certificate_holder, submissions.c.id)),
    "status": ("Status", (submissions.c.status, submissions.c.id)),
}

#: A listed filing's columns: all but its bytes and the findings' JSON (a list shows their
#: counts), the widest values of a row.
LISTED = [c for c in submissions.c if c.name not in ("content", "findings", "approval_findings")]


@cache
def game_names() -> dict[str, str]:
    """Each shipped game's id and its name as its chapter writes it (``High Card Flush``)."""
    from validator.compiler import load_game
    from validator.model.registry import game_ids

    names = {}
    for gid in game_ids():
        try:
            names[gid] = load_game(gid).definition.name
        except Exception:  # a game file that does not compile keeps its id as its name
            names[gid] = gid
    return names


@cache
def game_name(game_id: str) -> str:
    """A game's name for a page; a game this rulesub does not ship keeps the name filed."""
    from validator.compiler import load_game

    try:
        return str(load_game(game_id).definition.name)
    except Exception:
        return game_id


def _day(text: str | None) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None


def _page(text: str | None) -> int:
    try:
        return max(1, int(text or 1))
    except ValueError:
        return 1


@dataclass(frozen=True)
class Filters:
    """The submissions list's parameters, as ``/submissions`` and ``/api/submissions``
    take them; a value that does not parse is dropped (and said, in ``ignored``)."""

    q: str = ""
    status: str = ""
    game: str = ""
    facility: str = ""
    holder: str = ""
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    sort: str = "-recorded"
    page: int = 1
    ignored: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, params: Mapping[str, str]) -> Filters:
        ignored = []
        status = (params.get("status") or "").strip()
        if status and status not in STATUSES:
            ignored.append(f"status {status!r} (one of {', '.join(STATUSES)})")
            status = ""
        sort = (params.get("sort") or "-recorded").strip()
        if sort not in SORTS:
            ignored.append(f"sort {sort!r}")
            sort = "-recorded"
        days = {}
        for name in ("effective_from", "effective_to"):
            raw = params.get(name) or ""
            days[name] = _day(raw)
            if raw and days[name] is None:
                ignored.append(f"{name.replace('_', ' ')} {raw!r} (a date is YYYY-MM-DD)")
        return cls(
            q=(params.get("q") or "").strip(),
            status=status,
            game=(params.get("game") or "").strip(),
            facility=(params.get("facility") or "").strip(),
            holder=(params.get("holder") or "").strip(),
            effective_from=days["effective_from"],
            effective_to=days["effective_to"],
            sort=sort,
            page=_page(params.get("page")),
            ignored=tuple(ignored),
        )

    def params(self, **change: Any) -> dict[str, str]:
        """The filters as query parameters (the defaults left out), ``change`` applied."""
        f = replace(self, **change)
        out = {
            "q": f.q,
            "status": f.status,
            "game": f.game,
            "facility": f.facility,
            "holder": f.holder,
            "effective_from": f.effective_from.isoformat() if f.effective_from else "",
            "effective_to": f.effective_to.isoformat() if f.effective_to else "",
            "sort": "" if f.sort == "-recorded" else f.sort,
            "page": "" if f.page == 1 else str(f.page),
        }
        return {k: v for k, v in out.items() if v}

    def link(self, path: str = "/submissions", **change: Any) -> str:
        query = urlencode(self.params(**change))
        return f"{path}?{query}" if query else path

    @property
    def any(self) -> bool:
        return bool(self.params(sort="-recorded", page=1))


def visible_to(me: Account) -> Any:
    """The ``WHERE`` that keeps an account to the filings it may read."""
    if me.role == "casino":
        return submissions.c.certificate_holder == me.certificate_holder
    return and_(True)


def _conditions(
    f: Filters, dialect: str, choices: Mapping[str, list[str]], *, with_status: bool = True
) -> list[Any]:
    c = submissions.c
    where: list[Any] = []
    if f.q:
        where.append(or_(*_search(f.q, dialect, choices)))
    if f.status and with_status:
        # SQLite, not knowing how many filings a facility or a status holds, would walk the
        # status's index for its order and test every filing of that status; a facility's
        # filings are fewer: its index is read (`|| ''` keeps the status's from being used)
        status = c.status.concat("") if f.facility and dialect == "sqlite" else c.status
        where.append(status == f.status)
    if f.game:
        where.append(c.game == f.game)
    if f.facility:
        where.append(c.facility == f.facility)
    if f.holder:
        where.append(c.certificate_holder == f.holder)
    if f.effective_from:
        where.append(c.effective >= f.effective_from)
    if f.effective_to:
        where.append(c.effective <= f.effective_to)
    return where


def _search(q: str, dialect: str, choices: Mapping[str, list[str]]) -> list[Any]:
    """What ``q=`` matches: a certificate holder, facility or game (its id or its name)
    containing it, whatever the case; the filing's number; or a filing whose file name and
    text hold each of its words (each word as the start of one: ``lake`` finds Lakeside).
    Holders, facilities and games are few: the ones containing ``q`` are found among the
    list's choices and asked for by value (an index reads them); the words are looked up in
    the filings' full-text index (migration 0007), never in the filings' bytes."""
    c = submissions.c
    folded = q.casefold()
    names = game_names()
    found: list[Any] = []
    for column, values in (
        (c.certificate_holder, choices["holders"]),
        (c.facility, choices["facilities"]),
        (c.game, choices["games"]),
    ):
        hits = [
            v
            for v in values
            if folded in v.casefold() or (column is c.game and folded in names.get(v, v).casefold())
        ]
        if hits:
            found.append(column.in_(hits))
    words = words_of(q)
    if words:
        found.append(c.id.in_(_with_words(dialect, words)))
    if q.lstrip("#").isdigit():
        found.append(c.id == int(q.lstrip("#")))
    return found or [false()]


def words_of(text: str) -> list[str]:
    """A search's words, as the full-text index splits a filing's text: runs of letters
    and digits, lower-cased."""
    return re.findall(r"[^\W_]+", text.casefold())


def _with_words(dialect: str, words: list[str]) -> Any:
    """The ids of the filings whose file name or text has a word starting with each of
    ``words``."""
    if dialect == "postgresql":
        query = " & ".join(f"{w}:*" for w in words)
        return (
            select(literal_column("id"))
            .select_from(text("submissions_text"))
            .where(text("words @@ to_tsquery('simple', :words)").bindparams(words=query))
        )
    query = " ".join(f'"{w}"*' for w in words)  # quoted: no word is read as an operator
    return (
        select(literal_column("rowid"))
        .select_from(text("submissions_text"))
        .where(text("submissions_text MATCH :words").bindparams(words=query))
    )


@dataclass
class SubmissionPage:
    rows: list[Any]
    total: int
    page: int
    pages: int
    by_status: dict[str, int]  # the filters' matches by status, whatever ``status=`` says
    filters: Filters
    facilities: list[str]
    games: list[str]
    holders: list[str]
    replacing: dict[int, list[int]] = field(default_factory=dict)


class KeptByHead:
    """Figures that change only with an entry in the audit log, kept while the log's last
    entry is the same: the list's choices and its counts by status, and the audit log's
    counts (those grown only by the entries since).

    A filing is recorded, decided or purged only with an entry in the log, in the same
    transaction, and the log only grows; its appends take turns to the end of their
    transactions (SQLite's writers, PostgreSQL's advisory lock), so its ids follow the
    commits: the entries up to an id are all there once that id is. The head is read
    before the figures, so what is kept for a head is never older than it.
    """

    #: Figures kept per store, at most (past it, all are forgotten and read again).
    MOST = 256

    def __init__(self) -> None:
        self._kept: WeakKeyDictionary[Any, dict[Any, tuple[int, Any]]] = WeakKeyDictionary()
        self._lock = threading.Lock()

    @staticmethod
    def head(conn: Any) -> int:
        """The audit log's last entry's id (0: none)."""
        return int(conn.execute(select(func.max(audit_log.c.id))).scalar() or 0)

    def get(self, engine: Any, key: Any) -> tuple[int, Any] | None:
        """What was kept for ``key``, with the head it was read at."""
        with self._lock:
            return self._kept.get(engine, {}).get(key)

    def put(self, engine: Any, key: Any, head: int, value: Any) -> None:
        with self._lock:
            here = self._kept.setdefault(engine, {})
            if len(here) >= self.MOST:
                here.clear()
            here[key] = (head, value)


KEPT = KeptByHead()


def _choices(conn: Any, engine: Any, me: Account, head: int) -> dict[str, list[str]]:
    """The facilities, games and certificate holders of the filings ``me`` may read."""
    key = ("choices", me.certificate_holder if me.role == "casino" else None)
    kept = KEPT.get(engine, key)
    if kept is not None and kept[0] == head:
        return dict(kept[1])
    c = submissions.c
    combos = list(
        conn.execute(
            select(c.facility, c.game, c.certificate_holder).where(visible_to(me)).distinct()
        )
    )
    choices = {
        name: sorted({r[i] for r in combos if r[i] is not None})
        for i, name in enumerate(("facilities", "games", "holders"))
    }
    KEPT.put(engine, key, head, choices)
    return dict(choices)


@cache
def _same_dates(count: int) -> Any:
    """For each of ``count`` (facility, game, effective date, certificate holder), the
    pending filings numbered below a bound, each with the number of the one it is of. Each
    is a range of the facility's index, read from it alone (never from a filing's row,
    whose bytes come before its facility). One statement for each count, so it is built
    and compiled once."""
    c = submissions.c
    return union_all(
        *(
            select(c.id, literal_column(str(i)).label("which")).where(
                c.facility == bindparam(f"facility{i}"),
                c.game == bindparam(f"game{i}"),
                c.effective == bindparam(f"effective{i}"),
                c.status == bindparam("pending"),
                c.certificate_holder.is_not_distinct_from(
                    bindparam(f"holder{i}", type_=c.certificate_holder.type)
                ),
                c.id < bindparam(f"below{i}"),
            )
            for i in range(count)
        )
    )


def replacing(conn: Any, rows: list[Any]) -> dict[int, list[int]]:
    """For each pending row, the same holder's earlier pending filings it would replace
    (same facility, game and effective date). One query reads from an index only the
    pending filings of those holders and dates numbered below the rows; they are matched
    to the rows here."""
    pend = sorted((r for r in rows if r.status == "submitted"), key=lambda r: r.id)
    if not pend:
        return {}
    below: dict[tuple[Any, ...], int] = {}
    for r in pend:
        key = (r.facility, r.game, r.effective, r.certificate_holder)
        below[key] = max(below.get(key, 0), r.id)
    keys = list(below)
    values: dict[str, Any] = {"pending": "submitted"}
    for i, (facility, game, effective, holder) in enumerate(keys):
        values.update({f"facility{i}": facility, f"game{i}": game, f"effective{i}": effective})
        values.update({f"holder{i}": holder, f"below{i}": below[keys[i]]})
    same: dict[tuple[Any, ...], list[int]] = {}
    for oid, which in conn.execute(_same_dates(len(keys)), values):
        same.setdefault(keys[which], []).append(oid)
    out: dict[int, list[int]] = {}
    for r in pend:
        key = (r.facility, r.game, r.effective, r.certificate_holder)
        older = sorted(o for o in same.get(key, ()) if o < r.id)
        if older:
            out[r.id] = older
    return out


def _by_status(
    conn: Any, engine: Any, me: Account, f: Filters, head: int, choices: Mapping[str, list[str]]
) -> dict[str, int]:
    """How many filings the filters but ``status`` select, by status (kept per head)."""
    seen = me.certificate_holder if me.role == "casino" else None
    key = ("by status", seen, replace(f, status="", sort="-recorded", page=1))
    kept = KEPT.get(engine, key)
    if kept is not None and kept[0] == head:
        return dict(kept[1])
    where = [visible_to(me), *_conditions(f, engine.dialect.name, choices, with_status=False)]
    counted = {
        s: int(n)
        for s, n in conn.execute(
            select(submissions.c.status, func.count()).where(*where).group_by(submissions.c.status)
        )
    }
    KEPT.put(engine, key, head, counted)
    return dict(counted)


def search_submissions(
    store: Store, me: Account, f: Filters, *, with_replacing: bool = False
) -> SubmissionPage:
    """One page of the filings ``f`` selects among those ``me`` may read (``with_replacing``:
    and, for each pending one, the earlier pending filings it would replace)."""
    seen = visible_to(me)
    dialect = store.engine.dialect.name
    with store.transaction(reading=True) as conn:
        head = KEPT.head(conn)
        choices = _choices(conn, store.engine, me, head)
        where = [seen, *_conditions(f, dialect, choices)]
        by_status = _by_status(conn, store.engine, me, f, head, choices)
        total = by_status.get(f.status, 0) if f.status else sum(by_status.values())
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(f.page, pages)
        # the page's ids from the listing index, and only those rows, in one statement: a
        # search never reads the filings it does not show
        order = SORTS[f.sort][1]
        ids: Select[Any] = (
            select(submissions.c.id)
            .where(*where)
            .order_by(*order)
            .limit(PAGE_SIZE)
            .offset((page - 1) * PAGE_SIZE)
        )
        rows = list(conn.execute(select(*LISTED).where(submissions.c.id.in_(ids)).order_by(*order)))
        replaced = replacing(conn, rows) if with_replacing else {}
    return SubmissionPage(
        rows,
        total,
        page,
        pages,
        {s: by_status.get(s, 0) for s in STATUSES},
        replace(f, page=page),
        **choices,
        replacing=replaced,
    )


def pending(store: Store, me: Account, limit: int = 200) -> tuple[list[Any], int]:
    """The filings awaiting a decision, oldest first, and how many there are (that count
    kept while the audit log's last entry is the same)."""
    where = [visible_to(me), submissions.c.status == "submitted"]
    with store.transaction(reading=True) as conn:
        head = KEPT.head(conn)
        key = ("pending", me.certificate_holder if me.role == "casino" else None)
        kept = KEPT.get(store.engine, key)
        if kept is not None and kept[0] == head:
            total = kept[1]
        else:
            total = conn.execute(
                select(func.count()).select_from(submissions).where(*where)
            ).scalar()
            KEPT.put(store.engine, key, head, total)
        rows = list(
            conn.execute(
                select(*LISTED)
                .where(*where)
                .order_by(submissions.c.recorded_at, submissions.c.id)
                .limit(limit)
            )
        )
    return rows, int(total or 0)


# -- the audit log ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditFilters:
    """``/audit``'s parameters: ``submission`` (a filing's number), ``actor`` (an account),
    ``action``, ``date_from`` and ``date_to`` (UTC days, both included), ``page``."""

    submission: int | None = None
    actor: str = ""
    action: str = ""
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    page: int = 1

    @classmethod
    def of(cls, params: Mapping[str, str]) -> AuditFilters:
        raw = (params.get("submission") or "").strip().lstrip("#")
        return cls(
            submission=int(raw) if raw.isdigit() else None,
            actor=(params.get("actor") or "").strip(),
            action=(params.get("action") or "").strip(),
            date_from=_day(params.get("date_from")),
            date_to=_day(params.get("date_to")),
            page=_page(params.get("page")),
        )

    def params(self, **change: Any) -> dict[str, str]:
        f = replace(self, **change)
        out = {
            "submission": "" if f.submission is None else str(f.submission),
            "actor": f.actor,
            "action": f.action,
            "date_from": f.date_from.isoformat() if f.date_from else "",
            "date_to": f.date_to.isoformat() if f.date_to else "",
            "page": "" if f.page == 1 else str(f.page),
        }
        return {k: v for k, v in out.items() if v}

    def link(self, path: str = "/audit", **change: Any) -> str:
        query = urlencode(self.params(**change))
        return f"{path}?{query}" if query else path

    def where(self) -> list[Any]:
        c = audit_log.c
        out: list[Any] = []
        if self.submission is not None:
            out.append(c.submission_id == self.submission)
        if self.actor:
            out.append(c.actor == self.actor)
        if self.action:
            out.append(c.action == self.action)
        if self.date_from:
            out.append(c.at >= dt.datetime.combine(self.date_from, dt.time(), tzinfo=dt.UTC))
        if self.date_to:
            end = self.date_to + dt.timedelta(days=1)
            out.append(c.at < dt.datetime.combine(end, dt.time(), tzinfo=dt.UTC))
        return out


@dataclass
class AuditPage:
    events: list[Any]
    total: int
    page: int
    pages: int
    filters: AuditFilters
    actions: list[str]
    actors: list[str]
    facts: dict[int, Any]  # the filings the page's events name: id → row (facility, game…)


def _filing_facts(conn: Any, ids: set[int]) -> dict[int, Any]:
    if not ids:
        return {}
    c = submissions.c
    query = select(c.id, c.facility, c.game, c.effective, c.certificate_holder, c.filename)
    return {r.id: r for r in conn.execute(query.where(c.id.in_(sorted(ids))))}


def _audit_total(conn: Any, engine: Any, f: AuditFilters) -> int:
    """How many entries ``f`` selects: counted once, then only among the entries since
    (the log only grows, its ids following the commits)."""
    head = KEPT.head(conn)
    key = ("audit", replace(f, page=1))
    kept = KEPT.get(engine, key)
    upto = audit_log.c.id <= head
    if kept is not None and kept[0] == head:
        return int(kept[1])
    if kept is not None and kept[0] < head:
        since = audit_log.c.id > kept[0]
        query = select(func.count()).select_from(audit_log).where(*f.where(), since, upto)
        total = int(kept[1]) + int(conn.execute(query).scalar() or 0)
    else:
        query = select(func.count()).select_from(audit_log).where(*f.where(), upto)
        total = int(conn.execute(query).scalar() or 0)
    KEPT.put(engine, key, head, total)
    return total


def search_audit(store: Store, f: AuditFilters) -> AuditPage:
    """One page of the audit log, newest first, as ``f`` selects it."""
    where = f.where()
    with store.transaction(reading=True) as conn:
        total = _audit_total(conn, store.engine, f)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(f.page, pages)
        events = list(
            conn.execute(
                select(audit_log)
                .where(*where)
                .order_by(audit_log.c.id.desc())
                .limit(PAGE_SIZE)
                .offset((page - 1) * PAGE_SIZE)
            )
        )
        actors = [a for (a,) in conn.execute(select(accounts.c.name).order_by(accounts.c.name))]
        facts = _filing_facts(conn, {e.submission_id for e in events if e.submission_id})
    return AuditPage(
        events, total, page, pages, replace(f, page=page), list(ACTIONS), actors, facts
    )


def audit_stream(store: Store, f: AuditFilters, batch: int = 2000) -> Iterator[list[Any]]:
    """Every event ``f`` selects, oldest first, a batch at a time (keyset pagination: each
    batch is its own short read, so an export of the whole log never holds it in memory)."""
    after = 0
    while True:
        with store.transaction(reading=True) as conn:
            rows = list(
                conn.execute(
                    select(audit_log)
                    .where(*f.where(), audit_log.c.id > after)
                    .order_by(audit_log.c.id)
                    .limit(batch)
                )
            )
            facts = _filing_facts(conn, {e.submission_id for e in rows if e.submission_id})
        if not rows:
            return
        yield [(e, facts.get(e.submission_id)) for e in rows]
        after = rows[-1].id
