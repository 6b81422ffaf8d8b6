"""Hand rankings as data: ordered categories defined by primitives (games/rankings.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from validator.model.base import Rank, Strict

Suit = Literal["clubs", "diamonds", "hearts", "spades"]

#: Primitives that say what shape of cards a category is; a category has exactly one.
SHAPES = (
    "of_a_kind",
    "flush",
    "straight",
    "straight_flush",
    "same_color",
    "same_color_straight",
    "ranks",
    "contains",
    "contains_any",
    "any",
)


class Category(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    of_a_kind: list[int] | None = None
    min_rank: Rank | None = None
    max_rank: Rank | None = None
    flush: int | None = Field(default=None, ge=1, le=13)
    straight: int | None = Field(default=None, ge=2, le=13)
    straight_flush: int | None = Field(default=None, ge=2, le=13)
    same_color: int | None = Field(default=None, ge=1, le=26)
    same_color_straight: int | None = Field(default=None, ge=2, le=13)
    ranks: list[Rank] | None = None
    contains: list[Rank] | None = None
    contains_any: list[list[Rank]] | None = None
    suited: bool = False
    suit: Suit | None = None
    any: bool = False
    refines: str | None = None

    @model_validator(mode="after")
    def _one_shape(self) -> Category:
        shapes = [s for s in SHAPES if getattr(self, s) not in (None, False)]
        if len(shapes) != 1:
            raise ValueError(
                f"category {self.id!r} needs exactly one of {', '.join(SHAPES)}; "
                f"it has {shapes or 'none'}"
            )
        if (self.min_rank or self.max_rank) and self.of_a_kind is None:
            raise ValueError(f"category {self.id!r}: min_rank/max_rank go with of_a_kind")
        if self.of_a_kind is not None and (
            not self.of_a_kind
            or any(m < 1 for m in self.of_a_kind)
            or self.of_a_kind != sorted(self.of_a_kind, reverse=True)
        ):
            raise ValueError(
                f"category {self.id!r}: of_a_kind is a list like [3, 2], largest first"
            )
        return self

    @property
    def shape(self) -> str:
        return next(s for s in SHAPES if getattr(self, s) not in (None, False))

    @property
    def combination_size(self) -> int:
        """How many cards form this category (0 for a high-card category)."""
        match self.shape:
            case "of_a_kind":
                return sum(self.of_a_kind or ())
            case "ranks":
                return len(self.ranks or ())
            case "contains":
                return len(self.contains or ())
            case "contains_any":
                return min(len(c) for c in self.contains_any or ())
            case "any":
                return 0
        return int(getattr(self, self.shape))


class HandQualifier(Strict):
    """A floor a hand must reach to win at all (Poker's "eight or better" low, § 553.10(j)):
    its category at least ``at_least``, and, with ``max_rank``, no card ranked above it."""

    at_least: str
    max_rank: Rank | None = None
    cite: str
    note: str | None = None


class Ranking(Strict):
    id: str = ""
    name: str
    size: int = Field(ge=1, le=13, description="the most cards one combination may use")
    ace_low: bool = False
    #: ``ace-to-five``: the ace ranks below the 2, straights and flushes are not considered,
    #: and hands rank in the inverse of the High order (§ 553.4(c), (d))
    low: Literal["ace-to-five"] | None = None
    tiebreak: Literal["grouped", "combination"] = "grouped"
    cite: str
    note: str | None = None
    categories: list[Category]
    qualifiers: dict[str, HandQualifier] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Ranking:
        ids = [c.id for c in self.categories]
        if len(set(ids)) != len(ids):
            raise ValueError(f"ranking {self.id!r}: a category id appears twice")
        seen: set[str] = set()
        for c in self.categories:
            if c.refines is not None and (c.refines not in ids or c.refines in seen):
                raise ValueError(
                    f"ranking {self.id!r}: {c.id!r} refines {c.refines!r}, which must be a "
                    "category listed below it"
                )
            if c.combination_size > self.size:
                raise ValueError(
                    f"ranking {self.id!r}: {c.id!r} needs {c.combination_size} cards, "
                    f"more than the ranking's size {self.size}"
                )
            seen.add(c.id)
        if self.low is not None:
            for c in self.categories:
                if c.shape not in ("of_a_kind", "any") or c.refines is not None:
                    raise ValueError(
                        f"ranking {self.id!r}: a low ranking ignores straights and flushes "
                        f"(§ 553.4(d)); its categories are of_a_kind groups and `any`, "
                        f"not {c.id!r} ({c.shape})"
                    )
            if self.tiebreak != "grouped":
                raise ValueError(f"ranking {self.id!r}: a low ranking compares rank groups")
        for qid, q in self.qualifiers.items():
            if q.at_least not in ids:
                raise ValueError(
                    f"ranking {self.id!r}: qualifier {qid!r} names no category {q.at_least!r}"
                )
        return self

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.categories]


class CardOrder(Strict):
    """Single cards ranked by rank, then by suit (the Stud Forced Bet, § 553.10(d); odd
    chips, § 553.10(i)(2)(iv)): ``ranks`` and ``suits`` highest first."""

    id: str = ""
    name: str
    ranks: list[Rank] = Field(min_length=13, max_length=13)
    suits: list[Suit] = Field(min_length=4, max_length=4)
    cite: str
    note: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> CardOrder:
        if len(set(self.ranks)) != 13 or len(set(self.suits)) != 4:
            raise ValueError(f"card order {self.id!r} must list every rank and suit once")
        return self


class RankingsFile(Strict):
    rankings: dict[str, Ranking]
    card_orders: dict[str, CardOrder] = Field(default_factory=dict)
