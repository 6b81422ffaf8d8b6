"""`rulesub diff`: a real paytable change per game, with exact hold deltas worked out here.

The holds are computed in this file from the cards alone, independently of the project's
evaluator and odds engine: a vectorised count of all 2,598,960 five-card hands (Four Card
Poker's best four of five, Lunar Poker's Super Wager hand), the well-known seven-card
Poker counts (Trips Plus) and the suit-length combinatorics of seven cards (High Card
Flush's Flush Bonus). The diff must print exactly these fractions.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from published import SEVEN_CARD_COUNTS
from typer.testing import CliRunner

from validator.cli import app

runner = CliRunner()

HEAD = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
effective: 2027-01-01
"""

FOUR_CARD_POKER = (
    HEAD
    + """\
game: four-card-poker
table: {positions: 7, min_wager: 10, max_wager: 500}
dealing: {methods: [manual_shoe], shuffler: automated_counting, decks: 2,
          change_every_hours: {manual_shoe: 8}}
paytables: {aces_up: A}
adjacent_boxes: 2
"""
)

LUNAR_POKER = (
    HEAD
    + """\
game: lunar-poker
table: {positions: 5, min_wager: 15, max_wager: 1000}
dealing: {methods: [automated_shoe], shuffler: automated_counting, decks: 1,
          change_every_hours: {automated_shoe: 8}}
offered: [super]
paytables: {instant_payout: B, super: B}
"""
)

WPT_HEADS_UP_HOLDEM = (
    HEAD
    + """\
game: wpt-heads-up-holdem
table: {positions: 6, min_wager: 10, max_wager: 500}
dealing: {methods: [manual_shoe], shuffler: automated, decks: 1,
          change_every_hours: {manual_shoe: 8}}
offered: [trips_plus]
paytables: {trips_plus: A}
custom_paytables:
  bad_beat: {straight_flush: 500 to 1, four_of_a_kind: 50 to 1, full_house: 10 to 1}
adjacent_boxes: 1
payout_limit: 100000
"""
)

HIGH_CARD_FLUSH = (
    HEAD
    + """\
game: high-card-flush
table: {positions: 6, min_wager: 10, max_wager: 1000}
dealing: {methods: [automated_shoe], shuffler: automated_counting, decks: 2,
          change_every_hours: {automated_shoe: 8}}
offered: [flush_bonus, progressive_jackpot]
paytables: {flush_bonus: A, progressive_jackpot: A}
progressives:
  progressive_jackpot:
    wager_amount: 1
    meters: {primary: {seed: 30000, reseed: 30000, increment: 20%}}
equipment: {progressive_system: true}
adjacent_boxes: 1
payout_limit: 250000
"""
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def diff(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["diff", *args])
    return result.exit_code, result.stdout, result.stderr


def diff_json(tmp_path: Path, old: str, new: str, *extra: str) -> dict:
    code, out, err = diff(
        str(write(tmp_path, "old.yaml", old)),
        str(write(tmp_path, "new.yaml", new)),
        "--format",
        "json",
        *extra,
    )
    assert code in (0, 1), err  # 1: the new submission has errors, as validate says
    return json.loads(out)


def change_at(data: dict, path: str) -> dict:
    found = [c for c in data["changes"] if c["path"] == path]
    assert len(found) == 1, [c["path"] for c in data["changes"]]
    return found[0]


def hold_json(old: Fraction, new: Fraction) -> dict[str, float]:
    return {"old": float(old * 100), "new": float(new * 100), "delta": float((new - old) * 100)}


def hold(counts: dict[str, int], total: int, paytable: dict[str, Fraction]) -> Fraction:
    """House hold per unit wagered: the paying hands win their odds, all others lose 1."""
    paid = sum(counts[h] for h in paytable)
    player = sum(counts[h] * paytable[h] for h in paytable) - (total - paid)
    return Fraction(-player, total)


# -- independent counts ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def five_cards() -> tuple[np.ndarray, np.ndarray]:
    """Ranks (0 = deuce … 12 = ace) and suits of all C(52, 5) hands."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.int8,
        count=comb(52, 5) * 5,
    ).reshape(-1, 5)
    return flat // 4, flat % 4


def _straight(sorted_ranks: np.ndarray, distinct: np.ndarray) -> np.ndarray:
    n = sorted_ranks.shape[1]
    wheel = np.all(sorted_ranks == np.array([*range(n - 1), 12]), axis=1)
    return distinct & ((sorted_ranks[:, -1] - sorted_ranks[:, 0] == n - 1) | wheel)


@pytest.fixture(scope="module")
def aces_up_counts(five_cards: tuple[np.ndarray, np.ndarray]) -> dict[str, int]:
    """Four Card Poker: the best four-card hand of the player's five (§ 641a.6, 11(c)(2))."""
    ranks, suits = five_cards
    best = np.zeros(len(ranks), dtype=np.int8)
    for keep in itertools.combinations(range(5), 4):
        r = np.sort(ranks[:, keep], axis=1)
        s = suits[:, keep]
        eq = r[:, 1:] == r[:, :-1]
        k = eq.sum(axis=1)
        flush = np.all(s == s[:, :1], axis=1)
        straight = _straight(r, k == 0)
        code = np.select(
            [
                k == 3,  # four of a kind
                flush & straight,
                (k == 2) & ((eq[:, 0] & eq[:, 1]) | (eq[:, 1] & eq[:, 2])),  # three
                flush,
                straight,
                (k == 2),  # two pair: two equal neighbours, not in a row
                k == 1,
            ],
            [8, 7, 6, 5, 4, 3, 2],
            0,
        )
        best = np.maximum(best, code)
    aces = (ranks == 12).sum(axis=1)
    names = {8: "four_of_a_kind", 7: "straight_flush", 6: "three_of_a_kind", 5: "flush"}
    names |= {4: "straight", 3: "two_pair"}
    counts = {name: int((best == code).sum()) for code, name in names.items()}
    counts["pair_of_aces"] = int(((best == 2) & (aces == 2)).sum())
    return counts


@pytest.fixture(scope="module")
def super_counts(five_cards: tuple[np.ndarray, np.ndarray]) -> dict[str, int]:
    """Lunar Poker's Super Wager hand, ranked as § 589.6(d), § 589.11(c)(2)(ii) rank it."""
    ranks, suits = five_cards
    r = np.sort(ranks, axis=1)
    eq = r[:, 1:] == r[:, :-1]
    k = eq.sum(axis=1)
    quads = (r[:, 0] == r[:, 3]) | (r[:, 1] == r[:, 4])
    full = ((r[:, 0] == r[:, 2]) & (r[:, 3] == r[:, 4])) | (
        (r[:, 0] == r[:, 1]) & (r[:, 2] == r[:, 4])
    )
    three = (k >= 2) & ((r[:, 0] == r[:, 2]) | (r[:, 1] == r[:, 3]) | (r[:, 2] == r[:, 4]))
    red = (suits == 1) | (suits == 2)
    one_colour = np.all(red, axis=1) | np.all(~red, axis=1)
    flush = np.all(suits == suits[:, :1], axis=1)
    straight = _straight(r, k == 0)
    ace_king = np.any(ranks == 12, axis=1) & np.any(ranks == 11, axis=1)
    code = np.select(
        [quads, straight & one_colour, full, flush, straight, three, ace_king, one_colour],
        [8, 7, 6, 5, 4, 3, 2, 1],
        0,
    )
    names = [
        "same_colored_five",
        "ace_king",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "same_colored_straight",
        "four_of_a_kind",
    ]
    return {name: int((code == i).sum()) for i, name in enumerate(names, 1)}


SEVEN_CARDS = SEVEN_CARD_COUNTS  # the best five of seven (tests/published.py)


def longest_suit_counts() -> dict[int, int]:
    """Seven-card hands by the length of their longest suit: sum over suit splits."""
    out: dict[int, int] = {}
    for split in itertools.product(range(8), repeat=4):
        if sum(split) == 7:
            ways = 1
            for n in split:
                ways *= comb(13, n)
            out[max(split)] = out.get(max(split), 0) + ways
    return out


def to(a: int) -> Fraction:
    return Fraction(a)


# -- one real paytable change per game --------------------------------------------------------


def test_counts_are_the_known_ones(aces_up_counts: dict[str, int]) -> None:
    """The enumeration agrees with figures anyone can check: 624 four-of-a-kinds in five
    cards, and every split of seven cards adds up to C(52, 7)."""
    assert aces_up_counts["four_of_a_kind"] == 624
    assert sum(longest_suit_counts().values()) == comb(52, 7)
    assert sum(SEVEN_CARDS.values()) < comb(52, 7)


def test_four_card_poker_aces_up_a_to_c(tmp_path: Path, aces_up_counts: dict[str, int]) -> None:
    """§ 641a.12(c): Aces Up from Paytable A to Paytable C, hand by hand, exact hold."""
    a = {"four_of_a_kind": 50, "straight_flush": 30, "three_of_a_kind": 9, "flush": 6}
    a |= {"straight": 4, "two_pair": 2, "pair_of_aces": 1}
    c = a | {"straight_flush": 40, "three_of_a_kind": 8, "flush": 5, "two_pair": 3}
    total = comb(52, 5)
    old = hold(aces_up_counts, total, {h: to(p) for h, p in a.items()})
    new = hold(aces_up_counts, total, {h: to(p) for h, p in c.items()})
    data = diff_json(tmp_path, FOUR_CARD_POKER, FOUR_CARD_POKER.replace("aces_up: A", "aces_up: C"))
    assert data["game"] == "four-card-poker"
    assert data["new_findings"] == []
    assert data["changes"] == [
        {
            "path": "/paytables/aces_up",
            "old": "A",
            "new": "C",
            "hands": [
                {"hand": "straight_flush", "old": "30 to 1", "new": "40 to 1"},
                {"hand": "three_of_a_kind", "old": "9 to 1", "new": "8 to 1"},
                {"hand": "flush", "old": "6 to 1", "new": "5 to 1"},
                {"hand": "two_pair", "old": "2 to 1", "new": "3 to 1"},
            ],
            "hold_percent": hold_json(old, new),
            "long_run_hold_percent": None,  # no progressive: no meter to pay back
        }
    ]
    code, out, _ = diff(str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert code == 0
    assert f"exact: {old} → {new}" in " ".join(out.split())


def test_four_card_progressive_a_to_b(tmp_path: Path, aces_up_counts: dict[str, int]) -> None:
    """§ 641a.12(d)(1), (3): the Four-Card Progressive from A to B on a $1 wager; four aces
    win 100% of the meter, valued at the seed the chapter fixes ($5,000 for 1 in A, $1,000
    for 1 in B); only the highest hand is paid (§ 641a.12(d)(2))."""
    progressive = """\
offered: [four_card_progressive]
progressives:
  four_card_progressive:
    wager_amount: 1
    meters: {primary: {seed: 5000, reseed: 5000, increment: 29%, reserve_increment: N/A}}
equipment: {progressive_system: true}
"""
    old_text = (
        FOUR_CARD_POKER.replace(
            "paytables: {aces_up: A}", "paytables: {aces_up: A, four_card_progressive: A}"
        )
        + progressive
    )
    new_text = old_text.replace("four_card_progressive: A}", "four_card_progressive: B}").replace(
        "seed: 5000, reseed: 5000, increment: 29%, reserve_increment: N/A",
        "seed: 1000, reseed: 1000, increment: 25%, reserve_increment: 5%",
    )
    counts = dict(aces_up_counts) | {"four_aces": 48}  # four aces and any fifth card
    counts["four_of_a_kind"] -= 48
    total = comb(52, 5)
    # "300 for 1" returns 300 with the stake: net 299; the meter share nets meter − 1
    a = {"four_aces": 4999, "four_of_a_kind": 299, "straight_flush": 99, "three_of_a_kind": 8}
    b = a | {"four_aces": 999, "three_of_a_kind": 14}
    old = hold(counts, total, {h: to(p) for h, p in a.items()})
    new = hold(counts, total, {h: to(p) for h, p in b.items()})
    data = diff_json(tmp_path, old_text, new_text)
    change = change_at(data, "/paytables/four_card_progressive")
    assert change["hands"] == [{"hand": "three_of_a_kind", "old": "9 for 1", "new": "15 for 1"}]
    assert change["hold_percent"] == hold_json(old, new)
    seed = change_at(data, "/progressives/four_card_progressive/meters/primary/seed")
    assert (seed["old"], seed["new"], seed["hold_percent"]) == ("$5,000", "$1,000", None)


def test_lunar_poker_super_b_to_c(tmp_path: Path, super_counts: dict[str, int]) -> None:
    """§ 589.12(b): the Super Wager from Paytable B to C: ace-king 5 to 6, three-of-a-kind
    8 to 7."""
    b = {"four_of_a_kind": 250, "same_colored_straight": 150, "full_house": 100, "flush": 60}
    b |= {"straight": 30, "three_of_a_kind": 8, "ace_king": 5, "same_colored_five": 2}
    c = b | {"three_of_a_kind": 7, "ace_king": 6}
    total = comb(52, 5)
    old = hold(super_counts, total, {h: to(p) for h, p in b.items()})
    new = hold(super_counts, total, {h: to(p) for h, p in c.items()})
    assert new - old == Fraction(super_counts["three_of_a_kind"] - super_counts["ace_king"], total)
    data = diff_json(tmp_path, LUNAR_POKER, LUNAR_POKER.replace("super: B", "super: C"))
    change = change_at(data, "/paytables/super")
    assert (change["old"], change["new"]) == ("B", "C")
    assert change["hands"] == [
        {"hand": "three_of_a_kind", "old": "8 to 1", "new": "7 to 1"},
        {"hand": "ace_king", "old": "5 to 1", "new": "6 to 1"},
    ]
    assert change["hold_percent"] == hold_json(old, new)
    assert len(data["changes"]) == 1


def test_wpt_trips_plus_a_to_b(tmp_path: Path) -> None:
    """§ 677a.12(e): Trips Plus from Paytable A to B, priced on the seven-card counts."""
    a = {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 30, "full_house": 9}
    a |= {"flush": 7, "straight": 4, "three_of_a_kind": 3}
    b = a | {"full_house": 8, "flush": 6, "straight": 5}
    total = comb(52, 7)
    old = hold(SEVEN_CARDS, total, {h: to(p) for h, p in a.items()})
    new = hold(SEVEN_CARDS, total, {h: to(p) for h, p in b.items()})
    new_text = WPT_HEADS_UP_HOLDEM.replace("trips_plus: A", "trips_plus: B")
    data = diff_json(tmp_path, WPT_HEADS_UP_HOLDEM, new_text)
    change = change_at(data, "/paytables/trips_plus")
    assert change["hands"] == [
        {"hand": "full_house", "old": "9 to 1", "new": "8 to 1"},
        {"hand": "flush", "old": "7 to 1", "new": "6 to 1"},
        {"hand": "straight", "old": "4 to 1", "new": "5 to 1"},
    ]
    assert change["hold_percent"] == hold_json(old, new)


def test_high_card_flush_flush_bonus_a_to_d(tmp_path: Path) -> None:
    """§ 678a.12(b): the Flush Bonus from A to D (the amended, underlined figures of D:
    seven-card 500, six-card 50, five-card 12, four-card 1 to 1)."""
    lengths = longest_suit_counts()
    counts = {
        "seven_card_flush": lengths[7],
        "six_card_flush": lengths[6],
        "five_card_flush": lengths[5],
        "four_card_flush": lengths[4],
    }
    a = {"seven_card_flush": 300, "six_card_flush": 100, "five_card_flush": 10}
    a |= {"four_card_flush": 1}
    d = a | {"seven_card_flush": 500, "six_card_flush": 50, "five_card_flush": 12}
    total = comb(52, 7)
    old = hold(counts, total, {h: to(p) for h, p in a.items()})
    new = hold(counts, total, {h: to(p) for h, p in d.items()})
    data = diff_json(
        tmp_path, HIGH_CARD_FLUSH, HIGH_CARD_FLUSH.replace("flush_bonus: A", "flush_bonus: D")
    )
    change = change_at(data, "/paytables/flush_bonus")
    assert change["hands"] == [
        {"hand": "seven_card_flush", "old": "300 to 1", "new": "500 to 1"},
        {"hand": "six_card_flush", "old": "100 to 1", "new": "50 to 1"},
        {"hand": "five_card_flush", "old": "10 to 1", "new": "12 to 1"},
    ]
    assert change["hold_percent"] == hold_json(old, new)
    # the same two tables of the game, without submissions
    code, out, err = diff(
        "high-card-flush",
        "--wager",
        "flush_bonus",
        "--paytable",
        "A",
        "--to",
        "D",
        "--format",
        "json",
    )
    assert code == 0, err
    assert json.loads(out) == {"game": "high-card-flush", "changes": [change], "new_findings": []}


# -- meters, limits, dealing, findings ---------------------------------------------------------


def test_meter_limit_and_dealing_changes(tmp_path: Path) -> None:
    """A higher Progressive Jackpot seed lowers the hold (§ 678a.12(d)(3)); a payout limit
    (§ 678a.12(e)) and a deck change (§ 678a.3(c)) are listed without one."""
    new = (
        HIGH_CARD_FLUSH.replace("seed: 30000, reseed: 30000", "seed: 40000, reseed: 40000")
        .replace("payout_limit: 250000", "payout_limit: 300000")
        .replace(
            "change_every_hours: {automated_shoe: 8}", "change_every_hours: {automated_shoe: 6}"
        )
    )
    data = diff_json(tmp_path, HIGH_CARD_FLUSH, new)
    seed = change_at(data, "/progressives/progressive_jackpot/meters/primary/seed")
    assert (seed["old"], seed["new"], seed["hands"]) == ("$30,000", "$40,000", [])
    held = seed["hold_percent"]
    assert held["new"] < held["old"]
    assert held["delta"] == pytest.approx(held["new"] - held["old"], abs=1e-12)
    reseed = change_at(data, "/progressives/progressive_jackpot/meters/primary/reseed")
    assert reseed["hold_percent"] is None
    limit = change_at(data, "/payout_limit")
    assert (limit["old"], limit["new"], limit["hold_percent"]) == ("$250,000", "$300,000", None)
    hours = change_at(data, "/dealing/change_every_hours/automated_shoe")
    assert (hours["old"], hours["new"]) == ("8", "6")
    assert data["changes"][0]["path"].startswith("/progressives/")  # meters before limits


def test_the_terminal_names_each_changed_field_as_the_memo_does(tmp_path: Path) -> None:
    """The terminal names each change as the memo and the review pack do: the initial amount
    of "the meter used for the progressive payout" (§ 678a.12(d)(3)) as that meter's seed,
    the payout limit (§ 678a.12(e)) by its name; and says where the new submission states
    it, by its line (the JSON keeps the path)."""
    new = HIGH_CARD_FLUSH.replace(
        "seed: 30000, reseed: 30000", "seed: 40000, reseed: 40000"
    ).replace("payout_limit: 250000", "payout_limit: 300000")
    code, out, err = diff(
        str(write(tmp_path, "old.yaml", HIGH_CARD_FLUSH)),
        str(write(tmp_path, "new.yaml", new)),
    )
    assert code == 0, err
    flat = " ".join(out.split())
    assert "Progressive Jackpot meter's seed: $30,000 → $40,000" in flat
    lines = new.splitlines()
    seed_line = next(i for i, t in enumerate(lines, 1) if "seed: 40000" in t)
    limit_line = next(i for i, t in enumerate(lines, 1) if t.startswith("payout_limit:"))
    joined = "".join(out.split())  # the terminal wraps a long file name anywhere
    assert f"new.yaml:{seed_line}" in joined and "/progressives/" not in flat  # a line, no path
    assert f"Payoutlimit:$250,000→$300,000{tmp_path / 'new.yaml'}:{limit_line}" in joined


def test_new_findings_and_fail_on_error(tmp_path: Path) -> None:
    """The new submission changes the deck every 12 hours from a shoe (at most 8,
    § 678a.3(c)(2)): that error is new, and --fail-on error turns it into exit 1."""
    new = HIGH_CARD_FLUSH.replace(
        "change_every_hours: {automated_shoe: 8}", "change_every_hours: {automated_shoe: 12}"
    )
    data = diff_json(tmp_path, HIGH_CARD_FLUSH, new)
    assert data["new_findings"], "the validator's new finding is reported"
    finding = data["new_findings"][0]
    assert finding["severity"] == "error"
    assert finding["path"].startswith("/dealing")
    assert set(finding) >= {"code", "message", "cite", "file", "line", "column", "hint"}
    code, _, _ = diff(str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--fail-on", "error")
    assert code == 1
    # the old submission's own findings are not new: the reverse diff has none
    code, out, _ = diff(
        str(tmp_path / "new.yaml"),
        str(tmp_path / "old.yaml"),
        "--format",
        "json",
        "--fail-on",
        "error",
    )
    assert code == 0
    assert json.loads(out)["new_findings"] == []


def test_different_games_exit_2(tmp_path: Path) -> None:
    code, out, err = diff(
        str(write(tmp_path, "a.yaml", HIGH_CARD_FLUSH)),
        str(write(tmp_path, "b.yaml", LUNAR_POKER)),
    )
    assert code == 2
    assert out == ""
    assert "high-card-flush" in err and "lunar-poker" in err


def test_unreadable_and_wrong_usage_exit_2(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", LUNAR_POKER)
    bad = write(tmp_path, "bad.yaml", "paytables: {super: A\n")
    assert diff(str(good), str(bad))[0] == 2
    assert diff(str(good), str(tmp_path / "missing.yaml"))[0] == 2
    assert diff("lunar-poker", "--wager", "super", "--paytable", "A", "--to", "Z")[0] == 2
    assert diff("lunar-poker", "--wager", "supper", "--paytable", "A", "--to", "B")[0] == 2
    assert diff("a", "b", "c")[0] == 2


def test_markdown_memo(tmp_path: Path) -> None:
    code, out, _ = diff(
        str(write(tmp_path, "old.yaml", FOUR_CARD_POKER)),
        str(write(tmp_path, "new.yaml", FOUR_CARD_POKER.replace("aces_up: A", "aces_up: C"))),
        "--format",
        "markdown",
    )
    assert code == 0
    assert out.startswith("# Paytable change: Four Card Poker\n")
    assert "## Aces Up Wager: Paytable A → Paytable C" in out
    assert "| Straight flush | **30 to 1** | **40 to 1** | pays more |" in out
    assert "| Four-of-a-kind | 50 to 1 | 50 to 1 |  |" in out


# -- git's external diff driver -----------------------------------------------------------------


def test_git_external_diff_driver(tmp_path: Path) -> None:
    """git calls ``cmd path old-file old-hex old-mode new-file new-hex new-mode``."""
    old = write(tmp_path, "old.yaml", FOUR_CARD_POKER)
    new = write(tmp_path, "new.yaml", FOUR_CARD_POKER.replace("aces_up: A", "aces_up: C"))
    args = ["rulesubs/fcp.yaml", str(old), "a" * 40, "100644", str(new), "b" * 40, "100644"]
    code, out, _ = diff(*args)
    assert code == 0
    assert out.startswith("rulesub diff a/rulesubs/fcp.yaml b/rulesubs/fcp.yaml\n")
    assert "Paytable A → Paytable C" in out
    # a new file: everything it selects is new
    code, out, _ = diff(
        "rulesubs/fcp.yaml", "/dev/null", "0" * 40, "0", str(new), "b" * 40, "100644"
    )
    assert code == 0 and "none → Paytable C" in out
    # a file that is no submission: the plain text diff, and git goes on
    notes_old = write(tmp_path, "n1.yaml", "just: notes\n")
    notes_new = write(tmp_path, "n2.yaml", "just: other notes\n")
    code, out, _ = diff(
        "notes.yaml", str(notes_old), "1" * 40, "100644", str(notes_new), "2" * 40, "100644"
    )
    assert code == 0
    assert "-just: notes\n+just: other notes\n" in out


def test_a_refinement_without_a_row_is_paid_as_its_parent(tmp_path: Path) -> None:
    """Six Card Bonus tables A-D print no six-card royal flush row: there it is paid as the
    royal flush it holds (§ 641a.12(h)); table E pays it 200,000 or 20,000 to 1."""
    old_text = (
        FOUR_CARD_POKER.replace(
            "paytables: {aces_up: A}", "paytables: {aces_up: A, six_card_bonus: D}"
        )
        + "offered: [six_card_bonus]\n"
    )
    new_text = old_text.replace("six_card_bonus: D", "six_card_bonus: E")
    data = diff_json(tmp_path, old_text, new_text)
    change = change_at(data, "/paytables/six_card_bonus")
    assert change["hands"] == [
        {"hand": "six_card_royal_flush_diamonds", "old": "1,000 to 1", "new": "200,000 to 1"},
        {"hand": "six_card_royal_flush", "old": "1,000 to 1", "new": "20,000 to 1"},
        {"hand": "four_of_a_kind", "old": "100 to 1", "new": "50 to 1"},
        {"hand": "three_of_a_kind", "old": "7 to 1", "new": "5 to 1"},
    ]
    code, out, _ = diff(
        str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--format", "markdown"
    )
    assert code == 0
    assert (
        "| Six-card royal flush—diamonds | **1,000 to 1 (as royal flush)** | **200,000 to 1** |"
        in out
    )


def test_a_deck_change_is_named_by_how_the_cards_are_dealt() -> None:
    """The decks are "changed at least every" so many hours by how the cards are dealt (by
    hand, from a manual or an automated dealing shoe; § 678a.3(c)): a change is named so,
    not as the file's keys ("Dealing deck change, hours manual shoe")."""
    from validator.diff.names import field_name

    assert (
        field_name(None, "/dealing/change_every_hours/manual_shoe")
        == "Deck change (hours), cards dealt from a manual dealing shoe"
    )
    assert field_name(None, "/dealing/change_every_hours/hand").endswith("cards dealt by hand")


def test_a_section_sign_stays_with_its_number_at_80_columns() -> None:
    """As `validate` keeps `§ 641a.12(c)` whole where a line wraps, so does `diff`'s
    terminal report (here at 46 columns, where the cite falls at a line's end); the space
    printed is a plain one."""
    tables = CliRunner().invoke(
        app,
        ["diff", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "C"],
        env={"COLUMNS": "46"},
    )
    assert tables.exit_code == 0, tables.output
    lines = tables.stdout.splitlines()
    assert any("[§ 641a.12(c)]" in ln for ln in lines), tables.stdout
    assert not any(ln.rstrip().endswith("§") for ln in lines)
    assert "\ue000" not in tables.stdout and "\u00a0" not in tables.stdout


def test_the_memo_says_a_value_not_read_as_such_and_its_findings_in_words(tmp_path: Path) -> None:
    """A new filing states the table maximum as `500.5` and the meter's seed as `1000.25`,
    money not read as written. The memo a person reads said "Table maximum wager: $500 →
    none" (as if the limit were dropped) and gave the findings by their paths
    (`/table/max_wager: money 500.5 …`); it now says "not read as written" and names each
    field in words. Dropping the Bad Beat Bonus from `offered` while selecting its paytable
    is said in words too, not as "paytables states the … table"."""
    from validator import PROJECT_ROOT

    old = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    text = old.read_text()
    new = tmp_path / "new.yaml"
    new.write_text(
        text.replace("max_wager: 500}", "max_wager: 500.5}")
        .replace('{seed: "$1,000"', "{seed: 1000.25")
        .replace(
            "offered: [four_card_progressive, bad_beat_bonus,", "offered: [four_card_progressive,"
        )
    )
    out = CliRunner().invoke(app, ["diff", str(old), str(new), "--format", "markdown"])
    assert out.exit_code == 1, out.output
    memo = out.stdout
    assert "- Table maximum wager: $500 → not read as written" in memo
    assert "| Table maximum wager | $500 | (not read as written) |  |" in memo
    assert "→ none" not in memo and "(not stated)" not in memo
    assert "/table/" not in memo and "/progressives/" not in memo and "/paytables/" not in memo
    assert "| error | Table maximum wager: money 500.5:" in memo
    assert "Four-Card Progressive meter's seed: money 1000.25:" in memo
    assert (
        "The Rules Submission selects a paytable of the Bad Beat Bonus, but the Bad Beat "
        "Bonus Wager is not offered" in memo
    )
    data = json.loads(
        CliRunner().invoke(app, ["diff", str(old), str(new), "--format", "json"]).stdout
    )
    limit = next(c for c in data["changes"] if c["path"] == "/table/max_wager")
    assert (limit["old"], limit["new"]) == ("$500", None)  # the JSON keeps null


def test_an_envy_bonus_diff_names_the_wager_its_sums_are_for_641a_12_d_5(tmp_path: Path) -> None:
    """§ 641a.12(d)(5) prints the Four-Card Envy Bonus by the amount of the Progressive
    Payout Wager ("$1 …", "$5 …"). Paytable A on a $1 wager to paytable B on a $5 wager:
    four aces' $100 to $500 is the same per $1 wagered, not "pays more"; four-of-a-kind's
    $10 to $125 pays more per $1; the straight flush's $5 to N/A is no longer paid: "pays
    less", not "changed". Each column names its wager."""
    from validator import PROJECT_ROOT

    old = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    new = tmp_path / "new.yaml"
    new.write_text(
        old.read_text()
        .replace("four_card_envy_bonus: A", "four_card_envy_bonus: B")
        .replace("wager_amount: 1", "wager_amount: 5")
        .replace('seed: "$1,000", reseed: "$1,000"', 'seed: "$5,000", reseed: "$5,000"')
    )
    out = CliRunner().invoke(app, ["diff", str(old), str(new), "--format", "markdown"])
    assert out.exit_code == 0, out.output
    envy = out.stdout.split("## Four-Card Envy Bonus")[1].split("\nHold")[0]
    assert "Paytable A, $1 wager → Paytable B, $5 wager" in envy
    assert "| Four aces | **$100** | **$500** | the same per $1 wagered |" in envy
    assert "| Four-of-a-kind | **$10** | **$125** | pays more |" in envy
    assert "| Straight flush | **$5** | **N/A** | pays less |" in envy
    unstated = tmp_path / "old.yaml"  # no wager_amount: the $1 table is read, and said
    unstated.write_text(old.read_text().replace("    wager_amount: 1\n", ""))
    out = CliRunner().invoke(app, ["diff", str(unstated), str(new), "--format", "markdown"])
    envy = out.stdout.split("## Four-Card Envy Bonus")[1].split("\nHold")[0]
    assert "| Four aces | **$100** | **$500** | the same per $1 wagered |" in envy
    assert "Paytable A, $1 wager → Paytable B, $5 wager" in envy


def test_a_stated_tables_rows_are_headed_old_and_new_not_stated_and_stated(
    tmp_path: Path,
) -> None:
    """A table the submissions state where the text is missing (the Pocket Bonus,
    § 677a.12(d)) was headed "as stated: stated → stated" over columns "stated | stated";
    its columns are the old and the new rows."""
    from validator import PROJECT_ROOT

    old = PROJECT_ROOT / "rulesubs" / "example" / "wpt-heads-up-holdem.yaml"
    new = tmp_path / "new.yaml"
    text = old.read_text()
    assert "    pair: 3 to 1\n" in text
    new.write_text(text.replace("    pair: 3 to 1\n", "    pair: 4 to 1\n"))
    out = CliRunner().invoke(app, ["diff", str(old), str(new), "--format", "markdown"])
    assert out.exit_code == 0, out.output
    assert "## Pocket Bonus Wager, as stated: old rows → new rows" in out.stdout
    assert "| Hand | old rows | new rows | |" in out.stdout
    assert "stated → stated" not in out.stdout and "| stated | stated |" not in out.stdout


def test_a_progressives_hold_says_the_meter_it_stands_at(tmp_path: Path) -> None:
    """A progressive table's hold is priced with its meter standing at an amount: the diff
    says which ($30,000 → $50,000 on the $5 wager, § 678a.12(d)(3)) and that the increments
    the meter pays back later are not in it, in the text and the memo (a bare "56.3%" read
    as the wager's long-run hold)."""
    from validator import PROJECT_ROOT

    old = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
    new = tmp_path / "hcf.yaml"
    new.write_text(
        old.read_text(encoding="utf-8").replace(
            'seed: "$30,000", reseed: "$30,000"', 'seed: "$50,000", reseed: "$50,000"'
        ),
        encoding="utf-8",
    )
    for fmt in ("text", "markdown"):
        result = runner.invoke(app, ["diff", str(old), str(new), "--format", fmt])
        said = " ".join(result.stdout.split())
        assert "the meter at $30,000 on a $5 wager → $50,000 on a $5 wager" in said, fmt
        assert "the increments it pays back later are not counted" in said, fmt


def test_a_poker_change_is_said_in_the_chapters_words_not_the_files(tmp_path: Path) -> None:
    """§ 553.12(b) names "the Kill or Half-kill option", § 553.15(b)(3) time charges "on a
    per-player basis", § 553.20(i) a Bad Beat payout's discontinuing by terminating "pot
    contributions" or "transferring … to other Bad Beat payouts": a change of any is shown in
    those words, the Bad Beat's qualifying hand by the ranking's name for it, and the Bad
    Beat payout's own ``offered`` is never "Wagers offered"."""
    root = Path(__file__).resolve().parents[1] / "rulesubs" / "example"
    omaha = (root / "poker-omaha-hi-lo-8.yaml").read_text(encoding="utf-8")
    changed = omaha.replace("option: half_kill", "option: kill").replace(
        "time: {basis: per_player,", "time: {basis: per_table,"
    )
    _, out, _ = diff(
        str(write(tmp_path, "old.yaml", omaha)), str(write(tmp_path, "new.yaml", changed))
    )
    assert "Betting Kill option: Half-kill → Kill" in out
    assert "Rake time charge basis: per player → per table" in out
    assert "half_kill" not in out and "per_player" not in out

    holdem = (root / "poker-holdem.yaml").read_text(encoding="utf-8")
    assert "at_least: four_of_a_kind" in holdem and "method: both" in holdem
    changed = (
        holdem.replace("at_least: four_of_a_kind", "at_least: full_house")
        .replace("method: both", "method: transfer")
        .replace("types: [percentage]", "types: [percentage, time]")
    )
    data = diff_json(tmp_path, holdem, changed)
    at_least = change_at(data, "/bad_beat/qualifying/at_least")
    assert (at_least["old"], at_least["new"]) == ("Four-of-a-kind", "Full house")
    method = change_at(data, "/bad_beat/discontinuation/method")
    assert method["new"] == "transferred to other Bad Beat payouts"
    assert change_at(data, "/rake/types")["new"] == "percentage, time charges"

    off = holdem.replace("bad_beat:\n  offered: true", "bad_beat:\n  offered: false")
    assert off != holdem
    _, out, _ = diff(
        str(write(tmp_path, "old.yaml", holdem)), str(write(tmp_path, "off.yaml", off))
    )
    assert "Bad Beat payout offered: yes → no" in out
    assert "Wagers offered" not in out


def test_an_offered_table_is_named_as_the_chapter_names_it(tmp_path: Path) -> None:
    """The Magic Card and Lucky Bonus of § 641a.12(g)(3) is offered by its table's name in
    ``offered:``; a diff names it so, never by its id."""
    root = Path(__file__).resolve().parents[1] / "rulesubs" / "example"
    five = (root / "four-card-poker-five-card.yaml").read_text(encoding="utf-8")
    assert "offered: [five_card_progressive, five_card_hand_bonus]" in five
    more = five.replace(
        "offered: [five_card_progressive, five_card_hand_bonus]",
        "offered: [five_card_progressive, five_card_hand_bonus, magic_card_lucky_bonus]",
    )
    _, out, _ = diff(str(write(tmp_path, "old.yaml", five)), str(write(tmp_path, "new.yaml", more)))
    assert "Magic Card and Lucky Bonus" in " ".join(out.split())
    assert "magic_card_lucky_bonus" not in out


@pytest.mark.parametrize(
    ("args", "title"),
    [
        (("four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "C"), "Paytable"),
        (("lunar-poker", "--from", "2014-01-01", "--to", "2016-09-01"), "Regulation"),
    ],
)
def test_a_memo_is_titled_by_what_changed(args: tuple[str, ...], title: str) -> None:
    """A memo of two of the chapter's paytables is a paytable change; of the chapter's own
    amendments between two dates, a regulation change."""
    _, out, _ = diff(*args, "--format", "markdown")
    assert out.startswith(f"# {title} change: ")


def test_a_memo_of_more_than_paytables_is_a_rules_submission_change(tmp_path: Path) -> None:
    """A change of the table's limits is not a paytable change: the memo says what it is."""
    old = write(tmp_path, "old.yaml", FOUR_CARD_POKER)
    new = write(tmp_path, "new.yaml", FOUR_CARD_POKER.replace("max_wager: 500", "max_wager: 400"))
    _, out, _ = diff(str(old), str(new), "--format", "markdown")
    assert out.startswith("# Rules Submission change: Four Card Poker\n")


def test_a_hold_that_did_not_move_says_unchanged(tmp_path: Path) -> None:
    """A lower rate of progression (§ 641a.12(d)(3)) leaves the hold with the meter at its
    seed where it was and moves only the long run: the terminal and the memo say
    "unchanged", as the review pack does, never "0.0000 percentage points"."""
    example = Path(__file__).parents[1] / "rulesubs" / "example" / "four-card-poker.yaml"
    text = example.read_text(encoding="utf-8")
    before = write(tmp_path, "old.yaml", text)
    after = write(tmp_path, "new.yaml", text.replace("increment: 25%", "increment: 20%"))
    for fmt in ("text", "markdown"):
        code, out, err = diff(str(before), str(after), "--format", fmt)
        assert code == 1, err  # the rate is not § 641a.12(d)(3)'s: a new finding
        flat = " ".join(out.split())
        assert "0.0000 percentage points" not in flat
        assert "49.6783% → 49.6783% (unchanged)" in flat
        assert "24.6783% → 29.6783% (+5.0000 percentage points)" in flat


def test_a_progressive_is_named_once_never_progressive_progressive() -> None:
    """A finding on a progressive left unstated (§ 641a.12(e)(3)) named it "Five-Card
    Progressive progressive" in the review pack and the web view; High Card Flush's
    "Progressive Jackpot progressive". Each is named once; a paytable keeps its word."""
    from validator.compiler import load_game
    from validator.diff.names import field_name

    fcp, hcf = load_game("four-card-poker"), load_game("high-card-flush")
    assert field_name(fcp, "/progressives/five_card_progressive") == "Five-Card Progressive"
    assert field_name(hcf, "/progressives/progressive_jackpot") == "Progressive Jackpot"
    assert field_name(fcp, "/paytables/aces_up") == "Aces Up paytable"


def test_a_letter_the_chapter_has_no_paytable_for_lists_no_hand_as_removed(
    tmp_path: Path,
) -> None:
    """§ 641a.12(h) prints Six Card Bonus paytables A to E: a submission moving to "G"
    listed every hand of D as "removed", as if G were a table without them. The change is
    said without hand rows, its hold "n/a (no such paytable)", and the finding says why."""
    example = Path(__file__).parents[1] / "rulesubs" / "example" / "four-card-poker.yaml"
    text = example.read_text(encoding="utf-8")
    before = write(tmp_path, "old.yaml", text)
    after = write(tmp_path, "new.yaml", text.replace("six_card_bonus: D", "six_card_bonus: G"))
    data = diff_json(tmp_path, text, after.read_text(encoding="utf-8"))
    change = change_at(data, "/paytables/six_card_bonus")
    assert (change["old"], change["new"], change["hands"]) == ("D", "G", [])
    code, out, _ = diff(str(before), str(after))
    assert code == 1 and "removed" not in out and "no such paytable" in out


def test_a_poker_change_is_said_in_words_with_the_sections_that_rule_on_it(
    tmp_path: Path,
) -> None:
    """ch. 553: a change of the rake (§ 553.15) or the Bad Beat payout (§ 553.20) names
    the sections that rule on the field, as a paytable change does; an incremental rake's
    levels read "pot $20, rake $1", never Python's "{'pot': Decimal('20'), …}"."""
    example = Path(__file__).parents[1] / "rulesubs" / "example" / "poker-holdem.yaml"
    text = example.read_text(encoding="utf-8")
    new = (
        text.replace("types: [percentage]", "types: [incremental]")
        .replace(
            "percentage: {rate: 10%, taken: end_of_round}",
            "incremental: {levels: [{pot: 20, rake: 1}, {pot: 40, rake: 1}], "
            "taken: end_of_round}",
        )
        .replace("shares: {losing_hand: 50%, winning_hand: 25%, table: 25%}",
                 "shares: {losing_hand: 40%, winning_hand: 35%, table: 25%}")
        .replace("change_every_hours: {hand: 6}", "change_every_hours: {hand: 5}")
    )  # fmt: skip
    before, after = write(tmp_path, "old.yaml", text), write(tmp_path, "new.yaml", new)
    for fmt in ("text", "markdown"):
        code, out, err = diff(str(before), str(after), "--format", fmt)
        assert code == 0, err
        flat = " ".join(out.split())
        assert "Decimal(" not in flat and "{'" not in flat
        assert "pot $20, rake $1; pot $40, rake $1" in flat
        assert "§ 553.15(b)(2)" in flat  # the incremental levels
        assert "§ 553.20(a), (b)(3)" in flat  # a Bad Beat share
    _, memo, _ = diff(str(before), str(after), "--format", "markdown")
    rows = {r.split("|")[1].strip(): r for r in memo.splitlines() if r.startswith("| ")}
    # the levels' own check (§ 553.15(a)(3): within the maximum) beside the levels, never
    # beside how they are taken; the deck change's section, a check the game file's
    # facts give (§ 553.3(b))
    assert "§ 553.15(a)(3), (b)(2)" in rows["Rake incremental levels"]
    assert "(a)(3)" not in rows["Rake incremental taken"]
    assert "§ 553.3(b)" in rows["Deck change (hours), cards dealt by hand"]


def test_a_table_maximum_wager_change_cites_553_18(tmp_path: Path) -> None:
    """§ 553.18: "post a sign stating the minimum and maximum wagers in effect at each
    Poker table". The maximum is the field a check compares the minimum with (never the
    field it checks), so its change cites the section through that comparison."""
    example = Path(__file__).parents[1] / "rulesubs" / "example" / "poker-holdem.yaml"
    text = example.read_text(encoding="utf-8")
    new = text.replace("min_wager: 2, max_wager: 4", "min_wager: 2, max_wager: 5")
    assert new != text
    before, after = write(tmp_path, "old.yaml", text), write(tmp_path, "new.yaml", new)
    for fmt in ("text", "markdown"):
        code, out, err = diff(str(before), str(after), "--format", fmt)
        assert code == 0, err
        flat = " ".join(out.split())  # the one change, its section wrapped onto a line
        assert "maximum wager" in flat and "$5" in flat and "§ 553.18" in flat


def test_a_change_cites_only_the_checks_that_apply_to_the_filings_553_15(
    tmp_path: Path,
) -> None:
    """§ 553.15(a)(3): "the amount of maximum permissible rake". Of a filing with a
    percentage rake alone, a change of the maximum cites that, where it cited the checks of
    incremental levels (§ 553.15(b)(2)) and of time charges (§ 553.15(b)(3)) the filings do
    not state, and (a)(3) three times. Stating time charges, their check is cited too. The
    maximum number of raises is named as § 553.18 names it."""
    example = Path(__file__).parents[1] / "rulesubs" / "example" / "poker-holdem.yaml"
    text = example.read_text(encoding="utf-8")
    new = text.replace("  maximum: 5\n", "  maximum: 4\n").replace("max_raises: 3", "max_raises: 4")
    assert new.count("maximum: 4") == 1 and "max_raises: 4" in new
    before, after = write(tmp_path, "old.yaml", text), write(tmp_path, "new.yaml", new)
    _, memo, _ = diff(str(before), str(after), "--format", "markdown")
    rows = {r.split("|")[1].strip(): r for r in memo.splitlines() if r.startswith("| ")}
    assert rows["Rake maximum"].count("§") == 1 and "§ 553.15(a)(3)" in rows["Rake maximum"]
    assert "Betting maximum number of raises" in rows

    def timed(t: str) -> str:
        return (
            t.replace("types: [percentage]", "types: [percentage, time]")
            .replace(
                "percentage: {rate: 10%, taken: end_of_round}",
                "percentage: {rate: 10%, taken: end_of_round}\n"
                "  time: {hourly_fee: 4, basis: per_player, every_minutes: 60}",
            )
            .replace("  maximum: 5\n", "  maximum: 6\n")
        )

    before, after = (
        write(tmp_path, "old.yaml", timed(text)),
        write(tmp_path, "new.yaml", timed(new)),
    )
    _, memo, _ = diff(str(before), str(after), "--format", "markdown")
    rows = {r.split("|")[1].strip(): r for r in memo.splitlines() if r.startswith("| ")}
    assert "(b)(3)" in rows["Rake maximum"] and "(b)(2)" not in rows["Rake maximum"]


@pytest.mark.parametrize("columns", ["60", "80"])
def test_a_hold_and_its_exact_fractions_are_each_read_on_one_line(columns: str) -> None:
    """§ 641a.12(c): the Aces Up hold before → after, and its exact fractions, wrapped
    onto the next line whole at a narrow terminal: never "12643/324870 →" over
    "1503/54145"."""
    tables = CliRunner().invoke(
        app,
        ["diff", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "C"],
        env={"COLUMNS": columns},
    )
    assert tables.exit_code == 0, tables.output
    lines = [" ".join(ln.split()) for ln in tables.stdout.splitlines()]
    assert any("2.7759% → 3.8917%" in ln for ln in lines), tables.stdout
    assert any("exact: 1503/54145 → 12643/324870" in ln for ln in lines), tables.stdout
    assert "\ue000" not in tables.stdout


def test_a_street_inside_a_sentence_keeps_the_chapters_capitals() -> None:
    """A street named inside a sentence ("the maximum wager from fifth street") takes a
    lower first letter, but a term the chapter capitalises stays so: "Blind Bets and hole
    cards" (§ 553.11(d): "the Blind Bets"), never "blind bets and hole cards"."""
    from validator.compiler import load_game

    holdem = load_game("poker-holdem").definition.deal
    stud = load_game("poker-seven-card-stud").definition.deal
    draw = load_game("poker-five-card-draw").definition.deal
    assert holdem is not None and stud is not None and draw is not None
    assert holdem.streets["preflop"].in_sentence == "Blind Bets and hole cards"
    assert draw.streets["predraw"].in_sentence == "five cards and Blind Bets"
    assert stud.streets["fifth_street"].in_sentence == "fifth street"
