"""Message property names as IBM MQ checks them (IBM "Property names" q022940_, "Property name restrictions"
q022950_, MQRC_PROPERTY_NAME_ERROR q044620_): the rule, an MQPUT carrying a bad name, the REST API's
ibm-mq-usr-* headers and the console's Put form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pcfserver import MQIError, mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.engine.property_names import explain, property_name_error
from pcfserver.rest.http import Request
from pcfserver.rest.messaging import MessagingApi
from tests.test_rest_api import BASE, PUT_HEADERS, run

ACCEPTED = ["colour", "usr.colour", "order_id", "$amount", "a1", "mq_usr.x.y", "Root.MQMD.CorrelId", "JMSType", "JMSXGroupID",
            "Bodyguard", "mq.one", "région", "a.1"]
REFUSED = ["my-prop", "1abc", ".a", "a.", "a..b", "with space", "a=b", "NULL", "usr.true", "between", "JMSPriority", "usr.JMSType",
           "Body.x", "Root.x", "mq.a.b", "MQ.a.b", "emoji\U0001f600"]


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_ibm_allows_are_accepted(name: str) -> None:
    assert property_name_error(name) == 0


@pytest.mark.parametrize("name", REFUSED)
def test_names_ibm_refuses_answer_2442_with_a_reason_a_person_can_read(name: str) -> None:
    assert property_name_error(name) == mq.MQRC_PROPERTY_NAME_ERROR
    assert name in explain(name) and "MQRC_PROPERTY_NAME_ERROR" in explain(name)


def test_empty_and_overlong_names_are_length_errors() -> None:
    assert property_name_error("") == property_name_error("a" * 4096) == mq.MQRC_PROPERTY_NAME_LENGTH_ERR
    assert property_name_error("a" * 4095) == 0


@given(st.text(max_size=40))
def test_any_text_gets_an_answer_and_never_an_exception(name: str) -> None:
    reason = property_name_error(name)
    assert reason in (0, mq.MQRC_PROPERTY_NAME_ERROR, mq.MQRC_PROPERTY_NAME_LENGTH_ERR)
    if reason:
        assert explain(name)
    else:  # what is accepted keeps the rule's shape
        assert "-" not in name and " " not in name and not name.startswith(".") and ".." not in name and not name.endswith(".")


@given(st.from_regex(r"[a-z_$][a-z0-9_$]{0,8}(\.[a-z0-9_$]{1,8}){0,1}", fullmatch=True))
def test_plain_identifiers_with_a_dot_are_accepted_unless_reserved(name: str) -> None:
    reserved = name.upper() in {"AND", "OR", "NOT", "LIKE", "ESCAPE", "IN", "BETWEEN", "IS", "NULL", "TRUE", "FALSE"}
    assert (property_name_error(name) == 0) != reserved


def test_a_put_with_a_refused_name_fails_and_queues_nothing() -> None:
    engine = open_engine(None)
    engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "Q1"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))
    layer = engine.messaging
    session = layer.open_session("test")
    with pytest.raises(MQIError, match=r"\(2442\)"):
        engine.execute_operation(lambda: layer.put(session, "Q1", b"x", properties=(("colour", "red"), ("my-prop", "1"))))
    engine.execute_operation(lambda: layer.put(session, "Q1", b"y", properties=(("colour", "red"),)))
    md, body = engine.execute_operation(lambda: layer.get(session, "Q1"))
    assert body == b"y" and dict(md.properties) == {"colour": "red"}


def test_a_publication_with_a_refused_name_fails() -> None:
    engine = open_engine(None)
    session = engine.messaging.open_session("test")
    with pytest.raises(MQIError, match=r"\(2442\)"):
        engine.execute_operation(lambda: engine.pubsub.publish(session, "a/b", b"x", properties=(("usr.JMSType", "t"),)))


def test_rest_v3_refuses_a_user_property_header_naming_no_property_with_400() -> None:
    bad = run(MessagingApi("QM1"), Request("POST", BASE.format(3), "", (*PUT_HEADERS, ("ibm-mq-usr-my-prop", "1")), b"x"))
    assert bad.status == 400 and b"ibm-mq-usr-my-prop" in bad.body
    good = run(MessagingApi("QM1"), Request("POST", BASE.format(3), "", (*PUT_HEADERS, ("ibm-mq-usr-my_prop", "1")), b"x"))
    assert good.status == 201
    ignored = run(MessagingApi("QM1"), Request("POST", BASE.format(2), "", (*PUT_HEADERS, ("ibm-mq-usr-my-prop", "1")), b"x"))
    assert ignored.status == 201  # v2 ignores ibm-mq-usr-* (formats/rest-messaging.tsv)


def test_v3_answers_user_properties_only_and_usr_names_without_their_folder() -> None:
    from pcfserver.rest.messaging import user_properties

    given = (("colour", "red"), ("usr.size", "2"), ("MQTopicString", "a/b"), ("mq_usr.x", "kept"), ("JMSType", "t"),
             ("mcd.Msd", "jms_text"), ("Root.MQMD.Priority", "4"), ("mqIsRetained", "true"))
    assert user_properties(given) == [("colour", "red"), ("size", "2"), ("mq_usr.x", "kept")]
