"""A count in words, the one place documents, pages and messages say one: "1 error",
"2 warnings", "3 entries", never "error(s)"."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 entry``, ``2 errors``: a count in words."""
    if n != 1 and word.endswith("y") and word[-2:-1] not in "aeiou":
        return f"{n:,} {word[:-1]}ies"
    return f"{n:,} {word}{'' if n == 1 else 's'}"
