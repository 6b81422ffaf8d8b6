"""When a document says it was prepared: now, or SOURCE_DATE_EPOCH for a rebuilt copy."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.clock import BadSourceDate, prepared_at

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"


def _par_json() -> dict:
    args = ["par", str(EXAMPLE), "--format", "json", "--rounds", "2000", "--workers", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _prepared_on(sheet: dict) -> str:
    found = [v for k, v in _walk(sheet) if k == "prepared_on"]
    assert len(found) == 1, found
    return found[0]


def _walk(node: object):  # type: ignore[no-untyped-def]
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_without_the_variable_a_document_is_prepared_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    stated = dt.datetime.strptime(_prepared_on(_par_json()), "%Y-%m-%d %H:%M UTC")
    after = dt.datetime.now(dt.UTC)
    assert before <= stated.replace(tzinfo=dt.UTC) <= after


def test_source_date_epoch_fixes_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    assert _prepared_on(_par_json()) == "2027-01-01 00:00 UTC"
    assert prepared_at() == dt.datetime(2027, 1, 1, tzinfo=dt.UTC)


def test_a_source_date_that_is_not_whole_seconds_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "next tuesday")
    with pytest.raises(BadSourceDate, match="whole seconds"):
        prepared_at()
    import os

    from conftest import in_process

    args = ["par", str(EXAMPLE), "--format", "json", "--rounds", "2000", "--workers", "1"]
    result = in_process(args, env=dict(os.environ))
    assert result.returncode == 2, result.stderr
    assert "SOURCE_DATE_EPOCH" in result.stderr and "Traceback" not in result.stderr
