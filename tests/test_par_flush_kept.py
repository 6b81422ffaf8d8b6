"""High Card Flush's exact base-game figures, shipped in ``validator/par/derived``: keyed by
what they are derived from (the game file's hands, ranking, deal, decision, nets and
declared strategies), never by rulesub's own code, so that a first ``par`` after an install
or an upgrade answers from them instead of counting every dealer hand again."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from validator import cache
from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.interpreter.settings import read_settings
from validator.par import longest_flush
from validator.par import sheet as sheet_module
from validator.par.completions import read_derived
from validator.par.longest_flush import FlushGame, method_key
from validator.par.sheet import ParRequest, build

GAME = "high-card-flush"


@pytest.fixture(scope="module")
def flush_game() -> FlushGame:
    g = load_game(GAME)
    return FlushGame.from_rules(Rules(g, TableConfig.defaults(g)))


def declared() -> dict[str, object]:
    d = load_game(GAME).definition
    return dict(d.strategies.by_name) if d.strategies else {}


def test_kept_figures_are_derived_from_this_game_file(flush_game: FlushGame) -> None:
    """After a change to the game file, ``python -m validator.par.longest_flush
    high-card-flush`` derives them again."""
    kept = read_derived(GAME)
    assert kept is not None
    assert kept[0] == method_key(flush_game, declared())
    best = kept[1]["optimal"]
    # about 2.66% of the Ante under the optimal strategy; never worse than a declared one
    assert Fraction(266, 10_000) <= best.house_edge < Fraction(267, 10_000)
    for f in kept[1].values():
        assert f.ev <= best.ev
        assert sum(f.decisions.values()) == 1 == sum(f.distribution.values())


def test_the_key_follows_the_game_not_the_code(flush_game: FlushGame) -> None:
    """A paytable line's net or a strategy's rows change the key; rulesub's code does not
    enter it."""
    key = method_key(flush_game, declared())
    assert method_key(replace(flush_game, qualifier=None), declared()) != key
    assert method_key(flush_game, {}) != key


def test_a_first_par_after_an_upgrade_counts_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """An empty user cache and another build of rulesub (another code digest): the par
    sheet's exact base game comes from the shipped figures; the dealer hands are not
    counted (counting them would raise here)."""
    monkeypatch.setenv("RULESUB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "code_digest", lambda: "another release")

    def no_count(*_: object, **__: object) -> None:
        raise AssertionError("counted the dealer hands again")

    monkeypatch.setattr(longest_flush, "count_all", no_count)
    monkeypatch.setattr(sheet_module, "count_all", no_count, raising=False)
    g = load_game(GAME)
    sheet = build(ParRequest(g, read_settings(g, None), None, simulate=False))
    kept = read_derived(GAME)
    assert kept is not None
    got = sheet["base_game"]["strategies"]["optimal"]
    assert got["method"] == "exact"
    assert Fraction(got["exact"]) == kept[1]["optimal"].house_edge
