"""Exact odds of the paytable wagers, from the game files alone.

``exact_odds(game, table_id, letter)`` prices one paytable of a game file;
``odds_for_rows(game, hand_id, rows)`` prices a table given as rows (a table a Rules
Submission states where the regulation copy prints none, e.g. the Pocket Bonus,
§ 677a.12(d)). Both return an ``OddsResult``: the exact hold (``Fraction``), hit
frequency, variance per unit wagered, the combinations and probability of every paying
row, the meter values used, and the Board's stated hold range with whether the hold lies
inside it.

How: a paytable pays on one hand (a ranking over k cards dealt from one deck); the number
of the C(52, k) hands in each category is counted exactly by evaluating one hand per orbit
of the suit permutations that leave the ranking unchanged, weighted by the orbit's size
(``validator.odds.enumeration``; the batch evaluator ``validator.rankings.batch``). All
figures are fractions; a float appears only in printed percentages and JSON numbers.

Tables priced (every table paid on a plain deal of cards, whatever the player decides):

- Four Card Poker: Aces Up (A–F), the Ante Bonus (§ 641a.12(b)), Four-Card Progressive
  (A, B), Five-Card Progressive (A–D), Five Card Hand Bonus, Six Card Bonus (A–E);
- Lunar Poker: Super Wager (A–C) and the instant payout on the Ante (A–H);
- WPT Heads-Up Hold 'Em: Trips Plus (A–D); Pocket Bonus when a table is supplied;
- High Card Flush: Flush Bonus (A–H), Straight Flush Bonus (A–D), Progressive Jackpot (A, B).

A table of a wager that is also settled against the dealer (the Ante Bonus, the instant
payout on the Ante) is a bonus with no stake of its own: its "hold" is minus its return per
unit of that wager (``basis == "bonus"``). A meter share is valued at the meter's seed for
the wager amount ($1 unless stated), at the least seed the chapter allows where it states
only a floor (High Card Flush, $30,000), or at the amount given.

A table paid on the lower of two hands dealt together (Four Card Poker's Bad Beat Bonus,
§ 641a.12(f): the player's best four of five cards and the dealer's best four of six) is
counted over every deal of both hands, C(52, 5) × 47 × C(46, 5), by the exact method of the
base game (``validator.par.completions``: the dealer's completions of each up card, counted
by inclusion–exclusion, split by the dealer's category), the base game played by its optimal
strategy; a player who folds loses the wager (``OddsResult.strategy``). That method is a
document's (the par sheet's), so the documents pass it in (``joint=JOINT``); without it, as
the checks read a game, such a table is not priced.

Tables not priced, and why (``not_priced_reason`` says so for each):

- Envy Bonuses (§ 641a.12(d)(5), (e)(5)): fixed sums paid for *other* players' hands; there
  is no stake for a hold to be a share of.
- Magic Card and Lucky Bonus (§ 641a.12(g)(3)): paid on draws of the table game system.
- Lunar Poker's Bet Wager and WPT's Odds Wager: paid only when the hand beats the dealer's,
  after the player's decisions (draws, folds, raises).
- WPT's Bad Beat on the Odds Wager (``paid_when: player_lower``): paid only when the player's
  straight or better loses to the dealer's hand (§ 677a.11(h)(2)(iii)(B)), so not even a
  table a submission states is priced as a wager of its own; the base game's figures
  (the par sheet) carry its payouts.
- § 677a.12(c) and (d) (WPT Bad Beat, Pocket Bonus): missing from the regulation copy; a
  supplied Pocket Bonus table is priced with ``odds_for_rows``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from validator.compiler import Game
from validator.odds.wagers import (
    CategoryOdds,
    JointPricer,
    MeterArg,
    MeterValue,
    NotPriced,
    OddsError,
    OddsResult,
    not_priced_reason,
    rows_odds,
    select,
    table_odds,
)

__all__ = [
    "CategoryOdds",
    "JointPricer",
    "MeterValue",
    "NotPriced",
    "OddsError",
    "OddsResult",
    "exact_odds",
    "not_priced_reason",
    "odds_for_rows",
    "priced_table",
    "select",
]


def exact_odds(
    game: Game,
    table_id: str,
    letter: str | None = None,
    *,
    meter: MeterArg = None,
    wager_amount: Decimal | None = None,
    joint: JointPricer | None = None,
) -> OddsResult:
    """The exact odds of paytable ``letter`` of table ``table_id`` (``None`` for a fixed
    table). ``meter``: the amount on the meter (dollars) instead of its seed, or amounts by
    meter name; ``wager_amount``: the wager the meter amounts go with ($1 by default);
    ``joint``: how a table paid on the lower of two hands is counted."""
    return table_odds(game, table_id, letter, meter=meter, wager_amount=wager_amount, joint=joint)


def odds_for_rows(
    game: Game,
    hand_id: str,
    rows: Mapping[str, object],
    *,
    meter: MeterArg = None,
    table_id: str | None = None,
    wager_amount: Decimal | None = None,
    joint: JointPricer | None = None,
) -> OddsResult:
    """The exact odds of a table given as rows (category id → payout, as ``Payout`` or as
    the chapter writes it: ``"25 to 1"``), paid on ``hand_id``. With ``table_id`` the
    result names that table and carries its stated hold range and meters."""
    return rows_odds(
        game, hand_id, rows, meter=meter, table_id=table_id, wager_amount=wager_amount, joint=joint
    )


def priced_table(
    game: Game,
    table_id: str,
    letter: str | None = None,
    rows: Mapping[str, object] | None = None,
    *,
    meter: MeterArg = None,
    wager_amount: Decimal | None = None,
    joint: JointPricer | None = None,
) -> OddsResult:
    """The exact odds of a table as a submission has it: the ``rows`` it states where the
    chapter's text is missing (``odds_for_rows``), else the chapter's paytable ``letter``
    (``exact_odds``)."""
    if rows is None:
        return exact_odds(
            game, table_id, letter, meter=meter, wager_amount=wager_amount, joint=joint
        )
    _, table = game.table(table_id)
    return odds_for_rows(
        game,
        table.pays_on or "",
        rows,
        meter=meter,
        table_id=table_id,
        wager_amount=wager_amount,
        joint=joint,
    )
