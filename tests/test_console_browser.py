"""The web console in a real browser (Debian's chromium through chromium-driver, headless, offline)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.console_support import Console, axe_violations, console_server, sign_in, wait_for

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"))
    with console_server(tmp_path_factory.mktemp("browser"), users=users) as served:
        yield served


def test_log_in_and_out(driver: Any, secured: Console) -> None:
    from selenium.webdriver.common.by import By

    sign_in(driver, secured, "admin", "adminpw")
    assert "admin (MQWebAdmin)" in driver.find_element(By.CSS_SELECTOR, "header .who").text
    driver.find_element(By.ID, "logout").click()
    wait_for(driver, lambda d: "/login" in d.current_url)
    driver.get(secured.url("/queues"))
    assert "/login" in driver.current_url


def test_a_wrong_password_says_so(driver: Any, secured: Console) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(secured.url("/login"))
    driver.find_element(By.ID, "username").send_keys("admin")
    driver.find_element(By.ID, "password").send_keys("wrong")
    driver.find_element(By.ID, "login").click()
    assert "not correct" in wait_for(driver, lambda d: d.find_element(By.ID, "login-error")).text


def test_read_only_user_sees_no_change_control(driver: Any, secured: Console) -> None:
    from selenium.webdriver.common.by import By

    sign_in(driver, secured, "reader", "readerpw")
    assert not driver.find_elements(By.ID, "create-queue")
    sign_in(driver, secured, "admin", "adminpw")
    assert driver.find_elements(By.ID, "create-queue")


@pytest.mark.parametrize("path", ["/login", "/queues", "/queues?system=1"])
def test_no_serious_accessibility_violation(driver: Any, secured: Console, path: str, tmp_path: Path) -> None:
    if path != "/login":
        sign_in(driver, secured, "admin", "adminpw")
    else:
        driver.delete_all_cookies()
    driver.get(secured.url(path))
    violations = axe_violations(driver)
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]


def test_the_overview_draws_its_charts_and_history_shows_rows(driver: Any, secured: Console) -> None:
    from selenium.webdriver.common.by import By

    from tests.console_support import mqsc

    mqsc(secured, "DEFINE QLOCAL(BROWSER.HISTORY) DESCR('seen')", ("admin", "adminpw"))
    sign_in(driver, secured, "admin", "adminpw", "/overview")
    driver.get(secured.url("/overview"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#rate-chart canvas") and d.find_elements(By.CSS_SELECTOR, "#depth-chart canvas"))
    assert driver.find_element(By.ID, "charts").get_attribute("data-drawn") == "true"
    assert driver.find_element(By.ID, "activity-latest").text  # the charts' text alternative
    driver.get(secured.url("/history"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#history-table pre.revert")
    assert any("DELETE QLOCAL(BROWSER.HISTORY)" in row.text for row in rows)
    # Copy says what it did (copied, or selected where the browser gives no clipboard); the link opens the MQSC box
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "#history-table tbody tr") if "DELETE QLOCAL(BROWSER.HISTORY)" in r.text)
    row.find_element(By.CSS_SELECTOR, "button.copy").click()
    wait_for(driver, lambda d: row.find_element(By.CSS_SELECTOR, ".copied").text in ("Copied.", "Selected: press Ctrl+C to copy."))
    row.find_element(By.CSS_SELECTOR, "a.open-mqsc").click()
    wait_for(driver, lambda d: "DELETE QLOCAL(BROWSER.HISTORY)" in (d.find_element(By.NAME, "command").get_attribute("value") or ""))


@pytest.mark.parametrize("path", ["/overview", "/history"])
def test_overview_and_history_have_no_serious_accessibility_violation(driver: Any, secured: Console, path: str) -> None:
    from tests.console_support import mqsc

    mqsc(secured, "DEFINE QLOCAL(BROWSER.AXE) REPLACE", ("admin", "adminpw"))
    sign_in(driver, secured, "admin", "adminpw")
    driver.get(secured.url(path))
    violations = axe_violations(driver)
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]


POST_FROM_PAGE = """
const [path, body, token, done] = arguments;
const headers = {"Content-Type": "application/x-www-form-urlencoded"};
if (token) { headers["ibm-mq-csrf-token"] = token; }
fetch(path, {method: "POST", body: body, headers: headers, credentials: "same-origin", redirect: "manual"})
  .then(r => done(r.status), e => done(String(e)));
"""


def test_a_post_without_the_csrf_token_is_refused(driver: Any, secured: Console) -> None:
    """Signed in, the browser sends its login cookie with any same-origin POST: without the page's token it changes nothing."""
    from selenium.webdriver.common.by import By

    sign_in(driver, secured, "admin", "adminpw", "/mqsc")
    path = "/ibmmq/console/mqsc"
    assert driver.execute_async_script(POST_FROM_PAGE, path, "command=DEFINE+QLOCAL(CSRF.FORGED)", "") == 403
    assert driver.execute_async_script(POST_FROM_PAGE, path, "command=DEFINE+QLOCAL(CSRF.FORGED)", "0" * 64) == 403
    token = driver.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    assert driver.execute_async_script(POST_FROM_PAGE, path, "command=DISPLAY+QLOCAL(CSRF.FORGED)", token) == 200
    driver.get(secured.url("/queues?name=CSRF.FORGED"))
    assert "0 queues" in driver.find_element(By.ID, "queue-count").text


@pytest.mark.parametrize("path", ["/overview", "/queues?system=1", "/history", "/login"])
def test_dark_theme_has_no_serious_accessibility_violation(driver: Any, secured: Console, path: str) -> None:
    """The dark theme (the browser's preference) keeps contrast and every other check axe makes."""
    if path == "/login":
        driver.delete_all_cookies()
    else:
        sign_in(driver, secured, "admin", "adminpw")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        driver.get(secured.url(path))
        assert driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
        background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background != "rgb(255, 255, 255)", background
        violations = axe_violations(driver)
        assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_an_ended_session_stops_the_charts_visibly_and_a_form_sent_then_comes_back_filled(driver: Any, secured: Console) -> None:
    from selenium.webdriver.common.by import By

    sign_in(driver, secured, "admin", "adminpw", "/overview")
    wait_for(driver, lambda d: d.find_element(By.ID, "charts").get_attribute("data-drawn") == "true")
    driver.delete_all_cookies()  # the session ends (as when its token expires)
    note = wait_for(driver, lambda d: d.find_element(By.ID, "charts-stopped").is_displayed() and d.find_element(By.ID, "charts-stopped"), timeout=25)
    assert "Your session has ended" in note.text and note.find_element(By.LINK_TEXT, "Sign in again")
    # a command typed in the MQSC box and sent after the session ended runs nothing and is there again after sign-in
    sign_in(driver, secured, "admin", "adminpw", "/mqsc")
    box = driver.find_element(By.ID, "mqsc-box")
    box.send_keys("DEFINE QLOCAL(BROWSER.AFTER.EXPIRY)")
    driver.delete_all_cookies()
    box.submit()
    wait_for(driver, lambda d: "/login" in d.current_url)
    assert "what you sent was not run" in driver.find_element(By.ID, "login-expired").text
    driver.find_element(By.ID, "username").send_keys("admin")
    driver.find_element(By.ID, "password").send_keys("adminpw")
    driver.find_element(By.ID, "login").click()
    wait_for(driver, lambda d: "/mqsc" in d.current_url)
    assert driver.find_element(By.ID, "mqsc-box").get_attribute("value") == "DEFINE QLOCAL(BROWSER.AFTER.EXPIRY)"
    from tests.console_support import mqsc

    assert not any("BROWSER.AFTER.EXPIRY" in line for line in mqsc(secured, "DISPLAY QLOCAL(*)", ("admin", "adminpw")))
