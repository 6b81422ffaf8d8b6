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
) -> None:
    """The web view: facilities and games, submissions with their findings at their lines,
    diffs with hold deltas, signs, odds, review packs; approvals by reviewers; a JSON API.
    Accounts: `rulesub users add`. Sessions are signed with RULESUB_SECRET_KEY (else a key
    made at start). The sign-in throttle counts attempts by the connection's address:
    X-Forwarded-For is ignored unless --proxy-headers names a trusted proxy."""
    import uvicorn

    from validator.store import StoreError
    from validator.web import create_app
    from validator.web.app import ENV_SECRET

    if not 0 < port < 65536:
        fail(f"--port {port}: a port is 1 to 65535")
    if forwarded_allow_ips is not None and not proxy_headers:
        fail("--forwarded-allow-ips names the proxies --proxy-headers trusts: give both")
    try:
        web = create_app(db, secure_cookies=secure_cookies)
    except StoreError as e:
        refuse(e)
    store = web.state.web.store
    sys.stderr.write(f"rulesub: serving {store.name} on http://{host}:{port}/\n")
    if not os.environ.get(ENV_SECRET):
        sys.stderr.write(
            f"rulesub: {ENV_SECRET} is not set: sessions are signed with a key made now and "
            "end when the server stops\n"
        )
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.stderr.write(
            f"rulesub: listening on {host}: put it behind a proxy that speaks HTTPS; "
            "passwords and session cookies cross the network as sent\n"
        )
    _log_to_stderr()
    uvicorn.run(
        web,
        host=host,
        port=port,
        log_level="info",
        server_header=False,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=(forwarded_allow_ips or "127.0.0.1,::1") if proxy_headers else None,
    )


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
