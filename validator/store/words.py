"""An audit entry in words, the one place it becomes a sentence: the office's `/audit` page,
its CSV and JSON exports, and `rulesub history` say the same. Each action the store writes
(``schema.ACTIONS``, each with its name in words for the page's filter, ``action_name``)
says who did what to which filing, account or facility; counts are said by ``plural``.
"""

from __future__ import annotations

import json
from typing import Any

from validator.counts import plural
from validator.store.names import file_name


def action_name(action: str) -> str:
    """An action as the audit page's filter offers it: ``API tokens revoked``."""
    from validator.store.schema import ACTIONS

    return ACTIONS.get(action, action)


def game_name(game: str) -> str:
    """The game's name as its chapter writes it (loaded on first use: ``record`` says its
    words without the compiler)."""
    from validator.compiler import game_name as named

    return named(game)


def _filing(sid: int | None, facts: Any) -> str:
    if sid is None:
        return ""
    if facts is None:
        return f"#{sid}"
    return f"#{sid} ({facts.facility} · {game_name(facts.game)}, effective {facts.effective})"


def audit_words(event: Any, facts: Any = None) -> str:
    """An audit entry as a sentence: ``rev approved #12 (…), effective 2027-01-01, with 1
    waiver: CODE: reason``. ``facts``: the filing's facility, game and effective date."""
    try:
        d = json.loads(event.detail) if isinstance(event.detail, str) else dict(event.detail)
    except ValueError:
        d = {}
    who, sid, what = event.actor, event.submission_id, event.action
    filing = _filing(sid, facts)
    if what == "record":
        f = d.get("findings") or {}
        found = ", ".join(
            plural(int(f.get(k, 0)), w) for k, w in (("errors", "error"), ("warnings", "warning"))
        )
        name = file_name(str(d.get("file") or ""))
        return f"{who} filed {filing}" + (f" as {name}" if name else "") + f": {found}"
    if what == "approve":
        waived = d.get("waived") or []
        out = f"{who} approved {filing}"
        if d.get("approved_on"):
            out += f" on {d['approved_on']}"
        if waived:
            out += f", with {plural(len(waived), 'waiver')}: " + "; ".join(
                f"{w.get('code')}: {w.get('reason')}" for w in waived
            )
        if d.get("note"):
            out += f" (note: {d['note']})"
        return out
    if what == "reject":
        return f"{who} rejected {filing}: {d.get('reason', '')}"
    if what == "withdraw":
        return f"{who} withdrew {filing}"
    if what == "supersede":
        by_new = f"#{d.get('superseded_by')} from {d.get('from')}"
        return f"{filing} was superseded by {by_new} ({who}'s approval)"
    if what == "replace":
        return f"{filing} was replaced by #{d.get('replaced_by')} ({who}'s approval)"
    if what == "purge":
        return (
            f"{who} purged #{sid} ({d.get('facility')} · {game_name(str(d.get('game')))}, "
            f"{d.get('status')}, ended {str(d.get('ended_at', ''))[:10]}) after the "
            f"{d.get('retention_years')}-year retention period"
        )
    if what == "upgrade":
        before = d.get("from") or "nothing"
        return f"{who} upgraded the database's schema from {before} to {d.get('to')}"
    if what == "account-add":
        holder = d.get("certificate_holder")
        return f"{who} added the {d.get('role')} account {d.get('account')}" + (
            f" for {holder}" if holder else ""
        )
    if what == "account-remove":
        return f"{who} removed the account {d.get('account')}"
    if what == "account-password":
        ended = [
            plural(int(d[k]), w)
            for k, w in (("sessions_ended", "session"), ("tokens_revoked", "API token"))
            if isinstance(d.get(k), int)
        ]
        return f"{who} set a new password for the account {d.get('account')}" + (
            f": {ended[0]} ended, {ended[1]} revoked" if len(ended) == 2 else ""
        )
    if what == "account-token":
        label = d.get("label")
        return f"{who} issued an API token to {d.get('account')}" + (f" ({label})" if label else "")
    if what == "account-token-revoke":
        return _revoked(who, d)
    if what == "facility-holder":
        return _facility_set(who, d)
    return f"{who}: {what.replace('-', ' ')}" + (f" {filing}" if filing else "")


def _revoked(who: str, d: dict[str, Any]) -> str:
    """``root revoked 1 API token (labelled ci) of the account eddie``."""
    label, count = d.get("label"), d.get("revoked")
    tokens = plural(count, "API token") if isinstance(count, int) else "the API tokens"
    which = f" (labelled {label})" if label else " (every one it held)" if label is None else ""
    return f"{who} revoked {tokens}{which} of the account {d.get('account')}"


def _facility_set(who: str, d: dict[str, Any]) -> str:
    """``rev set the certificate holder of Example Downs to H, in place of G``."""
    holder, was = d.get("certificate_holder"), d.get("was")
    out = f"{who} set the certificate holder of {d.get('facility')} to {holder}"
    if was == holder:
        return out + ", as it was"
    return out + (f", in place of {was}" if was else ", none set before")


#: a filing's status after which it is no longer pending or in force
ENDED = ("withdrawn", "rejected", "superseded", "replaced")


def recorded_again(status: str) -> str:
    """What recording bytes recorded before says (a filing's bytes are recorded once, as
    one filing): the same record; where that filing has ended, that nothing was filed and
    how to file the same rules again."""
    if status in ENDED:
        return (
            f"these bytes were recorded before, as this filing, now {status}: nothing new was "
            "recorded; to file the same rules again, change the file (a comment will do)"
        )
    return "these bytes were recorded before: the same record"
