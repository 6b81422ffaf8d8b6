"""The Kill and Half-kill options of Omaha High-low-hand Split Eight or Better (§ 553.1;
§ 553.12(m)): after one player wins an entire qualifying pot the next hand's limits are
twice the posted limits (Kill) or one and a half times them (Half-kill); they stay until a
pot is split between one player winning the high hand and another the low hand, or a pot is
less than the qualifying pot. A pot compared is a pot as § 553.1 defines it: what is
awarded, after the rake and any Bad Beat contribution.

With side pots (``after_round``) each pot is "a pot" (§ 553.1, Side pot: "a separate
pot"): one player winning the whole of any pot, main or side, that is at least the
qualifying pot puts the Kill in effect, even when another player wins another pot of the
round; otherwise the main pot, which every player still in contested, decides whether a
Kill in effect ends (split high/low between two players, or under the qualifying pot)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from validator.interpreter.poker.showdown import PotResult
from validator.model.submission.descriptions import CHOICES
from validator.money import Cents, dollar_text
from validator.vocabulary import POKER_WORD, meaning


@dataclass(frozen=True)
class KillRule:
    option: str  # kill | half_kill
    multiplier: Fraction
    qualifying_pot: Cents
    in_effect: bool = False  # for this hand


def option_name(option: str) -> str:
    """The option as § 553.1 names it: the Kill, the Half-kill."""
    return CHOICES["kill/option"]["kill" if option == "kill" else "half_kill"]


@dataclass(frozen=True)
class KillResult:
    in_effect_next: bool
    multiplier_next: Fraction
    reason: str


def explain_kill(rule: KillRule, pots: Sequence[PotResult], on: bool, cite: str) -> KillResult:
    """The Kill for the next hand (``on``, the settlement kernel's) and why, from every pot
    of this round as it was awarded (main pot first)."""
    for p in pots:
        won = {s for h in p.halves for s in h.winners}
        if len(won) == 1 and p.net >= rule.qualifying_pot:
            return next_hand(rule, p.net, won.pop(), False, cite, p.pot.name, on)
    main = pots[0]
    halves = [set(h.winners) for h in main.halves]
    split = len(halves) == 2 and halves[0] != halves[1]
    return next_hand(rule, main.net, None, split, cite, main.pot.name, on)


@meaning("scalar", POKER_WORD.id, "kill", "half_kill")
def next_hand(
    rule: KillRule,
    pot: Cents,
    scooped_by: int | None,
    split_high_low: bool,
    cite: str,
    pot_name: str = "pot",
    in_effect_next: bool | None = None,
) -> KillResult:
    """The Kill for the next hand and why; ``in_effect_next``: the settlement kernel's
    figure (none: read here, for the narration of a rule)."""
    qualifying = pot >= rule.qualifying_pot
    name = option_name(rule.option)
    size = f"the {dollar_text(pot)} {pot_name}"
    threshold = f"the {dollar_text(rule.qualifying_pot)} qualifying pot"
    if scooped_by is not None and qualifying:
        on, why = True, f"seat {scooped_by} won all of {size}, at least {threshold}"
    elif not rule.in_effect:
        on, why = False, "no single player won an entire qualifying pot"
    elif not qualifying:
        on, why = False, f"{size} is less than {threshold}"
    elif split_high_low:
        on, why = False, "the pot was split between a high hand and a different low hand"
    else:
        on, why = True, "the limits stay until a pot is split high/low or under the qualifying pot"
    if in_effect_next is not None and in_effect_next != on:  # pragma: no cover - a bug
        raise AssertionError("the Kill's reason disagrees with the settlement")
    mult = rule.multiplier if on else Fraction(1)
    state = (
        f"the {name} is in effect next hand (limits ×{mult})" if on else ("posted limits next hand")
    )
    return KillResult(on, mult, f"{state}: {why} [{cite}]")
