"""What a printed document needs (the par sheet, the review pack): the foot of every page
(and a DRAFT's mark at the head of every page), and the plots, matplotlib figures as SVG
inside the HTML, so a printed PDF stays vector. Every plot has titled axes with their units,
gridlines, the exact figure marked and its method stated; the same figures give the same
bytes (no date, a fixed hash salt)."""

from __future__ import annotations

import hashlib
import io
import re
from fractions import Fraction
from html import escape
from itertools import pairwise
from typing import Any

from validator.counts import plural
from validator.money import displayed

#: The foot of every printed page (a CSS page-margin box; Chromium prints them). ``{more}``:
#: a second line of the foot, or nothing (``"\\A"`` breaks the line, kept by ``pre-line``).
PAGE_FOOT = """
@page {{ @bottom-center {{ content: "{text} · Page " counter(page) " of " counter(pages){more};
  white-space: pre-line; font-size: 7pt; color: #333; font-family: "DejaVu Sans", sans-serif; }} }}
"""


#: A DRAFT's mark at the head of every printed page, in the banner's red.
PAGE_HEAD = """
@page {{ @top-center {{ content: "{text}"; font-size: 9pt; font-weight: bold; color: #a00;
  font-family: "DejaVu Sans", sans-serif; }} }}
"""


#: The Board's stated hold against the exact one: the verdicts every document gives.
INSIDE, OUTSIDE, MOVES = "inside", "outside", "moves with the meter"


def range_verdict(inside: bool | None, meters: bool) -> str | None:
    """The one verdict on a table's exact hold against the Board's stated hold (``inside``:
    the odds engine's ``OddsResult.inside_approved``; ``meters``: the table pays from a
    progressive meter). A progressive's hold moves with its meter, and the range states no
    meter: outside it at the meter priced is no finding, so it is never "outside". None
    where no range is stated."""
    if inside is None:
        return None
    if inside:
        return INSIDE
    return MOVES if meters else OUTSIDE


def one_in(probability: Fraction | str) -> str:
    """A probability as a person reads it, the one way every document prints one: "one in"
    the rounds (or hands) it takes on average, ``1/p``: ``Fraction(1, 54145)`` →
    ``one in 54,145``, ``Fraction(2, 5)`` → ``one in 2.5``; a probability of 0 is ``0
    (never)``. ``probability``: the exact figure, or its exact string as the JSON holds it
    (``"1/54145"``), never a float: nothing is printed in scientific notation.

    Rounding: ``1/p`` rounded half up (``validator.money.displayed``: away from zero) to a
    whole number from 100 on, to one decimal place from 10, to two below 10, trailing zeros
    dropped (``one in 4,165``, never ``4,165.0``); so the printed figure is within 0.5% of
    ``1/p`` at any size."""
    p = Fraction(probability)
    if p <= 0:
        return "0 (never)"
    n = 1 / p
    shown = displayed(n, 0 if n >= 100 else 1 if n >= 10 else 2)
    if "." in shown:
        shown = shown.rstrip("0").removesuffix(".")
    whole, dot, part = shown.partition(".")
    return f"one in {int(whole):,}{dot}{part}"


def draft_mark(errors: int) -> str:
    """What every page of a document made from a Rules Submission with ``errors`` says."""
    return (
        f"DRAFT: made under a Rules Submission with {plural(errors, 'error')}; not for use until "
        "each is fixed or waived"
    )


def page_foot(text: str, draft: str | None = None, *, second: str | None = None) -> str:
    """The CSS that prints ``text`` and "Page N of M" at the foot of every page; ``draft``
    (:func:`draft_mark`): printed at the head of every page too, and the foot starts
    "DRAFT"; ``second``: a second line of the foot, under the first (what would make one
    line too long for the page at a legible size)."""
    more = "" if second is None else f' "\\A {css_string(second)}"'
    if draft is None:
        return PAGE_FOOT.format(text=css_string(text), more=more)
    return PAGE_FOOT.format(text=css_string(f"DRAFT · {text}"), more=more) + PAGE_HEAD.format(
        text=css_string(draft)
    )


def css_string(text: str) -> str:
    """``text`` inside a CSS string: quotes and backslashes escaped, one line."""
    out = " ".join(text.split())
    for ch in ("\\", '"', "<", ">"):
        out = out.replace(ch, "\\" + format(ord(ch), "x") + " ")
    return out


#: the SVG's element ids are drawn from this salt, not at random: the same figures, the same bytes
HASH_SALT = "rulesub"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": HASH_SALT,
            "svg.fonttype": "none",  # text stays text: searchable in the PDF
            "font.family": "DejaVu Sans",
            "font.size": 8,
            "axes.grid": True,
            "grid.color": "#cccccc",
            "grid.linewidth": 0.5,
            "text.parse_math": False,  # "$5" is money, never the start of mathtext
        }
    )
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any, title: str) -> str:
    """The figure as inline SVG, named by its title for a screen reader (``role="img"``),
    its element ids its own: every figure numbers its parts alike (``figure_1``), so in a
    document of several each id is prefixed with a digest of the figure's bytes."""
    plt = _pyplot()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg") :]  # inline: no XML declaration or doctype
    key = "f" + hashlib.sha256(text.encode()).hexdigest()[:10]
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{key}-{m[1]}"', text)
    text = re.sub(
        r'((?:xlink:)?href="#|url\(#)([^")]+)',
        lambda m: f"{m[1]}{key}-{m[2]}" if m[2] in ids else m[0],
        text,
    )
    return text.replace("<svg ", f'<svg role="img" aria-label="{escape(title)}" ', 1)


def bar_chart(
    points: list[tuple[str, float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    method: str,
    mark: tuple[str, float] | None = None,
) -> str:
    """Bars of (label, value); ``mark``: a figure drawn as a dashed line and named."""
    if not points:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    labels = [label for label, _ in points]
    ax.bar(range(len(points)), [v for _, v in points], color="#4a6fa5", zorder=2)
    crowded = len(points) > CROWDED
    ax.set_xticks(range(len(points)), labels, rotation=90 if crowded else 0, fontsize=7)
    if not evenly_spaced(labels):  # the bars stand side by side, whatever their values
        xlabel += "; one bar per result, evenly spaced, not to scale"
    if mark is not None:
        ax.axhline(mark[1], color="#a33333", linestyle="--", linewidth=1, zorder=3)
        ax.annotate(
            mark[0],
            (0.99, mark[1]),
            xycoords=("axes fraction", "data"),
            ha="right",
            va="bottom",
            color="#a33333",
        )
    _dress(ax, title, xlabel, ylabel, method)
    return _svg(fig, title)


#: more bars than this and their labels stand upright, so that they never run together
CROWDED = 12


def evenly_spaced(labels: list[str]) -> bool:
    """Whether bars side by side, labelled ``labels``, stand to scale: numbers one step
    apart (``-2, -1, +0, +1``), so an axis of evenly spaced bars reads true."""
    try:
        values = [float(label) for label in labels]
    except ValueError:
        return False
    steps = {round(b - a, 9) for a, b in pairwise(values)}
    return len(steps) <= 1


def line_chart(
    points: list[tuple[float, float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    method: str,
    mark_y: tuple[str, float] | None = None,
    mark_x: tuple[str, float] | None = None,
    x_money: bool = False,
) -> str:
    """A curve of (x, y); ``mark_y`` a horizontal reference, ``mark_x`` the exact point,
    each named in a key beside the plot (never over the curve); ``x_money``: x in dollars,
    its ticks printed as money (``validator.money.format_money``)."""
    if len(points) < 2:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    ax.plot(
        [x for x, _ in points], [y for _, y in points], color="#4a6fa5", linewidth=1.5, label=ylabel
    )
    if mark_y is not None:
        ax.axhline(mark_y[1], color="#a33333", linestyle="--", linewidth=1, label=mark_y[0])
    if mark_x is not None:
        ax.axvline(mark_x[1], color="#333333", linestyle=":", linewidth=1, label=mark_x[0])
    if x_money:
        from matplotlib.ticker import FuncFormatter, MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: axis_money(x)))
    if mark_x is not None or mark_y is not None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    _dress(ax, title, xlabel, ylabel, method)
    return _svg(fig, title)


def axis_money(x: float) -> str:
    """An axis tick in dollars, as money is printed (whole dollars): ``$1,250,000``."""
    from decimal import Decimal

    from validator.money import format_money

    return format_money(Decimal(str(float(x))), cents=False)


def _dress(ax: Any, title: str, xlabel: str, ylabel: str, method: str) -> None:
    ax.set_title(title, fontsize=9, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, zorder=0)
    ax.set_axisbelow(True)
    ax.text(
        1.0,
        -0.32,
        f"Method: {method}",
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize=7,
        color="#444444",
    )
