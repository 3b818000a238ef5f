"""The console's queue pages over plain HTTP: create (preview, run), alter, delete, browse, message detail, put, get,
clear, move, live tail, authority records, and what a read-only user may do."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import pytest

from pcfserver.console import forms
from tests.console_support import PREFIX, Console, console_server, csrf_of, mqsc

pytestmark = pytest.mark.timeout(180)
REST = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"
REST_HEADERS = {"ibm-mq-rest-csrf-token": "x"}
ADMIN = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    # admin also has MQWebUser, so that the tests put and get over the REST API's messaging (under admin's own authority)
    users = (("admin", ["MQWebAdmin", "MQWebUser"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"),
             ("app", ["MQWebUser"], "apppw"))
    with console_server(tmp_path_factory.mktemp("queues"), users=users) as console:
        mqsc(console, "SET AUTHREC PROFILE('CONSOLE.**') OBJTYPE(QUEUE) PRINCIPAL('admin') AUTHADD(PUT,GET,BROWSE,INQ)", auth=("admin", "adminpw"))
        yield console


@pytest.fixture
def admin(served: Console) -> Iterator[httpx.Client]:
    with served.client("admin", "adminpw") as client:
        yield client


def _csrf(client: httpx.Client, path: str = "/queues") -> str:
    return csrf_of(client.get(PREFIX + path).text)


def _rest_put(served: Console, queue: str, body: bytes, content_type: str = "text/plain") -> None:
    answer = httpx.post(served.http + REST.format(queue), content=body, headers={**REST_HEADERS, "Content-Type": content_type},
                        auth=("admin", "adminpw"), timeout=30)
    assert answer.status_code == 201, answer.text


def _display(served: Console, queue: str) -> str:
    return "\n".join(mqsc(served, f"DISPLAY QUEUE({queue}) ALL", auth=("admin", "adminpw")))


def _exists(served: Console, queue: str) -> bool:
    answer = httpx.post(served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc",
                        json={"type": "runCommand", "parameters": {"command": f"DISPLAY QUEUE({queue})"}}, headers=REST_HEADERS,
                        auth=("admin", "adminpw"), timeout=30)
    return bool(answer.json()["overallCompletionCode"] == 0)


def _pre(page: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</pre>', page, re.S)
    assert found, element_id
    return html.unescape(found[1])


def test_create_previews_the_command_then_runs_it(served: Console, admin: httpx.Client) -> None:
    page = admin.get(PREFIX + "/queues/+new", params={"type": "QLOCAL"})
    assert page.status_code == 200 and 'name="attr.MAXDEPTH"' in page.text and 'name="attr.TARGET"' not in page.text
    form = {"csrf": csrf_of(page.text), "type": "QLOCAL", "name": "CONSOLE.NEW", "attr.MAXDEPTH": "1234", "attr.DESCR": "made in the console",
            "attr.PUT": "ENABLED", "action": "preview"}
    preview = admin.post(PREFIX + "/queues/+new", data=form)
    assert preview.status_code == 200
    assert _pre(preview.text, "mqsc-command") == "DEFINE QLOCAL(CONSOLE.NEW) DESCR('made in the console') MAXDEPTH(1234)"
    assert not _exists(served, "CONSOLE.NEW")  # a preview runs nothing
    done = admin.post(PREFIX + "/queues/+new", data={**form, "action": "run"})
    assert done.status_code == 303 and done.headers["location"] == PREFIX + "/queues/CONSOLE.NEW?created=1"
    shown = _display(served, "CONSOLE.NEW")
    assert "MAXDEPTH(1234)" in shown and "DESCR(made in the console)" in shown
    queue_page = admin.get(PREFIX + "/queues/CONSOLE.NEW?created=1").text
    assert "Queue CONSOLE.NEW created." in queue_page and 'value="1234"' in queue_page


def test_each_field_shows_what_the_attribute_does_then_its_keyword(admin: httpx.Client) -> None:
    page = admin.get(PREFIX + "/queues/+new", params={"type": "QLOCAL"}).text
    found = re.search(r'<small id="f-maxdepth-help" class="help">(.*?)</small>', page, re.S)
    assert found, "no help line for MAXDEPTH"
    help_text = html.unescape(re.sub(r"<[^>]+>", "", found[1]))
    described = forms.queue_form("QLOCAL").field("MAXDEPTH")
    assert described is not None and described.description  # formats/queue-attributes.tsv's description column
    assert help_text.startswith(described.description) and help_text.index("MQSC MAXDEPTH") > len(described.description)
    assert "Largest number of messages the queue may hold" in help_text


def test_a_failed_create_shows_runmqsc_lines(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.TWICE)", auth=("admin", "adminpw"))
    page = admin.post(PREFIX + "/queues/+new", data={"csrf": _csrf(admin), "type": "QLOCAL", "name": "CONSOLE.TWICE", "action": "run"})
    assert page.status_code == 422 and "AMQ8150E" in _pre(page.text, "mqsc-answer")


def test_a_bad_value_is_refused_before_anything_runs(admin: httpx.Client) -> None:
    page = admin.post(PREFIX + "/queues/+new", data={"csrf": _csrf(admin), "type": "QLOCAL", "name": "CONSOLE.BAD",
                                                    "attr.MAXDEPTH": "5) PUT(DISABLED", "action": "run"})
    assert page.status_code == 422 and "MAXDEPTH takes a number" in page.text and 'id="mqsc-command"' not in page.text


def test_create_an_alias_and_a_remote_queue(served: Console, admin: httpx.Client) -> None:
    csrf = _csrf(admin)
    assert 'name="attr.TARGET"' in admin.get(PREFIX + "/queues/+new?type=QALIAS").text
    done = admin.post(PREFIX + "/queues/+new", data={"csrf": csrf, "type": "QALIAS", "name": "CONSOLE.ALIAS", "attr.TARGET": "CONSOLE.NEW",
                                                    "action": "run"})
    assert done.status_code == 303, done.text
    assert "TARGET(CONSOLE.NEW)" in _display(served, "CONSOLE.ALIAS")
    done = admin.post(PREFIX + "/queues/+new", data={"csrf": csrf, "type": "QREMOTE", "name": "CONSOLE.REMOTE", "attr.RNAME": "THERE",
                                                    "attr.RQMNAME": "QM2", "action": "run"})
    assert done.status_code == 303, done.text
    assert "RQMNAME(QM2)" in _display(served, "CONSOLE.REMOTE")


def test_alter_runs_only_the_changed_attributes(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.ALTER) MAXDEPTH(100)", auth=("admin", "adminpw"))
    page = admin.get(PREFIX + "/queues/CONSOLE.ALTER").text
    fields = dict(re.findall(r'name="(attr\.[A-Z0-9]+)" value="([^"]*)"', page))
    assert fields["attr.MAXDEPTH"] == "100"
    form = {"csrf": csrf_of(page), **fields, "attr.MAXDEPTH": "200", "attr.PUT": "DISABLED", "action": "preview"}
    preview = admin.post(PREFIX + "/queues/CONSOLE.ALTER", data=form)
    assert _pre(preview.text, "mqsc-command") == "ALTER QLOCAL(CONSOLE.ALTER) PUT(DISABLED) MAXDEPTH(200)"
    assert "MAXDEPTH(100)" in _display(served, "CONSOLE.ALTER")
    ran = admin.post(PREFIX + "/queues/CONSOLE.ALTER", data={**form, "action": "run"})
    assert ran.status_code == 200 and "AMQ8008I" in _pre(ran.text, "mqsc-answer")
    shown = _display(served, "CONSOLE.ALTER")
    assert "MAXDEPTH(200)" in shown and "PUT(DISABLED)" in shown
    nothing = admin.post(PREFIX + "/queues/CONSOLE.ALTER", data={"csrf": csrf_of(page), "attr.MAXDEPTH": "200", "action": "preview"})
    assert nothing.status_code == 422 and "Nothing was changed." in nothing.text


def test_delete_names_the_queue_and_runs_delete(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.GONE)", auth=("admin", "adminpw"))
    _rest_put(served, "CONSOLE.GONE", b"x")
    page = admin.get(PREFIX + "/queues/CONSOLE.GONE").text
    assert 'data-confirm="Delete queue CONSOLE.GONE? This runs DELETE QLOCAL(CONSOLE.GONE)."' in page
    refused = admin.post(PREFIX + "/queues/CONSOLE.GONE/delete", data={"csrf": csrf_of(page)})
    assert refused.status_code == 422 and "AMQ8143E" in _pre(refused.text, "mqsc-answer")  # not empty
    done = admin.post(PREFIX + "/queues/CONSOLE.GONE/delete", data={"csrf": csrf_of(page), "purge": "1"})
    assert done.status_code == 200 and "DELETE QLOCAL(CONSOLE.GONE) PURGE" in done.text
    assert admin.get(PREFIX + "/queues/CONSOLE.GONE").status_code == 404


def test_browse_pages_and_filters_without_removing(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.BROWSE)", auth=("admin", "adminpw"))
    for i in range(12):
        _rest_put(served, "CONSOLE.BROWSE", f"message {i:02d}".encode())
    first = admin.get(PREFIX + "/queues/CONSOLE.BROWSE/messages", params={"size": 10}).text
    assert "12 messages, page 1 of 2" in first and "message 00" in first and "message 11" not in first
    second = admin.get(PREFIX + "/queues/CONSOLE.BROWSE/messages", params={"size": 10, "page": 2}).text
    assert "message 11" in second and "message 00" not in second
    ids = re.findall(r"/messages/([0-9a-f]{48})", first)
    assert len(ids) == 10
    one = admin.get(PREFIX + "/queues/CONSOLE.BROWSE/messages", params={"msgid": ids[3]}).text
    assert "1 message." in one and "message 03" in one
    assert admin.get(PREFIX + "/queues/CONSOLE.BROWSE/messages", params={"msgid": "xyz"}).status_code == 422
    detail = admin.get(PREFIX + f"/queues/CONSOLE.BROWSE/messages/{ids[0]}").text
    assert "MQSTR" in detail and ids[0] in detail and _pre(detail, "body-text") == "message 00"
    assert "Depth <span id=\"queue-depth\">12</span>" in admin.get(PREFIX + "/queues/CONSOLE.BROWSE").text


def test_json_is_pretty_binary_is_hex_and_markup_is_text(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.BODIES)", auth=("admin", "adminpw"))
    _rest_put(served, "CONSOLE.BODIES", b'{"a": [1, 2], "b": "<i>x</i>"}', "application/json")
    _rest_put(served, "CONSOLE.BODIES", b"<script>alert(1)</script>")
    csrf = _csrf(admin)
    answer = admin.post(PREFIX + "/queues/CONSOLE.BODIES/put", data={"csrf": csrf}, files={"file": ("b.bin", bytes(range(256)))})
    assert answer.status_code == 200 and 'id="put-done"' in answer.text
    listing = admin.get(PREFIX + "/queues/CONSOLE.BODIES/messages").text
    assert "<script>alert(1)</script>" not in listing and "&lt;script&gt;alert(1)&lt;/script&gt;" in listing
    ids = re.findall(r"/messages/([0-9a-f]{48})", listing)
    json_page, script_page, binary_page = (admin.get(PREFIX + f"/queues/CONSOLE.BODIES/messages/{i}").text for i in ids)
    assert _pre(json_page, "body-json") == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "<i>x</i>"\n}'
    assert "<i>x</i>" not in json_page
    assert "<script>alert(1)</script>" not in script_page and _pre(script_page, "body-text") == "<script>alert(1)</script>"
    dump = _pre(binary_page, "body-hex")
    assert dump.startswith("00000000  00 01 02 03") and "|................|" in dump and 'id="body-text"' not in binary_page


def test_put_through_the_page_and_read_it_over_rest(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.PUT) MAXMSGL(64)", auth=("admin", "adminpw"))
    summary = admin.get(PREFIX + "/queues/CONSOLE.PUT").text
    assert re.search(r'id="queue-stamps">Created \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2} · altered', summary)
    assert "open for input 0 (IPPROCS), output 0 (OPPROCS)" in summary
    csrf = _csrf(admin, "/queues/CONSOLE.PUT/put")
    done = admin.post(PREFIX + "/queues/CONSOLE.PUT/put", data={"csrf": csrf, "body": "hello from the console", "persistence": "persistent",
                                                                 "priority": "7", "properties": "color=blue\nsize = 3"})
    assert done.status_code == 200 and 'id="put-done"' in done.text
    got = httpx.delete(served.http + REST.format("CONSOLE.PUT").replace("/v2/", "/v3/"), headers=REST_HEADERS, auth=("admin", "adminpw"), timeout=30)
    assert got.status_code == 200 and got.text == "hello from the console"
    assert got.headers["ibm-mq-md-persistence"] == "persistent" and got.headers["ibm-mq-md-priority"] == "7"
    assert got.headers["ibm-mq-usr-color"] == "blue" and got.headers["ibm-mq-usr-size"] == "3"
    too_big = admin.post(PREFIX + "/queues/CONSOLE.PUT/put", data={"csrf": csrf}, files={"file": ("big.bin", b"x" * 65)})
    assert too_big.status_code == 422 and "takes at most 64 (MAXMSGL)" in too_big.text
    bad = admin.post(PREFIX + "/queues/CONSOLE.PUT/put", data={"csrf": csrf, "body": "x", "priority": "12", "properties": "nonsense"})
    assert bad.status_code == 422 and "A priority is 0 to 9." in bad.text and "Line 1 is not name=value." in bad.text
    # a name MQ refuses (2442) is caught on the form, naming its line, and the message is not put
    misnamed = admin.post(PREFIX + "/queues/CONSOLE.PUT/put", data={"csrf": csrf, "body": "x", "properties": "color=red\nmy-prop=1"})
    assert misnamed.status_code == 422 and "Line 2: &#39;my-prop&#39; is not a property name MQ accepts" in misnamed.text
    assert "my-prop=1" in misnamed.text  # what was typed stays
    assert httpx.delete(served.http + REST.format("CONSOLE.PUT"), headers=REST_HEADERS, auth=("admin", "adminpw"), timeout=30).status_code == 204


def test_get_one_removes_and_shows_it(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.GET)", auth=("admin", "adminpw"))
    _rest_put(served, "CONSOLE.GET", b"first")
    _rest_put(served, "CONSOLE.GET", b"second")
    csrf = _csrf(admin, "/queues/CONSOLE.GET/get")
    got = admin.post(PREFIX + "/queues/CONSOLE.GET/get", data={"csrf": csrf})
    assert got.status_code == 200 and _pre(got.text, "body-text") == "first" and 'id="got"' in got.text
    assert "1 message." in admin.get(PREFIX + "/queues/CONSOLE.GET/messages").text
    admin.post(PREFIX + "/queues/CONSOLE.GET/get", data={"csrf": csrf})
    empty = admin.post(PREFIX + "/queues/CONSOLE.GET/get", data={"csrf": csrf})
    assert "CONSOLE.GET has no message to get." in empty.text


def test_clear_and_move_run_their_mqsc(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.FROM)", auth=("admin", "adminpw"))
    mqsc(served, "DEFINE QLOCAL(CONSOLE.TO)", auth=("admin", "adminpw"))
    for i in range(3):
        _rest_put(served, "CONSOLE.FROM", f"m{i}".encode())
    page = admin.get(PREFIX + "/queues/CONSOLE.FROM/move").text
    preview = admin.post(PREFIX + "/queues/CONSOLE.FROM/move", data={"csrf": csrf_of(page), "target": "CONSOLE.TO", "type": "MOVE",
                                                                      "action": "preview"})
    assert _pre(preview.text, "mqsc-command") == "MOVE QLOCAL(CONSOLE.FROM) TOQLOCAL(CONSOLE.TO)"
    moved = admin.post(PREFIX + "/queues/CONSOLE.FROM/move", data={"csrf": csrf_of(page), "target": "CONSOLE.TO", "type": "MOVE", "action": "run"})
    assert moved.status_code == 200 and "3" in _pre(moved.text, "mqsc-answer")
    assert "3 messages" in admin.get(PREFIX + "/queues/CONSOLE.TO/messages").text
    clear_page = admin.get(PREFIX + "/queues/CONSOLE.TO/clear").text
    assert 'data-confirm="Clear every message of CONSOLE.TO? This runs CLEAR QLOCAL(CONSOLE.TO)."' in clear_page
    cleared = admin.post(PREFIX + "/queues/CONSOLE.TO/clear", data={"csrf": csrf_of(clear_page)})
    assert cleared.status_code == 200 and "AMQ8022I" in _pre(cleared.text, "mqsc-answer")
    assert "0 messages" in admin.get(PREFIX + "/queues/CONSOLE.TO/messages").text


def test_live_tail_shows_what_arrives_after_it_opened(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.TAIL)", auth=("admin", "adminpw"))
    _rest_put(served, "CONSOLE.TAIL", b"before")
    page = admin.get(PREFIX + "/queues/CONSOLE.TAIL/tail").text
    poll = re.search(r'hx-get="([^"]+)"', page)
    assert poll and 'hx-trigger="every 2s"' in page and 'data-pause="tail-poller"' in page
    url = html.unescape(poll[1])
    assert "before" not in admin.get(url, headers={"hx-request": "true"}).text
    _rest_put(served, "CONSOLE.TAIL", b"after")
    fragment = admin.get(url, headers={"hx-request": "true"}).text
    assert "after" in fragment and "before" not in fragment and "<html" not in fragment
    assert "2 messages" in admin.get(PREFIX + "/queues/CONSOLE.TAIL/messages").text  # browsing removed nothing


def test_security_tab_lists_the_authority_records(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.SEC)", auth=("admin", "adminpw"))
    mqsc(served, "SET AUTHREC PROFILE(CONSOLE.SEC) OBJTYPE(QUEUE) GROUP('apps') AUTHADD(BROWSE,GET)", auth=("admin", "adminpw"))
    page = admin.get(PREFIX + "/queues/CONSOLE.SEC/security").text
    assert "DISPLAY AUTHREC PROFILE(CONSOLE.SEC) OBJTYPE(QUEUE)" in page
    row = re.search(r'<td class="mono">CONSOLE.SEC</td><td>apps</td><td>GROUP</td><td>([^<]+)</td>', page)
    assert row and "BROWSE" in row[1] and "GET" in row[1]


def test_read_only_user_browses_but_sees_no_change_control_and_is_refused(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.RO)", auth=("admin", "adminpw"))
    _rest_put(served, "CONSOLE.RO", b"look but do not touch")
    with served.client("reader", "readerpw") as reader:
        page = reader.get(PREFIX + "/queues/CONSOLE.RO").text
        for control in ('id="run"', 'id="preview"', 'id="delete"', "/put\"", "/get\"", "/clear\"", "/move\""):
            assert control not in page, control
        assert 'id="tab-messages"' in page and 'id="tab-security"' in page and "disabled" in page
        listing = reader.get(PREFIX + "/queues/CONSOLE.RO/messages").text
        assert "look but do not touch" in listing
        csrf = csrf_of(listing)
        assert "Create a queue" not in reader.get(PREFIX + "/queues").text
        forged = {
            "/queues/+new": {"type": "QLOCAL", "name": "CONSOLE.FORGED", "action": "run"},
            "/queues/CONSOLE.RO": {"attr.MAXDEPTH": "1", "action": "run"},
            "/queues/CONSOLE.RO/delete": {"purge": "1"},
            "/queues/CONSOLE.RO/put": {"body": "forged"},
            "/queues/CONSOLE.RO/get": {},
            "/queues/CONSOLE.RO/clear": {},
            "/queues/CONSOLE.RO/move": {"target": "CONSOLE.TO", "action": "run"},
        }
        for path, data in forged.items():
            assert reader.post(PREFIX + path, data={"csrf": csrf, **data}).status_code == 403, path
        for path in ("/queues/+new", "/queues/CONSOLE.RO/put", "/queues/CONSOLE.RO/get", "/queues/CONSOLE.RO/clear", "/queues/CONSOLE.RO/move"):
            refused = reader.get(PREFIX + path)
            assert refused.status_code == 403 and "<button" not in refused.text.split("</header>")[1], path
    assert "CURDEPTH(1)" in "\n".join(mqsc(served, "DISPLAY QLOCAL(CONSOLE.RO) CURDEPTH", auth=("admin", "adminpw")))
    assert "MAXDEPTH(5000)" in _display(served, "CONSOLE.RO")


def test_a_user_under_its_own_authority_sees_only_what_it_may(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.APP)", auth=ADMIN)
    _rest_put(served, "CONSOLE.APP", b"not for app")
    with served.client("app", "apppw") as app:
        page = app.get(PREFIX + "/queues/CONSOLE.APP/messages")
        assert page.status_code in (403, 404) and "not for app" not in page.text
        mqsc(served, "SET AUTHREC PROFILE(CONSOLE.APP) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(DSP,BROWSE)", auth=ADMIN)
        page = app.get(PREFIX + "/queues/CONSOLE.APP/messages")
        assert page.status_code == 200 and "not for app" in page.text
        refused = app.post(PREFIX + "/queues/CONSOLE.APP/get", data={"csrf": csrf_of(page.text)})
        assert refused.status_code == 422 and "MQRC_NOT_AUTHORIZED" in refused.text
    assert "CURDEPTH(1)" in "\n".join(mqsc(served, "DISPLAY QLOCAL(CONSOLE.APP) CURDEPTH", auth=ADMIN))


def test_a_page_of_a_queue_that_is_not_there(admin: httpx.Client) -> None:
    assert admin.get(PREFIX + "/queues/NO.SUCH.QUEUE").status_code == 404
    assert admin.get(PREFIX + "/queues/NO.SUCH.QUEUE/messages").status_code == 404


def test_a_queue_whose_name_holds_a_slash_opens_from_the_list(served: Console, admin: httpx.Client) -> None:
    """MQ names may contain '/': the list links it as %2F and every tab of the queue opens, not another page."""
    mqsc(served, "DEFINE QLOCAL('CONSOLE/SLASHED') MAXDEPTH(77)", auth=ADMIN)
    listing = admin.get(PREFIX + "/queues", params={"name": "CONSOLE/SL*"}).text
    assert f"{PREFIX}/queues/CONSOLE%2FSLASHED" in listing
    detail = admin.get(PREFIX + "/queues/CONSOLE%2FSLASHED")
    assert detail.status_code == 200 and "CONSOLE/SLASHED" in detail.text and "77" in detail.text
    assert admin.get(PREFIX + "/queues/CONSOLE%2FSLASHED/messages").status_code == 200


def test_objects_named_new_open_and_the_create_forms_stay_apart(served: Console, admin: httpx.Client) -> None:
    """"new" is a valid MQ name (lower case, quoted): its pages are its own; the create forms live at "+new"."""
    mqsc(served, "DEFINE QLOCAL('new') MAXDEPTH(4321)", auth=ADMIN)
    mqsc(served, "DEFINE CHANNEL('new') CHLTYPE(SVRCONN) DESCR('named new')", auth=ADMIN)
    detail = admin.get(PREFIX + "/queues/new")
    assert detail.status_code == 200 and "4321" in detail.text and 'id="type-qlocal"' not in detail.text
    assert admin.get(PREFIX + "/queues/new/messages").status_code == 200
    channel = admin.get(PREFIX + "/objects/channel/new")
    assert channel.status_code == 200 and "named new" in channel.text and 'id="choose-type"' not in channel.text
    for create in ("/queues/+new", "/queues/%2Bnew"):
        assert 'id="type-qlocal"' in admin.get(PREFIX + create).text
    assert 'id="choose-type"' in admin.get(PREFIX + "/objects/channel/+new", params={"type": "SVRCONN"}).text
    listing = admin.get(PREFIX + "/queues").text
    assert f'href="{PREFIX}/queues/+new"' in listing and f"{PREFIX}/queues/new" in admin.get(PREFIX + "/queues", params={"name": "new"}).text


def test_head_answers_as_get_without_a_body(served: Console, admin: httpx.Client) -> None:
    for path in ("/overview", "/queues", "/queues/SYSTEM.DEFAULT.LOCAL.QUEUE", "/objects/channel"):
        got = admin.get(PREFIX + path)
        head = admin.head(PREFIX + path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"], path
    assert admin.head(PREFIX + "/queues/NO.SUCH.QUEUE").status_code == 404
    assert admin.head(PREFIX + "/logout").status_code == 405  # a POST-only page stays POST-only
    asset = PREFIX + "/static/console.css"
    assert admin.head(asset).headers["content-length"] == str(len(admin.get(asset).content))


def test_a_message_put_in_the_console_names_it_and_its_bytes_download_unchanged(served: Console, admin: httpx.Client) -> None:
    mqsc(served, "DEFINE QLOCAL(CONSOLE.RAW)", auth=ADMIN)
    blob = bytes(range(256)) * 3
    csrf = _csrf(admin, "/queues/CONSOLE.RAW/put")
    assert admin.post(PREFIX + "/queues/CONSOLE.RAW/put", data={"csrf": csrf}, files={"file": ("blob.bin", blob)}).status_code == 200
    [msg_id] = re.findall(r"/messages/([0-9a-f]{48})", admin.get(PREFIX + "/queues/CONSOLE.RAW/messages").text)[:1]
    detail = admin.get(PREFIX + f"/queues/CONSOLE.RAW/messages/{msg_id}").text
    assert "pcfserver console" in detail  # PutApplName: the console, not the REST API
    raw = admin.get(PREFIX + f"/queues/CONSOLE.RAW/messages/{msg_id}/raw")
    assert raw.status_code == 200 and raw.content == blob
    assert raw.headers["content-type"] == "application/octet-stream" and "attachment" in raw.headers["content-disposition"]
    assert "default-src 'self'" in raw.headers["content-security-policy"]
    assert "1 message." in admin.get(PREFIX + "/queues/CONSOLE.RAW/messages").text  # browsing left it there
    assert admin.get(PREFIX + f"/queues/CONSOLE.RAW/messages/{'0' * 48}/raw").status_code == 404


def _form_tokens(page: str) -> dict[str, str]:
    return {"csrf": csrf_of(page), "once": re.search(r'name="once" value="([^"]+)"', page)[1]}  # type: ignore[index]


def _depth(served: Console, queue: str) -> str:
    shown = "\n".join(mqsc(served, f"DISPLAY QLOCAL({queue}) CURDEPTH", auth=("admin", "adminpw")))
    return re.search(r"CURDEPTH\((\d+)\)", shown)[1]  # type: ignore[index]


def test_a_form_sent_twice_runs_once(served: Console, admin: httpx.Client) -> None:
    """Reloading the page a put or a get answered (or resending it from the browser's history) sends the same form again:
    it is refused with 409 and nothing runs a second time; the page it answered carries a new token for the next one."""
    assert "AMQ8006I" in "\n".join(mqsc(served, "DEFINE QLOCAL(CONSOLE.ONCE)", auth=("admin", "adminpw")))
    put_page = admin.get(PREFIX + "/queues/CONSOLE.ONCE/put").text
    sent = {**_form_tokens(put_page), "body": "only once"}
    first = admin.post(PREFIX + "/queues/CONSOLE.ONCE/put", data=sent)
    again = admin.post(PREFIX + "/queues/CONSOLE.ONCE/put", data=sent)
    assert first.status_code == 200 and again.status_code == 409 and "was not run a second time" in again.text
    assert _depth(served, "CONSOLE.ONCE") == "1"
    second = admin.post(PREFIX + "/queues/CONSOLE.ONCE/put", data={**_form_tokens(first.text), "body": "the next one"})
    assert second.status_code == 200 and _depth(served, "CONSOLE.ONCE") == "2"
    get_page = admin.get(PREFIX + "/queues/CONSOLE.ONCE/get").text
    taken = admin.post(PREFIX + "/queues/CONSOLE.ONCE/get", data=_form_tokens(get_page))
    retaken = admin.post(PREFIX + "/queues/CONSOLE.ONCE/get", data=_form_tokens(get_page))
    assert "only once" in taken.text and retaken.status_code == 409
    assert _depth(served, "CONSOLE.ONCE") == "1"


def test_the_lists_say_how_many_system_objects_they_leave_out(served: Console, admin: httpx.Client) -> None:
    """The overview counts SYSTEM objects and the lists hide them by default: a new administrator saw '50 local queues'
    beside a list of 4.  The list now says how many it leaves out; with Show SYSTEM it leaves out none."""
    shown = "\n".join(mqsc(served, "DISPLAY QUEUE(SYSTEM.*)", auth=("admin", "adminpw")))
    system = shown.count("AMQ8409I")
    listed = admin.get(PREFIX + "/queues").text
    assert f"{system} SYSTEM ones not shown" in listed
    assert 'id="system-hidden"' not in admin.get(PREFIX + "/queues", params={"system": "1"}).text
    channels = admin.get(PREFIX + "/objects/channel").text
    assert "SYSTEM ones not shown" in channels  # SYSTEM.DEF.SENDER and the others


def test_the_same_page_sent_again_with_a_field_changed_runs(served: Console, admin: httpx.Client) -> None:
    """Back, a field changed, sent again: a new request (a helper's channel HF.APP2 was refused as 'already done')."""
    assert "AMQ8006I" in "\n".join(mqsc(served, "DEFINE QLOCAL(CONSOLE.EDITED)", auth=("admin", "adminpw")))
    tokens = _form_tokens(admin.get(PREFIX + "/queues/CONSOLE.EDITED/put").text)
    assert admin.post(PREFIX + "/queues/CONSOLE.EDITED/put", data={**tokens, "body": "first"}).status_code == 200
    assert admin.post(PREFIX + "/queues/CONSOLE.EDITED/put", data={**tokens, "body": "edited"}).status_code == 200
    assert admin.post(PREFIX + "/queues/CONSOLE.EDITED/put", data={**tokens, "body": "edited"}).status_code == 409
    assert _depth(served, "CONSOLE.EDITED") == "2"
