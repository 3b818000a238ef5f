"""Topic objects and administrative subscriptions through PCF, MQSC and runCommandJSON (issue 18), and a
subscription's SubId surviving a restart."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

from engine_support import mqsc_output as run
from engine_support import run_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import ByteString, Message, String
from pcfserver.dialects import mqsc
from pcfserver.engine import Engine, open_engine

SUB_ID = mq.MQBACF_SUB_ID


def inquire_sub(engine: Engine, *params: Any) -> list[Message]:
    return engine.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, tuple(params)))


def test_define_display_alter_delete_topic_in_mqsc() -> None:
    engine = open_engine(None)
    assert run(engine, "DEFINE TOPIC(SPORT) TOPICSTR('sport') DURSUB(NO)") == ["AMQ8690I: IBM MQ topic created."]
    # a specific name with no attribute named shows every attribute, as ALL does (IBM: DISPLAY TOPIC(SYSTEM.DEFAULT.TOPIC)
    # shows the default topic's attributes); a generic name shows TOPIC and TYPE only
    assert run(engine, "DISPLAY TOPIC(SPORT)") == run(engine, "DISPLAY TOPIC(SPORT) ALL")
    assert run(engine, "DISPLAY TOPIC(SPO*)") == ["AMQ8633I: Display topic details.", "   TOPIC(SPORT)                            TYPE(LOCAL)"]
    shown = run(engine, "DISPLAY TOPIC(SPORT) ALL")
    assert "   TOPICSTR(sport)                         DESCR( )" in shown
    assert not any("CLSTATE" in line for line in shown)  # cluster-only fields are not shown for a local topic
    assert run(engine, "DEFINE TOPIC(OTHER) TOPICSTR('sport')")[0].endswith("Reason 3300 MQRCCF_TOPICSTR_ALREADY_EXISTS for TOPICSTR.")
    assert run(engine, "ALTER TOPIC(SPORT) TOPICSTR('news')")[0].startswith("AMQ8405I")  # not an ALTER TOPIC keyword
    assert run(engine, "ALTER TOPIC(SPORT) DESCR('games')") == ["AMQ8691I: IBM MQ topic changed."]
    assert run(engine, "DISPLAY TCLUSTER(*)") == ["AMQ8147E: IBM MQ object * not found."]
    assert run(engine, "DISPLAY TOPIC(*) TYPE(CLUSTER)") == ["AMQ8147E: IBM MQ object * not found."]
    assert run(engine, "CLEAR TOPICSTR('sport') CLRTYPE(RETAINED)") == ["IBM MQ topic string cleared."]
    assert run(engine, "DELETE TOPIC(SPORT)") == ["AMQ8692I: IBM MQ topic deleted."]


def test_subscriptions_by_name_and_by_subid() -> None:
    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(SUB.Q)")
    run(engine, "DEFINE TOPIC(SPORT) TOPICSTR('sport')")
    assert run(engine, "DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('football') DEST(SUB.Q)") == ["AMQ8094I: IBM MQ subscription created."]
    [response] = inquire_sub(engine, String(mq.MQCACF_SUB_NAME, "S1"))
    sub_id = response.get(SUB_ID)
    assert isinstance(sub_id, ByteString) and len(sub_id.value) == 24 and sub_id.value.startswith(b"AMQ QM1         ")
    assert response.version >= 2  # an answer with an MQCFBS
    assert response.str_value(mq.MQCA_TOPIC_STRING) == "sport/football"  # TOPICOBJ's string, '/', TOPICSTR
    hex_id = sub_id.value.hex().upper()
    assert run(engine, "DISPLAY SUB(S1)") == ["AMQ8096I: IBM MQ subscription inquired.", f"   SUBID({hex_id})", "   SUB(S1)"]
    shown = run(engine, f"DISPLAY SUB SUBID({hex_id}) DISTYPE(DEFINED) TOPICSTR DESTCORL")
    assert f"   DESTCORL({hex_id})" in shown  # the correlation id is the SubId when none was given
    assert "   SUB(S1)                                 TOPICSTR(football)" in shown
    assert run(engine, "ALTER SUB(S1) SELECTOR('a = 1')")[0].startswith("AMQ8405I")  # not alterable: not an ALTER SUB keyword
    assert run(engine, f"ALTER SUB SUBID({hex_id}) USERDATA('x')") == ["AMQ8095I: IBM MQ subscription changed."]
    assert run(engine, "DEFINE SUB(S2) TOPICSTR('x') DEST(NO.SUCH.Q)")[0].startswith("AMQ8147E")
    assert "MQRCCF_DEST_NAME_ERROR" in run(engine, "DEFINE SUB(S2) TOPICSTR('x')")[0]
    run(engine, "DELETE TOPIC(SPORT)")  # the subscription stays, with its topic (q020890_)
    assert "   SUB(S1)                                 TOPICSTR(sport/football)" in run(engine, "DISPLAY SUB(S1) TOPICSTR")
    assert run(engine, f"DELETE SUB SUBID({hex_id})") == ["AMQ8097I: IBM MQ subscription deleted."]
    assert len(inquire_sub(engine, String(mq.MQCACF_SUB_NAME, "S1"))) == 2  # gone: error and summary
    [error, _] = inquire_sub(engine)
    assert error.reason == mq.MQRCCF_SUB_IDENTITY_ERROR


def test_a_subscription_on_a_topic_that_refuses_durable_subscriptions() -> None:
    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(SUB.Q)")
    run(engine, "DEFINE TOPIC(NODUR) TOPICSTR('nodur') DURSUB(NO)")
    assert "MQRCCF_DURABILITY_NOT_ALLOWED" in run(engine, "DEFINE SUB(D1) TOPICSTR('nodur/x') DEST(SUB.Q)")[0]
    run(engine, "ALTER TOPIC(NODUR) DURSUB(ASPARENT)")  # now inherited from SYSTEM.BASE.TOPIC: YES
    assert run(engine, "DEFINE SUB(D1) TOPICSTR('nodur/x') DEST(SUB.Q)") == ["AMQ8094I: IBM MQ subscription created."]


def test_subid_and_subscription_survive_a_restart(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    run(engine, "DEFINE QLOCAL(SUB.Q)")
    run(engine, "DEFINE SUB(KEPT) TOPICSTR('kept/here') DEST(SUB.Q) PUBACCT(0102)")
    [before] = inquire_sub(engine, String(mq.MQCACF_SUB_NAME, "KEPT"))
    engine.close()
    again = open_engine(tmp_path)
    [after] = inquire_sub(again, String(mq.MQCACF_SUB_NAME, "KEPT"))
    assert after.get(SUB_ID) == before.get(SUB_ID)
    assert after.get(mq.MQBACF_ACCOUNTING_TOKEN) == ByteString(mq.MQBACF_ACCOUNTING_TOKEN, b"\x01\x02" + bytes(30))
    sub_id = before.get(SUB_ID)
    assert isinstance(sub_id, ByteString)
    [by_id] = inquire_sub(again, ByteString(SUB_ID, sub_id.value))
    assert by_id.str_value(mq.MQCACF_SUB_NAME) == "KEPT"
    again.close()


names = st.text(alphabet=string.ascii_uppercase + string.digits + "._", min_size=1, max_size=20).filter(lambda n: not n.startswith("SYSTEM"))
levels = st.lists(st.text(alphabet=string.ascii_lowercase + string.digits, min_size=1, max_size=6), min_size=1, max_size=3)
durable_words = st.sampled_from(["ASPARENT", "YES", "NO"])


@settings(max_examples=40, deadline=None)
@given(names, levels, durable_words, st.text(alphabet=string.ascii_letters + " ", max_size=30))
def test_mqsc_and_run_command_json_define_the_same_topic(name: str, path: list[str], dursub: str, descr: str) -> None:
    topic = "/".join(path)
    by_mqsc, by_json, by_pcf = open_engine(None), open_engine(None), open_engine(None)
    quoted = descr.replace("'", "''")
    assert run(by_mqsc, f"DEFINE TOPIC('{name}') TOPICSTR('{topic}') DURSUB({dursub}) DESCR('{quoted}')") == ["AMQ8690I: IBM MQ topic created."]
    answer = run_json(by_json, command="define", qualifier="topic", name=name, parameters={"topicstr": topic, "dursub": dursub, "descr": descr})
    assert answer["overallCompletionCode"] == 0, answer
    value = {"ASPARENT": mq.MQSUB_DURABLE_AS_PARENT, "YES": mq.MQSUB_DURABLE_ALLOWED, "NO": mq.MQSUB_DURABLE_INHIBITED}[dursub]
    from pcfserver.codec import Integer

    by_pcf.execute(Message(mq.MQCMD_CREATE_TOPIC, (String(mq.MQCA_TOPIC_NAME, name), String(mq.MQCA_TOPIC_STRING, topic),
                                                   Integer(mq.MQIA_DURABLE_SUB, value), String(mq.MQCA_TOPIC_DESC, descr))))

    def state(engine: Engine) -> dict[int, object]:
        [response] = engine.execute(Message(mq.MQCMD_INQUIRE_TOPIC, (String(mq.MQCA_TOPIC_NAME, name),)))
        return {p.parameter: getattr(p, "value", None) for p in response.parameters if p.parameter not in (mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME)}

    assert state(by_mqsc) == state(by_json) == state(by_pcf)
    shown = run_json(by_json, command="display", qualifier="topic", name=name, responseParameters=["all"])
    [item] = shown["commandResponse"]
    assert item["parameters"]["topicstr"] == topic and item["parameters"]["dursub"] == dursub
    # a second object with the same string is refused in every form
    assert run_json(by_json, command="define", qualifier="topic", name=name + "2", parameters={"topicstr": topic})["overallReasonCode"] == mq.MQRCCF_COMMAND_FAILED
    # delete in each form
    assert run(by_mqsc, f"DELETE TOPIC('{name}')") == ["AMQ8692I: IBM MQ topic deleted."]
    assert run_json(by_json, command="delete", qualifier="topic", name=name)["overallCompletionCode"] == 0


@settings(max_examples=40, deadline=None)
@given(names, levels, st.sampled_from(["ASPUB", "ASQDEF", "0", "9"]), st.text(alphabet=string.ascii_letters, max_size=20), st.booleans())
def test_mqsc_and_run_command_json_define_alter_display_delete_the_same_sub(name: str, path: list[str], pubprty: str, userdata: str, with_object: bool) -> None:
    topic = "/".join(path)
    engines = open_engine(None), open_engine(None)
    for engine in engines:
        run(engine, "DEFINE QLOCAL(SUB.Q)")
        run(engine, "DEFINE TOPIC(BASE.T) TOPICSTR('base')")
    by_mqsc, by_json = engines
    obj = "TOPICOBJ(BASE.T) " if with_object else ""
    assert run(by_mqsc, f"DEFINE SUB('{name}') {obj}TOPICSTR('{topic}') DEST(SUB.Q) PUBPRTY({pubprty}) USERDATA('{userdata}')") == ["AMQ8094I: IBM MQ subscription created."]
    params: dict[str, Any] = {"topicstr": topic, "dest": "SUB.Q", "pubprty": pubprty, "userdata": userdata}
    if with_object:
        params["topicobj"] = "BASE.T"
    assert run_json(by_json, command="define", qualifier="sub", name=name, parameters=params)["overallCompletionCode"] == 0
    expected_topic = f"base/{topic}" if with_object else topic
    shown = {}
    for label, engine in (("mqsc", by_mqsc), ("json", by_json)):
        [item] = run_json(engine, command="display", qualifier="sub", name=name, responseParameters=["all"])["commandResponse"]
        values = item["parameters"]
        assert values["topicstr"] == expected_topic and str(values["pubprty"]) == pubprty and values["subtype"] == "ADMIN"
        assert len(values["subid"]) == 48 and values["destcorl"] == values["subid"]
        shown[label] = {k: v for k, v in values.items() if k not in ("subid", "destcorl", "crdate", "crtime", "altdate", "alttime")}
    assert shown["mqsc"] == shown["json"]
    assert run_json(by_json, command="alter", qualifier="sub", name=name, parameters={"userdata": "changed"})["overallCompletionCode"] == 0
    assert run(by_mqsc, f"ALTER SUB('{name}') USERDATA('changed')") == ["AMQ8095I: IBM MQ subscription changed."]
    for engine in engines:
        [item] = run_json(engine, command="display", qualifier="sub", name=name, responseParameters=["userdata"])["commandResponse"]
        assert item["parameters"]["userdata"] == "changed"
    assert run(by_mqsc, f"DELETE SUB('{name}')") == ["AMQ8097I: IBM MQ subscription deleted."]
    assert run_json(by_json, command="delete", qualifier="sub", name=name)["overallCompletionCode"] == 0


def test_copy_replace_and_answers_that_always_carry_the_subid() -> None:
    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(SUB.Q)")
    run(engine, "DEFINE SUB('my sub') TOPICSTR('a/b') DEST(SUB.Q) USERDATA('u1')")
    assert run(engine, "DEFINE SUB(COPY) LIKE('my sub')") == ["AMQ8094I: IBM MQ subscription created."]
    answers = {}
    for name in ("my sub", "COPY"):
        from pcfserver.codec import IntegerList

        [response] = inquire_sub(engine, String(mq.MQCACF_SUB_NAME, name), IntegerList(mq.MQIACF_SUB_ATTRS, (mq.MQCA_TOPIC_STRING,)))
        answers[name] = response
        assert response.str_value(mq.MQCA_TOPIC_STRING) == "a/b"  # the copy takes its source's topic
        assert isinstance(response.get(SUB_ID), ByteString)  # asked for TOPICSTR only, the SubId comes too
    assert answers["my sub"].get(SUB_ID) != answers["COPY"].get(SUB_ID)  # the copy has its own identity
    before = answers["COPY"].get(SUB_ID)
    assert run(engine, "DEFINE SUB(COPY) TOPICSTR('a/b') DEST(SUB.Q) USERDATA('new') REPLACE") == ["AMQ8094I: IBM MQ subscription created."]
    [replaced] = inquire_sub(engine, String(mq.MQCACF_SUB_NAME, "COPY"))
    assert replaced.get(SUB_ID) == before and replaced.str_value(mq.MQCACF_SUB_USER_DATA) == "new"
    assert "MQRC_TOPIC_NOT_ALTERABLE" in run(engine, "DEFINE SUB(COPY) TOPICSTR('other') DEST(SUB.Q) REPLACE")[0]


def test_ignstate_yes_deletes_what_is_not_there_without_error() -> None:
    engine = open_engine(None)
    assert run(engine, "DELETE SUB(NONE) IGNSTATE(YES)") == ["AMQ8097I: IBM MQ subscription deleted."]
    assert "MQRC_NO_SUBSCRIPTION" in run(engine, "DELETE SUB(NONE)")[0]
    assert run(engine, "DELETE TOPIC(NONE) IGNSTATE(YES)") == ["AMQ8692I: IBM MQ topic deleted."]
    assert run(engine, "DELETE TOPIC(NONE)") == ["AMQ8147E: IBM MQ object NONE not found."]


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=24, max_size=24), st.binary(min_size=1, max_size=24), st.text(alphabet=string.printable.strip(), max_size=30), st.booleans())
def test_subscription_commands_with_byte_strings_round_trip_through_mqsc(sub_id: bytes, correl: bytes, userdata: str, named: bool) -> None:
    """PCF -> MQSC text -> PCF gives the same command: SUBID and DESTCORL as hex digits, a sub named by SUBID alone."""
    from pcfserver.codec import Parameter

    head: tuple[Parameter, ...] = (String(mq.MQCACF_SUB_NAME, "S.1"),) if named else ()
    message = Message(mq.MQCMD_CHANGE_SUBSCRIPTION, (*head, ByteString(SUB_ID, sub_id), String(mq.MQCACF_SUB_USER_DATA, userdata),
                                                     ByteString(mq.MQBACF_DESTINATION_CORREL_ID, correl)))
    [again] = mqsc.parse_command(mqsc.render_command(message))
    assert again.command == message.command and again.parameters == message.parameters
    assert again.version == 2  # MQCFBS needs MQCFH version 2


def test_no_new_subscription_while_publish_subscribe_is_disabled() -> None:
    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(SUB.Q)")
    run(engine, "ALTER QMGR PSMODE(DISABLED)")
    assert "MQRCCF_PUBSUB_INHIBITED" in run(engine, "DEFINE SUB(S1) TOPICSTR('t') DEST(SUB.Q)")[0]
    run(engine, "ALTER QMGR PSMODE(ENABLED)")
    assert run(engine, "DEFINE SUB(S1) TOPICSTR('t') DEST(SUB.Q)") == ["AMQ8094I: IBM MQ subscription created."]


def test_topic_answers_always_carry_the_type() -> None:
    engine = open_engine(None)
    assert run(engine, "DISPLAY TOPIC(SYSTEM.BASE.TOPIC) DURSUB") == [
        "AMQ8633I: Display topic details.",
        "   TOPIC(SYSTEM.BASE.TOPIC)                TYPE(LOCAL)",
        "   DURSUB(YES)",
    ]


def test_dump_recreates_topics_and_subscriptions_on_a_fresh_queue_manager() -> None:
    from pcfserver.dialects import run_script
    from pcfserver.dialects.dump import dump

    first = open_engine(None)
    for text in (
        "DEFINE TOPIC(SPORT) TOPICSTR('sport') DURSUB(YES) DESCR('Sport')",
        "DEFINE QLOCAL(SUB.Q)",
        "DEFINE SUB(SCORES) TOPICOBJ(SPORT) TOPICSTR('football') DEST(SUB.Q) USERDATA('league') PUBPRTY(7)",
        "DEFINE SUB('plain') TOPICSTR('news/#') DEST(SUB.Q)",
    ):
        assert run(first, text)[0].startswith("AMQ")
    script = dump(first.execute)
    second = open_engine(None)
    transcript = run_script(script, second.execute, dialect="mqsc")
    assert transcript.exit_code == 0, transcript.text

    def state(engine: Engine) -> dict[str, dict[int, object]]:
        out = {}
        for response in engine.execute(Message(mq.MQCMD_INQUIRE_SUBSCRIPTION, (String(mq.MQCACF_SUB_NAME, "*"),))):
            values = {p.parameter: getattr(p, "value", None) for p in response.parameters}
            generated = (SUB_ID, mq.MQBACF_DESTINATION_CORREL_ID, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME, mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME)
            out[str(values[mq.MQCACF_SUB_NAME])] = {k: v for k, v in values.items() if k not in generated}
        return out

    assert state(second) == state(first)
    assert state(second)["SCORES"][mq.MQCA_TOPIC_STRING] == "sport/football"  # joined once, not twice
    assert dump(second.execute).split("\n", 2)[2] == script.split("\n", 2)[2]  # the same dump (after the header)


def test_display_sub_lays_out_as_ibm_s_example() -> None:
    """IBM 'Displaying attributes of subscriptions' (q020920_): DISPLAY SUB(ORANGE) SUBID TOPICSTR DURABLE shows SUBID
    on a line of its own, then SUB and TOPICSTR, then DURABLE; the same by SUBID."""
    engine = open_engine(None)
    run(engine, "DEFINE QLOCAL(ORANGE.Q)")
    run(engine, "DEFINE SUB(ORANGE) TOPICSTR(ORANGE) DEST(ORANGE.Q)")
    shown = run(engine, "DISPLAY SUB(ORANGE) SUBID TOPICSTR DURABLE")
    assert shown[0] == "AMQ8096I: IBM MQ subscription inquired."
    assert shown[1].startswith("   SUBID(414D5120514D3120") and len(shown[1]) == 3 + len("SUBID()") + 48
    assert shown[2:] == ["   SUB(ORANGE)                             TOPICSTR(ORANGE)", "   DURABLE(YES)"]
    sub_id = shown[1].strip()[len("SUBID(") : -1]
    assert run(engine, f"DISPLAY SUB SUBID({sub_id}) TOPICSTR DURABLE") == shown
