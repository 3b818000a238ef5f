"""The status of IBM's administrative REST API queue manager resource (sans-IO).

    GET /ibmmq/rest/v1|v2|v3/admin/qmgr[/{qmgr}]?status={status|*|status.attributeName,...}&state=...

Without ``status`` the resource answers each queue manager's name and state (``admin.py``).  With it, each queue
manager also carries a ``status`` object: ``started`` (a UTC timestamp), ``channelInitiatorState``,
``ldapConnectionState`` and ``connectionCount``, read with Inquire Queue Manager Status through ``execute`` (so
through the REST gateway for another queue manager).  The names and words are the ``rest`` column of
``formats/qmstatus-attributes.tsv`` and ``rest`` rows of ``dialect-values.tsv`` (IBM's REST API and PCF equivalents
for queue managers).  ``state=`` keeps the queue managers in that state: this server's runs, so ``running`` keeps it
and IBM's other states keep none.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import parse_qsl

from pcfserver import mq
from pcfserver.codec import IntegerList, Message
from pcfserver.dialects.outcome import Execute, failure
from pcfserver.dialects.tables import object_attributes
from pcfserver.rest.fields import Field, Refused, fields_of, put_fields, selection, values_of
from pcfserver.rest.http import Response, error, json_response

# IBM's state words (GET /admin/qmgr state=): running and ended on all platforms, the others on Multiplatforms (the
# list as far as IBM's page could be read: formats/rest-admin.tsv).
STATES = (
    "running", "ended", "endedImmediately", "endedPreemptively", "endedUnexpectedly", "starting", "quiescing",
    "endingImmediately", "endingPreemptively",
)
_QUERY = ("status", "state", "attributes")


@cache
def status_fields() -> dict[str, Field]:
    """The queue manager status fields by JSON name (status=...)."""
    return fields_of(object_attributes("qmstatus"))


def parse(query: str) -> tuple[list[str], str | None] | Response:
    """The status fields ``status=`` asks for and the ``state=`` wanted, or IBM's error answer.

    ``attributes=`` (IBM: the ``extended`` object of installation details) is accepted and not answered: IBM's names
    for its fields could not be confirmed (formats/rest-admin.tsv)."""
    given: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key not in _QUERY:
            return error("bad_query", key, "used on the queue manager resource: it takes attributes, status and state")
        given[key] = value
    state = given.get("state")
    if state is not None and state not in STATES:
        return error("bad_query", "state", f"{state!r}: one of {', '.join(STATES)}")
    try:
        chosen = selection(given.get("status"), status_fields(), ("*", "status"), "status", "queue manager")
    except Refused as refused:
        return refused.response
    return chosen, state


def status_run(name: str, chosen: list[str]) -> Callable[[Execute], Response]:
    """The operation answering ``name`` with the chosen status fields, through ``execute``."""

    def run(execute: Execute) -> Response:
        answer = execute(Message(mq.MQCMD_INQUIRE_Q_MGR_STATUS, (IntegerList(mq.MQIACF_Q_MGR_STATUS_ATTRS, (mq.MQIACF_ALL,)),)))
        bad = failure(answer)
        if bad is not None:
            return error("unexpected", bad.reason, reason=bad.reason)
        values = next((values_of(m) for m in answer if m.parameters), {})
        item: dict[str, Any] = {"name": name, "state": "running"}
        put_fields(item, chosen, status_fields(), values)
        return json_response(200, {"qmgr": [item]})

    return run

