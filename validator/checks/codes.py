"""The committed table of every finding code, and the redirects of renamed ones (as ruff's).

A finding code is an interface: a waiver, a CI filter or a SARIF baseline names it. So every
code rulesub can report is listed in ``codes.json`` beside this module, and a code that
disappears must leave a redirect to the code that replaced it, or, where nothing replaced
it, the reason it was retired (``removed``); a test holds the table to the rules
(``tests/test_codes.py``). ``rulesub rules OLD`` and the waivers follow redirects.

    python -m validator.checks.codes     # rewrite the table from the rules (redirects kept)
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from validator import jsonout

TABLE = Path(__file__).resolve().parent / "codes.json"


@cache
def table() -> dict[str, Any]:
    try:
        data = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    return {
        "codes": data.get("codes", {}),
        "redirects": data.get("redirects", {}),
        "removed": data.get("removed", {}),
    }


def redirect(code: str) -> str:
    """The code ``code`` is now known as (itself when it was never renamed)."""
    seen = {code}
    redirects = table()["redirects"]
    while code in redirects:
        code = redirects[code]
        if code in seen:  # a cycle would be a broken table: stop where it closes
            break
        seen.add(code)
    return code


def current_codes() -> dict[str, str]:
    """code → severity, for every rule rulesub has now."""
    from validator.checks.rules import all_rules

    return {r.code: r.severity for r in all_rules()}


def main(argv: list[str] | None = None) -> None:
    """Rewrite the table: every current code, and every code that ever was kept with its
    redirect. A code gone without a redirect stops the rewrite: say where it went first.
    ``--check`` writes nothing and exits 1 where the table is out of date."""
    import argparse
    import sys

    from validator.files import write_whole

    parser = argparse.ArgumentParser(
        prog="python -m validator.checks.codes",
        description=f"rewrite {TABLE.name}, the table of every finding code rulesub reports",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    args = parser.parse_args(argv)
    old = table()
    redirects = dict(old["redirects"])
    current = current_codes()
    removed = dict(old["removed"])
    gone = [c for c in old["codes"] if c not in current and c not in redirects and c not in removed]
    if gone:
        sys.stderr.write(
            f"these codes are no longer reported; add each to `redirects` in {TABLE.name} "
            "with the code that replaced it, or to `removed` with the reason it was "
            "retired:\n  " + "\n  ".join(gone) + "\n"
        )
        raise SystemExit(1)
    data = {
        "codes": dict(sorted(current.items())),
        "redirects": dict(sorted(redirects.items())),
        "removed": dict(sorted(removed.items())),
    }
    text = jsonout.dumps(data, indent=1) + "\n"
    if args.check:
        if TABLE.read_text(encoding="utf-8") != text:
            sys.stderr.write(f"{TABLE.name} is stale: run python -m validator.checks.codes\n")
            raise SystemExit(1)
        print(f"{TABLE.name} is current")
        return
    write_whole(TABLE, text)
    print(f"wrote {TABLE.name}: {len(data['codes'])} codes, {len(redirects)} redirects")


if __name__ == "__main__":
    main()
