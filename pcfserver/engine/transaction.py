"""The transaction of the commands being applied: their undo records and their store operations.

Every room of the engine that changes something (the queue commands, the other kinds, authority records, the
message layer) records how to undo the change in memory and the operation that makes it durable, here.  A
command applies whole or not at all: when it fails, :meth:`Transaction.rollback_to` undoes what it did since
its mark, newest first, and drops its store operations.  What the commands of a batch recorded is taken as one
:class:`Batch`, committed to the store in one transaction; a commit that fails is undone whole (``abort``).

An undo record is a function and its two arguments, called as ``restore(key, old)``: the queue commands record
their dictionary's restore with the queue's name and old record, which costs no closure per change.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from pcfserver.codec.model import Message
from pcfserver.engine.store import AnyOp

Restore = Callable[[object, object], None]
UndoRecord = tuple[Restore, object, object]


def _call(_key: object, fn: object) -> None:
    assert callable(fn)
    fn()


def replace_entry(record_undo: Callable[[Callable[[], None]], None], table: MutableMapping[Any, Any], key: object, value: object | None) -> None:
    """``table[key] = value`` (None: the entry goes), with the undo that puts back what was there: the records of
    authority, channel authentication and security policies change so."""
    old = table.get(key)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value

    def undo() -> None:
        if old is None:
            table.pop(key, None)
        else:
            table[key] = old

    record_undo(undo)


@dataclass(slots=True)
class Batch:
    """Commands applied in memory and not yet committed: their answers, undo records and store ops.

    Not frozen (nothing changes one once made): every MQI call makes one, and a frozen dataclass's ``__init__``
    (object.__setattr__ per field) cost 1.4 us of it."""

    commands: tuple[Message, ...]
    answers: list[list[Message]]
    changed: list[bool]
    undo: list[UndoRecord]
    ops: list[AnyOp]

    @staticmethod
    def joined(batches: Sequence[Batch]) -> Batch:
        """Batches applied one after the other, as one (for one transaction; aborting it undoes newest first)."""
        if len(batches) == 1:
            return batches[0]
        commands: list[Message] = []
        answers: list[list[Message]] = []
        changed: list[bool] = []
        undo: list[UndoRecord] = []
        ops: list[AnyOp] = []
        for b in batches:
            commands.extend(b.commands)
            answers.extend(b.answers)
            changed.extend(b.changed)
            undo.extend(b.undo)
            ops.extend(b.ops)
        return Batch(tuple(commands), answers, changed, undo, ops)


class Transaction:
    """The undo log and store operations of what is being applied (one batch of commands or one MQI call)."""

    __slots__ = ("ops", "undo")

    def __init__(self) -> None:
        self.undo: list[UndoRecord] = []
        self.ops: list[AnyOp] = []

    def record(self, restore: Restore, key: object, old: object) -> None:
        """How to undo a change: ``restore(key, old)``."""
        self.undo.append((restore, key, old))

    def record_undo(self, fn: Callable[[], None]) -> None:
        self.undo.append((_call, None, fn))

    def record_op(self, op: AnyOp) -> None:
        self.ops.append(op)

    def mark(self) -> tuple[int, int]:
        """Where the undo records and store operations stand now (see rollback_to)."""
        return len(self.undo), len(self.ops)

    def rollback_to(self, mark: tuple[int, int]) -> None:
        """Undoes, newest first, what was recorded since ``mark`` and drops its store operations."""
        undo_mark, ops_mark = mark
        undo = self.undo
        while len(undo) > undo_mark:
            restore, key, old = undo.pop()
            restore(key, old)
        del self.ops[ops_mark:]

    def changed_since(self, mark: tuple[int, int]) -> bool:
        """Whether a store operation was recorded since ``mark``."""
        return len(self.ops) > mark[1]

    def take(self) -> tuple[list[UndoRecord], list[AnyOp]]:
        """What was recorded, for a Batch; the transaction starts empty again."""
        undo, ops = self.undo, self.ops
        self.undo = []
        self.ops = []
        return undo, ops

    def undo_batch(self, batch: Batch) -> None:
        """Undoes a whole batch (its commit failed), newest first."""
        self.undo = batch.undo
        self.ops = []
        self.rollback_to((0, 0))
        self.undo = []
