"""GitHub Actions annotations: one workflow command per finding, shown on the pull request's
changed lines (``rulesub validate --format github`` in a workflow step)."""

from __future__ import annotations

from typing import Any

#: A finding's severity as the workflow command that shows it.
LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report: Any) -> str:
    lines = []
    for f in report.findings:
        message = f.message + (f" [{f.cite}]" if f.cite else "")
        if f.hint:
            message += f"\nhint: {f.hint}"
        lines.append(
            f"::{LEVEL[f.severity]} file={_property(f.file)},line={f.line},col={f.column},"
            f"title={_property(f.code)}::{_data(message)}"
        )
    return "".join(line + "\n" for line in lines)
