"""The message layer through the in-process queue manager: put and get rules, order, units of work."""

from __future__ import annotations

import getpass
import threading
import time

import pytest
from engine_support import change, command, create, qname, reason
from hypothesis import given
from hypothesis import strategies as st

from pcfserver import MQIError, QueueManager, mq, open_queue_manager
from pcfserver.codec import Integer, IntegerList, Message, String

L, A, R = mq.MQQT_LOCAL, mq.MQQT_ALIAS, mq.MQQT_REMOTE


@pytest.fixture
def qm() -> QueueManager:
    manager = open_queue_manager()
    manager.execute(create("Q1", L))
    return manager


def fails(reason_code: int) -> pytest.RaisesContext[MQIError]:
    return pytest.raises(MQIError, match=rf"\({reason_code}\)")


def depth(qm: QueueManager, name: str = "Q1") -> int:
    [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q, qname(name), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_CURRENT_Q_DEPTH,))))
    return {p.parameter: getattr(p, "value", None) for p in answer.parameters}[mq.MQIA_CURRENT_Q_DEPTH]  # type: ignore[return-value]


def test_put_then_get_returns_the_body_and_descriptor(qm: QueueManager) -> None:
    with qm.session(appl_name="tester", user="alice") as s:
        put = s.put("Q1", b"hello", correl_id=b"C1", reply_to="REPLY.Q")
        got, body = s.get("Q1")
    assert body == b"hello"
    assert got.msg_id == put.msg_id and len(got.msg_id) == 24 and got.msg_id.startswith(b"AMQ QM1")
    assert got.correl_id == b"C1".ljust(24, b"\0")
    assert (got.reply_to_q, got.reply_to_qmgr) == ("REPLY.Q", "QM1")
    assert got.put_appl_name == "tester" and got.user_identifier == "alice"
    assert len(got.put_date) == 8 and len(got.put_time) == 8
    assert got.persistence == mq.MQPER_NOT_PERSISTENT and got.priority == 0 and got.expiry == -1
    with qm.session() as anonymous:  # a connection that names no user puts as the OS user the server runs as
        anonymous.put("Q1", b"who")
        mine, _ = anonymous.get("Q1")
    assert mine.user_identifier.strip() == getpass.getuser()[:12] != ""
    with qm.session() as s, fails(mq.MQRC_NO_MSG_AVAILABLE):
        s.get("Q1")


def test_the_descriptor_a_put_returns_is_a_frozen_message_descriptor(qm: QueueManager) -> None:
    """The descriptor is built by a fast path (engine.messages.descriptor): what an application gets is still the
    frozen dataclass, equal, hashable, copyable and picklable as one made by MessageDescriptor(...)."""
    import dataclasses
    import pickle

    from pcfserver.engine.messages import MessageDescriptor

    with qm.session() as s:
        put = s.put("Q1", b"x", priority=3)
        got, _ = s.get("Q1")
    assert type(put) is MessageDescriptor and type(got) is MessageDescriptor and got == put
    with pytest.raises(dataclasses.FrozenInstanceError):
        put.priority = 4  # type: ignore[misc]
    same = MessageDescriptor(*(getattr(put, f.name) for f in dataclasses.fields(MessageDescriptor)))
    assert same == put and hash(same) == hash(put) and repr(same) == repr(put)
    assert pickle.loads(pickle.dumps(put)) == put and dataclasses.replace(put, priority=7).priority == 7


def test_msg_ids_are_unique_and_a_given_one_is_kept(qm: QueueManager) -> None:
    with qm.session() as s:
        ids = {s.put("Q1", b"x").msg_id for _ in range(200)}
        assert len(ids) == 200
        given = s.put("Q1", b"mine", msg_id=b"MY.ID")
        assert given.msg_id == b"MY.ID".ljust(24, b"\0")
        _md, body = s.get("Q1", msg_id=b"MY.ID")
        assert body == b"mine"


def test_priority_order_with_fifo_within_a_priority(qm: QueueManager) -> None:
    with qm.session() as s:
        for body, priority in ((b"low1", 1), (b"high1", 8), (b"low2", 1), (b"high2", 8), (b"mid", 5)):
            s.put("Q1", body, priority=priority)
        assert [s.get("Q1")[1] for _ in range(5)] == [b"high1", b"high2", b"mid", b"low1", b"low2"]


def test_fifo_queue_keeps_arrival_order_and_the_order_is_fixed_on_arrival(qm: QueueManager) -> None:
    qm.execute(create("FIFO", L, Integer(mq.MQIA_MSG_DELIVERY_SEQUENCE, mq.MQMDS_FIFO)))
    with qm.session() as s:
        for body, priority in ((b"a", 1), (b"b", 9), (b"c", 4)):
            s.put("FIFO", body, priority=priority)
        qm.execute(change("FIFO", L, Integer(mq.MQIA_MSG_DELIVERY_SEQUENCE, mq.MQMDS_PRIORITY)))
        s.put("FIFO", b"d", priority=9)  # arrives under PRIORITY: ahead of the default-priority level
        got = [s.get("FIFO") for _ in range(4)]
    assert [b for _, b in got] == [b"d", b"a", b"b", b"c"]
    assert [md.priority for md, _ in got] == [9, 1, 9, 4]  # the descriptor keeps the priority given


def test_get_by_correl_id_and_msg_id(qm: QueueManager) -> None:
    with qm.session() as s:
        s.put("Q1", b"one", correl_id="A")
        two = s.put("Q1", b"two", correl_id="B")
        s.put("Q1", b"three", correl_id="B")
        assert s.get("Q1", correl_id="B")[1] == b"two"
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            s.get("Q1", msg_id=two.msg_id)
        assert s.get("Q1", correl_id="B")[1] == b"three"
        assert s.get("Q1")[1] == b"one"


def test_browse_walks_a_cursor_and_removes_nothing(qm: QueueManager) -> None:
    with qm.session() as s:
        for i in range(3):
            s.put("Q1", f"m{i}".encode())
        assert [s.get("Q1", browse=True)[1] for _ in range(3)] == [b"m0", b"m1", b"m2"]
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            s.get("Q1", browse=True)
        s.put("Q1", b"m3")
        assert s.get("Q1", browse=True)[1] == b"m3"  # the cursor continues with new arrivals
    with qm.session() as other:
        assert other.get("Q1", browse=True)[1] == b"m0"  # each session has its own cursor
    assert depth(qm) == 4


def test_put_checks_answer_ibms_reasons(qm: QueueManager) -> None:
    qm.execute(create("SMALL", L, Integer(mq.MQIA_MAX_MSG_LENGTH, 10), Integer(mq.MQIA_MAX_Q_DEPTH, 1)))
    qm.execute(create("NOPUT", L, Integer(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_INHIBITED)))
    with qm.session() as s:
        with fails(mq.MQRC_UNKNOWN_OBJECT_NAME):
            s.put("NOSUCH", b"x")
        with fails(mq.MQRC_PUT_INHIBITED):
            s.put("NOPUT", b"x")
        with fails(mq.MQRC_MSG_TOO_BIG_FOR_Q):
            s.put("SMALL", b"x" * 11)
        with fails(mq.MQRC_MSG_TOO_BIG_FOR_Q):
            s.put("Q1", b"x" * (4 * 1024 * 1024 + 1))  # both limits: the queue's reason (formats/messaging-rules.tsv)
        qm.execute(change("Q1", L, Integer(mq.MQIA_MAX_MSG_LENGTH, 104857600)))
        with fails(mq.MQRC_MSG_TOO_BIG_FOR_Q_MGR):
            s.put("Q1", b"x" * (4 * 1024 * 1024 + 1))
        with fails(mq.MQRC_PRIORITY_ERROR):
            s.put("Q1", b"x", priority=-2)
        with fails(mq.MQRC_EXPIRY_ERROR):
            s.put("Q1", b"x", expiry=0)
        s.put("SMALL", b"ok")
        with fails(mq.MQRC_Q_FULL):
            s.put("SMALL", b"full")
        md = s.put("Q1", b"urgent", priority=12)
        assert md.priority == 12 and s.last_reason == mq.MQRC_PRIORITY_EXCEEDS_MAXIMUM
        s.put("Q1", b"normal", priority=9)
        assert s.get("Q1")[1] == b"urgent"  # queued at MaxPriority, ahead of a later 9
    assert depth(qm, "SMALL") == 1


def test_defaults_come_from_the_first_definition_of_the_path(qm: QueueManager) -> None:
    qm.execute(create("BASE", L, Integer(mq.MQIA_DEF_PRIORITY, 2), Integer(mq.MQIA_DEF_PERSISTENCE, 0)))
    qm.execute(create("ALIAS", A, String(mq.MQCA_BASE_OBJECT_NAME, "BASE"), Integer(mq.MQIA_DEF_PRIORITY, 7), Integer(mq.MQIA_DEF_PERSISTENCE, 1)))
    with qm.session() as s:
        md = s.put("ALIAS", b"via alias")
        assert (md.priority, md.persistence) == (7, mq.MQPER_PERSISTENT)
        md = s.put("BASE", b"direct")
        assert (md.priority, md.persistence) == (2, mq.MQPER_NOT_PERSISTENT)
        assert s.get("ALIAS")[1] == b"via alias"
    assert depth(qm, "BASE") == 1


def test_inhibit_on_any_definition_of_the_path(qm: QueueManager) -> None:
    qm.execute(create("ALIAS", A, String(mq.MQCA_BASE_OBJECT_NAME, "Q1"), Integer(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_INHIBITED)))
    qm.execute(create("BROKEN", A, String(mq.MQCA_BASE_OBJECT_NAME, "MISSING")))
    with qm.session() as s:
        s.put("ALIAS", b"x")
        with fails(mq.MQRC_GET_INHIBITED):
            s.get("ALIAS")
        with fails(mq.MQRC_GET_INHIBITED):
            s.get("ALIAS", browse=True)
        with fails(mq.MQRC_UNKNOWN_ALIAS_BASE_Q):
            s.put("BROKEN", b"x")
        qm.execute(change("Q1", L, Integer(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_INHIBITED)))
        with fails(mq.MQRC_PUT_INHIBITED):
            s.put("ALIAS", b"x")
        with fails(mq.MQRC_UNKNOWN_REMOTE_Q_MGR):
            s.put("SYSTEM.DEFAULT.REMOTE.QUEUE", b"x")
        assert s.get("Q1")[1] == b"x"


def test_expired_messages_are_discarded_never_returned(qm: QueueManager) -> None:
    clock = [1000.0]
    qm.engine.messaging.clock = lambda: clock[0]
    with qm.session() as s:
        s.put("Q1", b"short", expiry=5)  # half a second
        s.put("Q1", b"long", expiry=100)
        assert depth(qm) == 2
        clock[0] += 1
        md, body = s.get("Q1", browse=True)
        assert body == b"long" and md.expiry == 90  # the time left, in tenths
        assert depth(qm) == 1  # the expired one went when a browse would have returned it
        assert s.get("Q1")[1] == b"long"


def test_units_of_work_hide_puts_until_commit_and_backout_restores_gets(qm: QueueManager) -> None:
    with qm.session() as writer, qm.session() as reader:
        writer.put("Q1", b"pending", syncpoint=True)
        assert depth(qm) == 1  # uncommitted puts count in the depth
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            reader.get("Q1")
        writer.commit()
        md, body = reader.get("Q1", syncpoint=True)
        assert depth(qm) == 0  # uncommitted gets are already subtracted
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            writer.get("Q1")
        reader.backout()
        md, body = writer.get("Q1")
        assert body == b"pending" and md.backout_count == 1
        writer.put("Q1", b"dropped", syncpoint=True)
        writer.backout()
        assert depth(qm) == 0


def test_a_session_that_ends_without_commit_is_backed_out(qm: QueueManager) -> None:
    with qm.session() as s:
        s.put("Q1", b"kept")
    with qm.session() as s:
        s.get("Q1", syncpoint=True)
        s.put("Q1", b"lost", syncpoint=True)
    with qm.session() as s:
        md, body = s.get("Q1")
        assert body == b"kept" and md.backout_count == 1
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            s.get("Q1")


def test_max_uncommitted_msgs_fails_the_call_that_would_exceed_it(qm: QueueManager) -> None:
    assert reason(qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 3)))) == 0
    with qm.session() as s:
        for i in range(3):
            s.put("Q1", f"{i}".encode(), syncpoint=True)
        with fails(mq.MQRC_SYNCPOINT_LIMIT_REACHED):
            s.put("Q1", b"fourth", syncpoint=True)
        s.put("Q1", b"outside", syncpoint=False)  # not counted
        s.commit()  # the unit stayed usable
        assert depth(qm) == 4
        for _ in range(3):
            s.get("Q1", syncpoint=True)
        with fails(mq.MQRC_SYNCPOINT_LIMIT_REACHED):
            s.get("Q1", syncpoint=True)
        s.backout()
        for _ in range(3):
            s.get("Q1", syncpoint=True)  # the count restarted with the new unit of work
        s.commit()
    assert depth(qm) == 1


def test_a_waiting_get_is_woken_by_a_put_from_another_thread(qm: QueueManager) -> None:
    result: list[bytes] = []

    def reader() -> None:
        with qm.session() as s:
            result.append(s.get("Q1", wait=5)[1])

    thread = threading.Thread(target=reader)
    thread.start()
    deadline = time.monotonic() + 5
    while qm.engine.messaging.status("Q1")[1] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)  # the waiting get holds the queue open for input
    assert qm.engine.messaging.status("Q1")[1] == 1
    with qm.session() as s:
        s.put("Q1", b"wake up")
    thread.join(5)
    assert result == [b"wake up"]
    assert qm.engine.messaging.status("Q1")[1] == 0
    with qm.session() as s:
        started = time.monotonic()
        with fails(mq.MQRC_NO_MSG_AVAILABLE):
            s.get("Q1", wait=0.2)
        assert time.monotonic() - started >= 0.2


def test_open_handles_are_counted_and_block_clear(qm: QueueManager) -> None:
    with qm.session() as s:
        handle = s.open("Q1", input=True, output=True)
        [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q, qname("Q1")))
        values = {p.parameter: getattr(p, "value", None) for p in answer.parameters}
        assert values[mq.MQIA_OPEN_INPUT_COUNT] == 1 and values[mq.MQIA_OPEN_OUTPUT_COUNT] == 1
        assert reason(qm.execute(command(mq.MQCMD_CLEAR_Q, qname("Q1")))) == mq.MQRCCF_OBJECT_OPEN
        s.close(handle)
    assert reason(qm.execute(command(mq.MQCMD_CLEAR_Q, qname("Q1")))) == 0


def test_closed_session_and_queue_manager_refuse_calls() -> None:
    qm = open_queue_manager()
    with qm.session() as s:
        pass
    with fails(mq.MQRC_HCONN_ERROR):
        s.put("SYSTEM.DEFAULT.LOCAL.QUEUE", b"x")
    qm.close()
    with fails(mq.MQRC_CONNECTION_BROKEN):
        qm.execute(Message(mq.MQCMD_PING_Q_MGR, ()))


@given(st.lists(st.floats(min_value=1_700_000_000, max_value=1_700_000_004), min_size=1, max_size=40))
def test_put_date_and_time_are_the_gmt_of_the_clock_whatever_came_before(clocks: list[float]) -> None:
    """PutDate and PutTime (YYYYMMDD, HHMMSSTH in GMT) as the clock reads, in any order of calls: the formatter
    keeps its last hundredth of a second and its last second's table (engine.messaging._gmt)."""
    from pcfserver.engine.messaging import _gmt

    def reference(now: float) -> tuple[str, str]:
        second = int(now)
        t = time.gmtime(second)
        return time.strftime("%Y%m%d", t), time.strftime("%H%M%S", t) + f"{int((now - second) * 100):02d}"

    for now in clocks:
        # (a clock within a nanosecond of a hundredth's edge may be read on either side of it)
        assert _gmt(now) in {reference(now - 1e-9), reference(now), reference(now + 1e-9)}


def test_an_embedded_call_that_fails_raises_its_reason_and_a_bug_changes_nothing() -> None:
    """execute_operation: an MQI failure is raised as it is, after what the call did before it is made durable; an
    unexpected exception undoes the whole call and is MQRC_UNEXPECTED_ERROR; the queue manager goes on either way."""
    with open_queue_manager() as qm:
        engine = qm.engine
        layer = engine.messaging
        session = layer.open_session("test")
        engine.execute(create("BUG.Q"))

        def put_then_fail() -> None:
            layer.put(session, "BUG.Q", b"kept")
            raise MQIError(mq.MQRC_Q_FULL)

        def put_then_crash() -> None:
            layer.put(session, "BUG.Q", b"undone")
            raise RuntimeError("a bug")

        with pytest.raises(MQIError) as failed:
            engine.execute_operation(put_then_fail)
        assert failed.value.reason == mq.MQRC_Q_FULL
        with pytest.raises(MQIError) as crashed:
            engine.execute_operation(put_then_crash)
        assert crashed.value.reason == mq.MQRC_UNEXPECTED_ERROR
        with qm.session() as s:
            assert s.get("BUG.Q")[1] == b"kept"
            with pytest.raises(MQIError) as empty:
                s.get("BUG.Q")
            assert empty.value.reason == mq.MQRC_NO_MSG_AVAILABLE
