"""Every finding code, with its name and a one-paragraph doc (``rulesub rules``).

Codes are stable: ``rulesub/<problem>`` for the form of a submission, and
``<game>/<constraint-id>`` for what a game's regulation demands (the constraint ids are
written in the game file or derived from it under fixed names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from validator.checks.findings import Finding, Severity

if TYPE_CHECKING:
    from validator.loader import Located

#: Where a rule's finding is placed: at the value of its JSON pointer in the file, at the
#: key of it, or at the line and column the check gives (where reading stopped, a waiver).
Placement = Literal["value", "key", "given"]


@dataclass(frozen=True)
class Rule:
    """One finding code: what ``rulesub rules`` says of it, and how its finding is written
    (``message`` and ``advice`` are templates the check fills with its values) and placed
    (``at``). A check only decides that a rule fires, where, and with what values."""

    code: str
    name: str
    severity: Severity
    cite: str | None
    summary: str
    doc: str
    hint: str | None = None
    kind: str | None = None  # the constraint kind, for a game's rule
    message: str = field(default="{message}", repr=False, compare=False)
    advice: str | None = field(default=None, repr=False, compare=False)
    at: Placement = field(default="value", repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The rule as ``rulesub rules --format json`` prints it."""
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "cite": self.cite,
            "summary": self.summary,
            "doc": self.doc,
            "hint": self.hint,
            "kind": self.kind,
        }

    def finding(
        self,
        file: str,
        *,
        located: Located | None = None,
        pointer: str = "",
        at: Placement | None = None,
        line: int = 1,
        column: int = 1,
        detail: str = "",
        cite: str | None = None,
        hint: str | None = None,
        remedy: str | None = None,
        **values: Any,
    ) -> Finding:
        """The rule's finding in ``file``: its message (the template filled with ``values``,
        then ``: detail`` where the check gives one), its section (``cite`` where narrower
        than the rule's), what would comply (the advice filled, else ``hint``, else the
        rule's; ``remedy`` the same in a person's words, for the documents), placed as the
        rule says, or as ``at`` says where the check knows better (a
        constraint that points at a key; the reader, which gives the line and column)."""
        message = self.message.format(**values)
        if detail:
            message = f"{message}: {detail}"
        advice = self.advice.format(**values) if self.advice is not None else hint or self.hint
        at = at or self.at
        if at != "given" and located is not None:
            pos = located.position(pointer, key=at == "key")
            line, column = pos.line, pos.column
        return Finding(
            self.code,
            self.severity,
            message,
            cite or self.cite,
            pointer,
            file,
            max(line, 1),
            max(column, 1),
            advice,
            remedy,
        )


def _literal(text: str) -> str:
    """A message template that is ``text`` itself, braces and all."""
    return text.replace("{", "{{").replace("}", "}}")


_HOW_TO_WAIVE = "why the finding cannot be fixed"

#: The codes of a submission's form, of the reading of its file, and of its waivers.
GENERIC: tuple[Rule, ...] = (
    Rule(
        "rulesub/unreadable",
        "unreadable",
        "error",
        None,
        "The file cannot be read as a Rules Submission",
        "The file is not UTF-8 text, not valid YAML, holds a duplicate key, a YAML tag, "
        "anchors that would expand past a sane size or nesting past a sane depth, is larger "
        "than 1 MB, or cannot be opened. Nothing else in it can be checked; the message gives "
        "the line and column where reading stopped. `rulesub validate` exits with code 2, "
        "after checking the other files it was given.",
        "fix the file at the line and column given",
        advice="fix the file at this line and column",
        at="given",
    ),
    Rule(
        "rulesub/not-a-submission",
        "not-a-submission",
        "error",
        None,
        "The file is not a mapping of submission keys",
        "A Rules Submission is a YAML mapping that starts with `rulesub: 1` and names the "
        "certificate holder, the facility, the game, the effective date, the table and the "
        "dealing. An empty file, a list or a single value is none.",
        at="given",
    ),
    Rule(
        "rulesub/unknown-key",
        "unknown-key",
        "error",
        None,
        "A key the format does not know",
        "Every key of a Rules Submission is defined by the format (and, under `paytables`, "
        "`progressives` and `custom_paytables`, by the game file: its tables). An unknown key "
        "is usually a misspelling, and a misspelt key is a choice the regulator never sees; "
        "the message suggests the nearest known key.",
        at="key",
    ),
    Rule(
        "rulesub/missing-key",
        "missing-key",
        "error",
        None,
        "A key the format requires is missing",
        "Every submission states the format version, certificate holder, facility, game, "
        "effective date, table (positions, minimum and maximum wager) and dealing (methods, "
        "shuffler, decks and deck-change interval per method); each progressive states its "
        "meters.",
        at="given",
    ),
    Rule(
        "rulesub/wrong-type",
        "wrong-type",
        "error",
        None,
        "A value of the wrong type",
        "A count is a whole number, a flag is true or false, a date is written 2027-01-01, a "
        "list is a list. Nothing is coerced: text where a number is expected is an error, "
        "since a value the reader has to guess is a value the casino did not state.",
        at="given",
    ),
    Rule(
        "rulesub/bad-value",
        "bad-value",
        "error",
        None,
        "A value outside what the format allows",
        "The value has the right type but is not one the format accepts: a dealing method, "
        "shuffler or wager the game does not have, money written other than as whole dollars "
        "or a string like '$10.50', a count below 1, a payout not in the regulation's notation.",
    ),
    Rule(
        "rulesub/rate-needs-percent",
        "rate-needs-percent",
        "error",
        None,
        "A bare number where a rate is expected",
        "Rates of progression are written with a percent sign ('25%'). A bare number is "
        "refused rather than guessed: 25 could mean 25% or 0.25, and 0.25 could mean 25% or "
        "a quarter of one percent.",
        at="given",
    ),
    Rule(
        "rulesub/unknown-game",
        "unknown-game",
        "error",
        None,
        "The game is not one of the declared games",
        "`game:` names a game file in games/ (`rulesub games list`). A submission for a game "
        "that is not declared cannot be checked against its chapter.",
        "game: one of the ids `rulesub games list` prints",
        message="no game {game!r}{close}; the games are: {games}",
        advice="game: one of {games}",
    ),
    Rule(
        "rulesub/bad-waiver",
        "bad-waiver",
        "error",
        None,
        "A waiver comment that names no code",
        "A waiver reads `# rulesub: ignore[CODE] -- reason` on the line of the finding, or "
        "`# rulesub: file-ignore[CODE] -- reason` anywhere in the file. One that names no code "
        "waives nothing; it is reported so that it is not mistaken for one that works.",
        f"# rulesub: ignore[CODE] -- {_HOW_TO_WAIVE}",
        message="a waiver names the codes it waives: `# rulesub: {kind}[CODE] -- reason`",
        advice="# rulesub: {kind}[CODE, …] -- " + _HOW_TO_WAIVE,
        at="given",
    ),
    Rule(
        "rulesub/waiver-without-reason",
        "waiver-without-reason",
        "error",
        None,
        "A waiver that states no reason",
        "A finding is waived only with the reason it cannot be fixed, written after `--`: "
        "`# rulesub: ignore[lunar-poker/super-hold] -- the chapter's own tables`. The reason "
        "is what a reviewer reads in the report; a waiver without one waives nothing.",
        f"# rulesub: ignore[CODE] -- {_HOW_TO_WAIVE}",
        message="the waiver of {codes} states no reason, so it waives nothing",
        advice="# rulesub: {kind}[{codes}] -- " + _HOW_TO_WAIVE,
        at="given",
    ),
    Rule(
        "rulesub/unused-waiver",
        "unused-waiver",
        "warning",
        None,
        "A waiver that waives nothing",
        "No finding with the waiver's code stands on its line (or, for `file-ignore`, in its "
        "file): the finding was fixed, or the code is misspelt. As ruff reports an unused "
        "`noqa`, rulesub reports the waiver, so that waivers do not outlive their reason.",
        "remove the waiver, or correct its code (`rulesub rules` lists them)",
        message="the waiver of {code} waives nothing: no such finding {where}",
        at="given",
    ),
    Rule(
        "rulesub/listed-twice",
        "listed-twice",
        "warning",
        None,
        "A list that names one entry twice",
        "`offered` names each optional wager once and `dealing: methods:` each dealing method "
        "once. A second mention adds nothing, and is often a slip for another entry "
        "(a wager meant to be offered that the list now leaves out).",
        "remove the second mention, or correct it to the entry meant",
        message="{where} names {entry!r} twice (first at {first})",
    ),
    Rule(
        "rulesub/wager-limits",
        "wager-limits",
        "error",
        None,
        "The minimum wager exceeds the maximum wager",
        "A table whose minimum wager is above its maximum accepts no wager: the limits are "
        "swapped or mistyped.",
        "min_wager at most max_wager",
        message="the minimum wager {low} is above the maximum wager {high}",
    ),
)

_GENERIC_BY_CODE = {r.code: r for r in GENERIC}


def generic_rule(code: str) -> Rule:
    """The rule of a ``rulesub/…`` code (a code the table does not hold is a bug: KeyError)."""
    return _GENERIC_BY_CODE[code]


def generic_rules() -> list[Rule]:
    return list(GENERIC)


def constraint_rule(game_id: str, c: Any) -> Rule:
    doc = f"{c.message} ({c.cite})."
    if c.note:
        doc += f" {c.note}"
    doc += f" Checked as `{c.kind}`" + (f" when {_when(c.when)}." if c.when else ".")
    return Rule(
        f"{game_id}/{c.id}",
        c.id,
        c.severity,
        c.cite,
        c.message,
        doc,
        c.hint,
        c.kind,
        message=_literal(c.message),
    )


_OF_GAME: dict[str, tuple[tuple[Any, ...], dict[str, Rule]]] = {}


def constraint_rules(game_id: str, constraints: tuple[Any, ...]) -> dict[str, Rule]:
    """Constraint id → its rule, for a game's constraints (kept while they are the same)."""
    kept = _OF_GAME.get(game_id)
    if kept is None or kept[0] is not constraints:
        kept = (constraints, {c.id: constraint_rule(game_id, c) for c in constraints})
        _OF_GAME[game_id] = kept
    return kept[1]


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
        elif when.contains_all is not None:
            parts.append(f"{when.field} includes {' and '.join(map(str, when.contains_all))}")
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
    from validator.checks.in_force import REGULATION_NOTES

    if constraint in REGULATION_NOTES:  # a fact about the regulation's copy (its dates)
        return True
    from validator.checks.facts import facts_for, known_games

    if game not in known_games():
        return False
    return any(
        c.id == constraint and c.kind in REGULATION_NOTE_KINDS for c in facts_for(game).constraints
    )
