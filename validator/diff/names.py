"""A change's field in a person's words, for every document that names one (the diff's memo,
the review pack): never the JSON pointer the diff keeps it by."""

from __future__ import annotations

import re
from typing import Any

from validator.cards import RANK_PLURALS
from validator.compiler import meter_label
from validator.model.submission.descriptions import choice_words
from validator.pointer import parts as pointer_parts

#: a submission's field as an officer calls it (the Rules Submission's own headings)
FIELD_NAMES = {
    "effective": "Effective date",
    "certificate_holder": "Certificate holder",
    "facility": "Facility",
    "table": "Table",
    "positions": "positions",
    "min_wager": "minimum wager",
    "max_wager": "maximum wager",
    "dealing": "Dealing",
    "methods": "methods",
    "decks": "decks",
    "shuffler": "shuffler",
    "change_every_hours": "deck change, hours",
    "offered": "Wagers offered",
    "paytables": "paytable",
    "custom_paytables": "stated paytable",
    "progressives": "progressive",
    "meters": "meter",
    "primary": "primary",
    "seed": "seed",
    "reseed": "reseed",
    "increment": "rate of progression",
    "reserve_increment": "reserve rate",
    "wager_amount": "wager amount",
    "equipment": "Equipment",
    "progressive_system": "progressive table game system",
    "electronic_wagering_system": "electronic wagering system",
    "payout_limit": "Payout limit",
    "adjacent_boxes": "Adjacent wagering areas",
    "rake": "Rake",
    "bad_beat": "Bad Beat payout",
    "betting": "Betting",
    "blinds": "Blind Bets",
    "ante": "Ante",
    "forced_bet": "Forced Bet",
    "max_raises": "maximum number of raises",
    "max_raises_by_round": "maximum number of raises by betting round",
    "check_raise": "raising after a check",
    "structure": "limit structure",
    "upper_from": "upper limit from",
    "raised_minimum": "raised minimum wager",
    "max_increase": "most increase",
    "kill": "Kill",
    "every_minutes": "assessed every (minutes)",
    "time": "time charge",
    "max_contribution": "contribution, at most, from a pot",
    "min_pot": "minimum pot",
    "rank_at_least": "rank, at least",
    "qualifying_pot": "qualifying pot",
    "box": "payout box",
    "approved": "approved on",
    "showdown": "Showdown",
    "deck_rotation": "Deck rotation",
}

#: A key whose parent makes it another thing, by the last two keys: the Bad Beat payout's
#: ``offered`` is whether it is offered, not the wagers offered (looked up first).
FIELD_NAMES_AT = {
    "bad_beat/offered": "offered",
    "shares/table": "to the other players dealt in",  # "Bad Beat payout shares to …"
    "shares/losing_hand": "to the losing hand",
    "shares/winning_hand": "to the winning hand",
}


def field_name(game: Any, pointer: str) -> str:
    """A change's field as a person names it: ``/effective`` is "Effective date",
    ``/paytables/aces_up`` "Aces Up paytable", ``/table/max_wager`` "Table maximum wager";
    a wager or table id is its name in the chapter."""
    parts = [p for p in pointer_parts(pointer) if p]
    names: dict[str, str] = {}
    if game is not None:
        d = game.definition
        names.update({w: wager.name for w, wager in d.wagers.items()})
        names.update({t: table.name for _, t, table in d.tables()})
    above = ["", *parts[:-1]]  # each key's parent, for the names it changes
    words = [
        FIELD_NAMES_AT[f"{a}/{p}"] if f"{a}/{p}" in FIELD_NAMES_AT else _word(p, names)
        for a, p in zip(above, parts, strict=True)
    ]
    if len(parts) >= 3 and parts[0] == "progressives":  # "Four-Card Progressive, wager amount"
        if len(parts) >= 4 and parts[2] == "meters":  # "… meter's seed", as signs say
            meter = meter_label(words[1], parts[3])
            return f"{meter}'s {' '.join(words[4:])}" if len(parts) >= 5 else meter
        return f"{words[1]}, {' '.join(words[2:])}"
    if parts[:2] == ["dealing", "change_every_hours"] and len(parts) == 3:
        from validator.checks.derive import METHOD_NAMES  # "Deck change, cards dealt by hand"

        return f"Deck change (hours), cards {METHOD_NAMES.get(parts[2], words[2])}"
    if len(parts) >= 2 and parts[0] in ("paytables", "custom_paytables", "progressives"):
        words = [words[1], words[0], *words[2:]]  # "Aces Up paytable", "… progressive meter"
        if words[1] in words[0].lower():  # "Five-Card Progressive", never "… progressive"
            words = [words[0], *words[2:]]
    text = " ".join(words)
    return text[:1].upper() + text[1:] if text else "The submission"


def _word(part: str, names: dict[str, str]) -> str:
    """One key of a path in words; a list's index counted from one, as people count
    (``/offered/0`` is the first wager offered: "Wagers offered (item 1)")."""
    if part.isdigit():
        return f"(item {int(part) + 1})"
    return names.get(part) or FIELD_NAMES.get(part) or part.replace("_", " ")


def value_words(game: Any, pointer: str, value: Any) -> Any:
    """A stated value as the chapter words it: a choice by its words (``choice_words``), a
    wager or table offered by its name, a hand of the ranking (the Bad Beat's
    ``at_least: four_of_a_kind``) by the ranking's name for it; anything else as it is."""
    keys = [p for p in pointer_parts(pointer) if p]
    if keys[-2:] in (["dealing", "methods"], ["dealing", "shuffler"]):
        return method_names(value)
    if game is None or not keys:
        return choice_words(pointer, value)
    d = game.definition
    if keys == ["offered"] and isinstance(value, list):
        names = {t: table.name for _, t, table in d.tables()}
        names.update({w: wager.name for w, wager in d.wagers.items()})
        return [names.get(v, v) if isinstance(v, str) else v for v in value]
    if keys[-2:] in (["qualifying", "at_least"], ["qualifying", "beaten_by"]):
        showdown = getattr(d, "showdown", None)
        if isinstance(value, str) and showdown is not None and showdown.high:
            ev = game.evaluator(showdown.high)
            return ev.category(value).name if value in ev.ids else value
    if keys[-1] == "upper_from" and isinstance(value, str):  # a street, as the sign names it
        deal = getattr(d, "deal", None)
        streets = deal.streets if deal is not None else {}
        return streets[value].in_sentence if value in streets else value
    if keys[-2:] == ["qualifying", "rank_at_least"] and isinstance(value, int):
        return f"{RANK_PLURALS[value]} or better" if value in RANK_PLURALS else value
    return choice_words(pointer, value)


def method_names(value: Any) -> Any:
    """The dealing methods (``methods:``) and the shuffler in words: "dealt from a manual
    dealing shoe", "an automated card shuffling device"; anything else as it is."""
    from validator.checks.derive import METHOD_NAMES, SHUFFLER_NAMES

    words = {**METHOD_NAMES, **SHUFFLER_NAMES}
    if isinstance(value, list):
        return [words.get(m, m) if isinstance(m, str) else m for m in value]
    return words.get(value, value) if isinstance(value, str) else value


#: A field as a finding's message names it: a path into the submission (``/table/max_wager``),
#: never a value the filer wrote, which a message quotes (``shuffler: '/opt/shuffler'``).
_POINTER = re.compile(r"(?<![\w/.'\"])/[a-z][a-z0-9_]*(?:/[A-Za-z0-9_~.-]+)*")
#: What follows a file's path, never a pointer: its place (``file.yaml:11:22``).
_PLACE = re.compile(r":\d")
#: A file's name ends a path: ``…/fcp-paytables.yaml`` (a pointer's keys have no extension).
_FILE_NAME = re.compile(r"/[^/]*[A-Za-z0-9_-]\.[A-Za-z][A-Za-z0-9]*$")


def in_words(game: Any, message: str) -> str:
    """A finding's message for the documents and pages people read: each field it names by
    its path into the submission (as `validate`'s line names it, for the file's author)
    named as a person names it (``field_name``). A file's path (``/srv/rulesubs/x.yaml:11:22``,
    the place of a problem) is no field: it stays as written."""

    def named(m: re.Match[str]) -> str:
        text = m.group(0)
        if _PLACE.match(message, m.end()) or _FILE_NAME.search(text):
            return text
        return field_name(game, text)

    return _POINTER.sub(named, message)
