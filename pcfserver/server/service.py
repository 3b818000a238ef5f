"""One engine served on every listener: the PCF port (plain or TLS), the HTTP and HTTPS ports when
asked for, one committer, one REST application, one set of users.

The listeners are thin shells; what they share lives here and in ``committer``: the group commit
(so a change made over PCF is seen over REST and the other way round, each answer released only
once durable), the REST application (a login on one port holds on the other), and shutdown in
order: the listeners stop accepting and answer what they have received, then the committer
releases the last group and ends.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from pathlib import Path
from typing import Any

import trio

from pcfserver.console.app import ConsoleApp
from pcfserver.engine.authority import Identity
from pcfserver.rest.app import RestApp
from pcfserver.rest.auth import ADMIN, ADMIN_RO, USER
from pcfserver.server.committer import Committer, Engine
from pcfserver.server.core import PcfServer, ServerConfig
from pcfserver.server.http import HttpServer
from pcfserver.server.listeners import ShellNetwork
from pcfserver.server.tls import TlsFront, self_signed, server_context
from pcfserver.users import UserStore


class Addresses(tuple[Any, ...]):
    """(pcf, http, https) addresses; http and https None when off.  Unpacks as (pcf, http) for older callers."""

    pcf: tuple[str, int]
    http: tuple[str, int] | None
    https: tuple[str, int] | None

    def __new__(cls, pcf: tuple[str, int], http: tuple[str, int] | None, https: tuple[str, int] | None = None) -> Addresses:
        self = super().__new__(cls, (pcf, http))
        self.pcf, self.http, self.https = pcf, http, https
        return self


class InsecureListen(Exception):
    """Listening beyond loopback without authentication, and not told --insecure."""


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            return all(ipaddress.ip_address(info[4][0]).is_loopback for info in socket.getaddrinfo(host, None))
        except OSError:
            return False


class Service:
    """The PCF listener and, as ``config`` asks, the HTTP and HTTPS listeners over one engine."""

    def __init__(self, engine: Engine, config: ServerConfig, data_dir: Path | None = None) -> None:
        self.config = config
        self.users = UserStore(data_dir) if data_dir is not None else None
        authority = getattr(engine, "authority", None)
        if self.users is not None and authority is not None:
            authority.groups_of = self._groups_of  # DISPLAY ENTAUTH and MATCH(MEMBERSHIP) count a user's groups
        self.committer = Committer(engine, in_thread=config.engine_in_thread)
        self.pcf = PcfServer(engine, config, self.committer)
        web = config.http_port is not None or config.https_port is not None
        self.certificate: tuple[Path, Path] | None = None
        if config.https_port is not None or config.pcf_tls:
            if config.tls_cert is not None and config.tls_key is not None:
                self.certificate = (config.tls_cert, config.tls_key)
            elif data_dir is not None:
                self.certificate = self_signed(data_dir)
            else:
                raise ValueError("TLS needs --tls-cert and --tls-key or a data directory for a self-signed certificate")
        self._check_exposure(web)
        self.app = (
            RestApp(
                str(getattr(engine, "qmgr_name", "QM1")),
                self.users,
                time.monotonic,
                token_lifetime=config.token_lifetime,
                gateway_default=config.rest_gateway_default,
            )
            if web
            else None
        )
        self.console = ConsoleApp(self.app) if self.app is not None else None  # one CSRF key for both ports
        self.http = (
            HttpServer(engine, config, self.committer, port=config.http_port, app=self.app, console=self.console) if config.http_port is not None else None
        )
        self.https: HttpServer | None = None
        if config.https_port is not None:
            assert self.certificate is not None
            context = server_context(*self.certificate, config.tls_ca)
            self.https = HttpServer(engine, config, self.committer, port=config.https_port, app=self.app, ssl_context=context, console=self.console)
        self.network: ShellNetwork | None = None
        self.tls_front: TlsFront | None = None
        if config.pcf_tls:
            assert self.certificate is not None
            context = server_context(*self.certificate, config.tls_ca, require_client=config.tls_ca is not None)
            self.tls_front = TlsFront(context, self.pcf.adopt, self._pcf_identity, config.read_timeout, config.max_connections)

    def _check_exposure(self, web: bool) -> None:
        """Beyond loopback, every port must authenticate, unless --insecure says otherwise."""
        cfg = self.config
        if cfg.insecure or is_loopback(cfg.host):
            return
        problems = []
        if not (cfg.pcf_tls and cfg.tls_ca is not None):
            problems.append("the PCF port has no client-certificate authentication (--pcf-tls --tls-ca CA)")
        if web and (self.users is None or not self.users.users()):
            problems.append("the REST API has no users (pcfserver user add NAME --role ROLE)")
        if problems:
            raise InsecureListen(f"refusing to listen on {cfg.host} without authentication: {'; '.join(problems)}; add --insecure to do it anyway")

    def _groups_of(self, user: str) -> tuple[str, ...]:
        found = self.users.get(user) if self.users is not None else None
        return tuple(found.groups) if found is not None else ()

    def _pcf_identity(self, user: str | None) -> Identity | bool | None:
        """The identity a PCF TLS client's certificate gives: by the roles of the user its CN names.
        Without --tls-ca no certificate is asked for: the server's own authority, as on the plain port."""
        if self.config.tls_ca is None:
            return None
        found = self.users.get(user) if self.users is not None and user else None
        if found is None:
            return False
        if ADMIN in found.roles:
            return None
        if USER in found.roles:
            return Identity(found.name, found.groups)
        if ADMIN_RO in found.roles:
            return Identity(found.name, found.groups, read_only=True)
        return False

    @property
    def stopping(self) -> bool:
        return self.pcf.stopping

    def _start_network(self) -> None:
        """Hands the engine the listener ports, partner probes and service programs (pcfserver.server.listeners)
        and starts the CONTROL(QMGR) listeners."""
        operations = getattr(self.pcf.engine, "operations", None)
        if operations is None:
            return
        self.network = ShellNetwork(self.pcf, self.config, operations, self.tls_front, run_services=self.config.run_services)
        operations.network = self.network
        if self.config.start_listeners:
            self.network.start_listeners()

    def _stop_network(self) -> None:
        if self.network is not None:
            self.network.close()
            operations = getattr(self.pcf.engine, "operations", None)
            if operations is not None:
                operations.network = None
                operations.listeners.clear()
                operations.services.clear()
            self.network = None

    def shutdown(self) -> None:
        """Every listener stops accepting and finishes what it received; then the committer ends."""
        if self.network is not None:
            self.network.stop_all()
        self.pcf.shutdown()
        for http in (self.http, self.https):
            if http is not None:
                http.shutdown()
        if self.tls_front is not None:
            self.tls_front.stop_accepting()

    async def _sample(self, scope: trio.CancelScope) -> None:
        """The overview's charts (engine/monitor.py): one sample every interval until the service stops.  The
        sampler reads the engine's memory between two operations (this task runs on the loop, as they are applied)."""
        sampler = getattr(self.pcf.engine, "monitor", None)
        if sampler is None:
            return
        with scope:
            sampler.sample(time.time())
            while True:
                await trio.sleep(sampler.interval)
                sampler.sample(time.time())

    async def serve(self, *, task_status: trio.TaskStatus[Addresses] = trio.TASK_STATUS_IGNORED) -> None:
        sampling = trio.CancelScope()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self.committer.run)
                nursery.start_soon(self._sample, sampling)
                try:
                    async with trio.open_nursery() as listeners:
                        pcf_address = await listeners.start(self.pcf.serve)
                        self._start_network()
                        if self.tls_front is not None:
                            front = self.tls_front
                            pcf_address = await listeners.start(lambda task_status: front.serve(self.config.host, self.config.port, task_status=task_status))
                        http_address = await listeners.start(self.http.serve) if self.http is not None else None
                        https_address = await listeners.start(self.https.serve) if self.https is not None else None
                        task_status.started(Addresses(pcf_address, http_address, https_address))
                finally:
                    sampling.cancel()
                    self._stop_network()
                    self.committer.close()
        finally:
            if self.users is not None:
                self.users.close()
