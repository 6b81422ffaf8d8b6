"""Exact odds of a paytable wager: which tables can be priced, meters, the figures.

A table is priced from the game file alone: the hand it pays on (a ranking over the cards
dealt), the exact count of hands in each category (``enumeration``), and its rows. A table
whose hand is not a plain deal of cards, or whose payment depends on more than that hand,
is refused with the reason (``NotPriced``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import comb, sqrt
from typing import Any, Literal, Protocol

from validator.compiler import Game, meter_name
from validator.errors import RulesubError
from validator.loader import did_you_mean
from validator.model.game import ApprovedHold, GameDefinition, Table, Wager
from validator.model.notation import Payout, PayoutKind, format_money, format_rate, parse_payout
from validator.model.rows import paid_row
from validator.odds.enumeration import category_counts
from validator.vocabulary import TABLE_FEATURE, meaning

Basis = Literal["wager", "bonus"]
OTHER = "other"


class OddsError(RulesubError, ValueError):
    """A request the odds engine cannot answer: what was asked, and why not."""


class NotPriced(OddsError):
    """A table whose exact hold cannot be computed from the cards of one hand."""


@dataclass(frozen=True)
class MeterValue:
    """The value a meter share is priced at."""

    name: str
    amount: Decimal  # dollars on the meter for the wager amount
    wager_amount: Decimal
    source: Literal["seed", "seed_at_least", "--meter", "submission"]

    @property
    def per_unit(self) -> Fraction:
        return Fraction(self.amount) / Fraction(self.wager_amount)

    def describe(self) -> str:
        where = {
            "seed": "the seed",
            "seed_at_least": "the least seed the chapter allows",
            "--meter": "the meter's amount priced",
            "submission": "as the Rules Submission states it",
        }[self.source]
        return (
            f"{meter_name(self.name)} meter {format_money(self.amount)} on a "
            f"{format_money(self.wager_amount)} wager ({where})"
        )


@dataclass(frozen=True)
class CategoryOdds:
    """One line of the odds table: a paytable row (or the hands it does not pay)."""

    category: str  # the row's category id; "other" for every hand without a row
    name: str
    combinations: int
    probability: Fraction
    payout: str  # as the paytable prints it; "loses" (or "—" for a bonus) without a row
    net: Fraction  # net result per unit wagered
    contribution: Fraction  # probability × net: the lines add up to minus the hold

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "name": self.name,
            "combinations": self.combinations,
            "probability": float(self.probability),
            "probability_exact": str(self.probability),
            "payout": self.payout,
            "net": str(self.net),
            "contribution": float(self.contribution),
            "contribution_exact": str(self.contribution),
        }


@dataclass(frozen=True)
class OddsResult:
    """The exact odds of one paytable."""

    game: str
    game_name: str  # as the chapter writes it, for what people read
    wager: str | None
    wager_name: str
    table: str | None
    table_name: str
    paytable: str | None  # the letter; None for a fixed or supplied table
    cite: str
    basis: Basis
    hand: str
    ranking: str
    cards: int  # cards the hand is formed from
    hand_text: str  # the hand in words (``CompiledGame.hand_text``)
    total: int  # hands: C(52, cards)
    categories: tuple[CategoryOdds, ...]
    hold: Fraction
    hit_frequency: Fraction
    variance: Fraction
    meters: tuple[MeterValue, ...] = ()
    approved_hold: ApprovedHold | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    other_reading_hold: Fraction | None = None  # the hold under approved_hold.other_reading
    #: the base game's strategy the figures assume (a table paid on the lower of two hands)
    strategy: str | None = None
    stated: bool = False  # its rows are a submission's (``odds_for_rows``), not the chapter's

    @property
    def hold_percent(self) -> float:
        """For display and JSON only; ``hold`` is the exact figure."""
        return float(self.hold * 100)

    @property
    def expected(self) -> Fraction:
        return -self.hold

    @property
    def std_dev(self) -> float:
        return sqrt(self.variance)

    @property
    def meter_source(self) -> str | None:
        return ", ".join(sorted({m.source for m in self.meters})) or None

    @property
    def inside_approved(self) -> bool | None:
        """Whether the hold lies in the Board's stated range (None: no range stated)."""
        if self.approved_hold is None:
            return None
        return self.approved_hold.low <= self.hold <= self.approved_hold.high

    @property
    def label(self) -> str:
        letter = f" paytable {self.paytable}" if self.paytable else ""
        return f"{self.table_name}{letter}"

    def to_json(self) -> dict[str, Any]:
        ah = self.approved_hold
        return {
            "game": self.game,
            "wager": self.wager,
            "table": self.table,
            "paytable": self.paytable,
            "hold_percent": round(self.hold_percent, 6),
            "hold_exact": str(self.hold),
            "hit_frequency": float(self.hit_frequency),
            "hit_frequency_exact": str(self.hit_frequency),
            "categories": [c.to_json() for c in self.categories],
            "basis": self.basis,
            "cite": self.cite,
            "hand": self.hand,
            "ranking": self.ranking,
            "cards": self.cards,
            "total_combinations": self.total,
            "variance": float(self.variance),
            "variance_exact": str(self.variance),
            "std_dev": self.std_dev,
            "negative_hold": self.hold < 0 and self.basis == "wager",
            "meters": [
                {
                    "meter": m.name,
                    "amount": str(m.amount),
                    "wager_amount": str(m.wager_amount),
                    "per_unit": str(m.per_unit),
                    "source": m.source,
                }
                for m in self.meters
            ],
            "meter_source": self.meter_source,
            "approved_hold": None
            if ah is None
            else {
                "from_percent": float(ah.low * 100),
                "to_percent": float(ah.high * 100),
                "from": format_rate(ah.low),
                "to": format_rate(ah.high),
                "tables": ah.tables,
                "cite": ah.cite,
                "inside": self.inside_approved,
                "other_reading": None
                if ah.other_reading is None or self.other_reading_hold is None
                else {
                    "name": ah.other_reading.name,
                    "cite": ah.other_reading.cite,
                    "hold_percent": round(float(self.other_reading_hold * 100), 6),
                    "hold_exact": str(self.other_reading_hold),
                    "inside": ah.low <= self.other_reading_hold <= ah.high,
                },
            },
            "notes": list(self.notes),
        } | ({"strategy": self.strategy} if self.strategy else {})


# -- which tables can be priced ------------------------------------------------------------


@meaning("odds", TABLE_FEATURE.id, "source", "events", "envy", "by_wager_amount", "paid_when")
def not_priced_reason(
    game: Game | GameDefinition,
    wager_id: str,
    table_id: str,
    joint: JointPricer | None = None,
    *,
    stated: bool = False,
) -> str | None:
    """Why a table's exact odds cannot be computed from the game file, or None if they can;
    ``joint``: how a table paid on the lower of two hands is counted (without it, it is not);
    ``stated``: its rows are the ones a submission states, so a text missing from the copy
    is no reason, but how the table is paid still is."""
    d = game.definition if isinstance(game, Game) else game
    wager = d.wagers[wager_id]
    table = wager.tables[table_id]
    if table.source == "missing" and not stated:
        return (
            f"{table.cite} is missing from the regulation copy: no paytable to price, "
            "unless a Rules Submission states the table it uses"
        )
    if table.events is not None:
        return "paid on events drawn by the table game system, not on the cards"
    if table.envy is not None or table.by_wager_amount is not None:
        cite = table.envy.cite if table.envy else table.cite
        return f"fixed sums paid for other players' hands ({cite}): no odds on a stake"
    hand = d.hands.get(table.pays_on or "")
    if hand is None:
        return "paid on no hand"
    if hand.losing_of:
        why = (
            "the odds need the joint deal of both hands"
            if joint is None or not isinstance(game, Game)
            else joint.reason(game, wager_id, table_id)
        )
        if why is not None:
            return f"paid on the lower of {len(hand.losing_of)} hands dealt: {why}"
    if table.paid_when == "player_lower":
        return (
            f"paid on the {wager.name} only when the player's hand loses to the dealer's: "
            "its odds depend on the dealer's hand and the player's decisions, "
            "so it is priced with the base game, not as a wager of its own"
        )
    if wager.amount is not None:
        return (
            f"the {wager.name} is sized from the {d.wagers[wager.amount.of].name} and paid "
            "only when the hand beats the dealer's: its odds depend on the dealer's hand and "
            "the player's decisions"
        )
    if d.cards.decks != 1:
        return "the odds engine deals from one deck"
    return None


#: The strategy a table paid on the lower of two hands assumes the base game is played by.
OPTIMAL = "optimal"

#: A table paid on the lower of two hands (``losing_of``), counted over the joint deal: the
#: deals it pays by the category of that hand, and the deals it loses.
Deals = tuple[Sequence[int], int]


class JointPricer(Protocol):
    """Counts a table paid on the lower of two hands over their joint deal, the base game
    played by its ``OPTIMAL`` strategy. The par sheet's exact method does it
    (``validator.par.completions.JOINT``); a document passes it in, and without it such a
    table is not priced (the checks, which read the game file alone)."""

    def reason(self, game: Game, wager_id: str, table_id: str) -> str | None:
        """Why the table cannot be counted so, or None."""
        ...

    def deals(self, game: Game, wager_id: str, table_id: str) -> Deals:
        """The table's ``Deals``."""
        ...


def strategy_text(strategy: str) -> str:
    """What a table priced over the joint deal assumes, as the documents say it."""
    return (
        "every deal of both hands with the dealer's face-up card told apart (the player "
        f"decides seeing it), the base game played by its {strategy} strategy; a player who "
        "folds loses the wager"
    )


def basis_of(wager: Wager) -> Basis:
    """A table of a wager that has its own payout against the dealer (the Ante) is a bonus
    paid on that wager; otherwise the table is the wager's own settlement."""
    return "bonus" if wager.pays is not None else "wager"


def settles_in_place(game: Game, table_id: str) -> bool:
    """Whether the table is paid by a row of its wager's own settlement line (Lunar Poker's
    instant payout, § 589.11(c)(1)), not by a bonus line paid on top of it (Four Card
    Poker's Ante Bonus, § 641a.12(b))."""
    settle = game.definition.settle
    lines = settle.lines.values() if settle is not None else ()
    return any(
        not line.bonus and not isinstance(row.then, str) and row.then.paytable == table_id
        for line in lines
        for row in line.rows
    )


def dealt_cards(game: Game, hand_id: str) -> int:
    """How many cards of one deck the hand is formed from."""
    d = game.definition
    hand = d.hands[hand_id]
    if hand.losing_of:
        raise NotPriced(f"hand {hand_id!r} is the lower of two hands")
    k = 0
    for group in hand.cards:
        if group not in d.cards.dealt:
            raise OddsError(f"hand {hand_id!r}: no cards dealt to {group!r}")
        k += d.cards.dealt[group].count
    if hand.first is not None:
        k = min(k, hand.first)
    return k


# -- meters ---------------------------------------------------------------------------------


class StatedMeters(dict[str, Decimal]):
    """Meters by name as a Rules Submission states them (its progressive's seeds, for the
    paytable it selects): priced as given, their source named as the submission."""


MeterArg = Decimal | Mapping[str, Decimal] | None
#: where a meter's amount came from when it was given, not read from the chapter's seed
GivenBy = Literal["--meter", "submission"]


def meter_values(
    table: Table, letter: str | None, meter: MeterArg, wager_amount: Decimal | None
) -> dict[str, MeterValue]:
    """Each meter of the selected table, valued at its seed for the wager amount or as given.

    A single ``meter`` amount sets the meter that pays the top hand: ``primary``, or the
    first listed (``mega``); a mapping sets meters by name.
    """
    if table.meters is None:
        if meter:
            raise OddsError(f"the {table.name} table has no meter")
        return {}
    rules = table.meters.for_paytable(letter)
    amount = Decimal(1) if wager_amount is None else wager_amount
    if amount <= 0:
        raise OddsError("the wager amount must be more than $0")
    given: dict[str, Decimal] = {}
    if isinstance(meter, Mapping):
        given = dict(meter)
        for name in given:
            if name not in rules:
                raise OddsError(
                    f"no meter {name!r}{did_you_mean(name, rules)} on {table.name} "
                    f"paytable {letter}; its meters: {', '.join(rules)}"
                )
    elif meter is not None:
        given = {"primary" if "primary" in rules else next(iter(rules)): meter}
    out: dict[str, MeterValue] = {}
    for name, rule in rules.items():
        if name in given:
            if given[name] < 0:
                raise OddsError("a meter amount cannot be negative")
            source: GivenBy = "submission" if isinstance(meter, StatedMeters) else "--meter"
            out[name] = MeterValue(name, given[name], amount, source)
        elif rule.seed is not None:
            out[name] = MeterValue(name, rule.seed * amount, amount, "seed")
        elif rule.seed_at_least is not None:
            out[name] = MeterValue(name, rule.seed_at_least, amount, "seed_at_least")
        else:
            raise OddsError(
                f"the {meter_name(name)} meter ({name}) states no seed: give its amount (--meter)"
            )
    return out


# -- the figures ----------------------------------------------------------------------------


def _rows(rows: Mapping[str, object]) -> dict[str, Payout]:
    out = {}
    for k, v in rows.items():
        out[k] = parse_payout(v)
    return out


def price(
    game: Game,
    hand_id: str,
    rows: Mapping[str, object],
    *,
    basis: Basis = "wager",
    meters: Mapping[str, MeterValue] | None = None,
    ace_low: bool | None = None,
    deals: Deals | None = None,
) -> tuple[tuple[CategoryOdds, ...], Fraction, Fraction, Fraction, int, int]:
    """(lines, hold, hit frequency, variance, cards, total) of ``rows`` paid on ``hand_id``;
    ``ace_low``: priced under that reading of the hand's ranking instead of its own;
    ``deals``: a hand that is the lower of two, counted over their joint deal."""
    payouts = _rows(rows)
    ranking = game.ranking_of(hand_id)
    if ace_low is not None and ace_low != ranking.ace_low:
        ranking = ranking.model_copy(update={"ace_low": ace_low})
    evaluator = game.evaluator(hand_id)
    ids = ranking.ids
    for row in payouts:
        if row not in ids:
            raise OddsError(
                f"{row!r} is no hand of the {ranking.name} ranking{did_you_mean(row, ids)}; "
                f"expected one of: {', '.join(ids)}"
            )
    meters = meters or {}
    if deals is not None:  # every deal of both hands: those the table pays, the others lost
        k = sum(dealt_cards(game, h) for h in game.hand(hand_id).losing_of or [])
        counts, lost = tuple(deals[0]), deals[1]
        total = sum(counts) + lost
    else:
        k = dealt_cards(game, hand_id)
        counts, lost = category_counts(ranking, k), 0
        total = comb(52, k)

    # each category held → the row it is paid on (a refinement without a row pays as its
    # parent), the N/A row it is refused on, or none
    by_line: dict[str, list[Any]] = {}
    names: dict[str, str] = {}
    refines = {c.id: c.refines for c in ranking.categories}
    for cat, count in zip(ranking.categories, counts, strict=True):
        if count == 0:
            continue
        paid = paid_row(cat.id, refines, payouts)
        line = paid if paid is not None else OTHER
        names[line] = evaluator.category(paid).name if paid is not None else "Any other hand"
        by_line.setdefault(line, [0])[0] += count
    if lost:
        names[OTHER] = "Any other deal"  # a lower hand the table does not pay, or no payout
        by_line.setdefault(OTHER, [0])[0] += lost
    lines = []
    expected = hit = square = Fraction(0)
    order = [c.id for c in ranking.categories if c.id in by_line] + (
        [OTHER] if OTHER in by_line else []
    )
    for line in order:
        count = by_line[line][0]
        p = Fraction(count, total)
        payout = payouts.get(line)
        if payout is None or not payout.pays:
            net = Fraction(-1) if basis == "wager" else Fraction(0)
            text = payout.text if payout is not None else ("loses" if basis == "wager" else "—")
        else:
            net = _net(payout, meters, basis)
            text = payout.text
            if payout.is_win:
                hit += p
        expected += p * net
        square += p * net * net
        lines.append(CategoryOdds(line, names[line], count, p, text, net, p * net))
    return tuple(lines), -expected, hit, square - expected * expected, k, total


def _net(payout: Payout, meters: Mapping[str, MeterValue], basis: Basis) -> Fraction:
    if payout.kind is PayoutKind.FIXED:
        raise NotPriced(f"{payout.text!r} is a fixed sum, not odds on a stake")
    if payout.kind is PayoutKind.METER:
        if payout.meter not in meters:
            raise OddsError(f"{payout.text!r}: the {payout.meter} meter's amount is needed")
        return payout.net_units(meters[payout.meter].per_unit)
    return payout.net_units()


def table_odds(
    game: Game,
    table_id: str,
    letter: str | None = None,
    *,
    meter: MeterArg = None,
    wager_amount: Decimal | None = None,
    joint: JointPricer | None = None,
) -> OddsResult:
    d = game.definition
    try:
        wager_id, table = game.table(table_id)
    except KeyError:
        known = [t for _, t, _ in d.tables()]
        raise OddsError(
            f"{game.id} has no table {table_id!r}{did_you_mean(table_id, known)}; "
            f"its tables: {', '.join(known)}"
        ) from None
    wager = d.wagers[wager_id]
    reason = not_priced_reason(game, wager_id, table_id, joint)
    if reason:
        raise NotPriced(f"{table.name}: {reason}")  # a name: said in documents
    if table.paytables is not None:
        if letter is None:
            raise OddsError(f"{table.name}: choose a paytable: {', '.join(table.letters)}")
        if letter not in table.paytables:
            raise OddsError(
                f"{table.name} has no paytable {letter!r}"
                f"{did_you_mean(letter, table.letters)}; its paytables: "
                f"{', '.join(table.letters)}"
            )
    elif letter is not None:
        raise OddsError(f"{table.name} is a single table: it has no paytable letters")
    rows = table.rows(letter)
    meters = meter_values(table, letter, meter, wager_amount)
    basis = basis_of(wager)
    hand_id = table.pays_on or ""
    deals = None
    if joint is not None and game.hand(hand_id).losing_of:  # not_priced_reason let it by
        deals = joint.deals(game, wager_id, table_id)
    lines, hold, hit, var, k, total = price(
        game, hand_id, rows, basis=basis, meters=meters, deals=deals
    )
    other = table.approved_hold.other_reading if table.approved_hold else None
    other_hold = None
    if other is not None:
        other_hold = price(game, hand_id, rows, basis=basis, meters=meters, ace_low=other.ace_low)[
            1
        ]
    return OddsResult(
        game=game.id,
        wager=wager_id,
        game_name=game.definition.name,
        wager_name=wager.name,
        table=table_id,
        table_name=table.name,
        paytable=letter,
        cite=table.cite,
        basis=basis,
        hand=hand_id,
        ranking=game.hand(hand_id).ranking,
        cards=k,
        hand_text=game.hand_text(hand_id),
        total=total,
        categories=lines,
        hold=hold,
        hit_frequency=hit,
        variance=var,
        meters=tuple(meters.values()),
        approved_hold=table.approved_hold,
        notes=tuple(_notes(game, wager, table_id, table, basis, k)),
        other_reading_hold=other_hold,
        strategy=None if deals is None else OPTIMAL,
    )


@meaning("odds", TABLE_FEATURE.id, "also_pays_on")
def _notes(
    game: Game, wager: Wager, table_id: str, table: Table, basis: Basis, k: int
) -> list[str]:
    notes = []
    if basis == "bonus" and settles_in_place(game, table_id):
        notes.append(
            f"Paid on the {wager.name} ({table.cite}) in place of its settlement against the "
            f"dealer: a hand the table pays settles the {wager.name} at the table's odds; the "
            f"hold shown is minus the table's return per unit of the {wager.name}. The "
            f"{wager.name}'s result on every other hand depends on the dealer's hand and the "
            "player's decisions and is not included."
        )
    elif basis == "bonus":
        notes.append(
            f"A bonus paid on the {wager.name} ({table.cite}), on top of its settlement "
            f"against the dealer: the hold shown is minus the bonus's return per unit of the "
            f"{wager.name}; the {wager.name}'s own result depends on the dealer's hand and "
            "the player's decisions and is not included."
        )
    also = table.also_pays_on
    if also and also in game.definition.hands:
        same_ranking = game.hand(also).ranking == game.hand(table.pays_on or "").ranking
        if same_ranking and dealt_cards(game, also) == k:
            notes.append(
                f"The wager on the other hand ({game.hand_text(also)}) is dealt the same way "
                f"({k} cards of one deck, the same ranking): the same odds hold for it, apart "
                "from any division of a meter share among several players."
            )
    if game.hand(table.pays_on or "").losing_of:
        notes.append(
            f"Paid on the {game.hand_text(table.pays_on or '')}: counted over "
            f"{strategy_text(OPTIMAL)}. A deal is the player's cards, the dealer's face-up card "
            "and his other cards; on equal returns the player takes the smaller wager. Every "
            "deal its settlement does not pay from the table loses, a tie among them."
        )
    return notes


def rows_odds(
    game: Game,
    hand_id: str,
    rows: Mapping[str, object],
    *,
    meter: MeterArg = None,
    table_id: str | None = None,
    wager_amount: Decimal | None = None,
    joint: JointPricer | None = None,
) -> OddsResult:
    if hand_id not in game.definition.hands:
        raise OddsError(
            f"{game.id} has no hand {hand_id!r}{did_you_mean(hand_id, game.definition.hands)}"
        )
    wager_id = table = None
    if table_id is not None:
        wager_id, table = game.table(table_id)
    meters: dict[str, MeterValue] = {}
    if table is not None and table.meters is not None:
        meters = meter_values(table, None, meter, wager_amount)
    elif meter is not None:
        single = meter if isinstance(meter, Decimal) else None
        named = meter if isinstance(meter, Mapping) else {"primary": single}
        amount = Decimal(1) if wager_amount is None else wager_amount
        given_by: GivenBy = "submission" if isinstance(meter, StatedMeters) else "--meter"
        meters = {
            name: MeterValue(name, value, amount, given_by)
            for name, value in named.items()
            if value is not None
        }
    wager = game.definition.wagers[wager_id] if wager_id else None
    if wager_id is not None and table_id is not None:
        # stated rows stand in for a missing text; how the table is paid still decides
        reason = not_priced_reason(game, wager_id, table_id, joint, stated=True)
        if reason is not None and not game.hand(hand_id).losing_of:
            raise NotPriced(reason)
    deals = None
    if game.hand(hand_id).losing_of:
        if wager_id is None or table_id is None:
            raise NotPriced(f"hand {hand_id!r} is the lower of two hands: name its table")
        reason = not_priced_reason(game, wager_id, table_id, joint)
        if reason is not None:
            raise NotPriced(reason)
        assert joint is not None  # without it, the table has a reason
        deals = joint.deals(game, wager_id, table_id)
    lines, hold, hit, var, k, total = price(
        game, hand_id, rows, basis="wager", meters=meters, deals=deals
    )
    return OddsResult(
        game=game.id,
        wager=wager_id,
        game_name=game.definition.name,
        wager_name=wager.name if wager else "",
        table=table_id,
        table_name=table.name if table else "Supplied table",
        paytable=None,
        cite=table.cite if table else "",
        basis="wager",
        hand=hand_id,
        ranking=game.hand(hand_id).ranking,
        cards=k,
        hand_text=game.hand_text(hand_id),
        total=total,
        categories=lines,
        hold=hold,
        hit_frequency=hit,
        variance=var,
        meters=tuple(meters.values()),
        approved_hold=table.approved_hold if table else None,
        notes=("A table supplied for a paytable the regulation copy does not print.",)
        if table is not None and table.source == "missing"
        else (),
        strategy=None if deals is None else OPTIMAL,
        stated=True,
    )


# -- addressing a wager ---------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """What ``rulesub odds`` was asked for, resolved: tables and letters to price, and the
    tables that cannot be priced, with the reason."""

    priced: list[tuple[str, str | None]]  # (table id, letter)
    not_priced: list[tuple[str, str]]  # (table id, reason)
    many: bool  # whether the answer is a list


def select(
    game: Game,
    wager: str | None,
    paytable: str | None,
    every: bool,
    joint: JointPricer | None = None,
    stated: Collection[str] = (),
) -> Selection:
    """Resolve ``--wager`` (a wager id or a table id), ``--paytable`` and ``--all``.

    A wager names its own table: the one with the wager's id, else its only table; a
    wager's other tables (an Envy Bonus, Magic Card and Lucky Bonus) are named by their
    table id. Without ``--wager``, every table of every wager. ``stated``: the tables whose
    rows a submission states (``not_priced_reason``'s ``stated``), priced with no letter.
    """
    d = game.definition
    if wager is None:
        if paytable is not None:
            raise OddsError("--paytable needs --wager")
        priced: list[tuple[str, str | None]] = []
        skipped: list[tuple[str, str]] = []
        for w, t, table in d.tables():
            reason = not_priced_reason(game, w, t, joint, stated=t in stated)
            if reason:
                skipped.append((t, reason))
            elif t in stated:
                priced.append((t, None))
            else:
                priced += [(t, letter) for letter in (table.letters if table.paytables else [None])]
        return Selection(priced, skipped, True)
    table_ids = {t: w for w, t, _ in d.tables()}
    if wager in table_ids:
        table_id = wager
    elif wager in d.wagers:
        tables = d.wagers[wager].tables
        if not tables:
            fixed = d.wagers[wager].pays
            raise OddsError(
                f"the {d.wagers[wager].name} has no paytable: "
                f"it pays {fixed.payout.text if fixed else 'nothing'}"
            )
        if wager in tables:
            table_id = wager
        elif len(tables) == 1:
            table_id = next(iter(tables))
        else:
            raise OddsError(
                f"the {d.wagers[wager].name} has several tables: name one with --wager: "
                f"{', '.join(tables)}"
            )
    else:
        known = list(d.wagers) + [t for t in table_ids if t not in d.wagers]
        raise OddsError(
            f"{game.id} has no wager or table {wager!r}{did_you_mean(wager, known)}; "
            f"its wagers: {', '.join(d.wagers)}"
        )
    w = table_ids[table_id]
    table = d.wagers[w].tables[table_id]
    reason = not_priced_reason(game, w, table_id, joint, stated=table_id in stated)
    if reason:
        raise NotPriced(f"{table.name}: {reason}")  # a name: said in documents
    if table.paytables is None or table_id in stated:
        if paytable is not None:
            raise OddsError(f"{table.name} is a single table: it has no paytable letters")
        return Selection([(table_id, None)], [], every)
    if paytable is not None and not every:
        letter = paytable.strip().upper()
        if letter not in table.paytables:
            raise OddsError(
                f"{table.name} has no paytable {paytable!r}"
                f"{did_you_mean(letter, table.letters)}; its paytables: "
                f"{', '.join(table.letters)}"
            )
        return Selection([(table_id, letter)], [], False)
    if paytable is not None and every:
        raise OddsError("give --paytable or --all, not both")
    return Selection([(table_id, letter) for letter in table.letters], [], True)
