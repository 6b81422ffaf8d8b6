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
- each wager wins its best payout in the selected paytables: its fixed odds, plus the best
  row of at most one of its tables (the Odds Wager is paid on the Odds table or, losing, on
  the Bad Beat table, never on both);
- these best payouts are added as won in one round, from outcomes that can happen together:
  a table paid only when the player's hand loses to the dealer's (``paid_when:
  player_lower``, a Bad Beat) is counted with the wagers settled against the dealer lost,
  never beside their win; the floor is the better of the two outcomes.

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


def _round_win(ctx: Any, player_lower: bool) -> RoundWin:
    f = ctx.facts
    minimum = (ctx.data.get("table") or {}).get("min_wager")
    if not isinstance(minimum, Decimal):
        return RoundWin(None, unknown=["no minimum wager is stated"])
    excludes = set(f.definition.payout_limit.excludes if f.definition.payout_limit else ())
    settle = f.definition.settle
    against_dealer = set(settle.base_game.wagers) if settle is not None else set()
    total = Decimal(0)
    win = RoundWin(None)
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
        amount = Decimal(0)
        how: list[str] = []
        if wager.pays is not None and not lost:
            amount += wager.pays.payout.net(stake)
            how.append(wager.pays.payout.text)
        best: tuple[Decimal, str] | None = None
        for tid in wager.tables:
            table = f.table(tid)
            if wid in against_dealer and (table.paid_when == "player_lower") != player_lower:
                continue  # not in this outcome
            rows, label = _rows(ctx, tid, table)
            if rows is None:
                win.unknown.append(f"{table.name} ({label})")
                continue
            for hand, payout in rows.items():
                if payout.kind is PayoutKind.METER:
                    win.unknown.append(f"{table.name} {label}: {payout.text} (a meter)")
                    continue
                net = _net(payout, stake)
                if net is None:
                    continue
                if best is None or net > best[0]:
                    best = (
                        net,
                        f"{table.name} {label}, {_hand_name(ctx, table, hand)} {payout.text}",
                    )
        if best is not None:
            amount += best[0]
            how.append(best[1])
        if not how:
            continue
        total += amount
        win.parts.append(f"{wager.name} {stake_text} at {' + '.join(how)}: {format_money(amount)}")
    win.parts.append(f"total {format_money(total)}")
    win.total = total
    return win


def _multiple(wager: Wager) -> int:
    """The largest multiple of the wager it is sized from (1 where it is chosen freely)."""
    if wager.amount is None:
        return 1
    highs = [m for m in [wager.amount.max, *(r.max for r in wager.amount.rules)] if m]
    return max(highs) if highs else (wager.amount.min or 1)


def _rows(ctx: Any, tid: str, table: Table) -> tuple[dict[str, Payout] | None, str]:
    if table.source == "missing":
        rows = (ctx.data.get("custom_paytables") or {}).get(tid)
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
