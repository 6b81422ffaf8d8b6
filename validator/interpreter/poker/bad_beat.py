"""Bad Beat payouts (§ 553.20): a contribution from each pot to a separate fund, after the
rake; payouts from that fund when a predesignated high hand loses.

The Rules Submission states (§ 553.20(b)) the most that can be contributed from each pot and
how the contribution is calculated, the minimum pot for a contribution, and the qualifying
hands and payouts. Here:

- the contribution is a fixed amount or a percentage (rounded down to the table's smallest
  chip) of the round's pot after the rake, at most the stated maximum, and nothing when the
  pot after the rake is less than the minimum; it is segregated from the main pot first
  (the pot the dealer awards last, § 553.7(e)(6));
- a Bad Beat is a losing hand of the main pot at the showdown that ranks at least the
  qualifying category; the best such losing hand takes the losing share of the fund (ties
  divide it), the main pot's winner the winning share, the other players dealt in the
  table share; shares are of the fund including this round's contribution, rounded down to
  the cent, and what is not paid stays in the fund.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from validator.interpreter.poker.money import Cents, dollar_text
from validator.interpreter.poker.pots import Pot
from validator.interpreter.poker.showdown import ShownHand
from validator.model.notation import format_rate
from validator.model.registry import Game


@dataclass(frozen=True)
class BadBeatRule:
    rate: Fraction | None = None
    amount: Cents | None = None
    max: Cents | None = None
    min_pot: Cents = 0
    fund: Cents = 0
    hand: str = "high"
    at_least: str = "four_of_a_kind"
    losing_share: Fraction = Fraction(0)
    winning_share: Fraction = Fraction(0)
    table_share: Fraction = Fraction(0)


@dataclass
class BadBeatResult:
    contribution: Cents
    contribution_reason: str
    by_pot: list[Cents]
    fund_before: Cents
    hit: bool = False
    hit_reason: str = ""
    payouts: dict[int, Cents] = field(default_factory=dict)
    payout_reasons: dict[int, str] = field(default_factory=dict)

    @property
    def fund_after(self) -> Cents:
        return self.fund_before + self.contribution - sum(self.payouts.values())


def contribute(
    rule: BadBeatRule, pots: Sequence[Pot], after_rake: Sequence[Cents], chip: Cents, cite: str
) -> BadBeatResult:
    total = sum(after_rake)
    if total < rule.min_pot:
        return BadBeatResult(
            0,
            f"the pot after the rake, {dollar_text(total)}, is under the "
            f"{dollar_text(rule.min_pot)} minimum for a contribution [{cite}]",
            [0] * len(pots),
            rule.fund,
        )
    if rule.amount is not None:
        wanted = rule.amount
        how = f"{dollar_text(rule.amount)} from the pot"
    else:
        assert rule.rate is not None
        wanted = int(total * rule.rate // chip) * chip
        how = f"{format_rate(rule.rate)} of the {dollar_text(total)} pot after the rake"
    take = min(wanted, total if rule.max is None else min(rule.max, total))
    if rule.max is not None and wanted > rule.max:
        how += f", at most {dollar_text(rule.max)}"
    by_pot = []
    left = take
    for amount in after_rake:
        t = min(left, amount)
        by_pot.append(t)
        left -= t
    return BadBeatResult(
        take,
        f"{how}: {dollar_text(take)}, segregated after the rake [{cite}]",
        by_pot,
        rule.fund,
    )


def pay(
    result: BadBeatResult,
    rule: BadBeatRule,
    game: Game,
    main: Pot,
    winners: Sequence[int],
    hands: dict[int, ShownHand],
    dealt_in: Sequence[int],
    cite: str,
) -> None:
    """Fill in the payouts when the main pot's showdown was a Bad Beat."""
    if len(main.eligible) < 2 or not winners:
        result.hit_reason = "no showdown for the main pot: no Bad Beat"
        return
    ev = game.evaluator(rule.hand)
    losers = []
    for seat in main.eligible:
        if seat in winners:
            continue
        value = hands[seat].high if rule.hand == "high" else hands[seat].low
        if value is not None and ev.at_least(value, rule.at_least):
            losers.append((seat, value))
    floor = ev.category(rule.at_least).name
    if not losers:
        result.hit_reason = f"no losing hand of {floor} or better"
        return
    top = max(v.key for _, v in losers)
    losing = [s for s, v in losers if v.key == top]
    others = [s for s in dealt_in if s not in losing and s not in winners]
    fund = result.fund_before + result.contribution
    result.hit = True
    result.hit_reason = (
        f"seat {', '.join(map(str, losing))} lost with {hands[losing[0]].describe(rule.hand)}, "
        f"at least {floor}: a Bad Beat [{cite}]"
    )
    for seats, share, what in (
        (losing, rule.losing_share, "losing hand"),
        (list(winners), rule.winning_share, "winning hand"),
        (others, rule.table_share, "table share"),
    ):
        if not seats or not share:
            continue
        each = int(fund * share / len(seats))
        for s in seats:
            result.payouts[s] = result.payouts.get(s, 0) + each
            result.payout_reasons[s] = (
                f"Bad Beat {what}: {format_rate(share)} of the {dollar_text(fund)} fund"
                + (f" shared by {len(seats)}" if len(seats) > 1 else "")
            )
