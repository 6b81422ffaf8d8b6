"""Poker (ch. 553) and the house Seven-Card Stud procedures, read to the letter: each rule a
submission, a settled pot or a simulated session must follow, pinned by its section."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_validate_poker import findings, variant

# -- the table: decks, dealing, limits --------------------------------------------------------


@pytest.mark.parametrize("shuffler", ["automated", "automated_counting"])
def test_two_decks_alternated_with_a_shuffler_553_3_a_d(tmp_path: Path, shuffler: str) -> None:
    """§ 553.3(a), (d): two decks are kept at each table; with an automated card shuffling
    device one is shuffled while the other is dealt, alternated every round of play."""
    dealing = {
        "methods": ["hand"],
        "shuffler": shuffler,
        "decks": 2,
        "change_every_hours": {"hand": 6},
    }
    assert findings(variant(tmp_path, "poker-holdem", {"/dealing": dealing})) == {}


def test_two_decks_in_use_without_a_shuffler_553_3_a(tmp_path: Path) -> None:
    """§ 553.3(a): without a shuffler, the other deck is stored while one is in use."""
    dealing = {
        "methods": ["hand"],
        "shuffler": "manual",
        "decks": 2,
        "change_every_hours": {"hand": 6},
    }
    got = findings(variant(tmp_path, "poker-holdem", {"/dealing": dealing}))
    assert list(got) == ["poker-holdem/two-decks-need-shuffler"]
    assert got["poker-holdem/two-decks-need-shuffler"][0].cite == "§ 553.3(a), (d)"
    three = dict(dealing, shuffler="automated", decks=3)
    assert list(findings(variant(tmp_path, "poker-holdem", {"/dealing": three}))) == [
        "poker-holdem/max-decks"
    ]


def test_house_procedures_keep_the_other_deck_stored(tmp_path: Path) -> None:
    """7CS Procedures § Cards, Number of Decks: "While one deck is in use, the other deck
    shall be stored" — with no shuffler exception: one deck in use."""
    dealing = {
        "methods": ["hand"],
        "shuffler": "automated",
        "decks": 2,
        "change_every_hours": {"hand": 8},
    }
    got = findings(variant(tmp_path, "house-razz", {"/dealing": dealing}))
    assert list(got) == ["house-razz/max-decks"]


@pytest.mark.parametrize("method", ["manual_shoe", "automated_shoe"])
@pytest.mark.parametrize(
    ("example", "cite"),
    [("poker-holdem", "§ 553.7(e)(1)"), ("house-razz", "7CS Procedures § Poker Overview (4)(i)")],
)
def test_poker_is_dealt_from_the_hand_553_7_e_1(
    tmp_path: Path, method: str, example: str, cite: str
) -> None:
    """§ 553.7(e)(1): "The dealer shall choose the hand in which he will hold the cards";
    a Poker game dealt from a shoe is an error."""
    hours = {"hand": 6, method: 6}
    changes = {"/dealing/methods": ["hand", method], "/dealing/change_every_hours": hours}
    got = findings(variant(tmp_path, example, changes))
    code = f"{example}/dealt-from-the-hand"
    assert list(got) == [code]
    (f,) = got[code]
    assert f.path == "/dealing/methods/1" and f.cite == cite


@pytest.mark.parametrize("game", ["poker-omaha", "poker-holdem", "poker-seven-card-stud"])
def test_a_kill_outside_omaha_hi_lo_8_is_an_error_553_1_553_12_m(tmp_path: Path, game: str) -> None:
    """§ 553.1 (Kill option, Half-kill option) and § 553.12(m): the options exist "in the
    game of Omaha High-low-hand Split Eight or Better Poker" only."""
    changes = {
        "/game": game,
        "/betting/kill": {"option": "kill", "qualifying_pot": 40},
        "/table/positions": 8,
    }
    if game == "poker-seven-card-stud":
        changes |= {"/blinds": None, "/forced_bet": 1, "/bad_beat": {"offered": False}}
    got = findings(variant(tmp_path, "poker-holdem", changes))
    assert list(got) == [f"{game}/kill-not-offered"]
    assert got[f"{game}/kill-not-offered"][0].severity == "error"


def test_minimum_above_maximum_cites_553_18(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/table/min_wager": 5}))
    assert list(got) == ["poker-holdem/wager-limits"]
    assert got["poker-holdem/wager-limits"][0].cite == "§ 553.18"
    assert got["poker-holdem/wager-limits"][0].severity == "error"
    # a banking game keeps the generic check
    assert "rulesub/wager-limits" in findings(
        variant(tmp_path, "high-card-flush", {"/table/min_wager": 10**6})
    )
