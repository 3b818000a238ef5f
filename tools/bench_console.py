"""Console queue list and IBM's v1 queue resource against REST runCommandJSON, on one server holding many queues.

    python tools/bench_console.py [--queues 10000] [--requests 50]

Starts ``pcfserver serve`` (loopback, no users) on a new data directory seeded with ``--queues`` local queues by an
MQSC ``--seed`` script, then times ``--requests`` requests of each kind: the console's queue list (default paging,
sorted by name, by depth, filtered by a generic name) and the admin REST API's ``runCommandJSON`` ``DISPLAY
QLOCAL(*)`` of the same queues.  Times are client-side round trips on loopback (one keep-alive connection, one
request at a time), so they include HTTP parsing and the client; beside them, the server's own time per request,
read from its access log (``--log-format json``, the ``us`` field: from the request's head to its answer's last
byte).  Prints p50 and p99 of both per request kind and each page's server p50 against runCommandJSON's.
Figures vary with the machine and its load: a guide, never a test.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

STARTUP = re.compile(r"http (\S+):(\d+)")
CONSOLE = "/ibmmq/console/queues"
PAGES = (
    ("queues, by name", {}),
    ("queues, by depth", {"sort": "depth", "dir": "desc"}),
    ("queues, filtered", {"name": "BENCH.Q1*"}),
)
V1 = "/ibmmq/rest/v1/admin/qmgr/QM1/queue"
V1_QUERIES = (
    ("REST v1 queue list", {"name": "BENCH.*"}),
    ("REST v1 maximum, current depth", {"name": "BENCH.*", "attributes": "storage.maximumDepth", "status": "status.currentDepth"}),
    ("REST v1 attributes=*", {"name": "BENCH.*", "attributes": "*"}),
)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(client: httpx.Client, count: int, send: object) -> list[float]:
    out = []
    for _ in range(count):
        started = time.perf_counter()
        answer = send(client)  # type: ignore[operator]
        out.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.text[:300]
    return out


def server_times(log: Path) -> list[float]:
    """The server's time of each HTTP request it logged, in milliseconds, in order."""
    out = []
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("event") == "http" and "us" in entry:
            out.append(int(entry["us"]) / 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queues", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        seed = Path(tmp) / "seed.mqsc"
        seed.write_text("".join(f"DEFINE QLOCAL(BENCH.Q{i:05d}) MAXDEPTH({1000 + i % 7})\n" for i in range(args.queues)))
        command = [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--http-port", "0", "--data", str(Path(tmp) / "data"),
                   "--seed", str(seed), "--log-format", "json"]
        started = time.perf_counter()
        log_path = Path(tmp) / "server.log"
        log_file = open(log_path, "w")
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log_file, text=True)
        try:
            assert server.stdout is not None
            line = ""
            while True:
                line = server.stdout.readline()
                if not line or line.startswith("pcfserver listening"):
                    break
            found = STARTUP.search(line)
            assert found, f"no startup line: {line!r}"
            base = f"http://{found[1]}:{found[2]}"
            print(f"server with {args.queues} queues up in {time.perf_counter() - started:.1f} s; {args.requests} requests of each kind")
            results: list[tuple[str, list[float]]] = []
            with httpx.Client(base_url=base, timeout=120) as client:
                client.get(CONSOLE)  # the anonymous console cookie, and a warm cache
                for label, params in PAGES:
                    results.append((label, timed(client, args.requests, lambda c, p=params: c.get(CONSOLE, params=p))))
                for label, params in V1_QUERIES:
                    results.append((label, timed(client, args.requests, lambda c, p=params: c.get(V1, params=p))))
                body = {"type": "runCommandJSON", "command": "display", "qualifier": "qlocal", "name": "BENCH.*", "responseParameters": ["curdepth", "maxdepth"]}
                results.append(("REST DISPLAY QLOCAL(BENCH.*)", timed(
                    client, args.requests,
                    lambda c: c.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=body, headers={"ibm-mq-rest-csrf-token": "x"}),
                )))
        finally:
            server.terminate()
            server.wait(30)
            log_file.close()
        served = server_times(log_path)[1:]  # the first is the warm-up request
        rest_server = statistics.median(served[-args.requests:]) if len(served) >= args.requests * len(results) else 0.0
        print(f"{'':32s} {'round trip (ms)':>26s}   {'server (ms)':>24s}   server p50 / REST's")
        for index, (label, times) in enumerate(results):
            own = served[index * args.requests:(index + 1) * args.requests]
            server_part = f"p50 {statistics.median(own):8.2f}  p99 {percentile(own, 0.99):8.2f}" if own else " " * 24
            ratio = f"{statistics.median(own) / rest_server:6.3f}" if own and rest_server else "     -"
            print(f"{label:32s} p50 {statistics.median(times):8.2f}  p99 {percentile(times, 0.99):8.2f}   {server_part}   {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
