"""Create, Copy, Change, Delete, Inquire and Inquire Names, written once for every kind of ``formats/kinds.tsv``.

A kind is its attribute table (``formats/<kind>-attributes.tsv``) and its row in kinds.tsv; the commands follow
the queue commands' rules (IBM's Change/Copy/Create, Delete, Inquire and Inquire Names pages for each object):

* Create takes the attributes it does not name from the kind's default object (for a kind with subtypes, the
  default object of the subtype: SYSTEM.DEF.SENDER for a sender channel), or the table's defaults when that object
  was deleted; an object of that name already there is MQRCCF_OBJECT_ALREADY_EXISTS unless Replace is MQRP_YES.
* Copy takes them from the object FromName names (MQRC_UNKNOWN_OBJECT_NAME when there is none).
* Change, Delete and a specific Inquire of an object that is not there: MQRC_UNKNOWN_OBJECT_NAME.
* A subtype given to Change or Copy that is not the object's: the kind's ``subtype_reason``.
* An attribute the object's subtype does not take is refused by the engine's parameter checks.
* Inquire and Inquire Names take generic names; an identity sees only what it may display.

Rules of one kind's own live in ``pcfserver/engine/kinds/<kind>.py`` (see ``kinds.RULES``).  Each change records
its undo and its store operation, so a command applies whole or not at all and commits in its batch's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Protocol

from pcfserver import kinds, mq
from pcfserver.codec.model import ByteString, Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter, StringList
from pcfserver.engine import authrecs, responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.filters import OBJECT_NAME, generic_match, holds
from pcfserver.engine.kinds import HOOKS, RULES, check_table_rules
from pcfserver.engine.kinds.hooks import Hooks, Values
from pcfserver.engine.registry import NamedObject, Objects
from pcfserver.engine.responses import Reject
from pcfserver.engine.spec import Attribute, ObjectSpec, byte_value, spec
from pcfserver.engine.store import AnyOp, DeleteObject, ObjValue, PutObject, SetMeta, Snapshot
from pcfserver.kinds import Kind
from pcfserver.tables import read_table, value_of

__all__ = ["DefaultRow", "NamedObject", "Objects", "default_rows", "handlers", "load", "mark", "overrides", "pending", "seed"]

_ALL = mq.MQIACF_ALL
_REPLACE = mq.MQIACF_REPLACE
_ALT_DATE = mq.MQCA_ALTERATION_DATE
_ALT_TIME = mq.MQCA_ALTERATION_TIME
_NAME_COUNT = mq.MQIA_NAME_COUNT
_NAMES = mq.MQCA_NAMES
# The store's metadata keys recording which default objects of a kind were made: ``default_objects.<kind>`` holds
# their names, space-separated, so a registry written before a row of default-objects.tsv existed gets that object
# at its next open, as IBM's upgrade adds them, and one deleted later is not made again.  Older registries hold "1"
# there (every row of the kind then, see _ADDED_SINCE_MARK), LEGACY_KEY (the process and namelist defaults of that
# time), or, for queues, no key at all (the six queues every registry was created with).
SEEDED_PREFIX = "default_objects."
LEGACY_KEY = "default_objects"
LEGACY_KINDS = ("process", "namelist")
QUEUE_KIND = "queue"  # queues' rows in default-objects.tsv (not a kind of kinds.tsv: engine/queues.py makes them)
_OLD_MARK = "1"
# Rows added to a kind after registries marked it "1".
_ADDED_SINCE_MARK = {
    "namelist": frozenset(("SYSTEM.QPUBSUB.QUEUE.NAMELIST", "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST")),
    "topic": frozenset(("SYSTEM.ADMIN.TOPIC",)),
}
# The queues a registry without a queue key was created with.
_FIRST_QUEUES = frozenset(
    (
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        "SYSTEM.DEFAULT.MODEL.QUEUE",
        "SYSTEM.DEFAULT.ALIAS.QUEUE",
        "SYSTEM.DEFAULT.REMOTE.QUEUE",
        "SYSTEM.ADMIN.PERFM.EVENT",
        "SYSTEM.DEFAULT.INITIATION.QUEUE",
    )
)


@dataclass(frozen=True, slots=True)
class DefaultRow:
    """One row of formats/default-objects.tsv."""

    kind: str
    subtype: int
    name: str
    attributes: str


@cache
def default_rows() -> tuple[DefaultRow, ...]:
    """Every default object of a new queue manager, in the file's order (queues' rows included)."""
    return tuple(
        DefaultRow(row["kind"], value_of(row["subtype"]) if row["subtype"] else 0, row["name"], row["attributes"])
        for row in read_table("default-objects.tsv")
    )


def overrides(text: str, attributes: Mapping[int, Attribute], where: str) -> dict[int, ObjValue]:
    """default-objects.tsv's attributes cell: PARAMETER=value|...; integer values by constant name or number, a
    string list (MQCFSL) as comma-separated names."""
    out: dict[int, ObjValue] = {}
    for part in filter(None, text.split("|")):
        name, _, raw = part.partition("=")
        pid = value_of(name.strip())
        attr = attributes.get(pid)
        if attr is None:
            raise ValueError(f"default-objects.tsv: {name} is not an attribute of {where}")
        if attr.struct == "MQCFSL":
            out[pid] = tuple(item.strip() for item in raw.split(",") if item.strip())
        elif attr.is_string:
            out[pid] = raw
        else:
            out[pid] = value_of(raw.strip())
    return out


def pending(meta: Mapping[str, str] | None) -> dict[str, tuple[DefaultRow, ...]]:
    """Per kind (``queue`` included), the default objects still to be made: all of them for a new registry (None),
    for a stored one those its meta keys do not name as made."""
    by_kind: dict[str, list[DefaultRow]] = {}
    for row in default_rows():
        by_kind.setdefault(row.kind, []).append(row)
    out: dict[str, tuple[DefaultRow, ...]] = {}
    for kind, rows in by_kind.items():
        made = None if meta is None else _made(meta, kind, rows)
        todo = tuple(row for row in rows if made is None or row.name not in made)
        if todo or (meta is not None and meta.get(SEEDED_PREFIX + kind, _OLD_MARK) == _OLD_MARK):
            out[kind] = todo  # (an old mark is rewritten as names even when nothing is missing)
    return out


def _made(meta: Mapping[str, str], kind: str, rows: list[DefaultRow]) -> frozenset[str]:
    value = meta.get(SEEDED_PREFIX + kind)
    if value is None and kind in LEGACY_KINDS and LEGACY_KEY in meta:
        value = _OLD_MARK
    if value == _OLD_MARK:
        return frozenset(row.name for row in rows) - _ADDED_SINCE_MARK.get(kind, frozenset())
    if value is None:
        return _FIRST_QUEUES if kind == QUEUE_KIND else frozenset()
    return frozenset(value.split())


def mark(meta: Mapping[str, str] | None, made: Mapping[str, tuple[DefaultRow, ...]]) -> SetMeta:
    """The meta keys naming, per kind, the default objects made so far (those before and ``made``)."""
    items = []
    for kind, rows in made.items():
        every = [row for row in default_rows() if row.kind == kind]
        before = frozenset() if meta is None else _made(meta, kind, every)
        names = before | {row.name for row in rows}
        items.append((SEEDED_PREFIX + kind, " ".join(row.name for row in every if row.name in names)))
    return SetMeta(tuple(items))


def table(kind: Kind) -> ObjectSpec:
    return spec().objects[kind.key]


def default_of(attr: Attribute, subtype: int = 0) -> ObjValue:
    """A new object's value: a string list starts empty, an integer list holds its one default value."""
    if attr.struct == "MQCFSL":
        return ()
    value = attr.defaults.get(subtype, attr.defaults[0])
    if attr.struct == "MQCFIL":
        assert isinstance(value, int)
        return (value,)
    return value


def table_defaults(kind: Kind, subtype: int = 0) -> dict[int, ObjValue]:
    """The table's default of each settable attribute an object of ``subtype`` takes (a string list's is empty)."""
    out = {a.pid: default_of(a, subtype) for a in table(kind).stored_for(subtype) if a.access == "set"}
    if kind.subtype:
        out[kind.subtype] = subtype
    return out


class Parsed(Protocol):
    values: dict[int, object]
    attrs: dict[int, int | str]
    filter: IntegerFilter | StringFilter | None


Handler = Callable[[Message, Parsed], list[Message]]


def handlers(engine: EngineView) -> dict[int, Handler]:
    """Every kind's commands, for Engine's handler table."""
    functions = {"CREATE": create, "COPY": copy, "CHANGE": change, "DELETE": delete, "INQUIRE": inquire, "INQUIRE_NAMES": inquire_names}
    return {code: partial(functions[verb], engine, kind) for code, (kind, verb) in kinds.by_command().items()}


# ---------------------------------------------------------------------------------- setup


def _stamp(engine: EngineView, attrs: dict[int, ObjValue]) -> dict[int, ObjValue]:
    date, clock = engine.now()
    attrs[_ALT_DATE] = date
    attrs[_ALT_TIME] = clock
    return attrs


def seed(engine: EngineView, todo: Mapping[str, tuple[DefaultRow, ...]]) -> list[AnyOp]:
    """The default objects of ``todo`` (see :func:`pending`) of the kinds of kinds.tsv, with their tables' defaults
    and overrides; one of that name already there (made by the user) is left as it is."""
    ops: list[AnyOp] = []
    by_key = kinds.by_key()
    for key, rows in todo.items():
        kind = by_key.get(key)
        if kind is None:
            continue  # queues: engine/queues.py
        objects = engine.objects.by_type[kind.object_type]
        for row in rows:
            if row.name in objects:
                continue
            given = overrides(row.attributes, table(kind).attributes, f"kind {kind.key}")
            attrs = _stamp(engine, {**table_defaults(kind, row.subtype), **given})
            fill = _hooks(kind).fill
            if fill is not None:
                fill(engine, row.name, attrs, None, None)
            objects[row.name] = NamedObject(row.name, attrs)
            ops.append(PutObject(kind.object_type, row.name, tuple(attrs.items())))
    return ops


def load(engine: EngineView, snapshot: Snapshot) -> None:
    """The stored objects into memory."""
    by_type = kinds.by_object_type()
    for (object_type, name), attrs in snapshot.objects.items():
        kind = by_type.get(object_type)
        if kind is None:
            continue
        subtype = attrs.get(kind.subtype, 0) if kind.subtype else 0
        assert isinstance(subtype, int)
        # Attributes added to the table after the object was written take their defaults.
        complete = {a.pid: attrs.get(a.pid, default_of(a, subtype)) for a in table(kind).stored_for(subtype)}
        if kind.subtype:
            complete[kind.subtype] = subtype
        engine.objects.by_type[object_type][name] = NamedObject(name, complete)


# ---------------------------------------------------------------------------------- changes


def _put(engine: EngineView, kind: Kind, name: str, record: NamedObject | None) -> None:
    """Makes ``record`` the object called ``name`` (None deletes it): in memory now, undoable, and as a store op."""
    objects = engine.objects.by_type[kind.object_type]
    old = objects.get(name)
    if record is None:
        objects.pop(name, None)
        engine.record_op(DeleteObject(kind.object_type, name))
    else:
        objects[name] = record
        engine.record_op(PutObject(kind.object_type, name, tuple(record.attrs.items())))
    engine.objects.touch(kind.object_type, name)

    def undo() -> None:
        if old is None:
            objects.pop(name, None)
        else:
            objects[name] = old
        engine.objects.touch(kind.object_type, name)

    engine.record_undo(undo)


def _list_value(attr: Attribute, values: object) -> tuple[str, ...]:
    """A string list (a namelist's Names): at most MQNC_MAX_NAMELIST_NAME_COUNT, each following the object naming rules."""
    assert isinstance(values, tuple)
    if len(values) > mq.MQNC_MAX_NAMELIST_NAME_COUNT:
        raise Reject(mq.MQRCCF_CFSL_COUNT_ERROR, attr.pid)
    if attr.value_reason == mq.MQRCCF_OBJECT_NAME_ERROR:
        for value in values:
            if not isinstance(value, str) or not OBJECT_NAME.match(value):
                raise Reject(attr.value_reason, attr.pid)
    return tuple(str(v) for v in values)


def _given(kind: Kind, p: Parsed) -> dict[int, ObjValue]:
    """The attributes a command sets (the engine checked each; string lists are checked here)."""
    given: dict[int, ObjValue] = dict(p.attrs)
    for attr in table(kind).stored:
        if attr.pid not in p.values:
            continue
        if attr.struct == "MQCFSL":
            given[attr.pid] = _list_value(attr, p.values[attr.pid])
        elif attr.struct == "MQCFIL":
            values = p.values[attr.pid]
            assert isinstance(values, tuple)
            given[attr.pid] = tuple(int(v) for v in values)
    return given


_NO_HOOKS = Hooks()


def _hooks(kind: Kind) -> Hooks:
    return HOOKS.get(kind.key, _NO_HOOKS)


def _name(p: Parsed, pid: int) -> str:
    name = p.values[pid]
    assert isinstance(name, str)
    return name


def _subtype_of(kind: Kind, record: NamedObject | None) -> int:
    if not kind.subtype or record is None:
        return 0
    value = record.attrs.get(kind.subtype, 0)
    assert isinstance(value, int)
    return value


def _given_subtype(kind: Kind, p: Parsed) -> int:
    value = p.values.get(kind.subtype, 0) if kind.subtype else 0
    assert isinstance(value, int)
    return value


def _defaults(engine: EngineView, kind: Kind, subtype: int) -> dict[int, ObjValue]:
    """A new object's starting attributes: those of the default object (the table's when it is gone or of another sort)."""
    default = engine.objects.get(kind.object_type, kind.default_object(subtype))
    if default is not None and _subtype_of(kind, default) == subtype:
        return dict(default.attrs)
    return table_defaults(kind, subtype)


def _define(
    engine: EngineView, kind: Kind, command: Message, p: Parsed, name: str, base: dict[int, ObjValue], source: NamedObject | None = None
) -> list[Message]:
    existing = engine.objects.get(kind.object_type, name)
    if existing is not None and p.values.get(_REPLACE) != mq.MQRP_YES:
        raise Reject(kind.exists_reason)
    subtype = _given_subtype(kind, p) or _subtype_of(kind, NamedObject(name, base))
    if existing is not None and kind.subtype and _subtype_of(kind, existing) != subtype:
        raise Reject(kind.subtype_reason, kind.subtype)  # Replace cannot change the sort of an object
    attrs = {**base, **_given(kind, p)}
    fill = _hooks(kind).fill
    if fill is not None:
        fill(engine, name, attrs, source, p.values)
    _check(engine, kind, name, attrs, existing)
    record = NamedObject(name, _stamp(engine, attrs))
    _put(engine, kind, name, record)
    defined = _hooks(kind).defined
    if defined is not None:
        defined(engine, record, existing, p.values)
    return responses.success(command)


def _check(engine: EngineView, kind: Kind, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    check_table_rules(kind.key, kind.subtype, name, attrs)
    rules = RULES.get(kind.key)
    if rules is not None:
        rules(engine, name, attrs, old)


def create(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    return _define(engine, kind, command, p, _name(p, kind.name), _defaults(engine, kind, _given_subtype(kind, p)))


def copy(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    source = engine.objects.get(kind.object_type, _name(p, kind.from_name))
    if source is None:
        raise Reject(kind.unknown_reason)
    given = _given_subtype(kind, p)
    if given and given != _subtype_of(kind, source):
        raise Reject(kind.subtype_reason, kind.subtype)
    return _define(engine, kind, command, p, _name(p, kind.to_name), dict(source.attrs), source)


def _existing(engine: EngineView, kind: Kind, p: Parsed) -> NamedObject:
    find = _hooks(kind).find
    record = engine.objects.get(kind.object_type, _name(p, kind.name)) if find is None else find(engine, p.values)
    if record is None:
        raise Reject(kind.unknown_reason)
    given = _given_subtype(kind, p)
    if given and given != _subtype_of(kind, record):
        raise Reject(kind.subtype_reason, kind.subtype)
    return record


def change(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    record = _existing(engine, kind, p)
    attrs = {**record.attrs, **_given(kind, p)}
    _check(engine, kind, record.name, attrs, record)
    _put(engine, kind, record.name, NamedObject(record.name, _stamp(engine, attrs)))
    return responses.success(command)


def delete(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    try:
        record = _existing(engine, kind, p)
    except Reject as reject:
        # IgnoreState YES (DELETE ... IGNSTATE(YES), 9.4 pages of DELETE TOPIC and DELETE SUB): an object that is not
        # there is no error (K: read as "the command does not fail when the object is already in that state").
        if reject.reason == kind.unknown_reason and p.values.get(mq.MQIACF_IGNORE_STATE) == mq.MQIS_YES:
            return responses.success(command)
        raise
    deleted = _hooks(kind).deleted
    if deleted is not None:
        deleted(engine, record, p.values)
    authrecs.remove_object_records(engine, record.name, kind.object_type, p.values)
    _put(engine, kind, record.name, None)
    return responses.success(command)


# ---------------------------------------------------------------------------------- inquiries


def _matching(engine: EngineView, kind: Kind, p: Parsed, names: bool = False) -> list[NamedObject]:
    """The objects a (generic) name and subtype select that the identity may display, in name order.

    Inquire Names (``names``) asked for every sort leaves out the kind's ``names_excludes`` (CLNTCONN channels)."""
    pattern = p.values.get(kind.name)  # (absent only where the kind names objects otherwise: a SubId)
    wanted = _given_subtype(kind, p)
    every = not wanted or wanted == kind.subtype_all
    excluded = kind.names_excludes if names and every else frozenset()
    objects = engine.objects.by_type[kind.object_type]
    out = []
    for name in sorted(objects):
        if isinstance(pattern, str) and not generic_match(pattern, name):
            continue
        record = objects[name]
        if not every and _subtype_of(kind, record) != wanted:
            continue
        if excluded and _subtype_of(kind, record) in excluded:
            continue
        if engine.may_display(name, kind.object_type):
            out.append(record)
    select = _hooks(kind).select
    return out if select is None else select(engine, p.values, out)


def _actual(kind: Kind, record: NamedObject, pid: int) -> ObjValue | None:
    if pid == kind.name:
        return record.name
    if pid == _NAME_COUNT:
        names = record.attrs.get(_NAMES, ())
        return len(names) if isinstance(names, tuple) else 0
    return record.attrs.get(pid)


def _passes(kind: Kind, record: NamedObject, f: IntegerFilter | StringFilter | None) -> bool:
    if f is None:
        return True
    actual = _actual(kind, record, f.parameter)
    return holds(f, actual)


# Strings this long are IBM's variable-length fields (MQCHARV: a topic string, a subscription's name, selector and user
# data, MQ_TOPIC_STR_LENGTH ... 10240): answered as long as they are, not blank-padded to their maximum (K).
_VARIABLE_LENGTH = 4096


def _parameter(engine: EngineView, attr: Attribute, value: ObjValue) -> Parameter:
    if attr.struct == "MQCFIL":
        assert isinstance(value, tuple)
        return IntegerList(attr.pid, tuple(int(v) for v in value))
    if attr.struct == "MQCFSL":
        assert isinstance(value, tuple)
        return StringList(attr.pid, tuple(str(v).ljust(attr.max_length) for v in value), engine.ccsid)
    if attr.struct == "MQCFBS":
        assert isinstance(value, str)
        return ByteString(attr.pid, byte_value(value, attr.max_length))
    if attr.is_string:
        assert isinstance(value, str)
        return String(attr.pid, value if attr.max_length > _VARIABLE_LENGTH else value.ljust(attr.max_length), engine.ccsid)
    assert isinstance(value, int)
    return Integer(attr.pid, value)


def _name_length(kind: Kind) -> int:
    attr = table(kind).attributes.get(kind.name)
    length = attr.max_length if attr is not None and attr.max_length else 48
    return 0 if length > _VARIABLE_LENGTH else length


def _reported(
    engine: EngineView, kind: Kind, record: NamedObject, values: Values, wanted: Callable[[int], bool] | None = None
) -> list[tuple[Attribute, ObjValue]]:
    """The attributes Inquire reports for ``record`` (``wanted``: those it asks for), in the table's order, as it reports
    them: the kind's derived values (a topic's TYPE), the stored ones, and the defaults of those not stored."""
    report = _hooks(kind).report
    subtype = _subtype_of(kind, record)
    shown = {} if report is None else report(engine, values, record)
    out: list[tuple[Attribute, ObjValue]] = []
    for attr in table(kind).reported_for(subtype):
        if wanted is None or wanted(attr.pid):
            if attr.pid in shown:
                value = shown[attr.pid]
                if value is None:  # not reported for this object
                    continue
            else:
                value = _actual(kind, record, attr.pid)
            out.append((attr, default_of(attr, subtype) if value is None else value))
    return out


def reported(engine: EngineView, kind: Kind, record: NamedObject) -> dict[int, ObjValue]:
    """Every attribute DISPLAY shows for ``record``, by parameter, as it shows them (what the web console lists)."""
    return {attr.pid: value for attr, value in _reported(engine, kind, record, {})}


def inquire(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    selectors = p.values.get(kind.selectors, (_ALL,))
    assert isinstance(selectors, tuple)
    everything = _ALL in selectors
    chosen = frozenset(selectors)
    width = _name_length(kind)
    always = _hooks(kind).always
    out: list[Message] = []
    for record in _matching(engine, kind, p):
        if not _passes(kind, record, p.filter):
            continue
        params: list[Parameter] = [String(kind.name, record.name.ljust(width), engine.ccsid)]
        subtype = _subtype_of(kind, record)
        if kind.subtype:
            params.append(Integer(kind.subtype, subtype))
        wanted = None if everything else lambda pid: pid in chosen or pid in always
        params.extend(_parameter(engine, attr, value) for attr, value in _reported(engine, kind, record, p.values, wanted))
        answer = responses.ok_response(command, tuple(params))
        if answer.version < 2 and any(type(item) is ByteString for item in params):
            answer = replace(answer, version=2)  # a byte string (a SubId) needs MQCFH version 2 (IBM's MQCFBS page)
        out.append(answer)
    if not out:
        raise Reject(kind.unknown_reason)
    return responses.numbered(out)


def inquire_names(engine: EngineView, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    width = _name_length(kind)
    names = [r.name for r in _matching(engine, kind, p, names=True)]
    params = (StringList(kind.names, tuple(n.ljust(width) for n in names), engine.ccsid),)
    return responses.numbered([responses.ok_response(command, params)])
