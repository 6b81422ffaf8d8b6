"""One evaluator per constraint kind: what the kind means, for every game alike."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from validator.checks.facts import GameFacts
from validator.loader import did_you_mean
from validator.model.notation import PayoutKind, format_money, format_rate
from validator.model.submission import MISSING, RulesSubmission, TimeRake, resolve
from validator.model.submission.pointers import stated_items
from validator.money import format_per_unit
from validator.vocabulary import CONSTRAINT_KIND, TABLE_FEATURE, meaning, meaning_of

if TYPE_CHECKING:  # the models of the constraints; at run time compiled ones read alike
    from validator.model import constraints as C


@dataclass(frozen=True)
class Violation:
    """Where a constraint is broken, and the specifics the rule's message needs."""

    pointer: str
    detail: str = ""
    hint: str | None = None  # what would comply, in the file's own notation (YAML)
    key: bool = False  # point at the key rather than the value
    cite: str | None = None  # the paragraph broken, where narrower than the rule's cite
    remedy: str | None = None  # what would comply in a person's words, for the documents


@dataclass
class Context:
    facts: GameFacts
    submission: RulesSubmission  # the submission's values that are well formed, parsed
    raw: Any = None  # the file as read: a value stated but ill formed is only here

    def get(self, pointer: str) -> Any:
        return resolve(self.submission, pointer)

    def stated(self, pointer: str) -> bool:
        """Whether the file states the field at all, well formed or not."""
        return (
            resolve(self.raw if self.raw is not None else self.submission, pointer) is not MISSING
        )

    def ill_formed(self, pointer: str) -> bool:
        """Stated, but dropped as ill formed (a problem of form already reported)."""
        return self.get(pointer) is MISSING and self.stated(pointer)

    def played(self, wager_id: str) -> bool:
        """A base wager is always played; an optional one when the submission offers it."""
        wager = self.facts.wagers.get(wager_id)
        if wager is None:
            return False
        return not wager.optional or wager_id in (self.submission.offered or ())

    def holds(self, when: C.ConstraintWhen | None) -> bool:
        if when is None:
            return True
        if when.offered is not None and not self.played(when.offered):
            return False
        if when.field is not None:
            value = self.get(when.field)
            if when.stated is not None:
                return (value is not MISSING) == when.stated
            if value is MISSING:
                return False
            if when.in_ is not None:
                return any(_same(value, v) for v in when.in_)
            if when.contains is not None:
                return isinstance(value, list) and any(_same(x, when.contains) for x in value)
            if when.contains_all is not None:
                return isinstance(value, list) and all(
                    any(_same(x, v) for x in value) for v in when.contains_all
                )
        return True

    def selected(self, table_id: str) -> str | None:
        """The letter the submission selects for a table, if it is one the table has."""
        table = self.facts.table(table_id)
        letter = (self.submission.paytables or {}).get(table_id)
        return letter if letter in table.letters else None


Evaluator = Callable[[Any, Context], Iterator[Violation]]


def evaluator(*kinds: str) -> Callable[[Evaluator], Evaluator]:
    """The decorated function is what each constraint kind means: the vocabulary's entry of
    the kind carries it (``validator/vocabulary``), and ``evaluate`` looks it up there."""

    def register(fn: Evaluator) -> Evaluator:
        return meaning("checks", CONSTRAINT_KIND.id, *kinds)(fn)

    return register


def evaluate(constraint: Any, ctx: Context) -> list[Violation]:
    if not ctx.holds(constraint.when) and constraint.kind != "only_if":
        return []
    return list(meaning_of(CONSTRAINT_KIND.id, constraint.kind, "checks")(constraint, ctx))


# -- values --------------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    if isinstance(a, int | Decimal | Fraction) and isinstance(b, int | Decimal | Fraction):
        return Fraction(a) == Fraction(b)
    return a == b


def show(value: Any, money: bool = False) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal) or (money and isinstance(value, int)):
        return format_money(Decimal(value))
    if isinstance(value, Fraction):
        return format_rate(value)
    return str(value)


def _number(value: Any) -> Fraction | None:
    """A value bounds compare: a count, money, a rate, or a date (by its day number)."""
    if isinstance(value, dt.date):
        return Fraction(value.toordinal())
    if isinstance(value, bool) or not isinstance(value, int | Decimal | Fraction):
        return None
    return Fraction(value)


# -- presence ------------------------------------------------------------------------------


@evaluator("required", "required_if")
def _required(c: C.Required | C.RequiredIf, ctx: Context) -> Iterator[Violation]:
    for pointer in c.pointers:
        if not ctx.stated(pointer):
            yield Violation(pointer, f"{pointer} is not stated")


@evaluator("only_if")
def _only_if(c: C.OnlyIf, ctx: Context) -> Iterator[Violation]:
    if ctx.holds(c.when):
        return
    if c.when is not None and c.when.field is not None and ctx.ill_formed(c.when.field):
        return  # what it depends on is refused already: no reading of it to contradict
    for pointer in c.pointers:
        if ctx.stated(pointer):
            yield Violation(pointer, "", key=True)


@evaluator("not_stated")
def _not_stated(c: C.NotStated, ctx: Context) -> Iterator[Violation]:
    for pointer in c.pointers:
        if ctx.stated(pointer):
            value = ctx.get(pointer)
            scalar = value is not MISSING and stated_items(value) is None
            scalar = scalar and not isinstance(value, list)
            shown = f" ({show(value)})" if scalar else ""
            yield Violation(pointer, f"{pointer} is stated{shown}", key=True)


# -- values --------------------------------------------------------------------------------


@evaluator("choice")
def _choice(c: C.Choice, ctx: Context) -> Iterator[Violation]:
    for pointer in c.pointers:
        value = ctx.get(pointer)
        if value is MISSING and ctx.ill_formed(pointer) and ctx.raw is not None:
            value = resolve(ctx.raw, pointer)  # a word the form refused: the rule says why
            value = value if isinstance(value, str) else MISSING
        if value is not MISSING and value not in c.choices:
            yield Violation(
                pointer,
                f"{value!r} is not one of them{did_you_mean(str(value), c.choices)}",
            )


@evaluator("one_of_values")
def _one_of_values(c: C.OneOfValues, ctx: Context) -> Iterator[Violation]:
    for pointer in c.pointers:
        value = ctx.get(pointer)
        if value is MISSING:
            continue
        # a list (the dealing methods): each of its items is one of the values
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for i, item in items:
            if any(_same(item, v) for v in c.values):
                continue
            money = isinstance(item, Decimal)
            allowed = " or ".join(show(v, money) for v in c.values)
            at = pointer if i is None else f"{pointer}/{i}"
            yield Violation(at, f"{at} is {show(item)}, not {allowed}")


@evaluator("equals")
def _equals(c: C.Equals, ctx: Context) -> Iterator[Violation]:
    for pointer in c.pointers:
        value = ctx.get(pointer)
        if value is MISSING:
            if not ctx.stated(pointer):
                yield Violation(pointer, f"{pointer} is not stated")
        elif not _same(value, c.value):
            yield Violation(pointer, f"{pointer} is {show(value)}")


def _bound(c: C.AtLeast | C.AtMost, ctx: Context, sign: int) -> Iterator[Violation]:
    if c.than is not None:
        limit_value = ctx.get(c.than)
        if limit_value is MISSING:
            return
        label = f"{c.than} ({show(limit_value)})"
    else:
        limit_value = c.value
        label = None
    limit = _number(limit_value)
    if limit is None:
        return
    for pointer, value in _bounded(ctx, c.pointers):
        number = _number(value)
        if number is None:
            continue
        if (number - limit) * sign < 0:
            money = isinstance(value, Decimal)
            word = "at least" if sign > 0 else "at most"
            bound = label or show(limit_value, money)
            yield Violation(pointer, f"{pointer} is {show(value)}; it must be {word} {bound}")


def _bounded(ctx: Context, pointers: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """The values a bound holds: each field's, or each value of a field that is a map (the
    raises permitted in each betting round, each held to the one restriction) or a list
    (each Blind Bet)."""
    for pointer in pointers:
        value = ctx.get(pointer)
        items = stated_items(value)
        if items is not None:
            yield from ((f"{pointer}/{k}", v) for k, v in items.items())
        elif isinstance(value, list):
            yield from ((f"{pointer}/{i}", v) for i, v in enumerate(value))
        else:
            yield pointer, value


@evaluator("at_least")
def _at_least(c: C.AtLeast, ctx: Context) -> Iterator[Violation]:
    return _bound(c, ctx, +1)


@evaluator("at_most")
def _at_most(c: C.AtMost, ctx: Context) -> Iterator[Violation]:
    return _bound(c, ctx, -1)


@evaluator("sum_at_most")
def _sum_at_most(c: C.SumAtMost, ctx: Context) -> Iterator[Violation]:
    limit = _number(c.value)
    values = [(p, _number(ctx.get(p))) for p in c.pointers]
    stated = [(p, n) for p, n in values if n is not None]
    if limit is None or not stated:
        return
    total = sum((n for _, n in stated), Fraction(0))
    if total > limit:
        parts = " + ".join(f"{p} {show(ctx.get(p))}" for p, _ in stated)
        yield Violation(
            stated[0][0].rsplit("/", 1)[0],
            f"{parts} = {show(total)}; they may come to at most {show(c.value)}",
        )


@evaluator("max_interval")
def _max_interval(c: C.MaxInterval, ctx: Context) -> Iterator[Violation]:
    from validator.checks.derive import METHOD_NAMES

    methods = ctx.get(c.methods_field)
    stated = ctx.get(c.field)
    if not isinstance(methods, list) or not isinstance(stated, dict):
        return
    for method in methods:
        limit = c.hours.get(method)
        if limit is None:
            continue
        hours = stated.get(method)
        dealt = METHOD_NAMES.get(method, method)  # in the chapters' words: "dealt by hand"
        remedy = f"the cards changed at least every {limit} hours when {dealt}"
        if hours is None:
            if ctx.ill_formed(f"{c.field}/{method}"):
                continue  # stated but refused (0 hours): a problem of form, reported as such
            yield Violation(
                c.field,
                f"no interval is stated for the cards {dealt} (at most {limit} hours)",
                hint=f"change_every_hours: {{{method}: {limit}}}",
                cite=c.cites.get(method),
                remedy=remedy,
            )
        elif hours > limit:
            yield Violation(
                f"{c.field}/{method}",
                f"the cards {dealt}: every {hours} hours, longer than {limit}",
                hint=f"{method}: {limit} (or fewer hours)",
                cite=c.cites.get(method),
                remedy=remedy,
            )


# -- progressive meters --------------------------------------------------------------------

_METER_FIELDS: tuple[C.MeterField, ...] = ("seed", "reseed", "increment", "reserve_increment")


_FIELD_NAMES = {
    "seed": "seed",
    "reseed": "reseed",
    "increment": "incrementation rate",
    "reserve_increment": "reserve incrementation rate",
}


@evaluator("equals_table")
def _equals_table(c: C.EqualsTable, ctx: Context) -> Iterator[Violation]:
    table = ctx.facts.table(c.table)
    progressive = ctx.get(f"/progressives/{c.table}")
    if table.meters is None or progressive is MISSING:
        return
    letter: str | None = None
    if table.paytables is not None:
        letter = ctx.selected(c.table)
        if letter is None:
            return  # no valid letter selected: reported by the paytable constraints
    rules = ctx.facts.meter_rules(c.table, letter)
    base = f"/progressives/{c.table}"
    where = f"paytable {letter}" if letter else "the table"
    fields = c.fields or list(_METER_FIELDS)
    stated = progressive.meters
    if stated is None:
        return  # reported as a missing key
    amount = progressive.wager_amount
    needs_amount = any(
        getattr(rule, f) is not None for rule in rules.values() for f in ("seed", "reseed")
    ) and any(f in fields for f in ("seed", "reseed"))
    if needs_amount and amount is None and not ctx.stated(f"{base}/wager_amount"):
        yield Violation(
            base,
            "no wager_amount is stated, and the seed and reseed are fixed per unit wagered",
            hint="wager_amount: 1 (the amount of the progressive wager, dollars)",
        )
    for name in stated:
        if name not in rules:
            expected = ", ".join(rules) or "none"
            yield Violation(
                f"{base}/meters/{name}",
                f"{where} has no {name!r} meter (its meters: {expected})"
                f"{did_you_mean(name, rules)}",
                key=True,
            )
    for name, rule in rules.items():
        meter = stated.get(name)
        if meter is None:
            yield Violation(
                f"{base}/meters",
                f"the {name!r} meter of {where} is not stated",
                hint=f"meters: {{{name}: {_meter_hint(rule, amount)}}}",
            )
            continue
        for f in fields:
            expected = getattr(rule, f)
            pointer = f"{base}/meters/{name}/{f}"
            value = resolve(meter, f)
            if expected is None or expected == "stated":
                continue
            if expected == "N/A":
                if value is not MISSING and value != 0:
                    yield Violation(
                        pointer,
                        f"{name} meter: {_FIELD_NAMES[f]} is {show(value)}; for {where} it is N/A",
                        hint=f"{f}: N/A (or leave it out)",
                    )
                continue
            if f in ("seed", "reseed"):
                if amount is None:
                    continue
                want = expected * amount
                text = (
                    f"{format_per_unit(expected)} × the {format_money(amount)} wager "
                    f"= {format_money(want)}"
                    if expected
                    else "$0"  # "Reseed $0" (§ 641a.12(g)(4)): nothing, whatever the wager
                )
            else:
                want = expected
                text = format_rate(expected)
            if value is MISSING and ctx.stated(pointer):
                continue  # stated but ill formed: a problem of form, reported as such
            if value is MISSING:
                yield Violation(
                    f"{base}/meters/{name}",
                    f"{name} meter: {_FIELD_NAMES[f]} is not stated; for {where} it is {text}",
                    hint=f"{f}: {_plain(want)}",
                    remedy=f"the {name} meter's {_FIELD_NAMES[f]} {text}",
                )
            elif not _same(value, want):
                yield Violation(
                    pointer,
                    f"{name} meter: {_FIELD_NAMES[f]} is {show(value)}; for {where} it is {text}",
                    hint=f"{f}: {_plain(want)}",
                    remedy=f"the {name} meter's {_FIELD_NAMES[f]} {text}",
                )


def _plain(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(int(value)) if value == value.to_integral_value() else f'"{value:.2f}"'
    if isinstance(value, Fraction):
        return format_rate(value)
    return str(value)


def _meter_hint(rule: Any, amount: Any) -> str:
    parts = []
    for f in _METER_FIELDS:
        v = getattr(rule, f)
        if isinstance(v, Decimal) and amount is not None:
            parts.append(f"{f}: {_plain(v * amount)}")
        elif isinstance(v, Fraction):
            parts.append(f"{f}: {format_rate(v)}")
    return "{" + ", ".join(parts) + "}"


# -- tables and holds ----------------------------------------------------------------------


@evaluator("payout_limit_floor")
def _payout_limit_floor(c: C.PayoutLimitFloor, ctx: Context) -> Iterator[Violation]:
    from validator.checks.payout_limit import max_round_win

    limit = ctx.get(c.field)
    if not isinstance(limit, Decimal):
        return
    win = max_round_win(ctx)
    floor = max(c.at_least, win.total) if win.total is not None else c.at_least
    if limit >= floor:
        return
    if win.total is None:
        detail = (
            f"the limit {format_money(limit)} is below {format_money(c.at_least)} ({win.explain()})"
        )
    elif win.total > c.at_least:
        detail = (
            f"the limit {format_money(limit)} is below {format_money(win.total)}, the most one "
            f"patron could win in one round betting the minimum wager: {win.explain()}"
        )
    else:
        detail = (
            f"the limit {format_money(limit)} is below {format_money(c.at_least)} (the most one "
            f"patron could win in one round betting the minimum wager is "
            f"{format_money(win.total)}: {win.explain()})"
        )
    yield Violation(
        c.field,
        detail,
        hint=f"payout_limit: {_plain(floor)} or more",
        remedy=f"a payout limit of {format_money(floor)} or more",
    )


@evaluator("time_charge_at_most")
def _time_charge_at_most(c: C.TimeChargeAtMost, ctx: Context) -> Iterator[Violation]:
    from validator.interpreter.poker.rake import assessment
    from validator.money import to_cents

    time, maximum = ctx.get(c.field), ctx.get(c.than)
    if not isinstance(time, TimeRake) or not isinstance(maximum, Decimal):
        return
    fee, every = time.hourly_fee, time.every_minutes
    if not isinstance(fee, Decimal) or not isinstance(every, int) or every <= 0:
        return
    taken = assessment(to_cents(fee), every)
    if taken <= to_cents(maximum):
        return
    who = "each player" if (time.basis or "per_player") == "per_player" else "the table"
    least = Decimal(taken.numerator) / taken.denominator / 100  # the maximum that would do
    hourly = maximum * 60 / every  # the hourly fee the stated maximum allows
    yield Violation(
        f"{c.field}/hourly_fee",
        f"{format_money(fee)} an hour assessed every {every} minutes takes "
        f"{format_money(least)} from {who} at each assessment, more than the stated maximum "
        f"{format_money(maximum)}",
        hint=f"maximum: at least {_plain(least)}, or an hourly fee of at most {_plain(hourly)}",
        remedy=f"a maximum of at least {format_money(least)}, or an hourly fee of at most "
        f"{format_money(hourly)}",
    )


@evaluator("rake_levels_at_most")
def _rake_levels_at_most(c: C.RakeLevelsAtMost, ctx: Context) -> Iterator[Violation]:
    incremental, maximum = ctx.get(c.field), ctx.get(c.than)
    levels = getattr(incremental, "levels", None)
    if not levels or not isinstance(maximum, Decimal):
        return
    amounts = [a for level in levels if isinstance(a := getattr(level, "rake", None), Decimal)]
    if len(amounts) != len(levels):
        return  # a level not read as written: its own finding says so
    total = sum(amounts, Decimal(0))
    if total <= maximum:
        return
    pots = [p for level in levels if isinstance(p := getattr(level, "pot", None), Decimal)]
    reaching = f" from a pot that reaches {format_money(max(pots))}" if pots else ""
    yield Violation(
        f"{c.field}/levels",
        f"the levels take {format_money(total)} in all{reaching}, more than the stated "
        f"maximum {format_money(maximum)}",
        hint=f"maximum: at least {_plain(total)}, or levels that come to at most {_plain(maximum)}",
        remedy=f"a maximum of at least {format_money(total)}, or levels that come to at most "
        f"{format_money(maximum)} in all",
    )


@evaluator("positive_hold")
def _positive_hold(c: C.PositiveHold, ctx: Context) -> Iterator[Violation]:
    letter = ctx.selected(c.table)
    if letter is None:
        return
    hold = ctx.facts.hold(c.table, letter)
    if hold is None or hold.basis == "bonus":
        return  # not priced, or a bonus paid on another wager's stake: no hold of its own
    per_unit = _meters_per_unit(ctx, c.table)
    figure = hold.at(per_unit)
    if figure <= 0:
        at = ""
        if hold.meters:
            values = {n: per_unit.get(n, base) for n, (base, _) in hold.meters.items()}
            at = " with the meter at " + ", ".join(
                f"{format_money(Decimal(v.numerator) / Decimal(v.denominator))} per unit ({n})"
                for n, v in values.items()
            )
        yield Violation(
            f"/paytables/{c.table}",
            f"paytable {letter} has an exact hold of {_percent(figure)}{at}",
        )


def _meters_per_unit(ctx: Context, table_id: str) -> dict[str, Fraction]:
    """The seeds the submission states, per unit of its wager amount ($1 if not stated)."""
    progressive = ctx.get(f"/progressives/{table_id}")
    if progressive is MISSING:
        return {}
    amount = progressive.wager_amount or Decimal(1)
    out: dict[str, Fraction] = {}
    for name, meter in (progressive.meters or {}).items():
        seed = meter.seed
        if isinstance(seed, Decimal) and amount > 0:
            out[name] = Fraction(seed) / Fraction(amount)
    return out


def _percent(hold: Fraction) -> str:
    return f"{float(hold * 100):.4f}%"


@evaluator("hold_in_range")
@meaning("checks", TABLE_FEATURE.id, "approved_hold")
def _hold_in_range(c: C.HoldInRange, ctx: Context) -> Iterator[Violation]:
    from validator.checks.hold import custom_hold

    table = ctx.facts.table(c.table)
    rows = ctx.get(f"/custom_paytables/{c.table}")
    if not isinstance(rows, dict) or not rows or table.approved_hold is None:
        return
    if list(_custom_row_problems(ctx, c.table, rows, None)):
        return  # the rows themselves are wrong: reported by custom_table_hands
    hold = custom_hold(ctx.facts, c.table, rows)
    low, high = table.approved_hold.low, table.approved_hold.high
    if hold is not None and not low <= hold <= high:
        yield Violation(
            f"/custom_paytables/{c.table}",
            f"its exact hold is {_percent(hold)}, outside {format_rate(low)}–{format_rate(high)}",
        )


@evaluator("published_hold_range")
@meaning("checks", TABLE_FEATURE.id, "approved_hold")
def _published_hold_range(c: C.PublishedHoldRange, ctx: Context) -> Iterator[Violation]:
    from validator.checks.published import published_range_finding

    table = ctx.facts.table(c.table)
    if table.approved_hold is None or not ctx.played(ctx.facts.wager_of(c.table)):
        return
    # compiled, or asked of the odds engine (None where it is absent or cannot price one)
    holds = {letter: ctx.facts.hold(c.table, letter) for letter in table.letters}
    if any(h is None for h in holds.values()):
        return
    other = None
    reading = table.approved_hold.other_reading
    if reading is not None:
        alt = {k: h.other_reading for k, h in holds.items() if h and h.other_reading is not None}
        other = (reading.name, alt)
    low, high = table.approved_hold.low, table.approved_hold.high
    selected = ctx.get(f"/paytables/{c.table}")
    text = published_range_finding(
        table.name,
        low,
        high,
        {k: h.hold for k, h in holds.items() if h},
        other,
        selected if isinstance(selected, str) else None,
    )
    if text:
        yield Violation(f"/paytables/{c.table}", text)


@evaluator("optional_payout_offered")
def _optional_payout_offered(c: C.OptionalPayoutOffered, ctx: Context) -> Iterator[Violation]:
    wager = ctx.facts.wager_of(c.table)
    for i, item in enumerate(ctx.submission.offered or ()):
        if item == c.table and not ctx.played(wager):
            yield Violation(
                f"/offered/{i}",
                f"{c.table} is offered without the {ctx.facts.wagers[wager].name}",
                hint=f"offered: [{wager}, {c.table}], or leave {c.table} out",
            )


@evaluator("custom_table_hands")
def _custom_table_hands(c: C.CustomTableHands, ctx: Context) -> Iterator[Violation]:
    rows = ctx.get(f"/custom_paytables/{c.table}")
    if not isinstance(rows, dict):
        return
    if c.never_paid:
        yield from _never_paid(ctx, c.table, rows)
    elif not c.pays_every:
        yield from _custom_row_problems(ctx, c.table, rows, c.at_least)
    elif not list(_custom_row_problems(ctx, c.table, rows, None)):  # else reported as such
        yield from _unpaid_winners(ctx, c.table, rows, c.at_least, c.except_hands or [])


def _never_paid(ctx: Context, table_id: str, rows: dict[str, Any]) -> Iterator[Violation]:
    """The rows of a table paid only on a losing hand, for a hand that never loses."""
    from validator.checks.payout_limit import can_lose

    hand = ctx.facts.table(table_id).pays_on
    if hand is None:
        return
    for row in rows:
        if isinstance(row, str) and not can_lose(ctx, hand, row):
            name = ctx.facts.category(hand, row).name.lower()
            yield Violation(
                f"/custom_paytables/{table_id}/{row}",
                f"the {name} row can never be paid; the payout limit's floor counts it as zero",
                hint=f"remove the {row} row",
                key=True,
            )


def _unpaid_winners(
    ctx: Context, table_id: str, rows: dict[str, Any], at_least: str | None, leave: list[str]
) -> Iterator[Violation]:
    """Every hand from ``at_least`` up wins the wager (but those in ``leave``): each must be
    paid, by its own row or the row of a hand it refines (a pair row pays a pair of aces)."""
    hand = ctx.facts.table(table_id).pays_on
    if hand is None:
        return
    facts = ctx.facts
    floor = facts.strength_of(hand, at_least) if at_least else None
    for cat in facts.ranking(hand).categories:
        if cat.any or cat.id in leave:
            continue
        if floor is not None and facts.strength_of(hand, cat.id) < floor:
            continue
        c: Any = cat
        while c is not None and not (c.id in rows and rows[c.id].is_win):
            c = facts.category(hand, c.refines) if c.refines else None
        if c is None:
            yield Violation(
                f"/custom_paytables/{table_id}",
                f"the table pays nothing for {cat.name.lower()}, a hand the wager pays on",
                hint=f"add a row: {cat.id}: <odds>",
            )


def _custom_row_problems(
    ctx: Context, table_id: str, rows: dict[str, Any], at_least: str | None
) -> Iterator[Violation]:
    hand = ctx.facts.table(table_id).pays_on
    base = f"/custom_paytables/{table_id}"
    if hand is None:
        return
    facts = ctx.facts
    winning = [cat.id for cat in facts.ranking(hand).categories if not cat.any]
    if not any(p.is_win for p in rows.values()):
        yield Violation(base, "the table pays no hand")
    for row, payout in rows.items():
        pointer = f"{base}/{row}"
        if row not in winning:
            yield Violation(
                pointer,
                f"{row!r} is no hand the wager can win on{did_you_mean(row, winning)}; "
                f"the hands are: {', '.join(winning)}",
                key=True,
            )
            continue
        if at_least is not None and (
            facts.strength_of(hand, row) < facts.strength_of(hand, at_least)
        ):
            floor = facts.category(hand, at_least).name.lower()
            yield Violation(
                pointer,
                f"{facts.category(hand, row).name.lower()} is below {floor}, the lowest hand "
                "it pays",
                key=True,
            )
        if payout.kind in (PayoutKind.METER, PayoutKind.FIXED):
            yield Violation(
                pointer,
                f"{payout.text!r}: a stated table pays odds ('25 to 1', '30 for 1') or push",
            )


@evaluator("text_missing")
def _text_missing(c: C.TextMissing, ctx: Context) -> Iterator[Violation]:
    if ctx.get(f"/custom_paytables/{c.table}") is not MISSING:
        yield Violation(f"/custom_paytables/{c.table}", "", key=True)
