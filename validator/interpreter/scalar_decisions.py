"""The scalar engine's decisions: what each player asked chooses, and what the choice does.

A round file's actions are taken in order (``play 3x``, ``exchange 2C 5D``), the step's
default where the file says nothing; otherwise the strategy's first row whose conditions
hold. An option places a wager sized from another (in the range its rules allow for the
hand), pays a fee, folds, or asks for a draw (a card added, or the cards an exchange does
not keep).
"""

from __future__ import annotations

from decimal import Decimal

from validator.cards import card_str
from validator.interpreter.actions import Action, parse_action
from validator.interpreter.errors import RoundError
from validator.interpreter.rules import Rules
from validator.interpreter.scalar_conditions import RoundConditions
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Seat
from validator.model.procedure import DecideStep, Option, Strategy
from validator.money import format_money


class RoundDecisions:
    """Each player asked decides: from the round file's actions or from the strategy; the
    option taken places its wager, pays its fee or asks for a draw."""

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | None,
        state: RoundState,
        hands: RoundHands,
        conditions: RoundConditions,
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.state = state
        self.hands = hands
        self.conditions = conditions

    def option_of(self, a: Action) -> Option | None:
        for d in self.rules.decisions.values():
            if a.option in d.options:
                return d.options[a.option]
        return None

    def decide(self, step: DecideStep, seat: Seat) -> None:
        available = {
            oid: o
            for oid, o in step.options.items()
            if o.available is None or self.conditions.holds(o.available, seat)
        }
        action: Action | None = None
        if seat.actions is not None:
            nxt = parse_action(seat.actions[0]) if seat.actions else None
            if nxt is not None and nxt.option in step.options:
                seat.actions.popleft()
                action = nxt
            elif step.default is not None:
                action = Action(step.default, text=step.default)
            elif nxt is None:
                raise RoundError(
                    f"seat {seat.number}: the round needs the player's decision "
                    f"{step.id!r} ({' / '.join(available)}; {step.cite}) but no action is left",
                    seat.actions_pointer,
                )
            else:
                raise RoundError(
                    f"seat {seat.number}: {nxt.text!r} is not a choice at decision {step.id!r}; "
                    f"the player may: {' / '.join(available)} ({step.cite})",
                    seat.actions_pointer,
                )
        else:
            action = self._strategy_action(step, seat, available)
        if action.option not in available:
            opt = step.options[action.option]
            raise RoundError(
                f"seat {seat.number}: {action.text!r} is not allowed here ({opt.cite})",
                seat.actions_pointer,
            )
        self._apply(step, seat, action, available[action.option])

    def _strategy_action(
        self, step: DecideStep, seat: Seat, available: dict[str, Option]
    ) -> Action:
        if self.strategy is not None:
            for row in self.strategy.decisions.get(step.id, []):
                if not self.conditions.holds(row.when, seat):
                    continue
                if isinstance(row.then, str):
                    a = parse_action(row.then)
                else:
                    k = row.then.keep
                    a = Action(
                        row.then.option, keep=k.highest, keep_paired=k.paired, text=row.then.option
                    )
                if a.option in available:
                    return a
        if step.default is not None:
            return Action(step.default, text=step.default)
        first = next(iter(available))
        return Action(first, text=first)

    def _place(self, step: DecideStep, seat: Seat, a: Action, opt: Option) -> str:
        """The wager an option places, at the multiple or the amount the action states,
        within the range the chapter allows at this decision; the action's text."""
        assert opt.wager is not None
        wager = self.rules.wager(opt.wager)
        assert wager.amount is not None
        of = seat.stakes[wager.amount.of]
        of_name = self.rules.wager(wager.amount.of).name

        def features(h: str, c: str) -> bool:
            return self.hands.at_least(h, seat, c)

        if a.amount is not None:
            least, most, cite = self.rules.option_amount_range(opt, step.id, features, of)
            if not least <= a.amount <= most:
                allowed = format_money(least) + (
                    "" if least == most else f" to {format_money(most)}"
                )
                raise RoundError(
                    f"seat {seat.number}: {a.option} {format_money(a.amount)} is not allowed: "
                    f"{allowed} here, the {of_name} being {format_money(of)} ({cite})",
                    seat.actions_pointer,
                )
            size = format_money(a.amount)
            return self._stake(seat, opt.wager, a.amount, size, f"{a.option} {size}")
        lo, hi, cite = self.rules.option_multiple_range(opt, step.id, features)
        m = a.multiple
        if m == "max":
            m = hi
        if m is None:
            if lo != hi:
                raise RoundError(
                    f"seat {seat.number}: say how much: {a.option} "
                    + " / ".join(f"{k}x" for k in range(lo, hi + 1))
                    + f" ({cite})",
                    seat.actions_pointer,
                )
            m = lo
        assert isinstance(m, int)
        if not lo <= m <= hi:
            allowed = f"{lo}x" if lo == hi else f"{lo}x to {hi}x"
            raise RoundError(
                f"seat {seat.number}: {a.option} {m}x is not allowed: {allowed} the "
                f"{of_name} here ({cite})",
                seat.actions_pointer,
            )
        placed = self._stake(seat, opt.wager, of * m, f"{m}x", f"{a.option} {m}x")
        return placed if lo != hi else a.option

    def _stake(self, seat: Seat, wager_id: str, stake: Decimal, size: str, text: str) -> str:
        """Place a wager: its stake, and its size as the action stated it ("3x", "$25")."""
        seat.stakes[wager_id] = stake
        seat.standing.add(wager_id)
        seat.placed_as[wager_id] = size
        self.state.ledger.wagered += stake
        self.state.ledger.house += stake
        return text

    def _apply(self, step: DecideStep, seat: Seat, a: Action, opt: Option) -> None:
        seat.decided[step.id] = a.option
        text = a.text
        if opt.fold:
            seat.folded = True
        if opt.wager is not None:
            text = self._place(step, seat, a, opt)
        if opt.fee is not None:
            fee_def = self.rules.d.options_fee
            assert fee_def is not None
            fee = seat.stakes[fee_def.amount.of] * (fee_def.amount.min or 1)
            seat.fees += fee
            self.state.ledger.wagered += fee
            self.state.ledger.house += fee
        if opt.draw is not None:
            seat.pending = a
            if opt.draw == "exchange" and not a.cards and a.keep is None:
                raise RoundError(
                    f"seat {seat.number}: name the cards to exchange, e.g. "
                    f"'exchange 2C 5D' ({opt.cite})",
                    seat.actions_pointer,
                )
            if a.cards:
                text = "exchange " + " ".join(card_str(c) for c in a.cards)
        said = self._said(seat, a, opt, text)
        if a.option != step.default:  # a default choice is not an action
            seat.taken.append(text)
            seat.told.append(said)
        self.state.narrate(step.cite, f"seat {seat.number}: {said}")

    @staticmethod
    def _said(seat: Seat, a: Action, opt: Option, text: str) -> str:
        """A choice as the narration tells it: by the option's name in the game file (the
        chapter's words, never its id), with the multiple placed and its amount, or the
        cards exchanged."""
        name = opt.name or a.option
        if opt.wager is not None:  # the size placed, as the settlement table gives it
            placed = format_money(seat.stakes[opt.wager])
            size = seat.placed_as.get(opt.wager, "")
            return f"{name} {size} ({placed})" if size.endswith("x") else f"{name} {placed}"
        rest = text[len(a.option) :].strip() if text.startswith(a.option) else ""
        return f"{name}: {rest}" if rest else name
