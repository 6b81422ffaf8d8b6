"""The web view's accounts, their roles and API tokens, in the store's database.

Three roles:

- ``reviewer``: the regulator's reviewer; reads everything, approves or rejects;
- ``viewer``: reads everything, decides nothing;
- ``casino``: a certificate holder's compliance staff, bound to that one holder: it files
  and reads only the submissions that name it as ``certificate_holder``.

Passwords are kept as argon2id hashes (argon2-cffi), never as text; an API token is shown
once when issued and kept as its sha256. Adding, removing an account, changing its
password, issuing and revoking tokens are written to the audit log (without the secret).

A web session is kept here too (``sessions``): its cookie carries a random session key, the
store only that key's sha256. Signing out deletes the row; a password change deletes every
session of the account and revokes its API tokens; removing the account deletes both. A
cookie copied before any of these is refused afterwards, whatever its signature.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import exc as sa_exc

from validator.counts import plural
from validator.store import names
from validator.store.database import StoreError
from validator.store.lifecycle import Store, _audit, may_decide, utcnow
from validator.store.schema import Code, Words, metadata

ROLES = ("reviewer", "viewer", "casino")
MIN_PASSWORD = 8
MAX_NAME = 64

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", Words, nullable=False, unique=True),
    Column("role", Code(16), nullable=False),
    Column("certificate_holder", Words),
    Column("password_hash", Words, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("role IN ('reviewer', 'viewer', 'casino')", name="known_role"),
    CheckConstraint(
        "(role = 'casino') = (certificate_holder IS NOT NULL)", name="casino_has_holder"
    ),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("token_sha256", Code(64), nullable=False, unique=True),
    Column("label", Words, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


sessions = Table(
    "sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("session_sha256", Code(64), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

#: A session ends this long after signing in, whatever happens meanwhile.
SESSION_HOURS = 12


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    role: str
    certificate_holder: str | None
    password_hash: str

    @property
    def can_decide(self) -> bool:
        """Approve or reject a submission."""
        return self.role == "reviewer"

    @property
    def can_file(self) -> bool:
        """Upload (record) a submission: a casino account, for its own certificate holder.
        A reviewer decides filings and files none (separation of duties: the roles of
        ``docs/security.md``); the office's officer records at the command line."""
        return self.role == "casino"

    def decides(self, recorded_by: str | None) -> bool:
        """Whether this account may approve or reject a filing recorded by ``recorded_by``:
        a reviewer, and never on a filing recorded under its own name (the store's one
        rule, ``lifecycle.may_decide``, which ``Store.approve`` and ``reject`` hold too)."""
        return self.can_decide and may_decide(recorded_by, self.name)

    def sees(self, certificate_holder: str | None) -> bool:
        """Whether a submission naming ``certificate_holder`` is this account's to read."""
        if self.role != "casino":
            return True
        return certificate_holder is not None and certificate_holder == self.certificate_holder


def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise StoreError(f"a password has at least {MIN_PASSWORD} characters")
    return str(_hasher().hash(password))


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.role, row.certificate_holder, row.password_hash)


def _check_name(name: str) -> str:
    if not name or len(name) > MAX_NAME or any(c.isspace() or not c.isprintable() for c in name):
        raise StoreError(f"account name {name!r}: 1 to {MAX_NAME} printable characters, no spaces")
    return name


def add(
    store: Store,
    name: str,
    role: str,
    password: str,
    *,
    holder: str | None = None,
    by: str,
    now: dt.datetime | None = None,
) -> Account:
    """A new account; a ``casino`` account names its certificate holder, no other does. Its
    name is one a person tells apart from every other account's: the audit log names
    people by name, so "REV" beside "rev", or "rеv" with a Cyrillic "е", would read as one
    person filing and approving."""
    _check_name(name)
    why = names.out_of_place(name)
    if why is not None:
        raise StoreError(f"account name {name!r}: {why}")
    if role not in ROLES:
        raise StoreError(f"--role {role}: one of {', '.join(ROLES)}")
    if role == "casino" and not holder:
        raise StoreError("a casino account is bound to one certificate holder: give --holder")
    if role != "casino" and holder:
        raise StoreError(f"--holder is for casino accounts; a {role} reads every holder's")
    why = names.out_of_place(holder) if holder else None
    if why is not None:  # as a filing's holder is refused: the account could file nothing
        raise StoreError(f"--holder {holder!r}: {why}")
    digest = hash_password(password)
    now = now or utcnow()
    try:
        with store.transaction() as conn:
            alike = [
                n for n in conn.execute(select(accounts.c.name)).scalars() if names.same(n, name)
            ]
            if alike:
                raise StoreError(
                    f"there is already an account {alike[0]!r}: {name!r} is the same name as "
                    "a person reads it (the audit log names people by name)"
                )
            inserted = conn.execute(
                insert(accounts).values(
                    name=name,
                    role=role,
                    certificate_holder=holder,
                    password_hash=digest,
                    created_at=now,
                )
            ).inserted_primary_key
            assert inserted is not None
            new_id = inserted[0]
            _audit(
                conn,
                by,
                "account-add",
                None,
                {"account": name, "role": role, "certificate_holder": holder},
                now,
            )
    except sa_exc.IntegrityError:
        raise StoreError(f"there is already an account {name!r}") from None
    return Account(new_id, name, role, holder, digest)


def remove(store: Store, name: str, *, by: str) -> None:
    with store.transaction() as conn:
        row = _row(conn, name)
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
        conn.execute(delete(api_tokens).where(api_tokens.c.account_id == row.id))
        conn.execute(delete(accounts).where(accounts.c.id == row.id))
        _audit(conn, by, "account-remove", None, {"account": name})


def set_password(store: Store, name: str, password: str, *, by: str) -> None:
    """A new password: every session of the account ends and its API tokens are revoked,
    in the same transaction."""
    digest = hash_password(password)
    with store.transaction() as conn:
        row = _row(conn, name)
        conn.execute(update(accounts).where(accounts.c.id == row.id).values(password_hash=digest))
        ended = conn.execute(delete(sessions).where(sessions.c.account_id == row.id)).rowcount
        revoked = conn.execute(delete(api_tokens).where(api_tokens.c.account_id == row.id)).rowcount
        _audit(
            conn,
            by,
            "account-password",
            None,
            {"account": name, "sessions_ended": ended, "tokens_revoked": revoked},
        )


def _row(conn: Any, name: str) -> Any:
    row = conn.execute(select(accounts).where(accounts.c.name == name)).first()
    if row is None:
        raise StoreError(f"no account {name!r}")
    return row


def all_accounts(store: Store) -> list[Account]:
    with store.transaction() as conn:
        return [_account(r) for r in conn.execute(select(accounts).order_by(accounts.c.name))]


def by_id(store: Store, account_id: int) -> Account | None:
    with store.transaction() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else _account(row)


#: Verified when the name is unknown, so that a wrong name costs what a wrong password does.
_DUMMY: list[str] = []


def authenticate(store: Store, name: str, password: str) -> Account | None:
    """The account whose name and password these are, else ``None``."""
    from argon2.exceptions import InvalidHashError, VerificationError

    with store.transaction() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name == name)).first()
    hasher = _hasher()
    if row is None:
        if not _DUMMY:
            _DUMMY.append(hasher.hash(secrets.token_hex(16)))
        with contextlib.suppress(VerificationError, InvalidHashError):
            hasher.verify(_DUMMY[0], password)
        return None
    try:
        hasher.verify(row.password_hash, password)
    except (VerificationError, InvalidHashError):
        return None
    return _account(row)


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(store: Store, name: str, *, label: str = "api", by: str) -> str:
    """A new API token for ``name``: returned once, kept as its sha256."""
    token = "rst_" + secrets.token_urlsafe(32)
    with store.transaction() as conn:
        row = _row(conn, name)
        conn.execute(
            insert(api_tokens).values(
                account_id=row.id,
                token_sha256=_token_digest(token),
                label=label,
                created_at=utcnow(),
            )
        )
        _audit(conn, by, "account-token", None, {"account": name, "label": label})
    return token


def revoke_tokens(store: Store, name: str, *, label: str | None = None, by: str) -> int:
    """Revoke the account's API tokens (only those of ``label`` when given): how many."""
    with store.transaction() as conn:
        row = _row(conn, name)
        which = api_tokens.c.account_id == row.id
        if label is not None:
            which = which & (api_tokens.c.label == label)
        revoked = int(conn.execute(delete(api_tokens).where(which)).rowcount)
        _audit(
            conn,
            by,
            "account-token-revoke",
            None,
            {"account": name, "label": label, "revoked": revoked},
        )
    return revoked


def begin_session(store: Store, account: Account, *, now: dt.datetime | None = None) -> str:
    """A new session for ``account``: its key, for the cookie (the store keeps its sha256).
    Sessions past their end are swept out on the way."""
    key = secrets.token_urlsafe(32)
    now = now or utcnow()
    with store.transaction() as conn:
        conn.execute(delete(sessions).where(sessions.c.expires_at <= now))
        conn.execute(
            insert(sessions).values(
                account_id=account.id,
                session_sha256=_token_digest(key),
                created_at=now,
                expires_at=now + dt.timedelta(hours=SESSION_HOURS),
            )
        )
    return key


#: Who is asking, read on every request of the web view: the statements are made once
#: (building one again for each request costs more than running it).
BY_SESSION = (
    select(accounts)
    .join(sessions, sessions.c.account_id == accounts.c.id)
    .where(sessions.c.session_sha256 == bindparam("digest"))
    .where(sessions.c.expires_at > bindparam("now", type_=sessions.c.expires_at.type))
)
BY_TOKEN = (
    select(accounts)
    .join(api_tokens, api_tokens.c.account_id == accounts.c.id)
    .where(api_tokens.c.token_sha256 == bindparam("digest"))
)


def by_session(store: Store, key: str, *, now: dt.datetime | None = None) -> Account | None:
    """The account of a session that has not ended, else ``None``."""
    now = now or utcnow()
    with store.transaction(reading=True) as conn:
        row = conn.execute(BY_SESSION, {"digest": _token_digest(key), "now": now}).first()
    return None if row is None else _account(row)


def end_session(store: Store, key: str) -> None:
    """Sign out: the session's row goes, so a copy of its cookie opens nothing."""
    with store.transaction() as conn:
        conn.execute(delete(sessions).where(sessions.c.session_sha256 == _token_digest(key)))


def by_token(store: Store, token: str) -> Account | None:
    with store.transaction(reading=True) as conn:
        row = conn.execute(BY_TOKEN, {"digest": _token_digest(token)}).first()
    return None if row is None else _account(row)


# -- held to the audit log -------------------------------------------------------------------


#: The audit log's actions on accounts.
ACCOUNT_ACTIONS = (
    "account-add",
    "account-remove",
    "account-password",
    "account-token",
    "account-token-revoke",
)


@dataclass
class _Said:
    """What the audit log says of one account: its role and holder as added, and how many
    API tokens of each label it holds (issued since each was last revoked)."""

    role: object
    holder: object
    tokens: dict[str, int]


def as_logged(conn: Any) -> dict[str, _Said]:
    """The accounts the audit log has added and not removed, as it says of them. Roles never
    change after an account is added; tokens go by a revocation, a password change or the
    account's removal."""
    from validator.store.evidence import entries
    from validator.store.schema import audit_log

    said: dict[str, _Said] = {}
    for e in entries(conn, audit_log.c.action.in_(ACCOUNT_ACTIONS)):  # read by the index
        if e.unreadable is not None:
            continue  # the chain's walk names it
        name, d = e.data.get("account"), e.data
        if not isinstance(name, str):
            continue
        if e.action == "account-add":
            said[name] = _Said(d.get("role"), d.get("certificate_holder"), {})
        elif e.action == "account-remove":
            said.pop(name, None)
        elif name not in said:
            continue
        elif e.action == "account-token":
            tokens = said[name].tokens
            tokens[str(d.get("label"))] = tokens.get(str(d.get("label")), 0) + 1
        elif (e.action == "account-password" and "tokens_revoked" in d) or (
            e.action == "account-token-revoke" and d.get("label") is None
        ):  # a password change revokes the tokens since it says how many it did
            said[name].tokens.clear()
        elif e.action == "account-token-revoke":
            said[name].tokens.pop(str(d.get("label")), None)
    return said


def unmatched_accounts(store: Store) -> list[dict[str, str]]:
    """The accounts that do not say what the audit log says of them (``rulesub audit
    verify``): one the log never added, or removed; one whose role or certificate holder is
    not the one it was added with (a viewer made reviewer in the database); one holding an
    API token the log never issued (``_unlike``); and one the log added and never removed
    whose row is gone. Only as trustworthy as the chain: ``verify_audit`` first."""
    with store.transaction(reading=True) as conn:
        said = as_logged(conn)
        rows = conn.execute(select(accounts)).all()
        held: dict[int, dict[str, int]] = {}
        for t in conn.execute(select(api_tokens.c.account_id, api_tokens.c.label)):
            labels = held.setdefault(t.account_id, {})
            labels[t.label] = labels.get(t.label, 0) + 1
    out = []
    for r in rows:
        wrong = _unlike(_account(r), said.pop(r.name, None), held.get(r.id, {}))
        if wrong:
            out.append({"account": r.name, "reason": wrong})
    out += [
        {"account": name, "reason": "the audit log added it and never removed it; it is gone"}
        for name in said
    ]
    return sorted(out, key=lambda a: a["account"])


def _unlike(account: Account, s: _Said | None, held: dict[str, int]) -> str | None:
    """How ``account``, holding ``held`` API tokens by label, is not what the audit log
    (``s``, its entries read by ``as_logged``) made it; None where it is."""
    if s is None:
        return "the audit log never added it"
    wrong = [
        f"its {what} is {_shown(now)}; the audit log added it as {_shown(then)}"
        for what, now, then in (
            ("role", account.role, s.role),
            ("certificate holder", account.certificate_holder, s.holder),
        )
        if now != then
    ]
    wrong += [
        f"it holds {plural(n, 'API token')} labelled {label!r}; the audit log issued "
        f"{s.tokens.get(label, 0)} still unrevoked"
        for label, n in sorted(held.items())
        if n > s.tokens.get(label, 0)
    ]
    return "; ".join(wrong) or None


def _shown(value: object) -> str:
    return "none" if value is None else repr(value) if not isinstance(value, str) else value


def not_as_logged(
    conn: Any, account: Account, said: dict[str, _Said], token: str | None = None
) -> str | None:
    """Why ``account`` (signed in with ``token``, an API token, if given) is not as the
    audit log (``said``, read by ``as_logged``) made it, else None: the web view refuses
    it, by the rule ``audit verify`` names it by (``_unlike``), its tokens of the label
    signed in with counted."""
    held: dict[str, int] = {}
    if token is not None:
        t = api_tokens.c
        label = conn.execute(
            select(t.label).where(t.token_sha256 == _token_digest(token))
        ).scalar_one_or_none()
        if label is not None:
            held[label] = conn.execute(
                select(func.count()).where(t.account_id == account.id, t.label == label)
            ).scalar_one()
    return _unlike(account, said.get(account.name), held)
