"""``rulesub games list`` / ``rulesub games show``: the rules as the regulation has them."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from validator.cli import app
from validator.cli.common import (
    AS_OF_HELP,
    Format,
    console,
    game_as_of_noted,
    load_game_or_fail,
    print_json,
    readable_input,
)
from validator.cli.options import FormatOption, OutOption, prints_result

games_app = typer.Typer(help="The declared games, with their citations.", no_args_is_help=True)
app.add_typer(games_app, name="games")


def paytable_count(definition: Any) -> int:
    """Paytables a game prints: each letter of a selectable table, each fixed table."""
    return sum(len(table.all_rows()) for _, _, table in definition.tables())


@games_app.command("list")
@prints_result("the games")
def games_list(
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Every declared game: id, name, chapter, wagers, paytables."""
    from validator import GAMES_DIR
    from validator.cache import games_digest, memo
    from validator.cli.common import working

    with readable_input(), working("reading the game files (kept in the cache after)"):
        rows = memo("games-list", games_digest(GAMES_DIR), _game_rows)
    if format is Format.json:
        print_json(rows)
        return
    _print_games(rows)


def _game_rows() -> list[dict[str, Any]]:
    from validator.compiler import all_games

    return [
        {
            "id": g.id,
            "name": g.definition.name,
            "chapter": g.definition.chapter,
            "kind": g.definition.kind,
            "max_positions": g.definition.table.max_positions,
            "wagers": len(g.definition.wagers),
            "paytables": paytable_count(g.definition),
        }
        for g in all_games()
    ]


#: Below this width the five facts of a game share one cell under its name, so that the name
#: and chapter are not cut into a column a word wide.
STACKED_BELOW = 110


def _print_games(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console()
    stacked = out.width < STACKED_BELOW
    t = Table(title="Declared games", title_justify="left")
    t.add_column("id", no_wrap=True)  # an id is typed back: never cut
    t.add_column("game, chapter", ratio=1)
    if not stacked:
        for col in ("kind", "seats", "wagers", "tables"):
            t.add_column(col, justify="left" if col == "kind" else "right", no_wrap=True)
    for r in rows:
        kind = "poker" if r["kind"] == "nonbanking" else r["kind"]
        if stacked:
            facts = f"{kind}; {r['max_positions']} seats, {r['wagers']} wagers, "
            facts += f"{r['paytables']} paytables"
            t.add_row(Text(r["id"]), Text(f"{r['name']}, {r['chapter']}\n{facts}"))
            continue
        t.add_row(
            Text(r["id"]),
            Text(f"{r['name']}, {r['chapter']}"),
            Text(kind),
            str(r["max_positions"]),
            str(r["wagers"]),
            str(r["paytables"]),
        )
    out.print(t)


@games_app.command("show")
@prints_result("the game")
def games_show(
    game: Annotated[str, typer.Argument(help="a game id, e.g. four-card-poker", metavar="GAME")],
    wager: Annotated[
        str | None, typer.Option("--wager", help="show one wager only", metavar="WAGER")
    ] = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP)] = None,
) -> None:
    """The game as the regulation has it: table, cards, wagers, paytables, meters, limits."""
    from validator.cli.common import fail

    g, said = game_as_of_noted(load_game_or_fail(game), as_of)
    d = g.definition
    if wager is not None and wager not in d.wagers:
        from validator.loader import did_you_mean

        fail(
            f"{game} has no wager {wager!r}{did_you_mean(wager, d.wagers)}; "
            f"its wagers are: {', '.join(d.wagers)}"
        )
    if format is Format.json:
        data = d.model_dump(mode="json", by_alias=True, exclude_none=True)
        if wager is not None:
            data = {"id": d.id, "wager": wager, **data["wagers"][wager]}
        print_json(data)
        return
    with readable_input():
        from validator.cli.show import render_game

        render_game(console(), g, wager, as_of, said[1:])  # the day's state, on the page too


@games_app.command("history")
@prints_result("the chapter's history", param="out_file")
def games_history(
    game: Annotated[str, typer.Argument(help="a game id, e.g. four-card-poker", metavar="GAME")],
    format: FormatOption = Format.text,
    out_file: OutOption = None,
) -> None:
    """The chapter's life: each event with its date, its Pennsylvania Bulletin citation, its
    kind (adopted, amended, rescinded, superseded), the sections it touched and what changed
    where the text is known."""
    g = load_game_or_fail(game)
    d = g.definition
    rows = [_event_row(e) for e in d.history]
    if format is Format.json:
        print_json(rows)
        if d.undated:
            sys.stderr.write(f"rulesub: {game}: {d.undated}\n")
        return
    out = console()
    out.print(f"{d.name}, {d.chapter}")
    if not rows:
        out.print(d.undated or "The game file records no history.")
        return
    for r in rows:
        out.print(f"{r['date']}  {r['citation']}  {r['kind']}")
        if r["sections"]:
            out.print(_indented(f"sections: {', '.join(r['sections'])}", out.width))
        if r["note"]:
            out.print(_indented(r["note"], out.width))


def _indented(text: str, width: int) -> str:
    """``text`` wrapped under a four-space indent."""
    from validator.wrapping import wrapped

    return "\n".join(wrapped(text, max(width, 40), "    ", "    "))


def _event_row(e: Any) -> dict[str, Any]:
    """One event as `games history --format json` gives it."""
    note = e.note or ""
    if e.successor:
        encoded = "" if e.successor_encoded else " (not encoded here)"
        note = f"Replaced by {e.successor}{encoded}. " + note
    if e.text == "missing":
        note += " The text this notice gave is not held here."
    elif e.text == "encoded":
        note += " The game file encodes the text this notice gave."
    return {
        "date": e.date.isoformat(),
        "citation": e.citation,
        "kind": e.kind,
        "sections": list(e.sections),
        "text": e.text,  # encoded, missing, or none (a notice that gave no text)
        "expires": e.expires.isoformat() if e.expires else None,
        "successor": e.successor,
        "note": note.strip(),
    }
