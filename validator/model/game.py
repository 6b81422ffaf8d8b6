"""The model of a game file (games/<id>.yaml): the chapter's rules as data.

Sections owned by later stages (procedure, settlement, strategies, constraints, signage)
have their own modules; this one holds what the chapter fixes about the table, the cards,
the hands, the wagers and their paytables, meters and limits.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from validator.model.base import Cite, Money, PayoutField, PerUnit, Rate, Strict
from validator.model.constraints import Constraints
from validator.model.history import Dated, Event, Proposal, check_history
from validator.model.poker import BadBeat, Betting, Deal, Players, PokerStrategies, Rake, Showdown
from validator.model.procedure import Settle, Step, Strategies
from validator.model.signage import Signage, Signs, check_signage

Id = str  # a lowercase identifier: wager, table, hand, category ids
ID_PATTERN = r"^[a-z][a-z0-9_]*$"
LETTER_PATTERN = r"^[A-Z]$"


class Source(Strict):
    jurisdiction: str
    chapter: str
    document: str
    key: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9-]*$",
        description="names the rule source in the per-source citations of shared rule files",
    )
    as_of: dt.date | None = None
    note: str | None = None


class TableRules(Strict):
    max_positions: int = Field(ge=1, le=12)
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class Allowed(Strict):
    allowed: bool
    cite: Cite


class Required(Strict):
    required: bool
    cite: Cite
    note: str | None = None


class DeckChange(Strict):
    """Hours between deck changes, at the most, by dealing method."""

    hand: int | None = Field(default=None, ge=1)
    shoe: int | None = Field(default=None, ge=1)
    any: int | None = Field(default=None, ge=1, description="whatever the method (poker)")
    cite: Cite
    cites: dict[Literal["hand", "shoe"], Cite] = Field(
        default_factory=dict, description="the paragraph of each limit, where each has one"
    )


class Dealt(Strict):
    count: int = Field(ge=0)
    name: str | None = Field(
        default=None,
        description="the cards as the chapter names them (the Six Card Bonus card); "
        "default: the group's id in words",
    )
    face_up: list[int] = Field(default_factory=list, description="1-based positions dealt up")
    # the burn cards are the procedure's (a deal step's or a street's ``burn:``), not here
    when_wagered: Id | None = None
    cite: Cite
    note: str | None = None


class Cards(Strict):
    decks: int = Field(ge=1)
    cover_cards: int = Field(default=0, ge=0)
    cite: Cite
    two_decks_with_shuffler: Allowed | None = None
    hand_dealing_requires_shuffler: Required | None = None
    change_every_hours: DeckChange | None = None
    dealt: dict[Id, Dealt] = Field(default_factory=dict)
    note: str | None = None


class HandDef(Strict):
    """A hand the rules speak of: a ranking over some of the cards dealt."""

    ranking: str
    cards: list[Id] = Field(default_factory=list)
    first: int | None = Field(default=None, ge=1, description="only the first n cards dealt")
    losing_of: list[Id] | None = Field(
        default=None, description="the lower of these two hands (Bad Beat: paid on the loser)"
    )
    use: dict[Id, int] | None = Field(
        default=None, description="exactly n cards of each group (Omaha: {player: 2, board: 3})"
    )
    qualifier: str | None = Field(
        default=None, description="a qualifier of the ranking the hand must meet to win"
    )
    cite: Cite
    note: str | None = None

    @model_validator(mode="after")
    def _cards_or_losing(self) -> HandDef:
        if bool(self.cards) == bool(self.losing_of):
            raise ValueError("a hand names either `cards` or `losing_of`, not both or neither")
        if self.use is not None and set(self.use) != set(self.cards):
            raise ValueError("`use:` names how many cards of each group in `cards`, no other")
        return self


class FixedPays(Strict):
    payout: PayoutField
    cite: Cite
    note: str | None = None


class AmountWhen(Strict):
    """When an amount rule applies: a decision taken, a hand held at least as high."""

    decision: str | None = None
    hand: Id | None = None
    at_least: Id | None = None


class AmountRule(Strict):
    when: AmountWhen
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=1)
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class Amount(Strict):
    """A wager sized from another (Play 1-3x Ante; Raise by flush length)."""

    of: Id
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=1)
    cite: Cite
    rules: list[AmountRule] = Field(default_factory=list)
    sign: Signs | None = None
    note: str | None = None


NA = Literal["N/A"]
Stated = Literal["stated"]


class MeterRule(Strict):
    """One meter's seed, reseed and rate of progression as the chapter fixes them."""

    seed: PerUnit | None = None
    reseed: PerUnit | None = None
    seed_at_least: Money | None = None
    reseed_at_least: Money | None = None
    increment: Rate | NA | Stated | None = None
    reserve_increment: Rate | NA | Stated | None = None
    reserve_on_reset: Literal["funds_reseed", "moves_to_meter"] = Field(
        default="funds_reseed",
        description="at a reset, the reserve funds the reseed (the rest kept), or all of it "
        "moves onto the meter",
    )
    note: str | None = None


class CiteOnly(Strict):
    cite: Cite
    note: str | None = None


class PaidWhen(Strict):
    rule: Literal["players_turn"]
    cite: Cite


class Meters(Strict):
    cite: Cite
    sign: Signs | None = None
    paid_when: PaidWhen | None = None
    all: dict[Id, MeterRule] | None = Field(default=None, description="for every paytable")
    paytables: dict[str, dict[Id, MeterRule]] | None = None
    note: str | None = None

    def for_paytable(self, letter: str | None) -> dict[str, MeterRule]:
        if self.paytables and letter in self.paytables:
            return self.paytables[letter]
        return self.all or {}

    @property
    def names(self) -> list[str]:
        """Every meter any paytable of the table has, in the file's order."""
        out: list[str] = []
        for rules in [self.all or {}, *(self.paytables or {}).values()]:
            out += [n for n in rules if n not in out]
        return out


Rows = dict[Id, PayoutField]


class OtherReading(Strict):
    """A reading of the ranking other than the one the text supports, priced beside it where
    the Board's published figures disagree with the text (the figures it would give)."""

    name: str = Field(description="what the reading does, e.g. 'if A-2-3 counted'")
    ace_low: bool = Field(description="the table's ranking with an ace that may play low")
    cite: str
    note: str | None = None


class ApprovedHold(Strict):
    """The hold range the Board states for a wager's paytables (a rulemaking preamble)."""

    tables: int | None = Field(default=None, ge=1, description="how many tables it approved")
    low: Rate = Field(alias="from")
    high: Rate = Field(alias="to")
    cite: str
    note: str | None = None
    other_reading: OtherReading | None = None


class Table(Strict):
    """A paytable the wager is paid on: one fixed table, or letters the casino selects."""

    name: str
    pays_on: Id | None = None
    also_pays_on: Id | None = None
    events: dict[Id, str] | None = None
    envy: CiteOnly | None = None
    only_highest: CiteOnly | None = None
    optional_payout: bool = False
    paid_when: Literal["any", "player_lower"] = Field(
        default="any",
        description="player_lower: paid only when the player's hand loses to the dealer's "
        "(a Bad Beat), never with a win against the dealer",
    )
    cite: Cite
    note: str | None = None
    source: Literal["text", "missing"] = "text"
    paytable: Rows | None = None
    paytables: dict[str, Rows] | None = None
    by_wager_amount: dict[str, dict[str, Rows]] | None = None
    meters: Meters | None = None
    approved_hold: ApprovedHold | None = None
    sign: Signs | None = None
    dated: Dated | None = Field(default=None, description="when the table is the regulation's")
    letters_dated: dict[str, Dated] = Field(
        default_factory=dict, description="when each paytable letter is the regulation's"
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Table:
        kinds = [
            k for k in ("paytable", "paytables", "by_wager_amount") if getattr(self, k) is not None
        ]
        if len(kinds) != 1:
            raise ValueError(
                f"a table has exactly one of paytable (fixed), paytables (letters) or "
                f"by_wager_amount; this one has {kinds or 'none'}"
            )
        if (self.pays_on is None) == (self.events is None):
            raise ValueError("a table is paid either on a hand (`pays_on`) or on `events`")
        for letter in self.paytables or {}:
            if len(letter) != 1 or not letter.isupper():
                raise ValueError(
                    f"paytable {letter!r}: paytables keep the chapter's letters A, B, …"
                )
        if self.source == "missing" and not self.note:
            raise ValueError("a table whose text is missing needs a `note:` of what is known")
        stray = set(self.letters_dated) - set(self.paytables or {})
        if stray:
            raise ValueError(f"letters_dated: no paytable {sorted(stray)} in this table")
        return self

    @property
    def selectable(self) -> bool:
        """Whether the certificate holder selects one of several letters."""
        if self.paytables is not None:
            return True
        return any(set(t) - {"fixed"} for t in (self.by_wager_amount or {}).values())

    @property
    def letters(self) -> list[str]:
        if self.paytables is not None:
            return list(self.paytables)
        letters: list[str] = []
        for tables in (self.by_wager_amount or {}).values():
            letters += [k for k in tables if k != "fixed" and k not in letters]
        return letters

    def rows(self, letter: str | None = None, wager_amount: str | None = None) -> Rows:
        """The rows of the selected table (``letter``), or of the fixed one."""
        if self.paytable is not None:
            return self.paytable
        if self.paytables is not None:
            if letter is None:
                raise KeyError("a paytable letter is needed")
            return self.paytables[letter]
        by_amount = self.by_wager_amount or {}
        amount = wager_amount if wager_amount is not None else next(iter(by_amount))
        tables = by_amount[amount]
        return tables[letter] if letter in tables else tables["fixed"]

    def all_rows(self) -> dict[str, Rows]:
        """Every column of the table, named as `games show` prints it."""
        if self.paytable is not None:
            return {"Payout": self.paytable}
        if self.paytables is not None:
            return {f"Paytable {k}": v for k, v in self.paytables.items()}
        out: dict[str, Rows] = {}
        for amount, tables in (self.by_wager_amount or {}).items():
            for letter, rows in tables.items():
                label = f"${amount} wager" + ("" if letter == "fixed" else f", Paytable {letter}")
                out[label] = rows
        return out


class OnHands(Strict):
    choices: list[Literal["player", "dealer"]]
    cite: Cite


class Wager(Strict):
    name: str
    optional: bool
    cite: Cite
    note: str | None = None
    pays: FixedPays | None = None
    amount: Amount | None = None
    placed_after_cards: bool = False
    requires_equipment: list[Literal["progressive_system", "electronic_wagering_system"]] = Field(
        default_factory=list
    )
    equipment_cite: Cite | None = None
    requires_wager: list[Id] = Field(default_factory=list)  # placed only with each of these
    requires_any_wager: list[Id] = Field(default_factory=list)  # … with one of these at least
    on_hands: OnHands | None = None
    tables: dict[Id, Table] = Field(default_factory=dict)
    dated: Dated | None = Field(default=None, description="when the wager is the regulation's")


class Qualifier(Strict):
    hand: Id
    at_least: Id
    high_card_at_least: int | str | None = None
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class Dealer(Strict):
    qualifies: Qualifier | None = None
    note: str | None = None


class PayoutLimit(Strict):
    optional: bool = True
    at_least: Money
    or_max_win_at_minimum_wager: bool = False
    excludes: list[Id] = Field(default_factory=list)
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class CardRange(Strict):
    min: int = Field(ge=0)
    max: int = Field(ge=0)


class OptionChoice(Strict):
    name: str
    cards: CardRange | None = None
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class OptionsFee(Strict):
    """A fee paid to change the cards or force the dealer (Lunar Poker's Options fee)."""

    name: str
    amount: Amount
    options: dict[Id, OptionChoice]
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class GameDefinition(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    kind: Literal["banking", "nonbanking"]
    source: Source
    extends: list[str] = Field(
        default_factory=list, description="shared rule files (games/include/) this one builds on"
    )
    counterparts: list[str] = Field(
        default_factory=list, description="the same game in another rule source"
    )
    note: str | None = None
    table: TableRules
    cards: Cards
    hands: dict[Id, HandDef]
    dealer: Dealer | None = None
    wagers: dict[Id, Wager]
    options_fee: OptionsFee | None = None
    payout_limit: PayoutLimit | None = None
    adjacent_boxes: Required | None = None
    # Nonbanking Poker (validator/model/poker.py)
    players: Players | None = None
    deal: Deal | None = None
    betting: Betting | None = None
    showdown: Showdown | None = None
    rake: Rake | None = None
    bad_beat: BadBeat | None = None
    # From the game's strategy file (games/strategies/), never from the game file: no part
    # of the game file's schema (the strategy file has its own, strategy.schema.json).
    poker_strategies: SkipJsonSchema[PokerStrategies | None] = None
    # Sections of later stages; their models live in their own modules.
    procedure: list[Step] = Field(default_factory=list)
    settle: Settle | None = None
    strategies: SkipJsonSchema[Strategies | None] = None  # from the strategy file
    constraints: Constraints = Field(default_factory=list)
    signage: Signage | None = None
    # The regulation through time (validator/model/history.py).
    history: list[Event] = Field(
        default_factory=list, description="the chapter's life: adopted, amended, rescinded"
    )
    undated: str | None = Field(
        default=None, description="a rule source with no dates: what it says of its dates"
    )
    proposed: Proposal | None = Field(
        default=None,
        description="an undated chapter's proposed rulemaking: no date before it is in force",
    )

    @field_validator("wagers", "hands")
    @classmethod
    def _ids(cls, value: dict[str, Any]) -> dict[str, Any]:
        import re

        for key in value:
            if not re.match(ID_PATTERN, key):
                raise ValueError(f"{key!r}: ids are lowercase words joined by underscores")
        return value

    @model_validator(mode="after")
    def _signs_resolve(self) -> GameDefinition:
        problems = check_signage(self) + check_history(self.history)
        if self.history and self.undated:
            problems.append("a game file has a `history:` or says it is `undated:`, not both")
        if self.proposed is not None and not self.undated:
            problems.append("`proposed:` bounds an `undated:` chapter's dates; a history dates it")
        problems += _turns_in_one_order(self.procedure)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # -- lookups ---------------------------------------------------------------------------

    def tables(self) -> list[tuple[str, str, Table]]:
        """(wager id, table id, table) for every table of every wager, in file order."""
        return [
            (w, t, table) for w, wager in self.wagers.items() for t, table in wager.tables.items()
        ]

    def system_draws(self) -> dict[str, str]:
        """What the table game system draws: each draw's id, and ``card`` or ``position``."""
        from validator.model.procedure import TableSystemStep

        return {
            draw: str(kind)
            for step in self.procedure
            if isinstance(step, TableSystemStep)
            for draw, kind in step.draws.items()
        }

    def table_by_id(self, table_id: str) -> tuple[str, Table]:
        for w, t, table in self.tables():
            if t == table_id:
                return w, table
        raise KeyError(table_id)

    @property
    def chapter(self) -> str:
        return self.source.chapter


def _turns_in_one_order(procedure: list[Any]) -> list[str]:
    """The steps of one turn (consecutive steps ``in_turn``) go round the table one way."""
    from validator.model.procedure import turns

    return [
        f"the steps of one turn (`in_turn`) go {' and '.join(s.order for s in steps)}"
        for steps in turns(procedure)
        if len({getattr(s, "order", None) for s in steps}) > 1
    ]
