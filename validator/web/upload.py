"""A submission filed through the web view (a page's form or ``POST /api/submissions``).

The bytes are checked by the validator exactly as ``rulesub validate`` checks a file (alias
bombs, deep nesting, tags, megabytes and non-UTF-8 are its findings, shown as such), then
recorded by the store as ``submitted``. A casino account files only for its own certificate
holder: a submission naming another is refused before anything is recorded, and so is one
for a facility that belongs to another holder (403, the store's refusal).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.datastructures import FormData, UploadFile

from validator.errors import RulesubError
from validator.store import Refused, Store, StoreError
from validator.store.accounts import Account
from validator.store.lifecycle import FACILITY_OF_ANOTHER_HOLDER, Recorded

PASTED = "pasted.yaml"
#: the submission's field naming who files it
HOLDER_FIELD = "/certificate_holder"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class UploadRefused(RulesubError):
    """Nothing was recorded; ``findings`` (the validator's, as dicts) say why, if any."""

    def __init__(
        self, message: str, findings: list[dict[str, Any]] | None = None, status: int = 422
    ) -> None:
        super().__init__(message)
        self.message = message
        self.findings = findings or []
        self.status = status  # 422 the submission's fault, 403 the account's


@dataclass
class Upload:
    name: str
    content: bytes = field(repr=False)

    @staticmethod
    def clean_name(raw: str | None) -> str:
        """The name it is filed under: the upload's base name, in safe characters."""
        base = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
        base = _UNSAFE.sub("_", base).strip("._")[:100]
        if not base:
            return PASTED
        if not base.endswith((".yaml", ".yml")):
            base += ".yaml"
        return base

    @classmethod
    async def from_form(cls, form: FormData) -> Upload:
        """A chosen file, or the pasted text; both refused, as a filing the holder did
        not mean could be recorded in the other's place."""
        item = form.get("file")
        chosen: Upload | None = None
        if isinstance(item, UploadFile) and item.filename:
            content = await item.read()
            if content:
                chosen = cls(cls.clean_name(item.filename), content)
        text = form.get("text")
        if isinstance(text, str) and text.strip():
            if chosen is not None:
                raise UploadRefused(
                    f"Both a file ({chosen.name}) and pasted text were given: choose one, "
                    "and send the form again. Nothing was recorded."
                )
            return cls(
                cls.clean_name(str(form.get("name") or PASTED)),
                text.replace("\r\n", "\n").encode("utf-8"),
            )
        if chosen is not None:
            return chosen
        raise UploadRefused("Choose a file or paste the submission's YAML.")


def file_upload(store: Store, account: Account, upload: Upload) -> Recorded:
    """Check and record ``upload`` as ``account``; ``UploadRefused`` records nothing."""
    from validator.signage.checked import check_submission

    if not account.can_file:
        raise UploadRefused(f"a {account.role} account does not file submissions", status=403)
    with tempfile.TemporaryDirectory(prefix="rulesub-upload-") as tmp:
        path = Path(tmp) / upload.name
        path.write_bytes(upload.content)
        checked = check_submission(path, display=upload.name)
        if checked.unreadable or checked.submission is None:
            raise UploadRefused(
                f"{upload.name} cannot be read as a Rules Submission; nothing was recorded.",
                [f.to_dict() for f in checked.findings],
            )
        holder = checked.submission.data().get("certificate_holder")
        if account.role == "casino" and holder != account.certificate_holder:
            unread = [f for f in checked.findings if getattr(f, "path", None) == HOLDER_FIELD]
            named = (
                f"certificate holder “{holder}”"
                if holder
                else f"a certificate holder that cannot be read ({unread[0].message})"
                if unread
                else "no certificate holder"
            )
            raise UploadRefused(
                f"{upload.name} names {named}; the account {account.name} files for "
                f"“{account.certificate_holder}” only. Nothing was recorded.",
                [f.to_dict() for f in unread],
                status=403,
            )
        try:
            return store.record(path, account.name, display=upload.name)
        except Refused as e:  # another holder's facility (the account's fault), a name
            theirs = any(f["code"] == FACILITY_OF_ANOTHER_HOLDER for f in e.findings)
            raise UploadRefused(
                f"{e.message}.", e.findings, status=403 if theirs else 422
            ) from None
        except StoreError as e:
            raise UploadRefused(f"{e}. Nothing was recorded.") from None


def record_json(recorded: Recorded) -> dict[str, Any]:
    """The answer of ``POST /api/submissions``: ``rulesub record --format json``'s."""
    return recorded.to_json()
