"""IBM i CL for topics and subscriptions (issue 19): CRTMQMTOP, CHGMQMTOP, CPYMQMTOP, DLTMQMTOP, DSPMQMTOP, WRKMQMTOP,
CLRMQMTOP and CRTMQMSUB, CHGMQMSUB, CPYMQMSUB, DLTMQMSUB, DSPMQMSUB, WRKMQMSUB, with SUBID as 48 hexadecimal digits
(IBM CHGMQMSUB q084000_, CPYMQMSUB q084120_, DLTMQMSUB q084340_, DSPMQMSUB q084520_), run on an engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import ByteString, Message, String
from pcfserver.dialects import ibmi
from pcfserver.engine import Engine, open_engine


def cl(engine: Engine, text: str) -> list[str]:
    return list(ibmi.run(text, engine.execute).lines)


def sub_id(engine: Engine, name: str) -> str:
    [answer, *_] = engine.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, name),)))
    found = answer.get(mq.MQBACF_SUB_ID)
    assert isinstance(found, ByteString)
    return found.value.hex().upper()


def shown(lines: list[str], keyword: str) -> str:
    """The value a DSP command shows for a keyword."""
    return next(line[13:] for line in lines if line[2:13].rstrip() == keyword)


def test_topic_commands() -> None:
    engine = open_engine(None)
    assert cl(engine, "CRTMQMTOP TOPNAME(SPORT) TOPICSTR('sport') DURSUB(*NO) TEXT('Sport')") == ["AMQ8690: IBM MQ topic created."]
    assert cl(engine, "CHGMQMTOP TOPNAME(SPORT) DURSUB(*YES) DFTPTY(3)") == ["AMQ8691: IBM MQ topic changed."]
    assert cl(engine, "CPYMQMTOP FROMTOPIC(SPORT) TOTOPIC(SPORT2) TOPICSTR('sport2')") == ["AMQ8690: IBM MQ topic created."]
    display = cl(engine, "DSPMQMTOP TOPNAME(SPORT2)")
    assert display[0] == "AMQ8633: Display topic details."
    assert (shown(display, "TOPNAME"), shown(display, "TOPICSTR"), shown(display, "DFTPTY"), shown(display, "DURSUB")) == ("SPORT2", "sport2", "3", "*YES")
    assert cl(engine, "DSPMQMTOP SPORT *DFT *") == cl(engine, "DSPMQMTOP TOPNAME(SPORT)")  # by position, OUTPUT(*)
    assert cl(engine, "WRKMQMTOP TOPNAME(SP*)") == ["Name", "SPORT", "SPORT2"]
    assert cl(engine, "WRKMQMTOP TOPNAME(*ALL) WHERE(*DFTPTY *EQ 3)") == ["Name", "SPORT", "SPORT2"]
    assert cl(engine, "DLTMQMTOP TOPNAME(SPORT2)") == ["AMQ8692: IBM MQ topic deleted."]
    assert cl(engine, "DLTMQMTOP SPORT2")[0].endswith("Reason 2085 MQRC_UNKNOWN_OBJECT_NAME.")


def test_clrmqmtop_clears_a_retained_publication() -> None:
    engine = open_engine(None)
    session = engine.messaging.open_session("test")
    engine.execute_operation(lambda: engine.pubsub.publish(session, "sport/golf", b"kept", retain=True))
    assert "sport/golf" in engine.pubsub.retained()
    assert cl(engine, "CLRMQMTOP TOPICSTR('sport/golf') CLRTYPE(*RETAINED)") == ["IBM MQ topic string cleared."]
    assert "sport/golf" not in engine.pubsub.retained()
    assert cl(engine, "CLRMQMTOP 'sport/golf'") == ["IBM MQ topic string cleared."]  # CLRTYPE defaults to its one value
    assert cl(engine, "CLRMQMTOP TOPICSTR('x') CLRTYPE(*ALL)")[0].startswith("CPF0001")


def test_subscription_commands_by_name_and_by_subid() -> None:
    engine = open_engine(None)
    assert cl(engine, "CRTMQMQ QNAME(Q1) QTYPE(*LCL)") == ["AMQ8006: IBM MQ queue created."]
    created = cl(engine, "CRTMQMSUB SUBNAME(S1) TOPICSTR('sport/golf') DEST(Q1) USERDATA('x') DESTCRRLID(414D51200000000000000000000000000000000000000001)")
    assert created == ["AMQ8094: IBM MQ subscription created."]
    ident = sub_id(engine, "S1")
    display = cl(engine, f"DSPMQMSUB SUBID({ident})")
    assert display[0] == "AMQ8096: IBM MQ subscription inquired."
    assert (shown(display, "SUBNAME"), shown(display, "SUBID"), shown(display, "USERDATA")) == ("S1", ident, "x")
    assert shown(display, "DESTCRRLID") == "414D51200000000000000000000000000000000000000001"
    assert cl(engine, f"CHGMQMSUB SUBID({ident}) USERDATA('by id')") == ["AMQ8095: IBM MQ subscription changed."]
    assert shown(cl(engine, "DSPMQMSUB SUBNAME(S1)"), "USERDATA") == "by id"
    assert cl(engine, f"CHGMQMSUB SUBNAME(S1) SUBID({ident}) USERDATA(*NONE)") == ["AMQ8095: IBM MQ subscription changed."]
    assert cl(engine, f"CPYMQMSUB TOSUB(S2) FROMSUBID({ident})") == ["AMQ8094: IBM MQ subscription created."]
    assert cl(engine, "CPYMQMSUB S3 S1") == ["AMQ8094: IBM MQ subscription created."]  # TOSUB 1, FROMSUB 2
    assert sub_id(engine, "S2") != ident  # a copy has its own SubId
    assert cl(engine, "WRKMQMSUB SUBNAME(S*)") == ["Name", "S1", "S2", "S3", "SYSTEM.DEFAULT.SUB"]
    assert cl(engine, f"DLTMQMSUB SUBID({sub_id(engine, 'S2')})") == ["AMQ8097: IBM MQ subscription deleted."]
    assert cl(engine, "DLTMQMSUB SUBNAME(S3)") == ["AMQ8097: IBM MQ subscription deleted."]
    assert cl(engine, "WRKMQMSUB") == ["Name", "S1", "SYSTEM.DEFAULT.SUB"]
    assert cl(engine, f"DLTMQMSUB SUBID({'00' * 24})")[0].endswith("Reason 2428 MQRC_NO_SUBSCRIPTION.")
    assert cl(engine, "DLTMQMSUB SUBID(XYZ)")[0].startswith("CPF0001")  # not hexadecimal
    assert cl(engine, "DLTMQMSUB MQMNAME(*DFT)")[0].startswith("CPF0001")  # neither SUBNAME nor SUBID
    assert cl(engine, "CRTMQMSUB 'S9' *DFT *NO 'sport/tennis' *NONE Q1") == ["AMQ8094: IBM MQ subscription created."]  # by position


@settings(max_examples=40, deadline=None)
@given(ident=st.binary(min_size=24, max_size=24))
def test_subid_keywords_carry_the_bytes_they_spell(ident: bytes) -> None:
    sent: list[Message] = []

    def execute(message: Message) -> list[Message]:
        sent.append(message)
        return [Message(message.command, (), comp_code=mq.MQCC_OK)]

    text = ident.hex()
    for command in (f"DLTMQMSUB SUBID({text})", f"CHGMQMSUB SUBID({text.upper()}) USERDATA('u')", f"DSPMQMSUB {text}"):
        sent.clear()
        ibmi.run(command, execute)
        found = sent[0].get(mq.MQBACF_SUB_ID)
        assert isinstance(found, ByteString) and found.value == ident and sent[0].version >= 2
