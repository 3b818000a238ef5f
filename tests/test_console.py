"""``pcfserver console`` and ``pcfserver dump`` as an administrator runs them: real processes, real sockets.

Each test starts servers in this process (127.0.0.1, a free port) and runs the CLI as a child
process, then checks what it printed, its exit status and the registry it left.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Sequence

import trio

from pcfserver import kinds, mq
from pcfserver.client import connect
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.server import PcfServer, ServerConfig
from pcfserver.tables import FORMATS_DIR
from tests.dialect_support import registry


async def start(nursery: trio.Nursery) -> int:
    server = PcfServer(open_engine(None), ServerConfig(host="127.0.0.1", port=0))
    await nursery.start(server.serve)
    assert server.address is not None
    return int(server.address[1])


async def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    done = await trio.run_process(
        [sys.executable, "-m", "pcfserver", *args], stdin=stdin.encode(), capture_stdout=True, capture_stderr=True, check=False
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def snapshot(port: int) -> dict[str, dict[int, object]]:
    async with connect("127.0.0.1", port) as client:
        answers: dict[int, list[Message]] = {}

        def execute(command: Message) -> list[Message]:
            return answers[command.command]

        inquire_q = Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "*"),))
        answers[mq.MQCMD_INQUIRE_Q] = await client.execute(inquire_q)
        answers[mq.MQCMD_INQUIRE_Q_MGR] = await client.execute(Message(mq.MQCMD_INQUIRE_Q_MGR))
        out = registry(execute)
        # every object of every kind (channels, processes, ...): every attribute but the alteration stamps and what
        # each queue manager generates for itself (a subscription's SubId, the correlation id taken from it, its creation stamp)
        generated = (mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME, mq.MQBACF_SUB_ID, mq.MQBACF_DESTINATION_CORREL_ID)
        for code, pid in ((k.command("INQUIRE"), k.name) for k in kinds.kinds()):
            for response in await client.execute(Message(code, (String(pid, "*"),))):
                values = {p.parameter: getattr(p, "value", getattr(p, "values", None)) for p in response.parameters}
                out[f"{code}:{values[pid]}"] = {k: v for k, v in values.items() if k not in generated}
        return out


async def run_pcf(port: int, commands: Sequence[Message]) -> None:
    async with connect("127.0.0.1", port) as client:
        for command in commands:
            await client.execute(command)


def create(name: str, qtype: int, *attrs: Integer | String) -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), *attrs))


def change(name: str, qtype: int, *attrs: Integer | String) -> Message:
    return Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype), *attrs))


async def test_an_mqsc_script_piped_in_prints_runmqsc_s_transcript(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    script = (FORMATS_DIR / "transcripts" / "runmqsc-setup.mqsc").read_text()
    code, out, err = await cli("console", "--port", str(port), stdin=script)
    assert out == (FORMATS_DIR / "transcripts" / "runmqsc-setup.out").read_text()
    assert (code, err) == (10, "")
    state = await snapshot(port)
    assert state["APP.ORDERS.IN"][mq.MQCA_BACKOUT_REQ_Q_NAME] == "APP.ORDERS.BACKOUT"
    assert "NEVER.RUN" not in state  # after END nothing runs
    code, out, _ = await cli("console", "--port", str(port), stdin="DIS QMGR MAXUMSGS\n")
    assert code == 0 and "   QMNAME(QM1)                             MAXUMSGS(5000)" in out


EQUIVALENTS = {
    "mqsc": (
        "DEFINE QLOCAL(E2E.Q) MAXDEPTH(300) DESCR('end to end') PUT(DISABLED)\n"
        "DEFINE QALIAS(E2E.A) TARGET(E2E.Q)\n"
        "ALTER QLOCAL(E2E.Q) TRIGGER TRIGTYPE(EVERY)\n"
        "ALTER QMGR MAXUMSGS(321)\n",
        [
            create("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 300), String(mq.MQCA_Q_DESC, "end to end"), Integer(mq.MQIA_INHIBIT_PUT, 1)),
            create("E2E.A", mq.MQQT_ALIAS, String(mq.MQCA_BASE_OBJECT_NAME, "E2E.Q")),
            change("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_TRIGGER_CONTROL, 1), Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_EVERY)),
            Message(mq.MQCMD_CHANGE_Q_MGR, (Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 321),)),
        ],
    ),
    "tpf": (
        "ZMQSC DEF QL-E2E.Q MAXDEPTH-300 PUT-DISABLED\n"
        "ZMQSC DEF QA-E2E.A TARGQ-E2E.Q\n"
        "ZMQSC ALT QL-E2E.Q TRIGGER TRIGTYPE-EVERY MAXDEPTH-0 SWEEP-OFF\n",
        [
            create("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 300), Integer(mq.MQIA_INHIBIT_PUT, 1)),
            create("E2E.A", mq.MQQT_ALIAS, String(mq.MQCA_BASE_OBJECT_NAME, "E2E.Q")),
            change("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_TRIGGER_CONTROL, 1), Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_EVERY),
                   Integer(mq.MQIA_MAX_Q_DEPTH, 999_999_999), String(mq.MQCA_CUSTOM, "SWEEP(OFF)")),
        ],
    ),
    "ibmi": (
        "CRTMQMQ QNAME(E2E.Q) QTYPE(*LCL) MAXDEPTH(300) PUTENBL(*NO) TEXT('end to end')\n"
        "CRTMQMQ QNAME(E2E.A) QTYPE(*ALS) TGTQNAME(E2E.Q)\n"
        "CHGMQMQ QNAME(E2E.Q) TRGENBL(*YES) TRGTYPE(*ALL)\n"
        "CHGMQM MAXUMSG(321)\n",
        [
            create("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 300), Integer(mq.MQIA_INHIBIT_PUT, 1), String(mq.MQCA_Q_DESC, "end to end")),
            create("E2E.A", mq.MQQT_ALIAS, String(mq.MQCA_BASE_OBJECT_NAME, "E2E.Q")),
            change("E2E.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_TRIGGER_CONTROL, 1), Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_EVERY)),
            Message(mq.MQCMD_CHANGE_Q_MGR, (Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 321),)),
        ],
    ),
}


async def test_each_language_changes_the_registry_as_its_pcf_does(nursery: trio.Nursery, tmp_path: object) -> None:
    for dialect, (script, pcf) in EQUIVALENTS.items():
        by_script, by_pcf = await start(nursery), await start(nursery)
        path = f"{tmp_path}/{dialect}.txt"
        with open(path, "w") as handle:
            handle.write(script)
        code, out, err = await cli("console", "--port", str(by_script), "--dialect", dialect, path)
        assert (code, err) == (0, ""), out
        await run_pcf(by_pcf, pcf)
        assert await snapshot(by_script) == await snapshot(by_pcf), dialect


SETUP = """\
ALTER QMGR MAXUMSGS(777) DESCR('dumped qmgr')
ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(1234)
DEFINE QLOCAL(ORDERS) DESCR('It''s the orders') MAXDEPTH(5000) PUT(DISABLED) NOSHARE TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(5)
DEFINE QLOCAL('lower.case') CUSTOM('SWEEP(OFF)') BOQNAME(ORDERS) BOTHRESH(2)
DEFINE QLOCAL(PLAIN)
DEFINE QMODEL(MODEL.Q) DEFTYPE(PERMDYN) MAXDEPTH(10)
DEFINE QALIAS(ORDERS.ALIAS) TARGET(ORDERS) DEFPSIST(YES)
DEFINE QREMOTE(REMOTE.Q) RNAME(THEIRS) RQMNAME(QM2) XMITQ(QM2.XMIT)
ALTER PROCESS(SYSTEM.DEFAULT.PROCESS) ENVRDATA('SITE=1')
DEFINE PROCESS(ORDERS.PROCESS) APPLICID('/opt/orders/serve') USERDATA('POOL=2')
DEFINE NAMELIST(ORDERS.CLUSTERS) NAMES(CL.ONE,CL.TWO) DESCR('clusters')
"""


async def test_dump_then_console_recreates_the_registry(nursery: trio.Nursery) -> None:
    for dialect, extra in (("mqsc", "DEFINE QLOCAL(CAPPED) CAPEXPRY(300)\n"), ("ibmi", "")):
        source, fresh = await start(nursery), await start(nursery)
        code, out, err = await cli("console", "--port", str(source), stdin=SETUP + extra)
        assert (code, err) == (0, ""), out
        code, script, err = await cli("dump", "--port", str(source), "--dialect", dialect)
        assert (code, err) == (0, "")
        assert ("DEFINE QLOCAL('ORDERS')" if dialect == "mqsc" else "CRTMQMQ +") in script
        console_dialect = "mqsc" if dialect == "mqsc" else "ibmi"
        code, out, err = await cli("console", "--port", str(fresh), "--dialect", console_dialect, stdin=script)
        assert (code, err) == (0, ""), out
        if dialect == "ibmi":  # processes and namelists in their own CL commands, not comments
            assert "CRTMQMPRC +\n  PRCNAME('ORDERS.PROCESS') +\n  APPID('/opt/orders/serve') +\n  USRDATA('POOL=2') +\n" in script
            assert "CRTMQMNL +\n  NAMELIST('ORDERS.CLUSTERS') +\n" in script and "DEFINE PROCESS" not in script
        assert await snapshot(fresh) == await snapshot(source), dialect


async def test_dump_all_writes_every_attribute(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    _, changed_only, _ = await cli("dump", "--port", str(port))
    _, everything, _ = await cli("dump", "--port", str(port), "--all")
    assert "MAXDEPTH(5000)" not in changed_only and "MAXDEPTH(5000)" in everything
    objects = len(await snapshot(port)) - 1  # the queues and the default objects of every other kind
    assert everything.splitlines().count("   REPLACE") == changed_only.splitlines().count("   REPLACE") == objects
    assert "ALTER QMGR +" in everything and "ALTER QMGR" not in changed_only


async def test_cl_dump_names_what_cl_cannot_say(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    await cli("console", "--port", str(port), stdin="DEFINE QLOCAL(CAPPED) CAPEXPRY(300)\n")
    code, script, _ = await cli("dump", "--port", str(port), "--dialect", "ibmi")
    assert code == 0
    assert "/* MQIA_CAP_EXPIRY=300 has no CL keyword: not set */" in script


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_no_server_is_exit_20_for_console_and_1_for_dump() -> None:
    port = _closed_port()
    code, out, err = await cli("console", "--port", str(port), stdin="DEFINE QLOCAL(A)\n")
    assert out == "5724-H72 (C) Copyright IBM Corp. 1994, 2025.\nAMQ8146E: IBM MQ queue manager not available.\n"
    assert code == 20 and "cannot connect" in err
    code, out, err = await cli("dump", "--port", str(port))
    assert (code, out) == (1, "") and "cannot connect" in err


def test_console_usage() -> None:
    done = subprocess.run([sys.executable, "-m", "pcfserver", "console", "--dialect", "cobol"], capture_output=True, check=False)
    assert done.returncode == 2 and b"invalid choice" in done.stderr


async def test_text_latin_1_cannot_hold_is_the_command_s_failure_not_a_lost_server(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    script = "DEFINE QLOCAL(EURO) DESCR('5€')\nDEFINE QLOCAL(CITY) DESCR('Zürich')\nDIS QL(CITY) DESCR\n"
    code, out, _ = await cli("console", "--port", str(port), stdin=script)
    lines = out.splitlines()
    assert lines[5] == "AMQ8101S: IBM MQ error (C9D) has occurred. Reason 3229 MQRCCF_PARM_VALUE_ERROR for DESCR."
    assert "   DESCR(Zürich)" in lines and code == 10
