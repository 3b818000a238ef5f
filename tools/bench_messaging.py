#!/usr/bin/env python3
"""Persistent put+get pairs per second with durable commits, each beside a baseline in the same run.

    python tools/bench_messaging.py [--messages 2000] [--batches 1,100] [--seconds 5] [--clients 1,16] [--profile] [--rounds 1]

(a) In process: ``pcfserver.open_queue_manager`` on a fresh data directory puts and gets
    persistent messages, committing every ``batch`` puts and every ``batch`` gets (1: each call
    durable on its own, as the embedded API does without syncpoint).  Baseline: SQLite (WAL,
    synchronous=FULL, secure_delete=FAST and the WAL file made full length at open, as the store)
    inserting and deleting rows of the same size in the same batches.  ``--profile`` prints where the in-process time goes (cProfile).
(b) Over REST: ``pcfserver serve --http-port`` on a fresh data directory; 1 and 16 clients,
    each on its own keep-alive connection and its own queue, POST a persistent message and
    DELETE it, for ``--seconds`` each.  Baseline: the same HTTP server (hypercorn, the same ASGI
    shell) answering a fixed 201 with no engine.  Latencies are per request.

``--rounds N`` (for a machine shared with other work, whose disk and CPUs come and go): each row
runs ours and its baseline alternately N times (over REST both servers are up at once and each
drive lasts ``--seconds``/N) and prints the medians, the ratio being the median of the N ratios.

``--floor`` adds, beside the one-client row, two floors: the same bare server made to write one WAL-sized frame in
place and fdatasync it before each answer (no engine, only the one durable write a persistent put or get needs), and
the same bare server committing the store's row for each answer (a POST inserts a message's row, a DELETE deletes one)
in a database set up as the store's (WAL, synchronous=FULL, exclusive locking, the WAL presized): no engine, no
message layer, only SQLite.  Their ratios to the bare server are about the most a durable server, and a server on
SQLite, can reach in that row on this machine's disk and CPUs; each line ends with pcfserver's one-client rate
against that floor's (the median of the rounds' ratios).

``--mix``: every row puts bodies of mixed sizes instead of 256 bytes each, as real traffic does: half from 256 B to
1 KB, 30% to 8 KB, 15% to 64 KB and 5% to 512 KB (``MIX_BANDS``; 1,000 bodies from a fixed seed, taken in turn).
The baselines put the same bodies; of the floors only the SQLite one is run, committing each request's own body.

``--instructions`` (needs valgrind): the same comparisons counted in CPU instructions instead of time, which
do not move with the machine's load: (a) commit every 100, ours and the SQLite baseline; (b) one REST client,
our server and the bare one.  Each figure is the difference of two run lengths divided by the difference of
their pairs, so start-up and shutdown cancel out; the ratio is the baseline's count over ours.

Internal modes (used by the tool itself): ``--bare-http`` runs the baseline server; ``--count-run``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import os
import pstats
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pcfserver import Integer, Message, String, mq, open_queue_manager  # noqa: E402
from pcfserver.engine.messages import MessageDescriptor, StoredMessage  # noqa: E402
from pcfserver.engine.store import md_bytes  # noqa: E402
from pcfserver.engine.wal import presize_wal  # noqa: E402

BODY = b"x" * 256
QUEUE = "BENCH.Q"
# The bodies the runs put, in turn: one 256-byte body (issue 21's shape), or with --mix a mix of sizes as real traffic has.
BODIES = [BODY]
# --mix: (share, smallest, largest) bands of sizes, log-uniform within each: mostly small messages, a tail of large ones.
MIX_BANDS = ((0.50, 256, 1024), (0.30, 1024, 8192), (0.15, 8192, 65536), (0.05, 65536, 524288))


def mixed_bodies(count: int = 1000, seed: int = 21) -> list[bytes]:
    """``count`` text bodies with sizes drawn from ``MIX_BANDS`` (always the same ones for the same seed)."""
    rng = random.Random(seed)
    bodies = []
    for band in rng.choices(MIX_BANDS, weights=[b[0] for b in MIX_BANDS], k=count):
        size = int(math.exp(rng.uniform(math.log(band[1]), math.log(band[2]))))
        bodies.append(bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz ") for _ in range(64)) * (size // 64) + b"x" * (size % 64))
    return bodies


def describe_bodies() -> str:
    if len(BODIES) == 1:
        return f"{len(BODIES[0])}-byte persistent messages"
    sizes = sorted(len(b) for b in BODIES)
    bands = ", ".join(f"{share:.0%} {_size(low)}-{_size(high)}" for share, low, high in MIX_BANDS)
    return (
        f"persistent messages of mixed sizes ({len(sizes):,} bodies taken in turn: {bands}; "
        f"median {_size(sizes[len(sizes) // 2])}, mean {_size(sum(sizes) // len(sizes))})"
    )


def _size(n: int) -> str:
    return f"{n // 1024} KB" if n >= 1024 else f"{n} B"


def create(name: str) -> Message:
    return Message(
        mq.MQCMD_CREATE_Q,
        (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), Integer(mq.MQIA_MAX_Q_DEPTH, 999_999_999)),
    )


# -- (a) in process --------------------------------------------------------------------------


def in_process(messages: int, batch: int) -> float:
    """Pairs per second through the embedded queue manager (durable: a data directory)."""
    with tempfile.TemporaryDirectory() as tmp, open_queue_manager(Path(tmp)) as qm:
        qm.execute(create(QUEUE))
        with qm.session() as s:
            bodies = BODIES
            start = time.perf_counter()
            if batch == 1:
                for k in range(messages):
                    s.put(QUEUE, bodies[k % len(bodies)], persistent=True)
                    s.get(QUEUE)
            else:
                for i in range(messages // batch):
                    for k in range(batch):
                        s.put(QUEUE, bodies[(i * batch + k) % len(bodies)], persistent=True, syncpoint=True)
                    s.commit()
                    for _ in range(batch):
                        s.get(QUEUE, syncpoint=True)
                    s.commit()
            elapsed = time.perf_counter() - start
    return (messages // batch) * batch / elapsed


def baseline_record() -> bytes:
    """A stored message descriptor's bytes, as the store keeps one for a small message."""
    md = MessageDescriptor(b"AMQ QM1         12345678", bytes(24), 0, 1, -1, "MQSTR   ", "", "", "pcfserver", "20260101", "12000000", "", 0)
    return md_bytes(StoredMessage(0, QUEUE, 0, md, BODY, time.time(), None).record())


def baseline_db(path: Path) -> sqlite3.Connection:
    """A database set up as the store sets up its own, with the store's messages table and nothing else."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA locking_mode=EXCLUSIVE")
    db.execute("PRAGMA secure_delete=FAST")  # as the store (Debian's SQLite has it on: every freed page rewritten)
    db.execute("CREATE TABLE messages (seq INTEGER PRIMARY KEY, queue TEXT NOT NULL, level INTEGER NOT NULL, md BLOB NOT NULL, body BLOB NOT NULL, np INTEGER NOT NULL DEFAULT 0)")
    # the store's messages table as it is (schema 8 dropped its index by queue: the baseline does not keep one either)
    presize_wal(db, path)  # as the store does at open: commits write over the WAL, never lengthen it
    return db


def sqlite_baseline(messages: int, batch: int) -> float:
    """Pairs per second of SQLite inserting and deleting the same rows in the same batches."""
    record = baseline_record()
    with tempfile.TemporaryDirectory() as tmp:
        db = baseline_db(Path(tmp) / "baseline.sqlite3")
        seq = 0
        start = time.perf_counter()
        for _ in range(messages // batch):
            rows = []
            for _ in range(batch):
                seq += 1
                rows.append((seq, QUEUE, 0, record, BODIES[(seq - 1) % len(BODIES)]))
            db.execute("BEGIN")
            db.executemany("INSERT INTO messages (seq, queue, level, md, body) VALUES (?,?,?,?,?)", rows)
            db.execute("COMMIT")
            db.execute("BEGIN")
            db.executemany("DELETE FROM messages WHERE seq = ?", [(r[0],) for r in rows])
            db.execute("COMMIT")
        elapsed = time.perf_counter() - start
        db.close()
    return (messages // batch) * batch / elapsed


def profile_in_process(messages: int, batch: int) -> None:
    """Where the in-process time goes: own time per module (SQLite's C calls apart), then the top functions."""
    profiler = cProfile.Profile()
    profiler.enable()
    in_process(messages, batch)
    profiler.disable()
    stats = pstats.Stats(profiler)
    by_module: dict[str, float] = {}
    for (filename, _, function), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        if "sqlite3" in function or "sqlite3" in filename:
            name = "SQLite (C calls: execute, executemany, commit)"
        elif filename.startswith("~") or filename == "<string>":
            name = "builtins and generated __init__ (dataclasses, struct, time, pickle)"
        else:
            name = str(Path(filename).relative_to(ROOT)) if filename.startswith(str(ROOT)) else Path(filename).name
        by_module[name] = by_module.get(name, 0.0) + own
    total = sum(by_module.values())
    print(f"\n    profile of the in-process run, commits every {batch}: own time by module ({total:.3f} s profiled)")
    for name, own in sorted(by_module.items(), key=lambda kv: -kv[1])[:10]:
        print(f"      {own / total:6.1%}  {name}")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(14)
    print("\n".join("      " + line for line in out.getvalue().splitlines()[6:]))


# -- (b) over REST ---------------------------------------------------------------------------


FRAME = 24 + 4096  # a WAL frame: its header and one page (what one put or get of a small message commits)
FRAMES = 1000  # SQLite's WAL holds this many before a checkpoint starts it again from the beginning


async def bare_http(durable_dir: str | None = None, sqlite_rows: bool = False) -> None:
    """The same HTTP listener, its API answering a fixed 201 without the engine; with ``durable_dir``, each answer
    waits for one frame written in place in a file there and fdatasync'd (as SQLite's WAL is, once it has filled),
    or with ``sqlite_rows`` for a commit of the store's row in a database there set up as the store's (a POST
    inserts a message's row, a DELETE deletes the oldest)."""
    from pcfserver.engine import open_engine
    from pcfserver.rest.http import TEXT_PLAIN, Response
    from pcfserver.server import ServerConfig
    from pcfserver.server.http import HttpServer

    fixed = Response(201, (("Content-Type", TEXT_PLAIN), ("ibm-mq-md-messageId", "00" * 24)))
    server = HttpServer(open_engine(None), ServerConfig(host="127.0.0.1"), port=0)
    if durable_dir is None:
        server.app.handle = lambda request, peer, certificate_user=None: fixed  # type: ignore[method-assign]
    elif sqlite_rows:
        db = baseline_db(Path(durable_dir) / "floor.sqlite3")
        record = baseline_record()
        seqs = [0, 0]  # the last inserted, the last deleted

        def committed(request: object, peer: str, certificate_user: str | None = None) -> Response:
            db.execute("BEGIN")
            if getattr(request, "method", "") == "POST":
                seqs[0] += 1
                body = getattr(request, "body", b"") or BODY  # (the message's own body, as the store keeps it)
                db.execute("INSERT INTO messages (seq, queue, level, md, body) VALUES (?,?,?,?,?)", (seqs[0], QUEUE, 0, record, body))
            elif seqs[1] < seqs[0]:
                seqs[1] += 1
                db.execute("DELETE FROM messages WHERE seq = ?", (seqs[1],))
            db.execute("COMMIT")
            return fixed

        server.app.handle = committed  # type: ignore[method-assign]
    else:
        fd = os.open(Path(durable_dir) / "frames", os.O_RDWR | os.O_CREAT, 0o600)
        os.pwrite(fd, bytes(FRAME * FRAMES), 0)
        os.fsync(fd)
        frame = b"f" * FRAME
        written = [0]

        def durable(request: object, peer: str, certificate_user: str | None = None) -> Response:
            os.pwrite(fd, frame, (written[0] % FRAMES) * FRAME)
            os.fdatasync(fd)
            written[0] += 1
            return fixed

        server.app.handle = durable  # type: ignore[method-assign]
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            address = await nursery.start(server.serve)
            print(f"pcfserver listening on 127.0.0.1:0 http 127.0.0.1:{address[1]} data - qmgr QM1", flush=True)
            async for _ in signals:
                server.shutdown()
                return


def start_server(args: list[str]) -> tuple[subprocess.Popen[str], int, int]:
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"listening on \S+:(\d+) http \S+:(\d+)", line)
    if match is None:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, int(match.group(1)), int(match.group(2))


def stop_server(process: subprocess.Popen[str], timeout: float = 30) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Client:
    """One keep-alive HTTP/1.1 connection with hand-built requests (so that the client costs little)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = bytearray()

    async def exchange(self, request: bytes) -> int:
        await self.stream.send_all(request)
        while (end := self.buf.find(b"\r\n\r\n")) < 0:
            data = await self.stream.receive_some(65536)
            if not data:
                raise ConnectionError("closed")
            self.buf += data
        head = bytes(self.buf[:end]).lower()
        status = int(head[9:12])
        match = re.search(rb"content-length: *(\d+)", head)
        total = end + 4 + (int(match.group(1)) if match else 0)
        while len(self.buf) < total:
            self.buf += await self.stream.receive_some(65536)
        del self.buf[:total]
        return status


def requests_for(queue: str) -> tuple[list[bytes], bytes]:
    """The POSTs that put each of ``BODIES`` on ``queue``, and the DELETE that gets one."""
    path = f"/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{queue}/message"
    puts = [
        (
            f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: text/plain;charset=utf-8\r\nibm-mq-rest-csrf-token: b\r\n"
            f"ibm-mq-md-persistence: persistent\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        + body
        for body in BODIES
    ]
    get = f"DELETE {path} HTTP/1.1\r\nHost: bench\r\nibm-mq-rest-csrf-token: b\r\n\r\n".encode()
    return puts, get


async def drive(port: int, clients: int, seconds: float) -> tuple[float, float, float, int]:
    """Pairs/s, p50 and p99 request latency in ms, and answers that were not 201/200."""
    latencies: list[float] = []
    pairs = 0
    bad = 0
    deadline = time.perf_counter() + seconds

    async def one(k: int) -> None:
        nonlocal pairs, bad
        puts, get = requests_for(f"{QUEUE}.{k:02d}")
        turn = k * 37  # (each client starts at its own place in the bodies)
        async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
            client = Client(stream)
            while time.perf_counter() < deadline:
                put = puts[turn % len(puts)]
                turn += 1
                t0 = time.perf_counter()
                status_put = await client.exchange(put)
                t1 = time.perf_counter()
                status_get = await client.exchange(get)
                t2 = time.perf_counter()
                latencies.extend((t1 - t0, t2 - t1))
                pairs += 1
                bad += (status_put != 201) + (status_get not in (200, 201))

    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for k in range(clients):
            nursery.start_soon(one, k)
    elapsed = time.perf_counter() - start
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else math_nan()

    return pairs / elapsed, pct(0.50), pct(0.99), bad


def math_nan() -> float:
    return float("nan")


def make_queues(pcf_port: int, count: int) -> None:
    from pcfserver.client import connect_sync

    with connect_sync("127.0.0.1", pcf_port) as client:
        for k in range(count):
            client.execute(create(f"{QUEUE}.{k:02d}"))


def rest_rows(clients: list[int], seconds: float) -> list[tuple[int, tuple[float, float, float, int], tuple[float, float, float, int]]]:
    python = sys.executable
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server, pcf_port, http_port = start_server([python, "-m", "pcfserver.cli", "serve", "--port", "0", "--http-port", "0", "--data", tmp])
        try:
            make_queues(pcf_port, max(clients))
            engine_results = {n: trio.run(drive, http_port, n, seconds) for n in clients}
        finally:
            stop_server(server)
    bare, _, bare_port = start_server([python, str(Path(__file__).resolve()), "--bare-http"])
    try:
        bare_results = {n: trio.run(drive, bare_port, n, seconds) for n in clients}
    finally:
        stop_server(bare)
    for n in clients:
        rows.append((n, engine_results[n], bare_results[n]))
    return rows


FLOORS = (
    ("the bare server with one in-place frame fdatasync'd per answer", ()),
    ("the bare server with one commit of the store's row per answer ", ("--sqlite-rows",)),
)
_Result = tuple[float, float, float, int]


def _floors() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``FLOORS``; with --mix only the SQLite one (it commits each request's own body; the one frame a 256-byte
    message's commit writes says nothing of a 300 KB one's)."""
    return FLOORS if len(BODIES) == 1 else FLOORS[1:]


def rest_rows_alternating(
    clients: list[int], seconds: float, rounds: int, floor: bool = False
) -> tuple[list[tuple[int, _Result, _Result, float]], list[tuple[str, _Result, float, float]]]:
    """Both servers up at once; each client count drives ours, then the bare one, ``rounds`` times.  With ``floor``,
    the one-client rounds also drive the bare server with one durable write per answer, and the bare server with one
    SQLite commit of the store's row per answer (``FLOORS``): for each, its medians, its ratio to the bare server and
    ours to it (each the median of the rounds' ratios)."""
    python, me = sys.executable, str(Path(__file__).resolve())
    each = max(1.0, seconds / rounds)
    rows = []
    floor_rows = []
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as frames:
        server, pcf_port, http_port = start_server([python, "-m", "pcfserver.cli", "serve", "--port", "0", "--http-port", "0", "--data", tmp])
        started = [server]
        try:
            bare, _, bare_port = start_server([python, me, "--bare-http"])
            started.append(bare)
            floor_ports = []
            for _, extra in _floors() if floor else ():
                durable, _, durable_port = start_server([python, me, "--bare-http", "--durable-dir", frames, *extra])
                started.append(durable)
                floor_ports.append(durable_port)
            make_queues(pcf_port, max(clients))
            for n in clients:
                ours, base = [], []
                floors: list[list[_Result]] = [[] for _ in floor_ports if n == 1]
                for _ in range(rounds):
                    ours.append(trio.run(drive, http_port, n, each))
                    base.append(trio.run(drive, bare_port, n, each))
                    for results, port in zip(floors, floor_ports, strict=False):
                        results.append(trio.run(drive, port, n, each))
                rows.append((n, _medians(ours), _medians(base), _median_ratio(ours, base)))
                for (name, _), results in zip(_floors(), floors, strict=False):
                    floor_rows.append((name, _medians(results), _median_ratio(results, base), _median_ratio(ours, results)))
        finally:
            for process in reversed(started):
                stop_server(process)
    return rows, floor_rows


def _median_ratio(tops: list[tuple[float, float, float, int]], bottoms: list[tuple[float, float, float, int]]) -> float:
    """The median over the rounds of one server's rate against another's in the same round."""
    return statistics.median(top[0] / bottom[0] for top, bottom in zip(tops, bottoms, strict=True))


def _medians(results: list[tuple[float, float, float, int]]) -> tuple[float, float, float, int]:
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
        statistics.median(r[2] for r in results),
        sum(r[3] for r in results),
    )


# -- counted in instructions ------------------------------------------------------------------


def _valgrind(argv: list[str], log: Path) -> list[str]:
    return ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", f"--log-file={log}", *argv]


def _instructions(log: Path) -> int:
    match = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text())
    if match is None:
        raise SystemExit(f"valgrind wrote no count: {log.read_text()[-500:]}")
    return int(match.group(1).replace(",", ""))


def count_run(which: str, pairs: int) -> None:
    """The in-process loop alone (``--count-run``), for valgrind to count: commit every 100."""
    if which == "sqlite":
        sqlite_baseline(pairs, 100)
    else:
        in_process(pairs, 100)


def _per_pair(count: Callable[[str, int], int], which: str, short: int, long: int) -> float:
    return (count(which, long) - count(which, short)) / (long - short)


def instruction_rows() -> None:
    if shutil.which("valgrind") is None:
        print("\n(instructions) valgrind is not installed: nothing counted")
        return
    python, me = sys.executable, str(Path(__file__).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp)

        def in_process(which: str, pairs: int) -> int:
            log = logs / f"{which}-{pairs}.log"
            subprocess.run(_valgrind([python, me, "--count-run", which, str(pairs), *(["--mix"] if len(BODIES) > 1 else [])], log), check=True, cwd=ROOT)
            return _instructions(log)

        def over_rest(which: str, pairs: int) -> int:
            log, data = logs / f"http-{which}-{pairs}.log", logs / f"data-{which}-{pairs}"
            ours = which == "ours"
            argv = [python, "-m", "pcfserver.cli", "serve", "--port", "0", "--http-port", "0", "--data", str(data)] if ours else [python, me, "--bare-http"]
            process, pcf_port, http_port = start_server(_valgrind(argv, log))
            try:
                if ours:
                    make_queues(pcf_port, 1)
                trio.run(_sequential, http_port, pairs)
            finally:
                stop_server(process, 300)
            return _instructions(log)

        rows = (
            ("in process, commit every 100", in_process, "sqlite", "SQLite insert+delete", 1000, 6000),
            ("over REST, one client (the server's)", over_rest, "bare", "bare HTTP 201", 200, 1200),
        )
        print("\n(instructions, valgrind) per put+get pair")
        for title, count, baseline, base_name, short, long in rows:
            ours = _per_pair(count, "ours", short, long)
            base = _per_pair(count, baseline, short, long)
            print(f"    {title:<38} pcfserver {ours:>11,.0f}   {base_name} {base:>11,.0f}   ratio {base / ours:5.2f}")


async def _sequential(port: int, pairs: int) -> None:
    puts, get = requests_for(f"{QUEUE}.00")
    async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
        client = Client(stream)
        for k in range(pairs):
            await client.exchange(puts[k % len(puts)])
            await client.exchange(get)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000, help="pairs per in-process run (default 2000)")
    parser.add_argument("--batches", default="1,100", help="in-process commit batch sizes (default 1,100)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per REST row (default 5)")
    parser.add_argument("--clients", default="1,16", help="REST client counts (default 1,16)")
    parser.add_argument("--profile", action="store_true", help="also profile the in-process run with the largest batch")
    parser.add_argument("--skip-rest", action="store_true", help="only the in-process rows")
    parser.add_argument("--rounds", type=int, default=1, help="alternate ours and each baseline this many times per row; medians (default 1)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions per pair with valgrind (about two minutes)")
    parser.add_argument("--floor", action="store_true", help="with --rounds: also the bare server with one durable write, and with one SQLite commit, per answer (one client)")
    parser.add_argument("--mix", action="store_true", help="put bodies of mixed sizes (MIX_BANDS: 256 B to 512 KB, mostly small) instead of 256 bytes each")
    parser.add_argument("--bare-http", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--durable-dir", help=argparse.SUPPRESS)
    parser.add_argument("--sqlite-rows", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count-run", nargs=2, metavar=("WHICH", "PAIRS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mix:
        BODIES[:] = mixed_bodies()
    if args.bare_http:
        trio.run(bare_http, args.durable_dir, args.sqlite_rows)
        return 0
    if args.count_run:
        count_run(args.count_run[0], int(args.count_run[1]))
        return 0
    print(f"CPUs available: {len(os.sched_getaffinity(0))}; {describe_bodies()}; durable commits (SQLite WAL, synced before each answer)")
    print("\n(a) in process: put+get pairs/s        pcfserver    SQLite insert+delete   ratio")
    for batch in (int(b) for b in args.batches.split(",")):
        runs = [(in_process(args.messages, batch), sqlite_baseline(args.messages, batch)) for _ in range(max(1, args.rounds))]
        ours = statistics.median(o for o, _ in runs)
        base = statistics.median(b for _, b in runs)
        ratio = statistics.median(o / b for o, b in runs)
        print(f"    commit every {batch:>4} puts / gets   {ours:>10,.0f}   {base:>20,.0f}   {ratio:5.2f}")
    if args.profile:
        profile_in_process(args.messages, max(int(b) for b in args.batches.split(",")))
    if args.instructions:
        instruction_rows()
    if args.skip_rest:
        return 0
    print("\n(b) over REST: put+get pairs/s   pcfserver (p50/p99 ms)      bare HTTP 201 (p50/p99 ms)   ratio")
    counts = [int(c) for c in args.clients.split(",")]
    floor_rows: list[tuple[str, _Result, float, float]] = []
    if args.rounds > 1:
        rows, floor_rows = rest_rows_alternating(counts, args.seconds, args.rounds, args.floor)
    else:
        if args.floor:
            print("    (--floor needs --rounds 2 or more)")
        rows = [(n, o, b, o[0] / b[0]) for n, o, b in rest_rows(counts, args.seconds)]
    for n, (ours, p50, p99, bad), (base, b50, b99, _), ratio in rows:
        flag = f"  ({bad} unexpected answers)" if bad else ""
        print(f"    {n:>2} client{'s' if n > 1 else ' '}    {ours:>10,.0f} ({p50:5.2f}/{p99:6.2f})   {base:>10,.0f} ({b50:5.2f}/{b99:6.2f})   {ratio:5.2f}{flag}")
    for name, (rate, p50, p99, _), ratio, ours_to_floor in floor_rows:
        print(f"    floor, 1 client: {name} {rate:,.0f} ({p50:5.2f}/{p99:6.2f})   ratio to bare {ratio:5.2f}   pcfserver to it {ours_to_floor:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
