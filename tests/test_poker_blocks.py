"""Rounds of play run a block at a time in one kernel (``fast/block.py``) equal the same
rounds run one a block and narrated (``play``'s session), which ``test_fast_poker`` holds
equal to ``table.Hand``: every record, the books, the stacks, the Bad Beat fund, the time
charges, the summary.

The tables are chosen so that the block's edges are crossed often: a time charge every
few rounds (§ 553.15(b)(3)), a Bad Beat that qualifies on a common hand (§ 553.20), two
decks alternated (§ 553.3(d)), a Half-kill
(§ 553.12(m)), and between rounds the buy-ins of § 553.8(b)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from validator.compiler import all_games, load_game
from validator.interpreter.poker.bad_beat import BadBeatRule
from validator.interpreter.poker.fast.block import NOT_CONSERVED, NOT_DEALT, NOT_SETTLED, TOO_FEW
from validator.interpreter.poker.fast.hand import DECK_OUT, ENDLESS, TAKEN
from validator.interpreter.poker.fast.operations import new_log
from validator.interpreter.poker.fast.settle import NO_WINNER, OVER_CALLED, SETTLED, Settled
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import RakeRule
from validator.interpreter.poker.session import BLOCK_ROUNDS, HandRecord, Session
from validator.interpreter.poker.table import TableSetup, default_setup
from validator.interpreter.roundfile.reading import RoundFileError

POKER = sorted(g.id for g in all_games() if g.definition.kind == "nonbanking")
HANDS = 120


def _books(record: HandRecord) -> dict[str, object]:
    keys = [k for k in HandRecord.__dataclass_fields__ if k != "played"]
    return {k: getattr(record, k) for k in keys}


def _time_rake(setup: TableSetup, basis: str, minutes: int) -> TableSetup:
    """A time charge (§ 553.15(b)(3)) of $7 an hour: a period ends every few rounds, and
    $7 is no whole number of cents a 20-minute period."""
    rake = RakeRule("time", hourly=700, every_minutes=minutes, basis=basis)  # type: ignore[arg-type]
    return replace(setup, rules=replace(setup.rules, rake=rake))


def _bad_beat(game_id: str, setup: TableSetup) -> TableSetup:
    """A Bad Beat on any two pair or better beaten (§ 553.20), 10% of each pot up to $1:
    many rounds pay it."""
    game = load_game(game_id)
    sd = game.definition.showdown
    if sd is None or sd.high is None or game.definition.bad_beat is None:
        return setup  # no Bad Beat on a low hand
    ids = game.evaluator(sd.high).ids
    floor = "two_pair" if "two_pair" in ids else ids[len(ids) // 2]
    rule = BadBeatRule(
        rate=Fraction(1, 10),
        max=100,
        fund=5_000_00,
        hand=sd.high,
        at_least=floor,
        losing_share=Fraction(1, 2),
        winning_share=Fraction(1, 4),
        table_share=Fraction(1, 4),
    )
    return replace(setup, rules=replace(setup.rules, bad_beat=rule))


def _tables(game_id: str) -> list[tuple[str, TableSetup]]:
    game = load_game(game_id)
    base = default_setup(game)
    return [
        ("defaults", base),
        ("time per player, 20 minutes", _time_rake(base, "per_player", 20)),
        ("time per table, 30 minutes", _time_rake(base, "per_table", 30)),
        ("bad beat on two pair", _bad_beat(game_id, base)),
        ("two decks alternated", replace(base, decks_alternated=True)),
        *_kill(game_id, base),
    ]


def _kill(game_id: str, setup: TableSetup) -> list[tuple[str, TableSetup]]:
    """A Half-kill over a $20 pot (§ 553.12(m)) where the game offers one: the limits go up
    and down between rounds of a block."""
    kill = load_game(game_id).definition.betting.kill  # type: ignore[union-attr]
    if kill is None or "half_kill" not in kill.options:
        return []
    rule = KillRule("half_kill", Fraction(kill.options["half_kill"]), 2000)
    return [("half-kill over $20", replace(setup, rules=replace(setup.rules, kill=rule)))]


def _pair(game_id: str, setup: TableSetup, seats: int, seed: int) -> tuple[Session, Session]:
    game = load_game(game_id)
    blocks = Session(game, setup, seats, seed, narrated=False, hands_per_hour=36)
    rounds = Session(game, setup, seats, seed, narrated=True, hands_per_hour=36)
    return blocks, rounds


@pytest.mark.slow  # whole sessions played two ways
@pytest.mark.parametrize("game_id", POKER)
def test_rounds_played_a_block_at_a_time_equal_rounds_played_one_at_a_time(game_id: str) -> None:
    """Every table of the game: the same records in the same order, the same books, stacks,
    fund and summary, byte for byte; only the narrated rounds keep their log."""
    for i, (name, setup) in enumerate(_tables(game_id)):
        seats = setup.positions if i % 2 == 0 else 3
        blocks, rounds = _pair(game_id, setup, seats, 1123 + i)
        for a, b in zip(blocks.hands(HANDS), rounds.hands(HANDS), strict=True):
            assert _books(a) == _books(b), (name, a.number)
            assert a.played is None and b.played is not None, (name, a.number)
        assert blocks.totals == rounds.totals, name
        assert blocks.stacks == rounds.stacks, name
        assert blocks.fund == rounds.fund, name
        assert blocks.button == rounds.button, name
        assert blocks.stream.read == rounds.stream.read, name
        assert json.dumps(summary_of(blocks)) == json.dumps(summary_of(rounds)), name


def summary_of(session: Session) -> dict[str, object]:
    from validator.interpreter.poker.session import summary

    return summary(session)


def test_a_time_charge_is_taken_where_its_period_ends_553_15_b_3() -> None:
    """§ 553.15(b)(3): at 36 hands an hour a 20-minute period ends with every 12th round;
    the block ends there, so each period's charge is on the record of the round that ends
    it and on no other, and every seat pays the whole $1 chips of $7 an hour accrued: $2,
    $2, $3, $2 ($2.33⅓ a period; § 553.1, Rake: the chips the dealer collects)."""
    game_id = "poker-holdem"
    setup = _time_rake(default_setup(load_game(game_id)), "per_player", 20)
    blocks, _ = _pair(game_id, setup, 6, 7)
    charged = [r for r in blocks.hands(48) if r.time_charges]
    assert [r.number for r in charged] == [12, 24, 36, 48]
    paid = [dict.fromkeys(range(1, 7), c) for c in (200, 200, 300, 200)]
    assert [r.time_charges for r in charged] == paid
    assert blocks.totals.time_charges == 6 * 900  # 80 minutes at $7 an hour: $9.33, $9 paid


def test_a_long_session_crosses_many_blocks() -> None:
    """More rounds than a block holds: the rounds after each block's end go on from where
    it left the stacks, the button and the generator."""
    game_id = "poker-holdem"
    setup = default_setup(load_game(game_id))
    blocks, rounds = _pair(game_id, setup, 6, 99)
    n = 2 * BLOCK_ROUNDS + 17
    for a, b in zip(blocks.hands(n), rounds.hands(n), strict=True):
        assert _books(a) == _books(b), a.number
    assert blocks.stacks == rounds.stacks
    assert blocks.totals == rounds.totals


@pytest.mark.parametrize("narrated", [False, True])
def test_a_round_the_kernels_hand_back_is_refused_with_its_reason_553_8_b_3(
    narrated: bool,
) -> None:
    """§ 553.8(b)(3): a player is dealt in with at least the Ante, the Blind Bet and one bet
    at the minimum; an Ante above what a player buys in for leaves no one to deal in: the
    block hands the round back and the session says why, logged or not."""
    game = load_game("poker-holdem")
    base = default_setup(game)
    setup = replace(base, stakes=replace(base.stakes, ante=1_000_000))
    session = Session(game, setup, 4, 1, narrated=narrated)
    with pytest.raises(ValueError, match=r"^a round of play needs two players with enough"):
        next(session.hands(1))


@pytest.mark.parametrize(
    ("stopped", "status", "error", "message"),
    [
        (TOO_FEW, TAKEN, ValueError, "a round of play needs two players with enough table stakes"),
        (NOT_DEALT, DECK_OUT, ValueError, "the deck ran out"),
        (NOT_DEALT, ENDLESS, RuntimeError, "a betting round that does not end"),
        (NOT_SETTLED, NO_WINNER, ValueError, "no high hand can win the side pot 2"),
        (NOT_SETTLED, OVER_CALLED, RoundFileError, "seat 3 put in more than any player still in"),
        (NOT_CONSERVED, SETTLED, RuntimeError, "hand 7: chips not conserved"),
    ],
)
def test_a_round_handed_back_is_refused_with_the_reason_the_block_kept(
    stopped: int, status: int, error: type[Exception], message: str
) -> None:
    """The block keeps why it handed a round back (who is dealt in, § 553.8(b)(3); the
    dealing kernel's status; the settlement's, with the seat or pot it names) and the
    session refuses the round with that reason (``Session._refuse`` reads the block alone),
    in the words ``settle_round`` uses for a settlement."""
    game = load_game("poker-holdem")
    session = Session(game, default_setup(game), 4, 1, narrated=False)
    stacks = np.full(4, session.buy_in, dtype=np.int64)
    played = session.block.play(session.stream, stacks, 4, False, 0, 1, new_log(False))
    settled = Settled(status, where=2)  # the pot's or the seat's index the settlement names
    back = replace(played, played=0, stopped=stopped, status=status, settled=settled)
    with pytest.raises(error, match=re.escape(message)):
        session._refuse(7, back)
