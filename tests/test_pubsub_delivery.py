"""Delivery details of publish/subscribe (issue 19): selectors, subscription and publication expiry, PSPROP, the
MQDLH on dead-lettered copies, the NO_SUBS_MATCHED warning and managed queues removed with their subscription."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from pcfserver import mq
from pcfserver.engine.messages import MQIError
from pcfserver.qmgr import QueueManager, open_queue_manager
from tests.test_pubsub import depth, reason, run


def subs(qm: QueueManager) -> dict[str, object]:
    return dict(qm.engine.objects.by_type[-1])


# ------------------------------------------------------------------ selectors


def test_define_sub_selector_filters_publications_on_their_properties() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(RED.Q)\nDEFINE QLOCAL(ALL.Q)")
        out = run(qm, "DEFINE SUB(RED) TOPICSTR('paint/#') DEST(RED.Q) SELECTOR('colour = ''red'' AND size > 10')")
        assert "AMQ8094I" in out[0] or "created" in " ".join(out).lower()
        run(qm, "DEFINE SUB(ALL) TOPICSTR('paint/#') DEST(ALL.Q)")
        with qm.session() as s:
            s.publish("paint/a", "1", properties={"colour": "red", "size": "12"})
            s.publish("paint/a", "2", properties={"colour": "red", "size": "2"})
            s.publish("paint/a", "3", properties={"colour": "blue", "size": "12"})
            s.publish("paint/a", "4")  # no properties: unknown, not selected
            assert s.get("RED.Q")[1] == b"1"
            assert reason(lambda: s.get("RED.Q")) == mq.MQRC_NO_MSG_AVAILABLE
        assert depth(qm, "ALL.Q") == 4
        shown = " ".join(run(qm, "DISPLAY SUB(RED) SELECTOR SELTYPE"))
        assert "SELTYPE(STANDARD)" in shown and "colour = 'red' AND size > 10" in shown
        assert "SELTYPE(NONE)" in " ".join(run(qm, "DISPLAY SUB(ALL) SELTYPE"))


def test_define_sub_with_a_bad_selector_is_refused_with_selector_syntax_error() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)")
        out = " ".join(run(qm, "DEFINE SUB(BAD) TOPICSTR('t') DEST(Q) SELECTOR('colour = ')"))
        assert "2459" in out or "SELECTOR_SYNTAX_ERROR" in out.upper().replace(" ", "_") or "AMQ" in out
        assert "BAD" not in subs(qm)


def test_define_sub_bad_selector_pcf_reason() -> None:
    from pcfserver.codec import Message, String

    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)")
        command = Message(
            command=mq.MQCMD_CREATE_SUBSCRIPTION,
            parameters=(
                String(mq.MQCACF_SUB_NAME, "BAD", 819),
                String(mq.MQCA_TOPIC_STRING, "t", 819),
                String(mq.MQCACF_DESTINATION, "Q", 819),
                String(mq.MQCACF_SUB_SELECTOR, "a = = 1", 819),
            ),
        )
        answer = qm.execute(command)
        assert answer[0].comp_code == mq.MQCC_FAILED
        assert answer[0].reason == mq.MQRC_SELECTOR_SYNTAX_ERROR


def test_api_subscription_selector_and_its_reasons() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            assert reason(lambda: s.subscribe("t", selector="x ==")) == mq.MQRC_SELECTION_NOT_AVAILABLE
            sub = s.subscribe("t", name="D", durable=True, selector="n BETWEEN 1 AND 5")
            s.publish("t", "in", properties={"n": "3"})
            s.publish("t", "out", properties={"n": "9"})
            assert sub.get()[1] == b"in"
            assert reason(lambda: sub.get()) == mq.MQRC_NO_MSG_AVAILABLE
            assert reason(lambda: s.subscribe("t", name="D", durable=True, selector="(")) == mq.MQRC_SELECTOR_SYNTAX_ERROR
            assert reason(lambda: s.subscribe("t", name="D", durable=True, selector="n = 1")) == mq.MQRC_SELECTOR_NOT_ALTERABLE
            assert s.subscribe("t", name="D", durable=True).name == "D"  # resumed, selector kept


def test_a_publication_no_selector_takes_is_not_a_failure() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE SUB(S) TOPICSTR('t') DEST(Q) SELECTOR('a = 1')")
        with qm.session() as s:
            s.publish("t", "x", properties={"a": "2"}, warn_if_no_subs=True)
            assert s.last_reason == mq.MQRC_NO_SUBS_MATCHED
        assert depth(qm, "Q") == 0


# ------------------------------------------------------------------ NO_SUBS_MATCHED


def test_no_subs_matched_is_a_warning_only_when_asked() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE SUB(S) TOPICSTR('here') DEST(Q)")
        with qm.session() as s:
            s.publish("nowhere", "x")
            assert s.last_reason == mq.MQRC_NONE
            md = s.publish("nowhere", "x", warn_if_no_subs=True, retain=True)
            assert s.last_reason == mq.MQRC_NO_SUBS_MATCHED and md.msg_id
            s.publish("here", "x", warn_if_no_subs=True)
            assert s.last_reason == mq.MQRC_NONE
            assert depth(qm, "Q") == 1
            assert "nowhere" in qm.engine.pubsub.retained()  # the warning does not stop the retained publication


# ------------------------------------------------------------------ expiry


def test_publication_expiry_is_carried_onto_every_copy() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(A.Q)\nDEFINE QLOCAL(B.Q)\nDEFINE SUB(A) TOPICSTR('t') DEST(A.Q)\nDEFINE SUB(B) TOPICSTR('t') DEST(B.Q)")
        layer = qm.engine.messaging
        now = [1000.0]
        layer.clock = lambda: now[0]
        with qm.session() as s:
            s.publish("t", "short", expiry=50)  # 5 seconds
            s.publish("t", "forever")
            assert s.get("A.Q", browse=True)[0].expiry == 50
            now[0] += 6
            assert s.get("A.Q")[1] == b"forever"
            assert s.get("B.Q")[1] == b"forever"
            assert reason(lambda: s.publish("t", "x", expiry=0)) == mq.MQRC_EXPIRY_ERROR


def test_subscription_expiry_stops_delivery_and_removes_it_with_its_managed_queue() -> None:
    with open_queue_manager() as qm:
        layer = qm.engine.messaging
        now = [1000.0]
        layer.clock = lambda: now[0]
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE SUB(S) TOPICSTR('t') DEST(Q) EXPIRY(30)\nDEFINE SUB(M) TOPICSTR('t') DESTCLAS(MANAGED) EXPIRY(30)")
        run(qm, "DEFINE SUB(KEEP) TOPICSTR('t') DEST(Q)")
        with qm.session() as s:
            s.publish("t", "1")
            managed = str(qm.engine.objects.by_type[-1]["M"].attrs[mq.MQCACF_DESTINATION])
            assert depth(qm, "Q") == 2 and depth(qm, managed) == 1
            now[0] += 2.9
            s.publish("t", "2")
            assert depth(qm, "Q") == 4
            now[0] += 0.2  # 3.1 s after they were made
            s.publish("t", "3")
            assert depth(qm, "Q") == 5  # only KEEP's copy; what S received stays on its queue
            assert "S" not in subs(qm) and "M" not in subs(qm) and "KEEP" in subs(qm)
            assert qm.engine.queue(managed) is None


def test_api_subscription_expiry_through_alter_and_resume() -> None:
    with open_queue_manager() as qm:
        layer = qm.engine.messaging
        now = [1000.0]
        layer.clock = lambda: now[0]
        with qm.session() as s:
            sub = s.subscribe("t", name="D", durable=True)
            run(qm, "ALTER SUB(D) EXPIRY(10)")
            now[0] += 1.5
            s.publish("t", "late", warn_if_no_subs=True)
            assert s.last_reason == mq.MQRC_NO_SUBS_MATCHED
            assert "D" not in subs(qm)
            assert qm.engine.queue(sub.queue) is None


def test_subscription_expiry_counts_from_its_creation_across_restart(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        run(qm, "DEFINE QLOCAL(Q)\nDEFINE SUB(S) TOPICSTR('t') DEST(Q) EXPIRY(20)")
    with open_queue_manager(tmp_path) as qm:
        created = qm.engine.objects.by_type[-1]["S"].attrs
        import time

        born = time.mktime(time.strptime(f"{created[mq.MQCA_CREATION_DATE]} {created[mq.MQCA_CREATION_TIME]}", "%Y-%m-%d %H.%M.%S"))
        qm.engine.messaging.clock = lambda: born + 1
        with qm.session() as s:
            s.publish("t", "in time")
        qm.engine.messaging.clock = lambda: born + 3
        with qm.session() as s:
            s.publish("t", "too late")
        assert depth(qm, "Q") == 1
        assert "S" not in subs(qm)
    with open_queue_manager(tmp_path) as qm:
        assert "S" not in subs(qm)


# ------------------------------------------------------------------ PSPROP


def _rfh2(body: bytes) -> tuple[tuple[object, ...], str, bytes]:
    fixed = struct.unpack("<4siiii8sii", body[:36])
    (length,) = struct.unpack("<i", body[36:40])
    folder = body[40 : 40 + length].decode().rstrip(" ")
    return fixed, folder, body[fixed[2] :]


def test_psprop_decides_the_publish_subscribe_properties_of_each_copy() -> None:
    with open_queue_manager() as qm:
        for name, psprop in (("N", "NONE"), ("M", "MSGPROP"), ("R", "RFH2"), ("C", "COMPAT")):
            run(qm, f"DEFINE QLOCAL({name}.Q)\nDEFINE SUB({name}) TOPICSTR('t/#') DEST({name}.Q) PSPROP({psprop}) USERDATA('u<1>')")
        with qm.session() as s:
            s.publish("t/x", "body", properties={"mine": "v"})
            md, body = s.get("N.Q")
            assert (md.properties, body, md.format) == ((("mine", "v"),), b"body", "MQSTR   ")
            md, body = s.get("M.Q")
            assert dict(md.properties) == {"mine": "v", "MQTopicString": "t/x", "MQSubUserData": "u<1>"}
            for queue in ("R.Q", "C.Q"):
                md, body = s.get(queue)
                assert md.format == "MQHRF2  " and md.properties == (("mine", "v"),)
                fixed, folder, data = _rfh2(body)
                assert fixed[:2] == (b"RFH ", 2) and fixed[5] == b"MQSTR   " and fixed[7] == 1208
                assert fixed[2] % 4 == 0 and fixed[2] == len(body) - 4
                assert folder == "<mqps><Top>t/x</Top><Sud>u&lt;1&gt;</Sud></mqps>"
                assert data == b"body"


def test_retained_copy_under_psprop_none_and_msgprop() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            s.publish("r", "kept", retain=True)
        run(qm, "DEFINE QLOCAL(N.Q)\nDEFINE QLOCAL(M.Q)")
        run(qm, "DEFINE SUB(M) TOPICSTR('r') DEST(M.Q)")
        with qm.session() as s:
            sub = s.subscribe("r")
            assert dict(sub.get()[0].properties).get("MQIsRetained") == "true"


# ------------------------------------------------------------------ dead-letter queue


def test_a_dead_lettered_copy_carries_an_mqdlh() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)\nDEFINE QLOCAL(FULL.Q) MAXDEPTH(0)\nDEFINE QLOCAL(GONE.Q)")
        run(qm, "DEFINE SUB(FULL) TOPICSTR('t') DEST(FULL.Q)\nDEFINE SUB(GONE) TOPICSTR('t') DEST(GONE.Q)\nDELETE QLOCAL(GONE.Q)")
        with qm.session() as s:
            published = s.publish("t", "payload", persistent=False)
            got = sorted((s.get("DLQ"), s.get("DLQ")), key=lambda m: m[1][8:56])
        for (md, body), (queue, why) in zip(got, (("FULL.Q", mq.MQRC_Q_FULL), ("GONE.Q", mq.MQRC_UNKNOWN_OBJECT_NAME)), strict=True):
            assert md.format == "MQDEAD  "
            fields = struct.unpack("<4sii48s48sii8si28s8s8s", body[:172])
            assert fields[0] == b"DLH " and fields[1] == 1
            assert fields[2] == why
            assert fields[3].decode().rstrip() == queue
            assert fields[4].decode().rstrip() == qm.engine.qmgr_name
            assert fields[5:8] == (published.encoding, published.coded_char_set_id, b"MQSTR   ")
            assert fields[8] == mq.MQAT_QMGR
            assert fields[10].decode().isdigit() and len(fields[11]) == 8
            assert body[172:] == b"payload"
            assert dict(md.properties)["MQTopicString"] == "t"


def test_no_dlq_or_dlq_refusing_means_the_copy_failed() -> None:
    with open_queue_manager() as qm:
        run(qm, "DEFINE QLOCAL(FULL.Q) MAXDEPTH(0)\nDEFINE SUB(FULL) TOPICSTR('t') DEST(FULL.Q)\nALTER QMGR DEADQ(' ')")
        with qm.session() as s:
            assert reason(lambda: s.publish("t", "x")) == mq.MQRC_PUBLICATION_FAILURE
        run(qm, "DEFINE QLOCAL(DLQ) MAXMSGL(200)\nALTER QMGR DEADQ(DLQ)")
        with qm.session() as s:
            assert reason(lambda: s.publish("t", "x" * 90)) == mq.MQRC_PUBLICATION_FAILURE  # 172 + 90 > 200
            s.publish("t", "fits")
        assert depth(qm, "DLQ") == 1


# ------------------------------------------------------------------ managed queues and DELETE SUB


def test_delete_sub_removes_its_managed_queue_and_its_messages(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        run(qm, "DEFINE SUB(M) TOPICSTR('t') DESTCLAS(MANAGED)")
        with qm.session() as s:
            s.publish("t", "1")
            api = s.subscribe("t", name="API", durable=True)
            s.publish("t", "2")
        managed = str(qm.engine.objects.by_type[-1]["M"].attrs[mq.MQCACF_DESTINATION])
        assert depth(qm, managed) == 2 and depth(qm, api.queue) == 1
        run(qm, "DELETE SUB(M)\nDELETE SUB(API)")
        assert qm.engine.queue(managed) is None and qm.engine.queue(api.queue) is None
        run(qm, "DEFINE QLOCAL(P.Q)\nDEFINE SUB(P) TOPICSTR('t') DEST(P.Q)\nDELETE SUB(P)")
        assert qm.engine.queue("P.Q") is not None  # a provided destination stays
    with open_queue_manager(tmp_path) as qm:
        assert qm.engine.queue(managed) is None and qm.engine.queue(api.queue) is None
        assert qm.engine.queue("P.Q") is not None


def test_delete_of_a_non_durable_api_subscription_by_the_administrator() -> None:
    with open_queue_manager() as qm:
        with qm.session() as s:
            sub = s.subscribe("t")
            run(qm, f"DELETE SUB('{sub.name}')")
            assert qm.engine.queue(sub.queue) is None
            s.publish("t", "x")  # nobody left, no failure
            assert not qm.engine.pubsub.by_session.get(s._state.ident)
            with pytest.raises(MQIError):
                sub.get()


# ------------------------------------------------------------------ CorrelId and ReplyTo on copies


def test_publication_correl_id_reaches_only_mqci_none_subscriptions_and_reply_to_every_copy() -> None:
    with open_queue_manager() as qm:
        correl = b"publisher's".ljust(24, b"\0")
        with qm.session() as s:
            own = s.subscribe("c/#")
            keeps = s.subscribe("c/#", correl_id=bytes(24))
            fixed = s.subscribe("c/#", correl_id=b"mine")
            s.publish("c/1", "x", correl_id=correl, reply_to_q="ANSWERS")
            s.publish("c/1", "y", correl_id=correl, reply_to_q="ANSWERS", reply_to_qmgr="QM9", suppress_reply_to=True)
            s.publish("c/2", "retained", correl_id=correl, reply_to_q="ANSWERS", retain=True)
            later = s.subscribe("c/2", correl_id=bytes(24))
            (o1, _), (o2, _) = own.get(), own.get()
            (k1, _), (k2, _) = keeps.get(), keeps.get()
            (f1, _) = fixed.get()
            (r1, body) = later.get()
        assert o1.correl_id == bytes.fromhex(own.sub_id) and f1.correl_id == b"mine".ljust(24, b"\0")
        assert k1.correl_id == k2.correl_id == r1.correl_id == correl
        assert (o1.reply_to_q.strip(), o1.reply_to_qmgr.strip()) == ("ANSWERS", qm.engine.qmgr_name)
        assert (o2.reply_to_q.strip(), o2.reply_to_qmgr.strip()) == ("", "")  # MQPMO_SUPPRESS_REPLYTO
        assert body == b"retained" and r1.reply_to_q.strip() == "ANSWERS"
