"""``rulesub serve``: the office's web view of the store, served by uvicorn."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from validator.cli import app
from validator.cli.common import fail
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
) -> None:
    """The web view: facilities and games, submissions with their findings at their lines,
    diffs with hold deltas, signs, odds, review packs; approvals by reviewers; a JSON API.
    Accounts: `rulesub users add`. Sessions are signed with RULESUB_SECRET_KEY (else a key
    made at start: sessions end when the server stops)."""
    import uvicorn

    from validator.store import StoreError
    from validator.web import create_app
    from validator.web.app import ENV_SECRET

    if not 0 < port < 65536:
        fail(f"--port {port}: a port is 1 to 65535")
    try:
        web = create_app(db)
    except StoreError as e:
        fail(str(e))
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
    uvicorn.run(web, host=host, port=port, log_level="info", server_header=False)
