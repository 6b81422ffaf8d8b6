"""Findings: uniform records of what a check found, rendered by separate reporters."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


@dataclass(frozen=True)
class Finding:
    """One thing a submission gets wrong (or that a reader must know), where it sits."""

    code: str  # "<game>/<constraint-id>" or "rulesub/<problem>"
    severity: Severity
    message: str
    cite: str | None  # "§ 641a.12(d)(3)"; None for a problem of form
    path: str  # JSON pointer into the submission ("" for the whole file)
    file: str
    line: int  # 1-based
    column: int  # 1-based
    hint: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class FileResult:
    """What one file gave: its findings and, when it could be read, the submission."""

    file: str
    findings: list[Finding] = field(default_factory=list)
    submission: Any = None  # RulesSubmission | None
    unreadable: bool = False

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")


@dataclass
class Report:
    files: list[FileResult] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    @property
    def summary(self) -> dict[str, int]:
        counts = Counter(f.severity for f in self.findings)
        return {
            "files": len(self.files),
            "errors": counts["error"],
            "warnings": counts["warning"],
            "info": counts["info"],
        }

    @property
    def exit_code(self) -> int:
        """0 no errors, 1 errors found, 2 a file could not be read."""
        if any(r.unreadable for r in self.files):
            return EXIT_UNREADABLE
        return EXIT_ERRORS if any(r.errors for r in self.files) else EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [f.to_dict() for f in self.findings], "summary": self.summary}
