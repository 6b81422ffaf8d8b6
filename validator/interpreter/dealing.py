"""Dealing: where a round's cards come from, in the order the chapter deals them.

A deal step takes cards one at a time around the table from the dealer's left, the dealer
(or the community, or a named spot) after the players in each turn, after burning the cards
its ``burn:`` says (``deal_order``). Both round engines deal in that order, so the same deck
settles the same in both. The scalar engine reads its cards from a ``CardSource``: a
shuffled deck (``rulesub play``) or the cards a round file states (``rulesub settle``).
"""

from __future__ import annotations

from collections import deque

from validator.interpreter.errors import RoundError
from validator.model.procedure import DealStep

Recipient = tuple[str, int]  # (group, seat number; 0 for the dealer/community/a spot)


def deal_order(step: DealStep, seats: list[int]) -> list[Recipient]:
    """The recipient of each card a deal step takes from the deck, in order: burns first,
    then one card at a time around the table from the dealer's left, the dealer (or the
    community, or a spot) after the players in each turn."""
    order: list[Recipient] = [("burn", 0)] * step.burn
    for turn in range(max(step.cards.values(), default=0)):
        for group, n in step.cards.items():
            if turn >= n:
                continue
            if group == "player":
                order += [("player", s) for s in seats]
            else:
                order.append((group, 0))
    return order


class CardSource:
    """Where a round's cards come from."""

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        raise NotImplementedError

    def next(self, n: int, why: str) -> list[int]:
        raise NotImplementedError


class DeckSource(CardSource):
    """A shuffled deck, dealt as the chapter deals it. Records what was taken, in order."""

    def __init__(self, order: list[int]) -> None:
        self.order = list(order)
        self.pos = 0
        self.extra: list[int] = []  # cards taken outside the deals to players/dealer/community

    def _take(self) -> int:
        if self.pos >= len(self.order):
            raise RoundError("the deck ran out of cards")
        c = self.order[self.pos]
        self.pos += 1
        return c

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        out: dict[Recipient, list[int]] = {}
        for who in deal_order(step, seats):
            c = self._take()
            if who[0] == "burn":
                continue
            out.setdefault(who, []).append(c)
            if who[0] not in ("player", "dealer", "community"):
                self.extra.append(c)
        return out

    def next(self, n: int, why: str) -> list[int]:
        cards = [self._take() for _ in range(n)]
        self.extra += cards
        return cards

    @property
    def stub(self) -> list[int]:
        return self.order[self.pos :]


class FileSource(CardSource):
    """The cards a round file states: each seat's, the dealer's, the community's; every other
    card (a Six Card Bonus card, a draw, a dealer's replacement) from ``deck`` in order."""

    def __init__(
        self, seats: dict[int, list[int]], dealer: list[int], community: list[int], deck: list[int]
    ) -> None:
        self.given = {("player", s): list(c) for s, c in seats.items()}
        self.given[("dealer", 0)] = list(dealer)
        self.given[("community", 0)] = list(community)
        self.deck = deque(deck)
        self.taken: dict[Recipient, int] = {}

    def deal(self, step: DealStep, seats: list[int]) -> dict[Recipient, list[int]]:
        out: dict[Recipient, list[int]] = {}
        for group, n in step.cards.items():
            whos = [("player", s) for s in seats] if group == "player" else [(group, 0)]
            for who in whos:
                if who in self.given:
                    start = self.taken.get(who, 0)
                    out[who] = self.given[who][start : start + n]
                    self.taken[who] = start + n
                else:
                    out[who] = self.next(n, f"the {group.replace('_', ' ')}")
        return out

    def next(self, n: int, why: str) -> list[int]:
        if len(self.deck) < n:
            raise RoundError(
                f"the round needs {n} more card(s) from `deck` for {why}; the deck lists the "
                "next cards in order (draws, a sixth card, the bonus card, a dealer replacement)",
                "/deck",
            )
        return [self.deck.popleft() for _ in range(n)]
