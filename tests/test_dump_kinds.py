"""dump writes every kind of object, authority records and channel authentication records, and a second queue manager
that runs the dump dumps the same (issue 18: "as dmpmqcfg -a does")."""

from __future__ import annotations

from pcfserver.dialects import run_script
from pcfserver.dialects.dump import dump
from pcfserver.dialects.script import ScriptCommand, read_script
from pcfserver.engine import open_engine
from pcfserver.kinds import kinds

SETUP = """\
DEFINE QLOCAL(DEV.QUEUE.1) MAXDEPTH(777)
DEFINE CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app') SHARECNV(1)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(DEV.QUEUE.1) COMPHDR(SYSTEM,NONE)
DEFINE LISTENER(DEV.LSTR) TRPTYPE(TCP) PORT(1415) CONTROL(QMGR)
DEFINE SERVICE(DEV.SVC) STARTCMD('/bin/true') DESCR('a service')
DEFINE AUTHINFO(DEV.AUTHINFO) AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) ADOPTCTX(YES)
DEFINE COMMINFO(DEV.COMMINFO) GRPADDR('239.1.2.3')
DEFINE TOPIC(DEV.TOPIC) TOPICSTR('dev/topic') PUB(DISABLED)
DEFINE PROCESS(DEV.PROC) APPLICID('/bin/true')
DEFINE NAMELIST(DEV.NL) NAMES(DEV.QUEUE.1,DEV.QUEUE.2)
SET AUTHREC PROFILE('DEV.**') GROUP('APPLREADADMINS') OBJTYPE(QUEUE) AUTHADD(BROWSE,INQ)
SET AUTHREC PROFILE('DEV.**') GROUP('mqclient') OBJTYPE(TOPIC) AUTHADD(PUB,SUB)
SET AUTHREC PROFILE('DEV.AUTHINFO') GROUP('mqm') OBJTYPE(AUTHINFO) AUTHADD(CHG,DLT,DSP,INQ)
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT(REQUIRED) ACTION(REPLACE)
"""


def _dump(engine: object) -> str:
    return dump(engine.execute, qmgr_name="QM1", now=lambda: "then")  # type: ignore[attr-defined]


def test_a_dump_recreates_every_kind_and_record() -> None:
    source = open_engine(None)
    made = run_script(SETUP, source.execute)
    assert made.exit_code == 0, made.text
    script = _dump(source)
    for noun in {k.noun for k in kinds()}:
        assert f"DEFINE {noun}(" in script, noun
    assert "GROUP('APPLREADADMINS')" in script and "AUTHADD(PUB,SUB)" in script
    assert "SET CHLAUTH('DEV.APP.SVRCONN')" in script and "COMPHDR(SYSTEM,NONE)" in script
    copy = open_engine(None)
    replayed = run_script(script, copy.execute)
    assert replayed.exit_code == 0, replayed.text
    assert _dump(copy) == script


def test_a_queue_manager_grant_replays_onto_a_queue_manager_of_another_name() -> None:
    """A helper dumped QM1 with SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') and replayed the dump onto QM2: it wrote
    PROFILE('QM1'), which QM2 took as a record for a name nobody connects to, and app could not connect to QM2.  The
    dump now leaves PROFILE out for the queue manager's own records (IBM allows it for OBJTYPE(QMGR))."""
    source = open_engine(None, qmgr="QM1")
    assert run_script("SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT,INQ)", source.execute).exit_code == 0
    script = dump(source.execute, qmgr_name="QM1", now=lambda: "then")
    [command] = [e.text for e in read_script(script.splitlines()) if isinstance(e, ScriptCommand) and "OBJTYPE(QMGR)" in e.text]
    assert command.startswith("SET AUTHREC") and "PROFILE" not in command and "PRINCIPAL('app')" in command
    other = open_engine(None, qmgr="QM2")
    assert run_script(script, other.execute).exit_code == 0
    shown = run_script("DISPLAY ENTAUTH PRINCIPAL('app') OBJTYPE(QMGR)", other.execute).text
    assert "CONNECT" in shown and "INQ" in shown, shown


def test_the_header_says_replace_keeps_messages() -> None:
    assert "REPLACE sets each object as written and keeps the messages on a queue." in _dump(open_engine(None))
