"""The signs a table must carry: built from the game file's sign data and a submission.

``build`` (the signs) is imported when its names are first used, so that the commands that
only read a submission's findings (``checked``: the store's ``record``) do not compile games.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Line", "Paytable", "Sign", "SignSet", "build_signage"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from validator.signage import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
