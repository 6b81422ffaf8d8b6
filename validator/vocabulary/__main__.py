"""``python -m validator.vocabulary [--check] [--out FILE]``: write the vocabulary reference
(default ``docs/vocabulary.md`` under the current directory); ``--check`` only says whether
the file is current (exit 1 when it is stale)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.vocabulary.reference import DOC, render, uses, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m validator.vocabulary")
    parser.add_argument("--out", type=Path, default=DOC, help=f"default: {DOC}")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    text = render(uses())
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else None
        if current != text:
            print(f"{args.out} is stale: run python -m validator.vocabulary", file=sys.stderr)
            return 1
        print(f"{args.out} is current")
        return 0
    write(args.out, text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
