"""Progressive wagers: the return as a function of the meter, and in the long run.

A meter share is paid in proportion to the meter, so a progressive wager's return per unit
is a straight line in the meter's amount ``M`` (dollars, for the wager amount ``w``)::

    return(M) = fixed + slope · M,   slope = Σ over meter rows  p(row) · share / w

``fixed`` is the return of the rows paid at fixed odds (the stake of a "for" payout
included); both are read off two exact prices of the table (``validator.odds``), at a meter
of $0 and at the seed. The break-even meter is where the return reaches 100%:
``(1 - fixed) / slope``.

In the long run the meter neither grows nor shrinks on average, so what its hits pay per
round equals what flows into it: the increment on each wager, and the reseed put on the
meter after each hit of the whole meter (a share below 100% is paid from the meter, which
keeps the rest). Per unit wagered::

    long-run return = fixed + Σ over meters (increment + p(whole-meter hit) · reseed / w)

(one player per hit: a jackpot shared by several players at once is left aside). On a table
with several meters (Four Card Poker's mega, major and minor jackpots, § 641a.12(e)) every
meter the submission states is counted so, each with its own increment and reseed; the
return at the meter, the break-even and the curve follow the meter of the top award, the
others valued at their seed. The
reserve (hidden) increment builds a reserve between two whole-meter hits, on average
``reserve_increment · w / p`` dollars against one reseed: the reserve funds the reseed
when that is at least the reseed, and the difference is its surplus or shortfall per reset.
Where the whole reserve moves onto the meter at a reset (the game file's
``reserve_on_reset: moves_to_meter``, Four Card Poker's Five Card Hand Bonus, § 641a.12(g)),
all of it is paid out in the long run: the reserve's increment is part of the flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from validator.compiler import Game
from validator.interpreter.config import MeterConfig, TableConfig, resolve_meters
from validator.model.game import Table
from validator.model.notation import PayoutKind
from validator.money import plain_money
from validator.odds import exact_odds, priced_table
from validator.par.wagers import pct


@dataclass(frozen=True)
class ProgressiveSheet:
    table: str
    paytable: str | None
    meter: str  # the meter that pays the top award
    wager_amount: Decimal
    config: MeterConfig | None  # the submission's meter; None: the chapter's least seed only
    meter_amount: Decimal  # the amount the figures "at meter" use (the seed)
    fixed: Fraction  # return per unit from the rows paid at fixed odds
    slope: Fraction  # return per unit per dollar on the meter
    whole_hit: Fraction  # probability of a hit of the whole meter
    #: every meter the submission states, with the probability of a hit of its whole meter
    meters: dict[str, tuple[MeterConfig, Fraction]] = field(default_factory=dict)
    #: return per unit from the fixed rows and the meters the submission does not state
    #: (at their seed): what the long run adds the stated meters' flows to
    unstated: Fraction = Fraction(0)

    def return_at(self, meter: Decimal | Fraction) -> Fraction:
        return self.fixed + self.slope * Fraction(meter)

    @property
    def break_even(self) -> Fraction | None:
        if self.slope <= 0:
            return None
        return (1 - self.fixed) / self.slope

    @property
    def long_run(self) -> Fraction | None:
        if self.config is None:
            return None
        flows = [self._flow(c, hit) for c, hit in self.meters.values()]
        counted = [f for f in flows if f is not None]
        if len(counted) < len(flows):
            return None
        return self.unstated + sum(counted, Fraction(0))

    def _flow(self, c: MeterConfig, hit: Fraction) -> Fraction | None:
        """What flows onto one meter per unit wagered, in the long run all paid out: its
        increment, and at each hit of the whole meter the reseed; where the whole reserve
        moves onto the meter at a reset (``moves_to_meter``) the reserve's increment too,
        which then pays a $0 reseed (a reseed above $0 makes the flow depend on the
        reserve's spread between hits, which this does not count: None)."""
        w = Fraction(self.wager_amount)
        if c.reserve_on_reset == "moves_to_meter" and c.reserve_increment:
            return c.increment + c.reserve_increment if c.reseed == 0 else None
        return c.increment + hit * Fraction(c.reseed) / w

    def reserve(self) -> dict[str, Any] | None:
        c = self.config
        if c is None or self.whole_hit == 0:
            return None
        per_reset = c.reserve_increment * Fraction(self.wager_amount) / self.whole_hit
        surplus = per_reset - Fraction(c.reseed)
        return {
            "reserve_increment_percent": pct(c.reserve_increment),
            "reseed": money(Fraction(c.reseed)),
            "expected_rounds_between_resets": float(1 / self.whole_hit),
            "expected_reserve_per_reset": money(per_reset),
            "funds_reseed": per_reset >= Fraction(c.reseed),
            "moves_to_meter": c.reserve_on_reset == "moves_to_meter",
            "surplus_per_reset": money(surplus),
            "funded_share_percent": pct(per_reset / Fraction(c.reseed)) if c.reseed else None,
        }

    def to_json(self) -> dict[str, Any]:
        be = self.break_even
        lr = self.long_run
        c = self.config
        return {
            "table": self.table,
            "paytable": self.paytable,
            "meter_name": self.meter,
            "wager_amount": money(Fraction(self.wager_amount)),
            "meter": money(Fraction(self.meter_amount)),
            "return_percent_at_meter": pct(self.return_at(self.meter_amount)),
            "return_percent_at_meter_exact": str(self.return_at(self.meter_amount)),
            "return_per_dollar_on_meter_percent": pct(self.slope),
            "fixed_awards_return_percent": pct(self.fixed),
            "break_even_meter": None if be is None else money(be),
            "top_award_probability": float(self.whole_hit),
            "top_award_probability_exact": str(self.whole_hit),
            "increment_percent": None if c is None else pct(c.increment),
            "increment_by_meter": {name: pct(m.increment) for name, (m, _) in self.meters.items()},
            "reseed": None if c is None else money(Fraction(c.reseed)),
            "long_run_return_percent": None if lr is None else pct(lr),
            "long_run_return_exact": None if lr is None else str(lr),
            "reserve": self.reserve(),
            "curve": [
                {"meter": money(Fraction(m)), "return_percent": pct(self.return_at(m))}
                for m in self.curve_points()
            ],
        }

    def curve_points(self, n: int = 11) -> list[Fraction]:
        """Meter amounts from the seed to past break-even, for the plot."""
        lo = Fraction(self.meter_amount)
        be = self.break_even
        hi = max(lo * 2, (be * Fraction(5, 4)) if be is not None else lo * 2)
        return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def money(x: Fraction) -> str:
    """Dollars to the cent, as a string (rounded half up; for display of derived figures):
    ``validator.money.plain_money``."""
    return plain_money(x)


def progressive_sheet(
    game: Game,
    table_id: str,
    letter: str | None,
    wager_amount: Decimal,
    config: dict[str, MeterConfig] | None,
    rows: dict[str, Any] | None = None,
) -> ProgressiveSheet | None:
    """The progressive figures of one table with meters, or ``None`` without meter rows."""

    def price(meter: Decimal | dict[str, Decimal]) -> Any:
        """Priced at ``meter``: the top award's meter, or each meter by name."""
        return priced_table(game, table_id, letter, rows, meter=meter, wager_amount=wager_amount)

    seed_odds = price(Decimal(1))  # names the meters and the seed the engine would use
    if not seed_odds.meters:
        return None
    top = seed_odds.meters[0].name
    if config and top in config:
        seed = config[top].seed
    else:
        seed = exact_odds(game, table_id, letter, wager_amount=wager_amount).meters[0].amount
    at_zero = price(Decimal(0))
    at_seed = price(seed)
    fixed = 1 - at_zero.hold
    slope = (at_zero.hold - at_seed.hold) / Fraction(seed) if seed else Fraction(0)
    _, table = game.table(table_id)
    payouts = rows if rows is not None else table.rows(letter)
    whole: dict[str, Fraction] = {}
    for c in at_zero.categories:
        p = payouts.get(c.category) if payouts else None
        meter_row = p is not None and getattr(p, "kind", None) is PayoutKind.METER
        if meter_row and p is not None and p.share >= 1:
            whole[p.meter] = whole.get(p.meter, Fraction(0)) + c.probability
    stated = {n: (m, whole.get(n, Fraction(0))) for n, m in (config or {}).items()}
    # the stated meters at nothing, the others at their seed: what their flows add to
    others = {m.name: Decimal(0) if m.name in stated else m.amount for m in seed_odds.meters}
    others[top] = Decimal(0)
    unstated = 1 - price(others).hold if len(seed_odds.meters) > 1 else fixed
    cfg = config.get(top) if config else None
    return ProgressiveSheet(
        table_id,
        letter,
        top,
        wager_amount,
        cfg,
        seed,
        fixed,
        slope,
        whole.get(top, Fraction(0)),
        stated,
        unstated,
    )


def table_progressive(
    game: Game, cfg: TableConfig, table_id: str, letter: str | None
) -> ProgressiveSheet | None:
    """The progressive figures of paytable ``letter`` of a table with meters at a table set
    up as ``cfg`` (a submission's): its wager amount, the tables it states where the text is
    missing, and its meters where they go with ``letter``; ``None`` for a table without
    meters."""
    table = game.table(table_id)[1]
    if table.meters is None:
        return None
    p = cfg.progressives.get(table_id)
    amount = p.wager_amount if p else cfg.wager_amount(table_id)
    meters = p.meters if p else None
    if not cfg.meters_go_with(game, table_id, letter):
        # the submission's meters go with the paytable it selects; another letter's are
        # the chapter's where it fixes every one (§ 641a.12(d)(3): "must be as follows")
        meters = _fixed_meters(table, letter, amount)
    rows = cfg.custom_paytables.get(table_id)
    return progressive_sheet(game, table_id, letter, amount, meters, rows=rows)


def _fixed_meters(
    table: Table, letter: str | None, amount: Decimal
) -> dict[str, MeterConfig] | None:
    """Paytable ``letter``'s meters as the chapter fixes them for the wager ``amount``;
    None where it leaves one to the submission (a rate "as stated")."""
    fixed = resolve_meters(table, letter, amount, {})
    rules = table.meters.for_paytable(letter) if table.meters is not None else {}
    return fixed if fixed and set(fixed) == set(rules) else None
