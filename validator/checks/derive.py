"""Constraints that follow from the game file itself, in the same vocabulary as the ones it
lists under ``constraints:``.

A game file already says how many positions a table has, how many decks, when the decks are
changed, which tables the certificate holder selects, which equipment a wager needs and
which tables the regulation copy lacks. Each of those facts becomes a constraint here, so
that every game gets the same checks without a line of its own and ``rulesub rules`` lists
them beside the game's explicit ones.
"""

from __future__ import annotations

from typing import Any

from validator.model.constraints import load_constraints
from validator.model.game import GameDefinition, Table
from validator.model.notation import PayoutKind
from validator.model.submission import AUTOMATED_SHUFFLERS, METHODS
from validator.vocabulary import TABLE_FEATURE, meaning

EQUIPMENT_NAMES = {
    "progressive_system": "a progressive table game system",
    "electronic_wagering_system": "an electronic wagering system",
}
METHOD_NAMES = {
    "hand": "dealt by hand",
    "manual_shoe": "dealt from a manual dealing shoe",
    "automated_shoe": "dealt from an automated dealing shoe",
}
SHUFFLER_NAMES = {
    "manual": "shuffled by hand",
    "automated": "an automated card shuffling device",
    "automated_counting": "an automated card shuffling device that counts the cards",
}


def _make(items: list[dict[str, Any]]) -> list[Any]:
    return list(load_constraints(items))


def dashed(identifier: str) -> str:
    return identifier.replace("_", "-")


def derived_constraints(g: GameDefinition) -> list[Any]:
    """The generic constraints of one game, derived from its file."""
    out: list[dict[str, Any]] = []
    out += _table_and_cards(g)
    for wid, wager in g.wagers.items():
        for tid, table in wager.tables.items():
            out += _table(g, wid, tid, table)
        for equipment in wager.requires_equipment:
            out.append(
                {
                    "id": f"{dashed(wid)}-needs-{dashed(equipment)}",
                    "kind": "equals",
                    "field": f"/equipment/{equipment}",
                    "value": True,
                    **_when_played(g, wid),
                    "cite": wager.equipment_cite or wager.cite,
                    "message": f"Offering the {wager.name} requires "
                    f"{EQUIPMENT_NAMES.get(equipment, equipment)} at the table",
                    "hint": f"state `equipment: {{{equipment}: true}}` once it is installed, "
                    f"or do not offer the {wager.name}",
                }
            )
    return _make(out)


def _a(name: str) -> str:
    """The name with its article: "An Omaha … table", "A Hold'em table"."""
    return f"{'An' if name[:1] in 'AEIOU' else 'A'} {name}"


def _when_played(g: GameDefinition, wid: str) -> dict[str, Any]:
    return {"when": {"offered": wid}} if g.wagers[wid].optional else {}


def _table_and_cards(g: GameDefinition) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    n = g.table.max_positions
    out.append(
        {
            "id": "max-positions",
            "kind": "at_most",
            "field": "/table/positions",
            "value": n,
            "cite": g.table.cite,
            "message": f"{_a(g.name)} table has betting positions for no more than {n} players",
            "hint": f"positions: {n} or fewer",
        }
    )
    if g.players is not None:  # Poker: "played by a minimum of two players" (§ 553.7(b))
        least = g.players.min
        out.append(
            {
                "id": "min-positions",
                "kind": "at_least",
                "field": "/table/positions",
                "value": least,
                "cite": g.players.cite,
                "message": f"{g.name} is played by a minimum of {least} players",
                "hint": f"positions: {least} or more",
            }
        )
    c = g.cards
    two = c.two_decks_with_shuffler
    most = c.decks + 1 if two and two.allowed else c.decks
    cite = c.cite
    if two and two.allowed:  # "§ 553.3(a); § 553.3(a), (d)" says (a) twice: the wider one
        cite = two.cite if two.cite.startswith(f"{c.cite},") else f"{c.cite}; {two.cite}"
    out.append(
        {
            "id": "max-decks",
            "kind": "at_most",
            "field": "/dealing/decks",
            "value": most,
            "cite": cite,
            "message": f"{g.name} is played with {c.decks} deck"
            + (f", or {most} with an automated card shuffling device" if most > c.decks else ""),
            "hint": f"decks: {c.decks}" + (f" or {most}" if most > c.decks else ""),
        }
    )
    if two and two.allowed:
        out.append(
            {
                "id": "two-decks-need-shuffler",
                "kind": "one_of_values",
                "field": "/dealing/shuffler",
                "values": list(AUTOMATED_SHUFFLERS),
                "when": {"field": "/dealing/decks", "in": [most]},
                "cite": two.cite,
                # "deals from": Poker keeps two decks at every table (§ 553.3(a)) and deals
                # from both in turn only with the device (§ 553.3(d))
                "message": f"{g.name} deals from {most} decks only with an automated card "
                "shuffling device",
                "hint": f"shuffler: automated (or automated_counting), or decks: {c.decks}",
            }
        )
    hand = c.hand_dealing_requires_shuffler
    if hand and hand.required:
        out.append(
            {
                "id": "hand-dealing-needs-shuffler",
                "kind": "one_of_values",
                "field": "/dealing/shuffler",
                "values": list(AUTOMATED_SHUFFLERS),
                "when": {"field": "/dealing/methods", "contains": "hand"},
                "cite": hand.cite,
                "message": "If the cards are dealt from the dealer's hand, an automated "
                "shuffling device shall be used to shuffle the cards",
                "hint": "shuffler: automated (or automated_counting), or deal from a shoe",
            }
        )
    ch = c.change_every_hours
    hours = deck_change_hours(ch)
    parts = [f"{h} hours if {METHOD_NAMES[m]}" for m, h in hours.items()]
    if ch is not None and hours:
        out.append(
            {
                "id": "deck-change-interval",
                "kind": "max_interval",
                "hours": hours,
                **(
                    {"cites": {m: ch.cites["hand" if m == "hand" else "shoe"] for m in hours}}
                    if ch.cites
                    else {}
                ),
                "cite": ch.cite,
                # one interval for every method (ch. 553: "at least every 6 hours") is said
                # once, naming no dealing method the chapter does not provide for
                "message": "The decks shall be changed at least every "
                + (
                    f"{ch.any} hours"
                    if ch.any is not None and ch.hand is None and ch.shoe is None
                    else "; ".join(parts)
                ),
                "hint": "change_every_hours: one entry per dealing method used, e.g. "
                + ", ".join(f"{m}: {h}" for m, h in hours.items()),
            }
        )
    if g.adjacent_boxes and g.adjacent_boxes.required:
        out.append(
            {
                "id": "adjacent-boxes-stated",
                "kind": "required",
                "field": "/adjacent_boxes",
                "cite": g.adjacent_boxes.cite,
                "message": "The Rules Submission shall specify the number of adjacent boxes "
                "on which a player may place a wager in one round of play",
                "hint": "adjacent_boxes: 2 (the number the certificate holder allows)",
            }
        )
    return out


def deck_change_hours(ch: Any) -> dict[str, int]:
    """The most hours between deck changes, by the submission's dealing methods."""
    hours: dict[str, int] = {}
    if ch is None:
        return hours
    for method in METHODS:
        limit = ch.hand if method == "hand" else ch.shoe
        limit = limit if limit is not None else ch.any
        if limit is not None:
            hours[method] = limit
    return hours


@meaning("checks", TABLE_FEATURE.id, "source", "optional_payout", "approved_hold", "meters")
def _custom_table(g: GameDefinition, wid: str, tid: str, table: Table) -> list[dict[str, Any]]:
    """A table whose regulation text is missing: the submission states the table in use."""
    wager = g.wagers[wid]
    t = dashed(tid)
    out: list[dict[str, Any]] = []
    played = _when_played(g, wid)
    offered_text = f"the {wager.name} is offered" if wager.optional else "the game is played"
    pointer = f"/custom_paytables/{tid}"
    out.append(
        {
            "id": f"{t}-custom-table-stated",
            "kind": "required_if" if played else "required",
            "field": pointer,
            **played,
            "cite": table.cite,
            "message": f"The text of the {table.name} table ({table.cite}) is missing from "
            f"the regulation copy; when {offered_text}, the submission must state the table "
            "in use, or neither the dealer nor the signs could pay it",
            "hint": f"state it under `custom_paytables: {{{tid}: {{hand: 'N to 1', …}}}}`",
            "note": f"The copy of the regulation rulesub encodes lacks the text of "
            f"{table.cite}: what is known of it is in the game file's note. Offering the "
            "wager without stating a table is an error: nothing else could pay it.",
        }
    )
    if played:
        out.append(_unused(f"{t}-custom-table-unused", pointer, wid, wager.name, table))
    out.append(
        {
            "id": f"{t}-text-missing",
            "kind": "text_missing",
            "table": tid,
            "severity": "info",
            "cite": table.cite,
            "message": f"The regulation text of the {table.name} table ({table.cite}) is "
            "missing; the table stated here cannot be checked against it. Its hands and, "
            "where the Board stated one, its hold range are checked instead",
        }
    )
    out.append(
        {
            "id": f"{t}-custom-hands",
            "kind": "custom_table_hands",
            "table": tid,
            "cite": table.cite,
            "message": f"A stated {table.name} table pays only hands the wager can win on",
            "hint": "name each row by a category of the hand's ranking "
            "(`rulesub games show " + g.id + "`)",
        }
    )
    if table.approved_hold:
        ah = table.approved_hold
        from validator.model.notation import format_rate

        out.append(
            {
                "id": f"{t}-custom-hold",
                "kind": "hold_in_range",
                "table": tid,
                "severity": "warning",
                "cite": f"{table.cite}; {ah.cite}",
                "message": f"The exact hold of a stated {table.name} table lies in the "
                f"Board's stated range, {format_rate(ah.low)} to {format_rate(ah.high)}",
                "hint": "check the table against the one the Board approved",
            }
        )
    return out


def _table(g: GameDefinition, wid: str, tid: str, table: Table) -> list[dict[str, Any]]:
    wager = g.wagers[wid]
    t = dashed(tid)
    out: list[dict[str, Any]] = []
    played = _when_played(g, wid)
    offered_text = f"the {wager.name} is offered" if wager.optional else "the game is played"
    if table.source == "missing":
        return _custom_table(g, wid, tid, table)
    if table.optional_payout:
        out.append(
            {
                "id": f"{t}-offered-with-{dashed(wid)}",
                "kind": "optional_payout_offered",
                "table": tid,
                "cite": table.cite,
                "message": f"{_a(table.name)} payout is made only on the {wager.name}: it is "
                "offered only with that wager",
            }
        )
    if table.selectable and table.approved_hold and table.meters is None:
        ah = table.approved_hold
        out.append(
            {
                "id": f"{t}-published-hold-range",
                "kind": "published_hold_range",
                "table": tid,
                "severity": "info",
                "cite": f"{ah.cite}; {table.cite}",
                "message": f"The Board's stated hold range for the {table.name} tables "
                "disagrees with the text's exact figures",
                "hint": "nothing to change in the submission: the exact figures of the text stand",
            }
        )
    if table.selectable:
        letters = table.letters
        pointer = f"/paytables/{tid}"
        out.append(
            {
                "id": f"{t}-paytable",
                "kind": "choice",
                "field": pointer,
                "choices": letters,
                "cite": table.cite,
                "message": f"The {table.name} paytable is one of the chapter's: "
                + ", ".join(letters),
                "hint": f"{tid}: one of {', '.join(letters)}",
            }
        )
        out.append(
            {
                "id": f"{t}-paytable-stated",
                "kind": "required_if" if played else "required",
                "field": pointer,
                **played,
                "cite": table.cite,
                "message": f"When {offered_text}, the Rules Submission selects the "
                f"{table.name} paytable",
                "hint": f"paytables: {{{tid}: {letters[0]}}} (one of {', '.join(letters)})",
            }
        )
        if played:
            out.append(_unused(f"{t}-paytable-unused", pointer, wid, wager.name, table))
        if _has_odds(g, wid, tid, table):
            out.append(
                {
                    "id": f"{t}-hold",
                    "kind": "positive_hold",
                    "table": tid,
                    "severity": "warning",
                    "cite": table.cite,
                    "message": f"The selected {table.name} paytable should hold a positive "
                    "share of the wager; one that returns more than it takes needs a second "
                    "look at the text or its transcription",
                    "hint": "compare the paytable with the chapter's text",
                }
            )
    if table.meters is not None and played:
        pointer = f"/progressives/{tid}"
        out.append(
            {
                "id": f"{t}-meters-stated",
                "kind": "required_if",
                "field": pointer,
                **played,
                "cite": table.meters.cite,
                "message": f"When the {wager.name} is offered, the Rules Submission states its "
                "meters: seed, reseed and rate of progression",
                "hint": f"progressives: {{{tid}: {{wager_amount: 1, meters: {{primary: …}}}}}}",
            }
        )
        out.append(_unused(f"{t}-meters-unused", pointer, wid, wager.name, table))
    return out


#: what a submission's section says of a table, in words
_UNUSED = {
    "paytables": "selects a paytable of the",
    "progressives": "states meters for the",
    "custom_paytables": "states the rows of the",
}


def _unused(cid: str, pointer: str, wid: str, wager_name: str, table: Table) -> dict[str, Any]:
    return {
        "id": cid,
        "kind": "only_if",
        "field": pointer,
        "when": {"offered": wid},
        "severity": "warning",
        "cite": table.cite,
        "message": f"The Rules Submission {_UNUSED[pointer.split('/')[1]]} {table.name}, but the "
        f"{wager_name} is not offered",
        "hint": f"add {wid} to `offered`, or remove the entry",
    }


@meaning("checks", TABLE_FEATURE.id, "events")
def _has_odds(g: GameDefinition, wid: str, tid: str, table: Table) -> bool:
    """Whether a table's exact hold means anything, paid on a hand at odds on a stake, and
    can be had from the odds engine (not the Bad Beat Bonus: paid on the lower of two hands
    dealt together, which the engine does not price), so that a hold check can fire."""
    if table.events is not None or table.source == "missing":
        return False
    try:
        from validator.odds import not_priced_reason
    except ImportError:  # pragma: no cover - the odds engine is part of the package
        return False
    if not_priced_reason(g, wid, tid) is not None:
        return False
    return not all(
        p.kind in (PayoutKind.FIXED, PayoutKind.NA)
        for rows in table.all_rows().values()
        for p in rows.values()
    )
