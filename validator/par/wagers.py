"""Every paytable wager of the par sheet, from the exact odds engine (``validator.odds``).

A wager's return table is the odds engine's lines as Wizard of Odds and Jacobson print
them: outcome, pays, combinations, probability, return (probability × net result per unit);
then the house edge, hit frequency, standard deviation and the cycle of the top award (one
round in how many, on average, pays the wager's best line). Nothing here counts a hand: it
reads ``OddsResult``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import Any

from validator.compiler import Game
from validator.interpreter.config import TableConfig
from validator.odds import NotPriced, OddsError, OddsResult, priced_table
from validator.odds.wagers import StatedMeters, not_priced_reason
from validator.par.completions import JOINT


@dataclass(frozen=True)
class WagerSheet:
    """One priced table at one paytable."""

    key: str  # the table id (a wager's own table carries the wager's id)
    wager: str
    odds: OddsResult

    @property
    def top(self) -> Any:
        """The paying line with the largest net result (ties: the rarest)."""
        paying = [c for c in self.odds.categories if c.net > 0]
        if not paying:
            return None
        return max(paying, key=lambda c: (c.net, -c.probability))

    def to_json(self) -> dict[str, Any]:
        o = self.odds
        top = self.top
        return {
            "method": "exact",
            "name": o.table_name,
            "wager": self.wager,
            "wager_name": o.wager_name,
            "table": o.table,
            "paytable": o.paytable,
            "basis": o.basis,
            "cite": o.cite,
            #: its rows are the Rules Submission's, where the chapter's text is missing
            "stated": o.stated,
            "house_edge_percent": pct(o.hold),
            "exact": str(o.hold),
            "hit_frequency": float(o.hit_frequency),
            "hit_frequency_exact": str(o.hit_frequency),
            "sd": sqrt(o.variance),
            "variance_exact": str(o.variance),
            "combinations": o.total,
            **({"strategy": o.strategy} if o.strategy else {}),
            "return_table": [
                {
                    "outcome": c.category,
                    "name": c.name,
                    "pays": c.payout,
                    "combinations": c.combinations,
                    "probability": float(c.probability),
                    "probability_exact": str(c.probability),
                    "return": float(c.contribution),
                    "return_exact": str(c.contribution),
                }
                for c in o.categories
            ],
            "top_award": None
            if top is None
            else {
                "outcome": top.category,
                "name": top.name,
                "pays": top.payout,
                "probability_exact": str(top.probability),
                "cycle": float(1 / top.probability),
                "cycle_exact": str(1 / top.probability),
            },
            "meters": [
                {"meter": m.name, "amount": str(m.amount), "wager_amount": str(m.wager_amount)}
                for m in o.meters
            ],
            "approved_hold": None
            if o.approved_hold is None
            else {
                "from_percent": pct(o.approved_hold.low),
                "to_percent": pct(o.approved_hold.high),
                "inside": o.inside_approved,
                "cite": o.approved_hold.cite,
                "other_reading": None
                if o.approved_hold.other_reading is None or o.other_reading_hold is None
                else {
                    "name": o.approved_hold.other_reading.name,
                    "hold_percent": pct(o.other_reading_hold),
                    "inside": o.approved_hold.low <= o.other_reading_hold <= o.approved_hold.high,
                },
            },
        }


def wager_label(w: dict[str, Any]) -> str:
    """A priced table as the sheet names it: with its paytable's letter, or as the Rules
    Submission states it where the chapter's text is missing. A wager's own table is named
    by the wager, as the chapter pays it ("Aces Up Wager, Paytable C"), as the review pack
    and the signs name it; a table of its own by its name ("Ante Bonus")."""
    own = w.get("table") == w.get("wager") and w.get("wager_name")
    name = w["wager_name"] if own else w["name"]
    if w.get("stated"):
        return f"{name}, as stated in the Rules Submission"
    return f"{name}, Paytable {w['paytable']}" if w["paytable"] else name


def holds_nothing(w: dict[str, Any]) -> str | None:
    """What the sheet says of a wager table (its ``to_json``) that holds nothing or less:
    the validator's warning that it "needs a second look" (a bonus paid on another wager's
    stake has no hold of its own); None for one that holds a share of the wager."""
    hold = Fraction(w["exact"])
    if w["basis"] == "bonus" or hold > 0:
        return None
    return "returns more than it takes" if hold < 0 else "returns all it takes"


def hold_notes(sheets: list[WagerSheet]) -> list[str]:
    """A note for each table that holds nothing or less, in the validator's words: a
    paytable should hold a positive share of the wager, and one that does not needs a
    second look at the text or its transcription."""
    out = []
    for s in sheets:
        w = s.to_json()
        said = holds_nothing(w)
        if said is None:
            continue
        seed = " with the meter at its seed" if w["meters"] else ""
        out.append(
            f"{wager_label(w)} {said}: a house edge of "
            f"{pct(s.odds.hold):.4f}%{seed}. A paytable should hold a positive share of the "
            "wager; one that does not needs a second look at the text or its transcription "
            f"(the validator warns of it) [{w['cite']}]."
        )
    return out


def pct(x: Fraction) -> float:
    """A percentage for JSON: a number, rounded to 10 significant places."""
    return float(f"{float(x * 100):.10g}")


def wager_sheets(
    game: Game, cfg: TableConfig, every_paytable: bool
) -> tuple[list[WagerSheet], dict[str, str]]:
    """The priced tables of the offered wagers (each selected letter; every letter with
    ``every_paytable``), and the tables that cannot be priced, with the reason."""
    d = game.definition
    out: list[WagerSheet] = []
    skipped: dict[str, str] = {}
    for wager_id, table_id, table in d.tables():
        if not every_paytable and not cfg.plays(game, table_id):
            continue
        reason = not_priced_reason(game, wager_id, table_id, JOINT)
        custom = cfg.custom_paytables.get(table_id)
        if reason and custom is None:
            skipped[table_id] = reason
            continue
        if table.paytables is None or custom is not None:
            letters: list[str | None] = [None]
        elif every_paytable:
            letters = list(table.letters)
        else:
            letters = [cfg.letter(game, table_id)]
        amount = cfg.wager_amount(table_id) if table.meters is not None else None
        for letter in letters:
            at = cfg.meters_priced(game, table_id, letter)
            try:
                odds = priced_table(
                    game,
                    table_id,
                    letter,
                    custom,
                    meter=StatedMeters(at) if at else None,
                    wager_amount=amount,
                    joint=JOINT,
                )
            except (NotPriced, OddsError) as e:
                skipped[table_id if len(letters) == 1 else f"{table_id}:{letter}"] = str(e)
                continue
            key = table_id if len(letters) == 1 or letter == letters[0] else f"{table_id}:{letter}"
            out.append(WagerSheet(key, wager_id, odds))
    return out, skipped
