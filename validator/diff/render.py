"""A diff as a terminal report, as JSON (the contract of issue 6) and as a Markdown memo."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from validator.counts import plural
from validator.diff.compare import Change, GameDiff, HandRow
from validator.diff.holds import Hold
from validator.diff.names import field_name, in_words
from validator.model.notation import format_money, parse_payout
from validator.signage.checked import describe
from validator.wrapping import held, print_held, unbroken

PLACES = 4


def percent(value: Fraction, places: int = PLACES, sign: bool = False) -> str:
    """An exact fraction as a percentage rounded half-even to ``places`` decimals."""
    exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
    text = f"{exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)}"
    return f"+{text}" if sign and value > 0 else text


def direction(row: HandRow) -> str:
    """What the change means to a patron holding that hand."""
    if not row.changed:
        return ""
    if row.old is None or row.new is None:
        return "added" if row.old is None else "removed"
    old = parse_payout(row.old or "N/A")
    new = parse_payout(row.new or "N/A")
    kinds = {old.kind.value, new.kind.value}
    a: Any = None
    b: Any = None
    if kinds <= {"to", "for", "push", "na"}:
        a, b = old.net_units(), new.net_units()
    elif kinds <= {"fixed", "na"}:  # a sum, or not paid; per $1 where the wagers differ
        a, b = (x.amount if x.kind.value == "fixed" else 0 for x in (old, new))
        was, now = row.wagers
        if was is not None and now is not None and was != now:
            a, b = Fraction(a) / Fraction(was), Fraction(b) / Fraction(now)
            if a == b:
                return "the same per $1 wagered"
    elif kinds == {"meter"} and old.meter == new.meter:
        a, b = old.share, new.share
    if a is None or a == b:
        return "changed"
    return "pays more" if b > a else "pays less"


def cell(text: str | None, paid_as: str | None) -> str:
    """A payout cell; "—" where the hand is not paid."""
    if text is None:
        return "—"
    return f"{text} (as {paid_as.lower()})" if paid_as else text


def hold_text(hold: Hold | None) -> str:
    if hold is None:
        return "—"
    if hold.value is None:
        return f"n/a ({hold.why_not})"
    return f"{percent(hold.value)}%"


def holds_text(change: Change) -> str:
    """The hold before → after; a reason neither can be priced for said once."""
    old, new = change.hold_old, change.hold_new
    unpriced = old is not None and new is not None and old.value is None and new.value is None
    if unpriced and old is not None and new is not None and old.why_not == new.why_not:
        return f"n/a before and after ({new.why_not})"
    return f"{hold_text(old)} → {hold_text(new)}"


def delta_text(change: Change) -> str:
    return moved_text(change.hold_delta)


def moved_text(delta: Fraction | None) -> str:
    """How far a hold moved, in percentage points; "unchanged" where it did not (never
    "0.0000 percentage points", as the review pack says it too)."""
    if delta is None:
        return ""
    return "unchanged" if delta == 0 else f"{percent(delta, sign=True)} percentage points"


#: a value a submission states in a form not read (its finding says how), compared as if
#: left out: never shown as "none", which would read as removed
NOT_READ_VALUE = "not read as written"


def sides(change: Change) -> tuple[str, str]:
    """The old and the new value of a change as the documents show them: a table printed
    by the amount wagered with the wager its sums are for ("Paytable B, $5 wager"), a table
    whose rows both submissions state as its old and new rows."""
    if change.old == change.new == "stated":
        return "old rows", "new rows"
    out = []
    for value, misread, wager in zip(
        (change.old, change.new), change.misread, change.wagers, strict=True
    ):
        text = NOT_READ_VALUE if misread else selection(value, change)
        out.append(text if wager is None else f"{text}, {format_money(wager)} wager")
    return out[0], out[1]


def stated(change: Change) -> tuple[str, str]:
    """The old and the new value of a change without a paytable, as its table shows it."""
    return (
        f"({NOT_READ_VALUE})" if change.misread[0] else change.old or "(not stated)",
        f"({NOT_READ_VALUE})" if change.misread[1] else change.new or "(not stated)",
    )


def selection(value: str | None, change: Change) -> str:
    if value is None:
        return "none"
    if change.path.startswith("/paytables/") and len(value) == 1:
        return f"Paytable {value}"
    return value


# -- JSON -------------------------------------------------------------------------------------


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value * 100)


def to_json(diff: GameDiff) -> dict[str, Any]:
    """``{"game", "changes": [{"path", "old", "new", "hands", "hold_percent"}], "new_findings"}``.

    ``hands`` lists the hands whose payout changed; ``hold_percent`` is null for a change
    that moves no hold, and each figure is null where the engine gives none.
    """
    changes = []
    for c in diff.changes:
        hold = None
        if c.has_hold:
            hold = {
                "old": _number(c.hold_old.value if c.hold_old else None),
                "new": _number(c.hold_new.value if c.hold_new else None),
                "delta": _number(c.hold_delta),
            }
        long_run = None
        if c.has_long_run:  # a progressive's, the increments and reseeds it pays back counted
            long_run = {
                "old": _number(c.hold_old.long_run_hold if c.hold_old else None),
                "new": _number(c.hold_new.long_run_hold if c.hold_new else None),
                "delta": _number(c.long_run_delta),
                # where a meter's values changed together, those that move the long run
                "moved_by": list(c.moved_with),
            }
        changes.append(
            {
                "path": c.path,
                "old": c.old,
                "new": c.new,
                "hands": [
                    {"hand": h.hand, "old": h.old, "new": h.new} for h in c.hands if h.changed
                ],
                "hold_percent": hold,
                "long_run_hold_percent": long_run,
            }
        )
    out: dict[str, Any] = {
        "game": diff.game.id,
        "changes": changes,
        "new_findings": [_finding(f) for f in diff.new_findings],
    }
    if diff.not_read:
        out["not_read_as_written"] = [_finding(f) for f in diff.not_read]
    return out


#: said before the changes where a submission wrote what was not read as written
NOT_READ = (
    "Not read as written, so compared as if left out (each is an error, with the findings below):"
)


def _finding(finding: Any) -> dict[str, Any]:
    if hasattr(finding, "to_dict"):
        return finding.to_dict()
    keys = ("code", "severity", "message", "cite", "path", "file", "line", "column", "hint")
    return {k: getattr(finding, k, None) for k in keys}


# -- terminal ---------------------------------------------------------------------------------


def render_terminal(diff: GameDiff, out: Any) -> None:
    """A rich report: per change, the hands side by side, changed cells highlighted; no
    line breaks between a section sign and its number."""
    print_held(out, lambda: _render_terminal(diff, out))


def _render_terminal(diff: GameDiff, out: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    d = diff.game.definition
    head = Text(f"{d.name}", style="bold")
    head.append(f"  {d.chapter}", style="cyan")
    out.print(head)
    out.print(Text(f"old: {diff.old_label}\nnew: {diff.new_label}", style="dim"))
    if diff.not_read:
        out.print(Text(f"\n{NOT_READ}", style="bold red"))
        for f in diff.not_read:
            out.print(Text(f"  {describe(f)}"))
    if not diff.changes:
        out.print("\nNo selection or stated value changed.")
    group = None
    for c in diff.changes:
        if c.group != group:
            group = c.group
            out.print(Text(f"\n{group}", style="bold underline"))
        if c.hands:
            title = Text(f"{c.title}: ", style="bold")
            title.append(f"{sides(c)[0]} → {sides(c)[1]}")
            if c.where:
                title.append(f"  {c.where}", style="dim")
            if c.cite:
                title.append(f"  [{held(c.cite)}]", style="dim")
            out.print(title)
            t = Table(show_edge=True, header_style="bold")
            t.add_column("Hand")
            t.add_column(sides(c)[0], justify="right")
            t.add_column(sides(c)[1], justify="right")
            t.add_column("")
            for row in c.hands:
                style = "bold yellow" if row.changed else ""
                t.add_row(
                    row.name,
                    Text(cell(row.old, row.old_as), style=style),
                    Text(cell(row.new, row.new_as), style=style),
                    Text(direction(row), style=style),
                )
            out.print(t)
        elif c.path.startswith("/regulation/"):  # a Bulletin notice between the two dates
            line = Text(f"{c.path.rsplit('/', 1)[1]}  ", style="bold")
            line.append(c.new or "", style="bold yellow")
            out.print(line)
        else:
            line = Text(f"{field_name(diff.game, c.path)}: ", style="bold")
            line.append(f"{stated(c)[0]} → ")
            line.append(stated(c)[1], style="bold yellow")
            if c.where:  # where it is stated, as above
                line.append(f"  {c.where}", style="dim")
            if c.title:
                line.append(f"  {c.title}", style="dim")
            if c.cite:  # the sections that rule on the field
                line.append(f"  [{held(c.cite)}]", style="dim")
            out.print(line)
        if c.has_hold:
            out.print(_hold_line(c))
        if (long_run := long_run_text(c)) is not None:
            out.print(Text(f"  {long_run}"))
    _findings_terminal(diff, out)


def _hold_line(c: Change) -> Any:
    from rich.text import Text

    t = Text("  Hold: ")
    t.append(unbroken(holds_text(c)))
    if c.hold_delta is not None:
        t.append(f"  ({delta_text(c)})", style="bold")
    exact = [h.value for h in (c.hold_old, c.hold_new) if h is not None and h.value is not None]
    if exact:
        t.append("  " + unbroken("exact: " + " → ".join(str(v) for v in exact)), style="dim")
    if any(h is not None and h.basis == "bonus" for h in (c.hold_old, c.hold_new)):
        t.append("  (a bonus on another wager: minus its return per unit)", style="dim")
    at = metered(c)
    if at:
        t.append(f"  ({at})", style="dim")
    return t


def metered(c: Change) -> str | None:
    """Where a hold is a progressive's: the meter it was priced at, and that the increments
    the meter pays back later are not in it (a change of the rate of progression moves the
    long-run return, which the par sheet gives)."""
    old, new = (h.meters if h is not None else () for h in (c.hold_old, c.hold_new))
    if not old and not new:
        return None
    moved = old and new and old != new
    said = f"{'; '.join(old)} → {'; '.join(new)}" if moved else "; ".join(old or new)
    where = (
        "the long-run hold counts them"
        if c.has_long_run
        else "the par sheet gives the long-run return"
    )
    return f"the meter at {said}; the increments it pays back later are not counted: {where}"


def long_run_sides(c: Change) -> tuple[str, str, str]:
    """A progressive's hold in the long run: before, after and the change, as the summary
    shows them."""
    old, new = (h.long_run_hold if h is not None else None for h in (c.hold_old, c.hold_new))
    delta = c.long_run_delta
    shown = ("—" if x is None else f"{percent(x)}%" for x in (old, new))
    return next(shown), next(shown), moved_text(delta)


def long_run_text(c: Change) -> str | None:
    """A progressive's hold in the long run before → after, what it counts, and the return
    to players it leaves (``Hold.long_run``); None where neither side has one."""
    if not c.has_long_run:
        return None
    old, new, moved = long_run_sides(c)
    returns = (
        "—" if h is None or h.long_run is None else f"{percent(h.long_run)}%"
        for h in (c.hold_old, c.hold_new)
    )
    by = ""
    if c.moved_with:  # a meter's values changed together: which of them move it
        names = [f"the {n}" for n in c.moved_with]
        movers = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        seed = c.path.endswith("/seed")
        verb = "moves" if len(names) == 1 else "move"
        by = f", which {'the seed leaves and ' if seed else ''}{movers} {verb}"
    return (
        f"Hold in the long run{by} (the increments and reseeds it pays back counted): "
        f"{old} → {new}"
        + (f" ({moved})" if moved else "")
        + f"; return to players {next(returns)} → {next(returns)}"
    )


def _findings_terminal(diff: GameDiff, out: Any) -> None:
    from rich.text import Text

    if not diff.new_findings:
        if diff.submissions:
            out.print(Text("\nNo new findings.", style="dim"))
        return
    out.print(Text("\nNew findings (in the new submission, not in the old)", style="bold"))
    for f in diff.new_findings:
        line = Text(f"  {f.severity:<7} ", style="bold red" if f.severity == "error" else "")
        line.append(f"{f.code}: {f.message}")
        if f.cite:
            line.append(f"  [{held(f.cite)}]", style="dim")
        line.append(f"  {f.file}:{f.line}:{f.column}", style="dim")
        out.print(line)


# -- Markdown memo ----------------------------------------------------------------------------


def _md(text: str) -> str:
    from validator.markdown import md_text

    return md_text(text)


def _code(text: str) -> str:
    from validator.markdown import md_code

    return md_code(text)


def memo_title(diff: GameDiff) -> str:
    """What the memo is about: a paytable change where only paytables changed (or two of the
    chapter's paytables are compared), the regulation's change between two dates, else a
    change of the Rules Submission."""
    if diff.between_dates:
        return "Regulation change"
    if not diff.submissions or {c.group for c in diff.changes} <= {"Paytables"}:
        return "Paytable change"
    return "Rules Submission change"


def render_markdown(diff: GameDiff) -> str:
    d = diff.game.definition
    out = [f"# {memo_title(diff)}: {_md(d.name)}", ""]
    out.append(f"{_md(d.chapter)}  ")
    out.append(f"Old: {_code(diff.old_label)}  ")
    out.append(f"New: {_code(diff.new_label)}")
    if diff.not_read:
        out += ["", f"**{_md(NOT_READ)}**", ""]
        out += [
            f"- {_code(f.location)}: {_md(in_words(diff.game, f.message))}" for f in diff.not_read
        ]
    out += ["", "## Summary", ""]
    if not diff.changes:
        out.append("- No selection or stated value changed.")
    for c in diff.changes:
        item = f"- {_md(field_name(diff.game, c.path))}: {_md(sides(c)[0])} → {_md(sides(c)[1])}"
        if c.hold_delta is not None:
            seed = " with the meter at its seed" if c.has_long_run else ""
            item += f"; hold{seed} {holds_text(c)} ({delta_text(c)})"
        if c.long_run_delta is not None:
            old, new, moved = long_run_sides(c)
            item += f"; in the long run {old} → {new} ({moved})"
        out.append(item)
    if diff.submissions:
        errors = [f for f in diff.new_findings if f.severity == "error"]
        out.append(
            f"- The new submission has {plural(diff.new_errors, 'error')} and "
            f"{plural(diff.new_warnings, 'warning')}; {plural(len(diff.new_findings), 'finding')} "
            f"{'is' if len(diff.new_findings) == 1 else 'are'} new"
            + (f", {len(errors)} of them errors." if errors else ".")
        )
    for c in diff.changes:
        if not c.hands:
            continue
        out += ["", f"## {_md(c.title)}: {_md(sides(c)[0])} → {_md(sides(c)[1])}"]
        out += [
            "",
            _md(field_name(diff.game, c.path)) + (f" ({_md(c.cite)})" if c.cite else ""),
            "",
        ]
        out.append(f"| Hand | {_md(sides(c)[0])} | {_md(sides(c)[1])} | |")
        out.append("|---|---:|---:|---|")
        for row in c.hands:
            old, new = _md(cell(row.old, row.old_as)), _md(cell(row.new, row.new_as))
            if row.changed:
                old, new = f"**{old}**", f"**{new}**"
            out.append(f"| {_md(row.name)} | {old} | {new} | {direction(row)} |")
        if c.has_hold:
            out += ["", _hold_md(c)]
    others = [c for c in diff.changes if not c.hands]
    if others:
        out += [
            "",
            "## Other changes",
            "",
            "| What | Old | New | Section | Hold |",
            "|---|---|---|---|---|",
        ]
        for c in others:
            delta, at, long_run = delta_text(c), metered(c), long_run_text(c)
            hold = (
                holds_text(c)
                + (f" ({delta})" if delta else "")
                + (f"; {at}" if at else "")
                + (f". {long_run}" if long_run else "")
                if c.has_hold
                else ""
            )
            out.append(
                f"| {_md(field_name(diff.game, c.path))} | {_md(stated(c)[0])} | "
                f"{_md(stated(c)[1])} | {_md(c.cite or '')} | {_md(hold)} |"
            )
    if diff.new_findings:
        out += ["", "## New findings", ""]
        out.append("| Severity | Finding | Section | Line |")
        out.append("|---|---|---|---:|")
        for f in diff.new_findings:  # a memo a person reads: no finding codes, no paths
            said = in_words(diff.game, f.message)
            out.append(f"| {f.severity} | {_md(said)} | {_md(f.cite or '')} | {f.line} |")
    return "\n".join(out) + "\n"


def _hold_md(c: Change) -> str:
    text = f"Hold: {holds_text(c)}"
    if c.hold_delta is not None:
        text += f", **{delta_text(c)}**"
    exact = [h.value for h in (c.hold_old, c.hold_new) if h is not None and h.value is not None]
    if exact:
        text += " (exact: " + " → ".join(str(v) for v in exact) + ")"
    at = metered(c)
    if at:
        text += f" ({at})"
    long_run = long_run_text(c)
    shown = _md(text).replace("\\*\\*", "**")
    return shown + (f"\n\n{_md(long_run)}" if long_run else "")
