"""Channels, listeners, services and AUTHINFO in the command languages: runmqsc's answers and filters, IBM i CL
(CRTMQMCHL ... WRKMQMCHL, CRTMQMLSR, CHGMQMAUTI's own spellings) and ``dump --dialect ibmi``."""

from __future__ import annotations

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String
from pcfserver.dialects import ibmi, mqsc, render_command
from pcfserver.dialects.dump import dump
from pcfserver.dialects.outcome import Context
from pcfserver.dialects.runner import ScriptRunner
from pcfserver.engine import open_engine
from pcfserver.engine.engine import Engine

CONTEXT = Context("QM1")


def mqsc_lines(engine: Engine, text: str) -> list[str]:
    return mqsc.run(text, engine.execute).lines


def cl_lines(engine: Engine, text: str) -> list[str]:
    return ibmi.run(text, engine.execute, CONTEXT).lines


def stored(engine: Engine, code: int, name_pid: int, name: str) -> dict[int, object]:
    [answer] = engine.execute(Message(code, (String(name_pid, name),)))
    assert answer.comp_code == mq.MQCC_OK, answer.reason
    return {p.parameter: p.value.rstrip() if isinstance(p, String) else getattr(p, "value", getattr(p, "values", None)) for p in answer.parameters}


# ---------------------------------------------------------------------------------- MQSC


def test_runmqsc_names_the_missing_conname_and_the_attribute_specific_reasons() -> None:
    engine = open_engine(None)
    assert mqsc_lines(engine, "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) XMITQ(QM2)") == [
        "AMQ8214E: CONNAME parameter required with channel types SDR, RQSTR, CLNTCONN, CLUSSDR and CLUSRCVR."
    ]
    [line] = mqsc_lines(engine, "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('h(1414)')")
    assert "Reason 4045 MQRCCF_XMIT_Q_NAME_ERROR for XMITQ" in line
    [line] = mqsc_lines(engine, "DEFINE CHANNEL(IN.QM2) CHLTYPE(RCVR) HBINT(10) DISCINT(5)")
    assert "Reason 4054 MQRCCF_DISC_INT_WRONG_TYPE for DISCINT" in line
    [line] = mqsc_lines(engine, "DEFINE CHANNEL(BAD-NAME) CHLTYPE(RCVR)")
    assert "Reason 4044 MQRCCF_CHANNEL_NAME_ERROR for CHANNEL" in line
    # IBM's own SYSTEM.DEF.SENDER keeps its blank XMITQ and CONNAME and may still be altered
    assert mqsc_lines(engine, "ALTER CHANNEL(SYSTEM.DEF.SENDER) CHLTYPE(SDR) DESCR('site default')") == ["AMQ8016I: IBM MQ channel changed."]


def test_sslciph_of_an_mqtt_channel_is_its_cipher_suite() -> None:
    engine = open_engine(None)
    assert mqsc_lines(engine, "DEFINE CHANNEL(MQTT.IN) CHLTYPE(MQTT) PORT(1883) SSLCIPH(SSL_RSA_WITH_AES_128_CBC_SHA256)") == [
        "AMQ8014I: IBM MQ channel created."
    ]
    assert mqsc_lines(engine, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(TLS_AES_128_GCM_SHA256)") == ["AMQ8014I: IBM MQ channel created."]
    mqtt = stored(engine, mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "MQTT.IN")
    assert mqtt[mq.MQCACH_SSL_CIPHER_SUITE] == "SSL_RSA_WITH_AES_128_CBC_SHA256" and mq.MQCACH_SSL_CIPHER_SPEC not in mqtt
    svrconn = stored(engine, mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "APP.SVRCONN")
    assert svrconn[mq.MQCACH_SSL_CIPHER_SPEC] == "TLS_AES_128_GCM_SHA256" and mq.MQCACH_SSL_CIPHER_SUITE not in svrconn
    shown = mqsc_lines(engine, "DISPLAY CHANNEL(MQTT.IN) CHLTYPE(MQTT) SSLCIPH")
    assert shown[1:] == ["   CHANNEL(MQTT.IN)                        CHLTYPE(MQTT)", "   SSLCIPH(SSL_RSA_WITH_AES_128_CBC_SHA256)"]
    # and the full display keeps runmqsc's alphabetical order with SSLCIPH in its place
    full = " ".join(mqsc_lines(engine, "DISPLAY CHANNEL(MQTT.IN) CHLTYPE(MQTT)"))
    assert full.index("SSLCAUTH(") < full.index("SSLCIPH(") < full.index("SSLKEYP(")


def test_display_filters_take_all_and_chltype_is_type() -> None:
    engine = open_engine(None)
    for text in ("DEFINE CHANNEL(A.RCVR) CHLTYPE(RCVR)", "DEFINE CHANNEL(A.CLNT) CHLTYPE(CLNTCONN) CONNAME('h(1)')"):
        assert mqsc_lines(engine, text) == ["AMQ8014I: IBM MQ channel created."]
    for query in ("DISPLAY CHANNEL(A.*) TYPE(ALL)", "DISPLAY CHANNEL(A.*) CHLTYPE(ALL)", "DISPLAY CHANNEL(A.*)"):
        shown = mqsc_lines(engine, query)
        assert [line for line in shown if line.startswith("AMQ")] == ["AMQ8414I: Display Channel details."] * 2, query
    assert [line for line in mqsc_lines(engine, "DISPLAY CHANNEL(A.*) TYPE(CLNTCONN)") if "CHANNEL(" in line] == [
        "   CHANNEL(A.CLNT)                         CHLTYPE(CLNTCONN)"
    ]
    assert len([line for line in mqsc_lines(engine, "DISPLAY LISTENER(*) TRPTYPE(ALL)") if line.startswith("AMQ8630I")]) == 1
    assert len([line for line in mqsc_lines(engine, "DISPLAY AUTHINFO(*) AUTHTYPE(ALL)") if line.startswith("AMQ8566I")]) == 4
    assert len([line for line in mqsc_lines(engine, "DISPLAY AUTHINFO(*) AUTHTYPE(IDPWOS)") if line.startswith("AMQ8566I")]) == 1
    # Inquire Channel Names leaves client-connection channels out of "all types" (q087520_)
    [names] = engine.execute(Message(mq.MQCMD_INQUIRE_CHANNEL_NAMES, (String(mq.MQCACH_CHANNEL_NAME, "A.*"),)))
    assert [n.rstrip() for n in names.parameters[0].values] == ["A.RCVR"]  # type: ignore[attr-defined]


def test_runmqsc_authinfo_rules() -> None:
    engine = open_engine(None)
    [line] = mqsc_lines(engine, "DEFINE AUTHINFO(LDAP.CRL) AUTHTYPE(CRLLDAP)")
    assert "Reason 3228 MQRCCF_PARM_MISSING for CONNAME" in line
    [line] = mqsc_lines(engine, "DEFINE AUTHINFO(LDAP.CRL) AUTHTYPE(CRLLDAP) CONNAME('a(389),b(389)')")
    assert "Reason 4062 MQRCCF_CONN_NAME_ERROR for CONNAME" in line
    text = "DEFINE AUTHINFO(USE.LDAP) AUTHTYPE(IDPWLDAP) CONNAME('ldap1(389),ldap2(389)') SHORTUSR('uid') USRFIELD('uid') BASEDNU('ou=users')"
    assert mqsc_lines(engine, text) == ["AMQ8563I: IBM MQ authentication information object created."]
    [line] = mqsc_lines(engine, "ALTER AUTHINFO(USE.LDAP) AUTHTYPE(IDPWOS)")
    assert "Reason 4002 MQRCCF_OBJECT_WRONG_TYPE" in line


# ---------------------------------------------------------------------------------- IBM i CL


def test_cl_channel_commands() -> None:
    engine = open_engine(None)
    assert cl_lines(engine, "CRTMQMCHL CHLNAME(TO.QM2) CHLTYPE(*SDR) CONNAME('host(1414)') TMQNAME(QM2) TEXT('to QM2')") == [
        "AMQ8014: IBM MQ channel created."
    ]
    assert cl_lines(engine, "CRTMQMCHL TO.QM3 *SDR *DFT *NO *TCP 'by position' *SYSDFTCHL 'h(1)' *BLANK *BLANK XQ") == ["AMQ8014: IBM MQ channel created."]
    three = stored(engine, mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "TO.QM3")
    assert (three[mq.MQCACH_DESC], three[mq.MQCACH_CONNECTION_NAME], three[mq.MQCACH_XMIT_Q_NAME]) == ("by position", "h(1)", "XQ")
    # CHGMQMCHL without CHLTYPE takes the channel's (IBM i fills it); *SAME leaves an attribute
    assert cl_lines(engine, "CHGMQMCHL CHLNAME(TO.QM2) BATCHSIZE(20) TEXT(*SAME) SNDEXIT('exit1' 'exit2')") == ["AMQ8016: IBM MQ channel changed."]
    two = stored(engine, mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "TO.QM2")
    assert two[mq.MQIACH_BATCH_SIZE] == 20 and two[mq.MQCACH_DESC] == "to QM2"
    assert [v.rstrip() for v in two[mq.MQCACH_SEND_EXIT_NAME]] == ["exit1", "exit2"]  # type: ignore[attr-defined]
    assert cl_lines(engine, "CHGMQMCHL CHLNAME(TO.QM2) CHLTYPE(*RCVR)") == [
        "AMQ8101: IBM MQ error (BDA) has occurred. Reason 3034 MQRCCF_CHANNEL_TYPE_ERROR for CHLTYPE."
    ]
    assert cl_lines(engine, "CPYMQMCHL FROMCHL(TO.QM2) TOCHL(TO.QM4) CONNAME('other(1414)')") == ["AMQ8014: IBM MQ channel created."]
    assert stored(engine, mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "TO.QM4")[mq.MQIACH_BATCH_SIZE] == 20
    shown = cl_lines(engine, "DSPMQMCHL CHLNAME(TO.QM4)")
    assert shown[:4] == ["AMQ8414: Display Channel details.", "  CHLNAME    TO.QM4", "  CHLTYPE    *SDR", "  TRPTYPE    *TCP"]
    assert "  CONNAME    other(1414)" in shown
    assert cl_lines(engine, "WRKMQMCHL CHLNAME(TO*)")[1:] == [f"{n:<51}*SDR" for n in ("TO.QM2", "TO.QM3", "TO.QM4")]
    assert cl_lines(engine, "DLTMQMCHL CHLNAME(TO.QM4)") == ["AMQ8015: IBM MQ channel deleted."]
    assert cl_lines(engine, "DLTMQMCHL CHLNAME(TO.QM4)") == ["AMQ8147: IBM MQ object TO.QM4 not found. Reason 4032 MQRCCF_CHANNEL_NOT_FOUND."]
    # CHLTYPE is required on CRTMQMCHL (q084170_)
    assert cl_lines(engine, "CRTMQMCHL CHLNAME(X)")[0] == "CPF0001: Error found on CRTMQMCHL command."


def test_cl_process_and_namelist_commands() -> None:
    """CRTMQMPRC (q084200_), CHGMQMPRC, CPYMQMPRC, DLTMQMPRC, DSPMQMPRC, WRKMQMPRC and the NL family (q084190_ ...),
    from kinds.tsv's CL nouns and the tables' ibmi cells: a trigger's process and a cluster namelist as IBM i makes them."""
    engine = open_engine(None)
    made = cl_lines(engine, "CRTMQMPRC PRCNAME(TRIG.PRC) TEXT('start it') APPTYPE(*CICS) APPID('CKTI') USRDATA(*NONE) ENVDATA('x=1')")
    assert made == ["AMQ8010: IBM MQ process created."]
    assert cl_lines(engine, "CRTMQMPRC TRIG.BYPOS *DFT *NO *SYSDFTPRC *UNIX '/opt/app/run'") == ["AMQ8010: IBM MQ process created."]
    assert stored(engine, mq.MQCMD_INQUIRE_PROCESS, mq.MQCA_PROCESS_NAME, "TRIG.BYPOS")[mq.MQCA_APPL_ID].rstrip() == "/opt/app/run"  # type: ignore[union-attr]
    assert cl_lines(engine, "CHGMQMPRC TRIG.PRC APPTYPE(*OS400) TEXT(*SAME)") == ["AMQ8012: IBM MQ process changed."]
    assert cl_lines(engine, "DSPMQMPRC TRIG.PRC") == [
        "AMQ8407: Display Process details.", "  PRCNAME    TRIG.PRC", "  TEXT       start it", "  APPTYPE    *OS400", "  APPID      CKTI",
        "  USRDATA    *NONE", "  ENVDATA    x=1",
    ]
    assert cl_lines(engine, "CPYMQMPRC FROMPRC(TRIG.PRC) TOPRC(TRIG.COPY)") == ["AMQ8010: IBM MQ process created."]
    assert cl_lines(engine, "WRKMQMPRC PRCNAME('TRIG*')")[1:] == ["TRIG.BYPOS", "TRIG.COPY", "TRIG.PRC"]
    assert cl_lines(engine, "DLTMQMPRC TRIG.COPY") == ["AMQ8011: IBM MQ process deleted."]
    assert cl_lines(engine, "CRTMQMPRC X APPTYPE(*FOO)")[0] == "CPF0001: Error found on CRTMQMPRC command."
    assert cl_lines(engine, "CRTMQMNL NAMELIST(APP.CLUSTERS) TEXT('clusters') NAMES(CL.ONE CL.TWO 'cl.three')") == ["AMQ8552: IBM MQ namelist created."]
    assert cl_lines(engine, "DSPMQMNL APP.CLUSTERS")[-1] == "  NAMES      CL.ONE CL.TWO cl.three"
    assert cl_lines(engine, "CPYMQMNL FROMNL(APP.CLUSTERS) TONL(APP.COPY) NAMES(*NONE)") == ["AMQ8552: IBM MQ namelist created."]
    assert cl_lines(engine, "DSPMQMNL APP.COPY")[1:] == ["  NAMELIST   APP.COPY", "  TEXT       clusters", "  NAMES"]
    assert cl_lines(engine, "CHGMQMNL APP.COPY NAMES(Q1)") == ["AMQ8551: IBM MQ namelist changed."]
    assert cl_lines(engine, "WRKMQMNL NAMELIST('APP*')")[1:] == ["APP.CLUSTERS", "APP.COPY"]
    assert cl_lines(engine, "DLTMQMNL APP.COPY") == ["AMQ8553: IBM MQ namelist deleted."]


def test_cl_starts_and_ends_services_and_lists_listeners_services_and_authinfo() -> None:
    engine = open_engine(None)
    assert cl_lines(engine, "CRTMQMSVC SVCNAME(MY.SVC) STRCMD('/bin/true') ENDCMD('/bin/true') TYPE(*CMD)") == ["AMQ8625: IBM MQ service created."]
    assert cl_lines(engine, "STRMQMSVC MY.SVC") == ["AMQ8733: Request to start Service accepted."]
    ended = cl_lines(engine, "ENDMQMSVC SVCNAME(MY.SVC)")  # a command service has ended by itself: as STOP SERVICE answers
    assert ended == ["AMQ8101: IBM MQ error (CB5) has occurred. Reason 3253 MQRCCF_SERVICE_STOPPED."]
    assert "MY.SVC" in cl_lines(engine, "WRKMQMSVC")
    assert cl_lines(engine, "WRKMQMLSR")[1:] == [f"{'SYSTEM.DEFAULT.LISTENER.TCP':<51}*TCP"]
    assert cl_lines(engine, "WRKMQMAUTI AINAME('SYSTEM.DEFAULT.AUTHINFO.I*')")[1:] == [
        f"{'SYSTEM.DEFAULT.AUTHINFO.IDPWLDAP':<51}*IDPWLDAP", f"{'SYSTEM.DEFAULT.AUTHINFO.IDPWOS':<51}*IDPWOS",
    ]


def test_dspmqm_shows_the_queue_manager_in_chgmqm_order() -> None:
    """DSPMQM (q084390_: OUTPUT 1, MQMNAME 2) shows every attribute, as CHGMQM spells and orders them."""
    engine = open_engine(None)
    assert cl_lines(engine, "CHGMQM TEXT('the orders queue manager') MAXUMSG(5000)") == ["AMQ8005: IBM MQ queue manager changed."]
    shown = cl_lines(engine, "DSPMQM * *DFT")
    assert shown[0] == "AMQ8408: Display Queue Manager details."
    assert shown[1] == "  TEXT       the orders queue manager" and "  MAXUMSG    5000" in shown and "  MQMNAME    QM1" in shown
    assert cl_lines(engine, "DSPMQM OUTPUT(*WRONG)")[0] == "CPF0001: Error found on DSPMQM command."


def test_cl_listener_is_tcp_and_chgmqmauti_spells_its_own_keywords() -> None:
    engine = open_engine(None)
    assert cl_lines(engine, "CRTMQMLSR LSRNAME(LSR.A) PORT(1415) CONTROL(*QMGR)") == ["AMQ8626: IBM MQ listener created."]
    lsr = stored(engine, mq.MQCMD_INQUIRE_LISTENER, mq.MQCACH_LISTENER_NAME, "LSR.A")
    assert (lsr[mq.MQIACH_XMIT_PROTOCOL_TYPE], lsr[mq.MQIACH_PORT], lsr[mq.MQIACH_LISTENER_CONTROL]) == (mq.MQXPT_TCP, 1415, mq.MQSVC_CONTROL_Q_MGR)
    [line] = cl_lines(engine, "CHGMQMLSR LSRNAME(LSR.A) PORT(70000)")
    assert "Reason 3167 MQRCCF_PORT_NUMBER_ERROR for PORT" in line
    text = "CRTMQMAUTI AINAME(USE.LDAP) AUTHTYPE(*IDPWLDAP) CONNAME('ldap(389)') SHORTUSR('uid') CLASSUSR('person')"
    assert cl_lines(engine, text) == ["AMQ8563: IBM MQ authentication information object created."]
    assert cl_lines(engine, "CHGMQMAUTI AINAME(USE.LDAP) CLASSUSER('inetOrgPerson') SHORTUSER('cn')") == [
        "AMQ8567: IBM MQ authentication information object changed."
    ]
    ldap = stored(engine, mq.MQCMD_INQUIRE_AUTH_INFO, mq.MQCA_AUTH_INFO_NAME, "USE.LDAP")
    assert (ldap[mq.MQCA_LDAP_USER_OBJECT_CLASS], ldap[mq.MQCA_LDAP_SHORT_USER_FIELD]) == ("inetOrgPerson", "cn")
    assert cl_lines(engine, "CHGMQMAUTI AINAME(USE.LDAP) CLASSUSR('x')")[0] == "CPD0043: Keyword CLASSUSR not valid for this command."
    assert cl_lines(engine, "CRTMQMSVC SVCNAME(SVC.A) STRCMD('/usr/bin/true') TYPE(*SVR)") == ["AMQ8625: IBM MQ service created."]


def test_cl_dump_recreates_channels_listeners_and_authinfo() -> None:
    source = open_engine(None)
    for text in (
        "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2) COMPHDR(SYSTEM,NONE) MSGEXIT('a','b')",
        "DEFINE CHANNEL(APP.AMQP) CHLTYPE(AMQP) PORT(5673)",
        "DEFINE LISTENER(LSR.B) TRPTYPE(TCP) PORT(1416) CONTROL(QMGR)",
        "DEFINE AUTHINFO(USE.OS) AUTHTYPE(IDPWOS) CHCKCLNT(REQUIRED)",
        "DEFINE COMMINFO(MC.A) GRPADDR('239.1.1.1')",
    ):
        assert mqsc.run(text, source.execute).status == "ok", text
    script = dump(source.execute, dialect="ibmi", qmgr_name="QM1")
    assert "CRTMQMCHL +\n  CHLNAME('TO.QM2') +\n  CHLTYPE(*SDR) +" in script
    assert "  COMPHDR(*SYSTEM *NONE) +" in script and "  MSGEXIT('a' 'b') +" in script
    assert "CRTMQMLSR +\n  LSRNAME('LSR.B') +" in script and "TRPTYPE" not in script.split("CRTMQMLSR")[2].split("\n\n")[0]
    # IBM i has no AMQP channels and no COMMINFO: named in comments
    assert "/* DEFINE CHANNEL('APP.AMQP') CHLTYPE(AMQP) PORT(5673) REPLACE : no CL command here */" in script
    assert "/* DEFINE COMMINFO('MC.A') GRPADDR('239.1.1.1') REPLACE : no CL command here */" in script
    fresh = open_engine(None)
    runner = ScriptRunner(fresh.execute, dialect="ibmi")
    runner.start()
    for line in script.splitlines():
        runner.feed(line)
    runner.finish()
    assert runner.exit_code == 0
    for code, pid, name in (
        (mq.MQCMD_INQUIRE_CHANNEL, mq.MQCACH_CHANNEL_NAME, "TO.QM2"),
        (mq.MQCMD_INQUIRE_LISTENER, mq.MQCACH_LISTENER_NAME, "LSR.B"),
        (mq.MQCMD_INQUIRE_AUTH_INFO, mq.MQCA_AUTH_INFO_NAME, "USE.OS"),
    ):
        before, after = stored(source, code, pid, name), stored(fresh, code, pid, name)
        for stamp in (mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME):
            before.pop(stamp), after.pop(stamp)
        assert after == before, name


def test_mqsc_renders_a_kind_change_that_reads_back() -> None:
    change = Message(
        mq.MQCMD_CHANGE_CHANNEL,
        (String(mq.MQCACH_CHANNEL_NAME, "MQTT.IN"), Integer(mq.MQIACH_CHANNEL_TYPE, mq.MQCHT_MQTT), String(mq.MQCACH_SSL_CIPHER_SUITE, "X")),
    )
    text = render_command(change)
    assert "SSLCIPH(X)" in text
    assert mqsc.parse_command(text) == [change]
    inquiry = mqsc.parse_command("DISPLAY CHANNEL(M*) CHLTYPE(MQTT) SSLCIPH")[0]
    assert inquiry.get(mq.MQIACF_CHANNEL_ATTRS) == IntegerList(mq.MQIACF_CHANNEL_ATTRS, (mq.MQCACH_SSL_CIPHER_SPEC, mq.MQCACH_SSL_CIPHER_SUITE))


def test_a_generic_display_shows_names_and_types_a_specific_one_everything() -> None:
    engine = open_engine(None)
    assert mqsc_lines(engine, "DISPLAY CHANNEL(SYSTEM.DEF.S*)") == [
        line
        for name, sort in (("SYSTEM.DEF.SENDER", "SDR"), ("SYSTEM.DEF.SERVER", "SVR"), ("SYSTEM.DEF.SVRCONN", "SVRCONN"))
        for line in ("AMQ8414I: Display Channel details.", f"   {f'CHANNEL({name})':<40}CHLTYPE({sort})")
    ]
    assert mqsc_lines(engine, "DISPLAY AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS*)")[1:] == ["   AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)", f"{'':<43}AUTHTYPE(IDPWOS)"]
    specific = mqsc_lines(engine, "DISPLAY CHANNEL(SYSTEM.DEF.SENDER)")
    assert len(specific) > 20 and any("XMITQ( )" in line for line in specific)
    assert len(mqsc_lines(engine, "DISPLAY CHANNEL(SYSTEM.DEF.SEN*) ALL")) == len(specific)
    for text in ("DISPLAY CHANNEL(SYSTEM.*)", "DISPLAY CHANNEL(SYSTEM.DEF.SENDER)", "DISPLAY CHANNEL(S*) XMITQ", "DISPLAY AUTHINFO(*)"):
        [command] = mqsc.parse_command(text)
        assert mqsc.parse_command(render_command(command)) == [command], text


def test_every_cl_command_of_the_tables_answers_without_crashing() -> None:
    from pcfserver.dialects.tables import vocabulary

    engine = open_engine(None)
    for name in vocabulary("ibmi").commands:
        for text in (name, f"{name} X", f"{name} NAME(X)"):
            outcome = ibmi.run(text, engine.execute, CONTEXT)
            assert outcome.lines and outcome.status in ("ok", "failed", "syntax"), text
