"""The same delivery through the API, REST and the CLI: subscriptions made in process (Session.subscribe) on the engine a
real server serves on 127.0.0.1, publications made through each interface, and ``pcfserver subscribe`` as a subscriber."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String, StringList
from pcfserver.engine.kinds.sub import OBJECT_TYPE
from pcfserver.engine.messages import MQIError
from pcfserver.qmgr import QueueManager, Session, Subscription, open_queue_manager
from pcfserver.server import ServerConfig
from pcfserver.server.service import Service

HOST = "127.0.0.1"
TOPIC = "prices/fruit/apple"
PERSISTENT, NOT_PERSISTENT = mq.MQPER_PERSISTENT, mq.MQPER_NOT_PERSISTENT


@dataclass
class Running:
    qm: QueueManager
    port: int
    subscriber: Session
    publisher: Session

    async def cli(self, *args: str, stdin: bytes = b"") -> tuple[int, str, str]:
        done = await trio.run_process(
            [sys.executable, "-m", "pcfserver.cli", *args, "--port", str(self.port)],
            stdin=stdin, capture_stdout=True, capture_stderr=True, check=False, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    def subscriptions(self) -> list[str]:
        return sorted(self.qm.engine.objects.by_type[OBJECT_TYPE])


@pytest.fixture
def qm() -> Iterator[QueueManager]:
    with open_queue_manager() as manager:
        yield manager


@pytest.fixture
async def running(nursery: trio.Nursery, qm: QueueManager) -> AsyncIterator[Running]:
    # commits on the event loop, so that the in-process sessions' calls never overlap a commit in a thread
    service = Service(qm.engine, ServerConfig(host=HOST, port=0, http_port=0, engine_in_thread=False))
    addresses = await nursery.start(service.serve)
    with qm.session(appl_name="subscriber") as subscriber, qm.session(appl_name="publisher") as publisher:
        yield Running(qm, addresses.http[1], subscriber, publisher)
    service.shutdown()


def drain(subscription: Subscription) -> list[tuple[int, int, bytes, dict[str, str]]]:
    out = []
    while True:
        try:
            md, body = subscription.get()
        except MQIError as error:
            assert error.reason == mq.MQRC_NO_MSG_AVAILABLE
            return out
        out.append((md.persistence, md.priority, body, dict(md.properties)))


async def publish_api(run: Running, body: str, persistent: bool | None, priority: int | None) -> None:
    run.publisher.publish(TOPIC, body, persistent=persistent, priority=priority)


async def publish_rest(run: Running, body: str, persistent: bool | None, priority: int | None) -> None:
    headers = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain;charset=utf-8"}
    if persistent is not None:
        headers["ibm-mq-md-persistence"] = "persistent" if persistent else "nonPersistent"
    if priority is not None:
        headers["ibm-mq-md-priority"] = str(priority)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{run.port}", timeout=20) as client:
        answer = await client.post(f"/ibmmq/rest/v3/messaging/qmgr/QM1/topic/{TOPIC}/message", content=body.encode(), headers=headers)
    assert answer.status_code == 201, answer.text


async def publish_cli(run: Running, body: str, persistent: bool | None, priority: int | None) -> None:
    options = (["--persistent"] if persistent else []) + (["--priority", str(priority)] if priority is not None else [])
    code, out, err = await run.cli("publish", TOPIC, "-", *options, stdin=body.encode() + b"\n")
    assert code == 0 and out.startswith(f"published 1 message on {TOPIC}: messageId ID:"), err


# (interface, persistent, priority asked; persistence, priority delivered).  Not asked: the API takes the topic's DEFPSIST
# and DEFPRTY (SYSTEM.BASE.TOPIC: NO, 0); REST and the CLI take IBM's REST defaults (nonPersistent, priority 4).
CASES = [
    (publish_api, True, 6, PERSISTENT, 6),
    (publish_api, None, None, NOT_PERSISTENT, 0),
    (publish_rest, True, 2, PERSISTENT, 2),
    (publish_rest, None, None, NOT_PERSISTENT, 4),
    (publish_cli, True, 9, PERSISTENT, 9),
    (publish_cli, None, None, NOT_PERSISTENT, 4),
]


async def test_the_same_delivery_through_the_api_rest_and_the_cli(running: Running) -> None:
    exact = running.subscriber.subscribe(TOPIC)
    wildcard = running.subscriber.subscribe("prices/#")
    durable = running.subscriber.subscribe("prices/+/apple", name="APPLES", durable=True)
    elsewhere = running.subscriber.subscribe("prices/veg/#")
    for number, (publish, persistent, priority, want_persistence, want_priority) in enumerate(CASES):
        body = f"{publish.__name__} {number}: 1.{number}0 EUR"
        await publish(running, body, persistent, priority)
        for subscription in (exact, wildcard, durable):
            [(persistence, got_priority, got, properties)] = drain(subscription)
            assert (got.decode(), persistence, got_priority) == (body, want_persistence, want_priority), (publish.__name__, subscription.name)
            assert properties["MQTopicString"] == TOPIC
        assert drain(elsewhere) == []


async def test_a_retained_publication_reaches_a_later_subscriber(running: Running) -> None:
    running.publisher.publish(TOPIC, "retained 2.00 EUR", retain=True, persistent=True, priority=7)
    running.publisher.publish("prices/fruit/pear", "not retained", persistent=True)
    later = running.subscriber.subscribe("prices/fruit/+")
    [(persistence, priority, body, properties)] = drain(later)
    assert (body, persistence, priority, properties["MQIsRetained"]) == (b"retained 2.00 EUR", PERSISTENT, 7, "true")
    newer_only = running.subscriber.subscribe(TOPIC, new_publications_only=True)
    assert drain(newer_only) == []
    # a publication over REST afterwards reaches both, and is not marked retained
    await publish_rest(running, "after", None, None)
    for subscription in (later, newer_only):
        [(_, _, body, properties)] = drain(subscription)
        assert body == b"after" and "MQIsRetained" not in properties


async def test_cli_subscribe_prints_what_the_api_and_rest_publish_then_removes_its_subscription(running: Running) -> None:
    before = running.subscriptions()
    outcome: dict[str, tuple[int, str, str]] = {}

    async def subscriber() -> None:
        outcome["done"] = await running.cli("subscribe", TOPIC, "--wait", "2")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(subscriber)
        with trio.fail_after(30):
            while len(running.subscriptions()) == len(before):
                await trio.sleep(0.05)
        [made] = set(running.subscriptions()) - set(before)
        assert made.startswith("PCFSERVER.SUBSCRIBE.")
        running.publisher.publish(TOPIC, "from the API", priority=5)  # same priority: arrival order
        await publish_rest(running, "over REST", True, 5)
    code, out, err = outcome["done"]
    assert code == 0 and out.splitlines() == ["from the API", "over REST"], err
    assert "received 2 publications" in err
    # the temporary subscription and its managed queue are gone
    assert running.subscriptions() == before
    assert not [q for q in running.qm.engine.queue_names() if q.startswith("SYSTEM.MANAGED.DURABLE.")]


async def test_cli_subscribe_by_name_is_durable_and_resumed(running: Running) -> None:
    code, out, err = await running.cli("subscribe", TOPIC, "--name", "CLI.APPLES", "--wait", "0.3")
    assert (code, out) == (0, "") and "durable" in err
    assert "CLI.APPLES" in running.subscriptions()
    running.publisher.publish(TOPIC, "while away", persistent=True)  # kept for the subscription while no one reads
    code, out, err = await running.cli("subscribe", TOPIC, "--name", "CLI.APPLES", "--wait", "0.3")
    assert (code, out) == (0, "while away\n") and "resumed" in err
    assert "CLI.APPLES" in running.subscriptions()
    code, _, err = await running.cli("subscribe", "prices/other", "--name", "CLI.APPLES", "--wait", "0.3")
    assert code == 1 and "exists for the topic string" in err


async def test_cli_subscribe_prints_the_retained_publication_first(running: Running) -> None:
    """pcfserver subscribe is a DEFINE SUB, which receives the topic's retained publication when it is made (IBM's
    rule for a new subscription; formats/pubsub-rules.tsv)."""
    running.publisher.publish(TOPIC, "retained 2.00 EUR", retain=True, persistent=True)
    code, out, err = await running.cli("subscribe", TOPIC, "--name", "CLI.RETAINED", "--wait", "0.3")
    assert (code, out) == (0, "retained 2.00 EUR\n"), err
    code, out, err = await running.cli("subscribe", TOPIC, "--name", "CLI.RETAINED", "--wait", "0.3")
    assert (code, out) == (0, ""), err  # resumed: not a new subscription, so no second copy


async def test_cli_publish_failures_are_reported(running: Running) -> None:
    running.qm.execute(_define_disabled_topic())
    code, _, err = await running.cli("publish", "closed/shop")
    assert code == 1 and "MQWB0303E" in err and "2051" in err
    code, _, err = await running.cli("publish", TOPIC, "--priority", "12")
    assert code == 2


def _define_disabled_topic() -> Message:
    return Message(
        mq.MQCMD_CREATE_TOPIC,
        (String(mq.MQCA_TOPIC_NAME, "CLOSED"), String(mq.MQCA_TOPIC_STRING, "closed"), Integer(mq.MQIA_INHIBIT_PUB, mq.MQTA_PUB_INHIBITED)),
    )


async def test_cli_publish_and_subscribe_sign_in_and_need_authority(nursery: trio.Nursery, tmp_path: Path) -> None:
    from pcfserver.users import UserStore

    store = UserStore(tmp_path)
    store.add("bob", ["MQWebUser", "MQWebAdmin"], "bob-pw", [])
    store.close()
    with open_queue_manager(tmp_path) as qm:
        service = Service(qm.engine, ServerConfig(host=HOST, port=0, http_port=0, engine_in_thread=False), tmp_path)
        addresses = await nursery.start(service.serve)
        with qm.session() as subscriber, qm.session() as publisher:
            run = Running(qm, addresses.http[1], subscriber, publisher)
            watching = subscriber.subscribe(TOPIC)
            sign_in = ("--user", "bob", "--password-stdin")
            code, _, err = await run.cli("publish", TOPIC, *sign_in, stdin=b"bob-pw\n")
            assert code == 1 and "2035" in err  # MQWebUser publishes under bob's own authority records
            code, _, err = await run.cli("publish", TOPIC, "--user", "bob", "--password-stdin", stdin=b"wrong\n")
            assert code == 1 and "refused the user name or password of bob" in err
            for profile, object_type, auths in (
                ("SYSTEM.BASE.TOPIC", mq.MQOT_TOPIC, (mq.MQAUTH_PUBLISH, mq.MQAUTH_SUBSCRIBE)),
                ("SYSTEM.MANAGED.DURABLE.**", mq.MQOT_Q, (mq.MQAUTH_INPUT, mq.MQAUTH_BROWSE, mq.MQAUTH_INQUIRE)),
            ):
                [answer] = qm.execute(Message(mq.MQCMD_SET_AUTH_REC, (
                    String(mq.MQCACF_AUTH_PROFILE_NAME, profile), Integer(mq.MQIACF_OBJECT_TYPE, object_type),
                    IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, auths), StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, ("bob",)),
                )))
                assert answer.reason == 0
            code, _, err = await run.cli("publish", TOPIC, *sign_in, stdin=b"bob-pw\n")
            assert code == 0, err
            assert [body for _, _, body, _ in drain(watching)] == [b"pcfserver publication 1"]
            code, out, err = await run.cli("subscribe", TOPIC, "--name", "BOB", "--wait", "0.3", *sign_in, stdin=b"bob-pw\n")
            assert code == 0, err
            publisher.publish(TOPIC, "for bob")
            code, out, err = await run.cli("subscribe", TOPIC, "--name", "BOB", "--wait", "0.3", *sign_in, stdin=b"bob-pw\n")
            assert (code, out) == (0, "for bob\n"), err
        service.shutdown()
