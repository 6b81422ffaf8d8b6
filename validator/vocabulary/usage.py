"""Where the game files use each word: found by walking every game as loaded (with the
shared files it extends) and the rankings its hands use, keeping the nearest `cite:`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from validator import GAMES_DIR
from validator.model import procedure
from validator.model.constraints import KINDS as CONSTRAINT_KINDS
from validator.model.game import Table
from validator.model.poker import Kill, Rake, StreetBetting
from validator.model.ranking import Category, Ranking
from validator.vocabulary.registry import (
    CONDITION,
    CONSTRAINT_KIND,
    POKER_WORD,
    RANKING_PRIMITIVE,
    STEP,
    TABLE_FEATURE,
)
from validator.vocabulary.words import FRAME

STEP_MODELS = (
    procedure.WagersStep,
    procedure.DealStep,
    procedure.TableSystemStep,
    procedure.DecideStep,
    procedure.DrawStep,
    procedure.RevealStep,
    procedure.QualifyStep,
    procedure.ReplaceStep,
    procedure.SettleStep,
)


@dataclass(frozen=True)
class Use:
    kind: str
    word: str
    game: str  # a game id, or `rankings` for games/rankings.yaml
    pointer: str  # JSON pointer of the word's value in the file (as loaded)
    cite: str  # the nearest citation above (or at) the word
    value: Any  # the value the file gives the word, as loaded


def _alias(model: type[BaseModel], name: str) -> str:
    f = model.model_fields[name]
    return f.alias or name


def _given(obj: BaseModel) -> Iterator[tuple[str, Any]]:
    """The fields a file states (defaults left out), in the model's order."""
    for name in type(obj).model_fields:
        if name in obj.model_fields_set and getattr(obj, name) is not None:
            yield name, getattr(obj, name)


def _walk(obj: Any, pointer: str, cite: str) -> Iterator[tuple[Any, str, str]]:
    if isinstance(obj, BaseModel):
        own = getattr(obj, "cite", None)
        if isinstance(own, str):
            cite = own
        elif isinstance(obj, procedure.Strategy):  # player advice: its name, not a section
            cite = f"strategy: {obj.name}"
        yield obj, pointer, cite
        for name, value in _given(obj):
            yield from _walk(value, f"{pointer}/{_alias(type(obj), name)}", cite)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{pointer}/{k}", cite)
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{pointer}/{i}", cite)


def uses_in(game_id: str, root: BaseModel) -> Iterator[Use]:
    """Every word a game file's model states, with its pointer and nearest citation: every
    field a `when:` or a table states (but a table's frame), every step and constraint."""
    for obj, pointer, cite in _walk(root, "", ""):
        if isinstance(obj, procedure.When):
            for name, value in _given(obj):
                yield Use(CONDITION.id, name, game_id, f"{pointer}/{name}", cite, value)
        elif isinstance(obj, STEP_MODELS):
            yield Use(STEP.id, obj.step, game_id, pointer, cite, obj.step)
        elif isinstance(obj, Table):
            for name, value in _given(obj):
                if name not in FRAME[TABLE_FEATURE.id]:
                    alias = _alias(Table, name)
                    yield Use(TABLE_FEATURE.id, name, game_id, f"{pointer}/{alias}", cite, value)
        elif getattr(obj, "kind", None) in CONSTRAINT_KINDS and hasattr(obj, "severity"):
            yield Use(CONSTRAINT_KIND.id, obj.kind, game_id, pointer, cite, obj.kind)
        else:
            yield from _poker_uses(obj, game_id, pointer, cite)


#: the kinds of rake a Poker game file's ``rake:`` states
RAKE_KINDS = ("percentage", "incremental", "time")


def _poker_uses(obj: Any, game_id: str, pointer: str, cite: str) -> Iterator[Use]:
    """The Poker words: who opens a street's betting, the kinds of rake, the Kill's
    options."""
    if isinstance(obj, StreetBetting):
        yield Use(POKER_WORD.id, obj.opens, game_id, f"{pointer}/opens", cite, obj.opens)
    elif isinstance(obj, Rake):
        for name, value in _given(obj):
            if name in RAKE_KINDS:
                yield Use(POKER_WORD.id, name, game_id, f"{pointer}/{name}", cite, value)
    elif isinstance(obj, Kill):
        for option, figure in obj.options.items():
            yield Use(POKER_WORD.id, option, game_id, f"{pointer}/options/{option}", cite, figure)


def _primitive_uses(ranking_id: str, ranking: Ranking, game_id: str) -> Iterator[Use]:
    pointer = f"/rankings/{ranking_id}"
    frame = FRAME[RANKING_PRIMITIVE.id]
    for name, value in _given(ranking):
        if name not in frame:
            yield Use(RANKING_PRIMITIVE.id, name, game_id, f"{pointer}/{name}", ranking.cite, value)
    for i, c in enumerate(ranking.categories):
        for name, value in _given(c):
            if name not in frame and value is not False:
                yield Use(
                    RANKING_PRIMITIVE.id,
                    name,
                    game_id,
                    f"{pointer}/categories/{i}/{_alias(Category, name)}",
                    ranking.cite,
                    value,
                )


def _raw_when_uses(data: Any, pointer: str, name: str) -> Iterator[Use]:
    """Condition keys of every `when:` in a file read as plain data (a strategy file)."""
    if isinstance(data, dict):
        for k, v in data.items():
            here = f"{pointer}/{k}"
            if k in ("when", "any_player") and isinstance(v, dict):
                for key, value in v.items():
                    yield Use(CONDITION.id, str(key), name, f"{here}/{key}", name, value)
            yield from _raw_when_uses(v, here, name)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _raw_when_uses(v, f"{pointer}/{i}", name)


def strategy_file_uses(games_dir: Path = GAMES_DIR) -> list[Use]:
    """The condition keys of player strategies kept in files of their own
    (``games/strategies/``), where there are any."""
    from validator.loader import load_yaml

    out: list[Use] = []
    folder = games_dir / "strategies"
    for path in sorted(folder.rglob("*.yaml")) if folder.is_dir() else []:
        name = f"strategy: {path.relative_to(games_dir).as_posix()}"
        out += _raw_when_uses(load_yaml(path).data, "", name)
    return out


def all_uses(games_dir: Path = GAMES_DIR) -> list[Use]:
    """Every use of a vocabulary word by the games of ``games_dir``: their own words, and
    the ranking primitives of the rankings their hands are evaluated by."""
    from validator.compiler import all_games

    out: list[Use] = []
    for game in all_games(games_dir):
        d = game.definition
        out += uses_in(d.id, d)
        used = sorted({h.ranking for h in d.hands.values()})
        for rid in used:
            out += _primitive_uses(rid, game.rankings[rid], d.id)
    return out + strategy_file_uses(games_dir)
