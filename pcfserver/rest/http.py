"""HTTP requests and responses as plain values, and IBM's error JSON (sans-IO).

The shell (``pcfserver.server.http``) turns what arrived on the socket into a :class:`Request`
and writes a :class:`Response` back; everything between is pure functions of these values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from http.cookies import CookieError, SimpleCookie
from json.encoder import encode_basestring_ascii as _quoted  # (C: the quoting json.dumps itself uses)

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
    """A JSON answer laid out as mqweb lays it out (:func:`mqweb_json`), as UTF-8."""
    return Response(status, (("Content-Type", JSON),), mqweb_json(body).encode())


def mqweb_json(value: object) -> str:
    """``value`` as JSON in the layout mqweb writes (formats/rest-admin.tsv, json_layout): an object of one member on
    its opening line (``{"qmgr": [{``), an object of more with each member on a line of its own, indented two
    spaces deeper than the object's own line, and ``": "`` after each name; arrays on the line they open, their
    elements separated by ``", "``.  Scripts that read mqweb's answers a line at a time, or look for ``"name": ``,
    read these alike."""
    out: list[str] = []
    _write_json(value, "\n", out)
    return "".join(out)


def _write_json(value: object, newline: str, out: list[str]) -> None:
    """Appends ``value`` to ``out``; ``newline`` is the line break and indentation of the enclosing object's members."""
    if isinstance(value, str):
        out.append(_quoted(value))
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif value is None:
        out.append("null")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(json.dumps(value))
    elif isinstance(value, dict):
        if len(value) == 1:
            for key, member in value.items():
                out.append("{" + _quoted(str(key)) + ": ")
                _write_json(member, newline, out)
            out.append("}")
            return
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        separator = "{" + inner
        for key, member in value.items():
            out.append(separator + _quoted(str(key)) + ": ")
            _write_json(member, inner, out)
            separator = "," + inner
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, element in enumerate(value):
            if i:
                out.append(", ")
            _write_json(element, newline, out)
        out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} is not JSON")


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
    # (the members in the order mqweb writes them: formats/rest-admin.tsv, json_layout)
    item: dict[str, object] = {"msgId": row.msg_id, "action": row.action}
    if reason is None and row.reasons:
        reason = row.reasons[0]
    if reason is not None:
        item["completionCode"] = mq.MQCC_FAILED
        item["reasonCode"] = reason
    item["type"] = "rest"
    item["message"] = f"{row.msg_id}: " + row.message.format(*inserts)
    item["explanation"] = row.explanation.format(*explanation)
    body = mqweb_json({"error": [item]}).encode()
    return Response(row.status, (("Content-Type", JSON), *extra), body)
