"""The scalar engine: one round, step by step, exactly as the game file's procedure says.

Every step of ``procedure:`` has a handler here (``_step_<kind>``), registered under its
word of the vocabulary; the round runs them in order over its state and settles every
line by the first row of its decision table whose conditions hold. The result keeps which
row applied, its citation and the hands each side held, so that a disputed round can be
explained wager by wager. Money is ``Decimal``, exact.

The round is composed of parts, each in a module of its own and each given what it reads:
``scalar_state`` (the seats, the cards on the table, the ledger, the narration),
``scalar_hands`` (what each hand is worth), ``scalar_conditions`` (whether a `when:` holds,
and why), ``scalar_decisions`` (the players' choices), ``scalar_settlement`` (the decision
tables paid, the payout limit) and ``scalar_result`` (the round told seat by seat). Its
cards come from a ``CardSource`` (``dealing``): the cards a round file states (``rulesub
settle``) or a shuffled deck (``rulesub play``), dealt in the order the chapter deals it,
which the batch engine reproduces, so the same deck settles the same in both engines.
"""

from __future__ import annotations

from collections.abc import Callable

from validator.cards import card_str, cards_str, rank_of
from validator.interpreter.actions import exchanged
from validator.interpreter.dealing import CardSource
from validator.interpreter.errors import RoundError
from validator.interpreter.meters import MeterBank
from validator.interpreter.results import RoundResult
from validator.interpreter.rules import Rules
from validator.interpreter.scalar_conditions import RoundConditions
from validator.interpreter.scalar_decisions import RoundDecisions
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_result import draw_text, event_str, round_result
from validator.interpreter.scalar_settlement import RoundSettlement
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Cards, Seat
from validator.model.procedure import (
    DealStep,
    DecideStep,
    DrawStep,
    QualifyStep,
    ReplaceStep,
    RevealStep,
    SettleStep,
    Strategy,
    TableSystemStep,
    WagersStep,
    turns,
)
from validator.vocabulary import STEP, meaning, meaning_of

#: the table game system's draws: as a round file states them, or drawn as the round asks
TableSystem = dict[str, tuple[str, int]] | Callable[[str, str], tuple[str, int]]


class Engine:
    """Runs rounds of one game at one table (its meters persist from round to round)."""

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | None = None,
        meters: MeterBank | None = None,
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.meters = meters if meters is not None else rules.new_meters()

    def run(
        self,
        seats: list[Seat],
        source: CardSource,
        table_system: TableSystem,
        irregularity: str | None = None,
    ) -> RoundResult:
        r = _Round(self, seats, source, table_system, irregularity)
        return r.play()


class _Round:
    """One round, step by step: each step of the procedure by its meaning in the vocabulary,
    over the round's state, with its hands, conditions, decisions and settlement."""

    def __init__(
        self,
        engine: Engine,
        seats: list[Seat],
        source: CardSource,
        table_system: TableSystem,
        irregularity: str | None,
    ) -> None:
        self.rules = rules = engine.rules
        self.meters = engine.meters
        self.source = source
        self.table_system = table_system
        self.irregularity = irregularity
        self.state = state = RoundState(seats, engine.meters.snapshot())
        self.hands = hands = RoundHands(rules, state)
        self.conditions = conditions = RoundConditions(rules, state, hands)
        self.decisions = RoundDecisions(rules, engine.strategy, state, hands, conditions)
        self.settlement = RoundSettlement(rules, engine.meters, state, hands, conditions)
        self._turn: Seat | None = None  # the player whose turn it is (steps ``in_turn``)

    def _seats(self, order: str) -> list[Seat]:
        """The players a step goes to, in its order; in a turn, the one whose turn it is."""
        return [self._turn] if self._turn is not None else self.state.ordered(order)

    # -- running ------------------------------------------------------------------------

    def play(self) -> RoundResult:
        state = self.state
        void = self.rules.void(self.irregularity) if self.irregularity is not None else None
        for seat in state.seats:
            for spot in seat.stakes:
                if void is None or self.rules.stands_in_void(spot, void):
                    seat.standing.add(spot)
        before_play = WagersStep | DealStep | TableSystemStep  # all a void round plays
        for steps in turns(self.rules.procedure):
            if void is not None and not isinstance(steps[0], before_play):
                continue
            if len(steps) == 1 and not getattr(steps[0], "in_turn", False):
                meaning_of(STEP.id, steps[0].step, "scalar")(self, steps[0])
                continue
            for seat in state.ordered(steps[0].order):  # each player's turn, in order
                self._turn = seat
                for step in steps:
                    meaning_of(STEP.id, step.step, "scalar")(self, step)
            self._turn = None
        if void is not None:
            state.narrate(void.cite, f"void: {void.name}; the wagers are returned")
            for seat in state.ordered("from_dealer_right"):
                for lid in void.settles:
                    self.settlement.settle_line(seat, lid, self.rules.lines[lid])
        self.settlement.apply_payout_limit()
        return round_result(self.rules, self.meters, state, self.hands, void.name if void else None)

    # -- steps --------------------------------------------------------------------------

    @meaning("scalar", STEP.id, "wagers")
    def _step_wagers(self, step: WagersStep) -> None:
        meter_tables = self.rules.meter_tables()
        for seat in self.state.seats:
            for spot, stake in seat.stakes.items():
                self.state.ledger.wagered += stake
                self.state.ledger.house += stake
                wager = self.rules.spot_wager(spot)
                if wager in meter_tables and spot in seat.standing:
                    for m in self.meters.for_table(meter_tables[wager]):
                        c = m.contribute(stake)
                        self.state.ledger.contributions += c
                        self.state.ledger.house -= c
        self.state.narrate(step.cite, "no more bets")

    @meaning("scalar", STEP.id, "deal")
    def _step_deal(self, step: DealStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.state.seats):
            return
        seats = [
            s.number
            for s in self.state.ordered("from_dealer_left")
            if s.stakes and ("player" not in step.cards or self.conditions.holds(step.players, s))
        ]
        dealt = self.source.deal(step, seats)
        for (group, number), cards in dealt.items():
            if group == "player":
                self.state.by_number[number].cards.setdefault("player", Cards()).add(cards)
            else:
                self.state.table.setdefault(group, Cards()).add(cards)
        for group, positions in step.face_up.items():
            if group == "dealer":
                d = self.state.table["dealer"].dealt
                self.state.up += [d[p - 1] for p in positions if p - 1 < len(d)]
        self.state.version += 1
        game = self.rules.game  # a seat's cards dealt to it; the table's dealt as what they are
        what = step.name or ", ".join(  # the chapter's name for them, where it gives one
            f"{n} to {g}" if g in ("player", "dealer") else f"{n} as {game.cards_of(g)}"
            for g, n in step.cards.items()
        )
        burn = f"burn {step.burn} card{'s' if step.burn > 1 else ''}, then " if step.burn else ""
        self.state.narrate(
            step.cite,
            f"{burn}deal {what}"
            + (
                f" (dealer's up card {cards_str(self.state.up)})"
                if self.state.up and "dealer" in step.cards
                else ""
            ),
        )

    @meaning("scalar", STEP.id, "table_system")
    def _step_table_system(self, step: TableSystemStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.state.seats):
            return
        if callable(self.table_system) and not any(map(self.rules.draw_enabled, step.draws)):
            return  # the table pays on no draw: the submission offers none (§ 641a.12(g)(3))
        for draw_id, kind in step.draws.items():
            if callable(self.table_system):
                if not self.rules.draw_enabled(draw_id):
                    continue
                self.state.events[draw_id] = self.table_system(draw_id, kind)
            elif draw_id in self.table_system:
                self.state.events[draw_id] = self.table_system[draw_id]
        shown = ", ".join(draw_text(k, event_str(v)) for k, v in self.state.events.items())
        self.state.narrate(step.cite, f"table game system draws: {shown or 'none given'}")

    @meaning("scalar", STEP.id, "reveal")
    def _step_reveal(self, step: RevealStep) -> None:
        d = self.state.table.get("dealer")
        if d:
            self.state.narrate(step.cite, f"dealer reveals {cards_str(d.held)}")

    @meaning("scalar", STEP.id, "qualify")
    def _step_qualify(self, step: QualifyStep) -> None:
        q = self.rules.qualifier
        if q is None or self.state.qualified_at == self.state.version:  # nothing changed since
            return
        self.state.qualified_at = self.state.version
        v = self.hands.value(q[0], None)
        ok = self.hands.dealer_qualifies()
        self.state.narrate(step.cite, f"dealer's {v} {'qualifies' if ok else 'does not qualify'}")

    @meaning("scalar", STEP.id, "replace")
    def _step_replace(self, step: ReplaceStep) -> None:
        if not self.conditions.holds(step.when, None):
            return
        d = self.state.table["dealer"]
        top = max(rank_of(c) for c in d.held)
        out = next(c for c in d.dealt if c in d.held and rank_of(c) == top)
        d.held.remove(out)
        new = self.source.next(1, "the dealer's replacement card")
        d.add(new)
        self.state.version += 1
        self.state.replaced = {"discarded": card_str(out), "drawn": card_str(new[0])}
        self.state.narrate(
            step.cite, f"dealer discards {card_str(out)} and draws {card_str(new[0])}"
        )

    @meaning("scalar", STEP.id, "draw")
    def _step_draw(self, step: DrawStep) -> None:
        for seat in self._seats(step.order):
            a = seat.pending
            if a is None or not self.conditions.holds(step.players, seat):
                continue
            seat.pending = None
            cards = seat.cards["player"]
            if a.keep is not None:  # a strategy's exchange: the cards it keeps
                a.cards = exchanged(cards.held, a.keep_paired, a.keep)
            opt = self.decisions.option_of(a)
            if a.cards or (opt is not None and opt.draw == "exchange"):
                rng = self.rules.draw_cards(opt)
                twice = sorted({c for c in a.cards if a.cards.count(c) > 1})
                if twice:  # each card discarded is one of the hand's, named once
                    raise RoundError(
                        f"seat {seat.number}: the exchange names "
                        f"{', '.join(card_str(c) for c in twice)} twice",
                        seat.actions_pointer,
                    )
                for c in a.cards:
                    if c not in cards.held:
                        raise RoundError(
                            f"seat {seat.number}: {card_str(c)} is not in the player's hand",
                            seat.actions_pointer,
                        )
                if rng and not rng[0] <= len(a.cards) <= rng[1]:
                    raise RoundError(
                        f"seat {seat.number}: an exchange is of {rng[0]} to {rng[1]} cards, not "
                        f"{len(a.cards)} ({opt.cite if opt else ''})",
                        seat.actions_pointer,
                    )
                for c in a.cards:
                    cards.held.remove(c)
                new = self.source.next(len(a.cards), f"seat {seat.number}'s exchange")
                a.text = "exchange " + " ".join(card_str(c) for c in a.cards)
                if seat.taken and seat.taken[-1].startswith("exchange"):
                    seat.taken[-1] = a.text  # a strategy's exchange, now with its cards
            else:
                rng = self.rules.draw_cards(opt)
                n = rng[0] if rng else 1
                new = self.source.next(n, f"seat {seat.number}'s draw")
            cards.add(new)
            self.state.version += 1
            self.state.narrate(step.cite, f"seat {seat.number} draws {cards_str(new)}")

    @meaning("scalar", STEP.id, "decide")
    def _step_decide(self, step: DecideStep) -> None:
        if step.when is not None and not self.conditions.holds(step.when, None):
            return
        for seat in self._seats(step.order):
            if not seat.dealt_in or seat.folded or not self.conditions.holds(step.players, seat):
                continue
            self.decisions.decide(step, seat)

    @meaning("scalar", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        # a settlement before the round's end (Lunar Poker's Super Wager and instant payout
        # before any draw, § 589.11(c)) is told where it happens; the round's last
        # settlement is the settlement table's
        at = next(i for i, s in enumerate(self.rules.procedure) if s is step)
        told = at in self.rules.settled_midway
        for seat in self._seats(step.order):
            if not self.conditions.holds(step.players, seat):
                continue
            for lid in step.lines:
                self.settlement.settle_line(seat, lid, self.rules.lines[lid], told=told)
