"""The poker engine piece by piece: side pots, betting rounds, the deal from the game
file's steps (Forced Bet, common card, draw reshuffle, split limits), rake, Bad Beat, Kill,
and the round file's refusals."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import cards

from tests.poker_oracle.betting import Action, BettingError, BettingRound
from tests.poker_oracle.settlement import PotError, build_pots, take_rake
from tests.poker_oracle.table import Hand, RandomStrategy, play_hand
from validator.compiler import load_game
from validator.interpreter.poker.kill import KillRule, next_hand
from validator.interpreter.poker.rake import RakeRule, time_charges
from validator.interpreter.poker.settle import settle_poker_round
from validator.interpreter.poker.table import Limit, Player, Rules, Stakes
from validator.interpreter.roundfile import RoundFileError

# -- pots ------------------------------------------------------------------------------------


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    """§ 553.8(b)(4): seat 1 All-in for $10; seat 2 put in $30 and folded; seats 3, 4 $50."""
    pots, uncalled = build_pots({1: 1000, 2: 3000, 3: 5000, 4: 5000}, folded={2})
    assert uncalled is None
    assert [(p.amount, p.eligible) for p in pots] == [(4000, (1, 3, 4)), (10000, (3, 4))]
    assert pots[1].contributors == (2, 3, 4)


def test_the_uncalled_bet_is_no_part_of_a_pot() -> None:
    pots, uncalled = build_pots({1: 8000, 2: 3000, 3: 3000}, folded={2, 3})
    assert (uncalled.seat, uncalled.amount) == (1, 5000)
    assert [(p.amount, p.eligible) for p in pots] == [(9000, (1,))]


def test_impossible_contributions_are_refused() -> None:
    with pytest.raises(PotError):
        build_pots({1: 1000, 2: 5000, 3: 5000}, folded={2, 3})


# -- betting rounds --------------------------------------------------------------------------


def _players(*stacks: int) -> list[Player]:
    return [Player(i + 1, s) for i, s in enumerate(stacks)]


def test_the_posted_raise_cap() -> None:
    """§ 553.18: "any restrictions with regard to the maximum number of raises"."""
    ps = _players(10_000, 10_000, 10_000)
    br = BettingRound(ps, Limit(200, 200), max_raises=2)
    br.act(ps[0], Action("bet", 200))
    br.act(ps[1], Action("raise", 400))
    br.act(ps[2], Action("raise", 600))
    assert br.options(ps[0]).raise_to is None
    with pytest.raises(BettingError):
        br.act(ps[0], Action("raise", 800))
    br.act(ps[0], Action("call"))
    br.act(ps[1], Action("call"))
    assert br.done() and [p.contributed for p in ps] == [600, 600, 600]


def test_raise_after_check_unless_posted() -> None:
    """§ 553.8(j): a player may raise after checking unless posted to the contrary."""
    for allowed in (True, False):
        ps = _players(10_000, 10_000)
        br = BettingRound(ps, Limit(200, 400), check_raise=allowed)
        br.act(ps[0], Action("check"))
        br.act(ps[1], Action("bet", 300))
        assert (br.options(ps[0]).raise_to is not None) is allowed


def test_a_short_all_in_raise_does_not_reopen_the_betting() -> None:
    ps = _players(10_000, 10_000, 350)
    br = BettingRound(ps, Limit(200, 200))
    br.act(ps[0], Action("bet", 200))
    br.act(ps[1], Action("call"))
    br.act(ps[2], Action("raise", 350))  # All-in, $1.50 more: less than a full raise
    assert ps[2].all_in
    opts = br.options(ps[0])
    assert opts.to_call == 150 and opts.raise_to is None
    br.act(ps[0], Action("call"))
    br.act(ps[1], Action("call"))
    assert br.done()


def test_a_blind_may_raise_when_the_action_returns() -> None:
    """§ 553.11(f): "The option to raise shall also apply to a player who made a Blind Bet"."""
    ps = _players(10_000, 10_000, 10_000)
    br = BettingRound([ps[2], ps[0], ps[1]], Limit(200, 200))
    br.post(ps[0], 100, "Blind Bet", acted=False)
    br.post(ps[1], 200, "Blind Bet", acted=False)
    br.act(ps[2], Action("call"))
    br.act(ps[0], Action("call"))
    assert not br.done()
    opts = br.options(ps[1])
    assert opts.can_check and opts.raise_to == (400, 400)


# -- the deal, from the game file's steps -----------------------------------------------------


class Passive:
    """Calls every bet, checks otherwise, draws ``n`` cards."""

    def __init__(self, n: int = 0) -> None:
        self.n = n

    def act(self, player, options, betting) -> Action:
        return Action("call") if options.can_call else Action("check")

    def discard(self, player, game) -> list[int]:
        return player.card_list()[: self.n]


def _deck(up: dict[int, str], players: int, seed: int = 0) -> list[int]:
    """A deck whose third-street cards (two down, one up, seat by seat) are as given."""
    rest = list(range(52))
    fixed = {seat: cards(c)[0] for seat, c in up.items()}
    for c in fixed.values():
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    deck = [rest.pop() for _ in range(2 * players)]
    deck += [fixed[s] for s in range(1, players + 1)]
    return deck + rest


@pytest.mark.parametrize(
    ("game_id", "up", "seat"),
    [
        ("poker-seven-card-stud", {1: "2H", 2: "9S", 3: "2C"}, 3),  # § 553.10(d)(1)
        ("poker-seven-card-stud-hi-lo", {1: "KH", 2: "AS", 3: "KS"}, 3),  # (d)(2): ace low
        ("poker-seven-card-stud-hi-lo-8", {1: "AS", 2: "KD", 3: "2D"}, 3),  # (d)(3)
        ("house-razz", {1: "KD", 2: "KS", 3: "AC"}, 2),  # (12)(iii): high card by suit
    ],
)
def test_the_forced_bet_is_made_by_the_up_card_the_text_names(
    game_id: str, up: dict[int, str], seat: int
) -> None:
    g = load_game(game_id)
    hand = Hand(
        g,
        {1: 10_000, 2: 10_000, 3: 10_000},
        Stakes(Limit(200, 200), forced_bet=100),
        _deck(up, 3),
        Passive(),
    )
    played = hand.play()
    assert played.players[seat - 1].contributed >= 100
    assert any(f"seat {seat} makes the Forced Bet" in line for line in played.log)


@pytest.mark.parametrize("game_id", ["poker-seven-card-stud", "house-seven-card-stud"])
def test_the_common_card_when_the_deck_runs_short(game_id: str) -> None:
    """§ 553.10(h) / 7CS Procedures § Seven-Card Stud (7): eight players stay to the end:
    51 cards are gone after sixth street; the last one and the three burn cards are
    shuffled, one is burned and one common card dealt for all."""
    g = load_game(game_id)
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    played = play_hand(
        g,
        {s: 10_000 for s in range(1, 9)},
        Stakes(Limit(200, 200), forced_bet=100),
        deck,
        Passive(),
        rng=random.Random(1),
    )
    assert len(played.board) == 1
    assert all(len(p.cards) == 6 for p in played.players)
    assert "the burn cards are shuffled to deal the common card" in played.log
    seen = [c for p in played.players for c in p.card_list()] + played.board + played.burns
    assert len(seen) == len(set(seen))
    assert played.settlement.balanced


def test_the_draw_reshuffles_the_discards_not_the_burn_cards() -> None:
    """§ 553.13(g)(1), (2): eight players each draw five: the deck runs short, the discard
    pile is reshuffled; the burn card stays apart (§ 553.7(e)(3))."""
    g = load_game("poker-five-card-draw")
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    played = play_hand(
        g,
        {s: 10_000 for s in range(1, 9)},
        Stakes(Limit(200, 200), blinds=(100, 200)),
        deck,
        Passive(5),
        rng=random.Random(2),
    )
    assert any("reshuffled" in line for line in played.log)
    final = [c for p in played.players for c in p.card_list()]
    assert len(final) == 40 and len(set(final)) == 40
    assert played.burns == [deck[40]]
    assert deck[40] not in final


def _raiser():
    class MaxBets:
        def act(self, player, options, betting) -> Action:
            if options.bet is not None:
                return Action("bet", options.bet[1])
            return Action("call") if options.can_call else Action("check")

        def discard(self, player, game) -> list[int]:
            return []

    return MaxBets()


@pytest.mark.parametrize(
    ("game_id", "fourth"), [("house-seven-card-stud", 400), ("house-razz", 200)]
)
def test_split_limit_and_the_open_pair_on_fourth_street(game_id: str, fourth: int) -> None:
    """7CS Procedures § Seven-Card Stud (12)(iv): the lower limit until fifth street, "unless
    a pair hits on fourth street"; in Razz "the presence of an open pair will not affect the
    limit". Seat 1's up-cards are 7C then 7D: an open pair on fourth street."""
    g = load_game(game_id)
    deck = list(range(52))
    take = cards("2C 3C 7C 4H 5H 9S 7D TS")  # down, down, up for seats 1-2; fourth street
    for c in take:
        deck.remove(c)
    order = take[0:1] + take[3:4] + take[1:2] + take[4:5] + take[2:3] + take[5:6]
    order += deck[:1] + take[6:8]  # burn, then fourth street: seat 1 7D, seat 2 TS
    deck = order + deck[1:]
    played = Hand(
        g,
        {1: 100_000, 2: 100_000},
        Stakes(Limit(200, 200), Limit(400, 400), forced_bet=100),
        deck,
        _raiser(),
    )
    hand = played
    hand.play()
    line = next(x for x in hand.log if x.startswith("Fourth street betting"))
    assert f"bet to ${fourth // 100}" in line


# -- rake, time charges, Bad Beat, Kill --------------------------------------------------------


def test_incremental_rake_by_levels() -> None:
    """§ 553.15(b)(2): $1 at each of $10, $20, $30 reached; at most $2 here."""
    pots, _ = build_pots({1: 1500, 2: 1500}, set())
    rule = RakeRule("incremental", levels=((1000, 100), (2000, 100), (3000, 100)), cap=200)
    assert take_rake(pots, rule, 100, "§ 553.15(b)(2)").total == 200
    pots, _ = build_pots({1: 700, 2: 700}, set())
    assert take_rake(pots, rule, 100, "§ 553.15(b)(2)").total == 100


def test_time_charges_every_twenty_or_thirty_minutes() -> None:
    """§ 553.15(b)(3): an hourly fee assessed fractionally every 20 or 30 minutes (at 60
    hands an hour, a hand a minute), collected in $1 chips (§ 553.1, Rake). Per table, $10
    an hour among nine players is $1.11 each by the hour's end: each pays $1, the rest of
    his share carried until it makes a chip."""
    seats = list(range(1, 10))
    per_player = RakeRule("time", hourly=600, every_minutes=30, basis="per_player")
    assert sum(time_charges(per_player, 0, 60, 75, seats, 100).values()) == 2 * 300 * 9
    per_table = RakeRule("time", hourly=1000, every_minutes=20, basis="per_table")
    assert time_charges(per_table, 0, 60, 60, seats, 100) == dict.fromkeys(seats, 100)


def test_time_charges_take_nothing_from_the_pot() -> None:
    data = {
        "game": "poker-holdem",
        "seats": [
            {"cards": ["AS", "AH"], "contributed": 10},
            {"cards": ["KS", "KH"], "contributed": 10},
        ],
        "board": ["2C", "3D", "9H", "JC", "4S"],
        "rake": {"time": {"hourly": 6, "every_minutes": 30, "basis": "per_player"}},
    }
    got = settle_poker_round(data, load_game("poker-holdem")).to_json()
    assert got["rake"]["total"] == "0" and got["seats"][0]["award"] == "20"


def test_no_bad_beat_contribution_under_the_minimum_pot() -> None:
    data = {
        "game": "poker-holdem",
        "seats": [
            {"cards": ["AS", "AH"], "contributed": 5},
            {"cards": ["KS", "KH"], "contributed": 5},
        ],
        "board": ["2C", "3D", "9H", "JC", "4S"],
        "bad_beat": {
            "contribution": "5%",
            "max": 1,
            "min_pot": 20,
            "fund": 500,
            "qualifying": {"at_least": "four_of_a_kind"},
            "payouts": {"losing_hand": "100%"},
        },
    }
    got = settle_poker_round(data, load_game("poker-holdem")).to_json()
    assert got["bad_beat"]["contribution"] == "0" and got["bad_beat"]["hit"] is False
    assert got["seats"][0]["award"] == "10"


def test_kill_follows_the_definition() -> None:
    """§ 553.1 (Kill option): on after one player wins an entire qualifying pot; off when a
    pot is split high/low between two players or is under the qualifying pot."""
    rule = KillRule("kill", Fraction(2), 10_000)
    assert next_hand(rule, 12_000, 3, False, "§").in_effect_next
    assert not next_hand(rule, 8_000, 3, False, "§").in_effect_next
    on = KillRule("kill", Fraction(2), 10_000, in_effect=True)
    assert not next_hand(on, 12_000, None, True, "§").in_effect_next
    assert not next_hand(on, 9_000, None, False, "§").in_effect_next
    assert next_hand(on, 12_000, None, False, "§").in_effect_next  # a tied high, no low


def test_kill_in_a_settled_omaha_hi_lo_round() -> None:
    data = {
        "game": "poker-omaha-hi-lo-8",
        "seats": [
            {"cards": ["AS", "2S", "KD", "KC"], "contributed": 60},
            {"cards": ["QH", "JH", "9C", "9D"], "contributed": 60},
        ],
        "board": ["3S", "4S", "5S", "KH", "TD"],
        "kill": {"option": "half_kill", "qualifying_pot": 100},
    }
    got = settle_poker_round(data, load_game("poker-omaha-hi-lo-8")).to_json()
    assert got["seats"][0]["award"] == "120"  # the straight flush and the wheel: a scoop
    assert got["kill"]["in_effect_next_hand"] is True
    assert got["kill"]["limits_multiplier_next_hand"] == "3/2"


# -- the round file's refusals ----------------------------------------------------------------


def _round(**changes) -> dict:
    data = {
        "game": "poker-holdem",
        "seats": [
            {"cards": ["AS", "AH"], "contributed": 20},
            {"cards": ["KS", "KH"], "contributed": 20},
        ],
        "board": ["2C", "3D", "9H", "JC", "4S"],
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "pointer", "words"),
    [
        ({"board": ["2C", "3D", "9H", "JC", "AS"]}, "/board/4", "appears twice"),
        ({"board": ["2C", "3D", "9H"]}, "/board", "deals 5"),
        ({"rake": {"percent": "12%"}}, "/rake/percent", "may not exceed 10% [§ 553.15(b)(1)]"),
        (
            {"rake": {"time": {"hourly": 6, "every_minutes": 25}}},
            "/rake/time/every_minutes",
            "every 20, 30 or 60 minutes",
        ),
        ({"kill": {"option": "kill", "qualifying_pot": 50}}, "/kill", "no Kill"),
        ({"chips": 1}, "/chips", "unknown key 'chips' (did you mean 'chip'?)"),
        (
            {
                "seats": [
                    {"cards": ["AS", "AH"], "contributed": 20},
                    {"cards": ["KS", "KH"], "contributed": 10},
                ]
            },
            "/seats/1/contributed",
            "not All-in",
        ),
        ({"seats": [{"cards": ["AS", "AH"], "contributed": "12.5"}]}, "/seats", "at least two"),
        (
            {
                "seats": [
                    {"cards": ["AS", "AH"], "contributed": 20.5},
                    {"cards": ["KS", "KH"], "contributed": 20},
                ]
            },
            "/seats/0/contributed",
            "money",
        ),
    ],
)
def test_a_round_that_cannot_have_happened_is_refused(changes, pointer, words) -> None:
    with pytest.raises(RoundFileError) as e:
        settle_poker_round(_round(**changes), load_game("poker-holdem"))
    assert any(p == pointer and words in m for p, m in e.value.problems), e.value.problems


def test_the_house_procedures_have_no_bad_beat() -> None:
    data = {
        "game": "house-seven-card-stud",
        "seats": [
            {"cards": ["AS", "AH", "2C", "3C", "4C", "5D", "9D"], "contributed": 20},
            {"cards": ["KS", "KH", "2D", "3D", "4D", "5C", "9C"], "contributed": 20},
        ],
        "bad_beat": {"contribution": 1},
    }
    with pytest.raises(RoundFileError, match="provides for no Bad Beat"):
        settle_poker_round(data, load_game("house-seven-card-stud"))
    del data["bad_beat"]
    data["rake"] = {"percent": "15%"}  # not regulated by the procedures
    got = settle_poker_round(data, load_game("house-seven-card-stud")).to_json()
    assert got["rake"]["total"] == "6"


def test_showdown_order_starts_with_the_final_wager() -> None:
    """§ 553.16(d): the player who made the final wager shows first, then clockwise."""
    g = load_game("poker-holdem")
    deck = list(range(52))
    random.Random(11).shuffle(deck)
    played = play_hand(
        g,
        {1: 10_000, 2: 10_000, 3: 10_000},
        Stakes(Limit(200, 200), blinds=(100, 200)),
        deck,
        _raiser(),
        button=3,
    )
    last = played.showdown_order
    assert last and last[0] == 1  # seat 1 bets first after the flop and every street


def test_random_strategy_plays_legal_hands() -> None:
    g = load_game("poker-omaha-hi-lo-8")
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    played = play_hand(
        g,
        {s: 5_000 for s in range(1, 7)},
        Stakes(Limit(200, 400), blinds=(100, 200)),
        deck,
        RandomStrategy(rng),
        rng=rng,
    )
    assert played.settlement.balanced


def test_the_button_moves_clockwise() -> None:
    """§ 553.11(c)(3): the button rotates clockwise after each round of play."""
    from tests.poker_oracle.session import next_button

    assert next_button([1, 3, 4, 7], 4) == 7
    assert next_button([1, 3, 4, 7], 7) == 1


@pytest.mark.parametrize(("in_effect", "bet"), [(False, "$2"), (True, "$4")])
def test_a_kill_in_effect_doubles_the_limits(in_effect: bool, bet: str) -> None:
    """§ 553.1 (Kill option): "the betting limits are twice the posted table wagering
    limits for the next hand"."""
    g = load_game("poker-omaha-hi-lo-8")
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    kill = KillRule("kill", Fraction(2), 10_000, in_effect=in_effect)
    played = play_hand(
        g,
        {1: 10_000, 2: 10_000, 3: 10_000},
        Stakes(Limit(200, 200), blinds=(100, 200)),
        deck,
        _raiser(),
        button=3,
        rules=Rules(kill=kill),
    )
    flop = next(x for x in played.log if x.startswith("Flop (three community cards) betting"))
    assert f"seat 1 bet to {bet}" in flop
