"""Lunar Poker's second combination (§ 589.11(e)(1)(ii)): a second paying category held with a
card outside the winning combination.

The order the categories are looked for in is one rule for both round engines
(``second_combination_order``); the scalar engine looks hand by hand
(``second_combination``), the batch evaluator for every winning hand at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from validator.model.notation import Payout
from validator.rankings.evaluator import HandValue
from validator.rankings.primitives import Hand, find


def second_combination_order(categories: Sequence[Any], rows: dict[str, Payout]) -> list[Any]:
    """The categories a second combination may be paid as (§ 589.11(e)(1)(ii)), in the order
    they are looked for: the best-paying first, of two paying alike the higher-ranking."""
    paying = [
        (rows[c.id].net_units(), -i, c)
        for i, c in enumerate(categories)
        if c.id in rows and rows[c.id].is_win and c.shape != "any"
    ]
    return [c for _, _, c in sorted(paying, key=lambda t: (t[0], t[1]), reverse=True)]


def second_combination(
    ev: Any, cards: list[int], value: HandValue | None, rows: dict[str, Payout]
) -> Any:
    """Lunar Poker's second combination (§ 589.11(e)(1)(ii)): the best-paying category of
    the table the cards hold with at least one card outside the winning combination."""
    if value is None:
        return None
    winning = set(value.combination)
    outside = [c for c in cards if c not in winning]
    if not outside:
        return None
    whole = Hand(cards)
    for cat in second_combination_order(ev.categories, rows):
        if find(cat, whole, ev.ace_low) is None:
            continue
        k = cat.combination_size
        for x in outside:
            others = [c for c in cards if c != x]
            for rest in combinations(others, k - 1):
                combo = find(cat, Hand((x, *rest)), ev.ace_low)
                if combo is not None and len(combo) == k:
                    return cat
    return None
