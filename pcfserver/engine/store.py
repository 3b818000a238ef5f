"""Where the registry lives between runs: SQLite in the data directory, or nothing (in memory).

The engine keeps the whole registry in memory and hands the store a list of row operations per
transaction; :meth:`SqliteStore.commit` writes them in one SQLite transaction and returns only
once they are durable.

Durability: the database runs in WAL mode.  SQLite appends each transaction to the write-ahead log
(``synchronous=NORMAL``: without waiting for the disk), and :mod:`pcfserver.engine.wal` fdatasyncs the
log before :meth:`SqliteStore.commit` returns, as ``synchronous=FULL`` would inside COMMIT: a
transaction whose commit returned survives a process crash *and* a power loss; a crash before that
point leaves the previous state (the partial WAL frames fail their checksums and are ignored on
recovery).  :meth:`SqliteStore.commit_owing` returns before that sync and leaves it owed
(:meth:`SqliteStore.settle`): a listener answering a lone client settles it just before its answer
goes out, having built the answer while the disk wrote.

Journal: a commit writes one row, its operations as plain data (lists, tuples, ints and
strings, pickled: eight times faster than JSON here, and read back by an unpickler that refuses
every global, so a row can build nothing else), to ``journal``; the tables of
queues and attributes take those operations in bulk once enough have gathered ("folding", in
the same transaction that empties the journal), and at every open.  A busy registry changes
the same few queues over and over, so folding writes each attribute once for many commands:
at 30 commands per commit, a commit costs a tenth of the row writes it used to.

Authority records, process definitions, namelists and channel authentication records (``authrecs``,
``objects``, ``chlauth``) are written straight to their tables in the commit's transaction: they
change rarely, so a journal would buy nothing.

Messages go straight to their tables too: one row each in ``messages``, or, when a commit stores many persistent
messages at once (a unit of work, a MOVE), one row of ``batches`` for all of them (:mod:`pcfserver.engine.store_batches`).

Schema versions: ``meta.schema_version`` records the layout; ``MIGRATIONS[v]`` moves a database
from version v to v+1 inside the opening transaction, so an upgrade also applies whole or not at
all.  A database newer than this code is refused.
"""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, cast

from pcfserver.codec.decoder import decode
from pcfserver.codec.encoder import encode
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.engine.store_batches import HEAD_BY_COLUMN as _HEAD_BY_COLUMN
from pcfserver.engine.store_batches import MIGRATION as _BATCHES_MIGRATION
from pcfserver.engine.store_batches import ROWS_PER_INSERT, Batches, MdRecord, MessageRow, insert_many, load_plain
from pcfserver.engine.wal import WalSync, presize_wal

AttrValue = int | str
# An object's attribute: an integer, a string, or a list of either (a namelist's Names, a channel's COMPHDR).
ObjValue = int | str | tuple[str, ...] | tuple[int, ...]

DB_NAME = "registry.sqlite3"
SCHEMA_VERSION = 10

# MIGRATIONS[v] takes the schema from version v to v + 1.  Version 0 is an empty file.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    0: (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE queues (name TEXT PRIMARY KEY, qtype INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE TABLE queue_attrs (name TEXT NOT NULL, param INTEGER NOT NULL, value NOT NULL,"
        " PRIMARY KEY (name, param)) WITHOUT ROWID",
        "CREATE TABLE qmgr_attrs (param INTEGER PRIMARY KEY, value NOT NULL)",
    ),
    1: ("CREATE TABLE journal (seq INTEGER PRIMARY KEY, ops BLOB NOT NULL)",),
    # Messages: committed persistent ones, and at a clean close the non-persistent ones of
    # NPMCLASS(HIGH) queues (np = 1), which the next open reads and deletes.  ``md`` is the
    # descriptor as plain data (see StoredMessage.record), ``level`` the delivery level fixed on arrival.
    2: (
        "CREATE TABLE messages (seq INTEGER PRIMARY KEY, queue TEXT NOT NULL, level INTEGER NOT NULL,"
        " md BLOB NOT NULL, body BLOB NOT NULL, np INTEGER NOT NULL DEFAULT 0)",
        "CREATE INDEX messages_queue ON messages (queue)",
    ),
    # Authority records: one row per (profile, object type, entity type, entity), its MQAUTH_* values.
    3: (
        "CREATE TABLE authrecs (profile TEXT NOT NULL, objtype INTEGER NOT NULL, etype INTEGER NOT NULL, entity TEXT NOT NULL,"
        " auths TEXT NOT NULL, PRIMARY KEY (profile, objtype, etype, entity)) WITHOUT ROWID",
    ),
    # Process definitions and namelists: one row per object (MQOT_* type, name), its attributes as a
    # JSON list of [parameter, value] pairs (a namelist's Names is a list of strings).
    4: ("CREATE TABLE objects (objtype INTEGER NOT NULL, name TEXT NOT NULL, attrs TEXT NOT NULL, PRIMARY KEY (objtype, name)) WITHOUT ROWID",),
    # Channel authentication records: one row per (channel profile, MQCAUT_* type, the fields that tell records of
    # that type apart), its attributes as a JSON list of [parameter, value] pairs (pcfserver/engine/chlauth.py).
    5: ("CREATE TABLE chlauth (profile TEXT NOT NULL, type INTEGER NOT NULL, key TEXT NOT NULL, attrs TEXT NOT NULL, PRIMARY KEY (profile, type, key)) WITHOUT ROWID",),
    # The change history (pcfserver/engine/audit.py): one row per change, written in the change's own transaction;
    # ``entry`` is the command and what it replaced, as plain data (pickled, read back without globals).
    6: ("CREATE TABLE history (seq INTEGER PRIMARY KEY, at REAL NOT NULL, user TEXT NOT NULL, via TEXT NOT NULL, target TEXT NOT NULL,"
        " entry BLOB NOT NULL)",),
    # The index of messages by queue goes: every put and get paid for it (a third of SQLite's time for a message
    # committed on its own), and only Clear Queue used it; a clear now deletes its queue's messages by number.
    7: ("DROP INDEX IF EXISTS messages_queue",),
    # A commit of many persistent messages writes them many to a row (pcfserver/engine/store_batches.py).
    8: _BATCHES_MIGRATION,
    # Batch heads by column (store_batches.py): older rows stay readable, an older program refuses the database.
    9: _HEAD_BY_COLUMN,
}

# Attribute values gathered in the journal before they are folded into the tables.  A fold
# writes each attribute the journal touched once, so its cost follows the number of distinct
# attributes, not of values: folding less often makes it cheaper per command.  Opening a data
# directory replays at most this many values (about 1.5 MB of journal, well under a second).
FOLD_VALUES = 65536


# Row operations, produced by the engine and applied in order within one transaction.
@dataclass(frozen=True, slots=True)
class PutQueue:
    """A queue defined or redefined: all its attributes replace whatever was stored."""

    name: str
    qtype: int
    attrs: dict[int, AttrValue]


@dataclass(frozen=True, slots=True)
class SetAttrs:
    """Some attributes of an existing queue changed (only those rows are written)."""

    name: str
    items: tuple[tuple[int, AttrValue], ...]


@dataclass(frozen=True, slots=True)
class DeleteQueue:
    name: str


@dataclass(frozen=True, slots=True)
class SetQmgr:
    items: tuple[tuple[int, AttrValue], ...]


@dataclass(frozen=True, slots=True)
class SetMeta:
    items: tuple[tuple[str, str], ...]


# Message operations: written straight to the messages table in the commit's transaction (never
# through the journal: bodies can be large and a message usually lives for one commit or two).
# Not frozen, though nothing changes them once made: a frozen dataclass sets each field through
# object.__setattr__, 1.6 us a PutMessage against 0.4 us, and a commit of a unit of work makes one
# per message.
@dataclass(slots=True)
class PutMessage:
    seq: int
    queue: str
    level: int
    md: MdRecord
    body: bytes
    np: bool = False


@dataclass(slots=True)
class DeleteMessage:
    seq: int


@dataclass(slots=True)
class PutMessages:
    """Many PutMessage at once, as rows (a committed unit of work's puts): one operation for the
    batch instead of one object per message, which cost a third of a commit's Python time."""

    rows: list[MessageRow]


@dataclass(slots=True)
class DeleteMessages:
    """Many DeleteMessage at once (a committed unit of work's gets)."""

    seqs: list[int]


@dataclass(slots=True)
class UpdateMessage:
    """A stored message's descriptor changed (its BackoutCount after a backout)."""

    seq: int
    md: MdRecord


@dataclass(slots=True)
class ClearMessages:
    """Every stored message of a queue goes (Clear Queue, Delete Queue with Purge): ``seqs`` names them
    (the messages table has no index by queue)."""

    queue: str
    seqs: list[int]


@dataclass(frozen=True, slots=True)
class SetAuthRec:
    """An authority record set to ``auths`` (deleted when empty); written straight to its table."""

    profile: str
    objtype: int
    etype: int
    entity: str
    auths: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PutObject:
    """A process or namelist defined, redefined or changed: all its attributes; written straight to its table."""

    objtype: int
    name: str
    attrs: tuple[tuple[int, ObjValue], ...]


@dataclass(frozen=True, slots=True)
class DeleteObject:
    objtype: int
    name: str


@dataclass(frozen=True, slots=True)
class PutChlauth:
    """A channel authentication record set (added or replaced): all its attributes; written straight to its table."""

    profile: str
    type: int
    key: str
    attrs: tuple[tuple[int, ObjValue], ...]


@dataclass(frozen=True, slots=True)
class DeleteChlauth:
    profile: str
    type: int
    key: str


class AddHistory:
    """A change's history entry (pcfserver/engine/audit.py), also the store operation that writes it straight to its
    table in the change's transaction; rows ``keep`` or more behind it are deleted now and then, so the table stays
    bounded.  The command is encoded and the entry pickled by the commit (in the committer's thread when it has one),
    not while the command is applied; ``before`` may be worked out then too (``derive``: the audit's entries keep a
    reference to the record the change replaced until then).  A plain class: one object per change, made as cheaply
    as Python makes one."""

    __slots__ = ("_before", "at", "command", "keep", "kind", "mode", "seq", "subtype", "target", "user", "via")

    def __init__(
        self, seq: int, at: float, user: str, via: str, target: str, kind: str, subtype: int, mode: str, before: tuple[object, ...] | None,
        command: Message | CommandData, keep: int = 0,
    ) -> None:
        self.seq = seq
        self.at = at
        self.user = user  # "" when the change ran under the server's own authority and the shell knew no user
        self.via = via  # PCF, MQSC, REST, console, ...
        self.target = target  # the object's name ("" for the queue manager)
        self.kind = kind  # "queue", a kind of formats/kinds.tsv, "qmgr", "authrec", "chlauth" or "" (another command)
        self.subtype = subtype  # the queue's type, the channel's type, ... (0 when none)
        self.mode = mode  # what ``before`` holds (audit.NEW, REPLACED, ALTERED, AUTHRECS, CHLAUTH, NONE)
        self._before = before  # None: not worked out yet (``derive``)
        self.command = command  # the PCF command; what the row keeps of it (command_data) when read back (audit.message)
        self.keep = keep

    @property
    def before(self) -> tuple[object, ...]:
        """What the change replaced, as plain data (what the revert is written from)."""
        before = self._before
        return before if before is not None else self.derive()

    def derive(self) -> tuple[object, ...]:
        """``before`` when it was not given (a subclass works it out, once, from what it kept)."""
        return ()

    def row(self) -> tuple[int, float, str, str, str, bytes]:
        before = self.before  # (first: ``derive`` reads the command)
        command = self.command
        if isinstance(command, Message):
            # Kept as its plain data from now on (atoms, which the garbage collector stops visiting), not as the
            # decoded command's dozen objects per entry that each full collection would visit; audit.message
            # makes the command again when a page asks.
            data = self.command = command_data(command)
        else:
            data = command
        return (self.seq, self.at, self.user, self.via, self.target, pickle.dumps((self.kind, self.subtype, self.mode, before, data), _PICKLE_PROTOCOL))


# A history entry's command as its row keeps it.  The commands that change the registry hold integers, strings and
# their lists: those are kept as plain tuples, (code, type, version, ((tag, parameter, value[, ccsid]), ...)), which
# pickle writes at C speed; encoding them as PCF cost 7 us of a CHANGE_Q's commit, more than half of what applying it
# costs.  A command with any other parameter is kept as its PCF bytes.
_INTEGER, _STRING, _INTEGER_LIST, _STRING_LIST = range(4)
CommandData = bytes | tuple[int, int, int, tuple[tuple[object, ...], ...]]


def command_data(command: Message) -> CommandData:
    """What a history row keeps of a command (``command_of`` reads it back)."""
    out: list[tuple[object, ...]] = []
    append = out.append
    for item in command.parameters:
        kind = type(item)
        if kind is Integer:
            append((_INTEGER, item.parameter, item.value))  # type: ignore[union-attr]
        elif kind is String:
            append((_STRING, item.parameter, item.value, item.ccsid))  # type: ignore[union-attr]
        elif kind is IntegerList:
            append((_INTEGER_LIST, item.parameter, item.values))  # type: ignore[union-attr]
        elif kind is StringList:
            append((_STRING_LIST, item.parameter, item.values, item.ccsid))  # type: ignore[union-attr]
        else:
            return encode(command)
    return (command.command, command.type, command.version, tuple(out))


def command_of(data: object) -> Message:
    """The command a history row keeps (``command_data``'s plain tuple, or PCF bytes)."""
    if isinstance(data, (bytes, bytearray)):
        return decode(bytes(data))[0]
    if not (isinstance(data, tuple) and len(data) == 4 and isinstance(data[3], tuple)):
        raise StoreError(f"a history entry's command that is neither PCF nor plain data: {data!r:.80}")
    code, message_type, version, items = data
    params: list[Parameter] = []
    for item in items:
        tag, pid, value = item[0], item[1], item[2]
        if tag == _INTEGER:
            params.append(Integer(pid, value))
        elif tag == _STRING:
            params.append(String(pid, value, item[3]))
        elif tag == _INTEGER_LIST:
            params.append(IntegerList(pid, tuple(value)))
        elif tag == _STRING_LIST:
            params.append(StringList(pid, tuple(value), item[3]))
        else:
            raise StoreError(f"a history entry's parameter of unknown kind {tag!r}")
    return Message(code, tuple(params), type=message_type, version=version)


Op = PutQueue | SetAttrs | DeleteQueue | SetQmgr | SetMeta
MessageOp = (
    PutMessage
    | DeleteMessage
    | PutMessages
    | DeleteMessages
    | UpdateMessage
    | ClearMessages
    | SetAuthRec
    | PutObject
    | DeleteObject
    | PutChlauth
    | DeleteChlauth
    | AddHistory
)
AnyOp = Op | MessageOp
_MESSAGE_OPS = (
    PutMessage,
    DeleteMessage,
    PutMessages,
    DeleteMessages,
    UpdateMessage,
    ClearMessages,
    SetAuthRec,
    PutObject,
    DeleteObject,
    PutChlauth,
    DeleteChlauth,
    AddHistory,
)
_MESSAGE_OP_TYPES = frozenset(_MESSAGE_OPS)


def md_bytes(record: MdRecord) -> bytes:
    """A descriptor record as a row of the messages table keeps it."""
    return pickle.dumps(record, _PICKLE_PROTOCOL)


def md_fields(blob: bytes) -> MdRecord:
    """The plain data :func:`md_bytes` wrote (the unpickler refuses every global)."""
    data = load_plain(blob)
    if not isinstance(data, tuple):
        raise StoreError("a message descriptor that is not a tuple")
    return data


class _MessageWrites:
    """The net rows of a commit's message operations: a message put and got in one commit is never written."""

    __slots__ = ("auths", "chlauth", "deletes", "history", "objects", "puts", "updates")

    def __init__(self) -> None:
        self.puts: dict[int, MessageRow] = {}
        self.deletes: list[int] = []
        self.updates: dict[int, MdRecord] = {}
        self.auths: dict[tuple[str, int, int, str], tuple[int, ...]] = {}
        self.objects: dict[tuple[int, str], tuple[tuple[int, ObjValue], ...] | None] = {}
        self.chlauth: dict[tuple[str, int, str], tuple[tuple[int, ObjValue], ...] | None] = {}
        self.history: list[AddHistory] = []

    def add(self, op: MessageOp) -> None:
        kind = type(op)  # the common ones first, by type (isinstance down the chain cost more)
        if kind is PutMessages:
            puts = self.puts
            for row in cast(PutMessages, op).rows:
                puts[row[0]] = row
        elif kind is DeleteMessages:
            self._delete(cast(DeleteMessages, op).seqs)
        elif kind is PutMessage:
            one = cast(PutMessage, op)
            self.puts[one.seq] = (one.seq, one.queue, one.level, one.md, one.body, int(one.np))
        elif kind is DeleteMessage:
            self._delete((cast(DeleteMessage, op).seq,))
        elif isinstance(op, AddHistory):  # (the audit's entries are a subclass)
            self.history.append(op)
        elif isinstance(op, PutChlauth):
            self.chlauth[(op.profile, op.type, op.key)] = op.attrs
        elif isinstance(op, DeleteChlauth):
            self.chlauth[(op.profile, op.type, op.key)] = None
        elif isinstance(op, PutObject):
            self.objects[(op.objtype, op.name)] = op.attrs
        elif isinstance(op, DeleteObject):
            self.objects[(op.objtype, op.name)] = None
        elif isinstance(op, SetAuthRec):
            self.auths[(op.profile, op.objtype, op.etype, op.entity)] = op.auths
        elif isinstance(op, UpdateMessage):
            earlier = self.puts.get(op.seq)
            if earlier is not None:
                self.puts[op.seq] = (earlier[0], earlier[1], earlier[2], op.md, earlier[4], earlier[5])
            else:
                self.updates[op.seq] = op.md
        elif isinstance(op, ClearMessages):
            # Puts gathered so far for the queue vanish with it (later ones have other numbers); the rest are deleted.
            for seq in [seq for seq, row in self.puts.items() if row[1] == op.queue]:
                del self.puts[seq]
            self._delete(op.seqs)

    def _delete(self, seqs: Iterable[int]) -> None:
        """Messages that go: a put gathered in this commit is simply not written, any other row is deleted (and its
        descriptor update dropped)."""
        puts, updates, deletes = self.puts, self.updates, self.deletes
        if not puts and not updates:  # (a unit of gets: nothing of this commit to net them against)
            deletes.extend(seqs)
            return
        for seq in seqs:
            if puts.pop(seq, None) is None:
                deletes.append(seq)
            if updates:
                updates.pop(seq, None)

    def write(self, db: sqlite3.Connection, batches: Batches) -> None:
        for chlauth_key, chlauth_attrs in self.chlauth.items():
            if chlauth_attrs is None:
                db.execute("DELETE FROM chlauth WHERE profile = ? AND type = ? AND key = ?", chlauth_key)
            else:
                db.execute("INSERT OR REPLACE INTO chlauth (profile, type, key, attrs) VALUES (?,?,?,?)", (*chlauth_key, json.dumps(chlauth_attrs)))
        for (objtype, name), attrs in self.objects.items():
            if attrs is None:
                db.execute("DELETE FROM objects WHERE objtype = ? AND name = ?", (objtype, name))
            else:
                db.execute("INSERT OR REPLACE INTO objects (objtype, name, attrs) VALUES (?,?,?)", (objtype, name, json.dumps(attrs)))
        for key, auths in self.auths.items():
            if auths:
                db.execute("INSERT OR REPLACE INTO authrecs (profile, objtype, etype, entity, auths) VALUES (?,?,?,?,?)", (*key, " ".join(map(str, auths))))
            else:
                db.execute("DELETE FROM authrecs WHERE profile = ? AND objtype = ? AND etype = ? AND entity = ?", key)
        if self.deletes:
            single = batches.delete(db, self.deletes)
            if single:
                _delete_seqs(db, single)
        if self.updates:
            updates = batches.update(db, self.updates)
            if updates:
                db.executemany("UPDATE messages SET md = ? WHERE seq = ?", [(md_bytes(md), seq) for seq, md in updates.items()])
        if self.puts:
            rows = batches.put(db, list(self.puts.values()))
            if rows:
                insert_many(
                    db, "INSERT OR REPLACE INTO messages (seq, queue, level, md, body, np) VALUES ", "(?,?,?,?,?,?)",
                    [(seq, queue, level, md_bytes(md), body, np) for seq, queue, level, md, body, np in rows],
                )
        if self.history:
            insert_many(db, "INSERT OR REPLACE INTO history (seq, at, user, via, target, entry) VALUES ", "(?,?,?,?,?,?)", [h.row() for h in self.history])
            last = self.history[-1]
            if last.seq // _HISTORY_TRIM != (last.seq - len(self.history)) // _HISTORY_TRIM:  # now and then, not per row
                db.execute("DELETE FROM history WHERE seq <= ?", (last.seq - last.keep,))


def _first(row: tuple[int, str, int, tuple[object, ...], bytes]) -> int:
    return row[0]


def _delete_seqs(db: sqlite3.Connection, seqs: list[int]) -> None:
    """Deletes the messages ``seqs`` names: a run of consecutive numbers (gets in arrival order)
    as one range, the rest by list; 100 deletes cost 80 us as a range, 200 us one by one."""
    ordered = sorted(seqs)
    single: list[int] = []
    start = 0
    for i in range(1, len(ordered) + 1):
        if i < len(ordered) and ordered[i] == ordered[i - 1] + 1:
            continue
        if i - start >= _RANGE_MIN:  # every integer in between is a row to delete: nothing else is caught
            db.execute("DELETE FROM messages WHERE seq BETWEEN ? AND ?", (ordered[start], ordered[i - 1]))
        else:
            single.extend(ordered[start:i])
        start = i
    for first in range(0, len(single), ROWS_PER_INSERT):
        chunk = single[first : first + ROWS_PER_INSERT]
        db.execute("DELETE FROM messages WHERE seq IN (" + ",".join(["?"] * len(chunk)) + ")", chunk)


def body_bytes(ops: Sequence[AnyOp]) -> int:
    """The bytes of the message bodies that ``ops`` put."""
    total = 0
    for op in ops:
        kind = type(op)
        if kind is PutMessage:
            total += len(cast(PutMessage, op).body)
        elif kind is PutMessages:
            total += sum(len(row[4]) for row in cast(PutMessages, op).rows)
    return total


_INSERT_ONE = "INSERT OR REPLACE INTO messages (seq, queue, level, md, body, np) VALUES (?,?,?,?,?,?)"
_DELETE_ONE = "DELETE FROM messages WHERE seq = ?"

_HISTORY_TRIM = 256  # history rows between two trims of the table

_RANGE_MIN = 4  # consecutive deletes made one range statement


def _op_data(op: Op) -> list[object]:
    """An operation as plain data (values stay int or str)."""
    if isinstance(op, SetAttrs):
        return ["A", op.name, op.items]
    if isinstance(op, PutQueue):
        return ["P", op.name, op.qtype, list(op.attrs.items())]
    if isinstance(op, DeleteQueue):
        return ["D", op.name]
    if isinstance(op, SetQmgr):
        return ["Q", op.items]
    if isinstance(op, SetMeta):
        return ["M", op.items]
    raise TypeError(f"unknown store operation {op!r}")  # pragma: no cover - the engine makes only these


_PICKLE_PROTOCOL = 5


def _pairs(data: object) -> tuple[tuple[int, AttrValue], ...]:
    """(parameter, value) pairs as written: ints, with int or str values; anything else is refused."""
    if not isinstance(data, (list, tuple)):
        raise TypeError(f"pairs expected, found {type(data).__name__}")
    out: list[tuple[int, AttrValue]] = []
    for param, value in data:
        if type(param) is not int or type(value) not in (int, str):
            raise TypeError(f"a pair of {type(param).__name__} and {type(value).__name__}")
        out.append((param, value))
    return tuple(out)


def _op_from_data(data: list[object]) -> Op:
    kind = data[0]
    if kind == "A":
        return SetAttrs(str(data[1]), _pairs(data[2]))
    if kind == "P":
        qtype = data[2]
        if type(qtype) is not int:
            raise TypeError("a queue type that is not an int")
        return PutQueue(str(data[1]), qtype, dict(_pairs(data[3])))
    if kind == "D":
        return DeleteQueue(str(data[1]))
    if kind == "Q":
        return SetQmgr(_pairs(data[1]))
    if kind == "M":
        items = data[1]
        if not isinstance(items, (list, tuple)):
            raise TypeError("metadata that is not a list")
        return SetMeta(tuple((str(k), str(v)) for k, v in items))
    raise StoreError(f"journal holds an unknown operation {kind!r}")


class _NetEffect:
    """What a run of operations does to the tables, each queue's attributes given once."""

    __slots__ = ("meta", "qmgr", "queues", "values")

    def __init__(self) -> None:
        # name -> None (deleted), (qtype, attrs) (defined anew) or (None, attrs) (attributes set)
        self.queues: dict[str, tuple[int | None, dict[int, AttrValue]] | None] = {}
        self.qmgr: dict[int, AttrValue] = {}
        self.meta: dict[str, str] = {}
        self.values = 0

    def add(self, ops: Sequence[Op]) -> None:
        queues = self.queues
        for op in ops:
            if isinstance(op, SetAttrs):
                entry = queues.get(op.name)
                if entry is None:
                    queues[op.name] = (None, dict(op.items))
                else:
                    entry[1].update(op.items)
                self.values += len(op.items)
            elif isinstance(op, PutQueue):
                queues[op.name] = (op.qtype, dict(op.attrs))
                self.values += len(op.attrs)
            elif isinstance(op, DeleteQueue):
                queues[op.name] = None
                self.values += 1
            elif isinstance(op, SetQmgr):
                self.qmgr.update(op.items)
                self.values += len(op.items)
            elif isinstance(op, SetMeta):
                self.meta.update(op.items)
                self.values += len(op.items)

    def ops(self) -> list[Op]:
        out: list[Op] = []
        for name, entry in self.queues.items():
            if entry is None:
                out.append(DeleteQueue(name))
            elif entry[0] is None:
                out.append(SetAttrs(name, tuple(entry[1].items())))
            else:
                out.append(PutQueue(name, entry[0], entry[1]))
        if self.qmgr:
            out.append(SetQmgr(tuple(self.qmgr.items())))
        if self.meta:
            out.append(SetMeta(tuple(self.meta.items())))
        return out


@dataclass(slots=True)
class Snapshot:
    """What a store holds: metadata, queues (name -> (type, attributes)) and qmgr attributes."""

    meta: dict[str, str] = field(default_factory=dict)
    queues: dict[str, tuple[int, dict[int, AttrValue]]] = field(default_factory=dict)
    qmgr: dict[int, AttrValue] = field(default_factory=dict)
    # (seq, queue, level, descriptor fields, body), in arrival order
    messages: list[tuple[int, str, int, tuple[object, ...], bytes]] = field(default_factory=list)
    # (profile, object type, entity type, entity) -> MQAUTH_* values
    authrecs: dict[tuple[str, int, int, str], tuple[int, ...]] = field(default_factory=dict)
    # (MQOT_PROCESS or MQOT_NAMELIST, name) -> attributes
    objects: dict[tuple[int, str], dict[int, ObjValue]] = field(default_factory=dict)
    # channel authentication records: (profile, MQCAUT_* type, key) -> attributes
    chlauth: dict[tuple[str, int, str], dict[int, ObjValue]] = field(default_factory=dict)
    # the change history, oldest first: (seq, at, user, via, target, entry data)
    history: list[tuple[int, float, str, str, str, object]] = field(default_factory=list)


def _object_attrs(text: str) -> dict[int, ObjValue]:
    """An objects row's attributes: [parameter, value] pairs whose value is an int, a string or a list of either."""
    out: dict[int, ObjValue] = {}
    for param, value in json.loads(text):
        if type(param) is not int:
            raise TypeError("a parameter that is not an int")
        if isinstance(value, list):
            if all(type(v) is str for v in value):
                out[param] = tuple(str(v) for v in value)
            elif all(type(v) is int for v in value):
                out[param] = tuple(int(v) for v in value)
            else:
                raise TypeError("a list that is not of strings or of integers")
        elif type(value) in (int, str):
            out[param] = value
        else:
            raise TypeError(f"a value of type {type(value).__name__}")
    return out


class Store(Protocol):
    def load(self) -> Snapshot: ...

    def commit(self, ops: Sequence[AnyOp]) -> None: ...

    def commit_owing(self, ops: Sequence[AnyOp]) -> int | None: ...

    def settle(self) -> None: ...

    def sync_events(self) -> bool: ...

    def close(self) -> None: ...


class MemoryStore:
    """No persistence: the registry lives and dies with the engine (tests, throwaway servers)."""

    def load(self) -> Snapshot:
        return Snapshot()

    def commit(self, ops: Sequence[AnyOp]) -> None:
        return None

    def commit_owing(self, ops: Sequence[AnyOp]) -> int | None:
        return None

    def settle(self) -> None:
        return None

    def sync_events(self) -> bool:
        return False

    def close(self) -> None:
        return None


class StoreError(RuntimeError):
    """The data directory cannot be used (locked by another process, newer schema, ...)."""


def _fsync_directory(path: Path) -> None:
    """Makes the directory entries in ``path`` durable (a new database file after a power loss)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory descriptors
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse fsync on directories
        pass
    finally:
        os.close(fd)


class SqliteStore:
    """The registry in ``<data_dir>/registry.sqlite3`` (stdlib sqlite3, WAL, each commit's log fdatasync'd)."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / DB_NAME
        self._batches = Batches()
        self._wal = WalSync(self.path)
        self._owing = False  # (set while commit_owing writes: its transaction's sync is left owed)
        self._started: int | None = None  # (commit_owing's answer: the eventfd of the sync it started on the ring)
        # isolation_level=None: no implicit transactions; BEGIN/COMMIT are issued explicitly.
        # check_same_thread=False: the server may call from a worker thread; it serialises calls.
        self._db = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=0.5, cached_statements=4 * ROWS_PER_INSERT + 64
        )
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: cannot switch to WAL mode (got {mode})")
            self._db.execute("PRAGMA synchronous=NORMAL")  # (each commit's WAL frames are fdatasync'd by self._wal)
            self._db.execute("PRAGMA secure_delete=FAST")  # (formats/messaging-rules.tsv: a freed page is not rewritten)
            # One owner per registry: the engine caches the whole registry, so a second process
            # writing behind its back would be lost.  EXCLUSIVE keeps the lock once taken.
            self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
            self._migrate()
            presize_wal(self._db, self.path)  # (after the first transaction: the lock and the WAL file are ours)
            # What a crash left in the journal goes into the tables now.
            self._journal = self._read_journal()
            if self._journal.values:
                self._fold()
            _fsync_directory(data_dir)  # the database and WAL file names themselves are durable
        except sqlite3.OperationalError as exc:
            self._close_files()
            raise StoreError(f"{self.path}: {exc}") from exc
        except BaseException:
            self._close_files()
            raise

    def _version(self) -> int:
        has_meta = self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if not has_meta:
            return 0
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than this program ({SCHEMA_VERSION})")
            while version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    db.execute(statement)
                version += 1
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (str(version),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._written()

    @property
    def schema_version(self) -> int:
        return self._version()

    def load(self) -> Snapshot:
        """What the registry holds; the non-persistent messages a clean close kept are read and deleted."""
        db = self._db
        snap = Snapshot()
        snap.meta = {k: v for k, v in db.execute("SELECT key, value FROM meta")}
        queues = snap.queues
        for name, qtype in db.execute("SELECT name, qtype FROM queues"):
            queues[name] = (qtype, {})
        for name, param, value in db.execute("SELECT name, param, value FROM queue_attrs"):
            entry = queues.get(name)
            if entry is not None:
                entry[1][param] = value
        snap.qmgr = {param: value for param, value in db.execute("SELECT param, value FROM qmgr_attrs")}
        for profile, objtype, etype, entity, auths in db.execute("SELECT profile, objtype, etype, entity, auths FROM authrecs"):
            snap.authrecs[(profile, objtype, etype, entity)] = tuple(int(a) for a in str(auths).split())
        for objtype, name, attrs in db.execute("SELECT objtype, name, attrs FROM objects"):
            try:
                snap.objects[(objtype, name)] = _object_attrs(attrs)
            except (ValueError, TypeError) as exc:
                raise StoreError(f"{self.path}: object {name} has attributes that cannot be read: {exc}") from exc
        for profile, chlauth_type, key, attrs in db.execute("SELECT profile, type, key, attrs FROM chlauth"):
            try:
                snap.chlauth[(profile, chlauth_type, key)] = _object_attrs(attrs)
            except (ValueError, TypeError) as exc:
                raise StoreError(f"{self.path}: channel authentication record {profile} has attributes that cannot be read: {exc}") from exc
        for seq, at, user, via, target, entry in db.execute("SELECT seq, at, user, via, target, entry FROM history ORDER BY seq"):
            try:
                snap.history.append((seq, at, user, via, target, load_plain(entry)))
            except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError) as exc:
                raise StoreError(f"{self.path}: history entry {seq} cannot be read: {exc}") from exc
        kept_np = False
        messages = snap.messages
        for seq, queue, level, md, body, np in db.execute("SELECT seq, queue, level, md, body, np FROM messages ORDER BY seq"):
            messages.append((seq, queue, level, self._md_fields(seq, md), bytes(body)))
            kept_np = kept_np or bool(np)
        try:
            batched = self._batches.load(db)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError) as exc:
            raise StoreError(f"{self.path}: a batch of messages cannot be read: {exc}") from exc
        if batched:
            messages.extend(batched)
            messages.sort(key=_first)
        if kept_np:
            # Read once: if this run ends in a crash they must not come back (non-persistent).
            self._transaction(lambda: db.execute("DELETE FROM messages WHERE np = 1"))
        return snap

    def _md_fields(self, seq: int, md: bytes) -> tuple[object, ...]:
        try:
            return md_fields(md)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError) as exc:
            raise StoreError(f"{self.path}: message {seq} has a descriptor that cannot be read: {exc}") from exc

    def commit_owing(self, ops: Sequence[AnyOp]) -> int | None:
        """:meth:`commit`, except that it returns once the transaction is in the WAL and its sync started (on an
        io_uring, or its writeback), and leaves the sync owed: :meth:`settle` must run before anything that reflects
        it is answered.  The answer is an eventfd that is readable once the sync has ended, when it went on the ring
        (pcfserver.engine.wal); else None."""
        self._owing = True
        self._started = None
        try:
            self.commit(ops)
        finally:
            self._owing = False
        started, self._started = self._started, None
        return started

    def settle(self) -> None:
        """Returns once every commit so far is durable (at once when none is owed); raises if the disk failed."""
        self._wal.settle()

    def sync_events(self) -> bool:
        """Whether :meth:`commit_owing` may answer an eventfd (this thread has, or may have, an io_uring)."""
        return self._wal.ring_possible()

    def _written(self) -> None:
        """A transaction is in the WAL: made durable now, or, in :meth:`commit_owing`, its sync started."""
        self._wal.wrote()
        if self._owing:
            self._started = self._wal.start()
        else:
            self._wal.sync()

    def commit(self, ops: Sequence[AnyOp]) -> None:
        """Applies ``ops`` in one transaction; returns once it is durable, raises having rolled back.

        Registry operations usually make one journal row.  When the journal holds ``FOLD_VALUES``
        attribute values, this transaction folds it instead: the net effect of the journal and of
        ``ops`` goes into the tables, and the journal is emptied.  Message operations go straight
        to the messages table, net of one another, in the same transaction.
        """
        if not ops:
            return
        if self._wal.failure is not None:
            raise StoreError(f"{self.path}: the disk failed to make an earlier commit durable ({self._wal.failure}); no more changes are taken")
        if len(ops) == 1:  # one put or one get outside a unit of work (a REST request, an MQPUT1): one statement
            op = ops[0]
            kind = type(op)
            if kind is PutMessage:
                put = cast(PutMessage, op)
                self._statement(_INSERT_ONE, (put.seq, put.queue, put.level, md_bytes(put.md), put.body, int(put.np)))
                return
            if kind is DeleteMessage and cast(DeleteMessage, op).seq not in self._batches.of:
                self._statement(_DELETE_ONE, (cast(DeleteMessage, op).seq,))
                return
        registry: list[Op] = []
        messages: _MessageWrites | None = None
        message_types = _MESSAGE_OP_TYPES
        for op in ops:
            if type(op) in message_types or isinstance(op, AddHistory):  # (the audit's entries are a subclass)
                if messages is None:
                    messages = _MessageWrites()
                messages.add(op)  # type: ignore[arg-type]
            else:
                registry.append(op)  # type: ignore[arg-type]
        if registry and self._journal.values + len(registry) >= FOLD_VALUES:
            self._fold(registry, messages)
            return
        db = self._db

        def write() -> None:
            if registry:
                db.execute("INSERT INTO journal (ops) VALUES (?)", (pickle.dumps([_op_data(op) for op in registry], _PICKLE_PROTOCOL),))
            if messages is not None:
                messages.write(db, self._batches)

        self._transaction(write)
        if registry:
            self._journal.add(registry)

    def _fold(self, ops: Sequence[Op] = (), messages: _MessageWrites | None = None) -> None:
        """One transaction: the journal's net effect, then ``ops``, into the tables; the journal emptied."""
        journal = self._journal.ops()

        def write() -> None:
            self._write_rows(journal)
            self._write_rows(ops)
            self._db.execute("DELETE FROM journal")
            if messages is not None:
                messages.write(self._db, self._batches)

        self._transaction(write)
        self._journal = _NetEffect()

    def _statement(self, sql: str, params: tuple[object, ...]) -> None:
        """One statement as a transaction of its own (SQLite's autocommit: durable when it returns, rolled back
        whole if it fails), without BEGIN and COMMIT: 3 us less of a 12 us single-message commit."""
        self._db.execute(sql, params)
        self._written()

    def _transaction(self, write: Callable[[], object]) -> None:
        """``write`` inside BEGIN IMMEDIATE ... COMMIT; rolled back if anything in it raises."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            write()
            db.execute("COMMIT")
        except BaseException:
            self._batches.discard()
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._batches.settle()
        self._written()

    def _read_journal(self) -> _NetEffect:
        """The net effect of what the journal holds (what was committed since the last fold)."""
        net = _NetEffect()
        for (data,) in self._db.execute("SELECT ops FROM journal ORDER BY seq"):
            try:
                net.add([_op_from_data(item) for item in load_plain(data)])
            except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, AssertionError) as exc:
                raise StoreError(f"{self.path}: the journal has a row that cannot be read: {exc}") from exc
        return net

    def _write_rows(self, ops: Sequence[Op]) -> None:
        """The table rows of ``ops``, in order, inside the caller's transaction."""
        db = self._db
        rows: list[tuple[str, int, AttrValue]] = []  # attribute rows, written in order
        queue_rows: list[tuple[str, int]] = []
        for op in ops:
            if isinstance(op, SetAttrs):
                name = op.name
                rows.extend([(name, p, v) for p, v in op.items])
                continue
            if isinstance(op, PutQueue):
                # A redefinition replaces every attribute: the old rows go first.
                self._flush(rows, queue_rows)
                queue_rows.append((op.name, op.qtype))
                db.execute("DELETE FROM queue_attrs WHERE name = ?", (op.name,))
                rows.extend([(op.name, p, v) for p, v in op.attrs.items()])
                continue
            self._flush(rows, queue_rows)
            if isinstance(op, DeleteQueue):
                db.execute("DELETE FROM queues WHERE name = ?", (op.name,))
                db.execute("DELETE FROM queue_attrs WHERE name = ?", (op.name,))
            elif isinstance(op, SetQmgr):
                db.executemany("INSERT OR REPLACE INTO qmgr_attrs (param, value) VALUES (?, ?)", op.items)
            elif isinstance(op, SetMeta):
                db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", op.items)
            else:  # pragma: no cover - the engine makes only the operations above
                raise TypeError(f"unknown store operation {op!r}")
        self._flush(rows, queue_rows)

    def _flush(self, rows: list[tuple[str, int, AttrValue]], queue_rows: list[tuple[str, int]]) -> None:
        """Writes the queue and attribute rows gathered so far, in order, and empties the lists."""
        if queue_rows:
            insert_many(self._db, "INSERT OR REPLACE INTO queues (name, qtype) VALUES ", "(?,?)", queue_rows)
            queue_rows.clear()
        if rows:
            insert_many(self._db, "INSERT OR REPLACE INTO queue_attrs (name, param, value) VALUES ", "(?,?,?)", rows)
            rows.clear()

    def close(self) -> None:
        """Folds the journal (so the tables alone hold the registry) and closes the database."""
        try:
            self._wal.settle()
            if self._journal.values:
                self._fold()
        except (sqlite3.Error, OSError):
            pass  # the journal stays; the next open folds it
        finally:
            self._close_files()

    def _close_files(self) -> None:
        try:
            self._db.close()  # (SQLite checkpoints the WAL into the database, syncing both, and deletes the WAL)
        finally:
            self._wal.close()
