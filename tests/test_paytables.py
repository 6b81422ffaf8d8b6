"""Every paytable, meter and limit each chapter prints, transcribed here from the regulation
text (not from the game files) and compared cell by cell with the game files.

Tables are written row by row as the chapters print them: the hand as the chapter names it,
then the cells of each column. Amendments in force: High Card Flush (§ 678a.12(b), (c))
carries the underlined figures; struck text is gone, text in capitals is added.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest

from validator.model.game import GameDefinition, MeterRule, Table
from validator.model.notation import Payout, PayoutKind

# -- reading a transcribed cell, independently of the project's parser ------------------------


def exact(cell: str) -> tuple:
    """A cell as the chapter prints it → (kind, exact value)."""
    c = cell.strip()
    if c == "N/A":
        return ("na",)
    if c.lower() == "push":
        return ("push",)
    if m := re.fullmatch(r"([\d,]+) (to|for) ([\d,]+)", c):
        a, b = (int(x.replace(",", "")) for x in (m.group(1), m.group(3)))
        return (m.group(2), Fraction(a, b))
    if m := re.fullmatch(r"(\d+)% (?:of meter|(\w+) jackpot)", c):
        return ("meter", Fraction(int(m.group(1)), 100), m.group(2) or "primary")
    if m := re.fullmatch(r"\$([\d,]+)", c):
        return ("fixed", Decimal(m.group(1).replace(",", "")))
    raise AssertionError(f"transcription: {cell!r}")


def as_exact(p: Payout) -> tuple:
    match p.kind:
        case PayoutKind.NA:
            return ("na",)
        case PayoutKind.PUSH:
            return ("push",)
        case PayoutKind.TO | PayoutKind.FOR:
            return (p.kind.value, p.ratio)
        case PayoutKind.METER:
            return ("meter", p.share, p.meter)
        case PayoutKind.FIXED:
            return ("fixed", p.amount)
    raise AssertionError(p)


def columns(letters: str | list[str], *rows: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Row-wise transcription → {column: {hand: cell}}; an empty cell is a blank."""
    heads = list(letters)
    out: dict[str, dict[str, str]] = {h: {} for h in heads}
    for hand, *cells in rows:
        assert len(cells) == len(heads), hand
        for h, cell in zip(heads, cells, strict=True):
            if cell:
                out[h][hand] = cell
    return out


def check_rows(actual: dict[str, Payout], expected: dict[str, str], labels: dict[str, str]):
    """Every row the chapter prints, with its figure, and no row it does not print."""
    want = {labels[hand]: cell for hand, cell in expected.items()}
    assert set(actual) == set(want), (sorted(actual), sorted(want))
    for row, cell in want.items():
        assert as_exact(actual[row]) == exact(cell), (row, actual[row].text, cell)
        assert actual[row].text.replace(" ", "").lower() == cell.replace(" ", "").lower()


def check_table(table: Table, expected: dict, labels: dict[str, str]) -> None:
    if "fixed" in expected:
        assert table.paytable is not None
        check_rows(table.paytable, expected["fixed"], labels)
    elif "by_wager_amount" in expected:
        by_amount = expected["by_wager_amount"]
        assert list(table.by_wager_amount or {}) == list(by_amount)
        for amount, tables in by_amount.items():
            assert list(table.by_wager_amount[amount]) == list(tables)
            for letter, rows in tables.items():
                check_rows(table.by_wager_amount[amount][letter], rows, labels)
    else:
        assert table.letters == list(expected["letters"]), "the chapter's letters, in order"
        assert table.selectable
        for letter, rows in expected["letters"].items():
            check_rows(table.rows(letter), rows, labels)


def check_game(d: GameDefinition, tables: dict, labels: dict[str, str]) -> None:
    got = {(w, t) for w, t, _ in d.tables()}
    assert got == set(tables), "no table missing, none invented"
    for (w, t), expected in tables.items():
        _, table = d.table_by_id(t)
        assert d.table_by_id(t)[0] == w
        assert expected["cite"] in table.cite, (t, table.cite)
        check_table(table, expected, labels)


# -- Four Card Poker, 58 Pa. Code ch. 641a -------------------------------------------------------

FOUR_CARD_LABELS = {
    "Four aces": "four_aces",
    "Four-of-a-kind": "four_of_a_kind",
    "Straight flush": "straight_flush",
    "Three-of-a-kind": "three_of_a_kind",
    "Flush": "flush",
    "Straight": "straight",
    "Two pair": "two_pair",
    "Pair of aces": "pair_of_aces",
    "Royal flush": "royal_flush",
    "Full house": "full_house",
    "Six-card royal flush—diamonds": "six_card_royal_flush_diamonds",
    "Six-card royal flush—hearts, spades or clubs": "six_card_royal_flush",
    "Magic Card": "magic_card",
    "Lucky Bonus": "lucky_bonus",
}

FOUR_CARD_TABLES = {
    ("ante", "ante_bonus"): {
        "cite": "§ 641a.12(b)",
        "fixed": {
            "Four-of-a-kind": "25 to 1",
            "Straight flush": "20 to 1",
            "Three-of-a-kind": "2 to 1",
        },
    },
    ("aces_up", "aces_up"): {
        "cite": "§ 641a.12(c)",
        "letters": columns(
            "ABCDEF",
            ("Four-of-a-kind", "50 to 1", "50 to 1", "50 to 1", "50 to 1", "50 to 1", "50 to 1"),
            ("Straight flush", "30 to 1", "30 to 1", "40 to 1", "40 to 1", "30 to 1", "40 to 1"),
            ("Three-of-a-kind", "9 to 1", "7 to 1", "8 to 1", "8 to 1", "8 to 1", "7 to 1"),
            ("Flush", "6 to 1", "6 to 1", "5 to 1", "6 to 1", "6 to 1", "5 to 1"),
            ("Straight", "4 to 1", "5 to 1", "4 to 1", "4 to 1", "4 to 1", "4 to 1"),
            ("Two pair", "2 to 1", "2 to 1", "3 to 1", "2 to 1", "2 to 1", "3 to 1"),
            ("Pair of aces", "1 to 1", "1 to 1", "1 to 1", "1 to 1", "1 to 1", "1 to 1"),
        ),
    },
    ("four_card_progressive", "four_card_progressive"): {
        "cite": "§ 641a.12(d)(1)",
        "letters": columns(
            "AB",
            ("Four aces", "100% of meter", "100% of meter"),
            ("Four-of-a-kind", "300 for 1", "300 for 1"),
            ("Straight flush", "100 for 1", "100 for 1"),
            ("Three-of-a-kind", "9 for 1", "15 for 1"),
        ),
    },
    ("four_card_progressive", "four_card_envy_bonus"): {
        "cite": "§ 641a.12(d)(5)",
        "by_wager_amount": {
            "1": columns(
                "AB",
                ("Four aces", "$100", "$100"),
                ("Four-of-a-kind", "$10", "$25"),
                ("Straight flush", "$5", "N/A"),
            ),
            "5": columns(
                "AB",
                ("Four aces", "$500", "$500"),
                ("Four-of-a-kind", "$50", "$125"),
                ("Straight flush", "$25", "N/A"),
            ),
        },
    },
    ("five_card_progressive", "five_card_progressive"): {
        "cite": "§ 641a.12(e)(1)",
        "letters": columns(
            "ABCD",
            (
                "Royal flush",
                "100% of meter",
                "100% mega jackpot",
                "100% mega jackpot",
                "100% mega jackpot",
            ),
            (
                "Straight flush",
                "10% of meter",
                "100% major jackpot",
                "100% major jackpot",
                "100% major jackpot",
            ),
            (
                "Four-of-a-kind",
                "300 for 1",
                "300 for 1",
                "100% minor jackpot",
                "100% minor jackpot",
            ),
            ("Full house", "50 for 1", "50 for 1", "50 for 1", "50 for 1"),
            ("Flush", "40 for 1", "40 for 1", "40 for 1", "40 for 1"),
            ("Straight", "30 for 1", "30 for 1", "30 for 1", "30 for 1"),
            ("Three-of-a-kind", "9 for 1", "9 for 1", "10 for 1", "9 for 1"),
        ),
    },
    ("five_card_progressive", "five_card_envy_bonus"): {
        "cite": "§ 641a.12(e)(5)",
        "by_wager_amount": {
            "1": {"fixed": {"Royal flush": "$1,000", "Straight flush": "$300"}},
            "5": {"fixed": {"Royal flush": "$5,000", "Straight flush": "$1,500"}},
        },
    },
    ("bad_beat_bonus", "bad_beat_bonus"): {
        "cite": "§ 641a.12(f)",
        "letters": columns(
            "AB",
            ("Four-of-a-kind", "25,000 to 1", "10,000 to 1"),
            ("Straight flush", "10,000 to 1", "5,000 to 1"),
            ("Three-of-a-kind", "100 to 1", "100 to 1"),
            ("Flush", "25 to 1", "25 to 1"),
            ("Straight", "15 to 1", "15 to 1"),
            ("Two pair", "4 to 1", "4 to 1"),
        ),
    },
    ("five_card_hand_bonus", "five_card_hand_bonus"): {
        "cite": "§ 641a.12(g)(1)",
        "fixed": {
            "Royal flush": "100% of meter",
            "Straight flush": "10% of meter",
            "Four-of-a-kind": "500 for 1",
            "Full house": "100 for 1",
            "Flush": "50 for 1",
        },
    },
    ("five_card_hand_bonus", "magic_card_lucky_bonus"): {
        "cite": "§ 641a.12(g)(3)",
        "fixed": {"Magic Card": "20 for 1", "Lucky Bonus": "5 for 1"},
    },
    ("six_card_bonus", "six_card_bonus"): {
        "cite": "§ 641a.12(h)",
        "letters": columns(
            "ABCDE",
            ("Six-card royal flush—diamonds", "", "", "", "", "200,000 to 1"),
            ("Six-card royal flush—hearts, spades or clubs", "", "", "", "", "20,000 to 1"),
            ("Royal flush", "1,000 to 1", "1,000 to 1", "1,000 to 1", "1,000 to 1", "1,000 to 1"),
            ("Straight flush", "200 to 1", "200 to 1", "200 to 1", "200 to 1", "200 to 1"),
            ("Four-of-a-kind", "50 to 1", "50 to 1", "100 to 1", "100 to 1", "50 to 1"),
            ("Full house", "25 to 1", "25 to 1", "20 to 1", "20 to 1", "20 to 1"),
            ("Flush", "20 to 1", "15 to 1", "15 to 1", "15 to 1", "15 to 1"),
            ("Straight", "10 to 1", "10 to 1", "9 to 1", "10 to 1", "10 to 1"),
            ("Three-of-a-kind", "5 to 1", "5 to 1", "8 to 1", "7 to 1", "5 to 1"),
        ),
    },
}


def test_641a_12_every_paytable(games) -> None:
    check_game(games["four-card-poker"].definition, FOUR_CARD_TABLES, FOUR_CARD_LABELS)


def test_641a_12_a_ante_and_play_pay_1_to_1(games) -> None:
    w = games["four-card-poker"].definition.wagers
    for wid in ("ante", "play"):
        assert w[wid].pays.payout.ratio == 1 and w[wid].pays.payout.kind is PayoutKind.TO
        assert "§ 641a.12(a)" in w[wid].pays.cite


def meter(rule: MeterRule) -> dict[str, object]:
    """The rule's exact values (Decimal dollars per unit, Fraction rates, 'N/A'/'stated')."""
    values = {f: getattr(rule, f) for f in type(rule).model_fields if f != "note"}
    if values.get("reserve_on_reset") == "funds_reseed":  # the default: the reserve funds
        del values["reserve_on_reset"]  # the reseed (§ 641a.12(g)(4) reads otherwise)
    return {k: v for k, v in values.items() if v is not None}


def per_unit(dollars: int) -> Decimal:
    return Decimal(dollars)


def test_641a_12_d_3_four_card_progressive_meters(games) -> None:
    """Seed/reseed $5,000 for 1 and $1,000 for 1; primary 29% and 25%; reserve N/A and 5%."""
    _, table = games["four-card-poker"].table("four_card_progressive")
    m = table.meters
    assert m.cite == "§ 641a.12(d)(3)" and m.paid_when.cite == "§ 641a.12(d)(4)"
    assert {k: {n: meter(r) for n, r in v.items()} for k, v in m.paytables.items()} == {
        "A": {
            "primary": {
                "seed": per_unit(5000),
                "reseed": per_unit(5000),
                "increment": Fraction(29, 100),
                "reserve_increment": "N/A",
            }
        },
        "B": {
            "primary": {
                "seed": per_unit(1000),
                "reseed": per_unit(1000),
                "increment": Fraction(25, 100),
                "reserve_increment": Fraction(5, 100),
            }
        },
    }


def test_641a_12_e_3_five_card_progressive_meters(games) -> None:
    """Table A: $10,000 for 1, primary 21%, reserve N/A. Tables B-D: mega $10,000, major
    $1,000, minor N/A / $250 / $250; mega 11/9/10%, major 10/7/8%, minor N/A/3/3%; B-D
    print no reserve row, and the rates "must be as follows": no reserve (N/A)."""
    _, table = games["four-card-poker"].table("five_card_progressive")
    m = table.meters
    assert m.cite == "§ 641a.12(e)(3)" and m.paid_when.cite == "§ 641a.12(e)(4)"

    def rule(seed: int, inc: int) -> dict[str, object]:
        return {
            "seed": per_unit(seed),
            "reseed": per_unit(seed),
            "increment": Fraction(inc, 100),
            "reserve_increment": "N/A",
        }

    assert {k: {n: meter(r) for n, r in v.items()} for k, v in m.paytables.items()} == {
        "A": {"primary": rule(10_000, 21)},
        "B": {"mega": rule(10_000, 11), "major": rule(1_000, 10)},
        "C": {"mega": rule(10_000, 9), "major": rule(1_000, 7), "minor": rule(250, 3)},
        "D": {"mega": rule(10_000, 10), "major": rule(1_000, 8), "minor": rule(250, 3)},
    }


def test_641a_12_g_4_five_card_hand_bonus_meter(games) -> None:
    """Seed $10,000 for 1, reseed $0, primary 13%, reserve 8%; the reserve, read as funding
    the next jackpot, moves onto the meter at a reset (the game file's note)."""
    _, table = games["four-card-poker"].table("five_card_hand_bonus")
    assert table.meters.cite == "§ 641a.12(g)(4)"
    assert table.meters.paytables is None
    assert {n: meter(r) for n, r in table.meters.all.items()} == {
        "primary": {
            "seed": per_unit(10_000),
            "reseed": Decimal(0),
            "increment": Fraction(13, 100),
            "reserve_increment": Fraction(8, 100),
            "reserve_on_reset": "moves_to_meter",
        }
    }


def test_641a_only_the_highest_hand_and_envy(games) -> None:
    d = games["four-card-poker"].definition
    assert d.table_by_id("four_card_progressive")[1].only_highest.cite == "§ 641a.12(d)(2)"
    assert d.table_by_id("five_card_progressive")[1].only_highest.cite == "§ 641a.12(e)(2)"
    assert d.table_by_id("five_card_hand_bonus")[1].only_highest.cite == "§ 641a.12(g)(2)"
    assert d.table_by_id("four_card_envy_bonus")[1].envy.cite == "§ 641a.11(c)(5)(v)(A)"
    assert d.table_by_id("five_card_envy_bonus")[1].envy.cite == "§ 641a.11(c)(5)(v)(B)"
    assert d.table_by_id("four_card_envy_bonus")[1].selectable
    assert not d.table_by_id("five_card_envy_bonus")[1].selectable


# -- Lunar Poker, ch. 589 ------------------------------------------------------------------------

LUNAR_LABELS = {
    "Royal flush": "royal_flush",
    "Straight flush": "straight_flush",
    "Four-of-a-kind": "four_of_a_kind",
    "Same-colored straight": "same_colored_straight",
    "Full house": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three-of-a-kind": "three_of_a_kind",
    "Two pair": "two_pair",
    "One pair": "one_pair",
    "Ace-king": "ace_king",
    "Same colored five": "same_colored_five",
}

LUNAR_TABLES = {
    ("ante", "instant_payout"): {
        "cite": "§ 589.12(a)",
        "letters": columns(
            "ABCDEFGH",
            (
                "Royal flush",
                "1,500 to 1",
                "1,500 to 1",
                "1,500 to 1",
                "1,200 to 1",
                "1,200 to 1",
                "1,000 to 1",
                "800 to 1",
                "600 to 1",
            ),
            (
                "Straight flush",
                "500 to 1",
                "400 to 1",
                "300 to 1",
                "400 to 1",
                "300 to 1",
                "300 to 1",
                "300 to 1",
                "300 to 1",
            ),
        ),
    },
    ("super", "super"): {
        "cite": "§ 589.12(b)",
        "letters": columns(
            "ABC",
            ("Four-of-a-kind", "250 to 1", "250 to 1", "250 to 1"),
            ("Same-colored straight", "150 to 1", "150 to 1", "150 to 1"),
            ("Full house", "100 to 1", "100 to 1", "100 to 1"),
            ("Flush", "60 to 1", "60 to 1", "60 to 1"),
            ("Straight", "30 to 1", "30 to 1", "30 to 1"),
            ("Three-of-a-kind", "8 to 1", "8 to 1", "7 to 1"),
            ("Ace-king", "6 to 1", "5 to 1", "6 to 1"),
            ("Same colored five", "2 to 1", "2 to 1", "2 to 1"),
        ),
    },
    ("bet", "bet"): {
        "cite": "§ 589.12(c)",
        "fixed": {
            "Royal flush": "100 to 1",
            "Straight flush": "50 to 1",
            "Four-of-a-kind": "20 to 1",
            "Full house": "7 to 1",
            "Flush": "5 to 1",
            "Straight": "4 to 1",
            "Three-of-a-kind": "3 to 1",
            "Two pair": "2 to 1",
            "One pair": "1 to 1",
            "Ace-king": "1 to 1",
        },
    },
}


def test_589_12_every_paytable(games) -> None:
    d = games["lunar-poker"].definition
    check_game(d, LUNAR_TABLES, LUNAR_LABELS)
    assert d.wagers["ante"].pays.payout.ratio == 1  # § 589.12(d)
    assert "§ 589.12(d)" in d.wagers["ante"].pays.cite


# -- WPT Heads-Up Hold 'Em, ch. 677a ---------------------------------------------------------------

WPT_LABELS = {
    "Royal flush": "royal_flush",
    "Straight flush": "straight_flush",
    "Four-of-a-kind": "four_of_a_kind",
    "Full house": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three-of-a-kind": "three_of_a_kind",
    "Two pair": "two_pair",
    "Pair": "pair",
}

WPT_TABLES = {
    ("odds", "odds"): {
        "cite": "§ 677a.12(b)",
        "fixed": {
            "Royal flush": "500 to 1",
            "Straight flush": "50 to 1",
            "Four-of-a-kind": "10 to 1",
            "Full house": "3 to 1",
            "Flush": "3 to 2",
            "Straight": "1 to 1",
            "Three-of-a-kind": "Push",
            "Two pair": "Push",
            "Pair": "Push",
        },
    },
    ("odds", "bad_beat"): {"cite": "§ 677a.12(c)", "missing": True},
    ("pocket_bonus", "pocket_bonus"): {"cite": "§ 677a.12(d)", "missing": True},
    ("trips_plus", "trips_plus"): {
        "cite": "§ 677a.12(e)",
        "letters": columns(
            "ABCD",
            ("Royal flush", "100 to 1", "100 to 1", "100 to 1", "100 to 1"),
            ("Straight flush", "40 to 1", "40 to 1", "40 to 1", "40 to 1"),
            ("Four-of-a-kind", "30 to 1", "30 to 1", "30 to 1", "30 to 1"),
            ("Full house", "9 to 1", "8 to 1", "7 to 1", "8 to 1"),
            ("Flush", "7 to 1", "6 to 1", "6 to 1", "7 to 1"),
            ("Straight", "4 to 1", "5 to 1", "5 to 1", "4 to 1"),
            ("Three-of-a-kind", "3 to 1", "3 to 1", "3 to 1", "3 to 1"),
        ),
    },
}


def test_677a_12_every_paytable(games) -> None:
    d = games["wpt-heads-up-holdem"].definition
    present = {k: v for k, v in WPT_TABLES.items() if not v.get("missing")}
    check_game(
        d.model_copy(
            update={
                "wagers": {
                    w: wager.model_copy(
                        update={
                            "tables": {
                                t: table for t, table in wager.tables.items() if (w, t) in present
                            }
                        }
                    )
                    for w, wager in d.wagers.items()
                }
            }
        ),
        present,
        WPT_LABELS,
    )
    assert {(w, t) for w, t, _ in d.tables()} == set(WPT_TABLES)
    for wid in ("ante", "raise"):
        assert d.wagers[wid].pays.payout.ratio == 1  # § 677a.12(a)
        assert "§ 677a.12(a)" in d.wagers[wid].pays.cite


@pytest.mark.parametrize(
    ("table_id", "cite"), [("bad_beat", "§ 677a.12(c)"), ("pocket_bonus", "§ 677a.12(d)")]
)
def test_677a_12_c_d_missing_tables_invent_nothing(games, table_id: str, cite: str) -> None:
    """The copy jumps from § 677a.12(b) to (e) (MISSING.md): `source: missing`, no letters,
    no rows, a note of what is known."""
    _, table = games["wpt-heads-up-holdem"].table(table_id)
    assert table.source == "missing"
    assert table.cite == cite
    assert table.paytables == {} and table.letters == []
    assert table.all_rows() == {}
    assert table.paytable is None and table.by_wager_amount is None
    assert table.note and cite in table.note


def test_677a_pocket_bonus_board_hold_range(games) -> None:
    """The preamble: three Pocket Bonus tables, 4.52%-9.95%; four Trips Plus tables,
    0.75%-4.34%."""
    d = games["wpt-heads-up-holdem"].definition
    pocket = d.table_by_id("pocket_bonus")[1].approved_hold
    trips = d.table_by_id("trips_plus")[1].approved_hold
    assert (pocket.tables, pocket.low, pocket.high) == (
        3,
        Fraction(452, 10_000),
        Fraction(995, 10_000),
    )
    assert (trips.tables, trips.low, trips.high) == (4, Fraction(75, 10_000), Fraction(434, 10_000))


def test_677a_12_f_payout_limit(games) -> None:
    """Not less than $50,000 or the most one patron could win betting the minimum; the
    sentence excluding Pocket Bonus and Trips Plus is struck."""
    pl = games["wpt-heads-up-holdem"].definition.payout_limit
    assert pl.at_least == Decimal(50_000) and pl.or_max_win_at_minimum_wager
    assert pl.excludes == [] and pl.cite == "§ 677a.12(f)" and pl.optional


# -- High Card Flush, ch. 678a ---------------------------------------------------------------------

HCF_LABELS = {
    "Seven-card flush": "seven_card_flush",
    "Six-card flush": "six_card_flush",
    "Five-card flush": "five_card_flush",
    "Four-card flush": "four_card_flush",
    "Seven-card straight flush": "seven_card_straight_flush",
    "Six-card straight flush": "six_card_straight_flush",
    "Five-card straight flush": "five_card_straight_flush",
    "Four-card straight flush": "four_card_straight_flush",
    "Three-card straight flush": "three_card_straight_flush",
}

HCF_TABLES = {
    ("flush_bonus", "flush_bonus"): {
        "cite": "§ 678a.12(b)",
        # C and D carry the underlined figures: C 60/12/1, D 500/50/12/1
        "letters": columns(
            "ABCDEFGH",
            (
                "Seven-card flush",
                "300 to 1",
                "100 to 1",
                "200 to 1",
                "500 to 1",
                "400 to 1",
                "400 to 1",
                "500 to 1",
                "250 to 1",
            ),
            (
                "Six-card flush",
                "100 to 1",
                "20 to 1",
                "60 to 1",
                "50 to 1",
                "60 to 1",
                "100 to 1",
                "100 to 1",
                "100 to 1",
            ),
            (
                "Five-card flush",
                "10 to 1",
                "10 to 1",
                "12 to 1",
                "12 to 1",
                "12 to 1",
                "10 to 1",
                "10 to 1",
                "10 to 1",
            ),
            (
                "Four-card flush",
                "1 to 1",
                "2 to 1",
                "1 to 1",
                "1 to 1",
                "1 to 1",
                "1 to 1",
                "1 to 1",
                "1 to 1",
            ),
        ),
    },
    ("straight_flush_bonus", "straight_flush_bonus"): {
        "cite": "§ 678a.12(c)",
        # A carries the underlined figures 8000 / 1000 / 60
        "letters": columns(
            "ABCD",
            ("Seven-card straight flush", "8000 to 1", "1,000 to 1", "500 to 1", "1,000 to 1"),
            ("Six-card straight flush", "1000 to 1", "500 to 1", "200 to 1", "500 to 1"),
            ("Five-card straight flush", "100 to 1", "100 to 1", "100 to 1", "100 to 1"),
            ("Four-card straight flush", "60 to 1", "75 to 1", "60 to 1", "60 to 1"),
            ("Three-card straight flush", "7 to 1", "7 to 1", "8 to 1", "8 to 1"),
        ),
    },
    ("progressive_jackpot", "progressive_jackpot"): {
        "cite": "§ 678a.12(d)(1)",
        "letters": columns(
            "AB",
            ("Seven-card straight flush", "100% of meter", "100% of meter"),
            ("Six-card straight flush", "10% of meter", "10% of meter"),
            ("Five-card straight flush", "250 for 1", "900 for 1"),
            ("Four-card straight flush", "40 for 1", "50 for 1"),
            ("Three-card straight flush", "3 for 1", "N/A"),
        ),
    },
}


def test_678a_12_every_paytable(games) -> None:
    d = games["high-card-flush"].definition
    check_game(d, HCF_TABLES, HCF_LABELS)
    for wid in ("ante", "raise"):
        assert d.wagers[wid].pays.payout.ratio == 1  # § 678a.12(a)
        assert "§ 678a.12(a)" in d.wagers[wid].pays.cite


def test_678a_amended_cells_in_force(games) -> None:
    """The underlined figures: Flush Bonus D is 500/50/12/1; Straight Flush Bonus A is
    8000/1000/100/60/7."""
    d = games["high-card-flush"].definition
    fb = d.table_by_id("flush_bonus")[1].rows("D")
    assert [
        fb[r].ratio
        for r in ("seven_card_flush", "six_card_flush", "five_card_flush", "four_card_flush")
    ] == [500, 50, 12, 1]
    sfb = d.table_by_id("straight_flush_bonus")[1].rows("A")
    order = ["seven", "six", "five", "four", "three"]
    assert [sfb[f"{n}_card_straight_flush"].ratio for n in order] == [8000, 1000, 100, 60, 7]


def test_678a_12_d_3_progressive_meter_and_limit(games) -> None:
    """Rate of progression stated in the Rules Submission; initial and reset amount at
    least $30,000. § 678a.12(e): limit ≥ $50,000 or the most at the minimum wager,
    excluding winning Progressive Jackpot Wagers."""
    d = games["high-card-flush"].definition
    table = d.table_by_id("progressive_jackpot")[1]
    assert table.meters.cite == "§ 678a.12(d)(3)"
    assert table.meters.paid_when.cite == "§ 678a.12(d)(4)"
    assert table.only_highest.cite == "§ 678a.12(d)(2)"
    assert {n: meter(r) for n, r in table.meters.all.items()} == {
        "primary": {
            "seed_at_least": Decimal(30_000),
            "reseed_at_least": Decimal(30_000),
            "increment": "stated",
        }
    }
    pl = d.payout_limit
    assert pl.at_least == Decimal(50_000) and pl.or_max_win_at_minimum_wager
    assert pl.excludes == ["progressive_jackpot"] and pl.cite == "§ 678a.12(e)"


def test_678a_board_hold_ranges(games) -> None:
    d = games["high-card-flush"].definition
    got = {
        t: (h.tables, h.low, h.high)
        for t in ("flush_bonus", "straight_flush_bonus", "progressive_jackpot")
        if (h := d.table_by_id(t)[1].approved_hold)
    }
    assert got == {
        "flush_bonus": (8, Fraction(53, 1000), Fraction(111, 1000)),
        "straight_flush_bonus": (4, Fraction(66, 1000), Fraction(130, 1000)),
        "progressive_jackpot": (None, Fraction(23, 100), Fraction(23, 100)),
    }


# -- table, cards, limits across the chapters --------------------------------------------------

TABLE_RULES = {
    # game: (positions, cite, decks, cover cards, hours by hand, hours from a shoe, cite)
    "four-card-poker": (7, "§ 641a.2(a)", 1, 1, 4, 8, "§ 641a.3(c)"),
    "lunar-poker": (5, "§ 589.2(a)", 1, 1, 4, 8, "§ 589.3(c)"),
    "wpt-heads-up-holdem": (6, "§ 677a.2(a)", 1, 2, 4, 8, "§ 677a.3(c)"),
    "high-card-flush": (6, "§ 678a.2(a)", 1, 2, 4, 8, "§ 678a.3(c)"),
}


@pytest.mark.parametrize("game_id", sorted(TABLE_RULES))
def test_positions_decks_and_deck_change(games, game_id: str) -> None:
    """Positions (§ x.2(a)): 7, 5, 6, 6. One deck (two only with a shuffler, § x.3(b));
    changed at least every 4 hours by hand, 8 hours from a shoe (§ x.3(c))."""
    positions, pcite, decks, cover, hand, shoe, ccite = TABLE_RULES[game_id]
    d = games[game_id].definition
    assert (d.table.max_positions, d.table.cite) == (positions, pcite)
    assert (d.cards.decks, d.cards.cover_cards) == (decks, cover)
    assert d.cards.two_decks_with_shuffler.allowed
    ch = d.cards.change_every_hours
    assert (ch.hand, ch.shoe, ch.any, ch.cite) == (hand, shoe, None, ccite)


def test_no_payout_limit_where_the_chapter_has_none(games) -> None:
    assert games["four-card-poker"].definition.payout_limit is None
    assert games["lunar-poker"].definition.payout_limit is None


def test_dealer_qualification(games) -> None:
    """§ 589.11(e): ace-king or better; § 677a.11(h): a pair or better; § 678a.11(d):
    a three-card flush, nine high. Four Card Poker's dealer always plays."""
    q = {g: games[g].definition.dealer for g in games}
    assert q["four-card-poker"] is None
    lunar, wpt, hcf = (
        q[g].qualifies for g in ("lunar-poker", "wpt-heads-up-holdem", "high-card-flush")
    )
    assert (lunar.at_least, lunar.cite) == ("ace_king", "§ 589.11(e)")
    assert (wpt.at_least, wpt.cite) == ("pair", "§ 677a.11(h)")
    assert (hcf.at_least, hcf.high_card_at_least, hcf.cite) == (
        "three_card_flush",
        9,
        "§ 678a.11(d)",
    )


def test_raise_limits(games) -> None:
    """§ 641a.11(b): Play 1-3x the Ante; § 589.11(b)(2): Bet twice the Ante; § 677a.11(b),
    (d), (f): raise up to 3x before the flop, 2x after it, 1x after the river; § 678a.11(b):
    1x with a two- to four-card flush, up to 2x with five, up to 3x with six or seven."""
    fcp = games["four-card-poker"].definition.wagers["play"].amount
    assert (fcp.of, fcp.min, fcp.max) == ("ante", 1, 3)
    bet = games["lunar-poker"].definition.wagers["bet"].amount
    assert (bet.of, bet.min, bet.max) == ("ante", 2, 2)
    wpt = games["wpt-heads-up-holdem"].definition.wagers["raise"].amount
    assert [(r.when.decision, r.min, r.max, r.cite) for r in wpt.rules] == [
        ("preflop", None, 3, "§ 677a.11(b)"),
        ("flop", None, 2, "§ 677a.11(d)"),
        ("river", 1, 1, "§ 677a.11(f)"),
    ]
    hcf = games["high-card-flush"].definition.wagers["raise"].amount
    assert [(r.when.at_least, r.min, r.max, r.cite) for r in hcf.rules] == [
        ("six_card_flush", None, 3, "§ 678a.11(b)(3)"),
        ("five_card_flush", None, 2, "§ 678a.11(b)(2)"),
        ("two_card_flush", 1, 1, "§ 678a.11(b)(1)"),
    ]


def test_wager_ids_are_the_issue_s(games) -> None:
    """Wager ids: the regulation's name, lowercase, without "Wager"."""
    assert {g: list(games[g].definition.wagers) for g in games} == {
        "four-card-poker": [
            "ante",
            "play",
            "aces_up",
            "four_card_progressive",
            "five_card_progressive",
            "bad_beat_bonus",
            "five_card_hand_bonus",
            "six_card_bonus",
        ],
        "lunar-poker": ["ante", "bet", "super"],
        "wpt-heads-up-holdem": ["ante", "odds", "raise", "pocket_bonus", "trips_plus"],
        "high-card-flush": [
            "ante",
            "raise",
            "flush_bonus",
            "straight_flush_bonus",
            "progressive_jackpot",
        ],
    }


def test_every_rule_carries_a_citation(games) -> None:
    """Every object of a game file with a `cite` names a section (§), or, for a dated value,
    the Pennsylvania Bulletin notice that gave it (``49 Pa.B. 4956``)."""

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            if "cite" in node:
                cite = str(node["cite"])
                bulletin = re.fullmatch(r"\d+ Pa\.B\. \d+", cite) is not None
                assert "§" in cite or "preamble" in cite or bulletin, path
            for k, v in node.items():
                walk(v, f"{path}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}/{i}")

    for g in games.values():
        data = g.located.data
        walk(data, g.id)
        for wid, wager in data["wagers"].items():
            assert "cite" in wager, wid
            for tid, table in wager.get("tables", {}).items():
                assert "cite" in table, tid
