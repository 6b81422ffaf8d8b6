"""The declared games as the model sees them: read, validated, cross-references checked.

A game file that is wrong is refused whole, with every problem's file:line:column. The
compiled game (``BankingGame | PokerGame``, with the evaluators of its hands) is built from
this by ``validator.compiler``, a stage above the model: the model imports no engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import UnionType
from typing import Annotated, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from validator import GAMES_DIR
from validator.errors import LocatedErrors
from validator.loader import LoadError, Located, did_you_mean, load_yaml, locate_errors
from validator.model.compose import Composed, compose
from validator.model.game import GameDefinition, Table
from validator.model.notation import PayoutKind
from validator.model.poker import poker_problems
from validator.model.ranking import CardOrder, Ranking, RankingsFile
from validator.model.strategy_file import with_strategies
from validator.pointer import join, parts

__all__ = [
    "GameFileError",
    "check_game_file",
    "game_ids",
    "load_rankings",
    "shown_name",
]


RANKINGS_FILE = "rankings.yaml"
M = TypeVar("M", bound=BaseModel)


class GameFileError(LocatedErrors):
    """One or more problems in a game or rankings file."""


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _file_name(loc: Located, pointer: str, *, key: bool = False) -> str:
    """The file a value was written in: a shared rule file for a value a game inherits."""
    if isinstance(loc, Composed):
        return _display(loc.layer_of(pointer, key=key).path)
    return _display(loc.path)


def _validate(model: type[M], located: Located) -> M:
    try:
        return model.model_validate(located.data)
    except ValidationError as exc:
        errors = locate_errors(exc, located, _known_keys(model, located.data))
        raise GameFileError(
            [
                LoadError(
                    _file_name(located, e.pointer, key=e.kind == "extra_forbidden"),
                    e.line,
                    e.column,
                    f"{e.pointer}: {e.message}",
                )
                for e in sorted(errors, key=lambda e: (e.line, e.column))
            ]
        ) from None


class _KnownKeys(dict[str, Iterable[str]]):
    """The keys a model accepts at a JSON pointer, found by walking the model's fields
    (for 'did you mean' and 'expected one of' on unknown keys, at any depth)."""

    def __init__(self, model: type[BaseModel]) -> None:
        super().__init__()
        self.model = model

    def __bool__(self) -> bool:
        return True

    def get(self, pointer: str, default: object = ()) -> object:  # type: ignore[override]
        node: object = self.model
        for part in parts(pointer):
            node = _step(node, part)
            if node is None:
                return default
        model = _model_of(node)
        if model is None:
            return default
        return [f.alias or name for name, f in model.model_fields.items()]


def _members(annotation: object) -> list[object]:
    """An annotation with Annotated/Optional/Union unwrapped into its members."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _members(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return [m for a in get_args(annotation) for m in _members(a)]
    return [annotation]


def _model_of(annotation: object) -> type[BaseModel] | None:
    for m in _members(annotation):
        if isinstance(m, type) and issubclass(m, BaseModel):
            return m
    return None


def _step(annotation: object, part: str) -> object | None:
    if (model := _model_of(annotation)) is not None:
        for name, f in model.model_fields.items():
            if part in (name, f.alias):
                return f.annotation
        return None
    for m in _members(annotation):
        if get_origin(m) is dict:
            return get_args(m)[1]
        if get_origin(m) is list and part.isdigit():
            return get_args(m)[0]
    return None


def _known_keys(model: type[BaseModel], data: object) -> dict[str, Iterable[str]]:
    """Field names by pointer, for 'did you mean' on unknown keys."""
    return _KnownKeys(model)


@cache
def load_rankings_file(games_dir: Path = GAMES_DIR) -> RankingsFile:
    path = games_dir / RANKINGS_FILE
    located = load_yaml(path, display=_display(path))
    parsed = _validate(RankingsFile, located)
    assert isinstance(parsed, RankingsFile)
    return parsed


@cache
def load_rankings(games_dir: Path = GAMES_DIR) -> dict[str, Ranking]:
    parsed = load_rankings_file(games_dir)
    return {k: v.model_copy(update={"id": k}) for k, v in parsed.rankings.items()}


def load_card_orders(games_dir: Path = GAMES_DIR) -> dict[str, CardOrder]:
    """Single-card orders (rank, then suit) of games/rankings.yaml: the Stud Forced Bet."""
    parsed = load_rankings_file(games_dir)
    return {k: v.model_copy(update={"id": k}) for k, v in parsed.card_orders.items()}


def game_paths(games_dir: Path = GAMES_DIR) -> list[Path]:
    from validator import game_files

    return game_files(games_dir)


def game_ids(games_dir: Path = GAMES_DIR) -> list[str]:
    return [p.stem for p in game_paths(games_dir)]


#: A game id, or a shared rule file's name: a file name in the games tree, never a path.
GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def shown_name(name: object, limit: int = 64) -> str:
    """A name from the user's input, quoted for a message, cut short when it is long."""
    text = repr(name)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def check_game_file(
    path: Path, games_dir: Path = GAMES_DIR
) -> tuple[GameDefinition, dict[str, Ranking], Located]:
    """A game file (with the shared rule files it extends) read into its definition, every
    cross-reference checked: the model's half of compiling a game. Raises
    ``GameFileError`` with every problem's file:line:column."""
    located = compose(path, games_dir, _display)  # with the shared rule files it extends
    # and its players' strategies (games/strategies/), which are advice, not the law
    located, advice_rankings = with_strategies(located, games_dir, _display, _validate)
    definition = _validate(GameDefinition, located)
    assert isinstance(definition, GameDefinition)
    rankings = load_rankings(games_dir)
    for rid in advice_rankings:
        if rid in rankings:
            pos = located.position(f"/rankings/{rid}", key=True)
            raise GameFileError(
                [
                    LoadError(
                        _file_name(located, f"/rankings/{rid}", key=True),
                        pos.line,
                        pos.column,
                        f"/rankings/{rid}: games/{RANKINGS_FILE} declares this ranking",
                    )
                ]
            )
    rankings = {**rankings, **advice_rankings}
    errors = check_references(definition, rankings, located)
    if definition.id != path.stem:
        pos = located.position("/id")
        errors.insert(
            0,
            LoadError(
                _display(path),
                pos.line,
                pos.column,
                f"/id: {definition.id!r} must match the file name {path.stem!r}",
            ),
        )
    if errors:
        raise GameFileError(errors)
    return definition, rankings, located


def check_game_id(game_id: str, games_dir: Path = GAMES_DIR) -> Path:
    """The game file of ``game_id``; ``KeyError`` naming the games when there is none."""
    path = games_dir / f"{game_id}.yaml"
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id) or not path.is_file():
        known = game_ids(games_dir)
        shown = shown_name(game_id)
        hint = did_you_mean(game_id, known) if len(shown) == len(repr(game_id)) else ""
        raise KeyError(f"no game {shown}{hint}; the games are: {', '.join(known)}")
    return path


def check_references(
    g: GameDefinition, rankings: dict[str, Ranking], loc: Located
) -> list[LoadError]:
    """Every id a game file uses must name something that exists."""
    name = _display(loc.path)
    errors: list[LoadError] = []

    def err(pointer: str, message: str) -> None:
        pos = loc.position(pointer)
        errors.append(
            LoadError(_file_name(loc, pointer), pos.line, pos.column, f"{pointer}: {message}")
        )

    def categories(hand_id: str) -> list[str]:
        hand = g.hands.get(hand_id)
        return rankings[hand.ranking].ids if hand and hand.ranking in rankings else []

    for hid, hand in g.hands.items():
        if hand.ranking not in rankings:
            err(
                f"/hands/{hid}/ranking",
                f"no ranking {hand.ranking!r}"
                f"{did_you_mean(hand.ranking, rankings)} in games/{RANKINGS_FILE}",
            )
        for other in hand.losing_of or ():
            if other not in g.hands:
                err(f"/hands/{hid}/losing_of", f"no hand {other!r}")
        for group in hand.cards:
            if group not in g.cards.dealt and group not in ("community",):
                err(
                    f"/hands/{hid}/cards",
                    f"no cards dealt to {group!r}"
                    f"{did_you_mean(group, g.cards.dealt)} (see cards.dealt)",
                )

    table_ids: dict[str, str] = {}
    for wid, wager in g.wagers.items():
        wp = f"/wagers/{wid}"
        if wager.amount:
            if wager.amount.of not in g.wagers:
                err(f"{wp}/amount/of", f"no wager {wager.amount.of!r}")
            for i, rule in enumerate(wager.amount.rules):
                if rule.when.hand and rule.when.hand not in g.hands:
                    err(f"{wp}/amount/rules/{i}/when/hand", f"no hand {rule.when.hand!r}")
                if (
                    rule.when.at_least
                    and rule.when.hand
                    and rule.when.at_least not in categories(rule.when.hand)
                ):
                    err(
                        f"{wp}/amount/rules/{i}/when/at_least",
                        f"{rule.when.at_least!r} is no category of hand {rule.when.hand!r}",
                    )
        for key in ("requires_wager", "requires_any_wager"):
            for other in getattr(wager, key):
                if other not in g.wagers:
                    err(f"{wp}/{key}", f"no wager {other!r}")
        for tid, table in wager.tables.items():
            tp = f"{wp}/tables/{tid}"
            if tid in table_ids:
                err(tp, f"table id {tid!r} is used by wager {table_ids[tid]!r} too")
            if tid in g.wagers and tid != wid:
                err(tp, f"table id {tid!r} is another wager's id")
            table_ids[tid] = wid
            errors += _check_table(g, table, tp, categories, loc, name)

    if g.dealer and g.dealer.qualifies:
        q = g.dealer.qualifies
        if q.hand not in g.hands:
            err("/dealer/qualifies/hand", f"no hand {q.hand!r}")
        elif q.at_least not in categories(q.hand):
            err("/dealer/qualifies/at_least", f"{q.at_least!r} is no category of {q.hand!r}")
    if g.payout_limit:
        for w in g.payout_limit.excludes:
            if w not in g.wagers:
                err("/payout_limit/excludes", f"no wager {w!r}")
    for who, dealt in g.cards.dealt.items():
        if dealt.when_wagered and dealt.when_wagered not in g.wagers:
            err(f"/cards/dealt/{who}/when_wagered", f"no wager {dealt.when_wagered!r}")
    from validator.model.references import condition_problems

    for pointer, message in condition_problems(g, categories):
        err(pointer, message)
    games_dir = loc.path.parent
    for pointer, message in poker_problems(
        g, rankings, load_card_orders(games_dir), game_ids(games_dir)
    ):
        err(pointer, message)
    return errors


def rankings_of(loc: Located) -> dict[str, Ranking]:
    return load_rankings(loc.path.parent)


def _check_table(
    g: GameDefinition, table: Table, tp: str, categories, loc: Located, name: str
) -> list[LoadError]:
    errors: list[LoadError] = []

    def err(pointer: str, message: str) -> None:
        pos = loc.position(pointer)
        errors.append(
            LoadError(_file_name(loc, pointer), pos.line, pos.column, f"{pointer}: {message}")
        )

    if table.pays_on is not None and table.pays_on not in g.hands:
        err(f"{tp}/pays_on", f"no hand {table.pays_on!r}{did_you_mean(table.pays_on, g.hands)}")
        return errors
    if table.also_pays_on is not None and table.also_pays_on not in g.hands:
        err(f"{tp}/also_pays_on", f"no hand {table.also_pays_on!r}")
    allowed = list(table.events or ()) if table.events else categories(table.pays_on or "")
    columns: list[tuple[str, dict]] = []
    if table.paytable is not None:
        columns.append((f"{tp}/paytable", table.paytable))
    for letter, rows in (table.paytables or {}).items():
        columns.append((f"{tp}/paytables/{letter}", rows))
    for amount, tables in (table.by_wager_amount or {}).items():
        for letter, rows in tables.items():
            columns.append((f"{tp}/by_wager_amount/{amount}/{letter}", rows))
    for pointer, rows in columns:
        for row, payout in rows.items():
            if row not in allowed:
                err(
                    join(pointer, row),
                    f"{row!r} is no hand of this table's ranking"
                    f"{did_you_mean(row, allowed)}; expected one of: {', '.join(allowed)}",
                )
            if payout.kind is PayoutKind.METER and table.meters is None:
                err(join(pointer, row), f"{payout.text!r} needs `meters:` on this table")
    # every row of every column of a selectable table must be printed (N/A where blank);
    # a refinement row may be left out: that table pays the hand as its parent category
    refinements = set()
    if table.pays_on in g.hands and g.hands[table.pays_on].ranking in rankings_of(loc):
        ranking = rankings_of(loc)[g.hands[table.pays_on].ranking]
        refinements = {c.id for c in ranking.categories if c.refines}
    if table.paytables:
        # rows that are no hand at all were reported above: not "missing" from the others
        all_rows = {r for rows in table.paytables.values() for r in rows if r in allowed}
        all_rows -= refinements
        for letter, rows in table.paytables.items():
            for missing in sorted(
                all_rows - set(rows), key=lambda r: allowed.index(r) if r in allowed else 0
            ):
                err(
                    f"{tp}/paytables/{letter}",
                    f"paytable {letter} has no row {missing!r} "
                    "(write N/A where the chapter leaves the cell blank)",
                )
    if table.meters:
        letters = set(table.letters)
        for letter in table.meters.paytables or {}:
            if letter not in letters:
                err(f"{tp}/meters/paytables/{letter}", f"no paytable {letter!r} in this table")
        selectable: list[str | None] = [*table.letters] or [None]
        for choice in selectable:
            rows_list = []
            if table.paytables and choice in table.paytables:
                rows_list.append(table.paytables[choice])
            elif table.paytable:
                rows_list.append(table.paytable)
            meters = table.meters.for_paytable(choice)
            for rows in rows_list:
                for row, payout in rows.items():
                    if payout.kind is PayoutKind.METER and payout.meter not in meters:
                        where = f"/paytables/{choice}" if choice else "/paytable"
                        err(
                            join(f"{tp}{where}", row),
                            f"{payout.text!r}: no meter {payout.meter!r} for this paytable",
                        )
    return errors
