"""Whether the encoded text was the regulation on a date: the findings a submission's
effective date (or ``--as-of``) gets from the game's history (``validator.model.history``).

- before the chapter's adoption: ``<game>/before-adoption``, an error; before an undated
  chapter's proposal (it took effect, if at all, after it): ``<game>/before-proposal``,
  an error;
- after temporary regulations expired by their own terms (none ended them before):
  ``<game>/expired``, a warning naming the adopting notice and the day;
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
from validator.checks.rules import Placement, Rule
from validator.model.history import (
    InForce,
    dated_in_force,
    describe,
    in_force,
    long_date,
    section_list,
)

#: the rule of a date before the chapter's adoption
BEFORE_ADOPTION = "before-adoption"
#: the rule of a date before an undated chapter's proposal
BEFORE_PROPOSAL = "before-proposal"
#: the rule of a date after an undated chapter's proposal: its adoption's day unknown
ADOPTION_UNKNOWN = "adoption-unknown"
#: the rules that state a fact about the regulation's copy, not about the submission
REGULATION_NOTES = frozenset({ADOPTION_UNKNOWN})
#: the rules of a date on which no text of the chapter was in force: a date refused
REFUSED_DATE = (BEFORE_ADOPTION, BEFORE_PROPOSAL)

#: name → (severity, summary, doc, message): the message a template of the values the date
#: gives (``messages``)
RULES: dict[str, tuple[Severity, str, str, str]] = {
    BEFORE_ADOPTION: (
        "error",
        "The effective date is before the chapter was adopted",
        "A submission is checked against the rules in force on its effective date. On a "
        "date before the chapter's adoption no rule of this chapter was in force: the "
        "message names the adopting Pennsylvania Bulletin notice, and the rules it replaced "
        "where the game file records them (not encoded here).",
        "{chapter} was not in force on {date}: it was adopted by {notice}, effective "
        "{since}{before}",
    ),
    BEFORE_PROPOSAL: (
        "error",
        "The effective date is not after the chapter was proposed",
        "The chapter's copy gives no date of adoption (its final-form publication date is "
        "blank), but it was proposed in the Pennsylvania Bulletin on a known day and took "
        "effect, if at all, only on its final-form publication after that: on the "
        "proposal's day or before no rule of the game was in force. The message names the "
        "proposal.",
        "{chapter} was not in force on {date}: it was proposed at {notice} and took effect, "
        "if at all, only on its final-form publication, later",
    ),
    ADOPTION_UNKNOWN: (
        "info",
        "The chapter's date of adoption is not in the texts",
        "The chapter's copy gives no date of adoption (its final-form publication date is "
        "blank); it was proposed in the Pennsylvania Bulletin on a known day, and a date "
        "after that is checked against the final-form text, though the text may not yet "
        "have been in force on it. A fact about the regulation's copy, which the "
        "submission cannot act on: listed with --show-regulation-notes.",
        "{chapter}'s copy gives no date of adoption: proposed at {notice}, it took effect, "
        "if at all, on its final-form publication, a day the copy leaves blank; {date} is "
        "checked against the final-form text",
    ),
    "not-in-force": (
        "warning",
        "The chapter was rescinded before the effective date",
        "The encoded chapter was rescinded (or superseded) before the submission's effective "
        "date; the message names the rescinding Pennsylvania Bulletin notice and the chapter "
        "that replaced it, which is not encoded here. The submission is still checked "
        "against the encoded text, so that an office's later filings keep their findings, "
        "but that text is no longer the regulation.",
        "{chapter} was not in force on {date}: it was {how} by {notice} and replaced by "
        "{successor}{encoded}; checked against {chapter} as encoded",
    ),
    "expired": (
        "warning",
        "The temporary chapter had expired by the effective date",
        "The encoded chapter was adopted as temporary regulations that expire by their own "
        'terms ("These temporary regulations expire 2 years after publication", as the '
        "adopting notice's preamble says), and that day had passed on the submission's "
        "effective date with no later notice held here in force. The submission is still "
        "checked against the encoded text, but that text was no longer the regulation.",
        "{chapter} was not in force on {date}: adopted as temporary regulations by {notice}, "
        "it expired on {expired}, {term}; checked against {chapter} as encoded",
    ),
    "paytable-not-in-force": (
        "error",
        "A paytable selected that was not in force on the effective date",
        "The paytable (or its letter) is dated in the game file: a Pennsylvania Bulletin "
        "notice added it after the submission's effective date, or removed it before. The "
        "message names the notice.",
        "{what} was not in force on {date}: {how}",
    ),
    "amendment-not-encoded": (
        "info",
        "Sections in force on the effective date are not encoded",
        "An amendment changed sections whose wording on the submission's effective date is "
        "not held here (an earlier wording, or an amendment's text that is missing): the "
        "message names the sections and the notices. The submission is checked against the "
        "encoded text.",
        "{chapter} as in force on {date} differs from the encoded text where {notices} "
        "amended it ({sections}): that wording is not encoded here; checked against the "
        "encoded text",
    ),
}


def rule_cites(definition: Any) -> dict[str, str]:
    """Each history code's Bulletin citation, for the games whose history has it: the
    adoption; the rescission; the amendments."""
    events = definition.history
    if not events:
        proposed = getattr(definition, "proposed", None)
        if proposed is None:
            return {}
        return {BEFORE_PROPOSAL: proposed.citation, ADOPTION_UNKNOWN: proposed.citation}
    out = {BEFORE_ADOPTION: events[0].citation}
    ends = [e for e in events if e.kind in ("rescinded", "superseded")]
    if ends:
        out["not-in-force"] = ends[0].citation
    if events[0].expires is not None:
        out["expired"] = events[0].citation
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
    return [in_force_rule(game_id, name, cite) for name, cite in rule_cites(definition).items()]


def in_force_rule(game_id: str, name: str, cite: str | None) -> Rule:
    """One history code of a game: a chapter's finding is placed where the date is (the
    check gives it), a paytable's at the paytable selected."""
    severity, summary, doc, message = RULES[name]
    at: Placement = "value" if name == "paytable-not-in-force" else "given"
    return Rule(f"{game_id}/{name}", name, severity, cite, summary, doc, message=message, at=at)


def messages(definition: Any, state: InForce) -> list[tuple[str, Severity, str, str]]:
    """(rule name, severity, message, citation) for what a date means for the file; the
    facts about the regulation's copy (``REGULATION_NOTES``) are validate's to list, with
    --show-regulation-notes, not every document's."""
    return [
        (name, RULES[name][0], RULES[name][3].format(**values), cite)
        for name, values, cite in _fired(definition, state)
        if name not in REGULATION_NOTES
    ]


def _fired(definition: Any, state: InForce) -> list[tuple[str, dict[str, Any], str]]:
    """(rule name, the values of its message, citation) for what a date means."""
    chapter = definition.chapter
    date = state.date.isoformat()
    out: list[tuple[str, dict[str, Any], str]] = []
    if state.before_adoption is not None:
        e = state.before_adoption
        values = {"chapter": chapter, "date": date, "notice": describe(e)}
        before = f"; it replaced {e.predecessor}, not encoded here" if e.predecessor else ""
        out.append(
            (BEFORE_ADOPTION, {**values, "since": e.date.isoformat(), "before": before}, e.citation)
        )
        return out
    if state.before_proposal is not None:
        p = state.before_proposal
        notice = f"{p.citation} ({long_date(p.date)})"
        out.append(
            (BEFORE_PROPOSAL, {"chapter": chapter, "date": date, "notice": notice}, p.citation)
        )
        return out
    proposed = getattr(definition, "proposed", None)
    if state.undated is not None and proposed is not None:
        notice = f"{proposed.citation} ({long_date(proposed.date)})"
        values = {"chapter": chapter, "date": date, "notice": notice}
        out.append((ADOPTION_UNKNOWN, values, proposed.citation))
    if state.ended is not None:
        e = state.ended
        values = {
            "chapter": chapter,
            "date": date,
            "how": e.kind,
            "notice": describe(e),
            "successor": e.successor or "a later chapter",
            "encoded": "" if e.successor_encoded else " (not encoded here)",
        }
        out.append(("not-in-force", values, e.citation))
    if state.expired is not None:
        e = state.expired
        assert e.expires is not None
        values = {
            "chapter": chapter,
            "date": date,
            "notice": describe(e),
            "expired": e.expires.isoformat(),
            "term": _term(e.date, e.expires),
        }
        out.append(("expired", values, e.citation))
    if state.not_encoded and state.ended is None and state.expired is None:  # said above
        values = {
            "chapter": chapter,
            "date": date,
            "notices": ", ".join(describe(e) for e in state.not_encoded),
            "sections": section_list(state.not_encoded),
        }
        # the notices that make the difference on this date, not every amendment's
        out.append(
            ("amendment-not-encoded", values, "; ".join(e.citation for e in state.not_encoded))
        )
    return out


def _term(since: dt.date, until: dt.date) -> str:
    """How long temporary regulations ran, as the game file's dates give it: "2 years after
    publication" where they end on the day they began, some years on."""
    years = until.year - since.year
    if years > 0 and (until.month, until.day) == (since.month, since.day):
        return f"{years} year{'s' if years > 1 else ''} after publication"
    return "by their own terms"


def findings(
    facts: Any,
    date: dt.date,
    name: str,
    pointer: str,
    line: int,
    column: int,
    submission: Any = None,
    located: Any = None,
) -> list[Finding]:
    """The findings of ``date`` for a submission of the game ``facts`` reads: the chapter's,
    placed at ``line`` and ``column``, then each paytable the submission selects whose date
    excludes ``date`` (where ``submission`` and ``located``, the file read with its
    positions, are given)."""
    definition = facts.definition
    state = in_force(definition, date)
    out = [
        in_force_rule(facts.id, rule, None).finding(
            name, pointer=pointer, line=line, column=column, cite=cite, **values
        )
        for rule, values, cite in _fired(definition, state)
    ]
    if submission is not None and not state.refused:
        out += _selected_out_of_force(facts, date, name, submission, located)
    return out


def _selected_out_of_force(
    facts: Any, date: dt.date, name: str, submission: Any, located: Any
) -> list[Finding]:
    """A selected paytable (``paytables: {table: letter}``) not in force on ``date``."""
    out: list[Finding] = []
    for tid, letter in (submission.paytables or {}).items():
        table = _tables(facts.definition).get(tid)
        if table is None:
            continue  # an unknown table: the form's checks say so
        dated = table.letters_dated.get(letter)
        for d, what in ((table.dated, table.name), (dated, f"{table.name} paytable {letter}")):
            if d is None or dated_in_force(d, date):
                continue
            removed = d.until is not None and date >= d.until
            how = (
                f"removed by {d.until_cite}, effective {d.until}"
                if removed
                else f"added by {d.cite}, effective {d.since}"
            )
            rule = in_force_rule(facts.id, "paytable-not-in-force", None)
            out.append(
                rule.finding(
                    name,
                    located=located,
                    pointer=f"/paytables/{tid}",
                    cite=d.until_cite if removed else d.cite,
                    what=what,
                    date=date.isoformat(),
                    how=how,
                )
            )
    return out
