"""Each check of a Rules Submission, pinned to its section with a case worked from the text.

Every test starts from a shipped example that passes and changes what the rule is about, so
that the finding (or its absence) can only come from that rule.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.checks import validate_file
from validator.checks.facts import facts_for
from validator.checks.hold import custom_hold
from validator.cli import app
from validator.model.notation import parse_payout

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
DELETE = object()
HAS_ODDS = importlib.util.find_spec("validator.odds") is not None
needs_odds = pytest.mark.skipif(not HAS_ODDS, reason="validator.odds is not importable")


def variant(tmp_path: Path, example: str, changes: dict[str, Any], name: str = "s.yaml") -> Path:
    """The example with values set (or deleted) at JSON pointers, written to a new file."""
    yaml = YAML()
    data = yaml.load((EXAMPLES / f"{example}.yaml").read_text(encoding="utf-8"))
    for pointer, value in changes.items():
        parts = pointer.strip("/").split("/")
        node = data
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        if value is DELETE:
            del node[parts[-1]]
        else:
            node[parts[-1]] = value
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as f:
        yaml.dump(data, f)
    return path


def codes(path: Path) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for f in validate_file(path).findings:
        out.setdefault(f.code, []).append(f)
    return out


def errors(path: Path) -> set[str]:
    return {f.code for f in validate_file(path).findings if f.severity == "error"}


# -- the examples -------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_passes(path: Path) -> None:
    result = validate_file(path)
    assert result.submission is not None
    assert [f for f in result.findings if f.severity == "error"] == []


def test_four_card_poker_example_is_clean() -> None:
    """The contract's own example, less its payout limit (ch. 641a provides none)."""
    assert validate_file(EXAMPLES / "four-card-poker.yaml").findings == []


# -- every game ---------------------------------------------------------------------------


def test_the_game_must_exist(tmp_path: Path) -> None:
    found = codes(variant(tmp_path, "four-card-poker", {"/game": "four-card-pokr"}))
    assert set(found) == {"rulesub/unknown-game"}
    assert "did you mean 'four-card-poker'" in found["rulesub/unknown-game"][0].message


def test_required_fields_are_reported_at_their_mapping(tmp_path: Path) -> None:
    path = variant(tmp_path, "lunar-poker", {"/dealing/shuffler": DELETE, "/facility": DELETE})
    found = codes(path)
    assert {f.path for f in found["rulesub/missing-key"]} == {"/dealing/shuffler", "/facility"}
    (shuffler,) = [f for f in found["rulesub/missing-key"] if f.path == "/dealing/shuffler"]
    dealing_line = path.read_text().splitlines().index("dealing:") + 1
    assert shuffler.line == dealing_line


@pytest.mark.parametrize(
    ("game", "most", "cite"),
    [
        ("four-card-poker", 7, "§ 641a.2(a)"),
        ("lunar-poker", 5, "§ 589.2(a)"),
        ("wpt-heads-up-holdem", 6, "§ 677a.2(a)"),
        ("high-card-flush", 6, "§ 678a.2(a)"),
    ],
)
def test_positions_at_most_the_chapters_maximum(
    tmp_path: Path, game: str, most: int, cite: str
) -> None:
    assert f"{game}/max-positions" not in codes(variant(tmp_path, game, {"/table/positions": most}))
    found = codes(variant(tmp_path, game, {"/table/positions": most + 1}, "over.yaml"))
    (finding,) = found[f"{game}/max-positions"]
    assert finding.cite == cite
    assert finding.path == "/table/positions"
    assert f"is {most + 1}; it must be at most {most}" in finding.message


def test_two_decks_only_with_an_automated_shuffler(tmp_path: Path) -> None:
    """§ 641a.3(b): two decks "if an automated card shuffling device is utilized"."""
    manual = {"/dealing/shuffler": "manual", "/dealing/decks": 2}
    assert errors(variant(tmp_path, "four-card-poker", manual)) == {
        "four-card-poker/two-decks-need-shuffler"
    }
    one_deck = {"/dealing/shuffler": "manual", "/dealing/decks": 1}
    assert errors(variant(tmp_path, "four-card-poker", one_deck, "one.yaml")) == set()
    three = {"/dealing/decks": 3}
    assert errors(variant(tmp_path, "four-card-poker", three, "three.yaml")) == {
        "four-card-poker/max-decks"
    }


def test_dealing_from_the_hand_only_with_an_automated_shuffler(tmp_path: Path) -> None:
    """§ 677a.9(a)(1): "An automated shuffling device shall be used to shuffle the cards"."""
    hand = {
        "/dealing/methods": ["hand"],
        "/dealing/decks": 1,
        "/dealing/change_every_hours": {"hand": 4},
    }
    assert errors(variant(tmp_path, "wpt-heads-up-holdem", hand)) == set()
    manual = {**hand, "/dealing/shuffler": "manual"}
    assert errors(variant(tmp_path, "wpt-heads-up-holdem", manual, "m.yaml")) == {
        "wpt-heads-up-holdem/hand-dealing-needs-shuffler"
    }


@pytest.mark.parametrize(
    ("methods", "hours", "bad"),
    [
        (["hand"], {"hand": 4}, False),
        (["hand"], {"hand": 5}, True),  # § 641a.3(c)(1): four hours by hand
        (["manual_shoe"], {"manual_shoe": 8}, False),
        (["automated_shoe"], {"automated_shoe": 9}, True),  # (c)(2): eight from a shoe
        (["hand", "manual_shoe"], {"hand": 4}, True),  # a method used with no interval
        (["manual_shoe"], {"manual_shoe": 8, "hand": 12}, False),  # a method not used
    ],
)
def test_deck_change_interval(
    tmp_path: Path, methods: list[str], hours: dict[str, int], bad: bool
) -> None:
    path = variant(
        tmp_path,
        "four-card-poker-five-card",
        {"/dealing/methods": methods, "/dealing/change_every_hours": hours},
    )
    assert ("four-card-poker/deck-change-interval" in errors(path)) is bad


@pytest.mark.parametrize(
    ("example", "method", "limit"),
    [
        ("four-card-poker-five-card", "manual_shoe", 8),  # § 641a.3(c)(2)
        ("high-card-flush", "hand", 4),  # § 678a.3(c)(1)
        ("lunar-poker", "automated_shoe", 8),  # § 589.3(c)(2)
        ("poker-holdem", "hand", 6),  # § 553.3(b): "at least every 6 hours"
    ],
)
def test_decks_changed_more_often_than_each_hour_comply(
    tmp_path: Path, example: str, method: str, limit: int
) -> None:
    """ "Shall be changed at least every" N hours: any shorter interval complies, whole hours
    or not (7.5 hours, half an hour), and one a half hour over the limit does not. The
    hours are read exactly as written, and a diff shows them as hours, never as dollars."""
    game = example.removesuffix("-five-card")

    def every(hours: float, name: str) -> Path:
        changes: dict[str, Any] = {"/dealing/change_every_hours": {method: hours}}
        if game != "poker-holdem":  # the Poker example deals by hand already
            changes["/dealing/methods"] = [method]
        return variant(tmp_path, example, changes, name=name)

    for hours, bad in ((0.5, False), (limit - 0.5, False), (limit + 0.5, True)):
        path = every(hours, f"{hours}.yaml")
        assert "rulesub/bad-value" not in codes(path), hours
        assert (f"{game}/deck-change-interval" in errors(path)) is bad, hours
    old, new = every(limit, "old.yaml"), every(0.5, "new.yaml")
    shown = CliRunner().invoke(app, ["diff", str(old), str(new), "--format", "json"])
    (said,) = [c for c in json.loads(shown.stdout)["changes"] if c["path"].endswith(method)]
    assert (said["old"], said["new"]) == (str(limit), "0.5")


def test_an_interval_of_no_hours_is_refused_once_not_called_unstated(tmp_path: Path) -> None:
    """§ 641a.3(c)(2): an interval of 0 hours is refused as a value; it was stated, so the
    interval check does not also say "no interval is stated"."""
    path = variant(
        tmp_path,
        "four-card-poker-five-card",
        {"/dealing/methods": ["manual_shoe"], "/dealing/change_every_hours": {"manual_shoe": 0}},
    )
    assert set(codes(path)) == {"rulesub/bad-value"}


def test_a_deck_change_interval_is_said_by_how_the_cards_are_dealt_641a_3_c_2(
    tmp_path: Path,
) -> None:
    """§ 641a.3(c)(2): cards dealt "from a manual dealing shoe" are changed at least every 8
    hours. The finding says how the cards are dealt as the chapter does, never the file's
    word for it (``manual_shoe``), and what would comply."""
    path = variant(
        tmp_path,
        "four-card-poker-five-card",
        {"/dealing/methods": ["manual_shoe"], "/dealing/change_every_hours": {"manual_shoe": 12}},
    )
    (found,) = codes(path)["four-card-poker/deck-change-interval"]
    assert found.message.endswith(
        "the cards dealt from a manual dealing shoe: every 12 hours, longer than 8"
    )
    assert "manual_shoe" not in found.message
    assert (
        found.remedy
        == "the cards changed at least every 8 hours when dealt from a manual dealing shoe"
    )
    unstated = variant(
        tmp_path,
        "four-card-poker-five-card",
        {"/dealing/methods": ["manual_shoe"], "/dealing/change_every_hours": {"hand": 4}},
        name="t.yaml",
    )
    (missing,) = codes(unstated)["four-card-poker/deck-change-interval"]
    assert "no interval is stated for the cards dealt from a manual dealing shoe" in missing.message


def test_a_house_table_silent_on_raises_is_told_the_rule_it_is_played_by(tmp_path: Path) -> None:
    """The house 7CS Procedures set no raise cap (§ Wagers (4) binds a wager "within ... the
    minimum and maximum wager limits"); a submission silent on its rule is played with
    three raises a betting round. validate says so (info: nothing requires the rule to be
    stated), and says nothing where the submission states one."""
    silent = variant(tmp_path, "house-razz", {"/betting": DELETE})
    (found,) = codes(silent)["house-razz/raise-cap-stated"]
    assert found.severity == "info"
    assert "three raises a betting round" in found.message
    assert "house-razz/raise-cap-stated" not in codes(EXAMPLES / "house-razz.yaml")
    stated = variant(tmp_path, "house-razz", {"/betting": {"max_raises": "unlimited"}}, "u.yaml")
    assert "house-razz/raise-cap-stated" not in codes(stated)


def test_a_house_table_silent_on_its_forced_bet_is_told_the_amount_it_is_dealt(
    tmp_path: Path,
) -> None:
    """7CS Procedures § Seven-Card Stud (3), (4): a forced bet opens the first betting
    round, its amount left to the room. A submission silent on it is warned, and told the
    amount its rounds are dealt: half the lower limit's bet in whole dollars ($2 at $5-$10,
    half of $5 rounded down)."""
    from validator.compiler import load_game
    from validator.interpreter.settings import read_settings

    silent = variant(tmp_path, "house-razz", {"/forced_bet": DELETE})
    (found,) = codes(silent)["house-razz/forced-bet-stated"]
    assert found.severity == "warning"
    assert "half the lower limit's bet, in whole dollars" in found.message
    setup = read_settings(load_game("house-razz"), silent)
    assert setup.stakes.forced_bet == 200  # cents: $2


def test_a_quoted_date_that_is_no_day_says_so(tmp_path: Path) -> None:
    """February 30 written in quotes is refused as no date, not as text "not like a date"."""
    path = variant(tmp_path, "four-card-poker", {"/effective": "2027-02-30"})
    (found,) = codes(path)["rulesub/wrong-type"]
    assert found.message == "/effective: '2027-02-30' is no date (day is out of range for month)"


def test_a_submission_written_as_json_reads_its_dates(tmp_path: Path) -> None:
    """JSON is YAML too, and has no dates: `"effective": "2027-01-01"` (as the editor schema
    writes it) is the date it names, so a JSON submission checks as its YAML does."""
    import json

    yaml = YAML(typ="safe")
    data = yaml.load((EXAMPLES / "four-card-poker.yaml").read_text(encoding="utf-8"))
    data["effective"] = data["effective"].isoformat()
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert validate_file(path).findings == []
    quoted = variant(tmp_path, "four-card-poker", {"/effective": "2027-01-01"}, "q.yaml")
    assert validate_file(quoted).findings == []


def test_a_format_version_written_as_text_says_so(tmp_path: Path) -> None:
    """`rulesub: "1"` is refused as text, not as "'1' is not one of: 1 (did you mean '1'?)"."""
    (found,) = codes(variant(tmp_path, "four-card-poker", {"/rulesub": "1"}))["rulesub/bad-value"]
    assert found.message == "/rulesub: '1' is text, not the number 1"
    assert found.hint == "write 1 without quotes"


def test_minimum_wager_at_most_maximum(tmp_path: Path) -> None:
    path = variant(tmp_path, "lunar-poker", {"/table/min_wager": "$300"})
    (finding,) = codes(path)["rulesub/wager-limits"]
    assert finding.message == "the minimum wager $300 is above the maximum wager $250"


def test_selected_paytable_letter_exists(tmp_path: Path) -> None:
    """§ 641a.12(c) prints Aces Up paytables A to F only."""
    found = codes(variant(tmp_path, "four-card-poker", {"/paytables/aces_up": "G"}))
    (finding,) = found["four-card-poker/aces-up-paytable"]
    assert finding.cite == "§ 641a.12(c)"
    assert "'G' is not one of them" in finding.message


def test_offered_wager_needs_its_paytable(tmp_path: Path) -> None:
    path = variant(tmp_path, "four-card-poker", {"/paytables/six_card_bonus": DELETE})
    assert errors(path) == {"four-card-poker/six-card-bonus-paytable-stated"}


def test_base_game_paytable_is_always_selected(tmp_path: Path) -> None:
    """Lunar Poker's instant payout is paid on the Ante: a base wager, always played."""
    path = variant(tmp_path, "lunar-poker", {"/paytables/instant_payout": DELETE})
    assert "lunar-poker/instant-payout-paytable-stated" in errors(path)


def test_paytable_of_a_wager_not_offered_is_a_warning(tmp_path: Path) -> None:
    path = variant(tmp_path, "four-card-poker", {"/offered": ["four_card_progressive"]})
    found = codes(path)
    assert {f.code for f in found.get("four-card-poker/bad-beat-bonus-paytable-unused", [])} == {
        "four-card-poker/bad-beat-bonus-paytable-unused"
    }
    assert all(f.severity == "warning" for fs in found.values() for f in fs)
    assert set(found) == {
        "four-card-poker/bad-beat-bonus-paytable-unused",
        "four-card-poker/six-card-bonus-paytable-unused",
    }


# -- Four Card Poker ----------------------------------------------------------------------


def test_four_card_poker_adjacent_boxes_stated(tmp_path: Path) -> None:
    """§ 641a.7(e): the Rules Submission specifies the number of adjacent boxes."""
    path = variant(tmp_path, "four-card-poker", {"/adjacent_boxes": DELETE})
    (finding,) = codes(path)["four-card-poker/adjacent-boxes-stated"]
    assert finding.cite == "§ 641a.7(e)"


def _four_card(tmp_path: Path, letter: str, amount: int, meter: dict[str, Any]) -> set[str]:
    return errors(
        variant(
            tmp_path,
            "four-card-poker",
            {
                "/paytables/four_card_progressive": letter,
                "/progressives/four_card_progressive": {
                    "wager_amount": amount,
                    "meters": {"primary": meter},
                },
            },
            f"{letter}{amount}{len(meter)}.yaml",
        )
    )


def test_four_card_progressive_meter_scaled_by_the_wager(tmp_path: Path) -> None:
    """§ 641a.12(d)(3): paytable A, seed/reseed "$5,000 for 1", primary 29%, reserve N/A;
    "based upon the amount of the Progressive Payout Wager": $25,000 on a $5 wager."""
    code = "four-card-poker/four-card-progressive-meters"
    good = {"seed": 25000, "reseed": "$25,000", "increment": "29%"}
    assert code not in _four_card(tmp_path, "A", 5, good)
    assert code not in _four_card(tmp_path, "A", 5, {**good, "reserve_increment": "N/A"})
    assert code in _four_card(tmp_path, "A", 5, {**good, "seed": 5000})
    assert code in _four_card(tmp_path, "A", 5, {**good, "reserve_increment": "5%"})
    assert code in _four_card(tmp_path, "A", 5, {**good, "increment": "25%"})
    # paytable B: $1,000 for 1, 25% primary and 5% reserve
    b = {"seed": 1000, "reseed": 1000, "increment": "25%", "reserve_increment": "5%"}
    assert code not in _four_card(tmp_path, "B", 1, b)
    assert code in _four_card(tmp_path, "B", 1, {k: v for k, v in b.items() if k != "reseed"})


def test_four_card_progressive_meter_message_names_the_figure(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        "four-card-poker",
        {"/progressives/four_card_progressive/meters/primary/seed": 1500},
    )
    (finding,) = codes(path)["four-card-poker/four-card-progressive-meters"]
    assert finding.path == "/progressives/four_card_progressive/meters/primary/seed"
    assert "seed is $1,500; for paytable B it is $1,000 for 1 × the $1 wager = $1,000" in (
        finding.message
    )
    assert finding.hint == "seed: 1000"


def _five_card(tmp_path: Path, letter: str, meters: dict[str, Any]) -> set[str]:
    return errors(
        variant(
            tmp_path,
            "four-card-poker-five-card",
            {
                "/paytables/five_card_progressive": letter,
                "/progressives/five_card_progressive/meters": meters,
            },
            f"five{letter}{len(meters)}.yaml",
        )
    )


def test_five_card_progressive_meters_per_paytable(tmp_path: Path) -> None:
    """§ 641a.12(e)(3) on a $5 wager: table B has a mega and a major jackpot, C and D a minor
    too; each figure per unit of the wager."""
    code = "four-card-poker/five-card-progressive-meters"
    b = {
        "mega": {"seed": 50000, "reseed": 50000, "increment": "11%"},
        "major": {"seed": 5000, "reseed": 5000, "increment": "10%"},
    }
    assert code not in _five_card(tmp_path, "B", b)
    assert code in _five_card(tmp_path, "B", {**b, "minor": {"seed": 1250}})  # B has none
    d = {
        "mega": {"seed": 50000, "reseed": 50000, "increment": "10%"},
        "major": {"seed": 5000, "reseed": 5000, "increment": "8%"},
        "minor": {"seed": 1250, "reseed": 1250, "increment": "3%"},
    }
    assert code not in _five_card(tmp_path, "D", d)
    assert code in _five_card(tmp_path, "C", d)  # C: mega 9%, major 7%


@pytest.mark.parametrize("letter", ["B", "C", "D"])
def test_five_card_progressive_b_to_d_print_no_reserve_rate(tmp_path: Path, letter: str) -> None:
    """§ 641a.12(e)(3): the rates "must be as follows", and paytables B, C and D print one
    incrementation rate for each meter and no reserve: a reserve rate stated beside them is
    refused, as paytable A's printed "N/A" is."""
    code = "four-card-poker/five-card-progressive-meters"
    rates = {"B": ("11%", "10%", None), "C": ("9%", "7%", "3%"), "D": ("10%", "8%", "3%")}
    mega, major, minor = rates[letter]
    meters = {
        "mega": {"seed": 50000, "reseed": 50000, "increment": mega},
        "major": {"seed": 5000, "reseed": 5000, "increment": major},
    }
    if minor is not None:
        meters["minor"] = {"seed": 1250, "reseed": 1250, "increment": minor}
    assert code not in _five_card(tmp_path, letter, meters)
    assert code not in _five_card(
        tmp_path, letter, {**meters, "mega": {**meters["mega"], "reserve_increment": "N/A"}}
    )
    reserved = {k: {**m, "reserve_increment": "20%"} for k, m in meters.items()}
    assert code in _five_card(tmp_path, letter, reserved)


def test_a_progressive_wager_of_nothing_is_refused(tmp_path: Path) -> None:
    """§ 641a.12(g)(4): the seed is "based upon the amount of the Progressive Payout Wager
    being offered": a $0 wager is no wager, refused as a $0 table minimum is, and not read as
    a $0 seed that the meter check would then pass."""
    base = "/progressives/five_card_hand_bonus"
    found = codes(
        variant(
            tmp_path,
            "four-card-poker-five-card",
            {f"{base}/wager_amount": 0, f"{base}/meters/primary/seed": 0},
        )
    )
    assert "four-card-poker/five-card-hand-bonus-meters" not in found  # not "not stated"
    (bad,) = found["rulesub/bad-value"]
    assert bad.message.endswith("0 is too small: it must be more than 0"), bad.message
    table = codes(variant(tmp_path, "four-card-poker", {"/table/min_wager": 0}, "t.yaml"))
    assert [f.message.split(": ", 1)[1] for f in table["rulesub/bad-value"]] == [
        "0 is too small: it must be more than 0"
    ]


def test_five_card_hand_bonus_meter(tmp_path: Path) -> None:
    """§ 641a.12(g)(4): seed $10,000 for 1, reseed $0, 13% primary, 8% reserve."""
    code = "four-card-poker/five-card-hand-bonus-meters"
    base = "/progressives/five_card_hand_bonus"
    five = variant(
        tmp_path,
        "four-card-poker-five-card",
        {f"{base}/wager_amount": 5, f"{base}/meters/primary/seed": 50000},
    )
    assert code not in errors(five)
    reseeded = variant(
        tmp_path, "four-card-poker-five-card", {f"{base}/meters/primary/reseed": 10000}, "r.yaml"
    )
    assert code in errors(reseeded)


def test_envy_bonus_only_for_one_and_five_dollar_wagers(tmp_path: Path) -> None:
    """§ 641a.12(d)(5) prints the Four-Card Envy Bonus for $1 and $5 wagers only."""
    code = "four-card-poker/four-card-envy-wager-amount"
    for amount, bad in ((1, False), (5, False), (2, True), (25, True)):
        meter = {"seed": 1000 * amount, "reseed": 1000 * amount}
        meter |= {"increment": "25%", "reserve_increment": "5%"}
        found = _four_card(tmp_path, "B", amount, meter)
        assert (code in found) is bad, amount
        assert "four-card-poker/four-card-progressive-meters" not in found


def test_progressive_needs_a_progressive_table_game_system(tmp_path: Path) -> None:
    """§ 641a.2(c)."""
    path = variant(tmp_path, "four-card-poker", {"/equipment/progressive_system": False})
    (finding,) = codes(path)["four-card-poker/four-card-progressive-needs-progressive-system"]
    assert finding.cite == "§ 641a.2(c)"


def test_five_card_hand_bonus_needs_an_electronic_wagering_system(tmp_path: Path) -> None:
    """§ 641a.2(d)."""
    path = variant(
        tmp_path, "four-card-poker-five-card", {"/equipment/electronic_wagering_system": DELETE}
    )
    assert errors(path) == {"four-card-poker/five-card-hand-bonus-needs-electronic-wagering-system"}


# -- High Card Flush ----------------------------------------------------------------------

METER = "/progressives/progressive_jackpot/meters/primary"


def test_progressive_rate_of_progression_stated(tmp_path: Path) -> None:
    """§ 678a.12(d)(3): "The rate of progression … must be in the … Rules Submission"."""
    path = variant(tmp_path, "high-card-flush", {f"{METER}/increment": DELETE})
    assert errors(path) == {"high-card-flush/progressive-rate-stated"}


@pytest.mark.parametrize(
    ("seed", "reseed", "bad"),
    [(30000, 30000, False), ("$29,999", 30000, True), (30000, 29999, True), (45000, 30000, False)],
)
def test_progressive_initial_and_reset_at_least_30000(
    tmp_path: Path, seed: Any, reseed: Any, bad: bool
) -> None:
    """§ 678a.12(d)(3): "The initial and reset amount … be at least $30,000"."""
    path = variant(tmp_path, "high-card-flush", {f"{METER}/seed": seed, f"{METER}/reseed": reseed})
    assert ("high-card-flush/progressive-amounts-at-least" in errors(path)) is bad


def test_progressive_amounts_stated(tmp_path: Path) -> None:
    path = variant(tmp_path, "high-card-flush", {f"{METER}/reseed": DELETE})
    assert errors(path) == {"high-card-flush/progressive-amounts-stated"}


# -- payout limits ------------------------------------------------------------------------


def _limit(tmp_path: Path, game: str, changes: dict[str, Any]) -> list[Any]:
    return codes(
        variant(tmp_path, game, changes, f"limit{len(list(tmp_path.iterdir()))}.yaml")
    ).get(f"{game}/payout-limit-floor", [])


def test_high_card_flush_floor_is_the_most_won_at_the_minimum_wager(tmp_path: Path) -> None:
    """§ 678a.12(e), worked by hand at a $10 minimum: Ante $10 × 1 to 1 = $10; Raise 3 × $10
    × 1 to 1 = $30 (§ 678a.11(b)(3)); Flush Bonus D, seven-card flush 500 to 1: $5,000;
    Straight Flush Bonus A, seven-card straight flush 8000 to 1: $80,000. Total $85,040,
    above $50,000; the Progressive Jackpot is left out."""
    base = {
        "/table/min_wager": 10,
        "/paytables/flush_bonus": "D",
        "/paytables/straight_flush_bonus": "A",
    }
    assert _limit(tmp_path, "high-card-flush", {**base, "/payout_limit": 85040}) == []
    (finding,) = _limit(tmp_path, "high-card-flush", {**base, "/payout_limit": 85039})
    assert "below $85,040" in finding.message
    assert "Raise Wager 3 × $10 = $30 at 1 to 1: $30" in finding.message
    assert "seven-card straight flush 8000 to 1: $80,000" in finding.message
    assert "Progressive" not in finding.message
    assert finding.hint == "payout_limit: 85040 or more"  # the file's notation, for `validate`
    assert finding.remedy == "a payout limit of $85,040 or more"  # a person's, for documents


def test_high_card_flush_floor_is_50000_when_the_most_won_is_less(tmp_path: Path) -> None:
    """$10 minimum, Flush Bonus E (400 to 1) and Straight Flush Bonus C (500 to 1): the most
    won is $10 + $30 + $4,000 + $5,000 = $9,040, so the floor is $50,000."""
    assert _limit(tmp_path, "high-card-flush", {"/payout_limit": 50000}) == []
    (finding,) = _limit(tmp_path, "high-card-flush", {"/payout_limit": 49999})
    assert "below $50,000" in finding.message
    assert "is $9,040" in finding.message


def test_wpt_floor_counts_every_wager_and_the_better_odds_table(tmp_path: Path) -> None:
    """§ 677a.12(f), exclusion sentence struck, at a $100 minimum: Ante $100; Odds $100 at
    500 to 1 = $50,000 (the Bad Beat's 500 to 1 on the same wager is not added); Raise 3 ×
    $100 = $300; Trips Plus B, royal flush 100 to 1 = $10,000; Pocket Bonus as stated, pair
    of aces 30 to 1 = $3,000. Total $63,400."""
    changes = {"/table/min_wager": 100}
    assert _limit(tmp_path, "wpt-heads-up-holdem", {**changes, "/payout_limit": 63400}) == []
    (finding,) = _limit(tmp_path, "wpt-heads-up-holdem", {**changes, "/payout_limit": 63399})
    assert "below $63,400" in finding.message
    assert "Odds Wager $100 at Odds table, royal flush 500 to 1: $50,000" in finding.message
    assert "Pocket Bonus Wager $100 at Pocket Bonus as stated, pair of aces 30 to 1" in (
        finding.message
    )


def test_wpt_floor_leaves_out_optional_wagers_not_offered(tmp_path: Path) -> None:
    """Without Trips Plus and the Pocket Bonus: $100 + $50,000 + $300 = $50,400."""
    changes = {
        "/table/min_wager": 100,
        "/offered": [],
        "/paytables": {},
        "/custom_paytables/pocket_bonus": DELETE,
    }
    assert _limit(tmp_path, "wpt-heads-up-holdem", {**changes, "/payout_limit": 50400}) == []
    assert _limit(tmp_path, "wpt-heads-up-holdem", {**changes, "/payout_limit": 50399}) != []


def test_chapters_without_a_payout_limit_warn(tmp_path: Path) -> None:
    path = variant(tmp_path, "four-card-poker", {"/payout_limit": 100000})
    (finding,) = codes(path)["four-card-poker/no-payout-limit"]
    assert finding.severity == "warning"
    assert finding.cite == "§ 641a.12"


def test_one_position_per_player(tmp_path: Path) -> None:
    """§ 589.7(e), § 677a.7(e), § 678a.7(e): no more than one player position."""
    for game in ("lunar-poker", "wpt-heads-up-holdem", "high-card-flush"):
        path = variant(tmp_path, game, {"/adjacent_boxes": 2}, f"{game}.yaml")
        assert f"{game}/one-position-per-player" in errors(path)


# -- where the regulation text is missing (MISSING.md) ------------------------------------


def test_missing_text_is_reported_as_information(tmp_path: Path) -> None:
    found = codes(EXAMPLES / "wpt-heads-up-holdem.yaml")
    assert {c: [f.severity for f in fs] for c, fs in found.items()} == {
        "wpt-heads-up-holdem/bad-beat-text-missing": ["info"],
        "wpt-heads-up-holdem/pocket-bonus-text-missing": ["info"],
    }
    assert found["wpt-heads-up-holdem/pocket-bonus-text-missing"][0].cite == "§ 677a.12(d)"


def test_a_bad_beat_table_without_a_straight_names_the_hand_it_leaves_unpaid(
    tmp_path: Path,
) -> None:
    """§ 677a.1: a Bad Beat is paid on a straight or higher that loses: a stated table
    without a straight row is refused, the hand named as the chapter names it (no id), and
    never called "a winning hand", which a Bad Beat hand is not."""
    path = variant(tmp_path, "wpt-heads-up-holdem", {"/custom_paytables/bad_beat/straight": DELETE})
    (found,) = codes(path)["wpt-heads-up-holdem/bad-beat-pays-every-straight-or-better"]
    assert found.message.endswith("the table pays nothing for straight, a hand the wager pays on")
    assert found.hint == "add a row: straight: <odds>"


def test_offered_without_a_table_is_an_error(tmp_path: Path) -> None:
    path = variant(tmp_path, "wpt-heads-up-holdem", {"/custom_paytables/pocket_bonus": DELETE})
    assert errors(path) == {"wpt-heads-up-holdem/pocket-bonus-custom-table-stated"}
    # the Bad Beat is paid on the Odds Wager, a base wager: every submission states it
    path = variant(tmp_path, "wpt-heads-up-holdem", {"/custom_paytables/bad_beat": DELETE}, "b.y")
    assert errors(path) == {"wpt-heads-up-holdem/bad-beat-custom-table-stated"}


def test_supplied_table_pays_only_hands_the_wager_can_win_on(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        "wpt-heads-up-holdem",
        {
            "/custom_paytables/bad_beat/three_of_a_kind": "2 to 1",
            "/custom_paytables/pocket_bonus/suited_connectors": "4 to 1",
        },
    )
    found = codes(path)
    (low,) = found["wpt-heads-up-holdem/bad-beat-straight-or-better"]
    assert low.path == "/custom_paytables/bad_beat/three_of_a_kind"
    (unknown,) = found["wpt-heads-up-holdem/pocket-bonus-custom-hands"]
    assert unknown.path == "/custom_paytables/pocket_bonus/suited_connectors"


def test_supplied_pocket_bonus_hold_worked_by_hand() -> None:
    """The example's Pocket Bonus table over the 1,326 two-card hands: pair of aces 6 × 31,
    ace-king suited 4 × 26, ace-queen or ace-jack suited 8 × 21, ace-king 12 × 16, kings,
    queens or jacks 18 × 11, ace-queen or ace-jack 24 × 6, other pairs 54 × 4: 1,208 units
    returned for 1,326 wagered, a hold of 118/1,326 = 8.899%, inside 4.52%-9.95%."""
    rows = {
        "pair_of_aces": "30 to 1",
        "ace_king_suited": "25 to 1",
        "ace_queen_or_jack_suited": "20 to 1",
        "ace_king": "15 to 1",
        "pair_of_kings_queens_or_jacks": "10 to 1",
        "ace_king_queen_or_jack": "5 to 1",
        "pair": "3 to 1",
    }
    facts = facts_for("wpt-heads-up-holdem")
    hold = custom_hold(facts, "pocket_bonus", {k: parse_payout(v) for k, v in rows.items()})
    assert hold == Fraction(118, 1326)


def test_supplied_table_hold_outside_the_boards_range_warns(tmp_path: Path) -> None:
    """Only pairs paid, 1 to 1: 78 × 2 returned of 1,326, a hold of 1,170/1,326 = 88.2%."""
    path = variant(
        tmp_path, "wpt-heads-up-holdem", {"/custom_paytables/pocket_bonus": {"pair": "1 to 1"}}
    )
    (finding,) = codes(path)["wpt-heads-up-holdem/pocket-bonus-custom-hold"]
    assert finding.severity == "warning"
    assert "88.2353%" in finding.message
    assert "outside 4.52%–9.95%" in finding.message


@needs_odds
def test_supplied_hold_agrees_with_the_odds_engine() -> None:
    from validator.compiler import load_game
    from validator.odds import odds_for_rows

    rows = {"pair_of_aces": "25 to 1", "pair": "4 to 1", "ace_king": "10 to 1"}
    parsed = {k: parse_payout(v) for k, v in rows.items()}
    engine = odds_for_rows(load_game("wpt-heads-up-holdem"), "player_pocket", parsed).hold
    assert custom_hold(facts_for("wpt-heads-up-holdem"), "pocket_bonus", parsed) == engine


# -- holds of the chapter's paytables -----------------------------------------------------


@needs_odds
def test_non_positive_hold_of_a_selected_paytable_warns_naming_the_figure(
    tmp_path: Path,
) -> None:
    """Lunar Poker's Super Wager paytable A, as § 589.12(b) and § 589.6(d) print it, returns
    more than the wager: the warning says the text or its transcription needs a look."""
    found = codes(EXAMPLES / "lunar-poker.yaml")
    (finding,) = found["lunar-poker/super-hold"]
    assert finding.severity == "warning"
    assert "paytable A has an exact hold of -" in finding.message


@needs_odds
def test_positive_holds_give_no_warning(tmp_path: Path) -> None:
    for letter in "ABCDEF":
        path = variant(tmp_path, "four-card-poker", {"/paytables/aces_up": letter}, f"{letter}.y")
        assert "four-card-poker/aces-up-hold" not in codes(path)


@needs_odds
def test_a_transcription_that_gives_away_the_house_is_caught(tmp_path: Path) -> None:
    """A game directory whose Aces Up table A pays a pair of aces 10 to 1 (a slip for 1 to
    1): the selected paytable's exact hold turns negative and is reported."""
    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    game_file = games / "four-card-poker.yaml"
    text = game_file.read_text(encoding="utf-8")
    a_row = "A: {four_of_a_kind: 50 to 1, straight_flush: 30 to 1, three_of_a_kind: 9 to 1"
    assert text.count(a_row) == 1
    text = text.replace(
        "two_pair: 2 to 1, pair_of_aces: 1 to 1}", "two_pair: 2 to 1, pair_of_aces: 10 to 1}", 1
    )
    game_file.write_text(text, encoding="utf-8")
    from validator.checks.engine import check_submission
    from validator.checks.facts import compile_facts
    from validator.compiler import load_game_file
    from validator.model.submission import load_submission

    facts = compile_facts(load_game_file(game_file, games))
    sub = variant(tmp_path, "four-card-poker", {"/paytables/aces_up": "A"})
    loaded = load_submission(sub)
    assert loaded.submission is not None
    found = check_submission(facts, loaded.submission, loaded.located, "s.yaml")
    (finding,) = [f for f in found if f.code == "four-card-poker/aces-up-hold"]
    assert "paytable A has an exact hold of -" in finding.message


@pytest.mark.parametrize(
    ("increment", "reserve", "warned"),
    [("20%", "5%", False), ("95%", "5%", False), ("91%", "10%", True), ("150%", "0%", True)],
)
def test_a_meter_fed_more_than_the_wager_is_warned_678a_12_d_3(
    tmp_path: Path, increment: str, reserve: str, warned: bool
) -> None:
    """§ 678a.12(d)(3) has the rate of progression stated and bounds it nowhere; a rate and
    a reserve that come to more than the wager feed the meter more than is wagered: a
    warning (the filing still complies), never an error, and none at 100% exactly."""
    meters = "/progressives/progressive_jackpot/meters/primary"
    path = variant(
        tmp_path,
        "high-card-flush",
        {f"{meters}/increment": increment, f"{meters}/reserve_increment": reserve},
    )
    found = codes(path).get("high-card-flush/meter-feed-within-the-wager", [])
    assert bool(found) is warned
    assert all(f.severity == "warning" for f in found)
    assert "high-card-flush/meter-feed-within-the-wager" not in errors(path)


def test_a_field_left_out_is_placed_at_the_key_it_belongs_under(tmp_path: Path) -> None:
    """§ 641a.12(e)(3): a Five-Card Progressive offered without its meters. The finding
    stood at the first entry under `progressives:` (another wager's, the Four-Card
    Progressive's key), which names another field; it stands at `progressives:`, where
    the missing entry is to be written."""
    text = (PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml").read_text()
    text = text.replace("offered: [", "offered: [five_card_progressive, ", 1)
    path = tmp_path / "fcp.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    report = validate_file(path)
    found = [f for f in report.findings if f.code.endswith("five-card-progressive-meters-stated")]
    assert len(found) == 1
    assert lines[found[0].line - 1].startswith("progressives:") and found[0].column == 1
