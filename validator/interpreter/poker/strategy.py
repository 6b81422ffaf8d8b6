"""Strategies of players at a nonbanking Poker table: simple, stated as data, the same for
every game.

A player's hand is put in one of four strength tiers, read from the game's own showdown
hands (no game is named here):

- the high hand (when the game has one), over the player's cards and the board, by the
  category it makes so far: ``premium`` a straight or better, ``strong`` two pair or three
  of a kind, ``fair`` a pair (or, before five cards are out, a Jack or better high), else
  ``weak``. A hand that must use a set number of each group (Omaha) is valued that way
  once the board has enough cards, and over all cards before;
- the low hand (when the game has one): unpaired with its highest card 6 or lower
  ``strong`` (``premium`` once five cards make it), 8 or lower ``fair``, else ``weak``;
- a high-low game takes the better of the two tiers.

The decision table ``STRATEGIES`` then says, per tier, what the player does when nothing
is to be called (``free``) and when facing a bet (``facing``). A bet or raise is always the
least the posted limit allows. An action the round does not offer falls back to the
nearest one it does (a raise to a call, a bet to a check, a fold with nothing to call to a
check).

The draw keeps the cards that make the high hand's category (the highest card when it is
only a high card) or, for a low, the unpaired cards 8 or lower, and discards the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from validator.interpreter.poker.betting import Action, BettingRound, Options, Player
from validator.interpreter.poker.showdown import hand_value
from validator.model.registry import Game
from validator.rankings.evaluator import HandValue

Tier = Literal["weak", "fair", "strong", "premium"]
TIERS: tuple[Tier, ...] = ("weak", "fair", "strong", "premium")

#: What a player does by strength tier: (nothing to call, facing a bet).
STRATEGIES: dict[str, dict[Tier, tuple[str, str]]] = {
    "tight": {
        "weak": ("check", "fold"),
        "fair": ("check", "call"),
        "strong": ("bet", "call"),
        "premium": ("bet", "raise"),
    },
    "loose": {
        "weak": ("check", "call"),
        "fair": ("bet", "call"),
        "strong": ("bet", "raise"),
        "premium": ("bet", "raise"),
    },
}
#: With no ``--strategy``, the seats alternate: odd seats tight, even seats loose.
MIXED = ("tight", "loose")

#: High-hand categories by tier (the rest are ``weak``).
HIGH_TIERS: dict[str, Tier] = {
    "royal_flush": "premium",
    "straight_flush": "premium",
    "four_of_a_kind": "premium",
    "full_house": "premium",
    "flush": "premium",
    "straight": "premium",
    "three_of_a_kind": "strong",
    "two_pair": "strong",
    "pair": "fair",
}
EARLY_HIGH_CARD = 9  # rank index of the Jack: an unfinished high card this high is fair
LOW_STRONG = 6  # an unpaired low no higher than this is strong
LOW_FAIR = 8  # ... no higher than this, fair


def low_rank(card: int) -> int:
    """A card's rank for an ace-to-five low: the ace is 1."""
    r = card // 4
    return 1 if r == 12 else r + 2


def _value(game: Game, hand_id: str, own: Sequence[int], board: Sequence[int]) -> HandValue:
    hd = game.hand(hand_id)
    groups = {"player": list(own), "board": list(board)}
    if hd.use is not None and all(len(groups.get(g, [])) >= n for g, n in hd.use.items()):
        return hand_value(game, hand_id, own, board)
    return game.evaluator(hand_id).best([*own, *board])


def _high_tier(value: HandValue, cards: int) -> Tier:
    tier = HIGH_TIERS.get(value.category)
    if tier is not None:
        return tier
    if cards < 5 and max(c // 4 for c in value.cards) >= EARLY_HIGH_CARD:
        return "fair"
    return "weak"


def _low_tier(game: Game, hand_id: str, value: HandValue) -> Tier:
    if value.category != game.evaluator(hand_id).ids[-1]:  # paired: no low
        return "weak"
    top = max(low_rank(c) for c in value.cards)
    if top <= LOW_STRONG:
        return "premium" if len(value.cards) >= 5 else "strong"
    return "fair" if top <= LOW_FAIR else "weak"


def strength(game: Game, own: Sequence[int], board: Sequence[int]) -> Tier:
    sd = game.definition.showdown
    assert sd is not None
    tiers: list[Tier] = []
    if sd.high:
        tiers.append(_high_tier(_value(game, sd.high, own, board), len(own) + len(board)))
    if sd.low:
        tiers.append(_low_tier(game, sd.low, _value(game, sd.low, own, board)))
    return max(tiers, key=TIERS.index)


def decide(options: Options, wanted: str) -> Action:
    """The wanted action, or the nearest one the round offers."""
    if wanted == "raise":
        if options.raise_to is not None:
            return Action("raise", options.raise_to[0])
        wanted = "call"
    if wanted == "bet":
        if options.bet is not None:
            return Action("bet", options.bet[0])
        wanted = "call" if options.to_call > 0 else "check"
    if wanted == "fold" and options.to_call == 0:
        wanted = "check"
    if wanted == "call" and not options.can_call:
        wanted = "check"
    if wanted == "check" and not options.can_check:
        wanted = "call"
    return Action(wanted)  # type: ignore[arg-type]


class TableStrategy:
    """Each seat's decision table; the board is read from the round being played."""

    def __init__(self, game: Game, by_seat: dict[int, str]) -> None:
        for name in by_seat.values():
            if name not in STRATEGIES:
                raise KeyError(f"no strategy {name!r}: one of {', '.join(STRATEGIES)}")
        self.game = game
        self.by_seat = by_seat
        self.board: list[int] = []
        self._tiers: dict[tuple[tuple[int, ...], tuple[int, ...]], Tier] = {}

    def act(self, player: Player, options: Options, betting: BettingRound) -> Action:
        key = (tuple(player.card_list()), tuple(self.board))
        tier = self._tiers.get(key)
        if tier is None:  # a player acts several times a street on the same cards
            tier = self._tiers[key] = strength(self.game, key[0], key[1])
        free, facing = STRATEGIES[self.by_seat[player.seat]][tier]
        return decide(options, facing if options.to_call > 0 else free)

    def discard(self, player: Player, game: Game) -> list[int]:
        cards = player.card_list()
        sd = game.definition.showdown
        assert sd is not None
        keep: set[int] = set()
        if sd.high:
            v = _value(game, sd.high, cards, [])
            keep |= set(v.combination) if v.category in HIGH_TIERS else {max(cards)}
        if sd.low:
            seen: set[int] = set()
            for c in sorted(cards, key=low_rank):
                if low_rank(c) <= LOW_FAIR and low_rank(c) not in seen:
                    seen.add(low_rank(c))
                    keep.add(c)
        return [c for c in cards if c not in keep]
