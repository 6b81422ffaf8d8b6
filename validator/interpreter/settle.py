"""Settle a round file: check it against the game's rules, then run it through the engine."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from validator import GAMES_DIR
from validator.compiler import Game, load_game
from validator.interpreter.actions import parse_action
from validator.interpreter.config import MeterConfig, Progressive, TableConfig, resolve_meters
from validator.interpreter.dealing import FileSource
from validator.interpreter.errors import RoundError
from validator.interpreter.results import RoundResult
from validator.interpreter.roundfile import RoundSpec
from validator.interpreter.rules import Rules, not_playable
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.interpreter.settings import read_settings
from validator.loader import did_you_mean
from validator.model.procedure import DealStep
from validator.money import exact_money


@dataclass
class Settled:
    rules: Rules
    result: RoundResult
    spec: RoundSpec


def settle_spec(
    spec: RoundSpec, games_dir: Path = GAMES_DIR, strategy: str | None = None
) -> Settled:
    """Settle one round as the chapter says. Raises ``RoundError`` (with a pointer into the
    round file), ``MissingTable``, ``ConfigError``, ``GameFileError`` or ``KeyError``."""
    game = load_game(spec.game, games_dir)
    cfg = read_settings(game, spec.rulesub)
    if not isinstance(cfg, TableConfig):  # nonbanking Poker: no banking round to settle
        raise not_playable(game)
    _override_paytables(game, cfg, spec)
    wagered = {s for seat in spec.seats for s in seat.wagers}
    _offer_what_was_wagered(game, cfg, spec, wagered)
    _progressive_wager(game, cfg, spec)
    if spec.table_system:  # the table game system drew: the table pays what it drew for
        _offer_what_was_drawn(game, cfg)
    rules = Rules(game, cfg)
    _check_seats(rules, spec)
    meters = rules.new_meters(spec.meters)
    seats = [
        Seat(s.number, dict(s.wagers), deque(s.actions), actions_pointer=f"{s.pointer}/actions")
        for s in spec.seats
    ]
    if spec.irregularity is None:
        _check_counts(rules, spec)
    source = FileSource(
        {s.number: s.cards for s in spec.seats}, spec.dealer, spec.community, spec.deck
    )
    engine = Engine(rules, None, meters)
    result = engine.run(seats, source, dict(spec.table_system), spec.irregularity)
    for seat, s in zip(seats, spec.seats, strict=True):
        if seat.actions:
            left = parse_action(seat.actions[0])
            raise RoundError(
                f"seat {seat.number}: {left.text!r} was never asked of the player"
                + _why_not_asked(rules, left.option),
                f"{s.pointer}/actions",
            )
    return Settled(rules, result, spec)


def _why_not_asked(rules: Rules, option: str) -> str:
    for d in rules.decisions.values():
        if option in d.options:
            o = d.options[option]
            return f": {option} is decided at {d.id!r} only where the rules offer it ({o.cite})"
    return f"; no decision of {rules.d.id} has the option {option!r}"


def _override_paytables(game: Game, cfg: TableConfig, spec: RoundSpec) -> None:
    table_ids = {t for _, t, _ in game.definition.tables()}
    for key, letter in spec.paytables.items():
        tid = key
        if tid not in table_ids and key in game.definition.wagers:
            tid = next(
                (t for t, tb in game.definition.wagers[key].tables.items() if tb.selectable), key
            )
        if tid not in table_ids:
            raise RoundError(
                f"{key!r} is no table of {game.definition.name}{did_you_mean(key, table_ids)}",
                f"/paytables/{key}",
            )
        letters = game.table(tid)[1].letters
        if letter not in letters:
            raise RoundError(
                f"{key}: no paytable {letter!r}; the chapter prints "
                + (", ".join(letters) or "one fixed table"),
                f"/paytables/{key}",
            )
        cfg.select(game, tid, letter)


def _offer_what_was_drawn(game: Game, cfg: TableConfig) -> None:
    """A round file in which the table game system drew (a Magic Card, a Lucky Bonus
    position) is of a table that pays what it draws: without a submission, the payouts
    the certificate holder "may pay" are paid; a submission that does not offer them has
    no such draw at its tables, and its round is refused, not paid."""
    optional = {tid: tb for _, tid, tb in game.definition.tables() if tb.optional_payout}
    if cfg.source != "defaults" and optional and not set(optional) & cfg.optional_payouts:
        names = " and ".join(tb.name for tb in optional.values())
        raise RoundError(
            f"the Rules Submission {cfg.source} does not offer the {names} "
            f"({'; '.join(tb.cite for tb in optional.values())}); the table game system "
            "draws for none at its tables, and a round there pays none",
            "/table_system",
        )
    cfg.optional_payouts |= set(optional)


def _offer_what_was_wagered(
    game: Game, cfg: TableConfig, spec: RoundSpec, wagered: set[str]
) -> None:
    """A round file records what was wagered: every optional wager in it is offered. A
    progressive whose meter the chapter leaves to the submission needs ``meters:`` or one."""
    d = game.definition
    for spot in wagered:
        wid = spot.split(".", 1)[0]
        if wid in d.wagers and d.wagers[wid].optional and wid not in cfg.offered:
            if cfg.source != "defaults":  # the round is played under a submission
                offered = ", ".join(sorted(cfg.offered)) or "no optional wager"
                raise RoundError(
                    f"the Rules Submission {cfg.source} does not offer the "
                    f"{d.wagers[wid].name} (it offers {offered}); a round at its table "
                    "cannot hold that wager",
                    "/rulesub",
                )
            cfg.offered.add(wid)
        if wid not in d.wagers:
            continue
        for tid, table in d.wagers[wid].tables.items():
            if table.meters is None or tid in cfg.progressives:
                continue
            given = spec.meters.get(tid)
            if not given:
                raise RoundError(
                    f"the {table.name} meter's rate and amounts must be stated "
                    f"({table.meters.cite}): give `rulesub:` (a Rules Submission) or "
                    f"`meters: {{{tid}: {{primary: …}}}}`",
                    "/meters",
                )
            cfg.progressives[tid] = Progressive(
                Decimal(1), {n: MeterConfig(v, v, Fraction(0)) for n, v in given.items()}
            )


def _progressive_wager(game: Game, cfg: TableConfig, spec: RoundSpec) -> None:
    """A progressive's meters are seeded "based upon the amount of the Progressive Payout
    Wager being offered" (§ 641a.12(d)(3)): one amount a table. Under a submission a round
    wagers the amount it states (``wager_amount``); without one, the amount the round's
    seats wagered is the table's, its meters seeded as the chapter fixes them for it."""
    d = game.definition
    for tid, progressive in list(cfg.progressives.items()):
        wid = next(w for w, t, _ in d.tables() if t == tid)
        table = d.wagers[wid].tables[tid]
        cite = table.meters.cite if table.meters else table.cite
        name = d.wagers[wid].name
        stakes = [
            (s, stake)
            for s in spec.seats
            for x, stake in s.wagers.items()
            if x.split(".")[0] == wid
        ]
        if {stake for _, stake in stakes} <= {progressive.wager_amount}:
            continue
        if cfg.source != "defaults":
            seat, stake = next((s, x) for s, x in stakes if x != progressive.wager_amount)
            raise RoundError(
                f"seat {seat.number}: the {name} is {exact_money(stake)}; the Rules Submission "
                f"offers it at {exact_money(progressive.wager_amount)}, the amount its meters "
                f"are seeded for ({cite})",
                f"{seat.pointer}/wagers/{wid}",
            )
        first, amount = stakes[0]
        for seat, stake in stakes:
            if stake != amount:
                raise RoundError(
                    f"seat {seat.number}: the {name} is {exact_money(stake)} where seat "
                    f"{first.number}'s is {exact_money(amount)}; a table's progressive meters "
                    f"are seeded for one amount of the wager ({cite})",
                    f"{seat.pointer}/wagers/{wid}",
                )
        # the chapter's meters seeded for the amount; a meter it leaves to the submission
        # as the round file states it (``meters:`` gives the meters' amounts, not seeds)
        meters = resolve_meters(table, cfg.letter(game, tid), amount, progressive.meters)
        cfg.progressives[tid] = Progressive(amount, meters)


def _check_seats(rules: Rules, spec: RoundSpec) -> None:
    d = rules.d
    cfg = rules.config
    for s in spec.seats:
        p = s.pointer
        if s.number > cfg.positions:
            raise RoundError(
                f"seat {s.number}: the table has {cfg.positions} positions ({d.table.cite})",
                f"{p}/seat",
            )
        for spot in s.wagers:  # every spot known before any is read with the others
            if spot not in rules.spots:
                known = rules.spots
                raise RoundError(
                    f"seat {s.number}: {d.id} has no wager {spot!r}{did_you_mean(spot, known)}; "
                    f"its wagers are: {', '.join(known)}",
                    f"{p}/wagers/{rules.spot_wager(spot)}",
                )
        for spot, stake in s.wagers.items():
            wid = rules.spot_wager(spot)
            wager = rules.wager(wid)
            if wager.placed_after_cards:
                raise RoundError(
                    f"seat {s.number}: the {wager.name} is placed after the cards are seen, by "
                    f"the player's action ({wager.cite}); write it under `actions:`",
                    f"{p}/wagers/{wid}",
                )
            missing = rules.missing_prerequisite({rules.spot_wager(x) for x in s.wagers})
            if missing is not None and missing[0] == wid:
                raise RoundError(
                    f"seat {s.number}: the {wager.name} is placed only with {missing[1]} "
                    f"({wager.cite})",
                    f"{p}/wagers/{wid}",
                )
            if wager.amount is not None and not wager.placed_after_cards:
                base = s.wagers.get(wager.amount.of)
                lo, hi = wager.amount.min or 1, wager.amount.max or wager.amount.min or 1
                if base is None or not base * lo <= stake <= base * hi:
                    raise RoundError(
                        f"seat {s.number}: the {wager.name} is {lo}x"
                        + (f" to {hi}x" if hi != lo else "")
                        + f" the {rules.wager(wager.amount.of).name} ({wager.amount.cite})",
                        f"{p}/wagers/{wid}",
                    )
            outside = stake < cfg.min_wager or (cfg.max_wager is not None and stake > cfg.max_wager)
            if cfg.source != "defaults" and not wager.optional and outside:
                raise RoundError(
                    f"seat {s.number}: {exact_money(stake)} is outside the table's limits "
                    f"({exact_money(cfg.min_wager)}"
                    + (f" to {exact_money(cfg.max_wager)}" if cfg.max_wager else " or more")
                    + f", {cfg.source})",
                    f"{p}/wagers/{wid}",
                )


def _check_counts(rules: Rules, spec: RoundSpec) -> None:
    """Every hand holds as many cards as the procedure deals (a wrong count voids a round
    under § *.13; the round file must say so with ``irregularity: wrong_card_count``)."""
    wagered = {rules.spot_wager(s) for seat in spec.seats for s in seat.wagers}
    void = rules.d.settle.void.get("wrong_card_count") if rules.d.settle else None
    hint = (
        f"; a misdeal voids the round ({void.cite}): write `irregularity: wrong_card_count`"
        if void
        else ""
    )

    def cite(group: str) -> str:
        return next(
            (s.cite for s in rules.procedure if isinstance(s, DealStep) and group in s.cards), ""
        )

    want = rules.dealt_count("player", wagered)
    for s in spec.seats:
        if len(s.cards) != want:
            raise RoundError(
                f"seat {s.number} holds {len(s.cards)} cards; the chapter deals {want} "
                f"({cite('player')}){hint}",
                f"{s.pointer}/cards",
            )
    for group, given in (("dealer", spec.dealer), ("community", spec.community)):
        n = rules.dealt_count(group, wagered)
        if len(given) != n:
            raise RoundError(
                f"the {group} holds {len(given)} cards; the chapter deals {n} "
                f"({cite(group)}){hint}",
                f"/{group}",
            )
