"""`rulesub odds` as a compliance officer runs it: the contract of the issue."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import run_rulesub
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["odds", *args], env={"COLUMNS": "200"}, catch_exceptions=False)


def test_json_contract_cold() -> None:
    """A fresh interpreter: one object with the contract's fields, hold in percent."""
    done = run_rulesub(
        "odds",
        "wpt-heads-up-holdem",
        "--wager",
        "trips_plus",
        "--paytable",
        "A",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["game"] == "wpt-heads-up-holdem"
    assert data["wager"] == "trips_plus" and data["paytable"] == "A"
    assert data["hold_percent"] == pytest.approx(0.740232, abs=1e-6)
    assert data["hold_exact"] == "247579/33446140"
    assert 0 < data["hit_frequency"] < 1
    first = data["categories"][0]
    assert {"category", "combinations", "probability", "payout"} <= set(first)
    assert first == first | {"category": "royal_flush", "combinations": 4324, "payout": "100 to 1"}
    assert data["approved_hold"]["inside"] is False


def test_all_is_sorted_by_hold() -> None:
    result = invoke("high-card-flush", "--wager", "flush_bonus", "--all", "--format", "json")
    data = json.loads(result.stdout)
    assert [d["paytable"] for d in data][:1] == ["B"] and len(data) == 8
    holds = [d["hold_percent"] for d in data]
    assert holds == sorted(holds)


def test_every_wager_of_the_game() -> None:
    result = invoke("four-card-poker", "--format", "json")
    data = json.loads(result.stdout)
    tables = {d["table"] for d in data}
    assert {"ante_bonus", "aces_up", "six_card_bonus", "four_card_progressive"} <= tables
    assert "four_card_envy_bonus" not in tables
    text = invoke("four-card-poker").stdout
    assert "Not priced" in text and "four_card_envy_bonus" in text


def test_ante_names_its_bonus_table() -> None:
    """`--wager ante`: the Ante Bonus (§ 641a.12(b)) in Four Card Poker, the instant payout
    (§ 589.12(a)) in Lunar Poker."""
    fcp = json.loads(invoke("four-card-poker", "--wager", "ante", "--format", "json").stdout)
    assert fcp["table"] == "ante_bonus" and fcp["basis"] == "bonus"
    lunar = json.loads(
        invoke("lunar-poker", "--wager", "ante", "--paytable", "h", "--format", "json").stdout
    )
    assert lunar["table"] == "instant_payout" and lunar["paytable"] == "H"


def test_meter_option_is_used_and_said() -> None:
    seed = json.loads(
        invoke(
            "four-card-poker",
            "--wager",
            "four_card_progressive",
            "--paytable",
            "A",
            "--format",
            "json",
        ).stdout
    )
    given = json.loads(
        invoke(
            "four-card-poker",
            "--wager",
            "four_card_progressive",
            "--paytable",
            "A",
            "--meter",
            "$20,000",
            "--format",
            "json",
        ).stdout
    )
    assert seed["meter_source"] == "seed" and given["meter_source"] == "--meter"
    assert given["hold_percent"] < seed["hold_percent"]
    text = invoke(
        "four-card-poker", "--wager", "four_card_progressive", "--paytable", "A", "--meter", "20000"
    ).stdout
    assert "$20,000" in text and "(the meter's amount priced)" in text


def test_meters_hands_and_game_are_named_as_people_read_them() -> None:
    """§ 678a.12(d)(3): the one meter of High Card Flush's Progressive Jackpot is its
    progressive meter, at least $30,000; § 641a.12(e)(1): Four Card Poker's Five-Card
    Progressive has a Mega, a Major and a Minor jackpot. The text names each so, never by
    the game file's key; the JSON keeps the key a program reads."""
    text = invoke("high-card-flush", "--wager", "progressive_jackpot", "--paytable", "A").stdout
    assert "Meter: Progressive meter $30,000 on a $1 wager (the least seed the chapter allows)" in (
        text
    )
    assert "primary" not in text
    text = invoke("four-card-poker", "--wager", "five_card_progressive", "--paytable", "B").stdout
    assert "Meter: Mega jackpot meter $10,000 on a $1 wager (the seed)" in text
    assert "Meter: Major jackpot meter" in text and "mega meter" not in text
    # the hand in words, and the game by its name (§ 641a.11(c)(5): the five-card hand)
    assert "Hand: Five-card Poker hand, the player's cards; 5 cards from one deck" in text
    assert "Four Card Poker, Five-Card Progressive Payout Wager" in text
    assert "player_five" not in text and "four-card-poker" not in text
    data = json.loads(
        invoke(
            "high-card-flush",
            "--wager",
            "progressive_jackpot",
            "--paytable",
            "A",
            "--format",
            "json",
        ).stdout
    )
    assert [m["meter"] for m in data["meters"]] == ["primary"]


def test_negative_hold_is_shown_prominently() -> None:
    """§ 589.12(b) as printed gives the player the edge."""
    out = invoke("lunar-poker", "--wager", "super", "--paytable", "A").stdout
    assert "NEGATIVE HOLD -48.8037%" in out
    data = json.loads(
        invoke("lunar-poker", "--wager", "super", "--paytable", "A", "--format", "json").stdout
    )
    assert data["negative_hold"] is True and data["hold_percent"] < 0


def test_boards_range_shown_and_flagged() -> None:
    out = invoke("wpt-heads-up-holdem", "--wager", "trips_plus", "--all").stdout
    assert "0.75%–4.34%: OUTSIDE" in out and "0.75%–4.34%: inside" in out
    assert "info:" not in out  # one table inside: no finding about the published range


def test_published_straight_flush_bonus_range_is_a_finding_with_the_ace_low_holds() -> None:
    """§ 678a.6(a), (d): the ace high only, no Straight Flush Bonus table lies in the
    preamble's 6.6%-13.0%; `odds` says so as a finding about the published figures, with
    the holds were A-2-3 counted (C and D would lie inside, A above, B below)."""
    args = ("high-card-flush", "--wager", "straight_flush_bonus")
    out = " ".join(invoke(*args, "--all").stdout.split())
    assert "6.6%–13.0%: inside" not in out
    assert "info: No Straight Flush Bonus paytable's exact hold lies in the Board's stated" in out
    assert "A 20.5082%, B 14.2832%, C 15.5765%, D 15.2485%" in out
    assert "they would be A 13.0864%, B 6.2673%, C 7.7574%, D 7.3885% (C, D inside" in out
    data = json.loads(invoke(*args, "--paytable", "C", "--format", "json").stdout)
    other = data["approved_hold"]["other_reading"]
    assert data["approved_hold"]["inside"] is False
    assert (other["hold_exact"], other["inside"]) == ("1297279/16723070", True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("four-card-pokr",), "did you mean"),
        (("four-card-poker", "--wager", "aces_upp"), "did you mean 'aces_up'"),
        (("four-card-poker", "--wager", "aces_up", "--paytable", "Z"), "no paytable 'Z'"),
        (("four-card-poker", "--wager", "ante", "--paytable", "A"), "single table"),
        (("four-card-poker", "--wager", "four_card_envy_bonus"), "other players"),
        (("wpt-heads-up-holdem", "--wager", "pocket_bonus"), "§ 677a.12(d) is missing"),
        (("four-card-poker", "--wager", "aces_up", "--meter", "lots"), "--meter"),
    ],
)
def test_bad_requests_exit_2(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_odds_of_a_submission_price_its_meters_and_wager_amount() -> None:
    """``odds --rulesub`` prices the Progressive Jackpot (§ 678a.12(d)) at the submission's
    meter on its $5 wager, as the par sheet and the review pack do, not at $1: the same
    exact hold as the amounts given on the command line, and a given amount still wins."""

    example = Path(__file__).parent.parent / "rulesubs" / "example" / "high-card-flush.yaml"
    base = ("odds", "high-card-flush", "--wager", "progressive_jackpot", "--format", "json")
    (by_file,) = json.loads(run_rulesub(*base, "--rulesub", str(example)).stdout)  # its letter A
    table_a = (*base, "--paytable", "A", "--meter", "30000")
    stated = json.loads(run_rulesub(*table_a, "--wager-amount", "5").stdout)
    one = json.loads(run_rulesub(*table_a, "--wager-amount", "1").stdout)
    assert by_file["hold_exact"] == stated["hold_exact"] != one["hold_exact"]
    given = run_rulesub(*base, "--rulesub", str(example), "--wager-amount", "1")
    assert json.loads(given.stdout)[0]["hold_exact"] == one["hold_exact"]


def test_a_progressives_stated_hold_is_said_to_move_with_its_meter() -> None:
    """The preamble's 23% for High Card Flush's Progressive Jackpot is a hold at some meter
    it does not state: `odds` says the hold moves with the meter, as the par sheet does,
    rather than OUTSIDE (which a table of fixed odds outside its range gets)."""
    out = run_rulesub(
        "odds", "high-card-flush", "--wager", "progressive_jackpot", "--paytable", "A"
    )
    assert "moves with the meter" in " ".join(out.stdout.split())
    fixed = run_rulesub(
        "odds", "high-card-flush", "--wager", "straight_flush_bonus", "--paytable", "C"
    )
    assert "OUTSIDE" in fixed.stdout


def test_a_paytable_the_submission_does_not_select_is_priced_at_its_own_seed() -> None:
    """§ 641a.12(d)(3) fixes the Four-Card Progressive meter's seed per paytable: $5,000 for
    1 on paytable A, $1,000 on B. The example submission selects B; `odds --paytable A`
    under it prices A at A's seed, as without the submission and as the par sheet's every
    paytable does, never at B's. B is priced at the submission's meter, said to be so."""
    from validator import PROJECT_ROOT

    sub = str(PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml")
    args = ("four-card-poker", "--wager", "four_card_progressive", "--format", "json")

    def priced(*more: str) -> dict:
        return json.loads(invoke(*args, *more).stdout)

    under_a, plain_a = priced("--paytable", "A", "--rulesub", sub), priced("--paytable", "A")
    assert under_a["meters"] == plain_a["meters"]
    assert [m["amount"] for m in under_a["meters"]] == ["5000"]
    assert under_a["hold_exact"] == plain_a["hold_exact"]
    under_b = priced("--paytable", "B", "--rulesub", sub)
    assert [(m["amount"], m["source"]) for m in under_b["meters"]] == [("1000", "submission")]
    assert under_b["meter_source"] == "submission"
    text = invoke(*args[:3], "--rulesub", sub).stdout
    assert "(as the Rules Submission states it)" in text and "--meter" not in text


@pytest.mark.parametrize(
    "example", ["four-card-poker.yaml", "four-card-poker-five-card.yaml", "high-card-flush.yaml"]
)
def test_a_submissions_odds_price_the_tables_its_par_sheet_prices(example: str) -> None:
    """``odds --rulesub`` prices "the paytables it selects": the tables of the wagers a round
    at that table plays (a base wager, or an optional one the submission offers, § 641a.12
    "selected … in its Rules Submission"), the same tables as the submission's par sheet,
    not every letter of a wager the casino does not offer."""
    sub = PROJECT_ROOT / "rulesubs" / "example" / example
    game = next(x.split(":")[1].strip() for x in sub.read_text().splitlines() if x[:5] == "game:")
    odds = json.loads(run_rulesub("odds", game, "--rulesub", str(sub), "--format", "json").stdout)
    par = json.loads(run_rulesub("par", str(sub), "--format", "json").stdout)
    assert [o["table"] for o in odds] == list(par["wagers"])
    assert len({o["table"] for o in odds}) == len(odds)  # one letter each: the selected one
    assert [o["paytable"] for o in odds] == [w.get("paytable") for w in par["wagers"].values()]
    text = run_rulesub("odds", game, "--rulesub", str(sub)).stdout
    said = text.split("Not priced:")[1] if "Not priced:" in text else ""
    assert re.findall(r"\(([a-z][a-z0-9_]*)\):", said) == list(par["not_priced"])


def test_every_table_names_the_meter_each_paytable_is_priced_at() -> None:
    """§ 641a.12(d)(3) fixes the Four-Card Progressive's seed by paytable: $5,000 for 1 with
    table A, $1,000 for 1 with table B. `odds --all` prices each at its own seed and says
    which meter went with which paytable, never a list of seeds without their tables."""
    text = " ".join(invoke("four-card-poker", "--all").stdout.split())
    assert (
        "Meter, Four-Card Progressive paytable A: Progressive meter $5,000 on a $1 wager "
        "(the seed)" in text
    )
    assert (
        "Meter, Four-Card Progressive paytable B: Progressive meter $1,000 on a $1 wager "
        "(the seed)" in text
    )
    assert "Meter: " not in text


def test_a_hand_counted_otherwise_under_one_paytable_says_so_641a_12_h() -> None:
    """§ 641a.12(h): Paytable E pays a six-card royal flush on rows of its own (200,000 and
    20,000 to 1), so under E a Royal flush is 184 hands, under A to D 188. The side-by-side
    table's one Combinations column said 188 beside E's 1,000 to 1."""
    out = invoke("four-card-poker", "--wager", "six_card_bonus", "--all").stdout
    royal = next(line for line in out.splitlines() if "│ Royal flush " in line)
    assert "188 (E: 184)" in royal
    straight = next(line for line in out.splitlines() if "│ Straight flush " in line)
    assert "1,656 │" in straight and "(" not in straight


def test_a_reseed_of_nothing_is_written_as_the_chapter_prints_it_641a_12_g_4() -> None:
    """§ 641a.12(g)(4) prints the Five Card Hand Bonus meter's "Seed $10,000 for 1" and
    "Reseed $0": `games show` and `validate` wrote "$0 for 1", an amount per unit of
    nothing. Nothing is "$0"; an amount is "for 1"."""
    from validator.cli import app as cli
    from validator.money import format_per_unit

    assert format_per_unit(Decimal(0)) == "$0"
    assert format_per_unit(Decimal(10000)) == "$10,000 for 1"
    shown = runner.invoke(cli, ["games", "show", "four-card-poker"], env={"COLUMNS": "200"})
    assert "$0 for 1" not in shown.stdout and "$10,000 for 1" in shown.stdout
    reseed = next(
        line for line in shown.stdout.splitlines() if "Reseed (primary)" in line and "$0" in line
    )
    assert " $0 " in reseed


def test_the_boards_range_is_printed_with_its_own_digits() -> None:
    """The final-form rulemaking's preamble: a Straight Flush Bonus hold "between 6.6% and
    13.0%". The figure read back is 13%, printed "6.6%–13%" in every document: both ends
    are printed to the same places, zeros added, never a digit cut."""
    from validator.model.notation import stated_range

    assert stated_range("6.6%", "13%") == "6.6%–13.0%"
    assert stated_range("0.75%", "4.34%") == "0.75%–4.34%"
    assert stated_range("23%", "23%") == "23%"
    notes = run_rulesub(
        "validate",
        "--show-regulation-notes",
        str(PROJECT_ROOT / "rulesubs/example/high-card-flush.yaml"),
    ).stdout
    assert "the Board's stated 6.6%–13.0%: A 20.5082%" in notes
