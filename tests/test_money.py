"""Money in one place (``validator.money``): one rounding rule per use, pinned by examples.

Payouts round down to the cent (the chapters state odds and no rounding; the table pays in
cents); displayed figures round half up (away from zero); every printer shows money as
``-$2,370,150.00``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from validator.money import display_cents, format_money, payout_cents, plain_money


@pytest.mark.parametrize(
    ("amount", "cents"),
    [
        (Decimal("0.019"), 1),
        (Decimal("0.01"), 1),
        (Decimal("0.009"), 0),
        (Fraction(35, 2), 1750),  # 7 to 2 on $5: $17.50 exactly
        (Fraction(50, 3), 1666),  # 5 to 3 on $10: $16.666… pays $16.66
        (Decimal("12.345"), 1234),
    ],
)
def test_payouts_round_down_to_the_cent(amount: Decimal | Fraction, cents: int) -> None:
    assert payout_cents(amount) == cents


@pytest.mark.parametrize(
    ("amount", "cents"),
    [
        (Decimal("0.005"), 1),  # half up: a half cent shows as a cent, never $0.00
        (Decimal("0.0049"), 0),
        (Decimal("0.015"), 2),  # half up, not half to even (which would give 2 here too)
        (Decimal("0.025"), 3),  # half to even would give 2
        (Decimal("-0.005"), -1),  # away from zero
        (Fraction(50, 3), 1667),
        ("-2370150", -237015000),
    ],
)
def test_displayed_figures_round_half_up(amount: Decimal | Fraction | str, cents: int) -> None:
    assert display_cents(amount) == cents


@pytest.mark.parametrize(
    ("amount", "kw", "printed"),
    [
        (Decimal(-2370150), {"cents": True}, "-$2,370,150.00"),
        ("-2370150", {"cents": True}, "-$2,370,150.00"),
        (Decimal(100000), {}, "$100,000"),
        (Decimal(-238470), {}, "-$238,470"),
        (Decimal("10.5"), {}, "$10.50"),
        (Decimal("0.005"), {}, "$0.01"),
        (Decimal("1234567.891"), {}, "$1,234,567.89"),
        (Decimal("0.495"), {"cents": False}, "$0"),  # to the dollar from the exact figure
        (Decimal("1499.5"), {"cents": False}, "$1,500"),
        (Decimal(0), {"cents": True}, "$0.00"),
    ],
)
def test_money_is_printed_one_way(amount: object, kw: dict[str, bool], printed: str) -> None:
    assert format_money(amount, **kw) == printed  # type: ignore[arg-type]


def test_plain_money_for_json_is_half_up() -> None:
    assert plain_money(Fraction(1, 200)) == "0.01"
    assert plain_money(Fraction(-25, 2)) == "-12.50"
    assert plain_money(Decimal("0.025")) == "0.03"


def test_the_progressive_sheet_rounds_a_half_cent_up() -> None:
    """Its docstring said half up and it rounded half to even: $0.005 printed 0.00."""
    from validator.par.progressive import money

    assert money(Fraction(1, 200)) == "0.01"
    assert money(Fraction(5, 200)) == "0.03"


def test_the_notation_and_poker_printers_delegate() -> None:
    from validator.model.notation import format_money as notation_money
    from validator.money import dollar_text

    assert notation_money(Decimal("-0.005")) == "-$0.01"
    assert dollar_text(-237015000) == "-$2,370,150"
    assert dollar_text(1000150) == "$10,001.50"


def test_simulate_prints_money_with_the_sign_first() -> None:
    """`simulate` printed `$-2370150`: the players' net is a loss, printed `-$…` with commas."""
    from typer.testing import CliRunner

    from validator.cli import app

    result = CliRunner().invoke(
        app, ["simulate", "four-card-poker", "--rounds", "2000", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "$-" not in result.output
    assert "-$" in result.output


def test_displayed_figures_to_more_places_round_half_up() -> None:
    """A mean rake per hand is shown to the hundredth of a cent, half up like every displayed
    figure (the Poker summary rounded half to even)."""
    from validator.money import displayed

    assert displayed(Fraction(5, 20000), 4) == "0.0003"  # 0.00025: half to even gave 0.0002
    assert displayed(Fraction(-5, 20000), 4) == "-0.0003"
    assert displayed(Decimal("2.125")) == "2.13"
    assert displayed(Decimal("7"), 0) == "7"


@pytest.mark.parametrize(
    "amount", ["0", "10", "-7.5", "-12.25", "1234567.8", "10000.4166", "-0.005", "1234567.891"]
)
def test_an_exact_amount_is_printed_in_the_one_notation_nothing_rounded(amount: str) -> None:
    """``exact_money`` is ``format_money`` wherever the amount is whole cents, and otherwise
    writes every digit: read back (the sign, ``$`` and commas taken out), it is the amount,
    as ``exact_figure`` is."""
    from validator.money import exact_figure, exact_money

    d = Decimal(amount)
    text = exact_money(d)
    if d == d.quantize(Decimal("0.01")):
        assert text == format_money(d)
    assert Decimal(text.replace("$", "").replace(",", "")) == d == Decimal(exact_figure(d))
