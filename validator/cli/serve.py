"""``rulesub serve``: the office's web view of the store, served by uvicorn."""

from __future__ import annotations

import logging
import os
import sys
from typing import Annotated

import typer

from validator.cli import app
from validator.cli.common import fail, refuse
from validator.cli.store import DbOption
from validator.counts import plural

#: the addresses of this machine alone, and those of every interface
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::")


@app.command("serve")
def serve(
    db: DbOption = None,
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="HOST", help="the address to listen on (this machine only by default)"
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", help="the port to listen on")
    ] = 8000,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies",
            help="mark the session cookie Secure (behind a proxy that speaks HTTPS)",
        ),
    ] = False,
    proxy_headers: Annotated[
        bool,
        typer.Option(
            "--proxy-headers",
            help="take the client's address and scheme from X-Forwarded-For and "
            "X-Forwarded-Proto, from the proxies --forwarded-allow-ips names only",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="the proxies trusted with --proxy-headers, comma-separated addresses or "
            "networks (this machine's unless given)",
        ),
    ] = None,
    allowed_hosts: Annotated[
        str | None,
        typer.Option(
            "--allowed-hosts",
            metavar="NAMES",
            help="the host names (or addresses) the server answers to, comma-separated, "
            "'*.example.org' for its subdomains, '*' for any (by default this machine's "
            "names when listening on it, the --host address otherwise, any on 0.0.0.0 or ::)",
        ),
    ] = None,
) -> None:
    """The web view: facilities and games, submissions with their findings at their lines,
    diffs with hold deltas, signs, odds, review packs; approvals by reviewers; a JSON API.
    Accounts: `rulesub users add`. Sessions are signed with RULESUB_SECRET_KEY (else a key
    made at start). The sign-in throttle counts attempts by the connection's address:
    X-Forwarded-For is ignored unless --proxy-headers names a trusted proxy. A request
    naming a host it does not answer to (DNS rebinding) is refused with 400."""
    import uvicorn

    from validator.store import StoreError, accounts
    from validator.web import create_app
    from validator.web.app import ENV_SECRET

    if not 0 < port < 65536:
        fail(f"--port {port}: a port is 1 to 65535")
    if forwarded_allow_ips is not None and not proxy_headers:
        fail("--forwarded-allow-ips names the proxies --proxy-headers trusts: give both")
    given_key = os.environ.get(ENV_SECRET)
    if given_key and len(given_key) < MIN_SECRET:  # a short key is a guessable signature
        fail(
            f"{ENV_SECRET} is {plural(len(given_key), 'character')}: a session key is at least "
            f"{MIN_SECRET} random characters (python3 -c 'import secrets; "
            "print(secrets.token_urlsafe(48))' makes one)"
        )
    hosts = _answered_hosts(host, allowed_hosts)
    _an_office_there(db)
    try:
        web = create_app(db, secure_cookies=secure_cookies, allowed_hosts=hosts)
    except StoreError as e:
        refuse(e)
    store = web.state.web.store
    if not accounts.all_accounts(store):
        sys.stderr.write(
            f"rulesub: {store.name} has no accounts: no one can sign in; add one with "
            "`rulesub users add NAME --role reviewer`\n"
        )
    sys.stderr.write(f"rulesub: serving {store.name} on http://{_bracketed(host)}:{port}/\n")
    if not os.environ.get(ENV_SECRET):
        sys.stderr.write(
            f"rulesub: {ENV_SECRET} is not set: sessions are signed with a key made now and "
            "end when the server stops\n"
        )
    if host not in LOOPBACK:
        sys.stderr.write(
            f"rulesub: listening on {host}: put it behind a proxy that speaks HTTPS; "
            "passwords and session cookies cross the network as sent\n"
        )
    if hosts == ["*"]:
        sys.stderr.write(
            "rulesub: answering to any host name: name the server's with --allowed-hosts\n"
        )
    _log_to_stderr()
    try:
        uvicorn.run(
            web,
            host=host,
            port=port,
            log_level="info",
            server_header=False,
            proxy_headers=proxy_headers,
            forwarded_allow_ips=(forwarded_allow_ips or "127.0.0.1,::1") if proxy_headers else None,
        )
    except SystemExit as e:  # uvicorn's "could not start" (its error said above): usage, 2
        if e.code in (0, None):
            raise
        fail(
            f"--host {host} --port {port}: the server could not start (the error above says "
            "why; a port in use, or one not this user's to open, is the usual cause: choose "
            "another with --port)"
        )


def _an_office_there(db: str | None) -> None:
    """A server opens the office's store and makes none: a mistyped --db served a new,
    empty database (a file made, or an empty one given its tables), on which every sign-in
    failed as a wrong password."""
    from validator.store import StoreError, migrate
    from validator.store.database import (
        describe,
        make_engine,
        resolve_url,
        sqlite_file,
        translated,
    )

    try:
        url = resolve_url(db)
        file = sqlite_file(url)
        held = file is None or file.exists()  # a file not there: opening it would make it
        if held:  # the migrations' own reading of a database: empty, or rulesub's
            engine = make_engine(url)
            try:
                with translated(url), engine.connect() as conn:
                    held = migrate.state(conn, url) != "empty"
            finally:
                engine.dispose()
    except StoreError as e:
        refuse(e)
    if not held:
        there = "no database" if file is not None and not file.exists() else "no store of rulesub's"
        fail(
            f"--db {describe(url)}: {there} there; a server opens the office's store and makes "
            f"none: make it with `rulesub db upgrade --db {describe(url)}`, and its accounts "
            "with `rulesub users add`"
        )


#: The fewest characters a session key given in the environment may have: the cookies'
#: signatures are only as hard to forge as the key is to guess.
MIN_SECRET = 32


def _answered_hosts(host: str, given: str | None) -> list[str]:
    """The names a request's ``Host:`` may carry: those given, else this machine's own
    when listening on it alone (a browser's page from elsewhere, its name pointed at
    127.0.0.1, is refused), else the address listened on and this machine's, else (every
    address: the names it is reached by are not known here) any."""
    if given is not None:
        names = [n.strip() for n in given.split(",") if n.strip()]
        for name in names:
            if "*" in name[1:] or (name.startswith("*") and name != "*" and name[:2] != "*."):
                fail(f"--allowed-hosts {name!r}: a wildcard is '*' or '*.example.org'")
        if not names:
            fail("--allowed-hosts names no host: give a name, or '*' for any")
        return [_bracketed(n) for n in names]
    if host in WILDCARD:
        return ["*"]
    own = [_bracketed(n) for n in LOOPBACK]
    return own if host in LOOPBACK else [_bracketed(host), *own]


def _bracketed(name: str) -> str:
    """An IPv6 address as a ``Host:`` header writes it: ``[::1]``."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def _log_to_stderr() -> None:
    """The server's own log (sign-ins and sign-outs, a database it cannot read) on stderr
    beside uvicorn's, in its manner: ``INFO:     signed in from 127.0.0.1 as 'rev'``."""
    log = logging.getLogger("rulesub.web")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_UvicornManner())
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


class _UvicornManner(logging.Formatter):
    """``INFO:     message``, ``WARNING:  message``: the level and its colon in nine
    columns, as uvicorn writes its own lines."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname + ':':<9} {record.getMessage()}"
