"""The console's administration pages in a real browser (Debian's chromium, headless, offline): the MQSC box, a
channel made with its form, a listener started and stopped, the why-refused form, and an axe scan of every page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pcfserver import kinds
from tests.console_support import Console, axe_violations, console_server, free_port, mqsc, sign_in, wait_for

pytestmark = pytest.mark.timeout(300)
AUTH = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"))
    with console_server(tmp_path_factory.mktemp("browser-admin"), users=users) as console:
        mqsc(console, "DEFINE QLOCAL(BR.Q)", AUTH)
        mqsc(console, f"DEFINE LISTENER(BR.LSTR) TRPTYPE(TCP) IPADDR('127.0.0.1') PORT({free_port()}) CONTROL(MANUAL)", AUTH)
        mqsc(console, "DEFINE TOPIC(BR.TOPIC) TOPICSTR('br/news')", AUTH)
        mqsc(console, "DEFINE SUB(BR.SUB) TOPICSTR('br/news') DEST(BR.Q)", AUTH)
        mqsc(console, "SET AUTHREC PROFILE('BR.**') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)", AUTH)
        mqsc(console, "SET CHLAUTH('BR.*') TYPE(BLOCKUSER) USERLIST('nobody')", AUTH)
        yield console


@pytest.fixture(scope="module")
def admin(driver: Any, served: Console) -> Any:
    sign_in(driver, served, "admin", "adminpw")
    return driver


def _by(kind: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def test_the_mqsc_box_runs_a_display_and_shows_its_answer(admin: Any, served: Console) -> None:
    from selenium.webdriver.common.keys import Keys

    admin.get(served.url("/mqsc"))
    box = admin.find_element(_by("ID"), "mqsc-box")
    box.send_keys("DISPLAY QLOCAL(BR.Q) MAXDEPTH")
    box.send_keys(Keys.CONTROL, Keys.ENTER)  # Ctrl+Enter sends the form (console.js)
    answers = wait_for(admin, lambda d: d.find_elements(_by("ID"), "mqsc-answers"))
    assert "QUEUE(BR.Q)" in answers[0].text and "MAXDEPTH(5000)" in answers[0].text
    history = admin.find_element(_by("ID"), "mqsc-history")
    history.find_element(_by("TAG_NAME"), "a").click()
    wait_for(admin, lambda d: d.find_element(_by("ID"), "mqsc-box").get_attribute("value") == "DISPLAY QLOCAL(BR.Q) MAXDEPTH")


def test_create_a_channel_with_its_form(admin: Any, served: Console) -> None:
    from selenium.webdriver.support.ui import Select

    admin.get(served.url("/objects/channel"))
    admin.find_element(_by("ID"), "create-object").click()
    # The type chosen is the type created, even without "Show the fields" (a helper chose SVRCONN, filled the form
    # below and got a sender); the page says the fields below are still the other type's.
    wait_for(admin, lambda d: d.find_element(_by("ID"), "f-name")).send_keys("BR.QUICK.SVRCONN")
    Select(admin.find_element(_by("ID"), "choose-subtype")).select_by_visible_text("SVRCONN")
    note = admin.find_element(_by("ID"), "type-note")
    assert note.is_displayed() and "SVRCONN" in note.text
    admin.find_element(_by("ID"), "preview-command").click()
    quick = wait_for(admin, lambda d: d.find_element(_by("ID"), "mqsc-command"))
    assert quick.text == "DEFINE CHANNEL(BR.QUICK.SVRCONN) CHLTYPE(SVRCONN)"
    # "Show the fields of this type" keeps what was typed so far: the name and a field both types have
    admin.get(served.url("/objects/channel/+new"))
    wait_for(admin, lambda d: d.find_element(_by("ID"), "f-name")).send_keys("BR.APP.SVRCONN")
    admin.find_element(_by("ID"), "f-descr").send_keys("made in a browser")
    Select(admin.find_element(_by("ID"), "choose-subtype")).select_by_visible_text("SVRCONN")
    admin.find_element(_by("ID"), "show-fields").click()
    wait_for(admin, lambda d: "of type CHLTYPE(SVRCONN)" in d.find_element(_by("ID"), "f-name-help").text)
    assert admin.find_element(_by("ID"), "f-name").get_attribute("value") == "BR.APP.SVRCONN"
    assert admin.find_element(_by("ID"), "f-descr").get_attribute("value") == "made in a browser"
    assert not admin.find_elements(_by("ID"), "f-xmitq")  # a SVRCONN's fields now
    # Enter in a field previews (the form's first submit button is a hidden preview, not "Show the fields")
    from selenium.webdriver.common.keys import Keys

    assert not admin.find_elements(_by("ID"), "run-command")  # nothing runs before it is previewed
    admin.find_element(_by("ID"), "f-descr").send_keys(Keys.ENTER)
    entered = wait_for(admin, lambda d: d.find_elements(_by("ID"), "mqsc-command"))[0]
    assert entered.text == "DEFINE CHANNEL(BR.APP.SVRCONN) CHLTYPE(SVRCONN) DESCR('made in a browser')"
    from selenium.webdriver.support import expected_conditions

    admin.find_element(_by("ID"), "preview-command").click()
    wait_for(admin, expected_conditions.staleness_of(entered))  # (the page the Enter key previewed on is replaced)
    preview = wait_for(admin, lambda d: d.find_element(_by("ID"), "mqsc-command"))
    assert preview.text == "DEFINE CHANNEL(BR.APP.SVRCONN) CHLTYPE(SVRCONN) DESCR('made in a browser')"
    admin.find_element(_by("ID"), "run-command").click()
    wait_for(admin, lambda d: d.find_elements(_by("ID"), "object-name"))
    assert "AMQ8014I" in admin.find_element(_by("ID"), "mqsc-answer").text
    assert any("BR.APP.SVRCONN" in line for line in mqsc(served, "DISPLAY CHANNEL(BR.APP.SVRCONN)", AUTH))


def test_start_and_stop_a_listener(admin: Any, served: Console) -> None:
    admin.get(served.url("/objects/listener/BR.LSTR"))
    assert admin.find_element(_by("ID"), "object-status").text == "STOPPED"
    admin.find_element(_by("ID"), "action-start").click()
    wait_for(admin, lambda d: "AMQ8021I" in d.find_element(_by("ID"), "mqsc-answer").text)

    def shows(status: str) -> Any:
        def check(d: Any) -> bool:  # the page shows the status as it was when drawn: look again until it says so
            d.get(served.url("/objects/listener/BR.LSTR"))
            return bool(d.find_element(_by("ID"), "object-status").text == status)

        return check

    wait_for(admin, shows("RUNNING"))
    admin.find_element(_by("ID"), "action-stop").click()
    alert = wait_for(admin, lambda d: d.switch_to.alert)  # data-confirm asks first
    assert "STOP LISTENER(BR.LSTR)" in alert.text
    alert.accept()
    wait_for(admin, lambda d: "STOP LISTENER" in d.find_element(_by("TAG_NAME"), "main").text and d.find_elements(_by("ID"), "mqsc-answer"))
    wait_for(admin, shows("STOPPED"))


def test_the_why_refused_form_answers(admin: Any, served: Console) -> None:
    from selenium.webdriver.support.ui import Select

    admin.get(served.url("/security"))
    # a type offers its own operations only: a topic's PUB and SUB, not a queue's GET
    Select(admin.find_element(_by("ID"), "why-objtype")).select_by_visible_text("TOPIC")
    offered = [o.text for o in Select(admin.find_element(_by("ID"), "why-op")).options if o.get_dom_attribute("hidden") is None]
    assert "PUB" in offered and "SUB" in offered and "GET" not in offered and "CONNECT" not in offered
    admin.find_element(_by("ID"), "why-user").send_keys("bob")
    Select(admin.find_element(_by("ID"), "why-objtype")).select_by_visible_text("QUEUE")
    admin.find_element(_by("ID"), "why-name").send_keys("BR.Q")
    Select(admin.find_element(_by("ID"), "why-op")).select_by_visible_text("PUT")
    admin.find_element(_by("ID"), "why-ask").click()
    verdict = wait_for(admin, lambda d: d.find_element(_by("ID"), "why-verdict"))
    assert verdict.text.startswith("Refused")
    assert "BR.**" in admin.find_element(_by("ID"), "why-entities").text
    assert "SET AUTHREC PROFILE('BR.**') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)" in admin.find_element(_by("ID"), "why-fixes").text


ADMIN_PAGES = [
    *(f"/objects/{key}?system=1" for key in kinds.keys()),
    "/objects/listener/BR.LSTR",
    "/objects/topic/BR.TOPIC",
    "/objects/sub/BR.SUB",
    "/objects/channel/SYSTEM.DEF.SVRCONN",
    "/objects/channel/+new?type=SDR",
    "/objects/topic/SYSTEM.BASE.TOPIC?edit=1",
    "/security",
    "/security?why_user=bob&why_objtype=QUEUE&why_name=BR.Q&why_op=PUT",
    "/connections",
    "/qmgr",
    "/mqsc",
    "/mqsc?command=DISPLAY+QMGR",
]


@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_no_serious_accessibility_violation(admin: Any, served: Console, path: str) -> None:
    admin.get(served.url(path))
    violations = axe_violations(admin)
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]


def test_a_read_only_user_runs_a_display_in_the_box_but_not_an_alter(driver: Any, served: Console) -> None:
    sign_in(driver, served, "reader", "readerpw", "/mqsc")
    box = driver.find_element(_by("ID"), "mqsc-box")
    box.send_keys("DISPLAY QLOCAL(BR.Q) MAXDEPTH")
    driver.find_element(_by("ID"), "mqsc-run").click()
    answers = wait_for(driver, lambda d: d.find_elements(_by("ID"), "mqsc-answers"))
    assert "MAXDEPTH(5000)" in answers[0].text
    box = driver.find_element(_by("ID"), "mqsc-box")
    box.clear()
    box.send_keys("ALTER QLOCAL(BR.Q) MAXDEPTH(1)")
    driver.find_element(_by("ID"), "mqsc-run").click()
    wait_for(driver, lambda d: "MQWebAdminRO" in d.find_element(_by("TAG_NAME"), "main").text)
    assert any("MAXDEPTH(5000)" in line for line in mqsc(served, "DISPLAY QLOCAL(BR.Q) MAXDEPTH", AUTH))
    sign_in(driver, served, "admin", "adminpw")  # leave the module's browser as the admin fixture expects
