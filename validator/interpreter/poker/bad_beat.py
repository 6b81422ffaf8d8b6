"""Bad Beat payouts (§ 553.20): a contribution from each pot to a separate fund, after the
rake; payouts from that fund when a predesignated high hand loses.

The Rules Submission states (§ 553.20(b)) the most that can be contributed from each pot and
how the contribution is calculated, the minimum pot for a contribution, and the qualifying
hands and payouts. Here:

- the contribution is taken "from each pot" (§ 553.20(c)), and a side pot is "a separate
  pot" (§ 553.1): each pot of the round, the main pot and each side pot, gives a fixed
  amount or a percentage (rounded down to the table's smallest chip) of itself after the
  rake, at most the stated maximum "from each pot" (§ 553.20(b)(1)), and nothing when it
  is less than the minimum pot after the rake (§ 553.20(b)(2));
- a Bad Beat is a losing hand of the main pot at the showdown that ranks at least the
  qualifying category (in that category, with ranking cards at least ``rank_at_least``:
  "four eights or better"), uses at least ``hole_cards`` of the player's own cards among
  its five ("both hole cards play"), and loses to a winning hand of at least
  ``beaten_by``; the best such losing hand takes the losing share of the fund (ties divide
  it), the main pot's winner the winning share, the other players dealt in the table
  share; shares are of the fund including this round's contribution, rounded down to the
  cent, and what is not paid stays in the fund.

The rule is read from the same fields whether a round file (``settle``) or a Rules
Submission (``play``, ``simulate``, ``validate``) states it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from validator.cards import RANK_PLURALS
from validator.compiler import Game
from validator.interpreter.poker.showdown import Pot, ShownHand
from validator.model.notation import format_rate
from validator.money import Cents, dollar_text

#: Why a Bad Beat qualifies the game's high hand only (the ch. 553 game file's
#: ``bad_beat.note``): the round file's and the Rules Submission's readers say it alike.
HIGH_HANDS_ONLY = (
    'a Bad Beat is "one or more predesignated high value Poker hands" held as a losing hand '
    "(§ 553.1, Bad Beat), the High Poker hands (§ 553.4(b)); its qualifying hand is the high hand"
)


@dataclass(frozen=True)
class BadBeatRule:
    rate: Fraction | None = None
    amount: Cents | None = None
    max: Cents | None = None
    min_pot: Cents = 0
    fund: Cents = 0
    hand: str = "high"
    at_least: str = "four_of_a_kind"
    rank_at_least: int | None = None  # 2..14, within the at_least category
    hole_cards: int = 0  # the player's own cards the losing hand must use
    beaten_by: str | None = None  # the winning hand is at least this category
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
    #: the seats of the losing hand paid as the Bad Beat: shown at the showdown, for the
    #: Poker shift supervisor verifies each Bad Beat hand before it is paid (§ 553.20(f))
    losing: list[int] = field(default_factory=list)

    @property
    def fund_after(self) -> Cents:
        return self.fund_before + self.contribution - sum(self.payouts.values())


def explain_contribution(
    rule: BadBeatRule,
    pots: Sequence[Pot],
    after_rake: Sequence[Cents],
    by_pot: list[Cents],
    chip: Cents,
    cite: str,
) -> BadBeatResult:
    """The contribution of each pot after the rake (``by_pot``, the settlement kernel's;
    § 553.20(c): "extract from each pot"; § 553.1: a side pot is "a separate pot") and how
    each is reckoned: at most the stated maximum, nothing from a pot under the minimum."""
    parts: list[str] = []
    for p, net in zip(pots, after_rake, strict=True):
        how = _how(rule, net, chip)
        parts.append(f"{p.name}: {how}" if len(pots) > 1 else how)
    take = sum(by_pot)
    return BadBeatResult(
        take,
        f"{'; '.join(parts)}: {dollar_text(take)}, segregated after the rake [{cite}]",
        by_pot,
        rule.fund,
    )


def _how(rule: BadBeatRule, net: Cents, chip: Cents) -> str:
    """How one pot, ``net`` after the rake, contributes."""
    if net < rule.min_pot:
        return (
            f"the pot after the rake, {dollar_text(net)}, is under the "
            f"{dollar_text(rule.min_pot)} minimum for a contribution"
        )
    if rule.amount is not None:
        wanted = rule.amount
        how = f"{dollar_text(rule.amount)} from the pot"
    else:
        assert rule.rate is not None
        wanted = int(net * rule.rate // chip) * chip
        how = f"{format_rate(rule.rate)} of the {dollar_text(net)} pot after the rake"
    if rule.max is not None and wanted > rule.max:
        how += f", at most {dollar_text(rule.max)}"
    return how


def explain_payouts(
    result: BadBeatResult,
    rule: BadBeatRule,
    game: Game,
    main: Pot,
    winners: Sequence[int],
    hands: Mapping[int, ShownHand],
    losing: Sequence[int],
    payouts: Sequence[tuple[int, Cents, int]],
    cite: str,
    won_any: frozenset[int] = frozenset(),
) -> None:
    """Why the main pot's showdown was a Bad Beat or not, and its payouts, as the settlement
    kernel found them: ``losing``, the seats of the best losing hand that qualifies (none: no
    Bad Beat); ``payouts``, seat, amount and share (0 the losing hand's, 1 the winning
    hand's, 2 the table's); ``won_any``, the seats that won a pot or part of one, whose
    hands are no losing hands."""
    if len(main.eligible) < 2 or not winners:
        result.hit_reason = "no showdown for the main pot: no Bad Beat"
        return
    ev = game.evaluator(rule.hand)
    floor = describe_floor(game, rule)
    if not losing:
        values = [v for s in winners if (v := hands[s].high) is not None]
        beaten = rule.beaten_by
        if beaten is not None and not (
            values and ev.at_least(max(values, key=lambda v: v.key), beaten)
        ):
            category = ev.category(beaten).name
            result.hit_reason = f"the winning hand is not {category} or better: no Bad Beat"
        else:
            result.hit_reason = f"no losing hand of {floor}"
            won = [
                s
                for s in sorted(won_any)
                if s in main.eligible
                and s not in winners
                and (v := hands[s].high) is not None
                and ev.at_least(v, rule.at_least)
            ]
            if won:
                cite = game.definition.bad_beat.losing_hand.cite if game.definition.bad_beat else ""
                result.hit_reason += (
                    f": seat {', '.join(map(str, won))} lost to the main pot's high hand but "
                    "won a pot or a share of one in the round of play, so held no losing hand "
                    f"[{cite}]"
                )
        return
    fund = result.fund_before + result.contribution
    result.hit = True
    result.losing = list(losing)
    result.hit_reason = (
        f"seat {', '.join(map(str, losing))} lost with {hands[losing[0]].describe(rule.hand)}, "
        f"{floor}: a Bad Beat [{cite}]"
    )
    shares = (
        (rule.losing_share, "losing hand"),
        (rule.winning_share, "winning hand"),
        (rule.table_share, "table share"),
    )
    for group, (share, what) in enumerate(shares):
        paid = [(s, a) for s, a, g in payouts if g == group]
        for s, amount in paid:
            result.payouts[s] = result.payouts.get(s, 0) + amount
            result.payout_reasons[s] = (
                f"Bad Beat {what}: {format_rate(share)} of the {dollar_text(fund)} fund"
                + (f" shared by {len(paid)}" if len(paid) > 1 else "")
            )


def describe_floor(game: Game, rule: BadBeatRule) -> str:
    """``four of a kind, eights or better, both hole cards playing``: the rule in words."""
    ev = game.evaluator(rule.hand)
    text = ev.category(rule.at_least).name
    if rule.rank_at_least is not None:
        text += f", {RANK_PLURALS[rule.rank_at_least]} or better"
    else:
        text += " or better"
    if rule.hole_cards:
        text += f", {rule.hole_cards} of the player's own cards playing"
    if rule.beaten_by is not None:
        text += f", beaten by {ev.category(rule.beaten_by).name} or better"
    return text
