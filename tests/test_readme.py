"""The README's examples cannot go stale: every ``console`` block is run, command by command,
against the shipped files, and what it prints is compared with what the README shows.

In a block, a line ``$ COMMAND`` is run (in process, from the checkout); the lines after it,
up to the next ``$``, are what it prints (stdout and stderr together). ``…`` stands for
anything (a line of it for any lines); runs of spaces and line breaks compare equal (a
terminal wraps where it likes), and so do JSON's brackets with and without spaces around them;
the terminal is 100 columns wide; ``$ echo $?`` prints the last command's exit code. A few
examples need a file the checkout does not ship (a game file with a mistyped hand, an
earlier submission): ``SETUP`` makes it in a scratch directory the command runs in, and that
directory's path is read as ``.``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import in_process

from validator import PROJECT_ROOT

README = PROJECT_ROOT / "README.md"


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)


def console_blocks(text: str) -> list[tuple[int, list[Step]]]:
    """(first line, steps) of every ```console block."""
    blocks: list[tuple[int, list[Step]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start, steps = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                line = lines[i]
                if line.startswith("$ "):
                    steps.append(Step(line[2:]))
                elif steps:
                    steps[-1].expected.append(line)
                i += 1
            blocks.append((start, steps))
        i += 1
    return blocks


def brackets_tight(text: str) -> str:
    """JSON laid out one way or another reads the same: no space around brackets."""
    return re.sub(r"\s*([{}\[\]])\s*", r"\1", text)


def pattern(expected: list[str]) -> re.Pattern[str]:
    """The README's text as a pattern: ``…`` any text, whitespace any whitespace."""
    text = brackets_tight("\n".join(expected).strip())
    parts = []
    for piece in text.split("…"):
        words = piece.split()
        parts.append(r"\s+".join(re.escape(w) for w in words) if words else "")
    joined = r"[\s\S]*?".join(parts)
    return re.compile(r"\s*" + joined + r"\s*", re.DOTALL)


def _mistyped_game(where: Path) -> dict[str, str]:
    games = where / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    path = games / "four-card-poker.yaml"
    text = path.read_text(encoding="utf-8")
    assert "pair_of_aces:" in text
    path.write_text(text.replace("pair_of_aces:", "pair_of_ace:", 1), encoding="utf-8")
    return {"RULESUB_GAMES_DIR": str(games)}


def _old_submission(where: Path) -> dict[str, str]:
    (where / "old").mkdir()
    shutil.copytree(PROJECT_ROOT / "rulesubs", where / "rulesubs")
    text = (PROJECT_ROOT / "rulesubs/example/four-card-poker.yaml").read_text(encoding="utf-8")
    assert "aces_up: C" in text
    (where / "old" / "four-card-poker.yaml").write_text(
        text.replace("aces_up: C", "aces_up: A", 1), encoding="utf-8"
    )
    return {}


def _broken_submission(where: Path) -> dict[str, str]:
    shutil.copytree(PROJECT_ROOT / "rulesubs", where / "rulesubs")
    text = (PROJECT_ROOT / "rulesubs/example/four-card-poker.yaml").read_text(encoding="utf-8")
    assert "aces_up: C" in text
    (where / "broken.yaml").write_text(text.replace("aces_up: C", "aces_up: G", 1), "utf-8")
    return {}


def _meter_500(where: Path) -> dict[str, str]:
    text = (PROJECT_ROOT / "rulesubs/example/four-card-poker.yaml").read_text(encoding="utf-8")
    assert 'primary: {seed: "$1,000"' in text
    (where / "meter-500.yaml").write_text(
        text.replace('primary: {seed: "$1,000"', 'primary: {seed: "$500"', 1), "utf-8"
    )
    return {}


#: Files an example needs that the checkout does not ship, by a word of its command.
SETUP: dict[str, Callable[[Path], dict[str, str]]] = {
    "`pair_of_ace:` mistyped": _mistyped_game,
    "old/four-card-poker.yaml": _old_submission,
    "broken.yaml": _broken_submission,
    "meter-500.yaml": _meter_500,
}


BLOCKS = console_blocks(README.read_text(encoding="utf-8"))


def _params() -> list[object]:
    """One case per block; a block that computes a whole par sheet is slow."""
    return [
        pytest.param(
            i,
            id=f"line-{start}",
            marks=[pytest.mark.slow] if any(" par " in s.command for s in steps) else [],
        )
        for i, (start, steps) in enumerate(BLOCKS)
    ]


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", _params())
def test_readme_console_block(index: int, tmp_path: Path) -> None:
    start, steps = BLOCKS[index]
    last_code: int | None = None
    cwd = PROJECT_ROOT
    env_extra: dict[str, str] = {}
    for key, setup in SETUP.items():
        if any(key in s.command for s in steps):
            env_extra.update(setup(tmp_path))
            cwd = tmp_path
    for step in steps:
        argv = shlex.split(step.command, comments=True)
        if argv == ["echo", "$?"]:
            assert [str(last_code)] == [x.strip() for x in step.expected if x.strip()], start
            continue
        assert argv[0] == "rulesub", f"README line {start}: {step.command}"
        import os

        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "RULESUB_GAMES_DIR")}
        env.update({"COLUMNS": "100", **env_extra})
        if "RULESUB_GAMES_DIR" in env_extra:  # module defaults read the games dir at import
            done = subprocess.run(
                [sys.executable, "-c", "from validator.cli import main; main()", *argv[1:]],
                capture_output=True,
                text=True,
                env=env,
                cwd=cwd,
                timeout=120,
            )
        else:
            done = in_process(argv[1:], env, cwd)
        last_code = done.returncode
        printed = (done.stdout + done.stderr).replace(str(tmp_path) + "/", "")
        printed = printed.replace(str(PROJECT_ROOT) + "/", "")
        if not step.expected:
            continue
        assert pattern(step.expected).fullmatch(brackets_tight(printed)), (
            f"README line {start}: `{step.command}` printed:\n{printed}"
        )


def test_the_round_file_settles_where_the_readme_saves_it(tmp_path: Path) -> None:
    """The README's round file, saved as it says (``round.yaml`` at the checkout's root, the
    submission it names beside it), settles as written: exit 0."""
    found = re.search(
        r"A round file \(the contract.*?```yaml\n(.*?)```", README.read_text("utf-8"), re.S
    )
    assert found is not None and "saved as `round.yaml` at the checkout's root" in found.group(0)
    shutil.copytree(PROJECT_ROOT / "rulesubs" / "example", tmp_path / "rulesubs" / "example")
    (tmp_path / "round.yaml").write_text(found.group(1), "utf-8")
    done = in_process(["settle", "round.yaml"], {"COLUMNS": "100"}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Lunar Poker: settlement" in done.stdout and "house result: -$70" in done.stdout


def test_the_pre_commit_snippet_names_this_release_and_a_hook_it_has() -> None:
    """The README's pre-commit snippet works as written: its hook is the one
    .pre-commit-hooks.yaml declares, its rev this release's tag (CI runs it:
    .ci/install-check)."""
    import yaml

    from validator import __version__

    text = README.read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", text, re.S)
    assert found is not None
    config = yaml.safe_load(found.group(1))
    (repo,) = config["repos"]
    assert repo["rev"] == f"v{__version__}"
    hooks = yaml.safe_load((PROJECT_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in repo["hooks"]] == [hooks[0]["id"]]
    changelog = (PROJECT_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {__version__}\n" in changelog


def test_the_readmes_rules_submission_is_one_validate_passes_clean(tmp_path: Path) -> None:
    """The README's Rules Submission, "as the examples write it", is one a reader can copy:
    no error, no warning (it once stated a payout limit ch. 641a provides for none)."""
    import json

    from typer.testing import CliRunner

    from validator.cli import app

    text = README.read_text(encoding="utf-8")
    start = text.index("```yaml", text.index("A Rules Submission, as the examples")) + len(
        "```yaml"
    )
    block = text[start : text.index("```", start)]
    path = tmp_path / "readme.yaml"
    path.write_text(block, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["findings"] == []
