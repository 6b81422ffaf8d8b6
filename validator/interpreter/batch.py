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

Where the time goes is kept to whole-chunk operations: a hand is evaluated once per deal,
and again only where its cards changed (a draw, a replaced dealer card); a row of a
decision table or of a settlement line is found for every lane at once, and its outcome
computed only at the lanes it applies to; a stake that is the same everywhere is paid by
one product; the figures a step reads more than once (who was dealt, the comparison, the
ranks held) are kept until the cards change.

The chunk stands on ``batch_hands`` (its state and the hands it holds), ``batch_settlement``
(the decision tables as masks, the payout limit), ``batch_decisions`` (what an option
chosen does) and ``batch_meters`` (the meters, hit by hit); money is ``batch_money``.
``tests/test_scalar_batch_property.py`` holds both engines to the same settlement, wager by
wager, over every banking game, strategy and table setting.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.actions import parse_action
from validator.interpreter.batch_decisions import ChunkDecisions
from validator.interpreter.batch_hands import RANK, all_last, among, any_last
from validator.interpreter.batch_meters import BatchMeter, pay_meters
from validator.interpreter.batch_money import (
    I64,
    B,
    frac_micro,
    from_micro,
    row_sums,
    to_micro,
)
from validator.interpreter.batch_settlement import PayTable
from validator.interpreter.dealing import deal_order
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.model.procedure import (
    DealStep,
    DecideStep,
    DrawStep,
    QualifyStep,
    ReplaceStep,
    RevealStep,
    SettleStep,
    Strategy,
    TableSystemStep,
    WagersStep,
    When,
)
from validator.rankings.batch import BatchEvaluator, shared_evaluator
from validator.vocabulary import CONDITION, STEP, meaning, meaning_of


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
        self._tables: dict[tuple[str, int], PayTable] = {}

    def evaluator(self, hand_id: str) -> BatchEvaluator:
        ranking = self.rules.d.hands[hand_id].ranking
        if ranking not in self._evs:
            self._evs[ranking] = shared_evaluator(self.rules.game.rankings[ranking])
        return self._evs[ranking]

    def paytable(self, table_id: str, stake: int) -> PayTable:
        key = (table_id, stake)
        if key not in self._tables:
            rows = self.rules.rows_or_stop(table_id, from_micro(stake))
            hand = self.rules.table(table_id).pays_on
            self._tables[key] = PayTable(self.rules, table_id, rows, hand)
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


class _Chunk(ChunkDecisions):
    """A chunk of rounds played at once: each step of the procedure and each condition key
    by its meaning in the vocabulary."""

    # -- running ------------------------------------------------------------------------

    def play(self) -> ChunkResult:
        self._void_rounds()
        for i, step in enumerate(self.rules.procedure):
            self.step_index = i
            meaning_of(STEP.id, step.step, "batch")(self, step)
        self._settle_voided()
        pay_meters(
            self.e.meters,
            self.events,
            self.meter_inc,
            self.meter_res,
            self.N,
            self.returned,
            self.meter_paid,
        )
        self._payout_limit()
        returned_spot: dict[str, I64] = {
            s: np.zeros((self.N, self.S), np.int64) for s in self.stakes
        }
        for lid, r in self.returned.items():
            spot = self.rules.line_spot(self.rules.lines[lid])
            returned_spot[spot] += r
            self.house += row_sums(self.house_line[lid])
        for spot, stands in self.standing.items():  # a voided wager is returned
            returned_spot[spot] += np.where(stands, 0, self.stakes[spot])
        ret_total = sum((row_sums(r) for r in returned_spot.values()), np.zeros(self.N, np.int64))
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
                raise ValueError("a round is voided by one irregularity, not two")
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
            self.wagered += row_sums(st)
            wager = self.rules.spot_wager(spot)
            if wager in meter_tables:
                standing = np.where(self.standing[spot], st, 0)  # a voided wager adds nothing
                for key, m in self.e.meters.items():
                    if m.table == meter_tables[wager]:
                        inc = row_sums(frac_micro(standing, m.inc))
                        res = row_sums(frac_micro(standing, m.res))
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
        # every round at the same place in its deck (no card drawn yet): columns
        same = bool(self.N) and bool((self.pos == self.pos[0]).all())

        def take(ks: list[int] | list[list[int]]) -> NDArray[np.int64]:
            k = np.array(ks, dtype=np.int64)
            if same:
                return self.decks[:, int(self.pos[0]) + k]
            shape = (-1,) + (1,) * k.ndim
            return self.decks[rows.reshape(shape), self.pos.reshape(shape) + k]

        if seats:
            # (N, S, k): each seat's cards (every seat is dealt as many)
            block = take([by.get(("player", s), []) for s in seats])
            self.player = np.concatenate([self.player, block], axis=2)
            self.player_dealt = np.concatenate([self.player_dealt, block], axis=2)
        for (group, _), ks in by.items():
            if group == "player":
                continue
            cards = take(ks)
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
        ranks = np.where(held >= 0, RANK[held], -1)
        top = ranks.max(axis=1, keepdims=True)
        # of the cards of the highest rank, the one dealt first (the held order is the dealt order)
        idx = np.argmax(ranks == top, axis=1)
        rows = np.flatnonzero(which)
        new = self.decks[rows, self.pos[rows]]
        # each row's held cards but the one replaced, in their order, then the new card
        j = np.arange(held.shape[1] - 1)[None, :]
        src = j + (j >= idx[rows][:, None])
        kept = np.concatenate([np.take_along_axis(held[rows], src, axis=1), new[:, None]], axis=1)
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
                ranks = RANK[held]
                same = (ranks[:, :, None] == ranks[:, None, :]).view(np.uint8)
                twice = np.einsum("ijk->ij", same) > 1  # cards of a rank held twice or more
                use = self.pending_paired[ex, s] & any_last(twice)
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
        # the rule each lane follows (the strategy's first row that holds, else the
        # default): its number in `which` (0: none), what it says in `said` (choice,
        # multiple, keep, paired), looked up once for every lane
        which = np.zeros((N, S), np.int16)
        said: list[tuple[int, int, int, bool]] = [(-1, 0, -1, False)]
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
            mult = -1 if a.multiple == "max" else int(a.multiple or 0)
            which += m * np.int16(len(said))
            said.append((names.index(a.option), mult, k_keep, k_paired))
            open_ &= ~m
        if open_.any():
            fallback = step.default if step.default is not None else None
            for o in [fallback] if fallback else names:
                m = open_ & available[o]
                which += m * np.int16(len(said))
                said.append((names.index(o), 0, -1, False))
                open_ &= ~m
        if len(said) > 1:
            assert len(said) < np.iinfo(np.int16).max
            got = which > 0 if step.id in self.scripted else None
            said_chosen, said_multiple, said_keep, said_paired = zip(*said, strict=True)
            chosen = _said(said_chosen, which, got, chosen)
            multiple = _said(said_multiple, which, got, multiple)
            keep = _said(said_keep, which, got, keep)
            paired = _said(said_paired, which, got, paired)
        self.decided[step.id] = chosen
        for o, opt in step.options.items():
            m = chosen == names.index(o)
            if not m.any():
                continue
            self._apply(step, opt, m, multiple, keep, paired, named)

    @meaning("batch", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        self._settle(step.lines, step.order, self.cond(step.players) & ~self.voided[:, None])

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
            out &= among(ch if ch is not None else np.full((N, S), -1), idx)
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
        return among(cmp, want)

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
                out &= among(v.held, self._chain_indices(hid, test.is_))
            if test.is_not is not None:
                out &= ~among(v.held, self._chain_indices(hid, test.is_not))
        return out

    @meaning("batch", CONDITION.id, "beats")
    def _when_beats(self, w: When, side: str) -> B:
        assert w.beats is not None
        a, b = self._seat_value(w.beats.hand), self._seat_value(w.beats.other)
        cmp = np.sign(a.key - b.key)
        return among(cmp, [{"higher": 1, "equal": 0, "lower": -1}[x] for x in w.beats.is_])

    @meaning("batch", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, side: str) -> B:
        assert w.dealer_up is not None
        up_rank = RANK[self.up]
        ok = self.up >= 0
        if w.dealer_up.rank_in is not None:
            ok = ok & among(up_rank, w.dealer_up.rank_in)
        if w.dealer_up.rank_at_least is not None:
            ok = ok & (up_rank >= w.dealer_up.rank_at_least)
        return ok[:, None]

    @meaning("batch", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(self, w: When, side: str) -> B:
        ok = (self.up >= 0)[:, None]
        has = ((self.player_ranks() >> RANK[self.up].astype(np.int32)[:, None]) & 1).astype(bool)
        return ok & ((has & ok) == w.holds_dealer_up_rank)

    @meaning("batch", CONDITION.id, "suited")
    def _when_suited(self, w: When, side: str) -> B:
        N, S = self.N, self.S
        out = np.ones((N, S), bool)
        for group, want in (w.suited or {}).items():

            def make(group: str = group) -> B:
                cards = self.player if group == "player" else self.table[group][:, None, :]
                suits = np.where(cards >= 0, cards & 3, -1)  # a card's suit: its int % 4
                return all_last((suits == suits[..., :1]) | (suits < 0))

            same = self._cached(f"suited {group}", make)
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
                return any_last(cards == drawn[:, None, None])
            return np.broadcast_to(any_last(cards == drawn[:, None])[:, None], (N, S))
        target = (
            np.zeros((N, S), np.int64)
            if side == "dealer"
            else np.broadcast_to(self.seat_numbers, (N, S))
        )
        return drawn[:, None] == target

    @meaning("batch", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, side: str) -> B:
        assert w.any_player is not None
        anyp = any_last(self.cond(w.any_player) & self.dealt())
        return anyp[:, None]


def _said(values: tuple[Any, ...], which: NDArray[np.int16], got: B | None, was: Any) -> Any:
    """Each lane's value under the rule it follows (``which``: its index in ``values``);
    where ``got`` is false (a decision as it was made), the value it had."""
    out = np.array(values, dtype=was.dtype)[which]
    return out if got is None else np.where(got, out, was)
