"""What the checks know of a game, compiled once (``validator/checks/compiled/``).

Loading a game file means parsing its YAML and building the pydantic models of the whole
game: most of a second, on a command that must answer in half of one. So ``rulesub schema
export`` writes, per game, the compiled game's own objects as data (its definition, the
rankings of its hands, its constraints; ``validator.checks.projection``) beside the
figures only the engines can compute (the strength of each hand category, the exact holds
of the chapter's paytables) and a digest of the game files they came from. ``facts_for``
reads that file when the digest still matches, and otherwise builds the facts from the
game itself (slower, never stale). A test holds the committed files current.

The checks read the same names either way: the model's objects when built from the game,
their projections when read from the file. The facts add no class of their own for what
the model declares; what they hold of their own is computed.

Holds come from the odds engine (``validator.odds``): the hold of each paytable at the
chapter's meter values, with how it moves per dollar of meter (a hold is linear in the
meter: each share of a meter is paid with a fixed probability), so that the hold at the
meter values a submission states is exact without the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator import GAMES_DIR, jsonout
from validator.checks.projection import from_data, to_data
from validator.model.notation import PayoutKind

if TYPE_CHECKING:  # read through their projections at run time: fields and properties
    from validator.model.game import GameDefinition, MeterRule, Table, Wager
    from validator.model.ranking import Category, Ranking

#: The compiled file's format; a file of another version is compiled again from the game.
FACTS_VERSION = 2
COMPILED_DIR = Path(__file__).resolve().parent / "compiled"


@dataclass(frozen=True)
class Hold:
    """A paytable's exact hold at the chapter's meter values, and how it moves with them."""

    hold: Fraction
    basis: str  # "stake" (a wager of its own) or "bonus" (paid on another wager's stake)
    meters: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)
    # meter name → (its value per unit wagered in ``hold``, probability × share it is paid)
    other_reading: Fraction | None = None  # the hold under approved_hold.other_reading

    def at(self, per_unit: dict[str, Fraction]) -> Fraction:
        """The hold with the meters at ``per_unit`` (dollars per unit wagered)."""
        hold = self.hold
        for name, value in per_unit.items():
            if name in self.meters:
                base, weight = self.meters[name]
                hold -= weight * (value - base)
        return hold


@dataclass
class GameFacts:
    """A game as the checks read it: its definition, the rankings of its hands and its
    constraints (the model's objects, or their projections), and what is computed from
    them: each category's strength (the hands engine), holds and held probabilities (the
    odds engine; computed when first asked for where the compiled file has none)."""

    definition: GameDefinition
    rankings: dict[str, Ranking]  # ranking id → ranking, for the rankings of the hands
    constraints: tuple[Any, ...]
    strength: dict[str, dict[str, int]]  # ranking id → category id → strength
    digest: str
    holds: dict[str, dict[str, Hold | None]] = field(default_factory=dict)
    # table id → letter ("" for a fixed table) → hold
    held: dict[str, dict[str, Fraction] | None] = field(default_factory=dict)
    # hand id → probability that the hand's highest held category is each category
    _game: Any = None  # the loaded game, when compiled from it or asked for

    def __post_init__(self) -> None:
        self._tables = {
            tid: (wid, table)
            for wid, wager in self.definition.wagers.items()
            for tid, table in wager.tables.items()
        }

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def wagers(self) -> dict[str, Wager]:
        return self.definition.wagers

    @property
    def tables(self) -> dict[str, Table]:
        """Every table of every wager, by table id, in file order."""
        return {tid: table for tid, (_, table) in self._tables.items()}

    def table(self, table_id: str) -> Table:
        return self._tables[table_id][1]

    def wager_of(self, table_id: str) -> str:
        """The id of the wager a table pays."""
        return self._tables[table_id][0]

    def meter_rules(self, table_id: str, letter: str | None) -> dict[str, MeterRule]:
        """The meters of a table's paytable ``letter`` (``Meters.for_paytable``'s reading:
        the letter's own meters, else those for every paytable)."""
        meters = self.table(table_id).meters
        if meters is None:
            return {}
        if meters.paytables and letter in meters.paytables:
            return meters.paytables[letter]
        return meters.all or {}

    def ranking(self, hand_id: str) -> Ranking:
        return self.rankings[self.definition.hands[hand_id].ranking]

    def category(self, hand_id: str, category_id: str) -> Category:
        """A category of the hand's ranking; ``KeyError`` when it has none of that id."""
        for c in self.ranking(hand_id).categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    def strength_of(self, hand_id: str, category_id: str) -> int:
        """How a category compares in the hand's ranking (a refinement as its parent)."""
        return self.strength[self.definition.hands[hand_id].ranking][category_id]

    def game(self) -> Any:
        if self._game is None:
            from validator.compiler import load_game

            self._game = load_game(self.id)
        return self._game

    def hold(self, table_id: str, letter: str | None) -> Hold | None:
        """The exact hold of one of the chapter's paytables (None: the engine gives none)."""
        holds = self.holds.setdefault(table_id, {})
        key = letter or ""
        if key not in holds:
            holds[key] = _engine_hold(self, table_id, letter)
        return holds[key]

    def held_probabilities(self, hand_id: str) -> dict[str, Fraction] | None:
        if hand_id not in self.held:
            self.held[hand_id] = _engine_held(self, hand_id)
        return self.held[hand_id]


def known_games(games_dir: Path = GAMES_DIR) -> list[str]:
    """The declared game ids (the game files' names), without loading any."""
    from validator import game_files

    return [p.stem for p in game_files(games_dir)]


# -- compiling from the game --------------------------------------------------------------


def digest(game_id: str, games_dir: Path = GAMES_DIR) -> str:
    """A digest of every file a game is read from: its own, the rankings, the includes.
    The store records it as the regulation version a submission was checked against, so
    it does not change with the compiled file's format."""
    from validator.cache import game_digest

    return game_digest(game_id, games_dir, "facts 1\n")


def compile_facts(game: Any, *, with_holds: bool = False) -> GameFacts:
    """The facts of a loaded game; with ``with_holds``, every paytable's hold computed now."""
    from validator.checks.engine import constraints_for

    d = game.definition
    rankings = {h.ranking: game.rankings[h.ranking] for h in d.hands.values()}
    facts = GameFacts(
        definition=d,
        rankings=rankings,
        constraints=constraints_for(game),
        strength={
            rid: {c.id: game.evaluator(rid).strength(c.id) for c in r.categories}
            for rid, r in rankings.items()
        },
        digest=digest(d.id, game.path.parent),
        _game=game,
    )
    if with_holds:
        for _wager, tid, t in d.tables():
            if t.source == "missing":
                if t.pays_on is not None:
                    facts.held_probabilities(t.pays_on)
                continue
            for letter in t.letters or [None]:
                facts.hold(tid, letter)
    return facts


def _engine() -> Any:
    from validator.checks.hold import odds_engine

    return odds_engine()


def _engine_hold(facts: GameFacts, table_id: str, letter: str | None) -> Hold | None:
    table = facts.table(table_id)
    if table.source == "missing" or table.events is not None:
        return None
    odds = _engine()
    if odds is None:
        return None
    try:
        result = odds.exact_odds(facts.game(), table_id, letter)
    except (odds.OddsError, KeyError, ValueError):
        return None
    rows = table.paytables[letter] if table.paytables and letter else (table.paytable or {})
    probability = {c.category: c.probability for c in result.categories}
    meters: dict[str, tuple[Fraction, Fraction]] = {}
    for m in result.meters:
        weight = sum(
            (
                probability.get(cat, Fraction(0)) * p.share
                for cat, p in rows.items()
                if p.kind is PayoutKind.METER and p.meter == m.name
            ),
            Fraction(0),
        )
        meters[m.name] = (m.per_unit, weight)
    other = result.other_reading_hold
    return Hold(
        Fraction(result.hold),
        str(result.basis),
        meters,
        Fraction(other) if other is not None else None,
    )


def _engine_held(facts: GameFacts, hand_id: str) -> dict[str, Fraction] | None:
    odds = _engine()
    if odds is None:
        return None
    rows = {c.id: "1 to 1" for c in facts.ranking(hand_id).categories if not c.any}
    try:
        result = odds.odds_for_rows(facts.game(), hand_id, rows)
    except (odds.OddsError, KeyError, ValueError):
        return None
    return {c.category: c.probability for c in result.categories}


# -- the compiled file ----------------------------------------------------------------------


def facts_to_json(f: GameFacts) -> dict[str, Any]:
    """The facts as JSON data: the model's objects through ``to_data``, then the figures."""
    return {
        "facts_version": FACTS_VERSION,
        "digest": f.digest,
        "definition": to_data(f.definition),
        "rankings": to_data(f.rankings),
        "constraints": to_data(list(f.constraints)),
        "strength": f.strength,
        "holds": {
            tid: {key: _hold_data(h) for key, h in sorted(holds.items())}
            for tid, holds in f.holds.items()
        },
        "held": to_data(f.held),
    }


def _hold_data(h: Hold | None) -> Any:
    if h is None:
        return None
    return to_data({**vars(h), "meters": {n: tuple(m) for n, m in h.meters.items()}})


def facts_from_json(data: dict[str, Any]) -> GameFacts:
    """``facts_to_json``'s data, read with ``projection.from_data`` as its object hook."""
    return GameFacts(
        definition=data["definition"],
        rankings=data["rankings"],
        constraints=tuple(data["constraints"]),
        strength=data["strength"],
        digest=data["digest"],
        holds={
            tid: {key: Hold(**h) if h is not None else None for key, h in holds.items()}
            for tid, holds in data["holds"].items()
        },
        held=data["held"],
    )


def construct_constraints(items: list[dict[str, Any]]) -> tuple[Any, ...]:
    """Constraints from the data ``dump_constraints`` wrote, as the compiled file gives
    them to the checks: validated by the model once, then read back as projections."""
    from validator.model.constraints import load_constraints

    text = jsonout.dumps(to_data(list(load_constraints(items))), ensure_ascii=True)
    return tuple(json.loads(text, object_hook=from_data))


def render_facts(f: GameFacts) -> str:
    return jsonout.dumps(facts_to_json(f), indent=1) + "\n"


_FACTS: dict[tuple[str, Path], GameFacts] = {}


def facts_for(game_id: str, games_dir: Path = GAMES_DIR) -> GameFacts:
    """The checks' facts of a game: compiled when current, else from the game file."""
    key = (game_id, games_dir)
    if key in _FACTS:
        return _FACTS[key]
    path = COMPILED_DIR / f"{game_id}.json"
    facts: GameFacts | None = None
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"), object_hook=from_data)
        except (OSError, ValueError, TypeError):
            data = None
        if (
            isinstance(data, dict)
            and data.get("facts_version") == FACTS_VERSION
            and data.get("digest") == digest(game_id, games_dir)
        ):
            facts = facts_from_json(data)
    if facts is None:
        from validator.compiler import load_game

        facts = compile_facts(load_game(game_id, games_dir))
    _FACTS[key] = facts
    return facts
