"""A round of Poker ``play`` settles again from its log: each round's record carries the
round as a Poker round file (README, "Poker round files"), and ``rulesub settle
LOG.jsonl --round K`` reads it with the one round-file reader and settles it to the very
settlement ``play`` made, pot by pot and seat by seat, on every table that changes how a
pot is settled: a percentage rake of each pot and of each betting round (§ 553.15(b)(1)(i),
(ii)), an incremental rake ((b)(2)), time charges ((b)(3)), a Bad Beat contribution and
payout (§ 553.20), a Half-kill in and out of effect (§ 553.12(m))."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import run_rulesub
from tests.test_poker_blocks import POKER, _tables
from validator.cli.poker_rounds import log_line
from validator.compiler import load_game
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.settle import settle_round
from validator.interpreter.poker.table import TableSetup
from validator.interpreter.roundfile.poker import read_poker_round

HANDS = 40


def _raked(setup: TableSetup, rule: RakeRule) -> TableSetup:
    return replace(setup, rules=replace(setup.rules, rake=rule))


def _every_table(game_id: str) -> list[tuple[str, TableSetup, int]]:
    """Each table with its seats, full and three in turn: ``test_poker_blocks``'s (time
    charges of $7 an hour, no whole number of chips a period, per player and per table)
    and a percentage rake of each betting round and an incremental one besides."""
    tables = _tables(game_id)
    base = tables[0][1]
    per_round = RakeRule("percentage", rate=Fraction(1, 10), cap=400, per_betting_round=True)
    levels = RakeRule("incremental", levels=((1000, 100), (2000, 100)), cap=300, unit=100)
    tables += [("10% of each betting round", _raked(base, per_round))]
    tables += [("incremental levels", _raked(base, levels))]
    return [
        (name, setup, 3 if i % 2 else setup.positions) for i, (name, setup) in enumerate(tables)
    ]


@pytest.mark.parametrize("game_id", POKER)
def test_every_played_round_settles_again_from_its_log_line(game_id: str) -> None:
    """The round file of each record, read back from its log line, settles to the
    settlement ``play`` made: the same JSON, reasons and all. The rounds include an
    uncalled final bet returned and time charges in every game, and in Omaha High-low
    Split Eight or Better side pots, odd chips, a Bad Beat paid and the Half-kill."""
    game = load_game(game_id)
    seen: set[str] = set()
    for i, (name, setup, seats) in enumerate(_every_table(game_id)):
        session = Session(game, setup, seats, 4000 + i, hands_per_hour=36)
        for record in session.hands(HANDS):
            assert record.played is not None
            settled = record.played.settlement
            line = json.loads(log_line(record.to_json()))
            again = settle_round(game, read_poker_round(line["round_file"], game))
            assert again.to_json() == settled.to_json(), (name, record.number)
            seen |= {"uncalled"} if settled.uncalled else set()
            seen |= {"time"} if record.time_charges else set()
            seen |= {"side pot"} if len(settled.pots) > 1 else set()
            seen |= {"Bad Beat"} if settled.bad_beat and settled.bad_beat.hit else set()
            seen |= {"Kill"} if record.kill_multiplier != 1 else set()
            halves = (h for p in settled.pots for h in p.halves)
            seen |= {"odd chip"} if any(h.odd_chips for h in halves) else set()
    assert {"uncalled", "time"} <= seen
    if game_id == "poker-omaha-hi-lo-8":
        assert {"side pot", "odd chip", "Bad Beat", "Kill"} <= seen


def test_settle_replays_a_poker_round_of_a_play_log(tmp_path: Path) -> None:
    """README: "the log holds each round's deck order, so `rulesub settle FILE.jsonl --round
    K` replays any round": a Poker round too, its awards those ``play`` recorded."""
    log = tmp_path / "omaha.jsonl"
    submission = Path("rulesubs/example/poker-omaha-hi-lo-8.yaml").resolve()
    played = run_rulesub(
        "play", "poker-omaha-hi-lo-8", "--rulesub", str(submission), "--seats", "6",
        "--rounds", "6", "--seed", "3", "--log", str(log), "--quiet",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert "kill" in records[0]["round_file"] and "rake" in records[0]["round_file"]
    for record in records:
        out = run_rulesub("settle", str(log), "--round", str(record["hand"]), "--format", "json")
        assert out.returncode == 0, out.stderr
        settled = json.loads(out.stdout)
        awards = {s["seat"]: s["award"] for s in settled["seats"]}
        assert awards == {s["seat"]: s["award"] for s in record["seats"]}, record["hand"]
        assert settled["rake"]["total"] == record["rake"]
        assert [p["amount"] for p in settled["pots"]] == record["pots"]
    text = run_rulesub("settle", str(log), "--round", "2")
    assert text.returncode == 0, text.stderr
    assert "main pot" in text.stdout
    several = run_rulesub("settle", str(log))
    assert several.returncode == 2
    assert "say which with --round N" in several.stderr
    missing = run_rulesub("settle", str(log), "--round", "7")
    assert missing.returncode == 2
    assert "the log holds no round 7" in missing.stderr
    assert f"replay one with `rulesub settle {log} --round N`" in played.stdout


def test_a_poker_log_settles_whatever_its_name_and_a_json_round_file_is_no_log(
    tmp_path: Path,
) -> None:
    """A log renamed keeps its rounds (its lines are what ``play`` wrote); the round file
    of one of its lines, saved as JSON, is one round and settles to the same awards."""
    log = tmp_path / "holdem.jsonl"
    played = run_rulesub(
        "play", "poker-holdem", "--rounds", "3", "--seed", "3", "--log", str(log), "--quiet"
    )
    assert played.returncode == 0, played.stderr
    renamed = tmp_path / "holdem.log"
    renamed.write_bytes(log.read_bytes())
    record = json.loads(log.read_text().splitlines()[1])
    out = run_rulesub("settle", str(renamed), "--round", "2", "--format", "json")
    assert out.returncode == 0, out.stderr
    awards = {s["seat"]: s["award"] for s in json.loads(out.stdout)["seats"]}
    assert awards == {s["seat"]: s["award"] for s in record["seats"]}
    as_json = tmp_path / "round.json"
    as_json.write_text(log_line(record["round_file"]))
    alone = run_rulesub("settle", str(as_json), "--format", "json")
    assert alone.returncode == 0, alone.stderr
    assert json.loads(alone.stdout)["seats"] == json.loads(out.stdout)["seats"]


def test_settle_says_where_a_poker_log_records_another_award(tmp_path: Path) -> None:
    """A Poker log's record states each seat's award and the rake beside its round file;
    ``settle`` holds them against its own settlement: an award edited by a chip is named,
    with the seat and both figures (a warning on stderr), the settlement its own."""
    log = tmp_path / "holdem.jsonl"
    played = run_rulesub(
        "play", "poker-holdem", "--rounds", "1", "--seed", "2", "--log", str(log), "--quiet"
    )
    assert played.returncode == 0, played.stderr
    record = json.loads(log.read_text())
    out = run_rulesub("settle", str(log), "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["recorded_result"]["agrees"] is True
    winner = max(record["seats"], key=lambda s: int(s["award"]))
    award = winner["award"]
    winner["award"] = str(int(award) + 1)
    edited = tmp_path / "edited.jsonl"
    edited.write_text(log_line(record))
    out = run_rulesub("settle", str(edited), "--format", "json")
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout)
    assert {s["seat"]: s["award"] for s in said["seats"]}[winner["seat"]] == award
    assert said["recorded_result"]["differences"] == [
        {
            "what": f"seat {winner['seat']}'s award",
            "recorded": str(int(award) + 1),
            "settled": award,
        }
    ]
    assert f"seat {winner['seat']}'s award: recorded" in out.stderr


def test_a_poker_round_file_takes_no_round_number(tmp_path: Path) -> None:
    """``--round`` picks a round of a log; a round file is one round."""
    out = run_rulesub("settle", "tests/golden/poker/holdem-bad-beat.yaml", "--round", "1")
    assert out.returncode == 2
    assert "--round is for a log" in out.stderr


def test_settle_text_reads_the_whole_settlement_553_20() -> None:
    """The text of a Poker settlement names what the JSON holds: every hand shown, the
    rake by pot before the cap, the Bad Beat contribution taken after the rake (§
    553.20(c)), the losing hand that makes it a Bad Beat, each payout of the fund with its
    amount and the fund left, each seat's account, and that the chips balance."""
    out = run_rulesub("settle", "tests/golden/poker/holdem-bad-beat.yaml")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    for expected in (
        "Hold'em: settlement",
        "main pot: $102 (seats 1, 2 eligible); rake $4, Bad Beat contribution $1: $97 awarded",
        "  seat 1: high Four-of-a-kind (AS AH AD AC 7H)",
        "  seat 2: high Straight flush (9H 8H 7H 6H 5H)",
        "  main pot: 10% of $102, rounded down to $1: $10; the cap leaves $4",
        "  seat 1: $5,000.50, Bad Beat losing hand: 50% of the $10,001 fund",
        "  seat 3: $2,500.25, Bad Beat table share: 25% of the $10,001 fund",
        "  fund $10,000 + $1 contributed - $10,001 paid = $0",
        "seat 2: put in $50, awarded $97, net $47, Bad Beat payout $2,500.25",
        "balanced: contributions $102 = awards $97 + rake $4 + Bad Beat contribution $1",
    ):
        assert expected in lines, expected
    hit = next(line for line in lines if "lost with" in line)
    assert hit.startswith("  seat 1 lost with Four-of-a-kind") and "§ 553.20(b)" in hit
    stud = run_rulesub("settle", "tests/golden/poker/stud-forced-bet-by-suit.yaml").stdout
    assert "main pot: $5 (seat 2 eligible)" in stud.splitlines()
    assert any(line.startswith("uncalled final bet: no other player") for line in stud.splitlines())
    assert any(line.startswith("Forced Bet: the lowest up-card") for line in stud.splitlines())


@pytest.mark.parametrize("basis", ["per_player", "per_table"])
def test_time_charges_leave_every_stack_in_whole_chips_553_1_rake(basis: str) -> None:
    """The rake is "the amount of gaming chips … collected by the dealer" (§ 553.1): $7 an
    hour every 20 minutes ($2.33⅓ a period), from each of six players or from the table,
    is collected in whole $1 chips, so no stack, and no bet, ever holds a part of a chip."""
    game = load_game("poker-holdem")
    rake = RakeRule("time", hourly=700, every_minutes=20, basis=basis)  # type: ignore[arg-type]
    setup = _raked(_tables("poker-holdem")[0][1], rake)
    session = Session(game, setup, 6, 11, hands_per_hour=36, narrated=False)
    charged = 0
    for record in session.hands(240):
        charged += sum(record.time_charges.values())
        assert all(stack % 100 == 0 for stack in session.stacks.values()), record.number
    assert charged == session.totals.time_charges > 0
    hours = Fraction(240, 36)
    fee = 700 * hours if basis == "per_player" else 700 * hours / 6  # each player's share
    assert 6 * (fee - 100) < charged <= 6 * fee  # less than a chip a player carried


def test_play_narrates_the_time_charges_where_a_period_ends_553_15_b_3() -> None:
    """The example Omaha submission charges $6 an hour from each seated player every 30
    minutes; at the default 30 hands an hour the first period ends with hand 15, and the
    narration says so there and nowhere before: $3 from each of the four stacks."""
    submission = str(Path("rulesubs/example/poker-omaha-hi-lo-8.yaml").resolve())
    args = ("play", "poker-omaha-hi-lo-8", "--rulesub", submission, "--seats", "4")
    out = run_rulesub(*args, "--rounds", "16", "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    charged = [i for i, line in enumerate(lines) if "time charges at the period's end" in line]
    assert len(charged) == 1
    assert lines[charged[0]] == (
        "  time charges at the period's end, from the stacks: seat 1 $3; seat 2 $3; "
        "seat 3 $3; seat 4 $3 [§ 553.15(b)(3)]"
    )
    hands = [line for line in lines[: charged[0]] if line.startswith("hand ")]
    assert hands[-1].startswith("hand 15,")


def test_a_tampered_poker_log_line_is_refused_at_its_line_and_place(tmp_path: Path) -> None:
    """A log line whose round file holds a card twice (one deck, § 553.3(a)) is refused,
    exit 2, at the log's line, every pointer naming its place in the record."""
    log = tmp_path / "holdem.jsonl"
    played = run_rulesub(
        "play", "poker-holdem", "--seats", "3", "--rounds", "3", "--seed", "1",
        "--log", str(log), "--quiet",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    lines = log.read_text().splitlines()
    record = json.loads(lines[1])
    board = record["round_file"]["board"]
    record["round_file"]["seats"][0]["cards"][1] = board[1]  # a board card held by seat 1
    lines[1] = log_line(record).rstrip("\n")
    log.write_text("\n".join(lines) + "\n")
    out = run_rulesub("settle", str(log), "--round", "2")
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"{log}:2:1: /round_file/board/1: {board[1]} appears twice (also at "
        "/round_file/seats/0/cards/1): the game is dealt from one 52-card deck (§ 553.3(a))"
    ]


def test_the_round_is_picked_by_its_own_number_not_a_like_field(tmp_path: Path) -> None:
    """``--round 3`` settles the record whose own ``hand`` is 3, though an earlier line
    holds ``"hand":3,`` in a field of its own (a reader's annotation, say)."""
    log = tmp_path / "holdem.jsonl"
    played = run_rulesub(
        "play", "poker-holdem", "--rounds", "3", "--seed", "3", "--log", str(log), "--quiet"
    )
    assert played.returncode == 0, played.stderr
    lines = log.read_text().splitlines()
    first = json.loads(lines[0])
    first["annotation"] = {"hand": 3, "note": "see round 3"}
    lines[0] = log_line(first).rstrip("\n")
    assert '"hand":3,' in lines[0]
    log.write_text("\n".join(lines) + "\n")
    out = run_rulesub("settle", str(log), "--round", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    third = json.loads(lines[2])
    awards = {s["seat"]: s["award"] for s in json.loads(out.stdout)["seats"]}
    assert awards == {s["seat"]: s["award"] for s in third["seats"]}
    assert json.loads(out.stdout)["pots"][0]["amount"] == third["pots"][0]
