"""The base game's settlement as the exact methods count it.

Both exact methods (``longest_flush``: High Card Flush; ``completions``: Four Card Poker)
read the same things from the game file: which hands the settlement compares, the decision's
one wager or fold, and each base-game line's net per unit of its wager for every outcome of
the comparison (``OUTCOMES``), the player folded or not; a bonus line paid from a paytable on
the player's hand (Four Card Poker's Ante Bonus, § 641a.12(b)) is read by the category of
that hand. From those, ``choice_nets`` gives each choice at the decision the round's net per
unit of the initial wager. A settlement outside that shape is refused with the reason
(``NotDerivable``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from validator.errors import RulesubError
from validator.interpreter.batch import BatchEngine
from validator.interpreter.rules import Rules
from validator.model.procedure import Compare, DecideStep, HandTest, Line, Pays, Settle, When
from validator.model.ranking import Ranking

#: What can happen to a player who stayed in, against the dealer's hand.
OUTCOMES = ("not_qualified", "higher", "equal", "lower")

#: The net of each base-game wager per unit of it, by (folded, outcome).
Nets = dict[tuple[bool, str], dict[str, Fraction]]
#: The bonus lines' net per unit of the initial wager by the category of the player's hand,
#: by (folded, outcome).
BonusNets = dict[tuple[bool, str], list[Fraction]]


class NotDerivable(RulesubError, ValueError):
    """A game file this exact method does not cover, and why."""


def compared_hands(rules: Rules) -> tuple[Settle, Compare, Ranking]:
    """The settlement, its comparison of the player's and the dealer's hands and their ranking,
    of a one-deck game that settles by comparing them: what every exact method here reads
    first (refused with the reason otherwise)."""
    settle = rules.d.settle
    if settle is None or settle.compare is None:
        raise NotDerivable("the game compares no player hand with the dealer's")
    if rules.d.cards.decks != 1:
        raise NotDerivable("the cards are dealt from more than one deck")
    ph, dh = settle.compare.player, settle.compare.dealer
    ranking = rules.game.ranking_of(ph)
    if rules.game.ranking_of(dh).id != ranking.id:
        raise NotDerivable("the player's and the dealer's hands rank differently")
    return settle, settle.compare, ranking


def wager_or_fold(step: DecideStep) -> tuple[str | None, str]:
    """The decision's fold option (if it has one) and its one option that places a wager,
    each always available, for no fee and drawing no card."""
    fold = [o for o, opt in step.options.items() if opt.fold and opt.wager is None]
    places = [o for o, opt in step.options.items() if opt.wager is not None and not opt.fold]
    if len(places) != 1 or len(fold) > 1 or len(step.options) != len(places) + len(fold):
        raise NotDerivable("the decision is not one wager or fold")
    if any(
        opt.available is not None or opt.fee is not None or opt.draw is not None
        for opt in step.options.values()
    ):
        raise NotDerivable("an option of the decision is conditional, paid for or draws")
    return (fold[0] if fold else None), places[0]


@dataclass(frozen=True)
class Choice:
    """One thing a player may do at the decision: fold, or place the wager at a multiple."""

    option: str
    multiple: int  # 0 for fold

    @property
    def label(self) -> str:
        return self.option if self.multiple == 0 else f"{self.option} {self.multiple}x"


@dataclass(kw_only=True)
class ExactGame:
    """What every exact method reads from a game file: the hands compared and the cards
    each is dealt, the decision (its fold option and the wager it places), and the base
    game's settlement as nets by outcome (``read_nets``). Each method's game adds what its
    counting needs."""

    game: str
    player_hand: str
    player_cards: int
    dealer_cards: int
    per: str  # the wager the house edge is per unit of
    decision: str
    fold_option: str | None
    raise_option: str
    raise_wager: str
    nets: Nets  # (folded, outcome) -> wager -> net
    cites: list[str] = field(default_factory=list)


# -- each line's net, by outcome ------------------------------------------------------------


def read_nets(
    rules: Rules,
    settle: Settle,
    raised_wager: str,
    outcomes: Sequence[str],
    bonus_hand: str | None = None,
) -> tuple[Nets, BonusNets, list[str]]:
    """Every base-game line's net per unit of its wager, by (folded, outcome); with
    ``bonus_hand``, the bonus lines' net by the category of that hand (the bonus lines, in
    the order of the settlement), else a bonus line is refused. The base game is the initial
    wager and the decision's, with no fee."""
    base = settle.base_game
    if base.fees:
        raise NotDerivable("the base game charges fees")
    if set(base.wagers) - {base.per, raised_wager}:
        raise NotDerivable("the base game has wagers beyond the initial one and the decision's")
    per = base.per
    ncat = len(rules.game.ranking_of(bonus_hand).categories) if bonus_hand else 0
    engine: BatchEngine | None = None
    nets: Nets = {}
    bonus: BonusNets = {}
    bonus_lines: list[str] = []
    for folded in (False, True):
        for outcome in outcomes:
            key = (folded, outcome)
            nets[key] = {}
            if bonus_hand is not None:
                bonus[key] = [Fraction(0)] * ncat
            for lid, ln in settle.lines.items():
                if ln.wager not in base.wagers:
                    continue
                if not ln.bonus or bonus_hand is None:
                    nets[key][ln.wager] = line_net(rules, ln, folded, outcome, raised_wager, per)
                    continue
                if lid not in bonus_lines:
                    bonus_lines.append(lid)
                if engine is None:
                    engine = BatchEngine(rules, None, 1, {})
                by_cat = bonus_net(
                    rules, engine, ln, folded, outcome, raised_wager, per, bonus_hand
                )
                bonus[key] = [a + b for a, b in zip(bonus[key], by_cat, strict=True)]
    return nets, bonus, bonus_lines


def line_net(
    rules: Rules, line: Line, folded: bool, outcome: str, raised_wager: str, per: str
) -> Fraction:
    """A base-game line's net per unit of its wager, by the first row that holds."""
    if line.bonus or line.on != "player":
        raise NotDerivable(
            f"the {rules.wager(line.wager).name} line is a bonus or on the dealer's hand"
        )
    if folded and line.wager == raised_wager:
        return Fraction(0)  # never placed
    for row in line.rows:
        if row_holds(row.when, folded, outcome, line.wager, raised_wager, per):
            then = row.then
            if isinstance(then, Pays):
                if then.win is None:
                    raise NotDerivable(f"the {rules.wager(line.wager).name} line pays from a table")
                return then.win.net_units()
            if then == "win":
                pays = rules.wager(line.wager).pays
                if pays is None:
                    raise NotDerivable(f"the {rules.wager(line.wager).name} states no payout")
                return pays.payout.net_units()
            return Fraction(-1) if then == "lose" else Fraction(0)
    return Fraction(0)


def bonus_net(
    rules: Rules,
    engine: BatchEngine,
    line: Line,
    folded: bool,
    outcome: str,
    raised_wager: str,
    per: str,
    player_hand: str,
) -> list[Fraction]:
    """A bonus line's net per unit of its wager, for each category of the player's hand
    (the engine's paytables give each category its row)."""
    ncat = len(rules.game.ranking_of(player_hand).categories)
    if line.on != "player":
        raise NotDerivable(f"the {rules.wager(line.wager).name} bonus is on the dealer's hand")
    if folded and line.wager == raised_wager:
        return [Fraction(0)] * ncat
    for row in line.rows:
        if not row_holds(row.when, folded, outcome, line.wager, raised_wager, per):
            continue
        then = row.then
        if then in ("none", "push"):
            return [Fraction(0)] * ncat
        if not isinstance(then, Pays) or then.paytable is None:
            raise NotDerivable(
                f"the {rules.wager(line.wager).name} bonus pays other than from a paytable"
            )
        if (then.hand or rules.table(then.paytable).pays_on) != player_hand:
            raise NotDerivable(
                f"the {rules.table(then.paytable).name} bonus is paid on another hand"
            )
        if then.otherwise != "none":
            raise NotDerivable(
                f"the {rules.table(then.paytable).name} bonus loses the wager on a hand it lacks"
            )
        table = engine.paytable(then.paytable, 1_000_000)
        out = []
        for row_index in table.of_category.tolist():
            if row_index < 0:
                out.append(Fraction(0))
                continue
            payout = table.payouts[row_index]
            if payout.kind.name != "TO":
                raise NotDerivable(
                    f"the {rules.table(then.paytable).name} bonus pays other than 'to 1' odds"
                )
            out.append(payout.net_units())
        return out
    return [Fraction(0)] * ncat


def row_holds(
    w: When,
    folded: bool,
    outcome: str,
    wager: str,
    raised_wager: str,
    per: str,
    hand: Callable[[str, HandTest], bool] | None = None,
) -> bool:
    """Whether a settlement row's conditions hold for a player who folded or not, at an
    outcome of the comparison; ``hand``: how a hand test is read (by the count that knows
    both hands' categories), else a row that tests a hand is refused."""
    known = {"folded", "dealer_qualifies", "player", "wagered"} | ({"hand"} if hand else set())
    given = {k for k, v in w.model_dump(exclude_none=True).items() if v not in (None, [], {})}
    if given - known:
        raise NotDerivable(f"a settlement row reads {sorted(given - known)}")
    if w.folded is not None and w.folded != folded:
        return False
    qualifies = outcome != "not_qualified"
    if w.dealer_qualifies is not None and w.dealer_qualifies != qualifies:
        return False
    if w.player is not None:
        if not qualifies:
            # the outcomes against a dealer who did not qualify are not split by comparison
            raise NotDerivable("a settlement row compares hands against a dealer who failed")
        if outcome not in w.player:
            return False
    if hand is not None and w.hand and not all(hand(h, t) for h, t in w.hand.items()):
        return False
    placed = {per} | (set() if folded else {raised_wager})
    return w.wagered is None or bool(placed & set(w.wagered))


# -- each choice's net ----------------------------------------------------------------------


def choice_nets(
    choices: Sequence[Choice],
    outcomes: Sequence[str],
    nets: Nets,
    bonus: BonusNets,
    per: str,
    raised_wager: str,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per choice, outcome and category of the player's hand (one category where no bonus is
    read): the round's net per unit of the initial wager, a whole number (refused
    otherwise); and each choice's total stake. An outcome ``nets`` does not hold (a dealer
    who always qualifies) nets nothing."""
    ncat = max((len(v) for v in bonus.values()), default=0) or 1
    net = np.zeros((len(choices), len(outcomes), ncat), dtype=np.int64)
    stake = np.zeros(len(choices), dtype=np.int64)
    for i, ch in enumerate(choices):
        folded = ch.multiple == 0
        stake[i] = 1 + ch.multiple
        for j, out in enumerate(outcomes):
            of = nets.get((folded, out), {})
            x = of.get(per, Fraction(0)) + ch.multiple * of.get(raised_wager, Fraction(0))
            for c, b in enumerate(bonus.get((folded, out)) or [Fraction(0)] * ncat):
                if (x + b).denominator != 1:
                    raise NotDerivable("a payout is not a whole multiple of the wager")
                net[i, j, c] = int(x + b)
    return net, stake
