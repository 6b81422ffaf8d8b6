"""The scalar engine's result: a settled round told seat by seat, wager by wager.

Each seat's wagers with the lines that settled them (a voided wager returned, written to
the ledger), the actions it took and the hand it compared; the dealer's cards, hand and
qualifying, the other cards on the table and the table game system's draws; the meters
before and after. The ledger must balance: money is neither made nor lost in a round.
"""

from __future__ import annotations

from typing import Any

from validator.cards import card_str, cards_str
from validator.compiler import draw_name, meter_label
from validator.interpreter.meters import MeterBank
from validator.interpreter.results import RoundResult, SeatResult, WagerResult
from validator.interpreter.rules import Rules
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_state import RoundState
from validator.model.procedure import Settle


def round_result(
    rules: Rules, meters: MeterBank, state: RoundState, hands: RoundHands, void: str | None
) -> RoundResult:
    """The round's result, once every line is settled (``void``: the irregularity's name)."""
    settle = rules.d.settle
    assert settle is not None
    seats_out = _seats(rules, state, hands, settle)
    dealer = _dealer(rules, state, hands, settle)
    if not state.ledger.balanced():  # pragma: no cover - an engine bug
        raise AssertionError(f"money not conserved in the round: {state.ledger}")
    return RoundResult(
        rules.d.id,
        seats_out,
        dealer,
        void,
        state.meters_before,
        meters.snapshot(),
        state.ledger,
        state.narration,
        names=_names(rules, meters),
        game_name=rules.d.name,
    )


def _names(rules: Rules, meters: MeterBank) -> dict[str, str]:
    """Each spot's wager and each meter as the chapter and the signs name them: ``Aces Up
    Wager``, ``Five-Card Progressive, Mega jackpot meter``."""
    names = {spot: rules.spot_name(spot) for spot in rules.spots}
    for m in meters.meters.values():
        names[m.key] = meter_label(rules.table(m.table).name, m.name)
    for group in rules.d.cards.dealt:  # the cards on the table: the Six Card Bonus card
        names.setdefault(group, rules.game.group_name(group))
    if rules.d.options_fee is not None:  # Lunar Poker's "Options fee" (§ 589.1)
        names["options_fee"] = rules.d.options_fee.name
    return names


def _seats(rules: Rules, state: RoundState, hands: RoundHands, settle: Settle) -> list[SeatResult]:
    seats_out = []
    for seat in sorted(state.seats, key=lambda s: s.number):
        wagers: dict[str, WagerResult] = {}
        for spot in rules.spots:
            if spot not in seat.stakes:
                continue
            wr = WagerResult(spot, seat.stakes[spot], placed_as=seat.placed_as.get(spot, ""))
            wr.lines = [ln for ln in seat.lines.values() if ln.spot == spot]
            if spot not in seat.standing:
                wr.void = True
                state.ledger.returned += wr.amount
                state.ledger.house -= wr.amount
            wagers[spot] = wr
        shown = []
        if seat.dealt_in and settle.compare:
            shown.append(hands.shown(settle.compare.player, seat))
        seats_out.append(
            SeatResult(
                seat.number,
                list(seat.cards["player"].held) if seat.dealt_in else [],
                wagers,
                list(seat.taken),
                shown,
                seat.fees,
                seat.folded,
                list(seat.told),
            )
        )
    return seats_out


def _dealer(rules: Rules, state: RoundState, hands: RoundHands, settle: Settle) -> dict[str, Any]:
    dealer: dict[str, Any] = {}
    if "dealer" in state.table:
        d = state.table["dealer"]
        dealer["cards"] = cards_str(d.dealt).split()
        if state.up:
            dealer["up"] = cards_str(state.up).split()
        if settle.compare:
            dealer["hand"] = hands.shown(settle.compare.dealer, None).to_json()
        if rules.qualifier:
            dealer["qualifies"] = hands.dealer_qualifies()
        if state.replaced:
            dealer["replaced"] = state.replaced
    if "community" in state.table:
        dealer["community"] = cards_str(state.table["community"].held).split()
    for g, c in state.table.items():
        if g not in ("dealer", "community"):
            dealer[g] = cards_str(c.held).split()
    if state.events:
        dealer["table_system"] = {k: event_str(v) for k, v in state.events.items()}
    return dealer


def event_str(v: tuple[str, int]) -> str:
    """A draw of the table game system as told: a card, or a position (the dealer's, a seat)."""
    kind, val = v
    return card_str(val) if kind == "card" else ("dealer" if val == 0 else str(val))


def draw_text(draw_id: str, told: str) -> str:
    """A draw as told (``event_str``) in words, for the narration and the settlement: "the
    Magic Card: QC", "the Lucky Bonus: position 6", "the Lucky Bonus: the dealer's
    position"."""
    if told == "dealer":
        told = "the dealer's position"
    elif told.isdigit():  # a seat's position; else a card
        told = f"position {told}"
    return f"the {draw_name(draw_id)}: {told}"
