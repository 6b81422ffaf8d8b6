"""What a settled round is: every wager's result and why, the dealer, the meters.

``RoundResult.to_json`` is the contract of ``rulesub settle --format json``::

    {"seats": [{"seat": 1, "wagers": {"ante": {"amount": "10", "result": "win",
      "net": "10", "reason": "..."}}, "net": "..."}], "dealer": {...}}

Money is printed as strings, exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from validator.cards import cards_str
from validator.money import exact_figure


@dataclass
class HandShown:
    """A hand as the reason names it."""

    hand: str
    name: str
    cards: list[int]

    def __str__(self) -> str:
        return f"{self.name} ({cards_str(self.cards)})" if self.cards else self.name

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "name": self.name, "cards": cards_str(self.cards).split()}


@dataclass
class LineResult:
    """One settlement line for one seat: the row that applied and the money it moved."""

    line: str
    name: str
    spot: str
    row: int  # index of the row that matched, -1 when no row applied (a void)
    cite: str
    outcome: str  # lose / push / win / none / a payout text
    returned: Decimal  # money handed back to the player by this line
    from_meter: Decimal = Decimal(0)
    reason: str = ""
    limited: Decimal = Decimal(0)  # winnings withheld by the payout limit
    note: str | None = None


@dataclass
class WagerResult:
    spot: str
    amount: Decimal
    lines: list[LineResult] = field(default_factory=list)
    void: bool = False
    placed_as: str = ""  # the size its action stated: a multiple ("3x") or an amount ("$25")

    @property
    def returned(self) -> Decimal:
        if self.void:
            return self.amount + sum((ln.returned for ln in self.lines), Decimal(0))
        return sum((ln.returned for ln in self.lines), Decimal(0))

    @property
    def net(self) -> Decimal:
        return self.returned - self.amount

    @property
    def result(self) -> str:
        if self.void and not self.lines:
            return "void"
        n = self.net
        return "win" if n > 0 else "lose" if n < 0 else "push"

    @property
    def reason(self) -> str:
        parts = [ln.reason for ln in self.lines if ln.reason]
        if self.void and not self.lines:
            parts.insert(0, "the round is void: the wager is returned")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": exact_figure(self.amount),
            "result": self.result,
            "net": exact_figure(self.net),
            "reason": self.reason,
            "lines": [
                {
                    "line": ln.line,
                    "name": ln.name,
                    "row": ln.row + 1 if ln.row >= 0 else None,
                    "cite": ln.cite,
                    "outcome": ln.outcome,
                    "returned": exact_figure(ln.returned),
                    **({"from_meter": exact_figure(ln.from_meter)} if ln.from_meter else {}),
                    **({"limited": exact_figure(ln.limited)} if ln.limited else {}),
                }
                for ln in self.lines
            ],
        }


@dataclass
class SeatResult:
    seat: int
    cards: list[int]
    wagers: dict[str, WagerResult]
    decisions: list[str]
    hands: list[HandShown]
    fees: Decimal = Decimal(0)
    folded: bool = False
    told: list[str] = field(default_factory=list)  # the decisions in the game file's words

    @property
    def net(self) -> Decimal:
        return sum((w.net for w in self.wagers.values()), Decimal(0)) - self.fees

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "cards": cards_str(self.cards).split(),
            "actions": self.decisions,
            "hands": [h.to_json() for h in self.hands],
            "wagers": {k: w.to_json() for k, w in self.wagers.items()},
        }
        if self.fees:
            out["options_fee"] = exact_figure(self.fees)
        out["net"] = exact_figure(self.net)
        return out


@dataclass
class Ledger:
    """The round's money, each side counted on its own."""

    wagered: Decimal = Decimal(0)  # wagers and fees placed
    returned: Decimal = Decimal(0)  # handed back to players (meter payouts included)
    house: Decimal = Decimal(0)  # the certificate holder's result on the round's wagers
    contributions: Decimal = Decimal(0)  # to meters and reserves
    meter_paid: Decimal = Decimal(0)  # paid out of meters

    def balanced(self) -> bool:
        return self.wagered == self.returned + self.house + self.contributions - self.meter_paid


@dataclass
class RoundResult:
    game: str
    seats: list[SeatResult]
    dealer: dict[str, Any]
    void: str | None
    meters_before: dict[str, dict[str, Decimal]]
    meters_after: dict[str, dict[str, Decimal]]
    ledger: Ledger
    events: list[tuple[str, str]]  # narration: (cite, text)
    notes: list[str] = field(default_factory=list)
    #: each spot and each meter (``table/meter``) as people read it: the chapter's names
    names: dict[str, str] = field(default_factory=dict)
    game_name: str = ""  # the game as its chapter names it (``game``: its id)

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "seats": [s.to_json() for s in self.seats],
            "dealer": self.dealer,
        }
        if self.void:
            out["void"] = self.void
        if self.meters_before:
            out["meters"] = {
                t: {
                    n: {"before": exact_figure(v), "after": exact_figure(self.meters_after[t][n])}
                    for n, v in ms.items()
                }
                for t, ms in self.meters_before.items()
            }
        out["house"] = exact_figure(self.ledger.house)
        return out
