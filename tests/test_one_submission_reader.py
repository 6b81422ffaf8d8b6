"""One reader of a Rules Submission for every command: the model ``rulesub validate`` reads.

A misspelt ``paytabels:`` is no key of a submission. ``validate`` reports it; a command that
acts on the submission's figures (play, simulate, settle, odds, par) refuses it rather than
act on the default paytables; ``signage`` prints no sign for it; ``diff`` writes its document
(reviewing a flawed filing is its job) saying first what was not read as written. Every one
of them says so with the same file:line:column and the same words, and exits 1.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_linter import EXAMPLES, rulesub

from validator.compiler import BankingGame, PokerGame, load_game
from validator.errors import ConfigError
from validator.interpreter.config import TableConfig
from validator.interpreter.settings import read_settings
from validator.model.submission import load_submission

EXAMPLE = EXAMPLES / "high-card-flush.yaml"
MESSAGE = "unknown key 'paytabels' (did you mean 'paytables'?)"


def _typo(tmp_path: Path) -> tuple[Path, int]:
    text = EXAMPLE.read_text()
    assert "\npaytables:" in text
    typo = tmp_path / "typo.yaml"
    typo.write_text(text.replace("\npaytables:", "\npaytabels:"))
    line = text[: text.index("\npaytables:")].count("\n") + 2
    return typo, line


def _round_file(tmp_path: Path, typo: Path) -> Path:
    path = tmp_path / "round.yaml"
    path.write_text(
        f"game: high-card-flush\nrulesub: {typo.name}\nseats:\n"
        "  - wagers: {ante: 10}\n    cards: [2S, 4S, 6S, 8S, TS, QS, KS]\n"
        "    actions: [raise 3x]\ndealer: [9H, 5H, 3H, 2D, 4C, 6D, 7C]\n"
    )
    return path


#: a misspelt key is a finding (an error): every command computing from the submission refuses
#: it as validate counts it, exit 1; diff writes its document and exits 1, as validate does
COMMANDS: dict[str, tuple[Callable[[Path, Path], list[str]], int]] = {
    "validate": (lambda typo, tmp: ["validate", str(typo)], 1),
    "play": (lambda typo, tmp: ["play", "high-card-flush", "--rulesub", str(typo)], 1),
    "simulate": (
        lambda typo, tmp: ["simulate", "high-card-flush", "--rounds", "20", "--rulesub", str(typo)],
        1,
    ),
    "settle": (lambda typo, tmp: ["settle", str(_round_file(tmp, typo))], 1),
    "signage": (lambda typo, tmp: ["signage", str(typo)], 1),
    "diff": (lambda typo, tmp: ["diff", str(EXAMPLE), str(typo)], 1),
    "odds": (lambda typo, tmp: ["odds", "high-card-flush", "--rulesub", str(typo)], 1),
    "par": (lambda typo, tmp: ["par", str(typo), "--rounds", "100"], 1),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_misspelt_paytables_is_refused_by_every_command_with_one_message(
    command: str, tmp_path: Path
) -> None:
    typo, line = _typo(tmp_path)
    args, code = COMMANDS[command]
    done = rulesub(*args(typo, tmp_path), columns=400)
    assert done.returncode == code, (done.stdout, done.stderr)
    said = [
        ln
        for ln in (done.stdout + done.stderr).splitlines()
        if f"{typo}:{line}:1: " in ln and MESSAGE in ln
    ]
    assert said, f"no `{typo}:{line}:1: … {MESSAGE}` in:\n{done.stdout}{done.stderr}"
    assert "rulesub/unknown-key" in said[0]
    assert "Traceback" not in done.stderr


def test_diff_says_what_was_not_read_before_the_changes_it_makes(tmp_path: Path) -> None:
    """A diff of a filing with a misspelt ``paytabels:`` is written (the review is its job),
    and says first that the key was not read, so that no "Paytable A → none" is taken for a
    paytable the casino removed; the JSON lists it under ``not_read_as_written``."""
    import json

    typo, line = _typo(tmp_path)
    text = rulesub("diff", str(EXAMPLE), str(typo), columns=400)
    assert text.returncode == 1, text.stderr
    head, _, rest = text.stdout.partition("Paytables")
    assert "Not read as written, so compared as if left out" in head
    assert f"{typo}:{line}:1: error rulesub/unknown-key: {MESSAGE}" in head
    assert "→ none" in rest and "rulesub/unknown-key" in rest  # and among the findings
    done = rulesub("diff", str(EXAMPLE), str(typo), "--format", "json")
    assert done.returncode == 1, done.stderr
    [not_read] = json.loads(done.stdout)["not_read_as_written"]
    assert (not_read["code"], not_read["line"], not_read["message"]) == (
        "rulesub/unknown-key",
        line,
        MESSAGE,
    )
    clean = rulesub("diff", str(EXAMPLE), str(EXAMPLE), "--format", "json")
    assert clean.returncode == 0 and "not_read_as_written" not in json.loads(clean.stdout)


def test_the_table_comes_from_the_model_validate_reads() -> None:
    """§ 678a.12(b)-(d): the letters, meters, limits and positions the interpreter plays are
    the values of the RulesSubmission that validate reads, not a reading of its own."""
    game = load_game("high-card-flush")
    loaded = load_submission(EXAMPLE)
    sub = loaded.submission
    assert sub is not None and not loaded.problems
    cfg = read_settings(game, EXAMPLE)
    assert sub.table is not None and sub.table.positions is not None
    assert (cfg.min_wager, cfg.max_wager) == (sub.table.min_wager, sub.table.max_wager)
    assert cfg.positions == min(sub.table.positions, game.definition.table.max_positions)
    assert cfg.payout_limit == sub.payout_limit
    assert cfg.offered == set(sub.offered or ())
    for table_id, letter in (sub.paytables or {}).items():
        assert cfg.letter(game, table_id) == letter
    stated = (sub.progressives or {})["progressive_jackpot"]
    meter = cfg.progressives["progressive_jackpot"].meters["primary"]
    given = (stated.meters or {})["primary"]
    assert (meter.seed, meter.reseed, meter.increment) == (
        given.seed,
        given.reseed,
        given.increment,
    )
    assert cfg.progressives["progressive_jackpot"].wager_amount == stated.wager_amount
    assert cfg != TableConfig.defaults(game)


def test_allow_findings_plays_what_could_be_read(tmp_path: Path) -> None:
    """With --allow-findings the officer accepts the errors: the table is set from what was
    read, the misspelt paytables left at the chapter's first letters."""
    typo, _ = _typo(tmp_path)
    game = load_game("high-card-flush")
    with pytest.raises(ConfigError) as refused:
        read_settings(game, typo)
    assert MESSAGE in str(refused.value)
    cfg = read_settings(game, typo, allow_findings=True)
    assert cfg.paytables == {} and cfg.letter(game, "flush_bonus") == "A"
    assert cfg.payout_limit == read_settings(game, EXAMPLE).payout_limit


def test_the_compiled_game_is_one_immutable_typed_object() -> None:
    """Banking games compile to BankingGame, the Poker chapter's to PokerGame; neither can
    be changed once compiled, and both keep the access the engines use."""
    import dataclasses

    banking, poker = load_game("four-card-poker"), load_game("poker-holdem")
    assert isinstance(banking, BankingGame) and not isinstance(banking, PokerGame)
    assert isinstance(poker, PokerGame) and poker.card_orders
    for game in (banking, poker):
        with pytest.raises(dataclasses.FrozenInstanceError):
            game.definition = game.definition  # type: ignore[misc]
        with pytest.raises(Exception, match="frozen"):
            game.definition.id = "x"  # type: ignore[misc]
        hand = next(iter(game.definition.hands))
        assert game.evaluator(hand) is game.evaluator(game.hand(hand).ranking)


def test_the_model_imports_no_engine() -> None:
    """model → engines → report → cli: importing every module of validator.model (and
    loading a game's definition through it) brings in no engine, nor the compiler above it."""
    import subprocess
    import sys

    import validator

    model = Path(validator.__file__).parent / "model"
    modules = sorted(  # the submission is a package of its own: its modules too
        ".".join(p.relative_to(model).with_suffix("").parts).removesuffix(".__init__")
        for p in model.rglob("*.py")
    )
    code = (
        "import sys\n"
        + "".join(f"import validator.model.{m}\n" for m in modules)
        + "from validator.model.registry import check_game_file, check_game_id\n"
        + "check_game_file(check_game_id('four-card-poker'))\n"
        + "later = ('validator.rankings', 'validator.interpreter', 'validator.odds', "
        + "'validator.checks', 'validator.compiler', 'validator.signage', 'validator.cli')\n"
        + "print(sorted(m for m in sys.modules if m.startswith(later)))\n"
    )
    env = {"RULESUB_NO_CACHE": "1", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
