"""Settling a round of nonbanking Poker: the settlement kernel settles it with its operation
log on (the dealer's order, § 553.7(e)(6): the uncalled final bet returned, the pots formed,
the rake taken, then the Bad Beat contribution, then each pot awarded, the side pots first);
every figure of the explanation is read from that log, and only the words are written here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from validator.cards import card_str
from validator.compiler import Game, PokerGame
from validator.interpreter.poker.bad_beat import (
    BadBeatResult,
    explain_contribution,
    explain_payouts,
)
from validator.interpreter.poker.fast import MAX_BOARD, MAX_CARDS, Ints
from validator.interpreter.poker.fast import operations as op
from validator.interpreter.poker.kill import KillResult, explain_kill
from validator.interpreter.poker.rake import Rake, explain_rake
from validator.interpreter.poker.showdown import (
    Pot,
    PotResult,
    Share,
    ShownHand,
    Uncalled,
    show,
)
from validator.interpreter.roundfile import RoundFileError
from validator.interpreter.roundfile.poker import PokerRound, read_poker_round
from validator.model.ranking import CardOrder
from validator.money import Cents, cents_figure, dollar_text
from validator.rankings.evaluator import card_order_key
from validator.rankings.packed import pack_key


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
    #: the settlement kernel's operation log rows, seats indexed in ``round.seats``' order
    operations: Any = None

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
        bad_beat, kill, forced, u = self.bad_beat, self.kill, self.forced_bet, self.uncalled
        return {
            "game": self.game.id,
            "kind": self.game.definition.kind,
            "chip": cents_figure(self.round.chip),
            "uncalled": None
            if u is None
            else _share_json(Share(u.seat, u.amount, _uncalled_reason(self.game, u))),
            "pots": [_pot_json(p) for p in self.pots],
            "rake": {
                "total": cents_figure(self.rake.total),
                "by_pot": [cents_figure(x) for x in self.rake.by_pot],
                "reason": self.rake.reason,
                "lines": self.rake.lines,
            },
            "bad_beat": None
            if bad_beat is None
            else {
                "contribution": cents_figure(bad_beat.contribution),
                "by_pot": [cents_figure(x) for x in bad_beat.by_pot],
                "reason": bad_beat.contribution_reason,
                "fund_before": cents_figure(bad_beat.fund_before),
                "hit": bad_beat.hit,
                "hit_reason": bad_beat.hit_reason,
                "payouts": [
                    _share_json(Share(s, a, bad_beat.payout_reasons[s]))
                    for s, a in sorted(bad_beat.payouts.items())
                ],
                "fund_after": cents_figure(bad_beat.fund_after),
            },
            "kill": None
            if kill is None
            else {
                "in_effect_next_hand": kill.in_effect_next,
                "limits_multiplier_next_hand": str(kill.multiplier_next),
                "reason": kill.reason,
            },
            "forced_bet": None
            if forced is None
            else {"seat": forced.seat, "card": card_str(forced.card), "reason": forced.reason},
            "seats": [
                {
                    "seat": s.seat,
                    "contributed": cents_figure(s.contributed),
                    "folded": s.folded,
                    "all_in": s.all_in,
                    "hands": s.hands,
                    "won": cents_figure(s.won),
                    "uncalled_returned": cents_figure(s.returned),
                    "award": cents_figure(s.award),
                    "net": cents_figure(s.award - s.contributed),
                    "bad_beat_payout": cents_figure(s.bad_beat),
                    "reasons": s.reasons,
                }
                for s in self.seats
            ],
            "order": _order(self.game),
            "totals": {
                "contributions": cents_figure(self.contributions),
                "awards": cents_figure(self.awards),
                "rake": cents_figure(self.rake.total),
                "bad_beat_contribution": cents_figure(self.bad_beat_contribution),
                "balanced": self.balanced,
            },
        }


def _share_json(s: Share) -> dict[str, Any]:
    return {"seat": s.seat, "amount": cents_figure(s.amount), "reason": s.reason}


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
        "amount": cents_figure(p.pot.amount),
        "eligible": list(p.pot.eligible),
        "contributors": list(p.pot.contributors),
        "rake": cents_figure(p.rake),
        "bad_beat_contribution": cents_figure(p.bad_beat),
        "awarded": cents_figure(p.net),
        "reason": p.reason,
        "parts": [
            {
                "part": h.part,
                "amount": cents_figure(h.amount),
                "winners": list(h.winners),
                "hands": {str(k): v for k, v in h.hands.items()},
                "shares": [_share_json(s) for s in h.shares],
                "odd_chip": None if h.odd_chip is None else _share_json(h.odd_chip),
                "odd_chips": [_share_json(o) for o in h.odd_chips],
            }
            for h in p.halves
        ],
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
    ``RoundFileError`` (every problem with its JSON pointer) for a round that cannot be."""
    return settle_round(game, read_poker_round(data, game))


def settle_round(game: Game, rnd: PokerRound) -> PokerSettlement:
    """One round settled by the settlement kernel, its operation log on, and explained: every
    figure (pots, who may win each, rake and Bad Beat contribution per pot, each award, the
    Bad Beat payouts, the Kill) read from the log; the words written here from those
    figures."""
    hands = _shown(game, rnd)
    log, at = op.new_log(True), np.zeros(1, dtype=np.int64)
    fund = rnd.bad_beat.fund if rnd.bad_beat is not None else 0
    in_effect = rnd.kill.in_effect if rnd.kill is not None else False
    settler = _settler(game, rnd)
    settled, _, _, ordered = settler.settle(_dealt(rnd, hands), fund, in_effect, log, at)
    rows = log[: int(at[0])]
    d = game.definition
    assert d.showdown is not None and d.rake is not None
    figures = _Figures(rows, [s.seat for s in rnd.seats])
    uncalled = figures.uncalled
    pots = figures.pots(rnd)
    rake = explain_rake(
        pots,
        rnd.rake,
        rnd.chip,
        _rake_cite(game, rnd),
        figures.by_pot(op.TAKE_RAKE, pots),
        uncalled.amount if uncalled else 0,
    )
    bad_beat = None
    if rnd.bad_beat is not None:
        assert d.bad_beat is not None
        bad_beat = explain_contribution(
            rnd.bad_beat,
            pots,
            [p.amount - r for p, r in zip(pots, rake.by_pot, strict=True)],
            figures.by_pot(op.TAKE_BAD_BEAT, pots),
            rnd.chip,
            d.bad_beat.contribution_after_rake.cite,
        )
    bb_by_pot = bad_beat.by_pot if bad_beat else [0] * len(pots)
    explainer = settler.splitter
    assert explainer is not None
    places = _places(ordered, figures.seats)
    results = [
        explainer.explain(p, r, b, hands, figures.awards.get(p.index, {}), places)
        for p, r, b in zip(pots, rake.by_pot, bb_by_pot, strict=True)
    ]
    awards = _awards(game, rnd, hands, uncalled, results)
    if bad_beat is not None and rnd.bad_beat is not None and results:
        main = results[0]
        winners = [s for h in main.halves if h.part in ("pot", "high") for s in h.winners]
        assert d.bad_beat is not None
        losing = sorted(s for i, s in enumerate(figures.seats) if settled.losing >> i & 1)
        explain_payouts(
            bad_beat,
            rnd.bad_beat,
            game,
            main.pot,
            winners,
            hands,
            losing,
            figures.payouts,
            d.bad_beat.rules_cite,
            frozenset(seat for seat, a in awards.items() if a.won > 0),
        )
        for seat, amount in bad_beat.payouts.items():
            awards[seat].bad_beat = amount
            awards[seat].reasons.append(bad_beat.payout_reasons[seat])
    kill = None
    if rnd.kill is not None:
        assert d.betting is not None and d.betting.kill is not None
        kill = explain_kill(rnd.kill, results, bool(settled.kill_next), d.betting.kill.cite)
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
    return PokerSettlement(
        game, rnd, results, uncalled, rake, bad_beat, kill, list(awards.values()), forced, rows
    )


#: how a part of a pot is named in a seat's reasons (a lone part: the whole pot)
_PART_LABELS = {"pot": "", "high": " (high half)", "low": " (low half)"}


def _awards(
    game: Game,
    rnd: PokerRound,
    hands: Mapping[int, ShownHand],
    uncalled: Uncalled | None,
    results: list[PotResult],
) -> dict[int, SeatAward]:
    """Each seat's hands shown, what it won of each pot and the uncalled bet returned, and
    why."""
    awards = {s.seat: SeatAward(s.seat, s.contributed, s.folded, s.all_in) for s in rnd.seats}
    for seat, hand in hands.items():
        if hand.high is not None:
            awards[seat].hands["high"] = hand.describe("high")
        if hand.low is not None:
            qualifies = "" if hand.low_qualifies else " (does not qualify)"
            awards[seat].hands["low"] = hand.describe("low") + qualifies
    if uncalled is not None:
        awards[uncalled.seat].returned = uncalled.amount
        awards[uncalled.seat].reasons.append(_uncalled_reason(game, uncalled))
    for res in results:
        for half in res.halves:
            lone = len(res.halves) == 1  # a lone part is the whole pot (Razz's: the low)
            label = "" if lone else _PART_LABELS[half.part]
            for share in half.shares:
                awards[share.seat].won += share.amount
                awards[share.seat].reasons.append(
                    f"{res.pot.name}{label}: {dollar_text(share.amount)}, {share.reason}"
                )
            for odd in half.odd_chips:
                awards[odd.seat].reasons.append(odd.reason)
    for award in awards.values():
        if award.folded:
            award.reasons.append("folded: no interest in any pot")
        elif not any(award.seat in h.winners for r in results for h in r.halves) and hands:
            award.reasons.append("lost at the showdown")  # a winner of a $0 pot did not lose
    return awards


def _shown(game: Game, rnd: PokerRound) -> dict[int, ShownHand]:
    """The hands shown: every player still in, where two of them may win the main pot
    (every side pot's players are among its); none otherwise. The final bet no one called
    (§ 553.15(d)) is no part of it."""
    called = {s.seat: s.contributed for s in rnd.seats}
    if len(called) >= 2:
        (top_seat, top), (_, second) = sorted(called.items(), key=lambda kv: -kv[1])[:2]
        called[top_seat] = min(top, second)
    live = [called[s.seat] for s in rnd.seats if not s.folded]
    level = min((c for c in live if c > 0), default=0)
    if sum(1 for c in live if c >= level) < 2:
        return {}
    return {s.seat: show(game, s.seat, s.cards, rnd.board) for s in rnd.seats if not s.folded}


def _dealt(rnd: PokerRound, hands: Mapping[int, ShownHand]) -> Any:
    """The round as the dealing kernel leaves it (``hand.Outcome``), for the settlement
    kernel: each seat's contributions, cards and hands' keys, the board, the chips each
    betting round put in."""
    from validator.interpreter.poker.fast.hand import outcome

    out = outcome(len(rnd.seats), op.new_log(False))
    for i, s in enumerate(rnd.seats):
        out.contributed[i], out.folded[i], out.ncards[i] = s.contributed, s.folded, len(s.cards)
        out.cards[i, : len(s.cards)] = s.cards[:MAX_CARDS]
        hand = hands.get(s.seat)
        if hand is not None:
            out.high[i] = pack_key(hand.high.key) if hand.high is not None else 0
            out.low[i] = pack_key(hand.low.key) if hand.low is not None else 0
    out.board[: len(rnd.board)] = rnd.board[:MAX_BOARD]
    out.nboard[0] = len(rnd.board)
    rounds = rnd.rake.rounds if rnd.rake is not None and rnd.rake.rounds is not None else ()
    out.nrounds[0] = len(rounds)
    return out._replace(round_put=np.array(rounds, dtype=np.int64))


#: the settlement kernels built, by game and the round's rules (a play log's rounds share
#: them but for the fund, the Kill in effect and what each betting round put in)
_SETTLERS: dict[tuple[Any, ...], tuple[Game, Any]] = {}


def _settler(game: Game, rnd: PokerRound) -> Any:
    from validator.interpreter.poker.fast.settle import FastSettler
    from validator.interpreter.poker.table import Limit, Rules, Stakes

    rake = rnd.rake
    if rake is not None:
        rake = replace(rake, rounds=None, per_betting_round=rake.rounds is not None)
    bad_beat = None if rnd.bad_beat is None else replace(rnd.bad_beat, fund=0)
    kill = None if rnd.kill is None else replace(rnd.kill, in_effect=False)
    seats = tuple(s.seat for s in rnd.seats)
    key = (id(game), rake, bad_beat, kill, rnd.chip, seats)
    held = _SETTLERS.get(key)
    if held is None or held[0] is not game:
        if len(_SETTLERS) >= 64:
            _SETTLERS.clear()
        rules = Rules(rake, bad_beat, kill)
        settler = FastSettler(game, rules, Stakes(Limit(rnd.chip, rnd.chip), chip=rnd.chip), seats)
        if settler.reason is not None:  # a round file's Bad Beat on a hand other than high
            where = "/bad_beat/qualifying/hand" if "Bad Beat" in settler.reason else "/"
            raise RoundFileError([(where, f"not settled here: {settler.reason}")])
        held = _SETTLERS[key] = (game, settler)
    return held[1]


def _places(priority: Ints | None, seats: list[int]) -> dict[str, dict[int, int]]:
    """By part (``priority``'s rows: high, low), each tied seat's place in the order the
    settlement kernel gave the excess by card and suit; none where no tie needed it."""
    rows = [] if priority is None else priority.tolist()
    return {
        part: {seats[i]: place for i, place in enumerate(row) if place >= 0}
        for part, row in zip(("high", "low"), rows, strict=False)
    }


class _Figures:
    """The settlement's figures read from its operation log (``fast.operations``)."""

    def __init__(self, rows: Any, seats: list[int]) -> None:
        self.rows = [tuple(int(x) for x in r) for r in rows]
        self.seats = seats
        self.uncalled: Uncalled | None = None
        self.formed: list[tuple[int, int]] = []  # (amount, eligible mask) by pot
        #: pot -> part (0 whole, 1 high, 2 low) -> [(seat, amount)] in the log's order
        self.awards: dict[int, dict[int, list[tuple[int, Cents]]]] = {}
        self.payouts: list[tuple[int, Cents, int]] = []  # (seat, amount, share)
        #: the rake and the Bad Beat contribution taken, by pot
        self.taken: dict[int, dict[int, Cents]] = {op.TAKE_RAKE: {}, op.TAKE_BAD_BEAT: {}}
        for kind, seat, amount, card, detail in self.rows:
            if kind == op.RETURN_UNCALLED:
                self.uncalled = Uncalled(seats[seat], amount)
            elif kind == op.FORM_POT:
                self.formed.append((amount, detail))
            elif kind == op.AWARD_POT:
                part = self.awards.setdefault(card, {}).setdefault(detail, [])
                part.append((seats[seat], amount))
            elif kind == op.PAY_BAD_BEAT:
                self.payouts.append((seats[seat], amount, detail))
            elif kind in self.taken:
                self.taken[kind][card] = amount

    def pots(self, rnd: PokerRound) -> list[Pot]:
        """The pots formed, each's level and contributors from the contributions called (the
        uncalled bet the log returned taken off)."""
        called = {s.seat: s.contributed for s in rnd.seats}
        if self.uncalled is not None:  # the final bet no one called, as the kernel returned it
            called[self.uncalled.seat] -= self.uncalled.amount
        out: list[Pot] = []
        below = 0
        for k, (amount, mask) in enumerate(self.formed):
            eligible = tuple(sorted(s for i, s in enumerate(self.seats) if mask >> i & 1))
            level = min(called[s] for s in eligible)
            contributors = tuple(sorted(s for s, c in called.items() if c > below))
            out.append(Pot(k, amount, level, eligible, contributors))
            below = level
        return out

    def by_pot(self, kind: int, pots: list[Pot]) -> list[Cents]:
        return [self.taken[kind].get(p.index, 0) for p in pots]


#: the order of the settlement, cited where the game's ``rake.final`` states it
#: (§ 553.15(e); § 553.7(e)(6)); a game that states none keeps the same order
ORDER = (
    "the pots formed, the rake taken from them, then the Bad Beat contribution, then each pot "
    "awarded, the side pots before the main pot; no rake after the pots are collected"
)


def _order(game: Game) -> str | None:
    rake = game.definition.rake
    final = rake.final if rake is not None else None
    return None if final is None else f"{ORDER} [{final.cite}]"


def _rake_cite(game: Game, rnd: PokerRound) -> str:
    """The section of the round's kind of rake (``percentage``, ``incremental``, ``time``),
    else the rake's."""
    rake = game.definition.rake
    assert rake is not None
    specific = getattr(rake, rnd.rake.kind, None) if rnd.rake is not None else None
    return specific.cite if specific is not None else rake.cite
