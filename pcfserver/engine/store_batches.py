"""Committed messages many to a row: how the store writes a unit of work's puts.

A commit that stores ``BATCH_MIN`` or more persistent messages (an application committing every
hundred puts, a MOVE QLOCAL) writes them as one row of ``batches``: a head pickled as plain data, then
the bodies as they are.  The head holds the messages' seqs, queues, levels, body lengths and
descriptor records by column (:func:`_head`): a column whose value every message shares (the queue, the
format, the date, the application...) is written once, so a unit of 100 puts of 256 bytes has a head of
4 KB instead of 11 KB (a tuple per message, schema 9): its commit writes 9 WAL frames instead of 10, and
pickling the head costs 3,500 instructions a message instead of 5,600.  SQLite
then makes one B-tree entry and a chain of overflow pages instead of a hundred entries, and when the
messages are got again the whole row goes with one delete.  A message got while others of its batch stay is marked gone in ``batch_marks``
(``md`` NULL); a message whose descriptor changes there (its BackoutCount) is marked with the new
descriptor.  A batch whose last message goes is deleted with its marks in the same transaction.

Measured on the benchmark machine (tools/bench_messaging.py's in-process loop, 256-byte messages,
commits of 100): SQLite took 10.4 us per put+get pair with a row per message (multi-row INSERT,
range DELETE) and 5.4-7.1 us as batches; the get's commit dirties one page instead of one per
message's leaf.

Messages outside batches (commits of fewer messages, bodies over ``BODY_MAX``, the non-persistent
ones a clean close keeps) stay one row each in ``messages``.  Every change here happens in the
caller's transaction: the in-memory index (:class:`Batches`) takes a commit's changes only once
its transaction has committed (:meth:`Batches.settle`).
"""

from __future__ import annotations

import io
import pickle
import sqlite3
import struct
from collections.abc import Sequence
from typing import Any

# A stored descriptor: its fields, when it was put and when it expires, as plain data (messages.StoredMessage.record).
MdRecord = tuple[object, ...]
# A stored message: (seq, queue, level, descriptor record, body, np); as a row of the messages table, the record pickled.
MessageRow = tuple[int, str, int, MdRecord, bytes, int]
# A message as a batch returns it on load: (seq, queue, level, descriptor record, body).
BatchRow = tuple[int, str, int, MdRecord, bytes]

BATCH_MIN = 16  # persistent messages stored by one commit from which they are written as batches
BATCH_BYTES = 1 << 20  # body bytes per batch row at most (a larger commit writes several rows)
BODY_MAX = 64 << 10  # a message with a longer body keeps a row of its own

# Schema version 9 -> 10: batch heads written by column (a program of schema 9 could not read them; this one reads
# both).  No statement: the rows stay as they are.
HEAD_BY_COLUMN: tuple[str, ...] = ()

# Schema version 8 -> 9.
MIGRATION = (
    "CREATE TABLE IF NOT EXISTS batches (first INTEGER PRIMARY KEY, data BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS batch_marks (batch INTEGER NOT NULL, seq INTEGER NOT NULL, md BLOB, PRIMARY KEY (batch, seq)) WITHOUT ROWID",
)

PICKLE_PROTOCOL = 5
_HEAD_SIZE = struct.Struct(">I")  # a batch row's first 4 bytes: the length of its pickled head
_MARKS = ("INSERT OR REPLACE INTO batch_marks (batch, seq, md) VALUES ", "(?,?,?)")  # gone (md NULL) or a new descriptor

# Rows per INSERT statement: the statement texts (one per size up to this) stay in the
# connection's statement cache, and 64 * 6 parameters is far under SQLite's limit.
ROWS_PER_INSERT = 64


def insert_many(db: sqlite3.Connection, head: str, row: str, rows: Sequence[tuple[object, ...]]) -> None:
    """``head`` + ``row`` repeated: many rows per statement, in order (a later row replaces an earlier one)."""
    for start in range(0, len(rows), ROWS_PER_INSERT):
        chunk = rows[start : start + ROWS_PER_INSERT]
        db.execute(head + ",".join([row] * len(chunk)), [value for r in chunk for value in r])


class _PlainUnpickler(pickle.Unpickler):
    """Reads lists, tuples, numbers, strings and bytes only: any global a row names is refused."""

    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"a stored row names {module}.{name}, which is not plain data")


class BatchError(ValueError):
    """A batch row that does not hold what this module writes."""


def load_plain(data: bytes) -> Any:
    """What a stored pickle holds, read without any global (the journal, history entries, descriptors, batches)."""
    return _PlainUnpickler(io.BytesIO(data)).load()


def _column(values: tuple[Any, ...]) -> tuple[Any] | list[Any]:
    """A column of the head: ``(value,)`` when every message has that value, else the list of them."""
    first = values[0]
    return (first,) if values.count(first) == len(values) else list(values)


def _head(group: Sequence[MessageRow]) -> tuple[list[Any], tuple[bytes, ...]]:
    """A batch's head, ``[seqs, queues, levels, body lengths, [descriptor record columns]]`` (each but the seqs and the
    lengths a :func:`_column`), and its bodies in order."""
    seqs, queues, levels, records, bodies, _ = zip(*group, strict=True)
    return [list(seqs), _column(queues), _column(levels), [len(body) for body in bodies], [_column(c) for c in zip(*records, strict=True)]], bodies


def _heads_of(first: int, head: list[Any]) -> tuple[tuple[object, ...], ...]:
    """The per-message heads (seq, queue, level, descriptor record, body length) of a head written by column."""
    if len(head) != 5 or type(head[0]) is not list or type(head[3]) is not list or type(head[4]) is not list or not head[4]:
        raise BatchError(f"batch {first} has a head that is not [seqs, queues, levels, lengths, descriptor columns]")
    n = len(head[0])
    columns: list[tuple[object, ...] | list[object]] = []
    for column in (*head[:4], *head[4]):
        if type(column) is tuple and len(column) == 1:
            column = column * n  # every message's value
        elif type(column) is not list or len(column) != n:
            raise BatchError(f"batch {first} has a head column of another length than its {n} messages")
        columns.append(column)
    seqs, queues, levels, lengths, *fields = columns
    return tuple(zip(seqs, queues, levels, zip(*fields, strict=True), lengths, strict=True))


def _rows_of(first: int, data: bytes) -> list[BatchRow]:
    """A batch row's messages: its head (pickled plain data behind a 4-byte length: by column, see :func:`_head`, or
    as schema 9 wrote it, a tuple of (seq, queue, level, descriptor record, body length) per message), then the
    bodies one after the other."""
    if len(data) < 4:
        raise BatchError(f"batch {first} is shorter than its head's length")
    (size,) = _HEAD_SIZE.unpack_from(data)
    end = 4 + size
    if end > len(data):
        raise BatchError(f"batch {first} is shorter than its head")
    heads = load_plain(data[4:end])
    if type(heads) is list:
        heads = _heads_of(first, heads)
    elif not isinstance(heads, tuple):
        raise BatchError(f"batch {first} is not a tuple of messages")
    rows: list[BatchRow] = []
    for head in heads:
        if not (
            type(head) is tuple
            and len(head) == 5
            and type(head[0]) is int
            and type(head[1]) is str
            and type(head[2]) is int
            and type(head[3]) is tuple
            and type(head[4]) is int
            and head[4] >= 0
        ):
            raise BatchError(f"batch {first} holds a message that is not (seq, queue, level, md, length)")
        start, end = end, end + head[4]
        rows.append((head[0], head[1], head[2], head[3], data[start:end]))
    if end != len(data):
        raise BatchError(f"batch {first}: its bodies' lengths do not add up to what it holds")
    return rows


class _Pending:
    """What a commit changes in the index, applied once its transaction has committed."""

    __slots__ = ("added", "marked", "taken")

    def __init__(self) -> None:
        self.added: list[tuple[int, list[int]]] = []  # (batch, its seqs)
        self.taken: list[tuple[int, set[int], bool]] = []  # (batch, seqs that left it, whether it went whole)
        self.marked: list[int] = []  # batches that gained a descriptor mark


class Batches:
    """Which stored messages live in batch rows (seq -> batch), and how many of each batch are left."""

    __slots__ = ("_pending", "live", "marked", "of")

    def __init__(self) -> None:
        self.of: dict[int, int] = {}
        self.live: dict[int, int] = {}
        self.marked: set[int] = set()  # batches with rows in batch_marks
        self._pending: _Pending | None = None

    # ------------------------------------------------------------------ reading

    def load(self, db: sqlite3.Connection) -> list[BatchRow]:
        """The messages the batch rows still hold (marks applied), in no particular order; fills the index."""
        marks: dict[int, dict[int, MdRecord | None]] = {}
        for batch, seq, md in db.execute("SELECT batch, seq, md FROM batch_marks"):
            record = None if md is None else load_plain(md)
            if record is not None and type(record) is not tuple:
                raise BatchError(f"batch {batch} has a mark for message {seq} that is not a descriptor")
            marks.setdefault(batch, {})[seq] = record
        out: list[BatchRow] = []
        of, live = self.of, self.live
        for first, data in db.execute("SELECT first, data FROM batches"):
            if type(data) is not bytes:
                raise BatchError(f"batch {first} is not a blob")
            own = marks.pop(first, None)
            count = 0
            for seq, queue, level, md, body in _rows_of(first, data):
                if own is not None and seq in own:
                    mark = own[seq]
                    if mark is None:
                        continue
                    md = mark
                out.append((seq, queue, level, md, body))
                of[seq] = first
                count += 1
            live[first] = count
            if own is not None:
                self.marked.add(first)
        # Marks left naming a batch that is gone (none are written so) name no message: nothing to read back.
        return out

    # ------------------------------------------------------------------ writing (inside the caller's transaction)

    def _changes(self) -> _Pending:
        if self._pending is None:
            self._pending = _Pending()
        return self._pending

    def put(self, db: sqlite3.Connection, rows: list[MessageRow]) -> list[MessageRow]:
        """Writes ``rows`` as batches when there are enough of them; returns the rows still to write one by one."""
        if len(rows) < BATCH_MIN:
            return rows
        lengths = [len(row[4]) for row in rows]
        if max(lengths) <= BODY_MAX and sum(lengths) < BATCH_BYTES and not any([row[5] for row in rows]):
            self._write(db, rows, self._changes())  # the usual unit of work: one row, without the loop below
            return []
        single: list[MessageRow] = []
        group: list[MessageRow] = []
        size = 0
        pending = self._changes()
        written = False
        for row in rows:
            length = len(row[4])
            if row[5] or length > BODY_MAX:
                single.append(row)
                continue
            group.append(row)
            size += length
            if size >= BATCH_BYTES:
                self._write(db, group, pending)
                group, size, written = [], 0, True
        if len(group) >= BATCH_MIN or (group and written):  # (the rest of a commit that filled a batch: a batch too)
            self._write(db, group, pending)
        else:
            single.extend(group)
        return single

    @staticmethod
    def _write(db: sqlite3.Connection, group: list[MessageRow], pending: _Pending) -> None:
        first = group[0][0]  # (any of its numbers names it: no other batch holds one of them)
        # The bodies go after the head as they are, each written out even when one object was put many times over (a
        # benchmark's), as the messages table would.
        columns, bodies = _head(group)
        head = pickle.dumps(columns, PICKLE_PROTOCOL)
        data = b"".join([_HEAD_SIZE.pack(len(head)), head, *bodies])
        db.execute("INSERT INTO batches (first, data) VALUES (?, ?)", (first, data))
        pending.added.append((first, columns[0]))  # (the head's seqs: the index only reads them)

    def delete(self, db: sqlite3.Connection, seqs: list[int]) -> list[int]:
        """Deletes the batched messages among ``seqs``; returns the others (rows of the messages table)."""
        of = self.of
        if not of:
            return seqs
        others: list[int] = []
        taken: dict[int, set[int]] = {}
        last: int | None = None
        gone: set[int] = set()
        for seq in seqs:
            batch = of.get(seq)
            if batch is None:
                others.append(seq)
            elif batch == last:  # (gets in arrival order: runs of one batch, without a set made per message)
                gone.add(seq)
            else:
                found = taken.get(batch)
                if found is None:
                    found = taken[batch] = set()
                gone, last = found, batch
                gone.add(seq)
        if not taken:
            return others
        pending = self._changes()
        live, marked = self.live, self.marked
        whole: list[int] = []
        marks: list[tuple[int, int, None]] = []
        for batch, gone in taken.items():
            if live[batch] == len(gone):
                whole.append(batch)
                pending.taken.append((batch, gone, True))
                if batch in marked:
                    db.execute("DELETE FROM batch_marks WHERE batch = ?", (batch,))
            else:
                marks.extend([(batch, seq, None) for seq in gone])
                pending.taken.append((batch, gone, False))
        for start in range(0, len(whole), ROWS_PER_INSERT):
            chunk = whole[start : start + ROWS_PER_INSERT]
            db.execute("DELETE FROM batches WHERE first IN (" + ",".join(["?"] * len(chunk)) + ")", chunk)
        if marks:
            insert_many(db, *_MARKS, marks)
        return others

    def update(self, db: sqlite3.Connection, updates: dict[int, MdRecord]) -> dict[int, MdRecord]:
        """Marks the batched messages among ``updates`` with their new descriptors; returns the others."""
        of = self.of
        if not of:
            return updates
        others: dict[int, MdRecord] = {}
        marks: list[tuple[int, int, bytes]] = []
        for seq, md in updates.items():
            batch = of.get(seq)
            if batch is None:
                others[seq] = md
            else:
                marks.append((batch, seq, pickle.dumps(md, PICKLE_PROTOCOL)))
        if marks:
            insert_many(db, *_MARKS, marks)
            self._changes().marked.extend(batch for batch, _, _ in marks)
        return others

    # ------------------------------------------------------------------ after the transaction

    def settle(self) -> None:
        """The commit's transaction committed: the index takes its changes."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        of, live, marked = self.of, self.live, self.marked
        for batch, seqs in pending.added:
            of.update(dict.fromkeys(seqs, batch))
            live[batch] = len(seqs)
        for batch, gone, whole in pending.taken:
            for seq in gone:
                del of[seq]
            if whole:
                del live[batch]
                marked.discard(batch)
            else:
                live[batch] -= len(gone)
                marked.add(batch)
        marked.update(pending.marked)

    def discard(self) -> None:
        """The commit's transaction rolled back: nothing it wrote happened."""
        self._pending = None
