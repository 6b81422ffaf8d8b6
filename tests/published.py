"""Published hand counts the tests hold the engines to (not derived from the engines)."""

#: The best five-card Poker hand over all C(52, 5) = 2,598,960 hands.
FIVE_CARD_COUNTS = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}

#: The best five-card Poker hand among seven cards, three of a kind or better, over all
#: C(52, 7) = 133,784,560 hands.
SEVEN_CARD_COUNTS = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
}
