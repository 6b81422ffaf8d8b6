"""The rake (§ 553.15): what the house takes from the pots.

- A percentage rake, at most the source's maximum rate (10%, § 553.15(b)(1)), of the pot
  and of each side pot, rounded down to the rake unit (the table's smallest chip unless
  stated), so that no pot is raked more than the rate; a cap applies to the round of play,
  taken from the pots in the order they formed (the main pot first). Taken after each
  betting round (§ 553.15(b)(1)(i)), each round's part of each pot is raked: the chips
  fill the pots from the main pot up, so an All-in player's pot pays no rake on the
  rounds bet after his All-in.
- An incremental rake (§ 553.15(b)(2)): an amount taken at each predetermined level the pot
  (all pots of the round together) reaches; capped; each level's amount from the pot the
  chips that reached it are in, the chips filling the pots from the main pot up, so an
  All-in player's pot pays only for the levels reached while it was filling (unless the
  pots after it cannot hold a level's amount: the rest comes from the pots before).
- Time charges (§ 553.15(b)(3)): an hourly fee assessed every 20 or 30 minutes per player
  or per table; never taken from a pot (``time_charges``). "A rake based on time charges"
  is a rake, so the submission's "maximum permissible rake" (§ 553.15(a)(3)) binds it: one
  assessment (a period's share, from each player or from the table) takes at most the
  stated maximum (``assessment``).

The uncalled final bet is no part of any pot, so it is never raked (§ 553.15(d)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from validator.interpreter.poker.showdown import Pot
from validator.model.notation import format_rate
from validator.money import Cents, dollar_text
from validator.vocabulary import POKER_WORD, meaning


@dataclass(frozen=True)
class RakeRule:
    """The rake a table takes, as its Rules Submission states it."""

    kind: Literal["percentage", "incremental", "time", "none"]
    rate: Fraction | None = None
    cap: Cents | None = None
    unit: Cents | None = None  # rounding unit; None: the table's smallest chip
    levels: tuple[tuple[Cents, Cents], ...] = ()  # (pot at least, amount taken there)
    hourly: Cents | None = None
    every_minutes: int | None = None
    basis: Literal["per_player", "per_table"] | None = None
    # a percentage rake taken after each betting round (§ 553.15(b)(1)(i)) rather than once
    # at the end of the round of play ((ii)); ``rounds``: what each betting round of this
    # round of play put in the pots, in order (the hand's, not the table's)
    per_betting_round: bool = False
    rounds: tuple[Cents, ...] | None = None


@dataclass
class Rake:
    by_pot: list[Cents]
    reason: str
    lines: list[str] = field(default_factory=list)

    @property
    def total(self) -> Cents:
        return sum(self.by_pot)


@meaning("scalar", POKER_WORD.id, "percentage", "incremental")
def explain_rake(
    pots: Sequence[Pot],
    rule: RakeRule | None,
    chip: Cents,
    cite: str,
    by_pot: list[Cents],
    uncalled: Cents = 0,
) -> Rake:
    """The rake taken from each pot (``by_pot``, the settlement kernel's) with its reason
    and, for a percentage, each pot's or betting round's figure before the cap."""
    if rule is None or rule.kind == "none":
        return Rake(by_pot, "no rake stated for this round")
    unit = rule.unit or chip
    if rule.kind == "time":
        return Rake(by_pot, f"time charges are assessed by the clock, never from a pot [{cite}]")
    cap_text = f", at most {dollar_text(rule.cap)} a round of play" if rule.cap is not None else ""
    if rule.kind == "incremental":
        total = sum(p.amount for p in pots)
        reached = [level for level, _ in rule.levels if total >= level]
        levels = ", ".join(dollar_text(level) for level in reached) or "none"
        return Rake(
            by_pot,
            f"incremental rake: levels reached by the {dollar_text(total)} in the pots: {levels}"
            f"{cap_text}; each from the pot its level was reached in, the chips filling the "
            f"pots from the main pot up [{cite}]",
        )
    assert rule.rate is not None
    rate = format_rate(rule.rate)
    if not (rule.per_betting_round and rule.rounds is not None):
        reason = f"percentage rake {rate} of each pot{cap_text} [{cite}]"
        return Rake(by_pot, reason, _lines(rule, unit, [(p.name, p.amount) for p in pots], by_pot))
    # § 553.15(b)(1)(i): each betting round raked as play progresses, "calculated and
    # extracted from the pot and any side pots" as they stand after it, less what was
    # taken before; the cap for the round of play. The uncalled final bet, in the last
    # betting round that put chips in (an All-in ends the betting), is no part of the pot
    # (§ 553.15(d))
    rounds = list(rule.rounds)
    placed = [i for i, put in enumerate(rounds) if put]
    if placed:
        rounds[placed[-1]] -= uncalled
    reason = (
        f"percentage rake {rate} of each pot as it stands after each betting round, less "
        f"what was taken before{cap_text}, extracted as play progresses [{cite}]"
    )
    return Rake(by_pot, reason, _round_lines(rule, unit, _round_parts(pots, rounds)))


def _round_parts(pots: Sequence[Pot], rounds: list[Cents]) -> list[tuple[str, Cents, Cents]]:
    """What each pot held after each betting round and before it: the chips fill the pots
    from the main pot up (a pot is the band of contributions between two All-in amounts).
    A round is named alone where the round of play has one pot, or where it put nothing
    in; a pot the round put nothing in is not named."""
    items: list[tuple[str, Cents, Cents]] = []
    before = 0
    for i, put in enumerate(rounds, start=1):
        after, below = before + put, 0
        for p in pots:
            held = min(max(after - below, 0), p.amount)
            had = min(max(before - below, 0), p.amount)
            below += p.amount
            if len(pots) == 1 or not put:
                items += [(f"betting round {i}", held, had)] if p is pots[0] else []
            elif held > had:
                items.append((f"betting round {i}, {p.name}", held, had))
        before = after
    return items


def _round_lines(rule: RakeRule, unit: Cents, items: list[tuple[str, Cents, Cents]]) -> list[str]:
    """Each betting round's rake from each pot: the rate of what the pot holds then, rounded
    down to the rake unit, less what the rate of what it held before took, within the cap
    counted down in order."""
    assert rule.rate is not None
    lines = []
    left = rule.cap
    for label, held, had in items:
        so_far = int(held * rule.rate // unit) * unit
        before = int(had * rule.rate // unit) * unit
        wanted = so_far - before
        take = wanted if left is None else min(wanted, left)
        if left is not None:
            left -= take
        less = f", less {dollar_text(before)} taken before: {dollar_text(wanted)}"
        lines.append(
            f"{label}: {format_rate(rule.rate)} of {dollar_text(held)}, rounded down to "
            f"{dollar_text(unit)}: {dollar_text(so_far)}"
            + (less if before else "")
            + (f"; the cap leaves {dollar_text(take)}" if take != wanted else "")
        )
    return lines


def _lines(
    rule: RakeRule, unit: Cents, items: list[tuple[str, Cents]], taken: list[Cents]
) -> list[str]:
    """Each pot's percentage, rounded down to the rake unit, and what the cap leaves of it
    (``taken``, the settlement kernel's figure for the pot)."""
    assert rule.rate is not None
    lines = []
    for (label, put), take in zip(items, taken, strict=True):
        wanted = int(put * rule.rate // unit) * unit
        lines.append(
            f"{label}: {format_rate(rule.rate)} of {dollar_text(put)}, rounded down "
            f"to {dollar_text(unit)}: {dollar_text(wanted)}"
            + (f"; the cap leaves {dollar_text(take)}" if take != wanted else "")
        )
    return lines


def assessment(hourly: Cents, every_minutes: int, maximum: Cents | None = None) -> Fraction:
    """What one assessment takes, in cents (per player, or from the table): the hourly fee
    assessed fractionally every 20 or 30 minutes (§ 553.15(b)(3)(ii), (iii)), at most the
    maximum permissible rake stated (§ 553.15(a)(3)): a rake based on time charges is a
    rake (§ 553.15(b)(3))."""
    share = Fraction(hourly * every_minutes, 60)
    return share if maximum is None else min(share, Fraction(maximum))


def accrued(rule: RakeRule, periods: int, chip: Cents, payers: int = 1) -> Cents:
    """What one payer's time charges come to over ``periods`` periods: his share of each
    period's ``assessment`` (all of it per player; per table, one of ``payers`` equal
    shares) in whole chips of the rake unit (the table's smallest chip unless stated). The
    rake is the gaming chips the dealer collects (§ 553.1, Rake): a fraction of a chip is
    not charged until it makes a whole one."""
    assert rule.kind == "time" and rule.hourly is not None and rule.every_minutes
    unit = rule.unit or chip
    share = assessment(rule.hourly, rule.every_minutes, rule.cap) * periods / payers
    return int(share // unit) * unit


def completed_periods(rule: RakeRule, hands_per_hour: int, hands_played: int) -> int:
    """The time-charge periods completed once ``hands_played`` hands have been dealt."""
    assert rule.every_minutes
    minutes = Fraction(hands_played * 60, hands_per_hour)
    return int(minutes // rule.every_minutes)


@meaning("scalar", POKER_WORD.id, "time")
def time_charges(
    rule: RakeRule,
    periods_before: int,
    hands_per_hour: int,
    hands_played: int,
    seats: Sequence[int],
    chip: Cents,
) -> dict[int, Cents]:
    """What each seated player pays for the periods completed since ``periods_before``:
    the whole chips of his share accrued by the end of the last period (``accrued``), less
    what he paid before. Per player, his share is the fee (hourly × minutes / 60); per
    table, the table's fee divided equally among the seated players, each paying his own
    share as it makes whole chips, so that none pays another's. Where a maximum is stated,
    no assessment takes more (§ 553.15(a)(3)): a fraction carried into a whole chip that
    would pass it is not charged (a $2.50 share in $1 chips is $2 each time, never $3)."""
    periods = completed_periods(rule, hands_per_hour, hands_played)
    payers = 1 if rule.basis == "per_player" else len(seats)
    due = accrued(rule, periods, chip, payers) - accrued(rule, periods_before, chip, payers)
    most = most_a_period(rule, chip, payers)
    if most is not None:
        due = min(due, most * (periods - periods_before))
    return {seat: due for seat in seats} if due else {}


def most_a_period(rule: RakeRule, chip: Cents, payers: int) -> Cents | None:
    """The whole chips one of ``payers`` may pay at an assessment under the stated
    maximum (per table, his equal share of it); None where no maximum is stated."""
    if rule.cap is None:
        return None
    unit = rule.unit or chip
    return int(Fraction(rule.cap) / payers // unit) * unit


def a_period(rule: RakeRule, chip: Cents, payers: int) -> Fraction:
    """What one of ``payers`` pays an assessment in the long run: his share of it, the
    fractions of a chip carried until they make whole ones; where his share passes the
    whole chips the maximum lets him pay (``most_a_period``), those chips, every time."""
    assert rule.hourly is not None and rule.every_minutes
    share = assessment(rule.hourly, rule.every_minutes, rule.cap) / payers
    most = most_a_period(rule, chip, payers)
    return share if most is None else min(share, Fraction(most))
