"""The console's Security page over plain HTTP: authority records filtered and paged by the server, CHLAUTH rules
as Allow / Block / Warn, "why was this refused?" agreeing with what the server really does, REFRESH SECURITY."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.console_support import PREFIX, Console, add_user, console_server, csrf_of, mqsc

pytestmark = pytest.mark.timeout(180)
AUTH = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"))
    with console_server(tmp_path_factory.mktemp("security"), users=users) as console:
        add_user(console.data, "alice", ["MQWebUser"], "alicepw", ["apps"])
        yield console


def _why(client: httpx.Client, **question: str) -> str:
    answer = client.get(PREFIX + "/security", params={f"why_{k}": v for k, v in question.items()})
    assert answer.status_code == 200, answer.text
    return answer.text


def test_authority_records_are_filtered_and_paged(served: Console) -> None:
    for i in range(60):
        mqsc(served, f"SET AUTHREC PROFILE('SEC.REC.{i:02d}') OBJTYPE(QUEUE) PRINCIPAL('user{i % 3}') AUTHADD(PUT, GET)", AUTH)
    mqsc(served, "SET AUTHREC PROFILE('SEC.TOPIC') OBJTYPE(TOPIC) GROUP('pubs') AUTHADD(PUB)", AUTH)
    with served.client("admin", "adminpw") as client:
        first = client.get(PREFIX + "/security", params={"profile": "SEC.REC.*"}).text
        assert "60 records, page 1 of 2" in first and "SEC.REC.00" in first and "SEC.REC.55" not in first
        assert "GET PUT" in first  # in MQAUTH_* order, as DISPLAY AUTHREC shows them
        second = client.get(PREFIX + "/security", params={"profile": "SEC.REC.*", "page": 2}).text
        assert "SEC.REC.55" in second
        one_user = client.get(PREFIX + "/security", params={"profile": "SEC.REC.*", "entity": "user1"}).text
        assert "20 records" in one_user and "user2" not in one_user.split('id="authrec-table"')[1]
        topics = client.get(PREFIX + "/security", params={"objtype": "TOPIC", "profile": "SEC.*"}).text
        assert "1 record" in topics and "SEC.TOPIC" in topics and "pubs" in topics and "PUB" in topics


def test_chlauth_rules_show_as_allow_block_and_warn(served: Console) -> None:
    mqsc(served, "SET CHLAUTH('SEC.APP') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(CHANNEL)", AUTH)
    mqsc(served, "SET CHLAUTH('SEC.APP') TYPE(BLOCKUSER) USERLIST('nobody')", AUTH)
    mqsc(served, "SET CHLAUTH('SEC.WARN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) WARN(YES)", AUTH)
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/security").text
        table = page.split('id="chlauth-table"')[1].split("</table>")[0]
        rows = {row.split("</td>")[0].split(">")[-1] + "/" + row.split("<td>")[1].split("</td>")[0]: row for row in table.split("<tr>")[2:]}
        assert ">Allow<" in rows["SEC.APP/ADDRESSMAP"] and "ADDRESS(10.0.0.*)" in rows["SEC.APP/ADDRESSMAP"]
        assert ">Block<" in rows["SEC.APP/BLOCKUSER"] and "nobody" in rows["SEC.APP/BLOCKUSER"]
        assert ">Warn<" in rows["SEC.WARN/ADDRESSMAP"]


def _chosen(page: str, select_id: str) -> str:
    found = re.search(rf'<select id="{select_id}".*?</select>', page, re.S)
    assert found, select_id
    chosen = re.findall(r"<option[^>]* selected[^>]*>([^<]+)</option>", found[0])
    assert len(chosen) == 1, chosen
    return chosen[0]


def test_why_refused_starts_from_the_usual_operation_of_the_object_type(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/security").text
        assert _chosen(page, "why-objtype") == "QUEUE" and _chosen(page, "why-op") == "PUT"  # not ALTUSR, the first word
        assert _chosen(_why(client, objtype="QMGR"), "why-op") == "CONNECT"
        assert _chosen(_why(client, objtype="TOPIC"), "why-op") == "PUB"
        assert _chosen(_why(client, objtype="TOPIC", op="SUB"), "why-op") == "SUB"  # what was asked stays chosen
        assert 'data-sets="why-op"' in page and '<option selected data-usual="PUT">QUEUE</option>' in page  # console.js follows a new type


def test_why_refused_agrees_with_what_the_server_does(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(SEC.APP.Q)", AUTH)
    mqsc(served, "SET AUTHREC PROFILE('SEC.APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(DSP, BROWSE)", AUTH)
    mqsc(served, "SET AUTHREC PROFILE('SEC.APP.Q') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(INQ)", AUTH)
    with served.client("admin", "adminpw") as client:
        refused = _why(client, user="alice", objtype="QUEUE", name="SEC.APP.Q", op="CHG")
        assert "Refused (MQRC_NOT_AUTHORIZED, 2035)" in refused
        assert "(from the users store)" in refused and "group apps" in refused
        entities = refused.split('id="why-entities"')[1].split("</table>")[0]
        assert "user alice" in entities and "SEC.APP.Q" in entities and "SEC.APP.**" in entities
        fix = "SET AUTHREC PROFILE(&#39;SEC.APP.Q&#39;) OBJTYPE(QUEUE) PRINCIPAL(&#39;alice&#39;) AUTHADD(CHG)"
        assert fix in refused
        allowed = _why(client, user="alice", objtype="QUEUE", name="SEC.APP.Q", op="DSP")
        assert "<strong>Allowed</strong>" in allowed
        other_groups = _why(client, user="alice", groups="others", objtype="QUEUE", name="SEC.APP.Q", op="DSP")
        assert "Refused" in other_groups  # the groups asked about, not alice's own
        wrong = _why(client, user="alice", objtype="QUEUE", name="SEC.APP.Q", op="PUB")
        assert "PUB is not an authority of OBJTYPE(QUEUE)" in wrong
    # what the explainer said is what the server does: alice (MQWebUser) may not alter, may display
    with served.client("alice", "alicepw") as client:
        page = client.get(PREFIX + "/objects/process")
        assert page.status_code == 200
    denied = httpx.post(served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", auth=("alice", "alicepw"),
                        json={"type": "runCommand", "parameters": {"command": "ALTER QLOCAL(SEC.APP.Q) DESCR('x')"}},
                        headers={"ibm-mq-rest-csrf-token": "x"}, timeout=30)
    assert denied.json()["overallCompletionCode"] != 0 and "AMQ8135E" in denied.text, denied.text
    mqsc(served, "SET AUTHREC PROFILE('SEC.APP.Q') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(CHG)", AUTH)
    with served.client("admin", "adminpw") as client:
        assert "<strong>Allowed</strong>" in _why(client, user="alice", objtype="QUEUE", name="SEC.APP.Q", op="CHG")
    done = httpx.post(served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", auth=("alice", "alicepw"),
                      json={"type": "runCommand", "parameters": {"command": "ALTER QLOCAL(SEC.APP.Q) DESCR('x')"}},
                      headers={"ibm-mq-rest-csrf-token": "x"}, timeout=30)
    assert done.json()["overallCompletionCode"] == 0, done.text


def test_the_queue_manager_needs_no_name(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        told = _why(client, user="nobody", objtype="QMGR", op="CONNECT")
        assert "Refused" in told and "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL(&#39;nobody&#39;) AUTHADD(CONNECT)" in told


def test_refresh_security_runs_the_command_and_read_only_users_may_not(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/security").text
        assert 'id="refresh-security"' in page
        done = client.post(PREFIX + "/security/refresh", data={"csrf": csrf_of(page)})
        assert done.status_code == 200 and "REFRESH SECURITY" in done.text and "AMQ8560I" in done.text
    with served.client("reader", "readerpw") as client:
        page = client.get(PREFIX + "/security").text
        assert 'id="refresh-security"' not in page and 'id="authrec-table"' in page  # a read-only user sees the records
        assert client.post(PREFIX + "/security/refresh", data={"csrf": csrf_of(page)}).status_code == 403


def test_an_mqwebuser_without_display_authority_sees_no_records(served: Console) -> None:
    with served.client("alice", "alicepw") as client:
        page = client.get(PREFIX + "/security").text
        assert "may not display the authority records" in page and 'id="authrec-table"' not in page


def test_security_policies_show_as_display_policy_does(served: Console) -> None:
    """The policies a SET POLICY made, a column per keyword of policy-attributes.tsv, values in MQSC's words; a user
    without display authority on the queue manager sees none."""
    mqsc(served, "SET POLICY(SEC.PAY) SIGNALG(SHA256) ENCALG(AES256) RECIP('CN=ledger,O=Bank') RECIP('CN=audit') TOLERATE KEYREUSE(50)", AUTH)
    with served.client("reader", "readerpw") as client:
        table = client.get(PREFIX + "/security").text.split('id="policy-table"')[1].split("</table>")[0]
        headers = re.findall(r'<th scope="col">([A-Z]+)</th>', table)
        assert headers == ["POLICY", "SIGNALG", "ENCALG", "SIGNER", "RECIP", "KEYREUSE", "TOLERATE"]
        [row] = [r for r in table.split("<tr>") if "SEC.PAY" in r]
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
        assert cells == ["SEC.PAY", "SHA256", "AES256", "", "CN=ledger,O=Bank, CN=audit", "50", "TOLERATE"]
    with served.client("alice", "alicepw") as client:
        page = client.get(PREFIX + "/security").text
        assert "may not display the security policies" in page and 'id="policy-table"' not in page


def test_connections_page_lists_display_conn_and_stop_breaks_one(served: Console) -> None:
    """The Connections page: DISPLAY CONN's columns with CONN as runmqsc shows it and the messages a connection's unit
    of work holds; Stop runs STOP CONN, after which the REST messaging API's next request has a connection of its own.
    A read-only administrator sees the list without the button and cannot post a stop."""
    url = served.http + "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message"
    headers = {"ibm-mq-rest-csrf-token": "x", "Content-Type": "text/plain"}
    mqsc(served, "SET AUTHREC PROFILE('SYSTEM.DEFAULT.LOCAL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT, GET, BROWSE, INQ)", AUTH)
    mqsc(served, "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT, INQ)", AUTH)
    alice = ("alice", "alicepw")
    assert httpx.post(url, content=b"hello", headers=headers, auth=alice, timeout=30).status_code == 201
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/connections").text
        table = page.split('id="conn-table"')[1].split("</table>")[0]
        assert re.findall(r'<th scope="col">([A-Z]+)</th>', table)[:2] == ["CONN", "TYPE"]
        assert 'EXTCONN(<span class="mono" id="extconn">414D5143514D31202020202020202020</span>)' in page
        conns = re.findall(r'name="conn" value="([0-9A-F]{16})"', table)
        assert conns and all(f"<td class=\"mono\">{conn}</td>" in table for conn in conns)
        [alice_row] = [row for row in table.split("<tr>") if ">alice<" in row]
        conn = re.findall(r'name="conn" value="([0-9A-F]{16})"', alice_row)[0]
        stopped = client.post(PREFIX + "/connections/stop", data={"csrf": csrf_of(page), "conn": conn})
        assert stopped.status_code == 200 and f"STOP CONN({conn})" in stopped.text
        assert conn not in stopped.text.split('id="conn-table"')[1]
        again = client.post(PREFIX + "/connections/stop", data={"csrf": csrf_of(page), "conn": conn})
        assert again.status_code == 422 and "MQRCCF_CONNECTION_ID_ERROR" in again.text
        assert client.post(PREFIX + "/connections/stop", data={"csrf": csrf_of(page), "conn": "nope"}).status_code == 422
    assert httpx.delete(url, headers=headers, auth=alice, timeout=30).text == "hello"
    with served.client("reader", "readerpw") as client:
        page = client.get(PREFIX + "/connections").text
        assert 'id="conn-table"' in page and 'action="/ibmmq/console/connections/stop"' not in page
        assert client.post(PREFIX + "/connections/stop", data={"csrf": csrf_of(page), "conn": "0000000000000001"}).status_code == 403


def test_why_refused_says_when_the_users_role_and_not_the_records_decides(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        admin = _why(client, user="admin", objtype="QUEUE", name="SEC.ANY.Q", op="PUT")
        assert 'id="why-role"' in admin and "MQWebAdmin role" in admin and "server&#39;s own authority" in admin
        reader = _why(client, user="reader", objtype="QUEUE", name="SEC.ANY.Q", op="PUT")
        assert "MQWebAdminRO role" in reader and "change nothing" in reader
        ghost = _why(client, user="ghost", objtype="QUEUE", name="SEC.ANY.Q", op="PUT")
        assert "No user ghost is known" in ghost
