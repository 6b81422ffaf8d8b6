"""A player's decisions as words: ``play 3x``, ``play $15``, ``raise max``, ``fold``,
``exchange 2C 5D 9H``.

A round file states its players' actions in these words; a strategy row's ``then:`` says the
option it takes in them too, or the cards an exchange keeps (``exchanged``). Both round
engines read them here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from validator.cards import parse_card, rank_of
from validator.interpreter.errors import RoundError
from validator.model.notation import NotationError, parse_money

#: A multiple as a round file writes it: ASCII digits, then ``x`` (``2x``, ``10x``).
MULTIPLE = re.compile(r"([0-9]{1,9})x", re.ASCII)
#: What looks like a multiple but is none: a sign, other digits, too many of them.
LIKE_MULTIPLE = re.compile(r"[+\-−]?[\d.,_]+x", re.UNICODE)


def _shown(word: str, limit: int = 24) -> str:
    return repr(word if len(word) <= limit else word[:limit] + "…")


@dataclass
class Action:
    option: str
    multiple: int | str | None = None  # an int, "max", or None
    #: a wager stated as an amount (``play $15``): a round file's, where the chapter allows
    #: any amount in a range ("from one to three times", § 641a.11(b)); strategies say 2x
    amount: Decimal | None = None
    cards: list[int] = field(default_factory=list)  # exchange: the discards
    keep: int | None = None  # exchange: keep the n highest cards
    keep_paired: bool = False  # exchange: keep the cards of ranks held more than once
    text: str = ""


def parse_action(text: str) -> Action:
    """``play 3x``, ``play $15``, ``raise max``, ``fold``, ``exchange 2C 5D 9H``, ``bet``."""
    words = re.sub(r",(?![0-9]{3}\b)", " ", text).split()  # $1,000 keeps its comma
    if not words:
        raise RoundError("an empty action")
    a = Action(option=words[0].lower(), text=" ".join(words))
    for w in words[1:]:
        lw = w.lower()
        if lw == "max":
            a.multiple = "max"
        elif (m := MULTIPLE.fullmatch(lw)) is not None:
            a.multiple = int(m.group(1))
        elif lw.startswith("$"):
            try:
                a.amount = parse_money(w)
            except NotationError:
                raise RoundError(
                    f"action {_shown(a.text, 40)}: {_shown(w)} is no amount: write dollars "
                    "like $15 or $7.50"
                ) from None
        elif LIKE_MULTIPLE.fullmatch(lw):
            raise RoundError(
                f"action {_shown(a.text, 40)}: {_shown(w)} is no multiple: a multiple is a whole "
                "number of times the wager from 1 to 999,999,999, in the digits 0 to 9, "
                "then x, like 2x; any other amount is written in dollars, like $15"
            )
        else:
            try:
                a.cards.append(parse_card(w))
            except ValueError:
                raise RoundError(
                    f"action {_shown(a.text, 40)}: {_shown(w)} is neither a multiple like 2x, "
                    "an amount like $15, nor a card"
                ) from None
    return a


def exchanged(held: list[int], paired: bool, highest: int) -> list[int]:
    """The cards a strategy's exchange discards: it keeps the cards of ranks held more than
    once when ``paired`` (and the hand has any), else the ``highest`` highest cards."""
    if paired:
        ranks = [rank_of(c) for c in held]
        keep = [c for c in held if ranks.count(rank_of(c)) > 1]
        if keep:
            return sorted((c for c in held if c not in keep), reverse=True)
    return sorted(held, reverse=True)[highest:]
