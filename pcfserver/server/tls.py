"""TLS for both listeners: certificates, SSL contexts, and the PCF port's TLS front.

Without ``--tls-cert/--tls-key`` a self-signed certificate for localhost (EC P-256, SAN
localhost, 127.0.0.1 and ::1) is made once in the data directory, as mqweb's default keystore
is, and reused at every start.  ``--tls-ca`` names the CAs whose client certificates are
accepted: the PCF TLS port then requires one, the HTTPS port accepts one (basic authentication
and the login token still work there); the certificate's subject CN names the user.

The PCF port's TLS front terminates TLS and hands the plain stream to the PCF server through a
socket pair, with the identity the certificate's user has; the PCF server itself (its framing,
limits, backpressure and group commit) is the same for plain and TLS connections.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import socket
import ssl
from collections.abc import Callable
from pathlib import Path

import trio

from pcfserver.engine.authority import Identity
from pcfserver.server.logs import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)
CERT_NAME = "server-cert.pem"
KEY_NAME = "server-key.pem"


def self_signed(data_dir: Path) -> tuple[Path, Path]:
    """The data directory's own certificate and key, made on first use."""
    cert_path, key_path = data_dir / CERT_NAME, data_dir / KEY_NAME
    if cert_path.exists() and key_path.exists():
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost"), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pcfserver")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=825))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.IPAddress(ipaddress.ip_address("::1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def server_context(cert: Path, key: Path, ca: Path | None = None, *, require_client: bool = False) -> ssl.SSLContext:
    """A TLS 1.2+ server context; with ``ca``, client certificates signed by it are asked for
    (required when ``require_client``)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    if ca is not None:
        context.load_verify_locations(ca)
        context.verify_mode = ssl.CERT_REQUIRED if require_client else ssl.CERT_OPTIONAL
    return context


def certificate_user(certificate: dict[str, object] | None) -> str | None:
    """The user a verified client certificate names: its subject's common name (CN)."""
    if not certificate:
        return None
    subject = certificate.get("subject", ())
    assert isinstance(subject, tuple)
    for rdn in subject:
        for key, value in rdn:
            if key == "commonName":
                return str(value)
    return None


Adopt = Callable[[socket.socket, str, Identity | None], None]
IdentityOf = Callable[[str | None], Identity | bool | None]


class TlsFront:
    """Accepts TLS connections for the PCF port and hands each, decrypted, to the PCF server."""

    def __init__(self, context: ssl.SSLContext, adopt: Adopt, identity_of: IdentityOf, handshake_timeout: float, max_connections: int) -> None:
        self.context = context
        self.adopt = adopt
        self.identity_of = identity_of  # CN -> identity, or False to refuse the connection
        self.handshake_timeout = handshake_timeout
        self.max_connections = max_connections
        self.connections = 0
        """Connections open here: handshaking, or handed to the PCF server and pumped."""
        self._accepting = trio.CancelScope()

    async def serve(self, host: str, port: int, *, task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(port, host=host)
        name = listeners[0].socket.getsockname()
        async with trio.open_nursery() as connections:  # connections end when the PCF server closes them
            with self._accepting:
                async with trio.open_nursery() as acceptors:
                    task_status.started((str(name[0]), int(name[1])))
                    for listener in listeners:
                        acceptors.start_soon(self._accept_loop, listener, connections)

    async def accept_on(self, listener: trio.SocketListener, nursery: trio.Nursery | None) -> None:
        """Accepts TLS connections on another listening socket (a started LISTENER object) until cancelled."""
        if nursery is not None:
            await self._accept_loop(listener, nursery)

    def stop_accepting(self) -> None:
        self._accepting.cancel()

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    log.error("PCF TLS accept failed: %s; pausing 100 ms", exc, extra={"event": "accept_error"})
                    await trio.sleep(0.1)
                    continue
                if self.connections >= self.max_connections:  # handshakes count: each holds a socket until its timeout
                    log.warning("PCF TLS connection refused: %d connections open", self.connections, extra={"event": "refused"})
                    await stream.aclose()
                    continue
                self.connections += 1
                nursery.start_soon(self._connection, stream)

    async def _connection(self, stream: trio.SocketStream) -> None:
        try:
            await self._serve(stream)
        finally:
            self.connections -= 1

    async def _serve(self, stream: trio.SocketStream) -> None:
        try:
            peer = stream.socket.getpeername()
            peer_name = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        except OSError:
            peer_name = "?"
        tls = trio.SSLStream(stream, self.context, server_side=True)
        try:
            with trio.fail_after(self.handshake_timeout):
                await tls.do_handshake()
        except (trio.BrokenResourceError, trio.TooSlowError) as exc:
            log.info("PCF TLS handshake with %s failed: %s", peer_name, exc.__cause__ or exc, extra={"event": "tls_failed", "peer": peer_name})
            await stream.aclose()
            return
        user = certificate_user(tls.getpeercert())
        identity = self.identity_of(user)
        if identity is False:
            log.warning("PCF TLS connection from %s refused: certificate CN %r is not a user", peer_name, user, extra={"event": "refused", "peer": peer_name})
            await tls.aclose()
            return
        assert identity is None or isinstance(identity, Identity)
        inner, outer = socket.socketpair()
        self.adopt(inner, f"{peer_name} (TLS {user or '-'})", identity)
        plain = trio.SocketStream(trio.socket.from_stdlib_socket(outer))
        async with trio.open_nursery() as pumps:

            async def pump(source: trio.abc.Stream, sink: trio.abc.Stream) -> None:
                try:
                    while data := await source.receive_some(65536):
                        await sink.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                finally:
                    pumps.cancel_scope.cancel()

            pumps.start_soon(pump, tls, plain)
            pumps.start_soon(pump, plain, tls)
        with trio.move_on_after(1):
            await plain.aclose()
            await tls.aclose()
