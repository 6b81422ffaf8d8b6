"""Where ``--out`` writes (issue 24): a FIFO or a device as a stream, never replacing the
node; a directory refused (exit 2); a full disk a clear message, exit 2, nothing partial."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT, files
from validator.cli import app

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
HEADING = "High Card Flush (58 Pa. Code ch. 678a)"


def rulesub(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from validator.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_out_onto_a_fifo_streams_into_it_and_leaves_the_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "signs.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = rulesub("signage", str(EXAMPLE), "--out", str(fifo))
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert HEADING in received[0].decode()
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # the node is still the FIFO
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signs.fifo"]  # no temporary file


def test_out_dev_stdout_writes_to_standard_output(tmp_path: Path) -> None:
    """As ``ruff --output-file /dev/stdout``: the document on standard output."""
    before = os.lstat("/dev/stdout")
    done = rulesub("signage", str(EXAMPLE), "--out", "/dev/stdout", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert HEADING in done.stdout and "Traceback" not in done.stderr
    after = os.lstat("/dev/stdout")
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert list(Path("/dev").glob(".stdout.*")) == []


def test_out_onto_a_directory_is_exit_2(tmp_path: Path) -> None:
    target = tmp_path / "signs"
    target.mkdir()
    done = rulesub("signage", str(EXAMPLE), "--out", str(target))
    assert done.returncode == 2
    assert "it is a directory" in done.stderr and "Traceback" not in done.stderr
    assert target.is_dir() and list(target.iterdir()) == []


def test_a_full_device_is_a_clear_message_and_exit_2() -> None:
    done = rulesub("signage", str(EXAMPLE), "--out", "/dev/full")
    assert done.returncode == 2
    assert "no space left on the device" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file opened for writing takes half its bytes, then the disk is full."""
    real = os.fdopen

    class Half:
        def __init__(self, f: Any) -> None:
            self.f = f

        def write(self, data: bytes) -> int:
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.f, name)

        def __enter__(self) -> Half:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: Half(real(fd, mode)))


def test_a_full_disk_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, full_disk: None
) -> None:
    target = tmp_path / "signs.txt"
    target.write_text("the signs as they were\n")
    with pytest.raises(files.WriteError) as caught:
        files.write_whole(target, "x" * 10_000)
    assert "no space left on the device" in str(caught.value.strerror)
    assert target.read_text() == "the signs as they were\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signs.txt"]
    out = CliRunner().invoke(app, ["signage", str(EXAMPLE), "--out", str(target)])
    assert out.exit_code == 2 and "the disk is full" in out.stderr
    assert target.read_text() == "the signs as they were\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signs.txt"]


def test_a_full_disk_anywhere_is_exit_2_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command that meets ENOSPC on a write of its own is answered by ``main``."""
    import validator.cli as cli

    def full() -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "/var/cache/rulesub/x")

    monkeypatch.setattr(cli, "app", full)
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "cannot write /var/cache/rulesub/x: no space left on the device" in err


def test_a_symlink_to_a_file_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    files.write_whole(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{s}", "--out", "{s}"],
        ["review", "{s}", "--out", "{s}"],
        ["review", "{s}", "--format", "pdf", "--out", "{s}"],
        ["signage", "{s}", "--out", "{s}"],
        ["odds", "high-card-flush", "--rulesub", "{s}", "--out", "{s}"],
        ["diff", "{s}", "{s}", "--out", "{s}"],
        ["play", "high-card-flush", "--rulesub", "{s}", "--log", "{s}"],
        ["play", "high-card-flush", "--log", "{log}", "--out", "{log}"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_an_output_naming_a_file_the_command_was_given_is_refused(
    tmp_path: Path, args: list[str]
) -> None:
    """Nothing the user gave is modified: `--out` (or `--log`) naming the submission read,
    or another output of the same command, is refused with exit 2, and the file is kept."""
    s = tmp_path / "s.yaml"
    s.write_bytes(EXAMPLE.read_bytes())
    log = tmp_path / "same.jsonl"
    out = rulesub(*(a.format(s=s, log=log) for a in args), cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "rulesub never writes over what it is given" in out.stderr
    assert s.read_bytes() == EXAMPLE.read_bytes()
    assert not log.exists()


def test_a_command_that_refuses_a_flawed_submission_keeps_the_out_file(tmp_path: Path) -> None:
    """`odds --rulesub` makes no odds from a submission with errors (exit 1): the file named
    by `--out` keeps what it held, and nothing says it was written."""
    flawed = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-payout-limit.yaml"
    kept = tmp_path / "odds.txt"
    kept.write_text("kept\n")
    for args in (
        ["odds", "high-card-flush", "--rulesub", str(flawed)],
        ["simulate", "high-card-flush", "--rulesub", str(flawed), "--rounds", "10"],
    ):
        out = rulesub(*args, "--out", str(kept))
        assert out.returncode == 1, out.stderr
        assert kept.read_text() == "kept\n"
        assert "wrote" not in out.stderr


@pytest.mark.parametrize("option", ["--dir", "--compiled"])
def test_schema_export_into_a_file_is_exit_2_in_words(tmp_path: Path, option: str) -> None:
    """A file where the directory to write into should be: said, exit 2, no traceback."""
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    args = ["schema", "export", "--dir", str(tmp_path / "schemas"), option, str(afile)]
    out = rulesub(*args)
    assert out.returncode == 2
    assert "cannot make the directory: it is a file, not a directory" in out.stderr
    assert "Traceback" not in out.stderr and afile.read_text() == "x\n"


def test_a_scheduler_a_table_with_meters_cannot_use_is_said_unused() -> None:
    """Four Card Poker's progressive meters carry from round to round, so its rounds run in
    one process: a `--scheduler` given (even one that cannot be reached) is said unused,
    never passed over in silence."""
    out = rulesub(
        "simulate",
        "four-card-poker",
        "--rounds",
        "200",
        "--scheduler",
        "tcp://127.0.0.1:1",
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    assert "--scheduler was not used" in out.stderr
