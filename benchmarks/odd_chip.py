"""A tie whose excess goes by card and suit (§ 553.10(i)(2)(ii), (iii)) settled on the Poker
fast path: ``FastSettler.settle`` (two kernel calls and the tied seats shown and ordered by
``Splitter.odd_chip_order``) against the same settler on rounds with no such tie, and
against ``settle_round`` on the tied rounds (what the fast path handed them back to before),
in the same script, on the same rounds.

Then the order itself, on the same tied rounds' tied seats: the kernel
(``FastSettler.odd_chip_priority``: ``odd_chip.odd_chip_order``; and the kernel called from
a kernel over the rounds, as a block of rounds calls it) against the Python route
it replaces (``FastSettler.shown_priority``: ``showdown.show`` of each tied seat and
``Splitter.odd_chip_order``), both giving the same places. The Python route is timed twice:
with the evaluators' memos of card sets as the repetitions leave them ("memo", each round's
hands valued before), and with them emptied before each repetition ("fresh", as a session's
new rounds meet them; the rank-pattern tables stay warm).

Rounds are dealt to tie (players holding the same ranks in other suits, as the tests deal
them); a round counts as tied where the scalar settlement gives an excess by card and suit.
Both settlements must award the same. Measured with ``time.process_time``, one process; the
kernels are compiled (or loaded from numba's cache) before the clock starts.

With ``--session-hands N``, whole kernel sessions too (``sessions``): hands per CPU second
with the order in the kernel against the same session ordering by the Python route.

    python benchmarks/odd_chip.py [--rounds 200] [--games poker-holdem,...] [--session-hands N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from numba import njit

from benchmarks.poker import compile_time, rate
from tests.test_fast_settle import (
    _contributions,
    _deal_ties,
    _dealt,
    _odd_chip_by_suit,
    _scalar,
)
from validator.compiler import Game, load_game
from validator.interpreter.poker.fast import DealtHand, Flags, Ints
from validator.interpreter.poker.fast.odd_chip import odd_chip_order
from validator.interpreter.poker.fast.settle import FastSettler, _settle
from validator.interpreter.poker.showdown import ShownHand, show
from validator.interpreter.poker.table import Limit, Rules, Stakes
from validator.rankings.packed import Tables, best_pick_using, packed

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
    seats = [(d, _tied_seats(settler, d)) for d, _ in tied]
    for d, t in seats:
        kernel, python = settler.odd_chip_priority(d, t), settler.shown_priority(d, t)
        assert kernel.tolist() == python.tolist() == previous_priority(settler, d, t).tolist()
    us_kernel = _per_round(lambda: [settler.odd_chip_priority(d, t) for d, t in seats], count)
    stacked = (
        np.stack([d.cards for d, _ in seats]),
        np.stack([d.ncards for d, _ in seats]),
        np.stack([d.board for d, _ in seats]),
        np.array([d.nboard for d, _ in seats], dtype=np.int64),
        np.stack([t for _, t in seats]),
    )
    priority = np.empty((2, PLAYERS), dtype=np.int64)
    assert _in_a_kernel(*stacked, *settler.order_arrays, priority) == len(seats)
    us_loop = _per_round(lambda: _in_a_kernel(*stacked, *settler.order_arrays, priority), count)
    us_memo = _per_round(lambda: [settler.shown_priority(d, t) for d, t in seats], count)
    previous = lambda: _fresh(game, lambda: [previous_priority(settler, *a) for a in seats])  # noqa: E731
    us_previous = _per_round(previous, count)
    us_fresh = _per_round(
        lambda: _fresh(game, lambda: [settler.shown_priority(*a) for a in seats]), count
    )
    return (
        f"{game_id:22} tie by suit {us_tied:8.1f} us/round, no such tie {us_plain:6.1f} us "
        f"({us_tied / us_plain:5.1f}x); settle_round on the ties {us_scalar:8.1f} us "
        f"({us_scalar / us_tied:4.1f}x the fast settlement's)\n"
        f"{'':22} the order: kernel {us_kernel:6.1f} us/round ({us_loop:5.1f} us called "
        f"from a kernel); Python route "
        f"{us_memo:7.1f} us memo ({us_memo / us_kernel:5.1f}x), "
        f"{us_fresh:7.1f} us fresh ({us_fresh / us_kernel:5.1f}x); the route it replaced "
        f"{us_previous:7.1f} us fresh ({us_previous / us_kernel:5.1f}x)"
    )


@njit
def _in_a_kernel(
    cards: Ints,
    ncards: Ints,
    board: Ints,
    nboard: Ints,
    tied: Flags,
    keys: Ints,
    spec: Ints,
    high_tables: Tables,
    low_tables: Tables,
    priority: Ints,
) -> int:
    """``odd_chip_order`` of every round ([round, ...] arrays) called from a kernel, as a
    block of rounds calls it: how many rounds it ordered."""
    ordered = 0
    for r in range(cards.shape[0]):
        ordered += odd_chip_order(
            cards[r],
            ncards[r],
            board[r],
            nboard[r],
            tied[r],
            keys,
            spec,
            high_tables,
            low_tables,
            priority,
        )
    return ordered


def previous_priority(settler: FastSettler, dealt: DealtHand, tied: Flags) -> Ints:
    """The route the kernel replaced, as ``FastSettler`` had it: each tied seat's hand
    shown (a hand of set parts, Omaha's, by ``packed.best_pick_using`` and
    ``Evaluator.best`` of the cards it picks; any other by ``showdown.show``) and ordered
    by ``Splitter.odd_chip_order`` (``FastSettler.shown_priority``)."""
    return settler.shown_priority(
        dealt, tied, lambda i, own, board, part: _previous_shown(settler, i, own, board, part)
    )


def _previous_shown(
    settler: FastSettler, seat: int, own: list[int], board: list[int], part: str
) -> ShownHand:
    game = settler.game
    sd = game.definition.showdown
    assert sd is not None
    hand_id = sd.high if part == "high" else sd.low
    use = game.hand(hand_id).use if hand_id else None
    if hand_id is None or use is None or len(use) != 2:
        return show(game, seat, own, board)
    ev = game.evaluator(hand_id)
    tables = packed(ev).tables
    groups = {"player": own, "board": board}
    (g1, k1), (g2, k2) = use.items()
    first, second = groups.get(g1, []), groups.get(g2, [])
    mask = best_pick_using(
        tables,
        np.array(first or [0], dtype=np.int64),
        len(first),
        k1,
        np.array(second or [0], dtype=np.int64),
        len(second),
        k2,
    )
    chosen = [c for i, c in enumerate(first) if mask >> i & 1]
    chosen += [c for j, c in enumerate(second) if mask >> (16 + j) & 1]
    value = ev.best(chosen)
    if part == "high":
        return ShownHand(seat, tuple(own), value, None, False)
    return ShownHand(seat, tuple(own), None, value, True)


def _tied_seats(settler: FastSettler, dealt: DealtHand) -> np.ndarray:
    """The seats the first kernel call marks tied ([part, seat]) in a round with a tie."""
    n = len(settler.seats)
    tied = np.zeros((2, n), dtype=np.bool_)
    out = np.empty(n + 4, dtype=np.int64)
    round_put = np.array(dealt.round_put, dtype=np.int64)
    unordered = np.full((2, n), -1, dtype=np.int64)
    args = (dealt.contributed, dealt.folded, dealt.high, dealt.low, round_put)
    _settle(*args, settler.levels, settler.params, unordered, tied, out)
    return tied


def _fresh(game: Game, work: Callable[[], object]) -> object:
    """``work`` with the game's evaluators' memos of card sets emptied first."""
    sd = game.definition.showdown
    assert sd is not None
    for hand_id in (sd.high, sd.low):
        if hand_id is not None:
            ev = game.evaluator(hand_id)
            ev._best.clear()
            ev._best_using.clear()
    return work()


def sessions(game_id: str, hands: int, repeats: int = 2) -> str:
    """A kernel session's hands per CPU second (``benchmarks/poker.py``'s ``rate``, 100
    hands warm, its memos and tables emptied first) with the order by card and suit in the
    kernel against the same session ordering by the Python route, interleaved; both must
    leave the same books."""
    kernel_route = FastSettler.odd_chip_priority
    compile_time(game_id)
    routes = {
        "python": FastSettler.shown_priority,
        "previous": previous_priority,
        "kernel": kernel_route,
    }
    rates: dict[str, list[float]] = {route: [] for route in routes}
    books = set()
    try:
        for _ in range(repeats):
            for route, priority in routes.items():
                FastSettler.odd_chip_priority = priority  # type: ignore[method-assign]
                per_second, result, _ = rate(game_id, hands, 100, 1, False, kernel=True)
                rates[route].append(per_second)
                books.add(result)
    finally:
        FastSettler.odd_chip_priority = kernel_route  # type: ignore[method-assign]
    assert len(books) == 1, f"{game_id}: the order's route changed a session's books"
    kernel, python, before = (max(rates[r]) for r in ("kernel", "python", "previous"))
    return (
        f"{game_id:22} session: {kernel:,.0f} hands/s, the order in the kernel; {python:,.0f} "
        f"hands/s by the Python route (x{kernel / python:.2f}), {before:,.0f} by the route "
        f"it replaced (x{kernel / before:.2f}); best of {repeats} each"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--session-hands", type=int, default=0, help="also time sessions")
    args = ap.parse_args()
    for game_id in args.games.split(","):
        print(measure(game_id, args.rounds))
        if args.session_hands:
            print(sessions(game_id, args.session_hands))


if __name__ == "__main__":
    main()
