"""Rendering a game for the terminal, laid out like its chapter prints it."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from validator.compiler import Game, PokerGame
from validator.counts import plural
from validator.model.game import MeterRule, Meters, Table, Wager
from validator.model.notation import format_money, format_rate
from validator.vocabulary import TABLE_FEATURE, meaning


def _cite(text: str) -> Text:
    return Text(f" [{text}]", style="dim")


def _dealt_to(g: Game, group: str) -> str:
    """Who or what a group's cards are dealt as: "Dealt to each player", "Dealt to the
    dealer", "Dealt as the Six Card Bonus card" (a group the game file names)."""
    if group == "player":
        return "Dealt to each player"
    if group == "dealer":
        return "Dealt to the dealer"
    return f"Dealt as the {g.group_name(group)}"


def _line(label: str, value: str, cite: str | None = None) -> Text:
    t = Text()
    t.append(f"{label}: ", style="bold")
    t.append(value)
    if cite:
        t.append_text(_cite(cite))
    return t


def render_game(
    out: Console,
    g: Game,
    only_wager: str | None = None,
    as_of: str | None = None,
    notes: list[str] | None = None,
) -> None:
    """The game; ``as_of``: the day its rules are shown as in force, with ``notes`` saying
    where the text of that day is not the one held (the wording shown is then the file's)."""
    d = g.definition
    head = Text(d.name, style="bold")
    head.append(f"  {g.source_line}", style="cyan")
    out.print(head)
    if as_of is not None:  # the heading's date is the copy's; the rules shown are the day's
        out.print(Text(f"Shown as in force on {as_of}", style="bold"))
        for note in notes or []:
            out.print(Text(note, style="yellow"))
    out.print(Text(d.source.document, style="dim"))
    from validator.model.history import standing

    line = standing(d)
    if line:
        out.print(Text(line, style="dim"))
    if only_wager is None:
        out.print(_rules(g))
    if only_wager is None and isinstance(g, PokerGame):
        from validator.cli.show_poker import render_poker

        render_poker(out, g)
    for wid, wager in d.wagers.items():
        if only_wager in (None, wid):
            out.print(_wager(g, wid, wager, out.width - 4))
    if only_wager is None and d.payout_limit:
        pl = d.payout_limit
        text = f"optional, per player per round; at least {format_money(pl.at_least)}" + (
            " or the most one patron could win in a round betting the minimum wager, "
            "whichever is greater"
            if pl.or_max_win_at_minimum_wager
            else ""
        )
        if pl.excludes:
            text += "; excludes " + ", ".join(d.wagers[w].name for w in pl.excludes)
        lines = [_line("Payout limit", text, pl.cite)]
        if pl.note:
            lines.append(Text(pl.note, style="italic"))
        out.print(Panel(Group(*lines), title="Payout limitation", title_align="left"))


def _rules(g: Game) -> Panel:
    d = g.definition
    c = d.cards
    lines = [
        _line("Positions", f"no more than {d.table.max_positions}", d.table.cite),
        _line(
            "Decks",
            plural(c.decks, "deck")
            + (f" and {plural(c.cover_cards, 'cover card')}" if c.cover_cards else ""),
            c.cite,
        ),
    ]
    if c.two_decks_with_shuffler and c.two_decks_with_shuffler.allowed:
        lines.append(
            _line(
                "Two decks",
                "only with an automated card shuffling device",
                c.two_decks_with_shuffler.cite,
            )
        )
    if c.hand_dealing_requires_shuffler and c.hand_dealing_requires_shuffler.required:
        lines.append(
            _line(
                "Dealing from the hand",
                "only with an automated shuffling device",
                c.hand_dealing_requires_shuffler.cite,
            )
        )
    ch = c.change_every_hours
    parts = []
    if ch and ch.hand:
        parts.append(f"{ch.hand} h dealt by hand")
    if ch and ch.shoe:
        parts.append(f"{ch.shoe} h from a manual or automated dealing shoe")
    if ch and ch.any:
        parts.append(f"{ch.any} h")
    if ch is not None:
        lines.append(_line("Deck change at least every", "; ".join(parts), ch.cite))
    else:
        lines.append(_line("Deck change", "not stated by the rule source"))
    for who, dealt in c.dealt.items():
        if dealt.count == 0:  # dealt only as the procedure says (the Stud common card)
            named = g.group_name(who)
            lines.append(_line(named[:1].upper() + named[1:], dealt.note or "none", dealt.cite))
            continue
        up = dealt.face_up
        extra = (
            f", {'card' if len(up) == 1 else 'cards'} {', '.join(map(str, up))} face up"
            if up
            else ""
        )
        if dealt.when_wagered:
            extra += f", when a {d.wagers[dealt.when_wagered].name} is placed"
        lines.append(_line(_dealt_to(g, who), f"{plural(dealt.count, 'card')}{extra}", dealt.cite))
    for hid, hand in d.hands.items():
        lines.append(_line("Hand", g.hand_text(hid), hand.cite))
    if d.dealer and d.dealer.qualifies:
        q = d.dealer.qualifies
        cat = g.evaluator(q.hand).category(q.at_least).name
        hi = f", {q.high_card_at_least} high" if q.high_card_at_least else ""
        lines.append(_line("Dealer qualifies with", f"{cat}{hi} or better", q.cite))
    if d.options_fee:
        of = d.options_fee
        lines.append(_line(of.name, ", ".join(o.name for o in of.options.values()), of.cite))
    if d.adjacent_boxes and d.adjacent_boxes.required:
        lines.append(
            _line("Adjacent boxes", "stated in the Rules Submission", d.adjacent_boxes.cite)
        )
    if d.note:
        lines.append(Text(d.note, style="italic"))
    return Panel(Group(*lines), title="Table and cards", title_align="left")


def _wager(g: Game, wid: str, w: Wager, width: int = 200) -> Panel:
    parts: list[Any] = []
    status = (
        "optional (if specified in the Rules Submission)"
        if w.optional
        else "offered at every table"
    )
    parts.append(_line("Wager", status, w.cite))
    from validator.model.submission.poker import WAGER_KEYS

    key = WAGER_KEYS.get(wid, wid) if g.definition.kind == "nonbanking" else wid
    parts.append(_line("Key in a Rules Submission", key))  # offered:, paytables:, blinds:
    if w.pays:
        parts.append(_line("Pays", w.pays.payout.text, w.pays.cite))
    if w.amount:
        a = w.amount
        of = g.definition.wagers[a.of].name  # the wager it is sized from, by its name
        rng = _range(a.min, a.max)
        if rng:
            parts.append(_line("Amount", f"{rng} the {of}", a.cite))
        for rule in a.rules:
            cond = (rule.when.decision or "").replace("_", " ")  # a decision: a street
            if rule.when.hand:
                hand = g.hand(rule.when.hand)
                whose = f"the {g.group_name(hand.cards[0])}'s hand" if hand.cards else "the hand"
                floor = rule.when.at_least
                name = g.evaluator(rule.when.hand).category(floor).name if floor else ""
                cond = f"{whose} is {name} or better" if floor else whose
            parts.append(
                _line(f"  when {cond}", f"{_range(rule.min, rule.max)} the {of}", rule.cite)
            )
    if w.requires_equipment:
        parts.append(
            _line(
                "Requires",
                ", ".join(e.replace("_", " ") for e in w.requires_equipment),
                w.equipment_cite,
            )
        )
    if w.note:
        parts.append(Text(w.note, style="italic"))
    for tid, table in w.tables.items():
        parts.append(_table(g, tid, table, width))
    return Panel(Group(*parts), title=w.name, title_align="left")


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"{lo}x" if lo == hi else f"{lo}x to {hi}x"
    if hi is not None:
        return f"up to {hi}x"
    if lo is not None:
        return f"at least {lo}x"
    return ""


def _side_by_side(
    head: str, labels: list[str], rows: list[tuple[str, list[str]]], width: int, title: str = ""
) -> list[RichTable]:
    """Columns side by side, as the chapter prints them; when they do not fit the width,
    split into several tables of whole columns (as the chapters split A-C and D-F), so that
    no figure is ever cut."""
    first = max([len(head)] + [len(name) for name, _ in rows]) + 3
    widths = [
        max([len(label)] + [len(cells[i]) for _, cells in rows]) + 3
        for i, label in enumerate(labels)
    ]
    groups: list[list[int]] = [[]]
    used = 1 + first
    for i, w in enumerate(widths):
        if groups[-1] and used + w > width:
            groups.append([])
            used = 1 + first
        groups[-1].append(i)
        used += w
    tables = []
    for n, group in enumerate(groups):
        rt = RichTable(
            title=title if n == 0 and title else None,
            title_justify="left",
            show_edge=True,
            header_style="bold",
        )
        rt.add_column(head, overflow="fold")
        for i in group:
            rt.add_column(labels[i], justify="right", no_wrap=True)
        for name, cells in rows:
            rt.add_row(name, *[cells[i] for i in group])
        tables.append(rt)
    return tables


@meaning("show", TABLE_FEATURE.id, "only_highest", "envy", "meters")
def _table(g: Game, tid: str, table: Table, width: int = 200) -> Group:
    title = Text(f"{table.name} ", style="bold")
    title.append(f"(table id {tid}", style="dim")
    # a table whose text is missing: whether the holder selects among several is not known
    chosen = table.selectable and table.source != "missing"
    title.append(", selected by the certificate holder)" if chosen else ")", style="dim")
    title.append_text(_cite(table.cite))
    items: list[Any] = [Text(), title]
    if table.source == "missing":
        items.append(
            Text(
                "The regulation text of this table is missing: see the note. Nothing is invented.",
                style="bold red",
            )
        )
    columns = table.all_rows()
    names = dict(g.row_names(table))
    order = [h for h in names if any(h in rows for rows in columns.values())]
    if columns and order:
        rows = [
            (
                names[hand],
                [columns[label][hand].text if hand in columns[label] else "" for label in columns],
            )
            for hand in order
        ]
        items += _side_by_side("Hand", list(columns), rows, width)
    if table.meters:
        items.append(_meters(table.meters, table, width))
    if table.only_highest:
        items.append(_line("Paid", "only the highest ranking hand formed", table.only_highest.cite))
    if table.envy:
        items.append(
            _line(
                "Envy Bonus",
                "paid for another player's qualifying hand, never one's own or the dealer's",
                table.envy.cite,
            )
        )
    if table.approved_hold:
        from validator.model.notation import stated_range

        ah = table.approved_hold
        n = f"{ah.tables} tables, " if ah.tables else ""
        items.append(
            _line(
                "Board's stated hold",
                f"{n}{stated_range(format_rate(ah.low), format_rate(ah.high))}",
                ah.cite,
            )
        )
    if table.note:
        items.append(Text(table.note, style="italic"))
    return Group(*items)


def _meter_cell(rule: MeterRule | None, field: str) -> str:
    if rule is None:
        return "N/A"
    value = getattr(rule, field)
    if value is None:
        return ""
    if field in ("seed", "reseed"):
        from validator.money import format_per_unit

        return format_per_unit(value)
    if field.endswith("at_least"):
        return f"at least {format_money(value)}"
    if isinstance(value, str):
        return "stated in the Rules Submission" if value == "stated" else value
    return format_rate(value)


def _meters(meters: Meters, table: Table, width: int = 200) -> Group:
    letters = list(meters.paytables or {}) or ["all"]
    per = {k: meters.for_paytable(None if k == "all" else k) for k in letters}
    names: list[str] = []
    for rules in per.values():
        names += [n for n in rules if n not in names]
    labels = ["Every paytable" if k == "all" else f"Paytable {k}" for k in letters]
    fields = [
        ("seed", "Seed"),
        ("reseed", "Reseed"),
        ("seed_at_least", "Initial amount"),
        ("reseed_at_least", "Reset amount"),
        ("increment", "Increment"),
        ("reserve_increment", "Reserve increment"),
    ]
    rows = []
    for name in names:
        for field, label in fields:
            cells = [_meter_cell(per[k].get(name), field) for k in letters]
            # a row the chapter prints, even where it says N/A (§ 641a.12(d)(3) "Reserve")
            if any(getattr(per[k].get(name), field, None) is not None for k in letters):
                rows.append((f"{label} ({name})", cells))
    # a seed "for 1" is per unit wagered (§ 641a.12(d)(3)); a floor is a sum (§ 678a.12(d)(3))
    per_unit = any(
        r.seed is not None or r.reseed is not None for rules in per.values() for r in rules.values()
    )
    title = "Seed, reseed and rate of progression" + (" (per unit wagered)" if per_unit else "")
    items: list[Any] = [*_side_by_side("", labels, rows, width, title)]
    items.append(_line("Meters", "as above", meters.cite))
    if meters.paid_when:
        items.append(
            _line(
                "A winning hand is paid",
                "the amount on the meter when it is the player's turn to be paid",
                meters.paid_when.cite,
            )
        )
    return Group(*items)
