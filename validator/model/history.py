"""The regulation through time: a chapter's history and its dated values.

A Rules Submission is filed for an effective date, and the regulation it must satisfy is the
one in force on that date. A game file says when its text was in force in two ways:

- ``history:``, the chapter's life as a list of events, each with its date (the day it took
  effect), its Pennsylvania Bulletin citation, its kind (``adopted``, ``amended``,
  ``rescinded``, ``superseded``), the sections it touched and whether the game file encodes
  the text it gave (``text: encoded``) or that text is not held (``text: missing``)::

      history:
        - {date: 2010-03-06, citation: "40 Pa.B. 1156", kind: adopted, text: encoded}
        - {date: 2010-09-11, citation: "40 Pa.B. 5167", kind: amended, text: missing}
        - date: 2012-05-12
          citation: "42 Pa.B. 2686"
          kind: rescinded
          successor: "58 Pa. Code ch. 637a"

- ``dated:`` on a wager, a paytable, or a letter of a paytable (``letters_dated:``): the value
  is the regulation's from ``since`` (the Bulletin notice ``cite`` put it in force) and,
  where a later notice removed it, until ``until`` (``until_cite``). Before ``since`` the
  value either did not exist (``earlier: none``) or had a wording that is not held
  (``earlier: missing``): then the file's value is shown, and the checks say that the text
  in force on the date is not encoded, never silently.

A rule source with no dates (a house procedures document) says so in ``undated:`` instead of a
history. ``in_force`` answers what the file can tell of a date; ``as_of`` gives the
definition of the values in force on it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, model_validator

from validator.model.base import Strict

if TYPE_CHECKING:
    from validator.model.game import GameDefinition

#: A Pennsylvania Bulletin citation: volume, "Pa.B.", page ("42 Pa.B. 2686").
BULLETIN = re.compile(r"^[1-9][0-9]* Pa\.B\. [1-9][0-9]*$")


def _bulletin(value: Any) -> str:
    if not isinstance(value, str) or not BULLETIN.match(value):
        raise ValueError(
            f"a Pennsylvania Bulletin citation like '42 Pa.B. 2686' was expected, not {value!r}"
        )
    return value


BulletinCite = Annotated[
    str,
    BeforeValidator(_bulletin),
    WithJsonSchema(
        {"type": "string", "pattern": BULLETIN.pattern, "description": "e.g. 42 Pa.B. 2686"}
    ),
]

EventKind = Literal["adopted", "amended", "rescinded", "superseded"]
KINDS: tuple[str, ...] = ("adopted", "amended", "rescinded", "superseded")


class Event(Strict):
    """One event of a chapter's life, as the Bulletin published it."""

    date: dt.date = Field(description="the day the event took effect")
    citation: BulletinCite = Field(description="the Pennsylvania Bulletin notice, '42 Pa.B. 2686'")
    kind: EventKind = Field(description="adopted, amended, rescinded or superseded")
    sections: list[str] = Field(
        default_factory=list,
        description="the sections it touched ('§ 641a.12'); empty where the whole chapter "
        "or where the sections are not known (say which in `note:`)",
    )
    text: Literal["encoded", "missing", "none"] = Field(
        default="missing",
        description="encoded: the game file holds the text this event gave; missing: that "
        "text is not held here; none: the event gave no text (a rescission)",
    )
    successor: str | None = Field(
        default=None, description="the chapter that replaced this one (rescinded, superseded)"
    )
    successor_encoded: bool = Field(
        default=False, description="whether the successor chapter is encoded here"
    )
    predecessor: str | None = Field(
        default=None,
        description="the rules this chapter replaced, as the texts name them, with their "
        "notice (an adoption; not encoded here): 'the temporary ch. 557 (40 Pa.B. 1156)'",
    )
    expires: dt.date | None = Field(
        default=None,
        description="temporary regulations: the day they expire by their own terms ('These "
        "temporary regulations expire 2 years after publication'), unless ended before",
    )
    note: str | None = Field(default=None, description="what the notice says, in its words")

    @model_validator(mode="after")
    def _kind_fields(self) -> Event:
        if self.expires is not None and (self.kind != "adopted" or self.expires <= self.date):
            raise ValueError("`expires` is an adoption's, after the day it took effect")
        ends = self.kind in ("rescinded", "superseded")
        if ends and self.text != "none":
            raise ValueError(f"a {self.kind} event gives no text: write `text: none`")
        if not ends and self.text == "none":
            raise ValueError(f"an {self.kind} event gives text: `encoded` or `missing`")
        if self.successor is not None and not ends:
            raise ValueError("only a rescinded or superseded chapter has a `successor`")
        if self.predecessor is not None and self.kind != "adopted":
            raise ValueError("only an adoption has a `predecessor`")
        return self


class Dated(Strict):
    """When a value is the regulation's, with the Bulletin notice that says so."""

    since: dt.date = Field(description="the day the value's wording took effect")
    cite: BulletinCite = Field(description="the Bulletin notice that put it in force")
    earlier: Literal["none", "missing"] = Field(
        description="before `since`: none, the value did not exist; missing, it had a "
        "wording that is not held here"
    )
    until: dt.date | None = Field(default=None, description="the day a later notice removed it")
    until_cite: BulletinCite | None = Field(default=None, description="the notice that removed it")
    note: str | None = None

    @model_validator(mode="after")
    def _until(self) -> Dated:
        if (self.until is None) != (self.until_cite is None):
            raise ValueError("`until` and `until_cite` go together: the date and its notice")
        if self.until is not None and self.until <= self.since:
            raise ValueError("`until` is after `since`")
        return self

    def in_force(self, date: dt.date) -> bool:
        return dated_in_force(self, date)


def dated_in_force(dated: Any, date: dt.date) -> bool:
    """Whether a dated value is the regulation's on ``date`` (its earlier wording counts
    where it had one: the file's value stands for it, flagged by the checks). Reads only
    fields, so that the checks' projection of a ``Dated`` answers too."""
    if dated.until is not None and date >= dated.until:
        return False
    return bool(date >= dated.since or dated.earlier == "missing")


def check_history(events: list[Event]) -> list[str]:
    """What is wrong with a history as a whole: order, one adoption first, nothing after
    the end."""
    problems: list[str] = []
    dates = [e.date for e in events]
    if dates != sorted(dates):
        problems.append("history: events are listed in date order")
    if events and events[0].kind != "adopted":
        problems.append("history: the first event is the chapter's adoption")
    if sum(1 for e in events if e.kind == "adopted") > 1:
        problems.append("history: a chapter is adopted once")
    ends = [i for i, e in enumerate(events) if e.kind in ("rescinded", "superseded")]
    if ends and ends[0] != len(events) - 1:
        problems.append("history: nothing follows a rescission")
    return problems


# -- what a date means for a game file ------------------------------------------------------


class Proposal(Strict):
    """An undated source's proposed rulemaking: the chapter took effect, if at all, after
    it (45 Pa.B. 4764, August 15, 2015, for chs. 677a and 678a, whose final-form
    publication date the copy leaves blank)."""

    date: dt.date = Field(description="the day the proposal was published")
    citation: BulletinCite = Field(description="the Pennsylvania Bulletin notice, '45 Pa.B. 4764'")
    note: str | None = None


@dataclass(frozen=True)
class InForce:
    """What the game file can tell of the regulation on one date."""

    date: dt.date
    before_adoption: Event | None = None  # the adoption, when the date is before it
    ended: Event | None = None  # the rescission (or supersession), when the date is after it
    #: the adoption of temporary regulations that had expired by the date (none ended them)
    expired: Event | None = None
    #: Amendments whose text on the date differs from the file's and is not held:
    #: in force on the date but not encoded, or encoded but not yet in force.
    not_encoded: list[Event] = field(default_factory=list)
    undated: str | None = None  # a source with no dates: why nothing can be said
    #: an undated source's proposal, when the date is before it: no text was in force
    before_proposal: Proposal | None = None

    @property
    def refused(self) -> bool:
        return self.before_adoption is not None or self.before_proposal is not None


def encoded_event(events: list[Event]) -> Event | None:
    """The latest event whose text the file holds: the version the file encodes."""
    encoded = [e for e in events if e.text == "encoded"]
    return encoded[-1] if encoded else None


def in_force(definition: GameDefinition, date: dt.date) -> InForce:
    events = list(definition.history)
    if not events:
        proposed = definition.proposed
        # the chapter took effect, if at all, on a final-form publication after the
        # proposal: the proposal's own day is before it too
        early = proposed if proposed is not None and date <= proposed.date else None
        return InForce(date, undated=definition.undated, before_proposal=early)
    adoption = events[0]
    if date < adoption.date:
        return InForce(date, before_adoption=adoption)
    ended = next(
        (e for e in events if e.kind in ("rescinded", "superseded") and date >= e.date), None
    )
    version = encoded_event(events)
    version_date = version.date if version is not None else adoption.date
    differs = [
        e
        for e in events
        if e.kind in ("adopted", "amended")
        and (
            (e.date <= date and e.text == "missing" and e.date >= version_date)
            or (date < e.date <= version_date)
        )
    ]
    lapsed = adoption.expires is not None and date >= adoption.expires and ended is None
    return InForce(date, ended=ended, not_encoded=differs, expired=adoption if lapsed else None)


def section_list(events: list[Event]) -> str:
    """The sections of these events, in order, once each ("the sections are not known"
    where an event names none)."""
    seen: list[str] = []
    unknown = False
    for e in events:
        if not e.sections:
            unknown = True
        seen += [s for s in e.sections if s not in seen]
    text = ", ".join(seen)
    if unknown:
        text = (text + "; " if text else "") + "sections not known"
    return text


def long_date(date: dt.date) -> str:
    """A date as the Bulletin writes it: "May 12, 2012"."""
    return f"{date.strftime('%B')} {date.day}, {date.year}"


def describe(event: Event) -> str:
    """An event as a reader cites it: "42 Pa.B. 2686 (May 12, 2012)"."""
    return f"{event.citation} ({long_date(event.date)})"


# -- the values in force on a date ---------------------------------------------------------


def as_of(definition: GameDefinition, date: dt.date) -> GameDefinition:
    """The definition of the values in force on ``date``: a wager, table or paytable letter
    whose ``dated:`` excludes the date is left out. Undated values stand for every date the
    chapter was in force (``in_force`` says where their text is not held)."""
    wagers: dict[str, Any] = {}
    changed = False
    for wid, wager in definition.wagers.items():
        if wager.dated is not None and not wager.dated.in_force(date):
            changed = True
            continue
        tables: dict[str, Any] = {}
        for tid, table in wager.tables.items():
            if table.dated is not None and not table.dated.in_force(date):
                changed = True
                continue
            out = [k for k, d in table.letters_dated.items() if not d.in_force(date)]
            if out and table.paytables is not None:
                changed = True
                kept = {k: v for k, v in table.paytables.items() if k not in out}
                table = table.model_copy(update={"paytables": kept})
            tables[tid] = table
        wagers[wid] = wager.model_copy(update={"tables": tables}) if changed else wager
    if not changed:
        return definition
    return definition.model_copy(update={"wagers": wagers})


def standing(definition: GameDefinition) -> str | None:
    """The chapter's life in one line, as `games show` heads it: "In force from March 6,
    2010 (40 Pa.B. 1156), temporary regulations expiring March 6, 2012; amended 40 Pa.B.
    5167; rescinded by 42 Pa.B. 2686 (May 12, 2012), replaced by 58 Pa. Code ch. 637a (not
    encoded here)"."""
    events = list(definition.history)
    if not events:
        return definition.undated
    first = events[0]
    line = f"In force from {long_date(first.date)} ({first.citation})"
    if first.expires is not None:
        line += f", temporary regulations expiring {long_date(first.expires)}"
    amended = [e.citation for e in events if e.kind == "amended"]
    if amended:
        line += f"; amended {', '.join(amended)}"
    for e in events:
        if e.kind in ("rescinded", "superseded"):
            line += f"; {e.kind} by {describe(e)}"
            if e.successor:
                encoded = "" if e.successor_encoded else " (not encoded here)"
                line += f", replaced by {e.successor}{encoded}"
    return line
