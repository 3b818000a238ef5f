"""The REST gateway's shell: an administrative command for another queue manager, carried to it.

``pcfserver.rest.admin`` hands the HTTP listener an :class:`AdminOperation` whose ``target`` is the
queue manager the URL names (the ``ibm-mq-rest-gateway-qmgr`` header named this one as the
gateway).  :func:`forward` finds the route as IBM MQ would (``pcfserver.rest.gateway.resolve``,
run on this server's engine), connects to the address in the sender channel's CONNAME (the
partner's PCF port), checks that the queue manager there is the one the route leads to, and runs
the operation with every PCF command it makes sent there, so the answer is built exactly as the
partner's own REST API would build it.  The answer carries the ``ibm-mq-rest-gateway-qmgr``
response header naming the gateway, as mqweb's does.

Authority: the partner's plain PCF port runs commands with its own authority, so the gateway
lets through what the caller's role allows without authority records: everything for MQWebAdmin,
displays for MQWebAdminRO; other commands are refused with MQRC_NOT_AUTHORIZED (2035), as a
partner that does not know the user would refuse them.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import replace

import trio

from pcfserver import mq
from pcfserver.client.protocol import PcfClientError, portable
from pcfserver.client.sync import SyncClient
from pcfserver.codec import IntegerList, Message, PcfError
from pcfserver.dialects.outcome import Execute, ExecuteError
from pcfserver.engine.authority import Identity
from pcfserver.engine.responses import error_responses
from pcfserver.rest.admin import AdminOperation
from pcfserver.rest.gateway import HEADER, NoRoute, Route, Unreachable, resolve
from pcfserver.rest.http import Response, error

REPLY_TIMEOUT = 30.0  # seconds: mqweb's default mqRestRequestTimeout


def with_header(response: Response, gateway_qmgr: str) -> Response:
    return replace(response, headers=(*response.headers, (HEADER, gateway_qmgr)))




def _allowed(identity: Identity | None, operation: AdminOperation) -> bool:
    return identity is None or (identity.read_only and not operation.changes)


def carry(route: Route, operation: AdminOperation, identity: Identity | None, gateway_qmgr: str, timeout: float = REPLY_TIMEOUT) -> Response:
    """Runs ``operation`` against the partner at the route's address (blocking: call it in a thread)."""

    def no_reply(why: str) -> Response:
        return error("gateway_no_reply", explanation=(operation.target, gateway_qmgr, why))

    where = f"{route.host}({route.port})"
    try:
        client = SyncClient(route.host, route.port, timeout=timeout)
    except OSError as exc:
        return no_reply(f"the channel {route.channel} cannot reach {where}: {exc.strerror or exc}")
    try:
        ask = Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQCA_Q_MGR_NAME,)),))
        answer = client.execute(ask, check_failure=False)
        name = next(((m.str_value(mq.MQCA_Q_MGR_NAME) or "").strip() for m in answer if m.get(mq.MQCA_Q_MGR_NAME) is not None), "")
        if name != route.qmgr:
            return no_reply(f"the channel {route.channel} reaches queue manager {name or '?'} at {where}, not {route.qmgr}")
        allowed = _allowed(identity, operation)

        def execute(command: Message) -> list[Message]:
            if not allowed:
                return error_responses(command, mq.MQRC_NOT_AUTHORIZED)
            command = portable(command)
            try:
                client.protocol.command_bytes(command)
            except PcfError as exc:  # a command the codec cannot write: its own failure
                return error_responses(command, exc.reason, exc.parameter_id)
            try:
                return client.execute(command, check_failure=False)
            except (PcfClientError, PcfError, OSError) as exc:
                raise ExecuteError(str(exc)) from exc

        return operation.run(execute)
    except ExecuteError as exc:
        return no_reply(f"the connection to {where} failed: {exc}")
    except (PcfClientError, PcfError, OSError) as exc:
        return no_reply(f"the connection to {where} failed: {exc}")
    finally:
        client.close()


async def forward(
    gateway_qmgr: str,
    operation: AdminOperation,
    identity: Identity | None,
    local: Execute,
    apply: Callable[[Callable[[], object]], Awaitable[object]],
    timeout: float = REPLY_TIMEOUT,
) -> Response:
    """The answer to ``operation`` (whose ``target`` is another queue manager), routed from ``gateway_qmgr``.

    ``local`` runs a PCF command on this server's engine; ``apply`` runs an action as one engine
    operation and returns its result (the route is read there, never beside a commit)."""
    target = operation.target
    route = await apply(lambda: resolve(target, local))
    if isinstance(route, NoRoute):
        response = error("gateway_no_route", target, reason=route.reason, explanation=(gateway_qmgr, target, route.detail))
    elif isinstance(route, Unreachable):
        response = error("gateway_no_reply", explanation=(target, gateway_qmgr, route.detail))
    elif isinstance(route, Route):
        response = await trio.to_thread.run_sync(functools.partial(carry, route, operation, identity, gateway_qmgr, timeout))
    else:  # pragma: no cover - the engine operation failed
        response = error("unexpected", "the route could not be read", reason=mq.MQRC_UNEXPECTED_ERROR)
    return with_header(response, gateway_qmgr)
