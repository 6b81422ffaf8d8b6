"""A game file and a table's settings, compiled for play.

``Rules`` checks that every id the procedure, the settlement tables and the strategies use
names something the game file declares (a mistake is a ``GameFileError`` with the
file:line:column of the id), and resolves what play needs: the rows each table pays at this
table, the wagers' amounts, the spots a seat can wager on, thresholds of hand tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

from validator.compiler import Game
from validator.errors import RulesubError
from validator.interpreter.config import TableConfig, paytable_rows
from validator.interpreter.errors import RoundError
from validator.interpreter.meters import Meter, MeterBank
from validator.loader import LoadError
from validator.model.game import GameDefinition, Table, Wager
from validator.model.notation import Payout
from validator.model.procedure import (
    Bound,
    DealStep,
    DecideStep,
    Line,
    Option,
    Pays,
    SettleStep,
    Step,
    Strategy,
    Void,
    When,
)
from validator.model.registry import GameFileError, _display
from validator.rankings.evaluator import Evaluator
from validator.vocabulary import TABLE_FEATURE, meaning

#: the condition keys, in the order a row's reasons are told (and each engine tests them)
CONDITION_KEYS = tuple(When.model_fields)

#: the spot of the fees paid beside the wagers (the game file's ``options_fee``)
FEES = "options_fee"


class MissingTable(RulesubError):
    """A round needs a table the regulation text lacks and no submission supplied."""

    def __init__(self, table_id: str, table: Table, why: str = "") -> None:
        self.table_id = table_id
        self.cite = table.cite
        super().__init__(
            f"this round needs the {table.name} table of {table.cite}, which is missing from "
            f"the regulation text{why}; state the table the casino uses under "
            f"`custom_paytables: {{{table_id}: {{…}}}}` in the Rules Submission (--rulesub)"
        )


def spot_id(wager: str, side: str) -> str:
    """A place a seat wagers on: the wager, or ``wager.dealer`` for a wager on the dealer's
    hand (Four Card Poker's Five Card Hand Bonus)."""
    return wager if side == "player" else f"{wager}.{side}"


@dataclass
class Rules:
    game: Game
    config: TableConfig
    _rows_cache: dict[tuple[str, Decimal | None], dict[str, Payout] | None] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        d = self.game.definition
        if not d.procedure or d.settle is None:
            raise not_playable(self.game)
        errors = _check(self)
        if errors:
            raise GameFileError(errors)

    # -- lookups ----------------------------------------------------------------------------

    @property
    def d(self) -> GameDefinition:
        return self.game.definition

    @property
    def procedure(self) -> list[Step]:
        return self.d.procedure

    @property
    def lines(self) -> dict[str, Line]:
        assert self.d.settle is not None
        return self.d.settle.lines

    def wager(self, wager_id: str) -> Wager:
        return self.d.wagers[wager_id]

    def table(self, table_id: str) -> Table:
        return self.game.table(table_id)[1]

    def evaluator(self, hand_id: str) -> Evaluator:
        return self.game.evaluator(hand_id)

    @meaning(("scalar", "batch"), TABLE_FEATURE.id, "by_wager_amount")
    def rows(self, table_id: str, wager_amount: Decimal | None = None) -> dict[str, Payout] | None:
        key = (table_id, wager_amount if self.table(table_id).by_wager_amount else None)
        if key not in self._rows_cache:
            self._rows_cache[key] = paytable_rows(self.game, self.config, table_id, wager_amount)
        return self._rows_cache[key]

    def rows_or_stop(self, table_id: str, wager_amount: Decimal | None = None) -> dict[str, Payout]:
        rows = self.rows(table_id, wager_amount)
        if rows is None:
            table = self.table(table_id)
            if table.source == "missing":
                raise MissingTable(table_id, table)
            raise MissingTable(
                table_id, table, f" for a wager of ${wager_amount} (no table for that amount)"
            )
        return rows

    @cached_property
    def spots(self) -> list[str]:
        """Every spot, in the order of the game file's wagers."""
        out = []
        for wid, wager in self.d.wagers.items():
            sides = wager.on_hands.choices if wager.on_hands else ["player"]
            out += [spot_id(wid, s) for s in sides]
        return out

    def spot_wager(self, spot: str) -> str:
        return spot.split(".", 1)[0]

    def spot_name(self, spot: str) -> str:
        """A spot as the chapter names its wager: ``Five Card Hand Bonus Wager (dealer's
        hand)`` where the wager may be placed on either hand."""
        wager_id, _, side = spot.partition(".")
        fee = self.d.options_fee
        if fee is not None and wager_id == FEES:
            return fee.name  # a payment beside the wagers (Lunar Poker's Options fee)
        wager = self.wager(wager_id)
        if wager.on_hands is None:
            return wager.name
        return f"{wager.name} ({side or 'player'}'s hand)"

    def line_spot(self, line: Line) -> str:
        return spot_id(line.wager, line.on)

    def offered(self, wager_id: str) -> bool:
        return self.config.offers(self.game, wager_id)

    @cached_property
    def settled_midway(self) -> frozenset[int]:
        """The settle steps (by place in the procedure) that other steps follow: a
        settlement before the round's end (Lunar Poker's Super Wager before any draw,
        § 589.11(c)), which the narration tells where it happens."""
        steps = self.procedure
        return frozenset(
            i
            for i, s in enumerate(steps)
            if isinstance(s, SettleStep)
            and any(not isinstance(t, SettleStep) for t in steps[i + 1 :])
        )

    @cached_property
    def decisions(self) -> dict[str, DecideStep]:
        return {s.id: s for s in self.procedure if isinstance(s, DecideStep)}

    @cached_property
    def groups(self) -> list[str]:
        """The card groups the procedure deals: ``player`` (each player), ``dealer``,
        ``community`` and named spots (the Six Card Bonus card)."""
        out: list[str] = []
        for s in self.procedure:
            if isinstance(s, DealStep):
                out += [g for g in s.cards if g not in out]
        return out

    def dealt_count(self, group: str, wagered: set[str]) -> int:
        """How many cards the procedure deals to ``group`` (each player's for ``player``),
        given the wagers placed at the table."""
        return sum(
            s.cards.get(group, 0)
            for s in self.procedure
            if isinstance(s, DealStep) and (s.when_wagered is None or s.when_wagered in wagered)
        )

    def threshold(self, hand_id: str, bound: Bound) -> tuple[int, ...]:
        ev = self.evaluator(hand_id)
        return (ev.strength(bound.category), *bound.ranks)

    @cached_property
    def qualifier(self) -> tuple[str, tuple[int, ...]] | None:
        """(hand, lowest qualifying key) of the dealer's hand, or ``None``."""
        q = self.d.dealer.qualifies if self.d.dealer else None
        if q is None:
            return None
        ev = self.evaluator(q.hand)
        high = q.high_card_at_least
        ranks: tuple[int, ...] = ()
        if high is not None:
            from validator.cards import parse_rank

            ranks = (parse_rank(high),)
        return q.hand, (ev.strength(q.at_least), *ranks)

    def option_multiple_range(
        self, option: Option, decision: str, features: Any
    ) -> tuple[int, int, str]:
        """(min, max, cite) of the multiple of ``option.wager``'s ``of`` wager, by the first
        amount rule that holds (``features(hand_id, category)`` tests hand rules)."""
        least, most, cite = self._amount_rule(option, decision, features)
        return (least or 1, most, cite)

    def option_amount_range(
        self, option: Option, decision: str, features: Any, of: Decimal
    ) -> tuple[Decimal, Decimal, str]:
        """(least, most, cite) of ``option.wager`` stated as an amount on ``of`` (its ``of``
        wager's stake): from the rule's least multiple, or where the rule states none ("up to
        three times", § 677a.11(b)) from the table minimum wager, to its most."""
        least, most, cite = self._amount_rule(option, decision, features)
        low = of * least if least is not None else min(self.config.min_wager, of * most)
        return (low, of * most, cite)

    def _amount_rule(
        self, option: Option, decision: str, features: Any
    ) -> tuple[int | None, int, str]:
        wager = self.wager(option.wager or "")
        amount = wager.amount
        assert amount is not None
        for rule in amount.rules:
            w = rule.when
            if w.decision is not None and w.decision != decision:
                continue
            if w.hand is not None and w.at_least is not None and not features(w.hand, w.at_least):
                continue
            return (rule.min, rule.max or 1, rule.cite)
        return (amount.min, amount.max or amount.min or 1, amount.cite)

    def played(self, name: str | None) -> tuple[str | None, Strategy | None]:
        """The strategy a round is played with, and its name: ``name``, else the game's
        default; (None, None) for a game with no strategy file and no name asked for (each
        decision then takes its step's default, else its first option). A name a game does
        not have is refused."""
        if name is None and self.d.strategies is None:
            return None, None
        strategy = self.strategy(name)
        return name or (self.d.strategies.default if self.d.strategies else None), strategy

    def draw_cards(self, option: Option | None) -> tuple[int, int] | None:
        """(least, most) cards a draw option takes, as its options fee states them (Lunar
        Poker's exchange of two to five cards, § 589.11(d)(2)(i)(B)); ``None`` where the fee
        states no range. The one rule both engines hold a draw to."""
        fee = self.d.options_fee
        if option is None or option.fee is None or fee is None or option.fee not in fee.options:
            return None
        c = fee.options[option.fee].cards
        return (c.min, c.max) if c else None

    def strategy(self, name: str | None) -> Strategy:
        """A strategy of the game's strategy file (games/strategies/): ``name``, else the
        default; the one way every engine reads them."""
        s = self.d.strategies
        if s is None:
            raise KeyError(
                f"{self.d.id} declares no strategies (they are written in "
                f"games/strategies/{self.d.id}.yaml)"
            )
        name = name or s.default
        if name not in s.by_name:
            from validator.loader import did_you_mean

            raise KeyError(
                f"{self.d.id} has no strategy {name!r}{did_you_mean(name, s.by_name)}; "
                f"its strategies are: {', '.join(s.by_name)}"
            )
        return s.by_name[name]

    @meaning(("scalar", "batch"), TABLE_FEATURE.id, "meters")
    def new_meters(self, start: dict[str, dict[str, Decimal]] | None = None) -> MeterBank:
        meters: dict[str, Meter] = {}
        for tid, prog in sorted(self.config.progressives.items()):
            wid, _ = self.game.table(tid)
            if not self.offered(wid):
                continue
            for name, mc in prog.meters.items():
                amount = mc.seed
                if start and tid in start and name in start[tid]:
                    amount = start[tid][name]
                meters[f"{tid}/{name}"] = Meter(tid, name, mc, amount)
        return MeterBank(meters)

    def draw_enabled(self, draw_id: str) -> bool:
        """Whether the table game system makes a draw: a draw that only decides a payout the
        certificate holder "may pay" is made when the table pays it."""
        for _, tid, table in self.d.tables():
            if table.events and draw_id in table.events and table.optional_payout:
                return tid in self.config.optional_payouts
        return True

    def max_cards(self, seats: int) -> int:
        """The most cards a round at ``seats`` players can need from one deck: the deals,
        the burns, each player's largest draw, the dealer's replacements."""
        fee = self.d.options_fee
        total = 0
        for s in self.procedure:
            if isinstance(s, DealStep):
                total += s.burn + sum(
                    n * (seats if g == "player" else 1) for g, n in s.cards.items()
                )
            elif isinstance(s, DecideStep):
                most = 0
                for o in s.options.values():
                    if o.draw == "add":
                        most = max(most, 1)
                    elif o.draw == "exchange" and fee and o.fee in fee.options:
                        c = fee.options[o.fee].cards
                        most = max(most, c.max if c else 0)
                total += most * seats
            elif s.step == "replace":
                total += 1
        return total

    def max_seats(self) -> int:
        """The most players a round can be dealt to without running out of cards."""
        n = self.config.positions
        while n > 1 and self.max_cards(n) > 52:
            n -= 1
        return n

    def missing_prerequisite(self, wagered: set[str]) -> tuple[str, str] | None:
        """The first wager of ``wagered`` (wager ids) placed without the wagers it must come
        after, as (wager id, what it needs); ``None`` when every one may be placed."""
        for wid in sorted(wagered):
            wager = self.wager(wid)
            for other in wager.requires_wager:
                if other not in wagered:
                    return wid, f"the {self.wager(other).name}"
            anyof = wager.requires_any_wager
            if anyof and not set(anyof) & wagered:
                names = " or the ".join(self.wager(o).name for o in anyof)
                return wid, f"the {names}" + (" (or both)" if len(anyof) == 2 else "")
        return None

    def under_payout_limit(self, spot: str) -> bool:
        """Whether a payout on ``spot`` counts toward the aggregate payout limit: every payout
        does, a share of a meter included, except those of the wagers the game file's
        ``payout_limit.excludes`` names. The one rule both engines apply."""
        rule = self.d.payout_limit
        return rule is not None and self.spot_wager(spot) not in rule.excludes

    def void(self, irregularity: str) -> Void:
        """The irregularity of the chapter's § *.13 that voids the round (``settle.void``);
        one the game file does not list is refused, naming those it does."""
        settle = self.d.settle
        voids = settle.void if settle is not None else {}
        if irregularity not in voids:
            from validator.loader import did_you_mean

            raise RoundError(
                f"no irregularity {irregularity!r} voids a round of {self.d.id}"
                f"{did_you_mean(irregularity, voids)}; the chapter's are: {', '.join(voids)}",
                "/irregularity",
            )
        return voids[irregularity]

    def stands_in_void(self, spot: str, void: Void) -> bool:
        """Whether the wager on ``spot`` stands in a voided round: it is settled all the same
        when a line of its wager is among the lines the irregularity still settles (the
        Pocket Bonus and Trips Plus Wagers of § 677a.13(d)); every other wager is returned.
        The one rule both engines apply."""
        wager = self.spot_wager(spot)
        return any(self.lines[lid].wager == wager for lid in void.settles)

    def meter_tables(self) -> dict[str, str]:
        """Wager id -> the table id its meters belong to."""
        return {self.game.table(t)[0]: t for t in self.config.progressives}

    def _error(self, pointer: str, message: str) -> LoadError:
        loc = self.game.located
        pos = loc.position(pointer)
        return LoadError(_display(loc.path), pos.line, pos.column, f"{pointer}: {message}")


def not_playable(game: Game) -> GameFileError:
    """The error of a game with no banking round to play (a nonbanking Poker game)."""
    loc = game.located
    pos = loc.position("")
    message = f": {game.id} has no `procedure:` and `settle:` to play it by"
    return GameFileError([LoadError(_display(loc.path), pos.line, pos.column, message)])


# -- cross-references ------------------------------------------------------------------------


def _check(rules: Rules) -> list[LoadError]:
    d = rules.d
    errors: list[LoadError] = []
    assert d.settle is not None

    def err(pointer: str, message: str) -> None:
        errors.append(rules._error(pointer, message))

    decisions = {s.id: s for s in d.procedure if isinstance(s, DecideStep)}
    table_ids = {t for _, t, _ in d.tables()}

    def hand_ok(pointer: str, hand_id: str) -> bool:
        if hand_id not in d.hands:
            err(pointer, f"no hand {hand_id!r} in `hands:`")
            return False
        return True

    def category_ok(pointer: str, hand_id: str, category: str) -> None:
        if hand_ok(pointer, hand_id) and category not in rules.evaluator(hand_id).ids:
            err(pointer, f"{category!r} is no category of hand {hand_id!r}")

    def when_ok(pointer: str, w: When | None) -> None:
        if w is None:
            return
        for wid in (w.wagered or []) + (w.not_wagered or []):
            if wid not in d.wagers:
                err(f"{pointer}/wagered", f"no wager {wid!r}")
        for did, opts in (w.decided or {}).items():
            if did not in decisions:
                err(f"{pointer}/decided/{did}", f"no decision {did!r} in `procedure:`")
                continue
            for o in opts:
                if o != "none" and o not in decisions[did].options:
                    err(f"{pointer}/decided/{did}", f"decision {did!r} has no option {o!r}")
        for hid, test in (w.hand or {}).items():
            p = f"{pointer}/hand/{hid}"
            for b in (test.at_least, test.below):
                if b is not None:
                    category_ok(p, hid, b.category)
            for c in (test.is_ or []) + (test.is_not or []):
                category_ok(p, hid, c)
        if w.beats:
            hand_ok(f"{pointer}/beats", w.beats.hand)
            hand_ok(f"{pointer}/beats", w.beats.other)
        if w.event and w.event.hand:
            hand_ok(f"{pointer}/event", w.event.hand)
        when_ok(f"{pointer}/any_player", w.any_player)

    s = d.settle
    if s.compare:
        hand_ok("/settle/compare/player", s.compare.player)
        hand_ok("/settle/compare/dealer", s.compare.dealer)
    for w in [*s.base_game.wagers, s.base_game.per]:
        if w not in d.wagers:
            err("/settle/base_game", f"no wager {w!r}")
    for lid, line in s.lines.items():
        lp = f"/settle/lines/{lid}"
        if line.wager not in d.wagers:
            err(f"{lp}/wager", f"no wager {line.wager!r}")
        for i, row in enumerate(line.rows):
            rp = f"{lp}/rows/{i}"
            when_ok(f"{rp}/when", row.when)
            if isinstance(row.then, Pays):
                t = row.then
                tid = t.paytable or t.envy
                if tid is not None and tid not in table_ids:
                    err(f"{rp}/then", f"no table {tid!r}")
                    continue
                for w in t.envy_from_folded_with:
                    if w not in d.wagers:
                        err(f"{rp}/then/envy_from_folded_with", f"no wager {w!r}")
                if t.paytable:
                    hand = t.hand or rules.table(t.paytable).pays_on
                    if t.row is None and (hand is None or not hand_ok(f"{rp}/then", hand)):
                        err(f"{rp}/then", "a paytable outcome needs the hand it pays on")
            elif row.then == "none" and not line.bonus:
                err(f"{rp}/then", "`none` settles a bonus line only; a wager wins, loses or pushes")
            elif row.then == "win" and not line.bonus and rules.wager(line.wager).pays is None:
                err(f"{rp}/then", f"wager {line.wager!r} has no `pays:` for `win`")
    for vid, void in s.void.items():
        for lid in void.settles:
            if lid not in s.lines:
                err(f"/settle/void/{vid}/settles", f"no settlement line {lid!r}")
    for i, step in enumerate(d.procedure):
        sp = f"/procedure/{i}"
        if isinstance(step, SettleStep):
            for lid in step.lines:
                if lid not in s.lines:
                    err(f"{sp}/lines", f"no settlement line {lid!r}")
            when_ok(f"{sp}/players", step.players)
        elif isinstance(step, DecideStep):
            when_ok(f"{sp}/players", step.players)
            when_ok(f"{sp}/when", step.when)
            for oid, opt in step.options.items():
                if opt.wager is not None and (
                    opt.wager not in d.wagers or d.wagers[opt.wager].amount is None
                ):
                    err(f"{sp}/options/{oid}/wager", f"no wager {opt.wager!r} with an `amount:`")
                if opt.fee and d.options_fee is None:
                    err(f"{sp}/options/{oid}/fee", "the game has no `options_fee:`")
                when_ok(f"{sp}/options/{oid}/available", opt.available)
        elif isinstance(step, DealStep):
            for g in step.cards:
                if g not in ("player", "dealer", "community") and g not in d.cards.dealt:
                    err(f"{sp}/cards", f"no cards dealt to {g!r} in `cards.dealt:`")
    if d.strategies:
        for name, strat in d.strategies.by_name.items():
            for did, rows in strat.decisions.items():
                p = f"/strategies/named/{name}/decisions/{did}"
                if did not in decisions:
                    err(p, f"no decision {did!r} in `procedure:`")
                    continue
                for j, advice in enumerate(rows):
                    when_ok(f"{p}/{j}/when", advice.when)
                    then = advice.then
                    chosen = then if isinstance(then, str) else then.option
                    word = chosen.split()[0] if chosen.split() else ""
                    if word not in decisions[did].options:
                        err(f"{p}/{j}/then", f"decision {did!r} has no option {word!r}")
                if not rows or rows[-1].when != When():
                    err(p, "a strategy's last row must have no conditions (the catch-all)")
    return errors
