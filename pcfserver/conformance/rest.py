"""The conformance group for a server's REST answers (``formats/rest-conformance.json``).

Each case is one HTTP request and what IBM's API answers to it (status, error msgId, overall and
item codes, parameters given back as stored); run in order, as the PCF groups are.  Uses only
the standard library (urllib), so it can test any server, with basic authentication if given.
"""

from __future__ import annotations

import base64
import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcfserver.conformance.cases import CASES_DIR

CASES_FILE = CASES_DIR.parent / "rest-conformance.json"


@dataclass(frozen=True, slots=True)
class RestResult:
    name: str
    doc: str
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    data = json.loads((path or CASES_FILE).read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = data["cases"]
    return cases


def _check(expect: dict[str, Any], status: int, body: Any) -> list[str]:
    problems = []
    if status != expect.get("status", 200):
        problems.append(f"status {status}, expected {expect.get('status', 200)}")
    if not isinstance(body, dict):
        return [*problems, "the body is not a JSON object"] if expect.keys() - {"status"} else problems
    if "json_equals" in expect and body != expect["json_equals"]:
        problems.append(f"answered {json.dumps(body)}, expected {json.dumps(expect['json_equals'])}")
    for key in expect.get("json_has", ()):
        if key not in body:
            problems.append(f"no {key!r} in the answer")
    if "error_msg_id" in expect:
        got = (body.get("error") or [{}])[0].get("msgId")
        if got != expect["error_msg_id"]:
            problems.append(f"error msgId {got!r}, expected {expect['error_msg_id']!r}")
    if "overall" in expect and [body.get("overallCompletionCode"), body.get("overallReasonCode")] != expect["overall"]:
        problems.append(f"overall codes {body.get('overallCompletionCode')}/{body.get('overallReasonCode')}, expected {expect['overall']}")
    if "overall_cc" in expect and body.get("overallCompletionCode") != expect["overall_cc"]:
        problems.append(f"overallCompletionCode {body.get('overallCompletionCode')}, expected {expect['overall_cc']}")
    items = body.get("commandResponse") or [{}]
    first = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
    for key in expect.get("first_item_has", ()):
        if key not in first:
            problems.append(f"no {key!r} in commandResponse[0]")
    if "first_item_codes" in expect and [first.get("completionCode"), first.get("reasonCode")] != expect["first_item_codes"]:
        problems.append(f"commandResponse[0] codes {first.get('completionCode')}/{first.get('reasonCode')}, expected {expect['first_item_codes']}")
    for key, value in expect.get("first_parameters", {}).items():
        got = (first.get("parameters") or {}).get(key)
        if got != value:
            problems.append(f"parameters.{key} is {got!r}, expected {value!r}")
    return problems


def run_rest(base_url: str, qmgr: str, *, user: str | None = None, password: str | None = None, cafile: str | None = None,
             timeout: float = 10.0, cases: list[dict[str, Any]] | None = None, context: ssl.SSLContext | None = None) -> list[RestResult]:
    """Runs every REST case against ``base_url`` (``https://host:9443``) for queue manager ``qmgr``
    (``context``: the TLS context to use, else one trusting ``cafile`` or the system's CAs)."""
    if context is None and base_url.startswith("https"):
        context = ssl.create_default_context(cafile=cafile)
    results = []
    for case in cases if cases is not None else load_cases():
        spec = case["request"]
        headers = {"Accept": "application/json"}
        if spec.get("csrf", True):
            headers["ibm-mq-rest-csrf-token"] = "conformance"
        if user is not None:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password or ''}".encode()).decode()
        data = None
        if "json" in spec:
            data = json.dumps(spec["json"]).encode()
            headers["Content-Type"] = "application/json"
        url = base_url.rstrip("/") + spec["path"].replace("{qmgr}", qmgr)
        request = urllib.request.Request(url, data=data, headers=headers, method=spec["method"])
        try:
            with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        except OSError as exc:
            results.append(RestResult(case["name"], case["doc"], (f"request failed: {exc}",)))
            continue
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        results.append(RestResult(case["name"], case["doc"], tuple(_check(case["expect"], status, body))))
    return results
