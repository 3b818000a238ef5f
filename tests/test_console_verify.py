"""``pcfserver console -v`` / ``-e``: runmqsc's verify mode (read every command, report syntax errors, run none, no
server needed) and its no-echo report, as CI pipelines lint an MQSC configuration before it reaches a queue manager."""

from __future__ import annotations

import trio

from pcfserver.codec import Message
from pcfserver.dialects.runner import ScriptRunner
from tests.test_console import _closed_port, cli, start

CONFIG = """\
* an application's queues
DEFINE QLOCAL(APP.IN) MAXDEPTH(5000) +
       DESCR('orders in')
DEFINE QLOCAL(APP.OUT) MAXDPTH(5000)
ALTER QMGR CCSID(1208)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET)
ZMQSC DEF QL-APP.TPF MAXDEPTH-300
"""


async def test_verify_reports_syntax_errors_without_a_server_and_exits_10() -> None:
    code, out, err = await cli("console", "--verify", "--port", str(_closed_port()), "-", stdin=CONFIG)
    assert (code, err) == (10, "")
    assert out.splitlines()[1] == "Starting MQSC for queue manager QM1."
    body = out.splitlines()[4:]
    assert body == [
        "       : * an application's queues",
        "     1 : DEFINE QLOCAL(APP.IN) MAXDEPTH(5000) +",
        "       :        DESCR('orders in')",
        "     2 : DEFINE QLOCAL(APP.OUT) MAXDPTH(5000)",
        "AMQ8405I: Syntax error detected at or near end of command segment below:-",
        "DEFINE QLOCAL(APP.OUT) MAXDPTH(5000)",
        "     3 : ALTER QMGR CCSID(1208)",
        "     4 : SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET)",
        "     5 : ZMQSC DEF QL-APP.TPF MAXDEPTH-300",
        "5 MQSC commands read.",
        "One command has a syntax error.",
    ]
    fixed = CONFIG.replace("MAXDPTH", "MAXDEPTH")
    code, out, _ = await cli("console", "-v", "--qmgr", "QMA", "-", stdin=fixed)
    assert code == 0 and "Starting MQSC for queue manager QMA." in out
    assert out.splitlines()[-2:] == ["5 MQSC commands read.", "No commands have a syntax error."]


async def test_verify_changes_nothing_and_no_echo_leaves_the_commands_out(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    code, _, _ = await cli("console", "-v", "--port", str(port), "-", stdin="DEFINE QLOCAL(VERIFIED.ONLY)\n")
    assert code == 0
    code, out, _ = await cli("console", "-e", "--port", str(port), "-", stdin="* look\nDISPLAY QLOCAL(VERIFIED.ONLY)\nDEFINE QLOCAL(RAN)\n")
    assert code == 10
    lines = out.splitlines()
    assert "AMQ8147E: IBM MQ object VERIFIED.ONLY not found." in lines and "AMQ8006I: IBM MQ queue created." in lines
    assert not any(" : " in line for line in lines)  # neither the numbered copies nor the comment


def test_a_verifying_runner_never_executes() -> None:
    def execute(command: Message) -> list[Message]:
        raise AssertionError(f"verify ran {command.command}")

    runner = ScriptRunner(execute, dialect="auto", qmgr_name="QM1", verify=True)
    lines = runner.start()
    for line in ("DEFINE QLOCAL(A)", "DELETE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)", "CHGMQMQ QNAME(A) MAXDEPTH(1)", "END"):
        lines += runner.feed(line)
    lines += runner.finish()
    assert (runner.exit_code, runner.read, runner.syntax_errors) == (0, 3, 0)
