"""Nonbanking Poker (ch. 553): what a Poker table states of its forced bets, betting,
rake, Bad Beat payout, showdown and decks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from validator.model.base import Day, Money, Rank, Rate
from validator.model.submission.part import Part

RakeType = Literal["percentage", "incremental", "time"]


#: The key of a nonbanking Poker submission that states each of the chapter's forced
#: wagers (its amount): a wager's id where it is the key, else the key.
WAGER_KEYS: dict[str, str] = {"blind_bet": "blinds"}


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
    """A predetermined level and the amount taken when the pot reaches it (§ 553.15(b)(2)):
    a level without either says nothing a table can take."""

    pot: Money
    rake: Money


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

    approved: Day | None = None
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
