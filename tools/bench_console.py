"""Console queue list against REST runCommandJSON, on one server holding many queues.

    python tools/bench_console.py [--queues 10000] [--requests 50]

Starts ``pcfserver serve`` (loopback, no users) on a new data directory seeded with ``--queues`` local queues by an
MQSC ``--seed`` script, then times ``--requests`` requests of each kind: the console's queue list (default paging,
sorted by name, by depth, filtered by a generic name) and the admin REST API's ``runCommandJSON`` ``DISPLAY
QLOCAL(*)`` of the same queues.  Times are client-side round trips on loopback (one keep-alive connection, one
request at a time), so they include HTTP parsing and the client; the server's own time is in its access log's ``us``
field, which this tool does not read (the round trip is what a user waits for, and on loopback the difference is a
few hundred microseconds).  Prints p50 and p99 per request kind and each page's p50 against runCommandJSON's.
Figures vary with the machine and its load: a guide, never a test.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queues", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        seed = Path(tmp) / "seed.mqsc"
        seed.write_text("".join(f"DEFINE QLOCAL(BENCH.Q{i:05d}) MAXDEPTH({1000 + i % 7})\n" for i in range(args.queues)))
        command = [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--http-port", "0", "--data", str(Path(tmp) / "data"),
                   "--seed", str(seed)]
        started = time.perf_counter()
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
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
            print(f"server with {args.queues} queues up in {time.perf_counter() - started:.1f} s; {args.requests} requests each, client round trips")
            results: list[tuple[str, list[float]]] = []
            with httpx.Client(base_url=base, timeout=120) as client:
                client.get(CONSOLE)  # the anonymous console cookie, and a warm cache
                for label, params in PAGES:
                    results.append((label, timed(client, args.requests, lambda c, p=params: c.get(CONSOLE, params=p))))
                body = {"type": "runCommandJSON", "command": "display", "qualifier": "qlocal", "name": "BENCH.*", "responseParameters": ["curdepth", "maxdepth"]}
                results.append(("REST DISPLAY QLOCAL(BENCH.*)", timed(
                    client, args.requests,
                    lambda c: c.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=body, headers={"ibm-mq-rest-csrf-token": "x"}),
                )))
            rest = statistics.median(results[-1][1])
            for label, times in results:
                print(f"{label:32s} p50 {statistics.median(times):8.2f} ms  p99 {percentile(times, 0.99):8.2f} ms  "
                      f"p50 / REST p50 {statistics.median(times) / rest:6.3f}")
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
