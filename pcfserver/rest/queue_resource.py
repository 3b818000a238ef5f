"""IBM's administrative REST API v1 queue resource as pure logic (sans-IO).

    GET    /ibmmq/rest/v1/admin/qmgr/{qmgr}/queue[/{name}]   Inquire Queue, and Inquire Queue Status for status=
    POST   /ibmmq/rest/v1/admin/qmgr/{qmgr}/queue            Create Queue (Copy Queue with like=)
    PATCH  /ibmmq/rest/v1/admin/qmgr/{qmgr}/queue/{name}     Change Queue
    DELETE /ibmmq/rest/v1/admin/qmgr/{qmgr}/queue/{name}     Delete Queue

IBM documents this resource in version 1 of the REST API only (MQ 9.0.4 to 10.0); monitoring scripts, Node-RED flows and
dashboards still call it.  Each request becomes an :class:`~pcfserver.rest.admin.AdminOperation` whose ``run(execute)``
sends PCF commands through ``execute``, as the mqsc resource does, so it runs under the caller's identity, through the
gateway to another queue manager, and answers only once what it changed is durable.

The JSON names of attributes are the ``rest`` column of ``formats/queue-attributes.tsv`` and
``formats/queue-status-attributes.tsv``; value words are the ``rest`` rows of ``formats/dialect-values.tsv``.  What IBM
does not document and this server chose is in ``formats/rest-admin.tsv`` (rows ``queue_*``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter
from pcfserver.dialects.outcome import Execute, failure
from pcfserver.dialects.tables import REST, queue_attributes, status_attributes, vocabulary
from pcfserver.engine.filters import GENERIC_NAME, OBJECT_NAME
from pcfserver.names import reason_name
from pcfserver.rest.fields import Field, Refused, fields_of, json_value, put, put_fields, refusal, selection, values_of
from pcfserver.rest.http import CSRF_HEADER, Request, Response, error, json_response

PATH = re.compile(r"/ibmmq/rest/v1/admin/qmgr/([^/]+)/queue(?:/([^/]+))?/?")  # a trailing slash as admin.py's
_TYPES = {"local": mq.MQQT_LOCAL, "alias": mq.MQQT_ALIAS, "remote": mq.MQQT_REMOTE, "model": mq.MQQT_MODEL, "cluster": mq.MQQT_CLUSTER}
_OPERATORS = {
    "lessThan": (mq.MQCFOP_LESS, mq.MQCFOP_LESS),
    "greaterThan": (mq.MQCFOP_GREATER, mq.MQCFOP_GREATER),
    "lessThanOrEqualTo": (mq.MQCFOP_NOT_GREATER, mq.MQCFOP_NOT_GREATER),
    "greaterThanOrEqualTo": (mq.MQCFOP_NOT_LESS, mq.MQCFOP_NOT_LESS),
    "equalTo": (mq.MQCFOP_EQUAL, mq.MQCFOP_LIKE),  # the second: a string value with a wildcard
    "notEqualTo": (mq.MQCFOP_NOT_EQUAL, mq.MQCFOP_NOT_LIKE),
}
# Always returned, beside name and type, for a queue of the type (IBM's response body attributes for queues).
_ALWAYS = {mq.MQQT_REMOTE: ("remote.qmgrName", "remote.queueName"), mq.MQQT_ALIAS: ("alias.targetName",)}
_DYNAMIC = "dynamic.type"  # DefinitionType of a local queue created from a model queue (model.type on the model)
_QUERY = {
    "GET": {"attributes", "status", "applicationHandle", "name", "type", "filter", "commandScope", "queueSharingGroupDisposition"},
    "POST": {"like", "noReplace", "commandScope"},
    "PATCH": {"force", "commandScope"},
    "DELETE": {"purge", "keepAuthorityRecords", "commandScope", "queueSharingGroupDisposition"},
}
_ZOS_ONLY = ("commandScope", "queueSharingGroupDisposition")


@cache
def config_fields() -> dict[str, Field]:
    """The queue attributes by JSON name (attributes=...)."""
    return fields_of(queue_attributes())


@cache
def status_fields() -> dict[str, Field]:
    """The queue status attributes by JSON name (status=...)."""
    return fields_of(status_attributes())


# -- the request ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueueRequest:
    """What a request to the queue resource asks, checked; :meth:`run` does it through ``execute``."""

    method: str
    qmgr: str
    name: str | None  # from the path
    query: dict[str, str]
    body: dict[str, Any] | None

    def run(self, execute: Execute) -> Response:
        try:
            if self.method == "GET":
                return _get(self, execute)
            if self.method == "POST":
                return _post(self, execute)
            if self.method == "PATCH":
                return _patch(self, execute)
            return _delete(self, execute)
        except Refused as refused:
            return refused.response


def parse(request: Request, qmgr: str, name: str | None) -> QueueRequest | Response:
    """The request checked (method, CSRF header, query parameters, body), or IBM's error answer."""
    method, path = request.method, request.path
    allowed = ("GET", "POST") if name is None else ("GET", "PATCH", "DELETE")
    if method not in allowed:
        return error("method_not_allowed", method, path, extra=(("Allow", ", ".join(allowed)),))
    if method != "GET" and request.header(CSRF_HEADER) is None:
        return error("csrf_missing", CSRF_HEADER)
    query: dict[str, str] = {}
    for key, value in parse_qsl(request.query, keep_blank_values=True):
        if key not in _QUERY[method]:
            return error("queue_bad_query", key, method)
        if key in _ZOS_ONLY:
            return error("queue_zos_only", key)
        if key in query:
            return error("bad_query", key, "given more than once")
        query[key] = value
    if method == "GET" and name is not None and "name" in query:
        return error("bad_query", "name", "given with a queue name in the URL")
    body: dict[str, Any] | None = None
    if method in ("POST", "PATCH"):
        media = (request.header("content-type") or "application/json").split(";")[0].strip().lower()
        if media != "application/json":
            return error("bad_media_type")
        try:
            loaded = json.loads(request.body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError) as exc:
            return error("bad_json", exc)
        if not isinstance(loaded, dict):
            return error("bad_json", "the body is not a JSON object")
        body = loaded
    return QueueRequest(method, qmgr, unquote(name) if name is not None else None, query, body)


# -- GET --------------------------------------------------------------------------------------


def _filter(text: str) -> tuple[bool, Parameter]:
    """filter=name:operator:value as a PCF filter, and whether it tests a status attribute."""
    name, _, rest = text.partition(":")
    operator, _, value = rest.partition(":")
    is_status = name in status_fields()
    field = status_fields().get(name) or config_fields().get(name)
    if not rest or operator not in _OPERATORS:
        raise refusal("bad_query", "filter", f"{text!r}: use attribute:operator:value with one of {', '.join(_OPERATORS)}")
    if field is None or len(field.parameters) != 1 or field.index >= 0 or field.true_when is not None:
        raise refusal("bad_query", "filter", f"{name!r} is not a queue attribute a filter can test")
    exact, wild = _OPERATORS[operator]
    parameter = field.parameters[0]
    if field.is_string:
        return is_status, StringFilter(parameter, wild if "*" in value else exact, value)
    if field.words is not None:
        if value not in field.words.to_value:
            raise refusal("bad_query", "filter", f"{value!r} is not a value of {name}: {', '.join(field.words.to_value)}")
        return is_status, IntegerFilter(parameter, exact, int(field.words.to_value[value]))
    try:
        return is_status, IntegerFilter(parameter, exact, int(value))
    except ValueError:
        raise refusal("bad_query", "filter", f"{value!r} is not a number") from None


def _name(values: dict[int, Any]) -> str:
    return str(values.get(mq.MQCA_Q_NAME, "")).rstrip()


def _queue_json(values: dict[int, Any], chosen: list[str], status: dict[int, Any] | None, status_chosen: list[str]) -> dict[str, Any]:
    qtype = int(values.get(mq.MQIA_Q_TYPE, 0))
    words = vocabulary(REST).words[mq.MQIA_Q_TYPE].to_word
    item: dict[str, Any] = {"name": _name(values), "type": words.get(qtype, qtype)}
    fields = config_fields()
    shown = (*_ALWAYS.get(qtype, ()), *chosen)
    # a local queue's DefinitionType shows as dynamic.type, below, and only for one created from a model queue
    put_fields(item, shown if qtype == mq.MQQT_MODEL else [n for n in shown if n != "model.type"], fields, values)
    definition = values.get(mq.MQIA_DEFINITION_TYPE)
    if qtype == mq.MQQT_LOCAL and definition in (mq.MQQDT_PERMANENT_DYNAMIC, mq.MQQDT_TEMPORARY_DYNAMIC, mq.MQQDT_SHARED_DYNAMIC):
        put(item, _DYNAMIC, json_value(fields["model.type"], values))
    if status is not None:
        put_fields(item, status_chosen, status_fields(), status)
    return item


@cache
def _always_parameters() -> tuple[int, ...]:
    """What every inquiry asks for besides the attributes wanted: the type, the DefinitionType that makes dynamic.type,
    and the attributes IBM always returns for remote and alias queues (_ALWAYS)."""
    fields = config_fields()
    return (mq.MQIA_Q_TYPE, mq.MQIA_DEFINITION_TYPE, *(p for names in _ALWAYS.values() for n in names for p in fields[n].parameters))


# Inquire Queue reports a local queue's depth and open counts too (DISPLAY QLOCAL CURDEPTH): a GET that asks no other
# status, and filters on nothing else, is answered by one inquiry instead of two (the answers are the same numbers).
_REPORTED_BY_INQUIRE_Q = frozenset((mq.MQIA_CURRENT_Q_DEPTH, mq.MQIA_OPEN_INPUT_COUNT, mq.MQIA_OPEN_OUTPUT_COUNT))


def _selectors(chosen: list[str], fields: dict[str, Field], always: tuple[int, ...]) -> tuple[int, ...]:
    """The PCF selectors of an inquiry: only what the answer shows (MQIACF_ALL when that is everything), as an
    inquiry that builds every attribute of thousands of queues costs several times one that builds a few."""
    if len(chosen) == len(fields):
        return (mq.MQIACF_ALL,)
    return tuple(dict.fromkeys((*always, *(p for name in chosen for p in fields[name].parameters))))


def _pcf(command: int, parameters: Sequence[Parameter]) -> Message:
    has_filter = any(isinstance(p, (IntegerFilter, StringFilter)) for p in parameters)
    return Message(command, tuple(parameters), version=mq.MQCFH_VERSION_3 if has_filter else mq.MQCFH_VERSION_1)


def _found(answer: list[Message]) -> Iterator[Message]:
    return (m for m in answer if m.comp_code != mq.MQCC_FAILED and m.parameters)


def _command_failed(name: str, reason: int) -> Refused:
    if reason == mq.MQRC_UNKNOWN_OBJECT_NAME:
        return Refused(error("queue_not_found", name, reason, reason_name(reason)))
    if reason == mq.MQRC_NOT_AUTHORIZED:
        return Refused(error("queue_not_authorized", name, reason=reason))
    return Refused(error("queue_command_failed", name, reason, reason_name(reason), reason=reason))


def _get(req: QueueRequest, execute: Execute) -> Response:
    query = req.query
    if "applicationHandle" in query:
        raise refusal("queue_not_supported", "applicationHandle")
    qtype_word = query.get("type", "all")
    if qtype_word != "all" and qtype_word not in _TYPES:
        raise refusal("bad_query", "type", f"{qtype_word!r}: one of all, {', '.join(_TYPES)}")
    chosen = selection(query.get("attributes"), config_fields(), ("*",), "attributes")
    status_chosen = selection(query.get("status"), status_fields(), ("*", "status"), "status")
    status_filter: Parameter | None = None
    config_filter: Parameter | None = None
    if "filter" in query:
        is_status, made = _filter(query["filter"])
        status_filter, config_filter = (made, None) if is_status else (None, made)
    pattern = req.name if req.name is not None else query.get("name", "*") or "*"
    generic = req.name is None
    if generic and not (OBJECT_NAME.match(pattern) or GENERIC_NAME.match(pattern)):
        raise refusal("bad_query", "name", f"{pattern!r}: a queue name, or the start of one followed by *")
    status_parameters = {p for n in status_chosen for p in status_fields()[n].parameters}
    one_inquiry = status_parameters <= _REPORTED_BY_INQUIRE_Q and (status_filter is None or status_filter.parameter in _REPORTED_BY_INQUIRE_Q)
    if one_inquiry and status_filter is not None:  # (a local queue's only: the others do not report them)
        config_filter, status_filter = status_filter, None
    parameters: list[Parameter] = [String(mq.MQCA_Q_NAME, pattern)]
    if qtype_word != "all":
        parameters.append(Integer(mq.MQIA_Q_TYPE, _TYPES[qtype_word]))
    extra = tuple(status_parameters) if one_inquiry else ()
    parameters.append(IntegerList(mq.MQIACF_Q_ATTRS, _selectors(chosen, config_fields(), (*_always_parameters(), *extra))))
    if config_filter is not None:
        parameters.append(config_filter)
    answer = execute(_pcf(mq.MQCMD_INQUIRE_Q, parameters))
    bad = failure(answer)
    if bad is not None and not (bad.reason == mq.MQRC_UNKNOWN_OBJECT_NAME and (generic or config_filter is not None)):
        raise _command_failed(pattern, bad.reason)
    queues = [values_of(m) for m in _found(answer)]
    locals_ = [q for q in queues if q.get(mq.MQIA_Q_TYPE) == mq.MQQT_LOCAL]
    if one_inquiry:
        statuses = {_name(q): q for q in locals_} if status_chosen else {}
    elif locals_:
        statuses = _statuses(pattern if generic else _name(locals_[0]), status_chosen, status_filter, execute)
    else:
        statuses = {}
    items = []
    for values in queues:
        status = statuses.get(_name(values))
        if status_filter is not None and status is None:
            continue  # a status filter keeps the queues whose status passes it (local queues only)
        items.append(_queue_json(values, chosen, status, status_chosen))
    return json_response(200, {"queue": items})


def _statuses(pattern: str, chosen: list[str], status_filter: Parameter | None, execute: Execute) -> dict[str, dict[int, Any]]:
    """Inquire Queue Status of the local queues ``pattern`` names: each one's status fields by queue name."""
    parameters: list[Parameter] = [
        String(mq.MQCA_Q_NAME, pattern),
        Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_STATUS),
        IntegerList(mq.MQIACF_Q_STATUS_ATTRS, _selectors(chosen, status_fields(), ())),
    ]
    if status_filter is not None:
        parameters.append(status_filter)
    answer = execute(_pcf(mq.MQCMD_INQUIRE_Q_STATUS, parameters))
    bad = failure(answer)
    if bad is not None and bad.reason != mq.MQRC_UNKNOWN_OBJECT_NAME:
        raise _command_failed(pattern, bad.reason)
    return {_name(values): values for values in map(values_of, _found(answer))}


# -- POST, PATCH, DELETE ----------------------------------------------------------------------


def _leaves(body: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in body.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _leaves(value, dotted + ".")
        else:
            yield dotted, value


def _settings(body: dict[str, Any]) -> list[Parameter]:
    """The body's attributes (name and type aside) as PCF parameters."""
    out: dict[int, Parameter] = {}
    several: dict[int, int | None] = {}  # parameter -> the value its one name given true stands for
    for dotted, value in _leaves({k: v for k, v in body.items() if k not in ("name", "type")}):
        field = config_fields().get(dotted)
        if field is None:
            raise refusal("bad_attribute", dotted, "not a queue attribute")
        if not field.settable:
            raise refusal("bad_attribute", dotted, "cannot be set: the queue manager keeps it")
        parameter = field.parameters[0]
        if field.true_when is not None:
            if not isinstance(value, bool):
                raise refusal("bad_attribute", dotted, "must be true or false")
            given = several.get(parameter)
            if value and given is not None:
                raise refusal("bad_attribute", dotted, "cannot be true with another event of the same attribute")
            several[parameter] = field.true_when if value else given
            continue
        if field.boolean:
            if not isinstance(value, bool):
                raise refusal("bad_attribute", dotted, "must be true or false")
            assert field.words is not None
            out[parameter] = Integer(parameter, int(field.words.to_value["true" if value else "false"]))
        elif field.words is not None:
            if not isinstance(value, str) or value not in field.words.to_value:
                raise refusal("bad_attribute", dotted, f"must be one of {', '.join(field.words.to_value)}")
            out[parameter] = Integer(parameter, int(field.words.to_value[value]))
        elif field.is_string:
            if not isinstance(value, str):
                raise refusal("bad_attribute", dotted, "must be a string")
            out[parameter] = String(parameter, value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise refusal("bad_attribute", dotted, "must be a whole number")
            out[parameter] = Integer(parameter, value)
    words = vocabulary(REST).words
    for parameter, given in several.items():
        # every name given false: the parameter's word "none" (MQQSIE_NONE for QServiceIntervalEvent)
        out[parameter] = Integer(parameter, given if given is not None else int(words[parameter].to_value["none"]))
    return list(out.values())


def _name_of(body: dict[str, Any]) -> str:
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 48:
        raise refusal("bad_attribute", "name", "a queue name of 1 to 48 characters is required")
    return name


def _type_of(body: dict[str, Any]) -> int | None:
    word = body.get("type")
    if word is None:
        return None
    if word not in _TYPES or word == "cluster":
        raise refusal("bad_attribute", "type", "must be local, alias, remote or model")
    return _TYPES[word]


def _existing_type(name: str, execute: Execute) -> int:
    answer = execute(Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, name), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_Q_TYPE,)))))
    _checked(name, answer)
    for message in _found(answer):
        qtype = message.get(mq.MQIA_Q_TYPE)
        if isinstance(qtype, Integer):
            return qtype.value
    raise _command_failed(name, mq.MQRC_UNKNOWN_OBJECT_NAME)


def _checked(name: str, answer: list[Message]) -> None:
    bad = failure(answer)
    if bad is not None:
        raise _command_failed(name, bad.reason)


def _post(req: QueueRequest, execute: Execute) -> Response:
    assert req.body is not None
    name, qtype = _name_of(req.body), _type_of(req.body)
    settings = _settings(req.body)
    replace = Integer(mq.MQIACF_REPLACE, mq.MQRP_NO if "noReplace" in req.query else mq.MQRP_YES)
    like = req.query.get("like")
    if like is not None:
        like_type = _existing_type(like, execute)
        if qtype is not None and qtype != like_type:
            raise refusal("bad_attribute", "type", f"must be the type of the queue {like} it is like")
        command = Message(
            mq.MQCMD_COPY_Q,
            (String(mq.MQCACF_FROM_Q_NAME, like), String(mq.MQCACF_TO_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, like_type), replace, *settings),
        )
    else:
        qtype = mq.MQQT_LOCAL if qtype is None else qtype
        command = Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), replace, *settings))
    _checked(name, execute(command))
    location = f"/ibmmq/rest/v1/admin/qmgr/{quote(req.qmgr, safe='')}/queue/{quote(name, safe='')}"
    return Response(201, (("Location", location),))


def _patch(req: QueueRequest, execute: Execute) -> Response:
    assert req.body is not None and req.name is not None
    name = req.name
    if "name" in req.body and req.body["name"] != name:
        raise refusal("bad_attribute", "name", "cannot be changed")
    settings = _settings(req.body)
    qtype = _existing_type(name, execute)
    wanted = _type_of(req.body)
    if wanted is not None and wanted != qtype:
        raise refusal("bad_attribute", "type", "cannot be changed")
    parameters: list[Parameter] = [String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), *settings]
    if "force" in req.query:
        parameters.append(Integer(mq.MQIACF_FORCE, mq.MQFC_YES))
    _checked(name, execute(Message(mq.MQCMD_CHANGE_Q, tuple(parameters))))
    return Response(204)


def _delete(req: QueueRequest, execute: Execute) -> Response:
    assert req.name is not None
    parameters: list[Parameter] = [String(mq.MQCA_Q_NAME, req.name)]
    if "purge" in req.query:
        parameters.append(Integer(mq.MQIACF_PURGE, mq.MQPO_YES))
    if "keepAuthorityRecords" in req.query:
        parameters.append(Integer(mq.MQIACF_REMOVE_AUTHREC, mq.MQRAR_NO))
    _checked(req.name, execute(Message(mq.MQCMD_DELETE_Q, tuple(parameters))))
    return Response(204)

