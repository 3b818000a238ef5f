"""The console's MQSC box over plain HTTP: a command or a script run as runmqsc runs it, the user's history, and a
read-only user who may display but whose ALTER is refused before it runs."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote_plus

import pytest

from pcfserver.console.commands import display_only, script_commands
from tests.console_support import PREFIX, Console, console_server, csrf_of, mqsc

pytestmark = pytest.mark.timeout(180)
AUTH = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"), ("reader", ["MQWebAdminRO"], "readerpw"), ("other", ["MQWebAdmin"], "otherpw"))
    with console_server(tmp_path_factory.mktemp("mqsc"), users=users) as console:
        yield console


def test_scripts_split_as_runmqsc_reads_them() -> None:
    assert script_commands("DEFINE QLOCAL(A) +\n  DESCR('x')\n* a comment\n\nDISPLAY QLOCAL(A)\n") == [
        "DEFINE QLOCAL(A) DESCR('x')", "DISPLAY QLOCAL(A)",
    ]
    assert display_only("DIS QLOCAL(*)\nping qmgr\n* note")
    assert not display_only("DISPLAY QLOCAL(A)\nALTER QLOCAL(A) DESCR('x')")
    assert not display_only("DISPLAYX QLOCAL(A)") and not display_only("DEFINE QLOCAL(DISPLAY)")


def test_a_command_runs_and_shows_runmqscs_answer(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        box = client.get(PREFIX + "/mqsc").text
        assert 'id="mqsc-box"' in box and '<label for="mqsc-box">' in box
        ran = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "DEFINE QLOCAL(MQSC.ONE) DESCR('<b>one</b>')"})
        assert ran.status_code == 200
        assert "1 : DEFINE QLOCAL(MQSC.ONE)" in ran.text and "AMQ8006I" in ran.text
        shown = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "DISPLAY QLOCAL(MQSC.ONE) DESCR"})
        assert "QUEUE(MQSC.ONE)" in shown.text and "&lt;b&gt;one&lt;/b&gt;" in shown.text and "<b>one</b>" not in shown.text


def test_a_script_runs_each_command_in_turn(served: Console) -> None:
    script = "DEFINE QLOCAL(MQSC.S1)\n* comment\nDEFINE QLOCAL(MQSC.S1)\nALTER QLOCAL(MQSC.S1) +\n  MAXDEPTH(7)\n"
    with served.client("admin", "adminpw") as client:
        box = client.get(PREFIX + "/mqsc").text
        ran = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": script})
        assert ran.status_code == 200
        assert "3 commands read;\n  2 ran without a problem" in ran.text
        assert "AMQ8150E: IBM MQ object already exists." in ran.text  # the second DEFINE fails, the ALTER still runs
    assert any("MAXDEPTH(7)" in line for line in mqsc(served, "DISPLAY QLOCAL(MQSC.S1) MAXDEPTH", AUTH))


def test_history_is_per_user_newest_first_and_fills_the_box(served: Console) -> None:
    with served.client("other", "otherpw") as client:
        box = client.get(PREFIX + "/mqsc").text
        assert "None yet" in box
        for command in ("DISPLAY QMGR", "DISPLAY QLOCAL(*)", "DISPLAY QMGR"):
            client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": command})
        page = client.get(PREFIX + "/mqsc").text
        history = page.split('id="mqsc-history"')[1].split("</ol>")[0]
        assert history.index("DISPLAY QMGR") < history.index("DISPLAY QLOCAL(*)")  # newest first, once each
        assert history.count("DISPLAY QMGR") == 1
        link = history.split('href="')[1].split('"')[0]
        refilled = client.get(link.replace("&amp;", "&")).text
        assert ">DISPLAY QMGR</textarea>" in refilled and unquote_plus(link.split("command=")[1]) == "DISPLAY QMGR"
        for i in range(60):
            client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": f"DISPLAY QLOCAL(H{i})"})
        kept = client.get(PREFIX + "/mqsc").text.split('id="mqsc-history"')[1].split("</ol>")[0]
        assert kept.count("<li>") == 50 and "H59" in kept and "H9)" not in kept
    with served.client("admin", "adminpw") as client:
        assert "H59" not in client.get(PREFIX + "/mqsc").text  # another user's history is not shown


def test_a_read_only_user_may_display_but_not_alter(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(MQSC.RO) MAXDEPTH(10)", AUTH)
    with served.client("reader", "readerpw") as client:
        box = client.get(PREFIX + "/mqsc").text
        assert "DISPLAY commands and PING QMGR" in box
        shown = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "DISPLAY QLOCAL(MQSC.RO) MAXDEPTH"})
        assert shown.status_code == 200 and "MAXDEPTH(10)" in shown.text
        refused = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "ALTER QLOCAL(MQSC.RO) MAXDEPTH(1)"})
        assert refused.status_code == 403 and "MQWebAdminRO" in refused.text
        # the page that refuses keeps the script in the box (a helper lost what they typed to a bare 'Not allowed' page)
        assert 'id="mqsc-box"' in refused.text and "ALTER QLOCAL(MQSC.RO) MAXDEPTH(1)" in refused.text and "none of it ran" in refused.text
        sneaked = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "DISPLAY QMGR\nALTER QLOCAL(MQSC.RO) MAXDEPTH(1)"})
        assert sneaked.status_code == 403 and "AMQ8408I" not in sneaked.text  # the DISPLAY before it did not run either
        assert client.post(PREFIX + "/mqsc", data={"command": "DISPLAY QMGR"}).status_code == 403  # still needs the CSRF token
    assert any("MAXDEPTH(10)" in line for line in mqsc(served, "DISPLAY QLOCAL(MQSC.RO) MAXDEPTH", AUTH))


def test_nothing_to_run_says_so(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        box = client.get(PREFIX + "/mqsc").text
        empty = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "* only a comment\n"})
        assert empty.status_code == 422 and "no command to run" in empty.text
        bad = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "FROB QLOCAL(X)"})
        assert bad.status_code == 200 and "AMQ8405I: Syntax error" in bad.text
