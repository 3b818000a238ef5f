"""Requests published REST clients send, replayed against a real server (minimal reproductions, not their code):
IBM's Node-RED nodes and an MCP server ask for .../admin/qmgr/ and .../installation/ with a trailing slash and build
.../qmgr/{qmgr}/queue/ with an empty name; IBM's Ansible collection writes MQSC keywords that take no value as
"notrigger": "yes"; kafka-connect-mq-source counts connections with DISPLAY CONN(*) WHERE(...) over runCommand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.dialects import mqsc
from pcfserver.engine import open_engine
from tests import test_rest_admin
from tests.test_rest_admin import CSRF, Server, run_json, run_text

server = test_rest_admin.open_server  # the admin tests' server (no users), under the name these tests use


async def test_a_trailing_slash_is_the_resource_without_it(server: Server) -> None:
    async with server.client() as client:
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr/")).json() == {"qmgr": [{"name": "QM1", "state": "running"}]}
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr/QM1/")).json()["qmgr"][0]["name"] == "QM1"
        assert (await client.get("/ibmmq/rest/v2/admin/installation/")).json()["installation"][0]["name"] == "Installation1"
        made = await client.post("/ibmmq/rest/v1/admin/qmgr/QM1/queue/", json={"name": "SLASHED.Q"}, headers=CSRF)
        assert made.status_code == 201
        listed = (await client.get("/ibmmq/rest/v1/admin/qmgr/QM1/queue/", params={"name": "SLASHED.*"})).json()
        assert listed == {"queue": [{"name": "SLASHED.Q", "type": "local"}]}
        missing = await client.get("/ibmmq/rest/v2/admin/nothing/")
        assert missing.status_code == 404 and "administrative REST API" in missing.json()["error"][0]["explanation"]


async def test_keywords_without_a_value_are_yes_no_or_the_word_a_display_answers(server: Server) -> None:
    async with server.client() as client:
        made = await run_json(client, command="define", qualifier="qlocal", name="ANSIBLE.Q",
                              parameters={"descr": "from a playbook", "replace": "yes", "maxdepth": 500000, "put": "disabled",
                                          "notrigger": "yes", "noshare": "yes", "hardenbo": "yes"})
        assert made.json()["overallCompletionCode"] == 0, made.text
        shown = (await run_json(client, command="display", qualifier="qlocal", name="ANSIBLE.Q",
                                responseParameters=["share", "trigger", "hardenbo"])).json()["commandResponse"][0]["parameters"]
        assert (shown["share"], shown["trigger"], shown["hardenbo"]) == ("NOSHARE", "NOTRIGGER", "HARDENBO")
        # the display's own words go back in, and "no" is the opposite word
        back = await run_json(client, command="alter", qualifier="qlocal", name="ANSIBLE.Q", parameters={"share": "SHARE", "notrigger": "no"})
        assert back.json()["overallCompletionCode"] == 0, back.text
        shown = (await run_json(client, command="display", qualifier="qlocal", name="ANSIBLE.Q",
                                responseParameters=["share", "trigger"])).json()["commandResponse"][0]["parameters"]
        assert (shown["share"], shown["trigger"]) == ("SHARE", "TRIGGER")
        refused = await run_json(client, command="alter", qualifier="qlocal", name="ANSIBLE.Q", parameters={"trigger": "maybe"})
        assert refused.status_code == 400


async def test_counting_a_channels_connections_reads_none_as_a_failed_display(server: Server) -> None:
    async with server.client() as client:
        put = await client.post("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message", content=b"x",
                                headers={**CSRF, "Content-Type": "text/plain"})
        assert put.status_code == 201  # the messaging API's session is a connection: one exists, on no channel
        assert "CONN(" in " ".join((await run_text(client, "display conn(*)")).json()["commandResponse"][0]["text"])
        counted = (await run_text(client, "display conn(*) where (channel EQ 'DEV.APP.SVRCONN')")).json()
        assert (counted["overallCompletionCode"], counted["overallReasonCode"]) == (mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED)
        assert counted["commandResponse"][0]["reasonCode"] == mq.MQRCCF_NONE_FOUND


async def test_the_installation_answers_as_ibm_documents_it(server: Server) -> None:
    """An MCP server and IBM's Node-RED node read GET /admin/installation: name, version and platform, the installation
    path only inside the extended object asked for; the version is the queue manager's VERSION; another name is 404."""
    async with server.client() as client:
        plain = (await client.get("/ibmmq/rest/v2/admin/installation")).json()["installation"][0]
        assert set(plain) == {"name", "version", "platform"}
        vrmf = (await run_json(client, command="display", qualifier="qmgr", responseParameters=["version"])).json()
        digits = vrmf["commandResponse"][0]["parameters"]["version"]
        assert plain["version"] == ".".join(str(int(digits[i : i + 2])) for i in range(0, 8, 2))
        every = (await client.get("/ibmmq/rest/v1/admin/installation/Installation1", params={"attributes": "*"})).json()
        assert set(every["installation"][0]["extended"]) == {"level", "operatingSystem", "description", "installationPath", "dataPath"}
        some = (await client.get("/ibmmq/rest/v3/admin/installation", params={"attributes": "extended.installationPath"})).json()
        assert some["installation"][0]["extended"] == {"installationPath": "/opt/mqm"}
        other = await client.get("/ibmmq/rest/v2/admin/installation/Installation2")
        assert (other.status_code, other.json()["error"][0]["msgId"]) == (404, "PCFS0025E")
        assert (await client.get("/ibmmq/rest/v2/admin/installation", params={"attributes": "extended.nope"})).status_code == 400


async def test_ibms_set_policy_example_answers_as_documented_and_one_id_has_one_text(server: Server) -> None:
    """IBM's runCommandJSON page shows SET POLICY with list-valued SIGNER and RECIP: it sets the policy (completion code
    0), and a display answers the lists as JSON arrays.  MQWB0009E reads the same from the messaging and the
    administrative API."""
    async with server.client() as client:
        policy = await run_json(client, command="set", qualifier="policy", name="POL.Q1",
                                parameters={"signer": ["CN=Alice", "CN=Bob"], "recip": ["CN=User1"], "encalg": "RC2", "signalg": "SHA256"})
        assert policy.status_code == 200
        assert policy.json() == {"commandResponse": [{"completionCode": 0, "reasonCode": 0}], "overallCompletionCode": 0, "overallReasonCode": 0}
        shown = (await run_json(client, command="display", qualifier="policy", name="POL.Q1", responseParameters=["all"])).json()
        parameters = shown["commandResponse"][0]["parameters"]
        assert (parameters["policy"], parameters["signer"], parameters["recip"], parameters["encalg"]) == ("POL.Q1", ["CN=Alice", "CN=Bob"], ["CN=User1"], "RC2")
        messaging = await client.post("/ibmmq/rest/v2/messaging/qmgr/QMX/queue/Q1/message", content=b"x",
                                      headers={**CSRF, "Content-Type": "text/plain"})
        admin = await client.get("/ibmmq/rest/v2/admin/qmgr/QMX")
        texts = [(r.status_code, r.json()["error"][0]["msgId"], r.json()["error"][0]["message"]) for r in (messaging, admin)]
        assert texts == [(404, "MQWB0009E", "MQWB0009E: Could not query the queue manager 'QMX'.")] * 2


async def test_run_command_answers_a_display_as_one_string_per_object(server: Server) -> None:
    """Clients written against IBM MQ (an MCP server's runmqsc tool prints text[0] of each item; an adapter parses
    'AMQ8409I: Display Queue details.   QUEUE(DEV.QUEUE.1)   TYPE(QLOCAL)...' as one line) read a display's item as one
    string, its lines run together, as mqweb answers; other answers keep their lines."""
    async with server.client() as client:
        assert (await run_text(client, "DEFINE QLOCAL(ONE.STRING) MAXDEPTH(7) DESCR('read as one')")).json()["overallCompletionCode"] == 0
        shown = (await run_text(client, "DISPLAY QLOCAL(ONE.STRING) MAXDEPTH DESCR")).json()["commandResponse"]
        [text] = shown[0]["text"]
        assert text.startswith("AMQ8409I: Display Queue details.   QUEUE(ONE.STRING)") and "MAXDEPTH(7)" in text
        assert "DESCR(read as one)" in text and "\n" not in text
        failed = (await run_text(client, "DISPLAY QLOCAL(ONE.STRING) BADWORD")).json()["commandResponse"][0]["text"]
        assert failed[0].startswith("AMQ8405I") and len(failed) == 2  # the message and the command segment


def test_console_over_rest_lays_a_joined_display_out_again() -> None:
    """pcfserver console --rest prints runmqsc's lines: a display's one string is laid out again in the same columns
    (lists one name a line included, and the entries runmqsc gives a line of their own: DISPLAY CONN's CONN, EXTCONN
    and TYPE, a subscription's SUBID); CHLAUTH's lines, laid out by rules of their own, are the known exception."""
    engine = open_engine(None)
    for text in ("DEFINE NAMELIST(NL) NAMES(A,B,C)", "DEFINE QLOCAL(Q.ODD) DESCR('a (b) c   D(x)')"):
        mqsc.run(text, engine.execute)
    engine.messaging.open_session("an application", "alice")  # DISPLAY CONN: CONN, EXTCONN and TYPE each on a line
    for text in ("DEFINE QLOCAL(SUB.DEST)", "DEFINE SUB(SUB.ONE) TOPICSTR('a/b') DEST(SUB.DEST)"):  # SUBID on a line of its own
        mqsc.run(text, engine.execute)
    checked = 0
    for text in ("DISPLAY QLOCAL(*) ALL", "DISPLAY CHANNEL(*) ALL", "DISPLAY QMGR", "DISPLAY NAMELIST(*) ALL", "DISPLAY TOPIC(*) ALL",
                 "DISPLAY QSTATUS(*) ALL", "DISPLAY LISTENER(*) ALL", "DISPLAY COMMINFO(*) ALL", "DISPLAY CONN(*) ALL",
                 "DISPLAY SUB(SUB.ONE) ALL", "DISPLAY SBSTATUS(SUB.ONE) ALL", "DISPLAY QLOCAL(NOPE)", "NOT A COMMAND"):
        for block in mqsc.run(text, engine.execute).blocks:
            joined = mqsc.command_text(block.lines)
            assert [line for t in joined for line in mqsc.display_lines(t)] == list(block.lines), text
            checked += 1
    assert checked > 100


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"AMQ8409I: Display.() ,'QUEUE", "   ", "   QUEUE(", "NAMES(A", "        ,B)"]), max_size=40).map("".join))
def test_any_text_is_shown_never_raises(text: str) -> None:
    lines = mqsc.display_lines(text)
    assert lines and all(isinstance(line, str) for line in lines)


async def test_stop_conn_over_run_command_json_and_the_messaging_api_goes_on(server: Server) -> None:
    """pymqrest's stop_conn sends runCommandJSON STOP CONN with the CONN a display showed: the REST messaging API's
    connection is broken, and its next request gets a connection of its own."""
    async with server.client() as client:
        url = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
        assert (await client.post(url, content=b"before", headers={**CSRF, "Content-Type": "text/plain"})).status_code == 201
        shown = (await run_json(client, command="display", qualifier="conn", name="*", parameters={"where": "appltag eq 'pcfserver REST'"})).json()
        [conn] = [item["parameters"]["conn"] for item in shown["commandResponse"]]
        stopped = (await run_json(client, command="stop", qualifier="conn", name=conn)).json()
        assert stopped["overallCompletionCode"] == 0, stopped
        again = (await run_json(client, command="stop", qualifier="conn", name=conn)).json()
        assert again["commandResponse"][0]["reasonCode"] == mq.MQRCCF_CONNECTION_ID_ERROR
        assert (await client.post(url, content=b"after", headers={**CSRF, "Content-Type": "text/plain"})).status_code == 201
        assert [(await client.delete(url, headers=CSRF)).text for _ in range(2)] == ["before", "after"]
        after = (await run_json(client, command="display", qualifier="conn", name="*", parameters={"where": "appltag eq 'pcfserver REST'"})).json()
        assert [item["parameters"]["conn"] for item in after["commandResponse"]] != [conn]


async def test_display_qmstatus_over_run_command_json_answers_the_attributes_asked_for(server: Server) -> None:
    """Health checks (kriersd/mq-health-check-python) ask runCommandJSON display qmstatus for CONNS, CHINIT ...: the
    queue manager's Inquire Queue Manager Status answers them, not a fixed QMNAME/STATUS/STARTDA/STARTTI."""
    async with server.client() as client:
        asked = (await run_json(client, command="display", qualifier="qmstatus", responseParameters=["conns", "chinit", "cmdserv"])).json()
        parameters = asked["commandResponse"][0]["parameters"]
        assert parameters["qmname"] == "QM1" and parameters["chinit"] == "RUNNING" and parameters["cmdserv"] == "RUNNING"
        assert isinstance(parameters["conns"], int)
        every = (await run_json(client, command="display", qualifier="qmstatus", responseParameters=["all"])).json()
        assert {"status", "startda", "startti", "ldapconn"} <= set(every["commandResponse"][0]["parameters"])


async def test_health_check_and_exporter_displays(server: Server) -> None:
    """kriersd/mq-health-check-python asks display channel(X) for CHLTYPE MAXINST MAXINSTC (CHLTYPE is a requested
    attribute in IBM's syntax); fitchos/mqa-prometheus asks display qstatus(*) for CURFSIZE and CURMAXFS (MQ 9.1.5)."""
    async with server.client() as client:
        channel = (await run_json(client, command="display", qualifier="channel", name="SYSTEM.DEF.SVRCONN",
                                  responseParameters=["chltype", "maxinst", "maxinstc"])).json()
        assert channel["overallCompletionCode"] == 0, channel
        assert channel["commandResponse"][0]["parameters"]["chltype"] == "SVRCONN"
        assert mqsc.parse("DISPLAY LISTENER(*) TRPTYPE").message is not None
        assert (await run_text(client, "DEFINE QLOCAL(FILE.SIZE.Q) MAXFSIZE(500) REPLACE")).json()["overallCompletionCode"] == 0
        status = (await run_json(client, command="display", qualifier="qstatus", name="FILE.SIZE.Q",
                                 responseParameters=["curdepth", "ipprocs", "opprocs", "curfsize", "curmaxfs", "qtime", "uncom"])).json()
        assert status["overallCompletionCode"] == 0, status
        parameters = status["commandResponse"][0]["parameters"]
        assert (parameters["curfsize"], parameters["curmaxfs"]) == (0, 500)
        # the exporter tests qtime == ' , ' (monitoring off) and splits "short,long" otherwise: one string, as runmqsc shows it
        assert (parameters["qtime"], parameters["uncom"]) == (" , ", "NO")
