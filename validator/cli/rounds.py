"""``rulesub settle``, ``rulesub play`` and ``rulesub simulate``: rounds of a game.

Exit codes: 0 done, 2 the input could not be used (an unreadable or impossible round, a
table missing from the regulation text with none supplied, wrong usage).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from validator.cli import app
from validator.cli.common import Format, console, fail, print_json, refuse
from validator.cli.gate import Gate, reads_once, submission_gate
from validator.cli.options import (
    AllowFindingsOption,
    FormatOption,
    OutOption,
    RulesubOption,
    SeedOption,
    StrategyOption,
    prints_result,
    ready_to_write,
)
from validator.counts import plural
from validator.errors import RulesubError
from validator.interpreter.recorded import recorded_result

# the options `play` and `simulate` share are declared once, in validator.cli.options


@contextmanager
def _round_input(spec: Any = None, rulesub: Path | None = None) -> Iterator[None]:
    """Every failure of a round's input as a clean message with exit code 2. ``rulesub``:
    the submission whose table a missing-table message points at."""
    try:
        yield
    except RulesubError as e:
        refuse(e, _where(e, spec, rulesub))
    except KeyError as e:
        fail(str(e.args[0]) if e.args else "not found")


def _where(e: RulesubError, spec: Any, rulesub: Path | None) -> str:
    """``file:line:column: `` of what a round's error is about, where the error itself does
    not say: a missing table in the submission or the round file, money out of range at the
    submission's table, a round the rules refuse at its place in the round file."""
    from validator.interpreter.batch_money import InexactMoney
    from validator.interpreter.errors import RoundError
    from validator.interpreter.rules import MissingTable
    from validator.interpreter.simulate import MoneyOutOfRange

    round_spec = spec[0] if spec is not None else None
    if isinstance(e, MissingTable):
        where = _table_position(rulesub, e.table_id)
        if not where and round_spec is not None:
            where = _table_position(round_spec.rulesub, e.table_id)
            if not where:  # the round file supplies no submission: point at its paytables
                f, line, col = round_spec.position("/paytables")
                where = f"{f}:{line}:{col}: "
        return where
    if isinstance(e, MoneyOutOfRange | InexactMoney):
        return _table_position(rulesub, None)
    if isinstance(e, RoundError) and round_spec is not None:
        f, line, col = round_spec.position(e.pointer)
        return f"{f}:{line}:{col}: "
    return ""


def is_log(path: Path) -> bool:
    """A log of `rulesub play` rather than a round file: ``.jsonl``, or, whatever its name,
    lines of JSON as play writes them: a banking round's beginning with its number
    (``{"round": 1, …``), a Poker hand's (keys sorted) holding its ``"round_file":``. A
    round file written as JSON has neither."""
    if path.suffix == ".jsonl":
        return True
    if not path.is_file():  # a FIFO is never opened here: the reader names it
        return False
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
    except OSError:
        return False
    head = first.lstrip()
    if head.startswith(b'{"round":'):
        return True
    return head.startswith(b'{"') and b'"hand":' in first and b',"round_file":{' in first


def _table_position(rulesub: Path | None, table_id: str | None) -> str:
    """``file:line:column: `` of what a submission says of a table (its custom rows, its
    progressive's wager amount, its paytables), or of its table limits; "" without one."""
    if rulesub is None:
        return ""
    from validator.loader import LoadError
    from validator.model.submission import load_submission

    try:
        loc = load_submission(rulesub).located
    except LoadError:
        return f"{rulesub}:1:1: "
    wagers = [table_id.split(".")[0]] if table_id else []
    pointers = [
        *(f"/custom_paytables/{t}" for t in ([table_id] if table_id else [])),
        *(f"/progressives/{w}/wager_amount" for w in wagers),
        "/custom_paytables",
        "/progressives",
        "/table/min_wager",
        "/table",
    ]
    for pointer in pointers:
        if pointer in loc.positions:
            pos = loc.positions[pointer]
            return f"{rulesub}:{pos.line}:{pos.column}: "
    return f"{rulesub}:1:1: "


def _log_round(path: Path, round_no: int | None) -> tuple[Any, str, Any]:
    """Round ``round_no`` of a play log (the only one where none is named), as read from
    its line: a banking round's record, or a Poker round's (``hand``) round file, with where
    that lies in the record (``/round_file``), and the whole record (what ``play`` recorded
    of the round's result beside its round file)."""
    from validator.loader import LoadError, Located, Position, json_line, read_text

    lines = read_text(path).splitlines()
    records = [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip()]
    if not records:
        raise LoadError(str(path), 1, 1, "the log holds no round")
    if round_no is None and len(records) > 1:
        raise LoadError(
            str(path), 1, 1, f"the log holds {len(records)} rounds: say which with --round N"
        )
    keys = (f'"round": {round_no},', f'"hand":{round_no},')  # a banking line, a Poker one
    # first only the lines `play` writes for the round; where none is it, every line, so
    # that a line no JSON reader can read is named rather than passed over
    unread: LoadError | None = None  # the first line no JSON reader can read
    for quick in (True, False) if round_no is not None else (False,):
        for line_no, text in records:
            if quick and not any(k in text for k in keys):
                continue
            try:
                data = json_line(text, str(path), line_no)
            except LoadError as e:
                if round_no is None or quick:
                    raise
                unread = unread or e
                continue
            number = data.get("round", data.get("hand")) if isinstance(data, dict) else None
            if round_no is not None and number != round_no:
                continue  # the number was some other field's
            within, record = "", data
            if isinstance(data, dict) and isinstance(data.get("round_file"), dict):
                data, within = data["round_file"], "/round_file"  # the round file play settled
            located = Located(path=path, data=data, positions={"": Position(line_no, 1)})
            return located, within, record
    if unread is not None:  # round K may be the line that cannot be read: name it
        raise unread
    raise LoadError(str(path), 1, 1, f"the log holds no round {round_no}")


def _read_input(path: Path, round_no: int | None) -> tuple[Any, str, Any]:
    """The round as read, once: round ``round_no`` of a play log from its line, else the
    round file; where its round file lies in what was read ("" but in a Poker log); and
    the whole of what was read (a log's record, with the result ``play`` recorded)."""
    from validator.loader import load_yaml

    if is_log(path):
        return _log_round(path, round_no)
    if round_no is not None:
        fail("--round is for a log (FILE.jsonl) of `rulesub play`")
    located = load_yaml(path)
    return located, "", located.data


def _read_spec(path: Path, round_no: int | None) -> Any:
    """A banking round, read by the one round-file reader."""
    from validator.interpreter.roundfile import read_round

    return read_round(path, located=_read_input(path, round_no)[0])


@app.command("settle")
@prints_result("the settlement")
@reads_once
def settle(
    round_file: Annotated[
        Path,
        typer.Argument(
            help="a round file (YAML), or a play log (.jsonl)", metavar="ROUND_FILE", readable=False
        ),
    ],
    round_no: Annotated[
        int | None,
        typer.Option("--round", help="which round of a play log to settle", metavar="ROUND_NO"),
    ] = None,
    rulesub: Annotated[
        Path | None,
        typer.Option(
            "--rulesub",
            metavar="FILE",
            help="the Rules Submission the round was played under, in place of the one the "
            "round file or log names (a file may name only one beside it)",
            readable=False,
        ),
    ] = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
    allow_findings: AllowFindingsOption = False,
) -> None:
    """Settle one round exactly as the chapter says, wager by wager, and say why: which row
    of the settlement table applied and which hand each side held. A round under a Rules
    Submission with errors is refused with them (exit 1), unless --allow-findings."""
    from validator.interpreter.narrate import print_settlement
    from validator.interpreter.roundfile import read_round
    from validator.interpreter.settle import settle_spec

    holder: list[Any] = [None]
    with _round_input(holder):
        located, within, record = _read_input(round_file, round_no)
    _not_a_submission(located, round_file)
    poker = _poker_game(located)
    if poker is not None:  # a log's Poker record holds its round file under ``round_file``
        if rulesub is not None:
            fail("--rulesub: a Poker round file states its table (stakes, rake) itself")
        _settle_poker(located, poker, format, within, record)
        return
    if rulesub is not None and not rulesub.is_file():
        fail(f"--rulesub {rulesub}: no such file")
    with _round_input(holder):
        spec = read_round(round_file, located=located, rulesub=rulesub)
        holder[0] = spec
        gate = submission_gate(
            spec.rulesub, allow=allow_findings, what="settlement", game=spec.game
        )
        settled = settle_spec(spec)
    data = settled.result.to_json()
    recorded = recorded_result(record, data)
    if format is Format.json:
        shown = {**data, **recorded.json()} if recorded else data
        print_json({**shown, "draft": gate.mark()} if gate.draft else shown)
    else:
        _draft_banner(gate)
        print_settlement(console(), settled.result)
        if recorded:
            console().print(recorded.text(), highlight=False)
    _say_recorded(recorded)


def _not_a_submission(located: Any, path: Path) -> None:
    """A Rules Submission given where a round file is asked for is said so (exit 2), not
    reported key by key as a round file's unknown keys."""
    data = located.data
    if isinstance(data, dict) and "certificate_holder" in data and "seats" not in data:
        at = located.position("/certificate_holder", key=True)
        fail(
            f"{path}:{at.line}:{at.column}: a Rules Submission, not a round file: a round "
            "file states the cards and wagers of one round and names its submission "
            f"(`rulesub: {path.name}`)"
        )


def _poker_game(located: Any) -> Any:
    """The nonbanking Poker game a round as read is of (settled by the pot engine); None for
    any other (the banking reader reports what is wrong with it)."""
    from validator.cli.poker_rounds import poker_game

    data = located.data
    game = data.get("game") if isinstance(data, dict) else None
    return poker_game(game) if isinstance(game, str) else None


def _settle_poker(
    located: Any, game: Any, format: Format, within: str = "", record: Any = None
) -> None:
    """A nonbanking round: pots and side pots, the rake, the Bad Beat, each seat's award.
    ``within``: where the round file lies in what was read (a play log's ``record``)."""
    from validator.interpreter.poker.settle import settle_round
    from validator.interpreter.roundfile import RoundFileError
    from validator.interpreter.roundfile.poker import read_poker_round

    with _round_input():
        try:
            rnd = read_poker_round(located, game, within)
        except RoundFileError as e:  # unreadable: each problem at its place
            raise e.placed(located) from None
        try:
            settled = settle_round(game, rnd)
        except RoundFileError as e:  # refused by the settlement: at its place in the file
            problems = [(within + p.pointer, p.message) for p in e.found]
            raise RoundFileError(problems).placed(located) from None
    data = settled.to_json()
    recorded = recorded_result(record, data)
    if format is Format.json:
        print_json({**data, **recorded.json()} if recorded else data)
    else:
        from validator.cli.poker_rounds import print_poker_settlement

        print_poker_settlement(console(), game.definition.name, data)
        if recorded:
            console().print(recorded.text(), highlight=False)
    _say_recorded(recorded)


def _say_recorded(recorded: Any) -> None:
    """A settlement that differs from the result the log recorded is said on stderr as a
    warning too, beside the settlement: the settlement is the command's result (exit 0);
    the log is what someone wrote, and the difference is for the reader to pursue."""
    if recorded and recorded.differences:
        sys.stderr.write(f"rulesub: warning: {recorded.text()}\n")


def _rules(game: str, rulesub: Path | None, allow_findings: bool) -> Any:
    """A banking game's rules at the table ``rulesub`` sets (the defaults without one)."""
    from validator.compiler import BankingGame, load_game
    from validator.interpreter.rules import Rules, not_playable
    from validator.interpreter.settings import read_settings

    g = load_game(game)
    if not isinstance(g, BankingGame):
        raise not_playable(g)
    return Rules(g, read_settings(g, rulesub, allow_findings=allow_findings))


@app.command("play")
@prints_result("the rounds", param="out_file")
@reads_once
def play(
    game: Annotated[str, typer.Argument(help="a game id, e.g. four-card-poker", metavar="GAME")],
    rulesub: RulesubOption = None,
    allow_findings: AllowFindingsOption = False,
    seats: Annotated[
        int, typer.Option("--seats", min=1, help="players at the table", metavar="N")
    ] = 3,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="rounds to play", metavar="N")] = 1,
    seed: SeedOption = 1,
    strategy: StrategyOption = None,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            help="write each round to FILE, one JSON line a round (replayable)",
            metavar="FILE",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="no narration")] = False,
    format: FormatOption = Format.text,
    out_file: OutOption = None,
) -> None:
    """Deal rounds and narrate them: cards, decisions, settlement. The log holds each
    round's cards and full deck order, so any round replays through `rulesub settle`.
    With --format json, the rounds as the log holds them, in one JSON list."""
    from validator.cli.poker_rounds import play_poker, poker_game

    gate = submission_gate(rulesub, allow=allow_findings, what="rounds", game=game)
    if log is not None and not (log.parent if str(log.parent) else Path(".")).is_dir():
        fail(f"cannot write the log {str(log)!r}: the directory {log.parent} does not exist")
    ready_to_write(log, "--log")  # before the rounds are played, not after
    if format is not Format.json:
        _draft_banner(gate)
    poker = poker_game(game)
    if poker is not None:  # nonbanking Poker: a session of hands, button moving
        play_poker(
            poker, rulesub, seats, rounds, seed, strategy, log, quiet, format, gate, allow_findings
        )
        return
    from validator.interpreter.narrate import narrate_round
    from validator.interpreter.play import Table, log_line

    with _round_input(rulesub=rulesub):
        rules = _rules(game, rulesub, allow_findings)
        _check_seats(rules, seats)
        _check_tables(rules)
        table = Table(rules, seats, seed, strategy, rulesub)
        out = console(stderr=format is Format.json)
        lines: list[str] = []
        records: list[Any] = []
        for played in table.rounds(rounds):
            if format is Format.json:
                records.append(marked(played.record, gate))
            elif not quiet:
                narrate_round(out, played.number, played.result)
            if log is not None:
                lines.append(log_line(marked(played.record, gate)))
    if format is Format.json:
        print_json(records)
    if log is not None:
        _write_whole(log, "".join(lines))
        from rich.text import Text

        out.print(
            Text(
                f"log: {log} ({plural(rounds, 'round')}); replay one with "
                f"`rulesub settle {log} --round N{_named_too(log, rulesub)}`",
                style="dim",
            ),
            soft_wrap=True,  # the path is copied back: never cut
        )
    elif quiet and format is Format.text:  # never a silent success: say what was done
        sys.stdout.write(
            f"{plural(rounds, 'round')} of {game} played, not narrated (--quiet); "
            "--log FILE keeps them\n"
        )


def _named_too(log: Path, rulesub: Path | None) -> str:
    """`` --rulesub FILE`` where the log's submission lies where a log may not name it from
    its own folder (outside that folder, the shipped examples and games): the replay names
    it itself, from wherever it is run."""
    if rulesub is None:
        return ""
    from validator.interpreter.roundfile.banking import shipped
    from validator.loader import PathRefused, named_path

    try:  # as settle reads the log, from wherever it is run
        named_path(log, str(rulesub.resolve()), also=shipped(), cwd=False)
    except PathRefused:
        return f" --rulesub {rulesub}"
    return ""


def _draft_banner(gate: Gate) -> None:
    """A DRAFT's banner at the head of what a command prints."""
    for line in gate.banner_lines():
        sys.stdout.write(line + "\n")


def marked(record: dict[str, Any], gate: Gate) -> dict[str, Any]:
    """A log's record, marked DRAFT with the submission's errors where it has any."""
    return {**record, "draft": gate.notes} if gate.draft else record


def _check_tables(rules: Any) -> None:
    """Refuse up front a table whose regulation text is missing and that the submission does
    not state, rather than dealing until the first round that needs it."""
    d, config = rules.d, rules.config
    for wid, tid, table in d.tables():
        wager = d.wagers[wid]
        played = not wager.optional or wid in config.offered
        if played and table.source == "missing" and tid not in config.custom_paytables:
            fail(
                f"{d.id}: the {table.name} table ({table.cite}) is missing from the regulation "
                f"copy and {wager.name} is played in every round; give a Rules Submission "
                f"that states it under `custom_paytables: {{{tid}: …}}` (--rulesub FILE)"
            )


def _check_seats(rules: Any, seats: int) -> None:
    game = rules.d.id
    if seats > rules.config.positions:
        fail(
            f"{game} is played at {rules.config.positions} positions at most ({rules.d.table.cite})"
        )
    need = rules.max_cards(seats)
    if need > 52:
        fail(
            f"with {seats} players a round of {game} can need {need} cards, more than one deck "
            f"holds, and {rules.d.chapter} does not say how a round goes on when the deck runs "
            f"out; play at most {rules.max_seats()} seats"
        )


def _write_whole(path: Path, text: str) -> None:
    from validator.cli.options import not_given
    from validator.files import write_whole

    not_given(path, "--log")
    try:
        write_whole(path, text)
    except OSError as e:
        fail(f"cannot write the log {str(path)!r}: {e.strerror or e}")


@app.command("simulate")
@prints_result("the simulation")
@reads_once
def simulate(
    game: Annotated[str, typer.Argument(help="a game id, e.g. four-card-poker", metavar="GAME")],
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="rounds to simulate", metavar="N")],
    rulesub: RulesubOption = None,
    allow_findings: AllowFindingsOption = False,
    seed: SeedOption = 1,
    seats: Annotated[
        int | None, typer.Option("--seats", min=1, help="players (default: all)", metavar="N")
    ] = None,
    strategy: StrategyOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
    hands_per_hour: Annotated[
        int,
        typer.Option(
            "--hands-per-hour", min=1, help="nonbanking Poker: rake per hour at this", metavar="N"
        ),
    ] = 30,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="processes (default: every core)", metavar="N"),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="a Dask scheduler's address (or `local`)"),
    ] = None,
    tables: Annotated[
        int,
        typer.Option(
            "--tables",
            min=1,
            help="nonbanking Poker: independent tables sharing the hands (default 1)",
            metavar="N",
        ),
    ] = 1,
    timing: Annotated[
        bool,
        typer.Option(
            "--timing",
            help="put rounds_per_second in the JSON (without it the JSON is the same bytes for "
            "the same seed, and the speed goes to stderr)",
        ),
    ] = False,
) -> None:
    """Simulate rounds with the vectorized engine: per wager the handle, the players' net,
    the hold % with a 95% confidence interval; the element of risk; the meters. The same
    seed gives the same figures on any number of workers or through Dask."""
    from validator.cli.poker_rounds import poker_game, simulate_poker

    gate = submission_gate(rulesub, allow=allow_findings, what="simulation", game=game)
    if format is not Format.json:
        _draft_banner(gate)
    poker = poker_game(game)
    if poker is not None:  # nonbanking Poker: rake per hand and hour, the Bad Beat fund
        simulate_poker(
            poker,
            rulesub,
            seats,
            rounds,
            seed,
            strategy,
            hands_per_hour,
            format,
            tables,
            workers,
            scheduler,
            gate,
            allow_findings,
        )
        return
    if tables != 1:
        fail(f"--tables: {game} is a banking game; its rounds are shared among the --workers")
    from validator.interpreter.simulate import summary_json

    source = str(rulesub) if rulesub is not None else None
    spread = {
        "workers": workers,
        "scheduler": scheduler,
        "submission": source,
        "allow_findings": allow_findings,
    }

    with _round_input(rulesub=rulesub):
        rules = _rules(game, rulesub, allow_findings)
        k = seats or rules.max_seats()
        _check_seats(rules, k)
        _check_tables(rules)
        rules.strategy(strategy)  # an unknown strategy refused before the progress bar
        stats = _simulated(rules, rounds, seed, k, strategy, format, spread)
    if scheduler is not None and stats.meters:  # an address given is never passed over unsaid
        sys.stderr.write(
            f"rulesub: {game}'s progressive meters carry from one round to the next, so its "
            "rounds are simulated in this one process: --scheduler was not used\n"
        )
    data = summary_json(stats)
    if gate.draft:
        data["draft"] = gate.mark()
    if format is Format.json:
        from validator.interpreter.simulate import rounds_per_second

        if timing:
            data["rounds_per_second"] = rounds_per_second(stats)
        else:
            sys.stderr.write(f"rulesub: {rounds_per_second(stats)} rounds/s\n")
        print_json(data)
        return
    from validator.interpreter.simulate import print_summary

    print_summary(console(), rules, stats, data)


def _simulated(
    rules: Any,
    rounds: int,
    seed: int,
    seats: int,
    strategy: str | None,
    format: Format,
    spread: dict[str, Any],
) -> Any:
    """The simulation's sums, with a progress bar on stderr unless the output is JSON;
    ``spread``: the workers, the Dask scheduler, the submission the workers rebuild from."""
    from validator.interpreter.simulate import run

    if format is Format.json:
        return run(rules, rounds, seed, seats, strategy, **spread)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rounds"),
        TimeRemainingColumn(),
        console=console(stderr=True),
    ) as bar:
        task = bar.add_task("rounds", total=rounds)
        return run(
            rules,
            rounds,
            seed,
            seats,
            strategy,
            progress=lambda n: bar.update(task, advance=n),
            **spread,
        )
