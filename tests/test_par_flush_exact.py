"""High Card Flush's base game, exact: the dealer's hands counted suit by suit.

- On a reduced deck the same code runs, and an independent brute force written here (every
  player hand against every dealer hand, each hand's longest flush found by plain counting,
  settled as § 678a.11(d) reads, the Raise limited as § 678a.11(b) reads) gives the same
  exact figures.
- On the full deck: the published figures (the optimal player raises 67.86% of the time,
  the dealer qualifies 75.36% of the time, Wizard of Odds, High Card Flush) and the optimal
  strategy never worse than a declared one, hand by hand.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.par.longest_flush import (
    DealerCounts,
    FlushGame,
    NotDerivable,
    choice_evs,
    count_all,
    count_block,
    figures,
    hand_values,
    optimal_choice,
    strategy_choice,
)
from validator.rankings.evaluator import Evaluator


@pytest.fixture(scope="module")
def rules() -> Rules:
    game = load_game("high-card-flush")
    return Rules(game, TableConfig.defaults(game))


@pytest.fixture(scope="module")
def flush_game(rules: Rules) -> FlushGame:
    return FlushGame.from_rules(rules)


def test_reads_the_game_file(flush_game: FlushGame) -> None:
    """§ 678a.11(b): 2-4 card flush 1x, five 1x-2x, six or seven up to 3x; § 678a.11(d): the
    dealer qualifies with a three-card flush, nine high (lowest: 9-3-2)."""
    g = flush_game
    assert (g.player_cards, g.dealer_cards) == (7, 7)
    assert g.ranges[2] == g.ranges[3] == g.ranges[4] == (1, 1)
    assert g.ranges[5] == (1, 2)
    assert g.ranges[6] == g.ranges[7] == (1, 3)
    assert g.qualifier == 3 << 13 | (1 << 7 | 1 << 1 | 1 << 0)
    # § 678a.11(d)(1): the dealer does not qualify: Ante paid 1 to 1, Raise returned
    assert g.nets[(False, "not_qualified")] == {"ante": 1, "raise": 0}
    # § 678a.11(c)(2): a fold loses the Ante
    assert g.nets[(True, "higher")] == {"ante": -1, "raise": 0}


def test_other_games_are_refused_with_the_reason() -> None:
    game = load_game("four-card-poker")
    with pytest.raises(NotDerivable, match="not by flush length"):
        FlushGame.from_rules(Rules(game, TableConfig.defaults(game)))


# -- an independent brute force on a reduced deck ----------------------------------------------

#: Seven ranks (3, 5, 8, 9, J, K, A) of four suits: the qualifier's edge (a 9-high three-card
#: flush qualifies, 8-5-3 does not) is inside the deck.
RANKS = (3, 5, 8, 9, 11, 13, 14)
DECK = [(r - 2) * 4 + s for r in RANKS for s in range(4)]


def plain_value(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """§ 678a.6(b), (c): the longest flush, then its ranks from the highest."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c % 4, []).append(c // 4 + 2)
    return max((len(v), tuple(sorted(v, reverse=True))) for v in by_suit.values())


def qualifies(v: tuple[int, tuple[int, ...]]) -> bool:
    """§ 678a.11(d): at least a three-card flush, nine high."""
    return v[0] > 3 or (v[0] == 3 and v[1][0] >= 9)


def raise_limit(length: int) -> int:
    """§ 678a.11(b)(1)-(3)."""
    return 3 if length >= 6 else 2 if length == 5 else 1


def brute_force(k: int, m: int) -> tuple[Fraction, dict[int, int], Fraction]:
    """(optimal EV per Ante, hands by chosen multiple (0: fold), dealer qualifies)."""
    dealer_hands = list(combinations(DECK, m))
    d_value = [plain_value(h) for h in dealer_hands]
    order = sorted(set(d_value))
    d_rank = np.array([bisect_left(order, v) for v in d_value])
    d_bits = np.array([sum(1 << c for c in h) for h in dealer_hands], dtype=np.uint64)
    d_q = np.array([qualifies(v) for v in d_value])
    total_ev = Fraction(0)
    chosen: dict[int, int] = {}
    qualified = 0
    pairs = 0
    for hand in combinations(DECK, k):
        ok = (d_bits & np.uint64(sum(1 << c for c in hand))) == 0
        v = plain_value(hand)
        at = bisect_left(order, v)
        tie = at < len(order) and order[at] == v
        r, q = d_rank[ok], d_q[ok]
        n = int(ok.sum())
        nq = int((~q).sum())
        higher = int((q & (r < at)).sum())  # the player's hand is higher
        equal = int((q & (r == at)).sum()) if tie else 0
        lower = n - nq - higher - equal
        # § 678a.11(c)(2), (d): fold loses the Ante; a Raise of `mult` times the Ante:
        # dealer not qualifying pays the Ante, returns the Raise; else both win, push, lose
        options = {0: Fraction(-n)}
        for mult in range(1, raise_limit(v[0]) + 1):
            options[mult] = Fraction(nq + (1 + mult) * higher - (1 + mult) * lower)
        best = max(options.values())
        pick = min(x for x, e in options.items() if e == best)
        chosen[pick] = chosen.get(pick, 0) + 1
        total_ev += best / n
        qualified += n - nq
        pairs += n
    hands = sum(chosen.values())
    return total_ev / hands, chosen, Fraction(qualified, pairs)


def test_plain_value_is_the_game_files_ranking(rules: Rules) -> None:
    """The brute force's own evaluation orders hands as the game file's ranking does."""
    ev = Evaluator(rules.game.rankings["high-card-flush"])
    rng = np.random.default_rng(13)
    hands = [tuple(int(c) for c in rng.choice(52, 7, replace=False)) for _ in range(300)]
    for a, b in pairwise(hands):
        plain = (plain_value(a) > plain_value(b)) - (plain_value(a) < plain_value(b))
        assert ev.compare(a, b) == plain


@pytest.mark.slow  # a brute force
@pytest.mark.parametrize(("k", "m"), [(3, 3), (5, 3)])
def test_suit_by_suit_counts_equal_a_brute_force(flush_game: FlushGame, k: int, m: int) -> None:
    """The same code on a 28-card deck: exact EV, choices and qualification agree."""
    deck_mask = sum(1 << (r - 2) for r in RANKS)
    hands = list(combinations(DECK, k))
    masks = [
        np.array([sum(1 << (c // 4) for c in h if c % 4 == s) for h in hands], dtype=np.uint16)
        for s in range(4)
    ]
    dc = count_block(masks, np.ones(len(hands), dtype=np.int64), m, flush_game.qualifier, deck_mask)
    game = replace(flush_game, player_cards=k, dealer_cards=m)
    f = figures(game, dc, "optimal", optimal_choice(game, dc))
    ev, chosen, qual = brute_force(k, m)
    assert f.ev == ev
    assert f.dealer_qualifies == qual
    by_multiple = {
        0 if label == "fold" else int(label.split()[-1][:-1]): p
        for label, p in f.decisions.items()
        if p
    }
    assert by_multiple == {x: Fraction(n, len(hands)) for x, n in chosen.items()}


# -- the full deck -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full(flush_game: FlushGame) -> DealerCounts:
    return count_all(7, 7, flush_game.qualifier, workers=2)


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_published_figures(flush_game: FlushGame, full: DealerCounts) -> None:
    """Published (Wizard of Odds; World Casino Index, High Card Flush): the optimal player
    raises 67.86% of the time, the dealer qualifies 75.36% of the time."""
    f = figures(flush_game, full, "optimal", optimal_choice(flush_game, full))
    raised = 1 - f.decisions["fold"]
    assert round(float(raised) * 100, 2) == 67.86
    assert round(float(f.dealer_qualifies) * 100, 2) == 75.36
    # "a 0.08% chance the dealer will push" (World Casino Index, High Card Flush): a raised
    # hand tying a qualifying dealer (§ 678a.11(d)(2)(ii)(B)) is the only net result of 0
    assert round(float(f.distribution[0]) * 100, 2) == 0.08
    assert sum(f.decisions.values()) == 1
    # the result's distribution adds up and gives the same expectation
    assert sum(f.distribution.values()) == 1
    assert sum(x * p for x, p in f.distribution.items()) == f.ev
    # every one of the C(52, 7) player hands is counted once
    assert int(full.weight.sum()) == 133_784_560


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_optimal_never_worse_than_a_declared_strategy(
    rules: Rules, flush_game: FlushGame, full: DealerCounts
) -> None:
    """Hand by hand, and in all: the derived strategy returns at least what Mousseau's does
    (the simple strategy costs about 0.05% of the Ante)."""
    dc = full
    best = optimal_choice(flush_game, dc)
    _, ev = choice_evs(flush_game, dc)
    idx = np.arange(best.shape[0])
    assert rules.d.strategies is not None
    for name, strat in rules.d.strategies.by_name.items():
        choice = strategy_choice(flush_game, dc, strat.decisions["raise"])
        assert (ev[best, idx] >= ev[choice, idx]).all()
        f_opt = figures(flush_game, dc, "optimal", best)
        f = figures(flush_game, dc, name, choice)
        assert f.ev <= f_opt.ev
        assert 0 < float(f.house_edge - f_opt.house_edge) * 100 < 0.1


def test_values_match_the_evaluator_on_random_hands(rules: Rules) -> None:
    """A hand's single-integer value orders hands as ``Evaluator.best`` keys do."""
    ev = Evaluator(rules.game.rankings["high-card-flush"])
    rng = np.random.default_rng(7)
    hands = [rng.choice(52, 7, replace=False) for _ in range(200)]
    masks = [
        np.array([sum(1 << (int(c) // 4) for c in h if int(c) % 4 == s) for h in hands])
        for s in range(4)
    ]
    values = hand_values(masks)
    for i in range(len(hands) - 1):
        a, b = hands[i].tolist(), hands[i + 1].tolist()
        x, y = int(values[i]), int(values[i + 1])
        assert ev.compare(a, b) == (x > y) - (x < y)


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_simulated_figures_agree_with_the_exact_ones(
    flush_game: FlushGame, full: DealerCounts
) -> None:
    """The batch engine, dealing Mousseau's strategy, lands within its 95% intervals of the
    exact house edge and dealer qualification (a 1-in-20 miss per figure is possible in
    principle; the seed is fixed, so the test is deterministic)."""
    from validator.par.sheet import simulated_figures
    from validator.par.simulated import SimSpec, simulate

    rules_ = Rules(load_game("high-card-flush"), TableConfig.defaults(load_game("high-card-flush")))
    strat = rules_.strategy("mousseau")
    exact = figures(
        flush_game, full, "mousseau", strategy_choice(flush_game, full, strat.decisions["raise"])
    )
    spec = SimSpec("high-card-flush", None, "mousseau", seats=6, seed=13, rounds=60_000)
    sim = simulated_figures(simulate(spec, workers=2), "test", spec)
    lo, hi = sim["ci95"]
    assert lo <= float(exact.house_edge * 100) <= hi
    lo, hi = sim["dealer_qualifies_ci95"]
    assert lo <= float(exact.dealer_qualifies) <= hi
    folded = float(exact.decisions["fold"])
    assert abs(sim["decisions"]["fold"] - folded) < 0.01


@settings(max_examples=60, deadline=None)
@given(
    ranks=st.sets(st.integers(2, 14), min_size=4, max_size=8),
    k=st.integers(2, 6),
    m=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_counts_of_one_hand_equal_its_dealer_hands_listed(
    ranks: set[int], k: int, m: int, seed: int
) -> None:
    """For any deck of some ranks in four suits and any player hand, the suit-by-suit counts
    of the dealer hands that fail to qualify, and that a qualifying dealer beats, ties or
    loses to, equal those found by listing every dealer hand (§ 678a.6(b), (c);
    § 678a.11(d))."""
    deck = [(r - 2) * 4 + s for r in sorted(ranks) for s in range(4)]
    rng = np.random.default_rng(seed)
    hand = tuple(int(c) for c in rng.choice(deck, k, replace=False))
    rest = [c for c in deck if c not in hand]
    qualifier = 3 << 13 | (1 << 7 | 1 << 1 | 1 << 0)  # a three-card flush, nine high
    masks = [
        np.array([sum(1 << (c // 4) for c in hand if c % 4 == s)], np.uint16) for s in range(4)
    ]
    deck_mask = sum(1 << (r - 2) for r in ranks)
    dc = count_block(masks, np.ones(1, np.int64), m, qualifier, deck_mask)
    v = plain_value(hand)
    want = dict.fromkeys(("not_qualified", "higher", "equal", "lower"), 0)
    for dealer in combinations(rest, m):
        d = plain_value(dealer)
        if not qualifies(d):
            want["not_qualified"] += 1
        else:
            want["higher" if v > d else "equal" if v == d else "lower"] += 1
    assert {key: int(c[0]) for key, c in dc.counts.items()} == want
    assert dc.dealer_total == sum(want.values())
