"""The compiler: a game file (with the shared rule files it extends and the rankings it
uses) → one immutable, typed game, ``BankingGame | PokerGame``.

Every command consumes the compiled game; none re-reads a game's YAML. The model checks the
file (``validator.model.registry.check_game_file``: every cross-reference, with its
file:line:column); this stage, above the model and the hands engine, adds what the engines
need of it (the evaluator of each hand) and keeps the result in the user's cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from validator import GAMES_DIR
from validator.loader import Located
from validator.model.game import GameDefinition, HandDef, Table
from validator.model.ranking import CardOrder, Ranking
from validator.model.registry import (
    check_game_file,
    check_game_id,
    game_paths,
    load_card_orders,
)
from validator.rankings.evaluator import Evaluator, evaluator_for


@dataclass(frozen=True)
class CompiledGame:
    """A compiled game: its definition (frozen pydantic models), where it was read from,
    and the rankings it uses."""

    definition: GameDefinition
    path: Path
    rankings: Mapping[str, Ranking]
    located: Located  # the game file's values with their positions, for messages

    @property
    def id(self) -> str:
        return self.definition.id

    def hand(self, hand_id: str) -> HandDef:
        return self.definition.hands[hand_id]

    def ranking_of(self, hand_id: str) -> Ranking:
        return self.rankings[self.definition.hands[hand_id].ranking]

    def evaluator(self, hand_id_or_ranking: str) -> Evaluator:
        """The evaluator of a hand of this game (by hand id) or of a ranking (by its id)."""
        ranking_id = (
            self.definition.hands[hand_id_or_ranking].ranking
            if hand_id_or_ranking in self.definition.hands
            else hand_id_or_ranking
        )
        return evaluator_for(self.rankings[ranking_id])

    def table(self, table_id: str) -> tuple[str, Table]:
        return self.definition.table_by_id(table_id)

    def group_name(self, group: str) -> str:
        """Cards dealt to a group as the chapter names them: the player, the dealer, the
        community cards, or a group the game file names (the Six Card Bonus card)."""
        dealt = self.definition.cards.dealt.get(group)
        return dealt.name if dealt is not None and dealt.name else group.replace("_", " ")

    def cards_of(self, group: str) -> str:
        """A group's cards in words: "the player's cards", "the Six Card Bonus card"."""
        dealt = self.definition.cards.dealt.get(group)
        return f"the {dealt.name}" if dealt is not None and dealt.name else f"the {group}'s cards"

    def hand_text(self, hand_id: str, qualifier: bool = True) -> str:
        """A hand in words, never its id: its ranking and the cards it is made of ("Four Card
        Poker hand, best 4 of the player's cards"; "…, the lower of the player's and the
        dealer's")."""
        hand = self.hand(hand_id)
        ranking = self.rankings[hand.ranking]
        if hand.losing_of:
            owners = [self.cards_of(self.hand(h).cards[0]) for h in hand.losing_of]
            owners = [o.removesuffix(" cards") for o in owners]
            return f"{ranking.name}, the lower of {' and '.join(owners)}"
        if hand.use:  # Omaha: exactly so many of each group
            made = "exactly " + " + ".join(
                f"{n} of {self.cards_of(c)}" for c, n in hand.use.items()
            )
        elif not hand.first and self._cards_in(hand.cards) == ranking.size:  # no choice made
            made = " and ".join(map(self.cards_of, hand.cards))  # (§ 641a.11(c)(8): "combining")
        else:
            made = f"best {ranking.size} of " + " + ".join(map(self.cards_of, hand.cards))
        first = f" (the first {hand.first} dealt)" if hand.first else ""
        qual = f", {hand.qualifier.replace('_', ' ')}" if hand.qualifier and qualifier else ""
        return f"{ranking.name}, {made}{first}{qual}"

    def _cards_in(self, groups: list[str]) -> int | None:
        """How many cards the groups hold as dealt; ``None`` where one is not dealt so, or
        where a draw may add to them (Lunar Poker's sixth card: then the best 5 of 6)."""
        if any(step.step == "draw" for step in self.definition.procedure):
            return None
        total = 0
        for group in groups:
            dealt = self.definition.cards.dealt.get(group)
            if dealt is None:
                return None
            total += dealt.count
        return total

    def row_names(self, table: Table) -> list[tuple[str, str]]:
        """A paytable's rows (row id, its name as the chapter prints it) in the ranking's
        order: a hand's category, or a draw of the table game system ("Magic Card")."""
        if table.events:
            return [(k, draw_name(k)) for k in table.events]
        return [(c.id, c.name) for c in self.evaluator(table.pays_on or "").categories]

    @property
    def source_line(self) -> str:
        """The rule source the game encodes, with its jurisdiction and the date the copy is
        current to (where the game file states one): "58 Pa. Code ch. 641a (PA), as of
        2019-08-31"."""
        source = self.definition.source
        line = f"{source.chapter} ({source.jurisdiction})"
        return line + (f", as of {source.as_of.isoformat()}" if source.as_of else "")


def draw_name(draw_id: str) -> str:
    """A draw of the table game system as the chapter's paytable names it: ``magic_card``,
    "Magic Card" (§ 641a.12(g)(3))."""
    return draw_id.replace("_", " ").title()


def meter_name(meter_id: str) -> str:
    """A progressive meter as a sign names it: the one meter of a table is its
    "Progressive" meter, another by its jackpot ("Mega jackpot", § 641a.12(e)(1))."""
    return "Progressive" if meter_id == "primary" else f"{meter_id.capitalize()} jackpot"


def meter_label(table_name: str, meter_id: str) -> str:
    """A meter named where several tables' meters are listed: "Four-Card Progressive meter",
    "Five-Card Progressive, Mega jackpot meter"."""
    if meter_id == "primary":
        return f"{table_name} meter"
    return f"{table_name}, {meter_name(meter_id)} meter"


@dataclass(frozen=True)
class BankingGame(CompiledGame):
    """A game against the house (``kind: banking``): wagers settled by paytables and the
    settlement decision tables."""


@dataclass(frozen=True)
class PokerGame(CompiledGame):
    """A nonbanking Poker game (``kind: nonbanking``): players against each other, the
    house taking a rake; with the single-card orders its Stud Forced Bet is decided by."""

    card_orders: Mapping[str, CardOrder]


Game = BankingGame | PokerGame


def compile_game(path: Path, games_dir: Path = GAMES_DIR) -> Game:
    """The one compile function: the game file at ``path``, checked, as its typed game.
    Raises ``GameFileError`` with every problem's file:line:column."""
    definition, rankings, located = check_game_file(path, games_dir)
    if definition.kind == "nonbanking":
        orders = load_card_orders(games_dir)
        return PokerGame(definition, path, rankings, located, orders)
    return BankingGame(definition, path, rankings, located)


@cache
def load_game(game_id: str, games_dir: Path = GAMES_DIR) -> Game:
    """The compiled game of ``game_id``; ``KeyError`` (naming the games) when there is none."""
    return load_game_file(check_game_id(game_id, games_dir), games_dir)


@cache
def game_name(game_id: str) -> str:
    """A filed game's name as its chapter writes it (``High Card Flush``), for what people
    read; a game this rulesub does not ship, or whose file does not compile, keeps its id."""
    try:
        return str(load_game(game_id).definition.name)
    except Exception:
        return game_id


def load_game_file(path: Path, games_dir: Path = GAMES_DIR) -> Game:
    """The compiled game: from the user's cache when its files are unchanged, else built."""
    from validator import cache as user_cache

    key = f"{path.resolve()}\0{user_cache.game_digest(path.stem, path.parent)}"
    cached = user_cache.load("game", key)
    if isinstance(cached, BankingGame | PokerGame):
        return cached
    game = compile_game(path, games_dir)
    user_cache.store("game", key, game)
    return game


def all_games(games_dir: Path = GAMES_DIR) -> list[Game]:
    return [load_game(p.stem, games_dir) for p in game_paths(games_dir)]
