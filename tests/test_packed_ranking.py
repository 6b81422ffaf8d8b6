"""The packed ranking tables (the Poker kernels' hand values) agree with the scalar evaluator.

Every function of ``validator.rankings.packed`` is held equal to ``Evaluator`` for the
rankings the nonbanking Poker games read (showdown hands, the Bad Beat's, first to act):
every 1-, 2- and 3-card hand, every rank pattern of 1 to 7 cards (its suits dealt at random,
its cards in a random order), every five ranks of one suit (the flushes), and random 5- to
7-card hands and Omaha hands (§ 553.12(j): two of the four and three of the board).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.cache import PerObject
from validator.cards import parse_cards
from validator.compiler import PokerGame, load_game
from validator.model.ranking import Ranking
from validator.rankings.evaluator import Evaluator, HandValue
from validator.rankings.packed import (
    FIVE,
    FIVE_AT,
    FIVE_VALUES,
    KEY_PARTS,
    MAX_PACKED,
    T_RANK_KEY,
    NotPackable,
    PackedRanking,
    _patterns,
    _read,
    best_key,
    best_key_of_five,
    best_key_of_picks,
    best_key_using,
    build,
    category_index,
    five_picks,
    flat_tables,
    kept_mask,
    key_part,
    pack_key,
    packable,
    packed,
    pattern_offsets,
    picks,
    table,
)

GAMES = Path(__file__).resolve().parent.parent / "games"
#: the rankings a nonbanking Poker game reads (held so by the first test)
POKER_RANKINGS = ("poker", "low-ace-to-five")
#: packable rankings of the banking games, held to the same agreement
OTHER_PACKABLE = ("five-card", "four-card", "lunar")


def _game_ids() -> list[str]:
    return sorted(p.stem for p in GAMES.glob("*.yaml") if p.stem != "rankings")


def test_every_ranking_a_poker_game_reads_is_packed() -> None:
    """Showdown hands (the Bad Beat reads one of them, § 553.20) and the Stud first to act
    (§ 553.10(d)): each ranking is among those held equal below, and packs."""
    read: set[str] = set()
    games = [load_game(game_id, GAMES) for game_id in _game_ids()]
    poker = [g for g in games if isinstance(g, PokerGame)]
    assert len(poker) == 12
    for game in poker:
        read |= {h.ranking for h in game.definition.hands.values()}
        fa = game.definition.betting.first_to_act if game.definition.betting else None
        if fa is not None:
            read.add(fa.ranking)
    assert read == set(POKER_RANKINGS)
    for game in poker:
        for ranking_id in read & set(game.rankings):
            assert packable(game.rankings[ranking_id]) is None


@pytest.fixture(scope="module", params=POKER_RANKINGS + OTHER_PACKABLE)
def pair(
    request: pytest.FixtureRequest, rankings: dict[str, Ranking]
) -> tuple[Evaluator, PackedRanking]:
    ranking = rankings[request.param]
    ev = Evaluator(ranking)
    return ev, packed(ev)


def _agree(ev: Evaluator, pr: PackedRanking, cards: Sequence[int]) -> HandValue:
    """Every function on ``cards`` equals the evaluator; the value, for further checks."""
    value = ev.best(list(cards))
    arr = np.array(cards, dtype=np.int64)
    key = best_key(pr.tables, arr, len(cards))
    assert key == pack_key(value.key), (cards, value)
    assert category_index(pr.tables, key) == ev.ids.index(value.category), (cards, value)
    parts = [key_part(key, i) for i in range(KEY_PARTS)]
    assert parts == [*value.key, *[0] * (KEY_PARTS - len(value.key))]
    if len(cards) <= ev.ranking.size:
        expect = sum(1 << i for i, c in enumerate(cards) if c in value.combination)
        assert kept_mask(pr.tables, arr, len(cards)) == expect, (cards, value)
    return value


@pytest.mark.parametrize(
    ("ranking_id", "hand", "key", "category"),
    [
        # § 553.4(a), (b): a royal flush, the highest hand, over a pair's cards
        ("five-card", "AS KS QS JS 10S 2c 3d", (10, 14, 13, 12, 11, 10), "royal_flush"),
        # § 553.4(b): the ace plays low in 5-4-3-2-A, a straight topped by the 5 (over a pair)
        ("five-card", "5h 4d 3c 2s Ah Kd Kc", (5, 5), "straight"),
        # Razz (7CS Procedures § Seven-Card Stud (12)): four ranks of seven cards, a pair must
        # play; the aces are the best pair (§ 553.4(d)): A-A-4-3-2, keys negated
        ("low-ace-to-five", "4c 3s AS 2d AH 3h 2c", (-2, -1, -1, -4, -3, -2), "pair"),
    ],
)
def test_hand_worked_keys(
    rankings: dict[str, Ranking], ranking_id: str, hand: str, key: tuple[int, ...], category: str
) -> None:
    ev = Evaluator(rankings[ranking_id])
    tables = packed(ev).tables
    got = best_key(tables, np.array(parse_cards(hand), dtype=np.int64), 7)
    assert got == pack_key(key)
    assert ev.ids[category_index(tables, got)] == category


def test_the_rank_pattern_index_is_perfect() -> None:
    """Every rank pattern of 0..7 cards has its own index, in the order enumerated."""
    offset, base = pattern_offsets()
    tables = (offset, base, *(np.zeros(1 << 13, dtype=np.int64) for _ in range(5)))
    tables = flat_tables((*tables, np.array([1 << 8, 5], dtype=np.int64)))
    seen = []
    for n in range(MAX_PACKED + 1):
        for ranks in _patterns(n):
            cards = np.array([r << 2 | i & 3 for i, r in enumerate(ranks)], dtype=np.int64)
            seen.append(int(_read(tables, cards, n)[1]))
    assert seen == list(range(int(base[MAX_PACKED + 1])))


def test_every_hand_of_one_to_three_cards(pair: tuple[Evaluator, PackedRanking]) -> None:
    """First to act on the up-cards (§ 553.10(d)) reads hands of as few as one card."""
    ev, pr = pair
    for n in (1, 2, 3):
        for cards in combinations(range(52), n):
            _agree(ev, pr, cards)


def _dealt(rng: random.Random, ranks: Sequence[int]) -> list[int]:
    """Cards of these ranks, each rank's copies in distinct random suits, in random order."""
    cards = []
    for r in set(ranks):
        for s in rng.sample(range(4), ranks.count(r)):
            cards.append(r << 2 | s)
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize(
    "n",
    [
        # every six- and seven-card pattern: whole enumerations (up to 25 s a ranking), in
        # the full suite only
        pytest.param(n, marks=[pytest.mark.slow] if n >= MAX_PACKED - 1 else [])
        for n in range(1, MAX_PACKED + 1)
    ],
)
def test_every_rank_pattern(pair: tuple[Evaluator, PackedRanking], n: int) -> None:
    """Every rank pattern of n cards, suits at random: the key (and the kept cards) of every
    pattern the tables hold, those read from one card fewer included."""
    ev, pr = pair
    if n > ev.ranking.size + 1 and ev.ranking.id not in POKER_RANKINGS:
        pytest.skip("a banking game's hand of this many cards: the Poker rankings hold it")
    rng = random.Random(n)
    for ranks in _patterns(n):
        _agree(ev, pr, _dealt(rng, ranks))


def test_every_five_ranks_of_one_suit(pair: tuple[Evaluator, PackedRanking]) -> None:
    """The flushes, straight flushes and royal flushes of every suit, and the same ranks
    with one card of another suit (no flush: the rank pattern decides)."""
    ev, pr = pair
    rng = random.Random(5)
    for ranks in combinations(range(13), 5):
        suit = rng.randrange(4)
        flush = [r << 2 | suit for r in ranks]
        rng.shuffle(flush)
        _agree(ev, pr, flush)
        broken = [*flush[:4], (flush[4] & ~3) | (suit + 1) % 4]
        _agree(ev, pr, broken)


#: hands rich in flushes and pairs: cards of two suits only, or of few ranks
two_suits = st.lists(
    st.integers(0, 12).flatmap(lambda r: st.sampled_from([r << 2 | 1, r << 2 | 3])),
    min_size=5,
    max_size=7,
    unique=True,
)


def two_suits_of(n: int) -> st.SearchStrategy[list[int]]:
    """n cards of two suits only: flushes, and hands one card short of them."""
    return st.lists(
        st.integers(0, 12).flatmap(lambda r: st.sampled_from([r << 2 | 1, r << 2 | 3])),
        min_size=n,
        max_size=n,
        unique=True,
    )


any_cards = st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True)
few_ranks = st.lists(st.integers(0, 19), min_size=5, max_size=7, unique=True)


@settings(max_examples=300, deadline=None)
@given(cards=st.one_of(any_cards, two_suits, few_ranks))
def test_random_hands_of_five_to_seven_cards(
    cards: list[int], rankings: dict[str, Ranking]
) -> None:
    """Any order given: a low of seven cards whose pairs must play has the one key too."""
    for ranking_id in POKER_RANKINGS:
        ev = Evaluator(rankings[ranking_id])
        _agree(ev, packed(ev), cards)


@settings(max_examples=200, deadline=None)
@given(
    cards=st.one_of(
        st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True),
        st.lists(st.integers(0, 23), min_size=9, max_size=9, unique=True),  # low ranks
        st.permutations(range(20)).map(lambda p: p[:9]),  # pairs and trips
    ),
    n_board=st.integers(3, 5),
)
def test_omaha_two_of_four_and_three_of_the_board(
    cards: list[int], n_board: int, rankings: dict[str, Ranking]
) -> None:
    """§ 553.12(j): the best hand of exactly two hole cards and three board cards, high and
    eight-or-better low (ch. 553 Omaha High-low-hand Split)."""
    own, board = cards[:4], cards[4 : 4 + n_board]
    for ranking_id in POKER_RANKINGS:
        ev = Evaluator(rankings[ranking_id])
        value = ev.best_using([(own, 2), (board, 3)])
        got = best_key_using(packed(ev).tables, np.array(own), 4, np.array(board), n_board, 2, 3)
        assert got == pack_key(value.key)


@settings(max_examples=300, deadline=None)
@given(
    cards=st.one_of(
        st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
        st.lists(st.integers(0, 23), min_size=13, max_size=13, unique=True),  # low ranks
        st.permutations(range(20)).map(lambda p: p[:13]),  # pairs and trips
        st.permutations(range(0, 52, 4)).map(list),  # one suit: flushes
    ),
    n_own=st.integers(0, 8),
    n_board=st.integers(0, 5),
    k_own=st.integers(0, 4),
    k_board=st.integers(0, 3),
)
def test_choices_read_once_and_joined_equal_every_hand_read_whole(
    cards: list[int],
    n_own: int,
    n_board: int,
    k_own: int,
    k_board: int,
    rankings: dict[str, Ranking],
) -> None:
    """§ 553.12(j) read the fast way: each choice of the hole cards and of the board read
    once by ``picks`` and joined by counts (``best_key_of_picks``, ``best_key_using``) gives
    the best ``best_key`` of every hand of those choices read whole (0 where too few cards),
    for any counts of cards and of cards used."""
    if not 0 < k_own + k_board <= 5:
        return
    own = np.array(cards[:n_own] + [0] * (8 - n_own), dtype=np.int64)
    board = np.array(cards[8 : 8 + n_board] + [0] * (5 - n_board), dtype=np.int64)
    oc, os_ = np.zeros(256, dtype=np.int64), np.zeros(256, dtype=np.int64)
    bc, bs = np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64)
    no = picks(own, n_own, k_own, oc, os_)
    nb = picks(board, n_board, k_board, bc, bs)
    assert no == len(list(combinations(range(n_own), k_own)))
    assert nb == len(list(combinations(range(n_board), k_board)))
    for ranking_id in POKER_RANKINGS:
        tables = packed(Evaluator(rankings[ranking_id])).tables
        whole = [
            best_key(tables, np.array([*a, *b], dtype=np.int64), k_own + k_board)
            for a in combinations(cards[:n_own], k_own)
            for b in combinations(cards[8 : 8 + n_board], k_board)
        ]
        want = max(whole, default=0)
        assert best_key_using(tables, own, n_own, board, n_board, k_own, k_board) == want
        assert best_key_of_picks(tables, oc, os_, no, bc, bs, nb, k_own + k_board) == want


def test_every_five_card_rank_pattern_has_its_own_sum(
    pair: tuple[Evaluator, PackedRanking],
) -> None:
    """The rank values of the five-card keys (``FIVE_AT``): the 6,175 rank patterns of five
    cards (at most four of a rank) have as many distinct sums, and the key read at each sum
    is the rank table's key of a hand of that pattern (the suits are read apart)."""
    _, pr = pair
    rng = random.Random(55)
    sums = set()
    for ranks in _patterns(FIVE):
        total = sum(int(FIVE_VALUES[r]) for r in ranks)
        sums.add(total)
        cards = np.array(_dealt(rng, ranks), dtype=np.int64)
        index = _read(pr.tables, cards, FIVE)[1]
        rank_key = table(pr.tables, T_RANK_KEY)
        assert rank_key[FIVE_AT + total] == rank_key[index], ranks
    assert len(sums) == len(_patterns(FIVE)) == 6175


@settings(max_examples=300, deadline=None)
@given(
    cards=st.one_of(
        st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
        st.lists(st.integers(0, 23), min_size=13, max_size=13, unique=True),  # low ranks
        st.permutations(range(20)).map(lambda p: p[:13]),  # pairs and trips
        st.permutations(range(0, 52, 4)).map(list),  # one suit: flushes
        two_suits_of(13),  # flushes of either suit, broken ones
    ),
    n_own=st.integers(0, 8),
    n_board=st.integers(0, 5),
    k_own=st.integers(0, 5),
)
def test_five_card_hands_read_by_sums_equal_the_choices_joined_by_counts(
    cards: list[int], n_own: int, n_board: int, k_own: int, rankings: dict[str, Ranking]
) -> None:
    """§ 553.12(j) (two of the player's cards and three of the board) read by rank sums:
    ``five_picks`` and ``best_key_of_five`` give ``best_key_of_picks``' key for every split
    of five cards between the parts, and ``Evaluator.best_using``'s where both parts can
    give their share (0 where one cannot)."""
    k_board = FIVE - k_own
    own = np.array(cards[:n_own] + [0] * (8 - n_own), dtype=np.int64)
    board = np.array(cards[8 : 8 + n_board] + [0] * (5 - n_board), dtype=np.int64)
    oc, os_ = np.zeros(256, dtype=np.int64), np.zeros(256, dtype=np.int64)
    bc, bs = np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64)
    o5 = np.zeros((3, 256), dtype=np.int64)
    b5 = np.zeros((3, 32), dtype=np.int64)
    no = picks(own, n_own, k_own, oc, os_)
    nb = picks(board, n_board, k_board, bc, bs)
    assert five_picks(own, n_own, k_own, o5) == no
    assert five_picks(board, n_board, k_board, b5) == nb
    for ranking_id in POKER_RANKINGS:
        ev = Evaluator(rankings[ranking_id])
        tables = packed(ev).tables
        got = best_key_of_five(tables, o5, no, b5, nb)
        assert got == best_key_of_picks(tables, oc, os_, no, bc, bs, nb, FIVE)
        assert got == best_key_using(tables, own, n_own, board, n_board, k_own, k_board)
        if no and nb:
            parts = [(cards[:n_own], k_own), (cards[8 : 8 + n_board], k_board)]
            assert got == pack_key(ev.best_using(parts).key)
        else:
            assert got == 0


def test_omaha_with_too_few_cards_holds_no_hand(rankings: dict[str, Ranking]) -> None:
    ev = Evaluator(rankings["five-card"])
    own = np.array([48, 49, 50, 51], dtype=np.int64)
    assert best_key_using(packed(ev).tables, own, 4, np.array([0, 4]), 2, 2, 3) == 0


def test_kept_cards_of_more_cards_than_a_hand_are_refused(rankings: dict[str, Ranking]) -> None:
    ev = Evaluator(rankings["five-card"])
    with pytest.raises(ValueError):
        kept_mask(packed(ev).tables, np.arange(6, dtype=np.int64), 6)


@pytest.mark.parametrize(
    ("ranking_id", "why"),
    [
        ("lunar-super", "colours"),  # same_color, same_color_straight (§ 589.6(d))
        ("six-card-bonus", "diamonds"),  # a royal flush of one named suit (§ 641a.6(e))
        ("high-card-flush", "over 1 card"),  # a flush of one card (§ 678a.6)
        ("pocket-bonus", "over 2 card"),  # ace-king suited of two cards (§ 677a.7(d)(2))
    ],
)
def test_a_ranking_the_tables_cannot_hold_is_refused_with_its_reason(
    rankings: dict[str, Ranking], ranking_id: str, why: str
) -> None:
    ranking = rankings[ranking_id]
    reason = packable(ranking)
    assert reason is not None and why in reason
    with pytest.raises(NotPackable, match=why):
        build(ranking)
    with pytest.raises(NotPackable, match=why):
        packed(Evaluator(ranking))


def test_the_tables_kept_in_the_cache_are_the_tables_built(
    rankings: dict[str, Ranking], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built once, stored whole, read back by the next process: the same arrays."""
    import validator.rankings.packed as module

    monkeypatch.setenv("RULESUB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("RULESUB_NO_CACHE", raising=False)
    monkeypatch.setattr(module, "_packed", PerObject(module._read_or_build))
    ranking = rankings["low-ace-to-five"]
    first = packed(Evaluator(ranking))
    assert list(tmp_path.iterdir())
    monkeypatch.setattr(module, "_packed", PerObject(module._read_or_build))
    monkeypatch.setattr(module, "build", lambda r: pytest.fail("built again"))
    again = packed(Evaluator(ranking))
    assert again is not first
    for a, b in zip(first.tables, again.tables, strict=True):
        assert np.array_equal(a, b)


def test_the_functions_run_as_plain_python() -> None:
    """``NUMBA_DISABLE_JIT=1`` (how a failing kernel is debugged) gives the same keys."""
    script = (
        "import random, numpy as np\n"
        "from validator.model.registry import load_rankings\n"
        "from validator.rankings.evaluator import Evaluator\n"
        "from validator.rankings.packed import best_key, best_key_using, kept_mask, pack_key\n"
        "from validator.rankings.packed import packed\n"
        "rng = random.Random(7)\n"
        "for rid in ('five-card', 'low-ace-to-five'):\n"
        "    ev = Evaluator(load_rankings()[rid]); t = packed(ev).tables\n"
        "    for _ in range(300):\n"
        "        c = rng.sample(range(52), rng.randint(1, 7))\n"
        "        assert best_key(t, np.array(c), len(c)) == pack_key(ev.best(c).key), c\n"
        "    for _ in range(30):\n"
        "        c = rng.sample(range(52), 9)\n"
        "        v = ev.best_using([(c[:4], 2), (c[4:], 3)])\n"
        "        k = best_key_using(t, np.array(c[:4]), 4, np.array(c[4:]), 5, 2, 3)\n"
        "        assert k == pack_key(v.key), c\n"
        "    c = [51, 47, 43, 39, 35]\n"
        "    assert kept_mask(t, np.array(c), 5) == (31 if rid == 'five-card' else 0)\n"
        "print('ok')\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(52)), st.sampled_from(["poker-omaha", "poker-omaha-hi-lo-8"]))
def test_best_pick_using_takes_the_cards_best_using_takes(deck: list[int], game_id: str) -> None:
    """§ 553.12(j): exactly two of the player's four cards and three of the five on the
    board; the cards ``packed.best_pick_using`` picks, from each part in play order, make
    the very ``HandValue`` (cards included, the first of equal choices) that
    ``Evaluator.best_using`` returns, whatever the order the cards are listed in."""
    from validator.rankings.packed import best_pick_using

    game = load_game(game_id)
    sd = game.definition.showdown
    assert sd is not None
    for hand_id in (sd.high, sd.low):
        if not hand_id:
            continue
        ev = game.evaluator(hand_id)
        own = sorted(deck[:4], key=ev._play_order)
        board = sorted(deck[4:9], key=ev._play_order)
        listed = ev.best_using([(deck[:4][::-1], 2), (deck[4:9][::-1], 3)])
        assert listed == ev.best_using([(deck[:4], 2), (deck[4:9], 3)])
        mask = best_pick_using(
            packed(ev).tables,
            np.array(own, dtype=np.int64),
            4,
            2,
            np.array(board, dtype=np.int64),
            5,
            3,
        )
        chosen = [c for i, c in enumerate(own) if mask >> i & 1]
        chosen += [c for j, c in enumerate(board) if mask >> (16 + j) & 1]
        assert ev.best(chosen) == listed
