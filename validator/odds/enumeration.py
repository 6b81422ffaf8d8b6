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

Most hands need no suit at all: a category reading suits (a flush, a suited run, a colour)
needs a least number of cards in one suit or one colour, so a hand with fewer holds the
category of its rank multiset (``BatchEvaluator.suit_free_multisets``). Whether a hand may
hold a suit category depends on its suit counts only, and the orbit blocks are made by
suit counts (a partition of k, dealt to the suits by a coset representative): the blocks
that cannot are skipped, and their hands are counted instead by rank multiset, each
multiset weighted by the suit assignments of its count pattern whose suit counts cannot
(coefficients of a product of elementary symmetric polynomials in the four suits). Seven
cards: about 49,000 multisets and 240,000 orbits instead of 5.6 million orbits. A ranking
whose categories read nothing but suit counts (flushes, colours) is counted from the
vectors of suit counts alone, each weighted by the product of C(13, count).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement, permutations, product
from math import comb, factorial, prod

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
    out: list[tuple[int, ...]] = []

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
    for parts in _partitions(k):
        yield _partition_hands(parts)


def _partition_hands(
    parts: tuple[int, ...],
) -> tuple[list[NDArray[np.uint16]], NDArray[np.int64]]:
    """The orbits whose suits hold ``parts`` cards (largest first): four masks, orbit sizes."""
    masks = _masks_by_count()
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
    return columns, 24 // stab


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
    return orbit_counts(Ranking.model_validate_json(ranking_json), k)


def orbit_counts(ranking: Ranking, k: int, by_rank_multiset: bool = True) -> tuple[int, ...]:
    """``category_counts`` computed afresh: hands that cannot hold a category reading suits
    counted by rank multiset, the others by suit orbit (only by suit orbit when
    ``by_rank_multiset`` is false)."""
    evaluator = BatchEvaluator(ranking)
    if by_rank_multiset and evaluator.reads_suit_counts_only():
        return _suit_count_counts(evaluator, k)
    group = symmetry_group(ranking)
    reps = coset_representatives(group)
    n = len(ranking.categories)
    # 24 times the count of each category: the suit-orbit weights add up to 24 per hand
    totals = np.zeros(n, dtype=np.int64)
    by_ranks = evaluator.suit_free_multisets(k) if by_rank_multiset else None
    suit_read = None
    if by_ranks is not None:
        counts, held, suit_read = by_ranks
        totals += 24 * _rank_pattern_counts(counts, held, suit_read, n, ranking.id)
    for parts in _partitions(k):
        # the suits get the parts in the order of each coset representative; hands whose
        # suit counts cannot hold a category reading suits are counted by rank multiset
        live = [
            p
            for p in reps
            if suit_read is None or suit_read[sum(parts[p[s]] << (4 * s) for s in range(4))]
        ]
        if not live:
            continue
        masks, orbit = _partition_hands(parts)
        weight = (orbit * len(group)).astype(np.float64)
        for p in live:
            held_ = evaluator.held([masks[p[s]] for s in range(4)])
            # integer weights, every partial sum below 2**53: the float sums are exact
            totals += np.bincount(held_, weights=weight, minlength=n).astype(np.int64)
    scaled = [int(t) for t in totals]
    if sum(scaled) != 24 * comb(52, k) or any(s % 24 for s in scaled):
        raise AssertionError("suit-orbit weights do not add up")  # pragma: no cover
    return tuple(s // 24 for s in scaled)


def _suit_count_counts(evaluator: BatchEvaluator, k: int) -> tuple[int, ...]:
    """Counts for a ranking whose categories read only how many cards each suit (or colour)
    holds: one hand per vector of suit counts, weighted by the product of C(13, count)."""
    vectors = [a for a in product(range(min(k, NRANKS) + 1), repeat=4) if sum(a) == k]
    masks = [np.array([(1 << a[s]) - 1 for a in vectors], dtype=np.uint16) for s in range(4)]
    held = evaluator.held(masks)
    totals = [0] * len(evaluator.categories)
    for a, i in zip(vectors, held.tolist(), strict=True):
        totals[i] += prod(comb(NRANKS, x) for x in a)
    if sum(totals) != comb(52, k):
        raise AssertionError("suit-count weights do not add up")  # pragma: no cover
    return tuple(totals)


def _rank_pattern_counts(
    counts: NDArray[np.int8],
    held: NDArray[np.int8],
    suit_read: NDArray[np.bool_],
    n: int,
    ranking_id: str,
) -> NDArray[np.int64]:
    """Hands per category among those whose suit counts cannot hold a category reading
    suits: such a hand's category is its rank multiset's. A multiset is dealt in as many
    such ways as the suit assignments of its count pattern (how many ranks it holds once,
    twice, …) whose suit counts are not ``suit_read``; that number is a sum of coefficients
    of the product, over its ranks, of the elementary symmetric polynomials in the suits."""
    pattern = np.zeros(counts.shape[0], dtype=np.int64)
    for t in range(1, 5):
        pattern = pattern * (NRANKS + 1) + (counts == t).sum(axis=1)
    kinds, which = np.unique(pattern, return_inverse=True)
    ways = np.zeros(kinds.size, dtype=np.int64)
    for j, code in enumerate(kinds.tolist()):
        multiplicity = []
        for t in range(4, 0, -1):
            multiplicity += [t] * (code % (NRANKS + 1))
            code //= NRANKS + 1
        ways[j] = sum(
            w for suits, w in _suit_assignments(tuple(multiplicity)).items() if not suit_read[suits]
        )
    weight = ways[which.ravel()]
    if (held[weight > 0] < 0).any():
        raise ValueError(f"ranking {ranking_id!r} has no category for some hands")
    totals = np.zeros(n, dtype=np.int64)
    np.add.at(totals, held[weight > 0].astype(np.intp), weight[weight > 0])
    return totals


@cache
def _suit_assignments(multiplicity: tuple[int, ...]) -> dict[int, int]:
    """Ranks held ``multiplicity`` times each → ways to give them suits, by the suit counts
    they make (a nibble per suit, clubs lowest)."""
    poly = {0: 1}
    for t in multiplicity:
        nxt: dict[int, int] = {}
        for suits in combinations(range(4), t):
            step = sum(1 << (4 * s) for s in suits)
            for code, w in poly.items():
                nxt[code + step] = nxt.get(code + step, 0) + w
        poly = nxt
    return poly


def full_enumeration_counts(ranking: Ranking, k: int, block: int = 1 << 20) -> tuple[int, ...]:
    """The same counts by evaluating every one of the C(52, k) hands (for checking)."""
    from itertools import islice

    from validator.rankings.batch import suit_masks

    evaluator = BatchEvaluator(ranking)
    totals = np.zeros(len(ranking.categories), dtype=np.int64)
    it = combinations(range(52), k)
    while chunk := list(islice(it, block)):
        held = evaluator.held(suit_masks(np.array(chunk, dtype=np.intp)))
        totals += np.bincount(held, minlength=len(totals))
    return tuple(int(t) for t in totals)


assert factorial(4) == len(PERMS)
