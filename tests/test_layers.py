"""Data goes one way (DESIGN.md): load → model → engines → documents → store → report → cli.

A module may import from its own stage or a lower one, never from a higher one, so that a
reader finds the room for a change from the stage it belongs to, and an engine never depends
on the command line that drives it. Imports inside functions and under TYPE_CHECKING count
too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "validator"

#: The stages, lowest first. A name is a top-level module or subpackage of ``validator``.
STAGES: tuple[frozenset[str], ...] = (
    # foundations
    frozenset(
        {
            "__init__",
            "cache",
            "errors",
            "files",
            "jsonout",
            "pointer",
            "loader",
            "cards",
            "markdown",
            "money",
        }
    ),
    frozenset({"model", "vocabulary"}),  # what a game and a submission are; the words they use
    frozenset({"rankings"}),  # hand evaluation
    frozenset({"compiler"}),  # a game file compiled: the model with its evaluators
    frozenset({"odds", "interpreter", "checks"}),  # the engines
    frozenset({"diff", "signage", "par"}),  # documents derived from a game
    # the vocabulary's reference page (docs/vocabulary.md): where every game uses each word
    frozenset({"vocabulary.reference", "vocabulary.usage", "vocabulary.__main__"}),
    frozenset({"store", "report"}),  # records and finding formats
    frozenset({"review"}),  # the pack printed from the store
    frozenset({"web"}),  # the office's view
    frozenset({"cli"}),  # the commands
)
STAGE = {name: i for i, names in enumerate(STAGES) for name in names}


def _named(parts: list[str]) -> str:
    """The stage name of a module given by its parts below ``validator``: the module itself
    where STAGES names it (``vocabulary.reference``), else its top-level package."""
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in STAGE and (n == 1 or name != parts[0]):
            return name
    return parts[0]


def _stage_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return _named(parts)


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, top-level part of validator) of every import of validator in a module."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] != "validator":
                continue
            if len(parts) > 1:
                out.append((node.lineno, _named(parts[1:])))
            else:  # from validator import X: a name of the package root, or a subpackage
                for alias in node.names:
                    name = alias.name if alias.name in STAGE else "__init__"
                    out.append((node.lineno, name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "validator":
                    out.append((node.lineno, _named(parts[1:]) if len(parts) > 1 else "__init__"))
    return out


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_stage() -> None:
    unknown = sorted({_stage_of(p) for p in MODULES} - set(STAGE))
    assert not unknown, f"give these a stage in STAGES: {unknown}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_from_a_higher_stage(path: Path) -> None:
    own = _stage_of(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    upward = [
        f"line {line}: {own} (stage {STAGE[own]}) imports validator.{target} "
        f"(stage {STAGE[target]})"
        for line, target in _imported(tree)
        if target in STAGE and STAGE[target] > STAGE[own]
    ]
    assert not upward, "\n".join(upward)
