"""The registry as a script that recreates it (like IBM's dmpmqcfg), in MQSC or IBM i CL.

Asks for the queue manager, every object of every kind (formats/kinds.tsv), every queue and every channel authentication record (Inquire
Queue Manager, Inquire <kind> / Queue ``*`` ALL) and writes ``ALTER QMGR`` / ``CHGMQM`` for the queue
manager attributes that differ from a new queue manager's, one ``DEFINE <noun> ... REPLACE`` per
object (the default objects first; in CL the kinds IBM i has as CRTMQMCHL/CRTMQMLSR/... ``REPLACE(*YES)``, the others, and
objects with attributes CL has no keyword for, as a comment), then one ``DEFINE ... REPLACE``
(``CRTMQMQ ... REPLACE(*YES)``) per queue:
the default queues (SYSTEM.DEFAULT.*.QUEUE) first, as new queues take their attributes from
them, then the others by name.  Only attributes that differ from the default (the table
default for the default queues, the default queue of the type for the others) are written,
unless ``all_attributes``.  Channel authentication records come last, one ``SET CHLAUTH ... ACTION(REPLACE)``
each with every field (as dmpmqcfg writes them; IBM i has no CL command for them: a comment there).  Run through the console against a fresh server, the script recreates
the same queues.  A non-default attribute that CL has no keyword for is written as a comment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import cache

from pcfserver import kinds, mq
from pcfserver.codec.ccsid import DEFAULT_CCSID
from pcfserver.codec.model import ByteString, Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.dialects import ibmi, ibmi_authority, mqsc
from pcfserver.dialects.cl import continued
from pcfserver.dialects.outcome import Execute, ExecuteError, failure
from pcfserver.dialects.tables import QUEUE_TYPES, Attr, AttrValue, object_attributes, qmgr_attributes, queue_attributes, vocabulary
from pcfserver.tables import fill_default

DEFAULT_QUEUES = {qtype: f"SYSTEM.DEFAULT.{word.upper()}.QUEUE" for word, qtype in QUEUE_TYPES.items()}


def _ask(execute: Execute, command: Message) -> list[Message]:
    answer = execute(command)
    failed = failure(answer)
    if failed is not None:
        raise ExecuteError(f"the queue manager refused {command.command}: reason {failed.reason}")
    return answer


Value = AttrValue | tuple[str, ...] | tuple[int, ...] | bytes  # a namelist's names, a channel's COMPHDR are tuples


def _values(response: Message, attrs: Sequence[Attr], generated: frozenset[bytes] = frozenset()) -> dict[int, Value]:
    """The attributes of an Inquire response.  A byte string (DESTCORL, PUBACCT) is left out when it is none (all
    zeros) or one the queue manager generated, equal to the object's identifier (a DESTCORL that is the SubId): a
    replayed script makes those anew."""
    out: dict[int, Value] = {}
    for attr in attrs:
        item = response.get(attr.parameter)
        if isinstance(item, ByteString):
            if item.value.strip(b"\0") and item.value not in generated:
                out[attr.parameter] = item.value
        elif isinstance(item, String):
            out[attr.parameter] = item.value.rstrip(" ")
        elif isinstance(item, Integer):
            out[attr.parameter] = item.value
        elif isinstance(item, StringList):
            out[attr.parameter] = tuple(v.rstrip(" ") for v in item.values)
        elif isinstance(item, IntegerList):
            out[attr.parameter] = tuple(item.values)
    return out


def _differing(values: dict[int, Value], base: dict[int, Value], attrs: Sequence[Attr], everything: bool) -> list[Parameter]:
    out: list[Parameter] = []
    for attr in attrs:
        if attr.parameter not in values:
            continue
        value = values[attr.parameter]
        if not everything and base.get(attr.parameter) == value:
            continue
        if isinstance(value, bytes):
            out.append(ByteString(attr.parameter, value))
        elif isinstance(value, tuple) and attr.struct == "MQCFIL":
            out.append(IntegerList(attr.parameter, tuple(int(v) for v in value)))
        elif isinstance(value, tuple):
            out.append(StringList(attr.parameter, tuple(str(v) for v in value)))
        else:
            out.append(String(attr.parameter, value) if isinstance(value, str) else Integer(attr.parameter, value))
    return out


def _kind_default(attr: Attr, subtype: int) -> Value:
    if attr.struct == "MQCFSL":
        return ()
    value = attr.defaults.get(subtype, attr.defaults[0])
    return (int(value),) if attr.struct == "MQCFIL" else value


def _kind_defaults(attrs: Sequence[Attr], subtype: int) -> dict[int, Value]:
    return {a.parameter: _kind_default(a, subtype) for a in attrs}


def _shows_as_defined(kind: kinds.Kind) -> bool:
    """Whether the kind's display takes DISTYPE (MQIA_DISPLAY_TYPE): then the dump asks for values as defined."""
    row = vocabulary(mqsc.DIALECT).commands.get(f"DISPLAY {kind.noun}")
    return row is not None and any(parameter == mq.MQIA_DISPLAY_TYPE for parameter, _ in mqsc.options_of(row.command).keyed.values())


def object_commands(execute: Execute, *, all_attributes: bool = False) -> list[Message]:
    """Create (Replace) commands for every object of every kind (formats/kinds.tsv), kind by kind: the default objects
    first, each other one as it differs from its kind's default object (of its subtype)."""
    creates: list[Message] = []
    for kind in kinds.kinds():
        inquire = kind.command("INQUIRE")
        asked: tuple[Parameter, ...] = (String(kind.name, "*"), IntegerList(kind.selectors, (mq.MQIACF_ALL,)))
        if _shows_as_defined(kind):  # a subscription's TOPICSTR as given, not joined to its TOPICOBJ's (DISTYPE(DEFINED))
            asked += (Integer(mq.MQIA_DISPLAY_TYPE, mq.MQDOPT_DEFINED),)
        answer = execute(Message(inquire, asked))
        failed = failure(answer)
        if failed is not None and failed.reason == mq.MQRC_UNKNOWN_OBJECT_NAME:
            continue  # there are none
        if failed is not None:
            raise ExecuteError(f"the queue manager refused {inquire}: reason {failed.reason}")
        settable = [a for a in object_attributes(kind.key) if a.access == "set" and not a.zos]
        identifiers = [a.parameter for a in object_attributes(kind.key) if a.struct == "MQCFBS" and a.access != "set"]  # SUBID
        found: dict[str, tuple[int, dict[int, Value]]] = {}
        for response in answer:
            subtype = (response.int_value(kind.subtype, 0) or 0) if kind.subtype else 0
            attrs = [a for a in settable if not a.applies or subtype in a.applies]
            generated = frozenset(item.value for p in identifiers if isinstance(item := response.get(p), ByteString))
            found[(response.str_value(kind.name) or "").rstrip()] = (subtype, _values(response, attrs, generated))
        defaults = set(kind.defaults.values())
        for name in sorted(found, key=lambda n: (n not in defaults, n)):
            subtype, values = found[name]
            attrs = [a for a in settable if not a.applies or subtype in a.applies]
            table_defaults = _kind_defaults(attrs, subtype)
            default_name = kind.default_object(subtype)
            own = found.get(default_name)
            base = own[1] if own is not None and own[0] == subtype and name != default_name else table_defaults
            params = _differing(values, base, attrs, all_attributes)
            head: list[Parameter] = [String(kind.name, name)]
            if kind.subtype:
                head.append(Integer(kind.subtype, subtype))
            creates.append(Message(kind.command("CREATE"), (*head, *params, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES))))
    return creates


# What a Set Channel Authentication Record takes of an Inquire response (everything but the alteration stamp).
_CHLAUTH_SKIPPED = frozenset((mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME))


def _settings(execute: Execute, inquiry: Message, none_found: int, *, skipped: frozenset[int] = frozenset(), empty_lists: bool = True) -> list[list[Parameter]]:
    """Each response to ``inquiry`` as the parameters its Set command takes back: strings without their padding,
    ``skipped`` parameters (and, without ``empty_lists``, empty lists) left out; ``none_found``: no record at all."""
    answer = execute(inquiry)
    failed = failure(answer)
    if failed is not None and failed.reason == none_found:
        return []
    if failed is not None:
        raise ExecuteError(f"the queue manager refused {inquiry.command}: reason {failed.reason}")
    out: list[list[Parameter]] = []
    for response in answer:
        params: list[Parameter] = []
        for item in response.parameters:
            if item.parameter in skipped:
                continue
            if isinstance(item, String):
                params.append(String(item.parameter, item.value.rstrip(" ")))
            elif isinstance(item, StringList) and (item.values or empty_lists):
                params.append(StringList(item.parameter, tuple(v.rstrip(" ") for v in item.values)))
            elif isinstance(item, Integer):
                params.append(item)
        out.append(params)
    return out


def chlauth_commands(execute: Execute) -> list[Message]:
    """Set Channel Authentication Record (Action REPLACE) for every record, most specific profile first, as
    dmpmqcfg writes SET CHLAUTH ... ACTION(REPLACE): a replay onto a new queue manager leaves the same records."""
    inquiry = Message(mq.MQCMD_INQUIRE_CHLAUTH_RECS, (String(mq.MQCACH_CHANNEL_NAME, "*"),))
    found = _settings(execute, inquiry, mq.MQRCCF_CHLAUTH_NOT_FOUND, skipped=_CHLAUTH_SKIPPED)
    return [Message(mq.MQCMD_SET_CHLAUTH_REC, (*params, Integer(mq.MQIACF_ACTION, mq.MQACT_REPLACE))) for params in found]


def policy_commands(execute: Execute) -> list[Message]:
    """Set Policy for every Advanced Message Security policy, every attribute given (dmpmqcfg writes none: IBM's
    dspmqspl -export does; a dump here recreates the whole queue manager, so its policies come too)."""
    inquiry = Message(mq.MQCMD_INQUIRE_PROT_POLICY, (String(mq.MQCA_POLICY_NAME, "*"),))
    found = _settings(execute, inquiry, mq.MQRCCF_POLICY_NOT_FOUND, empty_lists=False)
    return [Message(mq.MQCMD_CHANGE_PROT_POLICY, tuple(params)) for params in found]


def _settable(qtype: int) -> list[Attr]:
    return [a for a in queue_attributes() if a.access == "set" and not a.zos and qtype in a.applies]


def _table_defaults(qtype: int) -> dict[int, Value]:
    return {a.parameter: a.defaults[qtype] for a in _settable(qtype) if qtype in a.defaults}


def queue_commands(execute: Execute, *, all_attributes: bool = False) -> tuple[Message | None, list[Message]]:
    """The Change Queue Manager (None when nothing differs) and the Create (Replace) commands that recreate the registry."""
    [qmgr] = _ask(execute, Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIACF_ALL,)),)))
    qmgr_attrs = [a for a in qmgr_attributes() if a.access == "set"]
    qmgr_name = (qmgr.str_value(mq.MQCA_Q_MGR_NAME) or "").rstrip()
    qmgr_base: dict[int, Value] = {}
    for a in qmgr_attrs:
        initial = a.defaults[0]
        if initial == "@ccsid":  # a new queue manager's CCSID, unless created with another: shown when it differs
            initial = DEFAULT_CCSID
        elif isinstance(initial, str) and "@" in initial:
            initial = fill_default(initial, qmgr_name)
        if "@" not in str(initial):
            qmgr_base[a.parameter] = initial
    changes = _differing(_values(qmgr, qmgr_attrs), qmgr_base, qmgr_attrs, all_attributes)
    alter = Message(mq.MQCMD_CHANGE_Q_MGR, tuple(changes)) if changes else None
    queues = _ask(execute, Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)))))
    by_name: dict[str, Message] = {}
    for response in queues:
        name = (response.str_value(mq.MQCA_Q_NAME) or "").rstrip()
        by_name[name] = response
    defaults = [n for n in DEFAULT_QUEUES.values() if n in by_name]
    ordered = defaults + sorted(n for n in by_name if n not in defaults)
    bases: dict[int, dict[int, Value]] = {}
    for default_type, default_name in DEFAULT_QUEUES.items():
        default = by_name.get(default_name)
        if default is not None and default.int_value(mq.MQIA_Q_TYPE) == default_type:
            bases[default_type] = _values(default, _settable(default_type))
    creates: list[Message] = []
    for name in ordered:
        response = by_name[name]
        qtype = response.int_value(mq.MQIA_Q_TYPE, 0) or 0
        if qtype not in DEFAULT_QUEUES:
            continue
        attrs = _settable(qtype)
        is_default = DEFAULT_QUEUES[qtype] == name
        base = _table_defaults(qtype) if is_default or qtype not in bases else bases[qtype]
        params = _differing(_values(response, attrs), base, attrs, all_attributes)
        creates.append(
            Message(
                mq.MQCMD_CREATE_Q,
                (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), *params, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)),
            )
        )
    return alter, creates


def authrec_commands(execute: Execute) -> list[Message]:
    """One Set Authority Record per record (profile, object type, principal or group), with its authorities as AuthorityAdd,
    as dmpmqcfg writes SET AUTHREC lines: a replay onto a new queue manager grants the same.  A queue manager record
    names no profile (IBM lets SET AUTHREC leave PROFILE out for OBJTYPE(QMGR)): replayed onto a queue manager of
    another name, it grants on that one, where PROFILE('QM1') would have granted on a name nobody connects to."""
    options = mq.MQAUTHOPT_NAME_AS_WILDCARD | mq.MQAUTHOPT_ENTITY_EXPLICIT
    answer = execute(Message(mq.MQCMD_INQUIRE_AUTH_RECS, (Integer(mq.MQIACF_AUTH_OPTIONS, options), String(mq.MQCACF_AUTH_PROFILE_NAME, "**"))))
    failed = failure(answer)
    if failed is not None and failed.reason == mq.MQRC_UNKNOWN_ENTITY:
        return []  # there are none
    if failed is not None:
        raise ExecuteError(f"the queue manager refused {mq.MQCMD_INQUIRE_AUTH_RECS}: reason {failed.reason}")
    out: list[Message] = []

    @cache
    def own_name() -> str:
        [qmgr] = _ask(execute, Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQCA_Q_MGR_NAME,)),)))
        return (qmgr.str_value(mq.MQCA_Q_MGR_NAME) or "").rstrip()

    for record in answer:
        profile = (record.str_value(mq.MQCACF_AUTH_PROFILE_NAME) or "").rstrip()
        entity = (record.str_value(mq.MQCACF_ENTITY_NAME) or "").rstrip()
        auths = record.get(mq.MQIACF_AUTHORIZATION_LIST)
        if not isinstance(auths, IntegerList) or not auths.values:
            continue
        who = mq.MQCACF_GROUP_ENTITY_NAMES if record.int_value(mq.MQIACF_ENTITY_TYPE) == mq.MQZAET_GROUP else mq.MQCACF_PRINCIPAL_ENTITY_NAMES
        if record.int_value(mq.MQIACF_OBJECT_TYPE) == mq.MQOT_Q_MGR and profile == own_name():
            profile = ""  # (the queue manager's own: whichever one the script is replayed onto)
        out.append(
            Message(
                mq.MQCMD_SET_AUTH_REC,
                (
                    String(mq.MQCACF_AUTH_PROFILE_NAME, profile),
                    Integer(mq.MQIACF_OBJECT_TYPE, record.int_value(mq.MQIACF_OBJECT_TYPE) or 0),
                    StringList(who, (entity,)),
                    IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, auths.values),
                ),
            )
        )
    return out


def dump(
    execute: Execute,
    *,
    dialect: str = "mqsc",
    all_attributes: bool = False,
    qmgr_name: str = "",
    now: Callable[[], str] | None = None,
) -> str:
    """The script (MQSC or IBM i CL) that recreates the registry ``execute`` reaches."""
    if dialect not in ("mqsc", "ibmi"):
        raise ValueError(f"dump writes mqsc or ibmi, not {dialect!r}")
    alter, creates = queue_commands(execute, all_attributes=all_attributes)
    objects = object_commands(execute, all_attributes=all_attributes)
    records = authrec_commands(execute) + chlauth_commands(execute) + policy_commands(execute)
    stamp = now() if now is not None else time.strftime("%Y-%m-%d %H.%M.%S")
    what = "every attribute" if all_attributes else "attributes that differ from the defaults"
    header = [f"pcfserver dump of queue manager {qmgr_name}".rstrip(), f"Generated {stamp}; {what}; REPLACE sets each object as written and keeps the messages on a queue."]
    lines: list[str] = []
    # Kinds with no MQOT type (subscriptions) name queues and topic objects: written after the queues, as dmpmqcfg
    # writes subscriptions last (K).
    early = [c for c in objects if (found := kinds.kind_of_command(c.command)) is None or found.object_type >= 0]
    late = [c for c in objects if c not in early]
    if dialect == "mqsc":
        lines += [f"* {text}" for text in header]
        for command in ([alter] if alter else []) + early + creates + late + records:
            lines += mqsc.render_script_lines(command, quote_all=True)
    else:
        lines += [f"/* {text} */" for text in header]
        for command in early:
            lines += _cl_object(command)
        for command in ([alter] if alter else []) + creates:
            lines += ibmi.render_script_lines(command)
        for command in late:
            lines += _cl_object(command)
        for command in records:
            lines += _cl_record(command, qmgr_name)
    return "".join(f"{line}\n" for line in lines)


def _cl_record(command: Message, qmgr_name: str) -> list[str]:
    """An authority record a user holds as GRTMQMAUT; a group's, a CHLAUTH rule or a policy as a comment (no CL)."""
    try:
        parts = ibmi_authority.render_parts(command, qmgr_name)
    except ValueError:
        return [f"/* {mqsc.render_command(command, quote_all=True)} : no CL command here */"]
    lines = continued(parts)
    if command.int_value(mq.MQIACF_OBJECT_TYPE) == mq.MQOT_Q_MGR and not (command.str_value(mq.MQCACF_AUTH_PROFILE_NAME) or "").strip():
        # (MQSC leaves PROFILE out for the queue manager's own record; CL must name it in OBJ)
        lines.insert(0, "/* the queue manager's own record: OBJ names the one dumped; replayed onto another, name that one */")
    return lines


def _cl_object(command: Message) -> list[str]:
    """A kind's object in CL: its Create command, or a comment where CL cannot say all of it."""
    try:
        _, lost = ibmi.render_parts(command)
    except ValueError:  # a kind IBM i lacks (COMMINFO), or a sort it lacks (AMQP and MQTT channels)
        return [f"/* {mqsc.render_command(command, quote_all=True)} : no CL command here */"]
    if lost:  # REPLACE would reset what CL cannot say: the object is named, not half-recreated
        return [f"/* {mqsc.render_command(command, quote_all=True)} : CL cannot set all of it */"]
    return ibmi.render_script_lines(command)


# -- one object at a time (the console's history writes the command that reverts a change) ----------------------------


def settable_attributes(kind: str, subtype: int = 0) -> list[Attr]:
    """The attributes a command may set on an object of ``kind`` ("queue", "qmgr" or a kind of formats/kinds.tsv)."""
    if kind == "queue":
        return _settable(subtype)
    if kind == "qmgr":
        return [a for a in qmgr_attributes() if a.access == "set" and not a.zos]
    return [a for a in object_attributes(kind) if a.access == "set" and not a.zos and (not a.applies or subtype in a.applies)]


def parameters(kind: str, subtype: int, values: dict[int, Value], *, differing: bool = False) -> list[Parameter]:
    """``values`` as command parameters, in table order: every one, or (``differing``) those that differ from the
    table's defaults, as the dump writes a definition."""
    attrs = settable_attributes(kind, subtype)
    if not differing:
        return _differing(values, {}, attrs, True)
    base = _table_defaults(subtype) if kind == "queue" else _kind_defaults(attrs, subtype)
    return _differing(values, base, attrs, False)


def definition(kind: str, name: str, subtype: int, values: dict[int, Value]) -> Message:
    """The Create (Replace) command that defines one queue or object with ``values`` (those that differ from the
    table's defaults), as the dump writes it."""
    params = parameters(kind, subtype, values, differing=True)
    if kind == "queue":
        return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, subtype), *params, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)))
    found = kinds.by_key()[kind]
    head: list[Parameter] = [String(found.name, name)]
    if found.subtype:
        head.append(Integer(found.subtype, subtype))
    return Message(found.command("CREATE"), (*head, *params, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)))
