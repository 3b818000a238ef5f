"""The queue registry and the commands that act on it (sans-IO: messages in, messages out).

The registry lives in memory (dicts loaded once at open); every command is validated completely
against the tables of :mod:`pcfserver.engine.spec` before anything changes, then applied to
memory with an undo record and turned into store row operations.  ``execute_batch`` commits the
row operations of all its commands in one durable transaction; if that commit fails, memory is
rolled back to the state before the batch and the changing commands are answered with an error.

Reason codes follow ``formats/commands.tsv`` (per-parameter decisions, with sources) and the
comments below for the rules that are not about one parameter.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pcfserver import mq
from pcfserver.codec.ccsid import codec_for
from pcfserver.codec.model import (
    ByteString,
    Integer,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcfserver.engine import audit, authrecs, chlauth, escape, move, objects, operations, policies, queue_status, responses, status_filter
from pcfserver.engine.authority import AuthorityRecords, Identity, command_allowed, operation_allowed
from pcfserver.engine.filters import GENERIC_NAME as _GENERIC_NAME
from pcfserver.engine.filters import OBJECT_NAME as _OBJECT_NAME
from pcfserver.engine.kinds import topic
from pcfserver.engine.messages import MQIError
from pcfserver.engine.messaging import MessageLayer, SessionState, process_user
from pcfserver.engine.monitor import Sampler
from pcfserver.engine.pubsub import PubSub
from pcfserver.engine.queues import Queues, parameter_of
from pcfserver.engine.registry import Queue as Queue  # re-exported: the rooms and tests name it here
from pcfserver.engine.responses import Reject as _Reject
from pcfserver.engine.spec import (
    DUPLICATE_REASON,
    FAMILY,
    OPERATOR_REASON,
    PARM_ID_REASON,
    STRING_LENGTH_REASON,
    Attribute,
    AttrValue,
    CommandSpec,
    Param,
    byte_text,
    expand_groups,
    spec,
)
from pcfserver.engine.store import (
    AnyOp,
    MemoryStore,
    Op,
    SetAttrs,
    SetMeta,
    SetQmgr,
    Snapshot,
    SqliteStore,
    Store,
    StoreError,
    body_bytes,
)
from pcfserver.engine.transaction import Batch as Batch  # the shells commit batches: re-exported
from pcfserver.engine.transaction import Transaction
from pcfserver.engine.transaction import _call as _call_undo
from pcfserver.tables import fill_default

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Constants used on the hot path, looked up once.
_COMMAND = mq.MQCFT_COMMAND
_COMMAND_XR = mq.MQCFT_COMMAND_XR
_LAST = mq.MQCFC_LAST
_FAILED = mq.MQCC_FAILED
_ALL = mq.MQIACF_ALL
_ALT_DATE = mq.MQCA_ALTERATION_DATE
_ALT_TIME = mq.MQCA_ALTERATION_TIME
_QMGR_NAME = mq.MQCA_Q_MGR_NAME
_NAME_LENGTH = mq.MQ_Q_NAME_LENGTH
_INT_OPERATORS = frozenset((mq.MQCFOP_LESS, mq.MQCFOP_EQUAL, mq.MQCFOP_GREATER, mq.MQCFOP_NOT_LESS, mq.MQCFOP_NOT_EQUAL, mq.MQCFOP_NOT_GREATER))
_STRING_OPERATORS = _INT_OPERATORS | {mq.MQCFOP_LIKE, mq.MQCFOP_NOT_LIKE}


# Parameter lists whose checks are remembered (see Engine._parse), the window of commands over
# which remembering must pay, and the windows it rests after one where it did not.
_PARSED_ENTRIES = 4096
_PARSE_WINDOW = 1024
_PARSE_REST = 8


def _selector_of(cmd: CommandSpec) -> int | None:
    """The parameter that lists what an inquiry shows (its values include MQIACF_ALL), if it has one."""
    return next((p.pid for p in cmd.params.values() if p.selectors is not None and mq.MQIACF_ALL in p.selectors), None)


class _Parsed:
    __slots__ = ("attrs", "filter", "qtype", "values")

    def __init__(self) -> None:
        self.values: dict[int, object] = {}
        self.attrs: dict[int, AttrValue] = {}
        self.filter: IntegerFilter | StringFilter | None = None
        self.qtype = 0


def _text(value: str, max_length: int) -> str | None:
    """A command string as the attribute value: NUL ends it, blanks pad it; None if too long.

    A string shorter than the attribute's length counts as blank-padded and characters past that
    length must be blanks (S15 MQCFST); the first NUL and what follows count as blanks (S15
    MQCHARn convention, K for command input).
    """
    nul = value.find("\0")
    if nul >= 0:
        value = value[:nul]
    if max_length and len(value) > max_length:
        if value[max_length:].strip(" "):
            return None
        value = value[:max_length]
    return value.rstrip(" ")


class Engine:
    """The command engine over one queue manager's registry.  Not thread-safe: serialise calls."""

    def __init__(self, store: Store, qmgr: str | None = None, ccsid: int | None = None) -> None:
        self._spec = spec()
        self._store = store
        self._tx = Transaction()
        self.queues = Queues(self, self._spec)
        self._queues = self.queues.by_name  # the same dictionary: the parse path reads it directly
        # The queue a name names, or None: the dictionary's own get (the message layer asks twice per put+get, and a
        # method around it was a Python call each time).
        self.queue: Callable[[str], Queue | None] = self._queues.get
        self._qmgr: dict[int, AttrValue] = {}
        self._ok_cache: dict[tuple[int, int, str], tuple[Message, ...]] = {}
        # Parameter lists already validated: by command, version and the identity of each
        # parameter object (the decoder shares equal ones); each entry keeps its objects alive.
        self._parsed: dict[tuple[int, ...], tuple[tuple[Parameter, ...], _Parsed]] = {}
        self._parse_seen = 0
        self._parse_hits = 0
        self._parse_rest = 0
        self._clock = (-1, "", "")
        self.operations = operations.Operations(self)  # channel, listener and service status (runtime only)
        self._handlers: dict[int, Callable[[Message, _Parsed], list[Message]]] = {
            mq.MQCMD_CHANGE_Q_MGR: self._change_qmgr,
            mq.MQCMD_INQUIRE_Q_MGR: self._inquire_qmgr,
            mq.MQCMD_CHANGE_Q: self.queues.change,
            mq.MQCMD_CREATE_Q: self.queues.create,
            mq.MQCMD_COPY_Q: self.queues.copy,
            mq.MQCMD_DELETE_Q: self.queues.delete,
            mq.MQCMD_CLEAR_Q: self.queues.clear,
            mq.MQCMD_INQUIRE_Q: self.queues.inquire,
            mq.MQCMD_INQUIRE_Q_NAMES: self.queues.inquire_names,
            mq.MQCMD_PING_Q_MGR: self._ping,
            mq.MQCMD_INQUIRE_Q_STATUS: lambda c, p: queue_status.inquire_q_status(self, c, p),
            mq.MQCMD_RESET_Q_STATS: lambda c, p: queue_status.reset_q_stats(self, c, p),
            mq.MQCMD_MOVE_Q: lambda c, p: move.move_q(self, c, p),
            mq.MQCMD_SET_AUTH_REC: lambda c, p: authrecs.set_auth_rec(self, c, p),
            mq.MQCMD_DELETE_AUTH_REC: lambda c, p: authrecs.delete_auth_rec(self, c, p),
            mq.MQCMD_INQUIRE_AUTH_RECS: lambda c, p: authrecs.inquire_auth_recs(self, c, p),
            mq.MQCMD_INQUIRE_ENTITY_AUTH: lambda c, p: authrecs.inquire_entity_auth(self, c, p),
            mq.MQCMD_ESCAPE: lambda command, p: escape.answer(command, p.values, self._execute_one, self._ccsid),
            mq.MQCMD_CLEAR_TOPIC_STRING: lambda command, p: topic.clear_topic_string(self, command, p.values),
            **objects.handlers(self),
            **chlauth.handlers(self),
            **policies.handlers(self),
            **self.operations.handlers(),
        }
        self.objects = objects.Objects()
        self.messaging = MessageLayer(self)
        self.pubsub = PubSub(self, self.messaging, self.queues)
        self.messaging.session_ended = self.pubsub.end_session
        self.messaging.publish_alias = self.pubsub.publish_through
        self.objects.listener = self.pubsub.changed
        self.authority = AuthorityRecords()
        self.chlauth = chlauth.ChlauthRecords()
        self.policies: dict[str, policies.Policy] = {}  # Advanced Message Security policies, by name
        self._identity: Identity | None = None  # who the commands being applied run for (None: the server)
        self.audit = audit.Audit(self, self._tx)  # the change history and the latest refused commands
        self._watch = self.audit.watch
        self.messaging.refused = self._refused_call
        settings = audit.settings()
        self.monitor = Sampler(self.messaging, settings["sample_seconds"], settings["samples"])  # sampled by the shell
        missing = set(self._spec.commands) - set(self._handlers)
        if missing:
            raise ValueError(f"commands.tsv lists commands without a handler: {sorted(missing)}")
        snapshot = store.load()
        if snapshot.meta.get("qmgr_name"):
            self._load(snapshot, qmgr, ccsid)
        else:
            self._seed(qmgr or "QM1", 819 if ccsid is None else ccsid)
        self.pubsub.matcher()  # every subscription indexed now, under the topic objects as they are at open

    # ------------------------------------------------------------------ setup

    @property
    def qmgr_name(self) -> str:
        return self._qmgr_name

    @property
    def ccsid(self) -> int:
        return self._ccsid

    def _set_identity(self, qmgr: str, ccsid: int) -> None:
        if not _OBJECT_NAME.match(qmgr):
            raise ValueError(f"queue manager name {qmgr!r} is not 1-48 characters of A-Z a-z 0-9 . / _ %")
        codec = codec_for(ccsid)
        if codec is None:
            raise ValueError(f"CCSID {ccsid} is not one the codec converts")
        self._qmgr_name = qmgr
        self._ccsid = ccsid
        self._codec = codec

    def _seed(self, qmgr: str, ccsid: int) -> None:
        """First start: the queue manager attributes and IBM's default objects (formats/default-objects.tsv)."""
        self._set_identity(qmgr, ccsid)
        date, clock = self._now()
        for attr in self._spec.qmgr_attributes.values():
            self._qmgr[attr.pid] = self._qmgr_default(attr, date, clock)
        ops: list[Op] = [
            SetMeta((("qmgr_name", qmgr), ("ccsid", str(ccsid)), ("created", f"{date} {clock}"))),
            SetQmgr(tuple(self._qmgr.items())),
        ]
        todo = objects.pending(None)
        ops += self.queues.seed(todo[objects.QUEUE_KIND])
        self._store.commit([*ops, *objects.seed(self, todo), objects.mark(None, todo), *chlauth.seed(self)])

    def _qmgr_default(self, attr: Attribute, date: str, clock: str) -> AttrValue:
        """A queue manager attribute's value at creation (qmgr-attributes.tsv's default, its @tokens filled in)."""
        value = attr.defaults[0]
        if not isinstance(value, str) or "@" not in value:
            return value
        qmgr = self._qmgr_name
        tokens: dict[str, AttrValue] = {
            "@qmgr_name": qmgr,
            "@ccsid": self._ccsid,
            "@date": date,
            "@time": clock,
            "@qmid": f"{qmgr}_{date}_{clock}",
        }
        if value in tokens:
            return tokens[value]
        return fill_default(value, qmgr)  # @cert_label, a path that names the queue manager (SSLKEYR)

    def _load(self, snapshot: Snapshot, qmgr: str | None, ccsid: int | None) -> None:
        stored_name = snapshot.meta["qmgr_name"]
        stored_ccsid = int(snapshot.meta["ccsid"])
        if qmgr is not None and qmgr != stored_name:
            raise StoreError(f"the data directory holds queue manager {stored_name}, not {qmgr}")
        if ccsid is not None and ccsid != stored_ccsid:
            raise StoreError(f"the data directory's queue manager has CCSID {stored_ccsid}, not {ccsid}")
        self._set_identity(stored_name, stored_ccsid)
        # Attributes added to the tables after the registry was written take their defaults.
        created = snapshot.meta.get("created", " ").split(" ")
        for attr in self._spec.qmgr_attributes.values():
            value = snapshot.qmgr.get(attr.pid)
            self._qmgr[attr.pid] = value if value is not None else self._qmgr_default(attr, created[0], created[-1])
        for name, (qtype, attrs) in snapshot.queues.items():
            stored = self._spec.stored.get(qtype)
            if stored is None:
                continue
            defaults = self.queues.table_defaults[qtype]
            complete = {a.pid: attrs.get(a.pid, defaults.get(a.pid, "")) for a in stored}
            self._queues[name] = Queue(name, qtype, complete)
        self.messaging.load(snapshot.messages)
        self.audit.load(snapshot.history)
        self.authority.records.update({key: frozenset(auths) for key, auths in snapshot.authrecs.items()})
        objects.load(self, snapshot)
        # Default objects added to default-objects.tsv after the registry was written (each once).
        todo = objects.pending(snapshot.meta)
        if todo:
            queues = self.queues.seed(todo.get(objects.QUEUE_KIND, ()))
            self._store.commit([*queues, *objects.seed(self, todo), objects.mark(snapshot.meta, todo)])
        policies.load(self.policies, snapshot)
        if chlauth.load(self, snapshot):
            self._store.commit(chlauth.seed(self))
        self.execute_operation(self.pubsub.recover)  # non-durable subscriptions' managed queues did not survive

    def close(self) -> None:
        """Ends every session (their units of work backed out), keeps NPMCLASS(HIGH) messages, closes the store."""
        try:
            layer = self.messaging
            if layer.sessions:

                def end_all() -> None:
                    for session in list(layer.sessions.values()):
                        layer.end_session(session)

                self.execute_operation(end_all)
            kept = layer.shutdown_ops()
            if kept:
                self._store.commit(kept)
        except Exception:
            log.exception("keeping messages at close failed")
        finally:
            self._store.close()

    # ------------------------------------------------------------------ what the message layer uses

    def queue_exists(self, name: str) -> bool:
        return name in self._queues

    def qmgr_attr(self, pid: int) -> AttrValue:
        return self._qmgr[pid]

    def qmgr_attrs(self) -> dict[int, AttrValue]:
        """The queue manager's attributes; a change makes a new dict, so identity tells a change."""
        return self._qmgr

    def record_undo(self, fn: Callable[[], None]) -> None:
        self._tx.undo.append((_call_undo, None, fn))  # Transaction.record_undo, one call less (every MQI call makes one)

    def record(self, restore: Callable[[Any, Any], None], key: object, old: object) -> None:
        """How to undo a change: ``restore(key, old)`` (Transaction.record, one call less; no closure to make)."""
        self._tx.undo.append((restore, key, old))

    def record_op(self, op: AnyOp) -> None:
        self._tx.ops.append(op)

    def mark(self) -> tuple[int, int]:
        """Where the current command's undo records and store operations stand (see rollback_to)."""
        tx = self._tx
        return len(tx.undo), len(tx.ops)  # Transaction.mark, one call less (a publication takes one per copy)

    def rollback_to(self, mark: tuple[int, int]) -> None:
        """Undoes what the current command did since ``mark`` (a MOVE batch that failed)."""
        self._tx.rollback_to(mark)

    def set_queue_attrs(self, name: str, items: tuple[tuple[int, AttrValue], ...]) -> None:
        """An implicit attribute change made by the queue manager (event switches, TriggerControl); no alteration time."""
        record = self._queues[name]
        self.queues.publish(name, Queue(name, record.qtype, {**record.attrs, **dict(items)}), SetAttrs(name, items))

    def apply_operation(self, action: Callable[[], _T]) -> tuple[_T | MQIError, Batch]:
        """Runs a message-layer call in memory; its result (or MQIError) may be released once ``commit`` returns.

        An MQIError leaves what the call did before it failed (a performance event, expired
        messages discarded): the layer checks before it changes anything else.  Any other
        exception undoes the call and is answered MQRC_UNEXPECTED_ERROR.
        """
        tx = self._tx
        tx.take()
        result = self._attempt(action)
        undo, ops = tx.take()
        return result, Batch((), [], [], undo, ops)

    def _attempt(self, action: Callable[[], _T]) -> _T | MQIError:
        """``action`` on the transaction (empty when called): its result or MQIError; any other exception undoes
        what it recorded and is MQRC_UNEXPECTED_ERROR (``execute_operation`` has the same written out)."""
        try:
            return action()
        except MQIError as exc:
            return exc
        except Exception:
            return self._unexpected_failure()

    def _unexpected_failure(self) -> MQIError:
        """What a message-layer call that raised something other than MQIError answers, once its changes are undone."""
        log.exception("message operation failed unexpectedly")
        self._tx.rollback_to((0, 0))
        return MQIError(mq.MQRC_UNEXPECTED_ERROR)

    def apply_command(self, command: Message, identity: Identity | None = None, origin: audit.Origin | None = None) -> list[Message]:
        """One PCF command inside an operation being applied (``apply_operation``), under ``identity``:
        whole or not at all, committed with the operation (the REST API's MQSC commands).  ``origin``: the
        interface and user the history and the refused commands name."""
        saved, self._identity = self._identity, identity
        mark = self._tx.mark()
        try:
            return self._audited(command, mark, origin)
        except Exception as exc:  # a bug or a resource problem: the state stays as it was
            log.exception("command failed unexpectedly")
            self._tx.rollback_to(mark)
            return self._unexpected(command, exc)
        finally:
            self._identity = saved

    def _audited(self, command: Message, mark: tuple[int, int], origin: audit.Origin | None) -> list[Message]:
        """``_execute_one``, then its history entry if it changed the registry, or its refusal if it failed."""
        entry = self._watch(command) if type(command) is Message else None
        answer = self._execute_one(command)
        if answer and answer[0].comp_code == _FAILED and not audit.found_nothing(command, answer[0].reason):
            identity = self._identity
            self.audit.refuse(command, answer[0].reason, origin, identity.user if identity is not None else "")
        elif entry is not None and len(self._tx.ops) > mark[1]:  # (Transaction.changed_since, inline)
            identity = self._identity
            self.audit.done(command, entry, origin, identity.user if identity is not None else "")
        return answer

    def _refused_call(self, session: SessionState, name: str, auth: int) -> None:
        call = {mq.MQAUTH_OUTPUT: "MQPUT", mq.MQAUTH_INPUT: "MQGET", mq.MQAUTH_BROWSE: "MQGET (browse)"}.get(auth, "MQOPEN")
        identity = session.identity
        self.audit.refuse(f"{call} {name}", mq.MQRC_NOT_AUTHORIZED, ("MQI", session.appl_name), identity.user if identity is not None else session.user)

    def execute_operation(self, action: Callable[..., _T], args: tuple[object, ...] = ()) -> _T:
        """A message-layer call, ``action(*args)``, applied and committed durably; raises its MQIError.  (``args`` as
        one tuple: the embedded API hands over the tuple its own call made, instead of unpacking and packing again.)

        ``apply_operation`` and ``commit`` in one (no Batch unless the commit fails): the embedded
        queue manager makes one of these per MQI call, so the transaction's lists are handed over only
        when there is something to commit."""
        tx = self._tx
        if tx.undo or tx.ops:
            tx.take()
        # _attempt written out (one frame less per MQI call); the arguments apart: no partial or closure per call
        failed: MQIError | None = None
        try:
            result = action(*args)
        except MQIError as exc:
            failed = exc
        except Exception:
            failed = self._unexpected_failure()
        ops = tx.ops
        if ops:
            undo, ops = tx.take()
            try:
                self._store.commit(ops)
            except Exception as exc:
                self.abort(Batch((), [], [], undo, ops), exc)
                raise MQIError(mq.MQRC_RESOURCE_PROBLEM) from exc
        elif tx.undo:
            tx.undo.clear()  # (nobody else holds this list: take() was not called on it)
        if failed is not None:
            raise failed
        return result

    # ------------------------------------------------------------------ time

    def _now(self) -> tuple[str, str]:
        """Date "yyyy-mm-dd" and time "hh.mm.ss" (local time), formatted once per second."""
        second = int(time.time())
        if second != self._clock[0]:
            local = time.localtime(second)
            self._clock = (second, time.strftime("%Y-%m-%d", local), time.strftime("%H.%M.%S", local))
        return self._clock[1], self._clock[2]

    now = _now  # the rooms' name for it (a plain alias: no extra call on the hot path)

    # ------------------------------------------------------------------ execution

    def remove_object_records(self, name: str, object_type: int, values: dict[int, object]) -> None:
        """A deleted object's own authority records go with it (authrecs.remove_object_records)."""
        authrecs.remove_object_records(self, name, object_type, values)

    def issuer(self) -> str:
        """The user the commands being applied run for: the identity's, else the OS user the server runs as (as a
        connection that names no user, formats/messaging-rules.tsv user identifier)."""
        return self._identity.user if self._identity is not None else process_user()

    def may_display(self, name: str, object_type: int = mq.MQOT_Q) -> bool:
        """Whether the identity the commands run for may see the object (a queue unless said) in a generic inquiry's answer."""
        return operation_allowed(self.authority, self._identity, object_type, name, mq.MQAUTH_DISPLAY)

    def execute(self, command: Message, identity: Identity | None = None, origin: audit.Origin | None = None) -> list[Message]:
        """One command: its responses, after any change it made is durably committed."""
        return self.execute_batch((command,), identity, origin)[0]

    def execute_batch(self, commands: Sequence[Message], identity: Identity | None = None, origin: audit.Origin | None = None) -> list[list[Message]]:
        """Several commands in order, all committed in one durable transaction before return.

        Each command applies whole or not at all.  If the commit itself fails, no command of the
        batch changed anything and every changing command is answered MQRC_UNEXPECTED_ERROR.
        """
        answers, batch = self.apply_batch(commands, identity, origin)
        try:
            self.commit(batch)
        except Exception as exc:
            return self.abort(batch, exc)
        return answers

    def apply_batch(
        self, commands: Sequence[Message], identity: Identity | None = None, origin: audit.Origin | None = None
    ) -> tuple[list[list[Message]], Batch]:
        """Applies commands in memory only; their answers may be released once ``commit`` returns.

        For group commit pipelined over time: a server may apply the next batch while this one's
        ``commit`` runs in another thread (``commit`` touches only the store), provided it commits
        batches in order and, when a commit fails, aborts every later batch first, newest first.
        """
        self._identity = identity  # ``identity`` (None: the server's own authority) is checked per command
        tx = self._tx
        tx.take()
        answers: list[list[Message]] = []
        changed: list[bool] = []
        for command in commands:
            mark = tx.mark()
            try:
                answer = self._audited(command, mark, origin)
            except Exception as exc:  # a bug or a resource problem: the state stays as it was
                log.exception("command failed unexpectedly")
                tx.rollback_to(mark)
                answer = self._unexpected(command, exc)
            answers.append(answer)
            changed.append(tx.changed_since(mark))
        undo, ops = tx.take()
        return answers, Batch(tuple(commands), answers, changed, undo, ops)

    def commit(self, batch: Batch) -> None:
        """Makes a batch's changes durable (one transaction); safe to run in a worker thread."""
        if batch.ops:
            self._store.commit(batch.ops)

    def commit_owing(self, batch: Batch) -> int | None:
        """Writes a batch's changes (one transaction) and leaves the sync that makes them durable to :meth:`settle`,
        which must run before anything reflecting them is answered (pcfserver.engine.wal).  The answer is an eventfd
        that is readable once that sync has ended, when the kernel does it on an io_uring; else None."""
        if batch.ops:
            return self._store.commit_owing(batch.ops)
        return None

    def settle(self) -> None:
        """Returns once every change written is durable; raises if the disk failed to make one durable."""
        self._store.settle()

    def sync_events(self) -> bool:
        """Whether :meth:`commit_owing` may answer an eventfd to wait on (the store syncs on an io_uring)."""
        return self._store.sync_events()

    @staticmethod
    def body_bytes(batch: Batch) -> int:
        """The bytes of message bodies a batch's commit writes (what makes one commit cost more than another)."""
        return body_bytes(batch.ops)

    def abort(self, batch: Batch, exc: BaseException) -> list[list[Message]]:
        """Undoes a batch whose commit failed; its answers, with MQRC_UNEXPECTED_ERROR for every changing command."""
        log.error("committing %d store operations failed: %s", len(batch.ops), exc)
        self._tx.undo_batch(batch)
        return [self._unexpected(c, exc) if did else a for c, a, did in zip(batch.commands, batch.answers, batch.changed, strict=True)]

    def _unexpected(self, command: object, exc: BaseException) -> list[Message]:
        """MQRC_UNEXPECTED_ERROR with MQIACF_ERROR_ID holding the reason the server met (S16)."""
        if isinstance(exc, sqlite3.Error):
            inner = mq.MQRC_STORAGE_MEDIUM_FULL if "full" in str(exc).lower() else mq.MQRC_RESOURCE_PROBLEM
        else:
            inner = mq.MQRC_UNEXPECTED_ERROR
        target: Message | int = command if isinstance(command, Message) else 0
        try:
            return responses.error_responses(target, mq.MQRC_UNEXPECTED_ERROR, inner, error_parameter=mq.MQIACF_ERROR_ID)
        except Exception:  # a header too broken to answer in kind: answer with a plain one
            code = command.command if isinstance(command, Message) and isinstance(command.command, int) else 0
            return responses.error_responses(code, mq.MQRC_UNEXPECTED_ERROR, inner, error_parameter=mq.MQIACF_ERROR_ID)

    def _restore_qmgr(self, _key: object, old: object) -> None:
        assert isinstance(old, dict)
        self._qmgr = old

    def _execute_one(self, command: Message) -> list[Message]:
        if type(command) is not Message:
            return responses.error_responses(0, mq.MQRC_UNEXPECTED_ERROR, mq.MQRC_UNEXPECTED_ERROR, error_parameter=mq.MQIACF_ERROR_ID)
        if command.error is not None:  # a tolerant decoder's malformed span
            return responses.error_responses(command, command.error.reason, command.error.parameter_id)
        kind = command.type
        if kind != _COMMAND and kind != _COMMAND_XR:
            return responses.error_responses(command, mq.MQRCCF_CFH_TYPE_ERROR)
        if not 1 <= command.version <= 3:
            return responses.error_responses(command, mq.MQRCCF_CFH_VERSION_ERROR)
        if command.msg_seq_number != 1:
            return responses.error_responses(command, mq.MQRCCF_CFH_MSG_SEQ_NUMBER_ERR)
        if command.control != _LAST:
            return responses.error_responses(command, mq.MQRCCF_CFH_CONTROL_ERROR)
        if command.warnings:  # a rule the decoder let pass (server mode): the first one is the answer
            first = command.warnings[0]
            return responses.error_responses(command, first.reason, first.parameter_id)
        cmd_spec = self._spec.commands.get(command.command)
        if cmd_spec is None:
            if command.command in self._spec.known_commands:
                return responses.error_responses(command, mq.MQRC_FUNCTION_NOT_SUPPORTED)
            return responses.error_responses(command, mq.MQRCCF_CFH_COMMAND_ERROR)
        mark = self._tx.mark()
        try:
            parsed = self._parse(cmd_spec, command)
            if self._identity is not None and not command_allowed(self.authority, self._identity, command.command, parsed.values, self._qmgr_name):
                raise _Reject(mq.MQRC_NOT_AUTHORIZED)
            if parsed.filter is not None and cmd_spec.filter_table:
                return status_filter.run_filtered(self._handlers[command.command], command, parsed, _selector_of(cmd_spec))
            return self._handlers[command.command](command, parsed)
        except _Reject as reject:
            self._tx.rollback_to(mark)  # a refusal after a change (a hook's: DEFINE SUB's managed queue) leaves nothing
            return responses.error_responses(command, reject.reason, reject.parameter, error_parameter=reject.error_parameter)
        except MQIError as error:
            self._tx.rollback_to(mark)
            return responses.error_responses(command, error.reason)

    def _ok(self, command: Message) -> list[Message]:
        """The one-message success answer, cached (messages are immutable)."""
        key = (command.command, command.version, command.byte_order)
        cached = self._ok_cache.get(key)
        if cached is None:
            cached = self._ok_cache[key] = tuple(responses.success(command))
        return list(cached)

    # ------------------------------------------------------------------ validation

    def _parse(self, cmd: CommandSpec, command: Message) -> _Parsed:
        """The command's parameters, checked (read-only: the result may be shared).

        The checks depend only on the command, its version and its parameters, which are
        immutable, so a parameter list that passed once passes again the same way.  A server's
        decoder hands out the same parameter objects for equal parameters, so repeated commands
        (the same change to a few queues, a monitor's inquiries) are recognised by identity.
        Remembering costs a little on every command, so when a window of commands found almost
        nothing (every command new: a bulk definition, say) the next few windows do not try.
        """
        self._parse_seen += 1
        if self._parse_seen >= _PARSE_WINDOW:
            self._next_parse_window()
        if self._parse_rest:
            return self._check(cmd, command)
        items = command.parameters
        key = (command.command, command.version, *map(id, items))
        hit = self._parsed.get(key)
        if hit is not None:
            self._parse_hits += 1
            return hit[1]
        parsed = self._check(cmd, command)
        if len(self._parsed) >= _PARSED_ENTRIES:
            self._parsed.clear()  # (dropping the oldest instead costs a scan past deleted slots)
        self._parsed[key] = (tuple(items), parsed)
        return parsed

    def _next_parse_window(self) -> None:
        if self._parse_rest:
            self._parse_rest -= 1
        elif self._parse_hits * 8 < self._parse_seen:  # under one in eight found
            self._parse_rest = _PARSE_REST
            self._parsed.clear()
        self._parse_seen = 0
        self._parse_hits = 0

    def _check(self, cmd: CommandSpec, command: Message) -> _Parsed:
        """Every parameter-level check, in message order; the first failure rejects the command."""
        items = command.parameters
        required = cmd.required
        n_required = len(required)
        if len(items) < n_required:
            raise _Reject(mq.MQRCCF_PARM_COUNT_TOO_SMALL)
        if len(items) > cmd.max_params:
            raise _Reject(mq.MQRCCF_PARM_COUNT_TOO_BIG)
        params = cmd.params
        out = _Parsed()
        values = out.values
        attrs = out.attrs
        seen: dict[int, int] = {}
        qtype = 0
        subtype = cmd.subtype
        for index, item in enumerate(items):
            cls = type(item)
            pid = item.parameter
            if cls is IntegerFilter or cls is StringFilter:
                assert isinstance(item, (IntegerFilter, StringFilter))
                if index < n_required:
                    self._out_of_place(required[index], items, index)
                out.filter = self._check_filter(cmd, command, item, out.filter)
                continue
            param = params.get(pid)
            if param is None or param.cls is not cls or param.zos:
                raise _Reject(PARM_ID_REASON.get(cls, mq.MQRCCF_STRUCTURE_TYPE_ERROR), pid)
            if index < n_required and param is not required[index]:
                self._out_of_place(required[index], items, index)
            family = FAMILY[cls]
            if seen.get(pid) == family:
                raise _Reject(DUPLICATE_REASON[cls], pid)
            seen[pid] = family
            if param.applies is not None and qtype and qtype not in param.applies:
                raise _Reject(param.applies_reason or PARM_ID_REASON[cls], pid)
            if cls is Integer:
                assert isinstance(item, Integer)
                value = item.value
                if not param.value_ok(value):
                    raise _Reject(param.value_reason, pid)
                if pid == subtype:
                    qtype = value
                values[pid] = value
                if param.attribute is not None:
                    attrs[pid] = value
            elif cls is String:
                assert isinstance(item, String)
                text = _text(item.value, param.max_length)
                if text is None:
                    raise _Reject(mq.MQRCCF_CFST_STRING_LENGTH_ERR, pid)
                rule = param.name_rule
                if rule:
                    self._check_name(text, rule, pid, param.name_reason)
                if text and param.attribute is not None:
                    try:
                        text.encode(self._codec)
                    except UnicodeEncodeError:
                        raise _Reject(mq.MQRCCF_PARM_VALUE_ERROR, pid) from None
                values[pid] = text
                if param.attribute is not None:
                    attrs[pid] = text
            elif cls is IntegerList:
                assert isinstance(item, IntegerList)
                if param.attribute is not None:  # an attribute that is a list (a channel's COMPHDR)
                    for number in item.values:
                        if not param.value_ok(number):
                            raise _Reject(param.value_reason, pid)
                    values[pid] = item.values
                else:
                    values[pid] = self._check_selectors(param, item.values)
            elif cls is StringList:
                assert isinstance(item, StringList)
                texts = tuple(_text(v, param.max_length) for v in item.values)
                if any(t is None for t in texts):
                    raise _Reject(mq.MQRCCF_CFSL_STRING_LENGTH_ERR, pid)
                values[pid] = texts
            elif cls is ByteString:
                assert isinstance(item, ByteString)
                data = item.value
                if param.max_length and len(data) > param.max_length:
                    raise _Reject(mq.MQRCCF_CFBS_STRING_LENGTH_ERR, pid)
                values[pid] = data
                if param.attribute is not None:  # kept as upper-case hex, padded with nulls (spec.byte_text)
                    attrs[pid] = byte_text(data, param.max_length)
            else:  # a structure type the tables accept but the engine does not interpret
                raise _Reject(PARM_ID_REASON.get(cls, mq.MQRCCF_STRUCTURE_TYPE_ERROR), pid)
        out.qtype = qtype
        return out

    @staticmethod
    def _out_of_place(expected: Param, items: Sequence[Parameter], index: int) -> None:
        """A required parameter is not where it must be: later on (sequence) or absent (missing)."""
        for later in items[index + 1 :]:
            if later.parameter == expected.pid:
                raise _Reject(mq.MQRCCF_PARM_SEQUENCE_ERROR, expected.pid)
        raise _Reject(mq.MQRCCF_PARM_MISSING, expected.pid)

    @staticmethod
    def _check_name(text: str, rule: str, pid: int, reason: int = 0) -> None:
        """``reason``: the kind's own for refused characters (a channel's 4044); blank stays MQRCCF_PARM_VALUE_ERROR."""
        if not text:
            raise _Reject(mq.MQRCCF_PARM_VALUE_ERROR, pid)
        if _OBJECT_NAME.match(text):
            return
        if rule == "generic" and _GENERIC_NAME.match(text):
            return
        raise _Reject(reason or mq.MQRCCF_OBJECT_NAME_ERROR, pid)

    @staticmethod
    def _check_selectors(param: Param, selectors: tuple[int, ...]) -> tuple[int, ...]:
        allowed = param.selectors
        seen: set[int] = set()
        for value in selectors:
            if value in seen:
                raise _Reject(mq.MQRCCF_CFIL_DUPLICATE_VALUE, value, mq.MQIACF_SELECTOR)
            seen.add(value)
            if allowed is not None and value not in allowed:
                raise _Reject(param.value_reason, value, mq.MQIACF_SELECTOR)
            if allowed is None and param.values is not None and value not in param.values:
                raise _Reject(param.value_reason, value, mq.MQIACF_SELECTOR)
        return selectors

    def _check_filter(
        self, cmd: CommandSpec, command: Message, item: IntegerFilter | StringFilter, current: IntegerFilter | StringFilter | None
    ) -> IntegerFilter | StringFilter:
        cls = type(item)
        pid = item.parameter
        if not cmd.allow_filter:
            raise _Reject(PARM_ID_REASON[cls], pid)
        if command.version < 3:  # filters need MQCFH version 3 (S15)
            raise _Reject(mq.MQRCCF_STRUCTURE_TYPE_ERROR, pid)
        if current is not None:
            raise _Reject(mq.MQRCCF_TOO_MANY_FILTERS, pid)
        attr = self._spec.attributes_of(cmd.filter_table or cmd.kind).get(pid)
        wanted = "MQCFIN" if cls is IntegerFilter else "MQCFST"
        if attr is None or attr.zos or attr.struct != wanted:
            raise _Reject(PARM_ID_REASON[cls], pid)
        if cls is IntegerFilter:
            if item.operator not in _INT_OPERATORS:
                raise _Reject(OPERATOR_REASON[cls], pid)
            return item
        assert isinstance(item, StringFilter)
        if item.operator not in _STRING_OPERATORS:
            raise _Reject(OPERATOR_REASON[cls], pid)
        text = _text(item.value, attr.max_length)
        if text is None:
            raise _Reject(STRING_LENGTH_REASON[cls], pid)
        return StringFilter(pid, item.operator, text, item.ccsid)

    # ------------------------------------------------------------------ queue manager

    def _change_qmgr(self, command: Message, p: _Parsed) -> list[Message]:
        ccsid = p.attrs.get(mq.MQIA_CODED_CHAR_SET_ID)
        if ccsid is not None and (not isinstance(ccsid, int) or codec_for(ccsid) is None):
            raise _Reject(mq.MQRCCF_CCSID_ERROR, mq.MQIA_CODED_CHAR_SET_ID)
        date, clock = self._now()
        items = (*p.attrs.items(), (_ALT_DATE, date), (_ALT_TIME, clock))
        self._tx.record(self._restore_qmgr, None, self._qmgr)
        self._qmgr = {**self._qmgr, **dict(items)}
        self._tx.record_op(SetQmgr(items))
        if ccsid is not None:  # the queue manager converts in it from its next start (qmgr-attributes.tsv)
            self._tx.record_op(SetMeta((("ccsid", str(ccsid)),)))
        return self._ok(command)

    def _ping(self, command: Message, p: _Parsed) -> list[Message]:
        return self._ok(command)

    # ------------------------------------------------------------------ inquiries

    def _inquire_qmgr(self, command: Message, p: _Parsed) -> list[Message]:
        selectors = p.values.get(mq.MQIACF_Q_MGR_ATTRS, (_ALL,))
        assert isinstance(selectors, tuple)
        everything = _ALL in selectors
        if not everything:  # DISPLAY QMGR EVENT: the group's attributes
            selectors = expand_groups(selectors, self._spec.qmgr_groups)
        qmgr = self._qmgr
        params: list[Parameter] = [String(_QMGR_NAME, self._qmgr_name.ljust(_NAME_LENGTH), self._ccsid)]
        for attr in self._spec.qmgr_reported:
            if everything or attr.pid in selectors:
                params.append(parameter_of(attr, qmgr[attr.pid], self._ccsid))
        return responses.numbered([responses.ok_response(command, tuple(params))])

    def queue_names(self) -> list[str]:
        return self.queues.names()

    # ------------------------------------------------------------------ what the rooms use

    @property
    def transaction(self) -> Transaction:
        """The transaction of what is being applied (undo records and store operations)."""
        return self._tx

    ok = _ok  # the rooms' name for the cached success answer

def open_engine(data_dir: Path | None = None, qmgr: str | None = None, ccsid: int | None = None) -> Engine:
    """An engine over ``data_dir`` (SQLite registry, created at first start) or in memory (None).

    ``qmgr`` (default QM1) and ``ccsid`` (default 819) name the queue manager at first start; an
    existing registry keeps its own and refuses different explicit values.
    """
    store: Store = MemoryStore() if data_dir is None else SqliteStore(Path(data_dir))
    try:
        return Engine(store, qmgr, ccsid)
    except BaseException:
        store.close()
        raise
