"""The Rules Submission: one certificate holder's choices for one game at one facility.

The format is a contract (issue 4)::

    rulesub: 1
    certificate_holder: Example Downs Racing & Casino
    facility: Example Downs
    game: four-card-poker
    effective: 2027-01-01
    table: {positions: 7, min_wager: 10, max_wager: 500}
    dealing: {methods: [manual_shoe], shuffler: automated_counting, decks: 2,
              change_every_hours: {manual_shoe: 8}}
    offered: [four_card_progressive, six_card_bonus]
    paytables: {aces_up: C, four_card_progressive: B, four_card_envy_bonus: A}
    progressives:
      four_card_progressive:
        wager_amount: 1
        meters: {primary: {seed: 1000, reseed: 1000, increment: 25%, reserve_increment: 5%}}
    equipment: {progressive_system: true, electronic_wagering_system: false}
    adjacent_boxes: 2
    payout_limit: 100000
    custom_paytables: {pocket_bonus: {pair_of_aces: 30 to 1, …}}   # where the text is missing

Money is a number of dollars or a string like ``"$5,000"``; rates are strings with ``%``.

Reading a submission reports *every* problem of form at once: the model takes no field as
required (``REQUIRED`` says which are, and the checks report them), so that a value that
is wrong can be dropped and the rest still checked against the regulation.
"""

from __future__ import annotations

import copy
import datetime as dt
import difflib
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer

from validator.loader import (
    MAX_INT_DIGITS,
    FieldError,
    Located,
    check_flow_depth,
    did_you_mean,
    join,
    locate_errors,
    parse_yaml,
    pointer_escape,
    read_text,
)
from validator.model.base import Money, PayoutField, Rank, Rate
from validator.model.notation import format_rate, parse_rate

FORMAT_VERSION = 1
METHODS = ("hand", "manual_shoe", "automated_shoe")
SHUFFLERS = ("manual", "automated", "automated_counting")
#: Shufflers that are automated card shuffling devices (§ 641a.3(b), § 641a.9(a)(1)).
AUTOMATED_SHUFFLERS = ("automated", "automated_counting")
EQUIPMENT = ("progressive_system", "electronic_wagering_system")

Method = Literal["hand", "manual_shoe", "automated_shoe"]
Shuffler = Literal["manual", "automated", "automated_counting"]


def _rate_or_na(value: Any) -> Fraction:
    """A reserve increment: ``"5%"``, or ``N/A`` for none (read as 0%)."""
    if isinstance(value, str) and value.strip().upper() in ("N/A", "NA"):
        return Fraction(0)
    return parse_rate(value)


RateOrNA = Annotated[
    Fraction, BeforeValidator(_rate_or_na), PlainSerializer(format_rate, return_type=str)
]


class Part(BaseModel):
    """Strict: a wrong type is an error, never coerced; an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class TableLimits(Part):
    """The table's limits. A wager of $0 is no wager: ``settle`` refuses a round that
    states one, so a table minimum of $0 is refused here too."""

    positions: int | None = Field(default=None, ge=1)
    min_wager: Money | None = Field(default=None, gt=0)
    max_wager: Money | None = Field(default=None, gt=0)


class Dealing(Part):
    methods: list[Method] | None = Field(default=None, min_length=1)
    shuffler: Shuffler | None = None
    decks: int | None = Field(default=None, ge=1)
    change_every_hours: dict[Method, Annotated[int, Field(ge=1)]] | None = None


class Meter(Part):
    seed: Money | None = None
    reseed: Money | None = None
    increment: Rate | None = None
    reserve_increment: RateOrNA | None = None


class Progressive(Part):
    wager_amount: Money | None = None
    meters: dict[str, Meter] | None = None


class Equipment(Part):
    progressive_system: bool | None = None
    electronic_wagering_system: bool | None = None


# -- nonbanking Poker (ch. 553): what a Poker table states ------------------------------------

RakeType = Literal["percentage", "incremental", "time"]


class Ante(Part):
    """The rule governing the placement of an Ante, and its amount (§ 553.10(b))."""

    required: bool | None = None
    amount: Money | None = None


class RaisedMinimum(Part):
    """Raising the minimum wager when all patrons agree (§ 553.18)."""

    allowed: bool | None = None
    max_increase: Money | None = None
    agreement: str | None = Field(default=None, min_length=1)


class KillOption(Part):
    """Omaha High-low Eight or Better: the Kill or Half-kill option (§ 553.12(m))."""

    option: Literal["kill", "half_kill", "none"] | None = None
    qualifying_pot: Money | None = None


class PokerBetting(Part):
    max_raises: Annotated[int, Field(ge=1)] | Literal["unlimited"] | None = None
    raised_minimum: RaisedMinimum | None = None
    kill: KillOption | None = None
    # what § 553.8(j) and § 553.18 let the submission state besides
    max_raises_by_round: dict[str, Annotated[int, Field(ge=0)]] | None = None
    check_raise: bool | None = None
    structure: Literal["spread", "fixed", "split"] | None = None
    upper_from: str | None = None


class PercentageRake(Part):
    rate: Rate | None = None
    taken: Literal["per_betting_round", "end_of_round"] | None = None


class RakeLevel(Part):
    pot: Money | None = None
    rake: Money | None = None


class IncrementalRake(Part):
    levels: list[RakeLevel] | None = Field(default=None, min_length=1)
    taken: Literal["as_levels_reached", "end_of_round"] | None = None


class TimeRake(Part):
    basis: Literal["per_player", "per_table"] | None = None
    every_minutes: int | None = Field(default=None, ge=1)
    hourly_fee: Money | None = None


class Rake(Part):
    """The rake: its types, methodology and maximum (§ 553.15(a))."""

    types: list[RakeType] | None = Field(default=None, min_length=1)
    methodology: str | None = Field(default=None, min_length=1)
    maximum: Money | None = None
    percentage: PercentageRake | None = None
    incremental: IncrementalRake | None = None
    time: TimeRake | None = None


class Discontinuation(Part):
    """The Board-approved procedure for discontinuing a Bad Beat payout (§ 553.20(i))."""

    approved: dt.date | None = None
    method: Literal["terminate_contributions", "transfer", "both"] | None = None
    procedure: str | None = Field(default=None, min_length=1)


class BadBeatQualifying(Part):
    """What makes a Bad Beat (§ 553.1 (Bad Beat); § 553.20(b)(3)), as data: the losing hand
    ranks at least ``at_least`` (and, in that category, its ranking cards at least
    ``rank_at_least``: four eights or better), uses at least ``hole_cards`` of the player's
    own cards, and loses to a hand of at least ``beaten_by``."""

    hand: str | None = None
    at_least: str | None = None
    rank_at_least: Rank | None = None
    hole_cards: Annotated[int, Field(ge=0)] | None = None
    beaten_by: str | None = None


class BadBeatShares(Part):
    """How a Bad Beat payout divides the fund (§ 553.20(b)(3)): shares of the fund."""

    losing_hand: Rate | None = None
    winning_hand: Rate | None = None
    table: Rate | None = None


class BadBeat(Part):
    """A Bad Beat payout and its rules (§ 553.20(b)): the posted wording, and the same
    rules as data that ``settle``, ``play`` and ``simulate`` read."""

    offered: bool | None = None
    max_contribution: Money | None = None
    contribution_method: str | None = Field(default=None, min_length=1)
    contribution_rate: Rate | None = None
    minimum_pot: Money | None = None
    qualifying_hands: str | None = Field(default=None, min_length=1)
    qualifying: BadBeatQualifying | None = None
    payouts: str | None = Field(default=None, min_length=1)
    shares: BadBeatShares | None = None
    current_amount: Money | None = None
    box: bool | None = None
    discontinuation: Discontinuation | None = None


class PokerShowdown(Part):
    """Whether every hand at the showdown is shown, conceded ones too (§ 553.16(d))."""

    discarded_hands_shown: bool | None = None


class DeckRotation(Part):
    """The two decks of a Poker table rotated in and out of play (§ 553.3(b)-(d))."""

    alternated_every_round: bool | None = None
    distribution: str | None = Field(default=None, min_length=1)


class RulesSubmission(Part):
    rulesub: Literal[1] | None = None
    certificate_holder: str | None = Field(default=None, min_length=1)
    facility: str | None = Field(default=None, min_length=1)
    game: str | None = None
    effective: dt.date | None = None
    table: TableLimits | None = None
    dealing: Dealing | None = None
    offered: list[str] | None = None
    paytables: dict[str, str] | None = None
    progressives: dict[str, Progressive] | None = None
    equipment: Equipment | None = None
    adjacent_boxes: int | None = Field(default=None, ge=1)
    payout_limit: Money | None = None
    custom_paytables: dict[str, dict[str, PayoutField]] | None = None
    # nonbanking Poker
    ante: Ante | None = None
    blinds: list[Money] | None = Field(default=None, min_length=1)
    forced_bet: Money | None = None
    betting: PokerBetting | None = None
    rake: Rake | None = None
    bad_beat: BadBeat | None = None
    showdown: PokerShowdown | None = None
    deck_rotation: DeckRotation | None = None

    def data(self) -> dict[str, Any]:
        """The stated values, parsed (money ``Decimal``, rates ``Fraction``), as a tree."""
        return _tree(self)

    @property
    def offered_wagers(self) -> list[str]:
        return list(self.offered or ())


def _tree(value: Any) -> Any:
    """A model as plain dicts and lists of its parsed values; unstated fields left out."""
    if isinstance(value, BaseModel):
        return {
            name: _tree(getattr(value, name))
            for name in type(value).model_fields
            if name in value.model_fields_set and getattr(value, name) is not None
        }
    if isinstance(value, dict):
        return {k: _tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tree(v) for v in value]
    return value


#: Keys that must be stated, by the pointer of their mapping (``*``: any key).
REQUIRED: dict[str, tuple[str, ...]] = {
    "": (
        "rulesub",
        "certificate_holder",
        "facility",
        "game",
        "effective",
        "table",
        "dealing",
    ),
    "/table": ("positions", "min_wager", "max_wager"),
    "/dealing": ("methods", "shuffler", "decks", "change_every_hours"),
    "/progressives/*": ("meters",),
}

#: What each field holds, for messages, hints and the JSON Schema.
DESCRIPTIONS: dict[str, str] = {
    "rulesub": "format version: 1",
    "certificate_holder": "the certificate holder filing the Rules Submission",
    "facility": "the licensed facility",
    "game": "a game id from games/",
    "effective": "the date the rules take effect, e.g. 2027-01-01",
    "table": "positions and wager limits (dollars)",
    "positions": "betting positions at the table",
    "min_wager": "table minimum wager, dollars",
    "max_wager": "table maximum wager, dollars",
    "dealing": "how the cards are shuffled and dealt",
    "methods": "dealing methods used: hand, manual_shoe, automated_shoe",
    "shuffler": "manual | automated | automated_counting (counts the 52 cards)",
    "decks": "decks of cards in use",
    "change_every_hours": "hours between deck changes, one entry per dealing method used",
    "offered": "optional wagers offered",
    "paytables": "the paytable letter selected for each selectable table",
    "progressives": "meters of each progressive offered",
    "wager_amount": "the amount of the progressive wager, dollars",
    "meters": "each meter by the chapter's name (primary, mega, major, minor)",
    "seed": "seed (initial) amount, dollars",
    "reseed": "reseed (reset) amount, dollars",
    "increment": "rate of progression (primary incrementation rate), e.g. 25%",
    "reserve_increment": "reserve incrementation rate, e.g. 5%, or N/A",
    "equipment": "table game systems installed",
    "progressive_system": "a progressive table game system (§ 605a.7)",
    "electronic_wagering_system": "an electronic wagering system (§§ 605a.2, 605a.3)",
    "adjacent_boxes": "adjacent boxes a player may wager on in one round",
    "payout_limit": "aggregate payout limit per player per round of play, dollars",
    "custom_paytables": "the table in use where the regulation text is missing",
    # nonbanking Poker
    "ante": "Poker: whether an Ante is required, and its amount (dollars)",
    "required": "whether every player must place it",
    "amount": "its amount, dollars",
    "blinds": "Poker: the amount of each Blind Bet, in order (dollars)",
    "forced_bet": "Poker (Stud): the amount of the Forced Bet, dollars",
    "betting": "Poker: the raise cap, raising the minimum by agreement, the Kill option",
    "max_raises": "the most raises in a betting round, or unlimited",
    "raised_minimum": "raising the minimum wager when all patrons agree",
    "allowed": "whether the minimum wager may be raised by agreement",
    "max_increase": "the most the minimum wager may be increased, dollars",
    "agreement": "how the dealer determines that all patrons agree",
    "kill": "Omaha High-low Eight or Better: the Kill or Half-kill option",
    "option": "kill | half_kill | none",
    "qualifying_pot": "the minimum value of a qualifying pot, dollars",
    "rake": "Poker: the rake's types, methodology and maximum",
    "types": "rake types used: percentage, incremental, time",
    "methodology": "how the rake is calculated",
    "maximum": "the maximum permissible rake from one round of play, dollars",
    "percentage": "the percentage rake",
    "rate": "the share of each pot raked, e.g. 10%",
    "taken": "when it is taken",
    "incremental": "the rake taken by pot levels",
    "levels": "the pot levels and the rake at each, e.g. [{pot: 20, rake: 1}]",
    "pot": "the pot amount reached, dollars",
    "time": "the rake by time charges",
    "basis": "per_player | per_table",
    "every_minutes": "how often the time charge is assessed: 20 or 30",
    "hourly_fee": "the hourly fee, dollars",
    "bad_beat": "Poker: the Bad Beat payout and its rules",
    "max_contribution": "the most contributed from each pot, dollars",
    "contribution_method": "how the contribution is calculated",
    "minimum_pot": "the minimum pot for a contribution, dollars",
    "qualifying_hands": "the Bad Beat hands that qualify",
    "payouts": "how the Bad Beat payout is shared",
    "current_amount": "the Bad Beat payout's current amount, dollars",
    "discontinuation": "the Board-approved procedure for discontinuing the payout",
    "max_raises_by_round": "the most raises in each betting round, by the game's street id",
    "check_raise": "false where a ban on raising after checking is posted (§ 553.8(j))",
    "structure": "spread (any amount from minimum to maximum) | fixed | split (lower, then upper)",
    "upper_from": "split limit: the street from which the upper limit (maximum wager) applies",
    "contribution_rate": "the contribution as a share of the pot after the rake, e.g. 5%",
    "qualifying": "the Bad Beat requirements: at_least, rank_at_least, hole_cards, beaten_by",
    "hand": "the game's hand it is judged on (default: the high hand)",
    "at_least": "the lowest losing hand that qualifies, a category of the ranking",
    "rank_at_least": "within that category, its ranking cards at least this rank (8: eights)",
    "hole_cards": "how many of the player's own cards the losing hand must use",
    "beaten_by": "the lowest winning hand it must lose to",
    "shares": "the payout as shares of the fund: losing_hand, winning_hand, table",
    "losing_hand": "share of the fund to the losing hand",
    "winning_hand": "share of the fund to the hand that beat it",
    "box": "a transparent locked box on the drop box side of the table holds the contributions",
    "showdown": "Poker: whether conceded hands must be shown at the showdown",
    "discarded_hands_shown": "true where the submission requires every discarded hand shown",
    "deck_rotation": "Poker: how the table's two decks are rotated in and out of play",
    "alternated_every_round": "with a shuffler, the two decks alternate every round of play",
    "distribution": "how decks with distinguishable backs are distributed among the tables",
    "approved": "the date the Board approved the procedure",
    "method": "terminate_contributions | transfer | both",
    "procedure": "the procedure, in words",
}


# -- reading a file ------------------------------------------------------------------------

#: The problems of form where a value written in the file was not read as written: the
#: commands that act on a submission's figures (play, simulate, settle, par, odds, diff)
#: refuse them rather than act on defaults. A key left out (``rulesub/missing-key``) is
#: reported by ``validate`` and misreads nothing.
MISREAD = frozenset(
    {"rulesub/unknown-key", "rulesub/wrong-type", "rulesub/bad-value", "rulesub/rate-needs-percent"}
)


@dataclass(frozen=True)
class FormatProblem:
    """A readable submission that is not well formed: where, what, what would do."""

    code: str  # rulesub/unknown-key, rulesub/wrong-type, …
    message: str
    pointer: str
    line: int
    column: int
    hint: str | None = None

    @property
    def misread(self) -> bool:
        """Whether something written in the file was not read as written (an unknown or
        misspelt key, a value of the wrong form): a command that acts on the submission's
        figures would act on defaults instead. A key left out is reported, not misread."""
        return self.code in MISREAD


@dataclass
class LoadedSubmission:
    located: Located
    submission: RulesSubmission | None  # None: not a mapping at all
    problems: list[FormatProblem] = field(default_factory=list)


def load_submission(path: Path | str, *, display: str | None = None) -> LoadedSubmission:
    """Read and parse one submission. Raises ``LoadError`` when the file cannot be read."""
    located = read_yaml(Path(path), display=display)
    return parse_submission(located)


def read_yaml(path: Path, *, display: str | None = None) -> Located:
    """``load_yaml``'s result, read through libyaml when the document is plain.

    ``validator.loader.load_yaml`` reads with ruamel.yaml's pure-Python round-trip parser,
    a few milliseconds a file: most of the time of validating a thousand submissions. A
    submission is a small, plain document, and libyaml's C parser reads it fifty times
    faster. So the events libyaml reports are built into the same ``Located`` (YAML 1.2
    values, positions by JSON pointer), and anything outside the plain subset (anchors,
    aliases, tags, several documents, merge keys, duplicate keys, numbers written other
    than as plain decimal integers, dates with times, empty values, nesting or size past
    the loader's limits, text that is not UTF-8) is read by ``load_yaml`` itself, which
    gives its own value or its own error. The tests hold the two readers to the same
    result on every shipped submission and on generated ones.
    """
    name = display or str(path)
    text = read_text(path, display=name)
    check_flow_depth(text, name)  # before libyaml: its time is quadratic in that depth
    fast = _read_plain(path, text)  # within the depth and value bounds, or None
    if fast is not None:
        return fast
    return parse_yaml(text, path, name)


_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
_NUMBERISH = re.compile(r"[-+]?[.0-9][0-9_.eExXoObBa-fA-F+:-]*")
_TRUE, _FALSE, _NULL = (
    {"true", "True", "TRUE"},
    {"false", "False", "FALSE"},
    {"~", "null", "Null", "NULL"},
)


class _NotPlain(Exception):
    """The document uses YAML beyond the plain subset: let the full loader read it."""


def _read_plain(path: Path, text: str) -> Located | None:
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML is a dependency
        return None
    parser = getattr(yaml, "CSafeLoader", None)
    if parser is None:
        return None
    if "\t" in text:
        return None  # libyaml takes a tab as a separator where ruamel.yaml refuses it
    if any(c in text for c in "\x85\u2028\u2029"):
        return None  # line breaks to YAML 1.1 (libyaml), not to YAML 1.2 (the loader)
    try:
        events = list(yaml.parse(text, Loader=parser))
    except yaml.YAMLError:
        return None
    located = Located(path=path, data=None, text=text)
    try:
        located.data = _Builder(events, located).document()
    except (_NotPlain, IndexError, ValueError):
        return None
    return located


class _Builder:
    """Plain Python from libyaml's events, with ``load_yaml``'s positions (1-based)."""

    def __init__(self, events: list[Any], located: Located) -> None:
        import yaml

        self.yaml = yaml
        self.events = events
        self.i = 0
        self.loc = located
        self.count = 0

    def next(self) -> Any:
        ev = self.events[self.i]
        self.i += 1
        return ev

    def document(self) -> Any:
        y = self.yaml
        if not isinstance(self.next(), y.StreamStartEvent):
            raise _NotPlain
        ev = self.next()
        if isinstance(ev, y.StreamEndEvent):
            return None
        if not isinstance(ev, y.DocumentStartEvent):
            raise _NotPlain
        root = self.next()
        if isinstance(root, y.MappingStartEvent):
            self.loc.positions[""] = _pos(root)
        data = self.node(root, "", 0)
        if not isinstance(self.next(), y.DocumentEndEvent):
            raise _NotPlain
        if not isinstance(self.next(), y.StreamEndEvent):
            raise _NotPlain  # more than one document
        return data

    def node(self, ev: Any, pointer: str, depth: int) -> Any:
        from validator.loader import MAX_DEPTH, MAX_NODES

        y = self.yaml
        self.count += 1
        if depth > MAX_DEPTH or self.count > MAX_NODES:
            raise _NotPlain
        if isinstance(ev, y.AliasEvent) or getattr(ev, "anchor", None) is not None:
            raise _NotPlain
        if getattr(ev, "tag", None) is not None:
            raise _NotPlain
        if isinstance(ev, y.ScalarEvent):
            return _scalar(ev)
        if isinstance(ev, y.MappingStartEvent):
            out: dict[str, Any] = {}
            while True:
                key_ev = self.next()
                if isinstance(key_ev, y.MappingEndEvent):
                    return out
                if not isinstance(key_ev, y.ScalarEvent) or key_ev.anchor or key_ev.tag:
                    raise _NotPlain
                key = _scalar(key_ev)
                if isinstance(key, bool) or not isinstance(key, str | int) or key == "<<":
                    raise _NotPlain
                key = str(key)
                if key in out:
                    raise _NotPlain  # a duplicate: the loader says where
                child = join(pointer, key)
                value_ev = self.next()
                self.loc.key_positions[child] = _pos(key_ev)
                self.loc.positions[child] = _pos(value_ev)
                out[key] = self.node(value_ev, child, depth + 1)
        if isinstance(ev, y.SequenceStartEvent):
            items: list[Any] = []
            while True:
                item_ev = self.next()
                if isinstance(item_ev, y.SequenceEndEvent):
                    return items
                child = join(pointer, len(items))
                self.loc.positions[child] = _pos(item_ev)
                items.append(self.node(item_ev, child, depth + 1))
        raise _NotPlain


def _pos(ev: Any) -> Any:
    from validator.loader import Position

    return Position(ev.start_mark.line + 1, ev.start_mark.column + 1)


def _scalar(ev: Any) -> Any:
    """A scalar as ruamel.yaml reads it under YAML 1.2, or ``_NotPlain`` when unsure."""
    value: str = ev.value
    if ev.style:  # quoted, literal or folded: text as written (plain is "" or None)
        return value
    if value == "":
        raise _NotPlain
    if _INT.fullmatch(value):
        if len(value.lstrip("+-")) > MAX_INT_DIGITS:
            raise _NotPlain  # the loader refuses it, with its position
        return int(value)
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if value in _NULL:
        return None
    if m := _DATE.fullmatch(value):
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if _NUMBERISH.fullmatch(value) or (value[:1] in ".+-" and value[1:2] in ".0123456789iInN"):
        raise _NotPlain
    if re.match(r"\d{4}-\d\d?-\d\d?", value) or value.lower().lstrip("+-") in (".inf", ".nan"):
        raise _NotPlain
    return value


def parse_submission(located: Located) -> LoadedSubmission:
    data = located.data
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {_describe(data)}"
        problem = FormatProblem(
            "rulesub/not-a-submission",
            "a Rules Submission is a mapping of keys (rulesub, game, table, …); "
            f"this file is {what}",
            "",
            1,
            1,
            "start from an example in rulesubs/example/",
        )
        return LoadedSubmission(located, None, [problem])
    problems: list[FormatProblem] = []
    seen: set[tuple[str, str]] = set()
    work = copy.deepcopy(data)
    submission: RulesSubmission | None = None
    from pydantic import ValidationError

    dropped: list[str] = []
    for _ in range(8):  # each pass drops what was wrong; the model has no required field
        try:
            submission = RulesSubmission.model_validate(work)
            break
        except ValidationError as exc:
            known = known_keys(work)
            drop: list[str] = []
            for raw in exc.errors(include_url=False):
                located_errors = locate_errors(_OneError(raw), located, known)
                if not located_errors:
                    continue
                err = located_errors[0]
                drop.append(err.pointer)
                if any(d.startswith(err.pointer.rstrip("/") + "/") for d in dropped):
                    continue  # a list or mapping left short by a value already reported
                problem = _problem(err, raw, located)
                if (problem.pointer, problem.code) not in seen:
                    seen.add((problem.pointer, problem.code))
                    problems.append(problem)
            dropped += drop
            if not _prune(work, drop):
                break
    problems += missing_keys(data, located)
    problems += [p for p in empty_values(data, located) if (p.pointer, p.code) not in seen]
    return LoadedSubmission(located, submission, problems)


def empty_values(data: Any, located: Located, pointer: str = "") -> list[FormatProblem]:
    """A key written with no value (``payout_limit:``): never meaningful in a submission."""
    out: list[FormatProblem] = []
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for k, v in items:
        child = join(pointer, k)
        if v is None:
            pos = located.position(child, key=isinstance(data, dict))
            name = str(k)
            out.append(
                FormatProblem(
                    "rulesub/bad-value",
                    f"{child}: no value is written",
                    child,
                    pos.line,
                    pos.column,
                    f"write the value ({DESCRIPTIONS[name]}), or remove the key"
                    if name in DESCRIPTIONS
                    else "write the value, or remove the key",
                )
            )
        else:
            out += empty_values(v, located, child)
    return out


@dataclass
class _OneError:
    """One pydantic error, shaped like a ``ValidationError`` for ``locate_errors``."""

    error: Mapping[str, Any]

    def errors(self, include_url: bool = False) -> list[Mapping[str, Any]]:
        return [self.error]


def missing_keys(data: dict[str, Any], located: Located) -> list[FormatProblem]:
    out: list[FormatProblem] = []

    def check(pointer: str, mapping: Any, keys: tuple[str, ...]) -> None:
        if not isinstance(mapping, dict):
            return
        for key in keys:
            if key not in mapping:
                pos = located.position(pointer, key=True)
                where = pointer or "the top level"
                out.append(
                    FormatProblem(
                        "rulesub/missing-key",
                        f"missing required key {key!r} in {where}",
                        join(pointer, key),
                        pos.line,
                        pos.column,
                        f"add `{key}:` ({DESCRIPTIONS.get(key, key)})",
                    )
                )

    for parent, keys in REQUIRED.items():
        if "*" in parent:
            head, _, tail = parent.partition("/*")
            container = resolve(data, head)
            if isinstance(container, dict):
                for k, v in container.items():
                    check(join(head, k) + tail, resolve(v, tail) if tail else v, keys)
        else:
            check(parent, resolve(data, parent) if parent else data, keys)
    return out


_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text",
    "bool_type": "true or false",
    "date_type": "a date like 2027-01-01",
    "date_parsing": "a date like 2027-01-01",
    "date_from_datetime_inexact": "a date like 2027-01-01, without a time",
    "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values",
    "list_type": "a list, e.g. [manual_shoe]",
    "decimal_type": "a number of dollars or a string like '$5,000'",
}


def _problem(err: FieldError, raw: Mapping[str, Any], located: Located) -> FormatProblem:
    pointer, kind = err.pointer, err.kind
    name = pointer.rsplit("/", 1)[-1] or "the file"
    value = raw.get("input")
    if kind == "extra_forbidden":
        parent = pointer.rsplit("/", 1)[0]
        choices = known_keys_at(parent)
        close = difflib.get_close_matches(pointer.rsplit("/", 1)[-1], choices, n=1, cutoff=0.6)
        hint = f"rename it to {close[0]!r}" if close else "remove the key, or correct it"
        message = err.message
        if close:  # the suggestion says enough: leave out the list of every key
            message = message.split("; expected one of:")[0]
        return FormatProblem("rulesub/unknown-key", message, pointer, err.line, err.column, hint)
    if kind in _EXPECTED:
        return FormatProblem(
            "rulesub/wrong-type",
            f"{pointer}: expected {_EXPECTED[kind]}, not {_describe(value)} {_show(value)}",
            pointer,
            err.line,
            err.column,
            f"write {_EXPECTED[kind]}"
            + (f" ({DESCRIPTIONS[name]})" if name in DESCRIPTIONS else ""),
        )
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", str(raw.get("ctx", {}).get("expected", "")))
        if not allowed:
            allowed = re.findall(r"\b\d+\b", str(raw.get("ctx", {}).get("expected", "")))
        return FormatProblem(
            "rulesub/bad-value",
            f"{pointer}: {_show(value)} is not one of: {', '.join(allowed)}"
            f"{did_you_mean(str(value), allowed)}",
            pointer,
            err.line,
            err.column,
            f"write one of: {', '.join(allowed)}",
        )
    bare = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "value_error" and bare and err.message.startswith("rate "):
        return FormatProblem(
            "rulesub/rate-needs-percent",
            f"{pointer}: {value!r} is a bare number where a rate is expected; "
            "a rate is written with a percent sign",
            pointer,
            err.line,
            err.column,
            f"write '{value}%' if {value} percent is meant",
        )
    if kind in ("greater_than_equal", "too_short"):
        ctx = raw.get("ctx", {})
        need = f"at least {ctx['ge']}" if "ge" in ctx else f"at least {ctx.get('min_length')} item"
        return FormatProblem(
            "rulesub/bad-value",
            f"{pointer}: {_show(value) or 'this'} is too small: it must be {need}",
            pointer,
            err.line,
            err.column,
            DESCRIPTIONS.get(name),
        )
    described = DESCRIPTIONS.get(name)
    if _index(name) or pointer.startswith("/custom_paytables/"):
        described = None
    return FormatProblem(
        "rulesub/bad-value", f"{pointer}: {err.message}", pointer, err.line, err.column, described
    )


def _describe(value: Any) -> str:
    match value:
        case bool():
            return "true/false"
        case int() | float():
            return "a number"
        case str():
            return "text"
        case dict():
            return "mapping"
        case list():
            return "list"
        case dt.date():
            return "a date"
        case None:
            return "nothing"
    return type(value).__name__


def _show(value: Any) -> str:
    if isinstance(value, dict | list):
        return ""
    text = repr(value) if not isinstance(value, dt.date) else value.isoformat()
    return text if len(text) <= 40 else text[:37] + "…"


def _prune(data: Any, pointers: list[str]) -> bool:
    """Drop the values at ``pointers`` (deepest first, list items from the end)."""
    removed = False

    def key(p: str) -> tuple[int, list[Any]]:
        parts = [int(x) if _index(x) else x for x in _split(p)]
        return (-len(parts), [(-x if isinstance(x, int) else 0) for x in parts])

    for pointer in sorted(set(pointers), key=key):
        parts = _split(pointer)
        if not parts:
            continue
        parent = resolve(data, "".join(f"/{pointer_escape(p)}" for p in parts[:-1]))
        last = parts[-1]
        if isinstance(parent, dict) and last in parent:
            del parent[last]
            removed = True
        elif isinstance(parent, list) and _index(last) and int(last) < len(parent):
            del parent[int(last)]
            removed = True
    return removed


def _index(part: str) -> bool:
    """A JSON pointer part that is a list index (ASCII digits only: '¹' is a key)."""
    return part.isascii() and part.isdigit()


def _split(pointer: str) -> list[str]:
    if pointer in ("", "/"):
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def resolve(data: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``data``, or ``MISSING``."""
    cur = data
    for part in _split(pointer):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and _index(part) and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return MISSING
    return cur


# -- the model's keys, by pointer --------------------------------------------------------------


def _model_at(pointer: str) -> type[BaseModel] | None:
    """The model class that the mapping at ``pointer`` is read with, if any."""
    hint: Any = RulesSubmission
    for part in _split(pointer):
        hint = _unwrap(hint)
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            f = hint.model_fields.get(part)
            if f is None:
                return None
            hint = f.annotation
        elif typing.get_origin(hint) is dict:
            hint = typing.get_args(hint)[1]
        elif typing.get_origin(hint) is list:
            hint = typing.get_args(hint)[0]
        else:
            return None
    hint = _unwrap(hint)
    return hint if isinstance(hint, type) and issubclass(hint, BaseModel) else None


def _unwrap(hint: Any) -> Any:
    while True:
        origin = typing.get_origin(hint)
        if origin is Annotated:
            hint = typing.get_args(hint)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            hint = args[0] if len(args) == 1 else hint
            if len(args) != 1:
                return hint
        else:
            return hint


def known_keys_at(pointer: str) -> list[str]:
    model = _model_at(pointer)
    return list(model.model_fields) if model else []


def known_keys(data: Any, pointer: str = "") -> dict[str, Iterable[str]]:
    """Field names by the pointer of every mapping in ``data`` read by a model."""
    out: dict[str, Iterable[str]] = {}
    if isinstance(data, dict):
        keys = known_keys_at(pointer)
        if keys:
            out[pointer] = keys
        for k, v in data.items():
            out.update(known_keys(v, join(pointer, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.update(known_keys(v, join(pointer, i)))
    return out
