"""A Rules Submission read and checked by the validator, for the commands built on it.

``signage`` prints nothing for a submission with errors; ``diff`` reports the findings the
new submission has and the old did not. Both take the validator's findings as they are;
``signage`` and the review pack take the game the submission names from ``Checked.game``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Checked:
    """One submission file: its findings, and the submission when it could be read."""

    file: str
    findings: list[Any] = field(default_factory=list)  # validator.checks.findings.Finding
    submission: Any = None  # validator.model.submission.RulesSubmission | None
    unreadable: bool = False
    path: str = ""  # the file read (``file`` is its name as shown)
    #: the findings the filing's own waivers set aside (``validator.checks.findings.Suppressed``)
    waived: list[Any] = field(default_factory=list)

    def as_filed(self) -> list[Any]:
        """Every finding of the filing, its own waivers set aside: a waiver written in a
        submission is the filer's request, which an office grants only at approval
        (``approve --waive``), never by the filer's word. Each such finding carries the
        reason the filing gives (``filing_waiver``)."""
        asked = [
            dataclasses.replace(
                s.finding, filing_waiver=f"{s.reason} (line {s.where.rsplit(':', 1)[-1]})"
            )
            for s in self.waived
            if s.waiver in ("inline", "file")
        ]
        return sorted([*self.findings, *asked], key=lambda f: (f.line, f.column, f.code))

    def where(self, pointer: str) -> str | None:
        """``file:line`` of the value at ``pointer``, where the file states it (one read
        within ``read_once``); None where it states none or cannot be read again."""
        from validator.errors import RulesubError
        from validator.model.submission import load_submission

        try:
            located = load_submission(self.path, display=self.file).located
        except (RulesubError, OSError):
            return None
        stated = located.positions.get(pointer) or located.key_positions.get(pointer)
        return None if stated is None else f"{self.file}:{stated.line}"

    @property
    def errors(self) -> list[Any]:
        return [f for f in self.findings if f.severity == "error"]

    def game(self) -> Any:
        """The game the submission names (``validator.compiler.Game``): ``None`` where
        it names none, or an id no game file has; a game file that cannot be compiled raises
        ``GameFileError`` with its positions."""
        from validator.compiler import load_game

        game_id = getattr(self.submission, "game", None)
        if not isinstance(game_id, str):
            return None
        try:
            return load_game(game_id)
        except KeyError:
            return None


def check_submission(path: Path | str, *, display: str | None = None, as_of: Any = None) -> Checked:
    """Validate one file with ``rulesub validate``'s checks."""
    from validator.checks import validate_file
    from validator.checks.config import Settings

    settings = Settings(Path.cwd(), as_of=as_of) if as_of is not None else None
    result = validate_file(Path(path), settings=settings)
    checked = Checked(
        file=display or str(path),
        findings=list(result.findings),
        submission=result.submission,
        unreadable=bool(getattr(result, "unreadable", False)),
        path=str(path),
        waived=list(getattr(result, "suppressed", [])),
    )
    if display is not None:
        checked.findings = [_relocated(f, display) for f in checked.findings]
        checked.waived = [
            dataclasses.replace(s, finding=_relocated(s.finding, display)) for s in checked.waived
        ]
    return checked


def _relocated(finding: Any, display: str) -> Any:
    """The finding, reported against ``display`` (git's path, not its temporary file)."""
    import dataclasses

    is_record = dataclasses.is_dataclass(finding) and not isinstance(finding, type)
    if is_record and hasattr(finding, "file"):
        return dataclasses.replace(finding, file=display)
    return finding


def describe(finding: Any) -> str:
    """One finding on one line: ``file:line:column: severity code: message [cite]``."""
    cite = f" [{finding.cite}]" if getattr(finding, "cite", None) else ""
    where = f"{finding.file}:{finding.line}:{finding.column}"
    return f"{where}: {finding.severity} {finding.code}: {finding.message}{cite}"


def draft_note(finding: Any, game: Any = None) -> str:
    """One finding as a document lists it (a DRAFT's list, a pack's signs): ``file, line N:
    message (§ …)`` — no finding code, no directories, each field named in words (under
    ``game``'s names where given)."""
    from validator.diff.names import in_words

    cite = f" ({finding.cite})" if getattr(finding, "cite", None) else ""
    said = in_words(game, finding.message)
    return f"{Path(str(finding.file)).name}, line {finding.line}: {said}{cite}"
