"""IBM MQ's messaging REST API as pure logic: a :class:`Request` in, a :class:`Response` or an
:class:`Operation` out (sans-IO; nothing here waits or touches a socket).

    /ibmmq/rest/v1|v2|v3/messaging/qmgr/{qmgr}/queue/{queue}/message       POST put, DELETE get, GET browse first
    /ibmmq/rest/v1|v2|v3/messaging/qmgr/{qmgr}/queue/{queue}/messagelist   GET summary list
    /ibmmq/rest/v2|v3/messaging/qmgr/{qmgr}/topic/{topicString}/message    POST publish

A request that needs the queue manager becomes an :class:`Operation` (a queue's messages) or a
:class:`Publication` (a topic's subscribers); the shell runs either through the engine's group
commit and answers ``respond(result)``.

For an :class:`Operation` the shell runs ``operation.run(layer, session)`` through the engine's group commit (the answer may be released
only once whatever it changed is durable), retries it while it fails with
MQRC_NO_MSG_AVAILABLE and ``operation.wait`` seconds have not passed (waiting for an arrival on
the queue, with the queue open for input), then answers ``operation.respond(result)``.

Header and ID formats follow IBM's documentation; the choices IBM leaves open are recorded with
their reasons in ``formats/rest-messaging.tsv`` and the error answers in ``formats/rest-errors.tsv``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import parse_qsl, unquote

from pcfserver import mq
from pcfserver.codec.ccsid import codec_for
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.engine.messaging import FORMAT_STRING, MessageLayer, SessionState
from pcfserver.engine.property_names import property_name_error
from pcfserver.rest.http import CSRF_HEADER, TEXT_PLAIN, Request, Response, error, error_for_reason, json_response

if TYPE_CHECKING:
    from pcfserver.engine.pubsub import PubSub

USER_PREFIX = "ibm-mq-usr-"
MEDIA_TYPES = frozenset({"text/plain", "text/html", "text/xml", "application/json", "application/xml"})
MAX_EXPIRY_MS = 999_999_999 * 100  # MQMD Expiry is at most 999,999,999 tenths of a second
MAX_WAIT_MS = 2**31 - 1
DEFAULT_LIST_LIMIT = 10_000
_ROUTE = re.compile(r"/ibmmq/rest/v([123])/messaging/qmgr/([^/]+)/queue/([^/]+)/(message|messagelist)")
# IBM: the topic string's levels stay real '/' in the URL (a leading or trailing '/' is sent as %2F); v2 and v3 only.
_TOPIC_ROUTE = re.compile(r"/ibmmq/rest/v([23])/messaging/qmgr/([^/]+)/topic/(.+)/message")
DEFAULT_PUBLISH_PRIORITY = 4  # IBM: publications made through the REST API have message priority 4 by default
_HEX_ID = re.compile(r"[0-9a-fA-F]{48}")
_ALLOWED = {"message": "DELETE, GET, POST", "messagelist": "GET"}
# Query parameters each method of each resource takes.
_QUERY = {
    ("message", "POST"): frozenset(),
    ("message", "DELETE"): frozenset({"correlationId", "messageId", "wait"}),
    ("message", "GET"): frozenset({"correlationId", "messageId"}),
    ("messagelist", "GET"): frozenset({"correlationId", "messageId", "limit"}),
}
_PERSISTENCE = {"persistent": mq.MQPER_PERSISTENT, "nonpersistent": mq.MQPER_NOT_PERSISTENT}
_PERSISTENCE_NAMES = {mq.MQPER_PERSISTENT: "persistent", mq.MQPER_NOT_PERSISTENT: "nonPersistent"}
_NOT_PERSISTENT = mq.MQPER_NOT_PERSISTENT
_MD_HEADERS = frozenset({"ibm-mq-md-persistence", "ibm-mq-md-expiry", "ibm-mq-md-correlationid", "ibm-mq-md-replyto", "ibm-mq-md-priority"})
_UNLIMITED = mq.MQEI_UNLIMITED


class BadRequest(Exception):
    """A request the API refuses before it reaches the queue manager."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


@dataclass(frozen=True, slots=True)
class Operation:
    """What the shell runs against the message layer, and how the result becomes an answer."""

    queue: str
    run: Callable[[MessageLayer, SessionState], Any]
    respond: Callable[[Any], Response]
    wait: float = 0.0  # seconds a get may wait for a message
    kind: str = ""  # put, get, browse or list (for the log)


@dataclass(frozen=True, slots=True)
class Publication:
    """A publication for the shell to run against the publish/subscribe engine, and how its result becomes an answer."""

    topic: str
    run: Callable[[PubSub, SessionState], Any]
    respond: Callable[[Any], Response]
    kind: str = "publish"


# ---------------------------------------------------------------------- identifiers


def render_id(value: bytes, version: int) -> str:
    """A MsgId or CorrelId as the API shows it: 48 hex digits, with ``ID:`` before them in v3."""
    text = value.hex()
    return "ID:" + text if version >= 3 else text


def render_correl_id(value: bytes, version: int) -> str:
    """A CorrelId: in v3 an application-specific ID (printable text padded with NULs) shows as that text."""
    if version >= 3:
        text = value.rstrip(b"\0")
        if text and all(0x20 <= b < 0x7F for b in text):
            return text.decode("ascii")
    return render_id(value, version)


def parse_id(text: str, version: int, *, application: bool, what: str) -> bytes:
    """A MsgId or CorrelId from a header or query parameter (v1/v2 48 hex digits; v3 ``ID:`` and 48 hex
    digits, or for a CorrelId an application-specific ID of up to 24 characters)."""
    if version >= 3:
        if text.startswith("ID:") and _HEX_ID.fullmatch(text[3:]):
            return bytes.fromhex(text[3:])
        data = text.encode("utf-8")
        if application and text and not text.startswith("ID:") and len(data) <= 24:
            return data.ljust(24, b"\0")
    elif _HEX_ID.fullmatch(text):
        return bytes.fromhex(text)
    raise ValueError(what)


# ---------------------------------------------------------------------- the API


class MessagingApi:
    """The messaging REST API of one queue manager."""

    def __init__(self, qmgr_name: str) -> None:
        self.qmgr_name = qmgr_name

    def handle(self, request: Request) -> Response | Operation | Publication:
        match = _ROUTE.fullmatch(request.path)
        if match is None:
            topic = _TOPIC_ROUTE.fullmatch(request.path)
            if topic is None:
                return error("not_found", request.path)
            return self._topic(request, int(topic.group(1)), unquote(topic.group(2)), unquote(topic.group(3)))
        digit, qmgr, queue, resource = match.groups()
        version = int(digit)
        if "%" in qmgr:
            qmgr = unquote(qmgr)
        if "%" in queue:
            queue = unquote(queue)
        method = request.method
        if (resource, method) not in _QUERY:
            return error("method_not_allowed", method, request.path, extra=(("Allow", _ALLOWED[resource]),))
        if method in ("POST", "DELETE") and request.header(CSRF_HEADER) is None:
            return error("csrf_missing", CSRF_HEADER)
        if qmgr != self.qmgr_name:
            return error("unknown_qmgr", qmgr)
        try:
            query = _query(request.query, _QUERY[(resource, method)])
            if resource == "messagelist":
                return _list(queue, version, query, qmgr=qmgr)
            if method == "POST":
                return _put(queue, version, request, qmgr=qmgr)
            return _get(queue, version, query, browse=method == "GET", qmgr=qmgr)
        except BadRequest as bad:
            return bad.response


    def _topic(self, request: Request, version: int, qmgr: str, topic: str) -> Response | Publication:
        """POST .../topic/{topicString}/message: checked in the queue POST's order (method, CSRF, queue manager, query, headers)."""
        if request.method != "POST":
            return error("method_not_allowed", request.method, request.path, extra=(("Allow", "POST"),))
        if request.header(CSRF_HEADER) is None:
            return error("csrf_missing", CSRF_HEADER)
        if qmgr != self.qmgr_name:
            return error("unknown_qmgr", qmgr)
        try:
            _query(request.query, frozenset())
            return _publish(topic, version, request, qmgr=qmgr)
        except BadRequest as bad:
            return bad.response


def _query(text: str, allowed: frozenset[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    if not text:  # (most requests carry none: parse_qsl of nothing cost a sixth of routing a put)
        return out
    for key, value in parse_qsl(text, keep_blank_values=True):
        if key not in allowed:
            raise BadRequest(error("bad_query", key, "given here"))
        if key in out:
            raise BadRequest(error("bad_query", key, "given twice"))
        out[key] = value
    return out


def _filters(query: dict[str, str], version: int) -> tuple[bytes | None, bytes | None]:
    msg_id = correl_id = None
    try:
        if "messageId" in query:
            msg_id = parse_id(query["messageId"], version, application=False, what="messageId")
        if "correlationId" in query:
            correl_id = parse_id(query["correlationId"], version, application=True, what="correlationId")
    except ValueError as bad:
        name = str(bad)
        raise BadRequest(error("bad_query", name, repr(query[name]))) from None
    return msg_id, correl_id


def _int_param(query: dict[str, str], name: str, default: int, maximum: int) -> int:
    text = query.get(name)
    if text is None:
        return default
    if not text.isdigit() or int(text) > maximum:
        raise BadRequest(error("bad_query", name, repr(text)))
    return int(text)


def _mq_failure(result: MQIError, queue: str, qmgr: str) -> Response:
    key = error_for_reason().get(result.reason, "mq_failed")
    if key == "unknown_queue":
        return error(key, queue, qmgr, reason=result.reason)
    if key == "mq_failed":
        return error(key, reason=result.reason, explanation=(result.reason_name, result.reason))
    return error(key, result.reason_name, reason=result.reason)


# ---------------------------------------------------------------------- put


class _Sent(NamedTuple):
    """What a POST's headers ask of the message it puts or publishes (a named tuple: made per put, where a frozen
    dataclass's seven fields cost a microsecond)."""

    persistence: int
    expiry: int
    correl_id: bytes | None
    reply_q: str
    reply_qmgr: str
    priority: int | None
    properties: tuple[tuple[str, str], ...]


def _sent(request: Request, version: int) -> _Sent:
    """The body's media type and character set checked, and the ibm-mq-md-* (v3 also ibm-mq-usr-*) headers read:
    the same for a put to a queue and a publication on a topic.  One pass over the headers (the first of each name
    counts, as ``Request.header`` reads it)."""
    content_type: str | None = None
    md: dict[str, str] = {}  # the ibm-mq-md-* headers read, by name
    properties: list[tuple[str, str]] = []
    misnamed: tuple[str, str] | None = None  # an ibm-mq-usr- header naming no property MQ accepts (refused after the others' checks)
    for key, value in request.headers:
        if key[:7] == "ibm-mq-":
            if key in _MD_HEADERS:
                md.setdefault(key, value)
            elif version >= 3 and key.startswith(USER_PREFIX):
                name = key[len(USER_PREFIX) :]
                if misnamed is None and property_name_error(name):
                    misnamed = (key, value)
                properties.append((name, value))
        elif key == "content-type" and content_type is None:
            content_type = value
    if content_type is None:
        raise BadRequest(error("bad_media_type"))
    media, _, params = content_type.partition(";")
    if media.strip().lower() not in MEDIA_TYPES:
        raise BadRequest(error("bad_media_type"))
    if params:
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
                raise BadRequest(error("bad_charset", value.strip()))
    try:
        request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(error("bad_charset", "of the body (not UTF-8)")) from None

    def bad(name: str, value: str) -> BadRequest:
        return BadRequest(error("bad_header", name, value))

    persistence_text, expiry_text = md.get("ibm-mq-md-persistence"), md.get("ibm-mq-md-expiry")
    correl_text, reply_text = md.get("ibm-mq-md-correlationid"), md.get("ibm-mq-md-replyto")
    priority_text = md.get("ibm-mq-md-priority") if version >= 3 else None
    persistence = _NOT_PERSISTENT
    if persistence_text is not None:
        if persistence_text.lower() not in _PERSISTENCE:
            raise bad("ibm-mq-md-persistence", persistence_text)
        persistence = _PERSISTENCE[persistence_text.lower()]
    expiry = _UNLIMITED
    if expiry_text is not None and expiry_text.lower() != "unlimited":
        if not expiry_text.isdigit() or int(expiry_text) > MAX_EXPIRY_MS:
            raise bad("ibm-mq-md-expiry", expiry_text)
        ms = int(expiry_text)
        expiry = _UNLIMITED if ms == 0 else max(1, -(-ms // 100))
    correl_id = None
    if correl_text is not None:
        try:
            correl_id = parse_id(correl_text, version, application=True, what="ibm-mq-md-correlationId")
        except ValueError:
            raise bad("ibm-mq-md-correlationId", correl_text) from None
    reply_q = reply_qmgr = ""
    if reply_text is not None:
        reply_q, _, reply_qmgr = reply_text.partition("@")
        if not reply_q or len(reply_q) > 48 or len(reply_qmgr) > 48:
            raise bad("ibm-mq-md-replyTo", reply_text)
    priority = None
    if priority_text is not None:
        if not priority_text.isdigit() or int(priority_text) > 9:
            raise bad("ibm-mq-md-priority", priority_text)
        priority = int(priority_text)
    if misnamed is not None:
        raise bad(*misnamed)
    return _Sent(persistence, expiry, correl_id, reply_q, reply_qmgr, priority, tuple(properties))


def _put(queue: str, version: int, request: Request, *, qmgr: str) -> Operation:
    sent = _sent(request, version)
    body = request.body

    def run(layer: MessageLayer, session: SessionState) -> MessageDescriptor:
        # (positional, in the layer's order: nine keywords cost as much as reading the headers)
        persistence, expiry, correl_id, reply_q, reply_qmgr, priority, properties = sent
        return layer.put(
            session, queue, body, persistence, priority, expiry, correl_id, None, reply_q, reply_qmgr, FORMAT_STRING, False, None, properties, 1208
        )

    def respond(result: MessageDescriptor | MQIError) -> Response:
        if isinstance(result, MQIError):
            return _mq_failure(result, queue, qmgr)
        return Response(201, (("Content-Type", TEXT_PLAIN), ("ibm-mq-md-messageId", render_id(result.msg_id, version))))

    return Operation(queue, run, respond, kind="put")


# ---------------------------------------------------------------------- publish


def _publish(topic: str, version: int, request: Request, *, qmgr: str) -> Publication:
    """POST .../topic/{topicString}/message: the body published on the topic string under the caller's context, with
    the queue POST's headers; priority 4 unless a v3 ibm-mq-md-priority says otherwise (IBM).  What the publish/subscribe
    ibm-mq-md-correlationId is the publication's CorrelId (copies of subscriptions whose correlation id is MQCI_NONE
    keep it; the others carry their own, IBM SubCorrelId) and ibm-mq-md-replyTo every copy's ReplyToQ@ReplyToQMgr:
    formats/rest-messaging.tsv."""
    sent = _sent(request, version)
    body = request.body
    priority = DEFAULT_PUBLISH_PRIORITY if sent.priority is None else sent.priority

    def run(pubsub: PubSub, session: SessionState) -> MessageDescriptor:
        return pubsub.publish(
            session, topic, body, persistence=sent.persistence, priority=priority, expiry=sent.expiry, properties=sent.properties,
            correl_id=sent.correl_id, reply_to_q=sent.reply_q, reply_to_qmgr=sent.reply_qmgr, held=False,  # (mqweb opens, puts, closes)
        )

    def respond(result: MessageDescriptor | MQIError) -> Response:
        if isinstance(result, MQIError):
            return _mq_failure(result, topic, qmgr)
        return Response(201, (("Content-Type", TEXT_PLAIN), ("ibm-mq-md-messageId", render_id(result.msg_id, version))))

    return Publication(topic, run, respond)


# ---------------------------------------------------------------------- get and browse


def is_text(md: MessageDescriptor) -> bool:
    """MQSTR (a JMS TextMessage is MQSTR with properties here), in a character set the codec converts."""
    return md.format.rstrip() == FORMAT_STRING.rstrip() and codec_for(md.coded_char_set_id) is not None


def text_of(md: MessageDescriptor, body: bytes) -> bytes:
    """The body as UTF-8; raises MQRC_FORMAT_ERROR when its character set does not hold it."""
    codec = codec_for(md.coded_char_set_id)
    if codec is None:
        raise MQIError(mq.MQRC_FORMAT_ERROR)
    try:
        text = body.decode(codec)
    except UnicodeDecodeError:
        raise MQIError(mq.MQRC_FORMAT_ERROR) from None
    return body if codec in ("utf-8", "utf_8") else text.encode("utf-8")


def descriptor_headers(md: MessageDescriptor, version: int) -> list[tuple[str, str]]:
    """The ibm-mq-md-* (and in v3 ibm-mq-usr-*) headers of a message got or browsed."""
    headers = [("ibm-mq-md-messageId", render_id(md.msg_id, version))]
    if any(md.correl_id):
        headers.append(("ibm-mq-md-correlationId", render_correl_id(md.correl_id, version)))
    headers.append(("ibm-mq-md-persistence", _PERSISTENCE_NAMES.get(md.persistence, "nonPersistent")))
    headers.append(("ibm-mq-md-expiry", "unlimited" if md.expiry == mq.MQEI_UNLIMITED else str(md.expiry * 100)))
    if md.reply_to_q.strip():
        reply = md.reply_to_q.strip()
        if md.reply_to_qmgr.strip():
            reply += "@" + md.reply_to_qmgr.strip()
        headers.append(("ibm-mq-md-replyTo", reply))
    if version >= 3:
        headers.append(("ibm-mq-md-priority", str(md.priority)))
        headers.extend((USER_PREFIX + name, value) for name, value in user_properties(md.properties))
    return headers


_NOT_USER = ("jms", "mcd.", "root.")  # the JMS, mcd and MQMD properties (lower case): not the application's own


def user_properties(properties: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The message's user-defined properties, as v3 answers them (ibm-mq-usr-*, userProperties): those of the usr
    folder under their names without "usr.", not the queue manager's own (MQTopicString, mq*) nor JMS, mcd or MQMD
    synonyms (formats/rest-messaging.tsv, ibm-mq-usr-NAME)."""
    out = []
    for name, value in properties:
        lower = name.lower()
        if lower.startswith("usr."):
            out.append((name[4:], value))
        elif not lower.startswith(_NOT_USER) and not (lower.startswith("mq") and not lower.startswith("mq_usr")):
            out.append((name, value))
    return out


def _text(md: MessageDescriptor, body: bytes) -> bytes:
    """The body as UTF-8 text; MQRC_FORMAT_ERROR (the message left on the queue, as IBM leaves it) if it is not text."""
    if not is_text(md):
        raise MQIError(mq.MQRC_FORMAT_ERROR)
    return text_of(md, body)


def _get(queue: str, version: int, query: dict[str, str], *, browse: bool, qmgr: str) -> Operation:
    msg_id, correl_id = _filters(query, version)
    wait = _int_param(query, "wait", 0, MAX_WAIT_MS) / 1000

    def run(layer: MessageLayer, session: SessionState) -> tuple[MessageDescriptor, bytes]:
        if browse:
            return layer.get(session, queue, browse=True, first=True, msg_id=msg_id, correl_id=correl_id, convert=_text)
        # One get: the text is made before the message is taken, so a message that is not text stays on the queue, as
        # IBM's syncpoint get leaves it; it needs GET authority only, as on IBM (formats/rest-messaging.tsv).
        return layer.get(session, queue, msg_id=msg_id, correl_id=correl_id, convert=_text)

    def respond(result: tuple[MessageDescriptor, bytes] | MQIError) -> Response:
        if isinstance(result, MQIError):
            if result.reason == mq.MQRC_NO_MSG_AVAILABLE:
                return Response(204)
            return _mq_failure(result, queue, qmgr)
        md, text = result
        return Response(200, (("Content-Type", TEXT_PLAIN), *descriptor_headers(md, version)), text)

    return Operation(queue, run, respond, wait=wait, kind="browse" if browse else "get")


# ---------------------------------------------------------------------- message list


def summary(md: MessageDescriptor, version: int) -> dict[str, object]:
    """One message of a message list: its descriptor without the payload."""
    item: dict[str, object] = {
        "messageId": render_id(md.msg_id, version),
        "correlationId": render_correl_id(md.correl_id, version),
        "format": md.format.rstrip(),
        "persistence": _PERSISTENCE_NAMES.get(md.persistence, "nonPersistent"),
        "expiry": "unlimited" if md.expiry == mq.MQEI_UNLIMITED else md.expiry * 100,
        "putDate": _iso(md.put_date, md.put_time),
        "replyTo": md.reply_to_q.strip() + ("@" + md.reply_to_qmgr.strip() if md.reply_to_qmgr.strip() else ""),
        "backoutCount": md.backout_count,
    }
    if version >= 3:
        item["priority"] = md.priority
        item["userProperties"] = dict(user_properties(md.properties))
    return item


def _iso(date: str, clock: str) -> str:
    """PutDate YYYYMMDD and PutTime HHMMSSTH (GMT) as ISO 8601."""
    if len(date) != 8 or len(clock) < 6:
        return ""
    hundredths = clock[6:8] or "00"
    return f"{date[:4]}-{date[4:6]}-{date[6:8]}T{clock[:2]}:{clock[2:4]}:{clock[4:6]}.{hundredths}0Z"


def _list(queue: str, version: int, query: dict[str, str], *, qmgr: str) -> Operation:
    msg_id, correl_id = _filters(query, version)
    limit = _int_param(query, "limit", DEFAULT_LIST_LIMIT, DEFAULT_LIST_LIMIT)

    def run(layer: MessageLayer, session: SessionState) -> list[MessageDescriptor]:
        del session
        path = layer.resolve(queue)
        if any(q.attrs.get(mq.MQIA_INHIBIT_GET) == mq.MQQA_GET_INHIBITED for q in path):
            return []  # IBM: a get-inhibited queue lists as empty
        now = layer.clock()
        out: list[MessageDescriptor] = []
        for m in layer.take_all(path[-1].name):
            if len(out) >= limit:
                break
            if m.expired(now) or (msg_id is not None and m.md.msg_id != msg_id) or (correl_id is not None and m.md.correl_id != correl_id):
                continue
            out.append(replace(m.md, expiry=m.remaining_expiry(now)))
        return out

    def respond(result: list[MessageDescriptor] | MQIError) -> Response:
        if isinstance(result, MQIError):
            return _mq_failure(result, queue, qmgr)
        return json_response(200, {"messages": [summary(md, version) for md in result]})

    return Operation(queue, run, respond, kind="list")
