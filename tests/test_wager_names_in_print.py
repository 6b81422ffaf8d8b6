"""What ``play``, ``settle``, ``simulate`` and ``par`` print for people names every wager,
meter and table as the chapter writes it (§ 641a.7(d): "the Ante Wager", "the Aces Up
Wager", "the Five Card Hand Bonus Wager"; § 641a.12(d)-(g): the progressive payouts),
and prints money with its dollar sign and thousands separators, never a game file's ids
(``aces_up``, ``five_card_hand_bonus/primary``). The JSON keeps the ids: it is read by
programs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import run_rulesub
from validator.compiler import load_game

SUBMISSION = "rulesubs/example/four-card-poker-five-card.yaml"


def _ids(game_id: str) -> set[str]:
    """Every wager's and paytable's id of the game that is no word of the chapters' (the
    ``ante``, ``play`` are): none may appear in a printed line."""
    d = load_game(game_id).definition
    return {i for i in set(d.wagers) | {t for _, t, _ in d.tables()} if "_" in i}


def _flat(text: str) -> str:
    """Printed text with its panels' borders and wrapping taken out."""
    return re.sub(r"[\s│]+", " ", text)


def _ids_printed(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}


def test_play_and_settle_name_the_wagers_and_meters_641a_7_d(tmp_path: Path) -> None:
    log = tmp_path / "fcp.jsonl"
    args = ("--rulesub", SUBMISSION, "--seats", "3", "--rounds", "3", "--seed", "5")
    played = run_rulesub("play", "four-card-poker", *args, "--log", str(log))
    assert played.returncode == 0, played.stderr
    narration = _flat(played.stdout.split("log:")[0])
    assert "Ante Wager" in narration and "Five Card Hand Bonus Wager (dealer's hand)" in narration
    assert "Five-Card Progressive, Mega jackpot meter: $50,000" in narration
    assert not _ids_printed(narration, _ids("four-card-poker"))
    settled = run_rulesub("settle", str(log), "--round", "2")
    assert settled.returncode == 0, settled.stderr
    assert "Five Card Hand Bonus meter: $10,000" in settled.stdout
    assert "Four Card Poker: settlement" in settled.stdout
    assert not _ids_printed(settled.stdout, _ids("four-card-poker"))
    for line in re.findall(r"│ ([^│]*Wager[^│]*)│", settled.stdout):
        assert line.strip()[0].isupper(), line  # the wager column: the chapter's names
    as_json = run_rulesub("settle", str(log), "--round", "2", "--format", "json")
    seat = json.loads(as_json.stdout)["seats"][0]
    assert "five_card_hand_bonus.dealer" in seat["wagers"]  # programs read the ids


def test_a_wager_result_prints_its_money_with_the_dollar_sign(tmp_path: Path) -> None:
    """A losing Ante of $25 reads ``-$25`` in its reason as in the table."""
    log = tmp_path / "fcp.jsonl"
    played = run_rulesub(
        "play", "four-card-poker", "--rulesub", SUBMISSION, "--rounds", "4", "--seed", "2",
        "--log", str(log), "--quiet",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    out = run_rulesub("settle", str(log), "--round", "1", "--format", "json")
    reasons = [w["reason"] for s in json.loads(out.stdout)["seats"] for w in s["wagers"].values()]
    assert reasons and all(re.search(r"(?:[-+]\$[\d,.]+|\$0) \[§", r) for r in reasons), reasons


def test_simulate_and_par_name_the_wagers_and_tables() -> None:
    ids = _ids("four-card-poker")
    sim = run_rulesub(
        "simulate", "four-card-poker", "--rulesub", SUBMISSION, "--rounds", "2000",
        "--workers", "1",
    )  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    assert "Aces Up Wager" in sim.stdout
    assert "Five-Card Progressive, Mega jackpot meter" in sim.stdout
    assert not _ids_printed(sim.stdout, ids)
    assert "folds and Envy Bonuses aside" in _flat(sim.stdout)  # § 641a.11(c)(5)(v)
    # the meters' means named as the signs name the meters (§ 641a.12(e)(1)), not by key
    assert "the meters' means (Mega jackpot meter $" in _flat(sim.stdout)
    assert "primary" not in sim.stdout and "mega $" not in sim.stdout
    flush = run_rulesub(
        "simulate", "high-card-flush", "--rulesub", "rulesubs/example/high-card-flush.yaml",
        "--rounds", "2000", "--workers", "1",
    )  # fmt: skip
    assert flush.returncode == 0, flush.stderr
    assert "Envy" not in flush.stdout  # ch. 678a has no Envy Bonus
    assert "the wager's other lines and folds aside" in _flat(flush.stdout)
    assert "the meters' means (Progressive meter $" in _flat(flush.stdout)  # § 678a.12(d)(3)
    par = run_rulesub("par", SUBMISSION)
    assert par.returncode == 0, par.stderr
    assert "== Base game (Ante Wager + Play Wager, per unit of the Ante Wager) ==" in par.stdout
    assert "Five-Card Envy Bonus: fixed sums paid" in par.stdout
    assert not _ids_printed(par.stdout, ids)


def test_simulate_names_the_options_fee_as_the_chapter_names_it_589_11_d_2() -> None:
    """§ 589.1, § 589.11(d)(2)(i): "an Options fee", a payment beside the wagers. Its row in
    ``simulate``'s table is named by the game file (the text summary once ended in a
    traceback on the fee's key), as is its share of the base game."""
    sim = run_rulesub(
        "simulate", "lunar-poker", "--rulesub", "rulesubs/example/lunar-poker.yaml",
        "--rounds", "300", "--seed", "3", "--workers", "1",
    )  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    flat = _flat(sim.stdout)
    assert re.search(r"Options fee \$[\d,]+\.\d\d -\$[\d,]+\.\d\d 100\.000", flat), flat
    assert "base game (Ante Wager, Bet Wager + Options fees)" in flat
    assert not _ids_printed(sim.stdout, _ids("lunar-poker") | {"options_fee"})


def test_a_table_not_priced_is_named_as_the_chapter_names_it_641a_11_c_5_v() -> None:
    """§ 641a.11(c)(5)(v)(A): the Four-Card Envy Bonus pays fixed sums for other players'
    hands, so no hold is given; the reason the diff prints names the table, never its id."""
    done = run_rulesub(
        "diff", "four-card-poker", "--wager", "four_card_envy_bonus", "--paytable", "A",
        "--to", "B", "--format", "markdown",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    flat = _flat(done.stdout)
    assert "Four-Card Envy Bonus: fixed sums paid for other players' hands" in flat
    assert not _ids_printed(done.stdout, _ids("four-card-poker"))


def test_the_six_card_bonus_card_is_named_as_the_chapter_names_it_641a_8_d() -> None:
    """§ 641a.8(d), § 641a.11(c)(8): "the Six Card Bonus card", dealt where a Six Card Bonus
    Wager is placed: the game file names it, and the narration and games show read it."""
    played = run_rulesub("play", "four-card-poker", "--rounds", "1", "--seats", "2")
    assert played.returncode == 0, played.stderr
    narration = _flat(played.stdout)
    assert "deal 1 as the Six Card Bonus card" in narration
    assert re.search(r"Six Card Bonus card: [2-9TJQKA][SHDC]\b", narration)
    shown = _flat(run_rulesub("games", "show", "four-card-poker").stdout)
    said = "Dealt as the Six Card Bonus card: 1 card, when a Six Card Bonus Wager is placed"
    assert said in shown
