"""The trio TCP server: a thin shell that moves bytes between sockets, the per-connection
protocol objects (sans-IO) and one engine task.

Connections hand decoded commands to the engine task through a memory channel.  The engine
task takes everything queued at that moment, runs it as one ``execute_batch`` (one durable
transaction) and gives every connection its answers, which the connection writes with one
``send_all``.  A connection does not read while its commands are with the engine, so its
responses stay in request order and its memory stays bounded (backpressure).
"""

from __future__ import annotations

import errno
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

import trio

from pcfserver import mq, names
from pcfserver.codec import Message
from pcfserver.engine.engine import Batch
from pcfserver.engine.responses import error_responses
from pcfserver.server.capture import DEFAULT_ROTATE_BYTES, Capture, ConnectionCapture
from pcfserver.server.logs import LOGGER_NAME, CommandLines, Entry
from pcfserver.server.protocol import FramingError, ServerProtocol

log = logging.getLogger(LOGGER_NAME)

RECEIVE_SIZE = 65536
_ACCEPT_PAUSE_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}


class Engine(Protocol):
    """What the server needs of the engine (see ``pcfserver.engine``)."""

    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]: ...


class PipelinedEngine(Engine, Protocol):
    """An engine that applies in memory and commits separately (``pcfserver.engine.Engine``)."""

    def apply_batch(self, commands: Sequence[Message]) -> tuple[list[list[Message]], Batch]: ...

    def commit(self, batch: Batch) -> None: ...

    def abort(self, batch: Batch, exc: BaseException) -> list[list[Message]]: ...


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
    engine_in_thread: bool = True


class _Job:
    __slots__ = ("answers", "commands", "conn", "done", "started")

    def __init__(self, conn: _Connection, commands: list[Message]) -> None:
        self.conn = conn
        self.commands = commands
        self.answers: list[list[Message]] = []
        self.done = trio.Event()
        self.started = time.perf_counter()


class _Connection:
    __slots__ = ("capture", "held", "number", "peer", "proto", "read_scope", "stream")

    def __init__(self, number: int, peer: str, stream: trio.SocketStream, proto: ServerProtocol, capture: ConnectionCapture | None) -> None:
        self.number = number
        self.peer = peer
        self.stream = stream
        self.proto = proto
        self.capture = capture
        self.read_scope: trio.CancelScope | None = None
        self.held = 0


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


class _Stop(Exception):
    """Ends a conversation; the reason has been logged."""


_TIMEOUT = object()
_STOPPED = object()


def _peer_name(stream: trio.SocketStream) -> str:
    try:
        peer = stream.socket.getpeername()
    except OSError:
        return "?"
    if isinstance(peer, tuple) and len(peer) >= 2:
        host = str(peer[0])
        return f"[{host}]:{peer[1]}" if ":" in host else f"{host}:{peer[1]}"
    return str(peer)


def _queue_of(command: Message) -> str | None:
    for pid in (mq.MQCA_Q_NAME, mq.MQCACF_FROM_Q_NAME):
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
    return names.reason_name(reason) or str(reason)


def _command_name(command: int) -> str:
    return names.command_name(command) or str(command)


class PcfServer:
    """Serves one engine on TCP until ``shutdown()`` (graceful) or cancellation."""

    def __init__(self, engine: Engine, config: ServerConfig | None = None) -> None:
        self.engine = engine
        self.config = config or ServerConfig()
        self._jobs_in, self._jobs_out = trio.open_memory_channel[_Job](math.inf)
        self._connections: set[_Connection] = set()
        self._stopping = False
        self._stop = trio.Event()
        self._budget = _Budget(self.config.buffer_budget)
        self._capture = Capture(self.config.capture_dir, self.config.capture_rotate_bytes) if self.config.capture_dir else None
        self._numbers = 0
        self.address: tuple[str, int] | None = None
        self.commands_executed = 0
        self.batches_executed = 0

    @property
    def stopping(self) -> bool:
        return self._stopping

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    def shutdown(self) -> None:
        """Stop accepting, answer the commands already received, then close every connection."""
        if self._stopping:
            return
        self._stopping = True
        log.info("shutting down: %d connections open", len(self._connections), extra={"event": "shutdown"})
        self._stop.set()
        for conn in list(self._connections):
            if conn.read_scope is not None:
                conn.read_scope.cancel()

    async def serve(self, *, task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED) -> None:
        cfg = self.config
        listeners = await trio.open_tcp_listeners(cfg.port, host=cfg.host)
        name = listeners[0].socket.getsockname()
        self.address = (str(name[0]), int(name[1]))
        try:
            async with trio.open_nursery() as outer:
                outer.start_soon(self._engine_task)
                try:
                    async with trio.open_nursery() as connections:
                        accepting = trio.CancelScope()
                        connections.start_soon(self._accept_all, listeners, connections, accepting)
                        task_status.started(self.address)
                        await self._stop.wait()
                        accepting.cancel()
                finally:
                    self._jobs_in.close()
        finally:
            log.info(
                "executed %d commands in %d batches", self.commands_executed, self.batches_executed,
                extra={"event": "stats"},
            )
            for listener in listeners:
                await trio.aclose_forcefully(listener)

    # -- accepting -------------------------------------------------------------------------

    async def _accept_all(self, listeners: list[trio.SocketListener], nursery: trio.Nursery, scope: trio.CancelScope) -> None:
        with scope:
            async with trio.open_nursery() as accepting:
                for listener in listeners:
                    accepting.start_soon(self._accept_loop, listener, nursery)

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        if True:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno in _ACCEPT_PAUSE_ERRNOS:
                        log.error("accept failed: %s; pausing 100 ms", exc, extra={"event": "accept_error"})
                        await trio.sleep(0.1)
                        continue
                    raise
                self._numbers += 1
                if len(self._connections) >= self.config.max_connections:
                    log.warning(
                        "connection %d from %s refused: %d connections open (--max-connections)",
                        self._numbers, _peer_name(stream), len(self._connections),
                        extra={"event": "refused", "peer": _peer_name(stream), "connection": self._numbers},
                    )
                    await trio.aclose_forcefully(stream)
                    continue
                conn = _Connection(
                    self._numbers,
                    _peer_name(stream),
                    stream,
                    ServerProtocol(max_message_bytes=self.config.max_message_bytes, default_ccsid=self.config.ccsid),
                    self._capture.connection(self._numbers) if self._capture else None,
                )
                self._connections.add(conn)
                nursery.start_soon(self._handle, conn)

    # -- one connection -------------------------------------------------------------------

    async def _handle(self, conn: _Connection) -> None:
        log.info("connection %d from %s", conn.number, conn.peer, extra={"event": "open", "peer": conn.peer, "connection": conn.number})
        why = "closed"
        try:
            why = await self._converse(conn)
        except _Stop as stop:
            why = str(stop)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            why = f"broken: {exc or type(exc).__name__}"
        except Exception:
            why = "failed"
            log.exception("connection %d from %s failed", conn.number, conn.peer, extra={"event": "error", "peer": conn.peer, "connection": conn.number})
        finally:
            self._connections.discard(conn)
            self._budget.settle(conn, 0)
            if conn.capture is not None:
                conn.capture.close()
            await trio.aclose_forcefully(conn.stream)
        log.info("connection %d from %s %s", conn.number, conn.peer, why, extra={"event": "close", "peer": conn.peer, "connection": conn.number})

    def _round_limit(self) -> int:
        cfg = self.config
        return max(1, min(cfg.batch_limit, cfg.queued_commands // max(1, len(self._connections))))

    async def _converse(self, conn: _Connection) -> str:
        cfg = self.config
        proto = conn.proto
        last_activity = trio.current_time()
        last_receive = last_activity
        partial_since = last_activity
        boundary = proto.boundary
        capture_pending: tuple[bytes, int] | None = None
        while True:
            commands = proto.next_commands(self._round_limit())
            failure = proto.failure
            if capture_pending is not None and conn.capture is not None:
                conn.capture.received(capture_pending[0], capture_pending[1], None if failure else proto.boundary)
            capture_pending = None
            if proto.boundary != boundary:
                boundary = proto.boundary
                partial_since = last_receive
            self._budget.settle(conn, max(0, proto.buffered - RECEIVE_SIZE))
            out = b""
            if commands:
                out = proto.encode(await self._execute(conn, commands))
            if failure is not None:
                self._log_failure(conn, failure)
                out += proto.encode([failure.responses])
            if out:
                await self._send(conn, out)
                last_activity = trio.current_time()
            if failure is not None:
                await self._drain(conn)
                return f"closed after a malformed message ({_reason_name(failure.error.reason)})"
            if commands:
                continue
            if self._stopping:
                return "closed by shutdown"
            buffered = proto.buffered
            if buffered:
                deadline = partial_since + cfg.read_timeout
            else:
                deadline = last_activity + cfg.idle_timeout
            data = await self._receive(conn, deadline, buffered > RECEIVE_SIZE)
            if data is _TIMEOUT:
                if buffered:
                    return self._logged(conn, "read_timeout", f"closed: message incomplete after {cfg.read_timeout:g} s ({buffered} bytes)")
                return self._logged(conn, "idle_timeout", f"closed: idle for {cfg.idle_timeout:g} s")
            if data is _STOPPED:
                return "closed by shutdown"
            assert isinstance(data, bytes)
            if not data:
                if buffered:
                    return self._logged(conn, "truncated", f"closed by peer inside a message ({buffered} bytes)")
                return "closed by peer"
            last_receive = last_activity = trio.current_time()
            start = proto.received
            proto.receive_data(data)
            capture_pending = (data, start)

    def _logged(self, conn: _Connection, event: str, text: str) -> str:
        log.warning("connection %d from %s %s", conn.number, conn.peer, text, extra={"event": event, "peer": conn.peer, "connection": conn.number})
        return text

    async def _receive(self, conn: _Connection, deadline: float, large: bool) -> bytes | object:
        """Bytes, b"" at EOF, _TIMEOUT at the deadline or _STOPPED on shutdown (one cancel scope for both)."""
        with trio.CancelScope(deadline=deadline) as reading:
            conn.read_scope = reading
            if self._stopping:
                reading.cancel()
            if large:
                await self._budget.reserve(conn, conn.proto.buffered)
            data = await conn.stream.receive_some(RECEIVE_SIZE)
        conn.read_scope = None
        if reading.cancelled_caught:
            return _STOPPED if self._stopping else _TIMEOUT
        return data

    async def _send(self, conn: _Connection, data: bytes) -> None:
        with trio.move_on_after(self.config.send_timeout):
            await conn.stream.send_all(data)
            if conn.capture is not None:
                conn.capture.sent(data)
            return
        raise _Stop(self._logged(conn, "send_timeout", f"closed: peer did not take {len(data)} bytes in {self.config.send_timeout:g} s"))

    async def _drain(self, conn: _Connection) -> None:
        """Reads and drops the rest of the input so that closing does not reset the answer away."""
        try:
            await conn.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return
        drained = 0
        deadline = trio.current_time() + self.config.drain_timeout
        while drained < self.config.drain_bytes:
            data = await self._receive(conn, deadline, False)
            if not isinstance(data, bytes) or not data:
                return
            if conn.capture is not None:
                conn.capture.received(data, conn.proto.received, None)
            conn.proto.receive_data(data)
            drained += len(data)

    # -- engine ---------------------------------------------------------------------------

    async def _execute(self, conn: _Connection, commands: list[Message]) -> list[list[Message]]:
        job = _Job(conn, commands)
        self._jobs_in.send_nowait(job)
        await job.done.wait()
        return job.answers

    def _log_failure(self, conn: _Connection, failure: FramingError) -> None:
        reason = _reason_name(failure.error.reason)
        name = _command_name(failure.command)
        log.warning(
            "%s %s - %s 0us malformed at offset %d: %s", conn.peer, name, reason, failure.offset, failure.error.detail,
            extra={"event": "malformed", "peer": conn.peer, "connection": conn.number, "command": name, "reason": reason, "us": 0},
        )

    async def _gather_jobs(self) -> list[_Job] | None:
        """Every job queued now (at least one, waiting for it), or None once the queue is closed."""
        try:
            jobs = [await self._jobs_out.receive()]
        except trio.EndOfChannel:
            return None
        while True:
            try:
                jobs.append(self._jobs_out.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return jobs

    def _release(self, jobs: list[_Job], answers: list[list[Message]]) -> None:
        """Hands each job its answers (their changes are durable) and wakes its connection."""
        self.batches_executed += 1
        i = 0
        for job in jobs:
            n = len(job.commands)
            job.answers = answers[i : i + n]
            self.commands_executed += n
            i += n
            job.done.set()
        if log.isEnabledFor(logging.INFO):
            self._log_commands(jobs)

    async def _engine_task(self) -> None:
        engine = self.engine
        if self.config.engine_in_thread and hasattr(engine, "apply_batch"):
            await self._pipelined_engine_task(cast(PipelinedEngine, engine))
            return
        while (jobs := await self._gather_jobs()) is not None:
            answers = await self._run_batch([c for job in jobs for c in job.commands])
            self._release(jobs, answers)

    async def _pipelined_engine_task(self, engine: PipelinedEngine) -> None:
        """Group commit, pipelined: batch N+1 is applied in memory while batch N commits.

        The applier (this task) applies whatever has arrived and hands the batch to the
        committer, which commits batches one after the other in a worker thread and only then
        releases their answers.  The hand-over channel is unbuffered, so at most one applied
        batch waits behind the one committing.  If a commit fails, the waiting batch (which may
        have seen the failed batch's changes) is aborted first, then the failed one, and the
        waiting batch's commands are run again on the state without them.
        """
        send, receive = trio.open_memory_channel[tuple[list[_Job], Batch]](0)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._committer, engine, receive)
            async with send:
                while (jobs := await self._gather_jobs()) is not None:
                    _, batch = engine.apply_batch([c for job in jobs for c in job.commands])
                    await send.send((jobs, batch))

    async def _committer(self, engine: PipelinedEngine, receive: trio.MemoryReceiveChannel[tuple[list[_Job], Batch]]) -> None:
        async with receive:
            async for jobs, batch in receive:
                try:
                    await trio.to_thread.run_sync(engine.commit, batch)
                except Exception as exc:
                    waiting: tuple[list[_Job], Batch] | None = None
                    try:
                        waiting = receive.receive_nowait()
                    except (trio.WouldBlock, trio.EndOfChannel):
                        pass
                    if waiting is not None:
                        engine.abort(waiting[1], exc)
                    self._release(jobs, engine.abort(batch, exc))
                    if waiting is not None:
                        self._release(waiting[0], await self._run_batch([c for job in waiting[0] for c in job.commands]))
                    continue
                self._release(jobs, batch.answers)

    def _log_commands(self, jobs: list[_Job]) -> None:
        """One record for the whole batch; the formatters write one line per command."""
        now = time.perf_counter()
        entries: list[Entry] = []
        for job in jobs:
            peer, number, us = job.conn.peer, job.conn.number, int((now - job.started) * 1e6)
            for command, answer in zip(job.commands, job.answers, strict=True):
                entries.append((peer, number, _command_name(command.command), _queue_of(command), _reason_name(_reason_of(answer)), us))
        log.info(CommandLines(entries), extra={"event": "command"})

    async def _run_batch(self, commands: list[Message]) -> list[list[Message]]:
        try:
            answers = await self._call_engine(commands)
            if len(answers) == len(commands):
                return answers
            log.error("engine answered %d commands of %d", len(answers), len(commands), extra={"event": "engine_error"})
        except Exception:
            log.exception("engine failed on a batch of %d commands", len(commands), extra={"event": "engine_error"})
        if len(commands) == 1:
            return [error_responses(commands[0], mq.MQRC_UNEXPECTED_ERROR)]
        # Run them one at a time so that one command that upsets the engine fails alone.
        out: list[list[Message]] = []
        for command in commands:
            out.extend(await self._run_batch([command]))
        return out

    async def _call_engine(self, commands: list[Message]) -> list[list[Message]]:
        if self.config.engine_in_thread:
            return await trio.to_thread.run_sync(self.engine.execute_batch, commands)
        return self.engine.execute_batch(commands)
