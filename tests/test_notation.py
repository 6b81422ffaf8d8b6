"""The payout notation of the chapters, parsed exactly: Fraction odds, Decimal money, no float."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from validator.model.notation import (
    NotationError,
    Payout,
    PayoutKind,
    format_money,
    format_rate,
    parse_money,
    parse_payout,
    parse_per_unit,
    parse_rate,
)


@pytest.mark.parametrize(
    ("text", "kind", "ratio", "net"),
    [
        ("25 to 1", PayoutKind.TO, Fraction(25), Fraction(25)),
        ("3 to 2", PayoutKind.TO, Fraction(3, 2), Fraction(3, 2)),  # § 677a.12(b) flush
        ("1 to 1", PayoutKind.TO, Fraction(1), Fraction(1)),
        ("25,000 to 1", PayoutKind.TO, Fraction(25_000), Fraction(25_000)),  # § 641a.12(f)
        ("8000 to 1", PayoutKind.TO, Fraction(8_000), Fraction(8_000)),  # § 678a.12(c) A
        ("200,000 to 1", PayoutKind.TO, Fraction(200_000), Fraction(200_000)),
        ("300 for 1", PayoutKind.FOR, Fraction(300), Fraction(299)),  # stake included
        ("9 for 1", PayoutKind.FOR, Fraction(9), Fraction(8)),
        ("push", PayoutKind.PUSH, Fraction(0), Fraction(0)),
        ("Push", PayoutKind.PUSH, Fraction(0), Fraction(0)),  # § 677a.12(b) prints "Push"
    ],
)
def test_odds(text: str, kind: PayoutKind, ratio: Fraction, net: Fraction) -> None:
    p = parse_payout(text)
    assert p.kind is kind
    assert p.is_win is (kind is not PayoutKind.PUSH)
    assert p.pays
    if kind is not PayoutKind.PUSH:
        assert p.ratio == ratio and type(p.ratio) is Fraction
    assert p.net_units() == net and type(p.net_units()) is Fraction


@pytest.mark.parametrize(
    ("text", "share", "meter"),
    [
        ("100% of meter", Fraction(1), "primary"),
        ("10% of meter", Fraction(1, 10), "primary"),
        ("100% of mega jackpot", Fraction(1), "mega"),
        ("100% mega jackpot", Fraction(1), "mega"),  # § 641a.12(e)(1) prints it so
        ("100% major jackpot", Fraction(1), "major"),
        ("100% minor jackpot", Fraction(1), "minor"),
        ("12.5% of meter", Fraction(1, 8), "primary"),
    ],
)
def test_meter_shares(text: str, share: Fraction, meter: str) -> None:
    p = parse_payout(text)
    assert (p.kind, p.share, p.meter) == (PayoutKind.METER, share, meter)
    assert type(p.share) is Fraction
    # a share of a $10,000-per-unit meter, the stake taken when the wager was placed
    assert p.net_units(Fraction(10_000)) == share * 10_000 - 1
    assert p.net(Decimal(5), Decimal("50000.00")) == Decimal(50_000) * share.numerator / (
        share.denominator
    ) - Decimal(5)


def test_meter_share_needs_the_meter() -> None:
    with pytest.raises(NotationError, match="needs the meter"):
        parse_payout("100% of meter").net_units()
    with pytest.raises(NotationError, match="needs the meter"):
        parse_payout("100% of meter").net(Decimal(1))


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("$100", Decimal(100)),
        ("$1,000", Decimal(1_000)),
        ("$1,500", Decimal(1_500)),
        ("$10.50", Decimal("10.50")),
    ],
)
def test_fixed_sums(text: str, amount: Decimal) -> None:
    """Envy Bonus amounts (§ 641a.12(d)(5), (e)(5)): paid as a sum, on no stake of its own."""
    p = parse_payout(text)
    assert (p.kind, p.amount) == (PayoutKind.FIXED, amount)
    assert type(p.amount) is Decimal
    assert p.net(Decimal(1)) == amount
    with pytest.raises(NotationError, match="fixed sum"):
        p.net_units()


def test_not_offered() -> None:
    p = parse_payout("N/A")
    assert p.kind is PayoutKind.NA and not p.pays and not p.is_win
    assert p.net(Decimal(5)) == Decimal(-5)


def test_net_money_is_exact_decimal() -> None:
    """$5 at 3 to 2 nets $7.50; $7 at 300 for 1 nets $2,093; no rounding, no float."""
    assert parse_payout("3 to 2").net(Decimal(5)) == Decimal("7.5")
    assert parse_payout("300 for 1").net(Decimal(7)) == Decimal(2_093)
    assert parse_payout("push").net(Decimal(7)) == 0
    for text in ("3 to 2", "300 for 1", "25 to 1", "$100", "N/A", "push"):
        assert type(parse_payout(text).net(Decimal(3))) is Decimal


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("25 to one", "expected '25 to 1'"),
        ("25to1", "expected '25 to 1'"),
        ("25 : 1", "expected '25 to 1'"),
        ("-1 to 1", "expected '25 to 1'"),
        ("1,00 to 1", "expected '25 to 1'"),
        ("25 to 0", "second figure cannot be 0"),
        ("0 to 1", "write 'push' or 'N/A'"),
        ("1 for 2", "returns less than the stake"),
        ("1 for 1", "returns only the stake; write 'push'"),  # a win in name only
        ("5 for 5", "returns only the stake; write 'push'"),
        ("150% of meter", "between 0% and 100%"),
        ("0% of meter", "between 0% and 100%"),
        ("$", "expected '25 to 1'"),
        ("", "expected '25 to 1'"),
        (25, "payout '25'"),
        (2.5, "expected text like"),
        (True, "expected text like"),
        (None, "expected text like"),
    ],
)
def test_refusals_say_what_was_expected(value: object, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_payout(value)


def test_str_is_the_printed_notation() -> None:
    for text in ("25 to 1", "1,000 to 1", "300 for 1", "100% of meter", "$1,000", "N/A", "push"):
        assert str(parse_payout(text)) == text
    assert parse_payout(parse_payout("3 to 2")) == parse_payout("3 to 2")  # idempotent


# -- money, rates, per-unit amounts -------------------------------------------------------------


def test_money() -> None:
    assert parse_money(5000) == Decimal(5_000)
    assert parse_money("$5,000") == Decimal(5_000)
    assert parse_money("$10.50") == Decimal("10.50")
    assert parse_money(Decimal("2.25")) == Decimal("2.25")
    for bad, message in [
        (10.5, "whole dollars"),
        (True, "money true: a yes or no, not an amount; write whole dollars"),
        (False, "money false: a yes or no"),
        (-1, "negative"),
        ("5k", "expected"),
    ]:
        with pytest.raises(NotationError, match=message):
            parse_money(bad)


def test_rates() -> None:
    """§ 641a.12(d)(3): primary 29%, reserve 5%; a bare number is refused as ambiguous."""
    assert parse_rate("29%") == Fraction(29, 100)
    assert parse_rate("4.52%") == Fraction(452, 10_000)
    assert type(parse_rate("5%")) is Fraction
    with pytest.raises(NotationError, match="percent sign"):
        parse_rate(29)
    with pytest.raises(NotationError, match="percent sign"):
        parse_rate(0.29)
    with pytest.raises(NotationError, match="percentage"):
        parse_rate("29 percent")


def test_per_unit_amounts() -> None:
    """Seed/reseed "$5,000 for 1" per unit wagered (§ 641a.12(d)(3)); "$0" (§ 641a.12(g)(4))."""
    assert parse_per_unit("$5,000 for 1") == Decimal(5_000)
    assert parse_per_unit("$250 for 1") == Decimal(250)
    assert parse_per_unit("$0") == Decimal(0)
    with pytest.raises(NotationError, match="per unit wagered"):
        parse_per_unit("5,000 per 1")
    with pytest.raises(NotationError, match="per unit wagered"):
        parse_per_unit(5000.0)


def test_formatting() -> None:
    assert format_money(Decimal(100_000)) == "$100,000"
    assert format_money(Decimal("10.5")) == "$10.50"
    assert format_rate(Fraction(29, 100)) == "29%"
    assert format_rate(Fraction(452, 10_000)) == "4.52%"


def test_no_float_in_any_game_definition(games) -> None:
    """Every value of every loaded game is exact: walk the models, find no float."""
    from pydantic import BaseModel

    seen = 0

    def walk(node: object, path: str) -> None:
        nonlocal seen
        assert not isinstance(node, float), path
        if isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name), f"{path}/{name}")
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}/{k}")
        elif isinstance(node, list | tuple):
            for i, v in enumerate(node):
                walk(v, f"{path}/{i}")
        elif isinstance(node, Payout):
            seen += 1
            assert type(node.ratio) is Fraction and type(node.share) is Fraction, path
            assert type(node.amount) is Decimal, path

    for g in games.values():
        walk(g.definition, g.id)
    assert seen > 200  # every cell of every table was visited
