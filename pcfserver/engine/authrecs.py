"""Set, Inquire and Delete Authority Record: the PCF commands that keep the authority records; and Inquire Entity
Authority, which reads what they grant.

The records live in :class:`pcfserver.engine.authority.AuthorityRecords` in memory and in the
store's ``authrecs`` table (written in the same transaction as the command's other changes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String
from pcfserver.engine import responses
from pcfserver.engine.authority import expand, profile_name, valid_auth, valid_profile
from pcfserver.engine.messages import MQIError
from pcfserver.engine.store import SetAuthRec
from pcfserver.engine.transaction import replace_entry

if TYPE_CHECKING:
    from pcfserver.engine.context import EngineView


class Parsed(Protocol):
    values: dict[int, object]


def _entities(values: dict[int, object]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for pid, etype in ((mq.MQCACF_PRINCIPAL_ENTITY_NAMES, mq.MQZAET_PRINCIPAL), (mq.MQCACF_GROUP_ENTITY_NAMES, mq.MQZAET_GROUP)):
        names = values.get(pid, ())
        assert isinstance(names, tuple)
        out += [(etype, str(n)) for n in names if str(n)]
    if not out:
        raise MQIError(mq.MQRCCF_ENTITY_NAME_MISSING)
    return out


def _profile(values: dict[int, object], qmgr: str) -> str:
    """The profile named; a blank one on the queue manager object is the queue manager's own name (MQSC's SET AUTHREC OBJTYPE(QMGR))."""
    profile = values[mq.MQCACF_AUTH_PROFILE_NAME]
    assert isinstance(profile, str)
    if not profile and values.get(mq.MQIACF_OBJECT_TYPE) == mq.MQOT_Q_MGR:
        return qmgr
    profile = profile_name(profile)
    if not valid_profile(profile):
        raise MQIError(mq.MQRCCF_PROFILE_NAME_ERROR)
    return profile


def _auths(values: dict[int, object], pid: int, object_type: int) -> tuple[int, ...]:
    """The authorities a command adds or removes: each one the object type takes (formats/authrec-object-types.tsv)."""
    given = values.get(pid, ())
    assert isinstance(given, tuple)
    for value in given:
        if not isinstance(value, int) or not valid_auth(value, object_type):
            raise MQIError(mq.MQRCCF_AUTH_VALUE_ERROR)
    return tuple(int(v) for v in given)


def _store(engine: EngineView, key: tuple[str, int, int, str], auths: frozenset[int]) -> None:
    replace_entry(engine.record_undo, engine.authority.records, key, auths or None)
    engine.record_op(SetAuthRec(*key, tuple(sorted(auths))))


def set_auth_rec(engine: EngineView, command: Message, p: Parsed) -> list[Message]:
    profile = _profile(p.values, engine.qmgr_name)
    object_type = p.values[mq.MQIACF_OBJECT_TYPE]
    assert isinstance(object_type, int)
    add = _auths(p.values, mq.MQIACF_AUTH_ADD_AUTHS, object_type)
    remove = _auths(p.values, mq.MQIACF_AUTH_REMOVE_AUTHS, object_type)
    if not add and not remove:
        raise MQIError(mq.MQRCCF_AUTH_VALUE_MISSING)
    for etype, entity in _entities(p.values):
        key = (profile, object_type, etype, entity)
        current = engine.authority.records.get(key, frozenset())
        _store(engine, key, (current - expand(remove, object_type)) | expand(add, object_type))
    return responses.success(command)


def delete_auth_rec(engine: EngineView, command: Message, p: Parsed) -> list[Message]:
    profile = _profile(p.values, engine.qmgr_name)
    object_type = p.values[mq.MQIACF_OBJECT_TYPE]
    assert isinstance(object_type, int)
    keys = [(profile, object_type, etype, entity) for etype, entity in _entities(p.values)]
    if not any(k in engine.authority.records for k in keys):
        raise MQIError(mq.MQRC_UNKNOWN_ENTITY)
    for key in keys:
        if key in engine.authority.records:
            _store(engine, key, frozenset())
    return responses.success(command)


def remove_object_records(engine: EngineView, name: str, object_type: int, values: dict[int, object]) -> None:
    """A deleted object's own authority records (profile its name, its object type) go with it unless the command said
    AUTHREC(NO) (MQIACF_REMOVE_AUTHREC MQRAR_NO): IBM's DELETE of a queue, process, namelist, topic, channel, ...
    removes them by default on Multiplatforms.  Generic profiles that happen to match the name stay."""
    if values.get(mq.MQIACF_REMOVE_AUTHREC, mq.MQRAR_YES) != mq.MQRAR_YES:
        return
    for key in engine.authority.of_object(name, object_type):
        _store(engine, key, frozenset())


def inquire_auth_recs(engine: EngineView, command: Message, p: Parsed) -> list[Message]:
    options = p.values[mq.MQIACF_AUTH_OPTIONS]
    profile = p.values[mq.MQCACF_AUTH_PROFILE_NAME]
    assert isinstance(options, int) and isinstance(profile, str)
    profile = profile_name(profile)
    object_type = p.values.get(mq.MQIACF_OBJECT_TYPE)
    entity = p.values.get(mq.MQCACF_ENTITY_NAME)
    entity_type = p.values.get(mq.MQIACF_ENTITY_TYPE)
    assert object_type is None or isinstance(object_type, int)
    assert entity_type is None or isinstance(entity_type, int)
    found = engine.authority.matching(profile, object_type, options, str(entity) if entity else None, entity_type)
    if not found:
        raise MQIError(mq.MQRC_UNKNOWN_ENTITY)
    shown = _asked(p, _AUTH_RECS_ATTRS)
    head = (String(mq.MQCA_Q_MGR_NAME, engine.qmgr_name.ljust(48), engine.ccsid), Integer(mq.MQIACF_AUTH_OPTIONS, options))
    out = []
    for (rprofile, otype, etype, who), auths in found:
        values: dict[int, Parameter] = {
            mq.MQCACF_ENTITY_NAME: String(mq.MQCACF_ENTITY_NAME, who.ljust(12), engine.ccsid),
            mq.MQIACF_ENTITY_TYPE: Integer(mq.MQIACF_ENTITY_TYPE, etype),
            mq.MQIACF_AUTHORIZATION_LIST: IntegerList(mq.MQIACF_AUTHORIZATION_LIST, tuple(sorted(auths))),
        }
        params: tuple[Parameter, ...] = (
            *head,
            String(mq.MQCACF_AUTH_PROFILE_NAME, rprofile.ljust(48), engine.ccsid),
            Integer(mq.MQIACF_OBJECT_TYPE, otype),
            *(values[a] for a in shown),
        )
        out.append(responses.ok_response(command, params))
    return responses.numbered(out)


def _asked(p: Parsed, attrs: tuple[int, ...]) -> tuple[int, ...]:
    """Which of ``attrs`` the command's ProfileAttrs asks for, in their order (all of them for MQIACF_ALL, the default)."""
    asked = p.values.get(mq.MQIACF_AUTH_PROFILE_ATTRS, (mq.MQIACF_ALL,))
    assert isinstance(asked, tuple)
    return attrs if mq.MQIACF_ALL in asked else tuple(a for a in attrs if a in asked)


# What Inquire Authority Records reports when asked for everything, after QMgrName, Options, ProfileName and
# ObjectType, which every record's response carries (q087320_).
_AUTH_RECS_ATTRS = (mq.MQCACF_ENTITY_NAME, mq.MQIACF_ENTITY_TYPE, mq.MQIACF_AUTHORIZATION_LIST)


# What Inquire Entity Authority reports when asked for everything, in the order it reports them (q087650_).
_ENTITY_AUTH_ATTRS = (mq.MQCACF_ENTITY_NAME, mq.MQIACF_ENTITY_TYPE, mq.MQIACF_OBJECT_TYPE, mq.MQIACF_AUTHORIZATION_LIST)


def inquire_entity_auth(engine: EngineView, command: Message, p: Parsed) -> list[Message]:
    """What an entity may do to an object: a principal's own records and its groups' (the most specific profile of
    each counting); a group's own.  Always QMgrName, Options and ObjectName, then the attributes asked for."""
    entity = p.values[mq.MQCACF_ENTITY_NAME]
    entity_type = p.values[mq.MQIACF_ENTITY_TYPE]
    object_type = p.values[mq.MQIACF_OBJECT_TYPE]
    name = p.values.get(mq.MQCACF_OBJECT_NAME, "")
    assert isinstance(entity, str) and isinstance(entity_type, int) and isinstance(object_type, int) and isinstance(name, str)
    entity, name = entity.strip(), name.strip()
    if not entity:
        raise MQIError(mq.MQRCCF_ENTITY_NAME_MISSING)
    if not name and object_type == mq.MQOT_Q_MGR:
        name = engine.qmgr_name
    if not valid_profile(name):
        raise MQIError(mq.MQRCCF_OBJECT_NAME_ERROR)
    records = engine.authority
    entities = records.principal_entities(entity) if entity_type == mq.MQZAET_PRINCIPAL else [(entity_type, entity)]
    granted = records.granted(entities, object_type, name)
    shown = _asked(p, _ENTITY_AUTH_ATTRS)
    values: dict[int, Parameter] = {
        mq.MQCACF_ENTITY_NAME: String(mq.MQCACF_ENTITY_NAME, entity, engine.ccsid),
        mq.MQIACF_ENTITY_TYPE: Integer(mq.MQIACF_ENTITY_TYPE, entity_type),
        mq.MQIACF_OBJECT_TYPE: Integer(mq.MQIACF_OBJECT_TYPE, object_type),
        # No authority at all is reported as MQAUTH_NONE (IBM lists it among the values; chosen, commands.tsv).
        mq.MQIACF_AUTHORIZATION_LIST: IntegerList(mq.MQIACF_AUTHORIZATION_LIST, tuple(sorted(granted)) or (mq.MQAUTH_NONE,)),
    }
    params: tuple[Parameter, ...] = (
        String(mq.MQCA_Q_MGR_NAME, engine.qmgr_name.ljust(48), engine.ccsid),
        Integer(mq.MQIACF_AUTH_OPTIONS, mq.MQAUTHOPT_CUMULATIVE),
        String(mq.MQCACF_OBJECT_NAME, name.ljust(48), engine.ccsid),
        *(values[a] for a in shown),
    )
    return responses.numbered([responses.ok_response(command, params)])
