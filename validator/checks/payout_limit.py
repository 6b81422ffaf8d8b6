"""The most one patron could win in one round betting the minimum wager.

§ 677a.12(f) and § 678a.12(e) let the certificate holder set an aggregate payout limit per
player per round, "not less than $50,000 or the maximum amount that one patron could win
per round when betting the minimum wager, whichever is greater". The reading (written in
each game file's constraint ``note:``):

- the patron places every wager the round allows: the base wagers and each optional wager
  the submission offers, less the wagers the chapter leaves out of the limit;
- each wager chosen freely is placed at the table minimum; a wager the rules size from
  another (the Raise, the Odds) is placed at the largest multiple the rules allow, since the
  maximum amount is asked for;
- the player's cards are dealt once: every table that pays on the same hand (the Odds, Bad
  Beat and Trips Plus tables all pay on the player's seven-card hand) is paid the row of
  one category of it, the category whose rows add up to the most; a table on another hand
  (the Pocket Bonus, on the player's two cards) is paid its best row, the game file's note
  showing a deal where it comes with the other hand's best (a pair of aces in a losing
  straight flush);
- the outcomes against the dealer are counted apart: a table paid only when the player's
  hand loses to the dealer's (``paid_when: player_lower``, a Bad Beat) is counted with the
  wagers settled against the dealer lost, never beside their win, and on a hand that can
  lose (``can_lose``: never a royal flush, whose row is priced at zero); the floor is the
  better of the two outcomes.

Money is exact: ``Decimal`` dollars, payouts from their ``Fraction`` odds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from validator.model.notation import Payout, PayoutKind, format_money
from validator.vocabulary import TABLE_FEATURE, meaning

if TYPE_CHECKING:
    from validator.model.game import Table, Wager


@dataclass
class RoundWin:
    total: Decimal | None
    parts: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def explain(self) -> str:
        text = "; ".join(self.parts)
        if self.unknown:
            text += ("; " if text else "") + "not counted: " + "; ".join(self.unknown)
        return text


@meaning("checks", TABLE_FEATURE.id, "paid_when")
def max_round_win(ctx: Any) -> RoundWin:
    """The most one patron could win in one round, over the outcomes against the dealer
    that can happen together (the player's hand higher; or lower, where a table pays then)."""
    f = ctx.facts
    lower_pays = any(
        f.table(t).paid_when == "player_lower"
        for wid, w in f.wagers.items()
        if ctx.played(wid)
        for t in w.tables
    )
    best = _round_win(ctx, player_lower=False)
    if lower_pays:
        other = _round_win(ctx, player_lower=True)
        if best.total is not None and other.total is not None and other.total > best.total:
            best = other
        best.parts.insert(
            0,
            "the player's hand "
            + ("loses (a Bad Beat)" if best is other else "wins")
            + ", the better of the outcomes that can happen together",
        )
    return best


@dataclass
class _Paid:
    """A wager's part of one round: its stake, its fixed payout, its tables' rows."""

    name: str
    stake: Decimal
    stake_text: str
    fixed: tuple[Decimal, str] | None
    tables: list[tuple[str, Table, dict[str, Payout], str]]  # id, table, rows, label


def _round_win(ctx: Any, player_lower: bool) -> RoundWin:
    """The most one patron wins in one outcome against the dealer: every wager at its
    stake, and the player's cards dealt once. Tables that pay on the same hand are paid on
    the same category of it, the best for the sum of them all; in a losing outcome that
    hand is one that can lose (``can_lose``)."""
    minimum = ctx.get("/table/min_wager")
    if not isinstance(minimum, Decimal):
        return RoundWin(None, unknown=["no minimum wager is stated"])
    win = RoundWin(None)
    paid = _wagers(ctx, minimum, player_lower, win)
    compared = {t.pays_on for p in paid for _, t, _, _ in p.tables if t.paid_when == "player_lower"}
    # the category each hand is dealt, chosen for the largest sum of the rows it is paid
    dealt: dict[str, str] = {}
    for hand in sorted({t.pays_on for p in paid for _, t, _, _ in p.tables if t.pays_on}):
        best: tuple[Decimal, str] | None = None
        for cat in _candidates(paid, hand):
            if player_lower and hand in compared and not can_lose(ctx, hand, cat):
                continue
            value = sum((n for p in paid for n, _ in _rows_paid(ctx, p, hand, cat)), Decimal(0))
            if best is None or value > best[0]:
                best = (value, cat)
        if best is not None:
            dealt[hand] = best[1]
    total = Decimal(0)
    for p in paid:
        amount = Decimal(0)
        how: list[str] = []
        if p.fixed is not None:
            amount += p.fixed[0]
            how.append(p.fixed[1])
        for hand, cat in dealt.items():
            for net, text in _rows_paid(ctx, p, hand, cat):
                amount += net
                how.append(text)
        for _tid, table, rows, label in p.tables:
            if table.pays_on is None and rows:  # paid on events: its best row
                net, text = max(
                    (
                        (n, f"{table.name} {label}, {_hand_name(ctx, table, h)} {r.text}")
                        for h, r in rows.items()
                        if (n := _net(r, p.stake)) is not None
                    ),
                    default=(Decimal(0), ""),
                    key=lambda x: x[0],
                )
                if text:
                    amount += net
                    how.append(text)
        if not how:
            continue
        total += amount
        win.parts.append(f"{p.name} {p.stake_text} at {' + '.join(how)}: {format_money(amount)}")
    win.parts.append(f"total {format_money(total)}")
    win.total = total
    return win


def _wagers(ctx: Any, minimum: Decimal, player_lower: bool, win: RoundWin) -> list[_Paid]:
    """Each wager counted in the outcome, with its stake and the tables it is paid on."""
    f = ctx.facts
    excludes = set(f.definition.payout_limit.excludes if f.definition.payout_limit else ())
    settle = f.definition.settle
    against_dealer = set(settle.base_game.wagers) if settle is not None else set()
    out = []
    for wid, wager in f.wagers.items():
        if wid in excludes or not ctx.played(wid):
            continue
        lost = player_lower and wid in against_dealer  # its win against the dealer: none
        times = _multiple(wager)
        stake = minimum * times
        stake_text = (
            f"{times} × {format_money(minimum)} = {format_money(stake)}"
            if times > 1
            else format_money(stake)
        )
        fixed = None
        if wager.pays is not None and not lost:
            fixed = (wager.pays.payout.net(stake), wager.pays.payout.text)
        tables = []
        for tid in wager.tables:
            table = f.table(tid)
            if wid in against_dealer and (table.paid_when == "player_lower") != player_lower:
                continue  # not in this outcome
            rows, label = _rows(ctx, tid, table)
            if rows is None:
                win.unknown.append(f"{table.name} ({label})")
                continue
            for payout in rows.values():
                if payout.kind is PayoutKind.METER:
                    win.unknown.append(f"{table.name} {label}: {payout.text} (a meter)")
            tables.append((tid, table, rows, label))
        out.append(_Paid(wager.name, stake, stake_text, fixed, tables))
    return out


def _candidates(paid: list[_Paid], hand: str) -> list[str]:
    """The categories of a hand that some table pays: the ones worth dealing."""
    seen: list[str] = []
    for p in paid:
        for _, table, rows, _ in p.tables:
            if table.pays_on == hand:
                seen += [c for c in rows if c not in seen]
    return seen


def _rows_paid(ctx: Any, p: _Paid, hand: str, cat: str) -> list[tuple[Decimal, str]]:
    """What a wager's tables on ``hand`` pay when it is dealt ``cat``: each table's row for
    it, or for the hand it refines (a pair row pays a pair of aces)."""
    out = []
    for _, table, rows, label in p.tables:
        if table.pays_on != hand:
            continue
        row = _row_for(ctx, hand, cat, rows)
        if row is None:
            continue
        net = _net(rows[row], p.stake)
        if net is not None and net > 0:
            out.append(
                (net, f"{table.name} {label}, {_hand_name(ctx, table, row)} {rows[row].text}")
            )
    return out


def _row_for(ctx: Any, hand: str, cat: str, rows: dict[str, Payout]) -> str | None:
    seen: set[str] = set()
    c: str | None = cat
    while c is not None and c not in seen:
        if c in rows:
            return c
        seen.add(c)
        try:
            c = ctx.facts.category(hand, c).refines
        except KeyError:
            return None
    return None


def can_lose(ctx: Any, hand: str, category: str) -> bool:
    """Whether a hand of ``category`` can lose. The highest category of its ranking, when
    every hand of it holds the same ranks (the royal flush: A, K, Q, J, 10 of one suit),
    never loses: another hand can at most equal it, a tie (§ 677a.1 "Bad Beat Bonus",
    § 677a.11(h)(2)(iii)(B): a Bad Beat needs a hand that loses to the dealer's)."""
    facts = ctx.facts
    try:
        cat = facts.category(hand, category)
    except KeyError:
        return True
    top = max(facts.strength_of(hand, c.id) for c in facts.ranking(hand).categories)
    return not (cat.ranks is not None and facts.strength_of(hand, category) == top)


def _multiple(wager: Wager) -> int:
    """The largest multiple of the wager it is sized from (1 where it is chosen freely)."""
    if wager.amount is None:
        return 1
    highs = [m for m in [wager.amount.max, *(r.max for r in wager.amount.rules)] if m]
    return max(highs) if highs else (wager.amount.min or 1)


def _rows(ctx: Any, tid: str, table: Table) -> tuple[dict[str, Payout] | None, str]:
    if table.source == "missing":
        rows = ctx.get(f"/custom_paytables/{tid}")
        return (rows, "as stated") if isinstance(rows, dict) else (None, "no table stated")
    if table.paytable is not None:
        return table.paytable, "table"
    if table.paytables is not None:
        letter = ctx.selected(tid)
        if letter is None:
            return None, "no paytable selected"
        return table.paytables[letter], f"paytable {letter}"
    return None, "paid by the wager amount"


def _net(payout: Payout, stake: Decimal) -> Decimal | None:
    if payout.kind in (PayoutKind.NA, PayoutKind.METER, PayoutKind.PUSH):
        return None
    return payout.net(stake)


def _hand_name(ctx: Any, table: Table, hand: str) -> str:
    if table.pays_on is None:
        return hand.replace("_", " ")
    try:
        return ctx.facts.category(table.pays_on, hand).name.lower()
    except KeyError:
        return hand.replace("_", " ")
