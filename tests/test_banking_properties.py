"""Invariants of the banking games and their files, checked on generated inputs (as
``test_poker_properties`` does for Poker):

- a round ``play`` deals settles from its ``.jsonl`` log line to the same money, seat by
  seat and for the house, whatever the seed, the seats or the wager sizes;
- ``settle`` pays whole cents: a payout that is not (``7 to 3`` on $10) is rounded down
  to the cent, never more than the exact figure, and the round says so;
- ``simulate`` conserves money in every round, its handles and nets are whole cents, and
  the same seed gives the same summary;
- a log line in another encoding, or nested too deep, is refused at its line, never read;
- ``diff`` of two of a chapter's paytables is antisymmetric (A→C is minus C→A);
- ``signage`` prints a facility's name as written (markup included), escapes it in HTML,
  and states the table's limits exactly.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.cli.rounds import _read_spec
from validator.compiler import load_game
from validator.interpreter.config import TableConfig
from validator.interpreter.meters import payout_of
from validator.interpreter.play import Table, log_line
from validator.interpreter.rules import MissingTable, Rules
from validator.interpreter.settings import read_settings
from validator.interpreter.settle import settle_spec
from validator.interpreter.simulate import run, summary_json
from validator.loader import LoadError

BANKING = ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush")
EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
SOME = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
runner = CliRunner()


def _cents(text: str) -> bool:
    d = Decimal(text)
    return d == d.quantize(Decimal("0.01"))


def _rules(game_id: str, min_wager: Decimal | None = None, example: bool = False) -> Rules:
    """The game's rules at the chapter's defaults (or the example submission's table, which
    supplies the tables the regulation text lacks), at ``min_wager``."""
    game = load_game(game_id)
    cfg = (
        read_settings(game, EXAMPLES / f"{game_id}.yaml") if example else TableConfig.defaults(game)
    )
    if min_wager is not None:
        cfg.min_wager = min_wager
    return Rules(game, cfg)


_min_wagers = st.integers(1, 100_000).map(lambda c: Decimal(c) / 100)


@SOME
@given(
    game_id=st.sampled_from(BANKING),
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 4),
    min_wager=_min_wagers,
)
def test_a_played_round_settles_from_its_log_line_to_the_same_money(
    tmp_path: Path, game_id: str, seed: int, seats: int, min_wager: Decimal
) -> None:
    """Every round ``play`` deals and settles. A round that needs a table the regulation
    text lacks (§ 677a.12(c), (d); seed 81 at three seats) is refused by ``play`` with
    ``MissingTable``, naming the table and how to state it: no round of this property."""
    rules = _rules(game_id, min_wager)
    seats = min(seats, rules.max_seats())
    table = Table(rules, seats, seed, None, None)
    rounds = table.rounds(2)
    while True:
        try:
            played = next(rounds)
        except StopIteration:
            break
        except MissingTable:
            reject()
        log = tmp_path / f"{game_id}-{seed}-{played.number}.jsonl"
        log.write_text(log_line(played.record), encoding="utf-8")
        settled = settle_spec(_read_spec(log, played.number)).result
        expected = played.record["result"]
        assert {str(s.seat): s.to_json()["net"] for s in settled.seats} == expected["seats"]
        assert settled.to_json()["house"] == expected["house"]
        for seat in settled.to_json()["seats"]:
            for w in seat["wagers"].values():
                assert _cents(w["amount"]) and _cents(w["net"])


@pytest.mark.parametrize("ratio", [Fraction(7, 3), Fraction(5, 6), Fraction(1, 7), Fraction(3, 2)])
@given(cents=st.integers(1, 10**11))
def test_a_payout_is_whole_cents_never_more_than_exact(ratio: Fraction, cents: int) -> None:
    stake = Decimal(cents) / 100
    paid, exact = payout_of(stake, ratio)
    assert paid == paid.quantize(Decimal("0.01"))
    assert exact == Fraction(cents, 100) * ratio  # the exact figure is exact
    assert Fraction(paid) <= exact < Fraction(paid) + Fraction(1, 100)


@SOME
@given(game_id=st.sampled_from(BANKING), seed=st.integers(0, 2**32), min_wager=_min_wagers)
def test_simulate_conserves_money_to_the_cent_and_repeats_for_a_seed(
    game_id: str, seed: int, min_wager: Decimal
) -> None:
    rules = _rules(game_id, min_wager, example=True)
    seats = rules.max_seats()
    stats = run(rules, 60, seed, seats, chunk=25)
    assert stats.balanced_rounds == 60
    data = summary_json(stats)
    for w in data["wagers"].values():
        assert _cents(w["handle"]) and _cents(w["player_net"])
    again = summary_json(run(_rules(game_id, min_wager, example=True), 60, seed, seats, chunk=25))
    assert again == data


@SOME
@given(
    encoding=st.sampled_from(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"]),
    depth=st.integers(51, 200_000),
)
def test_a_log_in_another_encoding_or_too_deep_is_refused_at_its_line(
    tmp_path: Path, encoding: str, depth: int
) -> None:
    record = {"round": 1, "game": "lunar-poker", "strategy": "básico", "seats": []}
    other = tmp_path / "other.jsonl"
    other.write_bytes((json.dumps(record, ensure_ascii=False) + "\n").encode(encoding))
    with pytest.raises(LoadError) as e:
        _read_spec(other, 1)
    assert e.value.line >= 1 and ("UTF-8" in e.value.message or "UTF-16" in e.value.message)
    deep = tmp_path / "deep.jsonl"
    deep.write_text("\n" + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    with pytest.raises(LoadError) as e:
        _read_spec(deep, None)
    assert e.value.line == 2 and "nesting deeper" in e.value.message


def _paytable_wagers() -> list[tuple[str, str, list[str]]]:
    out = []
    for game_id in ("four-card-poker", "high-card-flush"):
        for wid, wager in load_game(game_id).definition.wagers.items():
            for table in wager.tables.values():
                letters = list(table.letters)
                if table.selectable and len(letters) > 1 and table.meters is None:
                    out.append((game_id, wid, letters))
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_paytable_diff_is_antisymmetric(data: st.DataObject) -> None:
    game_id, wager, letters = data.draw(st.sampled_from(_paytable_wagers()))
    a, b = data.draw(st.permutations(letters))[:2]

    def diff(old: str, new: str) -> dict:
        args = ["diff", game_id, "--wager", wager, "--paytable", old, "--to", new]
        out = runner.invoke(app, [*args, "--format", "json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    there, back = diff(a, b), diff(b, a)
    assert len(there["changes"]) == len(back["changes"]) == 1
    h1, h2 = there["changes"][0]["hold_percent"], back["changes"][0]["hold_percent"]
    if h1 is not None:  # each figure null where the odds engine gives none (the Bad Beat)
        assert h1["old"] == h2["new"] and h1["new"] == h2["old"]
        if h1["delta"] is not None:
            assert h1["delta"] == pytest.approx(-h2["delta"], abs=1e-9)
    rows = {r["hand"]: (r["old"], r["new"]) for r in there["changes"][0]["hands"]}
    assert rows == {r["hand"]: (r["new"], r["old"]) for r in back["changes"][0]["hands"]}


_names = (
    st.lists(st.sampled_from([*"ab []/<>&\"'$%\\", "[bold]", "[/]", "<script>"]), max_size=12)
    .map("".join)
    .filter(lambda s: s.strip() != "")
)


@SOME
@given(facility=_names, low=st.integers(1, 50_000), span=st.integers(0, 100_000))
def test_signage_prints_the_facility_as_written_and_the_limits_exactly(
    tmp_path: Path, facility: str, low: int, span: int
) -> None:
    from validator.model.notation import format_money

    text = (EXAMPLES / "high-card-flush.yaml").read_text(encoding="utf-8")
    low_d, high_d = Decimal(low) / 100 * 5, Decimal(low + span) / 100 * 5
    text = text.replace("facility: Example Downs", f"facility: {json.dumps(facility)}")
    text = text.replace(
        "min_wager: 10, max_wager: 1000",
        f'min_wager: "${low_d:.2f}", max_wager: "${high_d:.2f}"',
    )
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["signage", str(path), "--force"], env={"COLUMNS": "300"})
    assert out.exit_code in (0, 1), out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), out.output
    assert facility in out.stdout
    assert format_money(low_d) in out.stdout and format_money(high_d) in out.stdout
    html = runner.invoke(app, ["signage", str(path), "--force", "--format", "html"])
    assert html.exception is None or isinstance(html.exception, SystemExit)
    assert "<script>" not in html.stdout


@pytest.mark.parametrize(
    # one amount in the quick subset; the others take the same branch (full suite)
    "cents",
    [7, pytest.param(1001, marks=pytest.mark.slow), pytest.param(33, marks=pytest.mark.slow)],
)
def test_both_engines_round_a_payout_that_is_not_whole_cents_the_same(cents: int) -> None:
    """Aces Up at 7 to 3 and 5 to 6 on a $0.07 (or $10.01, $0.33) Ante: the scalar engine
    (settle, play) and the batch engine (simulate) pay the same cents, rounded down."""
    from test_interpreter_batch import _both

    from validator.model.notation import parse_payout

    rules = _rules("four-card-poker", Decimal(cents) / 100)
    odd = {"four_of_a_kind": "7 to 3", "straight_flush": "7 to 3", "three_of_a_kind": "5 to 6"}
    rows = {"flush": "5 to 6", "straight": "7 to 3", "two_pair": "5 to 6", "pair_of_aces": "1 to 7"}
    rules.config.custom_paytables["aces_up"] = {
        k: parse_payout(v) for k, v in {**odd, **rows}.items()
    }
    compared, _ = _both("four-card-poker", 7, 300, 5, rules=rules)
    assert compared >= 300 * 7 * 2
