"""Scalar ≡ batch: the two round engines settle every dealt round of every banking game alike.

The scalar engine (``rulesub settle``, ``play``) and the batch engine (``simulate``, ``par``)
read the same game file; this property holds them to the same money. For every banking game
(``games/*.yaml`` of ``kind: banking``), hypothesis draws a table as a Rules Submission could
set it up:

- every declared strategy (the default among them);
- a paytable letter for every table the certificate holder selects, and at times a table of
  its own with payouts that are not whole cents on the stake (rounded down, § notation);
- every optional wager offered or not, and placed or not seat by seat, with the wagers it
  must follow (``Rules.missing_prerequisite``, e.g. § 641a.7(d)(4)-(8)), and the base wagers
  a chapter lets a player choose among (Ante, Aces Up or both, § 641a.7(d)(1)-(3));
- the tables the chapter "may pay" (§ 641a.12(g)(3)) paid or not; the tables missing from
  the regulation text (§ 677a.12(c), (d)) as a casino would state them;
- progressive wagers of $1 or $5, their meters and reserves at random amounts, a stated rate
  of progression where the chapter leaves it to the submission (§ 678a.12(d));
- an aggregate payout limit: none, the chapter's with its exclusions, without them, or with
  other wagers excluded (a limit the chapter does not have is a table setting the engines
  must still agree on);
- the minimum wager in cents, 1 to 7 seats, 1 to 3 rounds in a row (the meters carry from
  round to round), random decks and random table-game-system draws.

Both engines are dealt the same decks; every seat's every wager must net the same to the
cent, the fees and the house the same, and the meters (amount, reserve, paid, funded) end
the same. A round one engine refuses, the other refuses too.
"""

from __future__ import annotations

import dataclasses
import os
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from validator.compiler import Game, load_game
from validator.interpreter.batch import BatchEngine
from validator.interpreter.batch_money import from_micro, to_micro
from validator.interpreter.config import MeterConfig, Progressive, TableConfig, resolve_meters
from validator.interpreter.dealing import DeckSource
from validator.interpreter.errors import RoundError
from validator.interpreter.rules import MissingTable, Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.model.game import PayoutLimit
from validator.model.notation import Payout, PayoutKind, parse_payout
from validator.model.procedure import Choice, Keep, Strategy, StrategyRow
from validator.model.registry import game_ids

BANKING = [g for g in game_ids() if load_game(g).definition.kind == "banking"]
DRAWN = "(drawn)"  # a strategy drawn by hypothesis: one choice per decision, whatever the hand


def _strategy_names(game_id: str) -> list[str]:
    strategies = load_game(game_id).definition.strategies
    return list(strategies.by_name) if strategies else []


CASES = [(g, name) for g in BANKING for name in [*_strategy_names(g), DRAWN]]

#: payouts a casino's own table might print: whole and odd ratios, "for" and push
PAYOUTS = [
    "1 to 1", "2 to 1", "3 to 1", "30 to 1", "1000 to 1", "3 to 2", "7 to 3", "5 to 6",
    "1 to 7", "5 for 1", "9 for 2", "push",
]  # fmt: skip
ODD = ["7 to 3", "5 to 6", "1 to 7", "3 to 2", "9 for 2", "11 to 10"]
#: examples per game and strategy; a longer hunt: RULESUB_PROPERTY_EXAMPLES=2000
EXAMPLES = int(os.environ.get("RULESUB_PROPERTY_EXAMPLES", "25"))
LIMITS = [Decimal(1), Decimal(40), Decimal(150), Decimal(900), Decimal(50000)]
PROGRESSIVE_AMOUNTS = [Decimal(1), Decimal(5)]  # the Envy Bonus tables are printed for both


@dataclasses.dataclass
class Setting:
    """A table drawn for one example: the rules, the strategy, each seat's wagers, the meters
    as the first round begins, and the rounds' decks and draws."""

    rules: Rules
    strategy: Strategy
    seats: list[dict[str, Decimal]]
    meters: dict[str, tuple[Decimal, Decimal]]  # table/meter -> (amount, reserve)
    decks: list[list[int]]
    draws: dict[str, list[int]]


# -- drawing a table ---------------------------------------------------------------------------


def _limited(data: st.DataObject, game: Game) -> tuple[Game, Decimal | None]:
    """The game with the payout-limit rule drawn, and the limit's amount."""
    d = game.definition
    kind = data.draw(st.sampled_from(["none", "chapter", "no_exclusions", "other_exclusions"]))
    if kind == "none":
        return game, None
    amount = data.draw(st.sampled_from(LIMITS))
    rule = d.payout_limit
    if kind == "chapter" and rule is not None:
        return game, amount
    excludes: list[str] = []
    if kind == "other_exclusions":
        excludes = data.draw(st.lists(st.sampled_from(sorted(d.wagers)), unique=True))
    if rule is None:  # the rule of § 677a.12(f), set at a table of a chapter without one
        rule = PayoutLimit(at_least=Decimal(50000), cite="§ 677a.12(f)", excludes=excludes)
    else:
        rule = rule.model_copy(update={"excludes": excludes})
    changed = d.model_copy(update={"payout_limit": rule})
    return dataclasses.replace(game, definition=changed), amount


def _own_table(data: st.DataObject, game: Game, table_id: str, choices: list[str]) -> dict:
    """A table of the casino's own: a payout for every category of the hand it pays on."""
    table = game.table(table_id)[1]
    assert table.pays_on is not None
    ids = game.evaluator(table.pays_on).ids
    return {c: parse_payout(data.draw(st.sampled_from(choices), label=c)) for c in ids}


def _odd(data: st.DataObject, rows: dict[str, Payout]) -> dict[str, Payout]:
    """The rows of a printed table, each odds payout replaced by one not whole on every stake
    (meter shares and fixed sums kept)."""
    out = {}
    for k, p in rows.items():
        odd = p.kind in (PayoutKind.TO, PayoutKind.FOR)
        out[k] = parse_payout(data.draw(st.sampled_from(ODD), label=k)) if odd else p
    return out


def _setting(data: st.DataObject, game_id: str, strategy_name: str) -> Setting:
    game, limit = _limited(data, load_game(game_id))
    d = game.definition
    cfg = TableConfig.defaults(game)
    cfg.payout_limit = limit
    cfg.positions = data.draw(st.integers(1, d.table.max_positions), label="positions")
    cfg.min_wager = Decimal(data.draw(st.integers(1, 100_000), label="min_wager cents")) / 100
    cfg.offered = {
        w for w, x in d.wagers.items() if x.optional and data.draw(st.booleans(), label=w)
    }
    cfg.optional_payouts = {
        t for _, t, tb in d.tables() if tb.optional_payout and data.draw(st.booleans(), label=t)
    }
    for _, tid, table in d.tables():
        if table.selectable and table.letters:
            cfg.paytables[tid] = data.draw(st.sampled_from(table.letters), label=tid)
        if table.source == "missing":  # as the casino states it (`custom_paytables:`)
            cfg.custom_paytables[tid] = _own_table(data, game, tid, PAYOUTS)
        elif table.meters is None and table.by_wager_amount is None:
            rows = table.rows(cfg.letter(game, tid))
            if rows and data.draw(st.integers(0, 4), label=f"{tid} own") == 0:
                cfg.custom_paytables[tid] = _odd(data, rows)
    cfg.progressives = {}
    meters: dict[str, tuple[Decimal, Decimal]] = {}
    for wid, tid, table in d.tables():
        if table.meters is None or not (wid in cfg.offered or not d.wagers[wid].optional):
            continue
        amount = data.draw(st.sampled_from(PROGRESSIVE_AMOUNTS), label=f"{wid} amount")
        letter = cfg.letter(game, tid)
        stated = {  # a rate of progression the chapter leaves to the submission
            name: MeterConfig(
                Decimal(data.draw(st.integers(30_000, 60_000), label=f"{name} seed")),
                Decimal(30_000),
                Fraction(data.draw(st.integers(1, 40), label=f"{name} rate %"), 100),
            )
            for name in table.meters.for_paytable(letter)
        }
        cfg.progressives[tid] = Progressive(amount, resolve_meters(table, letter, amount, stated))
        for name, mc in cfg.progressives[tid].meters.items():
            extra = Decimal(data.draw(st.integers(0, 5_000_000), label=f"{name} cents")) / 100
            reserve = Decimal(data.draw(st.integers(0, 2_000_000), label="reserve cents")) / 100
            meters[f"{tid}/{name}"] = (mc.seed + extra, reserve)
    rules = Rules(game, cfg)
    strategy = (
        _drawn_strategy(data, rules) if strategy_name == DRAWN else rules.strategy(strategy_name)
    )
    n_seats = data.draw(st.integers(1, rules.max_seats()), label="seats")
    seats = [_seat_wagers(data, rules) for _ in range(n_seats)]
    n_rounds = data.draw(st.integers(1, 3), label="rounds")
    decks = [_deck(data) for _ in range(n_rounds)]
    draws = {
        "magic_card": [data.draw(st.integers(0, 51), label="magic card") for _ in decks],
        "lucky_bonus": [
            data.draw(st.integers(0, cfg.positions), label="lucky position") for _ in decks
        ],
    }
    return Setting(rules, strategy, seats, meters, decks, draws)


def _deck(data: st.DataObject) -> list[int]:
    """A shuffled deck; at times with the cards of a few suits or a few ranks on top, so that
    the rare hands (flushes, straight flushes, four of a kind), the progressive hits, the
    Envy Bonus and the Bad Beat come up between the seats and the dealer."""
    deck = data.draw(st.permutations(list(range(52))), label="deck")
    focus = data.draw(st.sampled_from(["none", "suits", "ranks", "high"]), label="focus")
    if focus == "suits":
        suits = data.draw(st.sets(st.integers(0, 3), min_size=1, max_size=2), label="suits")
        top = {c for c in deck if c % 4 in suits}
    elif focus == "ranks":
        ranks = data.draw(st.sets(st.integers(2, 14), min_size=2, max_size=5), label="ranks")
        top = {c for c in deck if c // 4 + 2 in ranks}
    elif focus == "high":
        top = {c for c in deck if c // 4 + 2 >= 10}
    else:
        top = set()
    return [c for c in deck if c in top] + [c for c in deck if c not in top]


def _drawn_strategy(data: st.DataObject, rules: Rules) -> Strategy:
    """A strategy of one choice per decision, whatever the hand: every option of every
    decision is taken in some example (an option not available falls to the next, as in a
    declared strategy), with a multiple of the wager it places, or the cards an exchange
    keeps."""
    decisions: dict[str, list[StrategyRow]] = {}
    for did, step in rules.decisions.items():
        option = data.draw(st.sampled_from(list(step.options)), label=did)
        opt = step.options[option]
        then: str | Choice = option
        if opt.wager is not None:
            then += " " + data.draw(st.sampled_from(["max", "1x", "2x", "3x"]), label="x")
        elif opt.draw == "exchange":
            paired = data.draw(st.booleans(), label="keep paired")
            highest = data.draw(st.integers(0, 4), label="keep highest")
            then = Choice(option=option, keep=Keep(paired=paired, highest=highest))
        decisions[did] = [StrategyRow(then=then)]
    return Strategy(name="drawn", source="hypothesis", decisions=decisions)


def _seat_wagers(data: st.DataObject, rules: Rules) -> dict[str, Decimal]:
    """One seat's wagers: the base wagers (any non-empty choice of those a chapter lets the
    player choose among, § 641a.7(d)(1)-(3)), each optional wager offered placed or not, each
    at its amount, none without the wagers it must follow."""
    d = rules.d
    cfg = rules.config
    meter_tables = rules.meter_tables()
    base = [
        w for w, x in d.wagers.items() if not x.optional and x.amount is None and rules.offered(w)
    ]
    either = {w for x in d.wagers.values() for w in x.requires_any_wager if w in base}
    if len(either) > 1:  # "an Ante Wager or an Aces Up Wager, or both"
        chosen = set(data.draw(st.sets(st.sampled_from(sorted(either)), min_size=1)))
        placed = {w for w in base if w not in either} | chosen
    else:
        placed = set(base)
    out: dict[str, Decimal] = {}
    for spot in rules.spots:
        wid = rules.spot_wager(spot)
        wager = rules.wager(wid)
        if wager.placed_after_cards or not rules.offered(wid):
            continue
        if wager.amount is not None:
            if wager.amount.of in out:
                out[spot] = out[wager.amount.of] * (wager.amount.min or 1)
            continue
        if wid not in placed and not (wager.optional and data.draw(st.booleans(), label=spot)):
            continue
        out[spot] = cfg.wager_amount(meter_tables[wid]) if wid in meter_tables else cfg.min_wager
    while (missing := rules.missing_prerequisite({rules.spot_wager(s) for s in out})) is not None:
        out = {s: v for s, v in out.items() if rules.spot_wager(s) != missing[0]}
    return out


# -- settling in both engines ------------------------------------------------------------------


class Refused(Exception):
    """The scalar engine refused round ``index`` (the rounds before it settled)."""

    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(str(error))
        self.index = index
        self.error = error


def _scalar(s: Setting) -> tuple[list[Any], Engine]:
    rules = s.rules
    start: dict[str, dict[str, Decimal]] = {}
    for key, (amount, _) in s.meters.items():
        table, name = key.split("/")
        start.setdefault(table, {})[name] = amount
    bank = rules.new_meters(start)
    for key, (_, reserve) in s.meters.items():
        bank.meters[key].reserve = reserve
    engine = Engine(rules, s.strategy, bank)
    results = []
    for r, deck in enumerate(s.decks):

        def system(draw_id: str, kind: str, r: int = r) -> tuple[str, int]:
            return ("card" if kind == "card" else "position", s.draws[draw_id][r])

        table = [Seat(k, dict(w), None) for k, w in enumerate(s.seats, start=1)]
        try:
            results.append(engine.run(table, DeckSource(deck), system))
        except (RoundError, MissingTable) as e:
            raise Refused(r, e) from e
    return results, engine


def _batch(s: Setting) -> tuple[Any, BatchEngine]:
    """The same rounds in one chunk of the batch engine."""
    rules = s.rules
    N, S = len(s.decks), len(s.seats)
    engine = BatchEngine(rules, s.strategy, S, {})
    for key, m in engine.meters.items():
        amount, reserve = s.meters[key]
        m.amount = m.start = m.low = m.high = to_micro(amount)
        m.reserve = m.start_reserve = to_micro(reserve)
    stakes: dict[str, Any] = {  # every spot the table offers before the cards; 0: not wagered
        spot: np.zeros((N, S), np.int64)
        for spot in rules.spots
        if rules.offered(rules.spot_wager(spot))
        and not rules.wager(rules.spot_wager(spot)).placed_after_cards
    }
    for i, wagers in enumerate(s.seats):
        for spot, amount in wagers.items():
            stakes.setdefault(spot, np.zeros((N, S), np.int64))[:, i] = to_micro(amount)
    draws = {k: np.array(v, dtype=np.int64) for k, v in s.draws.items()}
    return engine.run(np.array(s.decks), draws, stakes), engine


def _sections(message: str) -> list[str]:
    return re.findall(r"§ [0-9a-z.]+", message)


def _require_the_same(s: Setting) -> None:
    try:
        scalar, se = _scalar(s)
    except Refused as refused:  # a round the rules forbid: the batch engine refuses it too
        upto = dataclasses.replace(s, decks=s.decks[: refused.index + 1])
        with pytest.raises((RoundError, MissingTable)) as err:
            _batch(upto)
        assert _sections(str(err.value)) == _sections(str(refused)), (
            f"batch: {err.value}\nscalar: {refused}"
        )
        event("refused alike", " ".join(_sections(str(refused))))
        return
    res, be = _batch(s)
    for r, out in enumerate(scalar):
        for seat in out.seats:
            i = seat.seat - 1
            for spot, w in seat.wagers.items():
                got = from_micro(int(res.returned[spot][r, i]) - int(res.stakes[spot][r, i]))
                assert got == w.net, (
                    f"round {r + 1} seat {seat.seat} {spot}: batch {got}, scalar {w.net}\n"
                    f"{w.reason}"
                )
            for spot in set(res.stakes) - set(seat.wagers):
                assert res.stakes[spot][r, i] == 0 and res.returned[spot][r, i] == 0, spot
            assert from_micro(int(res.fees[r, i])) == seat.fees, f"round {r + 1} seat {i + 1}"
        assert from_micro(int(res.house[r])) == out.ledger.house, f"round {r + 1}: the house"
        assert out.ledger.balanced()
    assert res.balanced().all()
    for key, m in se.meters.meters.items():
        b = be.meters[key]
        got = tuple(from_micro(x) for x in (b.amount, b.reserve, b.paid, b.funded))
        assert got == (m.amount, m.reserve, m.paid, m.funded), key


# -- the property, game by game -----------------------------------------------------------------


@pytest.mark.slow  # a property over every table
@pytest.mark.parametrize(("game_id", "strategy"), CASES)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_scalar_and_batch_engines_settle_every_table_alike(
    game_id: str, strategy: str, data: st.DataObject
) -> None:
    _require_the_same(_setting(data, game_id, strategy))


def test_every_banking_game_is_held_to_the_property() -> None:
    """The property runs over every banking game file, the four chapters' among them."""
    assert {"four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush"} <= set(
        BANKING
    )
    for game_id in BANKING:
        strategies = load_game(game_id).definition.strategies
        assert strategies is not None and strategies.by_name, game_id


# -- the disagreements the property found, kept as regression cases ------------------------------


def _lunar_setting(keep: Keep, cards: str) -> Setting:
    """One Lunar Poker seat dealt ``cards`` (the dealer's between them, one at a time), whose
    strategy exchanges keeping ``keep`` and then folds."""
    from validator.cards import parse_cards

    game = load_game("lunar-poker")
    rules = Rules(game, TableConfig.defaults(game))
    strategy = Strategy(
        name="exchange",
        source="a regression case",
        decisions={
            "first": [StrategyRow(then=Choice(option="exchange", keep=keep))],
            "after_draw": [StrategyRow(then="fold")],
            "force": [StrategyRow(then="none")],
        },
    )
    mine = parse_cards(cards)
    rest = [c for c in range(52) if c not in mine]
    deck = [c for k in range(5) for c in (mine[k], rest[k])] + rest[5:]
    seat = {"ante": Decimal(10)}
    return Setting(rules, strategy, [seat], {}, [deck], {"magic_card": [0], "lucky_bonus": [0]})


def _refused_by_both(s: Setting) -> tuple[str, str]:
    with pytest.raises(Refused) as scalar:
        _scalar(s)
    with pytest.raises(RoundError) as batch:
        _batch(s)
    return str(scalar.value), str(batch.value)


def test_an_exchange_of_one_card_is_refused_by_both_engines() -> None:
    """§ 589.11(d)(2)(i)(B): "the player shall discard between two and five cards". A
    strategy keeping the four highest cards exchanges one: the scalar engine refused it, the
    batch engine simulated it; both refuse it now, citing the section."""
    scalar, batch = _refused_by_both(_lunar_setting(Keep(highest=4), "KS 9H 7D 4C 2D"))
    assert "not 1" in scalar and "not 1" in batch
    assert "(d)(2)(i)(B)" in scalar and _sections(scalar) == _sections(batch)


def test_an_exchange_of_no_card_is_refused_by_both_engines() -> None:
    """§ 589.11(d)(2)(i)(B): an exchange discards two to five cards. Keeping the paired cards
    of a full house discards none: the scalar engine added two cards to the hand (seven held),
    the batch engine exchanged none; both refuse it now."""
    scalar, batch = _refused_by_both(_lunar_setting(Keep(paired=True), "KS KH KD 4C 4D"))
    assert "not 0" in scalar and "not 0" in batch and _sections(scalar) == _sections(batch)


def test_a_multiple_the_rules_forbid_is_refused_by_both_engines_citing_the_rule() -> None:
    """§ 678a.11(b)(1): a Raise of one times the Ante on a three-card flush; a strategy that
    raises the most there places 1x, and one raising 3x is refused by both engines, with the
    rule (the batch engine raised a bare ValueError)."""
    game = load_game("high-card-flush")
    rules = Rules(game, TableConfig.defaults(game))
    strategy = Strategy(
        name="three",
        source="a regression case",
        decisions={"raise": [StrategyRow(then="raise 3x")]},
    )
    deck = list(range(52))
    s = Setting(rules, strategy, [{"ante": Decimal(5)}], {}, [deck], {})
    try:
        _scalar(s)
    except Refused as refused:
        with pytest.raises(RoundError) as batch:
            _batch(s)
        assert _sections(str(refused)) == _sections(str(batch.value))
        assert "§ 678a.11" in str(refused)
    else:  # the hand dealt allows 3x: the same money
        _require_the_same(s)


def test_the_six_card_bonus_card_is_dealt_only_when_the_wager_is_placed() -> None:
    """§ 641a.8(d): the Six Card Bonus card is dealt when a player placed the wager. A table
    offering it where no seat wagered it: the batch engine dealt the card anyway (a stake of
    0 counted as a wager), so every seat's cards were one off the scalar engine's."""
    game = load_game("four-card-poker")
    cfg = TableConfig.defaults(game)
    cfg.progressives, cfg.offered = {}, {"six_card_bonus"}
    rules = Rules(game, cfg)
    seats = [{"ante": Decimal(10), "aces_up": Decimal(10)} for _ in range(3)]
    decks = [list(range(52)), list(range(51, -1, -1))]
    s = Setting(rules, rules.strategy(None), seats, {}, decks, {})
    _require_the_same(s)
    res, _ = _batch(s)
    assert "six_card_bonus" in res.stakes and not res.stakes["six_card_bonus"].any()
