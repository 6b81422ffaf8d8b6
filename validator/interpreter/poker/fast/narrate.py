"""A round of play read from its operation log (``operations``): the players' cards, what
each put in, who folded and who went All-in, the board, the burn cards, the chips each
betting round took, and the dealer's calls as ``play`` narrates them, street by street.
The one reader of the log: ``play``'s narration and its JSON round records are made from
what it reads, never from a second engine.
"""

from __future__ import annotations

from validator.cards import cards_str
from validator.compiler import Game
from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.settle import forced_bet_seat
from validator.interpreter.poker.table import Player
from validator.money import Cents, dollar_text

#: what a betting round's line calls each put and action (a bet or raise adds its level)
_ACTIONS = {
    ops.POST_BLIND: "Blind Bet",
    ops.POST_FORCED_BET: "Forced Bet",
    ops.CHECK: "check",
    ops.CALL: "call",
    ops.FOLD: "fold",
    ops.BET: "bet",
    ops.RAISE: "raise",
}

#: the operations of a seat after the street's cards are out
_AFTER_CARDS = frozenset((ops.RESHUFFLE, ops.DISCARD, ops.DRAW, ops.SHOW, ops.CONCEDE, *_ACTIONS))


class ReadRound:
    """What a round's log says, read row by row: the players dealt in (``by_seat``), in the
    order dealt (``order``), the board, the burn cards, the narration's lines, the chips by
    betting round and the showdown's (seat, shown). A street's line is called once its cards
    are out (at the first row after them that is not a card, a burn, a reshuffle of the burn
    cards or a Blind Bet), its betting line when the next street begins or the round ends."""

    def __init__(self, game: Game, seats: list[int], stacks: dict[int, Cents]) -> None:
        """A round to be read from its log (``read``): ``seats`` the seat number of each seat
        index, ``stacks`` the seats' stacks as it began."""
        d = game.definition
        assert d.deal is not None and d.showdown is not None
        self.showdown_cite = d.showdown.order.cite
        self.game = game
        self.streets = list(d.deal.streets.values())
        self.common_cite = d.deal.common_card.cite if d.deal.common_card else ""
        self.seats = seats
        self.stacks = stacks
        self.by_seat: dict[int, Player] = {}
        self.order: list[int] = []
        self.board: list[int] = []
        self.burns: list[int] = []
        self.lines: list[str] = []
        self.antes: list[int] = []
        self.ante = 0
        self.street = -1
        self.street_due = False  # the street's line not yet called
        self.betting: list[tuple[int, str]] | None = None  # the street's betting round
        self.put = 0
        self.put_before = 0
        self.round_put: list[Cents] = []
        self.showdown: list[tuple[int, bool]] = []  # (seat, shown)

    @property
    def players(self) -> list[Player]:
        """The players dealt in, in seat order."""
        return [self.by_seat[s] for s in sorted(self.by_seat)]

    @property
    def showdown_order(self) -> list[int]:
        return [s for s, _ in self.showdown]

    @property
    def shown(self) -> list[int]:
        return [s for s, shown in self.showdown if shown]

    @property
    def conceded(self) -> list[int]:
        return [s for s, shown in self.showdown if not shown]

    def in_hand(self) -> list[int]:
        """The seats still in, in the order dealt."""
        return [s for s in self.order if not self.by_seat[s].folded]

    def player(self, index: int) -> Player:
        seat = self.seats[index]
        if seat not in self.by_seat:
            self.by_seat[seat] = Player(seat, self.stacks[seat])
            self.order.append(seat)
        return self.by_seat[seat]

    def _live(self) -> list[Player]:
        return [self.by_seat[s] for s in self.in_hand()]

    def put_in(self, p: Player, amount: Cents) -> None:
        p.put(amount)
        self.put += amount

    def call_antes(self) -> None:
        if self.antes:
            seats = ", ".join(str(s) for s in self.antes)
            self.lines.append(f"antes {dollar_text(self.ante)} from seats {seats}")
            self.antes = []

    def call_street(self) -> None:
        if not self.street_due:
            return
        self.street_due = False
        street = self.streets[self.street]
        self.lines.append(
            f"{street.name}: "
            + "; ".join(f"seat {p.seat} {cards_str(p.card_list())}" for p in self._live())
            + (f"; board {cards_str(self.board)}" if self.board else "")
        )

    def call_betting(self) -> None:
        self.call_street()
        if self.betting is None:
            return
        name = self.streets[self.street].name
        self.lines.append(
            f"{name} betting: " + "; ".join(f"seat {s} {what}" for s, what in self.betting)
        )
        self.betting = None
        self.round_put.append(self.put - self.put_before)
        self.put_before = self.put

    def row(self, op: int, seat: int, amount: int, card: int, detail: int) -> None:
        if op == ops.POST_ANTE:
            p = self.player(seat)
            self.put_in(p, amount)
            self.ante = amount
            self.antes.append(p.seat)
        elif op == ops.STREET:
            self.call_antes()
            self.call_betting()
            self.street, self.street_due = card, True
            self.betting = [] if detail else None
        elif op == ops.DEAL:
            if seat == ops.NO_SEAT:
                self.board.append(card)
                if detail == ops.COMMON:
                    common = cards_str([card])
                    self.lines.append(
                        f"a common card for every player: {common} [{self.common_cite}]"
                    )
            else:
                self.player(seat).cards.append((card, detail == ops.FACE_UP))
        elif op == ops.BURN:
            self.burns.append(card)
        elif op == ops.POST_BLIND:  # called in the betting line, with the actions
            self.act(op, seat, amount, card, detail)
        elif op == ops.RESHUFFLE and seat == ops.NO_SEAT:
            self.burns = []
            self.lines.append("the burn cards are shuffled to deal the common card")
        elif op in _AFTER_CARDS:
            self.call_street()
            self.act(op, seat, amount, card, detail)
        # the settlement's operations and the button's move say nothing the narration reads

    def read(self, log: Ints, start: int, n: int, show_all: bool = False) -> ReadRound:
        """The log's rows ``start`` to ``n`` read (those before read already), then what
        they leave called: the antes, the last betting round, the chips put in after it and,
        its rows read, the showdown; ``show_all``: the Rules Submission requires every hand
        at the showdown shown (§ 553.16(d)), as its line says."""
        for row in ops.rows(log, n)[start:]:
            op, seat, amount, card, detail = (int(x) for x in row)
            self.row(op, seat, amount, card, detail)
        self.call_antes()
        self.call_betting()
        if self.put != self.put_before:  # chips in after the last betting round
            self.round_put.append(self.put - self.put_before)
            self.put_before = self.put
        if self.showdown:
            why = (
                "every hand is shown (Rules Submission)"
                if show_all
                else "losing hands may be conceded"
            )
            calls = (
                f"seat {s} " + ("shows" if up else "concedes without showing")
                for s, up in self.showdown
            )
            self.lines.append("showdown: " + "; ".join(calls) + f"; {why} [{self.showdown_cite}]")
        return self

    def act(self, op: int, seat: int, amount: int, card: int, detail: int) -> None:
        """A row after the street's cards: the draw, the Forced Bet, an action, the
        showdown."""
        p = self.player(seat)
        if op == ops.RESHUFFLE:
            self.lines.append(f"the discard pile is reshuffled for seat {p.seat}'s draw")
        elif op == ops.DISCARD:
            p.cards = [(c, up) for c, up in p.cards if c != card]
        elif op == ops.DRAW:
            self.lines.append(f"seat {p.seat} draws {card}")
        elif op in (ops.SHOW, ops.CONCEDE):
            self.call_betting()
            self.showdown.append((p.seat, op == ops.SHOW))
        elif op in _ACTIONS:
            assert self.betting is not None  # a put or action only in a street's betting round
            if op == ops.POST_FORCED_BET:
                ups = [(q.seat, q.up_cards()[0]) for q in self._live()]
                call = forced_bet_seat(self.game, ups)
                assert call is not None
                self.lines.append(call.reason)
            self.put_in(p, amount)
            if op == ops.FOLD:
                p.folded = True
            what = _ACTIONS[op]
            if op in (ops.POST_BLIND, ops.POST_FORCED_BET):
                what += f" {dollar_text(amount)}"
            elif op in (ops.BET, ops.RAISE):
                what += f" to {dollar_text(card)}"
            self.betting.append((p.seat, what + " (All-in)" * p.all_in))


def showdown(
    hand: list[int], last_aggressor: int, losers: set[int], show_all: bool
) -> list[tuple[int, bool]]:
    """§ 553.16(d): of the seats still in (``hand``, in the order dealt), the player who
    made the final wager (``last_aggressor``, a seat number; -1 none) shows first, then the
    others in turn; a losing hand (``losers``) may be conceded unshown unless every hand
    must be shown: (seat, shown) in that order."""
    if len(hand) < 2:
        return []
    i = hand.index(last_aggressor) if last_aggressor in hand else 0
    order = hand[i:] + hand[:i]
    return [(s, k == 0 or s not in losers or show_all) for k, s in enumerate(order)]
