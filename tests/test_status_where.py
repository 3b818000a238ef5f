"""WHERE on the status inquiries: DISPLAY QSTATUS / SBSTATUS / TPSTATUS / CONN ... WHERE(...) in MQSC, and one
MQCFIF/MQCFSF filter on PCF Inquire Queue / Subscription / Topic Status and Inquire Connection (pcfserver/engine/
status_filter.py): the instances shown are those whose field passes, even a field the inquiry was not asked to show."""

from __future__ import annotations

import re
from typing import Any

from engine_support import mqsc_output as run
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq, open_queue_manager
from pcfserver.codec import IntegerFilter, IntegerList, Message, String, StringFilter
from pcfserver.dialects import run_script
from pcfserver.engine import open_engine
from pcfserver.qmgr import QueueManager

SETUP = """DEFINE QLOCAL(W.EMPTY)
DEFINE QLOCAL(W.ONE)
DEFINE QLOCAL(W.THREE)
DEFINE QLOCAL(W.SUBQ)
DEFINE SUB(W.GOLF) TOPICSTR('w/golf') DEST(W.SUBQ)
DEFINE SUB(W.TENNIS) TOPICSTR('w/tennis') DEST(W.SUBQ)
"""


def loaded(qm: QueueManager) -> None:
    assert run_script(SETUP, qm.engine.execute).exit_code == 0
    with qm.session(appl_name="loader") as s:
        s.put("W.ONE", b"1")
        for body in (b"a", b"b", b"c"):
            s.put("W.THREE", body)
        s.publish("w/golf", b"g1")
        s.publish("w/golf", b"g2")


def shown(lines: list[str], keyword: str) -> list[str]:
    return re.findall(rf"\b{keyword}\(([^)]*)\)", "\n".join(lines))


def inquire(qm: QueueManager, command: int, *params: Any) -> list[Message]:
    return qm.engine.execute(Message(command, tuple(params), version=3))  # filters need MQCFH version 3


def test_display_qstatus_where_keeps_the_queues_whose_depth_passes() -> None:
    with open_queue_manager() as qm:
        loaded(qm)
        assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(CURDEPTH GT 0)"), "QUEUE") == ["W.ONE", "W.SUBQ", "W.THREE"]
        assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(CURDEPTH GE 3)"), "QUEUE") == ["W.THREE"]
        assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(CURDEPTH EQ 0)"), "QUEUE") == ["W.EMPTY"]
        none = run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(CURDEPTH GT 99)")
        assert not shown(none, "QUEUE") and not any("AMQ8405I" in line for line in none)  # no instance, no syntax error


def test_sbstatus_and_tpstatus_where_on_counts() -> None:
    with open_queue_manager() as qm:
        loaded(qm)
        assert shown(run(qm.engine, "DISPLAY SBSTATUS(W.*) WHERE(NUMMSGS GT 0)"), "SUB") == ["W.GOLF"]
        assert shown(run(qm.engine, "DISPLAY SBSTATUS(W.*) WHERE(NUMMSGS EQ 0)"), "SUB") == ["W.TENNIS"]
        assert shown(run(qm.engine, "DISPLAY TPSTATUS('w/#') WHERE(SUBCOUNT GE 1)"), "TOPICSTR") == ["w/golf", "w/tennis"]


def test_a_filter_on_a_field_not_asked_for_still_selects() -> None:
    """PCF Inquire Subscription Status asking for the name only, filtered on the message count."""
    with open_queue_manager() as qm:
        loaded(qm)
        answers = inquire(
            qm, mq.MQCMD_INQUIRE_SUB_STATUS, String(mq.MQCACF_SUB_NAME, "W.*"), IntegerList(mq.MQIACF_SUB_STATUS_ATTRS, (mq.MQCACF_SUB_NAME,)),
            IntegerFilter(mq.MQIACF_MESSAGE_COUNT, mq.MQCFOP_GREATER, 1),
        )
        assert [a.str_value(mq.MQCACF_SUB_NAME).strip() for a in answers] == ["W.GOLF"]
        assert answers[0].get(mq.MQIACF_MESSAGE_COUNT) is None  # not asked for: not shown
        assert [a.control for a in answers] == [mq.MQCFC_LAST] and answers[0].msg_seq_number == 1


def test_string_filters_and_connections() -> None:
    with open_queue_manager() as qm:
        loaded(qm)
        with qm.session(appl_name="watcher"):
            tags = [a.str_value(mq.MQCACF_APPL_TAG).strip() for a in inquire(
                qm, mq.MQCMD_INQUIRE_CONNECTION, StringFilter(mq.MQCACF_APPL_TAG, mq.MQCFOP_LIKE, "watch*"))]
            assert tags == ["watcher"]
            assert shown(run(qm.engine, "DISPLAY CONN(*) ALL WHERE(APPLTAG EQ 'watcher')"), "APPLTAG") == ["watcher"]
        queues = inquire(qm, mq.MQCMD_INQUIRE_Q_STATUS, String(mq.MQCA_Q_NAME, "W.*"), StringFilter(mq.MQCA_Q_NAME, mq.MQCFOP_NOT_LIKE, "W.T*"))
        assert [a.str_value(mq.MQCA_Q_NAME).strip() for a in queues] == ["W.EMPTY", "W.ONE", "W.SUBQ"]


def test_filters_the_status_table_does_not_have_are_refused() -> None:
    with open_queue_manager() as qm:
        loaded(qm)
        # MaxQDepth is a queue attribute, not a queue status field
        wrong = inquire(qm, mq.MQCMD_INQUIRE_Q_STATUS, String(mq.MQCA_Q_NAME, "W.*"), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_EQUAL, 5))
        assert (wrong[0].reason, wrong[0].int_value(mq.MQIACF_PARAMETER_ID)) == (mq.MQRCCF_CFIF_PARM_ID_ERROR, mq.MQIA_MAX_Q_DEPTH)
        two = inquire(
            qm, mq.MQCMD_INQUIRE_Q_STATUS, String(mq.MQCA_Q_NAME, "W.*"),
            IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_EQUAL, 1), IntegerFilter(mq.MQIA_OPEN_INPUT_COUNT, mq.MQCFOP_EQUAL, 0),
        )
        assert two[0].reason == mq.MQRCCF_TOO_MANY_FILTERS
        syntax = run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(MAXDEPTH GT 0)")
        assert any("AMQ8405I" in line for line in syntax)


@settings(max_examples=40, deadline=None)
@given(threshold=st.integers(min_value=-1, max_value=5), operator=st.sampled_from(["LT", "GT", "EQ", "NE", "LE", "GE"]))
def test_where_agrees_with_the_unfiltered_display(threshold: int, operator: str) -> None:
    """Whatever the operator and value, WHERE shows exactly the queues the whole display shows with a passing depth."""
    tests = {"LT": int.__lt__, "GT": int.__gt__, "EQ": int.__eq__, "NE": int.__ne__, "LE": int.__le__, "GE": int.__ge__}
    with open_queue_manager() as qm:
        loaded(qm)
        everything = inquire(qm, mq.MQCMD_INQUIRE_Q_STATUS, String(mq.MQCA_Q_NAME, "W.*"))
        expected = [a.str_value(mq.MQCA_Q_NAME).strip() for a in everything if tests[operator](a.int_value(mq.MQIA_CURRENT_Q_DEPTH), threshold)]
        lines = run(qm.engine, f"DISPLAY QSTATUS(W.*) WHERE(CURDEPTH {operator} {threshold})")
        assert shown(lines, "QUEUE") == expected


def test_display_chstatus_where_status() -> None:
    """Two senders started (retrying: their partner is not there), one stopped: WHERE picks by STATUS."""
    engine = open_engine(None)
    script = """DEFINE QLOCAL(XQ) USAGE(XMITQ)
DEFINE CHANNEL(TO.A) CHLTYPE(SDR) CONNAME('a.example(1414)') XMITQ(XQ)
DEFINE CHANNEL(TO.B) CHLTYPE(SDR) CONNAME('b.example(1414)') XMITQ(XQ)
START CHANNEL(TO.A)
START CHANNEL(TO.B)
STOP CHANNEL(TO.B)
"""
    assert run_script(script, engine.execute).exit_code == 0
    assert shown(run(engine, "DISPLAY CHSTATUS(*) WHERE(STATUS EQ STOPPED)"), "CHANNEL") == ["TO.B"]
    assert shown(run(engine, "DISPLAY CHSTATUS(*) WHERE(STATUS NE STOPPED)"), "CHANNEL") == ["TO.A"]
    assert shown(run(engine, "DISPLAY CHSTATUS(TO.*) WHERE(CONNAME LK 'a.*')"), "CHANNEL") == ["TO.A"]


def test_display_qstatus_type_handle_shows_each_handle_and_filters_on_its_fields() -> None:
    """runmqsc DISPLAY QSTATUS TYPE(HANDLE): one block per open handle with its fields (APPLTAG, INPUT, OUTPUT, ...);
    WHERE and OPENTYPE choose handles by them; a TYPE(QUEUE) answer carries none of them, nor a handle any queue field."""
    with open_queue_manager() as qm:
        loaded(qm)
        with qm.session(appl_name="reader") as reader, qm.session(appl_name="writer") as writer:
            reader.open("W.ONE", input=True)
            writer.open("W.ONE", output=True)
            writer.open("W.THREE", output=True)
            every = run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) ALL")
            assert shown(every, "APPLTAG") == ["reader", "writer", "writer"]
            assert shown(every, "QUEUE") == ["W.ONE", "W.ONE", "W.THREE"]
            assert shown(every, "INPUT") == ["SHARED", "NO", "NO"] and shown(every, "OUTPUT") == ["NO", "YES", "YES"]
            assert shown(every, "HSTATE") == ["INACTIVE"] * 3 and shown(every, "APPLTYPE") == ["USER"] * 3  # no call in progress
            assert not shown(every, "CURDEPTH") and not shown(every, "IPPROCS")

            by_tag = run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) WHERE(APPLTAG EQ 'writer')")
            assert shown(by_tag, "QUEUE") == ["W.ONE", "W.THREE"] and not any("AMQ8405I" in line for line in by_tag)
            assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) WHERE(INPUT EQ SHARED)"), "QUEUE") == ["W.ONE"]
            assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) OPENTYPE(INPUT) APPLTAG"), "APPLTAG") == ["reader"]
            assert shown(run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) OPENTYPE(OUTPUT) APPLTAG"), "APPLTAG") == ["writer", "writer"]
            chosen = run(qm.engine, "DISPLAY QSTATUS(W.ONE) TYPE(HANDLE) APPLTAG")
            assert shown(chosen, "APPLTAG") == ["reader", "writer"] and not shown(chosen, "INPUT")

            queues = run(qm.engine, "DISPLAY QSTATUS(W.ONE) TYPE(QUEUE) ALL")
            assert shown(queues, "IPPROCS") == ["1"] and shown(queues, "OPPROCS") == ["1"]
            assert not shown(queues, "APPLTAG") and not shown(queues, "INPUT")
        after = run(qm.engine, "DISPLAY QSTATUS(W.*) TYPE(HANDLE) ALL")
        assert not shown(after, "APPLTAG")  # the sessions ended: their handles closed


def test_where_shows_the_attribute_it_tests_as_runmqsc_does() -> None:
    """Published health-check scripts run ``dis ql(*) where(curdepth gt 0)`` and grep QUEUE and CURDEPTH from what
    runmqsc prints: the attribute WHERE tests is shown with those asked for (once), on objects and on status."""
    with open_queue_manager() as qm:
        loaded(qm)
        out = run(qm.engine, "dis ql(W.*) where(curdepth gt 0)")
        assert shown(out, "QUEUE") == ["W.ONE", "W.SUBQ", "W.THREE"]
        assert shown(out, "CURDEPTH") == ["1", "2", "3"]
        assert shown(out, "MAXDEPTH") == []  # nothing else joins
        both = run(qm.engine, "DIS QL(W.*) USAGE WHERE(CURDEPTH GE 2)")
        assert (shown(both, "CURDEPTH"), shown(both, "USAGE")) == (["2", "3"], ["NORMAL", "NORMAL"])
        named = run(qm.engine, "DIS QL(W.*) CURDEPTH WHERE(CURDEPTH GT 2)")
        assert "\n".join(named).count("CURDEPTH(") == 1
        status = run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(IPPROCS EQ 0)")
        assert shown(status, "IPPROCS") == ["0", "0", "0", "0"]
        channels = run(qm.engine, "DISPLAY CHANNEL(SYSTEM.DEF.S*) WHERE(MAXMSGL GT 0)")
        assert shown(channels, "CHANNEL") == ["SYSTEM.DEF.SENDER", "SYSTEM.DEF.SERVER", "SYSTEM.DEF.SVRCONN"]
        assert shown(channels, "MAXMSGL") == ["4194304"] * 3
        assert shown(channels, "CHLTYPE") == ["SDR", "SVR", "SVRCONN"]
        records = run(qm.engine, "DIS CHLAUTH(*) WHERE(DESCR LK 'Default rule to allow*')")
        assert shown(records, "CHLAUTH") == ["SYSTEM.ADMIN.SVRCONN"]
        assert shown(records, "DESCR") == ["Default rule to allow MQ Explorer access"]


def test_when_no_instance_passes_the_status_inquiry_says_none_found_or_answers_no_data() -> None:
    """kafka-connect-mq-source counts a channel's connections with DISPLAY CONN(*) WHERE(CHANNEL EQ ...) over runCommand
    and reads 2/3008 as none: with connections present but none passing, the connection, channel, listener and service
    status inquiries answer their own "none found" (as with no instance at all); the queue, subscription and topic
    status inquiries, whose not-found reasons would name an object that exists, answer a success without data."""
    with open_queue_manager() as qm:
        loaded(qm)
        assert run_script("DEFINE CHANNEL(TO.A) CHLTYPE(SDR) CONNAME('a.example(1414)') XMITQ(W.SUBQ)\nSTART CHANNEL(TO.A)\n"
                          "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(0)\n", qm.engine.execute).exit_code == 0
        with qm.session(appl_name="watcher"):
            conn = inquire(qm, mq.MQCMD_INQUIRE_CONNECTION, StringFilter(mq.MQCACH_CHANNEL_NAME, mq.MQCFOP_EQUAL, "DEV.APP.SVRCONN"))
            assert [(a.comp_code, a.reason) for a in conn] == [(mq.MQCC_FAILED, mq.MQRCCF_NONE_FOUND), (mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED)]
            assert run(qm.engine, "DISPLAY CONN(*) WHERE(CHANNEL EQ 'DEV.APP.SVRCONN')") == ["No connection matches."]
        channels = inquire(qm, mq.MQCMD_INQUIRE_CHANNEL_STATUS, String(mq.MQCACH_CHANNEL_NAME, "*"),
                           StringFilter(mq.MQCACH_CONNECTION_NAME, mq.MQCFOP_LIKE, "b.*"))
        assert channels[0].reason == mq.MQRCCF_CHL_STATUS_NOT_FOUND
        queues = inquire(qm, mq.MQCMD_INQUIRE_Q_STATUS, String(mq.MQCA_Q_NAME, "W.*"), IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_GREATER, 100))
        assert [(a.comp_code, a.reason, a.parameters) for a in queues] == [(mq.MQCC_OK, 0, ())]
        assert run(qm.engine, "DISPLAY QSTATUS(W.*) WHERE(CURDEPTH GT 100)") == []
