"""The reference of the vocabulary (``docs/vocabulary.md``), generated from the registry.

Like ruff's rule pages: per word, what it does, its schema, what each engine does with it,
the sections that use it (found by walking every game file as loaded, and the rankings its
hands use, for the word and the `cite:` nearest it) and an example from a game file.

This module sits above the engines (it imports them, so that every meaning is registered);
the registry itself (``registry``, ``words``) sits with the models.
"""

from __future__ import annotations

import importlib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator import GAMES_DIR, jsonout
from validator.pointer import parts
from validator.vocabulary.registry import ENGINES, KINDS, REGISTRY, Word
from validator.vocabulary.usage import Use, all_uses

#: the modules that register meanings (``@meaning``): imported before the registry is read
MEANING_MODULES = (
    "validator.rankings.primitives",
    "validator.rankings.evaluator",
    "validator.rankings.batch",
    "validator.interpreter.rules",
    "validator.interpreter.scalar",
    "validator.interpreter.scalar_conditions",
    "validator.interpreter.scalar_settlement",
    "validator.interpreter.batch",
    "validator.interpreter.batch_conditions",
    "validator.interpreter.batch_settlement",
    "validator.checks.kinds",
    "validator.checks.derive",
    "validator.checks.payout_limit",
    "validator.odds.wagers",
    "validator.cli.show",
    "validator.interpreter.poker.rake",
    "validator.interpreter.poker.kill",
    "validator.interpreter.poker.fast.program",
    "validator.interpreter.poker.fast.settle",
)

DOC = Path("docs") / "vocabulary.md"
EXAMPLE_LIMIT = 160


def load_meanings() -> None:
    for name in MEANING_MODULES:
        importlib.import_module(name)


@dataclass(frozen=True)
class Example:
    text: str
    source: str  # where it is written: a file of games/, or what derived it
    cite: str


def _derived_uses(games_dir: Path) -> list[Use]:
    """The constraints the checks derive for every game from its file: the game uses their
    kinds as much as the ones it lists."""
    from validator.checks.derive import derived_constraints
    from validator.compiler import all_games

    out = []
    for game in all_games(games_dir):
        for i, c in enumerate(derived_constraints(game.definition)):
            value = c.model_dump(mode="json", by_alias=True, exclude_none=True)
            out.append(Use("constraint kind", c.kind, game.id, f"derived/{i}", c.cite, value))
    return out


def uses(games_dir: Path = GAMES_DIR) -> list[Use]:
    """Every use of a word by the games: as written, and as derived by the checks."""
    return [u for u in all_uses(games_dir) if (u.kind, u.word) in REGISTRY] + _derived_uses(
        games_dir
    )


# -- examples --------------------------------------------------------------------------------

_PLAIN = re.compile(r"^[A-Za-z0-9_$][A-Za-z0-9_ .$%/'-]*$")


def flow(value: Any) -> str:
    """A value in YAML flow style, as a game file writes it on one line."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text not in ("true", "false", "null", "yes", "no"):
        return text
    return jsonout.dumps(text)


def _at(data: Any, pointer: str) -> Any:
    for part in [p for p in parts(pointer) if p]:
        if isinstance(data, list):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return None
    return data


class _Sources:
    """The game files as read (with the shared files they extend), for examples."""

    def __init__(self, games_dir: Path) -> None:
        self.games_dir = games_dir
        self._located: dict[str, Any] = {}

    def located(self, game: str) -> Any:
        if game not in self._located:
            if game == "rankings" or game.startswith("strategy: "):
                from validator.loader import load_yaml

                name = "rankings.yaml" if game == "rankings" else game.split(": ", 1)[1]
                self._located[game] = load_yaml(self.games_dir / name)
            else:
                from validator.compiler import load_game

                self._located[game] = load_game(game, self.games_dir).located
        return self._located[game]

    def file(self, game: str, pointer: str) -> str:
        loc = self.located(game)
        layer = loc.layer_of(pointer) if hasattr(loc, "layer_of") else loc
        try:
            return "games/" + Path(layer.path).relative_to(self.games_dir).as_posix()
        except ValueError:
            return "games/" + Path(layer.path).name


#: what an example leaves out: notes always; a constraint's wording, which is its own
_ELIDED = {"note": None, "message": "…", "hint": "…"}


def _brief(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    out = {}
    for k, v in value.items():
        if k in _ELIDED:
            if _ELIDED[k] is not None:
                out[k] = _ELIDED[k]
            continue
        out[k] = v
    return out


def _example_of(w: Word, use: Use, sources: _Sources) -> Example:
    if use.pointer.startswith("derived/"):
        text = flow(_brief(use.value))
        return Example(text, f"derived by the checks for {use.game}", use.cite)
    game = "rankings" if w.kind == "ranking primitive" else use.game
    pointer = use.pointer
    if w.kind == "ranking primitive":
        pointer = f"/rankings/{pointer.split('/rankings/', 1)[1]}"
    data = sources.located(game).data
    raw = _at(data, pointer)
    if w.kind in ("step", "constraint kind"):
        text = flow(_brief(raw))
    else:
        parent_pointer, key = pointer.rsplit("/", 1)
        parent, above = _at(data, parent_pointer), parent_pointer.rsplit("/", 1)[-1]
        text = ("- " if above.isdigit() else f"{above}: ") + flow(_brief(parent))
        if len(text) > EXAMPLE_LIMIT or not isinstance(parent, dict):
            text = f"{key}: {flow(raw)}"
    return Example(text, sources.file(game, pointer), use.cite)


def example(w: Word, word_uses: list[Use], sources: _Sources) -> Example | None:
    """The word's own example, or the first use in a game file that reads in one line."""
    if w.example is not None:
        return Example(w.example, "the vocabulary's own example", "")
    found = [_example_of(w, u, sources) for u in word_uses]
    written = [e for e in found if e.source.startswith("games/")] or found
    short = [e for e in written if len(e.text) <= EXAMPLE_LIMIT]
    if short:
        return short[0]
    return min(written, key=lambda e: len(e.text), default=None)


# -- the page ----------------------------------------------------------------------------------


def _name(fn: Callable[..., Any]) -> str:
    return f"`{fn.__module__}.{fn.__qualname__}`"


def _field_type(w: Word) -> str:
    f = w.model.model_fields[w.field]
    text = f.description or ""
    return f" — {text}" if text else ""


def _sections(word_uses: Iterable[Use]) -> list[str]:
    by_cite: dict[str, set[str]] = defaultdict(set)
    for u in word_uses:
        by_cite[u.cite or "(no citation)"].add(u.game)
    return [f"- {cite} — {', '.join(sorted(games))}" for cite, games in sorted(by_cite.items())]


def render(all_word_uses: list[Use], games_dir: Path = GAMES_DIR) -> str:
    load_meanings()
    sources = _Sources(games_dir)
    by_word: dict[tuple[str, str], list[Use]] = defaultdict(list)
    for u in all_word_uses:
        by_word[(u.kind, u.word)].append(u)
    out = [
        "# The vocabulary of the game files",
        "",
        "<!-- generated by `python -m validator.vocabulary` from the registry in "
        "validator/vocabulary/; do not edit -->",
        "",
        "Every word a game file may speak is one entry of one registry: its kind, the model "
        "field it is (its schema), what it does, what each engine does with it, the sections "
        "of the game files that use it, and an example. The engines register their meaning "
        "of a word on the function that carries it and look the word up in the same entry.",
        "",
        "Engines:",
        "",
        *[f"- **{e}**: {what}" for e, what in ENGINES.items()],
        "",
    ]
    for kind in KINDS.values():
        entries = [w for w in REGISTRY.values() if w.kind == kind.id]
        out += [f"- [{kind.title}](#{_anchor(kind.title)}) ({len(entries)})"]
    out.append("")
    out += [f"- [{THROUGH_TIME}](#{_anchor(THROUGH_TIME)})", ""]
    for kind in KINDS.values():
        entries = [w for w in REGISTRY.values() if w.kind == kind.id]
        out += [f"## {kind.title}", "", kind.about, ""]
        engines = kind.engines
        out += [
            "| word | games | " + " | ".join(engines) + " |",
            "|---|---|" + "---|" * len(engines),
        ]
        for w in entries:
            n = len({u.game for u in by_word[w.key] if u.game != "rankings"})
            cells = ["yes" if e in w.meanings else "none" for e in engines]
            out.append(
                f"| [`{w.word}`](#{_anchor(kind.id + ' ' + w.word)}) | {n} | "
                + " | ".join(cells)
                + " |"
            )
        out.append("")
        for w in entries:
            out += _entry(w, by_word[w.key], sources)
    out += _through_time()
    return "\n".join(out).rstrip() + "\n"


THROUGH_TIME = "The regulation through time"


def _through_time() -> list[str]:
    """The words of a game file's history and dated values (``validator.model.history``),
    from the models' own descriptions; no engine reads them in a round."""
    from validator.model.game import GameDefinition, Table, Wager
    from validator.model.history import KINDS as EVENT_KINDS
    from validator.model.history import Dated, Event, Proposal

    out = [
        f"## {THROUGH_TIME}",
        "",
        "When the encoded text was the regulation: the chapter's events, each with its "
        "Pennsylvania Bulletin citation, and the dates of values that changed. Read by "
        "validate (a submission's effective date), `--as-of`, `games history` and "
        f"`diff GAME --from --to`. Event kinds: {', '.join(f'`{k}`' for k in EVENT_KINDS)}.",
        "",
        "| word | in | what it says |",
        "|---|---|---|",
    ]
    rows: list[tuple[str, str, Any]] = [
        ("history", "game file", GameDefinition.model_fields["history"]),
        ("undated", "game file", GameDefinition.model_fields["undated"]),
        ("proposed", "game file", GameDefinition.model_fields["proposed"]),
        ("dated", "wager", Wager.model_fields["dated"]),
        ("dated", "paytable", Table.model_fields["dated"]),
        ("letters_dated", "paytable", Table.model_fields["letters_dated"]),
    ]
    rows += [(k, "history event", f) for k, f in Event.model_fields.items()]
    rows += [(k, "`dated:`", f) for k, f in Dated.model_fields.items()]
    rows += [(k, "`proposed:`", f) for k, f in Proposal.model_fields.items()]
    for word_, where, f in rows:
        out.append(f"| `{word_}` | {where} | {f.description or 'a note in words'} |")
    return [*out, ""]


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def _entry(w: Word, word_uses: list[Use], sources: _Sources) -> list[str]:
    out = [f"### {w.kind} {w.word}", ""]
    out += [f"**What it does.** {w.explanation}", ""]
    out += [f"**Schema.** `{w.schema}`{_field_type(w)}", ""]
    meanings = []
    for e in KINDS[w.kind].engines:
        if e in w.meanings:
            meanings.append(f"- {e}: {_name(w.meanings[e])}")
        else:
            meanings.append(f"- {e}: none — {w.none.get(e, 'no meaning registered')}")
    for reader, fns in sorted(w.readers.items()):
        names = ", ".join(sorted(_name(fn) for fn in fns))
        meanings.append(f"- also read by {reader}: {names}")
    out += ["**Meaning.**", "", *meanings, ""]
    if word_uses:
        out += ["**Sections that use it.**", "", *_sections(word_uses), ""]
    else:
        out += [f"**Sections that use it.** None: a general word ({w.general}).", ""]
    ex = example(w, word_uses, sources)
    if ex is not None:
        where = ex.source + (f", {ex.cite}" if ex.cite else "")
        out += [f"**Example** ({where}):", "", "```yaml", ex.text, "```", ""]
    return out


def write(path: Path, text: str) -> None:
    """Written whole (a temporary file renamed over it) or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
