"""The messaging REST API end to end: a real server (PCF and HTTP ports, one committer) on
127.0.0.1, httpx as the HTTP client, the PCF client for the other side of the shared engine."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.client import connect
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.engine.engine import Engine
from pcfserver.server import ServerConfig
from pcfserver.server.logs import LOGGER_NAME, AccessLines, JsonFormatter, TextFormatter
from pcfserver.server.service import Service
from tests.log_support import server_log

HOST = "127.0.0.1"
CSRF = {"ibm-mq-rest-csrf-token": "blank"}
TEXT = {**CSRF, "Content-Type": "text/plain;charset=utf-8"}


@dataclass
class Running:
    service: Service
    engine: Engine
    pcf: tuple[str, int]
    http: httpx.AsyncClient
    port: int

    def url(self, queue: str, version: int = 2, resource: str = "message", qmgr: str = "QM1") -> str:
        return f"/ibmmq/rest/v{version}/messaging/qmgr/{qmgr}/queue/{queue}/{resource}"

    async def pcf_command(self, command: Message) -> list[Message]:
        async with connect(*self.pcf) as client:
            return await client.execute(command, check_failure=False)

    async def put(self, queue: str, body: str, version: int = 2, **headers: str) -> httpx.Response:
        return await self.http.post(self.url(queue, version), content=body.encode(), headers={**TEXT, **headers})

    async def get(self, queue: str, version: int = 2, query: str = "") -> httpx.Response:
        return await self.http.delete(self.url(queue, version) + (f"?{query}" if query else ""), headers=CSRF)


async def start_service(nursery: trio.Nursery, data: Path | None = None, **config: Any) -> tuple[Service, Engine, tuple[str, int], int]:
    engine = open_engine(data)
    service = Service(engine, ServerConfig(host=HOST, port=0, http_port=0, **config))
    pcf, http = await nursery.start(service.serve)
    assert http is not None
    return service, engine, pcf, http[1]


@pytest.fixture
async def running(nursery: trio.Nursery) -> AsyncIterator[Running]:
    service, engine, pcf, port = await start_service(nursery)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as client:
        run = Running(service, engine, pcf, client, port)
        await run.pcf_command(create("APP.Q"))
        yield run
    service.shutdown()


def create(name: str, *extra: Integer | String, qtype: int = mq.MQQT_LOCAL) -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), *extra))


def change(name: str, *extra: Integer | String) -> Message:
    return Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), *extra))


def status_of(answer: list[Message]) -> dict[int, object]:
    return {p.parameter: getattr(p, "value", None) for p in answer[0].parameters}


async def queue_status(run: Running, name: str) -> dict[int, object]:
    return status_of(await run.pcf_command(Message(mq.MQCMD_INQUIRE_Q_STATUS, (String(mq.MQCA_Q_NAME, name),))))


def error_item(response: httpx.Response) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and len(body["error"]) == 1
    item: dict[str, Any] = body["error"][0]
    assert {"type", "msgId", "message", "explanation", "action"} <= set(item)
    assert item["message"].startswith(item["msgId"] + ": ")
    return item


# -- put, get, browse ----------------------------------------------------------------------


async def test_ibm_put_get_browse_example_flow(running: Running) -> None:
    first = await running.put("APP.Q", "Test message 1 - put using MQ REST API")
    second = await running.put("APP.Q", "Test message 2 - put using MQ REST API")
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.content == b""
    ids = [first.headers["ibm-mq-md-messageId"], second.headers["ibm-mq-md-messageId"]]
    for value in ids:
        assert len(value) == 48 and value == value.lower() and bytes.fromhex(value).startswith(b"AMQ QM1")
    assert ids[0] != ids[1]
    browsed = await running.http.get(running.url("APP.Q"))
    assert (browsed.status_code, browsed.text) == (200, "Test message 1 - put using MQ REST API")
    assert browsed.headers["content-type"] == "text/plain; charset=utf-8"
    assert browsed.headers["ibm-mq-md-messageId"] == ids[0]
    got = await running.get("APP.Q")
    assert (got.status_code, got.text, got.headers["ibm-mq-md-messageId"]) == (200, "Test message 1 - put using MQ REST API", ids[0])
    assert (await running.http.get(running.url("APP.Q"))).text == "Test message 2 - put using MQ REST API"
    assert (await running.get("APP.Q")).text == "Test message 2 - put using MQ REST API"
    empty = await running.get("APP.Q")
    assert (empty.status_code, empty.content) == (204, b"")
    assert (await running.http.get(running.url("APP.Q"))).status_code == 204


async def test_each_answer_goes_out_in_one_write_head_and_body_together(running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """A got message's head and body leave in one send (one segment, one wake-up of the client); a large body
    goes on its own after the head; 100 Continue still goes first and at once."""
    writes: list[bytes] = []
    send_all = trio.SocketStream.send_all

    async def recorded(self: trio.SocketStream, data: bytes | bytearray | memoryview) -> None:
        writes.append(bytes(data))
        await send_all(self, data)

    monkeypatch.setattr(trio.SocketStream, "send_all", recorded)
    body = "one write " * 20
    assert (await running.put("APP.Q", body)).status_code == 201
    writes.clear()
    got = await running.get("APP.Q")
    assert (got.status_code, got.text) == (200, body)
    answers = [w for w in writes if w.startswith(b"HTTP/1.1 ")]
    assert len(answers) == 1 and answers[0].endswith(body.encode()), writes
    assert (await running.put("NO.SUCH.Q", body)).status_code == 404  # (the connection's next request: the get is done)
    assert b"" not in writes  # nor an empty send for the end of the body (a lock and schedule points for nothing)
    big = "b" * 100_000
    assert (await running.put("APP.Q", big)).status_code == 201
    writes.clear()
    assert (await running.get("APP.Q")).text == big
    [head] = [w for w in writes if w.startswith(b"HTTP/1.1 ")]
    assert head.endswith(b"\r\n\r\n") and big.encode() in writes
    async with await trio.open_tcp_stream(HOST, running.port) as raw:  # a client that waits for 100 Continue
        head = f"POST {running.url('APP.Q')} HTTP/1.1\r\nHost: x\r\nibm-mq-rest-csrf-token: x\r\nContent-Type: text/plain\r\n"
        await raw.send_all(f"{head}Content-Length: 1\r\nExpect: 100-continue\r\n\r\n".encode())
        with trio.fail_after(10):
            assert (await raw.receive_some(4096)).startswith(b"HTTP/1.1 100 ")
            await raw.send_all(b"x")
            assert (await raw.receive_some(4096)).startswith(b"HTTP/1.1 201 ")


async def test_status_lines_carry_their_reason_phrase_and_bodies_stay_as_they_were(running: Running) -> None:
    """mqweb's status lines read "HTTP/1.1 201 Created" (IBM's curl -i transcripts); a script may look for that.
    A message whose text begins like a status line comes back byte for byte."""
    lookalike = "HTTP/1.1 200 \r\nnot a head\r\n\r\n"
    async with await trio.open_tcp_stream(HOST, running.port) as raw:
        buffer = b""

        async def exchange(request: str, ending: bytes) -> bytes:
            nonlocal buffer
            await raw.send_all(request.encode())
            with trio.fail_after(10):
                while not buffer.endswith(ending):
                    buffer += await raw.receive_some(4096)
            answer, buffer = buffer, b""
            return answer

        put = f"POST {running.url('APP.Q')} HTTP/1.1\r\nHost: x\r\nibm-mq-rest-csrf-token: x\r\nContent-Type: text/plain\r\n"
        await raw.send_all(f"{put}Content-Length: {len(lookalike)}\r\n\r\n{lookalike}".encode())
        with trio.fail_after(10):
            while b"\r\n\r\n" not in buffer:
                buffer += await raw.receive_some(4096)
        assert buffer.startswith(b"HTTP/1.1 201 Created\r\n")
        buffer = b""
        taken_raw = await exchange(f"DELETE {running.url('APP.Q')} HTTP/1.1\r\nHost: x\r\nibm-mq-rest-csrf-token: x\r\n\r\n", lookalike.encode())
        assert taken_raw.startswith(b"HTTP/1.1 200 OK\r\n") and taken_raw.count(b"HTTP/1.1 200 ") == 2  # its own, and the body's
    got = await running.get("APP.Q")
    assert got.status_code == 204 and got.reason_phrase == "No Content"
    missing = await running.put("NO.SUCH.Q", "x")
    assert (missing.status_code, missing.reason_phrase) == (404, "Not Found")
    assert (await running.put("APP.Q", lookalike)).reason_phrase == "Created"
    taken = await running.get("APP.Q")
    assert (taken.reason_phrase, taken.content) == ("OK", lookalike.encode())


async def test_descriptor_headers_on_the_way_in_and_out(running: Running) -> None:
    correl = "0123456789abcdef" * 3
    put = await running.put(
        "APP.Q", "with headers", **{"ibm-mq-md-persistence": "persistent", "ibm-mq-md-expiry": "600000",
                                    "ibm-mq-md-correlationId": correl, "ibm-mq-md-replyTo": "REPLY.Q@QM9"},
    )
    assert put.status_code == 201
    got = await running.get("APP.Q")
    headers = got.headers
    assert headers["ibm-mq-md-persistence"] == "persistent"
    assert headers["ibm-mq-md-correlationId"] == correl
    assert headers["ibm-mq-md-replyTo"] == "REPLY.Q@QM9"
    assert 0 < int(headers["ibm-mq-md-expiry"]) <= 600000
    assert "ibm-mq-md-priority" not in headers  # v3 only
    plain = await running.put("APP.Q", "defaults")
    got = await running.get("APP.Q")
    assert plain.status_code == 201
    assert (got.headers["ibm-mq-md-persistence"], got.headers["ibm-mq-md-expiry"]) == ("nonPersistent", "unlimited")
    assert "ibm-mq-md-correlationId" not in got.headers and "ibm-mq-md-replyTo" not in got.headers


async def test_v3_ids_priority_and_user_properties(running: Running) -> None:
    put = await running.put("APP.Q", "v3", 3, **{"ibm-mq-md-priority": "7", "ibm-mq-usr-colour": "blue", "ibm-mq-md-correlationId": "order-42"})
    assert put.status_code == 201
    msg_id = put.headers["ibm-mq-md-messageId"]
    assert msg_id.startswith("ID:") and len(msg_id) == 51
    listed = (await running.http.get(running.url("APP.Q", 3, "messagelist"))).json()["messages"]
    assert [(m["messageId"], m["priority"], m["userProperties"]) for m in listed] == [(msg_id, 7, {"colour": "blue"})]
    by_correl = await running.get("APP.Q", 3, "correlationId=order-42")
    assert by_correl.status_code == 200
    assert (by_correl.headers["ibm-mq-md-messageId"], by_correl.headers["ibm-mq-md-correlationId"]) == (msg_id, "order-42")
    assert (by_correl.headers["ibm-mq-md-priority"], by_correl.headers["ibm-mq-usr-colour"]) == ("7", "blue")
    # The same message over v2: hex without the prefix, and no v3 headers.
    await running.put("APP.Q", "again", 3, **{"ibm-mq-md-priority": "3"})
    v2 = await running.get("APP.Q", 2)
    assert "ibm-mq-md-priority" not in v2.headers and not v2.headers["ibm-mq-md-messageId"].startswith("ID:")


async def test_selection_by_message_id_and_correlation_id(running: Running) -> None:
    ids = [(await running.put("APP.Q", f"m{i}")).headers["ibm-mq-md-messageId"] for i in range(3)]
    third = await running.get("APP.Q", 2, f"messageId={ids[2]}")
    assert third.text == "m2"
    assert (await running.get("APP.Q", 2, f"messageId={ids[2]}")).status_code == 204
    v3 = await running.http.get(running.url("APP.Q", 3) + f"?messageId=ID:{ids[1]}")
    assert v3.text == "m1"
    assert (await running.get("APP.Q", 2, "correlationId=" + "ab" * 24)).status_code == 204
    assert [r.text for r in [await running.get("APP.Q"), await running.get("APP.Q")]] == ["m0", "m1"]


async def test_messagelist_summaries_and_a_get_inhibited_queue(running: Running) -> None:
    for i in range(3):
        await running.put("APP.Q", f"list {i}", **{"ibm-mq-md-persistence": "persistent"})
    listed = await running.http.get(running.url("APP.Q", 2, "messagelist"))
    assert listed.status_code == 200 and listed.headers["content-type"].startswith("application/json")
    messages = listed.json()["messages"]
    assert len(messages) == 3 and all(m["format"] == "MQSTR" and m["persistence"] == "persistent" for m in messages)
    assert all("body" not in m and "priority" not in m for m in messages)
    assert len((await running.http.get(running.url("APP.Q", 2, "messagelist") + "?limit=2")).json()["messages"]) == 2
    assert (await queue_status(running, "APP.Q"))[mq.MQIA_CURRENT_Q_DEPTH] == 3  # nothing removed
    await running.pcf_command(change("APP.Q", Integer(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_INHIBITED)))
    assert (await running.http.get(running.url("APP.Q", 2, "messagelist"))).json() == {"messages": []}
    refused = await running.get("APP.Q")
    assert refused.status_code == 500 and error_item(refused)["reasonCode"] == mq.MQRC_GET_INHIBITED


async def test_alias_queues_resolve_to_their_base(running: Running) -> None:
    await running.pcf_command(create("APP.ALIAS", String(mq.MQCA_BASE_OBJECT_NAME, "APP.Q"), qtype=mq.MQQT_ALIAS))
    assert (await running.put("APP.ALIAS", "via alias")).status_code == 201
    assert (await running.get("APP.Q")).text == "via alias"


# -- waits ---------------------------------------------------------------------------------


async def test_a_waiting_get_holds_the_queue_open_and_gets_a_later_put(running: Running) -> None:
    answers: list[httpx.Response] = []

    async def waiting_get() -> None:
        answers.append(await running.get("APP.Q", 2, "wait=15000"))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiting_get)
        for _ in range(200):
            await trio.sleep(0.01)
            if (await queue_status(running, "APP.Q"))[mq.MQIA_OPEN_INPUT_COUNT] == 1:
                break
        assert (await queue_status(running, "APP.Q"))[mq.MQIA_OPEN_INPUT_COUNT] == 1
        [handle] = await running.pcf_command(
            Message(mq.MQCMD_INQUIRE_Q_STATUS, (String(mq.MQCA_Q_NAME, "APP.Q"), Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE)))
        )
        shown = status_of([handle])
        assert (shown[mq.MQIACF_OPEN_INPUT_TYPE], shown[mq.MQIACF_HANDLE_STATE]) == (mq.MQQSO_SHARED, mq.MQHSTATE_ACTIVE)  # a get in progress
        assert str(shown[mq.MQCACF_APPL_TAG]).strip() == "pcfserver REST"
        assert (await running.put("APP.Q", "arrived")).status_code == 201
    assert [(a.status_code, a.text) for a in answers] == [(200, "arrived")]
    assert (await queue_status(running, "APP.Q"))[mq.MQIA_OPEN_INPUT_COUNT] == 0


async def test_a_wait_that_ends_without_a_message_answers_204_and_others_go_on(running: Running) -> None:
    async with trio.open_nursery() as nursery:
        results: list[int] = []

        async def waiting() -> None:
            results.append((await running.get("APP.Q", 2, "wait=300")).status_code)

        nursery.start_soon(waiting)
        # Meanwhile the server answers everyone else.
        other = await running.put("OTHER.Q", "x")
        assert other.status_code == 404
    assert results == [204]


# -- the access log ------------------------------------------------------------------------


async def test_one_access_line_per_request_written_soon_also_while_a_get_waits(running: Running) -> None:
    await running.pcf_command(create("LOG.Q"))
    with server_log() as handler:
        assert (await running.put("LOG.Q", "alone")).status_code == 201
        with trio.fail_after(5):  # written a moment after its answer (lines go out in batches)
            while not handler.events("http"):
                await trio.sleep(0.001)
        async with trio.open_nursery() as nursery:

            async def waiting_get() -> None:
                assert (await running.get("APP.Q", 2, "wait=15000")).text == "released"

            nursery.start_soon(waiting_get)
            for _ in range(200):  # the get waits on the queue (its request in progress)
                await trio.sleep(0.01)
                if (await queue_status(running, "APP.Q"))[mq.MQIA_OPEN_INPUT_COUNT] == 1:
                    break
            assert (await running.put("LOG.Q", "one")).status_code == 201
            assert (await running.get("LOG.Q", 3)).status_code == 200
            with trio.fail_after(5):  # written while the get still waits, a moment later
                while len(handler.events("http")) < 3:
                    await trio.sleep(0.01)
            assert (await running.put("APP.Q", "released")).status_code == 201
        with trio.fail_after(5):
            while len(handler.events("http")) < 5:
                await trio.sleep(0.01)
    rows = handler.events("http")
    lines = [(r["command"], r["queue"], r["reason"]) for r in rows]
    assert lines[:3] == [
        ("POST put", running.url("LOG.Q"), "201"),
        ("POST put", running.url("LOG.Q"), "201"),
        ("DELETE get", running.url("LOG.Q", 3), "200"),
    ]
    # The releasing put and the get it released are answered together, in either order.
    assert sorted(lines[3:]) == [("DELETE get", running.url("APP.Q"), "200"), ("POST put", running.url("APP.Q"), "201")]
    released, releasing = sorted(rows[3:], key=lambda r: r["command"])
    assert released["us"] > releasing["us"]  # the get waited for the put
    assert all(r["peer"].startswith("127.0.0.1:") and isinstance(r["us"], int) and r["level"] == "info" for r in rows)
    assert rows[0]["msg"] == f"{rows[0]['peer']} POST {running.url('LOG.Q')} put 201 {rows[0]['us']}us"
    assert [r["time"] for r in rows] == sorted(r["time"] for r in rows)


async def test_access_lines_held_for_their_batch_are_written_when_the_server_stops() -> None:
    with server_log() as handler:
        async with trio.open_nursery() as nursery:
            service, _, _, port = await start_service(nursery)
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as client:
                assert (await client.get("/ibmmq/rest/v2/admin/qmgr")).status_code == 200
            service.shutdown()  # at once: before the batch's 0.1 s have passed
    rows = handler.events("http")
    assert [(r["command"], r["queue"], r["reason"]) for r in rows] == [("GET -", "/ibmmq/rest/v2/admin/qmgr", "200")]


def test_batched_access_lines_keep_each_request_s_time_in_text_and_json() -> None:
    first, second = 1_764_000_000.25, 1_764_000_001.5
    lines = AccessLines([(first, "127.0.0.1:1", "POST", "/q", "put", 201, 7), (second, "127.0.0.1:2", "GET", "/ibmmq/console/", "", 200, 9)])
    record = logging.LogRecord(LOGGER_NAME, logging.INFO, __file__, 0, lines, None, None)
    assert TextFormatter().format(record).splitlines() == [
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(first)) + ".250Z INFO 127.0.0.1:1 POST /q put 201 7us",
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)) + ".500Z INFO 127.0.0.1:2 GET /ibmmq/console/ - 200 9us",
    ]
    rows = [json.loads(line) for line in JsonFormatter().format(record).splitlines()]
    assert [r["time"][-5:] for r in rows] == [".250Z", ".500Z"]
    assert rows[1] == {
        "time": rows[1]["time"], "level": "info", "msg": "127.0.0.1:2 GET /ibmmq/console/ - 200 9us", "event": "http",
        "peer": "127.0.0.1:2", "command": "GET -", "queue": "/ibmmq/console/", "reason": "200", "us": 9,
    }


# -- refusals --------------------------------------------------------------------------------


async def test_csrf_header_is_required_for_put_and_get(running: Running) -> None:
    put = await running.http.post(running.url("APP.Q"), content=b"x", headers={"Content-Type": "text/plain"})
    assert put.status_code == 403 and error_item(put)["msgId"] == "MQWB0100E"
    await running.put("APP.Q", "kept")
    get = await running.http.delete(running.url("APP.Q"))
    assert get.status_code == 403 and "ibm-mq-rest-csrf-token" in error_item(get)["message"]
    assert (await queue_status(running, "APP.Q"))[mq.MQIA_CURRENT_Q_DEPTH] == 1
    blank = await running.http.delete(running.url("APP.Q"), headers={"ibm-mq-rest-csrf-token": ""})
    assert blank.text == "kept"  # any value, even blank


@pytest.mark.parametrize(
    ("queue", "qmgr", "status", "msg_id", "reason"),
    [("NOPE.Q", "QM1", 404, "MQWB0300E", mq.MQRC_UNKNOWN_OBJECT_NAME), ("APP.Q", "QM2", 404, "MQWB0009E", None), ("APP.Q", "qm1", 404, "MQWB0009E", None)],
)
async def test_unknown_queue_and_queue_manager(running: Running, queue: str, qmgr: str, status: int, msg_id: str, reason: int | None) -> None:
    for response in (
        await running.http.post(running.url(queue, qmgr=qmgr), content=b"x", headers=TEXT),
        await running.http.delete(running.url(queue, qmgr=qmgr), headers=CSRF),
        await running.http.get(running.url(queue, qmgr=qmgr)),
        await running.http.get(running.url(queue, 3, "messagelist", qmgr=qmgr)),
    ):
        item = error_item(response)
        assert (response.status_code, item["msgId"], item.get("reasonCode")) == (status, msg_id, reason)


async def test_mq_failures_carry_completion_and_reason_codes(running: Running) -> None:
    await running.pcf_command(create("FULL.Q", Integer(mq.MQIA_MAX_Q_DEPTH, 1)))
    assert (await running.put("FULL.Q", "one")).status_code == 201
    full = await running.put("FULL.Q", "two")
    item = error_item(full)
    assert (full.status_code, item["completionCode"], item["reasonCode"]) == (500, mq.MQCC_FAILED, mq.MQRC_Q_FULL)
    await running.pcf_command(change("FULL.Q", Integer(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_INHIBITED)))
    assert error_item(await running.put("FULL.Q", "three"))["reasonCode"] == mq.MQRC_PUT_INHIBITED


@pytest.mark.parametrize(
    ("headers", "version", "status", "msg_id"),
    [
        ({"ibm-mq-md-persistence": "sometimes"}, 2, 400, "MQWB0302E"),
        ({"ibm-mq-md-expiry": "-5"}, 2, 400, "MQWB0302E"),
        ({"ibm-mq-md-correlationId": "not-hex"}, 2, 400, "MQWB0302E"),
        ({"ibm-mq-md-correlationId": "x" * 25}, 3, 400, "MQWB0302E"),
        ({"ibm-mq-md-priority": "10"}, 3, 400, "MQWB0302E"),
        ({"Content-Type": "application/octet-stream"}, 2, 415, "MQWB0306E"),
        ({"Content-Type": "text/plain;charset=iso-8859-1"}, 2, 400, "MQWB0305E"),
    ],
)
async def test_bad_put_headers_are_refused_and_put_nothing(running: Running, headers: dict[str, str], version: int, status: int, msg_id: str) -> None:
    response = await running.http.post(running.url("APP.Q", version), content=b"x", headers={**TEXT, **headers})
    assert (response.status_code, error_item(response)["msgId"]) == (status, msg_id)
    assert (await queue_status(running, "APP.Q"))[mq.MQIA_CURRENT_Q_DEPTH] == 0


async def test_priority_is_ignored_before_v3(running: Running) -> None:
    assert (await running.put("APP.Q", "p", 2, **{"ibm-mq-md-priority": "10"})).status_code == 201


@pytest.mark.parametrize("query", ["wiat=5", "wait=-1", "wait=soon", "messageId=zz", "wait=1&wait=2", "messageId=ID:" + "00" * 24])
async def test_bad_query_parameters(running: Running, query: str) -> None:
    response = await running.get("APP.Q", 2, query)
    assert (response.status_code, error_item(response)["msgId"]) == (400, "PCFS0001E")


async def test_unknown_paths_and_methods(running: Running) -> None:
    missing = await running.http.get("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/messages")
    assert missing.status_code == 404 and error_item(missing)["msgId"] == "PCFS0002E"
    assert (await running.http.get("/")).status_code == 404
    assert (await running.http.get("/ibmmq/rest/v4/messaging/qmgr/QM1/queue/APP.Q/message")).status_code == 404
    wrong = await running.http.put(running.url("APP.Q"), content=b"x", headers=TEXT)
    assert (wrong.status_code, wrong.headers["allow"]) == (405, "DELETE, GET, POST")
    assert (await running.http.delete(running.url("APP.Q", 2, "messagelist"), headers=CSRF)).headers["allow"] == "GET"


async def test_a_message_that_is_not_text_is_left_on_the_queue(running: Running) -> None:
    layer = running.engine.messaging
    running.engine.execute_operation(lambda: layer.put(None, "APP.Q", b"\x00\x01binary", format="MQADMIN "))
    for attempt in (await running.get("APP.Q"), await running.http.get(running.url("APP.Q"))):
        item = error_item(attempt)
        assert (attempt.status_code, item["reasonCode"]) == (500, mq.MQRC_FORMAT_ERROR)
    assert (await queue_status(running, "APP.Q"))[mq.MQIA_CURRENT_Q_DEPTH] == 1


async def test_text_in_another_character_set_comes_back_as_utf8(running: Running) -> None:
    layer = running.engine.messaging
    running.engine.execute_operation(lambda: layer.put(None, "APP.Q", "café".encode("latin-1"), coded_char_set_id=819))
    got = await running.get("APP.Q")
    assert got.content == "café".encode()


async def test_names_with_slashes_and_percent_signs_are_url_encoded(running: Running) -> None:
    await running.pcf_command(create("A/B%C"))
    assert (await running.put("A%2FB%25C", "odd name")).status_code == 201
    assert (await queue_status(running, "A/B%C"))[mq.MQIA_CURRENT_Q_DEPTH] == 1


# -- one engine, one committer ---------------------------------------------------------------


async def test_changes_over_pcf_and_rest_are_seen_by_each_other(running: Running) -> None:
    assert (await running.put("NEW.Q", "too early")).status_code == 404
    assert (await running.pcf_command(create("NEW.Q")))[0].reason == mq.MQRC_NONE
    assert (await running.put("NEW.Q", "over REST", **{"ibm-mq-md-persistence": "persistent"})).status_code == 201
    assert (await queue_status(running, "NEW.Q"))[mq.MQIA_CURRENT_Q_DEPTH] == 1
    clear = Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, "NEW.Q"),))
    assert (await running.pcf_command(clear))[0].reason == mq.MQRC_NONE
    assert (await running.get("NEW.Q")).status_code == 204
    groups = running.service.committer.groups
    await running.put("NEW.Q", "x")
    await running.pcf_command(create("NEW2.Q"))
    assert running.service.committer.groups > groups  # both went through the one committer


async def test_acknowledged_persistent_puts_survive_a_restart(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        service, engine, _, port = await start_service(nursery, tmp_path)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}") as client:
            url = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
            headers = {**TEXT, "ibm-mq-md-persistence": "persistent"}
            puts = [await client.post(url, content=f"durable {i}".encode(), headers=headers) for i in range(5)]
            assert all(p.status_code == 201 for p in puts)
            assert (await client.delete(url, headers=CSRF)).text == "durable 0"
        service.shutdown()
    engine.close()
    async with trio.open_nursery() as nursery:
        service, engine, _, port = await start_service(nursery, tmp_path)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}") as client:
            listed = (await client.get(url.replace("/message", "/messagelist"))).json()["messages"]
            assert [m["messageId"] for m in listed] == [p.headers["ibm-mq-md-messageId"] for p in puts[1:]]
        service.shutdown()
    engine.close()


# -- hostile HTTP and limits -----------------------------------------------------------------


async def raw_exchange(port: int, data: bytes, *, read: bool = True) -> bytes:
    stream = await trio.open_tcp_stream(HOST, port)
    async with stream:
        await stream.send_all(data)
        if not read:
            return b""
        out = b""
        with trio.move_on_after(10):
            while chunk := await stream.receive_some(65536):
                out += chunk
        return out


async def test_garbage_gets_400_and_the_server_goes_on(running: Running) -> None:
    answer = await raw_exchange(running.port, b"\x16\x03\x01 this is not HTTP\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400")
    assert (await running.put("APP.Q", "still serving")).status_code == 201


async def test_bodies_over_the_limit_are_refused(nursery: trio.Nursery) -> None:
    service, _, _, port = await start_service(nursery, max_message_bytes=1000)
    url = f"http://{HOST}:{port}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
    async with httpx.AsyncClient() as client:
        declared = await client.post(url, content=b"x" * 5000, headers=TEXT)
        assert (declared.status_code, error_item(declared)["msgId"]) == (413, "PCFS0004E")

        async def endless() -> AsyncIterator[bytes]:
            for _ in range(100):
                yield b"y" * 100

        chunked = await client.post(url, content=endless(), headers=TEXT)
        assert chunked.status_code == 413
        assert (await client.post(url, content=b"z" * 1000, headers=TEXT)).status_code == 201
    service.shutdown()


async def test_too_many_headers_and_huge_heads(nursery: trio.Nursery) -> None:
    service, _, _, port = await start_service(nursery, max_headers=20)
    url = f"http://{HOST}:{port}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
    async with httpx.AsyncClient() as client:
        many = await client.get(url, headers={f"x-h{i}": "v" for i in range(30)})
        assert (many.status_code, error_item(many)["msgId"]) == (431, "PCFS0005E")
        head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
        answer = await raw_exchange(port, head)
        assert not answer.startswith(b"HTTP/1.1 2")
        assert (await client.get(url)).status_code == 204
    service.shutdown()


async def test_slow_and_idle_clients_never_stop_service(nursery: trio.Nursery) -> None:
    service, _, _, port = await start_service(nursery, idle_timeout=1.0, read_timeout=1.0)
    url = f"http://{HOST}:{port}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
    streams = [await trio.open_tcp_stream(HOST, port) for _ in range(100)]  # idle connections
    slow = await trio.open_tcp_stream(HOST, port)
    await slow.send_all(b"POST /ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message HTTP/1.1\r\nHost: x\r\n")
    body_stall = await trio.open_tcp_stream(HOST, port)
    await body_stall.send_all(
        b"POST /ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: text/plain\r\nibm-mq-rest-csrf-token: x\r\nContent-Length: 100\r\n\r\npartial"
    )
    async with httpx.AsyncClient() as client:
        for i in range(5):
            assert (await client.post(url, content=f"served {i}".encode(), headers=TEXT)).status_code == 201
    # The slow head and the idle connections are closed after the idle timeout; the stalled body gets 408.
    with trio.fail_after(10):
        head_answer = b""
        while chunk := await slow.receive_some(65536):
            head_answer += chunk
        assert not head_answer.startswith(b"HTTP/1.1 2")  # closed, never served
        answer = b""
        while chunk := await body_stall.receive_some(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408")
        for stream in streams:
            assert await stream.receive_some(10) == b""
    for stream in [*streams, slow, body_stall]:
        await stream.aclose()
    with trio.fail_after(10):
        while service.http is not None and service.http.connection_count:
            await trio.sleep(0.05)
    service.shutdown()


async def test_connections_beyond_the_cap_are_closed(nursery: trio.Nursery) -> None:
    service, _, _, port = await start_service(nursery, max_connections=5)
    held = [await trio.open_tcp_stream(HOST, port) for _ in range(5)]
    with trio.fail_after(5):
        while service.http is not None and service.http.connection_count < 5:
            await trio.sleep(0.01)
    refused = await trio.open_tcp_stream(HOST, port)
    with trio.fail_after(5):
        try:
            assert await refused.receive_some(10) == b""
        except trio.BrokenResourceError:
            pass  # reset: closed all the same
    for stream in held:
        await stream.aclose()
    with trio.fail_after(5):
        while service.http is not None and service.http.connection_count:
            await trio.sleep(0.01)
    async with httpx.AsyncClient() as client:
        response = await client.get(f"http://{HOST}:{port}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message")
        assert response.status_code == 204
    service.shutdown()


# -- shutdown --------------------------------------------------------------------------------


async def test_shutdown_answers_requests_in_flight_and_keeps_every_acknowledged_put(tmp_path: Path) -> None:
    url = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
    acknowledged: list[str] = []
    waited: list[int] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            service, engine, _, port = await start_service(nursery, tmp_path)
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as client:

                async def putter(k: int) -> None:
                    for i in range(20):
                        try:
                            response = await client.post(url, content=f"{k}-{i}".encode(), headers={**TEXT, "ibm-mq-md-persistence": "persistent"})
                        except httpx.TransportError:
                            return  # refused once the server stopped accepting
                        if response.status_code != 201:
                            return
                        acknowledged.append(response.headers["ibm-mq-md-messageId"])

                async def waiter() -> None:
                    # Waits for a message that never comes (no put carries this CorrelId).
                    response = await client.delete(url + "?wait=60000&correlationId=" + "ff" * 24, headers=CSRF)
                    waited.append(response.status_code)

                async with trio.open_nursery() as clients:
                    clients.start_soon(waiter)
                    for k in range(8):
                        clients.start_soon(putter, k)
                    while len(acknowledged) < 20:
                        await trio.sleep(0.005)
                    service.shutdown()
    engine.close()
    assert waited == [204]  # the waiting get ended at shutdown instead of holding it for a minute
    reopened = open_engine(tmp_path)
    try:
        on_disk = {m.md.msg_id.hex() for m in reopened.messaging.take_all("SYSTEM.DEFAULT.LOCAL.QUEUE")}
    finally:
        reopened.close()
    assert set(acknowledged) <= on_disk and len(acknowledged) >= 20


def test_rest_errors_table_rows_are_complete() -> None:
    from pcfserver.rest.http import error_table

    table = error_table()
    assert {"csrf_missing", "unknown_qmgr", "unknown_queue", "mq_failed", "not_text"} <= set(table)
    for key, row in table.items():
        assert 400 <= row.status < 600, key
        assert row.msg_id[:4] in ("MQWB", "PCFS") and row.msg_id.endswith("E"), key
        json.dumps(row.message)
