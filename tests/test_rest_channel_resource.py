"""IBM's v1 channel resource (GET /ibmmq/rest/v1/admin/qmgr/{qmgr}/channel[/{name}]) against a real server.

A published run of IBM's .NET REST administration sample shows mqweb's answer for SYSTEM.DEF.SENDER, 141 bytes; a
CP4I provisioning script lists channels this way.  IBM: only TCP sender, receiver, server, requester, cluster-sender
and cluster-receiver channels are reported, with the connection and (sender, server) the transmission queue always."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from pcfserver.rest.channel_resource import connection
from tests.test_rest_admin import CSRF, MQSC, Server, start

CHANNELS = "/ibmmq/rest/v1/admin/qmgr/QM1/channel"


@pytest.fixture
async def server(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Server]:
    running = await start(nursery, tmp_path)
    async with running.client() as client:
        for command in (
            "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2.example(1415),10.0.0.2(1416)') XMITQ(QM2.XMIT)",
            "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)",
            "DEFINE CHANNEL(ODD.RQSTR) CHLTYPE(RQSTR) CONNAME('justahost')",
            "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)",
            "DEFINE CHANNEL(TO.LU62) CHLTYPE(SDR) TRPTYPE(LU62) CONNAME('LUNAME') XMITQ(X)",
        ):
            made = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": command}}, headers=CSRF)
            assert made.json()["overallCompletionCode"] == 0, (command, made.text)
    yield running
    running.service.shutdown()


async def test_the_published_answer_for_the_default_sender_byte_for_byte(server: Server) -> None:
    async with server.client() as client:
        got = await client.get(f"{CHANNELS}/SYSTEM.DEF.SENDER")
    assert got.status_code == 200 and got.headers["content-length"] == "141"
    assert got.text == (
        '{"channel": [{\n  "sender": {\n    "transmissionQueueName": "",\n    "connection": []\n  },\n'
        '  "name": "SYSTEM.DEF.SENDER",\n  "type": "sender"\n}]}'
    )


async def test_only_the_tcp_channels_of_the_six_types_are_listed(server: Server) -> None:
    async with server.client() as client:
        listed = (await client.get(CHANNELS)).json()["channel"]
        by_name = {c["name"]: c for c in listed}
        assert "APP.SVRCONN" not in by_name and "TO.LU62" not in by_name and "SYSTEM.DEF.SVRCONN" not in by_name
        assert by_name["TO.QM2"] == {
            "sender": {"transmissionQueueName": "QM2.XMIT", "connection": [{"host": "qm2.example", "port": 1415}, {"host": "10.0.0.2", "port": 1416}]},
            "name": "TO.QM2",
            "type": "sender",
        }
        assert by_name["QM2.TO.QM1"] == {"name": "QM2.TO.QM1", "type": "receiver"}
        assert by_name["ODD.RQSTR"]["requester"] == {"connection": [{"host": "justahost"}]}
        receivers = (await client.get(CHANNELS, params={"type": "receiver", "name": "QM2*"})).json()["channel"]
        assert [c["name"] for c in receivers] == ["QM2.TO.QM1"]
        assert (await client.get(CHANNELS, params={"name": "NONE.SUCH*"})).json() == {"channel": []}
        for name in ("NO.SUCH.CHANNEL", "APP.SVRCONN"):  # missing, or a channel this resource does not report
            missing = await client.get(f"{CHANNELS}/{name}")
            assert missing.status_code == 404 and missing.json()["error"][0]["msgId"] == "PCFS0028E", name
        named = await client.get(f"{CHANNELS}/TO.QM2", params={"attributes": "sender.connection"})
        assert named.json()["channel"][0]["sender"]["connection"][0]["port"] == 1415


async def test_what_is_not_served_is_refused_not_guessed(server: Server) -> None:
    async with server.client() as client:
        for query in ({"attributes": "*"}, {"attributes": "general.description"}, {"status": "*"}, {"filter": "name:equalTo:X"}):
            refused = await client.get(CHANNELS, params=query)
            assert refused.status_code == 400 and refused.json()["error"][0]["msgId"] == "PCFS0027E", query
        assert (await client.get(CHANNELS, params={"commandScope": "*"})).status_code == 400
        assert (await client.get(CHANNELS, params={"bogus": "1"})).json()["error"][0]["msgId"] == "PCFS0026E"
        assert (await client.get(CHANNELS, params={"type": "serverConnection"})).status_code == 400
        posted = await client.post(CHANNELS, json={"name": "X"}, headers=CSRF)
        assert posted.status_code == 405 and posted.headers["allow"] == "GET"


@given(st.lists(st.tuples(st.from_regex(r"[a-z0-9][a-z0-9.\-]{0,20}", fullmatch=True), st.integers(0, 65535)), min_size=1, max_size=4))
def test_a_conname_list_reads_as_its_addresses(addresses: list[tuple[str, int]]) -> None:
    text = ",".join(f"{host}({port})" for host, port in addresses)
    assert connection(text) == [{"host": h, "port": p} for h, p in addresses]
    assert connection(text + ",(") == [{"host": text + ",("}]  # not host(port): the whole CONNAME as one host


def test_no_conname_is_an_empty_array() -> None:
    assert connection("") == connection("   ") == []
