"""Poker (ch. 553) and the house Seven-Card Stud procedures, read to the letter: each rule a
submission, a settled pot or a simulated session must follow, pinned by its section."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import run_rulesub
from tests.test_validate_poker import EXAMPLES, findings, variant

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
    rotation = {"alternated_every_round": True}
    changes = {"/dealing": dealing, "/deck_rotation": rotation}
    assert findings(variant(tmp_path, "poker-holdem", changes)) == {}


def test_two_decks_in_use_without_a_shuffler_553_3_a(tmp_path: Path) -> None:
    """§ 553.3(a): without a shuffler, the other deck is stored while one is in use."""
    dealing = {
        "methods": ["hand"],
        "shuffler": "manual",
        "decks": 2,
        "change_every_hours": {"hand": 6},
    }
    rotation = {"alternated_every_round": True}
    got = findings(
        variant(tmp_path, "poker-holdem", {"/dealing": dealing, "/deck_rotation": rotation})
    )
    assert list(got) == ["poker-holdem/two-decks-need-shuffler"]
    assert got["poker-holdem/two-decks-need-shuffler"][0].cite == "§ 553.3(a), (d)"
    three = dict(dealing, shuffler="automated", decks=3)
    assert sorted(findings(variant(tmp_path, "poker-holdem", {"/dealing": three}))) == [
        "poker-holdem/max-decks",
        "poker-holdem/shuffler-needs-two-decks",
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


# -- chips, not cents: the odd chip, § 553.10(i)(2), § 553.12(j)(2) --------------------------


def settle_json(tmp_path: Path, round_data: dict[str, Any]) -> dict[str, Any]:
    """``rulesub settle`` of a round file, as a user runs it, read from its JSON."""
    path = tmp_path / "round.yaml"
    path.write_text(json.dumps(round_data), encoding="utf-8")
    done = run_rulesub("settle", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# Three Seven-card Stud hands tie for high: A K Q J 9 in three suits; seat 4 folded.
THREE_WAY = [
    {"seat": 1, "cards": ["AS", "KS", "QD", "JD", "9C", "2D", "3D"], "contributed": 6},
    {"seat": 2, "cards": ["AH", "KH", "QC", "JC", "9D", "2H", "3H"], "contributed": 6},
    {"seat": 3, "cards": ["AD", "KD", "QH", "JH", "9H", "2C", "4C"], "contributed": 6},
    {"seat": 4, "cards": ["5S", "6H", "8C"], "contributed": 2, "folded": True},
]


@pytest.mark.parametrize(
    ("chip", "awards"),
    [
        # $20 in $1 chips: $6 each and $2 over; one $1 chip to the highest card by suit
        # (seat 1, AS), the next to the next highest (seat 2, AH): $7, $7, $6
        (1, {1: "7", 2: "7", 3: "6"}),
        # in quarters: $6.66 is not a number of quarters: $6.50 each, $0.50 over, a
        # quarter each to seats 1 and 2
        ("0.25", {1: "6.75", 2: "6.75", 3: "6.50"}),
    ],
)
def test_a_three_way_tie_is_paid_in_chips_553_10_i_2_ii(
    tmp_path: Path, chip: Any, awards: dict[int, str]
) -> None:
    """§ 553.10(i)(2)(ii), (iv): a tied high share "divided equally among the tied players";
    the excess, "which may not exceed $1", to the highest card by suit: one chip at a time
    (the game note), so no one is paid $6.66 and no one takes more than $1 of excess."""
    got = settle_json(tmp_path, {"game": "poker-seven-card-stud", "chip": chip, "seats": THREE_WAY})
    assert got["totals"]["balanced"]
    assert {s["seat"]: s["award"] for s in got["seats"] if s["seat"] != 4} == awards
    (part,) = got["pots"][0]["parts"]
    odd = part["odd_chips"]
    assert [o["seat"] for o in odd] == [1, 2]
    assert all(Decimal(o["amount"]) <= 1 for o in odd)
    assert part["odd_chip"]["seat"] == 1  # the first, as before
    chip_cents = Decimal(str(chip))
    for s in got["seats"]:
        assert Decimal(s["award"]) % chip_cents == 0 or chip_cents > 1


def test_house_procedures_give_the_whole_excess_to_one_player() -> None:
    """7CS Procedures § Seven-Card Stud (8)(ii)(B): no $1 cap: the $2 excess goes whole to
    the highest card by suit (the game file's borrowed rule for high poker)."""
    from validator.compiler import load_game
    from validator.interpreter.poker.settle import settle_poker_round

    got = settle_poker_round(
        {"game": "house-seven-card-stud", "seats": THREE_WAY}, load_game("house-seven-card-stud")
    ).to_json()
    assert {s["seat"]: s["award"] for s in got["seats"] if s["seat"] != 4} == {
        1: "8",
        2: "6",
        3: "6",
    }


def test_a_split_pot_excess_to_the_high_hand_553_12_j_2_i(tmp_path: Path) -> None:
    """§ 553.12(j)(2)(i): an odd $1 of a high-low pot goes to the high hand; the halves are
    whole chips."""
    data = {
        "game": "poker-omaha-hi-lo-8",
        "seats": [
            {"seat": 1, "cards": ["AS", "2S", "KD", "9C"], "contributed": 7},  # low: A-2-5-6-8
            {"seat": 2, "cards": ["QH", "QD", "JC", "JS"], "contributed": 7},  # high: set of queens
            {"seat": 3, "cards": ["7C", "7D", "TS", "TH"], "contributed": 7, "folded": True},
        ],
        "board": ["5C", "6D", "8H", "QS", "3C"],
    }
    got = settle_json(tmp_path, data)
    assert {s["seat"]: s["award"] for s in got["seats"]} == {1: "10", 2: "11", 3: "0"}


# -- the time rake is paid by the players, § 553.15(b)(3) --------------------------------------


def simulate_json(*args: str) -> dict[str, Any]:
    done = run_rulesub("simulate", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_time_charges_are_paid_from_the_players_stacks_553_15_b_3() -> None:
    """§ 553.15(b)(3)(i)-(iii): $6 an hour from each seated player, assessed as $3 every 30
    minutes. 120 hands at 30 an hour are 4 hours: 8 periods, $24 from each of 5 players,
    $120 in all; the players' nets sum to minus it, and the session balances."""
    data = simulate_json(
        "poker-omaha-hi-lo-8",
        "--rulesub",
        str(EXAMPLES / "poker-omaha-hi-lo-8.yaml"),
        "--rounds",
        "120",
        "--seats",
        "5",
    )
    assert data["rake"]["time_charges"] == "120"
    assert data["rake"]["from_pots"] == "0"
    nets = [Decimal(p["net"]) for p in data["players"].values()]
    assert sum(nets) == -120
    assert data["session_invariant"]["held"] is True
    assert Decimal(data["session_invariant"]["players_net"]) == -120
    assert data["invariant"]["held"] is True


def test_every_hand_of_a_timed_session_balances_and_charges_everyone_seated() -> None:
    """Per hand: contributions = awards + rake + Bad Beat; per period: every seated player,
    the ones sitting out too (§ 553.15(b)(3)(i)), pays the period's share; per session:
    buy-ins = stacks + everything the house kept."""
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import read_settings

    game = load_game("poker-omaha-hi-lo-8")
    setup = read_settings(game, EXAMPLES / "poker-omaha-hi-lo-8.yaml")
    session = Session(game, setup, 4, seed=3, hands_per_hour=20)
    charged: list[dict[int, int]] = []
    bought = kept = 0
    for record in session.hands(90):
        s = record.played.settlement
        assert s.contributions == s.awards + s.rake.total + s.bad_beat_contribution
        if record.time_charges:
            charged.append(record.time_charges)
        bought += sum(record.buy_ins.values()) + sum(record.time_buy_ins.values())
        kept += s.rake.total + sum(record.time_charges.values())
    # 90 hands at 20 an hour: 270 minutes, 9 periods of 30 minutes, each $3 from all four
    assert charged == [{1: 300, 2: 300, 3: 300, 4: 300}] * 9
    assert bought == sum(session.stacks.values()) + kept


def test_a_per_table_charge_is_divided_among_the_seated_players_553_15_b_3_i() -> None:
    """Per table: $10 an hour every 20 minutes is $3.33⅓ a period, shared equally by three
    seats: $1.11⅑ each. The rake is the gaming chips the dealer collects (§ 553.1, Rake):
    each pays his own share in whole $1 chips as it accrues, $1 a period, and at the ninth
    period (three hours) $2, when his share makes $10: every seat has paid $10 and the
    table $30, three hours' fees exactly; no seat pays another's share."""
    from validator.interpreter.poker.rake import RakeRule, time_charges

    rule = RakeRule("time", hourly=1000, every_minutes=20, basis="per_table")
    seats = [1, 2, 3]
    periods = [time_charges(rule, k, 30, 10 * (k + 1), seats, 100) for k in range(9)]
    assert periods == [dict.fromkeys(seats, 100)] * 8 + [dict.fromkeys(seats, 200)]
    assert sum(sum(p.values()) for p in periods) == 3 * 1000
    assert time_charges(rule, 9, 30, 91, seats, 100) == {}  # no period completed since


# -- Bad Beat rules as data, § 553.20(b)(3) ------------------------------------------------------


def bad_beat_round(
    seat1: list[str],
    board: list[str],
    qualifying: dict[str, Any],
    seat2: tuple[str, ...] = ("4H", "3H"),
) -> dict[str, Any]:
    """Seat 1 loses the main pot to seat 2's straight flush (4H 3H with the hearts on the
    board); seat 3 folded. A $10,000 fund, shares 50/25/25."""
    return {
        "game": "poker-holdem",
        "seats": [
            {"seat": 1, "cards": seat1, "contributed": 50},
            {"seat": 2, "cards": list(seat2), "contributed": 50},
            {"seat": 3, "cards": ["KC", "QD"], "contributed": 2, "folded": True},
        ],
        "board": board,
        "rake": {"percent": "10%", "cap": 4},
        "bad_beat": {
            "contribution": 1,
            "max": 1,
            "min_pot": 20,
            "fund": 10000,
            "qualifying": qualifying,
            "payouts": {"losing_hand": "50%", "winning_hand": "25%", "table": "25%"},
        },
    }


EIGHTS = {"at_least": "four_of_a_kind", "rank_at_least": 8, "hole_cards": 2}


@pytest.mark.parametrize(
    ("seat1", "board", "qualifying", "hit"),
    [
        # four eights, both hole cards playing: the example's "eights or better … both play"
        (["8S", "8C"], ["5H", "6H", "7H", "8H", "8D"], EIGHTS, True),
        # four sevens are not "eights or better"
        (["7S", "7C"], ["5H", "6H", "7H", "7D", "2C"], EIGHTS, False),
        # four eights with three on the board: only one hole card plays (seat 2: 4H 5H)
        (["8S", "2D"], ["6H", "7H", "8D", "8C", "8H"], EIGHTS | {"seat2": 1}, False),
        (
            ["8S", "2D"],
            ["6H", "7H", "8D", "8C", "8H"],
            EIGHTS | {"seat2": 1, "hole_cards": 1},
            True,
        ),
        # without the hole-card rule the same hand qualifies
        (["8S", "8C"], ["5H", "6H", "7H", "8H", "8D"], {"at_least": "four_of_a_kind"}, True),
        # "four of a kind or better, when beaten by a straight flush": it was
        (
            ["AS", "AH"],
            ["5H", "6H", "7H", "AC", "AD"],
            {"at_least": "four_of_a_kind", "beaten_by": "straight_flush"},
            True,
        ),
        # … but not when beaten by a royal flush only is asked and a straight flush won
        (
            ["AS", "AH"],
            ["5H", "6H", "7H", "AC", "AD"],
            {"at_least": "four_of_a_kind", "beaten_by": "royal_flush"},
            False,
        ),
    ],
)
def test_settle_pays_the_bad_beat_the_data_states_553_20_b_3(
    tmp_path: Path, seat1: list[str], board: list[str], qualifying: dict[str, Any], hit: bool
) -> None:
    qualifying = dict(qualifying)
    seat2 = ("4H", "5H") if qualifying.pop("seat2", None) else ("4H", "3H")
    got = settle_json(tmp_path, bad_beat_round(seat1, board, qualifying, seat2))
    assert got["bad_beat"]["hit"] is hit, got["bad_beat"]["hit_reason"]
    paid = {p["seat"]: p["amount"] for p in got["bad_beat"]["payouts"]}
    if hit:
        assert paid == {1: "5000.50", 2: "2500.25", 3: "2500.25"}
    else:
        assert paid == {}
    assert got["totals"]["balanced"]


def test_a_submissions_bad_beat_is_the_round_files_553_20_b() -> None:
    """validate, settle, play and simulate read the same fields: the example's posted rule
    ("four of a kind, eights or better, beaten; both hole cards play"; 50/25/25) becomes
    the same rule a round file states."""
    from validator.compiler import load_game
    from validator.interpreter.roundfile.poker import read_poker_round
    from validator.interpreter.settings import read_settings

    game = load_game("poker-holdem")
    from_submission = read_settings(game, EXAMPLES / "poker-holdem.yaml").rules.bad_beat
    data = bad_beat_round(["8S", "8C"], ["5H", "6H", "7H", "8H", "8D"], EIGHTS)
    data["bad_beat"]["fund"] = "24318"
    from_round = read_poker_round(data, game).bad_beat
    assert from_submission == from_round
    assert (from_submission.rank_at_least, from_submission.hole_cards) == (8, 2)


def test_simulate_reports_the_bad_beat_requirements(tmp_path: Path) -> None:
    data = simulate_json(
        "poker-holdem", "--rulesub", str(EXAMPLES / "poker-holdem.yaml"), "--rounds", "20"
    )
    assert data["bad_beat"]["requirements"] == (
        "Four-of-a-kind, eights or better, 2 of the player's own cards playing"
    )


@pytest.mark.parametrize(
    ("changes", "codes"),
    [
        ({"/bad_beat/qualifying": None}, ["poker-holdem/bad-beat-rules-as-data"]),
        ({"/bad_beat/shares": None}, ["poker-holdem/bad-beat-rules-as-data"]),
        ({"/bad_beat/qualifying/at_least": "quads"}, ["poker-holdem/bad-beat-categories"]),
        ({"/bad_beat/qualifying/beaten_by": "high_card"}, ["poker-holdem/bad-beat-categories"]),
        ({"/bad_beat/qualifying/hole_cards": 3}, ["poker-holdem/bad-beat-hole-cards"]),
        ({"/bad_beat/shares/table": "50%"}, ["poker-holdem/bad-beat-shares-at-most-the-fund"]),
        ({"/bad_beat/box": None}, ["poker-holdem/bad-beat-box"]),
        ({"/bad_beat/box": False}, ["poker-holdem/bad-beat-box"]),
    ],
)
def test_validate_checks_the_bad_beat_data_553_20_553_2_e(
    tmp_path: Path, changes: dict[str, Any], codes: list[str]
) -> None:
    got = findings(variant(tmp_path, "poker-holdem", changes))
    assert sorted(got) == codes
    assert all(f.severity == "error" for fs in got.values() for f in fs)


def test_simulate_refuses_a_bad_beat_stated_only_in_words(tmp_path: Path) -> None:
    path = variant(tmp_path, "poker-holdem", {"/bad_beat/qualifying": None})
    done = run_rulesub("simulate", "poker-holdem", "--rulesub", str(path), "--rounds", "5")
    assert done.returncode == 1  # validate's finding: no simulation from a submission with errors
    assert "qualifying" in done.stderr and "Traceback" not in done.stderr


# -- citations: each game cites its own sections -------------------------------------------------


def _cites(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if (k == "cite" or k.endswith("_cite")) and isinstance(v, str):
                yield f"{path}/{k}", v
            else:
                yield from _cites(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _cites(v, f"{path}/{i}")


@pytest.mark.parametrize(
    ("game_id", "own", "other"),
    [
        ("poker-holdem", "§ 553.11", "553.12"),
        ("poker-omaha", "§ 553.12", "553.11"),
        ("poker-omaha-hi-lo-8", "§ 553.12", "553.11"),
    ],
)
def test_holdem_and_omaha_cite_their_own_sections_553_11_553_12(
    game_id: str, own: str, other: str
) -> None:
    """§ 553.11 (Hold'em) and § 553.12 (Omaha) state the same deal word for word; each game
    cites its own section, never the other's."""
    from validator.compiler import load_game

    d = load_game(game_id).definition
    cites = dict(_cites(d.model_dump(mode="json", by_alias=True)))
    assert not {p: c for p, c in cites.items() if other in c}
    assert d.deal.cite == f"{own}(e)"
    assert d.wagers["blind_bet"].cite == f"§ 553.1 (Blind Bet); {own}(d)"


@pytest.mark.parametrize(
    ("game_id", "line", "cite"),
    [
        ("poker-holdem", "Blind Bets: {blinds}", "§ 553.11(d)"),
        ("poker-omaha", "Blind Bets: {blinds}", "§ 553.12(d)"),
        ("poker-five-card-draw", "Blind Bets: {blinds}", "§ 553.13(e)"),
        ("poker-seven-card-stud", "Ante: {ante}", "§ 553.10(b)"),
        ("poker-five-card-draw-low", "Ante: {ante}", "§ 553.13(b)"),
        ("poker-five-card-stud", "Ante: {ante}", "§ 553.14(b)"),
        ("poker-omaha-hi-lo-8", "Ante: {ante}", "§ 553.12(b)"),
        ("poker-seven-card-stud-hi-lo-8", "Forced Bet: {forced_bet}", "§ 553.10(d)"),
        ("poker-five-card-stud", "Forced Bet: {forced_bet}", "§ 553.14(d)"),
    ],
)
def test_each_sign_line_cites_the_games_own_section(game_id: str, line: str, cite: str) -> None:
    """The Ante, Blind Bets and Forced Bet lines of the § 553.18 sign cite the (b) or (d)
    subsection of the game's own section, not every game's."""
    from validator.compiler import load_game

    signs = load_game(game_id).definition.betting.limits.sign
    assert {s.text: s.cite for s in signs}[line] == cite


def test_games_show_states_the_house_uncalled_bet_reading(tmp_path: Path) -> None:
    """The house procedures' rake note reads an uncalled final bet as returned unraked;
    `games show` says so with the citation, not "not stated"."""
    done = run_rulesub("games", "show", "house-razz")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "Uncalled final bet: not raked" in text
    assert "Uncalled final bet: not stated" not in text


# -- the Kill with side pots, § 553.1, § 553.12(m) ---------------------------------------------


def kill_round(all_in: int, others: int) -> dict[str, Any]:
    """Seat 1 (All-in) makes the wheel: the best high (a five-high straight) and the best
    low; seat 2 three kings, seat 3 three queens and no low. Seat 1 scoops the main pot;
    the side pot goes whole to seat 2's kings (no low qualifies in it)."""
    return {
        "game": "poker-omaha-hi-lo-8",
        "seats": [
            {"seat": 1, "cards": ["AS", "2S", "KD", "9C"], "contributed": all_in, "all_in": True},
            {"seat": 2, "cards": ["KH", "KC", "JD", "TD"], "contributed": others},
            {"seat": 3, "cards": ["QH", "QD", "JS", "TS"], "contributed": others},
        ],
        "board": ["3C", "4D", "5H", "KS", "QC"],
        "kill": {"option": "kill", "qualifying_pot": 60},
    }


def test_a_scooped_qualifying_main_pot_kills_though_a_side_pot_goes_elsewhere(
    tmp_path: Path,
) -> None:
    """§ 553.1 (Kill option): "when one player wins an entire qualifying pot"; a side pot is
    "a separate pot". Seat 1 wins all of the $90 main pot (at least the $60 qualifying pot),
    seat 2 the $60 side pot: the Kill is in effect next hand (the game note's reading)."""
    got = settle_json(tmp_path, kill_round(30, 60))
    pots = {
        p["pot"]: (p["awarded"], {s for part in p["parts"] for s in part["winners"]})
        for p in got["pots"]
    }
    assert pots == {"main pot": ("90", {1}), "side pot 1": ("60", {2})}
    assert got["kill"]["in_effect_next_hand"] is True
    assert "seat 1 won all of the $90 main pot" in got["kill"]["reason"]


def test_a_scooped_qualifying_side_pot_kills_too(tmp_path: Path) -> None:
    """The main pot ($45) is under the $60 qualifying pot; seat 2 wins all of the $80 side
    pot: an entire qualifying pot, so the Kill is in effect."""
    got = settle_json(tmp_path, kill_round(15, 55))
    assert got["kill"]["in_effect_next_hand"] is True
    assert "side pot 1" in got["kill"]["reason"]


def test_no_pot_scooped_at_the_qualifying_amount_no_kill(tmp_path: Path) -> None:
    got = settle_json(tmp_path, kill_round(15, 40))  # $45 main, $50 side: neither qualifies
    assert got["kill"]["in_effect_next_hand"] is False


# -- what a Poker submission may state: § 553.8(j), § 553.16(d), § 553.18, § 553.3(d) ----------


def _random_hands(game_id: str, stakes: Any, n: int, seed: int = 7) -> list[Any]:
    """``n`` rounds of play at a table of five, every action a random legal one."""
    import random

    from tests.poker_oracle.table import RandomStrategy, play_hand
    from validator.compiler import load_game

    game = load_game(game_id)
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        stacks = {s: 100_000 for s in range(1, 6)}
        out.append(play_hand(game, stacks, stakes, deck, RandomStrategy(rng), rng=rng))
    return out


def _betting_lines(hands: list[Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(street name, [(seat, action word)]) for every betting round logged."""
    out = []
    for h in hands:
        for line in h.log:
            if " betting: " not in line:
                continue
            street, acts = line.split(" betting: ", 1)
            pairs = []
            for act in acts.split("; "):
                words = act.split()
                if words[0] == "seat" and len(words) > 2:
                    pairs.append((words[1], words[2]))
            out.append((street, pairs))
    return out


def _check_raises(hands: list[Any]) -> int:
    count = 0
    for _, pairs in _betting_lines(hands):
        checked: set[str] = set()
        for seat, word in pairs:
            if word == "check":
                checked.add(seat)
            elif word == "raise" and seat in checked:
                count += 1
    return count


def test_a_posted_check_raise_ban_is_kept_553_8_j(tmp_path: Path) -> None:
    """§ 553.8(j): "Unless specifically posted to the contrary, a player shall be permitted
    to raise after the player has previously checked": a submission may post the ban; the
    sign says so, and the dealt rounds keep it."""
    from validator.interpreter.poker.table import Limit, Stakes

    path = variant(tmp_path, "poker-holdem", {"/betting/check_raise": False})
    assert findings(path) == {}
    done = run_rulesub("signage", str(path))
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "A player may not raise after checking in a betting round [§ 553.8(j)]" in text
    free = Stakes(Limit(200, 400), blinds=(100, 200), max_raises=3)
    assert _check_raises(_random_hands("poker-holdem", free, 150)) > 0  # it happens unbanned
    banned = Stakes(Limit(200, 400), blinds=(100, 200), max_raises=3, check_raise=False)
    assert _check_raises(_random_hands("poker-holdem", banned, 150)) == 0


def test_raise_caps_by_betting_round_553_18(tmp_path: Path) -> None:
    """§ 553.18: "any restrictions with regard to the maximum number of raises that may be
    permitted for any round of betting": stated by street, posted, and kept."""
    from validator.compiler import load_game
    from validator.interpreter.settings import read_settings

    caps = {"preflop": 3, "flop": 0, "turn": 1}  # within the general cap of 3 (raise-caps-agree)
    path = variant(tmp_path, "poker-holdem", {"/betting/max_raises_by_round": caps})
    assert findings(path) == {}
    text = " ".join(run_rulesub("signage", str(path)).stdout.split())
    assert (
        "Raises permitted by betting round: Blind Bets and hole cards: 3; Flop (three "
        "community cards): 0; Fourth community card: 1 [§ 553.18]" in text
    )
    stakes = read_settings(load_game("poker-holdem"), path).stakes
    assert stakes.max_raises_by_street == caps and stakes.max_raises == 3
    raises: dict[str, int] = {}
    for street, pairs in _betting_lines(_random_hands("poker-holdem", stakes, 150)):
        n = sum(1 for _, word in pairs if word == "raise")
        raises[street] = max(raises.get(street, 0), n)
    assert raises["Flop (three community cards)"] == 0
    assert raises["Fourth community card"] <= 1
    assert raises["Fifth and final community card"] <= 3
    assert raises["Fifth and final community card"] > 1  # the general cap there, reached
    bad = variant(tmp_path, "poker-holdem", {"/betting/max_raises_by_round": {"fifth": 2}})
    assert list(findings(bad)) == ["rulesub/unknown-key"]


def _stud(tmp_path: Path, game: str, betting: dict[str, Any]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    if game.startswith("house"):
        return variant(
            tmp_path,
            "house-razz",
            {"/game": game, "/table/min_wager": 5, "/betting": {"max_raises": 3, **betting}},
        )
    provisions = {"max_increase": 0, "agreement": "no increase"}
    return variant(
        tmp_path,
        "poker-holdem",
        {
            "/game": game,
            "/table": {"positions": 8, "min_wager": 5, "max_wager": 10},
            "/blinds": None,
            "/forced_bet": 2,
            "/bad_beat": {"offered": False},
            "/betting": {"max_raises": 3, "raised_minimum": provisions, **betting},
        },
    )


def _limits_by_street(game_id: str, path: Path) -> dict[str, tuple[int, int]]:
    import random

    from tests.poker_oracle.table import Hand, RandomStrategy
    from validator.compiler import load_game
    from validator.interpreter.settings import read_settings

    game = load_game(game_id)
    stakes = read_settings(game, path).stakes
    hand = Hand(
        game, {1: 10_000, 2: 10_000}, stakes, list(range(52)), RandomStrategy(random.Random(0))
    )
    return {
        sid: (lim.min_bet, lim.max_bet)
        for sid, street in game.definition.deal.streets.items()
        for lim in [hand.limit(sid, street)]
    }


def test_five_ten_stud_is_one_game_under_either_rule_source_553_18(tmp_path: Path) -> None:
    """ "$5–$10 Stud" stated as a split limit from fifth street plays the same limits under
    ch. 553 (which sets no street: the submission does, § 553.18) and under the house
    procedures ((12)(iv): the lower limit until fifth street)."""
    split = {"structure": "split", "upper_from": "fifth_street"}
    pa = _stud(tmp_path / "a", "poker-seven-card-stud", split)
    house = _stud(tmp_path / "b", "house-seven-card-stud", split)
    assert findings(pa) == {} and findings(house) == {}
    lower, upper = (500, 500), (1000, 1000)
    expected = {
        "third_street": lower,
        "fourth_street": lower,
        "fifth_street": upper,
        "sixth_street": upper,
        "seventh_street": upper,
    }
    assert _limits_by_street("poker-seven-card-stud", pa) == expected
    assert _limits_by_street("house-seven-card-stud", house) == expected
    spread = _stud(tmp_path / "c", "poker-seven-card-stud", {"structure": "spread"})
    assert set(_limits_by_street("poker-seven-card-stud", spread).values()) == {(500, 1000)}


@pytest.mark.parametrize(
    ("game", "betting", "code"),
    [
        (
            "poker-seven-card-stud",
            {"structure": "split"},
            "poker-seven-card-stud/upper-limit-street-stated",
        ),
        (
            "poker-seven-card-stud",
            {"structure": "fixed"},
            "poker-seven-card-stud/fixed-limit-one-amount",
        ),
        (
            "poker-seven-card-stud",
            {"structure": "split", "upper_from": "fifth"},
            "rulesub/bad-value",
        ),
        (
            "house-seven-card-stud",
            {"structure": "split", "upper_from": "fourth_street"},
            "house-seven-card-stud/upper-limit-street",
        ),
    ],
)
def test_the_limit_structure_is_checked_553_18(
    tmp_path: Path, game: str, betting: dict[str, Any], code: str
) -> None:
    assert list(findings(_stud(tmp_path, game, betting))) == [code]


def test_discarded_hands_shown_when_the_submission_requires_it_553_16_d(tmp_path: Path) -> None:
    """§ 553.16(d): a losing hand may be conceded unshown "unless the certificate holder,
    in its Rules Submission …, requires the disclosure of all discarded hands"."""
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import read_settings

    game = load_game("poker-holdem")
    shown = variant(tmp_path, "poker-holdem", {"/showdown": {"discarded_hands_shown": True}})
    assert findings(shown) == {}
    for path, conceding in ((EXAMPLES / "poker-holdem.yaml", True), (shown, False)):
        session = Session(game, read_settings(game, path), 6, seed=4)
        records = list(session.hands(60))
        conceded = [s for r in records for s in r.played.conceded]
        assert bool(conceded) is conceding
        for r in records:
            assert sorted(r.played.shown + r.played.conceded) == sorted(r.played.showdown_order)
            winners = {a.seat for a in r.played.settlement.seats if a.won}
            assert not winners & set(r.played.conceded)  # a winning hand is shown


def test_two_decks_alternate_every_round_553_3_d(tmp_path: Path) -> None:
    """§ 553.3(d)(1), (2): with a shuffler, "both decks shall be continuously alternated
    in and out of play, with each deck being used for every other round of play"."""
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import read_settings

    two = {
        "methods": ["hand"],
        "shuffler": "automated",
        "decks": 2,
        "change_every_hours": {"hand": 6},
    }
    missing = variant(tmp_path, "poker-holdem", {"/dealing": two, "/deck_rotation": None})
    got = findings(missing)
    assert list(got) == ["poker-holdem/decks-alternated-with-a-shuffler"]
    assert got["poker-holdem/decks-alternated-with-a-shuffler"][0].cite == "§ 553.3(d)(1), (2)"
    rotation = {"alternated_every_round": True, "distribution": "by the internal controls"}
    path = variant(tmp_path, "poker-holdem", {"/dealing": two, "/deck_rotation": rotation})
    assert findings(path) == {}
    game = load_game("poker-holdem")
    session = Session(game, read_settings(game, path), 4, seed=1)
    assert [r.deck_in_play for r in session.hands(4)] == ["A", "B", "A", "B"]
    # § 553.3(d)(1): "One deck shall be shuffled by the automated card shuffling device
    # while the other deck is being dealt": a shuffler with one deck is an error
    (tmp_path / "one").mkdir()
    (tmp_path / "manual").mkdir()
    one = variant(tmp_path / "one", "poker-holdem", {"/dealing": dict(two, decks=1)})
    assert list(findings(one)) == ["poker-holdem/shuffler-needs-two-decks"]
    assert findings(one)["poker-holdem/shuffler-needs-two-decks"][0].cite == "§ 553.3(a), (d)(1)"
    manual = dict(two, decks=1, shuffler="manual")
    assert findings(variant(tmp_path / "manual", "poker-holdem", {"/dealing": manual})) == {}


# -- a percentage rake per betting round, § 553.15(b)(1)(i) -------------------------------------


def test_settle_rakes_each_betting_round_553_15_b_1_i(tmp_path: Path) -> None:
    """§ 553.15(b)(1)(i): "calculated and extracted from the pot and any side pots" after
    each betting round, at 10% rounded down to the $1 chip. $15 then $25 put in: after
    round 1 the pot holds $15, $1; after round 2 it holds $40, $4 less the $1 taken, $3:
    $4 in all, what 10% of the $40 pot at the end takes ((b)(1)(ii)), never $1 + $2 of
    each round's chips rounded down alone."""
    data = {
        "game": "poker-holdem",
        "seats": [
            {"seat": 1, "cards": ["AS", "AH"], "contributed": 20},
            {"seat": 2, "cards": ["KS", "KH"], "contributed": 20},
        ],
        "board": ["2C", "7D", "9H", "JS", "3C"],
        "rake": {"percent": "10%", "by_round": [15, 25]},
    }
    got = settle_json(tmp_path, data)
    assert got["rake"]["total"] == "4"
    assert got["rake"]["lines"] == [
        "betting round 1: 10% of $15, rounded down to $1: $1",
        "betting round 2: 10% of $40, rounded down to $1: $4, less $1 taken before: $3",
    ]
    data["rake"] = {"percent": "10%"}
    assert settle_json(tmp_path, data)["rake"]["total"] == "4"
    data["rake"] = {"percent": "10%", "by_round": [15, 20]}
    done = run_rulesub("settle", str(_write(tmp_path, data)))
    assert done.returncode == 2 and "/rake/by_round" in done.stderr


def test_the_uncalled_final_bet_is_out_of_the_last_round_that_put_chips_in_553_15_d(
    tmp_path: Path,
) -> None:
    """§ 553.15(d): no rake on the uncalled final bet. Seat 1 puts in $21, seat 2 is All-in
    for $9: the last $12 of seat 1's bet is returned. It was bet in betting round 3, the
    last that put chips in; round 4 dealt cards to an All-in player and put in nothing.
    By hand, 10% of the pot rounded down to the $1 chip, less what was taken before: the
    pot after round 1 holds $10, $1; after round 2 $18, $1 less $1, $0; round 3 puts in
    $12 - $12 = $0 and round 4 $0, $0 each: a $1 rake of the $18 pot; seat 1's Kings
    win $17 and have $12 back. A round whose last chips are fewer than the uncalled bet
    (round 3 putting in $1) is one no round of play produces: refused, never raked at a
    negative amount."""
    data = {
        "game": "poker-holdem",
        "chip": 1,
        "seats": [
            {"seat": 1, "cards": ["AS", "KS"], "contributed": 21},
            {"seat": 2, "cards": ["2H", "7D"], "contributed": 9, "all_in": True},
        ],
        "board": ["2C", "5C", "8D", "KH", "QH"],
        "rake": {"percent": "10%", "by_round": [10, 8, 12, 0]},
    }
    got = settle_json(tmp_path, data)
    assert got["rake"]["total"] == "1"
    assert [line.rsplit(": ", 1)[1] for line in got["rake"]["lines"]] == ["$1", "$0", "$0", "$0"]
    assert got["rake"]["lines"][2].startswith("betting round 3: 10% of $18")  # $12 returned
    seat = {s["seat"]: s for s in got["seats"]}
    assert (seat[1]["award"], seat[2]["award"]) == ("29", "0")
    data["rake"] = {"percent": "10%", "by_round": [15, 14, 1, 0]}
    done = run_rulesub("settle", str(_write(tmp_path, data)))
    assert done.returncode == 2 and "/rake/by_round" in done.stderr
    assert "the uncalled final bet of $12" in done.stderr and "betting round 3" in done.stderr


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "bad-round.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_simulate_rakes_each_betting_round_when_stated(tmp_path: Path) -> None:
    """§ 553.15(b)(1)(i): a percentage rake `taken: per_betting_round` is "calculated and
    extracted from the pot and any side pots" after each betting round: every simulated
    hand is raked round by round, re-computed here from the rounds' chips (the rate of
    the pot so far, less what was taken before), which comes to what (b)(1)(ii) takes
    once from the whole pot: the two differ in when the rake is placed, not how much."""
    from validator.compiler import load_game
    from validator.interpreter.poker.session import Session
    from validator.interpreter.settings import read_settings

    path = variant(tmp_path, "poker-holdem", {"/rake/percentage/taken": "per_betting_round"})
    game = load_game("poker-holdem")
    session = Session(game, read_settings(game, path), 6, seed=9)
    rounded_alone = 0
    for record in session.hands(150):
        s = record.played.settlement
        once = sum(p.pot.amount * 10 // 100 // 100 * 100 for p in s.pots)
        assert s.rake.total == min(once, 500)
        rounds = list(record.played.round_put)
        rounds[-1] -= s.uncalled.amount if s.uncalled else 0
        alone = sum(r * 10 // 100 // 100 * 100 for r in rounds)
        rounded_alone += min(alone, 500) < s.rake.total
    assert rounded_alone > 0  # each round's chips rounded down alone would take less


@pytest.mark.parametrize(
    "game_id",
    [
        "poker-seven-card-stud",
        "poker-holdem",
        "poker-omaha",
        "poker-five-card-draw",
        "poker-five-card-draw-low",
        "poker-five-card-stud",
        "house-seven-card-stud",
        "house-razz",
    ],
)
def test_a_game_without_an_odd_chip_rule_says_which_it_borrows(game_id: str) -> None:
    """§ 553.10(i)(2) and § 553.12(j)(2) (the house: (8)(ii)) state the odd chip for the
    high-low split games only; every other game's file names the rule it borrows and why."""
    from validator.compiler import load_game

    odd = load_game(game_id).definition.showdown.odd_chips
    assert "(by analogy)" in odd.cite
    assert odd.note and (
        "no odd-chip rule" in odd.note or "says nothing of an odd chip" in odd.note
    )


@given(
    chips=st.integers(min_value=1, max_value=400),
    n=st.integers(min_value=2, max_value=9),
    chip=st.sampled_from([25, 50, 100, 500, 2500]),
    capped=st.booleans(),
)
def test_a_divided_pot_is_whole_chips_and_its_excess_a_chip_each(
    chips: int, n: int, chip: int, capped: bool
) -> None:
    """§ 553.10(i)(2)(ii)-(iii): equal shares, the excess "which may not exceed $1" given a
    chip (of at most $1) at a time; without the cap (the house procedures) the whole excess
    to the first. Every share is a whole number of the chips the division uses."""
    from tests.poker_oracle.settlement import divide

    amount = chips * chip
    cap = 100 if capped else None
    shares = divide(amount, n, chip, cap)
    unit = chip if cap is None else min(chip, cap)
    assert sum(shares) == amount and len(shares) == n
    assert all(s % unit == 0 for s in shares)
    low = min(shares)
    assert shares == sorted(shares, reverse=True)  # the first in order is owed it first
    if cap is not None:
        assert all(s - low <= cap for s in shares)
    else:
        assert shares[1:] == [low] * (n - 1)


def test_a_bad_beat_on_a_low_only_table_is_an_error_553_1(tmp_path: Path) -> None:
    """§ 553.1 (Bad Beat): "One or more predesignated high value Poker hands which, when held
    by a player as a losing hand ... shall result in a Bad Beat payout"; read as the High
    Poker hands of § 553.4(b), Five-card Draw Low-hand (§ 553.13(i)(2)) has none to offer."""
    changes = {"/game": "poker-five-card-draw-low", "/table/positions": 8}
    got = findings(variant(tmp_path, "poker-holdem", changes))
    assert list(got) == ["poker-five-card-draw-low/no-bad-beat"]
    (f,) = got["poker-five-card-draw-low/no-bad-beat"]
    assert f.severity == "error" and f.path == "/bad_beat"
    assert "§ 553.1 (Bad Beat)" in f.cite
    # played as a draft anyway, the table is refused with the rule, not played without it
    sub = variant(tmp_path, "poker-holdem", changes)
    args = ("--rulesub", str(sub), "--allow-findings", "--seats", "3", "--rounds", "2")
    done = run_rulesub("play", "poker-five-card-draw-low", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "/bad_beat: Five-card Draw Low-hand ranks low hands only" in done.stderr
    assert "(§ 553.1, Bad Beat)" in done.stderr
    # not offered: nothing to check
    changes["/bad_beat"] = {"offered": False}
    assert not findings(variant(tmp_path, "poker-holdem", changes))
