"""A submission's life from the command line: ``record``, ``approve``, ``reject``,
``history``, ``show``, ``purge``, ``db upgrade``, ``audit verify``, ``facilities`` and the
review pack, ``review``.

Every command takes ``--db URL`` (else ``RULESUB_DB``, else the SQLite file in the user's
data directory) and ``--format json``. Exit codes: 0 done, 1 the rules refuse it, 2 input
or a database that cannot be used.
"""

from __future__ import annotations

import datetime as dt
import getpass
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from validator import jsonout
from validator.cli import app
from validator.cli.common import (
    EXIT_FINDINGS,
    EXIT_USAGE,
    Format,
    fail,
    not_a_file,
    print_json,
    readable_input,
)
from validator.cli.options import (
    DbOption,
    FormatOption,
    OutOption,
    SubmissionIdArgument,
    out_format,
    prints_result,
    ready_to_write,
)
from validator.counts import plural

# --db and --format, with every command's --out, are declared once in validator.cli.options


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _named(by: str) -> str:
    """``--by`` as the audit log will keep it: the store's one check (``named``), made
    before any work; exit 2 on a blank name."""
    _set_aside()
    from validator.store import StoreError
    from validator.store.lifecycle import named

    try:
        return named(by)
    except StoreError as e:
        fail(f"--by {by!r}: {e}")


def _who(by: str | None) -> str:
    """Who acts: ``--by`` (never blank), else the login name."""
    return _user() if by is None else _named(by)


def _date(value: str | None, option: str) -> dt.date | None:
    """``--date``, ``--before``: the command line's one reading of a date
    (``common.parse_date``: YYYY-MM-DD only)."""
    if value is None:
        return None
    from validator.cli.common import parse_date

    day: dt.date = parse_date(value, option)
    return day


def _set_aside() -> None:
    """Before the store loads: what the command holds already (the validator, its games)
    is set aside from the cycle collector (``gc.freeze``), once a process. SQLAlchemy's
    import and the command's work make tens of thousands of objects, and each collection
    they start would walk everything held, for nothing: it all lives until the command
    ends. A tenth of a ``record``'s time. Asked once a process: the count of what is set
    aside is itself a walk of all of it, and a process that runs many commands (the
    tests, in process) would walk it again at each."""
    if _SET_ASIDE:
        return
    _SET_ASIDE.append(True)
    import gc

    if not gc.get_freeze_count():
        gc.freeze()


#: Whether ``_set_aside`` has run in this process.
_SET_ASIDE: list[bool] = []


@contextmanager
def _store_errors(format: Format = Format.text) -> Iterator[None]:
    """``StoreError`` → its message, exit 2; ``Refused`` → why and its findings, exit 1."""
    _set_aside()
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
            if f.get("filing_waiver"):
                sys.stderr.write(f"    the filing asks to waive it: {f['filing_waiver']}\n")
        raise typer.Exit(EXIT_FINDINGS) from None


def _open(db: str | None, *, must_exist: bool = False) -> Any:
    from validator.store import Store

    return Store(db, must_exist=must_exist)


# -- record, approve, reject -------------------------------------------------------------


@app.command("record")
@prints_result("the record")
def record(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Rules Submissions as filed (YAML), or directories of them",
            readable=False,
        ),
    ],
    by: Annotated[
        str | None, typer.Option("--by", help="who records it (default: the login name)")
    ] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Store each submission exactly as filed, with its findings now, as `submitted`: one
    transaction each, so one that cannot be read does not stop the others.

    The same bytes recorded twice are one record. A directory records the submissions in
    it, as `rulesub validate` finds them. With --format json: one file, its record; more,
    a list in the order given. Exit 0 recorded, 2 one or more unreadable (each named)."""
    from validator.checks.engine import discover

    for f in files:
        if not f.exists():
            fail(not_a_file(f))
    who = _who(by)
    walked = discover(files)
    results = [{"file": name, "unreadable": why} for name, why in _passed_over(walked)]
    found = walked.files
    if not found:
        fail(f"no Rules Submission in {', '.join(str(f) for f in files)}")
    _set_aside()

    with _store_errors(format):
        store = _open(db)
        try:
            _record_each(store, found, who, results, format)
        finally:
            store.discard_if_unwritten()  # a first filing refused leaves no empty file
    unreadable = sum(1 for r in results if "unreadable" in r)
    if format is Format.json:
        if len(files) > 1 or files[0].is_dir():
            print_json(results)
        elif not unreadable:  # one file named: its record, as ever
            print_json({k: v for k, v in results[0].items() if k != "file"})
    if unreadable:
        n = len(results) - unreadable
        sys.stderr.write(f"rulesub: {n} recorded, {unreadable} unreadable (not recorded)\n")
        raise typer.Exit(EXIT_USAGE)


def _record_each(
    store: Any, found: list[Path], who: str, results: list[dict[str, Any]], format: Format
) -> None:
    """Record each file in its own transaction, one connection for all; a file that cannot
    be read is named in ``results`` and the others go on."""
    from validator.checks.engine import display_name
    from validator.store import StoreError

    with store.session(many=len(found) > 1):  # one connection, one transaction a file
        for path in found:
            name = display_name(path)
            try:
                rec = store.record(path, who, display=name)
            except StoreError as e:
                if not path.is_file() or name in str(e) or str(path) in str(e):
                    sys.stderr.write(f"rulesub: {e}\n")
                    results.append({"file": name, "unreadable": str(e)})
                    continue
                raise  # the database, not the file: stop
            results.append({"file": name, **rec.to_json()})
            if format is Format.text:
                _say_recorded(rec, name if len(found) > 1 else None)


def _passed_over(walked: Any) -> list[tuple[str, str]]:
    """What the walk of a directory passed over, said as `validate` says it; of the YAML
    files that are no Rules Submission, those that cannot be read as text (binary, not
    UTF-8, over the size cap) or are empty are unreadable, each named (file and why): in a
    directory of filings they are filings damaged, not other YAML."""
    from validator.checks.engine import display_name
    from validator.loader import LoadError, read_text

    unreadable: list[tuple[str, str]] = []
    for path in list(walked.other_yaml):
        name = display_name(path)
        try:
            blank = not read_text(path, display=name).strip()
            why = f"{name}:1:1: the file is empty: no Rules Submission in it"
        except LoadError as e:
            blank, why = True, str(e)
        if blank:
            walked.other_yaml.remove(path)
            unreadable.append((name, why))
    for note in walked.skipped:
        sys.stderr.write(f"rulesub: {note}\n")
    for _, why in unreadable:
        sys.stderr.write(f"rulesub: {why}\n")
    return unreadable


def _say_recorded(rec: Any, name: str | None) -> None:
    """One record, as the text output says it; ``name``: the file, where several are."""
    c = rec.counts
    from validator.store.words import recorded_again

    again = f" ({recorded_again(rec.status)})" if rec.already else ""
    sys.stdout.write(
        (f"{name}\n" if name else "") + f"submission {rec.id}: {rec.status}{again}\n"
        f"  sha256 {rec.sha256}\n"
        f"  findings: {plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}, "
        f"{c['info']} info\n"
        f"  regulation version {rec.regulation_version[:16]}\n"
    )


@app.command("approve")
@prints_result("the decision")
def approve(
    submission_id: SubmissionIdArgument,
    by: Annotated[str, typer.Option("--by", help="who approves it")],
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="the approval date, YYYY-MM-DD (default today; never after today)",
        ),
    ] = None,
    note: Annotated[str | None, typer.Option("--note", help="a note kept with it")] = None,
    waive: Annotated[
        list[str] | None,
        typer.Option("--waive", help="CODE=REASON: a finding waived, with its reason"),
    ] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Approve a submitted submission: it needs zero error findings (or each waived);
    it supersedes the approved one of its facility and game from its effective date.

    Exit 0 approved; 1 refused (findings, another approval holds that facility, game and
    effective date, or a date after today); 2 unreadable input."""
    on = _date(date, "--date")
    by = _named(by)
    waived: dict[str, str] = {}
    for w in waive or []:
        code, sep, reason = w.partition("=")
        if not sep or not code.strip() or not reason.strip():
            fail(f"--waive {w!r}: expected CODE=REASON (a finding code and why it is waived)")
        if code.strip() in waived:  # never a reason dropped without a word
            fail(f"--waive {w!r}: {code.strip()} is waived twice; give it one reason")
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
@prints_result("the decision")
def reject(
    submission_id: SubmissionIdArgument,
    by: Annotated[str, typer.Option("--by", help="who rejects it")],
    reason: Annotated[str, typer.Option("--reason", help="why")],
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Reject a submitted submission, with the reason. Exit 0 rejected; 1 refused (it is
    no longer submitted); 2 unreadable input."""
    by = _named(by)
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
@prints_result("the history")
def history(
    facility: Annotated[str | None, typer.Option("--facility", help="one facility")] = None,
    game: Annotated[str | None, typer.Option("--game", help="one game id")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """The timeline of the submissions: statuses, dates and who acted, and the audit log's
    chain head (with --format json, on stderr: the list is the JSON)."""
    with _store_errors(format):
        store = _open(db, must_exist=True)
        rows = store.history(facility, game)
        if game is not None and not rows:
            _known_game(game)
        events = store.events([r.id for r in rows]) if format is Format.text else []
        head = store.audit_head()
    if format is Format.json:
        from validator.store.lifecycle import history_entry

        print_json([history_entry(r) for r in rows])
        sys.stderr.write(f"rulesub: audit log chain head: {head}\n")
        return
    sys.stdout.write(_timeline(rows, events, _filter_words(facility, game)))
    sys.stdout.write(f"\naudit log chain head: {head}\n")


def _known_game(game: str) -> None:
    """A game filter that matched nothing is a game rulesub declares (none filed yet), or
    refused (exit 2) as the typing slip it is: an empty timeline would read as "none filed"."""
    from validator.model.registry import check_game_id

    try:
        check_game_id(game)
    except KeyError as e:
        fail(f"--game: {e.args[0]}")


def _filter_words(facility: str | None, game: str | None) -> str:
    """What the timeline was asked for, said in words: " at Example Downs for High Card
    Flush", or nothing when every submission was asked for."""
    from validator.compiler import game_name

    words = f" at {facility}" if facility is not None else ""
    return words + (f" for {game_name(game)}" if game is not None else "")


def _timeline(rows: list[Any], events: list[Any], asked: str = "") -> str:
    from validator.compiler import game_name
    from validator.store.lifecycle import iso
    from validator.store.words import audit_words

    if not rows:
        return f"no submissions recorded{asked}\n"
    by_id: dict[int, list[Any]] = {}
    for e in events:
        by_id.setdefault(e.submission_id, []).append(e)
    from itertools import groupby

    from validator.store.names import key

    out: list[str] = []
    # one facility under every spelling of its name, as the store finds and supersedes it
    ordered = sorted(rows, key=lambda r: (key(r.facility), r.game, r.effective, r.id))
    for _, group in groupby(ordered, key=lambda r: (key(r.facility), r.game)):
        filings = list(group)
        spellings = list(dict.fromkeys(r.facility for r in filings))
        also = [repr(s) for s in spellings[1:]]
        out += [""] if out else []
        out.append(
            f"{spellings[0]} · {game_name(filings[0].game)} ({filings[0].game})"
            + (f" (also filed as {', '.join(also)})" if also else "")
        )
        for r in filings:
            out.append(
                f"  #{r.id}  effective {iso(r.effective)}  {r.status.upper():<10}  "
                f"{r.filename}  sha256 {r.sha256[:12]}"
            )
            for e in by_id.get(r.id, []):  # in the words the office's audit log reads
                out.append(f"      {iso(e.at)}  {audit_words(e)}")
    return "\n".join(out) + "\n"


@app.command("show")
@prints_result("the filing")
def show(
    submission_id: SubmissionIdArgument,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """The stored submission: its bytes exactly as filed (json: with its record)."""
    with _store_errors(format):
        store = _open(db, must_exist=True)
        row = store.get(submission_id)
        kept = store.waivers_of(submission_id) if format is Format.json else []
    if format is Format.text:
        if hasattr(sys.stdout, "buffer"):  # the bytes as filed, to the terminal or a pipe
            sys.stdout.buffer.write(row.content)
            sys.stdout.buffer.flush()
            return
        # --out: the text the filing's bytes are (every filing recorded was read as UTF-8;
        # the file is written back in UTF-8 byte for byte, line ends and BOM as filed)
        try:
            sys.stdout.write(row.content.decode("utf-8"))
        except UnicodeDecodeError:
            fail(f"submission {submission_id}'s bytes are not UTF-8 text: `show ID > FILE`")
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
@prints_result("what was purged")
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
    out: OutOption = None,
) -> None:
    """Delete rejected and superseded filings that ended before --before; refuses (exit 1)
    a date inside the retention period. Approved and pending filings are never purged."""
    day = _date(before, "--before")
    assert day is not None
    with _store_errors(format):
        ids = _open(db, must_exist=True).purge(day, _who(by), retention_years=retention_years)
    if format is Format.json:
        print_json({"purged": ids})
        return
    sys.stdout.write(
        f"purged {plural(len(ids), 'filing')}"
        f"{': ' if ids else ''}{', '.join(f'#{i}' for i in ids)}\n"
    )


# -- the audit log's chain ---------------------------------------------------------------

audit_app = typer.Typer(help="The audit log and its hash chain.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
@prints_result("the audit log's verification")
def audit_verify(
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
    head_kept: Annotated[
        str | None,
        typer.Option(
            "--head",
            metavar="HEAD",
            help="a chain head written down before, as `history` prints it and every review "
            "pack carries it ('ad1d2dbf… (entry #47, 47 entries)'), or as ENTRY:HASH, e.g. "
            "47:ad1d2dbf (eight hex digits at least): the log must still hold that entry "
            "with that hash",
        ),
    ] = None,
) -> None:
    """Walk the audit log's hash chain from its first entry, and hold each filing and each
    account to it. Exit 0 intact; 1 an entry was edited, deleted or inserted out of order
    (the first broken entry named), or a filing, an account (its role, certificate
    holder, API tokens) or a facility's certificate holder no longer says what the log
    says of it; 2 no database.

    Entries removed from the end, or a log rewritten whole, show only against a chain head
    written down before (`rulesub history` prints it, every review pack carries it):
    give it with --head, and a log that no longer holds it is named (exit 1)."""
    from validator.store.accounts import unmatched_accounts

    kept = _kept_head(head_kept) if head_kept is not None else None
    filings: list[dict[str, Any]] = []
    accounts: list[dict[str, Any]] = []
    owned: list[dict[str, Any]] = []
    differs: str | None = None
    with _store_errors(format):
        store = _open(db, must_exist=True)
        head, broken = store.verify_audit()
        if store.holds_audit_log():  # else nothing is left to hold the rows to
            filings = store.unmatched_filings()
            accounts = unmatched_accounts(store)
            owned = store.unmatched_facilities()
            differs = store.kept_head_differs(*kept) if kept is not None else None
        unguarded = store.append_only_missing()
    if format is Format.json:
        print_json(
            {
                "intact": broken is None
                and differs is None
                and not filings
                and not accounts
                and not owned,
                "head": head.to_json(),
                "broken": None if broken is None else broken.to_json(),
                "append_only_triggers_missing": unguarded,
                "kept_head": None
                if kept is None
                else {"entry": kept[0], "hash": kept[1], "holds": differs is None, "why": differs},
                "filings": filings,
                "accounts": accounts,
                "facilities": owned,
            }
        )
    elif broken is None:
        unmatched = len(filings) + len(accounts) + len(owned)
        if differs is not None:  # a chain that holds by itself, but not the head kept
            sys.stderr.write(
                f"rulesub: the audit log does not hold the head kept: {differs}\n"
                f"  its chain holds by itself, to chain head {head}\n"
            )
        if unmatched:
            sys.stdout.write(
                f"the audit log's chain is intact (chain head {head}), but "
                f"{plural(unmatched, 'record')} in the database "
                f"{'does' if unmatched == 1 else 'do'} not match it (below)\n"
            )
        elif differs is None:
            sys.stdout.write(f"the audit log is intact: chain head {head}\n")
    else:
        held = "no entry" if head.entry is None else f"entries up to #{head.entry}"
        sys.stderr.write(
            f"rulesub: the audit log is broken at entry #{broken.entry}: {broken.reason}\n"
            f"  the chain holds for {held} (head {head.hash})\n"
        )
    if format is Format.text:
        if unguarded:  # the chain still shows an edit: a warning, not a break
            sys.stderr.write(
                "rulesub: warning: the triggers that keep the audit log append-only are gone "
                "or disabled "
                f"({', '.join(unguarded)}): an entry can be edited or deleted without an "
                "error; the chain still shows it here\n"
            )
        for f in filings:
            sys.stderr.write(
                f"rulesub: submission {f['submission']} does not match the audit log: "
                f"{f['reason']}\n"
            )
        for a in accounts:
            sys.stderr.write(
                f"rulesub: account {a['account']!r} does not match the audit log: {a['reason']}\n"
            )
        for f in owned:
            sys.stderr.write(
                f"rulesub: facility {f['facility']} does not match the audit log: {f['reason']}\n"
            )
    if broken is not None or differs is not None or filings or accounts or owned:
        raise typer.Exit(EXIT_FINDINGS)


def _kept_head(given: str) -> tuple[int, str]:
    """``--head``: the chain head as `history` and the review pack print it (``HASH (entry
    #12, 12 entries)``, the hash whole or cut short with "…"), or ``ENTRY:HASH``: the entry
    number and the hash (a prefix of eight hex digits at least), else exit 2 saying what
    was expected."""
    printed = re.fullmatch(
        r"\s*([0-9a-fA-F]{8,64}(?:…[0-9a-fA-F]*)?)\s*\(entry #(\d+)\b.*\)\s*", given
    )
    if printed is not None and printed.group(2).isascii():  # "ad1d2dbf…94ff": both ends held
        return _entry_numbered(given, printed.group(2)), printed.group(1)
    entry, _, digest = given.strip().lstrip("#").partition(":")
    digest = digest.strip().rstrip("…")
    entry = entry.strip()
    if not (entry.isascii() and entry.isdigit() and re.fullmatch(r"[0-9a-fA-F]{8,64}", digest)):
        fail(
            f"--head {given!r}: expected the chain head as `history` and the review pack "
            "print it, e.g. 'ad1d2dbf… (entry #47, 47 entries)', or ENTRY:HASH, the entry "
            "number and its hash (eight hex digits at least), e.g. 47:ad1d2dbf"
        )
    return _entry_numbered(given, entry), digest


#: The most entries an audit log numbers: its ids are 64-bit, on SQLite and on PostgreSQL.
MOST_ENTRIES = 2**63 - 1


def _entry_numbered(given: str, entry: str) -> int:
    """The entry number of ``--head``, one a log can hold (past 2^63 - 1 the databases'
    own errors spoke: a traceback on SQLite, "integer out of range" on PostgreSQL)."""
    number = int(entry)
    if not 1 <= number <= MOST_ENTRIES:
        fail(
            f"--head {given!r}: entry #{number} is no entry of any audit log "
            f"(1 to {MOST_ENTRIES:,})"
        )
    return number


# -- facilities and their certificate holders ------------------------------------------------

facilities_app = typer.Typer(
    help="Which certificate holder each facility belongs to.", no_args_is_help=True
)
app.add_typer(facilities_app, name="facilities")


@facilities_app.command("list")
@prints_result("the facilities")
def facilities_list(
    db: DbOption = None, format: FormatOption = Format.text, out: OutOption = None
) -> None:
    """Each facility with the certificate holder it belongs to: the one a reviewer set, else
    the holder of its approved filings."""
    with _store_errors(format):
        known = _open(db, must_exist=True).facilities()
    if format is Format.json:
        print_json(known)
        return
    if not known:
        sys.stdout.write("no facilities recorded\n")
        return
    for f in known:
        if f["set_by"] is not None:
            how = f"set by {f['set_by']} on {f['set_at'][:10]}"
        elif f["certificate_holder"] is not None:
            how = "by its approved filings"
        elif f["approved_holders"]:
            how = "disputed: approved filings of " + ", ".join(f["approved_holders"])
        else:
            how = "no approved filing yet"
        holder = f["certificate_holder"] or "-"
        sys.stdout.write(f"{f['facility']}: {holder} ({how})\n")


@facilities_app.command("set")
@prints_result("the facility's holder")
def facilities_set(
    facility: Annotated[str, typer.Argument(metavar="FACILITY", help="the facility's name")],
    holder: Annotated[str, typer.Option("--holder", help="the certificate holder it belongs to")],
    by: Annotated[str | None, typer.Option("--by", help="who sets it")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Set which certificate holder a facility belongs to (the audit log keeps it): filings
    of any other holder for it are refused, when recorded and when approved."""
    with _store_errors(format):
        was = _open(db).set_facility(facility, holder, _who(by))
    if format is Format.json:
        print_json({"facility": facility, "certificate_holder": holder, "was": was})
        return
    before = f" (was {was})" if was is not None and was != holder else ""
    sys.stdout.write(f"{facility}: belongs to {holder}{before}\n")


db_app = typer.Typer(help="The database of submissions.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("upgrade")
@prints_result("the upgrade")
def db_upgrade(
    by: Annotated[str | None, typer.Option("--by", help="who upgrades")] = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Migrate the database to this rulesub's schema (creating it if empty)."""
    with _store_errors(format):
        store = _open(db)
        before, after = store.upgrade(_who(by))
    if format is Format.json:
        print_json({"database": store.name, "from": before, "to": after})
        return
    if before == after:
        sys.stdout.write(f"{store.name}: the schema is current ({after})\n")
    else:
        sys.stdout.write(f"{store.name}: schema {before or 'none'} → {after}\n")


# -- the approved counterpart of a file ------------------------------------------------------


@contextmanager
def approved_file(file: Path, db: str | None) -> Iterator[tuple[Path | None, str, Any]]:
    """The approved submission ``file`` is compared with, as a temporary file: ``(path,
    label, row)``. For a file the database records (these very bytes), the one its record
    is compared with, as the web view's pack compares it (``Store.counterpart``: for an
    approved filing, the approval it superseded, never itself); where there is none,
    ``(None, why, None)``. For a file not recorded, the approval of its facility and game
    in force on its effective date: exit 2 where there is none, exit 1 where the facility
    is another certificate holder's (whose filings it is never shown)."""
    from validator.checks.engine import display_name
    from validator.compiler import game_name
    from validator.review.build import not_compared
    from validator.store.evidence import filing_key
    from validator.store.lifecycle import FACILITY_OF_ANOTHER_HOLDER, check_file
    from validator.store.names import approved_label

    with _store_errors():
        _, data = check_file(file, display_name(file))
        facility, game, effective = filing_key(data, str(file))
        store = _open(db, must_exist=True)
        record = _record_of(file, db)  # these very bytes, recorded
        holder = data.get("certificate_holder")
        theirs = record is None and not store.holds_facility(facility, holder)
        row = (
            None
            if theirs
            else store.approved_for(facility, game, on=effective)
            if record is None
            else store.counterpart(record)
        )
    if theirs:
        fail(
            f"{file}: facility {facility!r} belongs to another certificate holder: a filing "
            f"of {holder!r} for it is compared with none of that holder's filings "
            f"({FACILITY_OF_ANOTHER_HOLDER}); nothing was written",
            EXIT_FINDINGS,
        )
    if row is None and record is not None:
        yield None, not_compared(record), None
        return
    if row is None:
        fail(
            f"no approved submission of {facility}, {game_name(game)} in force on {effective} "
            "in the database to compare with"
        )
    suffix = Path(row.filename).suffix or ".yaml"
    with tempfile.TemporaryDirectory(prefix="rulesub-") as tmp:
        path = Path(tmp) / f"approved-{row.id}{suffix}"
        path.write_bytes(row.content)
        yield path, approved_label(row), row


# -- the review pack --------------------------------------------------------------------


class ReviewFormat(StrEnum):
    html = "html"
    markdown = "markdown"
    pdf = "pdf"
    json = "json"


@app.command("review")
def review(
    file: Annotated[
        Path, typer.Argument(help="the proposed Rules Submission", metavar="FILE", readable=False)
    ],
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
        fail(not_a_file(file))
    ready_to_write(out)  # before any work: never a sheet made, then "cannot write"
    format = out_format(out, format)
    if format is ReviewFormat.pdf and out is None:
        fail("--format pdf needs --out FILE")
    with _against(file, against, db) as (old_path, old_label, old_row), readable_input():
        from validator.checks.engine import display_name

        record = _record_of(file, db)
        pack = build_pack(
            file,
            display_name(file),
            old_path,
            old_label if old_path is not None else None,
            record=record,
            approved=old_row,
            par_workers=None,  # the par sheet's exact count on every core
        )
        if old_path is None and old_label:  # a recorded filing with no approval before it
            pack.not_compared = old_label
    if record is not None:  # a decided filing's pack carries the approval's waivers
        kept = _open(db, must_exist=True).waivers_of(record.id)
        pack.waived = [(w.code, w.reason) for w in kept]
    if pack.unreadable:
        for line in pack.unreadable:
            sys.stderr.write(f"rulesub: {line}\n")
        raise typer.Exit(EXIT_USAGE)
    if pack.against_unusable and against != "approved":  # the OLD_FILE the user gave
        fail(f"--against {against}: {pack.diff_problem}; no pack is written")
    if pack.game is None:  # names no game rulesub has: input no command can use
        from validator.signage.checked import describe

        for finding in pack.findings:
            if finding.severity == "error":
                sys.stderr.write(f"rulesub: {describe(finding)}\n")
        fail(f"{file}: it names no game to review it against, so no pack is written")
    pack.office = office or _office_setting()
    if record is not None:
        pack = pack.headed(_audit_head(db))
    if format is ReviewFormat.pdf:
        from validator.cli.options import not_given
        from validator.review.html import paged_review
        from validator.review.pdf import PdfError, print_pdf

        not_given(out)
        try:
            print_pdf(paged_review(pack), out)  # type: ignore[arg-type]
        except PdfError as e:
            fail(str(e))
        sys.stderr.write(f"rulesub: wrote the review pack to {out}\n")
        raise typer.Exit(_exit_code(pack))
    if format is ReviewFormat.json:
        from validator.review.build import pack_json

        text = jsonout.dumps(pack_json(pack), indent=2) + "\n"
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


def _audit_head(db: str | None) -> Any:
    """The head of the store's audit chain (a ``Head``); None where it cannot be read."""
    from validator.store import StoreError

    try:
        return _open(db, must_exist=True).audit_head()
    except StoreError:
        return None


def _record_of(file: Path, db: str | None) -> Any:
    """The record of exactly these bytes, where the database holds it."""
    import hashlib

    from validator.loader import read_bytes
    from validator.store import StoreError

    content = read_bytes(file)  # the loader's one reader: a file it may not read is said so
    try:
        return _open(db, must_exist=True).find_sha(hashlib.sha256(content).hexdigest())
    except StoreError:  # no database, or none of this rulesub: the pack says "not recorded"
        return None
