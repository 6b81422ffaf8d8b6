"""The documents' plots: SVG from matplotlib, the same bytes for the same figures."""

from __future__ import annotations

import re

from validator.par.printed import bar_chart, line_chart


def test_a_plot_is_the_same_bytes_for_the_same_figures() -> None:
    args = {"title": "A round's result", "xlabel": "Net result", "ylabel": "Probability (%)"}
    first = bar_chart([("-1", 52.0), ("+1", 48.0)], method="exact", **args)
    again = bar_chart([("-1", 52.0), ("+1", 48.0)], method="exact", **args)
    assert first == again
    assert first.startswith("<svg") and "<dc:date>" not in first
    assert not re.search(r"\b20\d\d-\d\d-\d\d", first)  # no date in its metadata


def test_a_plot_has_titled_axes_gridlines_its_mark_and_method() -> None:
    svg = line_chart(
        [(1000.0, 49.0), (50000.0, 120.0)],
        title="Return versus the meter",
        xlabel="Meter amount ($)",
        ylabel="Return to the player (%)",
        method="exact",
        mark_y=("100% (break-even)", 100.0),
        mark_x=("meter $1,000", 1000.0),
    )
    for words in (
        "Return versus the meter",
        "Meter amount ($)",
        "Return to the player (%)",
        "100% (break-even)",
        "meter $1,000",
        "Method: exact",
    ):
        assert words in svg, words
    assert "stroke: #cccccc" in svg  # the gridlines, in their grey


def test_money_in_a_plot_is_money_never_mathtext_and_its_axis_in_dollars() -> None:
    """A "$" in a label is a dollar sign, not the start of mathtext (which printed "Meter
    amount (, ona5.00 wager)"); a meter axis ticks in dollars, with no "1e6" offset; the
    marks are named in a key beside the plot, not written over the curve."""
    svg = line_chart(
        [(30000.0, 50.0), (1500000.0, 110.0)],
        title="Return versus the meter",
        xlabel="Meter amount ($ on a $5 wager)",  # two "$": a pair mathtext would read
        ylabel="Return to the player (%)",
        method="exact",
        mark_y=("100% (break-even)", 100.0),
        mark_x=("meter $30,000", 30000.0),
        x_money=True,
    )
    assert ">Meter amount ($ on a $5 wager)<" in svg  # one text, as written (not a comment)
    assert "1e6" not in svg and re.search(r">\$\d{3},000<", svg)  # a tick such as $800,000
    legend = svg[svg.index('-legend_1"') :]
    assert "meter $30,000" in legend and "100% (break-even)" in legend


def test_bars_not_to_scale_say_so_and_their_labels_stand_upright() -> None:
    """Results one step apart are an axis to scale; WPT's (+2.5, +8, +13, +52) stand side by
    side, so the axis says it is not to scale, and many labels stand upright, never run
    together."""
    args = {"title": "A round's result", "xlabel": "Net result", "ylabel": "Probability (%)"}
    even = bar_chart([("-1", 52.0), ("+0", 1.0), ("+1", 47.0)], method="exact", **args)
    assert "not to scale" not in even and even.count("rotate(-90") == 1  # the y title only
    labels = ["-5", "-4", "-3", "-2", "+0", "+1", "+2", "+2.5", "+3", "+3.5", "+4", "+8", "+13"]
    many = bar_chart([(x, 1.0) for x in [*labels, "+52", "+53"]], method="simulated", **args)
    assert "Net result; one bar per result, evenly spaced, not to scale" in many
    assert many.count("rotate(-90") >= len(labels)
