"""The web console over plain HTTP (no browser): pages, headers, sign-in, CSRF and roles as a user meets them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.console_support import PREFIX, Console, console_server, csrf_of, mqsc

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def open_console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    with console_server(tmp_path_factory.mktemp("open")) as served:
        yield served


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"), ("app", ["MQWebUser"], "apppw"))
    with console_server(tmp_path_factory.mktemp("secured"), users=users) as served:
        yield served


def test_every_page_carries_a_same_origin_content_security_policy(open_console: Console) -> None:
    with open_console.client() as client:
        for path in ("/queues", "/login", "/static/console.css", "/no-such-page"):
            answer = client.get(PREFIX + path)
            policy = answer.headers.get("content-security-policy", "")
            assert "default-src 'self'" in policy and "script-src 'self'" in policy, path
            assert "unsafe-inline" not in policy and "http" not in policy, path


def test_no_page_loads_anything_from_elsewhere(open_console: Console) -> None:
    with open_console.client() as client:
        page = client.get(PREFIX + "/queues").text
        sources = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert sources
        for source in sources:
            assert source.startswith((PREFIX, "#")), source
            if "/static/" in source:
                assert client.get(source).status_code == 200, source


def test_queue_list_is_paged_filtered_and_sorted_by_the_server(open_console: Console) -> None:
    for i in range(30):
        mqsc(open_console, f"DEFINE QLOCAL(CONSOLE.LIST.{i:02d})")
    with open_console.client() as client:
        first = client.get(PREFIX + "/queues", params={"name": "CONSOLE.LIST.*", "size": 25}).text
        assert "30 queues, page 1 of 2" in first
        assert "CONSOLE.LIST.00" in first and "CONSOLE.LIST.25" not in first
        second = client.get(PREFIX + "/queues", params={"name": "CONSOLE.LIST.*", "size": 25, "page": 2}).text
        assert "CONSOLE.LIST.29" in second and "CONSOLE.LIST.00" not in second
        backwards = client.get(PREFIX + "/queues", params={"name": "CONSOLE.LIST.*", "sort": "name", "dir": "desc", "size": 25}).text
        assert backwards.index("CONSOLE.LIST.29") < backwards.index("CONSOLE.LIST.28")
        hidden = client.get(PREFIX + "/queues").text
        assert "SYSTEM.DEFAULT.LOCAL.QUEUE" not in hidden
        shown = client.get(PREFIX + "/queues", params={"system": "1", "name": "SYSTEM.DEFAULT.LOCAL.*"}).text
        assert "SYSTEM.DEFAULT.LOCAL.QUEUE" in shown


def test_signing_in_out_and_a_wrong_password(secured: Console) -> None:
    with secured.client() as client:
        answer = client.get(PREFIX + "/queues")
        assert answer.status_code == 303 and answer.headers["location"].startswith(PREFIX + "/login?next=")
        wrong = client.post(PREFIX + "/login", data={"username": "admin", "password": "nope"})
        assert wrong.status_code == 401 and "not correct" in wrong.text
    with secured.client("admin", "adminpw") as client:
        cookie = next(c for c in client.cookies.jar if c.name == "LtpaToken2")
        assert cookie.has_nonstandard_attr("HttpOnly") and cookie.get_nonstandard_attr("SameSite") == "Strict"
        page = client.get(PREFIX + "/queues")
        assert page.status_code == 200 and "admin (MQWebAdmin)" in page.text
        out = client.post(PREFIX + "/logout", data={"csrf": csrf_of(page.text)})
        assert out.status_code == 303
        assert client.get(PREFIX + "/queues").status_code == 303


def test_a_post_without_the_csrf_token_is_refused(secured: Console) -> None:
    with secured.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/queues").text
        assert client.post(PREFIX + "/logout").status_code == 403
        assert client.post(PREFIX + "/logout", data={"csrf": "0" * 64}).status_code == 403
        assert client.get(PREFIX + "/queues").status_code == 200  # still signed in
        assert client.post(PREFIX + "/logout", headers={"ibm-mq-csrf-token": csrf_of(page)}).status_code == 303


def test_a_read_only_user_sees_no_change_control(secured: Console) -> None:
    with secured.client("reader", "readerpw") as client:
        page = client.get(PREFIX + "/queues").text
        assert "Create a queue" not in page
    with secured.client("admin", "adminpw") as client:
        assert "Create a queue" in client.get(PREFIX + "/queues").text


def test_login_cookie_is_secure_on_https(tmp_path: Path) -> None:
    with console_server(tmp_path, https=True, users=(("admin", ["MQWebAdmin"], "pw"),)) as served:
        import httpx

        with httpx.Client(base_url=served.https, verify=False, timeout=30) as client:
            answer = client.post(PREFIX + "/login", data={"username": "admin", "password": "pw"})
            assert answer.status_code == 303
            assert "Secure" in answer.headers["set-cookie"] and "HttpOnly" in answer.headers["set-cookie"]
