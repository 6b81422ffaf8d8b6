"""Reading a Rules Submission: money and rates as the contract writes them, and every
problem of form reported at once, each at its line and column."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from validator import PROJECT_ROOT
from validator.loader import LoadError, load_yaml, read_text
from validator.model.submission import (
    RulesSubmission,
    _read_plain,
    known_keys_at,
    load_submission,
    parse_submission,
)

HEAD = """rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: high-card-flush
effective: 2027-01-01
"""


def read(
    tmp_path: Path, text: str
) -> tuple[RulesSubmission | None, list[tuple[str, str, int, int]]]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = load_submission(path)
    return loaded.submission, [(p.code, p.pointer, p.line, p.column) for p in loaded.problems]


@pytest.mark.parametrize(
    ("written", "dollars"),
    [
        ("10", Decimal(10)),
        ('"$5,000"', Decimal(5000)),
        ('"$10.50"', Decimal("10.50")),
        ('"25000"', Decimal(25000)),
        ("0", Decimal(0)),
    ],
)
def test_money_is_a_number_of_dollars_or_a_dollar_string(
    tmp_path: Path, written: str, dollars: Decimal
) -> None:
    sub, problems = read(tmp_path, HEAD + f"payout_limit: {written}\n")
    assert problems == [p for p in problems if p[0] == "rulesub/missing-key"]
    assert sub is not None and sub.payout_limit == dollars


@pytest.mark.parametrize("written", ["10.5", '"ten"', "-5", '"$5,00"'])
def test_money_that_is_not_exact_dollars_is_refused(tmp_path: Path, written: str) -> None:
    _, problems = read(tmp_path, HEAD + f"payout_limit: {written}\n")
    assert ("rulesub/bad-value", "/payout_limit", 6, 15) in problems


def test_rates_are_written_with_a_percent_sign(tmp_path: Path) -> None:
    text = HEAD + (
        "progressives:\n"
        "  progressive_jackpot:\n"
        "    meters:\n"
        "      primary: {seed: 30000, reseed: 30000, increment: 20%, reserve_increment: N/A}\n"
    )
    sub, problems = read(tmp_path, text)
    assert [p for p in problems if p[0] != "rulesub/missing-key"] == []
    assert sub is not None and sub.progressives is not None
    meter = sub.progressives["progressive_jackpot"].meters["primary"]  # type: ignore[index]
    assert meter.increment == Fraction(1, 5)
    assert meter.reserve_increment == 0


@pytest.mark.parametrize("bare", ["20", "0.2", "20.5"])
def test_a_bare_number_where_a_rate_is_expected_is_an_error_with_a_hint(
    tmp_path: Path, bare: str
) -> None:
    text = HEAD + (
        "progressives:\n"
        "  progressive_jackpot:\n"
        f"    meters: {{primary: {{seed: 30000, increment: {bare}}}}}\n"
    )
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = [
        p for p in load_submission(path).problems if p.code == "rulesub/rate-needs-percent"
    ]
    assert problem.pointer == "/progressives/progressive_jackpot/meters/primary/increment"
    assert (problem.line, problem.column) == (8, 48)
    assert problem.hint == f"write '{bare}%' if {bare} percent is meant"


def test_every_problem_of_form_in_one_run(tmp_path: Path) -> None:
    text = (
        "rulesub: 1\n"
        "certificate_holdr: X\n"
        "facility: 7\n"
        "game: high-card-flush\n"
        "effective: someday\n"
        "table: {positions: '6', min_wager: 10, max_wager: 10.5, seats: 6}\n"
        "dealing: {methods: [shoe], shuffler: automated, decks: 0, change_every_hours: {}}\n"
        "equipment: {progressive_system: yes}\n"
        "adjacent_boxes: true\n"
    )
    sub, problems = read(tmp_path, text)
    assert sub is not None  # the well-formed rest is still there to check
    assert sub.game == "high-card-flush" and sub.table is not None
    assert sub.table.min_wager == 10
    assert sorted(problems) == sorted(
        [
            ("rulesub/unknown-key", "/certificate_holdr", 2, 1),
            ("rulesub/missing-key", "/certificate_holder", 1, 1),
            ("rulesub/wrong-type", "/facility", 3, 11),
            ("rulesub/wrong-type", "/effective", 5, 12),
            ("rulesub/wrong-type", "/table/positions", 6, 20),
            ("rulesub/bad-value", "/table/max_wager", 6, 51),
            ("rulesub/unknown-key", "/table/seats", 6, 57),
            ("rulesub/bad-value", "/dealing/methods/0", 7, 21),
            ("rulesub/bad-value", "/dealing/decks", 7, 56),
            ("rulesub/wrong-type", "/equipment/progressive_system", 8, 33),
            ("rulesub/wrong-type", "/adjacent_boxes", 9, 17),
        ]
    )


def test_unknown_key_suggests_the_nearest(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "payout_limt: 50000\n", encoding="utf-8")
    (problem,) = [p for p in load_submission(path).problems if p.code == "rulesub/unknown-key"]
    assert "did you mean 'payout_limit'" in problem.message
    assert problem.hint == "rename it to 'payout_limit'"


def test_bad_choice_suggests_the_nearest(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "dealing: {shuffler: automatic}\n", encoding="utf-8")
    (problem,) = [p for p in load_submission(path).problems if p.code == "rulesub/bad-value"]
    assert problem.message == (
        "/dealing/shuffler: 'automatic' is not one of: manual, automated, automated_counting "
        "(did you mean 'automated'?)"
    )


def test_not_a_mapping(tmp_path: Path) -> None:
    """The message says what the file holds in plain words, as YAML reads it."""
    for text, holds in [
        ("", "empty"),
        ("- a\n- b\n", "a list"),
        ("just words\n", "a line of text"),
        ("5\n", "a number"),
        ("true\n", "the single value true"),
    ]:
        path = tmp_path / "s.yaml"
        path.write_text(text, encoding="utf-8")
        loaded = load_submission(path)
        assert loaded.submission is None
        assert [p.code for p in loaded.problems] == ["rulesub/not-a-submission"]
        assert loaded.problems[0].message.endswith(f"this file is {holds}"), text


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("table: {positions: true}", "/table/positions: expected a whole number, not true"),
        ("offered: [~]", "/offered/0: expected text, not an empty value"),
        ("table: {positions: [6]}", "/table/positions: expected a whole number, not a list"),
        ("table: {positions: six}", "/table/positions: expected a whole number, not the text"),
        ("facility: 7", "/facility: expected text, not the number 7"),
        ("dealing: {methods: [~]}", "/dealing/methods/0: an empty value is not one of: hand,"),
        ("dealing: {shuffler: false}", "/dealing/shuffler: false is not one of: manual,"),
        ("table: {min_wager: [5]}", "/table/min_wager: money a list: expected a number"),
        ("table: {min_wager: {}}", "/table/min_wager: money a mapping: expected a number"),
    ],
)
def test_a_value_of_the_wrong_kind_is_named_as_yaml_writes_it(
    tmp_path: Path, written: str, message: str
) -> None:
    """YAML's words in the message (true, an empty value, a list), never Python's (True,
    None, [])."""
    path = tmp_path / "s.yaml"
    head = HEAD.replace("facility: Example Downs\n", "") if written.startswith("fac") else HEAD
    path.write_text(head + written + "\n")
    found = [p.message for p in load_submission(path).problems]
    assert any(m.startswith(message) for m in found), found


def test_known_keys_follow_the_model() -> None:
    assert known_keys_at("/table") == ["positions", "min_wager", "max_wager"]
    assert known_keys_at("/progressives/anything/meters/primary") == [
        "seed",
        "reseed",
        "increment",
        "reserve_increment",
    ]
    assert known_keys_at("/paytables") == []  # its keys are the game's tables


def test_data_keeps_only_what_is_stated_and_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "table: {positions: 6, min_wager: x}\n", encoding="utf-8")
    data = parse_submission(load_yaml(path)).submission.data()  # type: ignore[union-attr]
    assert data["table"] == {"positions": 6}
    assert "dealing" not in data and "offered" not in data


# -- the libyaml reader gives load_yaml's result --------------------------------------------


def _same_as_loader(path: Path) -> bool:
    """True when the fast reader read the file, and read it exactly as load_yaml does."""
    try:
        fast = _read_plain(path, read_text(path))
    except LoadError:
        fast = None
    try:
        slow = load_yaml(path)
    except LoadError:
        assert fast is None, f"{path}: read what the loader refuses"
        return False
    if fast is None:
        return False
    assert fast.data == slow.data, path
    assert fast.positions == slow.positions, path
    assert fast.key_positions == slow.key_positions, path
    return True


def test_fast_reader_agrees_with_the_loader_on_every_shipped_file() -> None:
    files = sorted((PROJECT_ROOT / "rulesubs").rglob("*.yaml"))
    files += sorted((PROJECT_ROOT / "games").rglob("*.yaml"))
    read = [p for p in files if _same_as_loader(p)]
    assert len(read) >= len(files) - 8  # the unreadable flawed files and a few game files


@pytest.mark.parametrize(
    "text",
    [
        "a: 010\n",  # octal-looking: ruamel reads 10; left to the loader
        "a: 1.5\n",
        "a: 0x1F\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: 1\na: 2\n",
        "---\na: 1\n---\nb: 2\n",
        "<<: {a: 1}\n",
        "a:\n",
        "a: 2027-01-01 10:00:00\n",
        "a: .inf\n",
        "1: x\n'1': y\n",
    ],
)
def test_fast_reader_leaves_what_is_not_plain_to_the_loader(tmp_path: Path, text: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    assert _read_plain(path, text) is None


_keys = st.text(alphabet="abcdefghij_-", min_size=1, max_size=6)
_scalars = st.one_of(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.booleans(),
    st.none(),
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2200, 1, 1)),
    st.text(max_size=10),
    st.sampled_from(["25%", "$5,000", "30 to 1", "N/A", "yes", "no", "1e3", "1:2", "12.50"]),
)
_docs = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(_keys, inner, min_size=1, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None)
@given(doc=st.dictionaries(_keys, _docs, min_size=1, max_size=5), flow=st.booleans())
def test_fast_reader_agrees_with_the_loader_on_generated_documents(
    doc: dict[str, object], flow: bool
) -> None:
    import tempfile

    yaml = YAML()
    yaml.default_flow_style = flow
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.yaml"
        with path.open("w", encoding="utf-8") as f:
            yaml.dump(doc, f)
        _same_as_loader(path)


def test_a_key_written_without_a_value_is_an_error(tmp_path: Path) -> None:
    """`rulesub:` with nothing after it is not the format version 1, nor any value."""
    text = HEAD.replace("rulesub: 1", "rulesub:") + "dealing: {methods: [null], decks: ~}\n"
    _, problems = read(tmp_path, text)
    assert ("rulesub/bad-value", "/rulesub", 1, 1) in problems
    assert ("rulesub/bad-value", "/dealing/decks", 6, 28) in problems  # at its key
    assert [p for p in problems if p[1] == "/dealing/methods/0"] == [
        ("rulesub/bad-value", "/dealing/methods/0", 6, 21)
    ]
