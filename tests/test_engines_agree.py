"""The scalar and the batch engines settle every round of every banking game identically:
random decks, random table-game-system draws, every optional wager placed, the meters at
random levels, and an aggregate payout limit, low enough to bind, with the game file's
exclusions and with none (§ 677a.12(f), § 678a.12(e)). One rule decides which payouts count
toward the limit (``Rules.under_payout_limit``): every payout does, a share of a meter
included, except those of the wagers ``payout_limit.excludes`` names.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.compiler import Game, load_game
from validator.interpreter.batch import BatchEngine
from validator.interpreter.batch_money import from_micro, to_micro
from validator.interpreter.config import MeterConfig, Progressive, TableConfig
from validator.interpreter.dealing import DeckSource
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.model.notation import parse_payout
from validator.model.procedure import StrategyRow

BANKING = ["four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush"]
LIMITS = [None, Decimal(40), Decimal(150), Decimal(900), Decimal(50000)]


def _game(game_id: str, exclusions: bool) -> Game:
    g = load_game(game_id)
    pl = g.definition.payout_limit
    if pl is None or exclusions:
        return g
    d = g.definition.model_copy(update={"payout_limit": pl.model_copy(update={"excludes": []})})
    return dataclasses.replace(g, definition=d)


def _config(g: Game, limit: Decimal | None) -> TableConfig:
    cfg = TableConfig.defaults(g)
    cfg.payout_limit = limit
    if g.id == "four-card-poker":
        cfg.optional_payouts.add("magic_card_lucky_bonus")
    if g.id == "high-card-flush":  # the rate the chapter leaves to the submission
        cfg.offered.add("progressive_jackpot")
        cfg.progressives["progressive_jackpot"] = Progressive(
            Decimal(5), {"primary": MeterConfig(Decimal(30000), Decimal(30000), Fraction(1, 5))}
        )
    if g.id == "wpt-heads-up-holdem":  # the tables missing from the text, as a casino states
        cfg.offered.add("pocket_bonus")
        rows = {"royal_flush": "1000 to 1", "straight_flush": "100 to 1"}
        rows |= {"four_of_a_kind": "20 to 1", "full_house": "3 to 1", "flush": "2 to 1"}
        rows |= {"straight": "1 to 1"}
        cfg.custom_paytables["bad_beat"] = {k: parse_payout(v) for k, v in rows.items()}
        cfg.custom_paytables["pocket_bonus"] = {
            "pair_of_aces": parse_payout("30 to 1"),
            "pair": parse_payout("3 to 1"),
            "ace_king_queen_or_jack": parse_payout("1 to 1"),
        }
    return cfg


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    game_id=st.sampled_from(BANKING),
    exclusions=st.booleans(),
    limit=st.sampled_from(LIMITS),
    seats=st.integers(1, 7),
    deck=st.permutations(list(range(52))),
    magic=st.integers(0, 51),
    lucky=st.integers(0, 7),
    meter_cents=st.integers(0, 5_000_000),
)
def test_scalar_and_batch_engines_settle_alike(
    game_id: str,
    exclusions: bool,
    limit: Decimal | None,
    seats: int,
    deck: list[int],
    magic: int,
    lucky: int,
    meter_cents: int,
) -> None:
    g = _game(game_id, exclusions)
    rules = Rules(g, _config(g, limit))
    seats = min(seats, rules.max_seats())
    strategy = rules.strategy(None)
    wagers = default_wagers(rules)
    start = {
        tid: {n: mc.seed + Decimal(meter_cents) / 100 for n, mc in p.meters.items()}
        for tid, p in rules.config.progressives.items()
    }
    batch = BatchEngine(rules, strategy, seats, wagers)
    for key, m in batch.meters.items():
        table, name = key.split("/")
        m.amount = m.start = m.low = m.high = to_micro(start[table][name])
    draws = {"magic_card": np.array([magic]), "lucky_bonus": np.array([min(lucky, seats)])}
    res = batch.run(np.array([deck]), draws)

    def system(draw_id: str, kind: str) -> tuple[str, int]:
        return ("card" if kind == "card" else "position", int(draws[draw_id][0]))

    scalar = Engine(rules, strategy, rules.new_meters(start))
    out = scalar.run(
        [Seat(k, dict(wagers), None) for k in range(1, seats + 1)], DeckSource(deck), system
    )
    for seat in out.seats:
        for spot, w in seat.wagers.items():
            got = from_micro(
                int(res.returned[spot][0, seat.seat - 1]) - int(res.stakes[spot][0, seat.seat - 1])
            )
            assert got == w.net, f"seat {seat.seat} {spot}: batch {got}, scalar {w.net}\n{w.reason}"
        if limit is not None and rules.d.payout_limit is not None:
            won = Decimal(0)
            for w in seat.wagers.values():
                for ln in w.lines:
                    if rules.under_payout_limit(ln.spot):
                        stake = Decimal(0) if rules.lines[ln.line].bonus else w.amount
                        won += max(ln.returned - stake, Decimal(0))
            assert won <= limit, f"seat {seat.seat} won {won} under a {limit} limit"
    assert from_micro(int(res.house[0])) == out.ledger.house
    for key, m in scalar.meters.meters.items():
        assert from_micro(batch.meters[key].amount) == m.amount, key
    assert res.balanced().all() and out.ledger.balanced()


def test_a_meter_payout_counts_toward_a_limit_that_does_not_exclude_it() -> None:
    """§ 678a.12(e) excludes the Progressive Jackpot Wager from the limit; a limit whose
    exclusions did not name it would limit its meter payouts like any other payout, in
    both engines alike. Seat 1 is dealt a six-card straight flush (10% of the meter)."""
    sf = [0, 4, 8, 12, 16, 20]  # 2S 3S 4S 5S 6S 7S (card = 4 × (rank - 2) + suit)
    rest = [c for c in range(52) if c not in sf]
    deck = rest[:]
    for k, c in enumerate(sf):  # one card at a time: seat 1 at 0, 2, 4, …; the dealer between
        deck.insert(2 * k, c)
    nets = {}
    for exclusions in (True, False):
        g = _game("high-card-flush", exclusions)
        rules = Rules(g, _config(g, Decimal(500)))
        assert rules.under_payout_limit("progressive_jackpot") is not exclusions
        wagers = default_wagers(rules)
        strategy = rules.strategy(None)
        batch = BatchEngine(rules, strategy, 1, wagers)
        res = batch.run(np.array([deck]), {})
        out = Engine(rules, strategy).run([Seat(1, dict(wagers), None)], DeckSource(deck), {})
        w = out.seats[0].wagers["progressive_jackpot"]
        got = from_micro(int(res.returned["progressive_jackpot"][0, 0]) - to_micro(w.amount))
        assert got == w.net
        nets[exclusions] = w.net
    # 10% of the meter ($30,000 and this round's increment, 20% of $5) less the $5 wager;
    # under the limit, the payouts of the round come to $500 at most
    assert nets[True] == (Decimal(30000) + Decimal(1)) / 10 - 5 == Decimal("2995.10")
    assert nets[False] <= Decimal(500)


def test_a_folded_hand_kept_for_its_aces_up_qualifies_the_others_for_an_envy_bonus() -> None:
    """§ 641a.11(b)(1): a player who does not make a Play Wager "may not forfeit the Aces Up or
    Six Card Bonus Wager", so his cards stay and are turned up with every player's
    (§ 641a.11(c)(1)); his four-of-a-kind makes him "the holder of a Four-Card Envy Bonus
    Qualifying Hand" for the others (§ 641a.11(c)(5)(v)(A)). Folded with neither wager, his
    cards are collected with his forfeited wagers (§ 641a.11(c)) and qualify no one. Every
    player folds here (a player who folds keeps the Envy eligibility, § 641a.11(b)(2)); both
    engines settle it alike."""
    g = load_game("four-card-poker")
    rules = Rules(g, TableConfig.defaults(g))
    folds = rules.strategy(None).model_copy(
        update={"decisions": {"play": [StrategyRow(then="fold")]}}
    )
    wagers = default_wagers(rules)
    queens = [40, 41, 42, 43]  # QS QH QD QC (card = 4 × (rank - 2) + suit)
    envy = {}
    for kept in (True, False):
        placed = {s: v for s, v in wagers.items() if kept or s not in ("aces_up", "six_card_bonus")}
        identity = Engine(rules, folds).run(
            [Seat(k, dict(placed), None) for k in (1, 2, 3)], DeckSource(list(range(52))), {}
        )
        deck = list(range(52))
        for at, q in zip(identity.seats[1].cards[:4], queens, strict=True):  # seat 2's places
            i = deck.index(q)
            deck[at], deck[i] = deck[i], deck[at]
        batch = BatchEngine(rules, folds, 3, placed)
        res = batch.run(
            np.array([deck]), {"magic_card": np.array([0]), "lucky_bonus": np.array([0])}
        )
        out = Engine(rules, folds).run(
            [Seat(k, dict(placed), None) for k in (1, 2, 3)],
            DeckSource(deck),
            lambda d, k: ("card", 0),
        )
        assert sorted(out.seats[1].cards[:4]) == queens
        for seat in out.seats:
            w = seat.wagers["four_card_progressive"]
            got = from_micro(
                int(res.returned["four_card_progressive"][0, seat.seat - 1])
                - int(res.stakes["four_card_progressive"][0, seat.seat - 1])
            )
            assert got == w.net, f"seat {seat.seat}: batch {got}, scalar {w.net}\n{w.reason}"
        envy[kept] = out.seats[0].wagers["four_card_progressive"].net
    assert envy[False] == -1  # the wager forfeited, no Envy Bonus
    assert envy[True] > 0  # seat 2's four queens, folded with its Aces Up Wager standing
