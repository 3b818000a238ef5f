"""The console's queue pages in a real browser (Debian's chromium through chromium-driver, headless, offline): create a
queue with the form and find it over PCF, put a message and read it over REST, message bodies shown safely, the
live tail, a read-only user, and axe on every queue page."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pcfserver import mq
from pcfserver.client.sync import connect_sync
from pcfserver.codec import Message, String
from pcfserver.codec.model import IntegerList
from tests.console_support import PREFIX, Console, axe_violations, console_server, mqsc, sign_in, wait_for

pytestmark = pytest.mark.timeout(300)
REST = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"
REST_HEADERS = {"ibm-mq-rest-csrf-token": "x"}
ADMIN = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    # admin also has MQWebUser: the tests put and get over the REST API's messaging under admin's own authority
    users = (("admin", ["MQWebAdmin", "MQWebUser"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"))
    with console_server(tmp_path_factory.mktemp("browser-queues"), users=users) as console:
        mqsc(console, "SET AUTHREC PROFILE('WEB.**') OBJTYPE(QUEUE) PRINCIPAL('admin') AUTHADD(PUT,GET,BROWSE,INQ)", auth=ADMIN)
        mqsc(console, "DEFINE QLOCAL(WEB.SHOWN) DESCR('messages to look at')", auth=ADMIN)
        _rest_put(console, "WEB.SHOWN", b'{"order": 42, "items": ["a", "b"]}', "application/json")
        yield console


def _rest_put(served: Console, queue: str, body: bytes, content_type: str = "text/plain") -> None:
    answer = httpx.post(served.http + REST.format(queue), content=body, headers={**REST_HEADERS, "Content-Type": content_type}, auth=ADMIN,
                        timeout=30)
    assert answer.status_code == 201, answer.text


def _by(kind: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def _first_message(driver: Any, served: Console, queue: str) -> None:
    driver.get(served.url(f"/queues/{queue}/messages"))
    driver.find_element(_by("CSS_SELECTOR"), "#message-rows td.id a").click()
    wait_for(driver, lambda d: d.find_elements(_by("ID"), "descriptor"))


def test_define_a_queue_with_the_form_and_find_it_over_pcf(driver: Any, served: Console) -> None:
    sign_in(driver, served, "admin", "adminpw")
    driver.find_element(_by("ID"), "create-queue").click()
    wait_for(driver, lambda d: "/queues/+new" in d.current_url)
    # a name too long is kept as typed and refused at preview (the field once cut the 49th character off silently)
    driver.find_element(_by("ID"), "queue-name").send_keys("WEB." + "X" * 45)
    driver.find_element(_by("ID"), "preview").click()
    wait_for(driver, lambda d: d.find_elements(_by("ID"), "queue-name-error"))
    assert driver.find_element(_by("ID"), "queue-name-error").text == "A queue name is at most 48 characters; this one has 49."
    assert len(driver.find_element(_by("ID"), "queue-name").get_attribute("value")) == 49
    assert not driver.find_elements(_by("ID"), "mqsc-command")
    driver.find_element(_by("ID"), "queue-name").clear()
    # choosing another type keeps what was typed (the types are buttons of the form)
    driver.find_element(_by("ID"), "queue-name").send_keys("WEB.MADE")
    driver.find_element(_by("ID"), "f-descr").send_keys("from a browser")
    driver.find_element(_by("ID"), "type-qalias").click()
    wait_for(driver, lambda d: d.find_element(_by("ID"), "type-qalias").get_attribute("aria-current") == "page")
    assert driver.find_element(_by("ID"), "queue-name").get_attribute("value") == "WEB.MADE"
    assert driver.find_element(_by("ID"), "f-descr").get_attribute("value") == "from a browser"
    driver.find_element(_by("ID"), "type-qlocal").click()
    wait_for(driver, lambda d: d.find_element(_by("ID"), "type-qlocal").get_attribute("aria-current") == "page")
    depth = driver.find_element(_by("ID"), "f-maxdepth")
    depth.clear()
    depth.send_keys("777")
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(_by("ID"), "f-put")).select_by_visible_text("DISABLED")
    driver.find_element(_by("ID"), "preview").click()
    command = wait_for(driver, lambda d: d.find_elements(_by("ID"), "mqsc-command"))[0].text
    assert command == "DEFINE QLOCAL(WEB.MADE) DESCR('from a browser') PUT(DISABLED) MAXDEPTH(777)"
    driver.find_element(_by("ID"), "run").click()
    wait_for(driver, lambda d: d.find_elements(_by("ID"), "created"))
    assert driver.current_url.endswith("/queues/WEB.MADE?created=1")
    host, port = "127.0.0.1", served.pcf_port
    with connect_sync(host, port) as client:
        [answer] = client.execute(Message(mq.MQCMD_INQUIRE_Q, (
            String(mq.MQCA_Q_NAME, "WEB.MADE"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH, mq.MQIA_INHIBIT_PUT, mq.MQCA_Q_DESC)),
        )))
    assert answer.int_value(mq.MQIA_MAX_Q_DEPTH) == 777 and answer.int_value(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED
    assert (answer.str_value(mq.MQCA_Q_DESC) or "").rstrip() == "from a browser"


def test_put_a_message_in_the_page_and_read_it_over_rest(driver: Any, served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(WEB.PUT)", auth=ADMIN)
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.PUT/put")
    driver.find_element(_by("ID"), "put-body").send_keys("typed in a browser")
    driver.find_element(_by("ID"), "put-properties").send_keys("origin=console")
    driver.find_element(_by("ID"), "put").click()
    assert "Put a message of 18 bytes" in wait_for(driver, lambda d: d.find_elements(_by("ID"), "put-done"))[0].text
    got = httpx.delete(served.http + REST.format("WEB.PUT").replace("/v2/", "/v3/"), headers=REST_HEADERS, auth=ADMIN, timeout=30)
    assert got.status_code == 200 and got.text == "typed in a browser" and got.headers["ibm-mq-usr-origin"] == "console"


def test_an_uploaded_binary_body_shows_as_hex(driver: Any, served: Console, tmp_path: Path) -> None:
    mqsc(served, "DEFINE QLOCAL(WEB.BINARY)", auth=ADMIN)
    upload = tmp_path / "blob.bin"
    upload.write_bytes(bytes([0, 1, 2, 0xFF, 0xFE]) + b"tail")
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.BINARY/put")
    driver.find_element(_by("ID"), "put-file").send_keys(str(upload))
    driver.find_element(_by("ID"), "put").click()
    wait_for(driver, lambda d: d.find_elements(_by("ID"), "put-done"))
    driver.find_element(_by("CSS_SELECTOR"), "#put-done a").click()
    dump = wait_for(driver, lambda d: d.find_elements(_by("ID"), "body-hex"))[0].text
    assert dump.startswith("00000000  00 01 02 ff fe 74 61 69 6c") and "|.....tail|" in dump
    assert not driver.find_elements(_by("ID"), "body-text")


def test_a_script_body_is_shown_as_text_and_never_run(driver: Any, served: Console) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    mqsc(served, "DEFINE QLOCAL(WEB.SCRIPT)", auth=ADMIN)
    _rest_put(served, "WEB.SCRIPT", b"<script>alert(1)</script><img src=x onerror=alert(2)>")
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.SCRIPT/messages")
    assert "<script>alert(1)</script>" in driver.find_element(_by("CSS_SELECTOR"), "#message-rows .body-preview").text
    _first_message(driver, served, "WEB.SCRIPT")
    time.sleep(0.5)
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018 (reading it is the check)
    assert driver.find_element(_by("ID"), "body-text").text == "<script>alert(1)</script><img src=x onerror=alert(2)>"
    assert not driver.find_elements(_by("CSS_SELECTOR"), "main script, main img")


def test_json_is_pretty_printed(driver: Any, served: Console) -> None:
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.SHOWN/messages")
    _first_message(driver, served, "WEB.SHOWN")
    assert driver.find_element(_by("ID"), "body-json").text == '{\n  "order": 42,\n  "items": [\n    "a",\n    "b"\n  ]\n}'


def test_live_tail_shows_new_messages_and_pauses(driver: Any, served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(WEB.TAIL)", auth=ADMIN)
    _rest_put(served, "WEB.TAIL", b"old news")
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.TAIL/tail")
    _rest_put(served, "WEB.TAIL", b"fresh one")
    wait_for(driver, lambda d: "fresh one" in d.find_element(_by("ID"), "tail-poller").text, timeout=10)
    assert "old news" not in driver.find_element(_by("ID"), "tail-poller").text
    pause = driver.find_element(_by("ID"), "tail-pause")
    pause.click()
    assert pause.get_attribute("aria-pressed") == "true" and pause.text == "Resume"
    _rest_put(served, "WEB.TAIL", b"while paused")
    time.sleep(4.5)
    assert "while paused" not in driver.find_element(_by("ID"), "tail-poller").text
    pause.click()
    wait_for(driver, lambda d: "while paused" in d.find_element(_by("ID"), "tail-poller").text, timeout=10)


def test_delete_asks_with_the_queue_name(driver: Any, served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(WEB.DOOMED)", auth=ADMIN)
    sign_in(driver, served, "admin", "adminpw", "/queues/WEB.DOOMED")
    driver.find_element(_by("ID"), "delete").click()
    alert = wait_for(driver, lambda d: d.switch_to.alert)
    assert "WEB.DOOMED" in alert.text and "DELETE QLOCAL(WEB.DOOMED)" in alert.text
    alert.dismiss()
    assert driver.current_url.endswith("/queues/WEB.DOOMED")
    driver.find_element(_by("ID"), "delete").click()
    wait_for(driver, lambda d: d.switch_to.alert).accept()
    assert "AMQ8007I" in wait_for(driver, lambda d: d.find_elements(_by("ID"), "mqsc-answer"))[0].text


def test_read_only_user_sees_no_change_control_and_a_forged_post_is_refused(driver: Any, served: Console) -> None:
    sign_in(driver, served, "reader", "readerpw", "/queues/WEB.SHOWN")
    for control in ("run", "preview", "delete", "tab-put", "tab-get", "tab-clear", "tab-move", "put", "get", "clear"):
        assert not driver.find_elements(_by("ID"), control), control
    assert driver.find_element(_by("ID"), "f-maxdepth").get_attribute("readonly") is not None
    driver.find_element(_by("ID"), "tab-messages").click()
    _first_message(driver, served, "WEB.SHOWN")
    assert '"order": 42' in driver.find_element(_by("ID"), "body-json").text
    csrf = driver.find_element(_by("CSS_SELECTOR"), "input[name=csrf]").get_attribute("value")
    script = """
        const [url, csrf, done] = arguments;
        const body = new URLSearchParams({csrf: csrf});
        fetch(url, {method: "POST", body: body, credentials: "same-origin"}).then(r => done(r.status), e => done(String(e)));
    """
    for path in ("/queues/WEB.SHOWN/clear", "/queues/WEB.SHOWN/get", "/queues/WEB.SHOWN/delete", "/queues/WEB.SHOWN/put"):
        assert driver.execute_async_script(script, PREFIX + path, csrf) == 403, path
    assert "CURDEPTH(1)" in "\n".join(mqsc(served, "DISPLAY QLOCAL(WEB.SHOWN) CURDEPTH", auth=ADMIN))


PAGES = ["/queues", "/queues/+new", "/queues/+new?type=QALIAS", "/queues/WEB.SHOWN", "/queues/WEB.SHOWN/messages", "/queues/WEB.SHOWN/put",
         "/queues/WEB.SHOWN/get", "/queues/WEB.SHOWN/clear", "/queues/WEB.SHOWN/move", "/queues/WEB.SHOWN/tail", "/queues/WEB.SHOWN/security"]


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_accessibility_violation(driver: Any, served: Console, path: str) -> None:
    sign_in(driver, served, "admin", "adminpw")
    driver.get(served.url(path))
    violations = axe_violations(driver)
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]


def test_no_serious_accessibility_violation_on_message_detail_preview_and_read_only(driver: Any, served: Console) -> None:
    sign_in(driver, served, "admin", "adminpw")
    _first_message(driver, served, "WEB.SHOWN")
    pages = {"message detail": axe_violations(driver)}
    driver.get(served.url("/queues/+new"))
    driver.find_element(_by("ID"), "queue-name").send_keys("WEB.AXE")
    driver.find_element(_by("ID"), "preview").click()
    wait_for(driver, lambda d: d.find_elements(_by("ID"), "mqsc-command"))
    pages["create preview"] = axe_violations(driver)
    sign_in(driver, served, "reader", "readerpw", "/queues/WEB.SHOWN")
    pages["read-only properties"] = axe_violations(driver)
    found = {name: [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in found] for name, found in pages.items() if found}
    assert not found, found
