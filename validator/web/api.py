"""The JSON API for a casino's own tools (``Authorization: Bearer TOKEN``, same roles).

- ``GET /api/submissions``: the submissions the account may read, each as ``rulesub
  history --format json`` prints it, searched and paged as the submissions page is (``q``,
  ``status``, ``game``, ``facility``, ``holder``, ``effective_from``, ``effective_to``,
  ``sort``, ``page``: 50 a page), the total and the page in ``X-Total-Count``, ``X-Page``,
  ``X-Pages`` and a ``Link`` to the next page (a page past the last: empty); a parameter
  it cannot read, or does not take, answers 400 naming each (``not_applied``: the
  parameter, the value given, what was expected), never the list unfiltered;
- ``GET /api/submissions/{id}``: one of them, with its recorded findings;
- ``POST /api/submissions``: file one (the YAML as the body, or a multipart ``file``;
  ``?name=`` names it); answers ``rulesub record --format json``'s object, 201 (200 when
  the same bytes were recorded before), 422 with the findings when it cannot be read, 403
  with nothing recorded when its facility belongs to another certificate holder;
- ``GET /api/audit/head``: the head of the audit log's hash chain (``entries``, ``entry``,
  ``hash``, ``at``), as ``rulesub history`` prints it and ``rulesub audit verify`` checks it.

Any other ``/api/`` path answers 404 once signed in, 401 before.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from validator.web.security import MAX_FORM_BYTES
from validator.web.upload import Upload, UploadRefused, file_upload, record_json


def _entry(row: Any) -> dict[str, Any]:
    from validator.store.lifecycle import history_entry

    return history_entry(row, served=True)


async def list_submissions(request: Request) -> Response:
    from validator.web.office import api_submissions

    return await api_submissions(request)


async def one_submission(request: Request) -> Response:
    from validator.web.app import _me, _submission, _web

    web, me = _web(request), _me(request)
    row = await run_in_threadpool(_submission, web, me, request.path_params["id"])
    entry = _entry(row)
    entry["findings_recorded"] = json.loads(row.findings)
    return JSONResponse(entry)


async def post_submission(request: Request) -> Response:
    from validator.web.app import _me, _web

    web, me = _web(request), _me(request)
    if not me.can_file:
        raise HTTPException(403, f"a {me.role} account does not file submissions")
    name = request.query_params.get("name")
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        try:
            form = await request.form(max_files=1, max_fields=5, max_part_size=MAX_FORM_BYTES)
        except Exception:
            raise HTTPException(413, "the upload is too large or malformed") from None
        item = form.get("file")
        if not isinstance(item, UploadFile):
            raise HTTPException(422, "a multipart upload carries the submission as `file`")
        content = await item.read()
        name = name or item.filename
    else:
        content = b""
        async for chunk in request.stream():
            content += chunk
            if len(content) > MAX_FORM_BYTES:
                raise HTTPException(413, f"the body is over {MAX_FORM_BYTES:,} bytes")
    if not content:
        raise HTTPException(422, "the body is empty: send the submission's YAML")
    upload = Upload(Upload.clean_name(name), content)
    try:
        recorded = await run_in_threadpool(file_upload, web.store, me, upload)
    except UploadRefused as e:
        return JSONResponse({"error": e.message, "findings": e.findings}, status_code=e.status)
    return JSONResponse(record_json(recorded), status_code=200 if recorded.already else 201)


async def audit_head(request: Request) -> Response:
    """The chain's head, for any signed-in account: a casino keeps it beside its filings,
    and a later ``rulesub audit verify`` shows whether the log still holds it. It names
    no filing and no holder."""
    from validator.web.app import _me, _web

    web, _ = _web(request), _me(request)
    head = await run_in_threadpool(web.store.audit_head)
    return JSONResponse(head.to_json())


async def unknown(request: Request) -> Response:
    raise HTTPException(404, "no such API path")


routes = [
    Route("/api/submissions", list_submissions, methods=["GET"]),
    Route("/api/submissions", post_submission, methods=["POST"]),
    Route("/api/submissions/{id}", one_submission, methods=["GET"]),
    Route("/api/audit/head", audit_head, methods=["GET"]),
    Route("/api/{rest:path}", unknown, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
]
