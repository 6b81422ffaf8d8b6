"""Playing cards: parsing, printing and the 52-card deck.

A card is an ``int`` in ``0..51``: ``rank_index * 4 + suit_index``, rank index 0 for a 2
up to 12 for an ace, suits in the order clubs, diamonds, hearts, spades. Ranks as numbers
(``rank_of``) run 2..14 so that an ace is 14 (and 1 when it plays low).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from validator.errors import RulesubError
from validator.loader import written

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS = frozenset({1, 2})  # diamonds, hearts
RANK_NAMES = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
#: Ranks as a floor names them: "four eights or better".
RANK_PLURALS = {
    14: "aces",
    13: "kings",
    12: "queens",
    11: "jacks",
    10: "tens",
    9: "nines",
    8: "eights",
    7: "sevens",
    6: "sixes",
    5: "fives",
    4: "fours",
    3: "threes",
    2: "twos",
}
#: Rank words as the chapters and the game files write them.
RANK_WORDS = {
    "A": 14,
    "ACE": 14,
    "K": 13,
    "KING": 13,
    "Q": 12,
    "QUEEN": 12,
    "J": 11,
    "JACK": 11,
    "T": 10,
    "10": 10,
    "9": 9,
    "8": 8,
    "7": 7,
    "6": 6,
    "5": 5,
    "4": 4,
    "3": 3,
    "2": 2,
}

DECK: tuple[int, ...] = tuple(range(52))


class CardError(RulesubError, ValueError):
    """A card that cannot be read."""


def rank_of(card: int) -> int:
    """2..14."""
    return card // 4 + 2


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card % 4


def is_red(card: int) -> bool:
    return card % 4 in RED_SUITS


def make(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def parse_rank(text: str | int) -> int:
    """A rank as the game files write it: ``A``, ``K``, ``10``, ``T``, ``9``… → 2..14."""
    key = str(text).strip().upper()
    if key not in RANK_WORDS:
        raise CardError(f"not a rank: {written(text)} (expected A K Q J 10 9 8 7 6 5 4 3 2)")
    return RANK_WORDS[key]


def parse_card(text: str) -> int:
    """``AS``, ``Td``, ``10h``, ``9C`` → card int."""
    t = str(text).strip()
    if len(t) < 2:
        raise CardError(f"not a card: {text!r} (expected rank + suit, e.g. AS, 10H, 7C)")
    rank_text, suit_text = t[:-1], t[-1].lower()
    if suit_text not in SUIT_CHARS:
        raise CardError(f"not a card: {text!r}: suit must be one of S H D C")
    try:
        rank = parse_rank(rank_text)
    except CardError:
        raise CardError(
            f"not a card: {text!r}: rank must be one of A K Q J T (or 10) 9 8 7 6 5 4 3 2"
        ) from None
    return make(rank, SUIT_CHARS.index(suit_text))


def parse_cards(texts: Iterable[str] | str) -> list[int]:
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [parse_card(t) for t in texts]


def card_str(card: int) -> str:
    """Card int → ``AS``, ``TD`` …"""
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4].upper()


def cards_str(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def rank_word(rank: int) -> str:
    return RANK_NAMES[14 if rank == 1 else rank]
