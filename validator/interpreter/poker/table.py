"""What a nonbanking Poker table is set with and what a round of play leaves: the posted
figures (``Stakes``), the rake, Bad Beat and Kill rules (``Rules``), a played round as
``play`` narrates and records it (``PlayedHand``: read from the round's operation log,
``fast/narrate.py``), and how the button moves between rounds (``BUTTON_MOVES``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.betting import Limit, Player
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.settle import PokerSettlement
from validator.money import Cents


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


@dataclass
class PlayedHand:
    players: list[Player]
    sitting_out: list[int]
    board: list[int]
    burns: list[int]
    log: list[str]
    showdown_order: list[int]
    settlement: PokerSettlement
    stacks_before: dict[int, Cents] = field(default_factory=dict)
    shown: list[int] = field(default_factory=list)  # hands shown at the showdown, in order
    conceded: list[int] = field(default_factory=list)  # losing hands conceded unshown
    round_put: list[Cents] = field(default_factory=list)  # chips in by each betting round
    operations: list[dict[str, Any]] | None = None  # the operation log's JSON (None: none)

    def stacks_after(self) -> dict[int, Cents]:
        out = dict(self.stacks_before)
        for p in self.players:
            out[p.seat] = p.stack + self.settlement.seat(p.seat).award
        return out


def clockwise_after(seats: Sequence[int], seat: int) -> list[int]:
    """The seats clockwise from the one to the left of ``seat``."""
    ordered = sorted(seats)
    later = [s for s in ordered if s > seat]
    return later + [s for s in ordered if s <= seat]


def next_button(seats: Sequence[int], button: int) -> int:
    """The button moves clockwise after each round of play (§ 553.11(c)(3))."""
    return clockwise_after(seats, button)[0]


#: how the button moves after each round, by the game's ``button.rotates`` (§ 553.1
#: (Button): "moved clockwise around the table"); the model admits no other way yet
BUTTON_MOVES: dict[str, Callable[[Sequence[int], int], int]] = {"clockwise": next_button}
