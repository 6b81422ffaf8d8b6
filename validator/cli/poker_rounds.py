"""``rulesub play`` and ``rulesub simulate`` for nonbanking Poker: a session at the table,
players driven by the decision tables of ``validator.interpreter.poker.table.strategies``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator import jsonout
from validator.cli.common import Format, console, fail, print_json, readable_input, refuse
from validator.cli.gate import Gate
from validator.money import dollar_text, format_money, to_cents

if TYPE_CHECKING:
    from validator.compiler import PokerGame
    from validator.interpreter.poker.session import HandRecord


def poker_game(game_id: str) -> PokerGame | None:
    """The compiled game of ``game_id`` where it is nonbanking Poker; ``None`` for a banking
    game, and for an unknown game or an unreadable game file (the banking path reports it)."""
    from validator.compiler import PokerGame, load_game

    try:
        game = load_game(game_id)
    except Exception:
        return None
    return game if isinstance(game, PokerGame) else None


@contextmanager
def _session_input() -> Iterator[None]:
    """The poker session's own errors, and unreadable files, as every command reports them
    (``readable_input``); a value a hand cannot take, by its message."""
    with readable_input():
        try:
            yield
        except ValueError as e:
            fail(str(e.args[0]) if e.args else str(e))


def play_poker(
    game: PokerGame,
    rulesub: Path | None,
    seats: int,
    hands: int,
    seed: int,
    strategy: str | None,
    log: Path | None,
    quiet: bool,
    format: Format = Format.text,
    gate: Gate | None = None,
    allow_findings: bool = False,
) -> None:
    from validator.cli.rounds import _write_whole, marked
    from validator.counts import plural
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import read_settings

    out = console(stderr=format is Format.json)
    lines: list[str] = []
    records: list[Any] = []
    with _session_input():
        setup = read_settings(game, rulesub, allow_findings=allow_findings)
        session = Session(game, setup, seats or setup.positions, seed, strategy)
        if setup.defaults and format is not Format.json and not quiet:
            from validator.par.sheet import played_by_default

            out.print(played_by_default(setup.defaults), style="dim", soft_wrap=False)
        for record in session.hands(hands):
            if format is not Format.json and not quiet:
                narrate(out, record, session.kill.option if session.kill else None)
            if format is Format.json or log is not None:
                data = record.to_json() if gate is None else marked(record.to_json(), gate)
                records.append(data)
                if log is not None:
                    lines.append(log_line(data))
    if format is Format.json:
        print_json(records)
    if log is not None:
        _write_whole(log, "".join(lines))
        from rich.text import Text

        out.print(
            Text(
                f"log: {log} ({plural(hands, 'hand')}); replay one with "
                f"`rulesub settle {log} --round N`",
                style="dim",
            ),
            soft_wrap=True,  # the path is copied back: never cut
        )
    elif quiet and format is Format.text:  # never a silent success: say what was done
        sys.stdout.write(
            f"{plural(hands, 'hand')} of {game.id} played, not narrated (--quiet); "
            "--log FILE keeps them\n"
        )


def log_line(data: dict[str, Any]) -> str:
    """A round's line of the play log: compact, keys sorted, ASCII only."""
    return jsonout.dumps(data, sort_keys=True, ensure_ascii=True, separators=(",", ":")) + "\n"


def simulate_poker(
    game: PokerGame,
    rulesub: Path | None,
    seats: int | None,
    hands: int,
    seed: int,
    strategy: str | None,
    hands_per_hour: int,
    format: Format,
    tables: int = 1,
    workers: int | None = None,
    scheduler: str | None = None,
    gate: Gate | None = None,
    allow_findings: bool = False,
) -> None:
    """``hands`` hands shared among ``tables`` independent tables (table k shuffled from
    ``SeedSequence(seed, spawn_key=(k,))``), played on ``workers`` processes or through the
    Dask scheduler at ``scheduler``, the room's figures summed: the same seed and tables
    give the same bytes whatever the workers."""
    from validator.cli.tools import first_poker_run_note
    from validator.interpreter.chunks import SchedulerError
    from validator.interpreter.poker.session import summary
    from validator.interpreter.settings import read_settings
    from validator.par.poker import PokerSpec, room

    source = str(rulesub) if rulesub is not None else None
    first_poker_run_note()
    with _session_input():
        setup = read_settings(game, rulesub, allow_findings=allow_findings)
        spec = PokerSpec(
            game.id,
            source,
            seed,
            hands,
            hands_per_hour,
            tables=tables,
            seats=seats,
            strategy=strategy,
            settings=setup,
        )
        try:
            session = room(spec, workers, scheduler)
        except SchedulerError as e:
            refuse(e)
    data = {**summary(session, hands_per_hour), "tables": len(spec.chunks())}
    if gate is not None and gate.draft:
        data["draft"] = gate.mark()
    if format is Format.json:
        print_json(data)
        return
    print_summary(console(), data)


def narrate(out: Any, record: HandRecord, kill_option: str | None = None) -> None:
    """A round of play as the dealer would call it (on a console with markup off: the text
    is printed as written), a line each, never cut: a line piped to a file or a search is
    whole."""
    from functools import partial

    from rich.text import Text

    say = partial(out.print, soft_wrap=True)
    played = record.played
    if played is None:
        raise ValueError("a round played by the fast path keeps no log to narrate")
    s = played.settlement
    head = Text(f"hand {record.number}", style="bold")
    if record.button is not None:
        head.append(f", button seat {record.button}")
    if record.kill_multiplier != 1:
        from validator.interpreter.poker.kill import option_name

        head.append(f", limits ×{record.kill_multiplier} ({option_name(kill_option or 'kill')})")
    say(head)
    for seat, amount in record.buy_ins.items():
        say(f"  seat {seat} buys in for {dollar_text(amount)}")
    for line in played.log:
        say("  " + line)
    for a in s.seats:
        hands = "; ".join(f"{k} {v}" for k, v in a.hands.items())
        say(
            f"  seat {a.seat}: in {dollar_text(a.contributed)}, "
            f"awarded {dollar_text(a.award)}" + (f" ({hands})" if hands else "")
        )
        if a.bad_beat:
            say(f"  seat {a.seat}: Bad Beat payout {dollar_text(a.bad_beat)}")
    say("  rake " + dollar_text(s.rake.total) + ": " + s.rake.reason)
    if s.bad_beat is not None:
        say(f"  Bad Beat: {s.bad_beat.contribution_reason}; fund {dollar_text(record.fund_after)}")
    if record.time_charges:  # a period of the clock ends with this round (§ 553.15(b)(3))
        rake = s.game.definition.rake
        cite = f" [{rake.time.cite}]" if rake is not None and rake.time is not None else ""
        for seat, amount in record.time_buy_ins.items():
            say(f"  seat {seat} buys in for {dollar_text(amount)} to pay the time charge")
        paid = "; ".join(f"seat {k} {dollar_text(v)}" for k, v in record.time_charges.items())
        say(f"  time charges at the period's end, from the stacks: {paid}{cite}")


def print_poker_settlement(out: Any, name: str, data: dict[str, Any]) -> None:
    """A settled round (``PokerSettlement.to_json``) as the dealer's settlement is read back
    to a player: each pot, who could win it and why its winners took it, the uncalled bet,
    the rake and the Bad Beat with their figures, the Kill, the Forced Bet, each seat's
    account, the balance and the order of the settlement."""
    from rich.text import Text

    m = format_money
    lines: list[str] = []
    u = data["uncalled"]
    if u is not None:
        lines.append(f"uncalled final bet: {u['reason']}")
    for pot in data["pots"]:
        seats = pot["eligible"]
        eligible = f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))}"
        taken = [f"rake {m(pot['rake'])}"] if pot["rake"] != "0" else []
        if pot["bad_beat_contribution"] != "0":
            taken.append(f"Bad Beat contribution {m(pot['bad_beat_contribution'])}")
        after = f"; {', '.join(taken)}: {m(pot['awarded'])} awarded" if taken else ""
        lines.append(f"{pot['pot']}: {m(pot['amount'])} ({eligible} eligible){after}")
    shown = [(s["seat"], s["hands"]) for s in data["seats"] if s["hands"]]
    if shown:
        lines.append("hands at the showdown:")
        for seat, hands in shown:
            lines.append(f"  seat {seat}: " + "; ".join(f"{k} {v}" for k, v in hands.items()))
    rake = data["rake"]
    lines.append(f"rake {m(rake['total'])}: {rake['reason']}")
    lines += [f"  {line}" for line in rake["lines"]]
    bb = data["bad_beat"]
    if bb is not None:
        lines.append(f"Bad Beat: {bb['reason']}")
        lines.append(f"  {bb['hit_reason']}")
        lines += [f"  seat {p['seat']}: {m(p['amount'])}, {p['reason']}" for p in bb["payouts"]]
        paid = sum(to_cents(Decimal(p["amount"])) for p in bb["payouts"])
        lines.append(
            f"  fund {m(bb['fund_before'])} + {m(bb['contribution'])} contributed - "
            f"{dollar_text(paid)} paid = {m(bb['fund_after'])}"
        )
    if data["kill"] is not None:
        lines.append(f"Kill: {data['kill']['reason']}")
    if data["forced_bet"] is not None:
        lines.append(f"Forced Bet: {data['forced_bet']['reason']}")
    for seat in data["seats"]:
        lines.append(
            f"seat {seat['seat']}: put in {m(seat['contributed'])}, awarded "
            f"{m(seat['award'])}, net {m(seat['net'])}"
            + (
                f", Bad Beat payout {m(seat['bad_beat_payout'])}"
                if seat["bad_beat_payout"] != "0"
                else ""
            )
        )
        lines += [f"  {reason}" for reason in seat["reasons"]]
    t = data["totals"]
    held = "balanced" if t["balanced"] else "NOT balanced"
    lines.append(
        f"{held}: contributions {m(t['contributions'])} = awards {m(t['awards'])} + rake "
        f"{m(t['rake'])} + Bad Beat contribution {m(t['bad_beat_contribution'])}"
    )
    if data["order"] is not None:
        lines.append(f"order: {data['order']}")
    out.print(Text(f"{name}: settlement", style="bold"))
    for line in lines:
        out.print(Text(line), soft_wrap=True)  # a reason is read whole: the terminal wraps it


def _printed(figures: dict[str, Any]) -> dict[str, str]:
    """The money strings of a summary's section as printed (``-$1,234.50``)."""
    return {
        k: format_money(v, cents=True)
        for k, v in figures.items()
        if isinstance(v, str) and v.lstrip("-").replace(".", "", 1).isdigit()
    }


def print_summary(out: Any, data: dict[str, Any]) -> None:
    r = data["rake"]
    from rich.text import Text

    from validator.compiler import game_name

    out.print(
        Text.assemble(
            (game_name(data["game"]), "bold"),  # the game as its chapter names it
            f": {data['hands']:,} hands, {data['seats']} seats ({data['rules']}); "
            f"{data['showdowns']:,} showdowns",
        )
    )
    m = _printed(r)
    from validator.par.poker import rake_heading

    out.print(  # the rake in § 553.15(b)'s words; a mean to the cent, as the par sheet
        f"{rake_heading(r['kind'])}: {m['total']} in all ({m['from_pots']} from pots, "
        f"{m['time_charges']} time charges); {m['per_hand']} a hand; {m['per_hour']} an "
        f"hour at {data['hands_per_hour']} hands an hour"
    )
    bb = data["bad_beat"]
    if bb is not None:
        b = _printed(bb)
        out.print(
            f"Bad Beat fund: {b['fund_start']} + {b['contributions']} contributed - "
            f"{b['payouts']} paid ({bb['hits']} hits) = {b['fund_end']}"
        )
    else:
        out.print("Bad Beat: not offered")
    inv = data["invariant"]
    out.print(
        f"chips conserved in {inv['hands_checked']:,} of {data['hands']:,} hands ({inv['rule']})"
    )
    si = data["session_invariant"]
    s = _printed(si)
    out.print(
        f"session {'balanced' if si['held'] else 'NOT BALANCED'}: buy-ins {s['buy_ins']} = "
        f"stacks {s['stacks']} + rake {m['total']} + Bad Beat contributions - payouts; "
        f"players' net {s['players_net']}"
    )
    for seat, p in data["players"].items():
        net = to_cents(Decimal(p["net"]))
        out.print(f"  seat {seat} ({p['strategy']}): net {'+' * (net > 0)}{dollar_text(net)}")
