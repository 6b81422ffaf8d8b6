"""``--format sarif``: SARIF 2.1.0, so a repository of submissions gets code-review
annotations. Each finding code is a rule with a stable id; results carry start lines and
columns of 1 or more and partial fingerprints that survive unrelated edits."""

from __future__ import annotations

import hashlib
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from validator import __version__, jsonout

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def fingerprint(finding: Any) -> str:
    """Stable across runs and line moves: the code, the file and the JSON pointer."""
    key = "\0".join((finding.code, finding.file, finding.path))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _uri(file: str) -> str:
    return quote(PurePath(file).as_posix(), safe="/:._-~")


def _rule(code: str) -> dict[str, Any]:
    from validator.checks.rules import find_rule

    rule = find_rule(code)
    if rule is None:
        return {"id": code, "name": code.rsplit("/", 1)[-1]}
    out: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.doc},
        "help": {"text": rule.doc + (f" Hint: {rule.hint}" if rule.hint else "")},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }
    if rule.cite:
        out["properties"] = {"cite": rule.cite}
    return out


INFORMATION_URI = "https://pypi.org/project/rulesub/"


def sarif_log(report: Any) -> dict[str, Any]:
    waived = [(s.finding, s) for s in getattr(report, "suppressed", [])]
    every = [(f, None) for f in report.findings] + waived
    codes: list[str] = []
    for f, _ in every:
        if f.code not in codes:
            codes.append(f.code)
    index = {code: i for i, code in enumerate(codes)}
    results = []
    for f, waiver in every:
        text = f.message + (f" ({f.cite})" if f.cite else "")
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": LEVELS[f.severity],
            "message": {"text": text},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.file)},
                        "region": {"startLine": max(1, f.line), "startColumn": max(1, f.column)},
                    }
                }
            ],
            "partialFingerprints": {"rulesubFinding/v1": fingerprint(f)},
            "properties": {
                k: v for k, v in (("path", f.path), ("cite", f.cite), ("hint", f.hint)) if v
            },
        }
        if waiver is not None:
            result["suppressions"] = [
                {
                    "kind": "external" if waiver.waiver == "config" else "inSource",
                    "status": "accepted",
                    "justification": waiver.reason,
                }
            ]
        results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": f"{f.file}:{f.line}:{f.column}: {f.message}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.file)},
                        "region": {"startLine": max(1, f.line), "startColumn": max(1, f.column)},
                    }
                }
            ],
        }
        for r in report.files
        if r.unreadable
        for f in r.findings
    ]
    notifications += [{"level": "note", "message": {"text": s}} for s in report.skipped]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "rulesub",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(code) for code in codes],
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not notifications
                        or all(n["level"] == "note" for n in notifications),
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
            }
        ],
    }


def render_sarif(report: Any) -> str:
    return jsonout.dumps(sarif_log(report), indent=2) + "\n"
