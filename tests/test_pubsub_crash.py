"""Crash safety of publish/subscribe: a process making durable subscriptions and retained persistent publications is
SIGKILLed at random moments.  After each kill the queue manager is reopened: every acknowledged subscription is there
with its managed queue holding its publication exactly once, every acknowledged retained publication is there, and
nothing unacknowledged is half there (issue 19: committed ones survive kill -9 exactly once)."""

from __future__ import annotations

import random
from pathlib import Path

from engine_support import acknowledged_until_killed

from pcfserver.engine.messages import MQIError
from pcfserver.qmgr import open_queue_manager

CHILD = r"""
import sys
from pcfserver.qmgr import open_queue_manager

qm = open_queue_manager(sys.argv[1])
i = int(sys.argv[2])
print("READY", flush=True)
with qm.session() as s:
    while True:
        s.subscribe(f"crash/{i}/#", name=f"D{i}", durable=True)
        s.publish(f"crash/{i}/x", f"{i}", persistent=True, retain=True)
        print(f"ACK {i}", flush=True)
        i += 1
"""


def run_child(data_dir: Path, start: int, kill_after: float) -> set[int]:
    return {int(parts[1]) for parts in acknowledged_until_killed(CHILD, data_dir, start, kill_after) if len(parts) == 2}


def test_durable_subscriptions_and_retained_publications_survive_kill_9(tmp_path: Path) -> None:
    rng = random.Random(19)
    acked: set[int] = set()
    start = 0
    for _round in range(3):
        acked |= run_child(tmp_path, start, rng.uniform(0.4, 1.2))
        with open_queue_manager(tmp_path) as qm:
            subs = qm.engine.objects.by_type[-1]
            made = {int(name[1:]) for name in subs if name.startswith("D")}
            retained = qm.engine.pubsub.retained()
            assert acked <= made
            assert len(made - acked) <= _round + 1  # at most the one in flight at each kill
            for i in made:
                with qm.session() as s:
                    sub = s.subscribe(f"crash/{i}/#", name=f"D{i}", durable=True)
                    bodies = []
                    while True:
                        try:
                            bodies.append(s.get(sub.queue, browse=True)[1])
                        except MQIError:
                            break
                if i in acked:
                    assert bodies == [str(i).encode()]  # exactly once
                    assert retained[f"crash/{i}/x"][1] == str(i).encode()
                else:
                    assert bodies in ([], [str(i).encode()])
                # the copy and the retained publication are one transaction: both or neither
                assert (f"crash/{i}/x" in retained) == (bodies == [str(i).encode()])
            assert {int(t.split("/")[1]) for t in retained} <= made
            start = max(made | acked) + 1 if made | acked else 0
    assert acked, "the child acknowledged nothing: the kill came too early to test anything"
