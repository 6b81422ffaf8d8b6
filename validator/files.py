"""Files rulesub writes (``--out``, ``--log``, ``schema export``): whole or not at all.

A temporary file beside the target, renamed over it: a reader never sees half a file, and
a failure (a full disk too) leaves the old one as it was and no temporary file behind. The
new file gets the permissions any file the user creates gets (0666 less the umask), and a
file written over keeps its own mode; a symbolic link to a file stays a link, its target
written whole.

A target that is no file — a FIFO, a terminal, ``/dev/stdout``, ``/dev/null`` — is written
to as a stream, as ruff does with ``--output-file /dev/stdout``: the node is never replaced.
A directory is refused. Every failure is a ``WriteError``, an ``OSError`` whose
``strerror`` says in words what went wrong; the command line answers it with exit 2.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from validator.errors import RulesubError

#: Where a path names a stream of this process or a device, never a file to replace.
_STREAM_ROOTS = ("/dev/", "/proc/")


class WriteError(RulesubError, OSError):
    """A file rulesub could not write; ``strerror`` says why, in words."""


def reason(e: OSError) -> str:
    """What a failed write's error means, in words."""
    if e.errno == errno.ENOSPC:
        return "no space left on the device (the disk is full): nothing was written"
    if e.errno == errno.EDQUOT:
        return "the disk quota is used up: nothing was written"
    if e.errno == errno.EISDIR:
        return "it is a directory: name a file to write"
    if e.errno == errno.ENOENT:
        return "its directory does not exist"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return e.strerror or str(e)


def _error(path: Path, e: OSError) -> WriteError:
    return WriteError(e.errno or errno.EIO, reason(e), str(path))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def is_stream(path: Path) -> bool:
    """Whether ``path`` is written as a stream: an existing node that is no regular file or
    directory (a FIFO, a device, a socket), or a name under ``/dev`` or ``/proc``."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return str(path.absolute()).startswith(_STREAM_ROOTS)
    if stat.S_ISDIR(mode):
        return False
    return not stat.S_ISREG(mode) or str(path.absolute()).startswith(_STREAM_ROOTS)


def _written_at(path: Path) -> Path | None:
    """The file ``write_whole`` writes for ``path``: a link's target (the link stays);
    None for a stream, written as it comes; a ``WriteError`` for a directory."""
    if path.is_dir():
        raise WriteError(errno.EISDIR, reason(OSError(errno.EISDIR, "")), str(path))
    if is_stream(path):
        return None
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _temporary(path: Path) -> tuple[int, str]:
    """A temporary file beside ``path``, that the whole is written to before it replaces it."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        return tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise _error(path, e) from None


def can_write_whole(path: Path) -> None:
    """Raise the ``WriteError`` that ``write_whole`` would meet at ``path`` for want of a
    place to write (a directory, a folder it may not write in), before a command acts: a
    filing recorded or approved is never followed by "cannot write", as if it had not
    been."""
    target = _written_at(Path(path))
    if target is not None:
        fd, tmp = _temporary(target)
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)


def write_whole(path: Path, content: str | bytes, *, private: bool = False) -> None:
    """Write ``content`` to ``path`` whole or not at all, with the user's normal permissions
    (``private``, a secret: the owner's alone); to a stream as it comes. Raises
    ``WriteError``."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    target = _written_at(Path(path))
    if target is None:
        _write_stream(Path(path), data)
        return
    path = target
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    except OSError as e:
        raise _error(path, e) from None
    fd, tmp = _temporary(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode & 0o600 if private else mode)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise _error(path, e) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _own_fd(path: Path) -> int | None:
    """The descriptor ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` or ``/proc/self/fd/N``
    names: written as it is (no reopening, which would truncate what is already there)."""
    name = str(path)
    if name in ("/dev/stdout", "/dev/stderr"):
        return 1 if name == "/dev/stdout" else 2
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if name.startswith(prefix) and name[len(prefix) :].isdecimal():
            return int(name[len(prefix) :])
    return None


def _write_stream(path: Path, data: bytes) -> None:
    import sys

    fd = _own_fd(path)
    if fd is not None:
        try:
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except OSError as e:
            raise _error(path, e) from None
        return
    try:
        with open(path, "wb", buffering=0) as f:
            view = memoryview(data)
            while view:
                written = f.write(view)
                if not written:
                    raise OSError(errno.EIO, "the stream took nothing")
                view = view[written:]
    except OSError as e:
        raise _error(path, e) from None
