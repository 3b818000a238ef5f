"""What the commands do to the registry and what Inquire reports (S10, S14, S16, command-semantics.md)."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace

import pytest
from engine_support import (
    IBM_QUEUES,
    ORDERS,
    attributes,
    change,
    close_queue,
    command,
    copy,
    create,
    delete,
    error_parameter,
    inquire,
    ok,
    open_queue,
    put_messages,
    qname,
    qtype,
    reason,
    run,
)

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, PcfError, String, StringFilter, StringList, decode, encode
from pcfserver.engine import Engine, open_engine
from pcfserver.engine.spec import spec

L, M, A, R = mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE
DEFAULTS = {
    L: "SYSTEM.DEFAULT.LOCAL.QUEUE",
    M: "SYSTEM.DEFAULT.MODEL.QUEUE",
    A: "SYSTEM.DEFAULT.ALIAS.QUEUE",
    R: "SYSTEM.DEFAULT.REMOTE.QUEUE",
}


@pytest.fixture
def engine() -> Engine:
    return open_engine()


def test_first_start_holds_ibms_default_queues(engine: Engine) -> None:
    answer = ok(engine, command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*")))
    names = answer[0].parameters[0]
    types = answer[0].parameters[1]
    assert isinstance(names, StringList) and isinstance(types, IntegerList)
    assert [n.rstrip() for n in names.values] == sorted(IBM_QUEUES)
    assert dict(zip((n.rstrip() for n in names.values), types.values, strict=True)) == IBM_QUEUES
    local = inquire(engine, DEFAULTS[L])
    # IBM's shipped Multiplatforms defaults (queue-attributes.tsv, S1/S2/S13)
    assert local[mq.MQIA_MAX_Q_DEPTH] == 5000
    assert local[mq.MQIA_MAX_MSG_LENGTH] == 4194304
    assert local[mq.MQIA_DEF_INPUT_OPEN_OPTION] == mq.MQOO_INPUT_SHARED
    assert local[mq.MQIA_Q_DEPTH_HIGH_LIMIT] == 80 and local[mq.MQIA_Q_DEPTH_LOW_LIMIT] == 20
    assert local[mq.MQIA_CLWL_USEQ] == mq.MQCLWL_USEQ_AS_Q_MGR
    assert local[mq.MQIA_HARDEN_GET_BACKOUT] == mq.MQQA_BACKOUT_HARDENED  # HARDENBO, as MQ 9.4's dmpmqcfg shows
    assert local[mq.MQIA_CURRENT_Q_DEPTH] == 0 and local[mq.MQIA_OPEN_INPUT_COUNT] == 0 and local[mq.MQIA_OPEN_OUTPUT_COUNT] == 0
    model = inquire(engine, DEFAULTS[M])
    assert model[mq.MQIA_DEFINITION_TYPE] == mq.MQQDT_TEMPORARY_DYNAMIC
    assert model[mq.MQIA_DEF_INPUT_OPEN_OPTION] == mq.MQOO_INPUT_EXCLUSIVE
    alias = inquire(engine, DEFAULTS[A])
    assert alias[mq.MQIA_BASE_TYPE] == mq.MQOT_Q


def test_the_system_queues_hold_ibms_attributes(engine: Engine) -> None:
    # As a dmpmqcfg of IBM MQ 9.4 shows them (formats/default-objects.tsv [DMP]).
    command_queue = inquire(engine, "SYSTEM.ADMIN.COMMAND.QUEUE")
    assert command_queue[mq.MQIA_MAX_Q_DEPTH] == 3000 and command_queue[mq.MQIA_MAX_MSG_LENGTH] == 32762
    assert command_queue[mq.MQIA_DEF_INPUT_OPEN_OPTION] == mq.MQOO_INPUT_EXCLUSIVE
    assert command_queue[mq.MQIA_SHAREABILITY] == mq.MQQA_NOT_SHAREABLE
    assert command_queue[mq.MQCA_Q_DESC] == "IBM MQ Administration Command Queue"
    durable = inquire(engine, "SYSTEM.DURABLE.MODEL.QUEUE")
    assert durable[mq.MQIA_DEFINITION_TYPE] == mq.MQQDT_PERMANENT_DYNAMIC
    assert durable[mq.MQIA_DEF_INPUT_OPEN_OPTION] == mq.MQOO_INPUT_SHARED and durable[mq.MQIA_MAX_Q_DEPTH] == 999999999
    non_durable = inquire(engine, "SYSTEM.NDURABLE.MODEL.QUEUE")
    assert non_durable[mq.MQIA_DEFINITION_TYPE] == mq.MQQDT_TEMPORARY_DYNAMIC
    assert non_durable[mq.MQIA_DEF_READ_AHEAD] == mq.MQREADA_YES
    assert inquire(engine, "SYSTEM.CLUSTER.TRANSMIT.QUEUE")[mq.MQIA_USAGE] == mq.MQUS_TRANSMISSION
    sync = inquire(engine, "SYSTEM.CHANNEL.SYNCQ")
    assert (sync[mq.MQIA_DEF_PERSISTENCE], sync[mq.MQIA_MAX_Q_DEPTH], sync[mq.MQIA_Q_DEPTH_LOW_LIMIT]) == (mq.MQPER_PERSISTENT, 20000, 40)
    # The dead-letter queue exists, but the queue manager names none (DEADQ blank) until told to.
    assert inquire(engine, "SYSTEM.DEAD.LETTER.QUEUE")[mq.MQIA_MAX_Q_DEPTH] == 999999999
    qmgr = attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0])
    assert qmgr[mq.MQCA_DEAD_LETTER_Q_NAME].strip() == ""
    # What a queue's row does not name comes from its type's default object.
    activity = inquire(engine, "SYSTEM.ADMIN.ACTIVITY.QUEUE")
    assert (activity[mq.MQIA_MAX_Q_DEPTH], activity[mq.MQIA_DEF_INPUT_OPEN_OPTION]) == (5000, mq.MQOO_INPUT_SHARED)


def test_the_queued_pubsub_namelists_name_ibms_streams_and_subscription_point(engine: Engine) -> None:
    def names(namelist: str) -> list[str]:
        [answer] = ok(engine, command(mq.MQCMD_INQUIRE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, namelist)))
        [found] = [p for p in answer.parameters if p.parameter == mq.MQCA_NAMES]
        assert isinstance(found, StringList)
        return [n.rstrip() for n in found.values]

    assert names("SYSTEM.QPUBSUB.QUEUE.NAMELIST") == ["SYSTEM.BROKER.DEFAULT.STREAM", "SYSTEM.BROKER.ADMIN.STREAM"]
    assert names("SYSTEM.QPUBSUB.SUBPOINT.NAMELIST") == ["SYSTEM.BROKER.DEFAULT.SUBPOINT"]
    assert names("SYSTEM.DEFAULT.NAMELIST") == []


def test_the_queued_pubsub_and_admin_topics_hold_ibms_attributes(engine: Engine) -> None:
    # As a dmpmqcfg of IBM MQ 9.4 shows them (formats/default-objects.tsv [DMP]).
    def topic(name: str) -> dict[int, object]:
        return attributes(ok(engine, command(mq.MQCMD_INQUIRE_TOPIC, String(mq.MQCA_TOPIC_NAME, name)))[0])

    admin_stream = topic("SYSTEM.BROKER.ADMIN.STREAM")
    assert admin_stream[mq.MQCA_TOPIC_STRING] == "SYSTEM.BROKER.ADMIN.STREAM"
    assert admin_stream[mq.MQCA_TOPIC_DESC] == "Admin stream for queued Pub/Sub interface"
    assert (admin_stream[mq.MQIA_INHIBIT_PUB], admin_stream[mq.MQIA_INHIBIT_SUB]) == (mq.MQTA_PUB_AS_PARENT, mq.MQTA_SUB_AS_PARENT)
    for name in ("SYSTEM.BROKER.ADMIN.STREAM", "SYSTEM.BROKER.DEFAULT.STREAM", "SYSTEM.BROKER.DEFAULT.SUBPOINT"):
        attrs = topic(name)
        assert (attrs[mq.MQIA_WILDCARD_OPERATION], attrs[mq.MQIA_MULTICAST]) == (mq.MQTA_BLOCK, mq.MQMC_DISABLED), name
    admin = topic("SYSTEM.ADMIN.TOPIC")
    assert admin[mq.MQCA_TOPIC_STRING] == "$SYS/MQ"
    assert (admin[mq.MQIA_PUB_SCOPE], admin[mq.MQIA_SUB_SCOPE]) == (mq.MQSCOPE_QMGR, mq.MQSCOPE_QMGR)
    assert admin[mq.MQCA_MODEL_DURABLE_Q] == "SYSTEM.DURABLE.MODEL.QUEUE"


def test_the_default_ldap_authinfo_holds_ibms_attributes(engine: Engine) -> None:
    [answer] = ok(engine, command(mq.MQCMD_INQUIRE_AUTH_INFO, String(mq.MQCA_AUTH_INFO_NAME, "SYSTEM.DEFAULT.AUTHINFO.IDPWLDAP")))
    ldap = attributes(answer)
    assert ldap[mq.MQIA_CHECK_CLIENT_BINDING] == mq.MQCHK_REQUIRED
    assert (ldap[mq.MQCA_LDAP_USER_OBJECT_CLASS], ldap[mq.MQCA_LDAP_GROUP_OBJECT_CLASS]) == ("", "")


def test_create_takes_every_unspecified_attribute_from_the_default_object(engine: Engine) -> None:
    ok(engine, change(DEFAULTS[L], L, Integer(mq.MQIA_MAX_Q_DEPTH, 1234), String(mq.MQCA_Q_DESC, "house default")))
    ok(engine, create("Q1", L, Integer(mq.MQIA_DEF_PRIORITY, 4)))
    q1 = inquire(engine, "Q1")
    assert q1[mq.MQIA_MAX_Q_DEPTH] == 1234
    assert q1[mq.MQCA_Q_DESC] == "house default"
    assert q1[mq.MQIA_DEF_PRIORITY] == 4
    default = inquire(engine, DEFAULTS[L])
    skip = {mq.MQCA_Q_NAME, mq.MQIA_DEF_PRIORITY, mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME}
    assert {k: v for k, v in q1.items() if k not in skip} == {k: v for k, v in default.items() if k not in skip}


def test_create_falls_back_to_table_defaults_when_the_default_object_is_gone(engine: Engine) -> None:
    ok(engine, delete(DEFAULTS[R]))
    ok(engine, create("R1", R))
    assert inquire(engine, "R1")[mq.MQIA_DEF_PRIORITY] == 0


@pytest.mark.parametrize("kind", [L, M, A, R])
def test_each_type_reports_exactly_its_attributes(engine: Engine, kind: int) -> None:
    ok(engine, create("T1", kind))
    reported = set(inquire(engine, "T1"))
    table = spec().queue_attributes
    expected = {a.pid for a in table.values() if kind in a.applies and not a.zos and a.access != "command"}
    assert reported == expected | {mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE}


def test_copy_takes_the_source_attributes_and_applies_overrides(engine: Engine) -> None:
    ok(engine, create("SRC", L, Integer(mq.MQIA_MAX_Q_DEPTH, 77), String(mq.MQCA_Q_DESC, "source"), Integer(mq.MQIA_DEF_PRIORITY, 3)))
    ok(engine, copy("SRC", "DST", L, Integer(mq.MQIA_DEF_PRIORITY, 8)))
    dst = inquire(engine, "DST")
    assert dst[mq.MQIA_MAX_Q_DEPTH] == 77 and dst[mq.MQCA_Q_DESC] == "source" and dst[mq.MQIA_DEF_PRIORITY] == 8
    assert inquire(engine, "SRC")[mq.MQIA_DEF_PRIORITY] == 3


def test_change_changes_only_the_given_attributes(engine: Engine) -> None:
    ok(engine, create("Q1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 10), String(mq.MQCA_Q_DESC, "one")))
    before = inquire(engine, "Q1")
    ok(engine, change("Q1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 20)))
    after = inquire(engine, "Q1")
    assert after[mq.MQIA_MAX_Q_DEPTH] == 20
    changed = {k for k in before if before[k] != after[k]}
    assert changed <= {mq.MQIA_MAX_Q_DEPTH, mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME}
    assert after[mq.MQCA_CREATION_DATE] == before[mq.MQCA_CREATION_DATE]


def test_create_with_replace_resets_unspecified_attributes_and_keeps_creation(engine: Engine) -> None:
    ok(engine, create("Q1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 10), String(mq.MQCA_Q_DESC, "one")))
    created = inquire(engine, "Q1")[mq.MQCA_CREATION_TIME]
    ok(engine, create("Q1", L, Integer(mq.MQIACF_REPLACE, mq.MQRP_YES), String(mq.MQCA_Q_DESC, "two")))
    q1 = inquire(engine, "Q1")
    assert q1[mq.MQIA_MAX_Q_DEPTH] == 5000 and q1[mq.MQCA_Q_DESC] == "two"
    assert q1[mq.MQCA_CREATION_TIME] == created


def test_strings_come_back_blank_padded_and_dates_formatted(engine: Engine) -> None:
    ok(engine, create("Q1", L, String(mq.MQCA_Q_DESC, "hi")))
    [message] = ok(engine, command(mq.MQCMD_INQUIRE_Q, qname("Q1")))
    lengths = {mq.MQCA_Q_NAME: 48, mq.MQCA_Q_DESC: 64, mq.MQCA_CREATION_DATE: 12, mq.MQCA_CREATION_TIME: 8,
               mq.MQCA_ALTERATION_DATE: 12, mq.MQCA_ALTERATION_TIME: 8, mq.MQCA_CUSTOM: 128, mq.MQCA_CLUS_CHL_NAME: 20}
    strings = {p.parameter: p for p in message.parameters if isinstance(p, String)}
    for pid, length in lengths.items():
        assert len(strings[pid].value) == length, pid
        assert strings[pid].ccsid == engine.ccsid
    assert message.parameters[0] == String(mq.MQCA_Q_NAME, "Q1".ljust(48), 819)
    assert message.parameters[1] == Integer(mq.MQIA_Q_TYPE, L)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d  ", strings[mq.MQCA_CREATION_DATE].value)
    assert re.fullmatch(r"\d\d\.\d\d\.\d\d", strings[mq.MQCA_ALTERATION_TIME].value)


def test_inquire_selectors_return_only_what_applies(engine: Engine) -> None:
    got = inquire(engine, DEFAULTS[A], mq.MQIA_MAX_Q_DEPTH, mq.MQCA_BASE_OBJECT_NAME, mq.MQIA_DEF_PRIORITY)
    assert set(got) == {mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE, mq.MQCA_BASE_OBJECT_NAME, mq.MQIA_DEF_PRIORITY}
    got = inquire(engine, DEFAULTS[L], mq.MQCA_Q_NAME)
    assert set(got) == {mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE}


def test_generic_inquire_answers_one_numbered_message_per_queue(engine: Engine) -> None:
    for name in ("APP.B", "APP.A", "APP.C", "OTHER"):
        ok(engine, create(name, L))
    answer = ok(engine, command(mq.MQCMD_INQUIRE_Q, qname("APP.*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH,))))
    assert [attributes(m)[mq.MQCA_Q_NAME] for m in answer] == ["APP.A", "APP.B", "APP.C"]
    assert [m.msg_seq_number for m in answer] == [1, 2, 3]
    assert [m.control for m in answer] == [0, 0, 1]
    everything = ok(engine, command(mq.MQCMD_INQUIRE_Q, qname("*"), qtype(L)))
    assert len(everything) == 4 + sum(t == L for t in IBM_QUEUES.values())  # APP.A-C, OTHER, IBM's local queues


def test_inquire_filters(engine: Engine) -> None:
    ok(engine, create("F1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 10), String(mq.MQCA_Q_DESC, "payments in")))
    ok(engine, create("F2", L, Integer(mq.MQIA_MAX_Q_DEPTH, 20), String(mq.MQCA_Q_DESC, "orders"), String(mq.MQCA_CLUSTER_NAME, "CL1")))

    def names(*params: object) -> list[object]:
        answer = run(engine, command(mq.MQCMD_INQUIRE_Q, qname("F*"), *params))  # type: ignore[arg-type]
        if answer[0].comp_code:
            return []
        return [attributes(m)[mq.MQCA_Q_NAME] for m in answer]

    assert names(IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 15)) == ["F2"]
    assert names(IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_NOT_GREATER, 15)) == ["F1"]
    assert names(IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_NOT_EQUAL, 10)) == ["F2"]
    assert names(StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "pay*")) == ["F1"]
    assert names(StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_NOT_LIKE, "pay*")) == ["F2"]
    assert names(StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_EQUAL, "orders")) == ["F2"]
    assert names(String(mq.MQCA_CLUSTER_NAME, "CL*")) == ["F2"]
    assert names(IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_EQUAL, 0)) == ["F1", "F2"]


def test_inquire_names_lists_sorted_names_and_types(engine: Engine) -> None:
    ok(engine, create("ZZ", A))
    ok(engine, create("AA", R))
    answer = ok(engine, command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*"), qtype(A)))
    names, types = answer[0].parameters
    assert isinstance(names, StringList) and isinstance(types, IntegerList)
    assert [n.rstrip() for n in names.values] == ["SYSTEM.DEFAULT.ALIAS.QUEUE", "ZZ"]
    assert all(len(n) == 48 for n in names.values)
    assert types.values == (A, A)
    empty = ok(engine, command(mq.MQCMD_INQUIRE_Q_NAMES, qname("NONE*")))
    assert empty[0].parameters == (StringList(mq.MQCACF_Q_NAMES, (), 819), IntegerList(mq.MQIACF_Q_TYPES, ()))


def test_queue_manager_attributes(engine: Engine) -> None:
    [message] = ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))
    attrs = attributes(message)
    assert message.parameters[0] == String(mq.MQCA_Q_MGR_NAME, "QM1".ljust(48), 819)
    assert attrs[mq.MQIA_MAX_UNCOMMITTED_MSGS] == 10000
    assert attrs[mq.MQIA_MAX_MSG_LENGTH] == 4194304
    assert attrs[mq.MQIA_CODED_CHAR_SET_ID] == 819
    assert attrs[mq.MQIA_COMMAND_LEVEL] == mq.MQCMDL_CURRENT_LEVEL
    ok(engine, command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 20000), Integer(mq.MQIA_MAX_MSG_LENGTH, 104857600)))
    [message] = ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR, IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIA_MAX_UNCOMMITTED_MSGS, mq.MQIA_MAX_MSG_LENGTH))))
    assert attributes(message) == {mq.MQCA_Q_MGR_NAME: "QM1", mq.MQIA_MAX_UNCOMMITTED_MSGS: 20000, mq.MQIA_MAX_MSG_LENGTH: 104857600}


def test_an_ebcdic_queue_manager_answers_in_its_ccsid() -> None:
    engine = open_engine(qmgr="QM.EBCDIC", ccsid=500)
    ok(engine, command(mq.MQCMD_CREATE_Q, String(mq.MQCA_Q_NAME, "EB.Q", 500), qtype(L), String(mq.MQCA_Q_DESC, "caf\u00e9", 37)))
    [message] = engine.execute(command(mq.MQCMD_INQUIRE_Q, qname("EB.Q"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQCA_Q_DESC,))))
    data = encode(message)
    assert "EB.Q".encode("cp500") in data and "caf\u00e9".encode("cp500") in data
    assert attributes(decode(data)[0])[mq.MQCA_Q_DESC] == "caf\u00e9"


@pytest.mark.parametrize("order", ORDERS)
def test_force_is_needed_when_a_change_affects_an_open_queue(engine: Engine, order: str) -> None:
    ok(engine, create("Q1", L))
    put_messages(engine, "Q1", 3)
    assert reason(run(engine, change("Q1", L, Integer(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION)), order)) == mq.MQRCCF_OBJECT_OPEN_FORCE
    assert reason(run(engine, change("Q1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 9)), order)) == mq.MQRC_NONE
    ok(engine, change("Q1", L, Integer(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION), Integer(mq.MQIACF_FORCE, mq.MQFC_YES)), order)
    readers = [open_queue(engine, "Q1", input=True) for _ in range(2)]
    assert reason(run(engine, change("Q1", L, Integer(mq.MQIA_SHAREABILITY, mq.MQQA_NOT_SHAREABLE)), order)) == mq.MQRCCF_OBJECT_OPEN_FORCE
    assert reason(run(engine, create("Q1", L, Integer(mq.MQIACF_REPLACE, 1)), order)) == mq.MQRCCF_OBJECT_OPEN
    close_queue(engine, readers[0])
    # One reader left: NOSHARE no longer needs Force (S11: "one or more" others than the changer is K; IBM says >1 here)
    ok(engine, change(DEFAULTS[A], A, String(mq.MQCA_BASE_OBJECT_NAME, "Q1")), order)
    open_queue(engine, DEFAULTS[A], output=True)
    assert reason(run(engine, change(DEFAULTS[A], A, String(mq.MQCA_BASE_OBJECT_NAME, "T")), order)) == mq.MQRCCF_OBJECT_OPEN_FORCE
    ok(engine, change(DEFAULTS[A], A, String(mq.MQCA_BASE_OBJECT_NAME, "T"), Integer(mq.MQIACF_FORCE, 1)), order)


def test_delete_and_clear_respect_messages_and_open_handles(engine: Engine) -> None:
    ok(engine, create("Q1", L))
    put_messages(engine, "Q1", 5)
    assert reason(run(engine, delete("Q1"))) == mq.MQRC_Q_NOT_EMPTY
    assert reason(run(engine, delete("Q1", Integer(mq.MQIACF_PURGE, mq.MQPO_NO)))) == mq.MQRC_Q_NOT_EMPTY
    reader = open_queue(engine, "Q1", input=True)
    assert reason(run(engine, command(mq.MQCMD_CLEAR_Q, qname("Q1")))) == mq.MQRCCF_OBJECT_OPEN
    assert reason(run(engine, delete("Q1", Integer(mq.MQIACF_PURGE, mq.MQPO_YES)))) == mq.MQRCCF_OBJECT_OPEN
    close_queue(engine, reader)
    assert inquire(engine, "Q1", mq.MQIA_CURRENT_Q_DEPTH)[mq.MQIA_CURRENT_Q_DEPTH] == 5
    ok(engine, command(mq.MQCMD_CLEAR_Q, qname("Q1")))
    assert inquire(engine, "Q1", mq.MQIA_CURRENT_Q_DEPTH)[mq.MQIA_CURRENT_Q_DEPTH] == 0
    put_messages(engine, "Q1", 5)
    ok(engine, delete("Q1", Integer(mq.MQIACF_PURGE, mq.MQPO_YES)))
    ok(engine, create("Q1", L))
    assert inquire(engine, "Q1", mq.MQIA_CURRENT_Q_DEPTH)[mq.MQIA_CURRENT_Q_DEPTH] == 0


def test_uncommitted_messages_block_clear_and_delete_even_with_purge(engine: Engine) -> None:
    ok(engine, create("Q1", L))
    put_messages(engine, "Q1", 1, syncpoint=True)
    assert reason(run(engine, command(mq.MQCMD_CLEAR_Q, qname("Q1")))) == mq.MQRC_Q_NOT_EMPTY
    assert reason(run(engine, delete("Q1", Integer(mq.MQIACF_PURGE, mq.MQPO_YES)))) == mq.MQRC_Q_NOT_EMPTY


def test_header_checks() -> None:
    engine = open_engine()
    ping = command(mq.MQCMD_PING_Q_MGR)
    assert reason(engine.execute(replace(ping, version=4))) == mq.MQRCCF_CFH_VERSION_ERROR
    assert reason(engine.execute(replace(ping, msg_seq_number=2))) == mq.MQRCCF_CFH_MSG_SEQ_NUMBER_ERR
    assert reason(engine.execute(replace(ping, control=mq.MQCFC_NOT_LAST))) == mq.MQRCCF_CFH_CONTROL_ERROR
    assert reason(engine.execute(replace(ping, type=mq.MQCFT_USER))) == mq.MQRCCF_CFH_TYPE_ERROR
    broken = replace(ping, error=PcfError(mq.MQRCCF_CFST_LENGTH_ERROR, "bad", parameter_id=mq.MQCA_Q_NAME))
    answer = engine.execute(broken)
    assert reason(answer) == mq.MQRCCF_CFST_LENGTH_ERROR
    assert error_parameter(answer) == (mq.MQIACF_PARAMETER_ID, mq.MQCA_Q_NAME)


def test_filters_need_version_3() -> None:
    engine = open_engine()
    message = command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 1), version=1)
    assert reason(engine.execute(message)) == mq.MQRCCF_STRUCTURE_TYPE_ERROR


def test_responses_keep_the_byte_order_and_version_of_the_command(engine: Engine) -> None:
    for order in ORDERS:
        for version in (1, 2, 3):
            message = replace(command(mq.MQCMD_PING_Q_MGR, version=version), byte_order=order)
            [answer] = engine.execute(message)
            assert answer.byte_order == order and answer.version == version


def test_an_unexpected_exception_answers_2195_and_leaves_the_state_untouched(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    ok(engine, create("Q1", L))
    before = dict(engine._queues)

    def boom(command: Message) -> list[Message]:
        raise RuntimeError("bug after the change was applied in memory")

    monkeypatch.setattr(engine, "_ok", boom)
    monkeypatch.setattr(engine, "ok", boom)  # the name the queue room answers through
    answer = engine.execute(change("Q1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 1)))
    assert reason(answer) == mq.MQRC_UNEXPECTED_ERROR
    assert error_parameter(answer) == (mq.MQIACF_ERROR_ID, mq.MQRC_UNEXPECTED_ERROR)
    assert len(answer) == 2 and answer[1].reason == mq.MQRCCF_COMMAND_FAILED
    answer = engine.execute(create("Q2", L))
    assert reason(answer) == mq.MQRC_UNEXPECTED_ERROR
    assert engine._queues == before
    monkeypatch.undo()
    assert inquire(engine, "Q1", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 5000


def test_garbage_input_never_raises(engine: Engine) -> None:
    answer = engine.execute("not a message")  # type: ignore[arg-type]
    assert reason(answer) == mq.MQRC_UNEXPECTED_ERROR
    weird = Message(mq.MQCMD_CREATE_Q, (qname("Q1"), qtype(L), String(mq.MQIA_MAX_Q_DEPTH, "5")))
    assert reason(engine.execute(weird)) == mq.MQRCCF_CFST_PARM_ID_ERROR


def test_a_batch_answers_each_command_and_a_failed_commit_undoes_the_whole_batch(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = engine.execute_batch([create("B1"), create("B1"), change("B1", L, Integer(mq.MQIA_MAX_Q_DEPTH, 3)), command(mq.MQCMD_INQUIRE_Q, qname("B1"))])
    assert [reason(a) for a in answers] == [0, mq.MQRCCF_OBJECT_ALREADY_EXISTS, 0, 0]
    assert attributes(answers[3][0])[mq.MQIA_MAX_Q_DEPTH] == 3
    before = dict(engine._queues)

    def full(ops: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(engine._store, "commit", full)
    answers = engine.execute_batch([create("B2"), delete("B1"), command(mq.MQCMD_PING_Q_MGR), create("B1", A), create(DEFAULTS[L], A)])
    failed = mq.MQRC_UNEXPECTED_ERROR
    assert [reason(a) for a in answers] == [failed, failed, 0, failed, mq.MQRCCF_OBJECT_WRONG_TYPE]
    assert error_parameter(answers[0]) == (mq.MQIACF_ERROR_ID, mq.MQRC_STORAGE_MEDIUM_FULL)
    assert engine._queues == before
    monkeypatch.undo()
    assert engine.execute_batch([]) == []
    ok(engine, create("B2"))


def test_the_default_multicast_comminfo_holds_ibms_heartbeat_interval(engine: Engine) -> None:
    # MCHBINT(2000) in a dmpmqcfg of MQ 9.4 (formats/default-objects.tsv [DMP]), not the table's 20000.
    [answer] = ok(engine, command(mq.MQCMD_INQUIRE_COMM_INFO, String(mq.MQCA_COMM_INFO_NAME, "SYSTEM.DEFAULT.COMMINFO.MULTICAST")))
    assert attributes(answer)[mq.MQIACH_MC_HB_INTERVAL] == 2000
