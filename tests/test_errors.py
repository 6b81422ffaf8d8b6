"""One base for every error rulesub raises (validator.errors.RulesubError), so that one place
turns each into what the officer reads and the exit code the command stops with."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from validator.errors import ConfigError, LocatedErrors, RulesubError, messages
from validator.loader import LoadError

PACKAGE = Path(__file__).resolve().parent.parent / "validator"


def _module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if "migrations" in parts or parts[-1] == "__main__":
            continue  # run by alembic / as a script, never imported as a module
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def _exception_classes() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for name in _module_names():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
            ):
                found.append(value)
    return found


def test_every_exception_class_of_the_package_derives_from_the_one_base() -> None:
    classes = _exception_classes()
    assert len(classes) >= 25, [c.__qualname__ for c in classes]  # every module was seen
    strays = [
        f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, RulesubError)
    ]
    assert not strays, f"derive these from validator.errors.RulesubError: {strays}"


def test_one_config_error_for_the_configuration_and_the_submission() -> None:
    from validator.checks import config as checks_config
    from validator.interpreter import settings

    assert checks_config.ConfigError is settings.ConfigError is ConfigError


def test_callers_catching_the_builtin_kinds_still_catch_them() -> None:
    from validator.cards import CardError
    from validator.files import WriteError
    from validator.model.notation import NotationError
    from validator.vocabulary.registry import UnknownWord

    assert issubclass(CardError, ValueError) and issubclass(NotationError, ValueError)
    assert issubclass(UnknownWord, LookupError)
    assert issubclass(WriteError, OSError)
    e = WriteError(28, "no space left on the device", "out.json")
    assert (e.errno, e.strerror, e.filename) == (28, "no space left on the device", "out.json")


def test_an_error_carries_its_place_code_and_exit_code() -> None:
    e = RulesubError("no such wager", file="sub.yaml", line=4, column=3, code="rulesub/x")
    assert (e.file, e.line, e.column, e.code, e.exit_code) == ("sub.yaml", 4, 3, "rulesub/x", 2)
    assert e.where() == "sub.yaml:4:3: "
    assert RulesubError("plain").where() == ""
    assert messages(e) == ["rulesub: no such wager"]
    assert messages(RulesubError("x"), "a.yaml:1:1: ") == ["rulesub: a.yaml:1:1: x"]


@pytest.mark.parametrize(
    ("error", "lines"),
    [
        (ConfigError("rulesub.toml: not UTF-8 text"), ["rulesub: rulesub.toml: not UTF-8 text"]),
        (
            ConfigError([LoadError("s.yaml", 3, 5, "/table: no"), LoadError("s.yaml", 9, 1, "x")]),
            ["s.yaml:3:5: /table: no", "s.yaml:9:1: x"],
        ),
    ],
)
def test_a_configuration_error_reads_as_one_message_or_each_problem_at_its_place(
    error: LocatedErrors, lines: list[str]
) -> None:
    assert messages(error) == lines
    assert str(error) == "\n".join(line.removeprefix("rulesub: ") for line in lines)


def test_the_one_place_says_an_error_and_stops_with_its_exit_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import typer

    from validator.cli.common import refuse
    from validator.model.registry import GameFileError

    class _Stale(RulesubError):
        exit_code = 1

    with pytest.raises(typer.Exit) as stopped:
        refuse(_Stale("the approval is stale"), "sub.yaml:2:1: ")
    assert stopped.value.exit_code == 1
    assert capsys.readouterr().err == "rulesub: sub.yaml:2:1: the approval is stale\n"
    broken = GameFileError(
        [LoadError("g.yaml", 4, 7, "no such wager"), LoadError("g.yaml", 9, 2, "x")]
    )
    with pytest.raises(typer.Exit) as stopped:
        refuse(broken)
    assert stopped.value.exit_code == 2
    assert capsys.readouterr().err == "g.yaml:4:7: no such wager\ng.yaml:9:2: x\n"
