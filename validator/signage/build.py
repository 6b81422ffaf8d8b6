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
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from validator.compiler import Game, meter_name
from validator.model.game import GameDefinition, Rows, Table, Wager
from validator.model.notation import Payout, PayoutKind, format_money, format_rate
from validator.model.poker import SplitLimit, Street, TimeRake
from validator.model.signage import SignDef, resolve
from validator.model.submission import PokerBetting, Progressive, Rake, RulesSubmission
from validator.model.submission.descriptions import CHOICES

PLACEMENT = {
    "layout": "Inscribed on the layout",
    "layout_or_sign": "Inscribed on the layout, or posted at each table",
    "sign": "Posted at each table",
    "house_sign": "Posted at each table by the house; no rule requires this sign",
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

    def cites(self, line: Line) -> bool:
        """Whether ``line`` is printed with its section: not on a sign the house posts where
        it is the sign's own (a banking table's limits, § 601a.10(a), which approves the
        signage): printed again beside each line, it read as the section requiring it."""
        return not (self.placement == "house_sign" and line.cite == self.cite)


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
    #: the rule source, its jurisdiction and date (``CompiledGame.source_line``)
    source: str = ""
    #: made as of a day (``--as-of``): that day, then the chapter's state on it, in words
    as_of: tuple[str, ...] = field(default=())
    #: where the filing's effective date finds the encoded text not the regulation (a
    #: chapter rescinded or expired), what ``validate`` warns of, with its citation
    in_force: tuple[str, ...] = field(default=())
    #: why a draft is not for posting, where it is not the submission's errors
    draft_reason: str = ""

    @property
    def draft_notice(self) -> str:
        """The draft's one line: why these signs are not for posting."""
        return f"DRAFT: {self.draft_reason or 'the Rules Submission has errors'}; not for posting"


def offered_wagers(definition: GameDefinition, offered: list[str] | None) -> list[str]:
    """The base game's wagers and the optional ones offered, in the game file's order."""
    chosen = set(offered or ())
    return [w for w, wager in definition.wagers.items() if not wager.optional or w in chosen]


def figures(
    submission: RulesSubmission, definition: GameDefinition | None = None
) -> dict[str, str]:
    """The figures sign text may name, as printed; absent ones are left out."""
    out: dict[str, str] = {}
    out.update(poker_figures(submission, definition))
    if submission.certificate_holder:
        out["certificate_holder"] = submission.certificate_holder
    if submission.facility:
        out["facility"] = submission.facility
    table = submission.table
    if table is not None and table.min_wager is not None:
        out["min_wager"] = _money(table.min_wager)
    if table is not None and table.max_wager is not None:
        out["max_wager"] = _money(table.max_wager)
    if submission.payout_limit is not None:
        out["payout_limit"] = _money(submission.payout_limit)
        out["payout_limit_excludes"] = _excluded(submission, definition)
    return out


def _excluded(submission: RulesSubmission, definition: GameDefinition | None) -> str:
    """The payout limit's exclusions the table offers, as a sentence: a wager not offered
    there is not named on its sign (§ 678a.12(e): "shall not include winning Progressive
    Jackpot Wagers")."""
    rule = definition.payout_limit if definition is not None else None
    if rule is None or definition is None:
        return ""
    offered = offered_wagers(definition, submission.offered)
    names = [f"{definition.wagers[w].name}s" for w in rule.excludes if w in offered]
    return f" Winning {' and '.join(names)} are not included." if names else ""


def _money(value: Decimal) -> str:
    return format_money(value)


KILL = {
    "kill": ("Kill option", "twice the posted limits"),
    "half_kill": ("Half-kill option", "the posted limits increased by one-half"),
}
TIME_BASIS = CHOICES["time/basis"]
#: § 553.15(b)(3)(i): "if taken on a per-player basis, inactive players seated at the table
#: shall also be assessed" (``inactive_players_assessed``)
INACTIVE_ASSESSED = ", inactive seated players included"
#: what the Bad Beat payout rules posted in the Poker room must address (§ 553.20(b)(1)-(3),
#: ``rules_posted``), and the submission's figure that states it
BAD_BEAT_RULES = {
    "max_contribution_and_method": ("the most contributed from each pot", "max_contribution"),
    "minimum_pot": ("the minimum pot for a contribution", "minimum_pot"),
    "qualifying_hands_and_payouts": ("the qualifying hands and payouts", "qualifying_hands"),
}


#: a Bad Beat payout's amount on its notice: never a printed number, stale once printed, as
#: the amount displayed is adjusted at least once a day and on each payout (§ 553.20(h)(1))
ON_THE_DISPLAY = "the current amount is displayed in the Poker area"


def poker_figures(submission: RulesSubmission, definition: GameDefinition | None) -> dict[str, str]:
    """A Poker table's figures: raises, forced wagers, rake, Kill, Bad Beat (ch. 553).
    A figure the submission leaves out, or whose rule it does not use, is absent."""
    out: dict[str, str] = {}
    betting = submission.betting
    streets = definition.deal.streets if definition and definition.deal else {}
    if betting is not None:
        split = definition.betting.split_limit if definition and definition.betting else None
        played = definition.deal.bets_the_upper_limit() if definition and definition.deal else False
        out.update(_betting_figures(betting, streets, split, played))
    ante = submission.ante
    if ante is not None and ante.required and ante.amount is not None:
        out["ante"] = _money(ante.amount)
    elif ante is not None and ante.required is False:  # the rule governing the Ante, "if
        out["ante"] = "none"  # any", is posted (§ 553.11(b)): a table without one says so
    if submission.blinds:
        out["blinds"] = ", ".join(_money(b) for b in submission.blinds)
    if submission.forced_bet is not None:
        out["forced_bet"] = _money(submission.forced_bet)
    if submission.rake is not None:
        time_rules = definition.rake.time if definition and definition.rake else None
        out.update(_rake_figures(submission.rake, time_rules))
    kill = betting.kill if betting is not None else None
    rules = definition.betting.kill if definition and definition.betting else None
    if kill is not None and kill.option in KILL and rules is not None:
        out["kill_option"], out["kill_limits"] = KILL[kill.option]
        if kill.qualifying_pot is not None and rules.qualifying_pot_stated:
            out["qualifying_pot"] = _money(kill.qualifying_pot)
        times = next((t for o, t in rules.options.items() if o == kill.option), None)
        table = submission.table
        limits = {
            "min_wager": table.min_wager if table is not None else None,
            "max_wager": table.max_wager if table is not None else None,
        }
        for key, value in limits.items():
            if times is not None and value is not None:
                out[f"kill_{key}"] = _money(value * times.numerator / times.denominator)
    bad_beat = submission.bad_beat
    if bad_beat is not None and bad_beat.offered:
        out["bad_beat_amount"] = ON_THE_DISPLAY  # live: stale the moment it is printed
        amounts = {
            "bad_beat_max_contribution": bad_beat.max_contribution,
            "bad_beat_minimum_pot": bad_beat.minimum_pot,
        }
        for key, amount in amounts.items():
            if amount is not None:
                out[key] = _money(amount)
        if bad_beat.qualifying_hands:
            out["bad_beat_hands"] = bad_beat.qualifying_hands
        if bad_beat.payouts:
            out["bad_beat_payouts"] = bad_beat.payouts
        if bad_beat.contribution_method:  # § 553.20(b)(1): "the method of calculation"
            out["bad_beat_method"] = " ".join(bad_beat.contribution_method.split())
    return out


def _betting_figures(
    betting: PokerBetting,
    streets: Mapping[str, Street],
    split: SplitLimit | None = None,
    split_unstated: bool = False,
) -> dict[str, str]:
    """The raise caps, the check-raise ban and the limit structure a Poker table posts: a
    split limit with the street its upper limit applies from, and the earlier street an open
    pair brings it to where the game's rules say so (the house Seven-Card Stud (12)(iv))."""
    out: dict[str, str] = {}
    if isinstance(betting.max_raises, int):
        out["max_raises"] = str(betting.max_raises)
    by_round = betting.max_raises_by_round
    if by_round:
        out["max_raises_by_round"] = "; ".join(
            f"{streets[k].name if k in streets else k}: {n}" for k, n in by_round.items()
        )
    if betting.check_raise is False:
        out["check_raise_ban"] = "A player may not raise after checking in a betting round"
    structure = betting.structure
    if structure is None and split_unstated:  # the game file's split, as the rounds play it
        structure = "split"
    if structure is not None:
        # the street the upper limit starts on: the submission's, else the game file's
        upper = betting.upper_from or (split.upper_from if split is not None else None)
        out["limit_structure"] = {
            "spread": "spread limit: any bet or raise from the minimum to the maximum wager",
            "fixed": "fixed limit: every bet and raise is the posted wager",
            "split": "split limit: the minimum wager, then the maximum wager"
            + (f" from {streets[upper].in_sentence}" if upper and upper in streets else "")
            + _open_pair(split, streets),
        }[structure]
    return out


def _open_pair(split: SplitLimit | None, streets: Mapping[str, Street]) -> str:
    at = split.open_pair_street if split is not None and split.open_pair == "upper" else None
    if at is None or at not in streets:
        return ""
    street = streets[at].in_sentence
    return f", or from {street} when any player's up-cards show a pair there"


def _levels(levels: list[tuple[Any, Any]]) -> str:
    """An incremental rake's levels as the table takes them, each level's amount added to
    those before it (§ 553.15(b)(2): "incremental amounts"): "$1 at $20, $2 more at $40
    ($3 in all)", so that the sign says what a $40 pot pays."""
    said, total = [], 0
    for k, (pot, rake) in enumerate(levels):
        total += rake
        said.append(
            f"{_money(rake)} at {_money(pot)}"
            if k == 0
            else f"{_money(rake)} more at {_money(pot)} ({_money(total)} in all)"
        )
    return ", ".join(said)


def _rake_figures(rake: Rake, time_rules: TimeRake | None) -> dict[str, str]:
    """The rake's maximum and, for each type the table uses, its rate, levels or fee; a
    time charge per player says that inactive seated players pay it where the game's rules
    assess them (§ 553.15(b)(3)(i))."""
    out: dict[str, str] = {}
    types = rake.types or ()
    if rake.maximum is not None:
        out["rake_maximum"] = _money(rake.maximum)
    if rake.methodology:
        out["rake_methodology"] = " ".join(rake.methodology.split())
    if "percentage" in types and rake.percentage and rake.percentage.rate is not None:
        out["rake_percentage"] = format_rate(rake.percentage.rate)
    if "incremental" in types and rake.incremental and rake.incremental.levels:
        levels = [
            (lv.pot, lv.rake)
            for lv in rake.incremental.levels
            if lv.pot is not None and lv.rake is not None and lv.rake
        ]
        if levels:
            out["rake_levels"] = _levels(sorted(levels))
    time = rake.time if "time" in types else None
    if time is not None:
        if time.hourly_fee is not None:
            out["rake_hourly_fee"] = _money(time.hourly_fee)
        if time.basis is not None:
            out["rake_time_basis"] = TIME_BASIS[time.basis]
            if time.basis == "per_player" and time_rules and time_rules.inactive_players_assessed:
                out["rake_time_basis"] += INACTIVE_ASSESSED
        if time.every_minutes is not None:
            out["rake_time_minutes"] = str(time.every_minutes)
    return out


def payout_text(payout: Payout) -> str:
    """A cell as the chapter prints it (the odds tables print "Push")."""
    return "Push" if payout.kind is PayoutKind.PUSH else payout.text


def _amount_key(amount: Decimal | None, keys: list[str]) -> str | None:
    if amount is None:
        return None
    for key in keys:
        if Decimal(key) == amount:
            return key
    return None


def _rows(
    game: Game, table: Table, rows: Rows, as_stated: bool = False
) -> tuple[tuple[str, str], ...]:
    """A table's rows that pay, in the chapter's order; a table the submission states (its
    text missing from the regulation), in the order the submission writes them."""
    if as_stated:
        names = dict(game.row_names(table))
        return tuple(
            (names[hand], payout_text(payout))
            for hand, payout in rows.items()
            if hand in names and payout.pays
        )
    return tuple(
        (name, payout_text(rows[hand]))
        for hand, name in game.row_names(table)
        if hand in rows and rows[hand].pays
    )


def _meter_lines(
    table: Table, rows: Rows, letter: str | None, progressive: Progressive | None
) -> tuple[Line, ...]:
    meters = table.meters
    if meters is None or not meters.sign:
        return ()
    used: list[str] = []
    for payout in rows.values():
        if payout.kind is PayoutKind.METER and payout.meter not in used:
            used.append(payout.meter)
    rules = meters.for_paytable(letter)
    stated = (progressive.meters or {}) if progressive is not None else {}
    amount = progressive.wager_amount if progressive is not None else None
    out: list[Line] = []
    for name in used:
        rule, given = rules.get(name), stated.get(name)
        values: dict[str, str] = {"meter": meter_name(name)}
        figures = {
            "seed": (given.seed if given else None, rule.seed if rule else None),
            "reseed": (given.reseed if given else None, rule.reseed if rule else None),
        }
        for key, (value, per_unit) in figures.items():
            if value is None and per_unit is not None and amount is not None:
                value = per_unit * amount
            if value is not None:
                values[key] = format_money(value)
        for sign in meters.sign:
            text = sign.fill(values)
            if text is not None:
                out.append(Line(text, sign.cite))
    return tuple(out)


def _table_items(
    game: Game, wid: str, tid: str, table: Table, submission: RulesSubmission
) -> list[Item]:
    paytables = submission.paytables or {}
    custom = submission.custom_paytables or {}
    progressive = (submission.progressives or {}).get(wid)
    # a wager's own table goes by the wager's name ("Aces Up Wager"), others by theirs
    name = game.definition.wagers[wid].name if tid == wid else table.name
    if table.source == "missing":
        rows = custom.get(tid)
        if not rows:
            return [Line(f"{name}: no paytable is stated in the Rules Submission", table.cite)]
        cite = f"{table.cite}, missing from the regulation text: as stated in the Rules Submission"
        return [Paytable(name, cite, "Payout", _rows(game, table, rows, as_stated=True))]
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
    amount = progressive.wager_amount if progressive is not None else None
    key = _amount_key(amount, list(by_amount))
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


def _wager_items(game: Game, wid: str, wager: Wager, submission: RulesSubmission) -> list[Item]:
    items: list[Item] = []
    if wager.pays is not None:
        items.append(Line(f"{wager.name} pays {payout_text(wager.pays.payout)}", wager.pays.cite))
    offered = set(submission.offered or ())
    for tid, table in wager.tables.items():
        if table.optional_payout and tid not in offered:
            continue  # a payout the certificate holder "may pay": only when it does
        items += _table_items(game, wid, tid, table, submission)
    return items


def unstated(definition: GameDefinition, submission: RulesSubmission) -> list[str]:
    """What the game's rules say a Poker table posts or states, and the submission does not
    give, so that its sign cannot say it: the Kill's qualifying pot (§ 553.1, where
    ``qualifying_pot_stated``), the figures the Bad Beat payout rules must address
    (``rules_posted``, § 553.20(b)(1)-(3)), the limits an hourly time charge is based on
    (``hourly_by_limits``, § 553.15(b)(3)(ii))."""
    out: list[str] = []
    rules = definition.betting.kill if definition.betting else None
    kill = submission.betting.kill if submission.betting else None
    option = kill.option if kill is not None and kill.qualifying_pot is None else None
    if rules and rules.qualifying_pot_stated and option is not None and option in KILL:
        out.append(f"the {KILL[option][0]} is used, but no qualifying pot is stated [{rules.cite}]")
    bad_beat = submission.bad_beat
    if definition.bad_beat is not None and bad_beat is not None and bad_beat.offered:
        for item in definition.bad_beat.rules_posted:
            what, figure = BAD_BEAT_RULES[item]
            if not getattr(bad_beat, figure):
                cite = definition.bad_beat.rules_cite
                out.append(f"the Bad Beat payout rules posted must state {what} [{cite}]")
    time = definition.rake.time if definition.rake else None
    rake = submission.rake
    if time and time.hourly_by_limits and rake and "time" in (rake.types or ()):
        table = submission.table
        if table is None or table.min_wager is None or table.max_wager is None:
            out.append(
                "a time charge is an hourly fee based on the table's minimum and maximum "
                f"wagers, which the submission does not state [{time.cite}]"
            )
    return out


def _sign(
    game: Game, sign: SignDef, submission: RulesSubmission, offered: list[str]
) -> Sign | None:
    d = game.definition
    items: list[Item] = []
    for wid in sign.payout_odds:
        if wid in offered:
            items += _wager_items(game, wid, d.wagers[wid], submission)
    values = figures(submission, d)
    for pointer in sign.lines:
        node = resolve(d, pointer)
        if getattr(node, "posted", True) is False:
            continue  # the rule says the table need not post these (§ 553.18: ``posted``)
        for line in getattr(node, "sign", None) or ():
            text = line.fill(values)
            if text is not None:
                items.append(Line(text, line.cite))
    if not items:
        return None
    return Sign(sign.id, sign.title, sign.cite, sign.placement, tuple(items))


def build_signage(
    game: Game,
    submission: RulesSubmission,
    *,
    draft: bool = False,
    problems: list[str] | None = None,
) -> SignSet:
    """Every sign the submission's table needs (the submission as ``rulesub validate`` read
    it), filled with its selections."""
    d = game.definition
    offered = offered_wagers(d, submission.offered)
    signs = [
        s
        for sign in (d.signage.signs if d.signage else [])
        if (s := _sign(game, sign, submission, offered)) is not None
    ]
    return SignSet(
        game_id=d.id,
        game_name=d.name,
        chapter=d.chapter,
        certificate_holder=submission.certificate_holder or "",
        facility=submission.facility or "",
        effective=submission.effective,
        signs=tuple(signs),
        draft=draft,
        problems=tuple(problems or ()) + tuple(unstated(d, submission)),
        source=game.source_line,
    )
