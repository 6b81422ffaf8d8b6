"""``rulesub users``: the web view's accounts (add, remove, passwd, token, list).

Exit codes: 0 done, 2 input or a database that cannot be used (an unknown account, a
name taken, a casino account without its certificate holder).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from validator.cli import app
from validator.cli.common import Format, fail, print_json
from validator.cli.options import DbOption, FormatOption, OutOption, prints_result
from validator.cli.store import _open, _store_errors, _user
from validator.counts import plural

users_app = typer.Typer(
    help="Accounts of the web view (`rulesub serve`): reviewer, viewer, casino.",
    no_args_is_help=True,
)
app.add_typer(users_app, name="users")


class Role(StrEnum):
    reviewer = "reviewer"
    viewer = "viewer"
    casino = "casino"


PasswordOption = Annotated[
    str | None,
    typer.Option("--password", help="the password (without it, rulesub asks, twice)"),
]


def _ask_password() -> str:
    import getpass

    if not sys.stdin.isatty():
        line = sys.stdin.readline().rstrip("\n")
        if not line:
            fail("no password given: use --password or type it on standard input")
        return line
    first = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != first:
        fail("the two passwords differ; nothing was changed")
    return first


@users_app.command("add")
@prints_result("the account")
def add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the account's login name")],
    role: Annotated[Role, typer.Option("--role", help="reviewer, viewer or casino")],
    holder: Annotated[
        str | None,
        typer.Option(
            "--holder",
            metavar="CERTIFICATE_HOLDER",
            help="a casino account's certificate holder, as its submissions name it",
        ),
    ] = None,
    password: PasswordOption = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Add an account. A casino account reads and files only its certificate holder's
    submissions."""
    from validator.store import accounts

    secret = password if password is not None else _ask_password()
    with _store_errors(format):
        account = accounts.add(_open(db), name, role.value, secret, holder=holder, by=_user())
    if format is Format.json:
        print_json(
            {
                "name": account.name,
                "role": account.role,
                "certificate_holder": account.certificate_holder,
            }
        )
        return
    bound = f" for {account.certificate_holder}" if account.certificate_holder else ""
    sys.stdout.write(f"account {account.name}: {account.role}{bound}\n")


@users_app.command("remove")
@prints_result("the account removed")
def remove(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Remove an account and its API tokens (the audit log keeps what it did)."""
    from validator.store import accounts

    with _store_errors(format):
        accounts.remove(_open(db, must_exist=True), name, by=_user())
    if format is Format.json:
        print_json({"name": name, "removed": True})
        return
    sys.stdout.write(f"account {name}: removed\n")


@users_app.command("passwd")
@prints_result("the password change")
def passwd(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    password: PasswordOption = None,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Set an account's password; its open sessions end and its API tokens are revoked."""
    from validator.store import accounts

    secret = password if password is not None else _ask_password()
    with _store_errors(format):
        accounts.set_password(_open(db, must_exist=True), name, secret, by=_user())
    if format is Format.json:
        print_json({"name": name, "password_changed": True})
        return
    sys.stdout.write(f"account {name}: password changed\n")


@users_app.command("token")
@prints_result("the API token", private=True)  # a secret: the owner's file alone
def token(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    label: Annotated[
        str | None,
        typer.Option(
            "--label", help="what the token is for (with --revoke: only the tokens of this label)"
        ),
    ] = None,
    revoke: Annotated[
        bool,
        typer.Option("--revoke", help="revoke the account's API tokens instead of issuing one"),
    ] = False,
    db: DbOption = None,
    format: FormatOption = Format.text,
    out: OutOption = None,
) -> None:
    """Issue an API token for the account (`Authorization: Bearer TOKEN`); it is printed
    once (or written with --out, readable by its owner alone) and kept only as its hash.
    With --revoke, the account's tokens stop working (a password change revokes them
    too)."""
    from validator.store import accounts

    if revoke:
        with _store_errors(format):
            count = accounts.revoke_tokens(
                _open(db, must_exist=True), name, label=label, by=_user()
            )
        if format is Format.json:
            print_json({"name": name, "label": label, "revoked": count})
            return
        which = f" labelled {label}" if label is not None else ""
        sys.stdout.write(f"account {name}: {plural(count, 'API token')}{which} revoked\n")
        return
    with _store_errors(format):
        secret = accounts.issue_token(
            _open(db, must_exist=True), name, label=label or "api", by=_user()
        )
    if format is Format.json:
        print_json({"name": name, "label": label or "api", "token": secret})
        return
    sys.stdout.write(secret + "\n")


@users_app.command("list")
@prints_result("the accounts")
def list_(db: DbOption = None, format: FormatOption = Format.text, out: OutOption = None) -> None:
    """The accounts, their roles and certificate holders."""
    from validator.store import accounts

    with _store_errors(format):
        found = accounts.all_accounts(_open(db, must_exist=True))
    if format is Format.json:
        print_json(
            [
                {"name": a.name, "role": a.role, "certificate_holder": a.certificate_holder}
                for a in found
            ]
        )
        return
    if not found:  # said, not left blank: an empty list reads as a command that failed
        sys.stderr.write(
            "rulesub: no accounts yet; `rulesub users add NAME --role ROLE` adds one\n"
        )
    for a in found:
        sys.stdout.write(f"{a.name}\t{a.role}\t{a.certificate_holder or ''}\n")
