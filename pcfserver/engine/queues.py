"""Queues: their definitions and the queue commands (Create, Copy, Change, Delete, Clear, Inquire, Inquire Names).

Queues are the one kind that is not a row of formats/kinds.tsv: their types (QType) each have a default
object and attributes of their own (formats/queue-attributes.tsv), local queues hold messages (the message
layer decides whether a queue is open or holds any, which Force, Purge and Clear depend on), and the engine's
hottest path runs through them, so this module keeps its own dictionary of :class:`Queue` records and its own
commands.  It changes nothing except through the transaction (:mod:`pcfserver.engine.transaction`), like every
other room, and sees the engine only through :class:`QueueContext`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter, StringList
from pcfserver.codec.model import new_integer as _new_integer
from pcfserver.codec.model import new_string as _new_string
from pcfserver.engine import responses
from pcfserver.engine.filters import compare, generic_match
from pcfserver.engine.objects import QUEUE_KIND, DefaultRow, default_rows, overrides
from pcfserver.engine.registry import NamedObject, Queue
from pcfserver.engine.responses import Reject
from pcfserver.engine.spec import Attribute, AttrValue, Spec, default_object_name
from pcfserver.engine.store import DeleteQueue, Op, PutQueue, SetAttrs
from pcfserver.engine.transaction import Transaction

if TYPE_CHECKING:  # types only: the message layer does not import this module
    from pcfserver.engine.messaging import MessageLayer

_Q_NAME = mq.MQCA_Q_NAME
_Q_TYPE = mq.MQIA_Q_TYPE
_FROM_Q_NAME = mq.MQCACF_FROM_Q_NAME
_TO_Q_NAME = mq.MQCACF_TO_Q_NAME
_REPLACE = mq.MQIACF_REPLACE
_FORCE = mq.MQIACF_FORCE
_PURGE = mq.MQIACF_PURGE
_ALL = mq.MQIACF_ALL
_QT_LOCAL = mq.MQQT_LOCAL
_QT_ALIAS = mq.MQQT_ALIAS
_QT_REMOTE = mq.MQQT_REMOTE
_QT_ALL = mq.MQQT_ALL
_YES = 1  # MQRP_YES, MQFC_YES, MQPO_YES are all 1
_ALT_DATE = mq.MQCA_ALTERATION_DATE
_ALT_TIME = mq.MQCA_ALTERATION_TIME
_CRT_DATE = mq.MQCA_CREATION_DATE
_CRT_TIME = mq.MQCA_CREATION_TIME
_CLUSTER_NAME = mq.MQCA_CLUSTER_NAME
_CLUSTER_NAMELIST = mq.MQCA_CLUSTER_NAMELIST
_USAGE = mq.MQIA_USAGE
_SCOPE = mq.MQIA_SCOPE
_SHAREABILITY = mq.MQIA_SHAREABILITY
_BASE_OBJECT = mq.MQCA_BASE_OBJECT_NAME
_XMIT_Q = mq.MQCA_XMIT_Q_NAME
_REMOTE_Q = mq.MQCA_REMOTE_Q_NAME
_REMOTE_QMGR = mq.MQCA_REMOTE_Q_MGR_NAME
_NAME_LENGTH = mq.MQ_Q_NAME_LENGTH
_CLUS_CHL_NAME = mq.MQCA_CLUS_CHL_NAME
_CHECKED_TOGETHER = frozenset((_CLUSTER_NAME, _CLUSTER_NAMELIST, _USAGE, _SCOPE, _CLUS_CHL_NAME))
# Runtime status reported by Inquire Queue (kept by the message layer, not in the store).
_STATUS_SLOT = {mq.MQIA_CURRENT_Q_DEPTH: 0, mq.MQIA_OPEN_INPUT_COUNT: 1, mq.MQIA_OPEN_OUTPUT_COUNT: 2}
# Queues that cannot be cluster queues (S8, MQRCCF_CLUSTER_Q_USAGE_ERROR 3090).
_NOT_CLUSTERABLE = frozenset(
    (
        "SYSTEM.CHANNEL.INITQ",
        "SYSTEM.CHANNEL.SYNCQ",
        "SYSTEM.CLUSTER.COMMAND.QUEUE",
        "SYSTEM.CLUSTER.REPOSITORY.QUEUE",
        "SYSTEM.COMMAND.INPUT",
        "SYSTEM.QSG.CHANNEL.SYNCQ",
        "SYSTEM.QSG.TRANSMIT.QUEUE",
    )
)


class Parsed(Protocol):
    """A command's checked parameters (the engine's parse)."""

    values: dict[int, object]
    attrs: dict[int, AttrValue]
    filter: IntegerFilter | StringFilter | None
    qtype: int


class Objects(Protocol):
    def get(self, object_type: int, name: str) -> NamedObject | None: ...


class QueueContext(Protocol):
    """What the queue commands need of the queue manager."""

    @property
    def transaction(self) -> Transaction: ...

    @property
    def messaging(self) -> MessageLayer: ...

    @property
    def objects(self) -> Objects: ...

    @property
    def ccsid(self) -> int: ...

    def now(self) -> tuple[str, str]: ...

    def ok(self, command: Message) -> list[Message]: ...

    def may_display(self, name: str, object_type: int = ...) -> bool: ...

    def remove_object_records(self, name: str, object_type: int, values: dict[int, object]) -> None: ...


class Queues:
    """Every queue definition, by name, and the queue commands."""

    __slots__ = ("_engine", "_spec", "_tx", "by_name", "table_defaults")

    def __init__(self, engine: QueueContext, spec: Spec) -> None:
        self._engine = engine
        self._tx = engine.transaction  # one object for the engine's life (each batch empties it)
        self._spec = spec
        self.by_name: dict[str, Queue] = {}
        # Per queue type, the table's default of each settable attribute (a new queue manager's default objects).
        self.table_defaults: dict[int, dict[int, AttrValue]] = {
            qtype: {a.pid: a.defaults[qtype] for a in attrs if a.access == "set"} for qtype, attrs in spec.stored.items()
        }

    def seed(self, rows: Iterable[DefaultRow]) -> list[Op]:
        """IBM's default queues of ``rows`` (formats/default-objects.tsv): a SYSTEM.DEFAULT.<type>.QUEUE row starts from
        the table's defaults, any other queue from its type's default row, each with its row's overrides.  A queue of
        that name already there (one the user defined) is left as it is."""
        bases = self._row_bases()
        ops: list[Op] = []
        for row in rows:
            if row.name in self.by_name:
                continue
            qtype = row.subtype
            if row.name == default_object_name(qtype):
                attrs = dict(bases[qtype])
            else:
                attrs = {**bases[qtype], **self._overrides(row)}
            attrs = self.new_attrs(qtype, attrs, None)
            self.by_name[row.name] = Queue(row.name, qtype, attrs)
            ops.append(PutQueue(row.name, qtype, attrs))
        return ops

    def _row_bases(self) -> dict[int, dict[int, AttrValue]]:
        """Per queue type, the attributes its default object is made with (table defaults and its row's overrides)."""
        bases = {qtype: dict(values) for qtype, values in self.table_defaults.items()}
        for row in default_rows():
            if row.kind == QUEUE_KIND and row.name == default_object_name(row.subtype):
                bases[row.subtype].update(self._overrides(row))
        return bases

    def _overrides(self, row: DefaultRow) -> dict[int, AttrValue]:
        settable = {a.pid: a for a in self._spec.stored[row.subtype] if a.access == "set"}
        given = overrides(row.attributes, settable, f"queue {row.name}")
        out: dict[int, AttrValue] = {}
        for pid, value in given.items():
            assert isinstance(value, int | str)  # queues hold no string lists
            out[pid] = value
        return out

    def names(self) -> list[str]:
        return sorted(self.by_name)

    def publish(self, name: str, record: Queue | None, op: Op) -> None:
        """Makes ``record`` the queue called ``name`` (None deletes it), with undo and store op."""
        self._publish(name, record, op)

    def _publish(self, name: str, record: Queue | None, op: Op) -> None:
        """Makes ``record`` the queue called ``name`` (None deletes it), with undo and store op."""
        queues = self.by_name
        tx = self._tx
        tx.undo.append((self._restore_queue, name, queues.get(name)))
        if record is None:
            del queues[name]
            self._engine.messaging.dropped(name)
        else:
            queues[name] = record
        tx.ops.append(op)

    def _restore_queue(self, name: object, old: object) -> None:
        assert isinstance(name, str)
        if old is None:
            self.by_name.pop(name, None)
        else:
            assert isinstance(old, Queue)
            self.by_name[name] = old

    def new_attrs(self, qtype: int, attrs: dict[int, AttrValue], existing: Queue | None) -> dict[int, AttrValue]:
        """Stamps alteration (and, for a new local queue, creation) date and time."""
        date, clock = self._engine.now()
        attrs[_ALT_DATE] = date
        attrs[_ALT_TIME] = clock
        if qtype == _QT_LOCAL:
            if existing is not None and _CRT_DATE in existing.attrs:
                attrs[_CRT_DATE] = existing.attrs[_CRT_DATE]
                attrs[_CRT_TIME] = existing.attrs[_CRT_TIME]
            else:
                attrs[_CRT_DATE] = date
                attrs[_CRT_TIME] = clock
        return attrs

    def _defaults(self, qtype: int) -> dict[int, AttrValue]:
        """A new queue's starting attributes: those of its type's default object (as MQ does)."""
        default = self.by_name.get(default_object_name(qtype))
        if default is not None and default.qtype == qtype:
            return dict(default.attrs)
        return dict(self.table_defaults[qtype])  # the default object was deleted: table defaults

    def _check_combination(self, name: str, attrs: dict[int, AttrValue]) -> None:
        """Rules on the resulting attribute set (S5, S8, S11; formats/queue-attributes.tsv notes)."""
        cluster = attrs.get(_CLUSTER_NAME, "")
        namelist = attrs.get(_CLUSTER_NAMELIST, "")
        if cluster and namelist:
            raise Reject(mq.MQRCCF_CLUSTER_NAME_CONFLICT)
        if (cluster or namelist) and (attrs.get(_USAGE) == mq.MQUS_TRANSMISSION or name in _NOT_CLUSTERABLE):
            raise Reject(mq.MQRCCF_CLUSTER_Q_USAGE_ERROR)
        if attrs.get(_CLUS_CHL_NAME) and attrs.get(_USAGE) != mq.MQUS_TRANSMISSION:
            # IBM: "If the local queue attribute CLCHNAME is set, the attribute USAGE must be set to XMITQ".
            raise Reject(mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR)
        if isinstance(namelist, str) and namelist:
            # A namelist of clusters that is empty: MQRCCF_NAMELIST_ERROR (S8); one not defined yet is accepted (K).
            found = self._engine.objects.get(mq.MQOT_NAMELIST, namelist)
            if found is not None and not found.attrs.get(mq.MQCA_NAMES):
                raise Reject(mq.MQRCCF_NAMELIST_ERROR, _CLUSTER_NAMELIST)
        if attrs.get(_SCOPE) == mq.MQSCO_CELL:
            # No name service with a cell directory is configured here (S8 4068).
            raise Reject(mq.MQRCCF_CELL_DIR_NOT_AVAILABLE, _SCOPE)

    def _needs_force(self, record: Queue, given: dict[int, AttrValue]) -> bool:
        """Whether the change would affect an open (or non-empty) queue (S10 Force, S11)."""
        depth, opened_in, opened_out = self._engine.messaging.status(record.name)
        opened = opened_in + opened_out
        qtype = record.qtype
        if qtype == _QT_LOCAL:
            if given.get(_SHAREABILITY) == mq.MQQA_NOT_SHAREABLE and opened_in > 1:
                return True
            return _USAGE in given and given[_USAGE] != record.attrs.get(_USAGE) and (opened > 0 or depth > 0)
        if qtype == _QT_ALIAS:
            return _BASE_OBJECT in given and opened > 0
        if qtype == _QT_REMOTE:
            return opened > 0 and (_XMIT_Q in given or _REMOTE_Q in given or _REMOTE_QMGR in given)
        return False

    def _define(self, command: Message, name: str, qtype: int, attrs: dict[int, AttrValue], existing: Queue | None) -> list[Message]:
        """Create, Copy and Create/Copy with Replace: ``attrs`` (base + overrides) becomes the queue."""
        self._check_combination(name, attrs)
        if existing is not None and self._needs_force(existing, attrs):
            # Replace cannot force: the change would need Force on Change Queue (S10 Replace).
            raise Reject(mq.MQRCCF_OBJECT_OPEN)
        attrs = self.new_attrs(qtype, attrs, existing)
        self._publish(name, Queue(name, qtype, attrs), PutQueue(name, qtype, attrs))
        return self._engine.ok(command)

    def _replaced(self, name: str, qtype: int, p: Parsed) -> Queue | None:
        """The queue Create or Copy would replace: another type is MQRCCF_OBJECT_WRONG_TYPE, without Replace
        MQRCCF_OBJECT_ALREADY_EXISTS."""
        existing = self.by_name.get(name)
        if existing is not None:
            if existing.qtype != qtype:
                raise Reject(mq.MQRCCF_OBJECT_WRONG_TYPE)
            if p.values.get(_REPLACE) != _YES:
                raise Reject(mq.MQRCCF_OBJECT_ALREADY_EXISTS)
        return existing

    def create(self, command: Message, p: Parsed) -> list[Message]:
        name = p.values[_Q_NAME]
        assert isinstance(name, str)
        qtype = p.qtype
        existing = self._replaced(name, qtype, p)
        attrs = self._defaults(qtype)
        attrs.update(p.attrs)
        return self._define(command, name, qtype, attrs, existing)

    def copy(self, command: Message, p: Parsed) -> list[Message]:
        source_name = p.values[_FROM_Q_NAME]
        name = p.values[_TO_Q_NAME]
        assert isinstance(source_name, str) and isinstance(name, str)
        qtype = p.qtype
        source = self.by_name.get(source_name)
        if source is None:
            raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
        if source.qtype != qtype:
            raise Reject(mq.MQRCCF_LIKE_OBJECT_WRONG_TYPE)
        existing = self._replaced(name, qtype, p)
        attrs = dict(source.attrs)
        attrs.update(p.attrs)
        return self._define(command, name, qtype, attrs, existing)

    def _named_queue(self, p: Parsed) -> tuple[str, Queue]:
        """The queue a command's QName names; MQRC_UNKNOWN_OBJECT_NAME when there is none."""
        name = p.values[_Q_NAME]
        assert isinstance(name, str)
        record = self.by_name.get(name)
        if record is None:
            raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
        return name, record

    def change(self, command: Message, p: Parsed) -> list[Message]:
        name, record = self._named_queue(p)
        if record.qtype != p.qtype:
            raise Reject(mq.MQRCCF_OBJECT_WRONG_TYPE)
        given = p.attrs
        attrs = dict(record.attrs)
        attrs.update(given)
        if not _CHECKED_TOGETHER.isdisjoint(given):
            self._check_combination(name, attrs)
        if p.values.get(_FORCE) != _YES and self._needs_force(record, given):
            raise Reject(mq.MQRCCF_OBJECT_OPEN_FORCE)
        date, clock = self._engine.now()
        attrs[_ALT_DATE] = date
        attrs[_ALT_TIME] = clock
        items = (*given.items(), (_ALT_DATE, date), (_ALT_TIME, clock))
        self._publish(name, Queue(name, record.qtype, attrs), SetAttrs(name, items))
        return self._engine.ok(command)

    def delete(self, command: Message, p: Parsed) -> list[Message]:
        name, record = self._named_queue(p)
        wanted = p.values.get(_Q_TYPE)
        if wanted is not None and wanted != record.qtype:
            raise Reject(mq.MQRCCF_OBJECT_WRONG_TYPE)
        # Delete Queue (command-semantics §6): an open queue cannot go; uncommitted messages always
        # block it; committed ones need Purge, which deletes them with the queue.
        layer = self._engine.messaging
        depth, opened_in, opened_out = layer.status(name)
        if opened_in or opened_out:
            raise Reject(mq.MQRCCF_OBJECT_OPEN)
        if record.qtype == _QT_LOCAL:
            if layer.uncommitted(name) or (depth and p.values.get(_PURGE) != _YES):
                raise Reject(mq.MQRC_Q_NOT_EMPTY)
            if depth:
                layer.clear(name)
        self._engine.remove_object_records(name, mq.MQOT_Q, p.values)
        self._publish(name, None, DeleteQueue(name))
        return self._engine.ok(command)

    def clear(self, command: Message, p: Parsed) -> list[Message]:
        name, record = self._named_queue(p)
        if record.qtype != _QT_LOCAL:
            raise Reject(mq.MQRCCF_Q_WRONG_TYPE)
        # Clear Queue (command-semantics §7): not while open, not with uncommitted messages.
        layer = self._engine.messaging
        depth, opened_in, opened_out = layer.status(name)
        if opened_in or opened_out:
            raise Reject(mq.MQRCCF_OBJECT_OPEN)
        if layer.uncommitted(name):
            raise Reject(mq.MQRC_Q_NOT_EMPTY)
        if depth:
            layer.clear(name)
        return self._engine.ok(command)

    def _string(self, pid: int, value: str, length: int) -> String:
        return String(pid, value.ljust(length), self._engine.ccsid)

    def _value(self, attr: Attribute, value: AttrValue) -> Parameter:
        return parameter_of(attr, value, self._engine.ccsid)

    def _matches(self, p: Parsed, record: Queue) -> bool:
        for pid in (_CLUSTER_NAME, _CLUSTER_NAMELIST):
            pattern = p.values.get(pid)
            if pattern is not None:
                assert isinstance(pattern, str)
                value = record.attrs.get(pid)
                if not isinstance(value, str) or not generic_match(pattern, value):
                    return False
        f = p.filter
        if f is None:
            return True
        attr = self._spec.queue_attributes[f.parameter]
        if f.parameter == _Q_TYPE:
            actual: AttrValue | None = record.qtype
        elif f.parameter == _Q_NAME:
            actual = record.name
        elif record.qtype not in attr.applies:
            return False
        elif f.parameter in _STATUS_SLOT:
            actual = self._engine.messaging.status(record.name)[_STATUS_SLOT[f.parameter]]
        else:
            actual = record.attrs.get(f.parameter)
        if actual is None:
            return False
        return compare(f.operator, actual, f.value)

    def inquire(self, command: Message, p: Parsed) -> list[Message]:
        pattern = p.values[_Q_NAME]
        assert isinstance(pattern, str)
        wanted = p.values.get(_Q_TYPE, _QT_ALL)
        if pattern.endswith("*"):
            prefix = pattern[:-1]
            names = sorted(n for n in self.by_name if n.startswith(prefix))
        else:
            names = [pattern] if pattern in self.by_name else []
        selectors = p.values.get(mq.MQIACF_Q_ATTRS, (_ALL,))
        assert isinstance(selectors, tuple)
        everything = _ALL in selectors
        chosen = frozenset(selectors)
        reported = self._spec.reported
        out: list[Message] = []
        for name in names:
            record = self.by_name[name]
            if wanted != _QT_ALL and record.qtype != wanted:
                continue
            if not self._engine.may_display(name) or not self._matches(p, record):
                continue
            params: list[Parameter] = [self._string(_Q_NAME, name, _NAME_LENGTH), Integer(_Q_TYPE, record.qtype)]
            attrs = record.attrs
            status = self._engine.messaging.status(name)
            for attr in reported[record.qtype]:
                pid = attr.pid
                if not everything and pid not in chosen:
                    continue
                slot = _STATUS_SLOT.get(pid)
                if slot is not None:
                    params.append(Integer(pid, status[slot]))
                else:
                    params.append(self._value(attr, attrs[pid]))
            out.append(responses.ok_response(command, tuple(params)))
        if not out:
            raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
        return responses.numbered(out)

    def inquire_names(self, command: Message, p: Parsed) -> list[Message]:
        pattern = p.values[_Q_NAME]
        assert isinstance(pattern, str)
        wanted = p.values.get(_Q_TYPE, _QT_ALL)
        queues = self.by_name
        if pattern.endswith("*"):
            prefix = pattern[:-1]
            names = sorted(n for n in queues if n.startswith(prefix))
        else:
            names = [pattern] if pattern in queues else []
        if wanted != _QT_ALL:
            names = [n for n in names if queues[n].qtype == wanted]
        names = [n for n in names if self._engine.may_display(n)]
        params: tuple[Parameter, ...] = (
            StringList(mq.MQCACF_Q_NAMES, tuple(n.ljust(_NAME_LENGTH) for n in names), self._engine.ccsid),
            IntegerList(mq.MQIACF_Q_TYPES, tuple(queues[n].qtype for n in names)),
        )
        return responses.numbered([responses.ok_response(command, params)])



def parameter_of(attr: Attribute, value: AttrValue, ccsid: int) -> Parameter:
    """A queue or queue manager attribute's value as a response parameter (strings blank-padded to their length).

    Built with the codec's positional builders: an inquiry of every attribute of thousands of queues makes hundreds
    of thousands of them, and the dataclass's own __init__ took most of its time."""
    if attr.is_string:
        assert isinstance(value, str)
        return _new_string(attr.pid, value.ljust(attr.max_length), ccsid, None)
    assert isinstance(value, int)
    return _new_integer(attr.pid, value)

