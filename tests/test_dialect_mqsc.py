"""MQSC: the PCF each command becomes, its syntax errors, and runmqsc's lines for PCF answers."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, String, StringFilter, StringList
from pcfserver.dialects import CommandSyntaxError, UnknownCommandError, mqsc, parse_command, render_answer, render_command
from pcfserver.dialects.mqsc import layout
from pcfserver.dialects.script import ScriptCommand, read_script
from pcfserver.engine import responses
from tests.dialect_support import Recorder


def pcf(code: int, *params: object, version: int = 1) -> Message:
    return Message(code, tuple(params), version=version)  # type: ignore[arg-type]


def name(value: str) -> String:
    return String(mq.MQCA_Q_NAME, value)


def qtype(value: int) -> Integer:
    return Integer(mq.MQIA_Q_TYPE, value)


LOCAL, MODEL, ALIAS, REMOTE = mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE
CREATE, CHANGE, DELETE, INQUIRE = mq.MQCMD_CREATE_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_DELETE_Q, mq.MQCMD_INQUIRE_Q
NAME_TYPE = IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE))


def shown(filtered: int) -> IntegerList:
    """What DISPLAY Q(*) WHERE(...) asks for: QUEUE and TYPE, and the attribute the filter tests (runmqsc shows it)."""
    return IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE, filtered))

PARSED = [
    # verbs, nouns and their fixed synonyms (round2 §5.1; IBM: DEF QR, DEF QM, ALT QR, DELETE QM)
    ("DEFINE QLOCAL(A)", pcf(CREATE, name("A"), qtype(LOCAL))),
    ("DEF QL(A)", pcf(CREATE, name("A"), qtype(LOCAL))),
    ("def qm(A)", pcf(CREATE, name("A"), qtype(MODEL))),
    ("DEF QA(A) TARGET(B)", pcf(CREATE, name("A"), qtype(ALIAS), String(mq.MQCA_BASE_OBJECT_NAME, "B"))),
    ("DEF QA(A) TARGQ(B)", pcf(CREATE, name("A"), qtype(ALIAS), String(mq.MQCA_BASE_OBJECT_NAME, "B"))),
    ("DEF QR(R) RNAME(X) RQMNAME(QM2) XMITQ(QM2)", pcf(CREATE, name("R"), qtype(REMOTE), String(mq.MQCA_REMOTE_Q_NAME, "X"), String(mq.MQCA_REMOTE_Q_MGR_NAME, "QM2"), String(mq.MQCA_XMIT_Q_NAME, "QM2"))),
    ("ALT QL(A) MAXDEPTH(10)", pcf(CHANGE, name("A"), qtype(LOCAL), Integer(mq.MQIA_MAX_Q_DEPTH, 10))),
    ("ALT QR(R) XMITQ(' ')", pcf(CHANGE, name("R"), qtype(REMOTE), String(mq.MQCA_XMIT_Q_NAME, " "))),
    ("DELETE QLOCAL(A)", pcf(DELETE, name("A"), qtype(LOCAL))),
    ("DELETE QM(A)", pcf(DELETE, name("A"), qtype(MODEL))),
    ("CLEAR QL(A)", pcf(mq.MQCMD_CLEAR_Q, name("A"))),
    # quoting and case: unquoted names are folded, quoted ones kept; '' is a quote
    ("define qlocal(app.q) descr('It''s mine')", pcf(CREATE, name("APP.Q"), qtype(LOCAL), String(mq.MQCA_Q_DESC, "It's mine"))),
    ("DEFINE QLOCAL('app.q')", pcf(CREATE, name("app.q"), qtype(LOCAL))),
    ("ALTER QLOCAL ('Account' ) TRIGDPTH ( 1)", pcf(CHANGE, name("Account"), qtype(LOCAL), Integer(mq.MQIA_TRIGGER_DEPTH, 1))),
    # value words, flags and their NO-forms
    ("DEF QL(A) PUT(DISABLED) GET(ENABLED) DEFPSIST(YES) DEFSOPT(EXCL) MSGDLVSQ(FIFO) USAGE(XMITQ)", pcf(
        CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIA_INHIBIT_PUT, 1), Integer(mq.MQIA_INHIBIT_GET, 0), Integer(mq.MQIA_DEF_PERSISTENCE, 1),
        Integer(mq.MQIA_DEF_INPUT_OPEN_OPTION, mq.MQOO_INPUT_EXCLUSIVE), Integer(mq.MQIA_MSG_DELIVERY_SEQUENCE, mq.MQMDS_FIFO), Integer(mq.MQIA_USAGE, 1))),
    ("DEF QL(A) TRIGGER NOSHARE HARDENBO", pcf(CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIA_TRIGGER_CONTROL, 1), Integer(mq.MQIA_SHAREABILITY, 0), Integer(mq.MQIA_HARDEN_GET_BACKOUT, 1))),
    ("DEF QL(A) NOTRIGGER SHARE NOHARDENBO", pcf(CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIA_TRIGGER_CONTROL, 0), Integer(mq.MQIA_SHAREABILITY, 1), Integer(mq.MQIA_HARDEN_GET_BACKOUT, 0))),
    ("DEF QL(A) TRIGTYPE(DEPTH) CAPEXPRY(NOLIMIT) MAXFSIZE(DEFAULT) MONQ(HIGH) ACCTQ(QMGR)", pcf(
        CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIA_TRIGGER_TYPE, 3), Integer(mq.MQIA_CAP_EXPIRY, -1), Integer(mq.MQIA_MAX_Q_FILE_SIZE, -1),
        Integer(mq.MQIA_MONITORING_Q, 65), Integer(mq.MQIA_ACCOUNTING_Q, -3))),
    ("DEF QL(A) CAPEXPRY(300) NPMCLASS(HIGH) IMGRCOVQ(NO) DEFREADA(DISABLED) PROPCTL(V6COMPAT)", pcf(
        CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIA_CAP_EXPIRY, 300), Integer(mq.MQIA_NPM_CLASS, 10), Integer(mq.MQIA_MEDIA_IMAGE_RECOVER_Q, 0),
        Integer(mq.MQIA_DEF_READ_AHEAD, 2), Integer(mq.MQIA_PROPERTY_CONTROL, 4))),
    ("DEF QL(A) REPLACE", pcf(CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIACF_REPLACE, 1))),
    ("DEF QL(A) NOREPLACE", pcf(CREATE, name("A"), qtype(LOCAL), Integer(mq.MQIACF_REPLACE, 0))),
    ("DEF QL(B) LIKE(A) MAXDEPTH(5)", pcf(mq.MQCMD_COPY_Q, String(mq.MQCACF_FROM_Q_NAME, "A"), String(mq.MQCACF_TO_Q_NAME, "B"), qtype(LOCAL), Integer(mq.MQIA_MAX_Q_DEPTH, 5))),
    ("ALTER QL(A) FORCE SHARE", pcf(CHANGE, name("A"), qtype(LOCAL), Integer(mq.MQIACF_FORCE, 1), Integer(mq.MQIA_SHAREABILITY, 1))),
    ("DELETE QL(A) PURGE", pcf(DELETE, name("A"), qtype(LOCAL), Integer(mq.MQIACF_PURGE, 1))),
    ("DELETE QL(A) NOPURGE AUTHREC(NO)", pcf(DELETE, name("A"), qtype(LOCAL), Integer(mq.MQIACF_PURGE, 0), Integer(mq.MQIACF_REMOVE_AUTHREC, 0))),
    # DISPLAY: names, attributes, ALL, TYPE, WHERE (its attribute is shown too; with ALL, or named already, nothing is added)
    ("DIS Q(A*)", pcf(INQUIRE, name("A*"), NAME_TYPE)),
    ("DISPLAY QUEUE(A) ALL", pcf(INQUIRE, name("A"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)))),
    ("DIS QL(A) MAXDEPTH CURDEPTH", pcf(INQUIRE, name("A"), qtype(LOCAL), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH, mq.MQIA_CURRENT_Q_DEPTH)))),
    ("DIS Q(*) TYPE(QALIAS)", pcf(INQUIRE, name("*"), qtype(ALIAS), NAME_TYPE)),
    ("DIS Q(*) TYPE(ALL) CLUSINFO", pcf(INQUIRE, name("*"), qtype(mq.MQQT_ALL), NAME_TYPE, Integer(mq.MQIACF_CLUSTER_INFO, 1))),
    ("DIS QC(*)", pcf(INQUIRE, name("*"), qtype(mq.MQQT_CLUSTER), NAME_TYPE)),
    ("DIS Q(*) WHERE(CURDEPTH GT 10)", pcf(INQUIRE, name("*"), shown(mq.MQIA_CURRENT_Q_DEPTH), IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_GREATER, 10), version=3)),
    ("DIS Q(*) WHERE(MAXDEPTH LT 10)", pcf(INQUIRE, name("*"), shown(mq.MQIA_MAX_Q_DEPTH), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_LESS, 10), version=3)),
    ("DIS Q(*) WHERE(MAXDEPTH LE 10)", pcf(INQUIRE, name("*"), shown(mq.MQIA_MAX_Q_DEPTH), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_NOT_GREATER, 10), version=3)),
    ("DIS Q(*) WHERE(MAXDEPTH GE 10)", pcf(INQUIRE, name("*"), shown(mq.MQIA_MAX_Q_DEPTH), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_NOT_LESS, 10), version=3)),
    ("DIS Q(*) WHERE(PUT EQ DISABLED)", pcf(INQUIRE, name("*"), shown(mq.MQIA_INHIBIT_PUT), IntegerFilter(mq.MQIA_INHIBIT_PUT, mq.MQCFOP_EQUAL, 1), version=3)),
    ("DIS Q(*) WHERE(USAGE NE XMITQ)", pcf(INQUIRE, name("*"), shown(mq.MQIA_USAGE), IntegerFilter(mq.MQIA_USAGE, mq.MQCFOP_NOT_EQUAL, 1), version=3)),
    ("DIS Q(*) WHERE(DESCR LK 'Pay*')", pcf(INQUIRE, name("*"), shown(mq.MQCA_Q_DESC), StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "Pay*"), version=3)),
    ("DIS Q(*) WHERE(DESCR NL 'Pay*') ALL", pcf(INQUIRE, name("*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)), StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_NOT_LIKE, "Pay*"), version=3)),
    ("DIS QSTATUS(A)", pcf(mq.MQCMD_INQUIRE_Q_STATUS, name("A"), IntegerList(mq.MQIACF_Q_STATUS_ATTRS, (mq.MQIA_CURRENT_Q_DEPTH,)))),
    ("DIS QS(A*) TYPE(QUEUE) IPPROCS UNCOM", pcf(mq.MQCMD_INQUIRE_Q_STATUS, name("A*"), IntegerList(mq.MQIACF_Q_STATUS_ATTRS, (mq.MQIA_OPEN_INPUT_COUNT, mq.MQIACF_UNCOMMITTED_MSGS)), Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_STATUS))),
    ("DIS QMGR", pcf(mq.MQCMD_INQUIRE_Q_MGR)),
    ("DIS QMGR MAXUMSGS MAXMSGL", pcf(mq.MQCMD_INQUIRE_Q_MGR, IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIA_MAX_UNCOMMITTED_MSGS, mq.MQIA_MAX_MSG_LENGTH)))),
    ("ALTER QMGR MAXUMSGS(500) PERFMEV(ENABLED) FORCE", pcf(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 500), Integer(mq.MQIA_PERFORMANCE_EVENT, 1), Integer(mq.MQIACF_FORCE, 1))),
    ("PING QMGR", pcf(mq.MQCMD_PING_Q_MGR)),
    # MOVE QLOCAL (seed 000; round2 §1.1): source in the parentheses, TOQLOCAL required, TYPE default MOVE
    ("MOVE QLOCAL(SRC) TOQLOCAL(TGT)", pcf(mq.MQCMD_MOVE_Q, String(mq.MQCACF_FROM_Q_NAME, "SRC"), String(mq.MQCACF_TO_Q_NAME, "TGT"))),
    ("MOVE QL(SRC) TYPE(ADD) TOQLOCAL(TGT)", pcf(mq.MQCMD_MOVE_Q, String(mq.MQCACF_FROM_Q_NAME, "SRC"), String(mq.MQCACF_TO_Q_NAME, "TGT"), Integer(mq.MQIACF_MOVE_TYPE, mq.MQIACF_MOVE_TYPE_ADD))),
    ("MOVE QL(SRC) TOQLOCAL(TGT) TYPE(MOVE)", pcf(mq.MQCMD_MOVE_Q, String(mq.MQCACF_FROM_Q_NAME, "SRC"), String(mq.MQCACF_TO_Q_NAME, "TGT"), Integer(mq.MQIACF_MOVE_TYPE, mq.MQIACF_MOVE_TYPE_MOVE))),
    # processes (IBM DEFINE/ALTER/DELETE/DISPLAY PROCESS; synonym PRO)
    ("DEFINE PROCESS(P1) APPLTYPE(UNIX) APPLICID('/opt/app') ENVRDATA('LANG=C') USERDATA('u') DESCR('d')", pcf(
        mq.MQCMD_CREATE_PROCESS, String(mq.MQCA_PROCESS_NAME, "P1"), Integer(mq.MQIA_APPL_TYPE, mq.MQAT_UNIX), String(mq.MQCA_APPL_ID, "/opt/app"),
        String(mq.MQCA_ENV_DATA, "LANG=C"), String(mq.MQCA_USER_DATA, "u"), String(mq.MQCA_PROCESS_DESC, "d"))),
    ("DEF PRO(P2) LIKE(P1) APPLTYPE(65536) REPLACE", pcf(
        mq.MQCMD_COPY_PROCESS, String(mq.MQCACF_FROM_PROCESS_NAME, "P1"), String(mq.MQCACF_TO_PROCESS_NAME, "P2"), Integer(mq.MQIA_APPL_TYPE, 65536), Integer(mq.MQIACF_REPLACE, 1))),
    ("ALT PRO(P1) APPLTYPE(WINDOWSNT)", pcf(mq.MQCMD_CHANGE_PROCESS, String(mq.MQCA_PROCESS_NAME, "P1"), Integer(mq.MQIA_APPL_TYPE, mq.MQAT_WINDOWS_NT))),
    ("DELETE PROCESS(P1)", pcf(mq.MQCMD_DELETE_PROCESS, String(mq.MQCA_PROCESS_NAME, "P1"))),
    ("DIS PRO(*)", pcf(mq.MQCMD_INQUIRE_PROCESS, String(mq.MQCA_PROCESS_NAME, "*"))),
    ("DIS PROCESS(P*) APPLICID WHERE(APPLTYPE EQ CICS)", pcf(
        mq.MQCMD_INQUIRE_PROCESS, String(mq.MQCA_PROCESS_NAME, "P*"), IntegerList(mq.MQIACF_PROCESS_ATTRS, (mq.MQCA_APPL_ID, mq.MQIA_APPL_TYPE)),
        IntegerFilter(mq.MQIA_APPL_TYPE, mq.MQCFOP_EQUAL, mq.MQAT_CICS), version=3)),
    # namelists (synonym NL): NAMES takes a list, NAMES() an empty one
    ("DEFINE NAMELIST(NL1) NAMES(A,'b.c', D) DESCR('x')", pcf(
        mq.MQCMD_CREATE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "NL1"), StringList(mq.MQCA_NAMES, ("A", "b.c", "D")), String(mq.MQCA_NAMELIST_DESC, "x"))),
    ("DEF NL(NL2) LIKE(NL1)", pcf(mq.MQCMD_COPY_NAMELIST, String(mq.MQCACF_FROM_NAMELIST_NAME, "NL1"), String(mq.MQCACF_TO_NAMELIST_NAME, "NL2"))),
    ("ALTER NL(NL1) NAMES()", pcf(mq.MQCMD_CHANGE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "NL1"), StringList(mq.MQCA_NAMES, ()))),
    ("DELETE NAMELIST(NL1)", pcf(mq.MQCMD_DELETE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "NL1"))),
    # authority records (IBM SET/DELETE/DISPLAY AUTHREC on Multiplatforms): profile and type lead the PCF whatever the order typed
    ("SET AUTHREC OBJTYPE(QUEUE) PROFILE(APP.*) PRINCIPAL('alice') AUTHADD(PUT,GET,BROWSE) AUTHRMV(ALLADM)", pcf(
        mq.MQCMD_SET_AUTH_REC, String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.*"), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q),
        StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, ("alice",)), IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, (mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT, mq.MQAUTH_BROWSE)),
        IntegerList(mq.MQIACF_AUTH_REMOVE_AUTHS, (mq.MQAUTH_ALL_ADMIN,)))),
    ("SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ)", pcf(
        mq.MQCMD_SET_AUTH_REC, String(mq.MQCACF_AUTH_PROFILE_NAME, ""), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q_MGR),
        StringList(mq.MQCACF_GROUP_ENTITY_NAMES, ("apps",)), IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, (mq.MQAUTH_CONNECT, mq.MQAUTH_INQUIRE)))),
    ("DELETE AUTHREC PROFILE(APP.*) OBJTYPE(PROCESS) PRINCIPAL('alice')", pcf(
        mq.MQCMD_DELETE_AUTH_REC, String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.*"), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_PROCESS),
        StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, ("alice",)))),
    ("DISPLAY AUTHREC PROFILE(APP.ORDERS) OBJTYPE(QUEUE)", pcf(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_NAME_ALL_MATCHING | mq.MQAUTHOPT_ENTITY_EXPLICIT),
        String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.ORDERS"), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q))),
    ("DIS AUTHREC PROFILE(APP.*) MATCH(EXACT) GROUP('apps')", pcf(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT),
        String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.*"), String(mq.MQCACF_ENTITY_NAME, "apps"), Integer(mq.MQIACF_ENTITY_TYPE, mq.MQZAET_GROUP))),
    ("DIS AUTHREC PRINCIPAL('alice') MATCH(MEMBERSHIP)", pcf(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_NAME_AS_WILDCARD | mq.MQAUTHOPT_ENTITY_SET),
        String(mq.MQCACF_AUTH_PROFILE_NAME, "**"), String(mq.MQCACF_ENTITY_NAME, "alice"), Integer(mq.MQIACF_ENTITY_TYPE, mq.MQZAET_PRINCIPAL))),
    ("DIS NL(*) NAMCOUNT NAMES WHERE(NAMCOUNT GT 1)", pcf(
        mq.MQCMD_INQUIRE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "*"), IntegerList(mq.MQIACF_NAMELIST_ATTRS, (mq.MQIA_NAME_COUNT, mq.MQCA_NAMES)),
        IntegerFilter(mq.MQIA_NAME_COUNT, mq.MQCFOP_GREATER, 1), version=3)),
]


@pytest.mark.parametrize(("text", "expected"), PARSED, ids=[t for t, _ in PARSED])
def test_command_to_pcf(text: str, expected: Message) -> None:
    assert parse_command(text) == [expected]


@pytest.mark.parametrize(("text", "expected"), PARSED, ids=[t for t, _ in PARSED])
def test_pcf_renders_back_to_the_same_pcf(text: str, expected: Message) -> None:
    assert parse_command(render_command(expected)) == [expected]


SYNTAX = [
    ("DEFI QL(A)", "DEFI"),  # synonyms are fixed, not prefixes
    ("DEL QL(A)", "DEL"),  # DELETE has no synonym
    ("DEFINE QLOCAL(A) MAXDEPTH(", "DEFINE QLOCAL(A) MAXDEPTH("),
    ("DEFINE QLOCAL(A) MAXDEPTH()", "DEFINE QLOCAL(A) MAXDEPTH()"),
    ("DEFINE QLOCAL(A) MAXDEPTH(ten)", "DEFINE QLOCAL(A) MAXDEPTH(ten"),
    ("DEFINE QLOCAL(A) MAXDEPTH(1 2)", "DEFINE QLOCAL(A) MAXDEPTH(1 2)"),
    ("DEFINE QLOCAL(A) MAXDEPTH(99999999999)", "DEFINE QLOCAL(A) MAXDEPTH(99999999999"),
    ("DEFINE QLOCAL(A) PUT(YES)", "DEFINE QLOCAL(A) PUT(YES"),
    ("DEFINE QLOCAL(A) PUT(1)", "DEFINE QLOCAL(A) PUT(1"),
    ("DEFINE QLOCAL(A) REPLACE NOREPLACE", "DEFINE QLOCAL(A) REPLACE NOREPLACE"),  # a keyword with its NO-form
    ("DEFINE QLOCAL(A) MAXDEPTH(1) MAXDEPTH(2)", "DEFINE QLOCAL(A) MAXDEPTH(1) MAXDEPTH(2)"),  # repeated
    ("DEFINE QALIAS(A) MAXDEPTH(1)", "DEFINE QALIAS(A) MAXDEPTH(1)"),  # not an alias attribute
    ("DEFINE QLOCAL(A) CFSTRUCT(X)", "DEFINE QLOCAL(A) CFSTRUCT(X)"),  # z/OS only
    ("DEFINE QLOCAL(A) CURDEPTH(1)", "DEFINE QLOCAL(A) CURDEPTH(1)"),  # not settable
    ("DEFINE QLOCAL(A) TRIGGER(YES)", "DEFINE QLOCAL(A) TRIGGER(YES"),
    ("DEFINE QLOCAL(A) FORCE", "DEFINE QLOCAL(A) FORCE"),  # ALTER only
    ("ALTER QMODEL(A) FORCE", "ALTER QMODEL(A) FORCE"),  # not for model queues
    ("DELETE QALIAS(A) PURGE", "DELETE QALIAS(A) PURGE"),  # local queues only
    ("DEFINE QLOCAL", "DEFINE QLOCAL"),
    ("DEFINE QLOCAL()", "DEFINE QLOCAL()"),
    ("DEFINE QUEUE(A)", "DEFINE QUEUE"),
    ("DEFINE", "DEFINE"),
    ("DIS QL(A) TYPE(QLOCAL)", "DIS QL(A) TYPE(QLOCAL)"),  # do not combine DISPLAY QLOCAL with TYPE
    ("DIS Q(A) WHERE(PUT GT ENABLED)", "DIS Q(A) WHERE(PUT GT"),  # enumerated: EQ and NE only
    ("DIS Q(A) WHERE(MAXDEPTH LK 5)", "DIS Q(A) WHERE(MAXDEPTH LK"),  # LK compares strings
    ("DIS Q(A) WHERE(MAXDEPTH XX 5)", "DIS Q(A) WHERE(MAXDEPTH XX"),
    ("DIS Q(A) WHERE(MAXDEPTH GT)", "DIS Q(A) WHERE(MAXDEPTH GT)"),
    ("DIS Q(A) WHERE(NOSUCH GT 1)", "DIS Q(A) WHERE(NOSUCH"),
    ("DIS Q(A) MAXDEPTH MAXDEPTH", "DIS Q(A) MAXDEPTH MAXDEPTH"),
    ("DIS QMGR(X)", "DIS QMGR(X)"),
    ("MOVE QLOCAL(A)", "MOVE QLOCAL(A)"),  # TOQLOCAL is required
    ("MOVE QLOCAL(A) TOQLOCAL(B) TYPE(COPY)", "MOVE QLOCAL(A) TOQLOCAL(B) TYPE(COPY"),
    ("END NOW", "END NOW"),
    ("'DEFINE' QLOCAL(A)", "'DEFINE'"),
]


@pytest.mark.parametrize(("text", "segment"), SYNTAX, ids=[t for t, _ in SYNTAX])
def test_syntax_errors_name_the_segment(text: str, segment: str) -> None:
    with pytest.raises(CommandSyntaxError) as caught:
        parse_command(text)
    assert caught.value.segment == segment


def test_end_is_no_command() -> None:
    assert parse_command("END") == []
    assert parse_command("end") == []


def test_an_unknown_verb_lists_the_verbs() -> None:
    outcome = mqsc.run("FROB QL(A)", Recorder())
    assert outcome.status == "syntax"
    assert outcome.lines[:3] == [
        "AMQ8405I: Syntax error detected at or near end of command segment below:-",
        "FROB",
        "AMQ8426I: Valid MQSC commands are:",
    ]
    assert [line.strip() for line in outcome.lines[3:]] == [
        "ALTER", "CLEAR", "DEFINE", "DELETE", "DISPLAY", "END", "MOVE", "PING", "REFRESH", "RESET", "RESOLVE", "RESUME", "SET", "START", "STOP", "SUSPEND",
    ]
    with pytest.raises(UnknownCommandError):
        parse_command("FROB QL(A)")


# ---------------------------------------------------------------------------------- answers against the engine

RUN = [
    ("DEFINE QLOCAL(A)", ["AMQ8006I: IBM MQ queue created."], "ok"),
    ("DEFINE QLOCAL(A)", ["AMQ8150E: IBM MQ object already exists."], "failed"),
    ("DEFINE QLOCAL(A) REPLACE", ["AMQ8006I: IBM MQ queue created."], "ok"),
    ("DEFINE QLOCAL(B) LIKE(A)", ["AMQ8006I: IBM MQ queue created."], "ok"),
    ("ALTER QLOCAL(A) MAXDEPTH(7)", ["AMQ8008I: IBM MQ queue changed."], "ok"),
    ("ALTER QLOCAL(NONE) MAXDEPTH(7)", ["AMQ8147E: IBM MQ object NONE not found."], "failed"),
    ("CLEAR QLOCAL(A)", ["AMQ8022I: IBM MQ queue cleared."], "ok"),
    # a failure IBM gives no AMQ text for still names the MQRC: wrong type (4002), bad value (3229)
    ("ALTER QALIAS(A) PUT(DISABLED)", ["AMQ8101S: IBM MQ error (FA2) has occurred. Reason 4002 MQRCCF_OBJECT_WRONG_TYPE."], "failed"),
    ("ALTER QLOCAL(A) MAXDEPTH(-5)", ["AMQ8101S: IBM MQ error (C9D) has occurred. Reason 3229 MQRCCF_PARM_VALUE_ERROR for MAXDEPTH."], "failed"),
    ("DELETE QLOCAL(B)", ["AMQ8007I: IBM MQ queue deleted."], "ok"),
    ("ALTER QMGR MAXUMSGS(200)", ["AMQ8005I: IBM MQ queue manager changed."], "ok"),
    ("PING QMGR", ["AMQ8415I: Ping Queue Manager command complete."], "ok"),
    ("DIS QL(A) MAXDEPTH", ["AMQ8409I: Display Queue details.", "   QUEUE(A)                                TYPE(QLOCAL)", "   MAXDEPTH(7)"], "ok"),
    ("DIS Q(NOTHING*)", ["AMQ8147E: IBM MQ object NOTHING* not found."], "failed"),
    ("DIS QMGR MAXUMSGS", ["AMQ8408I: Display Queue Manager details.", "   QMNAME(QM1)                             MAXUMSGS(200)"], "ok"),
]


OBJECTS = [
    ("DEFINE PROCESS(APP.PROC) APPLICID('/opt/app/bin/serve') USERDATA('POOL=2')", ["AMQ8010I: IBM MQ process created."], "ok"),
    ("DEFINE PROCESS(APP.PROC)", ["AMQ8150E: IBM MQ object already exists."], "failed"),
    ("DEF PRO(APP.COPY) LIKE(APP.PROC) DESCR('copy')", ["AMQ8010I: IBM MQ process created."], "ok"),
    ("DEF PRO(APP.COPY2) LIKE(NONE)", ["AMQ8147E: IBM MQ object NONE not found."], "failed"),
    ("ALTER PROCESS(APP.PROC) APPLTYPE(WINDOWSNT)", ["AMQ8012I: IBM MQ process changed."], "ok"),
    ("ALTER PROCESS(GONE) APPLTYPE(UNIX)", ["AMQ8147E: IBM MQ object GONE not found."], "failed"),
    ("DIS PRO(APP.*) APPLTYPE", [
        "AMQ8407I: Display Process details.", "   PROCESS(APP.COPY)                       APPLTYPE(UNIX)",
        "AMQ8407I: Display Process details.", "   PROCESS(APP.PROC)                       APPLTYPE(WINDOWSNT)"], "ok"),
    ("DIS PRO(APP.PROC) APPLICID USERDATA DESCR", [
        "AMQ8407I: Display Process details.", "   PROCESS(APP.PROC)                       DESCR( )", "   APPLICID(/opt/app/bin/serve)            USERDATA(POOL=2)"], "ok"),
    ("DELETE PROCESS(APP.COPY)", ["AMQ8011I: IBM MQ process deleted."], "ok"),
    ("DEFINE NAMELIST(CLUSTERS) NAMES(CL.ONE,CL.TWO,CL.THREE)", ["AMQ8552I: IBM MQ namelist created."], "ok"),
    ("DIS NL(CLUSTERS) NAMCOUNT NAMES", [
        "AMQ8550I: Display namelist details.", "   NAMELIST(CLUSTERS)                      NAMCOUNT(3)",
        "   NAMES(CL.ONE", "        ,CL.TWO", "        ,CL.THREE)"], "ok"),
    ("ALTER NAMELIST(CLUSTERS) NAMES(ONLY)", ["AMQ8551I: IBM MQ namelist changed."], "ok"),
    ("DIS NL(CLUSTERS) NAMES DESCR", ["AMQ8550I: Display namelist details.", "   NAMELIST(CLUSTERS)                      NAMES(ONLY)", "   DESCR( )"], "ok"),
    ("ALTER NAMELIST(CLUSTERS) NAMES('not a name')", ["AMQ8101S: IBM MQ error (FA8) has occurred. Reason 4008 MQRCCF_OBJECT_NAME_ERROR for NAMES."], "failed"),
    ("DELETE NAMELIST(CLUSTERS)", ["AMQ8553I: IBM MQ namelist deleted."], "ok"),
    ("DIS NL(CLUSTERS)", ["AMQ8147E: IBM MQ object CLUSTERS not found."], "failed"),
]


def test_processes_and_namelists_in_runmqsc_lines() -> None:
    execute = Recorder()
    for text, lines, status in OBJECTS:
        outcome = mqsc.run(text, execute)
        assert (outcome.lines, outcome.status) == (lines, status), text


def test_display_namelist_shows_every_attribute_in_runmqscs_order() -> None:
    execute = Recorder()
    # (a new queue manager holds IBM's namelist of that name: REPLACE gives it a shorter DESCR)
    outcome = mqsc.run(
        "DEFINE NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES(SYSTEM.BROKER.DEFAULT.STREAM,SYSTEM.BROKER.ADMIN.STREAM) DESCR('A list of queues') REPLACE", execute
    )
    assert outcome.status == "ok", outcome.lines
    lines = mqsc.run("DISPLAY NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)", execute).lines
    # runmqsc 9.1: NAMELIST, NAMCOUNT, NAMES (one name a line, continued under the parenthesis), DESCR, ALTDATE, ALTTIME;
    # the pairs two to a line follow this server's layout (runmqsc put NAMELIST and NAMCOUNT on lines of their own there)
    assert lines[:5] == [
        "AMQ8550I: Display namelist details.",
        "   NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMCOUNT(2)",
        "   NAMES(SYSTEM.BROKER.DEFAULT.STREAM",
        "        ,SYSTEM.BROKER.ADMIN.STREAM)",
        "   DESCR(A list of queues)                 ALTDATE(" + lines[4][51:61] + ")",
    ]
    assert lines[5].startswith("   ALTTIME(") and len(lines) == 6


AUTHRECS = [
    ("SET AUTHREC PROFILE(APP.*) OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT,GET,BROWSE,INQ,DSP)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    # ALLMQI on a queue: the MQI authorities a queue takes (ALTUSR and CONNECT are the queue manager's)
    ("SET AUTHREC PROFILE(APP.ORDERS) OBJTYPE(QUEUE) GROUP('apps') AUTHADD(ALLMQI)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    ("SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    # MATCH(PROFILE), the default: every profile that covers the name
    ("DISPLAY AUTHREC PROFILE(APP.ORDERS) OBJTYPE(QUEUE)", [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(APP.*)                          ENTITY(alice)",
        "   ENTTYPE(PRINCIPAL)                      OBJTYPE(QUEUE)",
        "   AUTHLIST(BROWSE,DSP,GET,INQ,PUT)",
        "AMQ8864I: Display authority record details.",
        "   PROFILE(APP.ORDERS)                     ENTITY(apps)",
        "   ENTTYPE(GROUP)                          OBJTYPE(QUEUE)",
        "   AUTHLIST(BROWSE,GET,INQ,PUT,PASSALL,PASSID,SET,SETALL,SETID)",
    ], "ok"),
    ("DIS AUTHREC PROFILE(APP.ORDERS) MATCH(EXACT)", [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(APP.ORDERS)                     ENTITY(apps)",
        "   ENTTYPE(GROUP)                          OBJTYPE(QUEUE)",
        "   AUTHLIST(BROWSE,GET,INQ,PUT,PASSALL,PASSID,SET,SETALL,SETID)",
    ], "ok"),
    # no PROFILE: every record of the entity; OBJTYPE(QMGR) without PROFILE is the queue manager's own
    ("SET AUTHREC PROFILE(APP.*) OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHRMV(BROWSE,DSP)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    ("DIS AUTHREC PRINCIPAL('alice') ALL", [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(APP.*)                          ENTITY(alice)",
        "   ENTTYPE(PRINCIPAL)                      OBJTYPE(QUEUE)",
        "   AUTHLIST(GET,INQ,PUT)",
        "AMQ8864I: Display authority record details.",
        "   PROFILE(QM1)                            ENTITY(alice)",
        "   ENTTYPE(PRINCIPAL)                      OBJTYPE(QMGR)",
        "   AUTHLIST(CONNECT)",
    ], "ok"),
    ("DELETE AUTHREC PROFILE(APP.ORDERS) OBJTYPE(QUEUE) GROUP('apps')", ["AMQ8863I: IBM MQ authority record deleted."], "ok"),
    ("DELETE AUTHREC PROFILE(APP.ORDERS) OBJTYPE(QUEUE) GROUP('apps')", ["AMQ8101S: IBM MQ error (8F4) has occurred. Reason 2292 MQRC_UNKNOWN_ENTITY."], "failed"),
    # every Multiplatforms OBJTYPE, each with the authorities it takes: PUT is not a channel's
    ("SET AUTHREC PROFILE(X) OBJTYPE(CHANNEL) PRINCIPAL('bob') AUTHADD(PUT)", ["AMQ8101S: IBM MQ error (C63) has occurred. Reason 3171 MQRCCF_AUTH_VALUE_ERROR."], "failed"),
    ("SET AUTHREC PROFILE(X) OBJTYPE(CHANNEL) PRINCIPAL('bob') AUTHADD(CTRL,CTRLX)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    ("SET AUTHREC PROFILE('DEV.**') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(PUB,SUB)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    ("SET AUTHREC PROFILE('SYSTEM.DEFAULT.AUTHINFO.IDPWOS') OBJTYPE(AUTHINFO) GROUP('APPLREADADMINS') AUTHADD(DSP,INQ)", ["AMQ8862I: IBM MQ authority record set."], "ok"),
    ("DISPLAY AUTHREC PROFILE('DEV.**') OBJTYPE(TOPIC)", [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(DEV.**)                         ENTITY(app)",
        "   ENTTYPE(PRINCIPAL)                      OBJTYPE(TOPIC)",
        "   AUTHLIST(PUB,SUB)",
    ], "ok"),
    ("DISPLAY AUTHREC OBJTYPE(AUTHINFO)", [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) ENTITY(APPLREADADMINS)",
        "   ENTTYPE(GROUP)                          OBJTYPE(AUTHINFO)",
        "   AUTHLIST(DSP,INQ)",
    ], "ok"),
    ("SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) AUTHADD(PUT)", ["AMQ8101S: IBM MQ error (C61) has occurred. Reason 3169 MQRCCF_ENTITY_NAME_MISSING."], "failed"),
]


def test_authority_records_in_runmqsc_lines() -> None:
    execute = Recorder()
    for text, lines, status in AUTHRECS:
        outcome = mqsc.run(text, execute)
        assert (outcome.lines, outcome.status) == (lines, status), text


@pytest.mark.parametrize(
    ("text", "segment"),
    [
        ("SET AUTHREC PROFILE(X) PRINCIPAL('u') AUTHADD(PUT)", "SET AUTHREC PROFILE(X) PRINCIPAL('u') AUTHADD(PUT)"),  # OBJTYPE is required
        ("SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(FLY)", "SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(FLY"),
        ("SET AUTHREC PROFILE(X) OBJTYPE(BOAT) PRINCIPAL('u')", "SET AUTHREC PROFILE(X) OBJTYPE(BOAT"),
        ("SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) MATCH(EXACT)", "SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) MATCH(EXACT)"),
        ("DIS AUTHREC PRINCIPAL('u') GROUP('g')", "DIS AUTHREC PRINCIPAL('u') GROUP('g')"),
        ("DIS AUTHREC PROFILE(A) PROFILE(B)", "DIS AUTHREC PROFILE(A) PROFILE(B)"),
    ],
)
def test_authrec_syntax_errors(text: str, segment: str) -> None:
    with pytest.raises(CommandSyntaxError) as caught:
        parse_command(text)
    assert caught.value.segment == segment


def test_a_command_refused_for_authority_shows_amq8135e() -> None:
    from pcfserver.engine import open_engine
    from pcfserver.engine.authority import Identity

    engine = open_engine(None)
    mqsc.run("SET AUTHREC PROFILE(APP.*) OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(DSP)", engine.execute)

    def as_alice(command: Message) -> list[Message]:
        return engine.execute(command, Identity("alice"))

    assert mqsc.run("DEFINE QLOCAL(APP.NEW)", as_alice).lines == ["AMQ8135E: Not authorized."]
    assert mqsc.run("DEFINE PROCESS(APP.NEW)", as_alice).lines == ["AMQ8135E: Not authorized."]
    assert mqsc.run("SET AUTHREC PROFILE(APP.*) OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(ALL)", as_alice).lines == ["AMQ8135E: Not authorized."]
    assert mqsc.run("DIS Q(APP.*)", as_alice).status == "failed"  # nothing to display (generic inquiries filter)
    mqsc.run("DEFINE QLOCAL(APP.ONE)", engine.execute)
    assert mqsc.run("DIS Q(APP.*)", as_alice).lines[1] == "   QUEUE(APP.ONE)                          TYPE(QLOCAL)"


def test_answers_in_runmqsc_lines() -> None:
    execute = Recorder()
    for text, lines, status in RUN:
        outcome = mqsc.run(text, execute)
        assert (outcome.lines, outcome.status) == (lines, status), text


def test_display_shows_flags_bare_blank_strings_as_a_blank_and_sorts_after_name_and_type() -> None:
    execute = Recorder()
    mqsc.run("DEFINE QLOCAL(SORTED) NOTRIGGER NOSHARE", execute)
    outcome = mqsc.run("DIS QL(SORTED) TRIGGER SHARE DESCR PUT MAXDEPTH", execute)
    assert outcome.lines == [
        "AMQ8409I: Display Queue details.",
        "   QUEUE(SORTED)                           TYPE(QLOCAL)",
        "   DESCR( )                                MAXDEPTH(5000)",
        "   NOSHARE                                 NOTRIGGER",
        "   PUT(ENABLED)",
    ]


def test_a_name_too_wide_for_its_slot_pushes_its_partner_to_the_next_line() -> None:
    # runmqsc: QUEUE(SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE) then TYPE(QMODEL) under the second slot
    assert layout(["QUEUE(SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE)", "TYPE(QMODEL)", "DESCR( )"]) == [
        "   QUEUE(SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE)",
        "                                           TYPE(QMODEL)",
        "   DESCR( )",
    ]
    assert layout(["QUEUE(A2345678901234567890123456789012)", "TYPE(QLOCAL)"]) == ["   QUEUE(A2345678901234567890123456789012) TYPE(QLOCAL)"]


# ---------------------------------------------------------------------------------- answers built by hand

STATUS = parse_command("DIS QSTATUS(ORDERS) ALL")[0]


def status_response(**values: object) -> Message:
    params = (
        String(mq.MQCA_Q_NAME, "ORDERS".ljust(48)),
        Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_STATUS),
        Integer(mq.MQIA_CURRENT_Q_DEPTH, 3),
        Integer(mq.MQIA_OPEN_INPUT_COUNT, 1),
        Integer(mq.MQIA_OPEN_OUTPUT_COUNT, 2),
        Integer(mq.MQIACF_UNCOMMITTED_MSGS, 0),
        String(mq.MQCACF_LAST_GET_DATE, "".ljust(12)),
        String(mq.MQCACF_LAST_GET_TIME, "".ljust(8)),
        String(mq.MQCACF_LAST_PUT_DATE, "2025-01-02".ljust(12)),
        String(mq.MQCACF_LAST_PUT_TIME, "10.11.12"),
        Integer(mq.MQIACF_OLDEST_MSG_AGE, values.get("age", -1)),  # type: ignore[arg-type]
        IntegerList(mq.MQIACF_Q_TIME_INDICATOR, values.get("qtime", (-1, -1))),  # type: ignore[arg-type]
        Integer(mq.MQIA_MONITORING_Q, mq.MQMON_OFF),
    )
    return responses.ok_response(STATUS, params)


def test_display_qstatus_renders_the_status_rows() -> None:
    outcome = render_answer(STATUS, responses.numbered([status_response()]))
    assert outcome.status == "ok"
    assert outcome.lines == [
        "AMQ8450I: Display queue status details.",
        "   QUEUE(ORDERS)                           TYPE(QUEUE)",
        "   CURDEPTH(3)                             IPPROCS(1)",
        "   LGETDATE( )                             LGETTIME( )",
        "   LPUTDATE(2025-01-02)                    LPUTTIME(10.11.12)",
        "   MONQ(OFF)                               MSGAGE( )",
        "   OPPROCS(2)                              QTIME( , )",
        "   UNCOM(NO)",
    ]
    shown = render_answer(STATUS, responses.numbered([status_response(age=42, qtime=(1500, 2500))])).lines
    assert "   MONQ(OFF)                               MSGAGE(42)" in shown
    assert "   OPPROCS(2)                              QTIME(1500,2500)" in shown


def test_display_qstatus_one_block_per_queue() -> None:
    outcome = render_answer(STATUS, responses.numbered([status_response(), status_response()]))
    assert [block.lines[0] for block in outcome.blocks] == ["AMQ8450I: Display queue status details."] * 2
    assert all(block.command == mq.MQCMD_INQUIRE_Q_STATUS for block in outcome.blocks)


MOVE = parse_command("MOVE QLOCAL(SRC) TOQLOCAL(TGT) TYPE(ADD)")[0]


def test_move_success_shows_the_count() -> None:
    answer = responses.numbered([responses.ok_response(MOVE, (Integer(mq.MQIACF_MOVE_COUNT, 12),))])
    outcome = render_answer(MOVE, answer)
    assert (outcome.status, outcome.lines) == ("ok", ["PCF8001I: 12 messages moved."])


def test_move_partial_failure_shows_the_reason_and_the_count() -> None:
    error = responses.error_message(MOVE, mq.MQRC_Q_FULL)
    error = Message(error.command, (Integer(mq.MQIACF_MOVE_COUNT, 5),), type=error.type, comp_code=error.comp_code, reason=error.reason)
    answer = responses.numbered([error, responses.error_responses(MOVE, mq.MQRCCF_COMMAND_FAILED)[1]])
    outcome = render_answer(MOVE, answer)
    assert outcome.status == "failed"
    assert outcome.lines == ["AMQ8101S: IBM MQ error (805) has occurred. Reason 2053 MQRC_Q_FULL.", "PCF8001I: 5 messages moved."]


@pytest.mark.parametrize(
    ("reason", "line"),
    [
        (mq.MQRC_UNKNOWN_OBJECT_NAME, "AMQ8147E: IBM MQ object SRC not found."),
        (mq.MQRC_Q_NOT_EMPTY, "AMQ8143E: IBM MQ queue not empty."),
        (mq.MQRCCF_OBJECT_OPEN, "AMQ8148E: IBM MQ object in use."),
        (mq.MQRC_NOT_AUTHORIZED, "AMQ8135E: Not authorized."),
        (mq.MQRC_FUNCTION_NOT_SUPPORTED, "AMQ8101S: IBM MQ error (8FA) has occurred. Reason 2298 MQRC_FUNCTION_NOT_SUPPORTED."),
        (mq.MQRCCF_Q_WRONG_TYPE, "AMQ8101S: IBM MQ error (FA7) has occurred. Reason 4007 MQRCCF_Q_WRONG_TYPE."),
        (123456, "AMQ8101S: IBM MQ error (1E240) has occurred. Reason 123456 MQRC_UNKNOWN."),
    ],
)
def test_every_failure_has_a_line(reason: int, line: str) -> None:
    outcome = render_answer(MOVE, responses.error_responses(MOVE, reason))
    assert (outcome.status, outcome.lines) == ("failed", [line])
    assert outcome.blocks[-1].reason == reason


def test_a_move_that_finds_no_queue_names_the_missing_one() -> None:
    # the answer (2085) does not say which queue is missing: the source is asked for
    engine = Recorder()
    mqsc.run("DEFINE QLOCAL(SRC)", engine)
    refused = responses.error_responses(MOVE, mq.MQRC_UNKNOWN_OBJECT_NAME)

    def move_refused(command: Message) -> list[Message]:
        return refused if command.command == mq.MQCMD_MOVE_Q else engine(command)

    assert mqsc.run("MOVE QLOCAL(SRC) TOQLOCAL(NOPE)", move_refused).lines == ["AMQ8147E: IBM MQ object NOPE not found."]
    assert mqsc.run("MOVE QLOCAL(NOPE) TOQLOCAL(SRC)", move_refused).lines == ["AMQ8147E: IBM MQ object NOPE not found."]
    assert mqsc.run("MOVE QLOCAL(GONE) TOQLOCAL(SRC)", move_refused).lines == ["AMQ8147E: IBM MQ object GONE not found."]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=" *'+-;/#abcXYZ09.", min_size=0, max_size=4000))
@example("/".join(f"level{i:03d}" for i in range(500)))  # (the helper's 4,499 characters)
@example(" *" * 1500)
@example("'" * 1200)
@example("a" * 997 + " " * 10 + "*" * 10)
def test_a_script_line_too_long_for_runmqsc_is_continued_and_reads_back_the_same(value: str) -> None:
    """dump wrote a 4,499-character topic string on one 4,516-character line; runmqsc reads lines of up to 2048
    characters.  Every line is now at most mqsc.SCRIPT_LINE long, cut with '-' continuations that read back to the
    same text whatever it holds (blanks, '*', quotes, '+', '-', ';')."""
    message = Message(
        mq.MQCMD_CREATE_TOPIC,
        (String(mq.MQCA_TOPIC_NAME, "LONG.TOPIC"), String(mq.MQCA_TOPIC_STRING, "t/" + value), String(mq.MQCA_TOPIC_DESC, value[:64])),
    )
    lines = mqsc.render_script_lines(message)
    assert max(len(line) for line in lines) <= mqsc.SCRIPT_LINE
    [command] = [event for event in read_script(lines) if isinstance(event, ScriptCommand)]
    assert parse_command(command.text) == [message]
