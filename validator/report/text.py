"""The terminal report: one table per file, worst first within it, then a summary."""

from __future__ import annotations

from typing import Any, TextIO

STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}
ORDER = {"error": 0, "warning": 1, "info": 2}


def _columns() -> int:
    import os

    try:
        return int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        return 0


def summary_line(summary: dict[str, int]) -> str:
    def n(count: int, word: str) -> str:
        return f"{count} {word}" + ("" if count == 1 or word == "info" else "s")

    return (
        f"{n(summary['files'], 'file')} checked: {n(summary['errors'], 'error')}, "
        f"{n(summary['warnings'], 'warning')}, {summary['info']} info"
    )


def render_text(report: Any, out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    width = None if out.isatty() else max(140, _columns())
    console = Console(file=out, highlight=False, soft_wrap=False, width=width)
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
        table.add_column("code", overflow="fold", max_width=48)
        table.add_column("message", overflow="fold", ratio=3)
        table.add_column("section", overflow="fold", max_width=24)
        table.add_column("location", no_wrap=True)
        table.add_column("hint", overflow="fold", ratio=2)
        findings = sorted(result.findings, key=lambda f: (f.line, f.column, ORDER[f.severity]))
        for f in findings:
            table.add_row(
                Text(f.severity, style=STYLES[f.severity]),
                f.code,
                f.message,
                f.cite or "",
                f.location,
                f.hint or "",
            )
        console.print(table)
        console.print()
    console.print(summary_line(report.summary))
