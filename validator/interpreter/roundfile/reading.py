"""The reading every round file shares, whatever the game: each problem at its place in the
file (``file:line:column: /pointer: what was expected``), unknown keys with the key meant,
mappings, money, rates, cards, flags, and a card dealt twice from one deck."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from validator.cards import CardError, card_str, parse_card
from validator.errors import LocatedErrors, RulesubError
from validator.loader import Located, did_you_mean
from validator.model.notation import NotationError, parse_money, parse_rate
from validator.money import Cents, to_cents
from validator.pointer import escape


class RoundProblem(RulesubError):
    """One problem of a round file: the JSON pointer of what it is about, what is wrong, and
    the file, line and column the pointer lies at (none for a round read without its file)."""

    def __init__(self, pointer: str, message: str, located: Located | None = None) -> None:
        file = line = column = None
        if located is not None:
            pos = located.position(pointer)
            file, line, column = str(located.path), pos.line, pos.column
        super().__init__(message, file=file, line=line, column=column)
        self.pointer, self.message = pointer, message

    def __str__(self) -> str:
        return f"{self.where()}{self.pointer or '/'}: {self.message}"


class RoundFileError(LocatedErrors, ValueError):
    """A round file that cannot be settled: every problem at its place. A problem may be
    given as ``(pointer, message)`` where the file is not at hand (``placed`` puts it)."""

    def __init__(self, problems: Sequence[RoundProblem | tuple[str, str]]) -> None:
        self.found = [p if isinstance(p, RoundProblem) else RoundProblem(*p) for p in problems]
        super().__init__(self.found)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """Each problem's pointer and message."""
        return [(p.pointer, p.message) for p in self.found]

    def placed(self, located: Located) -> RoundFileError:
        """The problems at their places in ``located``, the file the round was read from."""
        return RoundFileError(
            [p if p.file else RoundProblem(p.pointer, p.message, located) for p in self.found]
        )


class Reader:
    """The problems found so far in one round file, and the readings that find them."""

    def __init__(self, source: Located | Any, within: str = "") -> None:
        """``source``: the round file as read (``Located``), or its data alone; ``within``:
        where the round file lies in what was read (a play log's record), before every
        pointer a problem names."""
        self.loc = source if isinstance(source, Located) else None
        self.data = source.data if isinstance(source, Located) else source
        self.within = within
        self.errors: list[RoundProblem] = []

    def err(self, pointer: str, message: str, key: bool = False) -> None:
        """A problem at ``pointer`` (``key``: at the key rather than its value)."""
        pointer = self.within + pointer
        problem = RoundProblem(pointer, message, self.loc)
        if key and self.loc is not None:
            pos = self.loc.position(pointer, key=True)
            problem.line, problem.column = pos.line, pos.column
        self.errors.append(problem)

    def refuse(self) -> None:
        """Raise the problems found, if any."""
        if self.errors:
            raise RoundFileError(self.errors)

    def keys(
        self, pointer: str, value: dict[str, Any], known: Sequence[str], listed: bool = True
    ) -> None:
        """Every key of ``value`` not ``known``, with the key meant (``listed``: and the
        keys expected)."""
        for k in value:
            if k not in known:
                expected = "; expected one of: " + ", ".join(known) if listed else ""
                self.err(
                    f"{pointer}/{escape(k)}",  # a `/` or `~` in a key: placed at its line
                    f"unknown key {k!r}{did_you_mean(str(k), known)}{expected}",
                    key=True,
                )

    def mapping(self, pointer: str, value: Any, what: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.err(pointer, f"{what} is a mapping")
            return None
        return value

    def money(self, pointer: str, value: Any, zero: str | None = None) -> Decimal | None:
        """An amount of dollars; ``zero``: what an amount of $0 must be instead (none: $0
        is an amount)."""
        try:
            amount = parse_money(value)
        except NotationError as e:
            self.err(pointer, str(e))
            return None
        if zero is not None and amount == 0:
            self.err(pointer, zero)
            return None
        return amount

    def cents(self, pointer: str, value: Any, *, positive: bool = False) -> Cents | None:
        """An amount in whole cents: more than $0 (``positive``) or $0 or more."""
        amount = self.money(pointer, value, "an amount more than $0" if positive else None)
        if amount is None:
            return None
        try:
            return to_cents(amount)
        except ValueError as e:
            self.err(pointer, str(e))
            return None

    def rate(self, pointer: str, value: Any) -> Fraction | None:
        try:
            r = parse_rate(value)
        except NotationError as e:
            self.err(pointer, str(e))
            return None
        if not 0 <= r <= 1:
            self.err(pointer, "a percentage from 0% to 100%")
            return None
        return r

    def card(self, pointer: str, text: Any) -> int | None:
        try:
            return parse_card(str(text))
        except CardError as e:
            self.err(pointer, str(e))
            return None

    def cards(self, pointer: str, value: Any) -> list[int]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.err(pointer, "expected a list of cards like [AS, 10H, 7C]")
            return []
        out = []
        for i, t in enumerate(value):
            c = self.card(f"{pointer}/{i}", t)
            if c is not None:
                out.append(c)
        return out

    def flag(self, pointer: str, value: Any) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            self.err(pointer, "true or false")
            return False
        return value

    def no_card_twice(self, places: Iterable[tuple[str, Sequence[int]]], cite: str) -> None:
        """Every card of ``places`` (pointer, cards) seen before, dealt from one deck
        (``cite``: the section that says so, `` (§ …)``, or "")."""
        seen: dict[int, str] = {}
        for pointer, cards in places:
            for i, c in enumerate(cards):
                if c in seen:
                    self.err(
                        f"{pointer}/{i}",
                        f"{card_str(c)} appears twice (also at {seen[c]}): the game is dealt "
                        f"from one 52-card deck{cite}",
                    )
                else:
                    seen[c] = f"{self.within}{pointer}/{i}"
