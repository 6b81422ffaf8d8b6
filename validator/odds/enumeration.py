"""Exact category counts of every k-card hand of one deck, by suit isomorphism.

A hand is its four suit masks. Relabelling the suits does not change the category a hand
holds under a ranking that never names a suit or a colour, so the hands fall into orbits of
the suit permutations and one hand per orbit is evaluated, weighted by the orbit's size:

- the orbits of all 24 permutations are the multisets of four masks; each is enumerated
  once as masks sorted by (card count, mask index), and holds ``24 / |stabiliser|`` hands,
  the stabiliser being the permutations of equal masks;
- a ranking that names a suit (``suit: diamonds``) or a colour (``same_color``) is
  invariant only under the subgroup G of permutations fixing each named suit and, with
  colours, keeping clubs/spades and diamonds/hearts together (the colours may swap).
  Each multiset is then evaluated once per left coset of G in the 24 permutations (the
  suits it could be dealt to), weighted ``|G| * 24 / |stabiliser|``; the weights add up
  to 24 times the count.

The argument: the sum of f over the distinct arrangements of a multiset T is
``1/|Stab(T)|`` times the sum over all 24 permutations π of f(T∘π); f is constant on each
left coset πG, so that sum is ``|G|`` times the sum over one π per coset. Every count is
therefore exact, and the tests hold the totals to C(52, k) and the counts to full
enumerations and to the well-known Poker figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement, permutations
from math import comb, factorial

import numpy as np
from numpy.typing import NDArray

from validator.model.ranking import Ranking
from validator.rankings.batch import NRANKS, BatchEvaluator
from validator.rankings.primitives import SUIT_INDEX

Perm = tuple[int, int, int, int]
PERMS: tuple[Perm, ...] = tuple(permutations(range(4)))  # type: ignore[arg-type]
COLOUR = (0, 1, 1, 0)  # clubs, spades black; diamonds, hearts red


@cache
def _masks_by_count() -> tuple[NDArray[np.uint16], ...]:
    """Every 13-bit rank mask, grouped by how many ranks it holds."""
    by: list[list[int]] = [[] for _ in range(NRANKS + 1)]
    for m in range(1 << NRANKS):
        by[m.bit_count()].append(m)
    return tuple(np.array(b, dtype=np.uint16) for b in by)


def _partitions(k: int) -> list[tuple[int, ...]]:
    """Card counts per suit, largest first: (p0 ≥ p1 ≥ p2 ≥ p3), each at most 13."""
    out = []

    def rec(left: int, parts: tuple[int, ...], cap: int) -> None:
        if len(parts) == 4:
            if left == 0:
                out.append(parts)
            return
        for p in range(min(cap, left, NRANKS), -1, -1):
            rec(left - p, (*parts, p), p)

    rec(k, (), NRANKS)
    return out


def _runs_factor(idx: NDArray[np.intp]) -> NDArray[np.int64]:
    """Rows of non-decreasing indices → product of the factorials of the runs of equal ones."""
    factor = np.ones(idx.shape[0], dtype=np.int64)
    run = np.ones(idx.shape[0], dtype=np.int64)
    for j in range(1, idx.shape[1]):
        run = np.where(idx[:, j] == idx[:, j - 1], run + 1, 1)
        factor *= run
    return factor


def canonical_hands(k: int) -> Iterator[tuple[list[NDArray[np.uint16]], NDArray[np.int64]]]:
    """One hand of k cards per orbit of the 24 suit permutations, in blocks: (four suit
    masks, orbit sizes). The orbit sizes add up to C(52, k)."""
    if not 0 <= k <= 52:
        raise ValueError(f"a hand of {k} cards from one deck")
    masks = _masks_by_count()
    for parts in _partitions(k):
        groups = [(p, parts.count(p)) for p in sorted(set(parts), reverse=True)]
        choices = []  # per group: (rows of mask indices, stabiliser factor)
        for p, mult in groups:
            idx = np.array(
                list(combinations_with_replacement(range(len(masks[p])), mult)), dtype=np.intp
            ).reshape(-1, mult)
            choices.append((masks[p][idx], _runs_factor(idx)))
        sizes = [c[0].shape[0] for c in choices]
        grids = np.meshgrid(*[np.arange(n) for n in sizes], indexing="ij")
        flat = [g.ravel() for g in grids]
        columns: list[NDArray[np.uint16]] = []
        stab = np.ones(flat[0].shape[0], dtype=np.int64)
        for (rows, factor), pick in zip(choices, flat, strict=True):
            columns += [rows[pick, j] for j in range(rows.shape[1])]
            stab *= factor[pick]
        yield columns, 24 // stab


def symmetry_group(ranking: Ranking) -> tuple[Perm, ...]:
    """The suit permutations under which the ranking's categories are invariant."""
    fixed = {SUIT_INDEX[c.suit] for c in ranking.categories if c.suit}
    colours = any(
        c.same_color is not None or c.same_color_straight is not None for c in ranking.categories
    )
    return tuple(
        p for p in PERMS if all(p[s] == s for s in fixed) and (not colours or _keeps_colours(p))
    )


def _keeps_colours(p: Perm) -> bool:
    """Whether a permutation keeps each colour's two suits together (it may swap colours)."""
    return COLOUR[p[0]] == COLOUR[p[3]] and COLOUR[p[1]] == COLOUR[p[2]]


def coset_representatives(group: tuple[Perm, ...]) -> list[Perm]:
    """One permutation π per left coset πG."""
    reps: list[Perm] = []
    seen: set[Perm] = set()
    for p in PERMS:
        if p in seen:
            continue
        reps.append(p)
        seen |= {tuple(p[g[j]] for j in range(4)) for g in group}  # type: ignore[misc]
    return reps


def category_counts(ranking: Ranking, k: int) -> tuple[int, ...]:
    """How many of the C(52, k) hands hold each category of the ranking as their highest
    (refinements included), in the ranking's order."""
    return _counts(ranking.model_dump_json(), k)


@cache
def _counts(ranking_json: str, k: int) -> tuple[int, ...]:
    ranking = Ranking.model_validate_json(ranking_json)
    evaluator = BatchEvaluator(ranking)
    group = symmetry_group(ranking)
    reps = coset_representatives(group)
    totals = np.zeros(len(ranking.categories), dtype=np.float64)
    for masks, orbit in canonical_hands(k):
        weight = (orbit * len(group)).astype(np.float64)
        for p in reps:
            held = evaluator.held([masks[p[s]] for s in range(4)])
            totals += np.bincount(held, weights=weight, minlength=len(totals))
    # the weights are integers and every partial sum stays below 2**53: the float sums are
    # exact; the total is 24 times the number of hands
    scaled = [int(t) for t in totals]
    if sum(scaled) != 24 * comb(52, k) or any(s % 24 for s in scaled):
        raise AssertionError("suit-orbit weights do not add up")  # pragma: no cover
    return tuple(s // 24 for s in scaled)


def full_enumeration_counts(ranking: Ranking, k: int, block: int = 1 << 20) -> tuple[int, ...]:
    """The same counts by evaluating every one of the C(52, k) hands (for checking)."""
    from itertools import combinations, islice

    from validator.rankings.batch import suit_masks

    evaluator = BatchEvaluator(ranking)
    totals = np.zeros(len(ranking.categories), dtype=np.int64)
    it = combinations(range(52), k)
    while chunk := list(islice(it, block)):
        held = evaluator.held(suit_masks(np.array(chunk, dtype=np.intp)))
        totals += np.bincount(held, minlength=len(totals))
    return tuple(int(t) for t in totals)


assert factorial(4) == len(PERMS)
