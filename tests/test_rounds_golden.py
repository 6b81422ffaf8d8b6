"""Golden rounds: each settled by hand from the chapter's words, then by `rulesub settle`.

``tests/golden/<game>/<case>.yaml`` is a round file (the contract of ``rulesub settle``);
``<case>.expected.yaml`` says why, in the chapter's words, and what each wager nets, seat by
seat (``net`` is the seat's total), which row applied where it matters (a fragment of the
row's citation), the meters after the round, or the error a round the rules forbid must
raise (fragments of its message, the rule it names first).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import GAME_IDS
from validator.interpreter.results import money
from validator.interpreter.roundfile import read_round
from validator.interpreter.rules import MissingTable
from validator.interpreter.scalar import RoundError
from validator.interpreter.settle import settle_spec
from validator.loader import load_yaml

GOLDEN = Path(__file__).parent / "golden"


def _cases() -> list[Path]:
    out = []
    for game in GAME_IDS:
        out += sorted(
            p
            for p in (GOLDEN / game).glob("*.yaml")
            if not p.name.endswith(".expected.yaml") and p.name != "rulesub.yaml"
        )
    return out


CASES = _cases()


def _expected(path: Path) -> dict:
    return load_yaml(path.with_name(path.stem + ".expected.yaml")).data


def test_at_least_ten_hand_worked_rounds_per_game() -> None:
    for game in GAME_IDS:
        settled = [p for p in CASES if p.parent.name == game and "error" not in _expected(p)]
        assert len(settled) >= 10, f"{game}: {len(settled)} golden rounds"


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_round(path: Path) -> None:
    expected = _expected(path)
    assert expected.get("why"), "a golden round says why, in the chapter's words"
    spec = read_round(path)
    if "error" in expected:
        with pytest.raises((RoundError, MissingTable)) as err:
            settle_spec(spec)
        for fragment in expected["error"]:
            assert fragment in str(err.value), f"{fragment!r} not in: {err.value}"
        return
    result = settle_spec(spec).result
    seats = {s.seat: s for s in result.seats}
    for number, wagers in expected["seats"].items():
        seat = seats[int(number)]
        got = {spot: money(w.net) for spot, w in seat.wagers.items()}
        for spot, net in wagers.items():
            if spot == "net":
                assert money(seat.net) == str(net), f"seat {number} total: {seat.net}"
            else:
                assert got.get(spot) == str(net), (
                    f"seat {number} {spot}: {got.get(spot)} != {net}\n"
                    f"{seat.wagers[spot].reason if spot in seat.wagers else 'not wagered'}"
                )
        assert set(got) == {k for k in wagers if k != "net"}, "every wager of the seat is pinned"
    for number, results in (expected.get("results") or {}).items():
        for spot, res in results.items():
            assert seats[int(number)].wagers[spot].result == res
    for number, rows in (expected.get("rows") or {}).items():
        for line, cite in rows.items():
            w = seats[int(number)].wagers[line]
            assert any(cite in ln.cite for ln in w.lines), f"{line}: {[ln.cite for ln in w.lines]}"
    for key, amount in (expected.get("meters") or {}).items():
        table, name = key.split("/")
        assert result.meters_after[table][name] == Decimal(str(amount))
    assert result.ledger.balanced()
