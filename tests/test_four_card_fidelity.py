"""Four Card Poker (ch. 641a) as the chapter writes it, from the user's side: rounds that
settle to the dollar with `rulesub settle`, submissions that validate or not."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_rulesub

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden" / "four-card-poker"
EXAMPLE = ROOT / "rulesubs" / "example" / "four-card-poker.yaml"


def _settle(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "round.yaml"
    path.write_text(text, encoding="utf-8")
    out = run_rulesub("settle", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


FOUR_ACES = """\
game: four-card-poker
{head}
seats:
  - wagers: {{ante: 10, four_card_progressive: 1}}
    cards: [AS, AH, AD, AC, 2D]
    actions: [play 3x]
dealer: [3C, 5D, 7H, 9S, JC, KD]
"""


def test_a_paytable_named_in_a_round_file_brings_its_own_meter(tmp_path: Path) -> None:
    """§ 641a.12(d)(3): paytable B's meter is $1,000 for 1 at 25% (reserve 5%), A's $5,000
    for 1 at 29%. The round naming B and the round taking B from a Rules Submission both pay
    B's meter (the first was once paid A's); naming A pays A's."""
    by_round = _settle(tmp_path, FOUR_ACES.format(head="paytables: {four_card_progressive: B}"))
    by_rulesub = _settle(tmp_path, FOUR_ACES.format(head=f"rulesub: {EXAMPLE}"))
    a = _settle(tmp_path, FOUR_ACES.format(head="paytables: {four_card_progressive: A}"))
    for data in (by_round, by_rulesub):
        w = data["seats"][0]["wagers"]["four_card_progressive"]
        assert w["net"] == "999.25", w["reason"]  # $1,000 + 25% of $1, less the $1 wager
    assert a["seats"][0]["wagers"]["four_card_progressive"]["net"] == "4999.29"


def test_every_five_card_progressive_paytable_settles_with_its_meters(tmp_path: Path) -> None:
    """§ 641a.12(e)(1), (3): paytables B-D pay mega and major jackpots, C and D a minor one
    (they once failed with `five_card_progressive/minor`). A royal flush wins the mega
    jackpot, $10,000 for 1 plus the round's increment (B 11%, C 9%, D 10%)."""
    for letter, rate in (("A", "21"), ("B", "11"), ("C", "09"), ("D", "10")):
        data = _settle(
            tmp_path,
            f"""\
game: four-card-poker
paytables: {{five_card_progressive: {letter}}}
seats:
  - wagers: {{ante: 10, five_card_progressive: 1}}
    cards: [AH, KH, QH, JH, TH]
    actions: [play 3x]
dealer: [2C, 3D, 4C, 8D, JD, QC]
""",
        )
        w = data["seats"][0]["wagers"]["five_card_progressive"]
        assert w["net"] == f"9999.{rate}", (letter, w["reason"])


def _round(wagers: str) -> str:
    return f"""\
game: four-card-poker
seats:
  - wagers: {{{wagers}}}
    cards: [KS, KH, 7D, 4C, 2D]
    actions: []
dealer: [3C, 5D, 8H, 9S, JC, QD]
"""


def test_wager_prerequisites_641a_7_d_4_to_7(tmp_path: Path) -> None:
    """§ 641a.7(d)(4)-(6): the Four-Card and Five-Card Progressive and the Bad Beat Bonus are
    placed "after placing an Ante Wager or an Aces Up Wager, or both"; § 641a.7(d)(7): the Five
    Card Hand Bonus "after placing an Ante Wager". `settle` refuses a round that breaks them
    (exit 2, naming the paragraph) and settles one that keeps them."""
    refused = {
        "four_card_progressive: 1": "§ 641a.7(d)(4)",
        "five_card_progressive: 1": "§ 641a.7(d)(5)",
        "bad_beat_bonus: 5": "§ 641a.7(d)(6)",
        "aces_up: 5, five_card_hand_bonus: 5": "§ 641a.7(d)(7)",
    }
    path = tmp_path / "round.yaml"
    for wagers, cite in refused.items():
        path.write_text(_round(wagers), encoding="utf-8")
        out = run_rulesub("settle", str(path))
        assert out.returncode == 2, (wagers, out.stdout)
        assert cite in out.stderr and "placed only with" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
    path.write_text(
        _round("aces_up: 5, four_card_progressive: 1, five_card_progressive: 1, bad_beat_bonus: 5"),
        encoding="utf-8",
    )
    out = run_rulesub("settle", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    wagers = json.loads(out.stdout)["seats"][0]["wagers"]
    assert set(wagers) == {
        "aces_up",
        "four_card_progressive",
        "five_card_progressive",
        "bad_beat_bonus",
    }


def test_play_and_simulate_never_deal_a_wager_without_its_prerequisite() -> None:
    """§ 641a.7(d)(4)-(7): the seats `play` and `simulate` deal place the Ante, so every
    optional wager they place may be placed; a wager whose prerequisite is missing is left
    out rather than dealt."""
    from validator.compiler import load_game
    from validator.interpreter.config import TableConfig
    from validator.interpreter.play import default_wagers
    from validator.interpreter.rules import Rules

    g = load_game("four-card-poker")
    rules = Rules(g, TableConfig.defaults(g))
    wagers = default_wagers(rules)
    assert "ante" in wagers and "five_card_hand_bonus" in wagers
    assert rules.missing_prerequisite({rules.spot_wager(s) for s in wagers}) is None
    assert rules.missing_prerequisite({"five_card_hand_bonus", "aces_up"}) == (
        "five_card_hand_bonus",
        "the Ante Wager",
    )
    assert rules.missing_prerequisite({"bad_beat_bonus"}) == (
        "bad_beat_bonus",
        "the Ante Wager or the Aces Up Wager (or both)",
    )


def test_deck_change_findings_cite_the_paragraph_broken(tmp_path: Path) -> None:
    """§ 641a.3(c)(1): four hours by hand; (c)(2): eight hours from a shoe. A finding cites
    the paragraph the submission breaks, not § 641a.3(c) as a whole."""
    text = EXAMPLE.read_text(encoding="utf-8")
    cases = {
        "  methods: [hand]\n  shuffler: automated_counting\n  decks: 2\n"
        "  change_every_hours: {hand: 5}\n": "§ 641a.3(c)(1)",
        "  methods: [manual_shoe]\n  shuffler: automated_counting\n  decks: 2\n"
        "  change_every_hours: {manual_shoe: 9}\n": "§ 641a.3(c)(2)",
    }
    start = text.index("  methods:")
    end = text.index("offered:")
    for dealing, cite in cases.items():
        path = tmp_path / "four-card-poker.yaml"
        path.write_text(text[:start] + dealing + text[end:], encoding="utf-8")
        out = run_rulesub("validate", str(path), "--format", "json")
        assert out.returncode == 1, out.stdout
        (finding,) = [
            f
            for f in json.loads(out.stdout)["findings"]
            if f["code"] == "four-card-poker/deck-change-interval"
        ]
        assert finding["cite"] == cite


FIVE_CARD = ROOT / "rulesubs" / "example" / "four-card-poker-five-card.yaml"


def _offering(tmp_path: Path, offered: str) -> Path:
    text = FIVE_CARD.read_text(encoding="utf-8").replace(
        "offered: [five_card_progressive, five_card_hand_bonus]", f"offered: [{offered}]"
    )
    path = tmp_path / "four-card-poker.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_magic_card_and_lucky_bonus_offered_as_the_submission_says(tmp_path: Path) -> None:
    """§ 641a.12(g)(3): the certificate holder "may pay" a Magic Card or Lucky Bonus, on the
    Five Card Hand Bonus Wager. A submission offers them by listing their table; offering
    them without the Five Card Hand Bonus is an error citing § 641a.12(g)(3)."""
    with_it = _offering(
        tmp_path, "five_card_progressive, five_card_hand_bonus, magic_card_lucky_bonus"
    )
    out = run_rulesub("validate", str(with_it), "--format", "json")
    assert out.returncode == 0, out.stdout
    assert json.loads(out.stdout)["findings"] == []
    signs = run_rulesub("signage", str(with_it)).stdout
    assert "Magic Card   20 for 1" in signs and "Lucky Bonus   5 for 1" in signs
    without = _offering(tmp_path, "five_card_progressive, magic_card_lucky_bonus")
    out = run_rulesub("validate", str(without), "--format", "json")
    assert out.returncode == 1
    (finding,) = [f for f in json.loads(out.stdout)["findings"] if "magic-card" in f["code"]]
    assert finding["cite"] == "§ 641a.12(g)(3)" and finding["path"] == "/offered/1"
    assert finding["severity"] == "error"


def test_magic_card_table_signed_only_when_offered() -> None:
    """§ 641a.12(g)(3) "may pay": a table that does not pay them does not post them."""
    signs = run_rulesub("signage", str(FIVE_CARD)).stdout
    assert "Five Card Hand Bonus" in signs
    assert "Magic Card" not in signs and "Lucky Bonus" not in signs


def test_play_and_simulate_draw_and_pay_them_only_when_offered(tmp_path: Path) -> None:
    """§ 641a.1, § 641a.12(g)(3): the table game system draws the Magic Card and the Lucky
    Bonus position, and the table pays them, when the submission offers them; never
    otherwise. The same decks simulated both ways: the Five Card Hand Bonus wagers return
    more with them, by the 20 for 1 and 5 for 1 payouts only."""
    from validator.compiler import load_game
    from validator.interpreter.rules import Rules
    from validator.interpreter.settings import read_settings
    from validator.interpreter.simulate import run

    g = load_game("four-card-poker")
    nets = {}
    for offered in (True, False):
        items = "five_card_progressive, five_card_hand_bonus" + (
            ", magic_card_lucky_bonus" if offered else ""
        )
        path = _offering(tmp_path, items)
        rules = Rules(g, read_settings(g, path))
        assert rules.draw_enabled("magic_card") is offered
        stats = run(rules, 4_000, seed=5, seats=6)
        nets[offered] = sum(
            a.net for spot, a in stats.wagers.items() if spot.startswith("five_card_hand_bonus")
        )
        log = tmp_path / f"log-{offered}.jsonl"
        out = run_rulesub(
            "play", "four-card-poker", "--rulesub", str(path), "--rounds", "2", "--log", str(log)
        )
        assert out.returncode == 0, out.stderr
        assert ("table game system draws: the Magic Card: " in out.stdout) is offered
        assert ("table game system" in out.stdout) is offered  # nothing drawn to tell of
    assert nets[True] > nets[False]
    extra = nets[True] - nets[False]  # micro-dollars, on $1 wagers: $20 or $5 a payout
    assert extra % 5_000_000 == 0


def test_every_hold_check_can_fire() -> None:
    """A hold check on a table the odds engine cannot price never speaks: the Bad Beat Bonus
    (§ 641a.12(f)), paid on the lower of two hands dealt together, has none; every other
    paytable's hold check has an exact hold for every letter to judge."""
    from validator.checks.facts import facts_for
    from validator.checks.rules import find_rule

    assert find_rule("four-card-poker/bad-beat-bonus-hold") is None
    for game in ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush"):
        facts = facts_for(game)
        for c in facts.constraints:
            if c.kind != "positive_hold":
                continue
            table = facts.table(c.table)
            for letter in table.letters or [None]:
                assert facts.hold(c.table, letter) is not None, (game, c.id, letter)


def test_a_jackpot_divided_among_the_dealers_hand_wagers_says_so() -> None:
    """§ 641a.12(g)(2): a meter share won on the dealer's hand "will be divided equally among
    the number of players who wagered on the dealer's hand": each winner's reason says the
    share was divided, and how many ways, not that one player won the whole meter."""
    out = run_rulesub("settle", str(GOLDEN / "08-dealer-jackpot-divided.yaml"), "--format", "json")
    assert out.returncode == 0, out.stderr
    reasons = [
        w["reason"]
        for s in json.loads(out.stdout)["seats"]
        for w in s["wagers"].values()
        if "dealer's hand" in w["reason"] and "meter" in w["reason"]
    ]
    assert len(reasons) == 2
    assert all("from the primary meter: 100% of meter divided equally 2 ways" in r for r in reasons)
