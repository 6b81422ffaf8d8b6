"""Run a rulesub command in-process on one input and judge the outcome.

An outcome is wrong when an exception escapes the command (a traceback), when it runs past
its time limit (a hang), when its exit code is not 0, 1 or 2, or when it refuses a file
(exit 2) without naming the file with a line and column.
"""

from __future__ import annotations

import re
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from typer.testing import CliRunner

from validator.cli import app

#: Seconds one command may take on one input before it counts as a hang.
TIME_LIMIT = 20.0


class Hang(BaseException):
    """The command ran past ``TIME_LIMIT``."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: Any) -> None:
        raise Hang

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    args: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    problem: str = ""  # "" | traceback | hang | wrong exit | unlocated


@dataclass
class Tally:
    """The counts the closing note reports: inputs, runs, and every kind of wrong outcome."""

    inputs: int = 0
    runs: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.runs += 1
        if outcome.problem:
            self.problems[outcome.problem] += 1
            if len(self.examples) < 20:
                tail = (outcome.stderr or outcome.stdout)[-600:]
                self.examples.append(f"{outcome.problem}: {' '.join(outcome.args)[:200]}\n{tail}")

    def summary(self) -> str:
        return (
            f"{self.inputs} inputs, {self.runs} runs: tracebacks {self.problems['traceback']}, "
            f"hangs {self.problems['hang']}, wrong exits {self.problems['wrong exit']}, "
            f"unlocated errors {self.problems['unlocated']}"
        )


_runner = CliRunner()


def run(
    *args: str, located: str | None = None, named: bool = False, limit: float = TIME_LIMIT
) -> Outcome:
    """``rulesub ARGS`` in this process. ``located``: the name of the input file that an
    exit-2 message must name with ``:line:column`` (or, with ``named``, a path that is no
    regular file: name only)."""
    try:
        with time_limit(limit):
            result = _runner.invoke(app, list(args), catch_exceptions=True)
    except Hang:
        return Outcome(args, -1, "", "", "hang")
    exc = result.exception
    out = Outcome(args, result.exit_code, result.stdout, result.stderr)
    if isinstance(exc, Hang):
        out.problem = "hang"
    elif exc is not None and not isinstance(exc, SystemExit):
        import traceback

        out.problem = "traceback"
        out.stderr += "".join(traceback.format_exception(exc))[-1500:]
    elif result.exit_code not in (0, 1, 2):
        out.problem = "wrong exit"
    elif result.exit_code == 2 and located is not None:
        where = re.compile(re.escape(located) + ("" if named else r":\d+:\d+"))
        if not where.search(result.stderr) and not where.search(result.stdout):
            out.problem = "unlocated"
    return out
