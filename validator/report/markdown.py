"""``--format markdown``: a review a compliance officer can attach to a letter."""

from __future__ import annotations

import re
from typing import Any

from validator import __version__
from validator.report.text import ORDER, summary_line

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


def _cell(text: str | None) -> str:
    return md_text(text or "")


def render_markdown(report: Any) -> str:
    lines = ["# Rules Submission review", ""]
    lines.append(f"Checked with rulesub {__version__}. {summary_line(report.summary)}.")
    lines.append("")
    for result in report.files:
        lines.append(f"## {_cell(result.file)}")
        lines.append("")
        sub = result.submission
        if sub is not None and sub.game:
            parts = [p for p in (sub.certificate_holder, sub.facility) if p]
            effective = f", effective {sub.effective.isoformat()}" if sub.effective else ""
            lines.append(f"{_cell(', '.join(parts))}: {md_code(sub.game)}{effective}.")
            lines.append("")
        waived = _waived(result)
        if not result.findings:
            lines.append("No findings: the submission passes every check rulesub makes.")
            lines.append("")
            lines += waived
            continue
        counts = {s: sum(1 for f in result.findings if f.severity == s) for s in ORDER}
        lines.append(
            f"{counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['info']} note(s) for information."
        )
        lines.append("")
        lines.append("| # | Severity | Finding | Section | Line | What would comply | Code |")
        lines.append("|---|---|---|---|---|---|---|")
        findings = sorted(result.findings, key=lambda f: (ORDER[f.severity], f.line, f.column))
        for i, f in enumerate(findings, 1):
            lines.append(
                f"| {i} | {f.severity} | {_cell(f.message)} | {_cell(f.cite) or '—'} | "
                f"{f.line}:{f.column} | {_cell(f.hint) or '—'} | `{_cell(f.code)}` |"
            )
        lines.append("")
        lines += waived
    return "\n".join(lines)


def _waived(result: Any) -> list[str]:
    """The findings waived in this file, each with the reason given and where."""
    if not result.suppressed:
        return []
    lines = [
        f"Waived ({len(result.suppressed)}), not counted:",
        "",
        "| Severity | Finding | Section | Line | Reason given | Waived in | Code |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in result.suppressed:
        f = s.finding
        lines.append(
            f"| {f.severity} | {_cell(f.message)} | {_cell(f.cite) or '—'} | {f.line}:{f.column} "
            f"| {_cell(s.reason)} | {_cell(s.where)} ({s.waiver}) | `{_cell(f.code)}` |"
        )
    lines.append("")
    return lines
