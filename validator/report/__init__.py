"""Reporters: one module per output format, each rendering the same ``Report``.

``text`` (one line per finding, or with ``--output-format full`` a table per file),
``json``, ``sarif`` (SARIF 2.1.0), ``markdown`` (a report a compliance officer can attach
to a letter) and ``github`` (GitHub Actions annotations).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TextIO


class ReportFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    markdown = "markdown"
    github = "github"


class OutputFormat(StrEnum):
    """The text report's layout: one line per finding, or a table per file."""

    concise = "concise"
    full = "full"


def render(
    report: Any, fmt: ReportFormat | str, out: TextIO, output_format: str = "concise"
) -> None:
    match ReportFormat(fmt):
        case ReportFormat.text:
            from validator.report.text import render_text

            render_text(report, out, output_format)
        case ReportFormat.json:
            from validator.report.as_json import render_json

            out.write(render_json(report))
        case ReportFormat.sarif:
            from validator.report.sarif import render_sarif

            out.write(render_sarif(report))
        case ReportFormat.markdown:
            from validator.report.markdown import render_markdown

            out.write(render_markdown(report))
        case ReportFormat.github:
            from validator.report.github import render_github

            out.write(render_github(report))
