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

The chunk is composed of parts, each in a module of its own and each given what it reads:
``batch_state`` (the chunk's arrays: decks, cards, stakes, choices, what each line
returned), ``batch_hands`` (what each hand is worth, cached until the cards change),
``batch_conditions`` (where a `when:` holds), ``batch_decisions`` (the players' choices and
what an option chosen does) and ``batch_settlement`` (the decision tables as masks, the
payout limit); the meters are ``batch_meters`` (hit by hit), money is ``batch_money``.
``tests/test_scalar_batch_property.py`` holds both engines to the same settlement, wager by
wager, over every banking game, strategy and table setting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_conditions import ChunkConditions
from validator.interpreter.batch_decisions import ChunkDecisions, Scripted
from validator.interpreter.batch_hands import RANK, ChunkHands
from validator.interpreter.batch_kernels import draws
from validator.interpreter.batch_meters import BatchMeter, pay_meters
from validator.interpreter.batch_money import I64, B, frac_micro, from_micro, row_sums, to_micro
from validator.interpreter.batch_settlement import ChunkSettlement, PayTable
from validator.interpreter.batch_state import CARD, ChunkState
from validator.interpreter.dealing import deal_order
from validator.interpreter.rules import Rules
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
)
from validator.rankings.batch import BatchEvaluator, shared_evaluator
from validator.vocabulary import STEP, meaning, meaning_of


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
    #: spot -> (N,) what the spot returned in each round (``returned``'s row sums)
    returned_rows: dict[str, I64] = field(default_factory=dict)

    def balanced(self) -> NDArray[np.bool_]:
        """Per round: money wagered = returned + house result + increments - meter payouts."""
        return (
            self.wagered == self.returned_total + self.house + self.contributions - self.meter_paid
        )


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
        chunk = _Chunk(self, card_rows(decks), draws or {}, stakes, decided, void)
        return chunk.play()


def card_rows(decks: Any) -> NDArray[np.int8]:
    """Decks (rows of card ints 0..51) as the chunk holds cards: a byte each."""
    d = np.asarray(decks)
    if d.dtype != CARD:
        if d.size and (d.min() < 0 or d.max() > 51):
            raise ValueError("a deck's cards are the card ints 0..51")
        d = d.astype(CARD)
    return d


class _Chunk:
    """A chunk of rounds played at once: each step of the procedure by its meaning in the
    vocabulary, over the chunk's state, with its hands, conditions, decisions and
    settlement."""

    def __init__(
        self,
        engine: BatchEngine,
        decks: NDArray[np.int8],
        draws: dict[str, NDArray[np.int64]],
        stakes: dict[str, I64] | None = None,
        decided: dict[str, Scripted] | None = None,
        void: dict[str, B] | None = None,
    ) -> None:
        self.rules = rules = engine.rules
        self.meters = engine.meters
        N, S = decks.shape[0], engine.S
        if stakes is None:  # the same wagers at every seat
            stakes = {spot: np.full((N, S), v, dtype=np.int64) for spot, v in engine.wagers.items()}
        else:
            stakes = {k: np.asarray(v, dtype=np.int64) for k, v in stakes.items()}
        void_of = {k: np.asarray(v, dtype=bool) for k, v in (void or {}).items()}
        self.state = state = ChunkState(decks, draws, S, stakes, void_of)
        self.hands = hands = ChunkHands(rules, engine.evaluator, state)
        self.conditions = conditions = ChunkConditions(rules, state, hands)
        self.decisions = ChunkDecisions(
            rules, engine.strategy, decided or {}, state, hands, conditions
        )
        self.settlement = ChunkSettlement(rules, engine.paytable, state, hands, conditions)

    # -- running ------------------------------------------------------------------------

    def play(self) -> ChunkResult:
        state = self.state
        N, S = state.N, state.S
        self._void_rounds()
        for i, step in enumerate(self.rules.procedure):
            state.step_index = i
            meaning_of(STEP.id, step.step, "batch")(self, step)
        self._settle_voided()
        pay_meters(
            self.meters,
            state.events,
            state.meter_inc,
            state.meter_res,
            N,
            state.returned,
            state.meter_paid,
        )
        self.settlement.payout_limit()
        by_spot: dict[str, I64] = {}  # a spot's first line copied, the others added
        for lid, r in state.returned.items():
            spot = self.rules.line_spot(self.rules.lines[lid])
            if spot in by_spot:
                by_spot[spot] += r
            else:
                by_spot[spot] = r.copy()
            state.house += row_sums(state.house_line[lid])
        returned_spot: dict[str, I64] = {
            s: by_spot[s] if s in by_spot else np.zeros((N, S), np.int64) for s in state.stakes
        }
        for spot, stands in state.standing.items():  # a voided wager is returned
            if state.void_of and not stands.all():
                returned_spot[spot] += state.stakes[spot] * ~stands
        returned_rows = {s: row_sums(r) for s, r in returned_spot.items()}
        ret_total = sum(returned_rows.values(), np.zeros(N, np.int64))
        state.house -= state.contrib
        return ChunkResult(
            N,
            state.stakes,
            returned_spot,
            state.fees,
            state.wagered,
            ret_total,
            state.house,
            state.contrib,
            state.meter_paid,
            state.qualifies,
            state.folded,
            returned_rows,
        )

    def _void_rounds(self) -> None:
        """The rounds an irregularity voids (§ *.13), and in them the wagers that stand: those
        the irregularity still settles (``Rules.stands_in_void``); every other is returned."""
        state = self.state
        state.standing = {spot: np.ones((state.N, state.S), bool) for spot in state.stakes}
        for irregularity, rounds in state.void_of.items():
            void = self.rules.void(irregularity)
            if (rounds & state.voided).any():
                raise ValueError("a round is voided by one irregularity, not two")
            state.voided |= rounds
            for spot, stands in state.standing.items():
                if not self.rules.stands_in_void(spot, void):
                    stands[rounds] = False

    def _settle_voided(self) -> None:
        """In a voided round nothing is decided, revealed or settled but the lines the
        irregularity still settles, from the dealer's right, on the cards as dealt."""
        for irregularity, rounds in self.state.void_of.items():
            if rounds.any():
                void = self.rules.void(irregularity)
                self.state.step_index = len(self.rules.procedure)
                self.settlement.settle(void.settles, "from_dealer_right", rounds[:, None])

    # -- steps --------------------------------------------------------------------------

    @meaning("batch", STEP.id, "wagers")
    def _step_wagers(self, step: WagersStep) -> None:
        state = self.state
        meter_tables = self.rules.meter_tables()
        for spot, st in state.stakes.items():
            state.wagered += row_sums(st)
            wager = self.rules.spot_wager(spot)
            if wager in meter_tables:
                standing = st * state.standing[spot]  # a voided wager adds nothing
                for key, m in self.meters.items():
                    if m.table == meter_tables[wager]:
                        inc = row_sums(frac_micro(standing, m.inc))
                        res = row_sums(frac_micro(standing, m.res))
                        state.contrib += inc + res
                        state.meter_inc[key] = state.meter_inc.get(key, 0) + inc
                        state.meter_res[key] = state.meter_res.get(key, 0) + res

    @meaning("batch", STEP.id, "deal")
    def _step_deal(self, step: DealStep) -> None:
        state = self.state
        N, S = state.N, state.S
        if step.when_wagered and not any(  # a stake of 0 is no wager (§ 641a.8(d))
            self.rules.spot_wager(s) == step.when_wagered and bool((st > 0).any())
            for s, st in state.stakes.items()
        ):
            return
        seats = list(range(1, S + 1)) if "player" in step.cards else []
        order = deal_order(step, seats)
        rows = np.arange(N)
        by: dict[tuple[str, int], list[int]] = {}
        for k, who in enumerate(order):
            if who[0] != "burn":
                by.setdefault(who, []).append(k)
        # every round at the same place in its deck (no card drawn yet): columns
        same = bool(N) and bool((state.pos == state.pos[0]).all())
        decks, pos = state.decks, state.pos

        def take(ks: list[int] | list[list[int]]) -> NDArray[np.int8]:
            k = np.array(ks, dtype=np.int64)
            if same:
                return decks[:, int(pos[0]) + k]
            shape = (-1,) + (1,) * k.ndim
            return decks[rows.reshape(shape), pos.reshape(shape) + k]

        if seats:
            # (N, S, k): each seat's cards (every seat is dealt as many), laid out seat by
            # seat: a hand of these and the table's cards is then put together in one pass
            block = np.ascontiguousarray(take([by.get(("player", s), []) for s in seats]))
            if state.player.shape[2]:
                state.player = np.concatenate([state.player, block], axis=2)
                state.player_dealt = np.concatenate([state.player_dealt, block], axis=2)
            else:  # the first cards: as taken (two arrays: a draw changes the held only)
                state.player, state.player_dealt = block, block.copy()
        for (group, _), ks in by.items():
            if group == "player":
                continue
            cards = take(ks)
            state.table[group] = np.concatenate(
                [state.table.get(group, np.zeros((N, 0), CARD)), cards], axis=1
            )
            state.table_dealt[group] = np.concatenate(
                [state.table_dealt.get(group, np.zeros((N, 0), CARD)), cards], axis=1
            )
        for group, positions in step.face_up.items():
            if group == "dealer" and state.up[0] < 0:
                state.up = state.table_dealt["dealer"][:, positions[0] - 1]
        state.pos += len(order)
        state.version += 1

    @meaning("batch", STEP.id, "table_system")
    def _step_table_system(self, step: TableSystemStep) -> None:
        state = self.state
        state.events_drawn = {
            k: state.draws[k] for k in step.draws if k in state.draws and self.rules.draw_enabled(k)
        }
        state.event_kinds = dict(step.draws)

    @meaning("batch", STEP.id, "reveal")
    def _step_reveal(self, step: RevealStep) -> None:
        pass

    @meaning("batch", STEP.id, "qualify")
    def _step_qualify(self, step: QualifyStep) -> None:
        if self.state.qualifies is None and self.rules.qualifier is not None:
            self.state.qualifies = self.hands.dealer_qualifies().copy()

    @meaning("batch", STEP.id, "replace")
    def _step_replace(self, step: ReplaceStep) -> None:
        state = self.state
        which = self.conditions.cond(step.when)[:, 0] if state.S else np.zeros(state.N, bool)
        which &= ~state.voided
        if not which.any():
            return
        rows = np.flatnonzero(which)  # the rounds replacing a card, and theirs alone
        held = state.table["dealer"][rows]
        ranks = np.where(held >= 0, RANK.take(held), -1)
        top = ranks.max(axis=1, keepdims=True)
        # of the cards of the highest rank, the one dealt first (the held order is the dealt order)
        idx = np.argmax(ranks == top, axis=1)
        new = state.decks[rows, state.pos[rows]]
        # each row's held cards but the one replaced, in their order, then the new card
        j = np.arange(held.shape[1] - 1)[None, :]
        src = j + (j >= idx[:, None])
        kept = np.concatenate([np.take_along_axis(held, src, axis=1), new[:, None]], axis=1)
        state.table["dealer"][rows] = kept
        state.pos[rows] += 1
        state.version += 1

    @meaning("batch", STEP.id, "draw")
    def _step_draw(self, step: DrawStep) -> None:
        """Draws chosen at a decision, in the players' order: a card added (a sixth card), or
        the cards an exchange does not keep (those below the ``keep`` highest, or but the
        paired ones, or but the cards named) replaced by as many from the deck."""
        state = self.state
        N, S = state.N, state.S
        order = range(S) if step.order == "from_dealer_left" else range(S - 1, -1, -1)
        k = state.player.shape[2]  # a place more: a card added, else none
        player, dealt = np.empty((N, S, k + 1), CARD), np.empty((N, S, k + 1), CARD)
        asked = self.conditions.cond(step.players)
        kind = state.pending_kind * asked
        counts = np.zeros((N, S), np.int64)
        seats = np.array(list(order), np.int64)
        draws(
            np.ascontiguousarray(state.player), np.ascontiguousarray(state.player_dealt),
            player, dealt, state.decks, state.pos, kind, state.pending_keep,
            state.pending_paired, seats, counts, state.pending_named, state.pending_cards,
        )  # fmt: skip
        state.player, state.player_dealt = player, dealt
        exchanged = kind == 2
        if not self.decisions.exchanges_allowed(exchanged, counts):
            for s in seats.tolist():  # which seat's exchange is refused, and why
                ex = np.flatnonzero(exchanged[:, s])
                if ex.size:
                    self.decisions.check_exchange(ex, s, counts[ex, s])
        state.pending_kind *= ~asked  # the draws asked for are made
        state.pending_named &= ~asked
        state.version += 1

    @meaning("batch", STEP.id, "decide")
    def _step_decide(self, step: DecideStep) -> None:
        self.decisions.decide(step)

    @meaning("batch", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        who = self.conditions.cond(step.players) & ~self.state.voided[:, None]
        self.settlement.settle(step.lines, step.order, who)
