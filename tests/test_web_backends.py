"""The web view over both of the store's databases, SQLite and a real PostgreSQL server
(``RULESUB_TEST_POSTGRES_URL``, started by ``.ci/run``; the PostgreSQL half is skipped,
with the reason, without it)."""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import insert
from store_db import BACKENDS, database, store_clock  # noqa: F401 (the store's clock)
from webtools import EXAMPLE, make_office, sign_in, token_of

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from validator.store import accounts as acct  # noqa: E402
from validator.web import create_app  # noqa: E402


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path, migrated=True)


def test_a_casino_account_without_its_holder_is_refused_by_the_database(
    db: str, tmp_path: Path
) -> None:
    """The rule lives in the schema (``casino_has_holder``), not only in Python."""
    office = make_office(tmp_path, db)
    for role, holder in (
        ("casino", None),
        ("viewer", "Example Downs Racing & Casino"),
        ("croupier", None),
    ):
        with pytest.raises(sa_exc.IntegrityError), office.store.transaction() as conn:
            conn.execute(
                insert(acct.accounts).values(
                    name=f"x-{role}",
                    role=role,
                    certificate_holder=holder,
                    password_hash="$argon2id$x",
                    created_at=dt.datetime.now(dt.UTC),
                )
            )
    assert {a.name for a in acct.all_accounts(office.store)} == {"rev", "view", "cas", "harbour"}


@pytest.mark.usefixtures("store_clock")  # decided on fixed dates
def test_file_review_and_read_over_the_backend(db: str, tmp_path: Path) -> None:
    office = make_office(tmp_path, db)
    app = create_app(db, secret="s")
    casino, reviewer, viewer = TestClient(app), TestClient(app), TestClient(app)
    for client, name in ((casino, "cas"), (reviewer, "rev"), (viewer, "view")):
        assert sign_in(client, name).status_code == 303
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "effective: 2027-01-01", "effective: 2027-04-01"
    )
    filed = casino.post(
        "/upload", data={"csrf": token_of(casino), "text": text}, follow_redirects=False
    )
    assert filed.status_code == 303
    sid = int(filed.headers["location"].rsplit("/", 1)[1])
    assert (
        viewer.post(f"/submissions/{sid}/approve", data={"csrf": token_of(viewer)}).status_code
        == 403
    )
    assert casino.get(f"/submissions/{office.ids['harbour']}").status_code == 404
    reviewer.post(
        f"/submissions/{office.ids['example']}/approve",
        data={"csrf": token_of(reviewer), "on": "2026-12-20"},
    )
    reviewer.post(
        f"/submissions/{sid}/approve", data={"csrf": token_of(reviewer), "on": "2026-12-20"}
    )
    assert office.store.get(sid).status == "approved"
    assert office.store.get(office.ids["example"]).status == "superseded"
    token = acct.issue_token(office.store, "cas", by="test")
    listed = (
        TestClient(app).get("/api/submissions", headers={"Authorization": f"Bearer {token}"}).json()
    )
    assert {(e["id"], e["status"]) for e in listed} == {
        (office.ids["example"], "superseded"),
        (sid, "approved"),
    }


@pytest.mark.usefixtures("store_clock")  # decided on a fixed date
def test_a_running_server_replaces_the_connections_a_database_restart_dropped(
    db: str, tmp_path: Path
) -> None:
    """The server keeps its connections open between requests; when the database ends
    them all (a PostgreSQL restart, here each server process terminated by the
    administrator), the next pages and writes are served on new connections, not
    answered with an error, and nothing is lost or written twice."""
    if not db.startswith("postgresql"):
        pytest.skip("SQLite keeps no server connection to drop")
    from sqlalchemy import create_engine, text

    office = make_office(tmp_path, db)
    app = create_app(db, secret="s")
    reviewer = TestClient(app)
    assert sign_in(reviewer, "rev").status_code == 303
    for path in ("/", "/submissions", "/audit"):
        assert reviewer.get(path).status_code == 200
    before = len(office.store.events())
    admin = create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.connect() as conn:
        ended = conn.execute(
            text(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                # the server's connections only: an autovacuum worker on the database is
                # the superuser's, which this role may not end
                " AND backend_type = 'client backend' AND usename = current_user) AS t"
            )
        ).scalar_one()
    admin.dispose()
    assert ended >= 1  # the server's kept connections
    for path in ("/audit", "/submissions", "/"):
        page = reviewer.get(path)
        assert page.status_code == 200, (path, page.text)
    approved = reviewer.post(
        f"/submissions/{office.ids['example']}/approve",
        data={"csrf": token_of(reviewer), "on": "2026-12-20"},
        follow_redirects=False,
    )
    assert approved.status_code == 303
    assert office.store.get(office.ids["example"]).status == "approved"
    assert len(office.store.events()) == before + 1
