"""What the regulation itself changed between two dates: ``rulesub diff GAME --from --to``.

The game's values in force on each date (``validator.model.history.as_of``) are compared
paytable by paytable, the regulator's own unit of work: a paytable (or a letter of one) in
force on one date and not the other is added or removed, one whose rows differ is changed,
each with its exact hold. The Bulletin notices that took effect between the two dates are
listed with them, and where a notice's text is not held here the diff says so: an empty
diff over a notice whose text is missing is not "nothing changed".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from validator.compiler import Game
from validator.diff.compare import (
    Change,
    GameDiff,
    Valuation,
    _hold,
    hand_rows,
    table_rows,
    table_title,
)
from validator.model.game import GameDefinition, Rows, Table
from validator.model.history import as_of, describe, in_force, long_date
from validator.pointer import escape


def _columns(definition: GameDefinition) -> dict[tuple[str, str | None], tuple[str, Table]]:
    """(table id, letter or None for a fixed table) → (wager id, table), in file order."""
    out: dict[tuple[str, str | None], tuple[str, Table]] = {}
    for wid, tid, table in definition.tables():
        letters: list[str | None] = list(table.letters) or [None]
        for letter in letters:
            out[(tid, letter)] = (wid, table)
    return out


def _rows(table: Table, letter: str | None) -> Rows | None:
    try:
        return table_rows(table, letter)
    except KeyError:
        return None


def diff_dates(game: Game, old: dt.date, new: dt.date) -> GameDiff:
    """The regulation's own changes from ``old`` to ``new``."""
    before = replace(game, definition=as_of(game.definition, old))
    after = replace(game, definition=as_of(game.definition, new))
    result = GameDiff(game, old.isoformat(), new.isoformat(), submissions=False, between_dates=True)
    lo, hi = min(old, new), max(old, new)
    events: list[tuple[dt.date, Change]] = []
    history = game.definition.history
    unheld = in_force(game.definition, lo).not_encoded  # the wording on the first date
    for e in history:
        if lo < e.date <= hi:
            text = {"missing": "; its text is not held here", "encoded": "", "none": ""}[e.text]
            if e.text == "encoded" and e in unheld:  # the text it replaced is not held
                text = "; the wording it replaced is not held here: its changes are not all listed"
            sections = f" ({', '.join(e.sections)})" if e.sections else ""
            change = Change(
                path=f"/regulation/{e.date.isoformat()}",
                old=None,
                new=f"{e.kind} by {describe(e)}{sections}{text}",
                title=f"{e.citation}, {e.kind}",
                cite=e.citation,
            )
            events.append((e.date, change))
        if e.expires is None or not lo < e.expires <= hi:
            continue
        ended = any(x.kind in ("rescinded", "superseded") and x.date <= e.expires for x in history)
        if not ended:
            # temporary regulations out of force by their own term: the largest change of all
            events.append(
                (
                    e.expires,
                    Change(
                        path=f"/regulation/{e.expires.isoformat()}",
                        old=None,
                        new=f"expired on {long_date(e.expires)}: the temporary regulations "
                        f"of {describe(e)} by their own term",
                        title=f"{e.citation}, expired",
                        cite=e.citation,
                    ),
                )
            )
    result.changes += [c for _, c in sorted(events, key=lambda dc: dc[0])]
    was, now = _columns(before.definition), _columns(after.definition)
    for key in list(was) + [k for k in now if k not in was]:
        tid, letter = key
        old_rows = _rows(was[key][1], letter) if key in was else None
        new_rows = _rows(now[key][1], letter) if key in now else None
        if old_rows == new_rows:
            continue
        wid, table = now.get(key) or was[key]
        label = letter or "fixed"
        dated = table.letters_dated.get(letter) if letter else None
        dated = dated or table.dated
        result.changes.append(
            Change(
                path=f"/paytables/{escape(tid)}" + (f"/{letter}" if letter else ""),
                old=label if old_rows is not None else None,
                new=label if new_rows is not None else None,
                title=table_title(game, wid, tid, table),
                hands=hand_rows(game, table, old_rows, new_rows),
                hold_old=_hold(before, tid, table, letter, old_rows, Valuation())
                if old_rows is not None
                else None,
                hold_new=_hold(after, tid, table, letter, new_rows, Valuation())
                if new_rows is not None
                else None,
                cite=(dated.until_cite if new_rows is None and dated.until_cite else dated.cite)
                if dated is not None
                else table.cite,
            )
        )
    return result
