"""A stored submission's review pack (findings, diff, math, signs) for the web pages.

The pack is the review module's (``validator.review.build_pack``) built on the stored bytes
against the submission it is compared with: for a pending or rejected one, the approved
submission of its facility and game; for an approved or superseded one, the submission it
superseded. Packs are kept in a small cache keyed by both filings' sha256 (the bytes of a
filing never change) and the filing's status (which its pack's record states).
"""

from __future__ import annotations

import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from validator.store import Store

CACHE_SIZE = 32


class Packs:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: OrderedDict[tuple[str, str, str | None], Any] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[str, str, str | None], threading.Lock] = {}

    def pack(self, row: Any, sees: Callable[[str | None], bool] = lambda holder: True) -> Any:
        """The pack of ``row``: built once, however many requests ask for it at once. The
        counterpart is left out where the reader may not see it (another holder's)."""
        old = self.store.counterpart(row)
        if old is not None and not sees(old.certificate_holder):
            old = None
        key = (row.sha256, row.status, None if old is None else old.sha256)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            building = self._building.setdefault(key, threading.Lock())
        with building:  # the others wait for the first to build it
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            built = build(row, old)
            built.waived = [(w.code, w.reason) for w in self.store.waivers_of(row.id)]
            with self._lock:
                self._cache[key] = built
                self._building.pop(key, None)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return built


def build(row: Any, old: Any) -> Any:
    """The pack of ``row`` against ``old``, each file named as the pages name it (its base
    name: ``names.file_name``)."""
    from validator.review import build_pack
    from validator.review.build import not_compared
    from validator.store.names import approved_label, file_name

    with tempfile.TemporaryDirectory(prefix="rulesub-web-") as tmp:
        suffix = Path(row.filename).suffix or ".yaml"
        path = Path(tmp) / f"submission{suffix}"
        path.write_bytes(row.content)
        old_path, label = None, None
        if old is not None:
            old_path = Path(tmp) / f"approved{Path(old.filename).suffix or '.yaml'}"
            old_path.write_bytes(old.content)
            label = approved_label(old)
        pack = build_pack(path, file_name(row.filename), old_path, label, record=row, approved=old)
        if old is None:
            pack.not_compared = not_compared(row)
        return pack
