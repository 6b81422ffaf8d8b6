"""Invariants of nonbanking Poker, checked on generated rounds:

- chips are conserved in every hand: what the players put in = what they are awarded
  (the uncalled bet returned included) + the rake + the Bad Beat contribution; and every
  player's stack after the hand is his stack before, less what he put in, plus his award;
- no pot pays a player who was not eligible for it: only players still in who put in the
  pot's level (§ 553.8(b)(4)(i));
- no card is dealt twice.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.poker_oracle.table import RandomStrategy, play_hand
from validator.compiler import load_game
from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.settle import settle_poker_round
from validator.interpreter.poker.table import Limit, Rules, Stakes

POKER = (
    "poker-seven-card-stud",
    "poker-seven-card-stud-hi-lo",
    "poker-seven-card-stud-hi-lo-8",
    "poker-holdem",
    "poker-omaha",
    "poker-omaha-hi-lo-8",
    "poker-five-card-draw",
    "poker-five-card-draw-low",
    "poker-five-card-stud",
    "house-seven-card-stud",
    "house-seven-card-stud-hi-lo-8",
    "house-razz",
)

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _pot_awards(res) -> dict[int, int]:
    """What each seat won of one pot, every part together."""
    out: dict[int, int] = {}
    for share in (s for h in res.halves for s in h.shares):
        out[share.seat] = out.get(share.seat, 0) + share.amount
    return out


def _check_pots(settlement) -> None:
    folded = {s.seat for s in settlement.seats if s.folded}
    contributed = {s.seat: s.contributed for s in settlement.seats}
    if settlement.uncalled:
        contributed[settlement.uncalled.seat] -= settlement.uncalled.amount
    for res in settlement.pots:
        pot = res.pot
        for seat in pot.eligible:
            assert seat not in folded
            assert contributed[seat] >= pot.level
        for seat in _pot_awards(res):
            assert seat in pot.eligible, (seat, pot)
        assert sum(_pot_awards(res).values()) == res.net
    assert settlement.contributions == (
        settlement.awards + settlement.rake.total + settlement.bad_beat_contribution
    )


@FAST
@given(
    game_id=st.sampled_from(POKER),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 10),
    rake=st.sampled_from([None, "percent", "levels"]),
    bad_beat=st.booleans(),
    ante=st.sampled_from([0, 100]),
    max_raises=st.sampled_from([None, 1, 3]),
)
def test_simulated_hands_conserve_chips_and_pay_only_eligible_players(
    game_id: str,
    seed: int,
    players: int,
    rake: str | None,
    bad_beat: bool,
    ante: int,
    max_raises: int | None,
) -> None:
    game = load_game(game_id)
    d = game.definition
    rng = random.Random(seed)
    players = min(players, d.table.max_positions)
    deck = list(range(52))
    rng.shuffle(deck)
    stakes = Stakes(
        Limit(200, 400),
        Limit(400, 800),
        ante=ante,
        blinds=(100, 200) if any(s.blinds for s in d.deal.streets.values()) else (),
        forced_bet=100 if d.betting.forced_bet else 0,
        max_raises=max_raises,
    )
    stacks = {s: rng.choice([300, 700, 1500, 4000, 20_000]) for s in range(1, players + 1)}
    stacks[1] = 20_000  # at least two players are dealt in
    stacks[2] = max(stacks[2], stakes.required())
    rule = {
        None: None,
        "percent": RakeRule("percentage", rate=Fraction(1, 10), cap=500),
        "levels": RakeRule("incremental", levels=((1000, 100), (2000, 100)), cap=300),
    }[rake]
    bb = (
        BadBeatRule(
            amount=100,
            max=100,
            min_pot=1000,
            fund=50_000,
            at_least="full_house",
            losing_share=Fraction(1, 2),
            winning_share=Fraction(1, 4),
            table_share=Fraction(1, 4),
        )
        if bad_beat and d.bad_beat is not None and d.showdown.high
        else None
    )
    played = play_hand(
        game,
        stacks,
        stakes,
        deck,
        RandomStrategy(rng),
        rules=Rules(rake=rule, bad_beat=bb),
        rng=rng,
    )
    s = played.settlement
    _check_pots(s)
    after = dict(played.stacks_before) | {
        p.seat: p.stack + s.seat(p.seat).award for p in played.players
    }
    taken = s.rake.total + s.bad_beat_contribution
    assert sum(stacks.values()) == sum(after.values()) + taken
    for p in played.players:
        assert after[p.seat] == stacks[p.seat] - p.contributed + s.seat(p.seat).award
        assert after[p.seat] >= 0
    for seat in played.sitting_out:
        assert after[seat] == stacks[seat]
    final = [c for p in played.players if not p.folded for c in p.card_list()] + played.board
    assert len(final) == len(set(final))
    if not any("reshuffled" in line for line in played.log):  # a folded hand may be redealt
        everything = [c for p in played.players for c in p.card_list()]
        everything += played.board + played.burns
        assert len(everything) == len(set(everything))
    if bb is not None and s.bad_beat and s.bad_beat.hit:
        assert s.bad_beat.fund_after >= 0


@st.composite
def settled_rounds(draw: st.DrawFn) -> tuple[str, dict]:
    """Round files of every shape a round can end in: All-ins at any level (ties of level
    included), folds at any point, an uncalled last bet."""
    game_id = draw(
        st.sampled_from(
            [
                "poker-holdem",
                "poker-omaha-hi-lo-8",
                "poker-seven-card-stud-hi-lo-8",
                "house-razz",
                "poker-five-card-draw-low",
                "house-seven-card-stud-hi-lo-8",
            ]
        )
    )
    game = load_game(game_id)
    d = game.definition
    dealt = d.cards.dealt
    per_player = dealt["player"].count
    board_n = dealt["board"].count if "board" in dealt else 0
    most = min(d.table.max_positions, (52 - board_n) // per_player)
    n = draw(st.integers(2, most))
    level = draw(st.integers(1, 60))
    seats = []
    for _ in range(n):
        kind = draw(st.sampled_from(["call", "all_in", "fold"]))
        if kind == "call":
            seats.append({"contributed": level})
        elif kind == "all_in":
            seats.append({"contributed": draw(st.integers(1, level)), "all_in": True})
        else:
            seats.append({"contributed": draw(st.integers(0, level)), "folded": True})
    if all(s.get("folded") for s in seats):
        seats[0] = {"contributed": level}
    # a folded player's chips were called by a player still in: no more than the most
    # a player still in put in
    top_live = max(s["contributed"] for s in seats if not s.get("folded"))
    for s in seats:
        if s.get("folded"):
            s["contributed"] = min(s["contributed"], top_live)
    live_callers = [s for s in seats if not s.get("folded") and not s.get("all_in")]
    if len(live_callers) == 1 and draw(st.booleans()):
        live_callers[0]["contributed"] = level + draw(st.integers(1, 30))  # uncalled
    deck = list(range(52))
    random.Random(draw(st.integers(0, 10**9))).shuffle(deck)
    from validator.cards import card_str

    for s in seats:
        s["cards"] = [card_str(deck.pop()) for _ in range(per_player)]
    data = {
        "game": game_id,
        "seats": seats,
        "board": [card_str(deck.pop()) for _ in range(board_n)],
        "chip": draw(st.sampled_from([1, "$0.25", 5])),
    }
    chip_cents = {1: 100, "$0.25": 25, 5: 500}[data["chip"]]
    for s in seats:  # whole chips
        cents = s["contributed"] * chip_cents
        s["contributed"] = f"${cents // 100}.{cents % 100:02d}"
    if draw(st.booleans()):
        data["rake"] = {"percent": draw(st.sampled_from(["5%", "10%"])), "cap": 3}
    return game_id, data


@settings(max_examples=300, deadline=None)
@given(settled_rounds())
def test_any_round_file_settles_conserving_chips(case: tuple[str, dict]) -> None:
    game_id, data = case
    settlement = settle_poker_round(data, load_game(game_id))
    _check_pots(settlement)
    assert settlement.to_json()["totals"]["balanced"] is True
