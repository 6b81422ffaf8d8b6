"""The reference engine's betting round (§ 553.1 "Betting round"; § 553.8): fold, check,
call, bet, raise within the posted limits, a maximum number of raises, table stakes and All-in.

- A bet or a raise is within the posted minimum and maximum wager (§ 553.18): a bet of
  ``min_bet``..``max_bet``; a raise adds ``min_bet``..``max_bet`` to the bet to call
  (``min_bet == max_bet`` is a fixed limit). A Kill multiplies both (§ 553.1).
- "Raise—A bet in an amount greater than the immediately preceding bet." A player may raise
  after checking unless the table posts otherwise (§ 553.8(j)).
- The posted raise cap (§ 553.18) counts raises after the opening bet (a Blind Bet or
  Forced Bet opens the round).
- A player who cannot cover a bet may call or bet with all he has and is All-in
  (§ 553.8(b)(4)). An All-in for less than a full raise lifts the bet to call but does not
  reopen the betting to players who have already acted: they may call or fold. (The texts
  do not say; this is the common card-room rule and keeps the posted limits meaningful.)
- The round is complete when every player still in and not All-in has acted and has put
  in as much as the highest bet, or all but one have folded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from validator.errors import RulesubError
from validator.interpreter.poker.table import Limit, Player
from validator.money import Cents, dollar_text

Kind = Literal["fold", "check", "call", "bet", "raise"]


class BettingError(RulesubError, ValueError):
    """An action the rules do not offer the player at that point."""


@dataclass(frozen=True)
class Action:
    kind: Kind
    to: Cents = 0  # bet / raise: the player's total for the round after it

    def __str__(self) -> str:
        if self.kind in ("bet", "raise"):
            return f"{self.kind} to {dollar_text(self.to)}"
        return self.kind


@dataclass(frozen=True)
class Options:
    """What a player may do, facing the round as it stands."""

    seat: int
    to_call: Cents  # more chips needed to call (0: nothing to call)
    can_check: bool
    can_call: bool
    bet: tuple[Cents, Cents] | None  # totals for the round a bet may make
    raise_to: tuple[Cents, Cents] | None  # totals for the round a raise may make
    stack: Cents

    def allows(self, action: Action) -> bool:
        match action.kind:
            case "fold":
                return self.to_call > 0
            case "check":
                return self.can_check
            case "call":
                return self.can_call
            case "bet":
                return self.bet is not None and self.bet[0] <= action.to <= self.bet[1]
            case "raise":
                r = self.raise_to
                return r is not None and r[0] <= action.to <= r[1]
        return False


Decide = Callable[[Player, Options, "BettingRound"], Action]


class BettingRound:
    def __init__(
        self,
        order: Sequence[Player],
        limit: Limit,
        *,
        max_raises: int | None = None,
        check_raise: bool = True,
        chip: Cents = 100,
        narrated: bool = True,
    ) -> None:
        """``narrated``: each action's words kept in ``log`` (off when simulating: the
        same round, no text written)."""
        self.order = list(order)  # clockwise, the first to act first
        self.limit = limit
        self.max_raises = max_raises
        self.check_raise = check_raise
        self.chip = chip
        self.street: dict[int, Cents] = {p.seat: 0 for p in self.order}
        self.current: Cents = 0  # the highest total for this round
        self.raises = 0
        self.acted: set[int] = set()
        self.may_raise: set[int] = {p.seat for p in self.order}
        self.checked: set[int] = set()
        self.last_aggressor: int | None = None
        self.log: list[tuple[int, str]] = []
        self.narrated = narrated

    # -- forced wagers ------------------------------------------------------------------------

    def post(self, player: Player, amount: Cents, what: str, *, acted: bool) -> None:
        """A Blind Bet or Forced Bet: a live bet that opens the round (``acted``: the Forced
        Bet is the player's action; a Blind may still raise when the action returns)."""
        paid = player.put(amount)
        self.street[player.seat] += paid
        if self.street[player.seat] > self.current:
            self.current = self.street[player.seat]
            self.last_aggressor = player.seat
        if acted:
            self.acted.add(player.seat)
        if self.narrated:
            self.log.append(
                (player.seat, f"{what} {dollar_text(paid)}" + (" (All-in)" * player.all_in))
            )

    # -- one action --------------------------------------------------------------------------

    def options(self, p: Player) -> Options:
        mine = self.street[p.seat]
        to_call = max(0, self.current - mine)
        reach = mine + p.stack  # the most this player can have in for the round
        bet = raise_to = None
        if self.current == 0 and p.stack > 0:
            bet = (min(self.limit.min_bet, reach), min(self.limit.max_bet, reach))
        capped = self.max_raises is not None and self.raises >= self.max_raises
        reopened = p.seat in self.may_raise and (self.check_raise or p.seat not in self.checked)
        if self.current > 0 and reach > self.current and not capped and reopened:
            lo = self.current + self.limit.min_bet
            hi = self.current + self.limit.max_bet
            raise_to = (min(lo, reach), min(hi, reach))
        return Options(
            p.seat,
            to_call,
            can_check=to_call == 0,
            can_call=to_call > 0,
            bet=bet,
            raise_to=raise_to,
            stack=p.stack,
        )

    def act(self, p: Player, action: Action, opts: Options | None = None) -> None:
        """``opts``: the options this player was offered (computed afresh if not given)."""
        opts = self.options(p) if opts is None else opts
        if not opts.allows(action):
            raise BettingError(f"seat {p.seat} may not {action} here ({opts})")
        mine = self.street[p.seat]
        self.acted.add(p.seat)
        if action.kind == "fold":
            p.folded = True
        elif action.kind == "check":
            self.checked.add(p.seat)
        elif action.kind == "call":
            self.street[p.seat] += p.put(opts.to_call)
        else:
            self.street[p.seat] += p.put(action.to - mine)
            total = self.street[p.seat]
            full = total - self.current >= self.limit.min_bet or self.current == 0
            if action.kind == "raise":
                self.raises += 1
            self.current = max(self.current, total)
            self.last_aggressor = p.seat
            if full:  # the betting reopens to everyone else
                self.may_raise = {x.seat for x in self.order}
                self.acted = {p.seat}
            else:  # an All-in short of a full raise: the others must call it, not re-raise
                self.may_raise -= self.acted
                self.acted = {p.seat}
        if self.narrated:
            self.log.append((p.seat, str(action) + (" (All-in)" * p.all_in)))

    # -- the round ---------------------------------------------------------------------------

    def needs_action(self, p: Player) -> bool:
        if p.folded or p.all_in:
            return False
        return p.seat not in self.acted or self.street[p.seat] < self.current

    def done(self) -> bool:
        in_hand = 0
        pending = False
        able: Player | None = None
        ables = 0
        street, current, acted = self.street, self.current, self.acted
        for p in self.order:
            if p.folded:
                continue
            in_hand += 1
            if not p.all_in:
                ables += 1
                able = p
                if p.seat not in acted or street[p.seat] < current:
                    pending = True
        if in_hand <= 1 or not pending:
            return True
        # one player left able to act, nothing to call and no one to bet against
        return ables == 1 and able is not None and street[able.seat] >= current

    def run(self, decide: Decide) -> None:
        i = 0
        guard = 0
        while not self.done():
            p = self.order[i % len(self.order)]
            i += 1
            if self.needs_action(p):
                opts = self.options(p)
                self.act(p, decide(p, opts, self), opts)
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, never a game
                raise RuntimeError("a betting round that does not end")
