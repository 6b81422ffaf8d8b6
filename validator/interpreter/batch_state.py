"""The batch engine's chunk state: what a chunk of rounds has on the table as it goes.

Every figure is an array over the chunk's rounds (``N``) and seats (``S``): the decks and
where each round is in its deck, the cards held and as dealt (``(rounds, seats, cards)``,
-1 where no card), the dealer's face-up card, the stakes, folds and decisions, the draws
asked for, the rounds a void takes, what each line returned and when it was settled, the
meters' increments and hits, and the money wagered and kept. The version of the cards
moves with every deal, draw and dealer's replacement, so that a hand is valued once per
version. The chunk's parts (``batch_hands``, ``batch_conditions``, ``batch_decisions``,
``batch_settlement``) read and change it; it holds no rule of the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from validator.interpreter.batch_money import I64, B
from validator.model.procedure import Option

#: a card int (0..51; -1: no card), as every card array of a chunk holds it: a byte
CARD = np.int8


class ChunkState:
    """A chunk of rounds: its cards, stakes, choices, settlements and money, as arrays."""

    def __init__(
        self,
        decks: NDArray[np.int8],
        draws: dict[str, NDArray[np.int64]],
        seats: int,
        stakes: dict[str, I64],
        void_of: dict[str, B],
    ) -> None:
        self.N = N = decks.shape[0]
        self.S = S = seats
        self.decks = decks
        self.draws = draws  # the table game system's draws, per round
        self.pos = np.zeros(N, dtype=np.int64)  # the next card of each round's deck
        self.player = np.full((N, S, 0), -1, dtype=CARD)  # held
        self.player_dealt = np.full((N, S, 0), -1, dtype=CARD)
        self.table: dict[str, NDArray[np.int8]] = {}  # held
        self.table_dealt: dict[str, NDArray[np.int8]] = {}
        self.up = np.full(N, -1, dtype=CARD)  # the dealer's face-up card
        self.seat_numbers = np.arange(1, S + 1, dtype=np.int64)
        self.events_drawn: dict[str, NDArray[np.int64]] = {}  # the table system's, enabled
        self.event_kinds: dict[str, str] = {}
        self.version = 0  # of the cards: each change makes a new one
        # the players' choices
        self.stakes = stakes  # spot -> (N, S) micro-dollars, 0 where not wagered
        self.folded = np.zeros((N, S), dtype=bool)
        self.decided: dict[str, NDArray[np.int64]] = {}  # decision -> option index, -1
        self.choice_names: dict[str, list[str]] = {}
        self.pending_kind = np.zeros((N, S), dtype=np.int64)  # 0 none, 1 add, 2 exchange
        self.pending_keep = np.zeros((N, S), dtype=np.int64)
        self.pending_paired = np.zeros((N, S), dtype=bool)
        self.pending_named = np.zeros((N, S), dtype=bool)  # the exchange names its cards:
        self.pending_cards: B | None = None  # (N, S, held) those it keeps
        self.pending_option = np.full((N, S), -1, dtype=np.int64)  # index in draw_options
        self.draw_options: list[Option] = []
        # voids (§ *.13)
        self.void_of = void_of  # irregularity -> the rounds it voids
        self.voided = np.zeros(N, dtype=bool)
        self.standing: dict[str, B] = {}  # spot -> where its wager is not returned by a void
        # settlement
        self.returned: dict[str, I64] = {}  # line -> (N, S)
        self.house_line: dict[str, I64] = {}
        self.settled: dict[str, B] = {}
        # line -> when it was settled where: (the settlement's number, its lanes), in order
        self.seq: dict[str, list[tuple[int, B]]] = {}
        self.counter = 0
        self.step_index = 0  # the step being run: the meters pay hits in its order
        self.qualifies: B | None = None
        # meters: each round's increments, and the hits in the order they are paid
        self.meter_inc: dict[str, I64] = {}  # table/meter -> each round's increments
        self.meter_res: dict[str, I64] = {}  # and its reserve's
        self.events: list[tuple[Any, ...]] = []
        # money, per round (fees per seat)
        self.fees = np.zeros((N, S), dtype=np.int64)
        self.wagered = np.zeros(N, dtype=np.int64)
        self.house = np.zeros(N, dtype=np.int64)
        self.contrib = np.zeros(N, dtype=np.int64)
        self.meter_paid = np.zeros(N, dtype=np.int64)
