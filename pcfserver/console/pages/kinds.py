"""Every kind of object besides queues (formats/kinds.tsv): a server-paged list, a detail page with the
object's attributes and status, and the commands an administrator gives it (start, stop, ping, reset,
resolve, delete, create, alter), each an MQSC command shown with runmqsc's answer.

Nothing here names a kind in code but the columns a list shows first (``COLUMNS``): the kinds, their
nouns, subtypes and attributes come from ``pcfserver.kinds`` and the attribute tables, so a new row in
kinds.tsv is a new list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from pcfserver import kinds, mq
from pcfserver.codec import Message, String
from pcfserver.console import forms, secrets
from pcfserver.console.commands import Ran, field_errors, run_mqsc
from pcfserver.console.messages import PERSISTENCE_CHOICES, hex_id
from pcfserver.console.web import NEW_SEGMENT, PAGE_SIZES, ConsoleContext, ListQuery, PageRequest, page, route
from pcfserver.dialects import mqsc
from pcfserver.dialects.keywords import attribute, from_pcf_value, word_for, words_of
from pcfserver.dialects.tables import attributes_of, object_attributes
from pcfserver.engine.authority import operation_allowed
from pcfserver.engine.messages import MQIError
from pcfserver.engine.objects import reported
from pcfserver.engine.registry import NamedObject
from pcfserver.rest.http import Response

SORTS = ("name", "status")
KIND = r"/objects/([a-z]+)"

# The columns a list shows besides the name and its description (MQSC keywords of the kind's attribute table),
# and the keyword its type filter chooses by (the kind's subtype where it has one).
COLUMNS: dict[str, tuple[str, ...]] = {
    "channel": ("CHLTYPE", "TRPTYPE", "CONNAME", "XMITQ"),
    "listener": ("TRPTYPE", "PORT", "IPADDR", "CONTROL"),
    "service": ("SERVTYPE", "CONTROL", "STARTCMD"),
    "topic": ("TOPICSTR", "TYPE", "PUB", "SUB"),
    "sub": ("TOPICSTR", "DEST", "DESTQMGR", "SUBTYPE", "DURABLE"),
    "process": ("APPLTYPE", "APPLICID"),
    "namelist": ("NAMCOUNT", "NAMES"),
    "authinfo": ("AUTHTYPE", "CONNAME", "OCSPURL"),
    "comminfo": ("TYPE", "GRPADDR", "PORT"),
}
TYPE_FILTERS = {"sub": "SUBTYPE", "service": "SERVTYPE", "topic": "TYPE", "process": "APPLTYPE"}
# A second filter, a yes/no attribute a list may be narrowed by (its keyword, lower case, is the query parameter).
FLAG_FILTERS = {"sub": "DURABLE"}
TITLES = {
    "channel": "Channels", "listener": "Listeners", "service": "Services", "topic": "Topics", "sub": "Subscriptions",
    "process": "Processes", "namelist": "Namelists", "authinfo": "Authentication information objects",
    "comminfo": "Communication information objects",
}
SINGULAR = {"authinfo": "authentication information object", "comminfo": "communication information object", "sub": "subscription"}
_SENDING = frozenset((mq.MQCHT_SENDER, mq.MQCHT_SERVER, mq.MQCHT_CLUSSDR))
_NO_RESET = frozenset((mq.MQCHT_SVRCONN, mq.MQCHT_CLNTCONN))
_NO_START = frozenset((mq.MQCHT_CLNTCONN,))
_NO_LIST_STATUS = {"channel": "INACTIVE", "listener": "STOPPED", "service": "STOPPED"}


# ---------------------------------------------------------------------------------------------- the kinds

@dataclass(frozen=True, slots=True)
class Column:
    keyword: str
    parameter: int


@dataclass(frozen=True, slots=True)
class KindView:
    """A kind as the console shows it."""

    kind: kinds.Kind
    title: str
    singular: str
    columns: tuple[Column, ...]
    type_filter: Column | None  # the attribute the type filter chooses by
    types: tuple[str, ...]  # its words
    has_status: bool
    flag_filter: Column | None = None  # the attribute the second filter chooses by (FLAG_FILTERS)
    flag_words: tuple[str, ...] = ()  # its words

    @property
    def key(self) -> str:
        return self.kind.key

    @property
    def noun(self) -> str:
        return self.kind.noun


def _column(kind: kinds.Kind, keyword: str) -> Column | None:
    found = attribute(keyword, table=kind.key)
    return None if found is None else Column(keyword, found.parameter)


@cache
def views() -> dict[str, KindView]:
    out = {}
    for kind in kinds.kinds():
        columns = tuple(c for c in (_column(kind, k) for k in COLUMNS.get(kind.key, ())) if c is not None)
        type_filter: Column | None = None
        if kind.subtype:
            keyword = next((a.keyword("mqsc") for a in object_attributes(kind.key) if a.parameter == kind.subtype), "")
            type_filter = Column(keyword, kind.subtype) if keyword else None
        elif kind.key in TYPE_FILTERS:
            type_filter = _column(kind, TYPE_FILTERS[kind.key])
        types: tuple[str, ...] = ()
        if type_filter is not None:
            every = kind.subtype_all
            types = tuple(sorted(w for w, v in words_of(type_filter.parameter).items() if isinstance(v, int) and v != every and w != "ALL"))
        title = TITLES.get(kind.key, kind.key.capitalize() + "s")
        flag_filter = _column(kind, FLAG_FILTERS[kind.key]) if kind.key in FLAG_FILTERS else None
        flag_words = tuple(w for w, v in words_of(flag_filter.parameter).items() if isinstance(v, int) and w != "ALL") if flag_filter else ()
        out[kind.key] = KindView(
            kind, title, SINGULAR.get(kind.key, kind.key), columns, type_filter, types, kind.key in _NO_LIST_STATUS, flag_filter, flag_words
        )
    return out


def view_of(key: str) -> KindView | None:
    return views().get(key)


def shown(parameter: int, value: object) -> str:
    """A value as runmqsc shows it (a word for a number that has one, a list joined, bytes in hexadecimal)."""
    if isinstance(value, bytes):
        return value.hex().upper()
    if isinstance(value, (tuple, list)):
        return ", ".join(shown(parameter, v) for v in value)
    if isinstance(value, (int, str)):
        return str(from_pcf_value(parameter, value)).rstrip()
    return "" if value is None else str(value)


# ---------------------------------------------------------------------------------------------- status

def status_of(ctx: ConsoleContext, view: KindView, record: NamedObject) -> str:
    """The runtime status word of a channel, listener or service ('' for a kind without one)."""
    operations = ctx.engine.operations
    if view.key == "channel":
        current = operations.channels.get(record.name)
        if current is None:
            return "INACTIVE"
        return str(word_for(mq.MQIACH_CHANNEL_STATUS, current.status) or current.status)
    if view.key == "listener":
        return "RUNNING" if record.name in operations.listeners else "STOPPED"
    if view.key == "service":
        return "RUNNING" if record.name in operations.services else "STOPPED"
    return ""


def status_details(ctx: ConsoleContext, view: KindView, record: NamedObject) -> list[tuple[str, str]]:
    """What DISPLAY CHSTATUS / LSSTATUS / SVSTATUS would add: since when, the process, where."""
    operations = ctx.engine.operations
    if view.key == "channel":
        current = operations.channels.get(record.name)
        if current is None:
            return []
        out = [("Since", f"{current.date} {current.time}"), ("CONNAME", current.conname)]
        if current.xmitq:
            out.append(("XMITQ", current.xmitq))
        if current.remote:
            out.append(("RQMNAME", current.remote))
        return out
    table = operations.listeners if view.key == "listener" else operations.services if view.key == "service" else {}
    running = table.get(record.name)
    if running is None:
        return []
    out = [("Since", f"{running.date} {running.time}"), ("PID", str(running.pid))]
    if view.key == "listener":
        out += [("IPADDR", str(running.values.get(mq.MQCACH_IP_ADDRESS, ""))), ("PORT", str(running.values.get(mq.MQIACH_PORT, "")))]
    return out


_RUNTIME = {  # the status inquiry a topic or subscription page shows (DISPLAY TPSTATUS / SBSTATUS): command, naming parameter, table
    "topic": (mq.MQCMD_INQUIRE_TOPIC_STATUS, mq.MQCA_TOPIC_STRING, "tpstatus"),
    "sub": (mq.MQCMD_INQUIRE_SUB_STATUS, mq.MQCACF_SUB_NAME, "sbstatus"),
}
_RUNTIME_SHOWN = {  # what those pages show of the answer, in this order
    "topic": ("PUBCOUNT", "SUBCOUNT", "RETAINED", "LPUBDATE", "LPUBTIME", "LSUBDATE", "LSUBTIME", "ADMIN"),
    "sub": ("NUMMSGS", "LMSGDATE", "LMSGTIME", "ACTCONN", "DURABLE", "SUBTYPE", "SUBUSER", "RESMDATE", "RESMTIME"),
}


def runtime_status(ctx: ConsoleContext, view: KindView, record: NamedObject) -> list[tuple[str, str]]:
    """A topic's DISPLAY TPSTATUS or a subscription's DISPLAY SBSTATUS (under the viewer's identity), as (keyword,
    value): what publishes and subscribes there now, and what a subscription has received."""
    found = _RUNTIME.get(view.key)
    if found is None:
        return []
    command, naming, table = found
    name = str(record.attrs.get(mq.MQCA_TOPIC_STRING, "")) if view.key == "topic" else record.name
    if view.key == "topic" and not name:
        return []
    answers = ctx.execute(Message(command, (String(naming, name),)))
    if not answers or answers[0].reason != mq.MQRC_NONE:
        return []
    keywords = {attr.parameter: attr.keyword("mqsc") for attr in attributes_of(table)}
    values = {keywords.get(p.parameter, ""): shown(p.parameter, getattr(p, "value", "")) for p in answers[0].parameters}
    return [(keyword, values[keyword]) for keyword in _RUNTIME_SHOWN[view.key] if keyword in values]


def _destination(ctx: ConsoleContext, view: KindView, record: NamedObject) -> dict[str, object]:
    """A subscription's local destination queue (its page links to it), and whether that queue exists: ALTER SUB
    does not check DEST (IBM resolves it at publish time), so a page says when publications cannot reach it."""
    dest = str(record.attrs.get(mq.MQCACF_DESTINATION, "")).strip() if view.key == "sub" else ""
    remote = str(record.attrs.get(mq.MQCACF_DESTINATION_Q_MGR, "")).strip() not in ("", ctx.engine.qmgr_name)
    if not dest or remote:
        return {"destination": "", "destination_exists": True}
    return {"destination": dest, "destination_exists": ctx.engine.queue(dest) is not None}


_ENABLED_ONLY = frozenset((mq.MQCHT_RECEIVER, mq.MQCHT_SVRCONN, mq.MQCHT_CLUSRCVR))  # IBM START CHANNEL q088420_


def status_note(ctx: ConsoleContext, view: KindView, record: NamedObject) -> str:
    """What the status and the Start button mean for this object, where an administrator could be misled."""
    if view.key == "service" and not ctx.engine.operations.services_run():
        return ("This server does not run service programs (start it with --run-services to let it): Start is accepted, as IBM MQ "
                "accepts a start it cannot carry out, and the status stays STOPPED.")
    if view.key == "channel" and record.attrs.get(mq.MQIACH_CHANNEL_TYPE) in _ENABLED_ONLY:
        return ("Start only enables a channel of this type: it runs, and shows a status, while its partner or a client is "
                "connected (IBM MQ: \"the only action is to enable the channel, not start it\").")
    return ""


def actions(view: KindView, record: NamedObject, status: str) -> tuple[str, ...]:
    """The operational commands that apply to an object now (START ... RESOLVE), as MQSC verbs."""
    if view.key in ("listener", "service"):
        if view.key == "service" and not str(record.attrs.get(mq.MQCA_SERVICE_START_COMMAND, "")).strip():
            return ("STOP",) if status == "RUNNING" else ()
        return ("STOP",) if status == "RUNNING" else ("START",)
    if view.key != "channel":
        return ()
    chltype = record.attrs.get(mq.MQIACH_CHANNEL_TYPE, 0)
    out = []
    if chltype not in _NO_START:
        out.append("START")
        out.append("STOP")
    if chltype in _SENDING:
        out.append("PING")
    if chltype not in _NO_RESET:
        out.append("RESET")
    if chltype in _SENDING:
        out.append("RESOLVE")
    return tuple(out)


# ---------------------------------------------------------------------------------------------- the list

def kind_query(request: PageRequest, view: KindView) -> ListQuery:
    flag = (view.flag_filter.keyword.lower(), view.flag_words) if view.flag_filter else ("", ())
    return ListQuery.of(request, types=view.types, sorts=SORTS if view.has_status else ("name",), flag=flag)


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    description: str
    cells: tuple[str, ...]
    status: str


def _description(record: NamedObject) -> str:
    for parameter, value in record.attrs.items():
        if isinstance(value, str) and parameter in _DESCRIPTIONS:
            return value.strip()
    return ""


_DESCRIPTIONS = frozenset(
    a.parameter for k in kinds.kinds() for a in object_attributes(k.key) if a.keyword("mqsc") == "DESCR"
)


def visible(ctx: ConsoleContext, view: KindView, name: str) -> bool:
    return ctx.identity is None or operation_allowed(ctx.engine.authority, ctx.identity, view.kind.object_type, name, mq.MQAUTH_DISPLAY)


def rows_of(ctx: ConsoleContext, view: KindView, query: ListQuery) -> tuple[list[Row], int, int]:
    """One page of rows, how many objects match and how many SYSTEM ones are left out; only the page's rows are built."""
    table = ctx.engine.objects.by_type.get(view.kind.object_type, {})
    # (parameter, value) each object must show: what the type filter and the second filter chose
    wanted = [
        (column.parameter, chosen_value)
        for column, word in ((view.type_filter, query.type), (view.flag_filter, query.flag))
        if column is not None and word and isinstance(chosen_value := words_of(column.parameter).get(word), int)
    ]
    chosen: list[_Shown] = []
    hidden = 0
    for name in sorted(table):
        left_out = query.hides(name)
        if not left_out and not query.matches(name):
            continue
        shown_attrs = _Shown(ctx, view, table[name])
        if any(shown_attrs.get(parameter) != chosen_value for parameter, chosen_value in wanted):
            continue
        if not visible(ctx, view, name):
            continue
        if left_out:
            hidden += 1
            continue
        chosen.append(shown_attrs)
    if query.sort == "status":
        chosen.sort(key=lambda s: (status_of(ctx, view, s.record), s.record.name), reverse=query.descending)
    elif query.descending:
        chosen.reverse()
    start = (query.page - 1) * query.size
    rows = []
    for shown_attrs in chosen[start:start + query.size]:
        record = shown_attrs.record
        cells = []
        for column in view.columns:
            value: object = shown_attrs.get(column.parameter)
            if column.keyword == "NAMCOUNT" and value is None:
                names = record.attrs.get(mq.MQCA_NAMES)
                value = len(names) if isinstance(names, tuple) else 0
            cells.append(shown(column.parameter, value))
        rows.append(Row(record.name, _description(record), tuple(cells), status_of(ctx, view, record)))
    return rows, len(chosen), hidden


def _view(ctx: ConsoleContext, request: PageRequest) -> KindView | Response:
    """The kind the path names, or the page saying there is none."""
    view = view_of(request.params[0])
    return view if view is not None else _not_found(ctx, f"There is no kind of object {request.params[0]}.")


def _not_found(ctx: ConsoleContext, text: str) -> Response:
    return page(ctx, "message.html", 404, title="Not found", text=text)


@route("GET", KIND)
def kind_list(ctx: ConsoleContext, request: PageRequest) -> Response:
    view = _view(ctx, request)
    if isinstance(view, Response):
        return view
    query = kind_query(request, view)
    rows, total, hidden = rows_of(ctx, view, query)
    asked = query
    query, pages = query.within(total)
    if query is not asked:
        rows, total, hidden = rows_of(ctx, view, query)
    template = "kind_rows.html" if request.hx else "kinds.html"
    return page(ctx, template, title=view.title, view=view, query=query, rows=rows, total=total, hidden=hidden, pages=pages, sizes=PAGE_SIZES,
                request_path=f"/objects/{view.key}")


# ---------------------------------------------------------------------------------------------- one object

def attributes(ctx: ConsoleContext, view: KindView, record: NamedObject) -> list[tuple[str, str]]:
    """(keyword, value) of each attribute DISPLAY shows for the object (derived ones, a topic's TYPE, and defaults
    included), in the order DISPLAY shows them."""
    values = reported(ctx.engine, view.kind, record)
    out = []
    seen: set[int] = set()
    for attr in object_attributes(view.key):
        keyword = attr.keyword("mqsc")
        if not keyword or attr.access == "command" or attr.parameter in seen or attr.parameter not in values:
            continue
        seen.add(attr.parameter)
        out.append((keyword, secrets.shown(attr.parameter, shown(attr.parameter, values[attr.parameter]))))
    return out


class _Shown:
    """One object's attributes as DISPLAY shows them, looked up one at a time: the stored value, else what Inquire
    reports (a derived value or the default), which is worked out once for the object and only when first needed."""

    __slots__ = ("_ctx", "_reported", "_view", "record")

    def __init__(self, ctx: ConsoleContext, view: KindView, record: NamedObject) -> None:
        self._ctx, self._view, self.record = ctx, view, record
        self._reported: dict[int, object] | None = None

    def get(self, parameter: int) -> object:
        value = self.record.attrs.get(parameter)
        if value is not None:
            return value
        if self._reported is None:
            self._reported = dict(reported(self._ctx.engine, self._view.kind, self.record))
        return self._reported.get(parameter)


def _detail(ctx: ConsoleContext, view: KindView, record: NamedObject, status: int = 200, ran: Ran | None = None, **extra: object) -> Response:
    state = status_of(ctx, view, record)
    if view.key == "topic":
        extra.setdefault("topic_string", str(record.attrs.get(mq.MQCA_TOPIC_STRING, "")))
    extra.setdefault("published", "")
    extra.setdefault("publish_error", "")
    return page(
        ctx, "kind_detail.html", status, title=f"{view.singular.capitalize()} {record.name}", view=view, name=record.name,
        attributes=attributes(ctx, view, record), state=state, details=status_details(ctx, view, record), note=status_note(ctx, view, record),
        runtime=runtime_status(ctx, view, record),
        **_destination(ctx, view, record), **extra,
        actions=[(verb, _shown_command(view, verb, record.name)) for verb in actions(view, record, state)],
        delete_command=command_text(view, "DELETE", record.name, {}), ran=ran, request_path=f"/objects/{view.key}",
        subtype=shown(view.kind.subtype, record.attrs.get(view.kind.subtype)) if view.kind.subtype else "",
    )


def _shown_command(view: KindView, verb: str, name: str) -> str:
    """The command an action button runs, as its page shows it before it runs."""
    text = command_text(view, verb, name, {}) or ""
    return text.replace("ACTION(COMMIT)", "ACTION(COMMIT|BACKOUT)") if verb == "RESOLVE" else text


def _record(ctx: ConsoleContext, view: KindView, name: str) -> NamedObject | Response:
    """The object the path names, or the page saying there is none (or that the user may not display it)."""
    record = ctx.engine.objects.get(view.kind.object_type, name)
    if record is None or not visible(ctx, view, name):
        return _not_found(ctx, f"There is no {view.singular} {name} (or you may not display it).")
    return record


@route("GET", KIND + r"/([^/]+)")
def kind_detail(ctx: ConsoleContext, request: PageRequest) -> Response:
    view = _view(ctx, request)
    if isinstance(view, Response):
        return view
    changing = request.params[1] == NEW_SEGMENT or request.arg("edit") == "1"
    if changing and not ctx.viewer.can_change:
        return page(ctx, "message.html", 403, title="Not allowed", text=f"User {ctx.viewer.user} may display but not change anything.")
    if request.params[1] == NEW_SEGMENT:
        return create_form(ctx, request, view)
    record = _record(ctx, view, request.params[1])
    if isinstance(record, Response):
        return record
    if request.arg("edit") == "1":
        return alter_form(ctx, request, view, record)
    return _detail(ctx, view, record)


def command_text(view: KindView, verb: str, name: str, form: Mapping[str, list[str]]) -> str | None:
    """The MQSC command of an action button (None: not an action of this kind)."""
    target = f"{view.noun}({mqsc.quote(name)})"
    if verb == "DELETE":
        return f"DELETE {target}"
    if verb in ("START", "STOP") and view.key in ("channel", "listener", "service"):
        return f"{verb} {target}"
    if view.key != "channel":
        return None
    if verb in ("PING", "RESET"):
        return f"{verb} {target}"
    if verb == "RESOLVE":
        how = (form.get("resolve") or ["COMMIT"])[0].upper()
        return f"RESOLVE {target} ACTION({'BACKOUT' if how == 'BACKOUT' else 'COMMIT'})"
    return None


@route("POST", r"/objects/topic/([^/]+)/publish", messaging=True)
def publish(ctx: ConsoleContext, request: PageRequest) -> Response:
    """A test publication on a topic object's string, under the viewer's messaging identity (its PUB authority), as
    MQ Explorer's Test Publication does; the page then shows the topic's status with it counted."""
    view = view_of("topic")
    assert view is not None
    record = _record(ctx, view, request.params[0])
    if isinstance(record, Response):
        return record
    topic = str(record.attrs.get(mq.MQCA_TOPIC_STRING, ""))
    try:
        md = ctx.engine.pubsub.publish(
            ctx.session(), topic, request.field("body").encode("utf-8"), request.field("retain") == "1",
            PERSISTENCE_CHOICES.get(request.field("persistence")), held=False,
        )
    except MQIError as error:
        return _detail(ctx, view, record, 422, publish_error=f"The publication failed: {error.reason_name} ({error.reason}).")
    return _detail(ctx, view, record, published=hex_id(md.msg_id))  # (as the Put page shows ids)


@route("POST", KIND + r"/([^/]+)")
def kind_command(ctx: ConsoleContext, request: PageRequest) -> Response:
    view = _view(ctx, request)
    if isinstance(view, Response):
        return view
    if request.params[1] == NEW_SEGMENT:
        return create(ctx, request, view)
    name = request.params[1]
    record = _record(ctx, view, name)
    if isinstance(record, Response):
        return record
    verb = request.field("action").upper()
    if verb == "ALTER":
        return alter(ctx, request, view, record)
    text = command_text(view, verb, name, request.form)
    if text is None:
        return page(ctx, "message.html", 400, title="Not an action", text=f"{verb or 'Nothing'} is not an action on {forms.a_or_an(view.singular)}.")
    ran = run_mqsc(ctx, text)
    after = ctx.engine.objects.get(view.kind.object_type, name)
    if after is None:  # deleted
        return page(ctx, "ran.html", 200, title=f"{view.singular.capitalize()} {name} deleted", ran=ran,
                    back=f"/objects/{view.key}", back_label=f"Back to the {view.title.lower()}", request_path=f"/objects/{view.key}")
    return _detail(ctx, view, after, 200 if ran.ok else 422, ran)


# ---------------------------------------------------------------------------------------------- create and alter

def _form_page(ctx: ConsoleContext, view: KindView, form: forms.Form, *, name: str, creating: bool, status: int = 200,
               built: forms.Built | None = None, ran: Ran | None = None) -> Response:
    title = f"Create {forms.a_or_an(view.singular)}" if creating else f"Alter {view.singular} {name}"
    return page(
        ctx, "kind_form.html", status, title=title, view=view, form=form, name=name, creating=creating,
        errors=built.errors if built is not None else {}, command=built.command if built is not None else "", ran=ran,
        subtypes=forms.subtypes(view.key), request_path=f"/objects/{view.key}",
    )


def create_form(ctx: ConsoleContext, request: PageRequest, view: KindView) -> Response:
    try:
        form = forms.kind_form(view.key, request.arg("type"), qmgr=ctx.engine.qmgr_name)
    except ValueError:
        form = forms.kind_form(view.key, qmgr=ctx.engine.qmgr_name)
    # fields given in the query (a form sent after the session ended, carried through the sign-in) fill it again
    return _form_page(ctx, view, form.with_values(request.query), name=request.arg("name"), creating=True)


def create(ctx: ConsoleContext, request: PageRequest, view: KindView) -> Response:
    """DEFINE from the form: previewed (the command shown, nothing run) or run, then the new object's page."""
    try:
        form = forms.kind_form(view.key, request.field("type"), qmgr=ctx.engine.qmgr_name)
    except ValueError:
        return page(ctx, "message.html", 400, title="Not a type", text=f"A {view.singular} has no type {request.field('type')}.")
    name = request.field("name").strip()
    submitted: Mapping[str, list[str]] = request.form
    shown = request.field("shown")
    if shown and shown != form.subtype_word:  # the type was changed above fields of another type: only what was typed
        try:
            submitted = forms.changed_from(forms.kind_form(view.key, shown, qmgr=ctx.engine.qmgr_name), request.form)
        except ValueError:
            pass
    if request.field("step") == "fields":  # the type was changed: its fields, with what was typed so far
        return _form_page(ctx, view, form.with_values(submitted), name=name, creating=True)
    built = forms.define_command(form, name, submitted, ccsid=ctx.engine.ccsid)
    shown_form = form.with_values(submitted)
    if built.ok and request.field("step") != "preview" and forms.stale(request.form, built):
        built = replace(built, errors={"": forms.STALE})
        return _form_page(ctx, view, shown_form, name=name, creating=True, built=built)
    if not built.ok or request.field("step") == "preview":
        return _form_page(ctx, view, shown_form, name=name, creating=True, status=200 if built.ok else 422, built=built)
    ran = run_mqsc(ctx, built.command)
    record = ctx.engine.objects.get(view.kind.object_type, name)
    if not ran.ok or record is None:
        return _form_page(ctx, view, shown_form, name=name, creating=True, status=422, built=replace(built, errors=field_errors(ran)), ran=ran)
    return _detail(ctx, view, record, 200, ran)


def _alter_base(ctx: ConsoleContext, view: KindView, record: NamedObject) -> forms.Form:
    return forms.kind_form(view.key, current=record.attrs, qmgr=ctx.engine.qmgr_name)


def alter_form(ctx: ConsoleContext, request: PageRequest, view: KindView, record: NamedObject) -> Response:
    return _form_page(ctx, view, _alter_base(ctx, view, record).with_values(request.query), name=record.name, creating=False)


def alter(ctx: ConsoleContext, request: PageRequest, view: KindView, record: NamedObject) -> Response:
    """ALTER with the fields that differ from the object's current values: previewed or run."""
    form = _alter_base(ctx, view, record)
    built = forms.alter_command(form, record.name, request.form, ccsid=ctx.engine.ccsid)
    shown_form = form.with_values(request.form)
    if built.ok and request.field("step") != "preview" and forms.stale(request.form, built):
        built = replace(built, errors={"": forms.STALE})
        return _form_page(ctx, view, shown_form, name=record.name, creating=False, built=built)
    if not built.ok or request.field("step") == "preview":
        return _form_page(ctx, view, shown_form, name=record.name, creating=False, status=200 if built.ok else 422, built=built)
    ran = run_mqsc(ctx, built.command)
    after = ctx.engine.objects.get(view.kind.object_type, record.name) or record
    if not ran.ok:
        return _form_page(ctx, view, shown_form, name=record.name, creating=False, status=422, built=replace(built, errors=field_errors(ran)), ran=ran)
    return _detail(ctx, view, after, 200, ran)
