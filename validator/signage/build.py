"""The signs a table needs, filled with a Rules Submission's selections.

Generic over games: what a sign shows comes from the game file's ``signage:`` section (which
signs, in which order) and ``sign:`` lines (their words and citations); the payout odds come
from the paytables the submission selects. Nothing here knows a game by name.

Reading choices, written down once:

- A paytable's ``N/A`` cells are left off its sign: the hand is not paid on that table.
- A sign line that names a figure the submission does not state (``{payout_limit}``) is left
  off: the chapters require it only "if established by the certificate holder".
- A sign with nothing to show (no offered wager, no line) is not printed.
- A progressive's meter line gives the amounts the submission states, else the chapter's
  per-unit amounts times the wager amount.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from validator.model.game import GameDefinition, Rows, Table, Wager
from validator.model.notation import Payout, PayoutKind, format_money, format_rate
from validator.model.registry import Game
from validator.model.signage import SignDef, resolve

PLACEMENT = {
    "layout": "Inscribed on the layout",
    "layout_or_sign": "Inscribed on the layout, or posted at each table",
    "sign": "Posted at each table",
}


@dataclass(frozen=True)
class Line:
    """A line of a sign, with the section it comes from."""

    text: str
    cite: str


@dataclass(frozen=True)
class Paytable:
    """A paytable as the chapter prints it: hands as rows, the selected column."""

    title: str
    cite: str
    column: str
    rows: tuple[tuple[str, str], ...]
    lines: tuple[Line, ...] = ()  # meter lines under the table


Item = Line | Paytable


@dataclass(frozen=True)
class Sign:
    id: str
    title: str
    cite: str
    placement: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class SignSet:
    """Every sign one table needs."""

    game_id: str
    game_name: str
    chapter: str
    certificate_holder: str
    facility: str
    effective: dt.date | None
    signs: tuple[Sign, ...]
    draft: bool = False
    problems: tuple[str, ...] = field(default=())


def offered_wagers(definition: GameDefinition, offered: list[str] | None) -> list[str]:
    """The base game's wagers and the optional ones offered, in the game file's order."""
    chosen = set(offered or ())
    return [w for w, wager in definition.wagers.items() if not wager.optional or w in chosen]


def figures(submission: Any, definition: GameDefinition | None = None) -> dict[str, str]:
    """The figures sign text may name, as printed; absent ones are left out."""
    out: dict[str, str] = {}
    out.update(poker_figures(submission, definition))
    for key in ("certificate_holder", "facility"):
        if getattr(submission, key, None):
            out[key] = str(getattr(submission, key))
    table = getattr(submission, "table", None)
    for key in ("min_wager", "max_wager"):
        value = getattr(table, key, None) if table is not None else None
        if value is not None:
            out[key] = format_money(Decimal(value))
    if getattr(submission, "payout_limit", None) is not None:
        out["payout_limit"] = format_money(Decimal(submission.payout_limit))
    return out


def _money(value: Any) -> str:
    return format_money(Decimal(value))


KILL = {
    "kill": ("Kill option", "twice the posted limits"),
    "half_kill": ("Half-kill option", "the posted limits increased by one-half"),
}
TIME_BASIS = {
    "per_player": "per player, inactive seated players included",
    "per_table": "per table",
}


def poker_figures(submission: Any, definition: GameDefinition | None) -> dict[str, str]:
    """A Poker table's figures: raises, forced wagers, rake, Kill, Bad Beat (ch. 553).
    A figure the submission leaves out, or whose rule it does not use, is absent."""
    out: dict[str, str] = {}
    betting = getattr(submission, "betting", None)
    raises = getattr(betting, "max_raises", None)
    if isinstance(raises, int):
        out["max_raises"] = str(raises)
    by_round = getattr(betting, "max_raises_by_round", None)
    streets = definition.deal.streets if definition and definition.deal else {}
    if by_round:
        out["max_raises_by_round"] = "; ".join(
            f"{streets[k].name if k in streets else k}: {n}" for k, n in by_round.items()
        )
    if getattr(betting, "check_raise", None) is False:
        out["check_raise_ban"] = "A player may not raise after checking in a betting round"
    structure = getattr(betting, "structure", None)
    if structure is not None:
        upper = getattr(betting, "upper_from", None)
        out["limit_structure"] = {
            "spread": "spread limit: any bet or raise from the minimum to the maximum wager",
            "fixed": "fixed limit: every bet and raise is the posted wager",
            "split": "split limit: the minimum wager, then the maximum wager"
            + (f" from {streets[upper].name.lower()}" if upper in streets else ""),
        }[structure]
    ante = getattr(submission, "ante", None)
    if ante is not None and ante.required and ante.amount is not None:
        out["ante"] = _money(ante.amount)
    blinds = getattr(submission, "blinds", None)
    if blinds:
        out["blinds"] = ", ".join(_money(b) for b in blinds)
    if getattr(submission, "forced_bet", None) is not None:
        out["forced_bet"] = _money(submission.forced_bet)
    rake = getattr(submission, "rake", None)
    types = (getattr(rake, "types", None) or ()) if rake is not None else ()
    if rake is not None and rake.maximum is not None:
        out["rake_maximum"] = _money(rake.maximum)
    if "percentage" in types and rake.percentage and rake.percentage.rate is not None:
        out["rake_percentage"] = format_rate(rake.percentage.rate)
    if "incremental" in types and rake.incremental and rake.incremental.levels:
        levels = [lv for lv in rake.incremental.levels if lv.pot is not None and lv.rake]
        if levels:
            out["rake_levels"] = ", ".join(
                f"{_money(lv.rake)} at {_money(lv.pot)}" for lv in levels
            )
    time = rake.time if "time" in types else None
    if time is not None:
        if time.hourly_fee is not None:
            out["rake_hourly_fee"] = _money(time.hourly_fee)
        if time.basis is not None:
            out["rake_time_basis"] = TIME_BASIS[time.basis]
        if time.every_minutes is not None:
            out["rake_time_minutes"] = str(time.every_minutes)
    kill = getattr(betting, "kill", None)
    rules = definition.betting.kill if definition and definition.betting else None
    if kill is not None and kill.option in KILL and rules is not None:
        out["kill_option"], out["kill_limits"] = KILL[kill.option]
        if kill.qualifying_pot is not None:
            out["qualifying_pot"] = _money(kill.qualifying_pot)
        times = rules.options.get(kill.option)
        table = getattr(submission, "table", None)
        for key in ("min_wager", "max_wager"):
            value = getattr(table, key, None)
            if times is not None and value is not None:
                out[f"kill_{key}"] = _money(Decimal(value) * times.numerator / times.denominator)
    bad_beat = getattr(submission, "bad_beat", None)
    if bad_beat is not None and bad_beat.offered:
        for key, name in (
            ("bad_beat_amount", "current_amount"),
            ("bad_beat_max_contribution", "max_contribution"),
            ("bad_beat_minimum_pot", "minimum_pot"),
        ):
            if getattr(bad_beat, name) is not None:
                out[key] = _money(getattr(bad_beat, name))
        if bad_beat.qualifying_hands:
            out["bad_beat_hands"] = bad_beat.qualifying_hands
    return out


def hand_names(game: Game, table: Table) -> list[tuple[str, str]]:
    """(row id, name as the chapter prints it) in the ranking's order."""
    if table.events:
        return [(k, k.replace("_", " ").title()) for k in table.events]
    return [(c.id, c.name) for c in game.evaluator(table.pays_on or "").categories]


def payout_text(payout: Payout) -> str:
    """A cell as the chapter prints it (the odds tables print "Push")."""
    return "Push" if payout.kind is PayoutKind.PUSH else payout.text


def meter_name(meter: str) -> str:
    return "Progressive" if meter == "primary" else f"{meter.capitalize()} jackpot"


def _amount_key(amount: Decimal | None, keys: list[str]) -> str | None:
    if amount is None:
        return None
    for key in keys:
        if Decimal(key) == amount:
            return key
    return None


def _rows(game: Game, table: Table, rows: Rows) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name, payout_text(rows[hand]))
        for hand, name in hand_names(game, table)
        if hand in rows and rows[hand].pays
    )


def _meter_lines(
    table: Table, rows: Rows, letter: str | None, progressive: Any
) -> tuple[Line, ...]:
    meters = table.meters
    if meters is None or not meters.sign:
        return ()
    used: list[str] = []
    for payout in rows.values():
        if payout.kind is PayoutKind.METER and payout.meter not in used:
            used.append(payout.meter)
    rules = meters.for_paytable(letter)
    stated = (getattr(progressive, "meters", None) or {}) if progressive is not None else {}
    amount = getattr(progressive, "wager_amount", None) if progressive is not None else None
    out: list[Line] = []
    for name in used:
        rule, given = rules.get(name), stated.get(name)
        values: dict[str, str] = {"meter": meter_name(name)}
        for key in ("seed", "reseed"):
            value = getattr(given, key, None) if given is not None else None
            per_unit = getattr(rule, key, None) if rule is not None else None
            if value is None and per_unit is not None and amount is not None:
                value = per_unit * Decimal(amount)
            if value is not None:
                values[key] = format_money(Decimal(value))
        for sign in meters.sign:
            text = sign.fill(values)
            if text is not None:
                out.append(Line(text, sign.cite))
    return tuple(out)


def _table_items(game: Game, wid: str, tid: str, table: Table, submission: Any) -> list[Item]:
    paytables = getattr(submission, "paytables", None) or {}
    custom = getattr(submission, "custom_paytables", None) or {}
    progressive = (getattr(submission, "progressives", None) or {}).get(wid)
    # a wager's own table goes by the wager's name ("Aces Up Wager"), others by theirs
    name = game.definition.wagers[wid].name if tid == wid else table.name
    if table.source == "missing":
        rows = custom.get(tid)
        if not rows:
            return [Line(f"{name}: no paytable is stated in the Rules Submission", table.cite)]
        cite = f"{table.cite}, missing from the regulation text: as stated in the Rules Submission"
        return [Paytable(name, cite, "Payout", _rows(game, table, rows))]
    if table.paytable is not None:
        rows = table.paytable
        return [
            Paytable(
                name,
                table.cite,
                "Payout",
                _rows(game, table, rows),
                _meter_lines(table, rows, None, progressive),
            )
        ]
    letter = paytables.get(tid)
    if table.paytables is not None:
        if letter not in table.paytables:
            what = f"Paytable {letter} is not one of the chapter's" if letter else "not selected"
            return [Line(f"{name}: {what}", table.cite)]
        rows = table.paytables[letter]
        return [
            Paytable(
                f"{name}, Paytable {letter}",
                table.cite,
                f"Paytable {letter}",
                _rows(game, table, rows),
                _meter_lines(table, rows, letter, progressive),
            )
        ]
    # by wager amount (Envy Bonus): the tables for the progressive's wager amount
    by_amount = table.by_wager_amount or {}
    amount = getattr(progressive, "wager_amount", None) if progressive is not None else None
    key = _amount_key(Decimal(amount) if amount is not None else None, list(by_amount))
    items: list[Item] = []
    for amt in [key] if key else list(by_amount):
        tables = by_amount[amt]
        wager_label = f"{format_money(Decimal(amt))} {game.definition.wagers[wid].name}"
        if "fixed" in tables:
            items.append(
                Paytable(
                    f"{name}, {wager_label}",
                    table.cite,
                    "Payout",
                    _rows(game, table, tables["fixed"]),
                )
            )
        elif letter in tables:
            items.append(
                Paytable(
                    f"{name}, Paytable {letter}, {wager_label}",
                    table.cite,
                    f"Paytable {letter}",
                    _rows(game, table, tables[letter]),
                )
            )
        else:
            what = f"Paytable {letter} is not one of the chapter's" if letter else "not selected"
            items.append(Line(f"{name}: {what}", table.cite))
    return items


def _wager_items(game: Game, wid: str, wager: Wager, submission: Any) -> list[Item]:
    items: list[Item] = []
    if wager.pays is not None:
        items.append(Line(f"{wager.name} pays {payout_text(wager.pays.payout)}", wager.pays.cite))
    offered = set(getattr(submission, "offered", None) or ())
    for tid, table in wager.tables.items():
        if table.optional_payout and tid not in offered:
            continue  # a payout the certificate holder "may pay": only when it does
        items += _table_items(game, wid, tid, table, submission)
    return items


def _sign(game: Game, sign: SignDef, submission: Any, offered: list[str]) -> Sign | None:
    d = game.definition
    items: list[Item] = []
    for wid in sign.payout_odds:
        if wid in offered:
            items += _wager_items(game, wid, d.wagers[wid], submission)
    values = figures(submission, d)
    for pointer in sign.lines:
        node = resolve(d, pointer)
        for line in getattr(node, "sign", None) or ():
            text = line.fill(values)
            if text is not None:
                items.append(Line(text, line.cite))
    if not items:
        return None
    return Sign(sign.id, sign.title, sign.cite, sign.placement, tuple(items))


def build_signage(
    game: Game, submission: Any, *, draft: bool = False, problems: list[str] | None = None
) -> SignSet:
    """Every sign the submission's table needs, filled with its selections."""
    d = game.definition
    offered = offered_wagers(d, getattr(submission, "offered", None))
    signs = [
        s
        for sign in (d.signage.signs if d.signage else [])
        if (s := _sign(game, sign, submission, offered)) is not None
    ]
    return SignSet(
        game_id=d.id,
        game_name=d.name,
        chapter=d.chapter,
        certificate_holder=str(getattr(submission, "certificate_holder", None) or ""),
        facility=str(getattr(submission, "facility", None) or ""),
        effective=getattr(submission, "effective", None),
        signs=tuple(signs),
        draft=draft,
        problems=tuple(problems or ()),
    )
