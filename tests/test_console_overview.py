"""The overview (status, counts, charts' series, fullest queues, refused commands) over HTTP, and its sampler."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from pcfserver import mq
from pcfserver.engine import open_engine
from pcfserver.engine.monitor import Sampler
from tests.console_support import PREFIX, Console, console_server, mqsc

pytestmark = pytest.mark.timeout(120)
MESSAGES = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"
ADMIN = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("app", ["MQWebUser"], "apppw"), ("putter", ["MQWebUser"], "putterpw"))
    with console_server(tmp_path_factory.mktemp("overview"), users=users) as console:
        mqsc(console, "DEFINE QLOCAL(OV.FULL) MAXDEPTH(4)", ADMIN)
        mqsc(console, "DEFINE QLOCAL(OV.SOME) MAXDEPTH(100)", ADMIN)
        mqsc(console, "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('putter') AUTHADD(CONNECT)", ADMIN)
        mqsc(console, "SET AUTHREC PROFILE('OV.*') OBJTYPE(QUEUE) PRINCIPAL('putter') AUTHADD(PUT)", ADMIN)
        for queue, count in (("OV.FULL", 3), ("OV.SOME", 2)):
            for i in range(count):
                answer = httpx.post(console.http + MESSAGES.format(queue), content=f"m{i}", auth=("putter", "putterpw"),
                                    headers={"ibm-mq-rest-csrf-token": "x", "Content-Type": "text/plain"})
                assert answer.status_code == 201, answer.text
        yield console


def test_the_overview_shows_the_queue_manager_counts_and_fullest_queues(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/overview")
    assert page.status_code == 200
    text = page.text
    assert "QM1" in text and "Dead-letter queue (DEADQ)" in text and "Command level" in text
    assert "<dt>CCSID</dt><dd>819</dd>" in text
    assert "Local queues" in text and "Channels" in text and "Authority records" in text
    fullest = text[text.index('id="deepest"'):]
    assert fullest.index("OV.FULL") < fullest.index("OV.SOME")  # 3 of 4 before 2 of 100
    assert 'id="rate-chart"' in text and 'id="activity-latest"' in text  # the charts and their text alternative
    assert "style=" not in text and "<script>" not in text


def test_the_series_endpoint_answers_json_with_the_counters(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        answer = client.get(PREFIX + "/overview/series")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    data = answer.json()
    assert set(data) >= {"time", "put_rate", "get_rate", "depth", "puts", "gets", "interval", "depth_now"}
    assert data["puts"] >= 5 and data["depth_now"] >= 5
    assert len(data["time"]) == len(data["put_rate"]) == len(data["depth"])


def test_the_series_needs_a_sign_in(served: Console) -> None:
    answer = httpx.get(served.url("/overview/series"), follow_redirects=False)
    assert answer.status_code in (302, 303, 401)


def test_refused_commands_from_rest_and_messaging_are_listed(served: Console) -> None:
    answer = httpx.post(served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", auth=("app", "apppw"),
                        json={"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(OV.NOT.ALLOWED)"}},
                        headers={"ibm-mq-rest-csrf-token": "x"})
    assert answer.status_code in (200, 403)
    # a display that finds nothing is no refusal (it would crowd the real ones out of the list)
    for command in ("DISPLAY QLOCAL(OV.NOTHING.*)", "DISPLAY CHSTATUS(*)"):
        shown = httpx.post(served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", auth=("admin", "adminpw"),
                           json={"type": "runCommand", "parameters": {"command": command}}, headers={"ibm-mq-rest-csrf-token": "x"})
        assert shown.json()["overallReasonCode"] == mq.MQRCCF_COMMAND_FAILED, shown.text
    put = httpx.post(served.http + MESSAGES.format("OV.SOME"), content="x", auth=("app", "apppw"),
                     headers={"ibm-mq-rest-csrf-token": "x", "Content-Type": "text/plain"})
    assert put.json()["error"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED, put.text
    with served.client("admin", "adminpw") as client:
        text = client.get(PREFIX + "/overview").text
    refused = text[text.index('id="refused"'):]
    assert "OV.NOT.ALLOWED" in refused and "2035" in refused and "REST" in refused and "app" in refused
    assert "MQPUT OV.SOME" in refused
    assert "OV.NOTHING" not in refused and "CHSTATUS" not in refused


def test_the_sampler_turns_counters_into_rates() -> None:
    engine = open_engine(None)
    try:
        layer = engine.messaging
        engine.execute_operation(lambda: engine.queues)  # nothing to do: the engine is open
        sampler = Sampler(layer, 10, 3)
        assert sampler.sample(100.0) is None  # the first sample only sets the base
        session = layer.open_session()
        for _ in range(20):
            engine.execute_operation(lambda: layer.put(session, "SYSTEM.DEFAULT.LOCAL.QUEUE", b"x"))
        engine.execute_operation(lambda: layer.get(session, "SYSTEM.DEFAULT.LOCAL.QUEUE"))
        taken = sampler.sample(110.0)
        assert taken is not None and taken.put_rate == 2.0 and taken.get_rate == 0.1 and taken.depth == 19
        for t in (120.0, 130.0, 140.0):
            sampler.sample(t)
        series = sampler.series()
        assert series["time"] == [120.0, 130.0, 140.0] and series["put_rate"] == [0.0, 0.0, 0.0]  # 360 kept in production, 3 here
        assert series["puts"] == 20 and series["gets"] == 1
    finally:
        engine.close()


def test_every_failed_command_is_a_refusal_with_its_origin() -> None:
    from pcfserver.dialects import mqsc as dialect

    engine = open_engine(None)
    try:
        dialect.run("DELETE QLOCAL(NO.SUCH.QUEUE)", lambda command: engine.execute(command, None, ("MQSC", "tester")))
        [refusal] = list(engine.audit.refused)
        assert (refusal.user, refusal.via, refusal.reason) == ("tester", "MQSC", mq.MQRC_UNKNOWN_OBJECT_NAME)
        for i in range(60):
            dialect.run(f"DELETE QLOCAL(NO.Q{i})", engine.execute)
        assert len(engine.audit.refused) == 50  # formats/console.tsv refused_entries
    finally:
        engine.close()
