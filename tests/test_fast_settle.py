"""The Poker fast path's settlement (``fast.settle``) held equal to ``settle_round``.

Every round the kernel settles must award each seat, rake, contribute to the Bad Beat fund
and count the pot exactly as the scalar settlement does on the same ``PokerRound``
(§ 553.8(b)(4) the main pot and the All-in players' side pots; § 553.15 the rake of each
pot and the uncalled bet; § 553.20(c) the Bad Beat contribution; § 553.10(i), (j) the
high, low and high-low halves of each pot, a tie's excess by card and suit
(§ 553.10(i)(2)(ii), (iii)) included); every round it hands back must be one the module
says it hands back (a Bad Beat that may be paid, a Kill rule). The DealtHand's keys are
built with the scalar evaluator (``showdown.show``) and ``pack_key``.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.poker_dealer import DealtHand, SettledHand, settle
from tests.poker_oracle.settlement import settle_round
from validator.cards import parse_cards
from validator.compiler import Game, all_games, load_game
from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS
from validator.interpreter.poker.fast.odd_chip import odd_chip_order
from validator.interpreter.poker.fast.operations import (
    AWARD_POT,
    FORM_POT,
    MOVE_KILL,
    NO_SEAT,
    PAY_BAD_BEAT,
    RETURN_UNCALLED,
    TAKE_BAD_BEAT,
    TAKE_RAKE,
    new_log,
)
from validator.interpreter.poker.fast.settle import (
    HIGH,
    LOW,
    NEEDS_ORDER,
    SETTLED,
    FastSettler,
    _settle,
    no_log,
    refusal,
)
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.settle import PokerSettlement
from validator.interpreter.poker.settle import settle_round as explained
from validator.interpreter.poker.showdown import show
from validator.interpreter.poker.table import Limit, Rules, Stakes, default_setup
from validator.interpreter.roundfile import RoundFileError
from validator.interpreter.roundfile.poker import PokerRound, SeatRound
from validator.interpreter.settings import read_settings
from validator.rankings.packed import pack_key

POKER = tuple(g.id for g in all_games() if g.definition.kind == "nonbanking")

EXAMPLES = Path(__file__).resolve().parent.parent / "rulesubs" / "example"

RAKES = ("defaults", "percentage", "per_betting_round", "incremental", "time", "none")

#: the Texas Hold'em example submission's Bad Beat (four eights or better, both hole cards),
#: a contribution by rate, and a floor low enough that rounds reach it
BAD_BEATS = ("none", "example", "rate", "two_pair")

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rake(game: Game, kind: str, rng: random.Random) -> RakeRule | None:
    rate = rng.choice([Fraction(1, 10), Fraction(1, 20), Fraction(3, 40)])
    cap = rng.choice([None, 300, 500])
    unit = rng.choice([None, 25, 50])
    if kind == "defaults":
        return default_setup(game).rules.rake
    if kind == "percentage":
        return RakeRule("percentage", rate=rate, cap=cap, unit=unit)
    if kind == "per_betting_round":
        return RakeRule("percentage", rate=rate, cap=cap, unit=unit, per_betting_round=True)
    if kind == "incremental":
        levels = ((1000, 100), (2000, 100), (4000, 150))
        return RakeRule("incremental", cap=cap, levels=levels)
    if kind == "time":
        return RakeRule("time", hourly=600, every_minutes=30, basis="per_player")
    return None


def _bad_beat(game: Game, kind: str) -> BadBeatRule | None:
    d = game.definition
    if kind == "none" or d.bad_beat is None or d.showdown is None or not d.showdown.high:
        return None
    holdem = load_game("poker-holdem")
    example = read_settings(holdem, EXAMPLES / "poker-holdem.yaml").rules.bad_beat
    assert example is not None
    if kind == "example":
        return example
    if kind == "rate":
        return replace(example, amount=None, rate=Fraction(1, 20), max=200, min_pot=0)
    return replace(example, at_least="two_pair", rank_at_least=None, hole_cards=0)


def _deal(game: Game, players: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Each player's cards and the board, from one shuffled deck, as many as the game
    deals: in Stud, where the deck cannot give every player the last card, a common card
    in the centre instead (§ 553.1 (Common card); § 553.10(h)), never a player short of
    cards at the showdown."""
    d = game.definition
    dealt = d.cards.dealt
    own = dealt["player"].count
    board = dealt["board"].count if "board" in dealt else 0
    common = d.deal.common_card if d.deal is not None else None
    while common is not None and players * own + board > 52 and board < len(common.streets):
        own, board = own - 1, board + 1
    assert players * own + board <= 52, (game.id, players)
    deck = list(range(52))
    rng.shuffle(deck)
    cards = [deck[i * own : (i + 1) * own] for i in range(players)]
    return cards, deck[players * own : players * own + board]


def _deal_ties(game: Game, players: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """A deal that ties: as ``_deal``, then some players given the first player's ranks in
    other suits (where those cards are still in the deck), so that hands tie unless a suit
    makes a flush and the order by card and suit decides the excess."""
    cards, board = _deal(game, players, rng)
    used = {c for own in cards for c in own} | set(board)
    for j in rng.sample(range(1, players), rng.randrange(1, players)):
        used -= set(cards[j])
        for _ in range(8):
            suits = rng.sample(range(4), 4)
            copy = [(c >> 2) << 2 | suits[c & 3] for c in cards[0]]
            if not used & set(copy):
                cards[j] = copy
                break
        used |= set(cards[j])
    return cards, board


def _contributions(
    players: int, rng: random.Random, chip: int
) -> tuple[list[int], list[bool], list[bool], list[int]]:
    """Contributions, folds and All-ins of a round of play: the players still in put in the
    same, except the All-in players, whose stakes ran out below it (§ 553.8(b)(4): side
    pots), now and then one who put in nothing at all; a bettor may have bet more that
    nobody called; folded players put in at most what the players still in did; now and
    then a player still in put in an amount no round of play produces."""
    step = rng.choice([chip, 25, 50, 100])
    folded = [rng.random() < 0.4 for _ in range(players)]
    if all(folded):
        folded[rng.randrange(players)] = False
    level = step * rng.randrange(0, 80)
    put = [level if not f else step * rng.randrange(0, level // step + 1) for f in folded]
    live = [i for i, f in enumerate(folded) if not f]
    if len(live) >= 2 and rng.random() < 0.5:  # All-ins: at least one player stays at the top
        for i in rng.sample(live, rng.randrange(1, len(live))):
            put[i] = step * rng.randrange(0, level // step + 1) if rng.random() < 0.9 else 0
    if rng.random() < 0.05:  # a player still in who put in any amount
        put[rng.choice(live)] = step * rng.randrange(0, 80)
    top_live = max(put[i] for i in live)
    all_in = [not f and p < top_live for p, f in zip(put, folded, strict=True)]
    uncalled = 0
    if rng.random() < 0.4:  # the final bet, called by no one
        bettor = rng.choice(live) if rng.random() < 0.9 else rng.randrange(players)
        uncalled = step * rng.randrange(1, 6)
        put[bettor] += uncalled
    rounds = rng.randrange(1, 5)
    total = sum(put)
    cuts = sorted(rng.randrange(0, total - uncalled + 1) for _ in range(rounds - 1))
    bounds = [0, *cuts, total - uncalled]
    round_put = [b - a for a, b in itertools.pairwise(bounds)]
    round_put[-1] += uncalled
    return put, folded, all_in, _final_bet_in_its_round(put, round_put)


def _final_bet_in_its_round(put: list[int], round_put: list[int]) -> list[int]:
    """The rounds' chips moved back so that the uncalled final bet (the largest
    contribution's excess over the next, an All-in's too) lies in the last betting round
    that put chips in, where it was bet: a round file stating otherwise is refused
    (§ 553.15(d)), so no round of play produces it."""
    top, second = sorted(put, reverse=True)[:2]
    placed = [i for i, x in enumerate(round_put) if x]
    if not placed or round_put[placed[-1]] >= top - second:
        return round_put
    last = placed[-1]
    for i in reversed(range(last)):
        moved = min(round_put[i], top - second - round_put[last])
        round_put[i] -= moved
        round_put[last] += moved
    return round_put


def _dealt(
    game: Game,
    cards: list[list[int]],
    board: list[int],
    put: list[int],
    folded: list[bool],
    round_put: list[int],
) -> DealtHand:
    n = len(cards)
    hand_cards = np.zeros((n, MAX_CARDS), dtype=np.int64)
    high = np.zeros(n, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    for i, own in enumerate(cards):
        hand_cards[i, : len(own)] = own
        if not folded[i]:
            shown = show(game, i + 1, own, board)
            high[i] = pack_key(shown.high.key) if shown.high is not None else 0
            low[i] = pack_key(shown.low.key) if shown.low is not None else 0
    board_cards = np.zeros(MAX_BOARD, dtype=np.int64)
    board_cards[: len(board)] = board
    return DealtHand(
        None,
        np.array(put, dtype=np.int64),
        np.array(folded, dtype=np.bool_),
        hand_cards,
        np.array([len(c) for c in cards], dtype=np.int64),
        board_cards,
        len(board),
        high,
        low,
        list(round_put),
        -1,
    )


def _scalar(
    game: Game,
    rules: Rules,
    chip: int,
    cards: list[list[int]],
    board: list[int],
    put: list[int],
    folded: list[bool],
    round_put: list[int],
    all_in: list[bool] | None = None,
) -> PokerSettlement:
    """The round as ``Hand.finish`` hands it to ``settle_round``."""
    all_in = all_in or [False] * len(cards)
    seats = [
        SeatRound(i + 1, list(c), p, f, a, "")
        for i, (c, p, f, a) in enumerate(zip(cards, put, folded, all_in, strict=True))
    ]
    rake = rules.rake
    if rake is not None and rake.per_betting_round:
        rake = replace(rake, rounds=tuple(round_put))
    rnd = PokerRound(game.id, chip, seats, list(board), None, rake, rules.bad_beat, rules.kill)
    try:
        expected = settle_round(game, rnd)
    except (RoundFileError, ValueError) as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            explained(game, rnd)
        raise
    # the one settlement, explained from the kernel's log, says what the oracle says
    assert explained(game, rnd).to_json() == expected.to_json()
    if rake is not None and rake.kind == "percentage":  # § 553.15(b)(1): "not to exceed"
        assert rake.rate is not None  # the rate, of each pot and side pot
        for p, taken in zip(expected.pots, expected.rake.by_pot, strict=True):
            assert taken <= p.pot.amount * rake.rate, (p.pot.name, taken, p.pot.amount)
    return expected


def _assert_equal(fast: SettledHand, s: PokerSettlement, n: int) -> None:
    assert [int(a) for a in fast.awards] == [s.seat(i + 1).award for i in range(n)]
    assert fast.rake == s.rake.total
    assert fast.bad_beat_contribution == s.bad_beat_contribution
    assert fast.pots == sum(p.pot.amount for p in s.pots)
    assert fast.showdown == (sum(not a.folded for a in s.seats) >= 2)
    assert fast.kill_next == (None if s.kill is None else s.kill.in_effect_next)
    paid = s.bad_beat.payouts if s.bad_beat is not None else {}
    assert fast.bad_beat is not None
    assert [int(a) for a in fast.bad_beat] == [paid.get(i + 1, 0) for i in range(n)]
    assert fast.bad_beat_hit == bool(s.bad_beat and s.bad_beat.hit)


def _assert_log(log: np.ndarray, rows: int, s: PokerSettlement, settler: FastSettler) -> None:
    """The settlement's operations as the kernel logged them, in the dealer's order
    (§ 553.7(e)(6)), are the scalar settlement's: the uncalled bet returned, each pot formed
    with the players eligible for it, the rake and the Bad Beat contribution of each pot,
    each pot's (or half's) shares, the Bad Beat payouts, the Kill for the next round."""
    ops = [tuple(int(x) for x in log[i]) for i in range(rows)]
    assert [o[0] for o in ops] == sorted(o[0] for o in ops)

    def rows_of(op: int) -> list[tuple[int, ...]]:
        return [o[1:] for o in ops if o[0] == op]

    u = s.uncalled
    assert rows_of(RETURN_UNCALLED) == ([] if u is None else [(u.seat - 1, u.amount, 0, 0)])
    assert rows_of(FORM_POT) == [
        (NO_SEAT, p.pot.amount, p.pot.index, sum(1 << (e - 1) for e in p.pot.eligible))
        for p in s.pots
    ]
    raked = settler.rules().rake_kind != 0
    assert [r[1] for r in rows_of(TAKE_RAKE)] == (s.rake.by_pot if raked else [])
    bb = s.bad_beat
    assert [r[1] for r in rows_of(TAKE_BAD_BEAT)] == (
        bb.by_pot if bb is not None and settler.rules().bb_kind != 0 else []
    )
    shares = sorted(
        (
            p.pot.index,
            {"pot": 0, "high": 1, "low": 2}[h.part] if len(p.halves) == 2 else 0,
            sh.seat - 1,
            sh.amount,
        )
        for p in s.pots
        for h in p.halves
        for sh in h.shares
        if sh.amount
    )
    awarded = sorted((r[2], r[3], r[0], r[1]) for r in rows_of(AWARD_POT) if r[1])
    assert awarded == shares
    paid: dict[int, int] = {}
    for r in rows_of(PAY_BAD_BEAT):
        paid[r[0] + 1] = paid.get(r[0] + 1, 0) + r[1]
    assert paid == (bb.payouts if bb is not None else {})
    kill = [] if s.kill is None else [(NO_SEAT, 0, 0, int(s.kill.in_effect_next))]
    assert rows_of(MOVE_KILL) == kill


def _odd_chip_by_suit(s: PokerSettlement) -> bool:
    """A tie's excess, in any pot, given by card and suit (§ 553.10(i)(2)(ii), (iii))."""
    return any(h.odd_chips and len(h.winners) > 1 for p in s.pots for h in p.halves)


ROUNDS = {
    "game_id": st.sampled_from(POKER),
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 8),
    "rake": st.sampled_from(RAKES),
    "bad_beat": st.sampled_from(BAD_BEATS),
    "chip": st.sampled_from([100, 25]),
}


@FAST
@given(**ROUNDS)
def test_kernel_settles_as_settle_round(
    game_id: str, seed: int, players: int, rake: str, bad_beat: str, chip: int
) -> None:
    """§ 553.8(b)(4); § 553.15(b), (d); § 553.20(c); § 553.10(i), (j): the kernel's
    settlement is the scalar settlement's, seat by seat, All-ins and side pots included, or
    the Bad Beat paid from the fund as the scalar settlement pays it (§ 553.20)."""
    _check_round(game_id, seed, players, rake, bad_beat, chip, _deal)


@FAST
@given(**ROUNDS)
def test_ties_settle_as_settle_round_the_excess_by_card_and_suit(
    game_id: str, seed: int, players: int, rake: str, bad_beat: str, chip: int
) -> None:
    """§ 553.10(i)(2)(ii), (iii): rounds dealt to tie (players holding the same ranks in
    other suits): each tied part's excess goes to the seats in the order by card and suit,
    as the scalar settlement gives it, in every pot."""
    _check_round(game_id, seed, players, rake, bad_beat, chip, _deal_ties)


def _check_round(
    game_id: str,
    seed: int,
    players: int,
    rake: str,
    bad_beat: str,
    chip: int,
    deal: Callable[[Game, int, random.Random], tuple[list[list[int]], list[int]]],
) -> None:
    game = load_game(game_id)
    rng = random.Random(seed)
    rules = Rules(rake=_rake(game, rake, rng), bad_beat=_bad_beat(game, bad_beat))
    cards, board = deal(game, players, rng)
    put, folded, all_in, round_put = _contributions(players, rng, chip)
    dealt = _dealt(game, cards, board, put, folded, round_put)
    settler = FastSettler(game, rules, Stakes(Limit(200, 400), chip=chip), range(1, players + 1))
    assert settler.reason is None
    fund = rng.choice([0, 2_431_800])
    log, at = new_log(True), np.zeros(1, dtype=np.int64)
    try:
        fast: SettledHand | None = settle(settler, dealt, fund, log=log, at=at)
        refused = ""
    except ValueError as e:  # ``RoundFileError`` is one
        fast, refused = None, str(e)
    bb = rules.bad_beat
    if bb is not None:
        rules = replace(rules, bad_beat=replace(bb, fund=fund))
    py_settle = getattr(_settle, "py_func", _settle)
    awards = np.empty(players, dtype=np.int64)
    payouts = np.empty(players, dtype=np.int64)
    tied = np.zeros((2, players), dtype=np.bool_)
    arrays = (
        dealt.contributed,
        dealt.folded,
        dealt.high,
        dealt.low,
        dealt.cards,
        dealt.ncards,
        dealt.board,
        dealt.nboard,
        np.array(round_put, dtype=np.int64),
    )
    args = (arrays, settler.rules(), 0, fund)
    unordered = np.full((2, players), -1, dtype=np.int64)
    try:
        s = _scalar(game, rules, chip, cards, board, put, folded, round_put, all_in)
    except (RoundFileError, ValueError) as e:  # contributions no round produces, a pot
        # no hand wins: the kernel says which, in the scalar settlement's words
        assert fast is None
        assert refused == str(e)
        assert at[0] == 0
        settled = py_settle(*args, unordered, tied, awards, payouts, *no_log())
        assert str(refusal(settled, range(1, players + 1))) in str(e)
        return
    event(
        ("side pots " if len(s.pots) > 1 else "one pot ")
        + (", odd chip by suit" if _odd_chip_by_suit(s) else "")
        + (", Bad Beat" if s.bad_beat is not None and s.bad_beat.hit else "")
    )
    assert fast is not None
    _assert_equal(fast, s, players)
    _assert_log(log, int(at[0]), s, settler)
    # the same kernel as plain Python (NUMBA_DISABLE_JIT=1) gives the same, asking for the
    # order by card and suit exactly when the scalar settlement gives an excess by it
    first = py_settle(*args, unordered, tied, awards, payouts, *no_log()).status
    assert first == (NEEDS_ORDER if _odd_chip_by_suit(s) else SETTLED)
    if first == NEEDS_ORDER:
        tied_seats = {
            w - 1
            for p in s.pots
            for h in p.halves
            if h.odd_chips and len(h.winners) > 1
            for w in h.winners
        }
        assert {int(i) for i in np.flatnonzero(tied.any(axis=0))} >= tied_seats
        priority = np.empty(tied.shape, dtype=np.int64)
        hands = (dealt.cards, dealt.ncards, dealt.board, dealt.nboard, tied)
        assert odd_chip_order(*hands, *settler.order_arrays, priority)
        settled = py_settle(*args, priority, tied, awards, payouts, *no_log())
        assert settled.status == SETTLED
    assert [int(a) for a in awards] == [int(a) for a in fast.awards]
    assert [int(a) for a in payouts] == [int(a) for a in fast.bad_beat]


# -- hand-worked rounds -------------------------------------------------------------------------


def _golden(
    game_id: str,
    hands: list[str],
    board: str,
    put: list[int],
    folded: list[bool] | None = None,
    rules: Rules | None = None,
) -> tuple[SettledHand | None, PokerSettlement, FastSettler]:
    game = load_game(game_id)
    rules = rules or Rules()
    cards = [parse_cards(h) for h in hands]
    shared = parse_cards(board) if board else []
    folded = folded or [False] * len(hands)
    round_put = [sum(put)]
    dealt = _dealt(game, cards, shared, put, folded, round_put)
    settler = FastSettler(game, rules, Stakes(Limit(200, 400)), range(1, len(hands) + 1))
    s = _scalar(game, rules, 100, cards, shared, put, folded, round_put)
    fund = rules.bad_beat.fund if rules.bad_beat is not None else 0
    return settle(settler, dealt, fund), s, settler


def test_board_plays_for_both_pot_divided_equally_after_the_rake() -> None:
    """§ 553.4(e) ties divide equally; § 553.15(b)(1): 10% of $20 is $2, so each of the two
    hands playing the board's straight takes $9."""
    rake = RakeRule("percentage", rate=Fraction(1, 10), cap=500)
    fast, s, _ = _golden(
        "poker-holdem", ["2c 3d", "2h 4s"], "Th Jc Qd Ks Ah", [1000, 1000], rules=Rules(rake)
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [900, 900]
    assert (fast.rake, fast.pots, fast.showdown) == (200, 2000, True)
    _assert_equal(fast, s, 2)


def test_uncalled_bet_returned_and_not_raked() -> None:
    """§ 553.15(d): seat 1's last $3, called by nobody, returns to it, no part of the pot;
    the $15 pot ($6 + $6 + $3) raked 10% ($1.50 rounded down to the $1 chip: $1) goes to
    seat 1, the only player still in."""
    rake = RakeRule("percentage", rate=Fraction(1, 10))
    fast, s, _ = _golden(
        "poker-holdem",
        ["As Ad", "2c 7d", "3h 8s"],
        "",
        [900, 600, 300],
        folded=[False, True, True],
        rules=Rules(rake),
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [300 + 1500 - 100, 0, 0]
    assert (fast.rake, fast.pots, fast.showdown) == (100, 1500, False)
    _assert_equal(fast, s, 3)


def test_high_low_halves_with_the_excess_to_the_high_hand() -> None:
    """§ 553.10(i)(2)(i): a $15 pot split high and low in $1 chips, the odd $1 to the high
    half: $8 high (seat 1's flush), $7 low (seat 2's 5-4-3-2-A, eight or better)."""
    fast, s, _ = _golden(
        "poker-omaha-hi-lo-8",
        ["Kh Qh 9c 9d", "Ac 2d Ks Kd"],
        "3h 4h 5c 8h Jd",
        [750, 750],
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [800, 700]
    _assert_equal(fast, s, 2)


def test_board_plays_for_two_the_odd_chip_to_the_highest_card_by_suit() -> None:
    """§ 553.10(i)(2)(ii): the board's straight plays for both; the $19 pot divides $9
    each and the $1 that cannot be divided goes to the highest ranking card by suit: the
    board's cards tie, so the players' own cards decide, seat 2's 4s above seat 1's 3d."""
    fast, s, _ = _golden("poker-holdem", ["2c 3d", "2h 4s"], "Th Jc Qd Ks Ah", [950, 950])
    assert fast is not None
    assert [int(a) for a in fast.awards] == [900, 1000]
    assert [o.seat for p in s.pots for h in p.halves for o in h.odd_chips] == [2]
    _assert_equal(fast, s, 2)


def test_three_way_tie_the_excess_one_dollar_at_a_time_in_card_order() -> None:
    """§ 553.10(i)(2)(ii): a $20 pot ($6 from each of three players, $2 from seat 4, who
    folded) tied three ways in $1 chips: $6 each and $2 that cannot be divided, at most $1
    to a player ("which may not exceed $1"), in the order of the highest card by suit:
    seat 3 (6d), then seat 2 (4s); seat 1 (3d) takes $6."""
    fast, s, _ = _golden(
        "poker-holdem",
        ["2c 3d", "2h 4s", "5c 6d", "7c 8c"],
        "Th Jc Qd Ks Ah",
        [600, 600, 600, 200],
        folded=[False, False, False, True],
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [600, 700, 700, 0]
    _assert_equal(fast, s, 4)


def test_low_half_tied_the_odd_chip_to_the_lowest_card_by_suit() -> None:
    """§ 553.10(i)(2)(iii): seat 3's heart flush takes the $9 high half; seats 1 and 2 tie
    for the $9 low half with 5-4-3-2-A: $4 each, and the $1 that cannot be divided goes to
    the lowest ranking low card by suit: the aces first, seat 1's Ac below seat 2's Ad
    (though seat 2's deuce, 2c, is below seat 1's 2d)."""
    fast, s, _ = _golden(
        "poker-omaha-hi-lo-8",
        ["Ac 2d Ks Kd", "Ad 2c Qs Qd", "Kh Qh 9c 9d"],
        "3h 4h 5c 8h Jd",
        [600, 600, 600],
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [500, 400, 900]
    low = [h for p in s.pots for h in p.halves if h.part == "low"]
    assert [o.seat for o in low[0].odd_chips] == [1]
    _assert_equal(fast, s, 3)


def test_side_pot_raked_pot_by_pot_and_the_uncalled_bet_returned() -> None:
    """§ 553.8(b)(4): seat 1, All-in for $5, is eligible only for the $15 main pot, which
    its aces win; seats 2 and 3 contest the $8 side pot ($4 each), which seat 2's kings
    win; seat 3's last $3 nobody called returns to it (§ 553.15(d)). § 553.15(b)(1): 10%
    of each pot rounded down to the $1 chip: $1 of the main pot, nothing of the side pot
    (10% of the $23 in the pots together would be $2)."""
    rake = RakeRule("percentage", rate=Fraction(1, 10), cap=500)
    fast, s, _ = _golden(
        "poker-holdem",
        ["As Ad", "Ks Kd", "Qs Qd"],
        "2c 7h 9d Jc 3s",
        [500, 900, 1200],
        rules=Rules(rake),
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [1500 - 100, 800, 300]
    assert (fast.rake, fast.pots, fast.showdown) == (100, 2300, True)
    assert [p.pot.amount for p in s.pots] == [1500, 800]
    _assert_equal(fast, s, 3)


def test_rake_cap_taken_from_the_main_pot_first() -> None:
    """§ 553.15(b)(1): 10% in 25-cent units, at most $2 a round of play: $1.50 of the $15
    main pot, then the $0.75 wanted of the $8 side pot capped to the $0.50 left."""
    rake = RakeRule("percentage", rate=Fraction(1, 10), cap=200, unit=25)
    fast, s, _ = _golden(
        "poker-holdem",
        ["As Ad", "Ks Kd", "Qs Qd"],
        "2c 7h 9d Jc 3s",
        [500, 900, 900],
        rules=Rules(rake),
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [1500 - 150, 800 - 50, 0]
    assert fast.rake == 200 and s.rake.by_pot == [150, 50]
    _assert_equal(fast, s, 3)


def test_side_pot_of_a_high_low_game_with_no_qualifying_low() -> None:
    """§ 553.10(i), (j): the $15 main pot splits between seat 2's flush (high) and the
    All-in seat 1's 5-4-3-2-A (low) in $1 chips, the odd $1 to the high half
    ((i)(2)(i)): $8 and $7; no hand eligible for the $8 side pot (seats 2 and 3) qualifies
    for low, so seat 2's flush takes all of it."""
    fast, s, _ = _golden(
        "poker-omaha-hi-lo-8",
        ["Ac 2d Ks Kd", "Kh Qh 9c 9d", "Jc Js Tc Ts"],
        "3h 4h 5c 8h Jd",
        [500, 900, 900],
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [700, 800 + 800, 0]
    assert len(s.pots) == 2
    _assert_equal(fast, s, 3)


def test_bad_beat_contribution_from_each_pot_a_side_pot_being_one() -> None:
    """§ 553.20(c): "extract from each pot … a prescribed contribution"; § 553.1: a side
    pot is "a separate pot". The example's $1 from each pot of $20 or more after the rake:
    the $75 main pot, raked 10% to the $5 cap, keeps $70 and gives $1 (seat 1's aces win
    $69); the $48 side pot, the cap spent, gives $1 too (seat 2's kings win $47). With $5,
    $9 and $9 put in, neither the $14 main pot nor the $8 side pot reaches $20: nothing."""
    game = load_game("poker-holdem")
    rules = Rules(RakeRule("percentage", rate=Fraction(1, 10), cap=500), _bad_beat(game, "example"))
    fast, s, _ = _golden(
        "poker-holdem",
        ["As Ad", "Ks Kd", "Qs Qd"],
        "2c 7h 9d Jc 3s",
        [2500, 4900, 4900],
        rules=rules,
    )
    assert fast is not None
    assert (fast.rake, fast.bad_beat_contribution) == (500, 200)
    assert s.bad_beat is not None and s.bad_beat.by_pot == [100, 100]
    assert [int(a) for a in fast.awards] == [6900, 4700, 0]
    _assert_equal(fast, s, 3)
    fast, s, _ = _golden(
        "poker-holdem", ["As Ad", "Ks Kd", "Qs Qd"], "2c 7h 9d Jc 3s", [500, 900, 900], rules=rules
    )
    assert fast is not None
    assert (fast.rake, fast.bad_beat_contribution) == (100, 0)
    assert [int(a) for a in fast.awards] == [1500 - 100, 800, 0]
    _assert_equal(fast, s, 3)


def test_a_player_still_in_who_put_in_nothing_wins_no_pot() -> None:
    """§ 553.8(b)(4)(i): an All-in player is eligible only for the pot he contributed to;
    seat 1 put in nothing, so its aces win nothing and seat 2's kings take the $18."""
    fast, s, _ = _golden(
        "poker-holdem", ["As Ad", "Ks Kd", "Qs Qd"], "2c 7h 9d Jc 3s", [0, 900, 900]
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [0, 1800, 0]
    assert [p.pot.eligible for p in s.pots] == [(2, 3)]
    _assert_equal(fast, s, 3)


def test_a_tie_in_a_side_pot_with_an_odd_chip_by_card_and_suit() -> None:
    """§ 553.8(b)(4); § 553.10(i)(2)(ii): seat 1's aces take the $15 main pot; seats 2 and
    3 tie for the $9 side pot with kings and twos, $4 each, and its odd $1 goes to the
    highest card by suit: the hands' cards compared from the highest, Ks and Kh against Ks
    and Kc: seat 2's Kh."""
    fast, s, _ = _golden(
        "poker-holdem",
        ["As Ad", "Kh 2d", "Kc 2s"],
        "Ks 7h 9d Jc 3s",
        [500, 950, 950],
    )
    assert fast is not None
    assert [int(a) for a in fast.awards] == [1500, 500, 400]
    assert [o.seat for o in s.pots[1].halves[0].odd_chips] == [2]
    _assert_equal(fast, s, 3)


def test_a_bad_beat_is_paid_by_the_kernel() -> None:
    """§ 553.20: four eights using both hole cards lose to a straight flush; the fund, $30
    with the round's $1, pays the example submission's shares, rounded down to the cent:
    50% ($15) to the losing hand, 25% ($7.50) to the winning hand, 25% to the table (seat 3,
    who folded, was dealt in)."""
    game = load_game("poker-holdem")
    example = _bad_beat(game, "example")
    assert example is not None
    rules = Rules(bad_beat=replace(example, fund=2900))
    fast, s, _ = _golden(
        "poker-holdem",
        ["8d 8c", "Qd Kd", "2c 3c"],
        "8s 8h 9d Td Jd",
        [1500, 1500, 100],
        folded=[False, False, True],
        rules=rules,
    )
    assert s.bad_beat is not None and s.bad_beat.hit
    assert fast is not None and fast.bad_beat is not None
    assert [int(a) for a in fast.bad_beat] == [1500, 750, 750]
    _assert_equal(fast, s, 3)


def test_a_bad_beat_needs_both_hole_cards_playing() -> None:
    """§ 553.20(b)(3): the board's four eights play for seat 1 with a king, one hole card:
    the example submission's "both hole cards play" is not met, no Bad Beat."""
    game = load_game("poker-holdem")
    example = _bad_beat(game, "example")
    assert example is not None
    rules = Rules(bad_beat=replace(example, fund=2900))
    fast, s, _ = _golden(
        "poker-holdem", ["Kc 2h", "Ad Qd"], "8s 8h 8d 8c Jd", [1500, 1500], rules=rules
    )
    assert s.bad_beat is not None and not s.bad_beat.hit
    assert fast is not None and not fast.bad_beat_hit
    _assert_equal(fast, s, 2)


def test_bad_beat_contribution_when_no_hand_reaches_the_floor() -> None:
    """§ 553.20(c): $1 from a $30 pot (at least the $20 minimum) goes to the fund after the
    rake; a pair of aces beats a pair of kings and nobody is near four of a kind."""
    game = load_game("poker-holdem")
    rules = Rules(RakeRule("percentage", rate=Fraction(1, 10), cap=500), _bad_beat(game, "example"))
    fast, s, _ = _golden(
        "poker-holdem", ["As Ad", "Ks Kd"], "2c 7h 9d Jc 3s", [1500, 1500], rules=rules
    )
    assert fast is not None
    assert (fast.rake, fast.bad_beat_contribution) == (300, 100)
    assert [int(a) for a in fast.awards] == [3000 - 300 - 100, 0]
    _assert_equal(fast, s, 2)


def test_a_kill_rule_is_settled_here() -> None:
    """A Kill's outcome decides the next round's limits (§ 553.12(m)): the kernel says it
    (``tests/test_fast_kill.py`` holds it equal to ``kill.after_round``)."""
    game = load_game("poker-omaha-hi-lo-8")
    kill = KillRule("half_kill", Fraction(3, 2), 6000)
    settler = FastSettler(game, Rules(kill=kill), Stakes(Limit(200, 400)), [1, 2])
    assert settler.reason is None


# -- realistic rounds: a session's hands --------------------------------------------------------


def _setup(game: Game):
    example = EXAMPLES / f"{game.id}.yaml"
    return read_settings(game, example) if example.exists() else default_setup(game)


def session_rounds(
    game_id: str, hands: int, seed: int = 1
) -> list[tuple[SettledHand, PokerSettlement, int]]:
    """A session's hands, each settled by the kernel and by ``settle_round`` (as the session
    did it): (kernel's result, scalar settlement, seats). The log is kept, so that every
    round is played by ``table.Hand`` and keeps its settlement."""
    game = load_game(game_id)
    setup = _setup(game)
    session = Session(game, setup, min(6, setup.positions), seed, narrated=True)
    settler = FastSettler(game, setup.rules, setup.stakes, session.seats)
    out = []
    for record in session.hands(hands):
        played = record.played
        by_seat = {p.seat: p for p in played.players}
        if len(by_seat) != len(session.seats):
            continue  # a seat sitting out: not a round the fast path deals
        players = [by_seat[s] for s in session.seats]
        cards = [p.card_list() for p in players]
        put = [p.contributed for p in players]
        folded = [p.folded for p in players]
        dealt = _dealt(game, cards, played.board, put, folded, played.round_put)
        fast = settle(settler, dealt, record.fund_before, record.kill_multiplier != 1)
        out.append((fast, played.settlement, len(players)))
    return out


@pytest.mark.parametrize("game_id", POKER)
def test_session_rounds_settle_as_the_session_did(game_id: str) -> None:
    """Rounds as a session deals and bets them (the example submission's rake and Bad Beat
    where there is one, else the defaults), settled by the kernel or handed back."""
    for fast, s, n in session_rounds(game_id, 25):
        assert fast is not None
        _assert_equal(fast, s, n)


@pytest.mark.parametrize(
    ("put", "folded"),
    [
        ([900, 900], [True, True]),  # every player folded
        ([900, 900, 300], [True, True, False]),  # folded players' chips no one still in called
        ([-100, 100], [False, False]),  # a negative contribution
    ],
)
def test_rounds_no_play_produces_are_refused_in_settle_rounds_words(
    put: list[int], folded: list[bool]
) -> None:
    """§ 553.8(b)(4): pots are formed from what the players still in called; contributions
    no round of play produces are refused by the kernel with ``settle_round``'s error and
    message, and nothing is left in the log."""
    game = load_game("poker-holdem")
    hands = [parse_cards(h) for h in ["As Ad", "Ks Kd", "Qs Qd"][: len(put)]]
    board = parse_cards("2c 7h 9d Jc 3s")
    dealt = _dealt(game, hands, board, put, folded, [sum(put)])
    settler = FastSettler(game, Rules(), Stakes(Limit(200, 400)), range(1, len(put) + 1))
    log, at = new_log(True), np.zeros(1, dtype=np.int64)
    with pytest.raises(RoundFileError) as kernel:
        settle(settler, dealt, 0, log=log, at=at)
    with pytest.raises(RoundFileError) as scalar:
        _scalar(game, Rules(), 100, hands, board, put, folded, [sum(put)])
    assert str(kernel.value) == str(scalar.value)
    assert at[0] == 0


def test_a_bad_beat_on_a_low_hand_is_refused_at_its_qualifying_hand_553_1() -> None:
    """§ 553.1: a Bad Beat is "one or more predesignated high value Poker hands" held as a
    losing hand, read as the High Poker hands of § 553.4(b) (the game file's note); a round
    file whose Bad Beat qualifies a low hand is refused at that field with the rule, never
    settled another way, and a game that ranks low hands only has no Bad Beat at all."""
    import yaml

    from validator.interpreter.poker.settle import settle_poker_round

    data = yaml.safe_load(
        """
game: poker-omaha-hi-lo-8
seats:
  - {seat: 1, cards: [KD, KH, 9S, 9C], contributed: 9}
  - {seat: 2, cards: [AH, 3D, JD, TD], contributed: 9}
  - {seat: 3, cards: [AS, 3C, JS, TS], contributed: 9}
board: [2C, 5D, 7H, KS, QC]
bad_beat:
  contribution: 1
  max: 1
  min_pot: 1
  fund: 10000
  qualifying: {hand: low, at_least: no_pair}
  payouts: {losing_hand: 50%}
"""
    )
    with pytest.raises(RoundFileError) as e:
        settle_poker_round(data, load_game("poker-omaha-hi-lo-8"))
    [(where, message)] = e.value.problems
    assert where == "/bad_beat/qualifying/hand"
    assert "high value Poker hands" in message and "(§ 553.1, Bad Beat)" in message
    assert message.endswith("its qualifying hand is the high hand: high, not low")
    lowball = {
        **data,
        "game": "poker-five-card-draw-low",
        "seats": [
            {"seat": 1, "cards": ["AS", "2D", "3C", "4H", "6S"], "contributed": 9},
            {"seat": 2, "cards": ["AH", "2C", "3D", "4S", "5H"], "contributed": 9},
        ],
        "board": [],
    }
    for hand in ("low", "high"):
        lowball["bad_beat"]["qualifying"]["hand"] = hand
        with pytest.raises(RoundFileError) as e:
            settle_poker_round(lowball, load_game("poker-five-card-draw-low"))
        [(where, message)] = e.value.problems
        assert where == "/bad_beat/qualifying/hand"
        assert message.startswith("Five-card Draw Low-hand ranks low hands only, so has no Bad")
        assert "(§ 553.1, Bad Beat)" in message
    data["bad_beat"]["qualifying"]["hand"] = "high"
    data["bad_beat"]["qualifying"]["at_least"] = "pair"
    settled = settle_poker_round(data, load_game("poker-omaha-hi-lo-8"))
    assert settled.bad_beat is not None and settled.balanced


def _golden_settled(case: str) -> SettledHand:
    """A golden round file (``tests/golden/poker``) settled by the kernel alone, handed the
    round as ``rulesub settle`` hands it."""
    from validator.interpreter.poker.settle import _dealt, _settler, _shown
    from validator.interpreter.roundfile.poker import read_poker_round
    from validator.loader import load_yaml

    data = load_yaml(Path(__file__).parent / "golden" / "poker" / f"{case}.yaml").data
    game = load_game(data["game"])
    rnd = read_poker_round(data, game)
    fund = rnd.bad_beat.fund if rnd.bad_beat is not None else 0
    return settle(_settler(game, rnd), _dealt(rnd, _shown(game, rnd)), fund)


def test_kernel_names_the_bad_beat_losing_hand_553_20() -> None:
    """§ 553.20: the kernel names the seat whose losing hand made the Bad Beat (seat 1's four
    aces, beaten by a straight flush), so that the explanation reads it rather than finding
    it again; seat 3 folded, seat 2 won."""
    settled = _golden_settled("holdem-bad-beat")
    assert settled.bad_beat_hit
    assert settled.bad_beat_losing == 0b001  # seat 1, the first seat dealt in


def test_kernel_gives_the_tied_low_hands_their_places_553_12_j_2_iii() -> None:
    """§ 553.12(j)(2)(iii), (iv): the low half tied between seats 2 and 3; the kernel gives
    seat 2 (the ace of hearts, below the ace of spades) the first place for the excess and
    hands that order on, for the explanation to read; seat 1 (the high hand) is not tied."""
    settled = _golden_settled("omaha-hi-lo-8-odd-chip-tied-low")
    assert settled.priority is not None
    assert settled.priority[LOW].tolist() == [-1, 0, 1]
    assert settled.priority[HIGH].tolist() == [-1, -1, -1]
