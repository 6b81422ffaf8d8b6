"""Findings: uniform records of what a check found, rendered by separate reporters."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container
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
    hint: str | None = None  # what would comply, in the file's notation (`validate` prints it)
    remedy: str | None = None  # the same in a person's words, money printed (the documents')
    #: the reason a waiver written in the filing itself gives, where the office has not
    #: granted it (the store and the review pack: ``Checked.as_filed``)
    filing_waiver: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("remedy", "filing_waiver"):  # the shape stays as it was where none is given
            if out[key] is None:
                del out[key]
        return out

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


_RENAME = re.compile(r"rename it to (['\"])(.+)\1$")


def root_causes(findings: list[Finding], stated: Container[str]) -> list[Finding]:
    """Root cause first: a finding about a key under an unknown (or misspelt) key is not
    reported, nor one about the key it was meant to be where that key is not stated (a
    misspelt ``paytabels:`` leaves every ``/paytables/…`` unstated); the unknown key's own
    finding, with its did-you-mean, is. ``stated``: the pointers the file states."""
    under: list[str] = []
    for f in findings:
        if f.code != "rulesub/unknown-key" or not f.path:
            continue
        under.append(f.path)
        meant = _RENAME.search(f.hint or "")
        if meant:
            intended = f"{f.path.rsplit('/', 1)[0]}/{meant.group(2)}"
            if intended not in stated:
                under.append(intended)
    if not under:
        return findings
    return [
        f
        for f in findings
        if f.code == "rulesub/unknown-key"
        or not any(f.path == u or f.path.startswith(u + "/") for u in under)
    ]


@dataclass(frozen=True)
class Suppressed:
    """A finding waived with a stated reason: not counted, never silently dropped."""

    finding: Finding
    reason: str
    waiver: Literal["inline", "file", "config"]
    where: str  # the waiver's own place: "file:line" or the configuration file

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.finding.to_dict(),
            "reason": self.reason,
            "waiver": self.waiver,
            "waived_at": self.where,
        }


@dataclass
class FileResult:
    """What one file gave: its findings and, when it could be read, the submission."""

    file: str
    findings: list[Finding] = field(default_factory=list)
    submission: Any = None  # RulesSubmission | None
    unreadable: bool = False
    suppressed: list[Suppressed] = field(default_factory=list)
    text: str = field(default="", repr=False)  # the file as read (for its waivers)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")


#: ``--fail-on``: the least severe finding that makes the exit code 1.
FAIL_ON: dict[str, tuple[Severity, ...]] = {
    "error": ("error",),
    "warning": ("error", "warning"),
    "info": ("error", "warning", "info"),
    "never": (),
}


@dataclass
class Report:
    files: list[FileResult] = field(default_factory=list)
    fail_on: str = "error"
    skipped: list[str] = field(default_factory=list)  # what a directory walk passed over, why

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    @property
    def suppressed(self) -> list[Suppressed]:
        return [s for r in self.files for s in r.suppressed]

    @property
    def summary(self) -> dict[str, int]:
        counts = Counter(f.severity for f in self.findings)
        out = {
            "files": len(self.files),
            "errors": counts["error"],
            "warnings": counts["warning"],
            "info": counts["info"],
        }
        if self.suppressed:  # the plain shape stays as it was when nothing is waived
            out["suppressed"] = len(self.suppressed)
        return out

    @property
    def exit_code(self) -> int:
        """0 nothing at ``fail_on`` or above, 1 found, 2 a file could not be read."""
        if any(r.unreadable for r in self.files):
            return EXIT_UNREADABLE
        failing = FAIL_ON[self.fail_on]
        return EXIT_ERRORS if any(f.severity in failing for f in self.findings) else EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"findings": [f.to_dict() for f in self.findings]}
        if self.suppressed:
            out["suppressed"] = [s.to_dict() for s in self.suppressed]
        out["summary"] = self.summary
        return out
