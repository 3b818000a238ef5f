"""Inquire Queue Status and Reset Queue Statistics: the commands that read the message layer's status.

Both take a specific or generic queue name and act on local queues only; the attributes Inquire
Queue Status reports are the rows of ``formats/queue-status-attributes.tsv``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String
from pcfserver.engine import responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.messages import MONITORING_ON, MQIError, monitoring_level
from pcfserver.engine.spec import expand_groups, spec
from pcfserver.tables import read_table, value_of

_MEGABYTE = 1024 * 1024
_DEFAULT_MAX_FILE = 2_088_960  # CURMAXFS of a queue whose MAXFSIZE is DEFAULT: MQ's default queue file limit in MB (K)

if TYPE_CHECKING:
    from pcfserver.engine.messaging import MessageLayer
    from pcfserver.engine.registry import Queue


class Engine(EngineView, Protocol):
    """The queue manager as these commands see it: its rooms and its message layer."""

    @property
    def messaging(self) -> MessageLayer: ...


class Parsed(Protocol):
    values: dict[int, object]




@cache
def _status_attributes(status_type: str) -> tuple[tuple[int, int], ...]:
    """(parameter, max_length) of every attribute the answers of a status type carry (QUEUE or HANDLE), in table
    order (0 for integers)."""
    return tuple(
        (value_of(row["parameter"]), int(row["max_length"] or 0))
        for row in read_table("queue-status-attributes.tsv")
        if row["status_type"] in (status_type, "both")
    )


def local_queues(engine: Engine, pattern: str) -> list[Queue]:
    """The local queues a specific or generic name selects; a specific non-local queue is MQRCCF_Q_WRONG_TYPE."""
    if pattern.endswith("*"):
        prefix = pattern[:-1]
        found = [q for name in engine.queue_names() if name.startswith(prefix) and (q := engine.queue(name)) is not None]
        chosen = [q for q in found if q.qtype == mq.MQQT_LOCAL and engine.may_display(q.name)]
    else:
        record = engine.queue(pattern)
        if record is not None and record.qtype != mq.MQQT_LOCAL:
            raise MQIError(mq.MQRCCF_Q_WRONG_TYPE)
        chosen = [record] if record is not None else []
    if not chosen:
        raise MQIError(mq.MQRC_UNKNOWN_OBJECT_NAME)
    return chosen


def inquire_q_status(engine: Engine, command: Message, p: Parsed) -> list[Message]:
    pattern = p.values[mq.MQCA_Q_NAME]
    assert isinstance(pattern, str)
    queues = local_queues(engine, pattern)
    selectors = p.values.get(mq.MQIACF_Q_STATUS_ATTRS, (mq.MQIACF_ALL,))
    assert isinstance(selectors, tuple)
    everything = mq.MQIACF_ALL in selectors
    selectors = expand_groups(selectors, spec().status_groups["queue-status"])  # MONITOR: the monitoring fields
    if p.values.get(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_STATUS) == mq.MQIACF_Q_HANDLE:
        return _handles(engine, command, p, queues, everything, frozenset(selectors))
    out = [responses.ok_response(command, _parameters(engine, "QUEUE", _queue_values(engine, q), everything, frozenset(selectors))) for q in queues]
    return responses.numbered(out)


def _parameters(engine: Engine, status_type: str, values: dict[int, object], everything: bool, chosen: frozenset[int]) -> tuple[Parameter, ...]:
    """The fields of one answer of ``status_type``: those chosen (or every one) and the name and type, in table order."""
    params: list[Parameter] = []
    for pid, length in _status_attributes(status_type):
        if not (everything or pid in chosen or pid in (mq.MQCA_Q_NAME, mq.MQIACF_Q_STATUS_TYPE)):
            continue
        value = values[pid]
        if isinstance(value, str):
            params.append(String(pid, value.ljust(length), engine.ccsid))
        elif isinstance(value, tuple):
            params.append(IntegerList(pid, value))
        else:
            assert isinstance(value, int)
            params.append(Integer(pid, value))
    return tuple(params)


def _queue_values(engine: Engine, queue: Queue) -> dict[int, object]:
    """A queue's status fields (StatusType MQIACF_Q_STATUS), every one, by parameter."""
    layer = engine.messaging
    name = queue.name
    depth, opened_in, opened_out = layer.status(name)
    (get_date, get_time), (put_date, put_time) = layer.last_times(name)
    monitoring = monitoring_level(queue.attrs.get(mq.MQIA_MONITORING_Q, mq.MQMON_Q_MGR), engine.qmgr_attrs().get(mq.MQIA_MONITORING_Q, mq.MQMON_OFF))
    on = monitoring in MONITORING_ON
    qtime = layer.queue_time(name) if on else None
    return {
        mq.MQCA_Q_NAME: name,
        mq.MQIACF_Q_STATUS_TYPE: mq.MQIACF_Q_STATUS,
        mq.MQIA_CURRENT_Q_DEPTH: depth,
        mq.MQIA_OPEN_INPUT_COUNT: opened_in,
        mq.MQIA_OPEN_OUTPUT_COUNT: opened_out,
        mq.MQIACF_UNCOMMITTED_MSGS: layer.uncommitted(name),
        mq.MQCACF_LAST_GET_DATE: get_date,
        mq.MQCACF_LAST_GET_TIME: get_time,
        mq.MQCACF_LAST_PUT_DATE: put_date,
        mq.MQCACF_LAST_PUT_TIME: put_time,
        mq.MQIACF_OLDEST_MSG_AGE: layer.oldest_age(name) if on else mq.MQMON_NOT_AVAILABLE,
        mq.MQIACF_Q_TIME_INDICATOR: qtime if qtime is not None else (mq.MQMON_NOT_AVAILABLE, mq.MQMON_NOT_AVAILABLE),
        mq.MQIA_MONITORING_Q: monitoring,
        mq.MQIACF_CUR_Q_FILE_SIZE: -(-layer.stored_bytes(name) // _MEGABYTE),
        mq.MQIACF_CUR_MAX_FILE_SIZE: max_file if isinstance(max_file := queue.attrs.get(mq.MQIA_MAX_Q_FILE_SIZE), int) and max_file > 0 else _DEFAULT_MAX_FILE,
    }


def _handles(engine: Engine, command: Message, p: Parsed, queues: list[Queue], everything: bool, chosen: frozenset[int]) -> list[Message]:
    """One response per open handle (StatusType MQIACF_Q_HANDLE), filtered by OpenType, with the HANDLE rows of the
    status table chosen; none open: one answer without fields."""
    open_type = p.values.get(mq.MQIACF_OPEN_TYPE, mq.MQQSOT_ALL)
    wanted = {q.name for q in queues}
    out: list[Message] = []
    for session in engine.messaging.sessions.values():
        for handle in session.handles.values():
            name = handle.path[-1]
            if name not in wanted:
                continue
            if (open_type == mq.MQQSOT_INPUT and not handle.input) or (open_type == mq.MQQSOT_OUTPUT and not handle.output):
                continue
            values: dict[int, object] = {
                mq.MQCA_Q_NAME: name,
                mq.MQIACF_Q_STATUS_TYPE: mq.MQIACF_Q_HANDLE,
                mq.MQCACF_APPL_TAG: session.appl_name,
                mq.MQIA_APPL_TYPE: mq.MQAT_USER,
                mq.MQCACF_USER_IDENTIFIER: session.user,
                mq.MQIACF_OPEN_INPUT_TYPE: mq.MQQSO_SHARED if handle.input else mq.MQQSO_NO,
                mq.MQIACF_OPEN_OUTPUT: mq.MQQSO_YES if handle.output else mq.MQQSO_NO,
                mq.MQIACF_HANDLE_STATE: mq.MQHSTATE_ACTIVE if handle.waiting else mq.MQHSTATE_INACTIVE,
            }
            out.append(responses.ok_response(command, _parameters(engine, "HANDLE", values, everything, chosen)))
    if not out:
        return responses.numbered([responses.ok_response(command, ())])
    return responses.numbered(out)


def reset_q_stats(engine: Engine, command: Message, p: Parsed) -> list[Message]:
    pattern = p.values[mq.MQCA_Q_NAME]
    assert isinstance(pattern, str)
    out: list[Message] = []
    for queue in local_queues(engine, pattern):
        since, high, enq, deq = engine.messaging.reset_statistics(queue.name)
        params: tuple[Parameter, ...] = (
            String(mq.MQCA_Q_NAME, queue.name.ljust(48), engine.ccsid),
            Integer(mq.MQIA_TIME_SINCE_RESET, since),
            Integer(mq.MQIA_HIGH_Q_DEPTH, high),
            Integer(mq.MQIA_MSG_ENQ_COUNT, enq),
            Integer(mq.MQIA_MSG_DEQ_COUNT, deq),
        )
        out.append(responses.ok_response(command, params))
    return responses.numbered(out)
