"""Four Card Poker's base game, exact: the dealer's completions of the up card counted by
inclusion–exclusion over the player's cards.

- The game file is read as § 641a reads: five cards to the player, six to the dealer with
  the sixth face up (§ 641a.8(d)), a Play Wager of one to three times the Ante or a fold
  (§ 641a.11(b)), ties to the player (§ 641a.11(c)(3)(ii)), the Ante Bonus on a Play Wager
  whatever the dealer holds (§ 641a.12(b)).
- On reduced decks the same code runs, and an independent brute force written here (every
  dealer hand of every situation, each hand's best four cards found by plain comparison of
  § 641a.6's hands, settled as § 641a.11(c) and § 641a.12(a), (b) read) gives the same counts
  in every situation and the same exact figures.
- The optimal strategy is never worse than a declared one, situation by situation.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import pytest

from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.par.completions import (
    CompletionGame,
    CompletionTables,
    Orbits,
    Situations,
    Values,
    colex,
    count_situations,
    deck_cards,
    figures,
    method_key,
    optimal_choice,
    plus_one,
    read_derived,
    strategy_choice,
    subsets,
)
from validator.par.longest_flush import NotDerivable


@pytest.fixture(scope="module")
def rules() -> Rules:
    game = load_game("four-card-poker")
    return Rules(game, TableConfig.defaults(game))


@pytest.fixture(scope="module")
def game(rules: Rules) -> CompletionGame:
    return CompletionGame.from_rules(rules)


def test_reads_the_game_file(game: CompletionGame) -> None:
    """§ 641a.8(d): five cards each, six to the dealer, the sixth face up; § 641a.11(b): a
    Play Wager of one to three times the Ante, or the Ante forfeited."""
    g = game
    assert (g.player_cards, g.dealer_cards, g.up_card) == (5, 6, 6)
    assert (g.least, g.most) == (1, 3)
    assert [c.label for c in g.choices()] == ["fold", "play 1x", "play 2x", "play 3x"]
    # § 641a.11(c)(3)(ii): a tie is paid as a win; (c)(3)(i): lower loses both wagers
    assert g.nets[(False, "equal")] == {"ante": 1, "play": 1}
    assert g.nets[(False, "lower")] == {"ante": -1, "play": -1}
    assert g.nets[(True, "higher")] == {"ante": -1, "play": 0}
    # § 641a.12(b): 25, 20 and 2 to 1 on four of a kind (four aces too), a straight flush and
    # three of a kind, to a player who made the Play Wager, even a losing one; no bonus on a fold
    bonus = dict(zip(g.categories, g.bonus[(False, "lower")], strict=True))
    assert bonus["four_aces"] == bonus["four_of_a_kind"] == 25
    assert (bonus["straight_flush"], bonus["three_of_a_kind"], bonus["flush"]) == (20, 2, 0)
    assert set(g.bonus[(True, "higher")]) == {0}
    assert g.bonus_lines == ["ante_bonus"]


def test_other_games_are_refused_with_the_reason() -> None:
    for gid, why in (
        ("high-card-flush", "qualifies"),
        ("wpt-heads-up-holdem", "not the best hand"),
    ):
        game = load_game(gid)
        with pytest.raises(NotDerivable, match=why):
            CompletionGame.from_rules(Rules(game, TableConfig.defaults(game)))


def test_combinatorial_numbers_are_a_numbering() -> None:
    """Every set of t of n positions has its own number below C(n, t), and adding a position
    to a set gives the number of the larger set."""
    n = 11
    for t in (1, 2, 3, 4):
        pos = subsets(n, t)
        assert pos.shape[0] == len(list(combinations(range(n), t)))
        assert sorted(colex(pos).tolist()) == list(range(pos.shape[0]))
        for c in range(n):
            rows = pos[(pos != c).all(axis=1)]
            bigger = np.sort(np.concatenate([rows, np.full((rows.shape[0], 1), c)], axis=1))
            assert (plus_one(rows, np.full(rows.shape[0], c)) == colex(bigger)).all()


def test_orbits_count_every_set_once() -> None:
    cards = deck_cards()
    for t, orbits in ((1, 13), (2, 169), (3, 1_755)):
        o = Orbits.of(cards, t)
        assert o.reps.shape[0] == orbits
        assert int(o.size.sum()) == len(list(combinations(range(52), t)))


# -- an independent brute force on reduced decks -------------------------------------------------

ORDER = ("high", "pair", "two_pair", "straight", "flush", "trips", "straight_flush", "quads")


def four_card_value(cards: tuple[int, ...]) -> tuple[int, ...]:
    """§ 641a.6(a)-(c) for four cards (``4 * (rank - 2) + suit``): the hand of (b), then the
    ranks that decide between two such hands. An ace plays low only in A-2-3-4."""
    ranks = sorted((c // 4 + 2 for c in cards), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    counts = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    run = len(set(ranks)) == 4 and ranks[0] - ranks[3] == 3
    if ranks == [14, 4, 3, 2]:
        run, ranks = True, [4, 3, 2, 1]
    if counts[0][0] == 4:
        return (ORDER.index("quads"), ranks[0])
    if run and suited:
        return (ORDER.index("straight_flush"), ranks[0])
    if counts[0][0] == 3:
        return (ORDER.index("trips"), counts[0][1], counts[1][1])
    if suited:
        return (ORDER.index("flush"), *ranks)
    if run:
        return (ORDER.index("straight"), ranks[0])
    if counts[0][0] == 2 and counts[1][0] == 2:
        return (ORDER.index("two_pair"), counts[0][1], counts[1][1])
    if counts[0][0] == 2:
        return (ORDER.index("pair"), counts[0][1], *[r for r in ranks if r != counts[0][1]])
    return (ORDER.index("high"), *ranks)


def best_four(cards: tuple[int, ...]) -> tuple[int, ...]:
    """§ 641a.11(c): the four of the cards that form the highest ranking hand."""
    return max(four_card_value(h) for h in combinations(cards, 4))


def ante_bonus(value: tuple[int, ...]) -> int:
    """§ 641a.12(b): 25 to 1 four of a kind, 20 to 1 straight flush, 2 to 1 three of a kind."""
    return {ORDER.index("quads"): 25, ORDER.index("straight_flush"): 20}.get(
        value[0], 2 if value[0] == ORDER.index("trips") else 0
    )


@cache
def brute_counts(deck: tuple[int, ...]) -> dict[tuple[frozenset[int], int], tuple[int, int, int]]:
    """Every (player's five cards, dealer's up card) → how many of the dealer's completions
    the player's hand is higher than, equal to, lower than: every dealer hand looked at."""
    idx = {c: i for i, c in enumerate(deck)}
    dealer = list(combinations(deck, 6))
    d_value = [best_four(h) for h in dealer]
    order = sorted(set(d_value))
    position = {v: i for i, v in enumerate(order)}
    d_rank = np.array([position[v] for v in d_value])
    d_bits = np.array([sum(1 << idx[c] for c in h) for h in dealer], dtype=np.int64)
    out = {}
    for hand in combinations(deck, 5):
        v = best_four(hand)
        ok = (d_bits & sum(1 << idx[c] for c in hand)) == 0
        bits, rank = d_bits[ok], d_rank[ok]
        below = sum(1 for x in order if x < v)  # dealer values below the player's
        is_higher = rank < below
        is_equal = rank == (below if below < len(order) and order[below] == v else -1)
        for u in deck:
            if u in hand:
                continue
            has = ((bits >> idx[u]) & 1).astype(bool)
            higher = int((is_higher & has).sum())
            equal = int((is_equal & has).sum())
            out[(frozenset(hand), u)] = (higher, equal, int(has.sum()) - higher - equal)
    return out


def settle(choice: int, counts: tuple[int, int, int], bonus: int) -> int:
    """§ 641a.11(b), (c)(3), § 641a.12(a), (b): the net of a choice (0 fold, r: Play r×) over
    the dealer's completions, per unit of the Ante."""
    higher, equal, lower = counts
    if choice == 0:
        return -(higher + equal + lower)
    win = 1 + choice
    return win * (higher + equal) - win * lower + bonus * (higher + equal + lower)


#: 2, 3, 4, K, A: the ace low in A-2-3-4 and never around the corner (K-A-2-3, § 641a.6(a));
#: 2, J, Q, K, A: the ace high in A-K-Q-J, and Q-K-A-2 no straight.
DECKS = {"A-2-3-4": (2, 3, 4, 13, 14), "A-K-Q-J": (2, 11, 12, 13, 14)}


@pytest.fixture(scope="module", params=list(DECKS))
def reduced(
    request: pytest.FixtureRequest, game: CompletionGame
) -> tuple[tuple[int, ...], Situations]:
    ranks = DECKS[request.param]
    mask = sum(1 << (r - 2) for r in ranks)
    return ranks, count_situations(game, mask)


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_every_situation_counted_as_the_brute_force_counts(
    reduced: tuple[tuple[int, ...], Situations],
) -> None:
    ranks, s = reduced
    deck = tuple(4 * (r - 2) + suit for r in ranks for suit in range(4))
    brute = brute_counts(deck)
    n = len(deck)
    # the player's hands one per suit orbit, each with every up card: C(n, 5) (n - 5) in all
    assert int(s.weight.sum()) == len(list(combinations(range(n), 5))) * (n - 5)
    assert s.dealer_total == len(list(combinations(range(n - 6), 5)))
    for i in range(s.weight.shape[0]):
        key = (frozenset(s.player[i].tolist()), int(s.up[i]))
        assert tuple(s.counts[i].tolist()) == brute[key], key


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
def test_exact_optimal_figures_equal_the_brute_force(
    reduced: tuple[tuple[int, ...], Situations], game: CompletionGame
) -> None:
    """The optimal play in every situation (on equal returns the smaller wager), and the
    exact house edge per Ante and per total wagered, as the brute force finds them."""
    ranks, s = reduced
    deck = tuple(4 * (r - 2) + suit for r in ranks for suit in range(4))
    brute = brute_counts(deck)
    total = Fraction(0)
    wagered = 0
    by_choice = [0, 0, 0, 0]
    for (hand, _up), counts in brute.items():
        bonus = ante_bonus(best_four(tuple(sorted(hand))))
        evs = [settle(c, counts, bonus) for c in range(4)]
        best = evs.index(max(evs))  # the first of equals: the smaller wager
        total += evs[best]
        wagered += 1 + best
        by_choice[best] += 1
    situations = len(brute)
    dealer_hands = sum(brute[next(iter(brute))])
    ev = total / (situations * dealer_hands)
    f = figures(game, s, "optimal", optimal_choice(game, s))
    assert f.ev == ev
    assert f.average_total_wager == Fraction(wagered, situations)
    assert f.element_of_risk == -ev / Fraction(wagered, situations)
    assert list(f.decisions.values()) == [Fraction(x, situations) for x in by_choice]
    assert sum(f.distribution.values()) == 1
    assert sum(x * p for x, p in f.distribution.items()) == f.ev


def test_optimal_never_worse_than_a_declared_strategy(
    reduced: tuple[tuple[int, ...], Situations], game: CompletionGame, rules: Rules
) -> None:
    """In every situation the optimal choice's expected return is at least the declared
    strategy's; so is the whole game's."""
    _, s = reduced
    choices, net, _ = game.net_table()
    ev = np.zeros((len(choices), s.weight.shape[0]), dtype=np.int64)
    for j in range(net.shape[1]):
        ev += net[:, j, :][:, s.category] * s.counts[:, j][None, :]
    rows = np.arange(s.weight.shape[0])
    best = optimal_choice(game, s)
    opt = figures(game, s, "optimal", best)
    for name in ("basic", "expert"):
        choice = strategy_choice(rules, game, s, name)
        assert (ev[best, rows] >= ev[choice, rows]).all()
        assert figures(game, s, name, choice).ev <= opt.ev


def test_declared_basic_strategy_as_declared(
    reduced: tuple[tuple[int, ...], Situations], game: CompletionGame, rules: Rules
) -> None:
    """The Shuffle Master basic strategy, as the batch engine plays it: fold below a pair of
    3s, Play 1x with 3s through 9s, Play 3x with 10s or better (checked on the brute force's
    own hand values)."""
    _, s = reduced
    choice = strategy_choice(rules, game, s, "basic")
    for i in range(0, s.weight.shape[0], 7):
        v = best_four(tuple(s.player[i].tolist()))
        at_least = v >= (ORDER.index("pair"), 10)
        want = 3 if at_least else 1 if v >= (ORDER.index("pair"), 3) else 0
        assert choice[i] == want, s.player[i]


def test_tables_hold_every_dealer_hand(game: CompletionGame) -> None:
    """The table of the empty set would count every dealer hand; the tables of one card
    count the hands holding it: C(n - 1, 5) each, at the lowest value."""
    cards = deck_cards(sum(1 << (r - 2) for r in DECKS["A-2-3-4"]))
    values = Values.of(game.evaluator, cards)
    t = CompletionTables.build(cards, 6, values)
    n = cards.shape[0]
    one = t.at_least[1].reshape(-1, t.width)
    assert (one[:, 0] == len(list(combinations(range(n - 1), 5)))).all()
    assert (one[:, -1] == 0).all()


# -- the full deck: the figures kept in validator/par/derived -------------------------------------


def test_kept_figures_are_derived_from_this_game_file(rules: Rules, game: CompletionGame) -> None:
    """The figures the par sheet reads were derived from the game file as it is now (the
    key covers the hands, ranking, deal, decision, settlement and declared strategies);
    after a change, ``python -m validator.par.completions four-card-poker`` derives them
    again (the benchmark times that run)."""
    kept = read_derived("four-card-poker")
    assert kept is not None
    assert kept[0] == method_key(rules, game)


def test_kept_figures_agree_with_the_published_ones() -> None:
    """Wizard of Odds: the optimal strategy's house edge is 2.78% of the Ante, 1.30% of the
    total wagered (Ante Bonus 25/20/2); Frome: the Shuffle Master basic strategy returns about
    98.41% of the total wagered; the optimal never worse than a declared strategy."""
    kept = read_derived("four-card-poker")
    assert kept is not None
    found = kept[1]
    best = found["optimal"]
    # the published figures are the exact ones cut to two decimals (2.7879%, 1.3013%, 98.4168%)
    assert Fraction(278, 10_000) <= best.house_edge < Fraction(279, 10_000)
    assert Fraction(130, 10_000) <= best.element_of_risk < Fraction(131, 10_000)
    assert Fraction(9841, 10_000) <= 1 - found["basic"].element_of_risk < Fraction(9842, 10_000)
    for f in found.values():
        assert f.ev <= best.ev
        assert sum(f.decisions.values()) == 1 == sum(f.distribution.values())


def test_simulated_figures_agree_with_the_exact_ones() -> None:
    """The batch engine deals Four Card Poker's basic strategy (§ 641a.11: fold, or Play 1x
    to 3x the Ante) and lands within its 95% intervals of the exact house edge and element of
    risk; its decision frequencies and average total wager agree within four standard errors
    (the seed is fixed, so the test is deterministic)."""
    from math import sqrt

    from validator.par.sheet import simulated_figures
    from validator.par.simulated import SimSpec, simulate

    kept = read_derived("four-card-poker")
    assert kept is not None
    exact = kept[1]["basic"]
    spec = SimSpec("four-card-poker", None, "basic", seats=3, seed=11, rounds=60_000)
    sim = simulated_figures(simulate(spec, workers=1), "basic", spec)
    lo, hi = sim["ci95"]
    assert lo <= float(exact.house_edge * 100) <= hi
    lo, hi = sim["element_of_risk_ci95"]
    assert lo <= float(exact.element_of_risk * 100) <= hi
    n = sim["seat_rounds"]
    for action, p in exact.decisions.items():
        se = sqrt(float(p) * (1 - float(p)) / n)
        assert abs(sim["decisions"].get(action, 0.0) - float(p)) <= 4 * se + 1e-9, action
    # a seat's total wager is 1 + m Antes, m its Play multiple: its variance from the decisions
    wagered = {
        1 + (0 if a == "fold" else int(a.split()[-1][:-1])): p for a, p in exact.decisions.items()
    }
    assert sum(w * p for w, p in wagered.items()) == exact.average_total_wager
    var = sum(w * w * p for w, p in wagered.items()) - exact.average_total_wager**2
    se = sqrt(float(var) / n)
    assert abs(sim["average_total_wager"] - float(exact.average_total_wager)) <= 4 * se
