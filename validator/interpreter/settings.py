"""The one reader of a Rules Submission's table settings, for both kinds of game.

A submission is read as ``rulesub validate`` reads it (``load_submission``), once, and the
compiled game's type decides what its table is: a banking game's ``TableConfig`` (table
limits, offered wagers, selected paytables, custom tables, meters, payout limit) or a
nonbanking Poker game's ``TableSetup`` (stakes, rake, Bad Beat, Kill). What cannot be used
is one error, ``ConfigError``, each problem at the submission's file:line:column:

- a value written in the file that was not read as written (a misspelt ``paytabels:``,
  money that is no amount) is refused with validate's own words and code, unless
  ``allow_findings``: then the table is set from what could be read (a DRAFT);
- a submission for another game;
- what the model could not check alone: ids of this game's wagers, tables and streets,
  meters the chapter leaves to the certificate holder, limits and forced bets no simulated
  player could be dealt in with, rake and Bad Beat figures not stated as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from validator.compiler import BankingGame, Game, PokerGame
from validator.errors import ConfigError
from validator.interpreter.config import (
    DEFAULT_PROGRESSIVE_WAGER,
    MeterConfig,
    Progressive,
    TableConfig,
    resolve_meters,
)
from validator.interpreter.poker.bad_beat import HIGH_HANDS_ONLY, BadBeatRule
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.table import (
    BUY_IN_UPPER_BETS,
    Rules,
    TableSetup,
    default_setup,
    has_blinds,
    limits,
)
from validator.loader import LoadError, Located
from validator.money import Cents, dollar_text, to_cents

if TYPE_CHECKING:
    from validator.model.submission import LoadedSubmission, RulesSubmission
    from validator.model.submission import Meter as StatedMeter
    from validator.model.submission import Progressive as StatedProgressive

#: A table's settings: a banking game's, or a nonbanking Poker game's.
TableSettings = TableConfig | TableSetup


@overload
def read_settings(
    game: BankingGame, path: Path | str | None, *, allow_findings: bool = False
) -> TableConfig: ...
@overload
def read_settings(
    game: PokerGame, path: Path | str | None, *, allow_findings: bool = False
) -> TableSetup: ...
@overload
def read_settings(
    game: Game, path: Path | str | None, *, allow_findings: bool = False
) -> TableSettings: ...
def read_settings(
    game: Game, path: Path | str | None, *, allow_findings: bool = False
) -> TableSettings:
    """The table settings of ``path`` (a Rules Submission for ``game``), or the defaults
    where there is none. Raises ``ConfigError`` (what cannot be used, each at its place) or
    ``LoadError`` (the file cannot be read)."""
    if path is None:
        return default_settings(game)
    from validator.model.submission import load_submission

    return _settings_of(game, load_submission(path), allow_findings=allow_findings)


@overload
def default_settings(game: BankingGame) -> TableConfig: ...
@overload
def default_settings(game: PokerGame) -> TableSetup: ...
@overload
def default_settings(game: Game) -> TableSettings: ...
def default_settings(game: Game) -> TableSettings:
    """The documented defaults of a table with no Rules Submission."""
    if isinstance(game, PokerGame):
        return default_setup(game)
    return TableConfig.defaults(game)


def stated_settings(game: Game, sub: RulesSubmission, name: str) -> TableSettings | None:
    """The table settings of a submission already read (``name``: its file, as shown), or
    ``None`` where a value cannot be used (``read_settings`` says which, at its line): for
    a document that shows what a setting means beside what the file says."""
    if sub.game != game.definition.id:
        return None
    place = _Place(Located(Path(name), None))
    try:
        if isinstance(game, PokerGame):
            return _poker_setup(game, sub, place)
        return _BankingReader(game, place, TableConfig.defaults(game)).read(sub)
    except ConfigError:
        return None


def _settings_of(
    game: Game, loaded: LoadedSubmission, *, allow_findings: bool = False
) -> TableSettings:
    """The table settings a submission read states (see the module's docstring)."""
    place = _Place(loaded.located)
    refused = [p for p in loaded.problems if p.misread and not allow_findings]
    if loaded.submission is None:
        refused = loaded.problems
    if refused or loaded.submission is None:
        raise ConfigError(
            [
                LoadError(place.name, p.line, p.column, f"error {p.code} {p.message}")
                for p in refused
            ]
        )
    sub = loaded.submission
    d = game.definition
    if sub.game != d.id:
        raise ConfigError([place.at("/game", f"the submission is for {sub.game!r}, not {d.id!r}")])
    if isinstance(game, PokerGame):
        return _poker_setup(game, sub, place)
    return _BankingReader(game, place, TableConfig.defaults(game)).read(sub)


class _Place:
    """Where a submission's value lies (file:line:column, by its JSON pointer), and the
    problems found so far."""

    def __init__(self, located: Located) -> None:
        self.located = located
        self.name = str(located.path)
        self.found: list[LoadError] = []

    def at(self, pointer: str, message: str) -> LoadError:
        pos = self.located.position(pointer)
        return LoadError(self.name, pos.line, pos.column, f"{pointer}: {message}")

    def add(self, pointer: str, message: str) -> None:
        self.found.append(self.at(pointer, message))

    def check(self) -> None:
        """Refuse what was found, every problem at once."""
        if self.found:
            raise ConfigError(self.found)


# -- a banking table ---------------------------------------------------------------------------


class _BankingReader:
    """A banking table's settings from the parsed submission: only what the model could
    not check alone (ids of this game's wagers and tables, meters the chapter leaves to the
    certificate holder) is refused here, each with its line."""

    def __init__(self, game: Game, place: _Place, cfg: TableConfig) -> None:
        self.game = game
        self.place = place
        self.cfg = cfg

    def read(self, sub: RulesSubmission) -> TableConfig:
        d = self.game.definition
        cfg = self.cfg
        cfg.source = self.place.name
        if sub.table is not None:
            if sub.table.min_wager is not None:
                cfg.min_wager = sub.table.min_wager
            if sub.table.max_wager is not None:
                cfg.max_wager = sub.table.max_wager
            if sub.table.positions is not None:
                cfg.positions = min(sub.table.positions, d.table.max_positions)
        cfg.offered = set()
        optional_tables = {t for _, t, tb in d.tables() if tb.optional_payout}
        for i, w in enumerate(sub.offered or ()):
            if w in d.wagers and d.wagers[w].optional:
                cfg.offered.add(w)
            elif w in optional_tables:
                cfg.optional_payouts.add(w)
            else:
                self.place.add(f"/offered/{i}", f"{w!r} is no optional wager of {d.name}")
        table_ids = {t for _, t, _ in d.tables()}
        for key, letter in (sub.paytables or {}).items():
            tid = key if key in table_ids else self._selectable_table(key)
            if tid is None:
                self.place.add(f"/paytables/{key}", f"{key!r} is no table of {d.name}")
                continue
            _, t = self.game.table(tid)
            if letter not in t.letters:
                self.place.add(
                    f"/paytables/{key}",
                    f"no paytable {letter!r}; the chapter's are {', '.join(t.letters)}",
                )
                continue
            cfg.select(self.game, tid, letter)
        for key, rows in (sub.custom_paytables or {}).items():
            tid = key if key in table_ids else self._selectable_table(key) or key
            if tid not in table_ids:
                self.place.add(f"/custom_paytables/{key}", f"{key!r} is no table of {d.name}")
                continue
            cfg.custom_paytables[tid] = dict(rows)
        if sub.payout_limit is not None:
            cfg.payout_limit = sub.payout_limit
        self.read_progressives(sub.progressives or {})
        self.place.check()
        return cfg

    def _selectable_table(self, wager_id: str) -> str | None:
        wager = self.game.definition.wagers.get(wager_id)
        if wager is None:
            return None
        for tid, t in wager.tables.items():
            if t.selectable:
                return tid
        return next(iter(wager.tables), None)

    def read_progressives(self, progs: Mapping[str, StatedProgressive]) -> None:
        cfg, d = self.cfg, self.game.definition
        # the chapter's meters for every offered progressive, then the submission's values
        cfg.progressives = {}
        for wid in sorted(cfg.offered | {w for w, x in d.wagers.items() if not x.optional}):
            for tid, table in d.wagers[wid].tables.items():
                if table.meters is None:
                    continue
                p = progs.get(wid)
                amount = DEFAULT_PROGRESSIVE_WAGER
                if p is not None and p.wager_amount is not None:
                    amount = p.wager_amount
                meters = resolve_meters(table, cfg.letter(self.game, tid), amount, {})
                for name, m in ((p.meters or {}) if p is not None else {}).items():
                    meters[name] = self.meter(
                        f"/progressives/{wid}/meters/{name}", m, meters.get(name)
                    )
                expected = table.meters.for_paytable(cfg.letter(self.game, tid))
                missing = [n for n in expected if n not in meters]
                if missing:
                    self.place.add(
                        f"/progressives/{wid}",
                        f"the meters {missing} of {wid!r} must be stated ({table.meters.cite})",
                    )
                    continue
                cfg.progressives[tid] = Progressive(amount, meters)

    def meter(self, pointer: str, m: StatedMeter, base: MeterConfig | None) -> MeterConfig:
        seed = m.seed if m.seed is not None else base.seed if base else Decimal(0)
        reseed = (
            m.reseed
            if m.reseed is not None
            else m.seed
            if m.seed is not None
            else base.reseed
            if base
            else Decimal(0)
        )
        increment = m.increment if m.increment is not None else base.increment if base else None
        if increment is None:
            self.place.add(
                f"{pointer}/increment", "a rate of progression like '25%' must be stated"
            )
        reserve = (
            m.reserve_increment
            if m.reserve_increment is not None
            else base.reserve_increment
            if base
            else Fraction(0)
        )
        return MeterConfig(
            seed,
            reseed,
            increment or Fraction(0),
            reserve,
            base.reserve_on_reset if base else "funds_reseed",  # the chapter's rule
        )


# -- a nonbanking Poker table ------------------------------------------------------------------


def _poker_setup(game: PokerGame, sub: RulesSubmission, place: _Place) -> TableSetup:
    """The stakes, rake, Bad Beat and Kill a Rules Submission states."""
    err = place.at
    d = game.definition
    base = default_setup(game)
    stakes = base.stakes
    table = sub.table
    bet = sub.betting
    structure = bet.structure if bet is not None else None
    if table is not None and table.min_wager is not None:
        low = to_cents(table.min_wager)
        high = to_cents(table.max_wager) if table.max_wager is not None else low
        if high < low:
            raise ConfigError([err("/table/max_wager", "less than the minimum wager")])
        lower, upper = limits(game, low, high, structure)
        stakes = replace(stakes, lower=lower, upper=upper)
    streets = list(d.deal.streets) if d.deal is not None else []
    if bet is not None:
        problems = [
            err(f"/betting/max_raises_by_round/{k}", f"no street {k!r}: {', '.join(streets)}")
            for k in bet.max_raises_by_round or {}
            if k not in streets
        ]
        if bet.upper_from is not None and bet.upper_from not in streets:
            problems.append(err("/betting/upper_from", f"one of {', '.join(streets)}"))
        if problems:
            raise ConfigError(problems)
        stakes = replace(
            stakes,
            max_raises_by_street=dict(bet.max_raises_by_round or {}),
            check_raise=bet.check_raise,
            upper_from=bet.upper_from if structure == "split" else None,
        )
    if sub.showdown is not None and sub.showdown.discarded_hands_shown:
        stakes = replace(stakes, show_all=True)
    ante = _c(sub.ante.amount) if sub.ante and sub.ante.required else 0
    blinds = tuple(to_cents(b) for b in sub.blinds) if sub.blinds else ()
    forced = _c(sub.forced_bet)  # as stated: a default only where none is
    defaults: list[str] = []  # what the engines play where the submission is silent
    if forced is None and d.betting is not None and d.betting.forced_bet is not None:
        forced = stakes.lower.min_bet // 2 // 100 * 100 or stakes.lower.min_bet
        defaults.append(f"a Forced Bet of {dollar_text(forced)}")
    if has_blinds(game) and not blinds:
        raise ConfigError([err("/blinds", f"{d.name} is played with Blind Bets: state them")])
    max_raises = stakes.max_raises
    kill = None
    if sub.betting is not None:
        mr = sub.betting.max_raises
        max_raises = None if mr == "unlimited" else (mr if mr is not None else max_raises)
        k = sub.betting.kill
        if k is not None and k.option in ("kill", "half_kill") and d.betting is not None:
            options = d.betting.kill.options if d.betting.kill is not None else {}
            if k.option in options and k.qualifying_pot is not None:
                kill = KillRule(k.option, options[k.option], to_cents(k.qualifying_pot))
    if (sub.betting is None or sub.betting.max_raises is None) and max_raises is not None:
        own = set(sub.betting.max_raises_by_round or {}) if sub.betting is not None else set()
        if any(s not in own for s in streets):  # a round's own limit is played where stated
            where = " where no round's own limit is stated" if own else ""
            defaults.append(f"{max_raises} raises a betting round{where}")
    stakes = replace(
        stakes, ante=ante or 0, blinds=blinds, forced_bet=forced or 0, max_raises=max_raises
    )
    buy_in = BUY_IN_UPPER_BETS * (stakes.upper or stakes.lower).max_bet
    if stakes.required() > buy_in:
        stakes_cite = d.betting.table_stakes.cite if d.betting is not None else "table stakes"
        where = "/blinds" if blinds else "/ante" if ante else "/forced_bet"
        raise ConfigError(
            [
                err(
                    where,
                    f"a player must have {dollar_text(stakes.required())} on the table to be "
                    f"dealt in ({stakes_cite}), more than the {dollar_text(buy_in)} the "
                    f"simulated players buy in for ({BUY_IN_UPPER_BETS} upper bets of this "
                    "table's limits): no hand could be dealt",
                )
            ]
        )
    rake, time = _rake(sub, err)
    bad_beat = _bad_beat(game, sub, err)
    positions = d.table.max_positions
    if table is not None and table.positions is not None:
        positions = min(positions, table.positions)
    dealing, rotation = sub.dealing, sub.deck_rotation
    alternated = (
        dealing is not None
        and dealing.decks == 2
        and not (rotation is not None and rotation.alternated_every_round is False)
    )
    return TableSetup(
        stakes,
        Rules(rake=rake, bad_beat=bad_beat, kill=kill, time=time),
        positions,
        place.name,
        alternated,
        tuple(defaults),
    )


def _c(value: Decimal | None) -> Cents | None:
    return None if value is None else to_cents(value)


def _rake(sub: RulesSubmission, err: Any) -> tuple[RakeRule | None, RakeRule | None]:
    """The rake from the pots and the time charges beside it, of every procedure the
    submission lists (§ 553.15(b): "one or more"), whatever their order; time charges
    alone are the table's rake. A percentage and an incremental rake both taken from
    the same pots are refused: how the two would combine is not stated."""
    r = sub.rake
    if r is None or not r.types:
        return None, None
    kinds = list(dict.fromkeys(r.types))
    pot_kinds = [k for k in kinds if k != "time"]
    if len(pot_kinds) > 1:
        raise ConfigError(
            [
                err(
                    "/rake/types",
                    "a percentage and an incremental rake both taken from the pots: the "
                    "Rules Submission does not say how they combine, so no round can be "
                    "settled; state one of them",
                )
            ]
        )
    rules = [_rake_of(r, kind, err) for kind in kinds]
    pot = next((x for x in rules if x.kind != "time"), None)
    time = next((x for x in rules if x.kind == "time"), None)
    return (pot, time) if pot is not None else (time, None)


def _rake_of(r: Any, kind: str, err: Any) -> RakeRule:
    """One procedure of the submission's rake, as it states it."""
    cap = _c(r.maximum)
    if kind == "percentage" and r.percentage is not None and r.percentage.rate is not None:
        per_round = r.percentage.taken == "per_betting_round"
        return RakeRule("percentage", rate=r.percentage.rate, cap=cap, per_betting_round=per_round)
    if kind == "incremental" and r.incremental is not None and r.incremental.levels:
        levels = tuple(
            sorted(
                (to_cents(lv.pot), to_cents(lv.rake))
                for lv in r.incremental.levels
                if lv.pot is not None and lv.rake is not None
            )
        )
        return RakeRule("incremental", cap=cap, levels=levels)
    if kind == "time" and r.time is not None and r.time.hourly_fee is not None:
        return RakeRule(
            "time",
            cap=cap,
            hourly=to_cents(r.time.hourly_fee),
            every_minutes=r.time.every_minutes or 30,
            basis=r.time.basis or "per_player",
        )
    raise ConfigError([err(f"/rake/{kind}", f"the {kind} rake's figures are not stated")])


def _bad_beat(game: Game, sub: RulesSubmission, err: Any) -> BadBeatRule | None:
    """The Bad Beat rules as the submission states them in data (§ 553.20(b)): the
    contribution (a fixed ``max_contribution``, or ``contribution_rate`` of the pot after
    the rake capped at it), the minimum pot, the fund (``current_amount``), the qualifying
    hand (``qualifying``) and the shares of the fund (``shares``). The posted wording is
    never read for figures: what is not stated as data is an error here."""
    bb = sub.bad_beat
    if bb is None or not bb.offered or game.definition.bad_beat is None:
        return None
    sd = game.definition.showdown
    if sd is None or not sd.high:
        name = game.definition.name
        raise ConfigError([err("/bad_beat", f"{name} ranks low hands only: {HIGH_HANDS_ONLY}")])
    q, shares = bb.qualifying, bb.shares
    ev = game.evaluator(sd.high)
    problems = []
    if q is None or q.at_least is None:
        problems.append(
            err("/bad_beat", f"state `qualifying: {{at_least: …}}`, one of {', '.join(ev.ids)}")
        )
    else:
        for key in ("at_least", "beaten_by"):
            value = getattr(q, key)
            if value is not None and value not in ev.ids:
                problems.append(err(f"/bad_beat/qualifying/{key}", f"one of {', '.join(ev.ids)}"))
        if q.hand not in (None, "high"):
            hand = f"{HIGH_HANDS_ONLY}: high, not {q.hand}"
            problems.append(err("/bad_beat/qualifying/hand", hand))
    if shares is None:
        problems.append(err("/bad_beat", "state `shares: {losing_hand: 50%, …}`"))
    elif sum(x or 0 for x in (shares.losing_hand, shares.winning_hand, shares.table)) > 1:
        problems.append(err("/bad_beat/shares", "the shares come to more than the whole fund"))
    if bb.max_contribution is None and bb.contribution_rate is None:
        problems.append(err("/bad_beat", "state `max_contribution` (or a contribution_rate)"))
    if problems:
        raise ConfigError(problems)
    assert q is not None and q.at_least is not None and shares is not None
    return BadBeatRule(
        amount=None if bb.contribution_rate is not None else _c(bb.max_contribution),
        rate=bb.contribution_rate,
        max=_c(bb.max_contribution),
        min_pot=_c(bb.minimum_pot) or 0,
        fund=_c(bb.current_amount) or 0,
        hand=sd.high,
        at_least=q.at_least,
        rank_at_least=q.rank_at_least,
        hole_cards=q.hole_cards or 0,
        beaten_by=q.beaten_by,
        losing_share=shares.losing_hand or Fraction(0),
        winning_share=shares.winning_hand or Fraction(0),
        table_share=shares.table or Fraction(0),
    )
