"""Settling a round of nonbanking Poker: every pot and side pot, who may win each, who wins
each half, the odd chips, the rake, the Bad Beat contribution and each seat's award, with
the reason and the section of each.

The order is the dealer's (§ 553.7(e)(6)): the uncalled final bet returns to its bettor,
the pots are formed, the rake is taken (§ 553.15), then the Bad Beat contribution
(§ 553.20(c)), then each pot is awarded by the showdown. Money is conserved exactly:
what the players put in = what they are awarded (uncalled bet included) + the rake + the
Bad Beat contribution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from validator.cards import card_str
from validator.compiler import Game, PokerGame
from validator.interpreter.poker.bad_beat import BadBeatResult, contribute, pay
from validator.interpreter.poker.kill import KillResult, PotOutcome, after_round
from validator.interpreter.poker.money import Cents, dollar_text, money
from validator.interpreter.poker.pots import Pot, PotError, Uncalled, build_pots
from validator.interpreter.poker.rake import Rake, take_rake
from validator.interpreter.poker.roundfile import PokerRound, PokerRoundError, read_poker_round
from validator.interpreter.poker.showdown import PotResult, ShownHand, Splitter, show
from validator.model.ranking import CardOrder
from validator.rankings.evaluator import card_order_key


@dataclass
class SeatAward:
    seat: int
    contributed: Cents
    folded: bool
    all_in: bool
    hands: dict[str, str] = field(default_factory=dict)
    won: Cents = 0
    returned: Cents = 0  # the uncalled final bet
    bad_beat: Cents = 0  # paid from the Bad Beat fund, not from the pot
    reasons: list[str] = field(default_factory=list)

    @property
    def award(self) -> Cents:
        return self.won + self.returned

    @property
    def net(self) -> Cents:
        return self.award - self.contributed


@dataclass
class ForcedBetCall:
    seat: int
    card: int
    reason: str


@dataclass
class PokerSettlement:
    game: Game
    round: PokerRound
    pots: list[PotResult]
    uncalled: Uncalled | None
    rake: Rake
    bad_beat: BadBeatResult | None
    kill: KillResult | None
    seats: list[SeatAward]
    forced_bet: ForcedBetCall | None = None

    @property
    def contributions(self) -> Cents:
        return sum(s.contributed for s in self.seats)

    @property
    def awards(self) -> Cents:
        return sum(s.award for s in self.seats)

    @property
    def bad_beat_contribution(self) -> Cents:
        return self.bad_beat.contribution if self.bad_beat else 0

    @property
    def balanced(self) -> bool:
        return self.contributions == self.awards + self.rake.total + self.bad_beat_contribution

    def seat(self, number: int) -> SeatAward:
        return next(s for s in self.seats if s.seat == number)

    def to_json(self) -> dict[str, Any]:
        d = self.game.definition
        out: dict[str, Any] = {
            "game": self.game.id,
            "kind": d.kind,
            "chip": money(self.round.chip),
            "uncalled": None
            if self.uncalled is None
            else {
                "seat": self.uncalled.seat,
                "amount": money(self.uncalled.amount),
                "reason": _uncalled_reason(self.game, self.uncalled),
            },
            "pots": [_pot_json(p) for p in self.pots],
            "rake": {
                "total": money(self.rake.total),
                "by_pot": [money(x) for x in self.rake.by_pot],
                "reason": self.rake.reason,
                "lines": self.rake.lines,
            },
            "bad_beat": None if self.bad_beat is None else _bad_beat_json(self.bad_beat),
            "kill": None
            if self.kill is None
            else {
                "in_effect_next_hand": self.kill.in_effect_next,
                "limits_multiplier_next_hand": str(self.kill.multiplier_next),
                "reason": self.kill.reason,
            },
            "forced_bet": None
            if self.forced_bet is None
            else {
                "seat": self.forced_bet.seat,
                "card": card_str(self.forced_bet.card),
                "reason": self.forced_bet.reason,
            },
            "seats": [
                {
                    "seat": s.seat,
                    "contributed": money(s.contributed),
                    "folded": s.folded,
                    "all_in": s.all_in,
                    "hands": s.hands,
                    "won": money(s.won),
                    "uncalled_returned": money(s.returned),
                    "award": money(s.award),
                    "net": money(s.net),
                    "bad_beat_payout": money(s.bad_beat),
                    "reasons": s.reasons,
                }
                for s in self.seats
            ],
            "order": _order(self.game),
            "totals": {
                "contributions": money(self.contributions),
                "awards": money(self.awards),
                "rake": money(self.rake.total),
                "bad_beat_contribution": money(self.bad_beat_contribution),
                "balanced": self.balanced,
            },
        }
        return out


def _uncalled_reason(game: Game, u: Uncalled) -> str:
    rake = game.definition.rake
    cite = f" [{rake.uncalled_bet.cite}]" if rake and rake.uncalled_bet else ""
    return (
        f"no other player matched the last {dollar_text(u.amount)} of seat {u.seat}'s bet: it "
        f"returns to seat {u.seat}, no part of the pot and not raked{cite}"
    )


def _pot_json(p: PotResult) -> dict[str, Any]:
    return {
        "pot": p.pot.name,
        "amount": money(p.pot.amount),
        "eligible": list(p.pot.eligible),
        "contributors": list(p.pot.contributors),
        "rake": money(p.rake),
        "bad_beat_contribution": money(p.bad_beat),
        "awarded": money(p.net),
        "reason": p.reason,
        "parts": [
            {
                "part": h.part,
                "amount": money(h.amount),
                "winners": list(h.winners),
                "hands": {str(k): v for k, v in h.hands.items()},
                "shares": [
                    {"seat": s.seat, "amount": money(s.amount), "reason": s.reason}
                    for s in h.shares
                ],
                "odd_chip": None
                if h.odd_chip is None
                else {
                    "seat": h.odd_chip.seat,
                    "amount": money(h.odd_chip.amount),
                    "reason": h.odd_chip.reason,
                },
                "odd_chips": [
                    {"seat": o.seat, "amount": money(o.amount), "reason": o.reason}
                    for o in h.odd_chips
                ],
            }
            for h in p.halves
        ],
    }


def _bad_beat_json(b: BadBeatResult) -> dict[str, Any]:
    return {
        "contribution": money(b.contribution),
        "by_pot": [money(x) for x in b.by_pot],
        "reason": b.contribution_reason,
        "fund_before": money(b.fund_before),
        "hit": b.hit,
        "hit_reason": b.hit_reason,
        "payouts": [
            {"seat": s, "amount": money(a), "reason": b.payout_reasons[s]}
            for s, a in sorted(b.payouts.items())
        ],
        "fund_after": money(b.fund_after),
    }


def card_orders(game: Game) -> Mapping[str, CardOrder]:
    """The single-card orders of games/rankings.yaml, read once when the game was compiled."""
    if not isinstance(game, PokerGame):
        raise TypeError(f"{game.id} is no nonbanking Poker game")
    return game.card_orders


def forced_bet_seat(game: Game, seats: list[tuple[int, int]]) -> ForcedBetCall | None:
    """Stud: who must make the Forced Bet, from each seat's first up-card (§ 553.10(d);
    § 553.14(d)): the lowest (or highest) by the game's card order, which ranks equal ranks by
    suit, spades, hearts, diamonds, clubs."""
    d = game.definition
    if d.betting is None or d.betting.forced_bet is None or not seats:
        return None
    fb = d.betting.forced_bet
    order = card_orders(game)[fb.card_order]
    pick = min if fb.by == "lowest" else max
    seat, card = pick(seats, key=lambda sc: card_order_key(order, sc[1]))
    shown = ", ".join(f"seat {s}: {card_str(c)}" for s, c in seats)
    return ForcedBetCall(
        seat,
        card,
        f"the {fb.by} up-card ({order.name.lower()}) is {card_str(card)}, seat {seat}'s: "
        f"seat {seat} makes the Forced Bet (up-cards {shown}) [{fb.cite}]",
    )


def settle_poker_round(data: dict[str, Any], game: Game) -> PokerSettlement:
    """Settle one round of a nonbanking Poker game from its round file's data. Raises
    ``PokerRoundError`` (every problem with its JSON pointer) for a round that cannot be."""
    rnd = read_poker_round(data, game)
    return settle_round(game, rnd)


def settle_round(game: Game, rnd: PokerRound) -> PokerSettlement:
    d = game.definition
    assert d.showdown is not None and d.rake is not None
    contributions = {s.seat: s.contributed for s in rnd.seats}
    folded = {s.seat for s in rnd.seats if s.folded}
    try:
        pots, uncalled = build_pots(contributions, folded)
    except PotError as e:
        raise PokerRoundError([("/seats", str(e))]) from None
    rake = take_rake(
        pots, rnd.rake, rnd.chip, _rake_cite(game, rnd), uncalled.amount if uncalled else 0
    )
    after_rake = [p.amount - r for p, r in zip(pots, rake.by_pot, strict=True)]
    bad_beat = None
    if rnd.bad_beat is not None:
        assert d.bad_beat is not None
        bad_beat = contribute(
            rnd.bad_beat, pots, after_rake, rnd.chip, d.bad_beat.contribution_after_rake.cite
        )
    bb_by_pot = bad_beat.by_pot if bad_beat else [0] * len(pots)
    contested = any(len(p.eligible) > 1 for p in pots)
    hands: dict[int, ShownHand] = {}
    if contested:
        for s in rnd.seats:
            if not s.folded:
                hands[s.seat] = show(game, s.seat, s.cards, rnd.board)
    splitter = Splitter(game, card_orders(game), rnd.chip)
    results = [
        splitter.settle(p, a - b, hands, r, b)
        for p, a, b, r in zip(pots, after_rake, bb_by_pot, rake.by_pot, strict=True)
    ]
    awards = {s.seat: SeatAward(s.seat, s.contributed, s.folded, s.all_in) for s in rnd.seats}
    for seat, hand in hands.items():
        if hand.high is not None:
            awards[seat].hands["high"] = hand.describe("high")
        if hand.low is not None:
            awards[seat].hands["low"] = hand.describe("low") + (
                "" if hand.low_qualifies else " (does not qualify)"
            )
    if uncalled is not None:
        awards[uncalled.seat].returned = uncalled.amount
        awards[uncalled.seat].reasons.append(_uncalled_reason(game, uncalled))
    for res in results:
        for half in res.halves:
            for share in half.shares:
                awards[share.seat].won += share.amount
                label = {"pot": "", "high": " (high half)", "low": " (low half)"}[half.part]
                if half.part == "high" and len(res.halves) == 1:
                    label = ""
                awards[share.seat].reasons.append(
                    f"{res.pot.name}{label}: {dollar_text(share.amount)}, {share.reason}"
                )
            for odd in half.odd_chips:
                awards[odd.seat].reasons.append(odd.reason)
    for award in awards.values():
        if award.folded:
            award.reasons.append("folded: no interest in any pot")
        elif award.won == 0 and contested:
            award.reasons.append("lost at the showdown")
    if bad_beat is not None and rnd.bad_beat is not None and results:
        main = results[0]
        winners = [s for h in main.halves if h.part in ("pot", "high") for s in h.winners]
        assert d.bad_beat is not None
        pay(
            bad_beat,
            rnd.bad_beat,
            game,
            main.pot,
            winners,
            hands,
            [s.seat for s in rnd.seats],
            d.bad_beat.rules_cite,
        )
        for seat, amount in bad_beat.payouts.items():
            awards[seat].bad_beat = amount
            awards[seat].reasons.append(bad_beat.payout_reasons[seat])
    kill = None
    if rnd.kill is not None:
        assert d.betting is not None and d.betting.kill is not None
        outcomes = []
        for r in results:
            won = {s for h in r.halves for s in h.winners}
            split = len(r.halves) == 2 and set(r.halves[0].winners) != set(r.halves[1].winners)
            scooped = next(iter(won)) if len(won) == 1 else None
            outcomes.append(PotOutcome(r.pot.name, r.net, scooped, split))
        kill = after_round(rnd.kill, outcomes, d.betting.kill.cite)
    forced = None
    if d.betting is not None and d.betting.forced_bet is not None:
        position = min(d.cards.dealt["player"].face_up or [0])
        ups = [
            (s.seat, s.cards[position - 1])
            for s in rnd.seats
            if position and len(s.cards) >= position
        ]
        if len(ups) == len(rnd.seats):
            forced = forced_bet_seat(game, ups)
    settlement = PokerSettlement(
        game, rnd, results, uncalled, rake, bad_beat, kill, list(awards.values()), forced
    )
    if not settlement.balanced:  # pragma: no cover - a bug, never a user error
        raise AssertionError(
            f"chips not conserved: {settlement.contributions} in, {settlement.awards} awarded, "
            f"{settlement.rake.total} rake, {settlement.bad_beat_contribution} Bad Beat"
        )
    return settlement


#: the order this settlement follows (the module's docstring): what the game's ``rake.final``
#: states, cited where it is (§ 553.15(e); § 553.7(e)(6))
ORDER = (
    "the pots formed, the rake taken from them, then the Bad Beat contribution, then each pot "
    "awarded; no rake after the pots are collected"
)


def _order(game: Game) -> str | None:
    """The settlement's order with the section the game states it in, or ``None`` where the
    game states none (the engine keeps the same order)."""
    rake = game.definition.rake
    final = rake.final if rake is not None else None
    return None if final is None else f"{ORDER} [{final.cite}]"


def _rake_cite(game: Game, rnd: PokerRound) -> str:
    rake = game.definition.rake
    assert rake is not None
    rule = rnd.rake
    if rule is not None:
        part = {"percentage": rake.percentage, "incremental": rake.incremental, "time": rake.time}
        specific = part.get(rule.kind)
        if specific is not None:
            return specific.cite
    return rake.cite


__all__ = [
    "ForcedBetCall",
    "PokerRoundError",
    "PokerSettlement",
    "Pot",
    "SeatAward",
    "settle_poker_round",
    "settle_round",
]
