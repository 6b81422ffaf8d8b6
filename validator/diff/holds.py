"""Exact holds for the diff, from the odds engine (``validator.odds``).

The diff reads the engine's figures and never estimates one: where the engine is absent or
cannot price a table, the hold is reported as unavailable, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from validator.compiler import Game
from validator.money import format_money


@dataclass(frozen=True)
class Hold:
    """A table's exact hold, or why there is none."""

    value: Fraction | None
    why_not: str | None = None
    basis: str = "wager"  # "bonus": a bonus on another wager, its hold is minus its return
    #: priced with its progressive meter(s) standing at these amounts ("$30,000 on a $1
    #: wager"): the increments the meter pays back later are not in it
    meters: tuple[str, ...] = ()
    #: a progressive's return per unit in the long run at the submission's meters: the
    #: increments and reseeds it pays back counted (``par.progressive``); None where the
    #: submission states no meters for it
    long_run: Fraction | None = None

    @property
    def long_run_hold(self) -> Fraction | None:
        return None if self.long_run is None else 1 - self.long_run


def _pricing() -> tuple[Any, Any] | None:
    """The odds engine (``checks.hold.odds_engine``, None where it is not available) and the
    pricer of a table paid on the lower of two hands that the documents price with
    (``par.completions.JOINT``)."""
    from validator.checks.hold import odds_engine

    odds = odds_engine()
    if odds is None:
        return None
    from validator.par.completions import JOINT

    return odds, JOINT


def table_hold(
    game: Game,
    table_id: str,
    letter: str | None,
    *,
    wager_amount: Decimal | None = None,
    meter: dict[str, Decimal] | None = None,
) -> Hold:
    """The exact hold of one of the chapter's tables (``letter`` None: the fixed table)."""
    pricing = _pricing()
    if pricing is None:
        return Hold(None, "the odds engine is not available")
    odds, joint = pricing
    kwargs: dict[str, Any] = {"joint": joint}
    if wager_amount is not None:
        kwargs["wager_amount"] = wager_amount
    if meter:
        kwargs["meter"] = meter
    try:
        result = odds.exact_odds(game, table_id, letter, **kwargs)
    except (KeyError, ValueError, NotImplementedError, ArithmeticError) as e:
        return Hold(None, f"the odds engine cannot price it: {e}")
    meters = tuple(
        f"{format_money(m.amount)} on a {format_money(m.wager_amount)} wager"
        for m in getattr(result, "meters", ()) or ()
    )
    return Hold(Fraction(result.hold), basis=getattr(result, "basis", "wager"), meters=meters)


def rows_hold(game: Game, table_id: str, rows: dict[str, Any]) -> Hold:
    """The exact hold of a table the submission states (where the chapter's text is missing)."""
    pricing = _pricing()
    if pricing is None:
        return Hold(None, "the odds engine cannot price a stated table")
    odds, joint = pricing
    _, table = game.table(table_id)
    try:
        result = odds.odds_for_rows(game, table.pays_on, rows, table_id=table_id, joint=joint)
    except (KeyError, ValueError, NotImplementedError, ArithmeticError) as e:
        return Hold(None, f"the odds engine cannot price it: {e}")
    return Hold(Fraction(result.hold), basis=getattr(result, "basis", "wager"))


def long_run(game: Game, settings: Any, table_id: str) -> Fraction | None:
    """The long-run return per unit of a progressive table at a submission's table
    (``settings``, its ``TableConfig``), on the paytable it selects: None where it states
    no meters for it or the figure cannot be had."""
    from validator.interpreter.config import TableConfig
    from validator.par.progressive import table_progressive

    if not isinstance(settings, TableConfig):
        return None
    try:
        sheet = table_progressive(game, settings, table_id, settings.letter(game, table_id))
    except (KeyError, ValueError, NotImplementedError, ArithmeticError):
        return None
    return None if sheet is None else sheet.long_run
