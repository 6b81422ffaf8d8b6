"""The scalar engine: one round, step by step, exactly as the game file's procedure says.

Every step of ``procedure:`` has a handler here (``_step_<kind>``), every condition key its
meaning (``_when_<key>``), each registered under its word of the vocabulary; every
settlement line is settled by the first row of its decision table whose conditions hold,
and the result keeps which row applied, its citation and the hands each side held, so that
a disputed round can be explained wager by wager. Money is ``Decimal``, exact.

The round stands on ``scalar_hands`` (its state and the hands it holds),
``scalar_settlement`` (the decision tables paid, the payout limit, the result) and
``scalar_decisions`` (the players' choices). Its cards come from a ``CardSource``
(``dealing``): the cards a round file states (``rulesub settle``) or a shuffled deck
(``rulesub play``), dealt in the order the chapter deals it, which the batch engine
reproduces, so the same deck settles the same in both engines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from validator.cards import card_str, cards_str, rank_of
from validator.interpreter.actions import exchanged
from validator.interpreter.dealing import CardSource
from validator.interpreter.errors import RoundError
from validator.interpreter.meters import MeterBank
from validator.interpreter.results import RoundResult
from validator.interpreter.rules import CONDITION_KEYS, Rules
from validator.interpreter.scalar_decisions import RoundDecisions
from validator.interpreter.scalar_settlement import event_str
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
    When,
)
from validator.vocabulary import CONDITION, STEP, meaning, meaning_of


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
        table_system: dict[str, tuple[str, int]] | Callable[[str, str], tuple[str, int]],
        irregularity: str | None = None,
    ) -> RoundResult:
        r = _Round(self, seats, source, table_system, irregularity)
        return r.play()


class _Round(RoundDecisions):
    """One round, step by step: each step of the procedure and each condition key by its
    meaning in the vocabulary."""

    # -- running ------------------------------------------------------------------------

    def play(self) -> RoundResult:
        void = self.rules.void(self.irregularity) if self.irregularity is not None else None
        for seat in self.seats:
            for spot in seat.stakes:
                if void is None or self.rules.stands_in_void(spot, void):
                    seat.standing.add(spot)
        for step in self.rules.procedure:
            if void is not None and not isinstance(step, WagersStep | DealStep | TableSystemStep):
                continue
            meaning_of(STEP.id, step.step, "scalar")(self, step)
        if void is not None:
            self.narrate(void.cite, f"void: {void.name}; the wagers are returned")
            for seat in self._ordered("from_dealer_right"):
                for lid in void.settles:
                    self._settle_line(seat, lid, self.rules.lines[lid])
        self._apply_payout_limit()
        return self._result(void.name if void else None)

    # -- steps --------------------------------------------------------------------------

    @meaning("scalar", STEP.id, "wagers")
    def _step_wagers(self, step: WagersStep) -> None:
        meter_tables = self.rules.meter_tables()
        for seat in self.seats:
            for spot, stake in seat.stakes.items():
                self.ledger.wagered += stake
                self.ledger.house += stake
                wager = self.rules.spot_wager(spot)
                if wager in meter_tables and spot in seat.standing:
                    for m in self.e.meters.for_table(meter_tables[wager]):
                        c = m.contribute(stake)
                        self.ledger.contributions += c
                        self.ledger.house -= c
        self.narrate(step.cite, "no more bets")

    @meaning("scalar", STEP.id, "deal")
    def _step_deal(self, step: DealStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.seats):
            return
        seats = [
            s.number
            for s in self._ordered("from_dealer_left")
            if s.stakes and ("player" not in step.cards or self.holds(step.players, s))
        ]
        dealt = self.source.deal(step, seats)
        for (group, number), cards in dealt.items():
            if group == "player":
                self.by_number[number].cards.setdefault("player", Cards()).add(cards)
            else:
                self.table.setdefault(group, Cards()).add(cards)
        for group, positions in step.face_up.items():
            if group == "dealer":
                d = self.table["dealer"].dealt
                self.up += [d[p - 1] for p in positions if p - 1 < len(d)]
        self.version += 1
        what = ", ".join(f"{n} to {g.replace('_', ' ')}" for g, n in step.cards.items())
        burn = f"burn {step.burn} card{'s' if step.burn > 1 else ''}, then " if step.burn else ""
        self.narrate(
            step.cite,
            f"{burn}deal {what}"
            + (
                f" (dealer's up card {cards_str(self.up)})"
                if self.up and "dealer" in step.cards
                else ""
            ),
        )

    @meaning("scalar", STEP.id, "table_system")
    def _step_table_system(self, step: TableSystemStep) -> None:
        if step.when_wagered and not any(s.wagered(step.when_wagered) for s in self.seats):
            return
        for draw_id, kind in step.draws.items():
            if callable(self.table_system):
                if not self.rules.draw_enabled(draw_id):
                    continue
                self.events[draw_id] = self.table_system(draw_id, kind)
            elif draw_id in self.table_system:
                self.events[draw_id] = self.table_system[draw_id]
        shown = ", ".join(f"{k} {event_str(v)}" for k, v in self.events.items())
        self.narrate(step.cite, f"table game system draws: {shown or 'none given'}")

    @meaning("scalar", STEP.id, "reveal")
    def _step_reveal(self, step: RevealStep) -> None:
        self.revealed = True
        d = self.table.get("dealer")
        if d:
            self.narrate(step.cite, f"dealer reveals {cards_str(d.held)}")

    @meaning("scalar", STEP.id, "qualify")
    def _step_qualify(self, step: QualifyStep) -> None:
        q = self.rules.qualifier
        if q is None or self.qualified_at == self.version:  # nothing changed since
            return
        self.qualified_at = self.version
        v = self.value(q[0], None)
        ok = self.dealer_qualifies()
        self.narrate(step.cite, f"dealer's {v} {'qualifies' if ok else 'does not qualify'}")

    @meaning("scalar", STEP.id, "replace")
    def _step_replace(self, step: ReplaceStep) -> None:
        if not self.holds(step.when, None):
            return
        d = self.table["dealer"]
        top = max(rank_of(c) for c in d.held)
        out = next(c for c in d.dealt if c in d.held and rank_of(c) == top)
        d.held.remove(out)
        new = self.source.next(1, "the dealer's replacement card")
        d.add(new)
        self.version += 1
        self.replaced = {"discarded": card_str(out), "drawn": card_str(new[0])}
        self.narrate(step.cite, f"dealer discards {card_str(out)} and draws {card_str(new[0])}")

    @meaning("scalar", STEP.id, "draw")
    def _step_draw(self, step: DrawStep) -> None:
        for seat in self._ordered(step.order):
            a = seat.pending
            if a is None or not self.holds(step.players, seat):
                continue
            seat.pending = None
            cards = seat.cards["player"]
            if a.keep is not None:  # a strategy's exchange: the cards it keeps
                a.cards = exchanged(cards.held, a.keep_paired, a.keep)
            opt = self._option_of(a)
            if a.cards or (opt is not None and opt.draw == "exchange"):
                rng = self.rules.draw_cards(opt)
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
            self.version += 1
            self.narrate(step.cite, f"seat {seat.number} draws {cards_str(new)}")

    @meaning("scalar", STEP.id, "decide")
    def _step_decide(self, step: DecideStep) -> None:
        if step.when is not None and not self.holds(step.when, None):
            return
        for seat in self._ordered(step.order):
            if not seat.dealt_in or seat.folded or not self.holds(step.players, seat):
                continue
            self._decide(step, seat)

    @meaning("scalar", STEP.id, "settle")
    def _step_settle(self, step: SettleStep) -> None:
        for seat in self._ordered(step.order):
            if not self.holds(step.players, seat):
                continue
            for lid in step.lines:
                self._settle_line(seat, lid, self.rules.lines[lid])

    # -- conditions ---------------------------------------------------------------------

    def holds(self, w: When, seat: Seat | None, side: str = "player") -> bool:
        return all(ok for ok, _ in self._tests(w, seat, side))

    def explain(self, w: When, seat: Seat | None, side: str = "player") -> list[str]:
        return [why for _, why in self._tests(w, seat, side) if why]

    def _tests(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        """Each condition key given, by its meaning in the vocabulary: whether it holds, and
        what of the round it rests on (told in the settlement's reasons)."""
        for key in CONDITION_KEYS:
            if getattr(w, key) is not None:
                yield from meaning_of(CONDITION.id, key, "scalar")(self, w, seat, side)

    @meaning("scalar", CONDITION.id, "folded")
    def _when_folded(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        f = bool(seat and seat.folded)
        yield f == w.folded, ("the player folded" if f else "")

    @meaning("scalar", CONDITION.id, "decided")
    def _when_decided(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for did, opts in (w.decided or {}).items():
            chose = seat.decided.get(did, "none") if seat else "none"
            yield chose in opts, (f"chose {chose}" if chose != "none" else "")

    @meaning("scalar", CONDITION.id, "wagered")
    def _when_wagered(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        yield bool(seat) and all(seat.wagered(x) for x in w.wagered or ()), ""  # type: ignore[union-attr]

    @meaning("scalar", CONDITION.id, "not_wagered")
    def _when_not_wagered(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        yield not (seat and any(seat.wagered(x) for x in w.not_wagered or ())), ""

    @meaning("scalar", CONDITION.id, "dealer_qualifies")
    def _when_dealer_qualifies(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        q = self.dealer_qualifies()
        hand = self.rules.qualifier[0] if self.rules.qualifier else ""
        yield (
            q == w.dealer_qualifies,
            f"the dealer's {self.shown(hand, None)} " + ("qualifies" if q else "does not qualify"),
        )

    @meaning("scalar", CONDITION.id, "player")
    def _when_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert seat is not None and w.player is not None
        cmp = self.compare(seat)
        c = self._compared()
        mine, theirs = self.shown(c.player, seat), self.shown(c.dealer, seat)
        word = "to" if cmp == "equal" else "than"
        yield cmp in w.player, f"the player's {mine} is {cmp} {word} the dealer's {theirs}"

    @meaning("scalar", CONDITION.id, "hand")
    def _when_hand(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for hid, test in (w.hand or {}).items():
            hs = None if hid.startswith("dealer") else seat
            v = self.value(hid, hs)
            ok = v is not None
            if v is not None and test.at_least is not None:
                ok = v.key >= self.rules.threshold(hid, test.at_least)
            if v is not None and ok and test.below is not None:
                ok = v.key < self.rules.threshold(hid, test.below)
            if ok and (test.is_ is not None or test.is_not is not None):
                held = self._held_chain(hid, hs)
                if test.is_ is not None:
                    ok = bool(held & set(test.is_))
                if ok and test.is_not is not None:
                    ok = not (held & set(test.is_not))
            who = "dealer's" if hid.startswith("dealer") else "player's"
            yield ok, (f"the {who} {self.shown(hid, hs)}" if v is not None else "")

    @meaning("scalar", CONDITION.id, "beats")
    def _when_beats(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.beats is not None
        a, b = self.value(w.beats.hand, seat), self.value(w.beats.other, seat)
        ok = a is not None and b is not None
        if ok:
            cmp = "higher" if a.key > b.key else "lower" if a.key < b.key else "equal"  # type: ignore[union-attr]
            ok = cmp in w.beats.is_
        yield ok, ""

    @meaning("scalar", CONDITION.id, "dealer_up")
    def _when_dealer_up(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.dealer_up is not None
        up = self.up[0] if self.up else None
        ok = up is not None
        if ok and w.dealer_up.rank_in is not None:
            ok = rank_of(up) in w.dealer_up.rank_in  # type: ignore[arg-type]
        if ok and w.dealer_up.rank_at_least is not None:
            ok = rank_of(up) >= w.dealer_up.rank_at_least  # type: ignore[arg-type]
        yield ok, ""

    @meaning("scalar", CONDITION.id, "holds_dealer_up_rank")
    def _when_holds_dealer_up_rank(
        self, w: When, seat: Seat | None, side: str
    ) -> Iterator[tuple[bool, str]]:
        up = self.up[0] if self.up else None
        ok = up is not None
        if ok:
            mine = {rank_of(c) for c in (seat.cards["player"].held if seat else [])}
            ok = (rank_of(up) in mine) == w.holds_dealer_up_rank  # type: ignore[arg-type]
        yield ok, ""

    @meaning("scalar", CONDITION.id, "suited")
    def _when_suited(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        for group, want in (w.suited or {}).items():
            cards = (
                (seat.cards["player"].held if seat and "player" in seat.cards else [])
                if group == "player"
                else self.table.get(group, Cards()).held
            )
            yield (len({c % 4 for c in cards}) == 1) == want, ""

    @meaning("scalar", CONDITION.id, "event")
    def _when_event(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.event is not None
        ev_ = self.events.get(w.event.id)
        ok = False
        why = ""
        if ev_ is not None:
            kind, val = ev_
            if kind == "card":
                event_hand = self.rules.d.hands[w.event.hand] if w.event.hand else None
                hs = None if w.event.hand and w.event.hand.startswith("dealer") else seat
                ok = event_hand is not None and val in self.cards_of(event_hand, hs)
                why = f"the {w.event.id.replace('_', ' ')} {card_str(val)} is in the hand"
            else:
                pos = 0 if side == "dealer" else (seat.number if seat else -1)
                ok = val == pos
                why = f"the {w.event.id.replace('_', ' ')} position is {_position(val)}"
        yield ok, why if ok else ""

    @meaning("scalar", CONDITION.id, "any_player")
    def _when_any_player(self, w: When, seat: Seat | None, side: str) -> Iterator[tuple[bool, str]]:
        assert w.any_player is not None
        yield any(self.holds(w.any_player, s) for s in self.seats if s.dealt_in), ""


def _position(v: int) -> str:
    return "the dealer's" if v == 0 else f"seat {v}"
