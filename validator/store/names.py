"""Names as people write and read them: the one place the store compares a name a person
wrote (a facility, who acts) and says a stored file's name.

A name is compared by its ``key``: Unicode NFKC (a no-break space is a space, a full-width
letter its plain one), case folded, each run of white space one space, trimmed. So
``"Riverside Commons Casino "``, ``"riverside commons casino"``,
``"Riverside  Commons Casino"`` and ``"Riverside\\u00a0Commons Casino"`` are one facility,
and one officer. The record keeps the bytes as filed, and each row the name as written: only
the comparison reads the key, so no stored name changes.

A letter that only looks like another is not folded: ``"Casinо"`` with a Cyrillic ``о``
(U+043E) has another key. A facility's or a certificate holder's name is therefore written
in one script (``out_of_place``): a name mixing letters of several, which would show on a
page as another's name, is refused, the letter out of place named.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from validator.model.base import unseen

_SPACES = re.compile(r"\s+")
#: The letters a script check reads: capital, small, title-case and other letters; a
#: modifier letter (``ʼ``, ``ー``) belongs to no one script.
_LETTERS = {"Lu", "Ll", "Lt", "Lo"}
#: Scripts written together as one writing (Japanese and Korean with Han ideographs, as
#: Unicode's UTS #39 allows): one script for the check, named CJK.
_WITH_HAN = {"HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"}


def key(name: str) -> str:
    """``name`` as the store compares it: NFKC, case folded, white space runs one space,
    trimmed (Unicode's NFKC_Casefold, with the white space a person does not see)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _SPACES.sub(" ", folded).strip()


def same(a: str | None, b: str | None) -> bool:
    """Whether two names are one (``key``); a name missing is no one's."""
    return a is not None and b is not None and key(a) == key(b)


def _script(letter: str) -> str | None:
    """The script of a letter as Unicode names it (``LATIN`` SMALL LETTER A, ``CYRILLIC``
    SMALL LETTER O: the name's first word); ``None`` for what is no letter. A letter is read
    as NFKC reads it: a full-width ``Ａ`` is Latin, an ``ª`` an ``a``."""
    scripts = [
        unicodedata.name(c, "").split(" ")[0]
        for c in unicodedata.normalize("NFKC", letter)
        if unicodedata.category(c) in _LETTERS
    ]
    if not scripts:
        return None
    return "CJK" if scripts[0] in _WITH_HAN else scripts[0]


def out_of_place(name: str) -> str | None:
    """Why ``name`` cannot be a facility's or a holder's name, in words, else ``None``: a
    character no one sees (a control or format character, ``U+200B``), or a letter of
    another script than the name's (the script most of its letters are written in; the
    first letter's where as many are of each)."""
    why = unseen(name)  # a bell, an escape, half a UTF-16 pair: the model's one reading
    if why is not None:
        return why
    scripts = [(i, c, _script(c)) for i, c in enumerate(name, 1)]
    letters = [(i, c, s) for i, c, s in scripts if s is not None]
    if len({s for _, _, s in letters}) < 2:
        return None
    written = [s for _, _, s in letters]
    main = max(dict.fromkeys(written), key=written.count)  # ties: the first letter's
    i, c, s = next((i, c, s) for i, c, s in letters if s != main)
    return (
        f"character {i}, {_named(c)}, is {_said(s)} in a name written in "
        f"{_said(main)} letters: a name is written in one script"
    )


def _said(script: str) -> str:
    return script if script == "CJK" else script.title()


def _named(c: str) -> str:
    """A character as Unicode names it: ``U+043E CYRILLIC SMALL LETTER O``."""
    return f"U+{ord(c):04X} {unicodedata.name(c, 'UNNAMED')}"


def file_name(stored: str | None) -> str:
    """A filing's file as a person reads it: its base name. The store keeps the name it was
    recorded under, which from the command line is the path given
    (``/srv/filings/x.yaml``, ``C:\\filings\\x.yaml``): the record keeps it; no page, pack
    or message shows the directories of the machine it was filed from."""
    return re.split(r"[\\/]", stored or "")[-1]


def ended(row: Any) -> str | None:
    """How a filing another one took the place of ended, in words: "superseded by #6 from
    2027-06-01", "replaced by #31"; None for any other (the one phrase for the store's
    refusals, the review pack and the filing compared with)."""
    status = getattr(row, "status", None)
    if status == "superseded" and row.superseded_by is not None:
        return f"superseded by #{row.superseded_by} from {row.superseded_on}"
    if status == "replaced" and row.superseded_by is not None:
        return f"replaced by #{row.superseded_by}"
    return None


def approved_label(row: Any) -> str:
    """An approved filing compared with, as the review pack and ``diff`` name it: superseded
    since (by the filing under review, once it is approved), it says so and by which."""
    label = f"approved #{row.id} ({file_name(row.filename)}, effective {row.effective})"
    return label + (f", {gone}" if (gone := ended(row)) else "")
