"""Simulated rounds with the batch engine: hold per wager with confidence intervals.

Rounds are dealt in chunks (``CHUNK`` rounds at a time) from a seeded generator, so memory
stays flat in the number of rounds. Every round is checked for money conserved::

    money wagered = money returned to players + house result + meter increments - meter payouts

and every meter, at the end, for its ledger (``check_meters``): its increments and its
reserve's are exactly the chapter's rates times the handle of the wager that feeds it, and
what the meter and its reserve hold is what they held plus those increments plus the reseeds
the certificate holder funded, less what they paid. Each progressive table's exact hold at
the meter's mean level (``exact_holds``) is reported beside the simulated hold.

Statistics per wager (and the Options fees): the handle, the players' net, the hold (the
house's result as a share of the handle) with a 95% confidence interval (a ratio estimator
over rounds); the base game's house edge per unit of its ``per`` wager and its element of
risk (per unit of all the money the base game put at risk); the meters' trajectory.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import numpy as np

from validator.compiler import meter_label, meter_name
from validator.errors import RulesubError
from validator.interpreter.batch import BatchEngine, ChunkResult
from validator.interpreter.batch_money import from_micro, row_sums
from validator.interpreter.chunks import CHUNK, SimSpec, run_jobs
from validator.interpreter.moments import Z95, add_sums, ratio_estimate
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import FEES, Rules
from validator.interpreter.shuffle import shuffled_decks
from validator.money import exact_figure, format_money

T = TypeVar("T")


@dataclass
class Acc:
    """Sums over rounds of one money line: handle H and the players' net X per round."""

    handle: int = 0
    net: int = 0
    sx: float = 0.0
    sh: float = 0.0
    sxx: float = 0.0
    sxh: float = 0.0
    shh: float = 0.0

    def add(self, x: np.ndarray, h: np.ndarray) -> None:
        self.handle += int(h.sum())
        self.net += int(x.sum())
        xf, hf = x.astype(np.float64), h.astype(np.float64)
        self.sx += float(xf.sum())
        self.sh += float(hf.sum())
        self.sxx += float((xf * xf).sum())
        self.sxh += float((xf * hf).sum())
        self.shh += float((hf * hf).sum())

    def merge(self, o: Acc) -> None:
        """Add another chunk's sums (floats: in chunk order, for the same bytes)."""
        add_sums(self, o)

    def hold(self) -> tuple[float, float, float] | None:
        """(hold %, low, high) of the 95% confidence interval; ``None`` with no handle."""
        if self.handle == 0:
            return None
        r, se = ratio_estimate(self.sx, self.sh, self.sxx, self.sxh, self.shh)
        hold = -100 * r
        half = 100 * Z95 * se
        return hold, hold - half, hold + half


@dataclass
class Stats:
    game: str
    rounds: int
    seats: int
    seed: int
    strategy: str | None
    wagers: dict[str, Acc] = field(default_factory=dict)
    base: Acc = field(default_factory=Acc)  # per unit of the `per` wager
    risk: Acc = field(default_factory=Acc)  # per unit of all the base game's money
    qualified: int = 0
    qualify_known: bool = False
    folded: int = 0
    seat_rounds: int = 0
    balanced_rounds: int = 0
    seconds: float = 0.0
    meters: list[Any] = field(default_factory=list)
    meter_handles: dict[str, int] = field(default_factory=dict)  # table/meter -> handle
    exact: dict[str, dict[str, Any]] = field(default_factory=dict)  # wager -> exact_holds


def run(
    rules: Rules,
    rounds: int,
    seed: int,
    seats: int,
    strategy: str | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK,
    workers: int | None = 1,
    scheduler: str | None = None,
    submission: str | None = None,
    allow_findings: bool = False,
) -> Stats:
    """``rounds`` rounds in chunks of ``chunk``, chunk k dealt from ``SeedSequence(seed,
    spawn_key=(k,))`` and the chunks' sums added in chunk order: the same seed gives the
    same figures, byte for byte, on ``workers`` processes (``None``: every core) or on the
    Dask scheduler at ``scheduler`` (``local``: a local cluster), where the workers rebuild
    the table from the game id and the table's settings (``rules.config``, read from
    ``submission``). With a progressive meter in play every
    round is paid from the meter the rounds before it left, so the chunks run in order in
    this process, one meter trajectory, whatever the workers."""
    name, strat = rules.played(strategy)
    wagers = default_wagers(rules)
    chunk = min(chunk, exact_chunk(rules, wagers, seats, rounds))
    engine = BatchEngine(rules, strat, seats, wagers)
    stats = Stats(rules.d.id, 0, seats, seed, name)
    spec = SimSpec(
        rules.d.id,
        submission,
        strategy,
        seats,
        seed,
        rounds,
        chunk,
        allow_findings=allow_findings,
        settings=rules.config,
    )
    start = time.perf_counter()
    if engine.meters or (scheduler is None and workers == 1):
        for k, n in spec.chunks():
            rng = np.random.default_rng(spec.seed_sequence(k))
            decks, draws = deal(rng, n, rules.config.positions)
            absorb(rules, stats, engine.run(decks, draws))
            if progress is not None:
                progress(n)
    else:
        _ENGINES[_key(spec)] = (rules, engine)  # forked workers inherit the table
        jobs = [(spec, k, n) for k, n in spec.chunks()]
        warmed = partial(warm, rules, engine, chunk)
        for part in in_order(run_jobs(_job, jobs, workers, scheduler, warmed)):
            merge(stats, part)
            if progress is not None:
                progress(part.rounds)
    stats.seconds = time.perf_counter() - start
    stats.meters = list(engine.meters.values())
    check_meters(rules, stats)
    stats.exact = exact_holds(rules, stats)
    return stats


_ENGINES: dict[tuple[Any, ...], tuple[Rules, BatchEngine]] = {}


def _key(spec: SimSpec) -> tuple[Any, ...]:
    return (spec.game, spec.submission, spec.allow_findings, spec.strategy, spec.seats)


def _job(args: tuple[SimSpec, int, int]) -> tuple[int, Stats]:
    """Chunk ``k`` of ``n`` rounds, its sums (a worker builds the table once per spec)."""
    spec, k, n = args
    key = _key(spec)
    if key not in _ENGINES:
        from validator.compiler import load_game

        rules = Rules(load_game(spec.game), spec.table())
        _, strat = rules.played(spec.strategy)
        _ENGINES[key] = (rules, BatchEngine(rules, strat, spec.seats, default_wagers(rules)))
    rules, engine = _ENGINES[key]
    out = Stats(spec.game, 0, spec.seats, spec.seed, None)
    decks, draws = deal(np.random.default_rng(spec.seed_sequence(k)), n, rules.config.positions)
    absorb(rules, out, engine.run(decks, draws))
    return k, out


def in_order(parts: Iterable[tuple[int, T]]) -> Iterator[T]:
    """Results tagged with their chunk index, in any order, yielded in chunk order: sums of
    floating-point moments are then added in the same order however the chunks ran."""
    held: dict[int, T] = {}
    want = 0
    for k, part in parts:
        held[k] = part
        while want in held:
            yield held.pop(want)
            want += 1


def merge(stats: Stats, part: Stats) -> None:
    """Add one chunk's sums to the run's (money lines in the order they first appear)."""
    for spot, acc in part.wagers.items():
        stats.wagers.setdefault(spot, Acc()).merge(acc)
    stats.base.merge(part.base)
    stats.risk.merge(part.risk)
    stats.rounds += part.rounds
    stats.balanced_rounds += part.balanced_rounds
    stats.qualified += part.qualified
    stats.qualify_known |= part.qualify_known
    stats.folded += part.folded
    stats.seat_rounds += part.seat_rounds


def check_meters(rules: Rules, stats: Stats) -> None:
    """Every meter's ledger, exactly: increments = rate × handle (primary and reserve), and
    held now = held at the start + increments + reseeds funded - paid. Raises
    ``AssertionError`` naming the meter that breaks it."""
    feeds: dict[str, list[str]] = {}
    for wager, table in rules.meter_tables().items():
        feeds.setdefault(table, []).append(wager)
    for m in stats.meters:
        handle = sum(
            acc.handle
            for spot, acc in stats.wagers.items()
            if rules.spot_wager(spot) in feeds.get(m.table, [])
        )
        key = f"{m.table}/{m.name}"
        stats.meter_handles[key] = handle
        want = (handle * m.inc, handle * m.res)
        if (m.increments, m.reserve_increments) != want:
            raise AssertionError(
                f"meter {key}: increments {from_micro(m.increments)} and reserve increments "
                f"{from_micro(m.reserve_increments)} are not {m.inc} and {m.res} of the handle "
                f"{from_micro(handle)}"
            )
        held = m.amount + m.reserve - m.start - m.start_reserve
        if held != m.increments + m.reserve_increments + m.funded - m.paid:
            raise AssertionError(
                f"meter {key}: it holds {from_micro(held)} more than at the start, not its "
                "increments + reseeds funded - payouts"
            )


def exact_holds(rules: Rules, stats: Stats) -> dict[str, dict[str, Any]]:
    """Each progressive table's exact hold with its meters at their mean simulated level (the
    hold is linear in the meter, so this is the mean of the exact hold over the rounds), by
    wager; a table the odds engine cannot price is left out."""
    from validator.odds import OddsError, exact_odds

    out: dict[str, dict[str, Any]] = {}
    for wager, table in rules.meter_tables().items():
        ms = [m for m in stats.meters if m.table == table]
        if not ms or not rules.offered(wager):
            continue
        amount = rules.config.wager_amount(table)
        mean = {m.name: from_micro(m.trajectory_sum // max(m.rounds, 1)) for m in ms}
        try:
            odds = exact_odds(
                rules.game,
                table,
                rules.config.letter(rules.game, table),
                meter=mean,
                wager_amount=amount,
            )
        except OddsError:
            continue
        out[wager] = {
            "table": table,
            "meters_mean": {k: exact_figure(v.quantize(Decimal("0.01"))) for k, v in mean.items()},
            "exact_hold_percent": round(float(odds.hold * 100), 4),
        }
    return out


#: The batch engine's money is int64 micro-dollars; sums over a chunk must stay below this.
INT64_ROOM = 2**62


class MoneyOutOfRange(RulesubError, ValueError):
    """Amounts too large for the batch engine's exact arithmetic: refused, never wrapped."""


def exact_chunk(rules: Rules, wagers: dict[str, Any], seats: int, rounds: int) -> int:
    """The most rounds one chunk may hold so that no sum of micro-dollars can pass int64.

    A round's money is bounded by every seat's stakes times the largest multiple any row of
    any table pays, plus fixed sums; a chunk's meter payouts by every meter's seeds plus all
    increments of the simulation. Raises ``MoneyOutOfRange`` when even one round could
    overflow.
    """
    from decimal import Decimal

    from validator.interpreter.batch_money import MICRO
    from validator.model.notation import PayoutKind

    multiple = Fraction(1)
    fixed = Decimal(0)
    amounts = {None, *(Decimal(v) for v in wagers.values())}
    for _wid, tid, _table in rules.d.tables():
        rows: dict[str, Any] = {}
        for amount in amounts:
            try:
                rows.update(rules.rows(tid, amount) or {})
            except Exception:  # a table missing from the text: reported when it is used
                continue
        for p in rows.values():
            if p.kind is PayoutKind.TO:
                multiple = max(multiple, p.ratio + 1)
            elif p.kind is PayoutKind.FOR:
                multiple = max(multiple, p.ratio)
            elif p.kind is PayoutKind.FIXED:
                fixed = max(fixed, p.amount)
    stake = sum((Decimal(v) for v in wagers.values()), Decimal(0))
    seeds = sum(
        (m.seed + m.reseed for p in rules.config.progressives.values() for m in p.meters.values()),
        Decimal(0),
    )
    per_round = seats * (stake * Decimal(multiple.numerator) / multiple.denominator + fixed * seats)
    round_micro = int(per_round * MICRO) + 1
    meters_micro = int((seeds + stake * seats * max(rounds, 1)) * MICRO) + 1
    if round_micro + meters_micro >= INT64_ROOM:
        raise MoneyOutOfRange(
            f"amounts this large (${stake:,} wagered a seat, paid up to {multiple} times, over "
            f"{rounds:,} rounds) are beyond the simulation's exact arithmetic; it refuses rather "
            "than round or wrap"
        )
    return max(1, (INT64_ROOM - meters_micro) // round_micro)


def deal(
    rng: np.random.Generator, n: int, positions: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``n`` shuffled decks, and the table game system's draws (a card, a position)."""
    decks = shuffled_decks(rng, n)
    draws = {
        "magic_card": rng.integers(0, 52, size=n),
        "lucky_bonus": rng.integers(0, positions + 1, size=n),
    }
    return decks, draws


def warm(rules: Rules, engine: BatchEngine, rounds: int) -> None:
    """A chunk of ``rounds`` played in this process and thrown away before the workers
    fork: they inherit the compiled kernels loaded here rather than each loading them from
    the cache at once (measured on 16 cores: a worker's first chunk took 1.0 to 1.25 s
    rather than 0.09, every worker contending for the same files; 0.15 to 0.23 s with the
    kernels loaded first), and memory laid out for a chunk's arrays (warmed on a smaller
    deal, the workers took several times the page faults of unwarmed ones). Rounds move a
    progressive meter, so a table with one in play is not warmed (nor forked)."""
    if engine.meters:
        return
    engine.run(*deal(np.random.default_rng(0), rounds, rules.config.positions))


def absorb(rules: Rules, stats: Stats, res: ChunkResult) -> None:
    ok = res.balanced()
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        raise AssertionError(
            f"money not conserved in a simulated round: wagered {res.wagered[bad]}, returned "
            f"{res.returned_total[bad]}, house {res.house[bad]}, increments "
            f"{res.contributions[bad]}, meter payouts {res.meter_paid[bad]} (micro-dollars)"
        )
    stats.balanced_rounds += res.rounds
    stats.rounds += res.rounds
    settle = rules.d.settle
    assert settle is not None
    base_x = np.zeros(res.rounds, np.int64)
    risk_h = np.zeros(res.rounds, np.int64)
    for spot, st in res.stakes.items():
        h = row_sums(st)
        ret = res.returned_rows.get(spot)
        x = (row_sums(res.returned[spot]) if ret is None else ret) - h
        stats.wagers.setdefault(spot, Acc()).add(x, h)
        if rules.spot_wager(spot) in settle.base_game.wagers:
            base_x += x
            risk_h += h
    if res.fees.any() or settle.base_game.fees:
        f = row_sums(res.fees)
        stats.wagers.setdefault(FEES, Acc()).add(-f, f)
        if settle.base_game.fees:
            base_x -= f
            risk_h += f
    per = row_sums(res.stakes[settle.base_game.per])
    stats.base.add(base_x, per)
    stats.risk.add(base_x, risk_h)
    if res.qualifies is not None:
        stats.qualify_known = True
        stats.qualified += int(res.qualifies.sum())
    stats.folded += int(res.folded.sum())
    stats.seat_rounds += res.folded.size


def _pct(acc: Acc) -> dict[str, Any]:
    h = acc.hold()
    if h is None:
        return {"hold_percent": None, "ci95": None}
    return {"hold_percent": round(h[0], 4), "ci95": [round(h[1], 4), round(h[2], 4)]}


def summary_json(stats: Stats) -> dict[str, Any]:
    wagers = {}
    for spot, acc in stats.wagers.items():
        wagers[spot] = {
            "handle": exact_figure(from_micro(acc.handle)),
            "player_net": exact_figure(from_micro(acc.net)),
            **_pct(acc),
        }
        exact = stats.exact.get(spot)
        if exact is not None:
            ci = wagers[spot]["ci95"]
            wagers[spot]["table_exact_hold_at_mean_meter"] = {
                **exact,
                "within_ci95": ci is not None and ci[0] <= exact["exact_hold_percent"] <= ci[1],
            }
    base = stats.base.hold()
    risk = stats.risk.hold()
    out: dict[str, Any] = {
        "game": stats.game,
        "rounds": stats.rounds,
        "seats": stats.seats,
        "seat_rounds": stats.rounds * stats.seats,
        "seed": stats.seed,
        "strategy": stats.strategy,
        "wagers": wagers,
        "house_edge_per_ante": round(base[0], 4) if base else None,
        "house_edge_per_ante_ci95": [round(base[1], 4), round(base[2], 4)] if base else None,
        "element_of_risk": round(risk[0], 4) if risk else None,
        "fold_percent": round(100 * stats.folded / stats.seat_rounds, 4)
        if stats.seat_rounds
        else None,
        "money_conserved_rounds": stats.balanced_rounds,
    }
    if stats.qualify_known:
        out["dealer_qualifies_percent"] = round(100 * stats.qualified / stats.rounds, 4)
    if stats.meters:
        out["meters"] = {
            f"{m.table}/{m.name}": {
                "start": exact_figure(from_micro(m.start)),
                "end": exact_figure(from_micro(m.amount)),
                "low": exact_figure(from_micro(m.low)),
                "high": exact_figure(from_micro(m.high)),
                "mean": exact_figure(from_micro(m.trajectory_sum // max(m.rounds, 1))),
                "hits": m.hits,
                "paid": exact_figure(from_micro(m.paid)),
                "increments": exact_figure(from_micro(m.increments)),
                "reserve_increments": exact_figure(from_micro(m.reserve_increments)),
                "handle": exact_figure(
                    from_micro(stats.meter_handles.get(f"{m.table}/{m.name}", 0))
                ),
                "reseed_funded": exact_figure(from_micro(m.funded)),
                "reserve": exact_figure(from_micro(m.reserve)),
            }
            for m in stats.meters
        }
    return out


def print_summary(console: Any, rules: Rules, stats: Stats, data: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table(
        title=f"{rules.d.name}: {data['rounds']:,} rounds × {data['seats']} seats "
        f"(strategy {data['strategy']}, seed {data['seed']})",
        title_justify="left",
    )
    for col in ("wager", "handle", "player net", "hold %", "95% CI"):
        t.add_column(col, justify="left" if col == "wager" else "right")
    for spot, w in data["wagers"].items():
        ci = w["ci95"]
        t.add_row(
            rules.spot_name(spot),
            format_money(w["handle"], cents=True),
            format_money(w["player_net"], cents=True),
            "—" if w["hold_percent"] is None else f"{w['hold_percent']:.3f}",
            "—" if ci is None else f"{ci[0]:.3f} … {ci[1]:.3f}",
        )
    console.print(t)
    settle = rules.d.settle
    assert settle is not None
    base = ", ".join(rules.spot_name(w) for w in settle.base_game.wagers)
    base += f" + {rules.spot_name(FEES)}s" if settle.base_game.fees else ""
    ci = data["house_edge_per_ante_ci95"]
    console.print(
        f"base game ({base}): house edge {data['house_edge_per_ante']:.3f}% of the "
        f"{rules.spot_name(settle.base_game.per)} (95% CI {ci[0]:.3f} … {ci[1]:.3f}); "
        f"element of risk {data['element_of_risk']:.3f}%"
    )
    if "dealer_qualifies_percent" in data:
        console.print(f"dealer qualifies: {data['dealer_qualifies_percent']:.2f}% of rounds")
    console.print(f"players fold: {data['fold_percent']:.2f}% of seat-rounds")
    for key, m in (data.get("meters") or {}).items():
        d = {k: format_money(v, cents=True) for k, v in m.items() if k != "hits"}
        table, _, meter = key.partition("/")
        console.print(
            f"{meter_label(rules.table(table).name, meter)}: {d['start']} → {d['end']} "
            f"(low {d['low']}, high {d['high']}, "
            f"mean {d['mean']}); {m['hits']} hit(s) paid {d['paid']}; increments "
            f"{d['increments']}; reseeds funded {d['reseed_funded']}"
        )
    for spot, w in data["wagers"].items():
        x = w.get("table_exact_hold_at_mean_meter")
        if x is None:
            continue
        means = x["meters_mean"].items()
        levels = ", ".join(f"{meter_name(k)} meter {format_money(v, cents=True)}" for k, v in means)
        tables = rules.wager(rules.spot_wager(spot)).tables.values()
        envy = any(t.envy is not None for t in tables)  # paid for other players' hands
        aside = (
            "the wager's other lines, folds and Envy Bonuses"
            if envy
            else "the wager's other lines and folds"
        )
        console.print(
            f"{rules.spot_name(spot)}: the {rules.table(x['table']).name} table's exact hold at "
            f"the meters' means ({levels}) is "
            f"{x['exact_hold_percent']:.3f}%, "
            + ("within" if x["within_ci95"] else "outside")
            + f" the simulated 95% CI ({aside} aside)"
        )
    console.print(
        "meters: increments = the chapter's rate × the handle, exactly, and each meter's "
        "amount and reserve balance with its increments, reseeds and payouts"
    )
    console.print(
        f"money conserved in all {data['money_conserved_rounds']:,} rounds; "
        f"{rounds_per_second(stats):,} rounds/s"
    )


def rounds_per_second(stats: Stats) -> float | None:
    """The speed of a run: not part of ``summary_json``, so the same seed gives the same
    bytes; ``simulate --format json`` writes it to stderr."""
    return round(stats.rounds / stats.seconds, 1) if stats.seconds else None
