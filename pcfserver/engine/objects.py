"""Process definitions and namelists: the PCF commands that define, change, delete and inquire them.

Both are named objects with a table of attributes (``formats/process-attributes.tsv``,
``formats/namelist-attributes.tsv``); the commands follow the queue commands' rules (IBM's
Change/Copy/Create, Delete, Inquire and Inquire Names pages for each object):

* Create takes the attributes it does not name from SYSTEM.DEFAULT.PROCESS /
  SYSTEM.DEFAULT.NAMELIST (the table defaults when that object was deleted); an object of that
  name already there is MQRCCF_OBJECT_ALREADY_EXISTS unless Replace is MQRP_YES.
* Copy takes them from the object FromName names (MQRC_UNKNOWN_OBJECT_NAME when there is none).
* Change, Delete and a specific Inquire of an object that is not there: MQRC_UNKNOWN_OBJECT_NAME.
* Inquire and Inquire Names take generic names; an identity sees only what it may display.

The objects live in :class:`Objects` in memory and in the store's ``objects`` table; each change
records its undo and its store operation, so a command applies whole or not at all and commits
in the transaction of its batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerFilter, Message, Parameter, String, StringFilter, StringList
from pcfserver.engine import responses
from pcfserver.engine.filters import OBJECT_NAME, compare, generic_match
from pcfserver.engine.responses import Reject
from pcfserver.engine.spec import Attribute, ObjectSpec, spec
from pcfserver.engine.store import AnyOp, DeleteObject, ObjValue, PutObject, SetMeta, Snapshot

if TYPE_CHECKING:
    from pcfserver.engine.engine import Engine

_ALL = mq.MQIACF_ALL
_REPLACE = mq.MQIACF_REPLACE
_ALT_DATE = mq.MQCA_ALTERATION_DATE
_ALT_TIME = mq.MQCA_ALTERATION_TIME
_NAME_COUNT = mq.MQIA_NAME_COUNT
_NAMES = mq.MQCA_NAMES
_NAME_LENGTH = 48
# The store's metadata key saying the default objects were made (a registry from before they
# existed gets them at its next open, as IBM's upgrade does; deleting one later is respected).
SEEDED_KEY = "default_objects"


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of object: its table, MQOT_* type and the parameters its commands carry."""

    key: str  # process / namelist: formats/<key>-attributes.tsv
    object_type: int
    name: int  # the parameter that names one (MQCA_PROCESS_NAME)
    from_name: int  # Copy's source and target
    to_name: int
    names: int  # Inquire Names' answer (MQCACF_PROCESS_NAMES)
    selectors: int  # Inquire's attribute list (MQIACF_PROCESS_ATTRS)
    default: str  # the default object Create starts from

    @property
    def table(self) -> ObjectSpec:
        return spec().objects[self.key]

    def defaults(self) -> dict[int, ObjValue]:
        """The table's default of each settable attribute (a string list's is empty)."""
        return {a.pid: default_of(a) for a in self.table.stored if a.access == "set"}


def default_of(attr: Attribute) -> ObjValue:
    return () if attr.struct == "MQCFSL" else attr.defaults[0]


PROCESS = Kind(
    "process",
    mq.MQOT_PROCESS,
    mq.MQCA_PROCESS_NAME,
    mq.MQCACF_FROM_PROCESS_NAME,
    mq.MQCACF_TO_PROCESS_NAME,
    mq.MQCACF_PROCESS_NAMES,
    mq.MQIACF_PROCESS_ATTRS,
    "SYSTEM.DEFAULT.PROCESS",
)
NAMELIST = Kind(
    "namelist",
    mq.MQOT_NAMELIST,
    mq.MQCA_NAMELIST_NAME,
    mq.MQCACF_FROM_NAMELIST_NAME,
    mq.MQCACF_TO_NAMELIST_NAME,
    mq.MQCACF_NAMELIST_NAMES,
    mq.MQIACF_NAMELIST_ATTRS,
    "SYSTEM.DEFAULT.NAMELIST",
)
KINDS = (PROCESS, NAMELIST)


@dataclass(frozen=True, slots=True)
class NamedObject:
    """A process or namelist.  Never mutated once registered: a change makes a new record."""

    name: str
    attrs: dict[int, ObjValue]


class Objects:
    """Every process and namelist in memory, by MQOT_* type and name."""

    __slots__ = ("by_type",)

    def __init__(self) -> None:
        self.by_type: dict[int, dict[str, NamedObject]] = {kind.object_type: {} for kind in KINDS}

    def get(self, object_type: int, name: str) -> NamedObject | None:
        table = self.by_type.get(object_type)
        return None if table is None else table.get(name)

    def names(self, object_type: int) -> list[str]:
        return sorted(self.by_type[object_type])


class Parsed(Protocol):
    values: dict[int, object]
    attrs: dict[int, int | str]
    filter: IntegerFilter | StringFilter | None


Handler = Callable[[Message, Parsed], list[Message]]


def handlers(engine: Engine) -> dict[int, Handler]:
    """The twelve commands (six per kind), for Engine's handler table."""
    out: dict[int, Handler] = {}
    for kind in KINDS:
        word = kind.key.upper()
        for verb, function in (
            ("CREATE", create),
            ("COPY", copy),
            ("CHANGE", change),
            ("DELETE", delete),
            ("INQUIRE", inquire),
        ):
            out[getattr(mq, f"MQCMD_{verb}_{word}")] = partial(function, engine, kind)
        out[getattr(mq, f"MQCMD_INQUIRE_{word}_NAMES")] = partial(inquire_names, engine, kind)
    return out


# ---------------------------------------------------------------------------------- setup


def _stamp(engine: Engine, attrs: dict[int, ObjValue]) -> dict[int, ObjValue]:
    date, clock = engine.now()
    attrs[_ALT_DATE] = date
    attrs[_ALT_TIME] = clock
    return attrs


def seed(engine: Engine) -> list[AnyOp]:
    """IBM's default objects, SYSTEM.DEFAULT.PROCESS and SYSTEM.DEFAULT.NAMELIST, with the tables' defaults."""
    ops: list[AnyOp] = []
    for kind in KINDS:
        attrs = _stamp(engine, kind.defaults())
        engine.objects.by_type[kind.object_type][kind.default] = NamedObject(kind.default, attrs)
        ops.append(PutObject(kind.object_type, kind.default, tuple(attrs.items())))
    ops.append(SetMeta(((SEEDED_KEY, "1"),)))
    return ops


def load(engine: Engine, snapshot: Snapshot) -> bool:
    """The stored objects into memory; whether the default objects are still to be made (an older registry)."""
    for (object_type, name), attrs in snapshot.objects.items():
        kind = next((k for k in KINDS if k.object_type == object_type), None)
        if kind is None:
            continue
        # Attributes added to the table after the object was written take their defaults.
        complete = {a.pid: attrs.get(a.pid, default_of(a)) for a in kind.table.stored}
        engine.objects.by_type[object_type][name] = NamedObject(name, complete)
    return SEEDED_KEY not in snapshot.meta


# ---------------------------------------------------------------------------------- changes


def _put(engine: Engine, kind: Kind, name: str, record: NamedObject | None) -> None:
    """Makes ``record`` the object called ``name`` (None deletes it): in memory now, undoable, and as a store op."""
    table = engine.objects.by_type[kind.object_type]
    old = table.get(name)
    if record is None:
        table.pop(name, None)
        engine.record_op(DeleteObject(kind.object_type, name))
    else:
        table[name] = record
        engine.record_op(PutObject(kind.object_type, name, tuple(record.attrs.items())))

    def undo() -> None:
        if old is None:
            table.pop(name, None)
        else:
            table[name] = old

    engine.record_undo(undo)


def _names_value(attr: Attribute, values: object) -> tuple[str, ...]:
    """A namelist's Names: at most MQNC_MAX_NAMELIST_NAME_COUNT, each following the object naming rules."""
    assert isinstance(values, tuple)
    if len(values) > mq.MQNC_MAX_NAMELIST_NAME_COUNT:
        raise Reject(mq.MQRCCF_CFSL_COUNT_ERROR, attr.pid)
    for value in values:
        if not isinstance(value, str) or not OBJECT_NAME.match(value):
            raise Reject(attr.value_reason, attr.pid)
    return tuple(str(v) for v in values)


def _given(kind: Kind, p: Parsed) -> dict[int, ObjValue]:
    """The attributes a command sets (the engine checked each; string lists are checked here)."""
    given: dict[int, ObjValue] = dict(p.attrs)
    for attr in kind.table.stored:
        if attr.struct == "MQCFSL" and attr.pid in p.values:
            given[attr.pid] = _names_value(attr, p.values[attr.pid])
    return given


def _name(p: Parsed, pid: int) -> str:
    name = p.values[pid]
    assert isinstance(name, str)
    return name


def _defaults(engine: Engine, kind: Kind) -> dict[int, ObjValue]:
    """A new object's starting attributes: those of the default object (the table's when it is gone)."""
    default = engine.objects.get(kind.object_type, kind.default)
    return dict(default.attrs) if default is not None else kind.defaults()


def _define(engine: Engine, kind: Kind, command: Message, p: Parsed, name: str, base: dict[int, ObjValue]) -> list[Message]:
    if engine.objects.get(kind.object_type, name) is not None and p.values.get(_REPLACE) != mq.MQRP_YES:
        raise Reject(mq.MQRCCF_OBJECT_ALREADY_EXISTS)
    base.update(_given(kind, p))
    _put(engine, kind, name, NamedObject(name, _stamp(engine, base)))
    return responses.success(command)


def create(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    return _define(engine, kind, command, p, _name(p, kind.name), _defaults(engine, kind))


def copy(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    source = engine.objects.get(kind.object_type, _name(p, kind.from_name))
    if source is None:
        raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
    return _define(engine, kind, command, p, _name(p, kind.to_name), dict(source.attrs))


def _existing(engine: Engine, kind: Kind, p: Parsed) -> NamedObject:
    record = engine.objects.get(kind.object_type, _name(p, kind.name))
    if record is None:
        raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
    return record


def change(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    record = _existing(engine, kind, p)
    attrs = {**record.attrs, **_given(kind, p)}
    _put(engine, kind, record.name, NamedObject(record.name, _stamp(engine, attrs)))
    return responses.success(command)


def delete(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    record = _existing(engine, kind, p)
    _put(engine, kind, record.name, None)
    return responses.success(command)


# ---------------------------------------------------------------------------------- inquiries


def _matching(engine: Engine, kind: Kind, pattern: str) -> list[str]:
    """The names a (generic) name selects that the identity may display, in order."""
    names = [n for n in engine.objects.names(kind.object_type) if generic_match(pattern, n)]
    return [n for n in names if engine.may_display(n, kind.object_type)]


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
    return isinstance(actual, (int, str)) and compare(f.operator, actual, f.value)


def _parameter(engine: Engine, attr: Attribute, value: ObjValue) -> Parameter:
    if attr.struct == "MQCFSL":
        assert isinstance(value, tuple)
        return StringList(attr.pid, tuple(v.ljust(attr.max_length) for v in value), engine.ccsid)
    if attr.is_string:
        assert isinstance(value, str)
        return String(attr.pid, value.ljust(attr.max_length), engine.ccsid)
    assert isinstance(value, int)
    return Integer(attr.pid, value)


def inquire(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    selectors = p.values.get(kind.selectors, (_ALL,))
    assert isinstance(selectors, tuple)
    everything = _ALL in selectors
    chosen = frozenset(selectors)
    out: list[Message] = []
    for name in _matching(engine, kind, _name(p, kind.name)):
        record = engine.objects.by_type[kind.object_type][name]
        if not _passes(kind, record, p.filter):
            continue
        params: list[Parameter] = [String(kind.name, name.ljust(_NAME_LENGTH), engine.ccsid)]
        for attr in kind.table.reported:
            if everything or attr.pid in chosen:
                value = _actual(kind, record, attr.pid)
                params.append(_parameter(engine, attr, default_of(attr) if value is None else value))
        out.append(responses.ok_response(command, tuple(params)))
    if not out:
        raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
    return responses.numbered(out)


def inquire_names(engine: Engine, kind: Kind, command: Message, p: Parsed) -> list[Message]:
    names = _matching(engine, kind, _name(p, kind.name))
    params = (StringList(kind.names, tuple(n.ljust(_NAME_LENGTH) for n in names), engine.ccsid),)
    return responses.numbered([responses.ok_response(command, params)])
