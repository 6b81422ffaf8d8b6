"""World Poker Tour Heads-Up Hold 'Em (ch. 677a) as the chapter writes it, from the user's
side: stated tables that validate or not, rounds that settle to the dollar or stop."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_rulesub

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "rulesubs" / "example" / "wpt-heads-up-holdem.yaml"
POCKET = """  pocket_bonus:
    pair_of_aces: 30 to 1
    ace_king_suited: 25 to 1
    ace_queen_or_jack_suited: 20 to 1
    ace_king: 15 to 1
    pair_of_kings_queens_or_jacks: 10 to 1
    ace_king_queen_or_jack: 5 to 1
    pair: 3 to 1
"""
BAD_BEAT = """  bad_beat:
    straight_flush: 500 to 1
    four_of_a_kind: 50 to 1
    full_house: 10 to 1
    flush: 8 to 1
    straight: 5 to 1
"""


def _submission(tmp_path: Path, old: str, new: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "wpt-heads-up-holdem.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _codes(path: Path) -> dict[str, dict]:
    out = run_rulesub("validate", str(path), "--format", "json")
    return {f["code"]: f for f in json.loads(out.stdout)["findings"]}


def test_a_bad_beat_table_pays_every_straight_or_better(tmp_path: Path) -> None:
    """§ 677a.1 ("any player who holds a straight or higher and loses"), § 677a.11(h)(2)
    (iii)(B): a stated table without a straight row is an error, as is one without a flush
    or full house row; the royal flush, which cannot lose, need not be printed."""
    code = "wpt-heads-up-holdem/bad-beat-pays-every-straight-or-better"
    assert code not in _codes(EXAMPLE)
    for row in ("    straight: 5 to 1\n", "    full_house: 10 to 1\n"):
        found = _codes(_submission(tmp_path, BAD_BEAT, BAD_BEAT.replace(row, "")))
        assert found[code]["severity"] == "error"
        assert row.split(":")[0].strip() in found[code]["message"]
        assert found[code]["cite"] == "§ 677a.1; § 677a.11(h)(2)(iii)(B)"


def test_a_pocket_bonus_table_pays_a_pair_and_an_ace_with_a_face_card(tmp_path: Path) -> None:
    """§ 677a.7(d)(2): the wager wins when the first two cards "contain a pair or an ace and a
    king, queen or jack": a pairs-only table is an error naming the unpaid hands."""
    code = "wpt-heads-up-holdem/pocket-bonus-pays-every-winning-hand"
    assert code not in _codes(EXAMPLE)
    pairs_only = "  pocket_bonus:\n    pair_of_aces: 30 to 1\n    pair: 3 to 1\n"
    found = _codes(_submission(tmp_path, POCKET, pairs_only))
    assert found[code]["severity"] == "error"
    assert "ace_king_queen_or_jack" in found[code]["message"]
    assert found[code]["cite"] == "§ 677a.7(d)(2); § 677a.11(i)(1)(i)"
    ace_face_only = "  pocket_bonus:\n    ace_king_queen_or_jack: 5 to 1\n"
    found = _codes(_submission(tmp_path, POCKET, ace_face_only))
    assert "(pair)" in found[code]["message"]


def test_settle_never_settles_a_winning_pocket_bonus_as_a_loss(tmp_path: Path) -> None:
    """§ 677a.7(d)(2), § 677a.11(i)(1)(i): ace-king wins the Pocket Bonus Wager. Under a
    stated table that pays pairs only, settle refuses the submission's error (exit 1), and
    under --allow-findings the round stops (exit 2) and says why; under the
    example's table it is paid 15 to 1."""
    pairs_only = "  pocket_bonus:\n    pair_of_aces: 30 to 1\n    pair: 3 to 1\n"
    for rulesub, expect in (
        (_submission(tmp_path, POCKET, pairs_only), None),
        (EXAMPLE, "150"),
    ):
        path = tmp_path / "round.yaml"
        path.write_text(
            f"""\
game: wpt-heads-up-holdem
rulesub: {rulesub}
seats:
  - wagers: {{ante: 10, odds: 10, pocket_bonus: 10}}
    cards: [AS, KD]
    actions: [check, check, fold]
dealer: [2C, 3D]
community: [7H, 8C, 9D, 4S, 4C]
""",
            encoding="utf-8",
        )
        out = run_rulesub("settle", str(path), "--format", "json")
        if expect is None:
            # the stated table is an error validate reports: settle refuses it (exit 1) ...
            assert out.returncode == 1 and "pocket-bonus-pays-every-winning-hand" in out.stderr
            # ... and, told to go on, still never settles the winning hand as a loss
            out = run_rulesub("settle", str(path), "--format", "json", "--allow-findings")
            assert out.returncode == 2, out.stdout
            assert "Ace-king wins the wager" in out.stderr
            assert "pays nothing for it" in out.stderr
        else:
            assert out.returncode == 0, out.stderr
            seat = json.loads(out.stdout)["seats"][0]
            assert seat["wagers"]["pocket_bonus"]["net"] == expect


def test_payout_limit_floor_counts_outcomes_that_can_happen_together(tmp_path: Path) -> None:
    """§ 677a.12(f): the floor is the most one patron can win in one round. A Bad Beat
    payout needs a losing hand (§ 677a.1, § 677a.11(h)(2)(iii)(B)), so it never adds to an
    Ante and Raise win. At a $10 minimum with a 10,000 to 1 Bad Beat straight flush, and the
    example's Pocket Bonus (30 to 1, $300) and Trips Plus B (100 to 1, $1,000): the Bad Beat
    outcome is $100,000 + $1,300 (Ante and Raise lost), the winning one $5,040 + $1,300 (Ante
    $10, Raise $30, Odds royal flush 500 to 1): the floor is $101,300, not $101,340."""
    rich = BAD_BEAT.replace("straight_flush: 500 to 1", "straight_flush: 10000 to 1")
    code = "wpt-heads-up-holdem/payout-limit-floor"
    for limit, ok in ((101_300, True), (101_299, False)):
        path = _submission(tmp_path, BAD_BEAT, rich)
        body = path.read_text(encoding="utf-8").replace(
            'payout_limit: "$50,000"', f"payout_limit: {limit}"
        )
        path.write_text(body, encoding="utf-8")
        found = _codes(path)
        assert (code not in found) is ok, found.get(code)
        if not ok:
            message = found[code]["message"]
            assert "$101,300" in message and "loses (a Bad Beat)" in message
            assert "Raise Wager" not in message and "Ante Wager" not in message
