"""The Kill on the fast path (§ 553.1, Kill option, Half-kill option, Qualifying pot;
§ 553.12(m)): the settlement kernel says whether the Kill is in effect next round as
``kill.after_round`` does, and the dealing kernel bets a round under the Kill at the
multiplied limits (``Limit.times``) as ``table.Hand`` does; a session with a Kill is played
in blocks and equals the same session played by ``table.Hand``."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_fast_settle import _assert_log, _contributions, _deal, _dealt, _scalar

from tests.poker_dealer import settle
from tests.poker_oracle.session import ReferenceSession
from validator.compiler import Game, all_games, load_game
from validator.interpreter.poker.fast.operations import new_log
from validator.interpreter.poker.fast.settle import FastSettler
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.session import Session, summary
from validator.interpreter.poker.table import Limit, Rules, Stakes, TableSetup, default_setup

#: the games whose file offers a Kill (read from the game files)
KILL_GAMES = sorted(
    g.id
    for g in all_games()
    if g.definition.kind == "nonbanking"
    and g.definition.betting is not None
    and g.definition.betting.kill is not None
)


def _options(game_id: str) -> list[tuple[str, Fraction]]:
    kill = load_game(game_id).definition.betting.kill  # type: ignore[union-attr]
    return sorted((k, Fraction(v)) for k, v in kill.options.items())  # type: ignore[union-attr]


def test_a_game_offers_the_kill() -> None:
    assert KILL_GAMES


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    game_id=st.sampled_from(KILL_GAMES),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 8),
    option=st.integers(0, 1),
    qualifying=st.sampled_from([0, 1000, 6000, 20000]),
    in_effect=st.booleans(),
)
def test_the_kill_next_round_is_after_rounds_553_12_m(
    game_id: str, seed: int, players: int, option: int, qualifying: int, in_effect: bool
) -> None:
    """§ 553.12(m): one player winning an entire pot of at least the qualifying pot puts the
    Kill in effect; it stays until a pot is split between a high and a different low hand,
    or is less than the qualifying pot: the kernel's answer is ``kill.after_round``'s, with
    side pots, ties and pots no low qualifies for."""
    game = load_game(game_id)
    name, multiplier = _options(game_id)[option % len(_options(game_id))]
    kill = KillRule(name, multiplier, qualifying, in_effect)
    rules = Rules(kill=kill)
    rng = random.Random(seed)
    cards, board = _deal(game, players, rng)
    put, folded, all_in, round_put = _contributions(players, rng, 100)
    dealt = _dealt(game, cards, board, put, folded, round_put)
    settler = FastSettler(game, rules, Stakes(Limit(200, 400)), range(1, players + 1))
    assert settler.reason is None
    log, at = new_log(True), np.zeros(1, dtype=np.int64)
    try:
        fast = settle(settler, dealt, 0, in_effect, log, at)
    except ValueError as e:  # contributions no round produces, a pot no hand wins
        with pytest.raises(ValueError, match=re.escape(str(e))):
            _scalar(game, rules, 100, cards, board, put, folded, round_put, all_in)
        return
    s = _scalar(game, rules, 100, cards, board, put, folded, round_put, all_in)
    assert s.kill is not None
    event(f"in effect {in_effect} -> next {s.kill.in_effect_next}")
    assert fast.kill_next == s.kill.in_effect_next, s.kill.reason
    _assert_log(log, int(at[0]), s, settler)
    assert [int(a) for a in fast.awards] == [s.seat(i + 1).award for i in range(players)]


def _kill_table(game_id: str, option: str, qualifying: int) -> tuple[Game, TableSetup]:
    game = load_game(game_id)
    setup = default_setup(game)
    multiplier = dict(_options(game_id))[option]
    kill = KillRule(option, multiplier, qualifying)
    return game, replace(setup, rules=replace(setup.rules, kill=kill))


@pytest.mark.parametrize("game_id", KILL_GAMES)
@pytest.mark.parametrize(("option", "qualifying"), [("kill", 1000), ("half_kill", 3000)])
def test_a_session_with_a_kill_equals_table_hand(
    game_id: str, option: str, qualifying: int
) -> None:
    """§ 553.12(m): rounds at the Kill's limits (twice, or one and a half times, the posted
    limits, in whole chips) as often as the pots put it in effect: the session played in
    blocks gives every record (its ``kill_multiplier`` included), the books and the summary
    of the session played by ``table.Hand``."""
    game, setup = _kill_table(game_id, option, qualifying)
    seats = 4
    blocks = Session(game, setup, seats, 5, narrated=False)
    scalar = ReferenceSession(game, setup, seats, 5, narrated=False)
    killed = 0
    for a, b in zip(blocks.hands(150), scalar.hands(150), strict=True):
        assert (a.number, a.kill_multiplier, a.rake, a.buy_ins, a.deck) == (
            b.number,
            b.kill_multiplier,
            b.rake,
            b.buy_ins,
            b.deck,
        )
        killed += a.kill_multiplier != 1
    assert 0 < killed < 150  # the Kill went on and off
    assert blocks.totals == scalar.totals
    assert blocks.stacks == scalar.stacks
    assert blocks.kill == scalar.kill
    assert json.dumps(summary(blocks)) == json.dumps(summary(scalar))
