"""`rulesub play` and `rulesub simulate` for nonbanking Poker: sessions of hands with the
button moving, strategy-driven players, the rake and the Bad Beat fund."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import run_rulesub
from tests.poker_oracle.betting import Options
from tests.poker_oracle.strategy import decide, strength
from validator.cards import parse_card
from validator.compiler import load_game
from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.session import Session, summary
from validator.interpreter.poker.table import default_setup
from validator.interpreter.settings import read_settings

EXAMPLES = Path(__file__).parent.parent / "rulesubs" / "example"


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _cents(text: str) -> int:
    return int(Decimal(text) * 100)


@pytest.mark.slow  # every Poker example simulated
@pytest.mark.parametrize(
    ("game_id", "rulesub"),
    [
        ("poker-holdem", "poker-holdem.yaml"),
        ("poker-omaha-hi-lo-8", "poker-omaha-hi-lo-8.yaml"),
        ("house-razz", "house-razz.yaml"),
        ("poker-five-card-draw", None),
    ],
)
def test_chips_are_conserved_in_every_simulated_hand(game_id: str, rulesub: str | None) -> None:
    """contributions = awards + rake + Bad Beat contribution, hand by hand (§ 553.15,
    § 553.20(c)); over the session every chip bought in is on the table, raked, or in the
    Bad Beat fund (less what it paid out), or paid as time charges (§ 553.15(b)(3))."""
    game = load_game(game_id)
    setup = read_settings(game, EXAMPLES / rulesub) if rulesub else default_setup(game)
    session = Session(game, setup, 6, seed=11)
    bought = raked = timed = bb_in = bb_out = 0
    buttons = []
    for record in session.hands(300):
        s = record.played.settlement
        put_in = sum(p.contributed for p in record.played.players)
        awarded = sum(a.won + a.returned for a in s.seats)
        assert put_in == awarded + sum(s.rake.by_pot) + s.bad_beat_contribution
        bought += sum(record.buy_ins.values()) + sum(record.time_buy_ins.values())
        raked += s.rake.total
        timed += sum(record.time_charges.values())
        bb_in += s.bad_beat_contribution
        bb_out += record.bad_beat_paid
        buttons.append(record.button)
    assert sum(session.stacks.values()) + raked + timed + bb_in - bb_out == bought
    assert session.totals.hands == 300
    if game.definition.deal.first == "button_left":  # the button moves one seat a hand
        assert buttons[:7] == [6, 1, 2, 3, 4, 5, 6]


def test_the_same_seed_writes_the_same_log(tmp_path: Path) -> None:
    logs = []
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        log = tmp_path / f"{name}.jsonl"
        out = run_rulesub(
            "play",
            "poker-omaha",
            "--rounds",
            "40",
            "--seed",
            str(seed),
            "--quiet",
            "--log",
            str(log),
        )
        assert out.returncode == 0, out.stderr
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]
    first = json.loads(logs[0].splitlines()[0])
    assert first["hand"] == 1 and len(first["deck"]) == 52
    assert {"seats", "board", "rake", "pots", "bad_beat_contribution", "log"} <= first.keys()


def test_the_narration_prints_each_line_whole_on_a_narrow_console() -> None:
    """Each line of a Poker round's narration is printed whole, never wrapped: a line piped
    to a file or a search keeps its citation (``[§ 553.16(d)]``) in one piece."""
    from io import StringIO

    from rich.console import Console

    from validator.cli.poker_rounds import narrate

    game = load_game("poker-omaha-hi-lo-8")
    session = Session(game, default_setup(game), 6, 3)
    buffer = StringIO()
    out = Console(file=buffer, width=40, highlight=False, markup=False, soft_wrap=False)
    for record in session.hands(3):
        narrate(out, record)
    lines = buffer.getvalue().splitlines()
    assert max(len(line) for line in lines) > 40  # lines the width would have cut
    assert all(line.startswith(("hand ", "  ")) for line in lines), lines
    assert any("[§ 553.16(d)]" in line for line in lines)


def test_a_draft_play_marks_every_record_and_log_line_alike(tmp_path: Path) -> None:
    """Played under a submission with errors (--allow-findings), each round's JSON record
    and its line of the log carry the same DRAFT notes, and the line is that record, compact
    with its keys sorted: the log replays what was printed."""
    text = (EXAMPLES / "poker-holdem.yaml").read_text(encoding="utf-8")
    sub = tmp_path / "misspelt.yaml"
    sub.write_text("paytabels: {}\n" + text, encoding="utf-8")
    log = tmp_path / "draft.jsonl"
    args = ("--rulesub", str(sub), "--allow-findings", "--seed", "3", "--rounds", "3")
    out = run_rulesub("play", "poker-holdem", *args, "--log", str(log), "--format", "json")
    assert out.returncode == 0, out.stderr
    records = json.loads(out.stdout)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [r["hand"] for r in records] == [1, 2, 3] and len(lines) == 3
    for record, line in zip(records, lines, strict=True):
        assert record["draft"] and "paytabels" in record["draft"][0]
        assert line == json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":"))


def test_simulate_json_reports_rake_per_hand_and_hour_and_the_bad_beat_fund() -> None:
    out = run_rulesub(
        "simulate",
        "poker-holdem",
        "--rounds",
        "200",
        "--seats",
        "6",
        "--rulesub",
        str(EXAMPLES / "poker-holdem.yaml"),
        "--hands-per-hour",
        "40",
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"game", "hands", "hands_per_hour", "rake", "bad_beat", "invariant"} <= data.keys()
    rake = data["rake"]
    assert {"from_pots", "time_charges", "total", "per_hand", "per_hour"} <= rake.keys()
    total = Decimal(rake["total"])
    assert total > 0
    assert Decimal(rake["per_hand"]) == (total / 200).quantize(Decimal("0.0001"))
    assert Decimal(rake["per_hour"]) == (total * 40 / 200).quantize(Decimal("0.01"))
    bb = data["bad_beat"]
    assert bb["fund_start"] == "24318"  # the submission's current amount
    assert Decimal(bb["contributions"]) > 0
    assert Decimal(bb["fund_end"]) == (
        Decimal(bb["fund_start"]) + Decimal(bb["contributions"]) - Decimal(bb["payouts"])
    )
    assert data["invariant"] == {**data["invariant"], "hands_checked": 200, "held": True}


def test_time_charges_are_reported_by_the_clock_not_taken_from_pots() -> None:
    """§ 553.15(b)(3): $6 an hour per player assessed every 30 minutes; 300 hands at 30 an
    hour is 4 hours, 8 periods of $3 for each of 4 players = $96."""
    game = load_game("poker-omaha-hi-lo-8")
    setup = read_settings(game, EXAMPLES / "poker-omaha-hi-lo-8.yaml")
    session = Session(game, setup, 4, seed=2)
    for _ in session.hands(120):
        pass
    data = summary(session, 30)
    assert data["rake"]["from_pots"] == "0"
    assert data["rake"]["time_charges"] == "96"
    assert data["rake"]["per_hour"] == "24.00"


def test_bad_beat_rules_are_read_from_the_submission() -> None:
    """§ 553.20(b): $1 from each pot of $20 or more; four of a kind beaten; 50/25/25."""
    game = load_game("poker-holdem")
    rule = read_settings(game, EXAMPLES / "poker-holdem.yaml").rules.bad_beat
    assert rule is not None
    assert (rule.amount, rule.max, rule.min_pot, rule.fund) == (100, 100, 2000, 2_431_800)
    assert rule.at_least == "four_of_a_kind"
    shares = (rule.losing_share, rule.winning_share, rule.table_share)
    assert shares == (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))


def test_bad_beat_payouts_leave_the_fund_and_reach_the_stacks() -> None:
    game = load_game("poker-holdem")
    base = default_setup(game)
    rule = BadBeatRule(
        amount=100,
        max=100,
        min_pot=0,
        fund=100_000,
        at_least="two_pair",
        losing_share=Fraction(1, 2),
        winning_share=Fraction(1, 4),
        table_share=Fraction(1, 4),
    )
    session = Session(game, replace(base, rules=replace(base.rules, bad_beat=rule)), 6, seed=3)
    for _ in session.hands(200):
        pass
    t = session.totals
    assert t.bad_beat_hits > 0 and t.bad_beat_out > 0
    assert session.fund == 100_000 + t.bad_beat_in - t.bad_beat_out


def test_strength_reads_the_games_own_hands() -> None:
    holdem, razz, omaha8 = (
        load_game(g) for g in ("poker-holdem", "house-razz", "poker-omaha-hi-lo-8")
    )
    assert strength(holdem, _cards("AS KS"), _cards("2S 7S 9S")) == "premium"  # a flush
    assert strength(holdem, _cards("7D 2C"), _cards("AS KH 9S")) == "weak"
    assert strength(holdem, _cards("AS KD"), []) == "fair"  # Jack or better, unfinished
    assert strength(razz, _cards("AS 2D 3C 4H 6S"), []) == "premium"
    assert strength(razz, _cards("AS AD 3C"), []) == "weak"  # paired: no low
    # Omaha uses exactly two hole cards: one spade in hand makes no flush on a spade board
    board = _cards("2S 7S 9S JS")
    assert strength(omaha8, _cards("AS KD QC 5H"), board) != "premium"


def test_an_action_not_offered_falls_back_to_the_nearest() -> None:
    capped = Options(1, 200, False, True, None, None, 1000)
    assert decide(capped, "raise").kind == "call"
    free = Options(1, 0, True, False, (200, 200), None, 1000)
    assert decide(free, "fold").kind == "check"
    assert (decide(free, "bet").kind, decide(free, "bet").to) == ("bet", 200)


def test_an_unknown_strategy_is_a_usage_error() -> None:
    out = run_rulesub("simulate", "poker-holdem", "--rounds", "5", "--strategy", "maniac")
    assert out.returncode == 2
    assert "tight, loose" in out.stderr


def test_a_simulations_summary_speaks_in_the_chapters_words() -> None:
    """`simulate`'s Poker summary names the game as ch. 553 does (Hold'em, § 553.11), the
    rake in § 553.15(b)'s words ("the percentage rake"), and its mean a hand to the cent,
    as the par sheet does: never "poker-holdem", "rake (percentage)" nor "$3.6400"."""
    example = Path(__file__).parent.parent / "rulesubs" / "example" / "poker-holdem.yaml"
    out = run_rulesub(
        "simulate", "poker-holdem", "--rulesub", str(example), "--rounds", "60", "--seats", "6"
    ).stdout
    flat = " ".join(out.split())
    assert flat.startswith("Hold'em: 60 hands, 6 seats")
    assert "The percentage rake: $" in flat and "rake (percentage)" not in flat
    per_hand = flat.split(" a hand;")[0].rsplit(" ", 1)[1]
    assert per_hand.startswith("$") and len(per_hand.split(".")[1]) == 2
