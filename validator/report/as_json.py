"""``--format json``: ``{"findings": [...], "summary": {"files", "errors", "warnings",
"info"}}``."""

from __future__ import annotations

import json
from typing import Any


def render_json(report: Any) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
