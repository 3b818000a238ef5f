"""LISTENER objects are real ports, and senders reach their partners: the server shell of the operational commands
(pcfserver/server/listeners.py) over real loopback sockets, the server in this process."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import trio

from pcfserver import mq
from pcfserver.client import PcfCommandError, connect
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.engine.engine import Engine
from pcfserver.server.core import ServerConfig
from pcfserver.server.listeners import parse_conname
from pcfserver.server.service import Service
from pcfserver.server.tls import self_signed

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def define_listener(name: str, port: int, control: int = mq.MQSVC_CONTROL_MANUAL) -> Message:
    return Message(
        mq.MQCMD_CREATE_LISTENER,
        (
            String(mq.MQCACH_LISTENER_NAME, name),
            Integer(mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP),
            Integer(mq.MQIACH_PORT, port),
            Integer(mq.MQIACH_LISTENER_CONTROL, control),
        ),
    )


def start(name: str) -> Message:
    return Message(mq.MQCMD_START_CHANNEL_LISTENER, (String(mq.MQCACH_LISTENER_NAME, name),))


def stop(name: str) -> Message:
    return Message(mq.MQCMD_STOP_CHANNEL_LISTENER, (String(mq.MQCACH_LISTENER_NAME, name),))


def lsstatus(name: str) -> Message:
    return Message(mq.MQCMD_INQUIRE_LISTENER_STATUS, (String(mq.MQCACH_LISTENER_NAME, name),))


def ping_qmgr() -> Message:
    return Message(mq.MQCMD_PING_Q_MGR, ())


async def serve(nursery: trio.Nursery, engine: Engine | None = None, data: Path | None = None, **config: Any) -> Service:
    service = Service(engine or open_engine(None), ServerConfig(host=HOST, port=0, **config), data)
    nursery.start_soon(service.serve)
    while service.pcf.address is None or service.network is None:
        await trio.sleep(0.01)
    return service


@pytest.fixture
async def service(nursery: trio.Nursery) -> AsyncIterator[Service]:
    running = await serve(nursery)
    yield running
    running.shutdown()


async def refused(port: int) -> bool:
    """Whether a connection to the port is refused (tried for a second: closing takes a moment)."""
    for _ in range(50):
        try:
            stream = await trio.open_tcp_stream(HOST, port)
        except OSError:
            return True
        await stream.aclose()
        await trio.sleep(0.02)
    return False


async def test_a_started_listener_serves_pcf_and_a_stopped_one_refuses(service: Service) -> None:
    port = free_port()
    assert service.pcf.address is not None
    async with connect(*service.pcf.address) as admin:
        await admin.execute(define_listener("L1", port))
        assert await refused(port)
        await admin.execute(start("L1"))
        async with connect(HOST, port) as client:  # the listener's port speaks PCF to the same queue manager
            [answer] = await client.execute(ping_qmgr())
            assert answer.reason == mq.MQRC_NONE
            [status] = await client.execute(lsstatus("L1"))
            assert status.int_value(mq.MQIACH_LISTENER_STATUS) == mq.MQSVC_STATUS_RUNNING
            assert status.int_value(mq.MQIACH_PORT) == port
            # a blank IPADDR listens where the server does (127.0.0.1 here), and the status says so rather than *
            assert status.str_value(mq.MQCACH_IP_ADDRESS).strip() == HOST
            await admin.execute(stop("L1"))
            assert await refused(port)
            # the connection accepted before STOP LISTENER goes on
            [answer] = await client.execute(ping_qmgr())
            assert answer.reason == mq.MQRC_NONE
        with pytest.raises(PcfCommandError) as caught:
            await admin.execute(lsstatus("L1"))
        assert caught.value.reason == mq.MQRCCF_LSTR_STATUS_NOT_FOUND
        # started again on the same port at once
        await admin.execute(start("L1"))
        async with connect(HOST, port) as client:
            [answer] = await client.execute(ping_qmgr())
            assert answer.reason == mq.MQRC_NONE
        await admin.execute(stop("L1"))


async def test_a_port_in_use_is_a_listener_that_did_not_start(service: Service) -> None:
    assert service.pcf.address is not None
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with connect(*service.pcf.address) as admin:
            await admin.execute(define_listener("BUSY", port))
            with pytest.raises(PcfCommandError) as caught:
                await admin.execute(start("BUSY"))
            assert caught.value.reason == mq.MQRCCF_LISTENER_NOT_STARTED
            with pytest.raises(PcfCommandError) as caught:
                await admin.execute(lsstatus("BUSY"))
            assert caught.value.reason == mq.MQRCCF_LSTR_STATUS_NOT_FOUND


async def test_starting_a_running_listener_twice(service: Service) -> None:
    assert service.pcf.address is not None
    async with connect(*service.pcf.address) as admin:
        await admin.execute(define_listener("TWICE", free_port()))
        await admin.execute(start("TWICE"))
        with pytest.raises(PcfCommandError) as caught:
            await admin.execute(start("TWICE"))
        assert caught.value.reason == mq.MQRCCF_LISTENER_RUNNING
        await admin.execute(Message(mq.MQCMD_START_CHANNEL_LISTENER, (String(mq.MQCACH_LISTENER_NAME, "TWICE"), Integer(mq.MQIACF_IGNORE_STATE, mq.MQIS_YES))))
        await admin.execute(stop("TWICE"))
        with pytest.raises(PcfCommandError) as caught:
            await admin.execute(stop("TWICE"))
        assert caught.value.reason == mq.MQRCCF_LISTENER_STOPPED


async def test_control_qmgr_listeners_start_with_the_server(nursery: trio.Nursery, tmp_path: Path) -> None:
    port = free_port()
    engine = open_engine(tmp_path)
    engine.execute(define_listener("AUTO", port, mq.MQSVC_CONTROL_Q_MGR))
    engine.execute(define_listener("BYHAND", free_port(), mq.MQSVC_CONTROL_MANUAL))
    running = await serve(nursery, engine)
    try:
        async with connect(HOST, port) as client:
            [status] = await client.execute(lsstatus("*"))  # only the CONTROL(QMGR) one runs
            assert (status.str_value(mq.MQCACH_LISTENER_NAME) or "").rstrip() == "AUTO"
            assert status.int_value(mq.MQIACH_LISTENER_CONTROL) == mq.MQSVC_CONTROL_Q_MGR
    finally:
        running.shutdown()
    assert await refused(port)


async def test_a_tls_server_listens_with_tls_on_its_listeners(nursery: trio.Nursery, tmp_path: Path) -> None:
    import ssl

    cert, _key = self_signed(tmp_path)
    running = await serve(nursery, data=tmp_path, pcf_tls=True)
    try:
        port = free_port()
        running.pcf.engine.execute(define_listener("SECURE", port))  # type: ignore[attr-defined]
        running.pcf.engine.execute(start("SECURE"))  # type: ignore[attr-defined]
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        stream = await trio.open_ssl_over_tcp_stream(HOST, port, ssl_context=context)
        await stream.do_handshake()  # plain PCF would not complete a TLS handshake
        await stream.aclose()
    finally:
        running.shutdown()


async def test_a_sender_whose_partner_listens_runs_and_one_whose_partner_does_not_retries(service: Service) -> None:
    assert service.pcf.address is not None
    partner = free_port()
    async with connect(*service.pcf.address) as admin:
        for name, port in (("TO.UP", service.pcf.address[1]), ("TO.DOWN", partner)):
            await admin.execute(
                Message(
                    mq.MQCMD_CREATE_CHANNEL,
                    (
                        String(mq.MQCACH_CHANNEL_NAME, name),
                        Integer(mq.MQIACH_CHANNEL_TYPE, mq.MQCHT_SENDER),
                        String(mq.MQCACH_CONNECTION_NAME, f"{HOST}({port})"),
                        String(mq.MQCACH_XMIT_Q_NAME, "XQ"),
                    ),
                )
            )
            await admin.execute(Message(mq.MQCMD_START_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, name),)))
        wanted = {"TO.UP": mq.MQCHS_RUNNING, "TO.DOWN": mq.MQCHS_RETRYING}
        with trio.fail_after(10):
            while True:
                found = {}
                for answer in await admin.execute(Message(mq.MQCMD_INQUIRE_CHANNEL_STATUS, (String(mq.MQCACH_CHANNEL_NAME, "TO.*"),))):
                    found[(answer.str_value(mq.MQCACH_CHANNEL_NAME) or "").rstrip()] = answer.int_value(mq.MQIACH_CHANNEL_STATUS)
                if found == wanted:
                    break
                await trio.sleep(0.05)
        pinged, *_ = await admin.execute(Message(mq.MQCMD_PING_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, "TO.DOWN"),)), check_failure=False)
        assert pinged.reason == mq.MQRCCF_HOST_NOT_AVAILABLE


def test_conname_forms() -> None:
    assert parse_conname("localhost(1415)") == ("localhost", 1415)
    assert parse_conname(" qm2 ( 1414 ) ") == ("qm2", 1414)
    assert parse_conname("host") == ("host", 1414)
    assert parse_conname("a(1),b(2)") == ("a", 1)
    assert parse_conname("") is None


async def test_shutdown_does_not_wait_for_retrying_senders(nursery: trio.Nursery) -> None:
    running = await serve(nursery)
    engine = running.pcf.engine
    for text in ("DEFINE QLOCAL(XQ) USAGE(XMITQ)", f"DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('{HOST}({free_port()})') XMITQ(XQ)", "START CHANNEL(S)"):
        from pcfserver.dialects import parse_command

        [answer] = engine.execute(parse_command(text)[0])  # type: ignore[attr-defined]
        assert answer.reason == mq.MQRC_NONE
    await trio.sleep(0.2)  # the probe failed and sleeps before it tries again
    done = trio.Event()

    async def serve_out() -> None:
        running.shutdown()
        while running.network is not None:
            await trio.sleep(0.01)
        done.set()

    with trio.fail_after(3):
        nursery.start_soon(serve_out)
        await done.wait()
