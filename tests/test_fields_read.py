"""Every field of the game-file models is read by something beyond the model: a key a game
author writes either does something (an engine, a check, a sign, `games show` reads it) or
is on the commented list below, which says why nothing reads it.

The check is static: a field counts as read where code outside the models (the compiler,
``validator/model/registry.py``, included) names it as an attribute (``.field``) or a key
(``"field"``). It fails on a field read by nothing and not listed, and on a listed field that
something now reads (the list is kept exact)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from pydantic import BaseModel

from validator import PROJECT_ROOT
from validator.model import (
    base,
    constraints,
    game,
    poker,
    procedure,
    ranking,
    signage,
    strategy_file,
)

#: The modules whose models are written in game, rankings and strategy files.
GAME_FILE_MODELS = (base, constraints, game, poker, procedure, ranking, signage, strategy_file)
#: The compiler reads the model too (the card orders of rankings.yaml).
MODEL_READERS = ("registry.py",)

UNREAD: dict[str, str] = {
    # (empty: every field is read; a field added here needs its reason, as
    # "field": "§ …: why nothing reads it")
}


def model_fields() -> dict[str, list[str]]:
    """Field name (and alias) → the models that declare it."""
    out: dict[str, list[str]] = {}
    for module in GAME_FILE_MODELS:
        for name, cls in vars(module).items():
            if not (inspect.isclass(cls) and issubclass(cls, BaseModel)):
                continue
            if cls.__module__ != module.__name__:
                continue
            for field, info in cls.model_fields.items():
                for key in {field, info.alias or field}:
                    out.setdefault(key, []).append(f"{module.__name__}.{name}")
    return out


def reader_source() -> str:
    root = PROJECT_ROOT / "validator"
    paths = [p for p in root.rglob("*.py") if p.parent != root / "model" or p.name in MODEL_READERS]
    return "\n".join(Path(p).read_text(encoding="utf-8") for p in paths)


def is_read(field: str, source: str) -> bool:
    f = re.escape(field)
    return re.search(rf"\.{f}\b|[\"']{f}[\"']", source) is not None


def test_every_game_file_field_is_read_or_listed_with_its_reason() -> None:
    fields = model_fields()
    source = reader_source()
    unread = {f: where for f, where in fields.items() if not is_read(f, source)}
    unlisted = {f: where for f, where in unread.items() if f not in UNREAD}
    assert not unlisted, (
        "fields of the game-file models that nothing reads: make an engine read them, "
        f"remove them, or list them in UNREAD with the reason: {unlisted}"
    )
    now_read = [f for f in UNREAD if f in fields and f not in unread]
    assert not now_read, f"read now: take them off UNREAD: {now_read}"
    gone = [f for f in UNREAD if f not in fields]
    assert not gone, f"no model has these fields any more: take them off UNREAD: {gone}"


def test_the_check_sees_a_field_that_nothing_reads() -> None:
    """The scan itself: a field named nowhere is unread; one named as an attribute or a key
    is read."""
    source = "x = rules.table.max_positions\ny = data['kind']\n"
    assert is_read("max_positions", source) and is_read("kind", source)
    assert not is_read("positions", "x = rules.table.max_positions\n")
    assert not is_read("as_of", "date = source.as_off\n")
    assert is_read("pays_on", reader_source())
