"""Crash safety: a process applying commands is SIGKILLed at random moments, several times.

The child creates queues with many attributes and changes several attributes of each at once,
alone or in batches (a batch also creates and changes a process definition and adds and replaces a
channel authentication record), and prints an acknowledgement after each answer it has.  After each kill
the registry is reopened: every acknowledged command must be there, and no command may be
half applied — each queue is either absent, exactly as created, or exactly as changed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from engine_support import acknowledged_until_killed

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String
from pcfserver.engine import open_engine

CHILD = r"""
import sys
from pathlib import Path
from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine

def create(i):
    attrs = [
        Integer(mq.MQIA_MAX_Q_DEPTH, 1000 + i), Integer(mq.MQIA_DEF_PRIORITY, i % 10),
        Integer(mq.MQIA_BACKOUT_THRESHOLD, i), Integer(mq.MQIA_TRIGGER_DEPTH, i + 1),
        Integer(mq.MQIA_RETENTION_INTERVAL, i), Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, i % 100),
        Integer(mq.MQIA_Q_SERVICE_INTERVAL, i), Integer(mq.MQIA_MAX_MSG_LENGTH, 10000 + i),
        String(mq.MQCA_Q_DESC, f"created {i}"), String(mq.MQCA_TRIGGER_DATA, f"trigger {i}"),
        String(mq.MQCA_BACKOUT_REQ_Q_NAME, f"BO.{i}"), String(mq.MQCA_INITIATION_Q_NAME, f"INIT.{i}"),
        String(mq.MQCA_PROCESS_NAME, f"PROC.{i}"), String(mq.MQCA_CUSTOM, f"X({i})"),
    ]
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, f"CRASH.{i}"), Integer(mq.MQIA_Q_TYPE, 1), *attrs))

def change(i):
    return Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, f"CRASH.{i}"), Integer(mq.MQIA_Q_TYPE, 1),
        Integer(mq.MQIA_MAX_Q_DEPTH, 500000 + i), String(mq.MQCA_Q_DESC, f"changed {i}"),
        String(mq.MQCA_TRIGGER_DATA, f"changed {i}"), Integer(mq.MQIA_BACKOUT_THRESHOLD, 900000 + i)))

def process(i, code, data):
    return Message(code, (String(mq.MQCA_PROCESS_NAME, f"CRASH.{i}"), String(mq.MQCA_USER_DATA, f"{data} {i}")))

def chlauth(i, action, data):
    return Message(mq.MQCMD_SET_CHLAUTH_REC, (String(mq.MQCACH_CHANNEL_NAME, f"CRASH.{i}"), Integer(mq.MQIACF_CHLAUTH_TYPE, mq.MQCAUT_ADDRESSMAP),
        Integer(mq.MQIACF_ACTION, action), String(mq.MQCACH_CONNECTION_NAME, f"10.0.*"), Integer(mq.MQIACH_USER_SOURCE, mq.MQUSRC_MAP),
        String(mq.MQCACH_MCA_USER_ID, f"u{i % 1000}"), String(mq.MQCA_CHLAUTH_DESC, f"{data} {i}")))

engine = open_engine(Path(sys.argv[1]))
i = int(sys.argv[2])
print("READY", flush=True)
step = 0
while True:
    step += 1
    if step % 2:
        batch = [create(i), process(i, mq.MQCMD_CREATE_PROCESS, "created"), create(i + 1), change(i), create(i + 2), change(i + 1),
                 process(i, mq.MQCMD_CHANGE_PROCESS, "changed"), chlauth(i, mq.MQACT_ADD, "added"), chlauth(i, mq.MQACT_REPLACE, "replaced")]
        answers = engine.execute_batch(batch)
        assert all(a[0].reason == 0 for a in answers), [a[0].reason for a in answers]
        print(f"ACK create {i}", f"ACK create {i + 1}", f"ACK change {i}", f"ACK create {i + 2}", f"ACK change {i + 1}", f"ACK process {i}",
              f"ACK chlauth {i}", sep="\n", flush=True)
        i += 3
    else:
        assert engine.execute(create(i))[0].reason == 0
        print(f"ACK create {i}", flush=True)
        assert engine.execute(change(i))[0].reason == 0
        print(f"ACK change {i}", flush=True)
        i += 1
"""

CREATED_INTS = {
    mq.MQIA_MAX_Q_DEPTH: lambda i: 1000 + i,
    mq.MQIA_DEF_PRIORITY: lambda i: i % 10,
    mq.MQIA_BACKOUT_THRESHOLD: lambda i: i,
    mq.MQIA_TRIGGER_DEPTH: lambda i: i + 1,
    mq.MQIA_RETENTION_INTERVAL: lambda i: i,
    mq.MQIA_Q_DEPTH_HIGH_LIMIT: lambda i: i % 100,
    mq.MQIA_Q_SERVICE_INTERVAL: lambda i: i,
    mq.MQIA_MAX_MSG_LENGTH: lambda i: 10000 + i,
}
CREATED_STRINGS = {
    mq.MQCA_Q_DESC: lambda i: f"created {i}",
    mq.MQCA_TRIGGER_DATA: lambda i: f"trigger {i}",
    mq.MQCA_BACKOUT_REQ_Q_NAME: lambda i: f"BO.{i}",
    mq.MQCA_INITIATION_Q_NAME: lambda i: f"INIT.{i}",
    mq.MQCA_PROCESS_NAME: lambda i: f"PROC.{i}",
    mq.MQCA_CUSTOM: lambda i: f"X({i})",
}
CHANGED = {
    mq.MQIA_MAX_Q_DEPTH: lambda i: 500000 + i,
    mq.MQCA_Q_DESC: lambda i: f"changed {i}",
    mq.MQCA_TRIGGER_DATA: lambda i: f"changed {i}",
    mq.MQIA_BACKOUT_THRESHOLD: lambda i: 900000 + i,
}


def run_child(data_dir: Path, start: int, kill_after: float) -> tuple[set[int], set[int], set[int], set[int]]:
    """Runs the child until SIGKILL; the (created, changed, process, chlauth) indexes it acknowledged."""
    acked: dict[str, set[int]] = {"create": set(), "change": set(), "process": set(), "chlauth": set()}
    for parts in acknowledged_until_killed(CHILD, data_dir, start, kill_after):
        if len(parts) == 3:
            acked[parts[1]].add(int(parts[2]))
    return acked["create"], acked["change"], acked["process"], acked["chlauth"]


def state_of(attrs: dict[int, object], i: int) -> str:
    """'created' or 'changed' when the queue is exactly one of them, else a description of the mix."""
    created = {**{k: f(i) for k, f in CREATED_INTS.items()}, **{k: f(i) for k, f in CREATED_STRINGS.items()}}
    changed = {**created, **{k: f(i) for k, f in CHANGED.items()}}
    got = {k: attrs[k] for k in created}
    if got == created:
        return "created"
    if got == changed:
        return "changed"
    return f"half applied: {got}"


def read_registry(data_dir: Path) -> tuple[dict[int, dict[int, object]], dict[int, str], dict[int, str]]:
    """The CRASH.* queues' attributes, the CRASH.* processes' UserData and the CRASH.* channel authentication records' DESCR, by index."""
    engine = open_engine(data_dir)
    try:
        records: dict[int, str] = {}
        found = engine.execute(Message(mq.MQCMD_INQUIRE_CHLAUTH_RECS, (String(mq.MQCACH_CHANNEL_NAME, "CRASH.*"),)))
        for message in found:
            if message.reason == 0:
                fields = {p.parameter: p.value.rstrip() for p in message.parameters if isinstance(p, String)}
                records[int(fields[mq.MQCACH_CHANNEL_NAME].split(".")[1])] = fields[mq.MQCA_CHLAUTH_DESC]
        processes: dict[int, str] = {}
        found = engine.execute(Message(mq.MQCMD_INQUIRE_PROCESS, (String(mq.MQCA_PROCESS_NAME, "CRASH.*"),)))
        for message in found:
            if message.reason == 0:
                fields = {p.parameter: p.value.rstrip() for p in message.parameters if isinstance(p, String)}
                processes[int(fields[mq.MQCA_PROCESS_NAME].split(".")[1])] = fields[mq.MQCA_USER_DATA]
        selectors = (*CREATED_INTS, *CREATED_STRINGS)
        answer = engine.execute(
            Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "CRASH.*"), IntegerList(mq.MQIACF_Q_ATTRS, selectors)))
        )
        out: dict[int, dict[int, object]] = {}
        if answer[0].reason == mq.MQRC_UNKNOWN_OBJECT_NAME:
            return out, processes, records
        for message in answer:
            assert message.reason == 0
            attrs: dict[int, object] = {}
            for p in message.parameters:
                if isinstance(p, String):
                    attrs[p.parameter] = p.value.rstrip()
                elif isinstance(p, Integer):
                    attrs[p.parameter] = p.value
            name = attrs[mq.MQCA_Q_NAME]
            assert isinstance(name, str)
            out[int(name.split(".")[1])] = attrs
        return out, processes, records
    finally:
        engine.close()


@pytest.mark.timeout(120)
def test_sigkill_at_random_moments_loses_no_acknowledged_command_and_splits_none(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20240611")))
    acked_created: set[int] = set()
    acked_changed: set[int] = set()
    acked_processes: set[int] = set()
    acked_records: set[int] = set()
    start = 0
    for _ in range(4):
        created, changed, processes, records = run_child(tmp_path, start, rng.uniform(0.3, 1.2))
        acked_created |= created
        acked_changed |= changed
        acked_processes |= processes
        acked_records |= records
        registry, stored_processes, stored_records = read_registry(tmp_path)
        # so is the channel authentication record added and replaced in that batch
        assert acked_records <= set(stored_records)
        for i, descr in stored_records.items():
            assert descr == f"replaced {i}" and i in registry and i in stored_processes, (i, descr)
        # a process is created and changed in the batch that creates the queue of its index: all or nothing
        assert acked_processes <= set(stored_processes)
        for i, user_data in stored_processes.items():
            assert user_data == f"changed {i}" and i in registry, (i, user_data)
        assert acked_created <= set(registry), sorted(acked_created - set(registry))[:5]
        for i, attrs in registry.items():
            state = state_of(attrs, i)
            assert state in ("created", "changed"), (i, state)
            if i in acked_changed:
                assert state == "changed", i
        start = max(registry, default=-1) + 3  # past anything the child may have committed
    assert len(acked_created) > 20, "the child hardly ran; the test proved little"
    assert len(acked_changed) > 10
    assert len(acked_processes) > 3
    assert len(acked_records) > 3
