"""IBM's administrative REST API v1 channel resource, GET, as pure logic (sans-IO).

    GET /ibmmq/rest/v1/admin/qmgr/{qmgr}/channel[/{name}]   Inquire Channel

IBM documents this resource in version 1 of the REST API only (from MQ 9.0.4, GET only).  It reports channels whose
transport type is TCP and whose type is sender, receiver, server, requester, cluster-sender or cluster-receiver; other
channels are not returned.  Each channel is its name, its type and an object named for its type holding what IBM says
is always returned: the connection (an array of host and port objects, one per address of CONNAME; a single host
holding the whole CONNAME when it does not read as host(port); empty when there is none) and, for sender and server
channels, transmissionQueueName.  That answer is laid out byte for byte as a published mqweb answer for
SYSTEM.DEF.SENDER (tests/test_rest_channel_resource.py).

Only what IBM's pages could be read for is answered: ``name`` and ``type`` select, and ``attributes`` may name the
fields above.  Other attributes (``attributes=*``), ``status`` and ``filter`` are refused with PCFS0024E rather than
answered under guessed names (formats/rest-admin.tsv, channel_*).  The mqsc resource answers everything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String
from pcfserver.dialects.outcome import Execute, failure
from pcfserver.engine.filters import GENERIC_NAME, OBJECT_NAME
from pcfserver.names import reason_name
from pcfserver.rest.fields import Refused, values_of
from pcfserver.rest.http import Request, Response, error, json_response

PATH = re.compile(r"/ibmmq/rest/v1/admin/qmgr/([^/]+)/channel(?:/([^/]+))?/?")
# IBM's words for the channel types the resource reports (type= takes these and all)
_TYPES = {
    "sender": mq.MQCHT_SENDER,
    "server": mq.MQCHT_SERVER,
    "receiver": mq.MQCHT_RECEIVER,
    "requester": mq.MQCHT_REQUESTER,
    "clusterSender": mq.MQCHT_CLUSSDR,
    "clusterReceiver": mq.MQCHT_CLUSRCVR,
}
_WORDS = {value: word for word, value in _TYPES.items()}
_XMITQ_TYPES = (mq.MQCHT_SENDER, mq.MQCHT_SERVER)  # the types whose object holds transmissionQueueName
_CONNECTION_TYPES = (mq.MQCHT_SENDER, mq.MQCHT_SERVER, mq.MQCHT_REQUESTER, mq.MQCHT_CLUSSDR, mq.MQCHT_CLUSRCVR)
_SERVED = ("connection", "transmissionQueueName")  # as [type].connection / [type].transmissionQueueName
_QUERY = {"attributes", "status", "name", "type", "filter", "commandScope", "queueSharingGroupDisposition"}
_ZOS_ONLY = ("commandScope", "queueSharingGroupDisposition")
_ASKED = (mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQCACH_CONNECTION_NAME, mq.MQCACH_XMIT_Q_NAME)
_ADDRESS = re.compile(r"\s*([^(),\s][^(),]*?)\s*\(\s*(\d{1,5})\s*\)\s*")


@dataclass(frozen=True, slots=True)
class ChannelRequest:
    """A checked GET of the channel resource; :meth:`run` answers it through ``execute``."""

    name: str | None  # from the path
    pattern: str
    type_word: str

    def run(self, execute: Execute) -> Response:
        try:
            return _get(self, execute)
        except Refused as refused:
            return refused.response


def parse(request: Request, qmgr: str, name: str | None) -> ChannelRequest | Response:
    """The request checked (method, query parameters), or IBM's error answer (``qmgr``, as the queue resource's
    parse takes it, decides nothing here)."""
    if request.method != "GET":
        return error("method_not_allowed", request.method, request.path, extra=(("Allow", "GET"),))
    query: dict[str, str] = {}
    for key, value in parse_qsl(request.query, keep_blank_values=True):
        if key not in _QUERY:
            return error("channel_bad_query", key)
        if key in _ZOS_ONLY:
            return error("queue_zos_only", key)
        if key in ("status", "filter"):
            return error("channel_not_supported", key)
        if key in query:
            return error("bad_query", key, "given more than once")
        query[key] = value
    if name is not None and "name" in query:
        return error("bad_query", "name", "given with a channel name in the URL")
    type_word = query.get("type", "all")
    if type_word != "all" and type_word not in _TYPES:
        return error("bad_query", "type", f"{type_word!r}: one of all, {', '.join(_TYPES)}")
    for asked in (a.strip() for a in query.get("attributes", "").split(",") if a.strip()):
        group, _, field = asked.partition(".")
        if group not in _TYPES or field not in _SERVED:  # (what is served is always returned: naming it changes nothing)
            return error("channel_not_supported", f"attributes={asked}")
    pattern = unquote(name) if name is not None else query.get("name", "*") or "*"
    if name is None and not (OBJECT_NAME.match(pattern) or GENERIC_NAME.match(pattern)):
        return error("bad_query", "name", f"{pattern!r}: a channel name, or the start of one followed by *")
    return ChannelRequest(unquote(name) if name is not None else None, pattern, type_word)


def connection(conname: str) -> list[dict[str, Any]]:
    """CONNAME as IBM's connection array: one {host, port} per address; [{host: CONNAME}] when it does not read so."""
    text = conname.strip()
    if not text:
        return []
    out: list[dict[str, Any]] = []
    for address in text.split(","):
        found = _ADDRESS.fullmatch(address)
        if found is None or int(found.group(2)) > 65535:
            return [{"host": text}]
        out.append({"host": found.group(1), "port": int(found.group(2))})
    return out


def _channel_json(values: dict[int, Any]) -> dict[str, Any]:
    ctype = int(values[mq.MQIACH_CHANNEL_TYPE])
    own: dict[str, Any] = {}
    if ctype in _XMITQ_TYPES:  # (IBM: always returned)
        own["transmissionQueueName"] = str(values.get(mq.MQCACH_XMIT_Q_NAME, "")).rstrip()
    if ctype in _CONNECTION_TYPES:  # (IBM: always returned, an empty array when there is none)
        own["connection"] = connection(str(values.get(mq.MQCACH_CONNECTION_NAME, "")))
    item: dict[str, Any] = {}
    word = _WORDS[ctype]
    if own:
        item[word] = own
    item["name"] = str(values.get(mq.MQCACH_CHANNEL_NAME, "")).rstrip()
    item["type"] = word
    return item


def _get(req: ChannelRequest, execute: Execute) -> Response:
    parameters: list[Any] = [String(mq.MQCACH_CHANNEL_NAME, req.pattern)]
    if req.type_word != "all":
        parameters.append(Integer(mq.MQIACH_CHANNEL_TYPE, _TYPES[req.type_word]))
    parameters.append(IntegerList(mq.MQIACF_CHANNEL_ATTRS, _ASKED))
    answer = execute(Message(mq.MQCMD_INQUIRE_CHANNEL, tuple(parameters)))
    bad = failure(answer)
    found = [values_of(m) for m in answer if m.comp_code != mq.MQCC_FAILED and m.parameters]
    reported = [
        v for v in found if v.get(mq.MQIACH_CHANNEL_TYPE) in _WORDS and v.get(mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP) == mq.MQXPT_TCP
    ]
    if bad is not None and not (bad.reason in (mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_CHANNEL_NOT_FOUND) and req.name is None):
        raise _failed(req.pattern, bad.reason)
    if req.name is not None and not reported:  # a channel this resource does not report is not found here
        raise _failed(req.pattern, mq.MQRCCF_CHANNEL_NOT_FOUND)
    return json_response(200, {"channel": [_channel_json(v) for v in reported]})


def _failed(name: str, reason: int) -> Refused:
    if reason in (mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_CHANNEL_NOT_FOUND):
        return Refused(error("channel_not_found", name, reason, reason_name(reason)))
    if reason == mq.MQRC_NOT_AUTHORIZED:
        return Refused(error("channel_not_authorized", name, reason=reason))
    return Refused(error("channel_command_failed", name, reason, reason_name(reason), reason=reason))
