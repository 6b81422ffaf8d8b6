"""Every id a condition names must exist: checked once, when the game file is loaded.

Conditions (``when:``) appear in settlement rows, in decision options and step guards, and
in strategies. A misspelt id in one (``decided: {plya: …}``, ``suited: {playr: true}``)
would otherwise be silently false in one engine and an error in another; here it is refused
at load, with its line and column, by every command alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from validator.loader import did_you_mean


def _whens(g: Any) -> Iterator[tuple[str, Any]]:
    """(JSON pointer, When) for every condition of the game file."""
    for i, step in enumerate(g.procedure or ()):
        base = f"/procedure/{i}"
        for field in ("players", "when"):
            w = getattr(step, field, None)
            if w is not None:
                yield f"{base}/{field}", w
        for oid, option in (getattr(step, "options", None) or {}).items():
            if option.available is not None:
                yield f"{base}/options/{oid}/available", option.available
    if g.settle is not None:
        for lid, line in g.settle.lines.items():
            for r, row in enumerate(line.rows):
                yield f"/settle/lines/{lid}/rows/{r}/when", row.when
    if g.strategies is not None:
        for sid, strategy in g.strategies.by_name.items():
            for did, rows in strategy.decisions.items():
                for r, row in enumerate(rows):
                    yield f"/strategies/named/{sid}/decisions/{did}/{r}/when", row.when


def decisions(g: Any) -> dict[str, list[str]]:
    """Decision id → its options, from the ``decide`` steps of the procedure."""
    return {
        step.id: list(step.options)
        for step in g.procedure or ()
        if getattr(step, "step", None) == "decide"
    }


def condition_problems(g: Any, categories: Callable[[str], list[str]]) -> list[tuple[str, str]]:
    """(pointer, message) for every id a condition names that the game does not have."""
    out: list[tuple[str, str]] = []
    decided_ids = decisions(g)
    groups = list(dict.fromkeys([*g.cards.dealt, "community"]))
    draws = list(g.system_draws())

    def check(pointer: str, w: Any) -> None:
        for did, options in (w.decided or {}).items():
            if did not in decided_ids:
                out.append(
                    (
                        f"{pointer}/decided/{did}",
                        f"no decision {did!r}{did_you_mean(did, decided_ids)}; the decisions "
                        f"are: {', '.join(decided_ids) or 'none'}",
                    )
                )
                continue
            for option in [options] if isinstance(options, str) else options:
                if option != "none" and option not in decided_ids[did]:
                    out.append(
                        (
                            f"{pointer}/decided/{did}",
                            f"{option!r} is no option of decision {did!r}"
                            f"{did_you_mean(option, decided_ids[did])}; its options are: "
                            f"{', '.join(decided_ids[did])} (or none)",
                        )
                    )
        for field in ("wagered", "not_wagered"):
            value = getattr(w, field)
            for wid in [value] if isinstance(value, str) else value or ():
                if wid not in g.wagers:
                    out.append(
                        (
                            f"{pointer}/{field}",
                            f"no wager {wid!r}{did_you_mean(wid, list(g.wagers))}",
                        )
                    )
        for hid, test in (w.hand or {}).items():
            if hid not in g.hands:
                out.append(
                    (f"{pointer}/hand/{hid}", f"no hand {hid!r}{did_you_mean(hid, list(g.hands))}")
                )
                continue
            known = categories(hid)
            named = [b.category for b in (test.at_least, test.below) if b is not None]
            for field in ("is_", "is_not"):
                value = getattr(test, field)
                named += [value] if isinstance(value, str) else list(value or ())
            for category in named:
                if known and category not in known:
                    out.append(
                        (
                            f"{pointer}/hand/{hid}",
                            f"{category!r} is no category of hand {hid!r}"
                            f"{did_you_mean(category, known)}",
                        )
                    )
        if w.beats is not None:
            for hid in (w.beats.hand, w.beats.other):
                if hid not in g.hands:
                    out.append(
                        (f"{pointer}/beats", f"no hand {hid!r}{did_you_mean(hid, list(g.hands))}")
                    )
        for group in w.suited or {}:
            if group not in groups:
                out.append(
                    (
                        f"{pointer}/suited/{group}",
                        f"no cards dealt to {group!r}{did_you_mean(group, groups)}; the groups "
                        f"are: {', '.join(groups)}",
                    )
                )
        if w.event is not None:
            if w.event.id not in draws:
                out.append(
                    (
                        f"{pointer}/event/id",
                        f"no table game system draw {w.event.id!r}"
                        f"{did_you_mean(w.event.id, draws)}",
                    )
                )
            if w.event.hand is not None and w.event.hand not in g.hands:
                out.append((f"{pointer}/event/hand", f"no hand {w.event.hand!r}"))
        if w.any_player is not None:
            check(f"{pointer}/any_player", w.any_player)

    for pointer, w in _whens(g):
        check(pointer, w)
    if g.strategies is not None:
        for sid, strategy in g.strategies.by_name.items():
            for did in strategy.decisions:
                if did not in decided_ids:
                    out.append(
                        (
                            f"/strategies/named/{sid}/decisions/{did}",
                            f"no decision {did!r}{did_you_mean(did, decided_ids)}",
                        )
                    )
    return out
