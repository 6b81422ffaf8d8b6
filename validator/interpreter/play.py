"""Deal and play rounds at one table: a seeded shuffle, a strategy's decisions, a log.

Each logged round is a round file (JSON, one line): the seats' wagers, the cards as dealt,
the decisions as actions, the dealer's and the community's cards, then ``deck``: the cards
the round took after those deals, in order, and the rest of the stub, so that ``rulesub
settle`` replays the round exactly. ``deck_order`` keeps the whole shuffled deck and
``meters`` the meters as the round began. The same seed gives the same log, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from validator import jsonout
from validator.cards import cards_str
from validator.interpreter.dealing import DeckSource
from validator.interpreter.results import RoundResult
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.model.procedure import DealStep, TableSystemStep
from validator.money import exact_figure


def default_wagers(rules: Rules) -> dict[str, Decimal]:
    """A seat's wagers: the base wagers at the table minimum (a wager sized from another at
    its least), every optional wager offered at the minimum, a progressive at its wager
    amount, a wager on hands on each hand; none without the wagers it must follow
    (``Rules.missing_prerequisite``, e.g. § 641a.7(d)(4)-(7))."""
    cfg = rules.config
    out: dict[str, Decimal] = {}
    meter_tables = rules.meter_tables()
    for spot in rules.spots:
        wid = rules.spot_wager(spot)
        wager = rules.wager(wid)
        if wager.placed_after_cards or not rules.offered(wid):
            continue
        if wager.amount is not None:
            out[spot] = out[wager.amount.of] * (wager.amount.min or 1)
        elif wid in meter_tables:
            out[spot] = cfg.wager_amount(meter_tables[wid])
        else:
            out[spot] = cfg.min_wager
    while (missing := rules.missing_prerequisite({rules.spot_wager(s) for s in out})) is not None:
        out = {s: v for s, v in out.items() if rules.spot_wager(s) != missing[0]}
    return out


def wagers_for_log(stakes: dict[str, Decimal], placed_later: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spot, v in stakes.items():
        wid, _, side = spot.partition(".")
        if wid in placed_later:
            continue
        amount: Any = int(v) if v == v.to_integral_value() else exact_figure(v)
        if side or any(s.startswith(wid + ".") for s in stakes):
            out.setdefault(wid, {})[side or "player"] = amount
        else:
            out[wid] = amount
    return out


@dataclass
class Played:
    number: int
    result: RoundResult
    record: dict[str, Any]


class Table:
    """A table of ``seats`` players with the same wagers, dealt from a seeded shuffle."""

    def __init__(
        self,
        rules: Rules,
        seats: int,
        seed: int,
        strategy: str | None = None,
        rulesub: Path | None = None,
    ) -> None:
        self.rules = rules
        self.n_seats = seats
        self.seed = seed
        self.strategy_name, played = rules.played(strategy)
        self.engine = Engine(rules, played)
        self.rng = np.random.default_rng(seed)
        self.rulesub = rulesub
        self.wagers = default_wagers(rules)
        self.placed_later = {w for w, x in rules.d.wagers.items() if x.placed_after_cards}

    def rounds(self, n: int) -> Iterator[Played]:
        for i in range(1, n + 1):
            yield self.play_one(i)

    def play_one(self, number: int) -> Played:
        order = [int(c) for c in self.rng.permutation(52)]
        draws: dict[str, tuple[str, int]] = {}
        positions = self.rules.config.positions

        def table_system(draw_id: str, kind: str) -> tuple[str, int]:
            if kind == "card":
                v = ("card", int(self.rng.integers(52)))
            else:
                v = ("position", int(self.rng.integers(positions + 1)))
            draws[draw_id] = v
            return v

        seats = [Seat(k, dict(self.wagers), None) for k in range(1, self.n_seats + 1)]
        source = DeckSource(order)
        meters_before = self.engine.meters.snapshot()
        result = self.engine.run(seats, source, table_system)
        return Played(
            number, result, self._record(number, order, seats, source, draws, meters_before, result)
        )

    def _record(
        self,
        number: int,
        order: list[int],
        seats: list[Seat],
        source: DeckSource,
        draws: dict[str, tuple[str, int]],
        meters_before: dict[str, dict[str, Decimal]],
        result: RoundResult,
    ) -> dict[str, Any]:
        rules = self.rules
        wagered = {rules.spot_wager(s) for s in self.wagers}
        n_player = rules.dealt_count("player", wagered)
        rec: dict[str, Any] = {"round": number, "game": rules.d.id, "seed": self.seed}
        if self.strategy_name:
            rec["strategy"] = self.strategy_name
        if self.rulesub is not None:
            rec["rulesub"] = str(self.rulesub.resolve())
        letters = {}
        for _, tid, table in rules.d.tables():
            letter = rules.config.letter(rules.game, tid) if table.selectable else None
            if letter is not None:
                letters[tid] = letter
        if letters:
            rec["paytables"] = letters
        rec["seats"] = [
            {
                "seat": s.number,
                "wagers": wagers_for_log(s.stakes, self.placed_later),
                "cards": cards_str(s.cards["player"].dealt[:n_player]).split()
                if s.dealt_in
                else [],
                "actions": list(s.taken),
            }
            for s in seats
        ]
        on_table = _table_cards(result)
        n_dealer = rules.dealt_count("dealer", wagered)
        rec["dealer"] = on_table.get("dealer", [])[:n_dealer]
        if any(isinstance(st, DealStep) and "community" in st.cards for st in rules.procedure):
            rec["community"] = on_table.get("community", [])
        rec["deck"] = cards_str(source.extra + source.stub).split()
        if draws and any(isinstance(st, TableSystemStep) for st in rules.procedure):
            rec["table_system"] = {
                k: (cards_str([v]) if kind == "card" else ("dealer" if v == 0 else v))
                for k, (kind, v) in draws.items()
            }
        if meters_before:
            rec["meters"] = {
                t: {n: exact_figure(v) for n, v in ms.items()} for t, ms in meters_before.items()
            }
        rec["deck_order"] = cards_str(order).split()
        rec["result"] = {
            "seats": {str(s.seat): exact_figure(s.net) for s in result.seats},
            "house": exact_figure(result.ledger.house),
        }
        return rec


def _table_cards(result: RoundResult) -> dict[str, list[str]]:
    d = result.dealer
    out: dict[str, list[str]] = {}
    if "cards" in d:
        out["dealer"] = list(d["cards"])
    if "community" in d:
        out["community"] = list(d["community"])
    return out


def log_line(record: dict[str, Any]) -> str:
    return jsonout.dumps(record, separators=(", ", ": ")) + "\n"
