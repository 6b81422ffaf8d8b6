"""The vocabulary registry: one entry per word of the game files, documented, used, and
carrying each engine's meaning; the reference (docs/vocabulary.md) generated from it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_args

import numpy as np
import pytest

from validator import PROJECT_ROOT
from validator.cards import parse_cards
from validator.interpreter.batch import _Chunk
from validator.interpreter.batch_conditions import ChunkConditions
from validator.interpreter.scalar import _Round
from validator.interpreter.scalar_conditions import RoundConditions
from validator.model import procedure
from validator.model.constraints import KINDS as CONSTRAINT_KINDS
from validator.model.game import Table
from validator.model.poker import Kill, Rake, StreetBetting
from validator.model.ranking import SHAPES, Category, Ranking
from validator.vocabulary import (
    CONDITION,
    CONSTRAINT_KIND,
    KINDS,
    POKER_WORD,
    RANKING_PRIMITIVE,
    REGISTRY,
    STEP,
    TABLE_FEATURE,
    UnknownWord,
    entry,
    meaning,
    meaning_of,
)
from validator.vocabulary.reference import load_meanings, render, uses
from validator.vocabulary.usage import RAKE_KINDS, STEP_MODELS, all_uses
from validator.vocabulary.words import FRAME

DOC = PROJECT_ROOT / "docs" / "vocabulary.md"


@pytest.fixture(scope="module")
def game_uses() -> list[Any]:
    load_meanings()
    return uses()


def test_the_committed_reference_is_current(game_uses: list[Any]) -> None:
    """docs/vocabulary.md is what `python -m validator.vocabulary` writes today."""
    assert DOC.is_file(), "docs/vocabulary.md is missing: run python -m validator.vocabulary"
    assert DOC.read_text(encoding="utf-8") == render(game_uses), (
        "docs/vocabulary.md is stale: run python -m validator.vocabulary"
    )


def test_every_entry_is_documented(game_uses: list[Any]) -> None:
    """An explanation in words, a model field that exists, and an example in the page."""
    text = DOC.read_text(encoding="utf-8")
    for w in REGISTRY.values():
        assert len(w.explanation.split()) >= 5, f"{w.kind} {w.word}: explain it"
        assert w.field in w.model.model_fields, f"{w.kind} {w.word}: no field {w.schema}"
        section = text.split(f"### {w.kind} {w.word}\n", 1)
        assert len(section) == 2, f"{w.kind} {w.word} has no page in the reference"
        page = section[1].split("\n### ", 1)[0]
        assert "**What it does.**" in page and "```yaml" in page, f"{w.kind} {w.word}"


def test_every_entry_is_used_by_a_game_or_says_why_it_is_general(game_uses: list[Any]) -> None:
    used = {(u.kind, u.word) for u in game_uses}
    for w in REGISTRY.values():
        if w.key in used:
            assert w.general is None, f"{w.kind} {w.word} is used: it is not general any more"
        else:
            assert w.general, f"no game uses {w.kind} {w.word!r}: remove it, or say why it stays"


def test_every_word_a_game_file_states_has_an_entry() -> None:
    """Every field a `when:`, a table, a ranking or a category states (but their frame),
    every step and every constraint kind of every game file is a word of the registry."""
    missing = sorted(
        {(u.kind, u.word, u.game) for u in all_uses() if (u.kind, u.word) not in REGISTRY}
    )
    assert not missing, f"words without an entry: {missing}"


def test_every_word_the_models_accept_has_an_entry() -> None:
    """The vocabulary is the models' own: a new condition key, step, shape, table feature or
    constraint kind needs its entry before a game file can use it."""
    expected = {
        CONDITION.id: set(procedure.When.model_fields),
        STEP.id: {get_args(m.model_fields["step"].annotation)[0] for m in STEP_MODELS},
        CONSTRAINT_KIND.id: set(CONSTRAINT_KINDS),
        RANKING_PRIMITIVE.id: (set(SHAPES) | set(Category.model_fields) | set(Ranking.model_fields))
        - FRAME[RANKING_PRIMITIVE.id],
        TABLE_FEATURE.id: set(Table.model_fields) - FRAME[TABLE_FEATURE.id],
        POKER_WORD.id: set(get_args(StreetBetting.model_fields["opens"].annotation))
        | set(RAKE_KINDS)
        | set(get_args(get_args(Kill.model_fields["options"].annotation)[0])),
    }
    for kind, names in expected.items():
        have = {w for k, w in REGISTRY if k == kind}
        assert have == names, f"{kind}: missing {names - have}, not in the model {have - names}"


def test_step_models_cover_the_step_union() -> None:
    union = get_args(get_args(procedure.Step)[0])
    assert set(union) == set(STEP_MODELS)


def test_every_engine_of_a_kind_has_a_meaning_or_says_none() -> None:
    """Where both round engines handle a kind of word, each word carries both meanings, or
    says in the entry why one engine does not handle it."""
    load_meanings()
    for w in REGISTRY.values():
        for engine in KINDS[w.kind].engines:
            has, none = engine in w.meanings, engine in w.none
            assert has != none, f"{w.kind} {w.word}: {engine} " + (
                "both has a meaning and says none" if has else "has no meaning, and no reason"
            )
            if none:
                assert len(w.none[engine].split()) >= 5, f"{w.kind} {w.word}: say why"


def test_condition_keys_and_steps_carry_each_engines_own_function() -> None:
    load_meanings()
    for key in procedure.When.model_fields:
        assert (
            meaning_of(CONDITION.id, key, "scalar").__qualname__ == f"RoundConditions._when_{key}"
        )
        assert meaning_of(CONDITION.id, key, "batch").__qualname__ == f"ChunkConditions._when_{key}"
    for w in REGISTRY.values():
        if w.kind == STEP.id:
            assert meaning_of(STEP.id, w.word, "scalar") is _Round.__dict__[f"_step_{w.word}"]
            assert meaning_of(STEP.id, w.word, "batch") is _Chunk.__dict__[f"_step_{w.word}"]


def test_ranking_shapes_carry_each_evaluators_own_function() -> None:
    """Each shape of a hand category has one scalar meaning (the search ``find`` runs) and
    one vectorised meaning (what ``BatchEvaluator.holds`` and ``combination`` run), each a
    function of its own, registered on the shape's entry."""
    from validator.rankings import batch, primitives

    load_meanings()
    scalar = {s: meaning_of(RANKING_PRIMITIVE.id, s, "scalar") for s in SHAPES}
    vectorised = {s: meaning_of(RANKING_PRIMITIVE.id, s, "batch") for s in SHAPES}
    for s in SHAPES:
        assert scalar[s] is getattr(primitives, f"_find_{s}"), s
        assert vectorised[s].__module__ == batch.__name__, s
    assert len(set(scalar.values())) == len(SHAPES)
    # ranks, contains and contains_any differ only in the rank sets they list
    assert len(set(vectorised.values())) == len(SHAPES) - 2


def _colour_ranking() -> Ranking:
    """A fresh ranking (its categories not yet seen by any evaluator): five of one colour
    over anything else."""
    return Ranking(
        id="colours",
        name="Colours",
        size=5,
        cite="§ 589.6(d)",
        categories=[
            Category(id="same_colored_five", name="Same colored five", same_color=5),
            Category(id="high_card", name="High card", any=True),
        ],
    )


@pytest.fixture
def patched_same_color() -> Iterator[None]:
    """The `same_color` entry's meanings replaced by "never held": both evaluators must
    follow the entry."""
    from validator.rankings.batch import Found

    w = entry(RANKING_PRIMITIVE.id, "same_color")
    saved = dict(w.meanings)

    def scalar(category: Any) -> Any:
        return lambda hand, ace_low: None

    def batch(ev: Any, category: Any, hands: Any) -> Any:
        return Found(np.zeros(hands.n, dtype=bool), lambda: [])

    w.meanings.update(scalar=scalar, batch=batch)
    yield
    w.meanings.clear()
    w.meanings.update(saved)


#: five red cards, and the same with a black club in place of the 2 of hearts
RED_FIVE = parse_cards("2h 5d 8h Jd Kh")
MIXED_FIVE = parse_cards("2c 5d 8h Jd Kh")


def _both_evaluators_say(ranking: Ranking) -> tuple[list[str], list[str]]:
    from validator.rankings.batch import BatchEvaluator
    from validator.rankings.evaluator import Evaluator

    scalar = Evaluator(ranking)
    held = BatchEvaluator(ranking).held_of_cards(np.array([RED_FIVE, MIXED_FIVE]))
    return (
        [scalar.held(hand)[0].id for hand in (RED_FIVE, MIXED_FIVE)],
        [ranking.categories[i].id for i in held.tolist()],
    )


def test_both_evaluators_find_a_shape_through_its_registry_entry(
    patched_same_color: None,
) -> None:
    """Lunar Poker's same colored five (§ 589.6(d)) with its entry patched to "never held":
    the scalar and the batch evaluator both see high card only."""
    assert _both_evaluators_say(_colour_ranking()) == (
        ["high_card", "high_card"],
        ["high_card", "high_card"],
    )


def test_unpatched_both_evaluators_hold_five_of_one_colour() -> None:
    """§ 589.6(d): five red cards are a same colored five, a black club among them is not."""
    assert _both_evaluators_say(_colour_ranking()) == (
        ["same_colored_five", "high_card"],
        ["same_colored_five", "high_card"],
    )


@pytest.fixture
def patched_folded() -> Iterator[None]:
    """The `folded` entry's meanings replaced: the engines must follow the entry."""
    w = entry(CONDITION.id, "folded")
    saved = dict(w.meanings)

    def scalar(self: Any, when: Any, seat: Any, side: str) -> Iterator[tuple[bool, str]]:
        yield False, "read from the registry"

    def batch(self: Any, when: Any, side: str) -> Any:
        return np.zeros((self.state.N, self.state.S), bool)

    w.meanings.update(scalar=scalar, batch=batch)
    yield
    w.meanings.clear()
    w.meanings.update(saved)


class _RoundStub:
    """The scalar engine's condition reading, with nothing of a round around it."""

    _tests = RoundConditions._tests
    holds = RoundConditions.holds
    explain = RoundConditions.explain
    _when_folded = RoundConditions._when_folded


class _ChunkStateStub:
    """2 rounds of 3 seats, some folded."""

    N, S = 2, 3
    folded = np.array([[False, True, False], [True, True, False]])


class _ChunkStub:
    """The batch engine's condition reading, with nothing of a chunk around it but its
    folds."""

    state = _ChunkStateStub()
    cond = ChunkConditions.cond
    _when_folded = ChunkConditions._when_folded


def test_both_engines_read_a_condition_through_its_registry_entry(patched_folded: None) -> None:
    when = procedure.When(folded=False)
    assert _RoundStub().explain(when, None) == ["read from the registry"]  # type: ignore[arg-type]
    assert not _RoundStub().holds(when, None)  # type: ignore[arg-type]
    assert not _ChunkStub().cond(when).any()  # type: ignore[arg-type]


def test_unpatched_the_entries_read_the_round() -> None:
    """`folded: false` holds for a player not folded (and tells nothing), and for the seats
    of the batch not folded."""

    class Seat:
        folded = False

    when = procedure.When(folded=False)
    assert _RoundStub().holds(when, Seat()) is True  # type: ignore[arg-type]
    assert _RoundStub().explain(procedure.When(folded=True), Seat()) == []  # type: ignore[arg-type]
    assert _ChunkStub().cond(when).tolist() == [[True, False, True], [False, False, True]]  # type: ignore[arg-type]


def test_a_meaning_for_a_word_not_in_the_vocabulary_is_refused() -> None:
    with pytest.raises(UnknownWord, match="no condition 'foldd'"):
        meaning("scalar", CONDITION.id, "foldd")(lambda: None)


def test_a_meaning_where_the_entry_says_none_is_refused() -> None:
    with pytest.raises(ValueError, match="does not handle it"):
        meaning("batch", RANKING_PRIMITIVE.id, "low")(lambda: None)


def test_constraint_kinds_are_evaluated_by_their_entry() -> None:
    from validator.checks import kinds

    load_meanings()
    for kind in CONSTRAINT_KINDS:
        fn = meaning_of(CONSTRAINT_KIND.id, kind, "checks")
        assert fn.__module__ == kinds.__name__


def test_strategies_in_files_of_their_own_count_as_uses(tmp_path: Any) -> None:
    """Player strategies kept apart from the law (games/strategies/) use condition keys too;
    a key no entry has is found there as in a game file."""
    from validator.vocabulary.usage import strategy_file_uses

    folder = tmp_path / "strategies" / "four-card-poker"
    folder.mkdir(parents=True)
    (folder / "expert.yaml").write_text(
        "decisions:\n  play:\n    - when: {dealer_up: {rank_in: [A]}, any_player: {foldd: true}}\n"
        "      then: play 3x\n",
        encoding="utf-8",
    )
    found = {(u.kind, u.word) for u in strategy_file_uses(tmp_path)}
    assert found == {
        (CONDITION.id, "dealer_up"),
        (CONDITION.id, "any_player"),
        (CONDITION.id, "foldd"),
    }
    assert (CONDITION.id, "foldd") not in REGISTRY


def test_the_rake_kinds_are_the_rake_models_own() -> None:
    """A Poker game file's `rake:` states its kinds as fields of their own (§ 553.15(b)(1)-(3):
    percentage, incremental, time charges)."""
    assert set(RAKE_KINDS) <= set(Rake.model_fields)


def test_the_poker_words_carry_each_engines_own_function() -> None:
    """The rake's kinds and the Kill's options: the scalar settlement (play, settle) and the
    kernels' compiler (play, simulate, par) register their own meaning of each; who opens a
    street, the kernels' compiler alone (every round is dealt and bet by the kernels), the
    scalar engine's none stated."""
    from validator.interpreter.poker import kill, rake
    from validator.interpreter.poker.fast import program, settle

    load_meanings()
    scalar = {
        "percentage": rake.explain_rake,
        "incremental": rake.explain_rake,
        "time": rake.time_charges,
        "kill": kill.next_hand,
        "half_kill": kill.next_hand,
    }
    kernels: dict[str, object] = dict.fromkeys(
        ("forced_bet", "showing", "left_of_blinds", "left_of_button"), program.opens_code
    )
    kernels |= dict.fromkeys(
        ("percentage", "incremental", "time"), settle.FastSettler._compile_rake
    )
    kernels |= dict.fromkeys(("kill", "half_kill"), program.kill_limits)
    for name, fn in scalar.items():
        assert meaning_of(POKER_WORD.id, name, "scalar") is fn, name
    for name, fn in kernels.items():
        assert meaning_of(POKER_WORD.id, name, "kernels") is fn, name
    for name in ("forced_bet", "showing", "left_of_blinds", "left_of_button"):
        assert "kernels" in entry(POKER_WORD.id, name).none["scalar"], name
    assert program.opens_code("forced_bet") == program.OPENS_FORCED
    assert program.opens_code("showing") == program.OPENS_SHOWING


def test_the_kernels_read_who_opens_through_the_registry_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Stud round's first street is opened by the Forced Bet (§ 553.10(d)), the later ones
    by the best hand showing (§ 553.10(f)): the kernels' compiler finds each through its
    entry."""
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session
    from validator.interpreter.poker.table import default_setup

    load_meanings()
    asked: list[str] = []
    for name in ("forced_bet", "showing"):
        w = entry(POKER_WORD.id, name)
        own = w.meanings["kernels"]

        def counted(opens: Any, own: Any = own, name: str = name) -> Any:
            asked.append(name)
            return own(opens)

        monkeypatch.setitem(w.meanings, "kernels", counted)
    game = load_game("poker-seven-card-stud")
    session = Session(game, default_setup(game), 4, 3)
    next(session.hands(1))
    assert asked[0] == "forced_bet" and set(asked) <= {"forced_bet", "showing"}
