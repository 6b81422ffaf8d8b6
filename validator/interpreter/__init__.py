"""The generic round interpreter: one engine runs every banking game from its game file.

Stages, each a module:

- ``config``   the table's settings: what a Rules Submission selects (paytables, meters,
               limits, offered wagers), or documented defaults when none is given;
- ``rules``    a game file and a table's settings compiled for play: every id the
               procedure, settlement and strategies use checked, paytable rows resolved;
- ``roundfile`` a round file (the contract of ``rulesub settle``) read and checked;
- ``scalar``   the scalar engine: one round, step by step, with the reason of every result
               (``rulesub settle`` and ``rulesub play``);
- ``batch``    the vectorized engine: many rounds at once over numpy arrays
               (``rulesub simulate``), held to settle exactly as the scalar engine does;
- ``meters``   progressive meters with money conserved;
- ``simulate`` statistics of simulated rounds; ``play`` deals rounds and writes their log.
"""
