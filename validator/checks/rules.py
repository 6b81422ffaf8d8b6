"""Every finding code, with its name and a one-paragraph doc (``rulesub rules``).

Codes are stable: ``rulesub/<problem>`` for the form of a submission, and
``<game>/<constraint-id>`` for what a game's regulation demands (the constraint ids are
written in the game file or derived from it under fixed names).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from validator.checks.findings import Severity


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    cite: str | None
    summary: str
    doc: str
    hint: str | None = None
    kind: str | None = None  # the constraint kind, for a game's rule


_GENERIC: list[tuple[str, Severity, str, str]] = [
    (
        "unreadable",
        "error",
        "The file cannot be read as a Rules Submission",
        "The file is not UTF-8 text, not valid YAML, holds a duplicate key, a YAML tag, "
        "anchors that would expand past a sane size or nesting past a sane depth, is larger "
        "than 1 MB, or cannot be opened. Nothing else in it can be checked; the message gives "
        "the line and column where reading stopped. `rulesub validate` exits with code 2, "
        "after checking the other files it was given.",
    ),
    (
        "not-a-submission",
        "error",
        "The file is not a mapping of submission keys",
        "A Rules Submission is a YAML mapping that starts with `rulesub: 1` and names the "
        "certificate holder, the facility, the game, the effective date, the table and the "
        "dealing. An empty file, a list or a single value is none.",
    ),
    (
        "unknown-key",
        "error",
        "A key the format does not know",
        "Every key of a Rules Submission is defined by the format (and, under `paytables`, "
        "`progressives` and `custom_paytables`, by the game file: its tables). An unknown key "
        "is usually a misspelling, and a misspelt key is a choice the regulator never sees; "
        "the message suggests the nearest known key.",
    ),
    (
        "missing-key",
        "error",
        "A key the format requires is missing",
        "Every submission states the format version, certificate holder, facility, game, "
        "effective date, table (positions, minimum and maximum wager) and dealing (methods, "
        "shuffler, decks and deck-change interval per method); each progressive states its "
        "meters.",
    ),
    (
        "wrong-type",
        "error",
        "A value of the wrong type",
        "A count is a whole number, a flag is true or false, a date is written 2027-01-01, a "
        "list is a list. Nothing is coerced: text where a number is expected is an error, "
        "since a value the reader has to guess is a value the casino did not state.",
    ),
    (
        "bad-value",
        "error",
        "A value outside what the format allows",
        "The value has the right type but is not one the format accepts: a dealing method, "
        "shuffler or wager the game does not have, money written other than as whole dollars "
        "or a string like '$10.50', a count below 1, a payout not in the regulation's notation.",
    ),
    (
        "rate-needs-percent",
        "error",
        "A bare number where a rate is expected",
        "Rates of progression are written with a percent sign ('25%'). A bare number is "
        "refused rather than guessed: 25 could mean 25% or 0.25, and 0.25 could mean 25% or "
        "a quarter of one percent.",
    ),
    (
        "unknown-game",
        "error",
        "The game is not one of the declared games",
        "`game:` names a game file in games/ (`rulesub games list`). A submission for a game "
        "that is not declared cannot be checked against its chapter.",
    ),
    (
        "bad-waiver",
        "error",
        "A waiver comment that names no code",
        "A waiver reads `# rulesub: ignore[CODE] -- reason` on the line of the finding, or "
        "`# rulesub: file-ignore[CODE] -- reason` anywhere in the file. One that names no code "
        "waives nothing; it is reported so that it is not mistaken for one that works.",
    ),
    (
        "waiver-without-reason",
        "error",
        "A waiver that states no reason",
        "A finding is waived only with the reason it cannot be fixed, written after `--`: "
        "`# rulesub: ignore[lunar-poker/super-hold] -- the chapter's own tables`. The reason "
        "is what a reviewer reads in the report; a waiver without one waives nothing.",
    ),
    (
        "unused-waiver",
        "warning",
        "A waiver that waives nothing",
        "No finding with the waiver's code stands on its line (or, for `file-ignore`, in its "
        "file): the finding was fixed, or the code is misspelt. As ruff reports an unused "
        "`noqa`, rulesub reports the waiver, so that waivers do not outlive their reason.",
    ),
    (
        "wager-limits",
        "error",
        "The minimum wager exceeds the maximum wager",
        "A table whose minimum wager is above its maximum accepts no wager: the limits are "
        "swapped or mistyped.",
    ),
]

GENERIC_HINTS = {
    "unreadable": "fix the file at the line and column given",
    "unknown-game": "game: one of the ids `rulesub games list` prints",
    "wager-limits": "min_wager at most max_wager",
    "bad-waiver": "# rulesub: ignore[CODE] -- why the finding cannot be fixed",
    "waiver-without-reason": "# rulesub: ignore[CODE] -- why the finding cannot be fixed",
    "unused-waiver": "remove the waiver, or correct its code (`rulesub rules` lists them)",
}


def generic_rules() -> list[Rule]:
    return [
        Rule(f"rulesub/{name}", name, sev, None, summary, doc, GENERIC_HINTS.get(name))
        for name, sev, summary, doc in _GENERIC
    ]


def constraint_rule(game_id: str, c: Any) -> Rule:
    doc = f"{c.message} ({c.cite})."
    if c.note:
        doc += f" {c.note}"
    doc += f" Checked as `{c.kind}`" + (f" when {_when(c.when)}." if c.when else ".")
    return Rule(f"{game_id}/{c.id}", c.id, c.severity, c.cite, c.message, doc, c.hint, c.kind)


def _when(when: Any) -> str:
    parts = []
    if when.offered:
        parts.append(f"{when.offered} is offered")
    if when.field:
        if when.stated is not None:
            parts.append(f"{when.field} is {'' if when.stated else 'not '}stated")
        elif when.in_ is not None:
            parts.append(f"{when.field} is {' or '.join(map(str, when.in_))}")
        elif when.contains is not None:
            parts.append(f"{when.field} includes {when.contains}")
    return " and ".join(parts)


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every code: the generic ones, then each game's (kept in the user's cache)."""
    from validator import GAMES_DIR
    from validator.cache import games_digest, memo

    return memo("rules", games_digest(GAMES_DIR), _all_rules)


def _all_rules() -> tuple[Rule, ...]:
    from validator.checks.engine import constraints_for
    from validator.checks.in_force import in_force_rules
    from validator.compiler import all_games

    rules = generic_rules()
    for game in all_games():
        rules += [constraint_rule(game.id, c) for c in constraints_for(game)]
        rules += in_force_rules(game.id, game.definition)
    return tuple(rules)


def find_rule(code: str) -> Rule | None:
    for rule in all_rules():
        if rule.code == code:
            return rule
    return None


#: Kinds of finding that state a fact about the regulation itself (a published hold range
#: no table meets), which the submission cannot act on: ``odds``, ``par`` and ``games show``
#: say them; ``validate`` reports them only with ``--show-regulation-notes``.
REGULATION_NOTE_KINDS = frozenset({"published_hold_range"})


def is_regulation_note(code: str) -> bool:
    """Whether a finding code is a fact about the regulation rather than the submission."""
    game, _, constraint = code.partition("/")
    if game == "rulesub" or not constraint:
        return False
    from validator.checks.facts import facts_for, known_games

    if game not in known_games():
        return False
    return any(
        c.id == constraint and c.kind in REGULATION_NOTE_KINDS for c in facts_for(game).constraints
    )
