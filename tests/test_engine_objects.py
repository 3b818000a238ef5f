"""Process definitions and namelists over PCF: the six commands of each, their reasons, durability and authority."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from engine_support import command, error_parameter, ok, reason, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter, StringList
from pcfserver.engine import Engine, open_engine
from pcfserver.engine.authority import Identity

P = mq.MQCA_PROCESS_NAME
N = mq.MQCA_NAMELIST_NAME


def values(message: Message) -> dict[int, object]:
    """A data response as {parameter: value}, strings and string lists right-trimmed."""
    out: dict[int, object] = {}
    for p in message.parameters:
        if isinstance(p, String):
            out[p.parameter] = p.value.rstrip(" ")
        elif isinstance(p, StringList):
            out[p.parameter] = tuple(v.rstrip(" ") for v in p.values)
        elif isinstance(p, Integer):
            out[p.parameter] = p.value
    return out


def process(engine: Engine, name: str, *selectors: int) -> dict[int, object]:
    params: list[Parameter] = [String(P, name)]
    if selectors:
        params.append(IntegerList(mq.MQIACF_PROCESS_ATTRS, selectors))
    [answer] = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, *params))
    return values(answer)


def namelist(engine: Engine, name: str) -> dict[int, object]:
    [answer] = ok(engine, command(mq.MQCMD_INQUIRE_NAMELIST, String(N, name)))
    return values(answer)


def create_process(name: str, *attrs: Parameter) -> Message:
    return command(mq.MQCMD_CREATE_PROCESS, String(P, name), *attrs)


def create_namelist(name: str, *names: str, more: tuple[Parameter, ...] = ()) -> Message:
    return command(mq.MQCMD_CREATE_NAMELIST, String(N, name), StringList(mq.MQCA_NAMES, names), *more)


@pytest.fixture
def engine() -> Engine:
    return open_engine(None)


def test_a_new_queue_manager_has_ibms_default_process_and_namelist(engine: Engine) -> None:
    default = process(engine, "SYSTEM.DEFAULT.PROCESS")
    assert default[mq.MQIA_APPL_TYPE] == mq.MQAT_UNIX  # DEF: the platform's type
    assert [default[pid] for pid in (mq.MQCA_PROCESS_DESC, mq.MQCA_APPL_ID, mq.MQCA_ENV_DATA, mq.MQCA_USER_DATA)] == ["", "", "", ""]
    assert len(str(default[mq.MQCA_ALTERATION_DATE])) == 10 and len(str(default[mq.MQCA_ALTERATION_TIME])) == 8
    nl = namelist(engine, "SYSTEM.DEFAULT.NAMELIST")
    assert (nl[mq.MQIA_NAME_COUNT], nl[mq.MQCA_NAMES]) == (0, ())


def test_inquire_reports_the_name_then_the_attributes_in_table_order(engine: Engine) -> None:
    ok(engine, create_process("APP.P", String(mq.MQCA_APPL_ID, "/bin/app"), Integer(mq.MQIA_APPL_TYPE, mq.MQAT_WINDOWS_NT)))
    [answer] = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, String(P, "APP.P")))
    assert [p.parameter for p in answer.parameters] == [
        P,
        mq.MQCA_PROCESS_DESC,
        mq.MQIA_APPL_TYPE,
        mq.MQCA_APPL_ID,
        mq.MQCA_ENV_DATA,
        mq.MQCA_USER_DATA,
        mq.MQCA_ALTERATION_DATE,
        mq.MQCA_ALTERATION_TIME,
    ]
    assert process(engine, "APP.P", mq.MQIA_APPL_TYPE) == {P: "APP.P", mq.MQIA_APPL_TYPE: mq.MQAT_WINDOWS_NT}


def test_create_starts_from_the_default_object_and_replace_starts_again(engine: Engine) -> None:
    ok(engine, command(mq.MQCMD_CHANGE_PROCESS, String(P, "SYSTEM.DEFAULT.PROCESS"), String(mq.MQCA_ENV_DATA, "SITE=1")))
    ok(engine, create_process("A", String(mq.MQCA_USER_DATA, "mine")))
    assert process(engine, "A", mq.MQCA_ENV_DATA, mq.MQCA_USER_DATA) == {P: "A", mq.MQCA_ENV_DATA: "SITE=1", mq.MQCA_USER_DATA: "mine"}
    assert reason(engine.execute(create_process("A"))) == mq.MQRCCF_OBJECT_ALREADY_EXISTS
    ok(engine, create_process("A", String(mq.MQCA_APPL_ID, "x"), Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)))
    assert process(engine, "A", mq.MQCA_USER_DATA, mq.MQCA_APPL_ID) == {P: "A", mq.MQCA_USER_DATA: "", mq.MQCA_APPL_ID: "x"}
    # with the default object gone, the tables' defaults
    ok(engine, command(mq.MQCMD_DELETE_PROCESS, String(P, "SYSTEM.DEFAULT.PROCESS")))
    ok(engine, create_process("B"))
    assert process(engine, "B", mq.MQCA_ENV_DATA, mq.MQIA_APPL_TYPE) == {P: "B", mq.MQCA_ENV_DATA: "", mq.MQIA_APPL_TYPE: mq.MQAT_UNIX}


def test_copy_change_and_delete(engine: Engine) -> None:
    copy = mq.MQCMD_COPY_NAMELIST
    frm, to = mq.MQCACF_FROM_NAMELIST_NAME, mq.MQCACF_TO_NAMELIST_NAME
    assert reason(engine.execute(command(copy, String(frm, "NONE"), String(to, "X")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    ok(engine, create_namelist("CLUSTERS", "C1", "C2", more=(String(mq.MQCA_NAMELIST_DESC, "clusters"),)))
    ok(engine, command(copy, String(frm, "CLUSTERS"), String(to, "MORE"), StringList(mq.MQCA_NAMES, ("C3",))))
    assert namelist(engine, "MORE")[mq.MQCA_NAMES] == ("C3",) and namelist(engine, "MORE")[mq.MQCA_NAMELIST_DESC] == "clusters"
    assert reason(engine.execute(command(copy, String(frm, "CLUSTERS"), String(to, "MORE")))) == mq.MQRCCF_OBJECT_ALREADY_EXISTS
    ok(engine, command(mq.MQCMD_CHANGE_NAMELIST, String(N, "CLUSTERS"), StringList(mq.MQCA_NAMES, ())))
    changed = namelist(engine, "CLUSTERS")
    assert (changed[mq.MQIA_NAME_COUNT], changed[mq.MQCA_NAMES], changed[mq.MQCA_NAMELIST_DESC]) == (0, (), "clusters")
    for code in (mq.MQCMD_CHANGE_NAMELIST, mq.MQCMD_DELETE_NAMELIST, mq.MQCMD_INQUIRE_NAMELIST):
        assert reason(engine.execute(command(code, String(N, "NOT.THERE")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    ok(engine, command(mq.MQCMD_DELETE_NAMELIST, String(N, "MORE")))
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_NAMELIST, String(N, "MORE")))) == mq.MQRC_UNKNOWN_OBJECT_NAME


def test_generic_inquiries_names_and_filters(engine: Engine) -> None:
    for name, appl in (("APP.ONE", "/bin/one"), ("APP.TWO", "/usr/two"), ("OTHER", "/bin/other")):
        ok(engine, create_process(name, String(mq.MQCA_APPL_ID, appl)))
    answer = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, String(P, "APP.*"), IntegerList(mq.MQIACF_PROCESS_ATTRS, (mq.MQCA_APPL_ID,))))
    assert [values(m) for m in answer] == [{P: "APP.ONE", mq.MQCA_APPL_ID: "/bin/one"}, {P: "APP.TWO", mq.MQCA_APPL_ID: "/usr/two"}]
    like = StringFilter(mq.MQCA_APPL_ID, mq.MQCFOP_LIKE, "/bin/*")
    answer = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*"), like))
    assert [values(m)[P] for m in answer] == ["APP.ONE", "OTHER"]
    [names] = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS_NAMES, String(P, "*")))
    assert names.parameters == (StringList(mq.MQCACF_PROCESS_NAMES, tuple(n.ljust(48) for n in ("APP.ONE", "APP.TWO", "OTHER", "SYSTEM.DEFAULT.PROCESS")), 819),)
    [none] = ok(engine, command(mq.MQCMD_INQUIRE_PROCESS_NAMES, String(P, "NOPE*")))
    assert none.parameters == (StringList(mq.MQCACF_PROCESS_NAMES, (), 819),)
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "NOPE*")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    ok(engine, create_namelist("BIG", "A", "B", "C"))
    counted = IntegerFilter(mq.MQIA_NAME_COUNT, mq.MQCFOP_GREATER, 2)
    assert [values(m)[N] for m in ok(engine, command(mq.MQCMD_INQUIRE_NAMELIST, String(N, "*"), counted))] == ["BIG"]
    # a filter on a queue attribute is not one of the namelist's
    bad = IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 2)
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_NAMELIST, String(N, "*"), bad))) == mq.MQRCCF_CFIF_PARM_ID_ERROR


@pytest.mark.parametrize(
    ("message", "expected", "parameter"),
    [
        (create_process("BAD NAME"), mq.MQRCCF_OBJECT_NAME_ERROR, P),
        (create_process(""), mq.MQRCCF_PARM_VALUE_ERROR, P),
        (create_process("P", String(mq.MQCA_APPL_ID, "x" * 257)), mq.MQRCCF_CFST_STRING_LENGTH_ERR, mq.MQCA_APPL_ID),
        (create_process("P", Integer(mq.MQIA_APPL_TYPE, -1)), mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIA_APPL_TYPE),
        (create_process("P", Integer(mq.MQIACF_REPLACE, 7)), mq.MQRCCF_REPLACE_VALUE_ERROR, mq.MQIACF_REPLACE),
        (create_process("P", String(mq.MQCA_Q_DESC, "a queue's")), mq.MQRCCF_CFST_PARM_ID_ERROR, mq.MQCA_Q_DESC),
        (create_namelist("N", "GOOD", "NOT GOOD"), mq.MQRCCF_OBJECT_NAME_ERROR, mq.MQCA_NAMES),
        (create_namelist("N", "A", ""), mq.MQRCCF_OBJECT_NAME_ERROR, mq.MQCA_NAMES),
        (create_namelist("N", *(f"N{i}" for i in range(257))), mq.MQRCCF_CFSL_COUNT_ERROR, mq.MQCA_NAMES),
        (create_namelist("N", more=(Integer(mq.MQIA_NAMELIST_TYPE, mq.MQNT_Q),)), mq.MQRCCF_CFIN_PARM_ID_ERROR, mq.MQIA_NAMELIST_TYPE),
        (command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*"), IntegerList(mq.MQIACF_PROCESS_ATTRS, (mq.MQIA_MAX_Q_DEPTH,))), mq.MQRC_SELECTOR_ERROR, None),
    ],
)
def test_refused_commands_name_their_reason_and_change_nothing(engine: Engine, message: Message, expected: int, parameter: int | None) -> None:
    before = [values(m) for m in ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*")))]
    answer = run(engine, message)
    assert reason(answer) == expected
    if parameter is not None:
        assert error_parameter(answer) == (mq.MQIACF_PARAMETER_ID, parameter)
    assert [values(m) for m in ok(engine, command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*")))] == before
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_NAMELIST, String(N, "N")))) == mq.MQRC_UNKNOWN_OBJECT_NAME


def test_the_most_names_a_namelist_holds(engine: Engine) -> None:
    names = tuple(f"Q.{i}" for i in range(256))
    ok(engine, create_namelist("FULL", *names))
    assert namelist(engine, "FULL")[mq.MQCA_NAMES] == names


# ---------------------------------------------------------------------------- durability


def test_objects_survive_a_restart_and_a_crash(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create_process("KEPT", String(mq.MQCA_ENV_DATA, "E")))
    ok(engine, create_namelist("NL", "A", "B"))
    ok(engine, create_process("GONE"))
    ok(engine, command(mq.MQCMD_DELETE_PROCESS, String(P, "GONE")))
    engine.close()
    engine = open_engine(tmp_path)
    assert process(engine, "KEPT", mq.MQCA_ENV_DATA)[mq.MQCA_ENV_DATA] == "E"
    assert namelist(engine, "NL")[mq.MQCA_NAMES] == ("A", "B")
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "GONE")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    ok(engine, command(mq.MQCMD_CHANGE_NAMELIST, String(N, "NL"), StringList(mq.MQCA_NAMES, ("C",))))
    engine._store._db.close()  # type: ignore[attr-defined]  # as kill -9 leaves it: no tidy close
    engine = open_engine(tmp_path)
    assert namelist(engine, "NL")[mq.MQCA_NAMES] == ("C",)
    engine.close()


def test_a_batch_whose_commit_fails_leaves_the_objects_as_they_were(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create_process("BEFORE", String(mq.MQCA_USER_DATA, "old")))

    def failing(ops: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(engine._store, "commit", failing)
    batch = [
        create_process("NEW"),
        command(mq.MQCMD_CHANGE_PROCESS, String(P, "BEFORE"), String(mq.MQCA_USER_DATA, "new")),
        command(mq.MQCMD_DELETE_NAMELIST, String(N, "SYSTEM.DEFAULT.NAMELIST")),
    ]
    assert [reason(a) for a in engine.execute_batch(batch)] == [mq.MQRC_UNEXPECTED_ERROR] * 3
    monkeypatch.undo()
    assert process(engine, "BEFORE", mq.MQCA_USER_DATA)[mq.MQCA_USER_DATA] == "old"
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "NEW")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    assert namelist(engine, "SYSTEM.DEFAULT.NAMELIST")[N] == "SYSTEM.DEFAULT.NAMELIST"
    engine.close()
    engine = open_engine(tmp_path)
    assert process(engine, "BEFORE", mq.MQCA_USER_DATA)[mq.MQCA_USER_DATA] == "old"
    engine.close()


_NAMES = st.sampled_from(["A", "B", "C.D", "E"])
_DATA = st.text(alphabet="abcXYZ /=.", max_size=8)


@st.composite
def _steps(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    return draw(st.lists(st.tuples(st.sampled_from(["create", "replace", "change", "delete"]), _NAMES, _DATA), max_size=25))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_steps())
def test_any_sequence_of_process_commands_matches_a_plain_model_and_its_reopened_store(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str, str]]) -> None:
    directory = tmp_path_factory.mktemp("objects")
    engine = open_engine(directory)
    model: dict[str, str] = {}
    for verb, name, data in steps:
        user = String(mq.MQCA_USER_DATA, data)
        if verb in ("create", "replace"):
            extra = (Integer(mq.MQIACF_REPLACE, mq.MQRP_YES),) if verb == "replace" else ()
            answer = engine.execute(create_process(name, user, *extra))
            expected = mq.MQRCCF_OBJECT_ALREADY_EXISTS if name in model and verb == "create" else 0
            if not expected:
                model[name] = data.rstrip(" ")
        elif verb == "change":
            answer = engine.execute(command(mq.MQCMD_CHANGE_PROCESS, String(P, name), user))
            expected = 0 if name in model else mq.MQRC_UNKNOWN_OBJECT_NAME
            if name in model:
                model[name] = data.rstrip(" ")
        else:
            answer = engine.execute(command(mq.MQCMD_DELETE_PROCESS, String(P, name)))
            expected = 0 if model.pop(name, None) is not None else mq.MQRC_UNKNOWN_OBJECT_NAME
        assert reason(answer) == expected

    def seen(e: Engine) -> dict[str, object]:
        answer = e.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*"), IntegerList(mq.MQIACF_PROCESS_ATTRS, (mq.MQCA_USER_DATA,))))
        return {str(v[P]): v[mq.MQCA_USER_DATA] for v in map(values, answer) if v[P] != "SYSTEM.DEFAULT.PROCESS"}

    assert seen(engine) == model
    engine._store._db.close()  # type: ignore[attr-defined]
    assert seen(open_engine(directory)) == model


# ---------------------------------------------------------------------------- authority


def test_identities_see_and_change_only_what_their_records_grant(engine: Engine) -> None:
    for name in ("APP.ONE", "APP.TWO", "OTHER"):
        ok(engine, create_process(name))
    grant = command(
        mq.MQCMD_SET_AUTH_REC,
        String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.*"),
        Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_PROCESS),
        IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, (mq.MQAUTH_DISPLAY, mq.MQAUTH_CHANGE)),
        StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, ("alice",)),
    )
    ok(engine, grant)
    alice = Identity("alice")
    answer = engine.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*")), alice)
    assert [values(m)[P] for m in answer] == ["APP.ONE", "APP.TWO"]
    [names] = engine.execute(command(mq.MQCMD_INQUIRE_PROCESS_NAMES, String(P, "*")), alice)
    assert [n.rstrip() for n in names.parameters[0].values] == ["APP.ONE", "APP.TWO"]  # type: ignore[attr-defined]
    assert reason(engine.execute(command(mq.MQCMD_CHANGE_PROCESS, String(P, "APP.ONE"), String(mq.MQCA_APPL_ID, "a")), alice)) == 0
    assert reason(engine.execute(command(mq.MQCMD_CHANGE_PROCESS, String(P, "OTHER"), String(mq.MQCA_APPL_ID, "a")), alice)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(engine.execute(command(mq.MQCMD_DELETE_PROCESS, String(P, "APP.ONE")), alice)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(engine.execute(create_process("APP.NEW"), alice)) == mq.MQRC_NOT_AUTHORIZED
    # the queue records say nothing about processes, nor the process records about namelists
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_NAMELIST, String(N, "SYSTEM.DEFAULT.NAMELIST")), alice)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(P, "*")), Identity("bob"))) == mq.MQRC_UNKNOWN_OBJECT_NAME


def test_a_cluster_queue_cannot_name_an_empty_namelist(engine: Engine) -> None:
    def clustered(name: str, nl: str) -> Message:
        return command(mq.MQCMD_CREATE_Q, String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), String(mq.MQCA_CLUSTER_NAMELIST, nl))

    ok(engine, create_namelist("EMPTY"))
    answer = engine.execute(clustered("Q.EMPTY", "EMPTY"))
    assert (reason(answer), error_parameter(answer)) == (mq.MQRCCF_NAMELIST_ERROR, (mq.MQIACF_PARAMETER_ID, mq.MQCA_CLUSTER_NAMELIST))
    ok(engine, create_namelist("CLUSTERS", "CL1"))
    ok(engine, clustered("Q.CLUSTERED", "CLUSTERS"))
    ok(engine, clustered("Q.LATER", "NOT.YET.DEFINED"))  # checked when the namelist exists
    change = command(mq.MQCMD_CHANGE_Q, String(mq.MQCA_Q_NAME, "Q.CLUSTERED"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL), String(mq.MQCA_CLUSTER_NAMELIST, "EMPTY"))
    assert reason(engine.execute(change)) == mq.MQRCCF_NAMELIST_ERROR
