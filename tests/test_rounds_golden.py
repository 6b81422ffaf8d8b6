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
from typing import Any

import pytest

from tests.conftest import GAME_IDS
from validator.interpreter.errors import RoundError
from validator.interpreter.roundfile import read_round
from validator.interpreter.rules import MissingTable
from validator.interpreter.settle import settle_spec
from validator.loader import load_yaml
from validator.money import exact_figure

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
        got = {spot: exact_figure(w.net) for spot, w in seat.wagers.items()}
        for spot, net in wagers.items():
            if spot == "net":
                assert exact_figure(seat.net) == str(net), f"seat {number} total: {seat.net}"
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


# -- the same rounds through the batch engine ----------------------------------------------

BANKING_CASES = [p for p in CASES if p.parent.name != "poker"]


def _replay_in_batch(spec: Any, settled: Any) -> str | None:
    """Deal the round's cards to the batch engine in its dealing order, with the same wagers
    and the same decisions, and require the same settlement; the reason it cannot be
    replayed (``None`` when it was)."""
    import numpy as np

    from validator.interpreter.actions import parse_action
    from validator.interpreter.batch import BatchEngine, Scripted
    from validator.interpreter.batch_money import from_micro, to_micro
    from validator.interpreter.dealing import deal_order
    from validator.model.procedure import DealStep, DecideStep

    rules, result = settled.rules, settled.result
    S = len(spec.seats)
    if [s.number for s in spec.seats] != list(range(1, S + 1)):
        return "seats not numbered 1..n"
    stakes: dict[str, Any] = {}
    for i, seat in enumerate(spec.seats):
        for spot, amount in seat.wagers.items():
            stakes.setdefault(spot, np.zeros((1, S), np.int64))[0, i] = to_micro(amount)
    for spot, st in stakes.items():
        if len({int(x) for x in st[st > 0]}) > 1:
            return f"the seats wager different amounts on {spot}"
    # the cards, in the order the batch engine takes them from the deck
    given = {("player", s.number): list(s.cards) for s in spec.seats}
    given[("dealer", 0)] = list(spec.dealer)
    given[("community", 0)] = list(spec.community)
    extra = list(spec.deck)
    used = {c for cards in given.values() for c in cards} | set(extra)
    filler = [c for c in range(52) if c not in used]
    deck: list[int] = []
    wagered = {rules.spot_wager(s) for s in stakes}
    for step in rules.procedure:
        if not isinstance(step, DealStep):
            continue
        if step.when_wagered and step.when_wagered not in wagered:
            continue
        for who in deal_order(step, list(range(1, S + 1))):
            if who[0] == "burn":
                deck.append(filler.pop())
            elif who in given:
                deck.append(given[who].pop(0))
            else:
                deck.append(extra.pop(0))
    deck += extra + filler
    # the decisions, in the order the seats were asked; an exchange keeps the cards it does
    # not name, a mask over the cards the seat holds when asked
    decided: dict[str, Any] = {}
    left = [list(s.actions) for s in spec.seats]
    held = 0
    for step in rules.procedure:
        if isinstance(step, DealStep) and (not step.when_wagered or step.when_wagered in wagered):
            held += step.cards.get("player", 0)
        if not isinstance(step, DecideStep):
            continue
        names = list(step.options)
        idx = np.full((1, S), -1, np.int64)
        mult = np.zeros((1, S), np.int64)
        keep = np.zeros((1, S, held), bool)
        for i, seat in enumerate(spec.seats):
            if not left[i] or parse_action(left[i][0]).option not in step.options:
                continue
            a = parse_action(left[i].pop(0))
            idx[0, i] = names.index(a.option)
            mult[0, i] = -1 if a.multiple == "max" else (a.multiple or 0)
            keep[0, i] = [c not in a.cards for c in seat.cards[:held]]
        decided[step.id] = Scripted(idx, mult, keep_cards=keep)
    draws = {k: np.array([v]) for k, (_, v) in spec.table_system.items()}
    batch = BatchEngine(rules, None, S, {})
    for key, m in batch.meters.items():
        table, name = key.split("/")
        if table in spec.meters and name in spec.meters[table]:
            m.amount = m.start = m.low = m.high = to_micro(spec.meters[table][name])
    void = {spec.irregularity: np.array([True])} if spec.irregularity is not None else None
    res = batch.run(np.array([deck]), draws, stakes, decided, void)
    for seat in result.seats:
        for spot, w in seat.wagers.items():
            got = int(res.returned[spot][0, seat.seat - 1]) - int(
                res.stakes[spot][0, seat.seat - 1]
            )
            assert from_micro(got) == w.net, f"seat {seat.seat} {spot}: batch {from_micro(got)}"
    assert from_micro(int(res.house[0])) == result.ledger.house
    for key, m in batch.meters.items():
        table, name = key.split("/")
        assert from_micro(m.amount) == result.meters_after[table][name], key
    assert res.balanced().all()
    return None


@pytest.mark.parametrize("path", BANKING_CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_round_in_the_batch_engine(path: Path) -> None:
    """The hand-worked round, dealt to the batch engine with the same wagers and decisions,
    settles to the same money, wager by wager, and leaves the meters the same."""
    expected = _expected(path)
    if "error" in expected:
        pytest.skip("a round the rules refuse")
    spec = read_round(path)
    why = _replay_in_batch(spec, settle_spec(spec))
    if why is not None:
        pytest.skip(why)


def test_every_banking_game_replays_its_golden_rounds_in_the_batch_engine() -> None:
    """Every golden round the rules allow replays in the batch engine as written: the void
    rounds (§§ 641a.13(d), 677a.13(d), 678a.13(d)) and an exchange of the cards the player
    chose (§ 589.11(d)(2)(i)(B)) among them; every game replays at least eight."""
    replayed: dict[str, int] = {}
    not_replayed: dict[str, str] = {}
    for path in BANKING_CASES:
        if "error" in _expected(path):
            continue
        spec = read_round(path)
        why = _replay_in_batch(spec, settle_spec(spec))
        if why is None:
            replayed[path.parent.name] = replayed.get(path.parent.name, 0) + 1
        else:
            not_replayed[f"{path.parent.name}/{path.stem}"] = why
    assert all(replayed.get(g, 0) >= 8 for g in GAME_IDS), replayed
    assert not not_replayed, not_replayed


@pytest.mark.parametrize(
    "submission", sorted(GOLDEN.glob("*/rulesub.yaml")), ids=lambda p: p.parent.name
)
def test_a_golden_submission_complies(submission: Path) -> None:
    """The Rules Submission golden rounds are settled under complies with the chapter, so
    that `rulesub settle` settles them as an officer runs it, not only with its findings
    allowed (Heads-Up Hold 'Em's lacked `dealing:`, a required key)."""
    from validator.checks import validate_file

    result = validate_file(submission)
    assert [f.code for f in result.findings if f.severity == "error"] == []
