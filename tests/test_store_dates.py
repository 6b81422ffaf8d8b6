"""An approval is dated on or before the day it is made, never after.

Each later approval of a facility and game must be dated on or after the one it supersedes,
so an approval dated in a mistyped year (9999) would hold every later decision of its
facility and game. The store refuses it, by the store's own clock (UTC), from the command
line, the library and the web form alike; nothing is written. This module runs on the real
clock: none of the store's test clocks is pinned here.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from store_db import BACKENDS, EXAMPLES, cli, database

from validator.store import Refused, Store
from validator.store.lifecycle import decision_day
from validator.store.schema import audit_log

HCF = EXAMPLES / "high-card-flush.yaml"
FILED = dt.datetime(2026, 11, 1, 9, tzinfo=dt.UTC)
MADE = dt.datetime(2026, 12, 1, 23, 30, tzinfo=dt.UTC)  # the moment the decision is made


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database(request.param, tmp_path)


def actions(store: Store) -> list[str]:
    with store.transaction(reading=True) as conn:
        return [r.action for r in conn.execute(select(audit_log.c.action).order_by(audit_log.c.id))]


def test_an_approval_dated_after_the_day_it_is_made_is_refused_and_writes_nothing(
    db: str,
) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    before = actions(store)
    for on in (dt.date(9999, 1, 1), dt.date(2026, 12, 2)):
        with pytest.raises(Refused, match=r"dated .* is after today, 2026-12-01"):
            store.approve(sid, "officer", on=on, now=MADE)
    assert store.get(sid).status == "submitted"
    assert actions(store) == before  # no entry for a refused decision
    # the day it is made (in UTC, though it is 18:30 of that day in Pennsylvania) is today
    decision = store.approve(sid, "officer", on=dt.date(2026, 12, 1), now=MADE)
    assert decision.status == "approved" and decision.on == dt.date(2026, 12, 1)
    store.dispose()


def test_a_mistyped_year_cannot_hold_every_later_approval(db: str, tmp_path: Path) -> None:
    """The harm the rule prevents: were 9999 taken, no later approval of the facility and
    game could be dated on or after it. Refused, the next filing is approved as usual."""
    store = Store(db)
    first = store.record(HCF, "filer", now=FILED).id
    text = HCF.read_text(encoding="utf-8").replace("effective: 2027-01-01", "effective: 2027-03-01")
    later_file = tmp_path / "later.yaml"
    later_file.write_text(text, encoding="utf-8")
    later = store.record(later_file, "filer", now=FILED).id
    with pytest.raises(Refused):
        store.approve(first, "officer", on=dt.date(9999, 12, 1), now=MADE)
    store.approve(first, "officer", on=dt.date(2026, 11, 30), now=MADE)
    decision = store.approve(later, "officer", on=dt.date(2026, 12, 1), now=MADE)
    assert decision.superseded == [first]
    store.dispose()


def test_the_command_line_refuses_a_date_after_today_in_words(db: str) -> None:
    store = Store(db)
    sid = store.record(HCF, "filer", now=FILED).id
    store.dispose()
    out = cli("approve", str(sid), "--by", "officer", "--date", "9999-01-01", "--db", db)
    assert out.exit_code == 1
    today = decision_day().isoformat()
    assert f"an approval dated 9999-01-01 is after today, {today}" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_web_forms_approval_date_is_the_stores_day_at_the_latest(tmp_path: Path) -> None:
    """The form offers the store's day (UTC), not the server's local one, which east of
    Greenwich runs a day ahead in the evening, and a browser's date picker stops there."""
    from webtools import make_office, signed_in

    office = make_office(tmp_path)
    client = signed_in(office, "rev")
    page = client.get(f"/submissions/{office.ids['example']}").text
    field = re.search(r'<input type="date" id="on" name="on"[^>]*>', page)
    assert field, "the approval form carries no date"
    today = decision_day().isoformat()
    assert f'value="{today}"' in field.group(0) and f'max="{today}"' in field.group(0)
