"""The definitions in memory: queues (by name) and the objects of every kind of formats/kinds.tsv (by MQOT_* type and name)."""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver import kinds
from pcfserver.engine.store import AttrValue, ObjValue


@dataclass(frozen=True, slots=True)
class Queue:
    """A queue definition.  Never mutated once in the registry: changes make a new record."""

    name: str
    qtype: int
    attrs: dict[int, AttrValue]


@dataclass(frozen=True, slots=True)
class NamedObject:
    """One object (a channel, a process, ...).  Never mutated once registered: a change makes a new record."""

    name: str
    attrs: dict[int, ObjValue]


class Objects:
    """Every object of every kind, by MQOT_* type and name."""

    __slots__ = ("by_type", "touched")

    def __init__(self) -> None:
        self.by_type: dict[int, dict[str, NamedObject]] = {kind.object_type: {} for kind in kinds.kinds()}
        # Names changed (made, replaced, deleted, or an undo of either) since a watcher last took them, by type: the
        # publish/subscribe engine follows topic objects and subscriptions through it without scanning them all.
        self.touched: dict[int, set[str]] = {object_type: set() for object_type in self.by_type}

    def touch(self, object_type: int, name: str) -> None:
        self.touched[object_type].add(name)

    def take_touched(self, object_type: int) -> set[str]:
        names = self.touched[object_type]
        self.touched[object_type] = set()
        return names

    def get(self, object_type: int, name: str) -> NamedObject | None:
        table = self.by_type.get(object_type)
        return None if table is None else table.get(name)

    def names(self, object_type: int) -> list[str]:
        return sorted(self.by_type[object_type])
