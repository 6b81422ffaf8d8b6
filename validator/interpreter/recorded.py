"""What a play log recorded of a round's result, held against the round settled again:
``rulesub settle LOG --round N`` says whether the two agree, and where they differ.

A banking record carries ``result: {seats: {"1": net, …}, house: …}``; a Poker record
each seat's ``award`` (and ``bad_beat_payout``) and the round's ``rake`` beside its round
file. A round file without a recorded result is settled with nothing to compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from validator.money import exact_figure, exact_money


@dataclass(frozen=True)
class Figure:
    """One amount as the log recorded it and as the settlement finds it (``None``: absent
    on that side; a recorded value that is no amount is kept as written)."""

    what: str
    recorded: Decimal | str | None
    settled: Decimal | str | None

    @property
    def agrees(self) -> bool:
        return self.recorded == self.settled

    def text(self) -> str:
        return f"{self.what}: recorded {_shown(self.recorded)}, settled {_shown(self.settled)}"


@dataclass(frozen=True)
class Recorded:
    figures: list[Figure]
    compared: str  # what was held against the settlement, in words

    @property
    def differences(self) -> list[Figure]:
        return [f for f in self.figures if not f.agrees]

    def text(self) -> str:
        if not self.differences:
            return f"The log's recorded result agrees with this settlement: {self.compared}."
        return "The log's recorded result differs from this settlement: " + "; ".join(
            f.text() for f in self.differences
        )

    def json(self) -> dict[str, Any]:
        return {
            "recorded_result": {
                "agrees": not self.differences,
                "differences": [
                    {
                        "what": f.what,
                        "recorded": _figure(f.recorded),
                        "settled": _figure(f.settled),
                    }
                    for f in self.differences
                ],
            }
        }


def recorded_result(record: Any, settled: dict[str, Any]) -> Recorded | None:
    """The log's recorded result against ``settled`` (the settlement's JSON); None where
    what was read records no result."""
    if not isinstance(record, dict):
        return None
    if isinstance(record.get("result"), dict):
        return _banking(record["result"], settled)
    if isinstance(record.get("round_file"), dict) and isinstance(record.get("seats"), list):
        return _poker(record, settled)
    return None


def _banking(result: dict[str, Any], settled: dict[str, Any]) -> Recorded:
    seats = result.get("seats")
    logged: dict[str, Any] = seats if isinstance(seats, dict) else {}
    mine = {str(s["seat"]): s["net"] for s in settled["seats"]}
    figures = [
        Figure(f"seat {n}'s net", _amount(logged.get(n)), _amount(mine.get(n)))
        for n in _seats(logged, mine)
    ]
    figures.append(
        Figure("the house result", _amount(result.get("house")), _amount(settled["house"]))
    )
    return Recorded(figures, "each seat's net and the house result")


def _poker(record: dict[str, Any], settled: dict[str, Any]) -> Recorded:
    logged = {str(s.get("seat")): s for s in record["seats"] if isinstance(s, dict)}
    mine = {str(s["seat"]): s for s in settled["seats"]}
    figures: list[Figure] = []
    for n in _seats(logged, mine):
        for key, what in (("award", "award"), ("bad_beat_payout", "Bad Beat payout")):
            figures.append(
                Figure(
                    f"seat {n}'s {what}",
                    _amount(logged.get(n, {}).get(key)),
                    _amount(mine.get(n, {}).get(key)),
                )
            )
    figures.append(
        Figure("the rake", _amount(record.get("rake")), _amount(settled["rake"]["total"]))
    )
    return Recorded(figures, "each seat's award and Bad Beat payout, and the rake")


def _seats(*sides: dict[str, Any]) -> list[str]:
    numbers = {n for side in sides for n in side}
    return sorted(numbers, key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else 0, n))


def _amount(value: Any) -> Decimal | str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value)
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    # NaN, Infinity and 1e999999 are no amounts a table paid: kept as written, to differ
    if not amount.is_finite() or amount.adjusted() > 15 or amount.adjusted() < -15:
        return str(value)
    return amount


def _shown(value: Decimal | str | None) -> str:
    if value is None:
        return "nothing"
    return exact_money(value) if isinstance(value, Decimal) else repr(value)


def _figure(value: Decimal | str | None) -> str | None:
    if isinstance(value, Decimal):
        return exact_figure(value)
    return value
