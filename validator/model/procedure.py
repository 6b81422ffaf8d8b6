"""Rounds as data: the procedure of a round, its settlement tables and the strategies.

A game file's ``procedure:`` is the chapter's round as a list of steps, each citing its
section. The step vocabulary (``step:``):

``wagers``        the players' wagers stand ("no more bets"); progressive meters take their
                  increments from the wagers placed on their tables.
``deal``          cards to the players, the dealer, the community or a named spot, one at a
                  time around the table (from the dealer's left, the dealer last); some face
                  up, optionally after burning cards, optionally only when a wager is placed.
``table_system``  a draw by the table game system: a random card, or a random position.
``decide``        each player asked in turn chooses one of the step's options: fold, check,
                  a wager sized from another (Play 1-3x Ante), a fee with a draw, or a mark
                  such as declaring a hand. The choice comes from the round file's actions or
                  from a strategy (a decision table over hand features).
``draw``          the cards the players chose at a decision are dealt: a card added (a sixth
                  card) or discards replaced (an exchange).
``reveal``        the dealer's cards are turned face up.
``qualify``       the dealer's hand is checked against the game's ``dealer.qualifies``.
``replace``       the dealer discards a card (the highest ranking one) and takes the next
                  card from the deck, when any player chose the option that forces it.
``settle``        the dealer settles settlement lines for each player, in the chapter's
                  order of players (from the dealer's left or right), each line by its
                  decision table.

Consecutive ``decide``, ``draw`` and ``settle`` steps marked ``in_turn`` are one turn each
player takes in order: the first player's steps, then the next player's (their ``order``
one and the same).

Nonbanking Poker will add steps to this vocabulary (``betting_round`` among players with
blinds and limits, ``pot`` and side pots, ``rake``, ``showdown``); the engine dispatches on
``step`` so each is a new handler and a new model here, nothing else changes.

``settle:`` holds the settlement lines: for each line the wager it settles and a decision
table (DMN style: rows of conditions, the first matching row wins, every row citing its
section). ``strategies:`` holds decision tables for the player's decisions, over the same
conditions, each strategy with its source.

Conditions (``when:``; every key given must hold):

``folded``                 the player folded
``decided: {D: option}``   the option chosen at decision D (``none``: not asked)
``wagered`` / ``not_wagered``  a wager (or any of a list) is placed
``dealer_qualifies``       the dealer's hand qualifies (``dealer.qualifies``)
``player``                 the comparison of ``settle.compare``: higher, equal or lower
``hand: {H: test}``        hand H: ``at_least`` / ``below`` a category (with leading
                           ranks: ``{category: pair, ranks: [3]}`` is a pair of 3s), or ``is``
                           / ``is_not`` one of some categories (refinements included)
``beats: {hand: A, other: B, is: higher}``  compares two hands of one ranking
``dealer_up``              the dealer's face-up card: ``rank_in`` / ``rank_at_least``
``holds_dealer_up_rank``   the player holds a card of the rank of the dealer's face-up card
``suited: {group: bool}``  the cards of a group are all of one suit
``event``                  the table game system's draw favours this line's hand
``any_player``             (step guards) some player satisfies the nested condition
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from validator.model.base import Cite, PayoutField, Rank, Strict

Id = str
Comparison = Literal["higher", "equal", "lower"]
Order = Literal["from_dealer_left", "from_dealer_right"]


def _one_or_many(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


# one id or a list of them (``is: pair`` or ``is: [pair, two_pair]``), as the schemas say too
IdList = Annotated[list[Id], BeforeValidator(_one_or_many, json_schema_input_type=Id | list[Id])]
Comparisons = Annotated[
    list[Comparison],
    BeforeValidator(_one_or_many, json_schema_input_type=Comparison | list[Comparison]),
]


def _bound(value: Any) -> Any:
    return {"category": value} if isinstance(value, str) else value


class Bound(Strict):
    """The lowest hand of a category, with leading ranks: a pair of 3s, a T-8-6 flush."""

    category: Id
    ranks: list[Rank] = Field(default_factory=list)


#: a category's id alone (``at_least: pair``), or with its leading ranks
BoundField = Annotated[Bound, BeforeValidator(_bound, json_schema_input_type=Id | Bound)]


class HandTest(Strict):
    at_least: BoundField | None = None
    below: BoundField | None = None
    is_: IdList | None = Field(default=None, alias="is")
    is_not: IdList | None = None

    @model_validator(mode="after")
    def _something(self) -> HandTest:
        if not any(v is not None for v in (self.at_least, self.below, self.is_, self.is_not)):
            raise ValueError("a hand test needs at_least, below, is or is_not")
        return self


class Beats(Strict):
    hand: Id
    other: Id
    is_: Comparisons = Field(alias="is")


class CardTest(Strict):
    rank_in: list[Rank] | None = None
    rank_at_least: Rank | None = None


class EventTest(Strict):
    """A table game system's draw: a card among the hand's cards, or this line's position."""

    id: Id
    hand: Id | None = Field(default=None, description="for a card: the hand it must be in")


class When(Strict):
    """Conditions over the round and one player's seat; all given must hold."""

    folded: bool | None = None
    decided: dict[Id, IdList] | None = None
    wagered: IdList | None = None
    not_wagered: IdList | None = None
    dealer_qualifies: bool | None = None
    player: Comparisons | None = None
    hand: dict[Id, HandTest] | None = None
    beats: Beats | None = None
    dealer_up: CardTest | None = None
    holds_dealer_up_rank: bool | None = None
    suited: dict[Id, bool] | None = None
    event: EventTest | None = None
    any_player: When | None = None


# -- settlement ---------------------------------------------------------------------------


class Pays(Strict):
    """A paying outcome: fixed odds, a paytable row, or an Envy Bonus."""

    win: PayoutField | None = None
    paytable: Id | None = None
    hand: Id | None = Field(default=None, description="default: the table's pays_on hand")
    row: Id | None = Field(default=None, description="a fixed row (events)")
    otherwise: Literal["lose", "push", "none", "refuse"] = Field(
        default="lose",
        description="a hand the table has no row for: loses, pushes, no bonus, or (refuse) "
        "the round stops: the hand wins by the text, and the table must say how much",
    )
    second_combination: bool = False
    divide_among_winners: bool = False
    envy: Id | None = None
    envy_from_folded_with: list[Id] = Field(
        default_factory=list,
        description="an Envy Bonus: the hand of a player who folded qualifies the others "
        "while one of these wagers of that player stands, its cards kept to settle it",
    )
    note: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Pays:
        kinds = [k for k in ("win", "paytable", "envy") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"an outcome is one of win, paytable or envy; this one has {kinds}")
        if self.envy_from_folded_with and self.envy is None:
            raise ValueError("envy_from_folded_with belongs to an Envy Bonus (envy:)")
        return self


Simple = Literal["lose", "push", "win", "none"]
Outcome = Simple | Pays


class Row(Strict):
    when: When = Field(default_factory=When)
    then: Outcome
    cite: Cite
    note: str | None = None


class Line(Strict):
    """One settlement line: a wager's own result, or a bonus paid on a wager."""

    name: str | None = None
    wager: Id
    on: Literal["player", "dealer"] = "player"
    bonus: bool = Field(
        default=False, description="pays in addition to the wager; never returns or takes it"
    )
    cite: Cite
    note: str | None = None
    rows: list[Row] = Field(min_length=1)


class Compare(Strict):
    player: Id
    dealer: Id
    cite: Cite
    note: str | None = None


class Void(Strict):
    """An irregularity that voids the round (§ *.13): wagers returned, some still settled."""

    name: str
    cite: Cite
    settles: list[Id] = Field(default_factory=list, description="lines settled all the same")
    note: str | None = None


class BaseGame(Strict):
    """The wagers of the game against the dealer, for its house edge per unit of ``per``."""

    wagers: list[Id]
    per: Id
    fees: bool = False
    note: str | None = None


class Settle(Strict):
    compare: Compare | None = None
    base_game: BaseGame
    lines: dict[Id, Line]
    void: dict[Id, Void] = Field(default_factory=dict)
    note: str | None = None


# -- procedure ------------------------------------------------------------------------------


#: A step of a player's turn: with the consecutive steps marked so, each player's steps in
#: turn, the next player's after (§ 589.11(d): each player from the dealer's left draws, then
#: bets or folds); ``turns`` groups them.
InTurn = Annotated[
    bool,
    Field(
        description="with the steps beside it marked so, one player's turn: each player's "
        "steps in turn, the next player's after (§ 589.11(d): each player from the dealer's "
        "left draws, then bets or folds)"
    ),
]


def turns(procedure: Sequence[Any]) -> list[list[Any]]:
    """The procedure's steps, one at a time, and the consecutive steps ``in_turn`` together
    (one turn each player takes, the engine's and the game file's check's one grouping)."""
    out: list[list[Any]] = []
    for step in procedure:
        if getattr(step, "in_turn", False) and out and getattr(out[-1][0], "in_turn", False):
            out[-1].append(step)
        else:
            out.append([step])
    return out


class Option(Strict):
    """One choice at a decision."""

    name: str | None = None
    fold: bool = False
    wager: Id | None = Field(default=None, description="places this wager, sized by its amount")
    fee: Id | None = Field(default=None, description="pays the options fee for this choice")
    draw: Literal["add", "exchange"] | None = None
    available: When | None = None
    cite: Cite
    note: str | None = None


class WagersStep(Strict):
    step: Literal["wagers"]
    cite: Cite
    note: str | None = None


class DealStep(Strict):
    step: Literal["deal"]
    cards: dict[Id, int] = Field(description="group -> cards each; `player` is every player")
    face_up: dict[Id, list[int]] = Field(default_factory=dict)
    burn: int = Field(default=0, ge=0)
    players: When = Field(default_factory=When, description="the players dealt to")
    when_wagered: Id | None = None
    name: str | None = Field(
        default=None,
        description="the chapter's name for the cards dealt (`the three-card Flop`), as the "
        "narration tells them",
    )
    cite: Cite
    note: str | None = None


class TableSystemStep(Strict):
    step: Literal["table_system"]
    draws: dict[Id, Literal["card", "position"]]
    when_wagered: Id | None = None
    cite: Cite
    note: str | None = None


class DecideStep(Strict):
    step: Literal["decide"]
    id: Id
    players: When = Field(default_factory=When)
    when: When | None = None
    options: dict[Id, Option]
    default: Id | None = None
    order: Order = "from_dealer_left"
    in_turn: InTurn = False
    cite: Cite
    note: str | None = None

    @model_validator(mode="after")
    def _default_known(self) -> DecideStep:
        if self.default is not None and self.default not in self.options:
            raise ValueError(f"default {self.default!r} is not one of the options")
        return self


class DrawStep(Strict):
    step: Literal["draw"]
    players: When = Field(default_factory=When)
    order: Order = "from_dealer_left"
    in_turn: InTurn = False
    cite: Cite
    note: str | None = None


class RevealStep(Strict):
    step: Literal["reveal"]
    cite: Cite
    note: str | None = None


class QualifyStep(Strict):
    step: Literal["qualify"]
    cite: Cite
    note: str | None = None


class ReplaceStep(Strict):
    step: Literal["replace"]
    card: Literal["highest"] = "highest"
    when: When
    cite: Cite
    note: str | None = None


class SettleStep(Strict):
    step: Literal["settle"]
    lines: list[Id]
    players: When = Field(default_factory=When)
    order: Order = "from_dealer_right"
    in_turn: InTurn = False
    cite: Cite
    note: str | None = None


Step = Annotated[
    WagersStep
    | DealStep
    | TableSystemStep
    | DecideStep
    | DrawStep
    | RevealStep
    | QualifyStep
    | ReplaceStep
    | SettleStep,
    Field(discriminator="step"),
]


# -- strategies ---------------------------------------------------------------------------


class Keep(Strict):
    """Which cards an exchange keeps: those of ranks held more than once (``paired``: a
    pair, two pair, trips), else the ``highest`` n; the rest are exchanged."""

    paired: bool = False
    highest: int = Field(default=0, ge=0)


class Choice(Strict):
    """A strategy's choice where an action string cannot say it (which cards to exchange)."""

    option: Id
    keep: Keep


class StrategyRow(Strict):
    when: When = Field(default_factory=When)
    then: str | Choice
    note: str | None = None

    @field_validator("then")
    @classmethod
    def _a_multiple_not_an_amount(cls, then: str | Choice) -> str | Choice:
        # a strategy plays every stake alike: `raise 2x`, never `raise $20` (a round's words)
        if isinstance(then, str) and any(w.startswith("$") for w in then.split()):
            raise ValueError(f"{then!r}: a strategy states a multiple like 2x, not an amount")
        return then


def _published_rate(value: object) -> str:
    from validator.model.notation import parse_rate

    parse_rate(value)  # a percentage as published, kept as written: its digits are its precision
    return str(value)


class PublishedFigure(Strict):
    """A figure a source publishes for a strategy, set beside the computed one on the par
    sheet: agrees when they match to the published digits, else differs with ``reason``."""

    figure: Literal["house_edge", "element_of_risk", "return", "dealer_qualifies"] = Field(
        description="house edge per unit of the initial wager; element of risk (per unit of "
        "all the money wagered); return of the total wagered; how often the dealer qualifies"
    )
    value: Annotated[str, BeforeValidator(_published_rate)] = Field(
        description="as published, e.g. '2.78%' (its digits are its precision)"
    )
    strategy: Id | None = Field(
        default=None,
        description="the strategy the figure is for, where not this one ('optimal': the "
        "one derived from the rules)",
    )
    by: str = Field(description="who published it, and where")
    reason: str | None = Field(
        default=None, description="why the computed figure differs, where it does"
    )


class Strategy(Strict):
    name: str
    source: str
    note: str | None = None
    published: list[PublishedFigure] = Field(default_factory=list)
    decisions: dict[Id, list[StrategyRow]]


class Strategies(Strict):
    default: Id
    by_name: dict[Id, Strategy] = Field(alias="named")

    @model_validator(mode="after")
    def _default_known(self) -> Strategies:
        if self.default not in self.by_name:
            raise ValueError(f"default strategy {self.default!r} is not defined")
        return self


When.model_rebuild()
