"""Packed hand keys from the ranking tables against the scalar evaluator, on the same hands.

For each case (Hold'em and Stud's seven cards under the five-card ranking, Razz's seven under
the ace-to-five low, Omaha's two of four and three of five, § 553.12(j)) the same random hands
are valued three ways:

- ``scalar``: ``Evaluator.best`` (``best_using`` for Omaha), one call per hand, its rank
  pattern tables warmed on other hands first (as in a long session);
- ``njit, a kernel's loop``: ``best_key`` (``best_key_using``) called from a compiled loop
  over an ``(n, 9)`` card array, as the Poker kernels call it;
- ``njit, from Python``: one call per hand from Python (what a caller outside a kernel pays).

Prints keys per second of each and the ratio of the kernel's loop to the scalar evaluator,
and checks that the keys agree on every hand. The tables' build (without the user cache) and
the kernels' compilation are timed apart.

    python benchmarks/packed.py [--hands 20000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from numba import njit

from validator.model.ranking import Ranking
from validator.model.registry import load_rankings
from validator.rankings.evaluator import Evaluator
from validator.rankings.packed import Tables, best_key, best_key_using, build, pack_key

Ints = npt.NDArray[np.int64]
T = TypeVar("T")


@njit(cache=True)
def keys_of(tables: Tables, hands: Ints, n: int) -> Ints:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        out[h] = best_key(tables, hands[h], n)
    return out


@njit(cache=True)
def omaha_keys_of(tables: Tables, hands: Ints) -> Ints:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        out[h] = best_key_using(tables, hands[h, :4], 4, hands[h, 4:], 5, 2, 3)
    return out


def timed(run: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    n = args.hands
    rng = np.random.default_rng(args.seed)
    deal = np.argsort(rng.random((2 * n, 52)), axis=1)[:, :9].astype(np.int64)
    warm, hands = deal[:n], deal[n:]
    rankings = load_rankings()

    cases = [
        ("seven cards, five-card ranking", "five-card", False),
        ("seven cards, ace-to-five low", "low-ace-to-five", False),
        ("Omaha 2 of 4 + 3 of 5, five-card", "five-card", True),
    ]
    print(f"{n} hands a case; keys per second")
    for title, ranking_id, omaha in cases:
        run_case(title, rankings[ranking_id], omaha, warm, hands)


def run_case(title: str, ranking: Ranking, omaha: bool, warm: Ints, hands: Ints) -> None:
    n = len(hands)
    built, pr = timed(lambda: build(ranking))
    tables = pr.tables
    ev = Evaluator(ranking)
    if omaha:
        compiled, _ = timed(lambda: omaha_keys_of(tables, hands[:2]))

        def scalar(rows: Ints) -> list[int]:
            return [pack_key(ev.best_using([(h[:4], 2), (h[4:], 3)]).key) for h in rows.tolist()]

        def kernel() -> Ints:
            return omaha_keys_of(tables, hands)

        def per_call() -> list[int]:
            return [best_key_using(tables, h[:4], 4, h[4:], 5, 2, 3) for h in hands]
    else:
        compiled, _ = timed(lambda: keys_of(tables, hands[:2], 7))

        def scalar(rows: Ints) -> list[int]:
            return [pack_key(ev.best(h[:7]).key) for h in rows.tolist()]

        def kernel() -> Ints:
            return keys_of(tables, hands, 7)

        def per_call() -> list[int]:
            return [best_key(tables, h, 7) for h in hands]

    scalar(warm)  # the rank patterns met, as in a session; these hands are not memoized
    t_scalar, expect = timed(lambda: scalar(hands))
    t_kernel = min(timed(kernel)[0] for _ in range(5))
    t_call, got_call = timed(per_call)
    assert [int(k) for k in kernel()] == expect, f"{title}: packed keys differ from the scalar"
    assert [int(k) for k in got_call] == expect
    print(f"\n{title}  (tables built in {built:.2f} s, compiled in {compiled:.2f} s)")
    print(f"  {'scalar Evaluator':<24}{n / t_scalar:>14,.0f}")
    print(f"  {'njit, a kernel loop':<24}{n / t_kernel:>14,.0f}   x{t_scalar / t_kernel:,.0f}")
    print(f"  {'njit, from Python':<24}{n / t_call:>14,.0f}   x{t_scalar / t_call:,.1f}")


if __name__ == "__main__":
    main()
