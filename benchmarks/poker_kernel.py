"""The Poker dealing kernel: rounds dealt and bet per CPU second, one at a time by the
tests' dealer (``tests/poker_dealer.py``), and the rounds it hands back (dealt again from
more of the random stream), per nonbanking Poker game at its full table with its documented
defaults; and the kernel alone (``hand._deal_and_bet`` called on the arguments the dealer
passes for the same rounds, prepared before the clock starts), in microseconds a round, the
least of ``--passes`` passes over them.

Each round is dealt from a shuffled deck to stacks drawn at random from what a round
requires (§ 553.8(b)(3)) to that plus ``--bets`` upper-limit bets: a few bets (``--bets 6``)
make All-ins (§ 553.8(b)(4)) common, as at a session's table where stacks run low. The
kernel's JIT compile (or load from numba's cache) happens before the clock starts. Measured
with ``time.process_time`` (the machine is shared: wall time lies), one process.

    python benchmarks/poker_kernel.py [--rounds 2000] [--bets 6] [--passes 3] [--games g,...]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from tests import poker_dealer
from tests.poker_dealer import deal_and_bet
from validator.compiler import all_games, load_game
from validator.interpreter.poker.fast import hand
from validator.interpreter.poker.fast.program import Program, compile_program
from validator.interpreter.poker.table import default_setup, strategies

Ints = npt.NDArray[np.int64]


def measure(game_id: str, rounds: int, bets: int, seed: int, passes: int) -> str:
    game = load_game(game_id)
    setup = default_setup(game)
    seats = setup.positions
    mixed = strategies(game).seats_alternate
    names = {s: mixed[(s - 1) % len(mixed)] for s in range(1, seats + 1)}
    table = compile_program(game, setup, names)
    if table.reason is not None:
        return f"{game_id}: not taken by the kernel ({table.reason})"
    stakes = setup.stakes
    need = stakes.required()
    most = (stakes.upper or stakes.lower).max_bet
    rng = random.Random(seed)
    dealt: list[tuple[Ints, Ints, int]] = []
    for _ in range(rounds):
        deck = list(range(52))
        rng.shuffle(deck)
        stacks = [need + rng.randrange(0, bets * most + 1, stakes.chip) for _ in range(seats)]
        dealt.append(
            (
                np.array(deck, dtype=np.int64),
                np.array(stacks, dtype=np.int64),
                rng.randint(1, seats),
            )
        )
    deal_and_bet(table, *dealt[0])  # the JIT, before the clock
    start = time.process_time()
    back = sum(deal_and_bet(table, *r) is None for r in dealt)
    spent = time.process_time() - start
    alone, looped = kernel_alone(table, dealt, passes)
    return (
        f"{game_id}: {rounds / spent:,.0f} rounds/s dealt and bet, {back}/{rounds} handed back"
        f" (stacks: required + 0..{bets} upper bets, {seats} seats); the kernel alone"
        f" {alone * 1e6 / rounds:.1f} us a round called from Python,"
        f" {looped * 1e6 / rounds:.1f} us in a compiled loop"
    )


#: the arguments of ``_deal_and_bet`` that are the table's (the limits, the compiled table)
TABLE_ARGS = 2


@njit
def _in_a_loop(params, kernel, deck, stream, order, stacks, out):  # type: ignore[no-untyped-def]
    """Each round's ``_deal_and_bet`` called from compiled code (as a block of rounds is
    played), the table's arguments once, the rounds' own stacked one row a round (each
    field of the ``Outcome`` too)."""
    for r in range(deck.shape[0]):
        dealt = _row(out, r)
        hand._deal_and_bet(params, kernel, deck[r], stream[r], order[r], stacks[r], dealt)


@njit
def _row(out, r):  # type: ignore[no-untyped-def]
    return hand.Outcome(
        out[0][r],
        out[1][r],
        out[2][r],
        out[3][r],
        out[4][r],
        out[5][r],
        out[6][r],
        out[7][r],
        out[8][r],
        out[9][r],
        out[10][r],
        out[11][r],
        out[12][r],
    )


def kernel_alone(
    table: Program, dealt: list[tuple[Ints, Ints, int]], passes: int
) -> tuple[float, float]:
    """CPU seconds of ``_deal_and_bet`` over these rounds, given the arguments the dealer
    passes (recorded once, each round's own copies made before the clock), called from
    Python and from a compiled loop (no dispatch: what the kernel itself spends): the least
    of ``passes`` passes each."""
    kernel = hand._deal_and_bet
    calls: list[tuple[object, ...]] = []

    def record(*args: object) -> int:
        calls.append(args)
        return hand.OUT_OF_WORDS

    poker_dealer._deal_and_bet = record  # type: ignore[assignment]
    try:
        for r in dealt:
            deal_and_bet(table, *r)
    finally:
        poker_dealer._deal_and_bet = kernel
    fixed = calls[0][:TABLE_ARGS]

    def stacked(rounds: int) -> list[Any]:
        """The rounds' own arguments, one row a round (each field of the ``Outcome``)."""
        own: list[Any] = [
            np.stack([cast(Any, c[i]) for c in calls[:rounds]]) for i in range(TABLE_ARGS, 6)
        ]
        outs: list[Any] = [c[6] for c in calls[:rounds]]
        return [
            *own,
            tuple(np.stack([o[k] for o in outs]) for k in range(len(hand.Outcome._fields))),
        ]

    _in_a_loop(*fixed, *stacked(1))  # the JIT, before the clock
    best = looped = float("inf")
    for _ in range(passes):  # the least of a few passes: the machine is shared
        fresh = [(*c[:6], hand.Outcome(*(a.copy() for a in cast(Any, c[6])))) for c in calls]
        start = time.process_time()
        for args in fresh:
            kernel(*args)
        best = min(best, time.process_time() - start)
        rows = stacked(len(calls))
        start = time.process_time()
        _in_a_loop(*fixed, *rows)
        looped = min(looped, time.process_time() - start)
    return best, looped


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--bets", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--games", default="")
    args = ap.parse_args()
    games = (
        args.games.split(",")
        if args.games
        else sorted(
            g.id for g in all_games() if g.definition.kind == "nonbanking" and g.definition.deal
        )
    )
    for game_id in games:
        print(measure(game_id, args.rounds, args.bets, args.seed, args.passes), flush=True)


if __name__ == "__main__":
    main()
