"""``rulesub odds``: exact hold, hit frequency and deviation of the paytable wagers.

``--wager`` takes a wager id (its own table: the one named like the wager, or its only
one) or a table id (an Envy Bonus, the Magic Card table). ``--paytable`` picks a letter
of a selectable table; ``--all`` (or no ``--paytable``) prices every letter, side by side,
sorted by hold. Without ``--wager``, every table of every wager of the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from validator.cli import app
from validator.cli.common import (
    AS_OF_HELP,
    Format,
    console,
    fail,
    game_as_of,
    load_game_or_fail,
    print_json,
    refuse,
)
from validator.cli.gate import AllowFindingsOption, reads_once, submission_gate
from validator.cli.options import FormatOption, OutOption, prints_result

if TYPE_CHECKING:
    from decimal import Decimal

    from validator.odds import OddsResult


def _meters(values: list[str]) -> Decimal | dict[str, Decimal] | None:
    """``--meter 25000`` (the meter paying the top hand) or ``--meter mega=25000``."""
    from validator.model.notation import NotationError, parse_money

    single: Decimal | None = None
    named: dict[str, Decimal] = {}
    for value in values:
        name, _, amount = value.rpartition("=")
        try:
            money = parse_money(amount.strip())
        except NotationError as e:
            fail(f"--meter {value!r}: {e}")
        if name:
            named[name.strip()] = money
        elif single is not None:
            fail("--meter: give one amount, or amounts by name (--meter mega=25000)")
        else:
            single = money
    if single is not None and named:
        fail("--meter: give one amount, or amounts by name, not both")
    return named or single


@app.command("odds")
@prints_result("the odds", param="out_file")
@reads_once
def odds(
    game: Annotated[
        str, typer.Argument(help="a game id, e.g. wpt-heads-up-holdem", metavar="GAME")
    ],
    wager: Annotated[
        str | None, typer.Option("--wager", help="a wager id, or a table id", metavar="WAGER")
    ] = None,
    paytable: Annotated[
        str | None,
        typer.Option("--paytable", help="the paytable letter (A, B, …)", metavar="LETTER"),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="every paytable of the wager, sorted by hold")
    ] = False,
    meter: Annotated[
        list[str] | None,
        typer.Option(
            "--meter",
            help="the meter's amount in dollars instead of its seed (AMOUNT, or NAME=AMOUNT)",
            metavar="AMOUNT",
        ),
    ] = None,
    wager_amount: Annotated[
        str | None,
        typer.Option(
            "--wager-amount",
            help="the wager the meter amounts go with (default $1)",
            metavar="AMOUNT",
        ),
    ] = None,
    rulesub: Annotated[
        Path | None,
        typer.Option(
            "--rulesub",
            help="a Rules Submission: price the paytables it selects (read as validate reads it)",
            metavar="FILE",
            readable=False,
        ),
    ] = None,
    format: FormatOption = Format.text,
    out_file: OutOption = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
    allow_findings: AllowFindingsOption = False,
) -> None:
    """Exact hold % of a paytable wager, with every paying hand's combinations and
    probability, the hit frequency and the standard deviation per unit wagered. A Rules
    Submission with errors is refused with them (exit 1), unless --allow-findings."""
    from dataclasses import replace

    from validator.interpreter.config import TableConfig
    from validator.model.notation import NotationError, parse_money
    from validator.odds import OddsError, priced_table, select
    from validator.odds.wagers import StatedMeters
    from validator.par.completions import JOINT

    g = game_as_of(load_game_or_fail(game), as_of)
    gate = submission_gate(rulesub, allow=allow_findings, what="odds", game=game)
    settings = _settings(g, rulesub, allow_findings) if rulesub is not None else None
    if as_of is None:  # the chapter on the effective date, as validate says it
        gate.say_in_force()
    selected = None if rulesub is None else dict(getattr(settings, "paytables", {}))
    meters = _meters(meter or [])
    amount = None
    if wager_amount is not None:
        try:
            amount = parse_money(wager_amount)
        except NotationError as e:
            fail(f"--wager-amount: {e}")
    from validator.cli.common import working

    try:
        with working("enumerating every hand"):
            stated = dict(settings.custom_paytables) if isinstance(settings, TableConfig) else {}
            selection = select(g, wager, paytable, every, JOINT, stated=stated)
            if selected is not None and paytable is None:  # the submission's letters only
                priced = [
                    (t, letter)
                    for t, letter in selection.priced
                    if letter is None or selected.get(t, letter) == letter
                ]
                selection = replace(selection, priced=priced)
            if isinstance(settings, TableConfig) and wager is None:  # the tables it plays
                selection = replace(
                    selection,
                    priced=[(t, x) for t, x in selection.priced if settings.plays(g, t)],
                    not_priced=[(t, r) for t, r in selection.not_priced if settings.plays(g, t)],
                )
            results = []
            for table_id, letter in selection.priced:
                _, table = g.table(table_id)
                with_meter = meters if (table.meters is not None or not selection.many) else None
                table_amount = amount
                if isinstance(settings, TableConfig) and table.meters is not None:
                    # the submission's meters and wager amount, unless given on the command
                    stated_meters = settings.meters_priced(g, table_id, letter)
                    if with_meter is None and stated_meters:
                        with_meter = StatedMeters(stated_meters)
                    table_amount = amount or settings.wager_amount(table_id)
                results.append(  # the table the submission states where the text is missing
                    priced_table(
                        g,
                        table_id,
                        letter,
                        stated.get(table_id),
                        meter=with_meter,
                        wager_amount=table_amount,
                        joint=JOINT,
                    )
                )
    except OddsError as e:
        refuse(e)
    if meters is not None and not any(g.table(t)[1].meters for t, _ in selection.priced):
        fail("--meter: no table priced here pays from a meter, so the amount would price nothing")
    if wager is not None and selection.many:
        results.sort(key=lambda r: r.hold)
    if format is Format.json:
        data: Any = [r.to_json() for r in results] if selection.many else results[0].to_json()
        if gate.draft:  # each priced table carries the mark, whichever shape the JSON has
            for item in data if isinstance(data, list) else [data]:
                item["draft"] = gate.mark()
        print_json(data)
        return
    out = console()
    for line in gate.banner_lines():
        out.print(line)
    if not selection.many:
        _single(out, results[0])
    elif wager is not None:
        _side_by_side(out, results)
    else:
        _every_table(out, g, results, selection.not_priced)


def _settings(game: Any, rulesub: Path, allow_findings: bool = False) -> Any:
    """A Rules Submission's settings for ``game`` (for a banking game a ``TableConfig``: the
    paytable letters it selects, its meters and wager amounts), read by the one reader,
    refused (exit 2) where a value is not read as written or names what the game has not.
    A Poker table's wagers are paid from no paytable: it selects none."""
    from validator.cli.rounds import _round_input
    from validator.interpreter.settings import read_settings

    with _round_input(rulesub=rulesub):
        return read_settings(game, rulesub, allow_findings=allow_findings)


# -- text -------------------------------------------------------------------------------------


def _letter(r: OddsResult) -> str:
    """The paytable column: the letter, or what kind of table has none."""
    return r.paytable or ("as stated" if r.stated else "fixed")


def _pct(x: Any, places: int = 4) -> str:
    return f"{float(x) * 100:.{places}f}%"


def _range_text(r: OddsResult) -> tuple[str, str]:
    """The Board's stated range and the verdict, as text and a style."""
    from validator.model.notation import format_rate, stated_range
    from validator.par.printed import INSIDE, MOVES, range_verdict

    ah = r.approved_hold
    if ah is None:
        return "none stated", "dim"
    rng = stated_range(format_rate(ah.low), format_rate(ah.high))
    verdict = range_verdict(r.inside_approved, bool(r.meters))
    if verdict == INSIDE:
        return f"{rng}: inside", "green"
    if verdict == MOVES:  # as every document says it: the hold at this meter, not the table's
        return f"{rng}: {MOVES}", "yellow"
    return f"{rng}: OUTSIDE", "bold red"


def _hold_text(r: OddsResult) -> Any:
    from rich.text import Text

    t = Text()
    if r.basis == "bonus":
        t.append(f"{_pct(-r.hold)} returned per unit of the {r.wager_name}", style="bold")
        t.append(f" (hold {_pct(r.hold)}, exact {r.hold})", style="dim")
        return t
    style = "bold white on red" if r.hold < 0 else "bold"
    t.append(_pct(r.hold), style=style)
    t.append(f"  exact {r.hold}", style="dim")
    return t


def _single(out: Any, r: OddsResult) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    title = Text(f"{r.label}", style="bold")
    title.append(f"  {r.game_name}, {r.wager_name or r.table_name} [{r.cite}]", style="dim")
    out.print(title)
    if r.basis == "wager" and r.hold < 0:
        out.print(
            Panel(
                Text(
                    f"NEGATIVE HOLD {_pct(r.hold)}: the player has the edge on this paytable",
                    style="bold white on red",
                ),
                border_style="red",
            )
        )
    # The exact fractions need a wide terminal; at 80 columns they are left to --format json.
    exact = out.width >= 100
    t = Table(title_justify="left")
    for col, just in (
        ("Hand", "left"),
        ("Combinations", "right"),
        ("Probability", "right"),
        ("Exact", "right"),
        ("Payout", "right"),
        ("Contribution", "right"),
    ):
        if col != "Exact" or exact:
            t.add_column(col, justify=just)  # type: ignore[arg-type]
    for c in r.categories:
        cells = [
            c.name,
            f"{c.combinations:,}",
            f"{float(c.probability):.8f}",
            str(c.probability),
            c.payout,
            f"{float(c.contribution):+.6f}",
        ]
        t.add_row(*(cells if exact else cells[:3] + cells[4:]))
    total = ["Total", f"{r.total:,}", "1", "1", "", f"{float(-r.hold):+.6f}"]
    t.add_row(*(total if exact else total[:3] + total[4:]), style="bold")
    _print_whole(out, t)
    if not exact:
        out.print(Text("exact probabilities: --format json, or 100 columns or more", style="dim"))
    rng, style = _range_text(r)
    lines = [
        ("Bonus" if r.basis == "bonus" else "Hold", _hold_text(r)),
        ("Board's stated range", Text(rng, style=style)),
        ("Hit frequency", Text(f"{_pct(r.hit_frequency)}  exact {r.hit_frequency}")),
        ("Standard deviation per unit", Text(f"{r.std_dev:.4f}  variance {r.variance}")),
        ("Hand", Text(f"{r.hand_text}; {r.cards} cards from one deck")),
    ]
    for m in r.meters:
        lines.append(("Meter", Text(m.describe())))
    ah = r.approved_hold
    if ah is not None and ah.other_reading is not None and r.other_reading_hold is not None:
        inside = ah.low <= r.other_reading_hold <= ah.high
        lines.append(
            (
                f"Hold {ah.other_reading.name}",
                Text(
                    f"{_pct(r.other_reading_hold)} ({'inside' if inside else 'OUTSIDE'} the "
                    f"range; not the text's reading, {ah.other_reading.cite})"
                ),
            )
        )
    for label, value in lines:
        line = Text(f"{label}: ", style="bold")
        line.append_text(value)
        out.print(line)
    for note in r.notes:
        out.print(Text(note, style="italic"))


def _summary(first: list[str], exact: bool = True) -> Any:
    from rich.table import Table

    t = Table()
    for col in first:
        t.add_column(col, no_wrap=col == "Paytable")  # a letter, typed back: never cut
    for col in ("Hold", "Exact hold", "Hit frequency", "Std dev", "Board's range"):
        if col != "Exact hold" or exact:
            t.add_column(col, justify="left" if col == "Board's range" else "right")
    return t


def _longest_word(cell: Any) -> int:
    """The widest word of a cell: the narrowest it is printed without cutting one."""
    from rich.cells import cell_len

    plain = cell.plain if hasattr(cell, "plain") else str(cell)
    return max((cell_len(w) for w in plain.split()), default=1)


def _print_whole(out: Any, t: Any) -> None:
    """Print the table ``t`` with no figure ever cut. rich narrows a table that is too wide
    for the terminal by shortening its widest columns, past their longest word, and cuts
    the words (``-48.803…``); here every column is held to its longest word (a figure is
    one word; names and verdicts wrap between theirs). Where the width cannot hold even
    that, each row is printed folded instead: its first cell, then each column's header
    and value on a line of its own, wrapped between words."""
    from rich.text import Text

    columns = list(t.columns)
    for col in columns:
        words = [_longest_word(col.header), *(_longest_word(c) for c in col.cells)]
        col.min_width = max(words)
    pad = t.padding[1] + t.padding[3] if len(t.padding) == 4 else 2
    edges = len(columns) + 1 if t.box is not None else 0
    if sum(c.min_width or 0 for c in columns) + pad * len(columns) + edges <= out.width:
        out.print(t)
        return
    if t.title:
        out.print(Text(str(t.title), style="bold"))
    rows = [list(cells) for cells in zip(*(list(c.cells) for c in columns), strict=True)]
    heads = [" ".join(str(c.header).split()) for c in columns]
    for cells in rows:
        first = cells[0] if isinstance(cells[0], Text) else Text(str(cells[0]))
        line = Text(style="bold")
        line.append_text(first)
        out.print(line)
        for head, cell in zip(heads[1:], cells[1:], strict=True):
            value = cell if isinstance(cell, Text) else Text(str(cell))
            if value.plain:
                item = Text(f"  {head}: ")
                item.append_text(value)
                out.print(item)


def _hold_cell(r: OddsResult) -> Any:
    from rich.text import Text

    negative = r.basis == "wager" and r.hold < 0
    return Text(_pct(r.hold), style="bold white on red" if negative else "")


def _summary_row(r: OddsResult, exact: bool = True) -> list[Any]:
    from rich.text import Text

    rng, style = _range_text(r)
    cells = [
        _hold_cell(r),
        str(r.hold),
        _pct(r.hit_frequency),
        f"{r.std_dev:.4f}",
        Text(rng, style=style),
    ]
    return cells if exact else cells[:1] + cells[2:]


def _side_by_side(out: Any, results: list[OddsResult]) -> None:
    from rich.table import Table
    from rich.text import Text

    r0 = results[0]
    out.print(Text(f"{r0.table_name}  {r0.game_name} [{r0.cite}], sorted by hold", style="bold"))
    exact = out.width >= 100
    t = _summary(["Paytable"], exact)
    for r in results:
        t.add_row(_letter(r), *_summary_row(r, exact))
    _print_whole(out, t)
    negative = [_letter(r) for r in results if r.basis == "wager" and r.hold < 0]
    if negative:
        out.print(
            Text(
                f"NEGATIVE HOLD on paytable {', '.join(negative)}: the player has the edge",
                style="bold white on red",
            )
        )
    seen: dict[str, str] = {}  # each hand's name, in the order the paytables list them
    counted: dict[str, dict[str, int]] = {}  # hand → paytable → its combinations there
    for r in results:
        for c in r.categories:
            if c.category != "other":
                seen.setdefault(c.category, c.name)
                counted.setdefault(c.category, {})[_letter(r)] = c.combinations
    # As many paytables side by side as the width holds, in groups: no figure is ever cut.
    per_group = max(1, (out.width - 34) // 11)
    for start in range(0, len(results), per_group):
        group = results[start : start + per_group]
        lines = Table(title="Payouts", title_justify="left")
        lines.add_column("Hand")
        lines.add_column("Combinations", justify="right", no_wrap=True)
        for r in group:
            lines.add_column(_letter(r), justify="right", no_wrap=True)
        for cid, name in seen.items():
            cells = []
            for r in group:
                line = next((c for c in r.categories if c.category == cid), None)
                cells.append(line.payout if line else "—")
            lines.add_row(name, _combinations(counted[cid]), *cells)
        out.print(lines)
    for m in r0.meters:
        out.print(Text(f"Meter: {m.describe()}"))
    _published(out, results)
    for note in r0.notes:
        out.print(Text(note, style="italic"))


def _combinations(by_paytable: dict[str, int]) -> str:
    """A hand's combinations beside every paytable's payout: one figure where each paytable
    counts it alike, else the most paytables' figure and the others by letter (Six Card
    Bonus E pays the six-card royal flushes on rows of their own: its Royal flush is
    184 hands, the others' 188)."""
    from collections import Counter

    common, _ = Counter(by_paytable.values()).most_common(1)[0]
    others = [f"{letter}: {n:,}" for letter, n in by_paytable.items() if n != common]
    return f"{common:,}" + (f" ({'; '.join(others)})" if others else "")


def _published(out: Any, results: list[OddsResult]) -> None:
    """The finding about the published figures, for each table all of whose paytables were
    priced and none of which lies in the Board's stated range (not for a meter's table: its
    hold moves with the meter)."""
    from rich.text import Text

    from validator.checks.published import published_range_finding

    by_table: dict[str, list[OddsResult]] = {}
    for r in results:
        if r.approved_hold is not None and r.table is not None and not r.meters:
            by_table.setdefault(r.table, []).append(r)
    for rs in by_table.values():
        ah = rs[0].approved_hold
        assert ah is not None
        other = None
        if ah.other_reading is not None:
            alt = {r.paytable or "": r.other_reading_hold for r in rs}
            other = (ah.other_reading.name, {k: v for k, v in alt.items() if v is not None})
        text = published_range_finding(
            rs[0].table_name, ah.low, ah.high, {r.paytable or "": r.hold for r in rs}, other
        )
        if text:
            out.print(Text(f"info: {text} [{ah.cite}]", style="yellow"))


def _every_table(
    out: Any, g: Any, results: list[OddsResult], not_priced: list[tuple[str, str]]
) -> None:
    from rich.text import Text

    out.print(Text(f"{g.definition.name}  {g.definition.chapter}", style="bold"))
    if not results and not not_priced:
        out.print("No wager of this game is paid on a paytable.")
        return
    exact = out.width >= 100
    t = _summary(["Table", "Paytable"], exact)
    for r in results:
        bonus = " (bonus)" if r.basis == "bonus" else ""
        # the table as the chapter names it; its id too where the width holds it
        name = f"{r.table_name} ({r.table or ''}{bonus})" if exact else f"{r.table_name}{bonus}"
        t.add_row(name, _letter(r), *_summary_row(r, exact))
    _print_whole(out, t)
    if not exact:
        out.print(
            Text("table ids, exact holds: --format json, or 100 columns or more", style="dim")
        )
    negative = [r.label for r in results if r.basis == "wager" and r.hold < 0]
    if negative:
        out.print(
            Text(
                "NEGATIVE HOLD (the player has the edge): " + "; ".join(negative),
                style="bold white on red",
            )
        )
    if any(r.basis == "bonus" for r in results):
        out.print(
            Text(
                "(bonus): paid on a wager also settled against the dealer; its hold is minus "
                "the bonus's return per unit of that wager.",
                style="italic",
            )
        )
    for r in results:  # each paytable's own meters: a table A and a table B differ in seed
        if r.meters:
            metered = "; ".join(m.describe() for m in r.meters)
            out.print(Text(f"Meter, {r.label}: {metered}", style="dim"))
    _published(out, results)
    if not_priced:
        out.print(Text("Not priced:", style="bold"))
        names = {t: table.name for _, t, table in g.definition.tables()}
        for table_id, reason in not_priced:  # the id too, as the table above gives it
            out.print(Text(f"  {names.get(table_id, table_id)} ({table_id}): {reason}"))
