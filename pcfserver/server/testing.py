"""Small in-memory engines for tests: a fake with the engine's interface and a deliberately wrong one.

``MemoryEngine`` knows queues by name and type only; it answers Create/Change/Delete/Inquire
the way the real engine shapes its answers, which is enough to exercise the server.
``WrongEngine`` breaks the response rules on purpose, so that a conformance run against it
must fail.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine.responses import error_responses, numbered, ok_response, success


class MemoryEngine:
    """Queues in a dict; records every batch it executed."""

    def __init__(self) -> None:
        self.queues: dict[str, int] = {}
        self.batches: list[int] = []
        self.closed = False
        self.delay = 0.0
        self._lock = threading.Lock()

    def execute(self, command: Message) -> list[Message]:
        return self.execute_batch([command])[0]

    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]:
        with self._lock:
            if self.delay:
                threading.Event().wait(self.delay)
            self.batches.append(len(commands))
            return [self._one(c) for c in commands]

    def close(self) -> None:
        self.closed = True

    def _one(self, command: Message) -> list[Message]:
        if command.type not in (mq.MQCFT_COMMAND, mq.MQCFT_COMMAND_XR):
            return error_responses(command, mq.MQRCCF_CFH_TYPE_ERROR)
        code = command.command
        name = (command.str_value(mq.MQCA_Q_NAME) or "").rstrip()
        if code == mq.MQCMD_PING_Q_MGR:
            return success(command)
        if code == mq.MQCMD_CREATE_Q:
            qtype = command.int_value(mq.MQIA_Q_TYPE)
            if not name:
                return error_responses(command, mq.MQRCCF_PARM_MISSING, mq.MQCA_Q_NAME)
            if qtype is None:
                return error_responses(command, mq.MQRCCF_PARM_MISSING, mq.MQIA_Q_TYPE)
            if name in self.queues and command.int_value(mq.MQIACF_REPLACE) != mq.MQRP_YES:
                return error_responses(command, mq.MQRCCF_OBJECT_ALREADY_EXISTS)
            self.queues[name] = qtype
            return success(command)
        if code == mq.MQCMD_CHANGE_Q:
            if name not in self.queues:
                return error_responses(command, mq.MQRC_UNKNOWN_OBJECT_NAME)
            return success(command)
        if code == mq.MQCMD_DELETE_Q:
            if self.queues.pop(name, None) is None:
                return error_responses(command, mq.MQRC_UNKNOWN_OBJECT_NAME)
            return success(command)
        if code == mq.MQCMD_INQUIRE_Q:
            if name.endswith("*"):
                found = sorted(q for q in self.queues if q.startswith(name[:-1]))
            else:
                found = [name] if name in self.queues else []
            if not found:
                return error_responses(command, mq.MQRC_UNKNOWN_OBJECT_NAME)
            return numbered(
                [ok_response(command, (String(mq.MQCA_Q_NAME, q.ljust(48)), Integer(mq.MQIA_Q_TYPE, self.queues[q]))) for q in found]
            )
        return error_responses(command, mq.MQRCCF_CFH_COMMAND_ERROR)


class WrongEngine(MemoryEngine):
    """Gets the response rules wrong: no summary message after an error, and OK for unknown commands."""

    def _one(self, command: Message) -> list[Message]:
        answer = super()._one(command)
        if command.command not in (mq.MQCMD_PING_Q_MGR, mq.MQCMD_CREATE_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_DELETE_Q, mq.MQCMD_INQUIRE_Q):
            return success(command)
        if len(answer) > 1 and answer[-1].reason == mq.MQRCCF_COMMAND_FAILED:
            return [replace(answer[0], control=mq.MQCFC_LAST)]
        return answer
