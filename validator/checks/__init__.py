"""Checks of Rules Submissions against the regulation.

Public API::

    validate_paths(paths) -> Report        # files and directories, recursively
    validate_file(path) -> FileResult      # .findings, .submission (None if unreadable)

A ``Finding`` has ``code`` (``<game>/<constraint-id>`` or ``rulesub/<problem>``),
``severity`` (error | warning | info), ``message``, ``cite``, ``path`` (JSON pointer),
``file``, ``line``, ``column`` and ``hint``.
"""

from __future__ import annotations

from validator.checks.engine import validate_file, validate_paths
from validator.checks.findings import FileResult, Finding, Report

__all__ = ["FileResult", "Finding", "Report", "validate_file", "validate_paths"]
