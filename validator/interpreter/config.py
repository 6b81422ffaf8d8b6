"""A banking table's settings for play (``TableConfig``): derived from a Rules Submission,
or defaults.

A submission's settings are read by the one reader of a submission's table settings
(``validator.interpreter.settings``), for this kind of game and nonbanking Poker alike; of
the submission (the one model ``rulesub validate`` reads) a banking table takes ``table``
(``min_wager``, ``max_wager``, ``positions``), ``offered``, ``paytables``, ``progressives``
(``wager_amount``, ``meters``), ``payout_limit`` and ``custom_paytables``.

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

from validator.compiler import Game
from validator.model.game import MeterRule, Table
from validator.model.notation import Payout, PayoutKind

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

    def meter_seeds(self, table_id: str) -> dict[str, Decimal] | None:
        """The submission's meters for a progressive table, at their seed (dollars)."""
        p = self.progressives.get(table_id)
        return None if p is None else {name: m.seed for name, m in p.meters.items()}

    def meters_priced(
        self, game: Game, table_id: str, letter: str | None
    ) -> dict[str, Decimal] | None:
        """The submission's meters a table is priced at on ``letter``: its own where the
        letter is the one it selects (or the table has no letters: a single or a stated
        table), else none, so another paytable is priced at the seeds the chapter fixes for
        it (§ 641a.12(d)(3) fixes a seed per paytable), never at the selected one's."""
        return self.meter_seeds(table_id) if self.meters_go_with(game, table_id, letter) else None

    def meters_go_with(self, game: Game, table_id: str, letter: str | None) -> bool:
        """Whether the submission's meters (seeds, reseeds, rates) go with ``letter`` of the
        table: the letter it selects, or a table with no letters."""
        return letter is None or letter == self.letter(game, table_id)

    def offers(self, game: Game, wager_id: str) -> bool:
        """Whether a round at this table plays the wager: a base wager, or one offered."""
        return not game.definition.wagers[wager_id].optional or wager_id in self.offered

    def plays(self, game: Game, table_id: str) -> bool:
        """Whether a round at this table can pay from ``table_id``: its wager is played
        (``offers``), and where the table is an optional payout (paid where the certificate
        holder "may pay" it), the submission offers that payout too."""
        wager_id = next(w for w, t, _ in game.definition.tables() if t == table_id)
        _, table = game.table(table_id)
        if not self.offers(game, wager_id):
            return False
        return not table.optional_payout or table_id in self.optional_payouts


def _fully_printed(table: Table) -> bool:
    if table.source == "missing":
        return False
    if table.meters is None:
        return True
    rules = [*(table.meters.all or {}).values()]
    for m in (table.meters.paytables or {}).values():
        rules += list(m.values())
    return all(r.seed is not None and r.increment not in (None, "stated") for r in rules)


def resolve_meters(
    table: Table, letter: str | None, amount: Decimal, stated: dict[str, MeterConfig]
) -> dict[str, MeterConfig]:
    """The meters of paytable ``letter``: each as the chapter fixes it for the letter, scaled
    by the wager ``amount``; where the chapter leaves a meter to the submission, as stated."""
    fixed = _chapter_meters(table, letter, amount, partial=True) or {}
    out: dict[str, MeterConfig] = {}
    for name in _meter_rules(table, letter):
        if name in fixed:
            out[name] = fixed[name]
        elif name in stated:
            out[name] = stated[name]
    return out


def _meter_rules(table: Table, letter: str | None) -> dict[str, MeterRule]:
    """The chapter's meters of paytable ``letter`` (none for a table without meters)."""
    return table.meters.for_paytable(letter) if table.meters is not None else {}


def _chapter_meters(
    table: Table, letter: str | None, amount: Decimal, partial: bool = False
) -> dict[str, MeterConfig] | None:
    out: dict[str, MeterConfig] = {}
    for name, rule in _meter_rules(table, letter).items():
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
