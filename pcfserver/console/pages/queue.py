"""One queue: create it, its properties (alter, delete), its messages (browse, detail, put, get, clear, move, live tail)
and its authority records.

Every change of a definition is an MQSC command shown before it runs (``action=preview``) and run with
``run_mqsc`` (``action=run``); messages are put, got and browsed through the message layer under the viewer's
messaging session, as the REST API's messaging does.  Browsing never removes a message: it reads the queue's
committed messages in delivery order, after the same authority and get-inhibit checks as MQGET with browse.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pcfserver import mq, names
from pcfserver.console import forms
from pcfserver.console.commands import Ran, field_errors, run_mqsc
from pcfserver.console.messages import PERSISTENCE_CHOICES, body_of, descriptor_rows, hex_id, parse_hex_id, preview, put_time
from pcfserver.console.web import NEW, SECURITY_HEADERS, ConsoleContext, PageRequest, page, redirect, route
from pcfserver.dialects import mqsc
from pcfserver.engine import property_names
from pcfserver.engine.authority import operation_allowed
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.engine.messaging import FORMAT_NONE, FORMAT_STRING
from pcfserver.rest.http import Response

if TYPE_CHECKING:
    from pcfserver.engine.messages import StoredMessage
    from pcfserver.engine.registry import Queue

NOUNS = {mq.MQQT_LOCAL: "QLOCAL", mq.MQQT_MODEL: "QMODEL", mq.MQQT_ALIAS: "QALIAS", mq.MQQT_REMOTE: "QREMOTE"}
CREATE_ORDER = ("QLOCAL", "QALIAS", "QREMOTE", "QMODEL")
PAGE_SIZES = (10, 25, 50, 100)
TAIL_ROWS = 100
# The tabs of a queue: (path below the queue, label, changes something, queue types that have it).
TABS: tuple[tuple[str, str, bool, frozenset[str]], ...] = (
    ("", "Properties", False, frozenset(NOUNS.values())),
    ("/messages", "Messages", False, frozenset(("QLOCAL", "QALIAS"))),
    ("/put", "Put", True, frozenset(("QLOCAL", "QALIAS", "QREMOTE"))),
    ("/get", "Get one", True, frozenset(("QLOCAL", "QALIAS"))),
    ("/clear", "Clear", True, frozenset(("QLOCAL",))),
    ("/move", "Move", True, frozenset(("QLOCAL",))),
    ("/tail", "Live tail", False, frozenset(("QLOCAL", "QALIAS"))),
    ("/security", "Security", False, frozenset(NOUNS.values())),
)


# -- shared ----------------------------------------------------------------------------------------------------


def _reason(error: MQIError) -> str:
    return f"{names.reason_name(error.reason) or 'reason'} ({error.reason})"


def _queue_page(ctx: ConsoleContext, queue: Queue, tab: str, template: str, status: int = 200, **values: object) -> Response:
    """A tab of a queue's page: the queue's header, the tabs the viewer may use, then the tab's own content."""
    noun = NOUNS.get(queue.qtype, "QLOCAL")
    depth, readers, writers = ctx.engine.messaging.status(queue.name) if queue.qtype == mq.MQQT_LOCAL else (None, 0, 0)
    attrs = queue.attrs
    stamps = [
        f"{label} {attrs.get(date)} {attrs.get(clock)}" for label, date, clock in (
            ("created", mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME), ("altered", mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME))
        if str(attrs.get(date, "")).strip()
    ]
    topic = _topic_of(ctx, queue)
    tabs = [
        (path, label) for path, label, changes, types in TABS
        if noun in types and (ctx.viewer.can_change or not changes) and (topic is None or path in _TOPIC_ALIAS_TABS)
    ]
    return page(
        ctx, template, status, title=f"{queue.name} · {dict((p, label) for p, label in tabs).get(tab, '')}", request_path="/queues",
        queue=queue, noun=noun, depth=depth, max_depth=queue.attrs.get(mq.MQIA_MAX_Q_DEPTH),
        description=str(queue.attrs.get(mq.MQCA_Q_DESC, "") or "").rstrip(), tabs=tabs, tab=tab, stamps=stamps,
        handles=(readers, writers) if depth is not None else None, topic=topic, **values,
    )


_TOPIC_ALIAS_TABS = frozenset(("", "/put", "/security"))  # an alias of a topic: a put publishes, nothing is got or browsed


def _topic_of(ctx: ConsoleContext, queue: Queue) -> str | None:
    """The topic string an alias of a topic (TARGTYPE(TOPIC)) publishes on; None for any other queue."""
    if queue.qtype != mq.MQQT_ALIAS or queue.attrs.get(mq.MQIA_BASE_TYPE, mq.MQOT_Q) != mq.MQOT_TOPIC:
        return None
    found = ctx.engine.objects.get(mq.MQOT_TOPIC, str(queue.attrs.get(mq.MQCA_BASE_OBJECT_NAME, "")))
    return str(found.attrs.get(mq.MQCA_TOPIC_STRING, "")) if found is not None else ""


def _missing(ctx: ConsoleContext, name: str) -> Response:
    return page(ctx, "message.html", 404, title="Not found", text=f"There is no queue {name} (or you may not display it).")


def _queue(ctx: ConsoleContext, name: str) -> Queue | None:
    """The queue, when it exists and the viewer may display it."""
    queue = ctx.engine.queue(name)
    if queue is None:
        return None
    if ctx.identity is not None and not operation_allowed(ctx.engine.authority, ctx.identity, mq.MQOT_Q, name, mq.MQAUTH_DISPLAY):
        return None
    return queue


def _read_only(ctx: ConsoleContext, what: str) -> Response | None:
    """The answer to a read-only viewer who opens a page whose only purpose is a change (no control is shown to them)."""
    if ctx.viewer.can_change:
        return None
    return page(ctx, "message.html", 403, title="Not allowed", text=f"Your role may display and browse but not {what}.")


QueueHandler = Callable[[ConsoleContext, PageRequest, "Queue"], Response]


def on_queue(method: str, tab: str, *, messaging: bool = False, read_only: str = "") -> Callable[[QueueHandler], QueueHandler]:
    """Registers a page of one queue (``/queues/NAME`` + ``tab``): the handler gets the queue, which exists and which the
    viewer may display (else the page says it is not there); ``read_only`` names what a read-only viewer cannot do
    there (a page whose only purpose is a change)."""

    def register(handler: QueueHandler) -> QueueHandler:
        def run(ctx: ConsoleContext, request: PageRequest) -> Response:
            name = request.params[0]
            queue = _queue(ctx, name)
            if queue is None:
                return _missing(ctx, name)
            if read_only and (refused := _read_only(ctx, read_only)) is not None:
                return refused
            return handler(ctx, request, queue)

        route(method, r"/queues/([^/]+)" + tab, messaging=messaging)(run)
        return handler

    return register



def _action(request: PageRequest) -> str:
    return "run" if request.field("action") == "run" else "preview"


# -- create ----------------------------------------------------------------------------------------------------


@route("GET", "/queues/" + NEW)
def new_queue(ctx: ConsoleContext, request: PageRequest) -> Response:
    if (refused := _read_only(ctx, "create queues")) is not None:
        return refused
    noun = request.arg("type", "QLOCAL").upper()
    noun = noun if noun in forms.QUEUE_NOUNS else "QLOCAL"
    form = forms.queue_form(noun, qmgr=ctx.engine.qmgr_name).with_values(request.query)  # (a form carried through a sign-in)
    return page(ctx, "queue_new.html", title="Create a queue", request_path="/queues", noun=noun, nouns=CREATE_ORDER, form=form,
                name=request.arg("name"), errors={}, command="", ran=None)


@route("POST", "/queues/" + NEW)
def create_queue(ctx: ConsoleContext, request: PageRequest) -> Response:
    noun = request.field("type", "QLOCAL").upper()
    noun = noun if noun in forms.QUEUE_NOUNS else "QLOCAL"
    name = request.field("name").strip()
    switch = request.field("switch").upper()
    if switch in forms.QUEUE_NOUNS:  # another type chosen: its fields, with what was typed (less the old type's defaults)
        typed = forms.changed_from(forms.queue_form(noun, qmgr=ctx.engine.qmgr_name), request.form)
        form = forms.queue_form(switch, qmgr=ctx.engine.qmgr_name).with_values(typed)
        return page(ctx, "queue_new.html", title="Create a queue", request_path="/queues", noun=switch, nouns=CREATE_ORDER, form=form,
                    name=name, errors={}, command="", ran=None)
    form = forms.queue_form(noun, qmgr=ctx.engine.qmgr_name)
    built = forms.define_command(form, name, request.form, ccsid=ctx.engine.ccsid)
    shown = form.with_values(request.form)
    values: dict[str, Any] = {"title": "Create a queue", "request_path": "/queues", "noun": noun, "nouns": CREATE_ORDER, "form": shown, "name": name}
    if not built.ok:
        return page(ctx, "queue_new.html", 422, errors=built.errors, command="", ran=None, **values)
    if _action(request) != "run" or forms.stale(request.form, built):
        errors = {"": forms.STALE} if _action(request) == "run" else {}
        return page(ctx, "queue_new.html", errors=errors, command=built.command, ran=None, **values)
    ran = run_mqsc(ctx, built.command)
    if ran.ok:
        return redirect(f"/queues/{_path(name)}?created=1")
    return page(ctx, "queue_new.html", 422, errors=field_errors(ran), command=built.command, ran=ran, **values)


def _path(name: str) -> str:
    return quote(name, safe="")


# -- properties, alter, delete -----------------------------------------------------------------------------------


def _properties(ctx: ConsoleContext, queue: Queue, request: PageRequest | None, status: int = 200, **values: object) -> Response:
    noun = NOUNS.get(queue.qtype, "QLOCAL")
    form = forms.queue_form(noun, queue.attrs, ctx.engine.qmgr_name)
    if request is not None:
        form = form.with_values(request.form)
    values.setdefault("errors", {})
    values.setdefault("command", "")
    values.setdefault("ran", None)
    values.setdefault("created", False)
    delete = f"DELETE {noun}({mqsc.quote(queue.name)})"
    return _queue_page(ctx, queue, "", "queue_properties.html", status, form=form, delete_command=delete, **values)


@route("GET", r"/queues/([^/]+)/delete")
def delete_redirect(ctx: ConsoleContext, request: PageRequest) -> Response:
    return redirect(f"/queues/{_path(request.params[0])}")


@on_queue("POST", "/delete")
def delete_queue(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    noun = NOUNS.get(queue.qtype, "QLOCAL")
    command = f"DELETE {noun}({mqsc.quote(queue.name)})"
    if noun == "QLOCAL" and request.field("purge") == "1":
        command += " PURGE"
    ran = run_mqsc(ctx, command)
    if not ran.ok:
        return _properties(ctx, queue, None, 422, command=command, ran=ran)
    return page(ctx, "queue_ran.html", title=f"Deleted {queue.name}", request_path="/queues", name=queue.name, command=command, ran=ran)


# -- messages: browse, detail, live tail --------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _browsable(ctx: ConsoleContext, queue: Queue) -> list[StoredMessage]:
    """The queue's committed, unexpired messages in delivery order, as a browse sees them (never removed)."""
    layer = ctx.engine.messaging
    session = ctx.session()
    try:
        path = layer.resolve(queue.name)
    except MQIError as error:
        raise _Refused(f"The queue cannot be browsed: {_reason(error)}.") from None
    if not operation_allowed(ctx.engine.authority, session.identity, mq.MQOT_Q, queue.name, mq.MQAUTH_BROWSE):
        raise _Refused(f"You may not browse {queue.name} (MQRC_NOT_AUTHORIZED).")
    if any(q.attrs.get(mq.MQIA_INHIBIT_GET) == mq.MQQA_GET_INHIBITED for q in path):
        raise _Refused(f"Gets are inhibited on {queue.name}: a browse finds no message (MQRC_GET_INHIBITED).")
    base = path[-1]
    if base.qtype != mq.MQQT_LOCAL:
        raise _Refused(f"{queue.name} does not resolve to a local queue.")
    now = layer.clock()
    return [m for m in layer.take_all(base.name) if not m.expired(now)]


def _row(m: StoredMessage) -> dict[str, object]:
    md = m.md
    return {
        "seq": m.seq, "msg_id": hex_id(md.msg_id), "correl_id": hex_id(md.correl_id) if any(md.correl_id) else "",
        "put": put_time(md), "persistent": md.persistence == mq.MQPER_PERSISTENT, "priority": md.priority,
        "format": md.format.rstrip(), "length": len(m.body), "preview": preview(md, m.body),
    }


@on_queue("GET", "/messages", messaging=True)
def messages(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    msg_filter, correl_filter = request.arg("msgid").strip(), request.arg("correlid").strip()
    size = int(request.arg("size")) if request.arg("size").isdigit() and int(request.arg("size")) in PAGE_SIZES else 25
    number = max(1, int(request.arg("page"))) if request.arg("page").isdigit() else 1
    errors = {}
    want_msg = parse_hex_id(msg_filter) if msg_filter else None
    want_correl = parse_hex_id(correl_filter) if correl_filter else None
    if msg_filter and want_msg is None:
        errors["msgid"] = "A message identifier is up to 48 hexadecimal digits."
    if correl_filter and want_correl is None:
        errors["correlid"] = "A correlation identifier is up to 48 hexadecimal digits."
    try:
        found = _browsable(ctx, queue)
    except _Refused as refused:
        return _queue_page(ctx, queue, "/messages", "queue_messages.html", 403, refused=refused.text, rows=[], total=0, pages=1,
                           number=1, size=size, sizes=PAGE_SIZES, msgid=msg_filter, correlid=correl_filter, errors=errors)
    if not errors:
        found = [m for m in found if (want_msg is None or m.md.msg_id == want_msg) and (want_correl is None or m.md.correl_id == want_correl)]
    else:
        found = []
    total = len(found)
    pages = max(1, -(-total // size))
    number = min(number, pages)
    rows = [_row(m) for m in found[(number - 1) * size:number * size]]
    return _queue_page(ctx, queue, "/messages", "queue_messages.html", 200 if not errors else 422, refused="", rows=rows, total=total,
                       pages=pages, number=number, size=size, sizes=PAGE_SIZES, msgid=msg_filter, correlid=correl_filter, errors=errors)


def _one_message(ctx: ConsoleContext, queue: Queue, hex_msg_id: str) -> StoredMessage | Response:
    """The message a detail page names by its MsgId (browsed: it stays on the queue), or the page that says why not."""
    wanted = bytes.fromhex(hex_msg_id)
    try:
        found = next((m for m in _browsable(ctx, queue) if m.md.msg_id == wanted), None)
    except _Refused as refused:
        return _queue_page(ctx, queue, "/messages", "queue_message.html", 403, refused=refused.text, md=None, rows=[], body=None, got=False)
    if found is None:
        return _queue_page(ctx, queue, "/messages", "queue_message.html", 404, refused="No message on the queue has this identifier (it may have been got).",
                           md=None, rows=[], body=None, got=False)
    return found


@on_queue("GET", "/messages/([0-9A-Fa-f]{48})", messaging=True)
def message_detail(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    found = _one_message(ctx, queue, request.params[1])
    if isinstance(found, Response):
        return found
    return _message_view(ctx, queue, "/messages", found.md, found.body, got=False)


@on_queue("GET", "/messages/([0-9A-Fa-f]{48})/raw", messaging=True)
def message_bytes(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    """The body's bytes as they are, to save (browsing: the message stays on the queue)."""
    found = _one_message(ctx, queue, request.params[1])
    if isinstance(found, Response):
        return found
    filename = f"{queue.name}-{request.params[1].lower()}.bin".replace("/", "_")
    headers = (("Content-Type", "application/octet-stream"), ("Content-Disposition", f'attachment; filename="{filename}"'),
               ("Cache-Control", "no-store"), *SECURITY_HEADERS)
    return Response(200, headers, found.body)


def _message_view(ctx: ConsoleContext, queue: Queue, tab: str, md: MessageDescriptor, body: bytes, *, got: bool, status: int = 200) -> Response:
    return _queue_page(ctx, queue, tab, "queue_message.html", status, refused="", md=md, msg_id=hex_id(md.msg_id), rows=descriptor_rows(md),
                       properties=md.properties, body=body_of(md, body), got=got)


@on_queue("GET", "/tail", messaging=True)
def tail(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    since = request.arg("since")
    try:
        found = _browsable(ctx, queue)
    except _Refused as refused:
        return _queue_page(ctx, queue, "/tail", "queue_tail.html", 403, refused=refused.text, rows=[], since=0)
    if request.hx and since.isdigit():
        rows = [_row(m) for m in sorted((m for m in found if m.seq > int(since)), key=lambda m: m.seq)][-TAIL_ROWS:]
        rows.reverse()  # newest first
        return page(ctx, "queue_tail_rows.html", queue=queue, rows=rows, since=int(since), checked=put_time_now(ctx))
    start = max((m.seq for m in found), default=0)  # what arrives later has a higher sequence number
    return _queue_page(ctx, queue, "/tail", "queue_tail.html", refused="", rows=[], since=start, checked=put_time_now(ctx))


def put_time_now(ctx: ConsoleContext) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(ctx.now())) + " GMT"


# -- put and get -------------------------------------------------------------------------------------------------


def _max_length(ctx: ConsoleContext, queue: Queue) -> int:
    """MAXMSGL of the local queue the name leads to; for a remote queue or an alias of a topic, the queue manager's."""
    try:
        attrs = ctx.engine.messaging.resolve(queue.name)[-1].attrs
    except MQIError:
        attrs = ctx.engine.qmgr_attrs()
    value = attrs.get(mq.MQIA_MAX_MSG_LENGTH)
    return value if isinstance(value, int) else 0


def _put_page(ctx: ConsoleContext, queue: Queue, status: int = 200, **values: object) -> Response:
    values.setdefault("errors", {})
    values.setdefault("done", None)
    values.setdefault("fields", {})
    return _queue_page(ctx, queue, "/put", "queue_put.html", status, max_length=_max_length(ctx, queue), **values)


@on_queue("GET", "/put", read_only="put messages")
def put_form(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    return _put_page(ctx, queue)


def _properties_of(text: str) -> tuple[tuple[tuple[str, str], ...], str]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            return (), f"Line {number} is not name=value."
        if property_names.property_name_error(key.strip()):
            return (), f"Line {number}: {property_names.explain(key.strip())}"
        out.append((key.strip(), value.strip()))
    return tuple(out), ""


@on_queue("POST", "/put", messaging=True)
def put_message(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    fields = {key: request.field(key) for key in ("body", "persistence", "priority", "properties", "correlid")}
    errors: dict[str, str] = {}
    upload = request.files.get("file", b"")
    body = upload if upload else fields["body"].encode("utf-8")
    persistence = PERSISTENCE_CHOICES.get(fields["persistence"], None)
    priority: int | None = None
    if fields["priority"]:
        if not fields["priority"].isdigit() or int(fields["priority"]) > 9:
            errors["priority"] = "A priority is 0 to 9."
        else:
            priority = int(fields["priority"])
    properties, problem = _properties_of(fields["properties"])
    if problem:
        errors["properties"] = problem
    correl_id = parse_hex_id(fields["correlid"]) if fields["correlid"].strip() else None
    if fields["correlid"].strip() and correl_id is None:
        errors["correlid"] = "A correlation identifier is up to 48 hexadecimal digits."
    limit = _max_length(ctx, queue)
    if limit and len(body) > limit:
        errors["file" if upload else "body"] = f"The message is {len(body)} bytes; {queue.name} takes at most {limit} (MAXMSGL)."
    if errors:
        return _put_page(ctx, queue, 422, errors=errors, fields=fields)
    try:
        md = ctx.engine.messaging.put(
            ctx.session(), queue.name, body, persistence=persistence, priority=priority, correl_id=correl_id,
            format=FORMAT_NONE if upload else FORMAT_STRING, properties=properties, coded_char_set_id=1208,
        )
    except MQIError as error:
        return _put_page(ctx, queue, 422, errors={"": f"The put failed: {_reason(error)}."}, fields=fields)
    browsable = queue.qtype != mq.MQQT_REMOTE and _topic_of(ctx, queue) is None
    return _put_page(ctx, queue, done={"msg_id": hex_id(md.msg_id), "length": len(body), "browsable": browsable}, fields={})


@on_queue("GET", "/get", read_only="get messages")
def get_form(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    return _queue_page(ctx, queue, "/get", "queue_get.html", md=None, problem="")


@on_queue("POST", "/get", messaging=True)
def get_message(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    try:
        md, body = ctx.engine.messaging.get(ctx.session(), queue.name)
    except MQIError as error:
        text = f"{queue.name} has no message to get." if error.reason == mq.MQRC_NO_MSG_AVAILABLE else f"The get failed: {_reason(error)}."
        return _queue_page(ctx, queue, "/get", "queue_get.html", 200 if error.reason == mq.MQRC_NO_MSG_AVAILABLE else 422, md=None, problem=text)
    return _message_view(ctx, queue, "/get", md, body, got=True)


# -- clear and move ----------------------------------------------------------------------------------------------


@on_queue("GET", "/clear", read_only="clear queues")
def clear_form(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    return _queue_page(ctx, queue, "/clear", "queue_clear.html", command=f"CLEAR QLOCAL({mqsc.quote(queue.name)})", ran=None)


@on_queue("POST", "/clear")
def clear_queue(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    command = f"CLEAR QLOCAL({mqsc.quote(queue.name)})"
    ran = run_mqsc(ctx, command)
    return _queue_page(ctx, queue, "/clear", "queue_clear.html", 200 if ran.ok else 422, command=command, ran=ran)


def _move_command(source: str, target: str, kind: str) -> str:
    command = f"MOVE QLOCAL({mqsc.quote(source)}) TOQLOCAL({mqsc.quote(target)})"
    return command + (" TYPE(ADD)" if kind == "ADD" else "")


@on_queue("GET", "/move", read_only="move messages")
def move_form(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    return _queue_page(ctx, queue, "/move", "queue_move.html", target="", kind="MOVE", errors={}, command="", ran=None)


@on_queue("POST", "/move")
def move_queue(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    target = request.field("target").strip()
    kind = "ADD" if request.field("type") == "ADD" else "MOVE"
    values: dict[str, object] = {"target": target, "kind": kind}
    if not target or len(target) > 48 or any(c in target for c in "'\"() ,\r\n\t"):
        return _queue_page(ctx, queue, "/move", "queue_move.html", 422, errors={"target": "Name a local queue (up to 48 characters)."},
                           command="", ran=None, **values)
    command = _move_command(queue.name, target, kind)
    ran: Ran | None = run_mqsc(ctx, command) if _action(request) == "run" else None
    status = 422 if ran is not None and not ran.ok else 200
    return _queue_page(ctx, queue, "/move", "queue_move.html", status, errors={}, command=command, ran=ran, **values)


# -- security ----------------------------------------------------------------------------------------------------


def _entries(words: Sequence[str]) -> dict[str, str]:
    out = {}
    for word in words:
        key, _, rest = word.partition("(")
        out[key] = rest[:-1] if rest.endswith(")") else rest
    return out


@on_queue("GET", "/security")
def security(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    command = f"DISPLAY AUTHREC PROFILE({mqsc.quote(queue.name)}) OBJTYPE(QUEUE)"
    parsed = mqsc.parse(command).message
    assert parsed is not None
    answer = ctx.execute(parsed)
    records = [_entries(mqsc.display_entries(m, "authrec")) for m in answer if m.comp_code == mq.MQCC_OK and m.parameters]
    reasons = {m.reason for m in answer if m.comp_code != mq.MQCC_OK}
    lines: tuple[str, ...] = ()
    if reasons and mq.MQRC_UNKNOWN_ENTITY not in reasons:  # no record for the profile is not a failure here
        lines = tuple(mqsc.render_answer(parsed, answer).lines)
    return _queue_page(ctx, queue, "/security", "queue_security.html", command=command, records=records, lines=lines)


# -- properties (last: its pattern takes any name) ----------------------------------------------------------------


@on_queue("GET", "")
def properties(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    return _properties(ctx, queue, None, created=request.arg("created") == "1")


@on_queue("POST", "")
def alter_queue(ctx: ConsoleContext, request: PageRequest, queue: Queue) -> Response:
    noun = NOUNS.get(queue.qtype, "QLOCAL")
    form = forms.queue_form(noun, queue.attrs, ctx.engine.qmgr_name)
    built = forms.alter_command(form, queue.name, request.form, ccsid=ctx.engine.ccsid)
    if not built.ok:
        return _properties(ctx, queue, request, 422, errors=built.errors)
    if _action(request) != "run" or forms.stale(request.form, built):
        return _properties(ctx, queue, request, command=built.command, errors={"": forms.STALE} if _action(request) == "run" else {})
    ran = run_mqsc(ctx, built.command)
    if not ran.ok:
        return _properties(ctx, queue, request, 422, command=built.command, ran=ran, errors=field_errors(ran))
    fresh = ctx.engine.queue(queue.name) or queue
    return _properties(ctx, fresh, None, command=built.command, ran=ran)
