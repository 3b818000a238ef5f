"""Messages on local queues: descriptors, the per-queue store in delivery order, units of work.

Pure data structures (sans-IO, no engine knowledge).  :mod:`pcfserver.engine.messaging` applies
the MQI rules (put, get, browse, commit, backout) on top of them.

Delivery order: every queue keeps one deque per priority level 0..9; a message goes to the level
of its priority when the queue delivers by priority, and to the level of the queue's DefPriority
when it delivers FIFO (its position is fixed on arrival, as IBM documents for MsgDeliverySequence).
The next message is the oldest one on the highest non-empty level.  Messages leave a deque lazily:
a removed message is marked and dropped when it reaches the front, so a get is O(1) in the usual
case and never shifts the deque.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pcfserver import mq, names

LEVELS = 10  # priorities 0..9 (MaxPriority 9)


class MQIError(Exception):
    """An MQI call that failed (or, with comp_code MQCC_WARNING, a call that did its work with a warning)."""

    def __init__(self, reason: int, comp_code: int = mq.MQCC_FAILED) -> None:
        self.reason = reason
        self.comp_code = comp_code
        self.reason_name = names.reason_name(reason) or str(reason)
        super().__init__(f"{self.reason_name} ({reason})")


@dataclass(frozen=True, slots=True)
class MessageDescriptor:
    """A message's descriptor as MQGET returns it (the MQMD fields this server keeps).

    ``expiry`` is in tenths of a second: the time left when the message was got or browsed, or
    -1 (MQEI_UNLIMITED).  ``put_date`` is ``YYYYMMDD`` and ``put_time`` ``HHMMSSTH`` (GMT), as in
    the MQMD.  ``priority`` is the priority the putter gave (or the queue's default), even when
    the message was queued at MaxPriority because it was higher.
    """

    msg_id: bytes
    correl_id: bytes
    priority: int
    persistence: int
    expiry: int
    format: str
    reply_to_q: str
    reply_to_qmgr: str
    put_appl_name: str
    put_date: str
    put_time: str
    user_identifier: str
    backout_count: int
    encoding: int = 546  # MQENC_NATIVE on Linux x86-64
    coded_char_set_id: int = 1208
    properties: tuple[tuple[str, str], ...] = ()  # message properties (name, value), as the REST API's ibm-mq-usr-* headers carry them


_new_object = object.__new__


class _Unfrozen:
    """MessageDescriptor's very slots, without the frozen ``__setattr__``: :func:`descriptor` fills one with plain
    attribute stores and then makes it a MessageDescriptor, frozen from then on (the same slots in the same order,
    so Python allows the change of class)."""

    __slots__ = MessageDescriptor.__slots__


def descriptor(
    msg_id: bytes,
    correl_id: bytes,
    priority: int,
    persistence: int,
    expiry: int,
    format: str,
    reply_to_q: str,
    reply_to_qmgr: str,
    put_appl_name: str,
    put_date: str,
    put_time: str,
    user_identifier: str,
    backout_count: int,
    encoding: int = 546,
    coded_char_set_id: int = 1208,
    properties: tuple[tuple[str, str], ...] = (),
) -> MessageDescriptor:
    """``MessageDescriptor(...)`` (positional fields), built without the frozen dataclass's ``__init__``: that one
    sets each field through ``object.__setattr__`` by name (4.1 us a descriptor), and setting them through each
    slot's ``__set__`` still cost 1.15 us and 13,300 instructions; plain stores into :class:`_Unfrozen`'s slots
    and one change of class cost 0.55 us and 5,900 (a put makes one descriptor)."""
    md: Any = _new_object(_Unfrozen)
    md.msg_id = msg_id
    md.correl_id = correl_id
    md.priority = priority
    md.persistence = persistence
    md.expiry = expiry
    md.format = format
    md.reply_to_q = reply_to_q
    md.reply_to_qmgr = reply_to_qmgr
    md.put_appl_name = put_appl_name
    md.put_date = put_date
    md.put_time = put_time
    md.user_identifier = user_identifier
    md.backout_count = backout_count
    md.encoding = encoding
    md.coded_char_set_id = coded_char_set_id
    md.properties = properties
    md.__class__ = MessageDescriptor
    return md  # type: ignore[no-any-return]


class UnitOfWork:
    """A session's unit of work: the messages it put and got under syncpoint, not yet committed."""

    __slots__ = ("count", "gets", "puts")

    def __init__(self) -> None:
        self.puts: list[StoredMessage] = []
        self.gets: list[StoredMessage] = []
        self.count = 0  # what counts towards MaxUncommittedMsgs (puts, gets and trigger messages)

    def __bool__(self) -> bool:
        return bool(self.puts or self.gets)


class StoredMessage:
    """One physical message on a queue.

    ``put_uow`` is the unit of work that put it while uncommitted (invisible to every get and
    browse); ``got_uow`` the unit of work that got it while uncommitted (invisible too, still on
    the queue until commit); ``removed`` once it has left the queue for good.
    """

    __slots__ = (
        "body",
        "expires_at",
        "got_uow",
        "level",
        "md",
        "put_at",
        "put_uow",
        "queue",
        "removed",
        "seq",
        "stored",
    )

    def __init__(self, seq: int, queue: str, level: int, md: MessageDescriptor, body: bytes, put_at: float, expires_at: float | None) -> None:
        self.seq = seq
        self.queue = queue
        self.level = level
        self.md = md
        self.body = body
        self.put_at = put_at
        self.expires_at = expires_at
        self.put_uow: UnitOfWork | None = None
        self.got_uow: UnitOfWork | None = None
        self.removed = False
        self.stored = False  # a row for it is (or will be, once this batch commits) in the store

    def record(self) -> tuple[object, ...]:
        """Its descriptor's fields in declaration order (ints, strings and bytes), then when it was put and when it
        expires: the plain data the store keeps (one pickle per row, or inside its batch's; store.md_fields reads
        it back).  One tuple built from the slots: a tuple of the fields and a second one around it cost twice as much,
        and every persistent message committed makes one."""
        md, put_at, expires_at = self.md, self.put_at, self.expires_at
        return (
            md.msg_id,
            md.correl_id,
            md.priority,
            md.persistence,
            md.expiry,
            md.format,
            md.reply_to_q,
            md.reply_to_qmgr,
            md.put_appl_name,
            md.put_date,
            md.put_time,
            md.user_identifier,
            md.backout_count,
            md.encoding,
            md.coded_char_set_id,
            md.properties,
            # (float() only when needed: a type call per stored message cost 750 instructions, and the clock gives floats)
            put_at if type(put_at) is float else float(put_at),
            expires_at if expires_at is None or type(expires_at) is float else float(expires_at),
        )

    @property
    def persistent(self) -> bool:
        return self.md.persistence == mq.MQPER_PERSISTENT

    def available(self) -> bool:
        return self.put_uow is None and self.got_uow is None and not self.removed

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def remaining_expiry(self, now: float) -> int:
        """Expiry in tenths of a second left now (at least 1 while not expired), or -1 for unlimited."""
        if self.expires_at is None:
            return mq.MQEI_UNLIMITED
        return max(1, int((self.expires_at - now) * 10 + 0.999))


class QueueMessages:
    """The messages of one local queue and its runtime status (depth, handles, statistics)."""

    __slots__ = (
        "depth",
        "deq_count",
        "enq_count",
        "high_depth",
        "last_get",
        "last_put",
        "levels",
        "open_input",
        "open_output",
        "qtime",
        "reset_at",
        "uncommitted",
    )

    def __init__(self, now: float) -> None:
        self.levels: list[deque[StoredMessage]] = [deque() for _ in range(LEVELS)]
        self.depth = 0  # physical messages: uncommitted puts counted, uncommitted gets subtracted
        self.uncommitted = 0  # messages put or got in a unit of work not yet committed
        self.open_input = 0
        self.open_output = 0
        self.high_depth = 0
        self.enq_count = 0
        self.deq_count = 0
        self.reset_at = now
        self.last_put: float | None = None
        self.last_get: float | None = None
        # QTIME: the short and long term averages of the seconds messages spent on the queue, measured at each
        # destructive get while monitoring is on (None: nothing measured yet); see note_queue_time.
        self.qtime: tuple[float, float] | None = None

    def note_queue_time(self, seconds: float) -> None:
        """One more message's time on the queue: the short term average weighs it 1/4, the long term 1/32 (IBM gives
        no formula: formats/queue-status-attributes.tsv); the first measurement starts both."""
        old = self.qtime
        if old is None:
            self.qtime = (seconds, seconds)
        else:
            self.qtime = (old[0] + (seconds - old[0]) * 0.25, old[1] + (seconds - old[1]) * 0.03125)

    def add(self, message: StoredMessage) -> None:
        self.levels[message.level].append(message)
        self.depth += 1
        if self.depth > self.high_depth:
            self.high_depth = self.depth

    def detach(self, message: StoredMessage) -> None:
        """A message got (or locked by a unit of work) leaves its deque at once when it is at the front."""
        level = self.levels[message.level]
        if level and level[0] is message:
            level.popleft()

    def restore(self, message: StoredMessage) -> None:
        """A message made visible again (backout of its get, undo of a removal) goes back to its place."""
        message.removed = False
        level = self.levels[message.level]
        if message not in level:
            # Lazily dropped already: it goes back at its place in arrival order.
            items = list(level)
            index = next((i for i, m in enumerate(items) if m.seq > message.seq), len(items))
            level.insert(index, message)

    def in_order(self) -> Iterator[StoredMessage]:
        """Every message still on the queue (committed or not) in delivery order."""
        for level in reversed(self.levels):
            while level and level[0].removed:
                level.popleft()
            for message in level:
                if not message.removed:
                    yield message

    def __contains__(self, message: StoredMessage) -> bool:
        return message in self.levels[message.level]

    def committed_count(self) -> int:
        return sum(1 for m in self.in_order() if m.put_uow is None)

    def messages(self) -> list[StoredMessage]:
        return list(self.in_order())


MONITORING_ON = frozenset((mq.MQMON_LOW, mq.MQMON_MEDIUM, mq.MQMON_HIGH))


def monitoring_level(queue: object, qmgr: object) -> object:
    """The level of monitoring in effect for a queue (OFF, LOW, MEDIUM or HIGH): the queue's MONQ, or the queue
    manager's for MONQ(QMGR); the queue manager's MONQ(NONE) turns it off for every queue (IBM, QueueMonitoring of
    the queue and of the queue manager)."""
    if qmgr == mq.MQMON_NONE:
        return mq.MQMON_OFF
    if queue == mq.MQMON_Q_MGR:
        return qmgr if qmgr in MONITORING_ON else mq.MQMON_OFF
    return queue
