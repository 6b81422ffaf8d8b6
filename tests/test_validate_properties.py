"""Property tests: mutated example submissions never crash the validator, and a mutation
that breaks a rule is never reported clean."""

from __future__ import annotations

import copy
import datetime as dt
import io
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from validator import PROJECT_ROOT
from validator.checks import validate_paths
from validator.checks.facts import facts_for
from validator.checks.rules import all_rules
from validator.loader import load_yaml
from validator.model.submission import REQUIRED
from validator.report import ReportFormat, render

EXAMPLES = {
    p.stem: load_yaml(p).data for p in (PROJECT_ROOT / "rulesubs" / "example").glob("*.yaml")
}
NAMES = sorted(EXAMPLES)
CODES = {r.code for r in all_rules()}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**9),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["25%", "$5,000", "N/A", "hand", "A", "Z", "30 to 1", "push", "1e3"]),
    st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2100, 1, 1)),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def pointers(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += pointers(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += pointers(v, (*prefix, i))
    return out


def write(data: Any) -> Path:
    directory = Path(tempfile.mkdtemp(prefix="rulesub-prop-"))
    path = directory / "s.yaml"
    yaml = YAML()
    with path.open("w", encoding="utf-8") as f:
        yaml.dump(data, f)
    return path


def check_report(path: Path) -> list[Any]:
    report = validate_paths([path])
    for fmt in ReportFormat:
        render(report, fmt, io.StringIO())
    for f in report.findings:
        assert f.code in CODES, f.code
        assert f.severity in ("error", "warning", "info")
        assert f.line >= 1 and f.column >= 1
    return report.findings


@SETTINGS
@given(
    name=st.sampled_from(NAMES),
    choice=st.integers(min_value=0),
    action=st.sampled_from(["replace", "delete", "add"]),
    value=values,
    key=st.text(min_size=1, max_size=10),
)
def test_mutations_never_crash(name: str, choice: int, action: str, value: Any, key: str) -> None:
    data = copy.deepcopy(EXAMPLES[name])
    where = pointers(data)
    target = where[choice % len(where)]
    parent = data
    for part in target[:-1]:
        parent = parent[part]
    last = target[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    else:
        node = parent[last]
        if isinstance(node, dict):
            node[key] = value
        elif isinstance(node, list):
            node.append(value)
        else:
            parent[last] = value
    check_report(write(data))


# -- mutations that break a rule ------------------------------------------------------------

Mutation = Callable[[dict[str, Any], Any], None]


def _max_positions(d: dict[str, Any], draw: Any) -> None:
    most = next(c.value for c in facts_for(d["game"]).constraints if c.id == "max-positions")
    d["table"]["positions"] = most + draw(st.integers(min_value=1, max_value=50))


def _decks(d: dict[str, Any], draw: Any) -> None:
    d["dealing"]["decks"] = draw(st.integers(min_value=3, max_value=8))


def _manual_two_decks(d: dict[str, Any], draw: Any) -> None:
    d["dealing"]["decks"] = 2
    d["dealing"]["shuffler"] = "manual"


def _letter(d: dict[str, Any], draw: Any) -> None:
    tables = d.get("paytables") or {}
    if not tables:
        d["paytables"] = {"no_such_table": "A"}
        return
    table = draw(st.sampled_from(sorted(tables)))
    letters = facts_for(d["game"]).table(table).letters
    tables[table] = draw(
        st.sampled_from([c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in letters])
    )


def _required(d: dict[str, Any], draw: Any) -> None:
    parent = draw(st.sampled_from(["", "/table", "/dealing"]))
    key = draw(st.sampled_from(REQUIRED[parent]))
    node = d if not parent else d[parent.strip("/")]
    del node[key]


def _unknown_key(d: dict[str, Any], draw: Any) -> None:
    key = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=3, max_size=12))
    if (
        key in d
        or key in REQUIRED[""]
        or key
        in (
            "offered",
            "paytables",
            "progressives",
            "equipment",
            "adjacent_boxes",
            "payout_limit",
            "custom_paytables",
        )
    ):
        key = key + "_x"
    d[key] = draw(scalars)


def _limits(d: dict[str, Any], draw: Any) -> None:
    low = draw(st.integers(min_value=1, max_value=10_000))
    d["table"]["max_wager"] = low
    d["table"]["min_wager"] = low + draw(st.integers(min_value=1, max_value=1000))


def _deck_change(d: dict[str, Any], draw: Any) -> None:
    method = d["dealing"]["methods"][0]
    rule = _constraint(d["game"], "deck-change-interval")
    if rule is None:  # no deck-change rule (the house poker procedures): break another
        _max_positions(d, draw)
        return
    limit = rule.hours[method]
    d["dealing"]["change_every_hours"][method] = limit + draw(st.integers(1, 100))


def _constraint(game: str, cid: str) -> Any:
    return next((c for c in facts_for(game).constraints if c.id == cid), None)


def _bare_rate(d: dict[str, Any], draw: Any) -> None:
    d["progressives"] = {
        "any_table": {"meters": {"primary": {"increment": draw(st.integers(0, 99))}}}
    }


def _game(d: dict[str, Any], draw: Any) -> None:
    d["game"] = d["game"] + draw(st.text(alphabet="xyz-", min_size=1, max_size=4))


def _payout_limit(d: dict[str, Any], draw: Any) -> None:
    if d["game"] in ("wpt-heads-up-holdem", "high-card-flush"):
        d["payout_limit"] = draw(st.integers(min_value=0, max_value=49_999))
    elif _constraint(d["game"], "hand-dealing-needs-shuffler") is None:  # Poker: none
        _max_positions(d, draw)
    else:
        d["dealing"]["methods"] = ["hand"]
        d["dealing"]["shuffler"] = "manual"
        d["dealing"]["decks"] = 1
        d["dealing"]["change_every_hours"] = {"hand": 4}


BREAKERS: list[Mutation] = [
    _max_positions,
    _decks,
    _manual_two_decks,
    _letter,
    _required,
    _unknown_key,
    _limits,
    _deck_change,
    _bare_rate,
    _game,
    _payout_limit,
]


@SETTINGS
@given(
    name=st.sampled_from(NAMES),
    breakers=st.lists(st.sampled_from(BREAKERS), min_size=1, max_size=3, unique=True),
    data=st.data(),
)
def test_a_mutation_that_breaks_a_rule_is_never_reported_clean(
    name: str, breakers: list[Mutation], data: st.DataObject
) -> None:
    submission = copy.deepcopy(EXAMPLES[name])
    # a required key deleted after the others (they read the sections it may delete), the
    # game id last (the others read the game's facts)
    for breaker in sorted(breakers, key=lambda b: (b is _game, b is _required)):
        if "game" not in submission or "table" not in submission or "dealing" not in submission:
            break
        breaker(submission, data.draw)
    findings = check_report(write(submission))
    assert any(f.severity == "error" for f in findings), [b.__name__ for b in breakers]
