"""IBM i CL's GRTMQMAUT, RVKMQMAUT and DSPMQMAUT (pcfserver/dialects/ibmi_authority.py): what an IBM i administrator
types grants, revokes and shows authority as SET AUTHREC and DISPLAY ENTAUTH do, and ``dump --dialect ibmi`` writes
the grants back as GRTMQMAUT commands that recreate them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.dialects import ibmi, ibmi_authority, run_script
from pcfserver.dialects.dump import dump
from pcfserver.dialects.outcome import Context
from pcfserver.engine import open_engine


def cl(engine: object, text: str) -> list[str]:
    out = ibmi.run(text, engine.execute, Context(qmgr_name="QM1"))  # type: ignore[attr-defined]
    return [line for block in out.blocks for line in block.lines]


def grant(engine: object, *texts: str) -> None:
    """Runs each GRTMQMAUT, which must be answered as set."""
    for text in texts:
        assert cl(engine, text) == ["AMQ8862: IBM MQ authority record set."], text


def records(engine: object) -> list[tuple[str, int, str, int, tuple[int, ...]]]:
    """Every authority record: profile, object type, entity, entity type, authorities."""
    ask = Message(mq.MQCMD_INQUIRE_AUTH_RECS, (Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_NAME_AS_WILDCARD | mq.MQAUTHOPT_ENTITY_EXPLICIT), String(mq.MQCACF_AUTH_PROFILE_NAME, "**")))
    out = []
    for r in engine.execute(ask):  # type: ignore[attr-defined]
        if r.reason:
            return []
        auths = r.get(mq.MQIACF_AUTHORIZATION_LIST)
        out.append(((r.str_value(mq.MQCACF_AUTH_PROFILE_NAME) or "").rstrip(), r.int_value(mq.MQIACF_OBJECT_TYPE) or 0,
                    (r.str_value(mq.MQCACF_ENTITY_NAME) or "").rstrip(), r.int_value(mq.MQIACF_ENTITY_TYPE) or 0, tuple(sorted(auths.values))))  # type: ignore[union-attr]
    return sorted(out)


def test_grant_shows_in_dspmqmaut_and_display_authrec_and_a_revoke_takes_it_away() -> None:
    engine = open_engine(None, qmgr="QM1")
    assert cl(engine, "CRTMQMQ QNAME(RED.LOCAL.QUEUE) QTYPE(*LCL)") == ["AMQ8006: IBM MQ queue created."]
    # IBM's example (Using the access authorization commands on IBM i), MQMNAME this queue manager's
    granted = cl(engine, "GRTMQMAUT OBJ(RED.LOCAL.QUEUE) OBJTYPE(*LCLQ) USER(GROUPA) AUT(*BROWSE *PUT) MQMNAME(QM1)")
    assert granted == ["AMQ8862: IBM MQ authority record set."]
    assert cl(engine, "DSPMQMAUT OBJ(RED.LOCAL.QUEUE) OBJTYPE(*Q) USER(GROUPA)") == [
        "AMQ8866: Display entity authority details.", "  OBJ        RED.LOCAL.QUEUE", "  OBJTYPE    *Q", "  USER       GROUPA", "  AUT        *BROWSE *PUT",
    ]
    shown = run_script("DISPLAY AUTHREC PROFILE(RED.LOCAL.QUEUE) OBJTYPE(QUEUE)", engine.execute).text
    assert "ENTITY(GROUPA)" in shown and "ENTTYPE(PRINCIPAL)" in shown and "AUTHLIST(BROWSE,PUT)" in shown, shown
    assert cl(engine, "RVKMQMAUT RED.LOCAL.QUEUE *LCLQ GROUPA *PUT") == ["AMQ8862: IBM MQ authority record set."]
    assert cl(engine, "DSPMQMAUT RED.LOCAL.QUEUE *Q GROUPA")[-1] == "  AUT        *BROWSE"
    assert cl(engine, "RVKMQMAUT OBJ(RED.LOCAL.QUEUE) OBJTYPE(*Q) USER(GROUPA) AUT(*REMOVE)") == ["AMQ8863: IBM MQ authority record deleted."]
    assert records(engine) == [r for r in records(engine) if r[0] != "RED.LOCAL.QUEUE"]
    assert cl(engine, "DSPMQMAUT RED.LOCAL.QUEUE *Q GROUPA")[-1] == "  AUT        *NONE"


def test_several_users_and_a_generic_profile_in_one_grant_and_the_users_groups_count_in_the_display() -> None:
    engine = open_engine(None, qmgr="QM1")
    assert cl(engine, "GRTMQMAUT OBJ('APP.**') OBJTYPE(*Q) USER(JACK JILL) AUT(*GET *INQ)") == ["AMQ8862: IBM MQ authority record set."]
    assert [r[2] for r in records(engine) if r[0] == "APP.**"] == ["JACK", "JILL"]
    assert cl(engine, "DSPMQMAUT OBJ(APP.IN) OBJTYPE(*Q) USER(JILL)")[-1] == "  AUT        *GET *INQ"


def test_obj_all_grants_on_each_object_of_the_type_as_it_is_now() -> None:
    """IBM's example: GRTMQMAUT OBJ(*ALL) OBJTYPE(*PRC) USER(JACK JILL) AUT(*ALL) grants on every process definition;
    a queue word counts only its queues (*LCLQ: local ones); objects made later are not covered."""
    engine = open_engine(None, qmgr="QM1")
    made = run_script("DEFINE PROCESS(P1)\nDEFINE QLOCAL(L1)\nDEFINE QALIAS(A1) TARGET(L1)\nDEFINE LISTENER(LS1) TRPTYPE(TCP)", engine.execute)
    assert made.exit_code == 0, made.text
    assert cl(engine, "GRTMQMAUT OBJ(*ALL) OBJTYPE(*PRC) USER(JACK JILL) AUT(*ALL)") == ["AMQ8862: IBM MQ authority record set."]
    processes = {r[0] for r in records(engine) if r[1] == mq.MQOT_PROCESS and r[2] == "JILL"}
    assert processes == {"P1", "SYSTEM.DEFAULT.PROCESS"}
    assert cl(engine, "GRTMQMAUT OBJ(*ALL) OBJTYPE(*LCLQ) USER(JACK) AUT(*GET)") == ["AMQ8862: IBM MQ authority record set."]
    queues = {r[0] for r in records(engine) if r[1] == mq.MQOT_Q and r[2] == "JACK"}
    assert "L1" in queues and "SYSTEM.DEFAULT.LOCAL.QUEUE" in queues and "A1" not in queues
    assert cl(engine, "GRTMQMAUT OBJ(*ALL) OBJTYPE(*LSR) USER(JACK) AUT(*ADMDSP)") == ["AMQ8862: IBM MQ authority record set."]
    assert "LS1" in {r[0] for r in records(engine) if r[1] == mq.MQOT_LISTENER}  # (a kind without Inquire Names)
    assert cl(engine, "RVKMQMAUT OBJ(*ALL) OBJTYPE(*PRC) USER(JILL) AUT(*REMOVE)") == ["AMQ8863: IBM MQ authority record deleted."]
    assert not [r for r in records(engine) if r[1] == mq.MQOT_PROCESS and r[2] == "JILL"]
    assert run_script("DEFINE PROCESS(P2)", engine.execute).exit_code == 0
    assert "P2" not in {r[0] for r in records(engine)}


def test_wrkmqmaut_lists_each_profile_and_type_once_and_what_covers_an_object() -> None:
    engine = open_engine(None, qmgr="QM1")
    grant(
        engine,
        "GRTMQMAUT OBJ('APP.**') OBJTYPE(*Q) USER(JACK JILL) AUT(*GET)",
        "GRTMQMAUT OBJ(APP.IN) OBJTYPE(*Q) USER(JACK) AUT(*PUT)",
        "GRTMQMAUT OBJ('APP.**') OBJTYPE(*TOPIC) USER(JACK) AUT(*PUB)",
    )
    header = "Profile name".ljust(51) + "Object type"
    row = lambda profile, kind: profile.ljust(51) + kind  # noqa: E731
    assert cl(engine, "WRKMQMAUT") == [header, row("APP.**", "*Q"), row("APP.**", "*TOPIC"), row("APP.IN", "*Q")]
    assert cl(engine, "WRKMQMAUT OBJ(APP.IN) OBJTYPE(*Q)") == [header, row("APP.**", "*Q"), row("APP.IN", "*Q")]  # what covers it
    assert cl(engine, "WRKMQMAUT OBJ('APP.**')") == [header, row("APP.**", "*Q"), row("APP.**", "*TOPIC")]  # that profile
    assert cl(engine, "WRKMQMAUT OBJTYPE(*TOPIC)") == [header, row("APP.**", "*TOPIC")]
    assert cl(engine, "WRKMQMAUT OBJ(NOTHING.HERE)") == [header]


def test_rfrmqmaut_refreshes_as_refresh_security_does() -> None:
    engine = open_engine(None, qmgr="QM1")
    assert cl(engine, "RFRMQMAUT") == ["AMQ8560: IBM MQ security cache refreshed."]
    assert cl(engine, "RFRMQMAUT MQMNAME(*DFT) TYPE(*SSL)") == ["AMQ8560: IBM MQ security cache refreshed."]
    assert cl(engine, "RFRMQMAUT TYPE(*CONNAUTH)")[0] == "CPF0001: Error found on RFRMQMAUT command."  # (not an IBM i word)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("DSPMQMAUT OBJ(*ALL) OBJTYPE(*PRC) USER(JACK)", "OBJ(*ALL) names objects, not a profile"),
        ("GRTMQMAUT OBJ(*ALL) OBJTYPE(*RMTMQMNAME) USER(JACK) AUT(*PUT)", "OBJ(*ALL) with OBJTYPE(*RMTMQMNAME) names no objects here"),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*ALL) USER(JACK) AUT(*GET)", "CPF0001: Error found on GRTMQMAUT command."),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*Q) USER(*PUBLIC) AUT(*ALL)", "USER(*PUBLIC) is not carried out here"),
        ("DSPMQMAUT OBJ(X) OBJTYPE(*Q)", "USER is required here"),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*Q) USER(JACK) AUT(*FLY)", "CPF0001: Error found on GRTMQMAUT command."),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*QUEUE) USER(JACK) AUT(*GET)", "CPF0001: Error found on GRTMQMAUT command."),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*Q) USER(JACK)", "CPF0001: Error found on GRTMQMAUT command."),
        ("RVKMQMAUT OBJ(X) OBJTYPE(*Q) USER(JACK) AUT(*REMOVE *GET)", "CPF0001: Error found on RVKMQMAUT command."),
        ("GRTMQMAUT OBJ(X) OBJTYPE(*Q) USER(JACK) AUT(*GET) MQMNAME(OTHER)", "AMQ8118: IBM MQ queue manager does not exist."),
    ],
)
def test_what_is_refused_says_so_and_grants_nothing(text: str, first: str) -> None:
    engine = open_engine(None, qmgr="QM1")
    before = records(engine)
    lines = cl(engine, text)
    assert lines[0].startswith(first), lines
    assert records(engine) == before


def test_a_cl_dump_grants_with_grtmqmaut_and_replays_to_the_same_records() -> None:
    source = open_engine(None, qmgr="QM1")
    grant(
        source,
        "GRTMQMAUT OBJ(RED.LOCAL.QUEUE) OBJTYPE(*LCLQ) USER(GROUPA) AUT(*BROWSE *PUT)",
        "GRTMQMAUT OBJ('APP.**') OBJTYPE(*TOPIC) USER(JACK 'jill') AUT(*PUB *SUB)",
        "GRTMQMAUT OBJ(QM1) OBJTYPE(*MQM) USER(GEORGE) AUT(*CONNECT *INQ)",
    )
    assert run_script("SET AUTHREC PROFILE('G.Q') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET)", source.execute).exit_code == 0
    script = dump(source.execute, dialect="ibmi", qmgr_name="QM1", now=lambda: "then")
    assert "GRTMQMAUT +\n  OBJ('APP.**') +\n  OBJTYPE(*TOPIC) +\n  USER('jill') +\n  AUT(*PUB *SUB)\n" in script
    assert "/* SET AUTHREC PROFILE('G.Q') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET) : no CL command here */" in script  # a group's
    assert "/* the queue manager's own record: OBJ names the one dumped" in script
    copy = open_engine(None, qmgr="QM1")
    replayed = run_script(script, copy.execute, dialect="ibmi")
    assert replayed.exit_code == 0, replayed.text
    assert records(copy) == [r for r in records(source) if r[3] == mq.MQZAET_PRINCIPAL]


_AUTHS = sorted(v for w, v in ibmi.vocabulary("ibmi").words[mq.MQIACF_AUTHORIZATION_LIST].to_value.items() if isinstance(v, int) and v > 0 and v not in (mq.MQAUTH_ALL, mq.MQAUTH_ALL_ADMIN, mq.MQAUTH_ALL_MQI))  # type: ignore[attr-defined]
_USER = st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij0123456789_#@$."), min_size=1, max_size=10)


@settings(max_examples=60, deadline=None)
@given(
    profile=st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789._*%/"), min_size=1, max_size=48),
    object_type=st.sampled_from([mq.MQOT_Q, mq.MQOT_PROCESS, mq.MQOT_TOPIC, mq.MQOT_CHANNEL, mq.MQOT_NAMELIST, mq.MQOT_AUTH_INFO]),
    users=st.lists(_USER, min_size=1, max_size=3, unique=True),
    auths=st.lists(st.sampled_from(_AUTHS), min_size=1, max_size=6, unique=True),
)
def test_grtmqmaut_written_from_a_record_reads_back_as_that_record(profile: str, object_type: int, users: list[str], auths: list[int]) -> None:
    from pcfserver.codec import IntegerList, StringList

    record = Message(mq.MQCMD_SET_AUTH_REC, (
        String(mq.MQCACF_AUTH_PROFILE_NAME, profile), Integer(mq.MQIACF_OBJECT_TYPE, object_type),
        StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, tuple(users)), IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, tuple(auths)),
    ))
    text = " ".join(ibmi_authority.render_parts(record))
    read = ibmi_authority.pcf(ibmi.parse(text))
    assert read.command == mq.MQCMD_SET_AUTH_REC
    assert read.str_value(mq.MQCACF_AUTH_PROFILE_NAME) == profile and read.int_value(mq.MQIACF_OBJECT_TYPE) == object_type
    assert read.get(mq.MQCACF_PRINCIPAL_ENTITY_NAMES).values == tuple(users)  # type: ignore[union-attr]
    assert read.get(mq.MQIACF_AUTH_ADD_AUTHS).values == tuple(auths)  # type: ignore[union-attr]


_SLOT = st.one_of(
    st.sampled_from(["*ALL", "*PUBLIC", "*REMOVE", "*Q", "*MQM", "*LCLQ", "*GET", "*NONE", "*DFT", "''", "'a b'", "(", ")", "", "QM1", "X.Y"]),
    st.text(max_size=5),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(ibmi_authority.COMMANDS)), st.lists(st.tuples(st.sampled_from(["OBJ", "OBJTYPE", "USER", "AUT", "MQMNAME", "SRVCOMP", "OUTPUT", ""]), st.lists(_SLOT, max_size=3)), max_size=6))
def test_any_values_in_the_authority_commands_get_an_answer_and_never_a_crash(name: str, slots: list[tuple[str, list[str]]]) -> None:
    engine = open_engine(None, qmgr="QM1")
    text = name + "".join(f" {k}({' '.join(v)})" if k else f" {' '.join(v)}" for k, v in slots)
    lines = cl(engine, text)
    assert lines and all(isinstance(line, str) for line in lines)


def test_ibms_third_example_grants_connect_and_put_on_trent() -> None:
    """IBM 'Using the access authorization commands on IBM i', example 3, as printed (MQMNAME (TRENT) with a space)."""
    engine = open_engine(None, qmgr="TRENT")
    assert run_script("DEFINE QLOCAL(ORDERS)", engine.execute).exit_code == 0
    for text in (
        "GRTMQMAUT OBJ(TRENT) OBJTYPE(*MQM) USER(GEORGE) AUT(*CONNECT) MQMNAME (TRENT)",
        "GRTMQMAUT OBJ(ORDERS) OBJTYPE(*Q) USER(GEORGE) AUT(*PUT) MQMNAME (TRENT)",
    ):
        out = ibmi.run(text, engine.execute, Context(qmgr_name="TRENT"))
        assert [line for b in out.blocks for line in b.lines] == ["AMQ8862: IBM MQ authority record set."]
    shown = run_script("DISPLAY ENTAUTH PRINCIPAL(GEORGE) OBJTYPE(QMGR)", engine.execute).text
    assert "AUTHLIST(CONNECT)" in shown, shown


def test_lists_by_position_are_read_as_cl_reads_them() -> None:
    """CL takes a list by position in parentheses: OBJ, OBJTYPE, USER and AUT need no keywords."""
    engine = open_engine(None, qmgr="QM1")
    assert cl(engine, "GRTMQMAUT 'APP.**' *Q (JACK JILL) (*GET *INQ)") == ["AMQ8862: IBM MQ authority record set."]
    both = tuple(sorted((mq.MQAUTH_INQUIRE, mq.MQAUTH_INPUT)))
    assert [(r[0], r[2], r[4]) for r in records(engine)] == [("APP.**", "JACK", both), ("APP.**", "JILL", both)]
    assert cl(engine, "DSPMQMAUT 'APP.IN' *Q JILL")[-1] == "  AUT        *GET *INQ"
    # after a keyword, a value by position is refused, and a misspelt keyword is named as one
    assert cl(engine, "GRTMQMAUT OBJ(X) *Q (JACK) (*GET)")[0] == "CPD0043: Keyword *Q not valid for this command."
