"""Signage as plain text (terminal, tests) and Markdown (a memo or a print shop's brief).

Each line carries its citation in brackets unless ``cite=False`` (the printed sign). A
paytable's citation stands on its title line and covers its rows.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from validator import jsonout
from validator.signage.build import PLACEMENT, Item, Line, Paytable, Sign, SignSet
from validator.wrapping import wrapped

WIDTH = 88  # the terminal text wraps long lines; HTML and Markdown do not


def _cited(text: str, cite: str, with_cite: bool, indent: str = "") -> str:
    """A line and its citation, wrapped with a hanging indent."""
    line = f"{text}  [{cite}]" if with_cite else text
    return "\n".join(wrapped(line, WIDTH, indent, indent + "    "))


#: said above the signs where the game's rules call for a figure the submission does not give
UNSTATED = "The game's rules call for these on the signs; the Rules Submission does not state them:"


def heading(signs: SignSet) -> list[str]:
    """Who the signs are for: the casino, the game, the submission's date; then the notes
    on the day's text (``notes``)."""
    who, game = named(signs)
    return ([who, game] if who else [game]) + notes(signs)


def named(signs: SignSet) -> tuple[str, str]:
    """The casino (empty where the submission names none) and the game, with its chapter
    and the submission's date where the proof shows them."""
    who = " · ".join(p for p in (signs.certificate_holder, signs.facility) if p)
    game = f"{signs.game_name} ({signs.chapter})" if signs.chapter else signs.game_name
    if signs.effective:
        game += f" · Rules Submission effective {signs.effective.isoformat()}"
    return who, game


def notes(signs: SignSet) -> list[str]:
    """What the signs say of the text they follow: made as of a day, or on a day the
    chapter was not in force."""
    return list(signs.as_of) + list(signs.in_force)


def _paytable_text(table: Paytable, with_cite: bool) -> list[str]:
    out = [_cited(table.title, table.cite, with_cite)]
    width = max([len("Hand")] + [len(h) for h, _ in table.rows])
    pay = max([len(table.column)] + [len(p) for _, p in table.rows])
    out.append(f"  {'Hand'.ljust(width)}  {table.column.rjust(pay)}")
    out += [f"  {hand.ljust(width)}  {payout.rjust(pay)}" for hand, payout in table.rows]
    out += [_cited(line.text, line.cite, with_cite, "  ") for line in table.lines]
    return out


def sign_text(sign: Sign, number: int, total: int, with_cite: bool = True) -> list[str]:
    title = f"Sign {number} of {total}: {sign.title}" if with_cite else sign.title
    out = [f"== {title} =="]
    if with_cite:
        out.append(_cited(PLACEMENT[sign.placement], sign.cite, True))
    for item in sign.items:
        out.append("")
        if isinstance(item, Paytable):
            out += _paytable_text(item, with_cite)
        else:
            out.append(_cited(item.text, item.cite, with_cite and sign.cites(item)))
    return out


def render_text(signs: SignSet, *, cite: bool = True) -> str:
    lines: list[str] = []
    if signs.draft:
        lines += [signs.draft_notice, *[f"  {p}" for p in signs.problems], ""]
    elif signs.problems:
        lines += [UNSTATED, *[f"  {p}" for p in signs.problems], ""]
    lines += heading(signs)
    total = len(signs.signs)
    for i, sign in enumerate(signs.signs, 1):
        lines.append("")
        lines += sign_text(sign, i, total, cite)
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Escape what Markdown would read as markup (or HTML) in sign text."""
    from validator.markdown import md_text

    return md_text(text)


def _md_cite(cite: str, with_cite: bool) -> str:
    return f" ({_md(cite)})" if with_cite else ""


def render_markdown(signs: SignSet, *, cite: bool = True) -> str:
    out: list[str] = []
    who = signs.certificate_holder or signs.game_name
    out.append(f"# Signage: {_md(who)}")
    out.append("")
    if signs.draft or signs.problems:
        out.append(f"> **{_md(signs.draft_notice if signs.draft else UNSTATED)}**")
        out += [f"> - {_md(p)}" for p in signs.problems]
        out.append("")
    out += [_md(line) + "  " for line in heading(signs)]
    if signs.source:
        out.append(f"Rule source: {_md(signs.source)}  ")
    total = len(signs.signs)
    for i, sign in enumerate(signs.signs, 1):
        out.append("")
        title = f"Sign {i} of {total}: {sign.title}" if cite else sign.title
        out.append(f"## {_md(title)}")
        if cite:
            out += ["", f"_{_md(PLACEMENT[sign.placement])}_{_md_cite(sign.cite, True)}"]
        for item in sign.items:
            out.append("")
            if isinstance(item, Paytable):
                out.append(f"**{_md(item.title)}**{_md_cite(item.cite, cite)}")
                out.append("")
                out.append(f"| Hand | {_md(item.column)} |")
                out.append("|---|---:|")
                out += [f"| {_md(h)} | {_md(p)} |" for h, p in item.rows]
                for line in item.lines:
                    out += ["", _md(line.text) + _md_cite(line.cite, cite)]
            else:
                assert isinstance(item, Line)
                out.append(_md(item.text) + _md_cite(item.cite, cite and sign.cites(item)))
    return "\n".join(out) + "\n"


#: a paytable's letter in a title ("Aces Up Wager, Paytable C"): a proof mark, not the patron's
_LETTER = re.compile(r",? Paytable [A-Z]\b")


def as_posted(signs: SignSet) -> SignSet:
    """The signs as a patron sees them: no paytable letters (the chapter's labels for the
    certificate holder's choice), no chapter or filing date in the heading; the payout
    column headed "Payout"."""

    def posted(item: Item) -> Item:
        if not isinstance(item, Paytable):
            return item
        return replace(item, title=_LETTER.sub("", item.title), column="Payout")

    return replace(
        signs,
        chapter="",  # the chapter and the filing's date are the proof's, not the patron's
        effective=None,
        in_force=(),  # so is the note on the chapter's state: said on stderr when printed
        as_of=signs.as_of[:1],  # the day; the chapter's state, where not the day's, a draft's
        signs=tuple(replace(s, items=tuple(posted(i) for i in s.items)) for s in signs.signs),
    )


def render_json(signs: SignSet, *, cite: bool = True) -> str:
    """Every sign as data: each line with the section that requires it (always: the JSON is
    a proof; ``cite=False`` gives the posted words)."""

    def line(x: Line) -> dict[str, str]:
        return {"text": x.text, "section": x.cite}

    def item(x: Item) -> dict[str, Any]:
        if isinstance(x, Line):
            return line(x)
        return {
            "paytable": x.title,
            "section": x.cite,
            "column": x.column,
            "rows": [{"hand": h, "payout": p} for h, p in x.rows],
            "lines": [line(m) for m in x.lines],
        }

    data = {
        "certificate_holder": signs.certificate_holder,
        "facility": signs.facility,
        "game": signs.game_name,
        "chapter": signs.chapter,
        "effective": signs.effective.isoformat() if signs.effective else None,
        **({"as_of": list(signs.as_of)} if signs.as_of else {}),
        **({"in_force": list(signs.in_force)} if signs.in_force else {}),
        "draft": signs.draft,
        "findings" if signs.draft else "unstated": list(signs.problems),
        "signs": [
            {
                "title": s.title,
                "section": s.cite,
                "placement": PLACEMENT[s.placement],
                "items": [item(i) for i in s.items],
            }
            for s in signs.signs
        ],
    }
    return jsonout.dumps(data, indent=2) + "\n"
