"""Who changed what, and what was refused: the change history and the latest refused commands (sans-IO).

Every command that changes the registry, whichever interface sent it (PCF, MQSC, the REST API, the console), leaves
one history entry: when, who, through what, the command itself, and what it replaced, enough to write the MQSC that
reverts it (``pcfserver.console.history`` renders both).  The entry is a store operation of the command's own
transaction, so an acknowledged change always has its row and a change that was undone has none.  Messages (put,
get, clear, move) are not history.  The history is bounded (``formats/console.tsv``), in memory and in the table.

What it replaced, by command:

* Create or Copy onto a new name: nothing (the revert deletes it); onto an existing one (Replace): all its attributes.
* Change (an object, a queue, the queue manager): the previous values of the attributes the command names.
* Delete: all the object's attributes (the revert defines it again).
* Set and Delete Authority Record: the records it touched, before and after (the revert adds what was removed and
  removes what was added).
* Set Channel Authentication Record: the rules of the profile and type it names that it added, changed or removed,
  before and after (the revert removes a rule added, sets back one changed, adds again one removed).
* Anything else that changed the registry: nothing (no automatic revert).

Refused commands (any failed answer, and the message layer's authority refusals) go to a ring of the latest few, in
memory only: a refusal changes nothing, so there is nothing to keep.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any, Protocol, cast

from pcfserver import kinds, mq, names
from pcfserver.codec.model import Integer, Message, String
from pcfserver.engine.chlauth import ChlauthRecords
from pcfserver.engine.context import EngineView
from pcfserver.engine.store import AddHistory, CommandData, command_of
from pcfserver.engine.transaction import Transaction
from pcfserver.tables import read_table

Origin = tuple[str, str]  # (interface: PCF, MQSC, REST, console, ...; the user the shell knows, "" when none)

# What an entry's ``mode`` says the revert is.
NEW = "new"  # the object did not exist: delete it
REPLACED = "replaced"  # all its previous attributes: define it again (REPLACE)
ALTERED = "altered"  # the previous values of the attributes named: alter them back
AUTHRECS = "authrecs"  # ((profile, object type, entity type, entity, before, after), ...)
CHLAUTH = "chlauth"  # the profile's records of the type that changed: ((attrs before or (), attrs after or ()), ...)
NONE = "none"  # no automatic revert

# Commands that change messages or runtime statistics, not the registry's definitions: never history.
_NOT_HISTORY = frozenset((mq.MQCMD_CLEAR_Q, mq.MQCMD_MOVE_Q, mq.MQCMD_CLEAR_TOPIC_STRING, mq.MQCMD_RESET_Q_STATS))
# Inquiries change nothing: no work at all for them (not even a look at their target).
_INQUIRIES = frozenset(getattr(mq, name) for name in dir(mq) if name.startswith("MQCMD_INQUIRE"))
_AUTH_COMMANDS = frozenset((mq.MQCMD_SET_AUTH_REC, mq.MQCMD_DELETE_AUTH_REC))
_QUEUE_COMMANDS = frozenset((mq.MQCMD_CREATE_Q, mq.MQCMD_COPY_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_DELETE_Q))
_COPY_Q = mq.MQCMD_COPY_Q
_CHANGE_Q = mq.MQCMD_CHANGE_Q
_Q_NAME = mq.MQCA_Q_NAME
_TO_Q_NAME = mq.MQCACF_TO_Q_NAME
_Q_TYPE = mq.MQIA_Q_TYPE
_PARAMETER = attrgetter("parameter")


@cache
def settings() -> dict[str, int]:
    """formats/console.tsv: history_entries, refused_entries, sample_seconds, samples."""
    return {row["setting"]: int(row["value"]) for row in read_table("console.tsv")}


@dataclass(frozen=True, slots=True)
class Refusal:
    at: float
    user: str
    via: str
    command: Message | str  # a PCF command, or a message-layer call's words ("MQOPEN Q1 for output")
    reason: int


class Change(AddHistory):
    """A history entry, and the store operation that writes it.

    One is made before its command runs (``Audit.watch``) holding a reference to the record the command would
    replace, not a copy: a registered record (Queue, NamedObject, the queue manager's attribute dict, a channel
    authentication Record) is never mutated, a change makes a new one.  ``before`` (the plain data the revert is
    written from, what the table keeps) is worked out from it when first asked for, by the commit or by a page,
    and the reference is dropped then.  A Change (alter) keeps less: the previous values of the parameters the
    command names, in the command's order (one tuple, taken at C speed), paired with their ids when asked for;
    holding the whole replaced record until then kept a dict of every attribute alive per entry, which cost more
    (memory, the garbage collector's passes) than taking the values, in an engine whose store never commits."""

    __slots__ = ("pid", "replaced")

    def __init__(
        self, seq: int, at: float, user: str, via: str, target: str, kind: str, subtype: int, mode: str, before: tuple[object, ...] | None,
        command: Message | CommandData, keep: int = 0, replaced: object = None, pid: int = 0,
    ) -> None:
        # AddHistory's fields, set here rather than through super().__init__: one call less per change.
        self.seq = seq
        self.at = at
        self.user = user
        self.via = via
        self.target = target
        self.kind = kind
        self.subtype = subtype
        self.mode = mode
        self._before = before
        self.command = command
        self.keep = keep
        self.replaced = replaced  # the record the change replaced, until ``before`` is worked out from it
        self.pid = pid  # the parameter holding ``subtype`` (never reverted: an object keeps its type)

    def derive(self) -> tuple[object, ...]:
        # The commit's thread and the event loop's may both ask: ``replaced`` is read before ``_before`` and cleared
        # after it is set, so whichever comes second finds one or the other.
        replaced = self.replaced
        before = self._before
        if before is None:
            command = message(self)
            if self.mode == REPLACED:
                attrs = getattr(replaced, "attrs", None)
                assert isinstance(attrs, dict)
                before = tuple(attrs.items())
            else:  # ALTERED: the previous values of the attributes the command names, None for those the object lacks
                assert isinstance(replaced, tuple)
                pid = self.pid
                before = tuple([pair for pair in zip(map(_PARAMETER, command.parameters), replaced, strict=True) if pair[1] is not None and pair[0] != pid])
            self._before = before
            self.replaced = None
        return before


def message(entry: AddHistory) -> Message:
    """The entry's PCF command (made once from what the store kept when it was read back)."""
    command = entry.command
    if not isinstance(command, Message):
        command = entry.command = command_of(command)
    return command


class AuditView(EngineView, Protocol):
    """What the audit reads of the engine besides an EngineView's: the channel authentication records."""

    chlauth: ChlauthRecords


_OTHER = Change(0, 0.0, "", "", "", "", 0, NONE, (), Message(0, ()))  # what ``watch`` says of a command it has no rule for
_Watcher = Callable[[Message], Change]


def _other(command: Message) -> Change:
    return _OTHER


class Audit:
    """The engine's history and refusals; told of each command by the engine (``watch`` before, ``done`` after)."""

    def __init__(self, engine: AuditView, transaction: Transaction) -> None:
        self._engine = engine
        self._tx = transaction
        config = settings()
        self.keep = config["history_entries"]
        self.history: deque[Change] = deque(maxlen=self.keep)
        self.refused: deque[Refusal] = deque(maxlen=config["refused_entries"])
        self.clock: Callable[[], float] = time.time
        self._seq = 0
        self._forget_it = self._forget  # (one bound method, not one per change)
        self._kinds = kinds.by_command()
        # What to do before each command, by command code: None for one that is never history; absent for one
        # with no rule of its own (an entry without revert if it changes the registry).
        watchers: dict[int, _Watcher | None] = dict.fromkeys(_INQUIRIES | _NOT_HISTORY)
        watchers.update(dict.fromkeys(_QUEUE_COMMANDS, self._queue))
        for code, (_kind, verb) in self._kinds.items():
            watchers[code] = None if verb.startswith("INQUIRE") else self._object
        watchers[mq.MQCMD_CHANGE_Q_MGR] = self._qmgr
        watchers.update(dict.fromkeys(_AUTH_COMMANDS, self._authrecs))
        watchers[mq.MQCMD_SET_CHLAUTH_REC] = self._chlauth
        self._watchers = watchers

    def load(self, rows: list[tuple[int, float, str, str, str, object]]) -> None:
        for seq, at, user, via, target, data in rows[-self.keep :]:
            if not isinstance(data, tuple) or len(data) != 5:
                continue
            kind, subtype, mode, before, command = data
            if not isinstance(command, (bytes, tuple)):
                continue
            kept = cast(CommandData, command)  # (store.command_of checks it when a page asks for it)
            self.history.append(Change(seq, at, user, via, target, str(kind), int(subtype), str(mode), tuple(before), kept, self.keep))
        if rows:
            self._seq = rows[-1][0]

    # ------------------------------------------------------------------ before and after a command

    def watch(self, command: Message) -> Change | None:
        """The command's entry-to-be, holding what its target is now (called before it runs); None for a command that
        is never history."""
        watcher = self._watchers.get(command.command, _other)
        return watcher(command) if watcher is not None else None

    def _queue(self, command: Message) -> Change:
        code = command.command
        pid = _TO_Q_NAME if code == _COPY_Q else _Q_NAME
        first = command.parameters[0] if command.parameters else None  # (the name usually comes first)
        name = first.value.rstrip(" \0") if type(first) is String and first.parameter == pid else _name(command, pid)
        record = self._engine.queue(name)
        if record is None:
            return Change(0, 0.0, "", "", name, "queue", _int(command, _Q_TYPE), NEW, (), command, self.keep)
        if code == _CHANGE_Q:
            return Change(0, 0.0, "", "", name, "queue", record.qtype, ALTERED, None, command, self.keep, _previous(command, record.attrs))
        return Change(0, 0.0, "", "", name, "queue", record.qtype, REPLACED, None, command, self.keep, record)

    def _object(self, command: Message) -> Change:
        kind, verb = self._kinds[command.command]
        name = _name(command, kind.to_name if verb == "COPY" else kind.name)
        obj = self._engine.objects.get(kind.object_type, name)
        subtype = 0
        if kind.subtype:
            value = obj.attrs.get(kind.subtype) if obj is not None else None
            subtype = value if isinstance(value, int) else _int(command, kind.subtype)
        if obj is None:
            return Change(0, 0.0, "", "", name, kind.key, subtype, NEW, (), command, self.keep)
        if verb == "CHANGE":
            return Change(0, 0.0, "", "", name, kind.key, subtype, ALTERED, None, command, self.keep, _previous(command, obj.attrs), kind.subtype)
        return Change(0, 0.0, "", "", name, kind.key, subtype, REPLACED, None, command, self.keep, obj)

    def _qmgr(self, command: Message) -> Change:
        return Change(0, 0.0, "", "", "", "qmgr", 0, ALTERED, None, command, self.keep, _previous(command, self._engine.qmgr_attrs()))

    def _authrecs(self, command: Message) -> Change:
        # The records are a dict changed in place: a copy of it (an authority command is rare), compared in ``done``.
        profile = _name(command, mq.MQCACF_AUTH_PROFILE_NAME)
        return Change(0, 0.0, "", "", profile, "authrec", 0, AUTHRECS, None, command, self.keep, dict(self._engine.authority.records))

    def _chlauth(self, command: Message) -> Change:
        # A command touches the records of the profile and type it names; the records themselves are never mutated.
        profile, record_type = _name(command, mq.MQCACH_CHANNEL_NAME), _int(command, mq.MQIACF_CHLAUTH_TYPE)
        records = tuple(self._engine.chlauth.of(profile, record_type))
        return Change(0, 0.0, "", "", profile, "chlauth", record_type, CHLAUTH, None, command, self.keep, records)

    def done(self, command: Message, entry: Change, origin: Origin | None, user: str) -> None:
        """The command (``watch`` made ``entry`` of it) changed the registry: its entry, a store operation of the same
        transaction."""
        if entry is _OTHER:
            entry = Change(0, 0.0, "", "", "", "", 0, NONE, (), command, self.keep)
        elif entry.mode == AUTHRECS or entry.mode == CHLAUTH:  # their records are compared with the ones now
            self._compare(entry)
        self._seq = seq = self._seq + 1
        entry.seq = seq
        entry.at = self.clock()
        if origin is None:
            entry.via = "engine"
            entry.user = user
        else:
            entry.via, who = origin
            entry.user = who or user
        history = self.history
        dropped = history[0] if len(history) == history.maxlen else None
        history.append(entry)
        tx = self._tx
        tx.undo.append((self._forget_it, entry, dropped))
        tx.ops.append(entry)

    def _forget(self, entry: object, dropped: object) -> None:
        """Undoes ``done`` (the change was undone): its entry goes, the one it pushed out comes back."""
        history = self.history
        if history and history[-1] is entry:
            history.pop()
            if isinstance(dropped, Change):
                history.appendleft(dropped)
        assert isinstance(entry, Change)
        self._seq = entry.seq - 1

    def _compare(self, entry: Change) -> None:
        """An authority or channel authentication command's ``before``: the records it touched, before and after."""
        was = entry.replaced
        entry.replaced = None
        if entry.mode == AUTHRECS:
            assert isinstance(was, dict)
            now = self._engine.authority.records
            touched = [(*key, tuple(sorted(was.get(key, ()))), tuple(sorted(now.get(key, ()))))
                       for key in sorted(set(was) | set(now)) if was.get(key) != now.get(key)]
            entry._before = tuple(touched)
            if not entry.target and touched:
                entry.target = touched[0][0]
            return
        assert isinstance(was, tuple)
        before = {record.ident: record for record in was}
        after = {record.ident: record for record in self._engine.chlauth.of(entry.target, entry.subtype)}
        entry._before = tuple((tuple(before[i].attrs.items()) if i in before else (), tuple(after[i].attrs.items()) if i in after else ())
                              for i in dict.fromkeys((*before, *after)) if before.get(i) is not after.get(i))

    # ------------------------------------------------------------------ refusals

    def refuse(self, command: Message | str, reason: int, origin: Origin | None, user: str) -> None:
        via, who = origin if origin is not None else ("engine", "")
        self.refused.append(Refusal(self.clock(), who or user, via, command, reason))


# What an inquiry answers when nothing matches: not a refusal (the console's overview listed DISPLAY CHSTATUS(*) of a
# queue manager with no running channel among the refused commands, beside real refusals).
_NOTHING_FOUND = frozenset((
    mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_CHL_STATUS_NOT_FOUND, mq.MQRCCF_NONE_FOUND, mq.MQRC_NO_SUBSCRIPTION,
    mq.MQRC_UNKNOWN_ENTITY, mq.MQRCCF_CHANNEL_NOT_FOUND,
))


def found_nothing(command: Message, reason: int) -> bool:
    """Whether a failed answer is an inquiry (Inquire ...) that found nothing to report."""
    return reason in _NOTHING_FOUND and (names.command_name(command.command) or "").startswith("MQCMD_INQUIRE")


def _int(command: Message, pid: int) -> int:
    item = command.get(pid)
    return item.value if isinstance(item, Integer) else 0


def _name(command: Message, pid: int) -> str:
    item = command.get(pid)
    return item.value.rstrip(" \0") if isinstance(item, String) else ""


def _previous(command: Message, attrs: dict[int, Any]) -> tuple[object, ...]:
    """The values ``attrs`` holds for the command's parameters, in its order (None where it holds none)."""
    return tuple(map(attrs.get, map(_PARAMETER, command.parameters)))
