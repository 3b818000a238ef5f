#!/usr/bin/env python3
"""The administrative REST API over HTTPS: runCommandJSON DISPLAY QLOCAL and ALTER QLOCAL per second,
beside the same HTTPS server answering a fixed JSON body without the engine, in the same run.

    python tools/bench_rest.py [--seconds 5] [--clients 1,16]

``pcfserver serve --https-port 0`` on a fresh data directory with one MQWebAdmin user (basic
authentication on every request, as pymqrest sends it); each client holds one keep-alive TLS
connection and its own queue, and sends runCommandJSON DISPLAY QLOCAL(q) ALL, then ALTER
QLOCAL(q) MAXDEPTH(n) (a durable change), for ``--seconds`` per row.  Baseline: the same
HTTPS listener (hypercorn, TLS, the same ASGI shell) whose application answers a fixed
runCommandJSON body.  Printed: requests/s, p50 and p99 latency, and the ratio engine/baseline.

Internal mode: ``--bare-https DIR`` runs the baseline server with DIR's certificate.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from bench_messaging import Client, stop_server  # noqa: E402

AUTH = "Basic " + base64.b64encode(b"bench:bench-pw").decode()
FIXED = {"commandResponse": [{"completionCode": 0, "reasonCode": 0, "parameters": {"queue": "Q", "maxdepth": 5000}}], "overallCompletionCode": 0, "overallReasonCode": 0}


def request(body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode()
    return (
        f"POST /ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc HTTP/1.1\r\nHost: bench\r\nAuthorization: {AUTH}\r\n"
        f"Content-Type: application/json\r\nibm-mq-rest-csrf-token: b\r\nContent-Length: {len(data)}\r\n\r\n"
    ).encode() + data


async def bare_https(data: Path) -> None:
    from pcfserver.engine import open_engine
    from pcfserver.rest.http import JSON, Response
    from pcfserver.server import ServerConfig
    from pcfserver.server.http import HttpServer
    from pcfserver.server.tls import self_signed, server_context

    fixed = Response(200, (("Content-Type", JSON),), json.dumps(FIXED).encode())
    server = HttpServer(open_engine(None), ServerConfig(host="127.0.0.1"), port=0, ssl_context=server_context(*self_signed(data)))
    server.app.handle = lambda request, peer, certificate_user=None: fixed  # type: ignore[method-assign]
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            address = await nursery.start(server.serve)
            print(f"pcfserver listening on 127.0.0.1:0 https 127.0.0.1:{address[1]} data - qmgr QM1", flush=True)
            async for _ in signals:
                server.shutdown()
                return


def start(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert process.stdout is not None
    for _ in range(3):
        line = process.stdout.readline()
        match = re.search(r"https \S+:(\d+)", line)
        if match:
            return process, int(match.group(1))
    process.kill()
    raise SystemExit(f"the server did not start: {line!r}")


async def drive(port: int, cafile: Path, clients: int, seconds: float) -> tuple[float, float, float, int]:
    """Requests/s, p50 and p99 latency (ms), and answers that were not 200."""
    context = ssl.create_default_context(cafile=str(cafile))
    latencies: list[float] = []
    bad = 0
    deadline = time.perf_counter() + seconds

    async def one(k: int) -> None:
        nonlocal bad
        queue = f"BENCH.R{k:02d}"
        display = request({"type": "runCommandJSON", "command": "display", "qualifier": "qlocal", "name": queue, "responseParameters": ["all"]})
        stream = await trio.open_ssl_over_tcp_stream("localhost", port, ssl_context=context)
        client = Client(stream)  # type: ignore[arg-type]
        n = 0
        while time.perf_counter() < deadline:
            n += 1
            alter = request({"type": "runCommandJSON", "command": "alter", "qualifier": "qlocal", "name": queue, "parameters": {"maxdepth": 1000 + n % 1000}})
            for req in (display, alter):
                t0 = time.perf_counter()
                status = await client.exchange(req)
                latencies.append(time.perf_counter() - t0)
                bad += status != 200
        await stream.aclose()

    start_time = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for k in range(clients):
            nursery.start_soon(one, k)
    elapsed = time.perf_counter() - start_time
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return len(latencies) / elapsed, pct(0.50), pct(0.99), bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", default="1,16")
    parser.add_argument("--bare-https", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_https:
        trio.run(bare_https, Path(args.bare_https))
        return 0
    clients = [int(c) for c in args.clients.split(",")]
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([python, "-m", "pcfserver.cli", "user", "add", "bench", "--role", "MQWebAdmin", "--password-stdin", "--data", tmp], input="bench-pw\n", text=True, check=True, cwd=ROOT, capture_output=True)
        server, port = start([python, "-m", "pcfserver.cli", "serve", "--port", "0", "--https-port", "0", "--data", tmp])
        cafile = Path(tmp) / "server-cert.pem"
        try:
            engine = {n: trio.run(drive_with_queues, port, cafile, n, args.seconds) for n in clients}
        finally:
            stop_server(server)
        bare, bare_port = start([python, str(Path(__file__).resolve()), "--bare-https", tmp])
        try:
            baseline = {n: trio.run(drive, bare_port, cafile, n, args.seconds) for n in clients}
        finally:
            stop_server(bare)
    print(f"{'clients':>7} {'engine req/s':>13} {'p50 ms':>7} {'p99 ms':>7} {'baseline req/s':>15} {'p50 ms':>7} {'p99 ms':>7} {'ratio':>6}  (target >= 0.5, p99 < 50 ms)")
    for n in clients:
        e, b = engine[n], baseline[n]
        print(f"{n:>7} {e[0]:>13.0f} {e[1]:>7.2f} {e[2]:>7.2f} {b[0]:>15.0f} {b[1]:>7.2f} {b[2]:>7.2f} {e[0] / b[0]:>6.2f}" + (f"  ({e[3]} not 200)" if e[3] else ""))
    return 0


async def drive_with_queues(port: int, cafile: Path, clients: int, seconds: float) -> tuple[float, float, float, int]:
    """Defines each client's queue over the same API, then drives."""
    context = ssl.create_default_context(cafile=str(cafile))
    stream = await trio.open_ssl_over_tcp_stream("localhost", port, ssl_context=context)
    client = Client(stream)  # type: ignore[arg-type]
    for k in range(clients):
        await client.exchange(request({"type": "runCommandJSON", "command": "define", "qualifier": "qlocal", "name": f"BENCH.R{k:02d}", "parameters": {"replace": "yes"}}))
    await stream.aclose()
    return await drive(port, cafile, clients, seconds)


if __name__ == "__main__":
    sys.exit(main())
