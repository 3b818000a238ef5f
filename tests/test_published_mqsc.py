"""Commands that published MQSC configurations and checklists use and pcfserver once answered wrongly (minimal
reproductions, not the files): ALTER QMGR CCSID(1208), a configuration's first line on many UTF-8 queue managers, was
a syntax error; a DEFINE SUB whose DEST queue does not exist named the subscription as the missing object; DIS QMGR
EVENT, what a security checklist runs, was a syntax error."""

from __future__ import annotations

from pathlib import Path

from engine_support import command, reason, run_json

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, String
from pcfserver.dialects import ibmi, mqsc, render_command
from pcfserver.dialects.dump import dump
from pcfserver.dialects.outcome import Context
from pcfserver.engine import open_engine


def test_alter_qmgr_ccsid_is_shown_at_once_and_converts_from_the_next_start(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    assert "CCSID" not in dump(engine.execute)  # a new queue manager's 819 is not a change
    assert mqsc.run("alter qmgr force ccsid(1208)", engine.execute).lines == ["AMQ8005I: IBM MQ queue manager changed."]
    assert mqsc.run("DISPLAY QMGR CCSID", engine.execute).lines[1].split() == ["QMNAME(QM1)", "CCSID(1208)"]
    assert engine.ccsid == 819  # running, it keeps answering in the CCSID it started with
    assert "   CCSID(1208)" in dump(engine.execute).splitlines()  # a dump recreates it elsewhere
    engine.close()
    again = open_engine(tmp_path)
    assert again.ccsid == 1208
    [answer] = again.execute(command(mq.MQCMD_INQUIRE_Q_MGR))
    name = answer.get(mq.MQCA_Q_MGR_NAME)
    assert isinstance(name, String) and name.ccsid == 1208
    again.close()


def test_a_cyrillic_queue_manager_from_a_published_script_converts_in_its_ccsid(tmp_path: Path) -> None:
    """A published DMZ set-up (tsoyroma/321, create_objects_dmz.mqsc) begins ``alter qmgr force ccsid(866)``: refused with
    3049, as were 1251, 915, 912 and 923, because only twelve CCSIDs were known.  The single-byte sets IBM MQ converts
    and Python has a codec for are rows of formats/ccsids.tsv now."""
    engine = open_engine(tmp_path)
    for value in (866, 1251, 915, 912, 923, 5348, 878):
        assert mqsc.run(f"ALTER QMGR CCSID({value})", engine.execute).lines == ["AMQ8005I: IBM MQ queue manager changed."], value
    assert mqsc.run("alter qmgr force ccsid(866)", engine.execute).lines == ["AMQ8005I: IBM MQ queue manager changed."]
    engine.close()
    again = open_engine(tmp_path)
    assert again.ccsid == 866
    assert mqsc.run("DEFINE QLOCAL(RU.Q) DESCR('Очередь')", again.execute).lines == ["AMQ8006I: IBM MQ queue created."]
    [answer] = again.execute(command(mq.MQCMD_INQUIRE_Q, String(mq.MQCA_Q_NAME, "RU.Q")))
    descr = answer.get(mq.MQCA_Q_DESC)
    assert isinstance(descr, String) and descr.value.rstrip() == "Очередь" and descr.ccsid == 866
    again.close()


def test_a_ccsid_the_queue_manager_cannot_convert_is_refused_and_changes_nothing() -> None:
    engine = open_engine(None)
    for value in (4321, 0, 70000):
        lines = mqsc.run(f"ALTER QMGR CCSID({value})", engine.execute).lines
        assert lines == ["AMQ8101S: IBM MQ error (BE9) has occurred. Reason 3049 MQRCCF_CCSID_ERROR for CCSID."]
    change = command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_CODED_CHAR_SET_ID, 4321), String(mq.MQCA_Q_MGR_DESC, "kept?"))
    assert reason(engine.execute(change)) == mq.MQRCCF_CCSID_ERROR
    shown = mqsc.run("DISPLAY QMGR CCSID DESCR", engine.execute).lines
    assert "CCSID(819)" in " ".join(shown) and "DESCR( )" in " ".join(shown)
    assert ibmi.run("CHGMQM CCSID(1208)", engine.execute, Context("QM1")).lines[0].startswith("AMQ8005")


def test_a_subscription_whose_destination_is_missing_names_the_queue() -> None:
    engine = open_engine(None)
    assert mqsc.run("DEFINE SUB('S1') TOPICSTR('A/B') DEST('NO.SUCH.Q')", engine.execute).lines == [
        "AMQ8147E: IBM MQ object NO.SUCH.Q not found."
    ]
    assert mqsc.run("DEFINE SUB('S2') TOPICOBJ(NO.TOPIC) DEST(SYSTEM.DEFAULT.LOCAL.QUEUE)", engine.execute).lines == [
        "AMQ8147E: IBM MQ object NO.TOPIC not found."
    ]
    # the object the command names, when it is the one missing
    assert mqsc.run("ALTER QLOCAL(NOPE) MAXDEPTH(1)", engine.execute).lines == ["AMQ8147E: IBM MQ object NOPE not found."]


def test_display_qmgr_event_lists_the_event_switches_a_compliance_check_reads() -> None:
    """Security checklists for MQ (DISA's MQ Appliance STIG) run DIS QMGR EVENT and read AUTHOREV, INHIBTEV, STRSTPEV, CMDEV,
    SSLEV, CONFIGEV, PERFMEV from it; it was a syntax error.  The groups are IBM's DISPLAY QMGR words, each a PCF group
    selector (MQIACF_Q_MGR_EVENT, ...) whose attributes are qmgr-attributes.tsv's group column."""
    engine = open_engine(None)
    assert mqsc.run("ALTER QMGR AUTHOREV(ENABLED) CONFIGEV(ENABLED)", engine.execute).lines == ["AMQ8005I: IBM MQ queue manager changed."]
    lines = mqsc.run("DIS QMGR EVENT", engine.execute).lines
    shown = " ".join(lines[1:]).split()
    assert shown == [
        "QMNAME(QM1)", "AUTHOREV(ENABLED)", "CHLEV(DISABLED)", "CMDEV(DISABLED)", "CONFIGEV(ENABLED)", "INHIBTEV(DISABLED)",
        "LOCALEV(DISABLED)", "LOGGEREV(DISABLED)", "PERFMEV(DISABLED)", "REMOTEEV(DISABLED)", "SSLEV(DISABLED)", "STRSTPEV(ENABLED)",
    ]
    both = " ".join(mqsc.run("DISPLAY QMGR PUBSUB DESCR", engine.execute).lines)
    assert "PSMODE(ENABLED)" in both and "TREELIFE(1800)" in both and "DESCR( )" in both and "AUTHOREV" not in both
    assert mqsc.run("DISPLAY QMGR EVENT EVENT", engine.execute).lines[0].startswith("AMQ8405I")
    # the PCF group selector, and the command written back as MQSC
    [answer] = engine.execute(command(mq.MQCMD_INQUIRE_Q_MGR, IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIACF_Q_MGR_EVENT,))))
    assert answer.int_value(mq.MQIA_AUTHORITY_EVENT) == mq.MQEVR_ENABLED and answer.get(mq.MQCA_Q_MGR_DESC) is None
    assert render_command(mqsc.parse("DIS QMGR SYSTEM CHINIT CLUSTER").message) == "DISPLAY QMGR SYSTEM CHINIT CLUSTER"
    # runCommandJSON with responseParameters ["event"], as a REST client asks it
    reply = run_json(engine, command="DISPLAY", qualifier="QMGR", responseParameters=["event"])
    assert reply["commandResponse"][0]["parameters"]["authorev"] == "ENABLED"


def test_display_clusqmgr_takes_channel_and_display_channel_filters_on_chltype() -> None:
    """IBM's Ansible collection asks DISPLAY CLUSQMGR(MQ07) CHANNEL(TO.MQ07) (a syntax error here before); IBM's DISPLAY
    CHANNEL allows WHERE on CHLTYPE unless CHLTYPE (TYPE) also selects the channels."""
    engine = open_engine(None)
    assert mqsc.run("DISPLAY CLUSQMGR('MQ07') CHANNEL('TO.MQ07')", engine.execute).lines == ["AMQ8147E: IBM MQ object MQ07 not found."]
    assert render_command(mqsc.parse("DIS CLUSQMGR(*) CHANNEL(TO.*) CLUSTER(C1)").message) == "DISPLAY CLUSQMGR(*) CHANNEL(TO.*) CLUSTER(C1)"
    lines = mqsc.run("DISPLAY CHANNEL(*) WHERE(CHLTYPE EQ SVRCONN)", engine.execute).lines
    assert [line.split()[0] for line in lines if "CHANNEL(" in line] == ["CHANNEL(SYSTEM.AUTO.SVRCONN)", "CHANNEL(SYSTEM.DEF.SVRCONN)"]
    assert mqsc.run("DISPLAY CHANNEL(*) TYPE(SDR) WHERE(CHLTYPE EQ SVRCONN)", engine.execute).lines[0].startswith("AMQ8405I")
