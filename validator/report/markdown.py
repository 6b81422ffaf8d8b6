"""``--format markdown``: a review a compliance officer can attach to a letter."""

from __future__ import annotations

from typing import Any

from validator import __version__
from validator.counts import plural
from validator.diff.names import in_words
from validator.markdown import md_code, md_text
from validator.report.text import ORDER, summary_line


def _cell(text: str | None) -> str:
    return md_text(text or "")


def render_markdown(report: Any) -> str:
    lines = ["# Rules Submission review", ""]
    lines.append(f"Checked with rulesub {__version__}. {summary_line(report.summary)}.")
    lines.append("")
    for result in report.files:
        lines.append(f"## {_cell(result.file)}")
        lines.append("")
        sub = result.submission
        game = _game(sub.game) if sub is not None and sub.game else None
        if sub is not None and sub.game:
            parts = [p for p in (sub.certificate_holder, sub.facility) if p]
            effective = f", effective {sub.effective.isoformat()}" if sub.effective else ""
            named = (
                _cell(f"{game.definition.name} ({game.definition.source.chapter})")
                if game is not None
                else md_code(sub.game)  # a game rulesub has not: as the file writes it
            )
            lines.append(f"{_cell(', '.join(parts))}: {named}{effective}.")
            lines.append("")
        waived = _waived(result, game)
        if not result.findings:
            lines.append("No findings: the submission passes every check rulesub makes.")
            lines.append("")
            lines += waived
            continue
        counts = {s: sum(1 for f in result.findings if f.severity == s) for s in ORDER}
        lines.append(
            f"{plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}, "
            f"{plural(counts['info'], 'note')} for information."
        )
        lines.append("")
        lines.append("| # | Severity | Finding | Section | Line | What would comply | Code |")
        lines.append("|---|---|---|---|---|---|---|")
        findings = sorted(result.findings, key=lambda f: (ORDER[f.severity], f.line, f.column))
        for i, f in enumerate(findings, 1):
            said = _cell(in_words(game, f.message))
            lines.append(
                f"| {i} | {f.severity} | {said} | {_cell(f.cite) or '—'} | "
                f"{f.line}:{f.column} | {_cell(f.hint) or '—'} | `{_cell(f.code)}` |"
            )
        lines.append("")
        lines += waived
    return "\n".join(lines)


def _game(game_id: str) -> Any:
    """The submission's game, for its name and its fields' names (the
    memo speaks to a person, in the review pack's words: "Aces Up paytable is not stated",
    never ``/paytables/aces_up``); ``None`` for a game rulesub has not."""
    import validator
    from validator.checks.facts import known_games
    from validator.compiler import load_game

    return load_game(game_id, validator.GAMES_DIR) if game_id in known_games() else None


def _waived(result: Any, game: Any) -> list[str]:
    """The findings waived in this file, each with the reason given and where."""
    if not result.suppressed:
        return []
    lines = [
        f"Waived ({len(result.suppressed)}), not counted:",
        "",
        "| Severity | Finding | Section | Line | Reason given | Waived in | Code |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in result.suppressed:
        f = s.finding
        lines.append(
            f"| {f.severity} | {_cell(in_words(game, f.message))} | {_cell(f.cite) or '—'} | "
            f"{f.line}:{f.column} "
            f"| {_cell(s.reason)} | {_cell(s.where)} ({s.waiver}) | `{_cell(f.code)}` |"
        )
    lines.append("")
    return lines
