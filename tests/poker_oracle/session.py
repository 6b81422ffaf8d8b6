"""The reference engine of a nonbanking Poker session: every round dealt, bet and settled by
``table.Hand`` (the Python oracle the kernels are held equal to), one at a time, with the
between-rounds rules written again in Python (§ 553.8(b) buy-ins, the chips checked
conserved, the Bad Beat fund, the Kill carried, the button moved); the books, the time
charges and the random stream are ``Session``'s."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction

from tests.poker_oracle.strategy import TableStrategy
from tests.poker_oracle.table import Hand, OracleStream
from validator.interpreter.poker.session import ONE, HandRecord, Session
from validator.interpreter.poker.table import Rules


def next_button(seats: Sequence[int], button: int) -> int:
    """The button moves clockwise after each round of play (§ 553.11(c)(3)): to the seat on
    its left, the lowest seat after the last."""
    return min((s for s in seats if s > button), default=min(seats))


class ReferenceSession(Session):
    """A ``Session`` whose rounds ``table.Hand`` plays (no block, no kernel)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        assert self.stream.read == 0  # the same words, shuffled in place as the oracle does
        self.stream = OracleStream(self.stream.rng)
        self.strategy = TableStrategy(self.game, self.strategies)

    def hands(self, n: int) -> Iterator[HandRecord]:
        for number in range(1, n + 1):
            yield self.play_one(number)

    def play_one(self, number: int) -> HandRecord:
        need: Fraction | int = self.setup.stakes.required()
        if self._killed():
            assert self.kill is not None
            need = need * self.kill.multiplier
        buy_ins = {}
        for seat in self.seats:  # between rounds of play a player may add to his table stakes
            if self.stacks[seat] < need:
                buy_ins[seat] = self.buy_in - self.stacks[seat]
                self.stacks[seat] = self.buy_in
        deck = self.stream.deck()
        rules = self.setup.rules
        bad_beat = replace(rules.bad_beat, fund=self.fund) if rules.bad_beat else None
        hand = Hand(
            self.game,
            dict(self.stacks),
            self.setup.stakes,
            deck,
            self.strategy,
            button=self.button,
            rules=Rules(rake=rules.rake, bad_beat=bad_beat, kill=self.kill),
            rng=self.stream,
            narrated=self.narrated,
        )
        self.strategy.board = hand.board  # the strategy reads the board as it is dealt
        played = hand.play()
        s = played.settlement
        put = sum(a.contributed for a in s.seats)
        if put != sum(a.award for a in s.seats) + s.rake.total + s.bad_beat_contribution:
            raise RuntimeError(f"hand {number}: chips not conserved")
        nets = [(a.seat, a.award + a.bad_beat - a.contributed) for a in s.seats]
        paid = sum(a.bad_beat for a in s.seats)
        hit = bool(s.bad_beat and s.bad_beat.hit)
        fund_before = self.fund
        if rules.bad_beat is not None:
            self.fund += s.bad_beat_contribution - paid
        showdown = bool(played.showdown_order)
        self.totals.book(
            1,
            nets,
            pots=sum(p.pot.amount for p in s.pots),
            contributions=put,
            rake=s.rake.total,
            bad_beat_in=s.bad_beat_contribution,
            bad_beat_out=paid,
            bad_beat_hits=hit,
            showdowns=showdown,
            buy_ins=sum(buy_ins.values()),
        )
        record = HandRecord(
            number,
            hand.button,
            played,
            deck,
            fund_before,
            self.fund,
            paid,
            buy_ins,
            self.kill.multiplier if self.kill is not None and self._killed() else ONE,
            # two decks alternated (§ 553.3(d)): A and B in turn
            deck_in_play="AB"[(number - 1) % 2] if self.setup.decks_alternated else "A",
            rake=s.rake.total,
            bad_beat_contribution=s.bad_beat_contribution,
            showdown=showdown,
            bad_beat_hit=hit,
        )
        for seat, net in nets:
            self.stacks[seat] += net
        self._charge_time(record)
        if self.kill is not None and s.kill is not None:
            self.kill = replace(self.kill, in_effect=s.kill.in_effect_next)
        if hand.button is not None:
            self.button = next_button(self.seats, hand.button)
        return record
