"""End-to-end tests of the trio server over real loopback sockets (server in this process)."""

from __future__ import annotations

import logging
import struct
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.client import ClientProtocol, PcfCommandError, PcfConnectionClosed, connect
from pcfserver.codec import Integer, Message, StreamDecoder, String, decode, encode
from pcfserver.engine import open_engine
from pcfserver.server import PcfServer, ServerConfig, encode_responses
from pcfserver.server.logs import LOGGER_NAME
from pcfserver.server.testing import RecordingEngine
from tests.log_support import server_log

HOST = "127.0.0.1"


def create(name: str, order: str = "big") -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)), byte_order=order)


def change(name: str, order: str = "big") -> Message:
    return Message(
        mq.MQCMD_CHANGE_Q,
        (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), Integer(mq.MQIA_MAX_Q_DEPTH, 100)),
        byte_order=order,
    )


def inquire(name: str, order: str = "big") -> Message:
    return Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, name),), byte_order=order)


def recording(**options: Any) -> RecordingEngine:
    """The real engine (in memory), with its batches recorded."""
    return RecordingEngine(open_engine(None), **options)


async def start(nursery: trio.Nursery, engine: Any = None, **config: Any) -> PcfServer:
    server = PcfServer(engine or open_engine(None), ServerConfig(host=HOST, port=0, **config))
    await nursery.start(server.serve)
    return server


async def open_raw(server: PcfServer) -> trio.SocketStream:
    assert server.address is not None
    return await trio.open_tcp_stream(*server.address)


async def read_until_eof(stream: trio.abc.ReceiveStream) -> bytes:
    chunks = []
    while data := await stream.receive_some(65536):
        chunks.append(data)
    return b"".join(chunks)


@pytest.fixture(params=["loop", "thread"])
async def server(nursery: trio.Nursery, request: pytest.FixtureRequest) -> AsyncIterator[PcfServer]:
    """The server with commits on the event loop and in a worker thread (both are used, by CPU count)."""
    yield await start(nursery, engine_in_thread=request.param == "thread")


# -- commands and answers ------------------------------------------------------------------


async def test_request_response(server: PcfServer) -> None:
    assert server.address is not None
    async with connect(*server.address) as c:
        [ok] = await c.execute(create("Q.A"))
        assert (ok.type, ok.command, ok.comp_code, ok.reason, ok.control, ok.msg_seq_number) == (
            mq.MQCFT_RESPONSE, mq.MQCMD_CREATE_Q, 0, 0, mq.MQCFC_LAST, 1,
        )
        await c.execute(change("Q.A"))
        [data] = await c.execute(inquire("Q.A"))
        assert data.str_value(mq.MQCA_Q_NAME, "").rstrip() == "Q.A"


async def test_failed_command_keeps_every_response(server: PcfServer) -> None:
    assert server.address is not None
    async with connect(*server.address) as c:
        with pytest.raises(PcfCommandError) as caught:
            await c.execute(change("NO.SUCH.QUEUE"))
        error = caught.value
        assert error.reason == mq.MQRC_UNKNOWN_OBJECT_NAME
        assert [m.reason for m in error.responses] == [mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_COMMAND_FAILED]
        assert error.responses[-1].control == mq.MQCFC_LAST
        # the connection goes on after a failed command
        await c.execute(create("Q.AFTER"))


async def test_pipelined_answers_come_back_in_request_order(server: PcfServer) -> None:
    assert server.address is not None
    names = [f"PIPE.{i:04d}" for i in range(300)]
    async with connect(*server.address) as c:
        await c.execute_many([create(n) for n in names], check_failure=True)
        answers = await c.execute_many([inquire(n) for n in names])
    assert [a[0].str_value(mq.MQCA_Q_NAME, "").rstrip() for a in answers] == names


async def test_pipelined_responses_are_sent_together() -> None:
    """All answers ready at once leave in one send (checked at the byte level: one receive has them all)."""
    engine = recording()
    async with trio.open_nursery() as nursery:
        server = await start(nursery, engine)
        stream = await open_raw(server)
        data = b"".join(encode(create(f"B.{i}")) for i in range(50))
        await stream.send_all(data)
        got = b""
        while len(got) < 50 * 36:
            got += await stream.receive_some(65536)
        assert len(decode(got)) == 50
        # 50 commands were decoded from one receive, so the engine saw them as one batch
        assert max(engine.batches) == 50
        await stream.aclose()
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("order", ["big", "little"])
async def test_answers_in_the_byte_order_of_the_command(server: PcfServer, order: str) -> None:
    stream = await open_raw(server)
    await stream.send_all(encode(create("ORDER.Q"), byte_order=order) + encode(change("MISSING.Q"), byte_order=order))
    got = b""
    while len(got) < 36 * 3:
        got += await stream.receive_some(65536)
    pack = ">l" if order == "big" else "<l"
    assert got[4:8] == struct.pack(pack, 36)
    answers = decode(got)
    assert {m.byte_order for m in answers} == {order}
    assert [m.reason for m in answers] == [0, mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_COMMAND_FAILED]
    await stream.aclose()


async def test_mixed_byte_orders_on_one_connection(server: PcfServer) -> None:
    assert server.address is not None
    orders = ["big", "little"] * 20
    async with connect(*server.address) as c:
        answers = await c.execute_many([create(f"MIX.{i}", o) for i, o in enumerate(orders)])
    assert [a[0].byte_order for a in answers] == orders


async def test_many_concurrent_clients() -> None:
    engine = recording()
    async with trio.open_nursery() as nursery:
        server = await start(nursery, engine)
        assert server.address is not None
        results: dict[int, list[str]] = {}

        async def client(k: int) -> None:
            assert server.address is not None
            async with connect(*server.address) as c:
                for i in range(10):
                    await c.execute(create(f"C{k}.Q{i}"))
                answers = await c.execute_many([inquire(f"C{k}.Q{i}") for i in range(10)])
                results[k] = [a[0].str_value(mq.MQCA_Q_NAME, "").rstrip() for a in answers]

        async with trio.open_nursery() as clients:
            for k in range(60):
                clients.start_soon(client, k)
        assert all(results[k] == [f"C{k}.Q{i}" for i in range(10)] for k in range(60))
        assert sum(engine.batches) >= 1200
        # commands from different connections were committed together
        assert len(engine.batches) < 1200
        nursery.cancel_scope.cancel()


# -- bad input -----------------------------------------------------------------------------


def _with_field(data: bytes, offset: int, value: int, order: str = "big") -> bytes:
    return data[:offset] + struct.pack(">l" if order == "big" else "<l", value) + data[offset + 4 :]


@pytest.mark.parametrize("order", ["big", "little"])
@pytest.mark.parametrize(
    ("name", "mangle", "reason"),
    [
        ("header StrucLength", lambda d, o: _with_field(d, 4, 40, o), mq.MQRCCF_CFH_LENGTH_ERROR),
        ("negative ParameterCount", lambda d, o: _with_field(d, 32, -1, o), mq.MQRCCF_CFH_PARM_COUNT_ERROR),
        ("impossible ParameterCount", lambda d, o: _with_field(d, 32, 0x7FFFFFF0, o), mq.MQRCCF_CFH_PARM_COUNT_ERROR),
        ("MQCFIN StrucLength", lambda d, o: _with_field(d, 36 + 4, 12, o), mq.MQRCCF_CFIN_LENGTH_ERROR),
    ],
)
async def test_framing_error_is_answered_then_connection_closed(
    server: PcfServer, order: str, name: str, mangle: Callable[[bytes, str], bytes], reason: int
) -> None:
    good = encode(create("GOOD.Q"), byte_order=order)
    command = Message(mq.MQCMD_CHANGE_Q, (Integer(mq.MQIA_Q_TYPE, 1), String(mq.MQCA_Q_NAME, "X")), byte_order=order)
    bad = mangle(encode(command, byte_order=order), order)
    stream = await open_raw(server)
    await stream.send_all(good + bad + good)
    answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [0, reason, mq.MQRCCF_COMMAND_FAILED], name
    error, summary = answers[1:]
    assert error.command == summary.command == mq.MQCMD_CHANGE_Q
    assert error.byte_order == order
    assert (error.comp_code, error.control, summary.control) == (mq.MQCC_FAILED, mq.MQCFC_NOT_LAST, mq.MQCFC_LAST)
    await stream.aclose()


@pytest.mark.parametrize("order", ["big", "little"])
@pytest.mark.parametrize(
    ("name", "mangle", "reason"),
    [
        ("unknown structure type", lambda d, o: _with_field(d, 36, 99, o), mq.MQRCCF_STRUCTURE_TYPE_ERROR),
        ("MQCFH Version", lambda d, o: _with_field(d, 8, 7, o), mq.MQRCCF_CFH_VERSION_ERROR),
        ("MQCFH Type", lambda d, o: _with_field(d, 0, 2, o), mq.MQRCCF_CFH_TYPE_ERROR),
    ],
)
async def test_rule_violation_with_sound_framing_is_answered_and_connection_goes_on(
    server: PcfServer, order: str, name: str, mangle: Callable[[bytes, str], bytes], reason: int
) -> None:
    good = encode(create("GOOD.Q2"), byte_order=order)
    again = encode(create("GOOD.Q3"), byte_order=order)
    command = Message(mq.MQCMD_CHANGE_Q, (Integer(mq.MQIA_Q_TYPE, 1), String(mq.MQCA_Q_NAME, "X")), byte_order=order)
    bad = mangle(encode(command, byte_order=order), order)
    stream = await open_raw(server)
    await stream.send_all(good + bad + again)
    await stream.send_eof()
    answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [0, reason, mq.MQRCCF_COMMAND_FAILED, 0], name
    assert all(m.byte_order == order for m in answers)
    await stream.aclose()


async def test_message_over_the_size_limit(nursery: trio.Nursery) -> None:
    server = await start(nursery, max_message_bytes=1024)
    big = encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "X" * 2000),)))
    stream = await open_raw(server)
    await stream.send_all(big[:100])  # the declared length alone is over the limit
    answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [mq.MQRC_MSG_TOO_BIG_FOR_Q, mq.MQRCCF_COMMAND_FAILED]
    assert answers[0].command == mq.MQCMD_CHANGE_Q


async def test_garbage_gets_an_answer_with_command_zero(server: PcfServer) -> None:
    stream = await open_raw(server)
    await stream.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + b"z" * 100)
    answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [mq.MQRCCF_CFH_LENGTH_ERROR, mq.MQRCCF_COMMAND_FAILED]
    assert answers[0].byte_order == "big"


async def test_answer_survives_input_sent_after_the_error(server: PcfServer) -> None:
    """The rest of the input is drained before closing, so the client is not reset."""
    stream = await open_raw(server)
    bad = _with_field(encode(create("X")), 4, 44)

    async def flood() -> None:
        try:
            await stream.send_all(bad + b"\0" * 2_000_000)
        except trio.BrokenResourceError:
            pass

    async with trio.open_nursery() as n:
        n.start_soon(flood)
        answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [mq.MQRCCF_CFH_LENGTH_ERROR, mq.MQRCCF_COMMAND_FAILED]
    await stream.aclose()


async def test_peer_closing_inside_a_message_touches_nobody_else(server: PcfServer) -> None:
    assert server.address is not None
    async with connect(*server.address) as other:
        stream = await open_raw(server)
        await stream.send_all(encode(create("HALF"))[:20])
        await stream.aclose()
        stream = await open_raw(server)
        await stream.send_all(encode(create("RESET")) * 3)
        stream.socket.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_LINGER, struct.pack("ii", 1, 0))
        await stream.aclose()  # RST
        await other.execute(create("STILL.FINE"))
        await trio.sleep(0.05)
        assert server.connection_count == 1


async def test_peer_resetting_before_its_answers_are_sent_touches_nobody_else(nursery: trio.Nursery) -> None:
    """The answers are sent by the committer after the commit; the peer is gone by then."""
    server = await start(nursery, recording(delay=0.2), engine_in_thread=True)
    assert server.address is not None
    async with connect(*server.address) as other:
        for round_ in range(3):
            stream = await open_raw(server)
            await stream.send_all(b"".join(encode(inquire("SYSTEM.DEFAULT.*")) for _ in range(50)))
            await trio.sleep(0.05)  # the commands are with the engine, their answers not yet sent
            stream.socket.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_LINGER, struct.pack("ii", 1, 0))
            await stream.aclose()  # RST
            with trio.fail_after(5):
                await other.execute(create(f"AFTER.RESET.{round_}"))
        with trio.fail_after(5):
            while server.connection_count > 1:
                await trio.sleep(0.01)


async def test_a_peer_that_does_not_read_is_not_read_either(nursery: trio.Nursery) -> None:
    """Backpressure: while its answers pile up unread, the server stops taking the peer's commands."""
    server = await start(nursery, send_timeout=1000)
    stream = await open_raw(server)
    sent = 5000
    # Each answer (every attribute of four queues) is a hundred times the size of its command.
    nursery.start_soon(stream.send_all, encode(inquire("SYSTEM.DEFAULT.*")) * sent)
    answered = -1
    with trio.fail_after(20):
        while answered != server.commands_executed:
            answered = server.commands_executed
            await trio.sleep(0.3)
    assert 0 < answered < sent
    assert server.connection_count == 1
    # Reading the answers lets the rest through.
    decoder = StreamDecoder()
    answers = 0
    with trio.fail_after(30):
        while answers < sent:
            decoder.feed(await stream.receive_some(1 << 20))
            while (message := decoder.next_message()) is not None:
                assert message.reason == mq.MQRC_NONE
                answers += message.control == mq.MQCFC_LAST
    assert server.commands_executed == sent
    await stream.aclose()


async def test_read_timeout_closes_a_stalled_message(nursery: trio.Nursery, autojump_clock: trio.testing.MockClock) -> None:
    server = await start(nursery, open_engine(None), read_timeout=30, idle_timeout=1000, engine_in_thread=False)
    stream = await open_raw(server)
    await stream.send_all(encode(create("SLOW"))[:50])
    before = trio.current_time()
    assert await read_until_eof(stream) == b""
    assert 30 <= trio.current_time() - before < 1000


async def test_idle_timeout(nursery: trio.Nursery, autojump_clock: trio.testing.MockClock) -> None:
    server = await start(nursery, open_engine(None), read_timeout=5, idle_timeout=120, engine_in_thread=False)
    assert server.address is not None
    async with connect(*server.address) as c:
        await c.execute(create("IDLE"))
        before = trio.current_time()
        assert await c.stream.receive_some(100) == b""
        assert trio.current_time() - before >= 120


async def test_send_timeout_closes_a_peer_that_does_not_read(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Answers pile up in the socket while the peer never reads: closed after the send timeout, others unharmed."""
    server = await start(nursery, open_engine(None), send_timeout=7, read_timeout=1000, idle_timeout=1000)
    stream = await open_raw(server)
    # Each inquiry's answer is far larger than the inquiry, so the answers fill the buffers first.
    burst = encode(inquire("SYSTEM.DEFAULT.LOCAL.QUEUE")) * 200

    async def keep_asking() -> None:
        with trio.move_on_after(500):
            try:
                while True:
                    await stream.send_all(burst)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        nursery.start_soon(keep_asking)
        started = trio.current_time()
        while server.connection_count == 0:
            await trio.sleep(0.01)
        assert server.address is not None
        async with connect(*server.address) as other:
            while server.connection_count > 1 and trio.current_time() - started < 400:
                await trio.sleep(1)
                # the stuck connection does not hold up anyone else
                await other.execute(inquire("SYSTEM.DEFAULT.LOCAL.QUEUE"))
            assert server.connection_count == 1
    assert trio.current_time() - started >= 7
    assert any(getattr(r, "event", None) == "send_timeout" for r in caplog.records)


async def test_connections_beyond_the_limit_are_closed(nursery: trio.Nursery) -> None:
    server = await start(nursery, max_connections=2)
    assert server.address is not None
    async with connect(*server.address) as a, connect(*server.address) as b:
        await a.execute(create("L1"))
        await b.execute(create("L2"))
        extra = await open_raw(server)
        try:
            assert await read_until_eof(extra) == b""
        except trio.BrokenResourceError:
            pass  # reset instead of EOF: closed as well
        await a.execute(change("L2"))
    await trio.sleep(0.05)
    async with connect(*server.address) as c:  # room again
        await c.execute(change("L1"))


async def test_an_engine_exception_fails_only_its_command(nursery: trio.Nursery) -> None:
    server = await start(nursery, recording(explode_on="BOOM"))
    assert server.address is not None
    async with connect(*server.address) as c:
        answers = await c.execute_many([create("BEFORE"), create("BOOM"), create("AFTER")])
    assert [a[-1].reason for a in answers] == [0, mq.MQRCCF_COMMAND_FAILED, 0]
    assert answers[1][0].reason == mq.MQRC_UNEXPECTED_ERROR


# -- shutdown ------------------------------------------------------------------------------


async def test_graceful_shutdown_answers_commands_in_flight() -> None:
    engine = recording(delay=0.2)
    async with trio.open_nursery() as nursery:
        server = PcfServer(engine, ServerConfig(host=HOST, port=0))
        done = trio.Event()

        async def serve(task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED) -> None:
            await server.serve(task_status=task_status)
            done.set()

        address = await nursery.start(serve)
        idle = await trio.open_tcp_stream(*address)
        busy = await trio.open_tcp_stream(*address)
        await busy.send_all(b"".join(encode(create(f"F.{i}")) for i in range(20)))
        await trio.sleep(0.05)  # the commands are with the engine
        server.shutdown()
        answers = decode(await read_until_eof(busy))
        assert len(answers) == 20 and all(m.reason == 0 for m in answers)
        assert await read_until_eof(idle) == b""
        with trio.fail_after(5):
            await done.wait()
        with pytest.raises(OSError):
            await trio.open_tcp_stream(*address)
    assert sum(engine.batches) == 20


async def test_client_sees_connection_closed(server: PcfServer) -> None:
    assert server.address is not None
    async with connect(*server.address) as c:
        await c.stream.send_all(encode(create("PART"))[:30])
        server.shutdown()
        with pytest.raises(PcfConnectionClosed):
            await c.receive_answer()


# -- logs and capture ----------------------------------------------------------------------


async def test_one_json_log_line_per_command(server: PcfServer) -> None:
    assert server.address is not None
    with server_log() as handler:
        async with connect(*server.address) as c:
            copy = Message(
                mq.MQCMD_COPY_Q,
                (String(mq.MQCACF_FROM_Q_NAME, "LOG.Q"), String(mq.MQCACF_TO_Q_NAME, "LOG.COPY"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)),
            )
            unknown = Message(9999, (Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), String(mq.MQCA_Q_NAME, "LOG.Q")))
            await c.execute_many([create("LOG.Q"), change("LOG.MISSING"), copy, unknown], check_failure=False)
    commands = handler.events("command")
    assert [(r["command"], r["queue"], r["reason"]) for r in commands] == [
        ("MQCMD_CREATE_Q", "LOG.Q", "MQRC_NONE"),
        ("MQCMD_CHANGE_Q", "LOG.MISSING", "MQRC_UNKNOWN_OBJECT_NAME"),
        ("MQCMD_COPY_Q", "LOG.Q", "MQRC_NONE"),
        ("9999", "LOG.Q", "MQRCCF_CFH_COMMAND_ERROR"),
    ]
    assert all(r["peer"].startswith("127.0.0.1:") and isinstance(r["us"], int) for r in commands)


async def test_capture_files_decode_to_what_crossed_the_wire(nursery: trio.Nursery, tmp_path: Path) -> None:
    server = await start(nursery, capture_dir=tmp_path, capture_rotate_bytes=2000)
    sent = b"".join(encode(create(f"CAP.{i}", "big" if i % 3 else "little"), byte_order="big" if i % 3 else "little") for i in range(120))
    bad = _with_field(encode(change("CAP.X")), 4, 48)
    stream = await open_raw(server)
    received = b""
    for i in range(0, len(sent), 999):  # chunks that cut messages
        await stream.send_all(sent[i : i + 999])
        await trio.sleep(0.001)
    await stream.send_all(bad + b"trailing junk")
    received = await read_until_eof(stream)
    await stream.aclose()
    await trio.sleep(0.05)
    ins = sorted(tmp_path.glob("*-in.pcf"))
    outs = sorted(tmp_path.glob("*-out.pcf"))
    assert len(ins) > 2 and len(outs) > 2  # rotated
    assert all(p.name.split("-")[1] == "000001" for p in ins + outs)
    assert b"".join(p.read_bytes() for p in ins) == sent + bad + b"trailing junk"
    assert b"".join(p.read_bytes() for p in outs) == received
    for p in ins[:-1] + outs:  # every file decodes on its own
        assert decode(p.read_bytes())
    assert [m.command for m in decode(b"".join(p.read_bytes() for p in outs))][-2:] == [mq.MQCMD_CHANGE_Q] * 2


async def test_capture_holds_answers_that_waited_for_a_slow_reader(nursery: trio.Nursery, tmp_path: Path) -> None:
    """Answers the socket could not take at once are captured whole, in order, once sent."""
    server = await start(nursery, capture_dir=tmp_path)
    count = 1500  # about 10 MB of answers: more than the socket buffers hold
    stream = await open_raw(server)
    nursery.start_soon(stream.send_all, encode(inquire("SYSTEM.DEFAULT.*")) * count + encode(change("NO.SUCH.Q")))
    await trio.sleep(0.5)  # the answers pile up unread
    decoder = StreamDecoder()
    received = bytearray()
    answers = 0
    with trio.fail_after(30):
        while answers < count + 1:
            data = await stream.receive_some(65536)
            received += data
            decoder.feed(data)
            while (message := decoder.next_message()) is not None:
                answers += message.control == mq.MQCFC_LAST
    await stream.aclose()
    with trio.fail_after(5):
        while server.connection_count:
            await trio.sleep(0.01)
    (out,) = sorted(tmp_path.glob("*-out.pcf"))
    assert out.read_bytes() == bytes(received)


async def test_header_errors_with_framing_intact_are_answered(server: PcfServer) -> None:
    """A bad Version is answered by name and, the framing being sound, the connection goes on."""
    stream = await open_raw(server)
    await stream.send_all(encode(replace(create("V"), version=9)) + encode(create("V")))
    await stream.send_eof()
    answers = decode(await read_until_eof(stream))
    assert [m.reason for m in answers] == [mq.MQRCCF_CFH_VERSION_ERROR, mq.MQRCCF_COMMAND_FAILED, mq.MQRC_NONE]


async def test_large_messages_share_a_bounded_buffer_budget(nursery: trio.Nursery) -> None:
    """Partial messages beyond one receive per connection draw on a shared budget; readers wait for it."""
    server = await start(nursery, max_message_bytes=1_000_000, buffer_budget=150_000)
    big = encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "BIG"), Integer(mq.MQIA_Q_TYPE, 1), String(mq.MQCA_Q_DESC, "d" * 400_000))))
    streams = [await open_raw(server) for _ in range(3)]

    async def send(stream: trio.SocketStream) -> None:
        await stream.send_all(big)

    answers: list[list[Message]] = []

    async def answer(stream: trio.SocketStream) -> None:
        proto = ClientProtocol()
        while (got := proto.next_answer()) is None:
            proto.receive_data(await stream.receive_some(65536))
        answers.append(got)

    with trio.fail_after(20):
        async with trio.open_nursery() as n:
            for s in streams:
                n.start_soon(send, s)
                n.start_soon(answer, s)
    # each big message was read whole and answered (the description is longer than MQ allows)
    assert [[m.reason for m in a] for a in answers] == [[mq.MQRCCF_CFST_STRING_LENGTH_ERR, mq.MQRCCF_COMMAND_FAILED]] * 3
    assert server._budget.used == 0
    for s in streams:
        await s.aclose()


# -- the answers' bytes ----------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["big", "little"]), st.sampled_from([819, 1208, 500])), min_size=1, max_size=20)
)
def test_encoded_answers_are_each_message_in_its_own_byte_order(picks: list[tuple[int, str, int]]) -> None:
    """Answers shared by identity (the engine's success messages) and fresh ones encode alike."""
    shared = [
        Message(mq.MQCMD_CHANGE_Q, (), type=mq.MQCFT_RESPONSE, byte_order="big"),
        Message(mq.MQCMD_CHANGE_Q, (), type=mq.MQCFT_RESPONSE, byte_order="little"),
        Message(mq.MQCMD_CREATE_Q, (), type=mq.MQCFT_RESPONSE, version=2),
        Message(mq.MQCMD_CHANGE_Q, (Integer(mq.MQIACF_PARAMETER_ID, mq.MQIA_MAX_Q_DEPTH),), type=mq.MQCFT_RESPONSE, comp_code=2, reason=3004),
    ]
    for index, order, ccsid in picks:
        message = shared[index] if index < len(shared) else Message(mq.MQCMD_DELETE_Q, (), type=mq.MQCFT_RESPONSE, byte_order=order, reason=index)
        answers = [[message], [shared[0], message]]
        expected = b"".join(encode(m, byte_order=m.byte_order, default_ccsid=ccsid) for answer in answers for m in answer)
        assert encode_responses(answers, ccsid) == expected
