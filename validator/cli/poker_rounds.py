"""``rulesub play`` and ``rulesub simulate`` for nonbanking Poker: a session at the table,
players driven by the decision tables of ``validator.interpreter.poker.table.strategies``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator import jsonout
from validator.cli.common import Format, console, fail, print_json, readable_input, refuse
from validator.cli.gate import Gate

if TYPE_CHECKING:
    from validator.compiler import PokerGame


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
    from validator.cli.rounds import _write_whole
    from validator.interpreter.poker.session import Session, log_line, narrate
    from validator.interpreter.settings import read_settings

    out = console(stderr=format is Format.json)
    lines: list[str] = []
    records: list[Any] = []
    with _session_input():
        setup = read_settings(game, rulesub, allow_findings=allow_findings)
        session = Session(game, setup, seats or setup.positions, seed, strategy)
        for record in session.hands(hands):
            if format is Format.json:
                as_json = record.to_json()
                if gate is not None and gate.draft:
                    as_json["draft"] = gate.notes
                records.append(as_json)
            elif not quiet:
                narrate(out, record)
            if log is not None:
                lines.append(_marked(log_line(record), gate))
    if format is Format.json:
        print_json(records)
    if log is not None:
        _write_whole(log, "".join(lines))
        from rich.text import Text

        out.print(
            Text(f"log: {log} ({hands} hand(s)); the same --seed writes the same log", style="dim"),
            soft_wrap=True,  # the path is copied back: never cut
        )
    elif quiet and format is Format.text:  # never a silent success: say what was done
        sys.stdout.write(
            f"{hands} hand(s) of {game.id} played, not narrated (--quiet); --log FILE keeps them\n"
        )


def _marked(line: str, gate: Gate | None) -> str:
    """A hand's log line, marked DRAFT with the submission's errors where it has any."""
    if gate is None or not gate.draft:
        return line
    import json

    data = {**json.loads(line), "draft": gate.notes}
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
    from validator.interpreter.poker.session import print_summary, summary
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
