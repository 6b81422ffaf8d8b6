"""The Poker fast path (issue 13): a round dealt and bet by the kernel equals the round
``table.Hand`` plays on the same deck, stacks and button, in every Poker game; a session
played through the fast path equals today's, hand by hand and in its summary.

The kernel plays All-ins (§ 553.8(b)(4)) as ``BettingRound`` does, and deals the Stud
common card (§ 553.10(h)) and the draw's reshuffle of the discard pile (§ 553.13(g)(2)) with
the session's random stream, leaving it where ``Hand`` leaves it. A round it hands back is
played by ``table.Hand``, and the session is unchanged.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.poker_dealer import DealtHand, deal_and_bet
from tests.poker_oracle.session import ReferenceSession
from tests.poker_oracle.strategy import TableStrategy
from tests.poker_oracle.table import Hand, OracleStream
from validator.compiler import Game, all_games, load_game
from validator.interpreter.chunks import chunk_rng
from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS
from validator.interpreter.poker.fast.program import compile_program
from validator.interpreter.poker.fast.stream import Stream
from validator.interpreter.poker.session import HandRecord, PlayedHand, Session, summary
from validator.interpreter.poker.showdown import show
from validator.interpreter.poker.table import (
    Rules,
    TableSetup,
    default_setup,
    strategies,
)
from validator.interpreter.settings import read_settings
from validator.rankings.packed import pack_key

ROOT = Path(__file__).resolve().parent.parent
POKER = sorted(g.id for g in all_games() if g.definition.kind == "nonbanking" and g.definition.deal)
OMAHA = ("poker-omaha", "poker-omaha-hi-lo-8")
SUBMISSIONS = sorted(p for p in (ROOT / "rulesubs" / "example").glob("*.yaml") if p.stem in POKER)


def test_every_poker_game_is_covered() -> None:
    assert len(POKER) == 12


@cache
def _setups_of(game_id: str) -> tuple[TableSetup, ...]:
    game = load_game(game_id)
    out = [default_setup(game)]
    out += [read_settings(game, p) for p in SUBMISSIONS if p.stem == game.id]
    return tuple(out)


def _setups(game: Game) -> tuple[TableSetup, ...]:
    """The documented defaults and each example Rules Submission of the game."""
    return _setups_of(game.id)


def dealt_from_played(hand: Hand, played: PlayedHand, seats: int) -> DealtHand:
    """A scalar round as the kernel reports it: keys of the showdown hands by ``pack_key``
    of the scalar ``HandValue.key`` (a low that does not qualify: 0)."""
    game = hand.game
    contributed = np.zeros(seats, dtype=np.int64)
    folded = np.ones(seats, dtype=np.bool_)
    cards = np.zeros((seats, MAX_CARDS), dtype=np.int64)
    ncards = np.zeros(seats, dtype=np.int64)
    high = np.zeros(seats, dtype=np.int64)
    low = np.zeros(seats, dtype=np.int64)
    board = np.zeros(MAX_BOARD, dtype=np.int64)
    board[: len(played.board)] = played.board
    in_hand = [p for p in played.players if not p.folded]
    for p in played.players:
        i = p.seat - 1
        contributed[i] = p.contributed
        folded[i] = p.folded
        own = p.card_list()
        cards[i, : len(own)] = own
        ncards[i] = len(own)
        if len(in_hand) >= 2 and not p.folded:
            shown = show(game, p.seat, own, played.board)
            high[i] = pack_key(shown.high.key) if shown.high else 0
            low[i] = pack_key(shown.low.key) if shown.low and shown.low_qualifies else 0
    aggressor = hand.final_wager  # the round of play's last bet or raise
    return DealtHand(
        hand.button,
        contributed,
        folded,
        cards,
        ncards,
        board,
        len(played.board),
        high,
        low,
        list(played.round_put),
        -1 if aggressor is None else aggressor,
    )


def assert_same(fast: DealtHand, scalar: DealtHand) -> None:
    for name in DealtHand.__slots__:
        a, b = getattr(fast, name), getattr(scalar, name)
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b), (name, a, b)
        else:
            assert a == b, (name, a, b)


def _names(game: Game, seats: int) -> dict[int, str]:
    mixed = strategies(game).seats_alternate
    return {s: mixed[(s - 1) % len(mixed)] for s in range(1, seats + 1)}


@st.composite
def tables(
    draw: st.DrawFn, games: Sequence[str] = tuple(POKER)
) -> tuple[str, int, int, dict[int, int], int, int]:
    """(game, setup index, seats, stacks, button, the deck's shuffle seed)."""
    game_id = draw(st.sampled_from(games))
    game = load_game(game_id)
    index = draw(st.integers(0, len(_setups(game)) - 1))
    setup = _setups(game)[index]
    seats = draw(st.integers(2, setup.positions))
    need = setup.stakes.required()
    most = (setup.stakes.upper or setup.stakes.lower).max_bet
    # stacks from short of a round's requirement (sitting out) to a full buy-in, or (short
    # tables) to a few bets more than it: All-ins in most rounds
    top = need + most * draw(st.sampled_from((1, 3, 6))) if draw(st.booleans()) else 50 * most
    chip = setup.stakes.chip
    stacks = {
        s: draw(st.integers(max(need // chip - 2, 0), top // chip)) * chip
        for s in range(1, seats + 1)
    }
    button = draw(st.integers(1, seats))
    return game_id, index, seats, stacks, button, draw(st.integers(0, 2**32))


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tables())
def test_a_round_the_kernel_takes_equals_the_scalar_round(
    table: tuple[str, int, int, dict[int, int], int, int],
) -> None:
    """Each round the kernel deals and bets is ``Hand.play``'s on the same deck, stacks and
    button: the cards (§ 553.13's draw included), every seat's chips in, who folded, the
    chips of each betting round, the last aggressor (§ 553.16(d)) and the showdown keys; the
    common card (§ 553.10(h)) and the reshuffled discards (§ 553.13(g)(2)) drawn from the
    same generator, left in the same state (untouched where the round is handed back)."""
    _check_round(table)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tables(OMAHA))
def test_an_omaha_round_the_kernel_takes_equals_the_scalar_round(
    table: tuple[str, int, int, dict[int, int], int, int],
) -> None:
    """§ 553.12(j): exactly two of the player's four cards and three of the board, read for
    the tiers once a street (the board's choices once for every seat) and kept for the
    showdown: every decision and showdown key as ``Hand.play``'s, high and eight-or-better
    low."""
    _check_round(table)


def _check_round(table: tuple[str, int, int, dict[int, int], int, int]) -> None:
    game_id, index, seats, stacks, button, seed = table
    game = load_game(game_id)
    setup = _setups(game)[index]
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    names = _names(game, seats)
    fast = compile_program(game, setup, names)
    if fast.reason is not None:
        return
    stack_array = np.array([stacks[s] for s in range(1, seats + 1)], dtype=np.int64)
    fast_rng, scalar_rng = Stream(chunk_rng(seed + 1)), OracleStream(chunk_rng(seed + 1))
    if sum(st >= setup.stakes.required() for st in stacks.values()) < 2:  # as ``Hand.play``
        with pytest.raises(ValueError, match=r"^a round of play needs two players with enough"):
            deal_and_bet(fast, np.array(deck, dtype=np.int64), stack_array, button, fast_rng)
        return
    dealt = deal_and_bet(fast, np.array(deck, dtype=np.int64), stack_array, button, fast_rng)
    strategy = TableStrategy(game, names)
    rules = setup.rules
    hand = Hand(
        game,
        dict(stacks),
        setup.stakes,
        deck,
        strategy,
        button=button,
        rules=Rules(rake=rules.rake, bad_beat=rules.bad_beat, kill=rules.kill),
        rng=scalar_rng,
        narrated=False,
    )
    strategy.board = hand.board
    played = hand.play()
    # every round two players are dealt into and ``Hand`` plays is the kernel's: All-ins,
    # the common card and the draw's reshuffle included
    assert dealt is not None
    assert_same(dealt, dealt_from_played(hand, played, seats))
    assert fast_rng.read == scalar_rng.read
    for p in played.players:  # All-in (§ 553.8(b)(4)): the whole stack put in
        assert p.all_in == (stacks[p.seat] - int(dealt.contributed[p.seat - 1]) == 0)


def _session_pair(game: Game, setup: TableSetup, seats: int, seed: int) -> tuple[Session, Session]:
    fast = Session(game, setup, seats, seed, narrated=False)
    scalar = ReferenceSession(game, setup, seats, seed, narrated=False)
    return fast, scalar


CASES = [
    (gid, i, seats)
    for gid in POKER
    for i in range(len(_setups(load_game(gid))))
    for seats in (2, _setups(load_game(gid))[i].positions)
]


def _books(record: HandRecord) -> dict[str, object]:
    """What a round leaves the books (a round the fast path settles keeps no log)."""
    return {
        k: getattr(record, k)
        for k in (
            "number",
            "button",
            "deck",
            "fund_before",
            "fund_after",
            "bad_beat_paid",
            "buy_ins",
            "kill_multiplier",
            "time_charges",
            "time_buy_ins",
            "deck_in_play",
            "rake",
            "bad_beat_contribution",
            "showdown",
            "bad_beat_hit",
        )
    }


@pytest.mark.slow  # whole sessions on both paths, every game
@pytest.mark.parametrize(("game_id", "setup_index", "seats"), CASES)
def test_a_session_on_the_fast_path_equals_todays(
    game_id: str, setup_index: int, seats: int
) -> None:
    """Whole sessions, fast vs scalar, same seed: every hand's record, the totals, the
    stacks, the Bad Beat fund and the summary JSON, byte for byte (the button moves
    § 553.11(c)(3), the time charges § 553.15(b)(3), the rake § 553.15 as today). The fast
    session plays a block of rounds at a time: its stacks are compared where a block ends."""
    game = load_game(game_id)
    setup = _setups(game)[setup_index]
    fast, scalar = _session_pair(game, setup, seats, 20261123 + seats)
    for a, b in zip(fast.hands(150), scalar.hands(150), strict=True):
        assert _books(a) == _books(b), a.number
    assert fast.totals == scalar.totals
    assert fast.stacks == scalar.stacks
    assert fast.fund == scalar.fund
    assert json.dumps(summary(fast)) == json.dumps(summary(scalar))


RESHUFFLING = [
    gid
    for gid in POKER
    if load_game(gid).definition.deal.common_card  # type: ignore[union-attr]
    or any(s.draw for s in load_game(gid).definition.deal.streets.values())  # type: ignore[union-attr]
]


class FullTable:
    """A game's full table at the defaults, every seat bought in; each round's deck and then
    its reshuffles read from one random stream, as a session reads them."""

    def __init__(self, game_id: str) -> None:
        self.game = load_game(game_id)
        self.setup = default_setup(self.game)
        self.seats = self.setup.positions
        self.names = _names(self.game, self.seats)
        self.fast = compile_program(self.game, self.setup, self.names)
        assert self.fast.reason is None
        buy_in = 50 * (self.setup.stakes.upper or self.setup.stakes.lower).max_bet
        self.stacks = {s: buy_in for s in self.names}

    def round(self, seed: int) -> tuple[DealtHand | None, PlayedHand, bool, bool, bool]:
        """(the kernel's round, ``Hand.play``'s, whether ``Hand`` read from the stream,
        whether the streams are left equal, whether the kernel's is untouched)."""
        fast_rng, scalar_rng = OracleStream(chunk_rng(seed)), OracleStream(chunk_rng(seed))
        deck = fast_rng.deck()
        assert scalar_rng.deck() == deck  # advanced as fast_rng is
        before = scalar_rng.read
        stacks = np.array(list(self.stacks.values()), dtype=np.int64)
        dealt = deal_and_bet(self.fast, np.array(deck, dtype=np.int64), stacks, 1, fast_rng)
        strategy = TableStrategy(self.game, self.names)
        hand = Hand(
            self.game,
            dict(self.stacks),
            self.setup.stakes,
            deck,
            strategy,
            button=1,
            rules=self.setup.rules,
            rng=scalar_rng,
            narrated=False,
        )
        strategy.board = hand.board
        played = hand.play()
        if dealt is not None:
            assert_same(dealt, dealt_from_played(hand, played, self.seats))
        drew = scalar_rng.read != before
        after = fast_rng.read
        return dealt, played, drew, after == scalar_rng.read, after == before


@pytest.mark.slow  # whole sessions on both paths
@pytest.mark.parametrize("game_id", RESHUFFLING)
def test_the_common_card_and_the_reshuffled_discards_are_dealt_by_the_kernel(
    game_id: str,
) -> None:
    """The rounds where ``Hand`` deals the Stud common card (§ 553.10(h)) or reshuffles
    the discard pile for the draw (§ 553.13(g)(2)) are taken by the kernel, dealt and bet
    as ``Hand`` deals and bets them, and leave the stream at the same word; a round
    handed back (an All-in) leaves it untouched."""
    table = FullTable(game_id)
    reshuffled = taken = 0
    for seed in range(60):
        dealt, played, drew, same, untouched = table.round(seed)
        if dealt is None:
            assert any(p.all_in for p in played.players)
            assert untouched  # still where the deck's shuffle left it
            continue
        taken += 1
        assert same
        common = table.game.definition.deal.common_card is not None and bool(played.board)  # type: ignore[union-attr]
        reshuffled += common or drew
    assert taken >= 50
    assert reshuffled > 0


def test_the_burn_cards_shuffled_for_the_common_card_in_the_kernel() -> None:
    """§ 553.10(h): when the stock is down to ``shuffle_burns_when_left`` card(s) and the
    common card is due, the burn cards are shuffled with it (``Hand.common_card``); the
    kernel shuffles the same pile from the same stream: the same board card, the stream at
    the same word after."""
    table = FullTable("poker-seven-card-stud")
    found = 0
    for seed in range(600):
        dealt, played, drew, same, _ = table.round(seed)
        if dealt is not None and drew:
            assert same and len(played.board) == 1
            found += 1
            if found == 3:
                break
    assert found == 3


_PLAIN_OMAHA = """
import json, random, sys
import numpy as np
from validator.compiler import load_game
from tests.poker_dealer import deal_and_bet
from validator.interpreter.poker.fast.program import compile_program
from validator.interpreter.poker.table import default_setup
from validator.interpreter.poker.table import strategies
out = []
for game_id in ("poker-omaha", "poker-omaha-hi-lo-8"):
    game = load_game(game_id)
    setup = default_setup(game)
    seats = setup.positions
    mixed = strategies(game).seats_alternate
    names = {s: mixed[(s - 1) % len(mixed)] for s in range(1, seats + 1)}
    table = compile_program(game, setup, names)
    rng = random.Random(int(sys.argv[1]))
    need = setup.stakes.required()
    for _ in range(12):
        deck = list(range(52))
        rng.shuffle(deck)
        stacks = [need + rng.randrange(0, 40 * setup.stakes.chip + 1, setup.stakes.chip)
                  for _ in range(seats)]
        dealt = deal_and_bet(table, np.array(deck), np.array(stacks), rng.randint(1, seats))
        out.append(None if dealt is None else [
            dealt.contributed.tolist(), dealt.folded.tolist(), dealt.high.tolist(),
            dealt.low.tolist(), dealt.round_put])
print(json.dumps(out))
"""


@pytest.mark.slow  # the kernel interpreted, not compiled
def test_the_omaha_kernel_runs_as_plain_python() -> None:
    """``NUMBA_DISABLE_JIT=1`` (how a failing kernel is debugged): Omaha's rounds read by
    rank sums, the board's choices kept a street and the keys kept for the showdown, give
    the compiled kernel's chips, folds and showdown keys (§ 553.12(j))."""
    runs = []
    for disabled in (True, False):
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
        if disabled:
            env["NUMBA_DISABLE_JIT"] = "1"
        done = subprocess.run(
            [sys.executable, "-c", _PLAIN_OMAHA, "13"],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert sum(r is not None and any(r[2]) for r in runs[0]) >= 6  # showdowns among them
