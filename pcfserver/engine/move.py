"""MOVE QLOCAL (MQCMD_MOVE_Q): messages from one local queue to another, in syncpoint batches.

The rules run in the order of ``round2-semantics.md`` §1.3, each before anything moves; then the
messages move as successive gets and puts in units of work of at most MaxUncommittedMsgs
messages, committed one after the other.  A put that fails part-way (target full, message too
long, persistent not allowed) undoes only the batch it was in: what earlier batches moved stays
moved, and the error answer says how many (MQIACF_MOVE_COUNT).  The reasons IBM does not document
are chosen in ``formats/commands.tsv``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, Message
from pcfserver.engine import responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.messages import MQIError

if TYPE_CHECKING:
    from pcfserver.engine.messaging import MessageLayer, SessionState
    from pcfserver.engine.registry import Queue

# Attributes source and target must share (MQRCCF_Q_ATTR_CONFLICT 3223).
_MATCHING = (mq.MQIA_DEFINITION_TYPE, mq.MQIA_HARDEN_GET_BACKOUT, mq.MQIA_USAGE)


class Engine(EngineView, Protocol):
    """The queue manager as these commands see it: its rooms and its message layer."""

    @property
    def messaging(self) -> MessageLayer: ...


class Parsed(Protocol):
    values: dict[int, object]


def move_q(engine: Engine, command: Message, p: Parsed) -> list[Message]:
    source_name = p.values[mq.MQCACF_FROM_Q_NAME]
    target_name = p.values[mq.MQCACF_TO_Q_NAME]
    assert isinstance(source_name, str) and isinstance(target_name, str)
    layer = engine.messaging
    source, target = engine.queue(source_name), engine.queue(target_name)
    if source is None or target is None:
        raise MQIError(mq.MQRC_UNKNOWN_OBJECT_NAME)
    if source.qtype != mq.MQQT_LOCAL or target.qtype != mq.MQQT_LOCAL:
        raise MQIError(mq.MQRCCF_Q_WRONG_TYPE)
    if source_name == target_name:
        raise MQIError(mq.MQRCCF_PARM_CONFLICT)  # one disposition only here: no shared queues
    if any(source.attrs.get(a) != target.attrs.get(a) for a in _MATCHING):
        raise MQIError(mq.MQRCCF_Q_ATTR_CONFLICT)
    if layer.uncommitted(source_name):
        raise MQIError(mq.MQRC_Q_NOT_EMPTY)
    source_depth, *source_open = layer.status(source_name)
    target_depth, *target_open = layer.status(target_name)
    if any(source_open) or any(target_open):
        raise MQIError(mq.MQRCCF_OBJECT_OPEN)
    if target_depth and p.values.get(mq.MQIACF_MOVE_TYPE, mq.MQIACF_MOVE_TYPE_MOVE) == mq.MQIACF_MOVE_TYPE_MOVE:
        raise MQIError(mq.MQRC_Q_NOT_EMPTY)
    if source_depth + target_depth > int(target.attrs.get(mq.MQIA_MAX_Q_DEPTH, 0)):
        raise MQIError(mq.MQRC_Q_FULL)
    limit = int(engine.qmgr_attr(mq.MQIA_MAX_UNCOMMITTED_MSGS))
    session = layer.open_session("pcfserver MOVE QLOCAL")
    moved = 0
    batch_mark = engine.mark()
    in_batch = 0
    try:
        for message in layer.take_all(source_name):
            if session.uow.count >= limit:
                moved += _commit(layer, session, in_batch)
                in_batch = 0
                batch_mark = engine.mark()
            before = engine.mark()
            try:
                layer.move_one(session, message, _target(engine, target_name))
            except MQIError as error:
                # A trigger message that does not fit in this unit of work: the next one takes it.
                if error.reason != mq.MQRC_SYNCPOINT_LIMIT_REACHED or not in_batch:
                    raise
                engine.rollback_to(before)
                moved += _commit(layer, session, in_batch)
                in_batch = 0
                batch_mark = engine.mark()
                layer.move_one(session, message, _target(engine, target_name))
            in_batch += 1
        moved += _commit(layer, session, in_batch)
    except MQIError as error:
        engine.rollback_to(batch_mark)
        return responses.numbered(
            [
                responses.error_message(command, error.reason, moved, error_parameter=mq.MQIACF_MOVE_COUNT),
                responses.error_responses(command, mq.MQRCCF_COMMAND_FAILED)[-1],
            ]
        )
    finally:
        session.uow.puts, session.uow.gets, session.uow.count = [], [], 0
        layer.sessions.pop(session.ident, None)
    return responses.numbered([responses.ok_response(command, (Integer(mq.MQIACF_MOVE_COUNT, moved),))])


def _commit(layer: MessageLayer, session: SessionState, in_batch: int) -> int:
    """Commits the batch's unit of work; the number of messages it moved."""
    layer.commit(session)
    return in_batch


def _target(engine: Engine, name: str) -> Queue:
    """The target as it is now (triggers and events of earlier batches may have changed its attributes)."""
    target = engine.queue(name)
    assert target is not None
    return target
