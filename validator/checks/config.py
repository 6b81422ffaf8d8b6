"""Project configuration: ``rulesub.toml``, or ``[tool.rulesub]`` in ``pyproject.toml``.

As ruff reads its settings, the nearest configuration file from the current directory
upwards is used (``rulesub.toml`` before ``pyproject.toml`` in one directory), or the one
``--config`` names. Paths and globs in it are relative to the directory it sits in::

    [tool.rulesub]                       # in rulesub.toml: the same keys at the top level
    exclude = ["drafts", "archive/**"]   # never checked when found in a directory
    fail-on = "warning"                  # error (default) | warning | info | never
    office = "Bureau of Gaming Operations"  # the office named on the review pack's cover

    [tool.rulesub.per-file-ignores]      # glob -> {code: the reason it is waived}
    "rulesubs/lunar-*.yaml" = { "lunar-poker/super-hold" = "the chapter's own tables" }

Every waiver states its reason: a waiver without one is refused, as is any key rulesub does
not know (a misspelt ``exclude`` would otherwise check what was meant to be skipped).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from validator.checks.findings import FAIL_ON
from validator.errors import ConfigError

CONFIG_FILES = ("rulesub.toml", "pyproject.toml")
KEYS = ("exclude", "extend-exclude", "fail-on", "per-file-ignores", "office")

#: Never walked into when a directory is checked (a project's own exclude adds to these).
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
)


@dataclass(frozen=True)
class ConfigWaiver:
    pattern: str  # a glob relative to the configuration's directory
    code: str
    reason: str


@dataclass(frozen=True)
class Settings:
    root: Path  # globs are relative to this
    source: Path | None = None  # the file read; None: no configuration
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    fail_on: str | None = None
    ignores: tuple[ConfigWaiver, ...] = field(default_factory=tuple)
    #: Check against the rules in force on this date, not each submission's `effective:`.
    as_of: dt.date | None = None
    office: str | None = None

    def excluded(self, path: Path) -> bool:
        return matches_any(path, self.exclude, self.root)

    def waivers_for(self, path: Path) -> list[ConfigWaiver]:
        return [w for w in self.ignores if matches(path, w.pattern, self.root)]


def find_config(start: Path) -> Path | None:
    """The nearest ``rulesub.toml`` or ``pyproject.toml`` with ``[tool.rulesub]``."""
    here = start.resolve()
    for directory in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name == "rulesub.toml":
                return candidate
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if re.search(r"^\s*\[tool\.rulesub(\]|\.)", text, re.M):
                return candidate
    return None


def load_settings(config: Path | None = None, *, cwd: Path | None = None) -> Settings:
    """The settings in force: the file given, else the nearest one, else the defaults."""
    cwd = cwd or Path.cwd()
    path = config if config is not None else find_config(cwd)
    if path is None:
        return Settings(root=cwd)
    from validator.loader import LoadError, read_bytes

    try:  # the one reader: a regular file, at most a megabyte (a FIFO never blocks)
        raw = read_bytes(path)
    except LoadError as e:
        raise ConfigError(str(e)) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path}: arrays or tables nested too deeply to read") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("rulesub", {}) if isinstance(tool, dict) else None
        where = "[tool.rulesub]"
    else:  # the file itself is the table, whatever its name (``--config FILE``)
        table = data
        where = ""
    return _settings(table, path, where, raw.decode("utf-8"))


def _line_of(text: str, key: str, where: str) -> int | None:
    """The line a setting's key is written on (in its table, past ``[tool.rulesub]`` in a
    pyproject.toml), for a message to point at; ``None`` where it cannot be found."""
    start = 0
    if where:
        header = re.search(r"^[ \t]*\[tool\.rulesub\]", text, re.M)
        start = header.end() if header else 0
    written = rf"^[ \t]*\[?[ \t]*(?:tool\.rulesub\.)?[\"']?{re.escape(key)}[\"']?[ \t]*[=.\]]"
    found = re.compile(written, re.M).search(text, start)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _settings(table: Any, path: Path, where: str, text: str = "") -> Settings:
    def bad(key: str, expected: str) -> ConfigError:
        named = " ".join(w for w in (where, key) if w)
        line = _line_of(text, key.split(".")[0], where) if key else None
        at = f"{path}:{line}" if line else f"{path}"
        return ConfigError(f"{at}: {named + ': ' if named else ''}expected {expected}")

    if not isinstance(table, dict):
        raise bad("", "a table of settings")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        from validator.loader import did_you_mean

        line = _line_of(text, unknown[0], where)
        raise ConfigError(
            f"{path}{f':{line}' if line else ''}: {where + ': ' if where else ''}"
            f"unknown key {unknown[0]!r}"
            f"{did_you_mean(unknown[0], KEYS)}; "
            f"the keys are: {', '.join(KEYS)}"
        )

    def globs(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise bad(key, "a list of glob patterns (strings)")
        return tuple(value)

    exclude = globs("exclude") if "exclude" in table else DEFAULT_EXCLUDE
    exclude += globs("extend-exclude")
    fail_on = table.get("fail-on")
    if fail_on is not None and (not isinstance(fail_on, str) or fail_on not in FAIL_ON):
        raise bad("fail-on", f"one of {', '.join(FAIL_ON)}")
    office = table.get("office")
    if office is not None and (not isinstance(office, str) or not office.strip()):
        raise bad("office", "the office's name (a string)")
    ignores: list[ConfigWaiver] = []
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise bad("per-file-ignores", 'a table of glob = { "CODE" = "reason" }')
    for pattern, codes in per_file.items():
        key = f"per-file-ignores.{pattern!r}"
        if not isinstance(codes, dict) or not codes:
            raise bad(key, '{ "CODE" = "the reason it is waived" } (every waiver needs a reason)')
        for code, reason in codes.items():
            if not isinstance(reason, str) or not reason.strip():
                raise bad(f"{key}.{code!r}", "the reason the finding is waived (a string)")
            ignores.append(ConfigWaiver(pattern, code, reason.strip()))
    return Settings(
        root=path.parent.resolve(),
        source=path,
        exclude=exclude,
        fail_on=fail_on,
        ignores=tuple(ignores),
        office=office.strip() if office else None,
    )


# -- globs ---------------------------------------------------------------------------------


def _regex(pattern: str) -> re.Pattern[str]:
    """A glob as ruff and .gitignore read it: ``*`` within a name, ``**`` across folders."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(c, re.escape(c)))
        i += 1
    return re.compile("".join(out) + "(?:/.*)?")


def matches(path: Path, pattern: str, root: Path) -> bool:
    """``pattern`` without a slash matches any file or folder name on the path; with one,
    the path relative to ``root`` (or a folder above it)."""
    pattern = pattern.rstrip("/")
    try:
        rel = PurePosixPath(path.resolve().relative_to(root).as_posix())
    except (ValueError, OSError, RuntimeError):  # outside root, or a loop of links
        rel = PurePosixPath(path.as_posix())
    if "/" not in pattern:
        rx = _regex(pattern)
        return any(rx.fullmatch(part) for part in rel.parts)
    return bool(_regex(pattern.removeprefix("./")).fullmatch(str(rel)))


def matches_any(path: Path, patterns: tuple[str, ...], root: Path) -> bool:
    return any(matches(path, p, root) for p in patterns)
