"""The base game, exactly, for a game whose hands rank by their longest flush.

High Card Flush (§ 678a.6(b), (c)) ranks a hand by its longest flush, then by the ranks of
that flush, highest first. Such a hand's value is its best suit's ``(cards, rank mask)``:
for two sets of equally many ranks, comparing the ranks highest first is comparing the
13-bit rank masks as integers. So a value is one integer, ``length << 13 | mask``, and a
hand's value is the largest of its four suits' values.

Counting the dealer's hands suit by suit: the dealer's hand is below a value ``t`` exactly
when each of its four suits is. The dealer's cards in one suit are any subset of the cards
the player left in that suit, so the number of dealer hands of ``m`` cards below ``t`` is
the coefficient of ``x^m`` in the product over the suits of ``Σ_n a_s(n) x^n``, where
``a_s(n)`` counts the n-subsets of the suit's remaining ranks below ``t``: all of them when
``n`` is below ``t``'s length, none above it, and at its length those whose mask is below
``t``'s mask (a combinatorial rank, ``_subsets_below``). Three such counts per player hand
(below its value, at most its value, below the dealer's qualifying value) give how often a
qualifying dealer beats, ties or loses to it; the player's hands are taken one per orbit of
the suit permutations (``validator.odds.enumeration.canonical_hands``), weighted by the
orbit's size. Every count is an integer; every figure is a ``Fraction``.

Everything the computation needs is read from the game file (``FlushGame.from_rules``): the
compare hands and their ranking, the cards dealt, the dealer's qualifier, the decision's
options and the amount rules of the wager it places, and the settlement rows of the base
game's wagers. A game file outside that shape is refused with the reason (``NotDerivable``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator import jsonout
from validator.interpreter.actions import parse_action
from validator.interpreter.rules import Rules
from validator.model.procedure import (
    Bound,
    DealStep,
    DecideStep,
    HandTest,
    When,
)
from validator.odds.enumeration import canonical_hands
from validator.par.settlement import (
    OUTCOMES,
    Choice,
    ExactGame,
    NotDerivable,
    choice_nets,
    compared_hands,
    read_nets,
    wager_or_fold,
)

NRANKS = 13
FULL_DECK = (1 << NRANKS) - 1
SHIFT = NRANKS  # value = length << SHIFT | rank mask
I64 = NDArray[np.int64]

_POP = np.array([bin(i).count("1") for i in range(1 << NRANKS)], dtype=np.int64)
_C = np.array([[comb(a, n) for n in range(NRANKS + 2)] for a in range(NRANKS + 1)], np.int64)
_POP32 = _POP.astype(np.int32)
# C(a, n), with n below 0 counted as no subsets (a column of zeros at index -1)
_C32 = np.concatenate([_C, np.zeros((NRANKS + 1, 1), np.int64)], axis=1).astype(np.int32)


# -- counting -------------------------------------------------------------------------------


def hand_values(masks: Sequence[NDArray[np.integer]]) -> I64:
    """The value of each hand given as four suit masks: its best suit's length, then mask."""
    out = np.zeros(np.asarray(masks[0]).shape, dtype=np.int64)
    for m in masks:
        m64 = np.asarray(m, dtype=np.int64)
        out = np.maximum(out, (_POP[m64] << SHIFT) | m64)
    return out


def _subsets_below(s: I64, r: I64, length: I64) -> I64:
    """How many ``length``-subsets of the ranks ``s`` have a mask below ``r`` (a mask of
    ``length`` ranks): the first rank, from the top, where a subset leaves ``r`` must be one
    ``r`` holds and the subset does not; above it the subset holds exactly ``r``'s ranks."""
    s32 = s.astype(np.int32)
    r32 = r.astype(np.int32)
    missing = r32 & ~s32  # r's ranks the subsets cannot hold
    need = length.astype(np.int32)
    acc = np.zeros(s.shape, dtype=np.int64)
    for b in range(NRANKS - 1, -1, -1):
        top = np.int32(~((1 << (b + 1)) - 1) & FULL_DECK)
        ok = ((r32 >> b) & 1).astype(bool) & ((missing & top) == 0)
        below = _POP32[s32 & np.int32((1 << b) - 1)]
        acc += np.where(ok, _C32[below, need], 0)
        need = need - ((r32 >> b) & 1)
    return acc


def dealer_hands_below(
    remaining: Sequence[I64], threshold: I64 | int, m: int, inclusive: bool = False
) -> I64:
    """How many dealer hands of ``m`` cards, from the ranks ``remaining`` in each suit, have a
    value below ``threshold`` (at most it, with ``inclusive``)."""
    n = remaining[0].shape[0]
    t = np.broadcast_to(np.asarray(threshold, dtype=np.int64), (n,))
    by_size = [_C32[_POP32[s], : m + 1].T for s in remaining]  # (m + 1, n): C(size, j)
    at = [_at_length(s, t, inclusive) for s in remaining]
    return _below(by_size, at, t, m)


def _at_length(s_mask: I64, t: I64, inclusive: bool) -> I64:
    """The subsets of one suit's remaining ranks as long as ``t`` and below it (or equal)."""
    r = t & FULL_DECK
    at = _subsets_below(s_mask, r, t >> SHIFT)
    if inclusive:
        at += ((r & ~s_mask) == 0).astype(np.int64)
    return at


def _below(by_size: Sequence[NDArray[np.int32]], at: Sequence[I64], t: I64, m: int) -> I64:
    """The dealer hands below ``t``: the coefficient of x^m in the product over the suits."""
    length = (t >> SHIFT).astype(np.int32)
    j = np.arange(m + 1, dtype=np.int32)[:, None]
    shorter = j < length[None, :]
    at_length = j == length[None, :]
    polys = [
        np.where(shorter, sizes, np.where(at_length, a.astype(np.int32)[None, :], 0))
        for sizes, a in zip(by_size, at, strict=True)
    ]
    low = _times(polys[0], polys[1])
    high = _times(polys[2], polys[3])
    # every count is below C(52, 7) < 2**31: int32 products and sums do not overflow
    return (low * high[::-1]).sum(axis=0, dtype=np.int64)


def _times(a: NDArray[np.int32], b: NDArray[np.int32]) -> NDArray[np.int32]:
    """Products of polynomials (coefficients down the first axis), truncated to their degree."""
    out = np.zeros_like(a)
    deg = a.shape[0]
    for j in range(deg):
        out[j:] += a[: deg - j] * b[j]
    return out


@dataclass
class DealerCounts:
    """For each player hand: its value, weight (hands it stands for), and how many dealer
    hands fail to qualify, or qualify and are beaten by, tie with, or beat it."""

    value: NDArray[np.int32]
    weight: NDArray[np.int32]
    counts: dict[str, NDArray[np.int32]]  # outcome -> dealer hands
    dealer_total: int

    @classmethod
    def joined(cls, parts: Sequence[DealerCounts]) -> DealerCounts:
        """The blocks' counts, one after the other."""
        return cls(
            np.concatenate([p.value for p in parts]),
            np.concatenate([p.weight for p in parts]),
            {k: np.concatenate([p.counts[k] for p in parts]) for k in parts[0].counts},
            parts[0].dealer_total,
        )


def count_block(
    masks: Sequence[NDArray[np.integer]],
    weight: NDArray[np.integer],
    m: int,
    qualifier: int | None,
    deck: int = FULL_DECK,
) -> DealerCounts:
    """The dealer counts of one block of player hands (four suit masks each)."""
    player = [np.asarray(x, dtype=np.int64) for x in masks]
    remaining = [deck & ~p for p in player]
    value = hand_values(player)
    cards_left = int(4 * _POP[deck]) - int(sum(_POP[p[0]] for p in player))
    total = comb(cards_left, m)
    if total >= 2**31:
        raise NotDerivable(f"{total:,} dealer hands: more than 32-bit counts hold")
    by_size = [_C32[_POP32[s], : m + 1].T.copy() for s in remaining]
    at = [_at_length(s, value, False) for s in remaining]
    below = _below(by_size, at, value, m)
    r = value & FULL_DECK
    at_or_equal = [a + ((r & ~s) == 0) for a, s in zip(at, remaining, strict=True)]
    at_most = _below(by_size, at_or_equal, value, m)
    if qualifier is None:
        nq = np.zeros_like(below)
    else:
        q = np.full(value.shape, qualifier, dtype=np.int64)
        # one threshold for every hand: its subsets by the suit's remaining ranks, tabled
        table = _at_length(np.arange(1 << NRANKS, dtype=np.int64), q[:1].repeat(1 << NRANKS), False)
        nq = _below(by_size, [table[s] for s in remaining], q, m)
    higher = np.maximum(below - nq, 0)
    lower = total - np.maximum(at_most, nq)
    equal = total - nq - higher - lower
    counts = {"not_qualified": nq, "higher": higher, "equal": equal, "lower": lower}
    # kept as 32-bit integers (each below 2**31, checked above): a quarter of the memory
    return DealerCounts(
        value.astype(np.int32),
        np.asarray(weight, dtype=np.int32),
        {k: v.astype(np.int32) for k, v in counts.items()},
        total,
    )


BLOCK = 250_000


def count_all(k: int, m: int, qualifier: int | None, workers: int | None = 1) -> DealerCounts:
    """Every player hand of ``k`` cards of one 52-card deck, one per suit orbit; the blocks
    of hands are counted on ``workers`` processes (``None``: every core). The result does
    not depend on the number of workers: blocks are put back in their order."""
    jobs = []
    for masks, orbit in canonical_hands(k):
        for start in range(0, orbit.shape[0], BLOCK):
            part = slice(start, start + BLOCK)
            jobs.append(([x[part] for x in masks], orbit[part], m, qualifier))
    from validator.interpreter.chunks import pool_context, worker_count

    n = worker_count(workers)
    if n <= 1:
        parts = [count_block(*job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=n, mp_context=pool_context()) as pool:
            parts = list(pool.map(_count_job, jobs))
    return DealerCounts.joined(parts)


def _count_job(job: tuple[list[NDArray[np.uint16]], I64, int, int | None]) -> DealerCounts:
    return count_block(*job)


# -- the game file, read for this method ------------------------------------------------------


@dataclass(kw_only=True)
class FlushGame(ExactGame):
    """What the exact method reads from a game file (``from_rules``)."""

    lengths: dict[str, int]  # category id -> flush length
    strengths: dict[str, int]  # category id -> strength (Evaluator.strength)
    qualifier: int | None  # the lowest qualifying value
    ranges: dict[int, tuple[int, int]]  # flush length -> (least, most) multiple

    # -- reading ----------------------------------------------------------------------------

    @classmethod
    def from_rules(cls, rules: Rules) -> FlushGame:
        d = rules.d
        settle, compare, ranking = compared_hands(rules)
        ph, dh = compare.player, compare.dealer
        lengths: dict[str, int] = {}
        for c in ranking.categories:
            if c.flush is None or c.suit is not None or c.refines is not None:
                raise NotDerivable(
                    f"the {ranking.name} ranking is not by flush length alone ({c.name})"
                )
            lengths[c.id] = c.flush
        order = list(lengths.values())
        if (
            ranking.tiebreak != "combination"
            or order != sorted(order, reverse=True)
            or (min(order) != 1)
        ):
            raise NotDerivable(f"the {ranking.name} ranking is not by flush length alone")
        for h in (ph, dh):
            if d.hands[h].cards != [("player" if h == ph else "dealer")] or d.hands[h].first:
                raise NotDerivable(
                    f"the hand compared ({rules.game.hand_text(h)}) is not formed from all "
                    "its owner's cards"
                )
        steps = rules.procedure
        decides = [s for s in steps if isinstance(s, DecideStep)]
        if len(decides) != 1:
            raise NotDerivable("the round has more than one decision")
        if any(
            not isinstance(s, DealStep | DecideStep)
            and s.step not in ("wagers", "reveal", "qualify", "settle")
            for s in steps
        ):
            raise NotDerivable("the round has steps beyond deal, decide, reveal, qualify, settle")
        k = rules.dealt_count("player", set(d.wagers))
        m = rules.dealt_count("dealer", set(d.wagers))
        if k > ranking.size or m > ranking.size:
            raise NotDerivable("a hand is formed from more cards than the ranking's size")
        step = decides[0]
        fold_option, place = wager_or_fold(step)
        option = step.options[place]
        wager_id = option.wager or ""
        ev = rules.evaluator(ph)
        strengths = {c: ev.strength(c) for c in lengths}
        ranges: dict[int, tuple[int, int]] = {}
        for cat, n in lengths.items():

            def features(hand_id: str, at_least: str, cat: str = cat) -> bool:
                if hand_id != ph:
                    raise NotDerivable(f"the {wager_id} amount reads hand {hand_id!r}")
                return strengths[cat] >= ev.strength(at_least)

            lo, hi, _ = rules.option_multiple_range(option, step.id, features)
            ranges[n] = (max(lo, 1), hi)
        q = rules.qualifier
        qualifier = None
        if q is not None:
            if q[0] != dh:
                raise NotDerivable("the dealer qualifies on another hand than it compares")
            strength, *ranks = q[1]
            cat = next(c for c, s in strengths.items() if s == strength)
            qualifier = bound_value(lengths[cat], ranks)
        # with no qualifier no dealer hand fails to qualify: that outcome is not read
        outcomes = OUTCOMES if qualifier is not None else OUTCOMES[1:]
        nets, _, _ = read_nets(rules, settle, wager_id, outcomes)
        return cls(
            game=d.id,
            player_hand=ph,
            player_cards=k,
            dealer_cards=m,
            lengths=lengths,
            strengths=strengths,
            qualifier=qualifier,
            per=settle.base_game.per,
            decision=step.id,
            fold_option=fold_option,
            raise_option=place,
            raise_wager=wager_id,
            ranges=ranges,
            nets=nets,
            cites=[compare.cite, step.cite],
        )

    def choices(self) -> list[Choice]:
        most = max(hi for _, hi in self.ranges.values())
        out = [Choice(self.fold_option, 0)] if self.fold_option else []
        return out + [Choice(self.raise_option, r) for r in range(1, most + 1)]

    def bound(self, b: Bound) -> int:
        return bound_value(self.lengths[b.category], [int(r) for r in b.ranks])


def bound_value(length: int, ranks: Sequence[int]) -> int:
    """The lowest value of a ``length``-card flush whose highest ranks are ``ranks``: those
    ranks, then the lowest ranks below them."""
    mask = 0
    for r in ranks:
        mask |= 1 << (int(r) - 2)
    bit = 0
    while mask.bit_count() < length:
        if not mask & (1 << bit) and (not ranks or bit < int(ranks[-1]) - 2):
            mask |= 1 << bit
        bit += 1
        if bit > NRANKS:
            raise NotDerivable(f"no {length}-card flush starts with {list(ranks)}")
    return length << SHIFT | mask


# -- strategies -----------------------------------------------------------------------------


@dataclass(frozen=True)
class StrategyFigures:
    """The exact figures of one strategy; ``ev`` per unit of the initial wager."""

    name: str
    ev: Fraction
    second_moment: Fraction
    average_total_wager: Fraction
    decisions: dict[str, Fraction]
    dealer_qualifies: Fraction
    distribution: dict[int, Fraction]  # net result per unit of the initial wager -> probability

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def element_of_risk(self) -> Fraction:
        return -self.ev / self.average_total_wager

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.ev * self.ev


def _option_tables(game: FlushGame) -> tuple[list[Choice], I64, I64, I64]:
    """For each choice: its net (numerator) and squared net per outcome, and its total stake."""
    choices = game.choices()
    net, stake = choice_nets(choices, OUTCOMES, game.nets, {}, game.per, game.raise_wager)
    flat = net[:, :, 0]
    return choices, flat, flat * flat, stake


def choice_evs(game: FlushGame, dc: DealerCounts) -> tuple[list[Choice], NDArray[np.int32]]:
    """Each choice's expected net, times the dealer total, for every player hand (at most
    the largest net times the dealer hands: 32 bits hold it, checked)."""
    choices, net, _, _ = _option_tables(game)
    if int(np.abs(net).max()) * dc.dealer_total >= 2**31:
        raise NotDerivable("the expected results exceed 32-bit integers")
    net32 = net.astype(np.int32)
    ev = np.zeros((len(choices), dc.value.shape[0]), dtype=np.int32)
    for j, out in enumerate(OUTCOMES):
        ev += net32[:, j : j + 1] * dc.counts[out][None, :]
    return choices, ev


def allowed(game: FlushGame, dc: DealerCounts) -> NDArray[np.bool_]:
    """Which choices each hand may take (the amount rules by flush length)."""
    choices = game.choices()
    length = dc.value >> SHIFT
    lo = np.zeros_like(length)
    hi = np.zeros_like(length)
    for n, (a, b) in game.ranges.items():
        lo[length == n] = a
        hi[length == n] = b
    ok = np.zeros((len(choices), length.shape[0]), dtype=bool)
    for i, ch in enumerate(choices):
        ok[i] = True if ch.multiple == 0 else (lo <= ch.multiple) & (ch.multiple <= hi)
    return ok


def optimal_choice(game: FlushGame, dc: DealerCounts) -> I64:
    """The index of the best choice for every hand; on equal returns, the smaller wager."""
    _, ev = choice_evs(game, dc)
    ok = allowed(game, dc)
    masked = np.where(ok, ev, np.iinfo(ev.dtype).min)
    # choices are ordered fold, 1x, 2x, …: argmax keeps the first (smallest) of equals
    return np.argmax(masked, axis=0)


def strategy_choice(game: FlushGame, dc: DealerCounts, rows: Iterable[object]) -> I64:
    """The choice a declared strategy's decision table makes for every hand."""
    ok = allowed(game, dc)
    out = np.full(dc.value.shape[0], -1, dtype=np.int64)
    open_ = np.ones(dc.value.shape[0], dtype=bool)
    length = dc.value >> SHIFT
    for row in rows:
        then = getattr(row, "then")  # noqa: B009
        if not isinstance(then, str):
            raise NotDerivable("a strategy row chooses cards")
        a = parse_action(then)
        m = open_ & _strategy_when(game, getattr(row, "when"), dc.value)  # noqa: B009
        if a.option == game.fold_option:
            idx = np.zeros_like(length)
        elif a.option == game.raise_option:
            lo = np.zeros_like(length)
            hi = np.zeros_like(length)
            for n, (x, y) in game.ranges.items():
                lo[length == n] = x
                hi[length == n] = y
            mult = hi if a.multiple == "max" else (lo if a.multiple is None else int(a.multiple))
            # choices are [fold,] 1x, 2x, …: raise r sits at r, or r - 1 without a fold
            idx = np.broadcast_to(np.asarray(mult), length.shape) - (0 if game.fold_option else 1)
        else:
            raise NotDerivable(f"the strategy's action {then!r} is no option of the decision")
        out = np.where(m, idx, out)
        open_ &= ~m
    if open_.any():
        raise NotDerivable("the strategy decides nothing for some hands")
    if not ok[out, np.arange(out.shape[0])].all():
        raise NotDerivable("the strategy makes a choice the rules do not allow")
    return out


def _strategy_when(game: FlushGame, w: When, value: NDArray[np.int32] | I64) -> NDArray[np.bool_]:
    given = {k for k, v in w.model_dump(exclude_none=True).items() if v not in (None, [], {})}
    if given - {"hand"}:
        raise NotDerivable(f"a strategy row reads {sorted(given - {'hand'})}")
    m = np.ones(value.shape[0], dtype=bool)
    for hand_id, test in (w.hand or {}).items():
        if hand_id != game.player_hand:
            raise NotDerivable(f"a strategy row reads hand {hand_id!r}")
        m &= _hand_test(game, test, value)
    return m


def _hand_test(game: FlushGame, t: HandTest, value: NDArray[np.int32] | I64) -> NDArray[np.bool_]:
    m = np.ones(value.shape[0], dtype=bool)
    length = value >> SHIFT
    if t.at_least is not None:
        m &= value >= game.bound(t.at_least)
    if t.below is not None:
        m &= value < game.bound(t.below)
    if t.is_ is not None:
        m &= np.isin(length, [game.lengths[c] for c in t.is_])
    if t.is_not is not None:
        m &= ~np.isin(length, [game.lengths[c] for c in t.is_not])
    return m


def figures(game: FlushGame, dc: DealerCounts, name: str, choice: I64) -> StrategyFigures:
    """The exact figures of the strategy that takes ``choice`` for every hand."""
    choices, net, sq, stake = _option_tables(game)
    w = dc.weight.astype(np.int64)
    total_hands = int(w.sum())
    denom = total_hands * dc.dealer_total
    ev_num = 0
    sq_num = 0
    dist: dict[int, int] = {}
    for j, out in enumerate(OUTCOMES):
        c = dc.counts[out].astype(np.int64) * w
        ev_num += int((net[choice, j] * c).sum())
        sq_num += int((sq[choice, j] * c).sum())
        for i in range(len(choices)):
            x = int(net[i, j])
            dist[x] = dist.get(x, 0) + int(c[choice == i].sum())
    decisions: dict[str, Fraction] = {}
    wager_num = 0
    for i, ch in enumerate(choices):
        hands = int(w[choice == i].sum())
        decisions[ch.label] = Fraction(hands, total_hands)
        wager_num += hands * int(stake[i])
    nq = int((dc.counts["not_qualified"].astype(np.int64) * w).sum())
    return StrategyFigures(
        name=name,
        ev=Fraction(ev_num, denom),
        second_moment=Fraction(sq_num, denom),
        average_total_wager=Fraction(wager_num, total_hands),
        decisions=decisions,
        dealer_qualifies=1 - Fraction(nq, denom),
        distribution={x: Fraction(n, denom) for x, n in sorted(dist.items()) if n},
    )


# -- the figures of the game file's strategies, derived and kept ---------------------------------

#: Bump when the method's figures would change for the same game file.
METHOD_VERSION = 1
OPTIMAL = "optimal"


def _plain(x: object) -> object:
    """``x`` as JSON can hold it, the same for the same value on any machine or version."""
    if hasattr(x, "model_dump"):
        return x.model_dump(mode="json")  # type: ignore[attr-defined]
    if hasattr(x, "__dataclass_fields__"):
        return {k: _plain(getattr(x, k)) for k in x.__dataclass_fields__}  # type: ignore[attr-defined]
    if isinstance(x, dict):
        return sorted(
            [jsonout.dumps(_plain(k), sort_keys=True, ensure_ascii=True), _plain(v)]
            for k, v in x.items()
        )
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if isinstance(x, bool | int | str | float) or x is None:
        return x
    return str(x)  # Fraction, Decimal


def method_key(game: FlushGame, declared: dict[str, Any]) -> str:
    """A digest of everything the figures are derived from: what ``from_rules`` read from
    the game file (the hands, their ranking's flush lengths and strengths, the deal, the
    qualifier, the decision, every line's net), the declared strategies' decision tables,
    and the method's version; never rulesub's code."""
    read = {
        "method": METHOD_VERSION,
        "game": _plain(game),
        "strategies": {
            n: [_plain(r) for r in st.decisions.get(game.decision, [])]
            for n, st in sorted(declared.items())
        },
    }
    return hashlib.sha256(
        jsonout.dumps(read, sort_keys=True, ensure_ascii=True).encode()
    ).hexdigest()


def derive(
    game: FlushGame, declared: dict[str, Any], workers: int | None = 1
) -> dict[str, StrategyFigures]:
    """The optimal strategy's exact figures and every declared strategy's this method can
    read, counted (the dealer counts on ``workers`` processes)."""
    dc = count_all(game.player_cards, game.dealer_cards, game.qualifier, workers)
    out = {OPTIMAL: figures(game, dc, OPTIMAL, optimal_choice(game, dc))}
    for name, strat in declared.items():
        try:
            choice = strategy_choice(game, dc, strat.decisions.get(game.decision, []))
        except NotDerivable:
            continue
        out[name] = figures(game, dc, name, choice)
    return out


def exact_figures(
    game: FlushGame, declared: dict[str, Any], workers: int | None = 1
) -> dict[str, StrategyFigures]:
    """The figures kept in ``derived/`` when they were derived from this very game file (the
    same ``method_key``), else derived now (and remembered in the user's cache)."""
    from validator.par.completions import kept_or_derived

    key = method_key(game, declared)
    return kept_or_derived(
        game.game, key, "par-longest-flush", lambda: derive(game, declared, workers)
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Derive the figures of the games named (default: every game this method covers),
    write them to ``derived/`` and say how long each took."""
    import sys
    import time

    from validator.compiler import load_game
    from validator.interpreter.config import TableConfig
    from validator.model.registry import game_ids
    from validator.par.completions import write_derived

    named = list(sys.argv[1:] if argv is None else argv)
    for gid in named or game_ids():
        g = load_game(gid)
        if g.definition.settle is None or not g.definition.procedure:
            continue  # nothing to settle: no base game to count
        rules = Rules(g, TableConfig.defaults(g))
        try:
            game = FlushGame.from_rules(rules)
        except NotDerivable as e:
            if named:
                print(f"{gid}: not derivable: {e}")
            continue
        declared = g.definition.strategies.by_name if g.definition.strategies else {}
        start = time.perf_counter()
        found = derive(game, declared, None)
        seconds = time.perf_counter() - start
        path = write_derived(gid, method_key(game, declared), found, "validator.par.longest_flush")
        best = found[OPTIMAL]
        print(
            f"{gid}: {seconds:.0f} s; optimal house edge {float(best.house_edge) * 100:.4f}% "
            f"written to {path.name}"
        )


if __name__ == "__main__":
    main()
