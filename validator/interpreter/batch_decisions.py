"""The batch engine's decisions: what an option chosen does, for every round and seat at once.

The choice itself is made in the ``decide`` step (``batch._Chunk``): the decisions as made
(a golden round replayed, ``Scripted``) or the strategy's rows as masks. Here it places its
wager (a multiple outside the range the rules allow for the hand is refused, citing the
rule, as the scalar engine refuses it), pays its fee, folds, or asks for a draw, whose
count of cards its option bounds (§ 589.11(d)(2)(i)(B)).
"""

from __future__ import annotations

import numpy as np

from validator.interpreter.batch_money import I64, B, row_sums
from validator.interpreter.batch_settlement import ChunkSettlement
from validator.interpreter.errors import RoundError
from validator.model.procedure import DecideStep, Option


class ChunkDecisions(ChunkSettlement):
    """What an option chosen does, for every round and seat that chose it: a wager placed
    at a multiple its rules allow, a fee paid, a fold, a draw asked for."""

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
            self.wagered += row_sums(st)
        if opt.fee is not None:
            fee_def = self.rules.d.options_fee
            assert fee_def is not None
            fee = np.where(m, self.stakes[fee_def.amount.of] * (fee_def.amount.min or 1), 0)
            self.fees += fee
            self.wagered += row_sums(fee)
            self.house += row_sums(fee)
        if opt.draw is not None:
            if not any(o is opt for o in self.draw_options):
                self.draw_options.append(opt)
            index = next(i for i, o in enumerate(self.draw_options) if o is opt)
            np.putmask(self.pending_option, m, index)
            np.putmask(self.pending_kind, m, 1 if opt.draw == "add" else 2)
            np.putmask(self.pending_keep, m, np.maximum(keep, 0))
            np.putmask(self.pending_paired, m, paired)
            np.putmask(self.pending_named, m, named)

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
