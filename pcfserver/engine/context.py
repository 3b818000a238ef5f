"""What the engine's rooms (object kinds, authority records, the message layer) may ask of the queue manager.

They are handed an object with this shape, never the Engine class, so no room below the engine imports it back:
the engine module imports them, not the other way round.  ``pcfserver.engine.engine.Engine`` satisfies it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pcfserver.engine.authority import AuthorityRecords
from pcfserver.engine.registry import Objects, Queue
from pcfserver.engine.store import AnyOp, AttrValue
from pcfserver.engine.transaction import Transaction


class EngineView(Protocol):
    """The queue manager as the kinds see it: its objects, its clock, its undo log and store operations."""

    objects: Objects
    authority: AuthorityRecords

    @property
    def qmgr_name(self) -> str: ...

    @property
    def ccsid(self) -> int: ...

    def now(self) -> tuple[str, str]: ...

    @property
    def transaction(self) -> Transaction: ...  # the undo records and store operations ``record`` and ``record_op`` append to

    def record_undo(self, fn: Callable[[], None]) -> None: ...

    def record(self, restore: Callable[[Any, Any], None], key: object, old: object) -> None: ...

    def record_op(self, op: AnyOp) -> None: ...

    def may_display(self, name: str, object_type: int = ...) -> bool: ...

    def issuer(self) -> str: ...  # the user the commands being applied run for (the server's: the OS user it runs as)

    def queue_exists(self, name: str) -> bool: ...

    def queue(self, name: str) -> Queue | None: ...

    def queue_names(self) -> list[str]: ...

    def set_queue_attrs(self, name: str, items: tuple[tuple[int, AttrValue], ...]) -> None: ...

    def qmgr_attr(self, pid: int) -> AttrValue: ...

    def qmgr_attrs(self) -> dict[int, AttrValue]: ...

    def mark(self) -> tuple[int, int]: ...

    def rollback_to(self, mark: tuple[int, int]) -> None: ...
