"""A nonbanking Poker table: its posted limits and figures (``Stakes``), the rake, Bad Beat
and Kill it applies (``Rules``), its settings (``TableSetup``) and the documented defaults
where no Rules Submission is given, a player's place in a round, the players' strategies
and how the button moves. A submission's settings are read by the one reader of table
settings (``validator.interpreter.settings``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from validator.compiler import Game
from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import RakeRule
from validator.model.poker import PokerStrategies
from validator.money import Cents

#: every simulated seat buys in for this many upper bets of the table's limits
BUY_IN_UPPER_BETS = 50


@dataclass(frozen=True)
class Limit:
    """A bet of ``min_bet``..``max_bet`` (§ 553.18)."""

    min_bet: Cents
    max_bet: Cents

    def __post_init__(self) -> None:
        if not 0 < self.min_bet <= self.max_bet:
            raise ValueError("a limit is a minimum bet more than $0 and a maximum at least that")

    def times(self, multiplier: Fraction, chip: Cents) -> Limit:
        """The limit multiplied by a Kill (§ 553.1), in whole chips."""
        if multiplier == 1:
            return self
        return Limit(
            int(self.min_bet * multiplier // chip) * chip,
            int(self.max_bet * multiplier // chip) * chip,
        )


@dataclass
class Player:
    """One seat in a round of play (§ 553.8(b)(4): table stakes, All-in)."""

    seat: int
    stack: Cents  # what is left of the table stakes
    contributed: Cents = 0  # all put in the pot this round of play
    folded: bool = False
    all_in: bool = False
    cards: list[tuple[int, bool]] = field(default_factory=list)  # (card, face up)

    def put(self, amount: Cents) -> Cents:
        """Put chips in the pot, no more than the table stakes allow."""
        amount = min(amount, self.stack)
        self.stack -= amount
        self.contributed += amount
        if self.stack == 0:
            self.all_in = True
        return amount

    def up_cards(self) -> list[int]:
        return [c for c, up in self.cards if up]

    def card_list(self) -> list[int]:
        return [c for c, _ in self.cards]


@dataclass(frozen=True)
class Stakes:
    """The posted figures of a table (its Rules Submission states them)."""

    lower: Limit
    upper: Limit | None = None  # a split limit's upper limit
    ante: Cents = 0
    blinds: tuple[Cents, ...] = ()
    forced_bet: Cents = 0
    max_raises: int | None = None
    chip: Cents = 100
    # what the Rules Submission may state besides (§ 553.8(j); § 553.16(d); § 553.18)
    max_raises_by_street: dict[str, int] = field(default_factory=dict)
    check_raise: bool | None = None  # None: the game file's rule
    upper_from: str | None = None  # a split limit's upper limit from this street on
    show_all: bool = False  # every hand at the showdown is shown, none conceded

    def required(self) -> Cents:
        """What a player must have on the table to be dealt in (§ 553.8(b)(3)): any Ante,
        Blind or Forced Bet and at least one bet at the posted minimum."""
        return self.ante + max((*self.blinds, self.forced_bet, 0)) + self.lower.min_bet


@dataclass(frozen=True)
class Rules:
    """The rake, Bad Beat and Kill a table applies when a round is settled."""

    rake: RakeRule | None = None
    bad_beat: BadBeatRule | None = None
    kill: KillRule | None = None
    #: time charges taken beside a rake from the pots (§ 553.15(b): "one or more of the
    #: following procedures"); a table charging by time alone has them as its ``rake``
    time: RakeRule | None = None

    @property
    def charged_by_time(self) -> RakeRule | None:
        """The time charges the table assesses by the clock (§ 553.15(b)(3)), if any."""
        if self.time is not None:
            return self.time
        return self.rake if self.rake is not None and self.rake.kind == "time" else None


@dataclass(frozen=True)
class TableSetup:
    stakes: Stakes
    rules: Rules
    positions: int
    source: str  # the submission, or "defaults"
    decks_alternated: bool = False  # two decks, one dealt while the other is shuffled
    #: what is played where the submission is silent, in words ("3 raises a betting round")
    defaults: tuple[str, ...] = ()


def limits(
    game: Game, low: Cents, high: Cents, structure: str | None = None
) -> tuple[Limit, Limit | None]:
    """The posted limits as betting limits. A stated structure decides (§ 553.18): spread,
    any amount from the minimum to the maximum; fixed, the one amount; split, the lower
    limit, then the upper. Unstated, a game whose file bets the upper limit on some streets
    is split, the others spread."""
    deal = game.definition.deal
    assert deal is not None
    if structure == "split" or (structure is None and deal.bets_the_upper_limit()):
        return Limit(low, low), Limit(high, high)
    if structure == "fixed":
        return Limit(low, low), None
    return Limit(low, high), None


def has_blinds(game: Game) -> bool:
    deal = game.definition.deal
    assert deal is not None
    return any(s.blinds for s in deal.streets.values())


def default_setup(game: Game) -> TableSetup:
    """The documented defaults of a table with no Rules Submission: $2-$4, Blind Bets $1 and
    $2 (games with blinds), a $1 Forced Bet (games with one), no Ante, three raises, a
    percentage rake at the game file's maximum rate capped at $5, no Bad Beat payout."""
    d = game.definition
    assert d.betting is not None and d.rake is not None
    lower, upper = limits(game, 200, 400)
    rate = d.rake.percentage.max if d.rake.percentage is not None else None
    rake = RakeRule("percentage", rate=rate, cap=500) if rate else None
    stakes = Stakes(
        lower,
        upper,
        blinds=(100, 200) if has_blinds(game) else (),
        forced_bet=100 if d.betting.forced_bet is not None else 0,
        max_raises=3,
    )
    return TableSetup(stakes, Rules(rake=rake), d.table.max_positions, "defaults")


def strategies(game: Game) -> PokerStrategies:
    """The game's ``poker_strategies:``: the decision tables the kernels read compiled
    (``fast/program.py``), written once in games/strategies/poker.yaml."""
    ps = game.definition.poker_strategies
    if ps is None:
        raise KeyError(
            f"{game.id} has no players' strategies to play with: they are written in "
            f"games/strategies/{game.id}.yaml (or in the strategy file of a shared rule file "
            "the game extends)"
        )
    return ps
