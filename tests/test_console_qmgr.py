"""The console's queue manager page: ALTER QMGR from a form built from formats/qmgr-attributes.tsv."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.console_support import PREFIX, Console, console_server, csrf_of, mqsc

pytestmark = pytest.mark.timeout(180)
AUTH = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"))
    with console_server(tmp_path_factory.mktemp("qmgr"), users=users) as console:
        yield console


def _post(client: httpx.Client, data: dict[str, str]) -> httpx.Response:
    return client.post(PREFIX + "/qmgr", data={"csrf": csrf_of(client.get(PREFIX + "/qmgr").text), **data})


def test_the_queue_manager_page_previews_and_runs_alter_qmgr(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/qmgr").text
        assert 'href="/ibmmq/console/qmgr" aria-current="page"' in page or 'aria-current="page">Queue manager' in page
        assert 'name="attr.DEADQ"' in page and 'name="attr.QMNAME"' not in page  # settable ones only
        assert re.search(r'name="attr.MAXMSGL" value="4194304"', page)
        preview = _post(client, {"attr.DEADQ": "SYSTEM.DEAD.LETTER.QUEUE", "attr.MAXMSGL": "4194304", "action": "preview"})
        command = html.unescape(re.search(r'id="mqsc-command">(.*?)</pre>', preview.text, re.S)[1])  # type: ignore[index]
        assert command == "ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)"  # only what changed
        done = _post(client, {"attr.DEADQ": "SYSTEM.DEAD.LETTER.QUEUE", "action": "run"})
        assert done.status_code == 200 and "AMQ8005I" in done.text
        bad = _post(client, {"attr.MAXMSGL": "lots", "action": "preview"})
        assert bad.status_code == 422 and "MAXMSGL takes a number" in bad.text
    assert any("DEADQ(SYSTEM.DEAD.LETTER.QUEUE)" in line for line in mqsc(served, "DISPLAY QMGR DEADQ", AUTH))


def test_a_read_only_user_sees_the_values_and_cannot_alter(served: Console) -> None:
    with served.client("reader", "readerpw") as client:
        page = client.get(PREFIX + "/qmgr").text
        assert 'id="qmgr-form"' not in page and "may display the queue manager but not change it" in page
        refused = client.post(PREFIX + "/qmgr", data={"csrf": csrf_of(page), "attr.DEADQ": "X", "action": "run"})
        assert refused.status_code == 403


def test_run_runs_the_previewed_command_only(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        # the preview showed TRIGINT(5000); the fields were changed after it: nothing runs, the new command is shown
        changed = _post(client, {"attr.TRIGINT": "6000", "attr.MAXHANDS": "300", "previewed": "ALTER QMGR TRIGINT(5000)", "action": "run"})
        assert changed.status_code == 200 and "The fields changed after the preview" in changed.text
        command = html.unescape(re.search(r'id="mqsc-command">(.*?)</pre>', changed.text, re.S)[1])  # type: ignore[index]
        assert command == "ALTER QMGR MAXHANDS(300) TRIGINT(6000)" and f'name="previewed" value="{command}"' in changed.text
        assert not any("TRIGINT(6000)" in line for line in mqsc(served, "DISPLAY QMGR TRIGINT", AUTH))
        done = _post(client, {"attr.TRIGINT": "6000", "attr.MAXHANDS": "300", "previewed": command, "action": "run"})
        assert done.status_code == 200 and "AMQ8005I" in done.text
    assert any("TRIGINT(6000)" in line for line in mqsc(served, "DISPLAY QMGR TRIGINT", AUTH))
