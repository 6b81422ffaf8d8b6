"""World Poker Tour Heads-Up Hold 'Em (ch. 677a) as the chapter writes it, from the user's
side: stated tables that validate or not, rounds that settle to the dollar or stop."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from published import SEVEN_CARD_COUNTS

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
        row_id = row.split(":")[0].strip()
        assert f"add a row: {row_id}: <odds>" in found[code]["hint"]  # the file's notation
        assert f"pays nothing for {row_id.replace('_', ' ')}, a hand" in found[code]["message"]
        assert found[code]["cite"] == "§ 677a.1; § 677a.11(h)(2)(iii)(B)"


def test_a_pocket_bonus_table_pays_a_pair_and_an_ace_with_a_face_card(tmp_path: Path) -> None:
    """§ 677a.7(d)(2): the wager wins when the first two cards "contain a pair or an ace and a
    king, queen or jack": a pairs-only table is an error naming the unpaid hands."""
    code = "wpt-heads-up-holdem/pocket-bonus-pays-every-winning-hand"
    assert code not in _codes(EXAMPLE)
    pairs_only = "  pocket_bonus:\n    pair_of_aces: 30 to 1\n    pair: 3 to 1\n"
    found = _codes(_submission(tmp_path, POCKET, pairs_only))
    assert found[code]["severity"] == "error"
    assert "add a row: ace_king_queen_or_jack: <odds>" in found[code]["hint"]
    assert "pays nothing for ace and a king, queen or jack," in found[code]["message"]
    assert found[code]["cite"] == "§ 677a.7(d)(2); § 677a.11(i)(1)(i)"
    ace_face_only = "  pocket_bonus:\n    ace_king_queen_or_jack: 5 to 1\n"
    found = _codes(_submission(tmp_path, POCKET, ace_face_only))
    assert "pays nothing for pair, a hand the wager pays on" in found[code]["message"]


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


def _with_limit(path: Path, limit: int | str) -> Path:
    body = path.read_text(encoding="utf-8")
    path.write_text(body.replace('payout_limit: "$50,000"', f"payout_limit: {limit}"), "utf-8")
    return path


def test_payout_limit_floor_counts_outcomes_that_can_happen_together(tmp_path: Path) -> None:
    """§ 677a.12(f): the floor is the most one patron can win in one round, on one hand. A
    Bad Beat payout needs a losing hand (§ 677a.1, § 677a.11(h)(2)(iii)(B)), so it never
    adds to an Ante and Raise win; and the Trips Plus is settled on the same seven cards
    (§ 677a.7(d)(3), § 677a.11(i)(2)), so beside a Bad Beat straight flush it pays the
    straight flush, never the royal flush. At a $10 minimum with a 10,000 to 1 Bad Beat
    straight flush, the example's Pocket Bonus (pair of aces 30 to 1, $300) and Trips Plus B
    (straight flush 40 to 1, $400): the Bad Beat outcome is $100,000 + $300 + $400 =
    $100,700 (Ante and Raise lost); the winning one $5,040 + $1,000 + $300 (Ante $10, Raise
    $30, Odds and Trips Plus royal flush 500 and 100 to 1, Pocket Bonus): the floor is
    $100,700, not $101,300."""
    rich = BAD_BEAT.replace("straight_flush: 500 to 1", "straight_flush: 10000 to 1")
    code = "wpt-heads-up-holdem/payout-limit-floor"
    for limit, ok in ((100_700, True), (100_699, False)):
        path = _with_limit(_submission(tmp_path, BAD_BEAT, rich), limit)
        found = _codes(path)
        assert (code not in found) is ok, found.get(code)
        if not ok:
            message = found[code]["message"]
            assert "$100,700" in message and "loses (a Bad Beat)" in message
            assert "straight flush 40 to 1" in message and "royal flush" not in message
            assert "Raise Wager" not in message and "Ante Wager" not in message


def test_the_floor_of_the_worked_example_is_50000_677a_12_f(tmp_path: Path) -> None:
    """§ 677a.12(f): "not less than $50,000 or the maximum amount that one patron could win
    per round when betting the minimum wager". $25 minimum, Trips Plus A, Bad Beat straight
    flush 1,960 to 1, no Pocket Bonus: the Bad Beat round pays $49,000 + $1,000 (Trips Plus
    straight flush 40 to 1) = $50,000; a winning royal flush $25 + $75 + $12,500 + $2,500 =
    $15,100. A $50,000 limit is lawful (it was refused at $51,500); $49,999 is not. A Bad
    Beat row for a royal flush (5,000 to 1) changes nothing: it can never be paid."""
    worked = BAD_BEAT.replace("straight_flush: 500 to 1", "straight_flush: 1960 to 1")
    path = _submission(tmp_path, BAD_BEAT, worked)
    body = path.read_text(encoding="utf-8")
    for old, new in (
        ("min_wager: 10,", "min_wager: 25,"),
        ("offered: [pocket_bonus, trips_plus]", "offered: [trips_plus]"),
        ("paytables: {trips_plus: B}", "paytables: {trips_plus: A}"),
        (POCKET, ""),
    ):
        assert old in body
        body = body.replace(old, new)
    path.write_text(body, encoding="utf-8")
    code = "wpt-heads-up-holdem/payout-limit-floor"
    assert code not in _codes(path)
    assert code in _codes(_with_limit(path, 49_999))
    royal = path.read_text(encoding="utf-8")
    for old, new in (
        ("payout_limit: 49999", 'payout_limit: "$50,000"'),
        ("    straight_flush: 1960", "    royal_flush: 5000 to 1\n    straight_flush: 1960"),
    ):
        assert old in royal
        royal = royal.replace(old, new)
    path.write_text(royal, encoding="utf-8")
    found = _codes(path)
    assert code not in found
    never = found["wpt-heads-up-holdem/bad-beat-royal-flush-never-paid"]
    assert never["severity"] == "info"
    assert never["path"] == "/custom_paytables/bad_beat/royal_flush"
    assert "can never be paid" in never["message"]


def test_the_floors_bad_beat_round_can_be_dealt_677a_12_f(tmp_path: Path) -> None:
    """The round the floor counts, dealt: A♠ A♥ against the dealer's 6♠ 7♣, board 2♠ 3♠ 4♠
    5♠ K♣. The player's five-high straight flush loses to the dealer's six-high one (a
    qualifying hand), so the Odds Wager is paid on the Bad Beat table, 10,000 to 1
    ($100,000); the Pocket Bonus pays the pair of aces 30 to 1 ($300), the Trips Plus B the
    straight flush 40 to 1 ($400): $100,700 won, the floor of the test above."""
    rich = BAD_BEAT.replace("straight_flush: 500 to 1", "straight_flush: 10000 to 1")
    rulesub = _with_limit(_submission(tmp_path, BAD_BEAT, rich), 100_700)
    path = tmp_path / "round.yaml"
    path.write_text(
        f"""\
game: wpt-heads-up-holdem
rulesub: {rulesub}
seats:
  - wagers: {{ante: 10, odds: 10, pocket_bonus: 10, trips_plus: 10}}
    cards: [AS, AH]
    actions: [raise 3x]
dealer: [6S, 7C]
community: [2S, 3S, 4S, 5S, KC]
""",
        encoding="utf-8",
    )
    out = run_rulesub("settle", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    wagers = json.loads(out.stdout)["seats"][0]["wagers"]
    won = {w: wagers[w]["net"] for w in ("odds", "pocket_bonus", "trips_plus")}
    assert won == {"odds": "100000", "pocket_bonus": "300", "trips_plus": "400"}


def test_a_stated_bad_beat_table_is_no_wager_of_its_own_677a_11_h_2_iii_b(tmp_path: Path) -> None:
    """§ 677a.1: the Bad Beat Bonus goes to a player "who holds a straight or higher and
    loses to the dealer's hand"; § 677a.11(h)(2)(iii)(B): the Odds Wager "shall be eligible
    for a Bad Beat payout". A stated table priced on the player's cards alone paid every
    straight or better (the par sheet and the review pack said the house edge was -6.0275%,
    a player's edge); it is priced with the base game, whose Odds Wager carries it."""
    from validator.compiler import load_game
    from validator.odds import NotPriced, odds_for_rows

    game = load_game("wpt-heads-up-holdem")
    rows = {"straight_flush": "500 to 1", "straight": "5 to 1"}
    try:
        odds_for_rows(game, "player_seven", rows, table_id="bad_beat")
    except NotPriced as e:
        assert "loses to the dealer's" in str(e)
    else:
        raise AssertionError("a Bad Beat table was priced as a wager of its own")
    par = json.loads(
        run_rulesub(
            "par", str(EXAMPLE), "--rounds", "2000", "--workers", "1", "--format", "json"
        ).stdout
    )
    assert "bad_beat" in par["not_priced"]
    assert "bad_beat" not in json.dumps(par["wagers"])
    review = json.loads(run_rulesub("review", str(EXAMPLE), "--format", "json").stdout)
    (bad_beat,) = [m for m in review["math"] if m["title"].startswith("Bad Beat")]
    assert "odds" not in bad_beat and "loses to the dealer's" in bad_beat["not_priced"]
    # the base game still pays it: a straight paid 1,000 to 1 turns the edge to the player
    big = _submission(tmp_path, "straight: 5 to 1", "straight: 1000 to 1")
    text = run_rulesub(
        "par",
        str(big),
        "--rounds",
        "2000",
        "--workers",
        "1",
        "--allow-findings",
        "--format",
        "json",
    ).stdout
    assert json.loads(text)["base_game"]["strategies"]["simple"]["house_edge_percent"] < 0


def test_a_bad_beat_table_change_says_once_why_it_has_no_hold(tmp_path: Path) -> None:
    """A stated Bad Beat table changed (§ 677a.12(c)): its rows side by side, and the reason
    neither table has a hold of its own said once, not before and again after."""
    new = _submission(tmp_path, "straight: 5 to 1", "straight: 4 to 1")
    text = run_rulesub("diff", str(EXAMPLE), str(new), "--format", "markdown").stdout
    assert "| Straight | **5 to 1** | **4 to 1** | pays less |" in text
    assert text.count("loses to the dealer's") == 1 and "n/a before and after" in text


def test_odds_of_a_submission_price_the_pocket_bonus_table_it_states_677a_12_d() -> None:
    """``odds --rulesub`` prices the Pocket Bonus table the submission states (§ 677a.12(d)
    is missing from the copy), as the par sheet does, and says why the Bad Beat table is
    not priced. Worked by hand over the 1,326 two-card hands: a pair of aces 6 × 30, kings,
    queens or jacks 18 × 10, another pair 54 × 3, ace-king suited 4 × 25, ace-queen or
    ace-jack suited 8 × 20, ace-king 12 × 15, ace-queen or ace-jack 24 × 5: 1,082 won,
    1,200 hands lose, hold 118/1,326 = 59/663."""
    from fractions import Fraction

    out = run_rulesub("odds", "wpt-heads-up-holdem", "--rulesub", str(EXAMPLE), "--format", "json")
    (pocket,) = [r for r in json.loads(out.stdout) if r["table"] == "pocket_bonus"]
    won = 6 * 30 + 18 * 10 + 54 * 3 + 4 * 25 + 8 * 20 + 12 * 15 + 24 * 5
    assert Fraction(pocket["hold_exact"]) == Fraction(1200 - won, 1326) == Fraction(59, 663)
    text = run_rulesub("odds", "wpt-heads-up-holdem", "--rulesub", str(EXAMPLE)).stdout
    assert "as stated" in text and "odds_for_rows" not in text
    assert "Bad Beat on the Odds Wager" in text.split("Not priced:")[1]


def test_a_bad_beat_payout_names_the_table_the_submission_states(tmp_path: Path) -> None:
    """§ 677a.11(h)(2)(iii)(B): a straight flush that loses to a qualifying dealer is
    "eligible for a Bad Beat payout as provided in § 677a.12(c)", whose text is missing:
    the Odds Wager's reason says the example's 500 to 1 is the Bad Beat table the
    submission states, never the Odds table's, and pays it ($10 at 500 to 1: $5,000)."""
    rnd = tmp_path / "bad-beat.yaml"
    rnd.write_text(
        f"game: wpt-heads-up-holdem\nrulesub: {EXAMPLE}\nseats:\n"
        "  - wagers: {ante: 10, odds: 10}\n    cards: [4S, 3S]\n    actions: [check, raise 2x]\n"
        "dealer: [9S, TS]\ncommunity: [5S, 6S, 7S, 8S, 2D]\n"
    )
    out = run_rulesub("settle", str(rnd), "--format", "json")
    assert out.returncode == 0, out.stderr
    odds = json.loads(out.stdout)["seats"][0]["wagers"]["odds"]
    assert odds["net"] == "5000"
    assert (
        "by the Bad Beat on the Odds Wager table as the Rules Submission states it"
        in (odds["reason"])
    )
    assert odds["lines"][0]["outcome"] == "wins 500 to 1"


def test_each_wager_cites_the_branch_of_677a_11_h_that_settled_it() -> None:
    """§ 677a.11(h)(1): the dealer's hand "does not contain a pair or better"; (h)(2): it
    "contains a pair or better". A Raise or Odds Wager cites the paragraph that applied,
    never both: the golden round where the dealer does not qualify cites (h)(1) only, the
    one where he does cites (h)(2) only."""
    golden = ROOT / "tests" / "golden" / "wpt-heads-up-holdem"
    for name, branch, other in (
        ("01-dealer-no-pair-straight-wins.yaml", "(h)(1)", "(h)(2)"),
        ("02-dealer-qualifies-flush-wins.yaml", "(h)(2)", "(h)(1)"),
    ):
        out = run_rulesub("settle", str(golden / name), "--format", "json")
        assert out.returncode == 0, out.stderr
        (seat,) = json.loads(out.stdout)["seats"]
        for wager in ("raise", "odds"):
            (line,) = seat["wagers"][wager]["lines"]
            assert f"§ 677a.11{branch}(i)" in line["cite"] and other not in line["cite"], line


def test_a_selected_trips_plus_table_outside_the_boards_range_is_a_regulation_note(
    tmp_path: Path,
) -> None:
    """Final-form rulemaking 125-192's preamble: "the Board approved the four payout tables
    [of the Trips Plus Wager] with a range between 0.75% and 4.34%". § 677a.12(e)'s
    paytable A holds less: counted here from the published seven-card counts (the best five
    of seven), not from the engine. Tables B to D lie inside, so the range as a whole stands;
    a submission selecting A is told that its table lies outside it, as a note about the
    published figures (shown with --show-regulation-notes), never as the submission's
    fault. A submission selecting B is told nothing."""
    counts = SEVEN_CARD_COUNTS  # of the C(52, 7) seven-card hands, by the best five
    paid_a = {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 30}
    paid_a |= {"full_house": 9, "flush": 7, "straight": 4, "three_of_a_kind": 3}
    total = 133_784_560
    won = sum(counts[k] * paid_a[k] for k in counts)
    hold = Fraction(total - sum(counts.values()) - won, total)
    assert f"{float(hold * 100):.4f}%" == "0.7402%"
    code = "wpt-heads-up-holdem/trips-plus-published-hold-range"
    path = _submission(tmp_path, "trips_plus: B", "trips_plus: A")
    out = run_rulesub("validate", "--show-regulation-notes", str(path), "--format", "json")
    assert out.returncode == 0
    found = {f["code"]: f for f in json.loads(out.stdout)["findings"]}
    assert found[code]["severity"] == "info"
    assert "paytable A's exact hold is 0.7402%, outside 0.75%–4.34%" in found[code]["message"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert found[code]["line"] == next(n for n, x in enumerate(lines, 1) if "trips_plus: A" in x)
    assert code not in _codes(path)  # a fact about the regulation: only when asked
    out = run_rulesub("validate", "--show-regulation-notes", str(EXAMPLE), "--format", "json")
    assert code not in {f["code"] for f in json.loads(out.stdout)["findings"]}


def test_a_stated_pocket_bonus_table_is_posted_as_the_submission_writes_it(
    tmp_path: Path,
) -> None:
    """§ 677a.12(d) is missing from the text: the table in use is the submission's own
    ("as stated in the Rules Submission"). Its sign listed the rows in the ranking's
    order, the pairs first, "Pair 3 to 1" above "Ace-king suited 25 to 1", in neither the
    filing's order nor the payouts'. It posts them as the filing writes them."""
    written = POCKET.strip("\n").split("\n")
    reordered = "\n".join([written[0], *reversed(written[1:])]) + "\n"
    path = _submission(tmp_path, POCKET, reordered)
    out = run_rulesub("signage", str(path))
    assert out.returncode == 0, out.stderr
    sign = out.stdout.split("Pocket Bonus Wager  [")[1].split("==")[0]
    rows = [
        line.strip().rsplit("  ", 1)[0].strip() for line in sign.splitlines() if " to 1" in line
    ]
    assert rows == [
        "Pair",
        "Ace and a king, queen or jack",
        "Pair of kings, queens or jacks",
        "Ace-king",
        "Ace-queen or ace-jack suited",
        "Ace-king suited",
        "Pair of aces",
    ]
