"""The reference engine of a round of nonbanking Poker, in Python: dealt and bet street by
street from the game file's ``deal:`` steps, then settled: antes, Blind Bets, the Stud Forced
Bet, burns, cards to the players and the board, the Stud common card when the deck runs
short (§ 553.10(h)), the draw with its discard reshuffle (§ 553.13(g)(2)), a betting round
after each street, the showdown. The oracle the kernels (``fast/hand.py``) are held equal to
by the property tests; no command plays it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import MutableSequence, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from tests.poker_oracle.betting import Action, BettingRound, Options
from validator.cards import cards_str
from validator.compiler import Game
from validator.interpreter.chunks import chunk_rng
from validator.interpreter.poker.fast import Ints
from validator.interpreter.poker.fast.stream import AT, Stream, shuffle
from validator.interpreter.poker.session import PlayedHand
from validator.interpreter.poker.settle import PokerSettlement, forced_bet_seat, settle_round
from validator.interpreter.poker.table import (
    Limit,
    Player,
    Rules,
    Stakes,
)
from validator.interpreter.roundfile.poker import PokerRound, SeatRound
from validator.model.poker import Street
from validator.money import Cents, dollar_text


def clockwise_after(seats: Sequence[int], seat: int) -> list[int]:
    """The seats clockwise from the one to the left of ``seat``."""
    ordered = sorted(seats)
    return [s for s in ordered if s > seat] + [s for s in ordered if s <= seat]


class Strategy(Protocol):
    def act(self, player: Player, options: Options, betting: BettingRound) -> Action: ...

    def discard(self, player: Player, game: Game) -> list[int]: ...


class Shuffles(Protocol):
    """What shuffles the piles a round reshuffles: the session's random stream
    (``OracleStream``)."""

    def shuffle(self, pile: MutableSequence[int]) -> None: ...


class OracleStream(Stream):
    """The session's random stream, shuffling a pile in place as the oracle does, from the
    words the kernels read (``stream.shuffle``)."""

    def shuffle(self, pile: MutableSequence[int]) -> None:
        pile[:] = self.shuffled(np.asarray(pile, dtype=np.int64)).tolist()

    def shuffled(self, pile: Ints) -> Ints:
        """A shuffled copy of ``pile``, the stream advanced past the words it read."""
        n = pile.shape[0]
        need = 2 * n + 8
        while True:
            w = self.ensure(need)
            out = pile.copy()
            at = shuffle(w, w[AT], out, n)
            if at >= 0:
                w[AT] = at
                return out
            need = 2 * (w.shape[0] - int(w[AT])) + 8  # words drawn again: more of them

    def deck(self) -> list[int]:
        """A round's deck: the 52 cards shuffled."""
        return self.shuffled(np.arange(52, dtype=np.int64)).tolist()


class Hand:
    """One round of play in progress."""

    def __init__(
        self,
        game: Game,
        stacks: dict[int, Cents],
        stakes: Stakes,
        deck: Sequence[int],
        strategy: Strategy,
        *,
        button: int | None = None,
        rules: Rules | None = None,
        rng: Shuffles | None = None,
        narrated: bool = True,
    ) -> None:
        d = game.definition
        assert d.deal is not None and d.betting is not None
        if len(set(deck)) != len(deck):
            raise ValueError("a deck holds each card once")
        self.game = game
        self.deal = d.deal
        self.betting = d.betting
        self.stakes = stakes
        self.strategy = strategy
        self.rules = rules or Rules()
        self.rng = rng or OracleStream(chunk_rng(0))  # the reshuffles (a session's: its stream)
        need = stakes.required()
        self.players = [Player(s, st) for s, st in sorted(stacks.items()) if st >= need]
        self.sitting_out = sorted(s for s, st in stacks.items() if st < need)
        self.stacks_before = dict(stacks)
        self.by_seat = {p.seat: p for p in self.players}
        seats = [p.seat for p in self.players]
        self.button: int | None
        if self.deal.first == "button_left":
            self.button = button if button in seats else seats[-1]
            self.order = [self.by_seat[s] for s in clockwise_after(seats, self.button)]
        else:
            self.button = None
            self.order = list(self.players)
        self.stock: deque[int] = deque(deck)
        self.board: list[int] = []
        self.burns: list[int] = []
        self.discards: list[int] = []
        self.mucked: set[int] = set()
        self.log: list[str] = []
        self.narrated = narrated  # the dealer's calls written to ``log`` (off: no log kept)
        self.last_round: BettingRound | None = None
        self.final_wager: int | None = None  # who made the round of play's last wager
        self.round_put: list[Cents] = []  # what each betting round put in the pots
        self.put_before = 0
        self.street_ids = list(self.deal.streets)
        self.multiplier = (
            self.rules.kill.multiplier
            if self.rules.kill and (self.rules.kill.in_effect)
            else Fraction(1)
        )

    # -- helpers -----------------------------------------------------------------------------

    def in_hand(self) -> list[Player]:
        return [p for p in self.order if not p.folded]

    def draw_card(self) -> int:
        if not self.stock:
            raise ValueError("the deck ran out")
        return self.stock.popleft()

    def burn(self, n: int) -> None:
        for _ in range(n):
            self.burns.append(self.draw_card())

    def say(self, text: str) -> None:
        if self.narrated:
            self.log.append(text)

    # -- the round ---------------------------------------------------------------------------

    def play(self) -> PlayedHand:
        if len(self.players) < 2:
            raise ValueError("a round of play needs two players with enough table stakes")
        if self.stakes.ante:
            for p in self.order:
                p.put(self.stakes.ante)
            if self.narrated:
                self.say(
                    f"antes {dollar_text(self.stakes.ante)} from seats {self._seats(self.order)}"
                )
        for sid, street in self.deal.streets.items():
            if len(self.in_hand()) < 2:
                break
            self.street(sid, street)
        return self.finish()

    def street(self, sid: str, street: Street) -> None:
        betting = None
        posters: list[Player] = []
        if street.blinds == "before_deal":
            betting, posters = self.blinds(sid, street)
        if not self.common_card(sid, street):
            self.burn(street.burn)
            for r in street.deal:
                for _ in range(r.rounds):
                    if r.to == "board":
                        self.board.append(self.draw_card())
                    else:
                        for p in self.in_hand():
                            p.cards.append((self.draw_card(), r.face == "up"))
        if self.narrated:
            self.say(
                f"{street.name}: "
                + "; ".join(f"seat {p.seat} {cards_str(p.card_list())}" for p in self.in_hand())
                + (f"; board {cards_str(self.board)}" if self.board else "")
            )
        if street.blinds == "after_deal":
            betting, posters = self.blinds(sid, street)
        if street.draw is not None:
            self.draw_round()
        if street.betting is not None and len(self.in_hand()) >= 2:
            self.bet(sid, street, betting, posters)

    def common_card(self, sid: str, street: Street) -> bool:
        """§ 553.10(h): too few cards to burn one and give each remaining player a card."""
        cc = self.deal.common_card
        if cc is None or sid not in cc.streets:
            return False
        need = street.burn + len(self.in_hand()) * sum(
            r.rounds for r in street.deal if r.to == "player"
        )
        if len(self.stock) >= need:
            return False
        if len(self.stock) <= cc.shuffle_burns_when_left:
            pile = self.burns + list(self.stock)
            self.burns = []
            self.rng.shuffle(pile)
            self.stock = deque(pile)
            self.say("the burn cards are shuffled to deal the common card")
        self.burn(1)
        self.board.append(self.draw_card())
        self.say(f"a common card for every player: {cards_str(self.board[-1:])} [{cc.cite}]")
        return True

    def blinds(self, sid: str, street: Street) -> tuple[BettingRound, list[Player]]:
        posters = self.in_hand()[: len(self.stakes.blinds)]
        rest = self.in_hand()[len(posters) :]
        order = rest + posters
        br = self.new_round(order, sid)
        for p, amount in zip(posters, self.stakes.blinds, strict=False):
            br.post(p, amount, "Blind Bet", acted=False)
        return br, posters

    def limit(self, sid: str, street: Street) -> Limit:
        tier = street.betting.limit if street.betting else "lower"
        if self.stakes.upper_from is not None:  # the submission's split (§ 553.18)
            upper = self.street_ids.index(sid) >= self.street_ids.index(self.stakes.upper_from)
            tier = "upper" if upper else "lower"
        split = self.betting.split_limit
        if (
            split is not None
            and split.open_pair == "upper"
            and split.open_pair_street == sid
            and any(self._open_pair(p) for p in self.in_hand())
        ):
            tier = "upper"
        base = self.stakes.upper if tier == "upper" and self.stakes.upper else self.stakes.lower
        return base.times(self.multiplier, self.stakes.chip)

    @staticmethod
    def _open_pair(p: Player) -> bool:
        ranks = [c // 4 for c in p.up_cards()]
        return len(ranks) != len(set(ranks))

    def new_round(self, order: list[Player], sid: str) -> BettingRound:
        """A betting round: the raise cap of its street where the submission states one
        (§ 553.18), and check-raise unless a ban is posted (§ 553.8(j))."""
        cr = self.betting.check_raise
        check_raise = cr.allowed if cr else True
        if self.stakes.check_raise is not None:
            check_raise = self.stakes.check_raise
        return BettingRound(
            order,
            self.stakes.lower,
            max_raises=self.stakes.max_raises_by_street.get(sid, self.stakes.max_raises),
            check_raise=check_raise,
            chip=self.stakes.chip,
            narrated=self.narrated,
        )

    def _opened_by_forced_bet(self) -> tuple[list[Player], Player | None]:
        """The Forced Bet's player opens (§ 553.10(d)); the players to his left act after
        him, he last."""
        forced = self.forced_bet_player()
        return [*self._from(forced, include=False), forced], forced

    def _opened_by_showing(self) -> tuple[list[Player], Player | None]:
        """The best hand showing acts first (§ 553.10(f)), the others in turn."""
        return self._from(self.showing_player(), include=True), None

    def _opened_left_of_button(self) -> tuple[list[Player], Player | None]:
        """The players in turn from the button's left: a street whose Blind Bets were
        posted has its round already, opened to the left of the blinds."""
        return self.in_hand(), None

    def bet(self, sid: str, street: Street, br: BettingRound | None, posters: list[Player]) -> None:
        assert street.betting is not None
        opens = street.betting.opens
        forced: Player | None = None
        if br is None:  # who opens
            order, forced = {
                "forced_bet": self._opened_by_forced_bet,
                "showing": self._opened_by_showing,
            }.get(opens, self._opened_left_of_button)()
            br = self.new_round(order, sid)
        br.limit = self.limit(sid, street)
        if forced is not None:
            br.post(forced, self.stakes.forced_bet, "Forced Bet", acted=True)
        br.run(self.strategy.act)
        put = sum(p.contributed for p in self.players)
        self.round_put.append(put - self.put_before)
        self.put_before = put
        self.last_round = br
        if br.last_aggressor is not None:
            self.final_wager = br.last_aggressor
        if self.narrated:
            self.say(
                f"{street.name} betting: " + "; ".join(f"seat {s} {what}" for s, what in br.log)
            )
        for p in self.order:  # a folded hand goes to the discard pile
            if p.folded and p.seat not in self.mucked:
                self.mucked.add(p.seat)
                self.discards += p.card_list()

    def _from(self, first: Player, *, include: bool) -> list[Player]:
        hand = self.in_hand()
        i = hand.index(first)
        return hand[i:] + hand[:i] if include else hand[i + 1 :] + hand[:i]

    def forced_bet_player(self) -> Player:
        fb = self.betting.forced_bet
        assert fb is not None
        ups = [(p.seat, p.up_cards()[0]) for p in self.in_hand()]
        call = forced_bet_seat(self.game, ups)
        assert call is not None
        self.say(call.reason)
        return self.by_seat[call.seat]

    def showing_player(self) -> Player:
        """The best hand showing acts first; ties to the player nearest the dealer's left."""
        fa = self.betting.first_to_act
        assert fa is not None
        ev = self.game.evaluator(fa.ranking)
        able = [p for p in self.in_hand() if not p.all_in] or self.in_hand()
        best = max(ev.best(p.up_cards()).key for p in able)
        return min((p for p in able if ev.best(p.up_cards()).key == best), key=lambda p: p.seat)

    def draw_round(self) -> None:
        """§ 553.13(g): each player in turn from the button's left; the discard pile (not
        the burn cards, not the cards of players yet to draw, and not the drawing player's
        own discards: each is replaced "with a new card") is reshuffled when the deck runs
        short."""
        for p in self.in_hand():
            out = self.strategy.discard(p, self.game)
            cards = p.card_list()
            if not set(out) <= set(cards):
                raise ValueError(f"seat {p.seat} discards cards it does not hold")
            kept = [(c, up) for c, up in p.cards if c not in out]
            new: list[tuple[int, bool]] = []
            for _ in out:
                if not self.stock:
                    pile = self.discards
                    self.discards = []
                    self.rng.shuffle(pile)
                    self.stock = deque(pile)
                    self.say(f"the discard pile is reshuffled for seat {p.seat}'s draw")
                new.append((self.draw_card(), False))
            self.discards += out  # to the pile once his new cards are dealt
            p.cards = kept + new
            if self.narrated:
                self.say(f"seat {p.seat} draws {len(out)}")

    # -- the end -----------------------------------------------------------------------------

    def showdown_order(self) -> list[int]:
        """§ 553.16(d): the player who made the final wager (the round of play's last, on
        whatever street: a later street checked around makes none) shows first, then
        clockwise."""
        hand = self.in_hand()
        if len(hand) < 2:
            return []
        first_seat = self.final_wager
        first = self.by_seat.get(first_seat) if first_seat is not None else None
        if first is None or first.folded:
            first = hand[0]
        return [p.seat for p in self._from(first, include=True)]

    def finish(self) -> PlayedHand:
        seats = [
            SeatRound(p.seat, p.card_list(), p.contributed, p.folded, p.all_in and not p.folded, "")
            for p in self.players
        ]
        put = sum(p.contributed for p in self.players)
        if put != self.put_before:  # chips in after the last betting round (none, as dealt)
            self.round_put.append(put - self.put_before)
        rake = self.rules.rake
        if rake is not None and rake.per_betting_round:
            rake = replace(rake, rounds=tuple(self.round_put))
        rnd = PokerRound(
            self.game.id,
            self.stakes.chip,
            seats,
            list(self.board),
            self.button,
            rake,
            self.rules.bad_beat,
            self.rules.kill,
        )
        settlement = settle_round(self.game, rnd)
        order = self.showdown_order()
        shown, conceded = self.reveal(order, settlement)
        return PlayedHand(
            self.players,
            self.sitting_out,
            list(self.board),
            list(self.burns),
            self.log,
            order,
            settlement,
            self.stacks_before,
            shown,
            conceded,
            list(self.round_put),
        )

    def reveal(self, order: list[int], settlement: PokerSettlement) -> tuple[list[int], list[int]]:
        """§ 553.16(d): the player who made the final wager shows first, the others in
        turn; a losing hand may be conceded unshown unless the Rules Submission requires
        every discarded hand shown."""
        shown: list[int] = []
        conceded: list[int] = []
        for i, seat in enumerate(order):
            loses = settlement.seat(seat).won == 0
            if i > 0 and loses and not self.stakes.show_all:
                conceded.append(seat)
            else:
                shown.append(seat)
        sd = self.game.definition.showdown
        cite = sd.order.cite if sd is not None else ""
        if order and self.narrated:
            why = (
                "every hand is shown (Rules Submission)"
                if self.stakes.show_all
                else "losing hands may be conceded"
            )
            self.say(
                "showdown: "
                + "; ".join(
                    f"seat {s} " + ("concedes without showing" if s in conceded else "shows")
                    for s in order
                )
                + f"; {why} [{cite}]"
            )
        return shown, conceded

    @staticmethod
    def _seats(players: Sequence[Player]) -> str:
        return ", ".join(str(p.seat) for p in players)


def play_hand(
    game: Game,
    stacks: dict[int, Cents],
    stakes: Stakes,
    deck: Sequence[int],
    strategy: Strategy,
    *,
    button: int | None = None,
    rules: Rules | None = None,
    rng: Shuffles | None = None,
) -> PlayedHand:
    """Deal, bet and settle one round of play."""
    return Hand(game, stacks, stakes, deck, strategy, button=button, rules=rules, rng=rng).play()


class RandomStrategy:
    """Every legal action equally likely, bets and raises of a random legal size in whole
    chips; a random number of discards. For tests of the engine's invariants."""

    def __init__(self, rng: random.Random, chip: Cents = 100) -> None:
        self.rng = rng
        self.chip = chip

    def _size(self, lo: Cents, hi: Cents) -> Cents:
        if hi <= lo:
            return hi
        steps = (hi - lo) // self.chip
        return lo + self.rng.randint(0, steps) * self.chip if steps else lo

    def act(self, player: Player, options: Options, betting: BettingRound) -> Action:
        choices: list[Action] = []
        if options.to_call > 0:
            choices.append(Action("fold"))
            choices.append(Action("call"))
        if options.can_check:
            choices += [Action("check")] * 2
        if options.bet is not None:
            choices.append(Action("bet", self._size(*options.bet)))
        if options.raise_to is not None:
            choices.append(Action("raise", self._size(*options.raise_to)))
        return self.rng.choice(choices)

    def discard(self, player: Player, game: Game) -> list[int]:
        cards = player.card_list()
        return self.rng.sample(cards, self.rng.randint(0, len(cards)))
