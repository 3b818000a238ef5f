#!/usr/bin/env python3
"""Benchmark of ``pcfserver serve`` against a bare trio echo server, in one run.

    python tools/bench_server.py [--seconds 5] [--connections 1,8,64] [--repeat 1] [--json FILE] [--memory 1000]

Starts the server on a fresh data directory (durable SQLite commits) and, as the baseline, a
bare trio echo server that answers each request with a response of the same size as the
server's (no decoding, no engine).  A driver in another process sends MQCMD_CHANGE_Q commands
over 1, 8 and 64 connections, request-response and pipelined (a window of commands in flight
per connection), for a fixed time each, and reports commands/s with p50/p99 latency and the
ratio to the echo baseline.  ``--memory N`` also opens N connections (idle, half-sent
messages, garbage) and reports the server's resident memory.

Internal modes (used by the tool itself): ``--echo-server`` and ``--drive``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pcfserver import mq  # noqa: E402
from pcfserver.codec import Integer, Message, String, encode  # noqa: E402
from pcfserver.engine.responses import success  # noqa: E402

PIPELINE_WINDOW = 16
QUEUES = 64


def change_q(i: int) -> bytes:
    """A realistic CHANGE_Q (QName, QType, six integer attributes, two strings), 288 bytes."""
    message = Message(
        mq.MQCMD_CHANGE_Q,
        (
            String(mq.MQCA_Q_NAME, f"BENCH.Q.{i:05d}"),
            Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL),
            Integer(mq.MQIA_MAX_Q_DEPTH, 5000),
            Integer(mq.MQIA_INHIBIT_GET, 0),
            Integer(mq.MQIA_INHIBIT_PUT, 0),
            Integer(mq.MQIA_DEF_PRIORITY, 0),
            Integer(mq.MQIA_MAX_MSG_LENGTH, 4194304),
            Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 80),
            String(mq.MQCA_Q_DESC, "a queue for the benchmark run"),
            String(mq.MQCA_TRIGGER_DATA, "x" * 30),
        ),
    )
    return encode(message)


def create_q(i: int) -> bytes:
    return encode(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, f"BENCH.Q.{i:05d}"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))


RESPONSE = encode(success(Message(mq.MQCMD_CHANGE_Q))[0])


class Framer:
    """Counts complete answers in a big-endian response stream (header + parameters, Control LAST)."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.failed = 0

    def feed(self, data: bytes) -> int:
        self.buf += data
        buf = self.buf
        pos = 0
        answers = 0
        end = len(buf)
        while pos + 36 <= end:
            control, comp, _reason, count = struct.unpack_from(">4l", buf, pos + 20)
            p = pos + 36
            complete = True
            for _ in range(count):
                if p + 8 > end:
                    complete = False
                    break
                p += struct.unpack_from(">l", buf, p + 4)[0]
            if not complete or p > end:
                break
            pos = p
            if comp != 0:
                self.failed += 1
            if control == 1:
                answers += 1
        del buf[:pos]
        return answers


# -- echo server ---------------------------------------------------------------------------


async def echo_server(request_size: int) -> None:
    async def handle(stream: trio.SocketStream) -> None:
        pending = 0
        try:
            while data := await stream.receive_some(65536):
                pending += len(data)
                n, pending = divmod(pending, request_size)
                if n:
                    await stream.send_all(RESPONSE * n)
        except trio.BrokenResourceError:
            pass

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(f"echo listening on 127.0.0.1:{listeners[0].socket.getsockname()[1]}", flush=True)
    await trio.serve_listeners(handle, listeners)


# -- driver --------------------------------------------------------------------------------


async def drive(host: str, port: int, connections: int, pipelined: bool, seconds: float, warmup: float) -> dict[str, Any]:
    latencies: list[float] = []
    done = 0
    failed = 0
    measuring = False
    stop = False

    async def one(k: int) -> None:
        # Plain non-blocking sockets and trio's wait_readable, as the server does: the driver
        # shares the machine with the server, and every microsecond it spends is taken from it.
        nonlocal done
        request = change_q(k % QUEUES)
        sock = socket.create_connection((host, port))
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        framer = Framer()
        sent: deque[float] = deque()
        window = PIPELINE_WINDOW if pipelined else 1
        now = time.perf_counter

        async def send(data: bytes) -> None:
            view = memoryview(data)
            while view:
                try:
                    view = view[sock.send(view) :]
                except BlockingIOError:
                    await trio.lowlevel.wait_writable(sock)

        try:
            t = now()
            await send(request * window)
            sent.extend([t] * window)
            while not stop:
                await trio.lowlevel.wait_readable(sock)
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    raise RuntimeError("server closed the connection")
                n = framer.feed(data)
                if not n:
                    continue
                t = now()
                for _ in range(n):
                    started = sent.popleft()
                    if measuring:
                        latencies.append(t - started)
                if measuring:
                    done += n
                await send(request * n)
                sent.extend([t] * n)
        finally:
            nonlocal failed
            failed += framer.failed
            trio.lowlevel.notify_closing(sock)
            sock.close()

    async with trio.open_nursery() as nursery:
        for k in range(connections):
            nursery.start_soon(one, k)
        await trio.sleep(warmup)
        measuring = True
        started = time.perf_counter()
        await trio.sleep(seconds)
        measuring = False
        elapsed = time.perf_counter() - started
        stop = True
        nursery.cancel_scope.cancel()
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else math.nan

    return {"commands_per_s": done / elapsed, "p50_ms": pct(0.50), "p99_ms": pct(0.99), "commands": done, "failed_responses": failed}


async def setup_queues(host: str, port: int) -> None:
    from pcfserver.client import connect

    async with connect(host, port) as c:
        await c.stream.send_all(b"".join(create_q(i) for i in range(QUEUES)))
        framer = Framer()
        got = 0
        while got < QUEUES:
            got += framer.feed(await c.stream.receive_some(65536))


async def memory_probe(host: str, port: int, count: int, pid: int, hold: float) -> dict[str, Any]:
    def rss() -> int:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) * 1024
        return 0

    before = rss()
    streams = []
    partial = change_q(0)[:100]
    # the first 8,000 bytes of a 60,000-byte command: buffered, waiting for the rest
    garbage = encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_DESC, "x" * 60000),)))[:8000]
    for i in range(count):
        s = await trio.open_tcp_stream(host, port)
        streams.append(s)
        if i % 3 == 1:
            await s.send_all(partial)
        elif i % 3 == 2:
            await s.send_all(garbage)
    await trio.sleep(hold)
    peak = rss()
    for s in streams:
        await s.aclose()
    return {"connections": count, "rss_before_mb": before / 2**20, "rss_with_connections_mb": peak / 2**20}


# -- orchestration -------------------------------------------------------------------------


def start(cmd: list[str], pattern: str, stderr: Any) -> tuple[subprocess.Popen[bytes], int]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    match = re.search(pattern, line)
    if not match:
        proc.kill()
        raise SystemExit(f"could not start {cmd}: {line!r}")
    return proc, int(match[1])


def run_driver(port: int, connections: int, pipelined: bool, seconds: float) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--drive", str(port), "--connections", str(connections), "--seconds", str(seconds)] + (["--pipelined"] if pipelined else []),
        capture_output=True, check=True, cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="measured time per run (default 5)")
    parser.add_argument("--connections", default="1,8,64", help="connection counts (default 1,8,64)")
    parser.add_argument("--repeat", type=int, default=1, help="server/echo pairs per row; the median pair is shown (default 1)")
    parser.add_argument("--memory", type=int, default=1000, metavar="N", help="connections for the memory probe (0: skip; default 1000)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--commit-in", choices=("auto", "loop", "thread"), default="auto", help="the server's --commit-in (default auto)")
    parser.add_argument("--server-log", metavar="FILE", help="keep the server's log here (default: a temporary file)")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--drive", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--pipelined", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--setup", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--probe", nargs=3, type=int, metavar=("PORT", "N", "PID"), help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.echo_server:
        trio.run(echo_server, len(change_q(0)))
        return 0
    if args.drive is not None:
        result = trio.run(drive, "127.0.0.1", args.drive, int(args.connections), args.pipelined, args.seconds, min(1.0, args.seconds / 5))
        print(json.dumps(result))
        return 0
    if args.setup is not None:
        trio.run(setup_queues, "127.0.0.1", args.setup)
        return 0
    if args.probe is not None:
        port, count, pid = args.probe
        print(json.dumps(trio.run(memory_probe, "127.0.0.1", port, count, pid, 2.0)))
        return 0

    counts = [int(c) for c in args.connections.split(",")]
    results: dict[str, Any] = {"request_bytes": len(change_q(0)), "response_bytes": len(RESPONSE), "runs": []}
    with tempfile.TemporaryDirectory(prefix="pcfbench-") as tmp:
        log_path = Path(args.server_log) if args.server_log else Path(tmp) / "server.log"
        with open(log_path, "wb") as log:
            server_cmd = [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--data", str(Path(tmp) / "data"), "--max-connections", "5000"]
            server_cmd += ["--commit-in", args.commit_in]
            server, server_port = start(server_cmd, r":(\d+) data ", log)
            echo, echo_port = start([sys.executable, __file__, "--echo-server"], r":(\d+)$", subprocess.DEVNULL)
            try:
                subprocess.run([sys.executable, __file__, "--setup", str(server_port)], check=True, cwd=ROOT)
                print(f"request {results['request_bytes']} bytes, response {results['response_bytes']} bytes, {args.seconds:g} s per run", flush=True)
                print(f"{'conns':>5} {'mode':<10} {'server cmd/s':>12} {'p50 ms':>7} {'p99 ms':>7} | {'echo cmd/s':>10} {'p50 ms':>7} {'p99 ms':>7} | ratio", flush=True)
                for pipelined in (False, True):
                    for n in counts:
                        # Server and echo alternate, so that a change in the machine's speed
                        # touches both; the pair with the median ratio is reported.
                        pairs = []
                        for _ in range(args.repeat):
                            s = run_driver(server_port, n, pipelined, args.seconds)
                            e = run_driver(echo_port, n, pipelined, args.seconds)
                            if s["failed_responses"]:
                                raise SystemExit(f"the server answered {s['failed_responses']} commands with a failure")
                            pairs.append((s["commands_per_s"] / e["commands_per_s"] if e["commands_per_s"] else math.nan, s, e))
                        pairs.sort(key=lambda pair: pair[0])
                        ratio, s, e = pairs[len(pairs) // 2]
                        mode = "pipelined" if pipelined else "req-resp"
                        results["runs"].append(
                            {"connections": n, "mode": mode, "server": s, "echo": e, "ratio": ratio, "ratios": [pair[0] for pair in pairs]}
                        )
                        print(
                            f"{n:>5} {mode:<10} {s['commands_per_s']:>12,.0f} {s['p50_ms']:>7.2f} {s['p99_ms']:>7.2f} | "
                            f"{e['commands_per_s']:>10,.0f} {e['p50_ms']:>7.2f} {e['p99_ms']:>7.2f} | {ratio:.2f}"
                            + (f"  (of {', '.join(f'{pair[0]:.2f}' for pair in pairs)})" if len(pairs) > 1 else ""),
                            flush=True,
                        )
                if args.memory:
                    probe = subprocess.run(
                        [sys.executable, __file__, "--probe", str(server_port), str(args.memory), str(server.pid)], capture_output=True, check=True, cwd=ROOT
                    )
                    memory = json.loads(probe.stdout)
                    results["memory"] = memory
                    print(
                        f"memory: {memory['rss_before_mb']:.0f} MB resident before, {memory['rss_with_connections_mb']:.0f} MB "
                        f"with {memory['connections']} connections open (idle, half-sent, garbage)",
                        flush=True,
                    )
            finally:
                echo.kill()
                echo.wait()
                server.send_signal(signal.SIGTERM)
                try:
                    code = server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    code = server.wait()
                results["server_exit"] = code
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0 if results.get("server_exit") == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
