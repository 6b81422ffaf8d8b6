"""The batch engine's decisions: the players' choices, for every round and seat at once.

The choice is the decisions as made (a golden round replayed, ``Scripted``), else the
strategy's first row that holds, else the step's default, each row a mask over (rounds,
seats). The option chosen places its wager (a multiple outside the range the rules allow
for the hand is refused, citing the rule, as the scalar engine refuses it), pays its fee,
folds, or asks for a draw, whose count of cards its option bounds (§ 589.11(d)(2)(i)(B)).
The decisions read the chunk's hands and conditions and write the choices into its state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.actions import parse_action
from validator.interpreter.batch_conditions import ChunkConditions
from validator.interpreter.batch_hands import ChunkHands
from validator.interpreter.batch_kernels import (
    ask_draw,
    follow_rule,
    gather,
    pay_fee,
    place_wager,
)
from validator.interpreter.batch_money import I64, B
from validator.interpreter.batch_state import ChunkState
from validator.interpreter.errors import RoundError
from validator.interpreter.rules import Rules
from validator.model.procedure import DecideStep, Option, Strategy


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


class ChunkDecisions:
    """Each player asked decides, by the decisions as made or the strategy; the option
    taken places its wager at a multiple its rules allow, pays a fee, folds or asks for a
    draw."""

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | None,
        scripted: dict[str, Scripted],
        state: ChunkState,
        hands: ChunkHands,
        conditions: ChunkConditions,
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.scripted = scripted  # decision id -> the decisions as made
        self.state = state
        self.hands = hands
        self.conditions = conditions

    def decide(self, step: DecideStep) -> None:
        """Every seat asked (dealt in, not folded, the step's players) decides; the option
        each chose is recorded and applied."""
        state, cond = self.state, self.conditions.cond
        N, S = state.N, state.S
        names = list(step.options)
        state.choice_names[step.id] = names
        chosen = np.full((N, S), -1, dtype=np.int64)
        asked = self.hands.dealt() & ~state.folded & cond(step.players) & ~state.voided[:, None]
        if step.when is not None:
            asked &= cond(step.when)
        # where each option is available (None: everywhere)
        available = {
            o: (cond(opt.available) if opt.available else None) for o, opt in step.options.items()
        }
        multiple = np.zeros((N, S), dtype=np.int64)  # 0: none given, -1: max
        keep = np.full((N, S), -1, dtype=np.int64)
        paired = np.zeros((N, S), dtype=bool)
        named = np.zeros((N, S), dtype=bool)
        open_ = asked.copy()
        rows = self.strategy.decisions.get(step.id, []) if self.strategy else []
        if step.id in self.scripted:  # the decisions as they were made
            rows = []
            made = self.scripted[step.id]
            m = open_ & (made.option >= 0)
            chosen[m] = made.option[m]
            multiple[m] = made.multiple[m]
            if made.keep_highest is not None:
                keep[m] = made.keep_highest[m]
            if made.keep_cards is not None:
                if state.pending_cards is None:
                    state.pending_cards = np.zeros(state.player.shape, bool)
                state.pending_cards[m] = made.keep_cards[m]
                named[m] = True
            open_ &= ~m
        # the rule each lane follows (the strategy's first row that holds, else the
        # default): its number in `which` (0: none), what it says in `said` (choice,
        # multiple, keep, paired), looked up once for every lane
        which = np.zeros((N, S), np.int16)
        said: list[tuple[int, int, int, bool]] = [(-1, 0, -1, False)]
        assert open_.flags.c_contiguous  # written through its flat view
        for row in rows:
            if isinstance(row.then, str):
                a = parse_action(row.then)
                k_keep, k_paired = -1, False
            else:
                a = parse_action(row.then.option)
                k_keep, k_paired = row.then.keep.highest, row.then.keep.paired
            if a.option not in available:
                continue
            m = cond(row.when, within=open_)
            where = available[a.option]
            if where is not None:
                m &= where
            # m is a part of open_: no rule there yet
            if not follow_rule(_flat(m), len(said), _flat(which), _flat(open_)):
                continue
            mult = -1 if a.multiple == "max" else int(a.multiple or 0)
            said.append((names.index(a.option), mult, k_keep, k_paired))
        if open_.any():
            fallback = step.default if step.default is not None else None
            for o in [fallback] if fallback else names:
                where = available[o]
                m = open_.copy() if where is None else open_ & where
                which += m * np.int16(len(said))
                said.append((names.index(o), 0, -1, False))
                open_ ^= m
        if len(said) > 1:
            assert len(said) < np.iinfo(np.int16).max
            got = which > 0 if step.id in self.scripted else None
            said_chosen, said_multiple, said_keep, said_paired = zip(*said, strict=True)
            chosen = _said(said_chosen, which, got, chosen)
            multiple = _said(said_multiple, which, got, multiple)
            keep = _said(said_keep, which, got, keep)
            paired = _said(said_paired, which, got, paired)
        state.decided[step.id] = chosen
        for o, opt in step.options.items():
            m = chosen == names.index(o)
            if not m.any():
                continue
            self.apply(step, opt, m, multiple, keep, paired, named)

    def apply(
        self,
        step: DecideStep,
        opt: Option,
        m: B,
        multiple: I64,
        keep: I64,
        paired: B,
        named: B,
    ) -> None:
        """What the option does where ``m`` (rounds, seats) chose it."""
        state = self.state
        if opt.fold:
            state.folded |= m
        if opt.wager is not None:
            wager = self.rules.wager(opt.wager)
            assert wager.amount is not None
            lo, hi = self._multiple_range(opt, step.id)
            base = state.stakes[wager.amount.of]
            placed = (
                state.stakes[opt.wager].copy() if opt.wager in state.stakes else np.zeros_like(base)
            )
            added = np.zeros(state.N, dtype=np.int64)
            # the most where -1 was said, the least where 0 (none given)
            lanes = [_flat(a) for a in (m, multiple, lo, hi, base, placed)]
            if place_wager(lanes[0], lanes[1], lanes[2], lanes[3], lanes[4], lanes[5], added):
                mult = multiple + (multiple == 0) * lo + (multiple == -1) * (hi + 1)
                bad = m & ((mult < lo) | (mult > hi))
                self._refuse_multiple(step, opt, bad, mult, lo, hi)
            state.stakes[opt.wager] = placed
            state.wagered += added
        if opt.fee is not None:
            fee_def = self.rules.d.options_fee
            assert fee_def is not None
            times = int(fee_def.amount.min or 1)
            stake = state.stakes[fee_def.amount.of]
            assert state.fees.flags.c_contiguous  # written through its flat view
            pay_fee(_flat(m), _flat(stake), times, _flat(state.fees), state.wagered, state.house)
        if opt.draw is not None:
            if not any(o is opt for o in state.draw_options):
                state.draw_options.append(opt)
            index = next(i for i, o in enumerate(state.draw_options) if o is opt)
            at = [_flat(a) for a in (m, keep, paired, named)]
            pending = [
                state.pending_option, state.pending_kind, state.pending_keep,
                state.pending_paired, state.pending_named,
            ]  # fmt: skip
            assert all(a.flags.c_contiguous for a in pending)  # written through flat views
            p = [_flat(a) for a in pending]
            kind = 1 if opt.draw == "add" else 2
            ask_draw(at[0], index, kind, at[1], at[2], at[3], p[0], p[1], p[2], p[3], p[4])

    def _refuse_multiple(
        self, step: DecideStep, opt: Option, bad: B, mult: I64, lo: I64, hi: I64
    ) -> None:
        """A wager placed at a multiple the rules do not allow there is refused, citing the
        rule that sets the range, as the scalar engine refuses it."""
        r, s = (int(x[0]) for x in np.nonzero(bad))

        def at_least(hand: str, category: str) -> bool:
            strength = self.rules.evaluator(hand).strength(category)
            thr = self.hands.evaluator(hand).pack_key((strength,))
            return bool(self.hands.at_seats(self.hands.value(hand).key)[r, s] >= thr)

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
        N, S = self.state.N, self.state.S
        # the first rule that holds at each lane (its number in `which`; 0: none), and the
        # least and the most each rule allows, looked up once for every lane
        least, most = [amount.min or 1], [amount.max or amount.min or 1]
        which = np.zeros((N, S), dtype=np.int16)
        open_ = np.ones((N, S), bool)
        for rule in amount.rules:
            w = rule.when
            if w.decision is not None and w.decision != decision:
                continue
            m = open_.copy()
            if w.hand is not None and w.at_least is not None:
                v = self.hands.value(w.hand)
                ev = self.rules.evaluator(w.hand)
                thr = self.hands.evaluator(w.hand).pack_key((ev.strength(w.at_least),))
                m &= self.hands.at_seats(v.key) >= thr
            which += m * np.int16(len(least))  # m is a part of open_: no rule there yet
            least.append(rule.min or 1)
            most.append(rule.max or 1)
            open_ &= ~m
        assert len(least) < np.iinfo(np.int16).max
        return _taken(least, which, np.int64), _taken(most, which, np.int64)

    def exchanges_allowed(self, exchanged: B, counts: I64) -> bool:
        """Whether every exchange (``exchanged``, rounds × seats) replaced a number of cards
        its option allows, every seat at once; where not, ``check_exchange`` seat by seat
        refuses the first."""
        if not exchanged.any():
            return True
        at = np.flatnonzero(exchanged)  # flat indices: faster than a mask's selection
        chosen = self.state.pending_option.reshape(-1)[at]
        n = counts.reshape(-1)[at]
        one = chosen.min() == chosen.max()
        options = [int(chosen[0])] if one else np.unique(chosen).tolist()
        for i in options:
            rng = self.rules.draw_cards(self.state.draw_options[i])
            if rng is None:
                continue
            of = n if one else n[chosen == i]
            if bool(((of < rng[0]) | (of > rng[1])).any()):
                return False
        return True

    def check_exchange(self, rows: I64, s: int, counts: I64) -> None:
        """An exchange of a number of cards its option does not allow (Lunar Poker's two to
        five, § 589.11(d)(2)(i)(B)) is refused, as the scalar engine refuses it."""
        chosen = self.state.pending_option[rows, s]
        options = np.flatnonzero(np.bincount(chosen)) if chosen.min(initial=0) >= 0 else None
        for i in (np.unique(chosen) if options is None else options).tolist():
            opt = self.state.draw_options[i]
            rng = self.rules.draw_cards(opt)
            n = counts[chosen == i]
            bad = (n < rng[0]) | (n > rng[1]) if rng else np.zeros(n.shape, bool)
            if bad.any():
                assert rng is not None
                raise RoundError(
                    f"seat {s + 1}: an exchange is of {rng[0]} to {rng[1]} cards, not "
                    f"{int(n[bad][0])} ({opt.cite})"
                )


def _said(values: tuple[Any, ...], which: NDArray[np.int16], got: B | None, was: Any) -> Any:
    """Each lane's value under the rule it follows (``which``: its index in ``values``);
    where ``got`` is false (a decision as it was made), the value it had."""
    if got is None and len(set(values)) == 1:  # one value said everywhere
        return np.full(which.shape, values[0], dtype=was.dtype)
    out = _taken(values, which, was.dtype)
    return out if got is None else np.where(got, out, was)


def _taken(values: Sequence[Any], which: NDArray[np.int16], dtype: Any) -> NDArray[Any]:
    """``values`` (ints, or booleans) at each lane's index in ``which``, as ``dtype``."""
    out = np.empty(which.shape, dtype=dtype)
    dst = out.view(np.uint8) if out.dtype == np.bool_ else out  # a boolean as its byte
    gather(np.array(values, dtype=dst.dtype), _flat(which), dst.reshape(-1))
    return out


def _flat(a: NDArray[Any]) -> NDArray[Any]:
    """An ``(N, S)`` array's lanes as one axis (C order): a view of a C-contiguous array."""
    return np.ascontiguousarray(a).reshape(-1)
