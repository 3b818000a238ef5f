"""The operational commands (formats/operations.md): runmqsc transcripts on an engine alone, runCommandJSON as
pymqrest sends it, services with and without --run-services, and properties of their MQSC forms and status."""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import MQIError, mq, open_queue_manager
from pcfserver.codec import ByteString, Integer, IntegerList, Message, String
from pcfserver.dialects import mqsc, parse_command, render_command, run_script
from pcfserver.engine import open_engine
from pcfserver.server.core import ServerConfig
from pcfserver.server.service import Service
from tests.dialect_support import CLOCK

HOST = "127.0.0.1"
CSRF = {"ibm-mq-rest-csrf-token": "x"}
MQSC = "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc"


def transcript(script: str) -> list[str]:
    """runmqsc's lines for a script on a fresh queue manager, without the banner."""
    return run_script(script, open_engine(None).execute, dialect="mqsc", clock=lambda: CLOCK).text.splitlines()[4:]


def test_channel_commands_as_runmqsc_answers_them() -> None:
    script = """\
DEFINE QLOCAL(XQ) USAGE(XMITQ)
DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2.example(1414)') XMITQ(XQ)
DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)
DISPLAY CHSTATUS(TO.QM2)
START CHANNEL(TO.QM2)
DIS CHS(TO.QM2)
START CHANNEL(TO.QM2)
STOP CHANNEL(TO.QM2)
DIS CHS(*) STATUS
STOP CHANNEL(TO.QM2) STATUS(INACTIVE)
STOP CHANNEL(TO.QM2)
START CHANNEL(APP.SVRCONN)
DISPLAY CHSTATUS(APP.SVRCONN)
STA CHL(NOT.THERE)
PING CHANNEL(TO.QM2)
PING CHANNEL(APP.SVRCONN)
RESET CHANNEL(TO.QM2) SEQNUM(1)
RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)
RESOLVE CHANNEL(TO.QM2)
"""
    assert transcript(script) == [
        "     1 : DEFINE QLOCAL(XQ) USAGE(XMITQ)",
        "AMQ8006I: IBM MQ queue created.",
        "     2 : DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2.example(1414)') XMITQ(XQ)",
        "AMQ8014I: IBM MQ channel created.",
        "     3 : DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)",
        "AMQ8014I: IBM MQ channel created.",
        "     4 : DISPLAY CHSTATUS(TO.QM2)",
        "AMQ8420I: Channel Status not found.",
        "     5 : START CHANNEL(TO.QM2)",
        "AMQ8018I: Start IBM MQ channel accepted.",
        "     6 : DIS CHS(TO.QM2)",
        "AMQ8417I: Display Channel Status details.",
        "   CHANNEL(TO.QM2)                         CHLTYPE(SDR)",
        "   CONNAME(qm2.example(1414))              CURRENT",
        "   RQMNAME( )                              STATUS(RETRYING)",
        "   SUBSTATE( )                             XMITQ(XQ)",
        "     7 : START CHANNEL(TO.QM2)",
        "AMQ9514E: Channel 'TO.QM2' is in use.",
        "     8 : STOP CHANNEL(TO.QM2)",
        "AMQ8019I: Stop IBM MQ channel accepted.",
        "     9 : DIS CHS(*) STATUS",
        "AMQ8417I: Display Channel Status details.",
        "   CHANNEL(TO.QM2)                         CHLTYPE(SDR)",
        "   CONNAME(qm2.example(1414))              CURRENT",
        "   RQMNAME( )                              STATUS(STOPPED)",
        "   SUBSTATE( )                             XMITQ(XQ)",
        "    10 : STOP CHANNEL(TO.QM2) STATUS(INACTIVE)",
        "AMQ8019I: Stop IBM MQ channel accepted.",
        "    11 : STOP CHANNEL(TO.QM2)",
        "AMQ9533E: Channel 'TO.QM2' is not currently active.",
        "    12 : START CHANNEL(APP.SVRCONN)",
        "AMQ8018I: Start IBM MQ channel accepted.",
        "    13 : DISPLAY CHSTATUS(APP.SVRCONN)",
        "AMQ8420I: Channel Status not found.",
        "    14 : STA CHL(NOT.THERE)",
        "AMQ8227E: Channel NOT.THERE not found.",
        "    15 : PING CHANNEL(TO.QM2)",
        "AMQ9202E: Remote host not available for channel 'TO.QM2', retry later.",
        "    16 : PING CHANNEL(APP.SVRCONN)",
        "AMQ8101S: IBM MQ error (BDA) has occurred. Reason 3034 MQRCCF_CHANNEL_TYPE_ERROR.",
        "    17 : RESET CHANNEL(TO.QM2) SEQNUM(1)",
        "AMQ8023I: IBM MQ channel reset.",
        "    18 : RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)",
        "AMQ8024I: IBM MQ channel resolved.",
        "    19 : RESOLVE CHANNEL(TO.QM2)",
        "AMQ8405I: Syntax error detected at or near end of command segment below:-",
        "RESOLVE CHANNEL(TO.QM2)",
        "19 MQSC commands read.",
        "One command has a syntax error.",
        "7 valid MQSC commands could not be processed.",
    ]


def test_the_amqp_service_is_there_to_stop_alter_and_start_as_published_scripts_do() -> None:
    # ibm-messaging/mq-metric-samples dspmqrtj/demo/crtClus.sh, and the AMQP set-ups that start it (AMQPCAP(YES) here)
    script = """\
STOP SERVICE(system.amqp.service) IGNSTATE(YES)
ALTER SERVICE(SYSTEM.AMQP.SERVICE) CONTROL(MANUAL)
START SERVICE(SYSTEM.AMQP.SERVICE)
DISPLAY SERVICE(SYSTEM.AMQP.SERVICE) SERVTYPE STARTCMD DESCR
"""
    assert transcript(script) == [
        "     1 : STOP SERVICE(system.amqp.service) IGNSTATE(YES)",
        "AMQ8732I: Request to stop Service accepted.",
        "     2 : ALTER SERVICE(SYSTEM.AMQP.SERVICE) CONTROL(MANUAL)",
        "AMQ8624I: IBM MQ service changed.",
        "     3 : START SERVICE(SYSTEM.AMQP.SERVICE)",
        "AMQ8733I: Request to start Service accepted.",
        "     4 : DISPLAY SERVICE(SYSTEM.AMQP.SERVICE) SERVTYPE STARTCMD DESCR",
        "AMQ8629I: Display service information details.",
        "   SERVICE(SYSTEM.AMQP.SERVICE)            SERVTYPE(SERVER)",
        "   STARTCMD(+MQ_INSTALL_PATH+/bin/amqp.sh) DESCR(Manages clients that use the AMQP protocol)",
        "4 MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]


def test_display_clusqmgr_shows_what_this_queue_managers_cluster_channels_make() -> None:
    # mq-metric-samples' crtClus.sh: a full repository with a CLUSRCVR and a CLUSSDR to its partner, checked with DISPLAY CLUSQMGR
    script = """\
ALTER QMGR REPOS(CLUSTEST)
DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSRCVR) TRPTYPE(TCP) CONNAME('localhost(4714)') CLUSTER(CLUSTEST)
DEFINE CHANNEL(TO.FR2) CHLTYPE(CLUSSDR) TRPTYPE(TCP) CONNAME('localhost(4715)') CLUSTER(CLUSTEST)
DISPLAY CLUSQMGR(*)
DISPLAY CLUSQMGR(QM1) QMTYPE DEFTYPE
DISPLAY CLUSQMGR(*) CHANNEL(TO.FR2) STATUS
DISPLAY CLUSQMGR(*) CLUSTER(OTHER)
"""
    lines = transcript(script)
    assert lines[7:15] == [
        "AMQ8441I: Display Cluster Queue Manager details.",
        "   CLUSQMGR(QM1)                           CHANNEL(TO.FR1)",
        "   CLUSTER(CLUSTEST)",
        "AMQ8441I: Display Cluster Queue Manager details.",
        "   CLUSQMGR(SYSTEM.TEMPQMGR.localhost(4715))",
        "                                           CHANNEL(TO.FR2)",
        "   CLUSTER(CLUSTEST)",
        "     5 : DISPLAY CLUSQMGR(QM1) QMTYPE DEFTYPE",
    ]
    assert lines[16:18] == ["   CLUSQMGR(QM1)                           CHANNEL(TO.FR1)", "   CLUSTER(CLUSTEST)                       DEFTYPE(CLUSRCVR)"]
    assert lines[18] == "   QMTYPE(REPOS)"
    assert "STATUS(INACTIVE)" in "\n".join(lines[19:25]) and "TO.FR1" not in "\n".join(lines[19:25])
    assert lines[-4] == "AMQ8147E: IBM MQ object * not found."


def test_reset_qmgr_as_a_queue_manager_with_circular_logging_answers_it() -> None:
    # mq-metric-samples' amqsevt/evtTest.sh resets statistics; backup scripts advance the log (linear logging only)
    script = """\
RESET QMGR TYPE(STATISTICS)
RESET QMGR TYPE(REDUCELOG) REDUCE(ONE)
RESET QMGR TYPE(ADVANCELOG)
RESET QMGR TYPE(ARCHLOG) ARCHIVED('S0000001.LOG')
RESET QMGR TYPE(PUBSUB) CHILD(QM2)
RESET QMGR TYPE(PUBSUB) CHILD(QM2) PARENT(QM3)
RESET QMGR TYPE(NONSENSE)
"""
    lines = transcript(script)
    assert lines[:4] == ["     1 : RESET QMGR TYPE(STATISTICS)", "Reset Queue Manager request accepted.",
                         "     2 : RESET QMGR TYPE(REDUCELOG) REDUCE(ONE)", "Reset Queue Manager request accepted."]
    assert lines[5] == lines[7] == "AMQ8101S: IBM MQ error (C67) has occurred. Reason 3175 MQRCCF_LOG_TYPE_ERROR."
    assert lines[9] == "Reset Queue Manager request accepted."
    assert "3203 MQRCCF_PARM_CONFLICT" in lines[11] and lines[13].startswith("AMQ8405I: Syntax error")
    assert lines[-3:] == ["7 MQSC commands read.", "One command has a syntax error.", "3 valid MQSC commands could not be processed."]
    # the same over PCF: Action is required and its value checked
    engine = open_engine(None)
    missing = engine.execute(Message(mq.MQCMD_RESET_Q_MGR, ()))[0]
    bad = engine.execute(Message(mq.MQCMD_RESET_Q_MGR, (Integer(mq.MQIACF_ACTION, 99),)))[0]
    [done] = engine.execute(Message(mq.MQCMD_RESET_Q_MGR, (Integer(mq.MQIACF_ACTION, mq.MQACT_COLLECT_STATISTICS),)))
    assert (missing.reason, bad.reason, done.reason) == (mq.MQRCCF_PARM_COUNT_TOO_SMALL, mq.MQRCCF_ACTION_VALUE_ERROR, 0)


def test_listener_service_security_cluster_and_pubsub_commands_as_runmqsc_answers_them() -> None:
    script = """\
DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1515)
STOP LISTENER(SYSTEM.DEFAULT.LISTENER.TCP) IGNSTATE(YES)
STOP LISTENER(L1)
START LISTENER(L1)
DISPLAY LSSTATUS(L1) STATUS PORT IPADDR BACKLOG CONTROL
START LISTENER(L1)
STOP LISTENER(L1)
DISPLAY LSSTATUS(*)
DEFINE SERVICE(S1) SERVTYPE(SERVER) STARTCMD('/bin/sleep') STARTARG('5')
START SERVICE(S1)
DISPLAY SVSTATUS(S1)
STOP SERVICE(S1)
REFRESH SECURITY(*) TYPE(CONNAUTH)
REF SEC TYPE(AUTHSERV)
REFRESH SECURITY TYPE(CLASSES)
REFRESH CLUSTER(DEMO)
SUSPEND QMGR CLUSTER(DEMO)
RESUME QMGR CLUSNL(NOT.THERE)
DISPLAY CLUSQMGR(*)
DISPLAY PUBSUB
"""
    assert transcript(script) == [
        "     1 : DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1515)",
        "AMQ8626I: IBM MQ listener created.",
        "     2 : STOP LISTENER(SYSTEM.DEFAULT.LISTENER.TCP) IGNSTATE(YES)",
        "AMQ8706I: Request to stop IBM MQ Listener accepted.",
        "     3 : STOP LISTENER(L1)",
        "AMQ8731W: Listener not active.",
        "     4 : START LISTENER(L1)",
        "AMQ8021I: Request to start IBM MQ Listener accepted.",
        "     5 : DISPLAY LSSTATUS(L1) STATUS PORT IPADDR BACKLOG CONTROL",
        "AMQ8631I: Display listener status details.",
        "   LISTENER(L1)                            STATUS(RUNNING)",
        "   CONTROL(MANUAL)                         IPADDR(*)",
        "   PORT(1515)                              BACKLOG(100)",
        "     6 : START LISTENER(L1)",
        "AMQ8730W: Listener already active.",
        "     7 : STOP LISTENER(L1)",
        "AMQ8706I: Request to stop IBM MQ Listener accepted.",
        "     8 : DISPLAY LSSTATUS(*)",
        "Listener status not found.",
        "     9 : DEFINE SERVICE(S1) SERVTYPE(SERVER) STARTCMD('/bin/sleep') STARTARG('5')",
        "AMQ8625I: IBM MQ service created.",
        "    10 : START SERVICE(S1)",
        "AMQ8733I: Request to start Service accepted.",
        "    11 : DISPLAY SVSTATUS(S1)",
        "Service status not found.",
        "    12 : STOP SERVICE(S1)",
        "AMQ8101S: IBM MQ error (CBF) has occurred. Reason 3263 MQRCCF_NO_STOP_CMD.",
        "    13 : REFRESH SECURITY(*) TYPE(CONNAUTH)",
        "AMQ8560I: IBM MQ security cache refreshed.",
        "    14 : REF SEC TYPE(AUTHSERV)",
        "AMQ8560I: IBM MQ security cache refreshed.",
        "    15 : REFRESH SECURITY TYPE(CLASSES)",
        "AMQ8101S: IBM MQ error (C9D) has occurred. Reason 3229 MQRCCF_PARM_VALUE_ERROR.",
        "    16 : REFRESH CLUSTER(DEMO)",
        "Refresh Cluster request accepted.",
        "    17 : SUSPEND QMGR CLUSTER(DEMO)",
        "Suspend Queue Manager Cluster request accepted.",
        "    18 : RESUME QMGR CLUSNL(NOT.THERE)",
        "AMQ8147E: IBM MQ object NOT.THERE not found.",
        "    19 : DISPLAY CLUSQMGR(*)",
        "AMQ8147E: IBM MQ object * not found.",
        "    20 : DISPLAY PUBSUB",
        "AMQ8723I: Display pub/sub status details.",
        "   QMNAME(QM1)                             TYPE(LOCAL)",
        "   STATUS(ACTIVE)                          SUBCOUNT(1)",
        "   TPCOUNT(4)",
        "20 MQSC commands read.",
        "No commands have a syntax error.",
        "8 valid MQSC commands could not be processed.",
    ]


def test_ibm_developer_configuration_commands_run() -> None:
    """IBM's dev.mqsc (mq-container) and pymqrest's seeds use these forms."""
    lines = transcript(
        "STOP LISTENER('SYSTEM.DEFAULT.LISTENER.TCP') IGNSTATE(YES)\nREFRESH SECURITY(*) TYPE(CONNAUTH)\nREFRESH SECURITY TYPE(CONNAUTH)\n"
        "DEFINE QLOCAL(DEV.XMITQ) USAGE(XMITQ)\nDEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(DEV.XMITQ) REPLACE\n"
        "START CHANNEL(QM1.TO.QM2)\n"
    )
    assert lines[-3:] == ["6 MQSC commands read.", "No commands have a syntax error.", "All valid MQSC commands were processed."]


# ---------------------------------------------------------------------------------- a server: REST and services


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


async def serve(nursery: trio.Nursery, data: Path, **config: Any) -> tuple[Service, int]:
    service = Service(open_engine(data), ServerConfig(host=HOST, port=0, http_port=0, **config), data)
    addresses = await nursery.start(service.serve)
    return service, addresses.http[1]


async def run_json(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    answer = await client.post(MQSC, json={"type": "runCommandJSON", **body}, headers=CSRF)
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


@pytest.fixture
async def server(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[tuple[Service, int]]:
    running = await serve(nursery, tmp_path)
    yield running
    running[0].shutdown()


async def test_start_channel_and_poll_chstatus_as_pymqrest_does(server: tuple[Service, int]) -> None:
    service, http = server
    assert service.pcf.address is not None
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{http}", timeout=20) as client:
        await run_json(client, command="DEFINE", qualifier="QLOCAL", name="DEV.XMITQ", parameters={"USAGE": "XMITQ"})
        made = await run_json(
            client, command="DEFINE", qualifier="CHANNEL", name="QM1.TO.QM2",
            parameters={"CHLTYPE": "SDR", "CONNAME": f"{HOST}({service.pcf.address[1]})", "XMITQ": "DEV.XMITQ", "REPLACE": "YES"},
        )
        assert made["overallCompletionCode"] == 0, made
        started = await run_json(client, command="START", qualifier="CHANNEL", name="QM1.TO.QM2")
        assert started["overallCompletionCode"] == 0
        with trio.fail_after(10):  # pymqrest's start_channel_sync: poll DISPLAY CHSTATUS until STATUS is RUNNING
            while True:
                shown = await run_json(client, command="DISPLAY", qualifier="CHSTATUS", name="QM1.TO.QM2", responseParameters=["all"])
                params = shown["commandResponse"][0].get("parameters", {})
                if params.get("status") == "RUNNING":
                    break
                await trio.sleep(0.05)
        assert params["channel"] == "QM1.TO.QM2" and params["chltype"] == "SDR" and params["xmitq"] == "DEV.XMITQ"
        assert params["msgs"] == 0 and params["substate"] == "MQGET"
        assert params["rqmname"] == "QM1"  # the partner (here the server itself) named its queue manager
        stopped = await run_json(client, command="STOP", qualifier="CHANNEL", name="QM1.TO.QM2", parameters={"STATUS": "INACTIVE"})
        assert stopped["overallCompletionCode"] == 0
        gone = await run_json(client, command="DISPLAY", qualifier="CHSTATUS", name="QM1.TO.QM2")
        assert gone["commandResponse"][0]["reasonCode"] == mq.MQRCCF_CHL_STATUS_NOT_FOUND
        assert gone["commandResponse"][0]["message"] == ["AMQ8420I: Channel Status not found."]
        pubsub = await run_json(client, command="DISPLAY", qualifier="PUBSUB", responseParameters=["all"])
        assert pubsub["commandResponse"][0]["parameters"]["status"] == "ACTIVE"
        refreshed = await run_json(client, command="REFRESH", qualifier="SECURITY", parameters={"TYPE": "CONNAUTH"})
        assert refreshed["overallCompletionCode"] == 0


def _service_script(marker: Path) -> str:
    return f"DEFINE SERVICE(MARK) SERVTYPE(COMMAND) STARTCMD('/usr/bin/touch') STARTARG('{marker}')\n"


async def test_services_run_nothing_without_run_services(nursery: trio.Nursery, tmp_path: Path) -> None:
    service, http = await serve(nursery, tmp_path)
    marker = tmp_path / "ran"
    try:
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{http}", timeout=20) as client:
            await run_json(client, command="DEFINE", qualifier="SERVICE", name="MARK", parameters={"SERVTYPE": "COMMAND", "STARTCMD": "/usr/bin/touch", "STARTARG": str(marker)})
            started = await run_json(client, command="START", qualifier="SERVICE", name="MARK")
            assert started["overallCompletionCode"] == 0  # IBM accepts a start whose program then fails
            await trio.sleep(0.3)
            assert not marker.exists()
    finally:
        service.shutdown()


async def test_run_services_runs_start_and_stop_programs(nursery: trio.Nursery, tmp_path: Path) -> None:
    service, http = await serve(nursery, tmp_path, run_services=True)
    marker = tmp_path / "ran"
    try:
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{http}", timeout=20) as client:
            await run_json(client, command="DEFINE", qualifier="SERVICE", name="MARK", parameters={"SERVTYPE": "COMMAND", "STARTCMD": "/usr/bin/touch", "STARTARG": str(marker)})
            await run_json(client, command="START", qualifier="SERVICE", name="MARK")
            deadline = time.monotonic() + 5
            while not marker.exists() and time.monotonic() < deadline:
                await trio.sleep(0.05)
            assert marker.exists()
            await run_json(
                client, command="DEFINE", qualifier="SERVICE", name="SLEEPER",
                parameters={"SERVTYPE": "SERVER", "STARTCMD": "/bin/sleep", "STARTARG": "30", "STOPCMD": "/bin/true"},
            )
            await run_json(client, command="START", qualifier="SERVICE", name="SLEEPER")
            shown = await run_json(client, command="DISPLAY", qualifier="SVSTATUS", name="SLEEPER", responseParameters=["all"])
            params = shown["commandResponse"][0]["parameters"]
            assert params["status"] == "RUNNING" and params["pid"] > 0 and params["startcmd"] == "/bin/sleep"
            again = await run_json(client, command="START", qualifier="SERVICE", name="SLEEPER")
            assert again["commandResponse"][0]["reasonCode"] == mq.MQRCCF_SERVICE_RUNNING
            await run_json(client, command="STOP", qualifier="SERVICE", name="SLEEPER")
            gone = await run_json(client, command="DISPLAY", qualifier="SVSTATUS", name="SLEEPER")
            assert gone["commandResponse"][0]["reasonCode"] == mq.MQRCCF_SERV_STATUS_NOT_FOUND
            # a server whose program ends has no status; output goes to the STDOUT file
            output = tmp_path / "out.txt"
            await run_json(
                client, command="DEFINE", qualifier="SERVICE", name="BRIEF",
                parameters={"SERVTYPE": "SERVER", "STARTCMD": "/bin/echo", "STARTARG": "hello +QMNAME+", "STDOUT": str(output)},
            )
            await run_json(client, command="START", qualifier="SERVICE", name="BRIEF")
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                ended = await run_json(client, command="DISPLAY", qualifier="SVSTATUS", name="BRIEF")
                if ended["commandResponse"][0]["reasonCode"] == mq.MQRCCF_SERV_STATUS_NOT_FOUND:
                    break
                await trio.sleep(0.05)
            assert ended["commandResponse"][0]["reasonCode"] == mq.MQRCCF_SERV_STATUS_NOT_FOUND
            assert output.read_text() == "hello QM1\n"
    finally:
        service.shutdown()


# ---------------------------------------------------------------------------------- properties

NAMES = st.from_regex(r"[A-Z0-9._/%]{1,20}", fullmatch=True)
FORMS = st.one_of(
    st.tuples(st.sampled_from(["START", "STA"]), st.sampled_from(["CHANNEL", "CHL"]), NAMES, st.just("")),
    st.tuples(
        st.just("STOP"), st.sampled_from(["CHANNEL", "CHL"]), NAMES,
        st.lists(st.sampled_from(["MODE(QUIESCE)", "MODE(FORCE)", "MODE(TERMINATE)", "STATUS(STOPPED)", "STATUS(INACTIVE)", "CONNAME('h(1)')", "QMNAME(QM2)"]), unique_by=lambda w: w.split("(")[0], max_size=3).map(" ".join),
    ),
    st.tuples(st.just("PING"), st.just("CHANNEL"), NAMES, st.one_of(st.just(""), st.integers(16, 32768).map(lambda n: f"DATALEN({n})"))),
    st.tuples(st.just("RESET"), st.just("CHANNEL"), NAMES, st.one_of(st.just(""), st.integers(1, 999999999).map(lambda n: f"SEQNUM({n})"))),
    st.tuples(st.just("RESOLVE"), st.just("CHANNEL"), NAMES, st.sampled_from(["ACTION(COMMIT)", "ACTION(BACKOUT)"])),
    st.tuples(st.sampled_from(["DISPLAY", "DIS"]), st.sampled_from(["CHSTATUS", "CHS"]), NAMES.map(lambda n: n[:19] + "*"), st.sampled_from(["", "ALL", "SAVED", "STATUS MSGS", "XMITQ(XQ)"])),
    st.tuples(st.sampled_from(["START", "STOP"]), st.sampled_from(["LISTENER", "LSTR"]), NAMES, st.sampled_from(["", "IGNSTATE(YES)", "IGNSTATE(NO)"])),
    st.tuples(st.sampled_from(["START", "STOP"]), st.just("SERVICE"), NAMES, st.sampled_from(["", "IGNSTATE(YES)"])),
    st.tuples(st.just("DISPLAY"), st.sampled_from(["LSSTATUS", "SVSTATUS"]), NAMES, st.sampled_from(["", "ALL", "STATUS PID"])),
    st.tuples(st.sampled_from(["REFRESH", "REF"]), st.sampled_from(["SECURITY", "SEC"]), st.sampled_from(["", "*"]), st.sampled_from(["", "TYPE(AUTHSERV)", "TYPE(CONNAUTH)", "TYPE(SSL)"])),
    st.tuples(st.just("REFRESH"), st.just("CLUSTER"), NAMES, st.sampled_from(["", "REPOS(YES)", "REPOS(NO)"])),
    st.tuples(st.sampled_from(["SUSPEND", "RESUME"]), st.just("QMGR"), st.just(""), NAMES.map(lambda n: f"CLUSTER({n})")),
    st.tuples(st.just("DISPLAY"), st.just("PUBSUB"), st.just(""), st.sampled_from(["", "ALL", "TYPE(LOCAL)", "TYPE(ALL) STATUS"])),
)
# What these commands may answer on a queue manager where the names are mostly not defined.
ANSWERS = {
    mq.MQRC_NONE, mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_CHANNEL_NOT_FOUND, mq.MQRCCF_CHL_STATUS_NOT_FOUND,
    mq.MQRCCF_LSTR_STATUS_NOT_FOUND, mq.MQRCCF_SERV_STATUS_NOT_FOUND, mq.MQRCCF_CHANNEL_NOT_ACTIVE,
}


def _text(form: tuple[str, str, str, str]) -> str:
    verb, noun, name, rest = form
    return " ".join(part for part in (f"{verb} {noun}" + (f"({name})" if name else ""), rest) if part)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FORMS)
def test_mqsc_forms_read_render_and_read_back_the_same(form: tuple[str, str, str, str]) -> None:
    [command] = parse_command(_text(form))
    [again] = parse_command(render_command(command))
    assert again.command == command.command
    assert sorted(map(repr, again.parameters)) == sorted(map(repr, command.parameters))
    answer = open_engine(None).execute(command)
    assert answer[0].reason in ANSWERS


ACTIONS = st.lists(st.sampled_from(["start", "stop", "stop-inactive"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(ACTIONS)
def test_a_senders_status_follows_start_and_stop(actions: list[str]) -> None:
    """Engine alone: START makes RETRYING (no partner), STOP makes STOPPED, STOP STATUS(INACTIVE) removes it;
    START of a retrying channel is in use, STOP of one without status not active."""
    engine = open_engine(None)
    for text in ("DEFINE QLOCAL(XQ) USAGE(XMITQ)", "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('nowhere(1)') XMITQ(XQ)"):
        [made] = engine.execute(parse_command(text)[0])
        assert made.reason == mq.MQRC_NONE
    model: int | None = None
    for action in actions:
        text = {"start": "START CHANNEL(S)", "stop": "STOP CHANNEL(S)", "stop-inactive": "STOP CHANNEL(S) STATUS(INACTIVE)"}[action]
        reason = engine.execute(parse_command(text)[0])[0].reason
        if action == "start":
            assert reason == (mq.MQRCCF_CHANNEL_IN_USE if model == mq.MQCHS_RETRYING else mq.MQRC_NONE)
            model = mq.MQCHS_RETRYING
        elif model is None:
            assert reason == mq.MQRCCF_CHANNEL_NOT_ACTIVE
        else:
            assert reason == mq.MQRC_NONE
            model = None if action == "stop-inactive" else mq.MQCHS_STOPPED
        shown = engine.execute(Message(mq.MQCMD_INQUIRE_CHANNEL_STATUS, (String(mq.MQCACH_CHANNEL_NAME, "S"),)))
        if model is None:
            assert shown[0].reason == mq.MQRCCF_CHL_STATUS_NOT_FOUND
        else:
            assert shown[0].int_value(mq.MQIACH_CHANNEL_STATUS) == model


def test_what_runs_cannot_be_deleted_and_qmstatus() -> None:
    lines = transcript(
        "DEFINE LISTENER(L) TRPTYPE(TCP) PORT(1)\nSTART LISTENER(L)\nDELETE LISTENER(L)\nSTOP LISTENER(L)\nDELETE LISTENER(L)\n"
        "DEFINE QLOCAL(XQ) USAGE(XMITQ)\nDEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME(x) XMITQ(XQ)\nSTART CHANNEL(S)\nDELETE CHANNEL(S)\n"
        "STOP CHANNEL(S)\nDELETE CHANNEL(S)\nDEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME(x) XMITQ(XQ)\nDIS CHS(S)\nDISPLAY QMSTATUS\n"
    )
    shown = [line for line in lines if " : " in line or not line.startswith("   ")]
    assert shown[shown.index("     3 : DELETE LISTENER(L)") + 1] == "AMQ8101S: IBM MQ error (CC4) has occurred. Reason 3268 MQRCCF_LISTENER_STILL_ACTIVE."
    assert shown[shown.index("     5 : DELETE LISTENER(L)") + 1] == "AMQ8628I: IBM MQ listener deleted."
    assert shown[shown.index("     9 : DELETE CHANNEL(S)") + 1] == "AMQ9514E: Channel 'S' is in use."
    assert shown[shown.index("    11 : DELETE CHANNEL(S)") + 1] == "AMQ8015I: IBM MQ channel deleted."
    # the stopped status went with the channel: the channel defined again has none
    assert shown[shown.index("    13 : DIS CHS(S)") + 1] == "AMQ8420I: Channel Status not found."
    at = lines.index("    14 : DISPLAY QMSTATUS")
    assert lines[at + 1 : at + 3] == ["AMQ8705I: Display Queue Manager Status Details.", "   QMNAME(QM1)                             STATUS(RUNNING)"]


def test_display_conn_lists_the_messaging_sessions() -> None:
    """runmqsc's layout: CONN (the last 8 bytes of the ConnectionId), EXTCONN (the first 16) and TYPE each on a line of
    its own; CONN(16 hex digits) names that connection of this queue manager, as DISPLAY CONN shows it."""
    engine = open_engine(None)
    lines = run_script("DISPLAY CONN(*)\n", engine.execute, dialect="mqsc", clock=lambda: CLOCK).text.splitlines()
    assert lines[5] == "No connection matches."
    engine.messaging.open_session("orders", "alice")
    script = "DIS CONN(*) ALL\nDIS CONN(0000000000000001) TYPE(CONN)\nDIS CONN(00FF)\nDIS CONN(XYZ)\nDIS CONN(414D5143514D312020202020202020200000000000000001)\n"
    lines = run_script(script, engine.execute, dialect="mqsc", clock=lambda: CLOCK).text.splitlines()[4:]
    head = ["AMQ8276I: Display Connection details.", "   CONN(0000000000000001)", "   EXTCONN(414D5143514D31202020202020202020)", "   TYPE(CONN)"]
    assert lines[:12] == [
        "     1 : DIS CONN(*) ALL",
        *head,
        f"   {f'PID({os.getpid()})':<40}TID(1)",
        "   APPLDESC( )                             APPLTAG(orders)",
        "   APPLTYPE(USER)                          ASTATE(NONE)",
        "   CHANNEL( )                              CLIENTID( )",
        "   CONNAME( )                              CONNOPTS(MQCNO_HANDLE_SHARE_BLOCK,MQCNO_SHARED_BINDING)",
        "   USERID(alice)                           URTYPE(QMGR)",
        "   UOWSTATE(NONE)",
    ]
    assert lines[12:17] == ["     2 : DIS CONN(0000000000000001) TYPE(CONN)", *head]
    assert lines[17:19] == ["     3 : DIS CONN(00FF)", "No connection matches."]
    assert lines[20].startswith("AMQ8405I")  # not hexadecimal
    assert lines[lines.index("     5 : DIS CONN(414D5143514D312020202020202020200000000000000001)") + 1 :][:4] == head


def test_stop_conn_breaks_an_application_connection_and_backs_out_its_unit_of_work() -> None:
    """STOP CONN (IBM q086790_): the connection's uncommitted put is backed out, its next call fails with
    MQRC_CONNECTION_BROKEN; a connection that does not exist is MQRCCF_CONNECTION_ID_ERROR; another connection goes on."""
    with open_queue_manager() as qm:
        assert run_script("DEFINE QLOCAL(STOP.Q)\n", qm.execute).exit_code == 0
        with qm.session("victim") as victim, qm.session("bystander") as bystander:
            victim.put("STOP.Q", b"kept")
            victim.put("STOP.Q", b"in flight", syncpoint=True)
            bystander.put("STOP.Q", b"also in flight", syncpoint=True)
            shown = mqsc.run("DISPLAY CONN(*) WHERE(APPLTAG EQ 'victim')", qm.execute).lines
            conn = next(line.strip() for line in shown if line.strip().startswith("CONN("))
            assert mqsc.run(f"STOP {conn}", qm.execute).status == "ok"
            with pytest.raises(MQIError) as broken:
                victim.get("STOP.Q")
            assert broken.value.reason == mq.MQRC_CONNECTION_BROKEN
            assert "No connection matches." in mqsc.run("DISPLAY CONN(*) WHERE(APPLTAG EQ 'victim')", qm.execute).lines
            failed = qm.execute(Message(mq.MQCMD_STOP_CONNECTION, (ByteString(mq.MQBACF_CONNECTION_ID, bytes(24)),)))
            assert failed[0].reason == mq.MQRCCF_CONNECTION_ID_ERROR
            bystander.commit()
            depth = mqsc.run("DISPLAY QLOCAL(STOP.Q) CURDEPTH", qm.execute).lines
            assert "CURDEPTH(2)" in " ".join(depth)  # 'kept' and the bystander's; 'in flight' was backed out
            assert [bystander.get("STOP.Q")[1] for _ in range(2)] == [b"kept", b"also in flight"]


JSON_FORMS = st.one_of(
    st.tuples(st.sampled_from(["start", "START"]), st.sampled_from(["channel", "CHANNEL"]), NAMES, st.just({})),
    st.tuples(st.just("stop"), st.just("channel"), NAMES, st.fixed_dictionaries({}, optional={"MODE": st.sampled_from(["QUIESCE", "FORCE"]), "STATUS": st.sampled_from(["STOPPED", "INACTIVE"]), "CONNAME": st.just("h(1)")})),
    st.tuples(st.just("display"), st.just("chstatus"), NAMES, st.fixed_dictionaries({}, optional={"XMITQ": NAMES, "CONNAME": st.just("host(1414)")})),
    st.tuples(st.sampled_from(["start", "stop"]), st.just("listener"), NAMES, st.fixed_dictionaries({}, optional={"IGNSTATE": st.sampled_from(["YES", "NO"])})),
    st.tuples(st.just("refresh"), st.just("security"), st.none(), st.fixed_dictionaries({}, optional={"TYPE": st.sampled_from(["CONNAUTH", "AUTHSERV", "SSL"])})),
    st.tuples(st.just("resolve"), st.just("channel"), NAMES, st.sampled_from([{"ACTION": "COMMIT"}, {"ACTION": "BACKOUT"}])),
    st.tuples(st.just("display"), st.sampled_from(["lsstatus", "svstatus"]), NAMES, st.just({})),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_FORMS)
def test_run_command_json_forms_are_the_mqsc_commands(form: tuple[str, str, str | None, dict[str, str]]) -> None:
    """A runCommandJSON body becomes the PCF command the same MQSC text becomes (pcfserver.rest.admin.mqsc_text)."""
    from pcfserver.rest.admin import mqsc_text

    command, qualifier, name, parameters = form
    body: dict[str, Any] = {"command": command, "qualifier": qualifier, "parameters": parameters}
    if name is not None:
        body["name"] = name
    text, display = mqsc_text(body)
    assert display == (command.upper() == "DISPLAY")
    written = f"{command.upper()} {qualifier.upper()}" + (f"({name})" if name else "")
    for key, value in parameters.items():
        written += f" {key}('{value}')" if key in ("CONNAME", "XMITQ") else f" {key}({value})"
    assert parse_command(text) == parse_command(written)


def test_the_queue_managers_own_connection_is_shown_as_system_and_not_stopped() -> None:
    """The publish/subscribe engine's connection (made by the first publication) is APPLTYPE(SYSTEM); STOP CONN refuses
    it with MQRCCF_CONN_NOT_STOPPED and publications go on."""
    with open_queue_manager() as qm:
        assert run_script("DEFINE QLOCAL(SYS.DEST)\nDEFINE SUB(SYS.SUB) TOPICSTR('sys/t') DEST(SYS.DEST)\n", qm.execute).exit_code == 0
        with qm.session("publisher") as s:
            s.publish("sys/t", b"one")
        shown = mqsc.run("DISPLAY CONN(*) WHERE(APPLTYPE EQ SYSTEM)", qm.execute).lines
        conn = next(line.strip() for line in shown if line.strip().startswith("CONN("))
        with qm.session("an application"):  # freekb's "display conn (*) where (APPLTYPE eq USER)": a word displays show
            users = mqsc.run("DISPLAY CONN(*) WHERE(APPLTYPE EQ USER) APPLTAG", qm.execute).lines
        assert [line.strip() for line in users if "APPLTAG" in line] == ["APPLTAG(an application)                 APPLTYPE(USER)"]
        refused = mqsc.run(f"STOP {conn}", qm.execute)
        assert refused.status == "failed" and "3260" in refused.lines[0]
        with qm.session("publisher") as s:
            s.publish("sys/t", b"two")
            assert [s.get("SYS.DEST")[1] for _ in range(2)] == [b"one", b"two"]


def test_a_get_waiting_on_a_stopped_connection_ends_with_connection_broken() -> None:
    """STOP CONN while an embedded get waits: when it next looks (an arrival wakes it) it fails with
    MQRC_CONNECTION_BROKEN, takes nothing, and its queue handle is closed (IPPROCS 0)."""
    import threading

    with open_queue_manager() as qm:
        assert run_script("DEFINE QLOCAL(W.Q)\n", qm.execute).exit_code == 0
        outcome: dict[str, object] = {}

        def waiter() -> None:
            with qm.session("waiter") as s:
                try:
                    outcome["got"] = s.get("W.Q", wait=10)
                except MQIError as exc:
                    outcome["reason"] = exc.reason

        thread = threading.Thread(target=waiter)
        thread.start()
        deadline = time.monotonic() + 5
        while "IPPROCS(1)" not in " ".join(mqsc.run("DISPLAY QLOCAL(W.Q) IPPROCS", qm.execute).lines) and time.monotonic() < deadline:
            time.sleep(0.01)
        shown = mqsc.run("DISPLAY CONN(*) WHERE(APPLTAG EQ 'waiter')", qm.execute).lines
        conn = next(line.strip() for line in shown if line.strip().startswith("CONN("))
        assert mqsc.run(f"STOP {conn}", qm.execute).status == "ok"
        with qm.session("other") as other:
            other.put("W.Q", b"for someone else")
        thread.join(10)
        assert outcome == {"reason": mq.MQRC_CONNECTION_BROKEN}
        assert "CURDEPTH(1)" in " ".join(mqsc.run("DISPLAY QLOCAL(W.Q) CURDEPTH IPPROCS", qm.execute).lines)
        assert "IPPROCS(0)" in " ".join(mqsc.run("DISPLAY QLOCAL(W.Q) IPPROCS", qm.execute).lines)


def test_display_qstatus_and_chstatus_monitor_show_the_online_monitoring_parameters() -> None:
    """MONITOR (IBM DISPLAY QSTATUS / DISPLAY CHSTATUS; Checkmk's ibm_mq plugin runs both) is the group of online
    monitoring fields, MQIACF_MONITORING in PCF: LGETDATE LGETTIME LPUTDATE LPUTTIME MONQ MSGAGE QTIME for a queue;
    MONCHL (the level in effect), the time and batch indicators and XQMSGSA with the always-returned fields for a
    channel."""
    engine = open_engine(None)
    script = (
        "DEFINE QLOCAL(MON.XQ) USAGE(XMITQ)\nDEFINE CHANNEL(MON.SDR) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(MON.XQ)\n"
        "START CHANNEL(MON.SDR)\nALTER QMGR MONCHL(MEDIUM) MONQ(LOW)\n"
    )
    assert run_script(script, engine.execute).exit_code == 0
    queue = mqsc.run("DISPLAY QSTATUS(MON.XQ) MONITOR", engine.execute).lines
    keywords = re.findall(r"([A-Z]+)\(", " ".join(queue[1:]))
    assert keywords == ["QUEUE", "TYPE", "LGETDATE", "LGETTIME", "LPUTDATE", "LPUTTIME", "MONQ", "MSGAGE", "QTIME"]
    assert "MONQ(LOW)" in " ".join(queue)
    channel = " ".join(mqsc.run("DISPLAY CHSTATUS(*) MONITOR", engine.execute).lines)
    assert "MONCHL(MEDIUM)" in channel and "STATUS(RETRYING)" in channel and "BYTSSENT" not in channel
    # the indicators, as real runmqsc output shows them for a retrying sender: NETTIME(0,0) XQTIME(0,0) XBATCHSZ(...)
    assert all(f"{word}(0,0)" in channel for word in ("XQTIME", "NETTIME", "EXITTIME", "XBATCHSZ", "COMPRATE", "COMPTIME"))
    assert "XQMSGSA(0)" in channel
    command = mqsc.parse("DISPLAY QSTATUS(MON.XQ) MONITOR").message
    assert command is not None and command.get(mq.MQIACF_Q_STATUS_ATTRS) == IntegerList(mq.MQIACF_Q_STATUS_ATTRS, (mq.MQIACF_MONITORING,))
    assert run_script("ALTER CHANNEL(MON.SDR) CHLTYPE(SDR) MONCHL(OFF)\n", engine.execute).exit_code == 0
    off = " ".join(mqsc.run("DISPLAY CHSTATUS(MON.SDR) MONITOR", engine.execute).lines)
    assert "MONCHL(OFF)" in off and "XQTIME( , )" in off  # blank while the channel's monitoring is off


def test_display_conn_answers_connection_and_handle_attributes_as_published_scripts_ask() -> None:
    """IBM's technote on stopping client connections asks DISPLAY CONN(*) WHERE(CHANNEL NE '') APPLTAG CHANNEL CONNAME
    CONNOPTS; a support note asks WHERE(OBJNAME EQ q) with TYPE(HANDLE).  A session's open handle is one TYPE(HANDLE)
    answer (OBJNAME, OBJTYPE, OPENOPTS, HSTATE); UOWSTATE is ACTIVE while it has messages under syncpoint."""
    engine = open_engine(None)
    assert run_script("DEFINE QLOCAL(HANDLE.Q)\n", engine.execute).exit_code == 0
    layer = engine.messaging
    session = layer.open_session("holder", "alice")
    engine.execute_operation(lambda: layer.open(session, "HANDLE.Q", input=True))
    technote = mqsc.run("DISPLAY CONN(*) WHERE(CHANNEL NE '') APPLTAG CHANNEL CONNAME CONNOPTS", engine.execute)
    assert technote.lines == ["No connection matches."]  # no connection comes through a channel here
    everything = " ".join(mqsc.run("DISPLAY CONN(*) APPLTAG CONNOPTS UOWSTATE", engine.execute).lines)
    assert "CONNOPTS(MQCNO_HANDLE_SHARE_BLOCK,MQCNO_SHARED_BINDING)" in everything and "UOWSTATE(NONE)" in everything
    handles = mqsc.run("DISPLAY CONN(*) TYPE(HANDLE) WHERE(OBJNAME EQ 'HANDLE.Q') ALL", engine.execute).lines
    shown = " ".join(handles)
    assert "TYPE(HANDLE)" in shown and "OBJNAME(HANDLE.Q)" in shown and "OBJTYPE(QUEUE)" in shown
    assert "OPENOPTS(MQOO_INPUT_AS_Q_DEF)" in shown and "HSTATE(INACTIVE)" in shown and "APPLTAG" not in shown
    both = [line for line in mqsc.run("DISPLAY CONN(*) TYPE(ALL)", engine.execute).lines if "TYPE(" in line]
    assert [line.strip() for line in both] == ["TYPE(CONN)", "TYPE(HANDLE)"]
    engine.execute_operation(lambda: layer.put(session, "HANDLE.Q", b"held", syncpoint=True))
    assert "UOWSTATE(ACTIVE)" in " ".join(mqsc.run("DISPLAY CONN(*) WHERE(UOWSTATE EQ ACTIVE) UOWSTATE", engine.execute).lines)


def test_display_chstatus_all_answers_the_current_only_fields_an_exporter_reads() -> None:
    """fitchos/mqa-prometheus reads rproduct, rversion, batchsz, ... of every channel status (KeyError without them):
    the definition's BATCHSZ/HBINT/KAINT/MAXMSGL/NPMSPEED/MCAUSER/SSLCIPH, no TLS session, no partner until it runs."""
    engine = open_engine(None)
    script = ("DEFINE QLOCAL(CUR.XQ) USAGE(XMITQ)\nDEFINE CHANNEL(CUR.SDR) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(CUR.XQ) "
              "BATCHSZ(20) MCAUSER('app') SSLCIPH(ANY_TLS12)\nSTART CHANNEL(CUR.SDR)\n")
    assert run_script(script, engine.execute).exit_code == 0
    shown = " ".join(mqsc.run("DISPLAY CHSTATUS(CUR.SDR) ALL", engine.execute).lines)
    for entry in ("BATCHSZ(20)", "MCAUSER(app)", "SSLCIPH(ANY_TLS12)", "RPRODUCT( )", "RVERSION( )", "NPMSPEED(FAST)", "KAINT(AUTO)",
                  "LSTSEQNO(0)", "CURLUWID(0000000000000000)", "SSLPEER( )", "SSLRKEYS(0)", "LOCLADDR( )"):
        assert entry in shown, entry
