#!/usr/bin/env python3
"""Publish/subscribe speed (issue 19): one publisher, 1, 10 and 100 matching subscriptions, persistent and not.

    python tools/bench_pubsub.py [--copies 20000] [--persistent-copies 2000] [--repeat 3]

For each case it reports deliveries per second (copies reaching subscription queues) beside putting the same copies
straight to the same queues in the same run, one operation (one commit) per publication in both: the ratio is the
figure to compare (issue 19 targets >= 0.8).  Then the matching cost: publications per second with 10,000
subscriptions in the tree (each publication matching one), beside 10.  Persistent cases use a data directory in a
temporary folder (one fsync per publication), the others memory.  Each figure is the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from pathlib import Path

from pcfserver import mq
from pcfserver.dialects import mqsc
from pcfserver.qmgr import QueueManager, open_queue_manager


def mqsc_command(qm: QueueManager, text: str) -> None:
    lines = list(mqsc.run(text, qm.execute).lines)
    if not lines or "E:" in lines[0]:
        raise SystemExit(f"{text}: {lines}")


def define_subs(qm: QueueManager, count: int, topic: str) -> list[str]:
    """``count`` administrative subscriptions on ``topic``, each to its own queue."""
    queues = []
    for i in range(count):
        queue = f"BENCH.Q{i}"
        mqsc_command(qm, f"DEFINE QLOCAL({queue}) MAXDEPTH(999999999)")
        mqsc_command(qm, f"DEFINE SUB(BENCH.S{i}) TOPICSTR('{topic}') DEST({queue})")
        queues.append(queue)
    return queues


def one_case(subs: int, persistent: bool, copies: int) -> tuple[float, float]:
    """(deliveries/s through publish, copies/s put straight), in one queue manager."""
    publications = max(1, copies // subs)
    with tempfile.TemporaryDirectory() as folder:
        qm = open_queue_manager(Path(folder) if persistent else None)
        try:
            queues = define_subs(qm, subs, "bench/prices")
            body = b"x" * 256
            layer = qm.engine.messaging
            with qm.session() as s:
                gc.collect()
                start = time.perf_counter()
                for _ in range(publications):
                    s.publish("bench/prices", body, persistent=persistent)
                published = time.perf_counter() - start
                # The second phase starts as the first did: empty queues and no garbage, so that neither pays for
                # the other's messages in the garbage collector's passes.
                qm.call(lambda: [layer.clear(queue) for queue in queues])
                gc.collect()
                state = s._state  # the benchmark's own session: the same message layer the publisher used
                persistence = mq.MQPER_PERSISTENT if persistent else mq.MQPER_NOT_PERSISTENT

                def put_all() -> None:
                    for queue in queues:
                        layer.put(state, queue, body, persistence=persistence)

                start = time.perf_counter()
                for _ in range(publications):
                    qm.call(put_all)
                straight = time.perf_counter() - start
        finally:
            qm.close()
    delivered = publications * subs
    return delivered / published, delivered / straight


def matching_case(subs: int, publications: int) -> float:
    """Publications per second with ``subs`` subscriptions (distinct topics; a tenth of them wildcards), each
    publication matching exactly one subscription."""
    qm = open_queue_manager(None)
    try:
        mqsc_command(qm, "DEFINE QLOCAL(BENCH.ALL) MAXDEPTH(999999999)")
        for i in range(subs):
            topic = f"store/{i}/#" if i % 10 == 0 else f"store/{i}/price"
            mqsc_command(qm, f"DEFINE SUB(M{i}) TOPICSTR('{topic}') DEST(BENCH.ALL)")
        with qm.session() as s:
            gc.collect()
            start = time.perf_counter()
            for n in range(publications):
                s.publish(f"store/{n % subs}/price", b"1")
            return publications / (time.perf_counter() - start)
    finally:
        qm.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=20000, help="copies per non-persistent case")
    parser.add_argument("--persistent-copies", type=int, default=2000, help="copies per persistent case")
    parser.add_argument("--publications", type=int, default=5000, help="publications per matching case")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'subs':>5} {'persistent':>10} {'published/s':>12} {'straight/s':>12} {'ratio':>6}")
    for persistent in (False, True):
        for subs in (1, 10, 100):
            best = (0.0, 0.0)
            for _ in range(args.repeat):
                got = one_case(subs, persistent, args.persistent_copies if persistent else args.copies)
                best = (max(best[0], got[0]), max(best[1], got[1]))
            print(f"{subs:>5} {'yes' if persistent else 'no':>10} {best[0]:>12.0f} {best[1]:>12.0f} {best[0] / best[1]:>6.2f}")
    few = max(matching_case(10, args.publications) for _ in range(args.repeat))
    many = max(matching_case(10000, args.publications) for _ in range(args.repeat))
    print(f"matching: {few:.0f} publications/s with 10 subscriptions, {many:.0f} with 10,000 ({many / few:.2f})")


if __name__ == "__main__":
    main()
