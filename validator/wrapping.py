"""Prose wrapped for a terminal or a text file, one way everywhere: a section sign stays
with its number (``§ 641a.12`` never breaks across lines), and words and hyphenated names
are never split."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from html import escape
from typing import Any

#: a section sign held to its number where a line wraps: a character of one cell that no
#: wrapping (textwrap's, rich's) takes for a space, as a no-break space is to rich; a
#: private-use one, never in a game file, printed back as a space (``released``)
HELD = "\ue000"


#: a citation: the section sign, its number, and the subsections that follow it after a
#: comma (``§ 677a.2(b)(8), (9)``), read as one; a quote or an apostrophe after it ends it
#: ("§ 553.20(f)'s notice")
CITATION = re.compile(r"§ ([^\s,;'\"’”]+(?:, \([^)\s]+\)[^\s,;'\"’”]*)*)")


def held(text: str) -> str:
    """``text`` with each citation held together for wrapping: "§" to its number, and its
    number to the subsections after it."""
    return CITATION.sub(lambda m: f"§{HELD}" + m[1].replace(" ", HELD), text)


def held_sign(text: str) -> str:
    """``text`` with each section sign held to the number after it, and no more: for a
    table's narrow cell, where a citation held whole (``held``) could be wider than the
    cell."""
    return re.sub(r"§ (?=\S)", f"§{HELD}", text)


def unbroken(text: str) -> str:
    """``text`` held on one line where a line wraps (``12643/324870 → 1503/54145``)."""
    return text.replace(" ", HELD)


def held_html(text: str) -> str:
    """``text`` escaped for HTML, each citation set whole where a browser wraps it: ``§``
    held to its number by a no-break space, the citation itself (``§ 641a.12(d)(1)``, which
    a browser would break before its ``(1)``) in a span that does not wrap (``nb``). The
    citations are found in the text as written, never in its escaped form, whose entities
    (``&#x27;``) a citation's end would cut."""
    out, at = [], 0
    for m in CITATION.finditer(text):
        out += [escape(text[at : m.start()]), f'<span class="nb">§&nbsp;{escape(m[1])}</span>']
        at = m.end()
    return "".join([*out, escape(text[at:])])


def released(text: str) -> str:
    """Wrapped text printed: the held spaces spaces again."""
    return text.replace(HELD, " ")


def print_held(console: Any, render: Callable[[], None]) -> None:
    """What ``render`` prints on a rich ``console``, wrapped by it with the held spaces
    kept (``held``, ``unbroken``), then written with them spaces again."""
    with console.capture() as captured:
        render()
    console.file.write(released(captured.get()))


def wrapped(text: str, width: int, indent: str = "", hanging: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` where its words allow: the first line after
    ``indent``, the rest after ``hanging``."""
    lines = textwrap.wrap(
        held(text),
        width=width,
        initial_indent=indent,
        subsequent_indent=hanging,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent + held(text)]
    return [released(line) for line in lines]
