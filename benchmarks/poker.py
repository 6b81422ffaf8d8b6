"""Nonbanking Poker sessions: hands per second with hand values remembered by card set,
against the same sessions with the memo bypassed (every value computed afresh), in one run.

Each game is dealt at its full table with its documented defaults and the same seed both
ways; the two sessions must take the same rake to the cent (the memo changes no result).
Goal (issue 13): at least 10,000 hands per second.

    python benchmarks/poker.py [--hands 300] [--games poker-holdem,poker-seven-card-stud]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager

from validator.compiler import load_game
from validator.interpreter.poker.session import Session, default_setup
from validator.rankings import evaluator


@contextmanager
def memo_bypassed() -> Iterator[None]:
    """Every hand value computed afresh: the baseline."""
    saved = evaluator.Evaluator.best, evaluator.Evaluator.best_using

    def best(self: evaluator.Evaluator, cards: list[int]) -> evaluator.HandValue:
        if self.ranking.low is not None:
            return self._best_low(cards)
        return self._best_high(cards)

    def best_using(self: evaluator.Evaluator, parts: list[tuple[list[int], int]]) -> object:
        self._best_using.clear()
        return saved[1](self, parts)

    evaluator.Evaluator.best = best  # type: ignore[method-assign,assignment]
    evaluator.Evaluator.best_using = best_using  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        evaluator.Evaluator.best, evaluator.Evaluator.best_using = saved  # type: ignore[method-assign]


def rate(game_id: str, hands: int, seed: int) -> tuple[float, int]:
    game = load_game(game_id)
    sd = game.definition.showdown
    assert sd is not None
    for hand_id in (sd.high, sd.low):  # a fresh memo: no value remembered from another run
        if hand_id:
            game.evaluator(hand_id)._best.clear()
            game.evaluator(hand_id)._best_using.clear()
    setup = default_setup(game)
    session = Session(game, setup, setup.positions, seed)
    start = time.perf_counter()
    for _ in session.hands(hands):
        pass
    return hands / (time.perf_counter() - start), session.totals.rake


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default="poker-holdem,poker-seven-card-stud,poker-omaha")
    args = ap.parse_args()
    for game_id in args.games.split(","):
        with memo_bypassed():
            base, base_rake = rate(game_id, args.hands, args.seed)
        fast, fast_rake = rate(game_id, args.hands, args.seed)
        assert fast_rake == base_rake, f"{game_id}: the memo changed the rake"
        print(
            f"{game_id}: {fast:,.0f} hands/s remembered, {base:,.0f} hands/s afresh "
            f"(x{fast / base:.2f}; goal 10,000 hands/s)"
        )


if __name__ == "__main__":
    main()
