"""One behaviour for a Rules Submission with errors, for every command that computes from one.

``par``, ``signage``, ``play``, ``simulate``, ``settle`` (a round under a submission) and
``odds --rulesub`` refuse a submission with errors: its findings on stderr, exit 1. With
``--allow-findings`` they run, and every page, sheet, sign and log they write is marked
DRAFT with the findings listed (``Gate.draft``, ``Gate.notes``). A submission that cannot be
read at all is refused with exit 2, whatever the flag says.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import typer

from validator.cli.common import EXIT_FINDINGS, EXIT_USAGE, fail, say_note
from validator.cli.options import AllowFindingsOption
from validator.counts import plural

__all__ = ["AllowFindingsOption", "Gate", "reads_once", "submission_gate"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Gate:
    """A submission let through: its errors (none for a clean one, or for no submission)."""

    path: Path | None = None
    errors: list[Any] = field(default_factory=list)  # validator.checks.findings.Finding
    #: the findings of the chapter's state on the effective date that are no error (a
    #: chapter rescinded or expired, an amendment not held), as the check found them
    in_force: list[Any] = field(default_factory=list)

    def say_in_force(self) -> list[str]:
        """The chapter's state on the effective date, said on stderr as ``validate`` says
        it (its errors the gate printed already); the notes, with their citations, for a
        document to carry."""
        return [
            say_note(f.code.split("/", 1)[0], f.severity, f.message, f.cite) for f in self.in_force
        ]

    @property
    def draft(self) -> bool:
        return bool(self.errors)

    @property
    def notes(self) -> list[str]:
        """Each error in a person's words: the file and line, what is wrong, the section."""
        from validator.signage.checked import draft_note  # lazily: commands start fast

        return [draft_note(f) for f in self.errors]

    def mark(self) -> dict[str, Any] | None:
        """What a JSON document carries under ``"draft"``: ``None`` for a clean submission."""
        if not self.draft:
            return None
        return {"reason": "made under a Rules Submission with errors", "findings": self.notes}

    def banner_lines(self) -> list[str]:
        """The DRAFT banner of a text document: one heading line, then each finding."""
        if not self.draft:
            return []
        from validator.par.printed import draft_mark  # lazily: commands start fast

        return [draft_mark(len(self.errors)) + ":", *(f"  - {n}" for n in self.notes)]


def unusable(result: Any) -> bool:
    """A submission as checked (``FileResult`` or ``Checked``) that no command can compute
    from: unreadable, naming no game, or naming one rulesub does not have (exit 2)."""
    from validator.model.registry import game_ids

    named = getattr(result.submission, "game", None)
    return bool(result.unreadable) or not isinstance(named, str) or named not in game_ids()


def submission_gate(path: Path | None, *, allow: bool, what: str, game: str | None = None) -> Gate:
    """Read ``path`` as ``rulesub validate`` reads it. Unreadable, naming no game, or a
    submission for another ``game``: exit 2. Errors: printed, then exit 1 unless ``allow``
    (a DRAFT)."""
    if path is None:
        return Gate()
    from validator.checks import validate_file
    from validator.report.text import finding_lines

    result = validate_file(path)
    errors = [f for f in result.findings if f.severity == "error"]
    for f in errors:
        sys.stderr.write("\n".join(finding_lines(f, None)) + "\n")
    if unusable(result):
        raise typer.Exit(EXIT_USAGE)
    named = result.submission.game
    if game is not None and named != game:
        fail(f"{path} is a Rules Submission for {named}, not {game}")
    if errors and not allow:
        fail(
            f"{path} has {plural(len(errors), 'error')} (above): rulesub makes no {what} from a "
            "submission with errors; fix them, or pass --allow-findings for a DRAFT marked "
            "with them",
            EXIT_FINDINGS,
        )
    if errors:
        sys.stderr.write(
            f"rulesub: {path} has {plural(len(errors), 'error')}: {what} marked DRAFT\n"
        )
    from validator.checks.in_force import RULES

    in_force = [
        f for f in result.findings if f.severity != "error" and f.code.split("/")[-1] in RULES
    ]
    return Gate(path, errors, in_force)


def reads_once(command: F) -> F:
    """A command that reads its Rules Submission from disk once: the gate, the reader of
    the table's settings and every other stage of the command share that one read
    (``validator.model.submission.read_once``)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        from validator.model.submission import read_once

        with read_once():
            return command(*args, **kwargs)

    return run  # type: ignore[return-value]
