"""JSON Schemas of Rules Submissions, generated from the game files (``rulesub schema export``).

``schemas/rulesub.<game>.schema.json`` lets an editor check a submission as it is typed
(``# yaml-language-server: $schema=…``): the game's paytable letters are enums, its
optional wagers and tables are the only keys, its limits (positions, decks, deck-change
hours, adjacent boxes) are bounds. The yaml-language-server reads JSON Schema draft-07 and
below, so the schemas use only keywords that draft-07 and 2020-12 read alike: no ``$ref``
(everything is inlined), no ``$defs``/``definitions``, no array-form ``items``, no
``dependencies``; ``if``/``then``, ``const``, ``contains`` and ``propertyNames`` mean the same
in both. ``schemas/game.schema.json`` is the JSON Schema 2020-12 of the game files
themselves, from the pydantic model.

What a schema cannot say (meters scaled by the wager amount, payout-limit floors, holds) is
left to ``rulesub validate``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from validator import SCHEMAS_DIR, jsonout
from validator.compiler import PokerGame
from validator.model.base import PAYOUT_PATTERN
from validator.model.submission import (
    AUTOMATED_SHUFFLERS,
    DESCRIPTIONS,
    EQUIPMENT,
    METHODS,
    REQUIRED,
    SHUFFLERS,
)
from validator.pointer import parts

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

MONEY_PATTERN = r"^\s*\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?\s*$"
RATE_PATTERN = r"^\s*\d+(\.\d+)?\s*%\s*$"
RATE_OR_NA_PATTERN = r"^\s*(\d+(\.\d+)?\s*%|N/A|n/a|NA)\s*$"


def _money(description: str, positive: bool = False) -> dict[str, Any]:
    """Dollars; ``positive`` where the submission model refuses $0 (a wager of nothing)."""
    return {
        "description": f"{description} (a number of dollars, or a string like '$5,000')",
        "type": ["integer", "string"],
        "exclusiveMinimum" if positive else "minimum": 0,
        "pattern": MONEY_PATTERN,
    }


def _described(key: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": DESCRIPTIONS[key], **schema} if key in DESCRIPTIONS else schema


def _meter() -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "seed": _money(DESCRIPTIONS["seed"]),
            "reseed": _money(DESCRIPTIONS["reseed"]),
            "increment": _described("increment", {"type": "string", "pattern": RATE_PATTERN}),
            "reserve_increment": _described(
                "reserve_increment", {"type": "string", "pattern": RATE_OR_NA_PATTERN}
            ),
        },
    }


def _object(properties: dict[str, Any], required: tuple[str, ...] | list[str] = ()) -> dict:
    out: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if required:
        out["required"] = list(required)
    out["properties"] = properties
    return out


def _payout() -> dict[str, Any]:
    return {"type": "string", "pattern": PAYOUT_PATTERN, "description": "e.g. '30 to 1', push"}


def _bounded(schema: dict[str, Any], maximum: int | None) -> dict[str, Any]:
    return {**schema, "maximum": maximum} if maximum is not None else schema


def _dealing(d: Any | None) -> dict[str, Any]:
    """The dealing: methods, shuffler, decks and deck-change hours, bounded by the game's
    limits (``d``: its definition, or None for any game)."""
    from validator.checks.derive import deck_change_hours

    hours: dict[str, int | None] = {m: None for m in METHODS}
    if d is not None:
        hours.update(deck_change_hours(d.cards.change_every_hours))
    most_decks = None
    if d is not None:
        two = d.cards.two_decks_with_shuffler
        most_decks = d.cards.decks + 1 if two and two.allowed else d.cards.decks

    dealing = _object(
        {
            "methods": _described(
                "methods",
                {
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "string", "enum": list(METHODS)},
                },
            ),
            "shuffler": _described("shuffler", {"type": "string", "enum": list(SHUFFLERS)}),
            "decks": _described("decks", _bounded({"type": "integer", "minimum": 1}, most_decks)),
            "change_every_hours": _described(
                "change_every_hours",
                _object(
                    {
                        m: _bounded({"type": "number", "exclusiveMinimum": 0}, hours[m])
                        for m in METHODS
                    }
                ),
            ),
        },
        [  # the deck-change hours, where the rule source sets them
            k
            for k in REQUIRED["/dealing"]
            if k != "change_every_hours" or d is None or d.cards.change_every_hours is not None
        ],
    )
    automated = {"properties": {"shuffler": {"enum": list(AUTOMATED_SHUFFLERS)}}}
    rules: list[dict[str, Any]] = []
    if d is not None and d.cards.two_decks_with_shuffler and most_decks:
        rules.append(
            {
                "if": {"required": ["decks"], "properties": {"decks": {"const": most_decks}}},
                "then": automated,
            }
        )
    if d is not None and d.cards.hand_dealing_requires_shuffler:
        rules.append(
            {
                "if": {
                    "required": ["methods"],
                    "properties": {"methods": {"type": "array", "contains": {"const": "hand"}}},
                },
                "then": automated,
            }
        )
    if d is not None:
        for m in METHODS:
            if hours[m] is None:
                continue
            rules.append(
                {
                    "if": {
                        "required": ["methods"],
                        "properties": {"methods": {"type": "array", "contains": {"const": m}}},
                    },
                    "then": {
                        "properties": {"change_every_hours": {"type": "object", "required": [m]}}
                    },
                }
            )
    if rules:
        dealing["allOf"] = rules

    return dealing


def _any_game_sections() -> dict[str, Any]:
    """The sections whose keys a game's tables name, for any game: not bounded by one."""
    return {
        "offered": _described("offered", {"type": "array", "items": {"type": "string"}}),
        "paytables": _described(
            "paytables",
            {
                "type": "object",
                "additionalProperties": {"type": "string", "pattern": "^[A-Z]$"},
            },
        ),
        "progressives": _described(
            "progressives",
            {
                "type": "object",
                "additionalProperties": _object(
                    {
                        "wager_amount": _money(DESCRIPTIONS["wager_amount"], positive=True),
                        "meters": {"type": "object", "additionalProperties": _meter()},
                    },
                    REQUIRED["/progressives/*"],
                ),
            },
        ),
        "custom_paytables": _described(
            "custom_paytables",
            {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "minProperties": 1,
                    "additionalProperties": _payout(),
                },
            },
        ),
    }


def submission_schema(game: Any | None = None) -> dict[str, Any]:
    """The schema of a submission for one game, or for any game (``game=None``)."""
    from validator.model.registry import game_ids

    d = game.definition if game is not None else None
    dealing = _dealing(d)
    table = _object(
        {
            "positions": _described(
                "positions",
                _bounded(
                    {"type": "integer", "minimum": d.players.min if d and d.players else 1},
                    d.table.max_positions if d else None,
                ),
            ),
            "min_wager": _money(DESCRIPTIONS["min_wager"], positive=True),
            "max_wager": _money(DESCRIPTIONS["max_wager"], positive=True),
        },
        REQUIRED["/table"],
    )
    props: dict[str, Any] = {
        "rulesub": _described("rulesub", {"const": 1}),
        "certificate_holder": _described("certificate_holder", {"type": "string", "minLength": 1}),
        "facility": _described("facility", {"type": "string", "minLength": 1}),
        "game": _described(
            "game", {"const": d.id} if d else {"type": "string", "enum": game_ids()}
        ),
        "effective": _described("effective", {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
        "table": _described("table", table),
        "dealing": _described("dealing", dealing),
    }
    if d is None:
        props.update(_any_game_sections())
    else:
        props.update(_game_sections(game))
    if game is None or isinstance(game, PokerGame):
        props.update(_poker_sections(d is None or (d.betting is not None and d.betting.kill)))
    props["equipment"] = _described(
        "equipment",
        _object({e: _described(e, {"type": "boolean"}) for e in EQUIPMENT}),
    )
    props["adjacent_boxes"] = _described("adjacent_boxes", {"type": "integer", "minimum": 1})
    props["payout_limit"] = _money(DESCRIPTIONS["payout_limit"])
    required = list(REQUIRED[""])
    if d is not None and d.adjacent_boxes and d.adjacent_boxes.required:
        required.append("adjacent_boxes")
    schema: dict[str, Any] = {
        "$schema": DRAFT_07,
        "title": f"Rules Submission: {d.name}" if d else "Rules Submission",
        "description": (
            f"A certificate holder's Rules Submission for {d.name} ({d.source.chapter}). "
            "Generated from games/" + d.id + ".yaml by `rulesub schema export`; "
            "`rulesub validate` checks what a schema cannot."
            if d
            else "A certificate holder's Rules Submission, for any declared game. Generated "
            "by `rulesub schema export`; use rulesub.<game>.schema.json for one game's "
            "tables and limits."
        ),
        **_object(props, required),
    }
    if d is not None:
        _apply_bounds(schema, game)
    return schema


def _text(key: str) -> dict[str, Any]:
    return _described(key, {"type": "string", "minLength": 1})


def _enum(key: str, values: list[str]) -> dict[str, Any]:
    return _described(key, {"type": "string", "enum": values})


def _count(key: str) -> dict[str, Any]:
    return _described(key, {"type": "integer", "minimum": 1})


def _betting(kill: Any) -> dict[str, Any]:
    """The betting rules a Poker table states (the Kill option where the game has one)."""
    betting: dict[str, Any] = {
        "max_raises": _described(
            "max_raises",
            {"type": ["integer", "string"], "minimum": 1, "pattern": "^unlimited$"},
        ),
        "raised_minimum": _described(
            "raised_minimum",
            _object(
                {
                    "allowed": _described("allowed", {"type": "boolean"}),
                    "max_increase": _money(DESCRIPTIONS["max_increase"]),
                    "agreement": _text("agreement"),
                }
            ),
        ),
    }
    betting["max_raises_by_round"] = _described(
        "max_raises_by_round",
        {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 0},
            "propertyNames": {"type": "string"},
        },
    )
    betting["check_raise"] = _described("check_raise", {"type": "boolean"})
    betting["structure"] = _enum("structure", ["spread", "fixed", "split"])
    betting["upper_from"] = _text("upper_from")
    if kill:
        betting["kill"] = _described(
            "kill",
            _object(
                {
                    "option": _enum("option", ["kill", "half_kill", "none"]),
                    "qualifying_pot": _money(DESCRIPTIONS["qualifying_pot"]),
                }
            ),
        )
    return betting


def _rake() -> dict[str, Any]:
    """The rake: its types, methodology, maximum and each type's terms (§ 553.15)."""
    level = _object(
        {
            "pot": _money(DESCRIPTIONS["pot"]),
            "rake": _money("the amount taken when the pots reach the level, dollars"),
        },
        required=("pot", "rake"),
    )
    return _described(
        "rake",
        _object(
            {
                "types": _described(
                    "types",
                    {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "string",
                            "enum": ["percentage", "incremental", "time"],
                        },
                    },
                ),
                "methodology": _text("methodology"),
                "maximum": _money(DESCRIPTIONS["maximum"]),
                "percentage": _described(
                    "percentage",
                    _object(
                        {
                            "rate": _described("rate", {"type": "string", "pattern": RATE_PATTERN}),
                            "taken": _enum("taken", ["per_betting_round", "end_of_round"]),
                        }
                    ),
                ),
                "incremental": _described(
                    "incremental",
                    _object(
                        {
                            "levels": _described(
                                "levels", {"type": "array", "minItems": 1, "items": level}
                            ),
                            "taken": _enum("taken", ["as_levels_reached", "end_of_round"]),
                        }
                    ),
                ),
                "time": _described(
                    "time",
                    _object(
                        {
                            "basis": _enum("basis", ["per_player", "per_table"]),
                            "every_minutes": _count("every_minutes"),
                            "hourly_fee": _money(DESCRIPTIONS["hourly_fee"]),
                        }
                    ),
                ),
            }
        ),
    )


def _bad_beat() -> dict[str, Any]:
    """The Bad Beat payout: its fund, qualifying hands, shares and discontinuation."""
    return _described(
        "bad_beat",
        _object(
            {
                "offered": {"description": "whether it is offered", "type": "boolean"},
                "max_contribution": _money(DESCRIPTIONS["max_contribution"]),
                "contribution_method": _text("contribution_method"),
                "minimum_pot": _money(DESCRIPTIONS["minimum_pot"]),
                "contribution_rate": _described(
                    "contribution_rate", {"type": "string", "pattern": RATE_PATTERN}
                ),
                "qualifying_hands": _text("qualifying_hands"),
                "qualifying": _described(
                    "qualifying",
                    _object(
                        {
                            "hand": _text("hand"),
                            "at_least": _text("at_least"),
                            "rank_at_least": _described(
                                "rank_at_least", {"type": ["string", "integer"]}
                            ),
                            "hole_cards": _described(
                                "hole_cards", {"type": "integer", "minimum": 0}
                            ),
                            "beaten_by": _text("beaten_by"),
                        }
                    ),
                ),
                "payouts": _text("payouts"),
                "shares": _described(
                    "shares",
                    _object(
                        {
                            "losing_hand": _described(
                                "losing_hand", {"type": "string", "pattern": RATE_PATTERN}
                            ),
                            "winning_hand": _described(
                                "winning_hand", {"type": "string", "pattern": RATE_PATTERN}
                            ),
                            "table": {
                                "description": "share of the fund to the other players "
                                "dealt in, divided equally",
                                "type": "string",
                                "pattern": RATE_PATTERN,
                            },
                        }
                    ),
                ),
                "current_amount": _money(DESCRIPTIONS["current_amount"]),
                "box": _described("box", {"type": "boolean"}),
                "discontinuation": _described(
                    "discontinuation",
                    _object(
                        {
                            "approved": _described(
                                "approved",
                                {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
                            ),
                            "method": _enum(
                                "method", ["terminate_contributions", "transfer", "both"]
                            ),
                            "procedure": _text("procedure"),
                        }
                    ),
                ),
            }
        ),
    )


def _poker_sections(kill: Any) -> dict[str, Any]:
    """What a nonbanking Poker table states (ch. 553): Ante, Blind and Forced Bets, betting
    rules, rake, Bad Beat payout. Whether each is required is left to ``rulesub validate``
    (it depends on the game and on the other values)."""

    return {
        "ante": _described(
            "ante",
            _object(
                {
                    "required": _described("required", {"type": "boolean"}),
                    "amount": _money(DESCRIPTIONS["amount"]),
                }
            ),
        ),
        "blinds": _described(
            "blinds", {"type": "array", "minItems": 1, "items": _money("a Blind Bet")}
        ),
        "forced_bet": _money(DESCRIPTIONS["forced_bet"]),
        "betting": _described("betting", _object(_betting(kill))),
        "rake": _rake(),
        "bad_beat": _bad_beat(),
        "showdown": _described(
            "showdown",
            _object(
                {"discarded_hands_shown": _described("discarded_hands_shown", {"type": "boolean"})}
            ),
        ),
        "deck_rotation": _described(
            "deck_rotation",
            _object(
                {
                    "alternated_every_round": _described(
                        "alternated_every_round", {"type": "boolean"}
                    ),
                    "distribution": _text("distribution"),
                }
            ),
        ),
        "irregularities": _text("irregularities"),
    }


def _game_sections(game: Any) -> dict[str, Any]:
    d = game.definition
    optional = [w for w, wager in d.wagers.items() if wager.optional]
    paytables: dict[str, Any] = {}
    progressives: dict[str, Any] = {}
    custom: dict[str, Any] = {}
    for wid, tid, table in d.tables():
        wager = d.wagers[wid]
        if table.source == "missing":
            ev = game.evaluator(table.pays_on)
            hands = [c.id for c in ev.categories if c.shape != "any"]
            custom[tid] = {
                "description": f"{table.name} ({table.cite}): its text is missing from the "
                "regulation; the table in use",
                "type": "object",
                "minProperties": 1,
                "additionalProperties": False,
                "properties": {h: _payout() for h in hands},
            }
            continue
        if table.selectable and table.letters:
            paytables[tid] = {
                "description": f"{table.name} paytable ({table.cite}), for the {wager.name}",
                "type": "string",
                "enum": table.letters,
            }
        if table.meters is not None:
            names = table.meters.names
            progressives[tid] = {
                "description": f"{table.name} meters ({table.meters.cite})",
                **_object(
                    {
                        "wager_amount": _money(DESCRIPTIONS["wager_amount"], positive=True),
                        "meters": {
                            "description": DESCRIPTIONS["meters"],
                            **_object({n: _meter() for n in names}),
                        },
                    },
                    REQUIRED["/progressives/*"],
                ),
            }
    out: dict[str, Any] = {
        "offered": _described(
            "offered",
            {
                "type": "array",
                "items": {
                    "type": "string",
                    "enum": optional + [t for _, t, tb in d.tables() if tb.optional_payout],
                },
            },
        ),
        "paytables": _described("paytables", _object(paytables)),
        "progressives": _described("progressives", _object(progressives)),
    }
    if custom:
        out["custom_paytables"] = _described("custom_paytables", _object(custom))
    return out


def _apply_bounds(schema: dict[str, Any], game: Any) -> None:
    """The game's unconditional ``at_least``/``at_most`` constraints on whole numbers."""
    from validator.checks.engine import constraints_for

    for c in constraints_for(game):
        if c.kind not in ("at_least", "at_most") or c.when is not None or c.value is None:
            continue
        if isinstance(c.value, bool):
            continue
        number = int(c.value) if c.value == int(c.value) else None
        if number is None:
            continue
        for pointer in c.pointers:
            node = _node(schema, pointer)
            if node is None:
                continue
            key = "minimum" if c.kind == "at_least" else "maximum"
            current = node.get(key)
            if current is None or (number > current if key == "minimum" else number < current):
                node[key] = number


def _node(schema: dict[str, Any], pointer: str) -> dict[str, Any] | None:
    node: Any = schema
    for part in parts("/" + pointer.strip("/")):
        props = node.get("properties") if isinstance(node, dict) else None
        if not isinstance(props, dict) or part not in props:
            return None
        node = props[part]
    return node if isinstance(node, dict) else None


def game_schema() -> dict[str, Any]:
    """JSON Schema 2020-12 of a game file (``GameDefinition``)."""
    from validator.model.game import GameDefinition

    schema = GameDefinition.model_json_schema(by_alias=True)
    return {"$schema": DRAFT_2020_12, **schema}


def strategy_schema() -> dict[str, Any]:
    """JSON Schema 2020-12 of a strategy file (``games/strategies/<game-id>.yaml``)."""
    from validator.model.strategy_file import StrategyFile

    schema = StrategyFile.model_json_schema(by_alias=True)
    return {"$schema": DRAFT_2020_12, **schema}


def schema_files() -> dict[str, dict[str, Any]]:
    """File name → schema, for every file ``rulesub schema export`` writes."""
    from validator.compiler import all_games

    out = {
        "game.schema.json": game_schema(),
        "strategy.schema.json": strategy_schema(),
        "rulesub.schema.json": submission_schema(None),
    }
    for game in all_games():
        out[f"rulesub.{game.id}.schema.json"] = submission_schema(game)
    return out


def render(schema: dict[str, Any]) -> str:
    return jsonout.dumps(schema, indent=2) + "\n"


def compiled_files() -> dict[str, str]:
    """File name → text of the compiled facts of every game (``validator/checks/compiled``)."""
    from validator.checks.facts import compile_facts, render_facts
    from validator.compiler import all_games

    return {
        f"{game.id}.json": render_facts(compile_facts(game, with_holds=True))
        for game in all_games()
    }


def export(
    directory: Path = SCHEMAS_DIR, *, compiled: Path | None = None, check: bool = False
) -> list[Path]:
    """Write the schemas into ``directory`` and, where ``compiled`` is given, the compiled
    facts into it (each file whole or not at all); with ``check``, write nothing and return
    the files that are out of date. Nothing is written anywhere else."""
    wanted = {directory / name: render(schema) for name, schema in schema_files().items()}
    if compiled is not None:
        wanted.update({compiled / name: text for name, text in compiled_files().items()})
    stale = [
        path
        for path, text in wanted.items()
        if not (path.is_file() and path.read_text(encoding="utf-8") == text)
    ]
    if not check:
        _writable(stale)  # the set whole or not at all: a target in the way stops it first
        for path in stale:
            write_whole(path, wanted[path])
    return stale


def _writable(paths: list[Path]) -> None:
    """Refuse, before any is written, a set of files one of which could not be: a directory
    or a FIFO where a schema is to go, a file where its directory is to be."""
    import errno

    from validator.files import WriteError

    for path in paths:
        if path.exists() and not path.is_file():
            what = "a directory" if path.is_dir() else "a special file (a FIFO, a device)"
            raise WriteError(errno.EEXIST, f"is {what}, not a file to write", str(path))
        for parent in path.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise WriteError(
                        errno.ENOTDIR,
                        "cannot make the directory: it is a file, not a directory",
                        str(parent),
                    )
                break


def write_whole(path: Path, text: str) -> None:
    """Write a file whole or not at all (see ``validator.files``)."""
    from validator.files import WriteError, reason
    from validator.files import write_whole as write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file where the directory is to be: said, never a traceback
        what = "it is a file, not a directory" if path.parent.is_file() else reason(e)
        raise WriteError(e.errno, f"cannot make the directory: {what}", str(path.parent)) from None
    write(path, text)
