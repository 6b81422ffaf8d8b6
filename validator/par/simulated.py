"""Simulated base-game figures, deterministic on any number of workers or machines.

The rounds are cut into chunks of ``CHUNK`` rounds; chunk ``k`` deals from its own generator,
``SeedSequence(seed, spawn_key=(k,))``, through the batch engine
(``validator.interpreter.batch``), and is reduced to integer sums (``Sums``: rounds, money
in micro-dollars, its squares and cross products, decisions, dealer qualifications). Integer
sums do not depend on the order they are added in, so the same seed gives the same figures,
byte for byte, whether the chunks run in one process, on every core
(``multiprocessing``), or on a Dask cluster (``--scheduler``; ``pip install rulesub[dask]``).

Only the base game is dealt (no optional wager is placed): its edge, per unit of the initial
wager and per unit of all the money it put at risk, with 95% confidence intervals from the
ratio estimator over rounds (every seat of a round shares the dealer's hand, so the round is
the independent unit).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from validator.errors import RulesubError
from validator.interpreter.chunks import (
    SimSpec,
    run_jobs,
)
from validator.interpreter.moments import Z95, Moments


@dataclass
class Sums:
    rounds: int = 0
    seat_rounds: int = 0
    qualified: int = 0
    qualify_known: bool = False
    folded: int = 0
    base: Moments = field(default_factory=Moments)  # per unit of the `per` wager
    risk: Moments = field(default_factory=Moments)  # per unit of all the money at risk
    seat: Moments = field(default_factory=Moments)  # one seat's result per unit of `per`
    decisions: dict[str, int] = field(default_factory=dict)
    histogram: dict[int, int] = field(default_factory=dict)  # seat result, half units -> seats
    unbalanced: int = 0

    def __iadd__(self, o: Sums) -> Sums:
        self.rounds += o.rounds
        self.seat_rounds += o.seat_rounds
        self.qualified += o.qualified
        self.qualify_known |= o.qualify_known
        self.folded += o.folded
        self.base += o.base
        self.risk += o.risk
        self.seat += o.seat
        for action, n in o.decisions.items():
            self.decisions[action] = self.decisions.get(action, 0) + n
        for result, n in o.histogram.items():
            self.histogram[result] = self.histogram.get(result, 0) + n
        self.unbalanced += o.unbalanced
        return self


_CACHE: dict[tuple[str, str | None, str | None, int], Any] = {}


def _engine(spec: SimSpec) -> tuple[Any, Any]:
    key = (spec.game, spec.submission, spec.strategy, spec.seats)
    if key not in _CACHE:
        from dataclasses import replace

        from validator.compiler import load_game
        from validator.interpreter.batch import BatchEngine
        from validator.interpreter.play import default_wagers
        from validator.interpreter.rules import Rules

        game = load_game(spec.game)
        # the base game alone: no optional wager, no optional payout, no payout limit
        cfg = replace(spec.table(), offered=set(), optional_payouts=set(), payout_limit=None)
        rules = Rules(game, cfg)
        _, strat = rules.played(spec.strategy)
        _CACHE[key] = (rules, BatchEngine(rules, strat, spec.seats, default_wagers(rules)))
    return _CACHE[key]


def run_chunk(spec: SimSpec, k: int, n: int) -> Sums:
    """Chunk ``k`` of ``n`` rounds, dealt from ``SeedSequence(seed, spawn_key=(k,))``."""
    from validator.interpreter.simulate import deal

    rules, engine = _engine(spec)
    rng = np.random.default_rng(spec.seed_sequence(k))
    decks, draws = deal(rng, n, rules.config.positions)
    res = engine.run(decks, draws)
    out = Sums(rounds=res.rounds, seat_rounds=int(res.folded.size))
    out.unbalanced = int((~res.balanced()).sum())
    settle = rules.d.settle
    base_x = np.zeros(res.rounds, np.int64)
    risk_h = np.zeros(res.rounds, np.int64)
    seat_x = np.zeros(res.folded.shape, np.int64)
    for spot, st in res.stakes.items():
        if rules.spot_wager(spot) not in settle.base_game.wagers:
            continue
        x = res.returned[spot] - st
        seat_x += x
        base_x += x.sum(axis=1)
        risk_h += st.sum(axis=1)
    if settle.base_game.fees:
        base_x -= res.fees.sum(axis=1)
        risk_h += res.fees.sum(axis=1)
        seat_x -= res.fees
    per = res.stakes[settle.base_game.per]
    out.base.add_arrays(base_x, per.sum(axis=1))
    out.risk.add_arrays(base_x, risk_h)
    dealt = per > 0
    out.seat.add_arrays(seat_x[dealt], per[dealt])
    halves = np.floor_divide(2 * seat_x[dealt] + per[dealt] // 2, per[dealt])
    keys, counts = np.unique(halves, return_counts=True)
    out.histogram = {int(a): int(b) for a, b in zip(keys.tolist(), counts.tolist(), strict=True)}
    if res.qualifies is not None:
        out.qualify_known = True
        out.qualified = int(res.qualifies.sum())
    out.folded = int((res.folded & dealt).sum())
    out.decisions["fold"] = out.folded
    decided = res.folded & dealt
    for spot, st in res.stakes.items():
        wager = rules.wager(rules.spot_wager(spot))
        if not wager.placed_after_cards or wager.amount is None:
            continue
        base = res.stakes[wager.amount.of]
        placed = (st > 0) & dealt
        decided |= placed
        multiple = np.where(placed, st // np.maximum(base, 1), 0)
        for m in np.unique(multiple[placed]).tolist():
            label = f"{spot} {m}x"
            out.decisions[label] = out.decisions.get(label, 0) + int((multiple == m).sum())
    # a hand the rules settle without a choice (Lunar Poker's straight flush is declared,
    # § 589.11(b)(2)): counted, so that the shares add up to every hand dealt
    undecided = int((dealt & ~decided).sum())
    if undecided and out.decisions.keys() - {"fold"}:
        out.decisions[NO_FURTHER_WAGER] = undecided
    return out


#: The share of the hands that neither folded nor placed a wager after their cards: the
#: rules settle them without a choice (a declared straight flush).
NO_FURTHER_WAGER = "no choice to make"


def _job(args: tuple[int, SimSpec, int, int]) -> tuple[int, Sums]:
    """Chunk ``k`` of ``n`` rounds of the ``i``-th spec, tagged with ``i``."""
    from validator.interpreter.rules import MissingTable

    i, spec, k, n = args
    try:
        return i, run_chunk(spec, k, n)
    except MissingTable as e:  # its own class does not cross a process boundary
        raise CannotSimulate(str(e)) from None


def simulate(
    spec: SimSpec,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Sums:
    """Every chunk of ``spec``, summed: on ``workers`` processes (``None``: every core), or
    on the Dask scheduler at ``scheduler`` (an address, or ``local`` for a local cluster)."""
    return simulate_all([spec], workers, scheduler, progress)[0]


def simulate_all(
    specs: list[SimSpec],
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Sums]:
    """Every chunk of every spec (a par sheet's strategies), handed out in one go, so that
    no worker waits at the end of one strategy for the last chunk of it: each spec's sums,
    in the order of ``specs``. Integer sums make the order the chunks end in irrelevant."""
    jobs = [(i, spec, k, n) for i, spec in enumerate(specs) for k, n in spec.chunks()]
    totals = [Sums() for _ in specs]
    for i, part in _results(jobs, specs, workers, scheduler):
        totals[i] += part
        if progress is not None:
            progress(part.rounds)
    for total in totals:
        if total.unbalanced:
            raise AssertionError(f"money not conserved in {total.unbalanced} simulated round(s)")
    return totals


def _results(
    jobs: list[tuple[int, SimSpec, int, int]],
    specs: list[SimSpec],
    workers: int | None,
    scheduler: str | None,
) -> Iterable[tuple[int, Sums]]:
    from validator.interpreter.simulate import warm

    def warm_all() -> None:
        for spec in specs:
            warm(*_engine(spec), spec.chunk)

    return run_jobs(_job, jobs, workers, scheduler, warm_all)


class CannotSimulate(RulesubError, RuntimeError):
    """The rounds cannot be dealt as the table is configured (a table the regulation text
    lacks and the submission does not supply), and why."""


# -- figures ----------------------------------------------------------------------------------


def interval(m: Moments, scale: float = 100.0, sign: float = -1.0) -> dict[str, Any] | None:
    """The house's share of the handle in percent, with its 95% interval."""
    r = m.ratio()
    if r is None:
        return None
    value, se = r
    lo, hi = sorted((sign * scale * (value - Z95 * se), sign * scale * (value + Z95 * se)))
    return {"value": round(sign * scale * value, 6), "ci95": [round(lo, 6), round(hi, 6)]}


def table_hold_range(edge: float, sd: float, rounds: int) -> list[float]:
    """The range (95%) a table's actual hold, in percent of the initial wagers, should fall in
    over ``rounds`` rounds: the edge ± 1.96 standard deviations of the mean result."""
    half = Z95 * sd / math.sqrt(rounds) * 100
    return [round(edge - half, 4), round(edge + half, 4)]
