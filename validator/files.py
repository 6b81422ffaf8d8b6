"""Files rulesub writes (``--out``, ``--log``, ``schema export``): whole or not at all.

A temporary file beside the target, renamed over it: a reader never sees half a file, and
a failure leaves the old one as it was. The new file gets the permissions any file the user
creates gets (0666 less the umask), and a file written over keeps its own mode.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_whole(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` whole or not at all, with the user's normal permissions."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
