"""Text written into Markdown as written: never markup, never HTML. One escaper for every
Markdown document rulesub writes (findings, the review pack, its diff and its signs)."""

from __future__ import annotations

import re

#: Read as markup by a Markdown renderer; each is written after a backslash.
_MARKUP = "\\`*_[]|#"
_ENTITY_LIKE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


def md_text(text: object) -> str:
    """Text from a submission (or a user) as Markdown shows it as written: never markup,
    never HTML. ``<`` and ``>`` become entities (every renderer reads them; a backslash
    before ``<`` is no escape to some), an ``&`` that would start an entity too; the
    characters of Markdown's own markup get a backslash; a line break is a space, so that
    a value cannot start a block of its own."""
    out = "" if text is None else str(text)
    out = _ENTITY_LIKE.sub("&amp;", out).replace("<", "&lt;").replace(">", "&gt;")
    for ch in _MARKUP:
        out = out.replace(ch, "\\" + ch)
    return " ".join(out.splitlines()) if ("\n" in out or "\r" in out) else out


def md_code(text: object) -> str:
    """Text as a code span, whatever backticks it holds: the fence is one backtick longer
    than its longest run, so the span cannot be closed early (and HTML inside a code span
    is shown as written). A ``|`` is escaped for the tables it may stand in."""
    out = " ".join(("" if text is None else str(text)).splitlines()).replace("|", "\\|")
    runs = [len(m) for m in re.findall(r"`+", out)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if out.startswith("`") or out.endswith("`") else ""
    return f"{fence}{pad}{out}{pad}{fence}"
