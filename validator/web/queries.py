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
import json
import re
import threading
from collections import namedtuple
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, cast
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
)

from validator.store import Store
from validator.store.accounts import Account, accounts
from validator.store.database import audit_head_read
from validator.store.lifecycle import MAX_ID
from validator.store.schema import ACTIONS, STATUSES, audit_log, submissions

PAGE_SIZE = 50

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


def named(columns: list[Any], name: str) -> Any:
    """A named tuple of ``columns``' names: the rows a page reads value by value (50 rows of
    a dozen values each) are read as these, whose values are quicker to read than a
    database row's."""
    return cast(Any, namedtuple)(name, [c.name for c in columns])


#: A listed filing: ``LISTED``'s values by name.
Listed = named(LISTED, "Listed")


@cache
def game_names() -> dict[str, str]:
    """Each shipped game's id and its name as its chapter writes it (``High Card Flush``)."""
    from validator.compiler import game_name
    from validator.model.registry import game_ids

    return {gid: game_name(gid) for gid in game_ids()}


def _day(text: str | None) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None


def filing_number(text: str) -> int | None:
    """A filing's number as every page reads one (a path's id, ``#12`` in a search, the
    audit log's ``submission``): ASCII digits naming an id a database key can hold, 1 to
    2^63 - 1; else ``None``, no filing's (``+5``, ``٥``, ``²``, past 2^63): a page of it
    answers 404, a filter on it matches nothing. Never handed to the database past its
    keys' range, where SQLite refuses it (an ``OverflowError``)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(MAX_ID)):
        return None  # 5,000 digits are no key either, and no int() of Python's reads them
    number = int(text)
    return number if 0 < number <= MAX_ID else None


@dataclass(frozen=True)
class Unread:
    """A list's parameter that could not be read, and so was not applied: its name in the
    query (``effective_from``), as a page says it (``effective from``), the value given and
    what was expected. A page says it (``str``), the API answers it (``json``)."""

    parameter: str
    said: str
    given: str
    expected: str

    def __str__(self) -> str:
        return f"{self.said} {self.given!r} ({self.expected})"

    def json(self) -> dict[str, str]:
        return {"parameter": self.parameter, "given": self.given, "expected": self.expected}


def _unknown(params: Mapping[str, str], known: tuple[str, ...], ignored: list[Unread]) -> None:
    """A parameter the list does not take (``stauts=``, a typo) filters nothing: said. One
    given more than once (``status=submitted&status=approved``) filters by its last value
    alone: the others are said, not dropped unseen."""
    takes = f"the list takes {', '.join(known)}"
    for name, value in params.items():
        if name not in known:
            ignored.append(Unread(name, name, value, takes))
    getlist = getattr(params, "getlist", None)
    if getlist is None:  # a plain mapping holds each name once
        return
    for name in dict.fromkeys(params):
        values = getlist(name)
        if name in known and len(values) > 1:
            once = f"given once: {values[-1]!r}, the last, is applied"
            said = name.replace("_", " ")
            ignored.extend(Unread(name, said, v, once) for v in values[:-1])


def _page(text: str | None, ignored: list[Unread]) -> int:
    """The page asked for: ASCII digits, 1 to 2^63 - 1 (past the last: the last, once
    counted, on a page; none on the API); a page that is no such number is page 1, and
    said in ``ignored``."""
    raw = (text or "").strip()
    if not raw:
        return 1
    number = filing_number(raw)  # the same digits and range as a filing's number
    if number is None:  # "abc", "-1", "0", past the range: one wording for all
        ignored.append(Unread("page", "page", raw, f"a page is a number from 1 to {MAX_ID:,}"))
        return 1
    return number


@dataclass(frozen=True)
class Filters:
    """The submissions list's parameters, as ``/submissions`` and ``/api/submissions``
    take them, read here alone; a value that does not parse, or a parameter the list does
    not take, is dropped (and said, in ``ignored``: a page says it, the API answers 400)."""

    q: str = ""
    status: str = ""
    game: str = ""
    facility: str = ""
    holder: str = ""
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    sort: str = "-recorded"
    page: int = 1
    ignored: tuple[Unread, ...] = field(default=(), compare=False)

    #: The parameters the list takes.
    TAKES = (
        "q",
        "status",
        "game",
        "facility",
        "holder",
        "effective_from",
        "effective_to",
        "sort",
        "page",
    )

    @classmethod
    def of(cls, params: Mapping[str, str]) -> Filters:
        ignored: list[Unread] = []
        _unknown(params, cls.TAKES, ignored)
        status = (params.get("status") or "").strip()
        if status and status not in STATUSES:
            ignored.append(Unread("status", "status", status, f"one of {', '.join(STATUSES)}"))
            status = ""
        sort = (params.get("sort") or "-recorded").strip()
        if sort not in SORTS:
            ignored.append(Unread("sort", "sort", sort, f"one of {', '.join(SORTS)}"))
            sort = "-recorded"
        days = {}
        for name in ("effective_from", "effective_to"):
            raw = params.get(name) or ""
            days[name] = _day(raw)
            if raw and days[name] is None:
                said = name.replace("_", " ")
                ignored.append(Unread(name, said, raw, "a date is YYYY-MM-DD"))
        return cls(
            q=(params.get("q") or "").strip(),
            status=status,
            game=(params.get("game") or "").strip(),
            facility=(params.get("facility") or "").strip(),
            holder=(params.get("holder") or "").strip(),
            effective_from=days["effective_from"],
            effective_to=days["effective_to"],
            sort=sort,
            page=_page(params.get("page"), ignored),
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


#: The list's statements are made once for each shape of filters (which ones are given,
#: the order), their values bound when they run: building a statement again for each
#: request costs more than the database's answer to it. Shapes are few; these many kept.
SHAPES = 512


def _bound(
    f: Filters,
    me: Account,
    dialect: str,
    choices: Mapping[str, list[str]],
    *,
    with_status: bool = True,
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The filters' conditions by name (the statement's shape, for ``_where``), and the
    values they are run with. ``seen`` keeps a casino account to its holder's filings."""
    names: list[str] = []
    values: dict[str, Any] = {}

    def put(name: str, value: Any) -> None:
        names.append(name)
        values[name] = value

    if me.role == "casino":
        put("seen", me.certificate_holder)
    if f.q:
        found = _search(f.q, dialect, choices)
        names.extend(found or ["q_none"])
        values.update(found)
    if f.status and with_status:
        # SQLite, not knowing how many filings a facility or a status holds, would walk the
        # status's index for its order and test every filing of that status; a facility's
        # filings are fewer: its index is read (`|| ''` keeps the status's from being used)
        apart = f.facility and dialect == "sqlite"
        names.append("status_apart" if apart else "status")
        values["status"] = f.status
    for name in ("game", "facility", "holder", "effective_from", "effective_to"):
        value = getattr(f, name)
        if value:
            put(name, value)
    return tuple(names), values


@lru_cache(maxsize=SHAPES)
def _where(shape: tuple[str, ...], dialect: str) -> tuple[Any, ...]:
    """The ``WHERE`` of a shape of filters (``_bound``), each value a parameter named as
    its condition."""
    c = submissions.c
    made = {
        "seen": lambda: c.certificate_holder == bindparam("seen"),
        "status": lambda: c.status == bindparam("status"),
        "status_apart": lambda: c.status.concat("") == bindparam("status"),
        "game": lambda: c.game == bindparam("game"),
        "facility": lambda: c.facility == bindparam("facility"),
        "holder": lambda: c.certificate_holder == bindparam("holder"),
        "effective_from": lambda: c.effective >= bindparam("effective_from"),
        "effective_to": lambda: c.effective <= bindparam("effective_to"),
    }
    searched = {
        "q_holders": lambda: c.certificate_holder.in_(bindparam("q_holders", expanding=True)),
        "q_facilities": lambda: c.facility.in_(bindparam("q_facilities", expanding=True)),
        "q_games": lambda: c.game.in_(bindparam("q_games", expanding=True)),
        "q_words": lambda: c.id.in_(_with_words(dialect)),
        "q_number": lambda: c.id == bindparam("q_number"),
        "q_none": false,
    }
    where: list[Any] = []
    found = [searched[name]() for name in shape if name in searched]
    if found:
        where.append(or_(*found))
    where.extend(made[name]() for name in shape if name in made)
    return tuple(where)


def _search(q: str, dialect: str, choices: Mapping[str, list[str]]) -> dict[str, Any]:
    """What ``q=`` matches, each by its name in ``_where``: a certificate holder, facility
    or game (its id or its name) containing it, whatever the case; the filing's number; or
    a filing whose file name and text hold each of its words (each word as the start of
    one: ``lake`` finds Lakeside). ``#12`` is filing 12 alone (the ``#`` says a number is
    meant, not the many words starting with 12). Holders, facilities and games are few: the
    ones containing ``q`` are found among the list's choices and asked for by value (an
    index reads them); the words are looked up in the filings' full-text index (migration
    0007), never in the filings' bytes. Nothing found: an empty dict (matches none)."""
    if q.startswith("#") and q[1:].isdigit():  # `#12`: that filing, by its number alone
        number = filing_number(q[1:])  # past any key's range: no filing (matches none)
        return {} if number is None else {"q_number": number}
    folded = q.casefold()
    names = game_names()
    found: dict[str, Any] = {}
    for name, values, named in (
        ("q_holders", choices["holders"], False),
        ("q_facilities", choices["facilities"], False),
        ("q_games", choices["games"], True),
    ):
        hits = [
            v
            for v in values
            if folded in v.casefold() or (named and folded in names.get(v, v).casefold())
        ]
        if hits:
            found[name] = hits
    words = words_of(q)
    if words:
        found["q_words"] = _words_query(words, dialect)
    number = filing_number(q.lstrip("#"))
    if number is not None:
        found["q_number"] = number
    return found


def words_of(text: str) -> list[str]:
    """A search's words, as the full-text index splits a filing's text: runs of letters
    and digits, lower-cased."""
    return re.findall(r"[^\W_]+", text.casefold())


@lru_cache(maxsize=2)
def _with_words(dialect: str) -> Any:
    """The ids of the filings whose file name or text has a word starting with each of the
    words ``:q_words`` gives (``_words_query``)."""
    if dialect == "postgresql":
        return (
            select(literal_column("id"))
            .select_from(text("submissions_text"))
            .where(text("words @@ to_tsquery('simple', :q_words)"))
        )
    return (
        select(literal_column("rowid"))
        .select_from(text("submissions_text"))
        .where(text("submissions_text MATCH :q_words"))
    )


def _words_query(words: list[str], dialect: str) -> str:
    """The full-text index's query for each of ``words`` as the start of a word."""
    if dialect == "postgresql":
        return " & ".join(f"{w}:*" for w in words)
    return " ".join(f'"{w}"*' for w in words)  # quoted: no word is read as an operator


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

    #: The audit log's last entry's id, read by every page: the statement made once.
    HEAD = select(func.max(audit_log.c.id))

    @classmethod
    def head(cls, conn: Any) -> int:
        """The audit log's last entry's id (0: none): as the reading transaction read it
        with its schema version, else read now."""
        read = audit_head_read(conn)
        if read is not None:
            return read
        return int(conn.execute(cls.HEAD).scalar() or 0)

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


#: For each (facility, game, effective date, certificate holder, bound) of ``:keys``, the
#: pending filings of that table and holder numbered below the bound, with the key's place
#: in ``:keys``: one statement whatever the count of keys (made and planned once), each
#: key's filings a range of the facility's index, read from it alone (never from a filing's
#: row, whose bytes come before its facility).
#:
#: SQLite: the keys as a JSON array, walked first (``CROSS JOIN`` keeps them the outer
#: loop, where the planner would otherwise walk every pending filing).
SAME_DATES_SQLITE = text("""
SELECT s.id, k.key AS which
FROM json_each(:keys) AS k
CROSS JOIN submissions AS s
  ON s.facility = json_extract(k.value, '$[0]') AND s.game = json_extract(k.value, '$[1]')
 AND s.effective = json_extract(k.value, '$[2]') AND s.status = 'submitted'
 AND s.certificate_holder IS json_extract(k.value, '$[3]')
 AND s.id < json_extract(k.value, '$[4]')
""")
#: PostgreSQL: the keys as arrays, one for each part of a key.
SAME_DATES_POSTGRESQL = text("""
SELECT s.id, k.which - 1 AS which
FROM unnest(CAST(:facilities AS text[]), CAST(:games AS text[]), CAST(:effectives AS date[]),
            CAST(:holders AS text[]), CAST(:belows AS integer[]))
     WITH ORDINALITY AS k (facility, game, effective, holder, below, which)
JOIN submissions AS s
  ON s.facility = k.facility AND s.game = k.game AND s.effective = k.effective
 AND s.status = 'submitted' AND s.id < k.below
 AND s.certificate_holder IS NOT DISTINCT FROM k.holder
""")


def _older_pending(conn: Any, keys: list[tuple[Any, ...]], below: list[int]) -> Any:
    """For each (facility, game, effective date, certificate holder) of ``keys``, the
    pending filings numbered below its bound in ``below``: (filing, the key's index)."""
    if conn.dialect.name == "postgresql":
        columns = ("facilities", "games", "effectives", "holders")
        values = {name: [k[i] for k in keys] for i, name in enumerate(columns)}
        return conn.execute(SAME_DATES_POSTGRESQL, {**values, "belows": below})
    rows = [[f, g, e.isoformat(), h, b] for (f, g, e, h), b in zip(keys, below, strict=True)]
    return conn.execute(SAME_DATES_SQLITE, {"keys": json.dumps(rows)})


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
    same: dict[tuple[Any, ...], list[int]] = {}
    for oid, which in _older_pending(conn, keys, [below[k] for k in keys]):
        same.setdefault(keys[which], []).append(oid)
    out: dict[int, list[int]] = {}
    for r in pend:
        key = (r.facility, r.game, r.effective, r.certificate_holder)
        older = sorted(o for o in same.get(key, ()) if o < r.id)
        if older:
            out[r.id] = older
    return out


@lru_cache(maxsize=SHAPES)
def _counting(shape: tuple[str, ...], dialect: str) -> Select[Any]:
    c = submissions.c
    return select(c.status, func.count()).where(*_where(shape, dialect)).group_by(c.status)


@lru_cache(maxsize=SHAPES)
def _listing(shape: tuple[str, ...], dialect: str, sort: str) -> Select[Any]:
    """A page of the filings a shape of filters selects: the page's ids from the listing
    index, and only those rows, in one statement (a search never reads the filings it does
    not show). ``:limit`` and ``:offset`` say the page."""
    order = SORTS[sort][1]
    ids = (
        select(submissions.c.id)
        .where(*_where(shape, dialect))
        .order_by(*order)
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    return select(*LISTED).where(submissions.c.id.in_(ids)).order_by(*order)


def _by_status(
    conn: Any, engine: Any, me: Account, f: Filters, head: int, choices: Mapping[str, list[str]]
) -> dict[str, int]:
    """How many filings the filters but ``status`` select, by status (kept per head)."""
    seen = me.certificate_holder if me.role == "casino" else None
    key = ("by status", seen, replace(f, status="", sort="-recorded", page=1))
    kept = KEPT.get(engine, key)
    if kept is not None and kept[0] == head:
        return dict(kept[1])
    dialect = engine.dialect.name
    shape, values = _bound(f, me, dialect, choices, with_status=False)
    counted = {s: int(n) for s, n in conn.execute(_counting(shape, dialect), values)}
    KEPT.put(engine, key, head, counted)
    return dict(counted)


def search_submissions(
    store: Store,
    me: Account,
    f: Filters,
    *,
    with_replacing: bool = False,
    past_last: bool = False,
) -> SubmissionPage:
    """One page of the filings ``f`` selects among those ``me`` may read (``with_replacing``:
    and, for each pending one, the earlier pending filings it would replace). A page past
    the last is the last (a page's reader), or that page, empty (``past_last``: the API's)."""
    dialect = store.engine.dialect.name
    with store.transaction(reading=True) as conn:
        head = KEPT.head(conn)
        choices = _choices(conn, store.engine, me, head)
        by_status = _by_status(conn, store.engine, me, f, head, choices)
        total = by_status.get(f.status, 0) if f.status else sum(by_status.values())
        pages = max(1, -(-total // PAGE_SIZE))
        page = f.page if past_last else min(f.page, pages)
        rows = []
        if page <= pages:  # past the last, nothing to read
            shape, values = _bound(f, me, dialect, choices)
            values.update(limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
            listing = _listing(shape, dialect, f.sort)
            rows = [Listed._make(r) for r in conn.execute(listing, values)]
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


@cache
def _pending(casino: bool) -> tuple[Select[Any], Select[Any]]:
    """How many filings await a decision, and the first ``:limit`` of them, oldest first
    (``casino``: those naming the holder ``:seen``)."""
    c = submissions.c
    where = [c.status == "submitted"]
    if casino:
        where.append(c.certificate_holder == bindparam("seen"))
    count = select(func.count()).select_from(submissions).where(*where)
    rows = select(*LISTED).where(*where).order_by(c.recorded_at, c.id).limit(bindparam("limit"))
    return count, rows


def pending(store: Store, me: Account, limit: int = 200) -> tuple[list[Any], int]:
    """The filings awaiting a decision, oldest first, and how many there are (that count
    kept while the audit log's last entry is the same)."""
    casino = me.role == "casino"
    counting, listing = _pending(casino)
    values: dict[str, Any] = {"seen": me.certificate_holder} if casino else {}
    with store.transaction(reading=True) as conn:
        head = KEPT.head(conn)
        key = ("pending", me.certificate_holder if casino else None)
        kept = KEPT.get(store.engine, key)
        if kept is not None and kept[0] == head:
            total = kept[1]
        else:
            total = conn.execute(counting, values).scalar()
            KEPT.put(store.engine, key, head, total)
        rows = [Listed._make(r) for r in conn.execute(listing, {**values, "limit": limit})]
    return rows, int(total or 0)


# -- the audit log ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditFilters:
    """``/audit``'s parameters: ``submission`` (a filing's number), ``actor`` (an account),
    ``action`` (one of the store's ``ACTIONS``), ``date_from`` and ``date_to`` (UTC days,
    both included), ``page``, and the page's ``format`` (``html``, ``csv``, ``json``); a
    value that does not parse, or a parameter the log does not take, is dropped (and said,
    in ``ignored``, as ``Filters`` says it: the page says it, an export answers 400)."""

    submission: str = ""  # as given, ASCII digits: one past any key's range selects nothing
    actor: str = ""
    action: str = ""
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    page: int = 1
    ignored: tuple[Unread, ...] = field(default=(), compare=False)

    #: The parameters the log takes, and the forms it is given in.
    TAKES = ("submission", "actor", "action", "date_from", "date_to", "page", "format")
    FORMATS = ("html", "csv", "json")

    @classmethod
    def of(cls, params: Mapping[str, str]) -> AuditFilters:
        ignored: list[Unread] = []
        _unknown(params, cls.TAKES, ignored)
        raw = (params.get("submission") or "").strip().lstrip("#")
        submission = raw if raw.isascii() and raw.isdigit() else ""
        if raw and not submission:
            ignored.append(
                Unread(
                    "submission",
                    "filing number",
                    raw,
                    "a filing's number is written in the digits 0 to 9",
                )
            )
        action = (params.get("action") or "").strip()
        if action and action not in ACTIONS:
            ignored.append(Unread("action", "action", action, f"one of {', '.join(ACTIONS)}"))
            action = ""
        days = {}
        for name, said in (("date_from", "date from"), ("date_to", "date to")):
            given = (params.get(name) or "").strip()
            days[name] = _day(given)
            if given and days[name] is None:
                ignored.append(Unread(name, said, given, "a date is YYYY-MM-DD"))
        shape = params.get("format") or "html"  # as the page reads it: not stripped
        if shape not in cls.FORMATS:
            ignored.append(Unread("format", "format", shape, f"one of {', '.join(cls.FORMATS)}"))
        return cls(
            submission=submission,
            actor=(params.get("actor") or "").strip(),
            action=action,
            date_from=days["date_from"],
            date_to=days["date_to"],
            page=_page(params.get("page"), ignored),
            ignored=tuple(ignored),
        )

    def params(self, **change: Any) -> dict[str, str]:
        f = replace(self, **change)
        out = {
            "submission": f.submission,
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

    def bound(self) -> tuple[tuple[str, ...], dict[str, Any]]:
        """The filters given, by name (the shape of ``_audit_where``), and their values:
        the days as the instants they start and end at (UTC; the last day included). A
        filing number no key can hold selects no entry; the last day the calendar has
        (9999-12-31) ends after every entry, so it bounds nothing."""
        names: list[str] = []
        values: dict[str, Any] = {}

        def put(name: str, value: Any) -> None:
            names.append(name)
            values[name] = value

        if self.submission:
            number = filing_number(self.submission)
            if number is None:
                names.append("nothing")
            else:
                put("submission", number)
        if self.actor:
            put("actor", self.actor)
        if self.action:
            put("action", self.action)
        if self.date_from:
            put("at_from", dt.datetime.combine(self.date_from, dt.time(), tzinfo=dt.UTC))
        if self.date_to and self.date_to < dt.date.max:
            end = self.date_to + dt.timedelta(days=1)
            put("at_to", dt.datetime.combine(end, dt.time(), tzinfo=dt.UTC))
        return tuple(names), values


@lru_cache(maxsize=64)
def _audit_where(shape: tuple[str, ...]) -> tuple[Any, ...]:
    """The ``WHERE`` of a shape of the audit log's filters (``AuditFilters.bound``)."""
    c = audit_log.c
    made = {
        "nothing": false,
        "submission": lambda: c.submission_id == bindparam("submission"),
        "actor": lambda: c.actor == bindparam("actor"),
        "action": lambda: c.action == bindparam("action"),
        "at_from": lambda: c.at >= bindparam("at_from"),
        "at_to": lambda: c.at < bindparam("at_to"),
    }
    return tuple(made[name]() for name in shape)


@lru_cache(maxsize=64)
def _audit_query(shape: tuple[str, ...], newest_first: bool) -> Select[Any]:
    """The entries a shape of filters selects: newest first, a page (``:limit`` from
    ``:offset``); or oldest first, those after the entry ``:after`` (an export's batch)."""
    c = audit_log.c
    query = select(audit_log).where(*_audit_where(shape))
    if newest_first:
        return query.order_by(c.id.desc()).limit(bindparam("limit")).offset(bindparam("offset"))
    return query.where(c.id > bindparam("after")).order_by(c.id).limit(bindparam("limit"))


@lru_cache(maxsize=64)
def _audit_count(shape: tuple[str, ...]) -> Select[Any]:
    """How many entries a shape of filters selects among those after ``:since`` up to
    ``:upto``."""
    c = audit_log.c
    return (
        select(func.count())
        .select_from(audit_log)
        .where(*_audit_where(shape), c.id > bindparam("since"), c.id <= bindparam("upto"))
    )


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


FACTS = select(
    submissions.c.id,
    submissions.c.facility,
    submissions.c.game,
    submissions.c.effective,
    submissions.c.certificate_holder,
    submissions.c.filename,
).where(submissions.c.id.in_(bindparam("ids", expanding=True)))

ACTORS = select(accounts.c.name).order_by(accounts.c.name)

#: An audit entry's values by name; a filing's that an entry names (``_filing_facts``).
Entry = named(list(audit_log.c), "Entry")
Facts = named(list(FACTS.selected_columns), "Facts")


def _filing_facts(conn: Any, ids: set[int]) -> dict[int, Any]:
    if not ids:
        return {}
    return {r.id: r for r in map(Facts._make, conn.execute(FACTS, {"ids": sorted(ids)}))}


def _audit_total(conn: Any, engine: Any, f: AuditFilters) -> int:
    """How many entries ``f`` selects: counted once, then only among the entries since
    (the log only grows, its ids following the commits)."""
    head = KEPT.head(conn)
    key = ("audit", replace(f, page=1))
    kept = KEPT.get(engine, key)
    if kept is not None and kept[0] == head:
        return int(kept[1])
    since, before = (kept[0], int(kept[1])) if kept is not None and kept[0] < head else (0, 0)
    shape, values = f.bound()
    query = _audit_count(shape)
    total = before + int(
        conn.execute(query, {**values, "since": since, "upto": head}).scalar() or 0
    )
    KEPT.put(engine, key, head, total)
    return total


def search_audit(store: Store, f: AuditFilters) -> AuditPage:
    """One page of the audit log, newest first, as ``f`` selects it."""
    shape, values = f.bound()
    with store.transaction(reading=True) as conn:
        total = _audit_total(conn, store.engine, f)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(f.page, pages)
        at = {"limit": PAGE_SIZE, "offset": (page - 1) * PAGE_SIZE}
        events = [Entry._make(e) for e in conn.execute(_audit_query(shape, True), {**values, **at})]
        actors = [a for (a,) in conn.execute(ACTORS)]
        facts = _filing_facts(conn, {e.submission_id for e in events if e.submission_id})
    return AuditPage(
        events, total, page, pages, replace(f, page=page), list(ACTIONS), actors, facts
    )


def audit_stream(store: Store, f: AuditFilters, batch: int = 2000) -> Iterator[list[Any]]:
    """Every event ``f`` selects, oldest first, a batch at a time (keyset pagination: each
    batch is its own short read, so an export of the whole log never holds it in memory)."""
    shape, values = f.bound()
    query = _audit_query(shape, False)
    after = 0
    while True:
        with store.transaction(reading=True) as conn:
            rows = [
                Entry._make(e)
                for e in conn.execute(query, {**values, "after": after, "limit": batch})
            ]
            facts = _filing_facts(conn, {e.submission_id for e in rows if e.submission_id})
        if not rows:
            return
        yield [(e, facts.get(e.submission_id)) for e in rows]
        after = rows[-1].id
