"""A linter's manners (issue 28): stdin, shell completion, the full report at any width, the
root cause first, regulation notes only when asked, GitHub annotations, a first Poker run
that speaks. In process (Typer's runner), except where a real shell or terminal is the point.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed"
FCP = EXAMPLES / "four-card-poker.yaml"
HCF = EXAMPLES / "high-card-flush.yaml"


def invoke(*args: str, stdin: str | None = None, columns: int = 200) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": str(columns)})


def misspelt(tmp_path: Path) -> Path:
    """The example Four Card Poker submission with `paytables:` misspelt `paytabels:`."""
    text = FCP.read_text(encoding="utf-8")
    assert "\npaytables:" in text
    path = tmp_path / "misspelt.yaml"
    path.write_text(text.replace("\npaytables:", "\npaytabels:"), encoding="utf-8")
    return path


# -- stdin ----------------------------------------------------------------------------------


def test_validate_reads_stdin_named_by_stdin_filename() -> None:
    text = (FLAWED / "lunar-poker.yaml").read_text(encoding="utf-8")
    result = invoke("validate", "-", "--stdin-filename", "subs/lunar.yaml", stdin=text)
    assert result.exit_code == 1
    assert "subs/lunar.yaml:12:17: error lunar-poker/one-position-per-player" in result.stdout
    clean = invoke("validate", "-", stdin=FCP.read_text(encoding="utf-8"))
    assert clean.exit_code == 0, clean.output
    assert clean.stdout.startswith("1 file checked: 0 errors")


def test_stdin_unreadable_is_exit_2_and_named() -> None:
    result = invoke("validate", "-", "--stdin-filename", "x.yaml", stdin="a: [\n")
    assert result.exit_code == 2
    assert "x.yaml:" in result.output


def test_stdin_filename_without_stdin_is_usage() -> None:
    assert invoke("validate", str(FCP), "--stdin-filename", "x.yaml").exit_code == 2
    assert invoke("validate", "-", str(FCP), stdin="").exit_code == 2


# -- root cause first -------------------------------------------------------------------------


def test_a_misspelt_key_is_reported_not_its_consequences(tmp_path: Path) -> None:
    """`paytabels:` printed five "/paytables/… is not stated" errors before the real one."""
    data = json.loads(invoke("validate", "--format", "json", str(misspelt(tmp_path))).stdout)
    codes = [f["code"] for f in data["findings"]]
    assert codes == ["rulesub/unknown-key"]
    assert "did you mean 'paytables'" in data["findings"][0]["message"]


def test_a_real_key_beside_a_misspelt_one_is_still_checked(tmp_path: Path) -> None:
    """Where `paytables:` is stated too, what is wrong in it is still reported."""
    text = FCP.read_text(encoding="utf-8").replace(
        "\npaytables:", "\npaytabels: {aces_up: A}\npaytables:"
    )
    assert "  aces_up: C" in text
    text = text.replace("  aces_up: C", "  aces_up: Z", 1)
    path = tmp_path / "both.yaml"
    path.write_text(text, encoding="utf-8")
    data = json.loads(invoke("validate", "--format", "json", str(path)).stdout)
    codes = {f["code"] for f in data["findings"]}
    assert "rulesub/unknown-key" in codes
    assert "four-card-poker/aces-up-paytable" in codes


# -- regulation notes -----------------------------------------------------------------------


def test_regulation_notes_only_when_asked() -> None:
    """The Board's published range no Straight Flush Bonus table meets is a fact about the
    regulation (Final-form rulemaking 125-192, preamble; § 678a.12(c)), not the submission."""
    plain = invoke("validate", str(HCF))
    assert plain.exit_code == 0
    assert "published-hold-range" not in plain.stdout
    asked = invoke("validate", "--show-regulation-notes", str(HCF))
    assert asked.exit_code == 0
    assert "high-card-flush/straight-flush-bonus-published-hold-range" in asked.stdout


# -- the full report at any width -----------------------------------------------------------


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_full_report_never_breaks_a_word(columns: int) -> None:
    path = FLAWED / "lunar-poker.yaml"
    result = invoke("validate", "--output-format", "full", str(path), columns=columns)
    assert result.exit_code == 1
    words = set(
        json.loads(invoke("validate", "--format", "json", str(path)).stdout)["findings"][0][
            "message"
        ].split()
    )
    printed = set(result.stdout.split())
    assert words <= printed, sorted(words - printed)
    assert "lunar-poker/one-position-per-player" in printed
    for line in result.stdout.splitlines():
        long_words = [w for w in line.split() if len(w) > columns]
        assert len(line) <= columns or long_words, line


def test_full_report_is_a_table_where_it_fits() -> None:
    result = invoke("validate", "--output-format", "full", str(FLAWED / "lunar-poker.yaml"))
    assert "severity" in result.stdout and "hint" in result.stdout
    assert "lunar-poker/instant-payout-paytable " in result.stdout


# -- GitHub annotations ----------------------------------------------------------------------


def test_github_annotations() -> None:
    result = invoke("validate", "--format", "github", str(FLAWED / "lunar-poker.yaml"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    first = next(x for x in lines if "one-position-per-player" in x)
    assert first.startswith("::error file=rulesubs/flawed/lunar-poker.yaml,line=12,col=17,")
    assert "title=lunar-poker/one-position-per-player::" in first
    assert "\n" not in first and "%0A" in first  # the hint on its own line, escaped


# -- completion ------------------------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script(shell: str) -> None:
    result = invoke("completion", shell)
    assert result.exit_code == 0
    assert "_RULESUB_COMPLETE" in result.stdout and "rulesub" in result.stdout


def test_completion_completes_commands_and_choices() -> None:
    """As bash asks: the words so far, the one being completed (the installed script: the
    shell calls it by its name)."""
    script = Path(sys.executable).parent / "rulesub"
    if not script.exists():
        pytest.skip("no rulesub script beside this interpreter")

    def complete(words: str, cword: int) -> list[str]:
        env = {
            **os.environ,
            "_RULESUB_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(cword),
        }
        done = subprocess.run(
            [str(script)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.stdout.split()

    assert "validate" in complete("rulesub val", 1)
    assert complete("rulesub validate --format ", 3) == [
        "text",
        "json",
        "sarif",
        "markdown",
        "github",
    ]


# -- a first Poker run speaks ---------------------------------------------------------------


def test_a_first_poker_run_says_the_kernels_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.cli import tools
    from validator.interpreter.poker import fast

    monkeypatch.setattr(fast, "kernels_cached", lambda: False)
    import io

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    tools.first_poker_run_note()
    assert "compiling the Poker kernels once" in err.getvalue()
    assert f"about {fast.COMPILE_SECONDS} s" in err.getvalue()
    assert "`rulesub warm` compiles them ahead" in err.getvalue()
    err.truncate(0)
    err.seek(0)
    tools.first_poker_run_note(warming=True)  # `rulesub warm` names itself no command to run
    assert "compiling the kernels once" in err.getvalue()
    assert "rulesub warm" not in err.getvalue()
    monkeypatch.setattr(fast, "kernels_cached", lambda: True)
    err.truncate(0)
    tools.first_poker_run_note()
    assert err.getvalue().strip("\x00") == ""


def _warm_tables(game_id: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The tables `rulesub warm` deals ``game_id`` at, in turn."""
    from validator.cli import tools
    from validator.compiler import BankingGame, load_game
    from validator.interpreter import simulate

    tables: list[Any] = []
    real = simulate.run

    def run(rules: Any, *args: Any) -> Any:
        tables.append(rules.config)
        return real(rules, *args)

    monkeypatch.setattr(simulate, "run", run)
    game = load_game(game_id)
    assert isinstance(game, BankingGame)
    tools._play_banking(game)
    return tables


@pytest.mark.parametrize("game_id", ["four-card-poker", "high-card-flush", "lunar-poker"])
def test_warm_plays_each_banking_game_at_its_default_table(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rulesub warm` deals every banking game a few rounds at its default table, every
    wager offered (the kernels of its optional wagers and meters compiled too)."""
    tables = _warm_tables(game_id, monkeypatch)
    assert len(tables) == 1 and tables[0].offered


def test_warm_goes_on_where_the_base_game_lacks_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """WPT Heads-Up Hold'em's Odds Wager needs a Bad Beat table § 677a.12(c) lacks: warm
    tries the default table, then the base game, and does not stop (the casino states the
    table in its Rules Submission; what is left compiles on the game's first run)."""
    tables = _warm_tables("wpt-heads-up-holdem", monkeypatch)
    assert [bool(t.offered) for t in tables] == [True, False]


# -- a file's name says what it holds ---------------------------------------------------------


def test_an_out_files_name_picks_its_format_where_none_is_given(tmp_path: Path) -> None:
    """``--out signs.html`` without ``--format`` writes HTML, ``report.sarif`` SARIF and
    ``report.json`` JSON: a file is never named for what it does not hold."""
    signs = tmp_path / "signs.html"
    assert invoke("signage", str(FCP), "--out", str(signs)).exit_code == 0
    assert signs.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    sarif = tmp_path / "report.sarif"
    assert invoke("validate", str(FCP), "--out", str(sarif)).exit_code == 0
    assert json.loads(sarif.read_text(encoding="utf-8"))["version"] == "2.1.0"
    report = tmp_path / "report.json"
    assert invoke("validate", str(FCP), "--out", str(report)).exit_code == 0
    assert "findings" in json.loads(report.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "args",
    [
        ("signage", str(FCP), "--out", "signs.pdf"),  # signage writes no PDF
        ("signage", str(FCP), "--format", "text", "--out", "signs.html"),
        ("odds", "high-card-flush", "--out", "odds.pdf"),
        ("validate", str(FCP), "--format", "json", "--out", "report.sarif"),
        ("par", str(HCF), "--format", "text", "--out", "par.pdf"),
        ("review", str(HCF), "--format", "html", "--out", "review.pdf"),
    ],
)
def test_an_out_file_named_for_another_format_is_refused(tmp_path: Path, args: tuple) -> None:
    """A name that says another format than the one written: exit 2, nothing written."""
    *head, out = args
    result = invoke(*head, str(tmp_path / out))
    assert result.exit_code == 2, result.output
    assert "the name says" in result.output and not (tmp_path / out).exists()


@pytest.mark.parametrize("command", ["signage", "review", "par", "odds"])
@pytest.mark.parametrize("flawed", ["not-a-mapping.yaml", "unknown-game.yaml", "no game"])
def test_a_submission_naming_no_game_is_input_no_command_can_use(
    tmp_path: Path, command: str, flawed: str
) -> None:
    """README: "A submission that cannot be read, or names no game, is input no command can
    use: exit 2", from every command that computes from one; a game id rulesub has not is
    no game either. (`signage` and `review` said exit 1, `par` did for an unknown game.)"""
    if flawed == "no game":
        path = tmp_path / "no-game.yaml"
        path.write_text("rulesub: 1\nfacility: Example Downs\n", encoding="utf-8")
    else:
        path = FLAWED / flawed
    args = (
        ["odds", "four-card-poker", "--rulesub", str(path)]
        if command == "odds"
        else [command, str(path)]
    )
    result = invoke(*args)
    assert result.exit_code == 2, (result.output, result.exception)


def test_a_directory_given_for_one_submission_is_called_a_directory(tmp_path: Path) -> None:
    """`review DIR` said "no such file" of a directory that is there: the refusal says
    what it is, exit 2 (as `diff OLD DIR` already did)."""
    from typer.testing import CliRunner

    from validator import PROJECT_ROOT
    from validator.cli import app

    example = str(PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml")
    out = CliRunner().invoke(app, ["review", str(tmp_path)])
    assert out.exit_code == 2, out.output
    assert f"{tmp_path}: is a directory; give one Rules Submission file" in out.stderr
    out = CliRunner().invoke(app, ["diff", example, str(tmp_path)])
    assert out.exit_code == 2 and "is a directory, not a file to read" in out.stderr


def test_serve_refuses_a_session_key_too_short_to_keep_cookies_unforged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`RULESUB_SECRET_KEY=x rulesub serve` signed every session cookie with a one-character
    key: one guess from a forged session. A key under 32 characters is refused (exit 2)
    before the server starts, saying how to make one."""
    from validator.cli import app

    monkeypatch.setenv("RULESUB_SECRET_KEY", "x")
    out = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "office.sqlite3")])
    assert out.exit_code == 2, out.output
    assert "RULESUB_SECRET_KEY is 1 character: a session key is at least 32" in out.stderr
    assert "serving" not in out.stderr


def test_a_missing_file_is_said_one_way_by_every_command(tmp_path: Path) -> None:
    """A missing file was worded five ways across the commands ("no such file or
    directory", ":1:1: cannot read the file: No such file or directory", "no such file",
    a hint to fix it "at this line and column"): each command that reads one submission
    now says "PATH: no such file", exit 2, with no place in a file that is not there."""
    gone = str(tmp_path / "gone.yaml")
    for args in (
        ["diff", str(HCF), gone],
        ["diff", gone, str(HCF)],
        ["signage", gone],
        ["review", gone],
        ["settle", gone],
        ["record", gone, "--db", str(tmp_path / "store.sqlite3")],
    ):
        out = invoke(*args)
        assert out.exit_code == 2, (args, out.output)
        assert f"rulesub: {gone}: no such file\n" in out.stderr, (args, out.stderr)
        assert ":1:1" not in out.stderr and "Traceback" not in out.stderr
    # where the missing file is a finding (a command that reports findings), its hint
    # asks for the right file, not for a fix at a line and column
    out = invoke("odds", "high-card-flush", "--rulesub", gone)
    assert out.exit_code == 2 and "no such file" in out.output
    assert "at this line and column" not in out.output
    assert "give the Rules Submission's own YAML file" in out.output


def test_a_reader_that_closes_the_pipe_is_not_reported_as_findings() -> None:
    """`rulesub rules | head -1` exited 1, the code that means findings (and `validate DIR
    | head -1` turned its exit 2 into 1): a closed pipe now stops the command quietly with
    141, what a shell reports of any command a closed pipe stops (`yes | head -1`)."""
    # each prints more than a pipe holds (64 KiB), so the closed pipe is met, not missed
    for args in (["rules"], ["rules", "--format", "json"]):
        proc = subprocess.Popen(
            [sys.executable, "-c", "from validator.cli import main; main()", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(10)  # the first line's start, then the reader goes
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 141, (args, err)
        assert "Traceback" not in err and "Broken pipe" not in err, err


def test_history_of_a_game_id_mistyped_is_refused_not_empty(tmp_path: Path) -> None:
    """`history --game nope` printed "no submissions recorded", exit 0, as if none had
    been filed: a game id rulesub does not declare is refused (exit 2) with the nearest id;
    a declared game with no filing says which game had none."""
    db = str(tmp_path / "store.sqlite3")
    assert invoke("record", str(HCF), "--db", db).exit_code == 0
    out = invoke("history", "--game", "hig-card-flush", "--db", db)
    assert out.exit_code == 2, out.output
    assert "no game 'hig-card-flush' (did you mean 'high-card-flush'?)" in out.stderr
    out = invoke("history", "--game", "four-card-poker", "--db", db)
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("no submissions recorded for Four Card Poker\n")
    out = invoke("history", "--game", "high-card-flush", "--db", db)
    assert out.exit_code == 0 and "High Card Flush (high-card-flush)" in out.stdout


def test_users_list_of_no_account_says_so(tmp_path: Path) -> None:
    """`users list` of a store with no account printed nothing, exit 0: what a command that
    failed quietly prints. It says there is none and how to add one (on stderr: the list's
    stdout, one account a line, stays empty for a script)."""
    db = str(tmp_path / "store.sqlite3")
    assert invoke("record", str(HCF), "--db", db).exit_code == 0
    out = invoke("users", "list", "--db", db)
    assert out.exit_code == 0 and out.stdout == ""
    assert "no accounts yet; `rulesub users add NAME --role ROLE` adds one" in out.stderr
    added = invoke(
        "users", "add", "viewer1", "--role", "viewer", "--password", "pw-12345678", "--db", db
    )
    assert added.exit_code == 0, added.output
    out = invoke("users", "list", "--db", db)
    assert out.stdout == "viewer1\tviewer\t\n" and "no accounts" not in out.stderr


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("REV", "there is already an account 'rev'"),  # the same name, another case
        ("ｒｅｖ", "there is already an account 'rev'"),  # full-width letters
        ("r\u0435v", "is Cyrillic in a name written in Latin letters"),  # a Cyrillic е
    ],
)
def test_an_account_name_a_person_cannot_tell_apart_is_refused(
    tmp_path: Path, name: str, said: str
) -> None:
    """The audit log names people by name, and separation of duties compares names as a
    person reads them (case and width folded): a second account under the same name so
    read, or a name mixing scripts, would read as one person filing and approving. Each
    is refused (exit 2), nothing added."""
    db = str(tmp_path / "store.sqlite3")
    added = invoke(
        "users", "add", "rev", "--role", "reviewer", "--password", "pw-12345678", "--db", db
    )
    assert added.exit_code == 0, added.output
    out = invoke(
        "users", "add", name, "--role", "casino", "--holder", "Example Downs Racing & Casino",
        "--password", "pw-12345678", "--db", db,
    )  # fmt: skip
    assert out.exit_code == 2 and said in out.output, out.output
    assert invoke("users", "list", "--db", db).stdout == "rev\treviewer\t\n"


def test_recording_a_rejected_filings_bytes_again_says_nothing_was_filed(tmp_path: Path) -> None:
    """A filing's bytes are recorded once, as one filing: recording the bytes of a rejected
    filing again said only "the same record", which reads as if it were filed anew. It
    says the filing has ended, that nothing new was recorded, and how to file again."""
    db = str(tmp_path / "store.sqlite3")
    first = invoke("record", str(HCF), "--by", "filer", "--db", db)
    assert first.exit_code == 0, first.output
    again = invoke("record", str(HCF), "--by", "filer", "--db", db)
    assert "(these bytes were recorded before: the same record)" in again.stdout
    rejected = invoke("reject", "1", "--by", "rev", "--reason", "wrong paytable", "--db", db)
    assert rejected.exit_code == 0, rejected.output
    again = invoke("record", str(HCF), "--by", "filer", "--db", db)
    flat = " ".join(again.stdout.split())
    assert "submission 1: rejected (these bytes were recorded before, as this filing, now" in flat
    assert "rejected: nothing new was recorded; to file the same rules again, change" in flat


def test_show_out_writes_the_bytes_as_filed(tmp_path: Path) -> None:
    """`show ID --out FILE` failed with a traceback (the filing's bytes written to a stream
    that had none), exit 1, no file. It writes the filing as filed, byte for byte: a
    byte-order mark and CRLF line ends kept."""
    filed = tmp_path / "crlf.yaml"
    filed.write_bytes(b"\xef\xbb\xbf" + FCP.read_bytes().replace(b"\n", b"\r\n"))
    db = str(tmp_path / "store.sqlite3")
    assert invoke("record", str(filed), "--db", db).exit_code == 0
    copy = tmp_path / "copy.yaml"
    out = invoke("show", "1", "--db", db, "--out", str(copy))
    assert out.exit_code == 0, out.output
    assert copy.read_bytes() == filed.read_bytes()


def test_purge_with_a_retention_past_the_calendar_refuses_in_words(tmp_path: Path) -> None:
    """`purge --retention-years 2026` (or RULESUB_RETENTION_YEARS=5000) ended in a traceback
    ("year 0 is out of range"), exit 1: a period that reaches past the calendar's first year
    keeps every filing, and the purge is refused as any inside the period is."""
    db = str(tmp_path / "store.sqlite3")
    assert invoke("record", str(FCP), "--db", db).exit_code == 0
    for years in ("2026", "5000"):
        out = invoke(
            "purge", "--before", "2000-01-01", "--retention-years", years, "--by", "C", "--db", db
        )
        assert out.exit_code == 1, out.output
        assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
        assert f"inside the retention period of {int(years):,} years" in out.stderr
        assert "filings that ended after 0001-01-01 are kept; nothing was purged" in out.stderr


@pytest.mark.parametrize("command", ["show", "approve", "reject"])
@pytest.mark.parametrize("given", ["abc", "#3", "3.0", "٣"])
def test_a_submission_number_not_written_as_one_is_said_in_words(
    command: str, given: str, tmp_path: Path
) -> None:
    """A filing is named by the number the record gave it: anything else is a usage error
    (exit 2) that says what a submission number is, not a parser's words."""
    decided = {"show": [], "approve": ["--by", "A. Reviewer"]}.get(
        command, ["--by", "A. Reviewer", "--reason", "no"]
    )
    result = invoke(command, given, *decided, "--db", str(tmp_path / "office.sqlite3"))
    assert result.exit_code == 2
    assert f"{given!r} is not a submission number" in result.output
    assert "`history` lists" in result.output
    assert "valid integer" not in result.output
    assert not (tmp_path / "office.sqlite3").exists()


def _without_root_bypass() -> list[str]:
    """The command prefix that runs it as root runs it without reading past permissions
    (root reads a directory of mode 000 anyway); none for another user."""
    if os.geteuid() != 0:
        return []
    import shutil

    if shutil.which("setpriv") is None:
        pytest.skip("root reads every directory, and setpriv is not here to stop it")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def test_a_directory_that_cannot_be_listed_is_reported_not_passed_over(tmp_path: Path) -> None:
    """README: in a directory, "an entry that cannot be read ... is reported as unreadable
    (exit 2), never skipped in silence". A subdirectory of filings the user may not list
    was walked past: `validate` said "1 file checked" and exit 0, `record` recorded the
    rest and said nothing of it."""
    tree = tmp_path / "filings"
    locked = tree / "locked"
    locked.mkdir(parents=True)
    (tree / "hcf.yaml").write_bytes(HCF.read_bytes())
    (locked / "fcp.yaml").write_bytes(FCP.read_bytes())
    locked.chmod(0)
    try:
        prefix = _without_root_bypass()
        for argv in (
            ["validate", str(tree)],
            ["record", str(tree), "--by", "A. Filer", "--db", str(tmp_path / "o.sqlite3")],
        ):
            done = subprocess.run(
                [*prefix, sys.executable, "-c", "from validator.cli import main; main()", *argv],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 2, (argv, done.stdout, done.stderr)
            assert f"{locked}" in done.stderr + done.stdout
            assert "cannot read the directory: permission denied" in done.stderr
    finally:
        locked.chmod(0o755)


def test_stdin_and_a_configuration_are_read_within_the_bounds_of_any_input(
    tmp_path: Path,
) -> None:
    """`validate -` reads at most a megabyte and a byte of stdin (it read all of it first:
    `/dev/zero` until memory ran out); `--config` names a FIFO or a device by what it is,
    never waits on it, as a submission named so is (exit 2)."""
    done = subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", "validate", "-"],
        input=b"a" * 3_000_000,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert b"over 1,000,000 bytes" in done.stderr
    fifo = tmp_path / "rulesub.toml"
    os.mkfifo(fifo)
    for config, said in ((fifo, "is a FIFO (named pipe)"), (Path("/dev/zero"), "is a device")):
        result = invoke("validate", str(HCF), "--config", str(config))
        assert result.exit_code == 2
        assert f"{config}: {said}, not a file to read" in result.output


def test_a_first_filing_refused_leaves_no_empty_database_and_blames_the_file(
    tmp_path: Path,
) -> None:
    """A first `record` whose filing is refused wrote nothing: it left a 0-byte file that
    every later command refused as "an empty file, not a rulesub database". A facility
    named with a YAML escape of half a UTF-16 pair ("\\ud800") was blamed on the database
    ("the database is damaged"); it is the filing's, at its line (exit 1)."""
    text = FCP.read_text(encoding="utf-8")
    assert "facility: Example Downs\n" in text
    cases = {
        "half.yaml": (text.replace("facility: Example Downs\n", 'facility: "Ex\\ud800Downs"\n'), 1),
        "bell.yaml": (text.replace("facility: Example Downs\n", "facility: Ex\x07Downs\n"), 2),
    }
    for name, (content, code) in cases.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
        db = tmp_path / f"{name}.sqlite3"
        result = invoke("record", str(path), "--by", "A. Filer", "--db", str(db))
        assert result.exit_code == code, result.output
        assert not db.exists(), name
        assert "damaged" not in result.output
    said = invoke("record", str(tmp_path / "half.yaml"), "--by", "A. Filer", "--db", str(db))
    assert "half of a UTF-16 pair" in said.output and "half.yaml:" in said.output


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ('"\\e]0;title\\a\\e[31mRed"', "character 1, U+001B a control character, is not seen"),
        ('"Example\\u200bDowns"', "character 8, U+200B ZERO WIDTH SPACE, is not seen"),
        ('"Example\\ud800Downs"', "character 8, U+D800, is half of a UTF-16 pair"),
    ],
)
def test_a_name_no_page_can_print_is_an_error_before_it_reaches_a_sign(
    tmp_path: Path, written: str, said: str
) -> None:
    """A facility named with a terminal's escape sequence, an invisible space or half of a
    UTF-16 pair: `validate` says so at its line (exit 1), and `signage` prints no sign
    carrying it (the escape reached the terminal raw, retitling it and colouring it red)."""
    path = tmp_path / "named.yaml"
    text = FCP.read_text(encoding="utf-8").replace(
        "facility: Example Downs\n", f"facility: {written}\n"
    )
    path.write_text(text, encoding="utf-8")
    checked = invoke("validate", str(path))
    assert checked.exit_code == 1
    assert said in checked.output and "named.yaml:6:" in checked.output
    signs = invoke("signage", str(path))
    assert signs.exit_code == 1 and "\x1b" not in signs.stdout and not signs.stdout


def test_a_standard_stream_the_shell_closed_is_said_never_a_traceback() -> None:
    """`rulesub validate - <&-` and a command run with its output closed (`>&-`) ended in a
    traceback: stdin closed is said (exit 2); stdout closed is said, and the exit code
    still tells the findings."""
    run = [sys.executable, "-c", "from validator.cli import main; main()"]
    closed_in = subprocess.run(
        ["sh", "-c", 'exec "$@" <&-', "sh", *run, "validate", "-"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert closed_in.returncode == 2
    assert "standard input, which is closed" in closed_in.stderr
    assert "Traceback" not in closed_in.stderr
    for path, code in ((HCF, 0), (FLAWED / "hcf-payout-limit.yaml", 1)):
        closed_out = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", *run, "validate", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
        assert closed_out.returncode == code, closed_out.stderr
        assert "standard output is closed" in closed_out.stderr
        assert "Traceback" not in closed_out.stderr


def test_schema_export_writes_its_set_whole_or_not_at_all(tmp_path: Path) -> None:
    """A directory where one schema is to go stopped `schema export` after it had written
    the others (18 of 19); a FIFO there made it wait for a reader. Either is found first:
    nothing is written, the path and what is in the way said (exit 2)."""
    for kind in ("directory", "fifo"):
        target = tmp_path / kind
        target.mkdir()
        blocker = target / "game.schema.json"
        blocker.mkdir() if kind == "directory" else os.mkfifo(blocker)
        result = invoke("schema", "export", "--dir", str(target))
        assert result.exit_code == 2, result.output
        assert f"{blocker}: is a" in result.output
        assert sorted(p.name for p in target.iterdir()) == ["game.schema.json"]


def test_a_character_yaml_refuses_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    """A bell in a facility's name on line 6 was reported at 1:1, with the parser's
    "in '<unicode string>', position 320": it is reported where it is, by its code point."""
    text = FCP.read_text(encoding="utf-8").replace(
        "facility: Example Downs\n", "facility: Example\x07Downs\n"
    )
    path = tmp_path / "bell.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke("validate", str(path))
    line = text.splitlines().index("facility: Example\x07Downs") + 1
    said = f"bell.yaml:{line}:18: not valid YAML: character U+0007 is not allowed in YAML text"
    assert said in result.output
    assert "<unicode string>" not in result.output and "position" not in result.output


@pytest.mark.parametrize(
    ("replace", "said"),
    [
        (("rulesub: 1\n", "rulesub: 1\n? {a: 1}\n: 2\n"), "a key must be text, not a mapping"),
        (("rulesub: 1\n", "rulesub: 1\n2027-01-01: 2\n"), "not the date 2027-01-01 (quote it)"),
        (
            ("facility: Example Downs\n", "facility: !!binary aGVsbG8=\n"),
            "binary data (!!binary) is not accepted here",
        ),
        (
            ("certificate_holder: Example Downs Racing & Casino\n", 'certificate_holder: ""\n'),
            "/certificate_holder: is empty text: write it out",
        ),
    ],
)
def test_a_value_of_the_wrong_kind_is_said_in_yamls_words_not_pythons(
    tmp_path: Path, replace: tuple[str, str], said: str
) -> None:
    """A key that is a mapping or a date, binary data where a name goes, an empty name: each
    said in the file's words; never "ordereddict([('a', 1)])", "datetime.date(2027, 1, 1)",
    "b'hello'" or "String should have at least 1 character". Binary data is refused as
    unreadable, never recorded as the text "b'hello'"."""
    text = FCP.read_text(encoding="utf-8")
    assert replace[0] in text
    path = tmp_path / "kind.yaml"
    path.write_text(text.replace(replace[0], replace[1], 1), encoding="utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code in (1, 2)
    assert said in result.output
    for python in ("ordereddict", "datetime.date", "b'hello'", "String should"):
        assert python not in result.output


@pytest.mark.parametrize("key", ["? [a, b]\n: 1", "{a: 1}: 2"])
def test_a_key_that_is_not_text_is_reported_at_its_own_line(tmp_path: Path, key: str) -> None:
    """A list or a mapping as a key, six lines down, was reported at 1:1 (the mapping it
    sits in): it is reported on its own line, exit 2."""
    text = FCP.read_text(encoding="utf-8")
    lines = text.splitlines()
    at = 6
    path = tmp_path / "key.yaml"
    path.write_text("\n".join([*lines[: at - 1], key, *lines[at - 1 :]]) + "\n", encoding="utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    assert re.search(rf"key\.yaml:{at}:\d+: a key must be text, not a", result.output), (
        result.output
    )


def test_a_fifo_given_for_a_submission_is_called_one_by_every_command(tmp_path: Path) -> None:
    """`review`, `par` and the rest said "no such file" or "neither a file nor a game id" of
    a FIFO that is there: each says what it is, as `validate` does (exit 2), and none
    waits on it."""
    fifo = tmp_path / "filing.yaml"
    os.mkfifo(fifo)
    for argv in (
        ["review", str(fifo)],
        ["par", str(fifo)],
        ["signage", str(fifo)],
        ["diff", str(fifo), str(HCF)],
    ):
        result = invoke(*argv)
        assert result.exit_code == 2, argv
        assert f"{fifo}: is a FIFO (named pipe), not a file to read" in result.output, argv


def test_a_log_line_with_a_key_twice_and_a_version_of_true_are_refused(tmp_path: Path) -> None:
    """A play log's line with `"round"` given twice let the last win in silence (YAML
    refuses a duplicate key; so does the log now, exit 2 at its line); `rulesub: true` was
    taken for the format's version 1 (Python's True == 1)."""
    log = tmp_path / "play.jsonl"
    played = invoke("play", "high-card-flush", "--rounds", "1", "--seed", "3", "--log", str(log))
    assert played.exit_code == 0, played.output
    line = log.read_text(encoding="utf-8")
    assert '"round": 1,' in line
    twice = tmp_path / "twice.jsonl"
    twice.write_text(line.replace('"round": 1,', '"round": 1, "round": 2,', 1), encoding="utf-8")
    result = invoke("settle", str(twice), "--round", "1")
    assert result.exit_code == 2
    assert f"{twice}:1:1: not valid JSON: duplicate key 'round'" in result.output
    yes = tmp_path / "yes.yaml"
    yes.write_text(FCP.read_text(encoding="utf-8").replace("rulesub: 1\n", "rulesub: true\n"))
    checked = invoke("validate", str(yes))
    assert checked.exit_code == 1
    assert "/rulesub: true is a yes or no, not the format's version: write 1" in checked.output


def test_a_file_that_may_not_be_read_is_told_at_its_place_with_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file named on the command line that its permissions keep from being read got the
    command line library's usage error ("Invalid value for 'FILE_OR_DIR': … is not
    readable") before rulesub read anything: `validate --format json` wrote no report,
    though one is written when a file cannot be read, and `review` then stopped with a
    traceback. rulesub reads it and says so at its place (exit 2), in the report too."""
    shut = tmp_path / "shut.yaml"
    shut.write_bytes(FCP.read_bytes())
    real_access, real_open = os.access, os.open

    def access(path: Any, mode: int, *a: Any, **k: Any) -> bool:
        return False if Path(path).name == "shut.yaml" else real_access(path, mode, *a, **k)

    def opened(path: Any, flags: int, *a: Any, **k: Any) -> int:
        if Path(path).name == "shut.yaml":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "open", opened)
    report = tmp_path / "report.json"
    out = invoke("validate", "--format", "json", "--out", str(report), str(shut), str(FCP))
    assert out.exit_code == 2 and "Invalid value" not in out.output, out.output
    found = json.loads(report.read_text(encoding="utf-8"))["findings"]
    assert [f["code"] for f in found if f["file"].endswith("shut.yaml")] == ["rulesub/unreadable"]
    db = str(tmp_path / "store.sqlite3")  # an office's pack reads the store too
    assert invoke("record", str(FCP), "--by", "clerk", "--db", db).exit_code == 0
    for command in (
        ["signage", str(shut)],
        ["review", str(shut)],
        ["review", str(shut), "--db", db],
        ["settle", str(shut)],
    ):
        out = invoke(*command)
        assert out.exit_code == 2, (command, out.output)
        assert "permission denied" in out.stderr and "Invalid value" not in out.stderr, command
        assert out.exception is None or isinstance(out.exception, SystemExit), command
