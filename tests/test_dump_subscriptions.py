"""pcfserver dump of administrative subscriptions (issue 19): DEFINE SUB with every attribute that differs from
SYSTEM.DEFAULT.SUB (byte strings included), written after the queues and topic objects they name, and a script that
replays to the same subscriptions (a new SubId each, as DEFINE SUB makes; a DESTCORL that was the old SubId is not
written, so the new one is the new SubId)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import ByteString, Integer, IntegerList, Message, String
from pcfserver.dialects import run_script
from pcfserver.dialects.dump import dump
from pcfserver.engine import Engine, open_engine

# What a replay makes anew: the identity, the stamps.
_FRESH = frozenset((mq.MQBACF_SUB_ID, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME, mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME))


def subscriptions(engine: Engine) -> dict[str, dict[int, Any]]:
    answer = engine.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, "*"), IntegerList(mq.MQIACF_SUB_ATTRS, (mq.MQIACF_ALL,)))))
    out: dict[str, dict[int, Any]] = {}
    for response in answer:
        ident = response.get(mq.MQBACF_SUB_ID)
        assert isinstance(ident, ByteString)
        values: dict[int, Any] = {}
        for p in response.parameters:
            if p.parameter in _FRESH:
                continue
            value = getattr(p, "value", None)
            if p.parameter == mq.MQBACF_DESTINATION_CORREL_ID and value == ident.value:
                value = "<its SubId>"
            values[p.parameter] = value
        out[(response.str_value(mq.MQCACF_SUB_NAME) or "").rstrip()] = values
    return out


def replayed(engine: Engine, dialect: str = "mqsc") -> Engine:
    script = dump(engine.execute, dialect=dialect)
    fresh = open_engine(None)
    transcript = run_script(script, fresh.execute, dialect=dialect)
    assert transcript.exit_code == 0, transcript.text
    return fresh


SETUP = """DEFINE QLOCAL(Q1)
DEFINE TOPIC(SPORT) TOPICSTR('sport')
DEFINE SUB(FULL) TOPICOBJ(SPORT) TOPICSTR('golf') DEST(Q1) USERDATA('u d') SELECTOR('x = 1') PUBPRTY(5) EXPIRY(600) +
  PSPROP(RFH2) VARUSER(FIXED) REQONLY(YES) SUBLEVEL(3) WSCHEMA(CHAR) SUBSCOPE(QMGR) PUBAPPID('app') SUBUSER('bob') +
  DESTCORL(414D51200000000000000000000000000000000000000001) PUBACCT(0102)
DEFINE SUB(PLAIN) TOPICSTR('news') DEST(Q1)
DEFINE SUB(MANAGED) TOPICSTR('news/#') DESTCLAS(MANAGED)
"""


def test_dump_writes_every_non_default_attribute_of_a_subscription() -> None:
    engine = open_engine(None)
    assert run_script(SETUP, engine.execute).exit_code == 0
    script = dump(engine.execute)
    full = script[script.index("DEFINE SUB('FULL')") :].split("REPLACE")[0]
    for keyword in ("TOPICSTR('golf')", "TOPICOBJ('SPORT')", "DEST('Q1')", "USERDATA('u d')", "SELECTOR('x = 1')", "PUBPRTY(5)",
                    "EXPIRY(600)", "PSPROP(RFH2)", "VARUSER(FIXED)", "REQONLY(YES)", "SUBLEVEL(3)", "WSCHEMA(CHAR)", "SUBSCOPE(QMGR)",
                    "PUBAPPID('app')", "SUBUSER('bob')", "DESTCORL(414D51200000000000000000000000000000000000000001)", "PUBACCT(0102"):
        assert keyword in full, keyword
    plain = script[script.index("DEFINE SUB('PLAIN')") :].split("REPLACE")[0]
    assert "DESTCORL" not in plain and "PUBACCT" not in plain  # the generated correlation id, no accounting token
    assert script.index("DEFINE SUB('PLAIN')") > script.index("DEFINE QLOCAL('Q1')")  # after the queue it names
    assert subscriptions(replayed(engine)) == subscriptions(engine)


def test_cl_dump_of_subscriptions_replays() -> None:
    engine = open_engine(None)
    script = "DEFINE QLOCAL(Q1)\nDEFINE SUB(CL.SUB) TOPICSTR('a/b') DEST(Q1) USERDATA('x') PUBPRTY(ASQDEF) DESTCORL(0A0B)\n"
    assert run_script(script, engine.execute).exit_code == 0
    text = dump(engine.execute, dialect="ibmi")
    assert "CRTMQMSUB" in text and "DESTCRRLID(0A0B" in text
    assert text.index("SUBNAME('CL.SUB')") > text.index("QNAME('Q1')")
    assert subscriptions(replayed(engine, "ibmi"))["CL.SUB"] == subscriptions(engine)["CL.SUB"]


WORDS = st.text(alphabet=st.sampled_from("abcXYZ019 ._-"), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(
    userdata=WORDS,
    priority=st.sampled_from(["ASPUB", "ASQDEF", "0", "9"]),
    expiry=st.one_of(st.just("UNLIMITED"), st.integers(1, 999999999).map(str)),
    psprop=st.sampled_from(["NONE", "COMPAT", "RFH2", "MSGPROP"]),
    sublevel=st.integers(0, 9),
    correl=st.one_of(st.none(), st.binary(min_size=1, max_size=24).filter(lambda b: any(b))),
    token=st.one_of(st.none(), st.binary(min_size=1, max_size=32).filter(lambda b: any(b))),
)
def test_any_subscription_replays_to_itself(userdata: str, priority: str, expiry: str, psprop: str, sublevel: int, correl: bytes | None, token: bytes | None) -> None:
    engine = open_engine(None)
    extra = (f" DESTCORL({correl.hex()})" if correl else "") + (f" PUBACCT({token.hex()})" if token else "")
    define = (f"DEFINE SUB(P) TOPICSTR('p/q') DEST(Q1) USERDATA('{userdata}') PUBPRTY({priority}) EXPIRY({expiry}) PSPROP({psprop}) "
              f"SUBLEVEL({sublevel}){extra}")
    assert run_script(f"DEFINE QLOCAL(Q1)\n{define}\n", engine.execute).exit_code == 0
    assert subscriptions(replayed(engine)) == subscriptions(engine)


def test_display_sub_after_replay_keeps_integer_attributes() -> None:
    engine = open_engine(None)
    assert run_script(SETUP, engine.execute).exit_code == 0
    fresh = replayed(engine)
    [answer] = fresh.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, "FULL"), IntegerList(mq.MQIACF_SUB_ATTRS, (mq.MQIACF_SUB_LEVEL,)))))
    assert isinstance(answer.get(mq.MQIACF_SUB_LEVEL), Integer) and answer.int_value(mq.MQIACF_SUB_LEVEL) == 3
