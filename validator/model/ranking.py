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


class Ranking(Strict):
    id: str = ""
    name: str
    size: int = Field(ge=1, le=13, description="the most cards one combination may use")
    ace_low: bool = False
    tiebreak: Literal["grouped", "combination"] = "grouped"
    cite: str
    note: str | None = None
    categories: list[Category]

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
        return self

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.categories]


class RankingsFile(Strict):
    rankings: dict[str, Ranking]
