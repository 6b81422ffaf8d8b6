"""A table's settings for play: read from a Rules Submission, or defaults.

Only the keys the interpreter needs are read, straight from the submission's YAML
(``validator.loader.load_yaml``), so that play does not depend on the full submission model:
``table`` (``min_wager``, ``max_wager``, ``positions``), ``offered``, ``paytables``,
``progressives`` (``wager_amount``, ``meters``), ``payout_limit`` and ``custom_paytables``.

Defaults when no submission is given (``TableConfig.defaults``):

- every selectable table at its first letter (A); fixed tables as printed;
- every optional wager offered whose table the chapter prints in full and whose meters it
  fixes (not Pocket Bonus: its table is missing; not High Card Flush's Progressive Jackpot:
  its rate of progression must be stated by the certificate holder);
- progressive wagers of $1; meters seeded as the chapter fixes them for that amount;
- a minimum wager of $10, no maximum, no aggregate payout limit, all positions open;
- no optional payout (a table the certificate holder "may pay", such as Four Card Poker's
  Magic Card and Lucky Bonus, § 641a.12(g)(3)); a submission pays one by listing its table
  under ``offered`` (``offered: [five_card_hand_bonus, magic_card_lucky_bonus]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from validator.loader import LoadError, Located, load_yaml
from validator.model.notation import (
    NotationError,
    Payout,
    PayoutKind,
    parse_money,
    parse_payout,
    parse_rate,
)
from validator.model.registry import Game

DEFAULT_MIN_WAGER = Decimal(10)
DEFAULT_PROGRESSIVE_WAGER = Decimal(1)


@dataclass(frozen=True)
class MeterConfig:
    """One meter: its seed and reseed in dollars, its increments as shares of each wager."""

    seed: Decimal
    reseed: Decimal
    increment: Fraction
    reserve_increment: Fraction = Fraction(0)
    reserve_on_reset: str = "funds_reseed"  # or "moves_to_meter" (the game file's rule)


@dataclass(frozen=True)
class Progressive:
    wager_amount: Decimal
    meters: dict[str, MeterConfig]


@dataclass
class TableConfig:
    game_id: str
    source: str  # "defaults" or the submission's path
    positions: int
    min_wager: Decimal
    max_wager: Decimal | None
    offered: set[str]  # optional wagers offered
    paytables: dict[str, str]  # table id -> letter
    progressives: dict[str, Progressive]  # table id (the table with meters) -> settings
    payout_limit: Decimal | None
    custom_paytables: dict[str, dict[str, Payout]] = field(default_factory=dict)
    optional_payouts: set[str] = field(default_factory=set)  # tables the casino "may pay"

    @classmethod
    def defaults(cls, game: Game) -> TableConfig:
        d = game.definition
        cfg = cls(
            game_id=d.id,
            source="defaults",
            positions=d.table.max_positions,
            min_wager=DEFAULT_MIN_WAGER,
            max_wager=None,
            offered=set(),
            paytables={},
            progressives={},
            payout_limit=None,
        )
        for wid, wager in d.wagers.items():
            if not wager.optional:
                continue
            if all(_fully_printed(t) for t in wager.tables.values()):
                cfg.offered.add(wid)
        for wid in sorted(cfg.offered | {w for w, x in d.wagers.items() if not x.optional}):
            for tid, table in d.wagers[wid].tables.items():
                if table.meters is None:
                    continue
                meters = _chapter_meters(table, cfg.letter(game, tid), DEFAULT_PROGRESSIVE_WAGER)
                if meters is None:
                    cfg.offered.discard(wid)
                else:
                    cfg.progressives[tid] = Progressive(DEFAULT_PROGRESSIVE_WAGER, meters)
        return cfg

    def letter(self, game: Game, table_id: str) -> str | None:
        """The selected letter of a selectable table (the first letter by default)."""
        _, table = game.table(table_id)
        if not table.selectable:
            return None
        return self.paytables.get(table_id) or (table.letters[0] if table.letters else None)

    def select(self, game: Game, table_id: str, letter: str) -> None:
        """Select paytable ``letter`` of ``table_id``, and with it that paytable's meters: the
        one path by which a submission's choice and a round file's both pick a table. Meters
        the chapter fixes for the letter are its own (scaled by the wager amount); a meter the
        chapter leaves to the submission keeps the amounts stated for it."""
        before = self.letter(game, table_id)
        self.paytables[table_id] = letter
        _, table = game.table(table_id)
        prog = self.progressives.get(table_id)
        if table.meters is None or prog is None or before == letter:
            return
        self.progressives[table_id] = Progressive(
            prog.wager_amount, resolve_meters(table, letter, prog.wager_amount, prog.meters)
        )

    def wager_amount(self, table_id: str) -> Decimal:
        p = self.progressives.get(table_id)
        return p.wager_amount if p else DEFAULT_PROGRESSIVE_WAGER


def _fully_printed(table: Any) -> bool:
    if table.source == "missing":
        return False
    if table.meters is None:
        return True
    rules = [*(table.meters.all or {}).values()]
    for m in (table.meters.paytables or {}).values():
        rules += list(m.values())
    return all(r.seed is not None and r.increment not in (None, "stated") for r in rules)


def resolve_meters(
    table: Any, letter: str | None, amount: Decimal, stated: dict[str, MeterConfig]
) -> dict[str, MeterConfig]:
    """The meters of paytable ``letter``: each as the chapter fixes it for the letter, scaled
    by the wager ``amount``; where the chapter leaves a meter to the submission, as stated."""
    fixed = _chapter_meters(table, letter, amount, partial=True) or {}
    out: dict[str, MeterConfig] = {}
    for name in table.meters.for_paytable(letter):
        if name in fixed:
            out[name] = fixed[name]
        elif name in stated:
            out[name] = stated[name]
    return out


def _chapter_meters(
    table: Any, letter: str | None, amount: Decimal, partial: bool = False
) -> dict[str, MeterConfig] | None:
    out: dict[str, MeterConfig] = {}
    for name, rule in table.meters.for_paytable(letter).items():
        if rule.seed is None or rule.increment in (None, "stated"):
            if partial:
                continue
            return None
        inc = rule.increment if isinstance(rule.increment, Fraction) else Fraction(0)
        res = rule.reserve_increment
        out[name] = MeterConfig(
            seed=rule.seed * amount,
            reseed=(rule.reseed if rule.reseed is not None else rule.seed) * amount,
            increment=inc,
            reserve_increment=res if isinstance(res, Fraction) else Fraction(0),
            reserve_on_reset=rule.reserve_on_reset,
        )
    return out


class ConfigError(Exception):
    """A submission value the interpreter cannot use: file:line:column and what is wrong."""

    def __init__(self, errors: list[LoadError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


def load_config(game: Game, path: Path | str | None) -> TableConfig:
    """The table settings of ``path`` (a Rules Submission for ``game``), or the defaults."""
    cfg = TableConfig.defaults(game)
    if path is None:
        return cfg
    located = load_yaml(path)
    _Reader(game, located, cfg).read()
    return cfg


class _Reader:
    def __init__(self, game: Game, located: Located, cfg: TableConfig) -> None:
        self.game = game
        self.loc = located
        self.cfg = cfg
        self.errors: list[LoadError] = []
        self.name = str(located.path)

    def err(self, pointer: str, message: str) -> None:
        pos = self.loc.position(pointer)
        self.errors.append(LoadError(self.name, pos.line, pos.column, f"{pointer}: {message}"))

    def read(self) -> None:
        data = self.loc.data
        d = self.game.definition
        cfg = self.cfg
        if not isinstance(data, dict):
            self.err("", "a Rules Submission is a mapping of keys")
            raise ConfigError(self.errors)
        if data.get("game") != d.id:
            self.err("/game", f"the submission is for {data.get('game')!r}, not {d.id!r}")
            raise ConfigError(self.errors)
        cfg.source = self.name
        table = data.get("table") or {}
        if isinstance(table, dict):
            if "min_wager" in table:
                cfg.min_wager = self.money("/table/min_wager", table["min_wager"], cfg.min_wager)
                if cfg.min_wager is not None and cfg.min_wager <= 0:
                    self.err("/table/min_wager", "a wager is more than $0")
            if "max_wager" in table:
                cfg.max_wager = self.money("/table/max_wager", table["max_wager"], None)
            if isinstance(table.get("positions"), int):
                cfg.positions = min(int(table["positions"]), d.table.max_positions)
        offered = data.get("offered") or []
        cfg.offered = set()
        optional_tables = {t for _, t, tb in d.tables() if tb.optional_payout}
        for i, w in enumerate(offered if isinstance(offered, list) else []):
            if not isinstance(w, str):
                self.err(f"/offered/{i}", "an offered wager is named by its id, as text")
            elif w in d.wagers and d.wagers[w].optional:
                cfg.offered.add(w)
            elif w in optional_tables:
                cfg.optional_payouts.add(w)
            else:
                self.err(f"/offered/{i}", f"{w!r} is no optional wager of {d.id}")
        paytables = data.get("paytables") or {}
        table_ids = {t for _, t, _ in d.tables()}
        for key, letter in paytables.items() if isinstance(paytables, dict) else []:
            tid = key if key in table_ids else self._selectable_table(key)
            if tid is None:
                self.err(f"/paytables/{key}", f"{key!r} is no table of {d.id}")
                continue
            _, t = self.game.table(tid)
            if str(letter) not in t.letters:
                self.err(
                    f"/paytables/{key}", f"no paytable {letter!r}; expected one of {t.letters}"
                )
                continue
            cfg.select(self.game, tid, str(letter))
        custom = data.get("custom_paytables") or {}
        for key, rows in custom.items() if isinstance(custom, dict) else []:
            tid = key if key in table_ids else self._selectable_table(key) or key
            if tid not in table_ids:
                self.err(f"/custom_paytables/{key}", f"{key!r} is no table of {d.id}")
                continue
            if isinstance(rows, dict) and isinstance(rows.get("rows"), dict):
                rows = rows["rows"]
            parsed: dict[str, Payout] = {}
            for row, cell in rows.items() if isinstance(rows, dict) else []:
                try:
                    parsed[str(row)] = parse_payout(cell)
                except NotationError as e:
                    self.err(f"/custom_paytables/{key}/{row}", str(e))
            cfg.custom_paytables[tid] = parsed
        limit = data.get("payout_limit")
        if limit is not None:
            cfg.payout_limit = self.money("/payout_limit", limit, None)
        self.read_progressives(data.get("progressives") or {})
        if self.errors:
            raise ConfigError(self.errors)

    def _selectable_table(self, wager_id: str) -> str | None:
        wager = self.game.definition.wagers.get(wager_id)
        if wager is None:
            return None
        for tid, t in wager.tables.items():
            if t.selectable:
                return tid
        return next(iter(wager.tables), None)

    def money(self, pointer: str, value: Any, default: Decimal | None) -> Decimal | None:
        try:
            return parse_money(value)
        except NotationError as e:
            self.err(pointer, str(e))
            return default

    def read_progressives(self, progs: Any) -> None:
        cfg, d = self.cfg, self.game.definition
        # the chapter's meters for every offered progressive, then the submission's values
        cfg.progressives = {}
        for wid in sorted(cfg.offered | {w for w, x in d.wagers.items() if not x.optional}):
            for tid, table in d.wagers[wid].tables.items():
                if table.meters is None:
                    continue
                p = progs.get(wid) if isinstance(progs, dict) else None
                amount = DEFAULT_PROGRESSIVE_WAGER
                if isinstance(p, dict) and "wager_amount" in p:
                    amount = (
                        self.money(f"/progressives/{wid}/wager_amount", p["wager_amount"], amount)
                        or amount
                    )
                meters = resolve_meters(table, cfg.letter(self.game, tid), amount, {})
                stated = p.get("meters") if isinstance(p, dict) else None
                for name, m in stated.items() if isinstance(stated, dict) else []:
                    meters[name] = self.meter(
                        f"/progressives/{wid}/meters/{name}", m, meters.get(name)
                    )
                expected = table.meters.for_paytable(cfg.letter(self.game, tid))
                missing = [n for n in expected if n not in meters]
                if missing:
                    self.err(
                        f"/progressives/{wid}",
                        f"the meters {missing} of {wid!r} must be stated ({table.meters.cite})",
                    )
                    continue
                cfg.progressives[tid] = Progressive(amount, meters)

    def meter(self, pointer: str, m: Any, base: MeterConfig | None) -> MeterConfig:
        if not isinstance(m, dict):
            self.err(pointer, "a meter is a mapping: seed, reseed, increment, reserve_increment")
            return base or MeterConfig(Decimal(0), Decimal(0), Fraction(0))
        seed = self.money(f"{pointer}/seed", m.get("seed", base.seed if base else 0), Decimal(0))
        reseed_raw = m.get("reseed", m.get("seed", base.reseed if base else 0))
        reseed = self.money(f"{pointer}/reseed", reseed_raw, seed)
        inc = self.rate(
            f"{pointer}/increment", m.get("increment"), base.increment if base else None
        )
        res = self.rate(
            f"{pointer}/reserve_increment",
            m.get("reserve_increment"),
            base.reserve_increment if base else Fraction(0),
        )
        return MeterConfig(
            seed or Decimal(0),
            reseed or Decimal(0),
            inc or Fraction(0),
            res or Fraction(0),
            base.reserve_on_reset if base else "funds_reseed",  # the chapter's rule
        )

    def rate(self, pointer: str, value: Any, default: Fraction | None) -> Fraction | None:
        if value is None:
            if default is None:
                self.err(pointer, "a rate of progression like '25%' must be stated")
            return default
        if isinstance(value, str) and value.strip().upper() in ("N/A", "NA"):
            return Fraction(0)
        try:
            return parse_rate(value)
        except NotationError as e:
            self.err(pointer, str(e))
            return default


def paytable_rows(
    game: Game, cfg: TableConfig, table_id: str, wager_amount: Decimal | None = None
) -> dict[str, Payout] | None:
    """The rows a table pays on at this table: the selected letter, the fixed table, the
    table for the wager amount (Envy Bonus), or the custom table where the text is missing.
    ``None`` where no table can be had (missing text, none supplied, no table for the
    amount)."""
    _, table = game.table(table_id)
    if table_id in cfg.custom_paytables:
        return cfg.custom_paytables[table_id]
    if table.source == "missing":
        return None
    if table.by_wager_amount is not None:
        key = _amount_key(wager_amount)
        if key not in table.by_wager_amount:
            return None
        return table.rows(cfg.letter(game, table_id), key)
    return table.rows(cfg.letter(game, table_id))


def _amount_key(amount: Decimal | None) -> str:
    if amount is None:
        return ""
    return str(int(amount)) if amount == amount.to_integral_value() else str(amount)


def meter_kinds(rows: dict[str, Payout]) -> set[str]:
    return {p.meter for p in rows.values() if p.kind is PayoutKind.METER}
