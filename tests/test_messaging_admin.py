"""Admin commands that act on messages: Move Queue, Inquire Queue Status, Reset Queue Statistics,
and what puts cause: trigger messages and queue depth events (decoded with the project's codec)."""

from __future__ import annotations

import struct
import time

import pytest
from engine_support import change, command, create, error_parameter, qname, reason

from pcfserver import MQIError, QueueManager, decode, mq, open_queue_manager
from pcfserver.codec import Integer, IntegerList, Message, String

L = mq.MQQT_LOCAL


def S(pid: int, value: str) -> String:
    return String(pid, value)


def values(message: Message) -> dict[int, object]:
    return {p.parameter: getattr(p, "value", getattr(p, "values", None)) for p in message.parameters}


def move(qm: QueueManager, source: str, target: str, move_type: int | None = None) -> list[Message]:
    params = [S(mq.MQCACF_FROM_Q_NAME, source), S(mq.MQCACF_TO_Q_NAME, target)]
    if move_type is not None:
        params.append(Integer(mq.MQIACF_MOVE_TYPE, move_type))
    return qm.execute(command(mq.MQCMD_MOVE_Q, *params))


def fill(qm: QueueManager, queue: str, count: int, **options: object) -> None:
    with qm.session() as s:
        for i in range(count):
            s.put(queue, f"{queue}-{i}".encode(), **options)  # type: ignore[arg-type]


def drain(qm: QueueManager, queue: str) -> list[bytes]:
    out = []
    with qm.session() as s:
        while True:
            try:
                out.append(s.get(queue)[1])
            except MQIError:
                return out


def depth(qm: QueueManager, name: str) -> int:
    [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname(name)))
    value = values(answer)[mq.MQIA_CURRENT_Q_DEPTH]
    assert isinstance(value, int)
    return value


@pytest.fixture
def qm() -> QueueManager:
    manager = open_queue_manager()
    for name in ("SRC", "DST"):
        manager.execute(create(name, L))
    return manager


# ---------------------------------------------------------------------------- MOVE QLOCAL


def test_move_moves_everything_keeping_order_priority_and_context(qm: QueueManager) -> None:
    with qm.session(appl_name="producer") as s:
        s.put("SRC", b"low", priority=1, correl_id=b"C")
        s.put("SRC", b"high", priority=8, persistent=True)
    [answer] = move(qm, "SRC", "DST")
    assert answer.reason == 0 and values(answer)[mq.MQIACF_MOVE_COUNT] == 2
    assert depth(qm, "SRC") == 0 and depth(qm, "DST") == 2
    with qm.session() as s:
        first, body1 = s.get("DST")
        second, body2 = s.get("DST")
    assert (body1, body2) == (b"high", b"low")
    assert first.persistence == mq.MQPER_PERSISTENT and first.put_appl_name == "producer"
    assert second.correl_id.startswith(b"C") and second.priority == 1


@pytest.mark.parametrize(
    ("setup", "source", "target", "expected"),
    [
        ((), "NOSUCH", "DST", mq.MQRC_UNKNOWN_OBJECT_NAME),
        ((), "SRC", "NOSUCH", mq.MQRC_UNKNOWN_OBJECT_NAME),
        ((), "SYSTEM.DEFAULT.ALIAS.QUEUE", "DST", mq.MQRCCF_Q_WRONG_TYPE),
        ((), "SRC", "SRC", mq.MQRCCF_PARM_CONFLICT),
        ((change("DST", L, Integer(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION)),), "SRC", "DST", mq.MQRCCF_Q_ATTR_CONFLICT),
        # (both queues start HARDENBO, as SYSTEM.DEFAULT.LOCAL.QUEUE is: the target differs by NOHARDENBO)
        ((change("DST", L, Integer(mq.MQIA_HARDEN_GET_BACKOUT, mq.MQQA_BACKOUT_NOT_HARDENED)),), "SRC", "DST", mq.MQRCCF_Q_ATTR_CONFLICT),
    ],
)
def test_move_rules_answer_their_reasons(qm: QueueManager, setup: tuple[Message, ...], source: str, target: str, expected: int) -> None:
    for step in setup:
        assert reason(qm.execute(step)) == 0
    fill(qm, "SRC", 2)
    assert reason(move(qm, source, target)) == expected
    assert depth(qm, "SRC") == 2  # nothing moved


def test_move_refuses_uncommitted_source_open_queues_and_a_non_empty_target(qm: QueueManager) -> None:
    fill(qm, "SRC", 2)
    with qm.session() as s:
        s.put("SRC", b"pending", syncpoint=True)
        assert reason(move(qm, "SRC", "DST")) == mq.MQRC_Q_NOT_EMPTY
        s.backout()
        handle = s.open("DST", output=True)
        assert reason(move(qm, "SRC", "DST")) == mq.MQRCCF_OBJECT_OPEN
        s.close(handle)
        handle = s.open("SRC", input=True)
        assert reason(move(qm, "SRC", "DST")) == mq.MQRCCF_OBJECT_OPEN
        s.close(handle)
    fill(qm, "DST", 1)
    assert reason(move(qm, "SRC", "DST")) == mq.MQRC_Q_NOT_EMPTY
    [answer] = move(qm, "SRC", "DST", mq.MQIACF_MOVE_TYPE_ADD)
    assert values(answer)[mq.MQIACF_MOVE_COUNT] == 2
    assert drain(qm, "DST") == [b"DST-0", b"SRC-0", b"SRC-1"]


def test_move_depth_precheck_moves_nothing(qm: QueueManager) -> None:
    qm.execute(change("DST", L, Integer(mq.MQIA_MAX_Q_DEPTH, 3)))
    fill(qm, "SRC", 2)
    fill(qm, "DST", 2)
    assert reason(move(qm, "SRC", "DST", mq.MQIACF_MOVE_TYPE_ADD)) == mq.MQRC_Q_FULL
    assert depth(qm, "SRC") == 2 and depth(qm, "DST") == 2


def test_a_partial_move_keeps_the_batches_already_committed(qm: QueueManager) -> None:
    qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 3)))
    qm.execute(change("SRC", L, Integer(mq.MQIA_MAX_MSG_LENGTH, 104857600)))
    qm.execute(change("DST", L, Integer(mq.MQIA_MAX_MSG_LENGTH, 100)))
    with qm.session() as s:
        for i in range(7):
            s.put("SRC", f"m{i}".encode())
        s.put("SRC", b"x" * 101)  # the 8th message is too long for the target
        s.put("SRC", b"m8")
    answer = move(qm, "SRC", "DST")
    assert reason(answer) == mq.MQRC_MSG_TOO_BIG_FOR_Q
    assert error_parameter(answer) == (mq.MQIACF_MOVE_COUNT, 6)  # two batches of three committed, the third undone
    assert answer[-1].reason == mq.MQRCCF_COMMAND_FAILED
    assert drain(qm, "DST") == [f"m{i}".encode() for i in range(6)]
    assert drain(qm, "SRC") == [b"m6", b"x" * 101, b"m8"]


def test_move_batches_never_exceed_max_uncommitted_msgs(qm: QueueManager) -> None:
    qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 4)))
    layer = qm.engine.messaging
    sizes: list[int] = []
    commit = layer.commit

    def watched(session: object) -> None:
        sizes.append(session.uow.count)  # type: ignore[attr-defined]
        commit(session)  # type: ignore[arg-type]

    layer.commit = watched  # type: ignore[method-assign]
    fill(qm, "SRC", 10)
    [answer] = move(qm, "SRC", "DST")
    assert values(answer)[mq.MQIACF_MOVE_COUNT] == 10
    assert sizes == [4, 4, 2]


def test_expired_messages_move_and_keep_counting_down(qm: QueueManager) -> None:
    clock = [500.0]
    qm.engine.messaging.clock = lambda: clock[0]
    fill(qm, "SRC", 1, expiry=50)
    clock[0] += 10  # expired on the source
    [answer] = move(qm, "SRC", "DST")
    assert values(answer)[mq.MQIACF_MOVE_COUNT] == 1
    assert depth(qm, "DST") == 1
    assert drain(qm, "DST") == []  # still expired on the target: discarded by the get


# ---------------------------------------------------------------------------- status


def test_inquire_queue_status_reports_real_depth_handles_and_uncommitted(qm: QueueManager) -> None:
    with qm.session() as s:
        s.put("SRC", b"a")
        s.put("SRC", b"b", syncpoint=True)
        handle = s.open("SRC", input=True)
        [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("SRC")))
        v = values(answer)
        assert v[mq.MQCA_Q_NAME] == "SRC".ljust(48)
        assert v[mq.MQIACF_Q_STATUS_TYPE] == mq.MQIACF_Q_STATUS
        assert (v[mq.MQIA_CURRENT_Q_DEPTH], v[mq.MQIA_OPEN_INPUT_COUNT], v[mq.MQIACF_UNCOMMITTED_MSGS]) == (2, 1, 1)
        assert str(v[mq.MQCACF_LAST_PUT_DATE]).strip() and not str(v[mq.MQCACF_LAST_GET_DATE]).strip()
        assert v[mq.MQIACF_OLDEST_MSG_AGE] == -1  # monitoring off
        handles = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("SRC"), Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE)))
        assert [values(h)[mq.MQIACF_OPEN_INPUT_TYPE] for h in handles] == [mq.MQQSO_SHARED]
        s.close(handle)
    selected = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("S*"), IntegerList(mq.MQIACF_Q_STATUS_ATTRS, (mq.MQIA_CURRENT_Q_DEPTH,))))
    assert [values(m)[mq.MQCA_Q_NAME] for m in selected][:1] == ["SRC".ljust(48)]
    assert set(values(selected[0])) == {mq.MQCA_Q_NAME, mq.MQIACF_Q_STATUS_TYPE, mq.MQIA_CURRENT_Q_DEPTH}
    assert reason(qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("SYSTEM.DEFAULT.ALIAS.QUEUE")))) == mq.MQRCCF_Q_WRONG_TYPE
    assert reason(qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("NOSUCH")))) == mq.MQRC_UNKNOWN_OBJECT_NAME


def test_queue_status_reports_the_monitoring_level_in_effect_and_the_time_on_queue(qm: QueueManager) -> None:
    """MONQ(QMGR) takes the queue manager's MONQ; the queue manager's MONQ(NONE) turns monitoring off for every queue;
    the status shows the level in effect, and the oldest message's age and QTIME only while monitoring is on.  QTIME
    averages the time messages spent on the queue, measured by destructive gets while monitoring is on."""

    def status() -> tuple[object, object, object]:
        [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("SRC")))
        v = values(answer)
        return v[mq.MQIA_MONITORING_Q], v[mq.MQIACF_OLDEST_MSG_AGE], v[mq.MQIACF_Q_TIME_INDICATOR]

    def set_qmgr(level: int) -> None:
        assert reason(qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MONITORING_Q, level)))) == 0

    fill(qm, "SRC", 3)
    with qm.session() as s:
        s.get("SRC")  # monitoring off: not measured
    assert status() == (mq.MQMON_OFF, -1, (-1, -1))  # the queue manager's default MONQ(OFF)
    set_qmgr(mq.MQMON_MEDIUM)
    level, age, qtime = status()
    assert level == mq.MQMON_MEDIUM and isinstance(age, int) and age >= 0 and qtime == (-1, -1)  # nothing measured yet
    time.sleep(0.05)
    with qm.session() as s:
        s.get("SRC")
    short, long = status()[2]  # type: ignore[misc]
    assert short == long and 50_000 <= short < 10_000_000, (short, long)  # microseconds, the first measurement both
    with qm.session() as s:
        s.get("SRC")
    short, long = status()[2]  # type: ignore[misc]
    assert 50_000 <= long <= short < 10_000_000, (short, long)  # the later (longer) time weighs more in the short term
    assert reason(qm.execute(change("SRC", mq.MQQT_LOCAL, Integer(mq.MQIA_MONITORING_Q, mq.MQMON_HIGH)))) == 0
    assert status()[0] == mq.MQMON_HIGH
    set_qmgr(mq.MQMON_NONE)
    assert status() == (mq.MQMON_OFF, -1, (-1, -1))


def test_reset_queue_statistics_reports_then_restarts_the_counts(qm: QueueManager) -> None:
    fill(qm, "SRC", 3)
    drain(qm, "SRC")[:1]
    [answer] = qm.execute(command(mq.MQCMD_RESET_Q_STATS, qname("SRC")))
    v = values(answer)
    assert (v[mq.MQIA_HIGH_Q_DEPTH], v[mq.MQIA_MSG_ENQ_COUNT], v[mq.MQIA_MSG_DEQ_COUNT]) == (3, 3, 3)
    [again] = qm.execute(command(mq.MQCMD_RESET_Q_STATS, qname("SRC")))
    v = values(again)
    assert (v[mq.MQIA_HIGH_Q_DEPTH], v[mq.MQIA_MSG_ENQ_COUNT], v[mq.MQIA_MSG_DEQ_COUNT]) == (0, 0, 0)


# ---------------------------------------------------------------------------- triggers


def define_process(qm: QueueManager, name: str = "APP.PROCESS", **attrs: object) -> None:
    params: list[Integer | String] = [S(mq.MQCA_PROCESS_NAME, name)]
    for pid, value in ((mq.MQIA_APPL_TYPE, attrs.get("appl_type", mq.MQAT_UNIX)), (mq.MQCA_APPL_ID, attrs.get("appl_id", "/opt/app/bin/serve"))):
        params.append(Integer(pid, value) if isinstance(value, int) else S(pid, str(value)))
    params += [S(mq.MQCA_ENV_DATA, str(attrs.get("env_data", "LANG=C"))), S(mq.MQCA_USER_DATA, str(attrs.get("user_data", "POOL=2")))]
    assert reason(qm.execute(command(mq.MQCMD_CREATE_PROCESS, *params, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)))) == 0


def trigger_queue(qm: QueueManager, trigger_type: int, **extra: int) -> None:
    define_process(qm)
    params = [
        Integer(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_ON),
        Integer(mq.MQIA_TRIGGER_TYPE, trigger_type),
        String(mq.MQCA_INITIATION_Q_NAME, "SYSTEM.DEFAULT.INITIATION.QUEUE"),
        String(mq.MQCA_TRIGGER_DATA, "start the app"),
        String(mq.MQCA_PROCESS_NAME, "APP.PROCESS"),
    ]
    params += [Integer(pid, value) for pid, value in ((mq.MQIA_TRIGGER_DEPTH, extra.get("depth", 1)), (mq.MQIA_TRIGGER_MSG_PRIORITY, extra.get("priority", 0)))]
    assert reason(qm.execute(create("APP.Q", L, *params))) == 0


def trigger_messages(qm: QueueManager) -> list[bytes]:
    return drain(qm, "SYSTEM.DEFAULT.INITIATION.QUEUE")


def test_trigger_first_fires_when_the_queue_was_empty(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_FIRST)
    fill(qm, "APP.Q", 3)
    [tm] = trigger_messages(qm)
    assert len(tm) == mq.MQTM_LENGTH_1 and tm[:4] == b"TM  " and struct.unpack("<i", tm[4:8]) == (1,)
    assert tm[8:56].rstrip() == b"APP.Q" and tm[56:104].rstrip() == b"APP.PROCESS" and tm[104:168].rstrip() == b"start the app"
    # ApplType, ApplId, EnvData and UserData come from the process definition
    assert struct.unpack("<i", tm[168:172]) == (mq.MQAT_UNIX,)
    assert (tm[172:428].rstrip(), tm[428:556].rstrip(), tm[556:684].rstrip()) == (b"/opt/app/bin/serve", b"LANG=C", b"POOL=2")
    drain(qm, "APP.Q")
    fill(qm, "APP.Q", 1)
    assert len(trigger_messages(qm)) == 1  # empty again: fires again


def test_trigger_every_depth_and_priority(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_EVERY, priority=5)
    fill(qm, "APP.Q", 2, priority=4)
    fill(qm, "APP.Q", 3, priority=5)
    assert len(trigger_messages(qm)) == 3
    qm.execute(change("APP.Q", L, Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_DEPTH), Integer(mq.MQIA_TRIGGER_DEPTH, 8), Integer(mq.MQIA_TRIGGER_MSG_PRIORITY, 0)))
    fill(qm, "APP.Q", 2)
    assert trigger_messages(qm) == []
    fill(qm, "APP.Q", 1)  # the 8th message
    assert len(trigger_messages(qm)) == 1
    [status] = qm.execute(command(mq.MQCMD_INQUIRE_Q, qname("APP.Q"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_TRIGGER_CONTROL,))))
    assert values(status)[mq.MQIA_TRIGGER_CONTROL] == mq.MQTC_OFF  # switched off after a depth trigger


def test_trigger_message_of_a_syncpoint_put_is_part_of_the_unit_of_work(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_FIRST)
    qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 2)))
    with qm.session() as s:
        s.put("APP.Q", b"one", syncpoint=True)  # counts two: the message and its trigger message
        assert depth(qm, "SYSTEM.DEFAULT.INITIATION.QUEUE") == 1
        with qm.session() as other, pytest.raises(MQIError):
            other.get("SYSTEM.DEFAULT.INITIATION.QUEUE")
        with pytest.raises(MQIError, match="2024"):
            s.put("SRC", b"over the limit", syncpoint=True)
        s.backout()
    assert trigger_messages(qm) == []


def test_no_trigger_message_without_its_process_definition(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_EVERY)
    assert reason(qm.execute(command(mq.MQCMD_DELETE_PROCESS, S(mq.MQCA_PROCESS_NAME, "APP.PROCESS")))) == 0
    fill(qm, "APP.Q", 2)
    assert trigger_messages(qm) == []  # the process must exist when the trigger event occurs
    define_process(qm, appl_id="/opt/app/bin/again")
    fill(qm, "APP.Q", 1)
    [tm] = trigger_messages(qm)
    assert tm[172:428].rstrip() == b"/opt/app/bin/again"


def test_a_changed_process_shows_in_the_next_trigger_message(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_EVERY)
    fill(qm, "APP.Q", 1)
    qm.execute(command(mq.MQCMD_CHANGE_PROCESS, S(mq.MQCA_PROCESS_NAME, "APP.PROCESS"), S(mq.MQCA_USER_DATA, "POOL=9"), Integer(mq.MQIA_APPL_TYPE, 65536)))
    fill(qm, "APP.Q", 1)
    first, second = trigger_messages(qm)
    assert first[556:684].rstrip() == b"POOL=2" and second[556:684].rstrip() == b"POOL=9"
    assert struct.unpack("<i", second[168:172]) == (65536,)


def test_a_transmission_queue_triggers_without_a_process(qm: QueueManager) -> None:
    params = (
        Integer(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION),
        Integer(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_ON),
        Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_FIRST),
        S(mq.MQCA_INITIATION_Q_NAME, "SYSTEM.DEFAULT.INITIATION.QUEUE"),
        S(mq.MQCA_TRIGGER_DATA, "TO.REMOTE"),
    )
    assert reason(qm.execute(create("XMIT.Q", L, *params))) == 0
    fill(qm, "XMIT.Q", 1)
    [tm] = trigger_messages(qm)
    assert tm[56:104].strip() == b"" and tm[104:168].rstrip() == b"TO.REMOTE" and struct.unpack("<i", tm[168:172]) == (0,)


def test_no_trigger_while_a_reader_has_the_queue_open(qm: QueueManager) -> None:
    trigger_queue(qm, mq.MQTT_FIRST)
    with qm.session() as s:
        handle = s.open("APP.Q", input=True)
        fill(qm, "APP.Q", 1)
        s.close(handle)
    assert trigger_messages(qm) == []


# ---------------------------------------------------------------------------- events


def perf_events(qm: QueueManager) -> list[Message]:
    return [decode(body)[0] for body in drain(qm, "SYSTEM.ADMIN.PERFM.EVENT")]


def test_depth_events_go_to_the_event_queue_as_pcf(qm: QueueManager) -> None:
    qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_PERFORMANCE_EVENT, mq.MQEVR_ENABLED)))
    qm.execute(
        create(
            "EV.Q",
            L,
            Integer(mq.MQIA_MAX_Q_DEPTH, 10),
            Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_ENABLED),
            Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 50),
            Integer(mq.MQIA_Q_DEPTH_LOW_LIMIT, 20),
            Integer(mq.MQIA_Q_DEPTH_MAX_EVENT, mq.MQEVR_ENABLED),
        )
    )
    fill(qm, "EV.Q", 5)
    [high] = perf_events(qm)
    assert (high.type, high.command, high.reason) == (mq.MQCFT_EVENT, mq.MQCMD_PERFM_EVENT, mq.MQRC_Q_DEPTH_HIGH)
    v = values(high)
    assert v[mq.MQCA_BASE_Q_NAME] == "EV.Q".ljust(48) and v[mq.MQIA_HIGH_Q_DEPTH] == 5 and v[mq.MQIA_MSG_ENQ_COUNT] == 5
    fill(qm, "EV.Q", 5)
    with qm.session() as s, pytest.raises(MQIError, match="2053"):
        s.put("EV.Q", b"one too many")
    assert [e.reason for e in perf_events(qm)] == [mq.MQRC_Q_FULL]
    with qm.session() as s:
        for _ in range(8):
            s.get("EV.Q")
    [low] = perf_events(qm)
    assert low.reason == mq.MQRC_Q_DEPTH_LOW
    [switches] = qm.execute(command(mq.MQCMD_INQUIRE_Q, qname("EV.Q")))
    v = values(switches)
    assert (v[mq.MQIA_Q_DEPTH_HIGH_EVENT], v[mq.MQIA_Q_DEPTH_LOW_EVENT]) == (mq.MQEVR_ENABLED, mq.MQEVR_DISABLED)


def test_no_events_unless_the_queue_manager_enables_them(qm: QueueManager) -> None:
    qm.execute(create("EV.Q", L, Integer(mq.MQIA_MAX_Q_DEPTH, 2), Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_ENABLED)))
    fill(qm, "EV.Q", 2)
    assert perf_events(qm) == []


def test_crossing_the_depth_high_limit_logs_a_warning_once(qm: QueueManager, caplog: pytest.LogCaptureFixture) -> None:
    """TPF's QDEPTHHI: a warning on the server's console (its log) when the depth reaches the limit."""
    qm.execute(create("WATCH.Q", L, Integer(mq.MQIA_MAX_Q_DEPTH, 10), Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 30), Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_ENABLED)))
    with caplog.at_level("WARNING", logger="pcfserver.messages"):
        fill(qm, "WATCH.Q", 5)
    warnings = [r.getMessage() for r in caplog.records if r.name == "pcfserver.messages"]
    assert warnings == ["queue WATCH.Q depth 3 reached its high limit (30% of MAXDEPTH)"]
    assert perf_events(qm) == []  # PERFMEV is off: no event message
