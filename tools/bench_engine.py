"""Engine throughput on CHANGE_Q commands (8 attributes each), in memory and on SQLite.

    python tools/bench_engine.py [--count 100000] [--batch 100]

Prints engine work per command (in memory: validation, apply, response) and durable commands
per second with the SQLite store committing ``--batch`` commands per transaction.  Figures vary
from run to run; they are a guide, not a test.  Each rate is printed twice: by the wall clock, and
by this process's CPU time (``time.process_time``), which a shared machine's other work disturbs
far less (for the durable rates it leaves out the waits for fsync).  To compare revisions, run this
script under both with ``tools/bench_versions.py`` (name it by its absolute path to run this copy of
it under the earlier tree too).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pcfserver import mq
from pcfserver.codec.model import Integer, Message, String
from pcfserver.engine import open_engine


def change_command(i: int) -> Message:
    return Message(
        mq.MQCMD_CHANGE_Q,
        (
            String(mq.MQCA_Q_NAME, f"BENCH.Q{i % 100}"),
            Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL),
            Integer(mq.MQIA_MAX_Q_DEPTH, 1000 + i % 5000),
            Integer(mq.MQIA_DEF_PRIORITY, i % 10),
            Integer(mq.MQIA_DEF_PERSISTENCE, i % 2),
            Integer(mq.MQIA_INHIBIT_PUT, 0),
            Integer(mq.MQIA_INHIBIT_GET, 0),
            Integer(mq.MQIA_BACKOUT_THRESHOLD, i % 7),
            String(mq.MQCA_Q_DESC, f"bench queue {i}"),
            String(mq.MQCA_BACKOUT_REQ_Q_NAME, "BENCH.BACKOUT"),
        ),
        type=mq.MQCFT_COMMAND_XR,
        version=3,
    )


def create_queues(engine: object) -> None:
    from pcfserver.engine import Engine

    assert isinstance(engine, Engine)
    for i in range(100):
        engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, f"BENCH.Q{i}"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))


def run(count: int, batch: int) -> None:
    commands = [change_command(i) for i in range(count)]
    engine = open_engine()
    create_queues(engine)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(0, count, batch):
        for answer in engine.execute_batch(commands[i : i + batch]):
            assert answer[0].reason == 0, answer
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"in memory: {count / elapsed:,.0f} commands/s, {elapsed / count * 1e6:.1f} us per CHANGE_Q")
    print(f"in memory, CPU time: {count / cpu:,.0f} commands/s, {cpu / count * 1e6:.1f} us per CHANGE_Q")
    engine.close()
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_engine(Path(tmp))
        create_queues(engine)
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(0, count, batch):
            engine.execute_batch(commands[i : i + batch])
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"sqlite (WAL, synchronous=FULL, {batch} per commit): {count / elapsed:,.0f} durable commands/s, {elapsed / count * 1e6:.1f} us each")
        print(f"sqlite ({batch} per commit), CPU time: {count / cpu:,.0f} durable commands/s, {cpu / count * 1e6:.1f} us each")
        single = min(count, 2000)
        start = time.perf_counter()
        for command in commands[:single]:
            engine.execute(command)
        elapsed = time.perf_counter() - start
        print(f"sqlite, one command per commit: {single / elapsed:,.0f} durable commands/s")
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    run(args.count, args.batch)


if __name__ == "__main__":
    main()
