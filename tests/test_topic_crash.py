"""Crash safety of topics and subscriptions: a process defining them in batches is SIGKILLed at random moments.

Each batch creates a topic object, a subscription through it and changes the subscription.  After each kill the
registry is reopened: every acknowledged batch is there whole, no batch is half there, and a subscription keeps the
SubId it had when it was first seen (the SubId is generated once, then only stored).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from engine_support import acknowledged_until_killed

from pcfserver import mq
from pcfserver.codec import ByteString, Message, String
from pcfserver.engine import open_engine

CHILD = r"""
import sys
from pathlib import Path
from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine

engine = open_engine(Path(sys.argv[1]))
i = int(sys.argv[2])
engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "CRASH.DEST"), Integer(mq.MQIA_Q_TYPE, 1), Integer(mq.MQIACF_REPLACE, 1))))
print("READY", flush=True)
while True:
    batch = [
        Message(mq.MQCMD_CREATE_TOPIC, (String(mq.MQCA_TOPIC_NAME, f"CRASH.{i}"), String(mq.MQCA_TOPIC_STRING, f"crash/{i}"))),
        Message(mq.MQCMD_CREATE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, f"CRASH.{i}"), String(mq.MQCA_TOPIC_NAME, f"CRASH.{i}"),
                String(mq.MQCA_TOPIC_STRING, "x"), String(mq.MQCACF_DESTINATION, "CRASH.DEST"), String(mq.MQCACF_SUB_USER_DATA, f"created {i}"))),
        Message(mq.MQCMD_CHANGE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, f"CRASH.{i}"), String(mq.MQCACF_SUB_USER_DATA, f"changed {i}"))),
    ]
    answers = engine.execute_batch(batch)
    assert all(a[0].reason == 0 for a in answers), [a[0].reason for a in answers]
    print(f"ACK {i}", flush=True)
    i += 1
"""


def run_child(data_dir: Path, start: int, kill_after: float) -> set[int]:
    return {int(parts[1]) for parts in acknowledged_until_killed(CHILD, data_dir, start, kill_after) if len(parts) == 2}


def read_registry(data_dir: Path) -> tuple[set[int], dict[int, tuple[str, str, bytes]]]:
    """The CRASH.* topic objects' indexes; the CRASH.* subscriptions' (topic string, user data, SubId) by index."""
    engine = open_engine(data_dir)
    try:
        topics: set[int] = set()
        for message in engine.execute(Message(mq.MQCMD_INQUIRE_TOPIC_NAMES, (String(mq.MQCA_TOPIC_NAME, "CRASH.*"),))):
            found = message.get(mq.MQCACF_TOPIC_NAMES)
            for name in getattr(found, "values", ()):
                topics.add(int(name.strip().split(".")[1]))
        subs: dict[int, tuple[str, str, bytes]] = {}
        for message in engine.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, "CRASH.*"),))):
            if message.reason != 0:
                continue
            sub_id = message.get(mq.MQBACF_SUB_ID)
            assert isinstance(sub_id, ByteString)
            index = int((message.str_value(mq.MQCACF_SUB_NAME) or "").split(".")[1])
            subs[index] = ((message.str_value(mq.MQCA_TOPIC_STRING) or "").rstrip(), (message.str_value(mq.MQCACF_SUB_USER_DATA) or "").rstrip(), sub_id.value)
        return topics, subs
    finally:
        engine.close()


@pytest.mark.timeout(120)
def test_sigkill_loses_no_acknowledged_subscription_and_splits_no_batch(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20261125")))
    acked: set[int] = set()
    seen_ids: dict[int, bytes] = {}
    start = 0
    for _ in range(4):
        acked |= run_child(tmp_path, start, rng.uniform(0.3, 1.0))
        topics, subs = read_registry(tmp_path)
        assert acked <= set(subs), sorted(acked - set(subs))[:5]
        assert topics == set(subs)  # a topic and its subscription were one batch: both or neither
        for i, (topic, user_data, sub_id) in subs.items():
            assert (topic, user_data) == (f"crash/{i}/x", f"changed {i}"), i
            assert seen_ids.setdefault(i, sub_id) == sub_id, i  # the SubId outlives every restart
        assert len(set(seen_ids.values())) == len(seen_ids)  # and no two subscriptions share one
        start = max(subs, default=-1) + 1
    assert len(acked) > 10, "the child hardly ran; the test proved little"
