"""Every word of the game files' vocabulary, declared once: its kind, its model field, what
it does in the domain's words, and where an engine does not handle it, why.

The models are named, not imported (``rulesub validate`` starts without the game models):
``Word.model`` imports one when it is asked for.

The meanings are registered by the engines themselves (``@meaning`` in
``validator/rankings/``, ``validator/interpreter/``, ``validator/checks/kinds.py``).
"""

from __future__ import annotations

from validator.vocabulary.registry import (
    CONDITION,
    CONSTRAINT_KIND,
    POKER_WORD,
    RANKING_PRIMITIVE,
    STEP,
    TABLE_FEATURE,
    word,
)

LOW_BATCH = (
    "the batch evaluator ranks high hands only (it refuses a low ranking); Poker's low "
    "halves are evaluated hand by hand"
)
POKER_QUALIFIER = (
    "a qualifier is read at a Poker showdown, which the poker engine settles hand by hand; "
    "no batch engine plays Poker"
)

#: the fields that frame a word rather than being one: a ranking's and a category's names
#: and citation, a table's name, rows, citation and sign
FRAME: dict[str, frozenset[str]] = {
    RANKING_PRIMITIVE.id: frozenset({"id", "name", "size", "cite", "note", "categories"}),
    TABLE_FEATURE.id: frozenset({"name", "cite", "note", "sign", "paytable", "paytables"}),
}

# -- ranking primitives (games/rankings.yaml) ---------------------------------------------

_R = RANKING_PRIMITIVE
word(
    _R,
    "of_a_kind",
    "validator.model.ranking.Category",
    """Rank multiplicities, largest first: `[2]` a pair,
    `[2, 2]` two pair, `[3, 2]` a full house, `[4]` four of a kind. Of two hands of the
    category, the higher groups win, then the kickers (by the ranking's `tiebreak`).""",
)
word(
    _R,
    "flush",
    "validator.model.ranking.Category",
    """`n` cards of one suit (`flush: 4` in Four Card Poker,
    `flush: 5` in five-card Poker); with `suit:` only that suit. The best is the one whose
    ranks, highest first, are highest.""",
)
word(
    _R,
    "straight",
    "validator.model.ranking.Category",
    """`n` cards of consecutive ranks, of any suits; the ace
    plays high, and low below the 2 only where the ranking says `ace_low`.""",
)
word(
    _R,
    "straight_flush",
    "validator.model.ranking.Category",
    """`n` cards of consecutive ranks, all of one suit
    (with `suit:` that suit); a higher run beats a lower one.""",
)
word(
    _R,
    "same_color",
    "validator.model.ranking.Category",
    """`n` cards of one colour: hearts with diamonds, or
    spades with clubs (Lunar Poker's Super Wager).""",
)
word(
    _R,
    "same_color_straight",
    "validator.model.ranking.Category",
    """`n` consecutive ranks, all of one colour, the
    suits mixed within it (Lunar Poker's Super Wager).""",
)
word(
    _R,
    "ranks",
    "validator.model.ranking.Category",
    """An exact set of ranks, one card of each: with `suited` all of
    one suit (a royal flush, a six-card royal), with `suit:` of that suit.""",
)
word(
    _R,
    "contains",
    "validator.model.ranking.Category",
    """The hand holds one card of each of these ranks, whatever
    else it holds (Lunar Poker's ace-king: an ace and a king).""",
)
word(
    _R,
    "contains_any",
    "validator.model.ranking.Category",
    """The hand holds one of several rank sets (each as
    `contains`); the best set held is the combination.""",
)
word(
    _R,
    "any",
    "validator.model.ranking.Category",
    """Any hand: the lowest category of a ranking (high card, no
    qualifying hand), compared by its high cards.""",
)
word(
    _R,
    "min_rank",
    "validator.model.ranking.Category",
    """With `of_a_kind`, the group's rank is at least this (a pair
    of aces: `of_a_kind: [2], min_rank: A`).""",
)
word(
    _R,
    "max_rank",
    "validator.model.ranking.Category",
    """With `of_a_kind`, the group's rank is at most this (a
    pocket pair of 2s through 10s).""",
)
word(
    _R,
    "suited",
    "validator.model.ranking.Category",
    """With `ranks`, `contains` or `contains_any`: the cards named
    are all of one suit (a royal flush is `ranks: [A, K, Q, J, 10], suited: true`).""",
)
word(
    _R,
    "suit",
    "validator.model.ranking.Category",
    """Restricts a flush, straight flush or rank set to one suit
    (the diamond royal of Six Card Bonus table E).""",
)
word(
    _R,
    "refines",
    "validator.model.ranking.Category",
    """A paytable distinction inside a category of the ranking
    (four aces inside four of a kind): hands compare as the category refined, a paytable
    may pay the refinement its own row, and a table without that row pays the category's.""",
)
word(
    _R,
    "ace_low",
    "validator.model.ranking.Ranking",
    """An ace may end a straight below the 2 (A-2-3-4-5, topping at
    5). Where the chapter has no such clause (High Card Flush, § 678a.6) the ace plays high
    only.""",
)
word(
    _R,
    "low",
    "validator.model.ranking.Ranking",
    """`low: ace-to-five`: a low ranking. The ace ranks below the 2,
    straights and flushes are not considered, and hands rank in the inverse of the high
    order (§ 553.4(c), (d)).""",
    none={"batch": LOW_BATCH},
)
word(
    _R,
    "tiebreak",
    "validator.model.ranking.Ranking",
    """How two hands of one category compare: `grouped` by rank
    groups (the pair, then the kickers, as Poker does), `combination` by the ranks of the
    cards forming the category, highest first (High Card Flush's longest flush).""",
)
word(
    _R,
    "qualifiers",
    "validator.model.ranking.Ranking",
    """A floor a hand must reach to win at all: Poker's "eight or
    better" low (§ 553.10(j)), its category at least `at_least`, no card above
    `max_rank`.""",
    none={"batch": POKER_QUALIFIER},
)

# -- procedure steps -------------------------------------------------------------------------

_S = STEP
word(
    _S,
    "wagers",
    "validator.model.procedure.WagersStep",
    """The players' wagers stand ("no more bets"); progressive
    meters take their increments from the wagers placed on their tables.""",
    field="step",
)
word(
    _S,
    "deal",
    "validator.model.procedure.DealStep",
    """Cards to the players, the dealer, the community or a named
    spot, one at a time around the table from the dealer's left, the dealer last; some face
    up, optionally after burning cards, optionally only when a wager is placed.""",
    field="step",
)
word(
    _S,
    "table_system",
    "validator.model.procedure.TableSystemStep",
    """A draw by the table game system: a random
    card, or a random position, that some settlement rows read (`event:`).""",
    field="step",
)
word(
    _S,
    "decide",
    "validator.model.procedure.DecideStep",
    """Each player asked in turn chooses one of the options:
    fold, check, a wager sized from another (Play 1-3x Ante), a fee with a draw. The choice
    comes from the round file's actions or from a strategy.""",
    field="step",
)
word(
    _S,
    "draw",
    "validator.model.procedure.DrawStep",
    """The cards the players chose at a decision are dealt: a card
    added (a sixth card) or discards replaced (an exchange).""",
    field="step",
)
word(
    _S,
    "reveal",
    "validator.model.procedure.RevealStep",
    """The dealer's cards are turned face up.""",
    field="step",
)
word(
    _S,
    "qualify",
    "validator.model.procedure.QualifyStep",
    """The dealer's hand is checked against the game's
    `dealer.qualifies`.""",
    field="step",
)
word(
    _S,
    "replace",
    "validator.model.procedure.ReplaceStep",
    """The dealer discards a card (the highest ranking one) and
    takes the next card from the deck, when the step's condition holds (a player bought
    it).""",
    field="step",
)
word(
    _S,
    "settle",
    "validator.model.procedure.SettleStep",
    """The dealer settles the named settlement lines for each
    player, in the chapter's order of players, each line by the first row of its decision
    table whose conditions hold.""",
    field="step",
)

# -- condition keys ----------------------------------------------------------------------------

_C = CONDITION
WHEN = "validator.model.procedure.When"
word(_C, "folded", WHEN, """The player folded (`true`) or did not (`false`).""")
word(
    _C,
    "decided",
    "validator.model.procedure.When",
    """The option chosen at a decision: `{play: raise}`, a list of
    options for any of them, `none` for a player not asked.""",
)
word(
    _C,
    "wagered",
    "validator.model.procedure.When",
    """The player placed this wager (or every wager of a list),
    any amount above zero.""",
)
word(_C, "not_wagered", WHEN, """The player placed none of these wagers.""")
word(
    _C,
    "dealer_qualifies",
    "validator.model.procedure.When",
    """The dealer's hand qualifies (`dealer.qualifies`), or
    does not (`false`).""",
)
word(
    _C,
    "player",
    "validator.model.procedure.When",
    """The player's hand compared with the dealer's (`settle.compare`):
    `higher`, `equal` or `lower`, or a list of them.""",
)
word(
    _C,
    "hand",
    "validator.model.procedure.When",
    """A test of a hand: `at_least` / `below` a category (with leading
    ranks: `{category: pair, ranks: [3]}` is a pair of 3s), or `is` / `is_not` one of some
    categories, refinements included.""",
)
word(
    _C,
    "beats",
    "validator.model.procedure.When",
    """Two hands of one ranking compared: `{hand: A, other: B, is:
    higher}`.""",
)
word(
    _C,
    "dealer_up",
    "validator.model.procedure.When",
    """The dealer's face-up card: its rank among `rank_in`, or at
    least `rank_at_least`.""",
)
word(
    _C,
    "holds_dealer_up_rank",
    "validator.model.procedure.When",
    """The player holds a card of the rank of the
    dealer's face-up card.""",
)
word(
    _C,
    "suited",
    "validator.model.procedure.When",
    """The cards of a group (`player`, or a named group) are all of
    one suit, or (`false`) are not.""",
)
word(
    _C,
    "event",
    "validator.model.procedure.When",
    """The table game system's draw favours this line's hand: a
    drawn card among the hand's cards, or a drawn position that is this line's.""",
)
word(
    _C,
    "any_player",
    "validator.model.procedure.When",
    """Some player dealt in satisfies the nested condition (a step
    guard: the dealer replaces a card when any player bought it).""",
)

# -- table features ------------------------------------------------------------------------

_T = TABLE_FEATURE
ODDS_ONLY = (
    "a wager on the second hand is a settlement line of its own (`on: dealer`); the feature "
    "tells the exact odds that the same figures hold for it"
)
CHECKS_ONLY = "read by validate (and signs, show); a round does not consult it"
word(
    _T,
    "pays_on",
    "validator.model.game.Table",
    """The hand the table pays on: the row of its highest category (or
    of the category a refinement refines, where the table has no row for it).""",
)
word(
    _T,
    "also_pays_on",
    "validator.model.game.Table",
    """The same table is also wagered on a second hand, dealt the
    same way (the Five Card Hand Bonus on the player's and on the dealer's first five cards,
    § 641a.12(g)(1)); the exact odds of one hold for the other.""",
    none={"scalar": ODDS_ONLY, "batch": ODDS_ONLY},
)
word(
    _T,
    "events",
    "validator.model.game.Table",
    """The table pays on the table game system's draws instead of a
    hand: each event a row, with what it means in words (`events: {magic_card: "one of
    the hand's cards matches the card randomly selected ..."}`).""",
    none={
        "scalar": "the rows a round pays on an event name the row (`row:`); the table's "
        "`events` list is read by the checks and the signs",
        "batch": "as for the scalar engine: settlement rows name the event's row",
    },
)
word(
    _T,
    "envy",
    "validator.model.game.Table",
    """An Envy Bonus table: it pays a player for other players' hands,
    never for his own or the dealer's (the settlement row says `envy: <table>`).""",
    none={
        "scalar": "the round pays an Envy Bonus from the row's `envy:`; `envy` on the "
        "table is its citation for show and the odds",
        "batch": "as for the scalar engine: the row's `envy:` is what a round reads",
    },
)
word(
    _T,
    "only_highest",
    "validator.model.game.Table",
    """Only the highest ranking hand formed is paid (not one row
    per category held).""",
    none={
        "scalar": "every paytable row resolution pays one row, the highest: the feature "
        "states the chapter's clause for show and signs",
        "batch": "as for the scalar engine: one row, the highest, is always paid",
    },
)
word(
    _T,
    "optional_payout",
    "validator.model.game.Table",
    """A payout the certificate holder "may pay" (an optional
    table): offered only when the submission says so.""",
    none={
        "scalar": "decided when the submission is read: a table not offered is not played",
        "batch": "decided when the submission is read: a table not offered is not played",
    },
)
word(
    _T,
    "paid_when",
    "validator.model.game.Table",
    """`player_lower`: paid only when the player's hand loses to the
    dealer's (a Bad Beat), never with a win against the dealer.""",
    none={
        "scalar": "the settlement rows say when the table pays; `paid_when` tells the "
        "payout limit's floor which wins can come together",
        "batch": "as for the scalar engine: the settlement rows say it",
    },
)
word(
    _T,
    "source",
    "validator.model.game.Table",
    """`missing`: the copy of the regulation lacks the table; a
    submission supplies it under `custom_paytables:` and nothing is invented.""",
    none={"scalar": CHECKS_ONLY, "batch": CHECKS_ONLY},
)
DATED_ONLY = (
    "decided before a round: the rules in force on a date (`--as-of`, a submission's "
    "effective date) leave out a table or letter not in force then; a round never reads it"
)
word(
    _T,
    "dated",
    "validator.model.game.Table",
    """When the table is the regulation's: `since` the date a Bulletin
    notice (`cite`, "49 Pa.B. 4956") put its wording in force, and `until` a later notice
    removed it; before `since` it did not exist (`earlier: none`) or had a wording not held
    here (`earlier: missing`).""",
    none={"scalar": DATED_ONLY, "batch": DATED_ONLY},
)
word(
    _T,
    "letters_dated",
    "validator.model.game.Table",
    """When each paytable letter is the regulation's, as `dated` says
    for a whole table: a letter a notice added to an existing wager is out of the rules in
    force before it.""",
    example="""letters_dated:
  F: {since: 2019-08-31, cite: "49 Pa.B. 4956", earlier: none}""",
    general="a letter added or removed by a notice whose text is held; none of the encoded "
    "notices is known to have added or removed one letter alone",
    none={"scalar": DATED_ONLY, "batch": DATED_ONLY},
)
word(
    _T,
    "by_wager_amount",
    "validator.model.game.Table",
    """A table per wager amount ($1, $5), fixed or by letter
    (the Envy Bonus of a $1 and of a $5 progressive wager).""",
)
word(
    _T,
    "meters",
    "validator.model.game.Table",
    """Progressive meters the table pays shares of: seed, reseed,
    increment and reserve increment, for every paytable or per letter.""",
)
word(
    _T,
    "approved_hold",
    "validator.model.game.Table",
    """The hold range the Board states for the wager's tables (a
    rulemaking preamble): a supplied table's hold must lie in it; a chapter table outside
    it is reported as a finding about the published figure.""",
    none={"scalar": CHECKS_ONLY, "batch": CHECKS_ONLY},
)

# -- constraint kinds --------------------------------------------------------------------------

_K = CONSTRAINT_KIND
DERIVED = "derived for every game by the checks from the game file (validator/checks/derive.py)"
word(_K, "required", "validator.model.constraints.Required", None, field="kind")
word(_K, "required_if", "validator.model.constraints.RequiredIf", None, field="kind")
word(_K, "only_if", "validator.model.constraints.OnlyIf", None, field="kind")
word(_K, "not_stated", "validator.model.constraints.NotStated", None, field="kind")
word(_K, "choice", "validator.model.constraints.Choice", None, field="kind")
word(_K, "one_of_values", "validator.model.constraints.OneOfValues", None, field="kind")
word(_K, "equals", "validator.model.constraints.Equals", None, field="kind")
word(_K, "at_least", "validator.model.constraints.AtLeast", None, field="kind")
word(_K, "at_most", "validator.model.constraints.AtMost", None, field="kind")
word(_K, "sum_at_most", "validator.model.constraints.SumAtMost", None, field="kind")
word(_K, "max_interval", "validator.model.constraints.MaxInterval", None, field="kind")
word(_K, "equals_table", "validator.model.constraints.EqualsTable", None, field="kind")
word(_K, "payout_limit_floor", "validator.model.constraints.PayoutLimitFloor", None, field="kind")
word(_K, "time_charge_at_most", "validator.model.constraints.TimeChargeAtMost", None, field="kind")
word(_K, "rake_levels_at_most", "validator.model.constraints.RakeLevelsAtMost", None, field="kind")
word(_K, "positive_hold", "validator.model.constraints.PositiveHold", None, field="kind")
word(_K, "hold_in_range", "validator.model.constraints.HoldInRange", None, field="kind")
word(
    _K,
    "published_hold_range",
    "validator.model.constraints.PublishedHoldRange",
    None,
    field="kind",
)
word(
    _K,
    "optional_payout_offered",
    "validator.model.constraints.OptionalPayoutOffered",
    None,
    field="kind",
)
word(_K, "custom_table_hands", "validator.model.constraints.CustomTableHands", None, field="kind")
word(_K, "text_missing", "validator.model.constraints.TextMissing", None, field="kind")

# -- Poker words (nonbanking Poker game files) ------------------------------------------------

_P = POKER_WORD
OPENS = "validator.model.poker.StreetBetting"
#: who opens a street is read where a round is dealt and bet: by the kernels alone
DEALT_BY_KERNELS = "a round is dealt and bet by the Poker kernels alone, `play`'s included"
RAKE = "validator.model.poker.Rake"
KILL = "validator.model.poker.Kill"
word(
    _P,
    "forced_bet",
    OPENS,
    """The street's betting is opened by the Forced Bet: the player whose up-card is lowest
    (or highest, as `betting.forced_bet.by` says; ties by suit in `card_order`) posts it, a
    live bet, and the players to his left act after him, he last.""",
    field="opens",
    none={"scalar": DEALT_BY_KERNELS},
)
word(
    _P,
    "showing",
    OPENS,
    """The player whose cards face up make the best hand (of the ranking
    `betting.first_to_act` names; ties to the player nearest the dealer's left) acts first,
    the others in turn to his left; a player All-in is passed over where another can act.""",
    field="opens",
    none={"scalar": DEALT_BY_KERNELS},
)
word(
    _P,
    "left_of_blinds",
    OPENS,
    """The player to the left of the Blind Bets acts first, the players who posted them
    last, in turn; where no Blind Bet was posted on the street, as `left_of_button`.""",
    field="opens",
    none={"scalar": DEALT_BY_KERNELS},
)
word(
    _P,
    "left_of_button",
    OPENS,
    """The first player still in to the left of the button acts first, the others in turn
    to his left, the button last.""",
    field="opens",
    none={"scalar": DEALT_BY_KERNELS},
)
word(
    _P,
    "percentage",
    RAKE,
    """A percentage rake: at most the `max` rate of each pot and side pot, rounded down to
    the table's smallest chip, taken after each betting round (the rate of what each pot
    holds then, less what was taken before, the chips filling the pots from the main pot
    up) or at the end of the round of play, the same amount either way; a cap applies to
    the round of play, taken from the pots in the order they formed. The uncalled final
    bet is never raked.""",
)
word(
    _P,
    "incremental",
    RAKE,
    """An incremental rake: a fixed amount taken as the pot reaches each stated level
    (`levels: [{pot: 20, rake: 1}, …]`), at most the cap, each from the pot the level was
    reached in, the chips filling the pots from the main pot up.""",
)
word(
    _P,
    "time",
    RAKE,
    """A rake by time charges: an hourly fee by the game's limits, charged every 20 or 30
    minutes per player or per table, from the seated players' stacks at the end of each
    period, never from a pot; each player's share in whole chips, a part of a chip carried
    until it makes one (the rake is the gaming chips the dealer collects).""",
)
word(
    _P,
    "kill",
    KILL,
    """The Kill option: after one player wins an entire qualifying pot, the limits of the
    next round of play are multiplied by the game file's figure (2); they stay until a pot
    is split high and low or is less than the qualifying pot.""",
    field="options",
)
word(
    _P,
    "half_kill",
    KILL,
    """The Half-kill option: as the Kill, the limits of the next round of play increased by
    one-half (the game file's figure, 1.5), in whole chips.""",
    field="options",
)
