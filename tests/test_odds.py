"""Exact odds of every priced paytable wager, each pinned against figures derived here
independently of the odds engine: the well-known Poker counts, closed-form combinatorics,
and small enumerations written in the test."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from published import FIVE_CARD_COUNTS, SEVEN_CARD_COUNTS

from validator.compiler import Game, load_game
from validator.model.ranking import Category, Ranking
from validator.model.registry import load_rankings
from validator.odds import NotPriced, OddsError, exact_odds, not_priced_reason, odds_for_rows
from validator.odds.enumeration import (
    _suit_assignments,
    canonical_hands,
    category_counts,
    coset_representatives,
    full_enumeration_counts,
    orbit_counts,
    symmetry_group,
)
from validator.par.completions import JOINT

RANKINGS = load_rankings()

FIVE_OF_7 = SEVEN_CARD_COUNTS  # the best five of seven (tests/published.py)
FIVE_OF_6 = {  # the best five of six cards
    "royal_flush": 188,
    "straight_flush": 1_656,
    "four_of_a_kind": 14_664,
    "full_house": 165_984,
    "flush": 205_792,
    "straight": 361_620,
    "three_of_a_kind": 732_160,
    "two_pair": 2_532_816,
    "pair": 9_730_740,
    "high_card": 6_612_900,
}


def game(game_id: str) -> Game:
    return load_game(game_id)


def hold_of(counts: dict[str, int], nets: dict[str, Fraction], total: int) -> Fraction:
    """Hold of a wager from hand counts and net payouts; hands without a net lose."""
    paid = sum(counts[c] * nets[c] for c in nets)
    lost = total - sum(counts[c] for c in nets)
    return -(Fraction(paid) - lost) / total


# -- the enumeration ---------------------------------------------------------------------------


@pytest.mark.parametrize("k", range(8))
def test_orbits_cover_every_hand(k: int) -> None:
    assert sum(int(w.sum()) for _, w in canonical_hands(k)) == comb(52, k)


def test_seven_card_counts_are_the_known_ones() -> None:
    counts = dict(
        zip(RANKINGS["five-card"].ids, category_counts(RANKINGS["five-card"], 7), strict=True)
    )
    for cid, n in FIVE_OF_7.items():
        assert counts[cid] == n, cid
    assert sum(counts.values()) == 133_784_560


def test_five_and_six_card_counts_are_the_known_ones() -> None:
    five = RANKINGS["five-card"]
    assert dict(zip(five.ids, category_counts(five, 5), strict=True)) == FIVE_CARD_COUNTS
    six = RANKINGS["six-card-bonus"]
    counts = dict(zip(six.ids, category_counts(six, 6), strict=True))
    # § 641a.6(e)(1): one six-card royal flush per suit; the diamonds one is split out
    assert counts["six_card_royal_flush_diamonds"] == 1
    assert counts["six_card_royal_flush"] == 3
    royal = counts.pop("six_card_royal_flush_diamonds") + counts.pop("six_card_royal_flush")
    counts["royal_flush"] += royal
    assert counts == FIVE_OF_6


def test_symmetry_groups_follow_the_primitives() -> None:
    """All 24 suit permutations without suit or colour primitives; the 8 keeping colours
    with `same_color`; the 6 fixing diamonds with `suit: diamonds`."""
    assert len(symmetry_group(RANKINGS["five-card"])) == 24
    assert len(symmetry_group(RANKINGS["lunar-super"])) == 8
    assert len(symmetry_group(RANKINGS["six-card-bonus"])) == 6
    assert len(coset_representatives(symmetry_group(RANKINGS["six-card-bonus"]))) == 4


def test_suit_and_colour_rankings_match_full_enumeration() -> None:
    """A ranking mixing a named suit and colours (so only the suit-fixing, colour-keeping
    permutations apply) counted by orbits equals every one of the 2,598,960 hands."""
    ranking = Ranking(
        id="probe",
        name="probe",
        size=5,
        ace_low=True,
        cite="§ test",
        categories=[
            Category(id="heart_flush", name="h", flush=4, suit="hearts"),
            Category(id="colour_run", name="c", same_color_straight=3),
            Category(id="red_pair", name="p", of_a_kind=[2], min_rank=10),
            Category(id="colour", name="c5", same_color=4),
            Category(id="other", name="o", any=True),
        ],
    )
    assert len(symmetry_group(ranking)) == 2  # identity and clubs<->spades
    assert category_counts(ranking, 5) == full_enumeration_counts(ranking, 5)


@pytest.mark.slow  # two whole enumerations
@pytest.mark.parametrize("ranking_id", sorted(RANKINGS))
def test_counting_by_rank_multiset_equals_counting_by_orbit(ranking_id: str) -> None:
    """Hands that cannot hold a category reading suits, counted by rank multiset and suit
    pattern, give the same counts as evaluating one hand per suit orbit."""
    ranking = RANKINGS[ranking_id]
    for k in (4, 6) if ranking_id not in ("five-card", "lunar-super") else (4, 6, 7):
        assert orbit_counts(ranking, k) == orbit_counts(ranking, k, by_rank_multiset=False), k


def test_rank_multisets_with_colours_a_named_suit_and_a_refinement() -> None:
    """A ranking whose colour category needs four cards of a colour (so 3-2 colour splits
    are counted by rank multiset), with a named suit and a refinement: every one of the
    2,598,960 hands."""
    ranking = Ranking(
        id="probe-colours",
        name="probe",
        size=5,
        ace_low=True,
        cite="§ test",
        categories=[
            Category(id="spade_pair", name="sp", ranks=["A", "K", "Q"], suit="spades"),
            Category(id="colour", name="c4", same_color=4),
            Category(id="run", name="r", straight=4),
            Category(id="aces", name="a", of_a_kind=[2], min_rank="A", refines="pair"),
            Category(id="pair", name="p", of_a_kind=[2]),
            Category(id="other", name="o", any=True),
        ],
    )
    counts = category_counts(ranking, 5)
    assert counts == full_enumeration_counts(ranking, 5)
    assert counts == orbit_counts(ranking, 5, by_rank_multiset=False)


def test_rankings_of_suit_counts_only_are_counted_by_suit_counts() -> None:
    """Flushes (one of them of a named suit) and a colour: the category is a function of how
    many cards each suit holds, so each vector of suit counts is weighed by the product of
    C(13, count); the same as every one of the 270,725 four-card hands."""
    ranking = Ranking(
        id="probe-suit-counts",
        name="probe",
        size=4,
        cite="§ test",
        categories=[
            Category(id="four", name="f4", flush=4),
            Category(id="hearts", name="h3", flush=3, suit="hearts"),
            Category(id="colour", name="c4", same_color=4),
            Category(id="three", name="f3", flush=3),
            Category(id="other", name="o", any=True),
        ],
    )
    counts = category_counts(ranking, 4)
    assert counts == full_enumeration_counts(ranking, 4)
    assert counts[0] == 4 * comb(13, 4)
    assert counts[1] == comb(13, 3) * 39


def test_suit_assignments_of_a_count_pattern() -> None:
    """Ranks held once each: 4**n assignments; two pairs: C(4, 2)**2 = 36 in all, one of
    them clubs 2 diamonds 2, two of them clubs 2 diamonds 1 hearts 1."""
    assert sum(_suit_assignments((1,) * 5).values()) == 4**5
    two_pair = _suit_assignments((2, 2))
    assert sum(two_pair.values()) == 36
    assert two_pair[2 | 2 << 4] == 1
    assert two_pair[2 | 1 << 4 | 1 << 8] == 2
    assert _suit_assignments((4,)) == {1 | 1 << 4 | 1 << 8 | 1 << 12: 1}


def test_lunar_super_counts_match_full_enumeration_and_closed_forms() -> None:
    """§ 589.6(d): a same-colored straight is a straight of one colour (10 runs × 2 colours
    × 2^5 suits, straight flushes included, § 589.11(c)(2)(ii))."""
    ranking = RANKINGS["lunar-super"]
    counts = category_counts(ranking, 5)
    assert counts == full_enumeration_counts(ranking, 5)
    named = dict(zip(ranking.ids, counts, strict=True))
    assert named["same_colored_straight"] == 10 * 2 * 2**5
    assert named["flush"] == 5_148 - 40
    assert named["straight"] == 10_240 - 640


# -- Heads-Up Hold 'Em: Trips Plus, from the seven-card counts -------------------------------


@pytest.mark.parametrize(
    ("letter", "hold"),
    [
        ("A", Fraction(247_579, 33_446_140)),
        ("B", None),
        ("C", None),
        ("D", None),
    ],
)
def test_trips_plus_holds(letter: str, hold: Fraction | None) -> None:
    """§ 677a.12(e), from the 7-card counts (133,784,560 hands)."""
    table = game("wpt-heads-up-holdem").table("trips_plus")[1].rows(letter)
    nets = {c: p.net_units() for c, p in table.items()}
    expected = hold_of(FIVE_OF_7, nets, 133_784_560)
    result = exact_odds(game("wpt-heads-up-holdem"), "trips_plus", letter)
    assert result.hold == expected
    if hold is not None:
        assert result.hold == hold
    assert sum(c.combinations for c in result.categories) == 133_784_560


def test_trips_plus_a_lies_below_the_boards_range() -> None:
    """Preamble: four tables 0.75%–4.34%. A is 0.7402% (the exact figure stands); C is the
    upper end."""
    g = game("wpt-heads-up-holdem")
    a, c = exact_odds(g, "trips_plus", "A"), exact_odds(g, "trips_plus", "C")
    assert a.inside_approved is False and round(a.hold_percent, 4) == 0.7402
    assert c.inside_approved is True and round(c.hold_percent, 2) == 4.34


def test_pocket_bonus_supplied_table() -> None:
    """§ 677a.12(d) is missing; a submitted table is priced on the first two cards: 78
    pairs, 16 each of ace-king, ace-queen, ace-jack (4 suited) of 1,326."""
    g = game("wpt-heads-up-holdem")
    rows = {
        "pair_of_aces": "30 to 1",
        "pair": "5 to 1",
        "ace_king_suited": "25 to 1",
        "ace_king_queen_or_jack": "3 to 1",
    }
    r = odds_for_rows(g, "player_pocket", rows, table_id="pocket_bonus")
    paid = 6 * 30 + 72 * 5 + 4 * 25 + 44 * 3
    assert r.hold == -Fraction(paid - (1326 - 6 - 72 - 4 - 44), 1326)
    assert r.approved_hold is not None and r.inside_approved is (
        Fraction(452, 10000) <= r.hold <= Fraction(995, 10000)
    )
    with pytest.raises(OddsError, match="no hand of the"):
        odds_for_rows(g, "player_pocket", {"pair_of_aeces": "30 to 1"})


# -- Four Card Poker -----------------------------------------------------------------------


def four_card_counts() -> dict[str, int]:
    """The best four of five cards (§ 641a.6(b)), counted by a plain enumeration of the
    2,598,960 hands written here: each of the five four-card subsets classified directly."""
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    order = [
        "four_aces",
        "four_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "flush",
        "straight",
        "two_pair",
        "pair_of_aces",
        "pair",
        "high_card",
    ]
    best = np.full(len(hands), len(order) - 1)
    for drop in range(5):
        sub = np.delete(hands, drop, axis=1)
        ranks, suits = sub // 4, sub % 4
        srt = np.sort(ranks, axis=1)
        eq = srt[:, 1:] == srt[:, :-1]
        pairs = eq.sum(axis=1)
        quad = eq.all(axis=1)
        trips = (eq[:, 0] & eq[:, 1]) | (eq[:, 1] & eq[:, 2])
        two_pair = eq[:, 0] & eq[:, 2] & ~eq[:, 1]
        flush = (suits == suits[:, :1]).all(axis=1)
        distinct = pairs == 0
        run = distinct & (srt[:, 3] - srt[:, 0] == 3)
        wheel = distinct & (srt[:, 3] == 12) & (srt[:, 2] == 2)  # A-2-3-4
        straight = run | wheel
        aces = (srt == 12).sum(axis=1)
        cat = np.select(
            [
                quad & (srt[:, 0] == 12),
                quad,
                straight & flush,
                trips,
                flush,
                straight,
                two_pair,
                (pairs == 1) & (aces == 2),
                pairs == 1,
            ],
            list(range(9)),
            default=9,
        )
        best = np.minimum(best, cat)
    return dict(zip(order, np.bincount(best, minlength=10).tolist(), strict=True))


@pytest.fixture(scope="module")
def fcp_counts() -> dict[str, int]:
    return four_card_counts()


def test_four_card_counts(fcp_counts: dict[str, int]) -> None:
    ranking = RANKINGS["four-card"]
    assert dict(zip(ranking.ids, category_counts(ranking, 5), strict=True)) == fcp_counts
    # closed forms: 13 × 48 four-of-a-kind; 44 four-card straight flushes × 48 fifth cards
    # less the 40 five-card straight flushes counted twice; trips with two other cards
    assert fcp_counts["four_aces"] + fcp_counts["four_of_a_kind"] == 13 * 48
    assert fcp_counts["straight_flush"] == 44 * 48 - 40
    assert fcp_counts["three_of_a_kind"] == 13 * 4 * (comb(12, 2) * 16 + 12 * 6)


@pytest.mark.parametrize("letter", list("ABCDEF"))
def test_aces_up(letter: str, fcp_counts: dict[str, int]) -> None:
    """§ 641a.12(c): four aces are paid as four-of-a-kind (no row of their own)."""
    g = game("four-card-poker")
    rows = g.table("aces_up")[1].rows(letter)
    counts = dict(fcp_counts)
    counts["four_of_a_kind"] += counts.pop("four_aces")
    nets = {c: p.net_units() for c, p in rows.items()}
    assert exact_odds(g, "aces_up", letter).hold == hold_of(counts, nets, comb(52, 5))


def test_aces_up_a_exact() -> None:
    r = exact_odds(game("four-card-poker"), "aces_up", "A")
    assert round(r.hold_percent, 4) == 2.7759
    assert r.basis == "wager" and r.approved_hold is None


def test_ante_bonus_is_a_bonus_on_the_ante(fcp_counts: dict[str, int]) -> None:
    """§ 641a.12(b): paid on the Ante regardless of the dealer's hand; no stake of its own,
    so hands without a row cost nothing and the hold is minus the bonus's return."""
    r = exact_odds(game("four-card-poker"), "ante_bonus")
    bonus = Fraction(
        (fcp_counts["four_aces"] + fcp_counts["four_of_a_kind"]) * 25
        + fcp_counts["straight_flush"] * 20
        + fcp_counts["three_of_a_kind"] * 2,
        comb(52, 5),
    )
    assert r.basis == "bonus"
    assert r.hold == -bonus
    assert r.categories[-1].net == 0


@pytest.mark.parametrize(("letter", "seed"), [("A", 5_000), ("B", 1_000)])
def test_four_card_progressive_at_the_seed(letter: str, seed: int, fcp_counts) -> None:
    """§ 641a.12(d): four aces win 100% of the meter, valued at its seed ($5,000 / $1,000 for
    1, § 641a.12(d)(3)); the other rows are 'for 1'."""
    g = game("four-card-poker")
    r = exact_odds(g, "four_card_progressive", letter)
    three = 9 if letter == "A" else 15
    nets = {
        "four_aces": Fraction(seed - 1),
        "four_of_a_kind": Fraction(299),
        "straight_flush": Fraction(99),
        "three_of_a_kind": Fraction(three - 1),
    }
    assert r.hold == hold_of(fcp_counts, nets, comb(52, 5))
    assert [m.source for m in r.meters] == ["seed"]
    bigger = exact_odds(g, "four_card_progressive", letter, meter=Decimal(seed * 2))
    assert bigger.hold == r.hold - Fraction(fcp_counts["four_aces"] * seed, comb(52, 5))
    assert [m.source for m in bigger.meters] == ["--meter"]


@pytest.mark.parametrize("letter", list("ABCD"))
def test_five_card_progressive(letter: str) -> None:
    """§ 641a.12(e): meters at their seeds per unit (mega $10,000, major $1,000, minor $250;
    table A: 100% and 10% of one $10,000 meter)."""
    g = game("four-card-poker")
    r = exact_odds(g, "five_card_progressive", letter)
    royal, sf = 10_000, 1_000  # A: 100% and 10% of $10,000; B-D: mega and major seeds
    quads = 300 if letter in "AB" else 250
    trips = 10 if letter == "C" else 9
    nets = {
        "royal_flush": Fraction(royal - 1),
        "straight_flush": Fraction(sf - 1),
        "four_of_a_kind": Fraction(quads - 1),
        "full_house": Fraction(49),
        "flush": Fraction(39),
        "straight": Fraction(29),
        "three_of_a_kind": Fraction(trips - 1),
    }
    assert r.hold == hold_of(FIVE_CARD_COUNTS, nets, comb(52, 5))


def test_five_card_hand_bonus() -> None:
    """§ 641a.12(g)(1), meter seed $10,000 for 1 (§ 641a.12(g)(4)); the same odds hold for
    the wager on the dealer's first five cards."""
    r = exact_odds(game("four-card-poker"), "five_card_hand_bonus")
    nets = {
        "royal_flush": Fraction(9_999),
        "straight_flush": Fraction(999),
        "four_of_a_kind": Fraction(499),
        "full_house": Fraction(99),
        "flush": Fraction(49),
    }
    assert r.hold == hold_of(FIVE_CARD_COUNTS, nets, comb(52, 5))
    assert any("the dealer's cards (the first 5 dealt)" in n for n in r.notes)
    assert not any("dealer_five" in n for n in r.notes)  # the hand in words, not its id


@pytest.mark.parametrize("letter", list("ABCDE"))
def test_six_card_bonus(letter: str) -> None:
    """§ 641a.12(h), from the six-card counts; in A–D a six-card royal flush is paid as the
    royal flush it contains, in E by its own rows (diamonds 200,000 to 1)."""
    rows = game("four-card-poker").table("six_card_bonus")[1].rows(letter)
    counts = dict(FIVE_OF_6)
    if letter == "E":
        counts["royal_flush"] -= 4
        counts["six_card_royal_flush_diamonds"] = 1
        counts["six_card_royal_flush"] = 3
    nets = {c: p.net_units() for c, p in rows.items()}
    r = exact_odds(game("four-card-poker"), "six_card_bonus", letter)
    assert r.hold == hold_of(counts, nets, comb(52, 6))


# -- Lunar Poker ---------------------------------------------------------------------------


@pytest.mark.parametrize(("letter", "royal", "sf"), [("A", 1500, 500), ("H", 600, 300)])
def test_instant_payout(letter: str, royal: int, sf: int) -> None:
    """§ 589.12(a): a bonus on the Ante for a royal or straight flush in the first five."""
    r = exact_odds(game("lunar-poker"), "instant_payout", letter)
    assert r.basis == "bonus"
    assert r.hold == -Fraction(4 * royal + 36 * sf, comb(52, 5))
    assert r.hit_frequency == Fraction(40, comb(52, 5))


def test_super_wager_gives_the_player_the_edge() -> None:
    """§ 589.12(b) with § 589.6(d)(7) "an ace and king in any suit": every table's exact
    hold is negative, and is reported as such."""
    g = game("lunar-poker")
    holds = {x: exact_odds(g, "super", x).hold for x in "ABC"}
    assert all(h < 0 for h in holds.values())
    assert round(float(holds["A"] * 100), 4) == -48.8037
    ranking = RANKINGS["lunar-super"]
    counts = dict(zip(ranking.ids, category_counts(ranking, 5), strict=True))
    nets = {c: p.net_units() for c, p in g.table("super")[1].rows("B").items()}
    assert holds["B"] == hold_of(counts, nets, comb(52, 5))


# -- High Card Flush -----------------------------------------------------------------------


def _longest_counts(longest: list[int]) -> dict[int, int]:
    """Seven-card hands by the largest value of ``longest[mask]`` over their four suits:
    the number of hands whose every suit scores ≤ L is the x^7 coefficient of
    (Σ_masks x^popcount)^4 over the masks scoring ≤ L."""
    at_most = {}
    for cap in range(8):
        poly = [0] * 8
        for m in range(1 << 13):
            if longest[m] <= cap and m.bit_count() <= 7:
                poly[m.bit_count()] += 1
        power = [1] + [0] * 7
        for _ in range(4):
            power = [sum(power[i] * poly[j - i] for i in range(j + 1)) for j in range(8)]
        at_most[cap] = power[7]
    return {cap: at_most[cap] - (at_most[cap - 1] if cap else 0) for cap in range(8)}


def _run_length(mask: int, ace_low: bool) -> int:
    bits = [(mask >> i) & 1 for i in range(13)]
    if ace_low:
        bits = [bits[12], *bits]  # the ace below the 2
    best = run = 0
    for b in bits:
        run = run + 1 if b else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize(
    ("letter", "hold", "if_ace_low"),
    [
        ("A", Fraction(6_859_213, 33_446_140), Fraction(4_376_891, 33_446_140)),
        ("B", Fraction(4_777_163, 33_446_140), Fraction(524_039, 8_361_535)),
        ("C", Fraction(2_604_863, 16_723_070), Fraction(1_297_279, 16_723_070)),
        ("D", Fraction(2_550_013, 16_723_070), Fraction(1_235_579, 16_723_070)),
    ],
)
def test_straight_flush_bonus(letter: str, hold: Fraction, if_ace_low: Fraction) -> None:
    """§ 678a.12(c), the ace high only (§ 678a.6(a), (d): A-2-3 of one suit is no straight
    flush): the longest suited run, counted here by a generating function. No table lies in
    the Board's 6.6%-13.0%; the game file's other reading (an ace that may also play low) is
    priced beside it, and recounted here with the ace below the 2."""
    names = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
    rows = game("high-card-flush").table("straight_flush_bonus")[1].rows(letter)
    nets = {c: p.net_units() for c, p in rows.items()}
    holds = {}
    for ace_low in (False, True):
        runs = _longest_counts([_run_length(m, ace_low) for m in range(1 << 13)])
        counts = {f"{names[n]}_card_straight_flush": runs[n] for n in range(3, 8)}
        holds[ace_low] = hold_of(counts, nets, comb(52, 7))
    r = exact_odds(game("high-card-flush"), "straight_flush_bonus", letter)
    assert r.hold == holds[False] == hold
    assert r.other_reading_hold == holds[True] == if_ace_low
    assert r.inside_approved is False  # 6.6%–13.0%: every table above it


def test_straight_flush_bonus_ranking_counts_without_the_ace_low() -> None:
    """§ 678a.6(a), (d): the ranking's seven-card counts agree with the generating function
    of suited runs with the ace high only (28 seven-card straight flushes: 7 runs × 4
    suits)."""
    runs = _longest_counts([_run_length(m, False) for m in range(1 << 13)])
    g = game("high-card-flush")
    ranking = g.ranking_of("player_straight_flush")
    assert not ranking.ace_low
    engine = dict(zip(ranking.ids, category_counts(ranking, 7), strict=True))
    assert engine["seven_card_straight_flush"] == runs[7] == 28
    assert engine["three_card_straight_flush"] == runs[3]
    expected = {"A": 20.5082, "B": 14.2832, "C": 15.5765, "D": 15.2485}
    for letter, pct in expected.items():
        rows = g.table("straight_flush_bonus")[1].rows(letter)
        nets = {c: p.net_units() for c, p in rows.items()}
        assert round(float(hold_of(engine, nets, comb(52, 7)) * 100), 4) == pct


@pytest.mark.parametrize("letter", list("ABCDEFGH"))
def test_flush_bonus(letter: str) -> None:
    """§ 678a.12(b): the longest flush, by generating function; all eight tables inside
    the Board's 5.3%–11.1%."""
    lengths = _longest_counts([m.bit_count() for m in range(1 << 13)])
    names = {7: "seven", 6: "six", 5: "five", 4: "four"}
    counts = {f"{names[n]}_card_flush": lengths[n] for n in names}
    rows = game("high-card-flush").table("flush_bonus")[1].rows(letter)
    nets = {c: p.net_units() for c, p in rows.items()}
    r = exact_odds(game("high-card-flush"), "flush_bonus", letter)
    assert r.hold == hold_of(counts, nets, comb(52, 7))
    assert r.inside_approved is True


def test_progressive_jackpot_at_the_least_seed() -> None:
    """§ 678a.12(d): 100% / 10% of a meter of at least $30,000 (§ 678a.12(d)(3)), valued at
    $30,000 on a $1 wager, the ace high only (§ 678a.6(a)); the preamble's 23% is not
    reached (recorded in the game file)."""
    runs = _longest_counts([_run_length(m, False) for m in range(1 << 13)])
    g = game("high-card-flush")
    a = exact_odds(g, "progressive_jackpot", "A")
    nets = {7: Fraction(30_000 - 1), 6: Fraction(3_000 - 1), 5: Fraction(249), 4: Fraction(39)}
    nets[3] = Fraction(2)
    expected = -(sum(runs[n] * nets[n] for n in nets) - sum(runs[n] for n in range(3))) / comb(
        52, 7
    )
    assert a.hold == expected
    assert round(a.hold_percent, 4) == 53.2611
    assert a.inside_approved is False
    assert [m.source for m in a.meters] == ["seed_at_least"]
    five = exact_odds(g, "progressive_jackpot", "A", wager_amount=Decimal(5))
    assert five.hold > a.hold  # the same meter is worth less per unit of a larger wager


# -- what is not priced ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "table_id", "why"),
    [
        ("four-card-poker", "four_card_envy_bonus", "other players"),
        ("four-card-poker", "magic_card_lucky_bonus", "events"),
        ("lunar-poker", "bet", "beats the dealer"),
        ("wpt-heads-up-holdem", "odds", "beats the dealer"),
        ("wpt-heads-up-holdem", "pocket_bonus", "missing"),
    ],
)
def test_tables_not_priced_say_why(game_id: str, table_id: str, why: str) -> None:
    with pytest.raises(NotPriced, match=why):
        exact_odds(game(game_id), table_id)


def test_the_bad_beat_bonus_is_priced_over_the_joint_deal_641a_12_f() -> None:
    """The Bad Beat Bonus is paid on the lower of two hands dealt together (§ 641a.11(c)(6)):
    priced with the par sheet's joint count, the base game's optimal play, over every deal of
    both hands; without it (what the checks read), it is not priced, and says why."""
    g = game("four-card-poker")
    assert not_priced_reason(g, "bad_beat_bonus", "bad_beat_bonus", JOINT) is None
    for alone in (g, g.definition):  # without the joint count, as the checks read it
        why = not_priced_reason(alone, "bad_beat_bonus", "bad_beat_bonus")
        assert why is not None and "lower of 2 hands" in why
    with pytest.raises(NotPriced, match="lower of"):
        exact_odds(g, "bad_beat_bonus", "B")
    r = exact_odds(g, "bad_beat_bonus", "B", joint=JOINT)
    assert r.strategy == "optimal" and r.cards == 11
    assert r.total == 2_598_960 * 47 * 1_370_754  # the player's cards, the up card, the rest
    assert sum(c.combinations for c in r.categories) == r.total
    assert Fraction(21, 100) < r.hold < Fraction(22, 100)


def test_letters_are_checked() -> None:
    g = game("four-card-poker")
    with pytest.raises(OddsError, match="choose a paytable"):
        exact_odds(g, "aces_up")
    with pytest.raises(OddsError, match="no paytable 'G'"):
        exact_odds(g, "aces_up", "G")
    with pytest.raises(OddsError, match="single table"):
        exact_odds(g, "ante_bonus", "A")


def test_a_table_that_settles_its_wager_is_not_called_a_bonus_on_top() -> None:
    """§ 589.11(c)(1)(ii): after Lunar Poker's instant payout the dealer "shall immediately
    collect the player's cards": it settles the Ante in place of its settlement against the
    dealer. Four Card Poker's Ante Bonus is paid "regardless of whether the player's Four
    Card Poker hand outranks the dealer's hand" (§ 641a.12(b)): on top of it."""
    instant = exact_odds(game("lunar-poker"), "instant_payout", "A")
    assert any("in place of its settlement against the dealer" in n for n in instant.notes)
    assert not any("on top of" in n for n in instant.notes)
    ante_bonus = exact_odds(game("four-card-poker"), "ante_bonus")
    assert any("on top of its settlement against the dealer" in n for n in ante_bonus.notes)
    assert not any("in place of" in n for n in ante_bonus.notes)
