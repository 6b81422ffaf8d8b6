"""The reference engine's players: each seat's decision table of the game's
``poker_strategies:`` read in Python (the tiers, the decision, the draw), as the kernels
read them compiled (``fast/program.py``, ``fast/hand.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.poker_oracle.betting import Action, BettingRound, Options
from validator.cache import PerObject
from validator.compiler import Game
from validator.interpreter.poker.showdown import hand_value
from validator.interpreter.poker.table import Player, strategies
from validator.model.poker import TIERS, Tier
from validator.rankings.evaluator import HandValue

FINISHED = 5  # cards out when a hand is made: before, a high card may still be fair


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


class _Reading:
    """One showdown hand as the strategy reads it, resolved once per game: its evaluator and
    the cards it must use from the player's and the board's (``use:``), if any."""

    __slots__ = ("evaluator", "lowest", "use")

    def __init__(self, game: Game, hand_id: str) -> None:
        hd = game.hand(hand_id)
        self.evaluator = game.evaluator(hand_id)
        self.use = None if hd.use is None else tuple(hd.use.items())
        self.lowest = self.evaluator.ids[-1]

    def value(self, own: Sequence[int], board: Sequence[int]) -> HandValue:
        """As ``_value``: the hand over ``use:``'s parts when the cards are out, else the
        best of all the cards."""
        use = self.use
        if use is not None:
            parts = {"player": own, "board": board}
            if all(len(parts.get(g, ())) >= n for g, n in use):
                return self.evaluator.best_using([(list(parts.get(g, ())), n) for g, n in use])
        return self.evaluator.best([*own, *board])


class Strength:
    """A game's tiers, resolved once: the showdown hands' readings and the strategy's
    thresholds as plain values (``strength`` reads the same tiers)."""

    __slots__ = ("categories", "fair_at_most", "high", "low", "strong_at_most", "unfinished")

    def __init__(self, game: Game) -> None:
        sd = game.definition.showdown
        assert sd is not None
        ps = strategies(game)
        self.high = _Reading(game, sd.high) if sd.high else None
        self.low = _Reading(game, sd.low) if sd.low else None
        self.categories: dict[str, Tier] = dict(ps.high.categories)
        self.unfinished = ps.high.unfinished_high_card  # a rank, 2..14
        self.strong_at_most = ps.low.strong_at_most
        self.fair_at_most = ps.low.fair_at_most

    def tier(self, own: Sequence[int], board: Sequence[int]) -> Tier:
        best = -1
        if self.high is not None:
            value = self.high.value(own, board)
            tier = self.categories.get(value.category)
            if tier is None:
                if len(own) + len(board) < FINISHED and (
                    max(c >> 2 for c in value.cards) + 2 >= self.unfinished  # rank_of: 2..14
                ):
                    tier = "fair"
                else:
                    tier = "weak"
            best = _RANK[tier]
        if self.low is not None:
            value = self.low.value(own, board)
            if value.category != self.low.lowest:  # paired: no low
                tier = "weak"
            else:
                top = max(low_rank(c) for c in value.cards)
                if top <= self.strong_at_most:
                    tier = "premium" if len(value.cards) >= FINISHED else "strong"
                else:
                    tier = "fair" if top <= self.fair_at_most else "weak"
            best = max(best, _RANK[tier])
        return TIERS[best]


_RANK: dict[str, int] = {t: i for i, t in enumerate(TIERS)}
#: The game's ``Strength``, built on first use.
compiled: PerObject[Game, Strength] = PerObject(lambda game: Strength(game))


def strength(game: Game, own: Sequence[int], board: Sequence[int]) -> Tier:
    return compiled(game).tier(own, board)


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
        self.named = strategies(game).named
        for name in by_seat.values():
            if name not in self.named:
                raise KeyError(f"no strategy {name!r}: one of {', '.join(self.named)}")
        self.game = game
        self.by_seat = by_seat
        self._board: list[int] = []
        self._tiers: dict[tuple[tuple[int, ...], tuple[int, ...]], Tier] = {}
        self._strength = compiled(game)
        self._rows = {seat: strategies(game).named[name].actions for seat, name in by_seat.items()}

    @property
    def board(self) -> list[int]:
        return self._board

    @board.setter
    def board(self, cards: list[int]) -> None:
        """A new round of play's board: the tiers of the last round are forgotten (a
        session's memory stays bounded)."""
        self._board = cards
        self._tiers.clear()

    def act(self, player: Player, options: Options, betting: BettingRound) -> Action:
        key = (tuple(player.card_list()), tuple(self.board))
        tier = self._tiers.get(key)
        if tier is None:  # a player acts several times a street on the same cards
            tier = self._tiers[key] = self._strength.tier(key[0], key[1])
        row = self._rows[player.seat][tier]
        return decide(options, row.facing if options.to_call > 0 else row.free)

    def discard(self, player: Player, game: Game) -> list[int]:
        cards = player.card_list()
        sd = game.definition.showdown
        assert sd is not None
        ps = strategies(game)
        keep: set[int] = set()
        if sd.high:
            v = _value(game, sd.high, cards, [])
            keep |= set(v.combination) if v.category in ps.high.categories else {max(cards)}
        if sd.low:
            seen: set[int] = set()
            for c in sorted(cards, key=low_rank):
                if low_rank(c) <= ps.low.fair_at_most and low_rank(c) not in seen:
                    seen.add(low_rank(c))
                    keep.add(c)
        return [c for c in cards if c not in keep]
