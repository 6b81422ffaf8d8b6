"""An exchange of the cards the player chose, replayed in the batch engine.

Lunar Poker: "the player shall discard between two and five cards" and receive as many from
the deck (§ 589.11(d)(2)(i)(B)); the player chooses which. A strategy says "keep the n
highest" (or the paired cards); a round as it was played names the cards. The batch engine
takes a decision's kept cards as a mask over the seat's cards, and settles the round as the
scalar engine settles the round file's actions.
"""

from __future__ import annotations

from collections import deque
from decimal import Decimal

import numpy as np
import pytest

from validator.cards import card_str
from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine, Scripted
from validator.interpreter.batch_money import from_micro, to_micro
from validator.interpreter.config import TableConfig
from validator.interpreter.dealing import DeckSource
from validator.interpreter.errors import RoundError
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat

ANTE = Decimal(10)


def test_an_exchange_of_chosen_cards_settles_alike_in_both_engines() -> None:
    game = load_game("lunar-poker")
    cfg = TableConfig.defaults(game)
    cfg.progressives, cfg.offered = {}, set()
    rules = Rules(game, cfg)
    first = list(rules.decisions["first"].options)
    after = list(rules.decisions["after_draw"].options)
    rng = np.random.default_rng(589)
    N, S = 40, 2
    decks = np.array([rng.permutation(52) for _ in range(N)], dtype=np.int64)
    keep = np.zeros((N, S, 5), bool)
    for r in range(N):
        for s in range(S):
            discards = rng.choice(5, size=int(rng.integers(2, 6)), replace=False)
            keep[r, s] = ~np.isin(np.arange(5), discards)
    # each seat's five cards, one at a time around the table, the dealer last
    held = [[[int(decks[r, s + 3 * k]) for k in range(5)] for s in range(S)] for r in range(N)]
    decided = {
        "first": Scripted(np.full((N, S), first.index("exchange")), np.zeros((N, S), np.int64)),
        "after_draw": Scripted(np.full((N, S), after.index("bet")), np.zeros((N, S), np.int64)),
    }
    decided["first"].keep_cards = keep
    stakes = {"ante": np.full((N, S), to_micro(ANTE), np.int64)}
    batch = BatchEngine(rules, None, S, {})
    res = batch.run(decks, {}, stakes, decided)
    exchanged_not_lowest = 0
    for r in range(N):
        seats = []
        for s in range(S):
            out = [c for c, k in zip(held[r][s], keep[r, s], strict=True) if not k]
            exchanged_not_lowest += sorted(out) != sorted(held[r][s])[: len(out)]
            action = "exchange " + " ".join(card_str(c) for c in out)
            seats.append(Seat(s + 1, {"ante": ANTE}, deque([action, "bet"])))
        played = Engine(rules).run(seats, DeckSource([int(c) for c in decks[r]]), {})
        for seat in played.seats:
            assert seat.decisions[0].startswith("exchange") and seat.decisions[1] == "bet"
            for spot, w in seat.wagers.items():
                got = res.returned[spot][r, seat.seat - 1] - res.stakes[spot][r, seat.seat - 1]
                assert from_micro(int(got)) == w.net, f"round {r} seat {seat.seat} {spot}"
            assert from_micro(int(res.fees[r, seat.seat - 1])) == seat.fees
        assert from_micro(int(res.house[r])) == played.ledger.house
    assert exchanged_not_lowest > N, "most exchanges are of other than the lowest cards"


def test_an_exchange_of_one_card_is_refused_naming_the_seat() -> None:
    """§ 589.11(d)(2)(i)(B): "the player shall discard between two and five cards". Among a
    chunk's exchanges of three cards, one seat's exchange keeping four of its five cards is
    refused, the seat and the rule's range named; without it the chunk settles."""
    game = load_game("lunar-poker")
    cfg = TableConfig.defaults(game)
    cfg.progressives, cfg.offered = {}, set()
    rules = Rules(game, cfg)
    first = list(rules.decisions["first"].options)
    after = list(rules.decisions["after_draw"].options)
    N, S = 30, 3
    rng = np.random.default_rng(5891)
    decks = np.array([rng.permutation(52) for _ in range(N)], dtype=np.int64)
    keep = np.full((N, S), 2, np.int64)  # three cards exchanged
    keep[17, 2] = 4  # one card exchanged
    stakes = {"ante": np.full((N, S), to_micro(ANTE), np.int64)}

    def decided() -> dict[str, Scripted]:
        made = Scripted(np.full((N, S), first.index("exchange")), np.zeros((N, S), np.int64))
        made.keep_highest = keep.copy()
        bet = Scripted(np.full((N, S), after.index("bet")), np.zeros((N, S), np.int64))
        return {"first": made, "after_draw": bet}

    with pytest.raises(RoundError, match=r"^seat 3: an exchange is of 2 to 5 cards, not 1 "):
        BatchEngine(rules, None, S, {}).run(decks, {}, stakes, decided())
    keep[17, 2] = 2
    res = BatchEngine(rules, None, S, {}).run(decks, {}, stakes, decided())
    assert res.balanced().all()
