"""The reference engine of a nonbanking Poker session: every round dealt, bet and settled by
``table.Hand`` (the Python oracle the kernels are held equal to), the session's books,
buy-ins, button and random stream kept by ``Session`` as for any round."""

from __future__ import annotations

from dataclasses import replace

from tests.poker_oracle.strategy import TableStrategy
from tests.poker_oracle.table import Hand, OracleStream
from validator.interpreter.poker.session import PlayedHand, Session
from validator.interpreter.poker.table import Rules


class ReferenceSession(Session):
    """A ``Session`` whose rounds ``table.Hand`` plays (no block, no kernel)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.block = None
        assert self.stream.read == 0  # the same words, shuffled in place as the oracle does
        self.stream = OracleStream(self.stream.rng)
        self.strategy = TableStrategy(self.game, self.strategies)

    def _round(self, deck: list[int]) -> tuple[int | None, PlayedHand]:
        rules = self.setup.rules
        bad_beat = replace(rules.bad_beat, fund=self.fund) if rules.bad_beat else None
        hand = Hand(
            self.game,
            dict(self.stacks),
            self.setup.stakes,
            deck,
            self.strategy,
            button=self.button,
            rules=Rules(rake=rules.rake, bad_beat=bad_beat, kill=self.kill),
            rng=self.stream,
            narrated=self.narrated,
        )
        self.strategy.board = hand.board  # the strategy reads the board as it is dealt
        played = hand.play()
        return hand.button, played
