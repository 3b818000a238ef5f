"""The sans-IO messaging REST API: requests in, responses or operations out; fuzzed with hypothesis."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.engine.messages import MQIError
from pcfserver.rest.http import Request, Response
from pcfserver.rest.messaging import MessagingApi, Operation, Publication, parse_id, render_correl_id, render_id

BASE = "/ibmmq/rest/v{}/messaging/qmgr/QM1/queue/Q/message"
PUT_HEADERS = (("content-type", "text/plain;charset=utf-8"), ("ibm-mq-rest-csrf-token", ""))


def run(api: MessagingApi, request: Request) -> Response:
    """Answers a request against a fresh in-memory engine with queue Q."""
    engine = open_engine(None)
    engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "Q"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))
    session = engine.messaging.open_session("test")
    answer = api.handle(request)
    if isinstance(answer, Operation):
        op = answer
        try:
            result: object = engine.execute_operation(lambda: op.run(engine.messaging, session))
        except MQIError as error:
            result = error
        answer = op.respond(result)
    return answer


@given(st.binary(min_size=24, max_size=24), st.sampled_from([1, 2, 3]))
def test_ids_round_trip_in_every_version(value: bytes, version: int) -> None:
    text = render_id(value, version)
    assert text.startswith("ID:") == (version == 3)
    assert parse_id(text, version, application=False, what="x") == value


@given(st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=24).filter(lambda t: not t.startswith("ID:")))
def test_v3_application_correlation_ids_round_trip(text: str) -> None:
    value = parse_id(text, 3, application=True, what="x")
    assert len(value) == 24 and render_correl_id(value, 3) == text


@settings(max_examples=300, deadline=None)
@given(
    method=st.sampled_from(["GET", "POST", "DELETE", "PUT", "HEAD", "PATCH", "\x00"]),
    path=st.one_of(st.text(max_size=80), st.builds(lambda v, q, r: f"/ibmmq/rest/v{v}/messaging/qmgr/{q}/queue/{q}/{r}",
                                                   st.text(max_size=3), st.text(max_size=12), st.sampled_from(["message", "messagelist", "x"]))),
    query=st.text(max_size=60),
    headers=st.lists(st.tuples(st.sampled_from(["content-type", "ibm-mq-rest-csrf-token", "ibm-mq-md-expiry", "ibm-mq-md-persistence",
                                                 "ibm-mq-md-correlationid", "ibm-mq-md-replyto", "ibm-mq-md-priority", "ibm-mq-usr-", "x"]),
                               st.text(max_size=60)), max_size=6),
    body=st.binary(max_size=64),
)
def test_any_request_gets_an_http_answer(method: str, path: str, query: str, headers: list[tuple[str, str]], body: bytes) -> None:
    api = MessagingApi("QM1")
    answer = api.handle(Request(method, path, query, tuple(headers), body))
    assert isinstance(answer, (Response, Operation))
    if isinstance(answer, Response):
        assert 400 <= answer.status < 600
        item = json.loads(answer.body)["error"][0]
        assert item["msgId"] and item["message"]


@settings(max_examples=100, deadline=None)
@given(version=st.sampled_from([1, 2, 3]), headers=st.lists(st.tuples(
    st.sampled_from(["ibm-mq-md-expiry", "ibm-mq-md-persistence", "ibm-mq-md-correlationid", "ibm-mq-md-replyto", "ibm-mq-md-priority", "ibm-mq-usr-p"]),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=50)), max_size=4), body=st.text(max_size=40))
def test_a_put_is_either_refused_with_400_or_put(version: int, headers: list[tuple[str, str]], body: str) -> None:
    response = run(MessagingApi("QM1"), Request("POST", BASE.format(version), "", (*PUT_HEADERS, *headers), body.encode()))
    assert response.status in (201, 400), response.body
    if response.status == 201:
        assert response.header("ibm-mq-md-messageid")


def test_get_after_put_answers_the_body_and_the_api_is_deterministic() -> None:
    api = MessagingApi("QM1")
    put = api.handle(Request("POST", BASE.format(2), "", PUT_HEADERS, b"x"))
    assert isinstance(put, Operation) and put.kind == "put" and put.wait == 0
    get = api.handle(Request("DELETE", BASE.format(2), "wait=2500", (("ibm-mq-rest-csrf-token", "t"),)))
    assert isinstance(get, Operation) and get.kind == "get" and get.wait == 2.5
    assert get.respond(MQIError(mq.MQRC_NO_MSG_AVAILABLE)).status == 204


@settings(max_examples=200, deadline=None)
@given(
    method=st.sampled_from(["GET", "POST", "DELETE", "PUT"]),
    version=st.sampled_from(["1", "2", "3", "4"]),
    topic=st.text(max_size=30),
    headers=st.lists(st.tuples(st.sampled_from(["content-type", "ibm-mq-rest-csrf-token", "ibm-mq-md-persistence", "ibm-mq-md-priority", "x"]),
                               st.text(max_size=30)), max_size=4),
)
def test_any_topic_request_gets_an_answer_or_a_publication(method: str, version: str, topic: str, headers: list[tuple[str, str]]) -> None:
    answer = MessagingApi("QM1").handle(Request(method, f"/ibmmq/rest/v{version}/messaging/qmgr/QM1/topic/{topic}/message", "", tuple(headers), b"x"))
    if isinstance(answer, Publication):
        assert method == "POST" and version in ("2", "3") and answer.topic
    else:
        assert isinstance(answer, Response) and 400 <= answer.status < 600
