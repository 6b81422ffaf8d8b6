"""`rulesub validate` read as a linter: one line per finding, waivers with reasons, project
configuration, directory discovery, and the command line's plain words (issue: rulesub works
from any install, and reads like a linter)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import in_process

from validator import PROJECT_ROOT

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed"
LUNAR = EXAMPLES / "lunar-poker.yaml"
SUPER_HOLD = "lunar-poker/super-hold"


def rulesub(
    *args: str, cwd: Path | None = None, columns: int | None = 80, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "RULESUB_GAMES_DIR")}
    if columns is not None:
        e["COLUMNS"] = str(columns)
    e.update(env or {})
    if "RULESUB_GAMES_DIR" not in e and "--games" not in args:
        return in_process(args, e, cwd)
    return subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=e,
        timeout=120,
    )


def lunar_text() -> str:
    """The example, effective on a date ch. 589 was in force (before 46 Pa.B. 5540 rescinded
    it), so that its only warning is the one the waivers here are about."""
    return LUNAR.read_text(encoding="utf-8").replace(
        "effective: 2027-01-01", "effective: 2015-01-01"
    )


def super_line(text: str) -> int:
    """The line the Super Wager hold warning points at (the paytable selected)."""
    done = rulesub("validate", "--format", "json", str(LUNAR))
    finding = next(f for f in json.loads(done.stdout)["findings"] if f["code"] == SUPER_HOLD)
    return int(finding["line"])


# -- the concise report ---------------------------------------------------------------------


def test_concise_report_one_line_per_finding_at_80_columns() -> None:
    done = rulesub("validate", *map(str, sorted(FLAWED.glob("fcp-*.yaml"))))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    codes = json.loads(
        rulesub("validate", "--format", "json", *map(str, sorted(FLAWED.glob("fcp-*.yaml")))).stdout
    )["findings"]
    for line in lines:
        # wrapped between words only: a line is longer than 80 only if one word is
        assert len(line) <= 80 or " " not in line.strip(), line
    text = "\n".join(lines)
    for f in codes:
        assert f["code"] in text.split(), f"{f['code']} cut or missing"
        assert f"{f['file']}:{f['line']}:{f['column']}: {f['severity']}" in text
    assert lines[-1] == "8 files checked: 20 errors, 1 warning, 0 info" or lines[-1].startswith(
        "8 files checked:"
    )


def test_concise_report_unwrapped_in_a_pipe() -> None:
    """No width set and no terminal: every finding is one grep-able line, hint under it."""
    done = rulesub("validate", str(FLAWED / "hcf-payout-limit.yaml"), columns=None)
    lines = done.stdout.splitlines()
    data = json.loads(
        rulesub("validate", "--format", "json", str(FLAWED / "hcf-payout-limit.yaml")).stdout
    )
    assert len(lines) == 2 * len(data["findings"]) + 1  # a line and a hint line each, a summary
    i = next(i for i, x in enumerate(lines) if "high-card-flush/payout-limit-floor" in x)
    first, hint = lines[i], lines[i + 1]
    assert first.startswith("rulesubs/flawed/hcf-payout-limit.yaml:12:15: error ")
    assert first.endswith("[§ 678a.12(e)]")
    assert hint.startswith("    hint: payout_limit: ")
    assert lines[-1].startswith("1 file checked: 1 error, 0 warnings, ")


def test_markup_in_user_text_is_printed_as_written(tmp_path: Path) -> None:
    bad = tmp_path / "markup.yaml"
    bad.write_text(lunar_text().replace("facility:", "'[/]x[bold]': 1\nfacility:"))
    for fmt in ("concise", "full"):
        done = rulesub("validate", "--output-format", fmt, str(bad), columns=300)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert "[/]x[bold]" in done.stdout


# -- waivers ----------------------------------------------------------------------------------


def test_inline_waiver_with_reason_is_suppressed_and_not_counted(tmp_path: Path) -> None:
    text = lunar_text()
    line = super_line(text)
    lines = text.splitlines()
    lines[line - 1] += "  # rulesub: ignore[lunar-poker/super-hold] -- the chapter's own table"
    sub = tmp_path / "lunar.yaml"
    sub.write_text("\n".join(lines) + "\n")
    assert rulesub("validate", "--fail-on", "warning", str(LUNAR)).returncode == 1
    assert (
        rulesub("validate", "--fail-on", "warning", str(sub), "--as-of", "2027-01-01").returncode
        == 1
    )
    done = rulesub("validate", "--fail-on", "warning", str(sub))
    assert done.returncode == 0, done.stdout
    assert "(1 waived)" in done.stdout.splitlines()[-1]
    data = json.loads(rulesub("validate", "--format", "json", str(sub)).stdout)
    assert SUPER_HOLD not in {f["code"] for f in data["findings"]}
    (waived,) = data["suppressed"]
    assert waived["code"] == SUPER_HOLD and waived["reason"] == "the chapter's own table"
    assert waived["waiver"] == "inline" and data["summary"]["suppressed"] == 1
    sarif = json.loads(rulesub("validate", "--format", "sarif", str(sub)).stdout)
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == SUPER_HOLD]
    assert result["suppressions"] == [
        {"kind": "inSource", "status": "accepted", "justification": "the chapter's own table"}
    ]
    md = rulesub("validate", "--format", "markdown", str(sub)).stdout
    assert "Waived (1)" in md and "the chapter's own table" in md


def test_waiver_without_reason_waives_nothing(tmp_path: Path) -> None:
    text = lunar_text()
    lines = text.splitlines()
    lines[super_line(text) - 1] += "  # rulesub: ignore[lunar-poker/super-hold]"
    sub = tmp_path / "lunar.yaml"
    sub.write_text("\n".join(lines) + "\n")
    data = json.loads(rulesub("validate", "--format", "json", str(sub)).stdout)
    codes = {f["code"] for f in data["findings"]}
    assert {SUPER_HOLD, "rulesub/waiver-without-reason"} <= codes
    assert "suppressed" not in data


def test_unused_and_file_level_waivers(tmp_path: Path) -> None:
    sub = tmp_path / "lunar.yaml"
    sub.write_text(
        "# rulesub: file-ignore[lunar-poker/super-hold] -- all three chapter tables\n"
        + lunar_text()
        + "# rulesub: ignore[lunar-poker/max-positions] -- nothing here\n"
    )
    data = json.loads(rulesub("validate", "--format", "json", str(sub)).stdout)
    assert [s["waiver"] for s in data["suppressed"]] == ["file"]
    unused = [f for f in data["findings"] if f["code"] == "rulesub/unused-waiver"]
    assert len(unused) == 1 and "lunar-poker/max-positions" in unused[0]["message"]
    assert unused[0]["severity"] == "warning"


def test_config_per_file_ignores_exclude_and_fail_on(tmp_path: Path) -> None:
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "lunar.yaml").write_text(lunar_text())
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "bad.yaml").write_text((FLAWED / "lunar-poker.yaml").read_text())
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.rulesub]\n"
        'extend-exclude = ["drafts"]\nfail-on = "warning"\n\n'
        "[tool.rulesub.per-file-ignores]\n"
        '"subs/lunar*.yaml" = { "lunar-poker/super-hold" = "the chapter\'s own tables" }\n'
    )
    done = rulesub("validate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 file checked" in done.stdout
    assert "skipped 2 YAML files that are not a Rules Submission" in done.stderr
    assert "excluded 1 path" in done.stderr
    data = json.loads(rulesub("validate", "--format", "json", ".", cwd=tmp_path).stdout)
    assert data["suppressed"][0]["waiver"] == "config"
    # without the waiver, fail-on = "warning" from the configuration fails the run
    (tmp_path / "subs" / "other.yaml").write_text(lunar_text())
    assert rulesub("validate", ".", cwd=tmp_path).returncode == 1
    assert rulesub("validate", "--exclude", "other.yaml", ".", cwd=tmp_path).returncode == 0


def test_config_waiver_needs_a_reason(tmp_path: Path) -> None:
    (tmp_path / "rulesub.toml").write_text(
        '[per-file-ignores]\n"*.yaml" = { "lunar-poker/super-hold" = "" }\n'
    )
    (tmp_path / "lunar.yaml").write_text(lunar_text())
    done = rulesub("validate", "lunar.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "reason" in done.stderr and "Traceback" not in done.stderr


# -- discovery and unreadable entries --------------------------------------------------------


def test_fifo_and_dangling_link_in_a_directory_are_unreadable(tmp_path: Path) -> None:
    (tmp_path / "ok.yaml").write_text(lunar_text())
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "loop").symlink_to(tmp_path)  # a directory link back up: walked once
    done = rulesub("validate", "--format", "json", str(tmp_path))
    assert done.returncode == 2
    unreadable = {
        Path(f["file"]).name
        for f in json.loads(done.stdout)["findings"]
        if f["code"] == "rulesub/unreadable"
    }
    assert unreadable == {"pipe.yaml", "gone.yaml"}
    assert "symbolic link loop" in done.stderr


def test_file_link_loops_and_dangling_links_are_named_as_given(tmp_path: Path) -> None:
    """Two file links pointing at each other, and a dangling link, in a directory given
    relative to the working directory: each is unreadable (exit 2) under its own name, never
    a traceback, and a dangling link is not named after the file it misses."""
    d = tmp_path / "subs"
    d.mkdir()
    (d / "ok.yaml").write_text(lunar_text())
    (d / "a.yaml").symlink_to("b.yaml")
    (d / "b.yaml").symlink_to("a.yaml")
    (d / "gone.yaml").symlink_to("nowhere.yaml")
    for fmt in ("json", "sarif", "text"):
        done = rulesub("validate", "--format", fmt, "subs", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
    done = rulesub("validate", "--format", "json", "subs", cwd=tmp_path)
    unreadable = {
        f["file"]: f["message"]
        for f in json.loads(done.stdout)["findings"]
        if f["code"] == "rulesub/unreadable"
    }
    assert set(unreadable) == {"subs/a.yaml", "subs/b.yaml", "subs/gone.yaml"}
    assert "a symbolic link loop" in unreadable["subs/a.yaml"]
    assert "a dangling symbolic link" in unreadable["subs/gone.yaml"]
    named = rulesub("validate", "subs/gone.yaml", cwd=tmp_path)
    assert named.returncode == 2 and "subs/gone.yaml:1:1: a dangling" in named.stderr


def test_a_submission_saved_with_a_byte_order_mark_or_as_utf16_is_not_passed_over(
    tmp_path: Path,
) -> None:
    """Editors on Windows save UTF-8 with a byte-order mark, or "Unicode" (UTF-16): in a
    directory the first is checked as the same file without the mark, the second reported as
    unreadable, naming its encoding; neither is skipped as YAML that is no submission."""
    text = "".join(ln for ln in lunar_text().splitlines(True) if not ln.startswith("#"))
    assert text.startswith("rulesub:")
    (tmp_path / "marked.yaml").write_bytes(b"\xef\xbb\xbf" + text.encode())
    (tmp_path / "utf16.yaml").write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    (tmp_path / "utf16be.yaml").write_bytes(text.encode("utf-16-be"))
    (tmp_path / "utf32.yaml").write_bytes(text.encode("utf-32"))
    (tmp_path / "workflow.yaml").write_bytes("on: push\n".encode("utf-16"))
    done = rulesub("validate", "--format", "json", str(tmp_path))
    assert done.returncode == 2, done.stderr
    findings = json.loads(done.stdout)["findings"]
    unreadable = {Path(f["file"]).name for f in findings if f["code"] == "rulesub/unreadable"}
    assert unreadable == {"utf16.yaml", "utf16be.yaml", "utf32.yaml"}
    assert all("UTF-16" in f["message"] for f in findings if f["code"] == "rulesub/unreadable")
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "marked.yaml").write_text(text, encoding="utf-8")
    plain = rulesub("validate", "--format", "json", str(tmp_path / "plain" / "marked.yaml"))
    alone = json.loads(plain.stdout)["findings"]
    marked = [f["code"] for f in findings if Path(f["file"]).name == "marked.yaml"]
    assert marked == [f["code"] for f in alone]
    assert "skipped 1 YAML file" in done.stderr  # the workflow, in UTF-16 too


def test_sarif_is_written_when_nothing_can_be_read(tmp_path: Path) -> None:
    done = rulesub("validate", "--format", "sarif", str(tmp_path / "missing.yaml"))
    assert done.returncode == 2
    run = json.loads(done.stdout)["runs"][0]
    (result,) = run["results"]  # the missing file, unreadable, as a FIFO is
    assert result["ruleId"] == "rulesub/unreadable" and run["tool"]["driver"]["informationUri"]


def test_sarif_out_is_written_when_input_cannot_be_read(tmp_path: Path) -> None:
    """`validate --format sarif --out results.sarif` in CI: the file is there to upload when a
    submission cannot be read (exit 2), with the notification that says why, as it is when
    printed; a usage error that prints no report writes no file."""
    broken = tmp_path / "date.yaml"
    broken.write_text("rulesub: 1\ngame: four-card-poker\neffective: 2027-02-30\n")
    for fmt, name in (("sarif", "results.sarif"), ("json", "results.json")):
        out = tmp_path / name
        done = rulesub("validate", "--format", fmt, "--out", str(out), str(broken))
        assert done.returncode == 2, done.stderr
        printed = rulesub("validate", "--format", fmt, str(broken))
        assert out.read_text() == printed.stdout
    run = json.loads((tmp_path / "results.sarif").read_text())["runs"][0]
    [note] = run["invocations"][0]["toolExecutionNotifications"]
    assert "2027-02-30" in note["message"]["text"] and note["level"] == "error"
    usage = tmp_path / "usage.sarif"
    done = rulesub("validate", "-", str(broken), "--out", str(usage))
    assert done.returncode == 2 and not usage.exists()


def test_no_game_files_is_an_error(tmp_path: Path) -> None:
    for args in (("games", "list"), ("rules",), ("validate", str(LUNAR))):
        done = rulesub("--games", str(tmp_path), *args)
        assert done.returncode == 2, args
        assert "no game files" in done.stderr and "Traceback" not in done.stderr


# -- the command line -------------------------------------------------------------------------

COMMANDS = [
    (),
    ("validate",),
    ("rules",),
    ("games",),
    ("games", "list"),
    ("games", "show"),
    ("odds",),
    ("settle",),
    ("play",),
    ("simulate",),
    ("diff",),
    ("signage",),
    ("schema", "export"),
    ("par",),
    ("record",),
    ("approve",),
    ("reject",),
    ("history",),
    ("show",),
    ("purge",),
    ("review",),
    ("db", "upgrade"),
    ("serve",),
    ("users", "add"),
    ("users", "remove"),
    ("users", "passwd"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "rulesub")
def test_help_in_plain_words(command: tuple[str, ...]) -> None:
    short = rulesub(*command, "-h", columns=100)
    assert short.returncode == 0, short.stderr
    assert short.stdout == rulesub(*command, "--help", columns=100).stdout
    for python_type in ("<str>", "<int", "<path>", "list[", "<float>", "Path]"):
        assert python_type not in short.stdout, (command, python_type)


def test_version() -> None:
    from validator import __version__

    done = rulesub("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"rulesub {__version__}"


def test_git_diff_driver_rename_add_delete(tmp_path: Path) -> None:
    """git passes 7 arguments, 9 for a rename; /dev/null for an added or deleted side."""
    old = EXAMPLES / "four-card-poker.yaml"
    new = tmp_path / "new.yaml"
    new.write_text(old.read_text().replace("aces_up: C", "aces_up: A"))
    renamed = rulesub(
        "diff",
        "a.yaml",
        str(old),
        "1" * 40,
        "100644",
        str(new),
        "2" * 40,
        "100644",
        "b.yaml",
        "similarity index 98%\nrename from a.yaml\nrename to b.yaml\n",
    )
    assert renamed.returncode == 0, renamed.stderr
    assert "renamed: a.yaml -> b.yaml" in renamed.stdout and "Paytable A" in renamed.stdout
    added = rulesub("diff", "b.yaml", "/dev/null", "0" * 40, "0", str(new), "2" * 40, "100644")
    assert added.returncode == 0 and "(new file)" in added.stdout
    deleted = rulesub("diff", "b.yaml", str(new), "2" * 40, "100644", "/dev/null", "0" * 40, "0")
    assert deleted.returncode == 0 and "deleted" in deleted.stdout
    one = rulesub("diff", str(old))
    assert one.returncode == 2 and "one submission" in one.stderr


def test_written_files_keep_the_users_permissions(tmp_path: Path) -> None:
    from validator.files import write_whole

    fresh = tmp_path / "fresh.txt"
    old = os.umask(0o027)
    try:
        write_whole(fresh, "a")
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o604)
    write_whole(kept, "new")
    assert kept.read_text() == "new" and stat.S_IMODE(kept.stat().st_mode) == 0o604
    out = tmp_path / "signs.txt"
    out.write_text("")
    out.chmod(0o664)
    done = rulesub("signage", str(EXAMPLES / "four-card-poker.yaml"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o664 and "Four Card Poker" in out.read_text()


@pytest.mark.slow  # every game compiled, cold and warm
def test_compiled_games_are_cached_by_content(tmp_path: Path) -> None:
    """A second run reads the cache; a changed game file is a new key, never a stale entry."""
    import shutil

    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    env = {"RULESUB_CACHE_DIR": str(tmp_path / "cache")}
    first = rulesub("--games", str(games), "games", "list", "--format", "json", env=env)
    assert first.returncode == 0
    assert list((tmp_path / "cache").glob("games-list-*.pickle"))
    path = games / "lunar-poker.yaml"
    path.write_text(path.read_text().replace("name: Lunar Poker", "name: Lunar Poker Renamed", 1))
    second = rulesub("--games", str(games), "games", "list", "--format", "json", env=env)
    names = {g["id"]: g["name"] for g in json.loads(second.stdout)}
    assert names["lunar-poker"] == "Lunar Poker Renamed"


# -- the smaller things a new user met ---------------------------------------------------------


def test_play_and_simulate_refuse_a_missing_table_up_front() -> None:
    """§ 677a.12(c)'s Bad Beat table is missing from the copy: without a submission stating
    it, Heads-Up Hold 'Em cannot be dealt, and says so before dealing."""
    for args in (
        ("play", "wpt-heads-up-holdem"),
        ("simulate", "wpt-heads-up-holdem", "--rounds", "5"),
    ):
        done = rulesub(*args)
        assert done.returncode == 2 and "§ 677a.12(c)" in done.stderr, args
        assert "custom_paytables" in done.stderr and "Traceback" not in done.stderr


def test_play_quiet_without_a_log_says_what_it_did() -> None:
    for game in ("four-card-poker", "poker-holdem"):
        done = rulesub("play", game, "--quiet", "--rounds", "2")
        assert done.returncode == 0, done.stderr
        assert "played, not narrated (--quiet); --log FILE keeps them" in done.stdout


def test_a_play_log_of_any_name_replays(tmp_path: Path) -> None:
    missing = rulesub("play", "four-card-poker", "--log", str(tmp_path / "x[" / "]" / "l.txt"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    (tmp_path / "x[" / "]").mkdir(parents=True)
    log = tmp_path / "x[" / "]" / "log.txt"  # a path that reads as rich markup: x[/]/log.txt
    played = rulesub("play", "four-card-poker", "--rounds", "2", "--log", str(log), columns=400)
    assert played.returncode == 0, played.stderr
    assert "x[/]/log.txt" in played.stdout
    replay = rulesub("settle", str(log), "--round", "2", "--format", "json")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["game"] == "four-card-poker"


def test_settle_says_the_submission_does_not_offer_the_wager(tmp_path: Path) -> None:
    (tmp_path / "sub.yaml").write_text((EXAMPLES / "four-card-poker.yaml").read_text())
    round_file = tmp_path / "round.yaml"
    round_file.write_text(
        "game: four-card-poker\nrulesub: sub.yaml\nseats:\n"
        "  - wagers: {ante: 10, five_card_progressive: 1}\n"
        "    cards: [AS, AD, 7C, 4H, 2S]\n    actions: [play 2x]\n"
        "dealer: [QS, QD, 8S, 8D, 3H, 6C]\n"
    )
    done = rulesub("settle", str(round_file))
    assert done.returncode == 2
    assert "does not offer the Five-Card Progressive" in done.stderr
    assert "give `rulesub:`" not in done.stderr


def test_money_is_printed_one_way() -> None:
    from decimal import Decimal

    from validator.model.notation import format_money

    assert format_money(Decimal("-238470")) == "-$238,470"
    assert format_money(Decimal("14455.948075")) == "$14,455.95"
    assert format_money(Decimal("1000.5")) == "$1,000.50"


LUNAR_ERRORS = (
    "lunar-poker/super-paytable-stated",
    "lunar-poker/instant-payout-paytable",
    "lunar-poker/one-position-per-player",
)


@pytest.mark.parametrize(
    "facility",
    [
        '"Example Downs # rulesub: file-ignore[{codes}] -- not a comment"',
        "'Example Downs # rulesub: file-ignore[{codes}] -- not a comment'",
        ">-\n  Example Downs\n  # rulesub: file-ignore[{codes}] -- not a comment",
        "|\n  Example Downs\n  # rulesub: file-ignore[{codes}] -- not a comment",
    ],
    ids=["double-quoted", "single-quoted", "folded-block", "literal-block"],
)
def test_a_waiver_inside_a_value_waives_nothing(tmp_path: Path, facility: str) -> None:
    """Only a YAML comment waives: the words inside a quoted facility name or a block
    scalar are the name's text, and the errors stand (exit 1)."""
    text = (FLAWED / "lunar-poker.yaml").read_text(encoding="utf-8")
    named = facility.format(codes=", ".join(LUNAR_ERRORS))
    assert "facility: Example Downs\n" in text
    sub = tmp_path / "lunar.yaml"
    sub.write_text(text.replace("facility: Example Downs\n", f"facility: {named}\n"))
    done = rulesub("validate", "--format", "json", str(sub))
    assert done.returncode == 1, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert set(LUNAR_ERRORS) <= {f["code"] for f in data["findings"]}
    assert "suppressed" not in data
    # the same waiver as a comment after the value does waive
    sub.write_text(
        text.replace(
            "facility: Example Downs\n",
            f"facility: Example Downs  # rulesub: file-ignore[{', '.join(LUNAR_ERRORS)}]"
            " -- a comment\n",
        )
    )
    waived = json.loads(rulesub("validate", "--format", "json", str(sub)).stdout)
    assert {s["code"] for s in waived["suppressed"]} == set(LUNAR_ERRORS)


def test_a_configuration_error_names_the_file_given_not_another(tmp_path: Path) -> None:
    """`--config bad.toml` with a bad value names bad.toml, the line and the key, never a
    `rulesub.toml` the user did not write."""
    bad = tmp_path / "bad.toml"
    bad.write_text('office = "Gaming Lab"\n\nfail-on = "bogus"\n')
    done = rulesub("validate", "--config", str(bad), str(EXAMPLES / "four-card-poker.yaml"))
    assert done.returncode == 2
    assert f"{bad}:3: fail-on: expected one of error, warning, info, never" in done.stderr
    assert "rulesub.toml" not in done.stderr


def test_options_that_would_be_passed_over_are_refused() -> None:
    """`odds --meter` for a table that pays from no meter, and a negative `par --seed`, are
    refused (exit 2), not passed over."""
    done = rulesub("odds", "four-card-poker", "--meter", "primary=5000", "--wager", "aces_up")
    assert done.returncode == 2 and "no table priced here pays from a meter" in done.stderr
    assert rulesub("par", "four-card-poker", "--seed", "-5").returncode == 2


def test_a_round_file_in_a_directory_is_passed_over_not_checked_as_a_submission(
    tmp_path: Path,
) -> None:
    """A round file names the submission it was played under in its own `rulesub:` (a
    path) beside its `seats:`: the README's `round.yaml` at a checkout's root made
    `validate .` report nine errors on it, and `record DIR` refuse it as unreadable. In a
    directory it is passed over and said; named on the command line it is still checked."""
    golden = PROJECT_ROOT / "tests" / "golden" / "high-card-flush"
    for f in golden.glob("*.yaml"):
        if not f.name.endswith(".expected.yaml"):
            (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    rounds = [  # the round files that name the submission they were played under
        f.name
        for f in tmp_path.glob("*.yaml")
        if "\nseats:" in f.read_text() and "\nrulesub: " in f"\n{f.read_text()}"
    ]
    assert rounds
    done = rulesub("validate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 file checked" in done.stdout
    n = len(rounds)
    assert f"skipped {n} round file{'s' if n != 1 else ''}" in done.stderr
    named = rulesub("validate", rounds[0], cwd=tmp_path)
    assert named.returncode == 1  # asked for by name: checked, and it is no submission
    # a submission whose name starts with a digit, as a dated one does
    dated = (
        (tmp_path / rounds[0])
        .read_text()
        .replace("rulesub: rulesub.yaml", "rulesub: 2027-hcf.yaml")
    )
    assert "rulesub: 2027-hcf.yaml" in dated
    (tmp_path / "dated-round.yaml").write_text(dated)
    (tmp_path / "2027-hcf.yaml").write_text((tmp_path / "rulesub.yaml").read_text())
    done = rulesub("validate", ".", cwd=tmp_path)
    assert done.returncode == 0 and "2 files checked" in done.stdout, done.stdout
    assert f"skipped {n + 1} round files" in done.stderr
