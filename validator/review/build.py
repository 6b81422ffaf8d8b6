"""What goes into a review pack, gathered from the stages that compute it.

The findings are the validator's (``rulesub validate``), the changes the diff's
(``validator.diff``), the math the odds engine's (``validator.odds``), the par sheet
``rulesub par``'s (``validator.par``, exact figures only: ``validator.review.par``), the
signage proofs the signage builder's (``validator.signage``); the pack only puts them in one
document, in
the order an officer reads them, ending with the approval block they sign.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from validator.review.par import LazyPar

#: The pack's sections, in order: (key, heading). Each after the first starts a page.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("submission", "Rules Submission under review"),
    ("summary", "Summary"),
    ("findings", "Findings"),
    ("changes", "Changes against the approved submission"),
    ("math", "Paytable math"),
    ("par", "Par sheet"),
    ("signage", "Signage proofs"),
    ("approval", "Approval"),
)
#: Sections that start on a new page when printed.
PAGE_STARTS = ("summary", "findings", "changes", "math", "par", "signage", "approval")


@dataclass
class Priced:
    """The exact odds of one selected paytable, or why there are none."""

    title: str
    cite: str | None
    result: Any = None  # validator.odds.OddsResult
    why_not: str | None = None
    #: a progressive's table, priced with its meters at their seeds (the hold then)
    at_seed: bool = False


@dataclass
class ReviewPack:
    file: str
    sha256: str
    generated_at: dt.datetime
    submission: Any = None  # RulesSubmission
    game: Any = None  # validator.compiler.Game
    findings: list[Any] = field(default_factory=list)  # validator.checks.Finding
    regulation_version: str = ""
    against_label: str | None = None
    #: why nothing is compared, where ``against_label`` is None
    not_compared: str = "no approved submission was given"
    diff: Any = None  # validator.diff.GameDiff
    diff_problem: str | None = None
    #: the submission compared with cannot be read, or is another game's: no diff can be made
    against_unusable: bool = False
    priced: list[Priced] = field(default_factory=list)
    signs: Any = None  # validator.signage.build.SignSet
    signs_problem: str | None = None
    record: Any = None  # the store's row of exactly these bytes, if recorded
    approved: Any = None  # the store's approved row compared with, if any
    unreadable: list[str] = field(default_factory=list)
    lazy_par: LazyPar | None = None
    office: str = ""  # the office reviewing: `[tool.rulesub] office`, or --office
    prepared_by: str = ""
    audit_head: Any = None  # the store's audit chain head (chain.Head), when from the store
    content: bytes = b""  # the filing's own bytes: findings quote its lines
    #: the approval's waivers, as the store holds them: (code, reason)
    waived: list[tuple[str, str]] = field(default_factory=list)

    @property
    def is_approved(self) -> bool:
        """Whether the store records an approval of exactly these bytes."""
        return bool(self.record is not None and getattr(self.record, "approved_by", None))

    @property
    def errors_waived(self) -> bool:
        """Whether the record's approval waived each of the submission's errors."""
        granted = {code for code, _ in self.waived}
        errors = [f for f in self.findings if f.severity == "error"]
        return bool(errors) and self.is_approved and all(f.code in granted for f in errors)

    @property
    def decided(self) -> str | None:
        """The decision the store records for exactly these bytes, in words; None while
        there is none (the pack is then the form the officer signs)."""
        from validator.store.names import ended

        r = self.record
        if r is None:
            return None
        if self.is_approved:
            text = f"Approved by {r.approved_by} on {r.approved_on}"
            if getattr(r, "approval_note", None):  # the copy of record keeps what was noted
                text += f" (the approval's note: {r.approval_note})"
            gone = ended(r)  # in force until the day its successor is
            return text + (f"; {gone}" if gone else "")
        if getattr(r, "rejected_by", None):
            return f"Rejected by {r.rejected_by} on {r.rejected_on}: {r.rejection_reason}"
        at = getattr(r, "decided_at", None)
        day = f" on {at:%Y-%m-%d}" if at is not None else ""
        if getattr(r, "status", None) == "withdrawn":  # never a form to sign: it ended
            return f"Withdrawn by its certificate holder{day}: it can no longer be decided"
        gone = ended(r)
        if gone is not None:  # replaced
            return (
                f"{gone[:1].upper()}{gone[1:]}{day}, the certificate holder's filing approved "
                "for the same facility, game and effective date: it can no longer be decided"
            )
        return None

    def headed(self, head: Any) -> ReviewPack:
        """The pack carrying the store's audit chain head (``validator.store.chain.Head``),
        read when the pack is handed out, and prepared then: a pack kept for its filing
        (its figures fixed by the filing's bytes, status and counterpart) is dated when it
        is handed out, never before the audit entry it commits to."""
        if head is None:
            return self
        from validator.clock import prepared_at

        return replace(self, audit_head=head, generated_at=prepared_at())

    @property
    def par(self) -> dict[str, Any] | None:
        """The par sheet (``rulesub par --format json``'s, exact figures only), made when
        first read; ``None`` where there is none (``par_problem`` says why)."""
        return None if self.lazy_par is None else self.lazy_par.sheet()

    @property
    def par_problem(self) -> str | None:
        return None if self.lazy_par is None else self.lazy_par.problem

    def value(self, key: str) -> str:
        v = getattr(self.submission, key, None) if self.submission is not None else None
        return "" if v is None else str(v)

    def heading(self, key: str) -> str:
        """A section's heading: the changes are against the approval on record, or against
        a file the officer gave (never called the approved submission: nothing shows it is)."""
        if key == "changes" and self.against_label is not None and self.approved is None:
            return "Changes against the file given"
        return dict(SECTIONS)[key]

    @property
    def banking(self) -> bool:
        """A game the house banks, whose paytables the pack prices; a nonbanking game (Poker:
        the players wager against each other, the house earns the rake) has none to price."""
        return self.game is None or self.game.definition.kind != "nonbanking"

    @property
    def sections(self) -> list[tuple[str, str]]:
        """The pack's sections, in order, with this pack's headings: a nonbanking game's
        without the paytable math, which would only say it has no paytable."""
        return [(key, self.heading(key)) for key, _ in SECTIONS if key != "math" or self.banking]

    @property
    def game_name(self) -> str:
        if self.game is not None:
            return f"{self.game.definition.name} ({self.game.definition.chapter})"
        return self.value("game")

    @property
    def counts(self) -> dict[str, int]:
        sev = [f.severity for f in self.findings]
        return {
            "errors": sev.count("error"),
            "warnings": sev.count("warning"),
            "info": sev.count("info"),
        }


def not_compared(row: Any) -> str:
    """Why a recorded filing's pack compares it with nothing (``Store.counterpart`` found
    no approval): for one approved, it superseded none; else none was in force on its
    effective date."""
    from validator.compiler import game_name

    if row.status in ("approved", "superseded"):
        return "it superseded no approved submission"
    return (
        f"no approval of {row.facility}, {game_name(row.game)} was in force on "
        f"{row.effective}, its effective date"
    )


def build_pack(
    path: Path,
    display: str,
    old_path: Path | None = None,
    old_label: str | None = None,
    *,
    record: Any = None,
    approved: Any = None,
    now: dt.datetime | None = None,
    par_workers: int | None = 1,
) -> ReviewPack:
    """The review pack of the submission at ``path``, compared with ``old_path``.
    ``par_workers``: processes for the par sheet's exact base game (``None``: every core;
    a server keeps to one, as no process pool is forked from its threads)."""
    from validator.loader import read_bytes
    from validator.signage.checked import check_submission, describe

    content = read_bytes(path, display=display)  # the loader's one bounded reader
    from validator import __version__
    from validator.clock import prepared_at

    pack = ReviewPack(
        content=content,
        prepared_by=f"rulesub {__version__}",
        file=display,
        sha256=hashlib.sha256(content).hexdigest(),
        generated_at=now or prepared_at(),
        record=record,
        approved=approved,
        against_label=old_label,
    )
    checked = check_submission(path, display=display)
    if checked.unreadable or checked.submission is None:
        pack.unreadable = [describe(f) for f in checked.findings] or [f"{display}: unreadable"]
        return pack
    pack.submission = checked.submission
    pack.findings = checked.as_filed()  # a waiver the filing writes is the officer's to grant
    game_id = getattr(checked.submission, "game", None)
    pack.game = checked.game()
    if isinstance(game_id, str):
        from validator.store.lifecycle import regulation_version

        pack.regulation_version = regulation_version(game_id)
    if pack.game is None:
        pack.diff_problem = pack.signs_problem = f"no game {game_id!r} to review against"
        from validator.review.par import LazyPar

        pack.lazy_par = LazyPar(None, pack.diff_problem)
        return pack
    if old_path is not None:
        _changes(pack, checked, old_path, old_label or str(old_path))
    pack.priced = price_selected(pack.game, checked.submission)
    from validator.review.par import par_input

    pack.lazy_par = par_input(pack.game, path, display, par_workers)
    _signage(pack, checked)
    return pack


def _changes(pack: ReviewPack, new: Any, old_path: Path, old_label: str) -> None:
    from validator.diff import diff_submissions
    from validator.signage.checked import check_submission, describe

    old = check_submission(old_path, display=old_label)
    if old.unreadable or old.submission is None:
        pack.diff_problem = "; ".join(describe(f) for f in old.findings)
        pack.against_unusable = True
        return
    if getattr(old.submission, "game", None) != pack.game.id:
        pack.against_unusable = True
        pack.diff_problem = (
            f"{old_label} is a {getattr(old.submission, 'game', None)} submission: "
            f"a diff compares two submissions of {pack.game.id}"
        )
        return
    pack.diff = diff_submissions(
        pack.game,
        old.submission,
        new.submission,
        # counted as the pack counts them: a waiver a filing writes is only asked for
        old_findings=old.as_filed(),
        new_findings=pack.findings,
        old_label=old_label,
        new_label=pack.file,
    )


def price_selected(game: Any, submission: Any) -> list[Priced]:
    """The exact odds of every paytable the submission selects for a wager it offers, and
    of the tables it states where the chapter's text is missing."""
    from validator.diff.compare import table_title, valuation
    from validator.odds import OddsError, exact_odds, not_priced_reason, priced_table
    from validator.par.completions import JOINT
    from validator.signage.build import offered_wagers

    d = game.definition
    offered = set(offered_wagers(d, getattr(submission, "offered", None)))
    selected = dict(getattr(submission, "paytables", None) or {})
    custom = dict(getattr(submission, "custom_paytables", None) or {})
    out: list[Priced] = []
    for wid, tid, table in d.tables():
        if wid not in offered:
            continue
        title = table_title(game, wid, tid, table)
        if tid in custom:
            try:
                result = priced_table(game, tid, rows=custom[tid], joint=JOINT)
                out.append(Priced(f"{title}, as stated", table.cite, result))
            except (OddsError, KeyError, ValueError) as e:
                out.append(Priced(f"{title}, as stated", table.cite, why_not=str(e)))
            continue
        letter = selected.get(tid)
        if letter is None or not table.selectable:
            continue
        title = f"{title}: Paytable {letter}"
        reason = not_priced_reason(game, wid, tid, JOINT)
        if reason:
            out.append(Priced(title, table.cite, why_not=reason))
            continue
        value = valuation(submission, wid)
        kwargs: dict[str, Any] = {"joint": JOINT}
        if value.wager_amount is not None and (table.by_wager_amount or table.meters):
            kwargs["wager_amount"] = value.wager_amount
        meters = value.meters(table, letter) if table.meters else None
        if meters:
            kwargs["meter"] = meters
        try:
            result = exact_odds(game, tid, letter, **kwargs)
            out.append(Priced(title, table.cite, result, at_seed=bool(meters)))
        except (OddsError, KeyError, ValueError) as e:
            out.append(Priced(title, table.cite, why_not=str(e)))
    return out


def _signage(pack: ReviewPack, checked: Any) -> None:
    from validator.signage.build import build_signage
    from validator.signage.checked import draft_note

    if pack.game.definition.signage is None:
        pack.signs_problem = f"the game file of {pack.game.id} declares no signs"
        return
    errors = checked.errors
    pack.signs = build_signage(
        pack.game,
        checked.submission,
        draft=bool(errors),
        problems=[draft_note(f, pack.game) for f in errors],
    )


def pack_json(pack: ReviewPack) -> dict[str, Any]:
    """The pack as data (``rulesub review --format json``): each section's figures as the
    stage that computed it writes them."""
    from validator.diff.render import to_json as diff_json
    from validator.signage.build import Line, Paytable

    def item(x: Any) -> dict[str, Any]:
        if isinstance(x, Line):
            return {"text": x.text, "cite": x.cite}
        assert isinstance(x, Paytable)
        return {
            "paytable": x.title,
            "cite": x.cite,
            "rows": [list(r) for r in x.rows],
            "lines": [{"text": line.text, "cite": line.cite} for line in x.lines],
        }

    record = pack.record
    return {
        "file": pack.file,
        "sha256": pack.sha256,
        "regulation_version": pack.regulation_version,
        "facility": pack.value("facility") or None,
        "game": pack.value("game") or None,
        "effective": pack.value("effective") or None,
        "recorded": None
        if record is None
        else {
            "id": record.id,
            "status": record.status,
            "decision": pack.decided,
            "waived": [{"code": c, "reason": r} for c, r in pack.waived],
        },
        "audit_head": pack.audit_head.to_json() if pack.audit_head is not None else None,
        "findings": [f.to_dict() for f in pack.findings],
        "against": pack.against_label,
        "changes": None if pack.diff is None else diff_json(pack.diff),
        "math": [
            {"title": p.title, "cite": p.cite, "odds": p.result.to_json()}
            if p.result is not None
            else {"title": p.title, "cite": p.cite, "not_priced": p.why_not}
            for p in pack.priced
        ],
        "par": pack.par,
        "par_problem": pack.par_problem,
        "signage": None
        if pack.signs is None
        else {
            "draft": pack.signs.draft,
            "signs": [
                {"title": s.title, "cite": s.cite, "items": [item(x) for x in s.items]}
                for s in pack.signs.signs
            ],
        },
    }
