"""The review pack's front matter in a person's words: the cover's facts, the summary page,
a change named by its field, a finding with the submission's own line beneath it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from validator.diff.names import field_name
from validator.review.build import ReviewPack

__all__ = ["field_name", "hold_rows", "identification", "quoted_line"]


def quoted_line(pack: ReviewPack, line: int) -> str | None:
    """The submission's own line ``line`` (1-based), as written; None where there is none."""
    lines = pack.content.decode("utf-8", errors="replace").splitlines()
    if 1 <= line <= len(lines) and lines[line - 1].strip():
        return lines[line - 1].rstrip()
    return None


def no_hold(pack: ReviewPack) -> str:
    """What the summary says where no wager has a hold to show: a nonbanking game's house
    takes no wager (it earns the rake), or no wager of the submission is priced."""
    from validator.compiler import PokerGame

    if isinstance(pack.game, PokerGame):
        rake_rule = pack.game.definition.rake
        rake = f" [{rake_rule.cite}]" if rake_rule is not None else ""
        return (
            "No wager of the house's: in a nonbanking game the players wager against each "
            f"other and the house earns the rake{rake}. This pack holds no figure of what it "
            "earns: its Par sheet section says where they are made."
        )
    return "No wager of this submission is priced."


def hold_rows(pack: ReviewPack) -> list[tuple[str, str, str, str]]:
    """Each priced wager's hold: (wager, before, after, change) — before and after from the
    diff where one was made, else the selected paytable's hold as the only figure."""
    from validator.diff.render import delta_text, hold_text, long_run_sides, sides

    rows: list[tuple[str, str, str, str]] = []
    seen: set[str] = set()
    if pack.diff is not None:
        for c in pack.diff.changes:
            if c.has_hold:
                name = c.title or field_name(pack.game, c.path)
                seen.add(name.split(":")[0])
                if c.hands:  # a paytable's change: which paytables, as an unchanged row says
                    name = f"{name}: {sides(c)[0]} → {sides(c)[1]}"
                if not c.has_long_run:
                    rows.append((name, hold_text(c.hold_old), hold_text(c.hold_new), delta_text(c)))
                    continue
                # a progressive: at the meter's seed, and over the meter's life
                at_seed = (hold_text(c.hold_old), hold_text(c.hold_new), delta_text(c))
                rows.append((f"{name}, with the meter at its seed", *at_seed))
                rows.append(
                    (
                        f"{name}, in the long run (increments and reseeds counted)",
                        *long_run_sides(c),
                    )
                )
    for p in pack.priced:
        if p.title.split(":")[0] in seen:
            continue
        if p.result is None:
            rows.append((p.title, "", "not priced", ""))
            continue
        hold: Fraction = p.result.hold
        figure = _pct(-hold) + " returned" if p.result.basis == "bonus" else _pct(hold)
        before = figure if pack.diff is not None else ""
        title = f"{p.title}, with the meter at its seed" if p.at_seed else p.title
        rows.append((title, before, figure, "unchanged" if pack.diff is not None else ""))
    return rows


def _pct(x: Fraction) -> str:
    from validator.diff.render import percent

    return f"{percent(x)}%"


def identification(path: Path, game_id: str) -> dict[str, str | None]:
    """What a document made from one submission is identified by: the certificate holder,
    the facility, the effective date, the regulation version, the file's sha256, when it was
    prepared."""
    import hashlib

    from validator.clock import prepared_at
    from validator.model.submission import load_submission, submission_bytes
    from validator.store.lifecycle import regulation_version

    sub = load_submission(path).submission

    def value(key: str) -> str | None:
        v = getattr(sub, key, None) if sub is not None else None
        return None if v is None else str(v)

    return {
        "certificate_holder": value("certificate_holder"),
        "facility": value("facility"),
        "effective": value("effective"),
        "regulation_version": regulation_version(game_id),
        "sha256": hashlib.sha256(submission_bytes(path)).hexdigest(),
        "prepared_on": prepared_at().strftime("%Y-%m-%d %H:%M UTC"),
    }
