"""The console's "why was this refused?": its verdict is the engine's, it names the records that decided, and the
SET AUTHREC it proposes, run through runmqsc's language, allows what was refused."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import QueueManager, mq
from pcfserver.console.explain import (
    READ_ONLY,
    RECORDS,
    SERVER,
    explain,
    object_types,
    operations,
    parse_auth,
    set_authrec,
    usual_operations,
)
from pcfserver.dialects import mqsc
from pcfserver.dialects.outcome import OK
from pcfserver.engine.authority import AuthorityRecords, Identity, object_authorities, operation_allowed

USERS = ("alice", "bob")
GROUPS = ("apps", "ops", "audit")
TYPES = (mq.MQOT_Q, mq.MQOT_TOPIC, mq.MQOT_CHANNEL, mq.MQOT_Q_MGR)
PROFILES = ("APP.Q", "APP.*", "APP.**", "**", "APP.?", "OTHER.Q", "A*.Q", "QM1")
NAMES = ("APP.Q", "APP.X", "APP.Q.DEEP", "OTHER.Q", "QM1", "ABC.Q")
AUTHS = (mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT, mq.MQAUTH_BROWSE, mq.MQAUTH_DISPLAY, mq.MQAUTH_CHANGE, mq.MQAUTH_PUBLISH,
         mq.MQAUTH_SUBSCRIBE, mq.MQAUTH_CONTROL, mq.MQAUTH_CONNECT, mq.MQAUTH_INQUIRE)

_record = st.tuples(
    st.sampled_from(PROFILES),
    st.sampled_from(TYPES),
    st.one_of(st.tuples(st.just(mq.MQZAET_PRINCIPAL), st.sampled_from(USERS)), st.tuples(st.just(mq.MQZAET_GROUP), st.sampled_from(GROUPS))),
    st.frozensets(st.sampled_from(AUTHS), min_size=1, max_size=4),
)
_identity = st.one_of(
    st.none(),
    st.builds(Identity, st.sampled_from(USERS), st.lists(st.sampled_from(GROUPS), unique=True, max_size=3).map(tuple), st.booleans()),
)


def _records(rows: list[tuple[str, int, tuple[int, str], frozenset[int]]]) -> AuthorityRecords:
    records = AuthorityRecords()
    for profile, object_type, (entity_type, entity), auths in rows:
        records.records[(profile, object_type, entity_type, entity)] = auths
    return records


@given(st.lists(_record, max_size=12), _identity, st.sampled_from(TYPES), st.sampled_from(NAMES), st.sampled_from(AUTHS))
@settings(max_examples=400, deadline=None)
def test_the_explainer_decides_as_the_engine_does(rows: list, identity: Identity | None, object_type: int, name: str, auth: int) -> None:
    records = _records(rows)
    told = explain(records, identity, object_type, name, auth)
    assert told.allowed == operation_allowed(records, identity, object_type, name, auth)
    if identity is None:
        assert told.basis == SERVER and told.allowed
        return
    assert told.basis == (READ_ONLY if identity.read_only else RECORDS)
    assert [e.entity for e in told.entities] == [identity.user, *identity.groups]
    if told.basis == RECORDS:
        assert told.granted == records.authorities(identity, object_type, name)
        assert len(told.fixes) == (0 if told.allowed else len(told.entities))
        for entity in told.deciding:
            assert entity.profile is not None
    # every fix proposed, applied as SET AUTHREC would apply it, allows the operation
    for entity, fix in zip(told.entities, told.fixes, strict=False):
        fixed = _records(rows)
        key = (entity.profile or name, object_type, entity.entity_type, entity.entity)
        fixed.records[key] = fixed.records.get(key, frozenset()) | {auth}
        assert operation_allowed(fixed, identity, object_type, name, auth), fix


def test_the_most_specific_profile_decides_and_the_groups_add_up() -> None:
    records = _records([
        ("APP.**", mq.MQOT_Q, (mq.MQZAET_PRINCIPAL, "alice"), frozenset({mq.MQAUTH_OUTPUT, mq.MQAUTH_INPUT})),
        ("APP.Q", mq.MQOT_Q, (mq.MQZAET_PRINCIPAL, "alice"), frozenset({mq.MQAUTH_BROWSE})),
        ("APP.*", mq.MQOT_Q, (mq.MQZAET_GROUP, "apps"), frozenset({mq.MQAUTH_INQUIRE})),
    ])
    alice = Identity("alice", ("apps", "ops"))
    refused = explain(records, alice, mq.MQOT_Q, "APP.Q", mq.MQAUTH_OUTPUT)
    assert not refused.allowed
    assert [(e.entity, e.profile) for e in refused.entities] == [("alice", "APP.Q"), ("apps", "APP.*"), ("ops", None)]
    assert refused.fixes[0] == "SET AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT)"
    assert refused.fixes[2] == "SET AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) GROUP('ops') AUTHADD(PUT)"
    allowed = explain(records, alice, mq.MQOT_Q, "APP.Q", mq.MQAUTH_INQUIRE)
    assert allowed.allowed and [e.entity for e in allowed.deciding] == ["apps"]
    assert explain(records, alice, mq.MQOT_Q, "APP.OTHER", mq.MQAUTH_OUTPUT).allowed  # APP.** for a name APP.Q does not cover


def test_a_read_only_administrator_displays_whatever_the_records_say() -> None:
    viewer = Identity("viewer", read_only=True)
    assert explain(AuthorityRecords(), viewer, mq.MQOT_Q, "ANY", mq.MQAUTH_DISPLAY).allowed
    told = explain(AuthorityRecords(), viewer, mq.MQOT_Q, "ANY", mq.MQAUTH_OUTPUT)
    assert not told.allowed and told.basis == READ_ONLY and not told.fixes


def test_the_proposed_command_runs_in_runmqsc_and_allows_it() -> None:
    manager = QueueManager()
    try:
        engine = manager.engine
        bob = Identity("bob", ("apps",))
        told = explain(engine.authority, bob, mq.MQOT_Q, "APP.Q", mq.MQAUTH_OUTPUT)
        assert not told.allowed
        outcome = mqsc.run(told.fixes[1], manager.execute)
        assert outcome.status == OK, outcome.lines
        assert operation_allowed(engine.authority, bob, mq.MQOT_Q, "APP.Q", mq.MQAUTH_OUTPUT)
        assert explain(engine.authority, bob, mq.MQOT_Q, "APP.Q", mq.MQAUTH_OUTPUT).deciding[0].profile == "APP.Q"
        qmgr = set_authrec(engine.qmgr_name, mq.MQOT_Q_MGR, mq.MQZAET_PRINCIPAL, "bob", (mq.MQAUTH_CONNECT,))
        assert mqsc.run(qmgr, manager.execute).status == OK
        assert operation_allowed(engine.authority, bob, mq.MQOT_Q_MGR, engine.qmgr_name, mq.MQAUTH_CONNECT)
    finally:
        manager.close()


def test_operations_offered_are_those_the_object_type_takes() -> None:
    for object_type, auths in object_authorities().items():
        words = operations(object_type)
        assert len(words) == len(auths)
        assert {parse_auth(w) for w in words} == set(auths)
    assert "PUT" in operations(mq.MQOT_Q) and "PUB" in operations(mq.MQOT_TOPIC)
    assert parse_auth("ALL") is None and parse_auth("nonsense") is None


def test_every_object_type_starts_from_an_operation_it_takes() -> None:
    """formats/authrec-object-types.tsv's usual column: one per type, an authority the type takes."""
    usual = usual_operations()
    assert usual["QUEUE"] == "PUT" and usual["QMGR"] == "CONNECT" and usual["TOPIC"] == "PUB"
    for word, object_type in object_types().items():
        assert usual.get(word) in operations(object_type), word
