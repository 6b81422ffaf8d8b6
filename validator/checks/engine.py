"""Validate Rules Submissions: read, check the form, check the game's constraints, report.

Nothing the user gave is modified: files are only read.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.checks.findings import FileResult, Finding, Report, root_causes
from validator.checks.rules import constraint_rules, generic_rule
from validator.loader import LoadError, Located, did_you_mean, is_wide
from validator.pointer import join

if TYPE_CHECKING:
    from validator.checks.config import Settings
    from validator.checks.facts import GameFacts
    from validator.compiler import Game
    from validator.model.submission import RulesSubmission

SUFFIXES = (".yaml", ".yml")


def display_name(path: Path) -> str:
    """A path as reports name it: relative to the working directory where it lies under it;
    as given where it cannot be resolved (a loop of symbolic links). A symbolic link keeps
    its own name (its folder resolved, not the link): the file the user named, and a
    dangling link is not reported under the name of the file it misses."""
    try:
        where = (
            path.resolve() if path.name in ("", ".", "..") else path.parent.resolve() / path.name
        )
        return str(where.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


#: A Rules Submission starts with its format version: ``rulesub: 1`` at the top level.
SUBMISSION_KEY = re.compile(rb"^(?:\{\s*)?[\"']?rulesub[\"']?\s*:", re.M)
#: ... and names its certificate holder and its game: a file that does, its ``rulesub:``
#: misspelt or left out, is a submission to check (and be told so), never passed over
SUBMISSION_NAMES = (
    re.compile(rb"^[\"']?certificate_holder[\"']?[ \t]*:", re.M),
    re.compile(rb"^[\"']?game[\"']?[ \t]*:", re.M),
)
#: a round file (``settle``'s input) names the submission it was played under in its own
#: ``rulesub:`` (a path, never a version number) beside its ``seats:``: not a submission
ROUND_FILE_KEYS = (
    # the value on the key's line or, indented, on the next; a version number (``1``, its
    # line ended by ``\n`` or ``\r\n``) is a submission's
    re.compile(
        rb"^rulesub[ \t]*:(?:[ \t]*(?:#[^\n]*)?\r?\n(?=[ \t]))?[ \t]*"
        rb"(?![\"']?\d+[\"']?[ \t]*(?:#[^\n]*)?\r?$)[^\s#]",
        re.M,
    ),
    re.compile(rb"^seats[ \t]*:", re.M),
)
SNIFF_BYTES = 64 * 1024


@dataclass
class Discovery:
    """What a walk over files and directories found to check, and what it passed over."""

    files: list[Path] = field(default_factory=list)
    other_yaml: list[Path] = field(default_factory=list)  # YAML without a top-level rulesub:
    excluded: list[Path] = field(default_factory=list)
    rounds: list[Path] = field(default_factory=list)  # round files, passed over
    notes: list[str] = field(default_factory=list)  # symlink loops and the like, said aloud

    @property
    def skipped(self) -> list[str]:
        out = list(self.notes)
        if self.other_yaml:
            n = len(self.other_yaml)
            out.append(
                f"skipped {n} YAML file{'s' if n != 1 else ''} that "
                f"{'are' if n != 1 else 'is'} not a Rules Submission (no top-level `rulesub:` key)"
            )
        if self.rounds:
            n = len(self.rounds)
            out.append(
                f"skipped {n} round file{'s' if n != 1 else ''} (a `rulesub:` naming the "
                "submission a round was played under, beside its `seats:`): `settle` reads them"
            )
        if self.excluded:
            n = len(self.excluded)
            out.append(f"excluded {n} path{'s' if n != 1 else ''} (exclude settings)")
        return out


def _head(path: Path) -> bytes | None:
    """The first bytes of a file as the sniffs read them; None: it cannot be opened."""
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    if is_wide(head):  # ASCII's bytes without their NULs: the reader then names the encoding
        head = head.replace(b"\x00", b"").lstrip(b"\xff\xfe")
    return head.removeprefix(codecs.BOM_UTF8)


def is_submission(path: Path) -> bool:
    """Whether a regular file reads as a Rules Submission: a top-level ``rulesub:`` key, or
    the ``certificate_holder:`` and ``game:`` only a submission names (a file whose
    ``rulesub:`` is misspelt is checked and told so, where a directory's run passed it)."""
    head = _head(path)
    if head is None:
        return True  # unreadable: let the reader say why, with exit code 2
    if SUBMISSION_KEY.search(head) is not None:
        return True
    return all(key.search(head) for key in SUBMISSION_NAMES)


def is_round_file(path: Path) -> bool:
    """Whether a file that has a top-level ``rulesub:`` is a round file instead: the key
    names a file (``rulesub: lunar-poker.yaml``) and the file deals ``seats:``."""
    head = _head(path)
    return head is not None and all(key.search(head) for key in ROUND_FILE_KEYS)


def discover(paths: Iterable[Path | str], settings: Settings | None = None) -> Discovery:
    """Files and directories → the submissions to check, in order, once each.

    A file named on the command line is always checked. In a directory, the ``*.yaml`` and
    ``*.yml`` files with a top-level ``rulesub:`` key are; other YAML (CI workflows,
    pre-commit configuration) is counted and passed over; excluded paths are never walked.
    An entry that is not a regular file (a FIFO, a dangling link, a link loop), or a
    directory that cannot be listed, is kept, so that it is reported as unreadable rather
    than silently skipped.
    """
    import os
    import stat

    found = Discovery()
    seen: set[Path] = set()

    def add(p: Path) -> None:
        key = Path(os.path.abspath(p))
        if key not in seen:
            seen.add(key)
            found.files.append(p)

    for raw in paths:
        top = Path(raw)
        if not top.is_dir():
            add(top)
            continue
        walked: set[tuple[int, int]] = set()

        def blocked(e: OSError) -> None:  # a directory it may not list: reported, not passed
            if e.filename is not None:
                add(Path(e.filename))

        for directory, dirs, names in os.walk(top, onerror=blocked, followlinks=True):
            here = Path(directory)
            st = here.stat()
            if (st.st_dev, st.st_ino) in walked:
                found.notes.append(f"{here}: a symbolic link loop, not walked again")
                dirs[:] = []
                continue
            walked.add((st.st_dev, st.st_ino))
            keep = []
            for d in sorted(dirs):
                if settings is not None and settings.excluded(here / d):
                    found.excluded.append(here / d)
                else:
                    keep.append(d)
            dirs[:] = keep
            for name in sorted(names):
                p = here / name
                if p.suffix not in SUFFIXES:
                    continue
                if settings is not None and settings.excluded(p):
                    found.excluded.append(p)
                    continue
                try:
                    regular = stat.S_ISREG(p.stat().st_mode)
                except OSError:
                    regular = False  # dangling link or loop: reported as unreadable
                if regular and not is_submission(p):
                    found.other_yaml.append(p)
                    continue
                if regular and is_round_file(p):
                    found.rounds.append(p)
                    continue
                add(p)
    return found


def submission_files(paths: Iterable[Path | str]) -> list[Path]:
    """The submissions under ``paths`` (see ``discover``)."""
    return discover(paths).files


def validate_paths(
    paths: Iterable[Path | str],
    settings: Settings | None = None,
    *,
    progress: Any = None,
    regulation_notes: bool = False,
) -> Report:
    """Every submission under ``paths``; a file that cannot be read does not stop the rest."""
    found = discover(paths, settings)
    results = []
    for p in found.files:
        results.append(validate_file(p, settings=settings, regulation_notes=regulation_notes))
        if progress is not None:
            progress()
    fail_on = settings.fail_on if settings is not None and settings.fail_on else "error"
    return Report(results, fail_on=fail_on, skipped=found.skipped)


_CONSTRAINTS: dict[str, tuple[Any, tuple[Any, ...]]] = {}


def constraints_for(game: Game) -> tuple[Any, ...]:
    """The game's constraints: derived from its file, then the ones it lists."""
    cached = _CONSTRAINTS.get(game.id)
    if cached is None or cached[0] is not game.definition:
        cached = (game.definition, _constraints(game))
        _CONSTRAINTS[game.id] = cached
    return cached[1]


def _constraints(game: Game) -> tuple[Any, ...]:
    from validator.checks.derive import derived_constraints

    derived = derived_constraints(game.definition)
    own = list(game.definition.constraints)
    ids = [c.id for c in derived]
    clash = {c.id for c in own} & set(ids)
    if clash:
        raise ValueError(
            f"{game.id}: constraint ids {sorted(clash)} are derived from the game file; "
            "choose other ids"
        )
    return (*derived, *own)


def validate_file(
    path: Path | str,
    *,
    display: str | None = None,
    settings: Settings | None = None,
    regulation_notes: bool = False,
) -> FileResult:
    """One submission: its findings (waivers applied) and, when read, the submission. Facts
    about the regulation itself (``checks.rules.REGULATION_NOTE_KINDS``), which the
    submission cannot act on, only with ``regulation_notes``."""
    path = Path(path)
    name = display or display_name(path)
    try:
        result = _check_file(path, name, settings.as_of if settings is not None else None)
    except (ValueError, ArithmeticError, RecursionError, OverflowError, UnicodeError) as e:
        # A value no reader should have let through: this file is reported unreadable, at
        # its start, and every other file of the batch is still checked.
        return _unreadable(name, LoadError(name, 1, 1, f"cannot be read: {e}"))
    if result.unreadable or (result.submission is None and not result.findings):
        return result
    from validator.checks.waivers import apply_waivers

    configured = settings.waivers_for(path) if settings is not None else []
    source = str(settings.source) if settings is not None and settings.source else ""
    result.findings, result.suppressed = apply_waivers(
        result.findings, result.text, name, configured, source
    )
    if not regulation_notes:
        from validator.checks.rules import is_regulation_note

        result.findings = [f for f in result.findings if not is_regulation_note(f.code)]
    return result


def _check_file(path: Path, name: str, as_of: dt.date | None = None) -> FileResult:
    from validator.model.submission import load_submission

    try:
        loaded = load_submission(path, display=name)
    except LoadError as e:
        return _unreadable(name, e)
    located = loaded.located
    findings = [  # the reader says where each problem of form is
        generic_rule(p.code).finding(
            name,
            pointer=p.pointer,
            at="given",
            line=p.line,
            column=p.column,
            message=p.message,
            hint=p.hint,
        )
        for p in loaded.problems
    ]
    result = FileResult(name, findings, loaded.submission)
    result.text = located.text
    submission = loaded.submission
    if submission is None:
        return result
    game_id = submission.game
    facts = _game(game_id, located, name, findings) if game_id is not None else None
    if facts is None or not _states_wager_limits(facts):
        findings += _wager_limits(submission, located, name)
    if facts is not None:
        findings[:] = [f for f in findings if not _unregulated(facts, f)]
        findings += _in_force(facts, submission, located, name, as_of)
        game_findings = check_submission(facts, submission, located, name)
        # a value the game's own rule refuses, with its section, stands for the form's
        # generic refusal of it (a Kill option § 553.12(m) does not name)
        cited = {f.path for f in game_findings if f.severity == "error" and f.cite}
        findings[:] = [f for f in findings if not (f.code in _REFUSED and f.path in cited)]
        findings += game_findings
    findings[:] = root_causes(findings, located.positions)
    findings.sort(key=lambda f: (f.line, f.column, f.code))
    return result


def _unregulated(facts: GameFacts, finding: Finding) -> bool:
    """A key the form asks of every game that this game's rule source does not regulate:
    the deck-change hours where it sets none (the house 7 Card Stud procedures)."""
    return (
        finding.code == "rulesub/missing-key"
        and finding.path == "/dealing/change_every_hours"
        and facts.definition.cards.change_every_hours is None
    )


#: The form's refusals of a value that a game's rule may refuse in its own words.
_REFUSED = frozenset({"rulesub/bad-value"})


def _unreadable(name: str, e: LoadError) -> FileResult:
    finding = generic_rule("rulesub/unreadable").finding(
        e.file, line=e.line, column=e.column, message=e.message
    )
    if e.whole:  # nothing in the file to fix at a line: the file itself is the wrong one
        # (said for a path and an upload alike)
        hint = "give the Rules Submission's own YAML file, saved as UTF-8 text"
        finding = replace(finding, hint=hint, remedy=hint)
    return FileResult(name, [finding], None, unreadable=True)


def _game(game_id: str, located: Located, name: str, findings: list[Finding]) -> GameFacts | None:
    from validator.checks.facts import facts_for, known_games

    known = known_games()
    if game_id not in known:
        findings.append(
            generic_rule("rulesub/unknown-game").finding(
                name,
                located=located,
                pointer="/game",
                game=game_id,
                close=did_you_mean(game_id, known),
                games=", ".join(known),
            )
        )
        return None
    return facts_for(game_id)


def _in_force(
    facts: GameFacts,
    submission: RulesSubmission,
    located: Located,
    name: str,
    as_of: dt.date | None,
) -> list[Finding]:
    """What the date the submission is checked for (``--as-of``, else its own
    ``effective:``) means for the game's encoded text (``checks/in_force.py``)."""
    from validator.checks.in_force import findings

    date = as_of if as_of is not None else submission.effective
    if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
        return []  # no date, or not one: the form's own findings say so
    pointer = "" if as_of is not None else "/effective"
    pos = located.position(pointer) if pointer else located.position("/game")
    return findings(facts, date, name, pointer, pos.line, pos.column, submission, located)


def _states_wager_limits(facts: GameFacts) -> bool:
    """Whether the game's own constraints hold the minimum wager to the maximum, with the
    section that says so (§ 553.18): then the generic check gives way to it."""
    return any(
        getattr(c, "than", None) == "/table/max_wager" and "/table/min_wager" in c.pointers
        for c in facts.constraints
    )


def _wager_limits(submission: RulesSubmission, located: Located, name: str) -> list[Finding]:
    table = submission.table
    lo, hi = (table.min_wager, table.max_wager) if table is not None else (None, None)
    if lo is None or hi is None or lo <= hi:
        return []
    from validator.model.notation import format_money

    rule = generic_rule("rulesub/wager-limits")
    return [
        rule.finding(
            name,
            located=located,
            pointer="/table/min_wager",
            low=format_money(lo),
            high=format_money(hi),
        )
    ]


def check_submission(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> list[Finding]:
    """The game-aware checks of form, then every constraint of the game."""
    from validator.checks.kinds import Context, evaluate

    findings = _game_keys(facts, submission, located, name)
    ctx = Context(facts, submission, located.data)
    rules = constraint_rules(facts.id, facts.constraints)
    for c in facts.constraints:
        rule = rules[c.id]
        for v in evaluate(c, ctx):
            findings.append(
                rule.finding(
                    name,
                    located=located,
                    pointer=v.pointer,
                    at="key" if v.key else None,
                    detail=v.detail,
                    cite=v.cite,
                    hint=v.hint,
                    remedy=v.remedy,
                )
            )
    return findings


def _game_keys(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> list[Finding]:
    """Keys and values that only the game file can tell right from wrong."""
    return [
        *_offered(facts, submission, located, name),
        *_listed_twice(submission, located, name),
        *_table_keys(facts, submission, located, name),
        *_streets(facts, submission, located, name),
        *_poker_keys(facts, submission, located, name),
    ]


def _offered(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> Iterator[Finding]:
    """Each wager ``offered`` lists: an optional wager (or optional payout) of the game."""
    rule = generic_rule("rulesub/bad-value")
    optional = [w for w, wager in facts.wagers.items() if wager.optional]
    optional_payouts = [tid for tid, t in facts.tables.items() if t.optional_payout]
    hint = f"the optional wagers are: {', '.join(optional) or 'none'}" + (
        f"; the optional payouts: {', '.join(optional_payouts)}" if optional_payouts else ""
    )
    for i, wid in enumerate(submission.offered or ()):
        if wid in optional or wid in optional_payouts:
            continue
        if wid in facts.wagers:
            message = (
                f"/offered/{i}: {wid!r} is a base wager of {facts.name}, always played; "
                "`offered` lists optional wagers"
            )
        else:
            message = (
                f"/offered/{i}: {facts.name} has no wager {wid!r}{did_you_mean(wid, optional)}"
            )
        yield rule.finding(
            name, located=located, pointer=f"/offered/{i}", message=message, hint=hint
        )


def _listed_twice(submission: RulesSubmission, located: Located, name: str) -> Iterator[Finding]:
    """An entry a list of choices names again: ``offered`` and the dealing methods."""
    rule = generic_rule("rulesub/listed-twice")
    dealing = submission.dealing
    lists = (
        ("/offered", "`offered`", submission.offered),
        ("/dealing/methods", "`dealing: methods:`", dealing.methods if dealing else None),
    )
    for pointer, where, entries in lists:
        first: dict[str, int] = {}
        for i, entry in enumerate(entries or ()):
            key = str(getattr(entry, "value", entry))
            if key not in first:
                first[key] = i
                continue
            yield rule.finding(
                name,
                located=located,
                pointer=f"{pointer}/{i}",
                where=where,
                entry=key,
                first=_line_and_column(located.position(f"{pointer}/{first[key]}")),
            )


def _line_and_column(pos: Any) -> str:
    return f"line {pos.line}, column {pos.column}"


#: What a key of each section of tables names: the tables of the game it may name.
_TABLE_SECTIONS = {
    "paytables": "a table whose paytable the certificate holder selects",
    "progressives": "a progressive table",
    "custom_paytables": "a table whose regulation text is missing",
}


def _table_keys(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> Iterator[Finding]:
    """The tables named under ``paytables``, ``progressives`` and ``custom_paytables``, and
    the meters of each progressive: the game's own."""
    rule = generic_rule("rulesub/unknown-key")
    tables = facts.tables.items()
    allowed = {
        "paytables": [tid for tid, t in tables if t.selectable and t.letters],
        "progressives": [tid for tid, t in tables if t.meters is not None],
        "custom_paytables": [tid for tid, t in tables if t.source == "missing"],
    }
    stated = {
        "paytables": submission.paytables,
        "progressives": submission.progressives,
        "custom_paytables": submission.custom_paytables,
    }
    for section, what in _TABLE_SECTIONS.items():
        keys = allowed[section]
        for key in stated[section] or {}:
            if key not in keys:
                yield rule.finding(
                    name,
                    located=located,
                    pointer=join(f"/{section}", key),
                    message=f"unknown key {key!r}{did_you_mean(key, keys)}: not {what} of "
                    f"{facts.name}",
                    hint=f"the keys here are: {', '.join(keys) or 'none'}",
                )
    for tid, progressive in (submission.progressives or {}).items():
        if tid not in allowed["progressives"]:
            continue
        table = facts.table(tid)
        names = table.meters.names if table.meters else []
        for meter in progressive.meters or {}:
            if meter not in names:
                yield rule.finding(
                    name,
                    located=located,
                    pointer=f"/progressives/{tid}/meters/{meter}",
                    message=f"unknown meter {meter!r}{did_you_mean(meter, names)}: the "
                    f"{table.name} meters are {', '.join(names)}",
                    hint=f"the meters here are: {', '.join(names)}",
                )


def _poker_keys(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> Iterator[Finding]:
    """What only a nonbanking Poker table states (``POKER_SECTIONS``), on a banking game's
    filing: a key of no rule of its game, refused as the game's own schema refuses it (not
    kept in silence, as though read)."""
    from validator.model.submission import POKER_SECTIONS

    if facts.definition.kind != "banking":
        return
    stated = [key for key in POKER_SECTIONS if getattr(submission, key) is not None]
    for key in stated:
        yield generic_rule("rulesub/unknown-key").finding(
            name,
            located=located,
            pointer=f"/{key}",
            at="key",
            message=f"unknown key {key!r}: a Poker (nonbanking) table states it, and "
            f"{facts.name} is a banking game, which has none",
            hint="remove the key",
        )


def _streets(
    facts: GameFacts, submission: RulesSubmission, located: Located, name: str
) -> Iterator[Finding]:
    """The betting rounds a Poker table names (``max_raises_by_round``, ``upper_from``):
    the game's streets."""
    betting = submission.betting
    if betting is None or not (betting.max_raises_by_round or betting.upper_from is not None):
        return
    deal = facts.definition.deal  # a Poker game's streets
    streets = list(deal.streets) if deal is not None else []
    listed = f"the betting rounds follow the streets: {', '.join(streets) or 'none'}"
    for key in betting.max_raises_by_round or {}:
        if key not in streets:
            yield generic_rule("rulesub/unknown-key").finding(
                name,
                located=located,
                pointer=f"/betting/max_raises_by_round/{key}",
                message=f"{facts.name} has no street {key!r}{did_you_mean(key, streets)}",
                hint=listed,
            )
    upper = betting.upper_from
    if upper is not None and upper not in streets:
        yield generic_rule("rulesub/bad-value").finding(
            name,
            located=located,
            pointer="/betting/upper_from",
            message=f"{facts.name} has no street {upper!r}{did_you_mean(str(upper), streets)}",
            hint=listed,
        )
