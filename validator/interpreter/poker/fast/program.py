"""A nonbanking Poker table compiled once to integer arrays for the round kernel (``hand``):
the game file's streets and deal steps, who opens each betting round and at which limit,
the raise caps and check-raise, the Ante, Blind Bets and Forced Bet, the showdown hands and
their ``use:``, the first-to-act ranking, the card order of the Forced Bet, each seat's
decision table and the strategy's tier thresholds.

Nothing here knows a game: every value is read from the game's sections as ``table.Hand``
reads them. What the kernel does not take sets ``Program.reason`` (the table is then played
by ``table.Hand`` only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from validator.compiler import Game
from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.settle import card_orders
from validator.interpreter.poker.strategy import strategies
from validator.model.poker import TIERS
from validator.rankings.evaluator import Evaluator, card_order_key
from validator.rankings.packed import NotPackable, Tables, pack_key, packed
from validator.vocabulary import POKER_WORD, meaning

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

# columns of ``Program.streets``
S_BURN, S_BLINDS, S_STEP0, S_NSTEPS, S_DRAW, S_OPENS, S_UPPER, S_OPEN_PAIR = range(8)
S_MAX_RAISES, S_COMMON = 8, 9
STREET_COLUMNS = 10
# columns of ``Program.steps``: to the board (1) or the players (0), face up (1), rounds
T_BOARD, T_UP, T_ROUNDS = range(3)
# ``Program.params``
(
    P_BUTTON_LEFT,
    P_ANTE,
    P_FORCED_BET,
    P_LOWER_MIN,
    P_LOWER_MAX,
    P_UPPER_MIN,
    P_UPPER_MAX,
    P_CHECK_RAISE,
    P_REQUIRED,
    P_FORCED_HIGHEST,
    P_HAS_HIGH,
    P_HIGH_OWN,
    P_HIGH_BOARD,
    P_HAS_LOW,
    P_LOW_OWN,
    P_LOW_BOARD,
    P_UNFINISHED,
    P_STRONG_AT_MOST,
    P_FAIR_AT_MOST,
    P_LOW_LOWEST,
    P_LOW_QUALIFIES,
    P_HIGH_BOARD_COUNTS,
    P_LOW_BOARD_COUNTS,
) = range(23)
P_SHUFFLE_BURNS = 23  # the Stud common card: the burns reshuffled at this many cards left
PARAMS = 24

FINISHED = 5  # as ``strategy.FINISHED``


@dataclass
class Program:
    """The compiled table; ``reason`` is None where the kernel takes it."""

    reason: str | None
    params: Ints = field(default_factory=lambda: np.zeros(PARAMS, dtype=np.int64))
    #: ``params`` with the limits a Kill in effect multiplies (§ 553.12(m))
    killed: Ints = field(default_factory=lambda: np.zeros(PARAMS, dtype=np.int64))
    streets: Ints = field(default_factory=lambda: np.zeros((0, STREET_COLUMNS), dtype=np.int64))
    steps: Ints = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))
    blinds: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: [seat index, tier, free/facing] the wanted action
    rows: Ints = field(default_factory=lambda: np.zeros((0, 4, 2), dtype=np.int64))
    #: [high category index] tier index, -1: none
    high_tiers: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: [card] the Forced Bet's card order (higher is higher)
    forced_order: Ints = field(default_factory=lambda: np.zeros(52, dtype=np.int64))
    #: [card position] 1 where a seat's card at that position is dealt face up
    faces: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    high_tables: Tables = ()
    low_tables: Tables = ()
    showing_tables: Tables = ()
    street_ids: list[str] = field(default_factory=list)


def _reason(game: Game) -> str | None:
    d = game.definition
    if d.deal is None or d.betting is None or d.showdown is None:
        return "no deal, betting or showdown section"
    return None


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


def compile_program(
    game: Game, setup: TableSetup, n_seats: int, strategy_by_seat: dict[int, str]
) -> Program:
    """The table as the kernel reads it; seats are 1..n_seats (the session's)."""
    reason = _reason(game)
    if reason is not None:
        return Program(reason)
    d = game.definition
    deal, betting, sd = d.deal, d.betting, d.showdown
    assert deal is not None and betting is not None and sd is not None
    stakes = setup.stakes
    prog = Program(None)
    p = prog.params
    p[P_BUTTON_LEFT] = deal.first == "button_left"
    p[P_ANTE] = stakes.ante
    p[P_FORCED_BET] = stakes.forced_bet
    p[P_LOWER_MIN], p[P_LOWER_MAX] = stakes.lower.min_bet, stakes.lower.max_bet
    upper = stakes.upper or stakes.lower
    p[P_UPPER_MIN], p[P_UPPER_MAX] = upper.min_bet, upper.max_bet
    cr = betting.check_raise
    check_raise = cr.allowed if cr else True
    if stakes.check_raise is not None:
        check_raise = stakes.check_raise
    p[P_CHECK_RAISE] = check_raise
    p[P_REQUIRED] = stakes.required()
    prog.blinds = np.array(stakes.blinds, dtype=np.int64)
    ids = list(deal.streets)
    prog.street_ids = ids
    streets = np.zeros((len(ids), STREET_COLUMNS), dtype=np.int64)
    steps: list[tuple[int, int, int]] = []
    faces: list[int] = []
    split = betting.split_limit
    common = deal.common_card
    p[P_SHUFFLE_BURNS] = common.shuffle_burns_when_left if common is not None else -1
    for i, (sid, street) in enumerate(deal.streets.items()):
        row = streets[i]
        row[S_BURN] = street.burn
        row[S_BLINDS] = {None: NO_BLINDS, "before_deal": BLINDS_BEFORE, "after_deal": BLINDS_AFTER}[
            street.blinds
        ]
        row[S_STEP0] = len(steps)
        for r in street.deal:
            steps.append((int(r.to == "board"), int(r.face == "up"), r.rounds))
            if r.to == "player":
                faces += [int(r.face == "up")] * r.rounds
        row[S_NSTEPS] = len(street.deal)
        row[S_DRAW] = street.draw is not None
        if street.draw is not None and any(faces):
            return Program("a draw from a hand with cards face up")
        row[S_OPENS] = -1 if street.betting is None else opens_code(street.betting.opens)
        tier = street.betting.limit if street.betting else "lower"
        if stakes.upper_from is not None:
            tier = "upper" if i >= ids.index(stakes.upper_from) else "lower"
        row[S_UPPER] = tier == "upper" and stakes.upper is not None
        row[S_OPEN_PAIR] = (
            split is not None
            and split.open_pair == "upper"
            and split.open_pair_street == sid
            and stakes.upper is not None
        )
        raises = stakes.max_raises_by_street.get(sid, stakes.max_raises)
        row[S_MAX_RAISES] = -1 if raises is None else raises
        row[S_COMMON] = common is not None and sid in common.streets
    prog.streets = streets
    prog.steps = np.array(steps, dtype=np.int64).reshape(-1, 3)
    prog.faces = np.array(faces, dtype=np.int64)
    if len(faces) > 8 or sum(r for b, _, r in steps if b) > 5:
        return Program("more cards than a seat or the board holds")
    if betting.forced_bet is not None:
        order = card_orders(game)[betting.forced_bet.card_order]
        keys = sorted(range(52), key=lambda c: card_order_key(order, c))
        for k, c in enumerate(keys):
            prog.forced_order[c] = k
        p[P_FORCED_HIGHEST] = betting.forced_bet.by == "highest"
    ps = strategies(game)
    tier_index: dict[str, int] = {t: i for i, t in enumerate(TIERS)}
    try:
        if sd.high:
            ev = game.evaluator(sd.high)
            prog.high_tables = _tables(ev)
            p[P_HAS_HIGH] = 1
            p[P_HIGH_OWN], p[P_HIGH_BOARD], p[P_HIGH_BOARD_COUNTS] = _use(game, sd.high)
            prog.high_tiers = np.array(
                [tier_index.get(ps.high.categories.get(c, ""), -1) for c in ev.ids],
                dtype=np.int64,
            )
            p[P_UNFINISHED] = ps.high.unfinished_high_card
        if sd.low:
            ev = game.evaluator(sd.low)
            if ev.ranking.low is None:
                return Program(f"low hand {sd.low!r} is not ranked as a low")
            prog.low_tables = _tables(ev)
            p[P_HAS_LOW] = 1
            p[P_LOW_OWN], p[P_LOW_BOARD], p[P_LOW_BOARD_COUNTS] = _use(game, sd.low)
            p[P_STRONG_AT_MOST] = ps.low.strong_at_most
            p[P_FAIR_AT_MOST] = ps.low.fair_at_most
            p[P_LOW_LOWEST] = len(ev.ids) - 1
            p[P_LOW_QUALIFIES] = _low_threshold(game, sd.low)
        if betting.first_to_act is not None:
            prog.showing_tables = _tables(game.evaluator(betting.first_to_act.ranking))
    except NotPackable as e:
        return Program(str(e))
    if not prog.high_tables:
        prog.high_tables = prog.low_tables
    if not prog.low_tables:
        prog.low_tables = prog.high_tables
    if not prog.showing_tables:
        prog.showing_tables = prog.high_tables
    named = ps.named
    rows = np.zeros((n_seats, len(TIERS), 2), dtype=np.int64)
    for seat in range(1, n_seats + 1):
        actions = named[strategy_by_seat[seat]].actions
        for t, named_tier in enumerate(TIERS):
            rows[seat - 1, t, 0] = ACTIONS[actions[named_tier].free]
            rows[seat - 1, t, 1] = ACTIONS[actions[named_tier].facing]
    prog.rows = rows
    prog.killed = kill_limits(p, setup)
    return prog


@meaning("kernels", POKER_WORD.id, "forced_bet", "showing", "left_of_blinds", "left_of_button")
def opens_code(opens: str) -> int:
    """Who opens a street's betting, as the kernel reads it (``S_OPENS``): the Forced
    Bet's player, the best hand showing, or the players in turn from the button's left (a
    street whose Blind Bets were posted opened to the left of the blinds)."""
    return OPENS[opens]


@meaning("kernels", POKER_WORD.id, "kill", "half_kill")
def kill_limits(params: Ints, setup: TableSetup) -> Ints:
    """``params`` with the limits the table's Kill or Half-kill multiplies, in whole chips
    (``Limit.times``), for the rounds it is in effect (§ 553.12(m))."""
    killed = params.copy()
    kill = setup.rules.kill
    if kill is not None:
        stakes = setup.stakes
        m, chip = kill.multiplier, stakes.chip
        lower, upper = stakes.lower.times(m, chip), (stakes.upper or stakes.lower).times(m, chip)
        killed[P_LOWER_MIN], killed[P_LOWER_MAX] = lower.min_bet, lower.max_bet
        killed[P_UPPER_MIN], killed[P_UPPER_MAX] = upper.min_bet, upper.max_bet
    return killed
