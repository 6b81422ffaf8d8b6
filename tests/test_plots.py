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
