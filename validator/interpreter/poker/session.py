"""A session at a nonbanking Poker table: many rounds of play with the button moving after
each (§ 553.11(c)(3)), players driven by the game's strategies.

- Table stakes: every seat buys in for 50 upper bets; between rounds of play (§ 553.8(b))
  a player left with less than a round requires buys in again to that amount.
- Time charges (§ 553.15(b)(3)) are never taken from a pot: the clock runs at the assumed
  hands per hour, and at the end of every period the period's share of the hourly fee is
  taken from the stacks of every seated player, players sitting out included.
- The Bad Beat fund starts at the submission's ``current_amount``; contributions go in after
  the rake, payouts come out of it and are paid to the players' stacks.
- Chips are conserved in every round (what the players put in = what they are awarded +
  the rake + the Bad Beat contribution) and over the session (the buy-ins = the stacks +
  the rake + the time charges + the Bad Beat contributions - the payouts).

Every deck and reshuffle comes from one random stream (``fast.stream``) seeded as a
simulation's table 0 (``validator.interpreter.chunks``), so ``play`` and ``simulate`` deal
the same first rounds for the same seed, and the same seed gives the same log, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from validator.cards import card_str
from validator.compiler import Game
from validator.interpreter.chunks import chunk_rng
from validator.interpreter.poker.bad_beat import describe_floor
from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.fast.block import (
    NOT_CONSERVED,
    NOT_SETTLED,
    TOO_FEW,
    Block,
    BlockTable,
)
from validator.interpreter.poker.fast.hand import DECK_OUT
from validator.interpreter.poker.fast.narrate import ReadRound, showdown
from validator.interpreter.poker.fast.program import compile_program
from validator.interpreter.poker.fast.settle import FastSettler, refusal
from validator.interpreter.poker.fast.stream import Stream
from validator.interpreter.poker.kill import KillRule
from validator.interpreter.poker.rake import completed_periods, time_charges
from validator.interpreter.poker.settle import PokerSettlement, settle_round
from validator.interpreter.poker.table import (
    BUY_IN_UPPER_BETS,
    Player,
    TableSetup,
    strategies,
)
from validator.interpreter.roundfile.poker import PokerRound, SeatRound, round_file
from validator.money import Cents, cents_figure, displayed

DEFAULT_HANDS_PER_HOUR = 30
#: the most rounds the fast path plays in one call of its block kernel
BLOCK_ROUNDS = 256
ONE = Fraction(1)  # the limits' multiplier where no Kill is in effect


@dataclass
class PlayedHand:
    """A round of ``play`` as it is narrated and recorded, read from its operation log."""

    players: list[Player]
    sitting_out: list[int]
    board: list[int]
    burns: list[int]
    log: list[str]
    showdown_order: list[int]
    settlement: PokerSettlement
    stacks_before: dict[int, Cents] = field(default_factory=dict)
    shown: list[int] = field(default_factory=list)  # hands shown at the showdown, in order
    conceded: list[int] = field(default_factory=list)  # losing hands conceded unshown
    round_put: list[Cents] = field(default_factory=list)  # chips in by each betting round
    operations: list[dict[str, Any]] | None = None  # the operation log's JSON (None: none)


@dataclass(slots=True)
class HandRecord:
    number: int
    button: int | None
    played: PlayedHand | None  # None: played in a block (no log kept)
    deck: list[int]
    fund_before: Cents
    fund_after: Cents
    bad_beat_paid: Cents
    buy_ins: dict[int, Cents]
    kill_multiplier: Fraction
    time_charges: dict[int, Cents] = field(default_factory=dict)  # after the hand
    time_buy_ins: dict[int, Cents] = field(default_factory=dict)  # to pay them
    deck_in_play: str = "A"  # with two decks alternated (§ 553.3(d)), A and B in turn
    rake: Cents = 0  # from the pots
    bad_beat_contribution: Cents = 0
    showdown: bool = False
    bad_beat_hit: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.played is None:
            raise ValueError("a round played by the fast path keeps no log")
        played, s = self.played, self.played.settlement

        def figures(by_seat: dict[int, Cents]) -> dict[str, str]:
            return {str(k): cents_figure(v) for k, v in by_seat.items()}

        return {
            "hand": self.number,
            "button": self.button,
            "kill_multiplier": str(self.kill_multiplier),
            "buy_ins": figures(self.buy_ins),
            "stacks_before": figures(played.stacks_before),
            "deck": [card_str(c) for c in self.deck],
            "board": [card_str(c) for c in played.board],
            "seats": [
                {
                    "seat": p.seat,
                    "cards": [card_str(c) for c in p.card_list()],
                    "contributed": cents_figure(p.contributed),
                    "folded": p.folded,
                    "all_in": p.all_in and not p.folded,
                    "award": cents_figure(s.seat(p.seat).award),
                    "bad_beat_payout": cents_figure(s.seat(p.seat).bad_beat),
                }
                for p in played.players
            ],
            "sitting_out": played.sitting_out,
            "pots": [cents_figure(p.pot.amount) for p in s.pots],
            "rake": cents_figure(s.rake.total),
            "bad_beat_contribution": cents_figure(s.bad_beat_contribution),
            "bad_beat_paid": cents_figure(self.bad_beat_paid),
            "fund_after": cents_figure(self.fund_after),
            "time_charges": figures(self.time_charges),
            "shown": played.shown,
            "conceded": played.conceded,
            "deck_in_play": self.deck_in_play,
            "betting_rounds": [cents_figure(x) for x in played.round_put],
            "time_buy_ins": figures(self.time_buy_ins),
            "log": played.log,
            # what ``settle LOG.jsonl --round K`` settles: the round as its round file states it
            "round_file": round_file(s.round),
        } | ({} if played.operations is None else {"operations": played.operations})


@dataclass
class Totals:
    hands: int = 0
    pots: Cents = 0
    rake: Cents = 0
    contributions: Cents = 0
    bad_beat_in: Cents = 0
    bad_beat_out: Cents = 0
    bad_beat_hits: int = 0
    showdowns: int = 0
    buy_ins: Cents = 0
    time_charges: Cents = 0
    net: dict[int, Cents] = field(default_factory=dict)

    def book(
        self,
        rounds: int,
        nets: Iterable[tuple[int, Cents]],
        *,
        pots: Cents,
        contributions: Cents,
        rake: Cents,
        bad_beat_in: Cents,
        bad_beat_out: Cents,
        bad_beat_hits: int,
        showdowns: int,
        buy_ins: Cents,
    ) -> None:
        """``rounds`` more rounds, each checked as it was settled: their figures added to the
        totals and each seat's net."""
        self.hands += rounds
        self.pots += pots
        self.contributions += contributions
        self.rake += rake
        self.bad_beat_in += bad_beat_in
        self.bad_beat_out += bad_beat_out
        self.bad_beat_hits += bad_beat_hits
        self.showdowns += showdowns
        self.buy_ins += buy_ins
        for seat, net in nets:
            self.net[seat] += net


class Session:
    def __init__(
        self,
        game: Game,
        setup: TableSetup,
        seats: int,
        seed: int | np.random.SeedSequence,
        strategy: str | None = None,
        hands_per_hour: int = DEFAULT_HANDS_PER_HOUR,
        narrated: bool = True,
    ) -> None:
        """``seed``: the stream's seed, as a simulation's table 0 is seeded, or a table's
        own seed sequence (``ChunkedSpec.seed_sequence``). ``narrated``: each round's
        operations logged and narrated (``play``); off, the same rounds are played a block
        at a time where the block kernel takes the table (``simulate``, ``par``)."""
        if not 2 <= seats <= setup.positions:
            raise ValueError(f"{game.definition.name} seats 2 to {setup.positions} players")
        self.game = game
        showdown = game.definition.showdown
        if showdown is not None and not showdown.order.concede:
            # § 553.16(d): where the game lets no losing hand be conceded, all are shown
            setup = replace(setup, stakes=replace(setup.stakes, show_all=True))
        self.setup = setup
        self.seats = list(range(1, seats + 1))
        self.stream = Stream(chunk_rng(seed))
        ps = strategies(game)
        mixed = ps.seats_alternate  # with no --strategy
        names = {s: strategy or mixed[(s - 1) % len(mixed)] for s in self.seats}
        for name in names.values():
            if name not in ps.named:
                raise KeyError(f"no strategy {name!r}: one of {', '.join(ps.named)}")
        self.strategies = names  # by seat
        st = setup.stakes
        self.buy_in = BUY_IN_UPPER_BETS * (st.upper or st.lower).max_bet
        self.stacks = {s: 0 for s in self.seats}
        self.fund = setup.rules.bad_beat.fund if setup.rules.bad_beat else 0
        self.fund_start = self.fund
        self.kill = setup.rules.kill
        self.button: int | None = self.seats[-1]
        self.totals = Totals(net={s: 0 for s in self.seats})
        self.hands_per_hour = hands_per_hour
        self.periods_charged = 0
        self.narrated = narrated
        program = compile_program(game, setup, names)
        if program.reason is not None:
            raise ValueError(f"{game.definition.name} cannot be dealt: {program.reason}")
        settler = FastSettler(game, setup.rules, setup.stakes, self.seats)
        if settler.reason is not None:
            raise ValueError(f"{game.definition.name} cannot be settled: {settler.reason}")
        multiplier = self.kill.multiplier if self.kill is not None else None
        self.block = BlockTable(program, settler, self.buy_in, multiplier)

    def hands(self, n: int) -> Iterator[HandRecord]:
        """``n`` rounds of play, a record each, played a block at a time (``_block``; a
        round a block where each is narrated): the session's state (stacks, button, Bad
        Beat fund, books) is that after the block when its first record is read."""
        number = 1
        while number <= n:
            records = self._block(number, n + 1 - number)
            yield from records
            number += len(records)

    def _block(self, number: int, limit: int) -> list[HandRecord]:
        """Up to ``limit`` rounds from round ``number`` played by the block kernel (one where
        each is narrated). A block ends where a time-charge period does, so the charges are
        taken from the stacks that round leaves."""
        rounds = min(limit, BLOCK_ROUNDS, self._rounds_to_period_end(number))
        before = np.array([self.stacks[s] for s in self.seats], dtype=np.int64)
        stacks = before.copy()
        dealt = np.maximum(before, self.buy_in)  # at most, a short stack bought in again
        log = ops.new_log(self.narrated, ops.log_rows(dealt, self.setup.stakes.lower.min_bet))
        killed = self._killed()
        played = self.block.play(
            self.stream, stacks, self.button, killed, self.fund, 1 if self.narrated else rounds, log
        )
        k = played.played
        if k == 0 or played.stopped == NOT_CONSERVED:
            self._refuse(number + k, played)
        dealt_stacks = before + played.buy_ins[0]  # the first round's, after its buy-ins
        narrated = self._narrate(played, log, dealt_stacks) if self.narrated else None
        figs = played.figures
        buy_ins = played.buy_ins[:k]
        self.totals.book(
            k,
            zip(self.seats, played.nets[:k].sum(axis=0).tolist(), strict=True),
            pots=int(figs.pots[:k].sum()),
            contributions=int(figs.contributed[:k].sum()),
            rake=int(figs.rake[:k].sum()),
            bad_beat_in=int(figs.bad_beat[:k].sum()),
            bad_beat_out=int(figs.paid[:k].sum()),
            bad_beat_hits=int(figs.hit[:k].sum()),
            showdowns=int(figs.showdown[:k].sum()),
            buy_ins=int(buy_ins.sum()),
        )
        self.stacks = dict(zip(self.seats, stacks.tolist(), strict=True))
        self.button = played.button if played.button is not None else self.button
        kill = self.kill
        if kill is not None:
            self.kill = replace(kill, in_effect=played.kill)
        records = self._records(number, k, played, kill)
        records[0].played = narrated
        self._charge_time(records[-1])  # the only round of the block that ends a period
        return records

    def _records(
        self, number: int, k: int, played: Block, kill: KillRule | None
    ) -> list[HandRecord]:
        """The block's ``k`` rounds from round ``number`` as records, each figure read a
        column at a time (a round's record costs a simulation more than its kernel does
        where it is read field by field); the Bad Beat fund carried round by round."""
        figs = played.figures
        after = (self.fund + np.cumsum(figs.bad_beat[:k] - figs.paid[:k])).tolist()
        before = [self.fund, *after[:-1]]
        self.fund = after[-1]
        seats = self.seats
        buy_ins = [
            {seat: b for seat, b in zip(seats, row, strict=True) if b} if any(row) else {}
            for row in played.buy_ins[:k].tolist()
        ]
        multiplier = kill.multiplier if kill is not None else ONE
        decks = "AB" if self.setup.decks_alternated else "AA"  # two alternated (§ 553.3(d))
        columns = zip(  # each in ``HandRecord``'s order, from its button on
            [b if b > 0 else None for b in figs.button[:k].tolist()],
            [None] * k,  # not narrated
            played.decks[:k].tolist(),
            before,
            after,
            figs.paid[:k].tolist(),
            buy_ins,
            [multiplier if on else ONE for on in figs.kill[:k].tolist()],
            [{} for _ in range(k)],  # the time charges, taken after the block
            [{} for _ in range(k)],
            [decks[(number + r - 1) % 2] for r in range(k)],
            figs.rake[:k].tolist(),
            figs.bad_beat[:k].tolist(),
            [x != 0 for x in figs.showdown[:k].tolist()],
            [x != 0 for x in figs.hit[:k].tolist()],
            strict=True,
        )
        return [HandRecord(number + r, *row) for r, row in enumerate(columns)]

    def _rounds_to_period_end(self, number: int) -> int:
        """How many rounds from round ``number`` to the end of the current time-charge
        period, that round included (``completed_periods``); no time charge: no end."""
        rule = self.setup.rules.charged_by_time
        if rule is None:
            return BLOCK_ROUNDS
        assert rule.every_minutes
        # the period ends with the first round whose hands played reach its minutes
        next_end = -(-(self.periods_charged + 1) * rule.every_minutes * self.hands_per_hour // 60)
        return max(1, next_end - number + 1)

    def _killed(self) -> bool:
        """The Kill is in effect this round (§ 553.12(m))."""
        return self.kill is not None and self.kill.in_effect

    def _refuse(self, number: int, played: Block) -> NoReturn:
        """Why the block stopped before round ``number`` (``Block.stopped``,
        ``Block.status``): its chips not conserved, fewer than two players dealt in (§
        553.8(b)(3)), the deck run out, a betting round that does not end, or what the
        settlement refuses (as ``settle_round`` refuses it)."""
        if played.stopped == NOT_CONSERVED:
            raise RuntimeError(f"hand {number}: chips not conserved")
        if played.stopped == NOT_SETTLED:
            raise refusal(played.settled, self.seats)
        if played.stopped == TOO_FEW:
            raise ValueError("a round of play needs two players with enough table stakes")
        if played.status == DECK_OUT:
            raise ValueError("the deck ran out")
        raise RuntimeError("a betting round that does not end")

    def _narrate(self, played: Block, log: Ints, stacks: Ints) -> PlayedHand:
        """The round of a block of one, its operations logged, settled (``_settle``), its
        showdown and the button's move logged after; the played round and its narration
        read from the log. ``stacks``: the seats' stacks as it was dealt."""
        before = dict(zip(self.seats, stacks.tolist(), strict=True))
        dealt_button = int(played.figures.button[0])
        button = dealt_button if dealt_button > 0 else None
        show_all = self.setup.stakes.show_all
        read = ReadRound(self.game, self.seats, before).read(log, 0, played.logged)
        settlement = self._settle(read.players, read.board, button, read.round_put)
        # a losing hand may be conceded unshown (§ 553.16(d)), but not the Bad Beat's: it
        # is verified before it is paid (§ 553.20(f)), so it is shown
        verified = set(settlement.bad_beat.losing) if settlement.bad_beat is not None else set()
        losers = {a.seat for a in settlement.seats if a.won == 0} - verified
        n = played.logged
        for seat, shown in showdown(read.in_hand(), played.last_aggressor, losers, show_all):
            op = ops.SHOW if shown else ops.CONCEDE
            n = ops.log_op(log, n, op, self.seats.index(seat), 0, 0, 0)
        n = self._log_settlement(log, n, settlement)
        if played.button is not None and button is not None:
            n = ops.log_op(log, n, ops.MOVE_BUTTON, self.seats.index(played.button), 0, 0, 0)
        read.read(log, played.logged, n, show_all)  # the showdown, the settlement, the button
        return PlayedHand(
            read.players,
            sorted(s for s in self.seats if s not in read.order),
            read.board,
            read.burns,
            read.lines,
            read.showdown_order,
            settlement,
            before,
            read.shown,
            read.conceded,
            read.round_put,
            ops.operations_json(log, n, self.seats),
        )

    def _log_settlement(self, log: Ints, n: int, settlement: PokerSettlement) -> int:
        """The settlement kernel's operations appended to the round's log (``n`` rows),
        its seats (indexed among the seats dealt in) and a pot's eligible seats (a bit
        each) read again as the table's; the rows the log holds after."""
        index = [self.seats.index(s.seat) for s in settlement.round.seats]
        for row in settlement.operations:
            what, seat, amount, card, detail = (int(x) for x in row)
            if what == ops.FORM_POT:
                detail = sum(1 << index[i] for i in range(len(index)) if detail >> i & 1)
            seat = index[seat] if seat != ops.NO_SEAT else seat
            n = ops.log_op(log, n, what, seat, amount, card, detail)
        return n

    def _settle(
        self, players: list[Player], board: list[int], button: int | None, round_put: list[int]
    ) -> PokerSettlement:
        """A round of ``play``, read from its log, settled (``settle_round``): each seat
        dealt in, the board, the button as dealt, the chips each betting round put in."""
        rules = self.setup.rules
        rake = rules.rake
        if rake is not None and rake.per_betting_round:
            rake = replace(rake, rounds=tuple(round_put))
        bad_beat = replace(rules.bad_beat, fund=self.fund) if rules.bad_beat else None
        seats = [
            SeatRound(p.seat, p.card_list(), p.contributed, p.folded, p.all_in and not p.folded, "")
            for p in players
        ]
        chip = self.setup.stakes.chip
        rnd = PokerRound(self.game.id, chip, seats, list(board), button, rake, bad_beat, self.kill)
        return settle_round(self.game, rnd)

    def _charge_time(self, record: HandRecord) -> None:
        """The time charges of every period the clock has completed by the end of the
        record's round (§ 553.15(b)(3)(i)-(iii)), taken from the stacks, on its record and
        in the books; a stack short of its charge buys in first (§ 553.8(b): between rounds
        of play)."""
        rule = self.setup.rules.charged_by_time
        if rule is None:
            return
        hands = record.number
        chip = self.setup.stakes.chip
        before, per_hour = self.periods_charged, self.hands_per_hour
        charges = time_charges(rule, before, per_hour, hands, self.seats, chip)
        self.periods_charged = completed_periods(rule, self.hands_per_hour, hands)
        t = self.totals
        for seat, charge in charges.items():
            if self.stacks[seat] < charge:
                record.time_buy_ins[seat] = self.buy_in - self.stacks[seat]
                t.buy_ins += record.time_buy_ins[seat]
                self.stacks[seat] = self.buy_in
            self.stacks[seat] -= charge
            t.time_charges += charge
            t.net[seat] -= charge
        record.time_charges = {k: v for k, v in charges.items() if v}


# -- the summary -----------------------------------------------------------------------------


def summary(session: Session, hands_per_hour: int | None = None) -> dict[str, Any]:
    t = session.totals
    rules = session.setup.rules
    rr = rules.rake
    hands_per_hour = hands_per_hour or session.hands_per_hour
    hours = Fraction(t.hands, hands_per_hour)
    time_charged = t.time_charges
    total = t.rake + time_charged
    stacks = sum(session.stacks.values())
    nets = sum(t.net.values())
    kept = t.rake + time_charged + t.bad_beat_in - t.bad_beat_out
    session_held = t.buy_ins == stacks + kept and nets + kept == 0
    st = session.setup.stakes
    return {
        "game": session.game.id,
        "rules": session.setup.source,
        "hands": t.hands,
        "seats": len(session.seats),
        "strategies": {str(k): v for k, v in session.strategies.items()},
        "stakes": {
            "lower": [cents_figure(st.lower.min_bet), cents_figure(st.lower.max_bet)],
            "upper": None
            if st.upper is None
            else [cents_figure(st.upper.min_bet), cents_figure(st.upper.max_bet)],
            "ante": cents_figure(st.ante),
            "blinds": [cents_figure(b) for b in st.blinds],
            "forced_bet": cents_figure(st.forced_bet),
            "max_raises": st.max_raises,
            "buy_in": cents_figure(session.buy_in),
        },
        "hands_per_hour": hands_per_hour,
        "hours": displayed(hours),
        "showdowns": t.showdowns,
        "pots": {
            "total": cents_figure(t.pots),
            "per_hand": displayed(Fraction(t.pots, 100 * t.hands)),
        },
        "rake": {
            "kind": rr.kind if rr is not None else "none",
            "from_pots": cents_figure(t.rake),
            "time_charges": cents_figure(time_charged),
            "total": cents_figure(total),
            "per_hand": displayed(Fraction(total, 100 * t.hands), 4),
            "per_hour": displayed(Fraction(total, 100) / hours),
        },
        "bad_beat": None
        if rules.bad_beat is None
        else {
            "qualifying": rules.bad_beat.at_least,
            "requirements": describe_floor(session.game, rules.bad_beat),
            "fund_start": cents_figure(session.fund_start),
            "contributions": cents_figure(t.bad_beat_in),
            "payouts": cents_figure(t.bad_beat_out),
            "hits": t.bad_beat_hits,
            "fund_end": cents_figure(session.fund),
        },
        "players": {
            str(s): {"strategy": session.strategies[s], "net": cents_figure(t.net[s])}
            for s in session.seats
        },
        "buy_ins": cents_figure(t.buy_ins),
        "invariant": {
            "rule": "contributions = awards + rake + Bad Beat contribution",
            "hands_checked": t.hands,  # a round whose chips are not conserved stops the session
            "held": True,
        },
        "session_invariant": {
            "rule": "buy-ins = stacks + rake from pots + time charges + Bad Beat contributions"
            " - Bad Beat payouts; the players' nets sum to minus all the house kept",
            "buy_ins": cents_figure(t.buy_ins),
            "stacks": cents_figure(stacks),
            "players_net": cents_figure(nets),
            "held": session_held,
        },
    }
