"""The Python reference of a nonbanking Poker round (``table.Hand``, its betting round, its
players' strategies, and the dealer's hand-worked settlement: pots, rake, Bad Beat, showdown,
Kill): the oracle the property tests hold the kernels equal to."""
