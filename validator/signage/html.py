"""Signage as a print-ready HTML document: one sign per page, large type.

Each sign is a ``<section>`` ending in a page break (CSS paged media), headed with the
casino's name. The type size of each sign is the largest that lets its content fit one US
Letter page, estimated from its lines; long payout-odds signs flow into two columns.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape

from validator.par.printed import page_foot
from validator.signage.build import PLACEMENT, Line, Paytable, Sign, SignSet
from validator.signage.render import named, notes
from validator.wrapping import held_html

# US Letter with 0.5 in margins: the printable area, in points.
PAGE_WIDTH_PT = 7.5 * 72
PAGE_HEIGHT_PT = 10 * 72
LINE_HEIGHT = 1.3
CHAR_WIDTH_EM = 0.55  # a generous average advance for DejaVu Sans, the widest face listed
COLUMN_GAP_PT = 0.4 * 72
SIZES_PT = (30, 26, 22, 19, 16, 14)
TITLE_PT = 30
CITE_PT = 9 * 1.4  # a citation line in small type
CASINO_PT, GAME_PT = 16, 12  # the head of every sign: the casino, the game
NOTE_PT = 10  # a note on the text the signs follow (made as of a day, or not in force)
FOOT_PT = 9 * 1.4 + 12
DRAFT_PT = 14 * 1.3 + 20
SAFETY = 0.92


@dataclass(frozen=True)
class Layout:
    size_pt: int
    columns: int


def _wrapped(text: str, size: float, width: float) -> int:
    per_line = max(8, int(width / (size * CHAR_WIDTH_EM)))
    return max(1, math.ceil(len(text) / per_line))


def _item_heights(sign: Sign, size: int, width: float, with_cite: bool) -> list[float]:
    """The height in points of each item of the sign, at type ``size`` in a column ``width``."""
    line = size * LINE_HEIGHT
    cite = CITE_PT if with_cite else 0
    out = []
    for item in sign.items:
        h = 0.6 * size  # the space after an item
        if isinstance(item, Paytable):
            h += _wrapped(item.title, size, width) * line + cite
            h += 0.8 * line + 2  # header row
            h += sum(_wrapped(f"{a}   {b}", size, width) for a, b in item.rows) * line
            h += sum(_wrapped(x.text, size, width) * line + cite for x in item.lines)
        else:
            h += _wrapped(item.text, size, width) * line + cite
        out.append(h)
    return out


def _rows_whole(sign: Sign, size: int, width: float) -> bool:
    """Whether every row of the sign's paytables reads on one line in a column ``width``
    at type ``size``: a hand's name is never broken ("Four-of-a-" over "kind")."""
    return all(
        _wrapped(f"{a}   {b}", size, width) == 1
        for item in sign.items
        if isinstance(item, Paytable)
        for a, b in item.rows
    )


def _column_height(heights: list[float], columns: int) -> float:
    """The tallest column when items (kept whole, in order) are balanced over the columns."""
    if columns == 1 or len(heights) < 2:
        return sum(heights)
    return min(max(sum(heights[:i]), sum(heights[i:])) for i in range(1, len(heights)))


def layout(
    sign: Sign,
    with_cite: bool = True,
    draft: bool = False,
    head: tuple[tuple[str, float], ...] = (),
) -> Layout:
    """The largest type that fits the sign on one page, in one column if it can.

    ``head``: the lines printed above the title (the casino, the game, the notes), each
    with its type size."""
    head_pt = 8.0 + sum(
        _wrapped(text, size * 1.1, PAGE_WIDTH_PT) * size * 1.3 for text, size in head
    )
    title = _wrapped(sign.title, TITLE_PT * 1.1, PAGE_WIDTH_PT) * TITLE_PT * 1.15 + 18
    budget = PAGE_HEIGHT_PT - head_pt - title - (FOOT_PT if with_cite else 0)
    budget = (budget - (DRAFT_PT if draft else 0)) * SAFETY
    tables = any(isinstance(item, Paytable) for item in sign.items)  # notices read down
    for size in SIZES_PT:
        for columns in (1, 2) if tables and len(sign.items) > 1 else (1,):
            width = (PAGE_WIDTH_PT - COLUMN_GAP_PT * (columns - 1)) / columns
            heights = _item_heights(sign, size, width, with_cite)
            if _column_height(heights, columns) <= budget and _rows_whole(sign, size, width):
                return Layout(size, columns)
    return Layout(SIZES_PT[-1], 2)


CSS = """
@page { size: letter portrait; margin: 0.5in; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif;
       color: #000; background: #fff; -webkit-print-color-adjust: exact;
       print-color-adjust: exact; }
.sign { position: relative; break-after: page; page-break-after: always; }
.sign:last-of-type { break-after: auto; page-break-after: auto; }
.casino { font-size: 16pt; font-weight: bold; text-align: center;
          border-bottom: 2pt solid #000; padding-bottom: 4pt; }
.game { font-size: 12pt; text-align: center; margin-top: 2pt; }
.note { font-size: 10pt; text-align: center; margin-top: 2pt; font-style: italic; }
h1 { font-size: 30pt; text-align: center; margin: 10pt 0 8pt; line-height: 1.15; }
.content { line-height: 1.3; margin-bottom: 8pt; }
.content.two { column-count: 2; column-gap: 0.4in; column-fill: balance; }
.item { break-inside: avoid; page-break-inside: avoid; margin: 0 0 0.6em; }
.item p { margin: 0; }
.notice { font-weight: bold; }
table { width: 100%; border-collapse: collapse; }
caption { text-align: left; font-weight: bold; }
th { text-align: left; border-bottom: 1pt solid #000; font-size: 0.8em; }
th.pays, td.pays { text-align: right; white-space: nowrap; padding-left: 0.6em; }
td { padding: 0; }
td:first-child { white-space: nowrap; }  /* a hand's name whole: the layout leaves it room */
.cite { font-size: 9pt; line-height: 1.4; color: #333; font-weight: normal; display: block; }
.nb { white-space: nowrap; }
.foot { font-size: 9pt; color: #333; border-top: 1pt solid #000; padding-top: 3pt; }
.draft { border: 3pt solid #000; font-size: 14pt; font-weight: bold; text-align: center;
         padding: 4pt; margin-top: 6pt; }
.watermark { position: absolute; top: 40%; left: 0; right: 0; text-align: center;
             font-size: 110pt; font-weight: bold; color: rgba(0, 0, 0, 0.12);
             transform: rotate(-30deg); pointer-events: none; }
"""


def _cite(cite: str, with_cite: bool) -> str:
    return f'<span class="cite">{held_html(cite)}</span>' if with_cite else ""


def _item_html(item: Line | Paytable, with_cite: bool) -> str:
    if isinstance(item, Line):
        return f'<p class="item notice">{escape(item.text)}{_cite(item.cite, with_cite)}</p>'
    rows = "".join(
        f'<tr><td>{escape(h)}</td><td class="pays">{escape(p)}</td></tr>' for h, p in item.rows
    )
    lines = "".join(
        f"<p>{escape(line.text)}{_cite(line.cite, with_cite)}</p>" for line in item.lines
    )
    return (
        f'<div class="item"><table><caption>{escape(item.title)}'
        f"{_cite(item.cite, with_cite)}</caption>"
        f'<thead><tr><th>Hand</th><th class="pays">{escape(item.column)}</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>{lines}</div>"
    )


def _sign_html(signs: SignSet, sign: Sign, with_cite: bool) -> str:
    who, named_game = named(signs)
    said = notes(signs)
    head = (
        ([(who, CASINO_PT)] if who else [])
        + [(named_game, GAME_PT)]
        + [(note, NOTE_PT) for note in said]
    )
    fit = layout(sign, with_cite, signs.draft, tuple(head))
    casino = escape(who)
    game = escape(named_game)
    parts = [f'<section class="sign" id="sign-{escape(sign.id)}">']
    if signs.draft:
        parts.append('<div class="watermark">DRAFT</div>')
    if casino:
        parts.append(f'<div class="casino">{casino}</div>')
    parts.append(f'<div class="game">{game}</div>')
    parts += [f'<div class="note">{escape(note)}</div>' for note in said]
    if signs.draft:
        parts.append(f'<div class="draft">{escape(signs.draft_notice)}</div>')
    parts.append(f"<h1>{escape(sign.title)}</h1>")
    cls = "content two" if fit.columns == 2 else "content"
    parts.append(f'<div class="{cls}" style="font-size: {fit.size_pt}pt">')
    parts += [
        _item_html(item, with_cite and (isinstance(item, Paytable) or sign.cites(item)))
        for item in sign.items
    ]
    parts.append("</div>")
    if with_cite:
        # the game's source beside a section of its own chapter; another chapter's section
        # (§ 601a.10(a)'s table limits) is not that chapter's, and is cited alone
        chapter = re.search(r"ch\. (\w+)", signs.source or "")
        own = chapter is None or f"§ {chapter.group(1)}." in sign.cite
        source = f" ({escape(signs.source)})" if signs.source and own else ""
        parts.append(
            f'<div class="foot">{escape(PLACEMENT[sign.placement])}: {escape(sign.cite)}'
            f"{source}</div>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def render_html(signs: SignSet, *, cite: bool = True) -> str:
    title = " · ".join(
        p
        for p in (
            "DRAFT" if signs.draft else "",
            signs.certificate_holder,
            f"{signs.game_name} signage",
        )
        if p
    )
    body = "\n".join(_sign_html(signs, sign, cite) for sign in signs.signs)
    foot = page_foot(f"{signs.game_name} signs", signs.draft_notice if signs.draft else None)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}{foot}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )
