"""Reading one submission file: every problem of form at once, with the model of what
could be read."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.loader import Located, locate_errors
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


def load_submission(path: Path | str, *, display: str | None = None) -> LoadedSubmission:
    """Read and parse one submission. Raises ``LoadError`` when the file cannot be read."""
    located = read_yaml(Path(path), display=display)
    return parse_submission(located)


def parse_submission(located: Located) -> LoadedSubmission:
    data = located.data
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {describe(data)}"
        problem = FormatProblem(
            "rulesub/not-a-submission",
            "a Rules Submission is a mapping of keys (rulesub, game, table, …); "
            f"this file is {what}",
            "",
            1,
            1,
            "start from an example in rulesubs/example/",
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
