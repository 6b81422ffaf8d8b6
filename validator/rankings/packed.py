"""A ranking's hand values as integer keys, for the numba kernels of the Poker fast path.

``pack_key`` is the definition: the scalar ``HandValue.key`` (a tuple of small ints, the
category's strength then the tiebreak; a low hand's are negated) packed into one int with
the same order. Each part ``p`` (-15..15) is stored as ``p + 16`` in 5 bits, most
significant first, and a key shorter than ``KEY_PARTS`` is padded with 0, below every
stored part: so a tuple that is a prefix of another packs lower, as Python compares them.
The tables that read keys without building a ``HandValue`` are held equal to it.
"""

from __future__ import annotations

from collections.abc import Sequence

#: parts of a key: the strength and at most six tiebreak ranks
KEY_PARTS = 7
PART_BITS = 5
PART_OFFSET = 16


def pack_key(key: Sequence[int]) -> int:
    """``key`` as one non-negative int ordered as the tuples are."""
    if len(key) > KEY_PARTS:
        raise ValueError(f"a hand key of {len(key)} parts: at most {KEY_PARTS} are packed")
    out = 0
    for i in range(KEY_PARTS):
        out <<= PART_BITS
        if i < len(key):
            part = key[i]
            if not -PART_OFFSET < part < PART_OFFSET:
                raise ValueError(f"a hand key part {part} outside -15..15")
            out |= part + PART_OFFSET
    return out


def unpack_key(packed: int) -> tuple[int, ...]:
    """The tuple ``pack_key`` packed."""
    parts = []
    for i in range(KEY_PARTS):
        stored = (packed >> (PART_BITS * (KEY_PARTS - 1 - i))) & ((1 << PART_BITS) - 1)
        if stored == 0:
            break
        parts.append(stored - PART_OFFSET)
    return tuple(parts)
