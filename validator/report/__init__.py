"""Reporters: one module per output format, each rendering the same ``Report``.

``text`` (a rich table grouped by file), ``json``, ``sarif`` (SARIF 2.1.0) and
``markdown`` (a report a compliance officer can attach to a letter).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TextIO


class ReportFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    markdown = "markdown"


def render(report: Any, fmt: ReportFormat | str, out: TextIO) -> None:
    match ReportFormat(fmt):
        case ReportFormat.text:
            from validator.report.text import render_text

            render_text(report, out)
        case ReportFormat.json:
            from validator.report.as_json import render_json

            out.write(render_json(report))
        case ReportFormat.sarif:
            from validator.report.sarif import render_sarif

            out.write(render_sarif(report))
        case ReportFormat.markdown:
            from validator.report.markdown import render_markdown

            out.write(render_markdown(report))
