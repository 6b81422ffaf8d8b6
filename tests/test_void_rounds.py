"""Void rounds (the chapters' § *.13) in both round engines.

"All hands shall be void, all wagers shall be returned to the players" (§ 641a.13(c), (d);
§ 589.13(c), (d); § 677a.13(c); § 678a.13(c)), except the wagers an irregularity still
settles: "any Flush Bonus, Straight Flush Bonus and Progressive Jackpot Wagers shall be
settled" (§ 678a.13(d)), "if a player has placed a Pocket Bonus or Trips Plus Wager, the
wager shall be settled" (§ 677a.13(d)), "any Pocket Bonus Wagers shall be settled"
(§ 677a.13(a)). The game files list them (``settle.void``); the batch engine takes a mask of
the rounds each irregularity voids, and a chunk mixing voided and played rounds settles
round by round as the scalar engine settles each alone, meters carried between them.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from validator import PROJECT_ROOT
from validator.compiler import load_game
from validator.interpreter.batch import BatchEngine
from validator.interpreter.batch_money import from_micro
from validator.interpreter.dealing import DeckSource
from validator.interpreter.errors import RoundError
from validator.interpreter.play import default_wagers
from validator.interpreter.rules import Rules
from validator.interpreter.scalar import Engine
from validator.interpreter.seats import Seat
from validator.interpreter.settings import read_settings

GAMES = ["four-card-poker", "high-card-flush", "lunar-poker", "wpt-heads-up-holdem"]
EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"


def _rules(game_id: str) -> Rules:
    game = load_game(game_id)
    return Rules(game, read_settings(game, EXAMPLES / f"{game_id}.yaml"))


def _cases() -> list[tuple[str, str]]:
    out = []
    for g in GAMES:
        settle = load_game(g).definition.settle
        assert settle is not None
        out += [(g, irregularity) for irregularity in settle.void]
    return out


@pytest.mark.parametrize(("game_id", "irregularity"), _cases())
def test_a_chunk_of_voided_and_played_rounds_settles_as_the_scalar_engine(
    game_id: str, irregularity: str
) -> None:
    rules = _rules(game_id)
    strategy = rules.strategy(None)
    wagers = default_wagers(rules)
    rng = np.random.default_rng(sum(map(ord, irregularity + game_id)))
    N, S = 6, 3
    decks = np.array([rng.permutation(52) for _ in range(N)], dtype=np.int64)
    voided = np.array([False, True, False, True, True, False])
    draws = {"magic_card": rng.integers(52, size=N), "lucky_bonus": rng.integers(S + 1, size=N)}
    batch = BatchEngine(rules, strategy, S, wagers)
    res = batch.run(decks, draws, void={irregularity: voided})
    scalar = Engine(rules, strategy)
    for r in range(N):

        def system(draw_id: str, kind: str, r: int = r) -> tuple[str, int]:
            return ("card" if kind == "card" else "position", int(draws[draw_id][r]))

        seats = [Seat(k, dict(wagers), None) for k in range(1, S + 1)]
        irr = irregularity if voided[r] else None
        out = scalar.run(seats, DeckSource([int(c) for c in decks[r]]), system, irr)
        assert (out.void is not None) == voided[r]
        for seat in out.seats:
            for spot, w in seat.wagers.items():
                got = int(res.returned[spot][r, seat.seat - 1]) - int(
                    res.stakes[spot][r, seat.seat - 1]
                )
                assert from_micro(got) == w.net, f"round {r} seat {seat.seat} {spot}"
                if w.void:
                    assert w.net == 0
        assert from_micro(int(res.house[r])) == out.ledger.house, f"round {r}"
    for key, m in scalar.meters.meters.items():
        b = batch.meters[key]
        assert (from_micro(b.amount), from_micro(b.reserve)) == (m.amount, m.reserve), key
        assert (from_micro(b.increments), from_micro(b.paid)) == (m.increments, m.paid), key
    assert res.balanced().all()


def test_a_voided_progressive_wager_adds_nothing_to_the_meter() -> None:
    """§ 641a.13(d): every wager returned, the Four Card Progressive's too, so the round adds
    no increment to the meter; the played rounds around it do."""
    rules = _rules("four-card-poker")
    wagers = default_wagers(rules)
    assert "four_card_progressive" in wagers
    decks = np.array([list(range(52))] * 3, dtype=np.int64)

    def increments(voided: list[bool]) -> Decimal:
        batch = BatchEngine(rules, rules.strategy(None), 2, wagers)
        batch.run(decks, void={"dealer_card_exposed": np.array(voided)})
        return sum((from_micro(m.increments) for m in batch.meters.values()), Decimal(0))

    played, one_voided = increments([False] * 3), increments([False, True, False])
    assert played > 0 and one_voided == played * 2 / 3


def test_an_irregularity_the_game_does_not_list_is_refused_by_both_engines() -> None:
    rules = _rules("high-card-flush")
    wagers = default_wagers(rules)
    deck = list(range(52))
    with pytest.raises(RoundError) as scalar:
        Engine(rules).run([Seat(1, dict(wagers), None)], DeckSource(deck), {}, "dealer_exposed")
    with pytest.raises(RoundError) as batch:
        BatchEngine(rules, None, 1, wagers).run(
            np.array([deck]), void={"dealer_exposed": np.array([True])}
        )
    assert str(scalar.value) == str(batch.value)
    assert "dealer_card_exposed" in str(batch.value)
