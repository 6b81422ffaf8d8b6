"""The ranking engine against the chapters: ace rules, tie-breaks, every primitive, the
Lunar second combination, the Super Wager's same-colored straight, and ``best`` against
its definition (``best_by_subsets``)."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import GAMES, cards
from pydantic import ValidationError

from validator.model.ranking import Category, Ranking
from validator.model.registry import load_rankings
from validator.rankings.evaluator import Evaluator
from validator.rankings.primitives import Hand, find

# -- best is its definition -----------------------------------------------------------------

#: (ranking, numbers of cards it is evaluated on in the games)
SIZES = {
    "five-card": (5, 6, 7),
    "four-card": (4, 5, 6),
    "six-card-bonus": (6,),
    "lunar": (5, 6),
    "lunar-super": (5,),
    "high-card-flush": (7,),
    "high-card-flush-straight-flush": (7,),
    "pocket-bonus": (2,),
    "low-ace-to-five": (5, 7),
}


def sizes_of(ranking: Ranking) -> tuple[int, ...]:
    """The numbers of cards a ranking is evaluated on in the games; a ranking declared
    later is tried on its own size and two more cards."""
    return SIZES.get(ranking.id) or (ranking.size, min(ranking.size + 2, 8))


#: Every declared ranking, so that one added later is held to its definition too.
RANKING_IDS = sorted(load_rankings(GAMES))


def _hands_with_structure(rng: random.Random, n: int, count: int) -> list[list[int]]:
    """Random hands, half of them drawn from few ranks or few suits so that pairs, trips,
    flushes and runs are common."""
    out = []
    for i in range(count):
        if i % 3 == 0:
            out.append(rng.sample(range(52), n))
        elif i % 3 == 1:  # few ranks: pairs, trips, full houses, quads
            ranks = rng.sample(range(13), rng.randint(max(2, (n + 3) // 4), min(13, n)))
            pool = [r * 4 + s for r in ranks for s in range(4)]
            out.append(rng.sample(pool, n))
        else:  # few suits around a run: flushes, straights, straight flushes
            low = rng.randint(-1, 13 - n)
            ranks = [(r % 13) for r in range(low, low + n + 2)]
            pool = [r * 4 + s for r in set(ranks) for s in rng.sample(range(4), 2)]
            out.append(rng.sample(pool, n))
    return out


@pytest.mark.slow  # every ranking against its definition, by search
@pytest.mark.parametrize("ranking_id", RANKING_IDS)
def test_best_agrees_with_its_definition(evaluator, ranking_id: str) -> None:
    """``best`` builds the hand directly; ``best_by_subsets`` takes the highest of every
    subset of the ranking's size. They agree on category and compare key for 1,000 hands
    of each size, and ``compare`` orders hands the same way by either."""
    ev: Evaluator = evaluator(ranking_id)
    rng = random.Random(f"best-{ranking_id}")
    for n in sizes_of(ev.ranking):
        hands = _hands_with_structure(rng, n, 1_000)
        for hand in hands:
            fast, slow = ev.best(hand), ev.best_by_subsets(hand)
            assert (fast.category, fast.key) == (slow.category, slow.key), hand
            if ev.ranking.tiebreak == "grouped":  # a Poker hand: at most `size` cards
                assert len(fast.cards) == min(n, ev.ranking.size), hand
        for a, b in itertools.pairwise(hands):
            ka, kb = ev.best_by_subsets(a).key, ev.best_by_subsets(b).key
            assert ev.compare(a, b) == (ka > kb) - (ka < kb)


# -- the ace, § 641a.6(a), § 589.6(a), § 677a.6(a), § 678a.6(a) ----------------------------


def test_four_card_ace_low_straight_is_the_lowest_straight(evaluator) -> None:
    """§ 641a.6(a), (b)(5): A-2-3-4 is a straight, the lowest one."""
    ev = evaluator("four-card")
    wheel = ev.best(cards("AS 2D 3C 4H"))
    assert wheel.category == "straight"
    assert ev.compare(wheel, ev.best(cards("2S 3D 4C 5H"))) == -1
    assert ev.compare(ev.best(cards("AS KD QC JH")), ev.best(cards("KS QD JC 10H"))) == 1


def test_four_card_king_ace_two_three_is_no_straight(evaluator) -> None:
    """§ 641a.6(a): an ace "may not be combined with any other sequence of cards (for
    example: king, ace, 2 and 3)"."""
    ev = evaluator("four-card")
    assert ev.best(cards("KS AD 2C 3H")).category == "high_card"
    assert ev.best(cards("QS KS AS 2S")).category == "flush"


def test_four_card_straight_flushes_ace_high_and_low(evaluator) -> None:
    """§ 641a.6(b)(2): A-K-Q-J highest, A-2-3-4 lowest straight flush."""
    ev = evaluator("four-card")
    top, low = ev.best(cards("AH KH QH JH")), ev.best(cards("AH 2H 3H 4H"))
    assert top.category == low.category == "straight_flush"
    assert ev.compare(top, low) == 1
    assert ev.compare(low, ev.best(cards("2H 3H 4H 5H"))) == -1


def test_five_card_wheel_is_the_lowest_straight(evaluator) -> None:
    """§ 677a.6(a), (b)(6): A-2-3-4-5 is the lowest straight, and Q-K-A-2-3 no straight."""
    ev = evaluator("five-card")
    wheel = ev.best(cards("AS 2D 3C 4H 5S"))
    assert wheel.category == "straight"
    assert ev.compare(wheel, ev.best(cards("2S 3D 4C 5H 6S"))) == -1
    assert ev.best(cards("QS KD AC 2H 3S")).category == "high_card"
    steel = ev.best(cards("AD 2D 3D 4D 5D"))
    assert steel.category == "straight_flush"
    assert ev.compare(steel, ev.best(cards("2D 3D 4D 5D 6D"))) == -1


def test_lunar_ace_low_straight_flush(evaluator) -> None:
    """§ 589.6(b)(2): A-2-3-4-5 the lowest straight flush; K-Q-J-10-9 the highest."""
    ev = evaluator("lunar")
    assert ev.best(cards("AC 2C 3C 4C 5C")).category == "straight_flush"
    assert ev.best(cards("KC QC JC 10C 9C")).category == "straight_flush"
    assert ev.best(cards("AC KC QC JC 10C")).category == "royal_flush"
    assert ev.best(cards("KC AD 2C 3H 4S")).category == "ace_king"


def test_high_card_flush_ace_plays_high_only(evaluator) -> None:
    """§ 678a.6(a) ranks "ace, king, queen, ... 2" with no ace-low clause (unlike § 589.6(a),
    § 677a.6(a)): A-2-3 of one suit is not "three cards of the same suit in consecutive
    rank" (§ 678a.6(d)); Q-K-A is, the highest three-card straight flush."""
    ev = evaluator("high-card-flush-straight-flush")
    assert not ev.ranking.ace_low
    assert ev.held(cards("AH 2H 3H 9C 7D 5S JC"))[0].id == "no_straight_flush"
    assert ev.held(cards("KH AH 2H 9C 7D 5S JC"))[0].id == "no_straight_flush"
    assert ev.held(cards("QH KH AH 9C 7D 5S 2C"))[0].id == "three_card_straight_flush"
    assert ev.held(cards("2H 3H 4H 5H 6H 7H 8H"))[0].id == "seven_card_straight_flush"
    assert ev.held(cards("AH 2H 3H 4H 5H 6H 8C"))[0].id == "five_card_straight_flush"
    # a longer run ranks higher whatever its cards; the same length by its top card
    assert ev.compare(cards("2H 3H 4H 5H 9C 9D KS"), cards("JS QS KS 9C 7D 5H 2C")) == 1
    assert ev.compare(cards("QH KH AH 9C 7D 5S 2C"), cards("JS QS KS 9C 7D 5H 2D")) == 1


# -- tie-breaks: the (c) subsections -----------------------------------------------------------


def test_641a_6c_highest_card_not_in_the_other_hand(evaluator) -> None:
    """§ 641a.6(c): same rank → the hand with the highest card the other does not hold;
    otherwise a tie. Pairs order by their rank first (§ 641a.6(b)(7))."""
    ev = evaluator("four-card")
    assert ev.compare(cards("KS KD 7C 4H"), cards("KH KC 7D 3S")) == 1
    assert ev.compare(cards("KS KD 7C 4H"), cards("KH KC 7D 4S")) == 0
    assert ev.compare(cards("KS KD 5C 4H"), cards("QH QC AD 3S")) == 1
    assert ev.compare(cards("AS JD 8C 4H"), cards("AH JC 8D 3S")) == 1
    assert ev.compare(cards("AS AD 3C 3H"), cards("KS KD QC QH")) == 1  # two pair, (b)(6)
    # flushes: highest card not held by the other
    assert ev.compare(cards("AS 9S 5S 2S"), cards("AH 9H 4H 3H")) == 1
    # best four of five: the fifth card does not count
    assert ev.compare(cards("9S 9D 7C 5H 2S"), cards("9H 9C 7D 5S 3C")) == 0


def test_641a_6c_dealer_and_player_tie(evaluator) -> None:
    """§ 641a.6(c) last sentence, § 641a.11(c)(3)(ii): equal hands tie (the Ante and Play
    are then paid, "higher than or equal to")."""
    ev = evaluator("four-card")
    assert ev.compare(cards("AS KD QC 9H 2S"), cards("AH KC QD 9S 3C")) == 0


def test_589_6c_lunar_tie_breaks(evaluator) -> None:
    """§ 589.6(c): same rank → highest card not in the other hand; ace-king hands by their
    other cards; hands with none of (b) by their highest cards."""
    ev = evaluator("lunar")
    assert ev.compare(cards("AS KD 9C 5H 3S"), cards("AH KC 9D 5S 2C")) == 1
    assert ev.compare(cards("AS KD 9C 5H 3S"), cards("AH KC 9D 5S 3C")) == 0
    assert ev.compare(cards("AS QD 9C 5H 3S"), cards("KH QC JD 9S 7C")) == 1
    assert ev.compare(cards("AS QD 9C 5H 3S"), cards("AH KC 4D 3D 2C")) == -1  # ace-king
    assert ev.compare(cards("2S 2D 4C 5H 7S"), cards("AH KC QD JS 9C")) == 1  # a pair wins
    # full houses order by the three cards (§ 589.6(b)(4))
    assert ev.compare(cards("3S 3D 3C 2H 2S"), cards("2D 2C 2H AH AS")) == 1


def test_677a_6c_five_of_seven_and_the_board(evaluator) -> None:
    """§ 677a.6(c), § 677a.11(g)(2): the best five of seven; cards outside the five
    do not break a tie."""
    ev = evaluator("five-card")
    board = "AS AD KC KH 7S"
    assert ev.compare(cards(f"QC 2D {board}"), cards(f"JC 3D {board}")) == 1  # Q kicker
    assert ev.compare(cards(f"6C 2D {board}"), cards(f"5C 3D {board}")) == 0  # 7 plays
    straight = "5S 6D 7C 8H 9S"
    assert ev.compare(cards(f"2C 3D {straight}"), cards(f"2H 3S {straight}")) == 0
    assert ev.compare(cards(f"10C 2D {straight}"), cards(f"2H 3S {straight}")) == 1
    # three pairs: the best two pairs and the best remaining card
    assert ev.best(cards("QS QD 9C 9H 4S 4D 8C")).key == ev.best(cards("QH QC 9S 9D 8H 2C")).key


def test_678a_6c_high_card_flush_compares_the_flushes(evaluator) -> None:
    """§ 678a.6(b), (c), § 678a.11(d): hands rank by the length of the longest flush,
    then by the highest card of the flush not in the other; the other cards do not count,
    so equal flushes tie."""
    ev = evaluator("high-card-flush")
    four_low = cards("5H 4H 3H 2H KC QD JS")
    three_ace = cards("AH KH QH JC 10D 9S 8C")
    assert ev.compare(four_low, three_ace) == 1
    assert ev.compare(cards("KS 9S 2S AC QD JH 7C"), cards("KH 9H 2H 8C 7D 6S 5C")) == 0
    assert ev.compare(cards("KS 9S 3S AC QD JH 7C"), cards("KH 9H 2H 8C 7D 6S 5C")) == 1
    # two flushes of one length in a hand: the one with the highest card is formed
    value = ev.best(cards("AH 3H 2H KS QS JS 9C"))
    assert value.category == "three_card_flush"
    assert sorted(c // 4 + 2 for c in value.cards) == [2, 3, 14]


def test_678a_6d_straight_flush_ranks_by_length(evaluator) -> None:
    ev = evaluator("high-card-flush-straight-flush")
    assert ev.compare(cards("2H 3H 4H 5H 9C 9D KS"), cards("QS KS AS 9C 7D 5H 2C")) == 1
    assert ev.compare(cards("JS QS KS 9C 7D 5H 2C"), cards("QS KS AS 9C 7D 5H 2C")) == -1


# -- the primitives ---------------------------------------------------------------------------


def _cat(**kw: object) -> Category:
    return Category(id="c", name="C", **kw)


@pytest.mark.parametrize(
    ("category", "holds", "does_not"),
    [
        (_cat(of_a_kind=[3, 2]), "QS QD QC 4H 4S", "QS QD QC 4H 5S"),
        (_cat(of_a_kind=[2, 2]), "QS QD 4C 4H 9S", "QS QD QC 4H 9S"),
        (_cat(of_a_kind=[2], min_rank="A"), "AS AD 4C 5H 9S", "KS KD 4C 5H 9S"),
        (_cat(of_a_kind=[2], min_rank="J", max_rank="K"), "JS JD", "AS AD"),
        (_cat(of_a_kind=[2], max_rank="K"), "2S 2D", "AS AD"),
        (_cat(flush=4), "AS 9S 5S 2S KD", "AS 9S 5S 2D KD"),
        (_cat(flush=5, suit="diamonds"), "AD 9D 5D 2D KD", "AS 9S 5S 2S KS"),
        (_cat(straight=5), "9S 10D JC QH KS", "9S 10D JC QH AS"),
        (_cat(straight=4), "AS 2D 3C 4H", "KS AD 2C 3H"),
        (_cat(straight_flush=5), "9S 10S JS QS KS", "9S 10S JS QS KD"),
        (_cat(straight_flush=5, suit="hearts"), "9H 10H JH QH KH", "9S 10S JS QS KS"),
        (_cat(same_color=5), "AH 9D 5H 2D KH", "AH 9D 5H 2D KS"),
        (_cat(same_color=5), "AS 9C 5S 2C KS", "AS 9C 5S 2D KS"),
        (_cat(same_color_straight=5), "9H 10D JH QD KH", "9H 10D JH QD KS"),
        (_cat(ranks=["A", "K", "Q", "J", "10"], suited=True), "AS KS QS JS 10S", "AS KS QS JS 10D"),
        (_cat(ranks=["A", "K", "Q", "J", "10"]), "AS KS QS JS 10D", "AS KS QS JS 9D"),
        (
            _cat(ranks=["A", "K", "Q", "J", "10", "9"], suited=True, suit="diamonds"),
            "AD KD QD JD 10D 9D",
            "AH KH QH JH 10H 9H",
        ),
        (_cat(contains=["A", "K"]), "AS KD 8C 9H 2S", "AS QD 8C 9H 2S"),
        (_cat(contains=["A", "K"], suited=True), "AS KS", "AS KD"),
        (_cat(contains_any=[["A", "Q"], ["A", "J"]]), "AS JD", "KS JD"),
        (_cat(contains_any=[["A", "Q"], ["A", "J"]], suited=True), "AS QS", "AS QD"),
    ],
)
def test_primitive_holds_and_does_not(category: Category, holds: str, does_not: str) -> None:
    assert find(category, Hand(cards(holds)), ace_low=True) is not None
    assert find(category, Hand(cards(does_not)), ace_low=True) is None


def test_any_holds_for_every_hand() -> None:
    assert find(_cat(any=True), Hand(cards("2S 7D")), ace_low=False) == ()


def test_straight_without_ace_low() -> None:
    cat = _cat(straight=5)
    assert find(cat, Hand(cards("AS 2D 3C 4H 5S")), ace_low=True) is not None
    assert find(cat, Hand(cards("AS 2D 3C 4H 5S")), ace_low=False) is None


def test_primitives_return_the_best_combination() -> None:
    """The highest pair of two, the highest run, the flush with the highest cards."""
    h = Hand(cards("QS QD 9C 9H 4S 4D 8C"))
    assert [c // 4 + 2 for c in find(_cat(of_a_kind=[2, 2]), h, True) or ()] == [12, 12, 9, 9]
    run = find(_cat(straight=5), Hand(cards("2S 3D 4C 5H 6S 7D AC")), True) or ()
    assert [c // 4 + 2 for c in run] == [7, 6, 5, 4, 3]


def test_a_category_has_exactly_one_shape() -> None:
    with pytest.raises(ValidationError, match="exactly one of"):
        _cat(flush=5, straight=5)
    with pytest.raises(ValidationError, match="exactly one of"):
        _cat()
    with pytest.raises(ValidationError, match="min_rank/max_rank go with of_a_kind"):
        _cat(flush=5, min_rank="A")
    with pytest.raises(ValidationError, match="largest first"):
        _cat(of_a_kind=[2, 3])


def _ranking(categories: list[dict]) -> Ranking:
    return Ranking.model_validate(
        {"name": "test", "size": 4, "cite": "§ 641a.6", "categories": categories}
    )


def test_refines_compares_as_its_parent_and_pays_its_own_row(evaluator) -> None:
    """`refines`: four aces are a four-of-a-kind when hands are compared (§ 641a.6(b)(1):
    four aces the highest four-of-a-kind), but a paytable with a four-aces row pays it
    (§ 641a.12(d)(1)); one without pays the parent's row."""
    ev = evaluator("four-card")
    aces, kings = cards("AS AD AC AH"), cards("KS KD KC KH")
    assert ev.held(aces)[0].id == "four_aces"
    assert ev.held(kings)[0].id == "four_of_a_kind"
    assert ev.best(aces).category == ev.best(kings).category == "four_of_a_kind"
    assert ev.compare(aces, kings) == 1
    with_row = {"four_aces": "x", "four_of_a_kind": "y"}
    assert ev.paying(aces, with_row).id == "four_aces"
    assert ev.paying(aces, {"four_of_a_kind": "y"}).id == "four_of_a_kind"


def test_refines_must_name_a_lower_category() -> None:
    with pytest.raises(ValidationError, match="refines"):
        _ranking(
            [
                {"id": "pair", "name": "Pair", "of_a_kind": [2]},
                {
                    "id": "aces",
                    "name": "Aces",
                    "of_a_kind": [2],
                    "min_rank": "A",
                    "refines": "pair",
                },
            ]
        )
    with pytest.raises(ValidationError, match="refines"):
        _ranking([{"id": "aces", "name": "A", "of_a_kind": [2], "refines": "nothing"}])


def test_a_combination_may_not_exceed_the_ranking_size() -> None:
    with pytest.raises(ValidationError, match="more than the ranking's size"):
        _ranking([{"id": "f", "name": "F", "flush": 5}])


# -- paytable rows a hand is paid on --------------------------------------------------------------


def test_aces_up_pays_a_pair_of_aces_not_a_pair_of_kings(games) -> None:
    """§ 641a.12(c): the lowest paying hand is a pair of aces."""
    g = games["four-card-poker"]
    ev = g.evaluator("player_four")
    rows = g.table("aces_up")[1].rows("A")
    assert ev.paying(cards("AS AD 9C 5H 2S"), rows).id == "pair_of_aces"
    assert ev.paying(cards("KS KD 9C 5H 2S"), rows) is None
    assert ev.paying(cards("KS KD 9C 9H 2S"), rows).id == "two_pair"


def test_na_cell_is_not_paid(games) -> None:
    """§ 678a.12(d)(1) table B prints N/A for a three-card straight flush; § 641a.12(d)(5)
    Envy table B prints N/A for a straight flush."""
    hcf = games["high-card-flush"]
    ev = hcf.evaluator("player_straight_flush")
    table = hcf.table("progressive_jackpot")[1]
    three = cards("QH KH AH 9C 7D 5S 2C")
    assert ev.paying(three, table.rows("B")) is None
    assert ev.paying(three, table.rows("A")).id == "three_card_straight_flush"
    fcp = games["four-card-poker"]
    envy = fcp.table("four_card_envy_bonus")[1]
    sf = cards("9H 10H JH QH 2C")
    assert fcp.evaluator("player_four").paying(sf, envy.rows("B", "1")) is None
    assert fcp.evaluator("player_four").paying(sf, envy.rows("A", "5")).id == "straight_flush"


def test_six_card_royal_flush_rows(games) -> None:
    """§ 641a.6(e)(1), § 641a.12(h): table E pays the six-card royal flush in diamonds and
    in the other suits; tables A-D print no such row and pay it as the royal flush."""
    g = games["four-card-poker"]
    ev = g.evaluator("player_six_card_bonus")
    table = g.table("six_card_bonus")[1]
    diamonds, spades = cards("AD KD QD JD 10D 9D"), cards("AS KS QS JS 10S 9S")
    assert ev.paying(diamonds, table.rows("E")).id == "six_card_royal_flush_diamonds"
    assert ev.paying(spades, table.rows("E")).id == "six_card_royal_flush"
    assert ev.paying(diamonds, table.rows("A")).id == "royal_flush"
    assert ev.paying(cards("AS AD AC 5H 9S 2C"), table.rows("C")).id == "three_of_a_kind"
    assert ev.paying(cards("AS AD 5C 5H 9S 2C"), table.rows("C")) is None


def test_pocket_bonus_hands(evaluator) -> None:
    """§ 677a.7(d)(2): a pair, or an ace and a king, queen or jack."""
    ev = evaluator("pocket-bonus")
    held = {t: ev.held(cards(t))[0].id for t in ("AS AD", "QS QD", "5S 5D", "AS KS", "AS JS")}
    assert held == {
        "AS AD": "pair_of_aces",
        "QS QD": "pair_of_kings_queens_or_jacks",
        "5S 5D": "pair",
        "AS KS": "ace_king_suited",
        "AS JS": "ace_queen_or_jack_suited",
    }
    assert ev.held(cards("AS KD"))[0].id == "ace_king"
    assert ev.held(cards("AS QD"))[0].id == "ace_king_queen_or_jack"
    assert ev.held(cards("AS 10D"))[0].id == "no_pocket_bonus"
    assert ev.held(cards("KS QD"))[0].id == "no_pocket_bonus"


# -- Lunar Poker -----------------------------------------------------------------------------------


def test_589_11_e_1_ii_second_combination_pair_and_ace_king(evaluator) -> None:
    """§ 589.11(e)(1)(ii): "if a player's winning hand contained two aces, a king, 8 and 9,
    the player would be paid out for the pair of aces ... but would also be paid out for the
    ace-king": the hand holds both, and the ace-king uses a card (the king) outside the pair."""
    ev = evaluator("lunar")
    hand = cards("AS AD KC 8H 9S")
    held = {c.id: combo for c, combo in ev.holds(hand)}
    assert ev.best(hand).category == "one_pair"
    assert {"one_pair", "ace_king"} <= set(held)
    assert not {"two_pair", "three_of_a_kind", "flush", "straight"} & set(held)
    assert set(held["ace_king"]) - set(held["one_pair"]) == set(cards("KC"))
    assert list(held)[:2] == ["one_pair", "ace_king"]  # highest first


def test_589_11_c_2_ii_straight_flush_is_a_same_colored_straight(evaluator) -> None:
    """§ 589.11(c)(2)(ii): "If a player's hand contains a royal flush or a straight flush,
    the winning hand shall be considered a same-colored straight"; § 589.6(d)(2)."""
    ev = evaluator("lunar-super")
    assert ev.held(cards("9H 10H JH QH KH"))[0].id == "same_colored_straight"
    assert ev.held(cards("AS KS QS JS 10S"))[0].id == "same_colored_straight"
    assert ev.held(cards("9H 10D JH QD KH"))[0].id == "same_colored_straight"
    assert ev.held(cards("9H 10D JH QD KS"))[0].id == "straight"
    assert ev.held(cards("2H 7H 9H JH KH"))[0].id == "flush"
    assert ev.held(cards("2H 7D 9H JD KH"))[0].id == "same_colored_five"
    assert ev.held(cards("AH KD 9C 4S 2S"))[0].id == "ace_king"
    assert ev.held(cards("AH QD 9C 4S 2S"))[0].id == "high_card"
    # four-of-a-kind is the highest Super hand (§ 589.6(d)(1))
    assert ev.held(cards("9H 9D 9C 9S KH"))[0].id == "four_of_a_kind"


def test_lunar_dealer_qualifies_with_ace_king(games) -> None:
    """§ 589.11(e): the dealer qualifies with ace-king or better."""
    g = games["lunar-poker"]
    q = g.definition.dealer.qualifies
    ev = g.evaluator(q.hand)
    assert ev.at_least(ev.best(cards("AS KD 7C 4H 2S")), q.at_least)
    assert ev.at_least(ev.best(cards("2S 2D 7C 4H 3S")), q.at_least)
    assert not ev.at_least(ev.best(cards("AS QD 7C 4H 2S")), q.at_least)
