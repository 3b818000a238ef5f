"""Helpers for the engine tests: building commands, running them through the codec, reading answers."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Protocol

from pcfserver import mq, names
from pcfserver.codec import Integer, IntegerList, Message, Parameter, String, decode, encode
from pcfserver.dialects import mqsc
from pcfserver.engine import Engine
from pcfserver.rest.admin import AdminApi, AdminOperation
from pcfserver.rest.http import Request

ORDERS = ("big", "little")

# IBM's system and default queues of a new queue manager, with their types: those a dmpmqcfg of IBM MQ 9.4 queue
# managers shows (formats/default-objects.tsv [DMP]; IBM "System and default objects" lists them).
L, M, A, R = mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE
IBM_QUEUES: dict[str, int] = {
    "SYSTEM.ADMIN.ACCOUNTING.QUEUE": L,
    "SYSTEM.ADMIN.ACTIVITY.QUEUE": L,
    "SYSTEM.ADMIN.CHANNEL.EVENT": L,
    "SYSTEM.ADMIN.COMMAND.EVENT": L,
    "SYSTEM.ADMIN.COMMAND.QUEUE": L,
    "SYSTEM.ADMIN.CONFIG.EVENT": L,
    "SYSTEM.ADMIN.LOGGER.EVENT": L,
    "SYSTEM.ADMIN.PERFM.EVENT": L,
    "SYSTEM.ADMIN.PUBSUB.EVENT": L,
    "SYSTEM.ADMIN.QMGR.EVENT": L,
    "SYSTEM.ADMIN.STATISTICS.QUEUE": L,
    "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE": L,
    "SYSTEM.ADMIN.TRACE.ROUTE.QUEUE": L,
    "SYSTEM.AMQP.COMMAND.QUEUE": L,
    "SYSTEM.AUTH.DATA.QUEUE": L,
    "SYSTEM.BROKER.ADMIN.STREAM": L,
    "SYSTEM.BROKER.CONTROL.QUEUE": L,
    "SYSTEM.BROKER.DEFAULT.STREAM": L,
    "SYSTEM.BROKER.INTER.BROKER.COMMUNICATIONS": L,
    "SYSTEM.CHANNEL.INITQ": L,
    "SYSTEM.CHANNEL.SYNCQ": L,
    "SYSTEM.CHLAUTH.DATA.QUEUE": L,
    "SYSTEM.CICS.INITIATION.QUEUE": L,
    "SYSTEM.CLUSTER.COMMAND.QUEUE": L,
    "SYSTEM.CLUSTER.HISTORY.QUEUE": L,
    "SYSTEM.CLUSTER.REPOSITORY.QUEUE": L,
    "SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE": M,
    "SYSTEM.CLUSTER.TRANSMIT.QUEUE": L,
    "SYSTEM.DDELAY.LOCAL.QUEUE": L,
    "SYSTEM.DEAD.LETTER.QUEUE": L,
    "SYSTEM.DEFAULT.ALIAS.QUEUE": A,
    "SYSTEM.DEFAULT.INITIATION.QUEUE": L,
    "SYSTEM.DEFAULT.LOCAL.QUEUE": L,
    "SYSTEM.DEFAULT.MODEL.QUEUE": M,
    "SYSTEM.DEFAULT.REMOTE.QUEUE": R,
    "SYSTEM.DOTNET.XARECOVERY.QUEUE": L,
    "SYSTEM.DURABLE.MODEL.QUEUE": M,
    "SYSTEM.DURABLE.SUBSCRIBER.QUEUE": L,
    "SYSTEM.HIERARCHY.STATE": L,
    "SYSTEM.INTER.QMGR.CONTROL": L,
    "SYSTEM.INTER.QMGR.FANREQ": L,
    "SYSTEM.INTER.QMGR.PUBS": L,
    "SYSTEM.INTERNAL.REPLY.QUEUE": L,
    "SYSTEM.INTERNAL.REQUEST.QUEUE": L,
    "SYSTEM.JMS.TEMPQ.MODEL": M,
    "SYSTEM.MQEXPLORER.REPLY.MODEL": M,
    "SYSTEM.MQSC.REPLY.QUEUE": M,
    "SYSTEM.NDURABLE.MODEL.QUEUE": M,
    "SYSTEM.PENDING.DATA.QUEUE": L,
    "SYSTEM.PROTECTION.ERROR.QUEUE": L,
    "SYSTEM.PROTECTION.POLICY.QUEUE": L,
    "SYSTEM.REST.REPLY.QUEUE": L,
    "SYSTEM.RETAINED.PUB.QUEUE": L,
    "SYSTEM.SELECTION.EVALUATION.QUEUE": L,
    "SYSTEM.SELECTION.VALIDATION.QUEUE": L,
}


def command(code: int, *params: Parameter, version: int = 3, kind: int | None = None) -> Message:
    """A command message as pymqi sends it by default (MQCFT_COMMAND_XR, version 3)."""
    return Message(code, tuple(params), type=mq.MQCFT_COMMAND_XR if kind is None else kind, version=version)


def qname(name: str, ccsid: int = 0) -> String:
    return String(mq.MQCA_Q_NAME, name, ccsid)


def qtype(value: int) -> Integer:
    return Integer(mq.MQIA_Q_TYPE, value)


def create(name: str, kind: int = 1, *attrs: Parameter) -> Message:
    return command(mq.MQCMD_CREATE_Q, qname(name), qtype(kind), *attrs)


def change(name: str, kind: int = 1, *attrs: Parameter) -> Message:
    return command(mq.MQCMD_CHANGE_Q, qname(name), qtype(kind), *attrs)


def copy(source: str, target: str, kind: int = 1, *attrs: Parameter) -> Message:
    return command(
        mq.MQCMD_COPY_Q,
        String(mq.MQCACF_FROM_Q_NAME, source),
        String(mq.MQCACF_TO_Q_NAME, target),
        qtype(kind),
        *attrs,
    )


def delete(name: str, *params: Parameter) -> Message:
    return command(mq.MQCMD_DELETE_Q, qname(name), *params)


def through_codec(message: Message, order: str) -> Message:
    """The message as the server would hand it to the engine: encoded, then strictly decoded."""
    [decoded] = decode(encode(message, byte_order=order))
    assert decoded.byte_order == order
    return decoded


def check_shape(answer: list[Message], command_code: int, order: str) -> None:
    """What every answer must look like: numbered from 1, Control LAST on the last only."""
    assert answer, "no response"
    for i, message in enumerate(answer, 1):
        assert message.type == mq.MQCFT_RESPONSE
        assert message.command == command_code
        assert message.msg_seq_number == i
        assert message.control == (mq.MQCFC_LAST if i == len(answer) else mq.MQCFC_NOT_LAST)
        assert message.byte_order == order
    if answer[-1].comp_code != mq.MQCC_OK:
        last = answer[-1]
        assert last.reason == mq.MQRCCF_COMMAND_FAILED and last.parameters == ()
        for message in answer[:-1]:
            assert message.comp_code == mq.MQCC_FAILED
            assert len(message.parameters) <= 1
            assert all(isinstance(p, Integer) for p in message.parameters)


def run(engine: Engine, message: Message, order: str = "big") -> list[Message]:
    """Encodes, decodes, executes, checks the answer's shape and that it encodes in ``order``."""
    answer = engine.execute(through_codec(message, order))
    check_shape(answer, message.command, order)
    for response in answer:
        again = decode(encode(response, byte_order=order))[0]
        assert again == response
    return answer


def reason(answer: list[Message]) -> int:
    """MQRC_NONE for success, else the specific reason of the first error message."""
    return answer[0].reason


def reason_text(answer: list[Message]) -> str:
    first = answer[0]
    extra = [(names.parameter_name(p.parameter), getattr(p, "value", None)) for p in first.parameters] if first.comp_code else []
    return f"{names.reason_name(first.reason)} {extra}"


def error_parameter(answer: list[Message]) -> tuple[int, int] | None:
    params = answer[0].parameters
    if answer[0].comp_code == mq.MQCC_OK or not params:
        return None
    p = params[0]
    assert isinstance(p, Integer)
    return p.parameter, p.value


def ok(engine: Engine, message: Message, order: str = "big") -> list[Message]:
    answer = run(engine, message, order)
    assert answer[-1].comp_code == mq.MQCC_OK, reason_text(answer)
    return answer


def attributes(message: Message) -> dict[int, object]:
    """An Inquire data message as {parameter id: value (strings right-trimmed)}."""
    out: dict[int, object] = {}
    for p in message.parameters:
        if isinstance(p, String):
            out[p.parameter] = p.value.rstrip(" ")
        elif isinstance(p, Integer):
            out[p.parameter] = p.value
        elif isinstance(p, IntegerList):
            out[p.parameter] = p.values
    return out


def inquire(engine: Engine, name: str, *selectors: int, order: str = "big") -> dict[int, object]:
    """One queue's attributes (all when no selectors)."""
    params: list[Parameter] = [qname(name)]
    if selectors:
        params.append(IntegerList(mq.MQIACF_Q_ATTRS, selectors))
    answer = ok(engine, command(mq.MQCMD_INQUIRE_Q, *params), order)
    assert len(answer) == 1
    return attributes(answer[0])


def with_header(message: Message, **fields: int) -> Message:
    return replace(message, **fields)  # type: ignore[arg-type]


def put_messages(engine: Engine, queue: str, count: int, *, syncpoint: bool = False) -> object:
    """``count`` messages put on ``queue`` by a new session of the engine's message layer; returns the session."""
    layer = engine.messaging
    session = layer.open_session("tests")
    for i in range(count):
        engine.execute_operation(lambda i=i: layer.put(session, queue, f"message {i}".encode(), syncpoint=syncpoint))
    return session


def open_queue(engine: Engine, queue: str, *, input: bool = False, output: bool = False) -> tuple[object, int]:
    """A new session holding ``queue`` open (MQOPEN); returns (session, handle)."""
    layer = engine.messaging
    session = layer.open_session("tests")
    return session, engine.execute_operation(lambda: layer.open(session, queue, input=input, output=output))


def close_queue(engine: Engine, opened: tuple[object, int]) -> None:
    from pcfserver.engine.messaging import SessionState

    session, handle = opened
    assert isinstance(session, SessionState)
    engine.execute_operation(lambda: engine.messaging.close(session, handle))


def acknowledged_until_killed(child_script: str, data_dir: object, start: int, kill_after: float) -> list[list[str]]:
    """Runs ``child_script`` (argv: data_dir, start) until SIGKILL ``kill_after`` seconds after it printed READY; the
    words of each complete ``ACK ...`` line it printed (a line cut by the kill is not an acknowledgement)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = subprocess.Popen(
        [sys.executable, "-c", child_script, str(data_dir), str(start)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "READY", child.stderr.read() if child.stderr else ""
    time.sleep(kill_after)
    child.send_signal(signal.SIGKILL)
    out, err = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, err
    complete = out.split("\n")[:-1]  # the last piece is empty, or a line the kill cut (print writes its words one by one)
    return [parts for parts in (line.split() for line in complete) if parts and parts[0] == "ACK"]


class Executes(Protocol):
    """An engine or an embedded queue manager: both run a PCF command and answer it."""

    def execute(self, command: Message) -> list[Message]: ...


def mqsc_output(target: Executes, text: str) -> list[str]:
    """runmqsc's output of ``text`` run as one script."""
    return list(mqsc.run(text, target.execute).lines)


def mqsc_each_line(target: Executes, text: str) -> list[str]:
    """Each line of ``text`` run as an MQSC command of its own; the output lines of all."""
    out: list[str] = []
    for line in text.splitlines():
        out += mqsc.run(line, target.execute).lines
    return out


def run_json(engine: Engine, **body: Any) -> dict[str, Any]:
    """A runCommandJSON request to the admin REST API's mqsc resource, run against ``engine``: the JSON answer."""
    request = Request("POST", "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc", headers=(("ibm-mq-rest-csrf-token", ""),),
                      body=json.dumps({"type": "runCommandJSON", **body}).encode())
    operation = AdminApi("QM1").handle(request)
    assert isinstance(operation, AdminOperation)
    answer: dict[str, Any] = json.loads(operation.run(engine.execute).body)
    return answer
