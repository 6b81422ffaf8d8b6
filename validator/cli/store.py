"""A submission's life from the command line: ``record``, ``approve``, ``reject``,
``history``, ``show``, ``purge``, ``db upgrade`` and the review pack, ``review``.

Every command takes ``--db URL`` (else ``RULESUB_DB``, else the SQLite file in the user's
data directory) and ``--format json``. Exit codes: 0 done, 1 the rules refuse it, 2 input
or a database that cannot be used.
"""

from __future__ import annotations

import datetime as dt
import getpass
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from validator.cli import app
from validator.cli.common import EXIT_FINDINGS, EXIT_USAGE, Format, fail, print_json

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="the database: a SQLite file or postgresql://… "
        "(default: RULESUB_DB, else rulesub.sqlite3 in the user's data directory)",
    ),
]
FormatOption = Annotated[Format, typer.Option("--format", help="text or json")]


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _named(by: str) -> None:
    if not by.strip():
        fail("--by: name the officer who acts (the audit log keeps it)")


def _date(value: str | None, option: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"{option} {value!r}: expected a date, YYYY-MM-DD")


@contextmanager
def _store_errors(format: Format = Format.text) -> Iterator[None]:
    """``StoreError`` → its message, exit 2; ``Refused`` → why and its findings, exit 1."""
    from validator.store import Refused, StoreError

    try:
        yield
    except StoreError as e:
        fail(str(e))
    except Refused as e:
        if format is Format.json:
            print_json({"refused": e.message, "findings": e.findings})
        sys.stderr.write(f"rulesub: {e.message}\n")
        for f in e.findings:
            cite = f" [{f['cite']}]" if f.get("cite") else ""
            sys.stderr.write(
                f"  {f['file']}:{f['line']}:{f['column']}: {f['severity']} {f['code']}: "
                f"{f['message']}{cite}\n"
            )
        raise typer.Exit(EXIT_FINDINGS) from None


def _open(db: str | None, *, must_exist: bool = False) -> Any:
    from validator.store import Store

    return Store(db, must_exist=must_exist)


# -- record, approve, reject -------------------------------------------------------------


@app.command("record")
def record(
    file: Annotated[Path, typer.Argument(help="a Rules Submission as filed (YAML)")],
    by: Annotated[
        str | None, typer.Option("--by", help="who records it (default: the login name)")
    ] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """Store a submission exactly as filed, with its findings now, as `submitted`.

    The same bytes recorded twice are one record. Exit 0 recorded, 2 unreadable."""
    if not file.is_file():
        fail(f"{file}: no such file")
    from validator.checks.engine import display_name

    with _store_errors(format):
        store = _open(db)
        rec = store.record(file, by or _user(), display=display_name(file))
    if format is Format.json:
        print_json(rec.to_json())
        return
    c = rec.counts
    again = " (these bytes were recorded before: the same record)" if rec.already else ""
    sys.stdout.write(
        f"submission {rec.id}: {rec.status}{again}\n"
        f"  sha256 {rec.sha256}\n"
        f"  findings: {c['errors']} error(s), {c['warnings']} warning(s), {c['info']} info\n"
        f"  regulation version {rec.regulation_version[:16]}\n"
    )


@app.command("approve")
def approve(
    submission_id: Annotated[int, typer.Argument(metavar="ID", help="the submission's id")],
    by: Annotated[str, typer.Option("--by", help="who approves it")],
    date: Annotated[
        str | None, typer.Option("--date", help="the approval date, YYYY-MM-DD (default today)")
    ] = None,
    note: Annotated[str | None, typer.Option("--note", help="a note kept with it")] = None,
    waive: Annotated[
        list[str] | None,
        typer.Option("--waive", help="CODE=REASON: a finding waived, with its reason"),
    ] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """Approve a submitted submission: it needs zero error findings (or each waived);
    it supersedes the approved one of its facility and game from its effective date.

    Exit 0 approved; 1 refused (findings, or another approval holds that facility, game and
    effective date); 2 unreadable input."""
    on = _date(date, "--date")
    _named(by)
    waived: dict[str, str] = {}
    for w in waive or []:
        code, sep, reason = w.partition("=")
        if not sep or not code.strip() or not reason.strip():
            fail(f"--waive {w!r}: expected CODE=REASON (a finding code and why it is waived)")
        waived[code.strip()] = reason.strip()
    with _store_errors(format):
        decision = _open(db, must_exist=True).approve(
            submission_id, by, on=on, note=note, waive=waived
        )
    if format is Format.json:
        print_json(
            {
                "id": decision.id,
                "status": decision.status,
                "approved_by": decision.by,
                "approved_on": decision.on.isoformat(),
                "superseded": decision.superseded,
                "waived": decision.waived,
            }
        )
        return
    lines = [f"submission {decision.id}: approved by {decision.by} on {decision.on}"]
    lines += [f"  supersedes submission {old}" for old in decision.superseded]
    lines += [f"  waived {w['code']}: {w['reason']}" for w in decision.waived]
    sys.stdout.write("\n".join(lines) + "\n")


@app.command("reject")
def reject(
    submission_id: Annotated[int, typer.Argument(metavar="ID", help="the submission's id")],
    by: Annotated[str, typer.Option("--by", help="who rejects it")],
    reason: Annotated[str, typer.Option("--reason", help="why")],
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """Reject a submitted submission, with the reason. Exit 0 rejected; 1 refused (it is
    no longer submitted); 2 unreadable input."""
    _named(by)
    if not reason.strip():
        fail("--reason: say why the submission is rejected")
    with _store_errors(format):
        decision = _open(db, must_exist=True).reject(submission_id, by, reason)
    if format is Format.json:
        print_json(
            {
                "id": decision.id,
                "status": decision.status,
                "rejected_by": decision.by,
                "rejected_on": decision.on.isoformat(),
                "reason": reason,
            }
        )
        return
    sys.stdout.write(f"submission {decision.id}: rejected by {decision.by}: {reason}\n")


# -- history, show ----------------------------------------------------------------------


@app.command("history")
def history(
    facility: Annotated[str | None, typer.Option("--facility", help="one facility")] = None,
    game: Annotated[str | None, typer.Option("--game", help="one game id")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """The timeline of the submissions: statuses, dates and who acted."""
    with _store_errors(format):
        store = _open(db, must_exist=True)
        rows = store.history(facility, game)
        events = store.events([r.id for r in rows]) if format is Format.text else []
    if format is Format.json:
        from validator.store.lifecycle import history_entry

        print_json([history_entry(r) for r in rows])
        return
    sys.stdout.write(_timeline(rows, events))


def _timeline(rows: list[Any], events: list[Any]) -> str:
    from validator.store.lifecycle import iso

    if not rows:
        return "no submissions recorded\n"
    by_id: dict[int, list[Any]] = {}
    for e in events:
        by_id.setdefault(e.submission_id, []).append(e)
    out: list[str] = []
    table = None
    for r in rows:
        if (r.facility, r.game) != table:
            table = (r.facility, r.game)
            out += [""] if out else []
            out.append(f"{r.facility} · {r.game}")
        out.append(
            f"  #{r.id}  effective {iso(r.effective)}  {r.status.upper():<10}  "
            f"{r.filename}  sha256 {r.sha256[:12]}"
        )
        for e in by_id.get(r.id, []):
            detail = json.loads(e.detail)
            out.append(f"      {iso(e.at)}  {_event_text(e.action, e.actor, detail)}")
    return "\n".join(out) + "\n"


def _event_text(action: str, actor: str, d: dict[str, Any]) -> str:
    if action == "record":
        f = d.get("findings", {})
        return (
            f"recorded by {actor} ({f.get('errors', 0)} error(s), "
            f"{f.get('warnings', 0)} warning(s))"
        )
    if action == "approve":
        text = f"approved by {actor} on {d.get('approved_on')}"
        for w in d.get("waived", []):
            text += f"; waived {w['code']}: {w['reason']}"
        return text + (f"; note: {d['note']}" if d.get("note") else "")
    if action == "reject":
        return f"rejected by {actor}: {d.get('reason')}"
    if action == "supersede":
        return f"superseded by #{d.get('superseded_by')} from {d.get('from')} ({actor})"
    return f"{action} by {actor}"


@app.command("show")
def show(
    submission_id: Annotated[int, typer.Argument(metavar="ID", help="the submission's id")],
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """The stored submission: its bytes exactly as filed (json: with its record)."""
    with _store_errors(format):
        store = _open(db, must_exist=True)
        row = store.get(submission_id)
        kept = store.waivers_of(submission_id) if format is Format.json else []
    if format is Format.text:
        sys.stdout.buffer.write(row.content)
        sys.stdout.buffer.flush()
        return
    from validator.store.lifecycle import history_entry

    entry = history_entry(row)
    entry["content"] = row.content.decode("utf-8", errors="replace")
    entry["findings_recorded"] = json.loads(row.findings)
    entry["approval_note"] = row.approval_note
    entry["waived"] = [{"code": w.code, "reason": w.reason, "by": w.waived_by} for w in kept]
    print_json(entry)


# -- retention ----------------------------------------------------------------------------


@app.command("purge")
def purge(
    before: Annotated[
        str, typer.Option("--before", help="purge filings that ended before this date")
    ],
    retention_years: Annotated[
        int,
        typer.Option(
            "--retention-years",
            envvar="RULESUB_RETENTION_YEARS",
            help="the retention period (default 5 years; RULESUB_RETENTION_YEARS)",
        ),
    ] = 5,
    by: Annotated[str | None, typer.Option("--by", help="who purges")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """Delete rejected and superseded filings that ended before --before; refuses (exit 1)
    a date inside the retention period. Approved and pending filings are never purged."""
    day = _date(before, "--before")
    assert day is not None
    with _store_errors(format):
        ids = _open(db, must_exist=True).purge(day, by or _user(), retention_years=retention_years)
    if format is Format.json:
        print_json({"purged": ids})
        return
    sys.stdout.write(
        f"purged {len(ids)} filing(s){': ' if ids else ''}{', '.join(f'#{i}' for i in ids)}\n"
    )


db_app = typer.Typer(help="The database of submissions.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("upgrade")
def db_upgrade(
    by: Annotated[str | None, typer.Option("--by", help="who upgrades")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
) -> None:
    """Migrate the database to this rulesub's schema (creating it if empty)."""
    with _store_errors(format):
        store = _open(db)
        before, after = store.upgrade(by or _user())
    if format is Format.json:
        print_json({"database": store.name, "from": before, "to": after})
        return
    if before == after:
        sys.stdout.write(f"{store.name}: the schema is current ({after})\n")
    else:
        sys.stdout.write(f"{store.name}: schema {before or 'none'} → {after}\n")


# -- the approved counterpart of a file ------------------------------------------------------


@contextmanager
def approved_file(file: Path, db: str | None) -> Iterator[tuple[Path, str, Any]]:
    """The last approved submission of ``file``'s facility and game, as a temporary file:
    ``(path, label, row)``. Exit 2 where there is none or the file cannot be read."""
    from validator.store.lifecycle import check_file, filing_key

    with _store_errors():
        from validator.checks.engine import display_name

        _, data = check_file(file, display_name(file))
        facility, game, _ = filing_key(data, str(file))
        row = _open(db, must_exist=True).approved_for(facility, game)
    if row is None:
        fail(f"no approved submission of {facility}, {game} in the database to compare with")
    suffix = Path(row.filename).suffix or ".yaml"
    with tempfile.TemporaryDirectory(prefix="rulesub-") as tmp:
        path = Path(tmp) / f"approved-{row.id}{suffix}"
        path.write_bytes(row.content)
        label = f"approved #{row.id} ({row.filename}, effective {row.effective})"
        yield path, label, row


# -- the review pack --------------------------------------------------------------------


class ReviewFormat(StrEnum):
    html = "html"
    markdown = "markdown"
    pdf = "pdf"
    json = "json"


@app.command("review")
def review(
    file: Annotated[Path, typer.Argument(help="the proposed Rules Submission")],
    against: Annotated[
        str | None,
        typer.Option("--against", help="`approved` (from the database) or an OLD_FILE"),
    ] = None,
    format: Annotated[
        ReviewFormat, typer.Option("--format", help="html, markdown, pdf or json")
    ] = ReviewFormat.html,
    out: Annotated[
        Path | None, typer.Option("--out", help="write to this file (whole or not at all)")
    ] = None,
    db: DbOption = None,
    office: Annotated[
        str | None,
        typer.Option(
            "--office",
            metavar="NAME",
            help="the office named on the cover (default: [tool.rulesub] office)",
        ),
    ] = None,
) -> None:
    """The review pack an officer reads and signs: findings, the diff against the approved
    submission with the holds before and after, the math of the selected paytables, the
    signage proofs, the regulation version and the approval block."""
    from validator.review import build_pack, render_html, render_markdown

    if not file.is_file():
        fail(f"{file}: no such file")
    if format is ReviewFormat.pdf and out is None:
        fail("--format pdf needs --out FILE")
    if out is not None and not out.parent.is_dir():
        fail(f"--out {out}: the directory {out.parent} does not exist")
    with _against(file, against, db) as (old_path, old_label, old_row):
        from validator.checks.engine import display_name

        record = _record_of(file, db)
        pack = build_pack(
            file,
            display_name(file),
            old_path,
            old_label,
            record=record,
            approved=old_row,
            par_workers=None,  # the par sheet's exact count on every core
        )
    if pack.unreadable:
        for line in pack.unreadable:
            sys.stderr.write(f"rulesub: {line}\n")
        raise typer.Exit(EXIT_USAGE)
    pack.office = office or _office_setting()
    if record is not None:
        pack.audit_head = _audit_head(db)
    if format is ReviewFormat.pdf:
        from validator.review.html import paged_review
        from validator.review.pdf import PdfError, print_pdf

        try:
            print_pdf(paged_review(pack), out)  # type: ignore[arg-type]
        except PdfError as e:
            fail(str(e))
        sys.stderr.write(f"rulesub: wrote the review pack to {out}\n")
        raise typer.Exit(_exit_code(pack))
    if format is ReviewFormat.json:
        from validator.review.build import pack_json

        text = json.dumps(pack_json(pack), indent=2, ensure_ascii=False, default=str) + "\n"
    else:
        text = render_html(pack) if format is ReviewFormat.html else render_markdown(pack)
    from validator.cli.common import emit

    emit(text, out, "the review pack")
    raise typer.Exit(_exit_code(pack))


def _exit_code(pack: Any) -> int:
    """The pack is written whatever the submission holds (reviewing a flawed filing is its
    job); exit 1 when the submission has errors, as ``validate``."""
    return EXIT_FINDINGS if pack.counts["errors"] else 0


@contextmanager
def _against(
    file: Path, against: str | None, db: str | None
) -> Iterator[tuple[Path | None, str | None, Any]]:
    if against is None:
        yield None, None, None
    elif against == "approved":
        with approved_file(file, db) as found:
            yield found
    else:
        old = Path(against)
        if not old.is_file():
            fail(f"--against {against}: give `approved` or an existing OLD_FILE")
        yield old, str(old), None


def _office_setting() -> str:
    """``[tool.rulesub] office`` of the configuration in force ("" where none says)."""
    from validator.checks.config import ConfigError, load_settings

    try:
        return load_settings().office or ""
    except ConfigError as e:
        fail(str(e))


def _audit_head(db: str | None) -> str | None:
    """The head of the store's audit chain, where the store offers one (its
    ``audit_head()``); None where it does not, or cannot be read."""
    from validator.store import StoreError

    try:
        head = getattr(_open(db, must_exist=True), "audit_head", None)
        value = head() if callable(head) else None
    except StoreError:
        return None
    return None if value is None else str(value)


def _record_of(file: Path, db: str | None) -> Any:
    """The record of exactly these bytes, where the database holds it."""
    import hashlib

    from validator.store import StoreError

    try:
        return _open(db, must_exist=True).find_sha(hashlib.sha256(file.read_bytes()).hexdigest())
    except StoreError:  # no database, or none of this rulesub: the pack says "not recorded"
        return None
