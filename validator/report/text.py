"""The terminal report.

``concise`` (the default), as ruff and check-jsonschema print: one line per finding,
``path:line:col: severity code message [§ section]``, the hint indented under it, a summary
line last. Wrapped at the terminal's width between words, never inside one, so a code can
always be pasted into ``rulesub rules CODE``; not wrapped at all when the output is not a
terminal and no width is set (a CI log, a pipe), so that every finding is one grep-able line.

``full`` is a table per file, worst first within it, then the summary.

User text (keys, values, file names) is never read as markup: it is printed as it is.
"""

from __future__ import annotations

import os
import shutil
from typing import Any, TextIO

from validator.wrapping import HELD, wrapped

STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}
ORDER = {"error": 0, "warning": 1, "info": 2}


def width_of(out: TextIO) -> int | None:
    """The width to wrap at: ``COLUMNS``, else the terminal's, else none."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if out.isatty():
        return shutil.get_terminal_size().columns
    return None


def summary_line(summary: dict[str, int]) -> str:
    def n(count: int, word: str) -> str:
        return f"{count} {word}" + ("" if count == 1 or word == "info" else "s")

    line = (
        f"{n(summary['files'], 'file')} checked: {n(summary['errors'], 'error')}, "
        f"{n(summary['warnings'], 'warning')}, {summary['info']} info"
    )
    if summary.get("suppressed"):
        line += f" ({summary['suppressed']} waived)"
    return line


def _wrap(text: str, width: int | None, indent: str) -> list[str]:
    if width is None:
        return [text]
    return wrapped(text, max(width, 40), hanging=indent)


def finding_lines(f: Any, width: int | None) -> list[str]:
    """One finding as the concise report prints it (plain text). Where it fits, the first
    line always holds the place, the severity and the code together."""
    lead = f"{f.location}: {f.severity} {f.code}"
    if width is not None and len(lead) <= width:
        lead = lead.replace(" ", HELD)
    elif width is not None:
        lead = f"{f.location}:{HELD}{f.severity} {f.code}"
    head = f"{lead} {f.message}"
    if f.cite:
        head += f" [{f.cite}]"
    lines = _wrap(head, width, "    ")
    if f.hint:
        lines += _wrap(f"    hint: {f.hint}", width, "          ")
    return lines


def render_concise(report: Any, out: TextIO) -> None:
    from rich.console import Console
    from rich.text import Text

    width = width_of(out)
    color = out.isatty() and "NO_COLOR" not in os.environ
    console = Console(
        file=out,
        highlight=False,
        soft_wrap=True,
        markup=False,
        emoji=False,
        force_terminal=color or None,
        no_color=not color,
    )
    findings = sorted(
        (f for r in report.files if not r.unreadable for f in r.findings),
        key=lambda f: (f.file, f.line, f.column, ORDER[f.severity], f.code),
    )
    for f in findings:
        for i, line in enumerate(finding_lines(f, width)):
            text = Text(line)
            if i == 0:
                start = len(f.location) + 2
                text.stylize(STYLES[f.severity], start, start + len(f.severity))
                text.stylize(
                    "bold", start + len(f.severity) + 1, start + len(f.severity) + 1 + len(f.code)
                )
            console.print(text)
    console.print(Text(summary_line(report.summary)))


#: The least width the full report's message and hint columns need to be read as prose.
MESSAGE_COLUMN, HINT_COLUMN = 40, 24


def table_width(findings: list[Any]) -> int:
    """The width the full report's table needs so that no word is broken: the severity, code
    and location columns whole, the section to 24, the message and hint as prose."""
    if not findings:
        return 0
    code = max(min(len(f.code), 48) for f in findings)
    section = max(min(len(f.cite or ""), 24) for f in findings)
    location = max(len(f.location) for f in findings)
    return len("severity") + code + section + location + MESSAGE_COLUMN + HINT_COLUMN + 5 * 3


def render_stacked(report: Any, out: TextIO, width: int) -> None:
    """The full report where the terminal is narrower than its table: each finding a block
    (its severity and code, where, the section, the message, the hint), wrapped at word
    boundaries only."""
    lines: list[str] = []
    for result in report.files:
        if result.unreadable:
            continue
        if not result.findings:
            lines.append(f"{result.file}  no findings")
            continue
        lines.append(result.file)
        for f in sorted(result.findings, key=lambda f: (f.line, f.column, ORDER[f.severity])):
            lines += _wrap(f"  {f.severity} {f.code}", width, "    ")
            where = f"    at {f.location}" + (f", {f.cite}" if f.cite else "")
            lines += _wrap(where, width, "      ")
            lines += _wrap(f"    {f.message}", width, "    ")
            if f.hint:
                lines += _wrap(f"    hint: {f.hint}", width, "          ")
            lines.append("")
    lines.append(summary_line(report.summary))
    out.write("\n".join(lines) + "\n")


def render_full(report: Any, out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    width = width_of(out)
    needed = table_width(report.findings)
    if width is not None and width < needed:
        render_stacked(report, out, width)
        return
    console = Console(
        file=out,
        highlight=False,
        soft_wrap=False,
        width=width or max(needed, 80),
        markup=False,
        emoji=False,
    )
    for result in report.files:
        if result.unreadable:
            continue  # said on stderr with its line and column
        head = Text(result.file, style="bold")
        if not result.findings:
            head.append("  no findings", style="green")
            console.print(head)
            continue
        console.print(head)
        table = Table(show_edge=False, header_style="bold", pad_edge=False, expand=False)
        table.add_column("severity", no_wrap=True)
        longest = max(min(len(f.code), 48) for f in result.findings)
        table.add_column("code", overflow="fold", min_width=longest, max_width=48)
        table.add_column("message", overflow="fold", ratio=3)
        table.add_column("section", overflow="fold", max_width=24)
        table.add_column("location", no_wrap=True)
        table.add_column("hint", overflow="fold", ratio=2)
        findings = sorted(result.findings, key=lambda f: (f.line, f.column, ORDER[f.severity]))
        for f in findings:
            table.add_row(
                Text(f.severity, style=STYLES[f.severity]),
                Text(f.code),
                Text(f.message),
                Text(f.cite or ""),
                Text(f.location),
                Text(f.hint or ""),
            )
        console.print(table)
        console.print()
    console.print(Text(summary_line(report.summary)))


def render_text(report: Any, out: TextIO, output_format: str = "concise") -> None:
    if output_format == "full":
        render_full(report, out)
    else:
        render_concise(report, out)
