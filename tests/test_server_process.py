"""``pcfserver serve`` as a process: startup line, signals, restart on the same data, memory, capture, logs."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from pcfserver import mq
from pcfserver.client import connect
from pcfserver.codec import Integer, Message, String, decode, encode

STARTUP = re.compile(r"^pcfserver listening on (\S+):(\d+) data (.+) qmgr (\S+)$")


class Served:
    def __init__(self, process: trio.Process, host: str, port: int, line: str, log: Path) -> None:
        self.process = process
        self.host = host
        self.port = port
        self.line = line
        self.log = log

    def rss_bytes(self) -> int:
        for row in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        self.process.send_signal(signum)
        with trio.fail_after(20):
            return await self.process.wait()


@asynccontextmanager
async def serving(tmp_path: Path, *args: str, data: Path | None = None) -> AsyncIterator[Served]:
    log = tmp_path / f"serve-{len(list(tmp_path.glob('serve-*')))}.log"
    data = data or tmp_path / "data"
    with open(log, "wb") as err:
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--data", str(data), *args],
            stdout=subprocess.PIPE, stderr=err,
        )
    try:
        assert process.stdout is not None
        buffered = b""
        with trio.fail_after(30):
            while b"\n" not in buffered:
                chunk = await process.stdout.receive_some(4096)
                assert chunk, f"server exited: {log.read_text()}"
                buffered += chunk
        line = buffered.split(b"\n", 1)[0].decode()
        match = STARTUP.match(line)
        assert match, line
        yield Served(process, match[1], int(match[2]), line, log)
    finally:
        if process.returncode is None:
            process.kill()
        with trio.move_on_after(10):
            await process.wait()


def create(name: str) -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)))


def inquire(name: str) -> Message:
    return Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, name),))


async def test_startup_line_sigterm_and_restart_on_the_same_data(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with serving(tmp_path, "--qmgr", "QMTEST", data=data) as served:
        assert served.host == "127.0.0.1" and served.port > 0
        assert STARTUP.match(served.line)[3] == str(data.resolve())  # type: ignore[index]
        assert served.line.endswith("qmgr QMTEST")
        async with connect(served.host, served.port) as c:
            await c.execute(create("KEPT.Q"))
        assert await served.stop(signal.SIGTERM) == 0
        assert "store closed" in served.log.read_text()
    async with serving(tmp_path, data=data) as served:  # the data directory keeps its queue manager
        assert served.line.endswith("qmgr QMTEST")
        async with connect(served.host, served.port) as c:
            [found] = await c.execute(inquire("KEPT.Q"))
            assert found.str_value(mq.MQCA_Q_NAME, "").rstrip() == "KEPT.Q"
        assert await served.stop(signal.SIGINT) == 0


async def test_sigterm_answers_what_was_received_and_acknowledged_means_durable(tmp_path: Path) -> None:
    data = tmp_path / "data"
    names = [f"INFLIGHT.{i:04d}" for i in range(4000)]  # more than the server reads at once
    async with serving(tmp_path, data=data) as served:
        stream = await trio.open_tcp_stream(served.host, served.port)
        idle = await trio.open_tcp_stream(served.host, served.port)
        await stream.send_all(b"".join(encode(create(n)) for n in names))
        first = await stream.receive_some(65536)  # the server is working on them
        served.process.send_signal(signal.SIGTERM)
        rest = b""
        while chunk := await stream.receive_some(65536):  # an end, not a reset, even with input unread
            rest += chunk
        await stream.aclose()
        answers = decode(first + rest)
        assert await idle.receive_some(10) == b""  # idle connections are closed
        with trio.fail_after(20):
            assert await served.process.wait() == 0
    assert answers and all(m.reason == 0 for m in answers)
    acknowledged = names[: len(answers)]
    async with serving(tmp_path, data=data) as served:
        async with connect(served.host, served.port) as c:
            found = await c.execute_many([inquire(n) for n in acknowledged])
        assert all(a[0].reason == 0 for a in found)
        await served.stop()


async def test_memory_stays_bounded_with_many_connections(tmp_path: Path) -> None:
    """250 connections: idle, a few bytes of a message, 8 kB of a 60 kB message.  (The benchmark tool checks 1,000.)"""
    async with serving(tmp_path, "--max-connections", "2000") as served:
        before = served.rss_bytes()
        streams = []
        for i in range(250):
            s = await trio.open_tcp_stream(served.host, served.port)
            streams.append(s)
            if i % 3 == 1:
                big = encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_DESC, "x" * 60),)))
                await s.send_all(big[:50])
            elif i % 3 == 2:
                await s.send_all(encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_DESC, "y" * 60000),)))[:8000])
        async with connect(served.host, served.port) as c:  # still serving
            await c.execute(create("MEM.Q"))
        after = served.rss_bytes()
        assert after < 300 * 1024 * 1024, (before, after)
        for s in streams:
            await s.aclose()
        assert await served.stop() == 0


async def test_capture_files_decode_with_the_decode_command(tmp_path: Path) -> None:
    capture = tmp_path / "capture"
    async with serving(tmp_path, "--capture", str(capture)) as served:
        async with connect(served.host, served.port) as c:
            answers = await c.execute_many([create(f"CAP.{i}") for i in range(20)] + [inquire("CAP.1")])
        assert await served.stop() == 0
    [inbound] = capture.glob("*-in.pcf")
    [outbound] = capture.glob("*-out.pcf")
    assert re.fullmatch(r"\d{8}T\d{6}\.\d{6}Z-\d{6}-in\.pcf", inbound.name)
    for path, count in ((inbound, 21), (outbound, sum(len(a) for a in answers))):
        done = subprocess.run([sys.executable, "-m", "pcfserver", "decode", str(path)], capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        assert len(done.stdout.decode().splitlines()) == count


async def test_json_log_lines(tmp_path: Path) -> None:
    async with serving(tmp_path, "--log-format", "json") as served:
        async with connect(served.host, served.port) as c:
            await c.execute(create("LOG.Q"))
            await c.execute(inquire("LOG.Q"))
        assert await served.stop() == 0
    records = [json.loads(line) for line in served.log.read_text().splitlines()]
    commands = [r for r in records if r.get("event") == "command"]
    assert [(r["command"], r["queue"], r["reason"]) for r in commands] == [("MQCMD_CREATE_Q", "LOG.Q", "MQRC_NONE"), ("MQCMD_INQUIRE_Q", "LOG.Q", "MQRC_NONE")]
    assert all(isinstance(r["us"], int) and r["peer"].startswith("127.0.0.1:") for r in commands)


async def test_port_in_use(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        done = await trio.run_process(
            [sys.executable, "-m", "pcfserver", "serve", "--port", str(served.port), "--data", str(tmp_path / "other")],
            capture_stdout=True, capture_stderr=True, check=False,
        )
        assert done.returncode == 1 and b"pcfserver serve:" in done.stderr
        await served.stop()


async def test_the_log_says_how_the_store_syncs_its_log(tmp_path: Path) -> None:
    """An operator can tell from the log whether commits are synced through io_uring or by fdatasync alone (a
    container's seccomp profile often forbids io_uring, and one lone client's rate depends on it)."""
    from pcfserver.engine import uring

    async with serving(tmp_path) as served:
        assert await served.stop() == 0
    expected = "through an io_uring" if uring.allowed() else "by fdatasync (this process may have no io_uring)"
    assert f"the store's log is synced {expected}" in served.log.read_text()
