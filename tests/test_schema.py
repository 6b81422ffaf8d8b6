"""The committed JSON Schemas and compiled facts are current, and the submission schemas mean
the same to draft-07 validators (the editors' yaml-language-server) and 2020-12 ones."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from validator import PROJECT_ROOT, SCHEMAS_DIR
from validator.checks.facts import COMPILED_DIR, facts_for, known_games
from validator.checks.in_force import RULES as IN_FORCE
from validator.checks.rules import all_rules
from validator.checks.schema import DRAFT_2020_12, compiled_files, render, schema_files
from validator.loader import LoadError, load_yaml

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed"
BANKING = ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush")
VALIDATORS = (Draft7Validator, Draft202012Validator)

#: Finding codes whose rule a submission schema states too (enums, bounds, required keys,
#: if/then); a flawed file with one of them must fail the schema, one without must pass it.
SCHEMA_KINDS = {"max-positions", "max-decks", "two-decks-need-shuffler"}
SCHEMA_KINDS |= {"hand-dealing-needs-shuffler", "deck-change-interval"}
SCHEMA_KINDS |= {"adjacent-boxes-stated", "one-position-per-player"}
SCHEMA_KINDS |= {"progressive-amounts-at-least", "custom-hands"}
SCHEMA_KINDS |= {"kill-not-offered"}  # only the Omaha Hi-lo 8 schema has `betting.kill`
SCHEMA_GENERIC = {
    "rulesub/unknown-key",
    "rulesub/missing-key",
    "rulesub/wrong-type",
    "rulesub/bad-value",
    "rulesub/rate-needs-percent",
    "rulesub/unknown-game",
    "rulesub/not-a-submission",
}


def _schema_states(code: str) -> bool:
    if code in SCHEMA_GENERIC:
        return True
    name = code.split("/", 1)[1]
    return name in SCHEMA_KINDS or name.endswith("-paytable") or name.endswith("-custom-hands")


def plain(value: Any) -> Any:
    """YAML as an editor's JSON view of it: dates are the text they were written as."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def schema_for(data: Any) -> dict[str, Any]:
    game = data.get("game") if isinstance(data, dict) else None
    name = f"rulesub.{game}.schema.json" if game in known_games() else "rulesub.schema.json"
    return json.loads((SCHEMAS_DIR / name).read_text(encoding="utf-8"))


# -- current --------------------------------------------------------------------------------


def test_committed_schemas_are_current() -> None:
    """`rulesub schema export` writes these; a game file changed since needs a new export."""
    for name, schema in schema_files().items():
        path = SCHEMAS_DIR / name
        assert path.is_file(), (
            f"{name} is missing: run `rulesub schema export` (README: Development)"
        )
        assert path.read_text(encoding="utf-8") == render(schema), (
            f"{name} is out of date: run `rulesub schema export` (README: Development)"
        )


def test_compiled_facts_are_current() -> None:
    """The facts the validator starts from agree with the game files and the odds engine."""
    for name, text in compiled_files().items():
        path = COMPILED_DIR / name
        assert path.is_file() and path.read_text(encoding="utf-8") == text, (
            f"validator/checks/compiled/{name} is out of date: see README, Development"
        )


@pytest.mark.parametrize("game", BANKING)
def test_compiled_facts_are_used(game: str) -> None:
    """A current compiled file is read as it is: no game model is built to validate."""
    facts = facts_for(game)
    assert facts._game is None
    # the history's codes (checks/in_force.py) are the date's, not constraints of the file
    assert [c.id for c in facts.constraints] == [
        r.name for r in all_rules() if r.code.startswith(f"{game}/") and r.name not in IN_FORCE
    ]


def test_game_schema_is_the_models_2020_12_schema() -> None:
    from validator.model.game import GameDefinition

    schema = json.loads((SCHEMAS_DIR / "game.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == DRAFT_2020_12
    Draft202012Validator.check_schema(schema)
    expected = GameDefinition.model_json_schema(by_alias=True)
    assert {k: v for k, v in schema.items() if k != "$schema"} == expected


@pytest.mark.parametrize("game", BANKING)
def test_game_files_constraints_match_the_game_schema(game: str) -> None:
    """Each game's `constraints:` list is valid against game.schema.json's definition of it."""
    schema = json.loads((SCHEMAS_DIR / "game.schema.json").read_text(encoding="utf-8"))
    part = {"$defs": schema["$defs"], **schema["properties"]["constraints"]}
    data = plain(load_yaml(PROJECT_ROOT / "games" / f"{game}.yaml").data)
    assert data["constraints"]
    assert list(Draft202012Validator(part).iter_errors(data["constraints"])) == []
    broken = [{**data["constraints"][0], "kind": "maybe"}]
    assert list(Draft202012Validator(part).iter_errors(broken))


# -- the submission schemas -----------------------------------------------------------------

FORBIDDEN = {
    "$ref",
    "$defs",
    "definitions",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "prefixItems",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
}


def _keywords(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                for sub in v.values():
                    _keywords(sub, out)
                continue
            out.add(k)
            if k == "items":
                assert isinstance(v, dict), "array-form items reads differently in 2020-12"
            _keywords(v, out)
    elif isinstance(node, list):
        for v in node:
            _keywords(v, out)
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in SCHEMAS_DIR.glob("rulesub*.json")))
def test_submission_schemas_use_keywords_both_drafts_read_alike(name: str) -> None:
    schema = json.loads((SCHEMAS_DIR / name).read_text(encoding="utf-8"))
    for validator in VALIDATORS:
        validator.check_schema(schema)
    assert not _keywords(schema, set()) & FORBIDDEN


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_both_drafts_accept_the_examples(path: Path) -> None:
    data = plain(load_yaml(path).data)
    generic = json.loads((SCHEMAS_DIR / "rulesub.schema.json").read_text(encoding="utf-8"))
    for validator in VALIDATORS:
        assert list(validator(schema_for(data)).iter_errors(data)) == []
        assert list(validator(generic).iter_errors(data)) == []


@pytest.mark.parametrize("path", sorted(FLAWED.glob("*.yaml")), ids=lambda p: p.stem)
def test_both_drafts_reject_the_flawed_ones_the_schema_can_tell(path: Path) -> None:
    try:
        loaded = load_yaml(path)
    except LoadError:
        pytest.skip("unreadable: no schema sees it (validate's own tests hold its message)")
    from test_validate import expected_codes

    expected = expected_codes(path)
    stated = any(_schema_states(c) for c in expected)
    data = plain(loaded.data)
    schema = schema_for(data)
    verdicts = {v.__name__: bool(list(v(schema).iter_errors(data))) for v in VALIDATORS}
    assert verdicts == {v.__name__: stated for v in VALIDATORS}, expected


def test_the_schema_comment_of_each_example_names_its_schema() -> None:
    for path in EXAMPLES.glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        game = load_yaml(path).data["game"]
        assert first == (
            f"# yaml-language-server: $schema=../../schemas/rulesub.{game}.schema.json"
        )
        assert (path.parent / f"../../schemas/rulesub.{game}.schema.json").resolve().is_file()


def test_game_schema_paytable_letters_are_enums() -> None:
    schema = json.loads((SCHEMAS_DIR / "rulesub.four-card-poker.schema.json").read_text())
    paytables = schema["properties"]["paytables"]["properties"]
    assert paytables["aces_up"]["enum"] == ["A", "B", "C", "D", "E", "F"]
    assert paytables["four_card_envy_bonus"]["enum"] == ["A", "B"]
    assert "five_card_envy_bonus" not in paytables  # one table per wager amount: not selected
    offered = schema["properties"]["offered"]["items"]["enum"]
    assert offered == [
        "four_card_progressive",
        "five_card_progressive",
        "bad_beat_bonus",
        "five_card_hand_bonus",
        "six_card_bonus",
        "magic_card_lucky_bonus",  # a payout the casino "may pay" (§ 641a.12(g)(3))
    ]
    assert "adjacent_boxes" in schema["required"]


@pytest.mark.parametrize("game", BANKING)
def test_compiled_constraints_are_the_game_files(game: str) -> None:
    """Constructed from the compiled file without validation, they equal the validated ones."""
    from validator.checks.engine import constraints_for
    from validator.checks.facts import construct_constraints
    from validator.compiler import load_game
    from validator.model.constraints import dump_constraints

    validated = constraints_for(load_game(game))
    compiled = construct_constraints(dump_constraints(validated))
    assert len(compiled) == len(validated)
    for made, model in zip(compiled, validated, strict=True):
        for name in type(model).model_fields:
            want, got = getattr(model, name), getattr(made, name)
            if name == "when" and want is not None:
                want, got = want.model_dump(), vars(got)
            assert got == want, (model.id, name)
        if hasattr(model, "pointers"):
            assert made.pointers == model.pointers


# -- what only a Poker table states --------------------------------------------------------


def _poker_values() -> dict[str, Any]:
    """A well-formed value of each Poker section, as the Poker examples state them."""
    holdem = plain(load_yaml(EXAMPLES / "poker-holdem.yaml").data)
    razz = plain(load_yaml(EXAMPLES / "house-razz.yaml").data)
    return {
        **{k: holdem[k] for k in ("ante", "blinds", "betting", "rake", "bad_beat")},
        "forced_bet": razz["forced_bet"],
        "showdown": {"discarded_hands_shown": True},
        "deck_rotation": holdem["deck_rotation"],
        "irregularities": "A card exposed by the dealer is shown to every player.",
    }


def test_the_poker_sections_are_one_list() -> None:
    from validator.checks.schema import _poker_sections
    from validator.model.submission import POKER_SECTIONS

    assert list(_poker_sections(True)) == list(POKER_SECTIONS)
    assert set(_poker_values()) == set(POKER_SECTIONS)


@pytest.mark.parametrize("game", BANKING)
def test_a_poker_section_on_a_banking_filing_is_refused_as_its_schema_refuses_it(
    game: str, tmp_path: Path
) -> None:
    """A key of ch. 553's nonbanking tables (a Forced Bet, a rake, a Bad Beat payout) on a
    banking game's filing answers no rule of its chapter: the game's schema refuses it, and
    ``validate`` refused it too, where it was read in silence as though it applied."""
    from validator.checks import validate_paths

    text = (EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8")
    lines = len(text.splitlines())

    def found(path: Path) -> list[tuple[str, str, int]]:
        return sorted((f.code, f.path, f.line) for f in validate_paths([path]).files[0].findings)

    example = found(EXAMPLES / f"{game}.yaml")  # what the example itself is told (Lunar's)
    for key, value in _poker_values().items():
        data = plain(load_yaml(EXAMPLES / f"{game}.yaml").data) | {key: value}
        for validator in VALIDATORS:
            assert list(validator(schema_for(data)).iter_errors(data)), (game, key)
        path = tmp_path / f"{key}.yaml"
        path.write_text(f"{text}{key}: {json.dumps(value)}\n", encoding="utf-8")
        refused = ("rulesub/unknown-key", f"/{key}", lines + 1)
        assert found(path) == sorted([*example, refused]), (game, key)
