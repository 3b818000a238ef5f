"""Hooks: what a kind's commands do beyond the generic ones of ``pcfserver.engine.objects`` (a subscription named
by its SubId, a topic inquiry filtered by TopicType).  A kind registers them in ``pcfserver.engine.kinds.HOOKS``; the
modules never import ``objects`` (no import circle): they get the engine's view and plain values."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.store import ObjValue

Values = Mapping[int, object]  # a command's checked parameters (pid -> int, str, bytes or tuple)


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a kind's commands do beyond the generic ones; every field is optional.

    fill(engine, name, attrs, source, values): on Create and Copy (before the kind's rule) and when the default
        objects are made (``values`` None), sets the values the queue manager gives a new object itself (a
        subscription's SubId and creation date) in ``attrs``; ``source`` is the object a Copy copies (else None);
        ``values`` the command's checked parameters.  May raise Reject.
    find(engine, values): Change and Delete: the object the command names, when the kind names objects by more
        than their name (a subscription by SubName or SubId); None: not there.
    select(engine, values, candidates): Inquire and Inquire Names: the objects of ``candidates`` (those the name
        matches, or every object when the command gave no name) the command's own filters keep.
    report(engine, values, record): Inquire: values shown instead of the stored ones (None: not reported at all).
    deleted(engine, record, values): Delete: what else goes with the object (before it goes).
    defined(engine, record, old, values): Create, Copy and Replace: what else comes with the object once it is in
        place (``old``: the object a Replace replaced, else None), in the same unit of work; may raise Reject, which
        undoes the whole command.
    always: Inquire: attributes every answer carries, whichever were asked for (a subscription's SubId, q088040_).
    """

    fill: Callable[[EngineView, str, dict[int, ObjValue], NamedObject | None, Values | None], None] | None = None
    find: Callable[[EngineView, Values], NamedObject | None] | None = None
    select: Callable[[EngineView, Values, list[NamedObject]], list[NamedObject]] | None = None
    report: Callable[[EngineView, Values, NamedObject], dict[int, ObjValue | None]] | None = None
    deleted: Callable[[EngineView, NamedObject, Values], None] | None = None
    defined: Callable[[EngineView, NamedObject, NamedObject | None, Values], None] | None = None
    always: frozenset[int] = frozenset()
