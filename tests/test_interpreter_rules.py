"""The pieces of the interpreter: the table's settings, the game file's cross-references,
meters, the deal order, the second combination, strategies."""

from __future__ import annotations

import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import GAMES, cards
from validator.compiler import load_game, load_game_file
from validator.errors import ConfigError
from validator.interpreter.config import MeterConfig, TableConfig
from validator.interpreter.dealing import deal_order
from validator.interpreter.meters import Meter
from validator.interpreter.rules import Rules
from validator.interpreter.second_combination import second_combination
from validator.interpreter.settings import read_settings
from validator.model.procedure import DealStep
from validator.model.registry import GameFileError


def test_defaults_offer_what_the_chapter_prints_in_full() -> None:
    """Pocket Bonus (table missing, § 677a.12(d)) and the High Card Flush Progressive Jackpot
    (rate stated by the certificate holder, § 678a.12(d)(3)) are not offered by default; the
    Four Card Poker progressives are, seeded as § 641a.12(d)(3) fixes for a $1 wager."""
    wpt = TableConfig.defaults(load_game("wpt-heads-up-holdem"))
    assert wpt.offered == {"trips_plus"}
    hcf = TableConfig.defaults(load_game("high-card-flush"))
    assert "progressive_jackpot" not in hcf.offered
    fcp = TableConfig.defaults(load_game("four-card-poker"))
    meter = fcp.progressives["four_card_progressive"].meters["primary"]
    assert (meter.seed, meter.increment) == (Decimal(5000), Fraction(29, 100))
    assert fcp.optional_payouts == set(), "a payout the casino 'may pay' is not paid by default"


def test_a_submission_sets_the_table(tmp_path: Path) -> None:
    f = tmp_path / "fcp.yaml"
    f.write_text(
        "rulesub: 1\ngame: four-card-poker\ntable: {positions: 5, min_wager: 25, max_wager: 500}\n"
        "offered: [four_card_progressive, magic_card_lucky_bonus]\n"
        "paytables: {aces_up: C, four_card_progressive: B, four_card_envy_bonus: B}\n"
        "progressives:\n  four_card_progressive:\n    wager_amount: 5\n"
        "    meters: {primary: {seed: 5000, reseed: 5000, increment: 25%, reserve_increment: 5%}}\n"
    )
    g = load_game("four-card-poker")
    cfg = read_settings(g, f)
    assert (cfg.positions, cfg.min_wager, cfg.max_wager) == (5, Decimal(25), Decimal(500))
    assert cfg.offered == {"four_card_progressive"}
    assert cfg.optional_payouts == {"magic_card_lucky_bonus"}
    assert cfg.letter(g, "aces_up") == "C" and cfg.letter(g, "four_card_envy_bonus") == "B"
    p = cfg.progressives["four_card_progressive"]
    assert p.wager_amount == Decimal(5)
    assert p.meters["primary"] == MeterConfig(
        Decimal(5000), Decimal(5000), Fraction(1, 4), Fraction(1, 20)
    )
    rules = Rules(g, cfg)
    assert str(rules.rows("aces_up")["two_pair"]) == "3 to 1"  # Paytable C
    envy = rules.rows("four_card_envy_bonus", Decimal(5))
    assert envy is not None and str(envy["four_of_a_kind"]) == "$125"


def test_a_submission_value_that_cannot_be_used_points_at_its_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("rulesub: 1\ngame: four-card-poker\npaytables: {aces_up: Z}\n")
    with pytest.raises(ConfigError) as e:
        read_settings(load_game("four-card-poker"), f)
    assert f"{f}:3:" in str(e.value) and "no paytable 'Z'" in str(e.value)


def test_a_game_file_naming_what_it_does_not_declare_is_refused(tmp_path: Path) -> None:
    games = tmp_path / "games"
    shutil.copytree(GAMES, games)
    path = games / "four-card-poker.yaml"
    text = path.read_text()
    assert "    aces_up:\n      wager: aces_up\n" in text
    path.write_text(
        text.replace(
            "    aces_up:\n      wager: aces_up\n", "    aces_up:\n      wager: aces_upp\n"
        )
    )
    g = load_game_file(path, games)
    with pytest.raises(GameFileError) as e:
        Rules(g, TableConfig.defaults(g))
    line = text[: text.index("    aces_up:\n      wager: aces_up\n")].count("\n") + 2
    assert f":{line}:" in str(e.value) and "no wager 'aces_upp'" in str(e.value)


def test_a_meter_pays_to_the_cent_and_resets_from_its_reserve() -> None:
    m = Meter(
        "t",
        "primary",
        MeterConfig(Decimal(100), Decimal(100), Fraction(1, 4), Fraction(1, 20)),
        Decimal(100),
    )
    m.contribute(Decimal(3))  # 0.75 to the meter, 0.15 to the reserve
    assert (m.amount, m.reserve) == (Decimal("100.75"), Decimal("0.15"))
    assert m.pay(Fraction(1, 10)) == Decimal("10.07")  # 10.075, rounded down to the cent
    assert m.amount == Decimal("90.68")
    assert m.pay(Fraction(1), ways=3) == Decimal("30.22")  # 90.68 / 3 = 30.2266…
    # reset to the reseed: 0.15 from the reserve, 99.85 funded; the undivided 0.02 stays
    assert (m.amount, m.reserve, m.funded) == (Decimal("100.02"), Decimal(0), Decimal("99.85"))
    start = Decimal(100)
    assert m.amount + m.reserve - start == m.increments + m.reserve_increments + m.funded - m.paid


def test_cards_are_dealt_one_at_a_time_around_the_table() -> None:
    """§ 641a.8(d): one card at a time to each player and to the dealer until each player has
    five cards and the dealer six; the dealer's fifth and sixth cards consecutively."""
    step = DealStep(step="deal", cards={"player": 5, "dealer": 6}, cite="§ 641a.8(d)")
    order = deal_order(step, [1, 2])
    assert order[:3] == [("player", 1), ("player", 2), ("dealer", 0)]
    assert order[-2:] == [("dealer", 0), ("dealer", 0)]
    assert len(order) == 16
    burn = DealStep(step="deal", cards={"community": 3}, burn=1, cite="§ 677a.11(c)")
    assert deal_order(burn, [1]) == [("burn", 0)] + [("community", 0)] * 3


def test_second_combination_as_the_chapter_reads() -> None:
    """§ 589.11(e)(1)(ii): a second combination needs a card outside the winning one."""
    g = load_game("lunar-poker")
    ev = g.evaluator("player_five")
    rows = g.definition.wagers["bet"].tables["bet"].paytable
    assert rows is not None

    def second(text: str) -> str | None:
        c = cards(text)
        cat = second_combination(ev, c, ev.best(c), rows)
        return cat.id if cat else None

    assert second("AS AH KD 8C 9S") == "ace_king"  # the chapter's example
    assert second("AS AH KD KC 9S") is None  # two pair: the pair and A-K are inside it
    assert second("5H 6C 7D 8S 9H 9C") == "straight"  # a sixth card makes a second straight
    assert second("2H 7H 9H JH 3H") is None  # a flush uses all five cards


def test_a_round_must_fit_in_one_deck() -> None:
    lunar = load_game("lunar-poker")
    rules = Rules(lunar, TableConfig.defaults(lunar))
    # five cards each, an exchange of up to five, the dealer's five and a replacement
    assert rules.max_cards(4) == 4 * 10 + 6 and rules.max_cards(5) == 56
    assert rules.max_seats() == 4


def test_strategies_are_named_and_defaulted() -> None:
    g = load_game("four-card-poker")
    rules = Rules(g, TableConfig.defaults(g))
    assert rules.strategy(None).name.startswith("Expert")
    assert "Shuffle Master" in rules.strategy("basic").name
    with pytest.raises(KeyError, match="its strategies are: expert, basic"):
        rules.strategy("optimal")


def test_the_steps_of_one_turn_go_round_the_table_one_way() -> None:
    """Steps ``in_turn`` are one turn each player takes in order (§ 589.11(d)); a turn
    whose steps went from the dealer's left and from the right is no order at all."""
    import copy

    from validator.model.game import GameDefinition

    data = copy.deepcopy(load_game("lunar-poker").located.data)
    turn = [s for s in data["procedure"] if s.get("in_turn")]
    assert len(turn) == 4
    GameDefinition.model_validate(data)
    turn[1]["order"] = "from_dealer_right"
    with pytest.raises(ValueError, match="the steps of one turn"):
        GameDefinition.model_validate(data)
