"""Authority records (Set/Inquire/Delete Authority Record) and the checks they drive: a command or
MQI call the identity is not authorised for answers MQRC_NOT_AUTHORIZED (2035) and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_support import change, command, create, qname, reason
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import MQIError, QueueManager, mq, open_queue_manager
from pcfserver.codec import Integer, IntegerList, Message, String, StringList
from pcfserver.engine.authority import AuthorityRecords, Identity, profile_matches

APP = Identity("app", ("apps",))
RO = Identity("viewer", read_only=True)


def set_auth(profile: str, *, principals: tuple[str, ...] = (), groups: tuple[str, ...] = (), add: tuple[int, ...] = (),
             remove: tuple[int, ...] = (), object_type: int = mq.MQOT_Q) -> Message:
    params = [String(mq.MQCACF_AUTH_PROFILE_NAME, profile), Integer(mq.MQIACF_OBJECT_TYPE, object_type)]
    if add:
        params.append(IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, add))
    if remove:
        params.append(IntegerList(mq.MQIACF_AUTH_REMOVE_AUTHS, remove))
    if principals:
        params.append(StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, principals))
    if groups:
        params.append(StringList(mq.MQCACF_GROUP_ENTITY_NAMES, groups))
    return command(mq.MQCMD_SET_AUTH_REC, *params)


def inquire_recs(profile: str, options: int = mq.MQAUTHOPT_NAME_ALL_MATCHING | mq.MQAUTHOPT_ENTITY_EXPLICIT) -> list[Message]:
    return [command(mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, options), String(mq.MQCACF_AUTH_PROFILE_NAME, profile))]


def values(message: Message) -> dict[int, object]:
    return {p.parameter: getattr(p, "value", getattr(p, "values", None)) for p in message.parameters}


@pytest.fixture
def qm(tmp_path: Path) -> QueueManager:
    manager = open_queue_manager(tmp_path)
    for name in ("APP.IN", "APP.OUT", "OTHER.Q"):
        assert reason(manager.execute(create(name))) == 0
    yield manager  # type: ignore[misc]
    manager.close()


def test_set_auth_rec_grants_and_inquire_reports_it(qm: QueueManager) -> None:
    assert reason(qm.execute(set_auth("APP.**", principals=("app",), add=(mq.MQAUTH_DISPLAY, mq.MQAUTH_OUTPUT)))) == 0
    answer = qm.execute(inquire_recs("APP.**")[0])
    assert reason(answer) == 0
    got = values(answer[0])
    assert got[mq.MQCACF_AUTH_PROFILE_NAME] == "APP.**".ljust(48)
    assert got[mq.MQCACF_ENTITY_NAME] == "app".ljust(12)
    assert got[mq.MQIACF_ENTITY_TYPE] == mq.MQZAET_PRINCIPAL
    assert set(got[mq.MQIACF_AUTHORIZATION_LIST]) == {mq.MQAUTH_DISPLAY, mq.MQAUTH_OUTPUT}  # type: ignore[arg-type]


def test_each_record_answers_with_qmgr_options_profile_and_type_first_then_what_was_asked(qm: QueueManager) -> None:
    """IBM Inquire Authority Records (Response): always QMgrName, Options, ProfileName and ObjectType; EntityName,
    EntityType and AuthorizationList when ProfileAttrs asks for them (by default, MQIACF_ALL, all three)."""
    qm.execute(set_auth("APP.**", groups=("apps",), add=(mq.MQAUTH_BROWSE,)))
    options = mq.MQAUTHOPT_NAME_ALL_MATCHING | mq.MQAUTHOPT_ENTITY_EXPLICIT
    answer = qm.execute(inquire_recs("APP.IN", options)[0])
    assert [p.parameter for p in answer[0].parameters] == [
        mq.MQCA_Q_MGR_NAME, mq.MQIACF_AUTH_OPTIONS, mq.MQCACF_AUTH_PROFILE_NAME, mq.MQIACF_OBJECT_TYPE,
        mq.MQCACF_ENTITY_NAME, mq.MQIACF_ENTITY_TYPE, mq.MQIACF_AUTHORIZATION_LIST,
    ]
    got = values(answer[0])
    assert got[mq.MQCA_Q_MGR_NAME] == qm.engine.qmgr_name.ljust(48)
    assert got[mq.MQIACF_AUTH_OPTIONS] == options  # (the options the records were found with)
    only_list = command(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, options), String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.IN"),
        IntegerList(mq.MQIACF_AUTH_PROFILE_ATTRS, (mq.MQIACF_AUTHORIZATION_LIST,)),
    )
    answer = qm.execute(only_list)
    assert [p.parameter for p in answer[0].parameters] == [
        mq.MQCA_Q_MGR_NAME, mq.MQIACF_AUTH_OPTIONS, mq.MQCACF_AUTH_PROFILE_NAME, mq.MQIACF_OBJECT_TYPE, mq.MQIACF_AUTHORIZATION_LIST,
    ]
    not_one = command(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, options), String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.IN"),
        IntegerList(mq.MQIACF_AUTH_PROFILE_ATTRS, (mq.MQCA_Q_NAME,)),
    )
    assert reason(qm.execute(not_one)) == mq.MQRC_SELECTOR_ERROR


def test_removing_every_authority_deletes_the_record(qm: QueueManager) -> None:
    qm.execute(set_auth("APP.IN", principals=("app",), add=(mq.MQAUTH_BROWSE,)))
    assert reason(qm.execute(set_auth("APP.IN", principals=("app",), remove=(mq.MQAUTH_ALL,)))) == 0
    assert reason(qm.execute(inquire_recs("APP.IN")[0])) == mq.MQRC_UNKNOWN_ENTITY


def test_deleting_an_object_deletes_its_own_records_unless_authrec_no(qm: QueueManager, tmp_path: Path) -> None:
    """IBM (DELETE QLOCAL ... AUTHREC, Delete Queue's MQIACF_REMOVE_AUTHREC, Multiplatforms): the object's own
    authority records go with it by default; AUTHREC(NO) keeps them; generic profiles are not the object's."""
    qm.execute(set_auth("APP.IN", groups=("apps",), add=(mq.MQAUTH_INPUT,)))
    qm.execute(set_auth("APP.**", groups=("apps",), add=(mq.MQAUTH_DISPLAY,)))
    qm.execute(set_auth("APP.OUT", groups=("apps",), add=(mq.MQAUTH_OUTPUT,)))
    assert reason(qm.execute(command(mq.MQCMD_DELETE_Q, qname("APP.IN")))) == 0
    assert reason(qm.execute(inquire_recs("APP.IN", mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT)[0])) == mq.MQRC_UNKNOWN_ENTITY
    assert reason(qm.execute(inquire_recs("APP.**", mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT)[0])) == 0
    keep = command(mq.MQCMD_DELETE_Q, qname("APP.OUT"), Integer(mq.MQIACF_REMOVE_AUTHREC, mq.MQRAR_NO))
    assert reason(qm.execute(keep)) == 0
    assert reason(qm.execute(inquire_recs("APP.OUT", mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT)[0])) == 0
    # the other kinds too: a process and its record
    made = command(mq.MQCMD_CREATE_PROCESS, String(mq.MQCA_PROCESS_NAME, "APP.PROC"))
    assert reason(qm.execute(made)) == 0
    qm.execute(set_auth("APP.PROC", groups=("apps",), add=(mq.MQAUTH_DISPLAY,), object_type=mq.MQOT_PROCESS))
    assert reason(qm.execute(command(mq.MQCMD_DELETE_PROCESS, String(mq.MQCA_PROCESS_NAME, "APP.PROC")))) == 0
    gone = command(
        mq.MQCMD_INQUIRE_AUTH_RECS, Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT),
        String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.PROC"), Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_PROCESS),
    )
    assert reason(qm.execute(gone)) == mq.MQRC_UNKNOWN_ENTITY


def test_delete_auth_rec_and_its_unknown_entity(qm: QueueManager) -> None:
    qm.execute(set_auth("APP.IN", groups=("apps",), add=(mq.MQAUTH_INPUT,)))
    delete = command(
        mq.MQCMD_DELETE_AUTH_REC,
        String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.IN"),
        Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q),
        StringList(mq.MQCACF_GROUP_ENTITY_NAMES, ("apps",)),
    )
    assert reason(qm.execute(delete)) == 0
    assert reason(qm.execute(delete)) == mq.MQRC_UNKNOWN_ENTITY


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (set_auth("APP.IN", add=(mq.MQAUTH_OUTPUT,)), mq.MQRCCF_ENTITY_NAME_MISSING),
        (set_auth("APP.IN", principals=("app",)), mq.MQRCCF_AUTH_VALUE_MISSING),
        (set_auth("APP.IN", principals=("app",), add=(12345,)), mq.MQRCCF_AUTH_VALUE_ERROR),
        (set_auth("BAD NAME", principals=("app",), add=(mq.MQAUTH_OUTPUT,)), mq.MQRCCF_PROFILE_NAME_ERROR),
        # put is not an authority channels take; a channel authentication record is not an object authority records are kept for
        (set_auth("APP.IN", principals=("app",), add=(mq.MQAUTH_OUTPUT,), object_type=mq.MQOT_CHANNEL), mq.MQRCCF_AUTH_VALUE_ERROR),
        (set_auth("APP.IN", principals=("app",), add=(mq.MQAUTH_PUBLISH,), object_type=mq.MQOT_Q), mq.MQRCCF_AUTH_VALUE_ERROR),
        (set_auth("APP.IN", principals=("app",), add=(mq.MQAUTH_DISPLAY,), object_type=mq.MQOT_CHLAUTH), mq.MQRC_OBJECT_TYPE_ERROR),
    ],
)
def test_bad_set_auth_rec_is_refused_and_changes_nothing(qm: QueueManager, message: Message, expected: int) -> None:
    assert reason(qm.execute(message)) == expected
    assert reason(qm.execute(inquire_recs("**", mq.MQAUTHOPT_NAME_AS_WILDCARD | mq.MQAUTHOPT_ENTITY_EXPLICIT)[0])) == mq.MQRC_UNKNOWN_ENTITY


def test_a_command_the_records_do_not_grant_is_2035_and_changes_nothing(qm: QueueManager) -> None:
    qm.execute(set_auth("APP.*", principals=("app",), add=(mq.MQAUTH_DISPLAY,)))
    alter = change("APP.IN", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 7))
    assert reason(qm.execute(alter, APP)) == mq.MQRC_NOT_AUTHORIZED
    inq = command(mq.MQCMD_INQUIRE_Q, qname("APP.IN"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH,)))
    depth = values(qm.execute(inq, APP)[0])[mq.MQIA_MAX_Q_DEPTH]
    assert depth == 5000
    assert reason(qm.execute(create("APP.NEW"), APP)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(qm.execute(command(mq.MQCMD_INQUIRE_Q, qname("OTHER.Q")), APP)) == mq.MQRC_NOT_AUTHORIZED
    # the group's grant adds to the user's
    qm.execute(set_auth("APP.IN", groups=("apps",), add=(mq.MQAUTH_CHANGE,)))
    assert reason(qm.execute(alter, APP)) == 0
    assert values(qm.execute(inq, APP)[0])[mq.MQIA_MAX_Q_DEPTH] == 7


def test_a_generic_inquiry_reports_only_what_the_identity_may_display(qm: QueueManager) -> None:
    qm.execute(set_auth("APP.**", principals=("app",), add=(mq.MQAUTH_DISPLAY,)))
    answer = qm.execute(command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*")), APP)
    names = [n.strip() for n in values(answer[0])[mq.MQCACF_Q_NAMES]]  # type: ignore[union-attr]
    assert names == ["APP.IN", "APP.OUT"]
    everything = qm.execute(command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*")))
    assert "OTHER.Q".ljust(48) in values(everything[0])[mq.MQCACF_Q_NAMES]  # type: ignore[operator]


def test_the_read_only_identity_displays_but_never_changes(qm: QueueManager) -> None:
    assert reason(qm.execute(command(mq.MQCMD_INQUIRE_Q, qname("OTHER.Q")), RO)) == 0
    assert reason(qm.execute(change("OTHER.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 9)), RO)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(qm.execute(set_auth("**", principals=("viewer",), add=(mq.MQAUTH_ALL,), object_type=mq.MQOT_Q), RO)) == mq.MQRC_NOT_AUTHORIZED
    with qm.session(identity=RO) as s:
        with pytest.raises(MQIError) as refused:
            s.put("OTHER.Q", b"x")
        assert refused.value.reason == mq.MQRC_NOT_AUTHORIZED
        with pytest.raises(MQIError) as empty:
            s.get("OTHER.Q", browse=True)
        assert empty.value.reason == mq.MQRC_NO_MSG_AVAILABLE  # browse is allowed: the queue is just empty


def test_messaging_calls_are_checked_on_the_name_the_caller_used(qm: QueueManager) -> None:
    assert reason(qm.execute(create("APP.ALIAS", mq.MQQT_ALIAS, String(mq.MQCA_BASE_OBJECT_NAME, "OTHER.Q")))) == 0
    qm.execute(set_auth("APP.**", principals=("app",), add=(mq.MQAUTH_OUTPUT, mq.MQAUTH_BROWSE)))
    with qm.session(identity=APP) as s:
        s.put("APP.ALIAS", b"through the alias")  # authority is on the alias the application opened
        s.commit()
        with pytest.raises(MQIError) as refused:
            s.put("OTHER.Q", b"direct")
        assert refused.value.reason == mq.MQRC_NOT_AUTHORIZED
        with pytest.raises(MQIError) as no_get:
            s.get("APP.ALIAS")
        assert no_get.value.reason == mq.MQRC_NOT_AUTHORIZED
        assert s.get("APP.ALIAS", browse=True, wait=0.01)[1] == b"through the alias"
    with qm.session() as s:
        assert s.get("OTHER.Q")[1] == b"through the alias"


def test_records_survive_a_restart_and_a_refused_batch_keeps_none(tmp_path: Path) -> None:
    qm = open_queue_manager(tmp_path)
    qm.execute(set_auth("APP.**", principals=("app",), add=(mq.MQAUTH_ALL_MQI,)))
    qm.close()
    again = open_queue_manager(tmp_path)
    try:
        answer = again.execute(inquire_recs("APP.**")[0])
        auths = set(values(answer[0])[mq.MQIACF_AUTHORIZATION_LIST])  # type: ignore[arg-type]
        assert {mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT, mq.MQAUTH_BROWSE, mq.MQAUTH_INQUIRE} <= auths
        assert mq.MQAUTH_CHANGE not in auths
    finally:
        again.close()


# ------------------------------------------------------------------ profile matching

_QUALIFIER = st.text(alphabet="ABC", min_size=1, max_size=3)
_NAMES = st.lists(_QUALIFIER, min_size=1, max_size=4).map(".".join)


def _reference(profile: str, name: str) -> bool:
    """An independent statement of the OAM rules: split into qualifiers, ** spans any number of them."""

    def match(p: list[str], n: list[str]) -> bool:
        if not p:
            return not n
        if p[0] == "**":
            return any(match(p[1:], n[i:]) for i in range(len(n) + 1))
        if not n:
            return False
        pattern = "".join("[^.]" if c == "?" else "[^.]*" if c == "*" else re.escape(c) for c in p[0])
        return re.fullmatch(pattern, n[0]) is not None and match(p[1:], n[1:])

    return match(profile.split("."), name.split("."))


_PROFILE_PART = st.one_of(_QUALIFIER, st.sampled_from(["*", "?", "A*", "?B", "**"]))


@given(st.lists(_PROFILE_PART, min_size=1, max_size=4).filter(lambda parts: parts.count("**") <= 1).map(".".join), _NAMES)
@settings(max_examples=300, deadline=None)
def test_profile_matching_agrees_with_a_qualifier_by_qualifier_reading(profile: str, name: str) -> None:
    assert profile_matches(profile, name) == _reference(profile, name)


def test_a_double_asterisk_qualifier_may_stand_for_no_qualifier() -> None:
    assert profile_matches("APP.**", "APP")
    assert profile_matches("**.IN", "IN")
    assert profile_matches("A.**.Z", "A.Z") and profile_matches("A.**.Z", "A.B.C.Z")
    assert not profile_matches("APP.*", "APP") and not profile_matches("APP.*", "APP.X.Y")


def test_the_most_specific_profile_of_an_entity_wins() -> None:
    records = AuthorityRecords()
    records.records[("APP.**", mq.MQOT_Q, mq.MQZAET_PRINCIPAL, "app")] = frozenset({mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT})
    records.records[("APP.SECRET", mq.MQOT_Q, mq.MQZAET_PRINCIPAL, "app")] = frozenset({mq.MQAUTH_BROWSE})
    assert records.authorities(APP, mq.MQOT_Q, "APP.IN") == {mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT}
    assert records.authorities(APP, mq.MQOT_Q, "APP.SECRET") == {mq.MQAUTH_BROWSE}
    assert records.authorities(APP, mq.MQOT_Q_MGR, "APP.IN") == frozenset()


_KEYS = st.tuples(
    st.sampled_from(["APP.IN", "APP.OUT", "APP.*", "APP.**", "**", "A?P.IN", "OTHER", "APP.IN.X"]),
    st.sampled_from([mq.MQOT_Q, mq.MQOT_TOPIC]),
    st.sampled_from([mq.MQZAET_PRINCIPAL, mq.MQZAET_GROUP]),
    st.sampled_from(["app", "apps", "ops"]),
)


def _brute_force(records: dict[tuple[str, int, int, str], frozenset[int]], entity_type: int, entity: str, object_type: int,
                 name: str) -> tuple[str, frozenset[int]] | None:
    """The rule read off every record, as the docstring states it: the entity's most specific matching profile."""
    found = [(0 if "*" in p or "?" in p else 1, len(p.replace("*", "").replace("?", "")), p, a)
             for (p, o, e, w), a in records.items() if (o, e, w) == (object_type, entity_type, entity) and profile_matches(p, name)]
    if not found:
        return None
    best = max(found, key=lambda item: (item[0], item[1]))
    return best[2], best[3]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _KEYS, st.frozensets(st.sampled_from([mq.MQAUTH_INPUT, mq.MQAUTH_OUTPUT, mq.MQAUTH_BROWSE]))),
                max_size=25),
       st.sampled_from(["APP.IN", "APP.OUT", "APP.IN.X", "OTHER", "ABP.IN"]))
def test_the_indexes_decide_as_reading_every_record_would(changes: list[tuple[bool, tuple[str, int, int, str], frozenset[int]]],
                                                           name: str) -> None:
    """Records kept in a dict and in the indexes a check and a DELETE read: after any sequence of sets and removals
    (as Set/Delete Authority Record and their undo make them), every entity's deciding profile is the one a scan of
    every record finds, and the records of a profile are exactly those with that profile."""
    records = AuthorityRecords()
    plain: dict[tuple[str, int, int, str], frozenset[int]] = {}
    for remove, key, auths in changes:
        if remove or not auths:
            records.records.pop(key, None)
            plain.pop(key, None)
        else:
            records.records[key] = auths
            plain[key] = auths
    assert dict(records.records) == plain
    for object_type in (mq.MQOT_Q, mq.MQOT_TOPIC):
        for entity_type in (mq.MQZAET_PRINCIPAL, mq.MQZAET_GROUP):
            for entity in ("app", "apps", "ops"):
                expected = _brute_force(plain, entity_type, entity, object_type, name)
                got = records.deciding(entity_type, entity, object_type, name)
                assert (got[1] if got else None) == (expected[1] if expected else None)
        for profile in ("APP.IN", "APP.**", "OTHER"):
            assert sorted(records.of_object(profile, object_type)) == sorted(k for k in plain if k[:2] == (profile, object_type))


def test_the_class_profile_grants_creation_of_its_object_type(qm: QueueManager) -> None:
    """dmpmqcfg writes who may create objects of a type as SET AUTHREC PROFILE('@CLASS') ... AUTHADD(CRT); DISPLAY
    AUTHREC shows PROFILE(@class).  That grant lets its entities create objects of the type, of any name."""
    assert reason(qm.execute(create("ANY.NEW"), APP)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(qm.execute(set_auth("@CLASS", groups=("apps",), add=(mq.MQAUTH_CREATE,)))) == 0
    got = values(qm.execute(inquire_recs("@class", mq.MQAUTHOPT_NAME_EXPLICIT | mq.MQAUTHOPT_ENTITY_EXPLICIT)[0])[0])
    assert got[mq.MQCACF_AUTH_PROFILE_NAME] == "@class".ljust(48) and got[mq.MQIACF_AUTHORIZATION_LIST] == (mq.MQAUTH_CREATE,)
    assert reason(qm.execute(create("ANY.NEW"), APP)) == 0
    # of that type only, and only CRT: the new queue's own profile still decides what else the group may do
    namelist = command(mq.MQCMD_CREATE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "NL"))
    assert reason(qm.execute(namelist, APP)) == mq.MQRC_NOT_AUTHORIZED
    assert reason(qm.execute(change("ANY.NEW", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 7)), APP)) == mq.MQRC_NOT_AUTHORIZED
    # a generic profile that happens to match the name '@class' is not the class profile
    qm.execute(set_auth("@class", groups=("apps",), remove=(mq.MQAUTH_CREATE,)))
    qm.execute(set_auth("**", principals=("app",), add=(mq.MQAUTH_CREATE,), object_type=mq.MQOT_NAMELIST))
    assert not qm.engine.authority.class_allows(APP, mq.MQOT_NAMELIST, mq.MQAUTH_CREATE)
    assert not qm.engine.authority.class_allows(APP, mq.MQOT_Q, mq.MQAUTH_CREATE)


@pytest.mark.parametrize(
    ("profile", "object_type", "auths"),
    [  # what a published dmpmqcfg dump of MQ 9.3.1 grants the mqm group
        ("SYSTEM.DEFAULT.PROCESS", mq.MQOT_PROCESS, (mq.MQAUTH_CHANGE, mq.MQAUTH_DELETE, mq.MQAUTH_DISPLAY, mq.MQAUTH_INQUIRE, mq.MQAUTH_SET)),
        ("", mq.MQOT_Q_MGR, (mq.MQAUTH_ALT_USER_AUTHORITY, mq.MQAUTH_CHANGE, mq.MQAUTH_CONNECT, mq.MQAUTH_DELETE, mq.MQAUTH_DISPLAY,
                             mq.MQAUTH_INQUIRE, mq.MQAUTH_SET, mq.MQAUTH_SET_ALL_CONTEXT, mq.MQAUTH_SET_IDENTITY_CONTEXT,
                             mq.MQAUTH_CONTROL, mq.MQAUTH_SYSTEM)),
    ],
)
def test_authorities_a_real_queue_manager_holds_are_accepted(qm: QueueManager, profile: str, object_type: int, auths: tuple[int, ...]) -> None:
    assert reason(qm.execute(set_auth(profile, groups=("mqm",), add=auths, object_type=object_type))) == 0
