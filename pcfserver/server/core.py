"""The trio TCP server: a thin shell that moves bytes between sockets, the per-connection
protocol objects (sans-IO) and the engine.

Each connection is one task on a plain non-blocking socket that only reads: it waits with
trio's ``wait_readable`` when the socket has nothing to give, decodes, and applies the commands
to the engine in memory at once (the event loop serialises them).  The committer
(``pcfserver.server.committer``, shared with the HTTP listener) commits everything applied since
its last commit as one transaction and then sends every answer itself, in order, so that a
connection wakes once per request, not twice.  While one group commits, the next one gathers
(group commit pipelined over time).  A connection stops reading while it has
too many commands unanswered or answers its peer has not taken (backpressure), so its memory
stays bounded.  An answer the socket cannot take at once goes to a flusher task for that
connection, which waits for the peer under the send timeout.

Timeouts cost nothing per command: a connection notes its deadline before it blocks, and one
watchdog task, asleep until the earliest deadline, cancels connections whose deadline has passed.
"""

from __future__ import annotations

import errno
import logging
import math
import socket
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from pcfserver import mq, names
from pcfserver.codec import Message, String
from pcfserver.engine.authority import Identity
from pcfserver.server.capture import DEFAULT_ROTATE_BYTES, Capture, ConnectionCapture
from pcfserver.server.committer import Committer, Engine, Job, PipelinedEngine
from pcfserver.server.logs import LOGGER_NAME, CommandLines, Entry
from pcfserver.server.protocol import FramingError, ServerProtocol

log = logging.getLogger(LOGGER_NAME)

RECEIVE_SIZE = 65536
# Receives that found data at once, in a row, before a connection lets the others run.
_RECEIVE_STREAK = 8
# A connection whose socket was empty when tried tries again before waiting once in this many waits.
_PROBE_EVERY = 16
_ACCEPT_PAUSE_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
_Q_NAME = mq.MQCA_Q_NAME
# Names for the command log, looked up once per command.
_COMMAND_NAMES = names.command_names()
_REASON_NAMES = {**names.reason_names(), mq.MQRC_NONE: "MQRC_NONE"}


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 1414
    ccsid: int = 819
    max_message_bytes: int = 4 * 1024 * 1024
    max_connections: int = 1024
    idle_timeout: float = 300.0
    read_timeout: float = 30.0
    send_timeout: float = 60.0
    drain_timeout: float = 2.0
    drain_bytes: int = 16 * 1024 * 1024
    capture_dir: Path | None = None
    capture_rotate_bytes: int = DEFAULT_ROTATE_BYTES
    # Commands queued at once by all connections together; one connection's share per round
    # is this divided by the number of connections (at least 1, at most ``batch_limit``).
    queued_commands: int = 8192
    batch_limit: int = 64
    # Bytes of partial messages (beyond one receive per connection) all connections may hold.
    buffer_budget: int = 64 * 1024 * 1024
    # Where commits run: True in a worker thread (the event loop goes on meanwhile), False on
    # the event loop itself, None to choose per group by the CPUs this process may use (see ``committer.lone_commits_on_loop``).
    engine_in_thread: bool | None = None
    # The HTTP listener (off unless a port is given; 0 picks a free one) and its request limits.
    http_port: int | None = None
    max_header_bytes: int = 16 * 1024
    max_headers: int = 100
    # TLS and authentication (issue 12): the HTTPS port (None: off; 0: a free port), the PCF port
    # over TLS, the certificate and key (None: the data directory's self-signed pair), the CAs of
    # accepted client certificates, the login token's lifetime, and --insecure (listen beyond
    # loopback without authentication).
    https_port: int | None = None
    pcf_tls: bool = False
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_ca: Path | None = None
    token_lifetime: float = 7200.0
    rest_gateway_default: bool = False  # the REST API routes a request for another queue manager without the gateway header
    insecure: bool = False
    # LISTENER objects and services (issue 18): start the CONTROL(QMGR)/STARTONLY listeners with the server, and
    # let START SERVICE run the services' programs (--run-services; off: a server that runs commands from its
    # configuration is a remote-execution risk).
    start_listeners: bool = True
    run_services: bool = False


_PCF = ("PCF", "")  # the history's and refused commands' origin: the PCF port (the user is the identity's, if any)


class _Job(Job):
    """One connection's commands, applied and waiting to be durable; then answered by the committer."""

    __slots__ = ("answers", "commands", "conn", "server", "started")
    thread_on_small_machines = False  # (Job): PCF groups commit on the loop on two CPUs

    def __init__(self, server: PcfServer, conn: _Connection, commands: list[Message]) -> None:
        super().__init__()
        self.server = server
        self.conn = conn
        self.commands = commands
        self.answers: list[list[Message]] | None = None
        self.started = time.perf_counter()

    def apply(self, engine: PipelinedEngine) -> None:
        _, self.batch = engine.apply_batch(self.commands, self.conn.identity, _PCF)

    def release(self, answers: list[list[Message]], failure: BaseException | None) -> None:
        """The commands' changes are durable: their answers go to the peer, in order."""
        self.answers = answers
        server, conn, n = self.server, self.conn, len(self.commands)
        server._post(conn, conn.proto.encode(answers), n)
        server.commands_executed += n
        server._released.append(self)

    def lost(self) -> None:
        """The committer can no longer make them durable: the connection ends unanswered."""
        self.server._answered(self.conn, len(self.commands))
        self.server._kill(self.conn, "closed: the server stopped before the commands were durable")


# What a connection is waiting for when it has a deadline (``_Connection.timer``).
_IDLE = "idle"
_READ = "read"
_DRAIN = "drain"
_READING = (_IDLE, _READ)


class _Connection:
    __slots__ = (
        "capture", "closed", "dead", "deadline", "expired", "final", "flushing", "held", "identity", "number", "outstanding",
        "peer", "proto", "scope", "sock", "stopped", "timer", "unsent", "wait_for", "waiter",
    )

    def __init__(self, number: int, peer: str, sock: socket.socket, proto: ServerProtocol, capture: ConnectionCapture | None) -> None:
        self.number = number
        self.peer = peer
        self.sock = sock
        self.proto = proto
        self.identity: Identity | None = None  # who a TLS client certificate names (None: the server's own authority)
        self.capture = capture
        self.scope: trio.CancelScope | None = None
        # The time by which the wait named by ``timer`` must end; infinite while not blocked.
        self.deadline = math.inf
        self.timer: str | None = None
        self.expired = False
        self.stopped = False
        self.final = ""
        self.held = 0
        # Commands handed to the engine whose answers the peer has not yet taken in full.
        self.outstanding = 0
        # Answers the socket could not take yet: the rest to send, the number of commands they
        # answer and the whole answer (captured once it is all sent).
        self.unsent: deque[tuple[memoryview, int, bytes]] = deque()
        self.flushing = False
        # Why the connection must end (set by whoever found out: the flusher, the committer).
        self.dead: str | None = None
        self.closed = False
        # The connection's task while it waits for ``outstanding`` to fall to ``wait_for``.
        self.waiter: trio.lowlevel.Task | None = None
        self.wait_for = 0


class _Budget:
    """Bytes of large partial messages, shared by all connections; readers wait when it is spent."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lot = trio.lowlevel.ParkingLot()

    async def reserve(self, conn: _Connection, amount: int) -> None:
        while self.used - conn.held > 0 and self.used - conn.held + amount > self.limit:
            await self._lot.park()
        self.used += amount - conn.held
        conn.held = amount

    def settle(self, conn: _Connection, amount: int) -> None:
        if amount < conn.held:
            self.used -= conn.held - amount
            conn.held = amount
            self._lot.unpark_all()


def address_name(peer: object) -> str:
    if isinstance(peer, tuple) and len(peer) >= 2:
        host = str(peer[0])
        return f"[{host}]:{peer[1]}" if ":" in host else f"{host}:{peer[1]}"
    return str(peer) or "?"


def _queue_of(command: Message) -> str | None:
    params = command.parameters
    if params:  # most commands name their queue first
        first = params[0]
        if first.parameter == _Q_NAME and type(first) is String:
            return first.value.rstrip()
    for pid in (_Q_NAME, mq.MQCACF_FROM_Q_NAME):
        value = command.str_value(pid)
        if value is not None:
            return value.rstrip()
    return None


def _reason_of(answer: Sequence[Message]) -> int:
    for message in answer:
        if message.comp_code != mq.MQCC_OK:
            return message.reason
    return mq.MQRC_NONE


def _reason_name(reason: int) -> str:
    return _REASON_NAMES.get(reason) or str(reason)


def _command_name(command: int) -> str:
    return _COMMAND_NAMES.get(command) or str(command)


def _receive_now(sock: socket.socket) -> bytes | None:
    """What the socket holds (b"" at EOF), or None when it has nothing yet."""
    try:
        return sock.recv(RECEIVE_SIZE)
    except (BlockingIOError, InterruptedError):
        return None


def _unread(conn: _Connection) -> bool:
    """Whether input is left that the conversation did not take (buffered, or still in the kernel)."""
    if conn.proto.buffered:
        return True
    try:
        return bool(conn.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:
        return False


def _send_now(sock: socket.socket, data: bytes | memoryview) -> int:
    try:
        return sock.send(data)
    except (BlockingIOError, InterruptedError):
        return 0


class PcfServer:
    """Serves one engine on TCP until ``shutdown()`` (graceful) or cancellation."""

    def __init__(self, engine: Engine, config: ServerConfig | None = None, committer: Committer | None = None) -> None:
        """``committer``: the one shared with other listeners on the same engine (else the server runs its own)."""
        self.engine = engine
        self.config = config or ServerConfig()
        self._owns_committer = committer is None
        self.committer = committer or Committer(engine, in_thread=self.config.engine_in_thread)
        self.committer.after_group.append(self._after_group)
        self._released: list[_Job] = []
        self._connections: set[_Connection] = set()
        self._stopping = False
        self._stop = trio.Event()
        self._budget = _Budget(self.config.buffer_budget)
        self._capture = Capture(self.config.capture_dir, self.config.capture_rotate_bytes) if self.config.capture_dir else None
        self._numbers = 0
        self._connection_nursery: trio.Nursery | None = None
        self._share = self.config.batch_limit
        self._closing = False
        # The watchdog sleeps until ``_watch_at`` in ``_watch_scope``.
        self._watch_at = -math.inf
        self._watch_scope: trio.CancelScope | None = None
        self.address: tuple[str, int] | None = None
        self.commands_executed = 0
        self.batches_executed = 0

    @property
    def stopping(self) -> bool:
        return self._stopping

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    @property
    def connection_nursery(self) -> trio.Nursery | None:
        """Where connections run (None before serving and once stopping): listeners' accept tasks run there too."""
        return None if self._stopping else self._connection_nursery

    async def accept_on(self, lsock: socket.socket) -> None:
        """Accepts connections on another listening socket (a started LISTENER object) until cancelled;
        they are served as the main port's are."""
        assert self._connection_nursery is not None
        await self._accept_loop(lsock, self._connection_nursery)

    def shutdown(self) -> None:
        """Stop accepting, answer the commands already received, then close every connection."""
        if self._stopping:
            return
        self._stopping = True
        log.info("shutting down: %d connections open", len(self._connections), extra={"event": "shutdown"})
        self._stop.set()
        for conn in list(self._connections):
            if conn.timer in _READING and conn.scope is not None:
                conn.stopped = True
                conn.scope.cancel()

    async def serve(self, *, task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED) -> None:
        cfg = self.config
        # With the PCF port over TLS, the TLS front listens and hands connections over (``adopt``).
        listeners = await trio.open_tcp_listeners(cfg.port, host=cfg.host) if not cfg.pcf_tls else []
        sockets: list[socket.socket] = []
        for listener in listeners:
            sockets.append(socket.socket(fileno=listener.socket.detach()))
        for lsock in sockets:
            lsock.setblocking(False)
        if sockets:
            name = sockets[0].getsockname()
            self.address = (str(name[0]), int(name[1]))
        else:
            self.address = ("", 0)
        try:
            async with trio.open_nursery() as outer:
                if self._owns_committer:
                    outer.start_soon(self.committer.run)
                outer.start_soon(self._watchdog)
                try:
                    async with trio.open_nursery() as connections:
                        self._connection_nursery = connections
                        accepting = trio.CancelScope()
                        connections.start_soon(self._accept_all, sockets, connections, accepting)
                        task_status.started(self.address)
                        await self._stop.wait()
                        accepting.cancel()
                finally:
                    self._closing = True
                    if self._owns_committer:
                        self.committer.close()
                    if self._watch_scope is not None:
                        self._watch_at = math.inf
                        self._watch_scope.cancel()
        finally:
            log.info(
                "executed %d commands in %d batches", self.commands_executed, self.batches_executed,
                extra={"event": "stats"},
            )
            for lsock in sockets:
                trio.lowlevel.notify_closing(lsock)
                lsock.close()

    # -- accepting -------------------------------------------------------------------------

    async def _accept_all(self, sockets: list[socket.socket], nursery: trio.Nursery, scope: trio.CancelScope) -> None:
        with scope:
            async with trio.open_nursery() as accepting:
                for lsock in sockets:
                    accepting.start_soon(self._accept_loop, lsock, nursery)

    async def _accept_loop(self, lsock: socket.socket, nursery: trio.Nursery) -> None:
        while True:
            await trio.lowlevel.checkpoint()
            try:
                sock, peer = lsock.accept()
            except (BlockingIOError, InterruptedError):
                await trio.lowlevel.wait_readable(lsock)
                continue
            except OSError as exc:
                if exc.errno in _ACCEPT_PAUSE_ERRNOS:
                    log.error("accept failed: %s; pausing 100 ms", exc, extra={"event": "accept_error"})
                    await trio.sleep(0.1)
                    continue
                if exc.errno in (errno.ECONNABORTED, errno.EPROTO):
                    continue
                raise
            self._numbers += 1
            peer_name = address_name(peer)
            if len(self._connections) >= self.config.max_connections:
                log.warning(
                    "connection %d from %s refused: %d connections open (--max-connections)",
                    self._numbers, peer_name, len(self._connections),
                    extra={"event": "refused", "peer": peer_name, "connection": self._numbers},
                )
                sock.close()
                continue
            self._start(sock, peer_name, None, nursery)

    def adopt(self, sock: socket.socket, peer_name: str, identity: Identity | None) -> None:
        """Serves a connection accepted elsewhere (the TLS front), its commands run under ``identity``."""
        self._numbers += 1
        if self._connection_nursery is None or self._stopping or len(self._connections) >= self.config.max_connections:
            log.warning("connection %d from %s refused", self._numbers, peer_name, extra={"event": "refused", "peer": peer_name, "connection": self._numbers})
            sock.close()
            return
        self._start(sock, peer_name, identity, self._connection_nursery)

    def _start(self, sock: socket.socket, peer_name: str, identity: Identity | None, nursery: trio.Nursery) -> None:
        sock.setblocking(False)
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = _Connection(
            self._numbers,
            peer_name,
            sock,
            ServerProtocol(max_message_bytes=self.config.max_message_bytes, default_ccsid=self.config.ccsid),
            self._capture.connection(self._numbers) if self._capture else None,
        )
        conn.identity = identity
        self._connections.add(conn)
        self._count_changed()
        nursery.start_soon(self._handle, conn)

    # -- timeouts ---------------------------------------------------------------------------

    def _arm(self, conn: _Connection, timer: str, deadline: float) -> None:
        """Notes what the connection is about to wait for and by when it must be over."""
        conn.timer = timer
        conn.deadline = deadline
        if deadline < self._watch_at and self._watch_scope is not None:
            self._watch_at = -math.inf
            self._watch_scope.cancel()

    @staticmethod
    def _disarm(conn: _Connection) -> None:
        conn.timer = None
        conn.deadline = math.inf

    async def _watchdog(self) -> None:
        """Cancels each connection whose deadline has passed; sleeps until the next one."""
        while not self._closing:
            now = trio.current_time()
            earliest = math.inf
            for conn in self._connections:
                deadline = conn.deadline
                if deadline <= now:
                    if conn.scope is not None:
                        conn.expired = True
                        conn.deadline = math.inf
                        conn.scope.cancel()
                elif deadline < earliest:
                    earliest = deadline
            with trio.CancelScope(deadline=earliest) as scope:
                self._watch_scope = scope
                self._watch_at = earliest
                await trio.sleep_forever()
            self._watch_at = -math.inf

    # -- one connection -------------------------------------------------------------------

    async def _handle(self, conn: _Connection) -> None:
        log.info("connection %d from %s", conn.number, conn.peer, extra={"event": "open", "peer": conn.peer, "connection": conn.number})
        why = "closed"
        try:
            with trio.CancelScope() as scope:
                conn.scope = scope
                why = await self._converse(conn)
            if scope.cancelled_caught:
                why = self._interrupted(conn)
            if conn.outstanding and conn.dead is None:
                # Answer what was received before the end (a peer that half-closed, a shutdown).
                with trio.move_on_after(self.config.send_timeout):
                    await self._settle(conn, 0)
            if self._stopping and conn.dead is None and _unread(conn):
                # Closing with input unread would reset the connection, and the reset throws away
                # answers the kernel has not sent yet: end our side, drop the rest, then close.
                with trio.move_on_after(self.config.drain_timeout):
                    await self._drain(conn)
        except OSError as exc:
            why = f"broken: {exc or type(exc).__name__}"
        except Exception:
            why = "failed"
            log.exception("connection %d from %s failed", conn.number, conn.peer, extra={"event": "error", "peer": conn.peer, "connection": conn.number})
        finally:
            conn.closed = True
            conn.unsent.clear()
            self._connections.discard(conn)
            self._count_changed()
            self._budget.settle(conn, 0)
            if conn.capture is not None:
                conn.capture.close()
            trio.lowlevel.notify_closing(conn.sock)
            conn.sock.close()
        log.info("connection %d from %s %s", conn.number, conn.peer, why, extra={"event": "close", "peer": conn.peer, "connection": conn.number})

    def _interrupted(self, conn: _Connection) -> str:
        """Why a conversation was cancelled (by the watchdog, the flusher or shutdown), logged where it matters."""
        cfg = self.config
        timer = conn.timer
        if conn.dead is not None:
            return conn.dead
        if timer == _DRAIN:
            return conn.final
        if conn.stopped or not conn.expired:
            return "closed by shutdown"
        if timer == _READ:
            return self._logged(
                conn, "read_timeout", f"closed: message incomplete after {cfg.read_timeout:g} s ({conn.proto.buffered} bytes)"
            )
        return self._logged(conn, "idle_timeout", f"closed: idle for {cfg.idle_timeout:g} s")

    def _count_changed(self) -> None:
        """Each connection's share of the commands queued at once (see ``ServerConfig.queued_commands``)."""
        cfg = self.config
        self._share = max(1, min(cfg.batch_limit, cfg.queued_commands // max(1, len(self._connections))))

    async def _converse(self, conn: _Connection) -> str:
        cfg = self.config
        proto = conn.proto
        sock = conn.sock
        budget = self._budget
        clock = trio.current_time
        last_receive = clock()
        partial_since = last_receive
        boundary = proto.boundary
        buffered = proto.buffered  # bytes received and not yet returned in a message
        fd = sock.fileno()
        capture_pending: tuple[bytes, int] | None = None
        streak = 0
        eager = True
        probe = 0
        while True:
            if buffered:
                room = self._share - conn.outstanding
                if room <= 0:
                    # Too much unanswered: read on once the committer (or the peer) catches up.
                    await self._settle(conn, conn.outstanding + room - 1)
                    if conn.dead is not None:
                        return conn.dead
                    continue
                commands = proto.next_commands(room)
                failure = proto.failure
                reached = proto.boundary
                buffered = proto.buffered
                if capture_pending is not None and conn.capture is not None:
                    conn.capture.received(capture_pending[0], capture_pending[1], None if failure else reached)
                capture_pending = None
                if reached != boundary:
                    boundary = reached
                    partial_since = last_receive
                if conn.held:
                    budget.settle(conn, max(0, buffered - RECEIVE_SIZE))
                if commands and not self._submit(conn, commands):
                    return "closed: the server stopped before the commands were durable"
                if failure is not None:
                    return await self._fail(conn, failure)
                if commands and buffered:
                    continue
            if self._stopping:
                return "closed by shutdown"
            data = None
            # Try the socket before waiting on it only when that paid off last time: a peer
            # that waits for each answer has sent nothing yet, and the failed call costs.
            if eager and buffered <= RECEIVE_SIZE and streak < _RECEIVE_STREAK:
                data = _receive_now(sock)
                eager = data is not None
            if data is None:
                # Wait (and let the other connections run) before reading on.
                streak = 0
                probe = probe + 1 if probe < _PROBE_EVERY else 0
                eager = not probe
                if buffered:
                    self._arm(conn, _READ, partial_since + cfg.read_timeout)
                else:
                    self._arm(conn, _IDLE, last_receive + cfg.idle_timeout)
                if buffered > RECEIVE_SIZE:
                    await budget.reserve(conn, buffered)
                await trio.lowlevel.wait_readable(fd)
                while (data := _receive_now(sock)) is None:
                    await trio.lowlevel.wait_readable(fd)
                self._disarm(conn)
                if len(data) == RECEIVE_SIZE:
                    eager = True
            else:
                streak += 1
            if not data:
                if buffered:
                    return self._logged(conn, "truncated", f"closed by peer inside a message ({buffered} bytes)")
                return "closed by peer"
            last_receive = clock()
            start = proto.received
            proto.receive_data(data)
            buffered += len(data)
            capture_pending = (data, start)

    async def _fail(self, conn: _Connection, failure: FramingError) -> str:
        """Answers a message whose framing is lost, after the answers before it, and drains the input."""
        self._log_failure(conn, failure)
        await self._settle(conn, 0)
        if conn.dead is None:
            conn.outstanding += 1
            self._post(conn, conn.proto.encode([failure.responses]), 1)
            await self._settle(conn, 0)
        if conn.dead is not None:
            return conn.dead
        conn.final = f"closed after a malformed message ({_reason_name(failure.error.reason)})"
        await self._drain(conn)
        return conn.final

    def _logged(self, conn: _Connection, event: str, text: str) -> str:
        log.warning("connection %d from %s %s", conn.number, conn.peer, text, extra={"event": event, "peer": conn.peer, "connection": conn.number})
        return text

    # -- answering ------------------------------------------------------------------------

    def _post(self, conn: _Connection, data: bytes, commands: int) -> None:
        """Sends ``data`` (the answers to ``commands`` commands) after everything posted before it.

        What the socket cannot take at once waits in ``conn.unsent`` for the connection's flusher.
        """
        if conn.closed or conn.dead is not None:
            self._answered(conn, commands)
            return
        failed = self.committer.unsettled()  # (an answer may reflect a change an HTTP request's commit left owed)
        if failed is not None:
            self._kill(conn, f"closed: {failed}")
            self._answered(conn, commands)
            return
        if conn.unsent:
            conn.unsent.append((memoryview(data), commands, data))
            return
        try:
            sent = _send_now(conn.sock, data)
        except OSError as exc:
            self._kill(conn, f"broken: {exc or type(exc).__name__}")
            self._answered(conn, commands)
            return
        if sent == len(data):
            self._delivered(conn, data, commands)
            return
        conn.unsent.append((memoryview(data)[sent:], commands, data))
        if not conn.flushing:
            conn.flushing = True
            self._nursery().start_soon(self._flush, conn)

    async def _flush(self, conn: _Connection) -> None:
        """Sends what the socket could not take, as the peer reads; ends the connection after the send timeout."""
        timeout = self.config.send_timeout
        sock = conn.sock
        try:
            with trio.move_on_after(timeout) as scope:
                while conn.unsent and not conn.closed:
                    await trio.lowlevel.wait_writable(sock)
                    while conn.unsent and not conn.closed:
                        view, commands, whole = conn.unsent[0]
                        sent = _send_now(sock, view)
                        if sent < len(view):
                            if sent:
                                conn.unsent[0] = (view[sent:], commands, whole)
                                scope.deadline = trio.current_time() + timeout
                            break
                        conn.unsent.popleft()
                        scope.deadline = trio.current_time() + timeout
                        self._delivered(conn, whole, commands)
            if scope.cancelled_caught:
                self._kill(conn, self._logged(conn, "send_timeout", f"closed: peer did not take the answers in {timeout:g} s"))
        except (OSError, trio.ClosedResourceError) as exc:
            if not conn.closed:
                self._kill(conn, f"broken: {exc or type(exc).__name__}")
        finally:
            conn.flushing = False

    def _delivered(self, conn: _Connection, data: bytes, commands: int) -> None:
        """The socket took all of ``data``: it goes to the capture, and its commands are answered."""
        if conn.capture is not None:
            conn.capture.sent(data)
        self._answered(conn, commands)

    def _answered(self, conn: _Connection, commands: int) -> None:
        conn.outstanding -= commands
        if conn.waiter is not None and conn.outstanding <= conn.wait_for:
            self._wake(conn)

    def _kill(self, conn: _Connection, why: str) -> None:
        """Ends a connection whose answers can no longer be delivered."""
        if conn.dead is None:
            conn.dead = why
        conn.unsent.clear()
        if conn.scope is not None:
            conn.scope.cancel()
        self._wake(conn)

    @staticmethod
    def _wake(conn: _Connection) -> None:
        task, conn.waiter = conn.waiter, None
        if task is not None:
            trio.lowlevel.reschedule(task)

    async def _settle(self, conn: _Connection, outstanding: int) -> None:
        """Waits until at most ``outstanding`` commands are unanswered (or the connection is dead)."""
        while conn.outstanding > outstanding and conn.dead is None:
            conn.wait_for = outstanding
            conn.waiter = trio.lowlevel.current_task()

            def abort(_: object) -> trio.lowlevel.Abort:
                conn.waiter = None
                return trio.lowlevel.Abort.SUCCEEDED

            await trio.lowlevel.wait_task_rescheduled(abort)

    def _nursery(self) -> trio.Nursery:
        assert self._connection_nursery is not None
        return self._connection_nursery

    async def _drain(self, conn: _Connection) -> None:
        """Reads and drops the rest of the input so that closing does not reset the answer away."""
        sock = conn.sock
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            return
        self._arm(conn, _DRAIN, trio.current_time() + self.config.drain_timeout)
        drained = 0
        while drained < self.config.drain_bytes:
            try:
                while (data := _receive_now(sock)) is None:
                    await trio.lowlevel.wait_readable(sock)
            except OSError:
                return
            if not data:
                return
            if conn.capture is not None:
                conn.capture.received(data, conn.proto.received, None)
            conn.proto.receive_data(data)
            drained += len(data)

    # -- engine ---------------------------------------------------------------------------

    def _submit(self, conn: _Connection, commands: list[Message]) -> bool:
        """Applies the commands (in memory, at once, when the engine can) for the committer to
        make durable and answer; False when the server can no longer do that."""
        if not self.committer.submit(_Job(self, conn, commands)):
            return False
        conn.outstanding += len(commands)
        return True

    def _log_failure(self, conn: _Connection, failure: FramingError) -> None:
        reason = _reason_name(failure.error.reason)
        name = _command_name(failure.command)
        log.warning(
            "%s %s - %s 0us malformed at offset %d: %s", conn.peer, name, reason, failure.offset, failure.error.detail,
            extra={"event": "malformed", "peer": conn.peer, "connection": conn.number, "command": name, "reason": reason, "us": 0},
        )

    def _after_group(self) -> None:
        """A group the committer released: one log record for this server's commands in it."""
        jobs, self._released = self._released, []
        if jobs:
            self.batches_executed += 1
            if log.isEnabledFor(logging.INFO):
                self._log_commands(jobs)

    def _log_commands(self, jobs: list[_Job]) -> None:
        """One record for the whole batch; the formatters write one line per command."""
        now = time.perf_counter()
        entries: list[Entry] = []
        append = entries.append
        for job in jobs:
            conn = job.conn
            peer, number, us = conn.peer, conn.number, int((now - job.started) * 1e6)
            for command, answer in zip(job.commands, job.answers or (), strict=True):
                append((peer, number, _command_name(command.command), _queue_of(command), _reason_name(_reason_of(answer)), us))
        log.info(CommandLines(entries), extra={"event": "command"})
