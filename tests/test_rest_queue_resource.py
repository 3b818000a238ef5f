"""IBM's REST API v1 queue resource (/ibmmq/rest/v1/admin/qmgr/{qmgr}/queue): a real server on 127.0.0.1 driven
with httpx as curl, monitoring scripts and IBM's own samples call it; the sans-IO parser under hypothesis."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.dialects.tables import REST, queue_attributes, vocabulary
from pcfserver.engine import open_engine
from pcfserver.rest import queue_resource
from pcfserver.rest.fields import put as put_dotted
from pcfserver.rest.http import Request, Response
from pcfserver.tables import read_table, value_of
from tests.test_rest_admin import CSRF, Server, add_user, basic, start

QUEUES = "/ibmmq/rest/v1/admin/qmgr/QM1/queue"
MESSAGES = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"

# IBM's own answer to GET .../queue/Q1?attributes=* for a new local queue, as recorded from MQ 9.2 in
# ibm-messaging/mq-dotnet-administration-with-mqrestapi (README): every group and attribute, and the default values.
IBM_LOCAL_ALL = {
    "cluster": {"namelist": "", "name": "", "workloadQueueUse": "asQmgr", "workloadPriority": 0, "workloadRank": 0, "transmissionQueueForChannelName": ""},
    "timestamps": {"created": "", "altered": ""},
    "storage": {"maximumDepth": 5000, "maximumMessageLength": 4194304, "messageDeliverySequence": "priority", "nonPersistentMessageClass": "normal"},
    "trigger": {"initiationQueueName": "", "depth": 1, "data": "", "processName": "", "messagePriority": 0, "type": "first", "enabled": False},
    "type": "local",
    "extended": {"allowSharedInput": True, "enableMediaImageOperations": "asQmgr", "backoutRequeueQueueName": "", "custom": "", "supportDistributionLists": False, "backoutThreshold": 0},
    "general": {"inhibitPut": False, "inhibitGet": False, "isTransmissionQueue": False, "description": ""},
    "applicationDefaults": {
        "putResponse": "synchronous", "messagePriority": 0, "messagePersistence": "nonPersistent", "clusterBind": "onOpen",
        "sharedInput": True, "readAhead": "no", "messagePropertyControl": "compatible",
    },
    "name": "Q1",
    "events": {
        "serviceInterval": {"duration": 999999999, "okEnabled": False, "highEnabled": False},
        "depth": {"lowPercentage": 20, "highPercentage": 80, "lowEnabled": False, "fullEnabled": True, "highEnabled": False},
    },
    "dataCollection": {"accounting": "asQmgr", "monitoring": "asQmgr", "statistics": "asQmgr"},
}
TIMESTAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z"


@pytest.fixture
async def server(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Server]:
    served = await start(nursery, tmp_path)
    yield served
    served.service.shutdown()


async def put(client: httpx.AsyncClient, queue: str, body: bytes) -> None:
    answer = await client.post(MESSAGES.format(queue), content=body, headers={**CSRF, "Content-Type": "text/plain"})
    assert answer.status_code == 201, answer.text


def utc_seconds(stamp: str) -> float:
    return time.mktime(time.strptime(stamp, "%Y-%m-%dT%H:%M:%S.000Z")) - time.timezone


async def test_ibm_curl_example_creates_q1_and_ibms_sample_reads_it_back(server: Server) -> None:
    async with server.client() as client:
        # IBM's basic-authentication page: curl ... /ibmmq/rest/v1/admin/qmgr/QM1/queue -X POST -H "ibm-mq-rest-csrf-token: value"
        #   -H "Content-Type: application/json" --data "{\"name\":\"Q1\"}"
        before = time.time()
        made = await client.post(QUEUES, content=b'{"name":"Q1"}', headers={"ibm-mq-rest-csrf-token": "value", "Content-Type": "application/json"})
        assert (made.status_code, made.text, made.headers["location"]) == (201, "", "/ibmmq/rest/v1/admin/qmgr/QM1/queue/Q1")
        plain = await client.get(f"{QUEUES}/Q1")
        assert (plain.status_code, plain.headers["content-type"], plain.json()) == (200, "application/json; charset=utf-8", {"queue": [{"name": "Q1", "type": "local"}]})
        everything = (await client.get(f"{QUEUES}/Q1", params={"attributes": "*"})).json()["queue"][0]
        stamps = everything["timestamps"]
        assert all(abs(utc_seconds(stamps[k]) - before) < 5 for k in ("created", "altered")), stamps
        everything["timestamps"] = {"created": "", "altered": ""}
        assert everything == IBM_LOCAL_ALL
        # a group, and single attributes, as dashboards ask
        groups = (await client.get(f"{QUEUES}/Q1", params={"attributes": "storage,general.description"})).json()["queue"][0]
        assert groups == {"name": "Q1", "type": "local", "storage": IBM_LOCAL_ALL["storage"], "general": {"description": ""}}


async def test_a_monitoring_scripts_query_finds_the_queues_that_hold_messages(server: Server) -> None:
    async with server.client() as client:
        for name in ("APP.IN", "APP.OUT", "APP.IDLE"):
            assert (await client.post(QUEUES, json={"name": name, "storage": {"maximumDepth": 100}}, headers=CSRF)).status_code == 201
        before = time.time()
        await put(client, "APP.IN", b"one")
        await put(client, "APP.IN", b"two")
        await put(client, "APP.OUT", b"three")
        got = await client.delete(MESSAGES.format("APP.OUT"), headers=CSRF)
        await put(client, "APP.OUT", b"four")
        assert got.status_code == 200
        # a published health check's query, unchanged
        query = (
            "type=local&attributes=storage.maximumDepth&status=status.currentDepth,status.oldestMessageAge,"
            "status.uncommittedMessages,status.lastGet,status.lastPut&filter=status.currentDepth:greaterThan:0"
        )
        answer = await client.get(f"{QUEUES}?{query}")
        assert answer.status_code == 200, answer.text
        found = {q["name"]: q for q in answer.json()["queue"]}
        assert sorted(found) == ["APP.IN", "APP.OUT"]
        app_in, app_out = found["APP.IN"], found["APP.OUT"]
        assert app_in["storage"] == {"maximumDepth": 100}
        assert set(app_in["status"]) == {"currentDepth", "oldestMessageAge", "uncommittedMessages", "lastGet", "lastPut"}
        assert (app_in["status"]["currentDepth"], app_out["status"]["currentDepth"], app_in["status"]["uncommittedMessages"]) == (2, 1, 0)
        assert app_in["status"]["lastGet"] == "" and abs(utc_seconds(app_in["status"]["lastPut"]) - before) < 5
        assert abs(utc_seconds(app_out["status"]["lastGet"]) - before) < 5
        # one named queue with status=status (everything), as a Node-RED flow reads msg.payload.queue[0].status.currentDepth
        one = (await client.get(f"{QUEUES}/APP.IN", params={"status": "status", "attributes": "storage.maximumDepth"})).json()
        assert one["queue"][0]["status"]["currentDepth"] == 2
        assert set(one["queue"][0]["status"]) == {
            "currentDepth", "openInputCount", "openOutputCount", "uncommittedMessages", "lastGet", "lastPut", "oldestMessageAge", "onQueueTime", "monitoringRate",
        }
        # filters on configuration, with a wildcard, and name patterns
        small = (await client.get(QUEUES, params={"filter": "storage.maximumDepth:lessThanOrEqualTo:100", "name": "APP.*"})).json()
        assert sorted(q["name"] for q in small["queue"]) == ["APP.IDLE", "APP.IN", "APP.OUT"]
        none = (await client.get(QUEUES, params={"filter": "general.description:equalTo:nothing*"})).json()
        assert none == {"queue": []}
        # status belongs to local queues only; an alias keeps its target always
        alias = await client.post(QUEUES, json={"name": "APP.ALIAS", "type": "alias", "alias": {"targetName": "APP.IN"}}, headers=CSRF)
        assert alias.status_code == 201, alias.text
        listed = (await client.get(QUEUES, params={"name": "APP.*", "status": "*"})).json()["queue"]
        by_name = {q["name"]: q for q in listed}
        assert by_name["APP.ALIAS"] == {"name": "APP.ALIAS", "type": "alias", "alias": {"targetName": "APP.IN"}}
        assert by_name["APP.IN"]["status"]["currentDepth"] == 2
        # depth alone is read by one inquiry, depth with other status by two: the same answers; a status filter keeps
        # local queues only either way
        depth = {"name": "APP.*", "filter": "status.currentDepth:greaterThanOrEqualTo:0"}
        one = (await client.get(QUEUES, params={**depth, "status": "status.currentDepth"})).json()["queue"]
        two = (await client.get(QUEUES, params={**depth, "status": "status.currentDepth,status.lastGet"})).json()["queue"]
        assert [(q["name"], q["status"]["currentDepth"]) for q in one] == [(q["name"], q["status"]["currentDepth"]) for q in two]
        assert [q["name"] for q in one] == ["APP.IDLE", "APP.IN", "APP.OUT"]


async def test_create_change_copy_and_delete(server: Server) -> None:
    async with server.client() as client:
        body = {
            "name": "ORDERS",
            "general": {"description": "orders in", "inhibitGet": True},
            "storage": {"maximumDepth": 42, "messageDeliverySequence": "fifo"},
            "trigger": {"enabled": True, "type": "depth", "depth": 5},
            "events": {"serviceInterval": {"okEnabled": True, "duration": 1000}, "depth": {"highEnabled": True, "highPercentage": 70}},
            "applicationDefaults": {"messagePersistence": "persistent", "sharedInput": False},
        }
        assert (await client.post(QUEUES, json=body, headers=CSRF)).status_code == 201
        shown = (await client.get(f"{QUEUES}/ORDERS", params={"attributes": "*"})).json()["queue"][0]
        for group in ("general", "storage", "trigger", "applicationDefaults"):
            assert body[group].items() <= shown[group].items(), group
        assert shown["events"]["serviceInterval"] == {"duration": 1000, "okEnabled": True, "highEnabled": False}
        assert shown["events"]["depth"]["highEnabled"] is True and shown["events"]["depth"]["highPercentage"] == 70
        # without noReplace an existing queue is replaced (IBM: DEFINE ... REPLACE): what the body leaves out is the default again
        assert (await client.post(QUEUES, json={"name": "ORDERS", "storage": {"maximumDepth": 43}}, headers=CSRF)).status_code == 201
        replaced = (await client.get(f"{QUEUES}/ORDERS", params={"attributes": "storage.maximumDepth,general"})).json()["queue"][0]
        assert (replaced["storage"]["maximumDepth"], replaced["general"]["description"], replaced["general"]["inhibitGet"]) == (43, "", False)
        kept = await client.post(QUEUES, params={"noReplace": ""}, json={"name": "ORDERS"}, headers=CSRF)
        assert (kept.status_code, kept.json()["error"][0]["reasonCode"]) == (400, mq.MQRCCF_OBJECT_ALREADY_EXISTS)
        # PATCH changes only what it names
        changed = await client.patch(f"{QUEUES}/ORDERS", json={"general": {"description": "changed"}, "events": {"serviceInterval": {"highEnabled": True}}}, headers=CSRF)
        assert changed.status_code == 204, changed.text
        after = (await client.get(f"{QUEUES}/ORDERS", params={"attributes": "general.description,storage.maximumDepth,events.serviceInterval"})).json()["queue"][0]
        assert after["general"] == {"description": "changed"} and after["storage"] == {"maximumDepth": 43}
        assert after["events"]["serviceInterval"]["highEnabled"] is True
        # like= copies a queue's definition
        copied = await client.post(QUEUES, params={"like": "ORDERS"}, json={"name": "ORDERS.COPY"}, headers=CSRF)
        assert copied.status_code == 201, copied.text
        copy = (await client.get(f"{QUEUES}/ORDERS.COPY", params={"attributes": "general.description,storage.maximumDepth"})).json()["queue"][0]
        assert copy == {"name": "ORDERS.COPY", "type": "local", "general": {"description": "changed"}, "storage": {"maximumDepth": 43}}
        # a remote queue definition shows its target always
        remote = {"name": "TO.QM2", "type": "remote", "remote": {"qmgrName": "QM2", "queueName": "ORDERS", "transmissionQueueName": "QM2"}}
        assert (await client.post(QUEUES, json=remote, headers=CSRF)).status_code == 201
        assert (await client.get(f"{QUEUES}/TO.QM2")).json() == {"queue": [{"name": "TO.QM2", "type": "remote", "remote": {"qmgrName": "QM2", "queueName": "ORDERS"}}]}
        # DELETE: a queue holding messages needs purge
        await put(client, "ORDERS.COPY", b"x")
        full = await client.delete(f"{QUEUES}/ORDERS.COPY", headers=CSRF)
        assert (full.status_code, full.json()["error"][0]["reasonCode"]) == (400, mq.MQRC_Q_NOT_EMPTY)
        set_authrec = {"type": "runCommand", "parameters": {"command": "SET AUTHREC PROFILE('ORDERS.COPY') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)"}}
        assert (await client.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=set_authrec, headers=CSRF)).json()["overallCompletionCode"] == 0
        assert (await client.delete(f"{QUEUES}/ORDERS.COPY", params={"purge": ""}, headers=CSRF)).status_code == 204
        shown = {"type": "runCommand", "parameters": {"command": "DISPLAY AUTHREC PROFILE('ORDERS.COPY') OBJTYPE(QUEUE)"}}
        assert (await client.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=shown, headers=CSRF)).json()["overallCompletionCode"] == 2  # gone
        # keepAuthorityRecords keeps the deleted queue's records
        assert (await client.post(QUEUES, json={"name": "KEEPS"}, headers=CSRF)).status_code == 201
        keeps = {"type": "runCommand", "parameters": {"command": "SET AUTHREC PROFILE('KEEPS') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET)"}}
        assert (await client.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=keeps, headers=CSRF)).json()["overallCompletionCode"] == 0
        assert (await client.delete(f"{QUEUES}/KEEPS", params={"keepAuthorityRecords": ""}, headers=CSRF)).status_code == 204
        kept = {"type": "runCommand", "parameters": {"command": "DISPLAY AUTHREC PROFILE('KEEPS') OBJTYPE(QUEUE)"}}
        assert "AUTHLIST(GET)" in " ".join((await client.post("/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json=kept, headers=CSRF)).json()["commandResponse"][0]["text"])
        gone = await client.get(f"{QUEUES}/ORDERS.COPY")
        item = gone.json()["error"][0]
        assert (gone.status_code, item["msgId"]) == (404, "MQWB0037E")
        assert item["message"] == "MQWB0037E: Could not find the queue 'ORDERS.COPY' - the queue manager reason code is 2085 : 'MQRC_UNKNOWN_OBJECT_NAME'"
        assert item["explanation"] == "The MQ REST API was invoked specifying a queue name which cannot be located."


async def test_every_settable_attribute_reads_back_what_was_set(server: Server) -> None:
    """Each attribute of a local queue the table lets a client set, given a value other than its default, reads back."""
    values = vocabulary(REST).words
    body: dict[str, Any] = {"name": "EVERY"}
    expected: dict[str, Any] = {}
    for name, field in queue_resource.config_fields().items():
        if not field.settable or name.split(".")[0] in ("remote", "alias", "model"):
            continue
        default = _path(IBM_LOCAL_ALL, name)
        if field.true_when is not None:
            value: Any = name.endswith("okEnabled")  # one of the two service interval events
        elif field.boolean:
            value = not default
        elif field.words is not None:
            value = next(w for w in values[field.parameters[0]].to_value if w != default and w not in ("sharedDynamic", "predefined"))
        elif field.is_string:
            value = "SOME.NAME" if name.endswith("Name") else "some text"
        else:
            value = 7 if default != 7 else 8
        put_dotted(body, name, value)
        expected[name] = value
    body["cluster"]["namelist"] = ""  # a queue in a cluster is in one cluster or in a namelist of them, not both
    expected["cluster.namelist"] = ""
    body["extended"]["custom"] = "X(Y)"  # CUSTOM is keyword(value) pairs
    expected["extended.custom"] = "X(Y)"
    body["general"]["isTransmissionQueue"] = expected["general.isTransmissionQueue"] = False  # not with a cluster name
    body["cluster"]["transmissionQueueForChannelName"] = expected["cluster.transmissionQueueForChannelName"] = ""  # transmission queues only
    async with server.client() as client:
        made = await client.post(QUEUES, json=body, headers=CSRF)
        assert made.status_code == 201, made.text
        shown = (await client.get(f"{QUEUES}/EVERY", params={"attributes": "*"})).json()["queue"][0]
    assert {name: _path(shown, name) for name in expected} == expected


def _path(tree: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        tree = tree[part]
    return tree


async def test_bad_requests_get_ibm_error_json_and_change_nothing(server: Server) -> None:
    async with server.client() as client:
        assert (await client.post(QUEUES, json={"name": "KEPT"}, headers=CSRF)).status_code == 201
        cases = [
            (client.post(QUEUES, json={"name": "NO.CSRF"}), 403, "MQWB0100E"),
            (client.delete(f"{QUEUES}/KEPT"), 403, "MQWB0100E"),
            (client.get(QUEUES, params={"wait": "1"}), 400, "PCFS0022E"),
            (client.get(QUEUES, params={"attributes": "storage.depth"}), 400, "MQWB0115E"),
            (client.get(QUEUES, params={"status": "currentDepth"}), 400, "MQWB0115E"),
            (client.get(QUEUES, params={"type": "topic"}), 400, "PCFS0001E"),
            (client.get(QUEUES, params={"filter": "status.currentDepth:moreThan:1"}), 400, "PCFS0001E"),
            (client.get(QUEUES, params={"filter": "storage.maximumDepth:equalTo:many"}), 400, "PCFS0001E"),
            (client.get(QUEUES, params={"name": "*IN"}), 400, "PCFS0001E"),
            (client.get(f"{QUEUES}/KEPT", params={"name": "K*"}), 400, "PCFS0001E"),
            (client.get(QUEUES, params={"commandScope": "*"}), 400, "PCFS0023E"),
            (client.get(QUEUES, params={"applicationHandle": "*"}), 400, "PCFS0024E"),
            (client.post(QUEUES, content=b"{not json", headers=CSRF), 400, "MQWB0104E"),
            (client.post(QUEUES, json={"storage": {"maximumDepth": 1}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "storage": {"maximumDepth": "deep"}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "general": {"inhibitPut": "yes"}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "storage": {"messageDeliverySequence": "FIFO"}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "timestamps": {"created": "now"}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "type": "cluster"}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "events": {"serviceInterval": {"okEnabled": True, "highEnabled": True}}}, headers=CSRF), 400, "MQWB0115E"),
            (client.post(QUEUES, json={"name": "BAD", "storage": {"maximumDepth": -1}}, headers=CSRF), 400, "PCFS0020E"),
            (client.post(QUEUES, content=b"name=BAD", headers={**CSRF, "Content-Type": "application/x-www-form-urlencoded"}), 415, "MQWB0306E"),
            (client.patch(f"{QUEUES}/KEPT", json={"type": "alias"}, headers=CSRF), 400, "MQWB0115E"),
            (client.patch(f"{QUEUES}/KEPT", json={"name": "OTHER"}, headers=CSRF), 400, "MQWB0115E"),
            (client.patch(f"{QUEUES}/MISSING", json={}, headers=CSRF), 404, "MQWB0037E"),
            (client.put(f"{QUEUES}/KEPT", json={}, headers=CSRF), 405, "PCFS0003E"),
            (client.patch(QUEUES, json={}, headers=CSRF), 405, "PCFS0003E"),
            (client.get("/ibmmq/rest/v2/admin/qmgr/QM1/queue"), 404, "PCFS0002E"),  # IBM: version 1 only
            (client.get("/ibmmq/rest/v1/admin/qmgr/QM9/queue"), 404, "MQWB0009E"),
        ]
        for request, status, msg_id in cases:
            answer = await request
            assert (answer.status_code, answer.json()["error"][0]["msgId"]) == (status, msg_id), answer.text
        everything = (await client.get(QUEUES, params={"name": "*"})).json()["queue"]
        assert "BAD" not in {q["name"] for q in everything} and "NO.CSRF" not in {q["name"] for q in everything}
        assert (await client.get(f"{QUEUES}/KEPT")).status_code == 200


async def test_roles_and_authority_apply_to_the_queue_resource(nursery: trio.Nursery, tmp_path: Path) -> None:
    add_user(tmp_path, "admin", "MQWebAdmin")
    add_user(tmp_path, "viewer", "MQWebAdminRO")
    served = await start(nursery, tmp_path)
    try:
        async with served.client() as client:
            assert (await client.get(QUEUES)).status_code == 401
            assert (await client.post(QUEUES, json={"name": "BY.ADMIN"}, headers=CSRF, auth=basic("admin"))).status_code == 201
            listed = await client.get(QUEUES, params={"name": "BY.*"}, auth=basic("viewer"))
            assert listed.json() == {"queue": [{"name": "BY.ADMIN", "type": "local"}]}
            refused = await client.post(QUEUES, json={"name": "BY.VIEWER"}, headers=CSRF, auth=basic("viewer"))
            assert (refused.status_code, refused.json()["error"][0]["reasonCode"]) == (403, mq.MQRC_NOT_AUTHORIZED)
            refused = await client.delete(f"{QUEUES}/BY.ADMIN", headers=CSRF, auth=basic("viewer"))
            assert refused.status_code == 403
            assert (await client.get(f"{QUEUES}/BY.ADMIN", auth=basic("viewer"))).status_code == 200
    finally:
        served.service.shutdown()


def test_every_value_of_a_named_attribute_has_a_rest_word() -> None:
    """A value the queue manager holds always reads as one of IBM's words, never as a bare number."""
    words = vocabulary(REST).words
    for row in read_table("queue-attributes.tsv"):
        if not row["rest"] or not row["values"] or row["name"] in ("QType", "QServiceIntervalEvent"):
            continue
        parameter = value_of(row["parameter"])
        held = {value_of(v) for v in row["values"].split()}
        assert held <= set(words[parameter].to_word), row["name"]
    names = [n for a in queue_attributes() for n in a.keyword(REST).split()]
    assert len(names) - len(set(names)) == 2  # the date and time halves of timestamps.created and .altered


@settings(max_examples=300, deadline=None)
@given(
    method=st.sampled_from(["GET", "POST", "PATCH", "DELETE", "PUT"]),
    name=st.one_of(st.none(), st.text(max_size=12)),
    query=st.text(max_size=60),
    body=st.one_of(st.binary(max_size=40), st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8), lambda inner: st.dictionaries(st.sampled_from(["name", "type", "storage", "maximumDepth", "general", "description", "x"]), inner, max_size=4), max_leaves=8).map(lambda v: json.dumps(v).encode())),
)
def test_any_request_is_answered_or_parsed_never_raises(method: str, name: str | None, query: str, body: bytes) -> None:
    request = Request(method, QUEUES, query, (("ibm-mq-rest-csrf-token", ""),), body)
    parsed = queue_resource.parse(request, "QM1", name)
    if isinstance(parsed, Response):
        assert parsed.status in (400, 403, 405, 415)
        return

    def execute(command: Any) -> list[Any]:
        return []  # a queue manager that answers nothing: the resource must still answer

    answer = parsed.run(execute)
    assert isinstance(answer, Response) and 200 <= answer.status < 600


def test_the_resource_answers_through_the_engine_without_a_server(tmp_path: Path) -> None:
    """Sans-IO: the same operation the HTTP shell runs, run here against the engine directly."""
    engine = open_engine(tmp_path)
    try:
        def execute(command: Any) -> Any:
            return engine.execute_batch([command])[0]

        made = queue_resource.parse(Request("POST", QUEUES, "", (("ibm-mq-rest-csrf-token", ""),), b'{"name":"DIRECT"}'), "QM1", None)
        assert not isinstance(made, Response) and made.run(execute).status == 201
        shown = queue_resource.parse(Request("GET", f"{QUEUES}/DIRECT", "attributes=storage.maximumDepth"), "QM1", "DIRECT")
        assert not isinstance(shown, Response)
        assert json.loads(shown.run(execute).body) == {"queue": [{"name": "DIRECT", "type": "local", "storage": {"maximumDepth": 5000}}]}
    finally:
        engine.close()


async def test_the_queue_manager_resource_answers_its_status(server: Server) -> None:
    """IBM: GET /admin/qmgr?status= adds a status object (started in UTC, the channel initiator's and the LDAP
    connection's states, the connection count); state= keeps the queue managers in that state."""
    async with server.client() as client:
        before = time.time()
        full = await client.get("/ibmmq/rest/v2/admin/qmgr/QM1", params={"status": "*"})
        assert full.status_code == 200, full.text
        [item] = full.json()["qmgr"]
        assert (item["name"], item["state"]) == ("QM1", "running")
        status = item["status"]
        assert set(status) == {"started", "channelInitiatorState", "ldapConnectionState", "connectionCount"}
        assert -60 < utc_seconds(status["started"]) - before <= 1  # the server started moments ago
        assert (status["channelInitiatorState"], status["ldapConnectionState"]) == ("running", "disconnected")
        assert isinstance(status["connectionCount"], int) and status["connectionCount"] >= 0
        some = await client.get("/ibmmq/rest/v1/admin/qmgr", params={"status": "status.connectionCount"})
        assert set(some.json()["qmgr"][0]["status"]) == {"connectionCount"}
        plain = await client.get("/ibmmq/rest/v3/admin/qmgr")
        assert plain.json() == {"qmgr": [{"name": "QM1", "state": "running"}]}
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr", params={"state": "running"})).json() == plain.json()
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr", params={"state": "ended"})).json() == {"qmgr": []}
        for params, msg_id in (({"state": "asleep"}, "PCFS0001E"), ({"status": "status.uptime"}, "MQWB0115E"), ({"wait": "1"}, "PCFS0001E")):
            refused = await client.get("/ibmmq/rest/v2/admin/qmgr", params=params)
            assert (refused.status_code, refused.json()["error"][0]["msgId"]) == (400, msg_id)
