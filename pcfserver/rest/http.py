"""HTTP requests and responses as plain values, and IBM's error JSON (sans-IO).

The shell (``pcfserver.server.http``) turns what arrived on the socket into a :class:`Request`
and writes a :class:`Response` back; everything between is pure functions of these values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from http.cookies import CookieError, SimpleCookie

from pcfserver import mq
from pcfserver.tables import read_table

TEXT_PLAIN = "text/plain; charset=utf-8"
JSON = "application/json; charset=utf-8"
CSRF_HEADER = "ibm-mq-rest-csrf-token"  # IBM: required on every POST, PATCH and DELETE (any value)


@dataclass(frozen=True, slots=True)
class Request:
    """One HTTP request: ``path`` and ``query`` as they came (percent-encoded), header names in lower case."""

    method: str
    path: str
    query: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    secure: bool = False  # it came over TLS (HTTPS)

    def header(self, name: str) -> str | None:
        """The first value of a header (``name`` in lower case), or None."""
        for key, value in self.headers:
            if key == name:
                return value
        return None


def cookie(request: Request, name: str, *, prefix: bool = False) -> str | None:
    """The value of a cookie the request carries (``prefix``: the first whose name starts with ``name``, as mqweb's
    LtpaToken2 may carry a suffix); None when there is none or the header does not parse."""
    for key, value in request.headers:
        if key != "cookie":
            continue
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value)
        except CookieError:
            continue
        for found, morsel in jar.items():
            if found == name or (prefix and found.startswith(name)):
                return morsel.value
    return None


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None


def json_response(status: int, body: object) -> Response:
    """A JSON answer, compact, as UTF-8."""
    return Response(status, (("Content-Type", JSON),), json.dumps(body, separators=(",", ":")).encode())


@dataclass(frozen=True, slots=True)
class ErrorRow:
    """One row of ``formats/rest-errors.tsv``."""

    status: int
    msg_id: str
    message: str
    explanation: str
    action: str
    reasons: tuple[int, ...]


@cache
def error_table() -> dict[str, ErrorRow]:
    return {
        row["error"]: ErrorRow(
            int(row["status"]),
            row["msg_id"],
            row["message"],
            row["explanation"],
            row["action"],
            tuple(int(r) for r in row["reasons"].split()),
        )
        for row in read_table("rest-errors.tsv")
    }


@cache
def error_for_reason() -> dict[int, str]:
    """The error row that answers each MQ reason listed in the table."""
    return {reason: key for key, row in error_table().items() for reason in row.reasons}


def error(key: str, *inserts: object, reason: int | None = None, explanation: tuple[object, ...] = (), extra: tuple[tuple[str, str], ...] = ()) -> Response:
    """IBM's error answer for a condition of ``formats/rest-errors.tsv``.

    ``reason`` (an MQ reason code) adds completionCode and reasonCode; ``explanation`` fills the
    explanation's inserts.
    """
    row = error_table()[key]
    item: dict[str, object] = {
        "type": "rest",
        "msgId": row.msg_id,
        "message": f"{row.msg_id}: " + row.message.format(*inserts),
        "explanation": row.explanation.format(*explanation),
        "action": row.action,
    }
    if reason is None and row.reasons:
        reason = row.reasons[0]
    if reason is not None:
        item["completionCode"] = mq.MQCC_FAILED
        item["reasonCode"] = reason
    body = json.dumps({"error": [item]}, separators=(",", ":")).encode()
    return Response(row.status, (("Content-Type", JSON), *extra), body)
