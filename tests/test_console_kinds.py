"""The console's pages for every kind of object besides queues, over plain HTTP: lists paged and filtered by the
server, detail pages, the operational commands (start, stop, ping ...), create, alter and delete, each an MQSC
command shown with runmqsc's answer; roles hold on the server."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import pytest

from pcfserver import kinds
from pcfserver.console import forms
from tests.console_support import PREFIX, Console, console_server, csrf_of, free_port, mqsc

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"), ("app", ["MQWebUser"], "apppw"))
    with console_server(tmp_path_factory.mktemp("kinds"), users=users) as console:
        yield console


AUTH = ("admin", "adminpw")


def _post(client: httpx.Client, path: str, data: dict[str, str]) -> httpx.Response:
    page = client.get(PREFIX + "/objects/channel")
    return client.post(PREFIX + path, data={"csrf": csrf_of(page.text), **data})


@pytest.mark.parametrize("kind", kinds.keys())
def test_every_kind_has_a_list_in_the_menu(served: Console, kind: str) -> None:
    with served.client("admin", "adminpw") as client:
        answer = client.get(PREFIX + f"/objects/{kind}", params={"system": "1"})
        assert answer.status_code == 200, answer.text
        assert f'href="{PREFIX}/objects/{kind}"' in answer.text  # the menu entry
        assert 'id="kind-table"' in answer.text


def test_an_unknown_kind_is_not_found(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        assert client.get(PREFIX + "/objects/nothing").status_code == 404
        assert client.get(PREFIX + "/objects/channel/NO.SUCH.CHANNEL").status_code == 404


def test_channel_list_is_paged_and_filtered_by_name_and_type(served: Console) -> None:
    for i in range(30):
        mqsc(served, f"DEFINE CHANNEL(KIND.LIST.{i:02d}) CHLTYPE({'SDR' if i % 2 else 'RCVR'}) TRPTYPE(TCP)"
             + (f" CONNAME('host{i}(1414)') XMITQ(XQ{i})" if i % 2 else ""), AUTH)
    with served.client("admin", "adminpw") as client:
        first = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.*", "size": 25}).text
        assert "30 channels, page 1 of 2" in first
        assert "KIND.LIST.00" in first and "KIND.LIST.25" not in first
        assert "host1(1414)" in first and "XQ1" in first and "INACTIVE" in first
        second = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.*", "size": 25, "page": 2}).text
        assert "KIND.LIST.29" in second and "KIND.LIST.00" not in second
        past = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.*", "size": 25, "page": 99}).text
        assert "30 channels, page 2 of 2" in past and "KIND.LIST.29" in past  # a page past the end shows the last one
        senders = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.*", "type": "SDR"}).text
        assert "15 channels" in senders and "KIND.LIST.01" in senders and "KIND.LIST.02" not in senders
        backwards = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.*", "dir": "desc"}).text
        assert backwards.index("KIND.LIST.29") < backwards.index("KIND.LIST.28")
        assert "SYSTEM.DEF.SENDER" not in client.get(PREFIX + "/objects/channel").text
        assert "SYSTEM.DEF.SENDER" in client.get(PREFIX + "/objects/channel", params={"system": "1", "name": "SYSTEM.DEF.S*"}).text
        fragment = client.get(PREFIX + "/objects/channel", params={"name": "KIND.LIST.0*"}, headers={"hx-request": "true"}).text
        assert "<html" not in fragment and "10 channels" in fragment


def test_key_columns_of_topics_subscriptions_and_listeners(served: Console) -> None:
    mqsc(served, "DEFINE TOPIC(KIND.TOPIC) TOPICSTR('kind/prices')", AUTH)
    mqsc(served, "DEFINE QLOCAL(KIND.SUB.Q)", AUTH)
    mqsc(served, "DEFINE SUB(KIND.SUB) TOPICSTR('kind/prices') DEST(KIND.SUB.Q)", AUTH)
    mqsc(served, f"DEFINE LISTENER(KIND.LSTR) TRPTYPE(TCP) IPADDR('127.0.0.1') PORT({free_port()}) CONTROL(MANUAL)", AUTH)
    with served.client("admin", "adminpw") as client:
        topics = client.get(PREFIX + "/objects/topic", params={"name": "KIND.*"}).text
        assert "kind/prices" in topics
        subs = client.get(PREFIX + "/objects/sub", params={"name": "KIND.*"}).text
        assert "kind/prices" in subs and "KIND.SUB.Q" in subs
        # what DISPLAY derives or defaults is shown and filtered on too: a topic's TYPE, a subscription's SUBTYPE and DURABLE
        assert re.search(r"KIND\.TOPIC.*?<td[^>]*>LOCAL</td>", topics, re.S)
        assert "KIND.TOPIC" in client.get(PREFIX + "/objects/topic", params={"name": "KIND.*", "type": "LOCAL"}).text
        assert "KIND.SUB<" in client.get(PREFIX + "/objects/sub", params={"name": "KIND.*", "type": "ADMIN"}).text
        assert "KIND.SUB<" not in client.get(PREFIX + "/objects/sub", params={"name": "KIND.*", "type": "API"}).text
        assert re.search(r"<td[^>]*>ADMIN</td>\s*<td[^>]*>YES</td>", subs)
        # and by DURABLE, a second filter of the subscription list alone (an administrative subscription is durable)
        assert re.search(r'<select id="filter-flag" name="durable">\s*<option value="">All</option>\s*<option>YES</option><option>NO</option>', subs)
        assert "KIND.SUB<" in client.get(PREFIX + "/objects/sub", params={"name": "KIND.*", "durable": "yes"}).text
        non_durable = client.get(PREFIX + "/objects/sub", params={"name": "KIND.*", "durable": "NO", "type": "ADMIN"}).text
        assert "KIND.SUB<" not in non_durable and "<option selected>NO</option>" in non_durable
        assert 'id="filter-flag"' not in topics  # (topics have no such filter)
        detail = client.get(PREFIX + "/objects/topic/KIND.TOPIC").text
        assert re.search(r'>TYPE</th><td class="mono">LOCAL</td>', detail)
        listeners = client.get(PREFIX + "/objects/listener", params={"name": "KIND.*"}).text
        assert "MANUAL" in listeners and "STOPPED" in listeners


def test_a_detail_page_shows_attributes_and_the_commands_that_apply(served: Console) -> None:
    mqsc(served, "DEFINE CHANNEL(KIND.SVRCONN) CHLTYPE(SVRCONN) TRPTYPE(TCP) DESCR('for <apps>')", AUTH)
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/objects/channel/KIND.SVRCONN").text
        assert "for &lt;apps&gt;" in page and "<apps>" not in page
        assert re.search(r"<th scope=\"row\" class=\"mono\">MAXMSGL</th>", page)
        assert 'id="action-start"' in page and 'id="action-stop"' in page
        assert 'id="action-ping"' not in page and 'id="action-reset"' not in page  # a SVRCONN is not pinged or reset
        assert "Delete channel KIND.SVRCONN?" in page


def test_start_and_stop_a_listener_show_runmqscs_answer(served: Console) -> None:
    mqsc(served, f"DEFINE LISTENER(KIND.RUN) TRPTYPE(TCP) IPADDR('127.0.0.1') PORT({free_port()}) CONTROL(MANUAL)", AUTH)
    with served.client("admin", "adminpw") as client:
        started = _post(client, "/objects/listener/KIND.RUN", {"action": "START"})
        assert started.status_code == 200, started.text
        assert "START LISTENER(KIND.RUN)" in started.text and "AMQ8021I" in started.text
        assert 'id="object-status" class="status status-running">RUNNING' in started.text
        assert "RUNNING" in client.get(PREFIX + "/objects/listener", params={"name": "KIND.RUN"}).text
        again = _post(client, "/objects/listener/KIND.RUN", {"action": "START"})
        assert again.status_code == 422 and "The command failed" in again.text
        stopped = _post(client, "/objects/listener/KIND.RUN", {"action": "STOP"})
        assert stopped.status_code == 200 and "STOP LISTENER(KIND.RUN)" in stopped.text
        assert 'status-stopped">STOPPED' in stopped.text


def test_channel_start_stop_ping_reset_resolve(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(KIND.XQ) USAGE(XMITQ)", AUTH)
    mqsc(served, "DEFINE CHANNEL(KIND.SDR) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('127.0.0.1(1)') XMITQ(KIND.XQ)", AUTH)
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/objects/channel/KIND.SDR").text
        for verb in ("start", "stop", "ping", "reset", "resolve"):
            assert f'id="action-{verb}"' in page
        started = _post(client, "/objects/channel/KIND.SDR", {"action": "START"})
        assert started.status_code == 200 and "START CHANNEL(KIND.SDR)" in started.text
        assert 'id="object-status"' in started.text and "INACTIVE" not in started.text.split('id="object-status"')[1][:80]
        stopped = _post(client, "/objects/channel/KIND.SDR", {"action": "STOP"})
        assert "STOP CHANNEL(KIND.SDR)" in stopped.text and "STOPPED" in stopped.text
        pinged = _post(client, "/objects/channel/KIND.SDR", {"action": "PING"})
        assert "PING CHANNEL(KIND.SDR)" in pinged.text and pinged.status_code == 422  # nobody listens on port 1
        reset = _post(client, "/objects/channel/KIND.SDR", {"action": "RESET"})
        assert "RESET CHANNEL(KIND.SDR)" in reset.text
        resolved = _post(client, "/objects/channel/KIND.SDR", {"action": "RESOLVE", "resolve": "BACKOUT"})
        assert "RESOLVE CHANNEL(KIND.SDR) ACTION(BACKOUT)" in resolved.text
        bogus = _post(client, "/objects/channel/KIND.SDR", {"action": "SHUTDOWN"})
        assert bogus.status_code == 400


def test_create_alter_and_delete_through_the_forms(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        form = client.get(PREFIX + "/objects/channel/+new", params={"type": "SVRCONN"}).text
        assert 'name="attr.MAXMSGL"' in form and 'name="attr.XMITQ"' not in form  # a SVRCONN has no XMITQ
        sdr = client.get(PREFIX + "/objects/channel/+new", params={"type": "SDR"}).text
        assert 'name="attr.XMITQ"' in sdr
        preview = _post(client, "/objects/channel/+new", {"type": "SVRCONN", "name": "KIND.MADE", "attr.DESCR": "made here", "step": "preview"})
        assert preview.status_code == 200 and "DEFINE CHANNEL(KIND.MADE) CHLTYPE(SVRCONN) DESCR(&#39;made here&#39;)" in preview.text
        assert client.get(PREFIX + "/objects/channel/KIND.MADE").status_code == 404  # a preview runs nothing
        made = _post(client, "/objects/channel/+new", {"type": "SVRCONN", "name": "KIND.MADE", "attr.DESCR": "made here", "step": "run"})
        assert made.status_code == 200 and "AMQ8014I" in made.text and 'id="object-name">KIND.MADE' in made.text
        bad = _post(client, "/objects/channel/+new", {"type": "SVRCONN", "name": "KIND.BAD", "attr.MAXMSGL": "lots", "step": "run"})
        assert bad.status_code == 422 and "MAXMSGL takes a number" in bad.text
        again = _post(client, "/objects/channel/+new", {"type": "SVRCONN", "name": "KIND.MADE", "step": "run"})
        assert again.status_code == 422 and "The command failed" in again.text
        # what formats/kind-rules.tsv requires is marked on the form and checked before anything runs
        topic_form = client.get(PREFIX + "/objects/topic/+new").text
        assert '<span class="kw">TOPICSTR</span> <span class="required">(required)</span>' in topic_form and topic_form.count("(required)") == 1
        assert "(required)" not in client.get(PREFIX + "/objects/listener/+new").text
        topic = _post(client, "/objects/topic/+new", {"name": "KIND.NO.STRING", "step": "preview"})
        assert topic.status_code == 422 and 'href="#f-topicstr">TOPICSTR</a>: TOPICSTR is required for a topic.' in topic.text
        assert "DEFINE TOPIC" not in topic.text
        sender = _post(client, "/objects/channel/+new", {"type": "SDR", "name": "KIND.SDR", "attr.CONNAME": "host(1414)", "step": "preview"})
        assert sender.status_code == 422 and "XMITQ is required for a channel of type SDR." in sender.text and "CONNAME is required" not in sender.text
        # a keyword the queue manager's refusal names is marked on its field (a second topic with the same string: 3300)
        assert _post(client, "/objects/topic/+new", {"name": "KIND.T1", "attr.TOPICSTR": "kind/a", "step": "run"}).status_code == 200
        topic = _post(client, "/objects/topic/+new", {"name": "KIND.T2", "attr.TOPICSTR": "kind/a", "step": "run"})
        assert topic.status_code == 422 and "MQRCCF_TOPICSTR_ALREADY_EXISTS" in topic.text
        assert 'href="#f-topicstr">TOPICSTR</a>: The queue manager refused it: MQRCCF_TOPICSTR_ALREADY_EXISTS (3300).' in topic.text
        # ... with what the field needs where formats/console-reasons.tsv says (a subscription with no DEST)
        no_dest = _post(client, "/objects/sub/+new", {"name": "KIND.NO.DEST", "attr.TOPICSTR": "kind/b", "step": "run"})
        assert no_dest.status_code == 422 and "MQRCCF_DEST_NAME_ERROR (3316). A subscription with DESTCLAS(PROVIDED) needs DEST" in no_dest.text
        # the error summary names the Name field first, linked, and uses "an" where it must (a helper's chromium pass)
        long_name = _post(client, "/objects/authinfo/+new", {"type": "CRLLDAP", "name": "A" * 49, "step": "preview"})
        summary = long_name.text[long_name.text.index('id="form-errors"'):]
        assert summary.index('href="#f-name">Name</a>: An authinfo name is at most 48 characters; this one has 49.') < summary.index("CONNAME is required for an authinfo of type CRLLDAP.")
        assert "Create an authentication information object" in client.get(PREFIX + "/objects/authinfo/+new").text
        edit = client.get(PREFIX + "/objects/channel/KIND.MADE", params={"edit": "1"}).text
        assert 'value="made here"' in edit
        altered = _post(client, "/objects/channel/KIND.MADE", {"action": "ALTER", "attr.DESCR": "changed", "attr.MAXMSGL": "1000", "step": "run"})
        assert altered.status_code == 200 and "ALTER CHANNEL(KIND.MADE) CHLTYPE(SVRCONN)" in altered.text and "MAXMSGL(1000)" in altered.text
        assert "changed" in client.get(PREFIX + "/objects/channel/KIND.MADE").text
        gone = _post(client, "/objects/channel/KIND.MADE", {"action": "DELETE"})
        assert gone.status_code == 200 and "DELETE CHANNEL(KIND.MADE)" in gone.text and "AMQ8015I" in gone.text
        assert client.get(PREFIX + "/objects/channel/KIND.MADE").status_code == 404


@pytest.mark.parametrize("kind", [k for k in kinds.keys() if k not in ("sub",)])
def test_every_kind_can_be_created_with_its_form(served: Console, kind: str) -> None:
    with served.client("admin", "adminpw") as client:
        form = client.get(PREFIX + f"/objects/{kind}/+new")
        assert form.status_code == 200 and 'id="object-form"' in form.text
        shown = html.unescape(form.text)
        for f in forms.kind_form(kind).fields:  # each help line starts with the table's description column
            assert f'<span class="what">{f.description}</span> MQSC {f.keyword};' in shown, f.keyword
        extra = {"attr.TOPICSTR": "kind/made"} if kind == "topic" else {}
        extra |= {"service": {"attr.STARTCMD": "/bin/true"}, "channel": {"type": "SVRCONN"}, "authinfo": {"type": "IDPWOS"}}.get(kind, {})
        made = _post(client, f"/objects/{kind}/+new", {"name": f"KIND.NEW.{kind.upper()}", "step": "run", **extra})
        assert made.status_code == 200, made.text
        assert client.get(PREFIX + f"/objects/{kind}/KIND.NEW.{kind.upper()}").status_code == 200


def test_a_read_only_user_sees_no_command_and_cannot_post_one(served: Console) -> None:
    mqsc(served, "DEFINE LISTENER(KIND.RO) TRPTYPE(TCP) CONTROL(MANUAL)", AUTH)
    with served.client("reader", "readerpw") as client:
        page = client.get(PREFIX + "/objects/listener/KIND.RO").text
        assert 'id="action-start"' not in page and 'id="action-delete"' not in page
        assert "Create a listener" not in client.get(PREFIX + "/objects/listener").text
        assert client.get(PREFIX + "/objects/listener/+new").status_code == 403
        assert client.get(PREFIX + "/objects/listener/KIND.RO", params={"edit": "1"}).status_code == 403
        refused = client.post(PREFIX + "/objects/listener/KIND.RO", data={"csrf": csrf_of(page), "action": "DELETE"})
        assert refused.status_code == 403
    assert any("KIND.RO" in line for line in mqsc(served, "DISPLAY LISTENER(KIND.RO)", AUTH))


def test_passwords_are_never_shown_and_an_alter_that_leaves_them_keeps_them(served: Console) -> None:
    secret = "S3cretPw"
    mqsc(served, "DEFINE AUTHINFO(KIND.LDAP) AUTHTYPE(IDPWLDAP) CONNAME('ldap(389)') SHORTUSR('uid') "
                 f"LDAPUSER('cn=mq') LDAPPWD('{secret}')", AUTH)
    mqsc(served, "DEFINE CHANNEL(KIND.PW) CHLTYPE(SDR) CONNAME('h(1)') XMITQ('XQ') PASSWORD('chanpw')", AUTH)
    with served.client("reader", "readerpw") as reader:
        for path in ("/objects/authinfo/KIND.LDAP", "/objects/channel/KIND.PW", "/history"):
            page = reader.get(PREFIX + path).text
            assert secret not in page and "chanpw" not in page, path
        assert re.search(r'>LDAPPWD</th><td class="mono">\*{8}</td>', reader.get(PREFIX + "/objects/authinfo/KIND.LDAP").text)
        history = html.unescape(reader.get(PREFIX + "/history").text)
        assert "LDAPPWD(********)" in history and "PASSWORD(********)" in history
    with served.client("admin", "adminpw") as admin:
        form = admin.get(PREFIX + "/objects/authinfo/KIND.LDAP", params={"edit": "1"}).text
        assert secret not in form and re.search(r'name="attr.LDAPPWD" type="password" autocomplete="new-password" value=""', form)
        altered = _post(admin, "/objects/authinfo/KIND.LDAP", {"action": "ALTER", "attr.DESCR": "kept", "attr.LDAPPWD": "", "step": "run"})
        assert altered.status_code == 200 and "LDAPPWD" not in _pre_command(altered.text)
        shown = _post(admin, "/mqsc", {"command": "DISPLAY AUTHINFO(KIND.LDAP) LDAPPWD"}).text
        assert secret not in shown and "LDAPPWD(********)" in html.unescape(shown)
        preview = _post(admin, "/objects/authinfo/+new", {"type": "IDPWLDAP", "name": "KIND.LDAP2", "attr.CONNAME": "l(1)", "attr.SHORTUSR": "u",
                                                           "attr.LDAPPWD": "typed", "step": "preview"}).text
        assert "LDAPPWD(********)" in html.unescape(preview) and 'value="typed"' in preview  # kept for the run, shown masked
        # a refused command's password is not shown on the overview, to anyone
        refused = _post(admin, "/mqsc", {"command": "ALTER AUTHINFO(KIND.NO.SUCH) AUTHTYPE(IDPWLDAP) LDAPPWD('refusedPw77')"})
        assert "refusedPw77" not in refused.text.split("</textarea>", 1)[1]  # (the box keeps what its user typed)
        assert "refusedPw77" not in admin.get(PREFIX + "/overview").text
        # the recent commands (links) hold the mask, and a script that still has it runs nothing
        box = admin.get(PREFIX + "/mqsc").text
        assert "refusedPw77" not in box and "LDAPPWD%28%2A%2A%2A%2A%2A%2A%2A%2A%29" in box
        placeholder = _post(admin, "/mqsc", {"command": "ALTER AUTHINFO(KIND.LDAP) AUTHTYPE(IDPWLDAP) LDAPPWD('********')"})
        assert placeholder.status_code == 422 and "is the console&#39;s mask of a password" in placeholder.text
    with served.client("reader", "readerpw") as reader:
        assert "refusedPw77" not in reader.get(PREFIX + "/overview").text
    # the queue manager still has it: the alter changed DESCR only, and the masked script did not run
    assert any(f"LDAPPWD({secret})" in line for line in mqsc(served, "DISPLAY AUTHINFO(KIND.LDAP) LDAPPWD DESCR", AUTH))


def _pre_command(page: str) -> str:
    found = re.search(r'id="mqsc-command">(.*?)</pre>', page, re.S)
    return html.unescape(found[1]) if found else ""


def test_alter_forms_show_what_alter_cannot_change_without_sending_it(served: Console) -> None:
    mqsc(served, "DEFINE TOPIC(KIND.FIXED) TOPICSTR('kind/fixed')", AUTH)
    mqsc(served, "DEFINE QLOCAL(KIND.FIXED.Q)", AUTH)
    mqsc(served, "DEFINE SUB(KIND.FIXED.SUB) TOPICSTR('kind/fixed') DEST(KIND.FIXED.Q) SELECTOR('size > 2')", AUTH)
    with served.client("admin", "adminpw") as client:
        topic = client.get(PREFIX + "/objects/topic/KIND.FIXED", params={"edit": "1"}).text
        assert re.search(r'<input id="f-topicstr" value="kind/fixed" readonly', topic) and 'name="attr.TOPICSTR"' not in topic
        sub = client.get(PREFIX + "/objects/sub/KIND.FIXED.SUB", params={"edit": "1"}).text
        assert re.search(r'<input id="f-selector" value="size &gt; 2" readonly', sub) and 'name="attr.SELECTOR"' not in sub
        assert 'name="attr.DEST"' in sub  # what ALTER SUB takes stays editable
        forged = _post(client, "/objects/topic/KIND.FIXED", {"action": "ALTER", "attr.TOPICSTR": "kind/other", "attr.DESCR": "d", "step": "run"})
        assert forged.status_code == 200 and "TOPICSTR" not in _pre_command(forged.text)  # a fixed field is never sent
    assert any("TOPICSTR(kind/fixed)" in line for line in mqsc(served, "DISPLAY TOPIC(KIND.FIXED) TOPICSTR", AUTH))


def test_a_form_sent_after_the_session_ended_runs_nothing_and_comes_back_filled(served: Console) -> None:
    from urllib.parse import parse_qs, urlsplit

    sent = httpx.post(served.http + PREFIX + "/objects/topic/+new", data={
        "csrf": "stale", "name": "KIND.LATE", "attr.TOPICSTR": "kind/late", "attr.DESCR": "typed before expiry", "step": "run"})
    assert sent.status_code == 303
    login = urlsplit(sent.headers["location"])
    query = parse_qs(login.query)
    assert login.path == PREFIX + "/login" and query["expired"] == ["1"]
    with served.client("admin", "adminpw") as client:
        assert "what you sent was not run" in client.get(sent.headers["location"]).text
        again = client.get(served.http + query["next"][0]).text
        assert 'value="typed before expiry"' in again and 'value="kind/late"' in again and 'value="KIND.LATE"' in again
        assert client.get(PREFIX + "/objects/topic/KIND.LATE").status_code == 404  # nothing ran
    secret = httpx.post(served.http + PREFIX + "/objects/authinfo/+new", data={"type": "IDPWLDAP", "attr.LDAPPWD": "hunter2", "step": "run"})
    assert "hunter2" not in secret.headers["location"]  # a password is never carried in a URL


def test_topic_and_subscription_pages_show_their_status_and_a_topic_takes_a_test_publication(served: Console) -> None:
    mqsc(served, "DEFINE TOPIC(KIND.NEWS) TOPICSTR('kind/news')", AUTH)
    mqsc(served, "DEFINE QLOCAL(KIND.NEWS.Q)", AUTH)
    mqsc(served, "DEFINE SUB(KIND.NEWS.SUB) TOPICSTR('kind/news') DEST(KIND.NEWS.Q)", AUTH)
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/objects/topic/KIND.NEWS").text
        assert re.search(r"<dt>SUBCOUNT</dt><dd class=\"mono\">1</dd>", page) and 'id="publish"' in page
        page_csrf = csrf_of(page)
        done = client.post(PREFIX + "/objects/topic/KIND.NEWS/publish", data={"csrf": page_csrf, "body": "extra! extra!", "persistence": ""})
        assert done.status_code == 200 and 'id="published"' in done.text
        assert re.search(r"<dt>PUBCOUNT</dt><dd class=\"mono\">0</dd>", done.text)  # a one-shot publication leaves no publisher
        sub = client.get(PREFIX + "/objects/sub/KIND.NEWS.SUB").text
        assert re.search(r"<dt>NUMMSGS</dt><dd class=\"mono\">1</dd>", sub)
        assert 'href="/ibmmq/console/queues/KIND.NEWS.Q"' in sub
        browsed = client.get(PREFIX + "/queues/KIND.NEWS.Q/messages").text
        assert "extra! extra!" in browsed
        assert 'id="sub-destination-missing"' not in sub
        mqsc(served, "ALTER SUB(KIND.NEWS.SUB) DEST(KIND.NO.SUCH.Q)", AUTH)  # accepted: DEST is resolved at publish time
        assert 'id="sub-destination-missing"' in client.get(PREFIX + "/objects/sub/KIND.NEWS.SUB").text
        # an alias of the topic: its page offers a put that publishes, and no messages to browse or get
        mqsc(served, "ALTER SUB(KIND.NEWS.SUB) DEST(KIND.NEWS.Q)", AUTH)
        mqsc(served, "DEFINE QALIAS(KIND.NEWS.PUB) TARGET(KIND.NEWS) TARGTYPE(TOPIC)", AUTH)
        alias = client.get(PREFIX + "/queues/KIND.NEWS.PUB/put").text
        assert 'id="put-topic"' in alias and "<code>kind/news</code>" in alias and 'id="tab-messages"' not in alias and 'id="tab-get"' not in alias
        published = client.post(PREFIX + "/queues/KIND.NEWS.PUB/put", data={"csrf": csrf_of(alias), "body": "via the alias"})
        assert published.status_code == 200 and "Published a message" in published.text
        assert "via the alias" in client.get(PREFIX + "/queues/KIND.NEWS.Q/messages").text
    with served.client("reader", "readerpw") as reader:
        page = reader.get(PREFIX + "/objects/topic/KIND.NEWS").text
        assert 'id="publish"' not in page and "<dt>SUBCOUNT</dt>" in page
        refused = reader.post(PREFIX + "/objects/topic/KIND.NEWS/publish", data={"csrf": csrf_of(page), "body": "x"})
        assert refused.status_code == 403


def test_pages_say_when_start_cannot_make_a_status(served: Console) -> None:
    mqsc(served, "DEFINE SERVICE(KIND.SVC) SERVTYPE(SERVER) STARTCMD('/bin/sleep') STARTARG('5')", AUTH)
    mqsc(served, "DEFINE CHANNEL(KIND.ENABLED) CHLTYPE(SVRCONN)", AUTH)
    with served.client("admin", "adminpw") as client:
        started = _post(client, "/objects/service/KIND.SVC", {"action": "START"})
        assert "AMQ8733I" in started.text and 'id="status-note"' in started.text and "--run-services" in started.text
        channel = client.get(PREFIX + "/objects/channel/KIND.ENABLED").text
        assert "Start only enables a channel of this type" in channel
        sender = client.get(PREFIX + "/objects/channel/SYSTEM.DEF.SENDER").text
        assert 'id="status-note"' not in sender


def test_a_post_without_the_csrf_token_changes_nothing(served: Console) -> None:
    mqsc(served, "DEFINE PROCESS(KIND.KEEP)", AUTH)
    with served.client("admin", "adminpw") as client:
        assert client.post(PREFIX + "/objects/process/KIND.KEEP", data={"action": "DELETE"}).status_code == 403
        assert client.get(PREFIX + "/objects/process/KIND.KEEP").status_code == 200


def test_an_mqwebuser_sees_only_what_it_may_display(served: Console) -> None:
    mqsc(served, "DEFINE PROCESS(KIND.MINE)", AUTH)
    mqsc(served, "DEFINE PROCESS(KIND.THEIRS)", AUTH)
    mqsc(served, "SET AUTHREC PROFILE('KIND.MINE') OBJTYPE(PROCESS) PRINCIPAL('app') AUTHADD(DSP)", AUTH)
    with served.client("app", "apppw") as client:
        listed = client.get(PREFIX + "/objects/process", params={"name": "KIND.*"}).text
        assert "KIND.MINE" in listed and "KIND.THEIRS" not in listed
        assert client.get(PREFIX + "/objects/process/KIND.THEIRS").status_code == 404
        page = client.get(PREFIX + "/objects/process/KIND.MINE")
        assert page.status_code == 200
        refused = client.post(PREFIX + "/objects/process/KIND.MINE", data={"csrf": csrf_of(page.text), "action": "DELETE"})
        assert refused.status_code == 422 and "AMQ8135E: Not authorized." in refused.text
    assert any("KIND.MINE" in line for line in mqsc(served, "DISPLAY PROCESS(KIND.MINE)", AUTH))


def test_every_key_column_names_an_attribute_of_its_kind() -> None:
    from pcfserver.console.pages.kinds import COLUMNS, views

    assert set(views()) == set(kinds.keys())
    for key, keywords in COLUMNS.items():
        assert tuple(c.keyword for c in views()[key].columns) == keywords, key
    assert views()["channel"].type_filter is not None and "SDR" in views()["channel"].types and "ALL" not in views()["channel"].types
    assert views()["sub"].type_filter is not None and views()["sub"].type_filter.keyword == "SUBTYPE"
