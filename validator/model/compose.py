"""Rule files that build on shared ones: ``extends:``.

Two rule sources may say the same thing (the Seven-card Stud deal of ch. 553 and of a house
procedures document); the shared rules are written once, in ``games/include/<name>.yaml``,
and a game file names them::

    extends: [stud-seven-card-pa-553]

A shared file is a part of a game file: any of its sections, and ``extends:`` of its own.
The game file is the shared files merged in order, then the file itself on top: mappings
merge key by key, anything else (a list, a figure, a text) is replaced whole, and ``null``
removes what a shared file declared. Two lists add up instead (``ADDITIVE``): the
``constraints:`` and the ``signage: signs:`` of every file, in order, so that a rule a shared
file demands of every game's submission is written once beside the rule it comes from.

A rule both sources state has a citation in each. A shared file writes such a citation
(``cite``, ``*_cite``) or ``note`` as a mapping from the source's ``key`` (``source.key`` of the
game) to its text::

    cite: {pa-553: "§ 553.10(c)", house-7cs: "7CS Procedures § Seven-Card Stud (2)"}

and each game keeps its own source's. Where one source gives two games the same rule in
two sections (Hold'em § 553.11, Omaha § 553.12), the mapping names the game, or the shared
file the game is built from, instead: the game's id first, then its shared files from the
nearest, then its source's key. Every value keeps the file, line and column it was
written at, so an error in a shared rule points into the shared file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.loader import LoadError, Located, Position, did_you_mean, load_yaml
from validator.pointer import join

INCLUDE_DIR = "include"
MAX_DEPTH = 10
#: Lists that add up across the files a game is composed of, rather than replace.
ADDITIVE = (("constraints",), ("signage", "signs"))


@dataclass
class Composed(Located):
    """A game file merged with the shared files it extends; positions come from the layer
    (file) that wrote each value."""

    layers: list[Located] = field(default_factory=list)
    #: An item of an additive list, by its pointer here: its layer and pointer there.
    renamed: dict[str, tuple[Located, str]] = field(default_factory=dict)

    def _renamed(self, pointer: str) -> tuple[Located, str] | None:
        for here, (layer, there) in self.renamed.items():
            if pointer == here or pointer.startswith(here + "/"):
                return layer, there + pointer[len(here) :]
        return None

    def layer_of(self, pointer: str, *, key: bool = False) -> Located:
        renamed = self._renamed(pointer)
        if renamed is not None:
            return renamed[0]
        p = pointer
        while True:
            for layer in reversed(self.layers):
                table = layer.key_positions if key else layer.positions
                if p in table or (key and p in layer.positions):
                    return layer
            if p in ("", "/"):
                return self.layers[-1]
            p = p.rsplit("/", 1)[0]

    def position(self, pointer: str, *, key: bool = False) -> Position:
        renamed = self._renamed(pointer)
        if renamed is not None:
            return renamed[0].position(renamed[1], key=key)
        return self.layer_of(pointer, key=key).position(pointer, key=key)


def include_names(games_dir: Path) -> list[str]:
    return sorted(p.stem for p in (games_dir / INCLUDE_DIR).glob("*.yaml"))


def compose(path: Path, games_dir: Path, display: Any) -> Located:
    """Load a game file; with ``extends:``, merged with its shared files (a ``Composed``)."""
    top = load_yaml(path, display=display(path))
    if not isinstance(top.data, dict):  # said of this file, never of a file merged with it
        from validator.model.submission.problems import describe

        raise LoadError(
            display(path),
            1,
            1,
            f"a game file is a mapping (id:, name:, …), not {describe(top.data)}",
        )
    if not top.data.get("extends"):
        return top
    layers = _layers(top, games_dir, display, (path.resolve(),))
    data: dict[str, Any] = {}
    added: dict[tuple[str, ...], list[Any]] = {path: [] for path in ADDITIVE}
    renamed: dict[str, tuple[Located, str]] = {}
    for layer in layers:
        for keys, items in added.items():
            own = _at(layer.data, keys)
            for i, item in enumerate(own if isinstance(own, list) else ()):
                renamed[join("/" + "/".join(keys), len(items))] = (
                    layer,
                    join("/" + "/".join(keys), i),
                )
                items.append(item)
        data = _merge(data, layer.data)
    for keys, items in added.items():
        parent = _at(data, keys[:-1])
        if items and isinstance(parent, dict):
            parent[keys[-1]] = items
    data["extends"] = _extends(top, display)  # the file's own, as a list
    composed = Composed(path=path, data=data, text=top.text, layers=layers, renamed=renamed)
    composed.positions = dict(top.positions)
    composed.key_positions = dict(top.key_positions)
    _resolve_per_source(composed, display)
    return composed


def _extends(loc: Located, display: Any) -> list[str]:
    names = loc.data.get("extends") if isinstance(loc.data, dict) else None
    if names is None:
        return []
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        pos = loc.position("/extends")
        raise LoadError(
            display(loc.path), pos.line, pos.column, "extends: a list of shared rule file names"
        )
    return names


def _layers(loc: Located, games_dir: Path, display: Any, chain: tuple[Path, ...]) -> list[Located]:
    out: list[Located] = []
    for i, name in enumerate(_extends(loc, display)):
        path = games_dir / INCLUDE_DIR / f"{name}.yaml"
        pos = (
            loc.position(f"/extends/{i}")
            if isinstance(loc.data.get("extends"), list)
            else (loc.position("/extends"))
        )
        where = (display(loc.path), pos.line, pos.column)
        from validator.model.registry import GAME_ID, shown_name

        if not GAME_ID.fullmatch(name):
            raise LoadError(
                *where,
                f"extends: {shown_name(name)} is no shared rule file's name: a name of a file "
                f"in games/{INCLUDE_DIR}/, never a path",
            )
        if not path.is_file():
            known = include_names(games_dir)
            raise LoadError(
                *where,
                f"extends: no shared rule file {name!r}{did_you_mean(name, known)} in "
                f"games/{INCLUDE_DIR}/ (there are: {', '.join(known) or 'none'})",
            )
        if path.resolve() in chain or len(chain) > MAX_DEPTH:
            raise LoadError(*where, f"extends: {name!r} extends itself (a cycle)")
        shared = load_yaml(path, display=display(path))
        if not isinstance(shared.data, dict):
            raise LoadError(display(path), 1, 1, "a shared rule file is a mapping of sections")
        for forbidden in ("id", "name"):
            if forbidden in shared.data:
                p = shared.position(f"/{forbidden}", key=True)
                raise LoadError(
                    display(path),
                    p.line,
                    p.column,
                    f"/{forbidden}: a shared rule file is not a game: it has no {forbidden}",
                )
        out += _layers(shared, games_dir, display, (*chain, path.resolve()))
    return [*out, loc]


def _at(data: Any, keys: tuple[str, ...]) -> Any:
    for k in keys:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def _merge(base: Any, top: Any) -> Any:
    if isinstance(base, dict) and isinstance(top, dict):
        out = dict(base)
        for k, v in top.items():
            if v is None:
                out.pop(k, None)
            else:
                out[k] = _merge(base.get(k), v)
        return out
    return top


def _per_source_key(key: str) -> bool:
    return key in ("cite", "note") or key.endswith("_cite")


def _resolve_per_source(loc: Composed, display: Any) -> None:
    source = loc.data.get("source")
    source_key = source.get("key") if isinstance(source, dict) else None
    # a mapping may also name the game itself, or a shared file it is built from (the
    # nearest first): Hold'em and Omaha share one deal, each citing its own section
    game_id = loc.data.get("id")
    own = [game_id] if isinstance(game_id, str) else []
    keys = [*own, *(layer.path.stem for layer in reversed(loc.layers[:-1]))]

    def walk(node: Any, pointer: str) -> Any:
        if isinstance(node, list):
            return [walk(v, join(pointer, i)) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        out = {}
        for k, v in node.items():
            child = join(pointer, k)
            if _per_source_key(k) and isinstance(v, dict):
                layer = loc.layer_of(child)
                pos = layer.position(child)
                chosen = next((key for key in keys if key in v), None)
                if chosen is not None:
                    out[k] = v[chosen]
                    continue
                if source_key is None:
                    raise LoadError(
                        display(layer.path),
                        pos.line,
                        pos.column,
                        f"{child}: a citation per rule source needs the game's `source.key`",
                    )
                if source_key not in v:
                    raise LoadError(
                        display(layer.path),
                        pos.line,
                        pos.column,
                        f"{child}: no {k} for rule source {source_key!r} "
                        f"(this shared rule cites: {', '.join(map(str, v))})",
                    )
                out[k] = v[source_key]
            else:
                out[k] = walk(v, child)
        return out

    loc.data = walk(loc.data, "")
