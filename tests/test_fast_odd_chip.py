"""The odd chip's order by card and suit in a kernel (``fast.odd_chip``) held equal to the
scalar showdown's: the oracle's ``odd_chip_order`` of the hands ``showdown.show`` builds
(§ 553.10(i)(2)(ii)-(iv); § 553.12(j)(2)(ii)-(iv)).

Every nonbanking game in ``games/`` is read from the game files; deals are built to tie
(the same ranks in other suits), to hold many cards of a rank (which of equal cards a hand
uses decides the suit compared), and with boards that play for every hand.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.poker_oracle.settlement import OracleSplitter
from tests.test_fast_settle import _deal, _deal_ties
from validator.cards import parse_cards
from validator.compiler import Game, all_games, load_game
from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS
from validator.interpreter.poker.fast.odd_chip import (
    PRESENT,
    USE_BOARD,
    USE_OWN,
    _first_best,
    odd_chip_order,
)
from validator.interpreter.poker.fast.settle import HIGH, LOW, FastSettler
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.showdown import show
from validator.interpreter.poker.table import Limit, Rules, Stakes
from validator.rankings.packed import best_key_using, best_pick_using

POKER = tuple(
    g.id for g in all_games() if g.definition.kind == "nonbanking" and g.definition.showdown
)

ORDERS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _deal_few_ranks(
    game: Game, players: int, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """As ``_deal``, from a deck whose first cards are all of a few ranks: hands full of
    pairs, trips and fours (an evaluator's choice among equal cards; a low hand whose
    pairs must play)."""
    ranks = rng.sample(range(13), rng.randrange(2, 6))
    first = [c for c in range(52) if c >> 2 in ranks]
    rest = [c for c in range(52) if c >> 2 not in ranks]
    rng.shuffle(first)
    rng.shuffle(rest)
    return _dealt_from(game, players, first + rest)


def _deal_board_plays(
    game: Game, players: int, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """As ``_deal``, the board a straight or a flush that plays for every hand that may
    use all of it, the players' cards low."""
    deck = list(range(52))
    rng.shuffle(deck)
    if rng.random() < 0.5:
        top = rng.randrange(3, 13)  # 3: the wheel, A-2-3-4-5
        ranks = [12 if r < 0 else r for r in range(top - 4, top + 1)]
        board = [r << 2 | rng.randrange(4) for r in ranks]
    else:
        suit = rng.randrange(4)
        board = [r << 2 | suit for r in rng.sample(range(6, 13), 5)]
    low = [c for c in deck if c not in board and c >> 2 < 6]
    high = [c for c in deck if c not in board and c >> 2 >= 6]
    return _dealt_from(game, players, low + high, board)


def _dealt_from(
    game: Game, players: int, deck: list[int], board: list[int] | None = None
) -> tuple[list[list[int]], list[int]]:
    dealt = game.definition.cards.dealt
    own = dealt["player"].count
    count = dealt["board"].count if "board" in dealt else 0
    cards = [deck[i * own : (i + 1) * own] for i in range(players)]
    if board is None:
        board = deck[players * own : players * own + count]
    return cards, board[:count]


DEALS = {"plain": _deal, "ties": _deal_ties, "few ranks": _deal_few_ranks}
DEALS["board plays"] = _deal_board_plays


def _arrays(cards: list[list[int]], board: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(cards)
    hand_cards = np.zeros((n, MAX_CARDS), dtype=np.int64)
    for i, own in enumerate(cards):
        hand_cards[i, : len(own)] = own
    board_cards = np.zeros(MAX_BOARD, dtype=np.int64)
    board_cards[: len(board)] = board
    return hand_cards, np.array([len(c) for c in cards], dtype=np.int64), board_cards


def _scalar_priority(
    settler: FastSettler, cards: list[list[int]], board: list[int], tied: np.ndarray
) -> np.ndarray:
    """The order's definition: each tied seat's hands shown, ordered by the oracle's
    splitter."""
    splitter = OracleSplitter(settler.game, card_orders(settler.game), 100)
    out = np.full(tied.shape, -1, dtype=np.int64)
    for part, name in ((HIGH, "high"), (LOW, "low")):
        seats = [int(i) for i in np.flatnonzero(tied[part])]
        shown = [show(settler.game, i, cards[i], board) for i in seats]
        for place, hand in enumerate(splitter.odd_chip_order(shown, name)):
            out[part, hand.seat] = place
    return out


def _kernel_priority(
    settler: FastSettler, cards: list[list[int]], board: list[int], tied: np.ndarray, py: bool
) -> np.ndarray | None:
    kernel = getattr(odd_chip_order, "py_func", odd_chip_order) if py else odd_chip_order
    hand_cards, ncards, board_cards = _arrays(cards, board)
    priority = np.empty(tied.shape, dtype=np.int64)
    ordered = kernel(
        hand_cards, ncards, board_cards, len(board), tied, *settler.order_arrays, priority
    )
    return priority if ordered else None


def _settler(game: Game, players: int) -> FastSettler:
    settler = FastSettler(game, Rules(), Stakes(Limit(200, 400)), range(1, players + 1))
    assert settler.reason is None
    return settler


@ORDERS
@given(
    game_id=st.sampled_from(POKER),
    deal=st.sampled_from(sorted(DEALS)),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 8),
    py=st.booleans(),
)
def test_kernel_orders_tied_seats_as_the_scalar_showdown(
    game_id: str, deal: str, seed: int, players: int, py: bool
) -> None:
    """§ 553.10(i)(2)(ii)-(iv); § 553.12(j)(2)(ii)-(iv): for any set of tied seats, in
    each part the game's showdown has, the kernel gives each seat the place
    the oracle's ``odd_chip_order`` gives its hand as ``showdown.show`` builds it (the cards
    the hand uses, then the player's other cards), compiled or as plain Python; every
    nonbanking game's hands are read by the kernel (no round leaves it for the order)."""
    game = load_game(game_id)
    dealt = game.definition.cards.dealt
    room = (52 - 5) // dealt["player"].count  # a full hand each, the board aside
    players = min(players, room)
    rng = random.Random(seed)
    cards, board = DEALS[deal](game, players, rng)
    settler = _settler(game, players)
    spec = settler.order_arrays[1]
    tied = np.zeros((2, players), dtype=np.bool_)
    for part in (HIGH, LOW):
        if spec[part, PRESENT] != 1:
            continue  # the game has no such hand: its parts never tie
        for i in rng.sample(range(players), rng.randrange(1, players + 1)):
            tied[part, i] = True
    assert tied.any(), f"{game_id} reads no hand for the odd chip"
    priority = _kernel_priority(settler, cards, board, tied, py)
    assert priority is not None
    assert priority.tolist() == _scalar_priority(settler, cards, board, tied).tolist()


def test_every_nonbanking_game_has_its_showdown_hands_read() -> None:
    """The kernel reads the hand of every part a game's showdown has: the high hand for the
    highest card by suit, the low hand for the lowest."""
    for game_id in POKER:
        game = load_game(game_id)
        sd = game.definition.showdown
        assert sd is not None
        spec = _settler(game, 2).order_arrays[1]
        assert spec[HIGH, PRESENT] == (sd.high is not None), game_id
        assert spec[LOW, PRESENT] == (sd.low is not None), game_id


def _golden(game_id: str, hands: list[str], board: str, part: int) -> tuple[list[int], list[int]]:
    """(the kernel's places, the scalar showdown's) of every seat tied for ``part``."""
    game = load_game(game_id)
    cards = [parse_cards(h) for h in hands]
    shared = parse_cards(board)
    settler = _settler(game, len(hands))
    tied = np.zeros((2, len(hands)), dtype=np.bool_)
    tied[part] = True
    priority = _kernel_priority(settler, cards, shared, tied, py=False)
    assert priority is not None
    scalar = _scalar_priority(settler, cards, shared, tied)
    return priority[part].tolist(), scalar[part].tolist()


def test_highest_card_by_suit_the_board_nine_the_hand_uses_553_10_i_2_ii_iv() -> None:
    """§ 553.10(i)(2)(ii), (iv) (Hold'em by analogy, its game file's note): "the excess
    ... shall be given to the player with the highest ranking high Poker card by suit",
    suits ranked spades, hearts, diamonds, clubs. Board Ah Ad Kh Kd 9s; seat 1 holds 9h 2c,
    seat 2 9d 3c: both play aces and kings with a nine. Of seat 1's two nines the hand
    uses the board's 9s (of equal ranks the higher suit is taken), so both hands are
    Ah Ad Kh Kd 9s and tie card for card; the players' other cards decide: seat 1's 9h
    above seat 2's 9d. Had seat 1's hand used its own 9h, seat 2 (9s in its hand) would
    come first."""
    kernel, scalar = _golden("poker-holdem", ["9h 2c", "9d 3c"], "Ah Ad Kh Kd 9s", HIGH)
    assert kernel == [0, 1]
    assert kernel == scalar


def test_lowest_card_by_suit_the_fours_decide_553_12_j_2_iii_iv() -> None:
    """§ 553.12(j)(2)(iii), (iv): "the excess ... shall be given to the player with the
    lowest ranking low-hand Poker card by suit". Omaha High-low-hand Split Eight or Better,
    board Ac 2c 3d Ks Qs: seat 1 (4h 5d Jc Tc) and seat 2 (4d 5h 9c 8c) each make
    5-4-3-2-A with two of their cards and the board's Ac 2c 3d. Compared from the lowest
    card (the ace low): Ac, 2c, 3d tie; then seat 2's 4d is below seat 1's 4h (diamonds
    rank below hearts): seat 2 receives the excess first."""
    kernel, scalar = _golden(
        "poker-omaha-hi-lo-8", ["4h 5d Jc Tc", "4d 5h 9c 8c"], "Ac 2c 3d Ks Qs", LOW
    )
    assert kernel == [1, 0]
    assert kernel == scalar


def test_lowest_card_by_suit_pairs_must_play_the_first_best_choice_553_10_i_2_iii_iv() -> None:
    """§ 553.10(i)(2)(iii), (iv), Seven-card Stud High-low-hand Split, the common card Ac
    (§ 553.10(h)). Seat 1 holds Ah Ad 2c 2d 3c 4c, seat 2 As 2h 2s 3d 3h 4d: with the Ac
    each has four ranks, so a pair must play, and each low is a pair of aces with 4-3-2
    (§ 553.4(c), (d)): a tie. Of the equal choices the evaluator keeps the first in the
    order the cards are listed (the player's, then the board's): seat 1's Ah Ad 2c 3c 4c
    (not the board's ace), seat 2's As Ac 2h 3d 4d. Compared from the lowest card by suit
    (clubs, diamonds, hearts, spades upward): seat 2's Ac is below seat 1's Ad, so seat 2
    receives the excess first; had seat 1's hand taken the Ac with its Ad, seat 1 would."""
    kernel, scalar = _golden(
        "poker-seven-card-stud-hi-lo", ["Ah Ad 2c 2d 3c 4c", "As 2h 2s 3d 3h 4d"], "Ac", LOW
    )
    assert kernel == [1, 0]
    assert kernel == scalar


@ORDERS
@given(
    game_id=st.sampled_from(POKER),
    seed=st.integers(0, 2**32 - 1),
    part=st.sampled_from([HIGH, LOW]),
    few_ranks=st.booleans(),
)
def test_first_best_choice_is_best_pick_using_s(
    game_id: str, seed: int, part: int, few_ranks: bool
) -> None:
    """§ 553.12(j): a hand of set parts (Omaha's two of the player's and three of the
        board) uses the cards ``packed.best_pick_using`` picks (``Evaluator.best_using``'s
        first best choice); ``_first_best`` reads the choices up to the first of the best key
    (``best_key_using``'s) and must pick the same, either part listed first."""
    game = load_game(game_id)
    settler = _settler(game, 2)
    spec = settler.order_arrays[1]
    if spec[part, PRESENT] != 1 or spec[part, USE_OWN] < 0:
        return
    tables = settler.order_arrays[2 + part]
    rng = random.Random(seed)
    cards, board = (_deal_few_ranks if few_ranks else _deal)(game, 1, rng)
    own = np.array(cards[0], dtype=np.int64)
    shared = np.array(board, dtype=np.int64)
    k_own, k_board = int(spec[part, USE_OWN]), int(spec[part, USE_BOARD])
    for first, k1, second, k2 in ((own, k_own, shared, k_board), (shared, k_board, own, k_own)):
        mask = best_pick_using(tables, first, len(first), k1, second, len(second), k2)
        picked = {int(c) for i, c in enumerate(first) if mask >> i & 1}
        picked |= {int(c) for j, c in enumerate(second) if mask >> (16 + j) & 1}
        best = best_key_using(tables, own, len(own), shared, len(shared), k_own, k_board)
        fast = _first_best(tables, first, len(first), k1, second, len(second), k2, best)
        assert {c for c in range(52) if fast >> c & 1} == picked
