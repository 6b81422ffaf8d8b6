"""The batch engine: many rounds of one game at once, over numpy arrays.

It interprets the same procedure, settlement tables and strategies as the scalar engine
(``scalar``), a handler per step, but each operation acts on every round of a chunk at once:
cards are ``(rounds, seats, cards)`` arrays (-1 where no card), hands are evaluated by the
generic ``BatchEvaluator`` of the ranking, a decision table's rows become boolean masks
(the first matching row wins), money is integer micro-dollars (exact; a result that would
not be exact is refused). What cannot be vectorized without loss stays exact and sequential:
progressive meters are paid in the chapter's order, hit by hit. Lunar Poker's second
combination is looked for in every winning hand at once (``BatchEvaluator.second_combination``:
each paying category in turn, over every subset of the hand's cards of its size).

``tests/test_interpreter_batch.py`` deals the same decks to both engines and requires the
same settlement, wager by wager.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.actions import parse_action
from validator.interpreter.dealing import deal_order
from validator.interpreter.errors import RoundError, unpaid_winner
from validator.interpreter.meters import reset
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.interpreter.second_combination import second_combination_order
from validator.model.notation import Payout, PayoutKind
from validator.model.procedure import (
    DealStep,
    DecideStep,
    DrawStep,
    Line,
    Option,
    Pays,
    QualifyStep,
    ReplaceStep,
    RevealStep,
    SettleStep,
    Strategy,
    TableSystemStep,
    WagersStep,
    When,
)
from validator.rankings.batch import BatchEvaluator, Hands
from validator.vocabulary import CONDITION, STEP, TABLE_FEATURE, meaning, meaning_of

MICRO = 1_000_000
CENT = 10_000
I64 = NDArray[np.int64]
B = NDArray[np.bool_]

_BITS = np.array([1 << (16 * (c % 4) + c // 4) for c in range(52)] + [0], dtype=np.uint64)
_RANK = np.array([c // 4 + 2 for c in range(52)] + [0], dtype=np.int64)  # index -1: no card


class InexactMoney(ValueError):
    """An amount the batch engine cannot hold exactly in micro-dollars: refused, never
    rounded silently (``rulesub simulate`` says so, exit 2)."""


def to_micro(d: Decimal | int) -> int:
    v = Decimal(d) * MICRO
    if v != v.to_integral_value():
        raise InexactMoney(f"${d} is not a whole number of micro-dollars")
    return int(v)


def from_micro(m: int) -> Decimal:
    return Decimal(int(m)) / MICRO


def _frac_micro(amount: I64, r: Fraction) -> I64:
    """An exact share of micro-dollar amounts; a share that is not exact is refused."""
    num = amount * r.numerator
    if np.any(num % r.denominator):
        raise InexactMoney(
            f"a share of {r} of these wagers is not a whole number of micro-dollars; the "
            "simulation keeps money exact and cannot simulate it"
        )
    return num // r.denominator


def _payout_micro(amount: I64, r: Fraction) -> I64:
    """A payout of ratio ``r`` on micro-dollar stakes, rounded down to the cent as the scalar
    engine pays it (``validator.interpreter.meters.payout_of``)."""
    return (amount * r.numerator // r.denominator) // CENT * CENT


def masks_of(cards: NDArray[Any]) -> list[NDArray[np.uint16]]:
    """Rows of card ints (-1 for no card) → four suit masks, for ``BatchEvaluator``."""
    x = np.zeros(cards.shape[:-1], np.uint64)
    for j in range(cards.shape[-1]):  # column by column: no (rows, cards) temporary
        x |= _BITS[cards[..., j]]
    return [((x >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint16) for s in range(4)]


def _among(a: NDArray[Any], values: Sequence[int]) -> B:
    """``np.isin`` for the few values of a condition: one comparison per value."""
    if len(values) > 8:
        return np.isin(a, values)
    out = np.zeros(a.shape, dtype=bool)
    for v in set(values):
        out |= a == v
    return out


@dataclass
class _Value:
    held: NDArray[np.int64]  # category index (refinements included)
    key: NDArray[np.int64]


@dataclass
class ChunkResult:
    rounds: int
    stakes: dict[str, I64]  # spot -> (N, S) micro-dollars
    returned: dict[str, I64]  # spot -> (N, S)
    fees: I64  # (N, S)
    wagered: I64  # (N,) per round
    returned_total: I64
    house: I64
    contributions: I64
    meter_paid: I64
    qualifies: NDArray[np.bool_] | None
    folded: NDArray[np.bool_]

    def balanced(self) -> NDArray[np.bool_]:
        """Per round: money wagered = returned + house result + increments - meter payouts."""
        return (
            self.wagered == self.returned_total + self.house + self.contributions - self.meter_paid
        )


@dataclass
class BatchMeter:
    table: str
    name: str
    amount: int
    reseed: int
    reserve: int
    inc: Fraction
    res: Fraction
    reserve_on_reset: str = "funds_reseed"
    increments: int = 0  # to the meter
    reserve_increments: int = 0  # to its reserve
    start_reserve: int = 0
    paid: int = 0
    funded: int = 0
    hits: int = 0
    low: int = 0
    high: int = 0
    start: int = 0
    trajectory_sum: int = 0  # sum over rounds of the amount at the end of each round
    rounds: int = 0

    def __post_init__(self) -> None:
        self.low = self.high = self.start = self.amount
        self.start_reserve = self.reserve


@dataclass
class Scripted:
    """A decision as the players made it (a golden round replayed), per (round, seat): the
    option's index in the step (-1: not asked) and its multiple (0 the least, -1 the most);
    an exchange keeps the ``keep_highest`` highest cards (-1: not said) or, given
    ``keep_cards`` (rounds, seats, cards held), the cards it marks, whichever they are."""

    option: I64
    multiple: I64
    keep_highest: I64 | None = None
    keep_cards: B | None = None


class BatchEngine:
    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | None,
        seats: int,
        wagers: dict[str, Decimal],
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.S = seats
        self.wagers = {k: to_micro(v) for k, v in wagers.items()}
        self.meters: dict[str, BatchMeter] = {}
        for key, m in rules.new_meters().meters.items():
            self.meters[key] = BatchMeter(
                m.table,
                m.name,
                to_micro(m.amount),
                to_micro(m.config.reseed),
                to_micro(m.reserve),
                m.config.increment,
                m.config.reserve_increment,
                m.config.reserve_on_reset,
            )
        self._evs: dict[str, BatchEvaluator] = {}
        self._tables: dict[tuple[str, int], _PayTable] = {}

    def evaluator(self, hand_id: str) -> BatchEvaluator:
        ranking = self.rules.d.hands[hand_id].ranking
        if ranking not in self._evs:
            self._evs[ranking] = BatchEvaluator(self.rules.game.rankings[ranking])
        return self._evs[ranking]

    def paytable(self, table_id: str, stake: int) -> _PayTable:
        key = (table_id, stake)
        if key not in self._tables:
            rows = self.rules.rows_or_stop(table_id, from_micro(stake))
            hand = self.rules.table(table_id).pays_on
            self._tables[key] = _PayTable(self.rules, table_id, rows, hand)
        return self._tables[key]

    def run(
        self,
        decks: NDArray[Any],
        draws: dict[str, NDArray[np.int64]] | None = None,
        stakes: dict[str, I64] | None = None,
        decided: dict[str, Scripted] | None = None,
        void: dict[str, B] | None = None,
    ) -> ChunkResult:
        """Play ``len(decks)`` rounds, one shuffled deck (a row of 52 card ints) each;
        ``draws``: the table game system's draws per round (a card 0..51, a position 0..S
        with 0 the dealer's). ``stakes`` (spot → (N, S) micro-dollars, 0 where not wagered)
        instead of the same wagers at every seat, and ``decided`` (decision id → the decisions
        as made) instead of the strategy: a round replayed as it was played (a golden round).
        ``void``: an irregularity of the chapter's § *.13 (``settle.void``) → the rounds it
        voids."""
        chunk = _Chunk(self, np.asarray(decks, dtype=np.int64), draws or {})
        if stakes is not None:
            chunk.stakes = {k: np.asarray(v, dtype=np.int64) for k, v in stakes.items()}
        chunk.scripted = decided or {}
        chunk.void_of = {k: np.asarray(v, dtype=bool) for k, v in (void or {}).items()}
        return chunk.play()


class _PayTable:
    """A paytable as arrays over the categories of its hand's ranking."""

    def __init__(
        self, rules: Rules, table_id: str, rows: dict[str, Payout], hand: str | None
    ) -> None:
        self.table_id = table_id
        self.rows = rows
        self.payouts: list[Payout] = list(rows.values())
        names = list(rows)
        self.row_index = {n: i for i, n in enumerate(names)}
        self.of_category: NDArray[np.int64] = np.array([], dtype=np.int64)
        if hand is not None:
            ev = rules.evaluator(hand)
            out = []
            for cat in ev.categories:
                c = cat
                while c.id not in rows and c.refines is not None:
                    c = ev.category(c.refines)
                p = rows.get(c.id)
                out.append(self.row_index[c.id] if p is not None and p.pays else -1)
            self.of_category = np.array(out, dtype=np.int64)


class _Chunk:
    def __init__(
        self, eng: BatchEngine, decks: NDArray[np.int64], draws: dict[str, NDArray[np.int64]]
    ) -> None:
        self.e = eng
        self.rules = eng.rules
        self.N = decks.shape[0]
        self.S = eng.S
        self.decks = decks
        self.draws = draws
        self.pos = np.zeros(self.N, dtype=np.int64)
        N, S = self.N, self.S
        self.player = np.full((N, S, 0), -1, dtype=np.int64)  # held
        self.player_dealt = np.full((N, S, 0), -1, dtype=np.int64)
        self.table: dict[str, NDArray[np.int64]] = {}  # held
        self.table_dealt: dict[str, NDArray[np.int64]] = {}
        self.up = np.full(N, -1, dtype=np.int64)
        self.folded = np.zeros((N, S), dtype=bool)
        self.decided: dict[str, NDArray[np.int64]] = {}
        self.choice_names: dict[str, list[str]] = {}
        self.stakes = {spot: np.full((N, S), v, dtype=np.int64) for spot, v in eng.wagers.items()}
        self.scripted: dict[str, Scripted] = {}
        self.void_of: dict[str, B] = {}  # irregularity -> the rounds it voids
        self.voided = np.zeros(N, dtype=bool)
        self.standing: dict[str, B] = {}  # spot -> where its wager is not returned by a void
        self.meter_inc: dict[str, I64] = {}  # table/meter -> each round's increments
        self.meter_res: dict[str, I64] = {}  # and its reserve's
        self.fees = np.zeros((N, S), dtype=np.int64)
        self.pending_kind = np.zeros((N, S), dtype=np.int64)  # 0 none, 1 add, 2 exchange
        self.pending_keep = np.zeros((N, S), dtype=np.int64)
        self.pending_paired = np.zeros((N, S), dtype=bool)
        self.pending_named = np.zeros((N, S), dtype=bool)  # the exchange names its cards:
        self.pending_cards: B | None = None  # (N, S, held) those it keeps
        self.pending_option = np.full((N, S), -1, dtype=np.int64)  # index in draw_options
        self.draw_options: list[Option] = []
        self.returned: dict[str, I64] = {}  # line -> (N, S)
        self.house_line: dict[str, I64] = {}
        self.from_meter: dict[str, I64] = {}
        self.settled: dict[str, B] = {}
        self.seq: dict[str, I64] = {}
        self.counter = 0
        self.events: list[tuple[Any, ...]] = []
        self.version = 0
        self._values: dict[tuple[str, int], _Value] = {}
        self.wagered = np.zeros(N, dtype=np.int64)
        self.house = np.zeros(N, dtype=np.int64)
        self.contrib = np.zeros(N, dtype=np.int64)
        self.meter_paid = np.zeros(N, dtype=np.int64)
        self.qualifies: B | None = None
        self.seat_numbers = np.arange(1, S + 1, dtype=np.int64)

    # -- running ------------------------------------------------------------------------

    def play(self) -> ChunkResult:
        self._void_rounds()
        for i, step in enumerate(self.rules.procedure):
            self.step_index = i
            meaning_of(STEP.id, step.step, "batch")(self, step)
        self._settle_voided()
        self._pay_meters()
        self._payout_limit()
        returned_spot: dict[str, I64] = {
            s: np.zeros((self.N, self.S), np.int64) for s in self.stakes
        }
        for lid, r in self.returned.items():
            spot = self.rules.line_spot(self.rules.lines[lid])
            returned_spot[spot] += r
            self.house += self.house_line[lid].sum(axis=1)
        for spot, stands in self.standing.items():  # a voided wager is returned
            returned_spot[spot] += np.where(stands, 0, self.stakes[spot])
        ret_total = sum((r.sum(axis=1) for r in returned_spot.values()), np.zeros(self.N, np.int64))
        self.house -= self.contrib
        return ChunkResult(
            self.N,
            self.stakes,
            returned_spot,
            self.fees,
            self.wagered,
            ret_total,
            self.house,
            self.contrib,
            self.meter_paid,
            self.qualifies,
            self.folded,
        )

    def _void_rounds(self) -> None:
        """The rounds an irregularity voids (§ *.13), and in them the wagers that stand: those
        the irregularity still settles (``Rules.stands_in_void``); every other is returned."""
        N, S = self.N, self.S
        self.standing = {spot: np.ones((N, S), bool) for spot in self.stakes}
        for irregularity, rounds in self.void_of.items():
            void = self.rules.void(irregularity)
            if (rounds & self.voided).any():
                raise ValueError("one irregularity voids a round")
            self.voided |= rounds
            for spot, stands in self.standing.items():
                if not self.rules.stands_in_void(spot, void):
                    stands[rounds] = False

    def _settle_voided(self) -> None:
        """In a voided round nothing is decided, revealed or settled but the lines the
        irregularity still settles, from the dealer's right, on the cards as dealt."""
        for irregularity, rounds in self.void_of.items():
            if rounds.any():
                void = self.rules.void(irregularity)
                self.step_index = len(self.rules.procedure)
                self._settle(void.settles, "from_dealer_right", rounds[:, None])

    # -- steps --------------------------------------------------------------------------

    @meaning("batch", STEP.id, "wagers")
    def _step_wagers(self, step: WagersStep) -> None:
        meter_tables = self.rules.meter_tables()
        for spot, st in self.stakes.items():
            self.wagered += st.sum(axis=1)
            wager = self.rules.spot_wager(spot)
            if wager in meter_tables:
                standing = np.where(self.standing[spot], st, 0)  # a voided wager adds nothing
                for key, m in self.e.meters.items():
                    if m.table == meter_tables[wager]:
                        inc = _frac_micro(standing, m.inc).sum(axis=1)
                        res = _frac_micro(standing, m.res).sum(axis=1)
                        self.contrib += inc + res
                        self.meter_inc[key] = self.meter_inc.get(key, 0) + inc
                        self.meter_res[key] = self.meter_res.get(key, 0) + res

    @meaning("batch", STEP.id, "deal")
    def _step_deal(self, step: DealStep) -> None:
        if step.when_wagered and not any(  # a stake of 0 is no wager (§ 641a.8(d))
            self.rules.spot_wager(s) == step.when_wagered and bool((st > 0).any())
            for s, st in self.stakes.items()
        ):
            return
        seats = list(range(1, self.S + 1)) if "player" in step.cards else []
        order = deal_order(step, seats)
        rows = np.arange(self.N)
        by: dict[tuple[str, int], list[int]] = {}
        for k, who in enumerate(order):
            if who[0] != "burn":
                by.setdefault(who, []).append(k)
        new_player = []
        for s in seats:
            ks = by.get(("player", s), [])
            new_player.append(
                self.decks[rows[:, None], self.pos[:, None] + np.array(ks, dtype=np.int64)]
            )
        if new_player:
            block = np.stack(new_player, axis=1)  # (N, S, k)
            self.player = np.concatenate([self.player, block], axis=2)
            self.player_dealt = np.concatenate([self.player_dealt, block], axis=2)
        for (group, _), ks in by.items():
            if group == "player":
                continue
            cards = self.decks[rows[:, None], self.pos[:, None] + np.array(ks, dtype=np.int64)]
            self.table[group] = np.concatenate(
                [self.table.get(group, np.zeros((self.N, 0), np.int64)), cards], axis=1
            )
            self.table_dealt[group] = np.concatenate(
                [self.table_dealt.get(group, np.zeros((self.N, 0), np.int64)), cards], axis=1
            )
        for group, positions in step.face_up.items():
            if group == "dealer" and self.up[0] < 0:
                self.up = self.table_dealt["dealer"][:, positions[0] - 1]
        self.pos += len(order)
        self.version += 1

    @meaning("batch", STEP.id, "table_system")
    def _step_table_system(self, step: TableSystemStep) -> None:
        self.events_drawn = {
            k: self.draws[k] for k in step.draws if k in self.draws and self.rules.draw_enabled(k)
        }
        self.event_kinds = dict(step.draws)

    @meaning("batch", STEP.id, "reveal")
    def _step_reveal(self, step: RevealStep) -> None:
        pass

    @meaning("batch", STEP.id, "qualify")
    def _step_qualify(self, step: QualifyStep) -> None:
        if self.qualifies is None and self.rules.qualifier is not None:
            self.qualifies = self.dealer_qualifies().copy()

    @meaning("batch", STEP.id, "replace")
    def _step_replace(self, step: ReplaceStep) -> None:
        which = self.cond(step.when)[:, 0] if self.S else np.zeros(self.N, bool)
        which &= ~self.voided
        if not which.any():
            return
        held = self.table["dealer"]
        ranks = np.where(held >= 0, _RANK[held], -1)
        top = ranks.max(axis=1, keepdims=True)
        # of the cards of the highest rank, the one dealt first (the held order is the dealt order)
        idx = np.argmax(ranks == top, axis=1)
        rows = np.flatnonzero(which)
        new = self.decks[rows, self.pos[rows]]
        kept = held[rows].copy()
        kept = np.array(
            [np.concatenate([np.delete(kept[i], idx[r]), [new[i]]]) for i, r in enumerate(rows)]
        )
        self.table["dealer"][rows] = kept
        self.pos[rows] += 1
        self.version += 1

    @meaning("batch", STEP.id, "draw")
    def _step_draw(self, step: DrawStep) -> None:
        """Draws chosen at a decision, in the players' order: a card added (a sixth card), or
        the cards an exchange does not keep (those below the ``keep`` highest, or but the
        paired ones, or but the cards named) replaced by as many from the deck."""
        order = range(self.S) if step.order == "from_dealer_left" else range(self.S - 1, -1, -1)
        k = self.player.shape[2]
        pad = np.full((self.N, self.S, 1), -1, dtype=np.int64)
        self.player = np.concatenate([self.player, pad], axis=2)
        self.player_dealt = np.concatenate([self.player_dealt, pad], axis=2)
        asked = self.cond(step.players)
        cols = np.arange(k)
        for s in order:
            kind = np.where(asked[:, s], self.pending_kind[:, s], 0)
            add = np.flatnonzero(kind == 1)
            if add.size:
                c = self.decks[add, self.pos[add]]
                self.player[add, s, k] = c
                self.player_dealt[add, s, k] = c
                self.pos[add] += 1
            ex = np.flatnonzero(kind == 2)
            if ex.size:
                held = -np.sort(-self.player[ex, s, :k], axis=1)  # highest card first
                keep = self.pending_keep[ex, s][:, None]
                # `paired`: the cards of ranks held more than once first, if any
                ranks = _RANK[held]
                twice = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) > 1
                use = self.pending_paired[ex, s] & twice.any(axis=1)
                if use.any():
                    paired_first = np.argsort(~twice, axis=1, kind="stable")
                    held = np.where(
                        use[:, None], np.take_along_axis(held, paired_first, axis=1), held
                    )
                    keep = np.where(use[:, None], twice.sum(axis=1)[:, None], keep)
                if self.pending_cards is not None:  # the cards named, kept first
                    kept = self.pending_cards[ex, s, :k]
                    named = self.pending_named[ex, s]
                    as_held = self.player[ex, s, :k]
                    first = np.take_along_axis(as_held, np.argsort(~kept, axis=1, kind="stable"), 1)
                    held = np.where(named[:, None], first, held)
                    keep = np.where(named[:, None], kept.sum(axis=1)[:, None], keep)
                self._check_exchange(ex, s, k - keep[:, 0])
                src = np.minimum(self.pos[ex][:, None] + cols[None, :] - keep, 51)
                new = self.decks[ex[:, None], src]
                self.player[ex, s, :k] = np.where(cols[None, :] < keep, held, new)
                self.pos[ex] += k - keep[:, 0]
        self.pending_kind[asked] = 0
        self.pending_named[asked] = False
        self.version += 1

    def _check_exchange(self, rows: I64, s: int, counts: I64) -> None:
        """An exchange of a number of cards its option does not allow (Lunar Poker's two to
        five, § 589.11(d)(2)(i)(B)) is refused, as the scalar engine refuses it."""
        chosen = self.pending_option[rows, s]
        for i in np.unique(chosen).tolist():
            opt = self.draw_options[i]
            rng = self.rules.draw_cards(opt)
            n = counts[chosen == i]
            bad = (n < rng[0]) | (n > rng[1]) if rng else np.zeros(n.shape, bool)
            if bad.any():
                assert rng is not None
                raise RoundError(
                    f"seat {s + 1}: an exchange is of {rng[0]} to {rng[1]} cards, not "
                    f"{int(n[bad][0])} ({opt.cite})"
                )

    @meaning("batch", STEP.id, "decide")
    def _step_decide(self, step: DecideStep) -> None:
        N, S = self.N, self.S
        names = list(step.options)
        self.choice_names[step.id] = names
        chosen = np.full((N, S), -1, dtype=np.int64)
        asked = self.dealt() & ~self.folded & self.cond(step.players) & ~self.voided[:, None]
        if step.when is not None:
            asked &= self.cond(step.when)
        available = {
            o: (self.cond(opt.available) if opt.available else np.ones((N, S), bool))
            for o, opt in step.options.items()
        }
        multiple = np.zeros((N, S), dtype=np.int64)  # 0: none given, -1: max
        keep = np.full((N, S), -1, dtype=np.int64)
        paired = np.zeros((N, S), dtype=bool)
        named = np.zeros((N, S), dtype=bool)
        open_ = asked.copy()
        rows = self.e.strategy.decisions.get(step.id, []) if self.e.strategy else []
        if step.id in self.scripted:  # the decisions as they were made
            rows = []
            made = self.scripted[step.id]
            m = open_ & (made.option >= 0)
            chosen[m] = made.option[m]
            multiple[m] = made.multiple[m]
            if made.keep_highest is not None:
                keep[m] = made.keep_highest[m]
            if made.keep_cards is not None:
                if self.pending_cards is None:
                    self.pending_cards = np.zeros(self.player.shape, bool)
                self.pending_cards[m] = made.keep_cards[m]
                named[m] = True
            open_ &= ~m
        for row in rows:
            if isinstance(row.then, str):
                a = parse_action(row.then)
                k_keep, k_paired = -1, False
            else:
                a = parse_action(row.then.option)
                k_keep, k_paired = row.then.keep.highest, row.then.keep.paired
            if a.option not in available:
                continue
            m = open_ & self.cond(row.when) & available[a.option]
            if not m.any():
                continue
            chosen[m] = names.index(a.option)
            multiple[m] = -1 if a.multiple == "max" else (a.multiple or 0)
            keep[m] = k_keep
            paired[m] = k_paired
            open_ &= ~m
        if open_.any():
            fallback = step.default if step.default is not None else None
            for o in [fallback] if fallback else names:
                m = open_ & available[o]
                chosen[m] = names.index(o)
                open_ &= ~m
        self.decided[step.id] = chosen
        for o, opt in step.options.items():
            m = chosen == names.index(o)
            if not m.any():
                continue
            self._apply(step, opt, m, multiple, keep, paired, named)

    def _apply(
        self,
        step: DecideStep,
        opt: Option,
        m: B,
        multiple: I64,
        keep: I64,
        paired: B,
        named: B,
    ) -> None:
        if opt.fold:
            self.folded |= m
        if opt.wager is not None:
            wager = self.rules.wager(opt.wager)
            assert wager.amount is not None
            lo, hi = self._multiple_range(opt, step.id)
            mult = np.where(multiple == -1, hi, np.where(multiple == 0, lo, multiple))
            bad = m & ((mult < lo) | (mult > hi))
            if bad.any():
                self._refuse_multiple(step, opt, bad, mult, lo, hi)
            base = self.stakes[wager.amount.of]
            st = np.where(m, base * mult, 0)
            self.stakes[opt.wager] = self.stakes.get(opt.wager, np.zeros_like(base)) + st
            self.wagered += st.sum(axis=1)
        if opt.fee is not None:
            fee_def = self.rules.d.options_fee
            assert fee_def is not None
            fee = np.where(m, self.stakes[fee_def.amount.of] * (fee_def.amount.min or 1), 0)
            self.fees += fee
            self.wagered += fee.sum(axis=1)
            self.house += fee.sum(axis=1)
        if opt.draw is not None:
            if not any(o is opt for o in self.draw_options):
                self.draw_options.append(opt)
            self.pending_option[m] = next(i for i, o in enumerate(self.draw_options) if o is opt)
            self.pending_kind[m] = 1 if opt.draw == "add" else 2
            self.pending_keep[m] = np.maximum(keep[m], 0)
            self.pending_paired[m] = paired[m]
            self.pending_named[m] = named[m]

    def _refuse_multiple(
        self, step: DecideStep, opt: Option, bad: B, mult: I64, lo: I64, hi: I64
    ) -> None:
        """A wager placed at a multiple the rules do not allow there is refused, citing the
        rule that sets the range, as the scalar engine refuses it."""
        r, s = (int(x[0]) for x in np.nonzero(bad))

        def at_least(hand: str, category: str) -> bool:
            thr = self.evaluator(hand).pack_key((self.rules.evaluator(hand).strength(category),))
            return bool(self._seat(self.value(hand).key)[r, s] >= thr)

        _, _, cite = self.rules.option_multiple_range(opt, step.id, at_least)
        name = next(o for o, x in step.options.items() if x is opt)
        least, most = int(lo[r, s]), int(hi[r, s])
        allowed = f"{least}x" if least == most else f"{least}x to {most}x"
        of = self.rules.wager(opt.wager or "").amount
        raise RoundError(
            f"seat {s + 1}: {name} {int(mult[r, s])}x is not allowed: {allowed} the "
            f"{of.of if of else ''} here ({cite})"
        )

    def _multiple_range(self, opt: Option, decision: str) -> tuple[I64, I64]:
        wager = self.rules.wager(opt.wager or "")
        amount = wager.amount
        assert amount is not None
        N, S = self.N, self.S
        lo = np.full((N, S), amount.min or 1, dtype=np.int64)
        hi = np.full((N, S), amount.max or amount.min or 1, dtype=np.int64)
        open_ = np.ones((N, S), bool)
        for rule in amount.rules:
            w = rule.when
            if w.decision is not None and w.decision != decision:
                continue
            m = open_.copy()
            if w.hand is not None and w.at_least is not None:
                v = self.value(w.hand)
                ev = self.rules.evaluator(w.hand)
                thr = self.evaluator(w.hand).pack_key((ev.strength(w.at_least),))
                m &= self._seat(v.key) >= thr
            lo[m] = rule.min or 1
            hi[m] = rule.max or 1
            open_ &= ~m
        return lo, hi

    @meaning("batch", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        self._settle(step.lines, step.order, self.cond(step.players) & ~self.voided[:, None])

    def _settle(self, lines: Sequence[str], order_word: str, who: B) -> None:
        """Settle ``lines`` seat by seat in the order named, where ``who`` (rounds, seats)
        holds, each line of a seat once, a wager returned by a void not at all."""
        order = (
            list(range(self.S))
            if order_word == "from_dealer_left"
            else list(range(self.S - 1, -1, -1))
        )
        seat_rank = np.empty(self.S, dtype=np.int64)
        seat_rank[order] = np.arange(self.S)
        for li, lid in enumerate(lines):
            line = self.rules.lines[lid]
            spot = self.rules.line_spot(line)
            if spot not in self.stakes:
                continue
            stake = self.stakes[spot]
            lanes = (stake > 0) & who & ~self.settled.get(lid, np.zeros_like(who))
            lanes &= self.standing.get(spot, True)
            if not lanes.any():
                continue
            self._settle_line(lid, line, lanes, stake, seat_rank, li)

    # -- hands ----------------------------------------------------------------------------

    def dealt(self) -> B:
        if not self.player.shape[2]:
            return np.zeros((self.N, self.S), bool)
        return np.asarray((self.player_dealt >= 0).any(axis=2), dtype=bool)

    def hand_cards(self, hand_id: str) -> tuple[NDArray[np.int64], bool]:
        """(cards, per seat?) of a hand: ``(N, S, k)`` for a player's hand, ``(N, k)`` else."""
        hand = self.rules.d.hands[hand_id]
        parts = []
        seat = "player" in hand.cards
        for group in hand.cards:
            if group == "player":
                src = self.player_dealt[:, :, : hand.first] if hand.first else self.player
            else:
                t = self.table_dealt if hand.first else self.table
                src = t.get(group, np.zeros((self.N, 0), np.int64))
                if hand.first:
                    src = src[:, : hand.first]
                if seat:
                    src = np.broadcast_to(src[:, None, :], (self.N, self.S, src.shape[1]))
            parts.append(src)
        return np.concatenate(parts, axis=-1), seat

    def value(self, hand_id: str) -> _Value:
        key = (hand_id, self.version)
        if key in self._values:
            return self._values[key]
        hand = self.rules.d.hands[hand_id]
        if hand.losing_of:
            a, b = (self._seat_value(h) for h in hand.losing_of)
            a_low = a.key < b.key
            tie = a.key == b.key
            v = _Value(
                np.where(tie, -1, np.where(a_low, a.held, b.held)),
                np.where(tie, -1, np.where(a_low, a.key, b.key)),
            )
        else:
            cards, _ = self.hand_cards(hand_id)
            flat = cards.reshape(-1, cards.shape[-1])
            h = Hands(masks_of(flat))
            ev = self.evaluator(hand_id)
            v = _Value(
                ev.held(h).astype(np.int64).reshape(cards.shape[:-1]),
                ev.keys(h).reshape(cards.shape[:-1]),
            )
        self._values[key] = v
        return v

    def _seat_value(self, hand_id: str) -> _Value:
        v = self.value(hand_id)
        return _Value(self._seat(v.held), self._seat(v.key))

    def _seat(self, a: NDArray[Any]) -> NDArray[Any]:
        return a if a.ndim == 2 else np.broadcast_to(a[:, None], (self.N, self.S))

    def evaluator(self, hand_id: str) -> BatchEvaluator:
        return self.e.evaluator(hand_id)

    def dealer_qualifies(self) -> B:
        q = self.rules.qualifier
        if q is None:
            return np.ones(self.N, bool)
        v = self.value(q[0])
        return v.key >= self.evaluator(q[0]).pack_key(q[1])

    def compare(self) -> I64:
        c = self.rules.d.settle.compare  # type: ignore[union-attr]
        assert c is not None
        p, d = self._seat_value(c.player), self._seat_value(c.dealer)
        return np.sign(p.key - d.key)

    # -- conditions ---------------------------------------------------------------------

    def cond(self, w: When, side: str = "player") -> B:
        """Where every condition key given holds, each by its meaning in the vocabulary."""
        out = np.ones((self.N, self.S), bool)
        for key in CONDITION_KEYS:
            if getattr(w, key) is not None:
                out &= meaning_of(CONDITION.id, key, "batch")(self, w, side)
        return out

    @meaning("batch", CONDITION.id, "folded")
    def _when_folded(self, w: When, side: str) -> B:
        return self.folded == w.folded

    @meaning("batch", CONDITION.id, "decided")
    def _when_decided(self, w: When, side: str) -> B:
        N, S = self.N, self.S
        out = np.ones((N, S), bool)
        for did, opts in (w.decided or {}).items():
            ch = self.decided.get(did)
            names = self.choice_names.get(did, [])
            idx = [names.index(o) for o in opts if o in names]
            if "none" in opts:  # not asked (or an option called "none")
                idx.append(-1)
            out &= _among(ch if ch is not None else np.full((N, S), -1), idx)
        return out

    @meaning("batch", CONDITION.id, "wagered")
    def _when_wagered(self, w: When, side: str) -> B:
        out = np.ones((self.N, self.S), bool)
        for wid in w.wagered or []:
            out &= self._wagered(wid)
        return out

    @meaning("batch", CONDITION.id, "not_wagered")
    def _when_not_wagered(self, w: When, side: str) -> B:
        out = np.ones((self.N, self.S), bool)
        for wid in w.not_wagered or []:
            out &= ~self._wagered(wid)
        return out

    @meaning("batch", CONDITION.id, "dealer_qualifies")
    def _when_dealer_qualifies(self, w: When, side: str) -> B:
        return (self.dealer_qualifies() == w.dealer_qualifies)[:, None]

    @meaning("batch", CONDITION.id, "player")
    def _when_player(self, w: When, side: str) -> B:
        cmp = self.compare()
        want = [{"higher": 1, "equal": 0, "lower": -1}[x] for x in w.player or ()]
        return _among(cmp, want)

    @meaning("batch", CONDITION.id, "hand")
    def _when_hand(self, w: When, side: str) -> B:
        out = np.ones((self.N, self.S), bool)
        for hid, test in (w.hand or {}).items():
            v = self._seat_value(hid)
            bev = self.evaluator(hid)
            if test.at_least is not None:
                out &= v.key >= bev.pack_key(self.rules.threshold(hid, test.at_least))
            if test.below is not None:
                out &= v.key < bev.pack_key(self.rules.threshold(hid, test.below))
            if test.is_ is not None:
                out &= _among(v.held, self._chain_indices(hid, test.is_))
            if test.is_not is not None:
                out &= ~_among(v.held, self._chain_indices(hid, test.is_not))
        return out

    @meaning("batch", CONDITION.id, "beats")
    def _when_beats(self, w: When, side: str) -> B:
        assert w.beats is not None
        a, b = self._seat_value(w.beats.hand), self._seat_value(w.beats.other)
        cmp = np.sign(a.key - b.key)
        return _among(cmp, [{"higher": 1, "equal": 0, "lower": -1}[x] for x in w.beats.is_])

    @meaning("batch", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, side: str) -> B:
        assert w.dealer_up is not None
        up_rank = _RANK[self.up]
        ok = self.up >= 0
        if w.dealer_up.rank_in is not None:
            ok = ok & _among(up_rank, w.dealer_up.rank_in)
        if w.dealer_up.rank_at_least is not None:
            ok = ok & (up_rank >= w.dealer_up.rank_at_least)
        return ok[:, None]

    @meaning("batch", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(self, w: When, side: str) -> B:
        up_rank = _RANK[self.up]
        ok = (self.up >= 0)[:, None]
        has = (_RANK[self.player] == up_rank[:, None, None]).any(axis=2) & ok
        return ok & (has == w.holds_dealer_up_rank)

    @meaning("batch", CONDITION.id, "suited")
    def _when_suited(self, w: When, side: str) -> B:
        N, S = self.N, self.S
        out = np.ones((N, S), bool)
        for group, want in (w.suited or {}).items():
            cards = self.player if group == "player" else self.table[group][:, None, :]
            suits = np.where(cards >= 0, cards % 4, -1)
            first = suits[..., :1]
            same = ((suits == first) | (suits < 0)).all(axis=-1)
            out &= np.broadcast_to(same, (N, S)) == want
        return out

    @meaning("batch", CONDITION.id, "event")
    def _when_event(self, w: When, side: str) -> B:
        assert w.event is not None
        N, S = self.N, self.S
        drawn = getattr(self, "events_drawn", {}).get(w.event.id)
        if drawn is None:
            return np.zeros((N, S), bool)
        if self.event_kinds[w.event.id] == "card":
            assert w.event.hand is not None
            cards, seat = self.hand_cards(w.event.hand)
            if seat:
                return (cards == drawn[:, None, None]).any(axis=2)
            return np.broadcast_to((cards == drawn[:, None]).any(axis=1)[:, None], (N, S))
        target = (
            np.zeros((N, S), np.int64)
            if side == "dealer"
            else np.broadcast_to(self.seat_numbers, (N, S))
        )
        return drawn[:, None] == target

    @meaning("batch", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, side: str) -> B:
        assert w.any_player is not None
        anyp = np.asarray((self.cond(w.any_player) & self.dealt()).any(axis=1))
        return anyp[:, None]

    def _wagered(self, wager: str) -> B:
        m = np.zeros((self.N, self.S), bool)
        for spot, st in self.stakes.items():
            if spot == wager or spot.startswith(wager + "."):
                m |= st > 0
        return m

    def _chain_indices(self, hand_id: str, ids: Sequence[str]) -> list[int]:
        ev = self.rules.evaluator(hand_id)
        out = []
        for i, cat in enumerate(ev.categories):
            c = cat
            chain = {c.id}
            while c.refines is not None:
                c = ev.category(c.refines)
                chain.add(c.id)
            if chain & set(ids):
                out.append(i)
        return out

    # -- settling -------------------------------------------------------------------------

    def _settle_line(
        self, lid: str, line: Line, lanes: B, stake: I64, seat_rank: I64, line_pos: int
    ) -> None:
        N, S = self.N, self.S
        row_of = np.full((N, S), -1, dtype=np.int64)
        open_ = lanes.copy()
        for i, row in enumerate(line.rows):
            m = open_ & self.cond(row.when, line.on)
            row_of[m] = i
            open_ &= ~m
        if open_.any():
            raise ValueError(f"no row of settlement line {lid!r} applies to some rounds")
        ret = self.returned.setdefault(lid, np.zeros((N, S), np.int64))
        house = self.house_line.setdefault(lid, np.zeros((N, S), np.int64))
        self.settled[lid] = self.settled.get(lid, np.zeros((N, S), bool)) | lanes
        self.counter += 1
        self.seq.setdefault(lid, np.full((N, S), -1, np.int64))[lanes] = self.counter
        for i, row in enumerate(line.rows):
            m = row_of == i
            if not m.any():
                continue
            r, h = self._outcome(lid, line, row.then, m, stake, seat_rank, line_pos, i)
            ret[m] = r[m]
            house[m] = h[m]

    def _money(self, payout: Payout, stake: I64, bonus: bool) -> tuple[I64, I64]:
        """(returned, house result) of a payout, for every lane."""
        zero = np.zeros_like(stake)
        match payout.kind:
            case PayoutKind.TO:
                win = _payout_micro(stake, payout.ratio)
                return (win if bonus else stake + win), -win
            case PayoutKind.FOR:
                back = _payout_micro(stake, payout.ratio)
                return back, (-back if bonus else stake - back)
            case PayoutKind.PUSH:
                return (zero if bonus else stake), zero
            case PayoutKind.FIXED:
                amt = np.full_like(stake, to_micro(payout.amount))
                return (amt if bonus else stake + amt), -amt
        raise AssertionError(payout.kind)

    def _outcome(
        self,
        lid: str,
        line: Line,
        then: Any,
        m: B,
        stake: I64,
        seat_rank: I64,
        line_pos: int,
        row_i: int,
    ) -> tuple[I64, I64]:
        bonus = line.bonus
        zero = np.zeros_like(stake)
        if then in ("lose", "none"):
            return zero, (zero if bonus else stake)
        if then == "push":
            return (zero if bonus else stake), zero
        if then == "win":
            pays = self.rules.wager(line.wager).pays
            assert pays is not None
            return self._money(pays.payout, stake, bonus)
        assert isinstance(then, Pays)
        if then.win is not None:
            return self._money(then.win, stake, bonus)
        if then.envy is not None:
            return self._envy(then.envy, stake, m)
        assert then.paytable is not None
        s0 = int(stake[m][0])
        if np.any(stake[m] != s0):  # pragma: no cover - one stake per spot
            raise ValueError("the batch engine plays one stake per wager")
        pt = self.e.paytable(then.paytable, s0)
        if then.second_combination:
            return self._second(then, pt, m, stake)
        if then.row is not None:
            pidx = np.full((self.N, self.S), pt.row_index.get(then.row, -1), np.int64)
        else:
            hand = then.hand or pt_hand(self.rules, then.paytable)
            v = self._seat_value(hand)
            pidx = np.where(v.held >= 0, pt.of_category[np.maximum(v.held, 0)], -1)
        ret = np.zeros_like(stake)
        house = np.zeros_like(stake)
        none = m & (pidx < 0)
        if none.any():
            if then.otherwise == "refuse":
                hand = then.hand or pt_hand(self.rules, then.paytable)
                v = self._seat_value(hand)
                r, s = (int(x[0]) for x in np.nonzero(none))
                ev = self.rules.evaluator(hand)
                cat = ev.categories[int(v.held[r, s])] if v.held[r, s] >= 0 else None
                raise RoundError(
                    unpaid_winner(
                        self.rules.table(then.paytable).name,
                        cat.name if cat else "the hand",
                        line.cite,
                    )
                )
            if then.otherwise == "push":
                ret[none] = 0 if bonus else stake[none]
            elif then.otherwise == "lose":
                house[none] = 0 if bonus else stake[none]
        for k, payout in enumerate(pt.payouts):
            mk = m & (pidx == k)
            if not mk.any():
                continue
            if payout.kind is PayoutKind.METER:
                rounds, seats = np.nonzero(mk)
                for r, s in zip(rounds.tolist(), seats.tolist(), strict=True):
                    self.events.append(
                        (
                            r,
                            self.step_index,
                            int(seat_rank[s]),
                            line_pos,
                            s,
                            lid,
                            pt.table_id,
                            payout,
                            then.divide_among_winners,
                            row_i,
                        )
                    )
                house[mk] = 0 if bonus else stake[mk]
                continue
            r_, h_ = self._money(payout, stake, bonus)
            ret[mk] = r_[mk]
            house[mk] = h_[mk]
        return ret, house

    def _envy(self, table_id: str, stake: I64, m: B) -> tuple[I64, I64]:
        s0 = int(stake[m][0])
        pt = self.e.paytable(table_id, s0)
        hand = pt_hand(self.rules, table_id)
        v = self._seat_value(hand)
        amounts = np.array(
            [to_micro(p.amount) if p.kind is PayoutKind.FIXED else 0 for p in pt.payouts] + [0],
            np.int64,
        )
        pidx = np.where(v.held >= 0, pt.of_category[np.maximum(v.held, 0)], -1)
        each = amounts[pidx]  # -1 picks the trailing 0
        holder = self.dealt() & ~self.folded
        each = np.where(holder, each, 0)
        total = each.sum(axis=1, keepdims=True) - each
        total = np.where(m, total, 0)
        return total, -total

    def _second(self, then: Pays, pt: _PayTable, m: B, stake: I64) -> tuple[I64, I64]:
        """The second combination (§ 589.11(e)(1)(ii)) of every winning hand at once, paid at
        the table's odds on the whole wager."""
        hand = then.hand or pt_hand(self.rules, pt.table_id)
        cards, seat = self.hand_cards(hand)
        if not seat:
            cards = np.broadcast_to(cards[:, None, :], (self.N, self.S, cards.shape[-1]))
        ev = self.rules.evaluator(hand)
        index = {c.id: i for i, c in enumerate(ev.categories)}
        order = [index[c.id] for c in second_combination_order(ev.categories, pt.rows)]
        found = self.evaluator(hand).second_combination(cards[m], order)
        won = np.zeros(found.shape[0], dtype=np.int64)
        st = stake[m]
        for i in np.unique(found[found >= 0]).tolist():
            k = found == i
            won[k] = _payout_micro(st[k], pt.rows[ev.categories[i].id].ratio)
        ret = np.zeros_like(stake)
        ret[m] = won
        return ret, -ret

    # -- meters, in the chapter's order ---------------------------------------------------

    def _pay_meters(self) -> None:
        meters = self.e.meters
        last = {k: -1 for k in meters}
        zero = np.zeros(self.N + 1, np.int64)
        # the increments before round r: inc_before[r] (of the meter), res_before[r] (reserve)
        inc_before = {
            k: np.concatenate([[0], np.cumsum(self.meter_inc[k])]) if k in self.meter_inc else zero
            for k in meters
        }
        res_before = {
            k: np.concatenate([[0], np.cumsum(self.meter_res[k])]) if k in self.meter_res else zero
            for k in meters
        }

        def advance(key: str, r: int) -> None:
            """The increments of the rounds up to ``r`` (each round's before its hits)."""
            m = meters[key]
            first = last[key] + 1
            gap = r + 1 - first
            if gap > 0:
                before = inc_before[key]
                base = int(before[first])
                # the meter at the end of each round first..r, its hits aside
                m.trajectory_sum += gap * (m.amount - base) + int(before[first + 1 : r + 2].sum())
                inc = int(before[r + 1]) - base
                res = int(res_before[key][r + 1] - res_before[key][first])
                m.amount += inc
                m.reserve += res
                m.increments += inc
                m.reserve_increments += res
                m.high = max(m.high, m.amount)
                last[key] = r

        events = sorted(self.events, key=lambda e: (e[0], e[1], e[2], e[3]))
        pots: dict[tuple[int, str], int] = {}
        ways: dict[tuple[int, str], int] = {}
        for e in events:
            if e[8]:
                ways[(e[0], e[5])] = ways.get((e[0], e[5]), 0) + 1
        for r, _step, _rank, _lp, s, lid, table_id, payout, divide, _row in events:
            key = f"{table_id}/{payout.meter}"
            m = meters[key]
            advance(key, r)
            if divide and (r, lid) in pots:
                each = pots[(r, lid)]
            else:
                n = ways.get((r, lid), 1) if divide else 1
                each = int(Fraction(m.amount) * payout.share / n) // CENT * CENT
                paid = each * n
                m.paid += paid
                m.hits += 1
                if payout.share >= 1:
                    m.amount, m.reserve, funded = reset(
                        m.amount, m.reserve, paid, m.reseed, m.reserve_on_reset
                    )
                    m.funded += funded
                else:
                    m.amount -= paid
                m.low = min(m.low, m.amount)
                if divide:
                    pots[(r, lid)] = each
            self.returned[lid][r, s] = each
            self.meter_paid[r] += each
        for key in meters:
            advance(key, self.N - 1)
            meters[key].rounds += self.N

    def _payout_limit(self) -> None:
        rule = self.rules.d.payout_limit
        limit = self.rules.config.payout_limit
        if rule is None or limit is None:
            return
        lim = to_micro(limit)
        lids = [
            lid
            for lid in self.returned
            if self.rules.under_payout_limit(self.rules.line_spot(self.rules.lines[lid]))
        ]
        if not lids:
            return
        seq = np.stack([self.seq[lid] for lid in lids])  # (L, N, S)
        order = np.argsort(np.where(seq < 0, np.iinfo(np.int64).max, seq), axis=0, kind="stable")
        cum = np.zeros((self.N, self.S), np.int64)
        for k in range(len(lids)):
            pick = order[k]
            for j, lid in enumerate(lids):
                m = pick == j
                if not m.any():
                    continue
                line = self.rules.lines[lid]
                stake = (
                    np.zeros_like(cum) if line.bonus else self.stakes[self.rules.line_spot(line)]
                )
                ret = self.returned[lid]
                gain = np.where(m & (self.seq[lid] >= 0), np.maximum(ret - stake, 0), 0)
                cut = np.maximum(cum + gain - lim, 0)
                cut = np.minimum(cut, gain)
                ret -= cut
                self.house_line[lid] += cut
                cum += gain - cut


@meaning("batch", TABLE_FEATURE.id, "pays_on")
def pt_hand(rules: Rules, table_id: str) -> str:
    hand = rules.table(table_id).pays_on
    assert hand is not None
    return hand
