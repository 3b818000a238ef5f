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
