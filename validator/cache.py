"""A compiled game, kept in the user's cache directory so that every command after the first
starts without parsing YAML and building models again.

An entry is keyed by the content of every file the game is read from (its own, the
rankings, the includes it extends), by the content of rulesub's own code and by the Python
version: a change to any of them is a new key, never a stale entry. Entries are written to a
temporary file and renamed into place, so two processes racing to write one key both leave a
whole entry; a directory that cannot be written is simply not used.

``RULESUB_CACHE_DIR`` sets the directory; ``RULESUB_NO_CACHE=1`` turns the cache off. The
entries are pickles of rulesub's own objects, written and read by the same user, in that
user's cache directory (as pip and mypy keep theirs).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: Bump when the shape of a cached object changes without a change to the code's bytes.
CACHE_VERSION = 1
RANKINGS_FILE = "rankings.yaml"
INCLUDE_DIR = "include"
STRATEGY_DIR = "strategies"


def cache_dir() -> Path | None:
    if os.environ.get("RULESUB_NO_CACHE"):
        return None
    given = os.environ.get("RULESUB_CACHE_DIR")
    if given:
        return Path(given)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rulesub", appauthor=False))


@cache
def code_digest() -> str:
    """A digest of rulesub's own Python code: a new release or an edit is a new key."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{CACHE_VERSION} {sys.version}".encode())
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def game_digest(game_id: str, games_dir: Path, salt: str = "") -> str:
    """A digest of every file a game is read from: its own, the rankings, the includes and
    the strategy files (``games/strategies/``: the game's own, or a shared rule file's)."""
    h = hashlib.sha256(salt.encode())
    own = games_dir / f"{game_id}.yaml"
    paths = [own, games_dir / RANKINGS_FILE]
    if own.is_file() and b"extends:" in own.read_bytes():  # read with its includes
        paths += sorted((games_dir / INCLUDE_DIR).glob("*.yaml"))
    paths += sorted((games_dir / STRATEGY_DIR).glob("*.yaml"))
    for path in paths:
        name = path.relative_to(games_dir).as_posix()
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    return h.hexdigest()


def games_digest(games_dir: Path) -> str:
    """A digest of every game of ``games_dir``, for what is derived from all of them."""
    from validator import game_files

    h = hashlib.sha256(str(games_dir.resolve()).encode())
    for path in game_files(games_dir):
        h.update(game_digest(path.stem, games_dir).encode())
    return h.hexdigest()


def memo(kind: str, key: str, compute: Callable[[], T]) -> T:
    """``compute()``, or what it gave before for the same ``key`` and code."""
    found = load(kind, key)
    if found is not None:
        return found
    value = compute()
    store(kind, key, value)
    return value


def _entry(kind: str, key: str) -> Path | None:
    where = cache_dir()
    if where is None:
        return None
    digest = hashlib.sha256(f"{kind}\0{key}\0{code_digest()}".encode()).hexdigest()
    return where / f"{kind}-{digest[:40]}.pickle"


def load(kind: str, key: str) -> Any | None:
    """The cached object, or None (absent, unreadable, or from another version)."""
    path = _entry(kind, key)
    if path is None:
        return None
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # absent, truncated by a full disk, or unpicklable after an upgrade
        return None


def store(kind: str, key: str, value: Any) -> None:
    """Keep ``value`` under ``key``, whole or not at all; never fail the command for it."""
    path = _entry(kind, key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except Exception:
        return  # a read-only or full cache directory: the command goes on uncached


# -- for the life of the process ----------------------------------------------------------------

K = TypeVar("K")


class PerObject(Generic[K, T]):
    """A value built once per object, for the life of the process: an evaluator per
    ranking, a game's strategy strengths, a category's finder, a card order's places, a
    ranking's packed tables. Keyed by the object's identity (the models are compared by
    value, and two equal rankings of two games are two objects); the object is kept beside
    its value, so that its id is never reused while the entry lives. ``limit``: the entries
    are forgotten when that many are kept (bounded memory where many objects are built, as
    the property tests build rankings)."""

    __slots__ = ("_build", "_built", "_limit")

    def __init__(self, build: Callable[[K], T], limit: int | None = None) -> None:
        self._build = build
        self._built: dict[int, tuple[K, T]] = {}
        self._limit = limit

    def __call__(self, obj: K) -> T:
        entry = self._built.get(id(obj))
        if entry is None or entry[0] is not obj:
            value = self._build(obj)
            if self._limit is not None and len(self._built) >= self._limit:
                self._built.clear()
            entry = self._built[id(obj)] = (obj, value)
        return entry[1]

    def clear(self) -> None:
        self._built.clear()
