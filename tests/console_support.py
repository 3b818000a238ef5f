"""Shared by the web console's tests: a ``pcfserver serve`` process with HTTP (and HTTPS), its users, an HTTP client
that signs in through the login form, and a real browser (Debian's chromium driven by selenium through Debian's
chromium-driver; never a downloaded one)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from pcfserver.users import UserStore

STARTUP = re.compile(r"^pcfserver listening on (\S+):(\d+)(?: \(TLS\))?(?: http (\S+):(\d+))?(?: https (\S+):(\d+))? data")
PREFIX = "/ibmmq/console"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


@dataclass
class Console:
    """A running server: its PCF port, its console's base URL(s) and its data directory."""

    process: subprocess.Popen[bytes]
    pcf_port: int
    http: str  # http://127.0.0.1:PORT
    https: str  # https://127.0.0.1:PORT or empty
    data: Path

    def url(self, path: str = "/queues", secure: bool = False) -> str:
        return (self.https if secure else self.http) + PREFIX + path

    @contextmanager
    def client(self, user: str | None = None, password: str = "", **kw: Any) -> Iterator[httpx.Client]:
        """An HTTP client (cookies kept); signed in through the login form when ``user`` is given."""
        with httpx.Client(base_url=self.http, timeout=30, **kw) as client:
            if user is not None:
                answer = client.post(PREFIX + "/login", data={"username": user, "password": password, "next": PREFIX + "/queues"})
                assert answer.status_code == 303, answer.text
            yield client


def mqsc(served: Console, command: str, auth: tuple[str, str] | None = None) -> list[str]:
    """Runs one MQSC command through the REST API (runCommand) and returns runmqsc's lines; fails on a failed command."""
    answer = httpx.post(
        served.http + "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", json={"type": "runCommand", "parameters": {"command": command}},
        headers={"ibm-mq-rest-csrf-token": "x"}, auth=auth, timeout=30,
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["overallCompletionCode"] == 0, body
    return [line for item in body["commandResponse"] for line in item.get("text", [])]


def free_port() -> int:
    """A TCP port nobody listens on now (for a listener object a test starts)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page carries no CSRF token"
    return found[1]


def add_user(data: Path, name: str, roles: list[str], password: str, groups: list[str] | None = None) -> None:
    store = UserStore(data)
    try:
        store.add(name, roles, password, groups or [])
    finally:
        store.close()


@contextmanager
def console_server(tmp: Path, *args: str, https: bool = False, users: tuple[tuple[str, list[str], str], ...] = ()) -> Iterator[Console]:
    """``pcfserver serve`` on 127.0.0.1 with free ports; stopped (SIGTERM, then kill) and reaped on exit."""
    data = tmp / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, roles, password in users:
        add_user(data, name, roles, password)
    log = tmp / "serve.log"
    command = [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--http-port", "0", "--data", str(data), *args]
    if https:
        command += ["--https-port", "0"]
    with open(log, "wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        while line.startswith("pcfserver: "):  # a notice before the startup line (the self-signed certificate)
            line = process.stdout.readline().decode()
        match = STARTUP.match(line)
        assert match, f"no startup line: {line!r} {log.read_text()}"
        yield Console(
            process, int(match[2]), f"http://127.0.0.1:{match[4]}", f"https://127.0.0.1:{match[6]}" if match[6] else "", data,
        )
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def browser_available() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


@contextmanager
def browser() -> Iterator[Any]:
    """Headless Debian chromium through Debian's chromium-driver, offline (no Selenium Manager download).

    Without them the test is skipped on a developer's machine and fails in CI (CI=true), where tools/test.sh installs them."""
    if not browser_available():
        if os.environ.get("CI"):
            pytest.fail("chromium and chromium-driver are missing: tools/test.sh installs them")
        pytest.skip("chromium and chromium-driver are not installed (tools/test.sh installs them)")
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pcfconsole-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.accept_insecure_certs = True
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.set_page_load_timeout(30)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page the browser shows (vendored, unmodified axe.min.js)."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result = driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run(document).then(r => done(r.violations));")
    return [v for v in result if v.get("impact") in ("serious", "critical")]


def wait_for(driver: Any, condition: Any, timeout: float = 15) -> Any:
    """selenium's WebDriverWait: ``condition(driver)`` until truthy; an element missing, or gone because the page was
    replaced while the condition read it (a form's answer arriving), means "not yet"."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)


def sign_in(driver: Any, served: Console, user: str, password: str, path: str = "/queues") -> None:
    """Through the login page, as a person would; ends on ``path``."""
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(served.url(path))
    wait_for(driver, lambda d: "/login" in d.current_url)
    driver.find_element(By.ID, "username").send_keys(user)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "login").click()
    wait_for(driver, lambda d: "/login" not in d.current_url)
    assert driver.current_url.startswith(served.url(path).split("?")[0]), driver.current_url
