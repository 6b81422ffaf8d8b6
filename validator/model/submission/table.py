"""The table a submission states: its positions and wager limits, how its cards are
shuffled and dealt, and the table game systems installed."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from validator.model.base import Hours, Money
from validator.model.submission.part import Part

METHODS = ("hand", "manual_shoe", "automated_shoe")
SHUFFLERS = ("manual", "automated", "automated_counting")
#: Shufflers that are automated card shuffling devices (§ 641a.3(b), § 641a.9(a)(1)).
AUTOMATED_SHUFFLERS = ("automated", "automated_counting")
EQUIPMENT = ("progressive_system", "electronic_wagering_system")

Method = Literal["hand", "manual_shoe", "automated_shoe"]
Shuffler = Literal["manual", "automated", "automated_counting"]


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
    change_every_hours: dict[Method, Hours] | None = None


class Equipment(Part):
    progressive_system: bool | None = None
    electronic_wagering_system: bool | None = None
