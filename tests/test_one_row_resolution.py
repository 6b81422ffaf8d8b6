"""Which paytable row a hand is paid on is resolved once (``validator.model.rows.paid_row``):
its own row, else the nearest category it refines that has one, as a chapter pays "four
aces" as four-of-a-kind where the paytable prints no four-aces row (§ 641a.12(a)). The
scalar engine, the batch engine, the odds and the checks all follow it."""

from __future__ import annotations

import ast

import pytest

from validator import PROJECT_ROOT
from validator.compiler import all_games
from validator.interpreter.batch_settlement import PayTable
from validator.interpreter.config import TableConfig
from validator.interpreter.rules import Rules
from validator.model.rows import paid_row

PACKAGE = PROJECT_ROOT / "validator"


def _walks_refinements_against_rows(tree: ast.AST) -> list[int]:
    """Lines of ``while`` loops that climb ``refines`` while testing membership in a table:
    a second row resolver."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.While):
            continue
        text = ast.unparse(node.test)
        if "refines" in text and " not in " in text:
            out.append(node.lineno)
    return out


def test_no_module_resolves_a_paytable_row_of_its_own() -> None:
    found = {
        str(p.relative_to(PROJECT_ROOT)): lines
        for p in sorted(PACKAGE.rglob("*.py"))
        if p != PACKAGE / "model" / "rows.py"
        and (lines := _walks_refinements_against_rows(ast.parse(p.read_text(encoding="utf-8"))))
    }
    assert not found, f"resolve rows with validator.model.rows.paid_row: {found}"


def test_a_refinement_without_a_row_is_paid_as_the_category_it_refines() -> None:
    refines = {"four_aces": "four_of_a_kind", "four_of_a_kind": None, "pair": None}
    assert paid_row("four_aces", refines, {"four_of_a_kind": 1}) == "four_of_a_kind"
    assert paid_row("four_aces", refines, {"four_aces": 2, "four_of_a_kind": 1}) == "four_aces"
    assert paid_row("pair", refines, {"four_of_a_kind": 1}) is None


def _tables(rules: Rules) -> list[tuple[str, str, dict]]:
    out = []
    for _, table_id, table in rules.d.tables():
        if table.pays_on is None:
            continue
        for letter, rows in (table.paytables or {}).items():
            out.append((table_id, letter, rows))
        if table.paytable:
            out.append((table_id, "", table.paytable))
    return out


BANKING = [g for g in all_games() if g.definition.kind == "banking"]


@pytest.mark.parametrize("game", BANKING, ids=lambda g: g.id)
def test_both_engines_pay_every_category_on_the_same_row(game: object) -> None:
    """Every category of every paytable's hand, for every letter the chapter prints: the
    scalar evaluator's row (``Evaluator.row_for``) and the batch engine's (``PayTable``)
    name the same row, or both none."""
    rules = Rules(game, TableConfig.defaults(game))  # type: ignore[arg-type]
    checked = 0
    for table_id, letter, rows in _tables(rules):
        hand = rules.table(table_id).pays_on
        ev = rules.evaluator(hand)
        batch = PayTable(rules, table_id, rows, hand)
        names = list(rows)
        for i, category in enumerate(ev.categories):
            scalar = ev.row_for(category, rows)
            index = int(batch.of_category[i])
            vectorised = names[index] if index >= 0 else None
            assert (scalar.id if scalar else None) == vectorised, (table_id, letter, category.id)
            checked += 1
    assert checked > 0
