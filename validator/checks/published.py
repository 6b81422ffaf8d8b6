"""Where the Board's published hold range and the text's exact figures disagree: the finding,
worded once for `rulesub odds` and `rulesub validate` (a check's text: it needs no engine).

A table's range (``approved_hold``) comes from a rulemaking preamble; the exact holds come
from the text. When no paytable's exact hold lies in the range, or the one a submission
selects lies outside it, that is a finding about the published figures: the exact figures
stand. Where the game file names another reading of the
ranking (``approved_hold.other_reading``), the holds it would give are shown beside them.
"""

from __future__ import annotations

from fractions import Fraction

from validator.model.notation import format_rate, stated_range


def _pct(x: Fraction) -> str:
    return f"{float(x * 100):.4f}%"


def published_range_finding(
    table_name: str,
    low: Fraction,
    high: Fraction,
    holds: dict[str, Fraction],
    other: tuple[str, dict[str, Fraction]] | None = None,
    selected: str | None = None,
) -> str | None:
    """The finding's text when no paytable's exact hold (``holds``: letter → hold) lies in
    ``low``-``high``, or when the ``selected`` one alone is outside; ``None`` otherwise.
    ``other``: (the reading's name, its holds)."""
    rng = stated_range(format_rate(low), format_rate(high))  # its ends to the same places
    if not holds:
        return None
    if any(low <= h <= high for h in holds.values()):
        hold = holds.get(selected or "")
        if hold is None or low <= hold <= high:
            return None
        return (
            f"paytable {selected}'s exact hold is {_pct(hold)}, outside {rng}; a finding "
            "about the published figures, the exact figures stand"
        )
    text = (
        f"No {table_name} paytable's exact hold lies in the Board's stated {rng}: "
        + ", ".join(f"{k} {_pct(h)}" for k, h in sorted(holds.items()))
        + "; a finding about the published figures, the exact figures stand"
    )
    if other is not None and other[1]:
        name, alt = other
        inside = [k for k, h in sorted(alt.items()) if low <= h <= high]
        text += (
            f". {name[0].upper()}{name[1:]}, they would be "
            + ", ".join(f"{k} {_pct(h)}" for k, h in sorted(alt.items()))
            + (
                f" ({', '.join(inside)} inside the range)"
                if inside and len(inside) < len(alt)
                else " (all inside the range)"
                if inside
                else " (none inside the range either)"
            )
        )
    return text
