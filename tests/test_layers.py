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
            "clock",
            "errors",
            "files",
            "jsonout",
            "pointer",
            "loader",
            "cards",
            "markdown",
            "money",
            "counts",
            "wrapping",
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


# -- inside a folder: modules, not only stages -------------------------------------------


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULE_NAMES = {_module_of(p): p for p in MODULES}


def _at_import(tree: ast.Module) -> list[ast.stmt]:
    """The statements a module runs when imported: its top level, inside ``if``/``try``
    blocks too, but never under ``if TYPE_CHECKING`` nor inside a function or class body."""
    out: list[ast.stmt] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If):
            test = ast.unparse(node.test)
            if test.endswith("TYPE_CHECKING"):
                todo.extend(node.orelse)
                continue
            todo.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
    return out


def _targets(module: str, node: ast.stmt) -> set[str]:
    """The modules of validator an import statement loads."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            is_package = MODULE_NAMES.get(module, Path()).name == "__init__.py"
            base = module.split(".")[: len(module.split(".")) - node.level + is_package]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        names = [  # a submodule named by ``from package import module``, else the package
            f"{source}.{a.name}" if f"{source}.{a.name}" in MODULE_NAMES else source
            for a in node.names
        ]
    found = set()
    for name in names:  # the module itself; the packages above it are not counted: a
        parts = name.split(".")  # package's __init__ may import its own modules
        for n in range(len(parts), 0, -1):
            if ".".join(parts[:n]) in MODULE_NAMES:
                found.add(".".join(parts[:n]))
                break
    return found - {module}


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULE_NAMES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_targets(name, s) for s in _at_import(tree)))
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_modules_at_import_time() -> None:
    """Inside a folder as across stages: a module imported first never needs, while it is
    being imported, a module that needs it back (imports inside functions are the cure for
    a cycle only where the two modules really are one concept)."""
    cycles = _cycles(_import_graph())
    assert not cycles, "\n".join(" ↔ ".join(c) for c in cycles)


def test_the_import_graph_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
