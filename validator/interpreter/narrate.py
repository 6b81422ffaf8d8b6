"""Rich renderings of rounds: a settled round wager by wager, a played round as narration."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich.text import Text

from validator.interpreter.results import RoundResult
from validator.interpreter.scalar_result import draw_text
from validator.money import exact_money
from validator.wrapping import held, held_sign, print_held


def _signed(amount: Decimal) -> str:
    """A seat's result on a wager: ``+$10``, ``-$10``, ``$0``."""
    return f"+{exact_money(amount)}" if amount > 0 else exact_money(amount)


def _placed(size: str) -> str:
    """How a wager was placed, beside its name: the multiple or the amount the action
    stated ("Play Wager (3x)", "Raise Wager ($25)"), never the action's own word."""
    return f" ({size})" if size else ""


def _part_of(line: str, wager: str) -> str:
    """A line of a wager named within the wager's result: "the second combination" for
    "Bet Wager, second combination", never the wager's name twice."""
    prefix = f"{wager}, "
    return f"the {line[len(prefix) :]}" if line.startswith(prefix) else line


def _style(result: str) -> str:
    return {"win": "green", "lose": "red", "push": "yellow", "void": "magenta"}.get(result, "")


def settlement_table(result: RoundResult) -> Any:
    from rich.table import Table

    title = f"{result.game_name or result.game}: settlement"
    t = Table(title=title, title_justify="left", show_lines=True)
    for col in ("seat", "wager", "amount", "result", "net", "why (the row that applied)"):
        # a word too long for its cell folds, never cut off with "…"; a citation in a cell
        # keeps its sign with its number (``held_sign``), never held whole (``held``): a
        # narrow cell would then fold it inside its number
        t.add_column(
            col, justify="right" if col in ("seat", "amount", "net") else "left", overflow="fold"
        )
    for seat in result.seats:
        first = True
        for spot, w in seat.wagers.items():
            t.add_row(
                str(seat.seat) if first else "",
                result.name(spot) + _placed(w.placed_as),
                exact_money(w.amount),
                Text(w.result, style=_style(w.result)),
                _signed(w.net),
                held_sign(w.reason),
            )
            first = False
        if seat.fees:
            t.add_row(
                "",
                result.name("options_fee"),
                exact_money(seat.fees),
                "paid",
                _signed(-seat.fees),
                "",
            )
        t.add_row(
            "",
            Text("seat total", style="bold"),
            "",
            "",
            Text(_signed(seat.net), style="bold"),
            "",
        )
    return t


def dealer_lines(result: RoundResult) -> list[str]:
    d = result.dealer
    out = []
    if "cards" in d:
        line = f"dealer: {' '.join(d['cards'])}"
        if "hand" in d:
            line += f" — {d['hand']['name']} ({' '.join(d['hand']['cards'])})"
        if "qualifies" in d:
            line += ", qualifies" if d["qualifies"] else ", does not qualify"
        if "replaced" in d:
            line += f"; discarded {d['replaced']['discarded']}, drew {d['replaced']['drawn']}"
        out.append(line)
    if "community" in d:
        out.append(f"community: {' '.join(d['community'])}")
    for k, v in d.items():
        if k not in ("cards", "up", "hand", "qualifies", "replaced", "community", "table_system"):
            out.append(f"{result.name(k)}: {' '.join(v)}")
    if "table_system" in d:
        out.append(
            "table game system: " + ", ".join(draw_text(k, v) for k, v in d["table_system"].items())
        )
    for t, ms in result.meters_before.items():
        for n, v in ms.items():
            after = result.meters_after[t][n]
            name = result.name(f"{t}/{n}")
            out.append(f"{name}: {exact_money(v)} → {exact_money(after)}")
    if result.void:
        out.append(f"VOID: {result.void}")
    return out


def print_settlement(console: Any, result: RoundResult) -> None:
    for line in dealer_lines(result):
        console.print(line)
    for seat in result.seats:
        hands = ", ".join(f"{h.name} ({' '.join(h.to_json()['cards'])})" for h in seat.hands)
        acts = ", ".join(seat.told or seat.decisions) or "no decision"
        console.print(
            f"seat {seat.seat}: {' '.join(seat.to_json()['cards'])}"
            + (f" — {hands}" if hands else "")
            + f"; {acts}"
        )
    print_held(console, lambda: console.print(settlement_table(result)))
    console.print(f"house result: {_signed(result.ledger.house)}")


def narrate_round(console: Any, number: int, result: RoundResult) -> None:
    from rich.panel import Panel

    body = Text()
    for cite, text in result.events:
        body.append(held(cite), style="dim")
        body.append(f"  {held(text)}\n")
    body.append("\n")
    for line in dealer_lines(result):
        body.append(f"{line}\n")
    for seat in result.seats:
        hands = ", ".join(h.name for h in seat.hands)
        body.append(f"seat {seat.seat} {' '.join(seat.to_json()['cards'])} ({hands}): ")
        for i, (spot, w) in enumerate(seat.wagers.items()):
            wager = result.name(spot)
            body.append(f"{', ' if i else ''}{wager} ")
            body.append(_signed(w.net), style=_style(w.result))
            # a bonus paid on the wager by a line of its own (the Ante Bonus, § 641a.12(b)),
            # named within the wager's result, as `settle` itemises it
            bonus = [ln for ln in w.lines[1:] if ln.returned > 0 and ln.name != wager]
            if bonus:
                paid = "; ".join(
                    f"{_part_of(ln.name, wager)} paid {exact_money(ln.returned)}" for ln in bonus
                )
                body.append(f" (with {paid})")
        if seat.fees:
            body.append(f", {result.name('options_fee')} -{exact_money(seat.fees)}")
        body.append("  ")
        body.append(_signed(seat.net), style="bold")
        body.append("\n")
    body.rstrip()
    panel = Panel(body, title=f"round {number}", title_align="left")
    print_held(console, lambda: console.print(panel))
