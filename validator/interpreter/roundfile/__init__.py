"""The round file: one round as it was dealt and played, the contract of ``rulesub settle``,
read by one reader: the reading every round file shares (``reading``: each problem at its
file, line and column, unknown keys, money, cards, one deck), a part for the banking games
(``banking``) and a part for nonbanking Poker (``poker``). A banking round::

    game: lunar-poker
    rulesub: ../rulesubs/example/lunar-poker.yaml   # optional: paytables, limits, meters
    paytables: {super: A, instant_payout: A}         # optional: overrides or replaces the above
    seats:
      - wagers: {ante: 10, super: 5}
        cards: [AS, AH, KD, 8C, 9S]
        actions: [bet]                               # the player's decisions, in order
    dealer: [2C, 5D, 9H, KS, AD]
    community: []                                    # Heads-Up Hold 'Em: the five board cards
    deck: [7H, 3S]                                   # next cards, in order

Optional keys beyond the contract, all written by ``rulesub play --log``:

- ``seat:`` in a seat, its position (1 = farthest to the dealer's left; default: its place
  in the list); ``wagers: {five_card_hand_bonus: {player: 5, dealer: 5}}`` wagers on the
  player's and on the dealer's hand;
- ``table_system: {magic_card: 7H, lucky_bonus: 3}`` (or ``dealer``): the table game
  system's draws;
- ``meters: {four_card_progressive: {primary: 5123.45}}``: the meters as the round began
  (default: the seed);
- ``irregularity: dealer_card_exposed``: an irregularity of the chapter's § *.13 that voids
  the round (the game file's ``settle.void`` lists them);
- ``round``, ``seed``, ``strategy``, ``deck_order``, ``result``: what ``play`` records;
  ``draft``: the errors of the submission it played under with ``--allow-findings``.

A nonbanking Poker round states what each seat put in the pot instead of its wagers, and
the table's rake, Bad Beat and Kill rules (README, "Poker round files")::

    game: poker-holdem
    seats:
      - {seat: 1, cards: [AS, AH], contributed: 50}
      - {seat: 2, cards: [9H, 8H], contributed: 50}
    board: [5H, 6H, 7H, AC, AD]
    rake: {percent: 10%, cap: 4}

A round that cannot have happened (a card twice, a wrong card count, an action the rules do
not offer, a player still in who put in less than another without being All-in) is refused
with the rule it breaks: a ``RoundFileError``, every problem at its place, exit 2.
"""

from validator.interpreter.roundfile.banking import (
    KNOWN_KEYS,
    SEAT_KEYS,
    RoundSpec,
    SeatSpec,
    read_round,
)
from validator.interpreter.roundfile.reading import RoundFileError, RoundProblem

__all__ = [
    "KNOWN_KEYS",
    "SEAT_KEYS",
    "RoundFileError",
    "RoundProblem",
    "RoundSpec",
    "SeatSpec",
    "read_round",
]
