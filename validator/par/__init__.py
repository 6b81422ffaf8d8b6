"""The par sheet: a game's whole math, from the game file and a Rules Submission.

``sheet.build`` assembles it; ``wagers`` prices every paytable wager (through
``validator.odds``), ``longest_flush`` derives a flush-length game's base game exactly (the
optimal strategy and every declared one), ``progressive`` puts the meters in figures,
``simulated`` runs the base games that cannot be enumerated, deterministically on any number
of processes or a Dask cluster, and ``render`` prints text, markdown and printable HTML.
"""
