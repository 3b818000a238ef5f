"""Publish/subscribe through the embedded queue manager (issue 19): what a publisher and a subscriber notice."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import mqsc_each_line as run

from pcfserver import mq
from pcfserver.engine.authority import Identity
from pcfserver.engine.messages import MQIError
from pcfserver.engine.store import SqliteStore
from pcfserver.qmgr import QueueManager, open_queue_manager


def reason(call: object) -> int:
    assert callable(call)
    with pytest.raises(MQIError) as caught:
        call()
    return caught.value.reason


def depth(qm: QueueManager, queue: str) -> int:
    return qm.engine.messaging.status(queue)[0]


def test_administrative_subscription_receives_a_copy_with_its_own_msgid_and_the_subid_as_correlid() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(A.Q)\nDEFINE QLOCAL(B.Q)")
        run(qm, "DEFINE SUB(A) TOPICSTR('price/fruit/#') DEST(A.Q)")
        run(qm, "DEFINE SUB(B) TOPICSTR('price/*/apple') DEST(B.Q) WSCHEMA(CHAR) DESTCORL(0102) PUBPRTY(7)")
        sub_id = qm.engine.objects.by_type[-1]["A"].attrs[mq.MQBACF_SUB_ID]
        with qm.session() as s:
            published = s.publish("price/fruit/apple", "1.20")
            a_md, a_body = s.get("A.Q")
            b_md, b_body = s.get("B.Q")
        assert a_body == b_body == b"1.20"
        assert len({published.msg_id, a_md.msg_id, b_md.msg_id}) == 3
        assert a_md.correl_id.hex().upper() == str(sub_id)
        assert b_md.correl_id == bytes([1, 2]).ljust(24, b"\0")
        assert (a_md.priority, b_md.priority) == (0, 7)  # SYSTEM.BASE.TOPIC's DEFPRTY(0); B's PUBPRTY(7)
        assert dict(a_md.properties)["MQTopicString"] == "price/fruit/apple"


def test_topic_defaults_and_pub_disabled() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE SUB(S) TOPICSTR('news/#') DEST(Q)")
        run(qm, "DEFINE TOPIC(NEWS) TOPICSTR('news') DEFPSIST(YES) DEFPRTY(6)")
        with qm.session() as s:
            md = s.publish("news/today", "x")
            assert (md.persistence, md.priority) == (mq.MQPER_PERSISTENT, 6)
            assert s.get("Q")[0].persistence == mq.MQPER_PERSISTENT
            assert s.publish("news/today", "y", persistent=False, priority=2).priority == 2
            run(qm, "ALTER TOPIC(NEWS) PUB(DISABLED)")  # takes effect for the next publication
            assert reason(lambda: s.publish("news/today", "z")) == mq.MQRC_PUT_INHIBITED
            assert s.publish("elsewhere", "nobody listens").persistence == mq.MQPER_NOT_PERSISTENT  # success
        assert depth(qm, "Q") == 1


def test_delivery_rules_when_a_destination_refuses() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(OK.Q)\nDEFINE QLOCAL(FULL.Q) MAXDEPTH(1)")
        run(qm, "DEFINE SUB(OK) TOPICSTR('t') DEST(OK.Q)\nDEFINE SUB(FULL) TOPICSTR('t') DEST(FULL.Q)")
        run(qm, "DEFINE TOPIC(T) TOPICSTR('t') USEDLQ(NO) NPMSGDLV(ALLAVAIL) PMSGDLV(ALL)")
        with qm.session() as s:
            s.publish("t", "1", persistent=False)
            s.publish("t", "2", persistent=False)  # FULL.Q is full: ALLAVAIL delivers to the others
            assert (depth(qm, "OK.Q"), depth(qm, "FULL.Q")) == (2, 1)
            assert reason(lambda: s.publish("t", "3", persistent=True)) == mq.MQRC_PUBLICATION_FAILURE
            assert depth(qm, "OK.Q") == 2  # ALL: delivered to nobody
            run(qm, "ALTER TOPIC(T) PMSGDLV(ALLDUR)")  # administrative subscriptions are durable
            assert reason(lambda: s.publish("t", "4", persistent=True)) == mq.MQRC_PUBLICATION_FAILURE
            # USEDLQ(YES) with a dead-letter queue: the refused copy goes there and counts as delivered
            run(qm, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\nALTER TOPIC(T) USEDLQ(YES)")
            s.publish("t", "5", persistent=True)
            assert (depth(qm, "OK.Q"), depth(qm, "DLQ")) == (3, 1)
            run(qm, "ALTER TOPIC(T) USEDLQ(NO) NPMSGDLV(ALLAVAIL)\nDELETE SUB(OK)")
            assert reason(lambda: s.publish("t", "6", persistent=False)) == mq.MQRC_PUBLICATION_FAILURE  # nobody got it


def test_syncpoint_copies_join_the_publishers_unit_of_work() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            sub = s.subscribe("a/+")
            s.publish("a/b", "backed out", syncpoint=True)
            s.publish("a/c", "also", syncpoint=True)
            assert reason(lambda: sub.get()) == mq.MQRC_NO_MSG_AVAILABLE  # not visible before commit
            s.backout()
            assert reason(lambda: sub.get()) == mq.MQRC_NO_MSG_AVAILABLE
            s.publish("a/b", "kept", syncpoint=True)
            s.commit()
            assert sub.get()[1] == b"kept"


def test_maxuncommittedmsgs_counts_every_copy() -> None:
    with open_queue_manager() as qm:
        run(qm, "ALTER QMGR MAXUMSGS(3)")
        with qm.session() as s:
            subs = [s.subscribe("x") for _ in range(2)]
            s.publish("x", "1", syncpoint=True)
            assert reason(lambda: s.publish("x", "2", syncpoint=True)) == mq.MQRC_SYNCPOINT_LIMIT_REACHED
            s.commit()
            assert [sub.get()[1] for sub in subs] == [b"1", b"1"]


def test_non_durable_subscription_ends_with_close_and_its_queue_goes() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            sub = s.subscribe("z/#")
            assert qm.engine.queue(sub.queue) is not None
            assert sub.queue.startswith("SYSTEM.MANAGED.NDURABLE.")
            s.publish("z/1", "x")
            sub.close()
            assert qm.engine.queue(sub.queue) is None
            s.publish("z/1", "y")  # no subscriber left: success
            other = s.subscribe("z/#")
        assert qm.engine.queue(other.queue) is None  # ended with its session


def test_subscribe_refusals() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE TOPIC(NOSUB) TOPICSTR('nosub') SUB(DISABLED)\nDEFINE TOPIC(NODUR) TOPICSTR('nodur') DURSUB(NO)")
        run(qm, "DEFINE TOPIC(NOMODEL) TOPICSTR('nomodel') MNDURMDL(MISSING.MODEL)")
        with qm.session() as s:
            assert reason(lambda: s.subscribe("nosub/x")) == mq.MQRC_SUB_INHIBITED
            assert reason(lambda: s.subscribe("nodur", name="D", durable=True)) == mq.MQRC_DURABILITY_NOT_ALLOWED
            assert reason(lambda: s.subscribe("x", durable=True)) == mq.MQRC_SUB_NAME_ERROR
            assert reason(lambda: s.subscribe("nomodel")) == mq.MQRC_INVALID_DESTINATION
            assert reason(lambda: s.subscribe("a%b", wildcard_schema="char")) == mq.MQRC_TOPIC_STRING_ERROR
            s.subscribe("nodur")  # non-durable is allowed


def test_retained_publication_for_new_subscribers_and_clear_topicstr() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            s.publish("weather/paris", "rain", retain=True)
            s.publish("weather/paris", "sun", retain=True)  # one per topic string: the newest
            s.publish("weather/rome", "hot", retain=True)
            sub = s.subscribe("weather/+")
            got = sorted(sub.get()[1] for _ in range(2))
            assert got == [b"hot", b"sun"]
            assert reason(lambda: sub.get()) == mq.MQRC_NO_MSG_AVAILABLE
            fresh = s.subscribe("weather/#", new_publications_only=True)
            assert reason(lambda: fresh.get()) == mq.MQRC_NO_MSG_AVAILABLE
            assert run(qm, "CLEAR TOPICSTR('weather/paris') CLRTYPE(RETAINED)") == ["IBM MQ topic string cleared."]
            later = s.subscribe("weather/#")
            md, body = later.get()
            assert body == b"hot" and dict(md.properties)["MQIsRetained"] == "true"
            assert reason(lambda: later.get()) == mq.MQRC_NO_MSG_AVAILABLE


def test_durable_subscription_and_retained_publication_survive_restart(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        with qm.session() as s:
            sub = s.subscribe("orders/#", name="ORDERS", durable=True)
            gone = s.subscribe("orders/#")
            s.publish("orders/1", "first", persistent=True)
            s.publish("orders/2", "volatile", persistent=False)
            s.publish("orders/latest", "retained", retain=True, persistent=True)
            s.publish("orders/3", "uncommitted", persistent=True, syncpoint=True)  # backed out by the session's end
            sub.close()  # a durable subscription stays
            queue, gone_queue = sub.queue, gone.queue
    with open_queue_manager(tmp_path) as qm:
        assert qm.engine.queue(gone_queue) is None
        with qm.session() as s:
            again = s.subscribe("orders/#", name="ORDERS", durable=True)
            assert again.queue == queue and again.sub_id == sub.sub_id
            bodies = []
            while True:
                try:
                    bodies.append(again.get()[1])
                except MQIError:
                    break
            assert bodies == [b"first", b"retained"]  # persistent copies only, each once
            s.publish("orders/4", "after", persistent=True)
            assert again.get()[1] == b"after"
            late = s.subscribe("orders/+")
            assert late.get()[1] == b"retained"
            again.close(remove=True)
            assert qm.engine.queue(queue) is None
    with open_queue_manager(tmp_path) as qm:
        assert "ORDERS" not in qm.engine.objects.by_type[-1]
        assert run(qm, "DISPLAY SUB(ORDERS)")[0].startswith("AMQ")  # not found


def test_wildcard_block_applies_to_subscriptions_made_after_it() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(EARLY.Q)\nDEFINE QLOCAL(LATE.Q)\nDEFINE QLOCAL(BELOW.Q)\nDEFINE QLOCAL(OTHER.Q)")
        run(qm, "DEFINE TOPIC(PRIVATE) TOPICSTR('private')")
        run(qm, "DEFINE SUB(EARLY) TOPICSTR('#') DEST(EARLY.Q)")
        run(qm, "ALTER TOPIC(PRIVATE) WILDCARD(BLOCK)")
        run(qm, "DEFINE SUB(LATE) TOPICSTR('#') DEST(LATE.Q)")
        run(qm, "DEFINE SUB(BELOW) TOPICSTR('private/#') DEST(BELOW.Q)")
        with qm.session() as s:
            late_api = s.subscribe("+/x")
            s.publish("private/x", "secret")
            s.publish("public/x", "news")
            assert late_api.get()[1] == b"news"
            assert reason(lambda: late_api.get()) == mq.MQRC_NO_MSG_AVAILABLE
        assert (depth(qm, "EARLY.Q"), depth(qm, "LATE.Q"), depth(qm, "BELOW.Q")) == (2, 1, 1)


def test_sys_topics_are_hidden_from_catch_all_subscriptions() -> None:
    """SYSTEM.ADMIN.TOPIC ($SYS/MQ) ships with WILDCARD(BLOCK)."""
    with open_queue_manager() as qm:
        with qm.session() as s:
            everything = s.subscribe("#")
            s.publish("$SYS/MQ/x", "internal")
            assert reason(lambda: everything.get()) == mq.MQRC_NO_MSG_AVAILABLE


def test_administrative_managed_subscription_gets_its_queue_from_the_durable_model() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE SUB(M) TOPICSTR('m/#') DESTCLAS(MANAGED)")
        dest = str(qm.engine.objects.by_type[-1]["M"].attrs[mq.MQCACF_DESTINATION])
        assert dest.startswith("SYSTEM.MANAGED.DURABLE.")
        with qm.session() as s:
            s.publish("m/1", "to the managed queue", persistent=True)
            assert s.get(dest)[1] == b"to the managed queue"
        queue = qm.engine.queue(dest)
        assert queue is not None and queue.attrs[mq.MQIA_DEFINITION_TYPE] == mq.MQQDT_PERMANENT_DYNAMIC


def test_unsubscribing_with_uncommitted_copies_on_the_queue_leaves_nothing_behind(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        with qm.session() as s:
            sub = s.subscribe("u/#", name="U", durable=True)
            s.publish("u/1", "pending", persistent=True, syncpoint=True)
            sub.close(remove=True)
            s.commit()
    store = SqliteStore(tmp_path)
    try:
        snapshot = store.load()
    finally:
        store.close()
    assert sub.queue not in snapshot.queues
    assert [row for row in snapshot.messages if row[1] == sub.queue] == []  # no message left of a queue that is gone


def test_publish_and_subscribe_need_authority_on_a_topic_object_at_or_above() -> None:
    app = Identity("app", ("apps",))
    with open_queue_manager() as qm:
        run(qm, "DEFINE TOPIC(SPORT) TOPICSTR('sport')")
        with qm.session(identity=app) as s:
            assert reason(lambda: s.subscribe("sport/#")) == mq.MQRC_NOT_AUTHORIZED
            assert reason(lambda: s.publish("sport/golf", "x")) == mq.MQRC_NOT_AUTHORIZED
            run(qm, "SET AUTHREC PROFILE(SPORT) OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(SUB)")
            sub = s.subscribe("sport/golf")  # granted on SPORT, above the topic
            assert reason(lambda: s.publish("sport/golf", "x")) == mq.MQRC_NOT_AUTHORIZED
            assert reason(lambda: s.subscribe("news")) == mq.MQRC_NOT_AUTHORIZED  # only SYSTEM.BASE.TOPIC above
            run(qm, "SET AUTHREC PROFILE(SYSTEM.BASE.TOPIC) OBJTYPE(TOPIC) GROUP('apps') AUTHADD(PUB)")
            s.publish("sport/golf", "hole in one")
            assert sub.get()[1] == b"hole in one"  # read from its managed queue without queue authority


def test_status_counts_follow_the_publications() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE QLOCAL(FULL.Q) MAXDEPTH(0)\nDEFINE TOPIC(SPORT) TOPICSTR('sport') DEFPRTY(3)")
        run(qm, "DEFINE SUB(ALL) TOPICSTR('sport/#') DEST(Q)\nDEFINE SUB(GOLF) TOPICSTR('sport/golf') DEST(Q)")
        run(qm, "DEFINE SUB(NEVER) TOPICSTR('sport/golf') DEST(FULL.Q)")
        pubsub = qm.engine.pubsub
        assert pubsub.subscription_status("GOLF") == (0, "", "")
        with qm.session() as s:
            s.publish("sport/golf", "1", retain=True)
            s.publish("sport/golf", "2")
            s.publish("sport/tennis", "3")
            status = pubsub.topic_status("sport/golf")
            assert status[mq.MQIA_SUB_COUNT] == 2 and status[mq.MQIACF_PUBLISH_COUNT] == 2
            assert status[mq.MQIACF_RETAINED_PUBLICATION] == mq.MQQSO_YES
            # ADMIN names the topic object of the node itself (an admin node), blank below it; values still resolve
            assert status[mq.MQCA_ADMIN_TOPIC_NAME] == "" and status[mq.MQIA_DEF_PRIORITY] == 3
            assert pubsub.topic_status("sport")[mq.MQCA_ADMIN_TOPIC_NAME] == "SPORT"
            assert pubsub.topic_status("sport/tennis")[mq.MQIACF_RETAINED_PUBLICATION] == mq.MQQSO_NO
            assert pubsub.topic_status("news")[mq.MQCA_ADMIN_TOPIC_NAME] == ""
            assert pubsub.topic_status("")[mq.MQCA_ADMIN_TOPIC_NAME] == "SYSTEM.BASE.TOPIC"
            assert [pubsub.subscription_status(n)[0] for n in ("ALL", "GOLF", "NEVER")] == [3, 2, 0]
            _count, date, clock = pubsub.subscription_status("ALL")
            assert len(date) == 10 and len(clock) == 8
            run(qm, "ALTER TOPIC(SPORT) PMSGDLV(ALL) USEDLQ(NO)")
            assert reason(lambda: s.publish("sport/golf", "fails", persistent=True)) == mq.MQRC_PUBLICATION_FAILURE
            assert pubsub.subscription_status("GOLF")[0] == 2  # a failed publication counts for nobody


def test_a_put_to_an_alias_of_a_topic_publishes_on_its_topic_string() -> None:
    # IBM: an alias queue with TARGTYPE(TOPIC) lets a point-to-point application publish by putting to a queue name
    with open_queue_manager() as qm:
        run(qm, "DEFINE TOPIC(PRICES) TOPICSTR('prices/fruit')\nDEFINE QLOCAL(FRUIT.Q)\nDEFINE SUB(FRUIT) TOPICSTR('prices/#') DEST(FRUIT.Q)")
        run(qm, "DEFINE QALIAS(PRICES.PUB) TARGET(PRICES) TARGTYPE(TOPIC) DEFPSIST(YES) DEFPRTY(4)")
        run(qm, "DEFINE QALIAS(NOWHERE.PUB) TARGET(NO.SUCH.TOPIC) TARGTYPE(TOPIC)")
        with qm.session() as s:
            put = s.put("PRICES.PUB", b"banana 0.25")
            md, body = s.get("FRUIT.Q")
            assert body == b"banana 0.25" and dict(md.properties)["MQTopicString"] == "prices/fruit"
            assert (put.persistence, put.priority) == (mq.MQPER_PERSISTENT, 4)  # the alias's defaults, as for a queue alias
            assert reason(lambda: s.get("PRICES.PUB")) == mq.MQRC_OBJECT_TYPE_ERROR  # nothing is got from a topic
            handle = s.open("PRICES.PUB", output=True)  # opened for output, as an application publishing through it does
            assert qm.engine.messaging.open_counts("PRICES.PUB") == (0, 1)
            s.close(handle)
            assert reason(lambda: s.open("PRICES.PUB", input=True)) == mq.MQRC_OBJECT_TYPE_ERROR
            assert reason(lambda: s.put("NOWHERE.PUB", b"x")) == mq.MQRC_UNKNOWN_ALIAS_BASE_Q
            run(qm, "ALTER QALIAS(PRICES.PUB) PUT(DISABLED)")
            assert reason(lambda: s.put("PRICES.PUB", b"y")) == mq.MQRC_PUT_INHIBITED
        assert depth(qm, "FRUIT.Q") == 0
