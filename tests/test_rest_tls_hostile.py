"""Hostile clients on the TLS ports never stop service: stalled handshakes, garbage instead of a
ClientHello, slow heads and bodies inside TLS, a thousand idle connections, and the PCF port's
TLS front at its connection cap.  Real sockets on 127.0.0.1; httpx and trio's SSLStream as the
clients; the server's own self-signed certificate as the trust anchor."""

from __future__ import annotations

import os
import ssl
from pathlib import Path
from typing import Any

import httpx
import trio
import trustme

from pcfserver import mq
from pcfserver.client.aio import Client
from pcfserver.codec import Message, String
from pcfserver.engine import open_engine
from pcfserver.server import ServerConfig
from pcfserver.server.service import Service

HOST = "127.0.0.1"
QMGR_URL = "/ibmmq/rest/v2/admin/qmgr"


async def start(nursery: trio.Nursery, data: Path, **config: Any) -> tuple[Service, Any]:
    config.setdefault("http_port", None)
    service = Service(open_engine(data), ServerConfig(host=HOST, port=0, **config), data)
    addresses = await nursery.start(service.serve)
    return service, addresses


def trusting(data: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(data / "server-cert.pem"))


async def served(port: int, context: ssl.SSLContext, times: int = 3) -> None:
    """Real HTTPS requests are answered."""
    async with httpx.AsyncClient(base_url=f"https://localhost:{port}", verify=context, timeout=10) as client:
        for _ in range(times):
            response = await client.get(QMGR_URL)
            assert response.status_code == 200 and response.json()["qmgr"][0]["name"] == "QM1"


async def closed_by_server(stream: trio.abc.Stream) -> bytes:
    """Everything the server sends until it closes the connection (a reset counts as closed)."""
    received = b""
    try:
        while chunk := await stream.receive_some(65536):
            received += chunk
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    return received


async def wait_for_no_connections(service: Service) -> None:
    with trio.fail_after(15):
        while service.https is not None and service.https.connection_count:
            await trio.sleep(0.05)


async def test_stalled_handshakes_and_garbage_are_dropped_while_others_are_served(nursery: trio.Nursery, tmp_path: Path) -> None:
    service, addresses = await start(nursery, tmp_path, https_port=0, read_timeout=1.0, idle_timeout=1.0)
    port = addresses.https[1]
    stalled = [await trio.open_tcp_stream(HOST, port) for _ in range(20)]  # connect, never say hello
    plain_http = await trio.open_tcp_stream(HOST, port)
    await plain_http.send_all(b"GET /ibmmq/rest/v2/admin/qmgr HTTP/1.1\r\nHost: localhost\r\n\r\n")
    noise = await trio.open_tcp_stream(HOST, port)
    await noise.send_all(os.urandom(4096))
    await served(port, trusting(tmp_path))
    with trio.fail_after(10):
        assert b"HTTP/1.1" not in await closed_by_server(plain_http)  # a TLS alert at most, never an answer
        assert b"HTTP/1.1" not in await closed_by_server(noise)
        for stream in stalled:  # closed by the handshake's time limit
            assert await closed_by_server(stream) == b""
    for stream in [*stalled, plain_http, noise]:
        await stream.aclose()
    await wait_for_no_connections(service)
    await served(port, trusting(tmp_path), times=1)
    service.shutdown()


async def test_slow_heads_and_bodies_inside_tls_time_out(nursery: trio.Nursery, tmp_path: Path) -> None:
    service, addresses = await start(nursery, tmp_path, https_port=0, read_timeout=1.0, idle_timeout=1.0)
    port = addresses.https[1]
    context = trusting(tmp_path)

    async def handshaken() -> trio.SSLStream[trio.SocketStream]:
        stream = trio.SSLStream(await trio.open_tcp_stream(HOST, port), context, server_hostname="localhost", https_compatible=True)
        await stream.do_handshake()
        return stream

    slow_head = await handshaken()
    await slow_head.send_all(b"GET /ibmmq/rest/v2/admin/qmgr HTTP/1.1\r\nHost: localhost\r\n")  # the head never ends
    slow_body = await handshaken()
    await slow_body.send_all(
        b"POST /ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"ibm-mq-rest-csrf-token: x\r\nContent-Length: 200\r\n\r\n{\"type\": \"runCommand\""
    )
    idle = await handshaken()  # handshake done, then nothing
    await served(port, context)
    with trio.fail_after(10):
        assert not (await closed_by_server(slow_head)).startswith(b"HTTP/1.1 2")
        assert (await closed_by_server(slow_body)).startswith(b"HTTP/1.1 408")
        assert await closed_by_server(idle) == b""
    for stream in (slow_head, slow_body, idle):
        await stream.aclose()
    await wait_for_no_connections(service)
    service.shutdown()


async def test_a_thousand_idle_connections_do_not_stop_service(nursery: trio.Nursery, tmp_path: Path) -> None:
    service, addresses = await start(nursery, tmp_path, https_port=0, read_timeout=4.0, idle_timeout=4.0, max_connections=1100)
    port = addresses.https[1]
    context = trusting(tmp_path)
    idle = [await trio.open_tcp_stream(HOST, port) for _ in range(1000)]
    with trio.fail_after(10):
        while service.https is not None and service.https.connection_count < 1000:
            await trio.sleep(0.02)
    await served(port, context, times=5)  # while all of them are held
    with trio.fail_after(20):
        for stream in idle:
            assert await closed_by_server(stream) == b""
    for stream in idle:
        await stream.aclose()
    await wait_for_no_connections(service)
    await served(port, context, times=1)
    service.shutdown()


async def test_the_pcf_tls_front_bounds_handshakes_and_its_connections(nursery: trio.Nursery, tmp_path: Path) -> None:
    ca = trustme.CA()
    server_cert = ca.issue_cert("localhost", "127.0.0.1")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    server_cert.cert_chain_pems[0].write_to_path(str(cert))
    server_cert.private_key_pem.write_to_path(str(key))
    service, addresses = await start(nursery, tmp_path, pcf_tls=True, tls_cert=cert, tls_key=key, read_timeout=3.0, max_connections=5)
    host, port = addresses.pcf
    context = ssl.create_default_context()
    ca.configure_trust(context)
    stalled = [await trio.open_tcp_stream(host, port) for _ in range(5)]  # the cap, all in their handshakes
    with trio.fail_after(5):
        while service.tls_front is not None and service.tls_front.connections < 5:
            await trio.sleep(0.01)
    refused = await trio.open_tcp_stream(host, port)
    with trio.fail_after(1):  # beyond the cap: closed at once, long before a handshake would time out
        assert await closed_by_server(refused) == b""
    with trio.move_on_after(0.2) as still_open:
        await stalled[0].receive_some(10)
    assert still_open.cancelled_caught
    with trio.fail_after(10):
        for stream in stalled:  # the handshake's time limit frees their places
            assert await closed_by_server(stream) == b""
    for stream in [*stalled, refused]:
        await stream.aclose()
    with trio.fail_after(10):
        while service.tls_front is not None and service.tls_front.connections:
            await trio.sleep(0.05)
    stream = await trio.open_ssl_over_tcp_stream(host, port, ssl_context=context, https_compatible=False)
    async with Client(stream) as client:
        answer = await client.execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "*"),)))
        assert answer[0].comp_code == mq.MQCC_OK
    service.shutdown()
