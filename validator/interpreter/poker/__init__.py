"""Nonbanking Poker: players bet against each other and the house takes a rake. A round is
dealt, bet and settled by the kernels (``fast/``); here, what surrounds them: the table
(``table``), the session of rounds (``session``) and the explanation of a settlement
(``settle``, with ``showdown``, ``rake``, ``bad_beat``, ``kill``: the words of each rule, the
figures read from the round's operation log). The round file a Poker round is settled from
is read with every other round file's (``validator.interpreter.roundfile.poker``).

The package loads none of them: every game's settings read its plain rules (rake, Kill, Bad
Beat, table), which need none of the kernels the settlement loads.
"""
