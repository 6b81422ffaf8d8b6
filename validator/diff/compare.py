"""What changes between two Rules Submissions of one game, or between two paytables.

For each selection that changed: the hands as rows with the old and new payout, the exact
hold before and after (from the odds engine), and every other stated value that changed
(meters, limits, dealing and deck change, wagers offered). For two submissions, also the
validator's findings that the new one has and the old did not.

Reading choices, written down once:

- A selection is compared as written: ``/paytables/aces_up`` from ``A`` to ``C``. Whether a
  wager is offered at all is its own change (``/offered``).
- A change of a progressive's meters or wager amount carries the hold of its table before
  and after (the meter share is valued at the stated seed), when the table's letter did not
  change; when it did, the paytable's change carries both.
- A finding is "new" when the old submission had no finding of the same code at the same
  place (JSON pointer); its wording may differ with the figures.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from validator.compiler import Game
from validator.diff.holds import Hold, long_run, rows_hold, table_hold
from validator.diff.names import value_words
from validator.model.base import HoursCount
from validator.model.game import Rows, Table
from validator.model.notation import Payout, PayoutKind, format_money, format_rate
from validator.model.submission.document import RulesSubmission
from validator.model.submission.problems import MISREAD
from validator.pointer import escape, parts

#: How the changes are grouped, by the first part of their path, in this order.
GROUPS = {
    "paytables": "Paytables",
    "custom_paytables": "Paytables",
    "offered": "Wagers offered",
    "progressives": "Progressive meters",
    "payout_limit": "Limits",
    "table": "Limits",
    "dealing": "Dealing and deck change",
    "regulation": "Regulation notices",
}
OTHER = "Other"


@dataclass(frozen=True)
class HandRow:
    hand: str  # category id, as the game file names it
    name: str  # as the chapter prints it
    old: str | None
    new: str | None
    old_as: str | None = None  # the table has no row of its own: paid as this category
    new_as: str | None = None
    #: the wagers a table printed by the amount wagered pays its sums on (§ 641a.12(d)(5))
    wagers: tuple[Decimal | None, Decimal | None] = (None, None)

    @property
    def changed(self) -> bool:
        return self.old != self.new


@dataclass
class Change:
    path: str  # JSON pointer into the submission
    old: str | None
    new: str | None
    title: str = ""
    hands: list[HandRow] = field(default_factory=list)
    hold_old: Hold | None = None
    hold_new: Hold | None = None
    cite: str | None = None
    where: str | None = None  # ``file:line`` stating it: the new submission's, else the old's
    #: the old and the new submission state it in a form not read (``None`` shown as that)
    misread: tuple[bool, bool] = (False, False)
    #: the wagers a table printed by the amount wagered is read at (else ``None``)
    wagers: tuple[Decimal | None, Decimal | None] = (None, None)
    table_id: str | None = None  # the table whose holds it carries
    #: where more than one value of the progressive changed, those that move the long run
    #: it carries ("reseed", "rate of progression"): the seed moves none of it
    moved_with: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        return GROUPS.get(parts(self.path)[0], OTHER)

    @property
    def hold_delta(self) -> Fraction | None:
        if self.hold_old is None or self.hold_new is None:
            return None
        if self.hold_old.value is None or self.hold_new.value is None:
            return None
        return self.hold_new.value - self.hold_old.value

    @property
    def long_run_delta(self) -> Fraction | None:
        """The move of a progressive's hold in the long run (increments counted)."""
        old, new = (h.long_run_hold if h else None for h in (self.hold_old, self.hold_new))
        return None if old is None or new is None else new - old

    @property
    def has_long_run(self) -> bool:
        """Whether either hold has a long-run figure (a progressive's)."""
        return any(h is not None and h.long_run is not None for h in (self.hold_old, self.hold_new))

    @property
    def has_hold(self) -> bool:
        return self.hold_old is not None or self.hold_new is not None


@dataclass
class GameDiff:
    game: Game
    old_label: str
    new_label: str
    changes: list[Change] = field(default_factory=list)
    new_findings: list[Any] = field(default_factory=list)
    new_errors: int = 0
    new_warnings: int = 0
    submissions: bool = True  # two submissions (False: two of the chapter's paytables)
    between_dates: bool = False  # the regulation's own changes between two dates
    #: what either submission wrote that was not read as written (a misspelt `paytabels:`):
    #: compared as if left out, and said so before the changes
    not_read: list[Any] = field(default_factory=list)


# -- paytables ---------------------------------------------------------------------------


def table_title(game: Game, wid: str, tid: str, table: Table) -> str:
    """A wager's own table goes by the wager's name; another by its own and the wager's."""
    wager = game.definition.wagers[wid].name
    return wager if tid == wid else f"{table.name} ({wager})"


def _text(payout: Payout | None) -> str | None:
    if payout is None:
        return None
    return "Push" if payout.kind is PayoutKind.PUSH else payout.text


def hand_rows(game: Game, table: Table, old: Rows | None, new: Rows | None) -> list[HandRow]:
    """The hands either table pays, with what each table pays them.

    A refinement a table prints no row for (a six-card royal flush in Six Card Bonus table
    D) is paid as the category it refines (games/rankings.yaml, ``refines``)."""
    old, new = old or {}, new or {}
    parents: dict[str, str] = {}
    names = dict(game.row_names(table))
    if table.pays_on is not None and not table.events:
        for c in game.evaluator(table.pays_on).categories:
            if c.refines:
                parents[c.id] = c.refines

    def paid(rows: Rows, hand: str) -> tuple[str | None, str | None]:
        category = hand
        while category not in rows and category in parents:
            category = parents[category]
        text = _text(rows.get(category))
        return text, (names.get(category) if text and category != hand else None)

    out = []
    for hand, name in names.items():
        if hand in old or hand in new:
            (a, a_as), (b, b_as) = paid(old, hand), paid(new, hand)
            out.append(HandRow(hand, name, a, b, a_as, b_as))
    return out


def _amount_key(table: Table, amount: Decimal | None) -> str | None:
    keys = list(table.by_wager_amount or {})
    if amount is None:
        return keys[0] if keys else None
    return next((k for k in keys if Decimal(k) == amount), None)


def table_rows(table: Table, letter: str | None, amount: Decimal | None = None) -> Rows | None:
    """The rows a selection pays on, or None when the letter names no table."""
    try:
        if table.by_wager_amount is not None:
            key = _amount_key(table, amount)
            if key is None:
                return None
            tables = table.by_wager_amount[key]
            return tables[letter] if letter in tables else tables.get("fixed")
        if table.paytables is not None and letter not in table.paytables:
            return None
        return table.rows(letter)
    except KeyError:
        return None


@dataclass(frozen=True)
class Valuation:
    """How a progressive is priced: the wager amount and each stated meter's seed."""

    wager_amount: Decimal | None = None
    seeds: tuple[tuple[str, Decimal], ...] = ()

    def meters(self, table: Table, letter: str | None) -> dict[str, Decimal] | None:
        """The stated seeds of the meters the selected paytable has (dollars)."""
        names = table.meters.for_paytable(letter) if table.meters else {}
        given = {name: seed for name, seed in self.seeds if name in names}
        return given or None


def valuation(submission: Any, wager_id: str) -> Valuation:
    progressive = (getattr(submission, "progressives", None) or {}).get(wager_id)
    if progressive is None:
        return Valuation()
    meters = getattr(progressive, "meters", None) or {}
    seeds = tuple(
        (name, m.seed) for name, m in meters.items() if getattr(m, "seed", None) is not None
    )
    return Valuation(getattr(progressive, "wager_amount", None), seeds)


def _has_meter(rows: Rows | None) -> bool:
    return any(p.kind is PayoutKind.METER for p in (rows or {}).values())


def _hold(
    game: Game, tid: str, table: Table, letter: str | None, rows: Rows | None, value: Valuation
) -> Hold:
    if rows is None:
        return Hold(None, "no such paytable" if letter else "not selected")
    if table.by_wager_amount is not None:
        return table_hold(game, tid, letter, wager_amount=value.wager_amount)
    if _has_meter(rows):
        return table_hold(
            game, tid, letter, wager_amount=value.wager_amount, meter=value.meters(table, letter)
        )
    return table_hold(game, tid, letter)


def paytable_change(
    game: Game,
    tid: str,
    old_letter: str | None,
    new_letter: str | None,
    old_value: Valuation = Valuation(),
    new_value: Valuation = Valuation(),
) -> Change:
    """One selection of one table, from ``old_letter`` to ``new_letter``."""
    wid, table = game.table(tid)
    old_rows = table_rows(table, old_letter, old_value.wager_amount) if old_letter else None
    new_rows = table_rows(table, new_letter, new_value.wager_amount) if new_letter else None
    wagers: tuple[Decimal | None, Decimal | None] = (None, None)
    if table.by_wager_amount is not None:  # its sums are for the amount wagered
        read = (  # the amount whose table the rows are read from (the first where none is)
            None if letter is None else _amount_key(table, value.wager_amount)
            for letter, value in ((old_letter, old_value), (new_letter, new_value))
        )
        was, now = (None if k is None else Decimal(k) for k in read)
        wagers = (was, now)
    hands = [replace(row, wagers=wagers) for row in hand_rows(game, table, old_rows, new_rows)]
    if (old_letter and old_rows is None) or (new_letter and new_rows is None):
        hands = []  # a letter the chapter has no paytable for: no row was added or removed
    return Change(
        path=f"/paytables/{escape(tid)}",
        old=old_letter,
        new=new_letter,
        title=table_title(game, wid, tid, table),
        hands=hands,
        wagers=wagers,
        hold_old=_hold(game, tid, table, old_letter, old_rows, old_value) if old_letter else None,
        hold_new=_hold(game, tid, table, new_letter, new_rows, new_value) if new_letter else None,
        cite=table.cite,
        table_id=tid,
    )


def custom_change(
    game: Game, tid: str, old_rows: dict[str, Payout] | None, new_rows: dict[str, Payout] | None
) -> Change:
    """A table the submission states where the chapter's text is missing."""
    wid, table = game.table(tid)
    return Change(
        path=f"/custom_paytables/{escape(tid)}",
        old="stated" if old_rows else None,
        new="stated" if new_rows else None,
        title=f"{table_title(game, wid, tid, table)}, as stated",
        hands=hand_rows(game, table, old_rows, new_rows),
        hold_old=rows_hold(game, tid, old_rows) if old_rows else None,
        hold_new=rows_hold(game, tid, new_rows) if new_rows else None,
        cite=table.cite,
    )


# -- every other stated value ---------------------------------------------------------------


def sections_by_field(game: Game, *submissions: Any) -> dict[str, list[str]]:
    """Each field the game's checks name, with the sections of those checks: the fields
    checked and the field they are compared with (``than``: the table's maximum wager,
    § 553.18, is ruled on by the check that holds the minimum under it); the checks the
    game file's facts give (``derived_constraints``: the deck change, the positions) too.

    Given the ``submissions`` compared, only the checks that apply to one of them count: a
    check whose condition holds, and for the field it compares with, one whose own field is
    stated. A percentage rake's maximum is not the time charges' (§ 553.15(b)(3)), and an
    effective date is not ruled on by a Bad Beat's discontinuation no filing states."""
    from validator.checks.derive import derived_constraints
    from validator.checks.facts import compile_facts
    from validator.checks.kinds import Context

    stated = [s for s in submissions if isinstance(s, RulesSubmission)]
    contexts = [Context(compile_facts(game), s) for s in stated] if stated else []
    by_field: dict[str, list[str]] = {}
    for c in [*game.definition.constraints, *derived_constraints(game.definition)]:
        than = getattr(c, "than", None)
        for f in c.ruled():
            if contexts and not any(_applies(c, ctx, f == than) for ctx in contexts):
                continue
            by_field.setdefault(f, []).append(c.cite)
    return by_field


def _applies(check: Any, ctx: Any, compared: bool) -> bool:
    """Whether a check rules on a submission: its condition holds (a check of what may be
    stated only under a condition rules on it whatever), and where the field is the one it
    compares with, some field it checks is stated."""
    if check.kind != "only_if" and not ctx.holds(check.when):
        return False
    if not compared:
        return True
    own = [f for f in check.ruled() if f != getattr(check, "than", None)]
    return any(ctx.stated(f) for f in own)


def field_cite(by_field: dict[str, list[str]], pointer: str) -> str | None:
    """The sections that rule on a stated field (``sections_by_field``): those of the
    checks of the field itself, else of the nearest field above it that has one (a Bad
    Beat share, § 553.20; the Kill's qualifying pot, § 553.12(m)); None where none does."""
    p = pointer
    while p:
        if p in by_field:
            sections = [x.strip() for cite in by_field[p] for x in cite.split(";")]
            return "; ".join(dict.fromkeys(sections))
        p = p.rsplit("/", 1)[0]
    return None


def show(value: Any) -> str:
    """A stated value as a compliance officer reads it."""
    match value:
        case bool():
            return "yes" if value else "no"
        case HoursCount():
            return str(value)
        case Decimal():
            return format_money(value)
        case Fraction():
            return format_rate(value)
        case dt.date():
            return value.isoformat()
        case list() | tuple():  # a list of entries (an incremental rake's levels) by "; "
            joint = "; " if any(isinstance(v, dict) for v in value) else ", "
            return joint.join(show(v) for v in value)
        case dict():  # an entry of named values: "pot $20, rake $1", never Python's braces
            return ", ".join(f"{str(k).replace('_', ' ')} {show(v)}" for k, v in value.items())
        case Payout():
            return value.text
    return str(value)


def leaves(data: Any, pointer: str = "") -> dict[str, Any]:
    """Every stated value by JSON pointer; a list is one value."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(leaves(value, f"{pointer}/{escape(key)}"))
        return out
    return {pointer: data}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return sorted(map(show, a)) == sorted(map(show, b))
    return a == b


def _data(submission: Any) -> dict[str, Any]:
    if submission is None:
        return {}
    data = submission.data() if hasattr(submission, "data") else dict(submission)
    return data if isinstance(data, dict) else {}


# -- the two entry points --------------------------------------------------------------------


def diff_submissions(
    game: Game,
    old: Any,
    new: Any,
    *,
    old_findings: Sequence[Any] = (),
    new_findings: Sequence[Any] = (),
    old_label: str = "old",
    new_label: str = "new",
) -> GameDiff:
    """Every selection and stated value that changed between two submissions of ``game``."""
    result = GameDiff(game, old_label, new_label)
    old_data, new_data = _data(old), _data(new)
    old_sel = old_data.get("paytables") or {}
    new_sel = new_data.get("paytables") or {}
    table_ids = [t for _, t, _ in game.definition.tables()]
    paytable_changes: dict[str, Change] = {}
    for tid in table_ids + sorted((set(old_sel) | set(new_sel)) - set(table_ids)):
        a, b = old_sel.get(tid), new_sel.get(tid)
        if tid not in table_ids:
            if a != b:  # a key the game does not have: the validator says so
                result.changes.append(Change(f"/paytables/{escape(tid)}", a, b, tid))
            continue
        wid, _ = game.table(tid)
        va, vb = valuation(old, wid), valuation(new, wid)
        if a != b or (
            a is not None
            and va.wager_amount != vb.wager_amount
            and game.table(tid)[1].by_wager_amount is not None
        ):
            change = paytable_change(game, tid, a, b, va, vb)
            paytable_changes[tid] = change
            result.changes.append(change)
    old_custom = getattr(old, "custom_paytables", None) or {}
    new_custom = getattr(new, "custom_paytables", None) or {}
    for tid in sorted(set(old_custom) | set(new_custom), key=_order(table_ids)):
        a, b = old_custom.get(tid), new_custom.get(tid)
        if a == b:
            continue
        if tid in table_ids:
            result.changes.append(custom_change(game, tid, a, b))
        else:
            result.changes.append(
                Change(f"/custom_paytables/{escape(tid)}", show_rows(a), show_rows(b))
            )

    before = leaves({k: v for k, v in old_data.items() if k not in _TABLES})
    after = leaves({k: v for k, v in new_data.items() if k not in _TABLES})
    priced: set[str] = set()
    ruled = sections_by_field(game, old, new)
    for pointer in list(after) + [p for p in before if p not in after]:
        a, b = before.get(pointer), after.get(pointer)
        if _same(a, b):
            continue
        # a wager, a choice, a dealing method or a hand in the chapter's words, never its id
        a, b = value_words(game, pointer, a), value_words(game, pointer, b)
        change = Change(pointer, None if a is None else show(a), None if b is None else show(b))
        change.cite = field_cite(ruled, pointer)
        keys = parts(pointer)
        if keys[0] == "progressives" and len(keys) > 1 and keys[1] not in priced:
            priced.add(keys[1])
            _price_meter_change(game, change, keys[1], old, new, old_sel, new_sel)
        result.changes.append(change)
    order = [*dict.fromkeys(GROUPS.values()), OTHER]
    result.changes.sort(key=lambda c: order.index(c.group))  # stable: file order within
    _long_run(game, result.changes, (old, old_label), (new, new_label))
    result.not_read = [f for f in (*old_findings, *new_findings) if f.code in MISREAD]
    old_misread = [f.path for f in old_findings if f.code in MISREAD and f.path]
    new_misread = [f.path for f in new_findings if f.code in MISREAD and f.path]
    for c in result.changes:
        c.misread = (
            c.old is None and _within(c.path, old_misread),
            c.new is None and _within(c.path, new_misread),
        )
    seen = {(f.code, f.path) for f in old_findings}
    result.new_findings = [f for f in new_findings if (f.code, f.path) not in seen]
    result.new_errors = sum(1 for f in new_findings if f.severity == "error")
    result.new_warnings = sum(1 for f in new_findings if f.severity == "warning")
    return result


_TABLES = ("paytables", "custom_paytables")


def _order(table_ids: list[str]) -> Any:
    return lambda t: (table_ids.index(t) if t in table_ids else len(table_ids), t)


def show_rows(rows: dict[str, Any] | None) -> str | None:
    if not rows:
        return None
    return "; ".join(f"{k}: {show(v)}" for k, v in rows.items())


def _price_meter_change(
    game: Game, change: Change, wid: str, old: Any, new: Any, old_sel: dict, new_sel: dict
) -> None:
    """A progressive's meter or wager amount changed: its table's hold before and after."""
    if wid not in game.definition.wagers:
        return
    for tid, table in game.definition.wagers[wid].tables.items():
        letter_old, letter_new = old_sel.get(tid), new_sel.get(tid)
        if table.paytables is not None and (letter_old is None or letter_old != letter_new):
            continue  # not selected, or the paytable's own change carries the holds
        rows = table_rows(table, letter_new)
        if not _has_meter(rows):
            continue
        va, vb = valuation(old, wid), valuation(new, wid)
        change.table_id = tid  # a rate or a reseed alone moves the long run only
        change.title = table_title(game, wid, tid, table)
        change.hold_old = _hold(game, tid, table, letter_old, rows, va)
        change.hold_new = _hold(game, tid, table, letter_new, rows, vb)
        change.cite = table.meters.cite if table.meters else table.cite
        return


def _long_run(game: Game, changes: list[Change], *sides: tuple[Any, str]) -> None:
    """Each progressive's hold in the long run before and after, at each submission's
    meters: the increments and reseeds it pays back counted, which the hold at the meter
    leaves out (a lower rate of progression moves no hold at the seed)."""
    from validator.interpreter.settings import stated_settings

    settings: list[Any] = []
    for change in changes:
        if change.table_id is None or not any(h and h.meters for h in _holds(change)):
            continue
        if not settings:
            settings = [
                stated_settings(game, sub, label) if sub is not None else None
                for sub, label in sides
            ]
        with_long_run = [
            None if h is None else replace(h, long_run=long_run(game, s, change.table_id))
            for h, s in zip(_holds(change), settings, strict=True)
        ]
        change.hold_old, change.hold_new = with_long_run
        change.moved_with = _moved_with(change, changes)


#: a meter's values that move its hold in the long run (the seed moves only the first; the
#: reserve rate only where the reserve, not a reseed, restarts the meter)
_LONG_RUN_KEYS = ("reseed", "increment", "wager_amount")


def _moved_with(carrier: Change, changes: list[Change]) -> tuple[str, ...]:
    """Where the carrier's progressive changed more than one value, those that move the
    long run it shows (the carrier's own among them where it is one); else none."""
    from validator.diff.names import FIELD_NAMES

    wager = parts(carrier.path)[:2]
    together = [c for c in changes if parts(c.path)[:2] == wager]
    if len(together) < 2 or not carrier.long_run_delta:  # unmoved: nothing moved it
        return ()
    return tuple(
        FIELD_NAMES[parts(c.path)[-1]] for c in together if parts(c.path)[-1] in _LONG_RUN_KEYS
    )


def _holds(change: Change) -> tuple[Hold | None, Hold | None]:
    return change.hold_old, change.hold_new


def diff_tables(
    game: Game, table_id: str, old_letter: str, new_letter: str, wager_amount: Decimal | None
) -> GameDiff:
    """Two of the chapter's paytables for one table, side by side."""
    value = Valuation(wager_amount=wager_amount)
    result = GameDiff(game, f"Paytable {old_letter}", f"Paytable {new_letter}", submissions=False)
    result.changes.append(paytable_change(game, table_id, old_letter, new_letter, value, value))
    return result


def _within(path: str, misread: list[str]) -> bool:
    """Whether a change's field is, holds or lies within a field not read as written."""
    return any(path == p or path.startswith(f"{p}/") or p.startswith(f"{path}/") for p in misread)
