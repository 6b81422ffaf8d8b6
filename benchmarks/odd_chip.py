"""A tie whose excess goes by card and suit (§ 553.10(i)(2)(ii), (iii)) settled on the Poker
fast path: ``FastSettler.settle`` (two kernel calls and the tied seats shown and ordered by
``Splitter.odd_chip_order``) against the same settler on rounds with no such tie, and
against ``settle_round`` on the tied rounds (what the fast path handed them back to before),
in the same script, on the same rounds.

Rounds are dealt to tie (players holding the same ranks in other suits, as the tests deal
them); a round counts as tied where the scalar settlement gives an excess by card and suit.
Both settlements must award the same. Measured with ``time.process_time``, one process; the
kernels are compiled (or loaded from numba's cache) before the clock starts.

    python benchmarks/odd_chip.py [--rounds 200] [--games poker-holdem,...]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from tests.test_fast_settle import (
    _contributions,
    _deal_ties,
    _dealt,
    _odd_chip_by_suit,
    _scalar,
)
from validator.compiler import load_game
from validator.interpreter.poker.betting import Limit
from validator.interpreter.poker.fast import DealtHand
from validator.interpreter.poker.fast.settle import FastSettler
from validator.interpreter.poker.table import Rules, Stakes

GAMES = ("poker-holdem", "poker-omaha", "poker-omaha-hi-lo-8")
PLAYERS = 6
CHIP = 100


def _per_round(work: Callable[[], object], rounds: int, at_least: float = 0.3) -> float:
    """CPU microseconds per round of ``work`` (all the rounds once), repeated for at least
    ``at_least`` CPU seconds."""
    runs = 0
    start = time.process_time()
    while True:
        work()
        runs += 1
        spent = time.process_time() - start
        if spent >= at_least:
            return spent / (runs * rounds) * 1e6


def measure(game_id: str, count: int, seed: int = 13) -> str:
    game = load_game(game_id)
    rules = Rules()
    settler = FastSettler(game, rules, Stakes(Limit(200, 400), chip=CHIP), range(1, PLAYERS + 1))
    rng = random.Random(seed)
    tied: list[tuple[DealtHand, tuple]] = []  # (the dealt round, _scalar's round arguments)
    plain: list[DealtHand] = []
    while len(tied) < count or len(plain) < count:
        cards, board = _deal_ties(game, PLAYERS, rng)
        put, folded, all_in, round_put = _contributions(PLAYERS, rng, CHIP)
        dealt = _dealt(game, cards, board, put, folded, round_put)
        try:
            s = _scalar(game, rules, CHIP, cards, board, put, folded, round_put, all_in)
        except ValueError:
            continue  # contributions no round produces
        fast = settler.settle(dealt, 0)
        assert fast is not None
        assert [int(a) for a in fast.awards] == [s.seat(i + 1).award for i in range(PLAYERS)]
        if _odd_chip_by_suit(s) and len(tied) < count:
            tied.append((dealt, (cards, board, put, folded, round_put, all_in)))
        elif not _odd_chip_by_suit(s) and len(plain) < count:
            plain.append(dealt)
    us_tied = _per_round(lambda: [settler.settle(d, 0) for d, _ in tied], count)
    us_plain = _per_round(lambda: [settler.settle(d, 0) for d in plain], count)
    us_scalar = _per_round(lambda: [_scalar(game, rules, CHIP, *a) for _, a in tied], count)
    return (
        f"{game_id:22} tie by suit {us_tied:8.1f} us/round, no such tie {us_plain:6.1f} us "
        f"({us_tied / us_plain:5.1f}x); settle_round on the ties {us_scalar:8.1f} us "
        f"({us_scalar / us_tied:4.1f}x the fast settlement's)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    for game_id in args.games.split(","):
        print(measure(game_id, args.rounds))


if __name__ == "__main__":
    main()
