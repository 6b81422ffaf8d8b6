"""One z for every 95% interval: ``Z95`` of validator.interpreter.moments, the exact quantile.

`simulate` once took its hold's interval as ± 1.96 standard errors while the par sheet took
± 1.959963984540054: the same sums gave two intervals. Both now read the one z.
"""

from __future__ import annotations

import ast
import json
from decimal import Decimal
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from tests.conftest import run_rulesub
from validator.interpreter.moments import Z95, Moments
from validator.interpreter.simulate import Acc

PACKAGE = Path(__file__).resolve().parent.parent / "validator"
HOME = PACKAGE / "interpreter" / "moments.py"


def test_z_is_the_normal_quantile() -> None:
    """Φ⁻¹(0.975) = 1.959963984540054235…, to the last place of a float, not 1.96."""
    exact = Decimal("1.959963984540054235524594430520551527955550")
    assert abs(Decimal(Z95) - exact) < Decimal("2.3e-16")  # one unit in the last place
    assert abs(Z95 - NormalDist().inv_cdf(0.975)) < 1e-15
    assert NormalDist().cdf(Z95) == pytest.approx(0.975, abs=1e-15)


def test_simulate_and_the_par_sheet_give_one_interval_for_the_same_sums() -> None:
    """The same rounds summed by `simulate` (Acc) and by the par sheet (Moments) give the same
    hold and the same 95% interval, to the rounding each prints."""
    from validator.par.simulated import interval

    rng = np.random.default_rng(5)
    h = rng.integers(1, 4, 400) * 10_000
    x = np.where(rng.random(400) < 0.45, h, -h) * rng.integers(1, 3, 400)
    acc, m = Acc(), Moments()
    acc.add(x, h)
    m.add_arrays(x, h)
    held = acc.hold()
    figures = interval(m)
    assert held is not None and figures is not None
    hold, low, high = held
    assert round(hold, 6) == figures["value"]
    assert [round(low, 6), round(high, 6)] == figures["ci95"]
    se = (high - low) / (2 * Z95 * 100)
    assert abs((high - low) / 2 - 196 * se) > 1e-4  # wide enough that 1.96 would show


def _numbers(path: Path) -> list[tuple[int, object]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and type(n.value) in (int, float)
        and n.value in (1.96, 196, 0.975, 97.5, Z95)
    ]


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_but_the_one_home_states_a_z(path: Path) -> None:
    """A 95% interval's z is written once, in moments.py; every other module imports ``Z95``."""
    if path == HOME:
        assert [v for _, v in _numbers(path)] == [Z95]
        return
    found = _numbers(path)
    assert not found, f"{path.name} states its own z at line(s) {[n for n, _ in found]}"


def test_simulate_prints_its_interval_with_the_one_z() -> None:
    """`simulate`'s printed interval, pinned for one seed: the figures of ± Z95 standard errors
    (with 1.96 the ante's interval read 6.7094 … 18.2073 and the edge's -3.7271 … 15.8105)."""
    out = run_rulesub(
        "simulate",
        "high-card-flush",
        "--rounds",
        "400",
        "--seed",
        "3",
        "--workers",
        "1",
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["wagers"]["ante"]["hold_percent"] == 12.4583
    assert data["wagers"]["ante"]["ci95"] == [6.7095, 18.2072]
    assert data["house_edge_per_ante"] == 6.0417
    assert data["house_edge_per_ante_ci95"] == [-3.7269, 15.8103]
