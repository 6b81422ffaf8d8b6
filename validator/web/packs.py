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


def counterpart(store: Store, row: Any) -> Any:
    """The approved submission ``row`` is compared with, or ``None``: only a filing that was
    approved (``approved``, or ``superseded`` since) is ever the approved one. A filing
    ``replaced`` by ``row``'s approval names ``row`` in ``superseded_by`` too, but it never
    had an approval."""
    if row.status in ("approved", "superseded"):
        older = [
            r
            for r in store.history(row.facility, row.game)
            if r.superseded_by == row.id and was_approved(r)
        ]
        if not older:
            return None
        return store.get(max(older, key=lambda r: (r.effective, r.id)).id)
    approved = store.approved_for(row.facility, row.game, on=row.effective)
    if approved is None or approved.id == row.id:
        return None
    return approved


def was_approved(row: Any) -> bool:
    """Whether ``row`` had an approval: approved now, or approved and superseded since."""
    return row.status in ("approved", "superseded")


class Packs:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: OrderedDict[tuple[str, str, str | None], Any] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[str, str, str | None], threading.Lock] = {}

    def pack(self, row: Any, sees: Callable[[str | None], bool] = lambda holder: True) -> Any:
        """The pack of ``row``: built once, however many requests ask for it at once. The
        counterpart is left out where the reader may not see it (another holder's)."""
        old = counterpart(self.store, row)
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
    from validator.compiler import game_name
    from validator.review import build_pack
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
            pack.not_compared = (
                f"no approval of {row.facility}, {game_name(row.game)} was in force on "
                f"{row.effective}, its effective date"
                if row.status not in ("approved", "superseded")
                else "it superseded no approved submission"
            )
        return pack
