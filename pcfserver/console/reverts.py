"""A history entry (``pcfserver.engine.audit``) as MQSC: the command that was run, and the command that reverts it.

The revert is written from what the entry kept of the state before the change, with the dump writer's rendering
(``pcfserver.dialects.dump``): a definition deleted comes back as ``DEFINE ... REPLACE`` with the attributes that
differed from the defaults, an alteration is altered back, a new object is deleted, an authority record gets back
the authorities it lost and loses those it gained, a channel authentication rule added is removed, one changed is
set back (ACTION(REPLACE)) and one removed is added again (several lines when REMOVEALL removed several).
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from pcfserver import kinds, mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.console.secrets import MASK, mask_text
from pcfserver.dialects import mqsc
from pcfserver.dialects.dump import Value, definition, parameters
from pcfserver.engine import audit, chlauth
from pcfserver.engine.audit import Change
from pcfserver.engine.store import ObjValue

NO_REVERT = "* no automatic revert for this change"


def command_text(entry: Change) -> str:
    try:
        return mask_text(mqsc.render_command(audit.message(entry)))
    except Exception:  # a PCF command with no MQSC form (or a stored one that no longer decodes)
        command = entry.command
        code = command.command if isinstance(command, Message) else "?"
        return f"* PCF command {code}, which has no MQSC form"


def revert_text(entry: Change) -> str:
    """The MQSC that undoes the change (several lines for several records), or a comment when there is none.  A
    password it would set back is masked (console/secrets.py), with a line saying so: that one must be typed again."""
    text = _revert(entry.seq, entry)
    masked = mask_text(text)
    return masked if masked == text else masked + f"\n* {MASK} stands for a password the console does not show: type it in its place (the MQSC box runs nothing that still has it)"


@lru_cache(maxsize=1024)
def _cached(seq: int, kind: str, subtype: int, mode: str, target: str, before: tuple[object, ...]) -> str:
    try:
        commands = _reverts(kind, subtype, mode, target, before)
        if commands:
            return "\n".join(mqsc.render_command(command) for command in commands)
    except Exception:  # an attribute with no MQSC keyword, an entry of an older release
        pass
    return NO_REVERT


def _revert(seq: int, entry: Change) -> str:
    return _cached(seq, entry.kind, entry.subtype, entry.mode, entry.target, entry.before)


def _values(before: tuple[object, ...]) -> dict[int, Value]:
    out: dict[int, Value] = {}
    for pair in before:
        assert isinstance(pair, tuple) and len(pair) == 2
        pid, value = pair
        out[int(pid)] = value
    return out


def _reverts(kind: str, subtype: int, mode: str, target: str, before: tuple[object, ...]) -> list[Message]:
    if mode == audit.AUTHRECS:
        return [_authrec(record) for record in before if isinstance(record, tuple)]
    if mode == audit.CHLAUTH:
        return [_chlauth_rule(target, subtype, pair) for pair in before]
    if kind == "qmgr" and mode == audit.ALTERED:
        return [Message(mq.MQCMD_CHANGE_Q_MGR, tuple(parameters("qmgr", 0, _values(before))))]
    if kind == "queue":
        head: tuple[Parameter, ...] = (String(mq.MQCA_Q_NAME, target), Integer(mq.MQIA_Q_TYPE, subtype))
        if mode == audit.NEW:
            return [Message(mq.MQCMD_DELETE_Q, head)]
        if mode == audit.ALTERED:
            return [Message(mq.MQCMD_CHANGE_Q, (*head, *parameters("queue", subtype, _values(before))))]
        if mode == audit.REPLACED:
            return [definition("queue", target, subtype, _values(before))]
        return []
    found = kinds.by_key().get(kind)
    if found is None:
        return []
    named: tuple[Parameter, ...] = (String(found.name, target),)
    if found.subtype:
        named += (Integer(found.subtype, subtype),)
    if mode == audit.NEW:
        return [Message(found.command("DELETE"), named[:1])]
    if mode == audit.ALTERED:
        return [Message(found.command("CHANGE"), (*named, *parameters(kind, subtype, _values(before))))]
    if mode == audit.REPLACED:
        return [definition(kind, target, subtype, _values(before))]
    return []


def _authrec(record: tuple[object, ...]) -> Message:
    profile, object_type, entity_type, entity, was, now = record
    assert isinstance(profile, str) and isinstance(object_type, int) and isinstance(entity, str)
    assert isinstance(was, tuple) and isinstance(now, tuple)
    gained = tuple(sorted(set(now) - set(was)))
    lost = tuple(sorted(set(was) - set(now)))
    who = mq.MQCACF_GROUP_ENTITY_NAMES if entity_type == mq.MQZAET_GROUP else mq.MQCACF_PRINCIPAL_ENTITY_NAMES
    params: list[Parameter] = [String(mq.MQCACF_AUTH_PROFILE_NAME, profile), Integer(mq.MQIACF_OBJECT_TYPE, object_type), StringList(who, (entity,))]
    if gained:
        params.append(IntegerList(mq.MQIACF_AUTH_REMOVE_AUTHS, gained))
    if lost:
        params.append(IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, lost))
    if not was:
        return Message(mq.MQCMD_DELETE_AUTH_REC, tuple(params[:3]))
    return Message(mq.MQCMD_SET_AUTH_REC, tuple(params))


def _chlauth_rule(profile: str, record_type: int, pair: object) -> Message:
    """SET CHLAUTH putting one rule back: (its fields before, after) -- () for none -- as ``audit`` kept them."""
    assert isinstance(pair, tuple) and len(pair) == 2
    was, now = (_values(side) for side in pair)
    head: tuple[Parameter, ...] = (String(chlauth.PROFILE, profile), Integer(chlauth.TYPE, record_type))
    if not was:  # added: removed by the fields that tell it apart (a BLOCK type's by every name it holds)
        if record_type in chlauth.BLOCK_TYPES:
            listed = chlauth.REQUIRED[record_type]
            keys: tuple[Parameter, ...] = (_chlauth_parameter(listed, now[listed]),)
        else:
            keys = tuple(_chlauth_parameter(pid, now[pid]) for pid in chlauth.KEY_FIELDS[record_type] if now.get(pid, "") != "")
        return Message(mq.MQCMD_SET_CHLAUTH_REC, (*head, Integer(chlauth.ACTION, mq.MQACT_REMOVE), *keys))
    # changed (set back whole) or removed (added again): the fields the rule shows, those at their default left out
    rule = chlauth.Record(profile, record_type, {**chlauth.DEFAULTS, **cast(dict[int, ObjValue], was)})
    fields = tuple(_chlauth_parameter(pid, was[pid]) for pid in chlauth.shown(rule)
                   if pid in was and pid not in (chlauth.ALTDATE, chlauth.ALTTIME)
                   and (pid == chlauth.USERSRC or pid == chlauth.REQUIRED[record_type] or was[pid] != chlauth.DEFAULTS.get(pid)))
    action = mq.MQACT_REPLACE if now else mq.MQACT_ADD
    return Message(mq.MQCMD_SET_CHLAUTH_REC, (*head, Integer(chlauth.ACTION, action), *fields))


def _chlauth_parameter(pid: int, value: Value) -> Parameter:
    if isinstance(value, tuple):
        return StringList(pid, tuple(str(v) for v in value))
    if isinstance(value, str):
        return String(pid, value)
    assert isinstance(value, int)
    return Integer(pid, value)
