"""Whether the encoded text was the regulation on a date: the findings a submission's
effective date (or ``--as-of``) gets from the game's history (``validator.model.history``).

- before the chapter's adoption: ``<game>/before-adoption``, an error;
- after its rescission: ``<game>/not-in-force``, a warning naming the rescinding notice and
  the successor chapter, and saying the successor is not encoded here (offices hold filings
  effective today and later for every game: they keep exit 0);
- where an amendment's text differs on the date and is not held:
  ``<game>/amendment-not-encoded``, information naming the sections and notices.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from validator.checks.findings import Finding, Severity
from validator.checks.rules import Rule
from validator.model.history import InForce, dated_in_force, describe, in_force, section_list

#: name → (severity, summary, doc)
RULES: dict[str, tuple[Severity, str, str]] = {
    "before-adoption": (
        "error",
        "The effective date is before the chapter was adopted",
        "A submission is checked against the rules in force on its effective date. On a "
        "date before the chapter's adoption no rule of the game was in force: the message "
        "names the adopting Pennsylvania Bulletin notice.",
    ),
    "not-in-force": (
        "warning",
        "The chapter was rescinded before the effective date",
        "The encoded chapter was rescinded (or superseded) before the submission's effective "
        "date; the message names the rescinding Pennsylvania Bulletin notice and the chapter "
        "that replaced it, which is not encoded here. The submission is still checked "
        "against the encoded text, so that an office's later filings keep their findings, "
        "but that text is no longer the regulation.",
    ),
    "paytable-not-in-force": (
        "error",
        "A paytable selected that was not in force on the effective date",
        "The paytable (or its letter) is dated in the game file: a Pennsylvania Bulletin "
        "notice added it after the submission's effective date, or removed it before. The "
        "message names the notice.",
    ),
    "amendment-not-encoded": (
        "info",
        "Sections in force on the effective date are not encoded",
        "An amendment changed sections whose wording on the submission's effective date is "
        "not held here (an earlier wording, or an amendment's text that is missing): the "
        "message names the sections and the notices. The submission is checked against the "
        "encoded text.",
    ),
}


def rule_cites(definition: Any) -> dict[str, str]:
    """Each history code's Bulletin citation, for the games whose history has it: the
    adoption; the rescission; the amendments."""
    events = definition.history
    if not events:
        return {}
    out = {"before-adoption": events[0].citation}
    ends = [e for e in events if e.kind in ("rescinded", "superseded")]
    if ends:
        out["not-in-force"] = ends[0].citation
    dated = [d for t in _tables(definition).values() for d in (t.dated, *t.letters_dated.values())]
    dated = [d for d in dated if d is not None and (d.earlier == "none" or d.until is not None)]
    if dated:
        out["paytable-not-in-force"] = "; ".join(sorted({d.cite for d in dated}))
    amended = [e.citation for e in events if e.kind == "amended"]
    if amended or events[0].text == "missing":
        out["amendment-not-encoded"] = "; ".join(amended or [events[0].citation])
    return out


def _tables(definition: Any) -> dict[str, Any]:
    """Table id → table, from the model or the checks' projection of it (fields only)."""
    return {tid: t for w in definition.wagers.values() for tid, t in w.tables.items()}


def in_force_rules(game_id: str, definition: Any) -> list[Rule]:
    """The history's codes of a game with a history."""
    return [
        Rule(f"{game_id}/{name}", name, RULES[name][0], cite, RULES[name][1], RULES[name][2])
        for name, cite in rule_cites(definition).items()
    ]


def messages(definition: Any, state: InForce) -> list[tuple[str, Severity, str, str]]:
    """(rule name, severity, message, citation) for what a date means for the file."""
    chapter, cites = definition.chapter, rule_cites(definition)
    date = state.date.isoformat()
    out: list[tuple[str, Severity, str, str]] = []
    if state.before_adoption is not None:
        e = state.before_adoption
        out.append(
            (
                "before-adoption",
                "error",
                f"{chapter} was not in force on {date}: it was adopted by {describe(e)}, "
                f"effective {e.date.isoformat()}",
                e.citation,
            )
        )
        return out
    if state.ended is not None:
        e = state.ended
        successor = e.successor or "a later chapter"
        encoded = "" if e.successor_encoded else " (not encoded here)"
        out.append(
            (
                "not-in-force",
                "warning",
                f"{chapter} was not in force on {date}: it was {e.kind} by {describe(e)} and "
                f"replaced by {successor}{encoded}; checked against {chapter} as encoded",
                e.citation,
            )
        )
    if state.not_encoded and state.ended is None:  # after the end, the warning says it
        notices = ", ".join(describe(e) for e in state.not_encoded)
        out.append(
            (
                "amendment-not-encoded",
                "info",
                f"{chapter} as in force on {date} differs from the encoded text where "
                f"{notices} amended it ({section_list(state.not_encoded)}): that wording is "
                "not encoded here; checked against the encoded text",
                cites["amendment-not-encoded"],
            )
        )
    return out


def findings(
    facts: Any,
    date: dt.date,
    name: str,
    pointer: str,
    line: int,
    column: int,
    located: Any = None,
) -> list[Finding]:
    """The findings of ``date`` for a submission of the game ``facts`` reads: the chapter's,
    then each selected paytable whose date excludes ``date`` (where ``located``, the
    submission read with its positions, is given)."""
    definition = facts.definition
    state = in_force(definition, date)
    out = [
        Finding(f"{facts.id}/{rule}", sev, message, cite, pointer, name, line, column)
        for rule, sev, message, cite in messages(definition, state)
    ]
    if located is not None and state.before_adoption is None:
        out += _selected_out_of_force(facts, date, name, located)
    return out


def _selected_out_of_force(facts: Any, date: dt.date, name: str, located: Any) -> list[Finding]:
    """A selected paytable (``paytables: {table: letter}``) not in force on ``date``."""
    selected = located.data.get("paytables") if isinstance(located.data, dict) else None
    out: list[Finding] = []
    for tid, letter in (selected or {}).items():
        table = _tables(facts.definition).get(tid)
        if table is None:
            continue  # an unknown table: the form's checks say so
        dated = table.letters_dated.get(letter) if isinstance(letter, str) else None
        for d, what in ((table.dated, table.name), (dated, f"{table.name} paytable {letter}")):
            if d is None or dated_in_force(d, date):
                continue
            removed = d.until is not None and date >= d.until
            how = (
                f"removed by {d.until_cite}, effective {d.until}"
                if removed
                else f"added by {d.cite}, effective {d.since}"
            )
            pointer = f"/paytables/{tid}"
            pos = located.position(pointer)
            out.append(
                Finding(
                    f"{facts.id}/paytable-not-in-force",
                    "error",
                    f"{what} was not in force on {date.isoformat()}: {how}",
                    d.until_cite if removed else d.cite,
                    pointer,
                    name,
                    pos.line,
                    pos.column,
                )
            )
    return out
