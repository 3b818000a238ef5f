"""The operational commands: channels, listeners and services started and stopped, their status, and the security,
cluster and pub/sub commands of a queue manager whose channels carry no message traffic.

Status is runtime state, kept in memory only (a queue manager that restarts starts with no channel, listener or
service status, as IBM's does), never in the store.  The engine stays sans-IO: what needs the network (a listener's
port, a sender reaching its partner, a service's program) is asked of a :class:`Network` the server shell hands in
(``pcfserver.server.listeners``).  Without one (an engine in a console process) the choices of
``formats/operations.md`` apply: a listener is recorded as running without a port, a sender retries, a ping finds no
partner and no service program runs.

Reason codes and their sources are in ``formats/commands.tsv``; the choices IBM leaves open in ``formats/operations.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from pcfserver import mq
from pcfserver.codec.model import ByteString, Integer, IntegerList, Message, Parameter, String
from pcfserver.engine import objects, responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.filters import generic_match
from pcfserver.engine.pubsub_status import StatusInquiries
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.spec import expand_groups, spec
from pcfserver.tables import read_table, value_of

_CONNECTION_ID_LENGTH = 24  # MQ_CONNECTION_ID_LENGTH: EXTCONN (16 bytes, the queue manager's prefix), then CONN (8)
_EXTCONN_LENGTH = 16
_ALL = mq.MQIACF_ALL
# A session's connect options as DISPLAY CONN shows them: a local binding whose handles are shared (K, conn-attributes.tsv).
_CONNECT_OPTIONS = (mq.MQCNO_HANDLE_SHARE_BLOCK, mq.MQCNO_SHARED_BINDING)
# A channel's monitoring indicators (short and long term): blank while its monitoring is off, 0,0 when it is on (a
# channel here carries no traffic to measure).
_INDICATORS = (
    mq.MQIACH_XMITQ_TIME_INDICATOR, mq.MQIACH_NETWORK_TIME_INDICATOR, mq.MQIACH_EXIT_TIME_INDICATOR,
    mq.MQIACH_BATCH_SIZE_INDICATOR, mq.MQIACH_COMPRESSION_RATE, mq.MQIACH_COMPRESSION_TIME,
)
_NOT_AVAILABLE = (mq.MQMON_NOT_AVAILABLE, mq.MQMON_NOT_AVAILABLE)
_NO_TRAFFIC = (0, 0)
# Current-only channel status fields taken from the channel's definition (BATCHSZ, HBINT, KAINT, MAXMSGL, NPMSPEED,
# MCAUSER, SSLCIPH): a partner would negotiate some of them; none is here.
_FROM_DEFINITION = (
    mq.MQIACH_BATCH_SIZE, mq.MQIACH_HB_INTERVAL, mq.MQIACH_KEEP_ALIVE_INTERVAL, mq.MQIACH_MAX_MSG_LENGTH,
    mq.MQIACH_NPM_SPEED, mq.MQCACH_MCA_USER_ID, mq.MQCACH_SSL_CIPHER_SPEC,
)
_NO_LUWID = "0" * 16
# The port a listener with PORT(0) listens on: IBM's default (q085630_: "0 ... the default port number 1414").
DEFAULT_PORT = 1414
# The backlog a listener with BACKLOG(0) uses and shows (100 on Linux: [INSTANA] DISPLAY LSSTATUS).
DEFAULT_BACKLOG = 100
_SENDING = frozenset((mq.MQCHT_SENDER, mq.MQCHT_SERVER, mq.MQCHT_CLUSSDR))
_NO_START = frozenset((mq.MQCHT_CLNTCONN,))
_NO_RESET = frozenset((mq.MQCHT_SVRCONN, mq.MQCHT_CLNTCONN))
# Types whose START only enables them (q088420_ usage notes): no status until a partner connects.
_ENABLE_ONLY = frozenset((mq.MQCHT_RECEIVER, mq.MQCHT_SVRCONN, mq.MQCHT_CLUSRCVR, mq.MQCHT_AMQP, mq.MQCHT_MQTT))
_ACTIVE = frozenset((mq.MQCHS_RUNNING, mq.MQCHS_BINDING, mq.MQCHS_STARTING, mq.MQCHS_RETRYING, mq.MQCHS_REQUESTING))
# The fields Inquire Channel Status returns when no attribute list is given (q087560_ "always returned").
_CHSTATUS_ALWAYS = frozenset(
    (
        mq.MQCACH_CHANNEL_NAME,
        mq.MQIACH_CHANNEL_TYPE,
        mq.MQCACH_CONNECTION_NAME,
        mq.MQIACH_CHANNEL_INSTANCE_TYPE,
        mq.MQCA_REMOTE_Q_MGR_NAME,
        mq.MQIACH_CHANNEL_STATUS,
        mq.MQIACH_CHANNEL_SUBSTATE,
        mq.MQCACH_XMIT_Q_NAME,
    )
)


def _table(name: str) -> tuple[tuple[int, int], ...]:
    """(parameter, max_length) of each row of a status table, in its order (0 for integers)."""
    return tuple((value_of(r["parameter"]), int(r["max_length"] or 0)) for r in read_table(f"{name}-attributes.tsv"))


_T = TypeVar("_T")


class Parsed(Protocol):
    values: dict[int, object]


class Network(Protocol):
    """What the server shell does for the engine (pcfserver.server.listeners.ShellNetwork)."""

    run_services: bool  # START SERVICE runs programs (serve --run-services)
    listen_host: str  # where a listener with a blank IPADDR listens (the server's --host): DISPLAY LSSTATUS shows it

    def open_listener(self, name: str, host: str, port: int, backlog: int) -> str | None:
        """Listens on host:port now; None when it does, else why it cannot (the port is in use ...)."""
        ...

    def close_listener(self, name: str) -> None:
        """Stops accepting on the listener's port; connections it accepted go on."""
        ...

    def probe(self, channel: str, conname: str) -> None:
        """Tries to reach a sender's partner in the background; reports with ``Operations.reached``."""
        ...

    def reachable(self, conname: str) -> bool:
        """Whether a TCP connection to CONNAME's host(port) can be made now (PING CHANNEL)."""
        ...

    def start_service(self, name: str, command: str, arguments: str, server: bool, stdout: str = "", stderr: str = "") -> int | str:
        """Runs a service's program (its output appended to the STDOUT/STDERR files, if named): its process id, or
        why it did not run (services not allowed, ...)."""
        ...

    def service_running(self, name: str) -> bool:
        """Whether a SERVER service's program still runs."""
        ...

    def stop_service(self, name: str, command: str, arguments: str) -> None:
        """Runs a service's stop program."""
        ...


@dataclass(slots=True)
class ChannelStatus:
    name: str
    chltype: int
    conname: str
    xmitq: str
    status: int
    date: str
    time: str
    remote: str = ""


@dataclass(slots=True)
class RunStatus:
    """A running listener or service."""

    name: str
    date: str
    time: str
    pid: int
    values: dict[int, int | str] = field(default_factory=dict)


class Operations:
    """The runtime status of channels, listeners and services, and the commands on them."""

    def __init__(self, engine: EngineView) -> None:
        self.engine = engine
        self.network: Network | None = None
        self.channels: dict[str, ChannelStatus] = {}
        self.listeners: dict[str, RunStatus] = {}
        self.services: dict[str, RunStatus] = {}
        self._chstatus = _table("chstatus")
        self._lsstatus = _table("lsstatus")
        self._svstatus = _table("svstatus")
        self._pubsub = _table("pubsub")
        self._qmstatus = _table("qmstatus")
        self._conn = _table("conn")
        self._clusqmgr = _table("clusqmgr")
        self.started = engine.now()  # the queue manager's start (DISPLAY QMSTATUS STARTDA, STARTTI)
        self._pubsub_status = StatusInquiries(self)  # DISPLAY TPSTATUS and SBSTATUS (engine/pubsub_status.py)

    def handlers(self) -> dict[int, Callable[[Message, Parsed], list[Message]]]:
        return {
            mq.MQCMD_START_CHANNEL: self.start_channel,
            mq.MQCMD_STOP_CHANNEL: self.stop_channel,
            mq.MQCMD_PING_CHANNEL: self.ping_channel,
            mq.MQCMD_RESET_CHANNEL: self.reset_channel,
            mq.MQCMD_RESOLVE_CHANNEL: self.resolve_channel,
            mq.MQCMD_INQUIRE_CHANNEL_STATUS: self.inquire_channel_status,
            mq.MQCMD_START_CHANNEL_LISTENER: self.start_listener,
            mq.MQCMD_STOP_CHANNEL_LISTENER: self.stop_listener,
            mq.MQCMD_INQUIRE_LISTENER_STATUS: self.inquire_listener_status,
            mq.MQCMD_START_SERVICE: self.start_service,
            mq.MQCMD_STOP_SERVICE: self.stop_service,
            mq.MQCMD_INQUIRE_SERVICE_STATUS: self.inquire_service_status,
            mq.MQCMD_REFRESH_SECURITY: self.refresh_security,
            mq.MQCMD_REFRESH_CLUSTER: self._accepted,
            mq.MQCMD_RESET_CLUSTER: self._accepted,
            mq.MQCMD_RESET_Q_MGR: self.reset_q_mgr,
            mq.MQCMD_SUSPEND_Q_MGR_CLUSTER: self.suspend_resume,
            mq.MQCMD_RESUME_Q_MGR_CLUSTER: self.suspend_resume,
            mq.MQCMD_INQUIRE_CLUSTER_Q_MGR: self.inquire_cluster_q_mgr,
            mq.MQCMD_INQUIRE_PUBSUB_STATUS: self.inquire_pubsub_status,
            mq.MQCMD_INQUIRE_TOPIC_STATUS: self._pubsub_status.inquire_topic_status,
            mq.MQCMD_INQUIRE_SUB_STATUS: self._pubsub_status.inquire_sub_status,
            mq.MQCMD_INQUIRE_Q_MGR_STATUS: self.inquire_qmgr_status,
            mq.MQCMD_INQUIRE_CONNECTION: self.inquire_connection,
            mq.MQCMD_STOP_CONNECTION: self.stop_connection,
            **self._guarded_deletes(),
        }

    def _guarded_deletes(self) -> dict[int, Callable[[Message, Parsed], list[Message]]]:
        """Delete Channel, Listener and Service refuse what runs (K codes: formats/operations.md) and drop its status."""
        inner = objects.handlers(self.engine)
        guards = (
            (mq.MQCMD_DELETE_CHANNEL, mq.MQCACH_CHANNEL_NAME, self.channels, mq.MQRCCF_CHANNEL_IN_USE),
            (mq.MQCMD_DELETE_LISTENER, mq.MQCACH_LISTENER_NAME, self.listeners, mq.MQRCCF_LISTENER_STILL_ACTIVE),
            (mq.MQCMD_DELETE_SERVICE, mq.MQCA_SERVICE_NAME, self.services, mq.MQRCCF_SERVICE_RUNNING),
        )
        out: dict[int, Callable[[Message, Parsed], list[Message]]] = {}
        for code, pid, table, reason in guards:
            out[code] = partial(self._delete, inner[code], pid, table, reason)
        return out

    def _delete(self, inner: Callable[[Message, Any], list[Message]], pid: int, table: dict[str, Any], reason: int, command: Message, p: Parsed) -> list[Message]:
        name = self._name(p, pid)
        current = table.get(name)
        if current is not None and (not isinstance(current, ChannelStatus) or current.status in _ACTIVE):
            raise Reject(reason)
        answer = inner(command, p)
        if current is not None and answer and answer[0].comp_code == mq.MQCC_OK:
            self._keep(table, name)
            del table[name]
        return answer

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _values(p: Parsed) -> dict[int, object]:
        return p.values

    def _name(self, p: Parsed, pid: int) -> str:
        value = self._values(p)[pid]
        assert isinstance(value, str)
        return value

    def _object(self, object_type: int, name: str, missing: int = mq.MQRC_UNKNOWN_OBJECT_NAME) -> NamedObject:
        record = self.engine.objects.get(object_type, name)
        if record is None:
            raise Reject(missing)
        return record

    def _string(self, pid: int, value: str, length: int) -> String:
        return String(pid, value.ljust(length) if length else value, self.engine.ccsid)

    def _fields(
        self, command: Message, table: tuple[tuple[int, int], ...], values: Mapping[int, int | str | bytes | tuple[int, ...]], chosen: frozenset[int]
    ) -> Message:
        params: list[Parameter] = []
        everything = _ALL in chosen
        for index, (pid, length) in enumerate(table):
            if index and not everything and pid not in chosen:
                continue
            value = values.get(pid)
            if value is None:
                continue
            if isinstance(value, bytes):
                params.append(ByteString(pid, value))
            elif isinstance(value, tuple):
                params.append(IntegerList(pid, value))
            else:
                params.append(self._string(pid, value, length) if isinstance(value, str) else Integer(pid, value))
        return responses.ok_response(command, tuple(params))

    def fields(self, command: Message, table: tuple[tuple[int, int], ...], values: Mapping[int, int | str | bytes], chosen: frozenset[int]) -> Message:
        """One status response (the table's first row always, the others chosen); MQCFH version 2 when it carries a
        byte string (IBM's MQCFBS page)."""
        answer = self._fields(command, table, values, chosen)
        if answer.version < 2 and any(isinstance(item, ByteString) for item in answer.parameters):
            answer = replace(answer, version=2)
        return answer

    def _accepted(self, command: Message, p: Parsed) -> list[Message]:
        return responses.success(command)

    @staticmethod
    def _ignore(p: Parsed) -> bool:
        return Operations._values(p).get(mq.MQIACF_IGNORE_STATE) == mq.MQIS_YES

    def _keep(self, table: dict[str, _T], name: str) -> None:
        """Records how to put ``table[name]`` back if the command's batch is undone."""
        old = table.get(name)

        def undo() -> None:
            if old is None:
                table.pop(name, None)
            else:
                table[name] = old

        self.engine.record_undo(undo)

    # ------------------------------------------------------------------ channels

    def _channel(self, p: Parsed) -> tuple[str, NamedObject, int]:
        name = self._name(p, mq.MQCACH_CHANNEL_NAME)
        record = self._object(mq.MQOT_CHANNEL, name, mq.MQRCCF_CHANNEL_NOT_FOUND)
        chltype = record.attrs.get(mq.MQIACH_CHANNEL_TYPE, 0)
        assert isinstance(chltype, int)
        return name, record, chltype

    @staticmethod
    def _text(record: NamedObject, pid: int) -> str:
        value = record.attrs.get(pid, "")
        return value if isinstance(value, str) else ""

    @staticmethod
    def _int(record: NamedObject, pid: int, default: int) -> int:
        value = record.attrs.get(pid, default)
        return value if isinstance(value, int) else default

    def start_channel(self, command: Message, p: Parsed) -> list[Message]:
        name, record, chltype = self._channel(p)
        if chltype in _NO_START:
            raise Reject(mq.MQRCCF_CHANNEL_TYPE_ERROR)
        current = self.channels.get(name)
        if current is not None and current.status in _ACTIVE:
            raise Reject(mq.MQRCCF_CHANNEL_IN_USE)
        self._keep(self.channels, name)
        if chltype in _ENABLE_ONLY:
            self.channels.pop(name, None)  # enabled: a stopped status is cleared, none is made
            return responses.success(command)
        conname = self._text(record, mq.MQCACH_CONNECTION_NAME).strip()
        date, clock = self.engine.now()
        if not conname and chltype == mq.MQCHT_SERVER:  # a server with no CONNAME waits for a requester (K: STARTING)
            status = mq.MQCHS_STARTING
        elif not conname or self.network is None:
            status = mq.MQCHS_RETRYING
        else:
            status = mq.MQCHS_BINDING
        self.channels[name] = ChannelStatus(name, chltype, conname, self._text(record, mq.MQCACH_XMIT_Q_NAME), status, date, clock)
        if status == mq.MQCHS_BINDING and self.network is not None:
            self.network.probe(name, conname)
        return responses.success(command)

    def reached(self, name: str, ok: bool, remote: str = "") -> bool:
        """A probe's outcome (the shell calls it): RUNNING when the partner answered (``remote``: the queue manager it
        names, shown as RQMNAME), else RETRYING.  False when the channel no longer waits for it (stopped meanwhile):
        the shell stops probing."""
        current = self.channels.get(name)
        if current is None or current.status not in (mq.MQCHS_BINDING, mq.MQCHS_RETRYING, mq.MQCHS_RUNNING):
            return False
        current.status = mq.MQCHS_RUNNING if ok else mq.MQCHS_RETRYING
        current.remote = remote if ok else ""
        return True

    def stop_channel(self, command: Message, p: Parsed) -> list[Message]:
        name, _record, _chltype = self._channel(p)
        values = self._values(p)
        current = self.channels.get(name)
        wanted = values.get(mq.MQIACH_CHANNEL_STATUS, mq.MQCHS_STOPPED)
        if current is None:
            raise Reject(mq.MQRCCF_CHANNEL_NOT_ACTIVE)
        self._keep(self.channels, name)
        if wanted == mq.MQCHS_INACTIVE:
            del self.channels[name]
        else:
            self.channels[name] = replace(current, status=mq.MQCHS_STOPPED)
        return responses.success(command)

    def ping_channel(self, command: Message, p: Parsed) -> list[Message]:
        _name, record, chltype = self._channel(p)
        if chltype not in _SENDING:
            raise Reject(mq.MQRCCF_CHANNEL_TYPE_ERROR)
        current = self.channels.get(_name)
        if current is not None and current.status == mq.MQCHS_RUNNING:
            raise Reject(mq.MQRCCF_CHANNEL_IN_USE)
        conname = self._text(record, mq.MQCACH_CONNECTION_NAME).strip()
        if not conname or self.network is None or not self.network.reachable(conname):
            raise Reject(mq.MQRCCF_HOST_NOT_AVAILABLE)
        count = self._values(p).get(mq.MQIACH_DATA_COUNT, 64)
        assert isinstance(count, int)
        return responses.numbered([responses.ok_response(command, (Integer(mq.MQIACH_DATA_COUNT, count),))])

    def reset_channel(self, command: Message, p: Parsed) -> list[Message]:
        name, _record, chltype = self._channel(p)
        if chltype in _NO_RESET:
            raise Reject(mq.MQRCCF_CHANNEL_TYPE_ERROR)
        current = self.channels.get(name)
        if current is not None and current.status == mq.MQCHS_RUNNING:
            raise Reject(mq.MQRCCF_CHANNEL_IN_USE)
        return responses.success(command)

    def resolve_channel(self, command: Message, p: Parsed) -> list[Message]:
        _name, _record, chltype = self._channel(p)
        if chltype not in _SENDING:
            raise Reject(mq.MQRCCF_CHANNEL_TYPE_ERROR)
        return responses.success(command)

    def _channel_values(self, status: ChannelStatus) -> dict[int, int | str | tuple[int, ...]]:
        running = status.status == mq.MQCHS_RUNNING
        monitoring = self._monitoring(status.name)
        return {
            mq.MQCACH_CHANNEL_NAME: status.name,
            mq.MQIACH_CHANNEL_TYPE: status.chltype,
            mq.MQCACH_CONNECTION_NAME: status.conname,
            mq.MQIACH_CHANNEL_INSTANCE_TYPE: mq.MQOT_CURRENT_CHANNEL,
            mq.MQCA_REMOTE_Q_MGR_NAME: status.remote,
            mq.MQIACH_CHANNEL_STATUS: status.status,
            mq.MQIACH_CHANNEL_SUBSTATE: mq.MQCHSSTATE_IN_MQGET if running else mq.MQCHSSTATE_OTHER,
            mq.MQCACH_XMIT_Q_NAME: status.xmitq,
            mq.MQIACH_BATCHES: 0,
            mq.MQIACH_BUFFERS_RECEIVED: 0,
            mq.MQIACH_BUFFERS_SENT: 0,
            mq.MQIACH_BYTES_RECEIVED: 0,
            mq.MQIACH_BYTES_SENT: 0,
            mq.MQCACH_CHANNEL_START_DATE: status.date,
            mq.MQCACH_CHANNEL_START_TIME: status.time,
            mq.MQIACH_CURRENT_MSGS: 0,
            mq.MQIACH_CURRENT_SEQ_NUMBER: 0,
            mq.MQIACH_INDOUBT_STATUS: mq.MQCHIDS_NOT_INDOUBT,
            mq.MQIACH_LONG_RETRIES_LEFT: 999999999,
            mq.MQCACH_LAST_MSG_DATE: "",
            mq.MQCACH_LAST_MSG_TIME: "",
            mq.MQCACH_MCA_JOB_NAME: f"{os.getpid():016X}",
            mq.MQIACH_MCA_STATUS: mq.MQMCAS_RUNNING if running else mq.MQMCAS_STOPPED,
            mq.MQIACH_MSGS: 0,
            mq.MQIACH_SHORT_RETRIES_LEFT: 10,
            mq.MQIACH_STOP_REQUESTED: 0,
            **self._negotiated(status.name, running),
            mq.MQIA_MONITORING_CHANNEL: monitoring,
            **dict.fromkeys(_INDICATORS, _NO_TRAFFIC if monitoring != mq.MQMON_OFF else _NOT_AVAILABLE),
            **({mq.MQIACH_XMITQ_MSGS_AVAILABLE: self._xmitq_depth(status.xmitq)} if status.xmitq else {}),
        }

    def _negotiated(self, name: str, running: bool) -> dict[int, int | str]:
        """The current-only fields a channel instance agrees with its partner: here its definition's values (nothing
        is negotiated), the partner a queue manager of this server's level while it runs, no TLS session, no batch."""
        record = self.engine.objects.get(mq.MQOT_CHANNEL, name)
        attrs = record.attrs if record is not None else {}
        out: dict[int, int | str] = {pid: value for pid in _FROM_DEFINITION if isinstance(value := attrs.get(pid), (int, str))}
        version = self.engine.qmgr_attr(mq.MQCA_VERSION)
        return {
            **out,
            mq.MQCACH_LOCAL_ADDRESS: "",
            mq.MQCACH_REMOTE_PRODUCT: "MQMM" if running else "",
            mq.MQCACH_REMOTE_VERSION: str(version) if running else "",
            mq.MQCACH_SSL_SHORT_PEER_NAME: "",
            mq.MQIACH_SSL_KEY_RESETS: 0,
            mq.MQCACH_SSL_KEY_RESET_DATE: "",
            mq.MQCACH_SSL_KEY_RESET_TIME: "",
            mq.MQCACH_CURRENT_LUWID: _NO_LUWID,
            mq.MQCACH_LAST_LUWID: _NO_LUWID,
            mq.MQIACH_LAST_SEQ_NUMBER: 0,
        }

    def _xmitq_depth(self, xmitq: str) -> int:
        """XQMSGSA: the messages on the transmission queue the channel would take (none here: the depth)."""
        layer = getattr(self.engine, "messaging", None)
        return int(layer.status(xmitq)[0]) if layer is not None else 0

    def _monitoring(self, name: str) -> int:
        """A channel's online monitoring level in effect: its MONCHL, or the queue manager's for MONCHL(QMGR) (none: off)."""
        record = self.engine.objects.get(mq.MQOT_CHANNEL, name)
        level = record.attrs.get(mq.MQIA_MONITORING_CHANNEL, mq.MQMON_Q_MGR) if record is not None else mq.MQMON_Q_MGR
        if level == mq.MQMON_Q_MGR:
            level = self.engine.qmgr_attr(mq.MQIA_MONITORING_CHANNEL)
        return level if isinstance(level, int) and level in (mq.MQMON_LOW, mq.MQMON_MEDIUM, mq.MQMON_HIGH) else mq.MQMON_OFF

    def inquire_channel_status(self, command: Message, p: Parsed) -> list[Message]:
        values = self._values(p)
        pattern = self._name(p, mq.MQCACH_CHANNEL_NAME)
        if values.get(mq.MQIACH_CHANNEL_INSTANCE_TYPE, mq.MQOT_CURRENT_CHANNEL) == mq.MQOT_SAVED_CHANNEL:
            raise Reject(mq.MQRCCF_CHL_STATUS_NOT_FOUND)
        selectors = values.get(mq.MQIACH_CHANNEL_INSTANCE_ATTRS)
        chosen = frozenset(expand_groups(selectors, spec().status_groups["chstatus"])) if isinstance(selectors, tuple) else _CHSTATUS_ALWAYS
        chosen = chosen | _CHSTATUS_ALWAYS
        conname = values.get(mq.MQCACH_CONNECTION_NAME)
        xmitq = values.get(mq.MQCACH_XMIT_Q_NAME)
        out = []
        for name in sorted(self.channels):
            status = self.channels[name]
            if not generic_match(pattern, name) or not self.engine.may_display(name, mq.MQOT_CHANNEL):
                continue
            if (conname and status.conname != conname) or (xmitq and status.xmitq != xmitq):
                continue
            out.append(self._fields(command, self._chstatus, self._channel_values(status), chosen))
        if not out:
            raise Reject(mq.MQRCCF_CHL_STATUS_NOT_FOUND)
        return responses.numbered(out)

    # ------------------------------------------------------------------ listeners

    def listener_address(self, record: NamedObject) -> tuple[str, int, int]:
        """Where a listener listens: IPADDR (blank: every address), PORT (0: 1414), BACKLOG (0: 100)."""
        host = self._text(record, mq.MQCACH_IP_ADDRESS).strip()
        port = record.attrs.get(mq.MQIACH_PORT, 0)
        backlog = record.attrs.get(mq.MQIACH_BACKLOG, 0)
        assert isinstance(port, int) and isinstance(backlog, int)
        return host, port or DEFAULT_PORT, backlog or DEFAULT_BACKLOG

    def start_listener(self, command: Message, p: Parsed) -> list[Message]:
        name = self._name(p, mq.MQCACH_LISTENER_NAME)
        record = self._object(mq.MQOT_LISTENER, name)
        if name in self.listeners:
            if self._ignore(p):
                return responses.success(command)
            raise Reject(mq.MQRCCF_LISTENER_RUNNING)
        problem = self.run_listener(record)
        if problem is not None:
            raise Reject(mq.MQRCCF_LISTENER_NOT_STARTED)
        return responses.success(command)

    def _blank_ipaddr(self) -> str:
        """What DISPLAY LSSTATUS shows for a blank IPADDR: * (every interface, as IBM MQ listens), unless the server
        listens on one address only (its --host, 127.0.0.1 by default), which it then names rather than claim *."""
        where = self.network.listen_host if self.network is not None else ""
        return "*" if where in ("", "0.0.0.0", "::") else where

    def run_listener(self, record: NamedObject) -> str | None:
        """Starts a listener (a command, or the server starting its CONTROL(QMGR) ones): None, or why it did not."""
        host, port, backlog = self.listener_address(record)
        if self.network is not None:
            problem = self.network.open_listener(record.name, host, port, backlog)
            if problem is not None:
                return problem
        date, clock = self.engine.now()
        self._keep(self.listeners, record.name)
        self.listeners[record.name] = RunStatus(
            record.name,
            date,
            clock,
            os.getpid(),
            {
                mq.MQCACH_LISTENER_NAME: record.name,
                mq.MQIACH_LISTENER_STATUS: mq.MQSVC_STATUS_RUNNING,
                mq.MQIACF_PROCESS_ID: os.getpid(),
                mq.MQCACH_LISTENER_START_DATE: date,
                mq.MQCACH_LISTENER_START_TIME: clock,
                mq.MQCACH_LISTENER_DESC: self._text(record, mq.MQCACH_LISTENER_DESC),
                mq.MQIACH_XMIT_PROTOCOL_TYPE: self._int(record, mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP),
                mq.MQIACH_LISTENER_CONTROL: self._int(record, mq.MQIACH_LISTENER_CONTROL, mq.MQSVC_CONTROL_MANUAL),
                mq.MQCACH_IP_ADDRESS: host or self._blank_ipaddr(),
                mq.MQIACH_PORT: port,
                mq.MQIACH_BACKLOG: backlog,
            },
        )
        return None

    def stop_listener(self, command: Message, p: Parsed) -> list[Message]:
        name = self._name(p, mq.MQCACH_LISTENER_NAME)
        self._object(mq.MQOT_LISTENER, name)
        if name not in self.listeners:
            if self._ignore(p):
                return responses.success(command)
            raise Reject(mq.MQRCCF_LISTENER_STOPPED)
        self._keep(self.listeners, name)
        del self.listeners[name]
        if self.network is not None:
            self.network.close_listener(name)
        return responses.success(command)

    def qmgr_listeners(self) -> list[NamedObject]:
        """The listeners that start with the queue manager: CONTROL(QMGR) and CONTROL(STARTONLY)."""
        table = self.engine.objects.by_type[mq.MQOT_LISTENER]
        starting = (mq.MQSVC_CONTROL_Q_MGR, mq.MQSVC_CONTROL_Q_MGR_START)
        return [table[n] for n in sorted(table) if table[n].attrs.get(mq.MQIACH_LISTENER_CONTROL) in starting]

    def _statuses(self, command: Message, p: Parsed, pid: int, table: dict[str, RunStatus], rows: tuple[tuple[int, int], ...], selectors: int, object_type: int, missing: int) -> list[Message]:
        values = self._values(p)
        pattern = self._name(p, pid)
        chosen = values.get(selectors, (_ALL,))
        assert isinstance(chosen, tuple)
        out = [
            self._fields(command, rows, table[n].values, frozenset(chosen))
            for n in sorted(table)
            if generic_match(pattern, n) and self.engine.may_display(n, object_type)
        ]
        if not out:
            raise Reject(missing)
        return responses.numbered(out)

    def inquire_listener_status(self, command: Message, p: Parsed) -> list[Message]:
        return self._statuses(
            command, p, mq.MQCACH_LISTENER_NAME, self.listeners, self._lsstatus, mq.MQIACF_LISTENER_STATUS_ATTRS,
            mq.MQOT_LISTENER, mq.MQRCCF_LSTR_STATUS_NOT_FOUND,
        )

    # ------------------------------------------------------------------ services

    def start_service(self, command: Message, p: Parsed) -> list[Message]:
        name = self._name(p, mq.MQCA_SERVICE_NAME)
        record = self._object(mq.MQOT_SERVICE, name)
        start = self._text(record, mq.MQCA_SERVICE_START_COMMAND).strip()
        if not start:
            raise Reject(mq.MQRCCF_NO_START_CMD)
        if name in self.services:
            if self._ignore(p):
                return responses.success(command)
            raise Reject(mq.MQRCCF_SERVICE_RUNNING)
        server = record.attrs.get(mq.MQIA_SERVICE_TYPE) == mq.MQSVC_TYPE_SERVER
        args = self._fill(self._text(record, mq.MQCA_SERVICE_START_ARGS))
        self._prune()
        outcome: int | str = "no server shell runs programs"
        if self.network is not None:
            outputs = (self._fill(self._text(record, mq.MQCA_STDOUT_DESTINATION)), self._fill(self._text(record, mq.MQCA_STDERR_DESTINATION)))
            outcome = self.network.start_service(name, self._fill(start), args, server, *outputs)
        if isinstance(outcome, int) and server:
            date, clock = self.engine.now()
            self._keep(self.services, name)
            self.services[name] = RunStatus(name, date, clock, outcome, self._service_values(record, date, clock, outcome))
        # IBM answers a start it could not carry out as accepted: the failure goes to the error log (formats/operations.md).
        return responses.success(command)

    def services_run(self) -> bool:
        """Whether START SERVICE runs the service's program here (a server started with --run-services)."""
        return self.network is not None and self.network.run_services

    def _fill(self, text: str) -> str:
        """A service command's inserts (q085740_): +QMNAME+ is the queue manager's name, +MQ_SERVER_PID+ this server's."""
        return text.replace("+QMNAME+", self.engine.qmgr_name).replace("+MQ_SERVER_PID+", str(os.getpid()))

    def _service_values(self, record: NamedObject, date: str, clock: str, pid: int) -> dict[int, int | str]:
        out: dict[int, int | str] = {
            mq.MQCA_SERVICE_NAME: record.name,
            mq.MQIACF_SERVICE_STATUS: mq.MQSVC_STATUS_RUNNING,
            mq.MQIACF_PROCESS_ID: pid,
            mq.MQCACF_SERVICE_START_DATE: date,
            mq.MQCACF_SERVICE_START_TIME: clock,
        }
        for pid_ in (
            mq.MQCA_SERVICE_DESC, mq.MQIA_SERVICE_CONTROL, mq.MQIA_SERVICE_TYPE, mq.MQCA_SERVICE_START_COMMAND,
            mq.MQCA_SERVICE_START_ARGS, mq.MQCA_SERVICE_STOP_COMMAND, mq.MQCA_SERVICE_STOP_ARGS,
            mq.MQCA_STDOUT_DESTINATION, mq.MQCA_STDERR_DESTINATION,
        ):
            value = record.attrs.get(pid_)
            if isinstance(value, (int, str)):
                out[pid_] = value
        return out

    def stop_service(self, command: Message, p: Parsed) -> list[Message]:
        name = self._name(p, mq.MQCA_SERVICE_NAME)
        record = self._object(mq.MQOT_SERVICE, name)
        stop = self._text(record, mq.MQCA_SERVICE_STOP_COMMAND).strip()
        if not stop:
            raise Reject(mq.MQRCCF_NO_STOP_CMD)
        if name not in self.services:
            if self._ignore(p):
                return responses.success(command)
            raise Reject(mq.MQRCCF_SERVICE_STOPPED)
        self._keep(self.services, name)
        del self.services[name]
        if self.network is not None:
            self.network.stop_service(name, self._fill(stop), self._fill(self._text(record, mq.MQCA_SERVICE_STOP_ARGS)))
        return responses.success(command)

    def _prune(self) -> None:
        """Forgets SERVER services whose program has ended (IBM's status goes when the process goes)."""
        if self.network is None:
            return
        for name in [n for n in self.services if not self.network.service_running(n)]:
            self._keep(self.services, name)
            del self.services[name]

    def inquire_service_status(self, command: Message, p: Parsed) -> list[Message]:
        self._prune()
        return self._statuses(
            command, p, mq.MQCA_SERVICE_NAME, self.services, self._svstatus, mq.MQIACF_SERVICE_STATUS_ATTRS,
            mq.MQOT_SERVICE, mq.MQRCCF_SERV_STATUS_NOT_FOUND,
        )

    # ------------------------------------------------------------------ security, clusters, pub/sub

    def refresh_security(self, command: Message, p: Parsed) -> list[Message]:
        if self._values(p).get(mq.MQIACF_SECURITY_TYPE) == mq.MQSECTYPE_CLASSES:  # z/OS only
            raise Reject(mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIACF_SECURITY_TYPE)
        return responses.success(command)

    def reset_q_mgr(self, command: Message, p: Parsed) -> list[Message]:
        """RESET QMGR (formats/commands.tsv MQCMD_RESET_Q_MGR): this queue manager keeps no MQ log, collects no
        statistics messages and has no hierarchy, so what it accepts changes nothing; what needs linear logging or
        archive log management is refused as a circular-logging queue manager refuses it."""
        values = self._values(p)
        action = values.get(mq.MQIACF_ACTION)
        if action in (mq.MQACT_ADVANCE_LOG, mq.MQACT_ARCHIVE_LOG):
            raise Reject(mq.MQRCCF_LOG_TYPE_ERROR, mq.MQIACF_ACTION)
        if action == mq.MQACT_PUBSUB:
            child, parent = values.get(mq.MQCA_CHILD), values.get(mq.MQCA_PARENT)
            if not child and not parent:
                raise Reject(mq.MQRCCF_PARM_MISSING, mq.MQCA_PARENT)
            if child and parent:
                raise Reject(mq.MQRCCF_PARM_CONFLICT, mq.MQCA_CHILD)
        return responses.success(command)

    def suspend_resume(self, command: Message, p: Parsed) -> list[Message]:
        values = self._values(p)
        cluster = values.get(mq.MQCA_CLUSTER_NAME)
        namelist = values.get(mq.MQCA_CLUSTER_NAMELIST)
        if not cluster and not namelist:
            raise Reject(mq.MQRCCF_PARM_MISSING, mq.MQCA_CLUSTER_NAME)
        if cluster and namelist:
            raise Reject(mq.MQRCCF_CLUSTER_NAME_CONFLICT)
        if namelist:
            assert isinstance(namelist, str)
            self._object(mq.MQOT_NAMELIST, namelist)
        return responses.success(command)

    def inquire_cluster_q_mgr(self, command: Message, p: Parsed) -> list[Message]:
        """DISPLAY CLUSQMGR: what this queue manager knows without a partner (formats/clusqmgr-attributes.tsv)."""
        values = self._values(p)
        pattern = self._name(p, mq.MQCA_CLUSTER_Q_MGR_NAME)
        clusters, channel = str(values.get(mq.MQCA_CLUSTER_NAME) or "*"), str(values.get(mq.MQCACH_CHANNEL_NAME) or "*")
        chosen = values.get(mq.MQIACF_CLUSTER_Q_MGR_ATTRS, (_ALL,))
        assert isinstance(chosen, tuple)
        shown = frozenset(chosen) | {mq.MQCACH_CHANNEL_NAME, mq.MQCA_CLUSTER_NAME}
        out = [
            self._fields(command, self._clusqmgr, entry, shown)
            for entry in self._cluster_entries()
            if generic_match(pattern, str(entry[mq.MQCA_CLUSTER_Q_MGR_NAME]))
            and generic_match(clusters, str(entry[mq.MQCA_CLUSTER_NAME])) and generic_match(channel, str(entry[mq.MQCACH_CHANNEL_NAME]))
        ]
        if not out:
            raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME)
        return responses.numbered(out)

    def _cluster_entries(self) -> list[dict[int, int | str]]:
        """This queue manager once for each cluster a CLUSRCVR joins, and the target of each CLUSSDR (SYSTEM.TEMPQMGR.
        <CONNAME> until a partner answers, which none does here), in channel name order."""
        engine = self.engine
        qmgr = engine.qmgr_attrs()
        repos = {str(qmgr.get(mq.MQCA_REPOSITORY_NAME, "")).strip(), *self._namelist(str(qmgr.get(mq.MQCA_REPOSITORY_NAMELIST, "")))} - {""}
        out: list[dict[int, int | str]] = []
        channels = engine.objects.by_type.get(mq.MQOT_CHANNEL, {})
        for name in sorted(channels):
            attrs = channels[name].attrs
            kind = attrs.get(mq.MQIACH_CHANNEL_TYPE)
            if kind not in (mq.MQCHT_CLUSRCVR, mq.MQCHT_CLUSSDR):
                continue
            conname = str(attrs.get(mq.MQCACH_CONNECTION_NAME, "")).strip()
            names = [str(attrs.get(mq.MQCA_CLUSTER_NAME, "")).strip(), *self._namelist(str(attrs.get(mq.MQCA_CLUSTER_NAMELIST, "")))]
            for cluster in [n for n in names if n]:
                receiver = kind == mq.MQCHT_CLUSRCVR
                entry: dict[int, int | str] = {
                    mq.MQCA_CLUSTER_Q_MGR_NAME: engine.qmgr_name if receiver else f"SYSTEM.TEMPQMGR.{conname}"[:48],
                    mq.MQCACH_CHANNEL_NAME: name,
                    mq.MQCA_CLUSTER_NAME: cluster,
                    mq.MQCA_Q_MGR_IDENTIFIER: str(qmgr.get(mq.MQCA_Q_MGR_IDENTIFIER, "")) if receiver else f"SYSTEM.TEMPUUID.{conname}"[:48],
                    mq.MQIACF_Q_MGR_DEFINITION_TYPE: mq.MQQMDT_CLUSTER_RECEIVER if receiver else mq.MQQMDT_EXPLICIT_CLUSTER_SENDER,
                    mq.MQIACF_Q_MGR_TYPE: mq.MQQMT_REPOSITORY if receiver and cluster in repos else mq.MQQMT_NORMAL,
                    mq.MQIACF_SUSPEND: mq.MQSUS_NO,
                    mq.MQCACH_CONNECTION_NAME: conname,
                }
                if not receiver:  # the sender's own status (a CLUSRCVR's entry is this queue manager: K, no status shown)
                    running = self.channels.get(name)
                    entry[mq.MQIACH_CHANNEL_STATUS] = running.status if running is not None else mq.MQCHS_INACTIVE
                out.append(entry)
        return out

    def _namelist(self, name: str) -> list[str]:
        """The names a namelist holds ([] for a blank name or a namelist that is not there)."""
        found = self.engine.objects.get(mq.MQOT_NAMELIST, name.strip()) if name.strip() else None
        names = found.attrs.get(mq.MQCA_NAMES, ()) if found is not None else ()
        return [str(n).strip() for n in names] if isinstance(names, tuple) else []

    def inquire_pubsub_status(self, command: Message, p: Parsed) -> list[Message]:
        values = self._values(p)
        wanted = values.get(mq.MQIACF_PS_STATUS_TYPE, mq.MQPSST_ALL)
        if wanted not in (mq.MQPSST_ALL, mq.MQPSST_LOCAL):
            raise Reject(mq.MQRCCF_NONE_FOUND)
        chosen = values.get(mq.MQIACF_PUBSUB_STATUS_ATTRS, (_ALL,))
        assert isinstance(chosen, tuple)
        line: dict[int, int | str] = {
            mq.MQCA_Q_MGR_NAME: self.engine.qmgr_name,
            mq.MQIACF_PS_STATUS_TYPE: mq.MQPSST_LOCAL,
            mq.MQIACF_PUBSUB_STATUS: mq.MQPS_STATUS_ACTIVE,
            mq.MQIA_SUB_COUNT: len(self.engine.objects.by_type.get(-1, {})),
            mq.MQIA_TOPIC_NODE_COUNT: self._topic_nodes(),
        }
        return responses.numbered([self._fields(command, self._pubsub, line, frozenset(chosen) | {mq.MQIACF_PS_STATUS_TYPE, mq.MQIACF_PUBSUB_STATUS})])

    def _topic_nodes(self) -> int:
        """TPCOUNT: the nodes of the topic tree (the pub/sub engine's, DISPLAY TPSTATUS('#')), the root included."""
        pubsub = getattr(self.engine, "pubsub", None)
        if pubsub is None:
            return len(self.engine.objects.by_type.get(mq.MQOT_TOPIC, {}))
        return len(pubsub.nodes()) + 1

    def inquire_qmgr_status(self, command: Message, p: Parsed) -> list[Message]:
        chosen = self._values(p).get(mq.MQIACF_Q_MGR_STATUS_ATTRS, (_ALL,))
        assert isinstance(chosen, tuple)
        sessions = getattr(getattr(self.engine, "messaging", None), "sessions", {})
        line: dict[int, int | str] = {
            mq.MQCA_Q_MGR_NAME: self.engine.qmgr_name,
            mq.MQIACF_Q_MGR_STATUS: mq.MQQMSTA_RUNNING,
            mq.MQIACF_CHINIT_STATUS: mq.MQSVC_STATUS_RUNNING,
            mq.MQIACF_LDAP_CONNECTION_STATUS: mq.MQLDAPC_INACTIVE,
            mq.MQIACF_CMD_SERVER_STATUS: mq.MQSVC_STATUS_RUNNING,
            mq.MQIACF_CONNECTION_COUNT: len(sessions),
            mq.MQCACF_Q_MGR_START_DATE: self.started[0],
            mq.MQCACF_Q_MGR_START_TIME: self.started[1],
        }
        return responses.numbered([self._fields(command, self._qmstatus, line, frozenset(chosen))])

    def connection_id(self, ident: int) -> bytes:
        """A session's 24-byte connection identifier: AMQC, the queue manager's name (12 bytes), the session number."""
        return b"AMQC" + self.engine.qmgr_name.encode("latin-1")[:12].ljust(12, b" ") + ident.to_bytes(8, "big")

    def _connection_matches(self, identifier: bytes, values: dict[int, object]) -> bool:
        """Whether a session's identifier is the one asked for: ConnectionId exactly (a prefix of 16 zero bytes standing
        for this queue manager's, as runmqsc's CONN(16 hex digits) without EXTCONN means, IBM STOP CONN q086790_), or
        GenericConnectionId as a prefix (empty: every connection)."""
        exact = values.get(mq.MQBACF_CONNECTION_ID)
        if isinstance(exact, bytes):
            if len(exact) == _CONNECTION_ID_LENGTH and exact[:_EXTCONN_LENGTH] == bytes(_EXTCONN_LENGTH):
                return identifier[_EXTCONN_LENGTH:] == exact[_EXTCONN_LENGTH:]
            return identifier == exact
        generic = values.get(mq.MQBACF_GENERIC_CONNECTION_ID) or b""
        assert isinstance(generic, bytes)
        return identifier.startswith(generic)

    def stop_connection(self, command: Message, p: Parsed) -> list[Message]:
        """STOP CONN: the session's unit of work is backed out, its handles closed, its non-durable subscriptions
        ended; its application's next call fails with MQRC_CONNECTION_BROKEN (a REST session is opened anew).  No
        such connection: MQRCCF_CONNECTION_ID_ERROR; the queue manager's own (publish/subscribe's):
        MQRCCF_CONN_NOT_STOPPED (both K, formats/commands.tsv)."""
        values = self._values(p)
        layer = getattr(self.engine, "messaging", None)
        sessions = getattr(layer, "sessions", {})
        found = [sessions[i] for i in sorted(sessions) if self._connection_matches(self.connection_id(i), values)]
        if layer is None or len(found) != 1:
            raise Reject(mq.MQRCCF_CONNECTION_ID_ERROR)
        if found[0].system:
            raise Reject(mq.MQRCCF_CONN_NOT_STOPPED)
        layer.stop_session(found[0])
        return responses.success(command)

    def inquire_connection(self, command: Message, p: Parsed) -> list[Message]:
        values = self._values(p)
        chosen = values.get(mq.MQIACF_CONNECTION_ATTRS, (_ALL,))
        info_type = values.get(mq.MQIACF_CONN_INFO_TYPE, mq.MQIACF_CONN_INFO_CONN)
        assert isinstance(chosen, tuple)
        sessions = getattr(getattr(self.engine, "messaging", None), "sessions", {})
        out = []
        for ident in sorted(sessions):
            session = sessions[ident]
            identifier = self.connection_id(ident)
            if not self._connection_matches(identifier, values):
                continue
            shown = frozenset(chosen) | {mq.MQIACF_CONN_INFO_TYPE}
            if info_type in (mq.MQIACF_CONN_INFO_CONN, mq.MQIACF_CONN_INFO_ALL):
                line: dict[int, int | str | bytes | tuple[int, ...]] = {
                    mq.MQBACF_CONNECTION_ID: identifier,
                    mq.MQIACF_CONN_INFO_TYPE: mq.MQIACF_CONN_INFO_CONN,
                    mq.MQIACF_PROCESS_ID: os.getpid(),
                    mq.MQIACF_THREAD_ID: ident,
                    mq.MQCACF_APPL_DESC: "",
                    mq.MQCACF_APPL_TAG: str(getattr(session, "appl_name", "")),
                    mq.MQIA_APPL_TYPE: mq.MQAT_QMGR if session.system else mq.MQAT_USER,
                    mq.MQIACF_ASYNC_STATE: mq.MQAS_NONE,
                    mq.MQCACH_CHANNEL_NAME: "",
                    mq.MQCACH_CLIENT_ID: "",
                    mq.MQCACH_CONNECTION_NAME: "",
                    mq.MQIACF_CONNECT_OPTIONS: _CONNECT_OPTIONS,
                    mq.MQCACF_USER_IDENTIFIER: str(getattr(session, "user", "")),
                    mq.MQIACF_UOW_TYPE: mq.MQUOWT_Q_MGR,
                    mq.MQIACF_UOW_STATE: mq.MQUOWST_ACTIVE if session.uow else mq.MQUOWST_NONE,
                }
                out.append(self._fields(command, self._conn, line, shown))
            if info_type in (mq.MQIACF_CONN_INFO_HANDLE, mq.MQIACF_CONN_INFO_ALL):
                for handle in session.handles.values():
                    options = (mq.MQOO_INPUT_AS_Q_DEF,) * handle.input + (mq.MQOO_OUTPUT,) * handle.output
                    line = {
                        mq.MQBACF_CONNECTION_ID: identifier,
                        mq.MQIACF_CONN_INFO_TYPE: mq.MQIACF_CONN_INFO_HANDLE,
                        mq.MQIACF_ASYNC_STATE: mq.MQAS_NONE,
                        mq.MQCACF_OBJECT_NAME: handle.path[0],
                        mq.MQIACF_OBJECT_TYPE: mq.MQOT_Q,
                        mq.MQIACF_OPEN_OPTIONS: options,
                        mq.MQIACF_HANDLE_STATE: mq.MQHSTATE_ACTIVE if handle.waiting else mq.MQHSTATE_INACTIVE,
                    }
                    out.append(self._fields(command, self._conn, line, shown))
        if not out:
            raise Reject(mq.MQRCCF_NONE_FOUND)
        return responses.numbered(out)
