"""IBM's messaging REST API publishing to a topic (POST .../topic/{topicString}/message), end to end: a real server on
127.0.0.1 (PCF and HTTP ports, one committer), httpx as the client, subscriptions made in process on the same engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.dialects import mqsc
from pcfserver.engine import open_engine
from pcfserver.engine.engine import Engine
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.engine.messaging import SessionState
from pcfserver.server import ServerConfig
from pcfserver.server.service import Service
from pcfserver.users import UserStore

HOST = "127.0.0.1"
CSRF = {"ibm-mq-rest-csrf-token": ""}
TEXT = {**CSRF, "Content-Type": "text/plain;charset=utf-8"}
MQSC = "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc"


def topic_url(encoded_topic: str, version: int = 2, qmgr: str = "QM1") -> str:
    return f"/ibmmq/rest/v{version}/messaging/qmgr/{qmgr}/topic/{encoded_topic}/message"


@dataclass
class Running:
    service: Service
    engine: Engine
    port: int
    session: SessionState

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=f"http://{HOST}:{self.port}", timeout=20, **kwargs)

    def subscribe(self, topic: str) -> str:
        """A non-durable API subscription (MQSUB, managed queue) in process; answers its queue."""
        pubsub, session = self.engine.pubsub, self.session
        return self.engine.execute_operation(lambda: pubsub.subscribe(session, topic)).queue

    def received(self, queue: str) -> list[tuple[MessageDescriptor, bytes]]:
        """Every publication on a subscription's queue, taken off it."""
        layer, session, out = self.engine.messaging, self.session, []
        while True:
            try:
                out.append(self.engine.execute_operation(lambda: layer.get(session, queue, authorize=False)))
            except MQIError as error:
                assert error.reason == mq.MQRC_NO_MSG_AVAILABLE
                return out


async def start(nursery: trio.Nursery, data: Path | None = None) -> Running:
    engine = open_engine(data)
    # commits on the event loop: the test's own in-process calls never overlap a commit in a thread
    service = Service(engine, ServerConfig(host=HOST, port=0, http_port=0, engine_in_thread=False), data)
    addresses = await nursery.start(service.serve)
    return Running(service, engine, addresses.http[1], engine.messaging.open_session("subscriber"))


@pytest.fixture
async def running(nursery: trio.Nursery) -> AsyncIterator[Running]:
    run = await start(nursery)
    yield run
    run.service.shutdown()


def error_item(response: httpx.Response) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json")
    item: dict[str, Any] = response.json()["error"][0]
    assert item["message"].startswith(item["msgId"] + ": ")
    return item


async def test_v2_publication_reaches_every_matching_subscriber(running: Running) -> None:
    exact, wildcard, other = running.subscribe("price/fruit/apple"), running.subscribe("price/#"), running.subscribe("price/veg")
    async with running.client() as client:
        answer = await client.post(topic_url("price/fruit/apple"), content=b"1.25 EUR", headers=TEXT)
    assert (answer.status_code, answer.content) == (201, b"")
    msg_id = answer.headers["ibm-mq-md-messageId"]
    assert len(msg_id) == 48 and bytes.fromhex(msg_id).startswith(b"AMQ QM1")  # v2: 48 hex digits
    for queue in (exact, wildcard):
        [(md, body)] = running.received(queue)
        assert body == b"1.25 EUR" and md.format == "MQSTR   " and md.coded_char_set_id == 1208
        # IBM: nonPersistent unless ibm-mq-md-persistence says otherwise, priority 4 (not the topic's DEFPRTY)
        assert (md.persistence, md.priority) == (mq.MQPER_NOT_PERSISTENT, 4)
        assert ("MQTopicString", "price/fruit/apple") in md.properties
        assert md.put_appl_name == "pcfserver REST"
    assert running.received(other) == []


async def test_v3_headers_priority_persistence_and_user_properties(running: Running) -> None:
    queue = running.subscribe("orders/#")
    async with running.client() as client:
        headers = {**TEXT, "ibm-mq-md-persistence": "persistent", "ibm-mq-md-priority": "8", "ibm-mq-usr-region": "emea",
                   "ibm-mq-md-expiry": "60000"}
        answer = await client.post(topic_url("orders/new", 3), content=b'{"id": 1}', headers={**headers, "Content-Type": "application/json"})
        assert answer.status_code == 201 and answer.headers["ibm-mq-md-messageId"].startswith("ID:")
        # before v3 ibm-mq-md-priority and ibm-mq-usr-* are ignored, as on a queue
        assert (await client.post(topic_url("orders/old", 2), content=b"v2", headers=headers)).status_code == 201
    [(md, body), (md2, body2)] = running.received(queue)
    assert (body, md.persistence, md.priority) == (b'{"id": 1}', mq.MQPER_PERSISTENT, 8)
    assert ("region", "emea") in md.properties
    assert 0 < md.expiry <= 600  # ibm-mq-md-expiry in ms; the copy's Expiry in tenths of a second, counting down
    assert (body2, md2.persistence, md2.priority) == (b"v2", mq.MQPER_PERSISTENT, 4)
    assert all(name != "region" for name, _ in md2.properties)


@pytest.mark.parametrize(
    ("encoded", "topic"),
    [
        ("%2Fsport/football", "/sport/football"),  # IBM's example: a leading '/' is sent as %2F
        ("sport/football%2F", "sport/football/"),
        ("a%2Eb/c%3Fd/e%25f", "a.b/c?d/e%f"),  # '.', '?' and '%' encoded, as IBM asks
        ("x/message", "x/message"),  # a level named like the resource
    ],
)
async def test_topic_strings_are_url_encoded_with_real_level_separators(running: Running, encoded: str, topic: str) -> None:
    queue = running.subscribe(topic)
    async with running.client() as client:
        assert (await client.post(topic_url(encoded), content=b"here", headers=TEXT)).status_code == 201
    [(md, body)] = running.received(queue)
    assert body == b"here" and ("MQTopicString", topic) in md.properties


async def test_correlation_id_and_reply_to_reach_the_copies_as_ibm_sets_them(running: Running) -> None:
    """ibm-mq-md-replyTo goes onto every copy; ibm-mq-md-correlationId onto the copies of subscriptions whose
    correlation id is MQCI_NONE only (IBM SubCorrelId): the others carry their own (the SubId unless DESTCORL)."""
    engine, session = running.engine, running.session
    own = running.subscribe("rpc/#")
    keeps = engine.execute_operation(lambda: engine.pubsub.subscribe(session, "rpc/#", correl_id=bytes(24))).queue
    for line in ("DEFINE QLOCAL(ADMIN.Q)", "DEFINE SUB(ADMIN.NONE) TOPICSTR('rpc/#') DEST(ADMIN.Q) DESTCORL(00)",
                 "DEFINE SUB(ADMIN.OWN) TOPICSTR('rpc/#') DEST(ADMIN.Q) DESTCORL(0A0B)"):
        assert mqsc.run(line, engine.execute).status == "ok"
    sub_id = next(r.attrs[mq.MQBACF_SUB_ID] for r in engine.objects.by_type[-1].values() if r.attrs[mq.MQCACF_DESTINATION] == own)
    correl = bytes(range(1, 25))
    async with running.client() as client:
        headers = {**TEXT, "ibm-mq-md-correlationId": correl.hex(), "ibm-mq-md-replyTo": "REPLY.Q@QM9"}
        assert (await client.post(topic_url("rpc/ask"), content=b"first", headers=headers)).status_code == 201
        headers = {**TEXT, "ibm-mq-md-correlationId": "order-17", "ibm-mq-md-replyTo": "REPLY.Q"}
        assert (await client.post(topic_url("rpc/ask", 3), content=b"second", headers=headers)).status_code == 201
    order17 = b"order-17".ljust(24, b"\0")
    [(a1, _), (a2, _)] = running.received(own)
    assert a1.correl_id == a2.correl_id == bytes.fromhex(str(sub_id))  # its own SubCorrelId
    [(k1, _), (k2, _)] = running.received(keeps)
    assert (k1.correl_id, k2.correl_id) == (correl, order17)  # MQCI_NONE: the publication's own
    admin = running.received("ADMIN.Q")
    fixed = bytes([10, 11]).ljust(24, b"\0")  # DESTCORL(0A0B)
    assert sorted(md.correl_id for md, _ in admin) == sorted([correl, order17, fixed, fixed])
    for md, body in [(a1, b"first"), (k1, b"first")] + [(md, b) for md, b in admin if b == b"first"]:
        assert (md.reply_to_q.strip(), md.reply_to_qmgr.strip()) == ("REPLY.Q", "QM9"), body
    for md in (a2, k2):
        assert (md.reply_to_q.strip(), md.reply_to_qmgr.strip()) == ("REPLY.Q", "QM1")  # no @qmgr: this queue manager


async def test_a_publication_nobody_subscribes_to_is_still_accepted(running: Running) -> None:
    async with running.client() as client:
        assert (await client.post(topic_url("nobody/listens"), content=b"x", headers=TEXT)).status_code == 201


async def test_requests_refused_before_the_queue_manager(running: Running) -> None:
    queue = running.subscribe("t")
    async with running.client() as client:
        no_csrf = await client.post(topic_url("t"), content=b"x", headers={"Content-Type": "text/plain"})
        assert no_csrf.status_code == 403 and error_item(no_csrf)["msgId"] == "MQWB0100E"
        v1 = await client.post(topic_url("t", 1), content=b"x", headers=TEXT)  # IBM: topics from v2 on
        assert v1.status_code == 404
        browse = await client.get(topic_url("t"))
        assert browse.status_code == 405 and browse.headers["allow"] == "POST"
        unknown = await client.post(topic_url("t", qmgr="QM9"), content=b"x", headers=TEXT)
        assert unknown.status_code == 404 and error_item(unknown)["msgId"] == "MQWB0009E"
        media = await client.post(topic_url("t"), content=b"x", headers={**CSRF, "Content-Type": "image/png"})
        assert media.status_code == 415 and error_item(media)["msgId"] == "MQWB0306E"
        for name, value in (("ibm-mq-md-persistence", "always"), ("ibm-mq-md-expiry", "soon")):
            bad = await client.post(topic_url("t"), content=b"x", headers={**TEXT, name: value})
            assert bad.status_code == 400 and error_item(bad)["msgId"] == "MQWB0302E"
        query = await client.post(topic_url("t") + "?retain=yes", content=b"x", headers=TEXT)
        assert query.status_code == 400
    assert running.received(queue) == []


async def test_pub_disabled_and_pubsub_disabled_answer_their_reason(running: Running) -> None:
    queue = running.subscribe("closed/shop")
    async with running.client() as client:
        made = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "DEFINE TOPIC(CLOSED) TOPICSTR('closed') PUB(DISABLED)"}},
                                 headers=CSRF)
        assert made.json()["overallCompletionCode"] == 0
        refused = await client.post(topic_url("closed/shop"), content=b"x", headers=TEXT)
        item = error_item(refused)
        assert refused.status_code == 500 and (item["msgId"], item["completionCode"], item["reasonCode"]) == ("MQWB0303E", 2, mq.MQRC_PUT_INHIBITED)
        assert "MQRC_PUT_INHIBITED" in item["explanation"]
        await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "ALTER QMGR PSMODE(DISABLED)"}}, headers=CSRF)
        inhibited = await client.post(topic_url("open/shop"), content=b"x", headers=TEXT)
        assert inhibited.status_code == 500 and error_item(inhibited)["reasonCode"] == mq.MQRC_PUBSUB_INHIBITED
    assert running.received(queue) == []


def add_user(data: Path, name: str, *roles: str) -> None:
    store = UserStore(data)
    store.add(name, list(roles), f"{name}-pw", [])
    store.close()


async def test_roles_and_publish_authority(nursery: trio.Nursery, tmp_path: Path) -> None:
    add_user(tmp_path, "admin", "MQWebAdmin")
    add_user(tmp_path, "viewer", "MQWebAdminRO")
    add_user(tmp_path, "app", "MQWebUser")
    running = await start(nursery, tmp_path)
    queue = running.subscribe("news/today")
    url = topic_url("news/today")
    async with running.client() as client:
        assert (await client.post(url, content=b"x", headers=TEXT)).status_code == 401
        for name in ("admin", "viewer"):  # IBM: only MQWebUser may use the messaging API
            refused = await client.post(url, content=b"x", headers=TEXT, auth=(name, f"{name}-pw"))
            assert refused.status_code == 403, name
        # MQWebUser: under its own authority records, which grant nothing yet
        app = await client.post(url, content=b"x", headers=TEXT, auth=("app", "app-pw"))
        assert app.status_code == 500 and error_item(app)["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        grant = "SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(PUB)"
        made = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": grant}}, headers=CSRF, auth=("admin", "admin-pw"))
        assert made.json()["overallCompletionCode"] == 0
        app = await client.post(url, content=b"granted", headers=TEXT, auth=("app", "app-pw"))
        assert app.status_code == 201
    [(md, body)] = running.received(queue)
    assert body == b"granted" and md.user_identifier.strip() == "app"
    running.service.shutdown()
