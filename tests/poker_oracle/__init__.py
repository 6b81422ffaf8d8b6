"""The Python reference engine of a nonbanking Poker round (``table.Hand``, its betting
round and its players' strategies): the oracle the property tests hold the kernels equal to.
"""
