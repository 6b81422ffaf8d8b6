"""The Poker settlement as the dealer works it by hand, in Python: the oracle the
settlement kernel (``validator.interpreter.poker.fast.settle``) is held equal to by the
property tests. The pots and the uncalled final bet (§ 553.8(b)(4); § 553.15(d)), the
rake (§ 553.15(b)), the Bad Beat contribution and payouts (§ 553.20), each pot's showdown
and its odd chips (§ 553.10(i), (j)) and the Kill for the next hand (§ 553.12(m)).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.poker.bad_beat import (
    BadBeatResult,
    BadBeatRule,
    describe_floor,
)
from validator.interpreter.poker.fast.odd_chip import card_keys
from validator.interpreter.poker.kill import KillResult, KillRule, next_hand
from validator.interpreter.poker.rake import Rake, RakeRule
from validator.interpreter.poker.settle import (
    PokerSettlement,
    SeatAward,
    _rake_cite,
    _uncalled_reason,
    card_orders,
    forced_bet_seat,
)
from validator.interpreter.poker.showdown import (
    Half,
    Pot,
    PotResult,
    Share,
    ShownHand,
    Splitter,
    Uncalled,
    show,
)
from validator.interpreter.roundfile import RoundFileError
from validator.interpreter.roundfile.poker import PokerRound
from validator.model.notation import format_rate
from validator.money import Cents, dollar_text
from validator.rankings.evaluator import Evaluator, HandValue

# -- the pots (pots.py) ------------------------------------------------------------------------


class PotError(RulesubError, ValueError):
    """Contributions that no round of play can have produced."""


def uncalled_bet(contributions: Mapping[int, Cents]) -> Uncalled | None:
    """The part of the single largest contribution that no one else matched."""
    if len(contributions) < 2:
        return None
    ranked = sorted(contributions.items(), key=lambda kv: kv[1], reverse=True)
    (top_seat, top), (_, second) = ranked[0], ranked[1]
    return Uncalled(top_seat, top - second) if top > second else None


def build_pots(
    contributions: Mapping[int, Cents], folded: Set[int]
) -> tuple[list[Pot], Uncalled | None]:
    """The main pot and side pots, each with the players eligible for it, and the uncalled
    final bet returned to its bettor."""
    if any(c < 0 for c in contributions.values()):
        raise PotError("a contribution is never negative")
    live = [s for s in contributions if s not in folded]
    if not live:
        raise PotError("every player folded: the last player in wins the pot, so one is in")
    uncalled = uncalled_bet(contributions)
    called = dict(contributions)
    if uncalled is not None:
        called[uncalled.seat] -= uncalled.amount
    top_live = max(called[s] for s in live)
    over = [s for s in called if called[s] > top_live]
    if over:
        raise PotError(
            f"seat {over[0]} put in more than any player still in, and more than its own "
            "uncalled bet: a folded player's chips were all called by a player still in"
        )
    levels = sorted({called[s] for s in live if called[s] > 0})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in called.values())
        contributors = tuple(sorted(s for s, c in called.items() if c > below))
        eligible = tuple(sorted(s for s in live if called[s] >= level))
        pots.append(Pot(len(pots), amount, level, eligible, contributors))
        below = level
    if not pots:  # nobody put anything in: an empty pot for the players still in
        pots.append(Pot(0, 0, 0, tuple(sorted(live)), ()))
    return pots, uncalled


# -- the rake (rake.py) ---------------------------------------------------------------------


def _capped(wanted: Sequence[Cents], cap: Cents | None) -> list[Cents]:
    out = []
    left = cap
    for w in wanted:
        take = w if left is None else min(w, left)
        out.append(take)
        if left is not None:
            left -= take
    return out


def take_rake(
    pots: Sequence[Pot], rule: RakeRule | None, chip: Cents, cite: str, uncalled: Cents = 0
) -> Rake:
    if rule is None or rule.kind == "none":
        return Rake([0] * len(pots), "no rake stated for this round")
    unit = rule.unit or chip
    if rule.kind == "time":
        return Rake(
            [0] * len(pots),
            f"time charges are assessed by the clock, never from a pot [{cite}]",
        )
    cap_text = f", at most {dollar_text(rule.cap)} a round of play" if rule.cap is not None else ""
    if rule.kind == "percentage" and rule.per_betting_round and rule.rounds is not None:
        return _per_betting_round(pots, rule, unit, cite, cap_text, uncalled)
    if rule.kind == "percentage":
        assert rule.rate is not None
        wanted = [int(p.amount * rule.rate // unit) * unit for p in pots]
        taken = _capped(wanted, rule.cap)
        lines = [
            f"{p.name}: {format_rate(rule.rate)} of {dollar_text(p.amount)}, rounded down to "
            f"{dollar_text(unit)}: {dollar_text(w)}"
            + (f"; the cap leaves {dollar_text(t)}" if t != w else "")
            for p, w, t in zip(pots, wanted, taken, strict=True)
        ]
        return Rake(
            taken,
            f"percentage rake {format_rate(rule.rate)} of each pot{cap_text} [{cite}]",
            lines,
        )
    total = sum(p.amount for p in pots)
    reached = [(level, amount) for level, amount in rule.levels if total >= level]
    # laid end to end the pots hold [0, main), [main, main + side 1), …; the chip that
    # reaches a level is the level-th: its pot pays the level's amount, the pots after it
    # then before it what it cannot hold (§ 553.15(b)(2))
    ends = list(itertools.accumulate(p.amount for p in pots))
    by_pot = [0] * len(pots)
    left = rule.cap
    for level, amount in reached:
        want = amount if left is None else min(amount, left)
        first = next(k for k, end in enumerate(ends) if end >= level)
        for k in [*range(first, len(pots)), *range(first)]:
            take = min(want, pots[k].amount - by_pot[k])
            by_pot[k] += take
            want -= take
            if left is not None:
                left -= take
    levels = ", ".join(dollar_text(level) for level, _ in reached) or "none"
    return Rake(
        by_pot,
        f"incremental rake: levels reached by the {dollar_text(total)} in the pots: {levels}"
        f"{cap_text}; each from the pot its level was reached in, the chips filling the pots "
        f"from the main pot up [{cite}]",
    )


def _per_betting_round(
    pots: Sequence[Pot], rule: RakeRule, unit: Cents, cite: str, cap_text: str, uncalled: Cents
) -> Rake:
    """§ 553.15(b)(1)(i): "calculated and extracted from the pot and any side pots" after
    each betting round, the cap for the round of play. Laid end to end, the pots hold the
    chips [0, main), [main, main + side 1), …, and the betting rounds put in [0, round 1),
    [round 1, round 1 + round 2), …: after a round, a pot holds the part of it below the
    round's end. Each pot is raked the rate of what it holds then, rounded down to the rake
    unit, less what it was raked before. The uncalled final bet, in the last betting round
    that put chips in, is no part of the pot (§ 553.15(d))."""
    assert rule.rate is not None and rule.rounds is not None
    rounds = list(rule.rounds)
    placed = [i for i, put in enumerate(rounds) if put]  # rounds after it: cards to All-ins
    if placed:
        rounds[placed[-1]] -= uncalled
    pot_spans = []
    start = 0
    for p in pots:
        pot_spans.append((start, start + p.amount))
        start += p.amount
    lines = []
    left = rule.cap
    by_pot = [0] * len(pots)
    raked_at = [0] * len(pots)  # the rate of each pot's chips so far, in rake units
    start = 0
    for i, put in enumerate(rounds, start=1):
        end = start + put
        for k, (low, high) in enumerate(pot_spans):
            held = max(0, min(end, high) - low)
            grew = held > max(0, min(start, high) - low)
            so_far = int(held * rule.rate // unit) * unit
            before = raked_at[k]
            raked_at[k] = so_far
            wanted = so_far - before
            take = wanted if left is None else min(wanted, left)
            if left is not None:
                left -= take
            by_pot[k] += take
            if len(pots) == 1 or not put:
                label = f"betting round {i}" if k == 0 else None
            else:
                label = f"betting round {i}, {pots[k].name}" if grew else None
            if label is not None:
                lines.append(
                    f"{label}: {format_rate(rule.rate)} of {dollar_text(held)}, rounded down "
                    f"to {dollar_text(unit)}: {dollar_text(so_far)}"
                    + (
                        f", less {dollar_text(before)} taken before: {dollar_text(wanted)}"
                        if before
                        else ""
                    )
                    + (f"; the cap leaves {dollar_text(take)}" if take != wanted else "")
                )
        start = end
    return Rake(
        by_pot,
        f"percentage rake {format_rate(rule.rate)} of each pot as it stands after each betting "
        f"round, less what was taken before{cap_text}, extracted as play progresses [{cite}]",
        lines,
    )


# -- the Bad Beat (bad_beat.py) -------------------------------------------------------------


def contribute(
    rule: BadBeatRule, pots: Sequence[Pot], after_rake: Sequence[Cents], chip: Cents, cite: str
) -> BadBeatResult:
    """The contribution of each pot after the rake (§ 553.20(c): "extract from each pot";
    § 553.1: a side pot is "a separate pot"), each at most the stated maximum and nothing
    from a pot under the minimum."""
    by_pot: list[Cents] = []
    parts: list[str] = []
    for p, net in zip(pots, after_rake, strict=True):
        take, how = _from_pot(rule, net, chip)
        by_pot.append(take)
        parts.append(f"{p.name}: {how}" if len(pots) > 1 else how)
    take = sum(by_pot)
    return BadBeatResult(
        take,
        f"{'; '.join(parts)}: {dollar_text(take)}, segregated after the rake [{cite}]",
        by_pot,
        rule.fund,
    )


def _from_pot(rule: BadBeatRule, net: Cents, chip: Cents) -> tuple[Cents, str]:
    """What one pot, ``net`` after the rake, contributes, and how."""
    if net < rule.min_pot:
        return 0, (
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
    take = min(wanted, net if rule.max is None else min(rule.max, net))
    if rule.max is not None and wanted > rule.max:
        how += f", at most {dollar_text(rule.max)}"
    return take, how


def pay(
    result: BadBeatResult,
    rule: BadBeatRule,
    game: Game,
    main: Pot,
    winners: Sequence[int],
    hands: dict[int, ShownHand],
    dealt_in: Sequence[int],
    cite: str,
    won_any: frozenset[int] = frozenset(),
) -> None:
    """Fill in the payouts when the main pot's showdown was a Bad Beat. A seat that won any
    pot or part of one (``won_any``) holds no "losing hand in a round of play" (§ 553.1)."""
    if len(main.eligible) < 2 or not winners:
        result.hit_reason = "no showdown for the main pot: no Bad Beat"
        return
    ev = game.evaluator(rule.hand)
    floor = describe_floor(game, rule)

    def value_of(seat: int) -> HandValue | None:
        return hands[seat].high if rule.hand == "high" else hands[seat].low

    if rule.beaten_by is not None:
        best = [v for v in (value_of(s) for s in winners) if v is not None]
        if not best or not ev.at_least(max(best, key=lambda v: v.key), rule.beaten_by):
            beaten = ev.category(rule.beaten_by).name
            result.hit_reason = f"the winning hand is not {beaten} or better: no Bad Beat"
            return
    losers = []
    for seat in main.eligible:
        value = value_of(seat)
        if seat in winners or seat in won_any or value is None:
            continue
        if qualifies(ev, rule, value, hands[seat]):
            losers.append((seat, value))
    if not losers:
        result.hit_reason = f"no losing hand of {floor}"
        won = [
            seat
            for seat in sorted(won_any)
            if seat in main.eligible
            and seat not in winners
            and (v := hands[seat].high) is not None
            and ev.at_least(v, rule.at_least)
        ]
        if won:
            result.hit_reason += (
                f": seat {', '.join(map(str, won))} lost to the main pot's high hand but won "
                "a pot or a share of one in the round of play, so held no losing hand [§ 553.1]"
            )
        return
    top = max(v.key for _, v in losers)
    losing = [s for s, v in losers if v.key == top]
    others = [s for s in dealt_in if s not in losing and s not in winners]
    fund = result.fund_before + result.contribution
    result.hit = True
    result.hit_reason = (
        f"seat {', '.join(map(str, losing))} lost with {hands[losing[0]].describe(rule.hand)}, "
        f"{floor}: a Bad Beat [{cite}]"
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


def qualifies(ev: Evaluator, rule: BadBeatRule, value: HandValue, hand: ShownHand) -> bool:
    """Whether a losing hand meets the Bad Beat requirements (the winner aside)."""
    if not ev.at_least(value, rule.at_least):
        return False
    in_floor = value.key[0] == ev.strength(rule.at_least)  # the floor's own category
    if rule.rank_at_least is not None and in_floor and value.key[1] < rule.rank_at_least:
        return False
    own = set(hand.cards)
    return sum(1 for c in value.cards if c in own) >= rule.hole_cards


# -- the Kill (kill.py) ---------------------------------------------------------------------


@dataclass(frozen=True)
class PotOutcome:
    """One pot of a round as the Kill reads it."""

    name: str  # main pot, side pot 1, …
    net: Cents  # awarded, after the rake and any Bad Beat contribution
    scooped_by: int | None  # the one player who won all of it
    split_high_low: bool  # a high half and a low half to different players


def after_round(rule: KillRule, pots: list[PotOutcome], cite: str) -> KillResult:
    """The Kill for the next hand from every pot of this round (main pot first)."""
    for p in pots:
        if p.scooped_by is not None and p.net >= rule.qualifying_pot:
            return next_hand(rule, p.net, p.scooped_by, False, cite, p.name)
    main = pots[0]
    return next_hand(rule, main.net, None, main.split_high_low, cite, main.name)


# -- the showdown (showdown.py) -------------------------------------------------------------


def divide(amount: Cents, n: int, chip: Cents, cap: Cents | None) -> list[Cents]:
    """``amount`` divided equally among ``n`` players, in the table's chips, the excess by
    the order the players are given in (the first is owed it first).

    Where the source caps the excess ("which may not exceed $1", § 553.10(i)(2)(i)-(iii);
    § 553.12(j)(2)(i)-(iii)) the division is in chips of at most the cap (a larger chip is
    changed down to it), and what cannot be divided is given one such chip at a time, in
    order: no player receives more than the cap as excess, and nobody is paid in cents a
    chip cannot make. A three-way tie for $20 in $1 chips is $7, $7 and $6, never $6.66.
    Where no cap is stated, the whole excess in the table's chip goes to the first."""
    unit = chip if cap is None else min(chip, cap)
    share = amount // (n * unit) * unit
    excess = amount - n * share
    if cap is None:
        return [share + excess] + [share] * (n - 1)
    out = []
    for _ in range(n):
        extra = min(unit, excess)
        excess -= extra
        out.append(share + extra)
    return out


class OracleSplitter(Splitter):
    """Divides pots by the game's showdown rules."""

    def odd_chip_order(self, tied: Sequence[ShownHand], part: str) -> list[ShownHand]:
        """The tied players in the order the excess goes to them. High: the highest card by
        suit first, the tied hands compared from their highest card, then the players'
        other cards. Low: the lowest card by suit first, from the lowest card."""
        low = self.tie_rule(part) == "lowest_card_by_suit"
        keys = card_keys(self, part)

        def key(c: int) -> int:
            return keys[c]

        def seq(h: ShownHand) -> tuple[int, ...]:
            value = h.low if low else h.high
            assert value is not None
            rest = [c for c in h.cards if c not in value.cards]
            return tuple(
                key(c)
                for c in (
                    *sorted(value.cards, key=key, reverse=not low),
                    *sorted(rest, key=key, reverse=not low),
                )
            )

        return sorted(tied, key=seq, reverse=not low)

    # -- who has the best hand ---------------------------------------------------------------

    @staticmethod
    def best(hands: Sequence[ShownHand], part: str) -> tuple[int, ...]:
        values = [
            (h.seat, v) for h in hands if (v := h.high if part == "high" else h.low) is not None
        ]
        if not values:
            return ()
        top = max(v.key for _, v in values)
        return tuple(s for s, v in values if v.key == top)

    def split_part(self, part: str, amount: Cents, winners: Sequence[ShownHand], why: str) -> Half:
        """One part of a pot divided equally among tied winners, the excess by suit."""
        seats = tuple(h.seat for h in winners)
        hands = {h.seat: h.describe("low" if part == "low" else "high") for h in winners}
        half = Half(part, amount, seats, hands)
        if len(winners) == 1:
            half.shares.append(Share(seats[0], amount, why))
            return half
        ordered = self.odd_chip_order(winners, "low" if part == "low" else "high")
        amounts = divide(amount, len(winners), self.chip, self.cap)
        share = min(amounts)
        tie = f"tied {len(winners)} ways, divided equally ({dollar_text(share)} each)"
        paid = dict(zip((h.seat for h in ordered), amounts, strict=True))
        for h in winners:
            half.shares.append(Share(h.seat, paid[h.seat], f"{why}; {tie}"))
        for rank, h in enumerate(ordered):
            extra = paid[h.seat] - share
            if extra:
                reason = self.odd_chip_reason(part, extra, rank == 0)
                half.odd_chips.append(Share(h.seat, extra, reason))
        half.odd_chip = half.odd_chips[0] if half.odd_chips else None
        return half

    # -- a whole pot ------------------------------------------------------------------------

    def settle(
        self, pot: Pot, net: Cents, hands: dict[int, ShownHand], rake: Cents, bad_beat: Cents
    ) -> PotResult:
        sd = self.showdown
        if len(pot.eligible) == 1:
            seat = pot.eligible[0]
            why = f"the only player still in eligible for the {pot.name}"
            half = Half("pot", net, (seat,), {})
            half.shares.append(Share(seat, net, why))
            return PotResult(pot, rake, bad_beat, [half], why)
        contenders = [hands[s] for s in pot.eligible]
        if sd.pot in ("high", "low"):
            part = sd.pot
            if part == "low":  # a low-only game: only a qualifying low may win
                contenders = [h for h in contenders if h.low is not None and h.low_qualifies]
            winners = self.best(contenders, part)
            if not winners:
                raise ValueError(f"no {part} hand can win the {pot.name}")
            why = f"the {'highest ranking high' if part == 'high' else 'best low'} hand [{sd.cite}]"
            half = self.split_part(part, net, [hands[s] for s in winners], why)
            return PotResult(pot, rake, bad_beat, [half], why)
        high_seats = self.best(contenders, "high")
        qualifying = [h for h in contenders if h.low is not None and h.low_qualifies]
        low_seats = self.best(qualifying, "low")
        if not low_seats:
            cite = sd.no_qualifying_low.cite if sd.no_qualifying_low else sd.cite
            why = f"no hand qualifies for low: the highest high hand takes the entire pot [{cite}]"
            half = self.split_part("high", net, [hands[s] for s in high_seats], why)
            return PotResult(pot, rake, bad_beat, [half], why)
        larger, smaller = divide(net, 2, self.chip, self.cap)
        to = self.odd.pot_excess_to  # the half given the excess (§ 553.10(i)(2)(i): high)
        high_half, low_half = (larger, smaller) if to == "high" else (smaller, larger)
        part_why = {
            "high": f"the highest ranking high hand wins half the pot [{sd.cite}]",
            "low": f"the best qualifying low hand wins half the pot [{sd.cite}]",
        }
        if larger != smaller:
            part_why[to] += (
                f"; the {dollar_text(larger - smaller)} that cannot be divided equally goes "
                f"with the {to} half [{self.odd.cite}]"
            )
        halves = [
            self.split_part("high", high_half, [hands[s] for s in high_seats], part_why["high"]),
            self.split_part("low", low_half, [hands[s] for s in low_seats], part_why["low"]),
        ]
        if set(high_seats) == set(low_seats) and len(high_seats) == 1:
            reason = "one player has both the high and the low hand: he takes both halves"
        else:
            reason = "the pot is split between the high hand and the low hand"
        return PotResult(pot, rake, bad_beat, halves, reason)


# -- the round (settle.py) ------------------------------------------------------------------


def settle_round(game: Game, rnd: PokerRound) -> PokerSettlement:
    d = game.definition
    assert d.showdown is not None and d.rake is not None
    contributions = {s.seat: s.contributed for s in rnd.seats}
    folded = {s.seat for s in rnd.seats if s.folded}
    try:
        pots, uncalled = build_pots(contributions, folded)
    except PotError as e:
        raise RoundFileError([("/seats", str(e))]) from None
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
    splitter = OracleSplitter(game, card_orders(game), rnd.chip)
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
                if len(res.halves) == 1:  # the whole pot (Razz's low hand takes it all)
                    label = ""
                awards[share.seat].reasons.append(
                    f"{res.pot.name}{label}: {dollar_text(share.amount)}, {share.reason}"
                )
            for odd in half.odd_chips:
                awards[odd.seat].reasons.append(odd.reason)
    for award in awards.values():
        if award.folded:
            award.reasons.append("folded: no interest in any pot")
        elif not any(award.seat in h.winners for r in results for h in r.halves) and contested:
            award.reasons.append("lost at the showdown")  # a winner of a $0 pot did not lose
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
            frozenset(seat for seat, a in awards.items() if a.won > 0),
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
