"""What the engine's rooms (object kinds, authority records, the message layer) may ask of the queue manager.

They are handed an object with this shape, never the Engine class, so no room below the engine imports it back:
the engine module imports them, not the other way round.  ``pcfserver.engine.engine.Engine`` satisfies it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pcfserver.engine.registry import Objects
from pcfserver.engine.store import AnyOp


class EngineView(Protocol):
    """The queue manager as the kinds see it: its objects, its clock, its undo log and store operations."""

    objects: Objects

    @property
    def qmgr_name(self) -> str: ...

    @property
    def ccsid(self) -> int: ...

    def now(self) -> tuple[str, str]: ...

    def record_undo(self, fn: Callable[[], None]) -> None: ...

    def record_op(self, op: AnyOp) -> None: ...

    def may_display(self, name: str, object_type: int = ...) -> bool: ...

    def queue_exists(self, name: str) -> bool: ...

    def qmgr_attr(self, pid: int) -> int | str: ...
