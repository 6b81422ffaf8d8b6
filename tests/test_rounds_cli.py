"""`rulesub settle`, `play` and `simulate` as a user runs them: contracts, errors, logs."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import run_rulesub
from validator import PROJECT_ROOT

GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = GOLDEN / "lunar-poker" / "01-second-combination-example.yaml"


def test_settle_json_is_the_contract() -> None:
    """`{"seats": [{"seat": 1, "wagers": {"ante": {"amount", "result", "net", "reason"}},
    "net"}], "dealer": {...}}`, money as strings (§ 589.11(e)(1)(ii)'s own example)."""
    out = run_rulesub("settle", str(EXAMPLE), "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    seat = data["seats"][0]
    assert seat["seat"] == 1
    assert seat["wagers"]["ante"] == {
        **seat["wagers"]["ante"],
        "amount": "10",
        "result": "push",
        "net": "0",
    }
    bet = seat["wagers"]["bet"]
    assert (bet["amount"], bet["result"], bet["net"]) == ("20", "win", "40")
    assert "second combination: Ace-king" in bet["reason"]
    assert "§ 589.11(e)(1)(ii)" in bet["reason"]
    assert seat["net"] == "40"
    assert data["dealer"]["qualifies"] is True
    assert data["dealer"]["hand"]["name"] == "Ace-king"


def test_settle_text_names_the_row_and_the_hands() -> None:
    out = run_rulesub("settle", str(GOLDEN / "four-card-poker" / "01-tie-goes-to-player.yaml"))
    assert out.returncode == 0, out.stderr
    assert "§ 641a.11(c)(3)(ii)" in out.stdout
    assert "equal to the dealer's Pair" in out.stdout


def test_an_impossible_round_is_refused_with_its_position(tmp_path: Path) -> None:
    f = tmp_path / "twice.yaml"
    f.write_text(
        "game: high-card-flush\nseats:\n  - wagers: {ante: 10}\n"
        "    cards: [AS, KS, QS, 2H, 3D, 4C, 5C]\n    actions: [raise 1x]\n"
        "dealer: [8H, 6H, 4H, 2S, 3C, 7D, AS]\n"
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2
    assert f"{f}:6:" in out.stderr and "AS appears twice" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_super_wager_without_an_ante_is_refused_589_7_c_2(tmp_path: Path) -> None:
    """§ 589.7(c)(2): the Super Wager is placed "in addition to the Ante and Bet Wagers", and
    the cards go only "to each player who placed an Ante Wager" (§ 589.8(c)): a seat with a
    Super Wager alone is no round of Lunar Poker (exit 2), not a Super Wager lost."""
    f = tmp_path / "super-alone.yaml"
    f.write_text(
        "game: lunar-poker\npaytables: {super: A, instant_payout: A}\nseats:\n"
        "  - wagers: {super: 5}\n    cards: [2H, 5H, 8D, 9D, JH]\n    actions: []\n"
        "dealer: [3C, 4C, 6S, 7C, QS]\n"
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2, out.stdout
    assert "the Super Wager is placed only with the Ante Wager" in out.stderr
    assert "§ 589.7(c)(2)" in out.stderr and f"{f}:4:" in out.stderr
    f.write_text(f.read_text().replace("{super: 5}", "{ante: 5, super: 5}"))
    f.write_text(f.read_text().replace("actions: []", "actions: [fold]"))
    out = run_rulesub("settle", str(f), "--format", "json")
    assert out.returncode == 0, out.stderr
    wagers = json.loads(out.stdout)["seats"][0]["wagers"]
    assert (wagers["super"]["result"], wagers["super"]["net"]) == ("win", "10")  # 2 to 1


@pytest.mark.parametrize(
    ("round_text", "refusal"),
    [
        (  # § 678a.8(d): cards "to each player who placed an Ante Wager"
            "game: high-card-flush\npaytables: {flush_bonus: A}\nseats:\n"
            "  - wagers: {flush_bonus: 10}\n    cards: [AS, KS, QS, JS, 3D, 4C, 5C]\n"
            "    actions: []\ndealer: [8H, 6H, 4H, 2S, 3C, 7D, 9D]\n",
            "the Flush Bonus Wager is placed only with the Ante Wager (§ 678a.7(c), (d)(2))",
        ),
        (  # § 677a.8(c): cards "to each player who placed Ante and Odds Wagers"
            "game: wpt-heads-up-holdem\nseats:\n  - wagers: {trips_plus: 10}\n"
            "    cards: [9C, 8D]\n    actions: []\ndealer: [QH, JC]\n"
            "community: [7S, 6H, 5C, KD, 2S]\n",
            "the Trips Plus Wager is placed only with the Ante Wager (§ 677a.7(c), (d)(3))",
        ),
        (  # § 677a.7(d)(1): "an Ante Wager and an Odds Wager equal to the player's Ante"
            "game: wpt-heads-up-holdem\nseats:\n  - wagers: {ante: 10}\n"
            "    cards: [9C, 8D]\n    actions: [raise 3x]\ndealer: [QH, JC]\n"
            "community: [7S, 6H, 5C, KD, 2S]\n",
            "the Ante Wager is placed only with the Odds Wager (§ 677a.7(c), (d)(1))",
        ),
    ],
)
def test_a_side_wager_without_the_wagers_the_cards_are_dealt_to_is_refused(
    tmp_path: Path, round_text: str, refusal: str
) -> None:
    """§ 678a.8(d), § 677a.8(c): the cards go only to a player who placed the base wagers, so
    a seat with a side wager alone is dealt nothing: refused (exit 2), never settled as lost."""
    f = tmp_path / "round.yaml"
    f.write_text(round_text)
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2, out.stdout
    assert refusal in out.stderr and "Traceback" not in out.stderr


FCP_TIE = GOLDEN / "four-card-poker" / "01-tie-goes-to-player.yaml"


@pytest.mark.parametrize(
    ("game_round", "action", "settled"),
    [  # § 641a.11(b): a Play Wager "in an amount from one to three times" the Ante
        (FCP_TIE, "play $15", {"ante": ("10", "10"), "play": ("15", "15")}),
        (FCP_TIE, "play $30", {"ante": ("10", "10"), "play": ("30", "30")}),
        (FCP_TIE, "play $10.50", {"ante": ("10", "10"), "play": ("10.50", "10.50")}),
        (FCP_TIE, "play $35", "play $35 is not allowed: $10 to $30 here, the Ante Wager being $10"),
        (FCP_TIE, "play $9", "play $9 is not allowed: $10 to $30 here"),
        (FCP_TIE, "play 1.5x", "any other amount is written in dollars, like $15"),
    ],
)
def test_a_wager_in_a_range_is_any_amount_in_it(
    tmp_path: Path, game_round: Path, action: str, settled: dict[str, tuple[str, str]] | str
) -> None:
    """Where the chapter allows a range ("from one to three times the amount of the player's
    Ante Wager", § 641a.11(b)), a round states any amount in it in dollars, beside the whole
    multiples a strategy plays; an amount outside it is refused naming the range (exit 2)."""
    f = tmp_path / "round.yaml"
    f.write_text(game_round.read_text().replace("play 1x", action))
    out = run_rulesub("settle", str(f), "--format", "json")
    if isinstance(settled, str):
        assert out.returncode == 2 and settled in out.stderr, out.stderr
        return
    assert out.returncode == 0, out.stderr
    wagers = json.loads(out.stdout)["seats"][0]["wagers"]
    assert {k: (w["amount"], w["net"]) for k, w in wagers.items()} == settled


def test_a_raise_up_to_a_multiple_is_any_amount_up_to_it(tmp_path: Path) -> None:
    """§ 678a.11(b)(2): with a five-card flush "a Raise Wager up to two times the amount of
    the player's Ante Wager"; (b)(1): with four cards of a suit "equal to" it. § 677a.11(b):
    "up to three times" before the flop. No minimum stated: the table's minimum wager."""
    f = tmp_path / "round.yaml"
    five = (
        "game: high-card-flush\nseats:\n  - wagers: {ante: 10}\n"
        "    cards: [AS, KS, QS, 9S, 3S, 4C, 5C]\n    actions: [raise $15]\n"
        "dealer: [8H, 6H, 4H, 2S, 3C, 7D, 9H]\n"
    )
    f.write_text(five)
    out = run_rulesub("settle", str(f), "--format", "json")
    assert out.returncode == 0, out.stderr
    raised = json.loads(out.stdout)["seats"][0]["wagers"]["raise"]
    assert (raised["amount"], raised["result"], raised["net"]) == ("15", "win", "15")
    f.write_text(five.replace("raise $15", "raise $25"))
    out = run_rulesub("settle", str(f))
    assert (
        out.returncode == 2 and "$10 to $20 here" in out.stderr and "§ 678a.11(b)(2)" in out.stderr
    )
    f.write_text(five.replace("3S, 4C", "3D, 4C"))  # four spades: the Raise equals the Ante
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2 and "raise $15 is not allowed: $10 here" in out.stderr
    wpt = (GOLDEN / "wpt-heads-up-holdem" / "01-dealer-no-pair-straight-wins.yaml").read_text()
    f.write_text(wpt.replace("raise 3x", "raise $25"))
    out = run_rulesub("settle", str(f), "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"][0]["wagers"]["raise"]["amount"] == "25"


def test_a_strategy_states_a_multiple_not_an_amount() -> None:
    """A strategy plays every stake alike: `raise 2x`, never `raise $20`."""
    from pydantic import ValidationError

    from validator.model.procedure import StrategyRow

    assert StrategyRow(then="raise 2x").then == "raise 2x"
    with pytest.raises(ValidationError, match="a strategy states a multiple like 2x"):
        StrategyRow(then="raise $20")


def test_a_round_needing_a_missing_table_stops_naming_the_section() -> None:
    out = run_rulesub(
        "settle", str(GOLDEN / "wpt-heads-up-holdem" / "05-bad-beat-table-missing.yaml")
    )
    assert out.returncode == 2
    assert "§ 677a.12(c)" in out.stderr and "missing" in out.stderr


def test_an_action_the_rules_forbid_names_the_rule() -> None:
    out = run_rulesub(
        "settle", str(GOLDEN / "high-card-flush" / "07-raise-twice-with-a-four-card-flush.yaml")
    )
    assert out.returncode == 2
    assert "§ 678a.11(b)(1)" in out.stderr
    assert "07-raise-twice-with-a-four-card-flush.yaml:5:" in out.stderr


def test_play_is_reproducible_and_every_logged_round_replays(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for log in (a, b):
        out = run_rulesub(
            "play",
            "four-card-poker",
            "--seats",
            "5",
            "--rounds",
            "12",
            "--seed",
            "7",
            "--log",
            str(log),
        )
        assert out.returncode == 0, out.stderr
        assert "round 12" in out.stdout
    assert a.read_bytes() == b.read_bytes(), "the same seed gives the same log, byte for byte"
    records = [json.loads(line) for line in a.read_text().splitlines()]
    assert len(records) == 12
    assert all(len(r["deck_order"]) == 52 for r in records)
    for r in records:
        out = run_rulesub("settle", str(a), "--round", str(r["round"]), "--format", "json")
        assert out.returncode == 0, out.stderr
        settled = json.loads(out.stdout)
        assert {str(s["seat"]): s["net"] for s in settled["seats"]} == r["result"]["seats"]
        assert settled["house"] == r["result"]["house"]


def test_settle_holds_a_log_round_against_the_result_the_log_recorded(tmp_path: Path) -> None:
    """A play log is a record: settling one of its rounds says whether the result the log
    recorded is this settlement's, and where it is not (a house result edited from $110 to
    $100, a seat's net from -$40 to -$30), both figures, in the output and as a warning on
    stderr; the settlement is the result (exit 0), the chapter's whatever the log says."""
    log = tmp_path / "hcf.jsonl"
    out = run_rulesub("play", "high-card-flush", "--rounds", "1", "--seed", "3", "--log", str(log))
    assert out.returncode == 0, out.stderr
    record = json.loads(log.read_text())
    agrees = run_rulesub("settle", str(log), "--format", "json")
    assert agrees.returncode == 0, agrees.stderr
    assert json.loads(agrees.stdout)["recorded_result"] == {"agrees": True, "differences": []}
    text = run_rulesub("settle", str(log))
    assert "recorded result agrees with this settlement" in " ".join(text.stdout.split())
    house = record["result"]["house"]
    seat, net = next(iter(record["result"]["seats"].items()))
    record["result"]["house"] = str(int(house) - 10)
    record["result"]["seats"][seat] = str(int(net) + 10)
    edited = tmp_path / "edited.jsonl"
    edited.write_text(json.dumps(record) + "\n")
    differs = run_rulesub("settle", str(edited), "--format", "json")
    assert differs.returncode == 0, differs.stderr
    said = json.loads(differs.stdout)
    assert said["house"] == house  # the settlement, as the chapter settles the cards
    assert said["recorded_result"] == {
        "agrees": False,
        "differences": [
            {"what": f"seat {seat}'s net", "recorded": str(int(net) + 10), "settled": net},
            {"what": "the house result", "recorded": str(int(house) - 10), "settled": house},
        ],
    }
    assert "warning: The log's recorded result differs" in differs.stderr
    from validator.money import format_money

    text = " ".join(run_rulesub("settle", str(edited)).stdout.split())
    said = f"the house result: recorded {format_money(str(int(house) - 10))}, settled "
    assert said + format_money(house) in text


@pytest.mark.parametrize("written", ["NaN", "Infinity", "-inf", "1e999999"])
def test_a_recorded_result_that_is_no_amount_differs_never_a_traceback(
    tmp_path: Path, written: str
) -> None:
    """A log edited to record no amount a table pays (NaN, Infinity, 1e999999) is a
    recorded result that differs, shown as written; it was a traceback."""
    log = tmp_path / "hcf.jsonl"
    out = run_rulesub("play", "high-card-flush", "--rounds", "1", "--seed", "3", "--log", str(log))
    assert out.returncode == 0, out.stderr
    assert f"log: {log} (1 round);" in " ".join(out.stdout.split())
    record = json.loads(log.read_text())
    record["result"]["house"] = written
    edited = tmp_path / "edited.jsonl"
    edited.write_text(json.dumps(record) + "\n")
    text = run_rulesub("settle", str(edited))
    assert text.returncode == 0, text.stderr
    assert "Traceback" not in text.stderr
    assert f"the house result: recorded {written!r}, settled" in " ".join(text.stdout.split())


def test_play_logs_differ_by_seed_and_strategy(tmp_path: Path) -> None:
    logs = {}
    for name, args in {
        "s1": ("--seed", "1"),
        "s2": ("--seed", "2"),
        "basic": ("--seed", "1", "--strategy", "basic"),
    }.items():
        log = tmp_path / f"{name}.jsonl"
        out = run_rulesub(
            "play", "four-card-poker", "--rounds", "30", "--quiet", "--log", str(log), *args
        )
        assert out.returncode == 0, out.stderr
        logs[name] = [json.loads(x) for x in log.read_text().splitlines()]
    assert logs["s1"][0]["deck_order"] != logs["s2"][0]["deck_order"]
    assert [r["deck_order"] for r in logs["s1"]] == [r["deck_order"] for r in logs["basic"]]
    assert {r["strategy"] for r in logs["basic"]} == {"basic"}
    assert [s["actions"] for r in logs["s1"] for s in r["seats"]] != [
        s["actions"] for r in logs["basic"] for s in r["seats"]
    ]


def test_unknown_strategy_and_too_many_seats_are_usage_errors() -> None:
    out = run_rulesub("play", "high-card-flush", "--strategy", "nonsense")
    assert out.returncode == 2 and "mousseau" in out.stderr
    out = run_rulesub("simulate", "lunar-poker", "--rounds", "10", "--seats", "5")
    assert out.returncode == 2 and "play at most 4 seats" in out.stderr


def test_simulate_json_is_the_contract() -> None:
    out = run_rulesub(
        "simulate",
        "high-card-flush",
        "--rounds",
        "3000",
        "--seed",
        "2",
        "--format",
        "json",
        "--timing",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["rounds"] == 3000
    ante = data["wagers"]["ante"]
    assert set(ante) >= {"handle", "player_net", "hold_percent", "ci95"}
    assert isinstance(ante["handle"], str) and isinstance(ante["hold_percent"], float)
    lo, hi = ante["ci95"]
    assert lo <= ante["hold_percent"] <= hi
    assert isinstance(data["house_edge_per_ante"], float)
    assert data["rounds_per_second"] > 0
    assert data["money_conserved_rounds"] == 3000
    assert 60 < data["dealer_qualifies_percent"] < 90


def test_simulate_json_is_the_same_bytes_for_the_same_seed() -> None:
    """The speed of a run is not in the JSON unless --timing asks: same seed, same bytes."""
    args = ("simulate", "four-card-poker", "--rounds", "500", "--seed", "7", "--format", "json")
    first, second = run_rulesub(*args), run_rulesub(*args)
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "rounds_per_second" not in json.loads(first.stdout)
    assert "rounds/s" in first.stderr


def test_simulate_text_shows_progress_and_meters() -> None:
    out = run_rulesub("simulate", "four-card-poker", "--rounds", "2000", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "hold %" in out.stdout
    assert "Four-Card Progressive meter: $5,000.00 → " in out.stdout
    assert "money conserved in all 2,000 rounds" in out.stdout


def test_a_poker_round_file_is_refused_as_a_banking_one_is(tmp_path: Path) -> None:
    """One reader: an unknown key, a card dealt twice, cards not a list read the same in a
    Poker round file as in a banking one, at the key itself and naming the deck's section
    (§ 553.3(a): "one deck of 52 cards"), exit 2."""
    poker = tmp_path / "poker.yaml"
    poker.write_text(
        "game: poker-holdem\n"
        "seats:\n"
        "  - {seat: 1, cards: [AS, AH], contributed: 5, foldd: true}\n"
        "  - {seat: 2, cards: AS KH, contributed: 5}\n"
        "board: [2C, 3D, 9H, JC, AH]\n"
    )
    out = run_rulesub("settle", str(poker))
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"{poker}:3:48: /seats/0/foldd: unknown key 'foldd' (did you mean 'folded'?); "
        "expected one of: seat, cards, contributed, folded, all_in",
        f"{poker}:4:22: /seats/1/cards: expected a list of cards like [AS, 10H, 7C]",
    ]
    poker.write_text(poker.read_text().replace("foldd", "folded").replace("AS KH", "[KS, KH]"))
    out = run_rulesub("settle", str(poker))
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"{poker}:5:25: /board/4: AH appears twice (also at /seats/0/cards/1): the game is "
        "dealt from one 52-card deck (§ 553.3(a))"
    ]
    banking = tmp_path / "banking.yaml"
    banking.write_text(
        "game: four-card-poker\n"
        "seats:\n"
        "  - {wagers: {ante: 10}, cards: AS KH, actions: [fold]}\n"
        "dealer: [2C, 3D, 9H, JC, AH, 4D]\n"
    )
    out = run_rulesub("settle", str(banking))
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"{banking}:3:33: /seats/0/cards: expected a list of cards like [AS, 10H, 7C]"
    ]


def test_a_log_whose_submission_lies_elsewhere_replays_with_rulesub(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log may not name a file outside its folder (a stranger's log naming any file is
    refused, not read); a log `play` wrote under a submission kept elsewhere is replayed by
    naming that submission with --rulesub, as `play`'s last line says."""
    elsewhere, here = tmp_path / "filings", tmp_path / "logs"
    elsewhere.mkdir()
    here.mkdir()
    submission = elsewhere / "fcp.yaml"
    submission.write_text((PROJECT_ROOT / "rulesubs/example/four-card-poker.yaml").read_text())
    monkeypatch.chdir(here)
    played = run_rulesub(
        "play", "four-card-poker", "--rulesub", str(submission), "--rounds", "2", "--quiet",
        "--log", "play.jsonl",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    said = " ".join(played.stdout.split())
    assert f"rulesub settle play.jsonl --round N --rulesub {submission}" in said
    refused = run_rulesub("settle", "play.jsonl", "--round", "2")
    assert refused.returncode == 2
    assert "name the submission yourself with --rulesub FILE" in refused.stderr
    assert "certificate_holder" not in refused.stderr  # nothing of the other file
    replayed = run_rulesub(
        "settle", "play.jsonl", "--round", "2", "--rulesub", str(submission), "--format", "json"
    )
    assert replayed.returncode == 0, replayed.stderr
    [record] = [json.loads(ln) for ln in Path("play.jsonl").read_text().splitlines()][1:]
    assert json.loads(replayed.stdout)["house"] == record["result"]["house"]
    # a log written below the working directory, its submission in the working directory:
    # the replay from the log's own folder needs --rulesub too, and is told so
    monkeypatch.chdir(elsewhere)
    (elsewhere / "logs").mkdir()
    below = run_rulesub(
        "play", "four-card-poker", "--rulesub", "fcp.yaml", "--rounds", "1", "--quiet",
        "--log", "logs/play.jsonl",
    )  # fmt: skip
    assert below.returncode == 0, below.stderr
    assert "rulesub settle logs/play.jsonl --round N --rulesub fcp.yaml" in " ".join(
        below.stdout.split()
    )
    beside = run_rulesub("play", "four-card-poker", "--rulesub", "fcp.yaml", "--log", "p.jsonl")
    assert "rulesub settle p.jsonl --round N`" in " ".join(beside.stdout.split())


def test_an_unknown_key_with_a_slash_is_placed_at_its_line(tmp_path: Path) -> None:
    """A key a pointer must escape (``/``, ``~``) is found at its own line, not at 1:1."""
    banking = tmp_path / "slash.yaml"
    banking.write_text(
        'game: four-card-poker\n"[/]x": 1\n"a~b": 2\nseats:\n'
        "  - {wagers: {ante: 10}, cards: [AS, KH, QD, JC, 9S], actions: [fold]}\n"
        "dealer: [2C, 3D, 9H, JD, AH, 4D]\n"
    )
    out = run_rulesub("settle", str(banking))
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines()[:2] == [
        f"{banking}:2:1: /[~1]x: unknown key '[/]x'",
        f"{banking}:3:1: /a~0b: unknown key 'a~b'",
    ]


def test_a_rules_submission_given_to_settle_is_said_to_be_one(tmp_path: Path) -> None:
    """`settle` given the Rules Submission rather than a round under it says so, exit 2,
    where it listed the submission's keys one by one as a round file's unknown keys."""
    example = Path(__file__).parent.parent / "rulesubs" / "example" / "high-card-flush.yaml"
    result = run_rulesub("settle", str(example))
    assert result.returncode == 2
    assert "high-card-flush.yaml:5:1: a Rules Submission, not a round file" in result.stderr
    assert "unknown key" not in result.stderr


def test_an_unknown_strategy_is_refused_before_any_round_is_dealt() -> None:
    """`simulate --strategy nosuch` says the game's strategies, exit 2, with no progress
    bar drawn first for rounds that will never be dealt."""
    out = run_rulesub("simulate", "four-card-poker", "--strategy", "nosuch", "--rounds", "2000")
    assert out.returncode == 2
    assert "has no strategy 'nosuch'; its strategies are: expert, basic" in out.stderr
    assert "simulating" not in out.stderr and out.stdout == ""


def test_an_unknown_wager_beside_a_known_one_is_placed_and_named(tmp_path: Path) -> None:
    """A misspelt wager after the Ante is named at its line with the game's wagers, exit 2,
    as one alone is; it was "rulesub: acesup", with no file, line or what was expected."""
    f = tmp_path / "misspelt.yaml"
    f.write_text(
        "game: four-card-poker\nseats:\n  - wagers: {ante: 10, acesup: 5}\n"
        "    cards: [AS, AD, 7C, 4H, 2S]\n    actions: [play 2x]\n"
        "dealer: [QS, QD, 8S, 8D, 3H, 6C]\n"
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2
    assert f"{f}:3:" in out.stderr and "no wager 'acesup' (did you mean 'aces_up'?)" in out.stderr


FOUR_ACES = (
    "game: four-card-poker\n{rulesub}seats:\n"
    "  - wagers: {{ante: 10, four_card_progressive: {first}}}\n"
    "    cards: [AS, AH, AD, AC, 9S]\n    actions: [play 3x]\n"
    "  - wagers: {{ante: 10, four_card_progressive: {second}}}\n"
    "    cards: [KS, KH, 2D, 5C, 9H]\n    actions: [play 1x]\n"
    "dealer: [2C, 5D, 9C, QD, QC, JD]\n"
)


def test_a_progressive_wager_of_5_is_paid_from_the_meter_seeded_for_5_641a_12_d_3(
    tmp_path: Path,
) -> None:
    """§ 641a.12(d)(3): the seed and reseed "must be based upon the amount of the
    Progressive Payout Wager being offered", paytable A's "$5,000 for 1". Without a
    submission, a round whose seats wager $5 is a $5 table: the meter starts at $25,000,
    each $5 wager adds 29% ($1.45), and four aces wins 100% of it, $25,002.90; it was paid
    from the $1 table's $5,000 meter."""
    f = tmp_path / "five.yaml"
    f.write_text(FOUR_ACES.format(rulesub="", first=5, second=5))
    out = run_rulesub("settle", str(f), "--format", "json")
    assert out.returncode == 0, out.stderr
    won = json.loads(out.stdout)["seats"][0]["wagers"]["four_card_progressive"]
    assert won["net"] == "24997.90" and "$25,002.90 from the primary meter" in won["reason"]
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(FOUR_ACES.format(rulesub="", first=5, second=1))
    out = run_rulesub("settle", str(mixed))
    assert out.returncode == 2 and f"{mixed}:6:" in out.stderr
    assert "seat 2: the Four-Card Progressive Payout Wager is $1 where seat 1's is $5" in (
        out.stderr
    )


def test_a_progressive_wager_the_submission_does_not_offer_is_refused(tmp_path: Path) -> None:
    """Under the example submission the Four-Card Progressive is offered on a $1 wager
    (`wager_amount: 1`), its meter seeded for $1: a $5 wager at that table is refused at
    its line, not paid from the $1 meter."""
    example = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    f = tmp_path / "five.yaml"
    f.write_text(FOUR_ACES.format(rulesub=f"rulesub: {example}\n", first=5, second=1))
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2 and f"{f}:4:" in out.stderr
    assert "the Rules Submission offers it at $1" in out.stderr
    f.write_text(FOUR_ACES.format(rulesub=f"rulesub: {example}\n", first=1, second=1))
    assert run_rulesub("settle", str(f)).returncode == 0


def test_a_log_line_cut_short_is_named_and_a_record_respaced_is_found(tmp_path: Path) -> None:
    """`settle LOG --round K` reads first the lines `play` wrote for round K; where none is
    it, it reads every line, so a line cut short is named at its line (it was "the log
    holds no round 2"), and a record written with other spacing is still round K."""
    log = tmp_path / "play.jsonl"
    out = run_rulesub("play", "four-card-poker", "--rounds", "3", "--seed", "7", "--log", str(log))
    assert out.returncode == 0, out.stderr
    lines = log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join([lines[0], lines[1][:150], lines[2]]) + "\n")
    out = run_rulesub("settle", str(cut), "--round", "2")
    assert out.returncode == 2 and f"{cut}:2:" in out.stderr and "not valid JSON" in out.stderr
    assert run_rulesub("settle", str(cut), "--round", "3").returncode == 0  # the others read
    respaced = tmp_path / "respaced.jsonl"
    records = [json.loads(x) for x in lines]
    respaced.write_text("\n".join(json.dumps(r, separators=(",", ":")) for r in records) + "\n")
    out = run_rulesub("settle", str(respaced), "--round", "2", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["house"] == records[1]["result"]["house"]
    both = tmp_path / "both.jsonl"  # a line cut short before a record respaced
    both.write_text(
        respaced.read_text().replace(respaced.read_text().splitlines()[0], lines[0][:150])
    )
    assert run_rulesub("settle", str(both), "--round", "3").returncode == 0
    out = run_rulesub("settle", str(both), "--round", "1")
    assert out.returncode == 2 and f"{both}:1:" in out.stderr


def test_a_meter_a_round_states_resets_to_the_reseed_of_its_own_wager(tmp_path: Path) -> None:
    """`meters:` gives a meter's amount, not its seeds: four aces on $5 wagers win a
    $30,000 meter stated in the round, and it resets to paytable A's "$5,000 for 1" of the
    $5 wager (§ 641a.12(d)(3)), $25,000, not the $1 table's $5,000."""
    f = tmp_path / "stated.yaml"
    text = FOUR_ACES.format(rulesub="", first=5, second=5)
    f.write_text(
        text.replace("seats:\n", "meters: {four_card_progressive: {primary: 30000}}\nseats:\n")
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 0, out.stderr
    assert "Four-Card Progressive meter: $30,000 → $25,000" in out.stdout


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        # a meter misspelt was passed over, and four aces paid from the $5,000 seed
        (
            "meters: {four_card_progressive: {jackpot: 7000}}\n",
            "no meter 'jackpot'; the table's: primary",
        ),
        (
            "meters: {four_card_progresive: {primary: 7000}}\n",
            "(did you mean 'four_card_progressive'?)",
        ),
        ("meters: 5\n", "the meters are a mapping"),
        # § 641a.1: the Magic Card is "the card randomly selected", never a position
        ("table_system: {magic_card: 1}\n", "magic_card draws a card, like 7H, not a position"),
        ("table_system: {lucky_bonus: AS}\n", "lucky_bonus draws a position"),
        ("table_system: {lucky_bonus: 9}\n", "a betting position (1 to 7) or `dealer`"),
        ("table_system: {magic: 7H}\n", "draws no 'magic'"),
    ],
)
def test_what_a_round_names_of_the_meters_and_the_table_system_is_the_games(
    tmp_path: Path, extra: str, said: str
) -> None:
    """A meter, a progressive table or a table game system's draw the game does not have is
    refused at its line (exit 2), never passed over to settle on the seed's amount."""
    f = tmp_path / "named.yaml"
    f.write_text(
        "game: four-card-poker\n" + extra + "seats:\n"
        "  - wagers: {ante: 10, four_card_progressive: 1}\n"
        "    cards: [AS, AH, AD, AC, 9D]\n    actions: [play 1x]\n"
        "dealer: [2C, 3D, 4C, 8D, JD, QC]\n"
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2, out.stdout
    assert f"{f}:2:" in out.stderr and said in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_an_exchange_naming_a_card_twice_is_refused_589_11(tmp_path: Path) -> None:
    """§ 589.11(d)(2)(i)(B): the player discards two to five of his cards; a card named
    twice is refused at its line, not a traceback."""
    f = tmp_path / "twice.yaml"
    f.write_text(
        "game: lunar-poker\nseats:\n  - wagers: {ante: 10}\n"
        "    cards: [2S, 3S, 7D, 9C, QH]\n    actions: [exchange 2S 2S, bet]\n"
        "dealer: [AD, KH, 8D, 6C, 5D]\ndeck: [4D, 4S]\n"
    )
    out = run_rulesub("settle", str(f))
    assert out.returncode == 2
    assert "the exchange names 2S twice" in out.stderr
    assert "Traceback" not in out.stderr


def test_play_tells_each_choice_by_its_name_in_the_chapters_words() -> None:
    """§ 589.2(b)(3), § 589.11(b), (e)(2): Lunar Poker's elections are told as the game
    file names them from the chapter ("Buy a 6th card", "Force the dealer", "Exchange 2-5
    cards", "Bet Wager"), never by their ids (``buy_sixth``, ``force_dealer``, ``none``); a
    wager with the amount placed; the fee as "Options fee" (§ 589.1)."""
    lunar = PROJECT_ROOT / "rulesubs" / "example" / "lunar-poker.yaml"
    out = run_rulesub(
        "play", "lunar-poker", "--rulesub", str(lunar), "--rounds", "40", "--seed", "11"
    )
    assert out.returncode == 0, out.stderr
    choices = {
        line.split(": ", 1)[1].rstrip(" │")
        for line in out.stdout.splitlines()
        if "  seat " in line and ": " in line.split("  seat ", 1)[1]
    }
    choices = {c for c in choices if not re.search(r", [+-]?\$[\d,.]+$", c)}  # settled
    told = {c.split(" (")[0].split(":")[0] for c in choices}
    assert {"Bet Wager 2x", "Fold", "Exchange 2-5 cards", "Force the dealer"} <= told, told
    assert not told & {"bet", "fold", "buy_sixth", "exchange", "force_dealer", "none"}
    assert all(c.startswith("Bet Wager 2x ($") for c in choices if c.startswith("Bet"))
    assert "Options fee -$" in out.stdout and ", fee -" not in out.stdout
    four = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    out = run_rulesub("play", "four-card-poker", "--rulesub", str(four), "--rounds", "5")
    assert out.returncode == 0, out.stderr
    # § 641a.11(b): one to three times the Ante, said with the amount it comes to
    assert re.search(r"seat \d: Play Wager [123]x \(\$[1-3]0\)", out.stdout)
    assert not re.search(r"seat \d: (play|fold)\b", out.stdout)


def test_settle_names_the_choice_a_row_rests_on() -> None:
    """§ 589.11(c)(1): a declared royal flush wins the instant payout; the reason names
    the election as the game file does, not by its id ``declare``."""
    out = run_rulesub(
        "settle", str(GOLDEN / "lunar-poker" / "04-instant-payout-royal-and-super.yaml")
    )
    assert out.returncode == 0, out.stderr
    flat = " ".join(out.stdout.replace("│", " ").split())
    assert 'chose "Declare a royal flush or straight flush"' in flat
    assert "chose declare" not in flat


def test_a_meter_share_says_what_the_meter_stood_at_when_the_seat_was_paid() -> None:
    """§ 641a.11(c): winners are paid from the dealer's right; § 641a.12(e)(4): a
    progressive hand is paid "the amount on the meter when it is the player's turn to be
    paid". Seat 2's straight flush (10% of the meter) is paid before seat 1's royal flush
    (100%), which therefore gets less than the meter read at the round's start: each
    reason says the amount the meter stood at on that seat's turn."""
    golden = GOLDEN / "four-card-poker" / "05-two-progressive-hits-and-envy.yaml"
    out = run_rulesub("settle", str(golden), "--format", "json")
    assert out.returncode == 0, out.stderr
    seats = {
        s["seat"]: s["wagers"]["five_card_progressive"] for s in json.loads(out.stdout)["seats"]
    }
    royal, straight = seats[1]["reason"], seats[2]["reason"]
    taken = re.search(r"\$([\d,.]+) from the primary meter, which stood at \$([\d,.]+)", straight)
    left = re.search(r"\$([\d,.]+) from the primary meter, which stood at \$([\d,.]+)", royal)
    assert taken and left
    money = [Decimal(x.replace(",", "")) for x in (*taken.groups(), *left.groups())]
    paid_first, stood_first, paid_then, stood_then = money
    assert paid_first == (stood_first / 10).quantize(Decimal("0.01"))  # 10% of the meter
    assert stood_then == stood_first - paid_first and paid_then == stood_then  # 100% of it


def test_the_table_game_systems_draws_are_named_as_the_chapter_prints_them() -> None:
    """§ 641a.1, § 641a.12(g)(3): the "Magic Card" and the "Lucky Bonus", in the reasons
    as on the sign, never the ids lowercased ("the magic card 9D", "(lucky bonus)")."""
    golden = GOLDEN / "four-card-poker" / "09-magic-card-and-lucky-bonus.yaml"
    out = run_rulesub("settle", str(golden), "--format", "json")
    assert out.returncode == 0, out.stderr
    reasons = " ".join(
        w["reason"] for s in json.loads(out.stdout)["seats"] for w in s["wagers"].values()
    )
    assert "the Magic Card 9D is in the hand" in reasons and "(Magic Card)" in reasons
    assert "the Lucky Bonus position is" in reasons and "(Lucky Bonus)" in reasons
    assert "magic card" not in reasons and "lucky bonus" not in reasons


def test_play_tells_a_settlement_before_the_draw_where_it_happens_589_11_c() -> None:
    """§ 589.11(c): the Super Wager is settled on the first five cards, and a declared
    winning hand paid its instant payout, before any draw: `play` tells each where it
    happens, between the elections and the draw, as it tells the elections; the round's
    last settlement stays the summary's. A game settled once, at the end (Four Card
    Poker), tells no settlement in its narration."""
    lunar = PROJECT_ROOT / "rulesubs" / "example" / "lunar-poker.yaml"
    out = run_rulesub(
        "play", "lunar-poker", "--rulesub", str(lunar), "--rounds", "1", "--seed", "3"
    )
    assert out.returncode == 0, out.stderr
    lines = [ln.strip(" │") for ln in out.stdout.splitlines()]
    super_wager = [
        i for i, ln in enumerate(lines) if "§ 589.11(c)(2)" in ln and "Super Wager:" in ln
    ]
    draw = next(i for i, ln in enumerate(lines) if " draws " in ln)
    assert super_wager and max(super_wager) < draw
    assert all(re.search(r"Super Wager: \w.*, [+-]?\$\d", lines[i]) for i in super_wager)
    four = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    out = run_rulesub("play", "four-card-poker", "--rulesub", str(four), "--rounds", "2")
    assert out.returncode == 0 and "Ante Wager: " not in out.stdout


def test_settle_tells_the_decisions_in_the_game_files_words() -> None:
    """`settle` says each seat's decisions as `play` narrates them ("Bet Wager 2x ($20)"),
    and a wager by the size it was placed at ("Bet Wager (2x)"): one size, said alike on
    the seat's line and in the table, never the round file's action words (`bet`,
    `bet 2x`); its JSON keeps the actions as written, which a replay reads."""
    text = run_rulesub("settle", str(EXAMPLE))
    assert text.returncode == 0, text.stderr
    assert "One pair (AS AH KD 9S 8C); Bet Wager 2x ($20)" in text.stdout
    assert "Bet Wager (2x)" in text.stdout and "(bet 2x)" not in text.stdout
    data = json.loads(run_rulesub("settle", str(EXAMPLE), "--format", "json").stdout)
    assert data["seats"][0]["actions"] == ["bet"]


def test_the_community_cards_are_dealt_by_the_chapters_names() -> None:
    """§ 677a.11(c), (e): the dealer burns a card and deals "the three-card Flop", then
    burns one and deals "the Turn and River cards" (§ 677a.1 defines both): the narration
    says so, where it said "deal 3 as the community cards"."""
    wpt = PROJECT_ROOT / "rulesubs" / "example" / "wpt-heads-up-holdem.yaml"
    out = run_rulesub("play", "wpt-heads-up-holdem", "--rulesub", str(wpt), "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "§ 677a.11(c)  burn 1 card, then deal the three-card Flop" in out.stdout
    assert "§ 677a.11(e)  burn 1 card, then deal the Turn and River cards" in out.stdout
    assert "as the community cards" not in out.stdout


def _played(game: str, *, rounds: int, seed: int) -> str:
    """`play` of the game's example submission, its panels' text on one line."""
    example = PROJECT_ROOT / "rulesubs" / "example" / f"{game}.yaml"
    out = run_rulesub(
        "play", game, "--rulesub", str(example), "--rounds", str(rounds), "--seed", str(seed)
    )
    assert out.returncode == 0, out.stderr
    return " ".join(out.stdout.replace("│", " ").split())


def test_a_bonus_paid_on_a_wager_is_named_in_the_rounds_summary() -> None:
    """§ 641a.11(c)(3)(ii): the dealer pays "the Ante and Play Wagers and any Ante Bonus";
    the round's summary folded the Ante Bonus into "Ante Wager +$30". It names it, as
    `settle` itemises it: "Ante Wager +$30 (with Ante Bonus paid $20)"."""
    flat = _played("four-card-poker", rounds=3, seed=7)
    assert "(Three-of-a-kind): Ante Wager +$30 (with Ante Bonus paid $20)" in flat
    # § 589.11(e)(2)(ii)(B): Lunar Poker's second combination, a line of the Bet Wager,
    # named within it once ("Bet Wager, second combination" would repeat the wager)
    flat = _played("lunar-poker", rounds=300, seed=1)
    assert "(with the second combination paid $" in flat
    assert "(with Bet Wager, second combination" not in flat


def test_the_settlement_table_keeps_each_section_sign_with_its_number() -> None:
    """A citation in the settlement table's narrow cell may wrap, but never between "§"
    and its number ("+$20 [§" over "589.11(e)(1)(ii)"): every golden round settled at 100
    and 160 columns, no cell's line ends in a section sign, and the numbers are kept."""
    import os

    from tests.conftest import in_process

    rounds = sorted(
        p
        for p in (PROJECT_ROOT / "tests" / "golden").rglob("*.yaml")
        if not p.name.endswith(".expected.yaml")
    )
    assert len(rounds) > 40
    for columns in ("100", "160"):
        env = {**os.environ, "COLUMNS": columns}
        for path in rounds:
            done = in_process(("settle", str(path)), env)
            if done.returncode != 0:
                continue  # a round that stops (a table missing) prints no table
            alone = [ln for ln in done.stdout.splitlines() if re.search(r"§\s*│", ln)]
            assert not alone, (path.name, columns, alone)
            assert "\ue000" not in done.stdout  # the held spaces printed as spaces


MAGIC_CARD_ROUND = """\
game: four-card-poker
seats:
  - wagers: {ante: 25, five_card_hand_bonus: 1}
    cards: [2S, 7H, 9D, JC, KH]
    actions: [play 1x]
dealer: [3S, 4S, 5S, 6S, 8C, QD]
table_system: {magic_card: 9D, lucky_bonus: 1}
"""


def test_a_drawn_magic_card_is_paid_only_where_the_submission_offers_it_641a_12_g_3(
    tmp_path: Path,
) -> None:
    """§ 641a.12(g)(3): the certificate holder "may pay a Magic Card or Lucky Bonus". A
    round under a submission that does not offer them (its table's system draws for none)
    is refused at the draw, where it paid the $1 Five Card Hand Bonus Wager $20 and $5;
    under one that offers them, they are paid: 20 for 1 and 5 for 1 on $1."""
    round_file = tmp_path / "magic.yaml"
    round_file.write_text(MAGIC_CARD_ROUND)
    example = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker-five-card.yaml"
    refused = run_rulesub("settle", str(round_file), "--rulesub", str(example))
    assert refused.returncode == 2, refused.stdout
    assert f"{round_file}:7:" in refused.stderr
    assert "does not offer the Magic Card and Lucky Bonus (§ 641a.12(g)(3))" in refused.stderr
    offering = tmp_path / "offering.yaml"
    text = example.read_text(encoding="utf-8")
    offered = re.search(r"^offered: \[(.*)\]$", text, re.M)
    assert offered is not None
    offering.write_text(
        text.replace(offered.group(0), f"offered: [{offered.group(1)}, magic_card_lucky_bonus]")
    )
    paid = run_rulesub("settle", str(round_file), "--rulesub", str(offering), "--format", "json")
    assert paid.returncode == 0, paid.stderr
    bonus = json.loads(paid.stdout)["seats"][0]["wagers"]["five_card_hand_bonus"]
    assert Decimal(bonus["net"]) == Decimal(-1 + 20 + 5)


LUNAR_TURNS = """\
game: lunar-poker
seats:
  - wagers: {ante: 10}
    cards: [2S, 3S, 7D, 9C, QH]
    actions: [exchange 2S 3S, bet]
  - wagers: {ante: 10}
    cards: [4C, 5D, 8H, JS, KD]
    actions: [fold]
  - wagers: {ante: 10}
    cards: [6C, 6D, TH, JH, 2C]
    actions: [buy_sixth, fold]
dealer: [AD, KH, 8D, 6H, 5S]
deck: [4D, 4S, 9H]
"""


def test_each_lunar_player_takes_a_whole_turn_from_the_dealers_left_589_11_d(
    tmp_path: Path,
) -> None:
    """§ 589.11(d): "beginning with the player to the dealer's left and moving clockwise
    around the table: (1) For any player who did not make a Bet Wager and folded, the dealer
    shall collect the player's Ante Wager … (2) For any player who placed an Options fee …
    deal … The dealer shall then ask the player if the player would like to fold … or place
    a Bet Wager", all before the dealer's cards are revealed (e). Every draw was dealt first
    and the bets asked after, and a folded Ante collected at the round's end."""
    from validator.interpreter.roundfile import read_round
    from validator.interpreter.settle import settle_spec

    path = tmp_path / "turns.yaml"
    path.write_text(LUNAR_TURNS)
    told = [text for _, text in settle_spec(read_round(path)).result.events]
    at = told.index("seat 1 draws 4D 4S")
    assert told[at : at + 6] == [
        "seat 1 draws 4D 4S",
        "seat 1: Bet Wager 2x ($20)",
        "seat 2: Ante Wager: lose, -$10",
        "seat 3 draws 9H",
        "seat 3: Fold",
        "seat 3: Ante Wager: lose, -$10",
    ]
    assert told[at + 6].startswith("dealer reveals")
