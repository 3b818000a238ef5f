"""IBM i CL: every CHGMQMQ keyword and special value of seed 003, by keyword and by position; the sibling commands."""

from __future__ import annotations

import pytest

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, Message, Parameter, String
from pcfserver.dialects import ibmi
from pcfserver.dialects.outcome import Context
from pcfserver.dialects.tables import ibmi_parameters
from tests.dialect_support import Recorder, queue_names, refusing

CONTEXT = Context("QM1")
QUEUES = {"LQ": "*LCL", "MQ": "*MDL", "AQ": "*ALS", "RQ": "*RMT"}


def run(execute: Recorder, text: str) -> list[str]:
    return ibmi.run(text, execute, CONTEXT).lines


@pytest.fixture
def execute() -> Recorder:
    recorder = Recorder()
    for name, kind in QUEUES.items():
        extra = " TGTQNAME(LQ)" if kind == "*ALS" else ""
        assert run(recorder, f"CRTMQMQ QNAME({name}) QTYPE({kind}){extra}") == ["AMQ8006: IBM MQ queue created."]
    # CLCHNAME needs a transmission queue (MQRCCF_CLUS_XMIT_Q_USAGE_ERROR otherwise)
    assert run(recorder, "CRTMQMQ QNAME(XQ) QTYPE(*LCL) USAGE(*TMQ)") == ["AMQ8006: IBM MQ queue created."]
    return recorder


def I(parameter: int, value: int) -> Integer:  # noqa: E743
    return Integer(parameter, value)


def S(parameter: int, value: str) -> String:
    return String(parameter, value)


# (queue, keyword(value), the PCF attribute it becomes; None = nothing sent: *SAME)
CHGMQMQ = [
    ("LQ", "TEXT('Pay roll')", S(mq.MQCA_Q_DESC, "Pay roll")),
    ("LQ", "TEXT(*BLANK)", S(mq.MQCA_Q_DESC, "")),
    ("LQ", "TEXT(*SAME)", None),
    # inverted: PUTENBL(*YES) = put allowed
    ("LQ", "PUTENBL(*YES)", I(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_ALLOWED)),
    ("LQ", "PUTENBL(*NO)", I(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_INHIBITED)),
    ("LQ", "PUTENBL(*SAME)", None),
    ("LQ", "DFTPTY(7)", I(mq.MQIA_DEF_PRIORITY, 7)),
    ("LQ", "DFTPTY(*SAME)", None),
    ("LQ", "DFTMSGPST(*YES)", I(mq.MQIA_DEF_PERSISTENCE, mq.MQPER_PERSISTENT)),
    ("LQ", "DFTMSGPST(*NO)", I(mq.MQIA_DEF_PERSISTENCE, mq.MQPER_NOT_PERSISTENT)),
    ("LQ", "PRCNAME('my.proc')", S(mq.MQCA_PROCESS_NAME, "my.proc")),
    ("LQ", "PRCNAME(*NONE)", S(mq.MQCA_PROCESS_NAME, "")),
    ("LQ", "TRGENBL(*YES)", I(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_ON)),
    ("LQ", "TRGENBL(*NO)", I(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_OFF)),
    ("LQ", "GETENBL(*YES)", I(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_ALLOWED)),
    ("LQ", "GETENBL(*NO)", I(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_INHIBITED)),
    ("LQ", "SHARE(*NO)", I(mq.MQIA_SHAREABILITY, mq.MQQA_NOT_SHAREABLE)),
    ("LQ", "SHARE(*YES)", I(mq.MQIA_SHAREABILITY, mq.MQQA_SHAREABLE)),
    ("LQ", "DFTSHARE(*NO)", I(mq.MQIA_DEF_INPUT_OPEN_OPTION, mq.MQOO_INPUT_EXCLUSIVE)),
    ("LQ", "DFTSHARE(*YES)", I(mq.MQIA_DEF_INPUT_OPEN_OPTION, mq.MQOO_INPUT_SHARED)),
    ("LQ", "MSGDLYSEQ(*PTY)", I(mq.MQIA_MSG_DELIVERY_SEQUENCE, mq.MQMDS_PRIORITY)),
    ("LQ", "MSGDLYSEQ(*FIFO)", I(mq.MQIA_MSG_DELIVERY_SEQUENCE, mq.MQMDS_FIFO)),
    ("LQ", "HDNBKTCNT(*YES)", I(mq.MQIA_HARDEN_GET_BACKOUT, mq.MQQA_BACKOUT_HARDENED)),
    ("LQ", "HDNBKTCNT(*NO)", I(mq.MQIA_HARDEN_GET_BACKOUT, mq.MQQA_BACKOUT_NOT_HARDENED)),
    ("LQ", "TRGTYPE(*FIRST)", I(mq.MQIA_TRIGGER_TYPE, mq.MQTT_FIRST)),
    ("LQ", "TRGTYPE(*ALL)", I(mq.MQIA_TRIGGER_TYPE, mq.MQTT_EVERY)),  # *ALL is EVERY
    ("LQ", "TRGTYPE(*DEPTH)", I(mq.MQIA_TRIGGER_TYPE, mq.MQTT_DEPTH)),
    ("LQ", "TRGTYPE(*NONE)", I(mq.MQIA_TRIGGER_TYPE, mq.MQTT_NONE)),
    ("LQ", "TRGDEPTH(12)", I(mq.MQIA_TRIGGER_DEPTH, 12)),
    ("LQ", "TRGMSGPTY(3)", I(mq.MQIA_TRIGGER_MSG_PRIORITY, 3)),
    ("LQ", "TRGDATA('go')", S(mq.MQCA_TRIGGER_DATA, "go")),
    ("LQ", "TRGDATA(*NONE)", S(mq.MQCA_TRIGGER_DATA, "")),
    ("LQ", "RTNITV(48)", I(mq.MQIA_RETENTION_INTERVAL, 48)),
    ("LQ", "MAXDEPTH(999999999)", I(mq.MQIA_MAX_Q_DEPTH, 999_999_999)),
    ("LQ", "MAXDEPTH(0)", I(mq.MQIA_MAX_Q_DEPTH, 0)),
    ("LQ", "MAXMSGLEN(104857600)", I(mq.MQIA_MAX_MSG_LENGTH, 104_857_600)),
    ("LQ", "BKTTHLD(3)", I(mq.MQIA_BACKOUT_THRESHOLD, 3)),
    ("LQ", "BKTQNAME(BACK.Q)", S(mq.MQCA_BACKOUT_REQ_Q_NAME, "BACK.Q")),
    ("LQ", "BKTQNAME(*NONE)", S(mq.MQCA_BACKOUT_REQ_Q_NAME, "")),
    ("LQ", "INITQNAME(INIT.Q)", S(mq.MQCA_INITIATION_Q_NAME, "INIT.Q")),
    ("LQ", "INITQNAME(*NONE)", S(mq.MQCA_INITIATION_Q_NAME, "")),
    ("LQ", "USAGE(*TMQ)", I(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION)),
    ("LQ", "USAGE(*NORMAL)", I(mq.MQIA_USAGE, mq.MQUS_NORMAL)),
    ("MQ", "DFNTYPE(*PERMDYN)", I(mq.MQIA_DEFINITION_TYPE, mq.MQQDT_PERMANENT_DYNAMIC)),
    ("MQ", "DFNTYPE(*TEMPDYN)", I(mq.MQIA_DEFINITION_TYPE, mq.MQQDT_TEMPORARY_DYNAMIC)),
    ("AQ", "TGTQNAME(OTHER.Q)", S(mq.MQCA_BASE_OBJECT_NAME, "OTHER.Q")),
    ("RQ", "RMTQNAME('Their.Q')", S(mq.MQCA_REMOTE_Q_NAME, "Their.Q")),
    ("RQ", "RMTQNAME(*NONE)", S(mq.MQCA_REMOTE_Q_NAME, "")),
    ("RQ", "RMTMQMNAME(QM2)", S(mq.MQCA_REMOTE_Q_MGR_NAME, "QM2")),
    ("RQ", "TMQNAME(QM2.XMIT)", S(mq.MQCA_XMIT_Q_NAME, "QM2.XMIT")),
    ("RQ", "TMQNAME(*NONE)", S(mq.MQCA_XMIT_Q_NAME, "")),
    ("LQ", "HIGHTHLD(90)", I(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 90)),
    ("LQ", "LOWTHLD(5)", I(mq.MQIA_Q_DEPTH_LOW_LIMIT, 5)),
    ("LQ", "FULLEVT(*NO)", I(mq.MQIA_Q_DEPTH_MAX_EVENT, mq.MQEVR_DISABLED)),
    ("LQ", "FULLEVT(*YES)", I(mq.MQIA_Q_DEPTH_MAX_EVENT, mq.MQEVR_ENABLED)),
    ("LQ", "HIGHEVT(*YES)", I(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_ENABLED)),
    ("LQ", "HIGHEVT(*NO)", I(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_DISABLED)),
    ("LQ", "LOWEVT(*YES)", I(mq.MQIA_Q_DEPTH_LOW_EVENT, mq.MQEVR_ENABLED)),
    ("LQ", "LOWEVT(*NO)", I(mq.MQIA_Q_DEPTH_LOW_EVENT, mq.MQEVR_DISABLED)),
    ("LQ", "SRVITV(2500)", I(mq.MQIA_Q_SERVICE_INTERVAL, 2500)),
    ("LQ", "SRVEVT(*HIGH)", I(mq.MQIA_Q_SERVICE_INTERVAL_EVENT, mq.MQQSIE_HIGH)),
    ("LQ", "SRVEVT(*OK)", I(mq.MQIA_Q_SERVICE_INTERVAL_EVENT, mq.MQQSIE_OK)),
    ("LQ", "SRVEVT(*NONE)", I(mq.MQIA_Q_SERVICE_INTERVAL_EVENT, mq.MQQSIE_NONE)),
    ("LQ", "DISTLIST(*YES)", I(mq.MQIA_DIST_LISTS, mq.MQDL_SUPPORTED)),
    ("LQ", "DISTLIST(*NO)", I(mq.MQIA_DIST_LISTS, mq.MQDL_NOT_SUPPORTED)),
    ("LQ", "CLUSTER(CL1)", S(mq.MQCA_CLUSTER_NAME, "CL1")),
    ("LQ", "CLUSTER(*NONE)", S(mq.MQCA_CLUSTER_NAME, "")),
    ("LQ", "CLUSNL(NL1)", S(mq.MQCA_CLUSTER_NAMELIST, "NL1")),
    ("LQ", "CLUSNL(*NONE)", S(mq.MQCA_CLUSTER_NAMELIST, "")),
    ("LQ", "DEFBIND(*OPEN)", I(mq.MQIA_DEF_BIND, mq.MQBND_BIND_ON_OPEN)),
    ("LQ", "DEFBIND(*NOTFIXED)", I(mq.MQIA_DEF_BIND, mq.MQBND_BIND_NOT_FIXED)),
    ("LQ", "DEFBIND(*GROUP)", I(mq.MQIA_DEF_BIND, mq.MQBND_BIND_ON_GROUP)),
    ("LQ", "CLWLRANK(4)", I(mq.MQIA_CLWL_Q_RANK, 4)),
    ("LQ", "CLWLPRTY(6)", I(mq.MQIA_CLWL_Q_PRIORITY, 6)),
    ("LQ", "CLWLUSEQ(*QMGR)", I(mq.MQIA_CLWL_USEQ, mq.MQCLWL_USEQ_AS_Q_MGR)),
    ("LQ", "CLWLUSEQ(*LOCAL)", I(mq.MQIA_CLWL_USEQ, mq.MQCLWL_USEQ_LOCAL)),
    ("LQ", "CLWLUSEQ(*ANY)", I(mq.MQIA_CLWL_USEQ, mq.MQCLWL_USEQ_ANY)),
    ("LQ", "MONQ(*QMGR)", I(mq.MQIA_MONITORING_Q, mq.MQMON_Q_MGR)),
    ("LQ", "MONQ(*OFF)", I(mq.MQIA_MONITORING_Q, mq.MQMON_OFF)),
    ("LQ", "MONQ(*LOW)", I(mq.MQIA_MONITORING_Q, mq.MQMON_LOW)),
    ("LQ", "MONQ(*MEDIUM)", I(mq.MQIA_MONITORING_Q, mq.MQMON_MEDIUM)),
    ("LQ", "MONQ(*HIGH)", I(mq.MQIA_MONITORING_Q, mq.MQMON_HIGH)),
    ("LQ", "STATQ(*QMGR)", I(mq.MQIA_STATISTICS_Q, mq.MQMON_Q_MGR)),
    ("LQ", "STATQ(*OFF)", I(mq.MQIA_STATISTICS_Q, mq.MQMON_OFF)),
    ("LQ", "STATQ(*ON)", I(mq.MQIA_STATISTICS_Q, mq.MQMON_ON)),
    ("LQ", "ACCTQ(*QMGR)", I(mq.MQIA_ACCOUNTING_Q, mq.MQMON_Q_MGR)),
    ("LQ", "ACCTQ(*OFF)", I(mq.MQIA_ACCOUNTING_Q, mq.MQMON_OFF)),
    ("LQ", "ACCTQ(*ON)", I(mq.MQIA_ACCOUNTING_Q, mq.MQMON_ON)),
    ("LQ", "NPMCLASS(*NORMAL)", I(mq.MQIA_NPM_CLASS, mq.MQNPM_CLASS_NORMAL)),
    ("LQ", "NPMCLASS(*HIGH)", I(mq.MQIA_NPM_CLASS, mq.MQNPM_CLASS_HIGH)),
    ("LQ", "MSGREADAHD(*DISABLED)", I(mq.MQIA_DEF_READ_AHEAD, mq.MQREADA_DISABLED)),
    ("LQ", "MSGREADAHD(*NO)", I(mq.MQIA_DEF_READ_AHEAD, mq.MQREADA_NO)),
    ("LQ", "MSGREADAHD(*YES)", I(mq.MQIA_DEF_READ_AHEAD, mq.MQREADA_YES)),
    ("LQ", "DFTPUTRESP(*SYNC)", I(mq.MQIA_DEF_PUT_RESPONSE_TYPE, mq.MQPRT_SYNC_RESPONSE)),
    ("LQ", "DFTPUTRESP(*ASYNC)", I(mq.MQIA_DEF_PUT_RESPONSE_TYPE, mq.MQPRT_ASYNC_RESPONSE)),
    ("LQ", "PROPCTL(*COMPAT)", I(mq.MQIA_PROPERTY_CONTROL, mq.MQPROP_COMPATIBILITY)),
    ("LQ", "PROPCTL(*NONE)", I(mq.MQIA_PROPERTY_CONTROL, mq.MQPROP_NONE)),
    ("LQ", "PROPCTL(*ALL)", I(mq.MQIA_PROPERTY_CONTROL, mq.MQPROP_ALL)),
    ("LQ", "PROPCTL(*FORCE)", I(mq.MQIA_PROPERTY_CONTROL, mq.MQPROP_FORCE_MQRFH2)),
    ("LQ", "PROPCTL(*V6COMPAT)", I(mq.MQIA_PROPERTY_CONTROL, mq.MQPROP_V6COMPAT)),
    ("AQ", "TARGTYPE(*QUEUE)", I(mq.MQIA_BASE_TYPE, mq.MQOT_Q)),
    ("AQ", "TARGTYPE(*TOPIC)", I(mq.MQIA_BASE_TYPE, mq.MQOT_TOPIC)),
    ("LQ", "CUSTOM('OWNER(PAY)')", S(mq.MQCA_CUSTOM, "OWNER(PAY)")),
    ("LQ", "CUSTOM(*BLANK)", S(mq.MQCA_CUSTOM, "")),
    ("XQ", "CLCHNAME('TO.*')", S(mq.MQCA_CLUS_CHL_NAME, "TO.*")),
    ("XQ", "CLCHNAME(*NONE)", S(mq.MQCA_CLUS_CHL_NAME, "")),
    ("LQ", "IMGRCOVQ(*NO)", I(mq.MQIA_MEDIA_IMAGE_RECOVER_Q, mq.MQIMGRCOV_NO)),
    ("LQ", "IMGRCOVQ(*YES)", I(mq.MQIA_MEDIA_IMAGE_RECOVER_Q, mq.MQIMGRCOV_YES)),
    ("LQ", "IMGRCOVQ(*QMGR)", I(mq.MQIA_MEDIA_IMAGE_RECOVER_Q, mq.MQIMGRCOV_AS_Q_MGR)),
]
TYPES = {"LQ": mq.MQQT_LOCAL, "XQ": mq.MQQT_LOCAL, "MQ": mq.MQQT_MODEL, "AQ": mq.MQQT_ALIAS, "RQ": mq.MQQT_REMOTE}


def test_every_chgmqmq_attribute_keyword_is_in_the_table() -> None:
    keywords = {p.keyword for p in ibmi_parameters()["CHGMQMQ"]} - {"QNAME", "MQMNAME", "QTYPE", "FORCE"}
    assert keywords == {text.split("(")[0] for _, text, _ in CHGMQMQ}


@pytest.mark.parametrize(("queue", "text", "expected"), CHGMQMQ, ids=[t for _, t, _ in CHGMQMQ])
def test_every_chgmqmq_keyword_and_special_value(execute: Recorder, queue: str, text: str, expected: Parameter | None) -> None:
    before = dict(execute.queue(queue))
    assert run(execute, f"CHGMQMQ QNAME({queue}) {text}") == ["AMQ8008: IBM MQ queue changed."]
    inquiry, change = execute.sent[-2:]
    assert inquiry.command == mq.MQCMD_INQUIRE_Q  # no QTYPE: the queue's type was asked for
    head = (String(mq.MQCA_Q_NAME, queue), Integer(mq.MQIA_Q_TYPE, TYPES[queue]))
    assert change.parameters == (*head, *([expected] if expected else []))
    after = execute.queue(queue)
    if expected is None:
        assert after == before
    else:
        assert isinstance(expected, (Integer, String))
        assert after[expected.parameter] == expected.value


def test_qtype_given_sends_no_inquiry_and_must_match(execute: Recorder) -> None:
    sent = len(execute.sent)
    assert run(execute, "CHGMQMQ QNAME(LQ) QTYPE(*LCL) MAXDEPTH(3)") == ["AMQ8008: IBM MQ queue changed."]
    assert [m.command for m in execute.sent[sent:]] == [mq.MQCMD_CHANGE_Q]
    assert run(execute, "CHGMQMQ QNAME(LQ) QTYPE(*ALS) TEXT(X)") == [
        "AMQ8101: IBM MQ error (FA2) has occurred. Reason 4002 MQRCCF_OBJECT_WRONG_TYPE."
    ]


def test_by_position(execute: Recorder) -> None:
    # QNAME 1, MQMNAME 2, QTYPE 3, FORCE 4, TEXT 5, PUTENBL 6, DFTPTY 7 (seed 003)
    assert run(execute, "CHGMQMQ 'LQ' *DFT *LCL *YES 'By position' *NO 4") == ["AMQ8008: IBM MQ queue changed."]
    assert execute.sent[-1].parameters == (
        String(mq.MQCA_Q_NAME, "LQ"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), Integer(mq.MQIACF_FORCE, mq.MQFC_YES),
        String(mq.MQCA_Q_DESC, "By position"), Integer(mq.MQIA_INHIBIT_PUT, 1), Integer(mq.MQIA_DEF_PRIORITY, 4),
    )
    # every position up to CLCHNAME (55); *SAME leaves the rest alone
    assert run(execute, "CHGMQMQ QNAME(LQ) USAGE(*TMQ)") == ["AMQ8008: IBM MQ queue changed."]  # CLCHNAME needs XMITQ
    values = ["LQ", "*DFT", "*LCL", "*NO"] + ["*SAME"] * 50 + ["'SEND.*'"]
    assert run(execute, "CHGMQMQ " + " ".join(values)) == ["AMQ8008: IBM MQ queue changed."]
    assert execute.queue("LQ")[mq.MQCA_CLUS_CHL_NAME] == "SEND.*"
    assert execute.queue("LQ")[mq.MQCA_Q_DESC] == "By position"


def test_mqmname_must_name_this_queue_manager(execute: Recorder) -> None:
    assert run(execute, "CHGMQMQ QNAME(LQ) MQMNAME(QM1) MAXDEPTH(4)") == ["AMQ8008: IBM MQ queue changed."]
    assert run(execute, "CHGMQMQ QNAME(LQ) MQMNAME(*DFT) MAXDEPTH(4)") == ["AMQ8008: IBM MQ queue changed."]
    sent = len(execute.sent)
    assert run(execute, "CHGMQMQ QNAME(LQ) MQMNAME(QM9) MAXDEPTH(5)") == [
        "AMQ8118: IBM MQ queue manager does not exist. Reason 2058 MQRC_Q_MGR_NAME_ERROR."
    ]
    assert execute.sent[sent:] == []


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("CHGMQMQ QNAME(LQ) NOSUCH(1)", ["CPD0043: Keyword NOSUCH not valid for this command.", "CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) NOSUCH"]),
        ("CHGMQMQ MAXDEPTH(1)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ MAXDEPTH(1)"]),
        ("CHGMQMQ QNAME(LQ) PUTENBL(*MAYBE)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) PUTENBL(*MAYBE"]),
        ("CHGMQMQ QNAME(LQ) MAXDEPTH(lots)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) MAXDEPTH(lots"]),
        ("CHGMQMQ QNAME(LQ) QTYPE(*ALL)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) QTYPE(*ALL"]),
        ("CHGMQMQ QNAME(LQ) 'late'", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) 'late'"]),
        ("CHGMQMQ QNAME(LQ) TEXT(*SYSDFTQ)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) TEXT(*SYSDFTQ"]),
        ("CHGMQMQ QNAME(LQ) TEXT(A) TEXT(B)", ["CPF0001: Error found on CHGMQMQ command.", "  CHGMQMQ QNAME(LQ) TEXT(A) TEXT(B)"]),
        ("CRTMQMQ QNAME(X)", ["CPF0001: Error found on CRTMQMQ command.", "  CRTMQMQ QNAME(X)"]),
        ("DLTMQQ QNAME(X)", ["CPD0030: Command DLTMQQ in library *LIBL not found.", "CPF0001: Error found on DLTMQQ command.", "  DLTMQQ"]),
    ],
)
def test_command_errors(execute: Recorder, text: str, lines: list[str]) -> None:
    sent = len(execute.sent)
    outcome = ibmi.run(text, execute, CONTEXT)
    assert (outcome.status, outcome.lines) == ("syntax", lines)
    assert execute.sent[sent:] == []


def test_crtmqmq_sysdftq_and_replace(execute: Recorder) -> None:
    execute(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "SYSTEM.DEFAULT.LOCAL.QUEUE"), Integer(mq.MQIA_Q_TYPE, 1), Integer(mq.MQIA_MAX_Q_DEPTH, 777))))
    assert run(execute, "CRTMQMQ QNAME(NEWQ) QTYPE(*LCL) MAXDEPTH(*SYSDFTQ) TEXT('new')") == ["AMQ8006: IBM MQ queue created."]
    assert execute.sent[-1].parameters == (String(mq.MQCA_Q_NAME, "NEWQ"), Integer(mq.MQIA_Q_TYPE, 1), String(mq.MQCA_Q_DESC, "new"))
    assert execute.queue("NEWQ")[mq.MQIA_MAX_Q_DEPTH] == 777
    assert run(execute, "CRTMQMQ QNAME(NEWQ) QTYPE(*LCL)") == ["AMQ8150: IBM MQ object already exists. Reason 4001 MQRCCF_OBJECT_ALREADY_EXISTS."]
    assert run(execute, "CRTMQMQ 'NEWQ' *LCL *DFT *YES") == ["AMQ8006: IBM MQ queue created."]
    assert execute.queue("NEWQ")[mq.MQCA_Q_DESC] == ""


def test_cpymqmq_asks_for_the_type_and_same_copies(execute: Recorder) -> None:
    run(execute, "CHGMQMQ QNAME(AQ) PUTENBL(*NO)")
    assert run(execute, "CPYMQMQ FROMQ(AQ) TOQ(AQ2) PUTENBL(*SAME) TEXT('copy')") == ["AMQ8006: IBM MQ queue created."]
    inquiry, copy = execute.sent[-2:]
    assert inquiry.command == mq.MQCMD_INQUIRE_Q
    assert copy.parameters == (
        String(mq.MQCACF_FROM_Q_NAME, "AQ"), String(mq.MQCACF_TO_Q_NAME, "AQ2"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_ALIAS), String(mq.MQCA_Q_DESC, "copy"),
    )
    assert execute.queue("AQ2")[mq.MQIA_INHIBIT_PUT] == mq.MQQA_PUT_INHIBITED
    assert run(execute, "CPYMQMQ FROMQ(NONE) TOQ(X)") == ["AMQ8147: IBM MQ object NONE not found. Reason 2085 MQRC_UNKNOWN_OBJECT_NAME."]


def test_dltmqmq_clrmqmq_need_an_empty_closed_queue(execute: Recorder) -> None:
    full = refusing(execute, mq.MQCMD_DELETE_Q, mq.MQRC_Q_NOT_EMPTY)
    assert ibmi.run("DLTMQMQ QNAME(LQ)", full, CONTEXT).lines == ["AMQ8143: IBM MQ queue not empty. Reason 2055 MQRC_Q_NOT_EMPTY."]
    in_use = refusing(execute, mq.MQCMD_CLEAR_Q, mq.MQRCCF_OBJECT_OPEN)
    assert ibmi.run("CLRMQMQ QNAME(LQ)", in_use, CONTEXT).lines == ["AMQ8148: IBM MQ object in use. Reason 4004 MQRCCF_OBJECT_OPEN."]
    assert run(execute, "CLRMQMQ LQ") == ["AMQ8022: IBM MQ queue cleared."]
    assert run(execute, "DLTMQMQ 'LQ' *DFT") == ["AMQ8007: IBM MQ queue deleted."]
    assert execute.sent[-1].parameters == (String(mq.MQCA_Q_NAME, "LQ"),)
    assert "LQ" not in queue_names(execute)


def test_dspmqmq(execute: Recorder) -> None:
    run(execute, "CHGMQMQ QNAME(LQ) PUTENBL(*NO) TEXT('Shown') MAXDEPTH(42)")
    lines = run(execute, "DSPMQMQ QNAME(LQ) OUTPUT(*PRINT)")
    assert lines[:5] == ["AMQ8409: Display Queue details.", "  QNAME      LQ", "  QTYPE      *LCL", "  TEXT       Shown", "  PUTENBL    *NO"]
    assert "  MAXDEPTH   42" in lines and "  TRGTYPE    *FIRST" in lines and "  PRCNAME    *NONE" in lines


def test_wrkmqmq_lists_with_where(execute: Recorder) -> None:
    run(execute, "CHGMQMQ QNAME(LQ) MAXDEPTH(10)")
    assert run(execute, "WRKMQMQ QNAME(*ALL) QTYPE(*LCL) WHERE(*MAXDEPTH *LT 100)") == [
        "Queue name                                         Type",
        "LQ                                                 *LCL",
    ]
    assert execute.sent[-1].parameters[-1] == IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_LESS, 10 * 10)
    assert run(execute, "WRKMQMQ 'NOTHING*'") == ["Queue name                                         Type"]
    assert [line.split()[0] for line in run(execute, "WRKMQMQ")[1:]] == queue_names(execute)
    assert run(execute, "WRKMQMQ WHERE(*PUTENBL *EQ *NO)")[1:] == []


def test_chgmqm(execute: Recorder) -> None:
    assert run(execute, "CHGMQM MAXUMSG(2500) TEXT('Queue manager') MAXMSGL(*SAME)") == ["AMQ8005: IBM MQ queue manager changed."]
    assert execute.sent[-1].parameters == (Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 2500), String(mq.MQCA_Q_MGR_DESC, "Queue manager"))
    assert run(execute, "CHGMQM *DFT *NO *SAME 60000") == ["AMQ8005: IBM MQ queue manager changed."]
    assert execute.sent[-1].parameters == (Integer(mq.MQIACF_FORCE, mq.MQFC_NO), Integer(mq.MQIA_TRIGGER_INTERVAL, 60000))
    assert run(execute, "CHGMQM MAXUMSG(0)") == ["AMQ8101: IBM MQ error (C9D) has occurred. Reason 3229 MQRCCF_PARM_VALUE_ERROR for MAXUMSG."]
    assert ibmi.run("CHGMQM NOSUCHKWD(*YES)", execute, CONTEXT).lines[0] == "CPD0043: Keyword NOSUCHKWD not valid for this command."
