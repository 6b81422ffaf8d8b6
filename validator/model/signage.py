"""The signs a table must carry, as data in the game file.

Sign text sits next to the rule it comes from (``sign:`` on the dealer's qualification, the
payout limit, a Raise rule, a table, a meter, an option of the Options fee, the table's
rules), worded as the chapter's layout section words it and citing it. The game-level
``signage:`` section lists the signs the chapter requires, in order, and what each shows:
the payout odds of some wagers (generated from their paytables and the submission's
selections) and the ``sign:`` lines named by JSON pointer into the game file.

Sign text may name figures that only a Rules Submission states, as ``{placeholders}`` from a
closed vocabulary (``PLACEHOLDERS``). A line naming a figure the submission does not state is
left out: the chapters require such a line only "if established by the certificate holder"
(the payout limit, § 677a.2(b)(8)(ii), § 678a.2(b)(7)(iv)).
"""

from __future__ import annotations

import string
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, field_validator, model_validator

from validator.model.base import Cite, Strict
from validator.pointer import parts

#: Figures a sign line may name, filled from the Rules Submission when signage is printed.
PLACEHOLDERS: dict[str, str] = {
    "certificate_holder": "the certificate holder's name",
    "facility": "the licensed facility",
    "min_wager": "the table's minimum wager, in dollars",
    "max_wager": "the table's maximum wager, in dollars",
    "payout_limit": "the aggregate payout limit per player per round, in dollars",
    "payout_limit_excludes": (
        "the winning wagers the payout limit does not include, as a sentence, where the "
        "table offers them (empty where it offers none)"
    ),
    "meter": "a progressive meter's name (Progressive, Mega jackpot, …)",
    "seed": "that meter's initial amount, in dollars",
    "reseed": "that meter's reset amount, in dollars",
    # nonbanking Poker (ch. 553)
    "max_raises": "the most raises in a betting round (when the submission restricts them)",
    "max_raises_by_round": "the most raises in each betting round, by street (when stated)",
    "check_raise_ban": "the posted ban on raising after checking (when the submission posts one)",
    "limit_structure": "spread, fixed or split limit, in words (when stated)",
    "ante": "the Ante's amount, when one is required",
    "blinds": "the Blind Bets' amounts, in order",
    "forced_bet": "the Forced Bet's amount",
    "rake_percentage": "the percentage rake's rate",
    "rake_maximum": "the maximum permissible rake, in dollars",
    "rake_levels": "an incremental rake's amounts by pot level",
    "rake_hourly_fee": "a time charge's hourly fee, in dollars",
    "rake_time_basis": "per player or per table",
    "rake_time_minutes": "how often a time charge is assessed, in minutes",
    "rake_methodology": "the rake's methodology, in the Rules Submission's own words",
    "kill_option": "Kill option or Half-kill option, when one is used",
    "qualifying_pot": "the minimum value of a qualifying pot, in dollars",
    "kill_limits": "what the option makes of the posted limits",
    "kill_min_wager": "the minimum wager while the option is in effect",
    "kill_max_wager": "the maximum wager while the option is in effect",
    "bad_beat_hands": "the qualifying Bad Beat hands, when a Bad Beat payout is offered",
    "bad_beat_payouts": "how a Bad Beat payout is shared, as the submission states it",
    "bad_beat_amount": "where the Bad Beat payout's current amount is shown (its meter)",
    "bad_beat_max_contribution": "the most contributed from each pot to the Bad Beat payout",
    "bad_beat_minimum_pot": "the minimum pot for a Bad Beat contribution",
    "bad_beat_method": "how a Bad Beat contribution is calculated, as the submission states it",
}


def placeholders(text: str) -> list[str]:
    """The ``{names}`` a sign text uses, in order."""
    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


class Sign(Strict):
    """One line of a sign: the words, and the section that requires them."""

    text: str = Field(min_length=1)
    cite: Cite
    note: str | None = None

    @field_validator("text")
    @classmethod
    def _known_placeholders(cls, value: str) -> str:
        try:
            names = placeholders(value)
        except ValueError as e:
            raise ValueError(f"sign text {value!r}: {e} (write a literal brace as {{{{)") from None
        for name in names:
            if name not in PLACEHOLDERS:
                raise ValueError(
                    f"sign text {value!r}: no figure {{{name}}}; the figures a sign may "
                    f"name are: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}"
                )
        return value

    def fill(self, figures: dict[str, str]) -> str | None:
        """The text with its figures filled in; None when a figure is not stated."""
        names = placeholders(self.text)
        if any(figures.get(n) is None for n in names):
            return None
        return self.text.format_map({n: figures[n] for n in names})


def _one_or_many(value: Any) -> Any:
    return [value] if isinstance(value, dict) else value


#: ``sign:`` takes one line or a list of lines.
Signs = Annotated[list[Sign], BeforeValidator(_one_or_many)]


class SignDef(Strict):
    """A sign the chapter requires at the table, and what it shows."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    cite: Cite
    placement: Literal["layout", "layout_or_sign", "sign", "house_sign"] = Field(
        description="layout: must be inscribed on the layout; layout_or_sign: inscribed on "
        "the layout or posted as a sign at each table; sign: posted at each table; "
        "house_sign: posted at each table by the house, though no section of the game's "
        "rules requires it (cited by the rule it is approved under, or that its figures bind)"
    )
    payout_odds: list[str] = Field(
        default_factory=list,
        description="wager ids whose payout odds this sign shows, those offered, in this order",
    )
    lines: list[str] = Field(
        default_factory=list,
        description="JSON pointers into the game file to rules carrying a `sign:`",
    )
    note: str | None = None

    @model_validator(mode="after")
    def _shows_something(self) -> SignDef:
        if not self.payout_odds and not self.lines:
            raise ValueError(f"sign {self.id!r} shows nothing: give `payout_odds` or `lines`")
        for pointer in self.lines:
            if not pointer.startswith("/"):
                raise ValueError(f"sign {self.id!r}: {pointer!r} is not a JSON pointer")
        return self


class Signage(Strict):
    """The game-level list of required signs."""

    signs: list[SignDef] = Field(min_length=1)
    note: str | None = None

    @field_validator("signs")
    @classmethod
    def _unique(cls, value: list[SignDef]) -> list[SignDef]:
        ids = [s.id for s in value]
        for i in ids:
            if ids.count(i) > 1:
                raise ValueError(f"sign id {i!r} is used twice")
        return value


def resolve(root: object, pointer: str) -> object:
    """Follow a JSON pointer through models (attributes), dicts (keys) and lists (indices)."""
    node = root
    for part in parts(pointer):
        if isinstance(node, dict):
            if part not in node:
                raise KeyError(pointer)
            node = node[part]
        elif isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise KeyError(pointer)
            node = node[int(part)]
        elif isinstance(node, BaseModel) and part in type(node).model_fields:
            node = getattr(node, part)
        else:
            raise KeyError(pointer)
        if node is None:
            raise KeyError(pointer)
    return node


def check_signage(game: Any) -> list[str]:
    """What is wrong with a game's ``signage:`` section (pointers, wagers, completeness)."""
    problems: list[str] = []
    signage: Signage | None = game.signage
    if signage is None:
        return problems
    shown: set[str] = set()
    for i, sign in enumerate(signage.signs):
        where = f"/signage/signs/{i}"
        for wager in sign.payout_odds:
            if wager not in game.wagers:
                problems.append(f"{where}/payout_odds: no wager {wager!r}")
            if wager in shown:
                problems.append(f"{where}/payout_odds: wager {wager!r} is on another sign too")
            shown.add(wager)
        for j, pointer in enumerate(sign.lines):
            try:
                node = resolve(game, pointer)
            except KeyError:
                problems.append(f"{where}/lines/{j}: {pointer!r} names nothing in the game file")
                continue
            if getattr(node, "sign", None) is None:
                problems.append(f"{where}/lines/{j}: {pointer!r} has no `sign:`")
    if any(s.payout_odds for s in signage.signs):
        # "the payout odds or amounts for all permissible wagers offered" (e.g. § 641a.2(b)(7))
        for wager in game.wagers:
            if wager not in shown:
                problems.append(f"/signage: no sign shows the payout odds of wager {wager!r}")
    return problems
