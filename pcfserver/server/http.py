"""The HTTP listener: hypercorn's trio worker with a small ASGI application over the sans-IO REST API.

hypercorn parses HTTP (h11, and h2 for clients that ask for it); this module only accepts
connections (so that it can cap them), turns each request into a ``pcfserver.rest`` Request,
runs what the API asks for through the committer shared with the PCF port (one engine, one group
commit: an answer is sent only once what it reflects is durable) and writes the Response.

Limits, as on the PCF port: request bodies beyond ``max_message_bytes`` (413), more than
``max_headers`` headers (431) or a request head larger than ``max_header_bytes`` (hypercorn
closes the connection), a body that does not arrive within ``read_timeout`` (408), connections
idle for ``idle_timeout`` and connections beyond ``max_connections`` are refused or closed and
logged.  ``shutdown`` stops accepting, ends waiting gets and idle connections, lets requests in
flight finish and then returns from ``serve``.

With an ``ssl_context`` the listener speaks HTTPS: the TLS handshake is done here (under the read
timeout) before hypercorn sees the connection, and a client certificate's subject CN is handed to
the application as the user it names.  What a request may do is decided by the shared sans-IO
``RestApp`` (authentication, roles, the admin and messaging APIs); this shell only runs the
operation it hands back, under the identity it names, through the committer.
"""

from __future__ import annotations

import logging
import math
import ssl
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, cast

import trio
from hypercorn.app_wrappers import ASGIWrapper
from hypercorn.config import Config as HypercornConfig
from hypercorn.events import Closed, Event, RawData
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState

from pcfserver import mq
from pcfserver.console.app import ConsoleApp, ConsoleRouted
from pcfserver.console.web import PREFIX as CONSOLE_PREFIX
from pcfserver.console.web import Viewer
from pcfserver.console.web import page as console_page
from pcfserver.engine.authority import Identity
from pcfserver.engine.engine import Batch
from pcfserver.engine.engine import Engine as FullEngine
from pcfserver.engine.messages import MQIError
from pcfserver.engine.messaging import SessionState
from pcfserver.rest.admin import AdminOperation
from pcfserver.rest.app import RestApp, Routed
from pcfserver.rest.http import Request, Response, error
from pcfserver.rest.messaging import Operation, Publication
from pcfserver.server import gateway
from pcfserver.server.committer import Committer, Job, PipelinedEngine
from pcfserver.server.core import ServerConfig, address_name
from pcfserver.server.logs import LOGGER_NAME, AccessLog
from pcfserver.server.tls import certificate_user

log = logging.getLogger(LOGGER_NAME)
# The access log's lines are written together, this long after the first of them or once there are this many
# (logs.AccessLog); a lone client's requests come a few hundred a second, so its lines too go out in batches.
ACCESS_DELAY = 0.1
ACCESS_BATCH = 64
APPL_NAME = "pcfserver REST"
CONSOLE_APPL_NAME = "pcfserver console"  # the PutApplName of a message put in the web console
_Scope = dict[str, Any]
_Receive = Callable[[], Any]
_Send = Callable[[dict[str, Any]], Any]


class _Operation(Job):
    """One message-layer call of a request: applied at once, released when its changes are durable.

    The request's task sleeps in :meth:`finished` until the committer releases the job (woken
    directly: a trio.Event and its parking lot cost more than the rest of the hand-over)."""

    __slots__ = ("action", "arrivals_seen", "committer", "done", "result", "waiter")

    def __init__(self, committer: Committer, action: Callable[[], object]) -> None:
        super().__init__()
        self.committer = committer
        self.action = action
        self.result: object = None
        self.done = False
        self.waiter: trio.lowlevel.Task | None = None
        self.arrivals_seen = 0

    def apply(self, engine: PipelinedEngine) -> None:
        self.arrivals_seen = self.committer.arrivals.seq
        self.result, self.batch = cast(FullEngine, engine).apply_operation(self.action)

    def release(self, answers: list[list[Any]], failure: BaseException | None) -> None:
        if failure is not None:
            self.result = MQIError(mq.MQRC_RESOURCE_PROBLEM)
        self._finish()

    def lost(self) -> None:
        self.result = MQIError(mq.MQRC_CONNECTION_BROKEN)
        self._finish()

    def _finish(self) -> None:
        self.done = True
        waiter, self.waiter = self.waiter, None
        if waiter is not None:
            trio.lowlevel.reschedule(waiter)

    def _abort(self, _: object) -> trio.lowlevel.Abort:
        self.waiter = None  # cancelled: the job is released later, with no one waiting
        return trio.lowlevel.Abort.SUCCEEDED

    async def finished(self) -> None:
        """Until the job is released (its changes durable) or lost."""
        if self.done:
            await trio.lowlevel.checkpoint()
            return
        self.waiter = trio.lowlevel.current_task()
        await trio.lowlevel.wait_task_rescheduled(self._abort)


# A status line's reason phrase, as mqweb (Liberty) writes it ("HTTP/1.1 201 Created", "HTTP/1.1 204 No Content" in
# IBM's curl transcripts): scripts that look for "201 Created" in curl -i's output find it.
_REASON_PHRASES = {str(status.value).encode(): status.phrase.encode() for status in HTTPStatus}
_JOIN_LIMIT = 64 * 1024  # a response's body up to this size goes out in one send with its head


class _HeadDue:
    """Whether the connection's next write is an answer's head (set as the application starts its answer): only then
    is a status line completed, never in a body that happens to begin like one; and whether an answer was withheld
    because the store failed to make a change durable (the access log then has no line for it)."""

    __slots__ = ("due", "withheld")

    def __init__(self) -> None:
        self.due = False
        self.withheld = False


class _TCPServer(TCPServer):
    """hypercorn's connection, except that:

    - a peer that closes frees its slot at once (hypercorn keeps the task until its keep-alive timer runs out,
      which would count against the cap);
    - a final response's head waits for what follows it (its body, or the empty end of a body-less answer) and
      goes out in the same send: hypercorn sends each part on its own, so a message's body used to cost a
      second send and a second wake-up of the client, and a client without TCP_NODELAY could wait for a
      delayed ACK between them.  (Informational heads, 100 Continue, go at once: the client waits for them.)
    - the empty end of a response whose body went already is not sent at all."""

    _held = b""
    head_due: _HeadDue  # (set by HttpServer for each connection)
    unsettled: Callable[[], OSError | None]  # (the committer's: before anything goes out, every change written is made durable)

    async def _read_data(self) -> None:
        await super()._read_data()
        await self.idle_task.stop()

    async def protocol_send(self, event: Event) -> None:
        if type(event) is RawData:
            data = event.data
            if self.head_due.due and data[12:15] == b" \r\n":  # the final head of an answer: its reason phrase (hypercorn gives none)
                self.head_due.due = False
                event = RawData(data := data[:13] + _REASON_PHRASES.get(data[9:12], b"") + data[13:])
            held = self._held
            if held:
                self._held = b""
                if len(data) <= _JOIN_LIMIT:
                    event = RawData(held + data)
                elif await self._durable():
                    await super().protocol_send(RawData(held))
                else:
                    return
            elif data[:7] == b"HTTP/1." and data[9:10] != b"1" and data[-4:] == b"\r\n\r\n":
                self._held = data
                return
            elif not data:  # the empty end of a body sent already: nothing to send (a lock and a send_all's schedule points)
                return
            if not await self._durable():
                return
        elif type(event) is Closed and self._held:
            held, self._held = self._held, b""
            if not await self._durable():
                return
            await super().protocol_send(RawData(held))
        await super().protocol_send(event)

    async def _durable(self) -> bool:
        """Whether every change written so far is durable (settling the sync a lone request's commit left owed), so
        that an answer may go out; if the disk failed, the connection is closed instead and False returned."""
        if self.unsettled() is None:
            return True
        self._held = b""
        self.head_due.withheld = True
        await super().protocol_send(Closed())
        return False


class HttpServer:
    """Serves the messaging REST API of one engine over HTTP until ``shutdown()`` or cancellation."""

    def __init__(
        self,
        engine: Any,
        config: ServerConfig | None = None,
        committer: Committer | None = None,
        *,
        port: int = 0,
        app: RestApp | None = None,
        ssl_context: ssl.SSLContext | None = None,
        console: ConsoleApp | None = None,
    ) -> None:
        if not hasattr(engine, "apply_operation"):
            raise TypeError("the HTTP listener needs an engine with a message layer (pcfserver.engine.Engine)")
        self.engine = cast(FullEngine, engine)
        self.config = config or ServerConfig()
        self.port = port
        self._owns_committer = committer is None
        self.committer = committer or Committer(engine, in_thread=self.config.engine_in_thread)
        self.app = app or RestApp(self.engine.qmgr_name, None, time.monotonic)
        self.console = console or ConsoleApp(self.app)
        self.ssl_context = ssl_context
        self.scheme = "https" if ssl_context is not None else "http"
        self.layer = self.engine.messaging
        self.address: tuple[str, int] | None = None
        self.requests = 0
        self._session = self.layer.open_session(APPL_NAME)
        self._sessions: dict[tuple[Identity | None, str], SessionState] = {}  # by identity and interface (REST, console)
        self._connections = 0
        self._numbers = 0
        self._stopping = False
        self._stop = trio.Event()
        self._in_flight = 0  # requests being answered (from their head to their last body byte sent)
        self._answered = trio.Event()
        self._waits: set[trio.Event] = set()
        self._access = AccessLog(log)
        self._access_due = trio.Event()
        self._context = WorkerContext(None)
        self._hypercorn = HypercornConfig()
        self._hypercorn.keep_alive_timeout = self.config.idle_timeout
        # hypercorn's own read timer (whole seconds) ends a connection that stalls; one second later than ours, so that
        # a body that stalls gets our 408 first (with the same deadline, a busy loop could run either first: a 400).
        self._hypercorn.read_timeout = math.ceil(self.config.read_timeout) + 1
        self._hypercorn.h11_max_incomplete_size = self.config.max_header_bytes
        self._hypercorn.keep_alive_max_requests = 2**31  # hypercorn closes after 1,000 requests otherwise
        self._hypercorn.include_server_header = False
        self._hypercorn.accesslog = None
        self._hypercorn.errorlog = logging.getLogger(LOGGER_NAME + ".http")
        self._app = ASGIWrapper(cast(Any, self._asgi))

    @property
    def stopping(self) -> bool:
        return self._stopping

    @property
    def connection_count(self) -> int:
        return self._connections

    def shutdown(self) -> None:
        """Stop accepting; waiting gets answer now; idle connections close; requests in flight finish."""
        if self._stopping:
            return
        self._stopping = True
        log.info("HTTP shutting down: %d connections open", self._connections, extra={"event": "shutdown"})
        self._stop.set()
        for event in self._waits:
            event.set()

    async def serve(self, *, task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED) -> None:
        cfg = self.config
        listeners = await trio.open_tcp_listeners(self.port, host=cfg.host)
        name = listeners[0].socket.getsockname()
        self.address = (str(name[0]), int(name[1]))
        try:
            async with trio.open_nursery() as outer:
                if self._owns_committer:
                    outer.start_soon(self.committer.run)
                async with trio.open_nursery() as connections:
                    accepting = trio.CancelScope()

                    async def accept_all() -> None:
                        with accepting:
                            async with trio.open_nursery() as acceptors:
                                for listener in listeners:
                                    acceptors.start_soon(self._accept_loop, listener, connections)

                    connections.start_soon(accept_all)
                    connections.start_soon(self._write_access_lines)
                    task_status.started(self.address)
                    await self._stop.wait()
                    accepting.cancel()
                    await self._context.terminated.set()  # idle keep-alive connections close now
                    # Requests in flight finish (their answers wait for the committer); then every
                    # connection goes, idle or not: hypercorn can leave a keep-alive connection that
                    # received a request after it was told to close paused for good, so waiting for
                    # the connections themselves to end could take the whole send timeout.
                    with trio.move_on_after(cfg.send_timeout):
                        while self._in_flight:
                            self._answered = trio.Event()
                            await self._answered.wait()
                    connections.cancel_scope.cancel()
                if self._owns_committer:
                    self.committer.close()
        finally:
            self._access.flush()
            for listener in listeners:
                await listener.aclose()
            for session in (self._session, *self._sessions.values()):
                if self.layer.sessions.get(session.ident) is session:
                    self.layer.end_session(session)
            log.info("HTTP answered %d requests", self.requests, extra={"event": "stats"})

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # out of descriptors or memory: pause instead of spinning
                log.error("HTTP accept failed: %s; pausing 100 ms", exc, extra={"event": "accept_error"})
                await trio.sleep(0.1)
                continue
            self._numbers += 1
            if self._connections >= self.config.max_connections:
                peer = _peer_name(stream)
                log.warning(
                    "HTTP connection %d from %s refused: %d connections open (--max-connections)", self._numbers, peer, self._connections,
                    extra={"event": "refused", "peer": peer, "connection": self._numbers},
                )
                await stream.aclose()
                continue
            self._connections += 1
            nursery.start_soon(self._serve_connection, stream)

    async def _serve_connection(self, stream: trio.SocketStream) -> None:
        try:
            state: dict[str, Any] = {}
            served: trio.SocketStream | trio.SSLStream[trio.SocketStream] = stream
            if self.ssl_context is not None:
                tls = trio.SSLStream(stream, self.ssl_context, server_side=True, https_compatible=True)
                shaken = False
                with trio.move_on_after(self.config.read_timeout):
                    try:
                        await tls.do_handshake()
                        shaken = True
                    except trio.BrokenResourceError as exc:
                        peer = _peer_name(stream)
                        log.info("HTTPS handshake with %s failed: %s", peer, exc.__cause__ or exc, extra={"event": "tls_failed", "peer": peer})
                if not shaken:
                    await stream.aclose()
                    return
                state["certificate_user"] = certificate_user(tls.getpeercert())
                served = tls
            state["head_due"] = head_due = _HeadDue()
            server = _TCPServer(self._app, self._hypercorn, self._context, ConnectionState(state), cast(Any, served))
            server.head_due = head_due
            server.unsettled = self.committer.unsettled
            await server.run()
        except Exception:
            log.exception("HTTP connection failed", extra={"event": "error"})
        finally:
            self._connections -= 1

    # -- one request -------------------------------------------------------------------------

    async def _asgi(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1003})
            return
        started = time.perf_counter()
        peer = address_name(scope.get("client"))
        self._in_flight += 1
        try:
            response, request, kind = await self._respond(scope, receive, peer)
            headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
            headers.append((b"content-length", str(len(response.body)).encode()))
            if self._stopping:
                headers.append((b"connection", b"close"))
            head_due = scope.get("state", {}).get("head_due")
            if head_due is not None:
                head_due.due = True
            await send({"type": "http.response.start", "status": response.status, "headers": headers})
            await send({"type": "http.response.body", "body": response.body})  # (hypercorn sends none for HEAD)
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._answered.set()
        self.requests += 1
        access = self._access
        if access.enabled() and not (head_due is not None and head_due.withheld):  # (one line per answered request)
            access.add(peer, scope["method"], request.path if request else scope.get("path", ""), kind, response.status, int((time.perf_counter() - started) * 1e6))
            if len(access.pending) >= ACCESS_BATCH:
                access.flush()
            elif len(access.pending) == 1:
                self._access_due.set()

    async def _write_access_lines(self) -> None:
        """Writes the access lines kept, ``ACCESS_DELAY`` after the first of them (``_asgi`` writes a full batch at once)."""
        while True:
            await self._access_due.wait()
            await trio.sleep(ACCESS_DELAY)
            self._access_due = trio.Event()
            self._access.flush()

    async def _respond(self, scope: _Scope, receive: _Receive, peer: str) -> tuple[Response, Request | None, str]:
        cfg = self.config
        raw = scope["headers"]
        if len(raw) > cfg.max_headers:
            return error("too_many_headers", cfg.max_headers), None, ""
        headers = tuple((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in raw)
        length = next((v for k, v in headers if k == "content-length"), None)
        if length is not None and length.isdigit() and int(length) > cfg.max_message_bytes:
            return error("body_too_large", cfg.max_message_bytes), None, ""
        body = bytearray()
        more = True
        if scope.get("http_version") in ("1.1", "1.0") and (length == "0" or (length is None and all(k != "transfer-encoding" for k, _ in headers))):
            # HTTP/1 without a body: its end came with the head, so no read timer is needed (a
            # cancel scope per request cost as much as the rest of reading it).
            event = await receive()
            if event["type"] == "http.disconnect":
                return Response(400), None, ""
            body += event.get("body", b"")
            more = event.get("more_body", False)
        if more:
            with trio.move_on_after(cfg.read_timeout) as scope_timer:
                while True:
                    event = await receive()
                    if event["type"] == "http.disconnect":
                        return Response(400), None, ""
                    body += event.get("body", b"")
                    if len(body) > cfg.max_message_bytes:
                        return error("body_too_large", cfg.max_message_bytes), None, ""
                    if not event.get("more_body", False):
                        break
            if scope_timer.cancelled_caught:
                return error("body_timeout", f"{cfg.read_timeout:g}"), None, ""
        path = scope.get("raw_path") or scope["path"].encode("utf-8")
        request = Request(
            scope["method"], path.decode("latin-1"), scope.get("query_string", b"").decode("latin-1"), headers, bytes(body), self.ssl_context is not None
        )
        if request.path.startswith(CONSOLE_PREFIX):
            shown = self.console.handle(request, peer, scope.get("state", {}).get("certificate_user"))
            if isinstance(shown, Response):
                return shown, request, "console"
            return await self._run_console(shown), request, "console"
        answer = self.app.handle(request, peer, scope.get("state", {}).get("certificate_user"))
        if isinstance(answer, Response):
            return answer, request, ""
        if isinstance(answer.operation, AdminOperation):
            return await self._run_admin(answer), request, answer.operation.kind
        if isinstance(answer.operation, Publication):
            return await self._publish(answer.operation, self._session_for(answer.identity)), request, answer.operation.kind
        return await self._run(answer.operation, self._session_for(answer.identity)), request, answer.operation.kind

    def _session_for(self, identity: Identity | None, appl_name: str = APPL_NAME) -> SessionState:
        """The messaging session of an identity (None: the server's own) for the REST API or the console, whose
        messages show their PutApplName."""
        if identity is None and appl_name == APPL_NAME:
            if self.layer.sessions.get(self._session.ident) is not self._session:  # ended by STOP CONN: a new one
                self._session = self.layer.open_session(APPL_NAME)
            return self._session
        key = (identity, appl_name)
        session = self._sessions.get(key)
        if session is None or self.layer.sessions.get(session.ident) is not session:
            session = self._sessions[key] = self.layer.open_session(appl_name, identity=identity)
        return session

    async def _run_admin(self, routed: Routed) -> Response:
        """An MQSC command of the admin API: applied whole in one operation, answered once durable."""
        operation = routed.operation
        assert isinstance(operation, AdminOperation)
        engine, identity = self.engine, routed.identity
        if operation.target:  # through the REST gateway, for another queue manager (server/gateway.py)
            return await gateway.forward(engine.qmgr_name, operation, identity, lambda command: engine.apply_command(command, None), self._result)
        origin = ("REST", routed.user)
        job = await self._apply(lambda: operation.run(lambda command: engine.apply_command(command, identity, origin)))
        if isinstance(job.result, Response):
            return job.result
        reason = job.result.reason if isinstance(job.result, MQIError) else mq.MQRC_UNEXPECTED_ERROR
        return error("unexpected", reason, reason=reason)

    async def _run_console(self, routed: ConsoleRouted) -> Response:
        """A console page: rendered (and any change it makes applied) inside one engine operation, answered once durable."""
        context = _ConsoleContext(self, routed)
        job = await self._apply(lambda: routed.route.handler(context, routed.request))
        result = job.result
        if not isinstance(result, Response):
            reason = result.reason if isinstance(result, MQIError) else mq.MQRC_UNEXPECTED_ERROR
            result = console_page(routed.viewer, "message.html", 500, title="Failed", text=f"The page failed with reason {reason}.")
        if routed.cookies:
            result = Response(result.status, (*result.headers, *routed.cookies), result.body)
        return result

    async def _result(self, action: Callable[[], object]) -> object:
        return (await self._apply(action)).result

    async def _apply(self, action: Callable[[], object]) -> _Operation:
        job = _Operation(self.committer, action)
        if self._in_flight == 1 and self.committer.run_now(job):  # a lone request: committed here, no hand-over
            return job
        if not self.committer.submit(job):
            job.lost()
        await job.finished()
        return job

    async def _publish(self, publication: Publication, session: SessionState) -> Response:
        """A publication: applied in one operation through the committer, answered once its copies are durable."""
        pubsub = self.engine.pubsub
        job = await self._apply(lambda: publication.run(pubsub, session))
        return publication.respond(job.result)

    async def _run(self, op: Operation, session: SessionState) -> Response:
        """Runs an operation through the committer; a get that finds nothing waits for an arrival until ``op.wait`` passes."""
        layer = self.layer
        deadline: float | None = None  # (from the first attempt that finds nothing: most requests never read the clock)
        handle: int | None = None
        try:
            while True:
                if session.stopped:  # STOP CONN while the get waited: it ends with the connection, as MQGET does
                    result: object = MQIError(mq.MQRC_CONNECTION_BROKEN)
                    break
                job = await self._apply(lambda: op.run(layer, session))
                result = job.result
                if not (isinstance(result, MQIError) and result.reason == mq.MQRC_NO_MSG_AVAILABLE):
                    break
                now = trio.current_time()
                if deadline is None:
                    deadline = now + op.wait
                if self._stopping or now >= deadline:
                    break
                if handle is None:
                    # A waiting get holds the queue open for input, as MQGET with a wait does.
                    opened = await self._apply(lambda: layer.open(session, op.queue, input=True, waiting=True))
                    if not isinstance(opened.result, int):
                        break
                    handle = opened.result
                try:
                    base = layer.resolve(op.queue)[-1].name
                except MQIError:
                    break
                await self._wait_arrival(base, deadline, job.arrivals_seen)
        finally:
            if handle is not None:
                self._close_handle(session, handle)
        return op.respond(result)

    async def _wait_arrival(self, queue: str, deadline: float, seen: int) -> None:
        arrivals = self.committer.arrivals
        if arrivals.last(queue) > seen or self._stopping:
            return  # something arrived after the get was applied (try again at once), or the server stops
        event = trio.Event()
        self._waits.add(event)
        try:
            await arrivals.wait(queue, deadline, event)
        finally:
            self._waits.discard(event)

    def _close_handle(self, session: SessionState, handle: int) -> None:
        """Closing a handle changes no stored state: applied at once, nothing to commit."""
        layer = self.layer
        result, batch = self.engine.apply_operation(lambda: layer.close(session, handle))
        assert isinstance(batch, Batch) and not batch.ops, result


class _ConsoleContext:
    """What a console page sees of the server while it runs (``console.web.ConsoleContext``)."""

    __slots__ = ("_messaging", "_origin", "_server", "engine", "identity", "viewer")

    def __init__(self, server: HttpServer, routed: ConsoleRouted) -> None:
        self._server = server
        self.engine = server.engine
        self.viewer: Viewer = routed.viewer
        self.identity = routed.identity
        self._messaging = routed.messaging
        self._origin = ("console", routed.viewer.user)

    def execute(self, command: Any) -> list[Any]:
        return self.engine.apply_command(command, self.identity, self._origin)

    def session(self) -> SessionState:
        return self._server._session_for(self._messaging, CONSOLE_APPL_NAME)

    def now(self) -> float:
        return time.time()

    def user_roles(self, name: str) -> frozenset[str] | None:
        users = self._server.app.auth.users
        found = None if users is None else users.get(name, refresh=False)
        return None if found is None else frozenset(found.roles)

    def user_groups(self, name: str) -> tuple[str, ...] | None:
        users = self._server.app.auth.users
        found = None if users is None else users.get(name, refresh=False)
        return None if found is None else tuple(found.groups)


def _peer_name(stream: trio.SocketStream) -> str:
    try:
        return address_name(stream.socket.getpeername())
    except OSError:
        return "?"

