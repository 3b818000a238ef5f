"""DISPLAY ENTAUTH / Inquire Entity Authority: what an entity may do to an object, as the checks decide it (a
principal's records and its groups', the most specific profile of each counting); and the authority commands through
runCommandJSON, as pymqrest's display_entauth, display_authrec and set_authrec send them."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from engine_support import command, reason, run_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String, StringList
from pcfserver.dialects import mqsc
from pcfserver.engine import open_engine
from pcfserver.engine.authority import ALL_AUTHS, Identity, object_authorities
from pcfserver.engine.engine import Engine
from tests.test_rest_admin import CSRF, add_user, basic, start

GROUPS = {"bob": ("apps", "ops")}


def engine_with_records() -> Engine:
    engine = open_engine(None)
    engine.authority.groups_of = lambda user: GROUPS.get(user, ())
    for text in (
        "DEFINE QLOCAL(APP.IN)",
        "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET,BROWSE)",
        "SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT,INQ)",
        "SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) GROUP('ops') AUTHADD(DSP)",
        "SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ)",
    ):
        assert mqsc.run(text, engine.execute).lines[0].startswith(("AMQ8006I", "AMQ8862I")), text
    return engine


def entity_auth(name: str, entity_type: int, object_type: int, object_name: str | None, *extra: Integer | IntegerList) -> Message:
    params = [String(mq.MQCACF_ENTITY_NAME, name), Integer(mq.MQIACF_ENTITY_TYPE, entity_type), Integer(mq.MQIACF_OBJECT_TYPE, object_type)]
    if object_name is not None:
        params.append(String(mq.MQCACF_OBJECT_NAME, object_name))
    return command(mq.MQCMD_INQUIRE_ENTITY_AUTH, *params, *extra)


def answer_values(answer: list[Message]) -> dict[int, object]:
    [response] = answer
    assert response.comp_code == mq.MQCC_OK, response.reason
    return {p.parameter: p.value.rstrip() if isinstance(p, String) else getattr(p, "value", getattr(p, "values", None)) for p in response.parameters}


def test_a_principal_is_shown_its_own_and_its_groups_authority_in_mqsc() -> None:
    engine = engine_with_records()
    assert mqsc.run("DISPLAY ENTAUTH PRINCIPAL('bob') OBJNAME(APP.IN) OBJTYPE(QUEUE)", engine.execute).lines == [
        "AMQ8866I: Display entity authority details.",
        "   ENTITY(bob)                             ENTTYPE(PRINCIPAL)",
        "   OBJNAME(APP.IN)                         OBJTYPE(QUEUE)",
        "   AUTHLIST(BROWSE,DSP,GET,INQ,PUT)",
    ]
    # a group: only its own most specific profile (apps: APP.** on APP.IN, ops: APP.IN)
    lines = mqsc.run("DIS ENTAUTH GROUP('apps') OBJNAME(APP.IN) OBJTYPE(QUEUE) AUTHLIST", engine.execute).lines
    assert lines[-1].strip() == "AUTHLIST(BROWSE,GET)"
    # OBJTYPE(QMGR) needs no name: the queue manager's own
    lines = mqsc.run("DIS ENTAUTH PRINCIPAL('bob') OBJTYPE(QMGR)", engine.execute).lines
    assert "OBJNAME(QM1)" in lines[2] and lines[-1].strip() == "AUTHLIST(CONNECT,INQ)"
    # a generic profile named: what that profile's records grant the entity and its groups
    lines = mqsc.run("DIS ENTAUTH PRINCIPAL('bob') OBJNAME('APP.**') OBJTYPE(QUEUE)", engine.execute).lines
    assert lines[-1].strip() == "AUTHLIST(BROWSE,GET)"
    # nobody granted anything: NONE; an object that does not exist is answered from the profiles (as the OAM)
    assert mqsc.run("DIS ENTAUTH PRINCIPAL('carol') OBJNAME(APP.IN) OBJTYPE(QUEUE)", engine.execute).lines[-1].strip() == "AUTHLIST(NONE)"
    assert mqsc.run("DIS ENTAUTH GROUP('apps') OBJNAME(APP.NOT.DEFINED) OBJTYPE(QUEUE)", engine.execute).lines[-1].strip() == "AUTHLIST(BROWSE,GET)"


@pytest.mark.parametrize(
    "text",
    [
        "DIS ENTAUTH OBJNAME(APP.IN) OBJTYPE(QUEUE)",  # no entity
        "DIS ENTAUTH PRINCIPAL('bob') GROUP('apps') OBJNAME(APP.IN) OBJTYPE(QUEUE)",  # two
        "DIS ENTAUTH PRINCIPAL('bob') OBJNAME(APP.IN)",  # no OBJTYPE
        "DIS ENTAUTH PRINCIPAL('bob') OBJTYPE(QUEUE)",  # no OBJNAME and not QMGR
        "DIS ENTAUTH PRINCIPAL('bob') OBJNAME(APP.IN) OBJTYPE(SHELF)",
        "DIS ENTAUTH PRINCIPAL('bob') OBJNAME(APP.IN) OBJTYPE(QUEUE) MATCH(PROFILE)",
    ],
)
def test_malformed_display_entauth_is_a_syntax_error(text: str) -> None:
    assert mqsc.run(text, engine_with_records().execute).lines[0].startswith("AMQ8405I: Syntax error")


def test_the_pcf_answer_always_names_queue_manager_options_and_object_and_the_attributes_asked() -> None:
    engine = engine_with_records()
    got = answer_values(engine.execute(entity_auth("bob", mq.MQZAET_PRINCIPAL, mq.MQOT_Q, "APP.IN")))
    assert got == {
        mq.MQCA_Q_MGR_NAME: "QM1",
        mq.MQIACF_AUTH_OPTIONS: mq.MQAUTHOPT_CUMULATIVE,
        mq.MQCACF_OBJECT_NAME: "APP.IN",
        mq.MQCACF_ENTITY_NAME: "bob",
        mq.MQIACF_ENTITY_TYPE: mq.MQZAET_PRINCIPAL,
        mq.MQIACF_OBJECT_TYPE: mq.MQOT_Q,
        mq.MQIACF_AUTHORIZATION_LIST: tuple(sorted((mq.MQAUTH_BROWSE, mq.MQAUTH_INPUT, mq.MQAUTH_INQUIRE, mq.MQAUTH_OUTPUT, mq.MQAUTH_DISPLAY))),
    }
    only = IntegerList(mq.MQIACF_AUTH_PROFILE_ATTRS, (mq.MQIACF_AUTHORIZATION_LIST,))
    got = answer_values(engine.execute(entity_auth("apps", mq.MQZAET_GROUP, mq.MQOT_Q, "APP.IN", only)))
    assert set(got) == {mq.MQCA_Q_MGR_NAME, mq.MQIACF_AUTH_OPTIONS, mq.MQCACF_OBJECT_NAME, mq.MQIACF_AUTHORIZATION_LIST}
    assert reason(engine.execute(entity_auth("bob", mq.MQZAET_PRINCIPAL, mq.MQOT_Q, None))) == mq.MQRCCF_OBJECT_NAME_ERROR
    assert reason(engine.execute(entity_auth(" ", mq.MQZAET_PRINCIPAL, mq.MQOT_Q, "APP.IN"))) == mq.MQRCCF_ENTITY_NAME_MISSING
    assert reason(engine.execute(entity_auth("bob", mq.MQZAET_PRINCIPAL, 12345, "APP.IN"))) == mq.MQRC_OBJECT_TYPE_ERROR


_NAMES = st.sampled_from(["APP.IN", "APP.OUT", "APP.X.Y", "OTHER"])
_PROFILES = st.sampled_from(["APP.IN", "APP.*", "APP.**", "**", "OTHER", "A*"])
_ENTITIES = st.sampled_from([(mq.MQZAET_PRINCIPAL, "bob"), (mq.MQZAET_GROUP, "apps"), (mq.MQZAET_GROUP, "ops"), (mq.MQZAET_GROUP, "x")])
_QUEUE_AUTHS = sorted(object_authorities()[mq.MQOT_Q])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(_PROFILES, _ENTITIES, st.sets(st.sampled_from(_QUEUE_AUTHS), min_size=1, max_size=4)), max_size=6),
    _NAMES,
)
def test_what_entauth_shows_is_what_the_checks_allow(grants: list[tuple[str, tuple[int, str], set[int]]], name: str) -> None:
    """For any records, DISPLAY ENTAUTH for bob lists exactly the authorities a request of bob's (with his groups) is
    allowed: the display and the enforcement read the records the same way."""
    engine = open_engine(None)
    engine.authority.groups_of = lambda user: GROUPS.get(user, ())
    for profile, (entity_type, entity), auths in grants:
        names = mq.MQCACF_PRINCIPAL_ENTITY_NAMES if entity_type == mq.MQZAET_PRINCIPAL else mq.MQCACF_GROUP_ENTITY_NAMES
        made = command(
            mq.MQCMD_SET_AUTH_REC, String(mq.MQCACF_AUTH_PROFILE_NAME, profile), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q),
            IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, tuple(sorted(auths))), StringList(names, (entity,)),
        )
        assert reason(engine.execute(made)) == 0
    shown = answer_values(engine.execute(entity_auth("bob", mq.MQZAET_PRINCIPAL, mq.MQOT_Q, name)))[mq.MQIACF_AUTHORIZATION_LIST]
    bob = Identity("bob", GROUPS["bob"])
    allowed = tuple(sorted(a for a in ALL_AUTHS if engine.authority.allows(bob, mq.MQOT_Q, name, a))) or (mq.MQAUTH_NONE,)
    assert shown == allowed


def test_display_authrec_match_membership_includes_the_principals_groups() -> None:
    engine = engine_with_records()
    lines = mqsc.run("DIS AUTHREC PRINCIPAL('bob') MATCH(MEMBERSHIP) OBJTYPE(QUEUE)", engine.execute).lines
    entities = [line.split("ENTITY(")[1].split(")")[0] for line in lines if "ENTITY(" in line]
    assert sorted(entities) == ["apps", "bob", "ops"]
    # MATCH(PROFILE) still means the principal's own records only
    lines = mqsc.run("DIS AUTHREC PRINCIPAL('bob') OBJTYPE(QUEUE)", engine.execute).lines
    assert [line.split("ENTITY(")[1].split(")")[0] for line in lines if "ENTITY(" in line] == ["bob"]


def test_run_command_json_answers_the_authority_displays_as_pymqrest_asks_them() -> None:
    """pymqrest's display_authrec / display_entauth / set_authrec send runCommandJSON with the qualifier and lowercase
    MQSC keywords: the answers carry the records, and a principal keeps its case."""
    engine = engine_with_records()
    made = run_json(engine, command="SET", qualifier="AUTHREC",
                    parameters={"profile": "APP.OUT", "objtype": "queue", "principal": "carol", "authadd": ["put", "inq"]})
    assert made["overallCompletionCode"] == 0
    shown = run_json(engine, command="DISPLAY", qualifier="AUTHREC", parameters={"profile": "APP.OUT", "objtype": "queue"})
    assert [item["parameters"] for item in shown["commandResponse"]] == [
        {"profile": "APP.**", "objtype": "QUEUE", "entity": "apps", "enttype": "GROUP", "authlist": ["BROWSE", "GET"]},
        {"profile": "APP.OUT", "objtype": "QUEUE", "entity": "carol", "enttype": "PRINCIPAL", "authlist": ["INQ", "PUT"]},
    ]
    entauth = run_json(engine, command="DISPLAY", qualifier="ENTAUTH", responseParameters=["all"],
                       parameters={"principal": "bob", "objname": "APP.IN", "objtype": "queue"})
    assert entauth["commandResponse"] == [{
        "completionCode": 0, "reasonCode": 0,
        "parameters": {"objname": "APP.IN", "entity": "bob", "enttype": "PRINCIPAL", "objtype": "QUEUE",
                       "authlist": ["BROWSE", "DSP", "GET", "INQ", "PUT"]},
    }]


async def test_a_running_server_counts_the_groups_of_its_users(nursery: trio.Nursery, tmp_path: Path) -> None:
    """The users store says which groups a user is in: DISPLAY ENTAUTH over the REST API counts them."""
    add_user(tmp_path, "admin", "MQWebAdmin")
    add_user(tmp_path, "app", "MQWebUser", groups=("apps",))
    served = await start(nursery, tmp_path)
    url = "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc"
    try:
        async with served.client() as client:
            for text in ("DEFINE QLOCAL(ORDERS)", "SET AUTHREC PROFILE('ORDERS') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET)"):
                ran = await client.post(url, json={"type": "runCommand", "parameters": {"command": text}}, headers=CSRF, auth=basic("admin"))
                assert ran.json()["overallCompletionCode"] == 0, ran.text
            body = {"type": "runCommand", "parameters": {"command": "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(ORDERS) OBJTYPE(QUEUE)"}}
            shown = await client.post(url, json=body, headers=CSRF, auth=basic("admin"))
            assert "AUTHLIST(GET,PUT)" in " ".join(shown.json()["commandResponse"][0]["text"])
    finally:
        served.service.shutdown()
