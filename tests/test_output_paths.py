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
