"""The client library (trio and blocking) and ``pcfserver send``."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from pcfserver import mq
from pcfserver.client import (
    ClientProtocol,
    PcfCommandError,
    PcfConnectionClosed,
    PcfProtocolError,
    connect,
    connect_sync,
    failure_of,
)
from pcfserver.codec import Integer, IntegerList, Message, String, encode
from pcfserver.engine import open_engine
from pcfserver.engine.responses import error_responses, success
from pcfserver.server import PcfServer, ServerConfig


def create(name: str, *extra: Integer | String) -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), *extra))


@pytest.fixture
async def address(nursery: trio.Nursery) -> AsyncIterator[tuple[str, int]]:
    server = PcfServer(open_engine(None), ServerConfig(host="127.0.0.1", port=0))
    yield await nursery.start(server.serve)


# -- sans-IO ---------------------------------------------------------------------------------


def test_protocol_splits_answers_at_control_last() -> None:
    command = create("X")
    answers = [success(command), error_responses(command, mq.MQRCCF_OBJECT_ALREADY_EXISTS, mq.MQCA_Q_NAME)]
    data = b"".join(encode(m) for a in answers for m in a)
    proto = ClientProtocol()
    for i in range(0, len(data), 7):  # byte dribbles
        proto.receive_data(data[i : i + 7])
    assert proto.next_answer() == answers[0]
    assert proto.next_answer() == answers[1]
    assert proto.next_answer() is None


def test_command_error_keeps_reason_parameter_and_every_response() -> None:
    answer = error_responses(create("X"), mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIA_MAX_Q_DEPTH)
    error = failure_of(answer)
    assert isinstance(error, PcfCommandError)
    assert (error.reason, error.parameter_id, error.responses) == (mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIA_MAX_Q_DEPTH, answer)
    assert error.reason_name == "MQRCCF_PARM_VALUE_ERROR"
    assert "MQRCCF_PARM_VALUE_ERROR" in str(error) and "MQIA_MAX_Q_DEPTH" in str(error)
    assert failure_of(success(create("X"))) is None


def test_malformed_response_stream() -> None:
    proto = ClientProtocol()
    proto.receive_data(b"\0" * 40)
    with pytest.raises(PcfProtocolError):
        proto.next_answer()


# -- trio client -----------------------------------------------------------------------------


async def test_async_client(address: tuple[str, int]) -> None:
    async with connect(*address) as c:
        assert len(await c.execute(create("CLIENT.A"))) == 1
        with pytest.raises(PcfCommandError) as caught:
            await c.execute(create("CLIENT.A", Integer(mq.MQIA_MAX_Q_DEPTH, -1)))
        assert caught.value.reason == mq.MQRCCF_PARM_VALUE_ERROR
        assert caught.value.parameter_id == mq.MQIA_MAX_Q_DEPTH
        assert [m.reason for m in caught.value.responses] == [mq.MQRCCF_PARM_VALUE_ERROR, mq.MQRCCF_COMMAND_FAILED]
        unchecked = await c.execute(create("CLIENT.A"), check_failure=False)
        assert unchecked[0].reason == mq.MQRCCF_OBJECT_ALREADY_EXISTS
        inquiry = Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "CLIENT.A"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH,))))
        [data] = await c.execute(inquiry)
        assert data.int_value(mq.MQIA_MAX_Q_DEPTH) == 5000


async def test_async_client_in_little_endian(address: tuple[str, int]) -> None:
    async with connect(*address, byte_order="little") as c:
        [ok] = await c.execute(create("CLIENT.LE"))
        assert ok.byte_order == "little"


async def test_execute_many_raises_after_all_answers(address: tuple[str, int]) -> None:
    async with connect(*address) as c:
        with pytest.raises(PcfCommandError) as caught:
            await c.execute_many([create("CLIENT.M1"), create("CLIENT.M1"), create("CLIENT.M2")], check_failure=True)
        assert caught.value.reason == mq.MQRCCF_OBJECT_ALREADY_EXISTS
        # the third command was still answered and applied
        assert len(await c.execute(Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "CLIENT.M2"),)))) == 1


async def test_connection_closed_mid_answer(address: tuple[str, int]) -> None:
    async with connect(*address) as c:
        await c.send_raw(b"\0\0\0\1\0\0\0\x28" + b"\0" * 28)  # StrucLength 40: answered, then closed
        answer = await c.receive_answer()
        assert answer[0].reason == mq.MQRCCF_CFH_LENGTH_ERROR
        with pytest.raises(PcfConnectionClosed):
            await c.receive_answer()


# -- blocking client -------------------------------------------------------------------------


async def test_sync_client(address: tuple[str, int]) -> None:
    def work() -> list[int]:
        with connect_sync(*address) as c:
            c.execute(create("SYNC.A"))
            try:
                c.execute(create("SYNC.A"))
            except PcfCommandError as exc:
                assert len(exc.responses) == 2
            answers = c.execute_many([create(f"SYNC.P{i}") for i in range(100)])
            return [a[-1].reason for a in answers]

    assert await trio.to_thread.run_sync(work) == [0] * 100


# -- pcfserver send --------------------------------------------------------------------------


async def _send(address: tuple[str, int], *args: str, stdin: bytes | None = None) -> trio.CompletedProcess[bytes]:
    return await trio.run_process(
        [sys.executable, "-m", "pcfserver", "send", "--host", address[0], "--port", str(address[1]), *args],
        stdin=stdin, capture_stdout=True, capture_stderr=True, check=False,
    )


COMMANDS = [
    {"command": "MQCMD_CREATE_Q", "parameters": [
        {"type": "MQCFST", "parameter": "MQCA_Q_NAME", "value": "SEND.Q"},
        {"type": "MQCFIN", "parameter": "MQIA_Q_TYPE", "value": "MQQT_LOCAL"}]},
    {"command": "MQCMD_INQUIRE_Q", "byte_order": "little", "parameters": [
        {"type": "MQCFST", "parameter": "MQCA_Q_NAME", "value": "SEND.Q"},
        {"type": "MQCFIL", "parameter": "MQIACF_Q_ATTRS", "values": ["MQIA_MAX_Q_DEPTH"]}]},
]


async def test_send_prints_json_responses(address: tuple[str, int], tmp_path: Path) -> None:
    path = tmp_path / "commands.json"
    path.write_text(json.dumps(COMMANDS))
    done = await _send(address, "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [(r["answer"], r["command_name"], r["reason"]) for r in lines] == [(1, "MQCMD_CREATE_Q", 0), (2, "MQCMD_INQUIRE_Q", 0)]
    assert lines[1]["byte_order"] == "little"
    assert {p["parameter_name"]: p.get("value") for p in lines[1]["parameters"]}["MQIA_MAX_Q_DEPTH"] == 5000


async def test_send_exits_1_when_a_command_fails(address: tuple[str, int]) -> None:
    lines = "\n".join(json.dumps(c) for c in [COMMANDS[0], COMMANDS[0]]).encode()
    done = await _send(address, "-", stdin=lines)
    assert done.returncode == 1
    out = done.stdout.decode()
    assert "MQRCCF_OBJECT_ALREADY_EXISTS" in out and "MQRCCF_COMMAND_FAILED" in out
    assert b"1 of 2 commands failed" in done.stderr


async def test_send_input_errors(address: tuple[str, int], tmp_path: Path) -> None:
    assert (await _send(address, str(tmp_path / "missing.json"))).returncode == 2
    bad = await _send(address, "-", stdin=b'{"command": "NO_SUCH_COMMAND"}')
    assert bad.returncode == 1 and b"NO_SUCH_COMMAND" in bad.stderr
    refused = await trio.run_process([sys.executable, "-m", "pcfserver", "send", "--port", "1", "-"], stdin=json.dumps(COMMANDS[0]).encode(), capture_stdout=True, capture_stderr=True, check=False)
    assert refused.returncode == 1 and b"cannot connect" in refused.stderr
