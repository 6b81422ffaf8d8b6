"""The sections of a nonbanking Poker game file (ch. 553 and the house procedures).

Players bet against each other and the house takes a rake, so a Poker game file has, beside
the table, cards and hands every game has:

- ``players``: how many may play at a Poker table at all (§ 553.7(b));
- ``deal``: the streets of a round of play, in order: burns, cards to each player or to the
  board, blind bets, the draw, the betting round that follows; the button; the Stud common
  card when the deck runs short (§ 553.10(h));
- ``betting``: the actions, table stakes and All-in, the posted limits and split limits, the
  Forced Bet by up-card, who acts first on later streets, the Kill / Half-kill;
- ``showdown``: which hand wins which part of the pot, the eight-or-better qualifier, the
  odd chip of a split pot, the order hands are shown;
- ``rake`` (§ 553.15) and ``bad_beat`` (§ 553.20).

Figures a certificate holder chooses (the ante, the limits, the rake rate) are stated in its
Rules Submission; the game file says what the regulation allows and requires of them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, WithJsonSchema, model_validator

from validator.model.base import Cite, Money, Rank, Rate, Strict
from validator.model.signage import Signs

StreetId = str


class CiteRule(Strict):
    cite: Cite
    note: str | None = None


class Players(Strict):
    """How many players a Poker table seats, whatever the game (§ 553.7(b))."""

    min: int = Field(ge=2)
    max: int = Field(ge=2, le=12)
    cite: Cite
    note: str | None = None


# -- deal -------------------------------------------------------------------------------------


class DealRound(Strict):
    """Cards dealt at one point of a street: ``rounds`` rounds of one card to each player
    still in, clockwise (``to: player``), or ``rounds`` cards to the board."""

    to: Literal["player", "board"]
    face: Literal["up", "down"]
    rounds: int = Field(default=1, ge=1)


class Draw(Strict):
    """Each player in turn may discard and receive as many new cards (§ 553.13(g))."""

    reshuffle_discards: bool
    cite: Cite
    note: str | None = None


class StreetBetting(Strict):
    """The betting round after a street is dealt, and who must open it."""

    opens: Literal["forced_bet", "left_of_blinds", "left_of_button", "showing"]
    limit: Literal["lower", "upper"] = "lower"
    cite: Cite
    note: str | None = None


class Street(Strict):
    name: str
    burn: int = Field(default=0, ge=0)
    blinds: Literal["before_deal", "after_deal"] | None = None
    deal: list[DealRound] = Field(default_factory=list)
    draw: Draw | None = None
    betting: StreetBetting | None = None
    cite: Cite
    note: str | None = None

    @property
    def in_sentence(self) -> str:
        """The street's name inside a sentence ("from fifth street"): its first letter
        lower, unless its first words are a term the chapter capitalises ("Blind Bets and
        hole cards")."""
        words = self.name.split(" ")
        if len(words) > 1 and words[1][:1].isupper():
            return self.name
        return self.name[:1].lower() + self.name[1:]


class Button(Strict):
    placed: list[Literal["first_right_of_dealer", "high_card"]]
    rotates: Literal["clockwise"] = "clockwise"
    cite: Cite
    note: str | None = None


class CommonCard(Strict):
    """Stud: when the deck cannot give each remaining player a card on these streets, one
    card is dealt face up in the centre for all; with one card or none left, the burn cards
    are shuffled first (§ 553.10(h))."""

    streets: list[StreetId] = Field(min_length=1)
    shuffle_burns_when_left: int = Field(default=1, ge=0)
    cite: Cite
    note: str | None = None


class Deal(Strict):
    first: Literal["dealer_left", "button_left"]
    cite: Cite
    button: Button | None = None
    streets: dict[StreetId, Street] = Field(min_length=1)
    common_card: CommonCard | None = None
    note: str | None = None

    def bets_the_upper_limit(self) -> bool:
        """Whether some street bets the upper limit: a table whose filing states no limit
        structure is then split (the lower limit, then the upper), else spread; the one
        reading for the rounds and the sign."""
        return any(
            s.betting is not None and s.betting.limit == "upper" for s in self.streets.values()
        )

    @model_validator(mode="after")
    def _consistent(self) -> Deal:
        if (self.first == "button_left") != (self.button is not None):
            raise ValueError("a deal that starts left of the button needs `button:` (and only it)")
        for sid in self.common_card.streets if self.common_card else ():
            if sid not in self.streets:
                raise ValueError(f"common_card: no street {sid!r}")
        return self


# -- betting ----------------------------------------------------------------------------------

Action = Literal["fold", "check", "call", "bet", "raise"]


class CheckRaise(Strict):
    allowed: bool
    unless_posted: bool = False
    cite: Cite
    note: str | None = None


class Limits(Strict):
    """The posted minimum and maximum wagers and the raise cap (§ 553.18)."""

    posted: bool = True
    max_raises_stated: bool = False
    min_raised_by_agreement: bool = False
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class SplitLimit(Strict):
    """A lower limit on the early streets and an upper limit from ``upper_from`` on."""

    upper_from: StreetId
    open_pair: Literal["upper", "no_effect"] = "no_effect"
    open_pair_street: StreetId | None = None
    cite: Cite
    note: str | None = None


class ForcedBet(Strict):
    """Stud: the player whose up-card is the lowest (or highest) by ``card_order`` must
    open the first betting round (§ 553.10(d); § 553.14(d))."""

    by: Literal["lowest", "highest"]
    card_order: str
    cite: Cite
    note: str | None = None


class FirstToAct(Strict):
    """Stud, later streets: the best hand showing under ``ranking`` acts first; ties go to
    the player nearest the dealer's left (§ 553.10(f))."""

    ranking: str
    ties: Literal["nearest_dealer_left"] = "nearest_dealer_left"
    cite: Cite
    note: str | None = None


def _multiplier(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
        raise ValueError(f"a multiplier like 2 or 1.5 was expected, not {value!r}")
    try:
        m = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"a multiplier like 2 or 1.5 was expected, not {value!r}") from None
    if m <= 1:
        raise ValueError(f"a multiplier raises the limits: more than 1, not {value!r}")
    return m


Multiplier = Annotated[
    Fraction,
    BeforeValidator(_multiplier),
    PlainSerializer(lambda f: str(f.numerator) if f.denominator == 1 else str(float(f))),
    WithJsonSchema({"type": ["number", "string"], "description": "2 or 1.5"}),
]


class Kill(Strict):
    """Omaha High-low Eight or Better: after one player wins an entire qualifying pot the
    limits are multiplied for the next hand (Kill: 2; Half-kill: 1½) (§ 553.1)."""

    options: dict[Literal["kill", "half_kill"], Multiplier]
    qualifying_pot_stated: bool = True
    cite: Cite
    sign: Signs | None = None
    note: str | None = None


class Betting(Strict):
    actions: list[Action]
    cite: Cite
    table_stakes: CiteRule
    all_in: CiteRule
    check_raise: CheckRaise | None = None
    limits: Limits
    split_limit: SplitLimit | None = None
    forced_bet: ForcedBet | None = None
    first_to_act: FirstToAct | None = None
    kill: Kill | None = None
    note: str | None = None


# -- showdown ---------------------------------------------------------------------------------


class OddChips(Strict):
    """Who receives what cannot be divided equally (§ 553.10(i)(2)(i)-(iv))."""

    pot_excess_to: Literal["high"] = "high"
    high_ties: Literal["highest_card_by_suit"] = "highest_card_by_suit"
    low_ties: Literal["lowest_card_by_suit"] = "lowest_card_by_suit"
    card_order: str
    cap: Money | None = None
    cite: Cite
    note: str | None = None


class ShowdownOrder(Strict):
    first: Literal["last_aggressor"] = "last_aggressor"
    then: Literal["clockwise"] = "clockwise"
    concede: bool = True
    cite: Cite
    note: str | None = None


class Showdown(Strict):
    pot: Literal["high", "low", "high_low"]
    high: str | None = None
    low: str | None = None
    no_qualifying_low: CiteRule | None = None
    ties: CiteRule
    odd_chips: OddChips
    order: ShowdownOrder
    cite: Cite
    note: str | None = None

    @model_validator(mode="after")
    def _hands(self) -> Showdown:
        need = {"high": ["high"], "low": ["low"], "high_low": ["high", "low"]}[self.pot]
        for part in need:
            if getattr(self, part) is None:
                raise ValueError(f"a {self.pot} pot needs the `{part}:` hand")
        return self


# -- rake and Bad Beat --------------------------------------------------------------------------


class PercentageRake(Strict):
    max: Rate | None = None
    taken: list[Literal["per_betting_round", "end_of_round"]] = Field(min_length=1)
    cite: Cite
    note: str | None = None


class IncrementalRake(Strict):
    taken: list[Literal["as_levels_reached", "end_of_round"]] = Field(min_length=1)
    cite: Cite
    note: str | None = None


class TimeRake(Strict):
    basis: list[Literal["per_player", "per_table"]] = Field(min_length=1)
    every_minutes: list[int] = Field(min_length=1)
    inactive_players_assessed: bool = False
    hourly_by_limits: bool = False
    cite: Cite
    note: str | None = None


class Rake(Strict):
    cite: Cite
    stated: list[Literal["types", "methodology", "maximum"]] = Field(default_factory=list)
    stated_cite: Cite | None = None
    percentage: PercentageRake | None = None
    incremental: IncrementalRake | None = None
    time: TimeRake | None = None
    uncalled_bet: CiteRule | None = Field(
        default=None, description="the uncalled final bet is not raked"
    )
    final: CiteRule | None = None
    sign: Signs | None = None
    note: str | None = None


class BadBeat(Strict):
    """A payout from a separate fund to predesignated losing hands (§ 553.20)."""

    optional: bool = True
    cite: Cite
    rules_posted: list[
        Literal["max_contribution_and_method", "minimum_pot", "qualifying_hands_and_payouts"]
    ]
    rules_cite: Cite
    contribution_after_rake: CiteRule
    discontinuation: CiteRule
    #: a hand that won anything in the round of play is no losing hand (the definition)
    losing_hand: CiteRule
    sign: Signs | None = None
    note: str | None = None


# -- players' strategies ------------------------------------------------------------------------

Tier = Literal["weak", "fair", "strong", "premium"]
#: The strength tiers, weakest first: a high-low game plays the better of its two.
TIERS: tuple[Tier, ...] = ("weak", "fair", "strong", "premium")


class HighTiers(Strict):
    """The high hand's tier by the category it makes so far (the rest are ``weak``)."""

    categories: dict[str, Tier] = Field(min_length=1)
    unfinished_high_card: Rank = Field(
        description="before five cards are out, a high card this high or higher is fair"
    )
    note: str | None = None


class LowTiers(Strict):
    """An unpaired low's tier by its highest card, the ace counting 1."""

    strong_at_most: int = Field(ge=1, le=13, description="strong; premium once five cards")
    fair_at_most: int = Field(ge=1, le=13, description="fair; also the draw's keep limit")
    note: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> LowTiers:
        if self.strong_at_most > self.fair_at_most:
            raise ValueError("strong_at_most is at most fair_at_most")
        return self


class TierActions(Strict):
    """What a player does with nothing to call (``free``) and facing a bet (``facing``)."""

    free: Action
    facing: Action


class PokerStrategy(Strict):
    name: str
    note: str | None = None
    actions: dict[Tier, TierActions]

    @model_validator(mode="after")
    def _every_tier(self) -> PokerStrategy:
        missing = [t for t in TIERS if t not in self.actions]
        if missing:
            raise ValueError(f"no actions for tier(s): {', '.join(missing)}")
        return self


class PokerStrategies(Strict):
    """The simulated players of a nonbanking Poker table: a hand's strength tier, then a
    decision table per strategy. They are the simulator's, not the regulation's."""

    source: str
    high: HighTiers
    low: LowTiers
    seats_alternate: list[str] = Field(
        min_length=1, description="with no --strategy, seat 1 plays the first, seat 2 the next..."
    )
    named: dict[str, PokerStrategy] = Field(min_length=1)
    note: str | None = None

    @model_validator(mode="after")
    def _known(self) -> PokerStrategies:
        for name in self.seats_alternate:
            if name not in self.named:
                raise ValueError(f"seats_alternate: no strategy {name!r}")
        return self


# -- cross-references -------------------------------------------------------------------------


def poker_problems(
    g: Any, rankings: dict[str, Any], card_orders: dict[str, Any], game_ids: list[str]
) -> list[tuple[str, str]]:
    """(pointer, message) for every id a Poker section uses that names nothing, and for a
    deal that does not add up to the cards the game says are dealt."""
    out: list[tuple[str, str]] = []
    for hid, hand in g.hands.items():
        ranking = rankings.get(hand.ranking)
        if (
            hand.qualifier is not None
            and ranking is not None
            and hand.qualifier not in ranking.qualifiers
        ):
            known = ", ".join(ranking.qualifiers) or "none"
            out.append(
                (
                    f"/hands/{hid}/qualifier",
                    f"ranking {hand.ranking!r} has no qualifier {hand.qualifier!r} "
                    f"(it has: {known})",
                )
            )
        if hand.use is not None and ranking is not None and sum(hand.use.values()) > ranking.size:
            out.append((f"/hands/{hid}/use", f"more cards than a {ranking.size}-card hand"))
    for i, other in enumerate(g.counterparts):
        if other == g.id or other not in game_ids:
            out.append((f"/counterparts/{i}", f"no other game {other!r}"))
    sections = ("players", "deal", "betting", "showdown", "rake")
    if g.kind == "banking":
        for name in (*sections, "bad_beat", "poker_strategies"):
            if getattr(g, name) is not None:
                out.append((f"/{name}", "a banking game has no Poker section"))
        return out
    for name in sections:
        if getattr(g, name) is None:
            out.append(("/kind", f"a nonbanking Poker game needs `{name}:`"))
    if out:
        return out
    deal, betting, showdown = g.deal, g.betting, g.showdown
    if g.table.max_positions > g.players.max:
        out.append(("/table/max_positions", f"more than the {g.players.max} players allowed"))
    for part in ("high", "low"):
        hid = getattr(showdown, part)
        if hid is not None and hid not in g.hands:
            out.append((f"/showdown/{part}", f"no hand {hid!r}"))
    high = g.hands.get(showdown.high) if showdown.high else None
    ranking = rankings.get(high.ranking) if high else None
    if high is not None and ranking is not None and g.poker_strategies is not None:
        ids = [c.id for c in ranking.categories]
        for cat in g.poker_strategies.high.categories:
            if cat not in ids:
                out.append(
                    (
                        f"/poker_strategies/high/categories/{cat}",
                        f"ranking {high.ranking!r} has no category {cat!r}",
                    )
                )
    for pointer, order in (
        ("/showdown/odd_chips/card_order", showdown.odd_chips.card_order),
        ("/betting/forced_bet/card_order", betting.forced_bet and betting.forced_bet.card_order),
    ):
        if order is not None and order not in card_orders:
            out.append((pointer, f"no card order {order!r} (see card_orders in rankings)"))
    if betting.first_to_act and betting.first_to_act.ranking not in rankings:
        out.append(("/betting/first_to_act/ranking", "no such ranking"))
    streets = list(deal.streets)
    if betting.split_limit:
        for key in ("upper_from", "open_pair_street"):
            sid = getattr(betting.split_limit, key)
            if sid is not None and sid not in streets:
                out.append((f"/betting/split_limit/{key}", f"no street {sid!r}"))
    dealt = {"player": 0, "board": 0}
    for sid, street in deal.streets.items():
        for r in street.deal:
            dealt[r.to] += r.rounds
        opens = street.betting.opens if street.betting else None
        needs = {
            "forced_bet": (betting.forced_bet, "betting.forced_bet"),
            "showing": (betting.first_to_act, "betting.first_to_act"),
            "left_of_button": (deal.button, "deal.button"),
        }
        if opens in needs and needs[opens][0] is None:
            out.append((f"/deal/streets/{sid}/betting/opens", f"needs {needs[opens][1]}"))
        if opens == "left_of_blinds" and not any(s.blinds for s in deal.streets.values()):
            out.append((f"/deal/streets/{sid}/betting/opens", "no street places blind bets"))
        if street.betting and street.betting.limit == "upper" and not betting.split_limit:
            out.append((f"/deal/streets/{sid}/betting/limit", "needs betting.split_limit"))
    for group, count in dealt.items():
        declared = g.cards.dealt.get(group)
        if (declared.count if declared else 0) != count:
            out.append(
                (
                    f"/cards/dealt/{group}",
                    f"the streets deal {count} card(s) to {group}; cards.dealt says "
                    f"{declared.count if declared else 0}",
                )
            )
    return out
