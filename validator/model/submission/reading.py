"""Reading one submission file: every problem of form at once, with the model of what
could be read."""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.loader import Located, locate_errors, read_bytes
from validator.model.submission.document import RulesSubmission
from validator.model.submission.plain_yaml import read_yaml
from validator.model.submission.pointers import known_keys, prune
from validator.model.submission.problems import (
    FormatProblem,
    describe,
    empty_values,
    missing_keys,
    problem_of,
)


@dataclass
class LoadedSubmission:
    located: Located
    submission: RulesSubmission | None  # None: not a mapping at all
    problems: list[FormatProblem] = field(default_factory=list)


@dataclass(frozen=True)
class _Read:
    """One submission file as a command read it: its bytes, and what they parse to."""

    raw: bytes
    loaded: LoadedSubmission

    def copy(self) -> LoadedSubmission:
        kept = self.loaded
        return LoadedSubmission(kept.located, kept.submission, list(kept.problems))


#: The submissions one command has read, by their absolute path (see ``read_once``).
_READ: ContextVar[dict[str, _Read] | None] = ContextVar("read", default=None)


@contextmanager
def read_once() -> Iterator[None]:
    """Within, each submission file is read from disk and parsed once, however many stages
    of one command ask for it (the gate that validates it, the reader of its table
    settings, the cover that identifies it): every stage sees the same bytes, even if the
    file changes while the command runs (its digest, ``submission_bytes``, included).
    Outside, every call reads the file."""
    token = _READ.set({})
    try:
        yield
    finally:
        _READ.reset(token)


def load_submission(path: Path | str, *, display: str | None = None) -> LoadedSubmission:
    """Read and parse one submission. Raises ``LoadError`` when the file cannot be read."""
    read = _READ.get()
    if read is None:
        return parse_submission(read_yaml(Path(path), display=display))
    key = os.path.abspath(path)
    if key not in read:
        raw = read_bytes(path, display=display or str(path))
        located = read_yaml(Path(path), display=display, raw=raw)
        read[key] = _Read(raw, parse_submission(located))
    return read[key].copy()


def submission_bytes(path: Path | str) -> bytes:
    """The bytes of a submission file: as this command read them (``read_once``), else as
    they are on disk now."""
    read = _READ.get()
    kept = read.get(os.path.abspath(path)) if read is not None else None
    return kept.raw if kept is not None else Path(path).read_bytes()


def parse_submission(located: Located) -> LoadedSubmission:
    data = located.data
    if not isinstance(data, dict):
        what = describe(data)
        problem = FormatProblem(
            "rulesub/not-a-submission",
            "a Rules Submission is a mapping of keys (rulesub, game, table, …); "
            f"this file is {what}",
            "",
            1,
            1,
            "start from an example Rules Submission (rulesub's source keeps them in "
            "rulesubs/example/), or write one by the game's schema (`rulesub schema export`)",
        )
        return LoadedSubmission(located, None, [problem])
    problems: list[FormatProblem] = []
    seen: set[tuple[str, str]] = set()
    work = copy.deepcopy(data)
    submission: RulesSubmission | None = None
    from pydantic import ValidationError

    dropped: list[str] = []
    for _ in range(8):  # each pass drops what was wrong; the model has no required field
        try:
            submission = RulesSubmission.model_validate(work)
            break
        except ValidationError as exc:
            known = known_keys(work)
            drop: list[str] = []
            for raw in exc.errors(include_url=False):
                located_errors = locate_errors(_OneError(raw), located, known)
                if not located_errors:
                    continue
                err = located_errors[0]
                drop.append(err.pointer)
                if any(d.startswith(err.pointer.rstrip("/") + "/") for d in dropped):
                    continue  # a list or mapping left short by a value already reported
                problem = problem_of(err, raw, located)
                if (problem.pointer, problem.code) not in seen:
                    seen.add((problem.pointer, problem.code))
                    problems.append(problem)
            dropped += drop
            if not prune(work, drop):
                break
    problems += missing_keys(data, located)
    problems += [p for p in empty_values(data, located) if (p.pointer, p.code) not in seen]
    return LoadedSubmission(located, submission, problems)


@dataclass
class _OneError:
    """One pydantic error, shaped like a ``ValidationError`` for ``locate_errors``."""

    error: Mapping[str, Any]

    def errors(self, include_url: bool = False) -> list[Mapping[str, Any]]:
        return [self.error]
