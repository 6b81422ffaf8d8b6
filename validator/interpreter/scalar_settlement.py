"""The scalar engine's settlement: every line of a seat settled by its decision table.

The first row whose conditions hold applies; its ``then:`` is paid (a push, a loss, odds, a
paytable's row for the hand, a share of a meter, an Envy Bonus, a second combination) in
exact ``Decimal``, the row's citation and the facts it rested on kept in the reason. Then
the aggregate payout limit, in the order the wagers were settled. The money moved is
written to the round's ledger; the result is told by ``scalar_result``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from validator.cards import cards_str
from validator.interpreter.errors import RoundError, unpaid_winner
from validator.interpreter.meters import PAYOUT_ROUNDING, MeterBank, payout_of
from validator.interpreter.results import LineResult
from validator.interpreter.rules import Rules
from validator.interpreter.scalar_conditions import RoundConditions
from validator.interpreter.scalar_hands import RoundHands
from validator.interpreter.scalar_state import RoundState
from validator.interpreter.seats import Seat
from validator.interpreter.second_combination import second_combination
from validator.model.game import Table
from validator.model.notation import Payout, PayoutKind
from validator.model.procedure import Line, Pays
from validator.money import exact_money
from validator.vocabulary import TABLE_FEATURE, meaning


def stated_table(table: Any) -> str:
    """A table whose text the chapter's copy lacks, named as paid: the submission's own."""
    return f"the {table.name} table as the Rules Submission states it ({table.cite}: text missing)"


class RoundSettlement:
    """Each settlement line settled by the first row of its decision table whose conditions
    hold, and the payout limit applied."""

    def __init__(
        self,
        rules: Rules,
        meters: MeterBank,
        state: RoundState,
        hands: RoundHands,
        conditions: RoundConditions,
    ) -> None:
        self.rules = rules
        self.meters = meters
        self.state = state
        self.hands = hands
        self.conditions = conditions
        self._rounded = ""  # the rounding of the payout being settled, if any

    def settle_line(self, seat: Seat, line_id: str, line: Line, *, told: bool = False) -> None:
        """Settle one line of a seat's wager by the first row that applies; ``told``: the
        narration says it where it happens (a settlement before the round's end)."""
        spot = self.rules.line_spot(line)
        stake = seat.stakes.get(spot)
        if not stake or line_id in seat.lines or spot not in seat.standing:
            return
        i, row = next(
            (
                (k, r)
                for k, r in enumerate(line.rows)
                if self.conditions.holds(r.when, seat, line.on)
            ),
            (-1, None),
        )
        if row is None:
            raise RoundError(f"no row of settlement line {line_id!r} applies to seat {seat.number}")
        name = line.name or self.rules.wager(line.wager).name
        facts = self.conditions.explain(row.when, seat, line.on)
        returned, from_meter, outcome, detail = self._outcome(
            seat, line_id, line, row.then, stake, i
        )
        if from_meter:
            self.state.ledger.meter_paid += from_meter
        self.state.ledger.returned += returned
        self.state.ledger.house -= returned - from_meter
        gain = returned - (Decimal(0) if line.bonus else stake)
        what = f"{outcome}" + (f" ({detail})" if detail else "")
        if self._rounded:
            what += f" ({self._rounded})"
            self._rounded = ""
        sign = "+" if gain > 0 else ""
        reason = (
            f"{name}: "
            + ("; ".join(facts) + ": " if facts else "")
            + f"{what}, {sign}{exact_money(gain)} [{row.cite}]"
        )
        if line.bonus and returned == 0:
            reason = ""
        elif told:  # a loss by its word alone: the row's detail is the summary's
            said = outcome if outcome == "lose" else what
            self.state.narrate(
                row.cite, f"seat {seat.number}: {name}: {said}, {sign}{exact_money(gain)}"
            )
        seat.lines[line_id] = LineResult(
            line_id, name, spot, i, row.cite, outcome, returned, from_meter, reason, note=row.note
        )

    @meaning("scalar", TABLE_FEATURE.id, "pays_on")
    def _outcome(
        self, seat: Seat, line_id: str, line: Line, then: Any, stake: Decimal, row_index: int
    ) -> tuple[Decimal, Decimal, str, str]:
        """(returned, of which from a meter, outcome word, detail)."""
        bonus = line.bonus
        if then == "lose" or then == "none":
            return Decimal(0), Decimal(0), "lose" if then == "lose" else "no bonus", ""
        if then == "push":
            return (Decimal(0) if bonus else stake), Decimal(0), "push", "returned"
        if then == "win":
            pays = self.rules.wager(line.wager).pays
            assert pays is not None
            return (*self._pay(pays.payout, stake, bonus), Decimal(0), f"wins {pays.payout}", "")
        assert isinstance(then, Pays)
        if then.win is not None:
            return (*self._pay(then.win, stake, bonus), Decimal(0), f"wins {then.win}", "")
        if then.envy is not None:
            return self._envy(seat, then, stake)
        table_id = then.paytable
        assert table_id is not None
        table = self.rules.table(table_id)
        rows = self.rules.rows_or_stop(table_id, stake)
        category: str | None
        if then.row is not None:
            category, payout = then.row, rows.get(then.row)
            hand_note = ""
            category_held: str | None = None
        else:
            hand_id = then.hand or table.pays_on
            assert hand_id is not None
            hs = None if hand_id.startswith("dealer") else seat
            cat = self.hands.paying(hand_id, hs, rows)
            category, payout = (cat.id, rows[cat.id]) if cat else (None, None)
            held = self.hands.held(hand_id, hs)
            category_held = held.id if held is not None else None
            v = self.hands.value(hand_id, hs)
            hand_note = cards_str(v.cards) if v is not None else ""
            if then.second_combination:
                return self._second(seat, hand_id, rows, stake, table.name)
        if payout is None or not payout.pays:
            other = then.otherwise
            held_label = self._label(then.hand or table.pays_on, category_held, table)
            if other == "refuse":
                raise RoundError(unpaid_winner(table.name, held_label, line.cite))
            if other == "push":
                back = Decimal(0) if bonus else stake
                return back, Decimal(0), "push", f"{table.name} prints no row for {held_label}"
            word = "lose" if other == "lose" else "no bonus"
            why = f"{held_label} pays nothing on {table.name}" if hand_note else ""
            return Decimal(0), Decimal(0), word, why
        label = self._label(then.hand or table.pays_on, category, table)
        if hand_note:
            label += f" ({hand_note})"
        if payout.kind is PayoutKind.METER:
            meter = self.meters.get(table_id, payout.meter)
            key = f"{line_id}/{meter.key}"
            # a share of the meter is of the amount on it at this seat's turn to be paid
            # (§ 641a.12(d)(4)): a seat paid before it took its share first
            stood = f", which stood at {exact_money(meter.amount)} at this seat's turn"
            divided = ""
            if then.divide_among_winners:
                ways = self._ways(line_id, line, row_index)
                if key not in self.state.pots:
                    self.state.pots[key] = meter.pay(payout.share, ways)
                    self.state.narrate(table.cite, f"{table.name}: {payout} divided {ways} way(s)")
                each = self.state.pots[key]
                if ways > 1:  # the whole meter's share, said as divided, never as one's own
                    divided = f": {payout} divided equally {ways} ways"
                stood = ""  # one share for every winner: the meter as it stood for them all
            else:
                each = meter.pay(payout.share)
            return (
                each,
                each,
                f"wins {payout}",
                f"{label}: {exact_money(each)} from the {meter.name} meter{stood}{divided}",
            )
        if payout.kind is PayoutKind.PUSH:
            return (Decimal(0) if bonus else stake), Decimal(0), "push", f"{label}: push"
        ret = self._pay(payout, stake, bonus)[0]
        if getattr(table, "source", None) == "missing":  # the chapter's text is not held
            return ret, Decimal(0), f"wins {payout}", f"{label}, by {stated_table(table)}"
        return ret, Decimal(0), f"wins {payout}", label

    def _label(self, hand_id: str | None, category: str | None, table: Table) -> str:
        """A paytable's row as the chapter prints it: a hand's category ("Straight flush"),
        or a draw of the table game system ("Magic Card", § 641a.12(g)(3))."""
        if category is None:
            return "the hand"
        if hand_id is not None and not table.events:
            ev = self.rules.evaluator(hand_id)
            if category in ev.ids:
                return ev.category(category).name
        return dict(self.rules.game.row_names(table)).get(category, category.replace("_", " "))

    def _pay(self, payout: Payout, stake: Decimal, bonus: bool) -> tuple[Decimal]:
        r = payout.ratio
        match payout.kind:
            case PayoutKind.TO:
                win, exact = payout_of(stake, r)
                self._note_rounding(payout, stake, win, exact)
                return ((win if bonus else stake + win),)
            case PayoutKind.FOR:
                back, exact = payout_of(stake, r)
                self._note_rounding(payout, stake, back, exact)
                return (back,)
            case PayoutKind.PUSH:
                return ((Decimal(0) if bonus else stake),)
            case PayoutKind.FIXED:
                return ((payout.amount if bonus else stake + payout.amount),)
        raise AssertionError(payout.kind)

    def _note_rounding(
        self, payout: Payout, stake: Decimal, paid: Decimal, exact: Fraction
    ) -> None:
        """A payout that is not whole cents is paid rounded down; the settlement says so."""
        if Fraction(paid) != exact:
            digits = f"{Decimal(exact.numerator) / Decimal(exact.denominator):f}"
            shown = digits[:16] + ("…" if len(digits) > 16 else "")
            self._rounded = (
                f"{payout} on {exact_money(stake)} is ${shown}: {exact_money(paid)} paid, "
                f"{PAYOUT_ROUNDING}"
            )

    def _ways(self, line_id: str, line: Line, row_index: int) -> int:
        n = 0
        for s in self.state.seats:
            spot = self.rules.line_spot(line)
            if not s.stakes.get(spot) or spot not in s.standing:
                continue
            for i, row in enumerate(line.rows):
                if self.conditions.holds(row.when, s, line.on):
                    n += i == row_index
                    break
        return max(n, 1)

    def _envy(self, seat: Seat, then: Pays, stake: Decimal) -> tuple[Decimal, Decimal, str, str]:
        assert then.envy is not None
        table = self.rules.table(then.envy)
        rows = self.rules.rows_or_stop(then.envy, stake)
        hand_id = table.pays_on
        assert hand_id is not None
        total = Decimal(0)
        who = []
        for other in self.state.seats:
            if other is seat or not other.dealt_in:
                continue
            if other.folded and not any(other.stakes.get(w) for w in then.envy_from_folded_with):
                continue  # its cards collected with its forfeited wagers
            cat = self.hands.paying(hand_id, other, rows)
            if cat is None:
                continue
            p = rows[cat.id]
            total += p.amount
            who.append(f"seat {other.number}'s {cat.name} ({p})")
        if not who:
            return Decimal(0), Decimal(0), "no bonus", ""
        return total, Decimal(0), f"wins {exact_money(total)}", "for " + ", ".join(who)

    def _second(
        self, seat: Seat, hand_id: str, rows: dict[str, Payout], stake: Decimal, table_name: str
    ) -> tuple[Decimal, Decimal, str, str]:
        v = self.hands.value(hand_id, seat)
        cards = self.hands.hand_cards(hand_id, seat)
        cat = second_combination(self.rules.evaluator(hand_id), cards, v, rows)
        if cat is None:
            return Decimal(0), Decimal(0), "no bonus", ""
        payout = rows[cat.id]
        return (
            self._pay(payout, stake, True)[0],
            Decimal(0),
            f"wins {payout}",
            f"second combination: {cat.name}",
        )

    # -- payout limit ---------------------------------------------------------------------

    def apply_payout_limit(self) -> None:
        limit_rule = self.rules.d.payout_limit
        limit = self.rules.config.payout_limit
        if limit_rule is None or limit is None:
            return
        for seat in self.state.seats:
            total = Decimal(0)
            for ln in seat.lines.values():
                if not self.rules.under_payout_limit(ln.spot):
                    continue
                is_bonus = self.rules.lines[ln.line].bonus
                stake = Decimal(0) if is_bonus else seat.stakes[ln.spot]
                gain = max(ln.returned - stake, Decimal(0))
                if total + gain > limit:
                    cut = total + gain - limit
                    ln.returned -= cut
                    ln.limited = cut
                    self.state.ledger.returned -= cut
                    self.state.ledger.house += cut
                    ln.reason += (
                        f"; {exact_money(cut)} withheld: the aggregate payout limit of "
                        f"{exact_money(limit)} per player per round [{limit_rule.cite}]"
                    )
                    gain -= cut
                total += gain
