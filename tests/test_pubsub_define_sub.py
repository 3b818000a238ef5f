"""DEFINE SUB as IBM makes it (issue 19): a managed destination's queue made with the subscription (not at the first
publication), the retained publications a new administrative subscription receives when it is defined, REQONLY(YES),
and the crash safety of both (the subscription, its queue and its retained copies are one unit of work)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import acknowledged_until_killed
from engine_support import mqsc_each_line as run

from pcfserver import mq
from pcfserver.engine.messages import MQIError
from pcfserver.qmgr import QueueManager, open_queue_manager

SUBS = -1  # the 'sub' kind's object type


def dest(qm: QueueManager, name: str) -> str:
    return str(qm.engine.objects.by_type[SUBS][name].attrs[mq.MQCACF_DESTINATION])


def bodies(qm: QueueManager, queue: str) -> list[tuple[bytes, dict[str, str]]]:
    out = []
    with qm.session() as s:
        while True:
            try:
                md, body = s.get(queue, browse=True)
            except MQIError as error:
                assert error.reason == mq.MQRC_NO_MSG_AVAILABLE
                return out
            out.append((body, dict(md.properties)))


def managed_queues(qm: QueueManager) -> set[str]:
    return {q for q in qm.engine.queue_names() if q.startswith("SYSTEM.MANAGED.DURABLE.")}


# ------------------------------------------------------------------ the managed queue


def test_define_sub_makes_its_managed_queue_at_once_from_the_topics_durable_model(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        run(qm, "DEFINE QMODEL(MY.MODEL) DEFTYPE(PERMDYN) MAXDEPTH(77)\nDEFINE TOPIC(M) TOPICSTR('m') MDURMDL(MY.MODEL)")
        run(qm, "DEFINE SUB(M) TOPICSTR('m/#') DESTCLAS(MANAGED)")
        queue = qm.engine.queue(dest(qm, "M"))
        assert queue is not None  # before any publication
        assert queue.attrs[mq.MQIA_DEFINITION_TYPE] == mq.MQQDT_PERMANENT_DYNAMIC and queue.attrs[mq.MQIA_MAX_Q_DEPTH] == 77
        run(qm, "DEFINE SUB(M) TOPICSTR('m/#') DESTCLAS(MANAGED) REPLACE\nDEFINE SUB(C) LIKE(M)")
        assert dest(qm, "C") != dest(qm, "M")  # a copy has its own queue, not its source's
        assert managed_queues(qm) == {dest(qm, "M"), dest(qm, "C")}
        with qm.session() as s:
            s.publish("m/1", "kept", persistent=True)
    with open_queue_manager(tmp_path) as qm:  # restart: both subscriptions with their queues and what they hold
        assert managed_queues(qm) == {dest(qm, "M"), dest(qm, "C")}
        assert [b for b, _ in bodies(qm, dest(qm, "M"))] == [b"kept"]
        gone = dest(qm, "C")
        run(qm, "DELETE SUB(C)")
        assert qm.engine.queue(gone) is None and managed_queues(qm) == {dest(qm, "M")}


def test_define_sub_whose_model_queue_is_missing_is_refused_whole() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE TOPIC(T) TOPICSTR('t') MDURMDL(NO.SUCH.MODEL)")
        before = managed_queues(qm)
        out = run(qm, "DEFINE SUB(S) TOPICSTR('t/x') DESTCLAS(MANAGED)")
        assert "3317 MQRCCF_INVALID_DESTINATION" in " ".join(out), out
        assert "S" not in qm.engine.objects.by_type[SUBS] and managed_queues(qm) == before
        run(qm, "DEFINE QMODEL(TEMP.MODEL) DEFTYPE(TEMPDYN)\nALTER TOPIC(T) MDURMDL(TEMP.MODEL)")
        run(qm, "DEFINE SUB(S) TOPICSTR('t/x') DESTCLAS(MANAGED)")
        assert "S" not in qm.engine.objects.by_type[SUBS] and managed_queues(qm) == before


CHILD = r"""
import sys
from pcfserver.dialects import mqsc
from pcfserver.qmgr import open_queue_manager

qm = open_queue_manager(sys.argv[1])
i = int(sys.argv[2])
print("READY", flush=True)
with qm.session() as s:
    while True:
        s.publish(f"k/{i}", f"r{i}", persistent=True, retain=True)
        result = mqsc.run(f"DEFINE SUB(K{i}) TOPICSTR('k/{i}') DESTCLAS(MANAGED)", qm.execute)
        assert result.status == "ok", result.lines
        print(f"ACK {i}", flush=True)
        i += 1
"""


def test_define_sub_with_its_managed_queue_and_retained_copy_survives_kill_9(tmp_path: Path) -> None:
    """Every acknowledged DEFINE SUB is there after kill -9 with its managed queue holding the retained publication
    exactly once; no queue without its subscription, no subscription without its queue."""
    rng = random.Random(1919)
    acked: set[int] = set()
    start = 0
    for _round in range(3):
        acked |= {int(p[1]) for p in acknowledged_until_killed(CHILD, tmp_path, start, rng.uniform(0.4, 1.2)) if len(p) == 2}
        with open_queue_manager(tmp_path) as qm:
            subs = {name: record for name, record in qm.engine.objects.by_type[SUBS].items() if name.startswith("K")}
            made = {int(name[1:]) for name in subs}
            assert acked <= made and len(made - acked) <= _round + 1
            assert managed_queues(qm) == {dest(qm, name) for name in subs}
            for i in made:
                assert [b for b, _ in bodies(qm, dest(qm, f"K{i}"))] == [f"r{i}".encode()]
            start = max(made | acked) + 1 if made | acked else start + 1000
    assert acked, "the child acknowledged nothing: the kill came too early to test anything"


# ------------------------------------------------------------------ retained publications on DEFINE SUB


def test_define_sub_receives_the_retained_publications_it_matches_unless_reqonly() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE QLOCAL(R)")
        with qm.session() as s:
            s.publish("r/1", "one", retain=True, persistent=True)
            s.publish("r/2", "two", retain=True)
            s.publish("other", "not mine", retain=True)
            s.publish("r/3", "not retained")
        run(qm, "DEFINE SUB(S) TOPICSTR('r/#') DEST(Q)")
        got = bodies(qm, "Q")
        assert [b for b, _ in got] == [b"one", b"two"]  # topic string order
        assert all(p["MQIsRetained"] == "true" for _, p in got)
        assert [p["MQTopicString"] for _, p in got] == ["r/1", "r/2"]
        run(qm, "DEFINE SUB(S) TOPICSTR('r/#') DEST(Q) REPLACE\nALTER SUB(S) USERDATA('x')")
        assert len(bodies(qm, "Q")) == 2  # a Replace or a Change is not a new subscription
        run(qm, "DEFINE SUB(M) TOPICSTR('r/1') DESTCLAS(MANAGED)")
        assert [b for b, _ in bodies(qm, dest(qm, "M"))] == [b"one"]
        run(qm, "DEFINE SUB(P) TOPICSTR('r/#') DEST(R) REQONLY(YES)")
        assert bodies(qm, "R") == []
        with qm.session() as s:
            s.publish("r/1", "new")
        assert bodies(qm, "R") == []  # REQONLY(YES): no ordinary publications either
        assert [b for b, _ in bodies(qm, "Q")][-1] == b"new"


def test_a_retained_publication_that_cannot_be_delivered_refuses_the_subscription() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q) PUT(DISABLED)\nDEFINE QMODEL(SHUT) DEFTYPE(PERMDYN) PUT(DISABLED)\nDEFINE TOPIC(X) TOPICSTR('x') MDURMDL(SHUT)")
        with qm.session() as s:
            s.publish("x", "retained", retain=True)
        out = run(qm, "DEFINE SUB(S) TOPICSTR('x') DEST(Q)")
        assert "2526 MQRC_RETAINED_NOT_DELIVERED" in " ".join(out) and "S" not in qm.engine.objects.by_type[SUBS], out
        with qm.session() as s, pytest.raises(MQIError) as caught:
            s.subscribe("x", name="API", durable=True)
        assert caught.value.reason == mq.MQRC_RETAINED_NOT_DELIVERED
        assert "API" not in qm.engine.objects.by_type[SUBS] and not managed_queues(qm)
        # a dead-letter queue that takes it is a delivery (USEDLQ(YES) on SYSTEM.BASE.TOPIC)
        run(qm, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\nDEFINE SUB(S) TOPICSTR('x') DEST(Q)")
        assert "S" in qm.engine.objects.by_type[SUBS] and len(bodies(qm, "DLQ")) == 1


def test_dmpmqcfgs_default_subscription_replays_and_a_new_one_still_needs_a_topic() -> None:
    """dmpmqcfg writes the template subscription as DEFINE SUB('SYSTEM.DEFAULT.SUB') TOPICSTR('') REPLACE (a published
    MQ 9.3.1 dump): replayed, it keeps the template as it was; a new subscription naming the empty topic is refused."""
    with open_queue_manager() as qm:
        before = dict(qm.engine.objects.by_type[SUBS]["SYSTEM.DEFAULT.SUB"].attrs)
        out = run(qm, "DEFINE SUB('SYSTEM.DEFAULT.SUB') TOPICSTR('') REPLACE")
        assert out[0].startswith("AMQ8094I"), out
        after = qm.engine.objects.by_type[SUBS]["SYSTEM.DEFAULT.SUB"].attrs
        assert after[mq.MQCA_TOPIC_STRING] == before[mq.MQCA_TOPIC_STRING] == ""
        assert after[mq.MQBACF_SUB_ID] == before[mq.MQBACF_SUB_ID]
        refused = run(qm, "DEFINE SUB('NEW.SUB') TOPICSTR('')")
        assert "3228 MQRCCF_PARM_MISSING" in " ".join(refused) and "NEW.SUB" not in qm.engine.objects.by_type[SUBS]


def test_subuser_is_who_defined_it_and_a_replace_that_does_not_name_one_keeps_it() -> None:
    from pcfserver.engine import open_engine
    from pcfserver.engine.messaging import process_user

    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(Q1)")
    run(engine, "DEFINE SUB(S1) TOPICSTR('a/b') DEST(Q1)")
    run(engine, "DEFINE SUB(S2) TOPICSTR('a/b') DEST(Q1) SUBUSER('alice')")
    run(engine, "DEFINE SUB(S1) TOPICSTR('a/b') DEST(Q1) REPLACE")
    run(engine, "DEFINE SUB(S2) TOPICSTR('a/b') DEST(Q1) REPLACE")
    subs = engine.objects.by_type[-1]
    assert subs["S1"].attrs[mq.MQCACF_SUB_USER_ID] == process_user()[:12]
    assert subs["S2"].attrs[mq.MQCACF_SUB_USER_ID] == "alice"
