"""IBM's administrative REST API gateway: which queue manager a request names, and the route to it (sans-IO).

A request whose URL names queue manager X, sent to this server (queue manager G) with the header
``ibm-mq-rest-gateway-qmgr: G``, is carried out on X.  On IBM MQ the gateway queue manager puts
the command on X's command queue, opened with ObjectQMgrName X, so the route is configuration:
a queue-manager alias (a QREMOTE named X with a blank RNAME) or a transmission queue named X
(or the queue manager's DEFXMITQ), then the sender channel that serves that transmission queue,
whose CONNAME is the partner's address.  :func:`resolve` follows exactly that route with PCF
inquiries answered by this server's own engine, and names the partner's address; the shell
(``pcfserver.server.gateway``) sends the command there, as PCF, to the partner's PCF port.

Where the route ends is answered as IBM's name resolution answers MQOPEN: MQRC_UNKNOWN_REMOTE_Q_MGR
(2087) when X resolves to no transmission queue, MQRC_UNKNOWN_XMIT_Q (2196) when the transmission
queue named does not exist, MQRC_XMIT_Q_TYPE_ERROR (2091) / MQRC_XMIT_Q_USAGE_ERROR (2092) when it
is not a local queue of USAGE(XMITQ).  A route with no sender channel that could carry the command
(none serves the transmission queue, it has no CONNAME, or it is STOPPED) is, on IBM, a command
that waits on the transmission queue and a reply that never comes: :class:`Unreachable`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String
from pcfserver.dialects.outcome import Execute, failure

HEADER = "ibm-mq-rest-gateway-qmgr"
DEFAULT_PORT = 1414  # a CONNAME without a port: IBM's default TCP port
# cmqcfc.h / cmqxc.h values, read here so that a queue manager without channel status (whose
# Inquire Channel Status is refused) still routes: MQIACH_CHANNEL_STATUS and MQCHS_STOPPED.
MQIACH_CHANNEL_STATUS = 1527
MQCHS_STOPPED = 6
_SENDERS = (mq.MQCHT_SENDER, mq.MQCHT_SERVER)


@dataclass(frozen=True, slots=True)
class Route:
    """The way to queue manager ``qmgr``: ``xmitq``, the sender ``channel`` serving it, the partner's address."""

    qmgr: str
    xmitq: str
    channel: str
    host: str
    port: int


@dataclass(frozen=True, slots=True)
class NoRoute:
    """Name resolution fails as MQOPEN would, with ``reason``."""

    reason: int
    detail: str


@dataclass(frozen=True, slots=True)
class Unreachable:
    """Resolution succeeds, but no running sender channel could carry the command: no reply would come."""

    qmgr: str
    detail: str


def _text(message: Message, parameter: int) -> str:
    return (message.str_value(parameter) or "").strip()


def _one(execute: Execute, command: Message) -> Message | None:
    """The data response of an inquiry for one object, or None when it failed (not found, not kept)."""
    answer = execute(command)
    if failure(answer) is not None:
        return None
    return next((m for m in answer if m.parameters), None)


def conname_address(conname: str) -> tuple[str, int] | None:
    """The first address of a TCP CONNAME (``host(port)``, ``host``, a comma-separated list), or None."""
    first = conname.split(",")[0].strip()
    if not first:
        return None
    host, port = first, DEFAULT_PORT
    if first.endswith(")") and "(" in first:
        host, _, rest = first.rpartition("(")
        try:
            port = int(rest[:-1].strip())
        except ValueError:
            return None
        host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or not 0 < port < 65536:
        return None
    return host, port


def resolve(target: str, execute: Execute) -> Route | NoRoute | Unreachable:
    """The route from this queue manager to ``target`` (not this queue manager's own name).

    ``execute`` runs a PCF command on this queue manager under its own authority."""
    qmgr, xmitq = target, ""
    queue = _one(execute, Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, target),)))
    defxmitq = ""
    if queue is not None:
        qtype = queue.int_value(mq.MQIA_Q_TYPE)
        if qtype == mq.MQQT_REMOTE:
            if _text(queue, mq.MQCA_REMOTE_Q_NAME):
                return NoRoute(mq.MQRC_UNKNOWN_REMOTE_Q_MGR, f"{target} is a remote queue definition, not a queue-manager alias (its RNAME is not blank)")
            qmgr = _text(queue, mq.MQCA_REMOTE_Q_MGR_NAME) or target
            xmitq = _text(queue, mq.MQCA_XMIT_Q_NAME)
        elif qtype == mq.MQQT_LOCAL:
            xmitq = target
    if not xmitq and qmgr != target:
        named = _one(execute, Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, qmgr), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))
        if named is not None:
            xmitq = qmgr
    if not xmitq:
        manager = _one(execute, Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQCA_DEF_XMIT_Q_NAME,)),)))
        defxmitq = _text(manager, mq.MQCA_DEF_XMIT_Q_NAME) if manager is not None else ""
        xmitq = defxmitq
    if not xmitq:
        return NoRoute(mq.MQRC_UNKNOWN_REMOTE_Q_MGR, f"no queue-manager alias or transmission queue is named {target}, and DEFXMITQ is blank")
    transmission = _one(execute, Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, xmitq),)))
    if transmission is None:
        return NoRoute(mq.MQRC_UNKNOWN_XMIT_Q, f"the transmission queue {xmitq} does not exist")
    if transmission.int_value(mq.MQIA_Q_TYPE) != mq.MQQT_LOCAL:
        return NoRoute(mq.MQRC_XMIT_Q_TYPE_ERROR, f"{xmitq} is not a local queue")
    if transmission.int_value(mq.MQIA_USAGE) != mq.MQUS_TRANSMISSION:
        return NoRoute(mq.MQRC_XMIT_Q_USAGE_ERROR, f"{xmitq} is not a transmission queue (USAGE(NORMAL))")
    return _sender(qmgr, xmitq, execute)


def _sender(qmgr: str, xmitq: str, execute: Execute) -> Route | Unreachable:
    """The first sender (or server) channel, by name, that serves ``xmitq``, has a CONNAME and is not STOPPED."""
    answer = execute(Message(mq.MQCMD_INQUIRE_CHANNEL, (String(mq.MQCACH_CHANNEL_NAME, "*"),)))
    candidates = sorted(
        (m for m in answer if m.parameters and m.int_value(mq.MQIACH_CHANNEL_TYPE) in _SENDERS and _text(m, mq.MQCACH_XMIT_Q_NAME) == xmitq),
        key=lambda m: _text(m, mq.MQCACH_CHANNEL_NAME),
    )
    why = f"no sender channel serves the transmission queue {xmitq}"
    for channel in candidates:
        name = _text(channel, mq.MQCACH_CHANNEL_NAME)
        address = conname_address(_text(channel, mq.MQCACH_CONNECTION_NAME))
        if address is None:
            why = f"the channel {name} has no CONNAME to start from"
            continue
        status = execute(Message(mq.MQCMD_INQUIRE_CHANNEL_STATUS, (String(mq.MQCACH_CHANNEL_NAME, name),)))
        if failure(status) is None and any(m.int_value(MQIACH_CHANNEL_STATUS) == MQCHS_STOPPED for m in status):
            why = f"the channel {name} is STOPPED"
            continue
        return Route(qmgr, xmitq, name, *address)
    return Unreachable(qmgr, why)
