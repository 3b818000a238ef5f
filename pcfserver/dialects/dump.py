"""The registry as a script that recreates it (like IBM's dmpmqcfg), in MQSC or IBM i CL.

Asks for the queue manager and every queue (Inquire Queue Manager, Inquire Queue ``*`` ALL)
and writes ``ALTER QMGR`` / ``CHGMQM`` for the queue manager attributes that differ from a new
queue manager's, then one ``DEFINE ... REPLACE`` (``CRTMQMQ ... REPLACE(*YES)``) per queue:
the default queues (SYSTEM.DEFAULT.*.QUEUE) first, as new queues take their attributes from
them, then the others by name.  Only attributes that differ from the default (the table
default for the default queues, the default queue of the type for the others) are written,
unless ``all_attributes``.  Run through the console against a fresh server, the script recreates
the same queues.  A non-default attribute that CL has no keyword for is written as a comment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String
from pcfserver.dialects import ibmi, mqsc
from pcfserver.dialects.outcome import Execute, ExecuteError, failure
from pcfserver.dialects.tables import QUEUE_TYPES, Attr, AttrValue, qmgr_attributes, queue_attributes

DEFAULT_QUEUES = {qtype: f"SYSTEM.DEFAULT.{word.upper()}.QUEUE" for word, qtype in QUEUE_TYPES.items()}


def _ask(execute: Execute, command: Message) -> list[Message]:
    answer = execute(command)
    failed = failure(answer)
    if failed is not None:
        raise ExecuteError(f"the queue manager refused {command.command}: reason {failed.reason}")
    return answer


def _values(response: Message, attrs: Sequence[Attr]) -> dict[int, AttrValue]:
    out: dict[int, AttrValue] = {}
    for attr in attrs:
        item = response.get(attr.parameter)
        if isinstance(item, String):
            out[attr.parameter] = item.value.rstrip(" ")
        elif isinstance(item, Integer):
            out[attr.parameter] = item.value
    return out


def _differing(values: dict[int, AttrValue], base: dict[int, AttrValue], attrs: Sequence[Attr], everything: bool) -> list[Parameter]:
    out: list[Parameter] = []
    for attr in attrs:
        if attr.parameter not in values:
            continue
        value = values[attr.parameter]
        if not everything and base.get(attr.parameter) == value:
            continue
        out.append(String(attr.parameter, value) if isinstance(value, str) else Integer(attr.parameter, value))
    return out


def _settable(qtype: int) -> list[Attr]:
    return [a for a in queue_attributes() if a.access == "set" and not a.zos and qtype in a.applies]


def _table_defaults(qtype: int) -> dict[int, AttrValue]:
    return {a.parameter: a.defaults[qtype] for a in _settable(qtype) if qtype in a.defaults}


def queue_commands(execute: Execute, *, all_attributes: bool = False) -> tuple[Message | None, list[Message]]:
    """The Change Queue Manager (None when nothing differs) and the Create (Replace) commands that recreate the registry."""
    [qmgr] = _ask(execute, Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIACF_ALL,)),)))
    qmgr_attrs = [a for a in qmgr_attributes() if a.access == "set"]
    qmgr_base = {a.parameter: a.defaults[0] for a in qmgr_attrs if not str(a.defaults[0]).startswith("@")}
    changes = _differing(_values(qmgr, qmgr_attrs), qmgr_base, qmgr_attrs, all_attributes)
    alter = Message(mq.MQCMD_CHANGE_Q_MGR, tuple(changes)) if changes else None
    queues = _ask(execute, Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)))))
    by_name: dict[str, Message] = {}
    for response in queues:
        name = (response.str_value(mq.MQCA_Q_NAME) or "").rstrip()
        by_name[name] = response
    defaults = [n for n in DEFAULT_QUEUES.values() if n in by_name]
    ordered = defaults + sorted(n for n in by_name if n not in defaults)
    bases: dict[int, dict[int, AttrValue]] = {}
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
    stamp = now() if now is not None else time.strftime("%Y-%m-%d %H.%M.%S")
    what = "every attribute" if all_attributes else "attributes that differ from the defaults"
    header = [f"pcfserver dump of queue manager {qmgr_name}".rstrip(), f"Generated {stamp}; {what}; REPLACE recreates each queue."]
    lines: list[str] = []
    if dialect == "mqsc":
        lines += [f"* {text}" for text in header]
        for command in ([alter] if alter else []) + creates:
            lines += mqsc.render_script_lines(command, quote_all=True)
    else:
        lines += [f"/* {text} */" for text in header]
        for command in ([alter] if alter else []) + creates:
            lines += ibmi.render_script_lines(command)
    return "".join(f"{line}\n" for line in lines)
