"""A queue manager embedded in the process: PCF commands and the MQI (put, get, browse, units of work).

    from pcfserver import open_queue_manager, MQIError

    with open_queue_manager() as qm:                      # in memory; data_dir=Path for a durable one
        qm.execute(pcf_command)                           # list[Message], as the command server answers
        with qm.session() as s:
            s.put("APP.Q", b"hello", persistent=True)
            md, body = s.get("APP.Q", wait=1.0)
            s.put("APP.Q", b"in a unit of work", syncpoint=True)
            s.commit()

Every call is durable before it returns (when the queue manager has a data directory), exactly as
the server acknowledges only what it committed.  The object is thread-safe: calls are serialised
by one lock, and a get that waits releases it until a message arrives or the wait ends.  A session
that ends without commit has its unit of work backed out (as when an application disconnects).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from pcfserver import mq
from pcfserver.codec import Message
from pcfserver.engine import open_engine
from pcfserver.engine.authority import Identity
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.engine.messaging import FORMAT_STRING, SessionState
from pcfserver.engine.pubsub import SubscriptionInfo

_T = TypeVar("_T")


_PERSISTENT = mq.MQPER_PERSISTENT
_NOT_PERSISTENT = mq.MQPER_NOT_PERSISTENT


def _reply_to(value: str | None) -> tuple[str, str]:
    if not value:
        return "", ""
    queue, _, qmgr = value.partition("@")
    return queue, qmgr


class Session:
    """A connection to the queue manager (MQCONN): puts, gets and one unit of work at a time."""

    def __init__(self, qm: QueueManager, state: SessionState) -> None:
        self._qm = qm
        self._state = state
        self._layer = layer = qm.engine.messaging
        self._closed = False
        # the embedded API's two calls, bound once (a bound method made per put and get cost more than the rest of put)
        self._call_now = qm.call_now
        self._layer_put = layer.put
        self._layer_get = layer.get

    @property
    def last_reason(self) -> int:
        """The reason of the last call that succeeded with a warning (MQRC_PRIORITY_EXCEEDS_MAXIMUM), else 0."""
        return self._state.last_reason

    def put(
        self,
        queue: str,
        body: bytes | str,
        *,
        persistent: bool | None = None,
        priority: int | None = None,
        expiry: int | None = None,
        correl_id: bytes | str | None = None,
        msg_id: bytes | str | None = None,
        reply_to: str | None = None,
        format: str = FORMAT_STRING,
        syncpoint: bool = False,
    ) -> MessageDescriptor:
        """MQPUT1 of ``body`` (str is sent as UTF-8); ``expiry`` in tenths of a second; ``reply_to`` "queue[@qmgr]"."""
        data = body if type(body) is bytes else body.encode("utf-8") if isinstance(body, str) else bytes(body)
        persistence = None if persistent is None else (_PERSISTENT if persistent else _NOT_PERSISTENT)
        reply_q, reply_qmgr = _reply_to(reply_to) if reply_to else ("", "")
        if self._closed or self._state.stopped:
            raise self._gone()
        # positional: the layer's parameters in order (a call of twelve keywords cost a tenth of an embedded put), handed
        # over as arguments (a lambda over thirteen variables made a cell for each, a partial cost 1,900 instructions)
        return self._call_now(
            self._layer_put, self._state, queue, data, persistence, priority, expiry, correl_id, msg_id, reply_q, reply_qmgr, format, syncpoint
        )

    def get(
        self,
        queue: str,
        *,
        browse: bool = False,
        msg_id: bytes | str | None = None,
        correl_id: bytes | str | None = None,
        wait: float = 0,
        syncpoint: bool = False,
    ) -> tuple[MessageDescriptor, bytes]:
        """MQGET (or, with ``browse``, the next message under this session's browse cursor); ``wait`` in seconds."""
        if wait <= 0:  # the usual call, without _get's plumbing for waiting
            if self._closed or self._state.stopped:
                raise self._gone()
            return self._call_now(self._layer_get, self._state, queue, browse, msg_id, correl_id, syncpoint)
        return self._get(queue, browse=browse, msg_id=msg_id, correl_id=correl_id, wait=wait, syncpoint=syncpoint)

    def _get(
        self,
        queue: str,
        *,
        browse: bool = False,
        msg_id: bytes | str | None = None,
        correl_id: bytes | str | None = None,
        wait: float = 0,
        syncpoint: bool = False,
        authorize: bool = True,
    ) -> tuple[MessageDescriptor, bytes]:
        layer = self._qm.engine.messaging
        state = self._live()

        def action() -> tuple[MessageDescriptor, bytes]:
            if state.stopped:  # STOP CONN while the get waited: the wait ends, as the connection does
                raise MQIError(mq.MQRC_CONNECTION_BROKEN)
            return layer.get(state, queue, browse=browse, msg_id=msg_id, correl_id=correl_id, syncpoint=syncpoint, authorize=authorize)

        if wait <= 0:
            return self._qm.call(action)
        return self._qm.call(
            action,
            wait=wait,
            waiting=lambda: layer.open(state, queue, input=not browse),  # a browse-only open is not an input open (IPPROCS)
            done_waiting=lambda handle: layer.close(state, handle),
        )

    def publish(
        self,
        topic_string: str,
        body: bytes | str,
        *,
        retain: bool = False,
        persistent: bool | None = None,
        priority: int | None = None,
        expiry: int | None = None,
        properties: dict[str, str] | None = None,
        syncpoint: bool = False,
        warn_if_no_subs: bool = False,
        correl_id: bytes | None = None,
        reply_to_q: str = "",
        reply_to_qmgr: str = "",
        suppress_reply_to: bool = False,
    ) -> MessageDescriptor:
        """MQPUT to a topic string: one copy to every matching subscription (``persistent``/``priority`` None: the
        topic's DEFPSIST/DEFPRTY); ``retain`` keeps it as the topic's retained publication; ``expiry`` in tenths
        of a second, on every copy.  Returns the descriptor as published.  ``warn_if_no_subs``
        (MQPMO_WARN_IF_NO_SUBS_MATCHED): when no subscription took it, :attr:`last_reason` is
        MQRC_NO_SUBS_MATCHED 2550 (IBM's warning; the call still succeeds).  ``correl_id`` reaches only the copies
        of subscriptions whose correlation id is MQCI_NONE (the others carry their own, IBM SubCorrelId);
        ``reply_to_q``/``reply_to_qmgr`` go onto every copy unless ``suppress_reply_to`` (MQPMO_SUPPRESS_REPLYTO)."""
        data = body if type(body) is bytes else body.encode("utf-8") if isinstance(body, str) else bytes(body)
        persistence = None if persistent is None else (_PERSISTENT if persistent else _NOT_PERSISTENT)
        if self._closed or self._state.stopped:
            raise self._gone()
        qm = self._qm
        # by position: a partial without keywords is the cheaper call (PubSub.publish's parameters, in order)
        return qm.call(
            partial(
                qm.engine.pubsub.publish, self._state, topic_string, data, retain, persistence, priority, expiry,
                tuple(properties.items()) if properties else (), syncpoint, warn_if_no_subs, correl_id, reply_to_q, reply_to_qmgr,
                suppress_reply_to,
            )
        )

    def subscribe(
        self,
        topic_string: str,
        *,
        name: str | None = None,
        durable: bool = False,
        new_publications_only: bool = False,
        wildcard_schema: str = "topic",
        selector: str = "",
        correl_id: bytes | None = None,
    ) -> Subscription:
        """MQSUB with a managed queue: a non-durable subscription (ends with :meth:`Subscription.close` or this
        session) or a durable one, made or resumed by ``name``.  ``wildcard_schema``: "topic" or "char";
        ``selector``: a message selector on the publications' properties (pcfserver.engine.selector);
        ``correl_id``: MQSO_SET_CORREL_ID with this SubCorrelId (bytes(24), MQCI_NONE: each copy keeps the
        publication's own CorrelId); None: the queue manager's (the SubId)."""
        pubsub = self._qm.engine.pubsub
        state = self._live()
        schema = mq.MQWS_CHAR if wildcard_schema == "char" else mq.MQWS_TOPIC
        info = self._qm.call(
            lambda: pubsub.subscribe(
                state, topic_string, name=name, durable=durable, new_publications_only=new_publications_only, wildcard_schema=schema,
                selector=selector, correl_id=correl_id,
            )
        )
        return Subscription(self, info)

    def open(self, queue: str, *, input: bool = False, output: bool = False) -> int:
        """MQOPEN: the queue counts as open (OpenInputCount/OpenOutputCount) until :meth:`close`; returns a handle."""
        layer = self._qm.engine.messaging
        return self._qm.call(lambda: layer.open(self._live(), queue, input=input, output=output))

    def close(self, handle: int) -> None:
        layer = self._qm.engine.messaging
        self._qm.call(lambda: layer.close(self._live(), handle))

    def commit(self) -> None:
        self._qm.call_now(self._layer.commit, self._live())

    def backout(self) -> None:
        layer = self._qm.engine.messaging
        self._qm.call(lambda: layer.backout(self._live()))

    def end(self) -> None:
        """Disconnect: an open unit of work is backed out, handles are closed."""
        if self._closed:
            return
        self._closed = True
        layer = self._qm.engine.messaging
        if not self._qm.closed:
            self._qm.call(lambda: layer.end_session(self._state))

    def _gone(self) -> MQIError:
        """Why a call cannot run: the session was ended (MQRC_HCONN_ERROR) or STOP CONN broke it (MQRC_CONNECTION_BROKEN)."""
        return MQIError(mq.MQRC_HCONN_ERROR if self._closed else mq.MQRC_CONNECTION_BROKEN)

    def _live(self) -> SessionState:
        if self._closed or self._state.stopped:
            raise self._gone()
        return self._state

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.end()


class Subscription:
    """A subscription made by :meth:`Session.subscribe`: its publications are read from its managed queue."""

    def __init__(self, session: Session, info: SubscriptionInfo) -> None:
        self._session = session
        self.name = info.name
        self.sub_id = info.sub_id
        self.queue = info.queue
        self.durable = info.durable
        self.managed = True  # Session.subscribe makes managed subscriptions only
        self.closed = False

    def get(self, *, wait: float = 0, browse: bool = False, syncpoint: bool = False) -> tuple[MessageDescriptor, bytes]:
        """The next publication (MQGET on the subscription's queue); ``wait`` in seconds."""
        if self.closed:
            raise MQIError(mq.MQRC_HOBJ_ERROR)
        # the subscriber reads its managed queue through the subscription's handle: no authority of its own needed
        return self._session._get(self.queue, wait=wait, browse=browse, syncpoint=syncpoint, authorize=self.managed is False)

    def close(self, *, remove: bool = False) -> None:
        """MQCLOSE: a non-durable subscription ends (its queue and what it held go); a durable one stays to be
        resumed by name unless ``remove`` (MQCO_REMOVE_SUB)."""
        if self.closed:
            return
        self.closed = True
        if self.durable and not remove:
            return
        pubsub = self._session._qm.engine.pubsub
        name = self.name
        self._session._qm.call(lambda: pubsub.unsubscribe(name))

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class QueueManager:
    """An engine with a lock, durable commits and waiting gets (see the module docstring)."""

    def __init__(self, data_dir: Path | None = None, qmgr: str | None = None, ccsid: int | None = None) -> None:
        self.engine = open_engine(data_dir, qmgr, ccsid)
        # Read once: every MQI call uses them (the message layer's arrivals set is one object for its life).
        self._execute_operation = self.engine.execute_operation
        self._arrivals = self.engine.messaging.arrivals
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self.closed = False

    @property
    def name(self) -> str:
        return self.engine.qmgr_name

    def execute(self, command: Message, identity: Identity | None = None) -> list[Message]:
        """One PCF command, answered as IBM MQ's command server answers it, after its change is durable.

        With ``identity`` the command is checked against that identity's authority (MQRC_NOT_AUTHORIZED)."""
        with self._lock:
            self._check_open()
            answer = self.engine.execute(command, identity)
            self._notify()
            return answer

    @contextmanager
    def session(self, appl_name: str = "pcfserver", user: str = "", identity: Identity | None = None) -> Iterator[Session]:
        """A new session; it ends (unit of work backed out) when the block does.  With ``identity``
        its calls are checked against that identity's authority records (MQRC_NOT_AUTHORIZED)."""
        with self._lock:
            self._check_open()
            state = self.engine.messaging.open_session(appl_name, user, identity)
        session = Session(self, state)
        try:
            yield session
        finally:
            session.end()

    def call_now(self, action: Callable[..., _T], *args: object) -> _T:
        """``call`` without waiting: a message-layer call, ``action(*args)``, run durably under the lock."""
        lock = self._lock
        lock.acquire()  # (not a with statement: its look-ups of __enter__ and __exit__ cost a tenth of this call)
        try:
            if self.closed:
                raise MQIError(mq.MQRC_CONNECTION_BROKEN)
            return self._execute_operation(action, args)
        finally:
            if self._arrivals:
                self._notify()
            lock.release()

    def call(
        self,
        action: Callable[[], _T],
        *,
        wait: float = 0,
        waiting: Callable[[], int] | None = None,
        done_waiting: Callable[[int], None] | None = None,
    ) -> _T:
        """Runs a message-layer call durably under the lock; with ``wait``, retries MQRC_NO_MSG_AVAILABLE until it passes."""
        if wait <= 0:
            return self.call_now(action)
        deadline = time.monotonic() + wait
        handle: int | None = None
        with self._lock:
            try:
                while True:
                    self._check_open()
                    try:
                        result = self.engine.execute_operation(action)
                    except MQIError as error:
                        self._notify()
                        remaining = deadline - time.monotonic()
                        if error.reason != mq.MQRC_NO_MSG_AVAILABLE or remaining <= 0:
                            raise
                        if handle is None and waiting is not None:
                            handle = self.engine.execute_operation(waiting)  # a waiting get has the queue open
                        self._arrived.wait(remaining)
                        continue
                    self._notify()
                    return result
            finally:
                if handle is not None and done_waiting is not None and not self.closed:
                    self.engine.execute_operation(lambda: done_waiting(handle))

    def _notify(self) -> None:
        arrivals = self.engine.messaging.arrivals
        if arrivals:
            arrivals.clear()
            self._arrived.notify_all()

    def _check_open(self) -> None:
        if self.closed:
            raise MQIError(mq.MQRC_CONNECTION_BROKEN)

    def close(self) -> None:
        """Ends every session (units of work backed out) and closes the store; waiting gets fail."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            self.engine.close()
            self._arrived.notify_all()

    def __enter__(self) -> QueueManager:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def open_queue_manager(data_dir: Path | str | None = None, qmgr: str | None = "QM1", ccsid: int | None = None) -> QueueManager:
    """A queue manager in this process: in memory (``data_dir=None``) or durable in ``data_dir``.

    An existing data directory keeps its own name; ``qmgr`` is only checked against it when given
    explicitly and different from the default.
    """
    path = None if data_dir is None else Path(data_dir)
    name = qmgr
    if path is not None and qmgr == "QM1" and (path / "registry.sqlite3").exists():
        name = None  # the default name never conflicts with the registry's own
    return QueueManager(path, name, ccsid)
