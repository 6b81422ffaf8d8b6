"""Poker rounds settled by hand from the text of ch. 553 and the 7 Card Stud Game Procedures
(tests/golden/poker/: each round file says in its comments how it was worked out; the
``.expected.yaml`` beside it holds the figures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from validator.compiler import load_game
from validator.interpreter.poker.settle import settle_poker_round
from validator.loader import load_yaml

GOLDEN = Path(__file__).parent / "golden" / "poker"
ROUNDS = sorted(p for p in GOLDEN.glob("*.yaml") if not p.name.endswith(".expected.yaml"))


def test_the_golden_rounds_are_all_here() -> None:
    names = {p.stem for p in ROUNDS}
    assert {
        "holdem-three-way-all-in",
        "omaha-hi-lo-8-odd-chip-tied-low",
        "stud-hi-lo-8-no-qualifying-low",
        "omaha-board-flush-one-hole-card",
        "razz-straight-does-not-hurt",
        "stud-forced-bet-by-suit",
        "holdem-board-plays-split",
        "holdem-rake-uncalled-bet",
        "holdem-bad-beat",
        "holdem-rake-by-round-side-pot",
        "holdem-rake-incremental-side-pot",
    } <= names
    for p in ROUNDS:
        assert p.with_suffix(".expected.yaml").is_file(), p


def _settle(path: Path) -> dict[str, Any]:
    data = load_yaml(path).data
    result = settle_poker_round(data, load_game(data["game"]))
    assert result.balanced
    out = result.to_json()
    json.dumps(out)  # JSON-able as it stands
    return out


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_golden_round(path: Path) -> None:
    expected = load_yaml(path.with_suffix(".expected.yaml")).data
    got = _settle(path)
    seats = {s["seat"]: s for s in got["seats"]}
    assert {int(k): seats[int(k)]["award"] for k in expected["awards"]} == {
        int(k): v for k, v in expected["awards"].items()
    }
    if "rake" in expected:
        assert got["rake"]["total"] == expected["rake"]
    if "uncalled" in expected:
        u = expected["uncalled"]
        assert (got["uncalled"] and {k: got["uncalled"][k] for k in ("seat", "amount")}) == u
    assert len(got["pots"]) == len(expected["pots"])
    for want, pot in zip(expected["pots"], got["pots"], strict=True):
        assert pot["pot"] == want["pot"]
        assert pot["amount"] == want["amount"]
        assert pot["eligible"] == want["eligible"]
        assert pot["rake"] == want["rake"]
        if "bad_beat" in want:
            assert pot["bad_beat_contribution"] == want["bad_beat"]
        if "parts" in want:
            assert len(pot["parts"]) == len(want["parts"])
        paid: dict[int, str] = {}
        for part in pot["parts"]:
            for share in part["shares"]:
                paid[share["seat"]] = share["amount"]
        assert paid == {int(k): v for k, v in want["awards"].items()}
        wanted_parts = want.get("parts")
        pairs = zip(wanted_parts, pot["parts"], strict=True) if wanted_parts else []
        for want_part, part in pairs:
            assert part["part"] == want_part["part"]
            assert part["amount"] == want_part["amount"]
            assert part["winners"] == want_part["winners"]
            odd = part["odd_chip"]
            assert (odd and {"seat": odd["seat"], "amount": odd["amount"]}) == want_part["odd_chip"]
    for seat, hands in expected.get("hands", {}).items():
        for part, name in hands.items():
            assert seats[int(seat)]["hands"][part].startswith(name), seats[int(seat)]["hands"]
    if "forced_bet" in expected:
        fb = expected["forced_bet"]
        assert got["forced_bet"]["seat"] == fb["seat"]
        if "card" in fb:
            assert got["forced_bet"]["card"] == fb["card"]
    if "bad_beat" in expected:
        bb = expected["bad_beat"]
        assert got["bad_beat"]["contribution"] == bb["contribution"]
        assert got["bad_beat"]["hit"] is bb["hit"]
        assert {p["seat"]: p["amount"] for p in got["bad_beat"]["payouts"]} == {
            int(k): v for k, v in bb["payouts"].items()
        }
        assert got["bad_beat"]["fund_after"] == bb["fund_after"]


def test_omaha_flush_needs_two_hole_cards_of_the_suit() -> None:
    """§ 553.12(j): with two hearts in hand the same board makes the ace-high flush."""
    data = load_yaml(GOLDEN / "omaha-board-flush-one-hole-card.yaml").data
    data["seats"][0]["cards"] = ["AH", "3H", "3C", "4D"]
    got = settle_poker_round(data, load_game("poker-omaha")).to_json()
    assert got["seats"][0]["hands"]["high"].startswith("Flush (AH JH 9H 7H 3H)")
    assert got["seats"][0]["award"] == "60"


def test_holdem_uses_any_number_of_hole_cards() -> None:
    """§ 553.11(j): "in any combination": the same cards as the Omaha round make the nut
    flush in Hold'em with one heart."""
    data = {
        "game": "poker-holdem",
        "seats": [
            {"cards": ["AH", "2S"], "contributed": 30},
            {"cards": ["QC", "QD"], "contributed": 30},
        ],
        "board": ["2H", "7H", "9H", "JH", "KD"],
    }
    got = settle_poker_round(data, load_game("poker-holdem")).to_json()
    assert got["seats"][0]["hands"]["high"].startswith("Flush")
    assert got["seats"][0]["award"] == "60"


@pytest.mark.parametrize(
    ("game_id", "expected"),
    [
        # ch. 553: $11 / 3 in $1 chips is $3 and $2 over, more than the $1 one player may
        # take: $1 to the highest card by suit (seat 1, AS), $1 to the next (seat 2, AH)
        ("poker-seven-card-stud", {1: "4", 2: "4", 3: "3"}),
        # house procedures, no cap: $3 each and the whole $2 to seat 1
        ("house-seven-card-stud", {1: "5", 2: "3", 3: "3"}),
    ],
)
def test_eleven_dollars_three_ways(game_id: str, expected: dict[int, str]) -> None:
    """§ 553.10(i)(2)(ii), (iv) against 7CS Procedures § Seven-Card Stud (8)(ii)(B), (D):
    three tied high hands (A-K-Q-J-9 in three suits) share an $11 pot: seat 4 put in $2
    and folded."""
    data = {
        "game": game_id,
        "seats": [
            {"seat": 1, "cards": ["AS", "KS", "QD", "JD", "9C", "2D", "3D"], "contributed": 3},
            {"seat": 2, "cards": ["AH", "KH", "QC", "JC", "9D", "2H", "3H"], "contributed": 3},
            {"seat": 3, "cards": ["AD", "KD", "QH", "JH", "9H", "2C", "4C"], "contributed": 3},
            {"seat": 4, "cards": ["5S", "6H", "8C"], "contributed": 2, "folded": True},
        ],
    }
    got = settle_poker_round(data, load_game(game_id)).to_json()
    assert got["totals"]["balanced"]
    (pot,) = got["pots"]
    assert pot["amount"] == "11"
    assert {s["seat"]: s["award"] for s in got["seats"] if s["seat"] != 4} == expected
    assert pot["parts"][0]["odd_chip"]["seat"] == 1


@pytest.mark.parametrize(
    ("name", "seat"),
    [
        ("holdem-bad-beat-not-for-a-hand-that-won-a-side-pot", 2),
        ("stud-hi-lo-8-bad-beat-not-for-a-hand-that-won-the-low-half", 1),
    ],
)
def test_a_hand_that_won_in_the_round_is_said_to_be_no_losing_hand(name: str, seat: int) -> None:
    """§ 553.1, Bad Beat: "a losing hand in a round of play"; the settlement says why the
    qualifying hand that lost the main pot's high was paid nothing."""
    reason = _settle(GOLDEN / f"{name}.yaml")["bad_beat"]["hit_reason"]
    assert reason.endswith(
        f"seat {seat} lost to the main pot's high hand but won a pot or a share of one in the "
        "round of play, so held no losing hand [§ 553.1]"
    )


def test_the_winner_of_a_pot_of_nothing_is_not_said_to_have_lost() -> None:
    """A round where no chips went in (no Blind Bets, no Ante, all checked) still has a
    winner by the hands (§ 553.11(j)): the aces win the $0 main pot, and only the kings
    lost at the showdown. The winner was said both to win it and to have lost."""
    data = {
        "game": "poker-holdem",
        "seats": [
            {"seat": 1, "cards": ["AS", "AH"], "contributed": 0},
            {"seat": 2, "cards": ["KS", "KH"], "contributed": 0},
        ],
        "board": ["2C", "3D", "4H", "5S", "9C"],
    }
    seats = {
        s["seat"]: s for s in settle_poker_round(data, load_game("poker-holdem")).to_json()["seats"]
    }
    assert "lost at the showdown" not in seats[1]["reasons"]
    assert seats[1]["reasons"][0].startswith("main pot: $0, the highest ranking high hand")
    assert seats[2]["reasons"] == ["lost at the showdown"]


@pytest.mark.parametrize("name", ["razz-straight-does-not-hurt"])
def test_a_low_hand_that_takes_the_whole_pot_is_not_paid_a_half(name: str) -> None:
    """7CS Procedures § Seven-Card Stud (12)(v): in Razz the best low hand wins the pot,
    all of it; its reason names the main pot, never "(low half)"."""
    seats = {s["seat"]: s for s in _settle(GOLDEN / f"{name}.yaml")["seats"]}
    (reason,) = [r for s in seats.values() for r in s["reasons"] if r.startswith("main pot")]
    assert reason.startswith("main pot: $30, the best low hand"), reason
