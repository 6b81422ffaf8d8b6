"""Waivers: a finding the certificate holder cannot fix, set aside with a stated reason.

As ruff's ``# noqa``, in the submission itself::

    increment: 3%   # rulesub: ignore[lunar-poker/super-hold] -- the chapter's own table
    # rulesub: file-ignore[lunar-poker/super-hold] -- the chapter's own tables, all three

or in the project's configuration (``per-file-ignores``, see ``validator.checks.config``).
Only a YAML comment waives: the same words inside a value (a quoted facility name, a block
scalar) are the value's text, and waive nothing (``comment_marks``).
A waiver needs its reason (after ``--``); one without is refused and waives nothing. A
waived finding is reported as suppressed, with its reason, and does not count towards the
exit code; a waiver that waives nothing is itself reported, as ruff reports an unused noqa.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from validator.checks.config import ConfigWaiver
from validator.checks.findings import Finding, Suppressed
from validator.checks.rules import generic_rule

WAIVER = re.compile(r"(?:^|\s)#\s*rulesub\s*:\s*(?P<kind>file-ignore|ignore)\b(?P<rest>.*)$")
FORM = re.compile(r"\[(?P<codes>[^\]]*)\]\s*(?:--\s*(?P<reason>.*?))?\s*$")


@dataclass
class Waiver:
    codes: tuple[str, ...]
    reason: str
    line: int  # 1-based
    column: int
    whole_file: bool
    used: set[str]


class _Comments:
    """Which ``#`` of a text begin a YAML comment: those outside every scalar token, as the
    YAML scanner reads the text (up to where it can read it: past a scanning error no
    ``#`` is taken for a comment)."""

    def __init__(self, text: str) -> None:
        import yaml

        loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.limit = len(text)
        try:
            for token in yaml.scan(text, Loader=loader):
                if isinstance(token, yaml.ScalarToken):
                    self.starts.append(token.start_mark.index)
                    self.ends.append(token.end_mark.index)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            self.limit = mark.index if mark is not None else 0
        except (ValueError, RecursionError):
            self.limit = 0

    def begins_comment(self, index: int) -> bool:
        if index >= self.limit:
            return False
        at = bisect.bisect_right(self.starts, index) - 1
        return at < 0 or index >= self.ends[at]


def inline_waivers(text: str, file: str) -> tuple[list[Waiver], list[Finding]]:
    """The waivers written in a submission's comments, and the findings about bad ones."""
    waivers: list[Waiver] = []
    problems: list[Finding] = []
    comments: _Comments | None = None
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        start, offset = offset, offset + len(line)
        line = line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
        if "rulesub" not in line:
            continue
        m = WAIVER.search(line)
        if m is None:
            continue
        column = line.index("#", m.start()) + 1
        comments = comments or _Comments(text)
        if not comments.begins_comment(start + column - 1):
            continue  # the words are inside a value: its text, no waiver
        kind = m.group("kind")
        form = FORM.match(m.group("rest").strip())
        codes = (
            tuple(c.strip() for c in form.group("codes").split(",") if c.strip()) if form else ()
        )
        if not codes:
            problems.append(
                generic_rule("rulesub/bad-waiver").finding(
                    file, line=number, column=column, kind=kind
                )
            )
            continue
        reason = (form.group("reason") or "").strip() if form else ""
        if not reason:
            problems.append(
                generic_rule("rulesub/waiver-without-reason").finding(
                    file, line=number, column=column, kind=kind, codes=", ".join(codes)
                )
            )
            continue
        waivers.append(Waiver(codes, reason, number, column, kind == "file-ignore", set()))
    return waivers, problems


def apply_waivers(
    findings: list[Finding],
    text: str,
    file: str,
    configured: list[ConfigWaiver],
    config_source: str,
) -> tuple[list[Finding], list[Suppressed]]:
    """Split ``findings`` into those that stand and those waived; add the waivers' own."""
    from validator.checks.codes import redirect

    waivers, problems = inline_waivers(text, file)
    for w in waivers:  # a waiver written with a code since renamed still waives it
        w.codes = tuple(redirect(c) for c in w.codes)
    configured = [ConfigWaiver(c.pattern, redirect(c.code), c.reason) for c in configured]
    standing: list[Finding] = []
    suppressed: list[Suppressed] = []
    for f in findings:
        hit = next(
            (w for w in waivers if not w.whole_file and w.line == f.line and f.code in w.codes),
            None,
        ) or next((w for w in waivers if w.whole_file and f.code in w.codes), None)
        if hit is not None:
            hit.used.add(f.code)
            suppressed.append(
                Suppressed(
                    f, hit.reason, "file" if hit.whole_file else "inline", f"{file}:{hit.line}"
                )
            )
            continue
        rule = next((c for c in configured if c.code == f.code), None)
        if rule is not None:
            suppressed.append(Suppressed(f, rule.reason, "config", config_source))
            continue
        standing.append(f)
    for w in waivers:
        for code in w.codes:
            if code not in w.used:
                standing.append(
                    generic_rule("rulesub/unused-waiver").finding(
                        file,
                        line=w.line,
                        column=w.column,
                        code=code,
                        where="in this file" if w.whole_file else "on this line",
                        # the documents' words: no command to run, no file notation
                        remedy="the waiver removed, or its code corrected to one of this "
                        "submission's findings",
                    )
                )
    standing += problems
    standing.sort(key=lambda f: (f.line, f.column, f.code))
    return standing, suppressed
