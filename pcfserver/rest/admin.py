"""IBM MQ's administrative REST API as pure logic (sans-IO).

    POST /ibmmq/rest/v1|v2|v3/admin/action/qmgr/{qmgr}/mqsc     runCommand (MQSC text) or runCommandJSON
    GET  /ibmmq/rest/v1|v2|v3/admin/qmgr[/{qmgr}]                the queue manager and its state (status=: qmgr_resource.py)
    GET  /ibmmq/rest/v1|v2|v3/admin/installation                 this installation
    GET|POST|PATCH|DELETE /ibmmq/rest/v1/admin/qmgr/{qmgr}/queue[/{name}]   the v1 queue resource (queue_resource.py)
    GET /ibmmq/rest/v1/admin/qmgr/{qmgr}/channel[/{name}]                  the v1 channel resource (channel_resource.py)

An mqsc request becomes an :class:`AdminOperation`: the shell runs ``operation.run(execute)``
inside one engine operation (``execute`` applies one PCF command under the caller's identity),
so the whole MQSC command applies whole or not at all and its answer is released only once
durable.  runCommand runs the text through the MQSC dialect (the REST form of MQCMD_ESCAPE) and
answers each response's lines as ``text``; runCommandJSON turns the JSON into the same MQSC
command (string values quoted, so their case is kept; value words bare) and answers each
response's attributes as ``parameters`` (lower-case MQSC keywords, numbers as numbers).  A
failed command answers HTTP 200 with non-zero completion and reason codes in its item and
``overallCompletionCode`` 2, ``overallReasonCode`` 3008 (MQRCCF_COMMAND_FAILED), and the AMQ
lines in ``message``; choices and their reasons are in ``formats/rest-admin.tsv``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol
from urllib.parse import unquote

from pcfserver import kinds, mq
from pcfserver.codec import IntegerList, Message, String
from pcfserver.dialects import CommandSyntaxError, keyword_parameter, keyword_values, mqsc
from pcfserver.dialects.keywords import is_string_parameter
from pcfserver.dialects.outcome import Execute, failure
from pcfserver.dialects.tables import STATUS_COMMANDS, vocabulary
from pcfserver.rest import channel_resource, gateway, installation_resource, qmgr_resource, queue_resource
from pcfserver.rest.http import CSRF_HEADER, Request, Response, error, json_response

_MQSC = re.compile(r"/ibmmq/rest/v([123])/admin/action/qmgr/([^/]+)/mqsc")
# A trailing slash is the URL without it (JAX-RS matching, which mqweb's Liberty uses; published clients build
# .../admin/qmgr/${name ?? ''}): formats/rest-admin.tsv, trailing_slash.
_QMGR = re.compile(r"/ibmmq/rest/v([123])/admin/qmgr(?:/([^/]+))?/?")
_INSTALLATION = re.compile(r"/ibmmq/rest/v([123])/admin/installation(?:/([^/]+))?/?")
_DISPLAY_ONLY = re.compile(r"\s*(DISPLAY|DIS|DISP|DISPL|DISPLA|PING)\b", re.IGNORECASE)
_SPECIAL = re.compile(r"\s*(?:DISPLAY|DIS)\s+(QMSTATUS|CMDSERV)\b(.*)\Z", re.IGNORECASE | re.DOTALL)
_TABLES = {
    mq.MQCMD_INQUIRE_Q: "queue",
    mq.MQCMD_INQUIRE_Q_STATUS: "status",
    mq.MQCMD_INQUIRE_Q_MGR: "qmgr",
    **{k.command("INQUIRE"): k.key for k in kinds.kinds()},
    mq.MQCMD_INQUIRE_AUTH_RECS: "authrec",
    mq.MQCMD_INQUIRE_ENTITY_AUTH: "entauth",
    mq.MQCMD_INQUIRE_CHLAUTH_RECS: "chlauth",
    mq.MQCMD_INQUIRE_PROT_POLICY: "policy",
    **{getattr(mq, command): table for command, table in STATUS_COMMANDS.items()},
}
"""The attribute table whose keywords name each display's answers."""
_QUALIFIER_TABLES = {
    "QMGR": "qmgr",
    "AUTHREC": "authrec",
    "ENTAUTH": "entauth",
    "CHLAUTH": "chlauth",
    "POLICY": "policy",
    **{word: k.key for word, k in kinds.by_qualifier().items()},
    **{table.upper(): table for table in STATUS_COMMANDS.values()},
}
"""The attribute table a runCommandJSON qualifier's keywords come from (queues otherwise)."""


class _Runs(Protocol):
    def run(self, execute: Execute) -> Response: ...


# IBM's v1 object resources: the URL, the request checked (or its error answer), the kind the access log names
_V1_RESOURCES: tuple[tuple[re.Pattern[str], Callable[[Request, str, str | None], _Runs | Response], str], ...] = (
    (queue_resource.PATH, queue_resource.parse, "queue"),
    (channel_resource.PATH, channel_resource.parse, "channel"),
)


@dataclass(frozen=True, slots=True)
class AdminOperation:
    """An MQSC command for the shell to run inside one engine operation."""

    run: Callable[[Execute], Response]
    changes: bool  # whether it may change something (chooses the identity of a user with several roles)
    kind: str = ""  # for the log
    target: str = ""  # through the REST gateway: the queue manager it is for (empty: this one)


class AdminApi:
    """The administrative REST API of one queue manager."""

    def __init__(self, qmgr_name: str, *, remote: bool = False, gateway_default: bool = False) -> None:
        self.qmgr_name = qmgr_name
        self.gateway_default = gateway_default  # mqweb's mqRestGatewayQmgr names this queue manager
        self.remote = remote  # a queue manager reached through the gateway, not this one

    def matches(self, path: str) -> bool:
        return path.startswith("/ibmmq/rest/v") and "/admin/" in path

    def handle(self, request: Request) -> Response | AdminOperation:
        path, method = request.path, request.method
        found = _MQSC.fullmatch(path)
        if found is not None:
            if method != "POST":
                return error("method_not_allowed", method, path, extra=(("Allow", "POST"),))
            if request.header(CSRF_HEADER) is None:
                return error("csrf_missing", CSRF_HEADER)
            qmgr = unquote(found.group(2))
            routed = self._route(request, qmgr)
            if routed is not None:
                if isinstance(routed, Response):
                    return routed
                remote = AdminApi(qmgr, remote=True)._mqsc(request)
                return remote if isinstance(remote, Response) else replace(remote, target=qmgr)
            return self._mqsc(request)
        found = _QMGR.fullmatch(path)
        if found is not None:
            if method != "GET":
                return error("method_not_allowed", method, path, extra=(("Allow", "GET"),))
            wanted = unquote(found.group(2)) if found.group(2) else None
            asked = qmgr_resource.parse(request.query)
            if isinstance(asked, Response):
                return asked
            chosen, state = asked
            routed = self._route(request, wanted) if wanted is not None else None
            if isinstance(routed, Response):
                return routed
            if state is not None and state != "running":
                return json_response(200, {"qmgr": []})  # this server's queue manager, and a partner that answers, run
            if chosen:  # the status object, read from the queue manager itself (through the gateway for a partner)
                return AdminOperation(qmgr_resource.status_run(routed or self.qmgr_name, chosen), False, "qmgr", target=routed or "")
            if routed is not None:
                # The partner answered the gateway, so it runs; IBM gives a remote queue manager's name and state only.
                answer = json_response(200, {"qmgr": [{"name": routed, "state": "running"}]})
                return AdminOperation(lambda execute: answer, False, "qmgr", target=routed)
            return json_response(200, {"qmgr": [{"name": self.qmgr_name, "state": "running"}]})
        found = _INSTALLATION.fullmatch(path)
        if found is not None:
            if method != "GET":
                return error("method_not_allowed", method, path, extra=(("Allow", "GET"),))
            return installation_resource.answer(unquote(found.group(2)) if found.group(2) else None, request.query)
        for pattern, parse, kind in _V1_RESOURCES:
            found = pattern.fullmatch(path)
            if found is None:
                continue
            qmgr = unquote(found.group(1))
            routed = self._route(request, qmgr)
            if isinstance(routed, Response):
                return routed
            parsed = parse(request, qmgr, found.group(2))
            if isinstance(parsed, Response):
                return parsed
            return AdminOperation(parsed.run, method != "GET", kind, target=routed or "")
        return error("not_found", path)

    def _route(self, request: Request, qmgr: str) -> Response | str | None:
        """Where a request for ``qmgr`` goes: None here, the queue manager's name through the gateway
        (the ibm-mq-rest-gateway-qmgr header names this queue manager), or IBM's error answer."""
        gateway_qmgr = (request.header(gateway.HEADER) or "").strip()
        if gateway_qmgr and gateway_qmgr != self.qmgr_name:
            return error("gateway_not_local", gateway_qmgr)  # the gateway must be local to this server
        if qmgr == self.qmgr_name:
            return None
        return qmgr if gateway_qmgr or self.gateway_default else error("admin_unknown_qmgr", qmgr)

    # -- the mqsc resource --------------------------------------------------------------------

    def _mqsc(self, request: Request) -> Response | AdminOperation:
        try:
            body = json.loads(request.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            return error("bad_json", exc)
        if not isinstance(body, dict):
            return error("bad_json", "the body is not a JSON object")
        kind = body.get("type")
        if kind == "runCommand":
            params = body.get("parameters")
            text = params.get("command") if isinstance(params, dict) else None
            if not isinstance(text, str) or not text.strip():
                return error("bad_attribute", "parameters.command", "a non-empty string is required")
            command_text: str = text
            return AdminOperation(lambda execute: self._run_command(command_text, execute), _DISPLAY_ONLY.match(text) is None, "runCommand")
        if kind == "runCommandJSON":
            try:
                text, display = mqsc_text(body)
            except ValueError as exc:
                return error("bad_attribute", *exc.args)
            untyped = _untyped_channel(body)
            return AdminOperation(lambda execute: self._run_json(text, execute, untyped), not display, "runCommandJSON")
        return error("bad_attribute", "type", "must be runCommand or runCommandJSON")

    def _special(self, text: str) -> tuple[dict[str, object] | None, list[str]] | None:
        """DISPLAY CMDSERV, which the queue manager answers about itself (a message only, no attributes:
        formats/rest-admin.tsv says why), and DISPLAY QMSTATUS of a queue manager reached through the gateway."""
        found = _SPECIAL.match(text)
        if found is None:
            return None
        if found.group(1).upper() == "CMDSERV":
            return None, ["AMQ8027I: IBM MQ Command Server Status . . : Running"]
        if not self.remote:  # this queue manager's own Inquire Queue Manager Status answers, responseParameters and all
            return None
        # a queue manager reached through the gateway: when it started is not known here
        status_line = f"   QMNAME({self.qmgr_name})".ljust(43) + "STATUS(RUNNING)"
        return {"qmname": self.qmgr_name, "status": "RUNNING"}, ["AMQ8705I: Display Queue Manager Status Details.", status_line]

    def _run_command(self, text: str, execute: Execute) -> Response:
        special = self._special(text)
        if special is not None:
            return _answer([(mq.MQCC_OK, mq.MQRC_NONE, {"text": mqsc.command_text(special[1])})])
        outcome = mqsc.run(mqsc.one_line(text).strip(), execute)
        items: list[tuple[int, int, dict[str, object]]] = [(b.comp_code, b.reason, {"text": mqsc.command_text(b.lines)}) for b in outcome.blocks]
        return _answer(items or [(mq.MQCC_OK, mq.MQRC_NONE, {"text": []})])

    def _run_json(self, text: str, execute: Execute, untyped: str | None = None) -> Response:
        special = self._special(text)
        if special is not None:
            params, lines = special
            return _answer([(mq.MQCC_OK, mq.MQRC_NONE, {"message": lines} if params is None else {"parameters": params})])
        if untyped is not None:
            text = _typed(text, untyped, execute)
        try:
            parsed = mqsc.parse(text)
        except CommandSyntaxError as exc:  # not run: a syntax error, an object type this server does not keep
            lines = mqsc.syntax_outcome(exc).lines
            return _answer([(mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED, {"message": lines})])
        command = parsed.message
        if command is None:
            return _answer([(mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED, {"message": []})])
        answer = execute(command)
        bad = failure(answer)
        if bad is not None:  # runmqsc's lines say why (rendered only for a failure)
            return _answer([(mq.MQCC_FAILED, bad.reason, {"message": mqsc.run(text, lambda _: answer).lines})])
        items: list[tuple[int, int, dict[str, object]]] = []
        table = _TABLES.get(command.command)
        for message in answer:
            if table is not None and message.parameters:
                items.append((message.comp_code, message.reason, {"parameters": keyword_values(message.parameters, table=table)}))
        if not items:
            items.append((answer[-1].comp_code if answer else 0, answer[-1].reason if answer else 0, {}))
        return _answer(items)


def _answer(items: Sequence[tuple[int, int, dict[str, object]]]) -> Response:
    """IBM's mqsc answer: one commandResponse item per response; overall codes say whether any failed."""
    response = [{"completionCode": cc, "reasonCode": rc, **extra} for cc, rc, extra in items]
    failed = any(cc == mq.MQCC_FAILED for cc, _, _ in items)
    warned = any(cc == mq.MQCC_WARNING for cc, _, _ in items)
    overall_cc = mq.MQCC_FAILED if failed else mq.MQCC_WARNING if warned else mq.MQCC_OK
    overall_rc = mq.MQRCCF_COMMAND_FAILED if failed else 0
    return json_response(200, {"commandResponse": response, "overallReasonCode": overall_rc, "overallCompletionCode": overall_cc})


# ---------------------------------------------------------------------- runCommandJSON -> MQSC


def _untyped_channel(body: dict[str, Any]) -> str | None:
    """The channel an ALTER CHANNEL body names without a chltype (formats/rest-admin.tsv), else None."""
    command, qualifier, name, params = body.get("command"), body.get("qualifier"), body.get("name"), body.get("parameters") or {}
    if not (isinstance(command, str) and command.upper() in ("ALTER", "ALT") and isinstance(qualifier, str) and qualifier.upper() in ("CHANNEL", "CHL")):
        return None
    if not isinstance(name, str) or not isinstance(params, dict) or any(isinstance(k, str) and k.lower() == "chltype" for k in params):
        return None
    return name


def _typed(text: str, channel: str, execute: Execute) -> str:
    """``text`` (ALTER CHANNEL(name) ...) with the channel's own CHLTYPE after its name, as runmqsc requires;
    unchanged when the channel cannot be inquired (the command then gets runmqsc's own answer)."""
    answer = execute(Message(mq.MQCMD_INQUIRE_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, channel), IntegerList(mq.MQIACF_CHANNEL_ATTRS, (mq.MQIACH_CHANNEL_TYPE,)))))
    if failure(answer) is not None:
        return text
    word = next((keyword_values(m.parameters, table="channel").get("chltype") for m in answer if m.get(mq.MQIACH_CHANNEL_TYPE) is not None), None)
    verb, _, rest = text.partition(" ")
    head = f"CHANNEL({_quoted(channel)})"
    if not isinstance(word, str) or not rest.startswith(head):
        return text
    return f"{verb} {head} CHLTYPE({word}){rest[len(head):]}"


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _value(keyword: str, value: Any, table: str = "queue") -> str:
    if isinstance(value, bool):
        raise ValueError(f"parameters.{keyword}", "true and false are not MQSC values; use the keyword's value words")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        pid = keyword_parameter(keyword, table=table)
        if pid is None:
            pid = keyword_parameter(keyword, table="qmgr")
        if pid is not None and is_string_parameter(pid):
            return _quoted(value)  # a string attribute: its case is kept
        if re.fullmatch(r"[A-Za-z0-9_.*/%-]+", value):
            return value
        if pid is None:
            # a keyword no table here knows (SET POLICY's SIGNER('CN=Alice')) goes to MQSC as text, which answers it as
            # runmqsc would (a syntax error for an object type this server does not keep), not with a 400 of its own
            return _quoted(value)
        raise ValueError(f"parameters.{keyword}", f"{value!r} is not a value word")
    if isinstance(value, list):
        return ",".join(_value(keyword, v, table) for v in value)
    raise ValueError(f"parameters.{keyword}", "must be a string, a number or a list of them")


def _flag_word(key: str, value: Any) -> str | None:
    """An MQSC keyword that takes no value, in runCommandJSON: ``"replace": "yes"``, ``"notrigger": "yes"``, or the word a
    display answers (``"share": "NOSHARE"``); ``"no"`` stands for the keyword's opposite (NOREPLACE; none for FORCE).
    The word to write ('' for none); None when ``key`` is not such a keyword (formats/rest-admin.tsv, flag_keywords)."""
    flags = vocabulary("mqsc").flags
    found = flags.get(key.upper())
    if found is None:
        return None
    parameter, own = found
    siblings = {word: meant for word, (where, meant) in flags.items() if where == parameter}
    word = value.upper() if isinstance(value, str) else None
    if word == "YES":
        return key.upper()
    if word == "NO":
        return next((other for other, meant in siblings.items() if meant != own), "")
    if word is not None and word in siblings:
        return word
    raise ValueError(f"parameters.{key}", f"must be yes, no or one of {', '.join(sorted(siblings))}")


def mqsc_text(body: dict[str, Any]) -> tuple[str, bool]:
    """The MQSC command a runCommandJSON body stands for, and whether it only displays.

    Raises ValueError(attribute, why) for a body IBM answers with 400."""
    command, qualifier, name = body.get("command"), body.get("qualifier"), body.get("name")
    if not isinstance(command, str) or not re.fullmatch(r"[A-Za-z]+", command):
        raise ValueError("command", "an MQSC verb (define, alter, delete, display, clear, ...) is required")
    if not isinstance(qualifier, str) or not re.fullmatch(r"[A-Za-z]+", qualifier):
        raise ValueError("qualifier", "an MQSC object type (qlocal, queue, qmgr, ...) is required")
    if name is not None and (not isinstance(name, str) or not name or len(name) > 48):
        raise ValueError("name", "must be an object name of 1 to 48 characters")
    words = [command.upper(), qualifier.upper() + (f"({_quoted(name)})" if name else "")]
    params = body.get("parameters", {})
    if not isinstance(params, dict):
        raise ValueError("parameters", "must be a JSON object")
    for key, value in params.items():
        if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z]+", key):
            raise ValueError(f"parameters.{key}", "not an MQSC keyword")
        flag = _flag_word(key, value)
        if flag is not None:
            if flag:
                words.append(flag)
        elif key.lower() == "where":
            if not isinstance(value, str):
                raise ValueError("parameters.where", "must be a string such as 'curdepth gt 10'")
            words.append(f"WHERE({value})")
        else:
            words.append(f"{key.upper()}({_value(key.lower(), value, _QUALIFIER_TABLES.get(qualifier.upper(), 'queue'))})")
    display = command.upper() in ("DISPLAY", "DIS")
    selected = body.get("responseParameters")
    if selected is not None:
        if not isinstance(selected, list) or not all(isinstance(s, str) and re.fullmatch(r"[A-Za-z]+", s) for s in selected):
            raise ValueError("responseParameters", "must be a list of MQSC keywords")
        if display:
            words += ["ALL"] if any(s.lower() == "all" for s in selected) else [s.upper() for s in selected]
    return " ".join(words), display
