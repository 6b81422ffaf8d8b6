"""The dealer's completions of one face-up card, counted exactly: Four Card Poker's base game.

The player sees his ``k`` cards and one of the dealer's ``m`` cards (the up card ``u``), then
decides. Whatever he decides, what matters is how many of the dealer's completions (the
``m - 1`` hidden cards, from the cards neither he nor the up card holds) beat, tie or lose to
his hand. Counting those by inclusion–exclusion over the player's cards::

    #{H ∋ u, H ∩ P = ∅, value(H) ≥ v} = Σ_{S ⊆ P} (-1)^|S| #{H ⊇ {u} ∪ S, value(H) ≥ v}

where ``H`` runs over the dealer's ``m``-card hands of the deck. A right-hand count depends
only on the set ``T = {u} ∪ S`` up to suit relabelling (the ranking names no suit), so it is
tabled once per orbit ``T`` of each size:

- ``|T| = m``: ``H = T``, the hand's own value;
- ``|T| = m - 1``: the values of the ``n - m + 1`` hands ``T + c``, sorted (a binary search);
- ``|T| ≤ m - 2``: ``#{H ⊇ T, value(H) ≥ v}`` for every value ``v``, a table: each hand of
  ``m`` cards holding ``T`` holds ``m - |T|`` sets ``T + c``, so the table of ``T`` is the sum
  of the tables of its ``T + c``, divided by ``m - |T|`` (exactly).

Every set of up to ``m - 1`` cards is numbered by the combinatorial number system, and the
number gives its orbit, so a situation's ``2^k`` terms are a few integer operations and
table look-ups each, over numpy arrays of situations. The player's hands are taken one per
orbit, weighted by the orbit's size, each with every up card. Values are the ranking's own
(``BatchEvaluator.keys``, the best hand of the ranking's size), renumbered densely.

The same tables, looked up at the lowest value of each category, split every situation's
completions by the dealer's category (``joint_counts``): every deal by the outcome and both
hands' categories, what a wager paid on the lower of the two hands is priced from
(``losing_hand_counts``: Four Card Poker's Bad Beat Bonus, § 641a.12(f)).

``CompletionGame.from_rules`` reads what the count needs from the game file (the hands
compared, the cards dealt and the face-up card, the decision's options and amounts, the base
game's settlement rows and its bonus paytable); a game outside that shape is refused with the
reason (``NotDerivable``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import partial
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator import jsonout
from validator.compiler import Game
from validator.interpreter.batch import BatchEngine
from validator.interpreter.config import TableConfig
from validator.interpreter.dealing import deal_order
from validator.interpreter.rules import Rules
from validator.model.procedure import DealStep, DecideStep, HandTest, Line, Pays
from validator.odds.enumeration import symmetry_group
from validator.par.longest_flush import StrategyFigures
from validator.par.settlement import (
    OUTCOMES,
    BonusNets,
    Choice,
    ExactGame,
    NotDerivable,
    choice_nets,
    compared_hands,
    read_nets,
    row_holds,
    wager_or_fold,
)
from validator.rankings.batch import BatchEvaluator, suit_masks

I64 = NDArray[np.int64]
I32 = NDArray[np.int32]
FULL_RANKS = (1 << 13) - 1
BLOCK = 100_000  # situations per block
OPTIMAL = "optimal"


# -- sets of cards and their orbits ---------------------------------------------------------


def deck_cards(ranks: int = FULL_RANKS) -> I64:
    """The cards (``4 * rank index + suit``) of a deck of every suit of the ranks in the
    13-bit mask ``ranks``, in increasing order."""
    return np.array([4 * r + s for r in range(13) if ranks >> r & 1 for s in range(4)], np.int64)


def orbit_key(cards: I64) -> I64:
    """Rows of card ints → one integer per row, the same for two rows exactly when a
    relabelling of the suits takes one to the other: the four suit masks, sorted."""
    masks = suit_masks(cards).astype(np.int64)
    masks.sort(axis=0)
    return masks[3] << 39 | masks[2] << 26 | masks[1] << 13 | masks[0]


@dataclass
class Orbits:
    """Every set of ``t`` cards of the deck (by its combinatorial number, over positions in
    the deck): its orbit; and one representative (positions, increasing) per orbit."""

    t: int
    of_set: I32  # combinatorial number -> orbit
    reps: I64  # (orbits, t) positions
    size: I64  # sets in each orbit

    @classmethod
    def of(cls, cards: I64, t: int) -> Orbits:
        n = cards.shape[0]
        pos = subsets(n, t)
        number = colex(pos)
        _, first, inverse, size = np.unique(
            orbit_key(cards[pos]), return_index=True, return_inverse=True, return_counts=True
        )
        of_set = np.empty(comb(n, t), dtype=np.int32)
        of_set[number] = inverse.reshape(-1)
        return cls(t, of_set, pos[first], size.astype(np.int64))


def subsets(n: int, t: int) -> I64:
    """Every set of ``t`` of the positions ``0 .. n - 1``, as increasing rows."""
    out = np.arange(n, dtype=np.int64)[:, None]
    for _ in range(t - 1):
        last = out[:, -1]
        more = n - 1 - last  # positions above each row's last
        starts = np.repeat(np.cumsum(more) - more, more)
        new = np.repeat(last, more) + 1 + np.arange(int(more.sum())) - starts
        out = np.concatenate([np.repeat(out, more, axis=0), new[:, None]], axis=1)
    return out


def complement(pos: I64, n: int) -> I64:
    """For each set (a row of positions), the positions it does not hold, increasing."""
    free = np.ones((pos.shape[0], n), dtype=bool)
    free[np.arange(pos.shape[0])[:, None], pos] = False
    return np.nonzero(free)[1].reshape(pos.shape[0], n - pos.shape[1])


_BINOM = np.array([[comb(a, b) for b in range(8)] for a in range(64)], dtype=np.int64)


def colex(pos: I64) -> I64:
    """Sets as rows of increasing positions → their numbers, Σ C(p_i, i + 1)."""
    out = np.zeros(pos.shape[0], dtype=np.int64)
    for i in range(pos.shape[1]):
        out += _BINOM[pos[:, i], i + 1]
    return out


def plus_one(pos: I64, c: I64) -> I64:
    """The numbers of the sets ``pos`` (increasing rows) with the position ``c`` added
    (``c`` in none of them)."""
    below = np.zeros(pos.shape[0], dtype=np.int64)
    out = np.zeros(pos.shape[0], dtype=np.int64)
    for i in range(pos.shape[1]):
        above = (c < pos[:, i]).astype(np.int64)
        out += _BINOM[pos[:, i], i + 1 + above]
        below += 1 - above
    return out + _BINOM[c, below + 1]


# -- the counts -----------------------------------------------------------------------------


@dataclass
class Values:
    """The ranking's values renumbered densely (0 the lowest), for hands of any size."""

    evaluator: BatchEvaluator
    keys: I64  # sorted distinct keys

    @classmethod
    def of(cls, evaluator: BatchEvaluator, cards: I64) -> Values:
        size = evaluator.ranking.size
        pos = subsets(cards.shape[0], size)
        return cls(evaluator, np.unique(evaluator.keys_of_cards(cards[pos])))

    @property
    def count(self) -> int:
        return int(self.keys.shape[0])

    def __call__(self, cards: I64) -> I64:
        return np.searchsorted(self.keys, self.evaluator.keys_of_cards(cards)).astype(np.int64)


@dataclass
class CompletionTables:
    """What the count of one situation looks up: per size ``t`` of ``T`` (1 to ``m - 1``),
    the orbits of ``t`` cards, and for each orbit and value ``v`` how many of the dealer's
    hands holding ``T`` are of value ``v`` or more (a flat row of ``values + 1`` per orbit,
    the last counting none)."""

    cards: I64
    m: int
    values: Values
    orbits: dict[int, Orbits]
    at_least: dict[int, NDArray[np.integer]]  # t -> flat (orbits * (values + 1))

    @property
    def width(self) -> int:
        return self.values.count + 1

    @classmethod
    def build(cls, cards: I64, m: int, values: Values) -> CompletionTables:
        n = cards.shape[0]
        top = m - 1
        nv = values.count
        if comb(n - 1, m - 1) >= 2**31:  # pragma: no cover - far beyond any deck
            raise NotDerivable("the dealer's hands exceed 32-bit counts")
        orbits = {t: Orbits.of(cards, t) for t in range(1, top + 1)}
        # |T| = m - 1: the hands T + c, for every card c
        reps = orbits[top].reps
        rest = complement(reps, n)
        hands = np.concatenate(
            [np.repeat(reps, rest.shape[1], axis=0), rest.reshape(-1, 1)], axis=1
        )
        last = values(cards[hands]).reshape(rest.shape)
        at_least: dict[int, NDArray[np.integer]] = {top: _at_least_of_rows(last, nv)}
        if top >= 2:
            # |T| = m - 2: the values of the hands T + c + c', each hand found twice
            o = orbits[top - 1]
            cells = []
            for c in range(n):
                rows = np.nonzero((o.reps != c).all(axis=1))[0]
                above = orbits[top].of_set[plus_one(o.reps[rows], np.full(rows.shape, c))]
                cells.append((rows[:, None] * nv + last[above]).reshape(-1))
            size = o.reps.shape[0] * nv
            hist = np.bincount(np.concatenate(cells), minlength=size).reshape(-1, nv)
            table = _at_least(_divide(hist, 2).astype(np.int32))
            at_least[top - 1] = table.reshape(-1)
            # smaller T: each hand holding T holds m - |T| sets T + c
            for t in range(top - 2, 0, -1):
                o, up = orbits[t], orbits[t + 1]
                below = table
                acc = np.zeros((o.reps.shape[0], nv + 1), dtype=np.int32)
                for c in range(n):
                    rows = np.nonzero((o.reps != c).all(axis=1))[0]
                    above = up.of_set[plus_one(o.reps[rows], np.full(rows.shape, c))]
                    acc[rows] += below[above]
                table = _divide(acc, m - t)
                at_least[t] = table.reshape(-1)
        return cls(cards, m, values, orbits, at_least)

    def situations(self, player: I64, up: I64, v: I64) -> tuple[I64, I64]:
        """For each situation (the player's positions, increasing rows; the up card's
        position; the player's value): the dealer's completions of value at least ``v``, and
        above ``v``."""
        k = player.shape[1]
        m = self.m
        ge = np.zeros(player.shape[0], dtype=np.int64)
        gt = np.zeros(player.shape[0], dtype=np.int64)
        above = (up[:, None] < player).astype(np.int64)  # the up card below a player's card
        # per subset S (by its positions in P): Σ C(p, rank in S ∪ {u}) over its cards, and
        # how many of its cards are below the up card
        part: dict[tuple[int, ...], tuple[I64, I64]] = {(): (np.zeros_like(up), np.zeros_like(up))}
        for size in range(0, min(k, m - 2) + 1):
            sign = -1 if size % 2 else 1
            t = size + 1
            of_set = self.orbits[t].of_set
            table = self.at_least[t]
            for subset in combinations(range(k), size):
                if subset:
                    prev, i = subset[:-1], subset[-1]
                    cards_part, below = part[prev]
                    cards_part = cards_part + _BINOM[player[:, i], size + above[:, i]]
                    below = below + 1 - above[:, i]
                    part[subset] = (cards_part, below)
                cards_part, below = part[subset]
                number = cards_part + _BINOM[up, below + 1]
                at = of_set[number].astype(np.int64) * self.width + v
                ge += sign * table[at]
                gt += sign * table[at + 1]
        if k + 1 == m:  # S = P: the dealer's hand is the player's cards and the up card
            sign = -1 if k % 2 else 1
            whole = self.values(self.cards[np.concatenate([player, up[:, None]], axis=1)])
            ge += sign * (whole >= v)
            gt += sign * (whole > v)
        return ge, gt


def _at_least_of_rows(rows: I64, nv: int) -> NDArray[np.integer]:
    """Rows of values → for each row and value v, how many of its values are v or more
    (flat, ``nv + 1`` per row), in the narrowest integer type that holds them."""
    dtype = np.uint8 if rows.shape[1] < 256 else np.int32
    hist = np.zeros((rows.shape[0], nv + 1), dtype=dtype)
    r = np.arange(rows.shape[0])[:, None]
    np.add.at(hist.reshape(-1), (r * (nv + 1) + rows).reshape(-1), 1)
    return _at_least(hist[:, :nv]).reshape(-1)


def _divide(a: NDArray[np.integer], d: int) -> NDArray[np.integer]:
    if (a % d).any():  # pragma: no cover - a counting error, never the data
        raise ArithmeticError("a table of hands is not a whole multiple of its covers")
    return a // d


def _at_least(hist: NDArray[np.integer]) -> NDArray[np.integer]:
    """Counts by value → counts of value at least each value (one more column: none), in
    the counts' own integer type."""
    out = np.zeros((hist.shape[0], hist.shape[1] + 1), dtype=hist.dtype)
    np.cumsum(hist[:, ::-1], axis=1, dtype=hist.dtype, out=out[:, -2::-1])
    return out


# -- the game file, read for this method ----------------------------------------------------


@dataclass(kw_only=True)
class CompletionGame(ExactGame):
    """What the exact method reads from a game file (``from_rules``)."""

    dealer_hand: str
    up_card: int  # which of the dealer's cards is dealt face up (1-based)
    fold_option: str
    most: int  # the largest multiple of the initial wager the decision's wager may be
    least: int
    bonus: BonusNets  # (folded, outcome) -> net by category
    bonus_lines: list[str]
    categories: list[str]  # the ranking's categories, in the evaluator's order
    evaluator: BatchEvaluator

    @classmethod
    def from_rules(cls, rules: Rules) -> CompletionGame:
        d = rules.d
        settle, compare, ranking = compared_hands(rules)
        ph, dh = compare.player, compare.dealer
        if ranking.low is not None:
            raise NotDerivable(f"the {ranking.name} ranking is a low ranking")
        if len(symmetry_group(ranking)) != 24:
            raise NotDerivable(f"the {ranking.name} ranking names a suit or a colour")
        for h, owner in ((ph, "player"), (dh, "dealer")):
            if d.hands[h].cards != [owner] or d.hands[h].first or d.hands[h].losing_of:
                raise NotDerivable(
                    f"the hand compared ({rules.game.hand_text(h)}) is not the best hand of "
                    f"all the {owner}'s cards"
                )
        if rules.qualifier is not None:
            raise NotDerivable("the dealer qualifies: this method counts no qualifier")
        steps = rules.procedure
        decides = [i for i, s in enumerate(steps) if isinstance(s, DecideStep)]
        if len(decides) != 1:
            raise NotDerivable("the round has not exactly one decision")
        at = decides[0]
        kinds = {"wagers", "deal", "table_system", "decide", "reveal", "settle"}
        if any(s.step not in kinds for s in steps):
            raise NotDerivable("the round has steps beyond deal, decide, reveal and settle")
        base = settle.base_game
        wagered = set(base.wagers)
        k = rules.dealt_count("player", wagered)
        m = rules.dealt_count("dealer", wagered)
        ups = [
            (i, p)
            for i, s in enumerate(steps)
            if isinstance(s, DealStep) and (s.when_wagered is None or s.when_wagered in wagered)
            for p in s.face_up.get("dealer", [])
        ]
        if len(ups) != 1 or ups[0][0] > at:
            raise NotDerivable("the player does not decide seeing exactly one dealer's card")
        if any(
            isinstance(s, DealStep)
            and i > at
            and s.cards.get("player", 0) + s.cards.get("dealer", 0)
            for i, s in enumerate(steps)
        ):
            raise NotDerivable("cards are dealt after the decision")
        if not 1 <= k < m or k + m > 52:
            raise NotDerivable(f"{k} player cards and {m} dealer cards: not counted here")
        step = steps[at]
        assert isinstance(step, DecideStep)
        fold_option, place = wager_or_fold(step)
        if fold_option is None:
            raise NotDerivable("the decision is not one wager or fold")
        option = step.options[place]
        wager_id = option.wager or ""

        def features(hand_id: str, at_least: str) -> bool:
            placed = rules.wager(wager_id).name if wager_id else "wager"
            raise NotDerivable(
                f"the {placed} amount reads a hand ({rules.game.hand_text(hand_id)})"
            )

        least, most, _ = rules.option_multiple_range(option, step.id, features)
        evaluator = BatchEvaluator(ranking)
        categories = [c.id for c in ranking.categories]
        nets, bonus, bonus_lines = read_nets(rules, settle, wager_id, OUTCOMES[1:], ph)
        return cls(
            game=d.id,
            player_hand=ph,
            dealer_hand=dh,
            player_cards=k,
            dealer_cards=m,
            up_card=ups[0][1],
            per=base.per,
            decision=step.id,
            fold_option=fold_option,
            raise_option=place,
            raise_wager=wager_id,
            most=most,
            least=max(least, 1),
            nets=nets,
            bonus=bonus,
            bonus_lines=bonus_lines,
            categories=categories,
            evaluator=evaluator,
            cites=[compare.cite, step.cite],
        )

    def choices(self) -> list[Choice]:
        return [Choice(self.fold_option, 0)] + [
            Choice(self.raise_option, r) for r in range(self.least, self.most + 1)
        ]

    def net_table(self) -> tuple[list[Choice], I64, I64]:
        """Per choice, outcome (higher, equal, lower) and category of the player's hand: the
        net per unit of the initial wager; and each choice's total stake."""
        choices = self.choices()
        net, stake = choice_nets(
            choices, OUTCOMES[1:], self.nets, self.bonus, self.per, self.raise_wager
        )
        return choices, net, stake


# -- every situation ----------------------------------------------------------------------------


@dataclass
class Situations:
    """Every (player's hand, up card), the player's hands one per suit orbit: the weight
    (hands the orbit holds), the player's category, and how many dealer completions the
    player's hand is higher than, equal to and lower than."""

    player: I64  # (N, k) card ints
    up: I64  # (N,) card ints
    weight: I64
    category: I64
    counts: I64  # (N, 3): higher, equal, lower
    dealer_total: int


@dataclass
class _Deck:
    """What every count over a deck reads: its cards, the ranking's values with the category
    of each, the dealer's completion tables, the player's hands one per orbit, and how many
    completions each situation has."""

    cards: I64
    values: Values
    cat_of_value: I64
    tables: CompletionTables
    players: Orbits
    total: int

    @classmethod
    def of(cls, game: CompletionGame, ranks: int) -> _Deck:
        cards = deck_cards(ranks)
        n = cards.shape[0]
        k, m = game.player_cards, game.dealer_cards
        if n < k + m:
            raise NotDerivable(f"a deck of {n} cards deals no round")
        values = Values.of(game.evaluator, cards)
        rep_pos = subsets(n, game.evaluator.ranking.size)
        rep_keys = game.evaluator.keys_of_cards(cards[rep_pos])
        first = np.unique(rep_keys, return_index=True)[1]
        cat_of_value = game.evaluator.held_of_cards(cards[rep_pos[first]]).astype(np.int64)
        tables = CompletionTables.build(cards, m, values)
        players = tables.orbits[k] if k in tables.orbits else Orbits.of(cards, k)
        return cls(cards, values, cat_of_value, tables, players, comb(n - k - 1, m - 1))

    def blocks(self) -> Iterator[tuple[I64, I64, I64, I64, I64]]:
        """Every situation, a block at a time: the player's positions, the up card's, the
        player's value, the orbit's weight, and the completions higher, equal, lower."""
        n = self.cards.shape[0]
        reps_all = self.players.reps
        step = max(1, BLOCK // (n - reps_all.shape[1]))
        for start in range(0, reps_all.shape[0], step):
            reps = reps_all[start : start + step]
            free = complement(reps, n)
            pp = np.repeat(reps, free.shape[1], axis=0)
            uu = free.reshape(-1)
            v = self.values(self.cards[pp])
            ge, gt = self.tables.situations(pp, uu, v)
            counts = np.stack([self.total - ge, ge - gt, gt], axis=1)
            w = np.repeat(self.players.size[start : start + step], free.shape[1])
            yield pp, uu, v, w, counts


def count_situations(game: CompletionGame, ranks: int = FULL_RANKS) -> Situations:
    """Every situation of a deck of every suit of ``ranks`` (a 13-bit mask), exactly."""
    deck = _Deck.of(game, ranks)
    parts: list[tuple[I64, I64, I64, I64, I64]] = []
    for pp, uu, v, w, counts in deck.blocks():
        parts.append((deck.cards[pp], deck.cards[uu], w, deck.cat_of_value[v], counts))
    return Situations(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([p[3] for p in parts]),
        np.concatenate([p[4] for p in parts]),
        deck.total,
    )


# -- strategies ---------------------------------------------------------------------------------


def optimal_choice(game: CompletionGame, s: Situations) -> I64:
    """The index of the best choice in every situation; on equal returns, the smaller wager."""
    return best_choices(game, s.category, s.counts)


def best_choices(game: CompletionGame, category: I64, counts: I64) -> I64:
    """The best choice of situations given by the player's category and their completions
    higher, equal and lower."""
    _, net, _ = game.net_table()
    ev = np.zeros((net.shape[0], category.shape[0]), dtype=np.int64)
    for j in range(net.shape[1]):
        ev += net[:, j, :][:, category] * counts[:, j][None, :]
    # choices are ordered fold, 1x, 2x, …: argmax keeps the first (smallest) of equals
    return np.argmax(ev, axis=0)


def strategy_choice(rules: Rules, game: CompletionGame, s: Situations, name: str) -> I64:
    """The choice a declared strategy makes in every situation, as the batch engine makes it
    (one seat; the player's cards and the up card dealt where the procedure deals them)."""
    strategy = rules.strategy(name)
    engine = BatchEngine(rules, strategy, 1, {game.per: Decimal(1)})
    player_at, up_at = _deal_positions(rules, game)
    out = np.empty(s.weight.shape[0], dtype=np.int64)
    for start in range(0, out.shape[0], BLOCK):
        part = slice(start, start + BLOCK)
        res = engine.run(_decks(s.player[part], s.up[part], player_at, up_at))
        folded = res.folded[:, 0]
        placed = res.stakes.get(game.raise_wager)
        mult = (
            np.zeros(folded.shape, dtype=np.int64)
            if placed is None
            else placed[:, 0] // res.stakes[game.per][:, 0]
        )
        if np.any(~folded & ((mult < game.least) | (mult > game.most))):
            raise NotDerivable(f"strategy {name!r} places a wager the rules do not allow")
        out[part] = np.where(folded, 0, mult - game.least + 1)
    return out


def _deal_positions(rules: Rules, game: CompletionGame) -> tuple[list[int], int]:
    """Where in the deck the round deals seat 1's cards and the dealer's up card."""
    pos = 0
    player_at: list[int] = []
    up_at = -1
    for step in rules.procedure:
        if not isinstance(step, DealStep) or step.when_wagered is not None:
            continue
        dealer_seen = 0
        for who, _seat in deal_order(step, [1]):
            if who == "player":
                player_at.append(pos)
            elif who == "dealer":
                dealer_seen += 1
                if dealer_seen in step.face_up.get("dealer", []):
                    up_at = pos
            pos += 1
    if len(player_at) != game.player_cards or up_at < 0:
        raise NotDerivable("the deal does not place the player's cards and the up card")
    return player_at, up_at


def _decks(player: I64, up: I64, player_at: list[int], up_at: int) -> I64:
    """One deck per situation: the player's cards and the up card where they are dealt,
    the other cards of the deck after them in order."""
    n = player.shape[0]
    used = np.zeros((n, 52), dtype=bool)
    rows = np.arange(n)
    used[rows[:, None], player] = True
    used[rows, up] = True
    decks = np.empty((n, 52), dtype=np.int64)
    fixed = [*player_at, up_at]
    decks[:, fixed] = np.concatenate([player, up[:, None]], axis=1)
    decks[:, [i for i in range(52) if i not in fixed]] = np.nonzero(~used)[1].reshape(n, -1)
    return decks


def figures(game: CompletionGame, s: Situations, name: str, choice: I64) -> StrategyFigures:
    """The exact figures of the strategy that takes ``choice`` in every situation."""
    choices, net, stake = game.net_table()
    w = s.weight
    total_hands = int(w.sum())
    denom = total_hands * s.dealer_total
    ev_num = 0
    sq_num = 0
    dist: dict[int, int] = {}
    for j in range(net.shape[1]):
        x = net[choice, j, s.category]
        c = s.counts[:, j] * w
        ev_num += int((x * c).sum())
        sq_num += int((x * x * c).sum())
        for key in np.unique(x).tolist():
            dist[key] = dist.get(key, 0) + int(c[x == key].sum())
    decisions: dict[str, Fraction] = {}
    wager_num = 0
    for i, ch in enumerate(choices):
        hands = int(w[choice == i].sum())
        decisions[ch.label] = Fraction(hands, total_hands)
        wager_num += hands * int(stake[i])
    return StrategyFigures(
        name=name,
        ev=Fraction(ev_num, denom),
        second_moment=Fraction(sq_num, denom),
        average_total_wager=Fraction(wager_num, total_hands),
        decisions=decisions,
        dealer_qualifies=Fraction(1),
        distribution={x: Fraction(q, denom) for x, q in sorted(dist.items()) if q},
    )


# -- the joint deal: both hands' categories, for a wager paid on the lower of them ---------------

#: The comparison's outcomes, the player's hand against the dealer's, as ``JointCounts`` keeps
#: them (the dealer always qualifies in a game this method counts).
JOINT_OUTCOMES = OUTCOMES[1:]


@dataclass(frozen=True)
class JointCounts:
    """Every deal (the player's cards, the dealer's up card and his other cards), as the
    optimal strategy plays the base game: the deals in which the player stays in, by the
    comparison's outcome (``JOINT_OUTCOMES``) and both hands' categories (the ranking's
    order: ``stayed[outcome, player's, dealer's]``), and the deals in which he folds. What a
    wager paid on the lower of the two hands is settled by (Four Card Poker's Bad Beat
    Bonus, § 641a.11(c)(6))."""

    stayed: I64  # (3, categories, categories)
    folded: int

    @property
    def total(self) -> int:
        return int(self.stayed.sum()) + self.folded


def joint_counts(game: CompletionGame, ranks: int = FULL_RANKS) -> JointCounts:
    """``JointCounts`` of a deck of every suit of ``ranks``, exactly: each situation's
    completions split by the dealer's category, from the completion tables at the lowest
    value of each category (a category's values are one run of the ranking's values)."""
    deck = _Deck.of(game, ranks)
    cats = deck.cat_of_value
    lows = np.concatenate([[0], np.flatnonzero(np.diff(cats)) + 1]).astype(np.int64)
    if (np.diff(cats[lows]) >= 0).any():  # from the lowest: the ranking's order reversed
        raise NotDerivable("the categories are not runs of values in the ranking's order")
    ncat = len(game.categories)
    stayed = np.zeros(3 * ncat * ncat, dtype=np.int64)
    folded = 0
    for pp, uu, v, w, counts in deck.blocks():
        stay = best_choices(game, cats[v], counts) != 0
        folded += int(w[~stay].sum()) * deck.total
        pp, uu, v, w, counts = pp[stay], uu[stay], v[stay], w[stay], counts[stay]
        ge, gt = counts[:, 1] + counts[:, 2], counts[:, 2]
        # the dealer's completions of value at least each category's lowest, and none above
        at = np.zeros((v.shape[0], lows.shape[0] + 1), dtype=np.int64)
        at[:, 0] = deck.total
        for q in range(1, lows.shape[0]):
            at[:, q] = deck.tables.situations(pp, uu, np.full_like(v, lows[q]))[0]
        mine = np.searchsorted(lows, v, side="right") - 1  # the player's category's place
        player = cats[v]
        for q in range(lows.shape[0]):
            whole = at[:, q] - at[:, q + 1]
            at_mine = mine == q
            split = (
                np.where(q < mine, whole, np.where(at_mine, at[:, q] - ge, 0)),  # higher
                np.where(at_mine, ge - gt, 0),  # equal
                np.where(q > mine, whole, np.where(at_mine, gt - at[:, q + 1], 0)),  # lower
            )
            for o, c in enumerate(split):
                np.add.at(stayed, (o * ncat + player) * ncat + cats[lows[q]], w * c)
    return JointCounts(stayed.reshape(3, ncat, ncat), folded)


def losing_hand_counts(
    rules: Rules, game: CompletionGame, joint: JointCounts, wager_id: str, table_id: str
) -> tuple[list[int], int]:
    """A wager paid from ``table_id`` on the lower of the two hands compared: per category of
    that hand (the ranking's order), the deals its settlement pays from the table; and the
    deals it loses. Its settlement rows are read for a folded player, then for each outcome
    and both hands' categories; a row that reads anything else is refused (``NotDerivable``)."""
    table = rules.table(table_id)
    losing = rules.game.hand(table.pays_on or "").losing_of or []
    if sorted(losing) != sorted([game.player_hand, game.dealer_hand]):
        raise NotDerivable("the table's hand is not the lower of the two hands compared")
    settle = rules.d.settle
    lines = [ln for ln in settle.lines.values() if ln.wager == wager_id] if settle else []
    if len(lines) != 1:
        raise NotDerivable(f"the {rules.wager(wager_id).name} is settled by no one line")
    ncat = len(game.categories)
    paid = [0] * ncat
    row = partial(_joint_row, rules, game, lines[0], table_id)
    every = [(o, cp, cd) for o in JOINT_OUTCOMES for cp in range(ncat) for cd in range(ncat)]
    if any(row(True, o, cp, cd) != "lose" for o, cp, cd in every):
        raise NotDerivable(f"the {rules.wager(wager_id).name} of a folded player does not lose")
    lost = joint.folded
    for o, outcome in enumerate(JOINT_OUTCOMES):
        for cp in range(ncat):
            for cd in range(ncat):
                n = int(joint.stayed[o, cp, cd])
                if n == 0:
                    continue
                if row(False, outcome, cp, cd) == "lose":
                    lost += n
                else:  # the lower hand: the player's where he lost, the dealer's otherwise
                    paid[cp if outcome in ("lower", "equal") else cd] += n
    return paid, lost


def _joint_row(
    rules: Rules,
    game: CompletionGame,
    line: Line,
    table_id: str,
    folded: bool,
    outcome: str,
    cp: int,
    cd: int,
) -> str:
    """What the first row of the wager's line that holds (``row_holds``, the hands read by
    their categories) does: ``lose``, or ``table`` (paid from the table on its hand)."""
    hands = {game.player_hand: cp, game.dealer_hand: cd}
    index = {c: i for i, c in enumerate(game.categories)}

    def hand_holds(hand_id: str, test: HandTest) -> bool:
        """A hand test at a category (the ranking lists its categories from the highest, as
        ``joint_counts`` checks): ``at_least`` and ``below`` a category."""
        if hand_id not in hands:
            raise NotDerivable("a settlement row reads a hand other than the two compared")
        if test.is_ is not None or test.is_not is not None:
            raise NotDerivable("a settlement row names a hand's categories")
        for bound, holds_at in ((test.at_least, True), (test.below, False)):
            if bound is not None and bound.ranks:
                raise NotDerivable("a settlement row bounds a hand by its ranks")
            if bound is not None and (hands[hand_id] <= index[bound.category]) != holds_at:
                return False
        return True

    raised, per = game.raise_wager, game.per
    for row in line.rows:
        if not row_holds(row.when, folded, outcome, line.wager, raised, per, hand_holds):
            continue
        then = row.then
        if then == "lose":
            return "lose"
        pays_on = rules.table(table_id).pays_on
        if isinstance(then, Pays) and then.paytable == table_id and then.hand in (None, pays_on):
            return "table"
        whose = "a folded player's settlement row" if folded else "a settlement row"
        raise NotDerivable(f"{whose} does other than lose or pay from the table")
    raise NotDerivable("no settlement row holds")


# -- the figures of the game file's strategies, derived and kept ---------------------------------

#: Bump when the method's figures would change for the same game file.
METHOD_VERSION = 1
DERIVED_DIR = Path(__file__).resolve().parent / "derived"


def method_key(rules: Rules, game: CompletionGame) -> str:
    """A digest of everything the figures are derived from: what ``from_rules`` read (the
    hands, their ranking, the deal, the decision, the settlement), the declared strategies'
    decision tables, and the method's version."""
    d = rules.d
    ranking = rules.game.ranking_of(game.player_hand)
    declared = d.strategies.by_name if d.strategies else {}
    read = {
        "method": METHOD_VERSION,
        "ranking": ranking.model_dump(mode="json"),
        "cards": [game.player_cards, game.dealer_cards, game.up_card],
        "choices": [c.label for c in game.choices()],
        "nets": {f"{f}/{o}": {w: str(x) for w, x in v.items()} for (f, o), v in game.nets.items()},
        "bonus": {f"{f}/{o}": [str(x) for x in v] for (f, o), v in game.bonus.items()},
        "procedure": [s.model_dump(mode="json") for s in rules.procedure],
        "strategies": {
            n: [r.model_dump(mode="json") for r in st.decisions.get(game.decision, [])]
            for n, st in sorted(declared.items())
        },
    }
    return hashlib.sha256(
        jsonout.dumps(read, sort_keys=True, ensure_ascii=True).encode()
    ).hexdigest()


def derive(
    rules: Rules, game: CompletionGame, progress: Callable[[str], None] | None = None
) -> dict[str, StrategyFigures]:
    """The optimal strategy's exact figures and every declared strategy's, counted."""
    say = progress or (lambda _: None)
    say("counting every situation's dealer completions")
    s = count_situations(game)
    out = {OPTIMAL: figures(game, s, OPTIMAL, optimal_choice(game, s))}
    declared = rules.d.strategies.by_name if rules.d.strategies else {}
    for name in declared:
        say(f"the {name} strategy's choices")
        try:
            out[name] = figures(game, s, name, strategy_choice(rules, game, s, name))
        except NotDerivable:
            continue
    return out


def exact_figures(
    rules: Rules, game: CompletionGame, progress: Callable[[str], None] | None = None
) -> dict[str, StrategyFigures]:
    """The figures kept in ``derived/`` when they were derived from this very game file (the
    same ``method_key``), else derived now (and remembered in the user's cache)."""
    key = method_key(rules, game)
    return kept_or_derived(game.game, key, "par-completions", lambda: derive(rules, game, progress))


def kept_or_derived(
    game_id: str, key: str, memo: str, derive_now: Callable[[], dict[str, StrategyFigures]]
) -> dict[str, StrategyFigures]:
    """Exact strategy figures: those shipped in ``derived/`` when their key is ``key`` (what
    they were derived from), else ``derive_now()``, remembered in the user's cache under
    ``memo`` and ``key``. Both exact methods keep their figures so."""
    kept = read_derived(game_id)
    if kept is not None and kept[0] == key:
        return kept[1]
    from validator import cache

    return cache.memo(memo, key, derive_now)


def exact_joint(rules: Rules, game: CompletionGame) -> JointCounts:
    """``JointCounts`` of the full deck: those kept in ``derived/`` when derived from this
    very game file (the same ``method_key``), else counted now (about a minute) and kept in
    the user's cache."""
    key = method_key(rules, game)
    kept = read_derived_joint(game.game)
    if kept is not None and kept[0] == key:
        return kept[1]
    from validator import cache

    return cache.memo("par-completions-joint", key, lambda: joint_counts(game))


class LosingHand:
    """The odds engine's ``JointPricer``: a table paid on the lower of the two hands the base
    game compares, counted by ``losing_hand_counts`` over the full deck's ``JointCounts``,
    the base game played by its optimal strategy under the game's default settings."""

    def reason(self, game: Game, wager_id: str, table_id: str) -> str | None:
        """Why the game file cannot be counted so, or None: every settlement row read for
        every outcome and pair of categories (one deal each), nothing counted."""
        try:
            rules, cg = self._read(game)
            ncat = len(cg.categories)
            every = JointCounts(np.ones((3, ncat, ncat), dtype=np.int64), 1)
            losing_hand_counts(rules, cg, every, wager_id, table_id)
        except NotDerivable as e:
            return str(e)
        return None

    def deals(self, game: Game, wager_id: str, table_id: str) -> tuple[list[int], int]:
        """The deals the table pays by category and those it loses; what cannot be counted
        is the odds engine's ``NotPriced``, with the reason."""
        from validator.odds import NotPriced

        try:
            rules, cg = self._read(game)
            return losing_hand_counts(rules, cg, exact_joint(rules, cg), wager_id, table_id)
        except NotDerivable as e:
            raise NotPriced(f"paid on the lower of two hands dealt: {e}") from None

    @staticmethod
    def _read(game: Game) -> tuple[Rules, CompletionGame]:
        rules = Rules(game, TableConfig.defaults(game))
        return rules, CompletionGame.from_rules(rules)


#: What the documents (odds, diff, the par sheet, the review pack) price such a table with.
JOINT = LosingHand()


def figures_json(f: StrategyFigures) -> dict[str, object]:
    return {
        "ev": str(f.ev),
        "second_moment": str(f.second_moment),
        "average_total_wager": str(f.average_total_wager),
        "decisions": {k: str(v) for k, v in f.decisions.items()},
        "dealer_qualifies": str(f.dealer_qualifies),
        "distribution": {str(k): str(v) for k, v in f.distribution.items()},
    }


def figures_of_json(name: str, j: dict[str, Any]) -> StrategyFigures:
    return StrategyFigures(
        name=name,
        ev=Fraction(j["ev"]),
        second_moment=Fraction(j["second_moment"]),
        average_total_wager=Fraction(j["average_total_wager"]),
        decisions={k: Fraction(v) for k, v in j["decisions"].items()},
        dealer_qualifies=Fraction(j["dealer_qualifies"]),
        distribution={int(k): Fraction(v) for k, v in j["distribution"].items()},
    )


def read_derived_joint(game_id: str) -> tuple[str, JointCounts] | None:
    path = DERIVED_DIR / f"{game_id}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    joint = data.get("joint")
    if joint is None:
        return None
    stayed = np.array(joint["stayed"], dtype=np.int64)
    return data["key"], JointCounts(stayed, int(joint["folded"]))


def read_derived(game_id: str) -> tuple[str, dict[str, StrategyFigures]] | None:
    path = DERIVED_DIR / f"{game_id}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["key"], {n: figures_of_json(n, f) for n, f in data["strategies"].items()}


def write_derived(
    game_id: str,
    key: str,
    found: dict[str, StrategyFigures],
    method: str = "validator.par.completions",
    joint: JointCounts | None = None,
) -> Path:
    """Written whole (a temporary file renamed into place); ``method``: the module that
    derived them (``python -m`` it, with the game, to derive them again)."""
    DERIVED_DIR.mkdir(exist_ok=True)
    path = DERIVED_DIR / f"{game_id}.json"
    body = {
        "game": game_id,
        "key": key,
        "method": method,
        "note": f"Derived by `python -m {method} GAME`; do not edit.",
        "strategies": {n: figures_json(f) for n, f in found.items()},
    }
    if joint is not None:  # the deals by both hands' categories, the optimal strategy's
        body["joint"] = {"stayed": joint.stayed.tolist(), "folded": joint.folded}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(jsonout.dumps(body, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def main(argv: Sequence[str] | None = None) -> None:
    """Derive the figures of the games named (default: every game this method covers),
    write them to ``derived/`` and say how long each took."""
    import sys
    import time

    from validator.compiler import load_game
    from validator.interpreter.config import TableConfig
    from validator.model.registry import game_ids

    named = list(sys.argv[1:] if argv is None else argv)
    for gid in named or game_ids():
        g = load_game(gid)
        rules = Rules(g, TableConfig.defaults(g))
        try:
            game = CompletionGame.from_rules(rules)
        except NotDerivable as e:
            if named:
                print(f"{gid}: not derivable: {e}")
            continue
        start = time.perf_counter()
        found = derive(rules, game, partial(_say, gid))
        _say(gid, "every deal by both hands' categories")
        joint = joint_counts(game)
        seconds = time.perf_counter() - start
        path = write_derived(gid, method_key(rules, game), found, joint=joint)
        best = found[OPTIMAL]
        print(
            f"{gid}: {seconds:.0f} s; optimal house edge {float(best.house_edge) * 100:.4f}% "
            f"of the {game.per}, {float(best.element_of_risk) * 100:.4f}% of the total "
            f"wagered; written to {path.name}"
        )


def _say(gid: str, what: str) -> None:
    print(f"{gid}: {what}", flush=True)


if __name__ == "__main__":
    main()
