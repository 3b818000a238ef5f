"""Crash safety of the kinds: a process defining and changing channels, listeners and AUTHINFO objects is SIGKILLed at
random moments, several times.

The child makes, for each index, a sender channel, a TCP listener and an IDPWLDAP AUTHINFO object with many
attributes and then changes several attributes of each: either as one batch of six commands (objects CRASH.B.<i>) or
as single commands (CRASH.S.<i>), printing an acknowledgement after each answer.  After each kill the registry is
reopened: every acknowledged definition and change is there, each object is exactly as created or exactly as
changed, and a batch's three objects are all there (changed) or none is.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from engine_support import acknowledged_until_killed

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine

CHILD = r"""
import sys
from pathlib import Path
from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine

def channel(name, i, changed=False):
    if changed:
        return Message(mq.MQCMD_CHANGE_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, name), Integer(mq.MQIACH_CHANNEL_TYPE, mq.MQCHT_SENDER),
            String(mq.MQCACH_DESC, f"changed {i}"), Integer(mq.MQIACH_BATCH_SIZE, 1 + (i + 7) % 9999),
            String(mq.MQCACH_CONNECTION_NAME, f"moved{i}(1415)"), Integer(mq.MQIACH_HB_INTERVAL, 1000 + i)))
    return Message(mq.MQCMD_CREATE_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, name), Integer(mq.MQIACH_CHANNEL_TYPE, mq.MQCHT_SENDER),
        String(mq.MQCACH_CONNECTION_NAME, f"host{i}(1414)"), String(mq.MQCACH_XMIT_Q_NAME, f"XQ.{i}"),
        String(mq.MQCACH_DESC, f"created {i}"), Integer(mq.MQIACH_BATCH_SIZE, 1 + i % 9999), Integer(mq.MQIACH_HB_INTERVAL, i % 1000),
        Integer(mq.MQIACH_DISC_INTERVAL, i), Integer(mq.MQIACH_SHORT_RETRY, i), String(mq.MQCACH_LOCAL_ADDRESS, f"10.1.{i % 256}.1")))

def listener(name, i, changed=False):
    head = (String(mq.MQCACH_LISTENER_NAME, name), Integer(mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP))
    if changed:
        return Message(mq.MQCMD_CHANGE_LISTENER, (*head, Integer(mq.MQIACH_PORT, 30000 + i % 30000), String(mq.MQCACH_LISTENER_DESC, f"changed {i}")))
    return Message(mq.MQCMD_CREATE_LISTENER, (*head, Integer(mq.MQIACH_PORT, 1000 + i % 20000), Integer(mq.MQIACH_BACKLOG, i),
        String(mq.MQCACH_IP_ADDRESS, f"10.0.{i % 256}.1"), String(mq.MQCACH_LISTENER_DESC, f"created {i}")))

def authinfo(name, i, changed=False):
    head = (String(mq.MQCA_AUTH_INFO_NAME, name), Integer(mq.MQIA_AUTH_INFO_TYPE, mq.MQAIT_IDPW_LDAP))
    if changed:
        return Message(mq.MQCMD_CHANGE_AUTH_INFO, (*head, String(mq.MQCA_AUTH_INFO_DESC, f"changed {i}"),
            Integer(mq.MQIA_AUTHENTICATION_FAIL_DELAY, 30 + i % 30), String(mq.MQCA_AUTH_INFO_CONN_NAME, f"ldapb{i}(636)")))
    return Message(mq.MQCMD_CREATE_AUTH_INFO, (*head, String(mq.MQCA_AUTH_INFO_CONN_NAME, f"ldapa{i}(389)"),
        String(mq.MQCA_LDAP_SHORT_USER_FIELD, "uid"), String(mq.MQCA_LDAP_BASE_DN_USERS, f"ou=u{i},o=x"),
        String(mq.MQCA_AUTH_INFO_DESC, f"created {i}"), Integer(mq.MQIA_AUTHENTICATION_FAIL_DELAY, i % 30)))

MAKERS = {"channel": channel, "listener": listener, "authinfo": authinfo}
engine = open_engine(Path(sys.argv[1]))
i = int(sys.argv[2])
print("READY", flush=True)
step = 0
while True:
    step += 1
    if step % 2:
        name = f"CRASH.B.{i}"
        batch = [make(name, i) for make in MAKERS.values()] + [make(name, i, True) for make in MAKERS.values()]
        answers = engine.execute_batch(batch)
        assert all(a[-1].reason == 0 for a in answers), [a[-1].reason for a in answers]
        print(f"ACK batch {i}", flush=True)
    else:
        name = f"CRASH.S.{i}"
        for kind, make in MAKERS.items():
            assert engine.execute(make(name, i))[-1].reason == 0
            print(f"ACK create-{kind} {i}", flush=True)
            assert engine.execute(make(name, i, True))[-1].reason == 0
            print(f"ACK change-{kind} {i}", flush=True)
    i += 1
"""

Expect = dict[int, Callable[[int], object]]
CREATED: dict[str, Expect] = {
    "channel": {
        mq.MQCACH_CONNECTION_NAME: lambda i: f"host{i}(1414)",
        mq.MQCACH_XMIT_Q_NAME: lambda i: f"XQ.{i}",
        mq.MQCACH_DESC: lambda i: f"created {i}",
        mq.MQIACH_BATCH_SIZE: lambda i: 1 + i % 9999,
        mq.MQIACH_HB_INTERVAL: lambda i: i % 1000,
        mq.MQIACH_DISC_INTERVAL: lambda i: i,
        mq.MQIACH_SHORT_RETRY: lambda i: i,
        mq.MQCACH_LOCAL_ADDRESS: lambda i: f"10.1.{i % 256}.1",
    },
    "listener": {
        mq.MQIACH_PORT: lambda i: 1000 + i % 20000,
        mq.MQIACH_BACKLOG: lambda i: i,
        mq.MQCACH_IP_ADDRESS: lambda i: f"10.0.{i % 256}.1",
        mq.MQCACH_LISTENER_DESC: lambda i: f"created {i}",
    },
    "authinfo": {
        mq.MQCA_AUTH_INFO_CONN_NAME: lambda i: f"ldapa{i}(389)",
        mq.MQCA_LDAP_SHORT_USER_FIELD: lambda i: "uid",
        mq.MQCA_LDAP_BASE_DN_USERS: lambda i: f"ou=u{i},o=x",
        mq.MQCA_AUTH_INFO_DESC: lambda i: f"created {i}",
        mq.MQIA_AUTHENTICATION_FAIL_DELAY: lambda i: i % 30,
    },
}
CHANGED: dict[str, Expect] = {
    "channel": {
        mq.MQCACH_DESC: lambda i: f"changed {i}",
        mq.MQIACH_BATCH_SIZE: lambda i: 1 + (i + 7) % 9999,
        mq.MQCACH_CONNECTION_NAME: lambda i: f"moved{i}(1415)",
        mq.MQIACH_HB_INTERVAL: lambda i: 1000 + i,
    },
    "listener": {mq.MQIACH_PORT: lambda i: 30000 + i % 30000, mq.MQCACH_LISTENER_DESC: lambda i: f"changed {i}"},
    "authinfo": {
        mq.MQCA_AUTH_INFO_DESC: lambda i: f"changed {i}",
        mq.MQIA_AUTHENTICATION_FAIL_DELAY: lambda i: 30 + i % 30,
        mq.MQCA_AUTH_INFO_CONN_NAME: lambda i: f"ldapb{i}(636)",
    },
}
INQUIRE = {
    "channel": (mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME),
    "listener": (mq.MQCMD_INQUIRE_LISTENER, mq.MQCACH_LISTENER_NAME),
    "authinfo": (mq.MQCMD_INQUIRE_AUTH_INFO, mq.MQCA_AUTH_INFO_NAME),
}
Acks = dict[str, set[int]]


def run_child(data_dir: Path, start: int, kill_after: float) -> Acks:
    """Runs the child until SIGKILL; the indexes it acknowledged, by what ("batch", "create-channel", ...)."""
    acked: Acks = {}
    for parts in acknowledged_until_killed(CHILD, data_dir, start, kill_after):
        if len(parts) == 3:
            acked.setdefault(parts[1], set()).add(int(parts[2]))
    return acked


def read_registry(data_dir: Path) -> dict[tuple[str, str, int], dict[int, object]]:
    """Every CRASH.* object: (kind, B or S, index) -> its attributes (strings without trailing blanks)."""
    engine = open_engine(data_dir)
    out: dict[tuple[str, str, int], dict[int, object]] = {}
    try:
        for kind, (code, name_pid) in INQUIRE.items():
            answer = engine.execute(Message(code, (String(name_pid, "CRASH.*"),)))
            if answer[0].comp_code != mq.MQCC_OK:
                continue
            for message in answer:
                attrs = {
                    p.parameter: p.value.rstrip() if isinstance(p, String) else p.value
                    for p in message.parameters
                    if isinstance(p, (String, Integer))
                }
                _, form, index = str(attrs[name_pid]).split(".")
                out[(kind, form, int(index))] = attrs
        return out
    finally:
        engine.close()


def state_of(kind: str, attrs: dict[int, object], i: int) -> str:
    created = {k: f(i) for k, f in CREATED[kind].items()}
    changed = {**created, **{k: f(i) for k, f in CHANGED[kind].items()}}
    got = {k: attrs.get(k) for k in created}
    if got == created:
        return "created"
    if got == changed:
        return "changed"
    return f"half applied: {got}"


@pytest.mark.timeout(150)
def test_sigkill_loses_no_acknowledged_definition_and_splits_none(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20261125")))
    acked: Acks = {}
    start = 0
    for _ in range(4):
        for what, indexes in run_child(tmp_path, start, rng.uniform(0.4, 1.3)).items():
            acked.setdefault(what, set()).update(indexes)
        registry = read_registry(tmp_path)
        for (kind, form, i), attrs in registry.items():
            state = state_of(kind, attrs, i)
            assert state in ("created", "changed"), (kind, form, i, state)
            if form == "B":  # a batch applies whole: all three objects, each as changed
                assert state == "changed", (kind, i)
                assert all((other, "B", i) in registry for other in INQUIRE), (kind, i)
            elif i in acked.get(f"change-{kind}", set()):
                assert state == "changed", (kind, i)
        for i in acked.get("batch", set()):
            assert all((kind, "B", i) in registry for kind in INQUIRE), i
        for kind in INQUIRE:
            missing = acked.get(f"create-{kind}", set()) - {i for (k, form, i) in registry if k == kind and form == "S"}
            assert not missing, (kind, sorted(missing)[:5])
        start = max((i for (_, _, i) in registry), default=-1) + 2  # past anything the child may have committed
    assert len(acked.get("batch", ())) > 5, "the child hardly ran; the test proved little"
    assert len(acked.get("change-authinfo", ())) > 5
