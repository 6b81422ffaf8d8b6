"""The house's par sheet of a nonbanking Poker game: what the rake and the Bad Beat fund come
to, under the Rules Submission's rake and Bad Beat rules, for the stated mix of players.

The players wager against each other; the house earns the rake (from pots, and time
charges) and holds the Bad Beat fund. The figures are simulated with the poker session
engine (``validator.interpreter.poker.session``), the players' strategies read from the game
file's ``poker_strategies:`` (with no ``--strategy``, the seats alternate as
``seats_alternate`` says).

Chunk ``k`` of ``CHUNK`` hands is a session of its own, started from the submission's table
(the fund at its ``current_amount``, fresh stacks, the button at the last seat) and shuffled
from ``SeedSequence(seed, spawn_key=(k,))``; each chunk is reduced to integer sums, so the
same seed gives the same figures, byte for byte, whatever the number of workers, in one
process, on every core or on a Dask cluster (``--scheduler``), as the banking simulation
(``validator.par.simulated``) runs. Per hand means carry a 95%
interval over hands (the normal approximation; a hand's rake is bounded by the cap, so the
mean is well behaved).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from validator.counts import plural
from validator.interpreter.chunks import ChunkedSpec, run_jobs
from validator.interpreter.moments import Z95, add_sums, mean_half_width
from validator.money import Cents, displayed, dollar_text, format_money
from validator.par.printed import one_in

if TYPE_CHECKING:
    from validator.interpreter.poker.rake import RakeRule
    from validator.interpreter.poker.table import TableSetup

CHUNK = 2_000


@dataclass(frozen=True)
class PokerSpec(ChunkedSpec):
    """The hands to play: with ``tables`` they are shared among that many independent
    tables as evenly as they divide (table k: chunk k, shuffled from ``SeedSequence(seed,
    spawn_key=(k,))``), else cut in sessions of ``chunk`` hands. ``seats`` and ``strategy``:
    the table's players (``None``: every position, the seats alternating as the game file
    says). ``settings``: the table as the submission sets it (read from ``submission`` when
    not given)."""

    game: str
    submission: str | None
    seed: int
    hands: int
    hands_per_hour: int
    chunk: int = CHUNK
    tables: int | None = None
    seats: int | None = None
    strategy: str | None = None
    settings: TableSetup | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._settle_table()

    def table(self) -> TableSetup:
        """The table's settings (a nonbanking Poker game's)."""
        from validator.interpreter.poker.table import TableSetup

        assert isinstance(self.settings, TableSetup)
        return self.settings

    @property
    def total(self) -> int:
        return self.hands

    def chunks(self) -> list[tuple[int, int]]:
        if self.tables is None:
            return super().chunks()
        q, r = divmod(self.hands, self.tables)
        return [(k, q + (k < r)) for k in range(self.tables) if q + (k < r)]


@dataclass
class Sum2:
    """Integer sums of a per-hand amount in cents: count, sum, sum of squares."""

    n: int = 0
    s: int = 0
    ss: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    def __iadd__(self, o: Sum2) -> Sum2:
        return add_sums(self, o)

    def mean(self) -> Fraction:
        return Fraction(self.s, self.n) if self.n else Fraction(0)

    def half_width(self) -> float:
        """1.96 standard errors of the mean, in cents."""
        return mean_half_width(self.n, self.s, self.ss)


@dataclass
class PokerSums:
    hands: int = 0
    rake: Sum2 = field(default_factory=Sum2)  # from pots and time charges, cents a hand
    contributions: Sum2 = field(default_factory=Sum2)  # to the Bad Beat fund
    payouts: Sum2 = field(default_factory=Sum2)  # from the Bad Beat fund
    hits: int = 0
    showdowns: int = 0

    def __iadd__(self, o: PokerSums) -> PokerSums:
        self.hands += o.hands
        self.rake += o.rake
        self.contributions += o.contributions
        self.payouts += o.payouts
        self.hits += o.hits
        self.showdowns += o.showdowns
        return self


def _session(spec: PokerSpec, k: int) -> Any:
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session

    game = load_game(spec.game)
    setup = spec.table()
    seats = spec.seats or setup.positions
    return Session(
        game, setup, seats, spec.seed_sequence(k), spec.strategy, spec.hands_per_hour, False
    )


def _warm(spec: PokerSpec) -> None:
    """One hand in this process before the workers fork: they inherit the compiled Poker
    kernels instead of each loading them."""
    for _ in _session(spec, 0).hands(1):
        pass


def run_chunk(spec: PokerSpec, k: int, n: int) -> PokerSums:
    """Chunk ``k``: ``n`` hands of a session shuffled from ``SeedSequence(seed, (k,))``."""
    session = _session(spec, k)
    out = PokerSums()
    for record in session.hands(n):
        out.hands += 1
        out.rake.add(record.rake + sum(record.time_charges.values()))
        out.contributions.add(record.bad_beat_contribution)
        out.payouts.add(record.bad_beat_paid)
        out.hits += record.bad_beat_hit
        out.showdowns += record.showdown
    return out


def _job(args: tuple[PokerSpec, int, int]) -> PokerSums:
    return run_chunk(*args)


def simulate_house(
    spec: PokerSpec, workers: int | None = None, scheduler: str | None = None
) -> PokerSums:
    """Every chunk of ``spec``, summed: on ``workers`` processes (``None``: every core), or
    on the Dask scheduler at ``scheduler`` (an address, or ``local``), as the banking
    simulation runs (``validator.par.simulated.run_jobs``)."""
    total = PokerSums()
    jobs = [(spec, k, n) for k, n in spec.chunks()]
    for part in run_jobs(_job, jobs, workers, scheduler, lambda: _warm(spec)):
        total += part
    return total


def _table_job(args: tuple[PokerSpec, int, int]) -> tuple[Any, dict[int, int], int]:
    """Table ``k``: ``n`` hands of its own session; its totals, stacks and Bad Beat fund."""
    session = _session(*args[:2])
    for _ in session.hands(args[2]):
        pass
    return session.totals, session.stacks, session.fund


def room(spec: PokerSpec, workers: int | None = None, scheduler: str | None = None) -> Any:
    """Every table of ``spec`` played (on ``workers`` processes or the Dask scheduler at
    ``scheduler``) and summed into table 0's session as dealt: the hands, pots, rake, Bad
    Beat money and every seat's net added over the tables, the fund at the start plus every
    table's change to it. Sums of integers: the same bytes however the tables ran."""
    probe = _session(spec, 0)
    t = probe.totals
    fund = probe.fund
    jobs = [(spec, k, n) for k, n in spec.chunks()]
    for part, stacks, end in run_jobs(_table_job, jobs, workers, scheduler, lambda: _warm(spec)):
        for f in fields(part):
            if f.name != "net":  # every other total is a count or cents
                setattr(t, f.name, getattr(t, f.name) + getattr(part, f.name))
        for seat, net in part.net.items():
            t.net[seat] = t.net.get(seat, 0) + net
        for seat, chips in stacks.items():
            probe.stacks[seat] = probe.stacks.get(seat, 0) + chips
        fund += end - probe.fund_start
    probe.fund = fund
    return probe


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a frequency: unlike the normal approximation it
    stays meaningful for a rare event (a Bad Beat not hit in n hands is not a frequency of
    exactly zero)."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def _dollars(cents: Fraction | float) -> str:
    return displayed(Fraction(cents) / 100, 4)  # half up (validator.money)


def _figure(m: Sum2, scale: int = 1) -> dict[str, Any]:
    """A per-hand (scale 1) or per-hour (scale: hands an hour) mean, money as strings."""
    mean = m.mean() * scale
    half = Fraction(m.half_width()) * scale
    return {"mean": _dollars(mean), "ci95": [_dollars(mean - half), _dollars(mean + half)]}


def by_the_clock(rule: RakeRule, seats: int, hands_per_hour: int, chip: Cents) -> dict[str, Any]:
    """A rake by time charges, exact: it is charged by the clock, not by the cards, so it
    is no simulated mean and carries no interval. Each period takes one assessment (the
    hourly fee's share, at most the stated maximum, § 553.15(a)(3)) from each seated player
    (per player) or from the table (per table, shared among its players), so an hour takes
    that times the periods in an hour (§ 553.15(b)(3)); the part of a chip a player's share
    waits to make (§ 553.1, Rake) moves when he pays, not what; where whole chips would pass
    the maximum, each pays the whole chips it allows (``rake.a_period``)."""
    from validator.interpreter.poker.rake import a_period

    assert rule.hourly is not None and rule.every_minutes
    payers = seats if rule.basis == "per_player" else 1
    sharers = 1 if rule.basis == "per_player" else seats  # one table's assessment, shared
    per_hour = a_period(rule, chip, sharers) * sharers * payers
    per_hour *= Fraction(60, rule.every_minutes)

    def exact(cents: Fraction) -> dict[str, Any]:
        return {"mean": _dollars(cents), "ci95": [_dollars(cents), _dollars(cents)]}

    who = f"each of {seats} seated players" if payers > 1 else "the table"
    return {
        "kind": "time",
        "method": "exact",
        "per_hand": exact(per_hour / hands_per_hour),
        "per_hour": exact(per_hour),
        "reason": f"time charges of {dollar_text(rule.hourly)} an hour from {who}, assessed "
        f"every {rule.every_minutes} minutes"
        + (f", at most {dollar_text(rule.cap)} an assessment" if rule.cap is not None else "")
        + ": by the clock, not simulated",
    }


def house_sheet(
    spec: PokerSpec, workers: int | None = None, scheduler: str | None = None
) -> dict[str, Any]:
    """The ``poker`` part of the par sheet's JSON."""
    from validator.interpreter.poker.session import Session

    sums = simulate_house(spec, workers, scheduler)
    probe: Session = _session(spec, 0)
    rules = probe.setup.rules
    hph, chip = spec.hands_per_hour, probe.setup.stakes.chip
    growth = Sum2(sums.hands, sums.contributions.s - sums.payouts.s, 0)
    p = sums.hits / sums.hands if sums.hands else 0.0
    lo, hi = wilson(sums.hits, sums.hands)
    return {
        "method": "simulated",
        "rules": probe.setup.source,
        "hands": sums.hands,
        "tables": len(spec.chunks()),
        "seats": len(probe.seats),
        "seed": spec.seed,
        "strategies": {str(k): v for k, v in probe.strategies.items()},
        # each as the strategy file names it, for what people read
        "strategy_names": {
            key: named.name
            for key, named in probe.game.definition.poker_strategies.named.items()  # type: ignore[union-attr]
            if key in probe.strategies.values()
        },
        "hands_per_hour": hph,
        "rake": by_the_clock(rules.rake, len(probe.seats), hph, chip)
        if rules.rake is not None and rules.rake.kind == "time"
        else {
            "kind": rules.rake.kind if rules.rake is not None else "none",
            "per_hand": _figure(sums.rake),
            "per_hour": _figure(sums.rake, hph),
            # beside a rake from the pots, the time charges are in its figures, and exact
            **(
                {"time_charges": by_the_clock(rules.time, len(probe.seats), hph, chip)}
                if rules.time is not None
                else {}
            ),
        },
        "bad_beat": None
        if rules.bad_beat is None
        else {
            "qualifying": rules.bad_beat.at_least,
            "fund_at_start": _dollars(rules.bad_beat.fund),  # each chunk's session starts here
            "contribution_per_hand": _figure(sums.contributions),
            "contribution_per_hour": _figure(sums.contributions, hph),
            "paid_per_hand": _dollars(sums.payouts.mean()),
            "fund_growth_per_hand": _dollars(growth.mean()),
            "fund_growth_per_hour": _dollars(growth.mean() * hph),
            "hits": sums.hits,
            "hit_frequency": round(p, 8),
            "hit_frequency_ci95": [round(lo, 8), round(hi, 8)],
            "one_in_hands": round(1 / p) if p else None,
        },
        "showdowns": sums.showdowns,
    }


def _rules_name(rules: str) -> str:
    """The rules the tables were played under, as a document names them: the submission's
    file by its name (the sheet's header names it so), or the documented defaults."""
    return "the documented defaults" if rules == "defaults" else PurePath(rules).name


def _mean(figure: str) -> str:
    """A mean of the JSON (``"4.9800"``) as printed: to the cent (``$4.98``)."""
    return format_money(figure, cents=True)


def _interval(m: dict[str, Any]) -> str:
    """A mean and its 95% interval, as printed: ``$4.98 (95% $4.94 … $5.02)``."""
    lo, hi = m["ci95"]
    return f"{_mean(m['mean'])} (95% {_mean(lo)} … {_mean(hi)})"


def rake_name(kind: str) -> str:
    """A rake's type in the chapter's words (§ 553.15(b)): "the percentage rake"."""
    from validator.model.submission.descriptions import DESCRIPTIONS

    return "no rake" if kind == "none" else DESCRIPTIONS.get(kind, f"the {kind} rake")


def rake_heading(kind: str) -> str:
    """``rake_name`` opening a line: "The percentage rake"."""
    name = rake_name(kind)
    return f"{name[:1].upper()}{name[1:]}"


def lines(poker: dict[str, Any]) -> list[str]:
    """The house's figures in words, for every format."""
    r, hph = poker["rake"], poker["hands_per_hour"]
    if r.get("method") == "exact":  # by the clock: the figures are exact, no interval
        rake = (
            f"The rake by time charges: {_mean(r['per_hour']['mean'])} an hour exactly, "
            f"{_mean(r['per_hand']['mean'])} a hand at {hph} hands an hour ({r['reason']})"
        )
    else:
        time = r.get("time_charges")
        rake = (
            f"{rake_heading(r['kind'])}"
            + (" and the time charges" if time else "")
            + f": {_interval(r['per_hand'])} a hand; "
            f"{_interval(r['per_hour'])} an hour at {hph} hands an hour"
            + (
                f"; of which the time charges {_mean(time['per_hour']['mean'])} an "
                f"hour exactly ({time['reason']})"
                if time
                else ""
            )
        )
    out = [
        f"simulated: {poker['hands']:,} hands at {plural(poker['tables'], 'table')} of "
        f"{poker['seats']} seats, seed {poker['seed']} "
        f"({_rules_name(poker['rules'])}); players: "
        + ", ".join(
            f"seat {k} {(poker.get('strategy_names') or {}).get(v, v)}"
            for k, v in poker["strategies"].items()
        ),
        rake,
    ]
    bb = poker["bad_beat"]
    if bb is None:
        out.append("Bad Beat: not offered")
    else:
        hit = (
            f"hit {bb['hits']:,} times, {bb['hit_frequency']:.6%} of hands (95% "
            f"{bb['hit_frequency_ci95'][0]:.6%} … {bb['hit_frequency_ci95'][1]:.6%})"
            + (f", {one_in(Fraction(bb['hits'], poker['hands']))}" if bb["hits"] else "")
        )
        out.append(
            f"Bad Beat fund (from {format_money(bb['fund_at_start'])}): "
            f"{_interval(bb['contribution_per_hand'])} contributed a hand, "
            f"{_mean(bb['contribution_per_hour']['mean'])} an hour; grows "
            f"{_mean(bb['fund_growth_per_hand'])} a hand after payouts, "
            f"{_mean(bb['fund_growth_per_hour'])} an hour; {hit}"
        )
    return out
