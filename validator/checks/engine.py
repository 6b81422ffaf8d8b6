"""Validate Rules Submissions: read, check the form, check the game's constraints, report.

Nothing the user gave is modified: files are only read.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.checks.findings import FileResult, Finding, Report
from validator.loader import LoadError, Located, did_you_mean, join

if TYPE_CHECKING:
    from validator.checks.facts import GameFacts
    from validator.model.registry import Game

SUFFIXES = (".yaml", ".yml")


def display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def submission_files(paths: Iterable[Path | str]) -> list[Path]:
    """Files and directories (recursive, ``*.yaml``/``*.yml``) → files, in order, once each."""
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        found = (
            sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
            if path.is_dir()
            else [path]
        )
        for p in found:
            key = p.resolve()
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out


def validate_paths(paths: Iterable[Path | str]) -> Report:
    """Every submission under ``paths``; a file that cannot be read does not stop the rest."""
    return Report([validate_file(p) for p in submission_files(paths)])


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


def validate_file(path: Path | str, *, display: str | None = None) -> FileResult:
    """One submission: its findings and, when it could be read, the parsed submission."""
    from validator.model.submission import load_submission

    path = Path(path)
    name = display or display_name(path)
    if path.is_dir():
        return _unreadable(name, LoadError(name, 1, 1, "is a directory, not a file"))
    try:
        loaded = load_submission(path, display=name)
    except LoadError as e:
        return _unreadable(name, e)
    located = loaded.located
    findings = [
        Finding(p.code, "error", p.message, None, p.pointer, name, p.line, p.column, p.hint)
        for p in loaded.problems
    ]
    result = FileResult(name, findings, loaded.submission)
    if loaded.submission is None:
        return result
    data = loaded.submission.data()
    findings += _wager_limits(data, located, name)
    game_id = data.get("game")
    if isinstance(game_id, str):
        facts = _game(game_id, located, name, findings)
        if facts is not None:
            findings += check_submission(facts, data, located, name)
    findings.sort(key=lambda f: (f.line, f.column, f.code))
    return result


def _unreadable(name: str, e: LoadError) -> FileResult:
    finding = Finding(
        "rulesub/unreadable",
        "error",
        e.message,
        None,
        "",
        e.file,
        max(e.line, 1),
        max(e.column, 1),
        "fix the file at this line and column",
    )
    return FileResult(name, [finding], None, unreadable=True)


def _game(game_id: str, located: Located, name: str, findings: list[Finding]) -> GameFacts | None:
    from validator.checks.facts import facts_for, known_games

    known = known_games()
    if game_id not in known:
        pos = located.position("/game")
        findings.append(
            Finding(
                "rulesub/unknown-game",
                "error",
                f"no game {game_id!r}{did_you_mean(game_id, known)}; "
                f"the games are: {', '.join(known)}",
                None,
                "/game",
                name,
                pos.line,
                pos.column,
                f"game: one of {', '.join(known)}",
            )
        )
        return None
    return facts_for(game_id)


def _wager_limits(data: dict[str, Any], located: Located, name: str) -> list[Finding]:
    table = data.get("table") or {}
    lo, hi = table.get("min_wager"), table.get("max_wager")
    if isinstance(lo, Decimal) and isinstance(hi, Decimal) and lo > hi:
        from validator.model.notation import format_money

        pos = located.position("/table/min_wager")
        return [
            Finding(
                "rulesub/wager-limits",
                "error",
                f"the minimum wager {format_money(lo)} is above the maximum wager "
                f"{format_money(hi)}",
                None,
                "/table/min_wager",
                name,
                pos.line,
                pos.column,
                "min_wager at most max_wager",
            )
        ]
    return []


def check_submission(
    facts: GameFacts, data: dict[str, Any], located: Located, name: str
) -> list[Finding]:
    """The game-aware checks of form, then every constraint of the game."""
    from validator.checks.kinds import Context, evaluate

    findings = _game_keys(facts, data, located, name)
    ctx = Context(facts, data, located.data)
    for c in facts.constraints:
        for v in evaluate(c, ctx):
            pos = located.position(v.pointer, key=v.key)
            message = f"{c.message}: {v.detail}" if v.detail else c.message
            findings.append(
                Finding(
                    f"{facts.id}/{c.id}",
                    c.severity,
                    message,
                    v.cite or c.cite,
                    v.pointer,
                    name,
                    pos.line,
                    pos.column,
                    v.hint or c.hint,
                )
            )
    return findings


def _game_keys(
    facts: GameFacts, data: dict[str, Any], located: Located, name: str
) -> list[Finding]:
    """Keys and values that only the game file can tell right from wrong."""
    out: list[Finding] = []

    def add(code: str, pointer: str, message: str, hint: str | None, key: bool) -> None:
        pos = located.position(pointer, key=key)
        out.append(Finding(code, "error", message, None, pointer, name, pos.line, pos.column, hint))

    game_name = facts.name
    optional = [w for w, wager in facts.wagers.items() if wager.optional]
    optional_payouts = [t.id for t in facts.tables.values() if t.optional_payout]
    for i, wid in enumerate(data.get("offered") or ()):
        if wid in optional or wid in optional_payouts:
            continue
        if wid in facts.wagers:
            message = (
                f"/offered/{i}: {wid!r} is a base wager of {game_name}, always played; "
                "`offered` lists optional wagers"
            )
        else:
            message = f"/offered/{i}: {game_name} has no wager {wid!r}{did_you_mean(wid, optional)}"
        add(
            "rulesub/bad-value",
            f"/offered/{i}",
            message,
            f"the optional wagers are: {', '.join(optional) or 'none'}"
            + (
                f"; the optional payouts: {', '.join(optional_payouts)}" if optional_payouts else ""
            ),
            False,
        )
    tables = facts.tables.values()
    sections = {
        "paytables": [t.id for t in tables if t.selectable and t.letters],
        "progressives": [t.id for t in tables if t.meters is not None],
        "custom_paytables": [t.id for t in tables if t.source == "missing"],
    }
    for section, allowed in sections.items():
        for key in data.get(section) or {}:
            if key not in allowed:
                what = {
                    "paytables": "a table whose paytable the certificate holder selects",
                    "progressives": "a progressive table",
                    "custom_paytables": "a table whose regulation text is missing",
                }[section]
                add(
                    "rulesub/unknown-key",
                    join(f"/{section}", key),
                    f"unknown key {key!r}{did_you_mean(key, allowed)}: not {what} of {game_name}",
                    f"the keys here are: {', '.join(allowed) or 'none'}",
                    True,
                )
    for tid, progressive in (data.get("progressives") or {}).items():
        if tid not in sections["progressives"]:
            continue
        table = facts.table(tid)
        names = table.meter_names
        for meter in (progressive.get("meters") or {}) if isinstance(progressive, dict) else {}:
            if meter not in names:
                add(
                    "rulesub/unknown-key",
                    f"/progressives/{tid}/meters/{meter}",
                    f"unknown meter {meter!r}{did_you_mean(meter, names)}: the {table.name} "
                    f"meters are {', '.join(names)}",
                    f"the meters here are: {', '.join(names)}",
                    True,
                )
    return out
