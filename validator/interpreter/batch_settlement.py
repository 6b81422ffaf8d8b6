"""The batch engine's settlement: every line of every seat of every round at once.

A decision table's rows become masks over (rounds, seats), the first that holds applying
(``batch_conditions``); a paytable becomes an array over the categories of its hand's
ranking (``PayTable``); a meter's share is left to ``batch_meters`` (paid in the chapter's
order); then the aggregate payout limit, in the order the lines were settled. The
settlement reads the chunk's hands and conditions and writes what each line returned, and
kept, into the chunk's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_conditions import ChunkConditions
from validator.interpreter.batch_hands import ChunkHands
from validator.interpreter.batch_kernels import (
    LOSE,
    PAY_FIXED,
    PAY_FOR,
    PAY_PUSH,
    PAY_TO,
    PUSH,
    envy_lanes,
    one_stake,
    paytable_lanes,
    row_money,
)
from validator.interpreter.batch_money import (
    I64,
    B,
    InexactMoney,
    payout_micro,
    to_micro,
)
from validator.interpreter.batch_state import ChunkState
from validator.interpreter.errors import RoundError, unpaid_winner
from validator.interpreter.rules import Rules
from validator.interpreter.second_combination import second_combination_order
from validator.model.notation import Payout, PayoutKind
from validator.model.procedure import Line, Pays
from validator.model.rows import paid_row
from validator.vocabulary import TABLE_FEATURE, meaning


class PayTable:
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
            refines = {c.id: c.refines for c in ev.categories}
            for cat in ev.categories:
                row = paid_row(cat.id, refines, rows)
                out.append(self.row_index[row] if row is not None and rows[row].pays else -1)
            self.of_category = np.array(out, dtype=np.int64)
        #: a hand's category (held + 1; 0: none) -> its row + 1 (0: the table has none)
        small = len(self.payouts) < np.iinfo(np.int8).max  # a byte each: a faster gather
        code = np.concatenate([[0], self.of_category + 1])
        self.code_of_held: NDArray[np.integer[Any]] = code.astype(np.int8 if small else np.int64)
        #: (bonus?, otherwise) -> what each row returns and keeps at this table's stake
        self.outcomes: dict[tuple[bool, str], _Outcomes] = {}


@dataclass(frozen=True, slots=True)
class _Outcomes:
    """A paytable's outcomes at one stake, by row + 1 (0: a hand the table has no row for):
    what each returns (``ret``) and keeps for the house (``house``); the rows settled lane
    by lane instead (``by_lane``: a meter's share, paid in the chapter's order, and a payout
    that is not a sum of money here) by their row index."""

    ret: I64
    house: I64
    by_lane: tuple[int, ...]
    special: B  # by row + 1: settled lane by lane


@dataclass(frozen=True, slots=True)
class _Lanes:
    """The lanes a row of a line settles: as a mask over (rounds, seats), as flat indices
    (ascending: the mask's order), and the stake at each."""

    m: B
    idx: NDArray[np.intp]
    stake: I64


class ChunkSettlement:
    """Every line settled for every round and seat at once: the rows of its decision table
    as masks (the first that holds applies), paid in micro-dollars; then the payout limit."""

    def __init__(
        self,
        rules: Rules,
        paytable: Callable[[str, int], PayTable],
        state: ChunkState,
        hands: ChunkHands,
        conditions: ChunkConditions,
    ) -> None:
        self.rules = rules
        self.paytable = paytable  # a paytable at a stake, shared between chunks
        self.state = state
        self.hands = hands
        self.conditions = conditions

    def settle(self, lines: Sequence[str], order_word: str, who: B) -> None:
        """Settle ``lines`` seat by seat in the order named, where ``who`` (rounds, seats)
        holds, each line of a seat once, a wager returned by a void not at all."""
        state = self.state
        S = state.S
        order = list(range(S)) if order_word == "from_dealer_left" else list(range(S - 1, -1, -1))
        seat_rank = np.empty(S, dtype=np.int64)
        seat_rank[order] = np.arange(S)
        for li, lid in enumerate(lines):
            line = self.rules.lines[lid]
            spot = self.rules.line_spot(line)
            if spot not in state.stakes:
                continue
            stake = state.stakes[spot]
            lanes = (stake > 0) & who
            if lid in state.settled:
                lanes &= ~state.settled[lid]
            lanes &= state.standing.get(spot, True)
            if not lanes.any():
                continue
            self._settle_line(lid, line, lanes, stake, seat_rank, li)

    def _settle_line(
        self, lid: str, line: Line, lanes: B, stake: I64, seat_rank: I64, line_pos: int
    ) -> None:
        """The first row of the line's table that holds, lane by lane; each row's outcome
        computed for the lanes (flat indices over rounds and seats) it applies to only."""
        state = self.state
        N, S = state.N, state.S
        open_ = lanes.copy()
        chosen = []
        for row in line.rows:
            if open_.any():
                m = self.conditions.cond(row.when, line.on, open_)
            else:  # every lane settled by a row above: the rows below hold at none
                m = np.zeros_like(open_)
            chosen.append(m)
            open_ ^= m  # m is a part of open_
        if open_.any():
            raise ValueError(f"no row of settlement line {lid!r} applies to some rounds")
        if lid not in state.returned:  # a line's arrays made once, where it is first settled
            state.returned[lid] = np.zeros((N, S), np.int64)
            state.house_line[lid] = np.zeros((N, S), np.int64)
        ret, house = state.returned[lid], state.house_line[lid]
        state.settled[lid] = state.settled[lid] | lanes if lid in state.settled else lanes.copy()
        state.counter += 1
        state.seq.setdefault(lid, []).append((state.counter, lanes))
        flat_stake = stake.reshape(-1)
        for i, (row, m) in enumerate(zip(line.rows, chosen, strict=True)):
            if not m.any() or self._compiled(line, row.then, m, stake, ret, house):
                continue
            idx = np.flatnonzero(m)
            lane = _Lanes(m, idx, flat_stake[idx])
            r, h = self._outcome(lid, line, row.then, lane, seat_rank, line_pos, i)
            if r is not None:  # each lane is settled once a line: where None, it stays 0
                _flat(ret)[idx] = r
            if h is not None:
                _flat(house)[idx] = h

    def _compiled(self, line: Line, then: Any, m: B, stake: I64, ret: I64, house: I64) -> bool:
        """A row's outcome at its lanes in one compiled pass, where it is a loss, a push, a
        payout of the stake, or a paytable's row by the hand's category at one stake;
        False where the row is left to ``_outcome`` (nothing written then that it does
        not write again)."""
        lanes, st = m.reshape(-1), stake.reshape(-1)
        if then in ("lose", "none") or then == "push":
            kind = LOSE if then != "push" else PUSH
            row_money(lanes, st, kind, 0, 1, 0, line.bonus, _flat(ret), _flat(house))
            return True
        if not isinstance(then, Pays | str):
            return False
        payout = None
        if then == "win":
            pays = self.rules.wager(line.wager).pays
            payout = pays.payout if pays is not None else None
        elif isinstance(then, Pays) and then.win is not None:
            payout = then.win
        if payout is not None:
            return self._compiled_money(payout, lanes, st, line.bonus, ret, house)
        if not isinstance(then, Pays) or then.paytable is None or then.second_combination:
            return False
        if then.row is not None or then.envy is not None:
            return False
        most = one_stake(st)
        if most < 0:  # one stake at every lane wagered, else left to `_outcome`
            return False
        pt = self.paytable(then.paytable, most)
        held = self.hands.held(then.hand or pt_hand(self.rules, then.paytable))
        outcomes = self._outcomes(pt, most, line.bonus, then.otherwise)
        none, special = paytable_lanes(
            lanes,
            np.ascontiguousarray(held).reshape(-1),
            0 if held.ndim == 2 else self.state.S,
            pt.code_of_held,
            outcomes.ret,
            outcomes.house,
            outcomes.special,
            _flat(ret),
            _flat(house),
        )
        return not special and not (none and then.otherwise == "refuse")

    def _compiled_money(
        self, payout: Payout, lanes: B, st: I64, bonus: bool, ret: I64, house: I64
    ) -> bool:
        """``_money`` of a payout at the lanes, in one compiled pass (False: left to it)."""
        kind = _KINDS.get(payout.kind)
        if kind is None:
            return False
        num, den, amount = 0, 1, 0
        if kind == PAY_FIXED:
            amount = to_micro(payout.amount)
        elif kind != PAY_PUSH:
            num, den = payout.ratio.numerator, payout.ratio.denominator
            if int(st.max(initial=0)) * num >= 1 << 62:  # beyond int64: left to Python
                return False
        row_money(lanes, st, kind, num, den, amount, bonus, _flat(ret), _flat(house))
        return True

    def _lane(self, a: NDArray[Any], idx: NDArray[np.intp]) -> NDArray[Any]:
        """A per-seat ``(N, S)`` or per-round ``(N,)`` array at lanes (flat indices)."""
        return a.reshape(-1)[idx] if a.ndim == 2 else a[idx // self.state.S]

    def _money(self, payout: Payout, stake: I64, bonus: bool) -> tuple[I64, I64]:
        """(returned, house result) of a payout, for every lane of ``stake``."""
        match payout.kind:
            case PayoutKind.TO:
                win = payout_micro(stake, payout.ratio)
                return (win if bonus else stake + win), -win
            case PayoutKind.FOR:
                back = payout_micro(stake, payout.ratio)
                return back, (-back if bonus else stake - back)
            case PayoutKind.PUSH:
                zero = np.zeros_like(stake)
                return (zero if bonus else stake.copy()), zero
            case PayoutKind.FIXED:
                amt = np.full_like(stake, to_micro(payout.amount))
                return (amt if bonus else stake + amt), -amt
        raise AssertionError(payout.kind)

    def _outcome(
        self,
        lid: str,
        line: Line,
        then: Any,
        lane: _Lanes,
        seat_rank: I64,
        line_pos: int,
        row_i: int,
    ) -> tuple[I64 | None, I64 | None]:
        """(returned, house result) of a row's outcome at its lanes; None: nothing."""
        bonus = line.bonus
        stake = lane.stake
        if then in ("lose", "none"):
            return None, (None if bonus else stake)
        if then == "push":
            return (None if bonus else stake), None
        if then == "win":
            pays = self.rules.wager(line.wager).pays
            assert pays is not None
            return self._money(pays.payout, stake, bonus)
        assert isinstance(then, Pays)
        if then.win is not None:
            return self._money(then.win, stake, bonus)
        if then.envy is not None:
            return self._envy(then, lane)
        assert then.paytable is not None
        s0 = int(stake[0])
        if np.any(stake != s0):  # pragma: no cover - one stake per spot
            raise ValueError("the batch engine plays one stake per wager")
        pt = self.paytable(then.paytable, s0)
        if then.second_combination:
            return self._second(then, pt, lane)
        code: NDArray[np.integer[Any]]
        if then.row is not None:
            code = np.full(stake.size, pt.row_index.get(then.row, -1) + 1, np.int64)
        else:
            held = self._lane(
                self.hands.held(then.hand or pt_hand(self.rules, then.paytable)),
                lane.idx,
            )
            code = pt.code_of_held.take(held + 1)
        if then.otherwise == "refuse":
            none = code == 0
            if none.any():
                hand = then.hand or pt_hand(self.rules, then.paytable)
                r, s = divmod(int(lane.idx[none][0]), self.state.S)
                v = self.hands.seat_value(hand)
                ev = self.rules.evaluator(hand)
                cat = ev.categories[int(v.held[r, s])] if v.held[r, s] >= 0 else None
                raise RoundError(
                    unpaid_winner(
                        self.rules.table(then.paytable).name,
                        cat.name if cat else "the hand",
                        line.cite,
                    )
                )
        outcomes = self._outcomes(pt, s0, bonus, then.otherwise)
        ret = outcomes.ret.take(code)
        house = outcomes.house.take(code)
        for k in outcomes.by_lane:
            payout = pt.payouts[k]
            sel = np.flatnonzero(code == k + 1)
            if not sel.size:
                continue
            if payout.kind is PayoutKind.METER:
                for flat in lane.idx[sel].tolist():
                    r, s = divmod(flat, self.state.S)
                    self.state.events.append(
                        (
                            r,
                            self.state.step_index,
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
                house[sel] = 0 if bonus else stake[sel]
                continue
            ret[sel], house[sel] = self._money(payout, stake[sel], bonus)
        return ret, house

    def _outcomes(self, pt: PayTable, stake: int, bonus: bool, otherwise: str) -> _Outcomes:
        """What each row of a paytable returns and keeps at one stake (made once a table):
        a hand it has no row for as ``otherwise`` says, a meter's share and a payout that
        is not a sum of money (not offered, inexact) left to the lanes that hold them."""
        key = (bonus, otherwise)
        if key in pt.outcomes:
            return pt.outcomes[key]
        one = np.array([stake], dtype=np.int64)
        ret = [stake if otherwise == "push" and not bonus else 0]
        house = [stake if otherwise == "lose" and not bonus else 0]
        by_lane = []
        for k, payout in enumerate(pt.payouts):
            money = None
            if payout.kind not in (PayoutKind.METER, PayoutKind.NA):
                with suppress(InexactMoney):  # refused again at a lane that holds the row
                    money = self._money(payout, one, bonus)
            if money is None:
                by_lane.append(k)
                ret.append(0)
                house.append(0)
            else:
                ret.append(int(money[0][0]))
                house.append(int(money[1][0]))
        special = np.zeros(len(ret), dtype=bool)
        special[[k + 1 for k in by_lane]] = True
        out = _Outcomes(np.array(ret, np.int64), np.array(house, np.int64), tuple(by_lane), special)
        pt.outcomes[key] = out
        return out

    def _envy(self, then: Pays, lane: _Lanes) -> tuple[I64, I64]:
        """What every other seat's hand pays the lane's player (an Envy Bonus): the hands
        of the seats still in, and of those folded with a wager of ``envy_from_folded_with``
        standing (their cards kept to settle it)."""
        assert then.envy is not None
        table_id = then.envy
        pt = self.paytable(table_id, int(lane.stake[0]))
        hand = pt_hand(self.rules, table_id)
        held = self.hands.at_seats(self.hands.held(hand))
        amounts = np.array(  # by row + 1; 0: a hand the table has no row for
            [0] + [to_micro(p.amount) if p.kind is PayoutKind.FIXED else 0 for p in pt.payouts],
            np.int64,
        )
        kept = np.zeros_like(self.state.folded)
        for w in then.envy_from_folded_with:
            if w in self.state.stakes:
                kept |= self.state.stakes[w] > 0
        holder = self.hands.dealt() & (~self.state.folded | kept)
        total = np.empty(lane.idx.size, np.int64)
        envy_lanes(
            _lanes(held), self.state.S, pt.code_of_held, amounts, _lanes(holder),
            lane.idx.astype(np.int64, copy=False), total,
        )  # fmt: skip
        return total, -total

    def _second(self, then: Pays, pt: PayTable, lane: _Lanes) -> tuple[I64, I64]:
        """The second combination (§ 589.11(e)(1)(ii)) of every winning hand at once, paid at
        the table's odds on the whole wager."""
        hand = then.hand or pt_hand(self.rules, pt.table_id)
        cards, seat = self.hands.hand_cards(hand)
        # the lanes' rows taken by their flat indices (a mask's selection is slower)
        if seat:
            rows = np.ascontiguousarray(cards).reshape(-1, cards.shape[-1])
            cards = np.take(rows, lane.idx, axis=0)
        else:  # the round's hand, at each of its lanes
            cards = np.take(cards, lane.idx // self.state.S, axis=0)
        ev = self.rules.evaluator(hand)
        index = {c.id: i for i, c in enumerate(ev.categories)}
        order = [index[c.id] for c in second_combination_order(ev.categories, pt.rows)]
        held = self._lane(
            np.ascontiguousarray(self.hands.at_seats(self.hands.held(hand))), lane.idx
        )
        found = self.hands.evaluator(hand).second_combination(cards, order, held)
        won = np.zeros(found.shape[0], dtype=np.int64)
        st = lane.stake
        for i in np.unique(found[found >= 0]).tolist():
            k = found == i
            won[k] = payout_micro(st[k], pt.rows[ev.categories[i].id].ratio)
        return won, -won

    # -- payout limit ---------------------------------------------------------------------

    def payout_limit(self) -> None:
        rule = self.rules.d.payout_limit
        limit = self.rules.config.payout_limit
        if rule is None or limit is None:
            return
        lim = to_micro(limit)
        state = self.state
        lids = [
            lid
            for lid in state.returned
            if self.rules.under_payout_limit(self.rules.line_spot(self.rules.lines[lid]))
        ]
        if not lids:
            return
        most = sum(int(state.returned[lid].max(initial=0)) for lid in lids)
        if most <= lim:
            return  # no lane's lines, all of them together, return as much as the limit
        gains = [self._gain(lid) for lid in lids]
        if int(sum(gains, np.zeros((state.N, state.S), np.int64)).max(initial=0)) <= lim:
            return  # no lane's winnings, all its lines together, reach the limit
        seq = np.stack([self._seq(lid) for lid in lids])  # (L, N, S)
        order = np.argsort(np.where(seq < 0, np.iinfo(np.int64).max, seq), axis=0, kind="stable")
        cum = np.zeros((state.N, state.S), np.int64)
        for k in range(len(lids)):
            pick = order[k]
            for j, lid in enumerate(lids):
                m = pick == j
                if not m.any():
                    continue
                ret = state.returned[lid]
                gain = np.where(m, gains[j], 0)
                cut = np.maximum(cum + gain - lim, 0)
                cut = np.minimum(cut, gain)
                ret -= cut
                state.house_line[lid] += cut
                cum += gain - cut

    def _gain(self, lid: str) -> I64:
        """What a settled line won beyond its wager (a bonus line: all it returned)."""
        line = self.rules.lines[lid]
        ret = self.state.returned[lid]
        stake = 0 if line.bonus else self.state.stakes[self.rules.line_spot(line)]
        return np.where(self.state.settled[lid], np.maximum(ret - stake, 0), 0)

    def _seq(self, lid: str) -> I64:
        """When each lane of a line was settled (the settlement's number; -1: never)."""
        out = np.full((self.state.N, self.state.S), -1, np.int64)
        for counter, lanes in self.state.seq.get(lid, []):
            out[lanes] = counter
        return out


_KINDS = {
    PayoutKind.TO: PAY_TO,
    PayoutKind.FOR: PAY_FOR,
    PayoutKind.PUSH: PAY_PUSH,
    PayoutKind.FIXED: PAY_FIXED,
}


def _lanes(a: NDArray[Any]) -> NDArray[Any]:
    """An ``(N, S)`` array's lanes as one C-ordered axis (a copy where it is not
    C-contiguous)."""
    return np.ascontiguousarray(a).reshape(-1)


def _flat(a: I64) -> I64:
    """A C-contiguous array's elements as one axis, a view written through."""
    assert a.flags.c_contiguous
    return a.reshape(-1)


@meaning("batch", TABLE_FEATURE.id, "pays_on")
def pt_hand(rules: Rules, table_id: str) -> str:
    hand = rules.table(table_id).pays_on
    assert hand is not None
    return hand
