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

from pcfserver import kinds, mq
from pcfserver.codec.decoder import decode
from pcfserver.codec.model import Integer, Message, String
from pcfserver.engine.context import EngineView
from pcfserver.engine.store import AddHistory
from pcfserver.engine.transaction import Transaction
from pcfserver.tables import read_table

Origin = tuple[str, str]  # (interface: PCF, MQSC, REST, console, ...; the user the shell knows, "" when none)

# What an entry's ``mode`` says the revert is.
NEW = "new"  # the object did not exist: delete it
REPLACED = "replaced"  # all its previous attributes: define it again (REPLACE)
ALTERED = "altered"  # the previous values of the attributes named: alter them back
AUTHRECS = "authrecs"  # ((profile, object type, entity type, entity, before, after), ...)
NONE = "none"  # no automatic revert

# Commands that change messages or runtime statistics, not the registry's definitions: never history.
_NOT_HISTORY = frozenset((mq.MQCMD_CLEAR_Q, mq.MQCMD_MOVE_Q, mq.MQCMD_CLEAR_TOPIC_STRING, mq.MQCMD_RESET_Q_STATS))
_AUTH_COMMANDS = frozenset((mq.MQCMD_SET_AUTH_REC, mq.MQCMD_DELETE_AUTH_REC))
_QUEUE_VERBS = {mq.MQCMD_CREATE_Q: "CREATE", mq.MQCMD_COPY_Q: "COPY", mq.MQCMD_CHANGE_Q: "CHANGE", mq.MQCMD_DELETE_Q: "DELETE"}


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


Change = AddHistory  # a history entry is the store operation that writes it


def message(entry: Change) -> Message:
    """The entry's PCF command (decoded once when it was read back from the store)."""
    command = entry.command
    if isinstance(command, bytes):
        command = entry.command = decode(command)[0]
    return command


@dataclass(slots=True)
class _Watch:
    """What a watched command's target was before it ran."""

    kind: str
    target: str
    subtype: int
    record: object  # the Queue, NamedObject or qmgr attribute dict (never mutated: a change makes a new one), or None
    verb: str
    subtype_pid: int = 0  # the parameter that holds ``subtype`` (never reverted: an object keeps its type)


class Audit:
    """The engine's history and refusals; told of each command by the engine (``watch`` before, ``done`` after)."""

    def __init__(self, engine: EngineView, transaction: Transaction) -> None:
        self._engine = engine
        self._tx = transaction
        config = settings()
        self.keep = config["history_entries"]
        self.history: deque[Change] = deque(maxlen=self.keep)
        self.refused: deque[Refusal] = deque(maxlen=config["refused_entries"])
        self.clock: Callable[[], float] = time.time
        self._seq = 0
        self._kinds = kinds.by_command()

    def load(self, rows: list[tuple[int, float, str, str, str, object]]) -> None:
        for seq, at, user, via, target, data in rows[-self.keep :]:
            if not isinstance(data, tuple) or len(data) != 5:
                continue
            kind, subtype, mode, before, command = data
            self.history.append(Change(seq, at, user, via, target, str(kind), int(subtype), str(mode), tuple(before), bytes(command), self.keep))
        if rows:
            self._seq = rows[-1][0]

    # ------------------------------------------------------------------ before and after a command

    def watch(self, command: Message) -> object:
        """What the command's target is now (called before it runs), or None for a command that is never history."""
        code = command.command
        if code in _NOT_HISTORY:
            return None
        engine = self._engine
        verb = _QUEUE_VERBS.get(code)
        if verb is not None:
            name = _name(command, mq.MQCACF_TO_Q_NAME if verb == "COPY" else mq.MQCA_Q_NAME)
            record = engine.queue(name)
            qtype = record.qtype if record is not None else _int(command, mq.MQIA_Q_TYPE)
            return _Watch("queue", name, qtype, record, verb)
        found = self._kinds.get(code)
        if found is not None:
            kind, verb = found
            if verb.startswith("INQUIRE"):
                return None
            name = _name(command, kind.to_name if verb == "COPY" else kind.name)
            obj = engine.objects.get(kind.object_type, name)
            subtype = 0
            if kind.subtype:
                value = obj.attrs.get(kind.subtype) if obj is not None else None
                subtype = value if isinstance(value, int) else _int(command, kind.subtype)
            return _Watch(kind.key, name, subtype, obj, verb, kind.subtype)
        if code == mq.MQCMD_CHANGE_Q_MGR:
            return _Watch("qmgr", "", 0, engine.qmgr_attrs(), "CHANGE")
        if code in _AUTH_COMMANDS:
            return _Watch("authrec", _name(command, mq.MQCACF_AUTH_PROFILE_NAME), 0, dict(engine.authority.records), "SET")
        return _Watch("", "", 0, None, "")

    def done(self, command: Message, watched: object, origin: Origin | None, user: str) -> None:
        """The command changed the registry: its entry, a store operation of the same transaction."""
        if not isinstance(watched, _Watch):
            return
        mode, before, target = self._before(command, watched)
        via, who = origin if origin is not None else ("engine", "")
        self._seq += 1
        entry = Change(self._seq, self.clock(), who or user, via, target, watched.kind, watched.subtype, mode, before, command, self.keep)
        history = self.history
        dropped = history[0] if len(history) == history.maxlen else None
        history.append(entry)
        tx = self._tx
        tx.record(self._forget, entry, dropped)
        tx.record_op(entry)

    def _forget(self, entry: object, dropped: object) -> None:
        """Undoes ``done`` (the change was undone): its entry goes, the one it pushed out comes back."""
        history = self.history
        if history and history[-1] is entry:
            history.pop()
            if isinstance(dropped, Change):
                history.appendleft(dropped)
        assert isinstance(entry, Change)
        self._seq = entry.seq - 1

    def _before(self, command: Message, watched: _Watch) -> tuple[str, tuple[object, ...], str]:
        record = watched.record
        target = watched.target
        if watched.kind == "authrec":
            assert isinstance(record, dict)
            now = self._engine.authority.records
            touched = [(*key, tuple(sorted(record.get(key, ()))), tuple(sorted(now.get(key, ()))))
                       for key in sorted(set(record) | set(now)) if record.get(key) != now.get(key)]
            return AUTHRECS, tuple(touched), target or (touched[0][0] if touched else "")
        if not watched.verb:
            return NONE, (), target
        if watched.kind == "qmgr":
            assert isinstance(record, dict)
            return ALTERED, _named(command, record), target
        if record is None:
            return NEW, (), target
        attrs = getattr(record, "attrs", None)
        assert isinstance(attrs, dict)
        if watched.verb == "CHANGE":
            return ALTERED, _named(command, attrs, watched.subtype_pid), target
        return REPLACED, tuple(attrs.items()), target

    # ------------------------------------------------------------------ refusals

    def refuse(self, command: Message | str, reason: int, origin: Origin | None, user: str) -> None:
        via, who = origin if origin is not None else ("engine", "")
        self.refused.append(Refusal(self.clock(), who or user, via, command, reason))


def _int(command: Message, pid: int) -> int:
    item = command.get(pid)
    return item.value if isinstance(item, Integer) else 0


def _name(command: Message, pid: int) -> str:
    item = command.get(pid)
    return item.value.rstrip(" \0") if isinstance(item, String) else ""


def _named(command: Message, attrs: dict[int, object], subtype_pid: int = 0) -> tuple[tuple[int, object], ...]:
    """The previous values of the attributes a Change names (a command cannot name the alteration stamp)."""
    return tuple([(pid, attrs[pid]) for pid in [item.parameter for item in command.parameters] if pid in attrs and pid != subtype_pid])
