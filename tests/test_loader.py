"""A game file with a mistake is refused whole, each problem with file:line:column and
what was expected; through the command, exit code 2 and no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import GAMES, run_rulesub

from validator.compiler import load_game_file
from validator.loader import MAX_BYTES, LoadError, load_yaml
from validator.model.registry import GameFileError

GAME = "four-card-poker"


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    """A copy of the declared games to break one at a time."""
    d = tmp_path / "games"
    shutil.copytree(GAMES, d)
    return d


def original() -> str:
    return (GAMES / f"{GAME}.yaml").read_text(encoding="utf-8")


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def col_of(text: str, needle: str, within: str | None = None) -> int:
    line = text.splitlines()[line_of(text, within or needle) - 1]
    return line.index(needle) + 1


def refuse(games_dir: Path, text: str | bytes) -> list[str]:
    path = games_dir / f"{GAME}.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises((GameFileError, LoadError)) as info:
        load_game_file(path, games_dir)
    err = info.value
    errors = err.errors if isinstance(err, GameFileError) else [err]
    return [str(e) for e in errors]


def where(messages: list[str]) -> list[tuple[int, int]]:
    out = []
    for m in messages:
        _, line, col, _ = m.split(":", 3)
        out.append((int(line), int(col)))
    return out


def test_the_declared_games_load(games_dir: Path) -> None:
    for path in sorted(games_dir.glob("*.yaml")):
        if path.name != "rankings.yaml":
            assert load_game_file(path, games_dir).id == path.stem


def test_unknown_key_with_did_you_mean_and_the_keys_expected(games_dir: Path) -> None:
    text = original().replace("  max_positions: 7\n", "  max_positions: 7\n  max_positons: 7\n")
    [message] = refuse(games_dir, text)
    assert message.startswith(f"{GAME}.yaml:") or f"/{GAME}.yaml:" in message
    assert where([message]) == [(line_of(text, "max_positons"), 3)]
    assert "unknown key 'max_positons'" in message
    assert "did you mean 'max_positions'?" in message
    assert "expected one of: max_positions, cite" in message


def test_unknown_key_deep_inside_a_paytable_table(games_dir: Path) -> None:
    text = original().replace(
        'only_highest: {cite: "§ 641a.12(d)(2)"}',
        'only_highest: {cite: "§ 641a.12(d)(2)", cit: x}',
    )
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, "cit: x"), col_of(text, "cit: x"))]
    assert "/four_card_progressive/only_highest/cit: unknown key 'cit'" in message
    assert "expected one of: cite" in message


def test_bad_payout_string(games_dir: Path) -> None:
    text = original().replace(
        "straight_flush: 30 to 1, three_of_a_kind: 9 to 1",
        "straight_flush: 30 to one, three_of_a_kind: 9 to 1",
        1,
    )
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, "30 to one"), col_of(text, "30 to one"))]
    assert "/aces_up/tables/aces_up/paytables/A/straight_flush" in message
    assert "payout '30 to one': expected '25 to 1'" in message


def test_paytable_missing_a_hand(games_dir: Path) -> None:
    text = original().replace(
        "C: {four_of_a_kind: 50 to 1, straight_flush: 40 to 1, three_of_a_kind: 8 to 1, ",
        "C: {four_of_a_kind: 50 to 1, straight_flush: 40 to 1, ",
    )
    [message] = refuse(games_dir, text)
    needle = "C: {four_of_a_kind: 50 to 1, straight_flush: 40 to 1, flush"
    assert where([message]) == [(line_of(text, needle), col_of(text, "{", needle))]
    assert "paytable C has no row 'three_of_a_kind'" in message
    assert "write N/A" in message


def test_duplicate_key(games_dir: Path) -> None:
    text = original().replace("kind: banking\n", "kind: banking\nname: Four Card Poker Again\n")
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, "Again"), 1)]
    assert "duplicate key 'name'" in message and "only once" in message


def test_duplicate_key_in_a_flow_mapping(games_dir: Path) -> None:
    text = original().replace(
        "A: {four_of_a_kind: 50 to 1, straight_flush: 30 to 1,",
        "A: {four_of_a_kind: 50 to 1, four_of_a_kind: 40 to 1, straight_flush: 30 to 1,",
    )
    [message] = refuse(games_dir, text)
    assert where([message]) == [
        (line_of(text, "four_of_a_kind: 40"), col_of(text, "four_of_a_kind: 40"))
    ]
    assert "duplicate key 'four_of_a_kind'" in message


def test_row_that_is_no_category_of_the_ranking(games_dir: Path) -> None:
    """One error (with the categories expected), not one more per other paytable."""
    text = original().replace(
        "pair_of_aces: 1 to 1}\n          B", "pair_of_kings: 1 to 1}\n          B"
    )
    [message] = refuse(games_dir, text)
    assert where([message]) == [
        (line_of(text, "pair_of_kings"), col_of(text, "1 to 1}", "pair_of_kings"))
    ]
    assert (
        "'pair_of_kings' is no hand of this table's ranking (did you mean 'pair_of_aces'?)"
        in message
    )
    assert "expected one of: four_aces, four_of_a_kind" in message


def test_hand_with_an_unknown_ranking(games_dir: Path) -> None:
    text = original().replace(
        "player_four: {ranking: four-card,", "player_four: {ranking: four-cards,"
    )
    messages = refuse(games_dir, text)
    assert any("no ranking 'four-cards' (did you mean 'four-card'?)" in m for m in messages)
    assert where(messages)[0][0] == line_of(text, "four-cards")


def test_not_utf8(games_dir: Path) -> None:
    raw = (
        original()
        .encode("utf-8")
        .replace(b"name: Four Card Poker\n", b"name: Four Card Poker \xe9\n", 1)
    )
    [message] = refuse(games_dir, raw)
    text = original()
    assert where([message]) == [
        (line_of(text, "name: Four Card Poker"), len("name: Four Card Poker ") + 1)
    ]
    assert "not UTF-8" in message


@pytest.mark.parametrize("tag", ["!!python/object:os.system", "!custom"])
def test_yaml_tag(games_dir: Path, tag: str) -> None:
    text = original().replace("name: Four Card Poker\n", f"name: {tag} Four Card Poker\n")
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, tag), col_of(text, tag))]
    assert "YAML tags are not accepted" in message


def test_alias_bomb(games_dir: Path) -> None:
    lines = ["bomb:", "  a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefg", "bcdefgh", strict=True):
        lines.append(f"  {name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    text = original() + "\n" + "\n".join(lines) + "\n"
    [message] = refuse(games_dir, text)
    assert "anchors expanding too far" in message
    assert where([message])[0][0] > line_of(text, "bomb:")


def test_nesting_too_deep(games_dir: Path) -> None:
    text = original() + "\ndeep: " + "[" * 120 + "]" * 120 + "\n"
    [message] = refuse(games_dir, text)
    assert where([message])[0][0] == line_of(text, "deep: ")
    assert "nesting deeper than 50 levels" in message


def test_not_yaml(games_dir: Path) -> None:
    text = original().replace("kind: banking\n", "kind: [banking\n")
    [message] = refuse(games_dir, text)
    assert "not valid YAML" in message
    assert where([message])[0][0] in (
        line_of(text, "kind: [banking"),
        line_of(text, "kind: [banking") + 1,
    )


def test_rate_without_percent_is_one_problem(games_dir: Path) -> None:
    text = original().replace("increment: 29%", "increment: 29", 1)
    [message] = refuse(games_dir, text)
    assert where([message]) == [
        (line_of(text, "increment: 29,"), col_of(text, "29,", "increment: 29,"))
    ]
    assert "write the rate with a percent sign" in message and "'N/A'" in message


def test_money_as_float_is_refused(games_dir: Path) -> None:
    text = original().replace('seed: "$5,000 for 1"', "seed: 5000.5", 1)
    [message] = refuse(games_dir, text)
    assert "expected an amount per unit wagered like '$5,000 for 1'" in message


def test_citation_required(games_dir: Path) -> None:
    text = original().replace('cite: "§ 641a.2(a)"', 'cite: "641a.2(a)"', 1)
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, '"641a.2(a)"'), col_of(text, '"641a.2(a)"'))]
    assert "a citation like '§ 641a.12(d)(3)' was expected" in message


def test_id_must_match_the_file_name(games_dir: Path) -> None:
    text = original().replace(f"id: {GAME}", "id: four-card-pokr")
    [message] = refuse(games_dir, text)
    assert where([message]) == [(line_of(text, "id: four-card-pokr"), 5)]


def test_every_problem_is_reported_at_once(games_dir: Path) -> None:
    text = original().replace("kind: banking\n", "kind: banking\ncolour: red\n")
    text = text.replace(
        "straight_flush: 30 to 1, three_of_a_kind: 9 to 1",
        "straight_flush: 30 to one, three_of_a_kind: 9 to 1",
        1,
    )
    messages = refuse(games_dir, text)
    assert len(messages) == 2
    assert [line for line, _ in where(messages)] == sorted(
        [line_of(text, "colour: red"), line_of(text, "30 to one")]
    )


def test_load_yaml_limits(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_BYTES + 1) + "\n")
    with pytest.raises(LoadError, match="at most 1,000,000 are read"):
        load_yaml(big)
    with pytest.raises(LoadError, match=r"absent\.yaml: no such file$"):
        load_yaml(tmp_path / "absent.yaml")
    bom = tmp_path / "bom.yaml"
    bom.write_text("\ufeffa: 1\nb: [2, 3]\n", encoding="utf-8")
    located = load_yaml(bom)
    assert located.data == {"a": 1, "b": [2, 3]}
    assert (located.position("/b/1").line, located.position("/b/1").column) == (2, 8)


# -- through the command -----------------------------------------------------------------------


def test_command_refuses_a_broken_game_with_exit_2(games_dir: Path) -> None:
    text = original().replace("kind: banking\n", "kind: banking\ncolour: red\n")
    (games_dir / f"{GAME}.yaml").write_text(text, encoding="utf-8")
    line = line_of(text, "colour: red")
    for args in (
        ["games", "show", GAME],
        ["games", "list"],
        ["games", "show", GAME, "--format", "json"],
    ):
        done = run_rulesub(*args, games_dir=games_dir)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert f"{GAME}.yaml:{line}:1: /colour: unknown key 'colour'" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        assert done.stdout == ""


def test_command_refuses_invalid_yaml_with_exit_2(games_dir: Path) -> None:
    raw = (
        original()
        .encode("utf-8")
        .replace(b"name: Four Card Poker\n", b"name: Four Card Poker \xe9\n", 1)
    )
    (games_dir / f"{GAME}.yaml").write_bytes(raw)
    done = run_rulesub("games", "show", GAME, games_dir=games_dir)
    assert done.returncode == 2
    assert "not UTF-8" in done.stderr and f"{GAME}.yaml:3:" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # commands in processes of their own
def test_the_games_dir_override_is_used(games_dir: Path) -> None:
    (games_dir / f"{GAME}.yaml").write_text(
        original().replace("name: Four Card Poker\n", "name: Four Card Poker Under Review\n"),
        encoding="utf-8",
    )
    done = run_rulesub("games", "list", "--format", "json", games_dir=games_dir)
    assert done.returncode == 0, done.stderr
    assert "Four Card Poker Under Review" in done.stdout


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data"),  # an image saved as .yaml
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\x0b\x02", "binary data"),
        (b"PK\x03\x04\x14\x00\x06\x00", "binary data"),  # a spreadsheet (a zip)
        ("rulesub: 1\n".encode("utf-16-le"), "UTF-16 (or UTF-32)"),  # no byte-order mark
        ("rulesub: 1\n".encode("utf-32-le"), "UTF-16 (or UTF-32)"),
        ("\ufeffrulesub: 1\n".encode("utf-16"), "UTF-16 (or UTF-32)"),
    ],
)
def test_a_file_that_is_not_text_is_called_what_it_is(
    tmp_path: Path, raw: bytes, said: str
) -> None:
    """A PNG, a PDF or a spreadsheet given for a submission was called "not UTF-8 text
    (byte 0x89 (Latin-1 or Windows-1252?))" at a line and column: the file is said to be
    what it is, as a whole, with no place in it to fix."""
    path = tmp_path / "filing.yaml"
    path.write_bytes(raw)
    with pytest.raises(LoadError) as caught:
        load_yaml(path)
    assert said in caught.value.message and "Latin-1" not in caught.value.message
    assert str(caught.value) == f"{path}: {caught.value.message}"  # no line:column


def test_latin1_text_is_still_placed_at_its_first_byte(tmp_path: Path) -> None:
    """Text in Latin-1 (no control character, an accented letter) is text: the message
    keeps the line and column of the byte to fix, and the guess of its encoding."""
    path = tmp_path / "filing.yaml"
    path.write_bytes(b"rulesub: 1\nfacility: Caf\xe9 Downs\n")
    with pytest.raises(LoadError) as caught:
        load_yaml(path)
    assert (caught.value.line, caught.value.column) == (2, 14)
    assert str(caught.value).endswith(
        ":2:14: the file is not UTF-8 text (byte 0xe9 (Latin-1 or Windows-1252?)): save it as UTF-8"
    )


def test_a_missing_or_unopenable_file_is_said_one_way(tmp_path: Path) -> None:
    """One wording for each reason a path cannot be opened, with no line and column (there
    is no file to place them in): missing, a dangling link, a link loop, a directory."""
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "gone.yaml")
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    cases = {
        "absent.yaml": "no such file",
        "dangling.yaml": "a dangling symbolic link",
        "loop.yaml": "a symbolic link loop",
        "": "is a directory, not a file to read",
    }
    for name, why in cases.items():
        path = tmp_path / name
        with pytest.raises(LoadError) as caught:
            load_yaml(path)
        assert str(caught.value) == f"{path}: {why}"
