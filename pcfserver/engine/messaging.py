"""The MQI side of the queue manager: put, get, browse, units of work, triggers and depth events.

Sans-IO, like the rest of the engine: every call changes memory at once, records how to undo it
and which store rows it needs, and the caller commits (the engine's batch machinery: an answer is
released only once its changes are durable).  Nothing here waits: a get that finds nothing
raises MQRC_NO_MSG_AVAILABLE and the shell waits for :attr:`MessageLayer.arrivals` to name the
queue before it tries again.

Rules and reasons follow ``shared/reference/round2-semantics.md`` §2; the choices IBM does not
document are listed with their reasons in ``formats/messaging-rules.tsv``.
"""

from __future__ import annotations

import getpass
import itertools
import logging
import os
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.codec.encoder import encode
from pcfserver.engine.authority import Identity, operation_allowed
from pcfserver.engine.messages import (
    LEVELS,
    MONITORING_ON,
    MessageDescriptor,
    MQIError,
    QueueMessages,
    StoredMessage,
    UnitOfWork,
    descriptor,
    monitoring_level,
)
from pcfserver.engine.property_names import property_name_error
from pcfserver.engine.store import (
    ClearMessages,
    DeleteMessage,
    DeleteMessages,
    PutMessage,
    PutMessages,
    UpdateMessage,
)
from pcfserver.engine.store_batches import MessageRow
from pcfserver.engine.transaction import Restore

if TYPE_CHECKING:
    from pcfserver.engine.context import EngineView
    from pcfserver.engine.registry import NamedObject, Queue
    from pcfserver.engine.spec import AttrValue

log = logging.getLogger("pcfserver.messages")
MAX_BODY = 100 * 1024 * 1024  # the largest MaxMsgLength IBM allows
FORMAT_STRING = "MQSTR   "
FORMAT_NONE = "        "
FORMAT_EVENT = "MQEVENT "
FORMAT_TRIGGER = "MQTRIG  "
FORMAT_DEAD_LETTER = "MQDEAD  "  # MQFMT_DEAD_LETTER_HEADER
FORMAT_RFH2 = "MQHRF2  "  # MQFMT_RF_HEADER_2
EVENT_QUEUE = "SYSTEM.ADMIN.PERFM.EVENT"
_MAX_PRIORITY = LEVELS - 1
_QT_LOCAL = mq.MQQT_LOCAL
_QT_ALIAS = mq.MQQT_ALIAS
_QT_REMOTE = mq.MQQT_REMOTE
_ENABLED = mq.MQEVR_ENABLED
_DISABLED = mq.MQEVR_DISABLED
_PERSISTENT = mq.MQPER_PERSISTENT
_NOT_PERSISTENT = mq.MQPER_NOT_PERSISTENT
_UNLIMITED = mq.MQEI_UNLIMITED
_NO_ID = bytes(24)
_RC_NONE = mq.MQRC_NONE
_PER_AS_Q_DEF = mq.MQPER_PERSISTENCE_AS_Q_DEF
_PRI_AS_Q_DEF = mq.MQPRI_PRIORITY_AS_Q_DEF
_MSG_ID_COUNTER = struct.Struct(">I").pack


@dataclass(frozen=True, slots=True)
class _PutPlan:
    """What puts to and gets from a local queue check, read from its attributes and the queue
    manager's once per version of either (a change publishes a new record or dict)."""

    record: Queue
    qmgr: dict[int, AttrValue]
    max_length: int
    qmgr_max_length: int
    max_depth: int
    temporary: bool
    fifo_level: int
    triggered: bool
    events: bool
    depth_watch: bool
    max_uncommitted: int
    put_inhibited: bool
    get_inhibited: bool
    low_watch: bool  # a get may make a Queue Depth Low event (the queue's switch and PERFMEV on)
    monitored: bool  # online monitoring is on for the queue: a get measures its message's time on the queue (QTIME)
    def_persistence: int  # DEFPSIST and DEFPRTY, for a put that names this queue itself
    def_priority: int


def _expiry(expiry: int | None) -> int:
    """An MQPUT's Expiry checked (tenths of a second, or MQEI_UNLIMITED; None: unlimited)."""
    if expiry is None:
        return _UNLIMITED
    if expiry != _UNLIMITED and not 0 < expiry <= 999_999_999:
        raise MQIError(mq.MQRC_EXPIRY_ERROR)
    return expiry


def _check_property_names(properties: tuple[tuple[str, str], ...]) -> None:
    """MQPUT's check of the properties a message carries: the first name MQ refuses fails the put."""
    for name, _ in properties:
        if reason := property_name_error(name):
            raise MQIError(reason)


def _format(format: str) -> str:
    """An MQPUT's Format checked and padded to its 8 characters."""
    if format is FORMAT_STRING:
        return format
    if len(format) > 8:
        raise MQIError(mq.MQRC_FORMAT_ERROR)
    return format.ljust(8)


def _undo_place(message: StoredMessage, saved: tuple[Any, ...]) -> None:
    """Undoes a put (:meth:`MessageLayer._place`): recorded as a function and its arguments, no closure per message."""
    state, uow, state.depth, state.uncommitted, state.high_depth, state.enq_count, state.last_put, count = saved
    message.removed = True
    message.stored = False
    if uow is not None:
        _unlist(uow, uow.puts, message, count)


def _undo_get(found: StoredMessage, saved: tuple[Any, ...]) -> None:
    """Undoes a get (:meth:`MessageLayer.get`), as :func:`_undo_place` a put."""
    state, uow, state.depth, state.uncommitted, state.deq_count, state.last_get, state.qtime, found.stored, count = saved
    found.removed = False
    found.got_uow = None
    if uow is not None:
        _unlist(uow, uow.gets, found, count)
    state.restore(found)


# As the undo log types them (a function of its key and old value), recorded without engine.record's call.
_UNDO_PLACE = cast(Restore, _undo_place)
_UNDO_GET = cast(Restore, _undo_get)


def _unlist(uow: UnitOfWork, listed: list[StoredMessage], message: StoredMessage, count: int) -> None:
    """The unit of work forgets the message its undone call added last, and its count goes back."""
    if listed and listed[-1] is message:
        listed.pop()
    uow.count = count


class AliasPut(NamedTuple):
    """What an MQPUT to an alias of a topic asks of the publication it becomes (MessageLayer.publish_alias)."""

    persistence: int | None
    priority: int | None
    expiry: int | None
    correl_id: bytes | None
    reply_to_q: str
    reply_to_qmgr: str
    format: str
    syncpoint: bool
    properties: tuple[tuple[str, str], ...]


class Handle:
    """An open queue: the definitions it resolved through, what it was opened for, and whether a get with a wait is
    in progress on it (DISPLAY QSTATUS TYPE(HANDLE) HSTATE: ACTIVE then, else INACTIVE)."""

    __slots__ = ("input", "output", "path", "waiting")

    def __init__(self, path: tuple[str, ...], input: bool, output: bool, waiting: bool = False) -> None:
        self.path = path
        self.input = input
        self.output = output
        self.waiting = waiting


@cache
def process_user() -> str:
    """The user the server runs as: the UserIdentifier of a connection that names no user (the server's own, the
    embedded API's, an MQWebAdmin's console and REST puts), as an IBM MQ bindings application's is its OS user
    (formats/messaging-rules.tsv, user identifier)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - a process with no user name
        return ""


class SessionState:
    """One connection's state in the queue manager: its unit of work, browse cursors and handles."""

    __slots__ = ("appl_name", "cursors", "handles", "ident", "identity", "last_reason", "stopped", "system", "uow", "user")

    def __init__(self, ident: int, appl_name: str, user: str, identity: Identity | None = None) -> None:
        self.ident = ident
        self.identity = identity  # None: the server's own authority; else checked against the authority records
        self.appl_name = appl_name
        self.user = user
        self.uow = UnitOfWork()
        self.cursors: dict[str, tuple[int, int]] = {}  # queue -> (level, seq) of the message last browsed
        self.handles: dict[int, Handle] = {}
        self.last_reason = mq.MQRC_NONE
        self.stopped = False  # ended by STOP CONN: its owner's next call fails with MQRC_CONNECTION_BROKEN
        self.system = False  # the queue manager's own (publish/subscribe's): APPLTYPE(SYSTEM), never stopped


def _pad(value: bytes | str | None, length: int = 24) -> bytes:
    if value is None:
        return bytes(length)
    data = value.encode("latin-1") if isinstance(value, str) else bytes(value)
    if len(data) > length:
        raise MQIError(mq.MQRC_MSG_ID_ERROR if length == 24 else mq.MQRC_OPTIONS_ERROR)
    return data.ljust(length, b"\0")


class _GmtCache:
    """One instance, :data:`_GMT` (an instance's slots are read faster than a class's attributes: 3.11 does not
    specialise the look-up on a class, about 250 instructions each, and a put reads three)."""

    __slots__ = ("date", "high", "last", "low", "second", "times")

    def __init__(self) -> None:
        self.second = -1
        self.date = ""
        self.times: tuple[str, ...] = ()  # HHMMSSTH for each hundredth of the second
        # The last answer, which holds for low <= now < high (its hundredth of a second): puts come tens of
        # microseconds apart, and the two int() of working it out cost 1,500 of a put's instructions.
        self.low = 0.0
        self.high = 0.0
        self.last = ("", "")


_GMT = _GmtCache()


def _gmt(now: float) -> tuple[str, str]:
    """PutDate YYYYMMDD and PutTime HHMMSSTH (GMT), formatted once per second."""
    cache = _GMT
    if cache.low <= now < cache.high:
        return cache.last
    second = int(now)
    if cache.second != second:
        t = time.gmtime(second)
        clock = time.strftime("%H%M%S", t)
        cache.date, cache.times, cache.second = time.strftime("%Y%m%d", t), tuple(f"{clock}{h:02d}" for h in range(100)), second
    hundredth = int((now - second) * 100)
    cache.last = (cache.date, cache.times[hundredth])
    cache.low, cache.high = second + hundredth / 100, second + (hundredth + 1) / 100
    return cache.last


def _local(now: float | None) -> tuple[str, str]:
    if now is None:
        return "", ""
    t = time.localtime(now)
    return time.strftime("%Y-%m-%d", t), time.strftime("%H.%M.%S", t)


class MessageLayer:
    """Messages of one queue manager's local queues (owned by the engine, seen through :class:`~pcfserver.engine.context.EngineView`)."""

    def __init__(self, engine: EngineView) -> None:
        self._engine = engine
        # The undo log itself: a put or get records on it directly (engine.record's call was one frame per MQI call).
        self._tx = engine.transaction
        self._queue = engine.queue  # (the registry's dictionary's get: see Engine.queue)
        self.queues: dict[str, QueueMessages] = {}
        self.sessions: dict[int, SessionState] = {}
        self.arrivals: set[str] = set()  # queues with newly available messages since the shell last looked
        self._session_ids = itertools.count(1)
        self._seq = 0
        # MsgIds are "AMQ ", the queue manager's name, then this open's 4 random bytes and a counter: a restart within
        # the same second (the seconds were used until a pub/sub state machine restarted that fast) must not repeat
        # the MsgIds of messages still on its queues.
        self._start = int.from_bytes(os.urandom(4), "big")
        self._counter = itertools.count(1)
        self.clock: Callable[[], float] = time.time
        self._plans: dict[str, _PutPlan] = {}
        self._id_head: bytes | None = None  # the MsgId's first 20 bytes: AMQ, the queue manager's name, _start
        self.session_ended: Callable[[SessionState], None] | None = None  # publish/subscribe ends its subscriptions
        # a put to an alias of a topic object publishes there (publish/subscribe's PubSub.publish_through)
        self.publish_alias: Callable[[SessionState, str, bytes, AliasPut], MessageDescriptor] | None = None
        # Messages put and got since the engine opened (the overview's rates, engine/monitor.py): counted as the
        # call is applied, not undone by a later failure of its commit (rare; a rate, not an account).
        self.put_count = 0
        self.get_count = 0
        # Told of every authority refusal (session, queue named, MQAUTH_* asked for): the engine's refused commands.
        self.refused: Callable[[SessionState, str, int], None] | None = None

    # ------------------------------------------------------------------ load and save

    def load(self, rows: list[tuple[int, str, int, tuple[object, ...], bytes]]) -> None:
        """Messages the store held at open (committed ones), in arrival order."""
        for seq, queue, level, record, body in rows:
            state = self.state(queue)
            if state is None:
                continue
            md, put_at, expires_at = _md_from_record(record)
            message = StoredMessage(seq, queue, level, md, body, put_at, expires_at)
            message.stored = True
            state.add(message)
            self._seq = max(self._seq, seq)
        for state in self.queues.values():
            state.high_depth = state.depth

    def shutdown_ops(self) -> list[PutMessage]:
        """At a clean close: the non-persistent messages of NPMCLASS(HIGH) queues, kept until the next open."""
        ops: list[PutMessage] = []
        for name, state in self.queues.items():
            record = self._engine.queue(name)
            if record is None or record.attrs.get(mq.MQIA_NPM_CLASS) != mq.MQNPM_CLASS_HIGH:
                continue
            for m in state.in_order():
                if not m.persistent and m.put_uow is None:
                    ops.append(PutMessage(m.seq, name, m.level, m.record(), m.body, True))
        return ops

    # ------------------------------------------------------------------ queues

    def state(self, name: str) -> QueueMessages | None:
        """The messages of local queue ``name`` (made on first use), or None if it is not a local queue."""
        state = self.queues.get(name)
        if state is None:
            record = self._engine.queue(name)
            if record is None or record.qtype != _QT_LOCAL:
                return None
            state = self.queues[name] = QueueMessages(self.clock())
        return state

    def status(self, name: str) -> tuple[int, int, int]:
        """(CurrentQDepth, OpenInputCount, OpenOutputCount) of a queue; zeros when it holds nothing."""
        state = self.queues.get(name)
        if state is None:
            return 0, 0, 0
        return state.depth, state.open_input, state.open_output

    def total_depth(self) -> int:
        """Every local queue's depth added up."""
        return sum(state.depth for state in self.queues.values())

    def dropped(self, name: str) -> None:
        """Queue ``name`` was deleted (with its messages, already purged)."""
        state = self.queues.pop(name, None)
        if state is not None:
            self._undo(lambda: self.queues.__setitem__(name, state))

    def resolve(self, name: str) -> tuple[Queue, ...]:
        """The definitions a name resolves through, ending at a local queue (alias → base)."""
        engine = self._engine
        record = engine.queue(name)
        if record is None:
            raise MQIError(mq.MQRC_UNKNOWN_OBJECT_NAME)
        if record.qtype == _QT_LOCAL:
            return (record,)
        if record.qtype == _QT_ALIAS:
            if record.attrs.get(mq.MQIA_BASE_TYPE, mq.MQOT_Q) != mq.MQOT_Q:
                raise MQIError(mq.MQRC_OBJECT_TYPE_ERROR)  # an alias of a topic: a put publishes (put), nothing else takes it
            base_name = record.attrs.get(mq.MQCA_BASE_OBJECT_NAME, "")
            assert isinstance(base_name, str)
            base = engine.queue(base_name) if base_name else None
            if base is None or base.qtype not in (_QT_LOCAL, _QT_REMOTE):
                raise MQIError(mq.MQRC_UNKNOWN_ALIAS_BASE_Q)
            if base.qtype == _QT_REMOTE:
                raise MQIError(mq.MQRC_UNKNOWN_REMOTE_Q_MGR)
            return (record, base)
        if record.qtype == _QT_REMOTE:
            raise MQIError(mq.MQRC_UNKNOWN_REMOTE_Q_MGR)  # no channels: see formats/messaging-rules.tsv
        raise MQIError(mq.MQRC_Q_TYPE_ERROR)  # a model queue would make a dynamic queue: not kept here

    # ------------------------------------------------------------------ sessions and handles


    def _ends(self, name: str) -> tuple[Queue, Queue]:
        """The queue ``name`` names and the local queue it leads to (the same one for a local queue, the usual case,
        found without building resolve's path)."""
        named = self._queue(name)
        if named is not None and named.qtype == _QT_LOCAL:
            return named, named
        path = self.resolve(name)
        return path[0], path[-1]
    def open_session(self, appl_name: str = "pcfserver", user: str = "", identity: Identity | None = None) -> SessionState:
        """A new connection; with ``identity``, its calls are checked against that identity's authority."""
        session = SessionState(next(self._session_ids), appl_name[:28], (user or (identity.user if identity else process_user()))[:12], identity)
        self.sessions[session.ident] = session
        return session

    def end_session(self, session: SessionState) -> None:
        """The connection ends: its unit of work is backed out, its handles closed, its non-durable subscriptions ended."""
        if session.uow:
            self.backout(session)
        if self.session_ended is not None:
            self.session_ended(session)
        for handle_id in list(session.handles):
            self.close(session, handle_id)
        self.sessions.pop(session.ident, None)

    def stop_session(self, session: SessionState) -> None:
        """STOP CONN: the session ends as :meth:`end_session` ends it, inside the command's transaction: if the command
        is undone, the session and its handles are back (its unit of work and subscriptions are undone by their own
        records).  Its owner finds it gone (``sessions`` no longer holds it, ``stopped`` is set)."""
        handles = dict(session.handles)
        self.end_session(session)
        session.stopped = True

        def undo() -> None:
            session.stopped = False
            self.sessions[session.ident] = session
            for handle_id, handle in handles.items():
                if handle_id not in session.handles:
                    session.handles[handle_id] = handle
                    self._count_open(handle, 1)

        self._undo(undo)

    def open(self, session: SessionState, name: str, *, input: bool = False, output: bool = False, waiting: bool = False) -> int:
        """Opens a queue (MQOPEN): the open counts of every definition on its path go up until close.  ``waiting``: the
        handle is held only for a get that waits (the REST API's), so a call is in progress on it while it is open.  An
        alias of a topic opens for output only (a put through it publishes: ``put``)."""
        try:
            path = self.resolve(name)
        except MQIError as error:
            alias = self._queue(name)
            if error.reason != mq.MQRC_OBJECT_TYPE_ERROR or input or not output or alias is None or alias.qtype != _QT_ALIAS:
                raise
            path = (alias,)
        if input:
            self._authorize(session, path[0].name, mq.MQAUTH_INPUT)
        if output:
            self._authorize(session, path[0].name, mq.MQAUTH_OUTPUT)
        handle = Handle(tuple(q.name for q in path), input, output, waiting)
        handle_id = next(self._counter)
        session.handles[handle_id] = handle
        self._count_open(handle, 1)
        return handle_id

    def _authorize(self, session: SessionState, name: str, auth: int) -> None:
        """MQRC_NOT_AUTHORIZED unless the session's identity holds ``auth`` on the queue it named (the first definition)."""
        if not operation_allowed(self._engine.authority, session.identity, mq.MQOT_Q, name, auth):
            if self.refused is not None:
                self.refused(session, name, auth)
            raise MQIError(mq.MQRC_NOT_AUTHORIZED)

    def close(self, session: SessionState, handle_id: int) -> None:
        handle = session.handles.pop(handle_id, None)
        if handle is not None:
            self._count_open(handle, -1)

    def _count_open(self, handle: Handle, step: int) -> None:
        for name in handle.path:
            state = self.queues.get(name)
            if state is None:
                state = self.queues[name] = QueueMessages(self.clock())
            if handle.input:
                state.open_input = max(0, state.open_input + step)
            if handle.output:
                state.open_output = max(0, state.open_output + step)

    def open_counts(self, name: str) -> tuple[int, int]:
        state = self.queues.get(name)
        return (state.open_input, state.open_output) if state else (0, 0)

    # ------------------------------------------------------------------ undo and store

    def _undo(self, fn: Callable[[], None]) -> None:
        self._engine.record_undo(fn)

    def _snapshot(self, state: QueueMessages) -> None:
        saved = (state.depth, state.uncommitted, state.high_depth, state.enq_count, state.deq_count, state.last_put, state.last_get)

        def restore() -> None:
            (state.depth, state.uncommitted, state.high_depth, state.enq_count, state.deq_count, state.last_put, state.last_get) = saved

        self._undo(restore)

    def _keep(self, m: StoredMessage) -> None:
        saved = (m.removed, m.put_uow, m.got_uow, m.md, m.stored, m.queue)

        def restore() -> None:
            was_removed = m.removed
            m.removed, m.put_uow, m.got_uow, m.md, m.stored, m.queue = saved
            if was_removed and not m.removed:
                state = self.queues.get(m.queue)
                if state is not None:
                    state.restore(m)

        self._undo(restore)

    def _keep_uow(self, uow: UnitOfWork) -> None:
        puts, gets, count = list(uow.puts), list(uow.gets), uow.count

        def restore() -> None:
            uow.puts, uow.gets, uow.count = puts, gets, count

        self._undo(restore)

    def _store_put(self, m: StoredMessage) -> None:
        if m.persistent:
            m.stored = True
            self._engine.record_op(PutMessage(m.seq, m.queue, m.level, m.record(), m.body))

    def _store_delete(self, m: StoredMessage) -> None:
        if m.stored:
            self._engine.record_op(DeleteMessage(m.seq))
            m.stored = False

    # ------------------------------------------------------------------ put

    def put(
        self,
        session: SessionState | None,
        name: str,
        body: bytes,
        persistence: int | None = None,
        priority: int | None = None,
        expiry: int | None = None,
        correl_id: bytes | str | None = None,
        msg_id: bytes | str | None = None,
        reply_to_q: str = "",
        reply_to_qmgr: str = "",
        format: str = FORMAT_STRING,
        syncpoint: bool = False,
        context: MessageDescriptor | None = None,
        properties: tuple[tuple[str, str], ...] = (),
        coded_char_set_id: int = 1208,
    ) -> MessageDescriptor:
        """MQPUT1: the message as queued (its MsgId made here unless given).

        ``context`` (MOVE, the trigger and event messages) supplies every descriptor field as is.
        A priority above MaxPriority is queued at MaxPriority and leaves
        MQRC_PRIORITY_EXCEEDS_MAXIMUM in ``session.last_reason`` (a warning, as MQPUT's CompCode).
        """
        if session is not None:
            session.last_reason = _RC_NONE
        try:
            first, plan = self._target(name)
        except MQIError as error:
            if error.reason != mq.MQRC_OBJECT_TYPE_ERROR or session is None or self.publish_alias is None or context is not None:
                raise
            return self._publish_through(session, name, body, AliasPut(
                persistence, priority, expiry, None if correl_id is None else _pad(correl_id), reply_to_q, reply_to_qmgr,
                format, syncpoint, properties if type(properties) is tuple else tuple(properties),
            ))
        base = plan.record
        if session is not None and session.identity is not None:
            self._authorize(session, first.name, mq.MQAUTH_OUTPUT)
        if plan.put_inhibited or (first is not base and first.attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED):
            raise MQIError(mq.MQRC_PUT_INHIBITED)
        now = self.clock()
        if context is None:
            md = self._new_descriptor(
                session, first, plan, now, persistence, priority, expiry, correl_id, msg_id, reply_to_q, reply_to_qmgr, format,
                properties if type(properties) is tuple else tuple(properties), coded_char_set_id,
            )
        else:
            md = context
        return self._place(session, base, md, body, now, syncpoint, plan)

    def _publish_through(self, session: SessionState, name: str, body: bytes, put: AliasPut) -> MessageDescriptor:
        """A put to an alias of a topic (TARGTYPE(TOPIC)): checked as a put to the alias (its authority, PUT(DISABLED),
        a persistence or priority left to the definition takes the alias's), then published on the topic object."""
        alias = self._queue(name)
        assert alias is not None and self.publish_alias is not None
        if session.identity is not None:
            self._authorize(session, alias.name, mq.MQAUTH_OUTPUT)
        if alias.attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED:
            raise MQIError(mq.MQRC_PUT_INHIBITED)
        if put.persistence is None or put.persistence == _PER_AS_Q_DEF:
            put = put._replace(persistence=int(alias.attrs.get(mq.MQIA_DEF_PERSISTENCE, 0)))
        if put.priority is None or put.priority == _PRI_AS_Q_DEF:
            put = put._replace(priority=int(alias.attrs.get(mq.MQIA_DEF_PRIORITY, 0)))
        return self.publish_alias(session, str(alias.attrs.get(mq.MQCA_BASE_OBJECT_NAME, "")), body, put)

    def _new_descriptor(
        self,
        session: SessionState | None,
        first: Queue,
        plan: _PutPlan,
        now: float,
        persistence: int | None,
        priority: int | None,
        expiry: int | None,
        correl_id: bytes | str | None,
        msg_id: bytes | str | None,
        reply_to_q: str,
        reply_to_qmgr: str,
        format: str,
        properties: tuple[tuple[str, str], ...] = (),
        coded_char_set_id: int = 1208,
    ) -> MessageDescriptor:
        if persistence is None or persistence == _PER_AS_Q_DEF:
            # the first definition's default: the plan's when that is the local queue (an int() per put saved)
            persistence = plan.def_persistence if first is plan.record else int(first.attrs.get(mq.MQIA_DEF_PERSISTENCE, 0))
        elif persistence != _PERSISTENT and persistence != _NOT_PERSISTENT:
            raise MQIError(mq.MQRC_PERSISTENCE_ERROR)
        if priority is None or priority == _PRI_AS_Q_DEF:
            priority = plan.def_priority if first is plan.record else int(first.attrs.get(mq.MQIA_DEF_PRIORITY, 0))
        elif priority < 0:
            raise MQIError(mq.MQRC_PRIORITY_ERROR)
        if expiry is not None:  # (the checks' calls only when there is something to check)
            expiry = _expiry(expiry)
        if format is not FORMAT_STRING:
            format = _format(format)
        if properties:
            _check_property_names(properties)
        cache = _GMT  # (_gmt's first test here: a call less per put)
        date, clock = cache.last if cache.low <= now < cache.high else _gmt(now)
        if msg_id is None or (given := _pad(msg_id)) == _NO_ID:
            head = self._id_head  # (_new_msg_id here: a call less per put)
            given = (head if head is not None else self._msg_id_head()) + _MSG_ID_COUNTER(next(self._counter) & 0xFFFFFFFF)
        return descriptor(
            given,
            _NO_ID if correl_id is None else _pad(correl_id),
            priority,
            persistence,
            _UNLIMITED if expiry is None else expiry,
            format,
            reply_to_q[:48] if reply_to_q else "",  # (no slice made for the usual empty one)
            (reply_to_qmgr or (self._engine.qmgr_name if reply_to_q else ""))[:48] if reply_to_q or reply_to_qmgr else "",
            session.appl_name if session is not None else "pcfserver",
            date,
            clock,
            session.user if session is not None else "",
            0,
            546,
            coded_char_set_id,
            properties,
        )

    def _own_descriptor(self, now: float, format: str) -> MessageDescriptor:
        """The descriptor of a message the queue manager itself puts (trigger and event messages)."""
        date, clock = _gmt(now)
        return descriptor(
            self._new_msg_id(), _NO_ID, 0, mq.MQPER_NOT_PERSISTENT, _UNLIMITED, format, "", "", "pcfserver", date, clock, "", 0,
            mq.MQENC_NATIVE, self._engine.ccsid,
        )

    def _new_msg_id(self) -> bytes:
        """AMQ, the queue manager name (12 characters) and 8 unique bytes, as IBM MQ forms them."""
        head = self._id_head
        if head is None:
            head = self._msg_id_head()
        return head + _MSG_ID_COUNTER(next(self._counter) & 0xFFFFFFFF)

    def _msg_id_head(self) -> bytes:
        """The MsgId's first 20 bytes, made once: a queue manager's name is fixed when the engine opens."""
        name = self._engine.qmgr_name
        head = self._id_head = ("AMQ " + name[:12].ljust(12)).encode("latin-1", "replace") + self._start.to_bytes(4, "big")
        return head

    def _target(self, name: str) -> tuple[Queue, _PutPlan]:
        """The definition ``name`` names and the plan of the local queue it leads to (``plan.record``), for put and get
        in one call: a local queue's cached plan, when it is current for the definition and the queue manager's
        attributes as they stand, is found with one look-up of each; anything else through _ends and _plan."""
        plan = self._plans.get(name)
        if plan is not None and plan.record is self._queue(name) and plan.qmgr is self._engine.qmgr_attrs():
            return plan.record, plan
        named, base = self._ends(name)
        return named, self._plan(base)

    def _plan(self, base: Queue) -> _PutPlan:
        """What a put to ``base`` checks, read from its attributes once per version of the definition."""
        cached = self._plans.get(base.name)
        qmgr = self._engine.qmgr_attrs()
        if cached is not None and cached.record is base and cached.qmgr is qmgr:
            return cached
        attrs = base.attrs
        events = qmgr[mq.MQIA_PERFORMANCE_EVENT] == _ENABLED and base.name != EVENT_QUEUE
        plan = _PutPlan(
            record=base,
            qmgr=qmgr,
            max_length=min(int(attrs.get(mq.MQIA_MAX_MSG_LENGTH, MAX_BODY)), MAX_BODY),
            qmgr_max_length=int(qmgr[mq.MQIA_MAX_MSG_LENGTH]),
            max_depth=int(attrs.get(mq.MQIA_MAX_Q_DEPTH, 0)),
            temporary=attrs.get(mq.MQIA_DEFINITION_TYPE) == mq.MQQDT_TEMPORARY_DYNAMIC,
            fifo_level=min(_MAX_PRIORITY, int(attrs.get(mq.MQIA_DEF_PRIORITY, 0))) if attrs.get(mq.MQIA_MSG_DELIVERY_SEQUENCE) == mq.MQMDS_FIFO else -1,
            triggered=attrs.get(mq.MQIA_TRIGGER_CONTROL) == mq.MQTC_ON and attrs.get(mq.MQIA_TRIGGER_TYPE, mq.MQTT_NONE) != mq.MQTT_NONE,
            events=events,
            depth_watch=attrs.get(mq.MQIA_Q_DEPTH_HIGH_EVENT) == _ENABLED and base.name != EVENT_QUEUE,
            max_uncommitted=int(qmgr[mq.MQIA_MAX_UNCOMMITTED_MSGS]),
            put_inhibited=attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED,
            get_inhibited=attrs.get(mq.MQIA_INHIBIT_GET) == mq.MQQA_GET_INHIBITED,
            low_watch=events and attrs.get(mq.MQIA_Q_DEPTH_LOW_EVENT) == _ENABLED,
            monitored=monitoring_level(attrs.get(mq.MQIA_MONITORING_Q, mq.MQMON_Q_MGR), qmgr.get(mq.MQIA_MONITORING_Q, mq.MQMON_OFF)) in MONITORING_ON,
            def_persistence=int(attrs.get(mq.MQIA_DEF_PERSISTENCE, 0)),
            def_priority=int(attrs.get(mq.MQIA_DEF_PRIORITY, 0)),
        )
        self._plans[base.name] = plan
        return plan

    def _place(
        self, session: SessionState | None, base: Queue, md: MessageDescriptor, body: bytes, now: float, syncpoint: bool, plan: _PutPlan | None = None
    ) -> MessageDescriptor:
        """The put checks on the base queue, then the message goes on it (with its trigger message)."""
        if plan is None:
            plan = self._plan(base)
        size = len(body)
        if size > plan.max_length:
            raise MQIError(mq.MQRC_MSG_TOO_BIG_FOR_Q)
        if size > plan.qmgr_max_length:
            raise MQIError(mq.MQRC_MSG_TOO_BIG_FOR_Q_MGR)
        if plan.temporary and md.persistence == _PERSISTENT:
            raise MQIError(mq.MQRC_PERSISTENT_NOT_ALLOWED)
        state = self.queues.get(base.name) or self.state(base.name)
        assert state is not None
        if state.depth >= plan.max_depth:
            if plan.events:
                self._queue_full_event(base, state)
            raise MQIError(mq.MQRC_Q_FULL)
        trigger = plan.triggered and self._trigger_due(base, state, md.priority)
        uow = session.uow if session is not None and syncpoint else None
        if uow is not None and uow.count + (2 if trigger else 1) > plan.max_uncommitted:
            raise MQIError(mq.MQRC_SYNCPOINT_LIMIT_REACHED)
        priority = md.priority
        if priority > _MAX_PRIORITY:
            priority = _MAX_PRIORITY
            if session is not None:
                session.last_reason = mq.MQRC_PRIORITY_EXCEEDS_MAXIMUM
        level = plan.fifo_level if plan.fifo_level >= 0 else priority
        self._seq += 1
        expires_at = None if md.expiry == _UNLIMITED else now + md.expiry / 10
        message = StoredMessage(self._seq, base.name, level, md, body if type(body) is bytes else bytes(body), now, expires_at)
        self._tx.undo.append(
            (_UNDO_PLACE, message, (state, uow, state.depth, state.uncommitted, state.high_depth, state.enq_count, state.last_put, uow.count if uow is not None else 0))
        )
        state.levels[level].append(message)  # (QueueMessages.add, a call less per put)
        depth = state.depth = state.depth + 1
        if depth > state.high_depth:
            state.high_depth = depth
        state.enq_count += 1
        self.put_count += 1
        state.last_put = now
        if uow is not None:
            message.put_uow = uow
            uow.puts.append(message)
            uow.count += 1
            state.uncommitted += 1
        else:
            self._store_put(message)
            self.arrivals.add(base.name)
        if plan.depth_watch:
            self._depth_high_event(base, state)
        if trigger:
            self._trigger(session, base, uow is not None)
        return md

    def deliver(self, session: SessionState | None, name: str, md: MessageDescriptor, body: bytes, syncpoint: bool, *, managed: bool = False) -> None:
        """A message the queue manager puts for someone else (a publication's copy, a retained publication): the
        descriptor as given, the queue's put checks but not the session's authority.  ``managed``: a subscription's
        managed queue, which takes persistent copies even when its model made it temporary (chosen: IBM delivers
        persistent publications to non-durable subscribers; the copy ends with the subscription)."""
        first, base = self._ends(name)
        plan = self._plan(base)
        if plan.put_inhibited or (first is not base and first.attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED):
            raise MQIError(mq.MQRC_PUT_INHIBITED)
        if managed and plan.temporary:
            plan = replace(plan, temporary=False)
        self._place(session if syncpoint else None, base, md, body, self.clock(), syncpoint, plan)

    def publication_descriptor(
        self,
        session: SessionState | None,
        persistence: int,
        priority: int,
        properties: tuple[tuple[str, str], ...],
        format: str = FORMAT_STRING,
        *,
        expiry: int | None = None,
        correl_id: bytes | None = None,
        reply_to_q: str = "",
        reply_to_qmgr: str = "",
    ) -> MessageDescriptor:
        """A publication's descriptor as its publisher put it (each copy then takes its own MsgId and CorrelId, and
        keeps its Expiry: every copy expires as the publication would).  ``correl_id``, ``reply_to_q`` and
        ``reply_to_qmgr`` as an MQPUT takes them (ReplyToQMgr blank with a ReplyToQ: this queue manager)."""
        if persistence != _NOT_PERSISTENT and persistence != _PERSISTENT:
            raise MQIError(mq.MQRC_PERSISTENCE_ERROR)
        if priority < 0:
            raise MQIError(mq.MQRC_PRIORITY_ERROR)
        expiry = _expiry(expiry)
        format = _format(format)
        if properties:
            _check_property_names(properties)
        if reply_to_q:
            reply_to_q, reply_to_qmgr = reply_to_q[:48], (reply_to_qmgr or self._engine.qmgr_name)[:48]
        elif reply_to_qmgr:
            reply_to_qmgr = reply_to_qmgr[:48]
        date, clock = _gmt(self.clock())
        if session is None:
            appl_name, user = "pcfserver", ""
        else:
            appl_name, user = session.appl_name, session.user
        return descriptor(
            self._new_msg_id(), _NO_ID if correl_id is None else _pad(correl_id), priority, persistence, expiry, format,
            reply_to_q, reply_to_qmgr, appl_name, date, clock, user, 0, 546, 1208, properties,
        )

    def dead_letter(
        self, session: SessionState | None, md: MessageDescriptor, body: bytes, reason: int, dest_q: str, dest_qmgr: str, syncpoint: bool
    ) -> bool:
        """The queue manager puts a message it could not deliver to ``dest_q`` on its dead-letter queue, behind an
        MQDLH (:func:`dead_letter_header`) that says why and where it was going; the descriptor is the message's
        own except Format MQDEAD, and Encoding and CodedCharSetId those of the header (IBM MQDLH "Putting messages on
        the dead-letter queue").  False when there is no dead-letter queue; MQIError when it refuses the message."""
        dlq = self._engine.qmgr_attr(mq.MQCA_DEAD_LETTER_Q_NAME)
        if not isinstance(dlq, str) or not dlq.strip():
            return False
        now = self.clock()
        date, clock = _gmt(now)
        header = dead_letter_header(reason, dest_q, dest_qmgr, md, self._engine.qmgr_name, date, clock)
        moved = replace(md, format=FORMAT_DEAD_LETTER, encoding=mq.MQENC_NATIVE, coded_char_set_id=self._engine.ccsid)
        self.deliver(session, dlq.strip(), moved, header + body, syncpoint)
        return True

    new_msg_id = _new_msg_id  # the public name (a plain alias: no extra call per publication copy)

    # ------------------------------------------------------------------ get and browse

    def get(
        self,
        session: SessionState,
        name: str,
        browse: bool = False,
        msg_id: bytes | str | None = None,
        correl_id: bytes | str | None = None,
        syncpoint: bool = False,
        first: bool = False,
        convert: Callable[[MessageDescriptor, bytes], bytes] | None = None,
        authorize: bool = True,
    ) -> tuple[MessageDescriptor, bytes]:
        """MQGET: the next eligible message, removed (or, browsing, left under the session's cursor).

        ``browse`` continues after the session's browse cursor on this queue (the first message the
        first time); ``first`` restarts at the first message (MQGMO_BROWSE_FIRST).  ``convert``
        makes the body handed back from the message found before anything changes: an MQIError
        it raises leaves the message where it was (the REST API's conversion to text).
        """
        session.last_reason = _RC_NONE
        named, plan = self._target(name)
        base = plan.record
        if authorize and session.identity is not None:
            self._authorize(session, named.name, mq.MQAUTH_BROWSE if browse else mq.MQAUTH_INPUT)
        if plan.get_inhibited or (named is not base and named.attrs.get(mq.MQIA_INHIBIT_GET) == mq.MQQA_GET_INHIBITED):
            raise MQIError(mq.MQRC_GET_INHIBITED)
        state = self.queues.get(base.name) or self.state(base.name)
        assert state is not None
        want_msg = _pad(msg_id) if msg_id is not None else None
        want_correl = _pad(correl_id) if correl_id is not None else None
        now = self.clock()
        cursor = None if (first or not browse) else session.cursors.get(base.name)
        found = self._find(state, now, want_msg, want_correl, cursor)
        if found is None:
            raise MQIError(mq.MQRC_NO_MSG_AVAILABLE)
        md = found.md if found.expires_at is None else replace(found.md, expiry=found.remaining_expiry(now))
        body = found.body if convert is None else convert(md, found.body)
        if browse:
            session.cursors[base.name] = (found.level, found.seq)
            return md, body
        uow = session.uow if syncpoint else None
        if uow is not None and uow.count + 1 > plan.max_uncommitted:
            raise MQIError(mq.MQRC_SYNCPOINT_LIMIT_REACHED)
        self._tx.undo.append(
            (_UNDO_GET, found, (state, uow, state.depth, state.uncommitted, state.deq_count, state.last_get, state.qtime, found.stored, uow.count if uow is not None else 0))
        )
        state.depth -= 1
        state.deq_count += 1
        self.get_count += 1
        state.last_get = now
        if plan.monitored:
            state.note_queue_time(now - found.put_at)
        level = state.levels[found.level]  # (QueueMessages.detach, a call less per get)
        if level[0] is found:
            level.popleft()
        if uow is not None:
            found.got_uow = uow
            uow.gets.append(found)
            uow.count += 1
            state.uncommitted += 1
        else:
            found.removed = True
            self._store_delete(found)
        if plan.low_watch:
            self._depth_low_event(base, state)
        return md, body

    def _find(
        self, state: QueueMessages, now: float, msg_id: bytes | None, correl_id: bytes | None, cursor: tuple[int, int] | None
    ) -> StoredMessage | None:
        """The first available message in delivery order (after ``cursor``) that matches; expired ones met are discarded."""
        levels = state.levels
        if cursor is None and msg_id is None and correl_id is None:  # a plain get: the first available message
            for level in reversed(levels):
                if not level:
                    continue
                while level and (level[0].removed or level[0].got_uow is not None):
                    level.popleft()
                for m in level:  # nothing below changes the deque's structure
                    if m.removed or m.put_uow is not None or m.got_uow is not None:
                        continue
                    if m.expires_at is not None and now >= m.expires_at:
                        self._discard(state, m)
                        continue
                    return m
            return None
        top = LEVELS - 1 if cursor is None else cursor[0]
        for index in range(top, -1, -1):
            level = levels[index]
            if not level:
                continue
            while level and (level[0].removed or level[0].got_uow is not None):
                level.popleft()
            after = cursor[1] if cursor is not None and index == cursor[0] else -1
            for m in level:  # nothing below changes the deque's structure
                if m.removed or m.put_uow is not None or m.got_uow is not None or m.seq <= after:
                    continue
                if msg_id is not None and m.md.msg_id != msg_id:
                    continue
                if correl_id is not None and m.md.correl_id != correl_id:
                    continue
                if m.expires_at is not None and now >= m.expires_at:
                    self._discard(state, m)
                    continue
                return m
        return None

    def _discard(self, state: QueueMessages, m: StoredMessage) -> None:
        """An expired message a get would have returned leaves the queue (no report: none is asked for here)."""
        self._snapshot(state)
        self._keep(m)
        m.removed = True
        state.depth -= 1
        self._store_delete(m)

    # ------------------------------------------------------------------ units of work

    def commit(self, session: SessionState) -> None:
        """MQCMIT: the unit's puts become available, its gets leave the queues for good."""
        uow = session.uow
        if not uow:
            uow.count = 0
            return
        puts, gets = uow.puts, uow.gets
        self._keep_unit(uow)
        queues = self.queues
        arrivals = self.arrivals
        rows: list[MessageRow] = []
        # A unit's messages are mostly on one queue: its state is looked up once per run of them (``last``).
        last: str | None = None
        state: QueueMessages | None = None
        for m in puts:
            m.put_uow = None
            if m.queue is not last:
                last = m.queue
                state = queues.get(last)
                if state is not None:
                    arrivals.add(last)
            if state is not None:  # (its queue may be gone)
                state.uncommitted -= 1
                if not m.removed and m.md.persistence == _PERSISTENT:
                    m.stored = True
                    rows.append((m.seq, m.queue, m.level, m.record(), m.body, 0))
        seqs: list[int] = []
        last = None
        for m in gets:
            m.got_uow = None
            m.removed = True
            if m.queue is not last:
                last = m.queue
                state = queues.get(last)
            if state is not None:
                state.uncommitted -= 1
            if m.stored:
                seqs.append(m.seq)
                m.stored = False
        # One operation each for the whole unit (a unit never gets what it put itself: the two are
        # different messages, so their order does not matter).
        if rows:
            self._engine.record_op(PutMessages(rows))
        if seqs:
            self._engine.record_op(DeleteMessages(seqs))
        uow.puts, uow.gets, uow.count = [], [], 0

    def _keep_unit(self, uow: UnitOfWork) -> None:
        """One undo record for a whole commit or backout: the unit, its messages and their queues' counters."""
        puts, gets, count = uow.puts, uow.gets, uow.count
        messages = [(m, m.removed, m.put_uow, m.got_uow, m.md, m.stored) for m in (*puts, *gets)]
        names = {m.queue for m in puts}
        names.update([m.queue for m in gets])
        counters = [
            (state, state.depth, state.uncommitted, state.high_depth)
            for name in names
            if (state := self.queues.get(name)) is not None
        ]

        def undo() -> None:
            uow.puts, uow.gets, uow.count = puts, gets, count
            for m, removed, put_uow, got_uow, md, stored in messages:
                m.removed, m.put_uow, m.got_uow, m.md, m.stored = removed, put_uow, got_uow, md, stored
            for state, depth, uncommitted, high in counters:
                state.depth, state.uncommitted, state.high_depth = depth, uncommitted, high
                for level in state.levels:
                    for m in [m for m in level if m.got_uow is not None]:
                        level.remove(m)  # locked again: out of the way of gets, as when it was got

        self._engine.record_undo(undo)

    def backout(self, session: SessionState) -> None:
        """MQBACK: the unit's puts are deleted; its gets go back with BackoutCount + 1."""
        uow = session.uow
        if not uow:
            uow.count = 0
            return
        self._keep_unit(uow)
        queues = self.queues
        for m in uow.puts:
            m.put_uow = None
            m.removed = True
            state = queues.get(m.queue)
            if state is not None:
                state.uncommitted -= 1
                state.depth -= 1
        for m in uow.gets:
            m.got_uow = None
            m.md = replace(m.md, backout_count=m.md.backout_count + 1)
            state = queues.get(m.queue)
            if state is not None:
                state.restore(m)
                state.uncommitted -= 1
                state.depth += 1
                state.high_depth = max(state.high_depth, state.depth)
                self.arrivals.add(m.queue)
            if m.stored:
                self._engine.record_op(UpdateMessage(m.seq, m.record()))
        uow.puts, uow.gets, uow.count = [], [], 0

    # ------------------------------------------------------------------ administration

    def uncommitted(self, name: str) -> int:
        state = self.queues.get(name)
        return state.uncommitted if state else 0

    def clear(self, name: str) -> int:
        """Every (committed) message of a local queue goes; the caller checked for uncommitted ones."""
        state = self.queues.get(name)
        if state is None:
            return 0
        cleared = 0
        seqs: list[int] = []
        self._snapshot(state)
        for m in list(state.in_order()):
            self._keep(m)
            m.removed = True
            if m.stored:
                seqs.append(m.seq)
            m.stored = False
            cleared += 1
        # A managed queue dropped with its subscription may hold messages got in a unit of work not yet committed:
        # their rows go too (a commit of the get deletes nothing more, a backout finds no queue to return to).
        seqs.extend(m.seq for session in self.sessions.values() for m in session.uow.gets if m.queue == name and m.stored)
        state.depth = 0
        self._engine.record_op(ClearMessages(name, seqs))
        return cleared

    def reset_statistics(self, name: str) -> tuple[int, int, int, int]:
        """(TimeSinceReset s, HighQDepth, MsgEnqCount, MsgDeqCount) since the last reset, then reset."""
        state = self.state(name)
        assert state is not None
        now = self.clock()
        result = (int(now - state.reset_at), state.high_depth, state.enq_count, state.deq_count)
        self._snapshot(state)
        saved_at = state.reset_at
        self._undo(lambda: setattr(state, "reset_at", saved_at))
        state.reset_at = now
        state.high_depth = state.depth
        state.enq_count = 0
        state.deq_count = 0
        return result

    def last_times(self, name: str) -> tuple[tuple[str, str], tuple[str, str]]:
        """((last get date, time), (last put date, time)), blank when there was none."""
        state = self.queues.get(name)
        if state is None:
            return ("", ""), ("", "")
        return _local(state.last_get), _local(state.last_put)

    def queue_time(self, name: str) -> tuple[int, int] | None:
        """QTIME: the short and long term averages of the time messages spent on the queue, in microseconds (None:
        nothing measured since the start)."""
        state = self.queues.get(name)
        if state is None or state.qtime is None:
            return None
        short, long = state.qtime
        return int(short * 1e6), int(long * 1e6)

    def stored_bytes(self, name: str) -> int:
        """The bytes a queue's messages take (bodies and a fixed 512 for each descriptor): DISPLAY QSTATUS CURFSIZE."""
        state = self.queues.get(name)
        return sum(len(m.body) + 512 for m in state.in_order()) if state else 0

    def oldest_age(self, name: str) -> int:
        state = self.queues.get(name)
        if state is None:
            return 0
        now = self.clock()
        ages = [now - m.put_at for m in state.in_order() if m.put_uow is None and m.got_uow is None]
        return int(max(ages)) if ages else 0

    def take_all(self, name: str) -> list[StoredMessage]:
        """The committed messages of a queue in delivery order (for MOVE; expired ones included)."""
        state = self.queues.get(name)
        return [m for m in state.in_order() if m.available()] if state else []

    def move_one(self, session: SessionState, m: StoredMessage, target: Queue) -> None:
        """One message of a MOVE: got from its queue and put on ``target`` in the session's unit of work, context kept."""
        source = self.queues[m.queue]
        uow = session.uow
        self._snapshot(source)
        self._keep(m)
        self._keep_uow(uow)
        source.depth -= 1
        source.deq_count += 1
        m.got_uow = uow
        uow.gets.append(m)
        source.uncommitted += 1
        self._place(session, target, m.md, m.body, m.put_at if m.expires_at is None else self.clock(), True)
        if m.expires_at is not None:
            placed = uow.puts[-1]
            placed.expires_at = m.expires_at  # expiry keeps counting from the original put
            placed.put_at = m.put_at

    # ------------------------------------------------------------------ triggers

    def _trigger_due(self, base: Queue, state: QueueMessages, priority: int) -> bool:
        """Whether a put of this priority makes a trigger event (round2-semantics §2.5)."""
        attrs = base.attrs
        if attrs.get(mq.MQIA_TRIGGER_CONTROL) != mq.MQTC_ON:
            return False
        kind = attrs.get(mq.MQIA_TRIGGER_TYPE, mq.MQTT_NONE)
        if kind == mq.MQTT_NONE:
            return False
        threshold = int(attrs.get(mq.MQIA_TRIGGER_MSG_PRIORITY, 0))
        if priority < threshold:
            return False
        initq_name = attrs.get(mq.MQCA_INITIATION_Q_NAME, "")
        assert isinstance(initq_name, str)
        initq = self._engine.queue(initq_name) if initq_name else None
        if initq is None or initq.qtype != _QT_LOCAL or initq.name == base.name:
            return False
        if initq.attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED:
            return False
        if self._trigger_process(base) is None and attrs.get(mq.MQIA_USAGE) != mq.MQUS_TRANSMISSION:
            return False  # the process must exist when the trigger event occurs (not for a transmission queue)
        if kind == mq.MQTT_EVERY:
            return True
        if state.open_input:
            return False
        before = sum(1 for m in state.in_order() if m.got_uow is None and min(m.md.priority, _MAX_PRIORITY) >= threshold)
        if kind == mq.MQTT_FIRST:
            return before == 0
        return before == int(attrs.get(mq.MQIA_TRIGGER_DEPTH, 1)) - 1

    def _trigger_process(self, base: Queue) -> NamedObject | None:
        """The process definition the queue's ProcessName names, if there is one."""
        name = base.attrs.get(mq.MQCA_PROCESS_NAME, "")
        return self._engine.objects.get(mq.MQOT_PROCESS, name) if isinstance(name, str) and name else None

    def _trigger(self, session: SessionState | None, base: Queue, syncpoint: bool) -> None:
        """Puts the MQTM trigger message on the initiation queue; a DEPTH trigger switches triggering off."""
        attrs = base.attrs
        initq = self._engine.queue(str(attrs.get(mq.MQCA_INITIATION_Q_NAME, "")))
        assert initq is not None
        if attrs.get(mq.MQIA_TRIGGER_TYPE) == mq.MQTT_DEPTH:
            self._engine.set_queue_attrs(base.name, ((mq.MQIA_TRIGGER_CONTROL, mq.MQTC_OFF),))
        process = self._trigger_process(base)
        body = trigger_message(base.name, str(attrs.get(mq.MQCA_PROCESS_NAME, "")), str(attrs.get(mq.MQCA_TRIGGER_DATA, "")), *_process_fields(process))
        now = self.clock()
        try:
            self._place(session if syncpoint else None, initq, self._own_descriptor(now, FORMAT_TRIGGER), body, now, syncpoint)
        except MQIError:
            pass  # the initiation queue cannot take it (full, too long): no trigger message, as MQ does

    # ------------------------------------------------------------------ performance events

    def _events_on(self) -> bool:
        return self._engine.qmgr_attr(mq.MQIA_PERFORMANCE_EVENT) == _ENABLED

    def _depth_high_event(self, base: Queue, state: QueueMessages) -> None:
        """Queue Depth High: a warning in the server's log (TPF's QDEPTHHI console warning) and, with PERFMEV, the event."""
        attrs = base.attrs
        if attrs.get(mq.MQIA_Q_DEPTH_HIGH_EVENT) != _ENABLED or base.name == EVENT_QUEUE:
            return
        limit = int(attrs.get(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 80)) * int(attrs.get(mq.MQIA_MAX_Q_DEPTH, 0))
        if state.depth * 100 < limit:
            return
        if (state.depth - 1) * 100 < limit:  # this put crossed the limit
            log.warning("queue %s depth %d reached its high limit (%s%% of MAXDEPTH)", base.name, state.depth, attrs.get(mq.MQIA_Q_DEPTH_HIGH_LIMIT))
        if not self._events_on():
            return
        self._event(base, state, mq.MQRC_Q_DEPTH_HIGH, ((mq.MQIA_Q_DEPTH_HIGH_EVENT, _DISABLED), (mq.MQIA_Q_DEPTH_LOW_EVENT, _ENABLED), (mq.MQIA_Q_DEPTH_MAX_EVENT, _ENABLED)))

    def _depth_low_event(self, base: Queue, state: QueueMessages) -> None:
        attrs = base.attrs
        if attrs.get(mq.MQIA_Q_DEPTH_LOW_EVENT) != _ENABLED or not self._events_on() or base.name == EVENT_QUEUE:
            return
        if state.depth * 100 > int(attrs.get(mq.MQIA_Q_DEPTH_LOW_LIMIT, 20)) * int(attrs.get(mq.MQIA_MAX_Q_DEPTH, 0)):
            return
        self._event(base, state, mq.MQRC_Q_DEPTH_LOW, ((mq.MQIA_Q_DEPTH_LOW_EVENT, _DISABLED), (mq.MQIA_Q_DEPTH_HIGH_EVENT, _ENABLED), (mq.MQIA_Q_DEPTH_MAX_EVENT, _ENABLED)))

    def _queue_full_event(self, base: Queue, state: QueueMessages) -> None:
        if base.attrs.get(mq.MQIA_Q_DEPTH_MAX_EVENT) != _ENABLED or not self._events_on() or base.name == EVENT_QUEUE:
            return
        self._event(base, state, mq.MQRC_Q_FULL, ((mq.MQIA_Q_DEPTH_MAX_EVENT, _DISABLED), (mq.MQIA_Q_DEPTH_LOW_EVENT, _ENABLED)))

    def _event(self, base: Queue, state: QueueMessages, reason: int, switches: tuple[tuple[int, int], ...]) -> None:
        """A performance event message on SYSTEM.ADMIN.PERFM.EVENT; the queue's statistics reset; the event switches flipped."""
        engine = self._engine
        since, high, enq, deq = self.reset_statistics(base.name)
        engine.set_queue_attrs(base.name, switches)
        params = (
            String(mq.MQCA_Q_MGR_NAME, engine.qmgr_name.ljust(48), engine.ccsid),
            String(mq.MQCA_BASE_Q_NAME, base.name.ljust(48), engine.ccsid),
            Integer(mq.MQIA_TIME_SINCE_RESET, since),
            Integer(mq.MQIA_HIGH_Q_DEPTH, high),
            Integer(mq.MQIA_MSG_ENQ_COUNT, enq),
            Integer(mq.MQIA_MSG_DEQ_COUNT, deq),
        )
        event = Message(
            command=mq.MQCMD_PERFM_EVENT,
            parameters=params,
            type=mq.MQCFT_EVENT,
            comp_code=mq.MQCC_WARNING,
            reason=reason,
            byte_order="little",
        )
        queue = engine.queue(EVENT_QUEUE)
        if queue is None or queue.qtype != _QT_LOCAL or queue.attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED:
            return  # no event queue: the event is lost, as on MQ
        now = self.clock()
        try:
            self._place(None, queue, self._own_descriptor(now, FORMAT_EVENT), encode(event), now, False)
        except MQIError:
            pass  # the event queue is full or the message too long for it: the event is lost


def _process_fields(process: NamedObject | None) -> tuple[int, str, str, str]:
    """MQTM's ApplType, ApplId, EnvData and UserData: the process definition's (zero and blanks without one)."""
    if process is None:
        return 0, "", "", ""
    attrs = process.attrs
    appl_type = attrs.get(mq.MQIA_APPL_TYPE, 0)
    return (
        appl_type if isinstance(appl_type, int) else 0,
        str(attrs.get(mq.MQCA_APPL_ID, "")),
        str(attrs.get(mq.MQCA_ENV_DATA, "")),
        str(attrs.get(mq.MQCA_USER_DATA, "")),
    )


def trigger_message(queue: str, process: str, trigger_data: str, appl_type: int = 0, appl_id: str = "", env_data: str = "", user_data: str = "") -> bytes:
    """An MQTM (version 1, 684 bytes) in the native encoding (little-endian) and the queue manager's CCSID."""
    return (
        b"TM  "
        + struct.pack("<i", mq.MQTM_VERSION_1)
        + _chars(queue, 48)
        + _chars(process, 48)
        + _chars(trigger_data, 64)
        + struct.pack("<i", appl_type)
        + _chars(appl_id, 256)
        + _chars(env_data, 128)
        + _chars(user_data, 128)
    )


_DLH = struct.Struct("<4sii48s48sii8si28s8s8s")  # MQDLH version 1, 172 bytes, native (little-endian) encoding
_RFH2 = struct.Struct("<4siiii8sii")  # MQRFH2 fixed part, 36 bytes


def _chars(value: str, length: int) -> bytes:
    return value.encode("latin-1", "replace")[:length].ljust(length, b" ")


def dead_letter_header(reason: int, dest_q: str, dest_qmgr: str, md: MessageDescriptor, put_appl_name: str, put_date: str, put_time: str) -> bytes:
    """An MQDLH (version 1): StrucId 'DLH ', the Reason the message could not be delivered (an MQRC_*), the original
    destination queue and queue manager, the Encoding, CodedCharSetId and Format of the data that follows (the
    message's own), and who put it on the dead-letter queue and when: PutApplType MQAT_QMGR and the queue manager's
    name for the queue manager's own redirections (K, formats/pubsub-rules.tsv), PutDate YYYYMMDD, PutTime HHMMSSTH."""
    return _DLH.pack(
        b"DLH ", 1, reason, _chars(dest_q, 48), _chars(dest_qmgr, 48), md.encoding, md.coded_char_set_id, _chars(md.format, 8),
        mq.MQAT_QMGR, _chars(put_appl_name, 28), _chars(put_date, 8), _chars(put_time, 8),
    )


def rfh2_header(folder: str, content: str, encoding: int, ccsid: int, format: str) -> bytes:
    """An MQRFH2 (version 2) holding one name/value folder ``<folder>content</folder>`` (UTF-8, NameValueCCSID 1208,
    padded with blanks to a multiple of 4 as IBM requires), before data of the given encoding, CCSID and format."""
    data = f"<{folder}>{content}</{folder}>".encode()
    data += b" " * (-len(data) % 4)
    length = _RFH2.size + 4 + len(data)
    return _RFH2.pack(b"RFH ", 2, length, encoding, ccsid, _chars(format, 8), 0, 1208) + struct.pack("<i", len(data)) + data


def _md_from_record(record: tuple[object, ...]) -> tuple[MessageDescriptor, float, float | None]:
    fields = record[:-2]
    put_at, expires_at = record[-2], record[-1]
    assert isinstance(put_at, float)
    assert expires_at is None or isinstance(expires_at, float)
    return MessageDescriptor(*fields), put_at, expires_at  # type: ignore[arg-type]
