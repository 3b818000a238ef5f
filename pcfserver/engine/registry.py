"""The definitions in memory: queues (by name) and the objects of every kind of formats/kinds.tsv (by MQOT_* type and name)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pcfserver import kinds, mq
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

    __slots__ = ("by_type", "listener")

    WATCHED = frozenset((-1, mq.MQOT_TOPIC))  # subscriptions (formats/kinds.tsv -1) and topics: what publish/subscribe follows

    def __init__(self) -> None:
        self.by_type: dict[int, dict[str, NamedObject]] = {kind.object_type: {} for kind in kinds.kinds()}
        # Told of every change to a subscription or topic object (made, replaced, deleted, or an undo of either) as
        # it happens: the publish/subscribe engine follows them without scanning them all, and adds a subscription
        # under the WILDCARD values its topic objects have when it is made.
        self.listener: Callable[[int, str], None] | None = None

    def get(self, object_type: int, name: str) -> NamedObject | None:
        table = self.by_type.get(object_type)
        return None if table is None else table.get(name)

    def names(self, object_type: int) -> list[str]:
        return sorted(self.by_type[object_type])

    def touch(self, object_type: int, name: str) -> None:
        """Call after the change: ``by_type`` already holds the new state."""
        if self.listener is not None and object_type in self.WATCHED:
            self.listener(object_type, name)
