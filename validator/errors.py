"""The one base of every error rulesub raises, and the errors several stages share.

Every exception class the package defines derives from :class:`RulesubError`, so that one
place (``validator.cli.common.refuse``) turns any of them into what the officer reads and
the exit code the command stops with: unreadable input is exit 2 with the file, line and
column, never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

#: The exit code of input that cannot be used (a file unreadable, a value impossible).
EXIT_USAGE = 2


class RulesubError(Exception):
    """An error of rulesub: optionally where it lies (file, line, column), the code of the
    rule it breaks, and the exit code a command stops with when it meets it."""

    #: The exit code a command stops with (2: the input could not be used).
    exit_code: ClassVar[int] = EXIT_USAGE

    file: str | None
    line: int | None
    column: int | None
    code: str | None

    def __init__(
        self,
        *args: object,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(*args)
        self.file, self.line, self.column, self.code = file, line, column, code

    def where(self) -> str:
        """``file:line:column: `` where the error knows its place, else ``""``."""
        file = getattr(self, "file", None)
        if not file:
            return ""
        line = getattr(self, "line", None) or 1
        column = getattr(self, "column", None) or 1
        return f"{file}:{line}:{column}: "


class LocatedErrors(RulesubError):
    """Several problems of one input, each a :class:`RulesubError` that says where it lies
    (``file:line:column: what``); printed one a line."""

    def __init__(self, errors: Sequence[RulesubError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = list(errors)


class ConfigError(LocatedErrors):
    """A configuration or a submission's value that cannot be used: a configuration file's
    path and what is wrong, or the submission's problems each at file:line:column."""

    def __init__(self, problem: str | Sequence[RulesubError]) -> None:
        if isinstance(problem, str):
            super().__init__([])
            self.args = (problem,)
        else:
            super().__init__(problem)


def messages(e: RulesubError, where: str = "") -> list[str]:
    """What the officer reads of an error, one line each: the problems of an input each at
    its place, or ``rulesub: ``, ``where`` (``file:line:column: `` the caller found) and the
    error."""
    if isinstance(e, LocatedErrors) and e.errors:
        return [str(err) for err in e.errors]
    return [f"rulesub: {where}{e}"]
