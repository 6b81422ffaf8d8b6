"""Four Card Poker's Bad Beat Bonus, exact: every deal of both hands, by the comparison's
outcome and both hands' categories (``validator.par.completions.joint_counts``).

§ 641a.7(d)(6): the wager wins "either the player's hand contains a two pair or better and
the dealer's hand outranks the player's hand, or the dealer's hand contains a two pair or
better and the player's hand outranks the dealer's hand"; "paid out based on the rank of the
losing hand" (§ 641a.11(c)(6), § 641a.12(f)); a tie outranks neither. A player who does not
make a Play Wager ends his participation in the round (§ 641a.11(b)): the game file reads his
Bad Beat Bonus as lost. The base game is played by its optimal strategy.

- On reduced decks an independent brute force (every dealer hand of every situation, each
  hand's best four cards found by plain comparison, the optimal choice from its own counts)
  pays the Bad Beat Bonus deal by deal and finds the same counts, category by category.
- The joint counts add up to the situations' own counts, outcome by outcome.
- On the full deck, the batch engine's simulated hold lies within its interval of the exact.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
import test_par_completions as completions_tests
from test_par_completions import DECKS, ORDER, ante_bonus, best_four, brute_counts, settle
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.interpreter.rules import Rules
from validator.par.completions import (
    CompletionGame,
    count_situations,
    joint_counts,
    losing_hand_counts,
    method_key,
    optimal_choice,
    read_derived_joint,
)

runner = CliRunner()
SUBMISSION = "rulesubs/example/four-card-poker.yaml"
#: the ranking's categories, refinements folded into the hand they refine (§ 641a.6(b))
FOLDED = {
    "four_aces": "quads",
    "four_of_a_kind": "quads",
    "straight_flush": "straight_flush",
    "three_of_a_kind": "trips",
    "flush": "flush",
    "straight": "straight",
    "two_pair": "two_pair",
    "pair_of_aces": "pair",
    "pair": "pair",
    "high_card": "high",
}


# the Four Card Poker table of the base game's own tests (its default settings)
rules = completions_tests.rules
game = completions_tests.game


def brute_bad_beat(deck: tuple[int, ...]) -> tuple[Counter[str], int]:
    """Every deal (the player's five cards, the dealer's up card and five others), the
    player choosing as the brute force's own optimal counts say: the Bad Beat Bonus paid by
    the category of the losing hand, when that hand is two pair or better and the other
    strictly outranks it; and the deals it loses."""
    brute = brute_counts(deck)
    idx = {c: i for i, c in enumerate(deck)}
    dealer = list(combinations(deck, 6))
    d_value = [best_four(h) for h in dealer]
    order = sorted(set(d_value))
    d_rank = np.array([order.index(v) for v in d_value])
    d_cat = np.array([v[0] for v in d_value])
    d_bits = np.array([sum(1 << idx[c] for c in h) for h in dealer], dtype=np.int64)
    two_pair = ORDER.index("two_pair")
    paid = np.zeros(len(ORDER), dtype=np.int64)
    lost = 0
    for hand in combinations(deck, 5):
        p = best_four(hand)
        bonus = ante_bonus(p)
        ok = (d_bits & sum(1 << idx[c] for c in hand)) == 0
        bits, rank, cat = d_bits[ok], d_rank[ok], d_cat[ok]
        # each dealer hand, as many times as it has an up card the player stays in with
        times = np.zeros(bits.shape[0], dtype=np.int64)
        for u in deck:
            if u in hand:
                continue
            counts = brute[(frozenset(hand), u)]
            evs = [settle(c, counts, bonus) for c in range(4)]
            if evs.index(max(evs)) == 0:
                lost += sum(counts)
            else:
                times += (bits >> idx[u]) & 1
        below = sum(1 for v in order if v < p)  # dealer values below the player's
        equal = below < len(order) and order[below] == p
        dealer_lower = rank < below
        dealer_higher = rank > below if equal else rank >= below
        if p[0] >= two_pair:  # the player's hand loses: paid on it
            paid[p[0]] += int(times[dealer_higher].sum())
        pays = dealer_lower & (cat >= two_pair)  # the dealer's hand loses: paid on it
        np.add.at(paid, cat[pays], times[pays])
        lost += int(times.sum()) - int(times[pays].sum())
        if p[0] >= two_pair:
            lost -= int(times[dealer_higher].sum())
    return Counter({ORDER[i]: int(n) for i, n in enumerate(paid) if n}), lost


@pytest.mark.slow  # over 20 s: `pytest -m "not slow"` leaves it out
@pytest.mark.parametrize("deck_name", list(DECKS))
def test_bad_beat_bonus_counted_as_the_brute_force_pays_it_641a_11_c_6(
    deck_name: str, rules: Rules, game: CompletionGame
) -> None:
    ranks = DECKS[deck_name]
    deck = tuple(4 * (r - 2) + suit for r in ranks for suit in range(4))
    joint = joint_counts(game, sum(1 << (r - 2) for r in ranks))
    paid, lost = losing_hand_counts(rules, game, joint, "bad_beat_bonus", "bad_beat_bonus")
    by_hand: Counter[str] = Counter()
    for category, n in zip(game.categories, paid, strict=True):
        by_hand[FOLDED[category]] += n
    want_paid, want_lost = brute_bad_beat(deck)
    assert +by_hand == want_paid
    assert lost == want_lost
    assert sum(paid) + lost == joint.total


def test_joint_counts_add_up_to_the_situations(game: CompletionGame) -> None:
    """Outcome by outcome, the deals the player stays in are the situations' own counts of
    the dealer's completions he is higher than, equal to and lower than; the rest he folds."""
    mask = sum(1 << (r - 2) for r in DECKS["A-2-3-4"])
    joint = joint_counts(game, mask)
    s = count_situations(game, mask)
    stay = optimal_choice(game, s) != 0
    for o in range(3):
        assert int(joint.stayed[o].sum()) == int((s.weight[stay] * s.counts[stay, o]).sum())
    assert joint.folded == int(s.weight[~stay].sum()) * s.dealer_total
    # the player's own category is the situation's: no deal is counted under another
    cats = np.zeros(len(game.categories), dtype=np.int64)
    np.add.at(cats, s.category[stay], s.weight[stay] * s.dealer_total)
    assert (joint.stayed.sum(axis=(0, 2)) == cats).all()


def test_kept_joint_counts_are_derived_from_this_game_file(
    rules: Rules, game: CompletionGame
) -> None:
    """The joint counts shipped beside the strategy figures were derived from the game file
    as it is now; the full deck's deals are C(52, 5) × 47 × C(46, 5) (the up card apart)."""
    kept = read_derived_joint("four-card-poker")
    assert kept is not None and kept[0] == method_key(rules, game)
    assert kept[1].total == 2_598_960 * 47 * 1_370_754


def test_odds_price_both_bad_beat_bonus_paytables_641a_12_f() -> None:
    """§ 641a.12(f) prints two paytables; `odds` prices both exactly, sorted by hold, each
    line a category of the losing hand, and every deal counted once."""
    r = runner.invoke(
        app, ["odds", "four-card-poker", "--wager", "bad_beat_bonus", "--all", "--format", "json"]
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert [d["paytable"] for d in data] == ["A", "B"]  # A pays more: the lower hold first
    holds = [Fraction(d["hold_exact"]) for d in data]
    assert holds[0] < holds[1]
    for d in data:
        assert d["hand"] == "losing_four"
        assert sum(c["combinations"] for c in d["categories"]) == d["total_combinations"]
        names = [c["name"] for c in d["categories"]]
        assert names[-1] == "Any other deal"
        assert "Two pair" in names and "Pair" not in names
    # paytable A pays 25,000 to 1 on four of a kind where B pays 10,000: the holds differ by
    # exactly 15,000 times the probability of a four of a kind as the losing hand
    share = {
        c["name"]: Fraction(c["combinations"], data[0]["total_combinations"])
        for c in data[0]["categories"]
    }
    assert holds[1] - holds[0] == 15_000 * share["Four-of-a-kind"] + 5_000 * share["Straight flush"]


def test_simulated_bad_beat_bonus_hold_agrees_with_the_exact() -> None:
    """The batch engine plays the example submission's table (the Bad Beat Bonus on
    paytable B, § 641a.12(f)) with the game file's expert strategy: its hold lies within
    its 99% interval of the exact hold, which assumes the optimal strategy (the two fold
    alike but for a few hands, far inside the interval)."""
    sim = runner.invoke(
        app,
        [
            "simulate", "four-card-poker", "--rulesub", SUBMISSION, "--rounds", "300000",
            "--workers", "1", "--format", "json",
        ],
    )  # fmt: skip
    assert sim.exit_code == 0, sim.stderr
    wager = json.loads(sim.stdout)["wagers"]["bad_beat_bonus"]
    odds = runner.invoke(
        app,
        [
            "odds", "four-card-poker", "--wager", "bad_beat_bonus", "--paytable", "B",
            "--format", "json",
        ],
    )  # fmt: skip
    exact = json.loads(odds.stdout)["hold_percent"]
    half = (wager["ci95"][1] - wager["ci95"][0]) / 2 * 2.576 / 1.96
    assert abs(wager["hold_percent"] - exact) <= half


TIE = 'then: lose, cite: "§ 641a.11(c)(6)(iii)"'
FOLD = 'then: lose\n          cite: "§ 641a.11(b)"'


@pytest.mark.parametrize(
    ("written", "why"),
    [
        (TIE, "a settlement row does other than lose"),  # a tie pushed
        (FOLD, "a folded player's settlement row does other"),  # his wager kept
    ],
)
def test_a_settlement_the_count_cannot_read_is_refused_with_the_reason(
    written: str, why: str, tmp_path: Path
) -> None:
    """A game file whose Bad Beat Bonus settles otherwise than § 641a.11(b), (c)(6) read: the
    joint count refuses it and says why, and the odds engine says it cannot price it."""
    from validator.compiler import load_game_file
    from validator.odds import NotPriced, exact_odds, not_priced_reason
    from validator.par.completions import JOINT

    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    path = games / "four-card-poker.yaml"
    text = path.read_text(encoding="utf-8")
    assert written in text
    path.write_text(text.replace(written, written.replace("lose", "push"), 1), encoding="utf-8")
    g = load_game_file(path, games)
    reason = not_priced_reason(g, "bad_beat_bonus", "bad_beat_bonus", JOINT)
    assert reason is not None and why in reason
    with pytest.raises(NotPriced, match=why):
        exact_odds(g, "bad_beat_bonus", "A", joint=JOINT)


def test_diff_prices_the_bad_beat_bonus_as_odds_does() -> None:
    """A change between § 641a.12(f)'s paytables is the diff's whole purpose: the diff's
    holds are the odds engine's, the deal of both hands counted (not "n/a")."""
    from validator.compiler import load_game
    from validator.diff.holds import table_hold
    from validator.odds import exact_odds
    from validator.par.completions import JOINT

    game = load_game("four-card-poker")
    for letter in ("A", "B"):
        hold = table_hold(game, "bad_beat_bonus", letter)
        assert hold.why_not is None
        assert hold.value == Fraction(exact_odds(game, "bad_beat_bonus", letter, joint=JOINT).hold)
