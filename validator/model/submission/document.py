"""The Rules Submission as one document: its header (format, certificate holder,
facility, game, effective date), the wagers offered and the paytables selected, and the
parts each section is read with; which keys must be stated."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from validator.loader import written
from validator.model.base import Day, Money, Name, PayoutField
from validator.model.notation import NotationError
from validator.model.submission.part import Part
from validator.model.submission.poker import (
    Ante,
    BadBeat,
    DeckRotation,
    PokerBetting,
    PokerShowdown,
    Rake,
)
from validator.model.submission.progressives import Progressive
from validator.model.submission.table import Dealing, Equipment, TableLimits

FORMAT_VERSION = 1

#: What only a nonbanking Poker table states (ch. 553 and the house procedures): a banking
#: game's filing that states one is refused, as its game's schema refuses it.
POKER_SECTIONS = (
    "ante",
    "blinds",
    "forced_bet",
    "betting",
    "rake",
    "bad_beat",
    "showdown",
    "deck_rotation",
    "irregularities",
)


def _version(value: Any) -> Any:
    """The format's version is the number 1: YAML's ``true`` (Python's ``True == 1``) is a
    yes, not a version, and is refused as what it is."""
    if isinstance(value, bool):
        raise NotationError(f"{written(value)} is a yes or no, not the format's version: write 1")
    return value


class RulesSubmission(Part):
    rulesub: Annotated[Literal[1], BeforeValidator(_version)] | None = None
    certificate_holder: Name | None = Field(default=None, min_length=1)
    facility: Name | None = Field(default=None, min_length=1)
    game: str | None = None
    effective: Day | None = None
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
    # ch. 553's irregularities as the certificate holder clarifies and supplements them
    # (§ 553.16(q)), in its words: kept as filed, checked against nothing
    irregularities: str | None = Field(default=None, min_length=1)

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
