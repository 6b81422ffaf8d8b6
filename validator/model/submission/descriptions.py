"""What each field of a Rules Submission holds, in words."""

from __future__ import annotations

#: What each field holds, for messages, hints and the JSON Schema.
DESCRIPTIONS: dict[str, str] = {
    "rulesub": "format version: 1",
    "certificate_holder": "the certificate holder filing the Rules Submission",
    "facility": "the licensed facility",
    "game": "a game id from games/",
    "effective": "the date the rules take effect, e.g. 2027-01-01",
    "table": "positions and wager limits (dollars)",
    "positions": "betting positions at the table",
    "min_wager": "table minimum wager, dollars",
    "max_wager": "table maximum wager, dollars",
    "dealing": "how the cards are shuffled and dealt",
    "methods": "dealing methods used: hand, manual_shoe, automated_shoe",
    "shuffler": "manual | automated | automated_counting (counts the 52 cards)",
    "decks": "decks of cards in use",
    "change_every_hours": "hours between deck changes, one entry per dealing method used",
    "offered": "optional wagers offered",
    "paytables": "the paytable letter selected for each selectable table",
    "progressives": "meters of each progressive offered",
    "wager_amount": "the amount of the progressive wager, dollars",
    "meters": "each meter by the chapter's name (primary, mega, major, minor)",
    "seed": "seed (initial) amount, dollars",
    "reseed": "reseed (reset) amount, dollars",
    "increment": "rate of progression (primary incrementation rate), e.g. 25%",
    "reserve_increment": "reserve incrementation rate, e.g. 5%, or N/A",
    "equipment": "table game systems installed",
    "progressive_system": "a progressive table game system (§ 605a.7)",
    "electronic_wagering_system": "an electronic wagering system (§§ 605a.2, 605a.3)",
    "adjacent_boxes": "adjacent boxes a player may wager on in one round",
    "payout_limit": "aggregate payout limit per player per round of play, dollars",
    "custom_paytables": "the table in use where the regulation text is missing",
    # nonbanking Poker
    "ante": "Poker: whether an Ante is required, and its amount (dollars)",
    "required": "whether every player must place it",
    "amount": "its amount, dollars",
    "blinds": "Poker: the amount of each Blind Bet, in order (dollars)",
    "forced_bet": "Poker (Stud): the amount of the Forced Bet, dollars",
    "betting": "Poker: the raise cap, raising the minimum by agreement, the Kill option",
    "max_raises": "the most raises in a betting round, or unlimited",
    "raised_minimum": "raising the minimum wager when all patrons agree",
    "allowed": "whether the minimum wager may be raised by agreement",
    "max_increase": "the most the minimum wager may be increased, dollars",
    "agreement": "how the dealer determines that all patrons agree",
    "kill": "Omaha High-low Eight or Better: the Kill or Half-kill option",
    "option": "kill | half_kill | none",
    "qualifying_pot": "the minimum value of a qualifying pot, dollars",
    "rake": "Poker: the rake's types, methodology and maximum",
    "types": "rake types used: percentage, incremental, time",
    "methodology": "how the rake is calculated",
    "maximum": "the maximum permissible rake from one round of play, dollars",
    "percentage": "the percentage rake",
    "rate": "the share of each pot raked, e.g. 10%",
    "taken": "when it is taken",
    "incremental": "the rake taken by pot levels",
    "levels": "the pot levels and the rake at each, e.g. [{pot: 20, rake: 1}]",
    "pot": "the pot amount reached, dollars",
    "time": "the rake by time charges",
    "basis": "per_player | per_table",
    "every_minutes": "how often the time charge is assessed: 60, or fractionally 20 or 30",
    "hourly_fee": "the hourly fee, dollars",
    "bad_beat": "Poker: the Bad Beat payout and its rules",
    "max_contribution": "the most contributed from each pot, dollars",
    "contribution_method": "how the contribution is calculated",
    "minimum_pot": "the minimum pot for a contribution, dollars",
    "qualifying_hands": "the Bad Beat hands that qualify",
    "payouts": "how the Bad Beat payout is shared",
    "current_amount": "the Bad Beat payout's current amount, dollars",
    "discontinuation": "the Board-approved procedure for discontinuing the payout",
    "max_raises_by_round": "the most raises in each betting round, by the game's street id",
    "check_raise": "false where a ban on raising after checking is posted",
    "structure": "spread (any amount from minimum to maximum) | fixed | split (lower, then upper)",
    "upper_from": "split limit: the street from which the upper limit (maximum wager) applies",
    "contribution_rate": "the contribution as a share of the pot after the rake, e.g. 5%",
    "qualifying": "the Bad Beat requirements: at_least, rank_at_least, hole_cards, beaten_by",
    "hand": "the game's hand it is judged on (default: the high hand)",
    "at_least": "the lowest losing hand that qualifies, a category of the ranking",
    "rank_at_least": "within that category, its ranking cards at least this rank (8: eights)",
    "hole_cards": "how many of the player's own cards the losing hand must use",
    "beaten_by": "the lowest winning hand it must lose to",
    "shares": "the payout as shares of the fund: losing_hand, winning_hand, table",
    "losing_hand": "share of the fund to the losing hand",
    "winning_hand": "share of the fund to the hand that beat it",
    "box": "a transparent locked box on the drop box side of the table holds the contributions",
    "showdown": "Poker: whether conceded hands must be shown at the showdown",
    "discarded_hands_shown": "true where the submission requires every discarded hand shown",
    "deck_rotation": "Poker: how the table's two decks are rotated in and out of play",
    "alternated_every_round": "with a shuffler, the two decks alternate every round of play",
    "distribution": "how decks with distinguishable backs are distributed among the tables",
    "irregularities": "Poker: how the certificate holder clarifies and supplements the "
    "procedures for irregularities, in words",
    "approved": "the date the Board approved the procedure",
    "method": "terminate_contributions | transfer | both",
    "procedure": "the procedure, in words",
}

#: Where one key's name means two things, what it holds under its parent: the longest
#: tail of a field's path (list places left out) is looked up first (``described_at``).
DESCRIPTIONS_AT: dict[str, str] = {
    "change_every_hours/hand": "hours between deck changes when dealt by hand",
    "change_every_hours/manual_shoe": "hours between deck changes from a manual shoe",
    "change_every_hours/automated_shoe": "hours between deck changes from an automated shoe",
    "bad_beat/offered": "true where the table offers a Bad Beat payout",
    "levels/rake": "the amount taken when the pots reach the level, dollars",
    "levels/pot": "the pot amount reached, dollars",
    "blinds": "each Blind Bet in order, dollars, e.g. [1, 2]",
    "qualifying/hand": "the game's hand it is judged on (default: the high hand)",
}


#: A stated choice in words, by the last two keys of the field that holds it
#: (``/rake/time/basis: per_player`` is "per player"): for the documents that show a value
#: changed or stated, never the word the file is written in.
CHOICES: dict[str, dict[str, str]] = {
    "rake/types": {
        "percentage": "percentage",
        "incremental": "incremental",
        "time": "time charges",
    },
    "percentage/taken": {
        "per_betting_round": "after each betting round",
        "end_of_round": "at the end of the round of play",
    },
    "incremental/taken": {
        "as_levels_reached": "as each level is reached",
        "end_of_round": "at the end of the round of play",
    },
    "time/basis": {"per_player": "per player", "per_table": "per table"},
    "kill/option": {"kill": "Kill", "half_kill": "Half-kill", "none": "neither"},
    "betting/structure": {
        "spread": "spread limit",
        "fixed": "fixed limit",
        "split": "split limit",
    },
    # § 553.20(i): "pot contributions shall be terminated or … transferring Bad Beat payout
    # amounts to other Bad Beat payouts, or both"
    "discontinuation/method": {
        "terminate_contributions": "pot contributions terminated",
        "transfer": "transferred to other Bad Beat payouts",
        "both": "contributions terminated and transferred to other Bad Beat payouts",
    },
}


def choice_words(pointer: str, value: object) -> object:
    """A stated choice (or a list of them) in words, by the field at ``pointer``; any other
    value, or a word the field does not take, as it is."""
    parts = [p for p in pointer.split("/") if p]
    words = CHOICES.get("/".join(parts[-2:]), {})
    if isinstance(value, list):
        return [words.get(v, v) if isinstance(v, str) else v for v in value]
    return words.get(value, value) if isinstance(value, str) else value


def described_at(pointer: str) -> str | None:
    """What the field at ``pointer`` holds: by the longest tail of its path that names it
    (``/dealing/change_every_hours/hand``: the hours by hand, not the Bad Beat's hand),
    else by its own name; None for a list's place or a name not described."""
    from validator.model.submission.pointers import is_index

    parts = [p for p in pointer.split("/") if p and not is_index(p)]
    if not parts or is_index(pointer.rsplit("/", 1)[-1]):
        return None
    for k in range(len(parts) - 1):
        found = DESCRIPTIONS_AT.get("/".join(parts[k:]))
        if found is not None:
            return found
    return DESCRIPTIONS_AT.get(parts[-1]) or DESCRIPTIONS.get(parts[-1])
