"""A nonbanking Poker table compiled once to integer arrays for the round kernel (``hand``):
the game file's streets and deal steps, who opens each betting round and at which limit,
the raise caps and check-raise, the Ante, Blind Bets and Forced Bet, the showdown hands and
their ``use:``, the first-to-act ranking, the card order of the Forced Bet, each seat's
decision table and the strategy's tier thresholds.

Nothing here knows a game: every value is read from the game's sections. What the kernel
does not take sets ``Program.reason`` (a session refuses the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from validator.compiler import Game
from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.table import strategies
from validator.model.poker import TIERS
from validator.rankings.evaluator import Evaluator, card_order_key
from validator.rankings.packed import NotPackable, Tables, pack_key, packed
from validator.vocabulary import POKER_WORD, meaning, meaning_of

if TYPE_CHECKING:  # the session imports the fast path: no import back at run time
    from validator.interpreter.poker.session import TableSetup

# street.blinds
NO_BLINDS, BLINDS_BEFORE, BLINDS_AFTER = 0, 1, 2
# street.betting.opens (-1: no betting on the street)
OPENS = {"forced_bet": 0, "showing": 1, "left_of_blinds": 2, "left_of_button": 2}
OPENS_FORCED, OPENS_SHOWING, OPENS_IN_ORDER = 0, 1, 2
# a strategy's wanted action
ACTIONS = {"fold": 0, "check": 1, "call": 2, "bet": 3, "raise": 4}
FOLD, CHECK, CALL, BET, RAISE = 0, 1, 2, 3, 4
FINISHED = 5  # as ``strategy.FINISHED``


class Params(NamedTuple):
    """The table's figures and switches, as the round kernel reads them."""

    button_left: int  # 1: dealt from the button's left (the button moves after each round)
    ante: int
    forced_bet: int
    lower_min: int  # the lower limit's bet
    upper_min: int  # the upper limit's (the lower's where the game has one)
    check_raise: int  # 1: a player who checked may raise (§ 553.8(j))
    forced_card: int  # the card of a player's the Forced Bet goes by: his first face up
    has_high: int  # 1: the showdown reads a high hand
    high_own: int  # its ``use:``: cards of the player's, of the board's (-1: no ``use:``)
    high_board: int
    has_low: int  # 1: the showdown reads a low hand
    low_own: int
    low_board: int
    unfinished: int  # the strategy's unfinished high card
    strong_at_most: int  # the strategy's strong and fair lows
    fair_at_most: int
    low_lowest: int  # the low ranking's last category
    low_qualifies: int  # the lowest packed key of a qualifying low
    high_board_counts: int  # 1: the board counts for the high hand (no ``use:``)
    low_board_counts: int
    shuffle_burns: int  # the Stud common card: the burns reshuffled at this many cards left


def no_params() -> Params:
    """The figures of a table the kernel does not take."""
    return Params(*([0] * len(Params._fields)))


class Streets(NamedTuple):
    """The game's streets, in order: one entry a street in each array."""

    burn: Ints  # the cards burned before the street's cards
    blinds: Ints  # NO_BLINDS, BLINDS_BEFORE or BLINDS_AFTER the deal
    step0: Ints  # the street's first deal step (in ``Steps``)
    nsteps: Ints  # how many
    per_player: Ints  # the cards dealt to each player
    to_board: Ints  # the cards dealt to the board
    draw: Ints  # 1: the players draw (§ 553.13(g))
    opens: Ints  # who opens the betting (``OPENS``); -1: no betting on the street
    upper: Ints  # 1: bet at the upper limit
    open_pair: Ints  # 1: the upper limit where an open pair shows
    max_raises: Ints  # the raise cap; -1: none
    common: Ints  # 1: the Stud common card may be dealt (§ 553.10(h))


class Steps(NamedTuple):
    """The deal steps of every street, in order: one entry a step in each array."""

    to_board: Ints  # 1: to the board, 0: to each player
    rounds: Ints  # how many rounds of cards


class Kernel(NamedTuple):
    """The compiled table as the round kernel takes it."""

    streets: Streets
    steps: Steps
    blinds: Ints  # each Blind Bet, in order from the button's left
    rows: Ints  # [seat index, tier, free/facing] the wanted action
    high_tiers: Ints  # [high category index] tier index, -1: none
    forced_order: Ints  # [card] the Forced Bet's card order (the lowest makes it)
    faces: Ints  # [card position] 1 where a seat's card there is dealt face up
    high_tables: Tables
    low_tables: Tables
    showing_tables: Tables


@dataclass
class Program:
    """The compiled table; ``reason`` is None where the kernel takes it (``kernel`` then
    set)."""

    reason: str | None
    params: Params = field(default_factory=no_params)
    #: ``params`` with the limits a Kill in effect multiplies (§ 553.12(m))
    killed: Params = field(default_factory=no_params)
    kernel: Kernel | None = None
    required: int = 0  # what a player must have to be dealt in (``Stakes.required``)


def _tables(ev: Evaluator) -> Tables:
    if any(c.refines is not None for c in ev.ranking.categories):
        raise NotPackable(f"ranking {ev.ranking.id!r} has refined categories")
    return packed(ev).tables


def _use(game: Game, hand_id: str) -> tuple[int, int, int]:
    """(cards of the player's, of the board's, whether the board counts without ``use:``);
    -1, -1 with no ``use:``."""
    hd = game.hand(hand_id)
    board_counts = int("board" in hd.cards)
    if "player" not in hd.cards:
        raise NotPackable(f"hand {hand_id!r} is not read from the player's cards")
    if hd.use is None:
        return -1, -1, board_counts
    if set(hd.use) - {"player", "board"}:
        raise NotPackable(f"hand {hand_id!r} uses cards of {', '.join(hd.use)}")
    return hd.use.get("player", 0), hd.use.get("board", 0), board_counts


def _low_threshold(game: Game, hand_id: str) -> int:
    """The lowest packed key of a qualifying five-card low (0: every low qualifies); the
    qualifier is read from the scalar evaluator over every five distinct ranks."""
    qualifier = game.hand(hand_id).qualifier
    if qualifier is None:
        return 0
    ev = game.evaluator(hand_id)
    keys = []
    for ranks in combinations(range(13), 5):
        value = ev.best([r << 2 for r in ranks])
        if ev.qualifies(value, qualifier):
            keys.append(pack_key(value.key))
    return min(keys) if keys else 1 << 62


def compile_program(game: Game, setup: TableSetup, strategy_by_seat: dict[int, str]) -> Program:
    """The table as the kernel reads it; seats are 1..n (the session's)."""
    d = game.definition
    deal, betting = d.deal, d.betting
    if deal is None or betting is None or d.showdown is None:
        return Program("no deal, betting or showdown section")
    if deal.button is not None and deal.button.rotates != "clockwise":
        # the block kernel moves the button clockwise after each round (§ 553.1, Button)
        return Program(f"a button that moves {deal.button.rotates}")
    stakes = setup.stakes
    p: dict[str, Any] = dict.fromkeys(Params._fields, 0)
    k: dict[str, Any] = {"blinds": np.array(stakes.blinds, dtype=np.int64)}  # ``Kernel``'s
    p["button_left"] = deal.first == "button_left"
    p["ante"] = stakes.ante
    p["forced_bet"] = stakes.forced_bet
    p["lower_min"] = stakes.lower.min_bet
    p["upper_min"] = (stakes.upper or stakes.lower).min_bet
    cr = betting.check_raise
    allowed = cr.allowed if cr else True  # the game's, unless the table's stakes say
    p["check_raise"] = allowed if stakes.check_raise is None else stakes.check_raise
    common = deal.common_card
    p["shuffle_burns"] = common.shuffle_burns_when_left if common is not None else -1
    reason = _compile_streets(game, setup, k)
    if reason is not None:
        return Program(reason)
    k["forced_order"] = np.zeros(52, dtype=np.int64)
    if betting.forced_bet is not None:
        order = card_orders(game)[betting.forced_bet.card_order]
        keys = sorted(range(52), key=lambda c: card_order_key(order, c))
        if betting.forced_bet.by == "highest":  # to the highest up-card (§ 553.10(d)(2))
            keys.reverse()
        for rank, c in enumerate(keys):
            k["forced_order"][c] = rank
        ups = np.flatnonzero(k["faces"] == 1)
        p["forced_card"] = ups[0] if len(ups) else -1
    try:
        reason = _compile_hands(game, k, p)
    except NotPackable as e:
        return Program(str(e))
    if reason is not None:
        return Program(reason)
    named = strategies(game).named
    n_seats = len(strategy_by_seat)
    rows = np.zeros((n_seats, len(TIERS), 2), dtype=np.int64)
    for seat in range(1, n_seats + 1):
        actions = named[strategy_by_seat[seat]].actions
        for t, named_tier in enumerate(TIERS):
            rows[seat - 1, t, 0] = ACTIONS[actions[named_tier].free]
            rows[seat - 1, t, 1] = ACTIONS[actions[named_tier].facing]
    k["rows"] = rows
    params = Params(**{name: int(v) for name, v in p.items()})
    return Program(None, params, kill_limits(params, setup), Kernel(**k), int(stakes.required()))


def _compile_streets(game: Game, setup: TableSetup, k: dict[str, Any]) -> str | None:
    """The kernel's ``streets``, ``steps`` and ``faces`` from the game's deal, into ``k``;
    why the kernel cannot take them (None: it can)."""
    d = game.definition
    deal, betting = d.deal, d.betting
    assert deal is not None and betting is not None
    stakes = setup.stakes
    ids = list(deal.streets)
    cols: dict[str, list[int]] = {name: [] for name in Streets._fields}
    steps: list[tuple[int, int]] = []
    faces: list[int] = []
    split = betting.split_limit
    common = deal.common_card
    blinds = {None: NO_BLINDS, "before_deal": BLINDS_BEFORE, "after_deal": BLINDS_AFTER}
    for i, (sid, street) in enumerate(deal.streets.items()):
        cols["burn"].append(street.burn)
        cols["blinds"].append(blinds[street.blinds])
        cols["step0"].append(len(steps))
        for r in street.deal:
            steps.append((int(r.to == "board"), r.rounds))
            if r.to == "player":
                faces += [int(r.face == "up")] * r.rounds
        cols["nsteps"].append(len(street.deal))
        cols["per_player"].append(sum(r.rounds for r in street.deal if r.to == "player"))
        cols["to_board"].append(sum(r.rounds for r in street.deal if r.to == "board"))
        cols["draw"].append(street.draw is not None)
        if street.draw is not None and any(faces):
            return "a draw from a hand with cards face up"
        opens = street.betting.opens if street.betting is not None else None
        # who opens: the word's meaning in the vocabulary's entry
        cols["opens"].append(
            -1 if opens is None else meaning_of(POKER_WORD.id, opens, "kernels")(opens)
        )
        tier = street.betting.limit if street.betting else "lower"
        if stakes.upper_from is not None:
            tier = "upper" if i >= ids.index(stakes.upper_from) else "lower"
        cols["upper"].append(tier == "upper" and stakes.upper is not None)
        cols["open_pair"].append(
            split is not None
            and split.open_pair == "upper"
            and split.open_pair_street == sid
            and stakes.upper is not None
        )
        raises = stakes.max_raises_by_street.get(sid, stakes.max_raises)
        cols["max_raises"].append(-1 if raises is None else raises)
        cols["common"].append(common is not None and sid in common.streets)
    k["streets"] = Streets(**{name: np.array(v, dtype=np.int64) for name, v in cols.items()})
    rows = np.array(steps, dtype=np.int64).reshape(-1, 2)
    k["steps"] = Steps(*(np.ascontiguousarray(rows[:, c]) for c in range(2)))
    k["faces"] = np.array(faces, dtype=np.int64)
    if len(faces) > 8 or sum(r for b, r in steps if b) > 5:
        return "more cards than a seat or the board holds"
    return None


def _compile_hands(game: Game, k: dict[str, Any], p: dict[str, Any]) -> str | None:
    """The showdown's hands, their ``use:``, the tiers of the strategy and the ranking of
    the hand showing, into ``k`` and ``p``; why the kernel cannot take them."""
    d = game.definition
    sd, betting = d.showdown, d.betting
    assert sd is not None and betting is not None
    ps = strategies(game)
    tier_index: dict[str, int] = {t: i for i, t in enumerate(TIERS)}
    tables: dict[str, Tables] = {}
    k["high_tiers"] = np.zeros(0, dtype=np.int64)
    if sd.high:
        ev = game.evaluator(sd.high)
        tables["high"] = _tables(ev)
        p["has_high"] = 1
        p["high_own"], p["high_board"], p["high_board_counts"] = _use(game, sd.high)
        k["high_tiers"] = np.array(
            [tier_index.get(ps.high.categories.get(c, ""), -1) for c in ev.ids], dtype=np.int64
        )
        p["unfinished"] = ps.high.unfinished_high_card
    if sd.low:
        ev = game.evaluator(sd.low)
        if ev.ranking.low is None:
            return f"low hand {sd.low!r} is not ranked as a low"
        tables["low"] = _tables(ev)
        p["has_low"] = 1
        p["low_own"], p["low_board"], p["low_board_counts"] = _use(game, sd.low)
        p["strong_at_most"] = ps.low.strong_at_most
        p["fair_at_most"] = ps.low.fair_at_most
        p["low_lowest"] = len(ev.ids) - 1
        p["low_qualifies"] = _low_threshold(game, sd.low)
    if betting.first_to_act is not None:
        tables["showing"] = _tables(game.evaluator(betting.first_to_act.ranking))
    high = tables.get("high", tables.get("low"))
    if high is None:
        return "a showdown with neither a high nor a low hand"
    k["high_tables"] = high
    k["low_tables"] = tables.get("low", high)
    k["showing_tables"] = tables.get("showing", high)
    return None


@meaning("kernels", POKER_WORD.id, "forced_bet", "showing", "left_of_blinds", "left_of_button")
def opens_code(opens: str) -> int:
    """Who opens a street's betting, as the kernel reads it (``Streets.opens``): the Forced
    Bet's player, the best hand showing, or the players in turn from the button's left (a
    street whose Blind Bets were posted opened to the left of the blinds)."""
    return OPENS[opens]


@meaning("kernels", POKER_WORD.id, "kill", "half_kill")
def kill_limits(params: Params, setup: TableSetup) -> Params:
    """``params`` with the limits the table's Kill or Half-kill multiplies, in whole chips
    (``Limit.times``), for the rounds it is in effect (§ 553.12(m))."""
    kill = setup.rules.kill
    if kill is None:
        return params
    stakes = setup.stakes
    m, chip = kill.multiplier, stakes.chip
    lower, upper = stakes.lower.times(m, chip), (stakes.upper or stakes.lower).times(m, chip)
    return params._replace(lower_min=int(lower.min_bet), upper_min=int(upper.min_bet))
