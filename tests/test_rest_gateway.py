"""IBM's administrative REST API gateway between two ``pcfserver serve`` processes.

Each server is seeded (``serve --seed``) with the MQSC commands of the public developer environment
that pymqrest's integration suite runs against, so the route from one to the other is IBM's: a
queue-manager alias (QREMOTE with a blank RNAME), its transmission queue and the sender channel
whose CONNAME names the partner.  A request for QM2 sent to QM1's HTTPS port with the header
``ibm-mq-rest-gateway-qmgr: QM1`` must be carried out on QM2, and the other way round; a missing
route and a partner that is down get IBM's error answers.  The route itself is also checked
without any server (``pcfserver.rest.gateway.resolve`` on an in-process engine).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.dialects.runner import ScriptRunner
from pcfserver.engine import open_engine
from pcfserver.rest.gateway import NoRoute, Route, Unreachable, conname_address, resolve
from pcfserver.users import UserStore

# The MQSC commands (comments left out) of seed/base-qm1.mqsc and seed/base-qm2.mqsc in
# github.com/wphillipmoore/mq-rest-admin-dev-environment @55d54e629d0e49fa1f98822805b9cf74eb38ed84,
# the queue managers pymqrest's integration suite (tests/integration) is run against.
SEED_QM1 = """\
DEFINE QLOCAL(DEV.DEAD.LETTER) REPLACE DEFPSIST(YES) DESCR('dev dead letter')
ALTER QMGR DEADQ(DEV.DEAD.LETTER)
DEFINE QLOCAL(DEV.QLOCAL) REPLACE DEFPSIST(YES) DEFPRESP(SYNC) DESCR('dev local queue')
DEFINE QLOCAL(DEV.XMITQ) REPLACE DEFPSIST(YES) USAGE(XMITQ) DESCR('dev xmit queue')
DEFINE QREMOTE(DEV.QREMOTE) REPLACE RNAME('DEV.TARGET') RQMNAME('QM1') XMITQ(DEV.XMITQ) DESCR('dev remote queue')
DEFINE QALIAS(DEV.QALIAS) REPLACE TARGQ(DEV.QLOCAL) DESCR('dev alias queue')
DEFINE QMODEL(DEV.QMODEL) REPLACE DEFTYPE(TEMPDYN) DEFSOPT(SHARED) DESCR('dev model queue')
DEFINE TOPIC(DEV.TOPIC) REPLACE TOPICSTR('dev/topic') DESCR('dev topic')
DEFINE NAMELIST(DEV.NAMELIST) REPLACE NAMES(DEV.QLOCAL) DESCR('dev namelist')
DEFINE CHANNEL(DEV.SVRCONN) CHLTYPE(SVRCONN) TRPTYPE(TCP) REPLACE DESCR('dev svrconn')
DEFINE CHANNEL(DEV.SDR) CHLTYPE(SDR) TRPTYPE(TCP) XMITQ(DEV.XMITQ) CONNAME('localhost(1414)') REPLACE DESCR('dev sdr')
DEFINE CHANNEL(DEV.RCVR) CHLTYPE(RCVR) TRPTYPE(TCP) REPLACE DESCR('dev rcvr')
DEFINE LISTENER(DEV.LSTR) TRPTYPE(TCP) PORT(1415) CONTROL(QMGR) REPLACE DESCR('dev listener')
DEFINE PROCESS(DEV.PROC) REPLACE APPLICID('/bin/true') DESCR('dev process')
DEFINE QLOCAL(DEV.QM2.XMITQ) REPLACE DEFPSIST(YES) USAGE(XMITQ) DESCR('xmit queue to QM2')
DEFINE QREMOTE(DEV.REMOTE.TO.QM2) REPLACE RNAME('DEV.QLOCAL') RQMNAME('QM2') XMITQ(DEV.QM2.XMITQ) DESCR('remote queue to QM2')
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) TRPTYPE(TCP) XMITQ(DEV.QM2.XMITQ) CONNAME('qm2(1414)') REPLACE DESCR('sender to QM2')
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR) TRPTYPE(TCP) REPLACE DESCR('receiver from QM2')
ALTER QMGR CONNAUTH(' ') CHLAUTH(DISABLED)
REFRESH SECURITY TYPE(CONNAUTH)
DEFINE QREMOTE(QM2) RNAME('') RQMNAME('QM2') XMITQ(DEV.QM2.XMITQ) REPLACE DESCR('QM alias for gateway routing to QM2')
START CHANNEL(QM1.TO.QM2)
"""
SEED_QM2 = """\
DEFINE QLOCAL(DEV.DEAD.LETTER) REPLACE DEFPSIST(YES) DESCR('dev dead letter')
ALTER QMGR DEADQ(DEV.DEAD.LETTER)
DEFINE QLOCAL(DEV.QLOCAL) REPLACE DEFPSIST(YES) DEFPRESP(SYNC) DESCR('dev local queue')
DEFINE CHANNEL(DEV.SVRCONN) CHLTYPE(SVRCONN) TRPTYPE(TCP) REPLACE DESCR('dev svrconn')
DEFINE QLOCAL(DEV.QM1.XMITQ) REPLACE DEFPSIST(YES) USAGE(XMITQ) DESCR('xmit queue to QM1')
DEFINE QREMOTE(DEV.REMOTE.TO.QM1) REPLACE RNAME('DEV.QLOCAL') RQMNAME('QM1') XMITQ(DEV.QM1.XMITQ) DESCR('remote queue to QM1')
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) TRPTYPE(TCP) XMITQ(DEV.QM1.XMITQ) CONNAME('qm1(1414)') REPLACE DESCR('sender to QM1')
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) TRPTYPE(TCP) REPLACE DESCR('receiver from QM1')
ALTER QMGR CONNAUTH(' ') CHLAUTH(DISABLED)
REFRESH SECURITY TYPE(CONNAUTH)
DEFINE QREMOTE(QM1) RNAME('') RQMNAME('QM1') XMITQ(DEV.QM1.XMITQ) REPLACE DESCR('QM alias for gateway routing to QM1')
START CHANNEL(QM2.TO.QM1)
"""
# The dev environment's mqwebuser.xml: mqadmin has MQWebAdmin and MQWebUser, mqreader MQWebAdminRO and MQWebUser.
USERS = {"mqadmin": ("MQWebAdmin", "MQWebUser"), "mqreader": ("MQWebAdminRO", "MQWebUser")}
STARTUP = re.compile(r"^pcfserver listening on (\S+):(\d+) https (\S+):(\d+) data (.+) qmgr (\S+)$")
GATEWAY = "ibm-mq-rest-gateway-qmgr"
CSRF = {"ibm-mq-rest-csrf-token": "x"}


@dataclass
class Served:
    name: str
    process: trio.Process
    pcf: int
    https: int
    seed_output: list[str]
    clients: list[httpx.AsyncClient] = field(default_factory=list)

    def client(self, user: str = "mqadmin") -> httpx.AsyncClient:
        client = httpx.AsyncClient(base_url=f"https://127.0.0.1:{self.https}", verify=False, auth=(user, user), timeout=40)
        self.clients.append(client)
        return client

    async def stop(self) -> None:
        self.process.terminate()
        with trio.fail_after(20):
            await self.process.wait()


@asynccontextmanager
async def serve(tmp_path: Path, name: str, seed: str, *args: str) -> AsyncIterator[Served]:
    """``pcfserver serve --qmgr NAME --seed FILE`` on free ports, with the dev environment's users."""
    data = tmp_path / name
    store = UserStore(data)
    for user, roles in USERS.items():
        store.add(user, list(roles), user, [])
    store.close()
    script = tmp_path / f"{name}.mqsc"
    script.write_text(seed)
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "pcfserver", "serve", "--qmgr", name, "--data", str(data), "--port", "0", "--https-port", "0", "--seed", str(script), *args],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    served: Served | None = None
    try:
        assert process.stdout is not None
        buffered, lines = b"", []
        with trio.fail_after(60):
            while not any(STARTUP.match(line) for line in lines):
                chunk = await process.stdout.receive_some(65536)
                assert chunk, f"pcfserver serve exited: {lines}"
                buffered += chunk
                *complete, buffered = buffered.split(b"\n")
                lines += [c.decode() for c in complete]
        match = next(m for m in map(STARTUP.match, lines) if m)
        served = Served(name, process, int(match[2]), int(match[4]), lines)
        yield served
    finally:
        if served is not None:
            for client in served.clients:
                await client.aclose()
        if process.returncode is None:
            process.kill()
        with trio.move_on_after(10):
            await process.wait()


async def mqsc_json(client: httpx.AsyncClient, qmgr: str, *, gateway: str | None = None, **body: Any) -> httpx.Response:
    headers = {**CSRF, **({GATEWAY: gateway} if gateway else {})}
    return await client.post(f"/ibmmq/rest/v2/admin/action/qmgr/{qmgr}/mqsc", json={"type": "runCommandJSON", **body}, headers=headers)


async def mqsc_text(client: httpx.AsyncClient, qmgr: str, text: str, *, gateway: str | None = None) -> httpx.Response:
    headers = {**CSRF, **({GATEWAY: gateway} if gateway else {})}
    return await client.post(f"/ibmmq/rest/v2/admin/action/qmgr/{qmgr}/mqsc", json={"type": "runCommand", "parameters": {"command": text}}, headers=headers)


def params(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["overallCompletionCode"] == 0, body
    return [item["parameters"] for item in body["commandResponse"]]


def error_item(response: httpx.Response) -> dict[str, Any]:
    item: dict[str, Any] = response.json()["error"][0]
    return item


@asynccontextmanager
async def two_servers(tmp_path: Path, *qm1_args: str) -> AsyncIterator[tuple[Served, Served]]:
    """QM1 and QM2, each seeded with its file, each CONNAME naming the other's PCF port.

    QM1 starts first, so its sender channel's CONNAME is set to QM2's port once QM2 listens
    (through QM1's REST API, as pymqrest's ensure_channel would: ALTER CHANNEL without CHLTYPE)."""
    async with serve(tmp_path, "QM1", SEED_QM1, *qm1_args) as qm1:
        async with serve(tmp_path, "QM2", SEED_QM2.replace("qm1(1414)", f"127.0.0.1({qm1.pcf})")) as qm2:
            admin = qm1.client()
            altered = await mqsc_json(admin, "QM1", command="alter", qualifier="channel", name="QM1.TO.QM2", parameters={"conname": f"127.0.0.1({qm2.pcf})"})
            assert altered.json()["overallCompletionCode"] == 0, altered.text
            yield qm1, qm2


async def test_gateway_requests_are_carried_out_on_the_other_server_both_ways(tmp_path: Path) -> None:
    async with two_servers(tmp_path) as (qm1, qm2):
        for served in (qm1, qm2):
            assert "AMQ8006I: IBM MQ queue created." in served.seed_output
            assert any(line.startswith(f"pcfserver: --seed {tmp_path / served.name}.mqsc exit status ") for line in served.seed_output)
        via_qm1, via_qm2 = qm1.client(), qm2.client()

        # The URL names the target, the header the gateway (this server); the answer is the target's.
        answer = await mqsc_json(via_qm1, "QM2", gateway="QM1", command="display", qualifier="qmgr", responseParameters=["all"])
        assert [p["qmname"] for p in params(answer)] == ["QM2"]
        assert answer.headers[GATEWAY] == "QM1"
        answer = await mqsc_json(via_qm2, "QM1", gateway="QM2", command="display", qualifier="qmgr", responseParameters=["all"])
        assert [p["qmname"] for p in params(answer)] == ["QM1"]

        # The qmgr resource takes the gateway too.
        qmgr = await via_qm1.get("/ibmmq/rest/v2/admin/qmgr/QM2", headers={GATEWAY: "QM1"})
        assert (qmgr.json(), qmgr.headers[GATEWAY]) == ({"qmgr": [{"name": "QM2", "state": "running"}]}, "QM1")
        status = await via_qm1.get("/ibmmq/rest/v2/admin/qmgr/QM2", params={"status": "status.channelInitiatorState"}, headers={GATEWAY: "QM1"})
        assert status.json() == {"qmgr": [{"name": "QM2", "state": "running", "status": {"channelInitiatorState": "running"}}]}, status.text
        unrouted = await via_qm1.get("/ibmmq/rest/v2/admin/qmgr/QM2")
        assert (unrouted.status_code, error_item(unrouted)["msgId"]) == (404, "MQWB0009E")

        # Objects only the target has are found through the gateway, and not on the gateway itself.
        remote = await mqsc_json(via_qm1, "QM2", gateway="QM1", command="display", qualifier="queue", name="DEV.REMOTE.TO.QM1", responseParameters=["all"])
        assert [(p["queue"], p["rqmname"]) for p in params(remote)] == [("DEV.REMOTE.TO.QM1", "QM1")]
        local = await mqsc_json(via_qm1, "QM1", command="display", qualifier="queue", name="DEV.REMOTE.TO.QM1")
        assert local.json()["commandResponse"][0]["reasonCode"] == mq.MQRC_UNKNOWN_OBJECT_NAME
        back = await mqsc_json(via_qm2, "QM1", gateway="QM2", command="display", qualifier="queue", name="DEV.QREMOTE", responseParameters=["rname"])
        assert [p["rname"] for p in params(back)] == ["DEV.TARGET"]

        # A change through the gateway is made on the target only.
        made = await mqsc_json(via_qm1, "QM2", gateway="QM1", command="define", qualifier="qlocal", name="GW.MADE", parameters={"descr": "via QM1"})
        assert made.json()["overallCompletionCode"] == 0, made.text
        assert [p["descr"] for p in params(await mqsc_json(via_qm2, "QM2", command="display", qualifier="queue", name="GW.MADE", responseParameters=["descr"]))] == ["via QM1"]
        missing = await mqsc_json(via_qm1, "QM1", command="display", qualifier="queue", name="GW.MADE")
        assert missing.json()["commandResponse"][0]["reasonCode"] == mq.MQRC_UNKNOWN_OBJECT_NAME

        # IBM's v1 queue resource goes through the gateway as well.
        v1 = await via_qm1.get("/ibmmq/rest/v1/admin/qmgr/QM2/queue/DEV.REMOTE.TO.QM1", headers={GATEWAY: "QM1"})
        assert v1.json()["queue"][0]["remote"]["qmgrName"] == "QM1", v1.text
        made_v1 = await via_qm1.post("/ibmmq/rest/v1/admin/qmgr/QM2/queue", json={"name": "GW.V1"}, headers={**CSRF, GATEWAY: "QM1"})
        assert (made_v1.status_code, made_v1.headers["location"]) == (201, "/ibmmq/rest/v1/admin/qmgr/QM2/queue/GW.V1")
        assert (await via_qm2.get("/ibmmq/rest/v1/admin/qmgr/QM2/queue/GW.V1")).status_code == 200
        assert (await via_qm1.get("/ibmmq/rest/v1/admin/qmgr/QM1/queue/GW.V1")).status_code == 404
        # and the v1 channel resource: QM2's own channels, not QM1's
        qm2_channels = (await via_qm1.get("/ibmmq/rest/v1/admin/qmgr/QM2/channel", headers={GATEWAY: "QM1"})).json()["channel"]
        qm1_channels = (await via_qm1.get("/ibmmq/rest/v1/admin/qmgr/QM1/channel")).json()["channel"]
        assert {c["name"] for c in qm2_channels} == {c["name"] for c in (await via_qm2.get("/ibmmq/rest/v1/admin/qmgr/QM2/channel")).json()["channel"]}
        assert {c["name"] for c in qm2_channels} != {c["name"] for c in qm1_channels}

        # runCommand text too; DISPLAY QMSTATUS and CMDSERV speak for the target.
        status = await mqsc_text(via_qm1, "QM2", "DISPLAY QMSTATUS", gateway="QM1")
        assert "QMNAME(QM2)" in " ".join(status.json()["commandResponse"][0]["text"])
        status_json = await mqsc_json(via_qm1, "QM2", gateway="QM1", command="display", qualifier="qmstatus", responseParameters=["all"])
        assert params(status_json) == [{"qmname": "QM2", "status": "RUNNING"}]
        failed = await mqsc_text(via_qm1, "QM2", "DEFINE QLOCAL(GW.MADE)", gateway="QM1")
        assert "AMQ8150E" in " ".join(failed.json()["commandResponse"][0]["text"])  # already exists on QM2

        # A read-only administrator displays through the gateway but changes nothing there.
        reader = qm1.client("mqreader")
        assert params(await mqsc_json(reader, "QM2", gateway="QM1", command="display", qualifier="qlocal", name="DEV.QLOCAL"))
        refused = await mqsc_json(reader, "QM2", gateway="QM1", command="define", qualifier="qlocal", name="GW.READER")
        assert refused.json()["commandResponse"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        assert (await mqsc_json(via_qm2, "QM2", command="display", qualifier="queue", name="GW.READER")).json()["overallCompletionCode"] == 2


async def test_no_gateway_header_a_gateway_not_here_and_no_route_get_ibm_errors(tmp_path: Path) -> None:
    async with two_servers(tmp_path) as (qm1, qm2):
        admin = qm1.client()
        # Without the header a URL naming another queue manager is not routed (mqweb has no default gateway).
        plain = await mqsc_json(admin, "QM2", command="display", qualifier="qmgr")
        item = error_item(plain)
        assert (plain.status_code, item["msgId"], item["reasonCode"], item["message"]) == (404, "MQWB0009E", mq.MQRC_Q_MGR_NAME_ERROR, "MQWB0009E: Could not query the queue manager 'QM2'.")
        # The gateway must be this queue manager.
        elsewhere = await mqsc_json(admin, "QM2", gateway="QM9", command="display", qualifier="qmgr")
        assert (elsewhere.status_code, error_item(elsewhere)["reasonCode"]) == (404, mq.MQRC_Q_MGR_NAME_ERROR)
        assert "'QM9'" in error_item(elsewhere)["message"]
        # No alias or transmission queue is named QM3: MQOPEN's 2087.
        unknown = await mqsc_json(admin, "QM3", gateway="QM1", command="display", qualifier="qmgr")
        assert (unknown.status_code, error_item(unknown)["msgId"], error_item(unknown)["reasonCode"]) == (404, "MQWB0009E", mq.MQRC_UNKNOWN_REMOTE_Q_MGR)
        assert unknown.headers[GATEWAY] == "QM1"
        # An alias whose transmission queue does not exist: 2196.
        await mqsc_text(admin, "QM1", "DEFINE QREMOTE(QM4) RNAME(' ') RQMNAME(QM4) XMITQ(NO.SUCH.XMITQ)")
        no_xmitq = await mqsc_json(admin, "QM4", gateway="QM1", command="display", qualifier="qmgr")
        assert (no_xmitq.status_code, error_item(no_xmitq)["reasonCode"]) == (404, mq.MQRC_UNKNOWN_XMIT_Q)
        # A transmission queue named QM5 whose sender reaches QM2, not QM5: no reply comes.
        await mqsc_text(admin, "QM1", "DEFINE QLOCAL(QM5) USAGE(XMITQ)")
        await mqsc_text(admin, "QM1", f"DEFINE CHANNEL(QM1.TO.QM5) CHLTYPE(SDR) XMITQ(QM5) CONNAME('127.0.0.1({qm2.pcf})')")
        wrong = await mqsc_json(admin, "QM5", gateway="QM1", command="display", qualifier="qmgr")
        item = error_item(wrong)
        assert (wrong.status_code, item["msgId"], item["reasonCode"]) == (500, "MQWB0004E", mq.MQRC_NO_MSG_AVAILABLE)
        assert "queue manager QM2" in item["explanation"]
        # A transmission queue that no sender channel serves: the command would wait there forever.
        await mqsc_text(admin, "QM1", "DEFINE QLOCAL(QM6) USAGE(XMITQ)")
        unserved = await mqsc_json(admin, "QM6", gateway="QM1", command="display", qualifier="qmgr")
        assert (unserved.status_code, error_item(unserved)["reasonCode"]) == (500, mq.MQRC_NO_MSG_AVAILABLE)


async def test_a_default_gateway_routes_requests_without_the_header(tmp_path: Path) -> None:
    """serve --rest-gateway: this queue manager is mqweb's default gateway (setmqweb mqRestGatewayQmgr)."""
    async with two_servers(tmp_path, "--rest-gateway") as (qm1, qm2):
        answer = await mqsc_json(qm1.client(), "QM2", command="display", qualifier="qmgr")
        assert ([p["qmname"] for p in params(answer)], answer.headers[GATEWAY]) == (["QM2"], "QM1")
        # The other server has no default gateway: the same request is refused there.
        assert (await mqsc_json(qm2.client(), "QM1", command="display", qualifier="qmgr")).status_code == 404


async def test_a_partner_that_is_down_is_answered_at_once(tmp_path: Path) -> None:
    async with two_servers(tmp_path) as (qm1, qm2):
        admin = qm1.client()
        assert params(await mqsc_json(admin, "QM2", gateway="QM1", command="display", qualifier="qmgr"))
        await qm2.stop()
        with trio.fail_after(10):
            down = await mqsc_json(admin, "QM2", gateway="QM1", command="display", qualifier="qmgr")
        item = error_item(down)
        assert (down.status_code, item["msgId"], item["reasonCode"]) == (500, "MQWB0004E", mq.MQRC_NO_MSG_AVAILABLE)
        assert item["message"] == "MQWB0004E: An internal error occurred while communicating with the queue manager. The root MQ reason code was 2033 : MQRC_NO_MSG_AVAILABLE."
        assert "QM1.TO.QM2" in item["explanation"] and down.headers[GATEWAY] == "QM1"
        # The gateway itself still answers for itself.
        assert [p["qmname"] for p in params(await mqsc_json(admin, "QM1", command="display", qualifier="qmgr"))] == ["QM1"]


async def test_keys_strict_clients_know_and_alter_channel_without_chltype(tmp_path: Path) -> None:
    async with serve(tmp_path, "QM1", SEED_QM1) as qm1:
        admin = qm1.client()
        # A topic defined here is TYPE(LOCAL): the cluster-only fields are not shown.
        [topic] = params(await mqsc_json(admin, "QM1", command="display", qualifier="topic", name="DEV.TOPIC", responseParameters=["all"]))
        assert topic["topicstr"] == "dev/topic" and topic["type"] == "LOCAL"
        assert not {"clstate", "clusqmgr", "qmid", "clusdate", "clustime"} & set(topic)
        # runCommandJSON ALTER CHANNEL without chltype keeps the channel's type; runmqsc text still needs CHLTYPE.
        altered = await mqsc_json(admin, "QM1", command="alter", qualifier="channel", name="DEV.SVRCONN", parameters={"descr": "changed"})
        assert altered.json()["overallCompletionCode"] == 0, altered.text
        [channel] = params(await mqsc_json(admin, "QM1", command="display", qualifier="channel", name="DEV.SVRCONN", responseParameters=["descr"]))
        assert (channel["chltype"], channel["descr"]) == ("SVRCONN", "changed")
        text = await mqsc_text(admin, "QM1", "ALTER CHANNEL(DEV.SVRCONN) DESCR('again')")
        assert text.json()["commandResponse"][0]["text"][0].startswith("AMQ8405I")
        missing = await mqsc_json(admin, "QM1", command="alter", qualifier="channel", name="NO.SUCH.CHL", parameters={"descr": "x"})
        assert missing.json()["overallCompletionCode"] == 2


# -- the route, without servers ------------------------------------------------------------------


def engine_with(script: str) -> Any:
    engine = open_engine(None)
    runner = ScriptRunner(engine.execute, qmgr_name="QM1")
    for line in script.splitlines():
        runner.feed(line)
    runner.finish()
    assert not runner.failed and not runner.syntax_errors
    return engine


def test_the_route_follows_ibm_name_resolution() -> None:
    engine = engine_with(
        "DEFINE QLOCAL(QM2.XMITQ) USAGE(XMITQ)\n"
        "DEFINE QREMOTE(QM2) RNAME(' ') RQMNAME(QM2) XMITQ(QM2.XMITQ)\n"
        "DEFINE CHANNEL(A.TO.QM2) CHLTYPE(SDR) XMITQ(QM2.XMITQ) CONNAME('host2(1500),host3(1501)')\n"
        "DEFINE QREMOTE(QM7) RNAME(' ') RQMNAME(QM8)\n"
        "DEFINE QLOCAL(QM8) USAGE(XMITQ)\n"
        "DEFINE CHANNEL(TO.QM8) CHLTYPE(SVR) XMITQ(QM8) CONNAME('[::1](1502)')\n"
        "DEFINE QLOCAL(QM9) USAGE(NORMAL)\n"
        "DEFINE QREMOTE(APP.Q) RNAME(X) RQMNAME(QM2) XMITQ(QM2.XMITQ)\n"
        "DEFINE QREMOTE(QM10) RNAME(' ') RQMNAME(QM10) XMITQ(APP.ALIAS)\n"
        "DEFINE QALIAS(APP.ALIAS) TARGQ(QM9)\n"
    )
    execute = engine.execute
    assert resolve("QM2", execute) == Route("QM2", "QM2.XMITQ", "A.TO.QM2", "host2", 1500)
    # An alias without XMITQ uses the transmission queue named after its RQMNAME.
    assert resolve("QM7", execute) == Route("QM8", "QM8", "TO.QM8", "::1", 1502)
    # A local queue named after the queue manager must be a transmission queue.
    assert resolve("QM9", execute) == NoRoute(mq.MQRC_XMIT_Q_USAGE_ERROR, "QM9 is not a transmission queue (USAGE(NORMAL))")
    assert refused("APP.Q", execute) == mq.MQRC_UNKNOWN_REMOTE_Q_MGR  # a remote queue, not an alias
    assert refused("QM10", execute) == mq.MQRC_XMIT_Q_TYPE_ERROR  # its XMITQ is an alias queue
    assert refused("NOWHERE", execute) == mq.MQRC_UNKNOWN_REMOTE_Q_MGR
    # With a default transmission queue every other name goes there.
    engine.execute(engine_message("ALTER QMGR DEFXMITQ(QM2.XMITQ)"))
    assert resolve("NOWHERE", execute) == Route("NOWHERE", "QM2.XMITQ", "A.TO.QM2", "host2", 1500)
    # No sender serves it: on IBM the command would sit on the transmission queue.
    engine.execute(engine_message("DELETE CHANNEL(A.TO.QM2)"))
    assert isinstance(resolve("QM2", execute), Unreachable)


def test_a_stopped_sender_channel_carries_nothing() -> None:
    engine = engine_with(
        "DEFINE QLOCAL(QM2.XMITQ) USAGE(XMITQ)\n"
        "DEFINE QREMOTE(QM2) RNAME(' ') RQMNAME(QM2) XMITQ(QM2.XMITQ)\n"
        "DEFINE CHANNEL(A.TO.QM2) CHLTYPE(SDR) XMITQ(QM2.XMITQ) CONNAME('host2(1500)')\n"
        "DEFINE CHANNEL(B.TO.QM2) CHLTYPE(SDR) XMITQ(QM2.XMITQ) CONNAME('host3(1501)')\n"
    )
    try:
        engine_message("STOP CHANNEL(A.TO.QM2)")
    except Exception:  # a queue manager without operational channel commands
        pytest.skip("STOP CHANNEL is not a command of this queue manager")

    def stop(channel: str) -> None:
        for verb in ("START", "STOP"):  # IBM stops only a channel that runs (MQRCCF_CHANNEL_NOT_ACTIVE otherwise)
            answer = engine.execute(engine_message(f"{verb} CHANNEL({channel})"))
            assert all(m.comp_code == mq.MQCC_OK for m in answer), answer

    assert resolve("QM2", engine.execute) == Route("QM2", "QM2.XMITQ", "A.TO.QM2", "host2", 1500)
    stop("A.TO.QM2")
    # The stopped channel is passed over for the next one serving the transmission queue, then none is left.
    assert resolve("QM2", engine.execute) == Route("QM2", "QM2.XMITQ", "B.TO.QM2", "host3", 1501)
    stop("B.TO.QM2")
    assert resolve("QM2", engine.execute) == Unreachable("QM2", "the channel B.TO.QM2 is STOPPED")


def refused(target: str, execute: Any) -> int:
    result = resolve(target, execute)
    assert isinstance(result, NoRoute), result
    return result.reason


def engine_message(text: str) -> Any:
    from pcfserver.dialects import mqsc

    message = mqsc.parse(text).message
    assert message is not None
    return message


@pytest.mark.parametrize(
    ("conname", "address"),
    [("qm2(1414)", ("qm2", 1414)), ("127.0.0.1( 1415 )", ("127.0.0.1", 1415)), ("host", ("host", 1414)), ("a(1),b(2)", ("a", 1)),
     ("[::1](1416)", ("::1", 1416)), ("", None), ("host(x)", None), ("host(0)", None)],
)
def test_conname_addresses(conname: str, address: tuple[str, int] | None) -> None:
    assert conname_address(conname) == address


def test_a_seed_file_that_cannot_be_read_stops_serve_before_it_listens(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pcfserver", "serve", "--data", str(tmp_path / "d"), "--port", "0", "--seed", str(tmp_path / "missing.mqsc")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert "cannot read --seed" in done.stderr and "listening" not in done.stdout
