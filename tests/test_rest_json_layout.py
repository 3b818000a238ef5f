"""The REST API's JSON is laid out as mqweb lays it out, byte for byte where mqweb's own answers were published.

Scripts read mqweb's answers a line at a time (``grep '"curdepth": '``, ``sed``, ``awk``) as often as with a JSON
parser; a compact answer gives such a script nothing to match.  The bodies below are real mqweb answers as published
with their Content-Length (IBM's .NET REST administration sample printed each body beside its headers; IBM's cp4i
samples show the qmgr and error answers), so their layout, not only their content, is IBM's."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pcfserver.rest.http import mqweb_json
from tests import test_rest_admin
from tests.test_rest_admin import CSRF, MQSC, Server

# (body, the Content-Length mqweb sent with it)
PUBLISHED = [
    ('{"queue": [{\n  "name": "Q1",\n  "type": "local"\n}]}', 50),
    (
        '{"channel": [{\n  "sender": {\n    "transmissionQueueName": "",\n    "connection": []\n  },\n'
        '  "name": "SYSTEM.DEF.SENDER",\n  "type": "sender"\n}]}',
        141,
    ),
    (
        '{\n  "commandResponse": [{\n    "completionCode": 0,\n    "reasonCode": 0,\n'
        '    "text": ["AMQ8014I: IBM MQ channel created."]\n  }],\n  "overallReasonCode": 0,\n  "overallCompletionCode": 0\n}',
        184,
    ),
    (
        '{"queue": [{\n  "storage": {\n    "maximumDepth": 5000,\n    "maximumMessageLength": 4194304\n  },\n'
        '  "events": {\n    "serviceInterval": {\n      "duration": 999999999,\n      "okEnabled": false\n    },\n'
        '    "depth": {\n      "lowPercentage": 20,\n      "highPercentage": 80\n    }\n  },\n  "name": "Q1"\n}]}',
        None,  # (an excerpt of a 1,676-byte answer: the nesting of its events object)
    ),
]


@pytest.mark.parametrize(("body", "length"), PUBLISHED)
def test_published_mqweb_answers_come_out_byte_for_byte(body: str, length: int | None) -> None:
    assert length is None or len(body.encode()) == length
    assert mqweb_json(json.loads(body)) == body


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_any_value_reads_back_the_same(value: object) -> None:
    text = mqweb_json(value)
    assert json.loads(text) == value
    assert text.isascii()  # (non-ASCII characters escaped, as before: the body is UTF-8 either way)


@given(st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True), st.integers(), min_size=2, max_size=6))
def test_each_member_of_a_larger_object_has_a_line_of_its_own(members: dict[str, int]) -> None:
    lines = mqweb_json({"queue": [members]}).splitlines()
    assert lines[0] == '{"queue": [{' and lines[-1] == "}]}"
    assert lines[1:-1] == [f'  "{k}": {v}' + ("," if i < len(members) - 1 else "") for i, (k, v) in enumerate(members.items())]


server = test_rest_admin.open_server  # the admin tests' server (no users), under the name these tests use


async def test_the_server_answers_in_mqwebs_layout(server: Server) -> None:
    async with server.client() as client:
        made = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "DEFINE CHANNEL(DOTNET.SVRCONN) CHLTYPE(SVRCONN)"}}, headers=CSRF)
        assert made.text == PUBLISHED[2][0] and made.headers["content-length"] == "184"
        made_q = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(Q1)"}}, headers=CSRF)
        assert made_q.json()["overallCompletionCode"] == 0
        queue = await client.get("/ibmmq/rest/v1/admin/qmgr/QM1/queue/Q1")
        assert queue.text == PUBLISHED[0][0]
        qmgr = await client.get("/ibmmq/rest/v1/admin/qmgr")
        assert qmgr.text == '{"qmgr": [{\n  "name": "QM1",\n  "state": "running"\n}]}'
        shown = await client.post(MQSC, json={"type": "runCommandJSON", "command": "display", "qualifier": "qlocal", "name": "Q1", "responseParameters": ["curdepth"]}, headers=CSRF)
        # what a line-reading script looks for
        assert '      "curdepth": 0' in shown.text.splitlines()
        # IBM's error answer (cp4i samples: msgId, action, completionCode, reasonCode, type, message, explanation)
        refused = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "DISPLAY QMGR"}})
        lines = refused.text.splitlines()
        assert lines[0] == '{"error": [{' and lines[1] == '  "msgId": "MQWB0100E",' and lines[-1] == "}]}"
        assert [line.split('"')[1] for line in lines[1:-1]][:2] == ["msgId", "action"]
        assert isinstance(httpx.Response(200, content=refused.content).json()["error"][0]["explanation"], str)
