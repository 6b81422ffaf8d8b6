"""Player strategies, apart from the law: ``games/strategies/<game-id>.yaml``.

A game file holds only what its chapter says. How a player might play (Elliot Frome's
expert strategy, Charles Mousseau's, Stephen How's) is advice, each strategy citing its
source, and lives in a strategy file beside the games::

    games/strategies/four-card-poker.yaml     # the strategies of four-card-poker
    games/strategies/poker.yaml               # of every game built on games/include/poker.yaml

A game's strategy file is the one named for the game; else, for a game built from shared
rule files (``extends:``), the one named for the nearest shared file that has one (every
nonbanking Poker game extends ``poker``, and its players are written once). A game with no
strategy file has no strategies.

A strategy file may hold, and only hold:

- ``strategies:`` decision tables over the player's decisions (a banking game);
- ``poker_strategies:`` the simulated players of a Poker table;
- ``hands:`` hands read by the strategies only (the player's two hole cards, what five cards
  draw to), never by the settlement;
- ``rankings:`` rankings those hands use that no chapter states.

The compiled game carries them as if written in the game file, and every value keeps the
strategy file's own line and column: a misspelt id in a strategy condition is refused with
the strategy file's position, by every command alike.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from validator.loader import LoadError, Located, did_you_mean, load_yaml
from validator.model.base import Strict
from validator.model.compose import Composed
from validator.model.game import HandDef
from validator.model.poker import PokerStrategies
from validator.model.procedure import Strategies
from validator.model.ranking import Ranking

#: The folder of strategy files, inside the games folder.
STRATEGY_DIR = "strategies"
#: What a strategy file may hold; a game file (and a shared rule file) holds none of it.
STRATEGY_SECTIONS = ("strategies", "poker_strategies")
STRATEGY_KEYS = ("hands", "rankings", *STRATEGY_SECTIONS)


class StrategyFile(Strict):
    """A strategy file (``games/strategies/<game-id>.yaml``): player advice, not the law."""

    hands: dict[str, HandDef] = Field(
        default_factory=dict, description="hands the strategies read and the settlement does not"
    )
    rankings: dict[str, Ranking] = Field(
        default_factory=dict, description="rankings of those hands that no chapter states"
    )
    strategies: Strategies | None = Field(
        default=None, description="a banking game's decision tables, each citing its source"
    )
    poker_strategies: PokerStrategies | None = Field(
        default=None, description="the simulated players of a nonbanking Poker table"
    )


def strategy_files(games_dir: Path) -> list[Path]:
    """Every strategy file of ``games_dir`` (for the cache's digest)."""
    return sorted((games_dir / STRATEGY_DIR).glob("*.yaml"))


def strategy_path(loc: Located, games_dir: Path) -> Path | None:
    """The strategy file of the game ``loc`` was loaded from, or None."""
    names = [loc.path.stem]
    if isinstance(loc, Composed):  # the nearest shared rule file first
        names += [layer.path.stem for layer in reversed(loc.layers[:-1])]
    for name in names:
        path = games_dir / STRATEGY_DIR / f"{name}.yaml"
        if path.is_file():
            return path
    return None


def refuse_strategies_in_rules(loc: Located, display: Callable[[Path], str]) -> None:
    """A game file, or a shared rule file, that declares strategies is refused: they are
    player advice and belong in a strategy file."""
    layers = loc.layers if isinstance(loc, Composed) else [loc]
    for layer in layers:
        if not isinstance(layer.data, dict):
            continue
        for key in STRATEGY_SECTIONS:
            if key in layer.data:
                pos = layer.position(f"/{key}", key=True)
                raise LoadError(
                    display(layer.path),
                    pos.line,
                    pos.column,
                    f"/{key}: strategies are player advice, not the regulation: they are "
                    f"written in games/{STRATEGY_DIR}/{loc.path.stem}.yaml, not in a game file",
                )


def with_strategies(
    loc: Located,
    games_dir: Path,
    display: Callable[[Path], str],
    validate: Callable[[type, Located], object],
) -> tuple[Located, dict[str, Ranking]]:
    """The game file with its strategy file's sections added (the strategy file a layer of
    its own, so that every value keeps its file, line and column), and the strategy file's
    rankings. A game with no strategy file is returned as it was. ``validate`` reads a
    model from a located document, refusing it with file:line:col."""
    refuse_strategies_in_rules(loc, display)
    path = strategy_path(loc, games_dir)
    if path is None:
        return loc, {}
    advice = load_yaml(path, display=display(path))
    name = display(path)
    if not isinstance(advice.data, dict):
        raise LoadError(name, 1, 1, f"a strategy file is a mapping of: {', '.join(STRATEGY_KEYS)}")
    for key in advice.data:
        if key not in STRATEGY_KEYS:
            pos = advice.position(f"/{key}", key=True)
            raise LoadError(
                name,
                pos.line,
                pos.column,
                f"/{key}: a strategy file holds only {', '.join(STRATEGY_KEYS)}"
                f"{did_you_mean(str(key), STRATEGY_KEYS)}; the rules are the game file's",
            )
    parsed = validate(StrategyFile, advice)
    assert isinstance(parsed, StrategyFile)
    data: dict[str, Any] = dict(loc.data) if isinstance(loc.data, dict) else {}
    hands = dict(data.get("hands") or {})
    for hid, hand in advice.data.get("hands", {}).items():
        if hid in hands:
            pos = advice.position(f"/hands/{hid}", key=True)
            raise LoadError(
                name, pos.line, pos.column, f"/hands/{hid}: the game file declares this hand"
            )
        hands[hid] = hand
    if hands:
        data["hands"] = hands
    for key in STRATEGY_SECTIONS:
        if key in advice.data:
            data[key] = advice.data[key]
    rankings = {k: v.model_copy(update={"id": k}) for k, v in parsed.rankings.items()}
    rules_layers = loc.layers if isinstance(loc, Composed) else [loc]
    composed = Composed(
        path=loc.path,
        data=data,
        text=loc.text,
        # the strategy file first: a pointer both write (``/hands``) resolves into the rules
        layers=[advice, *rules_layers],
        renamed=dict(loc.renamed) if isinstance(loc, Composed) else {},
    )
    composed.positions = dict(loc.positions)
    composed.key_positions = dict(loc.key_positions)
    return composed, rankings
