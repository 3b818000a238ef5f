"""The server shell's side of the operational commands: listener ports, senders reaching their partners, services.

The engine (``pcfserver.engine.operations``) keeps the status and decides the answers; this module does the I/O it
asks for, as the :class:`~pcfserver.engine.operations.Network` it is handed:

* A started listener is a real port: a socket bound to IPADDR (blank: the server's ``--host``) and PORT, served
  by the PCF server exactly as its main port (same protocol, limits, connection count, TLS when ``--pcf-tls``).
  The socket is bound at once, inside the command, so a port that cannot be bound is the command's answer;
  accepting runs as a task of the PCF server.  STOP LISTENER ends the accepting task and closes the port;
  connections it accepted go on until they end.
* START CHANNEL of a sender probes its CONNAME (``host(port)``, port 1414 by default) in the background: a TCP
  connection that succeeds makes the channel RUNNING, one that fails RETRYING, tried again every few seconds.
  PING CHANNEL connects at once (at most one second).
* Services run their programs only when the server was started with ``--run-services``.
"""

from __future__ import annotations

import logging
import re
import shlex
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING

import trio

from pcfserver import mq
from pcfserver.client.aio import Client
from pcfserver.client.protocol import PcfConnectionClosed
from pcfserver.codec import IntegerList, Message
from pcfserver.codec.model import PcfError
from pcfserver.server.logs import LOGGER_NAME

if TYPE_CHECKING:
    from pcfserver.engine.operations import Operations
    from pcfserver.server.core import PcfServer, ServerConfig
    from pcfserver.server.tls import TlsFront

log = logging.getLogger(LOGGER_NAME)
DEFAULT_PORT = 1414
PROBE_TIMEOUT = 5.0
RETRY_INTERVAL = 5.0  # a retrying sender tries its partner again after this long
RUNNING_INTERVAL = 30.0  # a running sender checks its partner is still there after this long
PING_TIMEOUT = 1.0
_CONNAME = re.compile(r"\s*([^(),\s]+)\s*(?:\(\s*(\d+)\s*\))?\s*\Z")


def parse_conname(conname: str) -> tuple[str, int] | None:
    """The first address of a CONNAME (``host(port)``, ``host``; a comma-separated list names alternatives)."""
    first = conname.split(",")[0]
    found = _CONNAME.match(first)
    if found is None:
        return None
    return found.group(1), int(found.group(2) or DEFAULT_PORT)


async def _partner_name(stream: trio.SocketStream) -> str:
    """The queue manager a partner that speaks PCF names (Inquire Queue Manager), else blank; closes the stream."""
    client = Client(stream)
    try:
        with trio.move_on_after(PROBE_TIMEOUT):
            answer = await client.execute(Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQCA_Q_MGR_NAME,)),)), check_failure=False)
            name = answer[0].str_value(mq.MQCA_Q_MGR_NAME) if answer else None
            return (name or "").strip()
    except (OSError, PcfError, PcfConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    finally:
        with trio.move_on_after(1):
            await client.aclose()
    return ""


@contextmanager
def _output(path: str) -> Iterator[IO[bytes] | int]:
    """Where a service's output goes: appended to the file STDOUT/STDERR names, else nowhere."""
    if not path.strip():
        yield subprocess.DEVNULL
        return
    with open(path.strip(), "ab") as file:
        yield file


def _loopback(host: str) -> bool:
    from pcfserver.server.service import is_loopback

    return is_loopback(host)


class ShellNetwork:
    """Listener ports, partner probes and service programs for one server (the engine's ``operations.network``)."""

    def __init__(self, pcf: PcfServer, config: ServerConfig, operations: Operations, tls_front: TlsFront | None = None, *, run_services: bool = False) -> None:
        self.pcf = pcf
        self.config = config
        self.operations = operations
        self.tls_front = tls_front
        self.run_services = run_services
        self.listen_host = config.host
        self.token = trio.lowlevel.current_trio_token()
        self.ports: dict[str, tuple[socket.socket, trio.CancelScope]] = {}
        self.services: dict[str, subprocess.Popen[bytes]] = {}
        self.probes: set[trio.CancelScope] = set()

    # ------------------------------------------------------------------ listeners

    def open_listener(self, name: str, host: str, port: int, backlog: int) -> str | None:
        where = host or self.config.host
        cfg = self.config
        if not (cfg.insecure or _loopback(where) or (cfg.pcf_tls and cfg.tls_ca is not None)):
            why = f"listener {name} would listen on {where} without authentication (--insecure, or --pcf-tls --tls-ca)"
            log.warning("%s", why, extra={"event": "listener_refused"})
            return why
        try:
            infos = socket.getaddrinfo(where, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
            family, kind, proto, _, address = infos[0]
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(address)
                sock.listen(backlog)
                sock.setblocking(False)
            except OSError:
                sock.close()
                raise
        except OSError as exc:
            log.warning("listener %s cannot listen on %s port %d: %s", name, where, port, exc, extra={"event": "listener_failed"})
            return str(exc)
        scope = trio.CancelScope()
        self.ports[name] = (sock, scope)
        self.token.run_sync_soon(self._spawn, name, sock, scope)
        log.info("listener %s listening on %s port %d", name, where, port, extra={"event": "listener_started"})
        return None

    def _spawn(self, name: str, sock: socket.socket, scope: trio.CancelScope) -> None:
        nursery = self.pcf.connection_nursery
        if nursery is None:  # the server is stopping
            sock.close()
            return
        nursery.start_soon(self._accept, name, sock, scope)

    async def _accept(self, name: str, sock: socket.socket, scope: trio.CancelScope) -> None:
        try:
            with scope:
                if self.tls_front is not None:
                    listener = trio.SocketListener(trio.socket.from_stdlib_socket(sock))
                    await self.tls_front.accept_on(listener, self.pcf.connection_nursery)
                else:
                    await self.pcf.accept_on(sock)
        except (trio.ClosedResourceError, OSError):
            if self.ports.get(name, (None,))[0] is sock:  # not closed by STOP LISTENER: a real failure
                log.exception("listener %s failed", name, extra={"event": "listener_failed"})
        finally:
            if sock.fileno() != -1:
                trio.lowlevel.notify_closing(sock)
                sock.close()
            if self.ports.get(name, (None,))[0] is sock:
                del self.ports[name]

    def close_listener(self, name: str) -> None:
        found = self.ports.pop(name, None)
        if found is None:
            return
        sock, scope = found
        scope.cancel()
        if sock.fileno() != -1:  # closed now, so that the port can be listened on again at once
            trio.lowlevel.notify_closing(sock)
            sock.close()
        log.info("listener %s stopped", name, extra={"event": "listener_stopped"})

    def start_listeners(self) -> None:
        """Starts the CONTROL(QMGR) and CONTROL(STARTONLY) listeners, as the queue manager does when it starts."""
        for record in self.operations.qmgr_listeners():
            problem = self.operations.run_listener(record)
            if problem is not None:
                log.warning("listener %s did not start: %s", record.name, problem, extra={"event": "listener_failed"})

    def stop_all(self) -> None:
        """The server stops: every listener port closes and every sender stops probing."""
        for name in list(self.ports):
            self.close_listener(name)
        for scope in list(self.probes):
            scope.cancel()

    # ------------------------------------------------------------------ channels

    def probe(self, channel: str, conname: str) -> None:
        target = parse_conname(conname)
        self.token.run_sync_soon(self._spawn_probe, channel, target)

    def _spawn_probe(self, channel: str, target: tuple[str, int] | None) -> None:
        nursery = self.pcf.connection_nursery
        if nursery is not None:
            nursery.start_soon(self._probe, channel, target)

    async def _probe(self, channel: str, target: tuple[str, int] | None) -> None:
        scope = trio.CancelScope()
        self.probes.add(scope)
        try:
            with scope:
                await self._probe_until_done(channel, target)
        finally:
            self.probes.discard(scope)

    async def _probe_until_done(self, channel: str, target: tuple[str, int] | None) -> None:
        while not self.pcf.stopping:
            ok, remote = False, ""
            if target is not None:
                try:
                    with trio.fail_after(PROBE_TIMEOUT):
                        stream = await trio.open_tcp_stream(*target)
                    ok = True
                    remote = await _partner_name(stream)
                except (OSError, trio.TooSlowError):
                    pass
            if not self.operations.reached(channel, ok, remote):
                return
            await trio.sleep(RUNNING_INTERVAL if ok else RETRY_INTERVAL)

    def reachable(self, conname: str) -> bool:
        target = parse_conname(conname)
        if target is None:
            return False
        try:
            with socket.create_connection(target, timeout=PING_TIMEOUT):
                return True
        except OSError:
            return False

    # ------------------------------------------------------------------ services

    def start_service(self, name: str, command: str, arguments: str, server: bool, stdout: str = "", stderr: str = "") -> int | str:
        if not self.run_services:
            why = "services are not run: the server was not started with --run-services"
            log.warning("service %s not started: %s", name, why, extra={"event": "service_refused"})
            return why
        try:
            with _output(stdout) as out, _output(stderr) as err:
                process = subprocess.Popen([*shlex.split(command), *shlex.split(arguments)], stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        except (OSError, ValueError) as exc:
            log.warning("service %s failed to start: %s", name, exc, extra={"event": "service_failed"})
            return str(exc)
        log.info("service %s started: process %d", name, process.pid, extra={"event": "service_started"})
        if server:
            self.services[name] = process
        return process.pid

    def service_running(self, name: str) -> bool:
        process = self.services.get(name)
        return process is not None and process.poll() is None

    def stop_service(self, name: str, command: str, arguments: str) -> None:
        if not self.run_services:
            return
        try:
            subprocess.Popen([*shlex.split(command), *shlex.split(arguments)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, ValueError) as exc:
            log.warning("service %s stop command failed: %s", name, exc, extra={"event": "service_failed"})
        self.services.pop(name, None)

    def close(self) -> None:
        self.stop_all()
        for process in self.services.values():
            if process.poll() is None:
                process.terminate()
        self.services.clear()


__all__ = ["ShellNetwork", "parse_conname"]
