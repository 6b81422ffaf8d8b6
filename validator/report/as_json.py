"""``--format json``: ``{"findings": [...], "summary": {"files", "errors", "warnings",
"info"}}``."""

from __future__ import annotations

from typing import Any

from validator import jsonout


def render_json(report: Any) -> str:
    return jsonout.dumps(report.to_dict(), indent=2) + "\n"
