"""The Rules Submission: one certificate holder's choices for one game at one facility.

The format is a contract (issue 4)::

    rulesub: 1
    certificate_holder: Example Downs Racing & Casino
    facility: Example Downs
    game: four-card-poker
    effective: 2027-01-01
    table: {positions: 7, min_wager: 10, max_wager: 500}
    dealing: {methods: [manual_shoe], shuffler: automated_counting, decks: 2,
              change_every_hours: {manual_shoe: 8}}
    offered: [four_card_progressive, six_card_bonus]
    paytables: {aces_up: C, four_card_progressive: B, four_card_envy_bonus: A}
    progressives:
      four_card_progressive:
        wager_amount: 1
        meters: {primary: {seed: 1000, reseed: 1000, increment: 25%, reserve_increment: 5%}}
    equipment: {progressive_system: true, electronic_wagering_system: false}
    adjacent_boxes: 2
    payout_limit: 100000
    custom_paytables: {pocket_bonus: {pair_of_aces: 30 to 1, …}}   # where the text is missing

Money is a number of dollars or a string like ``"$5,000"``; rates are strings with ``%``.

Reading a submission reports *every* problem of form at once: the model takes no field as
required (``REQUIRED`` says which are, and the checks report them), so that a value that
is wrong can be dropped and the rest still checked against the regulation.

The model is split by what each module holds: ``document`` (the submission and its header,
the wagers offered and paytables selected, the keys required), ``table`` (limits, dealing,
equipment), ``progressives`` (meters), ``poker`` (what a Poker table states),
``descriptions`` (each field in words), ``reading`` (a file read into the model),
``plain_yaml`` (the fast YAML reader), ``problems`` (problems of form, with positions) and
``pointers`` (values and keys by JSON pointer). The names below are the contract every
command reads a submission through.
"""

from __future__ import annotations

from validator.model.submission.descriptions import (
    DESCRIPTIONS,
)
from validator.model.submission.document import (
    FORMAT_VERSION,
    POKER_SECTIONS,
    REQUIRED,
    RulesSubmission,
)
from validator.model.submission.part import (
    Part,
)
from validator.model.submission.plain_yaml import (
    _read_plain,
    read_yaml,
)
from validator.model.submission.pointers import (
    MISSING,
    known_keys,
    known_keys_at,
    resolve,
)
from validator.model.submission.poker import (
    Ante,
    BadBeat,
    BadBeatQualifying,
    BadBeatShares,
    DeckRotation,
    Discontinuation,
    IncrementalRake,
    KillOption,
    PercentageRake,
    PokerBetting,
    PokerShowdown,
    RaisedMinimum,
    Rake,
    RakeLevel,
    RakeType,
    TimeRake,
)
from validator.model.submission.problems import (
    MISREAD,
    FormatProblem,
    empty_values,
    missing_keys,
)
from validator.model.submission.progressives import (
    Meter,
    Progressive,
    RateOrNA,
)
from validator.model.submission.reading import (
    LoadedSubmission,
    load_submission,
    parse_submission,
    read_once,
    submission_bytes,
)
from validator.model.submission.table import (
    AUTOMATED_SHUFFLERS,
    EQUIPMENT,
    METHODS,
    SHUFFLERS,
    Dealing,
    Equipment,
    Method,
    Shuffler,
    TableLimits,
)

__all__ = [
    "AUTOMATED_SHUFFLERS",
    "DESCRIPTIONS",
    "EQUIPMENT",
    "FORMAT_VERSION",
    "METHODS",
    "MISREAD",
    "MISSING",
    "POKER_SECTIONS",
    "REQUIRED",
    "SHUFFLERS",
    "Ante",
    "BadBeat",
    "BadBeatQualifying",
    "BadBeatShares",
    "Dealing",
    "DeckRotation",
    "Discontinuation",
    "Equipment",
    "FormatProblem",
    "IncrementalRake",
    "KillOption",
    "LoadedSubmission",
    "Meter",
    "Method",
    "Part",
    "PercentageRake",
    "PokerBetting",
    "PokerShowdown",
    "Progressive",
    "RaisedMinimum",
    "Rake",
    "RakeLevel",
    "RakeType",
    "RateOrNA",
    "RulesSubmission",
    "Shuffler",
    "TableLimits",
    "TimeRake",
    "_read_plain",
    "empty_values",
    "known_keys",
    "known_keys_at",
    "load_submission",
    "missing_keys",
    "parse_submission",
    "read_once",
    "read_yaml",
    "resolve",
    "submission_bytes",
]
