"""The vocabulary of the game files, one registry entry per word (see ``registry``).

``python -m validator.vocabulary`` writes the reference, ``docs/vocabulary.md``.
"""

from validator.vocabulary import words as _words  # noqa: F401  (declares every word)
from validator.vocabulary.registry import (
    CONDITION,
    CONSTRAINT_KIND,
    KINDS,
    POKER_WORD,
    RANKING_PRIMITIVE,
    REGISTRY,
    STEP,
    TABLE_FEATURE,
    UnknownWord,
    Word,
    entry,
    meaning,
    meaning_of,
    words,
)

__all__ = [
    "CONDITION",
    "CONSTRAINT_KIND",
    "KINDS",
    "POKER_WORD",
    "RANKING_PRIMITIVE",
    "REGISTRY",
    "STEP",
    "TABLE_FEATURE",
    "UnknownWord",
    "Word",
    "entry",
    "meaning",
    "meaning_of",
    "words",
]
