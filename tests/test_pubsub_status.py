"""Topic and subscription status with real counts (issue 19): PCF Inquire Topic Status / Inquire Subscription Status,
MQSC DISPLAY TPSTATUS / SBSTATUS after publications made through the embedded queue manager, runCommandJSON, and
DISPLAY PUBSUB's counts (formats/rules-topic-sub.md section 5)."""

from __future__ import annotations

import re
from typing import Any

from engine_support import mqsc_output as run
from engine_support import run_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq, open_queue_manager
from pcfserver.codec import ByteString, Integer, IntegerList, Message, String
from pcfserver.dialects import mqsc, run_script
from pcfserver.engine import Engine, open_engine
from pcfserver.engine.messaging import process_user
from pcfserver.qmgr import QueueManager
from tests.dialect_support import CLOCK

SETUP = """DEFINE QLOCAL(Q1)
DEFINE QLOCAL(FULL.Q) MAXDEPTH(0)
DEFINE TOPIC(SPORT) TOPICSTR('sport') DEFPRTY(3)
DEFINE SUB(GOLF) TOPICSTR('sport/golf') DEST(Q1)
DEFINE SUB(ALL.SPORT) TOPICSTR('sport/#') DEST(Q1)
DEFINE SUB(NEVER) TOPICSTR('sport/golf') DEST(FULL.Q)
"""


def setup(engine: Engine, extra: str = "") -> None:
    assert run_script(SETUP + extra, engine.execute).exit_code == 0


def masked(text: str) -> str:
    """A transcript without what changes from run to run: dates, times, SubIds and the OS user (the SUBUSER of a
    subscription defined by the server's own authority)."""
    text = text.replace(f"SUBUSER({process_user()[:12]})", "SUBUSER(<os user>)")
    text = re.sub(r"\d{4}-\d{2}-\d{2}", "YYYY-MM-DD", text)
    text = re.sub(r"\d{2}\.\d{2}\.\d{2}", "HH.MM.SS", text)
    return re.sub(r"SUBID\([0-9A-F]{48}\)", "SUBID(<subid>)", text)


def topic_status(engine: Engine, topic: str, status_type: int | None = None, *attrs: int) -> list[Message]:
    params: list[Any] = [String(mq.MQCA_TOPIC_STRING, topic)]
    if status_type is not None:
        params.append(Integer(mq.MQIACF_TOPIC_STATUS_TYPE, status_type))
    if attrs:
        params.append(IntegerList(mq.MQIACF_TOPIC_STATUS_ATTRS, attrs))
    return engine.execute(Message(mq.MQCMD_INQUIRE_TOPIC_STATUS, tuple(params)))


def sub_status(engine: Engine, *params: Any) -> list[Message]:
    return engine.execute(Message(mq.MQCMD_INQUIRE_SUB_STATUS, tuple(params)))


def published(qm: QueueManager) -> None:
    """Two publications on sport/golf (one retained), one on sport/tennis and one that fails (FULL.Q under
    PMSGDLV(ALL) USEDLQ(NO) is never reached, so it counts for nobody)."""
    with qm.session(appl_name="publisher") as s:
        s.publish("sport/golf", b"1", retain=True)
        s.publish("sport/golf", b"2")
        s.publish("sport/tennis", b"3")


def test_inquire_topic_status_matches_nodes_with_topic_wildcards() -> None:
    with open_queue_manager() as qm:
        setup(qm.engine)
        published(qm)
        engine = qm.engine
        shown = [r.str_value(mq.MQCA_TOPIC_STRING) for r in topic_status(engine, "sport/#")]
        assert shown == ["sport", "sport/#", "sport/golf", "sport/tennis"]  # '#' matches zero levels and the '#' node
        assert [r.str_value(mq.MQCA_TOPIC_STRING) for r in topic_status(engine, "sport/+")] == ["sport/#", "sport/golf", "sport/tennis"]
        # the first level: the shipped topic objects' nodes and sport
        assert [r.str_value(mq.MQCA_TOPIC_STRING) for r in topic_status(engine, "+")] == ["$SYS", "SYSTEM.BROKER.ADMIN.STREAM", "sport"]
        [golf] = topic_status(engine, "sport/golf")
        assert golf.int_value(mq.MQIA_SUB_COUNT) == 2 and golf.int_value(mq.MQIACF_RETAINED_PUBLICATION) == mq.MQQSO_YES
        assert golf.int_value(mq.MQIA_DEF_PRIORITY) == 3  # resolved from SPORT, never ASPARENT
        assert (golf.str_value(mq.MQCA_ADMIN_TOPIC_NAME) or "").strip() == ""  # not an admin node
        assert golf.int_value(mq.MQIA_PUB_COUNT) == 0  # the publishing session has ended
        [sport] = topic_status(engine, "sport")
        assert (sport.str_value(mq.MQCA_ADMIN_TOPIC_NAME) or "").strip() == "SPORT"
        assert sport.int_value(mq.MQIA_SUB_COUNT) == 0 and sport.int_value(mq.MQIACF_RETAINED_PUBLICATION) == mq.MQQSO_NO
        # '*' is literal, and a string no node has answers 3308
        for missing in ("sport*", "news", "sport/golf/+"):
            failed = topic_status(engine, missing)[0]  # (then the MQRCCF_COMMAND_FAILED summary)
            assert failed.reason == mq.MQRCCF_TOPIC_STRING_NOT_FOUND
        # a selector of another StatusType is ignored
        [only] = topic_status(engine, "sport/golf", None, mq.MQIA_SUB_COUNT, mq.MQIACF_MESSAGE_COUNT)
        assert [p.parameter for p in only.parameters] == [mq.MQCA_TOPIC_STRING, mq.MQIA_SUB_COUNT]


def test_topic_status_sub_and_pub_count_what_was_delivered_and_who_published() -> None:
    with open_queue_manager() as qm:
        setup(qm.engine, "ALTER TOPIC(SPORT) PMSGDLV(ALLAVAIL) NPMSGDLV(ALLAVAIL) USEDLQ(NO)\n")
        engine = qm.engine
        with qm.session(appl_name="publisher") as s:
            s.publish("sport/golf", b"1")
            s.publish("sport/golf", b"2")
            subs = topic_status(engine, "sport/golf", mq.MQIACF_TOPIC_SUB)
            counts = {r.int_value(mq.MQIACF_MESSAGE_COUNT) for r in subs}
            assert len(subs) == 2 and counts == {0, 2}  # GOLF got both, NEVER (a full queue) none
            assert all(isinstance(r.get(mq.MQBACF_SUB_ID), ByteString) and r.version >= 2 for r in subs)
            [pub] = topic_status(engine, "sport/golf", mq.MQIACF_TOPIC_PUB)
            assert pub.int_value(mq.MQIACF_PUBLISH_COUNT) == 2
            connection = pub.get(mq.MQBACF_CONNECTION_ID)
            assert isinstance(connection, ByteString) and connection.value.startswith(b"AMQC")
            [node] = topic_status(engine, "sport/golf")
            assert node.int_value(mq.MQIA_PUB_COUNT) == 1  # the live session holds the node open
            # nodes without subscriptions or publishers answer success with no data
            [empty] = topic_status(engine, "sport", mq.MQIACF_TOPIC_PUB)
            assert empty.comp_code == mq.MQCC_OK and not empty.parameters
        [after] = topic_status(engine, "sport/golf", mq.MQIACF_TOPIC_PUB)
        assert not after.parameters  # the session ended: no publisher any more


def test_inquire_sub_status_by_name_generic_subid_and_type() -> None:
    with open_queue_manager() as qm:
        setup(qm.engine)
        published(qm)
        engine = qm.engine
        answer = sub_status(engine, String(mq.MQCACF_SUB_NAME, "*"))
        by_name = {r.str_value(mq.MQCACF_SUB_NAME): r for r in answer}
        assert sorted(by_name) == ["ALL.SPORT", "GOLF", "NEVER", "SYSTEM.DEFAULT.SUB"]
        assert by_name["ALL.SPORT"].int_value(mq.MQIACF_MESSAGE_COUNT) == 3
        assert by_name["GOLF"].int_value(mq.MQIACF_MESSAGE_COUNT) == 2
        assert by_name["NEVER"].int_value(mq.MQIACF_MESSAGE_COUNT) == 0
        assert (by_name["NEVER"].str_value(mq.MQCACF_LAST_MSG_DATE) or "").strip() == ""
        assert len((by_name["GOLF"].str_value(mq.MQCACF_LAST_MSG_DATE) or "").strip()) == 10
        sub_id = by_name["GOLF"].get(mq.MQBACF_SUB_ID)
        assert isinstance(sub_id, ByteString)
        [by_id] = sub_status(engine, ByteString(mq.MQBACF_SUB_ID, sub_id.value), IntegerList(mq.MQIACF_SUB_STATUS_ATTRS, (mq.MQIACF_MESSAGE_COUNT,)))
        assert [p.parameter for p in by_id.parameters] == [mq.MQCACF_SUB_NAME, mq.MQBACF_SUB_ID, mq.MQIACF_MESSAGE_COUNT]
        assert [r.str_value(mq.MQCACF_SUB_NAME) for r in sub_status(engine, String(mq.MQCACF_SUB_NAME, "G*"))] == ["GOLF"]
        none = sub_status(engine, String(mq.MQCACF_SUB_NAME, "*"), Integer(mq.MQIACF_SUB_TYPE, mq.MQSUBTYPE_API))[0]
        assert none.reason == mq.MQRC_NO_SUBSCRIPTION
        neither = sub_status(engine)[0]
        assert neither.reason == mq.MQRCCF_SUB_IDENTITY_ERROR


def test_api_subscription_shows_its_connection_and_durability() -> None:
    with open_queue_manager() as qm:
        with qm.session(appl_name="subscriber") as s:
            info = s.subscribe("news/today")
            with qm.session() as p:
                p.publish("news/today", b"extra")
            [status] = sub_status(qm.engine, String(mq.MQCACF_SUB_NAME, "*"), Integer(mq.MQIACF_SUB_TYPE, mq.MQSUBTYPE_API))
            assert status.int_value(mq.MQIACF_DURABLE_SUBSCRIPTION) == mq.MQSUB_DURABLE_NO
            assert status.int_value(mq.MQIACF_MESSAGE_COUNT) == 1
            connection = status.get(mq.MQBACF_CONNECTION_ID)
            assert isinstance(connection, ByteString) and connection.value != bytes(24)
            assert info.name == status.str_value(mq.MQCACF_SUB_NAME)


EXPECTED_MQSC = """\
     1 : DISPLAY TPSTATUS('sport/golf')
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    ADMIN( )
   MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE)     MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE)
   DEFPSIST(NO)                            DEFPRTY(3)
   DEFPRESP(SYNC)                          DURSUB(YES)
   PUB(ENABLED)                            SUB(ENABLED)
   PMSGDLV(ALLDUR)                         NPMSGDLV(ALLAVAIL)
   RETAINED(YES)                           MCAST(DISABLED)
   PUBCOUNT(0)                             SUBCOUNT(2)
   PUBSCOPE(ALL)                           SUBSCOPE(ALL)
   CLUSTER( )                              COMMINFO(SYSTEM.DEFAULT.COMMINFO.MULTICAST)
   USEDLQ(YES)                             CLROUTE(NONE)
     2 : DIS TPS('sport/+') SUBCOUNT RETAINED
AMQ8754I: Display topic status details.
   TOPICSTR(sport/#)                       RETAINED(NO)
   SUBCOUNT(1)
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    RETAINED(YES)
   SUBCOUNT(2)
AMQ8754I: Display topic status details.
   TOPICSTR(sport/tennis)                  RETAINED(NO)
   SUBCOUNT(0)
     3 : DISPLAY TPSTATUS('sport/#') TYPE(SUB) NUMMSGS
AMQ8754I: Display topic status details.
   TOPICSTR(sport/#)                       NUMMSGS(3)
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    NUMMSGS(2)
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    NUMMSGS(0)
     4 : DISPLAY TPSTATUS('sport/golf') TYPE(SUB) SUBID DURABLE SUBTYPE
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    SUBID(<subid>)
   DURABLE(YES)                            SUBTYPE(ADMIN)
AMQ8754I: Display topic status details.
   TOPICSTR(sport/golf)                    SUBID(<subid>)
   DURABLE(YES)                            SUBTYPE(ADMIN)
     5 : DISPLAY TPSTATUS('sport/golf') TYPE(PUB)
     6 : DISPLAY TPSTATUS('news')
AMQ8101S: IBM MQ error (CEC) has occurred. Reason 3308 MQRCCF_TOPIC_STRING_NOT_FOUND.
     7 : DISPLAY SBSTATUS(GOLF)
AMQ8099I: IBM MQ subscription status inquired.
   SUB(GOLF)
   SUBID(<subid>)
   DURABLE(YES)                            SUBTYPE(ADMIN)
   ACTCONN(000000000000000000000000000000000000000000000000)
   RESMDATE(YYYY-MM-DD)                    RESMTIME(HH.MM.SS)
   LMSGDATE(YYYY-MM-DD)                    LMSGTIME(HH.MM.SS)
   NUMMSGS(2)                              SUBUSER(<os user>)
   TOPICSTR(sport/golf)
     8 : DISPLAY SBSTATUS(*) SUBTYPE(ADMIN) NUMMSGS
AMQ8099I: IBM MQ subscription status inquired.
   SUB(ALL.SPORT)
   SUBID(<subid>)
   NUMMSGS(3)
AMQ8099I: IBM MQ subscription status inquired.
   SUB(GOLF)
   SUBID(<subid>)
   NUMMSGS(2)
AMQ8099I: IBM MQ subscription status inquired.
   SUB(NEVER)
   SUBID(<subid>)
   NUMMSGS(0)
AMQ8099I: IBM MQ subscription status inquired.
   SUB(SYSTEM.DEFAULT.SUB)
   SUBID(<subid>)
   NUMMSGS(0)
     9 : DISPLAY SBSTATUS(NONE)
AMQ8101S: IBM MQ error (97C) has occurred. Reason 2428 MQRC_NO_SUBSCRIPTION.
    10 : DISPLAY PUBSUB
AMQ8723I: Display pub/sub status details.
   QMNAME(QM1)                             TYPE(LOCAL)
   STATUS(ACTIVE)                          SUBCOUNT(4)
   TPCOUNT(8)
"""


def test_runmqsc_display_tpstatus_and_sbstatus_after_publications() -> None:
    script = """DISPLAY TPSTATUS('sport/golf')
DIS TPS('sport/+') SUBCOUNT RETAINED
DISPLAY TPSTATUS('sport/#') TYPE(SUB) NUMMSGS
DISPLAY TPSTATUS('sport/golf') TYPE(SUB) SUBID DURABLE SUBTYPE
DISPLAY TPSTATUS('sport/golf') TYPE(PUB)
DISPLAY TPSTATUS('news')
DISPLAY SBSTATUS(GOLF)
DISPLAY SBSTATUS(*) SUBTYPE(ADMIN) NUMMSGS
DISPLAY SBSTATUS(NONE)
DISPLAY PUBSUB
"""
    with open_queue_manager() as qm:
        setup(qm.engine)
        published(qm)
        transcript = run_script(script, qm.execute, clock=lambda: CLOCK)
        body = transcript.text.split("\n\n\n", 1)[1]
        assert masked(body).split("10 MQSC commands read.")[0] == EXPECTED_MQSC
        assert transcript.exit_code == 10


def test_display_sbstatus_by_subid_and_pubsub_counts() -> None:
    with open_queue_manager() as qm:
        setup(qm.engine)
        [answer] = qm.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, "GOLF"),)))
        sub_id = answer.get(mq.MQBACF_SUB_ID)
        assert isinstance(sub_id, ByteString)
        shown = run(qm.engine, f"DISPLAY SBSTATUS SUBID({sub_id.value.hex().upper()}) TOPICSTR")
        assert shown == ["AMQ8099I: IBM MQ subscription status inquired.", "   SUB(GOLF)", f"   SUBID({sub_id.value.hex().upper()})", "   TOPICSTR(sport/golf)"]
        before = run(qm.engine, "DISPLAY PUBSUB SUBCOUNT TPCOUNT")
        published(qm)
        after = run(qm.engine, "DISPLAY PUBSUB SUBCOUNT TPCOUNT")
        count = lambda lines: int(re.search(r"TPCOUNT\((\d+)\)", " ".join(lines)).group(1))  # type: ignore[union-attr]  # noqa: E731
        assert count(after) == count(before) + 1  # sport/tennis became a node when published to


def test_run_command_json_tpstatus_and_sbstatus() -> None:
    with open_queue_manager() as qm:
        setup(qm.engine)
        published(qm)
        answer = run_json(qm.engine, command="display", qualifier="tpstatus", name="sport/+", responseParameters=["subcount", "retained"])
        assert [r["parameters"] for r in answer["commandResponse"]] == [
            {"topicstr": "sport/#", "retained": "NO", "subcount": 1},
            {"topicstr": "sport/golf", "retained": "YES", "subcount": 2},
            {"topicstr": "sport/tennis", "retained": "NO", "subcount": 0},
        ]
        answer = run_json(qm.engine, command="display", qualifier="tpstatus", name="sport/golf", parameters={"type": "sub"}, responseParameters=["nummsgs"])
        assert sorted(r["parameters"]["nummsgs"] for r in answer["commandResponse"]) == [0, 2]
        answer = run_json(qm.engine, command="display", qualifier="sbstatus", name="GOLF", responseParameters=["nummsgs", "durable"])
        [golf] = answer["commandResponse"]
        assert golf["parameters"]["sub"] == "GOLF" and golf["parameters"]["nummsgs"] == 2 and golf["parameters"]["durable"] == "YES"
        assert re.fullmatch(r"[0-9A-F]{48}", golf["parameters"]["subid"])
        missing = run_json(qm.engine, command="display", qualifier="tpstatus", name="news")
        assert missing["overallCompletionCode"] == 2 and missing["commandResponse"][0]["reasonCode"] == mq.MQRCCF_TOPIC_STRING_NOT_FOUND


# ---------------------------------------------------------------------------------- properties

LEVEL = st.sampled_from(["a", "b", "c", "#", "+"])
TOPIC = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4).map("/".join)
PATTERN = st.lists(LEVEL, min_size=1, max_size=4).map("/".join)


def _reference(pattern: str, topic: str) -> bool:
    """The topic scheme, written plainly: '#' any number of whole levels, '+' exactly one."""

    def walk(p: list[str], t: list[str]) -> bool:
        if not p:
            return not t
        if p[0] == "#":
            return any(walk(p[1:], t[i:]) for i in range(len(t) + 1))
        if not t:
            return False
        return (p[0] == "+" or p[0] == t[0]) and walk(p[1:], t[1:])

    return walk(pattern.split("/"), topic.split("/"))


@settings(max_examples=60, deadline=None)
@given(topics=st.lists(TOPIC, min_size=1, max_size=5, unique=True), pattern=PATTERN)
def test_tpstatus_answers_exactly_the_nodes_the_pattern_matches(topics: list[str], pattern: str) -> None:
    engine = open_engine(None)
    session = engine.messaging.open_session("prop")
    shipped = engine.pubsub.nodes()  # the shipped topic objects' nodes ($SYS/MQ, SYSTEM.BROKER.ADMIN.STREAM)
    for topic in topics:
        engine.execute_operation(lambda topic=topic: engine.pubsub.publish(session, topic, b"x"))  # type: ignore[misc]
    nodes = shipped | {"/".join(t.split("/")[:n]) for t in topics for n in range(1, len(t.split("/")) + 1)}
    expected = sorted(n for n in nodes if _reference(pattern, n))
    answer = topic_status(engine, pattern, None, mq.MQIA_PUB_COUNT)
    if not expected:
        assert answer[0].reason == mq.MQRCCF_TOPIC_STRING_NOT_FOUND
        return
    assert [r.str_value(mq.MQCA_TOPIC_STRING) for r in answer] == expected
    assert all(r.int_value(mq.MQIA_PUB_COUNT) == (1 if r.str_value(mq.MQCA_TOPIC_STRING) in topics else 0) for r in answer)


SAFE = st.text(alphabet=st.sampled_from("abcXYZ09/#+*._- "), min_size=1, max_size=30).filter(lambda s: s.strip() == s)


@settings(max_examples=80, deadline=None)
@given(topic=SAFE, kind=st.sampled_from(["TOPIC", "SUB", "PUB"]))
def test_display_tpstatus_carries_the_topic_string_and_type(topic: str, kind: str) -> None:
    [message] = mqsc.parse_command(f"DISPLAY TPSTATUS({mqsc.quote(topic)}) TYPE({kind})")
    assert message.command == mq.MQCMD_INQUIRE_TOPIC_STATUS
    assert message.str_value(mq.MQCA_TOPIC_STRING) == topic
    wanted = {"TOPIC": mq.MQIACF_TOPIC_STATUS, "SUB": mq.MQIACF_TOPIC_SUB, "PUB": mq.MQIACF_TOPIC_PUB}[kind]
    assert message.int_value(mq.MQIACF_TOPIC_STATUS_TYPE) == wanted
    assert mqsc.parse_command(mqsc.render_command(message)) == [message]


def test_runmqsc_lifecycle_of_a_subscription_with_publications_between_commands() -> None:
    """DEFINE, ALTER and DELETE SUB and CLEAR TOPICSTR around real publications: the counts and RETAINED follow."""
    with open_queue_manager() as qm:

        def mqsc_lines(text: str) -> list[str]:
            return [masked(line) for line in run(qm.engine, text)]

        assert mqsc_lines("DEFINE QLOCAL(NEWS.Q)") == ["AMQ8006I: IBM MQ queue created."]
        assert mqsc_lines("DEFINE SUB(NEWS) TOPICSTR('news/#') DEST(NEWS.Q)") == ["AMQ8094I: IBM MQ subscription created."]
        with qm.session(appl_name="newsroom") as s:
            s.publish("news/world", b"1", retain=True)
            s.publish("news/sport", b"2")
            assert mqsc_lines("DISPLAY SBSTATUS(NEWS) NUMMSGS LMSGDATE") == [
                "AMQ8099I: IBM MQ subscription status inquired.",
                "   SUB(NEWS)",
                "   SUBID(<subid>)",
                "   LMSGDATE(YYYY-MM-DD)                    NUMMSGS(2)",
            ]
            assert mqsc_lines("DISPLAY TPSTATUS('news/+') TYPE(PUB) NUMPUBS") == [
                "AMQ8754I: Display topic status details.",
                "   TOPICSTR(news/sport)                    NUMPUBS(1)",
                "AMQ8754I: Display topic status details.",
                "   TOPICSTR(news/world)                    NUMPUBS(1)",
            ]
        assert mqsc_lines("ALTER SUB(NEWS) USERDATA('desk')") == ["AMQ8095I: IBM MQ subscription changed."]
        with qm.session() as s:
            s.publish("news/world", b"3")
        assert mqsc_lines("DISPLAY SBSTATUS(NEWS) NUMMSGS")[-1] == "   NUMMSGS(3)"  # ALTER keeps the count
        assert mqsc_lines("DISPLAY TPSTATUS('news/world') RETAINED PUBCOUNT") == [
            "AMQ8754I: Display topic status details.",
            "   TOPICSTR(news/world)                    RETAINED(YES)",
            "   PUBCOUNT(0)",
        ]
        assert mqsc_lines("CLEAR TOPICSTR('news/world') CLRTYPE(RETAINED)") == ["IBM MQ topic string cleared."]
        assert mqsc_lines("DISPLAY TPSTATUS('news/world') RETAINED")[-1] == "   TOPICSTR(news/world)                    RETAINED(NO)"
        assert mqsc_lines("DELETE SUB(NEWS)") == ["AMQ8097I: IBM MQ subscription deleted."]
        assert mqsc_lines("DISPLAY SBSTATUS(NEWS)") == ["AMQ8101S: IBM MQ error (97C) has occurred. Reason 2428 MQRC_NO_SUBSCRIPTION."]
        assert mqsc_lines("DISPLAY TPSTATUS('news/#') TYPE(SUB)") == []  # nodes remain, no subscription on them
        assert mqsc_lines("DEFINE SUB(NEWS) TOPICSTR('news/#') DEST(NEWS.Q)") == ["AMQ8094I: IBM MQ subscription created."]
        assert mqsc_lines("DISPLAY SBSTATUS(NEWS) NUMMSGS")[-1] == "   NUMMSGS(0)"  # a new subscription counts afresh
