"""The par sheet of a game as a Rules Submission configures it (or of every paytable).

``build`` gathers the three parts and returns the JSON contract (money as strings,
percentages as numbers):

- ``wagers``: every paytable wager, exact (``validator.par.wagers``);
- ``base_game``: per strategy, exact where the game file's shape allows an exact method
  (``validator.par.longest_flush``: the optimal strategy derived from the rules, and every
  declared strategy), simulated otherwise (``validator.par.simulated``), each figure saying
  which;
- ``progressives``: return versus meter, break-even meter, long-run return and the reserve
  (``validator.par.progressive``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from pathlib import Path
from typing import Any

from validator.compiler import Game, PokerGame
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.interpreter.settings import TableSettings
from validator.money import format_money
from validator.par.completions import CompletionGame, exact_figures
from validator.par.longest_flush import FlushGame, NotDerivable, StrategyFigures
from validator.par.longest_flush import exact_figures as flush_figures
from validator.par.progressive import table_progressive
from validator.par.simulated import (
    Z95,
    CannotSimulate,
    SimSpec,
    Sums,
    interval,
    simulate_all,
    table_hold_range,
)
from validator.par.wagers import hold_notes, pct, wager_sheets

#: The volatility index: the standard deviation of one round's result times the z of a 90%
#: two-sided interval, as slot and table par sheets commonly print it.
VI_Z = 1.6448536269514722
#: Rounds for which the range of a table's actual hold is printed.
HOLD_RANGE_ROUNDS = (1_000, 10_000, 100_000, 1_000_000)
OPTIMAL = "optimal"


@dataclass(frozen=True)
class ParRequest:
    game: Game
    config: TableSettings  # the table's settings: a banking game's, or a Poker game's
    submission: str | None  # the submission's path; None: every paytable of the game
    rounds: int = 200_000
    seed: int = 1
    workers: int | None = None
    scheduler: str | None = None
    progress: Callable[[str, int, int], None] | None = None  # (what, done, total)
    #: False: exact figures only (a page request, the review pack); the strategies no exact
    #: method covers are named under ``not_simulated_because``.
    simulate: bool = True
    hands_per_hour: int = 30  # nonbanking Poker: the rake and the fund an hour at this
    tables: int | None = None  # nonbanking Poker: independent tables (None: one a worker)

    def banking(self) -> TableConfig:
        """The settings of a banking game's table."""
        assert isinstance(self.config, TableConfig)
        return self.config


def build(req: ParRequest) -> dict[str, Any]:
    game = req.game
    d = game.definition
    every = req.submission is None
    poker = isinstance(game, PokerGame)
    # a Poker table's wagers (the Ante, the Blind Bets) are paid from no paytable
    sheets, skipped = ([], {}) if poker else wager_sheets(game, req.banking(), every)
    out: dict[str, Any] = {
        "game": d.id,
        "name": d.name,
        "chapter": d.source.chapter,
        "source": game.source_line,
        "kind": d.kind,  # banking, or nonbanking (Poker: no paytable, the house earns the rake)
        "submission": req.submission,
        "paytables": "every paytable" if every else "as the submission selects",
        "wagers": {s.key: s.to_json() for s in sheets},
        "not_priced": skipped,
        # the wager each table not priced is paid on (one in the base game is priced there)
        "not_priced_wagers": {t: w for w, t, _ in d.tables() if t in skipped},
        # the chapter's names of the game's wagers and tables, for the documents' words: a
        # wager's own table (its id the wager's) by the wager's name ("Odds Wager", not the
        # table's "Odds"; "Bet Wager", not "Bet Wager payout")
        "names": {
            **{t: table.name for _, t, table in d.tables()},
            **{w: wager.name for w, wager in d.wagers.items()},
        },
    }
    for w in out["wagers"].values():  # a payout not priced that this wager pays (§ 641a.12(g)(3))
        unpriced = [
            out["names"][t] for t, wid in out["not_priced_wagers"].items() if wid == w["wager"]
        ]
        if unpriced:
            w["not_in_figure"] = unpriced
    out["base_game"] = base_game(req) if d.settle is not None and d.procedure else None
    out["published"] = published_figures(d, out["base_game"])
    out["notes"] = hold_notes(sheets)
    if poker:
        from validator.interpreter.poker.table import TableSetup
        from validator.par.poker import PokerSpec, house_sheet

        # said once: the simulated figures here, or where they are when none is made
        where = "" if req.simulate else " in the full par sheet"
        out["notes"].append(
            "A nonbanking game: the players wager against each other, the house earns the "
            "rake. Its house figures (rake per hand and per hour, the Bad Beat fund's growth "
            f"and how often the Bad Beat is hit) are simulated{where} under the submission's "
            "rake and Bad Beat rules, for the players' strategies the game file declares; "
            "time charges, charged by the clock, are exact."
        )
        if req.simulate:
            from validator.interpreter.chunks import worker_count

            tables = req.tables or worker_count(req.workers)
            setup = req.config if isinstance(req.config, TableSetup) else None
            spec = PokerSpec(
                d.id,
                req.submission,
                req.seed,
                req.rounds,
                req.hands_per_hour,
                tables=tables,
                settings=setup,
            )
            out["poker"] = house_sheet(spec, req.workers, req.scheduler)
            if setup is not None and setup.defaults:
                out["notes"].append(played_by_default(setup.defaults))
        else:
            setup = req.config if isinstance(req.config, TableSetup) else None
            rake = setup.rules.charged_by_time if setup is not None else None
            if setup is not None and rake is not None:
                from validator.par.poker import by_the_clock

                clock = by_the_clock(rake, setup.positions, req.hands_per_hour, setup.stakes.chip)
                what = "The time charges" if setup.rules.time is not None else "The rake"
                out["notes"].append(
                    f"{what}, by the clock and so exact: "
                    f"{format_money(clock['per_hour']['mean'], cents=True)} an hour "
                    f"with every seat taken ({clock['reason']})."
                )
    progs: dict[str, Any] = {}
    for s in sheets:
        sheet = table_progressive(game, req.banking(), s.odds.table or "", s.odds.paytable)
        if sheet is not None:
            progs[s.key] = sheet.to_json()
    out["progressives"] = progs
    return out


def played_by_default(defaults: tuple[str, ...]) -> str:
    """What a Poker table's hands were played with where its Rules Submission is silent."""
    return (
        "Where the Rules Submission is silent, the hands are played with the tables' "
        f"defaults: {'; '.join(defaults)}."
    )


# -- published figures -----------------------------------------------------------------------

#: a published figure's name, and how the sheet's strategy figures give it (in percent)
PUBLISHED = {
    "house_edge": ("house edge", lambda s: s["house_edge_percent"]),
    "element_of_risk": ("element of risk", lambda s: s["element_of_risk_percent"]),
    "return": ("return of the total wagered", lambda s: 100 - s["element_of_risk_percent"]),
    "dealer_qualifies": ("dealer qualifies", lambda s: 100 * s["dealer_qualifies"]),
}


def published_figures(d: Any, base: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every figure the strategy files publish, beside the computed one. It agrees where the
    computed figure, rounded or cut to the published digits, is the published one."""
    from validator.model.notation import parse_rate

    out: list[dict[str, Any]] = []
    named = d.strategies.by_name if d.strategies else {}
    computed = (base or {}).get("strategies", {})
    for name, strategy in named.items():
        for f in strategy.published:
            of = f.strategy or name
            label, value = PUBLISHED[f.figure]
            row: dict[str, Any] = {
                "strategy": of,
                "figure": label,
                "published": f.value,
                "by": f.by,
                "computed_percent": None,
                "agrees": None,
                "reason": f.reason,
            }
            figures = computed.get(of)
            if figures is not None:
                got = float(value(figures))
                published = float(parse_rate(f.value) * 100)
                digits = len(f.value.rstrip("%").partition(".")[2])
                unit = 10.0**-digits
                row["computed_percent"] = got
                row["agrees"] = abs(got - published) <= unit / 2 or 0 <= got - published < unit
                if not row["agrees"] and row["reason"] is None:
                    row["reason"] = "not given by the source; its strategy or paytable may differ"
            else:
                row["reason"] = f.reason or "not computed on this sheet"
            out.append(row)
    return out


# -- the base game ----------------------------------------------------------------------------


def base_game(req: ParRequest) -> dict[str, Any]:
    game = req.game
    d = game.definition
    rules = Rules(game, req.banking())
    assert d.settle is not None
    declared = d.strategies.by_name if d.strategies else {}
    out: dict[str, Any] = {
        "per": d.settle.base_game.per,
        "wagers": list(d.settle.base_game.wagers),
        "cite": d.settle.compare.cite if d.settle.compare else None,
        "exact_method": None,
        "not_exact_because": None,
        "not_simulated_because": None,
        "strategies": {},
        # each strategy as its strategy file names it, for the documents' words
        "names": {OPTIMAL: "Optimal strategy", **{n: s.name for n, s in declared.items()}},
    }
    strategies: dict[str, Any] = out["strategies"]
    exact_done: set[str] = set()
    try:
        fg = FlushGame.from_rules(rules)
    except NotDerivable as e:
        fg = None
        out["not_exact_because"] = str(e)
    if fg is not None:
        out["exact_method"] = (
            "every player hand, one per suit orbit; the dealer's hands counted suit by suit"
        )
        exact = _exact_flush(req, fg, declared)
        strategies.update(exact)
        exact_done.update(set(exact) - {OPTIMAL})
    if fg is None:
        exact_done |= _completions(req, rules, out)
    if not req.simulate:
        left = [n for n in declared if n not in exact_done]
        if not declared and fg is None:
            left = ["the base game (no strategy declared)"]
        if left:  # each strategy as its file names it ("Simple raise strategy"), not its key
            out["not_simulated_because"] = (
                "exact figures only were asked for: the full par sheet simulates "
                + ", ".join(out["names"].get(n, n) for n in left)
            )
        return out
    wanted: list[tuple[str, str | None, str]] = [
        (name, name, strat.source) for name, strat in declared.items()
    ]
    wanted = [w for w in wanted if w[0] not in exact_done]
    if not declared and fg is None:
        wanted = [("default", None, "no strategy declared")]
    try:
        strategies.update(_simulated_json(req, wanted, rules))
    except CannotSimulate:
        # one strategy's round the table cannot deal: the ones before it are kept, as
        # when they were simulated one by one
        try:
            for w in wanted:
                strategies.update(_simulated_json(req, [w], rules))
        except CannotSimulate as e:
            out["not_simulated_because"] = str(e)
    return out


def _exact_flush(req: ParRequest, fg: FlushGame, declared: dict[str, Any]) -> dict[str, Any]:
    """The optimal strategy and every declared one the method can read, exactly: the
    figures shipped in ``derived/`` where they were derived from this very game file, else
    counted (the dealer counts are the long part, tens of seconds) and kept in the user's
    cache (``validator.par.longest_flush.exact_figures``)."""
    if req.progress:
        req.progress("exact base game", 0, 1)
    found = flush_figures(fg, declared, req.workers)
    if req.progress:
        req.progress("exact base game", 1, 1)
    best = found[OPTIMAL]
    strategies = {
        OPTIMAL: _exact_json(
            best,
            "Derived by rulesub from the game file: for every player hand, the choice with "
            "the highest exact expected return (on equal returns, the smaller wager).",
            req,
        )
    }
    for name, strat in declared.items():
        if name == OPTIMAL or name not in found:
            continue
        f = found[name]
        strategies[name] = _exact_json(f, strat.source, req)
        strategies[name]["cost_vs_optimal_percent"] = pct(f.house_edge - best.house_edge)
    return strategies


def _completions(req: ParRequest, rules: Rules, out: dict[str, Any]) -> set[str]:
    """The base game counted by ``validator.par.completions`` where the game file has that
    shape (Four Card Poker): the optimal strategy and every declared one, exactly."""
    try:
        cg = CompletionGame.from_rules(rules)
    except NotDerivable:  # neither shape: the reason the flush count gave, said as such
        out["not_exact_because"] = (
            "the base game is simulated: it is counted exactly only where the hands are "
            "ranked by flush length alone (as in High Card Flush) or a hand meets every "
            "completion of the dealer's (as in Four Card Poker), and here "
            f"{out['not_exact_because']}"
        )
        return set()
    out["not_exact_because"] = None
    out["exact_method"] = (
        "every player hand, one per suit orbit, with every up card; the dealer's completions "
        "counted by inclusion-exclusion over the player's cards"
    )
    if req.progress:
        req.progress("exact base game", 0, 1)
    found = exact_figures(rules, cg)
    if req.progress:
        req.progress("exact base game", 1, 1)
    best = found[OPTIMAL]
    strategies: dict[str, Any] = out["strategies"]
    strategies[OPTIMAL] = _exact_json(
        best,
        "Derived by rulesub from the game file: for every player hand and dealer's up card, "
        "the choice with the highest exact expected return (on equal returns, the smaller "
        "wager).",
        req,
    )
    declared = rules.d.strategies.by_name if rules.d.strategies else {}
    for name, f in found.items():
        if name == OPTIMAL or name not in declared:
            continue
        strategies[name] = _exact_json(f, declared[name].source, req)
        strategies[name]["cost_vs_optimal_percent"] = pct(f.house_edge - best.house_edge)
    return set(found) - {OPTIMAL}


def _exact_json(f: StrategyFigures, source: str, req: ParRequest) -> dict[str, Any]:
    sd = sqrt(f.variance)
    edge = float(f.house_edge * 100)
    return {
        "method": "exact",
        "source": source,
        "house_edge_percent": pct(f.house_edge),
        "exact": str(f.house_edge),
        "element_of_risk_percent": pct(f.element_of_risk),
        "element_of_risk_exact": str(f.element_of_risk),
        "average_total_wager": float(f.average_total_wager),
        "average_total_wager_exact": str(f.average_total_wager),
        "sd": sd,
        "variance_exact": str(f.variance),
        "volatility_index": VI_Z * sd,
        "decisions": {k: float(v) for k, v in f.decisions.items()},
        "decisions_exact": {k: str(v) for k, v in f.decisions.items()},
        "dealer_qualifies": float(f.dealer_qualifies),
        "dealer_qualifies_exact": str(f.dealer_qualifies),
        "result_distribution": [
            {"net": x, "probability": float(q), "probability_exact": str(q)}
            for x, q in f.distribution.items()
        ],
        "table_hold_ranges": _hold_ranges(edge, sd),
    }


def _hold_ranges(edge: float, sd: float) -> list[dict[str, Any]]:
    return [
        {"rounds": n, "hold_percent_range": table_hold_range(edge, sd, n)}
        for n in HOLD_RANGE_ROUNDS
    ]


def _simulated_json(
    req: ParRequest, wanted: list[tuple[str, str | None, str]], rules: Rules
) -> dict[str, Any]:
    """The figures of each wanted strategy (its key, its name or None for the base game's
    default, its source), their chunks dealt in one go on ``req.workers``."""
    seats = min(req.config.positions, rules.max_seats())
    specs = [
        SimSpec(
            game=req.game.id,
            submission=req.submission,
            strategy=name,
            seats=seats,
            seed=req.seed,
            rounds=req.rounds,
            settings=req.banking(),
        )
        for _, name, _ in wanted
    ]
    done = [0]
    label = ", ".join(name or "the base game" for _, name, _ in wanted)

    def tick(n: int) -> None:
        done[0] += n
        if req.progress:
            req.progress(f"simulating {label}", done[0], req.rounds * len(specs))

    all_sums = simulate_all(specs, req.workers, req.scheduler, tick)
    return {
        key: simulated_figures(sums, source, spec)
        for (key, _, source), spec, sums in zip(wanted, specs, all_sums, strict=True)
    }


def simulated_figures(sums: Sums, source: str, spec: SimSpec) -> dict[str, Any]:
    edge = interval(sums.base)
    risk = interval(sums.risk)
    sd = sums.seat.sd_per_unit()
    avg = Fraction(sums.risk.h, sums.base.h) if sums.base.h else None
    out: dict[str, Any] = {
        "method": "simulated",
        "source": source,
        "rounds": sums.rounds,
        "seat_rounds": sums.seat_rounds,
        "seats": spec.seats,
        "seed": spec.seed,
        "house_edge_percent": edge["value"] if edge else None,
        "ci95": edge["ci95"] if edge else None,
        "element_of_risk_percent": risk["value"] if risk else None,
        "element_of_risk_ci95": risk["ci95"] if risk else None,
        "average_total_wager": None if avg is None else round(float(avg), 6),
        "sd": None if sd is None else round(sd, 6),
        "volatility_index": None if sd is None else round(VI_Z * sd, 6),
        "decisions": {k: round(v / sums.seat_rounds, 6) for k, v in sorted(sums.decisions.items())}
        if sums.seat_rounds
        else {},
        "money_conserved_rounds": sums.rounds - sums.unbalanced,
        "result_distribution": [
            {"net": k / 2, "probability": round(v / sums.seat.n, 8)}
            for k, v in sorted(sums.histogram.items())
        ]
        if sums.seat.n
        else [],
    }
    if sums.qualify_known and sums.rounds:
        p = sums.qualified / sums.rounds
        half = Z95 * sqrt(p * (1 - p) / sums.rounds)
        out["dealer_qualifies"] = round(p, 6)
        out["dealer_qualifies_ci95"] = [round(p - half, 6), round(p + half, 6)]
    if edge and sd is not None:
        out["table_hold_ranges"] = _hold_ranges(edge["value"], sd)
    return out


def submission_game(path: Path) -> str:
    """The ``game:`` a Rules Submission names (its file must be readable YAML)."""
    from validator.loader import LoadError
    from validator.model.submission import load_submission

    located = load_submission(path).located
    data = located.data
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        pos = located.position("/game") if isinstance(data, dict) else located.position("")
        raise LoadError(str(path), pos.line, pos.column, "expected `game:` naming a game id")
    return data["game"]
